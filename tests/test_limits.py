"""The whole build is bounded: no input under 1 MB makes any process pass MUSTER_RENDER_MEMORY_MB or run past
MUSTER_RENDER_SECONDS, and the command line refuses limits, offsets, names and interruptions it cannot honour.

tests/data/hostile/costly/*.yaml hold inputs that once cost minutes or gigabytes (first line `# neutralised: ...`);
the largest, an 806 KB grid file, is written by the test. Each is built by a real `python -m generator` under
small limits, in a wrapper that reads the peak resident memory of every process it and its children waited for.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from conftest import DATA, ROOT, SCENARIOS, files_under

from generator import sandbox
from generator.cli import INTERRUPTED, PROBLEMS_SHOWN, parser

COSTLY = DATA / "hostile" / "costly"
SECONDS, MEMORY_MB = 5, 512  # small limits: each attack below once ran 15 s to minutes, or used gigabytes


def whole_grid_again_and_again(path: Path) -> None:
    """200 woods each naming the whole 26 x 40 grid 400 times: 806 KB that cost 114 s and 5.9 GB to validate."""
    blocks = ", ".join(['"A1:Z40"'] * 400)
    entries = f"  - {{kind: woods, squares: [{blocks}]}}\n" * 200
    path.write_text(
        "title: The whole grid again\nsystem: morschauser-modern\nbriefing: x\nvictory: x\n"
        "grid: {columns: 26, rows: 40}\nterrain:\n" + entries + "sides:\n"
        "  - {name: Blue, colour: blue, units: [{type: infantry, at: C4, facing: east}]}\n"
        "  - {name: Red, colour: red, units: [{type: infantry, at: H5, facing: west}]}\n"
    )
    assert path.stat().st_size < 1024 * 1024


def named_roads_the_length_of_the_grid(path: Path, roads: int = 190) -> None:
    """Named roads, each a snake through every square of a 26 x 40 grid: 62 KB within every documented bound
    that took past 120 s to validate (each road's band blocked again at every square, and each name tried at
    each of its 1,040 squares against all of them)."""
    snake = ", ".join(
        f'"{column}1:{column}40"' if i % 2 == 0 else f'"{column}40:{column}1"'
        for i, column in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    )
    entries = "".join(f"  - {{kind: road, name: Road number {n}, squares: [{snake}]}}\n" for n in range(1, roads + 1))
    path.write_text(
        "title: Roads everywhere\nsystem: morschauser-modern\nbriefing: x\nvictory: x\n"
        "grid: {columns: 26, rows: 40}\nterrain:\n" + entries + "sides:\n"
        "  - {name: Blue, colour: blue, units: [{type: infantry, at: C4, facing: east}, {type: afv, at: D6, facing: north}]}\n"
        "  - {name: Red, colour: red, units: [{type: infantry, at: H5, facing: west}, {type: mortar, at: J9, facing: south}]}\n"
    )


# name: (its file, or how to write it; what stderr must say)
COSTLY_CASES = {
    "markdown_ten_thousand_hash_lines": (None, rf"building took longer than {SECONDS} s \(MUSTER_RENDER_SECONDS\)"),
    "off_grid_blocks_repeated": (None, r"block A1:Z99 is off the 12 x 9 grid .*\n\.\.\. and 300 more problems\n"),
    "whole_grid_again_and_again": (
        whole_grid_again_and_again,
        rf"building (took longer than {SECONDS} s|needed more than {MEMORY_MB} MiB|stopped)",
    ),
}

MEASURE = (
    "import resource, subprocess, sys, time\n"
    "started = time.monotonic()\n"
    "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
    "sys.stderr.write(done.stderr)\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024\n"  # KiB on Linux: the largest child
    "print(done.returncode, round(time.monotonic() - started, 1), peak)\n"
)


def measured(*args, env: dict, timeout: float = 120) -> tuple[int, str, float, int]:
    """Run `python -m generator ARGS` in a wrapper: exit status, stderr, seconds, and the peak RSS in MiB of any
    process of it (the command and every limited child, each waited for, so each counted)."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, sys.executable, "-m", "generator", *map(str, args)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    code, seconds, peak = done.stdout.split()
    return int(code), done.stderr, float(seconds), int(peak)


