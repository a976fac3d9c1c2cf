"""The scenario pack's data for templates/para-bellum/pack.html: forces, odds cut to the units in play, the plan table, reference."""

from __future__ import annotations

from ...distances import INCH
from ...table import side_words
from . import odds, plans
from .models import Rules
from .roster import ForcesPrepared, form_name, tag_label


def ap_blocks(rules: Rules, prepared: ForcesPrepared) -> list[dict]:
    """The action-point table as blocks of rows (one block per discipline score in play), each row a stress level."""
    table = odds.action_points_table(rules, prepared.variants)
    values = odds.point_values(rules)
    blocks: dict = {}
    for row in table.rows:
        discipline = row.get("discipline")
        cells = {"cells": [row[f"ap{n}"] for n in values], "expected": row["expected"]}
        block = blocks.setdefault(discipline, {"discipline": discipline, "rows": {}})
        entry = block["rows"].setdefault(row["stress"], {"stress": row["stress"]})
        entry["ordered" if row["order"] else "plain"] = cells
    out = []
    for discipline, block in blocks.items():
        if discipline is not None and discipline not in prepared.disciplines:
            continue
        rows = list(block["rows"].values())
        levels = [row["stress"] for row in rows]
        for row in rows:
            row["label"] = odds.stress_label(row["stress"], levels)
        out.append({"discipline": discipline, "rows": rows})
    return out


def odds_lead(rules: Rules, prepared: ForcesPrepared) -> str:
    """The Odds part's first sentence, from the rule data: which roll the tables count over (the D6's own table,
    or the Discipline test, with its points, where that variant is played), and how Stress, the order and the
    limits change it."""
    die, limits = rules.action_points.die, rules.action_points
    if "discipline" in prepared.variants:
        test = rules.variants.discipline
        roll = (
            f"the Discipline test's D{die} ({test.failure} point{'s' if test.failure != 1 else ''} below the unit's "
            f"Discipline, {test.success} at or above it, {test.perfect} on a natural {test.perfect_natural})"
        )
        after = " One table for each Discipline these forces have."
    else:  # the D6's own table is in the quick reference, beside the tables
        roll = f"the D{die}"
        after = ""
    stress, bonus = -rules.stress.per_point, rules.order.bonus
    return (
        f"Exact chances over the {die} faces of {roll}, less {stress} point{'s' if stress != 1 else ''} per Stress, "
        f"plus {bonus} for a {rules.order.name} order, kept between {limits.min} and {limits.max} points.{after}"
    )


def order_table(rules: Rules, prepared: ForcesPrepared):
    """The order-value table, cut to the discipline scores the scenario's units have."""
    table = odds.order_value_table(rules, prepared.variants)
    table.rows = [row for row in table.rows if "discipline" not in row or row["discipline"] in prepared.disciplines]
    return table


def plan_table(rules: Rules, every: list[plans.Plan]) -> list[dict]:
    """Every legal plan as a player reads it: one row per set of actions (taken in any order) at each cost.

    A set whose every order wastes Take Aim! (no Fire! after it) is left out, as the table's note says; a set
    with some wasted orders says which action must come first; Fire! with Charge! says what it needs.
    """
    position = {action.id: i for i, action in enumerate(rules.actions)}
    names = {action.action: action.name for action in reversed(rules.actions)}
    sets: dict[tuple, list[plans.Plan]] = {}
    for plan in every:
        sets.setdefault((plan.cost, tuple(sorted(plan.steps, key=position.get))), []).append(plan)
    rule = rules.fire_and_charge
    groups = {n: [] for n in range(1, rules.action_points.max + 1)}
    for (cost, steps), orders in sets.items():
        useful = [plan for plan in orders if not plan.wastes_aim]
        if not useful:
            continue
        when = []
        if len(useful) < len(orders):
            when += [
                f"{rules.action(step).name} before {names[rules.action(step).bonus_for]}"
                for step in steps
                if rules.action(step).bonus_for
            ]
            if len(steps) > 2:
                when[0] = "in any order, " + when[0]
        elif len(steps) > 1:
            when.append("in any order")
        if orders[0].fire_and_charge:
            when.append(f"only if every weapon fired is {tag_label(rule.tag)}")
        groups[cost].append({"actions": [form_name(rules, rules.action(step)) for step in steps], "when": when})
    return [{"points": n, "rows": rows} for n, rows in groups.items() if rows]


