"""`make bench`: builds the examples and a generated 40-scenario booklet and prints what they cost.

For each build: pages, wall time, CPU time, peak memory (of the largest single process), and the
share of time spent outside WeasyPrint's layout and PDF writing. Each measurement runs in a fresh
process so that memory is not inherited. Figures, not assertions: read them against the goals.
"""

from __future__ import annotations

import argparse
import ctypes.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


def run(args: list[str], env: dict | None = None) -> dict:
    """Run a command, returning wall and CPU seconds and the peak RSS of its largest process (MB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    out = proc.stdout.read().decode()
    err = proc.stderr.read().decode()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"bench: {' '.join(args)} failed:\n{err}")
    # wait4's usage covers the child and the children it reaped: times add up, maxrss is the largest one
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024, "out": out}


def one(path: str) -> None:
    """In a fresh process: build one scenario stage by stage and print the split as JSON."""
    t0 = time.perf_counter()
    import weasyprint  # noqa: F401  (import cost reported apart: a long-lived process pays it once)

    t_import = time.perf_counter() - t0
    import io

    from pypdf import PdfReader

    from generator.build import Options, choose_seed, compute, load, render_html
    from generator.engine import html_to_pdf
    from generator.rendering import TEMPLATES

    t1 = time.perf_counter()
    scenario = load(path)
    seed = choose_seed(scenario, None)
    pack, sheet = compute(scenario, seed, Options())
    pack_html, cards_html = render_html(scenario, pack, sheet)
    t2 = time.perf_counter()
    # in this process rather than build()'s limited render child, so that its CPU and memory are the ones measured
    pack_pdf = html_to_pdf(pack_html, TEMPLATES)
    t3 = time.perf_counter()
    cards_pdf = html_to_pdf(cards_html, TEMPLATES)
    t4 = time.perf_counter()
    print(
        json.dumps(
            {
                "import": t_import,
                "outside": t2 - t1,
                "pack": t3 - t2,
                "cards": t4 - t3,
                "pack_pages": len(PdfReader(io.BytesIO(pack_pdf)).pages),
                "cards_pages": len(PdfReader(io.BytesIO(cards_pdf)).pages),
            }
        )
    )


def page_costs() -> None:
    """In a fresh process: seconds per page for a card sheet, a dense roster page and a prose page."""
    import io

    from pypdf import PdfReader

    from generator.build import Options, choose_seed, compute, load, render_html
    from generator.engine import html_to_pdf
    from generator.rendering import TEMPLATES, render

    def to_pdf(scenario, html):
        return html_to_pdf(html, TEMPLATES)

    scenario = load("scenarios/bridge.yaml")
    pack, sheet = compute(scenario, choose_seed(scenario, None), Options())
    to_pdf(scenario, render("cards.html", card_macros="fireteam-tomorrow/cards.html", **sheet))  # warm up fonts
    out = {}
    for kind, html in (
        ("card sheet", render_html(scenario, pack, sheet)[1]),
        ("roster", render("fireteam-tomorrow/pack.html", show=lambda p: p == "forces", booklet=False, **pack)),
        (
            "prose (reference)",
            render("fireteam-tomorrow/pack.html", show=lambda p: p == "reference", booklet=False, **pack),
        ),
        ("odds tables", render("fireteam-tomorrow/pack.html", show=lambda p: p == "odds", booklet=False, **pack)),
    ):
        t = time.perf_counter()
        data = to_pdf(scenario, html)
        pages = len(PdfReader(io.BytesIO(data)).pages)
        out[kind] = ((time.perf_counter() - t) / pages, pages)
    print(json.dumps(out))


def make_season(folder: Path, count: int) -> list[Path]:
    """Count scenarios made from the examples, each with its own title and seed."""
    examples = sorted((ROOT / "scenarios").glob("*.yaml"))
    paths = []
    for i in range(count):
        source = examples[i % len(examples)]
        text = source.read_text()
        lines = text.splitlines()
        for n, line in enumerate(lines):
            if line.startswith("title:"):
                lines[n] = f"{line.rstrip()} (round {i + 1})"
            if line.startswith("seed:"):
                lines[n] = f"seed: {1000 + i}"
        target = folder / f"s{i + 1:02d}-{source.name}"
        target.write_text("\n".join(lines) + "\n")
        for extra in source.parent.glob("*.png"):  # pictures a briefing may show
            shutil.copy(extra, folder / extra.name)
        paths.append(target)
    return paths


def booklet_run(paths, out: Path, jobs: int, cache: Path, no_cache: bool = False) -> dict:
    env = {**os.environ, "MUSTER_CACHE": str(cache), "MUSTER_STATS": str(out) + ".stats.json"}
    args = [
        PY,
        "-m",
        "generator",
        "booklet",
        *map(str, paths),
        "--out",
        str(out),
        "--jobs",
        str(jobs),
        "--config",
        "booklets/club.yaml",
    ]
    if no_cache:
        args.append("--no-cache")
    result = run(args, env)
    stats_file = Path(env["MUSTER_STATS"])
    result["stats"] = json.loads(stats_file.read_text()) if stats_file.exists() else {}
    from pypdf import PdfReader

    result["pages"] = len(PdfReader(out).pages)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--page-costs", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--scenarios", type=int, default=40, help="scenarios in the generated booklet (default 40)")
    args = ap.parse_args()
    if args.one:
        return one(args.one)
    if args.page_costs:
        return page_costs()

    subset = (
        "yes (libharfbuzz-subset)" if ctypes.util.find_library("harfbuzz-subset") else "NO: slow fallback subsetter"
    )
    print(f"Muster bench on {os.cpu_count()} cores; HarfBuzz font subsetting: {subset}\n")

    print(f"{'scenario':28} {'pages':>5} {'wall s':>7} {'cpu s':>6} {'peak MB':>8} {'outside WeasyPrint':>19}")
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        r = run([PY, str(Path(__file__)), "--one", str(path.relative_to(ROOT))])
        split = json.loads(r["out"])
        pages = split["pack_pages"] + split["cards_pages"]
        work = split["outside"] + split["pack"] + split["cards"]
        print(
            f"{path.stem:28} {pages:5d} {r['wall']:7.2f} {r['cpu']:6.2f} {r['peak_mb']:8.0f} "
            f"{100 * split['outside'] / work:18.1f}%"
        )
    print(
        "(wall includes starting Python and importing WeasyPrint, about "
        f"{split['import']:.1f} s, paid once by a long-lived process)\n"
    )

    r = run([PY, str(Path(__file__)), "--page-costs"])
    print("Seconds per page by kind (one warm process):")
    for kind, (seconds, pages) in json.loads(r["out"]).items():
        print(f"  {kind:20} {seconds:6.3f} s/page over {pages} page{'s' if pages != 1 else ''}")
    print()

    with tempfile.TemporaryDirectory(prefix="muster-bench-") as tmp:
        tmp = Path(tmp)
        season = tmp / "season"
        season.mkdir()
        paths = make_season(season, args.scenarios)
        print(f"Booklet of {len(paths)} scenarios:")
        single = booklet_run(paths, tmp / "one.pdf", 1, tmp / "cache1", no_cache=True)
        double = booklet_run(paths, tmp / "two.pdf", 2, tmp / "cache2")
        for label, r in (("1 process", single), ("2 processes", double)):
            s = r["stats"]
            outside = 100 * s.get("outside", 0) / max(s.get("outside", 0) + s.get("weasyprint", 0), 1e-9)
            print(
                f"  {label:12} {r['pages']:4d} pages  wall {r['wall']:6.2f} s  cpu {r['cpu']:6.2f} s  "
                f"peak {r['peak_mb']:5.0f} MB (largest process)  outside WeasyPrint {outside:4.1f}%"
            )
        print(f"  speed-up with 2 processes: {single['wall'] / double['wall']:.2f}x")
        again = booklet_run(paths, tmp / "two.pdf", 2, tmp / "cache2")
        print(f"  rebuild, nothing changed:  wall {again['wall']:5.2f} s")
        changed = paths[len(paths) // 2]
        changed.write_text(changed.read_text().replace("title: ", "title: Revised ", 1))
        edit = booklet_run(paths, tmp / "two.pdf", 2, tmp / "cache2")
        print(
            f"  rebuild, one scenario changed: wall {edit['wall']:5.2f} s "
            f"({edit['stats'].get('rendered', '?')} part re-rendered)"
        )


if __name__ == "__main__":
    main()
