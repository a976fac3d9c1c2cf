"""Map label placement: each label's box measured from its text, tried at candidate spots, kept clear of the rest."""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

from .fonts import text_width
from .markup import curl_quotes

# A map is drawn in its own user units; every size here is in those units. A label is placed at the
# first of its candidate spots where its box stays inside the map and clear of every label placed
# before it and of every obstacle (unit markers, objective stars, side badges); a label that has to
# move away from what it names gets a leader line back to it.

LINE_HEIGHT = 1.2  # a label's box is this many font sizes tall
LINE_PIECES = 12  # a line's name is tried beside its longest pieces and as many spread along it (beside_line)
# a spot covering four times its own area of what is drawn, or over CROWDED things, is as crowded as any: its
# measuring stops there (Placement.crowding)
SATURATED = 4.0
CROWDED = 64
# the most boxes of labels and obstacles one map's placement looks at (each example's map looks at under 3,000):
# past them, each label left takes its first spot unmeasured (120 roads 24 inches wide zigzagging across a table,
# every spot crowded, took 100 s); a few seconds of work
WORK = 5_000_000
OBJECTIVE = "objective"  # an objective's mark: nothing else drawn may cover it, nor it anything
# boxes that touch to within this (a millionth of a map unit) only touch: spots worked out by adding a gap to an
# inset and a frame's width meet at 80.4 and 80.39999999999999, and that rounding must not count as crowding (a
# code then left its own square for a leader, Weissach's B5)
TOUCH = 1e-6
# what a leader line may not pass through besides labels and other leaders: the marks a player reads as pieces on
# the table (a line across a road or an outline is only a line beside another)
LEADER_AVOIDS = frozenset({"unit marker", "facing arrow", OBJECTIVE})


class Covered(float):
    """An area covered, which is a float, and how many things cover it (`hits`)."""

    hits: int
    seen: int  # how many things were looked at

    def __new__(cls, area: float, hits: int, seen: int = 0) -> Covered:
        made = super().__new__(cls, area)
        made.hits, made.seen = hits, seen
        return made


def covered(box: Box, others, enough: float = math.inf, most: int | None = None) -> Covered:
    """The area `box` shares with each of `others` (boxes and bands), summed in their order: each one's overlap,
    with those that cannot meet it passed over first (placement asks this of every obstacle for every spot). The
    sum stops once it reaches `enough`, or once `most` of them have met the box: a spot already worse than the
    best found need not be measured further."""
    left, top, right, bottom = box.left, box.top, box.right, box.bottom
    total = 0.0
    hits = seen = 0
    for other in others:
        seen += 1
        if (
            other.right <= left + TOUCH
            or other.left >= right - TOUCH
            or other.bottom <= top + TOUCH
            or other.top >= bottom - TOUCH
        ):
            continue
        area = other.overlap(box)
        if area:
            total += area
            hits += 1
            if total >= enough or hits == most:
                break
    return Covered(total, hits, seen)


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

    def onto(self, area: Box) -> Box:
        """The box moved the least way that puts it inside `area` (unmoved along a side it is too long for)."""
        dx = _slide(self.left, self.right, area.left, area.right)
        dy = _slide(self.top, self.bottom, area.top, area.bottom)
        return self if dx == dy == 0 else Box(self.left + dx, self.top + dy, self.right + dx, self.bottom + dy)

    def nearest(self, x: float, y: float) -> tuple[float, float]:
        """The point of the box nearest to (x, y)."""
        return (min(max(x, self.left), self.right), min(max(y, self.top), self.bottom))


