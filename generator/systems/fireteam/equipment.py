"""What Fireteam's rule data says figures and vehicles carry: Muster's weapon table, armour levels, vehicles' armour."""

from __future__ import annotations

from dataclasses import dataclass

from ...models import Model, key, note_key
from ...schema import Bool, Choice, Int, Num
from .kinds import NAME, NumberOrWord

WEAPON_CLASSES = ["personal", "special", "hth", "heavy", "vehicle"]


@dataclass(frozen=True)
class Weapon(Model):
    """One weapon of Muster's weapon table (the original rules' is lost)."""

    name: str = key(NAME, "The weapon's name as a scenario writes it.")
    kind: str = key(Choice(WEAPON_CLASSES), "Its class: a team has at most one special or heavy weapon.", name="class")
    level: int = key(Int(0, 10), "Targets one figure may fire at on a Fire card.")
    range: object = key(
        NumberOrWord(Int(0, 480), ["LOT"]),
        "Range in inches (0: contact), or LOT, the length of the table.",
        unit="inch",
    )
    hth_bonus: bool = key(Bool(), "Whether it earns the HTH weapon bonus.", default=False)
    mg: bool = key(Bool(), "Whether it is a machine gun (affects vehicles).", default=False)
    explosive: bool = key(Bool(), "Whether it is explosive (affects vehicles).", default=False)
    blast: float = key(Num(0, 24), "The blast radius in inches of an explosive weapon.", default=0, unit="inch")

    def after(self, path, checker):
        if self.explosive != (self.blast > 0):
            checker.report(path + ("blast",), "an explosive weapon has a blast radius, and only an explosive one")
        if self.range == 0 and (self.level or self.kind != "hth"):
            # a weapon of range 0 reaches only base contact, where figures fight hand to hand and never fire: a
            # level there read as a firing weapon (the roster's Improvised weapon, level 1, range "contact")
            checker.report(
                path + ("level" if self.level else "class",),
                "a weapon used only in base contact (range 0) is an HTH weapon: class hth, level 0",
            )


@dataclass(frozen=True)
class Armour(Model):
    """An armour level a team may wear."""

    name: str = key(NAME, "The armour's name.")
    level: int = key(Int(0, 20), "Its level, added to hand-to-hand rolls.")


@dataclass(frozen=True)
class VehicleArmour(Model):
    """The armour every vehicle has (in hand-to-hand; against fire, its armour is the defender's vehicles-only
    modifier, fire.defender, which the odds and the Fire card read alike)."""

    name: str = key(NAME, "The rule's name.")
    level: int = key(Int(0, 20), "Its armour level.")
    note: str = note_key()
