"""Morschauser Modern's scenario models: the keys a scenario adds (grid, terrain, objectives, units), kinds bound to the rule data."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from ...models import FromRules, Model, Typed, key
from ...scenario import NAME_PATTERN
from ...schema import Choice, Int, ListOf, Spec, Str
from .looks import HILL, PATH_KINDS
from .squares import Square, union


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

    def cells(self) -> Iterator[tuple[int, tuple[int, int]]]:
        """Its squares in order, each with the index of the item that named it (C4 or a block), read lazily."""
        return ((i, square) for i, block in enumerate(self.squares) for square in block)

    def all_squares(self) -> list[tuple[int, int]]:
        """A road's or river's squares in order along it; an area's squares once each (at most the grid's)."""
        if self.kind in PATH_KINDS:
            return [square for block in self.squares for square in block]
        return union(self.squares)


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
