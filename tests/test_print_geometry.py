"""Card sheets measured back from the PDF: page sizes, card rectangles, duplex backs, cut marks, bleed, ink.

The 7 pt floor and text staying on its card are checked for every example in test_conformance.py."""

from __future__ import annotations

import io

import pdfplumber
import pytest
from pdfcheck import MM

from generator.build import Options, choose_seed, compute, load, render_html, to_pdf
from generator.cards import CARD_SIZES, PAPERS, layout
from generator.labels import Box

TOL = 0.2  # mm: what a print shop forgives


def cards_pdf(name: str, **opts) -> pdfplumber.PDF:
    scenario = load(f"scenarios/{name}.yaml")
    options = Options(**opts)
    pack, sheet = compute(scenario, choose_seed(scenario, None), options)
    _, html = render_html(scenario, pack, sheet)
    return pdfplumber.open(io.BytesIO(to_pdf(scenario, html)))


def card_boxes(page, w: float, h: float) -> list[tuple[float, float]]:
    """Top-left corners (mm) of every filled rectangle of exactly one card's size on the page."""
    found = set()
    for r in page.rects:
        if r.get("fill") and abs(r["width"] / MM - w) <= TOL and abs(r["height"] / MM - h) <= TOL:
            found.add((round(r["x0"] / MM, 2), round(r["top"] / MM, 2)))
    return sorted(found)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", ["poker", "mini", "tarot"])
def test_cards_sit_where_the_layout_says_and_backs_land_behind_them(paper, size):
    """Every card is its size within 0.2 mm, centred on the page, and its back mirrors it for long-edge duplex."""
    pdf = cards_pdf("bridge", paper=paper, card_size=size)
    lay = layout(paper, size)
    w, h = CARD_SIZES[size]
    page_w, page_h = PAPERS[paper]
    front, back = pdf.pages[0], pdf.pages[1]
    assert abs(front.width / MM - page_w) < TOL and abs(front.height / MM - page_h) < TOL
    fronts = card_boxes(front, w, h)
    assert len(fronts) == min(lay.per_sheet, 14)
    for x, y in fronts:
        assert any(
            abs(x - ex) <= TOL and abs(y - ey) <= TOL for ex, ey in (lay.front_slot(i) for i in range(lay.per_sheet))
        )
    # the grid is centred: equal margins left and right, top and bottom
    xs = [x for x, _ in fronts]
    ys = [y for _, y in fronts]
    assert abs(min(xs) - (page_w - max(xs) - w)) <= TOL
    assert abs(min(ys) - (page_h - max(ys) - h)) <= TOL
    backs = card_boxes(back, w, h)
    mirrored = sorted((round(page_w - x - w, 2), y) for x, y in fronts)
    assert len(backs) == len(fronts)
    for (bx, by), (mx, my) in zip(backs, mirrored):
        assert abs(bx - mx) <= TOL and abs(by - my) <= TOL


def test_poker_cards_come_three_by_three_on_a4_and_letter():
    """The default sheet holds nine poker cards on both papers."""
    assert layout("a4").per_sheet == layout("letter").per_sheet == 9
    assert (layout("a4", "mini").cols, layout("a4", "tarot").cols) == (4, 2)


def test_short_edge_duplex_mirrors_rows_and_back_offset_moves_backs():
    """Short-edge backs sit in the mirrored row; --back-offset shifts every back by exactly that many mm."""
    pdf = cards_pdf("bridge", duplex="short", back_offset=(1.5, -0.5))
    w, h = CARD_SIZES["poker"]
    fronts = card_boxes(pdf.pages[0], w, h)
    backs = card_boxes(pdf.pages[1], w, h)
    expected = sorted((round(x + 1.5, 2), round(297 - y - h - 0.5, 2)) for x, y in fronts)
    for (bx, by), (ex, ey) in zip(backs, expected):
        assert abs(bx - ex) <= TOL and abs(by - ey) <= TOL


def test_cut_marks_stay_outside_every_card():
    """Cut marks are thin lines in the margins at each column and row edge, never over a card."""
    pdf = cards_pdf("bridge")
    lay = layout("a4")
    page = pdf.pages[0]
    marks = _marks(page)
    assert len(marks) == len(lay.cut_marks()) == 2 * (4 + 4)
    for r in marks:
        x0, x1, y0, y1 = r["x0"] / MM, r["x1"] / MM, r["top"] / MM, r["bottom"] / MM
        for i in range(lay.per_sheet):
            cx, cy = lay.front_slot(i)
            overlap = x0 < cx + lay.card_w and x1 > cx and y0 < cy + lay.card_h and y1 > cy
            assert not overlap


def _marks(page) -> list[dict]:
    """The cut marks drawn on a page: thin black rectangles more than 2 mm long."""
    return [r for r in page.rects if min(r["width"], r["height"]) / MM < 0.3 and max(r["width"], r["height"]) / MM > 2]


PRINTABLE_MM = 5.0  # what most home and office printers leave bare at the paper's edge (3 to 5 mm)


