"""The booklet's page furniture: running heads and page numbers, rendered as one PDF and stamped on every page."""

from __future__ import annotations

import io

from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, StreamObject

from ..build import Options
from ..engine import html_to_pdf
from ..rendering import TEMPLATES, render
from .plan import Part
from .pypdf_adapter import add_object


def running_heads(config: dict, parts: list[Part], front_pages: int, options: Options) -> PdfReader:
    """One page of running head and page number for each page of the booklet, on an empty page."""
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
    return PdfReader(io.BytesIO(html_to_pdf(stamp_html, TEMPLATES, tags=False)))


def _landscape(pdf: bytes) -> list[bool]:
    """For each page of a part, whether it is turned landscape."""
    return [page.mediabox.width > page.mediabox.height for page in PdfReader(io.BytesIO(pdf)).pages]


def stamp_pages(writer, heads: PdfReader) -> None:
    """Lay each page of running heads over its page of the joined booklet.

    Each stamp page goes in as a Form XObject drawn after the page's own content, marked as an artifact: page
    numbers and running heads are page furniture, and unmarked content on a tagged page would be neither tagged
    nor an artifact. The page's own content streams are left as they are (pypdf's merge_page decoded every
    page and wrote it back uncompressed: 4.4 of the example booklet's 7.2 MB)."""
    for number, (page, overlay) in enumerate(zip(writer.pages, heads.pages)):
        drawn = overlay.get_contents()
        if drawn is None:  # a blank left-hand page stays blank
            continue
        form = StreamObject()
        form[NameObject("/Type")] = NameObject("/XObject")
        form[NameObject("/Subtype")] = NameObject("/Form")
        form[NameObject("/BBox")] = ArrayObject([FloatObject(v) for v in overlay.mediabox])
        form[NameObject("/Resources")] = overlay["/Resources"].clone(writer)  # shared fonts copied once
        form.set_data(drawn.get_data())
        name = NameObject(f"/MusterStamp{number}")
        resources = DictionaryObject(page["/Resources"].get_object())  # the page's own: it may be shared
        xobjects = DictionaryObject(resources.get("/XObject", DictionaryObject()).get_object())
        xobjects[name] = add_object(writer, form.flate_encode())
        resources[NameObject("/XObject")] = xobjects
        page[NameObject("/Resources")] = resources
        contents = page.raw_get("/Contents") if "/Contents" in page else ArrayObject()
        contents = list(contents.get_object()) if isinstance(contents.get_object(), ArrayObject) else [contents]
        page[NameObject("/Contents")] = ArrayObject(
            [
                _content(writer, b"q\n"),  # the page's graphics state cannot leak into its stamp
                *contents,
                _content(writer, b"\nQ\n/Artifact BMC\nq " + name.encode() + b" Do Q\nEMC\n"),
            ]
        )


def _content(writer, data: bytes):
    stream = StreamObject()
    stream.set_data(data)
    return add_object(writer, stream)
