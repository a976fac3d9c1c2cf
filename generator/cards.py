"""Card-sheet geometry in millimetres: where each card sits, where its back lands in duplex, where to cut."""

from __future__ import annotations

from dataclasses import dataclass

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CARD_SIZES = {"poker": (63.5, 88.9), "mini": (44.0, 67.0), "tarot": (70.0, 120.0)}
BLEED = 3.0  # mm of background beyond the trim line, what print shops ask for
MARK_GAP = 1.0  # mm between a cut mark and the nearest card or bleed edge, so no mark prints on a card
MIN_MARK = 3.0  # mm: the shortest cut mark still worth drawing; it decides how many cards fit a sheet
MARK_LONG = 10.0  # mm: the longest a mark in the margin runs (not across a last sheet's empty half)
PRINTABLE = 5.0  # mm most home and office printers leave bare at the paper's edge (3 to 5 mm)
# mm of a back's colour printed past the outer trims of a home-print sheet's backs (no bleed): a duplex pass that
# lands a little off shows colour at a card's edge, not a white sliver (with --bleed each back has its own 3 mm)
OVERPRINT = 2.0
NOTE_ROOM = 17.0  # mm above a counter sheet's first row: a line of note, then its cut marks (MARK_LONG and a gap)


@dataclass(frozen=True)
class Layout:
    """One sheet's grid of cards, centred on the page, with optional bleed and a duplex back offset."""

    page_w: float
    page_h: float
    card_w: float
    card_h: float
    cols: int
    rows: int
    bleed: float = 0.0
    duplex: str = "long"  # long: flip on the long edge (backs mirror columns); short: rows
    back_offset: tuple[float, float] = (0.0, 0.0)

    @property
    def pitch_x(self) -> float:
        """From one card's left trim to the next: with bleed each card keeps its own background margin."""
        return self.card_w + 2 * self.bleed

    @property
    def pitch_y(self) -> float:
        return self.card_h + 2 * self.bleed

    @property
    def x0(self) -> float:
        """Left trim of the first column."""
        return round((self.page_w - self.cols * self.pitch_x) / 2 + self.bleed, 3)

    @property
    def y0(self) -> float:
        return round((self.page_h - self.rows * self.pitch_y) / 2 + self.bleed, 3)

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def front_slot(self, i: int) -> tuple[float, float]:
        """The trim rectangle's top-left corner of slot i, counted across then down."""
        row, col = divmod(i, self.cols)
        return (round(self.x0 + col * self.pitch_x, 3), round(self.y0 + row * self.pitch_y, 3))

    def back_slot(self, i: int) -> tuple[float, float]:
        """Where slot i's back is printed so that it lands behind its front.

        Long-edge duplex flips the sheet about its vertical axis, so a back sits in the mirrored
        column; short-edge duplex flips it about the horizontal axis, so in the mirrored row. The
        back offset (measured on the calibration sheet) then moves every back by the same amount.
        """
        row, col = divmod(i, self.cols)
        if self.duplex == "long":
            x, y = self.front_slot(row * self.cols + (self.cols - 1 - col))
        else:
            x, y = self.front_slot((self.rows - 1 - row) * self.cols + col)
        dx, dy = self.back_offset
        return (round(x + dx, 3), round(y + dy, 3))

    def backing(self, count: int) -> list[tuple[float, float, float, float]]:
        """Rectangles (x, y, width, height) of back colour under the first `count` backs, each OVERPRINT larger
        than its card on every side: past the outer trims it is waste cut away, between two cards it lies under
        them. None with bleed, where every back already prints 3 mm past its trim."""
        if self.bleed:
            return []
        out = []
        for i in range(count):
            x, y = self.back_slot(i)
            out.append(
                (
                    round(x - OVERPRINT, 3),
                    round(y - OVERPRINT, 3),
                    round(self.card_w + 2 * OVERPRINT, 3),
                    round(self.card_h + 2 * OVERPRINT, 3),
                )
            )
        return out

    def cut_marks(self, count: int | None = None) -> list[tuple[float, float, float, float]]:
        """Lines (x1, y1, x2, y2) at every trim edge of the columns and rows that hold one of `count` cards (a
        sheet's worth by default; no marks for a last sheet's empty places), full-length in the margins. A
        printer that cannot print near the paper's edge (most leave 3 to 5 mm bare) loses the margins' ends: with
        bleed, where the margin's marks would print less than MIN_MARK of themselves inside PRINTABLE, a tick in
        the waste between each two neighbouring cards marks those cuts as well. Nowhere else: a tick lies on the
        cards' coloured bleed, and a cut more than a millimetre off shows a nick of it."""
        count = self.per_sheet if count is None else count
        cols, rows = min(count, self.cols), -(-count // self.cols)
        lefts = [round(self.x0 + c * self.pitch_x, 3) for c in range(cols)]
        tops = [round(self.y0 + r * self.pitch_y, 3) for r in range(rows)]
        edges_x = sorted({round(x + d, 3) for x in lefts for d in (0.0, self.card_w)})
        edges_y = sorted({round(y + d, 3) for y in tops for d in (0.0, self.card_h)})
        top = round(self.y0 - self.bleed - MARK_GAP, 3)
        bottom = round(tops[-1] + self.card_h + self.bleed + MARK_GAP, 3)
        left = round(self.x0 - self.bleed - MARK_GAP, 3)
        right = round(lefts[-1] + self.card_w + self.bleed + MARK_GAP, 3)
        # each outer mark runs from just off the cards towards the paper's edge, at most MARK_LONG of it
        up, down = max(0.0, top - MARK_LONG), min(self.page_h, bottom + MARK_LONG)
        back, on = max(0.0, left - MARK_LONG), min(self.page_w, right + MARK_LONG)
        up, down, back, on = (round(v, 3) for v in (up, down, back, on))
        marks = []
        for x in edges_x:
            marks += [(x, up, x, top), (x, bottom, x, down)]
        for y in edges_y:
            marks += [(back, y, left, y), (right, y, on, y)]
        if self.bleed:
            # the strip between two cards' trims is both cards' bleed, cut away: a tick there marks each cut
            if top - max(up, PRINTABLE) < MIN_MARK:  # the vertical cuts' marks lie in the paper's bare edge
                for y in tops[1:]:
                    above, below = round(y - 2 * self.bleed + MARK_GAP, 3), round(y - MARK_GAP, 3)
                    marks += [(x, above, x, below) for x in edges_x]
            if left - max(back, PRINTABLE) < MIN_MARK:  # and the horizontal cuts'
                for x in lefts[1:]:
                    before, after = round(x - 2 * self.bleed + MARK_GAP, 3), round(x - MARK_GAP, 3)
                    marks += [(before, y, after, y) for y in edges_y]
        return marks


def _fit(page: float, card: float, bleed: float) -> int:
    """How many cards fit across, leaving room for a readable cut mark on both sides."""
    room = page - 2 * (MIN_MARK + MARK_GAP)
    return int(room // (card + 2 * bleed))


def layout(
    paper: str = "a4",
    size: str = "poker",
    bleed: bool = False,
    duplex: str = "long",
    back_offset: tuple[float, float] = (0.0, 0.0),
) -> Layout:
    """The sheet for a paper and card size: as many cards as fit with cut marks in the margins.

    Poker cards come 3 x 3 on A4 and Letter, minis 4 x 4, tarot 2 x 2; with bleed each card keeps
    its own 3 mm of background, so fewer fit.
    """
    page_w, page_h = PAPERS[paper]
    card_w, card_h = CARD_SIZES[size]
    b = BLEED if bleed else 0.0
    cols, rows = _fit(page_w, card_w, b), _fit(page_h, card_h, b)
    if not cols or not rows:
        raise ValueError(f"{size} cards do not fit on {paper}")
    return Layout(page_w, page_h, card_w, card_h, cols, rows, b, duplex, back_offset)


def square_layout(
    paper: str, side: float, bleed: bool = False, duplex: str = "long", back_offset: tuple[float, float] = (0.0, 0.0)
) -> Layout:
    """A sheet of square counters `side` mm across, laid out as cards are: as many as fit with cut marks."""
    page_w, page_h = PAPERS[paper]
    b = BLEED if bleed else 0.0
    # the rows that leave NOTE_ROOM above and below: the sheet's note prints over the top marks' ends
    rows = max(1, int((page_h - 2 * NOTE_ROOM) // (side + 2 * b)))
    return Layout(page_w, page_h, side, side, _fit(page_w, side, b), rows, b, duplex, back_offset)


def sheets(fronts: list[dict], back: dict, layout: Layout, with_backs: bool = True) -> list[dict]:
    """Pages of cards: each front sheet followed by its back sheet, every slot placed in mm."""
    pages = []
    for number, start in enumerate(range(0, len(fronts), layout.per_sheet), 1):
        batch = fronts[start : start + layout.per_sheet]
        pages.append(
            {
                "face": "front",
                "number": number,
                "slots": [
                    {"x": layout.front_slot(i)[0], "y": layout.front_slot(i)[1], "card": card}
                    for i, card in enumerate(batch)
                ],
                "marks": layout.cut_marks(len(batch)),
                "backing": [],
            }
        )
        if with_backs:
            pages.append(
                {
                    "face": "back",
                    "number": number,
                    "slots": [
                        {"x": layout.back_slot(i)[0], "y": layout.back_slot(i)[1], "card": back}
                        for i in range(len(batch))
                    ],
                    "marks": [],
                    "backing": layout.backing(len(batch)),
                }
            )
    return pages