@dataclass(frozen=True, slots=True)
class Band:
    """A straight piece of a line drawn `width` wide (a road, a wall, an area's outline, a zone's edge), as an
    obstacle of its true shape. Cut into boxes along it, a road zigzagging across a 480-inch table was 100,000 of
    them (and 120 such outlines more than 2 GiB); a band is one, and a label may sit as close to a slanting road
    as to a straight one. Its left, top, right and bottom are its extent, as a box's are."""

    start: tuple[float, float]
    end: tuple[float, float]
    width: float
    left: float = field(init=False, compare=False)
    top: float = field(init=False, compare=False)
    right: float = field(init=False, compare=False)
    bottom: float = field(init=False, compare=False)
    _least: float = field(init=False, compare=False, repr=False)
    _area: float = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        (x0, y0), (x1, y1) = self.start, self.end
        length = math.hypot(x1 - x0, y1 - y0)
        corners = self.corners
        set_ = object.__setattr__
        set_(self, "left", min(x for x, _ in corners))
        set_(self, "top", min(y for _, y in corners))
        set_(self, "right", max(x for x, _ in corners))
        set_(self, "bottom", max(y for _, y in corners))
        set_(self, "_least", TOUCH * (length + self.width))  # an overlap thinner than TOUCH only touches
        set_(self, "_area", length * self.width)

    @property
    def corners(self) -> list[tuple[float, float]]:
        """The band's four corners: the piece pushed half the width to either side (butt ends, as drawn); worked
        out when asked, not kept (a map of zigzag woods holds a quarter of a million bands)."""
        (x0, y0), (x1, y1) = self.start, self.end
        length = math.hypot(x1 - x0, y1 - y0)
        half = self.width / 2
        nx, ny = ((y0 - y1) / length * half, (x1 - x0) / length * half) if length else (0.0, 0.0)
        return [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)]

    def overlap(self, box: Box) -> float:
        """The area of the band inside the box: the band clipped to each of the box's sides in turn (Sutherland
        and Hodgman), then measured (0 when they only touch, to within TOUCH)."""
        if (
            self.right <= box.left + TOUCH
            or self.left >= box.right - TOUCH
            or self.bottom <= box.top + TOUCH
            or self.top >= box.bottom - TOUCH
        ):
            return 0.0
        if self.left >= box.left and self.right <= box.right and self.top >= box.top and self.bottom <= box.bottom:
            return self._area if self._area > self._least else 0.0  # all of it inside
        polygon = self.corners
        for axis, limit, keep_below in (
            (0, box.left, False),
            (0, box.right, True),
            (1, box.top, False),
            (1, box.bottom, True),
        ):
            clipped = []
            for i, point in enumerate(polygon):
                before = polygon[i - 1]
                inside = point[axis] <= limit if keep_below else point[axis] >= limit
                was_inside = before[axis] <= limit if keep_below else before[axis] >= limit
                if inside != was_inside:
                    t = (limit - before[axis]) / (point[axis] - before[axis])
                    clipped.append((before[0] + (point[0] - before[0]) * t, before[1] + (point[1] - before[1]) * t))
                if inside:
                    clipped.append(point)
            polygon = clipped
            if len(polygon) < 3:
                return 0.0
        area = abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]))) / 2
        return area if area > self._least else 0.0

    def grown(self, by: float) -> Band:
        return Band(self.start, self.end, self.width + 2 * by)


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

    def each_near(self, box: Box):
        """What `near` gives, one at a time: the cells' keys (each cell's in the order they came) merged as they
        are asked for, so a caller that stops early (a spot found too crowded) pays for what it looked at."""
        items = self.items
        if self.cells is None:
            yield from [item for _, item in items.values()]
            return
        columns, rows = self._span(box)
        cells = self.cells
        found = [cells[column, row] for column in columns for row in rows if (column, row) in cells]
        last = None
        for key in found[0] if len(found) == 1 else heapq.merge(*found):
            if key != last and key in items:
                yield items[key][1]
            last = key

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


