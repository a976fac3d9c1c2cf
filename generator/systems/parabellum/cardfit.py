"""Fitting plan lists onto 63.5 x 88.9 mm cards: text measured with the card font, lists split over follow-on cards."""

from __future__ import annotations

import shutil
import subprocess
from functools import lru_cache
from math import ceil, floor
from pathlib import Path

# The geometry templates/para-bellum/cards.css uses: every line of a card body is one fixed row.
ROW_MM = 3.0  # line-height of a body row
BODY_ROWS = 22  # rows between the coloured band and the foot (67.5 mm of 88.9 mm, with a margin)
INNER_MM = 57.0  # usable width: 63.5 mm less 3 mm padding each side, less a little for rounding
PLAN_PT = 7.0  # font size of a plan in the lists: .pb-body in cards.css (the 7 pt print floor)
GAP_MM = 2.0  # space between plan columns
MAX_COLS = 4
FALLBACK_EM = 0.68  # per character, when the font cannot be read: wider than any DejaVu Sans letter but W and M

PT_MM = 25.4 / 72


@lru_cache(maxsize=1)
def _font():
    """DejaVu Sans's advance widths in em, or None when the font file cannot be found."""
    candidates = [Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")]
    if shutil.which("fc-match"):
        try:
            found = subprocess.run(["fc-match", "-f", "%{file}", "DejaVu Sans"], capture_output=True, text=True, timeout=5).stdout.strip()
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


def width_mm(text: str, size_pt: float = PLAN_PT) -> float:
    """How wide `text` prints in DejaVu Sans at this size, in millimetres."""
    widths = _font()
    if widths is None:
        ems = len(text) * FALLBACK_EM
    else:
        ems = sum(widths.get(ord(ch), FALLBACK_EM) for ch in text)
    return ems * size_pt * PT_MM


def columns_for(labels: list[str]) -> int:
    """As many equal columns as the widest label allows on the card's width."""
    widest = max((width_mm(t) for t in labels), default=0.0) + 0.5
    return max(1, min(MAX_COLS, floor((INNER_MM + GAP_MM) / (widest + GAP_MM))))


def unit_card_rows(unit: dict) -> int:
    """Rows a unit card spends before its plans: stats, HQ line, weapons, Fire!/Charge! (2), stress track (4), a gap."""
    return 1 + (1 if unit["hq"] else 0) + max(1, len(unit["weapons"])) + 2 + 4 + 1


def paginate(groups: list[dict], first_budget: int, budget: int = BODY_ROWS) -> list[list[dict]]:
    """Split plan groups into cards of rows: the first card has `first_budget` rows left, later ones `budget`.

    Each group is {"points": n, "plans": [...], "label": lambda...}; a group prints a heading row then
    its plans in rows of `cols`. A group that does not fit continues on the next card under a
    "continued" heading, so no plan is ever cut off or squeezed.
    """
    cards: list[list[dict]] = [[]]
    room = first_budget
    for g in groups:
        cols = columns_for([p["abbr"] + p["mark"] for p in g["plans"]])
        rows = [g["plans"][i:i + cols] for i in range(0, len(g["plans"]), cols)]
        part = 0
        while rows:
            if room < 2:  # a heading with no row under it helps nobody
                cards.append([])
                room = budget
            take = min(len(rows), room - 1)
            cards[-1].append({"points": g["points"], "cols": cols, "continued": part > 0, "rows": rows[:take], "count": len(g["plans"])})
            rows = rows[take:]
            room -= take + 1
            part += 1
    return cards


def rows_needed(groups: list[dict]) -> int:
    return sum(1 + ceil(len(g["plans"]) / columns_for([p["abbr"] + p["mark"] for p in g["plans"]])) for g in groups)
