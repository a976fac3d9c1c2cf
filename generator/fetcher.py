"""The locked URL fetcher WeasyPrint reads through: the project's assets and checked pictures (data: URLs), nothing else."""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import mimetypes
import warnings
from pathlib import Path
from urllib.parse import unquote, unquote_to_bytes, urlsplit
from xml.etree import ElementTree

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


def _css_urls(text: str) -> list[str]:
    """Every URL a piece of CSS names (url(...), url("..."), @import "..."), read with the tokenizer WeasyPrint
    reads it with (tinycss2), so that CSS escapes hide nothing."""
    import tinycss2

    found: list[str] = []

    def walk(tokens: list) -> None:
        after_import = False
        for token in tokens:
            if token.type == "url" or (after_import and token.type == "string"):
                found.append(token.value)
            elif token.type == "function":
                if token.lower_name == "url":
                    found.extend(t.value for t in token.arguments if t.type == "string")
                walk(token.arguments)
            elif token.type in ("() block", "[] block", "{} block"):
                walk(token.content)
            if token.type != "whitespace":
                after_import = token.type == "at-keyword" and token.lower_value == "import"

    walk(tinycss2.parse_component_value_list(text))
    return found


def _data_url_bytes(url: str) -> bytes | None:
    """The bytes a data: URL holds, or None if it is not one that decodes."""
    header, comma, payload = url[5:].partition(",")
    if not comma:
        return None
    try:
        return base64.b64decode(payload) if header.lower().endswith(";base64") else unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return None


_UNDRAWN = ("title", "desc", "metadata", "style")  # an SVG's elements whose words are never drawn


def _check_svg(data: bytes, name: str) -> None:
    """Refuse an SVG that holds text, or names another file: a picture, a stylesheet or a font it would load by URL. Only the
    SVG's own bytes are read, checked and keyed (the booklet cache); what it embeds as data: URLs is checked as a
    picture in turn. It is parsed as WeasyPrint parses it (ElementTree), so what is checked is what is drawn."""
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as err:
        raise PictureRefused(f"{name} is not an SVG picture that can be read ({err})") from None
    _check_uses(root, name)
    urls: list[str] = []
    for element in root.iter():
        local = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
        # text is drawn in whatever fonts the machine has (and fails on a script the bundled ones lack): the same
        # file would print differently on another machine, or not at all. Any words in the SVG count, not only a
        # <text>'s (WeasyPrint draws an <a>'s words too), save a title's, a description's, metadata and styles
        worded = local not in _UNDRAWN and bool((element.text or "").strip())
        if local in ("text", "tspan", "textPath") or worded or (element.tail or "").strip():
            raise PictureRefused(
                f"picture {name} holds text: its letters would be drawn in whatever fonts this machine has; "
                "turn the text into shapes in your drawing program (Inkscape: Path > Object to Path)"
            )
        for attribute, value in element.attrib.items():
            attr = attribute.rsplit("}", 1)[-1]
            if attr in ("href", "base"):  # href, xlink:href, xml:base
                urls.append(value.strip())
            elif attr == "style":
                urls += _css_urls(value)
        if isinstance(element.tag, str) and element.tag.rsplit("}", 1)[-1] == "style" and element.text:
            urls += _css_urls(element.text)
    for url in urls:
        if url.startswith("#") or url == "":  # a part of the SVG itself
            continue
        inner = _data_url_bytes(url) if url[:5].lower() == "data:" else None
        if inner is None:
            shown = url if len(url) <= 80 else "..." + url[-77:]  # the end names the file
            raise PictureRefused(
                f"picture {name} refers to another file ({shown!r}); an SVG is printed from its own bytes only, "
                "so put that picture inside it as a data: URL"
            )
        check_picture(inner, f"a picture inside {name}")


SVG_DRAWN_MOST = 100_000  # elements an SVG may draw once every <use> is expanded (its own file holds fewer)


def _check_uses(root, name: str) -> None:
    """Refuse an SVG whose <use> elements refer, through each other, to themselves (the renderer fails on it with
    the whole picture in its message), or expand to more than SVG_DRAWN_MOST elements: 24 nested <use> of two
    copies each are 1.8 KB that draw 16 million shapes."""
    ids = {element.get("id"): element for element in root.iter() if element.get("id")}
    drawn: dict[int, int] = {}
    open_: set[int] = set()

    def target(element):
        for attribute, value in element.attrib.items():
            if attribute.rsplit("}", 1)[-1] == "href" and value.strip().startswith("#"):
                return ids.get(value.strip()[1:])
        return None

    def count(element) -> int:
        key = id(element)
        if key in drawn:
            return drawn[key]
        if key in open_:
            raise PictureRefused(f"picture {name} has a <use> that refers to itself, so it never ends")
        open_.add(key)
        total = 1 + sum(count(child) for child in element)
        if isinstance(element.tag, str) and element.tag.rsplit("}", 1)[-1] == "use":
            used = target(element)
            if used is not None:
                total += count(used)
        open_.discard(key)
        drawn[key] = total = min(total, SVG_DRAWN_MOST + 1)
        return total

    try:
        total = count(root)
    except RecursionError:
        raise PictureRefused(f"picture {name} nests its elements too deeply to be drawn") from None
    if total > SVG_DRAWN_MOST:
        raise PictureRefused(
            f"picture {name} draws more than {SVG_DRAWN_MOST:,} shapes once its <use> copies are counted"
        )