def _slide(low: float, high: float, least: float, most: float) -> float:
    """How far to move the span low..high to lie within least..most: 0 if it does, or cannot (too long)."""
    if high - low > most - least:
        return 0.0
    if low < least:
        return least - low
    if high > most:
        return most - high
    return 0.0


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
        self.spent = 0  # how many labels' and obstacles' boxes placing labels has looked at (WORK at most)
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

    def block_line(self, line: list[tuple[float, float]], width: float, kind: str) -> None:
        """A line drawn `width` wide (a road, an outline, a zone's edge) that no label may cover: its bands, cut
        into pieces no longer than a cell of the index (so each is found only near where it runs), and a square
        at each of its points for the joins."""
        # a piece as wide as the map lies in every cell however short it is cut: no shorter than the line is wide
        step = max(min(self._obstacles.width, self._obstacles.height), width)
        for (x0, y0), (x1, y1) in zip(line, line[1:]):
            pieces = math.ceil(math.hypot(x1 - x0, y1 - y0) / step)
            if pieces == 0:  # two points in one place: the square at the point covers them
                continue
            ends = [(x0 + (x1 - x0) * i / pieces, y0 + (y1 - y0) * i / pieces) for i in range(pieces + 1)]
            for start, end in zip(ends, ends[1:]):
                self.block(Band(start, end, width), kind)
        for x, y in line:
            self.block(Box.centred(x, y, width, width), kind)

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

    def choose(self, spots: list[Box], ignore: tuple[str, ...] = ()) -> tuple[float, Box]:
        """Of the spots where something drawn may go (an objective's star in its square), the first clear, by the
        placement's gap, of every obstacle and label so far, else the least covered; and how much it covers of
        what is there (0 when it is clear) but for obstacles of the kinds in `ignore`. Spots lie close together:
        their neighbours are asked for once."""
        best = None
        if not spots:
            return best
        # what lies near any of the spots, asked once: each spot's own neighbours are among them in the same
        # order, and covered() passes over the rest, so each spot's sum is the one its own neighbours give
        # (asking the grid for every spot was half of Weissach's map)
        reach = Box(
            min(box.left for box in spots),
            min(box.top for box in spots),
            max(box.right for box in spots),
            max(box.bottom for box in spots),
        ).grown(self.gap)
        near = [b for kind, b in self._obstacles.near(reach) if kind not in ignore]
        near += [p.box for p in self._labels.near(reach)]
        for box in spots:
            grown = box.grown(self.gap)
            # a spot already as covered as the best need not be measured to the end: it cannot be chosen
            area = covered(grown, near, math.inf if best is None else best[0])
            if best is None or area < best[0] - 1e-9:
                best = (area, box)
            if area == 0:
                break
        return best

    def crowding(self, label: Label, box: Box, enough: float = math.inf) -> float:
        """How much of other labels and obstacles the box would cover, and how far it leaves the map; measured
        until it reaches `enough` (then it is infinite, no better than the best so far) or SATURATED times the
        box's area (then it is that much): on a map of a hundred zigzag woods no spot is clear, and each was
        measured against every band near it."""
        grown = box.grown(self.gap)
        most = SATURATED * grown.width * grown.height
        limit = min(enough, most)
        area = 0.0
        if not box.inside(self.bounds):
            area += box.width * box.height - box.overlap(self.bounds) + 1e-6
        hits = 0
        ignore = label.ignore
        for target, others in (
            (box, label.avoid),
            (grown, (other.box for other in self._labels.each_near(grown))),
            (grown, (obstacle for kind, obstacle in self._obstacles.each_near(grown) if kind not in ignore)),
        ):
            part = covered(target, others, limit - area, CROWDED - hits)
            area += part
            hits += part.hits
            self.spent += part.seen
            if area >= limit or hits >= CROWDED:
                break
        if area >= enough:
            return math.inf  # no better than the best spot so far: how much worse is not asked
        if area >= most or hits >= CROWDED:
            return most  # saturated (a map of a hundred zigzag woods has no clear spot; each tie goes to the first)
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
        spots = label.candidates or [label.anchor]
        if self.spent > WORK:  # the map's measuring is spent: the label takes its first spot
            spots = spots[:1]
        # a spot reaching off the map slides back onto it, a gap in from its edge: a name round a piece by the
        # table's edge went out over the frame and the scale's numbers when every spot near its piece was taken
        inner = self.bounds.grown(-self.gap)
        tried = set()
        for x, y in spots:
            box = label.box_at(x, y).onto(inner)
            if box in tried:
                continue
            tried.add(box)
            crowding = self.crowding(label, box, best[0] - 1e-9 if best else math.inf)
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
        if label.line:
            distance, start, end = nearest_between(label.line, box)
        else:
            start = label.anchor
            end = box.nearest(*start)
            distance = math.hypot(end[0] - start[0], end[1] - start[1])
        if distance <= reach:
            return None
        if label.outline:
            if all(within(corner, label.outline) for corner in box.corners):
                return None  # a name inside its own area names it: a line from the area's edge would read as a wall
            distance, start, end = nearest_between(label.outline, box)
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
                if kind in first.label.ignore:  # what the label may cover (its own token's room)
                    continue
                if obstacle.overlap(first.box) > 1e-6:  # a band measures its own shape
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
    count): the box clips the segment to a piece of positive length."""
    return _clipped(start, end, box) is not None


def _clipped(start: tuple[float, float], end: tuple[float, float], box: Box) -> tuple[float, float] | None:
    """The part of the segment from `start` to `end` inside the box, as fractions of the way along it (from, to),
    or None where that part has no length (Liang and Barsky's clipping)."""
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - box.left), (dx, box.right - x0), (-dy, y0 - box.top), (dy, box.bottom - y0)):
        if p == 0:
            if q <= 1e-9:
                return None
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low >= high:
            return None
    return (low, high) if (high - low) * math.hypot(dx, dy) > 1e-6 else None


def outside(line: list[tuple[float, float]], boxes: list[Box]) -> list[list[tuple[float, float]]]:
    """The pieces of a line (its points in order) that lie outside every box: a line drawn under labels and marks
    is cut where they stand instead of showing either side of them (a fortification's zigzag under a unit's code)."""
    pieces: list[list[tuple[float, float]]] = []
    piece: list[tuple[float, float]] = [line[0]] if line else []
    for start, end in zip(line, line[1:]):
        cuts = sorted(cut for box in boxes if (cut := _clipped(start, end, box)))
        at = 0.0
        for low, high in cuts:
            if low > at:  # the segment runs on outside every box from `at` to `low`, then goes under one
                piece.append(_along(start, end, low))
                pieces.append(piece)
            elif at == 0.0 and len(piece) > 1:
                pieces.append(piece)  # the segment goes under a box as it starts: the piece so far ends here
            at = max(at, high)
            piece = [_along(start, end, at)]
        if at < 1.0:
            piece.append(end)
    if len(piece) > 1:
        pieces.append(piece)
    return pieces


