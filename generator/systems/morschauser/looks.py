"""How the grid map's terrain looks: each kind's fill and pattern, the SVG patterns, path strokes, hill fills, legend labels."""

from __future__ import annotations

from ...svg import points

# Everything is drawn in units of one square = 10, so sizes read as tenths of a square.
GRID_AREA_STYLE = {
    # kind: (fill, pattern id or None); every pattern reads in black and white. Woods and town have none: their
    # trees and houses are laid out square by square (GridMap.area), so none is cut at a square's edge
    "woods": ("#b9d3a0", None),
    "town": ("#d9c3a8", None),
    "fortification": (None, "g-trench"),  # hatching only, so the hill level beneath still shows
    "marsh": ("#c7dcc3", "g-reeds"),
}
# How each terrain kind of the rule data is drawn: a hill by its contour level, an area filling each of its
# squares, a path through their centres. rules.yaml's terrain kinds must be among these.
HILL, RIVER, ROAD = "hill", "river", "road"
AREA_KINDS = tuple(GRID_AREA_STYLE)
PATH_KINDS = (RIVER, ROAD)  # drawn in this order, so a road crosses a river (on a bridge)
TERRAIN_DRAWN = (HILL, *AREA_KINDS, *PATH_KINDS)
# A path's width as drawn (its dark edge): labels, codes and facing arrows keep off this band.
PATH_WIDTHS = {RIVER: 4.6, ROAD: 2.6}
# A path's strokes, bottom first: a dark edge, the river's water or the road's surface, a dashed centre line.
PATH_LOOKS = {
    RIVER: (
        f'stroke="#2f5f8f" stroke-width="{PATH_WIDTHS[RIVER]:g}" stroke-linejoin="round" stroke-linecap="butt"',
        'stroke="#a9c8e6" stroke-width="3.8" stroke-linejoin="round" stroke-linecap="butt"',
        'stroke="#2f5f8f" stroke-width="0.3" stroke-dasharray="1.2 0.8" stroke-linejoin="round"',
    ),
    ROAD: (
        f'stroke="#3d3326" stroke-width="{PATH_WIDTHS[ROAD]:g}" stroke-linejoin="round" stroke-linecap="butt"',
        'stroke="#efe6cf" stroke-width="2.0" stroke-linejoin="round" stroke-linecap="butt"',
        'stroke="#3d3326" stroke-width="0.25" stroke-dasharray="1.5 1" stroke-linejoin="round"',
    ),
}
# The map legend's entries in the order it prints them, each with its label.
LEGEND = {
    "hill-1": "Hill, contour 1",
    "hill-2": "Hill, contour 2",
    "hill-3": "Hill, contour 3",
    "woods": "Woods (cover)",
    "town": "Town (cover; counts as road)",
    "fortification": "Fortifications",
    "road": "Road",
    "river": "River",
    "bridge": "Bridge (road over river)",
    "objective": "Objective",
}
# The plain, then contours 1 to 5: each a third lighter than the next, so that even printed in grey one contour
# stands apart from the next (about 33 steps of 255 in luminance, where the first palette gave 21 to 30)
HILL_FILLS = ["#fbfaf5", "#e6d9b3", "#cfb67c", "#b39354", "#937139", "#6e5024"]
CONTOUR_INK = "#6b4f1d"

# A hill's level is marked once per contour region as a crest and its number, "∩2": never a triangle, which is a
# side's shape on the unit markers. The sign is one Source Sans 3 draws in every face: a map's SVG text finds a
# glyph its first family lacks among the machine's fonts before Muster Symbols (◠ came out in DejaVu Sans Bold)
LEVEL_SIGN = "\u2229"


def level_mark(level: int) -> str:
    return f"{LEVEL_SIGN}{level}"


# An area's fill covers its square less AREA_INSET each side; a bridge's deck is DECK long and wide. Each pattern is
# drawn from the corner of what it fills (a translated group), and its tile divides that width and height, so no
# tile is cut at the far edge whether a renderer starts the tiles at the page's origin or at the shape.
AREA_INSET = 0.6
AREA_SIDE = 10.0 - 2 * AREA_INSET
DECK = (8.6, 3.4)
TRENCH = AREA_SIDE / 5
REEDS = AREA_SIDE / 4
PLANK = DECK[0] / 9
# The patterns GRID_AREA_STYLE and a bridge's deck name, as one SVG <defs> body.
PATTERN_DEFS = f"""
<pattern id="g-trench" width="{TRENCH:g}" height="{TRENCH:g}" patternUnits="userSpaceOnUse">
  <path d="M0 {TRENCH:g} L{TRENCH:g} 0" stroke="#7d6a55" stroke-width="0.16"/></pattern>
<pattern id="g-reeds" width="{REEDS:g}" height="{REEDS:g}" patternUnits="userSpaceOnUse">
  <path d="M{REEDS * 0.25:g} {REEDS * 0.8:g} V{REEDS * 0.3:g} M{REEDS * 0.5:g} {REEDS * 0.8:g} V{REEDS * 0.2:g} M{REEDS * 0.75:g} {REEDS * 0.8:g} V{REEDS * 0.35:g}" stroke="#3f6e3a" stroke-width="0.12"/></pattern>
<pattern id="g-planks" width="{PLANK:g}" height="{DECK[1]:g}" patternUnits="userSpaceOnUse">
  <path d="M{PLANK / 2:g} 0 V{DECK[1]:g}" stroke="#5b3d1e" stroke-width="0.18"/></pattern>
<pattern id="g-planks-v" width="{DECK[1]:g}" height="{PLANK:g}" patternUnits="userSpaceOnUse">
  <path d="M0 {PLANK / 2:g} H{DECK[1]:g}" stroke="#5b3d1e" stroke-width="0.18"/></pattern>
"""


def trench_points(x: float, y: float, size: float) -> list[tuple[float, float]]:
    """A fortification's zigzag trench line around a square of `size` whose top left corner is (x, y): its corners
    in order, back to the first."""
    n = 6
    step = size / n
    pts = []
    for i in range(n + 1):
        pts.append((x + i * step, y + (0 if i % 2 == 0 else 0.9)))
    for i in range(1, n + 1):
        pts.append((x + size - (0 if i % 2 == 0 else 0.9), y + i * step))
    for i in range(1, n + 1):
        pts.append((x + size - i * step, y + size - (0 if i % 2 == 0 else 0.9)))
    for i in range(1, n + 1):
        pts.append((x + (0 if i % 2 == 0 else 0.9), y + size - i * step))
    return pts


def trench_svg(pieces: list[list[tuple[float, float]]], whole: bool) -> str:
    """The trench line's pieces drawn (whole: the one piece is the closed line, uncut)."""
    look = 'class="trench" fill="none" stroke="#3d3326" stroke-width="0.45" stroke-linejoin="miter"'
    if whole:
        return f'<polygon points="{points(pieces[0][:-1])}" {look}/>'
    return "".join(f'<polyline points="{points(piece)}" {look}/>' for piece in pieces)
