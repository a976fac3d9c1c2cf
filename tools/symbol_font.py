"""Make templates/fonts/MusterSymbols.ttf: the arrows, shapes, card suits and ticks Source Sans 3 and Source Serif 4
lack (★ ↺ ♣ ▸ ...), cut from DejaVu Sans (Bitstream Vera licence: a modified font must be renamed, hence the name).

Run once when the symbols wanted change: `python tools/symbol_font.py /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf`
(Debian's fonts-dejavu-core 2.37). The result is committed, so a build never depends on the machine's fonts.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

OUT = Path(__file__).resolve().parent.parent / "templates" / "fonts" / "MusterSymbols.ttf"
WANTED = [
    *range(0x2190, 0x2200),  # arrows
    *range(0x25A0, 0x2700),  # geometric shapes, miscellaneous symbols (stars, suits)
    0x2713,
    0x2714,
    0x2717,
    0x2718,  # ticks and crosses
    0x2022,
    0x2023,
    0x2043,
    0x20,  # bullets, space
]


def main(source: str) -> None:
    font = TTFont(source, recalcTimestamp=False)  # the same bytes on every run
    cmap = font.getBestCmap()
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=[u for u in WANTED if u in cmap])
    cutter.subset(font)
    for record in font["name"].names:
        if record.nameID in (1, 4, 16):
            record.string = "Muster Symbols"
        elif record.nameID == 6:
            record.string = "MusterSymbols"
        elif record.nameID == 3:
            record.string = "Muster Symbols (subset of DejaVu Sans 2.37)"
    font.save(OUT)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