def test_the_costly_files_keep_the_hostile_convention():
    """Each costly file says on its first line what happens to it, as the rest of tests/data/hostile/ does."""
    for path in sorted(COSTLY.glob("*.yaml")):
        assert re.match(r"# neutralised: .+", path.read_text().split("\n", 1)[0]), path.name
    assert {p.stem for p in COSTLY.glob("*.yaml")} <= set(COSTLY_CASES)


@pytest.mark.parametrize("case", sorted(COSTLY_CASES))
def test_a_costly_file_stops_within_the_limits_and_no_process_passes_the_memory_limit(case, tmp_path):
    """Validation, Markdown and rendering all run under the one limit: exit 1 naming the file, within the time
    limit (plus start-up), no process above the memory limit, nothing written. The measurement is printed."""
    write, message = COSTLY_CASES[case]
    path = COSTLY / f"{case}.yaml"
    if write:
        path = tmp_path / f"{case}.yaml"
        write(path)
    out = tmp_path / "out"
    env = {"MUSTER_RENDER_SECONDS": str(SECONDS), "MUSTER_RENDER_MEMORY_MB": str(MEMORY_MB)}
    code, err, seconds, peak = measured("build", path, "--out", out, env=env)
    print(f"{case}: exit {code} in {seconds} s, peak {peak} MiB (limits {SECONDS} s, {MEMORY_MB} MiB)")
    assert code == 1 and "Traceback" not in err, err
    assert str(path) in err and re.search(message, err), err
    assert peak <= MEMORY_MB, f"a process of the build peaked at {peak} MiB"
    assert seconds < SECONDS + 15, "the limit held the build, plus its start-up and validation's clock"
    assert not out.exists() or files_under(out) == []


def test_a_map_of_two_hundred_named_roads_through_every_square_validates_well_inside_the_limit(tmp_path):
    """Issue 12, F6 of the second red team: 190 named roads, each through all 1,040 squares, ran `muster validate`
    past its 120 s clock (the map's labels are placed to check the names fit). Repeated bands are now one obstacle,
    what lies near a label is found from an index, and a name is tried at a dozen of its squares: about 10 s."""
    path = tmp_path / "roads.yaml"
    named_roads_the_length_of_the_grid(path)
    assert path.stat().st_size < 64 * 1024
    code, err, seconds, peak = measured("validate", path, env={"MUSTER_RENDER_SECONDS": "60"}, timeout=180)
    print(f"190 named roads: exit {code} in {seconds} s, peak {peak} MiB")
    assert (code, err) == (0, ""), err


def bridge_on_a_table(path: Path, size: float, terrain: list, zones: bool = True) -> Path:
    """The bridge example on a square table of `size` inches with this terrain (without its deployment zones,
    objectives and teams' starting points, which lie off a small table, unless `zones`)."""
    scenario = yaml.safe_load((SCENARIOS / "bridge.yaml").read_text())
    scenario["table"] = {"width": size, "depth": size}
    scenario["terrain"] = terrain
    if not zones:
        scenario.pop("objectives")
        for side in scenario["sides"]:
            side.pop("deployment")
            for unit in side["teams"] + side.get("vehicles", []):
                unit.pop("at", None)
    path.write_text(yaml.safe_dump(scenario, sort_keys=False))
    assert path.stat().st_size < 256 * 1024
    return path


def validates_within(path: Path, seconds: int, megabytes: int) -> int:
    """Validate the file under these limits: it passes, clean; the peak memory of any process of it, in MiB."""
    env = {"MUSTER_RENDER_SECONDS": str(seconds), "MUSTER_RENDER_MEMORY_MB": str(megabytes)}
    code, err, took, peak = measured("validate", path, env=env, timeout=180)
    print(f"{path.name}: exit {code} in {took} s, peak {peak} MiB")
    assert (code, err) == (0, ""), err
    return peak


