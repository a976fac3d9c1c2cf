"""Para Bellum's rule data (rules.yaml) declared as typed models, one line of documentation per key, with its checks."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ...models import MapOf, Model, ReferenceSection, Typed, UniqueNames, key, note_key
from ...schema import Checker, Choice, Int, ListOf, Str
from .actions import Action, FireAndCharge, Kind, WeaponTag
from .text import ID, RULE, TITLE


def _refer(value: str, names, what: str, path: tuple, checker: Checker) -> None:
    """A name that must be one of `names` (a cross-reference inside the rule data), reported with a close match."""
    Choice(list(names), what).check(value, path, checker)


@dataclass(frozen=True)
class ActionPoints(Model):
    """The action-point roll: the points each face of the die gives, kept between min and max after Stress and orders."""

    die: int = key(Int(2, 20), "Faces of the die rolled for action points (6: a D6).")
    points: list = key(
        ListOf(Int(0, 4), min=1, max=20), "The action points each face gives, face 1 first (one per face)."
    )
    min: int = key(Int(0, 4), "The fewest points an activation can have after Stress and orders (0: no action).")
    max: int = key(
        Int(1, 4), "The most points an activation can have; plans are listed up to it (at most 4, to bound them)."
    )
    name: str = key(TITLE, "The rule's name on the reference sheet.")
    note: str = note_key()

    def after(self, path, checker):
        if len(self.points) != self.die:
            checker.report(
                path + ("points",),
                f"give the points of each face of the {self.die}-sided die, face 1 first: "
                f"{self.die} entries (got {len(self.points)})",
            )
        if self.min > self.max:
            checker.report(path + ("min",), f"the fewest points, {self.min}, are above the most, {self.max}")


@dataclass(frozen=True)
class Stress(Model):
    """Stress: each point takes action points away; a scenario may start a unit with up to `max`."""

    per_point: int = key(Int(-4, -1), "Action points each Stress point takes away (negative).")
    max: int = key(Int(0, 50), "The most Stress a scenario may start a unit with.")
    name: str = key(TITLE, "The rule's name on the reference sheet.")
    note: str = note_key()


@dataclass(frozen=True)
class Order(Model):
    """The Take Action! order an HQ gives before the roll."""

    name: str = key(TITLE, "The order's name as printed.")
    bonus: int = key(Int(0, 4), "Action points the order adds.")
    cost: int = key(Int(1, 20), "Command Points the order spends.")
    rule: str = key(RULE, "The rule as printed on the HQ's command-point card.")
    note: str = note_key()


@dataclass(frozen=True)
class Hq(Model):
    """HQ units, which hold Command Points."""

    name: str = key(TITLE, "The rule's name on the reference sheet.")
    command_points_max: int = key(Int(1, 100), "The most Command Points a scenario may give one HQ.")
    note: str = note_key()


@dataclass(frozen=True)
class TerrainKind(Model):
    """A kind of terrain a scenario may place on its map."""

    name: str = key(TITLE, "The kind's name, as a scenario's terrain piece writes it.")


@dataclass(frozen=True)
class Printed(Model):
    """A rule that is only printed (activation, the missing deck): its name, its text and its note."""

    name: str = key(TITLE, "The rule's name on the reference sheet.")
    rule: str = key(RULE, "The rule as printed.", default="")
    note: str = note_key()


@dataclass(frozen=True)
class Discipline(Model):
    """The discipline-test variant: action points from a D6 test against the unit's own Discipline score."""

    name: str = key(TITLE, "The variant's name as printed.")
    summary: str = key(Str(200), "One line saying what the variant changes (`muster odds --variant` lists it).")
    stat: str = key(Choice(["discipline"], "a unit key, one of"), "The unit key holding the score the test needs.")
    min: int = key(Int(1, 20), "The lowest Discipline score a unit may have.")
    max: int = key(Int(1, 20), "The highest Discipline score a unit may have.")
    failure: int = key(Int(0, 4), "Action points a failed test gives.")
    success: int = key(Int(0, 4), "Action points a passed test gives.")
    perfect: int = key(Int(0, 4), "Action points a perfect test (a natural `perfect_natural`) gives.")
    perfect_natural: int = key(Int(1, 20), "The face that is a perfect test whatever the score.")
    rule: str = key(RULE, "The variant as printed.")
    note: str = note_key()

    def after(self, path, checker):
        if self.min > self.max:
            checker.report(path + ("min",), f"the lowest score {self.min} is above the highest, {self.max}")


