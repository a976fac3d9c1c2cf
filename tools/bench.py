"""`make bench`: the real command line, measured over its whole process tree, against the goals in README.md.

Every figure comes from running `python -m generator ...` as a user would, several times: the wall clock of the
command, the CPU time of its whole process tree (the command and every child it waited for, from wait4), the peak
memory of its largest process, and, from MUSTER_STATS, the CPU time the command spent inside WeasyPrint (laying
out and writing PDFs, and importing it). "Outside WeasyPrint" is the rest of the tree's CPU time: Python starting,
importing WeasyPrint (start-up, once per command: the goals count it here), Muster's own work (YAML, validation,
odds, maps, Jinja), processes and their start-up; a second column counts the import as WeasyPrint's. Each figure is the median of
the runs, with the lowest and highest beside it; the machine's load average is printed before and after, since a
busy machine makes every figure worse. Figures, not assertions: no test times anything.
"""

from __future__ import annotations

import argparse
import ctypes.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
MUSTER = [PY, "-m", "generator"]

# The goals of README.md's "Speed" section.
GOAL_OUTSIDE = 10.0  # % of a build's CPU time outside WeasyPrint
GOAL_BUILD_CPU = 8.0  # s of CPU for one build of the costliest example (bridge's was 25 s when two CSS columns
# were balanced a pixel at a time, and 3 s without them)
GOAL_SPEEDUP = 1.85  # two processes against one, 40-scenario booklet
GOAL_TAIL = 1.0  # s of serial work after the booklet's workers finish
GOAL_PEAK_MB = 300  # largest process of a booklet build
GOAL_SIZE_MB = 6.0  # the 40-scenario booklet's file
GOAL_REBUILD = 15.0  # % of a cold two-process build, after one scenario of 40 changes


def measured(args: list[str], env: dict | None = None) -> dict:
    """Run a command and wait for it with wait4: its tree's CPU seconds (the command's and every descendant's it
    waited for) and the largest of their peak resident sizes, with the command's MUSTER_STATS."""
    with tempfile.TemporaryDirectory(prefix="muster-bench-stats-") as folder:
        stats_file = Path(folder) / "stats.json"
        env = {**(env or os.environ), "MUSTER_STATS": str(stats_file)}
        start = time.perf_counter()
        proc = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT, start_new_session=True
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        err = proc.stderr.read().decode()
        proc.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"bench: {' '.join(map(str, args))} failed:\n{err}")
        stats = json.loads(stats_file.read_text()) if stats_file.exists() else {}
    cpu = usage.ru_utime + usage.ru_stime
    weasyprint = stats.get("weasyprint", 0.0)
    return {
        "wall": wall,
        "cpu": cpu,
        "peak_mb": usage.ru_maxrss / 1024,
        "stats": stats,
        "import": stats.get("weasyprint_import", 0.0),
        "weasyprint": weasyprint,
    }


def repeat(runs: int, args: list[str], env: dict | None = None, before=None) -> list[dict]:
    results = []
    for _ in range(runs):
        if before:
            before()
        results.append(measured(args, env))
    return results


def med(results: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in results)


def spread(results: list[dict], key: str, fmt: str = "{:.2f}") -> str:
    """The median with the lowest and highest run: '3.10 (3.05-3.31)'."""
    values = [r[key] for r in results]
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}-{fmt.format(max(values))})"


def outside(results: list[dict], with_import: bool) -> list[float]:
    """Per run, the share of the tree's CPU outside WeasyPrint: its import counted outside, or as WeasyPrint's."""
    shares = []
    for r in results:
        inside = r["weasyprint"] + (0.0 if with_import else r["import"])
        shares.append(100 * (r["cpu"] - inside) / r["cpu"])
    return shares


def share_text(shares: list[float]) -> str:
    return f"{statistics.median(shares):4.1f}% ({min(shares):.1f}-{max(shares):.1f})"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f} (1 min), {five:.2f} (5 min)"


def _median_stat(runs: list[dict], key: str) -> float:
    return statistics.median(r["stats"].get(key, float("nan")) for r in runs)


def make_season(folder: Path, count: int) -> list[Path]:
    """Count scenarios made from the examples, each with its own title and seed."""
    examples = sorted((ROOT / "scenarios").glob("*.yaml"))
    paths = []
    for i in range(count):
        source = examples[i % len(examples)]
        lines = source.read_text().splitlines()
        for n, line in enumerate(lines):
            if line.startswith("title:"):
                lines[n] = f"{line.rstrip()} (round {i + 1})"
            if line.startswith("seed:"):
                lines[n] = f"seed: {1000 + i}"
        target = folder / f"s{i + 1:03d}-{source.name}"
        target.write_text("\n".join(lines) + "\n")
        for extra in source.parent.glob("*.png"):  # pictures a briefing may show
            shutil.copy(extra, folder / extra.name)
        paths.append(target)
    club_config(folder)
    return paths


