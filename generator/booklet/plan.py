"""The booklet's plan: its cover data, the chapters' order, and the parts to render (a chapter per scenario,
an appendix per system)."""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .. import house, markup, systems
from ..build import APPENDIX, CHAPTER, load, validate_limited
from ..errors import InputProblems, Problem
from ..fetcher import PictureRefused, picture_url, read_picture
from ..loading import load_file
from ..sandbox import run_limited
from ..scenario import NAME_PATTERN, check_prose
from ..schema import INVALID, Bool, Checker, Key, ListOf, Markdown, Record, Str, suggest

CONFIG = Record(
    [
        Key("club", Str(80, NAME_PATTERN, "a club name"), "The club's name, on the cover."),
        Key("season", Str(80, NAME_PATTERN, "a season"), "The season or campaign, e.g. Autumn 2026."),
        Key(
            "title",
            Str(80, NAME_PATTERN, "a title"),
            "The booklet's title; defaults to '<club> scenarios'.",
            required=False,
        ),
        Key("author", Str(80, NAME_PATTERN, "a name"), "Who edited the booklet (the PDF's author).", required=False),
        Key("introduction", Markdown(), "A foreword in Markdown, on the cover.", required=False, default=""),
        Key(
            "chapters",
            ListOf(Str(200, None, "a scenario file name"), min=1),
            "The scenario files in the order their chapters print (each file given on the command line, once);"
            " the command line's order when left out.",
            required=False,
        ),
        Key(
            "logo",
            Str(200, None, "a picture file beside this file"),
            "The club's logo on the cover: a PNG, JPEG, GIF, WebP or SVG file in this file's folder.",
            required=False,
        ),
        Key(
            "house_rules",
            Record(
                [
                    Key(system_id, Str(200, None, "a house-rules file beside this file"), "", required=False)
                    for system_id in systems.known()
                ]
            ),
            "A club's house-rules file for each system, by its id (fireteam-tomorrow: club.yaml), in this file's"
            " folder: every chapter of that system plays it, instead of any its scenario names.",
            required=False,
            default={},
        ),
        Key(
            "double_sided",
            Bool(),
            "Printed on both sides: every chapter and appendix starts on a right-hand (odd) page, after a blank"
            " left-hand page where needed, so one scenario's sheets can be pulled out.",
            required=False,
            default=False,
        ),
    ]
)


@dataclass
class Part:
    """One separately rendered piece of the booklet: a chapter or an appendix."""

    kind: str  # chapter or appendix
    path: str  # the scenario file (an appendix uses its first scenario's)
    title: str
    head: str  # the running head on its pages
    system: str
    author: str = ""
    key: str = ""  # cache key
    # hashes of the scenario files it is made from and of each of their pictures, as its key was made of them
    inputs: tuple = ()
    pdf: bytes = b""  # until the join has it: then let go, so that the booklet's process does not grow with it
    pages: int = 0
    sizes: list[tuple[float, float]] = field(default_factory=list)  # each page's width and height in pt
    bookmarks: list[str] = field(default_factory=list)  # an appendix: its bookmarks' titles, at any depth, in order
    entry: str = ""  # its file's name in the cache
    start: int = 0  # its first printed page in the booklet
    letter: str = ""
    house_title: str = ""  # an appendix of a system played with house rules: their title
    blank_before: bool = False  # a blank left-hand page goes before it (double-sided printing)
    # an appendix: each variant set of its system in use, as (variant names, a scenario playing them)
    variant_sets: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    # an appendix: the chapters' titles that play each variant set, by the set's variant names
    played_in: dict[tuple[str, ...], list[str]] = field(default_factory=dict)

    def receive(self, pdf: bytes, pages: int) -> None:
        """Its PDF has come, rendered or from the cache: kept until the join has it; what the rest of the booklet
        needs of it noted (its pages' sizes for the running heads, an appendix's bookmarks for its contents line,
        its cache entry's name for pruning the cache)."""
        import pikepdf

        from .cache import entry_name

        self.pdf, self.pages, self.bookmarks = pdf, pages, []
        with pikepdf.open(io.BytesIO(pdf)) as document:
            self.sizes = [(float(b[2] - b[0]), float(b[3] - b[1])) for b in (p.mediabox for p in document.pages)]
            if self.kind == APPENDIX:
                with document.open_outline() as outline:
                    stack = list(reversed(outline.root))
                    while stack:
                        item = stack.pop()
                        self.bookmarks.append(item.title)
                        stack += reversed(item.children)
        self.entry = entry_name(self.key, pdf, pages) if self.key else ""

    @property
    def label(self) -> str:
        """Its bookmark, and its contents line's link text."""
        return self.title if self.kind == CHAPTER else f"Appendix {self.letter}: {self.title}"


DEFAULT_CONFIG = {
    "club": "",  # a booklet made without a config names no club and no season (its cover says neither)
    "season": "",
    "title": "Scenario booklet",
    "author": "",
    "introduction": "",
    "chapters": None,
    "logo": None,
    "double_sided": False,
    "introduction_html": "",  # the introduction as the cover prints it, its pictures' checked bytes in it
    "logo_url": None,  # the logo's checked bytes as a data: URL
    "house_rules": {},  # the house-rules file each system's chapters play, by system id
}


