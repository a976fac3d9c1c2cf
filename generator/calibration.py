"""The duplex calibration sheet: one page with a cross at each card slot, to measure how far a printer shifts the backs."""

from __future__ import annotations

from pathlib import Path

from markupsafe import Markup

from . import __version__, cards, fonts
from .engine import html_to_pdf
from .files import write_atomic
from .rendering import TEMPLATES, render


def _ruler_svg() -> Markup:
    """A cross of two rulers, -10 to +10 mm with 0.5 mm ticks, drawn once and reused for every target."""
    centre = 13  # in mm from the picture's corner
    parts = []
    for i in range(-20, 21):
        mm = i / 2
        size = 2.4 if i % 10 == 0 else (1.5 if i % 2 == 0 else 0.8)
        parts.append(
            f'<line x1="{centre + mm}" y1="{centre - size / 2}" x2="{centre + mm}" y2="{centre + size / 2}" stroke="#000" stroke-width="0.1"/>'
        )
        parts.append(
            f'<line x1="{centre - size / 2}" y1="{centre + mm}" x2="{centre + size / 2}" y2="{centre + mm}" stroke="#000" stroke-width="0.1"/>'
        )
        if i % 10 == 0 and i:
            parts.append(
                f'<text x="{centre + mm}" y="{centre - 1.8}" font-size="2.6" text-anchor="middle">{mm:+g}</text>'
            )
            parts.append(f'<text x="{centre + 1.6}" y="{centre + mm + 0.9}" font-size="2.6">{mm:+g}</text>')
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {2 * centre} {2 * centre}" width="{2 * centre}mm" height="{2 * centre}mm" '
        f"font-family='{fonts.TEXT}'>"
        f'<line x1="{centre - 10}" y1="{centre}" x2="{centre + 10}" y2="{centre}" stroke="#000" stroke-width="0.1"/>'
        f'<line x1="{centre}" y1="{centre - 10}" x2="{centre}" y2="{centre + 10}" stroke="#000" stroke-width="0.1"/>'
        + "".join(parts)
        + "</svg>"
    )


def calibrate(out: Path, paper: str, duplex: str, offset: tuple[float, float]) -> Path:
    """Write the one-sheet duplex calibration PDF: a cross at each poker slot's centre, rulers behind them."""
    layout = cards.layout(paper, "poker", False, duplex, offset)
    targets = []
    for i in range(layout.per_sheet):
        fx, fy = layout.front_slot(i)
        bx, by = layout.back_slot(i)
        row, col = divmod(i, layout.cols)
        targets.append(
            {
                "name": "ABC"[row] + str(col + 1) if row < 3 else f"{row + 1}{col + 1}",
                "fx": round(fx + layout.card_w / 2, 3),
                "fy": round(fy + layout.card_h / 2, 3),
                "bx": round(bx + layout.card_w / 2, 3),
                "by": round(by + layout.card_h / 2, 3),
            }
        )
    html = render(
        "calibration.html",
        layout=layout,
        targets=targets,
        ruler=_ruler_svg(),
        paper=paper,
        duplex=duplex,
        offset=offset,
        version=__version__,
    )
    write_atomic(out, html_to_pdf(html, TEMPLATES))
    return out
