"""The system-agnostic part of a scenario: its common keys, the side styles, and validation in two passes."""

from __future__ import annotations

import dataclasses
import math
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from markupsafe import Markup

from . import house, markup, systems
from .decks import SEED_MAX
from .errors import InputProblems, Problem
from .fetcher import PictureRefused, read_picture
from .loading import Document, path_str
from .markup import MAX_BRACKETS, MAX_NESTING, nesting_depth
from .schema import INVALID, Checker, Choice, Int, Key, ListOf, Markdown, Record, Str
from .svg import badge_uri
from .systems.base import System

# Sides are told apart by colour and by shape and pattern, so a grayscale print still works.
# The shape and pattern follow the side's place in the list; the colour may be chosen by name.
PALETTE = {
    "blue": "#2c5d9b",
    "red": "#b0352b",
    "green": "#3b7a35",
    "ochre": "#a97a12",
    "purple": "#6a4a9a",
    "teal": "#1f7a7a",
    "grey": "#5a5a5a",
    "brown": "#7a4a26",
}
SHAPES = ["circle", "triangle", "square", "diamond", "pentagon", "hexagon", "star", "cross"]
PATTERNS = ["hatch", "crosshatch", "dots", "horizontal", "vertical", "zigzag", "grid", "rings"]
# a name, title or label: no control characters (C0, DEL, C1, the direction overrides and isolates that print a
# name backwards: "\u202edeR" shows as "Red", or the direction marks, which print as nothing but move what is
# beside them: "Rangers \u200f-1" shows as "Rangers 1-"), and none of < > { } \ (markup and template syntax)
NAME_PATTERN = r"[^\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069<>{}\\]+"


def common_side_keys() -> list[Key]:
    return [
        Key(
            "name",
            Str(60, NAME_PATTERN, "a side name (no control characters, < > { } or \\)"),
            "The side's name as printed.",
        ),
        Key(
            "colour",
            Choice(list(PALETTE), "a colour, one of"),
            "The side's colour; its shape and pattern follow its place in the list.",
            required=False,
        ),
        Key(
            "briefing",
            Markdown(),
            "What this side is and wants (Markdown), printed with its roster, where both players read it.",
            required=False,
            default="",
        ),
        Key(
            "orders",
            Markdown(),
            "Secret orders for this side's players only (Markdown): `muster build` prints them in a handout of "
            "their own, NAME-orders-SIDE.pdf, with the side's forces and its deployment map; the shared pack never "
            "prints them.",
            required=False,
            default="",
        ),
    ]


def common_keys(system: System) -> list[Key]:
    side = Record(common_side_keys() + system.side_keys())
    return [
        Key("title", Str(80, NAME_PATTERN, "a title (no control characters, < > { } or \\)"), "The scenario's title."),
        Key("system", Choice(systems.known(), "a rule system, one of"), "The rule system: see `muster systems`."),
        Key(
            "seed", Int(0, SEED_MAX), "The shuffle seed; omitted, one is derived from the file's text.", required=False
        ),
        Key(
            "author",
            Str(80, NAME_PATTERN, "a name"),
            "Who wrote the scenario, printed on the cover and in the PDF's metadata.",
            required=False,
        ),
        Key("briefing", Markdown(), "The situation, in Markdown."),
        Key("victory", Markdown(), "Victory conditions, in Markdown."),
        Key("sides", ListOf(side, min=2, max=8), "Two or more sides."),
        Key(
            "house_rules",
            Str(200),
            "A club's house-rules file (a YAML file in this scenario's folder, as `muster rules` writes one): its "
            "changes to the rule data hold for validation, odds, cards and every page.",
            required=False,
        ),
    ] + system.scenario_keys()


@dataclass(frozen=True)
class SideView:
    """One side as every page shows it: name, colour, shape and pattern (so grayscale still works), badge, briefing.

    Built once per scenario by the core; systems and templates read it, never build their own.
    """

    index: int
    name: str
    colour: str
    colour_name: str
    shape: str
    pattern: str
    badge: str  # the side's shape in its colour as a data: URL, reused on every card and roster line
    briefing: Markup  # this side's own briefing as safe HTML ("" when it has none)
    orders: Markup = Markup("")  # its secret orders as safe HTML, printed in its handout alone ("" when it has none)
    slug: str = ""  # its name as a file name's part: NAME-orders-<slug>.pdf


