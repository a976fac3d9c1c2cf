"""The pack's data for templates/morschauser-modern/pack.html, read from what prepare() worked out."""

from __future__ import annotations

from collections import Counter

from . import variants as rule_variants
from .deck import card_label, order_words
from .looks import level_mark
from .squares import square_name

# the height of one row of the umpire's tile schedule as pack.css prints it (7 pt text, 0.4 mm padding), in mm:
# a test reads the rows' pitch back from the PDF and holds this to it
SCHEDULE_ROW_MM = 4.29
# rows of a schedule block beyond its units: its two header rows and the space below it
SCHEDULE_BLOCK_EXTRA_ROWS = 3


def pack(prepared, tables: list, powers: range, leaves_out: frozenset[str], written=None) -> dict:
    """Plain data for the pack: the map, forces by side, the schedule, odds, the reference in play (its unit types
    table holds only the types the scenario fields: none of `leaves_out`). `written` is the rule data as written,
    for a pack played with house rules: the unit types table prints a changed value beside the one it replaces."""
    rules, game = prepared.rules, prepared.game
    variants = tuple(game.variants)
    by_code = {row["code"]: row for row in prepared.roster}
    schedule = [
        {
            "turn": turn["turn"],
            "draws": [{**card_label(draw["card"]), "unit": by_code[draw["code"]]} for draw in turn["draws"]],
        }
        for turn in prepared.deck["turns"]
    ]
    odds = {table.id: table for table in tables}
    battle = {(row["attacker"], row["defender"]): row for row in odds["battle"].rows}
    matrix = [
        {
            "attacker": a,
            "cells": [
                {
                    "win": battle[(a, d)]["win_destroy"] + battle[(a, d)]["win_retreat"],
                    "destroy": battle[(a, d)]["win_destroy"],
                }
                for d in powers
            ],
        }
        for a in powers
    ]
    scheme_id = rule_variants.scatter_id(rules, variants)
    scheme, original = rules.artillery.scatter[scheme_id], rules.artillery.scatter_default
    spots = {spot.id: spot.name for spot in rules.artillery.landing}
    return {
        "grid": {
            "columns": game.grid.columns,
            "rows": game.grid.rows,
            "last": square_name(game.grid.columns - 1, game.grid.rows - 1),
        },
        "turns": game.turns,
        "glance": glance(prepared),
        "map": prepared.map,
        "map_page": prepared.map_page,
        "legend": prepared.legend,
        # the hill levels the map marks (∩1, ∩2...), for the legend's note
        "level_marks": [
            level_mark(int(item["key"].removeprefix("hill-")))
            for item in prepared.legend
            if item["key"].startswith("hill-")
        ],
        # whether any contour line is heavier than another (a step of two levels or more between two squares)
        "steep_steps": prepared.steepest_step > 1,
        "glyph_legend": prepared.glyph_legend,
        "objectives": [{"name": o.name, "square": square_name(*o.at), "points": o.points} for o in game.objectives],
        "forces": [
            {
                "side": side,
                "letter": chr(ord("A") + side.index),
                "units": [row for row in prepared.roster if row["side"].index == side.index],
            }
            for side in prepared.sides
        ],
        "schedule": schedule,
        # the bag and the order the schedule's page states, from the rule data (a house rule may change them)
        "tiles": {
            "count": rules.turn.cards,
            "order": order_words(rules.turn.ranks, rules.turn.suit_names),  # as the reference and `muster deck` say it
        },
        "unit_count": len(prepared.roster),
        # a block of four turns' columns as tall as this, in mm: kept whole where at most half a page tall (pushed
        # to the next page, it leaves at most half a page empty), split across pages where taller
        "schedule_block_mm": round((len(prepared.roster) + SCHEDULE_BLOCK_EXTRA_ROWS) * SCHEDULE_ROW_MM, 2),
        "any_fires": any(row["fires"] for row in prepared.roster),  # the schedule's header keys its dagger
        "odds": odds,
        "battle_powers": list(powers),
        "battle_matrix": matrix,
        "scatter": {
            # "Original scatter" only beside the variants that replace it (a booklet's whole reference prints
            # each scatter a chapter plays); a pack that plays no scatter variant has one scatter
            "name": scheme.name if prepared.whole_reference or scheme_id != original else "Scatter",
            "faces": [{"face": face, "lands": spots[spot]} for face, spot in sorted(scheme.faces.items())],
        },
        "costs": {kind: str(cost) for kind, cost in rule_variants.costs(rules, variants).items()},
        # the cover's variants in play (_macros.html variants_in_play), each with its rule in a line
        "variants": [
            {"id": v.id, "name": v.name, "summary": v.summary, "text": v.summary}
            for v in rule_variants.active(rules, variants)
        ],
        # the quick reference's movement section: a scatter variant prints as the scatter table instead
        "movement_variants": [
            {"name": v.name, "summary": v.summary} for v in rule_variants.active(rules, variants) if v.scatter is None
        ],
        "unit_types": [
            rule_variants.unit_type(rules, t.id, variants) for t in rules.unit_types if t.name not in leaves_out
        ],
        "written_types": {
            t.name: rule_variants.unit_type(written, t.id, variants) for t in (written.unit_types if written else [])
        },
        "rules": rules,
    }


def glance(prepared) -> dict:
    """The cover's strength of each side: its units, how many of each type, and their Battle Power added up (poor
    quality taken off, as the roster prints it)."""
    rows = []
    for side in prepared.sides:
        units = [row for row in prepared.roster if row["side"].index == side.index]
        types = Counter(row["type"] for row in units)
        by_type = ", ".join(f"{count} {name}" for name, count in types.items())
        rows.append({"side": side, "cells": [len(units), by_type, sum(row["battle_power"] for row in units)]})
    return {"columns": ["Units", "By type", "Battle Power"], "rows": rows}