def _along(start: tuple[float, float], end: tuple[float, float], t: float) -> tuple[float, float]:
    return (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)


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


def spread(items: list, most: int) -> list:
    """Up to `most` of the items, the first and the last among them, evenly spaced along the list, in its order."""
    if len(items) <= most:
        return items
    return [items[round(i * (len(items) - 1) / (most - 1))] for i in range(most)]


def beside_line(
    line: list[tuple[float, float]], line_width: float, width: float, height: float, gap: float
) -> list[tuple[float, float]]:
    """Box centres for a label that sits beside a line (a road, river, wall or hedge), never on it: at
    the middle of each segment and along it, pushed off to either side by half the line's width, half
    the box's extent across the line and a gap. Longest segments first; of a line of many pieces, the
    LINE_PIECES longest and LINE_PIECES spread from its first to its last (a road of 64 zigzags gave its
    name 1,890 spots, each measured against every road near it)."""

    def longest(i: int) -> tuple[float, int]:
        (x0, y0), (x1, y1) = pieces[i]
        return (-math.hypot(x1 - x0, y1 - y0), i)

    pieces = list(zip(line, line[1:]))
    order = list(range(len(pieces)))
    chosen = set(sorted(order, key=longest)[:LINE_PIECES]) | set(spread(order, LINE_PIECES))
    segments = [pieces[i] for i in sorted(chosen, key=longest)]
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


def line_bands(line: list[tuple[float, float]], width: float) -> list:
    """A line drawn `width` wide as obstacles: a band for each piece between two of its points, and a square at
    each point for the joins (and for a line whose points are all one)."""
    bands: list = [Band(start, end, width) for start, end in zip(line, line[1:]) if start != end]
    return bands + [Box.centred(x, y, width, width) for x, y in line]


def nearest_between(line: list[tuple[float, float]], box: Box) -> tuple[float, tuple, tuple]:
    """How near the line (its points in order) comes to the box, with the nearest point of each: exact, from each
    piece of the line, passing over pieces whose extent lies further off than the nearest found so far."""
    pieces = list(zip(line, line[1:])) or [(line[0], line[0])]
    best = None
    for start, end in pieces:
        if best is not None:
            across = max(min(start[0], end[0]) - box.right, box.left - max(start[0], end[0]), 0.0)
            down = max(min(start[1], end[1]) - box.bottom, box.top - max(start[1], end[1]), 0.0)
            if math.hypot(across, down) >= best[0]:
                continue
        found = _segment_to_box(start, end, box)
        if best is None or found[0] < best[0]:
            best = found
            if best[0] == 0:
                break
    return best


def _segment_to_box(start, end, box: Box) -> tuple[float, tuple, tuple]:
    """The distance from a segment to a box and the nearest point of each. Apart, a segment and a box come nearest
    at an end of the segment or at a corner of the box; a segment through the box is at no distance from it."""
    if box.nearest(*start) == start:
        return (0.0, start, start)
    if crosses(start, end, box):
        return (0.0, start, box.nearest(*start))
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    length = dx * dx + dy * dy
    found = []
    for point in (start, end):
        near = box.nearest(*point)
        found.append((math.hypot(near[0] - point[0], near[1] - point[1]), point, near))
    for cx, cy in box.corners:
        t = min(max(((cx - x0) * dx + (cy - y0) * dy) / length, 0.0), 1.0) if length else 0.0
        point = (x0 + dx * t, y0 + dy * t)
        found.append((math.hypot(cx - point[0], cy - point[1]), point, (cx, cy)))
    # a piece running beside the box, square to the page, is as near all along where the two face each other: the
    # leader goes from the middle of that stretch, straight across (not from the box's corner)
    if dx == 0 or dy == 0:
        axis = 1 if dx == 0 else 0
        low = max(min(start[axis], end[axis]), (box.left, box.top)[axis])
        high = min(max(start[axis], end[axis]), (box.right, box.bottom)[axis])
        if low <= high:
            middle = (low + high) / 2
            point = (x0, middle) if axis else (middle, y0)
            near = box.nearest(*point)
            found.append((math.hypot(near[0] - point[0], near[1] - point[1]) - 1e-12, point, near))
    return min(found)


def leader_svg(placed: Placed, stroke_width: float) -> str:
    """A thin line from what a label names to the label, drawn under the label's box."""
    if placed.leader is None:
        return ""
    (ax, ay), (bx, by) = placed.leader
    return (
        f'<path class="leader" d="M{ax:.2f} {ay:.2f} L{bx:.2f} {by:.2f}" stroke="#333" '
        f'stroke-width="{stroke_width:.2f}" fill="none"/>'
    )
