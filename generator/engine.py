"""WeasyPrint with the locked fetcher: HTML in, PDF bytes out, and any warning it logs fails the render."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import re
import time
import uuid
from pathlib import Path

from . import fit
from .errors import RenderError, UnfitText
from .fetcher import make_fetcher
from .startup import import_weasyprint

# CPU seconds this process has spent inside WeasyPrint (layout, fitting and PDF writing), for `make bench`
# (MUSTER_STATS): what is not here, of a build's whole process tree, is Muster's own and start-up's.
weasyprint_cpu = 0.0
import_cpu = 0.0  # and importing it (sandbox._preload), once per command


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def html_to_pdf(html: str, base: Path, *, tags: bool = True, variant: str | None = None) -> bytes:
    """Render HTML to PDF bytes (in WeasyPrint's PDF `variant`, such as "pdf/x-4", where given); any warning
    WeasyPrint logs (a missing picture, bad CSS) fails the build."""
    return render_pdf(html, base, tags=tags, variant=variant)[0]


def _lay_out(
    html: str, base: Path, fetcher, tags: bool = True, prefixes: bool = True
) -> tuple[object, list[fit.Unfit]]:
    """The laid-out WeasyPrint document, its marked card text fitted (generator/fit.py), and the texts that do not
    fit even at their smallest size."""
    weasyprint = import_weasyprint()

    def layout(text: str):
        global weasyprint_cpu
        start = time.process_time()
        try:
            return weasyprint.HTML(string=text, base_url=str(base) + "/", url_fetcher=fetcher).render(pdf_tags=tags)
        finally:
            weasyprint_cpu += time.process_time() - start

    if fit.MARK in html:  # card text that must fit its box: measured and shrunk by this same engine
        laid_out, _, unfit = fit.fit(html, layout, prefixes)
        return laid_out, unfit
    laid_out = settle(html, layout)[0]
    continued_only_after_a_break(laid_out)
    return laid_out, []


MORE = "ref-more"  # a heading's "(continued)" (_macros.html: ref_heading)


def continued_only_after_a_break(document) -> None:
    """Take "(continued)" out of each quick-reference section's first heading, leaving it in the headings a
    section repeats where it goes on in the next column or page: the repeat said only "Recovery" again, and read
    as a second section (the bridge's last Recovery bullet). CSS cannot tell a repeated table header from the
    first, so the laid-out document is mended: the words sit at the end of their heading's line, and dropping them
    moves nothing else."""
    from weasyprint.formatting_structure import boxes

    seen: set = set()
    for page in document.pages:
        stack = [page._page_box]
        while stack:
            box = stack.pop()
            children = getattr(box, "children", ())
            if isinstance(box, boxes.TableBox) and children and getattr(children[0], "is_header", False):
                if box.element not in seen:
                    seen.add(box.element)
                    _drop_more(children[0])
                children = children[1:]
            stack.extend(reversed(children))


def _drop_more(box) -> None:
    children = getattr(box, "children", None)
    if not children:
        return
    kept = [child for child in children if MORE not in _span_classes(child)]
    if len(kept) != len(children):
        box.children = kept
    for child in kept:
        _drop_more(child)


def _span_classes(box) -> list[str]:
    element = getattr(box, "element", None)
    if element is None or getattr(box, "element_tag", None) != "span":
        return []
    return (element.get("class") or "").split()


def settle(html: str, layout) -> tuple[object, str]:
    """A pack or booklet part laid out with `layout` (HTML text -> laid-out document) as it is printed, and the
    HTML that gives it: a pull-out sheet joined to a mostly blank page before it, and a last page that holds only
    a short tail of the notes set closer, each kept only where it saves a page."""
    laid_out = layout(html)
    # the page before a pull-out sheet is mostly blank: let the sheet follow on it when it fits whole there, and
    # keep that layout if it saves the page (the Ford's roster page held one short roster, 20% used). The sheets to
    # try are read again from each layout kept: one joined moves the pages after it, and the Ford's second sheet,
    # after a blank page only before the first joined, was laid out again for nothing
    waiting = sheets_after_blank(laid_out, html) if "</head>" in html else []
    tried: set[str] = set()
    while waiting:
        sheet = waiting.pop(0)
        tried.add(sheet)
        trial = html.replace("</head>", JOIN.format(id=sheet) + "</head>", 1)
        joined = layout(trial)
        if len(joined.pages) < len(laid_out.pages):
            laid_out, html = joined, trial
            waiting = [id for id in sheets_after_blank(laid_out, html) if id not in tried]
    if 0 < closing_lines(laid_out) < CLOSING_LINES_LEAST and "</head>" in html:
        # the last page holds only the last few lines of the notes: set the reference closer and keep that
        # layout if it saves the page (a sheet of paper for two lines is what a publisher would never print)
        trial = html.replace("</head>", TIGHT + "</head>", 1)
        tight = layout(trial)
        if len(tight.pages) < len(laid_out.pages):
            return tight, trial
    return laid_out, html


# a sheet a player pulls out (muster.css: section.part.sheet) starts a page, unless the page before it would use less
# than this share of its height: then it may follow there, whole (it moves on to its own page when it does not fit)
SHEET_JOIN_BELOW = 1 / 2
JOIN_GAP_MM = 9  # the space above a sheet that follows on the page before it
JOIN = (
    "<style>section.part.sheet#{id} {{ break-before: auto; break-inside: avoid; margin-top: "
    + f"{JOIN_GAP_MM}mm; }}}}</style>"
)
# a sheet that may follow on a mostly blank page before it; never a booklet's orders slip, which is cut out of its
# page (joined below the Raiders' roster, cutting it out cut the roster too)
_SHEET = re.compile(r'<section class="part sheet(?![^"]*orders-cut)[^"]*" id="([\w-]+)"')


def sheets_after_blank(document, html: str) -> list[str]:
    """The ids of the sheets whose page follows one that uses less than SHEET_JOIN_BELOW of its height."""
    ids = _SHEET.findall(html)
    if not ids:
        return []
    first_page: dict[str, int] = {}
    used: list[float] = []
    for number, page in enumerate(document.pages):
        box = page._page_box
        top, height = box.content_box_y(), box.height
        lowest = top
        for found in _descendants(box):
            element = getattr(found, "element", None)
            if element is not None and element.tag == "section" and element.get("id") in ids:
                first_page.setdefault(element.get("id"), number)
            if _inked(found):
                lowest = max(lowest, found.position_y + found.margin_height())
        used.append((lowest - top) / height if height else 1.0)
    return [id for id in ids if first_page.get(id, 0) > 0 and used[first_page[id] - 1] < SHEET_JOIN_BELOW]


def _descendants(box):
    from weasyprint.formatting_structure import boxes

    stack = list(getattr(box, "children", ()))
    while stack:
        found = stack.pop()
        if isinstance(found, boxes.MarginBox):
            continue  # running heads and page numbers
        yield found
        stack.extend(getattr(found, "children", ()))


def _inked(box) -> bool:
    """A box that prints something where it stands: a line of text, a picture, a table row."""
    from weasyprint.formatting_structure import boxes

    return isinstance(box, (boxes.LineBox, boxes.ReplacedBox, boxes.TableRowBox))


CLOSING_LINES_LEAST = 20  # fewer lines on a document's last page, after a full page, is a stray tail (13: Letter relay)
TIGHT = '<link rel="stylesheet" href="tight.css">'
_CLOSING = ("ref-notes", "ref-cols")  # the quick reference and notes that close a pack or an appendix


def closing_lines(document) -> int:
    """The lines of text on the laid-out document's last page when they are the end of its quick reference or
    notes, run on from the page before; 0 otherwise (one page, or a last page that is not the notes' end)."""
    from weasyprint.formatting_structure import boxes

    if len(document.pages) < 2:
        return 0
    lines, closing = 0, False
    stack = [document.pages[-1]._page_box]
    while stack:
        box = stack.pop()
        if isinstance(box, boxes.MarginBox) or (getattr(box, "element_tag", None) or "").endswith("::marker"):
            continue  # running heads and page numbers; a list item's number, on its first line
        classes = (box.element.get("class") or "").split() if box.element is not None else []
        closing = closing or any(name in classes for name in _CLOSING)
        if isinstance(box, boxes.LineBox):
            lines += 1
            continue
        stack.extend(getattr(box, "children", ()))
    return lines if closing else 0


def lay_out(html: str, base: Path, prefixes: bool = True) -> tuple[object, list[fit.Unfit]]:
    """Lay out HTML as it would print, without writing a PDF: the document (weasyprint.document.Document), with
    its card text fitted, and the marked texts that cannot fit even at their smallest size (with the longest of
    each that fits, unless `prefixes` is false). Validation's fit check and the tests that measure a card's
    layout boxes read it."""
    return _lay_out(html, base, make_fetcher(), prefixes=prefixes)


@contextlib.contextmanager
def _document_id(html: str | None):
    """While a PDF/X-4 is written, its XMP DocumentID (WeasyPrint's uuid4(), new every time) is a UUID made from the
    document's HTML: the same input gives the same bytes, as every Muster PDF does."""
    if html is None:
        yield
        return
    from weasyprint.pdf import metadata

    made = uuid.UUID(hashlib.sha256(html.encode("utf-8")).hexdigest()[:32], version=4)
    original = metadata.uuid4
    metadata.uuid4 = lambda: made
    try:
        yield
    finally:
        metadata.uuid4 = original


def render_pdf(
    html: str,
    base: Path,
    *,
    tags: bool = True,
    links: list | None = None,
    pdf_version: str | None = None,
    variant: str | None = None,
) -> tuple[bytes, int]:
    """Render HTML to PDF bytes and its page count (counting from the layout costs nothing; reading it back does).

    The page reads Muster's templates and nothing else: a scenario's pictures are in the HTML as checked bytes.

    Given a list as `links`, it receives (page index, anchor, (x0, y0, x1, y1) in PDF points from the
    bottom-left) for every internal link, for callers that retarget links after joining PDFs.
    pdf_version "1.4" writes no object streams (the booklet copies a part's objects by their xref offsets).
    """
    from weasyprint.urls import FatalURLFetchingError  # a BaseException, so that WeasyPrint never swallows it

    logger = logging.getLogger("weasyprint")
    handler = _Collect()
    logger.addHandler(handler)
    previous = logger.propagate
    logger.propagate = False
    try:
        fetcher = make_fetcher()
        laid_out, unfit = _lay_out(html, base, fetcher, tags)
        if unfit:
            raise UnfitText(unfit)
        global weasyprint_cpu
        start = time.process_time()
        with _document_id(html if variant else None):
            # a PDF/X file names the colour its numbers mean, an output intent: WeasyPrint's sRGB profile (the pages
            # are RGB; without one, the PDF/X keys stood over a file with no output intent at all)
            intent = "srgb" if variant and variant.startswith("pdf/x") else None
            data = laid_out.write_pdf(
                pdf_tags=tags,
                uncompressed_pdf=False,
                pdf_version=pdf_version,
                pdf_variant=variant,
                output_intent=intent,
            )
        weasyprint_cpu += time.process_time() - start
        pages = len(laid_out.pages)
        if links is not None:
            for index, page in enumerate(laid_out.pages):
                height = page.height * 0.75  # CSS px to PDF points
                for kind, target, (x0, y0, x1, y1), _ in page.links:
                    if kind == "internal":
                        links.append((index, target, (x0 * 0.75, height - y1 * 0.75, x1 * 0.75, height - y0 * 0.75)))
    except (RenderError, MemoryError):  # a MemoryError is the render child's memory limit: its own message
        raise
    except (Exception, FatalURLFetchingError) as err:  # WeasyPrint's own failures: a refused fetch, a broken picture
        root = err
        while root.__cause__ is not None:  # our fetcher's own words sit under WeasyPrint's wrapper
            root = root.__cause__
        if isinstance(root, MemoryError) or isinstance(err, MemoryError):  # the memory limit, however wrapped
            raise MemoryError() from err
        raise RenderError(str(root) or type(root).__name__) from err
    finally:
        logger.removeHandler(handler)
        logger.propagate = previous
    problems = [m for m in handler.messages if "harfbuzz" not in m.lower() and "subset" not in m.lower()]
    if problems and fetcher.refused:  # our reasons; WeasyPrint's own words add only the URL, a picture's bytes
        problems = fetcher.refused
    if problems:
        raise RenderError("rendering reported: " + "; ".join(dict.fromkeys(map(_short, problems))))
    return data, pages


def _short(message: str) -> str:
    """A message of WeasyPrint's as one readable line: a picture's data: URL named, not printed (a 2 MB SVG's
    failure was one line of 2.7 MB), and at most 300 characters of the rest."""
    message = re.sub(r"data:[^\s,;]*[;,][^\s]*", "(a picture)", " ".join(message.split()))
    return message if len(message) <= 300 else message[:297] + "..."
