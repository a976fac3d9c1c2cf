"""Pictures in a scenario's prose: checked once and embedded as checked, refused at validation with a position,
and printed the same whatever folder the scenario sits in."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from generator import engine, fetcher

SECRET = b"MUSTER-SECRET-7f3a"


def jpeg() -> bytes:
    """A real small JPEG: WeasyPrint embeds a JPEG's bytes as they are, so what it reads is what the PDF holds."""
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(out, format="JPEG")
    return out.getvalue()


def swapping_fetcher(monkeypatch, name: str, swap) -> None:
    """Let the render's fetcher check `name`, then call swap() at once: a shared folder changing under the build."""
    real = engine.make_fetcher

    def make(folder):
        locked = real(folder)
        check = locked.fetch

        def fetch(url, headers=None):
            response = check(url, headers)
            if url.endswith("/" + name):
                swap()
            return response

        locked.fetch = fetch
        return locked

    monkeypatch.setattr(engine, "make_fetcher", make)


@pytest.mark.parametrize("swap_to", ["a_secret_outside", "a_78_MB_file_beside"])
def test_a_picture_swapped_after_its_check_is_embedded_as_checked(swap_to, tmp_path, monkeypatch):
    """A picture replaced by a symlink once the fetcher checked it (to a file outside the folder, or to a 78 MB
    file) is not read again by name: the PDF holds the checked bytes, so no secret and nothing past 8 MiB."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    picture = folder / "map.jpg"
    picture.write_bytes(jpeg())
    if swap_to == "a_secret_outside":
        target = tmp_path / "secret.jpg"
        target.write_bytes(jpeg()[:-2] + SECRET + b"\xff\xd9")
    else:
        target = folder / "huge.jpg"
        with target.open("wb") as handle:  # sparse: 78 MB on paper, nothing on disk
            handle.write(jpeg()[:-2] + SECRET)
            handle.truncate(78 * 1000 * 1000)

    def swap():
        picture.unlink()
        picture.symlink_to(target)

    swapping_fetcher(monkeypatch, "map.jpg", swap)
    data = engine.html_to_pdf(
        f'<html lang="en"><p><img src="{picture.as_uri()}" alt="map"></p></html>', tmp_path, folder
    )
    assert picture.is_symlink(), "the swap happened"
    assert SECRET not in data
    assert len(data) < fetcher.MAX_IMAGE_BYTES
    assert jpeg() in data  # the checked picture is what was embedded
