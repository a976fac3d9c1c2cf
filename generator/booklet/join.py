"""The booklet joined as its pieces come and written straight to its file: front matter and parts in one PDF, with
bookmarks, one structure tree, the running heads stamped on and the contents linked to their chapters.

Each part is copied once, when it arrives: its objects, read as bytes from their places in its cross-reference table,
are renumbered into the booklet's numbering and written out at once (loose objects packed into compressed object
streams, streams as they are); pikepdf opens the part only to say which objects are its pages, resources, structure
tree and bookmarks. The join keeps only what the end needs: each page's own entries (its running head, its number
and its place are known only once the front matter is laid out), each part's resources, bookmarks and ParentTree
entries, a few hundred bytes a page. So its memory stays flat in the booklet's length: qpdf's own join held every
part twice (source and copy), 7.5 MB a part, 400 MB for a 40-scenario booklet.

The booklet's tree: StructTreeRoot -> Document -> one Part per piece (the piece's own Document element, renamed and
titled). ParentTree keys are offset per piece, so they stay unique; MCIDs are per page and stay as they are. The
same input gives the same bytes: a piece's objects keep their order, pieces are added in the booklet's order, and the
document ID is a hash of everything written before it.
"""

from __future__ import annotations

import hashlib
import io
import re
import zlib
from dataclasses import dataclass, field
from typing import BinaryIO

import pikepdf
from pikepdf import Array, Dictionary, Name, Pdf, String

from .. import __version__
from ..build import CHAPTER
from ..errors import RenderError
from .plan import Part
from .stamp import Stamps

# A PDF token that may hold a reference: a literal string (skipped: its text is the reader's, "Hill 112 0 R" too) or
# an indirect reference "n g R". WeasyPrint (pydyf) and qpdf write every other token so that neither pattern can
# start inside it: a literal string's own parentheses are escaped, names hold no spaces, hex strings no spaces or R.
_TOKEN = re.compile(rb"\((?:[^()\\]|\\.)*\)|(?<![\w.])(\d+) (\d+) R\b", re.S)
# WeasyPrint names a table's header cells "<object number>-<row>-<column>" (/ID on a TH element, /Headers in a TD
# element's attributes): unique in a part, not across parts, so each piece's get a prefix of their own.
_IDS = re.compile(rb"/ID \(\d+-\d+-\d+\)|/Headers \[[^\]]*\]")
_CELL_ID = re.compile(rb"\((\d+-\d+-\d+)\)")
_TOC_DEST = re.compile(rb"/Dest \(toc-(\d+)\)")
_HEAD = re.compile(rb"(\d+) 0 obj\b")
_STREAM = re.compile(rb">>\s*stream\r?\n")
_LENGTH = re.compile(rb"/Length (\d+)\b(?! \d+ R)")
PACK = 100  # loose objects to an object stream: qpdf packs 100 too
_WIDTHS = (1, 4, 2)  # the cross-reference stream's fields: type, offset or object stream, generation or index
ROW = sum(_WIDTHS)


@dataclass
class Piece:
    """One PDF to append: the front matter or a part."""

    pdf: bytes
    title: str  # its Part element's title
    label: str | None  # its top-level bookmark (None: its own bookmarks go at the top level)


