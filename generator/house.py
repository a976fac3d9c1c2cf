"""House rules: a club's changes to a system's rule data, merged onto it and checked as the rule data itself is.

A house-rules file is YAML: `system: <id>`, an optional `title` ("Kessel Valley Club house rules") and any part
of the system's rule data to change or add. Mappings merge key by key; a list whose entries are mappings with a
`name` (weapons, unit types, terrain) merges entry by entry, matched by name (by `id` where names repeat), so a
club changes one weapon's range, or adds a weapon, without copying the list; any other value is replaced whole. Any mapping of the file may
carry a `note:` saying why: house notes are kept apart from the rule data's own and printed as the club's.

The merged data is checked by the system's typed rule model (generator/models.py), so a house rule is held to
everything the built-in rule data is: each problem is reported at the house file's own line and column where the
value came from there, unknown keys get "did you mean", and rule data that no longer holds together (a team
minimum above its maximum) is refused. `muster rules SYSTEM` prints the rule data in the same shape, notes as
comments: a club's starting point.
"""

from __future__ import annotations

import dataclasses
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .distances import distance
from .errors import InputProblems, Problem
from .loading import Document, PathT, load_file
from .models import MapOf, Typed
from .schema import INVALID, Checker, ListOf, Str, suggest, unknown_key

TITLE = Str(120)
NOTE = Str(2000, None, "a note")
# the keys of a house-rules file that are not rule data; `id` names the system inside its rule data, and a
# house file names it with `system`
OWN_KEYS = ("system", "title")
FIXED_KEYS = ("id",)


@dataclass(frozen=True)
class Change:
    """One value a house file changed or added: where it is in the rule data, what it was (None: added), and
    what it is now."""

    path: tuple
    was: Any
    now: Any

    @property
    def added(self) -> bool:
        return self.was is None


@dataclass
class HouseRules:
    """A club's house-rules file, read and checked against its system's rule data."""

    file: str
    system_id: str
    title: str
    doc: Document
    changes: list[Change] = field(default_factory=list)
    # each house note by the rule-data path of the mapping that carries it (() for the file's own)
    notes: dict[tuple, str] = field(default_factory=dict)


@dataclass
class MergedDocument(Document):
    """The built-in rule data with a house file merged in: a problem is reported where its value came from, the
    house file (at the house file's own path) or the built-in rules.yaml."""

    house: Document | None = None
    # a house file's `note:` is taken out before the merge: an unknown key beside it names it ('notes': did you
    # mean 'note'?), or a club told "expected dice, target, rule..." may think notes are not allowed there
    every_mapping_may_carry = ("note",)
    origin: dict = field(default_factory=dict)  # merged path -> the house file's path of the value there
    # an entry the house file added to a named list, by its merged path: the name, and the built-in name it
    # may misspell (a misspelt weapon is a new weapon, missing keys: the problem says which name it meant)
    added: dict = field(default_factory=dict)

    def problem(self, path: PathT, message: str, key: bool = False) -> Problem:
        path = tuple(path)
        probe = path
        while True:
            if probe in self.origin:
                entry = next((self.added[path[:n]] for n in range(len(path), 0, -1) if path[:n] in self.added), None)
                if entry is not None:
                    name, meant = entry
                    message += f"; no entry of the built-in list is named {name!r}, so it is a new one{meant}"
                return self.house.problem(self.origin[probe] + path[len(probe) :], message, key)
            if probe in self.marks or not probe:
                name = Path(self.house.file).name
                return super().problem(
                    path,
                    f"{message} (a value of the rules as written, which the house rules in {name} no longer agree "
                    f"with: set it in {name} too)",
                    key,
                )
            probe = probe[:-1]


def _entry_key(base: Any, over: Any) -> str | None:
    """What entries of two lists are matched by: `name` where every entry has one and no name repeats in either
    list, else `id` likewise (Para Bellum's two Fire actions share a name), else nothing (the list is replaced)."""
    for field_ in ("name", "id"):
        for items in (base, over):
            if not isinstance(items, list) or not all(isinstance(i, dict) and field_ in i for i in items):
                break
            names = [str(i[field_]) for i in items]
            if len(set(names)) != len(names):
                break
        else:
            if base:
                return field_
    return None


