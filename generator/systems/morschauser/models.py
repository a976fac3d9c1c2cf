"""Morschauser Modern's rule data (rules.yaml) declared as typed models, with the checks that it holds together."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...models import MapOf, Model, Typed, UniqueNames, key, note_key
from ...schema import Bool, Choice, Int, ListOf, Spec, Str, suggest
from .glyphs import UNIT_GLYPHS
from .map import FACING_VECTORS, TERRAIN_DRAWN

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
        return {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 12}, {"type": "string", "pattern": r"^[0-9]+/[0-9]+$"}]}


class Face(Spec):
    """A die face written as a mapping key (YAML keys reach us as text): '1' becomes 1."""

    def expected(self):
        return "a die face, a whole number from 1"

    def check(self, value, path, checker):
        if isinstance(value, str) and value.isdigit() and 1 <= int(value) <= 20:
            return int(value)
        return self.wrong(value, path, checker)

    def json_schema(self):
        return {"type": "string", "pattern": "^[0-9]+$"}


def faces_of(die: int, faces, path: tuple, checker) -> None:
    """A D6 table must name every face from 1 to the die's size, and no other."""
    missing = [f for f in range(1, die + 1) if f not in faces]
    extra = sorted(f for f in faces if not 1 <= f <= die)
    if missing or extra:
        found = "; ".join(part for part in (missing and f"missing {', '.join(map(str, missing))}",
                                            extra and f"no face {', '.join(map(str, extra))}") if part)
        checker.report(path, f"a D{die} table covers the faces 1 to {die} exactly ({found})")


def refers(name, choices, what: str, path: tuple, checker) -> None:
    """A name that must be one of the rule data's own (a weapon, a scatter scheme, a unit type)."""
    if name is not None and name not in choices:
        checker.report(path, f"expected {what}, one of {', '.join(map(str, choices))} (got {name!r}){suggest(name, choices)}")


@dataclass(frozen=True, kw_only=True)
class Note(Model):
    """A rule the data holds no number for, printed on the reference sheet with its note."""

    name: str = key(NAME, "The rule's name on the reference sheet.")
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)
class GridLimits(Model):
    """How big a scenario's grid may be."""

    columns_max: int = key(Int(4, 26), "Most columns; they are lettered A to Z on the map's edges.")
    rows_max: int = key(Int(4, 99), "Most rows, numbered from 1 at the top.")
    measure: str = key(Choice(["orthogonal"], "a way of measuring, one of"), "How moves and ranges are counted.")
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
    move: int = key(Int(1, 12), "Squares it moves.")
    battle_power: int = key(Int(1, 20), "Its Battle Power before modifiers.")
    range: int | None = key(Int(1, 40), "Its artillery range in squares; none if it does not fire.", default=None)
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
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)
class Modifier(Model):
    """One battle modifier."""

    id: str = key(ID, "Its id.")
    name: str = key(NAME, "When it applies.")
    value: int = key(Int(-6, 6), "Battle Power added.")
    group: str | None = key(ID, "Modifiers of one group exclude each other; the largest counts.", default=None)
    attacker_only: bool = key(Bool(), "Whether only an attacker can have it.", default=False)
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)
class Advance(Model):
    """Moving into the square a beaten enemy left."""

    rule: str = key(PROSE, "The rule as printed.")
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)
class Battle(Model):
    """Battles: the die, the destroying face, the floor of Battle Power, the modifiers."""

    die: int = key(Int(2, 20), "Sides of the die each unit throws.")
    destroy_natural: int = key(Int(1, 20), "The winner's throw that destroys the loser.")
    minimum_power: int = key(Int(1, 20), "The lowest Battle Power after modifiers.")
    rule: str = key(PROSE, "The battle rule as printed.")
    modifiers: list = key(UniqueNames(Typed(Modifier), what="modifier"), "The modifiers to Battle Power.")
    terrain_note: Note = key(Typed(Note), "How cover and fortifications combine.")
    hill_note: Note = key(Typed(Note), "Enemies three or more contours apart.")
    table_note: Note = key(Typed(Note), "What the battle odds count.")
    advance: Advance = key(Typed(Advance), "Advancing after a won battle.")

    def after(self, path, checker):
        if self.destroy_natural > self.die:
            checker.report(path + ("destroy_natural",), f"a D{self.die} has no face {self.destroy_natural}")


