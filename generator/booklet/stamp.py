"""The booklet's page furniture: running heads and page numbers, rendered as one PDF and stamped on every page."""

from __future__ import annotations

import io

from pypdf import PdfReader
from pypdf.generic import NameObject, StreamObject

from ..build import Options
from ..engine import html_to_pdf
from ..rendering import TEMPLATES, render
from .plan import Part


def running_heads(config: dict, parts: list[Part], front_pages: int, options: Options) -> PdfReader:
    """One page of running head and page number for each page of the booklet, on an empty page."""
    heads = [{"head": "Contents", "blank": False, "landscape": False}] * front_pages
    for part in parts:
        if part.blank_before:  # a blank left-hand page stays blank: no running head, no page number
            heads.append({"head": "", "blank": True, "landscape": False})
        # a page turned landscape (a wide table's map) gets its heads along its own long edge
        heads += [{"head": part.head, "blank": False, "landscape": turned} for turned in _landscape(part.pdf)]
    stamp_html = render(
        "booklet/stamp.html",
        pages=heads,
        left=config["title"],
        page_size={"a4": "A4", "letter": "letter"}[options.paper],
    )
    return PdfReader(io.BytesIO(html_to_pdf(stamp_html, TEMPLATES, tags=False)))


def _landscape(pdf: bytes) -> list[bool]:
    """For each page of a part, whether it is turned landscape."""
    return [page.mediabox.width > page.mediabox.height for page in PdfReader(io.BytesIO(pdf)).pages]


def stamp_pages(writer, heads: PdfReader) -> None:
    """Lay each page of running heads over its page of the joined booklet."""
    for page, overlay in zip(writer.pages, heads.pages):
        _as_artifact(overlay)
        page.merge_page(overlay)


def _as_artifact(page) -> None:
    """Mark a stamp page's content as an artifact: page numbers and running heads are page furniture,
    and unmarked content on a tagged page would be neither tagged nor an artifact."""
    stream = StreamObject()
    stream.set_data(b"/Artifact BMC\n" + page.get_contents().get_data() + b"\nEMC\n")
    page[NameObject("/Contents")] = stream
