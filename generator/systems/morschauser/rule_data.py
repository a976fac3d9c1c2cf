"""Morschauser Modern's rule data (rules.yaml), part by part as typed models: units, movement, tiles, variants, terrain."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...models import MapOf, Model, Note, Typed, key, note_key
from ...schema import Bool, Choice, Int, ListOf, Spec, Str, suggest
from .glyphs import UNIT_GLYPHS
from .looks import TERRAIN_DRAWN

ID = Str(40, r"[a-z0-9]+(-[a-z0-9]+)*", "an id (lower-case words joined by -)")
NAME = Str(80)
PROSE = Str(600)


class Cost(Spec):
    """A movement cost in squares: a whole number, or a fraction written as text such as 1/2."""

    def expected(self):
        return "a cost in squares such as 2 or 1/2"

    def check(self, value, path, checker):
        if isinstance(value, int) and not isinstance(value, bool) and 0 < value <= 12:
            return Fraction(value)
        if isinstance(value, str) and "/" in value:
            top, _, bottom = value.partition("/")
            if top.strip().isdigit() and bottom.strip().isdigit() and int(bottom) and 0 < int(top) <= 12 * int(bottom):
                return Fraction(int(top), int(bottom))
        return self.wrong(value, path, checker)

    def json_schema(self):
        return {
            "anyOf": [
                {"type": "integer", "minimum": 1, "maximum": 12},
                {"type": "string", "pattern": r"^[0-9]+/[0-9]+$"},
            ]
        }


def refers(name, choices, what: str, path: tuple, checker) -> None:
    """A name that must be one of the rule data's own (a weapon, a scatter scheme, a unit type)."""
    if name is not None and name not in choices:
        checker.report(
            path, f"expected {what}, one of {', '.join(map(str, choices))} (got {name!r}){suggest(name, choices)}"
        )


@dataclass(frozen=True, kw_only=True)
class GridLimits(Model):
    """How big a scenario's grid may be."""

    columns_max: int = key(Int(4, 26), "Most columns; they are lettered A to Z on the map's edges.")
    rows_max: int = key(Int(4, 99), "Most rows, numbered from 1 at the top.")
    measure: str = key(Choice(["orthogonal"], "a way of measuring, one of"), "How moves and ranges are counted.")
    name: str = key(Str(80), "The heading its note prints under on the reference sheet.", default="")
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)
class Stacking(Model):
    """How many units a square holds."""

    name: str = key(NAME, "The rule's name.")
    units_per_square: int = key(Int(1, 1), "Units in one square (Muster draws one marker a square).")
    pass_through_friends: bool = key(Bool(), "Whether a unit may move through a friendly unit.")
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)
class UnitType(Model):
    """One kind of unit: its move, Battle Power, fire, hills and map symbol."""

    id: str = key(ID, "The id a scenario's unit names as its type.")
    name: str = key(Str(40), "The type's printed name.")
    move: int = key(Int(1, 12), "Squares it moves.", unit="square")
    battle_power: int = key(Int(1, 20), "Its Battle Power before modifiers.")
    range: int | None = key(
        Int(1, 40), "Its artillery range in squares; none if it does not fire.", default=None, unit="square"
    )
    weapon: str | None = key(ID, "Its weapon class in artillery.weapons; none if it does not fire.", default=None)
    arc: int = key(Int(1, 360), "Its fire arc in degrees.")
    contours: int = key(Int(1, 9), "Hill contours one step may climb or descend.")
    advance: bool = key(Bool(), "Whether it may move into the square of an enemy it beat.")
    may_be_poor: bool = key(Bool(), "Whether it may be poor quality.")
    glyph: str = key(Choice(list(UNIT_GLYPHS), "a map symbol, one of"), "The map symbol it is drawn with.")
    note: str = note_key()

    def after(self, path, checker):
        if (self.range is None) != (self.weapon is None):
            checker.report(path, "a unit that fires has both a range and a weapon; one that does not has neither")


