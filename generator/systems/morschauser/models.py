"""Morschauser Modern's typed models: the whole rule data (Rules), and a scenario's own keys, kinds bound to that data."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from ...models import FromRules, Model, Typed, UniqueNames, key
from ...scenario import NAME_PATTERN
from ...schema import Choice, Int, ListOf, Spec, Str
from .combat import Artillery, Battle
from .map import FACING_VECTORS, HILL
from .rule_data import (
    NAME,
    GridLimits,
    Limits,
    Movement,
    Note,
    Quality,
    Section,
    Stacking,
    TerrainRules,
    Turn,
    UnitType,
    Variant,
    refers,
)

SQUARE_RE = re.compile(r"([A-Za-z])([0-9]{1,2})")


def parse_square(text: str) -> tuple[int, int] | None:
    """'C4' -> (2, 3): the column from its letter, the row from its number counted from 1; None if not a square."""
    match = SQUARE_RE.fullmatch(text.strip())
    if not match or int(match.group(2)) < 1:
        return None
    return (ord(match.group(1).upper()) - ord("A"), int(match.group(2)) - 1)


class Square(Spec):
    """One grid square written column letter then row number, "C4"; `span` also takes a run "A5:L5"."""

    def __init__(self, span: bool = False):
        self.span = span

    def expected(self):
        return "a square such as C4" + (" or a block of squares such as B2:D4" if self.span else "")

    def check(self, value, path, checker):
        if not isinstance(value, str):
            return self.wrong(value, path, checker)
        ends = value.split(":") if self.span else [value]
        if len(ends) > 2:
            return self.wrong(value, path, checker)
        squares = [parse_square(end) for end in ends]
        if any(square is None for square in squares):
            return self.wrong(value, path, checker)
        if not self.span:
            return squares[0]
        (c0, r0), (c1, r1) = squares[0], squares[-1]
        columns = range(c0, c1 + (1 if c1 >= c0 else -1), 1 if c1 >= c0 else -1)
        rows = range(r0, r1 + (1 if r1 >= r0 else -1), 1 if r1 >= r0 else -1)
        # a run along one row or column keeps its written direction (a road from A5 to L5 runs east)
        return [(c, r) for r in rows for c in columns]

    def json_schema(self):
        pattern = r"^[A-Za-z][0-9]{1,2}(:[A-Za-z][0-9]{1,2})?$" if self.span else r"^[A-Za-z][0-9]{1,2}$"
        return {"type": "string", "pattern": pattern}


@dataclass(frozen=True, kw_only=True)
class GridSize(Model):
    """The grid's size in squares."""

    columns: int = key(
        FromRules(lambda rules: Int(4, rules.grid.columns_max)), "Squares across, lettered A, B, C... from the left."
    )
    rows: int = key(
        FromRules(lambda rules: Int(4, rules.grid.rows_max)), "Squares down, numbered 1, 2, 3... from the top."
    )


@dataclass(frozen=True, kw_only=True)
class Terrain(Model):
    """One terrain entry: a kind over some squares."""

    kind: str = key(
        FromRules(lambda rules: Choice(rules.terrain.kinds, "a terrain kind, one of")),
        "hill, woods, town, road, river or fortification.",
    )
    squares: list = key(
        ListOf(Square(span=True), min=1, max=400),
        "The squares it covers: C4, or a block B2:D4; roads and rivers in order along them.",
    )
    level: int | None = key(
        FromRules(lambda rules: Int(1, rules.terrain.contour_max)),
        "A hill's contour level (the plain is 0).",
        default=None,
    )
    name: str | None = key(
        Str(40, NAME_PATTERN, "a place name"), "A name printed on the map at the first square.", default=None
    )

    def after(self, path, checker):
        if self.kind == HILL and self.level is None:
            checker.report(path, "missing key 'level' (a hill's contour level)")
        if self.kind != HILL and self.level is not None:
            checker.report(path + ("level",), f"only a hill has a contour level (this is {self.kind})")

    def cells(self) -> list[tuple[int, tuple[int, int]]]:
        """Its squares in order, each with the index of the item that named it (C4 or a block)."""
        return [(i, square) for i, span in enumerate(self.squares) for square in span]

    def all_squares(self) -> list[tuple[int, int]]:
        return [square for span in self.squares for square in span]


@dataclass(frozen=True, kw_only=True)
class Objective(Model):
    """An objective square."""

    name: str = key(Str(40, NAME_PATTERN, "a name"), "The objective's name.")
    at: tuple = key(Square(), "Its square.")
    points: int | None = key(Int(0, 100), "Victory points, if the scenario scores them.", default=None)


@dataclass(frozen=True, kw_only=True)
class Unit(Model):
    """One unit of a side, in one square."""

    type: str = key(
        FromRules(lambda rules: Choice([t.id for t in rules.unit_types], "a unit type, one of")),
        "The unit type from the rule data.",
    )
    at: tuple = key(Square(), "The unit's starting square.")
    facing: str = key(
        FromRules(lambda rules: Choice(rules.facings, "a facing, one of")),
        "The edge its front faces: north is the top of the map.",
    )
    quality: str = key(
        FromRules(lambda rules: Choice(rules.quality.levels, "a quality, one of")),
        "normal, or poor (infantry and cavalry only).",
        default="normal",
    )
    name: str | None = key(
        Str(40, NAME_PATTERN, "a unit name"), "A name; defaults to its type and a number.", default=None
    )


@dataclass(frozen=True, kw_only=True)
class Side(Model):
    """The keys this system adds to each side."""

    units: list = key(
        FromRules(lambda rules: ListOf(Typed(Unit, rules), min=1, max=200)), "The side's units, one square each."
    )


def variant_list(rules) -> Spec:
    ids = [v.id for v in rules.variants]
    return ListOf(Choice(ids, "a variant, one of"), max=len(ids))


@dataclass(frozen=True, kw_only=True)
class GridScenario(Model):
    """The keys this system adds to a scenario, and (after validation) its sides' units."""

    grid: GridSize = key(FromRules(lambda rules: Typed(GridSize, rules)), "The grid's size in squares.")
    turns: int = key(
        FromRules(lambda rules: Int(1, rules.limits.turns_max)),
        "How many turns; the schedule draws a tile per unit per turn.",
        default=8,
    )
    variants: list = key(FromRules(variant_list), "Variants from the readers' comments switched on.", default=[])
    terrain: list = key(
        FromRules(lambda rules: ListOf(Typed(Terrain, rules), max=200)), "Terrain by square.", default=[]
    )
    objectives: list = key(ListOf(Typed(Objective), max=20), "Objective squares.", default=[])
    sides: list = dataclasses.field(default_factory=list)  # one Side per scenario side, filled by of()

    @classmethod
    def of(cls, scenario) -> GridScenario:
        """The typed view of a validated scenario's own keys and its sides' units."""
        own = cls.from_clean(scenario.data)
        return dataclasses.replace(own, sides=[Side.from_clean(side) for side in scenario.sides])


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
    reference: list = key(ListOf(Typed(Section), max=20), "The quick reference's sections.")

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
