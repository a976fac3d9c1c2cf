"""Shared test helpers: run the command line in-process and read what it printed and wrote."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import pickle
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


def run_folder(tmp_path_factory) -> Path:
    """The test run's own folder, which all its workers share (pytest-xdist gives each worker a session and a base
    folder of its own under it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def shared(tmp_path_factory):
    """shared(key, make) -> make(folder)'s result, made once in the whole test run and read back by every other
    caller: `make test` runs a worker per core (pytest-xdist), each with its own session, and a pack or a page-flow
    trial made by both was paid for twice. The result is pickled in a folder all workers share, under a lock per key,
    so a worker asking for what the other is making waits for it. `make` is given a folder of its own to write files
    in, and may return their paths."""
    root = run_folder(tmp_path_factory) / "shared"
    root.mkdir(exist_ok=True)
    memo: dict = {}

    def get(key: tuple, make):
        if key in memo:
            return memo[key]
        name = hashlib.sha256(repr(key).encode()).hexdigest()[:16]
        done = root / f"{name}.pickle"
        with open(root / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or when its worker dies
            if done.exists():
                value = pickle.loads(done.read_bytes())
            else:
                folder = root / name
                folder.mkdir(exist_ok=True)
                value = make(folder)
                part = done.with_suffix(".part")
                part.write_bytes(pickle.dumps(value))
                part.replace(done)
        memo[key] = value
        return value

    return get


@pytest.fixture(scope="session")
def built(shared):
    """Build a scenario once per test run: built("bridge") -> (pack.pdf, cards.pdf)."""

    def build(name: str, *extra: str):
        if extra == ("--paper", "a4"):  # the default: the same build, made once
            extra = ()

        def make(out: Path):
            code = main(["build", str(SCENARIOS / f"{name}.yaml"), "--out", str(out), *extra])
            assert code == 0, f"building {name} failed"
            return out / name / f"{name}.pdf", out / name / f"{name}-cards.pdf"

        return shared(("built", name, *extra), make)

    return build


@pytest.fixture(scope="session")
def example_booklet_on(shared):
    """example_booklet_on(paper) -> the example booklet as `make booklet` builds it (every example behind
    booklets/club.yaml) on that paper, built once in the test run for every test that reads it."""

    def build(paper: str) -> Path:
        def make(folder: Path) -> Path:
            out = folder / "booklet.pdf"
            paths = [str(path) for path in sorted(SCENARIOS.glob("*.yaml"))]
            config = str(ROOT / "booklets" / "club.yaml")
            code = main(["booklet", *paths, "--config", config, "--out", str(out), "--paper", paper, "--jobs", "2"])
            assert code == 0, f"the example booklet on {paper} failed"
            return out

        return shared(("example booklet", paper), make)

    return build


os.environ.setdefault("MUSTER_TEST", "1")


@pytest.fixture(scope="session", autouse=True)
def booklet_cache(tmp_path_factory):
    """The suite's booklets cache in a folder of the test run, never in the user's own cache folder: one folder for
    all the run's workers, so that a chapter one worker printed is read by the other (the cache is made for builds
    that share it: entries are written whole and checked when read)."""
    before = os.environ.get("MUSTER_CACHE")
    folder = run_folder(tmp_path_factory) / "booklet-cache"
    folder.mkdir(exist_ok=True)
    os.environ["MUSTER_CACHE"] = str(folder)
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
