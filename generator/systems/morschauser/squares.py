"""The grid's squares: names such as C4 read and written, the four facings, and the grid lines with those names round them."""

from __future__ import annotations

import re

from ...schema import Spec

SQUARE_RE = re.compile(r"([A-Za-z])([0-9]{1,2})")
FACING_VECTORS = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}


def column_letter(col: int) -> str:
    return chr(ord("A") + col)


def square_name(col: int, row: int) -> str:
    """(0, 0) -> 'A1': the column's letter, then the row's number counted from 1 at the top."""
    return f"{column_letter(col)}{row + 1}"


def parse_square(text: str) -> tuple[int, int] | None:
    """'C4' -> (2, 3): the column from its letter, the row from its number counted from 1; None if not a square."""
    match = SQUARE_RE.fullmatch(text.strip())
    if not match or int(match.group(2)) < 1:
        return None
    return (ord(match.group(1).upper()) - ord("A"), int(match.group(2)) - 1)


def grid_lines(columns: int, rows: int, S: float, font_size: float) -> str:
    """The lines between squares, the grid's frame, and each column's letter and row's number outside it on both sides."""
    W, H = columns * S, rows * S
    lines = [f'<path d="M{c * S:g} 0 V{H:g}" stroke="#555" stroke-width="0.12"/>' for c in range(1, columns)]
    lines += [f'<path d="M0 {r * S:g} H{W:g}" stroke="#555" stroke-width="0.12"/>' for r in range(1, rows)]
    lines.append(f'<rect x="0" y="0" width="{W:g}" height="{H:g}" fill="none" stroke="#000" stroke-width="0.5"/>')
    fs = font_size
    for c in range(columns):
        x = (c + 0.5) * S
        for y in (-1.6, H + 1.6 + fs * 0.7):
            lines.append(
                f'<text x="{x:g}" y="{y:g}" font-size="{fs}" font-weight="bold" text-anchor="middle">{column_letter(c)}</text>'
            )
    for r in range(rows):
        y = round((r + 0.5) * S + fs * 0.36, 2)
        lines.append(f'<text x="-1.4" y="{y:g}" font-size="{fs}" font-weight="bold" text-anchor="end">{r + 1}</text>')
        lines.append(
            f'<text x="{W + 1.4:g}" y="{y:g}" font-size="{fs}" font-weight="bold" text-anchor="start">{r + 1}</text>'
        )
    return "".join(lines)


class Square(Spec):
    """One grid square written column letter then row number, "C4"; `span` also takes a run "A5:L5"."""

    def __init__(self, span: bool = False):
        self.span = span

    def expected(self):
        return "a square such as C4" + (" or a block of squares such as B2:D4" if self.span else "")

    def check(self, value, path, checker):
        if not isinstance(value, str):
            return self.wrong(value, path, checker)
        ends = value.split(":") if self.span else [value]
        if len(ends) > 2:
            return self.wrong(value, path, checker)
        squares = [parse_square(end) for end in ends]
        if any(square is None for square in squares):
            return self.wrong(value, path, checker)
        if not self.span:
            return squares[0]
        (c0, r0), (c1, r1) = squares[0], squares[-1]
        columns = range(c0, c1 + (1 if c1 >= c0 else -1), 1 if c1 >= c0 else -1)
        rows = range(r0, r1 + (1 if r1 >= r0 else -1), 1 if r1 >= r0 else -1)
        # a run along one row or column keeps its written direction (a road from A5 to L5 runs east)
        return [(c, r) for r in rows for c in columns]

    def json_schema(self):
        pattern = r"^[A-Za-z][0-9]{1,2}(:[A-Za-z][0-9]{1,2})?$" if self.span else r"^[A-Za-z][0-9]{1,2}$"
        return {"type": "string", "pattern": pattern}
