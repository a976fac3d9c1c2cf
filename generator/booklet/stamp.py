"""The booklet's page furniture: running heads and page numbers, rendered as one PDF and stamped on every page."""

from __future__ import annotations

import io

import pikepdf

from ..build import Options
from ..engine import html_to_pdf
from ..rendering import TEMPLATES, render
from .plan import Part


def running_heads(config: dict, parts: list[Part], front_pages: int, options: Options) -> tuple[bytes, list[bool]]:
    """One page of running head and page number for each page of the booklet, on an empty page, as a PDF; and
    for each page whether it stays blank (the cover, a blank left-hand page)."""
    # the cover carries neither running head nor page number; the contents pages do
    heads = [{"head": "", "blank": True, "landscape": False}]
    heads += [{"head": "Contents", "blank": False, "landscape": False}] * (front_pages - 1)
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
    return html_to_pdf(stamp_html, TEMPLATES, tags=False), [head["blank"] for head in heads]


def _landscape(pdf: bytes) -> list[bool]:
    """For each page of a part, whether it is turned landscape."""
    with pikepdf.Pdf.open(io.BytesIO(pdf)) as document:
        return [float(box[2] - box[0]) > float(box[3] - box[1]) for box in (page.mediabox for page in document.pages)]