@dataclass
class Scenario:
    """A validated scenario: cleaned data plus the document it came from."""

    doc: Document
    system: System
    data: dict
    warnings: list[Problem] = field(default_factory=list)

    @property
    def name(self) -> str:
        return Path(self.doc.file).stem

    @property
    def title(self) -> str:
        return self.data["title"]

    @property
    def sides(self) -> list[dict]:
        return self.data["sides"]

    @cached_property
    def side_views(self) -> list[SideView]:
        """Each side's colour (chosen, or the first palette colour no side chose), shape, pattern, badge and briefing."""
        chosen = {s.get("colour") for s in self.sides}
        free = [c for c in PALETTE if c not in chosen]
        slugs = file_slugs([side["name"] for side in self.sides])
        out = []
        for i, side in enumerate(self.sides):
            name = side.get("colour") or free.pop(0)
            colour = PALETTE[name]
            out.append(
                SideView(
                    i,
                    side["name"],
                    colour,
                    name,
                    SHAPES[i],
                    PATTERNS[i],
                    badge_uri(SHAPES[i], colour),
                    markup.to_html(side.get("briefing") or "", self.doc.folder),
                    markup.to_html(side.get("orders") or "", self.doc.folder),
                    slugs[i],
                )
            )
        return out


def file_slugs(names: list[str]) -> list[str]:
    """Each side's name as part of a file name, plain lower-case letters, digits and hyphens: "King's Own Rifles"
    -> "kings-own-rifles", "Landwehr Jäger" -> "landwehr-jager"; a name with none of those is "side-N", and a
    second side of one slug takes its place in the list after it ("red-2")."""
    out: list[str] = []
    for i, slug in enumerate(_plain_slugs(names), 1):
        out.append(slug if slug not in out else f"{slug}-{i}")
    return out


def _plain_slugs(names: list[str]) -> list[str]:
    """Each name in plain lower-case letters, digits and hyphens ("side-N" for one with none of those), before
    any number file_slugs adds to tell twins apart."""
    out = []
    for i, name in enumerate(names, 1):
        plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
        plain = plain.replace("'", "").lower()
        out.append("-".join("".join(c if c.isalnum() else " " for c in plain).split())[:40].strip("-") or f"side-{i}")
    return out


def _check_orders(sides: list[dict], checker: Checker) -> None:
    """A side's orders handout is named by its side (NAME-orders-<slug>.pdf): two sides whose names make one file
    name would hand out the handouts under each other's names ('RED LEGION!' took 'red-legion', and Red Legion
    got 'red-legion-2'). And a hidden zone, reinforcement or move prints only on its side's handout: on a side
    without orders, nowhere."""
    plain = _plain_slugs([side["name"] for side in sides])
    for i, side in enumerate(sides):
        if not side.get("orders"):
            continue
        twin = next((j for j in range(len(sides)) if j != i and plain[j] == plain[i]), None)
        if twin is not None:
            checker.report(
                ("sides", i, "name"),
                f"{side['name']!r} and {sides[twin]['name']!r} would name their orders handouts alike "
                f"(…-orders-{plain[i]}.pdf): give the sides names that differ in their letters or digits",
            )
    for i, side in enumerate(sides):
        if side.get("orders"):
            continue
        for key, what in (("deployment", "zone"), ("reinforcements", "reinforcement"), ("moves", "move")):
            marks = side.get(key)
            for z, mark in enumerate(marks if isinstance(marks, list) else []):
                if getattr(mark, "hidden", False):
                    checker.report(
                        ("sides", i, key, z, "hidden"),
                        f"a hidden {what} is drawn only on its side's orders handout, and this side has no "
                        f"`orders`: give it orders, or leave the {what} shown",
                    )


