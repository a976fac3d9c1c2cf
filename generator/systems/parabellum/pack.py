"""The scenario pack's data for templates/para-bellum/pack.html: forces, odds cut to the units in play, plans, reference."""

from __future__ import annotations

from . import odds
from .models import Rules
from .roster import ForcesPrepared


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
        for row in rows:
            row["label"] = f"{row['stress']}+" if row is rows[-1] and row["stress"] > 0 else str(row["stress"])
        out.append({"discipline": discipline, "rows": rows})
    return out


def order_table(rules: Rules, prepared: ForcesPrepared):
    """The order-value table, cut to the discipline scores the scenario's units have."""
    table = odds.order_value_table(rules, prepared.variants)
    table.rows = [row for row in table.rows if "discipline" not in row or row["discipline"] in prepared.disciplines]
    return table


def pack(rules: Rules, prepared: ForcesPrepared) -> dict:
    """Plain data for the pack: each force carries the core's side view, so the template iterates one list."""
    return {
        "forces": prepared.forces,
        "variants": [rules.variants.by_name()[name] for name in prepared.variants],
        "ap_blocks": ap_blocks(rules, prepared),
        "ap_values": odds.point_values(rules),
        "order_table": order_table(rules, prepared),
        "plans_reference": [
            {"points": n, "plans": [prepared.rows[plan] for plan in prepared.plans if plan.cost == n]}
            for n in range(1, rules.action_points.max + 1)
        ],
        "actions": [
            {
                "name": action.name,
                "kind_label": rules.kinds[action.kind].label,
                "cost": rules.cost(action),
                "abbr": action.abbr,
                "rule": action.rule,
            }
            for action in rules.actions
        ],
        "weapon_tags": rules.weapon_tags,
        "source": rules.source,
    }
