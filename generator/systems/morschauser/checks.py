"""A shape-clean Morschauser scenario checked against the rules: on the grid, one unit a square, paths, terrain a unit can be in."""

from __future__ import annotations

from ...schema import Checker
from . import variants as rule_variants
from .battlefield import Cell, terrain_map
from .looks import PATH_KINDS, ROAD
from .models import Rules
from .scenario import GridScenario
from .squares import square_name


def check(rules: Rules, game: GridScenario, checker: Checker) -> None:
    """Every problem the shape check cannot see, reported to checker at its key."""
    columns, rows = game.grid.columns, game.grid.rows
    last = square_name(columns - 1, rows - 1)

    def on_grid(square, path) -> bool:
        if 0 <= square[0] < columns and 0 <= square[1] < rows:
            return True
        checker.report(path, f"square {square_name(*square)} is off the {columns} x {rows} grid (A1 to {last})")
        return False

    scatters = [variant.id for variant in rule_variants.active(rules, game.variants) if variant.scatter]
    if len(scatters) > 1:
        checker.report(("variants",), f"only one scatter variant at a time (got {' and '.join(scatters)})")
    for t, entry in enumerate(game.terrain):
        path = ("terrain", t, "squares")
        for i, block in enumerate(entry.squares):  # once per block, by its corners: never square by square
            if not block.on_grid(columns, rows):
                what = "square" if block.first == block.last else "block"
                checker.report(path + (i,), f"{what} {block} is off the {columns} x {rows} grid (A1 to {last})")
        if entry.kind in PATH_KINDS:
            # a road or river visits a square once: listed longer than the grid has squares, it is refused by its
            # blocks' corners before a square of it is read (400 blocks of 40 squares each took a minute to check)
            length = sum(block.size for block in entry.squares)
            if length > columns * rows:
                checker.report(
                    path,
                    f"a {entry.kind} runs over each square once, so over at most the grid's {columns * rows} "
                    f"squares (this one lists {length})",
                )
            else:
                check_path(entry, path, checker)
    for o, objective in enumerate(game.objectives):
        on_grid(objective.at, ("objectives", o, "at"))
    check_units(rules, game, terrain_map(game), on_grid, checker)


def check_units(rules: Rules, game: GridScenario, terrain: dict, on_grid, checker: Checker) -> None:
    """Each unit's quality, name and square, and the number of units against the tiles in the bag."""
    costs = rule_variants.costs(rules, game.variants)
    road_like = {ROAD} | ({"town"} if rules.movement.town_counts_as_road else set())
    taken: dict = {}
    names: set = set()
    count = 0
    for s, side in enumerate(game.sides):
        for u, unit in enumerate(side.units):
            count += 1
            path = ("sides", s, "units", u)
            unit_type = rule_variants.unit_type(rules, unit.type, game.variants)
            if unit.quality == "poor" and not unit_type.may_be_poor:
                checker.report(
                    path + ("quality",), f"only infantry or cavalry may be poor quality (this is {unit_type.name})"
                )
            if unit.name:
                if (s, unit.name) in names:
                    checker.report(path + ("name",), f"two units of this side are named {unit.name!r}")
                names.add((s, unit.name))
            square = unit.at
            if not on_grid(square, path + ("at",)):
                continue
            if square in taken:
                other = taken[square]
                checker.report(
                    path + ("at",),
                    f"two units in square {square_name(*square)} (sides[{other[0]}].units[{other[1]}] is there); "
                    "one unit per square",
                )
            taken[square] = (s, u)
            kinds = terrain.get(square, Cell()).kinds
            on_road = bool(kinds & road_like)
            for kind, cost in costs.items():
                if kind in kinds and not on_road and unit_type.move < cost:
                    checker.report(
                        path + ("at",),
                        f"a {unit_type.name} unit cannot be in {kind} square {square_name(*square)}: it moves "
                        f"{unit_type.move} and a {kind} square costs {cost}, and the rules give it no "
                        "other way in (put it on a road or bridge)",
                    )
    limit = rules.limits.units_max
    if count > limit:
        checker.report(
            ("sides",), f"at most {limit} units, one card tile each from one deck of {rules.turn.cards} (found {count})"
        )


def check_path(entry, path: tuple, checker: Checker) -> None:
    """A road's or river's squares, in order, must each share an edge with the one before."""
    cells = entry.cells()  # lazily: a block two squares wide fails within its first row, unexpanded
    previous = next(cells, None)
    for index, (c1, r1) in cells:
        (c0, r0) = previous[1]
        previous = (index, (c1, r1))
        if abs(c0 - c1) + abs(r0 - r1) != 1:
            checker.report(
                path + (index,),
                f"{entry.kind} squares {square_name(c0, r0)} and {square_name(c1, r1)} do not share "
                f"an edge; list a {entry.kind}'s squares in order along it, or give each stretch its own entry",
            )
            return
