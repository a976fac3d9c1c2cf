"""Card-sheet geometry in millimetres: where each card sits, where its back lands in duplex, where to cut."""

from __future__ import annotations

from dataclasses import dataclass

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CARD_SIZES = {"poker": (63.5, 88.9)}
MARK_GAP = 1.0  # mm between a cut mark and the card edge, so no mark prints on a card


@dataclass(frozen=True)
class Layout:
    page_w: float
    page_h: float
    card_w: float
    card_h: float
    cols: int
    rows: int

    @property
    def x0(self) -> float:
        return round((self.page_w - self.cols * self.card_w) / 2, 3)

    @property
    def y0(self) -> float:
        return round((self.page_h - self.rows * self.card_h) / 2, 3)

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def front_slot(self, i: int) -> tuple[float, float]:
        row, col = divmod(i, self.cols)
        return (round(self.x0 + col * self.card_w, 3), round(self.y0 + row * self.card_h, 3))

    def back_slot(self, i: int) -> tuple[float, float]:
        """Long-edge duplex flips the sheet about its vertical axis: a card's back sits in the mirrored column."""
        row, col = divmod(i, self.cols)
        return self.front_slot(row * self.cols + (self.cols - 1 - col))

    def cut_marks(self) -> list[tuple[float, float, float, float]]:
        """Full-length lines in the margins, one per card column edge and row edge (x1, y1, x2, y2)."""
        marks = []
        x_end = self.x0 + self.cols * self.card_w
        y_end = self.y0 + self.rows * self.card_h
        for c in range(self.cols + 1):
            x = round(self.x0 + c * self.card_w, 3)
            marks.append((x, 0.0, x, round(self.y0 - MARK_GAP, 3)))
            marks.append((x, round(y_end + MARK_GAP, 3), x, self.page_h))
        for r in range(self.rows + 1):
            y = round(self.y0 + r * self.card_h, 3)
            marks.append((0.0, y, round(self.x0 - MARK_GAP, 3), y))
            marks.append((round(x_end + MARK_GAP, 3), y, self.page_w, y))
        return marks


def layout(paper: str = "a4", size: str = "poker") -> Layout:
    page_w, page_h = PAPERS[paper]
    card_w, card_h = CARD_SIZES[size]
    return Layout(page_w, page_h, card_w, card_h, 3, 3)


def sheets(fronts: list[dict], back: dict, lay: Layout, with_backs: bool = True) -> list[dict]:
    """Pages of cards: each front sheet followed by its back sheet, every slot placed in mm."""
    pages = []
    for start in range(0, len(fronts), lay.per_sheet):
        batch = fronts[start : start + lay.per_sheet]
        pages.append({
            "face": "front",
            "slots": [{"x": lay.front_slot(i)[0], "y": lay.front_slot(i)[1], "card": card} for i, card in enumerate(batch)],
            "marks": lay.cut_marks(),
        })
        if with_backs:
            pages.append({
                "face": "back",
                "slots": [{"x": lay.back_slot(i)[0], "y": lay.back_slot(i)[1], "card": back} for i in range(len(batch))],
                "marks": [],
            })
    return pages
