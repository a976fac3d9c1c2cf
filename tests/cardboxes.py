"""Reading a card sheet's layout boxes (WeasyPrint's, as printed): each card's text blocks, where their ink lies,
and what holds them, so that a test can say which text touches another or leaves its container.

A text block is the element whose lines hold the text (a paragraph, a table cell, a name). Its ink is estimated
from each line's baseline and type size: capitals and ascenders reach about 0.72 em above the baseline in the
bundled faces (Source Sans 3 and Source Serif 4), descenders about 0.22 em below it; a text box's own height is
its line's whole content area, which overlaps the next line's by design and so cannot say whether glyphs touch.

A block's container is the nearest box around it that a reader sees as its frame: the painted part of a card's
coloured band (inside the keyline, or past the trim with bleed), a box with a border or a background of its own,
else the card's keyline (a front) or frame (a back).
"""

from __future__ import annotations

from dataclasses import dataclass

PX_PER_MM = 96 / 25.4
ASCENT, DESCENT = 0.72, 0.22  # em: the ink above and below the baseline in the bundled faces
EDGE_MM = 0.5  # mm of colour between text and a band's edge: a reader sees a margin
SAFE_MM = 1.0  # mm of paper between the keyline's inner edge and anything drawn inside it (cards.css: --safe)
FRAME_MM = 0.2  # mm between text and a frame or rule drawn around or across it: the two never touch
GAP_MM = 0.2  # mm between the inks of two text blocks of one card
PICTURE_MM = 1.0  # mm between text and a picture (a badge's white disc, a marker) on its card
APART_MM = 0.5  # mm between text and a box drawn beside it (a frame or rule it is not inside)


@dataclass
class Block:
    """One text block of a card: its text, its ink's rectangle and its container's inner rectangle (px)."""

    card: str  # page number and the card's place on it, for a message
    text: str
    ink: tuple[float, float, float, float]
    container: tuple[float, float, float, float]
    container_name: str
    margins: tuple[float, float, float, float] = (
        0,
        0,
        0,
        0,
    )  # mm the ink keeps from each side: left, top, right, bottom
    owner: object = None  # the element whose lines hold the text


def _classes(box) -> list[str]:
    element = box.element
    if element is None:
        return []
    return (element.get("class") or "").split()


def _inner(box) -> tuple[float, float, float, float]:
    """A box's rectangle inside its border (its padding box)."""
    x, y = box.border_box_x() + box.border_left_width, box.border_box_y() + box.border_top_width
    return (x, y, x + box.padding_width(), y + box.padding_height())


def _borders(box) -> set[str]:
    """The sides on which a box draws a border."""
    style = box.style
    return {
        side
        for side in ("top", "right", "bottom", "left")
        if style[f"border_{side}_width"] and style[f"border_{side}_style"] not in ("none", "hidden")
    }


def _painted(box) -> bool:
    background = box.style["background_color"]
    return background is not None and background.alpha > 0


SIDES = ("left", "top", "right", "bottom")


def _container(ancestors: list) -> tuple[tuple[float, float, float, float], str, tuple[float, ...]]:
    """The inner rectangle the block's ink must keep inside: each side from the nearest box around it that draws
    that side (a rule above a foot bounds only its top), the rest from the nearest whole frame."""
    limits: dict[str, float] = {}
    margins: dict[str, float] = {}
    names: list[str] = []
    for box in reversed(ancestors):
        classes = _classes(box)
        tag = box.element_tag or ""
        frame = None
        if "band" in classes:
            painted = [c for c in getattr(box, "children", []) if (c.element_tag or "").endswith("::before")]
            frame = painted[0] if painted else None
            name = "band"
        elif "trim" in classes:
            rings = [c for c in box.descendants() if {"keyline", "frame"} & set(_classes(c))]
            frame, name = (rings[0] if rings else box), "keyline"
        elif "card" not in classes and not tag.endswith(("::before", "::marker")):
            sides = _borders(box)
            if len(sides) == 4 or _painted(box):
                frame, name = box, ".".join([tag, *classes])
            elif sides:
                inner = dict(zip(SIDES, _inner(box)))
                for side in sides:
                    limits.setdefault(side, inner[side])
                    margins.setdefault(side, FRAME_MM)
                names.append(f"{'.'.join([tag, *classes])} ({'/'.join(sorted(sides))} rule)")
        if frame is not None:
            inner = dict(zip(SIDES, _inner(frame)))
            for side in SIDES:
                limits.setdefault(side, inner[side])
                margins.setdefault(side, {"band": EDGE_MM, "keyline": SAFE_MM}.get(name, FRAME_MM))
            return tuple(limits[side] for side in SIDES), " in ".join([*names, name]), tuple(margins[s] for s in SIDES)
    raise AssertionError("a text block outside any card")


