"""Which characters Muster can print: those every bundled text face draws, or the symbol face does.

A scenario's text is checked against this when it is validated, so a character the fonts cannot draw is a problem
at its file:line:col, not a blank box or a failed build: `muster validate` and `muster build` agree.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from .fonts import path

TEXT_FACES = [
    f"{family}-{style}.ttf"
    for family in ("SourceSans3", "SourceSerif4")
    for style in ("Regular", "It", "Bold", "BoldIt")
]
SYMBOL_FACE = "MusterSymbols.ttf"
LAYOUT = {"\n", "\t", "\r"}  # whitespace that lays text out rather than prints
IGNORED = {"Cf"}  # format characters (soft hyphen, joiners, marks of direction): shaping uses them, nothing prints
SCRIPTS = "Latin, Cyrillic and modern Greek letters, figures, punctuation and common symbols"


@lru_cache(maxsize=1)
def printable() -> frozenset[int]:
    """Code points drawn in every style of both text faces, plus those of the symbol face."""
    from fontTools.ttLib import TTFont

    def cmap(name: str) -> set[int]:
        with TTFont(str(path(name)), lazy=True) as font:
            return set(font.getBestCmap())

    common = set.intersection(*(cmap(name) for name in TEXT_FACES))
    return frozenset(common | cmap(SYMBOL_FACE))


def _named(ch: str) -> str:
    return f"U+{ord(ch):04X} {unicodedata.name(ch, '')}".rstrip()


def problem(text: str) -> str | None:
    """Why `text` cannot be printed as written, or None when every character prints."""
    drawn = printable()
    for i, ch in enumerate(text):
        code = ord(ch)
        kind = unicodedata.category(ch)
        if 0xD800 <= code <= 0xDFFF:
            low = text[i + 1] if i + 1 < len(text) else ""
            if code <= 0xDBFF and low and 0xDC00 <= ord(low) <= 0xDFFF:
                joined = chr(0x10000 + ((code - 0xD800) << 10) + (ord(low) - 0xDC00))
                return (
                    f"holds the escapes \\u{code:04x}\\u{ord(low):04x}, one character ({_named(joined)}) split in two "
                    f"halves; Muster's fonts cannot draw it anyway: they print {SCRIPTS}"
                )
            return f"holds \\u{code:04x}, half of a character written as an escape (a lone surrogate), not text"
        if ch in LAYOUT:
            continue
        if ch in ("\u2028", "\u2029"):
            return f"holds a {'line' if ch == chr(0x2028) else 'paragraph'} separator ({_named(ch)}): use a new line"
        if kind == "Cc":
            return f"holds the control character {_named(ch)}, which prints as nothing"
        if kind in IGNORED or code in drawn:
            continue
        if kind in ("Co", "Cn"):
            return f"holds {_named(ch)}, a code point with no agreed character"
        return f"holds {ch!r} ({_named(ch)}), which Muster's fonts cannot draw: they print {SCRIPTS}"
    return None
