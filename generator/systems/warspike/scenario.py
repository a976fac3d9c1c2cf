"""The keys a WarSpike scenario adds, as typed models: game length and Instigator, each side's Units and Blocks."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...distances import INCH
from ...models import FromRules, Model, Typed, key
from ...scenario import NAME_PATTERN
from ...schema import Bool, Choice, Int, ListOf, Num, Str
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
from .models import Rules

# the mark printed after a Move and the unit in words (seed 002 gives no unit: see the rule data's move_distance)
DISTANCE_UNITS = {"inch": (INCH, "inches"), "cm": (" cm", "centimetres")}
# the table a scenario's map is drawn on when it places terrain, zones or objectives but gives no size: 6 by 4 feet
DEFAULT_TABLE = {"inch": TableSize(72, 48), "cm": TableSize(180, 120)}
NAME_WORDS = "a name (no control characters, < > { } or \\)"


@dataclass(frozen=True)
class Unit(Model):
    """One Unit of an army: its stats, its leader and its orders."""

    name: str = key(
        Str(40, NAME_PATTERN, NAME_WORDS),
        "The Unit's name; Blocks name their members by it, so it is unique in the scenario.",
    )
    troops: int = key(FromRules(lambda rules: Int(1, rules.unit.troops_max)), "How many troops (figures) the Unit has.")
    stature: float = key(FromRules(lambda rules: Num(0.1, rules.unit.stature_max)), "The Unit's Stature stat.")
    move_rate: float = key(
        FromRules(lambda rules: Num(0.1, rules.unit.move_rate_max)),
        "The Unit's move rate; a Move goes up to Stature x move rate.",
    )
    leader: str | None = key(
        Str(60, NAME_PATTERN, "a name"), "Who leads the Unit, where the Scenario gives one.", default=None
    )
    mentality: int | None = key(
        FromRules(lambda rules: Int(0, rules.unit.mentality_max)),
        "The leader's Mentality stat, where given.",
        default=None,
    )
    hold: bool = key(Bool(), "Under hold orders: the Unit holds its ground and only reacts.", default=False)
    at: list | None = key(POINT, AT_DOC, default=None)


@dataclass(frozen=True, kw_only=True)  # keys in the order authors write them, required or not
class Block(Model):
    """Units and smaller Blocks of one side that follow a leader and act as one."""

    name: str = key(
        Str(40, NAME_PATTERN, NAME_WORDS),
        "The Block's name (a section, a platoon...); a larger Block names it as a member.",
    )
    level: str = key(
        Str(30, NAME_PATTERN, "a word such as Section or Platoon"),
        "What the Block is in military terms: Section, Platoon, Centuria...",
        default="",
    )
    members: list = key(
        ListOf(Str(40, NAME_PATTERN, "a Unit's or Block's name"), min=2, max=40),
        "The Units and smaller Blocks of this side that follow the leader as one.",
    )
    leader: str | None = key(
        Str(40, NAME_PATTERN, "a member's name"),
        "The member the others follow; the first member when omitted.",
        default=None,
    )
    hold: bool = key(Bool(), "Hold orders for every Unit in the Block.", default=False)

    @property
    def follows(self) -> str:
        """The member the Block follows: its leader, or its first member."""
        return self.leader or self.members[0]


@dataclass(frozen=True, kw_only=True)  # keys in the order authors write them, required or not
class Army(Model):
    """The keys WarSpike adds to each side: who commands it, its Units and its standing organisation."""

    player: str = key(Str(40, NAME_PATTERN, "a name"), "The player commanding this army.", default="")
    units: list = key(ListOf(Typed(Unit), min=1, max=120), "The army's Units (fireteams, sections, Contubernia...).")
    blocks: list = key(
        ListOf(Typed(Block), max=60),
        "The standing organisation: Units into Blocks and Blocks into larger Blocks.",
        default=[],
    )
    deployment: list | None = key(
        DEPLOYMENT,
        "Where the army deploys, in the scenario's distance unit: one rectangle [x, y, width, depth], or a list of "
        "zones, each a `rect`, a `polygon` or an `edge` (with a `depth`, a strip along it; without, the army "
        "enters from it).",
        default=None,
    )
    reinforcements: list = key(REINFORCEMENTS, REINFORCEMENTS_DOC, default=[])
    moves: list = key(MOVES, MOVES_DOC, default=[])

    @classmethod
    def of(cls, side: dict) -> Army:
        """The WarSpike keys of one validated side (its name and colour are the core's SideView)."""
        return cls.from_clean(side)


@dataclass(frozen=True)
class Settings(Model):
    """The keys WarSpike adds to a scenario."""

    turns: int | None = key(
        FromRules(lambda rules: Int(1, rules.turn.turns_max)),
        "How many turns the game lasts; the tracker prints a box per turn to strike off. "
        "Omitted, the rule data's default (turn.default_turns).",
        default=None,
    )
    instigator: str | None = key(
        Str(60, NAME_PATTERN, "a side's name"),
        "The side that is Instigator on turn 1 without a coin "
        "toss (the augmented rules' scenario Instigator); later turns go by Advantage.",
        default=None,
    )
    distance_unit: str = key(
        Choice(list(DISTANCE_UNITS), "a unit of length, one of"),
        "The unit Move distances (Stature x move rate) print in.",
        default="inch",
    )
    table: TableSize | None = key(
        Typed(TableSize),
        "The table's size in the scenario's distance unit; the pack then prints a map of it. Omitted, a scenario "
        "with terrain, objectives, deployment zones, reinforcements, planned moves or Units' starting points is "
        "drawn on 72 x 48 inches (180 x 120 cm).",
        default=None,
    )
    terrain: list = key(
        ListOf(Typed(Feature), max=120),
        "Terrain pieces drawn on the map (the core rules give them no effect).",
        default=[],
    )
    objectives: list = key(ListOf(Typed(Objective), max=20), "Objectives marked on the map.", default=[])

    @classmethod
    def of(cls, scenario, rules: Rules) -> Settings:
        """The WarSpike keys of a validated scenario, the game's length defaulted from the rule data."""
        settings = cls.from_clean(scenario.data)
        if settings.table is None and (
            settings.terrain or settings.objectives or places_anything(scenario.sides, "units")
        ):
            settings = replace(settings, table=DEFAULT_TABLE[settings.distance_unit])
        return settings if settings.turns is not None else replace(settings, turns=rules.turn.default_turns)
