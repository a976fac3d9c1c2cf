"""Morschauser Modern's battle and artillery rule data as typed models, with the checks that their tables hold together."""

from __future__ import annotations

from dataclasses import dataclass

from ...models import Face, MapOf, Model, Typed, UniqueNames, check_faces, key, note_key
from ...schema import Bool, Int, ListOf, Str
from .rule_data import ID, NAME, PROSE, Note, refers


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
    name: str = key(Str(80), "The heading its note prints under on the reference sheet.", default="")
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
    faces: dict = key(
        MapOf(Face(), ID, min=1, max=20), "Each face and where the shot lands (an id of artillery.landing)."
    )
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
    effect: dict = key(
        MapOf(ID, ListOf(Int(1, 20), min=1, max=20), min=1, max=4),
        "Each kind of fire and the effect faces that destroy.",
    )
    weapons: list = key(UniqueNames(Typed(Weapon), what="weapon"), "The weapon classes.")
    scatter_default: str = key(ID, "The scatter scheme of the rules as written.")
    scatter: dict = key(MapOf(ID, Typed(Scatter), min=1, max=10), "The scatter schemes by id.")
    landing: list = key(
        UniqueNames(Typed(Landing), what="landing spot", min=1), "Where a shot can land; the first is the target."
    )
    phase_note: Note = key(Typed(Note), "The order of the Artillery Fire Phase.")
    friendly_note: Note = key(Typed(Note), "Fire landing on a friendly unit.")

    def after(self, path, checker):
        spots = [spot.id for spot in self.landing]
        refers(self.scatter_default, list(self.scatter), "a scatter scheme", path + ("scatter_default",), checker)
        for scheme_id, scheme in self.scatter.items():
            check_faces(self.die, scheme.faces, path + ("scatter", scheme_id, "faces"), checker)
            for face, spot in scheme.faces.items():
                refers(spot, spots, "a landing spot", path + ("scatter", scheme_id, "faces", str(face)), checker)
        for fire, faces in self.effect.items():
            for i, face in enumerate(faces):
                if face > self.die:
                    checker.report(path + ("effect", fire, i), f"a D{self.die} has no face {face}")
        for w, weapon in enumerate(self.weapons):
            for f, fire in enumerate(weapon.fires):
                refers(fire, list(self.effect), "a kind of fire", path + ("weapons", w, "fires", f), checker)
