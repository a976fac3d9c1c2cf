"""`muster export`: a scenario's cards and map in the forms other tools take, made from the very pages that print.

- `--print-on-demand`: one card a page at its trim size with 3 mm of bleed (WeasyPrint writes each page's TrimBox
  and BleedBox), fronts and backs as two PDFs in deck order, and a 300 dpi PNG of every card with its bleed.
- `--map-png`: the table alone (no margin, scale or legend) as a PNG, so many pixels an inch (or a grid square).

Every picture is a page Muster laid out for print, rendered by PDFium: screen and paper never differ. The same
input and seed give the same bytes. The work runs in a limited child, as a build does, and nothing is written
unless every file is made.
"""

from __future__ import annotations

import contextlib
import glob
import io
from dataclasses import dataclass, replace
from pathlib import Path

from . import cards
from .build import (
    Options,
    card_sheet,
    check_card_size,
    choose_seed,
    common_context,
    load,
    refuse_unused_house_rules,
    render_html_cards,
    to_pdf,
)
from .errors import InputProblems, RenderError, UsageError, quoted
from .files import own_folder, write_together
from .rendering import render
from .sandbox import run_each_limited

POD_DPI = 300  # what print-on-demand services ask of a card's picture
MAP_DPI = 100  # pixels an inch (or a grid square) of the map's picture, by default
DPI_RANGE = (10, 600)
MOST_PIXELS = 80_000_000  # a map picture of more is refused: 8,000 x 10,000 pixels, 320 MB while it is drawn
POD = "print-on-demand"
# PDF/X-4 (ISO 15930-7), the variant WeasyPrint offers that keeps transparency and RGB colour: the file says it is
# meant for print exchange (its output intent, trapping and version keys), so a print shop's preflight reads it
# as such; it converts no colour to CMYK, and embeds every font as every Muster PDF does
POD_VARIANT = "pdf/x-4"
# PDF/X needs a creation and modification date; a fixed one keeps the same input's files byte for byte the same
FIXED_DATE = "2000-01-01T00:00:00+00:00"


@dataclass(frozen=True)
class Wanted:
    """Which exports to make, and their options."""

    print_on_demand: bool = False
    map_png: bool = False
    dpi: int = MAP_DPI


def export(path: str, out_dir: str, wanted: Wanted, options: Options) -> list[Path]:
    """Make the wanted files of one scenario in a limited child and write them under out_dir/NAME/ together; the
    paths written."""
    name = Path(path).stem
    if not name or name.startswith("."):
        raise UsageError(f"{quoted(path)}: a file name that starts with a dot cannot name its output folder")
    results: dict = {}
    problems: list = []
    run_each_limited(
        _make,
        [(str(path), (str(path), wanted, options))],
        1,
        lambda index, result: results.update(result),
        lambda index, err: problems.extend(err.problems),
        "exporting",
    )
    if problems:
        raise InputProblems(problems)
    # a house-rules file for another system than the scenario's is the wrong club file, as build says
    refuse_unused_house_rules(dict(options.house_rules), {results.pop(SYSTEM)})
    target = Path(out_dir) / name
    made = [folder for folder in (target, target / POD) if not folder.exists()]
    folder = own_folder(target)
    outputs = {folder / relative: data for relative, data in results.items()}
    try:
        for sub in {file.parent for file in outputs}:
            own_folder(sub)
        write_together(outputs)
    except RenderError:
        for empty in reversed(made):  # nothing written: no folder left behind for it either
            with contextlib.suppress(OSError):
                empty.rmdir()
        raise
    if wanted.print_on_demand:
        _drop_stale(folder / POD, name, set(outputs))
    return sorted(outputs)


SYSTEM = ""  # the key of _make's result that holds the scenario's system id, not a file


def _make(job: tuple[str, Wanted, Options]) -> dict[str, bytes | str]:
    """Every wanted file's bytes by its path under NAME/, and the scenario's system id under SYSTEM."""
    path, wanted, options = job
    scenario = load(path, dict(options.house_rules))
    # worked out once for both exports (the map and the cards read the same prepared scenario)
    prepared = scenario.system.prepare(scenario, choose_seed(scenario, options.seed))
    out: dict[str, bytes | str] = {SYSTEM: scenario.system.id}
    if wanted.print_on_demand:
        out.update(print_on_demand(prepared, options))
    if wanted.map_png:
        out.update(map_png(prepared, wanted.dpi))
    return out


# --- print on demand -------------------------------------------------------------------------------------------


def pod_layout(card_size: str) -> cards.Layout:
    """One card a page: the page is the card, with 3 mm of bleed round it."""
    width, height = cards.CARD_SIZES[card_size]
    bleed = cards.BLEED
    # the sheet is the card and its bleed (the page's margin reaches over the bleed: cards.html), its trim 3 mm in
    return cards.Layout(width + 2 * bleed, height + 2 * bleed, width, height, 1, 1, bleed)


