"""Text that must fit its box, fitted by the engine that prints it: wrap, then shrink, never below a smallest size.

A template marks an element that must fit with `data-fit-lines` (the lines it may take; 0 for "as many as its
box holds"), optionally `data-fit-min` (the smallest size in pt, 7 unless told), `data-fit-path` (the
scenario key its text comes from, so that text which cannot fit is reported at its line and column; with
`data-fit-what` and `data-fit-fix` where the text is more than one name: how the message names it and what it
tells the writer to do) and `data-fit-group` (texts of one group end at one size, the smallest any of them needed: every Fire card's rules). The box
is the element's own CSS box: its width, and its height when the CSS fixes one (top and bottom, or height); when
the box around it has a fixed height (a card's band), the text must also end inside that box's content.

fit() lays the whole document out once with WeasyPrint, walks every page box's descendants for the marked
elements, and finds each one whose text runs past its box's width or height or takes more lines than allowed.
It then lowers all of their sizes at once (estimated from how far each overflows, in quarter points) and lays
the document out again, until everything fits or what still overflows is at its smallest size. A document
whose text all fits costs no extra layout: the measuring layout is the one that is printed.

A card sheet marks each card as a unit (`data-fit-unit=""` on its box, UNIT_END after it): nothing outside a card
moves what is inside it, so a round lays out only the cards that hold what still overflows, and the document is
laid out whole once more at the end, as it prints. Searching how much of a name fits does the same, one card for
each set of cards printing the same name in the same box.

What it costs (card sheets alone, on a loaded 2-core machine): relay-station poker 1.5 s -> 2.0 s (one more
layout), hill-112 poker 2.1 s -> 4.2 s, warspike-hold-the-ford poker 0.8 s -> 5.7 s (several rounds: each round
steps what still overflows down by at least a quarter point; measured before rounds laid out only their cards).
Fewer rounds (a bigger last step, or sizing from each element's own measure in one go) is the next saving.
"""

from __future__ import annotations

import html as html_lib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

MARK = "data-fit-lines="
# a box whose inside nothing outside it moves (a card), from its tag to the comment after its end: a step of the
# fitting may lay out only some of them
UNIT, UNIT_END = "data-fit-unit", "<!--/data-fit-unit-->"
MIN_PT = 7.0
STEP_PT = 0.25  # sizes are chosen in quarter points
PX_PER_PT = 96 / 72
SLACK_PX = 0.25  # px (0.07 mm): a rounding error of the layout is not an overflow
MAX_ROUNDS = 8
MATCH_PASSES = 3  # the rounds, then the groups' sizes matched: again while matching leaves a text over its box
SEARCHED = 24  # the most names searched at once for how much of each fits (see _longest_prefixes)


@dataclass
class Measure:
    """One marked element as laid out: its size, its box and how much its text needs."""

    id: int
    size_pt: float
    min_pt: float
    lines_allowed: int
    lines: int
    box_width: float  # px, the content box
    box_height: float | None  # px when the CSS fixes the height, else None
    widest: float  # px, the widest line's right edge from the content box's left
    bottom: float  # px, the last line's bottom from the content box's top
    text_width: float  # px, every line's width added up
    text: str = ""  # the element's text, for a message
    path: str = ""  # data-fit-path: the scenario key its text comes from
    what: str = ""  # data-fit-what: how a message names it, where its text is not one name (a unit's card body)
    fix: str = ""  # data-fit-fix: what a message tells the writer to do, where not to shorten it
    scope: tuple = ()  # the box of fixed height it sits in (page, left, top): texts of two scopes cannot meet
    unit: int | None = None  # the data-fit-unit it lies in (its card), if any

    @property
    def fits(self) -> bool:
        if self.widest > self.box_width + SLACK_PX:
            return False
        if self.lines_allowed and self.lines > self.lines_allowed:
            return False
        return self.box_height is None or self.bottom <= self.box_height + SLACK_PX

    def smaller(self) -> float:
        """A size that should fit, from how far the text overflows, at least a quarter point below today's."""
        ratio = 1.0
        if self.widest > self.box_width:
            ratio = min(ratio, self.box_width / self.widest)
        if self.lines_allowed and self.lines > self.lines_allowed:
            # wrapping leaves a ragged edge: count 90% of each allowed line as usable
            ratio = min(ratio, (self.lines_allowed * self.box_width * 0.9 / max(self.text_width, 1)))
        if self.box_height is not None and self.bottom > self.box_height:
            # area goes with the square of size; a text pushed below its band's foot by one above has no room
            ratio = min(ratio, (max(self.box_height, 0.0) / self.bottom) ** 0.5)
        size = int(self.size_pt * ratio / STEP_PT) * STEP_PT
        return max(self.min_pt, min(size, self.size_pt - STEP_PT))


