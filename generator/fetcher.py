"""The locked URL fetcher WeasyPrint reads through: the project's assets, and pictures beside the scenario only."""

from __future__ import annotations

import base64
import io
import mimetypes
import warnings
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .errors import RenderError

# Pictures are checked by their first bytes, not their names.
_IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"RIFF")
_SVG_START = (b"<svg", b"<?xml")
MAX_IMAGE_BYTES = 8 * 1024 * 1024
# A raster picture is decoded whole, at 4 bytes a pixel and a copy or two: a 657 KB PNG of 179 Mpx cost 1.5 GB.
# 40 Mpx is a 300 dpi A3 poster with room to spare (35 Mpx), and costs a few hundred MiB at most.
MAX_IMAGE_PIXELS = 40_000_000


class PictureRefused(RenderError):
    """A picture that may not be printed: outside the folder, missing, not a picture, too large."""


def _is_image(data: bytes) -> bool:
    if data.startswith(_IMAGE_MAGIC):
        return not data.startswith(b"RIFF") or data[8:12] == b"WEBP"
    return data.lstrip().startswith(_SVG_START)


def check_picture(data: bytes, name: str) -> None:
    """Refuse bytes that are not a picture we print: over 8 MiB, not PNG/JPEG/GIF/WebP/SVG (a font, a script),
    or a raster over MAX_IMAGE_PIXELS (a decompression bomb), judged from its header before anything decodes it."""
    from PIL import Image

    if len(data) > MAX_IMAGE_BYTES:
        raise PictureRefused(f"picture {name} is larger than 8 MiB")
    if not _is_image(data):
        raise PictureRefused(f"{name} is not a picture (PNG, JPEG, GIF, WebP or SVG)")
    if not data.startswith(_IMAGE_MAGIC):
        return  # SVG: drawn as vectors, its own pictures come through this check too
    try:
        with warnings.catch_warnings():  # Pillow warns past 89 Mpx: our limit speaks instead
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                pixels = image.width * image.height
    except Image.DecompressionBombError:
        pixels = MAX_IMAGE_PIXELS + 1
    except Exception as err:  # Pillow's many ways of saying "broken"
        raise PictureRefused(f"{name} is not a picture Pillow can read ({type(err).__name__})") from None
    if pixels > MAX_IMAGE_PIXELS:
        raise PictureRefused(
            f"picture {name} has more than {MAX_IMAGE_PIXELS // 1_000_000} million pixels; "
            "scale it down (300 dpi at its printed size is plenty)"
        )


def _read_checked(path: Path, folders: list[Path], check: bool = True) -> tuple[bytes, Path]:
    """Read a file once, by its resolved path, if it lies in one of the folders and is a regular file."""
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):
        raise PictureRefused(f"picture not found: {path.name}") from None
    if not any(real.is_relative_to(folder) for folder in folders):
        raise PictureRefused(f"refused to read {path.name}: outside the scenario's folder")
    if not real.is_file():  # a folder, a FIFO that would block, a device
        raise PictureRefused(f"refused to read {path.name}: not a regular file")
    with real.open("rb") as handle:
        data = handle.read(MAX_IMAGE_BYTES + 1)
    if len(data) > MAX_IMAGE_BYTES:
        raise PictureRefused(f"picture {path.name} is larger than 8 MiB")
    if check:
        check_picture(data, path.name)
    return data, real


def read_picture(folder: Path, name: str) -> bytes:
    """The checked bytes of a picture a scenario names (a plain relative path in its folder); PictureRefused else."""
    return _read_checked(folder / name, [folder.resolve()])[0]


def picture_url(data: bytes) -> str:
    """Checked picture bytes as a data: URL: WeasyPrint then has nothing to reopen, and names the image in the PDF
    by a hash of its URL, which is now its content alone (not the folder the scenario happened to sit in)."""
    kinds = {b"\x89PNG": "image/png", b"\xff\xd8\xff": "image/jpeg", b"GIF8": "image/gif", b"RIFF": "image/webp"}
    kind = next((kind for magic, kind in kinds.items() if data.startswith(magic)), "image/svg+xml")
    return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"


def make_fetcher(scenario_folder: Path | None):
    """A fetcher for the project's templates and assets, and pictures in the scenario's own folder only."""
    import weasyprint
    from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

    from .rendering import TEMPLATES  # rendering imports markup, which reads pictures through this module

    assets = TEMPLATES.resolve()
    folder = scenario_folder.resolve() if scenario_folder else None

    class CheckedResponse(URLFetcherResponse):
        """The checked bytes and nothing else: WeasyPrint reopens a raster picture by `path` when it writes the PDF
        (images.LazyLocalImage), which would read whatever the name points at by then, unchecked and unbounded."""

        @property
        def path(self):
            return None

    class LockedFetcher(URLFetcher):
        refused: list[str]  # WeasyPrint logs a refusal inside an SVG without its reason: keep the reason

        def refuse(self, message: str) -> FatalURLFetchingError:
            self.refused.append(message)
            return FatalURLFetchingError(message)

        def fetch(self, url, headers=None):
            parts = urlsplit(url)
            if parts.scheme == "data":  # a picture in our HTML or in an SVG; never a font or a stylesheet
                response = super().fetch(url, headers)
                data = response.read(MAX_IMAGE_BYTES + 1)
                try:
                    check_picture(data, "a data: URL")
                except PictureRefused as err:
                    raise self.refuse(str(err)) from None
                return CheckedResponse(url, body=data, headers=response.headers)
            if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
                raise self.refuse(
                    f"refused to fetch {url[:80]!r}: only the project's assets and pictures beside the scenario"
                )
            path = Path(unquote(parts.path))
            try:
                data, real = _read_checked(path, [assets] + ([folder] if folder else []), check=False)
                if not real.is_relative_to(assets):
                    check_picture(data, path.name)
            except PictureRefused as err:
                raise self.refuse(str(err)) from None
            kind = mimetypes.guess_type(real.name)[0] or "application/octet-stream"
            return CheckedResponse(real.as_uri(), body=data, headers={"Content-Type": kind})

    del weasyprint
    fetcher = LockedFetcher(fail_on_errors=True, allowed_protocols=("file", "data"))
    fetcher.refused = []
    return fetcher
