"""WeasyPrint behind a locked-down fetcher, and atomic writes that never leave half a PDF behind."""

from __future__ import annotations

import glob
import logging
import mimetypes
import multiprocessing
import os
import signal
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .errors import RenderError, UsageError
from .rendering import TEMPLATES

# Pictures are checked by their first bytes, not their names.
_IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"RIFF")
_SVG_START = (b"<svg", b"<?xml")
MAX_IMAGE_BYTES = 8 * 1024 * 1024


def _is_image(data: bytes) -> bool:
    if data.startswith(_IMAGE_MAGIC):
        return not data.startswith(b"RIFF") or data[8:12] == b"WEBP"
    return data.lstrip().startswith(_SVG_START)


def make_fetcher(scenario_folder: Path | None):
    """A fetcher for the project's templates and assets, and pictures in the scenario's own folder only."""
    import weasyprint
    from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

    assets = TEMPLATES.resolve()
    folder = scenario_folder.resolve() if scenario_folder else None

    class LockedFetcher(URLFetcher):
        refused: list[str]  # WeasyPrint logs a refusal inside an SVG without its reason: keep the reason

        def refuse(self, message: str) -> FatalURLFetchingError:
            self.refused.append(message)
            return FatalURLFetchingError(message)

        def fetch(self, url, headers=None):
            parts = urlsplit(url)
            if parts.scheme == "data":
                return super().fetch(url, headers)
            if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
                raise self.refuse(f"refused to fetch {url[:80]!r}: only the project's assets and pictures beside the scenario")
            path = Path(unquote(parts.path))
            try:
                real = path.resolve(strict=True)
            except (OSError, RuntimeError):
                raise self.refuse(f"picture not found: {path.name}") from None
            inside_assets = real.is_relative_to(assets)
            inside_folder = folder is not None and real.is_relative_to(folder)
            if not (inside_assets or inside_folder):
                raise self.refuse(f"refused to read {path.name}: outside the scenario's folder")
            if not real.is_file():  # a folder, a FIFO that would block, a device
                raise self.refuse(f"refused to read {path.name}: not a regular file")
            with real.open("rb") as handle:
                data = handle.read(MAX_IMAGE_BYTES + 1)
            if len(data) > MAX_IMAGE_BYTES:
                raise self.refuse(f"picture {path.name} is larger than 8 MiB")
            if not inside_assets and not _is_image(data):
                raise self.refuse(f"{path.name} is not a picture (PNG, JPEG, GIF, WebP or SVG)")
            kind = mimetypes.guess_type(real.name)[0] or "application/octet-stream"
            return URLFetcherResponse(real.as_uri(), body=data, headers={"Content-Type": kind})

    del weasyprint
    fetcher = LockedFetcher(fail_on_errors=True, allowed_protocols=("file", "data"))
    fetcher.refused = []
    return fetcher


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def html_to_pdf(html: str, base: Path, scenario_folder: Path | None, tags: bool = True) -> bytes:
    """Render HTML to PDF bytes; any warning WeasyPrint logs (a missing picture, bad CSS) fails the build."""
    return render_pdf(html, base, scenario_folder, tags)[0]


def render_pdf(html: str, base: Path, scenario_folder: Path | None, tags: bool = True,
               links: list | None = None, pdf_version: str | None = None) -> tuple[bytes, int]:
    """Render HTML to PDF bytes and its page count (counting from the layout costs nothing; reading it back does).

    Given a list as `links`, it receives (page index, anchor, (x0, y0, x1, y1) in PDF points from the
    bottom-left) for every internal link, for callers that retarget links after joining PDFs.
    pdf_version "1.4" writes no object streams (the booklet copies a part's objects by their xref offsets).
    """
    import weasyprint
    from weasyprint.urls import FatalURLFetchingError  # a BaseException, so that WeasyPrint never swallows it

    logger = logging.getLogger("weasyprint")
    handler = _Collect()
    logger.addHandler(handler)
    previous = logger.propagate
    logger.propagate = False
    try:
        fetcher = make_fetcher(scenario_folder)
        document = weasyprint.HTML(string=html, base_url=str(base) + "/", url_fetcher=fetcher)
        laid_out = document.render(pdf_tags=tags)
        data = laid_out.write_pdf(pdf_tags=tags, uncompressed_pdf=False, pdf_version=pdf_version)
        pages = len(laid_out.pages)
        if links is not None:
            for index, page in enumerate(laid_out.pages):
                height = page.height * 0.75  # CSS px to PDF points
                for kind, target, (x0, y0, x1, y1), _ in page.links:
                    if kind == "internal":
                        links.append((index, target, (x0 * 0.75, height - y1 * 0.75, x1 * 0.75, height - y0 * 0.75)))
    except (RenderError, MemoryError):  # a MemoryError is the render child's memory limit: its own message
        raise
    except (Exception, FatalURLFetchingError) as err:  # WeasyPrint's own failures: a refused fetch, a broken picture
        root = err
        while root.__cause__ is not None:  # our fetcher's own words sit under WeasyPrint's wrapper
            root = root.__cause__
        if isinstance(root, MemoryError) or isinstance(err, MemoryError):  # the memory limit, however wrapped
            raise MemoryError() from err
        raise RenderError(str(root) or type(root).__name__) from err
    finally:
        logger.removeHandler(handler)
        logger.propagate = previous
    problems = [m for m in handler.messages if "harfbuzz" not in m.lower() and "subset" not in m.lower()]
    if problems and fetcher.refused:
        problems = fetcher.refused + problems
    if problems:
        raise RenderError("rendering reported: " + "; ".join(dict.fromkeys(problems)))
    return data, pages


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


