"""How height is drawn on the grid map: each hill square's fill and the contour lines between levels (its '∩2' marks are placed with the map's labels)."""

from __future__ import annotations

from .looks import CONTOUR_INK, HILL_FILLS


def hill_squares(levels: dict[tuple[int, int], int], S: float) -> str:
    """Every hill square filled with its level's colour; the plain (level 0) is the map's background."""
    out = []
    for (c, r), lv in sorted(levels.items()):
        if lv:
            out.append(
                f'<rect x="{c * S:g}" y="{r * S:g}" width="{S:g}" height="{S:g}" fill="{HILL_FILLS[min(lv, len(HILL_FILLS) - 1)]}"/>'
            )
    return "".join(out)


def steepest(levels: dict[tuple[int, int], int], columns: int, rows: int) -> int:
    """The biggest step between two squares that share a side (2 where a level-2 square meets open ground): the
    map's contour lines are heavier for bigger steps, and its note says so only where there is one."""
    return max(
        (
            abs(levels.get((c, r), 0) - levels.get((c + dc, r + dr), 0))
            for r in range(rows)
            for c in range(columns)
            for dc, dr in ((1, 0), (0, 1))
            if c + dc < columns and r + dr < rows
        ),
        default=0,
    )


def contour_lines(levels: dict[tuple[int, int], int], columns: int, rows: int, S: float) -> str:
    """A line on every edge between squares of different level, heavier for a bigger step."""
    out = []

    def lv(c: int, r: int) -> int:
        return levels.get((c, r), 0)

    for r in range(rows):
        for c in range(columns):
            here = lv(c, r)
            for dc, dr in ((1, 0), (0, 1)):
                nc, nr = c + dc, r + dr
                if nc >= columns or nr >= rows:
                    continue
                step = abs(here - lv(nc, nr))
                if not step:
                    continue
                width = 0.5 + 0.35 * step
                if dc:
                    d = f"M{nc * S:g} {r * S:g} V{(r + 1) * S:g}"
                else:
                    d = f"M{c * S:g} {nr * S:g} H{(c + 1) * S:g}"
                out.append(f'<path d="{d}" stroke="{CONTOUR_INK}" stroke-width="{width:.2f}" stroke-linecap="round"/>')
    return "".join(out)
