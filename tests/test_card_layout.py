"""Card faces as a publisher prints them: the band's colour inside the keyline unless the sheet has bleed, every
text block inside its container with a margin and clear of every other, pictures on the band on their own ground.

The band is read back from the printed PDF (its filled shapes, with pdfplumber); the text blocks from WeasyPrint's
own layout boxes, laid out as they print (tests/cardboxes.py says how their ink and containers are read). Every
example of every registered system is checked at every card size its system declares.
"""

from __future__ import annotations

import html as html_lib
import io
import itertools
import re
from functools import cache

import pdfplumber
import pytest
from cardboxes import (
    APART_MM,
    GAP_MM,
    PICTURE_MM,
    PX_PER_MM,
    SAFE_MM,
    apart,
    blocks,
    drawn,
    outside,
    pictures,
    touching,
)
from conftest import ROOT, examples_by_system
from pdfcheck import MM

from generator.build import Options, choose_seed, compute, load, render_html, to_pdf
from generator.cards import BLEED, CARD_SIZES, layout
from generator.engine import lay_out
from generator.rendering import TEMPLATES
from generator.systems import get, known

EXAMPLES = examples_by_system()
SIZED = [(name, size) for system in known() for name in EXAMPLES.get(system, []) for size in get(system).card_sizes]
ONE_PER_SYSTEM = [EXAMPLES[system][0] for system in known() if EXAMPLES.get(system)]
WHITE = ((1,), (1, 1, 1), [1], [1, 1, 1], (1.0, 1.0, 1.0))


def sheet_html(name: str, size: str, bleed: bool = False):
    scenario = load(ROOT / "scenarios" / f"{name}.yaml")
    options = Options(card_size=size, bleed=bleed)
    pack, sheet = compute(scenario, choose_seed(scenario, None), options)
    return scenario, render_html(scenario, pack, sheet)[1]


@cache
def sheet_pdf(name: str, size: str, bleed: bool) -> bytes:
    scenario, html = sheet_html(name, size, bleed)
    return to_pdf(scenario, html, size)


def band_fills(name: str, size: str, bleed: bool):
    """Each front card's trim (pt) and the coloured fills at its top across most of its width: its band's colour."""
    lay = layout("a4", size, bleed)
    width, height = CARD_SIZES[size]
    pdf = pdfplumber.open(io.BytesIO(sheet_pdf(name, size, bleed)))
    for number in range(0, len(pdf.pages), 2):  # each sheet of fronts, then its backs
        page = pdf.pages[number]
        fills = [
            shape
            for shape in page.rects + page.curves
            if shape.get("fill") and shape.get("non_stroking_color") not in WHITE
        ]
        for slot in range(lay.per_sheet):
            x, y = lay.front_slot(slot)
            trim = (x * MM, y * MM, (x + width) * MM, (y + height) * MM)
            reach = BLEED * MM + 1
            mine = [
                f
                for f in fills
                if f["x0"] >= trim[0] - reach
                and f["x1"] <= trim[2] + reach
                and trim[1] - reach <= f["top"] <= trim[1] + 4 * MM  # at the card's top
                and f["bottom"] <= trim[3] + reach
                and f["width"] >= 0.8 * (trim[2] - trim[0])
                and 3 * MM <= f["height"] < 0.5 * (trim[3] - trim[1])  # a band: not a rule, nor a whole ground
            ]
            yield number + 1, trim, mine


@pytest.mark.parametrize("size", ["poker", "mini"])
@pytest.mark.parametrize("name", ONE_PER_SYSTEM)
def test_without_bleed_the_bands_colour_stays_a_millimetre_or_more_inside_the_trim(name, size):
    """Neighbouring cards' bands do not abut, so a cut half a millimetre off shows no sliver of the neighbour's
    colour, and the keyline shows all round: no band fill comes within 1 mm of the trim (it ran to the trim)."""
    bands, near = 0, []
    for number, trim, fills in band_fills(name, size, False):
        for f in fills:
            bands += 1
            gaps = (f["x0"] - trim[0], f["top"] - trim[1], trim[2] - f["x1"])
            if min(gaps) < 1 * MM:
                near.append((number, [round(g / MM, 2) for g in gaps]))
    assert bands, f"no band found on {name}'s {size} cards"
    assert near == [], near[:6]