@pytest.mark.parametrize("woods, roads", [(120, 0), (0, 20)])
def test_zigzag_woods_and_roads_over_a_big_table_validate_inside_the_limits(woods, roads, tmp_path):
    """Issue 12, F2 and F3 of the third red team: on a 480-inch table, 120 zigzag woods (64 corners each) needed
    more than 2 GiB to validate and 20 named zigzag roads more than 120 s; each line was blocked as a box every
    quarter inch (170,000 a wood) and each name measured against them at 1,890 spots. Lines are bands now, a name
    is tried beside a few dozen pieces of its line, and a spot found hopelessly crowded is measured no further."""
    zigzag = [[0 if i % 2 == 0 else 480, i * 7.5] for i in range(64)]
    terrain = [{"kind": "woods", "polygon": [[x, min(y + n * 0.37, 480)] for x, y in zigzag]} for n in range(woods)] + [
        {"kind": "road", "name": f"Road {n:03}", "width": 0.2, "line": [[x, min(y + n * 0.37, 480)] for x, y in zigzag]}
        for n in range(roads)
    ]
    assert validates_within(bridge_on_a_table(tmp_path / "zigzags.yaml", 480, terrain), 60, 1024) <= 1024


def test_named_roads_stacked_along_one_edge_validate_well_inside_the_clock(tmp_path):
    """Issue 12, fourth red team F3: 120 roads 24 inches wide with 40-character names, each zigzagging 64 times
    along the top edge of a 480-inch table, took 100 s to validate: every spot of every name lies among thousands
    of bands. Past labels.WORK boxes looked at on one map, each label left takes its first spot."""
    terrain = [
        {
            "kind": "road",
            "name": "W" * 37 + f"{n:03}",
            "width": 24,
            "line": [[0 if i % 2 == 0 else 480, round(n * 0.064 + i * 0.001, 3)] for i in range(64)],
        }
        for n in range(120)
    ]
    # 60 s of wall clock, half the default: the suite runs a worker per core, so this child shares its core
    validates_within(bridge_on_a_table(tmp_path / "stacked.yaml", 480, terrain), 60, 1024)


def test_roads_wider_than_a_small_table_are_drawn_inside_the_memory_limit(tmp_path):
    """Issue 12, fourth red team F2: 120 roads 24 inches wide zigzagging across a 12-inch table took 1.9 GB to
    validate: each road was cut into pieces a cell of the placement's index long, and a piece as wide as the table
    is listed in every one of its 1,024 cells. A line is cut no shorter than it is wide."""
    terrain = [
        {
            "kind": "road",
            "width": 24,
            "line": [[0 if i % 2 == 0 else 12, (i * 0.19 + n * 0.013) % 12] for i in range(64)],
        }
        for n in range(120)
    ]
    peak = validates_within(bridge_on_a_table(tmp_path / "wide.yaml", 12, terrain, zones=False), 60, 768)
    assert peak <= 400, "about 240 MiB here (600 before, 1.9 GB for the red team's own file)"


def test_problems_past_a_hundred_are_counted_not_printed(muster):
    """A file with 400 problems prints the first 100, then how many more, then the total: 102 lines, not a million."""
    result = muster("validate", COSTLY / "off_grid_blocks_repeated.yaml")
    lines = result.err.splitlines()
    assert result.code == 1 and len(lines) == PROBLEMS_SHOWN + 2, lines[-3:]
    assert lines[-2:] == ["... and 300 more problems", "muster: 400 problems"]  # validate writes nothing anyway
    assert all(re.search(r":8:\d+: terrain\[0\]\.squares\[\d+\]: block A1:Z99 is off", line) for line in lines[:-2])


def test_a_booklet_chapter_past_its_own_clock_is_stopped_naming_its_file(muster, tmp_path, monkeypatch):
    """A chapter's Markdown runs in its own limited child: past MUSTER_RENDER_SECONDS it stops, and the message
    names its file (the limit was pooled for the whole booklet, and Markdown ran before its clock)."""
    monkeypatch.setenv("MUSTER_RENDER_SECONDS", "3")
    hostile = COSTLY / "markdown_ten_thousand_hash_lines.yaml"
    out = tmp_path / "club.pdf"
    started = time.monotonic()
    result = muster("booklet", hostile, "--out", out, "--no-cache")
    assert result.code == 1, result.err
    assert f"muster: {hostile}: rendering took longer than 3 s (MUSTER_RENDER_SECONDS)" in result.err
    assert time.monotonic() - started < 3 + 12 and not out.exists()