@dataclass(frozen=True)
class Unfit:
    """A marked element whose text does not fit even at its smallest size."""

    path: str  # the scenario key its text came from ("" when it comes from the rule data or Muster itself)
    text: str
    min_pt: float
    longest: int  # how many of its first characters do fit at the smallest size (-1 when not worked out)
    what: str = ""  # how a message names it, where its text is more than a name ("the card of 'Picket Section'")
    fix: str = ""  # what a message tells the writer to do, where not simply to shorten it

    @classmethod
    def of(cls, m: Measure, longest: int = -1) -> Unfit:
        return cls(m.path, m.text, m.min_pt, longest, m.what, m.fix)


def number(html: str) -> str:
    """Give every marked element an id (data-fit-id) so that sizes and measures can name it, and every unit (a
    data-fit-unit="" attribute) a number."""
    # only in a tag: an attribute's value opens with a quote, which the page's text holds only as &#34; (a team
    # called 'data-fit-lines=3' once had an id written into its name)
    counter = iter(range(1, 1 << 30))
    html = re.sub(re.escape(MARK) + '(?=")', lambda _: f'data-fit-id="{next(counter)}" {MARK}', html)
    units = iter(range(1, 1 << 30))
    return re.sub(f'{UNIT}=""', lambda _: f'{UNIT}="{next(units)}"', html)


def _only(html: str, units: set[int]) -> str:
    """The document with every unit but these left out (each unit runs from its tag to the UNIT_END after it): a
    step that measures a few cards reads and lays out those cards, not the whole sheet of them (the other cards
    cannot move what is inside these)."""

    def keep(match: re.Match) -> str:
        return match.group(0) if int(match.group(1)) in units else ""

    return re.sub(rf'<[^<>]*\b{UNIT}="(\d+)".*?{re.escape(UNIT_END)}', keep, html, flags=re.S)


def _attr(element, name: str, default: str = "") -> str:
    value = element.get(name)
    return default if value is None else value


def measure(document) -> dict[int, Measure]:
    """Every marked element of a laid-out WeasyPrint document (weasyprint.document.Document) as laid out."""
    from weasyprint.formatting_structure import boxes

    found: dict[int, Measure] = {}

    def walk(box, parent, scope, unit):
        box = getattr(box, "_box", box)  # an absolutely placed box stands behind its placeholder (layout/absolute.py)
        element = box.element
        if element is not None and not isinstance(box, (boxes.LineBox, boxes.TextBox)):
            ident = element.get("data-fit-id")
            if ident is not None and int(ident) not in found and isinstance(box, boxes.BlockContainerBox):
                found[int(ident)] = _measure_box(box, int(ident), element, parent)
                found[int(ident)].scope = scope
                found[int(ident)].unit = unit
            elif isinstance(box, boxes.BlockContainerBox) and _fixed(box):
                scope = (scope[0], round(box.position_x, 2), round(box.position_y, 2))
            if element.get(UNIT):
                unit = int(element.get(UNIT))
        if not isinstance(box, boxes.LineBox):  # a marked element is a block: none inside a line
            for child in getattr(box, "children", ()):
                walk(child, box, scope, unit)

    for number_, page in enumerate(document.pages):
        walk(page._page_box, None, (number_,), None)
    return found


def _fixed(box) -> bool:
    """Whether the CSS fixes the box's height (a height, or both top and bottom)."""
    return box.style["height"] != "auto" or (box.style["top"] != "auto" and box.style["bottom"] != "auto")