# Every build renders in one child process with a wall-clock and a memory limit, so that a hostile or
# broken scenario can hang or bloat only that child. The example packs render in 3 to 11 s and under
# 200 MiB; the defaults leave about ten times that room, and a file that needs more is not a scenario.
RENDER_SECONDS = 120.0
RENDER_MEMORY_MB = 2048


def _env_limit(name: str, default: float, low: float) -> float:
    text = os.environ.get(name)
    if text is None or text == "":
        return default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value >= low:  # also refuses nan
        raise UsageError(f"{name} must be a number of at least {low:g} (got {text!r})")
    return value


def render_limits() -> tuple[float, int]:
    """The render child's limits: seconds of wall clock and MiB of address space, from the environment."""
    seconds = _env_limit("MUSTER_RENDER_SECONDS", RENDER_SECONDS, 0.001)
    memory = int(_env_limit("MUSTER_RENDER_MEMORY_MB", RENDER_MEMORY_MB, 64))
    return seconds, memory


def _context():
    # forkserver: the server imports WeasyPrint once and forks a fresh child per build, so the limits
    # cost a fork, not WeasyPrint's import, and the child never inherits the caller's threads or state.
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(["generator.pdf", "weasyprint"])
    return ctx


def start_renderer() -> None:
    """Check the render limits and start the fork server early, so its import of WeasyPrint overlaps the build's work."""
    render_limits()
    if _context().get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def _limit_self(seconds: float, memory_mb: int, cpu: bool = True) -> None:
    """In the child: cap address space and CPU time, and die with the process that forked us.

    A long-lived worker that renders many parts (the booklet's) passes cpu=False: CPU time adds
    up over its parts, so its parent keeps the clock instead.
    """
    try:
        import resource
    except ImportError:  # not POSIX: the parent's wall clock still holds
        return
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if cpu:  # a backstop for an orphan whose parent was killed: CPU seconds can only run out
        limit_cpu = int(seconds) + 5
        resource.setrlimit(resource.RLIMIT_CPU, (limit_cpu, limit_cpu + 5))
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (Linux)
    except (OSError, AttributeError):
        pass


def _render_child(conn, jobs, seconds: float, memory_mb: int) -> None:
    _limit_self(seconds, memory_mb)
    try:
        result = ("ok", [html_to_pdf(*job) for job in jobs])
    except MemoryError:
        result = ("memory", "")
    except RenderError as err:
        result = ("error", str(err))
    except Exception as err:  # a bug in Muster: the parent reports it as an internal error
        result = ("bug", f"{type(err).__name__}: {err}")
    try:
        conn.send(result)
    except MemoryError:
        conn.send(("memory", ""))
    conn.close()


def render_pdfs(jobs: list[tuple], file: str) -> list[bytes]:
    """Render each (html, base, scenario_folder) job to PDF bytes in one limited child; errors name the file.

    As with any multiprocessing use, a script that calls this must guard its entry point with
    `if __name__ == "__main__":` (the `muster` command and `python -m generator` do).
    """
    seconds, memory_mb = render_limits()
    ctx = _context()
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_render_child, args=(send, jobs, seconds, memory_mb), daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(seconds):
            raise RenderError(f"{file}: rendering took longer than {seconds:g} s (MUSTER_RENDER_SECONDS); "
                              "the file is too large or hostile")
        try:
            kind, payload = receive.recv()
        except EOFError:  # the child died without a word: a signal, or memory C code could not get
            child.join(5)
            code = child.exitcode
            how = f"killed by {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit status {code}"
            raise RenderError(f"{file}: rendering stopped ({how}); it may have passed the memory limit of "
                              f"{memory_mb} MiB (MUSTER_RENDER_MEMORY_MB)") from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    if kind == "ok":
        return payload
    if kind == "memory":
        raise RenderError(f"{file}: rendering needed more than {memory_mb} MiB (MUSTER_RENDER_MEMORY_MB); "
                          "the file is too large or hostile")
    if kind == "error":
        raise RenderError(f"{file}: {payload}")
    raise RuntimeError(f"the render child failed: {payload}")
