"""A table measured in inches or centimetres, as scenario keys: its size, terrain, objectives and deployment zones.

Fireteam Tomorrow, WarSpike and Para Bellum share these models (Morschauser keeps its grid). The terrain kinds
are the system's rule data's (`terrain`, each a `name`): the kind's key is declared FromRules, so a club's house
rules that add a kind let a scenario place it. A side's `deployment` is one rectangle, as the first Fireteam
scenarios wrote it, or a list of zones: rectangles, polygons, and table edges ("enters from the north edge").

`check` reports what no single key can: pieces, objectives and zones past the table's edges, and zones of
opposing sides that overlap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .models import FromRules, Model, OneOf, Typed, key
from .scenario import NAME_PATTERN
from .schema import Bool, Checker, Choice, Int, ListOf, Num, Numbers, Str

SHAPES = ("rect", "circle", "polygon", "line")
ZONE_SHAPES = ("rect", "polygon", "edge")
EDGES = ("north", "east", "south", "west")  # the top, right, bottom and left of the printed map
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}
LABEL = Str(40, NAME_PATTERN, "a label")
NAME = Str(40, NAME_PATTERN, "a name (no control characters, < > { } or \\)")
POINT = Numbers(("x", "y"), 0, 480)
RECTANGLE = Numbers(("x", "y", "width", "depth"), 0, 480)
EDGE = 1e-9  # a piece exactly on the table's edge is on the table
HIDDEN_MARK = (
    "Known to this side's players alone: drawn on the map of its orders handout, never on the shared map or the other "
    "side's."
)


@dataclass(frozen=True)
class TableSize(Model):
    """The table's size, in the scenario's unit of distance."""

    width: int = key(Int(12, 480), "Table width (left to right), in the scenario's unit of distance.")
    depth: int = key(Int(12, 480), "Table depth (top to bottom), in the scenario's unit of distance.")


@dataclass(frozen=True)
class Objective(Model):
    """An objective marked on the map."""

    name: str = key(NAME, "The objective's name as printed on the map.")
    at: list = key(POINT, "Where it is, measured from the table's top-left corner.")
    points: int | None = key(Int(0, 100), "Victory points, if the scenario scores them.", default=None)


@dataclass(frozen=True)
class Feature(Model):
    """A terrain piece: a kind, an optional name, and exactly one shape."""

    kind: str = key(
        FromRules(lambda rules: Choice([t.name for t in rules.terrain], "a terrain kind, one of")),
        "The kind of terrain, one the system's rule data names (`muster rules SYSTEM`, under terrain).",
    )
    name: str = key(LABEL, "A label printed on the map.", default="")
    rect: list | None = key(
        RECTANGLE, "A rectangle [x, y, width, depth] from the table's top-left corner.", default=None
    )
    circle: list | None = key(Numbers(("x", "y", "radius"), 0, 480), "A circle [x, y, radius].", default=None)
    polygon: list | None = key(ListOf(POINT, min=3, max=64), "Corner points, each [x, y].", default=None)
    line: list | None = key(
        ListOf(POINT, min=2, max=64), "A road, river, wall or hedge along these points.", default=None
    )
    width: float | None = key(Num(0.2, 24), "The width of a line feature.", default=None)

    @property
    def shape(self) -> str:
        """The one shape key given (checked by after)."""
        return next(name for name in SHAPES if getattr(self, name) is not None)

    @property
    def points(self) -> list[tuple[float, float]]:
        """The points the piece reaches to, for the edge checks: a circle's bounding corners."""
        if self.rect is not None:
            return rect_ring(self.rect)
        if self.circle is not None:
            x, y, radius = self.circle
            return [(x - radius, y - radius), (x + radius, y + radius)]
        return [tuple(p) for p in (self.polygon or self.line)]

    def after(self, path, checker):
        given = [name for name in SHAPES if getattr(self, name) is not None]
        if len(given) != 1:
            checker.report(
                path, f"a terrain piece has exactly one shape of {', '.join(SHAPES)} (got {len(given) or 'none'})"
            )
        if self.line is not None and self.width is None:
            checker.report(path, "a line feature needs a width")


