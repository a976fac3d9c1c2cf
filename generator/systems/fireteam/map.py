"""Fireteam Tomorrow's table map: terrain pieces in inches, deployment zones and objectives, drawn as one SVG."""

from __future__ import annotations

from html import escape

from markupsafe import Markup

from ...svg import points, shape_path, side_pattern
from .models import Rules

TERRAIN_STYLE = {
    "open": ("#f4f1e6", None),
    "woods": ("#b9d3a0", "trees"),
    "building": ("#8a8a8a", None),
    "ruins": ("#b4aca0", "bricks"),
    "rubble": ("#cfc6b8", "stipple"),
    "hill": ("#e3d3ab", "contour"),
    "road": ("#dccfae", None),
    "river": ("#a9c8e6", "waves"),
    "bridge": ("#a77d4e", "planks"),
    "crater": ("#c9bba3", "stipple"),
    "wall": ("#5c544a", None),
    "hedge": ("#5f8a45", None),
    "town": ("#c9a98a", "bricks"),
    "fortification": ("#7d6a55", "crosshatch"),
    "marsh": ("#c7dcc3", "waves"),
}
# drawing order: water and hills first, roads over them, bridges on top; every other kind between
LAYER = {"river": 0, "road": 1, "hill": 0, "bridge": 3}
UNLABELLED = ("river", "road")  # drawn without their kind's name when the scenario names none


def _pattern_defs(prefix: str = "") -> str:
    """SVG <pattern>s in user units of one inch or one square; each readable in black and white."""
    p = prefix
    return f"""
<pattern id="{p}trees" width="3" height="3" patternUnits="userSpaceOnUse">
  <circle cx="1.5" cy="1.5" r="0.9" fill="#7fa862" stroke="#3f5e2c" stroke-width="0.15"/></pattern>
<pattern id="{p}waves" width="3" height="1.5" patternUnits="userSpaceOnUse">
  <path d="M0 0.9 q0.75 -0.6 1.5 0 t1.5 0" fill="none" stroke="#3b6f9e" stroke-width="0.15"/></pattern>
<pattern id="{p}bricks" width="2" height="2" patternUnits="userSpaceOnUse">
  <path d="M0 0 H2 M0 1 H2 M1 0 V1 M0 1 V2" stroke="#6d5d4d" stroke-width="0.12"/></pattern>
<pattern id="{p}stipple" width="1.5" height="1.5" patternUnits="userSpaceOnUse">
  <circle cx="0.4" cy="0.4" r="0.18" fill="#6d5d4d"/><circle cx="1.1" cy="1.1" r="0.14" fill="#6d5d4d"/></pattern>
<pattern id="{p}contour" width="2" height="2" patternUnits="userSpaceOnUse">
  <path d="M0 2 L2 0" stroke="#a88a4a" stroke-width="0.1"/></pattern>
<pattern id="{p}planks" width="1" height="1" patternUnits="userSpaceOnUse">
  <path d="M0 0.5 H1" stroke="#5b3d1e" stroke-width="0.12"/></pattern>
<pattern id="{p}crosshatch" width="1.5" height="1.5" patternUnits="userSpaceOnUse">
  <path d="M0 0 L1.5 1.5 M1.5 0 L0 1.5" stroke="#3d3326" stroke-width="0.12"/></pattern>
"""


