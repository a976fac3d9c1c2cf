"""The booklet's parts rendered to PDF: from the cache where nothing that shapes them changed, else in limited workers."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from .. import __version__, engine, fetcher, markup
from ..build import APPENDIX, Options, Parts, choose_seed, compute, pack_html
from ..engine import render_pdf
from ..errors import RenderError
from ..fetcher import PictureRefused, read_picture
from ..rendering import PACKAGE, TEMPLATES
from ..sandbox import run_each_limited
from .appendix import appendix_html
from .cache import read_entry, store
from .plan import Part, load_scenario

# Parts are tagged and written without object streams (PDF 1.4 has none): the join copies each part's objects as
# bytes from their places in its xref table (join._Copy).
PART_PDF_VERSION = "1.4"


def _fingerprint() -> str:
    """A hash of Muster's code and templates: any change to how pages look invalidates the cache."""
    digest = hashlib.sha256(__version__.encode())
    for folder, pattern in ((PACKAGE, "*.py"), (PACKAGE, "*.yaml"), (TEMPLATES, "*")):
        for path in sorted(folder.rglob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(f"{folder.name}/{path.relative_to(folder).as_posix()}".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _pictures(path: str, houses: dict[str, str]) -> tuple[bytes, frozenset[tuple[str, str]]]:
    """What the scenario's pictures put on its pages: each one's name and a hash of its bytes (as checked, and as
    the page will hold them: data: URLs, so the folder the scenario sits in never reaches the page); and each
    picture's path with that hash, as fetcher.READ notes them."""
    scenario = load_scenario(path, houses)
    texts = [scenario.data["briefing"], scenario.data["victory"]] + [s.get("briefing") or "" for s in scenario.sides]
    digest, seen = hashlib.sha256(), set()
    for text in texts:
        for src in markup.pictures(text):
            try:
                data = read_picture(scenario.doc.folder, src)
            except PictureRefused as err:  # changed since this process validated it
                raise RenderError(f"{path}: {err}") from None
            seen.add((str(scenario.doc.folder / src), hashlib.sha256(data).hexdigest()))
            digest.update(f"{src}\0".encode() + hashlib.sha256(data).digest())
    return digest.digest(), frozenset(seen)


def scenario_source(scenario) -> bytes:
    """What a part's key holds of one scenario: its file's bytes, and its house rules' where it plays some (an
    edited house file is a new chapter and a new appendix, as an edited scenario is)."""
    house = scenario.system.house
    return scenario.doc.source if house is None else scenario.doc.source + b"\0house rules\0" + house.doc.source


def _inputs(sources: list[bytes], pictures: frozenset | None) -> tuple:
    """A part's inputs as its cache key holds them: the bytes of each scenario file it is made from, in order, and
    (a chapter's) each picture's path with its bytes' hash."""
    return tuple(hashlib.sha256(source).hexdigest() for source in sources), pictures


def cache_keys(parts: list[Part], houses: dict[str, str], options: Options) -> None:
    """Give each part its cache key: a hash of everything that shapes its pages (with the house rules `houses`
    played by system: their bytes are in the key through each scenario's)."""
    options = replace(options, house_rules=tuple(sorted(houses.items())))
    code = _fingerprint()
    for part in parts:
        digest = hashlib.sha256(code.encode())
        digest.update(repr((part.kind, replace(options, fronts_only=False))).encode())
        if part.kind == APPENDIX:  # its heading, system and variant sets, and the scenarios it is made from
            digest = hashlib.sha256(
                code.encode()
                + repr((part.kind, part.label, options, [k for k, _ in part.variant_sets], part.played_in)).encode()
            )
            paths = [path for _, path in part.variant_sets]
        else:
            paths = [part.path]
        sources, pictures = [], frozenset()
        for path in paths:  # an edited scenario is a new chapter, and a new appendix where it is made from it
            source = scenario_source(load_scenario(path, houses))
            digest.update(source)
            sources.append(source)
            if part.kind != APPENDIX:  # an edited map is a new chapter; an appendix prints no scenario's pictures
                drawn, notes = _pictures(path, houses)
                digest.update(drawn)
                pictures |= notes
        part.inputs = _inputs(sources, pictures if part.kind != APPENDIX else None)
        part.key = digest.hexdigest()


def _from_cache(part: Part, cache: Path) -> bool:
    """Fill in the part from its cached PDF if there is a sound one (its hash, a PDF, its page count)."""
    entry = read_entry(cache, part.key)
    if entry is None:
        return False
    part.receive(*entry)
    return True


def in_a_book(html: str) -> str:
    """A pack's words as a booklet prints them: the notes' "this pack reads..." is "this book reads..." there."""
    return re.sub(r"\b([Tt])his pack\b", r"\1his book", html)


def _render_part(args: tuple) -> tuple[bytes, int, dict, bool]:
    """Render one chapter or appendix to PDF bytes (runs in a worker process), with the CPU seconds WeasyPrint took,
    and whether it may be cached under the key planned for it: a part whose files or pictures changed since its key
    was made (a picture edited, or two swapped, while the booklet renders) prints what it read, but is not kept
    under the key of what it did not print."""
    paths, mode, heading, options, planned = args
    before = engine.weasyprint_cpu
    fetcher.READ.clear()
    sets = []
    played_in = []
    played = frozenset(ident for names, _, _ in paths for ident in names)  # an appendix's: every chapter's variants
    for names, path, titles in paths:
        scenario = load_scenario(path, dict(options.house_rules))
        seed = choose_seed(scenario, options.seed)
        pack, _ = compute(
            scenario,
            seed,
            options,
            with_cards=False,
            whole_reference=mode == APPENDIX,
            book_variants=played,
            book=mode != APPENDIX,
        )
        sets.append((names, scenario, pack))
        played_in.append(titles)
    if mode == APPENDIX:
        html = appendix_html(sets, heading, played_in)
    else:
        html = pack_html(scenario, pack, Parts.chapter(scenario.system), booklet=True)
    html = in_a_book(html)
    # the files read, and every picture read (validating too); an appendix prints no pictures, so only its files count
    read = _inputs([scenario_source(s) for _, s, _ in sets], frozenset(fetcher.READ) if mode != APPENDIX else None)
    # tagged, without object streams: the join copies the structure tree by the xref's offsets
    data, pages = render_pdf(html, TEMPLATES, tags=True, pdf_version=PART_PDF_VERSION)
    return data, pages, {"weasyprint": engine.weasyprint_cpu - before}, read == planned


def render_parts(
    parts: list[Part],
    options: Options,
    jobs: int,
    cache: Path | None,
    step: Callable[[str], None],
    stats: dict,
    ready: Callable[[int], None] = lambda index: None,
) -> None:
    """Fill in each part's PDF: from the cache where its key is known, else rendered (in parallel); ready(index)
    is told of each part as soon as its PDF is there, in no particular order."""
    todo = []
    for index, part in enumerate(parts):
        if cache and _from_cache(part, cache):
            step(f"cached {part.title}")
            ready(index)
        else:
            todo.append(part)
    # a chapter reads its scenario; an appendix one scenario of each variant set of its system
    args = [
        (
            [(names, path, p.played_in.get(names, [])) for names, path in p.variant_sets]
            if p.kind == APPENDIX
            else [((), p.path, [])],
            p.kind,
            p.label,
            options,
            p.inputs,
        )
        for p in todo
    ]
    stats["rendered"] = len(todo)

    def done(part: Part, data: bytes, pages: int, timing: dict, keyed: bool) -> None:
        if not keyed:
            part.key = ""  # printed from other bytes than its key was made of: kept under no key, nor the booklet
        part.receive(data, pages)
        for key, seconds in timing.items():
            stats[key] = stats.get(key, 0.0) + seconds
        step(f"rendered {part.title}")
        if part.key and cache:
            store(cache, part.entry, data)
        ready(parts.index(part))

    # In the booklet's order: the join adds each part as soon as those before it are there (generator/booklet/
    # __init__.py), so a part rendered early but placed late would wait to the end. (The longest first balanced two
    # workers better, by about a second at 40 scenarios; the join keeping pace saves more.)
    order = list(range(len(todo)))
    run_each_limited(
        _render_part,
        [(todo[i].path, args[i]) for i in order],
        jobs,
        lambda index, result: done(todo[order[index]], *result),
    )
