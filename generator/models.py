"""Typed records declared once: a dataclass whose fields carry their YAML key's kind and documentation.

A model is checked by the same machinery as every input (schema.Record: every problem collected, at its
file, line and column, with "did you mean"), then built as an instance, so code after validation reads
attributes of typed objects instead of `data["a"]["b"]` chains. The dataclass field is the schema:

    @dataclass(frozen=True, kw_only=True)  # keyword-only: keys keep the file's order, required or not
    class Weapon(Model):
        '''One weapon of the weapon table.'''

        name: str = key(Str(40), "The weapon's name.")
        range: int = key(Int(0, 96), "Its range in inches; 0 is contact.", default=0)

`muster schema` and the rule-data checks read the same declarations.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .errors import InputProblems
from .schema import INVALID, Checker, Choice, Int, Key, ListOf, Record, Spec, Str

_REQUIRED = dataclasses.MISSING


def key(spec: Spec, doc: str, *, default: Any = _REQUIRED, name: str | None = None, unit: str = "") -> Any:
    """A model field: its kind of value, what it means, and its default (no default: the key is required).

    `name` is the YAML key when it is not a Python name (such as `from`). A list or mapping default is
    copied for each instance. `unit` is what a number of it counts ("inch", "square"): a page that prints the
    value itself (a house rule's change) prints it with the unit, 24″ or 2 squares.
    """
    metadata = {"spec": spec, "doc": doc, "key": name, "unit": unit}
    if default is _REQUIRED:
        return dataclasses.field(metadata=metadata)
    if isinstance(default, (list, dict)):
        return dataclasses.field(default_factory=lambda: type(default)(default), metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


_LINE_TEXT = Str(600)
_APPLIED_LINE = Record(
    [
        Key("text", _LINE_TEXT, "The rule, in a sentence or two."),
        Key(
            "applies_to",
            ListOf(Str(80), min=1, max=12),
            "What it is a rule for: names the system's rule data gives (a unit type, weapon, terrain kind, "
            "variant...). It prints only for a scenario that fields or plays one of them.",
        ),
        Key(
            "lead",
            Str(120),
            "Words printed before the text only where something `lead_with` names is in play as well: they tell "
            "the line from the one beside it for that other thing (a booklet's appendix serving chapters of both), "
            "and a page printing this line alone is spared them.",
            False,
            "",
        ),
        Key("lead_with", ListOf(Str(80), min=1, max=12), "What in play as well makes the lead print.", False, []),
    ],
    after=lambda value, path, checker: (
        (bool(value.get("lead")) == bool(value.get("lead_with")))
        or checker.report(path, "a line with `lead` names what makes it print in `lead_with`, and the other way round")
    ),
)


@dataclasses.dataclass
class OneOf(Spec):
    """A value of one of several shapes: `shapes` pairs a test of the value with the spec that checks it; the
    first whose test passes checks it, the last when none does (its problems then say what is wrong)."""

    described: str
    shapes: list[tuple[Callable[[Any], bool], Spec]]

    def expected(self):
        return self.described

    def check(self, value, path, checker):
        spec = next((spec for fits, spec in self.shapes if fits(value)), self.shapes[-1][1])
        return spec.check(value, path, checker)

    def json_schema(self):
        return {"anyOf": [spec.json_schema() for _, spec in self.shapes]}


def _is_text(value: Any) -> bool:
    return isinstance(value, str)


def _anything(value: Any) -> bool:
    return True


@dataclasses.dataclass
class ReferenceLine(OneOf):
    """A line of the quick reference: a rule as text, or `{text, applies_to}` for a rule about something a
    scenario may not field (a river, poor quality, a variant), which then prints only where it is in play."""

    described: str = "a line of text, or a mapping of text and applies_to"
    shapes: list = dataclasses.field(default_factory=lambda: [(_is_text, _LINE_TEXT), (_anything, _APPLIED_LINE)])


_NOTE_TEXT = Str(2000, None, "a note")


def _has_each(value: dict, path: tuple, checker: Checker) -> None:
    if "{each}" not in value["text"]:
        checker.report(path + ("text",), "a part with `each` says where its list goes with {each}")


_LISTED_PART = Record(
    [
        Key("text", _LINE_TEXT, "The sentence, with {each} where the list of what applies goes."),
        Key(
            "each",
            ListOf(_APPLIED_LINE, min=2, max=12),
            "The list's items, each with what it applies to; the part prints the items in play, joined "
            "('a, b and c'), and nothing when none is.",
        ),
        Key("join", Choice(["and", "or"], "one of"), "The word before the list's last item.", False, "and"),
    ],
    after=_has_each,
)


@dataclasses.dataclass
class NotePart(OneOf):
    """A part of a note: text; `{text, applies_to}`, printed only where what it applies to is in play; or
    `{text, each}`, one sentence listing only the items in play (five unit types the original rules do not
    name, said once and not five times)."""

    described: str = "a part of a note: text, a mapping of text and applies_to, or of text and each"
    shapes: list = dataclasses.field(
        default_factory=lambda: [
            (_is_text, _LINE_TEXT),
            (lambda value: isinstance(value, dict) and "each" in value, _LISTED_PART),
            (_anything, _APPLIED_LINE),
        ]
    )


_NOTE_PARTS = ListOf(NotePart(), min=1, max=12)


@dataclasses.dataclass
class NoteText(OneOf):
    """A note of the rule data: its text, or its parts, each a sentence or two as text or `{text, applies_to}`
    (the same shape as a reference line), so that a note prints no sentence about what a scenario does not field."""

    described: str = "a note: text, or a list of parts"
    shapes: list = dataclasses.field(
        default_factory=lambda: [(lambda value: isinstance(value, list), _NOTE_PARTS), (_anything, _NOTE_TEXT)]
    )


def note_text(note: str | list, leave_out: frozenset[str] = frozenset()) -> str:
    """A note as it prints: its text, or its parts that apply (all of them when nothing is left out), joined."""
    if isinstance(note, str):
        return note.strip()
    out = []
    for part in note:
        if isinstance(part, dict) and "each" in part:
            items = [item["text"] for item in part["each"] if line_applies(item, leave_out)]
            if items:
                out.append(part["text"].strip().replace("{each}", english_list(items, part.get("join", "and"))))
        elif line_applies(part, leave_out):
            out.append(line_text(part, leave_out).strip())
    return " ".join(out)


def english_list(items: list[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' (or 'a, b or c')."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


def line_text(line: str | dict, leave_out: frozenset[str] = frozenset()) -> str:
    """A reference line's text, whether written plain or with what it applies to; its `lead` before it where
    something its `lead_with` names is in play (not left out)."""
    if isinstance(line, str):
        return line
    lead = line.get("lead") and not all(name in leave_out for name in line.get("lead_with", []))
    return f"{line['lead']} {line['text']}" if lead else line["text"]


def line_applies(line: str | dict, leave_out: frozenset[str]) -> bool:
    """Whether a reference line prints: a plain line always; one with `applies_to` unless all it names is left
    out (not fielded)."""
    return isinstance(line, str) or not all(name in leave_out for name in line["applies_to"])


def note_key() -> Any:
    """The `note:` every entry of the rule data may carry (declare it last): a reading chosen or a gap filled."""
    return key(
        NoteText(),
        "How the rule was read or a gap filled; the reference sheet prints it. Text, or a list of parts each "
        "text or {text, applies_to}: a part about something a scenario may not field (a river, a unit type) "
        "prints only where it is in play.",
        default="",
    )


class Model:
    """Base of the typed records. Subclasses are dataclasses whose fields are made with key().

    `after(self, path, checker)` may check across keys of a record whose keys are each clean.
    """

    def after(self, path: tuple, checker: Checker) -> None:
        """Checks across this record's keys, reported to checker; nothing by default."""

    @classmethod
    def keys(cls, rules: Any = None) -> list[Key]:
        """The model's keys; kinds declared FromRules are made from `rules`, the rule data they are checked against."""
        out = []
        for f in dataclasses.fields(cls):
            if "spec" not in f.metadata:
                continue
            required = f.default is _REQUIRED and f.default_factory is _REQUIRED
            default = None if required else (f.default if f.default is not _REQUIRED else f.default_factory())
            spec = bind(f.metadata["spec"], rules)
            out.append(Key(f.metadata["key"] or f.name, spec, f.metadata["doc"], required=required, default=default))
        return out

    @classmethod
    def spec(cls, rules: Any = None) -> Typed:
        return Typed(cls, rules)

    @classmethod
    def from_clean(cls, data: dict) -> Model:
        """An instance from a record checked clean (nested models are already instances)."""
        names = {(f.metadata.get("key") or f.name): f.name for f in dataclasses.fields(cls) if "spec" in f.metadata}
        return cls(**{names[k]: v for k, v in data.items() if k in names})


@dataclasses.dataclass
class FromRules(Spec):
    """A kind of value the rule data decides (the unit types, the largest grid): `make(rules)` makes it once bound.

    A scenario model declares such keys at module level, `key(FromRules(lambda rules: Choice(...)), doc)`, and is
    checked as Typed(model, rules), so a house rule that adds a weapon or a unit type changes validation too.
    """

    make: Callable[[Any], Spec]

    def bind(self, rules: Any) -> Spec:
        if rules is None:
            raise TypeError("a FromRules kind needs the rule data: check the model as Typed(model, rules)")
        return self.make(rules)


def bind(spec: Spec, rules: Any) -> Spec:
    """The spec with its FromRules kinds made from `rules`, down through lists, mappings and nested models."""
    if isinstance(spec, FromRules):
        return bind(spec.bind(rules), rules)
    if rules is None:
        return spec
    if isinstance(spec, Typed) and spec.rules is None:
        return dataclasses.replace(spec, rules=rules)
    if isinstance(spec, ListOf):
        return dataclasses.replace(spec, item=bind(spec.item, rules))
    if isinstance(spec, MapOf):
        return dataclasses.replace(spec, value=bind(spec.value, rules))
    return spec


@dataclasses.dataclass
class Typed(Spec):
    """A mapping checked against a model's keys and built as an instance of the model."""

    model: type[Model]
    rules: Any = None  # the rule data the model's FromRules kinds are made from

    def record(self) -> Record:
        return Record(self.model.keys(self.rules))

    def expected(self) -> str:
        return self.record().expected()

    def check(self, value: Any, path: tuple, checker: Checker) -> Any:
        clean = self.record().check(value, path, checker)
        if clean is INVALID:
            return INVALID
        instance = self.model.from_clean(clean)
        before = len(checker.problems)
        instance.after(path, checker)
        return INVALID if len(checker.problems) > before else instance

    def json_schema(self) -> dict:
        schema = self.record().json_schema()
        doc = (self.model.__doc__ or "").strip().split("\n")[0]
        return {**schema, "description": doc} if doc else schema


@dataclasses.dataclass(frozen=True)
class Note(Model):
    """A rule the data holds no number for: its name and how Muster reads it, printed on the reference sheet."""

    name: str = key(Str(80), "The rule the note belongs to, as the reference sheet titles it.")
    note: str = note_key()


@dataclasses.dataclass(frozen=True)
class ReferenceSection(Model):
    """A section of the quick-reference sheet: its heading and its lines."""

    title: str = key(Str(80), "The section's heading.")
    lines: list = key(
        ListOf(ReferenceLine(), min=1, max=40),
        "Its lines, each a rule in a sentence or two; a line that is a rule about one thing a scenario may not "
        "field is written as text and applies_to.",
    )


@dataclasses.dataclass
class UniqueNames(ListOf):
    """A list of named records whose names must differ (a weapon table, the unit types)."""

    what: str = "entry"

    def check(self, value, path, checker):
        out = super().check(value, path, checker)
        if out is INVALID:
            return INVALID
        seen: set = set()
        clean = True
        for i, entry in enumerate(out):
            if entry.name in seen:
                checker.report(path + (i, "name"), f"two {self.what}s are named {entry.name!r}")
                clean = False
            seen.add(entry.name)
        return out if clean else INVALID


@dataclasses.dataclass
class MapOf(Spec):
    """A mapping from names the author chooses (scatter schemes, D6 faces) to values of one kind."""

    name: Spec
    value: Spec
    min: int = 0
    max: int = 200

    def expected(self) -> str:
        return "a mapping"

    def check(self, value, path, checker):
        if not isinstance(value, dict):
            return self.wrong(value, path, checker)
        if not self.min <= len(value) <= self.max:
            checker.report(path, f"expected {self.min} to {self.max} entries (got {len(value)})")
            return INVALID
        out = {}
        for name, item in value.items():
            # YAML mapping keys reach us as text: a table keyed by numbers (D6 faces) reads '1' as 1
            if isinstance(self.name, Int) and isinstance(name, str) and name.lstrip("+-").isdigit():
                name = int(name)
            checked_name = self.name.check(name, path + (name,), checker)
            checked = self.value.check(item, path + (name,), checker)
            out[checked_name] = checked
        if any(v is INVALID for v in out.values()) or INVALID in out:
            return INVALID
        return out

    def json_schema(self) -> dict:
        return {
            "type": "object",
            "additionalProperties": self.value.json_schema(),
            "minProperties": self.min,
            "maxProperties": self.max,
        }


class Face(Spec):
    """A die face written as a mapping key (YAML keys reach us as text): '1' becomes 1."""

    def expected(self):
        return "a die face, a whole number from 1"

    def check(self, value, path, checker):
        if isinstance(value, str) and value.isdigit() and 1 <= int(value) <= 20:
            return int(value)
        return self.wrong(value, path, checker)

    def json_schema(self):
        return {"type": "string", "pattern": "^[0-9]+$"}


def check_faces(die: int, faces, path: tuple, checker) -> None:
    """A D6 table must name every face from 1 to the die's size, and no other."""
    missing = [f for f in range(1, die + 1) if f not in faces]
    extra = sorted(f for f in faces if not 1 <= f <= die)
    if missing or extra:
        found = "; ".join(
            part
            for part in (
                missing and f"missing {', '.join(map(str, missing))}",
                extra and f"no face {', '.join(map(str, extra))}",
            )
            if part
        )
        checker.report(path, f"a D{die} table covers the faces 1 to {die} exactly ({found})")


def check_document(doc, spec: Spec) -> Any:
    """The document's data checked against spec and built; InputProblems names every problem at its line and column."""
    checker = Checker(doc)
    value = spec.check(doc.data, (), checker)
    if checker.problems or value is INVALID:
        raise InputProblems(checker.problems or [doc.problem((), f"expected {spec.expected()}")])
    return value
