"""The booklet joined by qpdf (through pikepdf): front matter and parts in one PDF, with bookmarks, one structure
tree, the running heads stamped on and the contents linked to their chapters.

qpdf copies each part's pages, and then its structure elements, with one record per part of what it copied, so an
element's page, and a link's annotation, are the booklet's own copies. The booklet's tree: StructTreeRoot ->
Document -> one Part per part (the part's own Document element, renamed and titled). ParentTree keys are offset
per part, so they stay unique; MCIDs are per page and stay as they are. Everything is written once, with object
streams and every stream compressed, and a document ID computed from the content: the same input gives the same
bytes. (pypdf did this join in Python: 6 of the 8.5 s a 40-scenario booklet spent after its chapters rendered.)
"""

from __future__ import annotations

import bisect
import io
import re
import warnings
from dataclasses import dataclass
from itertools import accumulate

import pikepdf
from pikepdf import Array, Dictionary, Name, OutlineItem, Pdf, String

from .. import __version__
from ..build import CHAPTER
from ..errors import RenderError
from .plan import Part
from .stamp import Stamps

# WeasyPrint names a table's header cells "<object number>-<row>-<column>" (/ID on a TH element, /Headers in a TD
# element's attributes): unique in a part, not across parts, so each part's get a prefix of their own.
_IDS = re.compile(rb"/ID \(\d+-\d+-\d+\)|/Headers \[[^\]]*\]")
_CELL_ID = re.compile(rb"\((\d+-\d+-\d+)\)")
_XREF_ENTRY = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
_ELEMENT = re.compile(rb"\d+ 0 obj\s*<</Type /StructElem\b")


@dataclass
class Piece:
    """One PDF to append: the front matter or a part."""

    pdf: bytes
    title: str  # its Part element's title
    label: str | None  # its top-level bookmark (None: its own bookmarks go at the top level)


class Joiner:
    """The booklet, joined as its pieces come: add() appends each part's pages and structure tree, in the booklet's
    order, as soon as it is there, while the others still render and the front matter is laid out elsewhere;
    finish() puts the front matter before them, the blank left-hand pages where the page numbering put them, the
    bookmarks, the running heads and the links, and writes the booklet."""

    def __init__(self):
        self.booklet = Pdf.new()
        self.sources: list[Pdf] = []  # open until the booklet is written: qpdf reads a copied stream's data then
        self.tree = _Tree(self.booklet)
        self.added: list[tuple[Pdf, Piece, dict]] = []  # each piece's source and its pages' copies, in page order

    def add(self, piece: Piece) -> None:
        """Append a part's pages and structure tree and keep its bookmarks for finish(). Parts come in the booklet's
        order: qpdf numbers the objects it copies as it copies them and orders each object stream by those numbers,
        so any other order would give the same booklet other bytes."""
        self.added.append(self._copy(piece, len(self.added) + 1, at=len(self.booklet.pages)))

    def _copy(self, piece: Piece, index: int, at: int) -> tuple[Pdf, Piece, dict]:
        """Put the piece's pages in from page index `at`, and its structure tree; `index` (0 the front matter, then
        the parts) makes its table header ids unique in the booklet."""
        booklet = self.booklet
        source = Pdf.open(io.BytesIO(_unique_ids(piece.pdf, b"p%d-" % index)))
        self.sources.append(source)
        with warnings.catch_warnings():  # that named destinations are not copied: the only named links, the
            # contents' toc-N, are pointed at their parts by _link_contents (a chapter has no links of its own)
            warnings.simplefilter("ignore", pikepdf.PageCopyWarning)
            if at == len(booklet.pages):
                booklet.pages.extend(source.pages)
            else:
                for n, page in enumerate(source.pages):
                    booklet.pages.insert(at + n, page)
        copies = {page.objgen: booklet.pages[at + n].obj for n, page in enumerate(source.pages)}
        self.tree.add(source, at, piece.title, first=at == 0)
        return source, piece, copies

    def finish(self, front: Piece, parts: list[Part], stamps: Stamps, config: dict) -> tuple[bytes, int]:
        """The booklet's bytes and page count, with the front matter put before the parts, once the parts know
        their first pages: the blank pages before the parts that have one, the bookmarks, the stamps, the links."""
        booklet = self.booklet
        if len(self.added) != len(parts):
            raise RenderError("the booklet was joined without some of its parts")
        self.added.insert(0, self._copy(front, 0, at=0))
        first_pages = {id(piece): next(iter(copies.values())) for _, piece, copies in self.added}
        for part, (_, piece, _copies) in zip(parts, self.added[1:]):
            if part.blank_before:
                box = booklet.pages[part.start - 2].mediabox  # as large as the page before it
                blank = Dictionary(Type=Name.Page, MediaBox=box, Contents=booklet.make_stream(b""), Resources={})
                booklet.pages.insert(part.start - 2, pikepdf.Page(booklet.make_indirect(blank)))
            if booklet.pages[part.start - 1].objgen != first_pages[id(piece)].objgen:
                raise RenderError(f"{part.label} does not start on page {part.start}, as its contents line says")
        self.tree.finish()
        where = {page.objgen: index for index, page in enumerate(booklet.pages)}
        outline: list[OutlineItem] = []
        for source, piece, copies in self.added:
            at = {objgen: where[copy.objgen] for objgen, copy in copies.items()}
            first = where[first_pages[id(piece)].objgen]
            with source.open_outline() as own:
                items = [_copy_item(item, at, first) for item in own.root]
            if piece.label is None:
                outline += items
            else:
                top = OutlineItem(piece.label, first, "Fit")
                top.children.extend(items)
                outline.append(top)
        with booklet.open_outline() as booklet_outline:
            booklet_outline.root.extend(outline)
        _stamp(booklet, stamps)
        _link_contents(booklet, parts)
        _metadata(booklet, config, parts)
        out = io.BytesIO()
        booklet.save(
            out,
            object_stream_mode=pikepdf.ObjectStreamMode.generate,
            compress_streams=True,
            deterministic_id=True,
            min_version="1.7",
        )
        pages = len(booklet.pages)
        for source in self.sources:
            source.close()
        return out.getvalue(), pages


