"""The booklet joined: front matter and parts appended into one PDF, with bookmarks, one structure tree and metadata."""

from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject, TextStringObject

from .. import __version__
from ..build import CHAPTER
from .plan import Part
from .pypdf_adapter import catalog, omit_document_id
from .structure import TreeJoin


def join_parts(front: bytes, parts: list[Part]) -> PdfWriter:
    """The front matter then every part, each bookmarked and its structure tree hung under the booklet's;
    a blank page goes before a part marked blank_before, so its bookmark opens its own first page."""
    writer = PdfWriter()
    tree = TreeJoin(writer)
    readers = []  # kept alive: pypdf knows what it copied from each reader by the reader's id()
    for data, label, title, blank in [(front, None, "Cover and contents", False)] + [
        (part.pdf, part.label, part.label, part.blank_before) for part in parts
    ]:
        if blank:
            box = writer.pages[-1].mediabox
            writer.add_blank_page(box.width, box.height)
        first = len(writer.pages)
        readers.append(PdfReader(io.BytesIO(data), strict=True))  # our own output: skips re-checking every xref entry
        writer.append(readers[-1], outline_item=label, import_outline=True)
        tree.add(readers[-1], data, first, title)
    tree.finish()
    return writer


def finish(writer: PdfWriter, config: dict, parts: list[Part]) -> bytes:
    """The booklet's bytes, with its title, author and language, and the same bytes for the same input."""
    writer.add_metadata(
        {
            "/Title": config["title"],
            "/Author": config.get("author") or config["club"],
            "/Subject": f"{config['club']}, {config['season']}: {len([p for p in parts if p.kind == CHAPTER])} scenarios",
            "/Creator": f"Muster {__version__}",
            "/Producer": f"Muster {__version__}",
        }
    )
    catalog(writer)[NameObject("/Lang")] = TextStringObject("en")
    # a fixed document ID: the same scenarios give the same booklet bytes
    omit_document_id(writer)
    joined = io.BytesIO()
    writer.write(joined)
    return _pack(joined)


def _pack(pdf: io.BytesIO) -> bytes:
    """The joined PDF written again by qpdf: its loose objects (tens of thousands of structure elements) packed
    into compressed object streams and any stream left uncompressed compressed, losslessly; the document ID is
    computed from the content, so the same input still gives the same bytes."""
    import pikepdf

    pdf.seek(0)
    out = io.BytesIO()
    with pikepdf.open(pdf) as document:
        document.save(
            out,
            object_stream_mode=pikepdf.ObjectStreamMode.generate,
            compress_streams=True,
            deterministic_id=True,
        )
    return out.getvalue()
