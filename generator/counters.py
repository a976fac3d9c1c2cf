"""Counters and markers to put on the table: square tokens, fronts and backs, imposed on sheets like the cards.

Each system says which counters its games need (System.counters), from its rule data and the scenario: Fireteam's
HIT and Out markers, WarSpike's Action and Reaction markers, Para Bellum's Stress tokens, Morschauser's unit
counters at the size of the printed map's squares. `muster build` prints them as NAME-counters.pdf with the cards'
print options: paper, bleed, duplex and its back offset, fronts only, ink saver.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import cards

MARKER_MM = 20.0  # a marker's side: 10 across and 14 down an A4 sheet, a name of 40 characters in 7 pt lines
SMALLEST_MM = 12.0  # the least side a counter prints at (a map's squares may be smaller): its code stays 7 pt


@dataclass(frozen=True)
class Face:
    """One face of a counter: a big word or figure, smaller lines under it, the side's colour and badge, a picture
    (a unit's symbol) and whether its top edge is the unit's front (Morschauser's facing)."""

    title: str
    lines: tuple[str, ...] = ()
    colour: str = "#1a1a1a"
    badge: str = ""
    picture: str = ""
    facing: bool = False
    alt: str = ""  # the badge's or picture's words, for a tagged PDF's reader: the side's name, the unit's type

    @classmethod
    def of(cls, side, title: str, *lines: str) -> Face:
        """A face in a side's colour with its badge (a scenario.SideView), the badge read out as the side's name."""
        return cls(title, lines, side.colour, side.badge, alt=side.name)


@dataclass(frozen=True)
class Counter:
    """A square counter: its front and its back (a state it flips to: HIT to Out); a back of None repeats the
    front, so a counter reads the same whichever way up it lands."""

    front: Face
    back: Face | None = None


def layout(options, side_mm: float) -> cards.Layout:
    """The sheet of counters `side_mm` square for the cards' print options: as many as fit with cut marks."""
    return cards.square_layout(
        options.paper, max(side_mm, SMALLEST_MM), options.bleed, options.duplex, options.back_offset
    )


def sheets(counters: list[Counter], grid: cards.Layout, with_backs: bool = True) -> list[dict]:
    """Pages of counters: each front sheet, then its backs, each back where duplex puts it behind its front."""
    pages = []
    for number, start in enumerate(range(0, len(counters), grid.per_sheet), 1):
        batch = counters[start : start + grid.per_sheet]
        slots = [{"x": grid.front_slot(i)[0], "y": grid.front_slot(i)[1], "face": c.front} for i, c in enumerate(batch)]
        pages.append({"face": "front", "number": number, "slots": slots, "marks": grid.cut_marks(len(batch))})
        if with_backs:
            backs = [
                {"x": grid.back_slot(i)[0], "y": grid.back_slot(i)[1], "face": c.back or c.front}
                for i, c in enumerate(batch)
            ]
            pages.append({"face": "back", "number": number, "slots": backs, "marks": []})
    return pages