@dataclass(frozen=True)
class Variants(Model):
    """The named rule variants a scenario may switch on."""

    discipline: Discipline = key(Typed(Discipline), "Action points from a discipline test (a comment under the seed).")

    def by_name(self) -> dict[str, Discipline]:
        return {"discipline": self.discipline}


@dataclass(frozen=True)
class Rules(Model):
    """Para Bellum's rule data: validation, odds, plans, cards and the reference sheet all read it."""

    id: str = key(Choice(["para-bellum"], "the system's id"), "The system's id.")
    title: str = key(TITLE, "The system's name as printed.")
    source: str = key(RULE, "Where the rules come from, printed under the reference.")
    scope: str = key(RULE, "What of a game these rules cover and what the players bring, printed on the cover.")
    distance_unit: str = key(Choice(["inch"], "a distance unit, one of"), "The unit of every distance (movement).")
    action_points: ActionPoints = key(Typed(ActionPoints), "The action-point roll and its limits.")
    stress: Stress = key(Typed(Stress), "Stress and its cost in action points.")
    order: Order = key(Typed(Order), "The Take Action! order.")
    hq: Hq = key(Typed(Hq), "HQ units and their Command Points.")
    kinds: dict = key(
        MapOf(ID, Typed(Kind), min=1, max=4), "The kinds of action by id (short, long), each with its cost."
    )
    weapon_tags: list = key(UniqueNames(Typed(WeaponTag), max=8, what="weapon tag"), "The tags a weapon may carry.")
    actions: list = key(
        ListOf(Typed(Action), min=1, max=10), "Every action form, in the order cards and plans list them."
    )
    fire_and_charge: FireAndCharge = key(Typed(FireAndCharge), "When Fire! and Charge! may share an activation.")
    activation: Printed = key(Typed(Printed), "How activations alternate.")
    deck: Printed = key(Typed(Printed), "Why there is no card deck.")
    terrain: list = key(
        UniqueNames(Typed(TerrainKind), min=1, max=40, what="terrain kind"), "The terrain kinds a map may show."
    )
    terrain_note: Printed = key(Typed(Printed), "What terrain does in these rules.")
    variants: Variants = key(Typed(Variants), "The named rule variants.")
    reference: list = key(ListOf(Typed(ReferenceSection), max=12), "The quick-reference sheet's sections.")

    @property
    def tag_names(self) -> list[str]:
        return [tag.name for tag in self.weapon_tags]

    @cached_property
    def actions_by_id(self) -> dict[str, Action]:
        """The action forms by id, in the rule data's order."""
        return {action.id: action for action in self.actions}

    def action(self, action_id: str) -> Action:
        return self.actions_by_id[action_id]

    def cost(self, action: Action) -> int:
        """An action's cost in points, which its kind sets (Short 1, Long 2)."""
        return self.kinds[action.kind].cost

    def after(self, path, checker):
        """Every name one part of the rule data gives another must exist there."""
        tags = self.tag_names
        done = {action.action for action in self.actions}
        seen: set[str] = set()
        for i, action in enumerate(self.actions):
            at = path + ("actions", i)
            if action.id in seen:
                checker.report(at + ("id",), f"two actions have the id {action.id!r}")
            seen.add(action.id)
            _refer(action.kind, self.kinds, "an action kind, one of", at + ("kind",), checker)
            if action.bonus_for:
                _refer(action.bonus_for, done, "an action, one of", at + ("bonus_for",), checker)
            if action.fires_except:
                _refer(action.fires_except, tags, "a weapon tag, one of", at + ("fires_except",), checker)
        rule = self.fire_and_charge
        _refer(rule.fire, done, "an action, one of", path + ("fire_and_charge", "fire"), checker)
        _refer(rule.charge, done, "an action, one of", path + ("fire_and_charge", "charge"), checker)
        _refer(rule.tag, tags, "a weapon tag, one of", path + ("fire_and_charge", "tag"), checker)
        test, die = self.variants.discipline, self.action_points.die
        for name in ("max", "perfect_natural"):
            if getattr(test, name) > die:
                checker.report(
                    path + ("variants", "discipline", name),
                    f"{getattr(test, name)} is more than the {die}-sided die of action_points can roll",
                )
