"""Where the booklet keeps its rendered parts between builds (the user's cache folder), and how it stays small."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import stat
import sys
from pathlib import Path

from ..errors import RenderError
from ..files import discard, place, reserve, write_atomic

# What the cache may hold beyond the last build's own files: a 60-page booklet's parts and its whole PDF are
# a few megabytes, so this keeps dozens of builds' worth of variants (paper, card sizes, edited scenarios).
LIMIT_BYTES = 200 * 1024 * 1024


def user_cache_folder() -> Path:
    """The platform's per-user cache folder for Muster: $XDG_CACHE_HOME/muster (else ~/.cache/muster) on Linux
    and other Unixes, ~/Library/Caches/muster on macOS, %LOCALAPPDATA%\\muster\\Cache on Windows."""
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return (Path(local) if local else Path.home() / "AppData" / "Local") / "muster" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "muster"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    # the XDG base directory specification: a relative path is invalid and is ignored
    return (Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache") / "muster"


def cache_folder() -> Path:
    """The booklet cache: $MUSTER_CACHE when set, else booklet/ in the user's cache folder, wherever --out points."""
    override = os.environ.get("MUSTER_CACHE")
    return Path(override) if override else user_cache_folder() / "booklet"


_UNWRITABLE: set[Path] = set()  # cache folders this process could not write: said once each


def store(folder: Path, name: str, data: bytes) -> None:
    """Keep an entry; a cache that cannot be written (a file where its folder goes, a full disk) is said once on
    stderr and the booklet goes on without it: the cache saves time, it never decides whether a booklet is made."""
    try:
        write_atomic(folder / name, data)
    except RenderError as err:
        _not_kept(folder, err)


def _not_kept(folder: Path, err: Exception) -> None:
    if folder not in _UNWRITABLE:
        _UNWRITABLE.add(folder)
        print(f"muster: the booklet cache is not kept ({err}); the booklet is built without it", file=sys.stderr)


def store_file(folder: Path, key: str, path: Path, pages: int) -> str:
    """Keep a copy of a written file as the entry for `key`, as store() keeps bytes (hashed and copied in chunks: a
    booklet is never held whole in memory); its entry's name, whether or not the cache could be written."""
    name = ""
    try:
        name = file_entry_name(key, path, pages)
        part = reserve(folder / name)
        try:
            shutil.copyfile(path, part)
            place(folder / name, part)
        finally:
            discard(part)
    except (RenderError, OSError) as err:
        _not_kept(folder, err)
    return name


def prune(folder: Path, keep: set[str]) -> None:
    """Delete cached PDFs, oldest first, until the folder holds at most LIMIT_BYTES; the files named in `keep`
    (the last build's parts and booklet) stay whatever their size."""
    entries = []
    for path in folder.glob("*.pdf"):
        try:
            stat = path.stat()
        except OSError:  # removed meanwhile by another build's pruning
            continue
        entries.append((stat.st_mtime, path.name, stat.st_size, path))
    total = sum(size for _, _, size, _ in entries)
    for _, name, size, path in sorted(entries):
        if total <= LIMIT_BYTES:
            break
        if name in keep:
            continue
        try:
            path.unlink(missing_ok=True)
        except OSError:  # not ours to delete (permissions): leave it and count it
            continue
        total -= size


def entry_name(key: str, data: bytes, pages: int) -> str:
    """An entry's file name, key-pages-hash.pdf: what it is for, how many pages it holds, and a hash of its key,
    page count and bytes together, so that what is read back can be checked before it is trusted (an entry renamed
    to another key's name, or to another count, does not match its hash)."""
    return f"{key}-{pages}-{_seal(key, pages, data)}.pdf"


def file_entry_name(key: str, path: Path, pages: int) -> str:
    """entry_name() for the bytes of a written file, read in chunks."""
    with open(path, "rb") as handle:
        return f"{key}-{pages}-{_seal(key, pages, *iter(lambda: handle.read(1 << 20), b''))}.pdf"


def _seal(key: str, pages: int, *chunks: bytes) -> str:
    seal = hashlib.sha256(f"{key}\0{pages}\0".encode())
    for chunk in chunks:
        seal.update(chunk)
    return seal.hexdigest()


def read_entry(folder: Path, key: str) -> tuple[bytes, int] | None:
    """The PDF cached for `key` and its page count, if an entry's bytes match its hash, parse as a PDF and hold the
    pages its name says; a swapped, truncated or garbage entry is a miss (and is removed), never copied to --out."""
    for path in sorted(folder.glob(f"{key}-*-*.pdf")) if folder.is_dir() else []:
        try:
            pages_text, digest = path.stem[len(key) + 1 :].split("-")
            if not stat.S_ISREG(path.lstat().st_mode):  # a FIFO or a link to a device would block or never end
                raise ValueError(path.name)
            data = path.read_bytes()
            if _seal(key, int(pages_text), data) == digest and _page_count(data) == int(pages_text):
                os.utime(path)  # used: pruning deletes the oldest first
                return data, int(pages_text)
        except (OSError, ValueError):  # pruned meanwhile by another build, or not a name we wrote
            continue
        try:
            path.unlink()
        except OSError:
            pass
    return None


def _page_count(data: bytes) -> int:
    """The PDF's page count, or -1 if qpdf cannot read it as one without repairing it (a truncated or garbage entry).
    qpdf, not pypdf: a 40-scenario booklet's entry took pypdf 0.8 s to read, qpdf 0.05 s."""
    import pikepdf

    try:
        with pikepdf.open(io.BytesIO(data), attempt_recovery=False) as pdf:
            return len(pdf.pages)
    except (pikepdf.PdfError, ValueError, RuntimeError):  # qpdf's ways of saying "not a PDF"
        return -1
