"""The parts of WarSpike's rule data printed as they stand: notes, rule texts, the turn's flow, card lines, the glossary."""

from __future__ import annotations

from dataclasses import dataclass

from ...models import Model, Note, Typed, key, note_key
from ...schema import Bool, Choice, ListOf, Str

TEXT = Str(2000)


@dataclass(frozen=True)
class MoveDistance(Model):
    """How far a Move goes, and in what unit."""

    name: str = key(Str(80), "The rule's title.")
    unit: str = key(Str(10), "The mark printed after a distance in the default unit.")
    unit_words: str = key(Str(40), "The default unit in words.")
    note: str = note_key()


@dataclass(frozen=True)
class Resolution(Model):
    """The Paired-Resolution of an Action and its Reaction."""

    rule: str = key(TEXT, "The rule as printed.")
    bridge_example: str = key(TEXT, "The original rules' bridge example, printed after the rule, after 'For example,'.")
    naming: Note = key(Typed(Note), "Which of the seed's names is printed.")
    order: Note = key(Typed(Note), "The order Paired-Resolutions are resolved in.")


@dataclass(frozen=True)
class Rule(Model):
    """A rule printed as it stands."""

    rule: str = key(TEXT, "The rule as printed.")


@dataclass(frozen=True)
class MarkerRule(Model):
    """A rule printed on the Retaliator's role marker (how a Move that targets no one is countered, by any Unit),
    and in full in the quick reference."""

    name: str = key(Str(80), "The rule's title.")
    reaction: str = key(
        Str(40),
        "The Reaction it concerns (one of the Reactions' names): its card and this rule print "
        "only where a Unit that can be Retaliator may make it.",
    )
    rule: str = key(TEXT, "The rule as printed on the marker.")
    card: str = key(Str(200), "The rule line of that Reaction's card, in place of the one every other Reaction prints.")
    reference: str = key(TEXT, "The rule in full, as the quick reference prints it.")
    note: str = note_key()


@dataclass(frozen=True)
class Hold(Model):
    """Hold orders, and the side that cannot be Instigator because of them."""

    name: str = key(Str(80), "The rule's title.")
    rule: str = key(TEXT, "The rule as printed.")
    reactions: list = key(
        ListOf(Str(80), min=1, max=20), "The Reactions a Unit under hold orders may take (it holds its ground)."
    )
    reactions_note: Note = key(Typed(Note), "Why those Reactions and no others.")
    note: str = note_key()


@dataclass(frozen=True)
class Blocks(Model):
    """Units moving and acting as one."""

    rule: str = key(TEXT, "The rule as printed.")
    same_option: str = key(TEXT, "Every Unit of a Block takes the same option; printed on the Action cards.")
    retaliator_block: str = key(TEXT, "The Retaliator's Block in response; printed on the Reaction cards.")
    fixed: str = key(TEXT, "The Instigator's Block is fixed once chosen.")
    excluded: str = key(TEXT, "What a Unit left out of a Block may not do.")
    standing: Note = key(Typed(Note), "How a scenario's standing organisation is read.")
    adjacency: Note = key(Typed(Note), "Why adjacency is not checked.")
    leader: Note = key(Typed(Note), "Whose leader and Mentality a Block prints.")
    manoeuvres: Note = key(Typed(Note), "Why every Block takes one option.")


@dataclass(frozen=True)
class Step(Model):
    """One box of the turn-sequence flow."""

    step: str = key(Str(40), "The step's heading.")
    text: str = key(
        TEXT,
        "What happens in it; {actions} and {reactions} print the Actions and the Reactions a battle's Units may make.",
    )
    when: str = key(Str(80), "When the step happens, if not every turn.", default="")
    loop: bool = key(Bool(), "true: the flow returns to step 1 from here.", default=False)
    settles: str = key(
        Choice(["", "instigator", "advantage", "changeover"]),
        "What the step settles: 'instigator' for the coin toss (every turn in a battle where only one side can be "
        "Instigator), 'advantage' for the tally such a battle skips, 'changeover' for the Changeover, which a "
        "battle skips where no Unit that can be Retaliator is free to move.",
        default="",
    )


@dataclass(frozen=True)
class CardText(Model):
    """The rule lines printed on the option cards and the role markers."""

    action_rule: str = key(Str(200), "Printed on every Action card.")
    reaction_rule: str = key(Str(200), "Printed on every Reaction card.")
    instigator: list = key(ListOf(Str(200), min=1, max=6), "The lines of the Instigator marker.")
    retaliator: list = key(ListOf(Str(200), min=1, max=6), "The lines of the Retaliator marker.")
    changeover: str = key(
        Str(200),
        "The Retaliator marker's line on the Changeover (where a Unit that can be Retaliator is free to move).",
    )
    advantage: str = key(
        Str(200), "The Retaliator marker's line on who takes the Advantage (where the roles can change hands)."
    )


@dataclass(frozen=True)
class Term(Model):
    """One game term of the glossary."""

    term: str = key(Str(40), "The term, capitalised as the seed does.")
    text: str = key(TEXT, "What it means.")
