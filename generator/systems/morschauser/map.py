"""The grid map of the Morschauser rules as one SVG: its scale, terrain per square, paths, bridges, units, grid lines."""

from __future__ import annotations

import math
from dataclasses import replace

from markupsafe import Markup

from ... import fonts
from ...labels import OBJECTIVE, TOUCH, Box, Label, Placement, around, covered, leader_svg, outside, spread, text_width
from ...svg import EDGE_BAND, MARK_GAP_MM, MIN_TEXT_PT, PT_MM, MapFrame, boxed_text, edge_names, map_frames, shape_path
from .glyphs import unit_marker
from .looks import (
    AREA_INSET,
    DECK,
    GRID_AREA_STYLE,
    HILL_FILLS,
    PATH_LOOKS,
    PATH_WIDTHS,
    PATTERN_DEFS,
    ROAD,
    level_mark,
    trench_points,
    trench_svg,
)
from .relief import contour_lines, hill_squares
from .squares import FACING_VECTORS, grid_lines, square_names

# A grid game's map: squares lettered by column and numbered by row, terrain per square, paths
# (roads, rivers) through square centres, contour lines between hill levels, and unit markers.
# Everything is drawn in units of one square = 10, so sizes read as tenths of a square.


ARROW = 1.4  # a facing arrow's length, out of its marker's side
LEGEND_MM = 42.0  # the legend under the map (terrain, unit symbols, sides, a note): four rows and margins
STAR_RADII = (1.2, 1.0, 0.8)  # an objective's star: full size where its square has room, else smaller
STAR_STEP = 0.25  # the spots a star may take in its square, this far apart
MARKER_W, MARKER_H = 5.6, 3.4  # a unit marker's frame
CODE_SIZE = 1.8  # a unit code's font size, raised to the print floor (7 pt) on a small map
SLOTS = 3  # a woods or town square is drawn as SLOTS x SLOTS trees or houses, laid out in that square alone
# a name is tried at up to this many of its place's squares, spread from the first to the last: a road as long as
# the grid has a thousand, and trying each of them for each of a file's names bounds nothing
NAME_SQUARES = 12
LINES = ("road", "river", "bridge")  # what a facing arrow, a code or a name must keep off (a marker may cover it)
# an objective's dashed outline, drawn 0.2 in and 0.4 wide, close to the square's edge to leave its middle to the
# unit, its code and the star: codes, level marks and stars keep off it
FRAME = "frame"
OBJECTIVE_BAND = (0.0, 0.4)  # the band it covers, in from its square's edges
OUTSIDE_COST = 1e-3  # what a code set outside its square adds to a marker spot's crowding (one that crowds is worse)
BUILDING = "building"


