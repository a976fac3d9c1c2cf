"""The actions of Para Bellum's rule data: the kinds that set their cost, every action form, weapon tags, Fire! with Charge!."""

from __future__ import annotations

from dataclasses import dataclass

from ...models import Model, key, note_key
from ...schema import Bool, Int, Str
from .text import ID, RULE, TITLE


@dataclass(frozen=True)
class Kind(Model):
    """A kind of action (Short, Long), which sets its cost."""

    cost: int = key(Int(1, 4), "Action points an action of this kind costs.")
    label: str = key(Str(20), "The kind's name as printed.")
    note: str = note_key()


@dataclass(frozen=True)
class WeaponTag(Model):
    """A special rule a weapon may carry."""

    name: str = key(ID, "The tag as a scenario writes it.")
    rule: str = key(RULE, "What the tag does, as printed on the reference sheet.")
    note: str = note_key()


@dataclass(frozen=True, kw_only=True)  # keys in the file's order: optional ones before `rule`
class Action(Model):
    """One action in one form (Fire! has a Short and a Long form): its kind sets its cost."""

    id: str = key(ID, "The form's id, unique in the list; a plan is a sequence of these.")
    action: str = key(ID, "The action this form belongs to: each action is taken at most once an activation.")
    name: str = key(Str(40), "The action's name as printed.")
    kind: str = key(ID, "Its kind, one of `kinds`: the kind sets the cost.")
    bonus_for: str = key(
        ID, "The action whose later use this action's bonus needs (Take Aim! before Fire!).", default=""
    )
    fires_except: str = key(
        ID, "A weapon tag this form does not fire (a Short Fire! leaves heavy weapons out).", default=""
    )
    alone: bool = key(Bool(), "Never combined with another action in one activation (Stand Ready!).", default=False)
    rule: str = key(RULE, "What the action does, as printed on its card.")
    note: str = note_key()


@dataclass(frozen=True)
class FireAndCharge(Model):
    """The rule that a unit may Fire! and Charge! in one activation only with weapons of one tag."""

    name: str = key(TITLE, "The rule's name on the reference sheet.")
    fire: str = key(ID, "The action that fires (an `action` of the action list).")
    charge: str = key(ID, "The action that charges (an `action` of the action list).")
    tag: str = key(ID, "The weapon tag every fired weapon needs for both in one activation.")
    rule: str = key(RULE, "The rule as printed.")
    note: str = note_key()