def _check_prose(doc: Document, checker: Checker) -> None:
    data = doc.data if isinstance(doc.data, dict) else {}
    fields = [(("briefing",), data.get("briefing")), (("victory",), data.get("victory"))]
    sides = data.get("sides")
    for i, side in enumerate(sides if isinstance(sides, list) else []):  # the shape check reports a non-list
        if isinstance(side, dict):
            fields.append((("sides", i, "briefing"), side.get("briefing")))
            fields.append((("sides", i, "orders"), side.get("orders")))
    for path, text in fields:
        check_prose(doc, checker, path, text)


def check_prose(doc: Document, checker: Checker, path: tuple, text) -> None:
    """One Markdown text of a file (a briefing, a booklet's introduction): nesting and brackets bounded, and every
    picture it names one the build will print from the file's folder, each problem at its line and column."""
    if not isinstance(text, str):
        return
    if nesting_depth(text) > MAX_NESTING:
        checker.report(path, f"lists or quotes nested deeper than {MAX_NESTING} levels")
    if text.count("[") > MAX_BRACKETS:
        checker.report(
            path,
            f"at most {MAX_BRACKETS} '[' brackets in one text (got {text.count('[')}); links and pictures need far fewer",
        )
    elif nesting_depth(text) <= MAX_NESTING:
        _check_pictures(doc, checker, path, text)


def _check_pictures(doc: Document, checker: Checker, path: tuple, text: str) -> None:
    """Every picture the prose names is one the build will print: a plain path to a real picture in the folder."""
    for src in dict.fromkeys(markup.pictures(text)):
        if not markup.safe_picture(src):
            message = (
                f"picture {src[:80]!r} refused: name a picture file (.png, .jpg, .gif, .svg or .webp) in the "
                "scenario's folder by a plain relative path (no URL, no '..', no absolute path)"
            )
        else:
            try:
                read_picture(doc.folder, src)
                continue
            except PictureRefused as err:
                message = str(err)
        checker.problems.append(_at_picture(doc, path, src, message))


def _at_picture(doc: Document, path: tuple, src: str, message: str) -> Problem:
    """The problem at the picture's own line and column: the first place its path is written inside the text's own
    value (from its start to where the next key or value of the file starts; exact for the usual `|` block), or the
    text's own position when the path was written otherwise (escaped): never a comment or a key further down."""
    line, col = doc.where(path)
    starts = [spot for spot in (*doc.marks.values(), *doc.key_marks.values()) if spot > (line, col)]
    end = min(starts, default=(math.inf, math.inf))
    lines = doc.source.decode("utf-8", "replace").split("\n")
    for number in range(line - 1, min(len(lines), end[0])):
        text = lines[number][: end[1] - 1] if number + 1 == end[0] else lines[number]
        found = text.find(src, col - 1 if number == line - 1 else 0)
        if found >= 0:
            return Problem(doc.file, number + 1, found + 1, path_str(path), message)
    return doc.problem(path, message)


def _visible(name: str) -> str:
    """The name as a reader sees it: without format characters (zero-width space and joiners, U+2060, U+FEFF, the
    soft hyphen, direction overrides), which print as nothing and would let two sides look alike or a side look
    nameless; its letters composed alike (NFKC: an é typed as e and an accent is é) and every run of spaces of any
    width (a no-break, thin or double space) one space."""
    shown = "".join(char for char in unicodedata.normalize("NFKC", name) if unicodedata.category(char) != "Cf")
    return " ".join(shown.split())


NAMED = ("name", "player", "title", "leader")  # keys whose text a reader finds a thing by: never all invisible


