"""The rule data as a scenario's variants change it: unit types' moves, movement costs, the scatter scheme."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from .looks import RIVER, ROAD
from .models import Rules
from .rule_data import UnitType, Variant

WOODS = "woods"


def active(rules: Rules, ids) -> list[Variant]:
    """The variants switched on, in the rule data's order."""
    return [variant for variant in rules.variants if variant.id in ids]


def unit_type(rules: Rules, type_id: str, variants=()) -> UnitType:
    """A unit type with the variants applied (cavalry moving 3, say)."""
    out = next(t for t in rules.unit_types if t.id == type_id)
    for variant in active(rules, variants):
        if type_id in variant.move:
            out = dataclasses.replace(out, move=variant.move[type_id])
    return out


def costs(rules: Rules, variants=()) -> dict[str, Fraction]:
    """What a square of road, river and woods costs to enter."""
    woods = rules.movement.woods_cost
    for variant in active(rules, variants):
        if variant.woods_cost is not None:
            woods = variant.woods_cost
    return {ROAD: rules.movement.road_cost, RIVER: rules.movement.river_cost, WOODS: woods}


def scatter_id(rules: Rules, variants=()) -> str:
    """The scatter scheme in play: the last variant naming one, else the post's own."""
    chosen = rules.artillery.scatter_default
    for variant in active(rules, variants):
        if variant.scatter:
            chosen = variant.scatter
    return chosen
