"""A table map for games measured in inches or centimetres: terrain, deployment zones and objectives as one SVG.

Fireteam Tomorrow, WarSpike and Para Bellum draw their tables with it (their scenario keys are generator.table's);
Morschauser keeps its grid.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import Any

from markupsafe import Markup

from . import fonts
from .labels import Box, Label, Placement, around, beside_line, leader_svg, line_bands, text_width, within
from .svg import EDGE_BAND, MARK_GAP_MM, MapFrame, edge_names, map_frames, points, roomiest, shape_path, side_pattern
from .table import edge_strip, rect_ring, secret

# each kind's fill and pattern: no two area kinds share a pattern, so each reads apart in black and white too
TERRAIN_STYLE = {
    "open": ("#f4f1e6", None),
    "woods": ("#b9d3a0", "trees"),
    "building": ("#8a8a8a", None),
    "ruins": ("#b4aca0", "broken"),
    "rubble": ("#cfc6b8", "stipple"),
    "hill": ("#e3d3ab", "contour"),
    "road": ("#dccfae", None),
    "river": ("#a9c8e6", "waves"),
    "bridge": ("#a77d4e", "planks"),
    "crater": ("#c9bba3", "rings"),
    "wall": ("#5c544a", None),
    "hedge": ("#5f8a45", None),
    "town": ("#c9a98a", "bricks"),
    "fortification": ("#7d6a55", "crosshatch"),
    "marsh": ("#c7dcc3", "reeds"),
    "orchard": ("#d3e3b4", "orchard"),
    "field": ("#efe6bf", "furrows"),
    "stream": ("#a9c8e6", None),
    "ford": ("#c6dbe9", "stones"),
}
# drawing order: water and hills first, roads over them, fords and bridges on top; every other kind between
LAYER = {"river": 0, "stream": 0, "road": 1, "hill": 0, "field": 0, "ford": 3, "bridge": 3}
UNLABELLED = ("river", "stream", "road")  # drawn without their kind's name when the scenario names none
WATER = ("river", "stream")  # drawn with a blue edge
OPEN_GROUND = ("open", "hill", "field", "marsh")  # areas a zone's hatching is drawn over, not under
LEGEND_MM = 5.6  # one legend row: a 4 mm swatch and its 7.8 pt name
FONT_MM = 2.75  # every name on the map prints 7.8 pt, whatever the table's size
OUTLINE = 0.12  # an area piece's outline, map units
FRAME = 0.25  # the table's frame, map units
TICK_SIZE = 0.92  # the scale's numbers, as a share of FONT_MM (7.2 pt)
TICK_TEXT = 0.9  # map units from the table's edge to the scale's numbers
BADGE_AT, BADGE_GAP = 1.1, 0.45  # a zone's badge: its centre from its label's left, its gap to the name (radii)
NOTE_MM = 14.0  # the note under the map (the table's size, what hatching and stars mean): two lines and a margin


def _pattern_defs(prefix: str = "", per_inch: float = 1.0) -> str:
    """SVG <pattern>s in user units of one inch or one square (scaled to `per_inch` map units an inch: 2.54 for a
    table in centimetres); each readable in black and white."""
    p = prefix
    defs = f"""
<pattern id="{p}trees" width="3" height="3" patternUnits="userSpaceOnUse">
  <circle cx="1.5" cy="1.5" r="0.9" fill="#7fa862" stroke="#3f5e2c" stroke-width="0.15"/></pattern>
<pattern id="{p}waves" width="3" height="1.5" patternUnits="userSpaceOnUse">
  <path d="M0 0.9 q0.75 -0.6 1.5 0 t1.5 0" fill="none" stroke="#3b6f9e" stroke-width="0.15"/></pattern>
<pattern id="{p}bricks" width="2" height="2" patternUnits="userSpaceOnUse">
  <path d="M0 0 H2 M0 1 H2 M1 0 V1 M0 1 V2" stroke="#6d5d4d" stroke-width="0.12"/></pattern>
<pattern id="{p}stipple" width="1.5" height="1.5" patternUnits="userSpaceOnUse">
  <circle cx="0.4" cy="0.4" r="0.18" fill="#6d5d4d"/><circle cx="1.1" cy="1.1" r="0.14" fill="#6d5d4d"/></pattern>
<pattern id="{p}rings" width="2" height="2" patternUnits="userSpaceOnUse">
  <circle cx="1" cy="1" r="0.55" fill="none" stroke="#6d5d4d" stroke-width="0.14"/></pattern>
<pattern id="{p}broken" width="2" height="2" patternUnits="userSpaceOnUse">
  <path d="M0 0 H1.3 M0 1 H0.7 M1.3 1 H2 M1 0 V0.6 M0 1 V1.6" stroke="#6d5d4d" stroke-width="0.12"/></pattern>
<pattern id="{p}reeds" width="2" height="1.6" patternUnits="userSpaceOnUse">
  <path d="M0.3 1.3 H1.7 M0.7 1.3 V0.5 M1 1.3 V0.3 M1.3 1.3 V0.6" fill="none" stroke="#4f7a4a" stroke-width="0.12"/></pattern>
<pattern id="{p}contour" width="3" height="2" patternUnits="userSpaceOnUse">
  <path d="M0.3 1.5 Q1.5 0.3 2.7 1.5" fill="none" stroke="#a88a4a" stroke-width="0.14"/></pattern>
<pattern id="{p}planks" width="1" height="1" patternUnits="userSpaceOnUse">
  <path d="M0 0.5 H1" stroke="#5b3d1e" stroke-width="0.12"/></pattern>
<pattern id="{p}crosshatch" width="1.5" height="1.5" patternUnits="userSpaceOnUse">
  <path d="M0 0 L1.5 1.5 M1.5 0 L0 1.5" stroke="#3d3326" stroke-width="0.12"/></pattern>
<pattern id="{p}orchard" width="4" height="4" patternUnits="userSpaceOnUse">
  <circle cx="2" cy="2" r="0.7" fill="#8fb26a" stroke="#3f5e2c" stroke-width="0.15"/></pattern>
