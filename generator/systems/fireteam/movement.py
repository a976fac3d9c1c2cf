"""The movement rules' models in rules.yaml: figures' and vehicles' moves, obstacles, hovercraft and jump packs."""

from __future__ import annotations

from dataclasses import dataclass

from ...models import Model, Typed, key
from ...schema import Choice, Int
from .kinds import NAME, RULE


@dataclass(frozen=True)
class Jump(Model):
    """Jump packs."""

    max: int = key(Int(1, 200), "The longest jump in inches.", unit="inch")
    dice: int = key(Int(1, 6), "Dice rolled after a jump.")
    mishap_natural: int = key(Int(1, 36), "The natural roll of those dice after a jump that is a HIT.")
    clearance: int = key(Int(0, 48), "Inches from any figure at take-off and landing.", unit="inch")
    vertical: int = key(Int(0, 200), "The highest straight jump up or down, in inches.", unit="inch")
    rule: str = key(RULE, "The rule in a sentence.")


@dataclass(frozen=True)
class NamedRule(Model):
    """A named rule in a sentence."""

    name: str = key(NAME, "The rule's name.")
    rule: str = key(RULE, "The rule in a sentence.")


@dataclass(frozen=True)
class Movement(Model):
    """Moving figures and vehicles."""

    dice: int = key(Int(1, 6), "Dice a figure rolls for inches moved.")
    fixed: int = key(Int(0, 48), "Inches a figure may take without rolling.", unit="inch")
    rule: str = key(RULE, "The rule in a sentence.")
    linear_obstacle: int = key(Int(0, 48), "Inches a linear obstacle costs.", unit="inch")
    rough: str = key(Choice(["double"]), "What rough ground costs.")
    vehicle_dice: int = key(Int(1, 10), "Dice a vehicle rolls.")
    hovercraft: NamedRule = key(Typed(NamedRule), "Hovercraft and helicopters.")
    jump: Jump = key(Typed(Jump), "Jump packs.")
