"""One structure tree for the booklet, joined from its tagged parts' trees.

pypdf's append copies pages, not structure trees, and parsing a part's thousands of structure
elements into pypdf objects costs about as much again as the join itself. So the elements are
copied as bytes, with their object references renumbered: each part is written without object
streams (PDF 1.4, streams still compressed) so that every object's bytes are found from the xref
table. pypdf's clone of a page or annotation gets its number in the booklet from pypdf's own
record (pypdf_adapter.copied_numbers); every other object the tree reaches is a structure element and is copied.

The booklet's tree: StructTreeRoot -> Document -> one Part per part (the part's own Document
element, renamed and titled). ParentTree keys are offset per part, so they stay unique; MCIDs are
per page and stay as they are.
"""

from __future__ import annotations

import io
import re

from pypdf.generic import (
    ArrayObject,
    BooleanObject,
    DictionaryObject,
    IndirectObject,
    NameObject,
    NumberObject,
    PdfObject,
    TextStringObject,
)

from .pypdf_adapter import (
    RawObject,
    add_object,
    append_objects,
    catalog,
    copied_numbers,
    next_object_number,
    object_offsets,
)

# A literal string (pydyf escapes every parenthesis and backslash in one) or a reference: strings
# are matched first so that text such as an image's alt "3 0 R" is never taken for a reference.
_TOKEN = re.compile(rb"\((?:\\.|[^\\)])*\)|(\d+) 0 R", re.S)
_NUMS = re.compile(rb"\((?:\\.|[^\\)])*\)|(\d+) 0 R|(\d+)|\[|\]", re.S)
# WeasyPrint names table header cells "<object number>-<row>-<column>": unique in a part, not across parts
_ELEMENT = re.compile(rb"(\d+) 0 obj\s*<</Type /(?:StructElem|OBJR)\b")
_CELL_ID = re.compile(rb"\((\d+-\d+-\d+)\)")
_IDS = re.compile(rb"/ID \(\d+-\d+-\d+\)|/Headers \[[^\]]*\]")


def _serialize(obj: PdfObject) -> bytes:
    buffer = io.BytesIO()
    obj.write_to_stream(buffer)
    return buffer.getvalue()