class _Tree:
    """Collects the pieces' structure trees as they are added, their ParentTree keys offset so that they stay unique
    (a piece's keys follow those added before it, whatever its pages' place); finish() hangs the tree on the
    catalog."""

    def __init__(self, booklet: Pdf):
        self.booklet = booklet
        self.root = booklet.make_indirect(Dictionary(Type=Name.StructTreeRoot))
        self.document = booklet.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Document, P=self.root))
        self.parts: list = []  # the Part elements, in reading order
        self.nums: list = []  # the booklet's ParentTree
        self.next_key = 0

    def add(self, source: Pdf, at: int, title: str, first: bool) -> None:
        """Copy the tree of `source`, whose pages were put in from page index `at`; its Part element goes before
        the others if `first`, else after them."""
        booklet = self.booklet
        tree = source.Root.StructTreeRoot
        kids = tree.K if isinstance(tree.K, Array) else [tree.K]
        parts = []
        for kid in kids:
            part = booklet.copy_foreign(kid)  # and every element under it, their pages the booklet's copies
            part.S, part.T, part.P = Name.Part, String(title), self.document
            parts.append(part)
        self.parts = parts + self.parts if first else self.parts + parts
        parent_tree = tree.get("/ParentTree")
        if parent_tree is None or not parent_tree.is_indirect or "/Kids" in parent_tree or "/Nums" not in parent_tree:
            raise RenderError("a part's ParentTree is not a flat number tree of its own")
        # copied whole by qpdf (its values are the elements just copied), its keys offset: one per page and link
        nums, offset, top = booklet.copy_foreign(parent_tree).Nums, self.next_key, -1
        for i in range(0, len(nums), 2):
            key = int(nums[i])
            top = max(top, key)
            self.nums += [key + offset, nums[i + 1]]
        for page in booklet.pages[at : at + len(source.pages)]:
            if "/StructParents" in page.obj:
                page.obj.StructParents = int(page.obj.StructParents) + offset
            for annot in page.obj.get("/Annots", []):
                if "/StructParent" in annot:
                    annot.StructParent = int(annot.StructParent) + offset
        self.next_key = offset + top + 1

    def finish(self) -> None:
        booklet = self.booklet
        self.document.K = Array(self.parts)
        self.root.K = Array([self.document])
        self.root.ParentTree = booklet.make_indirect(Dictionary(Nums=Array(self.nums)))
        self.root.ParentTreeNextKey = self.next_key
        booklet.Root.StructTreeRoot = self.root
        booklet.Root.MarkInfo = Dictionary(Marked=True)
        booklet.Root.ViewerPreferences = Dictionary(DisplayDocTitle=True)
        booklet.Root.Lang = String("en")