def _measure_box(box, ident: int, element, parent=None) -> Measure:
    from weasyprint.formatting_structure import boxes

    left, top = box.content_box_x(), box.content_box_y()
    lines = widest = bottom = text_width = 0.0
    count = 0
    for child in box.descendants(placeholders=True):
        if isinstance(child, boxes.LineBox):
            texts = [t for t in child.descendants() if isinstance(t, boxes.TextBox) and t.text.strip()]
            if not texts:
                continue
            count += 1
            right = max(t.position_x + t.width for t in texts)
            start = min(t.position_x for t in texts)
            widest = max(widest, right - left)
            text_width += right - start
            bottom = max(bottom, child.position_y + child.height - top)
    lines = count
    height = box.height if _fixed(box) else None
    if parent is not None and _fixed(parent) and isinstance(parent, boxes.BlockContainerBox):
        # the text must also end inside a box of fixed height around it (a name in the card's band): a name that
        # wraps to a second line shrinks until that line ends above the band's foot, not across it
        room = parent.content_box_y() + parent.height - top - box.padding_bottom - box.border_bottom_width
        height = room if height is None else min(height, room)
    return Measure(
        id=ident,
        size_pt=box.style["font_size"] / PX_PER_PT,
        min_pt=float(_attr(element, "data-fit-min", str(MIN_PT))),
        lines_allowed=int(_attr(element, "data-fit-lines", "0")),
        lines=lines,
        box_width=box.width,
        box_height=height,
        widest=widest,
        bottom=bottom,
        text_width=text_width,
        text=" ".join(" ".join(element.itertext()).split()),
        path=_attr(element, "data-fit-path"),
        what=_attr(element, "data-fit-what"),
        fix=_attr(element, "data-fit-fix"),
    )


def _with_sizes(html: str, sizes: dict[int, float]) -> str:
    """The document with one style rule per shrunk element, after every other stylesheet so that it wins."""
    if not sizes:
        return html
    rules = "".join(f'[data-fit-id="{i}"]{{font-size:{size:g}pt !important}}' for i, size in sorted(sizes.items()))
    style = f'<style data-fit="sizes">{rules}</style>'
    return html.replace("</head>", style + "</head>", 1) if "</head>" in html else style + html


def _with_prefixes(html: str, prefixes: dict[int, int]) -> str:
    """The document with each named element's text cut to its first n characters (the elements hold only text)."""

    def cut(match: re.Match) -> str:
        n = prefixes[int(match.group(2))]
        return match.group(1) + html_lib.escape(html_lib.unescape(match.group(3))[:n], quote=False) + "<"

    ids = "|".join(str(i) for i in prefixes)
    pattern = rf'(<[^<>]*data-fit-id="({ids})"[^<>]*>)([^<]*)<'
    return re.sub(pattern, cut, html)


def _texts(html: str, ids) -> dict[int, tuple[str, str]]:
    """Each element's source path and its text (for the elements that hold only text)."""
    out = {}
    # only text up to its own end tag: a box holding other elements (a card's body) is not one text to cut
    for match in re.finditer(r'<[^<>]*data-fit-id="(\d+)"([^<>]*)>([^<]*)</', html):
        ident = int(match.group(1))
        if ident in ids:
            path = re.search(r'data-fit-path="([^"]*)"', match.group(2))
            out[ident] = (html_lib.unescape(path.group(1)) if path else "", html_lib.unescape(match.group(3)))
    return out