class TreeJoin:
    """Collects the parts' structure trees as they are appended; finish() hangs the tree on the catalog."""

    def __init__(self, writer):
        self.writer = writer
        # placeholders, numbered now so that the parts' elements can point at them; filled in by finish()
        self.root_object, self.document_object = RawObject(), RawObject()
        self.root = add_object(writer, self.root_object)
        self.document = add_object(writer, self.document_object)
        self.parts: list[int] = []  # the booklet numbers of the parts' elements, in order
        self.nums: list[bytes] = []
        self.next_key = 0

    def add(self, reader, data: bytes, first_page: int, title: str) -> None:
        """Copy the tree of `reader` (whose bytes are `data`), appended to the writer from page index first_page."""
        offsets = object_offsets(reader)
        starts = sorted(offsets.values())
        ends = dict(zip(starts, starts[1:] + [data.rfind(b"\nxref")]))  # an object ends where the next begins

        def body(number: int) -> bytes:
            start = offsets[number]
            chunk = data[data.index(b"obj", start) + 3 : ends[start]].rstrip()
            if not chunk.endswith(b"endobj"):
                raise ValueError(f"object {number} of a part does not end where the next begins")
            return chunk[:-6]

        tree_ref = reader.trailer["/Root"].get_object().raw_get("/StructTreeRoot")
        tree = tree_ref.get_object()
        kids = tree["/K"] if isinstance(tree["/K"], list) else [tree["/K"]]
        kids = {kid.idnum for kid in kids}
        parent_tree = tree.raw_get("/ParentTree").idnum
        nums = body(parent_tree)
        if b"/Kids" in nums:
            raise ValueError("a part's ParentTree is not a flat number tree")

        # The structure elements (and their OBJR links to annotations), found by their first bytes
        # where the xref says an object starts: one search of the part rather than a walk of the tree.
        # Anything else the tree refers to must be a page or annotation pypdf copied, or renumber() fails.
        where = offsets.get
        elements = sorted(
            n for n, start in ((int(m.group(1)), m.start()) for m in _ELEMENT.finditer(data)) if where(n) == start
        )
        cloned = copied_numbers(self.writer, reader)  # pages and annotations pypdf copied
        numbers = dict(cloned)
        base = next_object_number(self.writer)
        numbers.update(zip(elements, range(base, base + len(elements))))
        numbers[tree_ref.idnum] = self.document.idnum

        def renumber(match):
            if match.group(1) is None:
                return match.group(0)
            number = numbers.get(int(match.group(1)))
            if number is None:
                raise ValueError(
                    f"a part's structure tree refers to object {match.group(1).decode()}, which was not copied"
                )
            return b"%d 0 R" % number

        prefix = b"(p%d-" % len(self.parts)

        def cell_ids(match):
            return _CELL_ID.sub(lambda m: prefix + m.group(1) + b")", match.group(0))

        title_bytes = _serialize(TextStringObject(title))
        objects = []
        for n in elements:
            text = _TOKEN.sub(renumber, body(n))
            if b"/ID (" in text or b"/Headers [" in text:
                text = _IDS.sub(cell_ids, text)
            if n in kids:
                text = text.replace(b"/S /Document", b"/S /Part/T " + title_bytes, 1)
                self.parts.append(numbers[n])
            objects.append(RawObject(text))
        missing = kids.difference(elements)
        if missing:
            raise ValueError(f"a part's structure tree refers to objects that are not elements: {sorted(missing)}")
        append_objects(self.writer, objects)

        # The ParentTree: keys offset by the keys used so far, references renumbered.
        offset, depth, top = self.next_key, 0, -1
        out = []
        for m in _NUMS.finditer(nums[nums.index(b"/Nums") :]):
            token = m.group(0)
            if token == b"[":
                depth += 1
                out.append(token)
            elif token == b"]":
                depth -= 1
                out.append(token)
                if depth == 0:
                    break
            elif m.group(1):
                out.append(b"%d 0 R" % numbers[int(m.group(1))])
            elif m.group(2) and depth == 1:
                top = max(top, int(token))
                out.append(b"%d" % (int(token) + offset))
            else:
                out.append(token)
        self.nums.append(b" ".join(out[1:-1]))
        self.next_key = offset + top + 1

        key = NameObject("/StructParents")
        annot_key = NameObject("/StructParent")
        for page, source in zip(self.writer.pages[first_page : first_page + len(reader.pages)], reader.pages):
            if key in source:  # pypdf's append leaves it out
                page[key] = NumberObject(source[key] + offset)
            for annot in page.get("/Annots") or []:
                annot = annot.get_object()
                if annot_key in annot:
                    annot[annot_key] = NumberObject(annot[annot_key] + offset)

    def finish(self) -> None:
        writer = self.writer
        tree = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/StructTreeRoot"),
                NameObject("/K"): ArrayObject([self.document]),
                NameObject("/ParentTree"): add_object(writer, RawObject(b"<</Nums [" + b" ".join(self.nums) + b"]>>")),
                NameObject("/ParentTreeNextKey"): NumberObject(self.next_key),
            }
        )
        document = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/StructElem"),
                NameObject("/S"): NameObject("/Document"),
                NameObject("/P"): self.root,
                NameObject("/K"): ArrayObject([IndirectObject(n, 0, writer) for n in self.parts]),
            }
        )
        self.root_object.data = _serialize(tree)
        self.document_object.data = _serialize(document)
        root = catalog(writer)
        root[NameObject("/StructTreeRoot")] = self.root
        root[NameObject("/MarkInfo")] = DictionaryObject({NameObject("/Marked"): BooleanObject(True)})
        root[NameObject("/ViewerPreferences")] = DictionaryObject({NameObject("/DisplayDocTitle"): BooleanObject(True)})
