"""WarSpike's rule data (rules.yaml) as typed models, one line of documentation per key, with its consistency checks."""

from __future__ import annotations

from dataclasses import dataclass

from ...models import Model, Typed, UniqueNames, key, note_key
from ...schema import Bool, Int, ListOf, Num, Str, one_of, suggest
from .advantage import Counts, Movement
from .wording import TEXT, Blocks, CardText, Hold, MarkerRule, MoveDistance, Note, Resolution, Rule, Step, Term


@dataclass(frozen=True)
class Armies(Model):
    """How many armies a game has."""

    name: str = key(Str(80), "The rule's title.")
    sides: int = key(Int(1, 8), "How many sides a scenario has.")
    rule: str = key(TEXT, "The rule as printed.")
    note: str = note_key()

    def after(self, path, checker):
        # seed 002: one Instigator, one Retaliator; the tracker's tallies count for "the other" side
        if self.sides != 2:
            checker.report(
                path + ("sides",),
                f"a WarSpike turn has one Instigator and one Retaliator, so 2 sides (got {self.sides})",
            )


@dataclass(frozen=True)
class Turn(Model):
    """What one game turn is and how many a game lasts."""

    battle_seconds: int = key(Int(1, 3600), "Seconds of battle time one turn represents.")
    rule: str = key(TEXT, "The rule as printed.")
    default_turns: int = key(Int(1, 1000), "Turns a scenario lasts when it gives no `turns`.")
    turns_max: int = key(Int(1, 1000), "The most turns a scenario may give.")
    ground_scale: Note = key(Typed(Note), "How a turn's battle time relates to distances.")
    length: Note = key(Typed(Note), "How long a game lasts.")

    def after(self, path, checker):
        if self.default_turns > self.turns_max:
            checker.report(
                path + ("default_turns",),
                f"the default number of turns ({self.default_turns}) is above turns_max ({self.turns_max})",
            )


@dataclass(frozen=True)
class CoinToss(Model):
    """The toss that picks the first Instigator and settles a tied Advantage."""

    rule: str = key(TEXT, "The rule as printed.")
    faces: list = key(ListOf(Str(20), min=2, max=20), "The coin's faces, each equally likely.")
    scenario_instigator: Note = key(Typed(Note), "How a scenario's named Instigator is read.")

    def after(self, path, checker):
        for i, face in enumerate(self.faces):
            if face in self.faces[:i]:
                checker.report(path + ("faces", i), f"the coin has two faces named {face!r}")


@dataclass(frozen=True)
class Option(Model):
    """One Action or Reaction a Unit may choose."""

    name: str = key(Str(20), "The option's name (Move, Shoot...), printed on its card.")
    text: str = key(Str(200), "What the option does, printed on its card.")
    note: str = note_key()


@dataclass(frozen=True)
class Mark(Model):
    """One letter a player writes in a Unit's tracker box."""

    mark: str = key(Str(2), "The letter written in the box.")
    means: str = key(Str(80), "What it stands for, printed in the tracker's lead.")
    changeover: bool = key(
        Bool(),
        "true: the mark of a Changeover move, left out where no Unit that can be Retaliator is free to make one.",
        default=False,
    )


@dataclass(frozen=True)
class PerTurn(Model):
    """The one-Action-or-Reaction-a-turn limit and the tracker marks that follow it."""

    name: str = key(Str(80), "The rule's title.")
    rule: str = key(TEXT, "The rule as printed.")
    tracker_marks: list = key(ListOf(Typed(Mark), min=1, max=10), "The marks a Unit's tracker box may hold.")
    note: str = note_key()

    def after(self, path, checker):
        marks = [m.mark for m in self.tracker_marks]
        for i, mark in enumerate(marks):
            if mark in marks[:i]:
                checker.report(path + ("tracker_marks", i, "mark"), f"two tracker marks are {mark!r}")


@dataclass(frozen=True)
class Example(Model):
    """A worked Advantage example for the reference sheet: how each side's Units ended a turn."""

    first: Movement = key(Movement.spec(), "The first side's Units.")
    second: Movement = key(Movement.spec(), "The second side's Units.")


@dataclass(frozen=True)
class Advantage(Model):
    """Who is Instigator next turn: the count of Units moving forward."""

    rule: str = key(TEXT, "The rule as printed.")
    counts: Counts = key(Counts.spec(), "Whose total each way a Unit can end the turn counts towards.")
    examples: list = key(ListOf(Typed(Example), max=10), "Worked examples the reference sheet settles.")
    rough: Note = key(Typed(Note), "How the seed's rough Advantage rule is read.")
    destroyed: Note = key(Typed(Note), "How destroyed Units count.")
    blocks: Note = key(Typed(Note), "How Units in Blocks count.")
    cannot_instigate: Note = key(Typed(Note), "What happens when the side with the Advantage cannot instigate.")


