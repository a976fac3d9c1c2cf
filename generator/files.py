"""Atomic file writing: a build leaves the old file or the new one, never half of either, and follows no planted symlink."""

from __future__ import annotations

import glob
import os
import tempfile
import time
from pathlib import Path

from .errors import RenderError

# A .part file lives for the milliseconds of one write; one older than this was left by a killed build.
STALE_PART_SECONDS = 60


def own_folder(folder: Path) -> Path:
    """Make a build's own output folder a real directory: a symlink planted there is removed, never followed."""
    try:
        if folder.is_symlink():
            folder.unlink()
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:  # the disk's words, not a traceback: a file in the way, no permission
        raise RenderError(f"cannot make the folder {folder}: {err.strerror}") from err
    return folder


def write_atomic(target: Path, data: bytes) -> None:
    """Write beside the target and rename into place; a planted symlink at the target is replaced, not followed.

    The temporary file is hidden and ends in .part, never .pdf, so a killed build leaves the old PDF or none;
    parts left by killed builds are removed on the next write.
    """
    try:
        _write_atomic(target, data)
    except OSError as err:  # disk full, no permission, a folder in the way: the disk's words, not a traceback
        raise RenderError(f"cannot write {target}: {err.strerror or err}") from err


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _write_atomic(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    for stale in target.parent.glob(f".{glob.escape(target.name)}.*.part"):
        try:
            if not stale.is_symlink() and time.time() - stale.stat().st_mtime > STALE_PART_SECONDS:
                stale.unlink()
        except OSError:
            pass
    fd, tmp = tempfile.mkstemp(prefix="." + target.name + ".", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            # mkstemp makes the file private (0600); a PDF is for sharing, so give it the usual mode
            os.fchmod(handle.fileno(), 0o666 & ~_umask())
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
