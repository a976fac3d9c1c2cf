"""Distances as printed, on the pack and the cards alike: 6″ with a double prime (never a straight quote), 15 cm."""

from __future__ import annotations

INCH = "\u2033"  # the double prime: a straight " after a figure reads as a closing quote, and curls into one
UNIT_MARKS = {"inch": INCH, "cm": " cm"}


def distance(value, unit: str = "inch") -> str:
    """A distance for the page: 6″, 2.5″, 15 cm; a unit without a mark in words, 1 square, 2 squares."""
    if unit in UNIT_MARKS:
        return f"{value}{UNIT_MARKS[unit]}"
    return f"{value} {unit}{'' if _is_one(value) else 's'}"


def _is_one(value) -> bool:
    """Whether a figure, written as a number or as its text (1, 1.0, "1", Fraction(1)), is one: "1 square"."""
    try:
        return float(value) == 1
    except (TypeError, ValueError):
        return False


def inch_marks(text: str) -> str:
    """Text with each straight " after a figure printed as an inch mark (6″); one that closes a quotation ("C4",
    "3 to 5") stays a quote. Rule text written with straight quotes (6") goes through this, wherever it prints."""
    out, quotes = [], 0
    for i, char in enumerate(text):
        if char == '"':
            if i and text[i - 1].isdigit() and quotes % 2 == 0:
                out.append(INCH)
                continue
            quotes += 1
        out.append(char)
    return "".join(out)
