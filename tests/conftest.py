"""Shared test helpers: run the command line in-process and read what it printed and wrote."""

from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, settings

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


def examples_by_system() -> dict[str, list[str]]:
    """Every example scenarios/NAME.yaml, grouped by the system it names: {system id: [NAME, ...]}."""
    grouped: dict[str, list[str]] = {}
    for path in sorted(SCENARIOS.glob("*.yaml")):
        grouped.setdefault(yaml.safe_load(path.read_text(encoding="utf-8"))["system"], []).append(path.stem)
    return grouped


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


@pytest.fixture(scope="session", autouse=True)
def booklet_cache(tmp_path_factory):
    """The suite's booklets cache in a folder of the test session, never in the user's own cache folder."""
    before = os.environ.get("MUSTER_CACHE")
    os.environ["MUSTER_CACHE"] = str(tmp_path_factory.mktemp("booklet-cache"))
    yield
    if before is None:
        del os.environ["MUSTER_CACHE"]
    else:
        os.environ["MUSTER_CACHE"] = before


# Hypothesis profiles: "quick" for `make test` (three tests x 70 inputs, seconds); "fuzz" for `make fuzz`
# (MUSTER_FUZZ=1): three fuzz tests x 4,000 = 12,000 generated inputs.
# make test's slice is derandomised: CI must pass or fail the same way on the same code; make fuzz explores afresh
settings.register_profile(
    "quick",
    max_examples=70,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("fuzz", max_examples=4000, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile("fuzz" if os.environ.get("MUSTER_FUZZ") else "quick")


# No test may reach the network: a connect on anything but a Unix socket fails the test that tried,
# even when the code under test swallowed the error. (The render child's fetcher refuses every scheme but
# file: and data:, tested in test_hostile.py; the multiprocessing fork server talks over AF_UNIX.)
NETWORK_ATTEMPTS: list[str] = []
_connect, _connect_ex = socket.socket.connect, socket.socket.connect_ex


def _guarded(real):
    def connect(self, address):
        if self.family != getattr(socket, "AF_UNIX", None):
            NETWORK_ATTEMPTS.append(repr(address))
            raise OSError(f"network access during the tests: connect to {address!r}")
        return real(self, address)

    return connect


socket.socket.connect = _guarded(_connect)
socket.socket.connect_ex = _guarded(_connect_ex)


@pytest.fixture(autouse=True)
def no_network():
    """Fail any test during which a network connection was attempted."""
    before = len(NETWORK_ATTEMPTS)
    yield
    assert NETWORK_ATTEMPTS[before:] == [], f"network connection attempted: {NETWORK_ATTEMPTS[before:]}"
