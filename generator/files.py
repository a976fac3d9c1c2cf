"""Atomic file writing: a build leaves the old file or the new one, never half of either, and follows no planted symlink."""

from __future__ import annotations

import contextlib
import errno
import glob
import os
import secrets
import signal
import tempfile
import time
from pathlib import Path

from .errors import RenderError, quoted

# A .part file lives for the milliseconds of one write; one older than this was left by a killed build.
STALE_PART_SECONDS = 60
# Another build renames its pair into the same folder for milliseconds; a lock held longer is not a build's.
LOCK_SECONDS = 10


def own_folder(folder: Path) -> Path:
    """Make a build's own output folder a real directory: a symlink planted there is removed, never followed."""
    try:
        if folder.is_symlink():
            folder.unlink()
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:  # the disk's words, not a traceback: a file in the way, no permission
        raise RenderError(f"cannot make the folder {quoted(folder)}: {err.strerror}") from err
    return folder


def write_atomic(target: Path, data: bytes) -> None:
    """Write beside the target and rename into place; a planted symlink at the target is replaced, not followed.

    The temporary file is hidden and ends in .part, never .pdf, so a killed build leaves the old PDF or none;
    parts left by killed builds are removed on the next write.
    """
    write_together({target: data})


def write_together(outputs: dict[Path, bytes]) -> None:
    """Write several files as one: every new file is written in full first, then all are renamed into place;
    if any write or rename fails, every target holds its old file again (or none, if it had none).

    A pack and its cards are one print job: a new pack beside old cards is worse than no build.
    """
    try:
        _write_together(outputs)
    except OSError as err:  # disk full, no permission, a folder in the way: the disk's words, not a traceback
        target = Path(err.filename) if err.filename else next(iter(outputs))
        for path in outputs:  # name the target, not the hidden file beside it
            if target.parent == path.parent and target.name.startswith(f".{path.name}."):
                target = path
        raise RenderError(f"cannot write {quoted(target)}: {err.strerror or err}") from err


def reserve(target: Path) -> Path:
    """A hidden .part file beside the target, for a writer that streams into it (another process, say); place()
    renames it into place once it is whole, or discard() removes it."""
    try:
        return _write_part(target, b"")
    except OSError as err:
        raise RenderError(f"cannot write {quoted(target)}: {err.strerror or err}") from err


def place(target: Path, part: Path) -> None:
    """Rename a part made by reserve() and filled since into place, as write_atomic() does with its own."""
    try:
        fd = os.open(part, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))  # the part itself, never a planted link
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        _place({target: part})
    except OSError as err:
        raise RenderError(f"cannot write {quoted(target)}: {err.strerror or err}") from err


def discard(part: Path) -> None:
    _unlink(part)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _remove_stale_parts(target: Path) -> None:
    for stale in target.parent.glob(f".{glob.escape(target.name)}.*.part"):
        try:
            # a backup (.old.part) is a hard link to the old file, whose mtime is the old file's: its ctime, which the
            # link set, says when it was made
            status = stale.lstat()
            made = max(status.st_mtime, status.st_ctime) if stale.name.endswith(".old.part") else status.st_mtime
            if not stale.is_symlink() and time.time() - made > STALE_PART_SECONDS:
                stale.unlink()
        except OSError:
            pass


def _write_part(target: Path, data: bytes) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_parts(target)
    fd, tmp = tempfile.mkstemp(prefix="." + target.name + ".", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            # mkstemp makes the file private (0600); a PDF is for sharing, so give it the usual mode
            os.fchmod(handle.fileno(), 0o666 & ~_umask())
            os.fsync(handle.fileno())
    except BaseException:
        _unlink(Path(tmp))
        raise
    return Path(tmp)


def _keep_old(target: Path) -> Path | None:
    """A second name (a hard link) for the target's old file, so that it can be put back; None when there is none."""
    if target.is_symlink() or not target.is_file():  # a planted symlink is not ours to restore
        return None
    for _ in range(100):
        backup = target.parent / f".{target.name}.{secrets.token_hex(6)}.old.part"
        try:
            os.link(target, backup)
            return backup
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free name for a backup", str(target))


def _unlink(path: Path | None) -> None:
    if path is not None:
        try:
            os.unlink(path)
        except OSError:
            pass


# every signal a process can hold back, held while the new files are renamed into place and delivered once the set
# is whole, new or old: Ctrl-C (SIGINT arriving between a rename and the note of it left the rollback a file short),
# SIGTERM from a shell or a service manager, SIGHUP, SIGUSR1, SIGALRM and the rest. Faults of the process itself
# (SIGSEGV and its kind) are not held; SIGKILL and SIGSTOP cannot be, and SIGKILL between two renames can still leave
# a new pack beside old cards.
_FAULTS = {signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE, signal.SIGILL, signal.SIGTRAP, signal.SIGABRT, signal.SIGSYS}
_HELD = signal.valid_signals() - _FAULTS - {signal.SIGKILL, signal.SIGSTOP}


@contextlib.contextmanager
def _folder_locked(folder: Path):
    """The folder held for this process alone while it renames a set of files into it: two builds writing the same
    pair at once each rename the whole pair before the other starts (a pack from one beside the other's cards was
    seen one time in 500). An advisory lock on the folder itself, so no lock file is left beside the PDFs; where
    the system has none (Windows), nothing."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on the systems the tests run on
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        waited = time.monotonic() + LOCK_SECONDS
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > waited:  # another build renames for milliseconds; something else holds it
                    raise OSError(errno.EBUSY, "another process holds the folder", str(folder)) from None
                time.sleep(0.005)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _write_together(outputs: dict[Path, bytes]) -> None:
    parts: dict[Path, Path] = {}
    try:
        for target, data in outputs.items():
            parts[target] = _write_part(target, data)
    except BaseException:
        for part in parts.values():
            _unlink(part)
        raise
    _place(parts)


def _place(parts: dict[Path, Path]) -> None:
    """Rename written parts to their targets, all or none."""
    olds: dict[Path, Path | None] = {}
    renamed: list[Path] = []
    held = None
    try:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)  # delivered once the set is whole, new or old
        with _folder_locked(next(iter(parts)).parent):
            for target in parts:
                olds[target] = _keep_old(target)
            for target, part in parts.items():
                os.replace(part, target)
                renamed.append(target)
    except BaseException:
        for target in reversed(renamed):  # put the old files back, or remove the new one where there was none
            try:
                if olds.get(target) is not None:
                    os.replace(olds.pop(target), target)
                else:
                    os.unlink(target)
            except OSError:
                pass
        for part in parts.values():
            if part.exists():
                _unlink(part)
        raise
    finally:
        for backup in olds.values():
            _unlink(backup)
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