class _Merge:
    def __init__(self) -> None:
        self.origin: dict[tuple, tuple] = {}  # merged path -> house path, for values that came from the house
        self.placed: dict[tuple, tuple] = {}  # house path -> merged path, for every value of the house file
        self.changes: list[Change] = []
        self.added: dict[tuple, tuple[str, str]] = {}  # MergedDocument.added

    def mark(self, value: Any, path: tuple, house_path: tuple) -> None:
        """`value` came whole from the house file: every path in it is the house file's."""
        self.origin[path] = house_path
        self.placed[house_path] = path
        if isinstance(value, dict):
            for key, item in value.items():
                self.mark(item, path + (key,), house_path + (key,))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                self.mark(item, path + (index,), house_path + (index,))

    def value(self, base: Any, over: Any, path: tuple, house_path: tuple) -> Any:
        self.placed[house_path] = path
        if isinstance(base, dict) and isinstance(over, dict):
            merged = dict(base)
            for key, item in over.items():
                if key in base:
                    merged[key] = self.value(base[key], item, path + (key,), house_path + (key,))
                else:
                    merged[key] = item
                    self.mark(item, path + (key,), house_path + (key,))
                    self.changes.append(Change(path + (key,), None, item))
            return merged
        match = _entry_key(base, over)
        if match:
            merged = list(base)
            where = {str(item[match]): index for index, item in enumerate(base)}
            for index, item in enumerate(over):
                at = where.get(str(item[match]))
                if at is None:
                    merged.append(item)
                    self.added[path + (len(merged) - 1,)] = (str(item[match]), suggest(str(item[match]), where))
                    self.mark(item, path + (len(merged) - 1,), house_path + (index,))
                    self.changes.append(Change(path + (len(merged) - 1,), None, item))
                else:
                    merged[at] = self.value(base[at], item, path + (at,), house_path + (index,))
            return merged
        self.mark(over, path, house_path)
        if over != base or type(over) is not type(base):
            self.changes.append(Change(path, base, over))
        return over


def _take_notes(data: Any, path: tuple, checker: Checker, notes: dict[tuple, str]) -> Any:
    """The house data without its `note:` keys, each note kept by its path in the house file."""
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            if key == "note":
                text = NOTE.check(value, path + (key,), checker)
                if text is not INVALID:
                    notes[path] = text
            else:
                out[key] = _take_notes(value, path + (key,), checker, notes)
        return out
    if isinstance(data, list):
        return [_take_notes(item, path + (index,), checker, notes) for index, item in enumerate(data)]
    return data


# a house-rules file a scenario names: a plain relative path to a YAML file in its folder (as a picture's is)
_SAFE_NAME = re.compile(r"\w[\w.\-/ ]*\.ya?ml", re.IGNORECASE)


def named_file(folder: Path, name: Any) -> Path:
    """The house-rules file a scenario names by `name`, which must be a plain relative path to a YAML file inside
    the scenario's folder (no "..", no absolute path, no link leading out of it); ValueError says why not."""
    if not isinstance(name, str) or not _SAFE_NAME.fullmatch(name) or ".." in name.split("/") or "//" in name:
        raise ValueError(f"expected a plain relative path to a .yaml file in {folder.name}/ (got {name!r})")
    try:
        real = (folder / name).resolve(strict=True)
    except (OSError, RuntimeError):
        raise ValueError(f"house-rules file not found: {name} (looked in {folder.name}/)") from None
    if not real.is_relative_to(folder.resolve()):
        raise ValueError(f"refused to read {name}: outside the scenario's folder")
    if not real.is_file():
        raise ValueError(f"refused to read {name}: not a regular file")
    return real


def _unknown_top_keys(data: dict, system, checker: Checker) -> None:
    """A top-level key the system's rule data does not have, told with the keys a house file may hold: its own
    (system, title, and the club's `note` on the whole file) and the rule data's, less those it may not change
    (the rule data's id, and its title, which a house file's own `title` stands beside)."""
    import dataclasses

    model = system.rules_model
    if model is None:
        return
    names = [f.metadata.get("key") or f.name for f in dataclasses.fields(model) if "spec" in f.metadata]
    allowed = [*OWN_KEYS, *(n for n in names if n not in FIXED_KEYS and n not in OWN_KEYS), "note"]
    for key in data:
        if key not in allowed and key not in FIXED_KEYS:
            checker.report((key,), unknown_key(key, allowed), True)


