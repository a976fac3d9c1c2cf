"""Fitting unit cards at each card size: text measured with the card font, laid out in fixed rows over follow-on cards.

A unit's card body is a stack of blocks (stats, HQ line, one block per weapon, the Fire!/Charge! line,
the stress track, then its plan groups), each a whole number of rows of the size's row height. Wrapped
text is measured here with DejaVu Sans metrics, so a block's height is known before WeasyPrint lays it
out; the template gives each block exactly that height. Blocks that do not fit move to a follow-on card.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from math import ceil, floor
from pathlib import Path

FALLBACK_EM = 0.68  # per character, when the font cannot be read: wider than any DejaVu Sans letter but W and M
PT_MM = 25.4 / 72
SLACK_MM = 1.0  # measured lines are kept this much narrower than the body, for rounding and justification
# a follow-on card's legend and the track's caption: the first that fits one row, else the last, wrapped
LEGENDS = ("CAPITALS: Long (2 points) \u00b7 \u2020 wastes Aim", "CAPITALS: Long \u00b7 \u2020 wastes Aim")
CAPTIONS = ("Points for D6 {faces}; tick Stress.", "D6 {faces}; tick Stress.")


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


def geometry(size: str) -> Geometry:
    """The measured geometry for a card size (poker, mini or tarot)."""
    return GEOMETRY[size]


@lru_cache(maxsize=2)
def _font(bold: bool = False):
    """DejaVu Sans's (or DejaVu Sans Bold's) advance widths in em, or None when the font file cannot be found."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    candidates = [Path("/usr/share/fonts/truetype/dejavu") / name]
    if shutil.which("fc-match"):
        try:
            pattern = "DejaVu Sans:bold" if bold else "DejaVu Sans"
            found = subprocess.run(["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True, timeout=5).stdout.strip()
            if found:
                candidates.append(Path(found))
        except (OSError, subprocess.SubprocessError):
            pass
    for path in candidates:
        if path.is_file() and path.suffix.lower() == ".ttf":
            from fontTools.ttLib import TTFont

            with TTFont(str(path), lazy=True) as font:  # closed at once: read the two tables we need
                cmap = font.getBestCmap()
                metrics = font["hmtx"].metrics
                upem = font["head"].unitsPerEm
                return {code: metrics[name][0] / upem for code, name in cmap.items()}
    return None


def width_mm(text: str, size_pt: float = 7.0, bold: bool = False) -> float:
    """How wide `text` prints in DejaVu Sans at this size, in millimetres (bold: every letter bold, an upper bound)."""
    widths = _font(bold)
    if widths is None:
        ems = len(text) * FALLBACK_EM
    else:
        ems = sum(widths.get(ord(ch), FALLBACK_EM) for ch in text)
    return ems * size_pt * PT_MM


def lines(words: list[float], space: float, room: float) -> int:
    """Lines greedy wrapping needs for words of these widths (mm) on a line `room` wide; a too-long word breaks."""
    count, used = 0, None
    for w in words:
        if used is not None and used + space + w <= room:
            used += space + w
            continue
        if w > room:  # overflow-wrap: anywhere breaks it over whole lines
            count += ceil(w / room)
            used = w - (ceil(w / room) - 1) * room
        else:
            count += 1
            used = w
    return max(1, count)


def text_rows(text: str, geo: Geometry, bold=frozenset(), extra: list[float] = ()) -> int:
    """Rows `text` wraps to across the card body: words in `bold` measured bold, unbreakable boxes `extra` mm wide at its end."""
    pt = geo.text_pt
    words = [width_mm(w, pt, w in bold) for w in text.split()] + list(extra)
    return lines(words, width_mm(" ", pt), geo.inner_mm - SLACK_MM)


def first_fitting(texts: list[str], geo: Geometry) -> str:
    """The first text that fits on one row, or the last (shortest) one to be wrapped."""
    return next((t for t in texts if text_rows(t, geo) == 1), texts[-1])


def tag_box_mm(tag_text: str, geo: Geometry) -> float:
    """A weapon's tag box (.pb-tags): upper case, 0.03 em letter spacing, 0.6 mm padding, 0.2 mm border, 1 mm margin."""
    text = tag_text.upper()
    return width_mm(text, geo.text_pt) + len(text) * 0.03 * geo.text_pt * PT_MM + 2 * 0.6 + 2 * 0.2 + 1.0


def stats_text(unit: dict) -> tuple[str, frozenset]:
    """The stats row as printed, and its words printed in bold (the numbers), for measuring."""
    bold = [str(unit["models"]), f'{unit["movement"]}"', f'{unit["run"]}"']
    text = f'{bold[0]} models \u00b7 Move {bold[1]} \u00b7 Run {bold[2]}'
    if unit.get("discipline") is not None:
        bold.append(f'{unit["discipline"]}+')
        text += f' \u00b7 Disc {bold[3]}'
    return text, frozenset(bold)


def hq_text(unit: dict) -> str:
    n = unit["command_points"]
    return f"HQ \u00b7 {n} Command Point{'s' if n != 1 else ''} for Take Action!"


def unit_blocks(unit: dict, geo: Geometry) -> list[dict]:
    """The fixed blocks of a unit's first card, each {"block": kind, "rows": n}, in print order."""
    text, bold = stats_text(unit)
    blocks = [{"block": "stats", "rows": text_rows(text, geo, bold)}]
    if unit["hq"]:
        blocks.append({"block": "hq", "rows": text_rows(hq_text(unit), geo, frozenset({"HQ"}))})
    for i, w in enumerate(unit["weapons"]):
        extra = [tag_box_mm(w["tag_text"], geo)] if w["tag_text"] else []
        blocks.append({"block": "weapon", "weapon": w, "rows": text_rows(w["name"], geo, extra=extra)})
    if not unit["weapons"]:
        blocks.append({"block": "weapon", "weapon": None, "rows": 1})
    blocks.append({"block": "fc", "rows": text_rows(unit["fire_charge"], geo)})
    caption = first_fitting([c.format(faces=unit["track"]["faces"]) for c in CAPTIONS], geo)
    # the track, its caption, and a blank row before the plans
    rows = geo.track_rows(len(unit["track"]["levels"])) + text_rows(caption, geo) + 1
    blocks.append({"block": "track", "rows": rows, "caption": caption})
    return blocks


def legend_block(geo: Geometry) -> dict:
    text = first_fitting(list(LEGENDS), geo)
    return {"block": "legend", "text": text, "rows": text_rows(text, geo)}


def columns_for(labels: list[str], geo: Geometry) -> int:
    """As many equal columns as the widest label allows on the card's width."""
    widest = max((width_mm(t, geo.text_pt) for t in labels), default=0.0) + 0.5
    return max(1, min(geo.max_cols, floor((geo.inner_mm + geo.gap_mm) / (widest + geo.gap_mm))))


def item_rows(item: dict) -> int:
    """Rows a card item takes: a block its own rows, a plan group its heading and its rows of plans."""
    return 1 + len(item["rows"]) if item["block"] == "plans" else item["rows"]


def paginate(blocks: list[dict], groups: list[dict], geo: Geometry) -> list[list[dict]]:
    """Lay a unit's blocks then its plan groups over cards of `geo.body_rows` rows; every card after the first opens with the legend.

    A block moves whole to the next card when it does not fit. Each group is {"points": n, "plans": [...]};
    it prints a heading row then its plans in rows of `cols`, and a group that does not fit continues on
    the next card under a "continued" heading, so no plan is ever cut off or squeezed; no part of a split
    group is a single row.
    """
    cards: list[list[dict]] = [[]]
    room = geo.body_rows

    def new_card() -> None:
        nonlocal room
        legend = legend_block(geo)
        cards.append([legend])
        room = geo.body_rows - legend["rows"]

    for b in blocks:
        if b["rows"] > room and cards[-1]:
            new_card()
        cards[-1].append(b)
        room -= b["rows"]
    for g in groups:
        cols = columns_for([p["abbr"] + p["mark"] for p in g["plans"]], geo)
        rows = [g["plans"][i:i + cols] for i in range(0, len(g["plans"]), cols)]
        part = 0
        while rows:
            if room < 2:  # a heading with no row under it helps nobody
                new_card()
            take = min(len(rows), room - 1)
            if take < len(rows) and (take < 2 or len(rows) - take < 2):  # never a lone row of a split group
                if take < 3:
                    new_card()
                    continue
                take -= 1
            cards[-1].append({"block": "plans", "points": g["points"], "cols": cols, "continued": part > 0, "rows": rows[:take], "count": len(g["plans"])})
            rows = rows[take:]
            room -= take + 1
            part += 1
    return cards