@dataclass(frozen=True)
class Zone(Model):
    """One deployment zone of a side: a rectangle, a polygon, or a strip along a table edge."""

    rect: list | None = key(
        RECTANGLE, "A rectangle [x, y, width, depth] from the table's top-left corner.", default=None
    )
    polygon: list | None = key(ListOf(POINT, min=3, max=32), "Corner points, each [x, y].", default=None)
    edge: str | None = key(
        Choice(list(EDGES), "a table edge, one of"),
        "A table edge (north is the map's top): with `depth`, the side deploys within that distance of it; "
        "without, the side enters the table from that edge.",
        default=None,
    )
    depth: float | None = key(Num(0.5, 240), "How far in from `edge` the zone reaches.", default=None)
    name: str = key(LABEL, "A label for the zone on the map, such as 'Ambush' or 'Reserves'.", default="")
    hidden: bool = key(Bool(), HIDDEN_MARK, default=False)

    @property
    def shape(self) -> str:
        return next(name for name in ZONE_SHAPES if getattr(self, name) is not None)

    @property
    def enters(self) -> bool:
        """Whether the side enters from an edge rather than deploying on the table."""
        return self.edge is not None and self.depth is None

    def ring(self, table: TableSize) -> list[tuple[float, float]]:
        """The zone's outline, closed; an edge without depth has none."""
        if self.rect is not None:
            return rect_ring(self.rect)
        if self.polygon is not None:
            return [tuple(p) for p in self.polygon] + [tuple(self.polygon[0])]
        if self.depth is None:
            return []
        return rect_ring(edge_strip(self.edge, self.depth, table))

    def after(self, path, checker):
        given = [name for name in ZONE_SHAPES if getattr(self, name) is not None]
        if len(given) != 1:
            checker.report(
                path, f"a deployment zone has exactly one of {', '.join(ZONE_SHAPES)} (got {len(given) or 'none'})"
            )
        elif self.depth is not None and self.edge is None:
            checker.report(path + ("depth",), "`depth` is how far a zone reaches in from its `edge`; give the edge")


@dataclass(frozen=True)
class Reinforcement(Model):
    """Troops that come onto the table during the game: where, and from which turn."""

    name: str = key(LABEL, "What arrives, as printed beside its arrow: 'Second column', 'Armoured reserve'.")
    at: list = key(POINT, "Where they come on, usually a point on a table edge, from the table's top-left corner.")
    turn: int | None = key(
        Int(1, 99),
        "The turn they arrive on (in Fireteam Tomorrow, the pass through the deck), where the scenario fixes one.",
        default=None,
    )
    hidden: bool = key(Bool(), HIDDEN_MARK, default=False)


@dataclass(frozen=True)
class Move(Model):
    """A planned move, drawn as an arrow in the side's colour: a line from where it starts to where it ends."""

    path: list = key(ListOf(POINT, min=2, max=16), "The move's way, point by point; the arrowhead is at the last.")
    name: str = key(LABEL, "A label printed beside the arrow: 'Flank march'.", default="")
    hidden: bool = key(Bool(), HIDDEN_MARK, default=False)

    def after(self, path, checker):
        points = [tuple(p) for p in self.path]
        if len(set(points)) < 2:
            checker.report(path + ("path",), "a move goes somewhere: its points are all one place")
        elif points[-1] == points[-2]:
            # an arrow whose last leg has no length has no head's direction: it printed as a line without a head
            checker.report(
                path + ("path", len(points) - 1),
                "the last two points are one place, so the arrow's head points nowhere: leave one out",
            )


REINFORCEMENTS = ListOf(Typed(Reinforcement), max=8)
REINFORCEMENTS_DOC = (
    "Troops arriving during the game, each a `name`, the point `at` which they come on and the `turn` they arrive: "
    "drawn as an arrow onto the table in the side's colour."
)
MOVES = ListOf(Typed(Move), max=12)
MOVES_DOC = (
    "Planned moves, each a `path` of points and an optional `name`: drawn as dashed arrows in the side's colour."
)
AT_DOC = (
    "Where it starts, [x, y] from the table's top-left corner: drawn on the map with its side's shape and its name."
)