def plan(
    config_path: str | None,
    paths: list[str],
    then: Callable[[list[Part], dict[str, str]], None] | None = None,
    jobs: int = 1,
    house_rules: dict[str, str] | None = None,
) -> tuple[dict, list[Part]]:
    """The booklet's cover data and the parts to render, `then` done to them (their cache keys). Every problem is
    collected before any is reported: the config's (its keys, chapters, logo) and every scenario's, listed together.

    Nothing here reads the user's files in this process: the config, each scenario and then the planning (which
    loads every scenario again and reads their pictures for the keys) each run in a limited child.

    The house rules every chapter of a system plays are the config's `house_rules` for it, else `house_rules`
    (the command line's) for it; config["house_rules"] says which were played, and `then` is given them too. The
    command line's must be played by a chapter (the wrong club file is refused); the config's may serve systems
    the booklet has no chapter of."""
    problems: list[Problem] = []
    config, ordered = dict(DEFAULT_CONFIG), list(paths)
    try:
        if config_path is not None:
            config, ordered = run_limited(
                load_config, (config_path, paths), config_path, "reading the booklet's settings"
            )
    except InputProblems as err:  # the scenarios are still read, in the command line's order
        problems.extend(err.problems)
    houses = {**config.get("house_rules", {}), **(house_rules or {})}  # the command line's over the config's
    config["house_rules"] = houses
    try:
        # each file first in its own limited child: none costs more than the limits
        validate_limited(ordered, jobs=jobs, house_rules=houses, played=house_rules)
        parts = run_limited(
            _planned, (ordered, then, houses), ordered[0] if ordered else "booklet", "planning the booklet"
        )
    except InputProblems as err:
        problems.extend(err.problems)
    if problems:
        raise InputProblems(problems)
    return config, parts


def _planned(paths: list[str], then, houses: dict[str, str]) -> list[Part]:
    """In a limited child: the parts, `then` done to them."""
    parts = plan_parts(paths, houses)
    if then is not None:
        then(parts, houses)
    return parts


def load_config(path: str | None, paths: list[str], doc=None) -> tuple[dict, list[str]]:
    """The booklet's cover data, and the scenario files in the order their chapters print.

    Every problem of the config is collected and reported together; a logo is resolved to its file
    (config["logo"] becomes its absolute path) under the same rules as a scenario's pictures."""
    if path is None:
        return dict(DEFAULT_CONFIG), list(paths)
    doc = doc if doc is not None else load_file(path)
    checker = Checker(doc)
    data = CONFIG.check(doc.data, (), checker)
    if data is not INVALID and not checker.problems:
        paths = _chapter_order(data["chapters"], paths, doc, checker)
        data["logo"] = _logo(data["logo"], doc, checker)
        data["house_rules"] = _house_rules(data["house_rules"], doc, checker)
        # the introduction is prose like a briefing: checked the same way, its pictures from this file's folder
        check_prose(doc, checker, ("introduction",), data["introduction"])
    if checker.problems or data is INVALID:
        raise InputProblems(checker.problems)
    # the cover's pictures, read once here (in a limited child) and handed on as their checked bytes: the cover is
    # rendered from these, and the booklet's cache key is made of them, so no later read can print other bytes
    # than the key holds (an edited introduction picture, or a logo swapped for a FIFO, is never read again)
    try:
        data["introduction_html"] = str(markup.to_html(data["introduction"], doc.folder))
        data["logo_url"] = (
            picture_url(read_picture(Path(data["logo"]).parent, Path(data["logo"]).name)) if data["logo"] else None
        )
    except PictureRefused as err:  # changed since it was checked, a moment ago
        raise InputProblems([doc.problem((), f"a picture changed while it was read: {err}")]) from None
    data["title"] = data.get("title") or f"{data['club']} scenarios"
    return data, paths


# keys only a booklet's config has: a file with one of them and no `system` is read as a config by `muster validate`
CONFIG_ONLY = ("club", "season", "chapters", "double_sided", "logo", "introduction")


def is_config(data) -> bool:
    """Whether parsed YAML reads as a booklet's config rather than a scenario (no system, a config's own key)."""
    return isinstance(data, dict) and "system" not in data and any(key in data for key in CONFIG_ONLY)


def check_config(path: str, doc) -> None:
    """`muster validate` on a booklet's config: its keys, logo and introduction, and its chapters each named once
    (the scenarios themselves are checked when they are given, to `muster booklet` or `muster validate`)."""
    chapters = doc.data.get("chapters")
    names = [n for n in chapters if isinstance(n, str)] if isinstance(chapters, list) else []
    # each chapter stands for itself: a bare name matches by name, a path is resolved from the config's folder
    given = list(dict.fromkeys(str(doc.folder / n) if "/" in n else n for n in names))
    load_config(path, given, doc)


