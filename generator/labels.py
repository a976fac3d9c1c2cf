"""Map label placement: each label's box measured from its text, tried at candidate spots, kept clear of the rest."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .fonts import text_width
from .markup import curl_quotes

# A map is drawn in its own user units; every size here is in those units. A label is placed at the
# first of its candidate spots where its box stays inside the map and clear of every label placed
# before it and of every obstacle (unit markers, objective stars, side badges); a label that has to
# move away from what it names gets a leader line back to it.

LINE_HEIGHT = 1.2  # a label's box is this many font sizes tall
ALONG_POINTS = 512  # the most points along a line or outline a leader line is measured from
OBJECTIVE = "objective"  # an objective's mark: nothing else drawn may cover it, nor it anything
# boxes that touch to within this (a millionth of a map unit) only touch: spots worked out by adding a gap to an
# inset and a frame's width meet at 80.4 and 80.39999999999999, and that rounding must not count as crowding (a
# code then left its own square for a leader, Weissach's B5)
TOUCH = 1e-6
# what a leader line may not pass through besides labels and other leaders: the marks a player reads as pieces on
# the table (a line across a road or an outline is only a line beside another)
LEADER_AVOIDS = frozenset({"unit marker", "facing arrow", OBJECTIVE})


def covered(box: Box, others) -> float:
    """The area `box` shares with each of `others` (boxes), summed in their order: Box.overlap for each, with the
    boxes that cannot meet it passed over first (placement asks this of every obstacle for every spot it tries)."""
    left, top, right, bottom = box.left, box.top, box.right, box.bottom
    total = 0.0
    for other in others:
        if (
            other.right <= left + TOUCH
            or other.left >= right - TOUCH
            or other.bottom <= top + TOUCH
            or other.top >= bottom - TOUCH
        ):
            continue
        total += box.overlap(other)
    return total


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in map units."""

    left: float
    top: float
    right: float
    bottom: float

    @classmethod
    def centred(cls, x: float, y: float, width: float, height: float) -> Box:
        return cls(x - width / 2, y - height / 2, x + width / 2, y + height / 2)

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.left + self.right) / 2, (self.top + self.bottom) / 2)

    def overlap(self, other: Box) -> float:
        """The area both boxes cover (0 when they only touch, to within TOUCH)."""
        w = min(self.right, other.right) - max(self.left, other.left)
        h = min(self.bottom, other.bottom) - max(self.top, other.top)
        return w * h if w > TOUCH and h > TOUCH else 0.0

    def inside(self, other: Box) -> bool:
        return (
            self.left >= other.left - 1e-9
            and self.top >= other.top - 1e-9
            and self.right <= other.right + 1e-9
            and self.bottom <= other.bottom + 1e-9
        )

    @property
    def corners(self) -> list[tuple[float, float]]:
        return [(self.left, self.top), (self.right, self.top), (self.right, self.bottom), (self.left, self.bottom)]

    def grown(self, by: float) -> Box:
        return Box(self.left - by, self.top - by, self.right + by, self.bottom + by)

    def nearest(self, x: float, y: float) -> tuple[float, float]:
        """The point of the box nearest to (x, y)."""
        return (min(max(x, self.left), self.right), min(max(y, self.top), self.bottom))


