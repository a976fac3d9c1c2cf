"""Shared SVG drawing for every system: side shapes, badges and hatching, boxed labels, data: URLs."""

from __future__ import annotations

import base64
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from .cards import PAPERS
from .labels import text_width

MIN_TEXT_PT = 7.1  # the print floor is 7 pt; a little over it so rounding in the PDF never dips below
PT_MM = 25.4 / 72
MARK_GAP_MM = 0.45  # clear paper, as printed, kept between any two marks a map's placement step sets

# A map prints on a page of its own, portrait or landscape, whichever shows it larger. It is drawn to fit the
# printable area of either paper (the smaller of A4 and Letter, less the page margins of templates/muster.css),
# under its part's heading and over its legend, so one drawing serves both papers.
PAPER_MM = PAPERS  # width and height in mm, one table for the pages and the card sheets (generator/cards.py)
PAGE_MARGIN_MM = (14.0, 13.0, 15.0, 13.0)  # top, right, bottom, left: the @page margin in templates/muster.css
HEADING_MM = 16.0  # a part's heading (h2.part), its rule and the space under it, with room for another font


@dataclass(frozen=True)
class MapFrame:
    """The room a map has: its page's orientation and the width and height (mm) the drawing may fill there."""

    orientation: str  # "portrait" or "landscape": the map's section prints on a page turned this way
    width_mm: float
    height_mm: float


def map_frames(below_mm: float) -> list[MapFrame]:
    """A map's room on a portrait page and on a landscape one, keeping `below_mm` under it for its legend."""
    top, right, bottom, left = PAGE_MARGIN_MM
    short = min(width for width, _ in PAPER_MM.values())
    long = min(height for _, height in PAPER_MM.values())
    return [
        MapFrame("portrait", short - left - right, long - top - bottom - HEADING_MM - below_mm),
        MapFrame("landscape", long - left - right, short - top - bottom - HEADING_MM - below_mm),
    ]


# A scenario whose words point the compass (a victory "leaves by the west edge", "the east bank") gets the edge
# names printed round its map; north is the top of every map, as a unit facing north points up the page.
COMPASS_WORD = re.compile(r"\b(?:north|south)?-?(?:north|south|east|west)(?:ern|erly|wards?)?\b", re.IGNORECASE)
EDGE_NAMES = ("NORTH", "EAST", "SOUTH", "WEST")
EDGE_BAND = 1.7  # the band each edge name takes outside the map's margin, in font sizes


def names_compass(scenario, names=()) -> bool:
    """Whether the scenario's words refer to a compass direction: its briefing, victory text, sides' briefings,
    or the `names` its system prints on the map (objectives, terrain)."""
    data = scenario.data
    texts = [data["briefing"], data["victory"], *(side.get("briefing") for side in data["sides"]), *names]
    return any(COMPASS_WORD.search(text or "") for text in texts)


def edge_names(left: float, top: float, right: float, bottom: float, size: float) -> str:
    """NORTH, EAST, SOUTH and WEST centred along the outside of this box (each in a band EDGE_BAND font sizes
    deep), east and west turned to run along their edges."""
    middle_x, middle_y = (left + right) / 2, (top + bottom) / 2
    depth = size * EDGE_BAND
    baseline = depth * 0.3 + size * 0.1  # from the box, the text's baseline when it reads away from the box
    spots = {
        "NORTH": (middle_x, top - baseline, 0),
        "SOUTH": (middle_x, bottom + depth - baseline, 0),
        "WEST": (left - baseline, middle_y, -90),
        "EAST": (right + baseline, middle_y, 90),
    }
    out = []
    for name in EDGE_NAMES:
        x, y, turn = spots[name]
        rotate = f' transform="rotate({turn} {x:.2f} {y:.2f})"' if turn else ""
        out.append(
            f'<text class="edge" x="{x:.2f}" y="{y:.2f}" font-size="{size:.2f}" font-weight="bold" '
            f'text-anchor="middle" fill="#1a1a1a"{rotate}>{name}</text>'
        )
    return "".join(out)


def roomiest(frames: list[MapFrame], scale: Callable[[MapFrame], float]) -> MapFrame:
    """The frame where the map prints largest (`scale`: its mm per map unit there); portrait when they tie."""
    return max(frames, key=lambda frame: round(scale(frame), 6))