def fit(html: str, layout: Callable[[str], object], prefixes: bool = True) -> tuple[object, str, list[Unfit]]:
    """Lay out `html` with `layout` (HTML text -> laid-out WeasyPrint document) so that every marked text fits.

    Returns the final laid-out document (print it), the fitted HTML, and the marked texts that do not fit even
    at their smallest size, each with the longest prefix that does (worked out only for texts with a path, and
    only when `prefixes` is asked for: else every one is reported, with -1).
    """
    base = number(html)
    sizes: dict[int, float] = {}
    document = layout(base)
    measures = measure(document)
    every = base.count(f'{UNIT}="')  # how many units there are
    groups = _groups(base)
    # the shrinking rounds, then the groups brought to one size and the whole measured again; where that shows a
    # text over its box once more, the rounds go on from there: a text that fitted at 11.5 pt overflowed when its
    # group's 10 pt made its neighbours in the card smaller and its own box narrower (a tarot Move card printed
    # alone on a page), and was reported as too long at a size that still had room to shrink
    for _ in range(MATCH_PASSES):
        stale = False  # whether `document` was laid out before the latest sizes
        for round_ in range(MAX_ROUNDS + 1):
            over = [m for m in measures.values() if not m.fits and m.size_pt > m.min_pt + 1e-6]
            if not over:
                break
            for m in over:
                if round_ == MAX_ROUNDS:  # out of rounds: the smallest size, so that "even at N pt" is true
                    sizes[m.id] = m.min_pt
                elif round_ and m.lines_allowed and m.lines > m.lines_allowed:
                    # too many lines after the first estimate: a word will not move up until a whole line frees,
                    # which the ratio of widths cannot see; at least halve the way to the smallest size
                    halfway = int((m.min_pt + m.size_pt) / 2 / STEP_PT) * STEP_PT
                    sizes[m.id] = max(m.min_pt, min(m.smaller(), halfway))
                else:  # the estimate from the overflow: right at once for a line too wide or a box too full
                    sizes[m.id] = m.smaller()
            units = {m.unit for m in over}
            if None in units or 2 * len(units) > every:  # outside any unit, or in most: the whole document again
                document = layout(_with_sizes(base, sizes))
                measures, stale = measure(document), False
            else:  # only the cards that hold what overflowed: 240 WarSpike units cost a full sheet at every step
                measures.update(measure(layout(_only(_with_sizes(base, sizes), units))))
                stale = True
        matched = _matched(groups, measures)
        sizes.update(matched)  # texts of one group print at one size: the smallest any of them needed
        if stale or matched:  # the document as it prints, every text at its size, measured as a whole once more
            document = layout(_with_sizes(base, sizes))
            measures = measure(document)
        if not any(not m.fits and m.size_pt > m.min_pt + 1e-6 for m in measures.values()):
            break
    html = _with_sizes(base, sizes)
    unfit = [m for m in measures.values() if not m.fits]
    if not unfit:
        return document, html, []
    if not prefixes:
        return document, html, [Unfit.of(m) for m in unfit]
    return document, html, _longest_prefixes(html, unfit, layout)


def _groups(html: str) -> dict[int, str]:
    """Each marked element's `data-fit-group`, where it has one: texts that should print at one size (every Fire
    card's rules in a deck), so that one that had to shrink does not stand smaller than its neighbours."""
    out = {}
    for tag in re.finditer(r'<[^<>]*data-fit-id="(\d+)"[^<>]*>', html):
        group = re.search(r'data-fit-group="([^"]*)"', tag.group(0))
        if group:
            out[int(tag.group(1))] = group.group(1)
    return out


def _matched(groups: dict[int, str], measures: dict[int, Measure]) -> dict[int, float]:
    """The new sizes that bring each group's texts to the smallest size among them."""
    smallest: dict[str, float] = {}
    for ident, group in groups.items():
        if ident in measures:
            smallest[group] = min(smallest.get(group, math.inf), measures[ident].size_pt)
    return {
        ident: smallest[group]
        for ident, group in groups.items()
        if ident in measures and measures[ident].size_pt > smallest[group] + 1e-6
    }