class _File:
    """The booklet's file as it is written: every object numbered by the join, loose objects packed PACK to a
    compressed object stream, streams written as they come, a cross-reference stream at the end."""

    def __init__(self, handle: BinaryIO):
        self.handle = handle
        self.offset = 0
        self.digest = hashlib.md5(usedforsecurity=False)  # the document ID: a hash of the content, so same bytes
        self.last = 0  # the highest object number given out
        # the cross-reference stream's rows, ROW bytes an object by its number: 7 bytes, where a dict of tuples
        # was 150 (a 200-scenario booklet has a million objects); a row never written is a free entry
        self.table = bytearray(ROW)
        self.loose: list[tuple[int, bytes]] = []
        self._write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")

    def number(self) -> int:
        self.last += 1
        return self.last

    def _write(self, data: bytes) -> None:
        self.handle.write(data)
        self.digest.update(data)
        self.offset += len(data)

    def object(self, number: int, body: bytes) -> None:
        """A loose object (no stream), packed into the next object stream."""
        self.loose.append((number, body))
        if len(self.loose) >= PACK:
            self.pack()

    def stream(self, number: int, head: bytes, data: bytes) -> None:
        """A stream object: `head` its dictionary (its /Length that of `data`), `data` its bytes as filtered."""
        self._enter(number, 1, self.offset, 0)
        self._write(b"%d 0 obj\n%s\nstream\n" % (number, head))
        self._write(data)
        self._write(b"\nendstream\nendobj\n")

    def compressed(self, number: int, entries: bytes, data: bytes) -> None:
        """A stream of ours, Flate-compressed: `entries` the dictionary's other entries."""
        data = zlib.compress(data)
        self.stream(number, b"<< %s /Filter /FlateDecode /Length %d >>" % (entries, len(data)), data)

    def pack(self) -> None:
        if not self.loose:
            return
        number = self.number()
        offsets, bodies, at = [], [], 0
        for index, (member, body) in enumerate(self.loose):
            self._enter(member, 2, number, index)
            offsets.append(b"%d %d" % (member, at))
            bodies.append(body)
            at += len(body) + 1
        head = b" ".join(offsets) + b"\n"
        data = head + b"\n".join(bodies)
        self.compressed(number, b"/Type /ObjStm /N %d /First %d" % (len(self.loose), len(head)), data)
        self.loose = []

    def _enter(self, number: int, kind: int, first: int, second: int) -> None:
        at = number * ROW
        if len(self.table) < at + ROW:
            self.table.extend(bytes(at + ROW - len(self.table)))
        self.table[at : at + ROW] = (
            bytes([kind]) + first.to_bytes(_WIDTHS[1], "big") + second.to_bytes(_WIDTHS[2], "big")
        )

    def close(self, root: int, info: int) -> None:
        """The cross-reference stream (rows PNG-Up predicted, as qpdf writes them: the columns change slowly) and
        the trailer."""
        self.pack()
        number = self.number()
        self._enter(number, 1, self.offset, 0)
        self._enter(0, 0, 0, 65535)  # the head of the free list, as every PDF has it
        ident = self.digest.hexdigest().encode()
        data = zlib.compress(_predicted(bytes(self.table), ROW))
        at = self.offset
        self._write(
            b"%d 0 obj\n<< /DecodeParms << /Columns %d /Predictor 12 >> /Filter /FlateDecode /ID [ <%s> <%s> ] "
            b"/Info %d 0 R /Length %d /Root %d 0 R /Size %d /Type /XRef /W [ %d %d %d ] >>\nstream\n"
            % (number, sum(_WIDTHS), ident, ident, info, len(data), root, number + 1, *_WIDTHS)
        )
        self._write(data + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % at)
        self.handle.flush()