def data_uri(svg: str) -> str:
    """A small SVG picture as a data: URL, for images reused on every card and roster line."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def side_pattern(pattern: str, colour: str, pid: str, unit: float = 1.0) -> str:
    """A side's deployment hatching: each side its own pattern, so zones differ without colour."""
    s = 2.0 * unit
    w = 0.18 * unit
    body = {
        "hatch": f'<path d="M0 {s} L{s} 0" stroke="{colour}" stroke-width="{w}"/>',
        "crosshatch": f'<path d="M0 {s} L{s} 0 M0 0 L{s} {s}" stroke="{colour}" stroke-width="{w}"/>',
        "dots": f'<circle cx="{s / 2}" cy="{s / 2}" r="{0.3 * unit}" fill="{colour}"/>',
        "horizontal": f'<path d="M0 {s / 2} H{s}" stroke="{colour}" stroke-width="{w}"/>',
        "vertical": f'<path d="M{s / 2} 0 V{s}" stroke="{colour}" stroke-width="{w}"/>',
        "zigzag": f'<path d="M0 {s} L{s / 2} 0 L{s} {s}" fill="none" stroke="{colour}" stroke-width="{w}"/>',
        "grid": f'<path d="M0 0 H{s} M0 0 V{s}" stroke="{colour}" stroke-width="{w}"/>',
        "rings": f'<circle cx="{s / 2}" cy="{s / 2}" r="{0.5 * unit}" fill="none" stroke="{colour}" stroke-width="{w}"/>',
    }[pattern]
    return f'<pattern id="{pid}" width="{s}" height="{s}" patternUnits="userSpaceOnUse">{body}</pattern>'


def shape_path(shape: str, cx: float, cy: float, r: float) -> str:
    """An SVG element drawing a side's shape centred at (cx, cy) with radius r (fill and stroke set by caller)."""
    if shape == "circle":
        return f'<circle cx="{cx:.3f}" cy="{cy:.3f}" r="{r:.3f}"/>'

    def poly(n, start, radius_at=lambda i: r):
        pts = []
        for i in range(n):
            a = math.radians(start + i * 360 / n)
            rr = radius_at(i)
            pts.append(f"{cx + rr * math.cos(a):.3f},{cy + rr * math.sin(a):.3f}")
        return f'<polygon points="{" ".join(pts)}"/>'

    if shape == "triangle":
        return poly(3, -90)
    if shape == "square":
        return poly(4, -45)
    if shape == "diamond":
        return poly(4, -90)
    if shape == "pentagon":
        return poly(5, -90)
    if shape == "hexagon":
        return poly(6, 0)
    if shape == "star":
        return poly(10, -90, lambda i: r if i % 2 == 0 else r * 0.45)
    if shape == "cross":
        t = r * 0.38
        d = (
            f"M{cx - t} {cy - r} H{cx + t} V{cy - t} H{cx + r} V{cy + t} H{cx + t} V{cy + r} "
            f"H{cx - t} V{cy + t} H{cx - r} V{cy - t} H{cx - t} Z"
        )
        return f'<path d="{d}"/>'
    raise ValueError(shape)


def badge_uri(shape: str, colour: str, ink_saver: bool = False) -> str:
    """One small SVG image per side as a data: URL, reused on every card and roster line (cheap to render)."""
    fill = "#ffffff" if ink_saver else colour
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20" width="20" height="20">'
        f'<g fill="{fill}" stroke="{colour if ink_saver else "#000"}" stroke-width="1.4">{shape_path(shape, 10, 10, 8)}</g></svg>'
    )
    return data_uri(svg)


def points(pts) -> str:
    return " ".join(f"{x:g},{y:g}" for x, y in pts)


def boxed_width(text: str, size: float, bold: bool = False) -> float:
    """A boxed label's width: its text measured from the font's advances, and a fifth of its size either side."""
    return text_width(text, size, bold) + size * 0.4


def boxed_text(
    x: float, baseline: float, text: str, size: float, anchor: str, weight: str, style: str = "normal"
) -> str:
    """Text on an opaque white box, so it reads over any terrain (WeasyPrint ignores paint-order halos); a box a
    tenth see-through let a fortification's zigzag show faintly inside Weissach's B1."""
    size = round(size, 2)
    w = boxed_width(text, size, weight == "bold")
    left = x - (w / 2 if anchor == "middle" else 0)
    box = (
        f'<rect x="{left:.2f}" y="{baseline - size * 0.95:.2f}" width="{w:.2f}" height="{size * 1.2:.2f}" rx="{size * 0.2:.2f}" '
        f'fill="#ffffff" stroke="#555" stroke-width="0.1"/>'
    )
    tx = left + size * 0.2 if anchor != "middle" else x
    return (
        box
        + f'<text x="{tx:.2f}" y="{baseline - size * 0.12:.2f}" font-size="{size}" font-weight="{weight}" font-style="{style}" '
        f'text-anchor="{"middle" if anchor == "middle" else "start"}" fill="#000">{escape(text)}</text>'
    )
