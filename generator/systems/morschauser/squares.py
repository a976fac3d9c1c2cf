"""The grid's squares: names such as C4 read and written, the four facings, and the grid lines with those names round them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

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


def square_names(columns: int, rows: int, S: float) -> str:
    """Every square's name ("A1" top left, letters across, numbers down) small in its top-left corner, for a map
    drawn without its margin of coordinates."""
    fs = S * 0.13
    out = []
    for c in range(columns):
        for r in range(rows):
            at = f'x="{c * S + S * 0.05:g}" y="{r * S + fs * 1.05:.2f}" font-size="{fs:.2f}"'
            name = f"{column_letter(c)}{r + 1}"
            # a white halo first, then the name (WeasyPrint ignores paint-order): readable over woods and hatching
            out.append(
                f'<text {at} fill="#ffffff" stroke="#ffffff" stroke-width="{fs * 0.3:.2f}" stroke-linejoin="round">'
                f'{name}</text><text {at} fill="#1a1a1a" fill-opacity="0.75">{name}</text>'
            )
    return "".join(out)


@dataclass(frozen=True)
class Block:
    """A block of squares as written, "B2:D4" (or one square, "C4"), kept as its two corners.

    A scenario may list hundreds of blocks as large as A1:Z99; expanding them all cost gigabytes. A block is
    checked against the grid by its corners (once, however many squares it holds), and expanded only when
    read, square by square, in its written order: rows from the first corner's, each row's columns likewise
    (a run along one row or column keeps its written direction: a road from A5 to L5 runs east).
    """

    first: tuple[int, int]
    last: tuple[int, int]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        columns = _between(self.first[0], self.last[0])
        for row in _between(self.first[1], self.last[1]):
            for col in columns:
                yield (col, row)

    def __str__(self) -> str:
        first, last = square_name(*self.first), square_name(*self.last)
        return first if first == last else f"{first}:{last}"

    @property
    def size(self) -> int:
        """How many squares it holds, from its corners."""
        return (abs(self.last[0] - self.first[0]) + 1) * (abs(self.last[1] - self.first[1]) + 1)

    def on_grid(self, columns: int, rows: int) -> bool:
        return all(0 <= col < columns and 0 <= row < rows for col, row in (self.first, self.last))


def _between(a: int, b: int) -> range:
    return range(a, b + 1) if b >= a else range(a, b - 1, -1)


def union(blocks: Iterable[Block]) -> list[tuple[int, int]]:
    """Every square of the blocks once, in the order first named; the work is bounded by the grid, not the blocks.

    A block repeated is read once; a block adds only the squares no earlier block covered (a bit mask per row
    says which), so blocks each covering the whole grid cost a row's mask each, not their squares.
    """
    covered: dict[int, int] = {}
    out: list[tuple[int, int]] = []
    for block in dict.fromkeys(blocks):
        columns = _between(block.first[0], block.last[0])
        span = sum(1 << col for col in columns)
        for row in _between(block.first[1], block.last[1]):
            new = span & ~covered.get(row, 0)
            if new:
                covered[row] = covered.get(row, 0) | new
                out.extend((col, row) for col in columns if new >> col & 1)
    return out


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
        return Block(squares[0], squares[-1])  # expanded only when read, once it is known to be on the grid

    def json_schema(self):
        pattern = r"^[A-Za-z][0-9]{1,2}(:[A-Za-z][0-9]{1,2})?$" if self.span else r"^[A-Za-z][0-9]{1,2}$"
        return {"type": "string", "pattern": pattern}