def club_config(folder: Path) -> Path:
    """The example club's booklet config, for a season of other files: its chapters list names the examples'
    files, so it goes (the chapters print in the command line's order); its logo comes along."""
    import yaml

    config = yaml.safe_load((ROOT / "booklets" / "club.yaml").read_text(encoding="utf-8"))
    config.pop("chapters", None)
    shutil.copy(ROOT / "booklets" / config["logo"], folder / config["logo"])
    target = folder / "club.yaml"
    target.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return target


def booklet_args(paths: list[Path], out: Path, jobs: int, no_cache: bool) -> list[str]:
    args = [*MUSTER, "booklet", *map(str, paths), "--out", str(out), "--jobs", str(jobs)]
    args += ["--config", str(paths[0].parent / "club.yaml")] + (["--no-cache"] if no_cache else [])
    return args


def folder_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def verdict(holds: bool) -> str:
    return "holds" if holds else "MISSES"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="runs of each command (default 3; the median is printed)")
    ap.add_argument("--scenarios", type=int, default=40, help="scenarios in the generated booklet (default 40)")
    ap.add_argument("--skip-booklet", action="store_true", help="measure the builds only")
    args = ap.parse_args()
    runs = max(1, args.runs)
    goals: list[tuple[str, str, str, bool]] = []

    subset = "yes" if ctypes.util.find_library("harfbuzz-subset") else "NO: a slow fallback subsetter"
    print(f"Muster bench: {os.cpu_count()} cores; HarfBuzz font subsetting: {subset}; {runs} runs of each command")
    print(f"Load average before: {load()} (a quiet machine reads under 0.3)\n")
    print("How it measures: each command as a user runs it (python -m generator ...), its whole process tree's CPU")
    print("from wait4, the peak memory of its largest process, and WeasyPrint's own CPU from MUSTER_STATS.")
    print("Medians, with the lowest and highest run in brackets.\n")

    examples = sorted((ROOT / "scenarios").glob("*.yaml"))
    with tempfile.TemporaryDirectory(prefix="muster-bench-") as tmp:
        tmp = Path(tmp)
        print("One `muster build SCENARIO.yaml` each:")
        print(
            f"  {'scenario':24} {'wall s':>17} {'cpu s':>17} {'peak MB':>8} {'outside WeasyPrint':>22} {'(import as its)':>18}"
        )
        worst, costliest = 0.0, ("", 0.0)
        for path in examples:
            results = repeat(runs, [*MUSTER, "build", str(path), "--out", str(tmp / "single")])
            strict = outside(results, with_import=True)
            worst = max(worst, statistics.median(strict))
            costliest = max(costliest, (path.stem, med(results, "cpu")), key=lambda named: named[1])
            print(
                f"  {path.stem:24} {spread(results, 'wall'):>17} {spread(results, 'cpu'):>17} "
                f"{med(results, 'peak_mb'):8.0f} {share_text(strict):>22} {share_text(outside(results, False)):>18}"
            )
        goals.append(
            (
                "outside WeasyPrint, one build (worst example)",
                f"{worst:.1f}%",
                f"< {GOAL_OUTSIDE:g}%",
                worst < GOAL_OUTSIDE,
            )
        )
        goals.append(
            (
                f"CPU of one build (costliest example: {costliest[0]})",
                f"{costliest[1]:.1f} s",
                f"< {GOAL_BUILD_CPU:g} s",
                costliest[1] < GOAL_BUILD_CPU,
            )
        )
        print("  (the first share counts importing WeasyPrint as outside it; the second counts it as WeasyPrint's)\n")

        print(f"All {len(examples)} examples in one `muster build A.yaml B.yaml ...` (one warm process):")
        together = {}
        for jobs in (1, 2):
            results = repeat(
                runs, [*MUSTER, "build", *map(str, examples), "--out", str(tmp / "all"), "--jobs", str(jobs)]
            )
            together[jobs] = results
            strict = outside(results, with_import=True)
            print(
                f"  --jobs {jobs}: wall {spread(results, 'wall')} s, cpu {spread(results, 'cpu')} s, "
                f"peak {med(results, 'peak_mb'):.0f} MB, outside WeasyPrint {share_text(strict)}"
            )
        share = statistics.median(outside(together[1], with_import=True))
        goals.append(
            (
                "outside WeasyPrint, all examples in one command",
                f"{share:.1f}%",
                f"< {GOAL_OUTSIDE:g}%",
                share < GOAL_OUTSIDE,
            )
        )
        print(f"  speed-up with two processes: {med(together[1], 'wall') / med(together[2], 'wall'):.2f}x\n")

        if not args.skip_booklet:
            season = tmp / "season"
            season.mkdir()
            paths = make_season(season, args.scenarios)
            print(f"Booklet of {len(paths)} scenarios (`muster booklet ... --no-cache`):")
            cold = {}
            for jobs in (1, 2):
                out = tmp / f"booklet-{jobs}.pdf"
                cold[jobs] = repeat(runs, booklet_args(paths, out, jobs, no_cache=True))
                strict = outside(cold[jobs], with_import=True)
                tails = [r["stats"].get("tail", float("nan")) for r in cold[jobs]]
                print(
                    f"  {jobs} process{'es' if jobs > 1 else ''}: wall {spread(cold[jobs], 'wall')} s, "
                    f"cpu {spread(cold[jobs], 'cpu')} s, peak {med(cold[jobs], 'peak_mb'):.0f} MB (largest process), "
                    f"outside WeasyPrint {share_text(strict)}, serial tail {statistics.median(tails):.2f} s "
                    f"(front matter and heads laid out after {_median_stat(cold[jobs], 'tail_front'):.2f} s)"
                )
            size = (tmp / "booklet-2.pdf").stat().st_size / 1e6
            speedup = med(cold[1], "wall") / med(cold[2], "wall")
            tail = statistics.median(r["stats"].get("tail", float("nan")) for r in cold[2])
            peak = max(med(cold[1], "peak_mb"), med(cold[2], "peak_mb"))
            share = statistics.median(outside(cold[2], with_import=True))
            print(f"  speed-up with two processes: {speedup:.2f}x; file {size:.1f} MB\n")
            goals += [
                (
                    "booklet speed-up, 2 processes against 1",
                    f"{speedup:.2f}x",
                    f">= {GOAL_SPEEDUP}x",
                    speedup >= GOAL_SPEEDUP,
                ),
                ("booklet serial tail", f"{tail:.2f} s", f"< {GOAL_TAIL:g} s", tail < GOAL_TAIL),
                (
                    f"booklet largest process ({len(paths)} scenarios)",
                    f"{peak:.0f} MB",
                    f"<= {GOAL_PEAK_MB} MB",
                    peak <= GOAL_PEAK_MB,
                ),
                (
                    f"booklet file ({len(paths)} scenarios)",
                    f"{size:.1f} MB",
                    f"< {GOAL_SIZE_MB:g} MB",
                    size < GOAL_SIZE_MB,
                ),
                (
                    "booklet outside WeasyPrint, 2 processes",
                    f"{share:.1f}%",
                    f"< {GOAL_OUTSIDE:g}%",
                    share < GOAL_OUTSIDE,
                ),
            ]

            cache = tmp / "cache"
            env = {**os.environ, "MUSTER_CACHE": str(cache)}
            out = tmp / "cached.pdf"
            measured(booklet_args(paths, out, 2, no_cache=False), env)  # fill the cache
            same = repeat(runs, booklet_args(paths, out, 2, no_cache=False), env)
            changed = paths[len(paths) // 2]
            original = changed.read_text()
            edits = iter(range(1, runs + 1))

            def edit() -> None:
                changed.write_text(original.replace("title: ", f"title: Revised {next(edits)} ", 1))

            edited = repeat(runs, booklet_args(paths, out, 2, no_cache=False), env, before=edit)
            ratio = 100 * med(edited, "wall") / med(cold[2], "wall")
            print("Rebuilding from the cache:")
            print(f"  nothing changed:      wall {spread(same, 'wall')} s")
            print(
                f"  one scenario changed: wall {spread(edited, 'wall')} s, {ratio:.0f}% of a cold two-process build "
                f"({edited[-1]['stats'].get('rendered', '?')} part rendered); cache {folder_mb(cache):.0f} MB\n"
            )
            goals.append(
                (
                    "rebuild after one change, of a cold build",
                    f"{ratio:.0f}%",
                    f"< {GOAL_REBUILD:g}%",
                    ratio < GOAL_REBUILD,
                )
            )

    print(f"Load average after: {load()}\n")
    print("Goals (README.md, Speed):")
    for name, figure, goal, holds in goals:
        print(f"  {name:48} {figure:>9}  goal {goal:10} {verdict(holds)}")


if __name__ == "__main__":
    main()
