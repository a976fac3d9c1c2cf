"""Fireteam Tomorrow's rule data (rules.yaml) declared as typed models: every key, its kind and what it means."""

from __future__ import annotations

from dataclasses import dataclass

from ...models import Model, Note, ReferenceSection, Typed, UniqueNames, key, note_key
from ...schema import Bool, Choice, Int, ListOf, suggest
from .combat import Fire, Hth, Morale, Recovery
from .equipment import Armour, VehicleArmour, Weapon
from .kinds import NAME, RULE
from .movement import Movement


@dataclass(frozen=True)
class LargeGroup(Model):
    """Groups of less capable fighters, allowed more figures than a fireteam."""

    name: str = key(NAME, "The rule's name.")
    qualities: list = key(ListOf(NAME, min=1), "The troop qualities such a group may have.")
    note: str = note_key()


@dataclass(frozen=True)
class Limits(Model):
    """The force limits validation enforces."""

    team_min: int = key(Int(1, 60), "Fewest figures in a fireteam.")
    team_max: int = key(Int(1, 60), "Most figures in a fireteam (a group may have more).")
    leaders_per_team: int = key(Int(0, 10), "Leaders every team has, exactly.")
    special_or_heavy_per_team: int = key(Int(0, 10), "Most special or heavy weapons in a team.")
    medics_per_team: int = key(Int(0, 10), "Most medics (or fixers) in a team.")
    players_max: int = key(Int(1, 100), "Most players in a game; each controls one team.")
    figures_max: int = key(Int(1, 1000), "Most figures in a game.")
    sides_min: int = key(Int(2, 8), "Fewest sides in a game.")
    vehicles_warn_above: int = key(Int(0, 100), "More vehicles than this draws a warning.")
    large_group: LargeGroup = key(Typed(LargeGroup), "Groups allowed to be larger than a fireteam.")
    players: Note = key(Typed(Note), "How players and teams are counted.")

    def after(self, path, checker):
        if self.team_min > self.team_max:
            checker.report(
                path + ("team_min",),
                f"the fewest figures in a team ({self.team_min}) is above the most ({self.team_max})",
            )


@dataclass(frozen=True)
class Role(Model):
    """A figure's role in its team."""

    name: str = key(NAME, "The role's name as a scenario writes it.")
    default_weapon: str = key(NAME, "The weapon a figure of this role carries when none is named.", default="")
    medic: bool = key(Bool(), "Whether the role counts as the team's medic.", default=False)
    note: str = note_key()


@dataclass(frozen=True)
class Cover(Model):
    """A cover level."""

    name: str = key(NAME, "The cover level's name.")
    defence: int = key(Int(0, 20), "Added to the target's roll.")


@dataclass(frozen=True)
class DamageTrack(Model):
    """One row of a vehicle's damage record: boxes to tick and what the vehicle loses once all are ticked."""

    name: str = key(NAME, "What the row records: weapon (one row for each of the vehicle's weapons), movement or crew.")
    boxes: int = key(Int(1, 10), "Boxes in the row.")
    lost: str = key(RULE, "What happens once every box of the row is ticked.")


@dataclass(frozen=True)
class Vehicles(Model):
    """Vehicles."""

    kinds: list = key(ListOf(NAME, min=1), "The kinds of vehicle a scenario may name.")
    rule: str = key(RULE, "The rule in a sentence.")
    damage: list = key(
        UniqueNames(Typed(DamageTrack), min=1, what="damage row"), "The rows of every vehicle's damage record."
    )
    damage_hit: str = key(RULE, "Which box a HIT on a vehicle ticks.")
    damage_note: Note = key(Typed(Note), "How vehicle damage is recorded.")

    def after(self, path, checker):
        for i, track in enumerate(self.damage):
            if track.name not in DAMAGE_ROWS:
                checker.report(
                    path + ("damage", i, "name"),
                    f"expected one of {', '.join(DAMAGE_ROWS)} (got {track.name!r}){suggest(track.name, DAMAGE_ROWS)}",
                )


DAMAGE_ROWS = ("weapon", "movement", "crew")  # a vehicle's record: a row per weapon, its movement, its crew


@dataclass(frozen=True)
class Deck(Model):
    """The activation deck."""

    per_team: list = key(ListOf(NAME, min=1), "The cards every team has.")
    per_vehicle: list = key(ListOf(NAME, min=1), "The cards every vehicle has.")
    shared: list = key(ListOf(NAME), "The cards every deck has once.")
    rule: str = key(RULE, "The rule in a sentence.")


@dataclass(frozen=True)
class TerrainKind(Model):
    """A kind of terrain a scenario may place."""

    name: str = key(NAME, "The kind's name.")
    cover: str = key(NAME, "Its cover level, from the cover table.")
    rough: bool = key(Bool(), "Whether it is rough ground (movement costs double).", default=False)
    linear: bool = key(Bool(), "Whether it is a linear obstacle.", default=False)
    impassable_note: bool = key(Bool(), "Whether it may be impassable by the scenario's choice.", default=False)


