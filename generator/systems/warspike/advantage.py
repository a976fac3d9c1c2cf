"""Advantage at the end of a WarSpike turn: count Units moving forward and say who is Instigator next."""

from __future__ import annotations

from dataclasses import dataclass, fields

from ...models import Model, english_list, key
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


# each way a Unit ends the turn, as a tracker's tally row says it ("Units moving forward", "Routing or retreating")
TALLY_WORDS = {
    "forward": "moving forward",
    "routing": "routing",
    "retreating": "retreating",
    "destroyed": "destroyed",
    "stood": "not moved",
}
# the ways a Unit ends the turn that read as a word before "Units" ("routing and retreating Units")
ADJECTIVES = ("routing", "retreating", "destroyed")
ALONE_WORDS = {"forward": "Units moving forward", "stood": "Units that have not moved"}
DESTROYED_WORDS = {
    "none": "They count as zero here",
    "opponent": "They count here towards the opposing side\u2019s total",
    "own": "They count here towards their own side\u2019s total",
}


def whose(counts: dict) -> dict[str, list[str]]:
    """The ways a Unit ends the turn, by whose total they count towards: 'own', 'opponent', 'none'."""
    out: dict[str, list[str]] = {"own": [], "opponent": [], "none": []}
    for kind in KINDS:
        out[counts.get(kind) if counts.get(kind) in out else "none"].append(kind)
    return out


def _units(kinds: list[str]) -> str:
    """'Units moving forward', 'routing and retreating Units', 'destroyed Units and Units that have not moved'."""
    said = [ALONE_WORDS[kind] for kind in kinds if kind == "forward"]
    adjectives = [kind for kind in kinds if kind in ADJECTIVES]
    if adjectives:
        said.append(english_list(adjectives) + " Units")
    said += [ALONE_WORDS[kind] for kind in kinds if kind == "stood"]
    return english_list(said)


def counting_words(counts: dict) -> str:
    """The tally in words from the rule data's `counts` (house rules and all): "its own Units moving forward and
    the opposing side's routing and retreating Units; destroyed Units and Units that have not moved count zero"."""
    ways = whose(counts)
    parts = []
    if ways["own"]:
        parts.append("its own " + _units(ways["own"]))
    if ways["opponent"]:
        parts.append("the opposing side\u2019s " + _units(ways["opponent"]))
    out = " and ".join(parts) if parts else "nothing"
    if ways["none"]:
        out += "; " + _units(ways["none"]) + " count zero"
    return out


def destroyed_words(counts: dict) -> str:
    """Whose total a destroyed Unit counts towards, said for the note on the original rules' two answers."""
    return DESTROYED_WORDS.get(counts.get("destroyed"), DESTROYED_WORDS["none"])


def tallies(counts: dict, other: str) -> list[dict]:
    """A side's tally rows on the turn tracker, from the rule data's counts: its own Units that count for it, its
    Units that count for `other`, and its total."""
    ways = whose(counts)
    own = english_list([TALLY_WORDS[kind] for kind in ways["own"]], "or") if ways["own"] else ""
    theirs = english_list([TALLY_WORDS[kind] for kind in ways["opponent"]], "or") if ways["opponent"] else ""
    rows = []
    if own:
        rows.append({"label": f"Units {own}", "hint": "own"})
    if theirs:
        rows.append({"label": f"{theirs[:1].upper()}{theirs[1:]} (count for {other})", "hint": "opponent"})
    total = " + ".join(filter(None, [f"own {own}" if own else "", f"{theirs} of {other}" if theirs else ""]))
    rows.append({"label": f"Total ({total})" if total else "Total", "hint": "total"})
    return rows
