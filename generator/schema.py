"""A small declarative schema: each key declared once with its documentation, checked with every problem collected."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from . import coverage
from .errors import Problem
from .loading import Document, PathT


class _Invalid:
    """The value a check returns for input it could not accept (its problem is already recorded)."""

    def __repr__(self):
        return "INVALID"

    def __bool__(self):
        return False


INVALID = _Invalid()


def shown(value: Any) -> str:
    """A value as the author wrote it, for messages: true, 7, 'Veteran', a list."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):  # how many it holds: "[0, 12, 12]" for a rectangle is short by one
        return f"a list of {len(value)} entr{'y' if len(value) == 1 else 'ies'}" if value else "an empty list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "...'"


def closest(name: str, choices: Iterable[str]) -> str | None:
    """The choice `name` most likely misspells ('Elite' for 'elite', 'movement' for 'movment'), or None."""
    choices = [str(c) for c in choices]
    lowered = {c.lower(): c for c in choices}
    if str(name).lower() in lowered:
        return lowered[str(name).lower()]
    close = difflib.get_close_matches(str(name), choices, n=1, cutoff=0.6)
    return close[0] if close else None


def suggest(name: str, choices: Iterable[str]) -> str:
    """' (did you mean 'Elite'?)' when a close choice exists, else ''."""
    match = closest(name, choices)
    return f" (did you mean {match!r}?)" if match is not None else ""


def lower_first(text: str) -> str:
    """A sentence's first letter in lower case, to follow a bracket: 'Movement Value ...' -> 'movement Value ...';
    a name inside it keeps its capitals (Move!, Charge!), and so does a first word in capitals (HQ, HTH)."""
    if len(text) > 1 and text[1].isupper():
        return text
    return text[:1].lower() + text[1:]


_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)\.(?=\s|$)")


def first_sentence(doc: str) -> str:
    """A key's description up to its first full stop: not the stop of an abbreviation (e.g., i.e.) or a decimal."""
    return _SENTENCE_END.split(doc, maxsplit=1)[0]


def entries(count: int) -> str:
    """'1 entry', '2 entries': a count as a player would read it."""
    return f"{count} entry" if count == 1 else f"{count} entries"


def one_of(choices: Iterable[str]) -> str:
    choices = [str(c) for c in choices]
    if len(choices) <= 12:
        return ", ".join(choices)
    return ", ".join(choices[:12]) + f" and {len(choices) - 12} more"