@pytest.mark.parametrize("name", ONE_PER_SYSTEM)
def test_with_bleed_every_bands_colour_runs_past_the_trim(name):
    """--bleed is for a print shop's guillotine: each band's colour runs 2.5 mm or more past the trim on the top
    and both sides, so a cut a little off shows colour, never white."""
    bands, short = 0, []
    for number, trim, fills in band_fills(name, "poker", True):
        if fills:
            bands += 1
            f = max(fills, key=lambda shape: shape["width"])  # the colour's widest reach
            past = (trim[0] - f["x0"], trim[1] - f["top"], f["x1"] - trim[2])
            if min(past) < 2.5 * MM:
                short.append((number, [round(p / MM, 2) for p in past]))
    assert bands, f"no band found on {name}'s cards"
    assert short == [], short[:6]


@cache
def card_blocks(name: str, size: str):
    scenario, html = sheet_html(name, size)
    document, unfit = lay_out(html, TEMPLATES)
    assert unfit == []
    return document, blocks(document)


@pytest.mark.parametrize("name,size", SIZED, ids=["-".join(s) for s in SIZED])
def test_every_text_block_keeps_inside_its_container_and_clear_of_the_others(name, size):
    """No text touches the edge of what holds it (the band's colour, a frame, a rule, the keyline) or another
    text of its card: found by a fresh reader as hill-112's numbers on its 'Starts in' line, WarSpike's wrapped
    mini names on the band's foot, Para Bellum's stress numbers on their cells' lines."""
    _, found = card_blocks(name, size)
    assert found, "no text found"
    bad = [
        (b.card, b.text[:30], b.container_name, f"{outside(b):.2f} mm too close") for b in found if outside(b) > 0.005
    ]
    by_card: dict[str, list] = {}
    for b in found:
        by_card.setdefault(b.card, []).append(b)
    for card, texts in by_card.items():
        for a, b in itertools.combinations(texts, 2):
            if touching(a, b, GAP_MM):
                bad.append((card, a.text[:30], b.text[:30], "touch"))
    assert bad == [], bad[:10]


@pytest.mark.parametrize("name,size", SIZED, ids=["-".join(s) for s in SIZED])
def test_every_box_drawn_on_a_face_keeps_a_millimetre_inside_the_keyline(name, size):
    """Issue 11: on mini cards WarSpike's stat box came 0.42 mm from the keyline and Para Bellum's stress cells
    0.25 mm, read as a double line (and a cut a little off closed the gap). Every frame, rule and painted cell
    below the band keeps SAFE_MM of paper inside the keyline's inner edge, as every text does (the test above)."""
    document, _ = card_blocks(name, size)
    found = drawn(document)
    assert found, "no box drawn on the cards"
    bad = sorted({(b.card, b.text, round(SAFE_MM - outside(b), 2)) for b in found if outside(b) > 0.005})
    assert bad == [], bad[:10]


@pytest.mark.parametrize("name,size", SIZED, ids=["-".join(s) for s in SIZED])
def test_every_text_keeps_clear_of_the_boxes_drawn_beside_it(name, size):
    """A fresh read of the mini sheets: WarSpike's "Reaction only" line sat 0.5 mm under the dashed hold-orders
    box, and a full Fireteam Fire card's rules ran down to 0.3 mm over the foot's rule (their box overlapped the
    foot). Every text keeps APART_MM from each frame or rule drawn on its card that it is not inside (a tag or
    a tick box inside a line of text, and a table's own cells, are the text's own)."""
    document, found = card_blocks(name, size)
    beside = [box for box in drawn(document) if not box.text.startswith(("span", "td", "th"))]
    bad = set()
    for text in found:
        for box in beside:
            if box.card == text.card and (gap := apart(text, box)) is not None and gap < APART_MM:
                bad.add((text.card, text.text[:30], box.text, round(gap, 2)))
    assert sorted(bad) == [], sorted(bad)[:10]


