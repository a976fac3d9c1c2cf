"""The club booklet: many scenarios in one PDF, with contents, one appendix per system, page numbers and bookmarks.

booklet() reads as its stages: plan (load the config and every scenario, all problems first) -> render the parts, each
chapter and system appendix (cached by a hash of everything that shapes it, in limited workers) -> in two more limited
children side by side: the front matter and running heads, once the page numbers are known, and the join, which
puts them on when they come.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from itertools import count
from pathlib import Path

from .. import engine
from ..build import Options
from ..errors import RenderError, quoted
from ..files import discard, place, reserve, write_atomic
from ..sandbox import pipe, run_limited, start_limited
from .cache import cache_folder, prune, read_entry, store_file
from .front import front_matter, guessed_length, number_pages
from .join import Joiner, Piece
from .parts import cache_keys, render_parts
from .plan import Part, plan
from .stamp import Stamps, running_heads


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
    config, parts = plan(
        config_path, paths, then=partial(cache_keys, options=options), jobs=jobs, house_rules=dict(options.house_rules)
    )
    # the house rules each system's chapters play: the config's, or the command line's
    options = replace(options, house_rules=tuple(sorted(config["house_rules"].items())))
    cache = cache_folder() if use_cache else None
    # the whole booklet's key: the config as read (the cover's pictures in it as their checked bytes, read once in
    # the config's limited child) and every part's key; nothing here reads a file of the user's again
    whole = hashlib.sha256(repr((sorted(config.items()), [p.key for p in parts], options)).encode()).hexdigest()
    last = read_entry(cache, f"booklet-{whole}") if cache else None
    if last:  # nothing changed: the last booklet is this one (its bytes checked against their hash)
        write_atomic(out, last[0])
        statistics(stats)
        return out
    steps = count(1)

    def step(what: str) -> None:
        progress(next(steps), len(parts) + 1, what)

    # The join runs in a limited child of its own, told of each part as soon as it is there (its PDF in a private
    # folder, so that telling never waits for the child), so that with two jobs it copies them while the others
    # still render; the front matter and running heads, which need every part's page count, are laid out in one
    # more limited child (the introduction is Markdown, quadratic on some inputs) and handed over last. Each child
    # names the config's file if it passes the limits. With one job nothing runs beside the rendering: the join
    # starts once every part is there.
    file = config_path or str(out)
    receive, send = pipe()
    joining = None
    arrived: list[int] = []
    joined: Path | None = None  # the join child writes the booklet here, beside --out; renamed in once whole

    def join() -> object:
        """The joining child, started with the hidden file it writes to: made only now, since a .part file beside
        --out that is not written to for a minute is taken for one a killed build left."""
        nonlocal joined
        joined = reserve(out)
        return start_limited(_join, (config, parts, receive, str(joined), str(out)), file, "joining the booklet")

    with tempfile.TemporaryDirectory(prefix="muster-booklet-") as folder:

        def tell(index: int | None = None) -> None:
            if index is not None:
                (Path(folder) / f"{index}.pdf").write_bytes(parts[index].pdf)
                parts[index].pdf = b""  # the join reads it from there: this process stays the size it was
                arrived.append(index)
            while joining and arrived:
                _send(send, ("part", arrived.pop(0), folder))

        try:
            if jobs > 1:
                joining = join()
            render_parts(parts, options, jobs, cache, step, stats, ready=tell)
            tail_start = time.perf_counter()  # from here on the work cannot be shared out: the serial tail
            # the cover and contents, and the running heads for the front matter's guessed length, side by side
            fronting = start_limited(_front, (config, parts, options), file, "making the cover and contents")
            guess = guessed_length(parts)
            stamping = start_limited(_stamps, (config, parts, options, guess), file, "making the running heads")
            try:
                front = fronting.result()
                front.stamps, stamp_seconds = stamping.result()
                stats["tail_front"] = time.perf_counter() - tail_start  # the cover, contents and heads laid out
            finally:
                fronting.stop()
                stamping.stop()
            if front.pages != guess:  # the guess was wrong: the heads again, for the length it has
                front.stamps, more = run_limited(
                    _stamps, (config, parts, options, front.pages), file, "making the running heads"
                )
                stamp_seconds += more
            front.seconds += stamp_seconds
            if joining is None:
                joining = join()
                tell()
            receive.close()  # the joining child's alone now: if it stops, telling it fails instead of waiting
            _send(send, ("front", front))
            joining.restart_clock()  # its own work from here: until now it waited for the parts
            pages, timing = joining.result()
            kept = {part.entry for part in parts if part.key}
            # a part printed from other bytes than its key: nor is the booklet kept. It is kept from the file this
            # build wrote, before it is renamed to --out, where another build may write
            if cache and all(part.key for part in parts):
                kept.add(store_file(cache, f"booklet-{whole}", joined, pages))
            place(out, joined)
        finally:
            send.close()
            if joining:
                joining.stop()
            if joined:
                discard(joined)  # a booklet not placed: nothing half-written is left beside --out
    timing["weasyprint"] = front.seconds
    step("contents and page numbers")
    if cache:
        prune(cache, keep=kept)
    for key, seconds in timing.items():
        stats[key] = stats.get(key, 0.0) + seconds
    stats["weasyprint_import"] = engine.import_cpu
    stats["tail"] = time.perf_counter() - tail_start
    statistics(stats)
    return out


@dataclass
class Front:
    """The front matter, laid out once every part's page count is known, and what the join needs with it."""

    pdf: bytes
    pages: int
    total: int  # the booklet's page count
    starts: list[tuple[int, bool]]  # each part's first page, and whether a blank page goes before it
    seconds: float  # WeasyPrint's CPU seconds, for the front matter and then the running heads too
    stamps: Stamps | None = None  # the running heads, laid out beside it