def check_picture(data: bytes, name: str) -> None:
    """Refuse bytes that are not a picture we print: over 8 MiB, not PNG/JPEG/GIF/WebP/SVG (a font, a script),
    or a raster over MAX_IMAGE_PIXELS (a decompression bomb), judged from its header before anything decodes it."""
    from PIL import Image, ImageFile

    if len(data) > MAX_IMAGE_BYTES:
        raise PictureRefused(f"picture {name} is larger than 8 MiB")
    if not _is_image(data):
        raise PictureRefused(f"{name} is not a picture (PNG, JPEG, GIF, WebP or SVG)")
    if not data.startswith(_IMAGE_MAGIC):
        _check_svg(data, name)
        return
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
    # decoded whole, within the pixel bound just checked: a truncated file is refused here, not printed broken.
    # WeasyPrint, once imported, tells Pillow to load truncated images quietly (weasyprint/images.py): not here.
    truncated_ok, ImageFile.LOAD_TRUNCATED_IMAGES = ImageFile.LOAD_TRUNCATED_IMAGES, False
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
    except Exception as err:  # a truncated or damaged stream
        raise PictureRefused(f"picture {name} is damaged: it does not decode whole ({err})") from None
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = truncated_ok


def _read_checked(
    path: Path, folders: list[Path], check: bool = True, outside: str = "outside the scenario's folder"
) -> tuple[bytes, Path]:
    """Read a file once, by its resolved path, if it lies in one of the folders and is a regular file."""
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):
        raise PictureRefused(f"picture not found: {path.name}") from None
    if not any(real.is_relative_to(folder) for folder in folders):
        raise PictureRefused(f"refused to read {path.name}: {outside}")
    if not real.is_file():  # a folder, a FIFO that would block, a device
        raise PictureRefused(f"refused to read {path.name}: not a regular file")
    with real.open("rb") as handle:
        data = handle.read(MAX_IMAGE_BYTES + 1)
    if len(data) > MAX_IMAGE_BYTES:
        raise PictureRefused(f"picture {path.name} is larger than 8 MiB")
    if check:
        check_picture(data, path.name)
    return data, real


# every picture this process has read since the set was last emptied, as (its path, a hash of its bytes): a
# booklet's part checks that what it printed is what its cache key was made of, each file with its own bytes
# (generator/booklet/parts.py)
READ: set[tuple[str, str]] = set()


def read_picture(folder: Path, name: str) -> bytes:
    """The checked bytes of a picture a scenario names (a plain relative path in its folder); PictureRefused else."""
    data = _read_checked(folder / name, [folder.resolve()])[0]
    READ.add((str(folder / name), hashlib.sha256(data).hexdigest()))
    return data


def picture_url(data: bytes) -> str:
    """Checked picture bytes as a data: URL: WeasyPrint then has nothing to reopen, and names the image in the PDF
    by a hash of its URL, which is now its content alone (not the folder the scenario happened to sit in)."""
    kinds = {b"\x89PNG": "image/png", b"\xff\xd8\xff": "image/jpeg", b"GIF8": "image/gif", b"RIFF": "image/webp"}
    kind = next((kind for magic, kind in kinds.items() if data.startswith(magic)), "image/svg+xml")
    return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"


def make_fetcher():
    """A fetcher for the project's templates and assets, and checked pictures given as data: URLs. No file of a
    scenario's folder is ever fetched: its pictures reach the page as the bytes validation checked and the booklet
    cache keys (generator/markup.py), so an SVG cannot load a file whose bytes nothing checked or keyed."""
    from .startup import import_weasyprint

    weasyprint = import_weasyprint()
    from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

    from .rendering import TEMPLATES  # rendering imports markup, which reads pictures through this module

    assets = TEMPLATES.resolve()

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
                raise self.refuse(f"refused to fetch {url[:80]!r}: only the project's assets and checked pictures")
            path = Path(unquote(parts.path))
            try:
                data, real = _read_checked(path, [assets], check=False, outside="not one of Muster's own files")
            except PictureRefused as err:
                raise self.refuse(str(err)) from None
            kind = mimetypes.guess_type(real.name)[0] or "application/octet-stream"
            return CheckedResponse(real.as_uri(), body=data, headers={"Content-Type": kind})

    del weasyprint
    fetcher = LockedFetcher(fail_on_errors=True, allowed_protocols=("file", "data"))
    fetcher.refused = []
    return fetcher