def test_a_booklet_introduction_past_the_limit_is_stopped_naming_the_config(muster, tmp_path, monkeypatch):
    """The cover's introduction (the club's Markdown) is converted in a limited child like every chapter: 10,000
    lines of only '#' (quadratic in Python-Markdown) stop at MUSTER_RENDER_SECONDS with one line naming the config
    file, exit 1, and no booklet written. Since c86b984 the config's own child converts it (with the cover's
    pictures, read once there) and the cover's child lays it out: either may be the one the clock stops."""
    scenario = SCENARIOS / "warspike-hold-the-ford.yaml"
    warm = muster("booklet", scenario, "--out", tmp_path / "warm.pdf")  # its chapter and appendix now in the cache
    assert warm.code == 0, warm.err
    config = tmp_path / "club.yaml"
    config.write_text("club: Hashes\nseason: Autumn\nintroduction: |\n" + "  #\n" * 9_999)
    monkeypatch.setenv("MUSTER_RENDER_SECONDS", "4")
    out = tmp_path / "club.pdf"
    started = time.monotonic()
    result = muster("booklet", scenario, "--config", config, "--out", out)
    took = time.monotonic() - started
    print(f"hostile introduction: exit {result.code} in {took:.1f} s (limit 4 s)")
    assert result.code == 1 and "Traceback" not in result.err, result.err
    step = "(reading the booklet's settings|making the cover and contents)"
    last = result.err.splitlines()[-1]
    assert re.fullmatch(
        rf"muster: {re.escape(str(config))}: {step} took longer than 4 s \(MUSTER_RENDER_SECONDS\); "
        "the file is too large or hostile",
        last,
    ), result.err
    assert took < 4 + 12 and not out.exists()


def test_no_more_processes_run_at_once_than_there_are_cpus(tmp_path):
    """--jobs 1000 runs at most one limited child per CPU: each child logs its start and end, none overlap more."""
    log = tmp_path / "log"

    def job(name):
        with open(log, "a") as file:
            file.write(f"{time.monotonic()} 1\n")
        time.sleep(0.4)
        with open(log, "a") as file:
            file.write(f"{time.monotonic()} -1\n")
        return name

    results = {}
    jobs = [(f"part{i}.yaml", i) for i in range(6)]
    sandbox.run_each_limited(job, jobs, 1000, lambda index, result: results.update({index: result}))
    assert results == {i: i for i in range(6)}
    running = most = 0
    for line in sorted(log.read_text().splitlines(), key=lambda line: (float(line.split()[0]), int(line.split()[1]))):
        running += int(line.split()[1])
        most = max(most, running)
    assert 1 <= most <= (os.cpu_count() or 1)


def test_a_child_past_its_memory_limit_fails_naming_the_file_and_the_setting(monkeypatch):
    """A child that asks for more than MUSTER_RENDER_MEMORY_MB gets a MemoryError; the parent words it in one line."""
    from generator.errors import RenderError

    monkeypatch.setenv("MUSTER_RENDER_MEMORY_MB", "400")
    with pytest.raises(RenderError, match=r"^big\.yaml: building needed more than 400 MiB \(MUSTER_RENDER_MEMORY_MB\)"):
        sandbox.run_limited(bytearray, (1024**3,), "big.yaml")


@pytest.mark.parametrize(
    "name, value",
    [
        ("MUSTER_RENDER_SECONDS", "inf"),
        ("MUSTER_RENDER_SECONDS", "1e20"),
        ("MUSTER_RENDER_SECONDS", "1e309"),
        ("MUSTER_RENDER_SECONDS", "0.05"),
        ("MUSTER_RENDER_MEMORY_MB", "inf"),
        ("MUSTER_RENDER_MEMORY_MB", "1e20"),
        ("MUSTER_RENDER_MEMORY_MB", "1e309"),
        ("MUSTER_RENDER_MEMORY_MB", "64"),
    ],
)
def test_a_limit_that_is_infinite_huge_or_too_small_is_a_one_line_usage_error(name, value, muster, monkeypatch):
    """inf, 1e20 and 1e309 are no limit, and 64 MiB or 0.05 s no build: each is refused before any work, exit 2."""
    monkeypatch.setenv(name, value)
    result = muster("validate", SCENARIOS / "bridge.yaml")
    assert result.code == 2 and result.out == "", result.err
    assert result.err.count("\n") == 1 and result.err.startswith(f"muster: {name} must be a number from "), result.err