def blocks(document) -> list[Block]:
    """Every text block of every card of a laid-out card sheet (weasyprint.document.Document)."""
    from weasyprint.formatting_structure import boxes

    found: list[Block] = []
    by_owner: dict[int, Block] = {}

    def walk(box, ancestors: list, card: str):
        classes = _classes(box)
        if "trim" in classes:
            card = f"{card} card at {box.position_x / PX_PER_MM:.0f},{box.position_y / PX_PER_MM:.0f} mm"
        if isinstance(box, boxes.LineBox):
            # a block is an element's text, whatever boxes it is laid out in: a list item's bullet (::marker) and
            # its words (an anonymous box beside the marker) are one item
            owner = ancestors[-1].element
            texts = [t for t in box.descendants() if isinstance(t, boxes.TextBox) and t.text.strip()]
            if texts:
                ink = _ink(texts)
                text = "".join(t.text for t in texts).strip()
                if id(owner) in by_owner:
                    block = by_owner[id(owner)]
                    block.ink = _union(block.ink, ink)
                    block.text += " " + text
                else:
                    container, name, margins = _container(ancestors)
                    by_owner[id(owner)] = Block(card, text, ink, container, name, margins, owner)
                    found.append(by_owner[id(owner)])
            return
        for child in getattr(box, "children", []):
            walk(child, [*ancestors, box], card)

    for number, page in enumerate(document.pages, 1):
        walk(page._page_box, [], f"page {number}")
    return found


def pictures(document) -> list[Block]:
    """Every picture of every card (a badge, a unit's marker), as a block whose ink is its whole box: a badge's
    white ground is its padding, which a reader sees as the badge's edge."""
    from weasyprint.formatting_structure import boxes

    found: list[Block] = []

    def walk(box, card: str):
        box = getattr(box, "_box", box)  # an absolutely placed box stands behind its placeholder
        if "trim" in _classes(box):
            card = f"{card} card at {box.position_x / PX_PER_MM:.0f},{box.position_y / PX_PER_MM:.0f} mm"
        if isinstance(box, boxes.ReplacedBox):
            x, y = box.border_box_x(), box.border_box_y()
            rect = (x, y, x + box.border_width(), y + box.border_height())
            found.append(Block(card, f"picture {box.element.get('alt') or ''}".strip(), rect, rect, "picture"))
        for child in getattr(box, "children", []):
            walk(child, card)

    for number, page in enumerate(document.pages, 1):
        walk(page._page_box, f"page {number}")
    return found


def drawn(document) -> list[Block]:
    """Every box drawn on a card's face below its band (a frame, a rule, a painted cell: any box with a border or a
    background of its own, not the card's band, badge or keyline), as a block whose ink is its border box and whose
    container is the keyline's inner edge, SAFE_MM in."""
    from weasyprint.formatting_structure import boxes

    found: list[Block] = []
    skip = {"card", "trim", "band", "keyline", "frame", "badge-big", "backing"}

    def walk(box, keyline, card: str):
        box = getattr(box, "_box", box)  # an absolutely placed box stands behind its placeholder
        classes = set(_classes(box))
        if "trim" in classes:
            rings = [c for c in box.descendants() if "keyline" in _classes(c)]
            keyline = _inner(rings[0]) if rings else None
            card = f"{card} card at {box.position_x / PX_PER_MM:.0f},{box.position_y / PX_PER_MM:.0f} mm"
        if "band" in classes:
            return  # the band has its own margins (a back has no keyline, so nothing of it is found)
        tag = box.element_tag or ""
        if keyline and not classes & skip and not tag.endswith(("::before", "::marker")):
            if not isinstance(box, boxes.TextBox) and (_borders(box) or _painted(box)):
                x, y = box.border_box_x(), box.border_box_y()
                rect = (x, y, x + box.border_width(), y + box.border_height())
                found.append(Block(card, ".".join([tag, *sorted(classes)]), rect, keyline, "keyline", (SAFE_MM,) * 4))
        for child in getattr(box, "children", []):
            walk(child, keyline, card)

    for number, page in enumerate(document.pages, 1):
        walk(page._page_box, None, f"page {number}")
    return found


def _ink(texts) -> tuple[float, float, float, float]:
    rects = []
    for t in texts:
        size = t.style["font_size"]
        baseline = t.position_y + t.baseline
        rects.append((t.position_x, baseline - ASCENT * size, t.position_x + t.width, baseline + DESCENT * size))
    out = rects[0]
    for r in rects[1:]:
        out = _union(out, r)
    return out


def _union(a, b):
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def outside(block: Block) -> float:
    """How far (mm) the block's ink comes closer to its container's inner edge than its margin (0 when clear)."""
    m = [margin * PX_PER_MM for margin in block.margins]
    ink, box = block.ink, block.container
    worst = max(box[0] + m[0] - ink[0], box[1] + m[1] - ink[1], ink[2] - (box[2] - m[2]), ink[3] - (box[3] - m[3]))
    return max(0.0, worst / PX_PER_MM)


def apart(text: Block, box: Block) -> float:
    """How far (mm) a text's ink lies from a drawn box's edge, when the text is not inside the box (0 if they
    meet); None when the text is inside it (its container's margins measure that)."""
    t, b = text.ink, box.ink
    slack = 0.5  # px: an ink estimate a hair past its own frame is still inside it
    if t[0] >= b[0] - slack and t[1] >= b[1] - slack and t[2] <= b[2] + slack and t[3] <= b[3] + slack:
        return None
    dx, dy = max(b[0] - t[2], t[0] - b[2], 0), max(b[1] - t[3], t[1] - b[3], 0)
    return (dx * dx + dy * dy) ** 0.5 / PX_PER_MM


def touching(a: Block, b: Block, gap_mm: float) -> bool:
    """Whether two blocks' inks come closer than `gap_mm` (mm) on both axes."""
    g = gap_mm * PX_PER_MM
    return a.ink[0] < b.ink[2] + g and b.ink[0] < a.ink[2] + g and a.ink[1] < b.ink[3] + g and b.ink[1] < a.ink[3] + g
