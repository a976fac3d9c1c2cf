"""The scenario keys Para Bellum adds (variants, each side's units) as typed models, bounded by the rule data."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...models import FromRules, Model, Typed, key
from ...scenario import NAME_PATTERN
from ...schema import Bool, Choice, Int, ListOf, Str
from ...table import (
    AT_DOC,
    DEPLOYMENT,
    MOVES,
    MOVES_DOC,
    POINT,
    REINFORCEMENTS,
    REINFORCEMENTS_DOC,
    Feature,
    Objective,
    TableSize,
    places_anything,
)

DISCIPLINE = "discipline"
DEFAULT_TABLE = TableSize(72, 48)  # a map's table when a scenario places terrain, zones or objectives but no size


def _name(length: int = 40) -> Str:
    return Str(length, NAME_PATTERN, "a name (no control characters, < > { } or \\)")


@dataclass(frozen=True)
class Weapon(Model):
    """One ranged weapon of a unit, with its tags."""

    name: str = key(_name(), "The weapon's name as printed.")
    tags: list = key(
        FromRules(lambda rules: ListOf(Choice(rules.tag_names, "a weapon tag, one of"), max=len(rules.tag_names))),
        "Special rules: heavy (fired only by a Long Fire!), assault (may Fire! and Charge!).",
        default=[],
    )

    def after(self, path, checker):
        for i, tag in enumerate(self.tags):
            if tag in self.tags[:i]:
                checker.report(path + ("tags", i), f"the tag {tag!r} is given twice")


@dataclass(frozen=True)
class Unit(Model):
    """One unit of a side: it activates, rolls for action points and acts as a whole."""

    name: str = key(_name(), "The unit's name (its cards carry it).")
    models: int = key(Int(1, 100), "How many models the unit has; it acts as a whole.")
    movement: int = key(Int(0, 48), "Movement Value in inches: Move! and Charge! go this far, Run! twice as far.")
    weapons: list = key(ListOf(Typed(Weapon), max=8), "The unit's ranged weapons, each with its tags.", default=[])
    hq: bool = key(Bool(), "An HQ unit: it holds Command Points to order Take Action!.", default=False)
    command_points: int | None = key(
        FromRules(lambda rules: Int(1, rules.hq.command_points_max)),
        "An HQ's Command Points (one per Take Action! order).",
        default=None,
    )
    stress: int = key(
        FromRules(lambda rules: Int(0, rules.stress.max)), "Stress points the unit starts with.", default=0
    )
    discipline: int | None = key(
        FromRules(lambda rules: Int(rules.variants.discipline.min, rules.variants.discipline.max)),
        "Discipline score needed on a D6 (2 to 6); required with the discipline variant, refused without it.",
        default=None,
    )
    at: list | None = key(POINT, AT_DOC, default=None)

    def after(self, path, checker):
        if self.hq and self.command_points is None:
            checker.report(
                path, "an HQ unit needs command_points (1 or more), the Command Points it spends on Take Action! orders"
            )
        if not self.hq and self.command_points is not None:
            checker.report(path + ("command_points",), "only an HQ unit (hq: true) has command points")


@dataclass(frozen=True)
class Side(Model):
    """The keys Para Bellum adds to each side."""

    units: list = key(ListOf(Typed(Unit), min=1, max=30), "The side's units, HQs among them.")
    deployment: list | None = key(
        DEPLOYMENT,
        "Where the side deploys, in inches: one rectangle [x, y, width, depth], or a list of zones, each a "
        "`rect`, a `polygon` or an `edge` (with a `depth`, a strip along it; without, the side enters from it).",
        default=None,
    )
    reinforcements: list = key(REINFORCEMENTS, REINFORCEMENTS_DOC, default=[])
    moves: list = key(MOVES, MOVES_DOC, default=[])


@dataclass(frozen=True)
class Setup(Model):
    """The keys Para Bellum adds to a scenario."""

    variants: list = key(
        FromRules(lambda rules: ListOf(Choice(list(rules.variants.by_name()), "a rule variant, one of"), max=4)),
        "Named rule variants to play: `discipline` rolls action points as a discipline test.",
        default=[],
    )
    table: TableSize | None = key(
        Typed(TableSize),
        "The table's size in inches; the pack then prints a map of it. Omitted, a scenario with terrain, "
        "objectives, deployment zones, reinforcements, planned moves or units' starting points is drawn on 72 x 48 "
        "inches.",
        default=None,
    )
    terrain: list = key(
        ListOf(Typed(Feature), max=120), "Terrain pieces drawn on the map (the rules give them no effect).", default=[]
    )
    objectives: list = key(ListOf(Typed(Objective), max=20), "Objectives marked on the map.", default=[])

    @classmethod
    def of(cls, scenario) -> Setup:
        """The Para Bellum keys of a validated scenario; a map's table defaulted where terrain, objectives or a
        deployment zone needs one."""
        setup = cls.from_clean(scenario.data)
        if setup.table is None and (setup.terrain or setup.objectives or places_anything(scenario.sides, "units")):
            setup = replace(setup, table=DEFAULT_TABLE)
        return setup
