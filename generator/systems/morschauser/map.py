"""The grid map of the Morschauser rules: squares lettered and numbered, terrain per square, paths, contours, unit markers."""

from __future__ import annotations

from markupsafe import Markup

from ...svg import MIN_TEXT_PT, PT_MM, boxed_text, boxed_width, data_uri, points, shape_path
from .glyphs import unit_marker

# --- Square-grid maps ------------------------------------------------------------------------
# A grid game's map: squares lettered by column and numbered by row, terrain per square, paths
# (roads, rivers) through square centres, contour lines between hill levels, and unit markers.
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


def column_letter(col: int) -> str:
    return chr(ord("A") + col)


def square_name(col: int, row: int) -> str:
    """(0, 0) -> 'A1': the column's letter, then the row's number counted from 1 at the top."""
    return f"{column_letter(col)}{row + 1}"


FACING_VECTORS = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}


class GridMap:
    """A top-down map of a square grid, drawn as one SVG: terrain, paths, contours, units, coordinates."""

    S = 10.0  # one square in user units

    def __init__(self, columns: int, rows: int, print_width_mm: float = 182.0, max_height_mm: float = 215.0):
        self.columns, self.rows = columns, rows
        self.print_width_mm = print_width_mm
        self.max_height_mm = max_height_mm
        self.margin = 6.0
        # a big grid prints small squares: widen the margin until its coordinates, at least 7 pt, fit in it
        for _ in range(4):
            self.margin = max(6.0, self.coord_size() * 1.75 + 1.4)
        self.levels: dict[tuple[int, int], int] = {}
        self.areas: list[str] = []
        self.paths: list[str] = []
        self.overlays: list[str] = []
        self.units: list[str] = []
        self.labels: list[str] = []
        self.used: list[str] = []  # legend keys in first-use order

    # --- geometry ------------------------------------------------------------------------
    def size_mm(self) -> tuple[float, float]:
        """The printed width and height: the page's width, or less when the map is deep."""
        vw = self.columns * self.S + 2 * self.margin
        vh = self.rows * self.S + 2 * self.margin
        width_mm = min(self.print_width_mm, self.max_height_mm * vw / vh)
        return width_mm, width_mm * vh / vw

    def mm_per_unit(self) -> float:
        """Printed millimetres per SVG user unit (a square is S units)."""
        return self.size_mm()[0] / (self.columns * self.S + 2 * self.margin)

    def text_size(self, nominal: float) -> float:
        """A font size in user units: `nominal`, or more so it prints at least MIN_TEXT_PT at this map's scale."""
        return max(nominal, MIN_TEXT_PT * PT_MM / self.mm_per_unit())

    def coord_size(self) -> float:
        return self.text_size(2.6)

    def centre(self, col: int, row: int) -> tuple[float, float]:
        return ((col + 0.5) * self.S, (row + 0.5) * self.S)

    def _use(self, key: str) -> None:
        if key not in self.used:
            self.used.append(key)

    # --- terrain -------------------------------------------------------------------------
    def level(self, col: int, row: int, level: int) -> None:
        """A hill square's contour level (0 is the plain); contour lines are drawn between levels."""
        self.levels[(col, row)] = level
        if level:
            self._use(f"hill-{level}")

    def area(self, kind: str, col: int, row: int) -> None:
        """Fill one square with an area terrain's colour and pattern (woods, town, fortification...)."""
        fill, pattern = GRID_AREA_STYLE.get(kind, ("#dddddd", None))
        x, y, s = col * self.S, row * self.S, self.S
        inset = 0.6
        if fill:
            self.areas.append(
                f'<rect x="{x + inset:g}" y="{y + inset:g}" width="{s - 2 * inset:g}" height="{s - 2 * inset:g}" '
                f'fill="{fill}" fill-opacity="0.85" stroke="none"/>'
            )
        if pattern:
            self.areas.append(
                f'<rect x="{x + inset:g}" y="{y + inset:g}" width="{s - 2 * inset:g}" height="{s - 2 * inset:g}" fill="url(#{pattern})"/>'
            )
        if kind == "fortification":
            # a zigzag trench line just inside the square's edge
            self.areas.append(self._zigzag(x + 1.2, y + 1.2, s - 2.4))
        self._use(kind)

    @staticmethod
    def _zigzag(x: float, y: float, size: float) -> str:
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

    def path(self, kind: str, squares: list[tuple[int, int]]) -> None:
        """A road or river through the centres of these squares in order; an end on the map's edge runs off it."""
        if not squares:
            return
        pts = [self.centre(c, r) for c, r in squares]
        if len(squares) >= 2:
            pts[0] = self._run_off(squares[0], squares[1], pts[0])
            pts[-1] = self._run_off(squares[-1], squares[-2], pts[-1])
        else:
            pts.append(pts[0])
        # split where consecutive squares do not share an edge: the caller's path has a gap there
        runs, run = [], [pts[0]]
        for i in range(1, len(squares)):
            (c0, r0), (c1, r1) = squares[i - 1], squares[i]
            if abs(c0 - c1) + abs(r0 - r1) != 1:
                runs.append(run)
                run = []
            run.append(pts[i])
        runs.append(run)
        for run in runs:
            d = (
                "M" + " L".join(f"{x:g} {y:g}" for x, y in run)
                if len(run) > 1
                else f"M{run[0][0]:g} {run[0][1]:g} l0.01 0"
            )
            if kind == RIVER:
                self.paths.append(
                    f'<path d="{d}" fill="none" stroke="#2f5f8f" stroke-width="4.6" stroke-linejoin="round" stroke-linecap="butt"/>'
                )
                self.paths.append(
                    f'<path d="{d}" fill="none" stroke="#a9c8e6" stroke-width="3.8" stroke-linejoin="round" stroke-linecap="butt"/>'
                )
                self.paths.append(
                    f'<path d="{d}" fill="none" stroke="#2f5f8f" stroke-width="0.3" stroke-dasharray="1.2 0.8" stroke-linejoin="round"/>'
                )
            else:
                self.paths.append(
                    f'<path d="{d}" fill="none" stroke="#3d3326" stroke-width="2.6" stroke-linejoin="round" stroke-linecap="butt"/>'
                )
                self.paths.append(
                    f'<path d="{d}" fill="none" stroke="#efe6cf" stroke-width="2.0" stroke-linejoin="round" stroke-linecap="butt"/>'
                )
                self.paths.append(
                    f'<path d="{d}" fill="none" stroke="#3d3326" stroke-width="0.25" stroke-dasharray="1.5 1" stroke-linejoin="round"/>'
                )
        self._use(kind)

    def _run_off(self, end: tuple[int, int], prev: tuple[int, int], pt: tuple[float, float]) -> tuple[float, float]:
        c, r = end
        dc, dr = c - prev[0], r - prev[1]
        out = None
        if (dc, dr) in ((1, 0), (-1, 0), (0, 1), (0, -1)) and not (
            0 <= c + dc < self.columns and 0 <= r + dr < self.rows
        ):
            out = (dc, dr)
        elif c in (0, self.columns - 1) or r in (0, self.rows - 1):
            out = (
                (-1 if c == 0 else 1 if c == self.columns - 1 else 0, 0)
                if c in (0, self.columns - 1)
                else (0, -1 if r == 0 else 1)
            )
        if not out:
            return pt
        return (pt[0] + out[0] * self.S / 2, pt[1] + out[1] * self.S / 2)

    def bridge(self, col: int, row: int, horizontal: bool) -> None:
        """A bridge deck carrying a road across a river square (horizontal: the road runs east-west)."""
        x, y = self.centre(col, row)
        w, h = (self.S * 0.86, 3.4) if horizontal else (3.4, self.S * 0.86)
        rails = (
            f"M{x - w / 2:g} {y - h / 2:g} H{x + w / 2:g} M{x - w / 2:g} {y + h / 2:g} H{x + w / 2:g}"
            if horizontal
            else f"M{x - w / 2:g} {y - h / 2:g} V{y + h / 2:g} M{x + w / 2:g} {y - h / 2:g} V{y + h / 2:g}"
        )
        self.overlays.append(
            f'<rect x="{x - w / 2:g}" y="{y - h / 2:g}" width="{w:g}" height="{h:g}" fill="#c9a06a"/>'
            f'<rect x="{x - w / 2:g}" y="{y - h / 2:g}" width="{w:g}" height="{h:g}" fill="url(#g-planks{"" if horizontal else "-v"})"/>'
            f'<path d="{rails}" stroke="#1a1a1a" stroke-width="0.7"/>'
        )
        self._use("bridge")

    def objective(self, col: int, row: int) -> None:
        x, y = col * self.S, row * self.S
        self.overlays.append(
            f'<rect x="{x + 0.35:g}" y="{y + 0.35:g}" width="{self.S - 0.7:g}" height="{self.S - 0.7:g}" fill="none" '
            f'stroke="#000" stroke-width="0.5" stroke-dasharray="1.4 0.8"/>'
            f'<g fill="#ffd84a" stroke="#000" stroke-width="0.25">{shape_path("star", x + self.S - 1.9, y + 1.9, 1.5)}</g>'
        )
        self._use("objective")

    def label(self, col: int, row: int, text: str) -> None:
        """A place name along the top of a square."""
        x, y = self.centre(col, row)
        fs = self.text_size(1.9)
        self.labels.append(boxed_text(x, row * self.S + 0.7 + fs, text, fs, "middle", "normal", "italic"))

    # --- units ----------------------------------------------------------------------------
    def unit(self, col: int, row: int, glyph: str, colour: str, shape: str, facing: str | None, code: str) -> None:
        """A unit marker: frame in the side's colour with its shape, the type's glyph, a facing arrow, its code."""
        x, y = self.centre(col, row)
        w, h = 5.6, 3.8
        self.units.append(unit_marker(glyph, colour, shape, x, y, w, h))
        if facing in FACING_VECTORS:
            dx, dy = FACING_VECTORS[facing]
            base = (w / 2 if dx else h / 2) + 0.35
            tip = base + 1.55
            bx, by = x + dx * base, y + dy * base
            tx, ty = x + dx * tip, y + dy * tip
            px, py = -dy * 1.1, dx * 1.1
            self.units.append(
                f'<polygon points="{tx:.2f},{ty:.2f} {bx + px:.2f},{by + py:.2f} {bx - px:.2f},{by - py:.2f}" fill="#000"/>'
            )
        self.units.append(
            boxed_text(col * self.S + 0.5, (row + 1) * self.S - 0.5, code, self.text_size(2.1), "start", "bold")
        )

    # --- drawing ----------------------------------------------------------------------------
    def _defs(self) -> str:
        return """
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

    def _hills(self) -> str:
        out = []
        S = self.S
        for (c, r), lv in sorted(self.levels.items()):
            if lv:
                out.append(
                    f'<rect x="{c * S:g}" y="{r * S:g}" width="{S:g}" height="{S:g}" fill="{HILL_FILLS[min(lv, len(HILL_FILLS) - 1)]}"/>'
                )
        return "".join(out)

    def _level_marks(self) -> str:
        """'▲2' in a square's bottom right corner, its right edge 0.3 in from the square's, clear of the unit code."""
        S, fs = self.S, self.text_size(1.7)
        return "".join(
            boxed_text(
                (c + 1) * S - 0.3 - boxed_width(f"\u25b2{lv}", fs),
                (r + 1) * S - 0.5,
                f"\u25b2{lv}",
                fs,
                "start",
                "bold",
            )
            for (c, r), lv in sorted(self.levels.items())
            if lv
        )

    def _swatch_levels(self) -> str:
        """A legend swatch prints 5 mm wide, too small for a 7 pt '▲2': one drawn triangle per contour instead."""
        out = []
        for (c, r), lv in sorted(self.levels.items()):
            if not lv:
                continue
            size, gap = 2.2, 0.5
            w = lv * size + (lv - 1) * gap + 1.0
            x0, base = (c + 1) * self.S - 0.4 - w, (r + 1) * self.S - 0.5
            out.append(
                f'<rect x="{x0:.2f}" y="{base - size - 1.0:.2f}" width="{w:.2f}" height="{size + 1.0:.2f}" rx="0.4" '
                f'fill="#ffffff" fill-opacity="0.9" stroke="#555" stroke-width="0.1"/>'
            )
            for i in range(lv):
                left = x0 + 0.5 + i * (size + gap)
                out.append(
                    f'<path d="M{left:.2f} {base - 0.5:.2f} h{size:g} l{-size / 2:g} {-size:g} z" fill="#1a1a1a"/>'
                )
        return "".join(out)

    def _contours(self) -> str:
        """A line on every edge between squares of different level, heavier for a bigger step."""
        S = self.S
        out = []

        def lv(c: int, r: int) -> int:
            return self.levels.get((c, r), 0)

        for r in range(self.rows):
            for c in range(self.columns):
                here = lv(c, r)
                for dc, dr in ((1, 0), (0, 1)):
                    nc, nr = c + dc, r + dr
                    if nc >= self.columns or nr >= self.rows:
                        continue
                    step = abs(here - lv(nc, nr))
                    if not step:
                        continue
                    width = 0.5 + 0.35 * step
                    if dc:
                        d = f"M{nc * S:g} {r * S:g} V{(r + 1) * S:g}"
                    else:
                        d = f"M{c * S:g} {nr * S:g} H{(c + 1) * S:g}"
                    out.append(
                        f'<path d="{d}" stroke="{CONTOUR_INK}" stroke-width="{width:.2f}" stroke-linecap="round"/>'
                    )
        return "".join(out)

    def _grid(self) -> str:
        S, W, H = self.S, self.columns * self.S, self.rows * self.S
        lines = [f'<path d="M{c * S:g} 0 V{H:g}" stroke="#555" stroke-width="0.12"/>' for c in range(1, self.columns)]
        lines += [f'<path d="M0 {r * S:g} H{W:g}" stroke="#555" stroke-width="0.12"/>' for r in range(1, self.rows)]
        lines.append(f'<rect x="0" y="0" width="{W:g}" height="{H:g}" fill="none" stroke="#000" stroke-width="0.5"/>')
        fs = round(self.coord_size(), 2)
        for c in range(self.columns):
            x = (c + 0.5) * S
            for y in (-1.6, H + 1.6 + fs * 0.7):
                lines.append(
                    f'<text x="{x:g}" y="{y:g}" font-size="{fs}" font-weight="bold" text-anchor="middle">{column_letter(c)}</text>'
                )
        for r in range(self.rows):
            y = round((r + 0.5) * S + fs * 0.36, 2)
            lines.append(
                f'<text x="-1.4" y="{y:g}" font-size="{fs}" font-weight="bold" text-anchor="end">{r + 1}</text>'
            )
            lines.append(
                f'<text x="{W + 1.4:g}" y="{y:g}" font-size="{fs}" font-weight="bold" text-anchor="start">{r + 1}</text>'
            )
        return "".join(lines)

    def svg(self) -> Markup:
        m = self.margin
        W, H = self.columns * self.S, self.rows * self.S
        vw, vh = W + 2 * m, H + 2 * m
        width_mm, height_mm = self.size_mm()
        return Markup(
            f'<svg xmlns="http://www.w3.org/2000/svg" class="map grid-map" viewBox="{-m:g} {-m:g} {vw:g} {vh:g}" '
            f'width="{width_mm:.1f}mm" height="{height_mm:.1f}mm" font-family="DejaVu Sans">'
            f"<defs>{self._defs()}</defs>"
            f'<rect x="0" y="0" width="{W:g}" height="{H:g}" fill="{HILL_FILLS[0]}"/>'
            f"{self._hills()}{''.join(self.areas)}{self._contours()}{''.join(self.paths)}{''.join(self.overlays)}"
            f"{self._level_marks()}{self._grid()}{''.join(self.labels)}{''.join(self.units)}</svg>"
        )

    # --- legend -----------------------------------------------------------------------------
    def swatch_uri(self, key: str) -> str:
        """A one-square picture of a legend entry (hill-2, woods, road, bridge...) as a data: URL."""
        one = GridMap(1, 1)
        one.margin = 0.5
        if key.startswith("hill-"):
            one.level(0, 0, int(key.split("-")[1]))
        elif key in PATH_KINDS:
            d = "M0 5 H10"
            if key == RIVER:
                one.paths = [
                    f'<path d="{d}" stroke="#2f5f8f" stroke-width="4.6"/><path d="{d}" stroke="#a9c8e6" stroke-width="3.8"/>'
                    f'<path d="{d}" stroke="#2f5f8f" stroke-width="0.3" stroke-dasharray="1.2 0.8"/>'
                ]
            else:
                one.paths = [
                    f'<path d="{d}" stroke="#3d3326" stroke-width="2.6"/><path d="{d}" stroke="#efe6cf" stroke-width="2"/>'
                    f'<path d="{d}" stroke="#3d3326" stroke-width="0.25" stroke-dasharray="1.5 1"/>'
                ]
        elif key == "bridge":
            d = "M5 0 V10"
            one.paths = [
                f'<path d="{d}" stroke="#2f5f8f" stroke-width="4.6"/><path d="{d}" stroke="#a9c8e6" stroke-width="3.8"/>'
            ]
            one.bridge(0, 0, True)
        elif key == "objective":
            one.objective(0, 0)
        else:
            one.area(key, 0, 0)
        body = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-0.5 -0.5 11 11" width="22" height="22">'
            f'<defs>{one._defs()}</defs><rect x="0" y="0" width="10" height="10" fill="{HILL_FILLS[0]}" stroke="#555" stroke-width="0.2"/>'
            f"{one._hills()}{''.join(one.areas)}{''.join(one.paths)}{''.join(one.overlays)}{one._swatch_levels()}</svg>"
        )
        return data_uri(body)
