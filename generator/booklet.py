"""The club booklet: chapters rendered in parallel and cached, joined with pypdf, then numbered and bookmarked.

Stages: load every file (all problems first) -> render each chapter and each system appendix
(cached by a hash of everything that shapes it, two processes at a time) -> render the front
matter once the page numbers are known -> join, stamp running heads and page numbers, bookmark.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from . import __version__, markup
from .build import APPENDIX, CHAPTER, Options, choose_seed, compute, load, pack_html
from .engine import html_to_pdf, render_pdf
from .errors import InputProblems, Problem, RenderError
from .files import write_atomic
from .loading import load_file
from .rendering import ROOT, TEMPLATES, render
from .sandbox import render_in_pool
from .schema import INVALID, Checker, Key, Markdown, Record, Str
from .scenario import NAME_PATTERN

CONFIG = Record([
    Key("club", Str(80, NAME_PATTERN, "a club name"), "The club's name, on the cover."),
    Key("season", Str(80, NAME_PATTERN, "a season"), "The season or campaign, e.g. Autumn 2026."),
    Key("title", Str(80, NAME_PATTERN, "a title"), "The booklet's title; defaults to '<club> scenarios'.", required=False),
    Key("author", Str(80, NAME_PATTERN, "a name"), "Who edited the booklet (the PDF's author).", required=False),
    Key("introduction", Markdown(), "A foreword in Markdown, on the cover.", required=False, default=""),
])


@dataclass
class Part:
    """One separately rendered piece of the booklet: a chapter or an appendix."""

    kind: str  # chapter or appendix
    path: str  # the scenario file (an appendix uses its first scenario's)
    title: str
    head: str  # the running head on its pages
    system: str
    author: str = ""
    key: str = ""  # cache key
    pdf: bytes = b""
    pages: int = 0
    start: int = 0
    letter: str = ""


def _fingerprint() -> str:
    """A hash of Muster's code and templates: any change to how pages look invalidates the cache."""
    digest = hashlib.sha256(__version__.encode())
    for folder, pattern in ((ROOT / "generator", "*.py"), (ROOT / "generator", "*.yaml"), (TEMPLATES, "*")):
        for path in sorted(folder.rglob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def load_config(path: str | None) -> dict:
    if path is None:
        return {"club": "Muster", "season": "Scenarios", "title": "Scenario booklet", "author": "", "introduction": ""}
    doc = load_file(path)
    ck = Checker(doc)
    data = CONFIG.check(doc.data, (), ck)
    if ck.problems or data is INVALID:
        raise InputProblems(ck.problems)
    data["title"] = data.get("title") or f"{data['club']} scenarios"
    return data


# Parts are tagged and written without object streams (PDF 1.4 has none): pypdf then reads only the
# objects a page needs, and the structure tree is copied as bytes (generator/structure.py).
PART_PDF_VERSION = "1.4"

_LOADED: dict = {}  # per process: a scenario read once serves its chapter and its system's appendix


def _load(path: str):
    try:
        stat = os.stat(path)
        key = (path, stat.st_mtime_ns, stat.st_size)  # an edited file is read again
    except OSError:
        return load(path)  # let load() word the problem
    if key not in _LOADED:
        _LOADED[key] = load(path)
    return _LOADED[key]


def _render_part(args: tuple) -> tuple[bytes, int, dict]:
    """Render one chapter or appendix to PDF bytes (runs in a worker process), timing our share and WeasyPrint's."""
    path, mode, options = args
    t0 = time.perf_counter()
    scenario = _load(path)
    seed = choose_seed(scenario, options.seed)
    pack, _ = compute(scenario, seed, options, with_cards=False)
    html = pack_html(scenario, pack, mode)
    t1 = time.perf_counter()
    # tagged, without object streams: the join copies the structure tree by the xref's offsets
    data, pages = render_pdf(html, TEMPLATES, scenario.doc.folder, tags=True, pdf_version=PART_PDF_VERSION)
    return data, pages, {"outside": t1 - t0, "weasyprint": time.perf_counter() - t1}


class Progress:
    """A bar on a terminal, plain lines otherwise, on stderr."""

    def __init__(self, total: int, stream=sys.stderr):
        self.total, self.done, self.stream = total, 0, stream
        self.tty = stream.isatty()

    def step(self, what: str) -> None:
        self.done += 1
        if self.tty:
            width = 28
            filled = width * self.done // max(self.total, 1)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {what[:40]:40}")
            if self.done == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(f"booklet: {self.done}/{self.total} {what}\n")
        self.stream.flush()


def _cache_dir(out: Path) -> Path:
    return Path(os.environ.get("MUSTER_CACHE") or out.parent / ".cache" / "booklet")


def plan(paths: list[str], options: Options) -> list[Part]:
    """Load every scenario (collecting every problem of every file) and list the parts to render."""
    problems: list[Problem] = []
    scenarios = []
    for path in paths:
        try:
            scenarios.append(_load(path))
        except InputProblems as err:
            problems.extend(err.problems)
    if problems:
        raise InputProblems(problems)
    parts = []
    appendices: dict[tuple, Part] = {}
    for sc in scenarios:
        parts.append(Part(CHAPTER, sc.doc.file, sc.title, sc.title, sc.system.title, sc.data.get("author") or ""))
        key = sc.system.appendix_key(sc)
        if key not in appendices:
            variants = ", ".join(key[1]) if len(key) > 1 and key[1] else ""
            title = sc.system.title + (f" ({variants})" if variants else "")
            appendices[key] = Part(APPENDIX, sc.doc.file, title, f"Appendix: {title}", sc.system.title)
    for letter, part in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", appendices.values()):
        part.letter = letter
        part.head = f"Appendix {letter}: {part.title}"
    return parts + list(appendices.values())


def _keys(parts: list[Part], options: Options) -> None:
    code = _fingerprint()
    for part in parts:
        digest = hashlib.sha256(code.encode())
        digest.update(repr((part.kind, replace(options, fronts_only=False))).encode())
        sc = _load(part.path)
        digest.update(sc.doc.source)
        if part.kind == APPENDIX:  # an appendix depends on the system and its variants, not the scenario
            digest = hashlib.sha256(code.encode() + repr((part.kind, options, sc.system.appendix_key(sc))).encode())
        part.key = digest.hexdigest()


def render_parts(parts: list[Part], options: Options, jobs: int, cache: Path | None, progress: Progress,
                 stats: dict) -> None:
    """Fill in each part's PDF: from the cache where its key is known, else rendered (in parallel)."""
    todo = []
    for part in parts:
        cached = sorted(cache.glob(f"{part.key}-*.pdf")) if cache and cache.is_dir() else []
        if cached:  # named key-pages.pdf: the page count is known without reading the PDF
            part.pdf, part.pages = cached[0].read_bytes(), int(cached[0].stem.rsplit("-", 1)[1])
            progress.step(f"cached {part.title}")
        else:
            todo.append(part)
    args = [(p.path, p.kind, options) for p in todo]
    stats["rendered"] = len(todo)

    def done(part: Part, data: bytes, pages: int, timing: dict) -> None:
        part.pdf, part.pages = data, pages
        for key, seconds in timing.items():
            stats[key] = stats.get(key, 0.0) + seconds
        progress.step(f"rendered {part.title}")
        if cache:
            write_atomic(cache / f"{part.key}-{pages}.pdf", data)

    # The longest parts go first, so that no worker is left with a long one at the end.
    order = sorted(range(len(todo)), key=lambda i: -len(_load(todo[i].path).doc.source))
    render_in_pool(_render_part, [(todo[i].path, args[i]) for i in order], jobs,
                   lambda index, result: done(todo[order[index]], *result), "the booklet")


def _front(config: dict, parts: list[Part], options: Options) -> tuple[bytes, int, list]:
    chapters = [p for p in parts if p.kind == CHAPTER]
    appendices = [p for p in parts if p.kind == APPENDIX]
    systems = list(dict.fromkeys(p.system for p in chapters))
    html = render(
        "booklet/front.html",
        booklet={**config, "introduction": markup.to_html(config.get("introduction") or "")},
        chapters=[{"title": p.title, "system": p.system, "author": p.author, "page": p.start, "n": parts.index(p)}
                  for p in chapters],
        appendices=[{"title": p.title, "system": p.system, "letter": p.letter, "page": p.start, "n": parts.index(p)}
                    for p in appendices],
        systems=systems,
        page_size={"a4": "A4", "letter": "letter"}[options.paper],
        version=__version__,
    )
    links: list = []
    data, pages = render_pdf(html, TEMPLATES, None, tags=True, links=links, pdf_version=PART_PDF_VERSION)
    return data, pages, links


def booklet(paths: list[str], out: Path, config_path: str | None = None, options: Options | None = None,
            jobs: int = 2, use_cache: bool = True) -> Path:
    """Build the club booklet PDF from scenario files; nothing is written if any file has a problem."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject, TextStringObject

    from .structure import TreeJoin

    options = options or Options()
    stats: dict = {}
    config = load_config(config_path)
    parts = plan(paths, options)
    _keys(parts, options)
    cache = _cache_dir(out) if use_cache else None
    whole = hashlib.sha256(repr((sorted(config.items()), [p.key for p in parts], options)).encode()).hexdigest()
    if cache and (cache / f"booklet-{whole}.pdf").is_file():  # nothing changed: the last booklet is this one
        write_atomic(out, (cache / f"booklet-{whole}.pdf").read_bytes())
        _write_stats(stats)
        return out
    progress = Progress(len(parts) + 1)
    render_parts(parts, options, jobs, cache, progress, stats)
    t_front = time.perf_counter()

    # The front matter's length decides every page number; settle it (it rarely takes a second pass).
    front_pages = 0
    for _ in range(3):
        page = front_pages + 1
        for part in parts:
            part.start = page
            page += part.pages
        front, counted, _ = _front(config, parts, options)
        if counted == front_pages:
            break
        front_pages = counted
    total = page - 1
    progress.step("contents and page numbers")

    heads = [{"head": "Contents"}] * front_pages
    for part in parts:
        heads += [{"head": part.head}] * part.pages
    stamp_html = render("booklet/stamp.html", pages=heads, left=config["title"],
                        page_size={"a4": "A4", "letter": "letter"}[options.paper])
    stamp = PdfReader(io.BytesIO(html_to_pdf(stamp_html, TEMPLATES, None, tags=False)))

    t_join = time.perf_counter()
    writer = PdfWriter()
    tree = TreeJoin(writer)
    readers = []  # kept alive: pypdf knows what it copied from each reader by the reader's id()
    for data, label, title in [(front, None, "Cover and contents")] + [
            (part.pdf, _label(part), _label(part)) for part in parts]:
        first = len(writer.pages)
        readers.append(PdfReader(io.BytesIO(data), strict=True))  # our own output: skips re-checking every xref entry
        writer.append(readers[-1], outline_item=label, import_outline=True)
        tree.add(readers[-1], data, first, title)
    tree.finish()
    for page, overlay in zip(writer.pages, stamp.pages):
        _as_artifact(overlay)
        page.merge_page(overlay)
    _link_contents(writer, front_pages, parts)
    writer.add_metadata({
        "/Title": config["title"],
        "/Author": config.get("author") or config["club"],
        "/Subject": f"{config['club']}, {config['season']}: {len([p for p in parts if p.kind == CHAPTER])} scenarios",
        "/Creator": f"Muster {__version__}",
        "/Producer": f"Muster {__version__}",
    })
    writer._root_object[NameObject("/Lang")] = TextStringObject("en")
    # a fixed document ID: the same scenarios give the same booklet bytes
    writer._ID = None
    buffer = io.BytesIO()
    writer.write(buffer)
    write_atomic(out, buffer.getvalue())
    if cache:
        write_atomic(cache / f"booklet-{whole}.pdf", buffer.getvalue())
    stats["join"] = time.perf_counter() - t_join
    stats["outside"] = stats.get("outside", 0.0) + stats["join"]
    stats["weasyprint"] = stats.get("weasyprint", 0.0) + t_join - t_front
    _write_stats(stats)
    if total != len(writer.pages):
        raise RenderError(f"the booklet has {len(writer.pages)} pages, its contents counted {total}")
    return out


def _label(part: Part) -> str:
    return part.title if part.kind == CHAPTER else f"Appendix {part.letter}: {part.title}"


def _as_artifact(page) -> None:
    """Mark a stamp page's content as an artifact: page numbers and running heads are page furniture,
    and unmarked content on a tagged page would be neither tagged nor an artifact."""
    from pypdf.generic import NameObject, StreamObject

    stream = StreamObject()
    stream.set_data(b"/Artifact BMC\n" + page.get_contents().get_data() + b"\nEMC\n")
    page[NameObject("/Contents")] = stream


def _link_contents(writer, front_pages: int, parts: list[Part]) -> None:
    """Point each contents line at its chapter: the chapters were rendered apart, so WeasyPrint's links
    (to the contents lines themselves, named toc-N) are retargeted after the join. They are kept, not
    replaced, because the structure tree's Link elements refer to them."""
    from pypdf.generic import ArrayObject, NameObject, TextStringObject

    for index in range(front_pages):
        for annot in writer.pages[index].get("/Annots") or []:
            annot = annot.get_object()
            dest = annot.get("/Dest")
            if isinstance(dest, str) and dest.startswith("toc-"):
                part = parts[int(dest.rsplit("-", 1)[1])]
                annot[NameObject("/Dest")] = ArrayObject(
                    [writer.pages[part.start - 1].indirect_reference, NameObject("/Fit")])
                annot[NameObject("/Contents")] = TextStringObject(_label(part))


def _write_stats(stats: dict) -> None:
    """For `make bench`: where the time went, written where MUSTER_STATS says."""
    target = os.environ.get("MUSTER_STATS")
    if target:
        Path(target).write_text(json.dumps(stats))


