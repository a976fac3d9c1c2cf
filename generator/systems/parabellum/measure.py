"""Card geometry and text measurement: each card size's body as cards.css lays it out, and wrapped text counted in rows.

Wrapped text is measured with the bundled text face's advance widths (generator/fonts.py), so a block's
height is known before WeasyPrint lays it out. Keep GEOMETRY in step with templates/para-bellum/cards.css.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

from ... import fonts

PT_MM = 25.4 / 72
SLACK_MM = 1.0  # measured lines are kept this much narrower than the body, for rounding and justification


@dataclass(frozen=True)
class Geometry:
    """One card size's body as templates/para-bellum/cards.css lays it out (`.cards-<size> .pb-body` and friends).

    row_mm is the line-height of every body row; body_rows how many fit between the band and the foot;
    inner_mm the body's width less a little for rounding; text_pt the body and plan font size. track is
    how the stress track is printed: "across" (levels across, three rows: labels, no order, order) or
    "down" (transposed for narrow cards: a header row, then one row per stress level).
    """

    size: str
    row_mm: float
    body_rows: int
    inner_mm: float
    text_pt: float = 7.0
    max_cols: int = 4
    gap_mm: float = 2.0
    track: str = "across"

    def column_mm(self, cols: int) -> float:
        """The width of one of `cols` equal plan columns."""
        return (self.inner_mm + self.gap_mm) / cols - self.gap_mm

    def track_rows(self, levels: int) -> int:
        return 3 if self.track == "across" else 1 + levels


# Keep in step with cards.css: poker body 57.5 mm wide from 14.5 mm down, 22 rows of 3 mm above the foot
# (at 82.4 mm); mini 40 mm wide from 11 mm, 16 rows of 3 mm above its foot (61.5 mm); tarot 62 mm wide at
# 8 pt from 19 mm, 27 rows of 3.4 mm above its foot (112.6 mm).
GEOMETRY = {
    "poker": Geometry("poker", row_mm=3.0, body_rows=22, inner_mm=57.0),
    "mini": Geometry("mini", row_mm=3.0, body_rows=16, inner_mm=39.5, track="down"),
    "tarot": Geometry("tarot", row_mm=3.4, body_rows=27, inner_mm=61.5, text_pt=8.0),
}


def for_size(size: str) -> Geometry:
    """The measured geometry for a card size (poker, mini or tarot)."""
    return GEOMETRY[size]


def width_mm(text: str, size_pt: float = 7.0, bold: bool = False) -> float:
    """How wide `text` prints in the bundled text face at this size, in millimetres (bold: every letter bold)."""
    return fonts.text_width(text, size_pt, bold) * PT_MM


def lines(words: list[float], space: float, room: float) -> int:
    """Lines greedy wrapping needs for words of these widths (mm) on a line `room` wide; a too-long word breaks."""
    count, used = 0, None
    for width in words:
        if used is not None and used + space + width <= room:
            used += space + width
            continue
        if width > room:  # overflow-wrap: anywhere breaks it over whole lines
            count += ceil(width / room)
            used = width - (ceil(width / room) - 1) * room
        else:
            count += 1
            used = width
    return max(1, count)


def text_rows(text: str, geometry: Geometry, bold=frozenset(), extra: list[float] = ()) -> int:
    """Rows `text` wraps to across the card body: words in `bold` measured bold, unbreakable boxes `extra` mm wide at its end."""
    pt = geometry.text_pt
    words = [width_mm(word, pt, word in bold) for word in text.split()] + list(extra)
    return lines(words, width_mm(" ", pt), geometry.inner_mm - SLACK_MM)


def first_fitting(texts: list[str], geometry: Geometry) -> str:
    """The first text that fits on one row, or the last (shortest) one to be wrapped."""
    return next((t for t in texts if text_rows(t, geometry) == 1), texts[-1])


def tag_box_mm(tag_text: str, geometry: Geometry) -> float:
    """A weapon's tag box (.pb-tags): upper case, 0.03 em letter spacing, 0.6 mm padding, 0.2 mm border, 1 mm margin."""
    text = tag_text.upper()
    return width_mm(text, geometry.text_pt) + len(text) * 0.03 * geometry.text_pt * PT_MM + 2 * 0.6 + 2 * 0.2 + 1.0