def _longest_prefixes(html: str, unfit: list[Measure], layout) -> list[Unfit]:
    """For each unfit text from the scenario, the longest prefix that fits at the smallest size.

    A text is searched with the texts before it in its scope (the box of fixed height it sits in: a card's band)
    already cut to what fits: a side name that runs onto a second line pushes the team name under it out of the
    band, and that team name is no fault of its own (cut to the side name's longest, it may fit whole, and then it
    is not reported). Texts of different scopes cannot move one another, so the first unfit text of every scope
    is searched at once, then the second of each, and so on: one binary search whose every step lays the document
    out once with each text at its own guess. Sixty names too wide for their cards cost as many layouts as one
    (searched one by one, seven layouts a name ran validation past its clock).
    """
    texts = _texts(html, {m.id for m in unfit})
    reported = {
        m.id: Unfit.of(m)
        # text from elsewhere than the scenario, or more than a name (a card's body): reported as it is
        for m in unfit
        if m.id not in texts or not texts[m.id][0]
    }
    waves: list[list[Measure]] = []
    rank: dict[tuple, int] = {}
    for m in sorted(unfit, key=lambda m: m.id):
        if m.id not in reported:
            rank[m.scope] = rank.get(m.scope, -1) + 1
            if rank[m.scope] == len(waves):
                waves.append([])
            waves[rank[m.scope]].append(m)
    cut: dict[int, int] = {}  # the texts of earlier waves, cut to their longest that fits
    before: dict[tuple, tuple] = {}  # each scope's texts of earlier waves, as (path, text, cut)
    passed: set[tuple] = set()  # scopes with a text not searched: what follows it there is not judged
    for wave in waves:
        # a side name printed on 240 unit cards in the same box, after the same texts cut the same way, has one
        # answer: one card of each such set is searched, and every card of the set takes its answer
        alike: dict[tuple, list[Measure]] = {}
        for m in wave:
            if m.scope not in passed:
                shape = (m.box_width, m.box_height, m.lines_allowed, m.min_pt, m.size_pt, m.unit is None)
                alike.setdefault((texts[m.id], shape, before.get(m.scope, ())), []).append(m)
        # past SEARCHED names a step would lay out card after card of them: a name past them is reported as too
        # long, without how much of it fits, where nothing before it overflowed (then it is surely at fault)
        for same in list(alike.values())[SEARCHED:]:
            for m in same:
                passed.add(m.scope)
                if not before.get(m.scope):
                    reported[m.id] = Unfit.of(m)
        alike = dict(list(alike.items())[:SEARCHED])
        if not alike:
            continue
        searched = [same[0] for same in alike.values()]
        lengths = {m.id: len(texts[m.id][1]) for m in searched}
        units = {m.unit for m in searched}
        # with nothing before it cut, a text is as it was measured: too long whole
        whole = any(before.get(m.scope) for m in searched)
        found = _search(html, lengths, cut, layout, None if None in units else units, whole)
        for same in alike.values():
            for m in same:
                cut[m.id] = found[same[0].id]
                before[m.scope] = (*before.get(m.scope, ()), (*texts[m.id], cut[m.id]))
        for m in (m for same in alike.values() for m in same):
            if cut[m.id] < len(texts[m.id][1]):  # a text that fits whole once those before it are cut is not at fault
                reported[m.id] = Unfit.of(m, cut[m.id])
    return [reported[i] for i in sorted(reported)]


def _search(
    html: str, lengths: dict[int, int], cut: dict[int, int], layout, units: set | None, whole: bool
) -> dict[int, int]:
    """The longest prefix of each text in `lengths` (id: its length) that fits beside the texts `cut` says, by
    binary searches side by side: each step lays out once (only the `units` that hold the texts, when they are
    known), every text still searched at the middle of its range. With `whole`, the whole texts are tried first:
    a team name pushed out of its band by the side name above may fit whole once that is cut (and most do)."""
    low = dict.fromkeys(lengths, 0)  # the empty text fits
    high = {i: n + 1 if whole else n for i, n in lengths.items()}  # the whole text does not fit, or is not known to
    first = whole
    while True:
        if first:
            guesses, first = dict(lengths), False
        else:
            guesses = {i: (low[i] + high[i]) // 2 for i in lengths if high[i] - low[i] > 1}
        if not guesses:
            return low
        shortened = _with_prefixes(html, {**cut, **low, **guesses})
        fitted = measure(layout(shortened if units is None else _only(shortened, units)))
        for i, guess in guesses.items():
            if fitted[i].fits:
                low[i] = guess
            else:
                high[i] = guess