class Checker:
    """Collects problems for one document; checks never raise for bad input."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.problems: list[Problem] = []

    def report(self, path: PathT, message: str, key: bool = False) -> None:
        self.problems.append(self.doc.problem(path, message, key))


class Spec:
    """A kind of value; subclasses check one value and describe themselves as JSON Schema."""

    def check(self, value: Any, path: PathT, checker: Checker) -> Any:
        raise NotImplementedError

    def json_schema(self) -> dict:
        raise NotImplementedError

    def expected(self) -> str:
        raise NotImplementedError

    def wrong(self, value, path, checker):
        checker.report(path, f"expected {self.expected()} (got {shown(value)})")
        return INVALID


@dataclass
class Str(Spec):
    max_len: int = 120
    pattern: str | None = None
    pattern_doc: str = ""

    def expected(self):
        return self.pattern_doc or "text"

    def check(self, value, path, checker):
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            return self.wrong(value, path, checker)
        if not isinstance(value, str):
            return self.wrong(value, path, checker)
        if unprintable := coverage.problem(value):
            checker.report(path, unprintable)
            return INVALID
        if not value.strip():
            checker.report(path, f"expected {self.expected()} (got empty text)")
            return INVALID
        if len(value) > self.max_len:
            checker.report(path, f"text longer than {self.max_len} characters ({len(value)})")
            return INVALID
        if self.pattern and not re.fullmatch(self.pattern, value):
            return self.wrong(value, path, checker)
        return value.strip()

    def json_schema(self):
        out = {"type": "string", "maxLength": self.max_len}
        if self.pattern:
            out["pattern"] = f"^(?:{self.pattern})$"
        return out


@dataclass
class Markdown(Spec):
    """Markdown prose; rendered later with raw HTML neutralised."""

    max_len: int = 20_000

    def expected(self):
        return "Markdown text"

    def check(self, value, path, checker):
        if not isinstance(value, str) or isinstance(value, bool):
            return self.wrong(value, path, checker)
        if len(value) > self.max_len:
            checker.report(path, f"text longer than {self.max_len} characters ({len(value)})")
            return INVALID
        if unprintable := coverage.problem(value):
            checker.report(path, unprintable)
            return INVALID
        return value

    def json_schema(self):
        return {"type": "string", "maxLength": self.max_len, "contentMediaType": "text/markdown"}


@dataclass
class Int(Spec):
    min: int | None = None
    max: int | None = None

    def expected(self):
        if self.min is not None and self.max is not None:
            return f"a whole number from {self.min} to {self.max}"
        if self.min is not None:
            return f"a whole number of at least {self.min}"
        return "a whole number"

    def check(self, value, path, checker):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            return self.wrong(value, path, checker)
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            return self.wrong(value, path, checker)
        return value

    def json_schema(self):
        out: dict = {"type": "integer"}
        if self.min is not None:
            out["minimum"] = self.min
        if self.max is not None:
            out["maximum"] = self.max
        return out


@dataclass
class Num(Spec):
    min: float | None = None
    max: float | None = None

    def expected(self):
        if self.min is not None and self.max is not None:
            return f"a number from {self.min:g} to {self.max:g}"
        return "a number"

    def check(self, value, path, checker):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return self.wrong(value, path, checker)
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            return self.wrong(value, path, checker)
        return value

    def json_schema(self):
        out: dict = {"type": "number"}
        if self.min is not None:
            out["minimum"] = self.min
        if self.max is not None:
            out["maximum"] = self.max
        return out


class Bool(Spec):
    def expected(self):
        return "true or false"

    def check(self, value, path, checker):
        if not isinstance(value, bool):
            return self.wrong(value, path, checker)
        return value

    def json_schema(self):
        return {"type": "boolean"}


@dataclass
class Choice(Spec):
    """One name out of a list, usually the rule data's (qualities, weapons, terrain kinds)."""

    choices: list
    what: str = "one of"

    def expected(self):
        return f"{self.what} {one_of(self.choices)}"

    def check(self, value, path, checker):
        if value in self.choices and not isinstance(value, bool):
            return value
        hint = suggest(value, self.choices) if isinstance(value, (str, int)) and not isinstance(value, bool) else ""
        checker.report(path, f"expected {self.expected()} (got {shown(value)}){hint}")
        return INVALID

    def json_schema(self):
        return {"enum": list(self.choices)}


@dataclass
class ListOf(Spec):
    item: Spec
    min: int = 0
    max: int = 200

    def expected(self):
        return "a list"

    def check(self, value, path, checker):
        if not isinstance(value, list):
            return self.wrong(value, path, checker)
        if len(value) < self.min:
            checker.report(path, f"expected at least {entries(self.min)} (got {len(value)})")
        if len(value) > self.max:
            checker.report(path, f"expected at most {entries(self.max)} (got {len(value)})")
            return INVALID
        out = [self.item.check(v, path + (i,), checker) for i, v in enumerate(value)]
        return INVALID if any(v is INVALID for v in out) else out

    def json_schema(self):
        return {"type": "array", "items": self.item.json_schema(), "minItems": self.min, "maxItems": self.max}


def unknown_key(key, names: list[str]) -> str:
    """What is said of a key a mapping does not have: the closest of `names`, if one is close, and all of them."""
    return f"unknown key {key!r}{suggest(str(key), names)}; expected {one_of(names)}"