def read(path: str | Path, system_id: str | None = None) -> tuple[HouseRules, Any]:
    """A house-rules file's own keys checked, and its rule data (notes taken out) to merge; `system_id`, given,
    is the system it must be for (a scenario's)."""
    from . import systems

    doc = load_file(path)
    checker = Checker(doc)
    if not isinstance(doc.data, dict):
        raise InputProblems(
            [doc.problem((), "a house-rules file is a mapping: system, title and the rules it changes")]
        )
    data = doc.data
    if "system" not in data:
        raise InputProblems([doc.problem((), f"missing key 'system': one of {', '.join(systems.known())}")])
    named = data["system"]
    if named not in systems.known():
        checker.report(
            ("system",),
            f"unknown system {named!r}{suggest(str(named), systems.known())}; one of {', '.join(systems.known())}",
        )
    elif system_id is not None and named != system_id:
        checker.report(("system",), f"these house rules are for {named}, not {system_id}")
    title = TITLE.check(data["title"], ("title",), checker) if "title" in data else ""
    for key in FIXED_KEYS:
        if key in data:
            checker.report(
                (key,), f"`{key}` is the system's own; a house-rules file names its system with `system`", True
            )
    if named in systems.known():
        _unknown_top_keys(data, systems.get(named), checker)
    notes: dict[tuple, str] = {}
    rules = _take_notes({k: v for k, v in data.items() if k not in OWN_KEYS}, (), checker, notes)
    if checker.problems:
        # the merged rule data is checked only once the file's own keys are right: more may be found then
        later = "the rules it changes or adds are checked, as the rule data is, once the problems above are fixed"
        raise InputProblems([*checker.problems, Problem(doc.file, 0, 0, "", later, notice=True)])
    return HouseRules(str(path), named, title if title is not INVALID else "", doc, notes=notes), rules


def merge(base: Document, house: HouseRules, rules: Any) -> MergedDocument:
    """The built-in rule data with the house file's merged in; fills in `house.changes`, and turns its notes'
    paths into the rule data's (a named entry merged onto the built-in one of its name goes where that one is)."""
    merging = _Merge()
    data = merging.value(base.data, rules, (), ())
    house.changes = merging.changes
    house.notes = {merging.placed.get(path, path): text for path, text in house.notes.items()}
    return MergedDocument(
        file=base.file,
        data=data,
        marks=base.marks,
        key_marks=base.key_marks,
        source=base.source + b"\0" + house.doc.source,
        house=house.doc,
        origin=merging.origin,
        added=merging.added,
    )


# --- the rule data as YAML ---------------------------------------------------------------------------------


def _scalar(value: Any) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10**6, sort_keys=False)
    return text.removesuffix("\n...\n").removesuffix("\n")


def _comment(text: str, pad: str) -> list[str]:
    return [f"{pad}# {line}" for line in textwrap.wrap(" ".join(text.split()), 100 - len(pad))]


def _note_of(value: Any) -> str:
    from .models import note_text

    note = value.get("note") if isinstance(value, dict) else None
    return note_text(note, frozenset()) if isinstance(note, (str, list)) else ""


