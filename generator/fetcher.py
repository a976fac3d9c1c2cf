"""The locked URL fetcher WeasyPrint reads through: the project's assets, and pictures beside the scenario only."""

from __future__ import annotations

import mimetypes
from pathlib import Path
from urllib.parse import unquote, urlsplit

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
            if parts.scheme == "data":
                return super().fetch(url, headers)
            if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
                raise self.refuse(
                    f"refused to fetch {url[:80]!r}: only the project's assets and pictures beside the scenario"
                )
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
            return CheckedResponse(real.as_uri(), body=data, headers={"Content-Type": kind})

    del weasyprint
    fetcher = LockedFetcher(fail_on_errors=True, allowed_protocols=("file", "data"))
    fetcher.refused = []
    return fetcher
