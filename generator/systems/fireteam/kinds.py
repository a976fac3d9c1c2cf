"""Kinds of value Fireteam's rule data needs beyond the core's schema, and the text kinds its models share."""

from __future__ import annotations

from dataclasses import dataclass

from ...schema import INVALID, Int, Spec, Str, shown

NAME = Str(60)
RULE = Str(400)


@dataclass
class NumberOrWord(Spec):
    """A whole number in a range, or one of a few words standing for one (a range of LOT, times: cover).

    Not in the core's schema.py: a candidate for it.
    """

    number: Int
    words: list

    def expected(self):
        words = self.words[0] if len(self.words) == 1 else f"one of {', '.join(self.words)}"
        return f"{self.number.expected()}, or {words}"

    def check(self, value, path, checker):
        if isinstance(value, str) and value in self.words:
            return value
        is_number = isinstance(value, int) and not isinstance(value, bool)
        if is_number and self.number.min <= value <= self.number.max:
            return value
        checker.report(path, f"expected {self.expected()} (got {shown(value)})")
        return INVALID

    def json_schema(self):
        return {"anyOf": [self.number.json_schema(), {"enum": list(self.words)}]}