@pytest.mark.parametrize(
    "paper, size, between",
    [
        ("a4", "poker", {"vertical"}),  # 6 mm above and below the cards: the vertical cuts' marks would not print
        ("a4", "mini", {"horizontal"}),  # 5 mm beside them
        ("a4", "tarot", set()),
        ("letter", "poker", set()),
        ("letter", "mini", {"horizontal"}),  # 7.95 mm: a mark would print 1.95 mm of itself
        ("letter", "tarot", set()),
    ],
)
def test_with_bleed_a_tick_lies_between_cards_only_where_the_margins_marks_would_not_print(paper, size, between):
    """Issue 11 (a fresh read of the bleed sheets): every sheet drew ticks in the 6 mm of bleed between two cards,
    on the cards' coloured backgrounds, where a cut a millimetre and a half off shows a black nick. A tick goes
    there only for the cuts whose marks in the margin would fall in a printer's bare edge."""
    pdf = cards_pdf("bridge", paper=paper, card_size=size, bleed=True)
    w, h = CARD_SIZES[size]
    page = pdf.pages[0]
    cards = card_boxes(page, w + 6, h + 6)
    inside = Box(
        min(x for x, _ in cards),
        min(y for _, y in cards),
        max(x for x, _ in cards) + w + 6,
        max(y for _, y in cards) + h + 6,
    )
    found = set()
    for r in _marks(page):
        middle = ((r["x0"] + r["x1"]) / 2 / MM, (r["top"] + r["bottom"]) / 2 / MM)
        if inside.left < middle[0] < inside.right and inside.top < middle[1] < inside.bottom:
            found.add("vertical" if r["height"] > r["width"] else "horizontal")
    assert found == between


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", ["poker", "mini", "tarot"])
def test_with_bleed_every_cut_is_marked_where_any_printer_prints(paper, size):
    """Issue 11 (a fresh read of the bleed sheets): with bleed, A4 poker's vertical cuts were marked only in the
    top and bottom 5 mm of the paper, which most printers leave bare, so those cut lines disappeared. Every trim
    edge of every card now has a mark at least 3 mm long lying 5 mm or more inside the paper (a tick in the waste
    between two cards where the margin is too thin), and a last sheet marks only the places that hold a card."""
    pdf = cards_pdf("bridge", paper=paper, card_size=size, bleed=True)
    lay = layout(paper, size, bleed=True)
    page_w, page_h = PAPERS[paper]
    w, h = CARD_SIZES[size]
    for number in range(0, len(pdf.pages), 2):  # the fronts
        page = pdf.pages[number]
        cards = [(x + 3, y + 3) for x, y in card_boxes(page, w + 6, h + 6)]
        assert cards
        usable = []
        for r in _marks(page):
            x0, x1, y0, y1 = r["x0"] / MM, r["x1"] / MM, r["top"] / MM, r["bottom"] / MM
            x0, x1 = max(x0, PRINTABLE_MM), min(x1, page_w - PRINTABLE_MM)
            y0, y1 = max(y0, PRINTABLE_MM), min(y1, page_h - PRINTABLE_MM)
            if max(x1 - x0, y1 - y0) >= 3.0 and min(x1 - x0, y1 - y0) > -0.3:
                vertical = r["height"] > r["width"]
                usable.append(
                    ("x", round((r["x0"] + r["x1"]) / 2 / MM, 1))
                    if vertical
                    else ("y", round((r["top"] + r["bottom"]) / 2 / MM, 1))
                )
        edges = {("x", round(x + d, 1)) for x, _ in cards for d in (0, w)} | {
            ("y", round(y + d, 1)) for _, y in cards for d in (0, h)
        }
        missing = {
            edge for edge in edges if not any(kind == edge[0] and abs(at - edge[1]) <= 0.2 for kind, at in usable)
        }
        assert missing == set(), (number, sorted(missing))
        # no mark for a place that holds no card: every mark lines up with an edge of a card on this sheet
        stray = [edge for edge in set(usable) if not any(e[0] == edge[0] and abs(e[1] - edge[1]) <= 0.2 for e in edges)]
        assert stray == [], (number, stray)
    assert lay.per_sheet > 1


def test_bleed_extends_backgrounds_three_mm_around_the_trim():
    """With --bleed each card's background is 3 mm larger on every side, centred on its trim box."""
    pdf = cards_pdf("bridge", bleed=True)
    lay = layout("a4", bleed=True)
    w, h = CARD_SIZES["poker"]
    boxes = card_boxes(pdf.pages[1], w + 6, h + 6)  # the backs: one dark fill per card
    assert len(boxes) == lay.per_sheet
    trims = {(round(lay.back_slot(i)[0] - 3, 2), round(lay.back_slot(i)[1] - 3, 2)) for i in range(lay.per_sheet)}
    for x, y in boxes:
        assert any(abs(x - tx) <= TOL and abs(y - ty) <= TOL for tx, ty in trims)


def test_fronts_only_prints_no_backs():
    """--fronts-only gives one page per sheet of fronts."""
    pdf = cards_pdf("bridge", fronts_only=True)
    assert len(pdf.pages) == 2  # 14 cards, nine to a sheet


def _ink(pdf: pdfplumber.PDF) -> list[float]:
    """Share of each page covered by ink, from a small grayscale rendering."""
    import pypdfium2

    doc = pypdfium2.PdfDocument(pdf.stream.getvalue() if hasattr(pdf.stream, "getvalue") else pdf.stream.read())
    out = []
    for page in doc:
        img = page.render(scale=20 / 72).to_pil().convert("L")
        histogram = img.histogram()  # 256 bins of grey levels
        total = sum(histogram)
        out.append(1 - sum(level * n for level, n in enumerate(histogram)) / (255 * total))
    return out


def test_ink_saver_leaves_no_large_filled_areas():
    """--ink-saver card sheets use a small fraction of the ink of the normal ones (dark backs and bands gone)."""
    normal = _ink(cards_pdf("bridge"))
    saver = _ink(cards_pdf("bridge", ink_saver=True))
    assert max(saver) < 0.1
    assert normal[1] > 0.4  # the normal backs are dark
    assert sum(saver) < sum(normal) / 4