ALL_EXAMPLES_WITH_CARDS = sorted({name for name, _ in SIZED})


@pytest.mark.parametrize("name,size", SIZED, ids=["-".join(s) for s in SIZED])
def test_every_text_block_keeps_clear_of_the_cards_pictures(name, size):
    """No text comes within half a millimetre of a badge or marker on its card: a fresh reader found relay-station's
    mini 'Warthog armoured car' 0.4 mm from its side's badge."""
    document, found = card_blocks(name, size)
    drawn = pictures(document)
    assert drawn, "no picture found"
    bad = [
        (text.card, text.text[:30], picture.text)
        for picture in drawn
        for text in found
        if text.card == picture.card and touching(text, picture, PICTURE_MM)
    ]
    assert bad == [], bad[:10]


def _labels(name: str, size: str) -> tuple[set[str], set[bool]]:
    """The words of a sheet's labels (table headers and the side's line), case-folded, and whether each side line
    prints in capitals."""
    _, found = card_blocks(name, size)
    sides = [b for b in found if b.owner is not None and "side" in (b.owner.get("class") or "").split()]
    labels = sides + [b for b in found if b.owner is not None and b.owner.tag == "th"]
    words = {word.casefold() for b in labels for word in re.findall(r"[^\W\d]+", b.text)}
    return words, {b.text == b.text.upper() for b in sides}


@pytest.mark.parametrize("name", ALL_EXAMPLES_WITH_CARDS)
def test_a_cards_labels_are_the_same_words_in_the_same_style_at_every_size(name):
    """A label says the same at every size: a fresh reader found mini Morschauser cards saying "POWER" where poker
    said "BATTLE POWER", and the side's name in capitals on poker but in mixed case on mini cards."""
    sizes = [size for n, size in SIZED if n == name]
    seen = {size: _labels(name, size) for size in sizes}
    every = set().union(*(words for words, _ in seen.values()))
    assert {size: sorted(every - words) for size, (words, _) in seen.items()} == {size: [] for size in sizes}
    assert {size: capitals for size, (_, capitals) in seen.items()} == {size: {True} for size in sizes}


def pictures_without_ground(document) -> list[str]:
    """The pictures drawn over a card's band with no white ground of their own (on themselves or a box around)."""
    from weasyprint.formatting_structure import boxes

    lost: list[str] = []

    def walk(box, grounds: list, band):
        box = getattr(box, "_box", box)  # an absolutely placed box stands behind its placeholder
        classes = (box.element.get("class") or "").split() if box.element is not None else []
        colour = box.style["background_color"]
        if colour is not None and colour.alpha > 0:
            grounds = [*grounds, tuple(colour)[:3]]
        if "trim" in classes:  # a new card: its band, wherever it sits among the card's boxes
            bands = [b for b in box.descendants() if "band" in (b.element.get("class") or "").split()]
            band, grounds = (bands[0] if bands else None), []
        if isinstance(box, boxes.ReplacedBox) and band is not None:
            if box.position_y < band.position_y + band.height and (1, 1, 1) not in grounds:
                lost.append(box.element.get("alt"))
        for child in getattr(box, "children", ()):
            walk(child, grounds, band)

    for page in document.pages:
        walk(page._page_box, [], None)
    return lost


@pytest.mark.parametrize("name,size", [("hill-112", "mini"), ("hill-112", "poker"), ("relay-station", "mini")])
def test_pictures_on_a_band_stand_on_their_own_white_ground(name, size):
    """A badge or unit marker drawn over the band sits on white, so a frame in the side's colour is not lost on a
    band of that colour (the mini Morschauser marker's green frame vanished on the green band)."""
    document, _ = card_blocks(name, size)
    assert pictures_without_ground(document) == []