def _numbers(value) -> bool:
    return isinstance(value, list) and all(isinstance(item, (int, float)) for item in value)


DEPLOYMENT = OneOf(
    "a rectangle [x, y, width, depth], or a list of zones",
    [(_numbers, RECTANGLE), (lambda value: True, ListOf(Typed(Zone), min=1, max=8))],
)


@dataclass(frozen=True)
class OnTable:
    """What one side puts on the map: its deployment (a rectangle or zones), reinforcements, planned moves, and the
    starting point of each unit given one: (its name, [x, y], the path of its `at` under the side)."""

    deployment: Any = None
    reinforcements: list = ()
    moves: list = ()
    units: list = ()

    @classmethod
    def of(cls, side, *lists: str) -> OnTable:
        """A typed side's marks, its units from its lists named ('teams', 'vehicles', 'units'): each item given an
        `at`."""
        units = [
            (item.name, item.at, (name, i, "at"))
            for name in lists
            for i, item in enumerate(getattr(side, name))
            if item.at is not None
        ]
        return cls(side.deployment, list(side.reinforcements), list(side.moves), units)

    def marks(self, viewer: bool = True) -> tuple[list, list, list]:
        """The side's zones, reinforcements and moves a map shows: on its own side's map (`viewer`) every one, on
        any other only those not hidden."""
        return (
            [z for z in zones(self.deployment) if viewer or not z.hidden],
            [r for r in self.reinforcements if viewer or not r.hidden],
            [m for m in self.moves if viewer or not m.hidden],
        )

    @property
    def hidden(self) -> bool:
        """Whether anything of the side's is drawn on its own map alone."""
        shared = self.marks(viewer=False)
        return any(len(a) != len(b) for a, b in zip(self.marks(), shared))


def places_anything(sides: list[dict], units: str) -> bool:
    """Whether any side of a validated scenario puts something on a map: a deployment, reinforcements, planned moves
    or a starting point on one of its `units` (a system whose map is optional then draws one on its default table:
    reinforcements given alone were neither drawn nor checked, and their words under no map had no table to read)."""
    for side in sides:
        if side.get("deployment") or side.get("reinforcements") or side.get("moves"):
            return True
        if any(getattr(unit, "at", None) is not None for unit in side.get(units) or []):
            return True
    return False


def zones(deployment) -> list[Zone]:
    """A side's deployment as zones: one rectangle written alone is one zone."""
    if not deployment:
        return []
    if _numbers(deployment):
        return [Zone(rect=list(deployment))]
    return list(deployment)


def rect_ring(rect) -> list[tuple[float, float]]:
    """A rectangle [x, y, w, h]'s outline as a closed line, corner to corner."""
    x, y, w, h = rect
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]


def edge_strip(edge: str, depth: float, table) -> list[float]:
    """The rectangle [x, y, w, h] within `depth` of a table edge."""
    width, full = table.width, table.depth
    depth = min(depth, full if edge in ("north", "south") else width)
    return {
        "north": [0, 0, width, depth],
        "south": [0, full - depth, width, depth],
        "west": [0, 0, depth, full],
        "east": [width - depth, 0, depth, full],
    }[edge]


def zone_words(zone: Zone, unit_mark: str) -> str:
    """Where a zone lies, in the map's measures: "0–28″ across and 38–48″ down" (a zone's edge between two of the
    map's ticks is read here, not guessed from the drawing), "within 12″ of the north edge", "enters from the
    north edge"; a polygon by the span of its corners."""
    if zone.enters:
        return f"enters from the {zone.edge} edge"
    if zone.edge is not None:
        return f"within {zone.depth:g}{unit_mark} of the {zone.edge} edge"
    xs = [p[0] for p in zone.ring(None)]
    ys = [p[1] for p in zone.ring(None)]
    span = f"{min(xs):g}\u2013{max(xs):g}{unit_mark} across and {min(ys):g}\u2013{max(ys):g}{unit_mark} down"
    return span if zone.rect is not None else f"in the outline drawn, {span}"