class TableMap:
    """A top-down map of a table measured in inches (or any unit), drawn as one SVG."""

    def __init__(
        self,
        width: float,
        depth: float,
        print_width_mm: float = 180.0,
        tick: float = 6.0,
        print_height_mm: float = 225.0,
    ):
        self.width, self.depth, self.tick = width, depth, tick
        self.margin = max(width, depth) * 0.045
        # mm per unit: the map fills the page width, or its height for a deep table
        self.scale = min(print_width_mm / (width + 2 * self.margin), print_height_mm / (depth + 2 * self.margin))
        self.font = 2.75 / self.scale  # 7.8 pt whatever the table's size; tick labels 0.92 of it, still over 7 pt
        self.layers: list[str] = []
        self.defs: list[str] = [_pattern_defs()]

    def terrain(self, kind: str, shape: str, coords, width: float = 2.0, label: str = "") -> None:
        fill, pattern = TERRAIN_STYLE.get(kind, ("#dddddd", None))
        stroke = "#4a4034"
        if shape == "line":
            # linear terrain (roads, rivers, walls) drawn as a band of the given width
            d = "M" + " L".join(f"{x:g} {y:g}" for x, y in coords)
            edge = "#3b6f9e" if kind == "river" else stroke
            self.layers.append(
                f'<path d="{d}" fill="none" stroke="{edge}" stroke-width="{width + 0.3:g}" stroke-linejoin="round" stroke-linecap="butt"/>'
            )
            self.layers.append(
                f'<path d="{d}" fill="none" stroke="{fill}" stroke-width="{width:g}" stroke-linejoin="round" stroke-linecap="butt"/>'
            )
            if pattern:
                self.layers.append(
                    f'<path d="{d}" fill="none" stroke="url(#{pattern})" stroke-width="{width:g}" stroke-linejoin="round" stroke-linecap="butt"/>'
                )
            anchor = coords[len(coords) // 2]
        else:
            if shape == "rect":
                x, y, w, h = coords
                outline = f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="0.3"'
                anchor = (x + w / 2, y + h / 2)
            elif shape == "circle":
                x, y, r = coords
                outline = f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}"'
                anchor = (x, y)
            else:
                outline = f'<polygon points="{points(coords)}"'
                anchor = (sum(p[0] for p in coords) / len(coords), sum(p[1] for p in coords) / len(coords))
            self.layers.append(f'{outline} fill="{fill}" stroke="{stroke}" stroke-width="0.12"/>')
            if pattern:
                self.layers.append(f'{outline} fill="url(#{pattern})" stroke="none"/>')
        if label:
            self.label(anchor[0], anchor[1], label)

    def label(self, x: float, y: float, text: str, size: float = 1.0, weight: str = "normal") -> None:
        fs = self.font * size
        # a white halo drawn first, then the text: WeasyPrint ignores paint-order
        common = f'x="{x:.2f}" y="{y + fs * 0.35:.2f}" font-size="{fs:.2f}" font-weight="{weight}" text-anchor="middle"'
        self.layers.append(
            f'<text {common} fill="#ffffff" stroke="#ffffff" stroke-width="{fs * 0.22:.2f}" stroke-linejoin="round">{escape(text)}</text>'
        )
        self.layers.append(f'<text {common} fill="#1a1a1a">{escape(text)}</text>')

    def zone(self, rect, colour: str, pattern: str, shape: str, label: str, index: int) -> None:
        x, y, w, h = rect
        pid = f"side{index}"
        self.defs.append(side_pattern(pattern, colour, pid))
        self.layers.append(
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="url(#{pid})" fill-opacity="0.55" '
            f'stroke="{colour}" stroke-width="0.35" stroke-dasharray="1.2 0.6"/>'
        )
        r = self.font * 0.6
        cx, cy = x + w / 2, y + h / 2
        self.layers.append(
            f'<g fill="{colour}" stroke="#000" stroke-width="0.12">{shape_path(shape, cx - len(label) * self.font * 0.28 - r * 1.6, cy, r)}</g>'
        )
        self.label(cx, cy, label, 1.0, "bold")

    def objective(self, x: float, y: float, name: str) -> None:
        r = self.font * 0.75
        self.layers.append(f'<g fill="#ffd84a" stroke="#000" stroke-width="0.15">{shape_path("star", x, y, r)}</g>')
        self.label(x, y + r + self.font * 0.7, name, 0.95, "bold")

    def svg(self) -> Markup:
        m = self.margin
        W, D = self.width, self.depth
        ticks = []
        fs = self.font * 0.92
        step = self.tick
        n = 0
        while n * step <= W + 1e-9:
            x = n * step
            ticks.append(f'<line x1="{x:g}" y1="-0.6" x2="{x:g}" y2="0" stroke="#000" stroke-width="0.1"/>')
            ticks.append(f'<text x="{x:g}" y="{-0.9:g}" font-size="{fs:.2f}" text-anchor="middle">{x:g}</text>')
            n += 1
        n = 0
        while n * step <= D + 1e-9:
            y = n * step
            ticks.append(f'<line x1="-0.6" y1="{y:g}" x2="0" y2="{y:g}" stroke="#000" stroke-width="0.1"/>')
            ticks.append(
                f'<text x="{-0.9:g}" y="{y + fs * 0.35:.2f}" font-size="{fs:.2f}" text-anchor="end">{y:g}</text>'
            )
            n += 1
        body = "\n".join(self.layers)
        width_mm = (W + 2 * m) * self.scale
        height_mm = (D + 2 * m) * self.scale
        return Markup(
            f'<svg xmlns="http://www.w3.org/2000/svg" class="map" viewBox="{-m:g} {-m:g} {W + 2 * m:g} {D + 2 * m:g}" '
            f'width="{width_mm:.1f}mm" height="{height_mm:.1f}mm" font-family="DejaVu Sans">'
            f"<defs>{''.join(self.defs)}</defs>"
            f'<rect x="0" y="0" width="{W:g}" height="{D:g}" fill="#f7f5ee" stroke="#000" stroke-width="0.25"/>'
            f"{body}{''.join(ticks)}</svg>"
        )


def draw(rules: Rules, battle, forces: list, sides: list) -> Markup:
    """The scenario's table: terrain labelled with its cover, each side's deployment zone, the objectives."""
    table = battle.table
    default_cover = {kind.name: kind.cover for kind in rules.terrain}
    drawing = TableMap(table.width, table.depth, tick=6 if max(table.width, table.depth) <= 96 else 12)
    for feature in sorted(battle.terrain, key=lambda f: LAYER.get(f.kind, 2)):
        cover = feature.cover or default_cover[feature.kind]
        label = feature.name or ("" if feature.kind in UNLABELLED else feature.kind.capitalize())
        if cover != "none" and label:
            label = f"{label} ({cover})"
        drawing.terrain(feature.kind, feature.shape, getattr(feature, feature.shape), feature.width or 2, label)
    for view, side in zip(sides, forces):
        if side.deployment:
            drawing.zone(side.deployment, view.colour, view.pattern, view.shape, view.name, view.index)
    for objective in battle.objectives:
        drawing.objective(objective.at[0], objective.at[1], objective.name)
    return drawing.svg()