@dataclass
class Key:
    """One key of a mapping: its name, its kind of value, whether it must be there, and what it means."""

    name: str
    spec: Spec
    doc: str
    required: bool = True
    default: Any = None


def nullable(schema: dict) -> dict:
    """The same JSON Schema, also allowing null: the type gains "null", an enum gains None."""
    if isinstance(schema.get("type"), str):
        return {**schema, "type": [schema["type"], "null"]}
    if "enum" in schema:
        return {**schema, "enum": [*schema["enum"], None]}
    return {"anyOf": [schema, {"type": "null"}]}


@dataclass
class Record(Spec):
    """A mapping with declared keys; unknown keys are problems with a close-match suggestion."""

    keys: list[Key]
    after: Callable[[dict, PathT, Checker], None] | None = None  # a check across keys of a clean record

    def expected(self):
        return "a mapping of " + ", ".join(k.name for k in self.keys)

    def check(self, value, path, checker):
        if not isinstance(value, dict):
            return self.wrong(value, path, checker)
        names = [k.name for k in self.keys]
        clean = True
        misspelt = set()  # keys an unknown key is taken to misspell: told once, at the misspelling
        # keys the document lets every mapping carry beyond the kind's own (a house file's `note`), named with them
        allowed = names + [name for name in getattr(checker.doc, "every_mapping_may_carry", ()) if name not in names]
        for key in value:
            if key not in names:
                checker.report(path + (key,), unknown_key(key, allowed), key=True)
                misspelt.add(closest(key, names))
                clean = False
        out = {}
        for k in self.keys:
            if k.name in value and value[k.name] is not None:
                got = k.spec.check(value[k.name], path + (k.name,), checker)
                clean = clean and got is not INVALID
                out[k.name] = got
            elif k.required and k.name in value:
                # written with no value (`name:`): said at the key, with what it wants
                checker.report(path + (k.name,), f"expected {k.spec.expected()} (got nothing)")
                clean = False
            elif k.required:
                # 'movment: 6' was two problems, the typo and a 'missing key movement' at the unit's first line
                if k.name not in misspelt:
                    checker.report(path, f"missing key {k.name!r} ({lower_first(first_sentence(k.doc))})")
                clean = False
            else:
                out[k.name] = k.default
        if not clean:
            return INVALID
        if self.after:
            before = len(checker.problems)
            self.after(out, path, checker)
            if len(checker.problems) > before:
                return INVALID
        return out

    def json_schema(self):
        def value(k: Key) -> dict:
            # an optional key written with no value (`seed:`) is read as absent, so the schema allows null there
            schema = {**k.spec.json_schema(), "description": k.doc}
            return schema if k.required else nullable(schema)

        return {
            "type": "object",
            "additionalProperties": False,
            "required": [k.name for k in self.keys if k.required],
            "properties": {k.name: value(k) for k in self.keys},
        }


@dataclass
class Numbers(Spec):
    """A fixed count of numbers written as a list, such as a rectangle [x, y, w, h]."""

    labels: tuple[str, ...]
    min: float = 0
    max: float = 1000

    def expected(self):
        return f"[{', '.join(self.labels)}], {len(self.labels)} numbers from {self.min:g} to {self.max:g}"

    def check(self, value, path, checker):
        if not isinstance(value, list) or len(value) != len(self.labels):
            return self.wrong(value, path, checker)
        for i, (label, v) in enumerate(zip(self.labels, value)):
            # one entry wrong is said at that entry, by its name: [-3, 44] "got a list of 2 entries", which it was
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not self.min <= v <= self.max:
                checker.report(
                    path + (i,), f"{label}: expected a number from {self.min:g} to {self.max:g} (got {shown(v)})"
                )
                return INVALID
        return value

    def json_schema(self):
        n = len(self.labels)
        item = {"type": "number", "minimum": self.min, "maximum": self.max}
        return {"type": "array", "items": item, "minItems": n, "maxItems": n, "description": ", ".join(self.labels)}