def _front(config: dict, parts: list[Part], options: Options) -> Front:
    """In a limited child: the front matter (once the parts' page counts are known)."""
    before = engine.weasyprint_cpu
    front, front_pages, total = front_matter(config, parts, options)
    starts = [(part.start, part.blank_before) for part in parts]
    return Front(front, front_pages, total, starts, engine.weasyprint_cpu - before)


def _stamps(config: dict, parts: list[Part], options: Options, front_pages: int) -> tuple:
    """In a limited child: the running heads and page numbers for a front matter of `front_pages`, and
    WeasyPrint's CPU seconds."""
    before = engine.weasyprint_cpu
    number_pages(config, parts, front_pages)
    return running_heads(config, parts, front_pages, options), engine.weasyprint_cpu - before


def _join(config: dict, parts: list[Part], inbox, path: str, target: str) -> tuple[int, dict]:
    """In a limited child: join the parts as `inbox` brings them, in any order, writing the booklet to `path` (the
    hidden file beside `target`, --out) as it goes, then, with the front matter it brings last, finish it; its page
    count, and the seconds spent joining."""
    working, waiting, next_index = 0.0, {}, 0
    try:
        # O_NOFOLLOW: the file reserve() made, never what a link planted in its place points at
        with os.fdopen(
            os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o666), "wb"
        ) as handle:
            joiner = Joiner(handle)
            while True:
                message = inbox.recv()
                start = time.perf_counter()
                if message[0] == "front":
                    break
                _, index, folder = message
                waiting[index] = Path(folder) / f"{index}.pdf"
                while next_index in waiting:  # added in the booklet's order, whatever the order they came in
                    pdf = waiting.pop(next_index).read_bytes()
                    joiner.add(Piece(pdf, parts[next_index].label, parts[next_index].label))
                    next_index += 1
                working += time.perf_counter() - start
            front: Front = message[1]
            for part, (first, blank_before) in zip(parts, front.starts):
                part.start, part.blank_before = first, blank_before
            pages = joiner.finish(Piece(front.pdf, "Cover and contents", None), parts, front.stamps, config)
    except OSError as err:  # the disk's words (full, gone), not a bug's
        raise RenderError(f"cannot join the booklet into {quoted(Path(target))}: {err.strerror or err}") from err
    if front.total != pages:  # the parent neither places nor caches a booklet that fails here
        raise RenderError(f"the booklet has {pages} pages, its contents counted {front.total}")
    return pages, {"join": working + time.perf_counter() - start}


def _send(connection, message) -> None:
    try:
        connection.send(message)
    except OSError:  # the joining child stopped: its result says why
        pass
