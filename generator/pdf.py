"""WeasyPrint behind a locked-down fetcher, and atomic writes that never leave half a PDF behind."""

from __future__ import annotations

import logging
import mimetypes
import os
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .errors import RenderError
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
        def fetch(self, url, headers=None):
            parts = urlsplit(url)
            if parts.scheme == "data":
                return super().fetch(url, headers)
            if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
                raise FatalURLFetchingError(f"refused to fetch {url[:80]!r}: only the project's assets and pictures beside the scenario")
            path = Path(unquote(parts.path))
            try:
                real = path.resolve(strict=True)
            except (OSError, RuntimeError):
                raise FatalURLFetchingError(f"picture not found: {path.name}") from None
            inside_assets = real.is_relative_to(assets)
            inside_folder = folder is not None and real.is_relative_to(folder)
            if not (inside_assets or inside_folder) or not real.is_file():
                raise FatalURLFetchingError(f"refused to read {path.name}: outside the scenario's folder")
            with real.open("rb") as handle:
                data = handle.read(MAX_IMAGE_BYTES + 1)
            if len(data) > MAX_IMAGE_BYTES:
                raise FatalURLFetchingError(f"picture {path.name} is larger than 8 MiB")
            if not inside_assets and not _is_image(data):
                raise FatalURLFetchingError(f"{path.name} is not a picture (PNG, JPEG, GIF, WebP or SVG)")
            kind = mimetypes.guess_type(real.name)[0] or "application/octet-stream"
            return URLFetcherResponse(real.as_uri(), body=data, headers={"Content-Type": kind})

    del weasyprint
    return LockedFetcher(fail_on_errors=True, allowed_protocols=("file", "data"))


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def html_to_pdf(html: str, base: Path, scenario_folder: Path | None, tags: bool = True) -> bytes:
    """Render HTML to PDF bytes; any warning WeasyPrint logs (a missing picture, bad CSS) fails the build."""
    return render_pdf(html, base, scenario_folder, tags)[0]


def render_pdf(html: str, base: Path, scenario_folder: Path | None, tags: bool = True) -> tuple[bytes, int]:
    """Render HTML to PDF bytes and its page count (counting from the layout costs nothing; reading it back does)."""
    import weasyprint
    from weasyprint.urls import FatalURLFetchingError  # a BaseException, so that WeasyPrint never swallows it

    logger = logging.getLogger("weasyprint")
    handler = _Collect()
    logger.addHandler(handler)
    previous = logger.propagate
    logger.propagate = False
    try:
        document = weasyprint.HTML(string=html, base_url=str(base) + "/", url_fetcher=make_fetcher(scenario_folder))
        laid_out = document.render(pdf_tags=tags)
        data = laid_out.write_pdf(pdf_tags=tags, uncompressed_pdf=False)
        pages = len(laid_out.pages)
    except RenderError:
        raise
    except (Exception, FatalURLFetchingError) as err:  # WeasyPrint's own failures: a refused fetch, a broken picture
        root = err
        while root.__cause__ is not None:  # our fetcher's own words sit under WeasyPrint's wrapper
            root = root.__cause__
        raise RenderError(str(root) or type(root).__name__) from err
    finally:
        logger.removeHandler(handler)
        logger.propagate = previous
    problems = [m for m in handler.messages if "harfbuzz" not in m.lower() and "subset" not in m.lower()]
    if problems:
        raise RenderError("rendering reported: " + "; ".join(dict.fromkeys(problems)))
    return data, pages


def write_atomic(target: Path, data: bytes) -> None:
    """Write beside the target and rename into place; a planted symlink at the target is replaced, not followed."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + target.name + ".", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