def point_words(at, table, unit_mark: str) -> str:
    """Where a point lies, in the map's measures: "on the west edge, 24″ down", "at 30″ across, 12″ down"."""
    x, y = at
    if abs(x) <= EDGE or abs(x - table.width) <= EDGE:
        return f"on the {'west' if abs(x) <= EDGE else 'east'} edge, {y:g}{unit_mark} down"
    if abs(y) <= EDGE or abs(y - table.depth) <= EDGE:
        return f"on the {'north' if abs(y) <= EDGE else 'south'} edge, {x:g}{unit_mark} across"
    return f"at {x:g}{unit_mark} across, {y:g}{unit_mark} down"


def arrival_words(reinforcement: Reinforcement, table, unit_mark: str, turn_word: str = "turn") -> str:
    """Where and when they come: "Second column on turn 4, on the west edge, 24″ down" (Fireteam counts passes)."""
    turn = f" on {turn_word} {reinforcement.turn}" if reinforcement.turn is not None else ""
    return f"{reinforcement.name}{turn}, {point_words(reinforcement.at, table, unit_mark)}"


def side_words(on_table: OnTable, table, unit_mark: str, hidden: bool = False, turn_word: str = "turn") -> str:
    """A side's zones, reinforcements and named planned moves in words: "within 12″ of the north edge; its
    reinforcements: Second column on turn 4, on the west edge, 24″ down; its planned moves: Flank march". Hidden
    ones only where `hidden` (the side's own orders), marked secret there."""
    words = deployment_words(on_table.deployment, unit_mark, hidden)
    _, arriving, moves = on_table.marks(viewer=hidden)
    parts = [words] if words else []
    if arriving:
        listed = " and ".join(secret(arrival_words(r, table, unit_mark, turn_word), r.hidden) for r in arriving)
        parts.append(f"its reinforcements: {listed}" if parts else f"has reinforcements: {listed}")
    named = [secret(m.name, m.hidden) for m in moves if m.name]
    if named:
        parts.append(f"its planned moves: {' and '.join(named)}" if parts else f"plans: {' and '.join(named)}")
    return "; ".join(parts)


def secret(words: str, hidden: bool) -> str:
    """A hidden zone's, reinforcement's or move's words as its own side reads them: marked secret."""
    return f"{words} (secret)" if hidden else words


def deployment_words(deployment, unit_mark: str, hidden: bool = False) -> str:
    """A side's zones in words, joined with "and"; a named zone's name before its place in brackets:
    "enters from the west edge and Drop (in the outline drawn, 18–34″ across and 2–10″ down)". A hidden zone is
    said only where `hidden` (the side's own orders)."""
    words = [
        secret(
            f"{zone.name} ({zone_words(zone, unit_mark)})" if zone.name else zone_words(zone, unit_mark), zone.hidden
        )
        for zone in zones(deployment)
        if hidden or not zone.hidden
    ]
    return " and ".join(words)


# --- checks ------------------------------------------------------------------------------------


def off_table(points, table, unit_mark: str) -> str:
    """How far the points reach past each edge of the table, '3″ past the east edge', or "" where they stay on it
    (within EDGE)."""
    past: dict[str, float] = {}
    for x, y in points:
        for edge, over in (("west", -x), ("east", x - table.width), ("north", -y), ("south", y - table.depth)):
            if over > EDGE:
                past[edge] = max(past.get(edge, 0), over)
    return " and ".join(f"{over:g}{unit_mark} past the {edge} edge" for edge, over in past.items())


def report_off(points, table, path: tuple, checker: Checker, unit_mark: str) -> None:
    past = off_table(points, table, unit_mark)
    if past:
        checker.report(path, f"reaches {past} of the {table.width}{unit_mark} x {table.depth}{unit_mark} table")


