"""Advantage at the end of a WarSpike turn: count Units moving forward and say who is Instigator next."""

from __future__ import annotations

from dataclasses import dataclass, fields

KINDS = ("forward", "routing", "retreating", "destroyed", "stood")


@dataclass(frozen=True)
class Movement:
    """How one side's Units ended the turn: how many moved forward, routed, retreated, died or stood."""

    forward: int = 0
    routing: int = 0
    retreating: int = 0
    destroyed: int = 0
    stood: int = 0

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{f.name} is a count of Units, got {value!r}")


@dataclass(frozen=True)
class Settlement:
    """The two totals, the side with the Advantage (None on a tie), and next turn's Instigator (None: toss)."""

    totals: tuple[int, int]
    advantage: int | None
    instigator: int | None
    reason: str


def totals(moves: tuple[Movement, Movement], counts: dict[str, str]) -> tuple[int, int]:
    """Each side's total: its own Units counted `own`, the opponent's counted `opponent`; `none` counts zero.

    seed 002: "Units which have been broken and are routing or units that are falling back and
    retreating count towards the opposing player moving forward total"; destroyed Units and
    Units that have not moved count zero.
    """
    unknown = set(counts.values()) - {"own", "opponent", "none"}
    if unknown or set(counts) != set(KINDS):
        raise ValueError(f"advantage counts must give own, opponent or none for each of {', '.join(KINDS)}")
    out = [0, 0]
    for side in (0, 1):
        for kind, whose in counts.items():
            n = getattr(moves[side], kind)
            if whose == "own":
                out[side] += n
            elif whose == "opponent":
                out[1 - side] += n
    return out[0], out[1]


def settle(moves: tuple[Movement, Movement], counts: dict[str, str],
           can_instigate: tuple[bool, bool] = (True, True)) -> Settlement:
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