class _Writer:
    def __init__(self, house: HouseRules | None) -> None:
        self.lines: list[str] = []
        self.changed = {c.path: c for c in house.changes} if house else {}
        self.notes = house.notes if house else {}

    def notes_of(self, value: Any, path: tuple, pad: str) -> None:
        own = _note_of(value)
        if own:
            self.lines += _comment(own, pad)
        if path in self.notes:
            self.lines += _comment("House rule: " + self.notes[path], pad)

    def mark(self, path: tuple) -> str:
        change = self.changed.get(path)
        if change is None:
            return ""
        if change.added:
            return "  # house rule (added)"
        if isinstance(change.was, (dict, list)):
            return "  # house rule"
        return f"  # house rule (was {_scalar(change.was)})"

    def mapping(self, data: dict, path: tuple, indent: int, skip: tuple = ()) -> None:
        pad = " " * indent
        for key, value in data.items():
            if key == "note" or key in skip:
                continue
            here = path + (key,)
            if (
                isinstance(value, dict)
                and set(value) <= {"name", "note"}
                and "note" in value
                and here not in self.changed
            ):
                # a named note of the rules (a reading, a gap filled): nothing to change, so a comment only
                self.lines += _comment(f"{value.get('name') or key}: {_note_of(value)}", pad)
                if here in self.notes:
                    self.lines += _comment("House rule: " + self.notes[here], pad)
            elif isinstance(value, dict) and value:
                self.notes_of(value, here, pad)
                self.lines.append(f"{pad}{key}:{self.mark(here)}")
                self.mapping(value, here, indent + 2)
            elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
                self.lines.append(f"{pad}{key}:{self.mark(here)}")
                for index, item in enumerate(value):
                    self.item(item, here + (index,), indent + 2)
            else:
                self.lines.append(f"{pad}{key}: {_scalar(value)}{self.mark(here)}")

    def item(self, item: dict, path: tuple, indent: int) -> None:
        """One entry of a list of mappings: `- ` before its first key."""
        pad = " " * indent
        self.notes_of(item, path, pad)
        start = len(self.lines)
        self.mapping(item, path, indent + 2)
        for at in range(start, len(self.lines)):
            if not self.lines[at].lstrip().startswith("#"):
                self.lines[at] = f"{pad}- {self.lines[at][indent + 2 :]}"
                break
        else:
            self.lines.append(f"{pad}- {{}}")
        if path in self.changed and self.changed[path].added:
            self.lines[start] += "  # house rule (added)"


def rules_yaml(system, house: HouseRules | None = None) -> str:
    """The system's rule data as a house-rules file would write it, its notes as comments: `system:` first, then
    every rule (the system's `id` and `title` are its own and left out). With house rules, each changed or added
    value says so, with what it was, and each house note is printed."""
    data = system.rules_doc.data
    writer = _Writer(house)
    head = f"{system.title}: the rule data Muster reads for validation, odds, cards and the reference."
    if house is not None:
        head += f" With {house.title or 'house rules'} ({Path(house.file).name})."
    writer.lines += _comment(head, "")
    writer.lines += _comment(
        "Printed whole, so that nothing is hidden: fed back as it is, it changes nothing. A house-rules file keeps "
        "`system:`, may add a `title:`, and holds only the keys it changes: mappings merge key by key, lists of "
        "named entries by name; a `note:` on any mapping says why. Text in braces, {recovery.target}, prints "
        "the value it names.",
        "",
    )
    writer.lines.append(f"system: {system.id}")
    if house is not None and house.title:
        writer.lines.append(f"title: {_scalar(house.title)}")
        if () in house.notes:
            writer.lines += _comment("House rule: " + house.notes[()], "")
    else:
        writer.lines.append("# title: Our club's house rules")
    writer.mapping(data, (), 0, skip=("id", "title"))
    return "\n".join(writer.lines) + "\n"


# --- what a pack prints of them ------------------------------------------------------------------------------


def _step(spec: Any, unit: str, step: Any) -> tuple[Any, str]:
    """One step down the rule data's kinds of value: into a model's key (its kind and the unit its numbers
    count), a list's item or a mapping's value (the same unit); (None, "") where the kinds do not say."""
    if isinstance(spec, ListOf) and isinstance(step, int):
        return spec.item, unit
    if isinstance(spec, MapOf):
        return spec.value, unit
    if isinstance(spec, Typed) and isinstance(step, str):
        for f in dataclasses.fields(spec.model):
            if "spec" in f.metadata and (f.metadata["key"] or f.name) == step:
                return f.metadata["spec"], f.metadata.get("unit", "")
    return None, ""


def _kind_at(model: Any, path: tuple) -> tuple[Any, str]:
    """The kind of value at `path` in rule data of `model` and the unit a number there counts ("inch", "")."""
    spec, unit = (Typed(model) if model else None), ""
    for step in path:
        spec, unit = _step(spec, unit, step)
    return spec, unit