def check(
    table,
    terrain: list,
    objectives: list,
    sides: list[OnTable],
    names: list[str],
    checker: Checker,
    unit_mark: str,
    last_turn: int | None = None,
    turn_word: str = "turn",
):
    """Every piece, objective, zone, reinforcement, move and unit's starting point on the table; no two opposing
    sides' zones overlapping; no reinforcements after the game's `last_turn` (its turns, or Fireteam's passes, as
    `turn_word` says). `sides` is what each side puts on the table, `names` the sides' names."""
    for i, feature in enumerate(terrain):
        report_off(feature.points, table, ("terrain", i, feature.shape), checker, unit_mark)
    for i, objective in enumerate(objectives):
        report_off([tuple(objective.at)], table, ("objectives", i, "at"), checker, unit_mark)
    for s, side in enumerate(sides):
        for i, reinforcement in enumerate(side.reinforcements):
            report_off([tuple(reinforcement.at)], table, ("sides", s, "reinforcements", i, "at"), checker, unit_mark)
            if last_turn is not None and reinforcement.turn is not None and reinforcement.turn > last_turn:
                checker.report(
                    ("sides", s, "reinforcements", i, "turn"),
                    f"the game lasts {last_turn} {turn_word}{'es' if turn_word == 'pass' else 's'}: reinforcements "
                    f"on {turn_word} {reinforcement.turn} never arrive",
                )
        for i, move in enumerate(side.moves):
            report_off([tuple(p) for p in move.path], table, ("sides", s, "moves", i, "path"), checker, unit_mark)
        for _, at, path in side.units:
            report_off([tuple(at)], table, ("sides", s) + tuple(path), checker, unit_mark)
    deployments = [side.deployment for side in sides]
    rings: list[list[tuple[int, int, list]]] = []
    for s, deployment in enumerate(deployments):
        own = []
        single = deployment is not None and _numbers(deployment)
        for z, zone in enumerate(zones(deployment)):
            path = ("sides", s, "deployment") if single else ("sides", s, "deployment", z, zone.shape)
            ring = zone.ring(table)
            if zone.shape != "edge":
                report_off(ring, table, path, checker, unit_mark)
            elif zone.depth is not None:
                across = table.depth if zone.edge in ("north", "south") else table.width
                if zone.depth > across + EDGE:
                    checker.report(
                        path[:-1] + ("depth",),
                        f"a strip {zone.depth:g}{unit_mark} deep from the {zone.edge} edge reaches past the "
                        f"{OPPOSITE[zone.edge]} edge of the {table.width}{unit_mark} x {table.depth}{unit_mark} table",
                    )
            if ring:
                own.append((z, path, ring))
        rings.append(own)
    for s, own in enumerate(rings):
        for other in range(s):
            for _, path, ring in own:
                clash = next((z for z, _, theirs in rings[other] if overlap(ring, theirs) > EDGE), None)
                if clash is not None:
                    theirs = zones(deployments[other])
                    named = theirs[clash].name
                    # by its name where it has one ('Blue Guards's deployment zone 1' named neither well)
                    which = repr(named) if named else (f"number {clash + 1}" if len(theirs) > 1 else "")
                    checker.report(
                        path,
                        f"overlaps the deployment zone {which + ' ' if which else ''}of {names[other]}: opposing "
                        "sides' deployment zones may touch, not overlap",
                    )


def overlap(first: list[tuple[float, float]], second: list[tuple[float, float]]) -> float:
    """The area two closed outlines share. Outlines whose bounding boxes share no area share none (every pair of
    rectangles is settled so); otherwise Shapely's polygon intersection measures it."""
    a, b = _bounds(first), _bounds(second)
    across = min(a[2], b[2]) - max(a[0], b[0])
    down = min(a[3], b[3]) - max(a[1], b[1])
    if across <= EDGE or down <= EDGE:
        return 0.0
    if _is_box(first) and _is_box(second):
        return across * down
    from shapely.geometry import Polygon  # only for polygons near each other: its import costs 0.1 s

    one, two = Polygon(first).buffer(0), Polygon(second).buffer(0)
    return one.intersection(two).area


def _bounds(ring) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    return min(xs), min(ys), max(xs), max(ys)


def _is_box(ring) -> bool:
    """Whether a closed outline is an upright rectangle (as rect_ring draws one)."""
    if len(ring) != 5:
        return False
    left, top, right, bottom = _bounds(ring)
    return all(x in (left, right) and y in (top, bottom) for x, y in ring)