@pytest.mark.parametrize("command", [["build", "x.yaml"], ["calibrate"]])
def test_a_negative_back_offset_is_read_as_the_calibration_sheet_prints_it(command):
    """`--back-offset -0.5,1`, without `=`, is a value, not an unknown option."""
    args = parser().parse_args([*command, "--back-offset", "-0.5,1"])
    assert args.back_offset == (-0.5, 1.0)
    assert parser().parse_args([*command, "--back-offset", "-1,-2.5"]).back_offset == (-1.0, -2.5)


def test_a_file_name_with_a_newline_cannot_forge_a_problem_line(muster, tmp_path):
    """The name is quoted with its newline escaped: every problem line still starts with the real file's name."""
    forged = "forged.yaml:1:1: title: all is well"
    path = tmp_path / f"x.yaml\n{forged}"
    path.write_text("title: [unclosed\n")
    result = muster("validate", path)
    assert result.code == 1
    lines = result.err.splitlines()
    assert not any(line.startswith("forged.yaml") for line in lines), lines
    assert lines[0].startswith(repr(str(path)) + ":"), lines


def limited_child_started(process: subprocess.Popen, timeout: float = 60) -> bool:
    """Wait until the command has forked its limited child (its imports are done and the build has begun): the
    child's own word that it is working, read from /proc, instead of a guess at how long start-up takes."""
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    deadline = time.monotonic() + timeout
    while process.poll() is None and time.monotonic() < deadline:
        if children.read_text().split():
            return True
        time.sleep(0.005)
    return False