class _Copy:
    """One piece's objects copied into the booklet, each as its own bytes: pieces are PDF 1.4 as WeasyPrint writes
    them (PART_PDF_VERSION: a cross-reference table, every object in the open), so copying one is reading its
    place from the table and renumbering its references (qpdf parsing every object and writing it again was three
    times the time). Object n of the piece is object `base` + n of the booklet, but for those `fixed` maps to an
    object of the booklet's that stands for them (the piece's page tree root for the booklet's). The piece itself,
    opened with pikepdf, says which objects are whose (pages, resources, structure tree, bookmarks)."""

    def __init__(self, out: _File, data: bytes, fixed: dict[int, int]):
        self.out, self.data, self.fixed = out, data, fixed
        self.places = _places(data)
        self.base = out.last
        out.last += max(self.places, default=0)

    def number(self, objgen: tuple[int, int]) -> int:
        return self.fixed.get(objgen[0]) or self.base + objgen[0]

    def _renumbered(self, match: re.Match) -> bytes:
        if match.group(1) is None:
            return match.group(0)  # a string
        number = int(match.group(1))
        return b"%d 0 R" % (self.fixed.get(number) or self.base + number)

    def bytes(self, obj: pikepdf.Object) -> bytes:
        """An object's text in the booklet's numbering (an indirect object: a reference to it)."""
        return _TOKEN.sub(self._renumbered, obj.unparse())

    def write(self, skip: set[int], changed: dict[int, pikepdf.Object], prefix: bytes, rewrite=None) -> None:
        """Write every object of the piece but those in `skip` (the join writes or drops them), those in `changed`
        as pikepdf has them now; table header ids get the piece's `prefix`, and `rewrite` may change any loose
        object's bytes last."""
        out, data, renumbered = self.out, self.data, self._renumbered
        for number, (start, end) in sorted(self.places.items()):
            if number in skip:
                continue
            if number in changed:
                body = _TOKEN.sub(renumbered, changed[number].unparse(resolved=True))
            else:
                body = data[start:end]
                opened = _STREAM.search(body) if body.rstrip().endswith(b"endstream") else None
                if opened:  # a stream: its dictionary renumbered, its data as it is (its /Length stays true)
                    length = _LENGTH.search(body, 0, opened.start() + 2)
                    if length is None:
                        raise RenderError("a part's stream has no length of its own")
                    end_of_data = opened.end() + int(length[1])
                    out.stream(
                        self.base + number,
                        _TOKEN.sub(renumbered, body[: opened.start() + 2]),
                        body[opened.end() : end_of_data],
                    )
                    continue
                body = _TOKEN.sub(renumbered, body.strip())
            if b"/StructElem" in body and (b"/ID (" in body or b"/Headers [" in body):
                body = _IDS.sub(lambda m: _CELL_ID.sub(lambda c: b"(" + prefix + c[1] + b")", m[0]), body)
            if rewrite:
                body = rewrite(body)
            out.object(self.base + number, body)


def _places(data: bytes) -> dict[int, tuple[int, int]]:
    """Where each object's body is in a PDF 1.4's bytes (between "n 0 obj" and "endobj"), from its cross-reference
    table."""
    try:
        start = int(data[data.rindex(b"startxref") + 9 :].split()[0])
        if not data.startswith(b"xref", start):
            raise ValueError
        offsets, number = {}, 0
        for line in data[start : data.index(b"trailer", start)].splitlines()[1:]:
            fields = line.split()
            if len(fields) == 2:  # a subsection: its first object's number and its count
                number = int(fields[0])
            elif len(fields) == 3:
                if fields[2] == b"n":
                    offsets[number] = int(fields[0])
                number += 1
        ends = sorted(offsets.values()) + [start]
        following = dict(zip(ends, ends[1:]))
        places = {}
        for number, offset in offsets.items():
            head = _HEAD.match(data, offset)
            if head is None or int(head[1]) != number:
                raise ValueError
            places[number] = (head.end(), data.rindex(b"endobj", head.end(), following[offset]))
        return places
    except (ValueError, IndexError):
        raise RenderError("a part is not a PDF 1.4 whose cross-reference table says where its objects are") from None


@dataclass
class _Page:
    """A booklet page as the join keeps it until the end: its number, its own entries (references already in the
    booklet's numbering), its content streams, its resources and its ParentTree key."""

    number: int
    entries: bytes
    contents: list[int]
    resources: _Resources
    box: bytes  # its MediaBox, also a stamp's bounding box
    struct_parents: int | None


@dataclass
class _Resources:
    """A resource dictionary of a piece, written at the end with the stamps of the pages that use it."""

    number: int
    entries: bytes  # every entry but /XObject
    xobjects: bytes  # the /XObject dictionary's entries
    stamps: list[tuple[bytes, int]] = field(default_factory=list)  # (name, form) of the pages that use it


@dataclass
class _Mark:
    """A bookmark: its title's text, its destination, whether it opens closed, and its children."""

    title: bytes
    dest: bytes
    closed: bool = False
    children: list[_Mark] = field(default_factory=list)


@dataclass
class _Added:
    """What the end needs of a piece copied: never its PDF, which is let go at once."""

    label: bytes  # its top-level bookmark's title, as PDF text
    pages: list[_Page]
    marks: list[_Mark]
    elements: list[int]  # its Part elements


