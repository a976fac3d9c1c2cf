"""The bundled type (templates/fonts): family names for SVG text, and advance widths read from the font files.

Templates name these families through templates/fonts/fonts.css; drawings made in Python (maps, the calibration
sheet) name them here; label placement measures text with the same files the PDF embeds, so a label's box is the
box that prints, on any machine, whatever fonts it has installed.
"""

from __future__ import annotations

from functools import lru_cache

from .rendering import TEMPLATES

TEXT = '"Source Sans 3", "Muster Symbols"'  # CSS font-family for text drawn in SVG (maps, calibration)
_FILES = {False: "SourceSans3-Regular.ttf", True: "SourceSans3-Bold.ttf"}
_SYMBOLS = "MusterSymbols.ttf"


def path(name: str):
    """A bundled font file."""
    return TEMPLATES / "fonts" / name


@lru_cache(maxsize=4)
def _advances(file: str) -> dict[str, float]:
    """A font's advance widths in em by character."""
    from fontTools.ttLib import TTFont

    with TTFont(str(path(file)), lazy=True) as font:  # closed at once: two tables are all we read
        metrics = font["hmtx"].metrics
        upem = float(font["head"].unitsPerEm)
        return {chr(code): metrics[name][0] / upem for code, name in font.getBestCmap().items() if name in metrics}


def advance_em(ch: str, bold: bool = False) -> float:
    """How wide one character prints, in em: from the text face, or the symbol face for what it lacks."""
    widths = _advances(_FILES[bold])
    if ch in widths:
        return widths[ch]
    return _advances(_SYMBOLS).get(ch, widths["M"])  # a character neither face has: as wide as an M


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide `text` prints at font size `size`, in the units of `size` (no kerning: a little wide, never narrow)."""
    return sum(advance_em(ch, bold) for ch in text) * size
