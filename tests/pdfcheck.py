"""Measuring printed PDFs back: the smallest text on a page, text that leaves its card, a card sheet built alone."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pdfplumber

MM = 72 / 25.4
# The 7 pt floor, less what pdfplumber's rounding of a font matrix can take off a true 7 pt glyph
SEVEN_POINTS = 6.95
# How far (in points) a glyph's box may poke past its card's edge: antialiasing, not overflow
EDGE_SLACK = 0.5
# How far (in mm) a filled rectangle may differ from a card's size and still be taken for that card
CARD_TOLERANCE = 0.3


def _pages(pdf_path: Path) -> tuple[tuple[list[dict], list[dict]], ...]:
    """Each page's characters and rectangles, parsed once however many checks read the same PDF."""
    written = Path(pdf_path).stat()
    return _parsed(Path(pdf_path), written.st_mtime_ns, written.st_size)


@lru_cache(maxsize=64)
def _parsed(pdf_path: Path, mtime_ns: int, size: int) -> tuple[tuple[list[dict], list[dict]], ...]:
    # keyed by when and how large the file was written too, so a PDF rewritten in place is read afresh
    with pdfplumber.open(pdf_path) as pdf:
        return tuple((page.chars, page.rects) for page in pdf.pages)


def text_under(pdf_path: Path, floor: float = SEVEN_POINTS) -> list[tuple[int, str, float]]:
    """Every character set smaller than `floor` points, as (page number, character, size)."""
    return [
        (number, ch["text"], round(_size(ch), 2))
        for number, (chars, _) in enumerate(_pages(pdf_path), 1)
        for ch in chars
        if _size(ch) < floor
    ]


def _size(ch: dict) -> float:
    """A character's type size. pdfminer gives a turned character (a map's EAST and WEST run along their edges)
    its advance as its size; its box across the line of text is the size, as an upright one's height is."""
    return ch["size"] if ch["upright"] else ch["x1"] - ch["x0"]


def text_outside_cards(cards_pdf: Path, size: tuple[float, float]) -> list[tuple[int, str]]:
    """Every character of a card sheet that does not lie wholly inside a card of `size` (width, height in mm),
    as (page number, character); a page with no card of that size at all fails at once."""
    width, height = size
    outside = []
    for number, (chars, rects) in enumerate(_pages(cards_pdf), 1):
        boxes = [
            r
            for r in rects
            if r.get("fill")
            and abs(r["width"] / MM - width) < CARD_TOLERANCE
            and abs(r["height"] / MM - height) < CARD_TOLERANCE
        ]
        assert boxes, f"no {width} x {height} mm card found on page {number} of {cards_pdf.name}"
        for ch in chars:
            inside = any(
                b["x0"] - EDGE_SLACK <= ch["x0"]
                and ch["x1"] <= b["x1"] + EDGE_SLACK
                and b["top"] - EDGE_SLACK <= ch["top"]
                and ch["bottom"] <= b["bottom"] + EDGE_SLACK
                for b in boxes
            )
            if not inside:
                outside.append((number, ch["text"]))
    return outside


def build_cards_only(scenario_file: Path, card_size: str, target: Path) -> Path:
    """Write the card sheets of one scenario at one card size to `target`, without rendering its pack.

    Rendering the pack is most of a build's time, and the card checks never read it; this walks the same
    stages `muster build --cards SIZE` does (load, compute, render) and stops before the pack's PDF.
    """
    from generator.build import Options, choose_seed, compute, load, render_html, to_pdf

    scenario = load(scenario_file)
    options = Options(card_size=card_size)
    pack, sheet = compute(scenario, choose_seed(scenario, None), options)
    _, cards_html = render_html(scenario, pack, sheet)
    target.write_bytes(to_pdf(scenario, cards_html))
    return target