class Joiner:
    """The booklet, joined as its pieces come and written to `handle`: add() copies each part, in the booklet's
    order, as soon as it is there, while the others still render and the front matter is laid out elsewhere;
    finish() copies the front matter, and writes the pages in their order (with the blank left-hand pages where
    the page numbering put them, the running heads and the contents' links), the bookmarks and the structure
    tree."""

    def __init__(self, handle: BinaryIO):
        self.out = _File(handle)
        self.pages_root = self.out.number()
        self.document = self.out.number()  # the structure tree's Document element
        self.added: list[_Added] = []
        self.nums: list[tuple[int, int]] = []  # the booklet's ParentTree: (key, its array's object)
        self.next_key = 0

    def add(self, piece: Piece) -> None:
        """Copy a part and keep what its pages, bookmarks and structure need at the end. Parts come in the booklet's
        order: objects are numbered as they are copied, so any other order would give the same booklet other bytes."""
        self.added.append(self._copy(piece, len(self.added) + 1))

    def _copy(self, piece: Piece, index: int, links: dict | None = None) -> _Added:
        """Copy the piece; `index` (0 the front matter, then the parts) makes its table header ids unique in the
        booklet; `links` maps a contents line's destination (toc-N) to the first page of part N and its label."""
        source = Pdf.open(io.BytesIO(piece.pdf))
        try:
            tree = source.Root.StructTreeRoot
            pages = [page.obj for page in source.pages]
            # the piece's page tree stands for the booklet's, its StructTreeRoot for the booklet's Document element
            copy = _Copy(
                self.out, piece.pdf, {_number(source.Root.Pages): self.pages_root, _number(tree): self.document}
            )
            skip = _document_objects(source) | {_number(page) for page in pages}  # pages: written at the end
            changed: dict[int, pikepdf.Object] = {}
            offset = self.next_key
            kids = tree.K if isinstance(tree.K, Array) else [tree.K]
            for kid in kids:
                kid.S, kid.T = Name.Part, String(piece.title)  # its /P is the StructTreeRoot: the Document
                changed[_number(kid)] = kid
            resources: dict = {}
            kept = []
            for page in pages:
                for annot in page.get("/Annots", []):
                    if "/StructParent" in annot:
                        annot.StructParent = int(annot.StructParent) + offset
                        changed[_number(annot)] = annot
                    dest = annot.get("/Dest")
                    if links is not None and isinstance(dest, String) and str(dest).startswith("toc-"):
                        annot.Contents = String(links[int(str(dest)[4:])][1])
                        changed[_number(annot)] = annot
                kept.append(self._page(copy, page, resources, offset, skip))
            parent_tree = tree.get("/ParentTree")
            if parent_tree is None or "/Kids" in parent_tree or "/Nums" not in parent_tree:
                raise RenderError("a part's ParentTree is not a flat number tree of its own")
            nums, top = parent_tree.Nums, -1
            for i in range(0, len(nums), 2):
                key, value = int(nums[i]), nums[i + 1]
                top = max(top, key)
                if value.is_indirect:
                    self.nums.append((key + offset, copy.number(value.objgen)))
                else:  # an array of its own: an object of the booklet's, so the end keeps only its number
                    number = self.out.number()
                    self.out.object(number, copy.bytes(value))
                    self.nums.append((key + offset, number))
            self.next_key = offset + top + 1
            rewrite = None
            if links is not None:  # the contents lines' links, pointed at their chapters' first pages

                def rewrite(body: bytes) -> bytes:
                    if b"/Dest (toc-" not in body:
                        return body
                    return _TOC_DEST.sub(lambda m: b"/Dest [ %d 0 R /Fit ]" % links[int(m[1])][0], body)

            copy.write(skip, changed, b"p%d-" % index, rewrite)
            marks = _marks(source, copy, {page.objgen for page in pages}, kept[0].number)
            label = String(piece.label or piece.title).unparse()
            return _Added(label, kept, marks, [copy.number(kid.objgen) for kid in kids])
        finally:
            source.close()

    def _page(self, copy: _Copy, page: Dictionary, resources: dict, offset: int, skip: set[int]) -> _Page:
        """What the end needs of a page; its resources are written at the end too (with its stamp), not copied."""
        res = page.get("/Resources", Dictionary())
        key = res.objgen if res.is_indirect else page.objgen  # shared by the pages that share it, else the page's
        if key not in resources:
            if res.is_indirect:
                skip.add(_number(res))
                number = copy.number(res.objgen)
            else:
                number = self.out.number()
            entries = Dictionary(res)
            xobjects = Dictionary(entries.get("/XObject", Dictionary()))
            if "/XObject" in entries:
                del entries["/XObject"]
            resources[key] = _Resources(number, _inner(copy.bytes(entries)), _inner(copy.bytes(xobjects)))
        contents = page.get("/Contents", Array())
        streams = [copy.number(c.objgen) for c in (contents if isinstance(contents, Array) else [contents])]
        own = Dictionary(page)
        for name in ("/Parent", "/Resources", "/Contents", "/StructParents", "/Type", "/MediaBox"):
            if name in own:
                del own[name]
        struct_parents = int(page.StructParents) + offset if "/StructParents" in page else None
        box = copy.bytes(pikepdf.Page(page).mediabox)
        return _Page(copy.number(page.objgen), _inner(copy.bytes(own)), streams, resources[key], box, struct_parents)

    def finish(self, front: Piece, parts: list[Part], stamps: Stamps, config: dict) -> int:
        """Write the rest of the booklet and its end, once the parts know their first pages: the front matter, the
        pages in their order, the blank pages before the parts that have one, the stamps, the bookmarks, the
        structure tree, the catalog. Returns the page count."""
        out = self.out
        if len(self.added) != len(parts):
            raise RenderError("the booklet was joined without some of its parts")
        links = {n: (added.pages[0].number, part.label) for n, (part, added) in enumerate(zip(parts, self.added))}
        front_added = self._copy(front, 0, links)
        pages: list[_Page | None] = list(front_added.pages)  # None: a blank left-hand page
        for part, added in zip(parts, self.added):
            if part.blank_before:
                pages.append(None)
            if len(pages) + 1 != part.start:
                raise RenderError(f"{part.label} does not start on page {part.start}, as its contents line says")
            pages += added.pages
        if len(stamps.contents) != len(pages):
            raise RenderError(f"the booklet has {len(pages)} pages, its running heads {len(stamps.contents)}")
        sheet_resources = self._sheet(stamps.sheet)
        opening = out.number()
        out.compressed(opening, b"", b"q\n")
        kids = []
        for index, (page, content) in enumerate(zip(pages, stamps.contents)):
            if page is None:  # as large as the page before it, and empty
                number, empty = out.number(), out.number()
                out.compressed(empty, b"", b"")
                box = next(p for p in reversed(pages[:index]) if p is not None).box
                out.object(
                    number,
                    b"<< /Contents %d 0 R /MediaBox %s /Parent %d 0 R /Resources << >> /Type /Page >>"
                    % (empty, box, self.pages_root),
                )
                kids.append(number)
                continue
            streams = page.contents
            if content is not None:
                form, closing, name = out.number(), out.number(), b"/MusterStamp%d" % index
                out.compressed(
                    form,
                    b"/BBox %s /Resources %d 0 R /Subtype /Form /Type /XObject" % (page.box, sheet_resources),
                    content,
                )
                out.compressed(closing, b"", b"\nQ\n/Artifact BMC\nq " + name + b" Do Q\nEMC\n")
                page.resources.stamps.append((name, form))
                streams = [opening, *streams, closing]
            parents = b" /StructParents %d" % page.struct_parents if page.struct_parents is not None else b""
            out.object(
                page.number,
                b"<< %s /Contents [ %s ] /MediaBox %s /Parent %d 0 R /Resources %d 0 R%s /Type /Page >>"
                % (
                    page.entries,
                    b" ".join(b"%d 0 R" % s for s in streams),
                    page.box,
                    self.pages_root,
                    page.resources.number,
                    parents,
                ),
            )
            kids.append(page.number)
        written: set[int] = set()
        for page in pages:
            if page is not None and page.resources.number not in written:
                written.add(page.resources.number)
                res = page.resources
                stamps_named = b" ".join(b"%s %d 0 R" % pair for pair in res.stamps)
                out.object(
                    res.number,
                    b"<< %s /XObject << %s %s >> >>" % (res.entries, res.xobjects, stamps_named),
                )
        out.object(
            self.pages_root,
            b"<< /Count %d /Kids [ %s ] /Type /Pages >>" % (len(kids), b" ".join(b"%d 0 R" % k for k in kids)),
        )
        outlines = self._outlines([front_added, *self.added])
        structure = self._structure(front_added)
        info = self._info(config, parts)
        root = out.number()
        out.object(
            root,
            b"<< /Lang (en) /MarkInfo << /Marked true >> /Outlines %d 0 R /Pages %d 0 R /StructTreeRoot %d 0 R "
            b"/Type /Catalog /ViewerPreferences << /DisplayDocTitle true >> >>"
            % (outlines, self.pages_root, structure),
        )
        out.close(root, info)
        return len(kids)

    def _sheet(self, sheet: bytes) -> int:
        """The stamps' sheet's resources, copied once for every stamp: one font subset for all of them."""
        source = Pdf.open(io.BytesIO(sheet))
        try:
            copy = _Copy(self.out, sheet, {})
            page = source.pages[0].obj
            skip = _document_objects(source) | {_number(page)} | {_number(c) for c in _streams(page)}
            resources = page.Resources
            if resources.is_indirect:
                number = copy.number(resources.objgen)
            else:
                number = self.out.number()
                self.out.object(number, copy.bytes(resources))
            copy.write(skip, {}, b"")
            return number
        finally:
            source.close()

    def _outlines(self, added: list[_Added]) -> int:
        """The bookmarks: the front matter's own at the top level, then one per part (at its first page, open) with
        the part's own under it."""
        top: list[_Mark] = list(added[0].marks)
        for piece in added[1:]:
            top.append(_Mark(piece.label, b"[ %d 0 R /Fit ]" % piece.pages[0].number, False, piece.marks))
        root = self.out.number()
        first, last = self._write_marks(top, root)
        self.out.object(
            root, b"<< /Count %d /First %d 0 R /Last %d 0 R /Type /Outlines >>" % (_visible(top), first, last)
        )
        return root

    def _write_marks(self, marks: list[_Mark], parent: int) -> tuple[int, int]:
        numbers = [self.out.number() for _ in marks]
        for n, (mark, number) in enumerate(zip(marks, numbers)):
            entries = [b"/Title %s /Parent %d 0 R /Dest %s" % (mark.title, parent, mark.dest)]
            if n:
                entries.append(b"/Prev %d 0 R" % numbers[n - 1])
            if n + 1 < len(numbers):
                entries.append(b"/Next %d 0 R" % numbers[n + 1])
            if mark.children:
                first, last = self._write_marks(mark.children, number)
                count = _visible(mark.children)
                entries.append(
                    b"/First %d 0 R /Last %d 0 R /Count %d" % (first, last, -count if mark.closed else count)
                )
            self.out.object(number, b"<< " + b" ".join(entries) + b" >>")
        return numbers[0], numbers[-1]

    def _structure(self, front: _Added) -> int:
        """The structure tree: the Document element, the front matter's Part first, and the ParentTree."""
        out = self.out
        root, parent_tree = out.number(), out.number()
        elements = [*front.elements, *(e for added in self.added for e in added.elements)]
        out.object(
            self.document,
            b"<< /K [ %s ] /P %d 0 R /S /Document /Type /StructElem >>"
            % (b" ".join(b"%d 0 R" % e for e in elements), root),
        )
        out.object(parent_tree, b"<< /Nums [ %s ] >>" % b" ".join(b"%d %d 0 R" % pair for pair in self.nums))
        out.object(
            root,
            b"<< /K [ %d 0 R ] /ParentTree %d 0 R /ParentTreeNextKey %d /Type /StructTreeRoot >>"
            % (self.document, parent_tree, self.next_key),
        )
        return root

    def _info(self, config: dict, parts: list[Part]) -> int:
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
        number = self.out.number()
        self.out.object(number, Dictionary(**info).unparse())
        return number


