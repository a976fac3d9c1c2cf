"""The booklet's plan: its cover data, and the parts to render (a chapter per scenario, an appendix per system)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..build import APPENDIX, CHAPTER, load
from ..errors import InputProblems, Problem
from ..loading import load_file
from ..scenario import NAME_PATTERN
from ..schema import INVALID, Checker, Key, Markdown, Record, Str

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
    pdf: bytes = b""
    pages: int = 0
    start: int = 0
    letter: str = ""

    @property
    def label(self) -> str:
        """Its bookmark, and its contents line's link text."""
        return self.title if self.kind == CHAPTER else f"Appendix {self.letter}: {self.title}"


def load_config(path: str | None) -> dict:
    if path is None:
        return {"club": "Muster", "season": "Scenarios", "title": "Scenario booklet", "author": "", "introduction": ""}
    doc = load_file(path)
    checker = Checker(doc)
    data = CONFIG.check(doc.data, (), checker)
    if checker.problems or data is INVALID:
        raise InputProblems(checker.problems)
    data["title"] = data.get("title") or f"{data['club']} scenarios"
    return data


_LOADED: dict = {}  # per process: a scenario read once serves its chapter and its system's appendix


def load_scenario(path: str):
    """A scenario, loaded once per process while its file is unchanged."""
    try:
        stat = os.stat(path)
        key = (path, stat.st_mtime_ns, stat.st_size)  # an edited file is read again
    except OSError:
        return load(path)  # let load() word the problem
    if key not in _LOADED:
        _LOADED[key] = load(path)
    return _LOADED[key]


def plan_parts(paths: list[str]) -> list[Part]:
    """Load every scenario (collecting every problem of every file) and list the parts to render."""
    problems: list[Problem] = []
    scenarios = []
    for path in paths:
        try:
            scenarios.append(load_scenario(path))
        except InputProblems as err:
            problems.extend(err.problems)
    if problems:
        raise InputProblems(problems)
    parts = []
    appendices: dict[tuple, Part] = {}
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
        key = scenario.system.appendix_key(scenario)
        if key not in appendices:
            variants = ", ".join(key[1]) if len(key) > 1 and key[1] else ""
            title = scenario.system.title + (f" ({variants})" if variants else "")
            appendices[key] = Part(APPENDIX, scenario.doc.file, title, f"Appendix: {title}", scenario.system.title)
    for letter, part in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", appendices.values()):
        part.letter = letter
        part.head = f"Appendix {letter}: {part.title}"
    return parts + list(appendices.values())
