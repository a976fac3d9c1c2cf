"""The WarSpike pack's data: cover facts, rosters, the turn tracker and the reference's worked Advantage examples."""

from __future__ import annotations

from ...models import english_list
from ...table import OnTable, side_words
from . import advantage
from .models import Rules
from .scenario import DISTANCE_UNITS

TRACKER_TURNS_PER_TABLE = 14  # turn columns that fit across A4 and Letter beside the Unit names, each box 5 mm wide


def tracker(turn_count: int, forces: list[dict], rules: Rules, changeover: bool) -> dict:
    """The turn tracker: turns in tables of up to 12, each side's Units in tree order, tally rows for Advantage; the
    marks a box may hold (no Changeover move's where no Unit that can be Retaliator is free to make one: not
    `changeover`)."""
    turns = list(range(1, turn_count + 1))
    # as few tables as fit, sharing the turns evenly (14 turns: 7 and 7), every table as wide as the first
    tables = -(-len(turns) // TRACKER_TURNS_PER_TABLE)
    width = -(-len(turns) // tables)
    chunks = [
        {"turns": turns[i : i + width], "pad": width - len(turns[i : i + width])} for i in range(0, len(turns), width)
    ]
    # Advantage only picks between sides that can instigate: where one side alone can (the other holds), the coin
    # toss decides each turn and a tally would be counted for nothing
    contested = sum(1 for force in forces if force["can_instigate"]) > 1
    sides = []
    for s, force in enumerate(forces):
        other = forces[1 - s]["side"].name
        tallies = advantage.tallies(vars(rules.advantage.counts), other)
        sides.append(
            {
                "side": force["side"],
                "can_instigate": force["can_instigate"],
                "rows": force["rows"],
                "tallies": tallies if contested else [],
            }
        )
    return {
        "chunks": chunks,
        "columns": width,
        "turns": len(turns),
        "sides": sides,
        "marks": [mark for mark in rules.per_turn.tracker_marks if changeover or not mark.changeover],
        "advantage": contested,
        "only": None if contested else next((f["side"].name for f in forces if f["can_instigate"]), None),
    }


EXAMPLE_SIDES = ("Side A", "Side B")


def examples(names: list[str], rules: Rules) -> list[dict]:
    """The reference sheet's worked Advantage examples, settled by the same function players' tallies follow."""
    out = []
    for example in rules.advantage.examples:
        result = advantage.settle((example.first, example.second), rules.advantage.counts)
        out.append(
            {
                "first": _describe(names[0], example.first),
                "second": _describe(names[1], example.second),
                "totals": list(result.totals),
                "names": names,
                "outcome": (
                    f"{names[result.advantage]} has the Advantage and is Instigator next turn"
                    if result.advantage is not None
                    else "a tie, settled by the coin toss as at the start of a game"
                ),
            }
        )
    return out


def _describe(name: str, moves: advantage.Movement) -> str:
    # in the rule data's order of the kinds a Unit can end the turn in
    parts = [f"{getattr(moves, kind)} {kind}" for kind in advantage.KINDS if getattr(moves, kind)]
    return f"{name}: " + (", ".join(parts) if parts else "no Unit moved")


def first_turn(instigator: str | None, forces: list[dict]) -> str:
    """Who is Instigator on turn 1: the scenario's named side, the only side able to be, or the coin toss."""
    able = [force["side"].name for force in forces if force["can_instigate"]]
    if instigator:
        later = (
            f"each later turn {able[0]} becomes Instigator or passes, whoever wins the coin toss"
            if len(able) == 1
            else "Advantage decides every later turn"
        )
        return f"{instigator} is the Instigator on turn 1, as the Scenario states; {later}."
    if len(able) == 1:
        return (
            f"Only {able[0]} can ever be Instigator (every Unit of the other side is under hold orders): each turn "
            f"{able[0]} becomes Instigator or passes, whoever wins the coin toss (the other side, winning it, can "
            "only pass)."
        )
    return "Flip a coin for turn 1: the winner becomes the Instigator or passes."


def glance(forces: list[dict]) -> dict:
    """The cover's strength of each army: its Units, troops and Blocks, how many Units hold, and whether it can
    ever be Instigator."""
    rows = [
        {
            "side": force["side"],
            "cells": [
                force["units"],
                force["troops"],
                force["blocks"],
                force["holding"],
                "yes" if force["can_instigate"] else "no",
            ],
        }
        for force in forces
    ]
    return {"columns": ["Units", "Troops", "Blocks", "Under hold orders", "Can be Instigator"], "rows": rows}


def battle_time(seconds: int) -> str:
    """A game's battle time in words: "7 minutes", "4 minutes 40 seconds" (not "4.67 minutes"), "50 seconds"."""
    minutes, rest = divmod(seconds, 60)
    said = [f"{minutes} minute{'s' if minutes != 1 else ''}" if minutes else "", f"{rest} seconds" if rest else ""]
    return " ".join(filter(None, said)) or "0 seconds"


def flow_words(rules: Rules, usable: frozenset[str] | None) -> dict[str, str]:
    """The options the turn sequence names: every Action, and the Reactions in `usable` (all where None)."""
    reactions = [r.name for r in rules.reactions if usable is None or r.name in usable]
    return {
        "{actions}": english_list([a.name for a in rules.actions], "or"),
        "{reactions}": english_list(reactions, "or") if reactions else "none",
    }


def pack(prepared, rules: Rules, marked: dict) -> dict:
    """Plain data for templates/warspike/pack.html, read from what prepare() worked out; `marked` is the rule data
    as the reference prints it, each value house rules changed marked (System.reference_data)."""
    settings = prepared.settings
    forces = prepared.forces
    mark, words = DISTANCE_UNITS[settings.distance_unit]
    turns = tracker(settings.turns, forces, rules, prepared.changeover)
    return {
        "forces": forces,
        "tracker": turns,
        # what only this battle's sides make true ("only Legio II Augusta can be Instigator"): a pack's words, never
        # a booklet's appendix, which serves every WarSpike chapter
        "in_this_battle": not prepared.whole_reference,
        "first_turn": first_turn(settings.instigator, forces),
        # where one side alone can instigate and the scenario names no Instigator, the line is true of every turn
        "first_turn_label": "Each turn." if settings.instigator is None and turns["only"] else "Turn 1.",
        # what the Units that can be Retaliator may do: a battle where all of them hold skips the Changeover, and
        # its reference prints no way of countering a Move they cannot make (cards.reacting)
        "reacting": {"reactions": prepared.reactions, "changeover": prepared.changeover},
        # the turn sequence's "{actions}" and "{reactions}": in a pack, only the Reactions its Retaliators may make
        # (a Ford whose war band all holds offered "Move" at step 2)
        "flow_words": flow_words(rules, prepared.reactions if not prepared.whole_reference else None),
        "turns": settings.turns,
        "battle_seconds": rules.turn.battle_seconds,
        "battle_time": battle_time(settings.turns * rules.turn.battle_seconds),
        "distance_words": words,
        "glance": glance(forces),
        "map": prepared.map,
        "map_page": prepared.map_page,
        "table": settings.table,
        "unit_mark": mark,
        "objectives": settings.objectives,
        "deployments": [
            {"side": force["side"], "words": words}
            for force, army in zip(forces, prepared.armies)
            if (words := side_words(OnTable.of(army, "units"), settings.table, mark))
        ],
        "terrain_note": rules.terrain_note.note if settings.terrain else "",
        "rules": rules,
        # the Advantage rule is worded from the counts: a club's change to them is marked where the reference prints it
        "advantage_rule": marked["advantage"]["rule"],
        # the examples illustrate the rule for any two sides, not this scenario's: its sides may not be able to
        # win the Advantage at all (hold orders), or field fewer Units than an example moves
        "examples": examples(list(EXAMPLE_SIDES), rules),
    }
