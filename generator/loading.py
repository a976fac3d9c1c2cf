"""Safe YAML loading that keeps the line and column of every value, for messages that point at the spot."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import InputProblems, Problem

MAX_BYTES = 1024 * 1024  # a scenario is a page or two of YAML; a megabyte is a bad file, not a big game
MAX_DEPTH = 40
MAX_NODES = 100_000
MAX_INT_DIGITS = 18

PathT = tuple  # a key path such as ("sides", 0, "units", 1)


def path_str(path: PathT) -> str:
    """("sides", 0, "units") -> "sides[0].units"."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def parse_path(text: str) -> PathT:
    """ "sides[0].units" -> ("sides", 0, "units"): path_str read back."""
    return tuple(int(index) if index else key for key, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", text))


@dataclass
class Document:
    """One loaded YAML file: plain Python data plus the position of every value and key."""

    file: str
    data: Any
    marks: dict = field(default_factory=dict)  # path -> (line, col) of the value
    key_marks: dict = field(default_factory=dict)  # path -> (line, col) of the key naming it
    source: bytes = b""  # the file's bytes, for a seed derived from them

    @property
    def folder(self) -> Path:
        return Path(self.file).resolve().parent

    def where(self, path: PathT, key: bool = False) -> tuple[int, int]:
        """The position of a value (or of its key), falling back to the nearest ancestor."""
        path = tuple(path)
        while True:
            if key and path in self.key_marks:
                return self.key_marks[path]
            if path in self.marks:
                return self.marks[path]
            if not path:
                return (1, 1)
            path = path[:-1]

    def problem(self, path: PathT, message: str, key: bool = False) -> Problem:
        line, col = self.where(path, key)
        return Problem(self.file, line, col, path_str(path), message)


# The YAML 1.2 core schema, not PyYAML's 1.1 one: `NO`, `on` and `y` stay text, dates stay text,
# `010` is ten, not eight. A scenario author never means Norway to be false.
_CORE = [
    ("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")),
    ("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]),
    (
        "tag:yaml.org,2002:int",
        re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
        list("-+0123456789"),
    ),
    (
        "tag:yaml.org,2002:float",
        re.compile(
            r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
        ),
        list("-+0123456789."),
    ),
]
_ALLOWED_TAGS = {"tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "seq", "map")}


class _Refused(Exception):
    def __init__(self, mark, message):
        super().__init__(message)
        self.mark = mark
        self.message = message


class _Guarded:
    """PyYAML's composer with no anchors, aliases or deep nesting, and at most MAX_NODES values."""

    _depth = 0  # each loader counts on its own from these (an int set on the instance shadows the class's)
    _nodes = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(event.start_mark, f"aliases (*{event.anchor}) are not allowed; write the value out")
        if getattr(event, "anchor", None):
            raise _Refused(event.start_mark, f"anchors (&{event.anchor}) are not allowed; write the value out")
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise _Refused(event.start_mark, f"the file has more than {MAX_NODES} values")
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise _Refused(event.start_mark, f"nesting deeper than {MAX_DEPTH} levels")
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _Loader(_Guarded, yaml.SafeLoader):
    """PyYAML's own parser, in Python: the words of every syntax error message (_in_words) are its words."""

    yaml_implicit_resolvers: dict = {}


for _tag, _regexp, _first in _CORE:
    _Loader.add_implicit_resolver(_tag, _regexp, _first)


if yaml.__with_libyaml__:  # PyYAML's wheels carry it

    class _FastLoader(_Guarded, yaml.composer.Composer, yaml.cyaml.CParser, yaml.resolver.Resolver):
        """The same composer over libyaml's parser, ten times faster (PyYAML's took five seconds over the 100,000
        values a file may hold). It refuses what PyYAML reads (an escaped half character, which the schema then
        explains) and words its errors its own way, so a file it refuses is read again by _Loader (_compose)."""

        yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers  # the core schema, read only

        def __init__(self, stream):
            yaml.cyaml.CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.resolver.Resolver.__init__(self)

else:  # pragma: no cover - a PyYAML built without libyaml reads every file with its own parser
    _FastLoader = _Loader


def _compose(text: str):
    """The file's one document as nodes: libyaml's parser, and PyYAML's where libyaml refuses the file (the
    refusal then comes in the words the messages are written for, or PyYAML reads what libyaml would not)."""
    for kind in (_FastLoader, _Loader):
        loader = kind(text)
        try:
            return loader.get_single_node()
        except yaml.YAMLError:
            if kind is _Loader:
                raise
        finally:
            loader.dispose()


def _pos(mark) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1)


class _Builder:
    """Turns composed nodes into plain data, recording positions and every problem met."""

    def __init__(self, file: str):
        self.doc = Document(file, None)
        self.problems: list[Problem] = []

    def refuse(self, mark, path, message):
        line, col = _pos(mark)
        self.problems.append(Problem(self.doc.file, line, col, path_str(path), message))

    def build(self, node, path: PathT):
        self.doc.marks[path] = _pos(node.start_mark)
        if node.tag not in _ALLOWED_TAGS:
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            self.refuse(node.start_mark, path, f"the tag {tag!r} is not allowed; plain values only")
            return None
        if isinstance(node, yaml.MappingNode):
            out: dict = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    self.refuse(key_node.start_mark, path, "a key must be a plain name")
                    continue
                key = key_node.value
                if key in out:
                    first = self.doc.key_marks[path + (key,)]
                    self.refuse(
                        key_node.start_mark,
                        path + (key,),
                        f"duplicate key {key!r} (first at line {first[0]})",
                    )
                    continue
                self.doc.key_marks[path + (key,)] = _pos(key_node.start_mark)
                out[key] = self.build(value_node, path + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        return self.scalar(node, path)

    def scalar(self, node, path):
        text, tag = node.value, node.tag
        if tag.endswith(":null"):
            return None
        if tag.endswith(":bool"):
            return text.lower() == "true"
        if tag.endswith(":int"):
            digits = text.lstrip("+-")
            if len(digits) > MAX_INT_DIGITS:
                self.refuse(node.start_mark, path, f"the number {text[:24]}... is far too large")
                return None
            try:
                if digits.startswith("0o"):
                    value = int(digits[2:], 8)
                elif digits.startswith("0x"):
                    value = int(digits[2:], 16)
                else:
                    value = int(digits, 10)
            except ValueError:
                self.refuse(node.start_mark, path, f"{text!r} is not a number")
                return None
            return -value if text.startswith("-") else value
        if tag.endswith(":float"):
            if text.lower().lstrip("+-") in (".inf", ".nan"):
                self.refuse(node.start_mark, path, f"{text!r} is not a usable number")
                return None
            value = float(text)
            if value in (float("inf"), float("-inf")):
                self.refuse(node.start_mark, path, f"{text!r} is not a usable number")
                return None
            return value
        return text


# PyYAML names what it met by its parser's tokens ('<stream end>', '<block mapping start>'): a scenario's author
# reads what they wrote instead
_TOKENS = {
    "stream end": "the end of the file",
    "stream start": "the start of the file",
    "document start": "a '---' line",
    "document end": "a '...' line",
    "block end": "the end of an indented block",
    # met where a line is indented more than its parent but not as far as the lines beside it, so "further" would
    # send the author the wrong way: it is out of line with them
    "block mapping start": "a key indented out of line with the keys above it",
    "block sequence start": "a list indented out of line with the lines above it",
    "block entry": "a list item ('- ')",
    "flow mapping start": "'{'",
    "flow mapping end": "'}'",
    "flow sequence start": "'['",
    "flow sequence end": "']'",
    "flow entry": "','",
    "scalar": "a value",
    "key": "a key",
    "value": "a ':'",
    "alias": "an alias ('*')",
    "anchor": "an anchor ('&')",
    "tag": "a tag ('!')",
}


def _in_words(message: str) -> str:
    """A PyYAML message with its parser's token names ('<stream end>', quoted or not) in words."""
    message = re.sub(r"'?<([a-z ]+)>'?", lambda m: _TOKENS.get(m.group(1), m.group(1)), message)
    message = message.replace("found '?'", "found a key").replace("found ':'", "found a ':'")
    message = message.replace(
        "found character '\\t' that cannot start any token", "found a tab: YAML is indented with spaces only"
    )
    return message.replace(
        "mapping values are not allowed here",
        "a ':' is not allowed here (a key belongs on its own line, indented under its parent; a value holding ': ' "
        "needs quotes)",
    )


# line breaks to YAML 1.1 (PyYAML) that most editors show inside a line: each would shift every later line number
# (and end a comment where an editor shows it going on, so that a key could hide in what looks like a comment)
_HIDDEN_BREAK = re.compile("[\x85\u2028\u2029]")


def load_text(text: str, file: str) -> Document:
    """Parse YAML text into a Document, or raise InputProblems naming every spot."""
    hidden = _HIDDEN_BREAK.search(text)
    if hidden:
        at = hidden.start()
        line, col = text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
        message = (
            f"the character U+{ord(hidden.group()):04X} is a line break to YAML but not to most editors, so the "
            "lines would not be where they show: remove it"
        )
        raise InputProblems([Problem(file, line, col, "", message)])
    builder = _Builder(file)
    try:
        node = _compose(text)
    except _Refused as err:
        raise InputProblems([Problem(file, *_pos(err.mark), "", err.message)]) from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, col = _pos(mark) if mark else (1, 1)
        what = _in_words(" ".join(x for x in (err.context, err.problem) if x))
        raise InputProblems([Problem(file, line, col, "", f"not valid YAML: {what}")]) from None
    except yaml.reader.ReaderError as err:  # control characters and the like: point at the character itself
        before = text[: err.position]
        line, col = before.count("\n") + 1, err.position - (before.rfind("\n") + 1) + 1
        what = f"U+{err.character:04X}" if isinstance(err.character, int) else repr(err.character)
        raise InputProblems(
            [
                Problem(
                    file,
                    line,
                    col,
                    "",
                    f"not valid YAML: the character {what} is not allowed (control characters are not text)",
                )
            ]
        ) from None
    except yaml.YAMLError as err:
        raise InputProblems([Problem(file, 1, 1, "", f"not valid YAML: {err}")]) from None
    except RecursionError:
        raise InputProblems([Problem(file, 1, 1, "", f"nesting deeper than {MAX_DEPTH} levels")]) from None
    if node is None:
        raise InputProblems([Problem(file, 1, 1, "", "the file is empty")])
    data = builder.build(node, ())
    if builder.problems:
        raise InputProblems(builder.problems)
    builder.doc.data = data
    builder.doc.source = text.encode("utf-8")
    return builder.doc


def load_file(path: str | Path) -> Document:
    """Read and parse one YAML file, refusing what is not a small UTF-8 text file."""
    name = str(path)
    p = Path(path)
    try:
        if not p.is_file():
            raise InputProblems([Problem(name, 0, 0, "", "no such file" if not p.exists() else "not a regular file")])
        with p.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as err:
        raise InputProblems([Problem(name, 0, 0, "", f"cannot be read: {err.strerror}")]) from None
    if len(raw) > MAX_BYTES:
        raise InputProblems([Problem(name, 1, 1, "", f"the file is larger than {MAX_BYTES // 1024} KiB")])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        before = raw[: err.start]
        line = before.count(b"\n") + 1
        col = err.start - (before.rfind(b"\n") + 1) + 1
        raise InputProblems([Problem(name, line, col, "", "the file is not UTF-8 text")]) from None
    doc = load_text(text, name)
    doc.source = raw
    return doc
