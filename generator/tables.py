"""Odds tables as plain data: exact Fractions inside, fraction strings and floats in JSON, percentages on paper."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .distances import distance


def frac_str(value: Fraction) -> str:
    """Always numerator/denominator, so every reader parses one form: "575/1296", "1/1", "0/1"."""
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


_SHARES = {
    Fraction(1, 2): "half",
    Fraction(1, 3): "a third",
    Fraction(2, 3): "two thirds",
    Fraction(1, 4): "a quarter",
    Fraction(3, 4): "three quarters",
}


def share(value: Fraction) -> str:
    """A share as a sentence says it: "half", "two thirds"; others as "2/5", never a decimal that rounds."""
    value = Fraction(value)
    if value in _SHARES:
        return _SHARES[value]
    return "all" if value == 1 else ("none" if value == 0 else f"{value.numerator}/{value.denominator}")


@dataclass
class Column:
    key: str
    label: str
    # how a value prints: prob (a chance: percent and fraction), exact (an exact non-probability such as an
    # expectation), int (a count), signed (a modifier or difference, printed +2 / 0 / −1), text
    kind: str = "prob"
    # a text column of rule-data ids prints each id's name (`afv-or-at` -> "AFVs and anti-tank guns"); JSON keeps the id
    names: dict[str, str] = field(default_factory=dict)
    # a count that is a distance prints with its unit's mark on a page (24″); JSON keeps the plain number
    unit: str = ""
    # the row field holding how a page prints this cell where it is not the value itself (Stress "4+" for the
    # last level, which stands for every level above it); JSON keeps the plain value
    printed: str = ""

    def shown(self, value: Any, row: dict | None = None) -> Any:
        """The value as a page prints it: the row's printed form where the column names one, an id's name where
        the column names its ids, a yes/no cell as 'yes' or 'no' (never True or False), a distance with its
        unit, else the value itself."""
        if self.printed and row is not None and self.printed in row:
            return row[self.printed]
        if isinstance(value, bool):
            return "yes" if value else "no"
        if self.unit and isinstance(value, (int, float)):
            return distance(value, self.unit)
        return self.names.get(value, value) if isinstance(value, str) else value


@dataclass
class Table:
    """One odds table: an id that outside tools rely on, columns, and rows keyed by column key."""

    id: str
    title: str
    columns: list[Column]
    rows: list[dict]
    note: str = ""
    meta: dict = field(default_factory=dict)

    def page_rows(self, least: int = 3) -> list[tuple[str, dict]]:
        """The rows as a page prints them, each with what follows its first cell ("" or "or less"/"or more"):
        where a table keyed by a number opens or closes with `least` or more rows alike in every other column,
        they print as one row ("−9 or less"); four rows of 0.1% say nothing a player needs. JSON keeps every row."""
        rows = [("", row) for row in self.rows]
        key, rest = self.columns[0], self.columns[1:]
        if key.kind not in ("int", "signed") or not rest:
            return rows

        def run(order: list[tuple[str, dict]]) -> int:
            """How many rows from the start of `order` are alike in every column but the first."""
            count = 1
            while count < len(order) and all(order[0][1][c.key] == order[count][1][c.key] for c in rest):
                count += 1
            return count

        head = run(rows)
        if least <= head < len(rows):
            rows = [("or less", rows[head - 1][1])] + rows[head:]
        tail = run(rows[::-1])
        if least <= tail < len(rows):
            rows = rows[:-tail] + [("or more", rows[-tail][1])]
        return rows

    def to_json(self) -> dict:
        rows = []
        for row in self.rows:
            out: dict[str, Any] = {}
            for col in self.columns:
                value = row[col.key]
                if isinstance(value, Fraction):
                    out[col.key] = frac_str(value)
                    out[col.key + "_float"] = round(float(value), 6)
                else:
                    out[col.key] = value
            rows.append(out)
        return {
            "id": self.id,
            "title": self.title,
            "note": self.note,
            "columns": [{"key": c.key, "label": c.label, "kind": c.kind} for c in self.columns],
            "rows": rows,
            **self.meta,
        }

    @property
    def as_sentence(self) -> bool:
        """A table of one or two chances prints as a sentence ("Heads: 50.0% (1/2); Tails: 50.0% (1/2).")."""
        return len(self.rows) <= 2 and len(self.columns) == 2 and self.columns[1].kind == "prob"

    def printed_lines(self, chars_per_line: int = 50) -> int:
        """About how many lines the table takes in a half-page column: caption, header, its page rows, its note;
        a table that prints as a sentence, the sentence's lines."""

        def lines(text: str) -> int:
            return -(-len(text) // chars_per_line) if text else 0

        rows = 2 * len(self.rows) if self.as_sentence else 1 + len(self.page_rows())
        return lines(self.title) + rows + lines(self.note)


def in_columns(tables: list[Table]) -> list[list[Table]]:
    """`tables` in reading order split into two columns of about equal height (Table.printed_lines), each a run
    of the list, split where the taller is shortest: what CSS columns balance, worked out once here. WeasyPrint
    balances columns by laying their content out again for each pixel it tries, which made the Fireteam Odds page
    10 s of a 16 s pack."""
    heights = [t.printed_lines() for t in tables]
    split = min(range(1, len(tables)), key=lambda at: max(sum(heights[:at]), sum(heights[at:])), default=len(tables))
    return [tables[:split], tables[split:]] if split < len(tables) else [list(tables)]