class GridMap:
    """A top-down map of a square grid, drawn as one SVG: terrain, paths, contours, units, coordinates."""

    S = 10.0  # one square in user units

    def __init__(self, columns: int, rows: int, frame: MapFrame | None = None, edges: bool = False):
        self.columns, self.rows = columns, rows
        self.frame = frame or map_frames(LEGEND_MM)[0]
        self.print_width_mm = self.frame.width_mm
        self.max_height_mm = self.frame.height_mm
        self.margin = 6.0
        self.edges = edges  # the edges' names round the coordinates, when the scenario's words use the compass
        self.band = 0.0
        # a big grid prints small squares: widen the margin until its coordinates, at least 7 pt, fit in it
        for _ in range(4):
            self.margin = max(6.0, self.coord_size() * 1.75 + 1.4)
            self.band = self.coord_size() * EDGE_BAND if edges else 0.0
        self.levels: dict[tuple[int, int], int] = {}
        self.areas: list[str] = []
        self.paths: list[str] = []
        self.overlays: list[str] = []
        self.units: list[str] = []
        self.objectives: list[tuple[int, int]] = []  # objective squares; their stars go where units leave room
        self.stars: list[str] = []
        self.used: list[str] = []  # legend keys in first-use order
        # the placement step: markers, arrows and stars are obstacles; unit codes, level marks and place names
        # are labels, placed in that order once every obstacle is known (place_labels)
        self.placement = Placement(Box(0, 0, columns * self.S, rows * self.S), gap=MARK_GAP_MM / self.mm_per_unit())
        self.pending: list[tuple[int, Label]] = []
        self.pending_units: list[tuple] = []  # (col, row, glyph, colour, shape, facing, code), placed in place_labels
        self.houses: list[tuple[Box, str]] = []  # each house's footprint: an obstacle, dropped where a unit stands
        # each tree's square: no obstacle (a name may stand in a wood), dropped where a label or mark covers it
        self.trees: list[tuple[Box, str]] = []
        self.trenches: list[list[tuple[float, float]]] = []  # each fortification's zigzag, drawn after the labels

    # --- geometry ------------------------------------------------------------------------
    def size_mm(self) -> tuple[float, float]:
        """The printed width and height: the frame's width, or less when the map is deeper than the frame."""
        vw, vh = self.view_size()
        width_mm = min(self.print_width_mm, self.max_height_mm * vw / vh)
        return width_mm, width_mm * vh / vw

    def view_size(self) -> tuple[float, float]:
        """The drawing's width and height in user units: the grid, its coordinates' margin, the edge names' band."""
        out = 2 * (self.margin + self.band)
        return self.columns * self.S + out, self.rows * self.S + out

    def mm_per_unit(self) -> float:
        """Printed millimetres per SVG user unit (a square is S units)."""
        return self.size_mm()[0] / self.view_size()[0]

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
        inset = AREA_INSET
        if fill:
            self.areas.append(
                f'<rect x="{x + inset:g}" y="{y + inset:g}" width="{s - 2 * inset:g}" height="{s - 2 * inset:g}" '
                f'fill="{fill}" fill-opacity="0.85" stroke="none"/>'
            )
        # trees and houses are laid out in each square on its own, SLOTS to a side, so none is cut at the square's
        # edge (a pattern tiled from the page's origin cut the right-hand column of every woods and town square)
        slot = (s - 2 * inset) / SLOTS
        for i in range(SLOTS):
            for j in range(SLOTS):
                cx, cy = x + inset + (i + 0.5) * slot, y + inset + (j + 0.5) * slot
                if kind == "woods":
                    r = slot * 0.36
                    self.trees.append(
                        (
                            Box.centred(cx, cy, 2 * r, 2 * r),
                            f'<circle class="tree" cx="{cx:.3f}" cy="{cy:.3f}" r="{r:.3f}" fill="#7fa862" '
                            f'stroke="#2f4a20" stroke-width="0.22"/>',
                        )
                    )
                elif kind == "town":
                    house = Box.centred(cx, cy, slot * 0.72, slot * 0.58)
                    self.houses.append(
                        (
                            house,
                            f'<rect class="house" x="{house.left:.3f}" y="{house.top:.3f}" width="{house.width:.3f}" '
                            f'height="{house.height:.3f}" fill="#6b5a48" stroke="#2a221a" stroke-width="0.15"/>',
                        )
                    )
                    self.placement.block(house, BUILDING)
        if pattern:
            self.areas.append(
                f'<g transform="translate({x + inset:g} {y + inset:g})"><rect x="0" y="0" width="{s - 2 * inset:g}" '
                f'height="{s - 2 * inset:g}" fill="url(#{pattern})"/></g>'
            )
        if kind == "fortification":
            # a zigzag trench line just inside the square's edge, cut where a mark stands on it (see svg)
            self.trenches.append(trench_points(x + 1.2, y + 1.2, s - 2.4))
        self._use(kind)

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
            for look in PATH_LOOKS.get(kind, PATH_LOOKS[ROAD]):
                self.paths.append(f'<path d="{d}" fill="none" {look}/>')
            # the line's band, as drawn, is kept clear of codes, names and arrows; a run goes square centre to
            # square centre, so each of its segments is one axis-aligned box
            half = PATH_WIDTHS.get(kind, PATH_WIDTHS[ROAD]) / 2
            for (x0, y0), (x1, y1) in zip(run, run[1:] or run):
                self.placement.block(
                    Box(min(x0, x1) - half, min(y0, y1) - half, max(x0, x1) + half, max(y0, y1) + half), kind
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
        w, h = DECK if horizontal else DECK[::-1]
        rails = (
            f"M{x - w / 2:g} {y - h / 2:g} H{x + w / 2:g} M{x - w / 2:g} {y + h / 2:g} H{x + w / 2:g}"
            if horizontal
            else f"M{x - w / 2:g} {y - h / 2:g} V{y + h / 2:g} M{x + w / 2:g} {y - h / 2:g} V{y + h / 2:g}"
        )
        self.overlays.append(
            f'<rect x="{x - w / 2:g}" y="{y - h / 2:g}" width="{w:g}" height="{h:g}" fill="#c9a06a"/>'
            f'<g transform="translate({x - w / 2:g} {y - h / 2:g})"><rect x="0" y="0" width="{w:g}" height="{h:g}" '
            f'fill="url(#g-planks{"" if horizontal else "-v"})"/></g>'
            f'<path d="{rails}" stroke="#1a1a1a" stroke-width="0.7"/>'
        )
        self.placement.block(Box.centred(x, y, w, h), "bridge")
        self._use("bridge")

    def objective(self, col: int, row: int) -> None:
        """An objective square: a dashed outline, and a star in a corner clear of the square's unit (see place_labels)."""
        x, y = col * self.S, row * self.S
        self.overlays.append(
            f'<rect x="{x + 0.2:g}" y="{y + 0.2:g}" width="{self.S - 0.4:g}" height="{self.S - 0.4:g}" fill="none" '
            f'stroke="#000" stroke-width="0.4" stroke-dasharray="1.4 0.8"/>'
        )
        self.objectives.append((col, row))
        self._frame(col, row)
        self._use("objective")

    def _frame(self, col: int, row: int) -> None:
        """An objective's frame as four obstacles, one a side, each the band OBJECTIVE_BAND in from the edge."""
        x, y, S = col * self.S, row * self.S, self.S
        inner, outer = OBJECTIVE_BAND
        for side in (
            Box(x + inner, y + inner, x + S - inner, y + outer),
            Box(x + inner, y + S - outer, x + S - inner, y + S - inner),
            Box(x + inner, y + inner, x + outer, y + S - inner),
            Box(x + S - outer, y + inner, x + S - inner, y + S - inner),
        ):
            self.placement.block(side, FRAME)

    def label(self, squares: list[tuple[int, int]], text: str) -> None:
        """A place name along the top of its first square, else of another of its squares (up to NAME_SQUARES of
        them, spread along the list), else near them."""
        fs = self.text_size(1.9)
        pad = fs * 0.2
        height = fs * 1.2
        spots = []
        for col, row in spread(list(dict.fromkeys(squares)), NAME_SQUARES):
            x, y = self.centre(col, row)
            spots += [(x, row * self.S + 0.7 + height / 2), (x, (row + 1) * self.S - 0.7 - height / 2)]
        col, row = squares[0]
        x, y = self.centre(col, row)
        spots += around(x, y, text_width(text, fs) + 2 * pad, height, self.S * 0.5, steps=4)
        self.pending.append((2, Label(text, fs, (x, y), spots, padding=pad, kind="place", reach=self.S * 0.5)))

    # --- units ----------------------------------------------------------------------------
    def unit(self, col: int, row: int, glyph: str, colour: str, shape: str, facing: str | None, code: str) -> None:
        """A unit marker: frame in the side's colour with its shape, the type's glyph, a facing arrow, its code
        (placed with everything else in the square, in place_labels)."""
        self.pending_units.append((col, row, glyph, colour, shape, facing, code))

    def _marker_spots(self, col: int, row: int, facing: str | None) -> list[tuple[float, float, float]]:
        """(x, y, arrow offset along the marker's side) for a unit's marker in its square, best first: high in the
        square so its code fits below (higher still facing south, so the arrow fits too), then shifted to make
        room, its arrow moved along the marker's side if a road or river runs the arrow's way."""
        x, y = self.centre(col, row)
        default = -1.8 if facing == "south" else -0.6
        spots = []
        # a west arrow leaves the marker's left side, where the side's badge sits on the top corner: it starts a
        # little below the middle, its upper barb clear of the badge (it lay across it on Weissach's B1 and B7)
        alongs = (0.2, 0.3, 0.4) if facing == "west" else (0.0, 0.3, -0.3, 0.4, -0.4)
        for along in alongs if facing in FACING_VECTORS else (0.0,):
            for dy in (default, default + 0.6, default - 0.6, 1.0, 2.4, 2.0, 1.5, -1.8, -2.2):
                for dx in (0.0, -0.4, 0.4, -0.8, 0.8, -1.2, 1.2, -1.6, 1.6, 2.0):
                    spots.append((x + dx, y + dy, along * (MARKER_W if facing in ("north", "south") else MARKER_H)))
        spots.sort(key=lambda spot: (abs(spot[2]) > 0, round(math.hypot(spot[0] - x, spot[1] - y - default), 6)))
        return spots

    def _furnish(self, col: int, row: int, unit: tuple | None, objective: bool) -> None:
        """One square's marks, placed together so each keeps clear of the others: the unit's marker and facing
        arrow, the objective's star and the unit's code (a hill's level is marked once per contour region, after
        every square's own marks: _place_region_level). The marker takes the first spot
        in its square (best first) where all of them fit clear, by the placement's gap, of each other, of what
        is already placed and of roads and rivers; the least crowded if none does."""
        square = Box(col * self.S, row * self.S, (col + 1) * self.S, (row + 1) * self.S)
        near = square.grown(self.S)
        obstacles = self.placement.obstacles_near(near)
        placed = self.placement.placed_near(near)
        lines = [box for kind, box in obstacles if kind in LINES]
        spots = self._marker_spots(col, row, unit[3]) if unit else [None]
        # what already lies under each of the star's spots, measured once for every spot the marker tries
        under_star = _UnderStar(obstacles, placed) if unit and objective else None
        best = None
        for spot in spots:
            if spot:
                boxes = self._unit_boxes(unit, spot)
                if not all(box.inside(square.grown(-0.2)) for box in boxes):
                    continue
                # an arrow on a road already costs more than the best so far: no need to try the rest
                if best and unit[3] in FACING_VECTORS:
                    arrow = boxes[-1].grown(self.placement.gap)
                    if covered(arrow, lines) >= best[0]:
                        continue
            trial = Placement(self.placement.bounds, self.placement.gap, list(obstacles), list(placed))
            cost = self._set_square(trial, col, row, unit, spot, objective, under_star=under_star)
            if best is None or cost < best[0] - 1e-9:
                best = (cost, spot)
            if cost == 0:
                break
        self._set_square(self.placement, col, row, unit, best[1], objective, draw=True, under_star=under_star)

    def _unit_boxes(self, unit: tuple, spot: tuple[float, float, float]) -> list[Box]:
        x, y, along = spot
        facing = unit[3]
        boxes = marker_boxes(x, y, MARKER_W, MARKER_H)
        if facing in FACING_VECTORS:
            boxes.append(facing_box(x, y, MARKER_W, MARKER_H, facing, along))
        return boxes

    def _set_square(
        self, placement, col, row, unit, spot, objective, draw: bool = False, under_star: _UnderStar | None = None
    ) -> float:
        """Put one square's marks into `placement` with the unit's marker at `spot`; how crowded they are (0 when
        every one is clear). With `draw`, also draw them. `under_star`, given, holds what lay near the square before
        the unit's marks went in (as _furnish found it, and as `placement` holds it but for those marks)."""
        cost = 0.0
        marks: list[Box] = []  # the unit's marks, blocked here
        gap = placement.gap
        if unit:
            glyph, colour, shape, facing, code = unit
            x, y, along = spot
            boxes = self._unit_boxes(unit, spot)
            lines = [box for kind, box in placement.obstacles if kind in LINES]
            # an objective's dashed frame is kept clear like a road: B5's marker and arrow lay across I5's
            frames = [box for kind, box in placement.obstacles if kind == FRAME]
            if facing in FACING_VECTORS:
                cost += covered(boxes[-1].grown(gap), lines + frames)
            cost += sum(covered(box.grown(gap), frames) for box in boxes[:2])
            # a neighbour's code or mark set outside its own square (on a leader) may lie here: keep off it
            cost += sum(box.grown(gap).overlap(p.box) for box in boxes for p in placement.placed)
            for box in boxes[:2]:
                placement.block(box, "unit marker")
            if facing in FACING_VECTORS:
                placement.block(boxes[-1], "facing arrow")
            marks = boxes if facing in FACING_VECTORS else boxes[:2]
            if draw:
                self.units.append(unit_marker(glyph, colour, shape, x, y, MARKER_W, MARKER_H))
                if facing in FACING_VECTORS:
                    self.units.append(facing_arrow(x, y, MARKER_W, MARKER_H, facing, along))
        if objective:
            spots = self._star_spots(col, row)
            if under_star is not None:
                area, box = under_star.choose(spots, marks, placement.gap)
            else:
                area, box = placement.choose(spots, ignore=(BUILDING,))
            # a full star's box is 2 r wide but for rounding (x + r less x - r is 2.3999999999999986 in column C)
            full_width = 2 * STAR_RADII[0] - 1e-6
            if box.width < full_width:
                # no room for a full star off the square's roads and rivers (a bridge square): a star marks a point
                # and may stand on a line, so it prints full size there, like every other star, where that is clear
                full = [spot for spot in self._star_spots(col, row) if spot.width >= full_width]
                on_line = placement.choose(full, ignore=(BUILDING, *LINES)) if full else None
                if on_line and on_line[0] == 0:
                    area, box = on_line
            placement.block(box, OBJECTIVE)
            cost += area
            if draw:
                cx, cy = box.centre
                self.stars.append(
                    f'<g fill="#ffd84a" stroke="#000" stroke-width="0.25">{shape_path("star", cx, cy, box.width / 2)}</g>'
                )
        if unit:
            code = placement.place(self._code_label(col, row, unit[4], spot))
            cost += code.crowding
            if not code.box.inside(Box(col * self.S, row * self.S, (col + 1) * self.S, (row + 1) * self.S)):
                cost += OUTSIDE_COST  # a code on a leader in the next square crowds that square's unit: the last resort
        return cost

    def _star_spots(self, col: int, row: int) -> list[Box]:
        """Where an objective's star may go in its square: as near the top right corner as it fits, full size
        first, smaller if the square is full. (Hundreds of spots, asked for again each time the square's marker
        tries a spot: worked out once per square.)"""
        memo = self.__dict__.setdefault("_star_spots_memo", {})
        if (col, row) not in memo:
            memo[col, row] = self._star_spots_of(col, row)
        return memo[col, row]

    def _star_spots_of(self, col: int, row: int) -> list[Box]:
        inset = 0.4
        spots = []
        for r in STAR_RADII:
            steps = int((self.S - 2 * inset - 2 * r) / STAR_STEP)
            centres = [
                (col * self.S + inset + r + i * STAR_STEP, row * self.S + inset + r + j * STAR_STEP)
                for i in range(steps + 1)
                for j in range(steps + 1)
            ]
            corner = ((col + 1) * self.S, row * self.S)
            centres.sort(key=lambda c: (round(math.hypot(c[0] - corner[0], c[1] - corner[1]), 6), c))
            spots += [Box.centred(x, y, 2 * r, 2 * r) for x, y in centres]
        return spots

    def _code_label(self, col: int, row: int, code: str, spot) -> Label:
        """A unit's code in a corner of its square clear of the marker and its arrow (bottom left first), else
        along the square's edges, else just outside it with a leader line from the marker."""
        x, y, _ = spot
        fs = self.text_size(CODE_SIZE)
        size = Label(code, fs, (x, y), [], bold=True, padding=fs * 0.2).box_at(0, 0)
        spots = []
        for at in self._inner_spot_rings(col, row, size):
            spots += [at[k] for k in ("left bottom", "right bottom", "right top", "left top", "middle bottom")]
            spots += [at[k] for k in ("middle top", "left centre", "right centre")]
        # outside the square, spots that lie in one square (the leader shows whose code it is) before those
        # across a grid line
        outside = around(x, y, size.width, size.height, self.S * 0.3, steps=4)[1:]
        # ... and in a square with no unit of its own (whose marker could not then keep off it) before the rest
        units = {(unit[0], unit[1]) for unit in self.pending_units}
        spots += sorted(
            outside,
            key=lambda spot: (
                not self._in_one_square(Box.centred(*spot, size.width, size.height)),
                (math.floor(spot[0] / self.S), math.floor(spot[1] / self.S)) in units,
            ),
        )
        square = Box(col * self.S, row * self.S, (col + 1) * self.S, (row + 1) * self.S)
        marker = Box.centred(x, y, MARKER_W, MARKER_H)
        return Label(
            code,
            fs,
            (x, y),
            spots,
            True,
            fs * 0.2,
            "code",
            ignore=(BUILDING,),
            home=square,
            source=marker,
            at="unit marker",
        )

    def _inner_spots(self, col: int, row: int, size: Box, inset: float = 0.3) -> dict[str, tuple[float, float]]:
        """Centres for a box of `size` inside a square, `inset` from its edges: 'left bottom', 'middle top', ...
        (the spots a code or a level mark tries, each in its own order)."""
        xs = {"left": col * self.S + inset + size.width / 2, "right": (col + 1) * self.S - inset - size.width / 2}
        ys = {"top": row * self.S + inset + size.height / 2, "bottom": (row + 1) * self.S - inset - size.height / 2}
        xs["middle"], ys["centre"] = self.centre(col, row)
        return {f"{h} {v}": (x, y) for h, x in xs.items() for v, y in ys.items()}

    def _inner_spot_rings(self, col: int, row: int, size: Box) -> list[dict[str, tuple[float, float]]]:
        """_inner_spots at the usual inset, then just inside an objective's frame: a square with a frame finds its
        clear spots further in (the frame is an obstacle)."""
        return [self._inner_spots(col, row, size, inset) for inset in (0.3, OBJECTIVE_BAND[1] + self.placement.gap)]

    def _in_one_square(self, box: Box) -> bool:
        return math.floor(box.left / self.S) == math.floor(box.right / self.S) and math.floor(
            box.top / self.S
        ) == math.floor(box.bottom / self.S)

    def _level_label(self, col: int, row: int, level: int) -> Label:
        """A hill square's '∩2' in a corner of the square, bottom right first."""
        fs = self.text_size(1.7)
        mark = level_mark(level)
        size = Label(mark, fs, (0, 0), [], bold=True, padding=fs * 0.2).box_at(0, 0)
        spots = []
        for at in self._inner_spot_rings(col, row, size):
            spots += [at[k] for k in ("right top", "right bottom", "left top", "left bottom", "middle bottom")]
            spots += [at[k] for k in ("right centre", "left centre", "middle top")]
        return Label(mark, fs, self.centre(col, row), spots, True, fs * 0.2, "level", ignore=(BUILDING,), reach=self.S)

    def _beside(self, col: int, row: int) -> list[tuple[int, int]]:
        """The squares of the grid that share a side with this one."""
        near = ((col + 1, row), (col - 1, row), (col, row + 1), (col, row - 1))
        return [(c, r) for c, r in near if 0 <= c < self.columns and 0 <= r < self.rows]

    def _level_regions(self) -> list[list[tuple[int, int]]]:
        """The hill's contours as regions: the squares of one level joined side to side, each region once, in
        reading order of its first square."""
        left = {square for square, level in self.levels.items() if level}
        regions = []
        for start in sorted(left, key=lambda sq: (sq[1], sq[0])):
            if start not in left:
                continue
            region, todo = [], [start]
            left.discard(start)
            while todo:
                col, row = todo.pop()
                region.append((col, row))
                for near in self._beside(col, row):
                    if near in left and self.levels[near] == self.levels[start]:
                        left.discard(near)
                        todo.append(near)
            regions.append(sorted(region, key=lambda sq: (sq[1], sq[0])))
        return regions

    def _region_level_label(self, region: list[tuple[int, int]], taken: set) -> Label:
        """One '∩2' for a whole contour region, like a spot height: in the middle of a free square of it near the
        region's centre first, else in a corner of any of its squares (a mark in every square crowded the units'
        codes into rows that read as one: '∩2 B11 ∩2 B9')."""
        level = self.levels[region[0]]
        mx = sum(col for col, _ in region) / len(region)
        my = sum(row for _, row in region) / len(region)
        order = sorted(region, key=lambda sq: (sq in taken, round(math.hypot(sq[0] - mx, sq[1] - my), 6), sq[1], sq[0]))
        spots = [self.centre(*square) for square in order if square not in taken]
        for square in order:
            spots += self._level_label(*square, level).candidates
        # every spot lies in the region it names: no leader line
        return replace(self._level_label(*order[0], level), candidates=spots, reach=math.inf)

    def _place_region_level(self, region: list[tuple[int, int]], taken: set) -> None:
        """A region's level mark inside it; if every spot there is crowded (a small crest whose squares hold units
        and objectives), just outside it on a leader line from the nearest of its squares, where that is clear."""
        inside = self.placement.place(self._region_level_label(region, taken))
        if inside.crowding == 0:
            return
        members = set(region)
        around_it = sorted(
            {near for col, row in region for near in self._beside(col, row) if near not in members},
            key=lambda sq: (sq in taken, sq[1], sq[0]),
        )
        if not around_it:
            return
        level = self.levels[region[0]]
        spots = [spot for square in around_it for spot in self._level_label(*square, level).candidates]
        # its leader runs from the crest's edge nearest the mark, not from a square's middle across its unit
        edges = [
            point
            for col, row in region
            for point in (
                (col * self.S, row * self.S),
                ((col + 1) * self.S, row * self.S),
                ((col + 1) * self.S, (row + 1) * self.S),
                (col * self.S, (row + 1) * self.S),
                (col * self.S, row * self.S),
            )
        ]
        outside = replace(self._level_label(*region[0], level), candidates=spots, reach=0.0, outline=edges)
        self.placement.withdraw(inside)
        placed = self.placement.place(outside)
        if placed.crowding >= inside.crowding:  # no better outside: back inside
            self.placement.withdraw(placed)
            self.placement.keep(inside)

    def place_labels(self) -> list:
        """The placement step: each square's own marks together (see _furnish), squares with a unit first, then
        place names; each clear, by the placement's gap, of all before it and of roads, rivers and houses (a
        house under a unit's arrow, code or star is not drawn: the unit stands there)."""
        if not self.placement.placed:
            units = {(unit[0], unit[1]): unit[2:] for unit in self.pending_units}
            squares = set(units) | set(self.objectives)
            for col, row in sorted(squares, key=lambda sq: (sq not in units, sq not in self.objectives, sq[1], sq[0])):
                self._furnish(col, row, units.get((col, row)), (col, row) in self.objectives)
            for region in self._level_regions():
                self._place_region_level(region, squares)
            self._clear_houses()
            for _, label in sorted(self.pending, key=lambda item: item[0]):
                self.placement.place(label)
            self._clear_trees()
        return self.placement.placed

    def _clear_houses(self) -> None:
        """Drop every house that a square's own marks (an arrow, star, code or level mark) cover, so the houses
        left are obstacles the place names keep off and no mark is printed over a house (a unit's marker, an
        opaque counter, may stand on one)."""
        taken = self._marks()
        gap = self.placement.gap
        cleared = {house for house, _ in self.houses if any(house.grown(gap).overlap(box) > 0 for box in taken)}
        self.houses = [(house, drawn) for house, drawn in self.houses if house not in cleared]
        self.placement.unblock(BUILDING, cleared)

    def _clear_trees(self) -> None:
        """Drop every tree that a label, a leader's end or a mark (an arrow or star) covers: a wood's name stands in
        a clearing of whole trees, not over halves of them ('Hornwald' covered the top row of its wood)."""
        taken = self._marks()
        gap = self.placement.gap / 2
        self.trees = [
            (tree, drawn) for tree, drawn in self.trees if not any(tree.grown(gap).overlap(box) > 0 for box in taken)
        ]

    def _marks(self) -> list[Box]:
        """What a square's own marks and the labels cover: objective stars, facing arrows and every placed label."""
        taken = [box for kind, box in self.placement.obstacles if kind in (OBJECTIVE, "facing arrow")]
        return taken + [p.box for p in self.placement.placed]

    def _trenches_svg(self) -> str:
        """The fortifications' zigzag lines, each cut, with half the placement's gap to spare, where a code, a star
        or an arrow stands on it (Hill 112's codes B1 to B4 stood on the zigzag, the line showing either side), and
        any piece left shorter than two zigs dropped."""
        clear = [box.grown(self.placement.gap / 2) for box in self._marks()]
        out = []
        for line in self.trenches:
            xs, ys = [x for x, _ in line], [y for _, y in line]
            near = [box for box in clear if box.overlap(Box(min(xs), min(ys), max(xs), max(ys))) > 0]
            pieces = outside(line, near)
            whole = pieces == [line]
            if not whole:  # a stub left between two marks reads as a scratch, not a trench: drop it
                step = math.dist(line[0], line[1])
                pieces = [piece for piece in pieces if sum(map(math.dist, piece, piece[1:])) >= 2 * step]
            out.append(trench_svg(pieces, whole=whole))
        return "".join(out)

    def _labels_svg(self) -> str:
        out = []
        placed = self.place_labels()
        out += [leader_svg(p, 0.2) for p in placed]
        for p in placed:
            label = p.label
            style = "italic" if label.kind == "place" else "normal"
            weight = "bold" if label.bold else "normal"
            out.append(
                boxed_text(p.box.left, p.box.top + label.size * 0.95, label.text, label.size, "start", weight, style)
            )
        return "".join(out)

    # --- drawing ----------------------------------------------------------------------------
    def svg(self, bare: bool = False) -> Markup:
        """The map as one SVG: the grid in its margin of coordinates (and the edges' names); or, `bare`, the grid
        alone, filling whatever box holds it (a board picture for a virtual tabletop)."""
        labels = self._labels_svg()
        houses = "".join(drawn for _, drawn in self.trees + self.houses)
        trenches = self._trenches_svg()
        m = self.margin
        W, H = self.columns * self.S, self.rows * self.S
        vw, vh = self.view_size()
        out = m + self.band
        width_mm, height_mm = self.size_mm()
        edges = edge_names(-m, -m, W + m, H + m, round(self.coord_size(), 2)) if self.edges else ""
        view = f"{-out:g} {-out:g} {vw:g} {vh:g}"
        size = f'width="{width_mm:.1f}mm" height="{height_mm:.1f}mm"'
        if bare:
            # the coordinates and edges' names lie outside the grid, where the picture's edge cuts them off: each
            # square's name is written small in its corner instead (the cards place units by square: "C7")
            view, size, edges = (
                f"0 0 {W:g} {H:g}",
                'width="100%" height="100%"',
                square_names(self.columns, self.rows, self.S),
            )
        return Markup(
            f'<svg xmlns="http://www.w3.org/2000/svg" class="map grid-map" viewBox="{view}" '
            f"{size} font-family='{fonts.TEXT}'>"
            f"<defs>{PATTERN_DEFS}</defs>"
            f'<rect x="0" y="0" width="{W:g}" height="{H:g}" fill="{HILL_FILLS[0]}"/>'
            f"{hill_squares(self.levels, self.S)}{''.join(self.areas)}{trenches}{houses}"
            f"{contour_lines(self.levels, self.columns, self.rows, self.S)}{''.join(self.paths)}{''.join(self.overlays)}"
            f"{grid_lines(self.columns, self.rows, self.S, round(self.coord_size(), 2))}{''.join(self.units)}{labels}{''.join(self.stars)}{edges}</svg>"
        )


def marker_boxes(x: float, y: float, w: float, h: float) -> list[Box]:
    """The boxes a unit marker covers: its frame with the stroke, and its side's badge at the top left corner."""
    stroke = h * 0.14 / 2
    badge = h * 0.3 + h * 0.05
    return [Box.centred(x, y, w, h).grown(stroke), Box.centred(x - w / 2, y - h / 2, 2 * badge, 2 * badge)]


def facing_box(x: float, y: float, w: float, h: float, facing: str, along: float = 0.0) -> Box:
    """The box a facing arrow covers (see facing_arrow), kept clear of labels."""
    dx, dy = FACING_VECTORS[facing]
    x, y = x + abs(dy) * along, y + abs(dx) * along
    base = (w / 2 if dx else h / 2) + 0.2
    tip = base + ARROW
    ends = [(x + dx * base, y + dy * base), (x + dx * tip, y + dy * tip)]
    spread = 0.8 + 0.25
    return Box(
        min(e[0] for e in ends) - (spread if dy else 0.25),
        min(e[1] for e in ends) - (spread if dx else 0.25),
        max(e[0] for e in ends) + (spread if dy else 0.25),
        max(e[1] for e in ends) + (spread if dx else 0.25),
    )


def facing_arrow(x: float, y: float, w: float, h: float, facing: str, along: float = 0.0) -> str:
    """An open arrow (shaft and barbs, no fill) out of a marker's side, `along` that side from its middle (off a
    road that runs the arrow's way): a side's shape is always a filled outline, so the arrow cannot be read as a
    triangle badge."""
    dx, dy = FACING_VECTORS[facing]
    x, y = x + abs(dy) * along, y + abs(dx) * along
    base = (w / 2 if dx else h / 2) + 0.2
    tip = base + ARROW
    bx, by = x + dx * base, y + dy * base
    tx, ty = x + dx * tip, y + dy * tip
    px, py = -dy * 0.8, dx * 0.8  # half the barbs' spread, across the shaft
    back = 0.8  # how far the barbs sweep back from the tip
    return (
        f'<path class="facing" d="M{bx:.2f} {by:.2f} L{tx:.2f} {ty:.2f} M{tx - dx * back + px:.2f} {ty - dy * back + py:.2f} '
        f'L{tx:.2f} {ty:.2f} L{tx - dx * back - px:.2f} {ty - dy * back - py:.2f}" fill="none" stroke="#000" '
        f'stroke-width="0.45" stroke-linecap="round" stroke-linejoin="round"/>'
    )


class _UnderStar:
    """An objective's star placed beside a unit's marks that try spot after spot in its square: what lay under each
    of the star's spots before the marks went in (the square's neighbourhood, as _furnish found it) is measured once,
    and each try adds only what its marks cover. The same choice as Placement.choose(spots, ignore=(BUILDING,))
    made afresh for every try, which measured every spot against every obstacle near it again: 2 of Hill 112's
    3 s of label placement under a profiler. What the marks cover is summed here as labels.covered() sums it, with
    the same arithmetic in the same order (so the same choice to the last bit), on plain numbers: Hill 112 asks it
    of some 80,000 spots, and covered()'s call and its result's object were most of the map's cost."""

    def __init__(self, obstacles: list[tuple[str, Box]], placed: list) -> None:
        self.others = [box for kind, box in obstacles if kind != BUILDING] + [p.box for p in placed]
        self.spots: list[Box] | None = None
        # each spot's box grown by the gap, as (left, top, right, bottom), and what lay under it
        self.before: list[tuple[tuple[float, float, float, float], float]] = []

    def choose(self, spots: list[Box], marks: list[Box], gap: float) -> tuple[float, Box]:
        """The first spot clear of everything, else the least covered, and how much it covers."""
        if self.spots is not spots:  # the square's spots (_star_spots keeps one list of them per square)
            self.spots = spots
            self.before = [
                ((grown.left, grown.top, grown.right, grown.bottom), covered(grown, self.others))
                for grown in (box.grown(gap) for box in spots)
            ]
        edges = [(m.left, m.top, m.right, m.bottom) for m in marks]
        best = None
        least = math.inf  # best's area, less the tolerance of a tie
        for box, ((left, top, right, bottom), before) in zip(spots, self.before):
            if before >= least:
                continue  # the marks only add to it: it cannot be chosen
            area = 0.0
            for m_left, m_top, m_right, m_bottom in edges:  # labels.covered(grown, marks), unrolled
                if (
                    m_right <= left + TOUCH
                    or m_left >= right - TOUCH
                    or m_bottom <= top + TOUCH
                    or m_top >= bottom - TOUCH
                ):
                    continue
                # min() and max() as Box.overlap() takes them, without their calls
                w = (right if right < m_right else m_right) - (left if left > m_left else m_left)
                h = (bottom if bottom < m_bottom else m_bottom) - (top if top > m_top else m_top)
                if w > TOUCH and h > TOUCH:
                    area += w * h
            area = before + area
            if best is None or area < least:
                best = (area, box)
                least = area - 1e-9
            if area == 0:
                break
        return best