@pytest.mark.skipif(not hasattr(os, "register_at_fork"), reason="needs fork")
def test_ctrl_c_in_the_instant_after_the_fork_never_reaches_the_child_as_an_interrupt():
    """Ctrl-C reaches the whole process group: a SIGINT landing in the limited child before its first line ran
    printed multiprocessing's "Process ForkProcess-1:" above Muster's one line (seen once in CI). Here a fork hook
    sends it from inside the child the instant after the fork, every time, instead of hoping for the race: it must
    wait there until the child ignores it (it raised KeyboardInterrupt in the hook), and the build go on."""
    script = (
        "import os, signal\n"
        "from generator import sandbox\n"
        "os.register_at_fork(after_in_child=lambda: os.kill(os.getpid(), signal.SIGINT))\n"
        "print(sandbox.run_limited(sum, ((1, 2),), 'sum.yaml'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "3\n", "")


@pytest.mark.skipif(not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("after", [0.0, 0.5, 2.0])
def test_ctrl_c_while_building_ends_with_one_line_and_exit_130(after, tmp_path):
    """SIGINT to the build's process group (as a terminal sends it) once the build has begun, at once or later
    (validating, rendering, writing): one line, exit 130, no traceback, and no PDF but a whole one. The moment
    is taken from the build itself (its limited child exists), so a loaded machine cannot move it into start-up
    (a fixed 0.6 s once landed there); start-up is the tests below."""
    out = tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "build", str(SCENARIOS / "warspike-hold-the-ford.yaml"), "--out", str(out)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert limited_child_started(process) or process.returncode == 0, "the build never began"
        time.sleep(after)
        os.killpg(process.pid, signal.SIGINT)
    except ProcessLookupError:  # the build finished first
        pass
    err = process.communicate(timeout=60)[1]
    if process.returncode == 0:  # the build finished first: nothing to interrupt
        return
    assert (process.returncode, err) == (130, INTERRUPTED + "\n")
    for path in files_under(out) if out.exists() else []:
        assert path.suffix == ".part" or path.read_bytes().startswith(b"%PDF")


# Steps of Muster's start-up (calls and lines, counted from its first line) at which tests/data/sigint_at_step.py,
# loaded as sitecustomize, sends SIGINT: every one of the first 40, then more sparsely to past the command's end.
STEPS = [*range(1, 41), 60, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000, 10**9]


def interrupted_at(step: int, site: Path, only: str | None = None) -> subprocess.CompletedProcess:
    """`python -m generator systems` with SIGINT sent at the given step of its run (only steps in code from `only`
    counted, when given)."""
    if not (site / "sitecustomize.py").exists():
        site.mkdir(exist_ok=True)
        (site / "sitecustomize.py").write_text((DATA / "sigint_at_step.py").read_text())
    return subprocess.run(
        [sys.executable, "-m", "generator", "systems"],
        cwd=ROOT,
        env={
            **os.environ,
            "PYTHONPATH": f"{site}{os.pathsep}{ROOT}",
            "MUSTER_TEST_PACKAGE": str(ROOT / "generator") + os.sep,
            "MUSTER_TEST_SIGINT_AT": str(step),
            **({"MUSTER_TEST_SIGINT_IN": only} if only else {}),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_ctrl_c_at_any_step_of_musters_start_up_is_answered_by_muster(tmp_path):
    """Muster installs its Ctrl-C handler in its first module, before importing or calling anything: a SIGINT
    at any step of its start-up (importing the command line, the registry, parsing the arguments) gives one line
    and exit 130. A traceback is only possible in the first statements of generator/__init__.py (where a real
    signal is held until the handler's own installation answers it; the injected one is answered by the step
    itself), never from any other module; the handler was installed after signal/enum and cli.py before."""
    package = str(ROOT / "generator") + os.sep
    answered_from = None
    for step in STEPS:
        done = interrupted_at(step, tmp_path / "site")
        if "Traceback" in done.stderr:
            assert answered_from is None, f"step {step}: a traceback after step {answered_from} was answered"
            files = set(re.findall(r'File "([^"]+)"', done.stderr))
            ours = {f for f in files if f.startswith(package)}
            assert ours == {package + "__init__.py"}, f"step {step}: a traceback from {sorted(files)}"
            assert files <= ours | {str(tmp_path / "site" / "sitecustomize.py")} | {
                f for f in files if f.startswith("<frozen")
            }
        elif step != STEPS[-1]:
            assert (done.returncode, done.stderr, done.stdout) == (130, INTERRUPTED + "\n", ""), f"step {step}"
            answered_from = answered_from or step
    assert done.returncode == 0 and "fireteam-tomorrow" in done.stdout, "the last step lies past the command's end"
    assert answered_from is not None and answered_from <= 40


def test_ctrl_c_inside_code_python_made_with_exec_still_exits_130(tmp_path):
    """Run with -m, CPython kills itself with SIGINT at exit (status -2) once a KeyboardInterrupt has passed out of
    exec()'d code, even one Muster caught and reported: Ctrl-C while a module's dataclasses were being made. This
    was the build test's rare failure under load (one line printed, then -2). Every such step exits 130."""
    for step in (1, 10, 100, 300, 1_000, 2_000, 3_000, 5_000):
        done = interrupted_at(step, tmp_path / "site", only="<string>")
        if done.returncode == 0:  # past the last such step
            break
        assert (done.returncode, done.stderr, done.stdout) == (130, INTERRUPTED + "\n", ""), f"step {step}"
    else:
        return
    assert step > 1_000, "the command made fewer dataclasses than this test expects to interrupt"


@pytest.mark.parametrize("command", ["python -m generator", "muster"])
def test_ctrl_c_early_in_start_up_never_prints_a_traceback_from_muster(command):
    """Real SIGINTs at 0 to 300 ms after the command starts: once any of Muster has run, the answer is one line and
    exit 130. Before that, Python's own start-up (the interpreter and `site`, about 10 to 20 ms) answers as
    Python does: killed quietly, or a traceback through importlib and site alone, never through Muster's code past
    the handler's own first lines (under load a signal can land on the package's line 0, before them)."""
    program = (
        [sys.executable, "-m", "generator"] if command != "muster" else [str(Path(sys.executable).parent / "muster")]
    )
    if not Path(program[0]).exists():
        pytest.skip("no console script beside this Python")
    for delay in (0, 0.005, 0.01, 0.015, 0.02, 0.03, 0.045, 0.06, 0.09, 0.15, 0.3):
        process = subprocess.Popen(
            [*program, "systems"],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        time.sleep(delay)
        try:
            os.killpg(process.pid, signal.SIGINT)
        except ProcessLookupError:
            pass
        out, err = process.communicate(timeout=60)
        ours = {f for f in re.findall(r'File "([^"]+)"', err) if f.startswith(str(ROOT / "generator"))}
        # The handler is the package's first statements: a signal landing before them (the module's line 0 under
        # load) is still Python's start-up answering; any later Muster frame is a fault.
        assert ours <= {str(ROOT / "generator" / "__init__.py")}, f"{delay * 1000:g} ms: {err}"
        if "Traceback" not in err and process.returncode not in (0, -signal.SIGINT):
            assert (process.returncode, err) == (130, INTERRUPTED + "\n"), f"{delay * 1000:g} ms"


def test_a_bad_statistics_path_is_refused_before_the_booklet_is_built(muster, tmp_path, monkeypatch):
    """MUSTER_STATS in a folder that does not exist is a usage error at once; no booklet is written."""
    monkeypatch.setenv("MUSTER_STATS", str(tmp_path / "nowhere" / "stats.json"))
    out = tmp_path / "club.pdf"
    started = time.monotonic()
    result = muster("booklet", SCENARIOS / "bridge.yaml", "--out", out)
    assert result.code == 2 and "MUSTER_STATS must name a file" in result.err, result.err
    assert not out.exists() and time.monotonic() - started < 5


def test_statistics_are_written_where_muster_stats_says(muster, tmp_path, monkeypatch):
    """A good MUSTER_STATS still receives the booklet's statistics (rendered afresh: the suite's cache is shared)."""
    target = tmp_path / "stats.json"
    monkeypatch.setenv("MUSTER_STATS", str(target))
    result = muster("booklet", SCENARIOS / "warspike-hold-the-ford.yaml", "--out", tmp_path / "club.pdf", "--no-cache")
    assert result.code == 0, result.err
    assert "rendered" in json.loads(target.read_text())


def _small_work() -> int:
    return len(bytearray(32 * 1024 * 1024))  # 32 MiB: well inside the limit


def test_the_memory_limit_counts_what_the_build_adds_not_what_its_parent_maps(monkeypatch):
    """A limited child forked from a warm process that already maps more than the whole limit (the test run itself
    grew past 2 GiB; a booklet's parent grows with its chapters) still builds: the limit is what the child may add.
    The clean-clone suite failed eight small builds 'past 2048 MiB' before."""
    import mmap

    from generator import sandbox

    monkeypatch.setenv("MUSTER_RENDER_MEMORY_MB", "256")
    reserved = mmap.mmap(-1, 1024**3)  # 1 GiB mapped, never touched: address space, not memory
    try:
        assert sandbox.run_limited(_small_work, (), "small.yaml") == 32 * 1024 * 1024
    finally:
        reserved.close()


@pytest.mark.parametrize("when", ["atexit", "teardown"])
def test_ctrl_c_after_the_command_has_finished_keeps_its_status(tmp_path, when):
    """A Ctrl-C that lands once the command has finished (its files written, its status known) while Python shuts
    down changes nothing: the command ends with its own status and says nothing more. Python puts back the default
    action for the handlers it replaced before tearing modules down, so a signal there killed the process
    (status -2, no line) after a complete build; one in an exit function said "interrupted" with 130."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text((DATA / "sigint_at_exit.py").read_text())
    done = subprocess.run(
        [sys.executable, "-m", "generator", "systems"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": f"{site}{os.pathsep}{ROOT}", "MUSTER_TEST_SIGINT_EXIT": when},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert "fireteam-tomorrow" in done.stdout


def test_ctrl_c_while_a_class_is_being_made_is_an_interrupt_not_a_bug(monkeypatch, capsys):
    """CI: Ctrl-C landed while a lazily imported module made its dataclasses; Python 3.11 wraps a KeyboardInterrupt
    raised in __set_name__ in a RuntimeError, and Muster printed "internal error ... a bug in Muster", exit 3."""
    from generator import cli

    class Interrupting:
        def __set_name__(self, owner, name):
            raise KeyboardInterrupt

    def wrapped(args):
        try:
            type("Movement", (), {"forward": Interrupting()})
        except RuntimeError:  # Python 3.11 (what CI runs): the wrapping is its own
            raise
        except KeyboardInterrupt as err:  # Python 3.12 and later raise it as it is: wrap it as 3.11 does
            raise RuntimeError("Error calling __set_name__") from err
        return 0

    monkeypatch.setitem(cli.COMMANDS, "systems", wrapped)
    assert cli.main(["systems"]) == 130
    assert capsys.readouterr().err == INTERRUPTED + "\n"
