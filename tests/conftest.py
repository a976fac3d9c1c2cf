"""Shared test helpers: run the command line in-process and read what it printed and wrote."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
DATA = Path(__file__).resolve().parent / "data"


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self):
        return json.loads(self.out)


@pytest.fixture
def muster(capsys):
    """Call `muster ARGS...` in this process; returns exit code, stdout and stderr."""

    def run(*args: str) -> Result:
        try:
            code = main([str(a) for a in args])
        except SystemExit as exit_:  # argparse's own usage errors
            code = exit_.code
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """Build a scenario once per test session: built("bridge") -> (pack.pdf, cards.pdf)."""
    cache: dict = {}

    def build(name: str, *extra: str):
        key = (name,) + extra
        if key not in cache:
            out = tmp_path_factory.mktemp("built")
            code = main(["build", str(SCENARIOS / f"{name}.yaml"), "--out", str(out), *extra])
            assert code == 0, f"building {name} failed"
            cache[key] = (out / name / f"{name}.pdf", out / name / f"{name}-cards.pdf")
        return cache[key]

    return build


os.environ.setdefault("MUSTER_TEST", "1")