@dataclass(frozen=True, kw_only=True)
class Quality(Model):
    """Unit qualities and what poor quality costs."""

    levels: list = key(ListOf(Choice(["normal", "poor"], "a quality, one of"), min=2, max=2), "normal, then poor.")
    poor_modifier: int = key(Int(-6, 0), "Battle Power added for poor quality.")
    name: str = key(Str(80), "The heading its note prints under on the reference sheet.", default="")
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)
class Movement(Model):
    """What a square of each terrain costs to move through."""

    road_cost: Fraction = key(Cost(), "A road (or bridge) square's cost.")
    river_cost: Fraction = key(Cost(), "A river square's cost.")
    woods_cost: Fraction = key(Cost(), "A wood square's cost.")
    town_counts_as_road: bool = key(Bool(), "Whether a town square moves like a road.")
    road_note: Note = key(Typed(Note), "Roads and towns.")
    river_note: Note = key(Typed(Note), "Rivers between units.")
    zoc_note: Note = key(Typed(Note), "Moving past the enemy.")


@dataclass(frozen=True, kw_only=True)
class Turn(Model):
    """The tiles: one ordinary deck of playing cards, in activation order."""

    cards: int = key(Int(1, 200), "Tiles in the bag.")
    suits: list = key(ListOf(Str(1, "[A-Z]", "a suit letter"), min=1, max=8), "Suit letters, first to act first.")
    suit_names: list = key(ListOf(Str(20), min=1, max=8), "The suits' names, in the same order.")
    ranks: list = key(ListOf(Str(2, "[A-Z0-9]+", "a rank"), min=1, max=20), "Ranks, lowest (first to act) first.")
    order: str = key(Choice(["rank-then-suit"], "an order, one of"), "How tiles are ordered.")
    order_note: Note = key(Typed(Note), "The activation order.")
    tiles_note: Note = key(Typed(Note), "Tiles drawn each turn.")

    def after(self, path, checker):
        if self.cards != len(self.ranks) * len(self.suits):
            checker.report(
                path + ("cards",),
                f"{len(self.ranks)} ranks of {len(self.suits)} suits make "
                f"{len(self.ranks) * len(self.suits)} tiles (got {self.cards})",
            )
        if len(self.suit_names) != len(self.suits):
            checker.report(
                path + ("suit_names",), f"one name for each of the {len(self.suits)} suits (got {len(self.suit_names)})"
            )


@dataclass(frozen=True, kw_only=True)
class Variant(Model):
    """A variant from the readers' comments a scenario may switch on."""

    id: str = key(ID, "The id a scenario names in `variants`.")
    name: str = key(NAME, "Its printed name.")
    summary: str = key(Str(300), "One line saying what it changes.")
    scatter: str | None = key(ID, "The scatter scheme it plays with.", default=None)
    move: dict = key(MapOf(ID, Int(1, 12), max=20), "Unit types' moves it changes.", default={})
    woods_cost: Fraction | None = key(Cost(), "The wood square cost it plays with.", default=None)
    pass_through_friends: bool = key(Bool(), "Whether units may move through stationary friends.", default=False)
    pass_through_cost: int | None = key(Int(1, 12), "What a square moved through costs.", default=None)
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)
class TerrainRules(Model):
    """The terrain kinds a scenario may place, and the highest hill."""

    kinds: list = key(
        ListOf(Choice(list(TERRAIN_DRAWN), "a terrain kind the map draws, one of"), min=1, max=20), "The kinds."
    )
    contour_max: int = key(Int(1, 5), "The highest hill level (the plain is 0).")
    name: str = key(Str(80), "The heading its note prints under on the reference sheet.", default="")
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)
class Limits(Model):
    """The largest game Muster prints."""

    units_max: int = key(Int(1, 200), "Most units in a scenario, one tile each.")
    turns_max: int = key(Int(1, 40), "Most turns.")
    name: str = key(Str(80), "The heading its note prints under on the reference sheet.", default="")
    note: str = note_key()
