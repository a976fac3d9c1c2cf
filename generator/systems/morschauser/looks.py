"""How the grid map's terrain looks: each kind's fill and pattern, the SVG patterns, path strokes, hill fills, legend labels."""

from __future__ import annotations

from ...svg import points

# Everything is drawn in units of one square = 10, so sizes read as tenths of a square.
GRID_AREA_STYLE = {
    # kind: (fill, pattern id or None); every pattern reads in black and white
    "woods": ("#b9d3a0", "g-trees"),
    "town": ("#d9c3a8", "g-houses"),
    "fortification": (None, "g-trench"),  # hatching only, so the hill level beneath still shows
    "marsh": ("#c7dcc3", "g-reeds"),
}
# How each terrain kind of the rule data is drawn: a hill by its contour level, an area filling each of its
# squares, a path through their centres. rules.yaml's terrain kinds must be among these.
HILL, RIVER, ROAD = "hill", "river", "road"
AREA_KINDS = tuple(GRID_AREA_STYLE)
PATH_KINDS = (RIVER, ROAD)  # drawn in this order, so a road crosses a river (on a bridge)
TERRAIN_DRAWN = (HILL, *AREA_KINDS, *PATH_KINDS)
# A path's strokes, bottom first: a dark edge, the river's water or the road's surface, a dashed centre line.
PATH_LOOKS = {
    RIVER: (
        'stroke="#2f5f8f" stroke-width="4.6" stroke-linejoin="round" stroke-linecap="butt"',
        'stroke="#a9c8e6" stroke-width="3.8" stroke-linejoin="round" stroke-linecap="butt"',
        'stroke="#2f5f8f" stroke-width="0.3" stroke-dasharray="1.2 0.8" stroke-linejoin="round"',
    ),
    ROAD: (
        'stroke="#3d3326" stroke-width="2.6" stroke-linejoin="round" stroke-linecap="butt"',
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
HILL_FILLS = ["#f7f5ee", "#eadfbd", "#d8c48f", "#c1a566", "#a8884a", "#8f7036"]
CONTOUR_INK = "#6b4f1d"
# The patterns GRID_AREA_STYLE and a bridge's deck name, as one SVG <defs> body.
PATTERN_DEFS = """
<pattern id="g-trees" width="3.3333" height="3.3333" patternUnits="userSpaceOnUse">
  <circle cx="1.6667" cy="1.6667" r="1.05" fill="#7fa862" stroke="#2f4a20" stroke-width="0.22"/></pattern>
<pattern id="g-houses" width="3.3333" height="3.3333" patternUnits="userSpaceOnUse">
  <rect x="0.65" y="0.8" width="2.1" height="1.7" fill="#6b5a48" stroke="#2a221a" stroke-width="0.15"/></pattern>
<pattern id="g-trench" width="1.6" height="1.6" patternUnits="userSpaceOnUse">
  <path d="M0 1.6 L1.6 0" stroke="#7d6a55" stroke-width="0.16"/></pattern>
<pattern id="g-reeds" width="2" height="2" patternUnits="userSpaceOnUse">
  <path d="M0.5 1.6 V0.6 M1 1.6 V0.4 M1.5 1.6 V0.7" stroke="#3f6e3a" stroke-width="0.12"/></pattern>
<pattern id="g-planks" width="1" height="10" patternUnits="userSpaceOnUse">
  <path d="M0.5 0 V10" stroke="#5b3d1e" stroke-width="0.18"/></pattern>
<pattern id="g-planks-v" width="10" height="1" patternUnits="userSpaceOnUse">
  <path d="M0 0.5 H10" stroke="#5b3d1e" stroke-width="0.18"/></pattern>
"""


def trench_line(x: float, y: float, size: float) -> str:
    """A fortification's zigzag trench line around a square of `size` whose top left corner is (x, y)."""
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
    return f'<polygon points="{points(pts)}" fill="none" stroke="#3d3326" stroke-width="0.45" stroke-linejoin="miter"/>'