@dataclass(frozen=True, kw_only=True)
class Weapon(Model):
    """A weapon class of the artillery odds."""

    id: str = key(ID, "The id a unit type names as its weapon.")
    name: str = key(NAME, "Its printed name.")
    fires: list = key(ListOf(ID, min=1, max=4), "The kinds of fire it has (keys of artillery.effect).")
    misses_off_target: bool = key(Bool(), "Whether any scatter other than on target is a miss.")
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)
class Scatter(Model):
    """A scatter scheme: where a shot lands for each face of the scatter die."""

    name: str = key(NAME, "Its printed name.")
    faces: dict = key(MapOf(Face(), ID, min=1, max=20), "Each face and where the shot lands (an id of artillery.landing).")
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)
class Landing(Model):
    """One place a shot can land, relative to its target."""

    id: str = key(ID, "Its id, named by the scatter schemes.")
    name: str = key(NAME, "Its printed name.")
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)
class Artillery(Model):
    """Artillery fire: the effect die, the weapons, scatter and where shots land."""

    die: int = key(Int(2, 20), "Sides of the scatter and effect dice.")
    effect: dict = key(MapOf(ID, ListOf(Int(1, 20), min=1, max=20), min=1, max=4), "Each kind of fire and the effect faces that destroy.")
    weapons: list = key(UniqueNames(Typed(Weapon), what="weapon"), "The weapon classes.")
    scatter_default: str = key(ID, "The scatter scheme of the rules as written.")
    scatter: dict = key(MapOf(ID, Typed(Scatter), min=1, max=10), "The scatter schemes by id.")
    landing: list = key(UniqueNames(Typed(Landing), what="landing spot", min=1), "Where a shot can land; the first is the target.")
    phase_note: Note = key(Typed(Note), "The order of the Artillery Fire Phase.")
    friendly_note: Note = key(Typed(Note), "Fire landing on a friendly unit.")

    def after(self, path, checker):
        spots = [spot.id for spot in self.landing]
        refers(self.scatter_default, list(self.scatter), "a scatter scheme", path + ("scatter_default",), checker)
        for scheme_id, scheme in self.scatter.items():
            faces_of(self.die, scheme.faces, path + ("scatter", scheme_id, "faces"), checker)
            for face, spot in scheme.faces.items():
                refers(spot, spots, "a landing spot", path + ("scatter", scheme_id, "faces", str(face)), checker)
        for fire, faces in self.effect.items():
            for i, face in enumerate(faces):
                if face > self.die:
                    checker.report(path + ("effect", fire, i), f"a D{self.die} has no face {face}")
        for w, weapon in enumerate(self.weapons):
            for f, fire in enumerate(weapon.fires):
                refers(fire, list(self.effect), "a kind of fire", path + ("weapons", w, "fires", f), checker)


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
            checker.report(path + ("cards",), f"{len(self.ranks)} ranks of {len(self.suits)} suits make "
                                              f"{len(self.ranks) * len(self.suits)} tiles (got {self.cards})")
        if len(self.suit_names) != len(self.suits):
            checker.report(path + ("suit_names",), f"one name for each of the {len(self.suits)} suits (got {len(self.suit_names)})")


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

    kinds: list = key(ListOf(Choice(list(TERRAIN_DRAWN), "a terrain kind the map draws, one of"), min=1, max=20), "The kinds.")
    contour_max: int = key(Int(1, 5), "The highest hill level (the plain is 0).")
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)
class Limits(Model):
    """The largest game Muster prints."""

    units_max: int = key(Int(1, 200), "Most units in a scenario, one tile each.")
    turns_max: int = key(Int(1, 40), "Most turns.")
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)
class Section(Model):
    """One section of the quick reference."""

    title: str = key(NAME, "Its heading.")
    lines: list = key(ListOf(Str(400), min=1, max=40), "Its lines.")


@dataclass(frozen=True, kw_only=True)
class Rules(Model):
    """Morschauser Modern's rule data: every number validation, odds and pages read."""

    id: str = key(Choice(["morschauser-modern"], "the system's id,"), "The system's id.")
    title: str = key(NAME, "The system's name.")
    source: str = key(Str(300), "Where the rules come from, printed under the reference.")
    distance_unit: str = key(Str(40), "What moves and ranges are counted in.")
    grid: GridLimits = key(Typed(GridLimits), "The grid's limits.")
    stacking: Stacking = key(Typed(Stacking), "Units per square.")
    facings: list = key(ListOf(Choice(list(FACING_VECTORS), "a facing, one of"), min=1, max=4), "The edges a unit may face.")
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
                    checker.report(path + (f"{what.replace(' ', '_')}s", i, "id"), f"two {what}s have the id {entry_id!r}")
        for i, unit_type in enumerate(self.unit_types):
            refers(unit_type.weapon, weapons, "a weapon", path + ("unit_types", i, "weapon"), checker)
        for i, variant in enumerate(self.variants):
            refers(variant.scatter, list(self.artillery.scatter), "a scatter scheme", path + ("variants", i, "scatter"), checker)
            for type_id in variant.move:
                refers(type_id, types, "a unit type", path + ("variants", i, "move", type_id), checker)
        if self.limits.units_max > self.turn.cards:
            checker.report(path + ("limits", "units_max"), f"each unit draws its own tile: at most the {self.turn.cards} "
                                                           f"tiles of turn.cards (got {self.limits.units_max})")
        top = max((t.battle_power for t in self.unit_types), default=self.battle.minimum_power)
        if self.battle.minimum_power > top:
            checker.report(path + ("battle", "minimum_power"), f"the floor is above every unit type's Battle Power (at most {top})")
