"""The booklet's page furniture: running heads and page numbers, laid out once and stamped on every page.

Every text the stamps print (the booklet's title, each distinct running head, each "n / N") is laid out once, on one
tall sheet, each at a place of its own: the sheet's width is the paper's, so a text sits across the sheet where it
sits across a page, and only its height on the sheet differs. Each page's stamp is then its own texts' drawing
operators copied from that sheet, each moved by a translation to its place on the page: WeasyPrint lays out one page
for the whole booklet instead of one a page (190 at 40 scenarios, 1.9 of the booklet's 5 s after its chapters), and
every stamp shares the sheet's one font subset. Only a text's own operators are copied, so a page's text is its own
head and number, never the sheet's others.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pikepdf

from ..build import Options
from ..engine import render_pdf
from ..errors import RenderError
from ..rendering import TEMPLATES, render
from ..svg import PAPER_MM
from .parts import PART_PDF_VERSION
from .plan import Part

PX = 25.4 / 96  # millimetres in a CSS pixel: WeasyPrint's drawing unit
PITCH = 4.0  # mm between two texts' rows on the sheet: more than a line of 8 pt text, so no two rows meet
GAP = 20.0  # mm between the heads' rows and the numbers' rows: more than a text's band (stamp.css)
COLUMNS = 5  # page numbers in a row of the sheet, each centred in its own column
LEFT_MARGIN = 13.0  # mm: the booklet's title starts at the page's left margin (stamp.css puts a head at the right)
NUMBER_BAND = 15.0  # mm: the page number is centred in the bottom band of this height (stamp.css)


@dataclass
class Stamps:
    """The sheet every stamp's text was laid out on (a PDF of one page, whose resources the stamps use), and each
    booklet page's stamp: the operators that draw it, or None where the page stays blank."""

    sheet: bytes
    contents: list[bytes | None]