def _words(value: Any, spec: Any = None, unit: str = "") -> str:
    """A rule-data value as a sentence shows it, a distance with its unit (32″, 2 squares): `spec` is its kind of
    value, for the units of what it holds."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(
            f"{key.replace('_', ' ')} {_words(item, *_step(spec, unit, key))}"
            for key, item in value.items()
            if key != "name"
        )
    if isinstance(value, list):
        inner = _step(spec, unit, 0)
        return ", ".join(
            str(v.get("name", _words(v, *inner))) if isinstance(v, dict) else _words(v, *inner) for v in value
        )
    if unit and isinstance(value, (int, float)):
        return distance(value, unit)
    return str(value)


def _meaning(model: Any, path: tuple) -> str:
    """What the key at the end of `path` means, from its model's documentation, as a clause: "the total needed to
    stand up again" for recovery.target ("" where the path does not end in a documented key)."""
    if not path or not isinstance(path[-1], str):
        return ""
    spec = _kind_at(model, path[:-1])[0]
    if not isinstance(spec, Typed):
        return ""
    doc = next(
        (f.metadata["doc"] for f in dataclasses.fields(spec.model) if (f.metadata.get("key") or f.name) == path[-1]),
        "",
    )
    clause = re.split(r"\s\(|[,:;.]\s|\.$", doc.strip(), maxsplit=1)[0].strip()
    # "The total ..." -> "the total ...", not "HTH ..." -> "hTH" nor a game's term "Battle Power added" -> "battle"
    first, _, rest = clause.partition(" ")
    opening = first in ("A", "An", "The", "Its", "Their", "Each", "How", "What", "Whose", "Whether")
    if opening or ((first[1:].islower() or len(first) == 1) and not rest[:1].isupper()):  # "Its Battle Power"
        clause = clause[0].lower() + clause[1:]
    return clause


def rule_label(data: Any, path: tuple, model: Any = None) -> str:
    """Where a value sits in the rule data, in words: "Recovery › target", "Weapons › Assault rifle › range"; with
    the rule data's `model`, a key its documentation explains is said in its words: "Recovery, the total needed to
    stand up again", "Weapons › Assault rifle, range in inches"."""
    from .systems.base import heading

    words: list[str] = []
    node = data
    for index, step in enumerate(path):
        node = node[step] if isinstance(node, (dict, list)) else None
        if isinstance(step, int):
            named = node.get("name") or node.get("title") if isinstance(node, dict) else None
            # a name as its table prints it: Para Bellum's weapon tags are "heavy" in the data and "Heavy" printed
            words.append(str(named)[:1].upper() + str(named)[1:] if named else f"entry {step + 1}")
        else:
            # a key that leads on to an entry or a value is a heading ("Battle › Modifiers › In cover"); the last
            # key reads on from the words before it ("Weapons › Assault rifle › range")
            words.append(heading(step) if not words or index < len(path) - 1 else step.replace("_", " "))
    meaning = _meaning(model, path) if len(words) > 1 else ""
    if meaning:
        return " › ".join(words[:-1]) + ", " + meaning
    return " › ".join(words)


def printed(house: HouseRules | None, data: Any, model: Any = None) -> dict | None:
    """The house rules as a pack prints them: their title, each change with the value the rules as written give
    (a distance with its unit, read from `model`'s keys; an added entry's name), and the club's notes, each under
    the rule it is about."""
    if house is None:
        return None
    changes = []
    for change in house.changes:
        kind = _kind_at(model, change.path)
        entry = {"rule": rule_label(data, change.path, model), "now": _words(change.now, *kind)}
        entry["was"] = None if change.added else _words(change.was, *kind)
        # an added entry of a named list (a weapon), by its name: the reference says where nothing fields it
        entry["entry"] = change.now.get("name") if change.added and isinstance(change.now, dict) else None
        # a rule's sentence, not a value: the pack prints it, but works nothing out from its words
        entry["sentence"] = isinstance(change.now, str) and len(change.now.split()) > 3
        changes.append(entry)
    notes = [
        {"rule": rule_label(data, path) if path else (house.title or "House rules"), "note": text}
        for path, text in house.notes.items()
    ]
    return {"title": house.title or "House rules", "file": Path(house.file).name, "changes": changes, "notes": notes}
