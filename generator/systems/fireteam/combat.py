"""The combat rules' models in rules.yaml: fire, recovery, hand-to-hand and morale."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...models import Model, Note, Typed, key, note_key
from ...schema import Bool, Choice, Int, ListOf, Str
from .kinds import NAME, RULE, NumberOrWord

MODIFIER = Str(60, r"(attacker|defender)\.\w+", "attacker.ID or defender.ID")


@dataclass(frozen=True)
class AlwaysHits(Model):
    """The natural rolls that HIT whatever the modifiers."""

    attacker_natural: int = key(Int(2, 12), "The firer's natural roll.")
    defender_natural: int = key(Int(2, 12), "The target's natural roll.")


@dataclass(frozen=True)
class FireModifier(Model):
    """One modifier to a fire roll."""

    id: str = key(NAME, "The modifier's id, named by fire.exclusive.")
    name: str = key(RULE, "The modifier as printed.")
    value: int = key(Int(-20, 20), "What it adds each time it applies.")
    times: object = key(
        NumberOrWord(Int(1, 20), ["qualities", "cover"]),
        "How often it may apply: a number, as far as the qualities list reaches, or as far as the cover table.",
    )
    vehicles_only: bool = key(Bool(), "Whether it applies to vehicles only.", default=False)

    @property
    def most(self) -> int | None:
        """The most it adds when it may apply a counted number of times (suppression: +1 each, at most +3); None
        for one that applies once, or as far as a table reaches (quality steps, cover)."""
        return self.value * self.times if isinstance(self.times, int) and self.times > 1 else None


@dataclass(frozen=True)
class Fire(Model):
    """Opposed fire rolls."""

    dice: int = key(Int(1, 6), "Dice each side rolls.")
    rule: str = key(RULE, "The rule in a sentence.")
    always_hits: AlwaysHits = key(Typed(AlwaysHits), "A natural roll against a natural roll that always HITs.")
    attacker: list = key(ListOf(Typed(FireModifier), max=20), "The firer's modifiers.")
    defender: list = key(ListOf(Typed(FireModifier), max=20), "The target's modifiers.")
    exclusive: list = key(
        ListOf(ListOf(MODIFIER, min=2, max=2)), "Pairs of modifiers that never both apply.", default=[]
    )

    def after(self, path, checker):
        ids = {f"attacker.{m.id}" for m in self.attacker} | {f"defender.{m.id}" for m in self.defender}
        for i, pair in enumerate(self.exclusive):
            for j, name in enumerate(pair):
                if name not in ids:
                    checker.report(
                        path + ("exclusive", i, j),
                        f"no fire modifier {name!r}; expected one of {', '.join(sorted(ids))}",
                    )


@dataclass(frozen=True)
class ProximityBonus(Model):
    """A recovery bonus for a friend nearby; only one of them counts."""

    id: str = key(NAME, "The bonus's id.")
    name: str = key(RULE, "The bonus as printed.")
    value: int = key(Int(0, 20), "What it adds.")
    note: str = note_key()


@dataclass(frozen=True)
class RecoveryModifier(Model):
    """A recovery modifier a figure always carries: for its armour or its quality."""

    id: str = key(NAME, "The modifier's id.")
    name: str = key(RULE, "The modifier as printed.")
    value: int = key(Int(0, 20), "What it adds.")
    armour: list = key(ListOf(NAME), "The armour levels it applies to.", default=[])
    qualities: list = key(ListOf(NAME), "The troop qualities it applies to.", default=[])
    note: str = note_key()


@dataclass(frozen=True)
class Recovery(Model):
    """Recovery rolls for HIT figures."""

    dice: int = key(Int(1, 6), "Dice rolled.")
    target: int = key(Int(2, 12), "The total needed to stand up again.")
    rule: str = key(RULE, "The rule in a sentence.")
    one_of: list = key(ListOf(Typed(ProximityBonus), min=1), "Bonuses of which only one counts.")
    all_of: list = key(ListOf(Typed(RecoveryModifier)), "Modifiers that all count.")


@dataclass(frozen=True, kw_only=True)  # keyword-only: max, optional, comes before result
class Band(Model):
    """A hand-to-hand result band: the winner's margin from min to max."""

    id: str = key(NAME, "The band's id.")
    min: int = key(Int(0, 100), "The smallest margin in the band.")
    max: int | None = key(Int(0, 100), "The largest margin (none: every margin above min).", default=None)
    result: str = key(RULE, "What happens.")
    note: str = note_key()

    def after(self, path, checker):
        if self.max is not None and self.max < self.min:
            checker.report(path + ("max",), f"the band ends ({self.max}) below where it starts ({self.min})")


@dataclass(frozen=True)
class Captives(Model):
    """Guarding and moving captives."""

    guard: int = key(Int(1, 100), "Captives one figure may guard in place.")
    escort_per: int = key(Int(1, 100), "Captives per escorting figure when moving them.")
    rule: str = key(RULE, "The rule in a sentence.")


@dataclass(frozen=True)
class Hth(Model):
    """Hand-to-hand fighting."""

    dice: int = key(Int(1, 6), "Dice each fighter rolls.")
    engage_within: int = key(Int(0, 48), "Inches within which a passing figure must engage.", unit="inch")
    rule: str = key(RULE, "The rule in a sentence.")
    hit_figure: str = key(RULE, "What happens to a HIT figure in a fight.")
    armour_bonus: str = key(Choice(["level"]), "What armour adds: its level.")
    weapon_bonus: int = key(
        Int(0, 20), "What a pistol or rifle (not a civilian or sniper rifle) or a special HTH weapon adds."
    )
    weapon_bonus_rule: str = key(RULE, "Which weapons earn the weapon bonus.")
    bands: list = key(ListOf(Typed(Band), min=1, max=20), "Results by the winner's margin.")
    bands_note: Note = key(Typed(Note), "How the original rules' result bands were read, under a heading of its own.")
    captives: Captives = key(Typed(Captives), "Guarding and moving captives.")

    def after(self, path, checker):
        # every margin from 0 up falls in exactly one band; only the last may be open-ended
        expected = 0
        for i, band in sorted(enumerate(self.bands), key=lambda pair: pair[1].min):
            if expected is None or band.min != expected:
                where = "0" if not expected else f"{expected}, after the band ending at {expected - 1}"
                checker.report(
                    path + ("bands", i, "min"),
                    f"the bands must cover every margin once: the next band starts at {where} (got {band.min})",
                )
                return
            expected = None if band.max is None else band.max + 1
        if expected is not None:
            checker.report(
                path + ("bands",), f"no band covers margins of {expected} and more; leave the last band's max out"
            )


@dataclass(frozen=True)
class Morale(Model):
    """When teams and sides withdraw."""

    team_withdraw_at: int = key(Int(0, 60), "Figures left at which a team withdraws.")
    team_rule: str = key(RULE, "The team rule in a sentence.")
    side_loss_fraction: str = key(
        Str(9, r"[0-9]+/[1-9][0-9]*", "a fraction such as 1/2"),
        "The share of its figures a side may lose before it withdraws.",
    )
    side_rule: str = key(RULE, "The side rule in a sentence.")

    @property
    def side_loss(self) -> Fraction:
        return Fraction(self.side_loss_fraction)

    def after(self, path, checker):
        if self.side_loss > 1:
            checker.report(
                path + ("side_loss_fraction",),
                f"a side cannot lose more than all its figures (got {self.side_loss_fraction})",
            )