@dataclass(frozen=True)
class Rules(Model):
    """Fireteam Tomorrow as Muster encodes it: read by validation, the odds and the reference sheet alike."""

    id: str = key(NAME, "The system's id.")
    title: str = key(NAME, "The system's title.")
    source: str = key(RULE, "Where the rules come from, printed on the reference sheet.")
    distance_unit: str = key(Choice(["inch"]), "The unit every distance is in.")
    limits: Limits = key(Typed(Limits), "The force limits validation enforces.")
    qualities: list = key(
        ListOf(NAME, min=2, max=20), "Troop qualities from worst to best; a step between two is a modifier."
    )
    quality_steps: Note = key(Typed(Note), "How quality steps are counted.")
    roles: list = key(UniqueNames(Typed(Role), min=1, what="role"), "The roles a figure may have.")
    armour: list = key(UniqueNames(Typed(Armour), min=1, what="armour level"), "The armour levels a team may wear.")
    vehicle_armour: VehicleArmour = key(Typed(VehicleArmour), "Every vehicle's armour.")
    cover: list = key(UniqueNames(Typed(Cover), min=1, what="cover level"), "Cover levels, from none up.")
    fire: Fire = key(Typed(Fire), "Opposed fire rolls.")
    recovery: Recovery = key(Typed(Recovery), "Recovery rolls for HIT figures.")
    hth: Hth = key(Typed(Hth), "Hand-to-hand fighting.")
    movement: Movement = key(Typed(Movement), "Moving figures and vehicles.")
    morale: Morale = key(Typed(Morale), "When teams and sides withdraw.")
    vehicles: Vehicles = key(Typed(Vehicles), "Vehicles.")
    deck: Deck = key(Typed(Deck), "The activation deck.")
    weapons_note: Note = key(Typed(Note), "How the missing weapon table was filled.")
    weapons: list = key(
        UniqueNames(Typed(Weapon), min=1, what="weapon"), "Muster's weapon table (the original rules' is lost)."
    )
    terrain: list = key(
        UniqueNames(Typed(TerrainKind), min=1, what="terrain kind"), "The terrain kinds a scenario may place."
    )
    terrain_note: Note = key(Typed(Note), "How terrain cover was chosen.")
    reference: list = key(ListOf(Typed(ReferenceSection)), "The quick-reference sheet's sections.")

    def after(self, path, checker):
        """Names that point elsewhere in the rule data must exist there."""
        armour = [a.name for a in self.armour]
        cover = [c.name for c in self.cover]
        weapons = [w.name for w in self.weapons]
        roles = [r.name for r in self.roles]
        for i, quality in enumerate(self.qualities):
            if quality in self.qualities[:i]:
                checker.report(path + ("qualities", i), f"two troop qualities are named {quality!r}")
        _names(
            checker,
            path + ("limits", "large_group", "qualities"),
            self.limits.large_group.qualities,
            self.qualities,
            "troop quality",
        )
        for needed in ("trooper", "leader"):  # a figure's default role, and the role every team has one of
            if needed not in roles:
                checker.report(path + ("roles",), f"no role named {needed!r}; the scenarios rely on it")
        for i, role in enumerate(self.roles):
            if role.default_weapon:
                _names(
                    checker,
                    path + ("roles", i, "default_weapon"),
                    [role.default_weapon],
                    weapons,
                    "weapon",
                    single=True,
                )
        for i, modifier in enumerate(self.recovery.all_of):
            where = path + ("recovery", "all_of", i)
            _names(checker, where + ("armour",), modifier.armour, armour, "armour level")
            _names(checker, where + ("qualities",), modifier.qualities, self.qualities, "troop quality")
        for i, kind in enumerate(self.terrain):
            _names(checker, path + ("terrain", i, "cover"), [kind.cover], cover, "cover level", single=True)

    @property
    def vehicle_fire_defence(self) -> int:
        """What a vehicle adds to its defending roll against fire: the defender's vehicles-only modifiers, each as
        often as it applies (one value, read by the odds and printed on the Fire card)."""
        return sum(
            m.value * (m.times if isinstance(m.times, int) else 1) for m in self.fire.defender if m.vehicles_only
        )


def _names(checker, path, names: list, known: list, what: str, single: bool = False) -> None:
    """Report each of names that is not one of known, with a close match when there is one."""
    for i, name in enumerate(names):
        if name not in known:
            where = path if single else path + (i,)
            checker.report(
                where,
                f"expected a {what} from the rule data, one of {', '.join(known)} (got {name!r}){suggest(name, known)}",
            )
