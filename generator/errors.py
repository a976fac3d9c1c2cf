"""One home for Muster's errors: a Problem names where and what, and every failure shares one base."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one input file, at a line and column where known."""

    file: str
    line: int
    col: int
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.col}" if self.line else self.file
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


class MusterError(Exception):
    """Base of every error Muster reports to a user instead of a traceback."""

    exit_status = 1


class InputProblems(MusterError):
    """The input files have problems; nothing was written."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems), key=lambda p: (p.file, p.line, p.col, p.path, p.message))
        super().__init__("\n".join(str(p) for p in self.problems))


class UsageError(MusterError):
    """The command line was used wrongly."""

    exit_status = 2


class RenderError(MusterError):
    """Rendering or writing a PDF failed (a template, a picture, the disk)."""
