"""One home for Muster's errors: a Problem names where and what, and every failure shares one base."""

from __future__ import annotations

from dataclasses import dataclass


def quoted(name: str) -> str:
    """A file name as messages show it: as it is, or quoted with escapes when it holds a line break or another
    character that is not printable, so that a name such as 'x.yaml\\nother.yaml:1:1: ...' cannot forge a line."""
    name = str(name)
    return name if name.isprintable() else repr(name)


def printable(text: str) -> str:
    """Text as a message shows it: every character that is not printable (a line break, a terminal escape, a
    no-break space) written as its escape, so that a key written in a file cannot forge a line or clear a screen."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one input file, at a line and column where known."""

    file: str
    line: int
    col: int
    path: str
    message: str
    # a line that goes with a file's problems but is none itself (which checks have yet to run): not counted
    notice: bool = False

    def __str__(self) -> str:
        file = quoted(self.file)
        where = f"{file}:{self.line}:{self.col}" if self.line else file
        message = printable(self.message)
        return f"{where}: {printable(self.path)}: {message}" if self.path else f"{where}: {message}"


class MusterError(Exception):
    """Base of every error Muster reports to a user instead of a traceback."""

    exit_status = 1


class InputProblems(MusterError):
    """The input files have problems; nothing was written."""

    def __init__(self, problems: list[Problem]):
        # each file's problems in the order of its lines, then its notice
        self.problems = sorted(set(problems), key=lambda p: (p.file, p.notice, p.line, p.col, p.path, p.message))
        super().__init__("\n".join(str(p) for p in self.problems))

    @property
    def count(self) -> int:
        """How many problems there are, notices aside."""
        return sum(1 for p in self.problems if not p.notice)


class UsageError(MusterError):
    """The command line was used wrongly."""

    exit_status = 2


class RenderError(MusterError):
    """Rendering or writing a PDF failed (a template, a picture, the disk)."""


class UnfitText(RenderError):
    """Marked text (generator/fit.py) that does not fit its box even at its smallest size.

    `unfit` holds fit.Unfit records (path, text, smallest size, longest prefix that fits); the build turns
    those with a scenario path into Problems at their line and column.
    """

    def __init__(self, unfit: list):
        self.unfit = list(unfit)
        super().__init__("; ".join(f"{u.text!r} does not fit its box even at {u.min_pt:g} pt" for u in self.unfit))

    def __reduce__(self):  # crosses the render child's pipe
        return (UnfitText, (self.unfit,))