ALL_EXAMPLES = [name for system in known() for name in EXAMPLES.get(system, [])]


@pytest.mark.parametrize("name", ALL_EXAMPLES)
def test_distances_print_with_a_double_prime_on_the_cards_as_in_the_pack(name):
    """6″, never 6": one formatter (generator/distances.py) prints every distance, so the cards (which printed
    straight marks) and the pack (whose Para Bellum and Fireteam tables did too) agree with the pack's notes.
    Text drawn inside a map (SVG) is the map's own, and left to its tests."""
    scenario = load(ROOT / "scenarios" / f"{name}.yaml")
    pack, sheet = compute(scenario, choose_seed(scenario, None), Options())
    straight, primes = [], 0
    for document in render_html(scenario, pack, sheet):
        document = re.sub(r"<(style|script)\b.*?</\1>", "", document, flags=re.S)
        inner_svg = re.compile(r"<svg\b(?:(?!<svg\b).)*?</svg>", re.S)  # a map's SVG, innermost first
        while inner_svg.search(document):
            document = inner_svg.sub("", document)
        text = html_lib.unescape(re.sub(r"<[^>]*>", " ", document))
        straight += [text[max(0, m.start() - 30) : m.end()] for m in re.finditer(r'\d"', text)]
        primes += len(re.findall("\\d\u2033", text))
    assert straight == [], straight[:6]
    if scenario.system.id in ("fireteam-tomorrow", "para-bellum"):  # their cards and packs print distances
        assert primes > 0


def badges_past_their_band(document, margin_mm: float = 0.5) -> list[tuple[str, float]]:
    """The side badges (their white disc included) that reach past the foot of their card's band as painted (its
    ::before box, not the band's own box, which may be taller), or come within `margin_mm` of it, with how far
    past (mm): a disc cut off by the white body reads as a clipped emblem."""
    px = 96 / 25.4
    out: list[tuple[str, float]] = []
    cards: list[dict] = []

    def walk(box):
        box = getattr(box, "_box", box)  # an absolutely placed box stands behind its placeholder
        classes = (box.element.get("class") or "").split() if box.element is not None else []
        if "trim" in classes:
            cards.append({})
        # the band's colour is painted by its ::before box where it has one (cards.css): that is what a reader sees
        painted = (getattr(box, "element_tag", "") or "").endswith("::before")
        if "band" in classes and cards and painted:
            cards[-1]["band"] = box
        for name in ("band", "badge-big"):
            if name in classes and cards and name not in cards[-1]:
                cards[-1][name] = box
        for child in getattr(box, "children", ()):
            walk(child)

    for page in document.pages:
        walk(page._page_box)
    for found in cards:
        if len(found) < 2:
            continue
        band, badge = found["band"], found["badge-big"]
        foot = band.border_box_y() + band.border_height()
        past = (badge.border_box_y() + badge.border_height() - foot) / px + margin_mm
        if past > 0:
            out.append((badge.element.get("alt"), round(past, 2)))
    return out


@pytest.mark.parametrize("name,size", SIZED, ids=["-".join(s) for s in SIZED])
def test_a_side_badge_sits_inside_its_band(name, size):
    """Issue 11 (a fresh read of the Vesta cards): the Para Bellum band, shorter than the badge in its corner, cut
    the badge's white disc off at its foot. Every card's band is deeper than its badge, at every size."""
    document, _ = card_blocks(name, size)
    assert badges_past_their_band(document) == []