def running_heads(config: dict, parts: list[Part], front_pages: int, options: Options) -> Stamps:
    """Running head and page number for each page of the booklet: the cover and blank left-hand pages carry
    neither; the contents pages are headed "Contents", a part's pages by its running head."""
    pages: list[tuple[str, tuple[float, float]] | None] = [None]  # (head, page size in pt) or None: blank
    portrait = tuple(mm / 25.4 * 72 for mm in PAPER_MM[options.paper])
    pages += [("Contents", portrait)] * (front_pages - 1)
    for part in parts:
        if part.blank_before:  # a blank left-hand page stays blank, as a publisher leaves it
            pages.append(None)
        # a page turned landscape (a wide table's map) gets its heads along its own long edge
        pages += [(part.head, size) for size in part.sizes]
    total = len(pages)
    heads = list(dict.fromkeys(page[0] for page in pages if page and page[0]))
    stamped = [n for n, page in enumerate(pages, 1) if page]
    width = PAPER_MM[options.paper][0]
    column = width / COLUMNS
    numbers_top = (len(heads) + 1) * PITCH + GAP
    # the sheet's texts: the booklet's title, then each head a row, then the page numbers COLUMNS to a row
    spans = [{"kind": "left", "text": config["title"], "top": 0.0, "left": LEFT_MARGIN}]
    spans += [{"kind": "head", "text": head, "top": (i + 1) * PITCH, "left": 0.0} for i, head in enumerate(heads)]
    spans += [
        {
            "kind": "number",
            "text": f"{n} / {total}",
            "top": numbers_top + (i // COLUMNS) * PITCH,
            "left": (i % COLUMNS) * column,
        }
        for i, n in enumerate(stamped)
    ]
    height = numbers_top + (len(stamped) // COLUMNS + 1) * PITCH + GAP
    html = render("booklet/stamp.html", spans=spans, width=width, height=height, column=column)
    sheet, _ = render_pdf(html, TEMPLATES, tags=False, pdf_version=PART_PDF_VERSION)  # the join copies it by its xref
    runs = _runs(sheet, spans, numbers_top, column)
    head_span = {head: 1 + i for i, head in enumerate(heads)}
    number_span = {n: 1 + len(heads) + i for i, n in enumerate(stamped)}
    contents: list[bytes | None] = []
    for n, page in enumerate(pages, 1):
        if page is None:
            contents.append(None)
            continue
        head, (page_w, page_h) = page
        page_w_mm, page_h_mm = page_w / 72 * 25.4, page_h / 72 * 25.4
        placed = [(0, 0.0, 0.0)]  # the title: left-aligned in the top band, as on the sheet's first row
        if head:  # right-aligned in the top band: moved by how much wider than the sheet the page is
            index = head_span[head]
            placed.append((index, page_w_mm - width, -spans[index]["top"]))
        index = number_span[n]  # centred on the page instead of in its column, in the page's bottom band
        span = spans[index]
        placed.append((index, page_w_mm / 2 - span["left"] - column / 2, page_h_mm - NUMBER_BAND - span["top"]))
        body = b"".join(b"q 1 0 0 1 %.4f %.4f cm\n%sQ\n" % (dx / PX, dy / PX, runs[i]) for i, dx, dy in placed)
        contents.append(b"1 0 0 -1 0 %.6f cm\n0.75 0 0 0.75 0 0 cm\n" % page_h + body)
    return Stamps(sheet, contents)


def _runs(sheet: bytes, spans: list[dict], numbers_top: float, column: float) -> list[bytes]:
    """Each span's drawing operators on the sheet: the innermost saved graphics state around each BT ... ET (its
    colour, its text), told apart by the row it is drawn in and, for a page number, its column. WeasyPrint draws
    the sheet as `1 0 0 -1 0 H cm` then `0.75 0 0 0.75 0 0 cm` (px to pt, y down from the top) and then each
    span; a sheet drawn otherwise is refused rather than stamped wrong."""
    with pikepdf.Pdf.open(io.BytesIO(sheet)) as pdf:
        if len(pdf.pages) != 1:
            raise RenderError(f"the running heads' sheet has {len(pdf.pages)} pages, not one")
        instructions = pikepdf.parse_content_stream(pdf.pages[0])
    matrices = [[float(v) for v in i.operands] for i in instructions[:3] if str(i.operator) == "cm"]
    if len(matrices) != 2 or matrices[0][:4] != [1, 0, 0, -1] or matrices[1] != [0.75, 0, 0, 0.75, 0, 0]:
        raise RenderError("the running heads' sheet is not drawn as Muster expects (px on a flipped page)")
    found: list[tuple[float, float, bytes]] = []  # each run's first text position (mm) and its operators
    opened: list[int] = []
    start, depth = None, 0
    for index, instruction in enumerate(instructions):
        operator = str(instruction.operator)
        if operator == "q":
            opened.append(index)
        elif operator == "BT" and start is None and opened:
            start, depth = opened[-1], len(opened)
        elif operator == "Q" and opened:
            if start is not None and len(opened) == depth:
                run = instructions[start : index + 1]
                at = next((i.operands for i in run if str(i.operator) == "Tm"), None)
                if at is None:
                    raise RenderError("a running head on the stamps' sheet is drawn without a text position")
                found.append((float(at[4]) * PX, float(at[5]) * PX, pikepdf.unparse_content_stream(run) + b"\n"))
                start = None
            opened.pop()
    drawn: list[list[bytes]] = [[] for _ in spans]
    for numbers in (False, True):
        group = [i for i, span in enumerate(spans) if (span["kind"] == "number") == numbers]
        runs = [run for run in found if (run[1] >= numbers_top) == numbers]
        if not group or not runs:
            continue
        baseline = min(y for _, y, _ in runs) - spans[group[0]]["top"]  # a text's baseline below its span's top
        at = {(round(spans[i]["top"] / PITCH), round(spans[i]["left"] / column)): i for i in group}
        for x, y, run in runs:
            row = (y - baseline) / PITCH
            key = (round(row), int(x // column) if numbers else 0)
            if abs(row - round(row)) > 0.01 or key not in at:
                raise RenderError("a running head on the stamps' sheet is not where it was placed")
            drawn[at[key]].append(run)
    for span, runs in zip(spans, drawn):
        if span["text"] and not runs:
            raise RenderError(f"the running head {span['text']!r} is missing from the stamps' sheet")
    return [b"".join(runs) for runs in drawn]