def _predicted(table: bytes, width: int) -> bytes:
    """Rows of `width` bytes PNG-Up predicted: each row after a filter byte 2, each byte less the byte above it
    (mod 256). Done on the whole table at once as one big integer, each byte apart from its neighbours (the sum
    of a byte and the top bit of every byte never borrows from the next: Hacker's Delight, 2-18), so a million
    rows take milliseconds, not a loop of seconds."""
    size = len(table)
    above = bytes(width) + table[: size - width]
    high = int.from_bytes(b"\x80" * size, "big")
    ones = (1 << (8 * size)) - 1
    a, b = int.from_bytes(table, "big"), int.from_bytes(above, "big")
    difference = ((((a | high) - (b & ~high & ones)) ^ ((a ^ ~b) & high)) & ones).to_bytes(size, "big")
    rows = size // width
    out = bytearray(rows * (width + 1))
    out[0 :: width + 1] = b"\x02" * rows
    for column in range(width):
        out[column + 1 :: width + 1] = difference[column::width]
    return bytes(out)


def _number(obj: pikepdf.Object) -> int:
    if not obj.is_indirect:
        raise RenderError("a part's page, resources or structure is not an object of its own")
    return obj.objgen[0]


def _streams(page: Dictionary) -> list:
    contents = page.get("/Contents", Array())
    return list(contents) if isinstance(contents, Array) else [contents]