def print_on_demand(prepared, options: Options) -> dict[str, bytes]:
    """NAME-fronts.pdf and NAME-backs.pdf (one card a page, backs in the fronts' order) and a 300 dpi PNG of each
    front, named in deck order, and of the back, under print-on-demand/."""
    scenario = prepared.scenario
    check_card_size(scenario.system, options.card_size)  # a size the system does not print is refused, as build does
    options = replace(options, bleed=True, fronts_only=False)
    sheet = card_sheet(prepared, common_context(prepared, options), options)
    layout = pod_layout(options.card_size)
    fronts = [slot["card"] for page in sheet["pages"] if page["face"] == "front" for slot in page["slots"]]
    if not fronts:
        raise RenderError(f"{scenario.doc.file}: the scenario has no cards to export")
    back = next(slot["card"] for page in sheet["pages"] if page["face"] == "back" for slot in page["slots"])
    front_pages = [_one(card, "front", number, layout) for number, card in enumerate(fronts, 1)]
    back_pages = [_one(back, "back", number, layout) for number in range(1, len(fronts) + 1)]
    name = scenario.name
    out: dict[str, bytes] = {}
    documents = (("fronts", front_pages), ("backs", back_pages))
    rendered = {}
    for label, pages in documents:
        html = render_html_cards(scenario, {**sheet, "layout": layout, "pages": pages, "pod": True})
        rendered[label] = to_pdf(scenario, _dated(html), options.card_size, variant=POD_VARIANT)
        out[f"{POD}/{name}-{label}.pdf"] = rendered[label]
    width = max(2, len(str(len(fronts))))  # card-01 ... card-99, card-001 past them: sorted by name, in deck order
    for index, png in enumerate(page_pngs(rendered["fronts"], POD_DPI)):
        out[f"{POD}/{name}-card-{index + 1:0{width}d}.png"] = png
    out[f"{POD}/{name}-back.png"] = page_pngs(rendered["backs"], POD_DPI, pages=[0])[0]
    return out


def _one(card: dict, face: str, number: int, layout: cards.Layout) -> dict:
    """One card's page: its trim 3 mm in, no cut marks (the service cuts at the TrimBox)."""
    x, y = layout.front_slot(0)
    return {"face": face, "number": number, "slots": [{"x": x, "y": y, "card": card}], "marks": [], "backing": []}


def _dated(html: str) -> str:
    """The document with its fixed creation and modification dates (PDF/X requires both)."""
    dates = f'<meta name="dcterms.created" content="{FIXED_DATE}"><meta name="dcterms.modified" content="{FIXED_DATE}">'
    return html.replace("</head>", dates + "</head>", 1)


def page_pngs(pdf: bytes, dpi: float, pages: list[int] | None = None) -> list[bytes]:
    """Pages of a PDF as PNG files at `dpi` (their whole MediaBox, bleed and all), each saying its resolution."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        out = []
        for index in range(len(document)) if pages is None else pages:
            # PDFium rounds a page's size in pixels up, and a PDF keeps it to 7 digits: a hair under the scale keeps a
            # page of whole pixels whole
            image = document[index].render(scale=dpi / 72 * (1 - 1e-6), may_draw_forms=False).to_pil()
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", dpi=(dpi, dpi))
            out.append(buffer.getvalue())
        return out
    finally:
        document.close()


def _drop_stale(folder: Path, name: str, kept: set[Path]) -> None:
    """Remove card pictures an earlier export of this scenario left that this one did not make (a deck that has
    lost cards); no other file of the folder (a user's own picture there was deleted with them)."""
    for old in folder.glob(f"{glob.escape(name)}-card-*.png"):
        if old not in kept and old.is_file() and not old.is_symlink():
            old.unlink(missing_ok=True)


# --- the map as a picture --------------------------------------------------------------------------------------


def most_dpi(width_in: float, height_in: float) -> int:
    """The highest --dpi whose picture of a table this size stays within MOST_PIXELS, each side rounded to whole
    pixels as the picture is (the bound's own square root could still round over it: 12 x 166 cm at 509)."""
    most = int((MOST_PIXELS / (width_in * height_in)) ** 0.5)
    while most > 1 and round(width_in * most) * round(height_in * most) > MOST_PIXELS:
        most -= 1
    return most


def map_png(prepared, dpi: int) -> dict[str, bytes]:
    """NAME-map.png: the table alone at `dpi` pixels an inch, or a grid square; a scenario without a map has none
    to give (refused, saying so)."""
    scenario = prepared.scenario
    board = scenario.system.board(prepared)
    if board is None:
        raise RenderError(f"{scenario.doc.file}: the scenario has no map to export (give it a `table` or terrain)")
    width_px, height_px = round(board.width_in * dpi), round(board.height_in * dpi)
    if width_px * height_px > MOST_PIXELS:
        most = most_dpi(board.width_in, board.height_in)
        raise UsageError(
            f"the map of {scenario.doc.file} at {dpi} pixels {board.per} would be {width_px:,} x {height_px:,} "
            f"pixels, more than {MOST_PIXELS:,}: give --dpi {most} or less"
        )
    # the page is the picture's whole pixels at `dpi` (a 120 cm table is 47.24 inches: 2362 pixels at 50, not 2363)
    html = render("board.html", board=board, width_in=width_px / dpi, height_in=height_px / dpi)
    pdf = to_pdf(scenario, html)
    return {f"{scenario.name}-map.png": page_pngs(pdf, dpi)[0]}
