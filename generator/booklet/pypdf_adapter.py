"""The booklet's one door into pypdf's undocumented parts: everything here may change with a pypdf major (pinned <8).

What it relies on, as pypdf 7 has it:
- PdfWriter._objects, the writer's object table (object number n at index n - 1), and _add_object(), which
  appends to it and returns the new object's reference: raw structure elements are added to it as they are;
- PdfWriter._id_translated[id(reader)], pypdf's record of which of a reader's objects append() copied and
  under which numbers in the writer;
- PdfWriter._root_object, the catalog, for entries pypdf has no setter for (/StructTreeRoot, /MarkInfo, /Lang);
- PdfWriter._ID, the trailer's document ID, which append() copies from the first part;
- PdfReader.xref[0] and xref_objStm, the object offsets read from a part's xref table;
- the writer writing any PdfObject in its table by calling its write_to_stream() (RawObject).
"""

from __future__ import annotations

from pypdf.generic import IndirectObject, PdfObject


class RawObject(PdfObject):
    """An object written as the bytes it holds."""

    def __init__(self, data: bytes = b""):
        self.data = data

    def write_to_stream(self, stream, encryption_key=None) -> None:
        stream.write(self.data)


def add_object(writer, obj: PdfObject) -> IndirectObject:
    """Add one object to the writer's table; its reference, numbered as the next free object."""
    return writer._add_object(obj)


def next_object_number(writer) -> int:
    """The number the next object added to the writer will get."""
    return len(writer._objects) + 1


def append_objects(writer, objects: list[PdfObject]) -> None:
    """Add objects to the writer's table in order, numbered from next_object_number()."""
    writer._objects.extend(objects)


def copied_numbers(writer, reader) -> dict:
    """The reader's object numbers that append() copied, each with its number in the writer."""
    return writer._id_translated.get(id(reader), {})


def catalog(writer):
    """The writer's document catalog, to set entries pypdf writes no other way."""
    return writer._root_object


def omit_document_id(writer) -> None:
    """Write no document ID (append() copies the first part's), so the same input gives the same bytes."""
    writer._ID = None


def object_offsets(reader) -> dict[int, int]:
    """Where each object of a part written without object streams starts, from its xref table."""
    if reader.xref_objStm:
        raise ValueError("a tagged part must be written without object streams")
    return reader.xref[0]