def _chapter_order(names: list[str] | None, paths: list[str], doc, checker: Checker) -> list[str]:
    """The command line's files in the order `chapters` names them. A name is a file name (bridge.yaml)
    or a path from the config's folder (../scenarios/bridge.yaml); each file is named exactly once."""
    if names is None:
        return list(paths)
    given = [Path(p).name for p in paths]
    ordered: list[str] = []
    for index, name in enumerate(names):
        where = ("chapters", index)
        if "/" in name:
            target = (doc.folder / name).resolve()
            matches = [p for p in paths if Path(p).resolve() == target]
        else:
            matches = [p for p in paths if Path(p).name == name]
        if not matches:
            checker.report(
                where,
                f"{name!r} is not one of the scenarios given{suggest(Path(name).name, given)}; expected one of {', '.join(given)}",
            )
        elif len(matches) > 1:
            checker.report(
                where, f"{name!r} names {len(matches)} of the scenarios given; write its path from this file's folder"
            )
        elif matches[0] in ordered:
            checker.report(where, f"{name!r} is named twice; each scenario prints once")
        else:
            ordered.append(matches[0])
    missing = [Path(p).name for p in paths if p not in ordered]
    if missing:
        checker.report(
            ("chapters",),
            f"every scenario given must be listed; missing {', '.join(missing)}",
        )
    return ordered


def _house_rules(named: dict, doc, checker: Checker) -> dict[str, str]:
    """Each system's house-rules file, resolved in the config's folder (as a scenario's own is in its folder) and
    checked against its system's rule data: its problems are reported at its own lines."""
    out = {}
    for system_id, name in named.items():
        if name is None:
            continue
        try:
            path = house.named_file(doc.folder, name)
            systems.get(system_id).with_house_rules(path)
        except ValueError as err:
            checker.report(("house_rules", system_id), str(err))
        except InputProblems as err:
            checker.problems.extend(err.problems)
        else:
            out[system_id] = str(path)
    return out


def _logo(name: str | None, doc, checker: Checker) -> str | None:
    """The logo's absolute path, checked as a scenario's pictures are: a plain relative path
    (generator/markup.py), a real picture file inside the config's folder (generator/fetcher.py)."""
    if name is None:
        return None
    if markup._keep_attribute("img", "src", name) is None:  # the rule a briefing's picture meets
        checker.report(
            ("logo",),
            f"expected a plain relative path to a PNG, JPEG, GIF, WebP or SVG file in {doc.folder.name}/ (got {name!r})",
        )
        return None
    try:
        read_picture(doc.folder, name)
    except PictureRefused as err:
        checker.report(("logo",), str(err))
        return None
    return str((doc.folder / name).resolve())


_LOADED: dict = {}  # per process: a scenario read once serves its chapter and its system's appendix


def load_scenario(path: str, houses: dict[str, str] | None = None):
    """A scenario, loaded once per process while its file is unchanged; `houses`, the house rules played by
    system instead of the scenario's own (scenario.validate)."""
    houses = houses or {}
    try:
        stat = os.stat(path)
        # an edited file is read again
        key = (path, stat.st_mtime_ns, stat.st_size, tuple(sorted(houses.items())))
    except OSError:
        return load(path, houses)  # let load() word the problem
    if key not in _LOADED:
        _LOADED[key] = load(path, houses)
    return _LOADED[key]


def plan_parts(paths: list[str], houses: dict[str, str] | None = None) -> list[Part]:
    """Load every scenario (collecting every problem of every file) and list the parts to render."""
    problems: list[Problem] = []
    scenarios = []
    for path in paths:
        try:
            scenarios.append(load_scenario(path, houses))
        except InputProblems as err:
            problems.extend(err.problems)
    if problems:
        raise InputProblems(problems)
    parts = []
    appendices: dict[str, Part] = {}  # one per system, in the order the chapters first use it
    for scenario in scenarios:
        parts.append(
            Part(
                CHAPTER,
                scenario.doc.file,
                scenario.title,
                scenario.title,
                scenario.system.title,
                scenario.data.get("author") or "",
            )
        )
        system = scenario.system
        # chapters played with house rules share an appendix with those played with the same file's rules only:
        # the appendix prints the reference and odds of the rules it serves
        house = system.house
        group = (system.id, hashlib.sha256(house.doc.source).hexdigest() if house else "")
        if group not in appendices:
            title = system.title if house is None else f"{system.title}, {house.title or 'house rules'}"
            appendices[group] = Part(APPENDIX, scenario.doc.file, title, "", system.title)
            appendices[group].house_title = house.title or "house rules" if house else ""
        # its variants get their own sections inside the system's appendix (generator/booklet/appendix.py)
        part = appendices[group]
        key = system.appendix_key(scenario)  # (system id, its variant names)
        names = tuple(key[1]) if len(key) > 1 else ()
        if names not in [n for n, _ in part.variant_sets]:
            part.variant_sets.append((names, scenario.doc.file))
        part.played_in.setdefault(names, []).append(scenario.title)
    for letter, part in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", appendices.values()):
        part.letter = letter
        part.head = f"Appendix {letter}: {part.title}"
        part.variant_sets.sort()  # the rules as written (no variants) first
        part.path = part.variant_sets[0][1]
    return parts + list(appendices.values())