def plan_words(rules: Rules) -> dict:
    """The plan table's lead and note, from the rule data: what limits a plan, and which plans it leaves out."""
    names = {action.action: action.name for action in reversed(rules.actions)}
    forms: dict[str, list[str]] = {}
    for action in rules.actions:
        forms.setdefault(action.action, []).append(rules.kinds[action.kind].label)
    several = [
        f"{names[action]} is one action, {' or '.join(labels)}" for action, labels in forms.items() if len(labels) > 1
    ]
    alone = [action.name for action in rules.actions if action.alone]
    lead = "Each action is taken at most once an activation" + (f" ({'; '.join(several)})" if several else "")
    lead += f"; {' and '.join(alone)} only on its own (this pack's reading)." if alone else "."
    wasted = [
        f"{action.name} with no {names[action.bonus_for]} after it" for action in rules.actions if action.bonus_for
    ]
    note = (" and ".join(wasted) + " is allowed but gains nothing; those plans are not listed.") if wasted else ""
    return {"lead": lead, "note": note}


STANDARD_ROLL = "Standard roll"  # the quick reference's name for the action point table a variant replaces


def in_play(rules: Rules, prepared: ForcesPrepared) -> dict[str, bool]:
    """What the quick reference prints only for forces that field it: each weapon tag by name (the tags table),
    the HQ rules' note, each variant's note and lines only where the scenario plays it, and the standard action
    point roll only where no variant replaces it (every variant so far does)."""
    units = [unit for force in prepared.forces for unit in force.units]
    tags = {tag for unit in units for weapon in unit["weapons"] for tag in weapon["tags"]}
    played = {variant.name: name in prepared.variants for name, variant in rules.variants.by_name().items()}
    return {
        **{tag.name: tag.name in tags for tag in rules.weapon_tags},
        rules.hq.name: any(u["hq"] for u in units),
        **played,
        STANDARD_ROLL: not prepared.variants,
        rules.terrain_note.name: bool(prepared.setup.terrain),
    }


def glance(forces: list) -> dict:
    """The cover's strength of each side: its units and models, its HQs and their Command Points, and the Stress
    its units start with."""
    rows = [
        {
            "side": force.side,
            "cells": [
                len(force.units),
                force.models,
                force.hqs,
                force.command_points,
                sum(unit["stress"] for unit in force.units),
            ],
        }
        for force in forces
    ]
    return {"columns": ["Units", "Models", "HQs", "Command Points", "Stress at the start (all units)"], "rows": rows}


def _table_rows(rules: Rules) -> tuple[list[dict], list[dict]]:
    """The reference's actions table and weapon tags table, one plain row each (an action by its id: the two Fire!
    actions share a name; a tag by its name)."""
    actions = [
        {
            "id": action.id,
            "name": action.name,
            "kind_label": rules.kinds[action.kind].label,
            "cost": rules.cost(action),
            "rule": action.rule,
        }
        for action in rules.actions
    ]
    tags = [{"name": tag.name, "label": tag_label(tag.name), "rule": tag.rule} for tag in rules.weapon_tags]
    return actions, tags


def pack(rules: Rules, prepared: ForcesPrepared, leaves_out: frozenset[str], written: Rules | None = None) -> dict:
    """Plain data for the pack: each force carries the core's side view, so the template iterates one list; the
    weapon tags table holds only the tags the units' weapons carry (none of `leaves_out`). `written` is the rule
    data as written, for a pack played with house rules: its tables print a changed value beside the one it
    replaces."""
    actions, tags = _table_rows(rules)
    was_actions, was_tags = _table_rows(written) if written is not None else ([], [])
    return {
        "forces": prepared.forces,
        # the cover's variants in play (_macros.html variants_in_play), each with its whole rule: the cards print none
        "variants": [
            {"name": variant.name, "text": variant.rule}
            for variant in (rules.variants.by_name()[name] for name in prepared.variants)
        ],
        "ap_blocks": ap_blocks(rules, prepared),
        "odds_lead": odds_lead(rules, prepared),
        "ap_values": odds.point_values(rules),
        "order_table": order_table(rules, prepared),
        "plan_table": plan_table(rules, prepared.plans),
        "plan_words": plan_words(rules),
        "actions": actions,
        "weapon_tags": [tag for tag in tags if tag["name"] not in leaves_out],
        "written_actions": {action["id"]: action for action in was_actions},
        "written_tags": {tag["name"]: tag for tag in was_tags},
        "source": rules.source,
        "glance": glance(prepared.forces),
        "map": prepared.map,
        "map_page": prepared.map_page,
        "table": prepared.setup.table,
        "unit_mark": INCH,
        "objectives": prepared.setup.objectives,
        "deployments": [
            {"side": force.side, "words": words}
            for force, on_table in zip(prepared.forces, prepared.on_table)
            if (words := side_words(on_table, prepared.setup.table, INCH))
        ],
        "terrain_note": rules.terrain_note.note if prepared.setup.terrain else "",
    }