def _document_objects(source: Pdf) -> set[int]:
    """The objects of a piece that the booklet has its own of, so they are not copied: its catalog, document info,
    page tree nodes, structure tree root and ParentTree, named destinations and bookmarks."""
    numbers = set()

    def add(obj) -> None:
        if isinstance(obj, pikepdf.Object) and obj.is_indirect:
            numbers.add(obj.objgen[0])

    root = source.Root
    add(root)
    add(source.trailer.get("/Info"))
    nodes = [root.Pages]
    while nodes:  # the page tree's nodes (WeasyPrint's is flat: one)
        node = nodes.pop()
        add(node)
        nodes += [kid for kid in node.get("/Kids", []) if kid.get("/Type") == "/Pages"]
    tree = root.get("/StructTreeRoot")
    if tree is not None:
        add(tree)
        add(tree.get("/ParentTree"))
    names = root.get("/Names")
    if names is not None:
        add(names)
        add(names.get("/Dests"))
    outlines = root.get("/Outlines")
    if outlines is not None:
        add(outlines)
        items = [outlines.get("/First")]
        while items:
            item = items.pop()
            if item is None or not item.is_indirect or item.objgen[0] in numbers:
                continue
            add(item)
            items += [item.get("/First"), item.get("/Next")]
    return numbers


