"""A build killed at any moment leaves the old PDF or none, never a truncated one.

`make test` kills a handful of builds; `make fuzz` sets MUSTER_KILLS=100. Each round runs `python -m generator build`
in its own process group and SIGKILLs the group after a random delay, so the render child dies with it.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

from conftest import ROOT, SCENARIOS
from pypdf import PdfReader

KILLS = int(os.environ.get("MUSTER_KILLS", "3"))
SCENARIO = SCENARIOS / "warspike-hold-the-ford.yaml"  # the quickest example to build (about 3 s)


def build(out, env):
    return subprocess.Popen(
        [sys.executable, "-m", "generator", "build", str(SCENARIO), "--out", str(out)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def group_gone(pgid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_builds_killed_at_random_moments_leave_only_whole_pdfs(tmp_path, built):
    """After each SIGKILL no process of the build lives on, and every PDF left opens and equals a complete build's."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    name = SCENARIO.stem
    good = {p.name: p.read_bytes() for p in built(name)}  # same input and seed give the same bytes
    full = 4.0  # seconds a command-line build of the ford takes here: the kills land from start-up to the rename
    out = tmp_path / "out"
    rng = random.Random(7)  # the delays are reproducible; MUSTER_KILLS sets how many
    for round_ in range(KILLS):
        process = build(out, env)
        time.sleep(rng.uniform(0, full * 1.1))
        if round_ % 2:  # the whole process group, as a terminal's kill would
            os.killpg(process.pid, signal.SIGKILL)
        else:  # the build process alone: its fork server and render child must die with it, not run on
            process.kill()
        process.wait(30)
        assert group_gone(process.pid, 10), f"round {round_}: a process of the killed build is still running"
        folder = out / name
        pdfs = sorted(folder.glob("*.pdf")) if folder.exists() else []
        for path in pdfs:
            assert path.name in good, f"round {round_}: stray {path.name}"
            assert path.read_bytes() == good[path.name], f"round {round_}: {path.name} differs from a whole build"
            assert len(PdfReader(path).pages) > 0
        if folder.exists():  # a .part left by the kill is hidden and never ends in .pdf
            assert all(p.name.endswith(".pdf") or p.name.endswith(".part") for p in folder.iterdir())