@dataclass(frozen=True)
class UnitLimits(Model):
    """The largest stats a scenario's Unit may have."""

    stature_max: float = key(Num(0.1, 10_000), "The largest Stature.")
    move_rate_max: float = key(Num(0.1, 10_000), "The largest move rate.")
    troops_max: int = key(Int(1, 100_000), "The most troops in one Unit.")
    mentality_max: int = key(Int(0, 100_000), "The largest Mentality.")
    stats: Note = key(Typed(Note), "How the seed's unscaled stats are read.")


OPTIONS = UniqueNames(Typed(Option), min=1, max=12, what="option")


@dataclass(frozen=True)
class TerrainKind(Model):
    """A kind of terrain a scenario may place on its map."""

    name: str = key(Str(40), "The kind's name, as a scenario's terrain piece writes it.")


@dataclass(frozen=True)
class Rules(Model):
    """WarSpike Tactical Core as Muster encodes it (seed 002): the pack, the cards and validation read it."""

    id: str = key(Str(40), "The system's id.")
    title: str = key(Str(80), "The system's title.")
    source: str = key(Str(300), "Where the rules come from, printed under the reference.")
    scope: str = key(Str(600), "What of a game these rules cover and what the players bring, printed on the cover.")
    armies: Armies = key(Typed(Armies), "How many armies fight.")
    turn: Turn = key(Typed(Turn), "What a turn is and how many a game has.")
    coin_toss: CoinToss = key(Typed(CoinToss), "The coin toss.")
    actions: list = key(OPTIONS, "The Instigator's Actions.")
    actions_detail: Note = key(Typed(Note), "Where the Actions' detail lives.")
    actions_rule: str = key(TEXT, "How the Instigator activates a Unit.")
    move_distance: MoveDistance = key(Typed(MoveDistance), "How far a Move goes.")
    block_move: Note = key(Typed(Note), "How far a Block moves.")
    terrain: list = key(
        UniqueNames(Typed(TerrainKind), min=1, max=40, what="terrain kind"), "The terrain kinds a map may show."
    )
    terrain_note: Note = key(Typed(Note), "What terrain does in the core rules.")
    reactions: list = key(OPTIONS, "The Retaliator's Reactions: the same names as the Actions.")
    reactions_rule: str = key(TEXT, "How the Retaliator reacts.")
    movement_counter: MarkerRule = key(Typed(MarkerRule), "How a Move that targets no one is countered.")
    per_turn: PerTurn = key(Typed(PerTurn), "One Action or Reaction a Unit a turn.")
    resolution: Resolution = key(Typed(Resolution), "Paired-Resolutions.")
    changeover: Rule = key(Typed(Rule), "The Changeover.")
    advantage: Advantage = key(Typed(Advantage), "Advantage: next turn's Instigator.")
    hold: Hold = key(Typed(Hold), "Hold orders.")
    blocks: Blocks = key(Typed(Blocks), "Blocks.")
    unit: UnitLimits = key(Typed(UnitLimits), "The limits of a Unit's stats.")
    odds: Note = key(Typed(Note), "Why the odds are the coin toss alone.")
    deck: Note = key(Typed(Note), "Why there is no deck.")
    flow: list = key(ListOf(Typed(Step), min=1, max=12), "The turn sequence as a flow of steps.")
    cards: CardText = key(Typed(CardText), "Rule lines of the option and marker cards.")
    glossary: list = key(ListOf(Typed(Term), min=1, max=40), "The glossary of game terms.")

    def after(self, path, checker):
        # the Unit card lists one set of options for "Action or Reaction": both lists must name the same ones
        actions = [a.name for a in self.actions]
        for i, reaction in enumerate(self.reactions):
            if reaction.name not in actions:
                checker.report(
                    path + ("reactions", i, "name"),
                    f"expected one of the Actions' names, {one_of(actions)} "
                    f"(got {reaction.name!r}){suggest(reaction.name, actions)}: a Unit card lists one set "
                    "of options for its Action or Reaction",
                )
        reactions = [r.name for r in self.reactions]
        for i, name in enumerate(self.hold.reactions):
            if name not in reactions:
                checker.report(
                    path + ("hold", "reactions", i),
                    f"expected one of the Reactions' names, {one_of(reactions)} (got {name!r}){suggest(name, reactions)}",
                )
        named = self.movement_counter.reaction
        if named not in reactions:
            checker.report(
                path + ("movement_counter", "reaction"),
                f"expected one of the Reactions' names, {one_of(reactions)} (got {named!r}){suggest(named, reactions)}",
            )
        for i, action in enumerate(self.actions):
            if action.name not in reactions:
                checker.report(
                    path + ("actions", i, "name"),
                    f"Action {action.name!r} has no Reaction of that name: "
                    "a Unit card lists one set of options for its Action or Reaction",
                )
