"""The scenario's battlefield: every square's terrain, and the map and its legend drawn from it."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...svg import map_frames, roomiest
from .glyphs import unit_uri
from .legend import legend_entries
from .looks import AREA_KINDS, HILL, PATH_KINDS, RIVER, ROAD
from .map import LEGEND_MM, GridMap


@dataclass
class Cell:
    """One square's terrain: its hill level (0 is the plain) and the other kinds on it."""

    level: int = 0
    kinds: set = field(default_factory=set)


def terrain_map(game) -> dict[tuple[int, int], Cell]:
    """Every square that has terrain, with its level and kinds."""
    squares: dict = {}
    for entry in game.terrain:
        for square in entry.all_squares():
            cell = squares.setdefault(square, Cell())
            if entry.kind == HILL:
                # hills are written as nested blocks: a square takes the highest level given it
                cell.level = max(cell.level, entry.level)
            else:
                cell.kinds.add(entry.kind)
    return squares


def draw(game, terrain: dict, units: list, edges: bool = False) -> tuple[str, list[dict], str, float]:
    """The map as one SVG, its legend (each terrain drawn and used, then the unit markers), the orientation of
    the page it prints on, and the side of one of its squares as printed, in mm (the unit counters' size); `edges`
    prints the edges' names round it."""
    drawing = grid_map(game, terrain, units, edges)
    square_mm = drawing.S * drawing.mm_per_unit()
    return drawing.svg(), legend_entries(drawing.used), drawing.frame.orientation, square_mm


def grid_map(game, terrain: dict, units: list, edges: bool = False) -> GridMap:
    """The map with everything on it, before it is drawn (tests read its label placement)."""
    columns, rows = game.grid.columns, game.grid.rows
    # a wide grid prints on a landscape page when its squares print larger there
    frame = roomiest(map_frames(LEGEND_MM), lambda f: GridMap(columns, rows, f, edges).mm_per_unit())
    drawing = GridMap(columns, rows, frame, edges)
    for (c, r), cell in sorted(terrain.items()):
        if cell.level:
            drawing.level(c, r, cell.level)
    # a square is drawn once for each kind it holds, however many entries name it (two hundred towns over the
    # whole grid drew and placed each square's houses two hundred times)
    drawn: set = set()
    for entry in game.terrain:
        if entry.kind in AREA_KINDS:
            for c, r in entry.all_squares():
                if (entry.kind, c, r) not in drawn:
                    drawn.add((entry.kind, c, r))
                    drawing.area(entry.kind, c, r)
    for kind in PATH_KINDS:
        for entry in game.terrain:
            if entry.kind == kind:
                drawing.path(kind, entry.all_squares())
    # a square holding both a road and a river is a bridge; its deck follows the road's direction there
    for entry in game.terrain:
        if entry.kind != ROAD:
            continue
        squares = entry.all_squares()
        for i, (c, r) in enumerate(squares):
            if RIVER in terrain.get((c, r), Cell()).kinds and ("bridge", c, r) not in drawn:
                drawn.add(("bridge", c, r))
                near = [squares[j] for j in (i - 1, i + 1) if 0 <= j < len(squares)]
                drawing.bridge(c, r, horizontal=any(n[1] == r for n in near) if near else True)
    for entry in game.terrain:
        if entry.name:
            drawing.label(entry.all_squares(), entry.name)
    for objective in game.objectives:
        drawing.objective(*objective.at)
    for unit in units:
        drawing.unit(*unit.unit.at, unit.type.glyph, unit.side.colour, unit.side.shape, unit.unit.facing, unit.code)
    return drawing


def glyph_legend(units: list) -> list[dict]:
    """One symbol per unit type on the map, in the order the roster first shows it."""
    out, seen = [], set()
    for unit in units:
        if unit.type.name not in seen:
            seen.add(unit.type.name)
            out.append({"label": unit.type.name, "image": unit_uri(unit.type.glyph, "#444444", "circle")})
    return out