def _unique_ids(data: bytes, prefix: bytes) -> bytes:
    """The part's bytes with its table header ids prefixed, so that they are unique across the booklet.

    The ids are changed where they are written, in the structure elements (the objects the xref table says start
    with <</Type /StructElem: a part is written without object streams), and the xref table is written again with
    every object's offset moved by what was inserted before it."""
    start = int(data[data.rindex(b"startxref") + 9 :].split()[0])
    table = data[start:]
    if not table.startswith(b"xref"):
        raise RenderError("a part's cross-reference table is not where its trailer says")
    first, count = table.split(b"\n", 2)[1].split()
    entries = _XREF_ENTRY.findall(table)[: int(count)]
    offsets = sorted(int(offset) for offset, _, kind in entries if kind == b"n")
    out, last, inserted = [], 0, []  # inserted: (where in the old bytes, how many bytes were added there)
    for match in _IDS.finditer(data, 0, start):
        at = bisect.bisect_right(offsets, match.start()) - 1
        if at < 0 or not _ELEMENT.match(data, offsets[at]):
            continue  # not in a structure element (the bytes of a compressed stream, say)
        new = _CELL_ID.sub(lambda m: b"(" + prefix + m.group(1) + b")", match.group(0))
        out += [data[last : match.start()], new]
        last = match.end()
        inserted.append((match.start(), len(new) - len(match.group(0))))
    if not inserted:
        return data
    out.append(data[last:start])
    body = b"".join(out)
    positions = [where for where, _ in inserted]
    growth = list(accumulate((grown for _, grown in inserted), initial=0))
    lines = [b"xref", first + b" " + count]
    for offset, generation, kind in entries:
        offset = int(offset)
        if kind == b"n":
            offset += growth[bisect.bisect_left(positions, offset)]
        lines.append(b"%010d %s %s " % (offset, generation, kind))
    trailer = table[table.index(b"trailer") : table.rindex(b"startxref")]
    return body + b"\n".join(lines) + b"\n" + trailer + b"startxref\n%d\n%%%%EOF\n" % len(body)


def _copy_item(item: OutlineItem, at: dict, first: int) -> OutlineItem:
    """A part's bookmark for the booklet, pointing at the booklet's copy of its page, with its children."""
    dest = item.destination
    if isinstance(dest, Array) and len(dest) >= 2 and dest[0].objgen in at:
        numbers = [float(v) if v is not None else None for v in list(dest)[2:]]
        kind = str(dest[1])[1:]
        keys = {
            "XYZ": ("left", "top", "zoom"),
            "FitH": ("top",),
            "FitV": ("left",),
            "FitR": ("left", "bottom", "right", "top"),
        }
        where = dict(zip(keys.get(kind, ()), numbers))
        copy = OutlineItem(str(item.title), at[dest[0].objgen], kind, **where)
    else:  # a bookmark without a page of this part: its first page
        copy = OutlineItem(str(item.title), first, "Fit")
    copy.is_closed = item.is_closed
    copy.children.extend(_copy_item(child, at, first) for child in item.children)
    return copy


def _stamp(booklet: Pdf, stamps: Stamps) -> None:
    """Lay each page's running head and page number over it: a Form XObject drawn after the page's own content
    (its graphics state saved around it), marked as an artifact, since page numbers and running heads are page
    furniture and unmarked content on a tagged page would be neither tagged nor an artifact. Every stamp draws
    with the stamps' sheet's resources, copied once: one font subset for all of them."""
    if len(stamps.contents) != len(booklet.pages):
        raise RenderError(f"the booklet has {len(booklet.pages)} pages, its running heads {len(stamps.contents)}")
    with Pdf.open(io.BytesIO(stamps.sheet)) as sheet:
        resources = booklet.make_indirect(booklet.copy_foreign(sheet.pages[0].obj.Resources))
    for number, (page, content) in enumerate(zip(booklet.pages, stamps.contents)):
        if content is None:
            continue
        form = booklet.make_stream(
            content, Type=Name.XObject, Subtype=Name.Form, BBox=page.mediabox, Resources=resources
        )
        name = page.add_resource(form, Name.XObject, Name(f"/MusterStamp{number}"))  # a name of its own: same bytes
        page.contents_add(b"q\n", prepend=True)
        page.contents_add(b"\nQ\n/Artifact BMC\nq " + str(name).encode() + b" Do Q\nEMC\n")


def _link_contents(booklet: Pdf, parts: list[Part]) -> None:
    """Point each contents line at its chapter: the front matter was rendered apart, so WeasyPrint's links (to the
    contents lines themselves, named toc-N) are retargeted. They are kept, not replaced, because the structure
    tree's Link elements refer to them."""
    for page in booklet.pages:
        for annot in page.obj.get("/Annots", []):
            dest = annot.get("/Dest")
            if isinstance(dest, String) and str(dest).startswith("toc-"):
                part = parts[int(str(dest).rsplit("-", 1)[1])]
                annot.Dest = Array([booklet.pages[part.start - 1].obj, Name.Fit])
                annot.Contents = String(part.label)


def _metadata(booklet: Pdf, config: dict, parts: list[Part]) -> None:
    chapters = len([p for p in parts if p.kind == CHAPTER])
    who = ", ".join(v for v in (config["club"], config["season"]) if v)
    info = {
        "Title": String(config["title"]),
        "Subject": String(f"{who + ': ' if who else ''}{chapters} scenario{'s' if chapters != 1 else ''}"),
        "Creator": String(f"Muster {__version__}"),
        "Producer": String(f"Muster {__version__}"),
    }
    if config.get("author") or config["club"]:
        info["Author"] = String(config.get("author") or config["club"])
    booklet.docinfo = booklet.make_indirect(Dictionary(**info))