@pytest.mark.parametrize("size", get("para-bellum").card_sizes)
def test_a_command_points_row_keeps_its_boxes_on_one_line(size):
    """Issue 11 (a fresh read of the Para Bellum cards): an HQ's third Command Point box wrapped onto a line of
    its own, under "Command Points [] 1 [] 2". The heading and its boxes are one line: no box number on the line
    under it (the rule "strike off one per order" may be)."""
    width = CARD_SIZES[size][0] - 6  # the card's text column, in mm
    with pdfplumber.open(io.BytesIO(sheet_pdf("vesta-relay", size, False))) as pdf:
        pages = [page.extract_words() for page in pdf.pages]
    rows = 0
    for words in pages:
        for i, word in enumerate(words):
            if word["text"] != "Command" or words[i + 1]["text"] != "Points":
                continue
            rows += 1
            left, top = word["x0"], word["top"]
            on_line = [w for w in words if abs(w["top"] - top) < 2 and left < w["x0"] < left + width * MM]
            below = [w for w in words if 2 <= w["top"] - top <= 1.6 * word["bottom"] - 1.6 * top + 2]
            below = [w for w in below if left - 1 <= w["x0"] < left + width * MM]
            assert sum(w["text"].isdigit() for w in on_line) >= 2, [w["text"] for w in on_line]
            assert not any(w["text"].isdigit() for w in below), [w["text"] for w in below]
    assert rows >= 2  # both sides' HQs


@pytest.mark.parametrize("bleed", [False, True])
@pytest.mark.parametrize("size", ["poker", "mini"])
def test_a_backs_colour_runs_past_the_outer_trims_of_a_home_print_sheet(size, bleed):
    """Issue 11 (a second fresh read): the backs stopped at the outer trims, so a duplex pass a millimetre off
    showed a white sliver at the outer cards' edges. Read from the PDF: the back sheet's colour covers a band of
    OVERPRINT past every outer trim of its backs (with --bleed each back's own 3 mm does it), and the paper beyond
    stays white."""
    from generator.cards import OVERPRINT

    lay = layout("a4", size, bleed)
    width, height = CARD_SIZES[size]
    pdf = pdfplumber.open(io.BytesIO(sheet_pdf("bridge", size, bleed)))
    back = pdf.pages[1]  # the first sheet's backs: a full sheet
    image = back.to_image(resolution=144).original.convert("RGB")
    scale = 144 / 25.4  # pixels per mm

    def colour(x_mm: float, y_mm: float):
        return image.getpixel((int(x_mm * scale), int(y_mm * scale)))

    left = min(lay.back_slot(i)[0] for i in range(lay.per_sheet))
    top = min(lay.back_slot(i)[1] for i in range(lay.per_sheet))
    right = max(lay.back_slot(i)[0] for i in range(lay.per_sheet)) + width
    bottom = max(lay.back_slot(i)[1] for i in range(lay.per_sheet)) + height
    reach = BLEED if bleed else OVERPRINT
    middle_x, middle_y = (left + right) / 2, (top + bottom) / 2
    inside = [colour(left - reach + 0.5, middle_y), colour(right + reach - 0.5, middle_y)]
    inside += [colour(middle_x + 3, top - reach + 0.5), colour(middle_x + 3, bottom + reach - 0.5)]
    ground = colour(left + 1.5, middle_y)  # the back's own colour, inside a card by its frame
    assert all(sum(abs(a - b) for a, b in zip(pixel, ground)) < 30 for pixel in inside), (inside, ground)
    beyond = [colour(left - reach - 1.5, middle_y), colour(right + reach + 1.5, middle_y)]
    assert all(pixel == (255, 255, 255) for pixel in beyond), beyond


@pytest.mark.parametrize("size", ["poker", "mini"])
def test_a_morschauser_unit_card_names_its_starting_square_as_a_square(size):
    """A second fresh read: weissach-bridge's mini Panzer II card said 'A5 AFV (turreted): starts in A5 facing
    east', its map code and its square alike. Every unit card says 'starts in square ...', read from the PDF."""
    from test_card_fit import front_cards

    starts = []
    for _, _trim, chars, _ in front_cards("weissach-bridge", size, "a4", False):  # card by card: columns interleave
        starts += re.findall(r"tarts in (\S+)", " ".join(pdfplumber.utils.extract_text(chars).split()))
    assert len(starts) >= 10 and set(starts) == {"square"}, starts