def _names(data, path: tuple = ()):
    """Every (path, text) of the scenario's NAMED keys, at any depth (a team's, an objective's, a terrain piece's)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in NAMED and isinstance(value, str):
                yield path + (key,), value
            else:
                yield from _names(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _names(value, path + (i,))
    elif dataclasses.is_dataclass(data) and not isinstance(data, type):  # a system's own records (a Team)
        yield from _names({field.name: getattr(data, field.name) for field in dataclasses.fields(data)}, path)


def _later(doc: Document) -> Problem:
    """What a file whose keys or types are wrong is told besides: the checks that read one key against another
    (a square on the grid, a name another key refers to, a team's size) need every value of the right kind, so
    they wait until the problems listed are fixed, and more may then be found."""
    return Problem(
        doc.file,
        0,
        0,
        "",
        # a new user's Para Bellum scenario was told of 'squares on the grid', which only Morschauser has
        "the checks that compare one key with another (names that refer to each other, sizes and limits, places "
        "on the table) run once the problems above are fixed",
        notice=True,
    )


def _with_house_rules(doc: Document, checker: Checker, system: System, given: str | None) -> System | None:
    """The system with the house rules the command line gives, else those the scenario names (`house_rules:`),
    merged in; None when the scenario's key is refused (reported). A house file's own problems raise
    InputProblems at its lines."""
    if given is not None:
        return system.with_house_rules(given)
    name = doc.data.get("house_rules")
    if name is None:
        return system
    try:
        path = house.named_file(doc.folder, name)
    except ValueError as err:
        checker.report(("house_rules",), str(err))
        return None
    return system.with_house_rules(path)


def validate(doc: Document, house_rules: dict[str, str] | None = None) -> Scenario:
    """Shape first, then the system's cross-references; raise InputProblems with every problem found.

    `house_rules` maps system ids to house-rules files given on the command line: the one for the scenario's system
    is played instead of any the scenario names itself (as --seed overrides its seed)."""
    checker = Checker(doc)
    if not isinstance(doc.data, dict):
        checker.report((), "a scenario is a mapping of keys (title, system, sides...)")
        raise InputProblems(checker.problems)
    system_id = Choice(systems.known(), "a rule system, one of").check(doc.data.get("system"), ("system",), checker)
    if "system" not in doc.data:
        checker.problems = [doc.problem((), f"missing key 'system'; known systems: {', '.join(systems.known())}")]
    if system_id is INVALID:
        raise InputProblems(checker.problems + [_later(doc)])
    system = _with_house_rules(doc, checker, systems.get(system_id), (house_rules or {}).get(system_id))
    if system is None:
        raise InputProblems(checker.problems + [_later(doc)])
    _check_prose(doc, checker)
    prose = len(checker.problems)
    cleaned = Record(common_keys(system)).check(doc.data, (), checker)
    if cleaned is INVALID or len(checker.problems) > prose:
        raise InputProblems(checker.problems + [_later(doc)])
    # every key has a value of the right kind: the cross-checks run even beside a refused picture or prose
    scenario = Scenario(doc, system, cleaned)
    seen: dict[str, str] = {}
    for i, side in enumerate(cleaned["sides"]):
        name, seen_name = side["name"], None
        visible = _visible(name)
        if not visible:
            checker.report(
                ("sides", i, "name"),
                f"a side name needs a character that prints (got {name!r}: only spaces or invisible characters)",
            )
        elif (seen_name := seen.setdefault(visible, name)) is not name:
            differ = "" if seen_name == name else f" (and {seen_name!r}: the two print alike)"
            checker.report(("sides", i, "name"), f"two sides are named {name!r}{differ}")
    for path, value in _names(cleaned):
        if path[:1] != ("sides",) or path[2:] != ("name",):  # a side's name is told above, beside its twins
            if value and not _visible(value):  # "" is a name left out
                checker.report(
                    path, f"a name needs a character that prints (got {value!r}: only spaces or invisible characters)"
                )
    _check_orders(cleaned["sides"], checker)
    colours = [s.get("colour") for s in cleaned["sides"]]
    for i, colour in enumerate(colours):
        if colour and colour in colours[:i]:
            checker.report(("sides", i, "colour"), f"two sides are {colour}; pick another colour")
    warnings = system.check(scenario, checker)
    if checker.problems:
        raise InputProblems(checker.problems)
    scenario.warnings = [doc.problem(path, "warning: " + text) for path, text in warnings]
    return scenario
