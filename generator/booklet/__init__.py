"""The club booklet: many scenarios in one PDF, with contents, one appendix per system, page numbers and bookmarks.

booklet() reads as its stages: plan (load the config and every scenario, all problems first) -> render the parts, each
chapter and system appendix (cached by a hash of everything that shapes it, in limited workers) -> in one more limited
child: front matter, once the page numbers are known -> join -> stamp running heads and page numbers.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from functools import partial
from itertools import count
from pathlib import Path

from .. import engine
from ..build import Options
from ..errors import RenderError
from ..files import write_atomic
from ..sandbox import run_limited
from .cache import cache_folder, entry_name, prune, read_entry
from .front import front_matter
from .join import Piece, join
from .parts import cache_entry, cache_keys, render_parts
from .plan import Part, plan
from .stamp import running_heads


def _ignore(*args) -> None:
    """A callback nobody asked for."""


def booklet(
    paths: list[str],
    out: Path,
    config_path: str | None = None,
    options: Options | None = None,
    jobs: int = 2,
    use_cache: bool = True,
    progress: Callable[[int, int, str], None] = _ignore,
    statistics: Callable[[dict], None] = _ignore,
) -> Path:
    """Build the club booklet PDF from scenario files; nothing is written if any file has a problem.

    progress(done, total, what) is told of each step as it ends; statistics(stats) receives where the
    time went (seconds outside WeasyPrint and in it, parts rendered) once the booklet is written.
    """
    options = options or Options()
    stats: dict = {}
    config, parts = plan(config_path, paths, then=partial(cache_keys, options=options), jobs=jobs)
    cache = cache_folder() if use_cache else None
    logo = Path(config["logo"]).read_bytes() if config.get("logo") else b""
    whole = hashlib.sha256(
        repr((sorted(config.items()), [p.key for p in parts], options)).encode() + hashlib.sha256(logo).digest()
    ).hexdigest()
    last = read_entry(cache, f"booklet-{whole}") if cache else None
    if last:  # nothing changed: the last booklet is this one (its bytes checked against their hash)
        write_atomic(out, last[0])
        statistics(stats)
        return out
    steps = count(1)

    def step(what: str) -> None:
        progress(next(steps), len(parts) + 1, what)

    render_parts(parts, options, jobs, cache, step, stats)
    tail_start = time.perf_counter()  # from here on one process works alone: the serial tail
    # The cover's introduction is Markdown (quadratic on some inputs) and the join reads every part: both run in a
    # limited child like every chapter, so the config's file is named when they pass the limits.
    data, pages, timing = run_limited(
        _assemble, (config, parts, options), config_path or str(out), "making the cover and joining the booklet"
    )
    step("contents and page numbers")
    write_atomic(out, data)
    if cache:
        entry = entry_name(f"booklet-{whole}", data, pages)
        write_atomic(cache / entry, data)
        prune(cache, keep={entry, *(cache_entry(part) for part in parts)})
    for key, seconds in timing.items():
        stats[key] = stats.get(key, 0.0) + seconds
    stats["weasyprint_import"] = engine.import_cpu
    stats["tail"] = time.perf_counter() - tail_start
    statistics(stats)
    return out


def _assemble(config: dict, parts: list[Part], options: Options) -> tuple[bytes, int, dict]:
    """In a limited child: the front matter (once the page numbers are known), the running heads and the join; the
    booklet's bytes, its page count, and where the time went."""
    before = engine.weasyprint_cpu
    front, front_pages, total = front_matter(config, parts, options)
    heads, blank = running_heads(config, parts, front_pages, options)
    t_join = time.perf_counter()
    pieces = [Piece(front, "Cover and contents", None)]
    pieces += [Piece(part.pdf, part.label, part.label, part.blank_before) for part in parts]
    data, pages = join(pieces, heads, blank, config, parts)
    if total != pages:  # before anything is written or cached: a wrong booklet is never kept
        raise RenderError(f"the booklet has {pages} pages, its contents counted {total}")
    join_seconds = time.perf_counter() - t_join
    return data, pages, {"join": join_seconds, "weasyprint": engine.weasyprint_cpu - before}