GROUND_MM = 0.3  # mm of white a unit's marker keeps inside its white ground on the band, on every side

MINI_MORSCHAUSER = [name for name, size in SIZED if size == "mini" and name in EXAMPLES.get("morschauser-modern", [])]


@pytest.mark.parametrize("name", MINI_MORSCHAUSER)
def test_a_units_marker_stands_inside_its_white_ground_on_the_band(name):
    """Issue 11 (a fresh read of the mini cards): the side's shape at the corner of a Morschauser unit's marker hung
    over its white ground onto the band, green on green: the marker stood at the ground's very corner, the padding
    never applied to an absolutely placed picture. Each marker lies inside its ground with GROUND_MM of white
    round it."""
    from weasyprint.formatting_structure import boxes

    document, _ = card_blocks(name, "mini")
    found = []

    def walk(box, ground=None):
        box = getattr(box, "_box", box)  # an absolutely placed box stands behind its placeholder
        classes = (box.element.get("class") or "").split() if box.element is not None else []
        if "mm-head" in classes and box.element_tag == "div":
            x, y = box.padding_box_x(), box.padding_box_y()
            ground = (x, y, x + box.padding_width(), y + box.padding_height())
        if isinstance(box, boxes.ReplacedBox) and "mm-marker" in classes:
            x, y = box.border_box_x(), box.border_box_y()
            marker = (x, y, x + box.border_width(), y + box.border_height())
            found.append(
                min(marker[0] - ground[0], marker[1] - ground[1], ground[2] - marker[2], ground[3] - marker[3])
            )
        for child in getattr(box, "children", []):
            walk(child, ground)

    for page in document.pages:
        walk(page._page_box)
    assert found, "no unit marker found"
    assert min(found) / (96 / 25.4) >= GROUND_MM


@pytest.mark.parametrize("size", ["mini", "poker", "tarot"])
def test_a_role_markers_text_stands_as_far_inside_its_frame_on_every_size(size):
    """Issue 11 (stop 40's reads): on a mini card the Retaliator marker's text ran to 1 mm (3 pt) from the inner
    line of its double frame, the least any text keeps from a keyline, where on a poker card it keeps 2 mm: read
    as text squeezed against the frame. Every line of both markers keeps 2 mm of paper inside its frame's inner
    edge on every card size."""
    _, found = card_blocks("warspike-bridge-race", size)
    cards = {b.card for b in found if b.text.startswith("Role marker")}
    assert len(cards) == 2, "not both role markers on the sheet"
    clear = {
        card: min(min(b.ink[0] - b.container[0], b.container[2] - b.ink[2]) for b in found if b.card == card)
        for card in cards
    }
    assert {card: round(px / PX_PER_MM, 2) for card, px in clear.items() if px / PX_PER_MM < 1.95} == {}


MINI = [(name, size) for name, size in SIZED if size == "mini"]


@pytest.mark.parametrize("name,size", MINI, ids=["-".join(s) for s in MINI])
def test_a_mini_cards_band_keeps_its_text_as_far_from_its_foot_as_from_its_left(name, size):
    """Issue 11 (stop 40's reads): the Ford's mini "Slingers of the western hills" wrapped to a second line that
    stood 0.8 mm off the band colour's foot, where the band's text keeps 1.1 mm from the colour's left edge. Every
    text of a mini card's band keeps 1 mm or more (its ink, descenders included) above the colour's foot."""
    _, found = card_blocks(name, size)
    band = [b for b in found if b.container_name.endswith("band")]
    assert band, "no text in any band"
    close = {(b.card, b.text): round((b.container[3] - b.ink[3]) / PX_PER_MM, 2) for b in band}
    assert {key: mm for key, mm in close.items() if mm < 1.0} == {}
