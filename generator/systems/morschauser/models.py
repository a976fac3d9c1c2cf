"""Morschauser Modern's rule data as one typed model (Rules), with the cross-checks between its parts."""

from __future__ import annotations

from dataclasses import dataclass

from ...models import Model, ReferenceSection, Typed, UniqueNames, key
from ...schema import Choice, ListOf, Str
from .combat import Artillery, Battle
from .rule_data import (
    NAME,
    GridLimits,
    Limits,
    Movement,
    Note,
    Quality,
    Stacking,
    TerrainRules,
    Turn,
    UnitType,
    Variant,
    refers,
)
from .squares import FACING_VECTORS


@dataclass(frozen=True, kw_only=True)
class Rules(Model):
    """Morschauser Modern's rule data: every number validation, odds and pages read."""

    id: str = key(Choice(["morschauser-modern"], "the system's id,"), "The system's id.")
    title: str = key(NAME, "The system's name.")
    source: str = key(Str(300), "Where the rules come from, printed under the reference.")
    distance_unit: str = key(Str(40), "What moves and ranges are counted in.")
    grid: GridLimits = key(Typed(GridLimits), "The grid's limits.")
    stacking: Stacking = key(Typed(Stacking), "Units per square.")
    facings: list = key(
        ListOf(Choice(list(FACING_VECTORS), "a facing, one of"), min=1, max=4), "The edges a unit may face."
    )
    facing_note: Note = key(Typed(Note), "How facing is read.")
    unit_types: list = key(UniqueNames(Typed(UnitType), what="unit type", min=1), "The unit types.")
    quality: Quality = key(Typed(Quality), "Unit quality.")
    battle: Battle = key(Typed(Battle), "Battles.")
    artillery: Artillery = key(Typed(Artillery), "Artillery fire.")
    movement: Movement = key(Typed(Movement), "Movement costs.")
    turn: Turn = key(Typed(Turn), "The tiles and the activation order.")
    variants: list = key(UniqueNames(Typed(Variant), what="variant"), "The variants.")
    variants_note: Note = key(Typed(Note), "Variants together.")
    terrain: TerrainRules = key(Typed(TerrainRules), "Terrain kinds.")
    limits: Limits = key(Typed(Limits), "The largest game.")
    reference: list = key(ListOf(Typed(ReferenceSection), max=20), "The quick reference's sections.")

    def after(self, path, checker):
        types = [t.id for t in self.unit_types]
        weapons = [w.id for w in self.artillery.weapons]
        for what, entries in (("unit type", self.unit_types), ("variant", self.variants)):
            ids = [entry.id for entry in entries]
            for i, entry_id in enumerate(ids):
                if entry_id in ids[:i]:
                    checker.report(
                        path + (f"{what.replace(' ', '_')}s", i, "id"), f"two {what}s have the id {entry_id!r}"
                    )
        for i, unit_type in enumerate(self.unit_types):
            refers(unit_type.weapon, weapons, "a weapon", path + ("unit_types", i, "weapon"), checker)
        for i, variant in enumerate(self.variants):
            refers(
                variant.scatter,
                list(self.artillery.scatter),
                "a scatter scheme",
                path + ("variants", i, "scatter"),
                checker,
            )
            for type_id in variant.move:
                refers(type_id, types, "a unit type", path + ("variants", i, "move", type_id), checker)
        if self.limits.units_max > self.turn.cards:
            checker.report(
                path + ("limits", "units_max"),
                f"each unit draws its own tile: at most the {self.turn.cards} "
                f"tiles of turn.cards (got {self.limits.units_max})",
            )
        top = max((t.battle_power for t in self.unit_types), default=self.battle.minimum_power)
        if self.battle.minimum_power > top:
            checker.report(
                path + ("battle", "minimum_power"), f"the floor is above every unit type's Battle Power (at most {top})"
            )