def _inner(text: bytes) -> bytes:
    """A dictionary's entries: its text without the << >> around them."""
    return text.strip()[2:-2].strip()


def _visible(marks: list[_Mark]) -> int:
    """How many bookmarks a list shows: each one, and the children of those that open."""
    return sum(1 + (0 if mark.closed else _visible(mark.children)) for mark in marks)


def _marks(source: Pdf, copy: _Copy, pages: set, first: int) -> list[_Mark]:
    """A piece's bookmarks, their destinations on the booklet's copies of its pages (a bookmark with none: the
    piece's first page)."""
    outlines = source.Root.get("/Outlines")
    if outlines is None:
        return []

    def walk(item) -> list[_Mark]:
        marks = []
        seen = set()
        while item is not None and item.objgen not in seen:
            seen.add(item.objgen)
            dest = item.get("/Dest")
            if isinstance(dest, Array) and len(dest) >= 2 and dest[0].objgen in pages:
                where = copy.bytes(dest)
            else:
                where = b"[ %d 0 R /Fit ]" % first
            mark = _Mark(item.get("/Title", String("")).unparse(), where, int(item.get("/Count", 0)) < 0)
            mark.children = walk(item.get("/First"))
            marks.append(mark)
            item = item.get("/Next")
        return marks

    return walk(outlines.get("/First"))