@dataclass
class Label:
    """Text to print near an anchor point, with the box centres to try, best first."""

    text: str
    size: float
    anchor: tuple[float, float]
    candidates: list[tuple[float, float]]
    bold: bool = False
    padding: float = 0.0  # extra width either side of the text (a boxed label's white box)
    kind: str = "label"
    avoid: list[Box] = field(default_factory=list)  # what this label alone must keep off (its own line)
    line: list[tuple[float, float]] | None = None  # a line's label names the whole line, not one point of it
    reach: float | None = None  # how far the box may sit from what it names before it needs a leader line
    badge: tuple | None = None  # a side badge drawn at the box's left, inside its padding (shape, colour, radius)
    ignore: tuple[str, ...] = ()  # kinds of obstacle this label may cover (a unit's code over its town's houses)
    home: Box | None = None  # the label needs a leader line only when its box leaves this one (a unit's square)
    source: Box | None = None  # with `home`: the leader runs from the nearest point of this box (the unit's marker)
    at: str | None = None  # the kind of obstacle this label names (its objective's star): its leader may start on it
    outline: list[tuple[float, float]] | None = None  # an area's outline: a label beside it needs no leader, and a
    # leader starts at its edge (a bridge's name does not run to the star on the bridge's middle)
    plate: str | None = None  # a colour drawn under the text where it sits inside `outline` (the area's own ground)

    def __post_init__(self) -> None:
        self.text = curl_quotes(self.text)  # measured as it prints: St Mary’s, not St Mary's

    def along(self, which: str) -> list[tuple[float, float]]:
        """Points along the label's line or outline where a leader may start: a quarter of its size apart, at most
        ALONG_POINTS of them however long the line (a road zigzagging across a 480-inch table gave 100,000), worked
        out once for the label, not once for each spot it tries."""
        cache = self.__dict__.setdefault("_along", {})
        if which not in cache:
            line = getattr(self, which)
            length = sum(math.hypot(x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in zip(line, line[1:]))
            step = max(self.size * 0.25, length / ALONG_POINTS)
            cache[which] = [b.centre for b in line_blocks(line, 0.0, step)]
        return cache[which]

    def box_at(self, x: float, y: float) -> Box:
        width = text_width(self.text, self.size, self.bold) + 2 * self.padding
        return Box.centred(x, y, width, self.size * LINE_HEIGHT)


@dataclass
class Placed:
    """Where a label went: its box, and the leader line's ends when it sits away from its anchor."""

    label: Label
    box: Box
    leader: tuple[tuple[float, float], tuple[float, float]] | None = None
    crowding: float = 0.0  # how much of what was there it covers (0: it is clear of all of it)


class Index:
    """Things with boxes, bucketed by the cells of a uniform grid over the map, so that asking what lies near a box
    costs what lies near it, not everything on the map (a file naming two hundred roads gives a label thousands of
    spots to try, each asked against the map's roads). A box beyond the map counts in the edge cells it faces. A
    few things are only listed: asking each of them is quicker than finding cells (a square's trial placement)."""

    CELLS = 32  # a side of the grid
    FEW = 48  # up to this many things, `near` gives all of them

    def __init__(self, bounds: Box) -> None:
        self.left, self.top = bounds.left, bounds.top
        self.width = max(bounds.width, 1e-9) / self.CELLS
        self.height = max(bounds.height, 1e-9) / self.CELLS
        self.items: dict[int, tuple[Box, object]] = {}  # by the order they came in, which `near` keeps
        self.cells: dict[tuple[int, int], list[int]] | None = None  # made when there are more than FEW
        self.count = 0

    def _span(self, box: Box) -> tuple[range, range]:
        last = self.CELLS - 1
        left = min(max(int((box.left - self.left) // self.width), 0), last)
        right = min(max(int((box.right - self.left) // self.width), 0), last)
        top = min(max(int((box.top - self.top) // self.height), 0), last)
        bottom = min(max(int((box.bottom - self.top) // self.height), 0), last)
        return range(left, right + 1), range(top, bottom + 1)

    def _file(self, key: int, box: Box) -> None:
        columns, rows = self._span(box)
        for column in columns:
            for row in rows:
                self.cells.setdefault((column, row), []).append(key)

    def add(self, box: Box, item) -> int:
        key = self.count
        self.count += 1
        self.items[key] = (box, item)
        if self.cells is not None:
            self._file(key, box)
        elif len(self.items) > self.FEW:
            self.cells = {}
            for other, (other_box, _) in self.items.items():
                self._file(other, other_box)
        return key

    def remove(self, key: int) -> None:
        self.items.pop(key, None)  # the cells' lists keep the key; `near` passes over it

    def near(self, box: Box) -> list:
        """Everything whose box may meet `box`, in the order it came in."""
        items = self.items
        if self.cells is None:
            return [item for _, item in items.values()]
        columns, rows = self._span(box)
        keys = set()
        cells = self.cells
        for column in columns:
            for row in rows:
                found = cells.get((column, row))
                if found:
                    keys.update(found)
        return [items[key][1] for key in sorted(keys) if key in items]


def _extent(start: tuple[float, float], end: tuple[float, float]) -> Box:
    return Box(min(start[0], end[0]), min(start[1], end[1]), max(start[0], end[0]), max(start[1], end[1]))


@dataclass
class Placement:
    """The placement step for one map: obstacles first, then labels one at a time, each clear of all before it.
    Obstacles come in through `block` and labels through `place` (or `withdraw` and `keep`), so that what lies near
    a box is found from an index, not by asking everything on the map."""

    bounds: Box
    gap: float = 0.0  # clear space kept around every label
    obstacles: list[tuple[str, Box]] = field(default_factory=list)
    placed: list[Placed] = field(default_factory=list)

    def __post_init__(self) -> None:
        given, self.obstacles = self.obstacles, []
        kept, self.placed = self.placed, []
        self._blocked: dict[tuple[str, Box], int] = {}  # each obstacle's key in the index
        self._obstacles = Index(self.bounds)
        self._labels = Index(self.bounds)
        self._leaders = Index(self.bounds)
        self._keys: dict[int, tuple[int, int | None]] = {}  # id of a Placed -> its keys in _labels and _leaders
        for kind, box in given:
            self.block(box, kind)
        for placed in kept:
            self.keep(placed)

    def block(self, box: Box, kind: str) -> None:
        """Something drawn that no label may cover (a unit marker, an objective star, a side badge). The same
        thing blocked twice is one obstacle: a hundred roads along one row of squares draw one band there, and
        placement's cost then grows with the map, not with how often a file repeats itself."""
        if (kind, box) not in self._blocked:
            self._blocked[kind, box] = self._obstacles.add(box, (kind, box))
            self.obstacles.append((kind, box))

    def unblock(self, kind: str, boxes) -> None:
        """Take these obstacles of this kind away (houses a unit's marks stand on)."""
        gone = {(kind, box) for box in boxes if (kind, box) in self._blocked}
        for obstacle in gone:
            self._obstacles.remove(self._blocked.pop(obstacle))
        if gone:
            self.obstacles = [obstacle for obstacle in self.obstacles if obstacle not in gone]

    def keep(self, placed: Placed) -> None:
        """A placed label joins the map (after every label placed before it)."""
        self.placed.append(placed)
        leader = self._leaders.add(_extent(*placed.leader), placed) if placed.leader else None
        self._keys[id(placed)] = (self._labels.add(placed.box, placed), leader)

    def withdraw(self, placed: Placed) -> None:
        """Take a placed label off the map again (to try it elsewhere)."""
        self.placed.remove(placed)
        label, leader = self._keys.pop(id(placed))
        self._labels.remove(label)
        if leader is not None:
            self._leaders.remove(leader)

    def obstacles_near(self, box: Box) -> list[tuple[str, Box]]:
        """The obstacles (kind, box) that overlap `box`, in the order they were blocked."""
        return [(kind, other) for kind, other in self._obstacles.near(box) if other.overlap(box) > 0]

    def placed_near(self, box: Box) -> list[Placed]:
        """The placed labels whose boxes overlap `box`, in the order they were placed."""
        return [placed for placed in self._labels.near(box) if placed.box.overlap(box) > 0]

    def settle(self, kind: str, spots: list[Box]) -> Box:
        """Something drawn that may go in one of several spots (an objective's star in its square): the first
        spot clear, by the placement's gap, of every obstacle and label so far, else the least covered; then it
        is an obstacle too."""
        _, box = self.choose(spots)
        self.block(box, kind)
        return box

    def choose(self, spots: list[Box], ignore: tuple[str, ...] = ()) -> tuple[float, Box]:
        """The spot settle would take, and how much it covers of what is there (0 when it is clear) but for
        obstacles of the kinds in `ignore`."""
        best = None
        for box in spots:
            grown = box.grown(self.gap)
            near = [b for kind, b in self._obstacles.near(grown) if kind not in ignore]
            area = covered(grown, near + [p.box for p in self._labels.near(grown)])
            if best is None or area < best[0] - 1e-9:
                best = (area, box)
            if area == 0:
                break
        return best

    def crowding(self, label: Label, box: Box) -> float:
        """How much of other labels and obstacles the box would cover, and how far it leaves the map."""
        grown = box.grown(self.gap)
        area = covered(grown, (other.box for other in self._labels.near(grown)))
        area += covered(grown, (obstacle for kind, obstacle in self._obstacles.near(grown) if kind not in label.ignore))
        area += covered(box, label.avoid)
        if not box.inside(self.bounds):
            area += box.width * box.height - box.overlap(self.bounds) + 1e-6
        # a leader line is drawn too: the box may not lie across one already drawn, and its own leader may not
        # cross a label, a leader or anything drawn but what it names; each crossing costs a label's square
        crossings = sum(1 for other in self._leaders.near(grown) if crosses(*other.leader, grown))
        leader = self._leader(label, box)
        if leader is not None:
            crossings += len(self.leader_crossings(label, leader))
        return area + crossings * label.size**2

    def place(self, label: Label) -> Placed:
        """Put the label at its first candidate spot that is clear; if none is, at the least crowded one."""
        best = None
        # a label with nowhere to try (a named line whose two ends are one point has no side) goes on what it names
        for x, y in label.candidates or [label.anchor]:
            box = label.box_at(x, y)
            crowding = self.crowding(label, box)
            if crowding == 0:
                best = (0.0, box)
                break
            if best is None or crowding < best[0] - 1e-9:
                best = (crowding, box)
        box = best[1]
        placed = Placed(label, box, self._leader(label, box), best[0])
        self.keep(placed)
        return placed

    def leader_crossings(self, label: Label, leader, placed=None) -> list[str]:
        """What a label's leader line would pass through: other labels' boxes, their leaders, and the pieces drawn
        on the map (LEADER_AVOIDS) but the one it starts on (its objective's star, its unit's marker), as phrases."""
        start, end = leader
        extent = _extent(start, end)
        found = []
        if placed is None:
            placed = list(
                {id(other): other for other in self._labels.near(extent) + self._leaders.near(extent)}.values()
            )
        for other in placed:
            if other.label is label:
                continue
            if crosses(start, end, other.box):
                found.append(f"label {other.label.text!r}")
            if other.leader and segments_cross(leader, other.leader):
                found.append(f"the leader of {other.label.text!r}")
        for kind, obstacle in self._obstacles.near(extent):
            if kind not in LEADER_AVOIDS or kind in label.ignore:
                continue
            if kind == label.at and obstacle.grown(1e-6).nearest(*start) == start:
                continue
            if crosses(start, end, obstacle):
                found.append(f"a {kind}")
        return found

    def _leader(self, label: Label, box: Box):
        """A leader from the nearest point of what the label names to the nearest point of its box, if far apart."""
        if label.home is not None:
            if box.inside(label.home):
                return None
            start = (label.source or Box.centred(*label.anchor, 0, 0)).nearest(*box.centre)
            return (start, box.nearest(*start))
        reach = label.size * 0.6 if label.reach is None else label.reach
        points = label.along("line") if label.line else [label.anchor]
        ends = []
        for ax, ay in points:
            nx, ny = box.nearest(ax, ay)
            ends.append((math.hypot(nx - ax, ny - ay), (ax, ay), (nx, ny)))
        distance, start, end = min(ends)
        if distance <= reach:
            return None
        if label.outline:
            if all(within(corner, label.outline) for corner in box.corners):
                return None  # a name inside its own area names it: a line from the area's edge would read as a wall
            edge = label.along("outline")
            distance, start, end = min(
                (math.hypot(nx - ax, ny - ay), (ax, ay), (nx, ny))
                for ax, ay in edge
                for nx, ny in [box.nearest(ax, ay)]
            )
        return None if distance <= reach else (start, end)

    def collisions(self) -> list[str]:
        """Every pair of labels whose boxes overlap, every label over an obstacle and every objective over
        anything else drawn (a unit marker, its arrow), as sentences (for tests)."""
        found = []
        for i, (kind, box) in enumerate(self.obstacles):
            for other_kind, other in self.obstacles[i + 1 :]:
                # a star marks a point and may lie on a line or an outline; never on a unit or its arrow
                unit = {kind, other_kind} & {"unit marker", "facing arrow"}
                if OBJECTIVE in (kind, other_kind) and unit and box.overlap(other) > 1e-6:
                    found.append(f"an objective overlaps a {other_kind if kind == OBJECTIVE else kind}")
        for i, first in enumerate(self.placed):
            for second in self.placed[i + 1 :]:
                if first.box.overlap(second.box) > 1e-6:
                    found.append(f"label {first.label.text!r} overlaps label {second.label.text!r}")
            for kind, obstacle in self.obstacles:
                if first.box.overlap(obstacle) > 1e-6:
                    found.append(f"label {first.label.text!r} overlaps a {kind}")
            if first.leader is not None:
                others = [p for p in self.placed if p is not first]
                for what in self.leader_crossings(first.label, first.leader, others):
                    found.append(f"the leader of {first.label.text!r} crosses {what}")
        return found


def within(point: tuple[float, float], outline: list[tuple[float, float]]) -> bool:
    """Whether the point lies inside the closed outline (a polygon's corners in order), by the even-odd rule."""
    x, y = point
    inside = False
    for (ax, ay), (bx, by) in zip(outline, outline[1:] + outline[:1]):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def crosses(start: tuple[float, float], end: tuple[float, float], box: Box) -> bool:
    """Whether the segment from `start` to `end` passes through the inside of the box (touching its edge does not
    count): the box clips the segment to a piece of positive length (Liang and Barsky's clipping)."""
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - box.left), (dx, box.right - x0), (-dy, y0 - box.top), (dy, box.bottom - y0)):
        if p == 0:
            if q <= 1e-9:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low >= high:
            return False
    return (high - low) * math.hypot(dx, dy) > 1e-6


def segments_cross(first, second) -> bool:
    """Whether two segments cross at a point inside both (segments that only meet at an end do not)."""
    (ax, ay), (bx, by) = first
    (cx, cy), (dx, dy) = second

    def side(px, py, qx, qy, rx, ry) -> float:
        return (qx - px) * (ry - py) - (qy - py) * (rx - px)

    d1, d2 = side(cx, cy, dx, dy, ax, ay), side(cx, cy, dx, dy, bx, by)
    d3, d4 = side(ax, ay, bx, by, cx, cy), side(ax, ay, bx, by, dx, dy)
    return d1 * d2 < -1e-12 and d3 * d4 < -1e-12


def around(x: float, y: float, width: float, height: float, reach: float, steps: int = 3) -> list[tuple[float, float]]:
    """Box centres for a label of this size round a point: on it, then above, below, beside and at the
    corners, each ring `reach` further out, so the nearest clear spot wins."""
    spots = [(x, y)]
    for ring in range(1, steps + 1):
        dx = width / 2 + reach * ring
        dy = height / 2 + reach * ring
        spots += [(x, y - dy), (x, y + dy), (x + dx, y), (x - dx, y)]
        spots += [(x + dx, y - dy), (x - dx, y - dy), (x + dx, y + dy), (x - dx, y + dy)]
    return spots


def beside_line(
    line: list[tuple[float, float]], line_width: float, width: float, height: float, gap: float
) -> list[tuple[float, float]]:
    """Box centres for a label that sits beside a line (a road, river, wall or hedge), never on it: at
    the middle of each segment and along it, pushed off to either side by half the line's width, half
    the box's extent across the line and a gap. Longest segments first."""
    segments = sorted(zip(line, line[1:]), key=lambda seg: -math.hypot(seg[1][0] - seg[0][0], seg[1][1] - seg[0][1]))
    spots = []
    for t in (0.5, 0.3, 0.7, 0.15, 0.85):
        for (x0, y0), (x1, y1) in segments:
            length = math.hypot(x1 - x0, y1 - y0)
            if length == 0:
                continue
            ux, uy = (x1 - x0) / length, (y1 - y0) / length
            nx, ny = -uy, ux
            across = line_width / 2 + abs(nx) * width / 2 + abs(ny) * height / 2 + gap
            px, py = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            spots += [(px + nx * across, py + ny * across), (px - nx * across, py - ny * across)]
    return spots


def line_blocks(line: list[tuple[float, float]], line_width: float, step: float) -> list[Box]:
    """A line drawn `line_width` wide as small boxes along it, so a label can be kept off the line itself."""
    boxes = []
    half = line_width / 2
    for (x0, y0), (x1, y1) in zip(line, line[1:]):
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
        for i in range(n + 1):
            x, y = x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n
            boxes.append(Box(x - half, y - half, x + half, y + half))
    return boxes


def leader_svg(placed: Placed, stroke_width: float) -> str:
    """A thin line from what a label names to the label, drawn under the label's box."""
    if placed.leader is None:
        return ""
    (ax, ay), (bx, by) = placed.leader
    return (
        f'<path class="leader" d="M{ax:.2f} {ay:.2f} L{bx:.2f} {by:.2f}" stroke="#333" '
        f'stroke-width="{stroke_width:.2f}" fill="none"/>'
    )