<pattern id="{p}furrows" width="2" height="1" patternUnits="userSpaceOnUse">
  <path d="M0 0.5 H2" stroke="#b9a766" stroke-width="0.12" stroke-dasharray="0.8 0.3"/></pattern>
<pattern id="{p}stones" width="2" height="2" patternUnits="userSpaceOnUse">
  <ellipse cx="0.6" cy="0.6" rx="0.4" ry="0.28" fill="#9c9483"/><ellipse cx="1.5" cy="1.4" rx="0.35" ry="0.25" fill="#9c9483"/></pattern>
"""
    if per_inch == 1.0:
        return defs
    return defs.replace(
        'patternUnits="userSpaceOnUse"', f'patternUnits="userSpaceOnUse" patternTransform="scale({per_inch:g})"'
    )


class TableMap:
    """A top-down map of a table measured in inches (or any unit), drawn as one SVG with a legend of its terrain."""

    def __init__(
        self,
        width: float,
        depth: float,
        frame: MapFrame | None = None,
        tick: float = 6.0,
        legend: list[str] = (),
        edges: bool = False,
        per_inch: float = 1.0,
        ids: str = "",
    ):
        self.width, self.depth, self.tick = width, depth, tick
        # map units an inch: every stroke, pattern and gap below is drawn for a table in inches, and a table in
        # centimetres draws them 2.54 times as many units wide (its woods' trees were a third of their size)
        self.k = k = per_inch
        self.frame = frame or map_frames(NOTE_MM)[0]
        least = max(width, depth) * 0.045
        self.margin = least
        self.legend = list(legend)
        # the compass's edge names, when the scenario's words need them, in a band outside each side (mm)
        self.band_mm = FONT_MM * EDGE_BAND if edges else 0.0
        # mm per unit: the map fills its frame's width, or its height (less the legend's rows) for a deep table
        rows = 1
        for _ in range(3):
            room = self.frame.height_mm - rows * LEGEND_MM - 2 * self.band_mm
            across = self.frame.width_mm - 2 * self.band_mm
            self.scale = min(across / (width + 2 * self.margin), room / (depth + 2 * self.margin))
            rows = len(self._legend_rows()) or 0
            # the margin holds the scale's numbers, which print at one size in mm whatever the table: on a 24-inch
            # table 4.5% of it was narrower than '24' and the numbers at the left lost their first digit
            self.margin = max(least, *(TICK_TEXT * per_inch + extent for extent in self._tick_text(width, depth)))
        self.font = FONT_MM / self.scale  # 7.8 pt whatever the table's size; tick labels 0.92 of it, still over 7 pt
        self.layers: list[str] = []
        self.zones: list[str] = []  # the zones' edges, over the terrain
        self.ground: list[str] = []  # the zones' hatching, under it
        # open ground a zone lies on (a hill, a field), drawn under the zones' hatching: a war band's zone on its
        # hill was hatched under the hill's fill and could not be seen
        self.open_ground: list[str] = []
        self.stars: list[str] = []
        self.marks: list[str] = []  # units' starting points, reinforcements' arrows and planned moves, over the stars
        # every id of the drawing starts with `ids`: a booklet chapter prints a side's own map beside the shared one,
        # and two drawings of one document may not both define 'trees' or 'side0'
        self.ids = ids
        self.defs: list[str] = [_pattern_defs(ids, k)]
        self.patterns: set[str] = set()  # the sides' hatchings defined (a side may have several zones)
        # names belong on the table, inside its frame: a spot reaching past it slides back, or costs what it leaves
        inside = Box(FRAME * k / 2, FRAME * k / 2, width - FRAME * k / 2, depth - FRAME * k / 2)
        self.placement = Placement(inside, gap=MARK_GAP_MM / self.scale)
        # the table's frame and the scale's numbers in the margin are drawn too: a name kept off the map's other
        # marks kept off these as well, or it ran across the frame and over a number (a wood's name on a 24" table)
        self.placement.block_line(rect_ring((0, 0, width, depth)), FRAME * k, "frame")
        for number, x, y, anchor in self._ticks():
            self.placement.block(_tick_box(number, x, y, anchor, FONT_MM * TICK_SIZE / self.scale), "scale")
        self.pending: list[tuple[int, Label]] = []  # (priority, label): placed in priority order, then drawn

    def _tick_text(self, width: float, depth: float) -> tuple[float, float]:
        """How far the scale's numbers reach out from their offset, in map units at today's scale: the widest
        number at the left, and a number's height above the top."""
        fs = FONT_MM * TICK_SIZE / self.scale
        last = int(depth // self.tick) * self.tick
        return (text_width(f"{last:g}", fs) + fs * 0.3, fs * 1.1)

    def _ticks(self) -> list[tuple[float, float, float, str]]:
        """The scale's numbers: (number, x, y of its baseline's anchor, text-anchor), along the top then down the
        left, one every `tick` units from 0 to the table's width and depth."""
        out = []
        n = 0
        while n * self.tick <= self.width + 1e-9:
            out.append((n * self.tick, n * self.tick, -TICK_TEXT * self.k, "middle"))
            n += 1
        n = 0
        while n * self.tick <= self.depth + 1e-9:
            out.append((n * self.tick, -TICK_TEXT * self.k, n * self.tick, "end"))
            n += 1
        return out

    # --- terrain, zones, objectives ----------------------------------------------------------
    def terrain(self, kind: str, shape: str, coords, width: float = 2.0, label: str = "") -> None:
        fill, pattern = TERRAIN_STYLE.get(kind, ("#dddddd", None))
        stroke = "#4a4034"
        k = self.k
        layers = self.open_ground if kind in OPEN_GROUND else self.layers
        if shape == "line":
            # linear terrain (roads, rivers, walls) drawn as a band of the given width; an end at the table's edge
            # runs on past it, so the clip squares it off along the frame (a slanting river's square end left a
            # wedge of bare table at the edge)
            d = "M" + " L".join(f"{x:g} {y:g}" for x, y in _run_off(coords, self.width, self.depth, width))
            edge = "#3b6f9e" if kind in WATER else stroke
            self.layers.append(
                f'<path d="{d}" fill="none" stroke="{edge}" stroke-width="{width + 0.3 * k:g}" stroke-linejoin="round" stroke-linecap="butt"/>'
            )
            self.layers.append(
                f'<path d="{d}" fill="none" stroke="{fill}" stroke-width="{width:g}" stroke-linejoin="round" stroke-linecap="butt"/>'
            )
            if pattern:
                self.layers.append(
                    f'<path d="{d}" fill="none" stroke="url(#{self.ids}{pattern})" stroke-width="{width:g}" stroke-linejoin="round" stroke-linecap="butt"/>'
                )
            line = [tuple(p) for p in coords]
            # the band is an obstacle to every label; its own name keeps off it by `avoid` (and sits beside it)
            kind_id = f"line {len(self.layers)}"
            self.placement.block_line(line, width + 0.3 * k, kind_id)
            if label:
                self._line_label(label, line, width + 0.3 * k, kind_id)
            return
        if shape == "rect":
            x, y, w, h = coords
            outline = f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{0.3 * k:g}"'
            anchor = (x + w / 2, y + h / 2)
            ring = rect_ring(coords)
        elif shape == "circle":
            x, y, r = coords
            outline = f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}"'
            anchor = (x, y)
            ring = [(x + r * math.cos(a * math.pi / 12), y + r * math.sin(a * math.pi / 12)) for a in range(25)]
        else:
            outline = f'<polygon points="{points(coords)}"'
            anchor = (sum(p[0] for p in coords) / len(coords), sum(p[1] for p in coords) / len(coords))
            ring = [tuple(p) for p in coords] + [tuple(coords[0])]
        # a piece's outline is an obstacle to every label: a name sits inside its piece or beside it, never across
        self.placement.block_line(ring, OUTLINE * k, "outline")
        layers.append(f'{outline} fill="{fill}" stroke="{stroke}" stroke-width="{OUTLINE * k:g}"/>')
        if pattern:
            layers.append(f'{outline} fill="url(#{self.ids}{pattern})" stroke="none"/>')
        if label:
            self._area_label(label, anchor, ring, fill if pattern else None)

    def _area_label(
        self, text: str, anchor: tuple[float, float], ring: list[tuple[float, float]], ground: str | None
    ) -> None:
        fs = self.font
        width, height = text_width(text, fs), fs * 1.2
        # inside its piece first; a name too long for it steps out, further each ring, on a leader line from its edge
        spots = around(anchor[0], anchor[1], width, height, fs * 0.5, steps=10)
        self.pending.append((2, Label(text, fs, anchor, spots, kind="terrain", outline=ring, plate=ground)))

    def _line_label(
        self, text: str, line: list[tuple[float, float]], line_width: float, kind_id: str, roam: bool = False
    ) -> None:
        """A road's, river's, wall's or hedge's name beside the line, never on it; with `roam` (a planned move's,
        whose few short legs left no clear spot beside them: 'Gruppe 1 rushes the bridge' sat on 'Orchard wall'),
        further out round the line's middle too, on a leader line."""
        fs = self.font
        width, height = text_width(text, fs), fs * 1.2
        spots = []
        for gap in (fs * 0.25, fs * 1.2, fs * 2.4):
            spots += beside_line(line, line_width, width, height, gap)
        if roam:
            middle = _midpoint(line)
            spots += around(middle[0], middle[1], width + line_width, height + line_width, fs * 0.6, steps=10)[1:]
        if not spots:  # a line of no length (its points all one) has no side to sit beside: round the point
            x, y = line[0]
            spots = around(x, y, width, height + line_width, fs * 0.5)[1:]
        own = line_bands(line, line_width)
        reach = line_width / 2 + fs * 0.6
        kind = "move" if roam else "terrain"
        label = Label(
            text, fs, line[len(line) // 2], spots, kind=kind, avoid=own, line=line, reach=reach, ignore=(kind_id,)
        )
        self.pending.append((3, label))

    def zone(
        self, ring: list, colour: str, pattern: str, shape: str, label: str, index: int, edge: str | None = None
    ) -> None:
        """A side's deployment zone (a closed outline), hatched in its pattern; or, for `edge`, a hatched strip along
        that edge of the table with arrows in, where the side enters. Its name with the side's badge goes on top of
        all terrain, inside the zone (an entry's just inside the table from its strip)."""
        pid = f"{self.ids}side{index}"
        if pid not in self.patterns:
            self.patterns.add(pid)
            self.defs.append(side_pattern(pattern, colour, pid, self.k))
        fs = self.font
        if edge:
            strip = fs * 1.2
            ring = rect_ring(edge_strip(edge, strip, self))
        outline = points(ring[:-1])
        self.zones.append(
            f'<polygon points="{outline}" fill="none" stroke="{colour}" stroke-width="{0.35 * self.k:g}" '
            f'stroke-dasharray="{1.2 * self.k:g} {0.6 * self.k:g}"/>'
        )
        # the hatching lies under the terrain (a building's name and its ground read clear of it), the zone's
        # dashed edge over it: where the zone runs is still drawn across every piece
        self.ground.append(f'<polygon points="{outline}" fill="url(#{pid})" fill-opacity="0.55" stroke="none"/>')
        self.placement.block_line(ring, 0.35 * self.k, "zone edge")
        r = fs * 0.6
        # the badge sits left of the name inside the label's box: padding on both sides keeps the text centred,
        # and leaves the badge BADGE_GAP of its radius clear of the name (at 0.2 'Red Banner Militia' touched it)
        pad = r * (BADGE_AT + 1 + BADGE_GAP)
        width, height = text_width(label, fs, bold=True) + 2 * pad, fs * 1.2
        badge = (shape, colour, r)
        if edge:
            for arrow in _entry_arrows(edge, strip, self.width, self.depth):
                self.zones.append(
                    f'<polygon points="{points(arrow)}" fill="{colour}" stroke="#000" stroke-width="{0.08 * self.k:g}"/>'
                )
                xs, ys = [p[0] for p in arrow], [p[1] for p in arrow]
                self.placement.block(Box(min(xs), min(ys), max(xs), max(ys)), "entry arrow")
            cx, cy = _inward(edge, strip * 1.6 + height, self.width, self.depth)
            spots = around(cx, cy, width, height, fs * 0.6, steps=6)
        else:
            cx = sum(p[0] for p in ring[:-1]) / (len(ring) - 1)
            cy = sum(p[1] for p in ring[:-1]) / (len(ring) - 1)
            spots = [s for s in around(cx, cy, width, height, fs * 0.6, steps=6) if _box_within(ring, s, width, height)]
            # then anywhere else inside the zone, nearest its middle first: a zone full of walls, buildings and its
            # units' tokens had no clear spot in the rings round its middle (Concord Garrison sat on the Mast's star)
            spots += sorted(
                (s for s in _inside_spots(ring, width, height, fs) if s not in spots),
                key=lambda s: math.hypot(s[0] - cx, s[1] - cy),
            )
        # every spot lies inside the zone it names (an entry's beside its strip): no leader line
        zone_label = Label(label, fs, (cx, cy), spots or [(cx, cy)], True, pad, "zone", badge=badge, reach=math.inf)
        self.pending.append((0, zone_label))

    def objective(self, x: float, y: float, name: str) -> None:
        r = self.font * 0.75
        self.stars.append(
            f'<g fill="#ffd84a" stroke="#000" stroke-width="{0.15 * self.k:g}">{shape_path("star", x, y, r)}</g>'
        )
        self.placement.block(Box(x - r, y - r, x + r, y + r), "objective")
        fs = self.font * 0.95
        width, height = text_width(name, fs, bold=True), fs * 1.2
        below = (x, y + r + height / 2 + self.placement.gap)
        # under its star first; off any line or outline round it, further out on a leader line
        spots = [below] + around(x, y, width + 2 * r, height + 2 * r, fs * 0.4, steps=12)[1:]
        # the star's outline is what the name names: a name just under it needs no leader, and a leader starts at
        # the star's edge (one from its middle ran through the star: Relay Station's 'Uplink')
        ring = [(x + r * math.cos(a * math.pi / 8), y + r * math.sin(a * math.pi / 8)) for a in range(17)]
        label = Label(name, fs, (x, y), spots, bold=True, kind="objective", at="objective", outline=ring)
        self.pending.append((1, label))

    def unit(self, x: float, y: float, shape: str, colour: str, name: str) -> None:
        """A unit's starting point: its side's shape in its colour, its name beside it."""
        r = self.font * 0.7
        # larger than a zone's badge, on a white ground, and marked with a white dot: a token on the table, not a
        # name's badge (at a badge's size three of the Militia's teams read as three more zone labels)
        self.marks.append(
            f'<g fill="#ffffff">{shape_path(shape, x, y, r * 1.3)}</g>'
            f'<g fill="{colour}" stroke="#000" stroke-width="{0.1 * self.k:g}">{shape_path(shape, x, y, r)}</g>'
            f'<circle cx="{x:.3f}" cy="{y:.3f}" r="{r * 0.28:.3f}" fill="#ffffff"/>'
        )
        r *= 1.3
        self.placement.block(Box(x - r, y - r, x + r, y + r), "unit")
        # a ring of room round the token that only its own name may use: a neighbour's name just beside it read as
        # its name ('1 Platoon HQ' under 2 Sec Bravo's token)
        halo = f"unit room {len(self.marks)}"
        room = self.font * 0.6
        self.placement.block(Box(x - r - room, y - r - room, x + r + room, y + r + room), halo)
        fs = self.font * TICK_SIZE  # 7.2 pt: smaller than a piece's name, no smaller than the scale's numbers
        width, height = text_width(name, fs), fs * 1.2
        below = (x, y + r + height / 2 + self.placement.gap)
        spots = [below] + around(x, y, width + 2 * r, height + 2 * r, fs * 0.4, steps=12)[1:]
        ring = [(x + r * math.cos(a * math.pi / 8), y + r * math.sin(a * math.pi / 8)) for a in range(17)]
        label = Label(name, fs, (x, y), spots, kind="unit", at="unit", outline=ring, ignore=(halo,))
        self.pending.append((1, label))

    def reinforcement(self, x: float, y: float, colour: str, name: str) -> None:
        """Troops arriving: a broad arrow in the side's colour pointing onto the table from the nearest edge, its
        tail on the point when the point is on that edge (its head on the point inside the table), named beside."""
        fs = self.font
        edge = min(
            ("west", x), ("east", self.width - x), ("north", y), ("south", self.depth - y), key=lambda item: item[1]
        )
        dx, dy = {"west": (1, 0), "east": (-1, 0), "north": (0, 1), "south": (0, -1)}[edge[0]]
        # along its edge the arrow keeps its whole head on the table: one in a corner straddled the other edge
        half = fs * 0.8
        if dx:
            y = min(max(y, half), self.depth - half)
        else:
            x = min(max(x, half), self.width - half)
        length, distance = fs * 3.2, edge[1]
        if distance <= fs * 0.5:  # on the edge: the tail there, the head inside
            tail = (x, y)
        else:  # inside: the head on the point, the tail toward the edge and never past it (a point nearer the
            # edge than a head's length has its tail on the edge, its head a little past the point)
            length = min(length, max(distance, fs * 1.2))
            back = min(length, distance)
            tail = (x - dx * back, y - dy * back)
        arrow = _broad_arrow(tail, (dx, dy), length, fs)
        self.marks.append(
            f'<polygon points="{points(arrow)}" fill="{colour}" stroke="#000" stroke-width="{0.1 * self.k:g}" '
            'stroke-linejoin="round"/>'
        )
        xs, ys = [p[0] for p in arrow], [p[1] for p in arrow]
        self.placement.block(Box(min(xs), min(ys), max(xs), max(ys)), "reinforcement")
        size = fs * 0.95
        width, height = text_width(name, size, bold=True), size * 1.2
        cx, cy = tail[0] + dx * length / 2, tail[1] + dy * length / 2
        beyond = length + fs * 0.4 + abs(dx) * width / 2 + abs(dy) * height / 2  # past the arrow's head
        spots = [
            (cx + dy * (width / 2 + fs * 0.8), cy + dx * (height / 2 + fs * 0.8)),
            (cx - dy * (width / 2 + fs * 0.8), cy - dx * (height / 2 + fs * 0.8)),
            (tail[0] + dx * beyond, tail[1] + dy * beyond),
        ] + around(cx, cy, width + length, height + length, fs * 0.4, steps=10)[1:]
        ring = arrow + [arrow[0]]
        label = Label(name, size, (cx, cy), spots, bold=True, kind="reinforcement", at="reinforcement", outline=ring)
        self.pending.append((1, label))

    def move(self, path: list, colour: str, name: str) -> None:
        """A planned move: a dashed line in the side's colour along its points, an arrowhead at the last, and its
        name beside the line."""
        k, fs = self.k, self.font
        line = [tuple(map(float, p)) for p in path]
        head = fs * 0.9
        (x0, y0), (x1, y1) = line[-2], line[-1]
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        # the dashes stop at the head's base: a butt end poking through the point of the arrow blunted it
        shaft = line[:-1] + [(x1 - ux * head * 0.8, y1 - uy * head * 0.8)]
        d = "M" + " L".join(f"{x:.2f} {y:.2f}" for x, y in shaft)
        width = 0.4 * k
        self.marks.append(
            f'<path d="{d}" fill="none" stroke="#ffffff" stroke-width="{width * 2.2:g}" stroke-linejoin="round"/>'
            f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{width:g}" stroke-linejoin="round" '
            f'stroke-dasharray="{1.4 * k:g} {0.7 * k:g}"/>'
        )
        tip = [(x1, y1), (x1 - ux * head - uy * head * 0.45, y1 - uy * head + ux * head * 0.45)]
        tip.append((x1 - ux * head + uy * head * 0.45, y1 - uy * head - ux * head * 0.45))
        self.marks.append(
            f'<polygon points="{points(tip)}" fill="{colour}" stroke="#000" stroke-width="{0.06 * k:g}"/>'
        )
        kind_id = f"move {len(self.marks)}"
        self.placement.block_line(line, width * 2.2, kind_id)
        xs, ys = [p[0] for p in tip], [p[1] for p in tip]
        self.placement.block(Box(min(xs), min(ys), max(xs), max(ys)), kind_id)
        if name:
            self._line_label(name, line, width * 2.2, kind_id, roam=True)

    # --- labels ------------------------------------------------------------------------------
    def place_labels(self) -> list:
        """The placement step: zone names, then objective names, then terrain names, each clear of all before."""
        if not self.placement.placed:
            for _, label in sorted(self.pending, key=lambda item: item[0]):
                self.placement.place(label)
        return self.placement.placed

    def _label_svg(self, placed) -> str:
        label = placed.label
        fs = label.size
        cx, cy = placed.box.centre
        weight = "bold" if label.bold else "normal"
        out = ""
        if label.kind == "zone":
            # a zone's name on a white plate edged in its side's colour: a tag, not one more token on the table (its
            # badge beside the side's name read as a unit standing there)
            box = placed.box
            out += (
                f'<rect x="{box.left:.2f}" y="{box.top:.2f}" width="{box.width:.2f}" height="{box.height:.2f}" '
                f'rx="{fs * 0.25:.2f}" fill="#ffffff" fill-opacity="0.85" stroke="{label.badge[1]}" '
                f'stroke-width="{0.1 * self.k:g}"/>'
            )
        if label.badge:
            shape, colour, r = label.badge
            out += f'<g fill="{colour}" stroke="#000" stroke-width="{0.12 * self.k:g}">{shape_path(shape, placed.box.left + r * BADGE_AT, cy, r)}</g>'
        if label.plate and label.outline and within(placed.box.centre, label.outline):
            # a name inside a patterned piece sits in a clearing of the piece's own ground: no tree runs through it
            pad = fs * 0.3
            out += (
                f'<rect x="{placed.box.left - pad:.2f}" y="{placed.box.top:.2f}" width="{placed.box.width + 2 * pad:.2f}" '
                f'height="{placed.box.height:.2f}" rx="{pad:.2f}" fill="{label.plate}"/>'
            )
        # a white halo drawn first, then the text: WeasyPrint ignores paint-order
        common = (
            f'x="{cx:.2f}" y="{cy + fs * 0.35:.2f}" font-size="{fs:.2f}" font-weight="{weight}" text-anchor="middle"'
        )
        return (
            out
            + f'<text {common} fill="#ffffff" stroke="#ffffff" stroke-width="{fs * 0.22:.2f}" stroke-linejoin="round">{escape(label.text)}</text>'
            + f'<text {common} fill="#1a1a1a">{escape(label.text)}</text>'
        )

    # --- legend ------------------------------------------------------------------------------
    def _legend_rows(self) -> list[list[tuple[str, float]]]:
        """The legend's entries (terrain kinds used, then the objective) flowed into rows of the table's width, in mm,
        as even as that many rows allow: a last row of one entry ('Objective' alone under ten) reads as an
        afterthought."""
        widths = [4.0 + 1.4 + text_width(_legend_name(kind), 2.75) + 4.0 for kind in self.legend]
        room = self.width * self.scale
        rows = _flowed(widths, room)
        if len(rows) > 1:  # the narrowest room that still takes no more rows: the entries spread evenly over them
            low, high = max(widths), room
            for _ in range(30):
                middle = (low + high) / 2
                low, high = (low, middle) if len(_flowed(widths, middle)) <= len(rows) else (middle, high)
            rows = _flowed(widths, high)
        out, index = [], 0
        for row in rows:
            used, placed = 0.0, []
            for wide in row:
                placed.append((self.legend[index], used))
                used += wide
                index += 1
            out.append(placed)
        return out

    def _legend_svg(self, top: float) -> str:
        out = []
        unit = 1 / self.scale  # one mm in map units
        for index, row in enumerate(self._legend_rows()):
            y = top + index * LEGEND_MM * unit
            for kind, left_mm in row:
                x = left_mm * unit
                out.append(swatch(kind, x, y, 4.0 * unit, self.k, self.ids))
                out.append(
                    f'<text x="{x + 5.4 * unit:.2f}" y="{y + 2.0 * unit + self.font * 0.35:.2f}" font-size="{self.font:.2f}">'
                    f"{escape(_legend_name(kind))}</text>"
                )
        return "".join(out)

    # --- drawing -----------------------------------------------------------------------------
    def svg(self, bare: bool = False) -> Markup:
        """The map as one SVG: the table in its margin with the scale, the edges' names and the legend; or, `bare`,
        the table alone, filling whatever box holds it (a board picture for a virtual tabletop)."""
        m, k = self.margin, self.k
        W, D = self.width, self.depth
        fs = self.font * TICK_SIZE
        ticks = []
        for number, x, y, anchor in self._ticks():
            if anchor == "middle":  # along the top: a mark up from the frame, the number over it
                ticks.append(
                    f'<line x1="{x:g}" y1="{-0.6 * k:g}" x2="{x:g}" y2="0" stroke="#000" stroke-width="{0.1 * k:g}"/>'
                )
                ticks.append(f'<text x="{x:g}" y="{y:g}" font-size="{fs:.2f}" text-anchor="middle">{number:g}</text>')
            else:  # down the left: a mark out from the frame, the number before it, its middle on the mark
                ticks.append(
                    f'<line x1="{-0.6 * k:g}" y1="{y:g}" x2="0" y2="{y:g}" stroke="#000" stroke-width="{0.1 * k:g}"/>'
                )
                ticks.append(
                    f'<text x="{x:g}" y="{y + fs * 0.35:.2f}" font-size="{fs:.2f}" text-anchor="end">{number:g}</text>'
                )
        placed = self.place_labels()
        leaders = "".join(leader_svg(p, 0.12 * k) for p in placed)
        labels = "".join(self._label_svg(p) for p in placed)
        legend_rows = len(self._legend_rows())
        legend_height = legend_rows * LEGEND_MM / self.scale
        # the legend starts a little under the table, in the bottom margin (under the south edge's name, if
        # any), and the picture grows by its rows
        band = self.band_mm / self.scale
        legend = self._legend_svg(D + m * 0.5 + band) if legend_rows else ""
        view_height = D + 2 * m + (legend_height - m * 0.5 if legend_rows else 0) + 2 * band
        edges = edge_names(-m, -m, W + m, D + m * 0.5, self.font) if band else ""
        # terrain ends at the table's edge: a road or river running off it stops at the frame, square ends and all
        clip = f"{self.ids}table-{W:g}x{D:g}"
        body = f'<g clip-path="url(#{clip})">' + "\n".join(self.open_ground + self.ground + self.layers) + "</g>"
        self.defs.append(f'<clipPath id="{clip}"><rect x="0" y="0" width="{W:g}" height="{D:g}"/></clipPath>')
        left, top, view_width = -m - band, -m - band, W + 2 * m + 2 * band
        size = f'width="{view_width * self.scale:.1f}mm" height="{view_height * self.scale:.1f}mm"'
        if bare:
            left, top, view_width, view_height, size = 0, 0, W, D, 'width="100%" height="100%"'
            ticks, edges, legend = [], "", ""
        return Markup(
            f'<svg xmlns="http://www.w3.org/2000/svg" class="map" viewBox="{left:g} {top:g} {view_width:g} {view_height:g}" '
            f"{size} font-family='{fonts.TEXT}'>"
            f"<defs>{''.join(self.defs)}</defs>"
            f'<rect x="0" y="0" width="{W:g}" height="{D:g}" fill="#f7f5ee" stroke="#000" stroke-width="{FRAME * k:g}"/>'
            f"{body}{''.join(self.zones)}{''.join(self.stars)}{''.join(self.marks)}{leaders}{labels}{''.join(ticks)}{edges}{legend}</svg>"
        )


def _run_off(line, width: float, depth: float, run: float) -> list[tuple[float, float]]:
    """The line with each end that lies on or beyond the table's edge carried `run` further along its last
    segment: drawn under the table's clip, the band ends square along the frame."""
    points = [tuple(map(float, point)) for point in line]
    if len(points) < 2:
        return points

    def outward(end, before):
        x, y = end
        if 0 < x < width and 0 < y < depth:
            return end  # ends inside the table: drawn where it ends
        dx, dy = x - before[0], y - before[1]
        length = math.hypot(dx, dy)
        return end if length == 0 else (x + dx / length * run, y + dy / length * run)

    return [outward(points[0], points[1]), *points[1:-1], outward(points[-1], points[-2])]


def _flowed(widths: list[float], room: float) -> list[list[float]]:
    """Widths flowed into rows no wider than `room` (a wider one alone on its row), in order."""
    rows, row, used = [], [], 0.0
    for wide in widths:
        if row and used + wide > room:
            rows.append(row)
            row, used = [], 0.0
        row.append(wide)
        used += wide
    return rows + [row] if row else rows


def _tick_box(number: float, x: float, y: float, anchor: str, size: float) -> Box:
    """Where one of the scale's numbers prints: along the top centred on x over its baseline y, down the left
    ending at x with its middle on y."""
    wide = text_width(f"{number:g}", size)
    if anchor == "middle":
        return Box(x - wide / 2, y - size * 0.8, x + wide / 2, y + size * 0.2)
    return Box(x - wide, y - size * 0.45, x, y + size * 0.55)


def _inside_spots(ring, width: float, height: float, fs: float, most: int = 400) -> list[tuple[float, float]]:
    """Box centres on an even grid over the outline's bounds, about `most` of them, each box inside the outline."""
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    left, top, right, bottom = min(xs) + width / 2, min(ys) + height / 2, max(xs) - width / 2, max(ys) - height / 2
    if right < left or bottom < top:
        return []
    step = max(fs * 0.5, math.sqrt(max((right - left) * (bottom - top), 1e-9) / most))
    across, down = int((right - left) / step) + 1, int((bottom - top) / step) + 1
    grid = [(left + i * step, top + j * step) for i in range(across) for j in range(down)]
    return [s for s in grid if _box_within(ring, s, width, height)]


def _box_within(ring, centre, width: float, height: float) -> bool:
    """Whether a label's box at `centre` lies inside the closed outline: its corners and its middle."""
    cx, cy = centre
    corners = [(cx + dx * width / 2, cy + dy * height / 2) for dx in (-1, 1) for dy in (-1, 1)]
    return all(within(point, ring) for point in corners + [centre])


def _inward(edge: str, distance: float, width: float, depth: float) -> tuple[float, float]:
    """The point `distance` in from the middle of a table edge."""
    return {
        "north": (width / 2, distance),
        "south": (width / 2, depth - distance),
        "west": (distance, depth / 2),
        "east": (width - distance, depth / 2),
    }[edge]


def _entry_arrows(edge: str, strip: float, width: float, depth: float) -> list[list[tuple[float, float]]]:
    """Three arrowheads on an entry strip, pointing onto the table: each one's three corners."""
    out = []
    along = width if edge in ("north", "south") else depth
    size = strip * 0.9
    for share in (0.15, 0.5, 0.85):
        t = along * share
        if edge == "north":
            tip, base = (t, strip * 1.6), [(t - size, strip * 0.15), (t + size, strip * 0.15)]
        elif edge == "south":
            tip, base = (t, depth - strip * 1.6), [(t - size, depth - strip * 0.15), (t + size, depth - strip * 0.15)]
        elif edge == "west":
            tip, base = (strip * 1.6, t), [(strip * 0.15, t - size), (strip * 0.15, t + size)]
        else:
            tip, base = (width - strip * 1.6, t), [(width - strip * 0.15, t - size), (width - strip * 0.15, t + size)]
        out.append([base[0], tip, base[1]])
    return out


def _midpoint(line: list[tuple[float, float]]) -> tuple[float, float]:
    """The point halfway along a line, measured along its length."""
    lengths = [math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(line, line[1:])]
    left = sum(lengths) / 2
    for (a, b), length in zip(zip(line, line[1:]), lengths):
        if left <= length and length > 0:
            t = left / length
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        left -= length
    return line[-1]


def _broad_arrow(tail: tuple[float, float], direction: tuple[int, int], length: float, fs: float) -> list:
    """A broad arrow's corners from its tail's middle along an axis `direction`, `length` long (a reinforcement's)."""
    (x, y), (dx, dy) = tail, direction
    shaft, head, neck = fs * 0.32, fs * 0.75, length - fs * 1.1
    # across the arrow: (-dy, dx)
    nx, ny = -dy, dx
    along = [(0, shaft), (neck, shaft), (neck, head), (length, 0), (neck, -head), (neck, -shaft), (0, -shaft)]
    return [(x + dx * a + nx * c, y + dy * a + ny * c) for a, c in along]


LEGEND_NAMES = {
    "objective": "Objective",
    "unit": "Unit’s start",
    "reinforcements": "Reinforcements",
    "move": "Planned move",
}


def _legend_name(kind: str) -> str:
    return LEGEND_NAMES.get(kind, kind.capitalize())


def swatch(kind: str, x: float, y: float, size: float, k: float = 1.0, ids: str = "") -> str:
    """A legend entry's picture: the terrain kind drawn as the map draws it, in a square of `size` at (x, y) (on a
    map of `k` units an inch)."""
    if kind == "objective":
        return f'<g fill="#ffd84a" stroke="#000" stroke-width="{0.15 * k:g}">{shape_path("star", x + size / 2, y + size / 2, size * 0.45)}</g>'
    if kind == "unit":
        cx, cy, r = x + size / 2, y + size / 2, size * 0.4
        return (
            f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{r:.2f}" fill="#8a8a8a" stroke="#000" stroke-width="{0.1 * k:g}"/>'
            f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{r * 0.28:.2f}" fill="#ffffff"/>'
        )
    if kind == "reinforcements":
        arrow = _broad_arrow((x, y + size / 2), (1, 0), size, size * 0.55)
        return f'<polygon points="{points(arrow)}" fill="#8a8a8a" stroke="#000" stroke-width="{0.1 * k:g}"/>'
    if kind == "move":
        # a thin dashed line and a small head, as the map draws a move (a broad one read as a reinforcement)
        d = f"M{x:.2f} {y + size / 2:.2f} H{x + size * 0.72:.2f}"
        tip = [(x + size, y + size / 2), (x + size * 0.7, y + size * 0.33), (x + size * 0.7, y + size * 0.67)]
        return (
            f'<path d="{d}" stroke="#5a5a5a" stroke-width="{size * 0.09:.2f}" '
            f'stroke-dasharray="{size * 0.16:.2f} {size * 0.1:.2f}"/>'
            f'<polygon points="{points(tip)}" fill="#5a5a5a"/>'
        )
    fill, pattern = TERRAIN_STYLE.get(kind, ("#dddddd", None))
    if kind in LINEAR_KINDS:
        band = size * (0.5 if kind in ("river", "road") else 0.22)
        d = f"M{x:.2f} {y + size / 2:.2f} H{x + size:.2f}"
        edge = "#3b6f9e" if kind in WATER else "#4a4034"
        out = f'<path d="{d}" stroke="{edge}" stroke-width="{band + 0.3 * k:.2f}"/><path d="{d}" stroke="{fill}" stroke-width="{band:.2f}"/>'
        if pattern:
            out += f'<path d="{d}" stroke="url(#{ids}{pattern})" stroke-width="{band:.2f}"/>'
        return out
    box = f'x="{x:.2f}" y="{y:.2f}" width="{size:.2f}" height="{size:.2f}" rx="{0.3 * k:g}"'
    out = f'<rect {box} fill="{fill}" stroke="#4a4034" stroke-width="{0.12 * k:g}"/>'
    if pattern:
        out += f'<rect {box} fill="url(#{ids}{pattern})"/>'
    return out


LINEAR_KINDS = ("river", "stream", "road", "wall", "hedge")


PER_INCH = {"inch": 1.0, "cm": 2.54}  # map units an inch, for each unit a table may be measured in


def tick_for(width: float, depth: float, unit: str = "inch") -> float:
    """The scale's step: every 6 inches (12 on a table over 96), every 10 cm (20 over 150)."""
    if unit == "cm":
        return 10 if max(width, depth) <= 150 else 20
    return 6 if max(width, depth) <= 96 else 12


@dataclass(frozen=True)
class Board:
    """A map's table alone, for a picture: its drawing (filling its box), its size in inches, and what one inch of
    the picture is ("an inch" of the table, "a grid square")."""

    svg: Markup
    width_in: float
    height_in: float
    per: str


@dataclass(frozen=True)
class TableView:
    """What a system's table map is drawn from, kept by its Prepared so each side's orders draw their own map."""

    battle: Any  # the scenario's table, terrain and objectives (.table, .terrain, .objectives)
    on_table: list  # what each side puts on the table (table.OnTable), in the order of the sides
    sides: list  # the core's side views
    cover: Callable | None = None
    edges: bool = False
    unit: str = "inch"
    turn_word: str = "turn"  # what a reinforcement's `turn` counts: Fireteam's are passes through the deck

    def board(self) -> Board:
        """The table alone as a picture's drawing, for a virtual tabletop's board: terrain, zones, objectives and
        reinforcements' entries, not the units' tokens or the planned moves (the players' own pieces move)."""
        on_table = [dataclasses.replace(side, units=(), moves=()) for side in self.on_table]
        drawing = table_map(self.battle, on_table, self.sides, self.cover, False, self.unit, turn_word=self.turn_word)
        table, per_inch = self.battle.table, PER_INCH[self.unit]
        return Board(drawing.svg(bare=True), table.width / per_inch, table.depth / per_inch, "an inch")

    def draw(self, viewer: int | None = None, frame: MapFrame | None = None) -> tuple[Markup, str]:
        """The map as one SVG, and the orientation of its page: the shared map, or side `viewer`'s (its hidden
        zones drawn too); in `frame`, or on whichever page shows it larger."""
        drawing = table_map(
            self.battle, self.on_table, self.sides, self.cover, self.edges, self.unit, viewer, frame, self.turn_word
        )
        return drawing.svg(), drawing.frame.orientation


def in_a_frame() -> MapFrame:
    """The room of a map printed inside a booklet's dashed orders frame: a portrait page's width, less 2 mm for
    the frame's lines (a wider drawing shrinks to fit, and its 7.2 pt scale with it, under the 7 pt least)."""
    portrait = map_frames(NOTE_MM)[0]
    return MapFrame(portrait.orientation, portrait.width_mm - 2, portrait.height_mm)


def table_map(
    battle,
    on_table: list,
    sides: list,
    cover=None,
    edges: bool = False,
    unit: str = "inch",
    viewer: int | None = None,
    frame: MapFrame | None = None,
    turn_word: str = "turn",
) -> TableMap:
    """The scenario's table: terrain labelled (with its cover, where `cover(piece)` gives one), what each side
    puts on it (`on_table`, a table.OnTable a side in the order of `sides`: deployment zones, reinforcements,
    planned moves, units' starting points), the objectives with their victory points, a legend, and the edges'
    names when `edges` (the scenario's words refer to the compass). A hidden zone, reinforcement or move is drawn
    only on the map of its own side's orders (`viewer`, that side's index), a reinforcement's or move's name marked
    "(secret)" there."""
    table = battle.table
    kinds = [kind for kind in TERRAIN_STYLE if any(f.kind == kind for f in battle.terrain)]
    kinds += sorted({f.kind for f in battle.terrain} - set(kinds))
    marks = [side.marks(viewer=view.index == viewer) for view, side in zip(sides, on_table)]
    legend = kinds + (["objective"] if battle.objectives else [])
    legend += ["unit"] if any(side.units for side in on_table) else []
    legend += ["reinforcements"] if any(arriving for _, arriving, _ in marks) else []
    legend += ["move"] if any(moves for _, _, moves in marks) else []
    tick = tick_for(table.width, table.depth, unit)
    per_inch = PER_INCH[unit]

    # a wide table prints on a landscape page when it shows larger there (a 96" x 48" table filled a third of
    # a portrait page)
    def drawn(frame: MapFrame) -> TableMap:
        # a side's own map may print beside the shared one (a booklet chapter): its ids are its own
        ids = "" if viewer is None else f"s{viewer}-"
        return TableMap(table.width, table.depth, frame, tick, legend, edges, per_inch, ids)

    drawing = drawn(frame or roomiest(map_frames(NOTE_MM), lambda f: drawn(f).scale))
    for feature in sorted(battle.terrain, key=lambda f: LAYER.get(f.kind, 2)):
        label = feature.name or ("" if feature.kind in UNLABELLED else feature.kind.capitalize())
        level = cover(feature) if cover else None
        if level and level != "none" and label:
            label = f"{label} ({level})"
        drawing.terrain(feature.kind, feature.shape, getattr(feature, feature.shape), feature.width or 2, label)
    for view, (own, _, _) in zip(sides, marks):
        for zone in own:
            # a named zone is labelled by its name, the side's badge beside it: 'King's Own Rifles: Flank guard' was
            # wider than its zone and printed outside it, across a wall
            # a hidden zone's name is not marked secret on the map (the words under it are): 'Flank guard (secret)'
            # was wider than its zone
            label = zone.name or view.name
            if zone.enters:
                drawing.zone([], view.colour, view.pattern, view.shape, f"{label} enters", view.index, zone.edge)
            else:
                drawing.zone(zone.ring(table), view.colour, view.pattern, view.shape, label, view.index)
    for objective in battle.objectives:
        name = objective.name if objective.points is None else f"{objective.name} ({objective.points} VP)"
        drawing.objective(objective.at[0], objective.at[1], name)
    for view, side, (_, arriving, moves) in zip(sides, on_table, marks):
        for move in moves:
            drawing.move(move.path, view.colour, secret(move.name, move.hidden) if move.name else "")
        for name, at, _ in side.units:
            drawing.unit(at[0], at[1], view.shape, view.colour, name)
        for reinforcement in arriving:
            turn = f" ({turn_word} {reinforcement.turn})" if reinforcement.turn is not None else ""
            name = secret(reinforcement.name + turn, reinforcement.hidden)
            drawing.reinforcement(reinforcement.at[0], reinforcement.at[1], view.colour, name)
    return drawing
