"""Advantage at the end of a WarSpike turn: count Units moving forward and say who is Instigator next."""

from __future__ import annotations

from dataclasses import dataclass, fields

from ...models import Model, key
from ...schema import Choice, Int

KINDS = ("forward", "routing", "retreating", "destroyed", "stood")
WHOSE = Choice(["own", "opponent", "none"], "whose total it counts towards, one of")
COUNT = Int(0, 10_000)


@dataclass(frozen=True)
class Movement(Model):
    """How one side's Units ended the turn: how many moved forward, routed, retreated, died or stood."""

    forward: int = key(COUNT, "Units that moved forward.", default=0)
    routing: int = key(COUNT, "Units broken and routing.", default=0)
    retreating: int = key(COUNT, "Units falling back.", default=0)
    destroyed: int = key(COUNT, "Units wiped out.", default=0)
    stood: int = key(COUNT, "Units that did not move.", default=0)

    def __post_init__(self):
        # the rule data's examples are checked by their key specs; this guards Movements built in code
        for count in fields(self):
            value = getattr(self, count.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{count.name} is a count of Units, got {value!r}")


@dataclass(frozen=True)
class Counts(Model):
    """Whose total each way a Unit can end the turn counts towards: its own side's, the opponent's, or none."""

    forward: str = key(WHOSE, "A Unit that moved forward.")
    routing: str = key(WHOSE, "A routing Unit.")
    retreating: str = key(WHOSE, "A retreating Unit.")
    destroyed: str = key(WHOSE, "A destroyed Unit.")
    stood: str = key(WHOSE, "A Unit that did not move.")


@dataclass(frozen=True)
class Settlement:
    """The two totals, the side with the Advantage (None on a tie), and next turn's Instigator (None: toss)."""

    totals: tuple[int, int]
    advantage: int | None
    instigator: int | None
    reason: str


def totals(moves: tuple[Movement, Movement], counts: Counts) -> tuple[int, int]:
    """Each side's total: its own Units counted `own`, the opponent's counted `opponent`; `none` counts zero.

    seed 002: "Units which have been broken and are routing or units that are falling back and
    retreating count towards the opposing player moving forward total"; destroyed Units and
    Units that have not moved count zero.
    """
    out = [0, 0]
    for side in (0, 1):
        for kind in KINDS:
            n = getattr(moves[side], kind)
            whose = getattr(counts, kind)
            if whose == "own":
                out[side] += n
            elif whose == "opponent":
                out[1 - side] += n
    return out[0], out[1]


def settle(
    moves: tuple[Movement, Movement], counts: Counts, can_instigate: tuple[bool, bool] = (True, True)
) -> Settlement:
    """Who has the Advantage, and so who is Instigator next turn; a tie goes back to the coin toss."""
    a, b = totals(moves, counts)
    if a == b:
        return Settlement((a, b), None, None, "tie: a stalemate, settled by the coin toss as at the start of a game")
    winner = 0 if a > b else 1
    if can_instigate[winner]:
        return Settlement((a, b), winner, winner, "the most Units moving forward")
    # seed 002 clause: a side needs a Unit that can advance to be Instigator (see the rule data's note)
    if can_instigate[1 - winner]:
        return Settlement((a, b), winner, 1 - winner, "the side with the Advantage has every Unit on hold")
    return Settlement((a, b), winner, None, "neither side has a Unit that can advance: the coin toss")
