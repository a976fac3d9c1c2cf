"""Page flow: no heading is left at a page's foot with its content on the next page, and no page but a part's last
is mostly blank, on A4 or on Letter, in every pack and in the booklet."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pytest
from conftest import SCENARIOS, examples_by_system
from pdfcheck import MM
from pypdf import PdfReader

from generator.build import Options, choose_seed, compute, load, pack_html
from generator.engine import JOIN_GAP_MM
from generator.markup import curl_quotes
from generator.rendering import TEMPLATES, render

EXAMPLES = sorted(name for names in examples_by_system().values() for name in names)
ON_LETTER = ["bridge", "relay-station", "vesta-relay", "hill-112"]

# The page's text area (muster.css: @page margin 14mm 13mm 15mm): the running head and the page number sit outside it
TOP_MARGIN, BOTTOM_MARGIN = 14 * MM, 15 * MM
# A part's heading (h2.part) is set at 17 pt, the cover's title at 30 pt; body text and lesser heads are far smaller
PART_HEADING_SIZE = 16
# What a heading must keep on its page: itself and at least three lines of what it heads (a table's caption, header
# and first row; the first unit's head, facts and table). A heading with only its lead-in under it (a side's
# summary and briefing, one short note) is as stranded as a heading alone: what it heads is on the next page
LINES_KEPT = 4
NUMBER_GAP_MM = 3.0  # mm between a right-aligned figure and the left-aligned text of the next column


def text_lines(page) -> list[list[dict]]:
    """The words of the page's text area, gathered into lines from top to bottom."""
    words = [
        w
        for w in page.extract_words(extra_attrs=["fontname", "size"])
        if w["top"] > TOP_MARGIN and w["bottom"] < page.height - BOTTOM_MARGIN
    ]
    lines: list[list[dict]] = []
    for word in sorted(words, key=lambda w: (w["bottom"], w["x0"])):
        # words of one line share a baseline; a line of mixed sizes differs by a point or two at most
        if lines and word["bottom"] - lines[-1][0]["bottom"] < 2:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [sorted(line, key=lambda w: w["x0"]) for line in lines]


KEPT = ("text", "fontname", "size", "x0", "top", "bottom")  # what a word read back keeps


def read_back(pdf_path) -> list[dict]:
    """Each page of a PDF as read back with pdfplumber: its width and height, its text area's lines (text_lines, each word
    with KEPT), its running head, its whole text and how much of its text area is used (used_share)."""
    pages = []
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            lines = [[{k: word[k] for k in KEPT} for word in line] for line in text_lines(page)]
            text = " ".join(word["text"] for line in lines for word in line)
            pages.append(
                {
                    "width": page.width,
                    "height": page.height,
                    "lines": lines,
                    "head": running_head(page),
                    "text": text,
                    "used": used_share(page),
                }
            )
    return pages


@pytest.fixture(scope="session")
def pages_of(shared):
    """pages_of(PDF) -> read_back(PDF), read once in the test run however many tests read that PDF (reading a
    pack back costs seconds, and every example's pack is read by a dozen tests)."""

    def get(pdf_path) -> list[dict]:
        path = Path(pdf_path)
        return shared(("read back", str(path), path.stat().st_mtime_ns), lambda folder: read_back(path))

    return get


def heading_font(pages: list[dict]) -> set[str]:
    """The bold face the headings are set in: the face of the parts' headings, read from the PDF itself."""
    faces = {
        w["fontname"]
        for page in pages
        for line in page["lines"]
        for w in line
        if w["size"] >= PART_HEADING_SIZE and "Bold" in w["fontname"]
    }
    assert faces, "no part heading found to tell the headings' face by"
    return faces


def stranded_headings(read: list[dict]) -> list[tuple[int, str]]:
    """Each page (but a part's last) whose last LINES_KEPT lines hold a heading, as (page number, heading). A heading
    whose section ends on its page is not stranded however short the section: the next page opens with a heading
    of its rank or higher (a three-line table under "Weapon tags", then "Notes" over the page)."""
    stranded = []
    faces = heading_font(read)
    pages = [page["lines"] for page in read]
    for number, (lines, following) in enumerate(zip(pages, pages[1:]), 1):
        if not lines or (following and following[0][0]["size"] >= PART_HEADING_SIZE):
            continue  # the part ends on this page and the next opens another: nothing flows on
        opens = following[0][0] if following and following[0][0]["fontname"] in faces else None
        for line in lines[-LINES_KEPT:]:
            if line[0]["fontname"] in faces and not (opens and opens["size"] >= line[0]["size"] - 0.5):
                stranded.append((number, " ".join(w["text"] for w in line)))
    return stranded


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_heading_is_stranded_at_a_page_foot_on_a4(built, pages_of, name):
    """Every heading of every example pack on A4 shares its page with the start of what it heads."""
    pack, _ = built(name)
    assert stranded_headings(pages_of(pack)) == []


@pytest.mark.parametrize("name", ON_LETTER)
def test_no_heading_is_stranded_at_a_page_foot_on_letter(built, pages_of, name):
    """Letter's shorter page moves every break: the headings still keep their content on Letter."""
    pack, _ = built(name, "--paper", "letter")
    assert stranded_headings(pages_of(pack)) == []


def headings_at_a_column_foot(read: list[dict]) -> list[tuple[int, str]]:
    """Each heading that is the last line of its page or of its column, as (page number, heading): the page's
    text split at its middle, each half read as a column (a heading at the foot of the quick reference's left
    column had its section at the head of the right one). A heading whose section ended before it is not
    stranded: the next page opens with a heading of its rank or higher. The headings' face and size are read
    from the characters themselves."""
    stranded = []
    faces = heading_font(read)
    pages = [(page["width"] / 2, page["lines"]) for page in read]
    for number, (middle, lines) in enumerate(pages, 1):
        following = pages[number][1] if number < len(pages) else []
        opens = following[0][0] if following and following[0][0]["fontname"] in faces else None
        for left in (True, False):
            column = [[w for w in line if (w["x0"] < middle) == left] for line in lines]
            column = [line for line in column if line]
            if not column or column[-1][0]["fontname"] not in faces:
                continue
            foot = column[-1][0]
            if not (opens and opens["size"] >= foot["size"] - 0.5):
                stranded.append((number, " ".join(w["text"] for w in column[-1])))
    return stranded


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", EXAMPLES)
def test_no_heading_is_the_last_line_of_a_page_or_column(built, pages_of, name, paper):
    """In every example pack on A4 and Letter, no heading ends a page or a column with what it heads after it (the
    quick reference's sections were floats, which break-after: avoid cannot hold, and left "Recovery" alone at a
    column's foot)."""
    pack, _ = built(name) if paper == "a4" else built(name, "--paper", paper)
    assert headings_at_a_column_foot(pages_of(pack)) == []


def test_no_booklet_heading_is_the_last_line_of_a_page_or_column(example_booklet, pages_of):
    """The booklet on A4 and Letter: no heading ends a page or a column of any chapter or appendix."""
    assert headings_at_a_column_foot(pages_of(example_booklet)) == []


def misnamed_running_heads(read: list[dict]) -> list[tuple[int, str, str]]:
    """Each page whose running head does not name the part its first line belongs to, as (page number, the part,
    the head): the part whose heading opens the page, else the last part begun on an earlier page."""
    misnamed = []
    part = None
    for number, page in enumerate(read, 1):
        lines = page["lines"]
        parts = [" ".join(w["text"] for w in line) for line in lines if line[0]["size"] >= PART_HEADING_SIZE]
        opening = parts[0] if lines and lines[0][0]["size"] >= PART_HEADING_SIZE else part
        head = page["head"]
        if number > 1 and opening and opening not in head:
            misnamed.append((number, opening, head))
        part = parts[-1] if parts else part
    return misnamed


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", EXAMPLES)
def test_a_running_head_names_the_part_its_page_opens_in(built, pages_of, name, paper):
    """Every page's running head names the part its first line belongs to (Letter's bridge.pdf page 8 opened with
    the end of the Odds' hand-to-hand table under the head "Quick reference", the part that began lower down)."""
    pack, _ = built(name) if paper == "a4" else built(name, "--paper", paper)
    assert misnamed_running_heads(pages_of(pack)) == []


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", EXAMPLES)
def test_a_page_that_opens_with_a_new_table_says_no_table_goes_on(built, pages_of, name, paper):
    """Issue 11 (a fifth fresh read): Vesta's page 3 opened with the table 'What a Take Action! order buys' under
    the head 'Odds · Action points by Stress (continued)', the table that had ended on page 2: a table's caption
    set no running head, so the page took the one in force before it. A page whose first line is a table's
    caption has no 'continued' in its head."""
    scenario = load(SCENARIOS / f"{name}.yaml")
    pack_data, _ = compute(scenario, choose_seed(scenario, None), Options(paper=paper), with_cards=False)
    captions = {
        " ".join(re.sub(r"<[^>]+>", "", caption).split())
        for caption in re.findall(r"<caption[^>]*>(.*?)</caption>", pack_html(scenario, pack_data), re.S)
    }
    pack, _ = built(name) if paper == "a4" else built(name, "--paper", paper)
    wrong = []
    for number, page in enumerate(pages_of(pack), 1):
        lines = page["lines"]
        first = " ".join(w["text"] for w in lines[0]) if lines else ""
        if any(caption.startswith(first) for caption in captions if first) and "continued" in page["head"]:
            wrong.append((number, first, page["head"]))
    assert wrong == []


# Where a part may start on an A4 page: from a third of the way down the text area to its foot, every 4 mm, less
# than a table row's height, so that some start puts each row of a table at the page's foot whatever the font
STARTS_MM = range(90, 262, 4)
# Every 8 mm for parts whose tests look for a keep across the foot taller than that (a heading with its first lines,
# a side of the tracker) or for any break inside a side's roster: half the trials of a part of several pages
WIDE_STARTS_MM = range(90, 262, 8)
# the parts whose tests look for such a keep or any break (none reads them row by row): trials start WIDE_STARTS_MM
WIDE = {"odds", "forces", "runsheet", "tracker"}


@dataclass
class Trials:
    """A part printed again and again after blocks of a range of heights, and its pages as read back."""

    pdf: Path  # the trials as printed
    pack: dict  # the example's pack data
    pages: list[dict]  # each page read back from the PDF: its text area's lines, running head and whole text
    fragments: list[list[int]]  # for each table, the body rows of each of its pieces, page by page


def part_after_blocks(shared, name: str, template: str, part: str, within: str = "") -> Trials:
    """One part of the example's pack printed again and again, each time on a fresh page after a block of one of
    the heights STARTS_MM, or WIDE_STARTS_MM for a part in WIDE (or with the block put inside the part, before the
    first `within`, for a part that starts a page of its own). Made once in the test run for all the tests that read the same part: each is 22 to 43 trials
    of the part, laid out once as they are (a stray last page is not tightened up: the trials are not a pack, but a
    repeated heading says "(continued)" as in a pack) and read back from the PDF once."""
    from generator.engine import continued_only_after_a_break, make_fetcher

    scenario = load(SCENARIOS / f"{name}.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    starts = WIDE_STARTS_MM if part in WIDE else STARTS_MM

    def make(folder: Path) -> tuple:
        import weasyprint

        document = render(template, show=lambda shown, piece=None: shown == part, booklet=False, **pack)
        head, body, tail = re.match(r"(.*<body[^>]*>)(.*)(</body>.*)", document, re.S).groups()
        body = re.sub(r' id="[^"]*"', "", body)  # one anchor per id: the part is printed many times
        at = body.index(within) if within else 0
        trials = "".join(
            f'<div style="break-before: page"></div>{body[:at]}<div style="height: {mm}mm"></div>{body[at:]}'
            for mm in starts
        )
        fetcher = make_fetcher()
        laid_out = weasyprint.HTML(string=head + trials + tail, base_url=f"{TEMPLATES}/", url_fetcher=fetcher)
        laid_out = laid_out.render(pdf_tags=False)
        continued_only_after_a_break(laid_out)  # as a pack is printed (engine._lay_out)
        pdf = folder / f"{part}.pdf"
        pdf.write_bytes(laid_out.write_pdf())
        return pdf, read_back(pdf), table_fragments(laid_out)

    pdf, pages, fragments = shared(("trials", name, template, part, within, tuple(starts)), make)
    return Trials(pdf, pack, pages, fragments)


def test_fireteam_odds_grid_keeps_its_heading_wherever_the_part_starts(shared):
    """The Odds part printed after blocks of every height: its heading and lead-in always share a page with the
    first line of the grid of tables (floated tables were out of the flow, so the keep-with-next rule kept the
    heading with nothing and it stood alone at the foot with its one sentence)."""
    trials = part_after_blocks(shared, "bridge", "fireteam-tomorrow/pack.html", "odds")
    assert stranded_headings(trials.pages) == []


def test_warspike_tracker_keeps_each_side_on_one_page_wherever_it_starts(shared):
    """The turn tracker printed below blocks of every height: each side's rows, from its name to its Total, are on
    one page (a break inside a side left its tallies and Total atop the next page, under no side's name)."""
    trials = part_after_blocks(
        shared,
        "warspike-hold-the-ford",
        "warspike/pack.html",
        "tracker",
        within=WITHIN["tracker"],
    )
    names = [army["side"].name for army in trials.pack["tracker"]["sides"]]
    split = []
    side_page = None
    for number, page in enumerate(trials.pages, 1):
        for line in page["lines"]:
            text = " ".join(w["text"] for w in line)
            if any(text.startswith(name) for name in names):
                side_page = (number, text)
            elif text.startswith("Total") and side_page[0] != number:
                split.append((side_page[1], side_page[0], number))
    assert split == []


def field(item, name: str):
    """A field of the pack's data, whether the system hands it over as a mapping or as an object."""
    return item[name] if isinstance(item, dict) else getattr(item, name)


def roster_rows(system: str, pack: dict) -> list[tuple[str, str]]:
    """Each roster row or unit box as (its side's name, the words its line starts with): Morschauser's unit codes,
    WarSpike's Block and Unit names, Fireteam's team and vehicle names, Para Bellum's unit names; as they print
    (King’s Own Rifles: markup.curl_quotes)."""
    rows = []
    for force in pack["forces"]:
        side = field(force, "side").name
        if system == "morschauser-modern":
            rows += [(side, unit["code"]) for unit in force["units"]]
        elif system == "warspike":
            rows += [(side, row["name"]) for row in force["rows"]]
        elif system == "fireteam-tomorrow":
            rows += [(side, field(unit, "name")) for unit in [*force["teams"], *force["vehicles"]]]
        else:
            rows += [(side, field(unit, "name")) for unit in field(force, "units")]
    return [(curl_quotes(side), curl_quotes(start)) for side, start in rows]


def starts(text: str, line: list[dict], start: str) -> bool:
    """Whether a line of text starts with a roster row's first words."""
    return line[0]["text"] == start or text.startswith(start + " ")


def running_head(page) -> str:
    """The running head: the words in the page's top margin."""
    return " ".join(w["text"] for w in page.extract_words() if w["bottom"] < TOP_MARGIN)


ROSTERS = [
    ("bridge", "fireteam-tomorrow"),
    ("vesta-relay", "para-bellum"),
    ("hill-112", "morschauser-modern"),
    ("warspike-bridge-race", "warspike"),
]


@pytest.mark.parametrize("name, system", ROSTERS)
def test_a_roster_that_runs_onto_a_new_page_says_whose_it_is(shared, name, system):
    """The rosters printed after blocks of every height, in every system: a page with a roster row or unit under
    no head of its side says in its running head whose roster goes on ("Hohenstaufen (continued)"), and a page
    names each side once in its text (Fireteam's and Para Bellum's unit boxes went on under no side's name, as
    Hill 112's page 4 did; Morschauser and WarSpike printed the side's head and, under it, a header row naming
    the side again)."""
    trials = part_after_blocks(shared, name, f"{system}/pack.html", "forces")
    rows = roster_rows(system, trials.pack)
    sides = {side for side, _ in rows}
    boxes = system in ("fireteam-tomorrow", "para-bellum")
    nameless, twice = [], []
    for number, page in enumerate(trials.pages, 1):
        head = page["head"]
        whose = None  # the side whose head was printed last on this page
        named = dict.fromkeys(sides, 0)
        for line in page["lines"]:
            text = " ".join(w["text"] for w in line)
            row = next((side for side, start in rows if starts(text, line, start)), None)
            if boxes and "Serif" not in line[0]["fontname"]:
                row = None  # a unit box opens with its name in the headings' face; a matchup row names an enemy
            if row is None:
                heads = [side for side in sides if text.startswith(side)]
                if heads:
                    whose = heads[0]
                    named[whose] += 1
                continue
            if whose != row and f"{row} (continued)" not in head:
                nameless.append((number, text, row, head))
        twice += [(number, side) for side, count in named.items() if count > 1]
    assert nameless == []
    assert twice == []


@pytest.mark.parametrize("name, system", ROSTERS)
def test_a_running_head_names_the_first_side_whose_roster_begins_on_its_page(shared, name, system):
    """Issue 11 (stop 40's reads): a running head named only the side whose roster went on at the page's top,
    "Forces · Concord Garrison (continued)", over a page that mostly held the next side's roster (Vesta's page 2,
    the Aller bridge's page 2). As a dictionary heads a page with its first and last word, the head names the first
    side whose head is printed on the page, after the one that goes on, and on a page where no side's head is
    printed it names no side afresh (a page further down a roster names only the side that goes on)."""
    trials = part_after_blocks(shared, name, f"{system}/pack.html", "forces")
    rows = roster_rows(system, trials.pack)
    sides = {side for side, _ in rows}
    boxes = system in ("fireteam-tomorrow", "para-bellum")
    wrong, begun_anywhere = [], 0
    for number, page in enumerate(trials.pages[1:], 2):  # the first page has no running head
        head = page["head"]
        begun = []  # the sides whose heads are printed on this page, in order
        for line in page["lines"]:
            text = " ".join(w["text"] for w in line)
            row = next((side for side, start in rows if starts(text, line, start)), None)
            if boxes and "Serif" not in line[0]["fontname"]:
                row = None
            if row is None:
                begun += [side for side in sides if text.startswith(side)][:1]
        fresh = [side for side in sides if side in head and f"{side} (continued)" not in head]
        if fresh != begun[:1] or (begun and not head.endswith(f"· {begun[0]}")):
            wrong.append((number, begun, head))
        begun_anywhere += any(f"{side} (continued)" in head for side in sides) and bool(begun)
    assert wrong == []
    assert begun_anywhere  # some trial puts a side's head on a page that opens inside the side before


# A page must use at least this share of its text area's height, unless a part that starts a page follows it
LEAST_USED = 1 / 3
# A part a player pulls out to use at the table starts a page of its own (muster.css: section.part.sheet)
SHEET = re.compile(r'<section class="part sheet" id="[^"]*">\s*<h2 class="part">([^<]*)</h2>')


def sheet_titles(name: str) -> set[str]:
    """The headings of the example's parts that start a page of their own, read from the pack's HTML, and the
    orders slips its booklet chapter prints (each on a page of its own)."""
    scenario = load(SCENARIOS / f"{name}.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False, book=True)
    titles = {html.unescape(title) for title in SHEET.findall(pack_html(scenario, pack))}
    return titles | {curl_quotes(f"Orders: {orders['side'].name}") for orders in pack["orders"]}


SLIP_BACK = "Left blank: the back of the orders of"


def used_share(page) -> float | None:
    """How much of the page's text area is used: from its top down to the lowest text or drawing in it, as a
    share of its height; None for a page with nothing in it (a booklet's blank left-hand page)."""
    top, bottom = TOP_MARGIN, page.height - BOTTOM_MARGIN
    marks = [*page.chars, *page.rects, *page.lines, *page.curves, *page.images]
    lowest = [m["bottom"] for m in marks if m["top"] >= top - 1 and m["bottom"] <= bottom + 1]
    return (max(lowest) - top) / (bottom - top) if lowest else None


# A page holding only the end of a part begun on an earlier page holds at least this many lines of text
LEAST_LINES = 6


def tail_lines(page: dict) -> int | None:
    """How many lines of text the page (read back) holds if it opens no part (no part heading on it), else None."""
    lines = page["lines"]
    if any(w["size"] >= PART_HEADING_SIZE for line in lines for w in line):
        return None
    return len(lines) or None


def page_starts(pdf_path, titles: set[str], booklet: bool) -> set[int]:
    """The pages (from 1) on which something opens that always starts a page: a sheet part (by its bookmark's
    title), and in a booklet every top-level bookmark (front matter, chapter, appendix) and appendix section."""
    reader = PdfReader(pdf_path)
    starts = set()

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            elif item.title in titles or (booklet and (depth == 0 or VARIANT_SET.match(item.title))):
                starts.add(reader.get_destination_page_number(item) + 1)

    walk(reader.outline, 0)
    return starts


# booklet/appendix.html: a section of an appendix for one set of variants opens a page ("Para Bellum: With ...")
VARIANT_SET = re.compile(r".+: (Rules as written|With .+)$")


def near_empty_pages(pages_of, pdf_path, titles: set[str], booklet: bool = False) -> list[tuple[int, str]]:
    """Each page that uses less than LEAST_USED of its text area though what follows it flows on, as (page, share).
    A part's last page may be short: the page before one that starts a sheet or chapter, and the last page."""
    read = pages_of(pdf_path)
    # the page left blank behind a booklet's orders slip (issue 15: cutting the slip out takes nothing else) is
    # blank by design, as a double-sided book's blank left-hand page is
    shares = [None if SLIP_BACK in page["text"] else page["used"] for page in read]
    tails = [tail_lines(page) for page in read]
    starts = page_starts(pdf_path, titles, booklet)
    short = []
    for number, share in enumerate(shares, 1):
        following = next((n for n in range(number + 1, len(shares) + 1) if shares[n - 1] is not None), None)
        if share is None:
            continue
        if following is None or following in starts:
            # a part's last page may be short, but not a page holding only the last few lines of a part begun on
            # an earlier page (Hill 112's last two notes on a page of their own): those belong on the pages before
            if tails[number - 1] is not None and tails[number - 1] < LEAST_LINES:
                short.append((number, f"{tails[number - 1]} lines"))
            continue
        if share < LEAST_USED:
            short.append((number, f"{share:.0%}"))
    return short


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", EXAMPLES)
def test_no_page_is_mostly_blank_unless_a_part_ends_on_it(built, pages_of, name, paper):
    """Every page of every example pack uses at least a third of its text area, measured from the PDF, unless the
    next page opens a part that starts a page (a map, a run-sheet) or it is the last: small parts flow on."""
    pack, _ = built(name) if paper == "a4" else built(name, "--paper", paper)  # A4 shares the other tests' build
    assert near_empty_pages(pages_of, pack, sheet_titles(name)) == []


@pytest.fixture(params=["a4", "letter"])
def example_booklet(request, example_booklet_on):
    """The example booklet as `make booklet` builds it (every example behind booklets/club.yaml), on each paper."""
    return example_booklet_on(request.param)


def test_no_booklet_page_is_mostly_blank_unless_a_part_ends_on_it(example_booklet, pages_of):
    """The booklet's chapters and appendices flow as the packs do: only the page before a chapter, an appendix,
    an appendix's variant section or a sheet may use less than a third of its text area."""
    titles = set().union(*(sheet_titles(name) for name in EXAMPLES))
    assert near_empty_pages(pages_of, example_booklet, titles, booklet=True) == []


# (example, system, part, the table's header line, its heading above it, what a page it runs onto says)
# (Hill 112's Unit types table no longer runs onto a new page after any block since its reference's movement and
# battle lines grew: a case that cannot run on proves nothing; test_every_table_header_says_whose_table_goes_on
# keeps its header naming it)
CONTINUED_TABLES = [
    (
        "bridge",
        "fireteam-tomorrow",
        "reference",
        "Weapon Class Level",
        "Weapons (this pack’s table)",
        "Weapons (continued)",
    ),
    (
        "hill-112",
        "morschauser-modern",
        "schedule",
        "# Turn",
        "Umpire’s tile schedule",
        "Umpire’s tile schedule (continued)",
    ),
    ("bridge", "fireteam-tomorrow", "runsheet", "# Pass", "Deck run-sheet", "Deck run-sheet (continued)"),
    ("warspike-hold-the-ford", "warspike", "tracker", "Turn 1 ", "Turn tracker", "Turn tracker (continued)"),
]
# where a block goes inside a part that starts a page of its own (part_after_blocks' `within`)
WITHIN = {
    "runsheet": '<div class="runsheet-block"',
    "tracker": '<table class="ws-tracker',
    "schedule": '<div class="schedule-block"',
}


@pytest.mark.parametrize("name, system, part, header, heading, continued", CONTINUED_TABLES)
def test_a_table_that_runs_onto_a_new_page_repeats_its_header_and_says_continued(
    shared, name, system, part, header, heading, continued
):
    """Parts printed after blocks of every height: wherever a table runs onto a new page, that page repeats the
    table's header and its running head says which table goes on, "(continued)" (a fresh reader found Hill 112's
    activation schedule and WarSpike's turn tracker going on with no such word)."""
    trials = part_after_blocks(shared, name, f"{system}/pack.html", part, within=WITHIN.get(part, ""))
    runs_on, unsaid, begun = 0, [], False
    for number, page in enumerate(trials.pages, 1):
        texts = [" ".join(w["text"] for w in line) for line in page["lines"]]
        at = next((i for i, text in enumerate(texts) if text.startswith(header)), None)
        if heading in texts[: len(texts) if at is None else at]:
            begun = False  # a new trial: its part's heading
        if at is None:
            continue  # the table does not run onto this page
        if begun:  # the table began on an earlier page: this page goes on with it
            runs_on += 1
            if continued not in page["head"]:
                unsaid.append((number, page["head"]))
        begun = True
    assert runs_on > 0, "the table never ran onto a new page: the test proves nothing"
    assert unsaid == []


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_table_header_says_whose_table_goes_on(name):
    """Every table's header names its table, its part or its side (data-table, data-part, data-side), so any table
    that runs onto a new page says so in the running head: the mechanism holds for every table, not a list."""
    scenario = load(SCENARIOS / f"{name}.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    heads = re.findall(r"<thead[^>]*>", pack_html(scenario, pack))
    assert heads, "no table header found"
    assert [head for head in heads if not re.search(r"data-(table|part|side)=\"[^\"]+\"", head)] == []


def test_a_page_that_prints_a_dagger_prints_its_key(shared):
    """Hill 112's activation schedule marks with a dagger the units that may fire; printed after blocks of every
    height, every page showing a dagger also shows what it means (the key printed only at the schedule's end, so
    a reader of its first page could not know)."""
    trials = part_after_blocks(
        shared, "hill-112", "morschauser-modern/pack.html", "schedule", within=WITHIN["schedule"]
    )
    pages, keyless = 0, []
    for number, page in enumerate(trials.pages, 1):
        if "\u2020" in page["text"]:
            pages += 1
            if "\u2020 may fire in the Artillery Fire Phase" not in page["text"]:
                keyless.append(number)
    assert pages > 0
    assert keyless == []


def test_a_last_page_of_a_few_closing_lines_is_laid_out_again_closer():
    """Issue 11: a pack or appendix whose notes ran a few lines onto a last page of their own (the Letter booklet's
    Para Bellum appendix ended on a page of two lines once its quick reference gave both action point rolls) is
    laid out again with the quick reference and notes set a little closer, and keeps that layout if it saves the
    page. The fewest one-line notes that run onto a second page are found; their render has one page."""
    import weasyprint

    from generator.engine import CLOSING_LINES_LEAST, closing_lines, render_pdf
    from generator.rendering import TEMPLATES

    def lay_out(text: str):  # as WeasyPrint lays it out, once
        return weasyprint.HTML(string=text, base_url=f"{TEMPLATES}/").render()

    def html(notes: int) -> str:
        items = "".join(f"<li><strong>Note {n}.</strong> A reading.</li>" for n in range(notes))
        return (
            '<html lang="en"><head><link rel="stylesheet" href="muster.css"></head><body>'
            f'<div class="ref-notes"><ol class="notes">{items}</ol></div></body></html>'
        )

    low, high = 10, 600  # one page, two pages
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if len(lay_out(html(middle)).pages) > 1 else (middle, high)
    plain = lay_out(html(high))
    assert len(plain.pages) == 2 and 0 < closing_lines(plain) < CLOSING_LINES_LEAST
    assert render_pdf(html(high), TEMPLATES, tags=False)[1] == 1


@pytest.mark.parametrize("closer", [False, True])
def test_a_reference_heading_stands_further_from_the_section_above_than_two_bullets_stand_apart(closer):
    """Issue 11 (a fresh read of Letter relay-station): in the closer setting a quick-reference heading had 4.9 pt
    above it against 4.0 pt between two bullets, so the sections ran together. Set plain or closer, the space over
    a section's heading is at least one and a half times the space between two of its bullets."""
    import weasyprint

    from generator.engine import TIGHT

    bullets = "".join(f"<li>Rule {n}: one line of the quick reference.</li>" for n in range(3))
    sections = "".join(f'<div class="ref-section"><h3>Section {n}</h3><ul>{bullets}</ul></div>' for n in range(2))
    head = '<link rel="stylesheet" href="muster.css">' + (TIGHT if closer else "")
    text = f'<html lang="en"><head>{head}</head><body><div>{sections}</div></body></html>'
    pdf = weasyprint.HTML(string=text, base_url=f"{TEMPLATES}/").write_pdf()
    import io

    with pdfplumber.open(io.BytesIO(pdf)) as opened:
        words = opened.pages[0].extract_words(extra_attrs=["size"])
    lines = sorted(
        {(round(w["top"], 2), round(w["bottom"], 2), w["text"]) for w in words if w["text"] in ("Section", "Rule")}
    )
    gaps = [(a[2], b[2], round(b[0] - a[1], 2)) for a, b in zip(lines, lines[1:]) if b[0] > a[0] + 1]
    above = [gap for first, then, gap in gaps if (first, then) == ("Rule", "Section")]
    between = [gap for first, then, gap in gaps if (first, then) == ("Rule", "Rule")]
    assert above and between and min(above) >= 1.5 * max(between), (above, between)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", EXAMPLES)
def test_no_pack_ends_on_a_short_tail_of_its_notes_that_a_closer_setting_would_join(name, paper):
    """Issue 11 (a third fresh read): Letter relay-station's last page held two notes and the colophon, 13 lines,
    and the closer setting of the notes (tight.css) was tried only for fewer than 8; then, tried, it did not save
    the page (a fourth read: 13 lines on Letter). It now sets the reference's tables and headings closer too. As
    printed, no example pack's last page holds only a tail of its notes under CLOSING_LINES_LEAST lines."""
    import weasyprint

    from generator.engine import CLOSING_LINES_LEAST, closing_lines, settle

    def layout(text: str):
        return weasyprint.HTML(string=text, base_url=f"{TEMPLATES}/").render()

    scenario = load(SCENARIOS / f"{name}.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(paper=paper), with_cards=False)
    printed, text = settle(pack_html(scenario, pack), layout)
    lines = closing_lines(printed)
    assert lines == 0 or lines >= CLOSING_LINES_LEAST, f"{lines} lines on page {len(printed.pages)}"


def test_a_sheet_is_tried_on_the_page_before_only_where_the_layout_as_it_stands_leaves_that_page_mostly_blank():
    """Issue 13: settle() chose the sheets to try joining from the first layout alone, so after the Ford's roster
    sheet joined (saving a page), its second sheet, whose page before was no longer mostly blank, was laid out
    again for nothing: 2.2 of the Ford's 11 s build. Every trial layout is now asked for by the layout current at
    that moment (the first, or the last trial that saved a page)."""
    import weasyprint

    from generator.engine import settle, sheets_after_blank

    # the Ford's roster sheet joined then; since the Ford prints its map (issue 15) none of its sheets does, and
    # bridge's does
    scenario = load(SCENARIOS / "bridge.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    html = pack_html(scenario, pack)
    current: list = []  # (its HTML, its layout): the layout settle stands on
    unasked = []

    def layout(text: str):
        laid_out = weasyprint.HTML(string=text, base_url=f"{TEMPLATES}/").render()
        if current:
            base_html, base = current[-1]
            joined = re.findall(r"section\.part\.sheet#([\w-]+)", text)  # a trial's JOIN is its newest, last
            if len(joined) > len(re.findall(r"section\.part\.sheet#", base_html)):
                if joined[-1] not in sheets_after_blank(base, base_html):
                    unasked.append(joined[-1])
            if len(laid_out.pages) < len(base.pages):
                current.append((text, laid_out))
        else:
            current.append((text, laid_out))
        return laid_out

    settle(html, layout)
    assert len(current) > 1, "no sheet of bridge's joins the page before it any more: the test needs another"
    assert not unasked, f"sheets laid out again though the page before was not mostly blank: {unasked}"


def test_the_example_booklet_reads_as_a_book(example_booklet, pages_of):
    """Issue 11 (found by two fresh reads of the example booklet): the Discipline Variant printed before the
    scenario it varies (no chapter order in booklets/club.yaml), the cover said "Edited by The club committee",
    the contents "A Appendix: Fireteam Tomorrow" where the appendix is headed "Appendix A: Fireteam Tomorrow", and
    every chapter's cover called it a "scenario pack"."""
    read = pages_of(example_booklet)
    cover, contents = (" ".join(read[n]["text"].split()) for n in (0, 1))
    chapters = " ".join(" ".join(f"{page['head']} {page['text']}".split()) for page in read[2:])
    assert "Edited by the club committee" in cover
    assert contents.index("The Vesta Relay") < contents.index("Vesta Relay, Discipline Variant")
    assert "Appendix A: Fireteam Tomorrow" in contents and "Appendix:" not in contents
    assert "scenario pack" not in chapters and "Fireteam Tomorrow · scenario" in chapters


def table_fragments(document) -> list[list[int]]:
    """For each table of a laid-out document, the body rows of each of its pieces, page by page. A table is a
    <table>: a quick reference's section is laid out as a table of one row (muster.css), but it is a list."""
    from weasyprint.formatting_structure import boxes

    pieces: dict[int, list[int]] = {}
    for page in document.pages:
        stack = [page._page_box]
        while stack:
            box = stack.pop()
            if isinstance(box, boxes.TableBox) and box.element_tag == "table":
                rows = sum(
                    len(group.children)
                    for group in box.children
                    if isinstance(group, boxes.TableRowGroupBox) and not group.is_header and not group.is_footer
                )
                pieces.setdefault(id(box.element), []).append(rows)
                continue
            stack.extend(getattr(box, "children", ()))
    return list(pieces.values())


# the tables that flow on after what comes before them (the schedule, run-sheet and tracker start pages of their own)
FLOWING_TABLES = [table for table in CONTINUED_TABLES if table[2] == "reference"]


@pytest.mark.parametrize("name, system, part, header, heading, continued", FLOWING_TABLES)
def test_no_table_leaves_a_row_alone_on_a_page(shared, name, system, part, header, heading, continued):
    """Issue 11 (found by two fresh reads: the bridge's weapon table left its Rocket launcher alone on the last
    page): parts printed after blocks of every height, so their tables break at every row; no piece of a table
    split across pages holds a single body row."""
    trials = part_after_blocks(shared, name, f"{system}/pack.html", part, within=WITHIN.get(part, ""))
    split = [rows for rows in trials.fragments if len(rows) > 1]
    assert split, "no table ran onto a new page: the test proves nothing"
    assert [rows for rows in split if 1 in rows] == []


# A quick reference section's heading is set at 9.5 pt, its bullets at 8 pt; the heading over what follows the
# sections (h3.ref-head: "Unit types", "Notes: gaps filled...") at 10 pt, a part's at 17 pt
SECTION_HEADING_PT, AFTER_SECTIONS_PT = 9.0, 9.75


def reference_columns(pages: list[list[list[dict]]], middle: float) -> list[list[tuple[int, list[list[dict]]]]]:
    """Each quick reference's columns of sections (left or right of `middle`, in points), in reading order, as
    (page number, its lines, each the words of one line in that column). A quick reference's sections run from
    its "Quick reference" heading to the next heading of 10 pt or more; `pages` holds each page's lines
    (text_lines)."""
    found: list[list[tuple[int, list[list[dict]]]]] = []
    columns: list[list[list[dict]]] = []  # the page's left and right column, while inside a quick reference

    def close(number: int) -> None:  # the page's columns, or the reference's last ones, go to its list
        found[-1].extend((number, column) for column in columns if column)

    for number, lines in enumerate(pages, 1):
        for line in lines:
            first = line[0]
            if first["size"] >= AFTER_SECTIONS_PT and first["x0"] < middle:  # a heading across the page
                if columns:
                    close(number)
                columns = []
                if " ".join(w["text"] for w in line) == "Quick reference":
                    found.append([])
                    columns = [[], []]
                continue
            for column, kept in enumerate(columns):
                words = [w for w in line if (w["x0"] >= middle) == bool(column)]
                if words:
                    kept.append(words)
        if columns:
            close(number)
            columns = [[], []]
    return [reference for reference in found if reference]


def headless_reference_columns(pages: list[list[list[dict]]], middle: float) -> list[tuple[int, str]]:
    """Each column of a quick reference's sections that opens with a bullet rather than a heading, as (page number,
    its first words)."""
    return [
        (number, " ".join(w["text"] for w in column[0][:6]))
        for reference in reference_columns(pages, middle)
        for number, column in reference
        if column[0][0]["size"] < SECTION_HEADING_PT
    ]


CONTINUED = "(continued)"


def misread_continuations(pages: list[list[list[dict]]], middle: float) -> list[tuple[int, str]]:
    """Each quick reference section heading, as (page number, its words), that repeats an earlier heading without
    saying "(continued)", or says it the first time."""
    wrong = []
    for reference in reference_columns(pages, middle):
        seen = set()
        for number, column in reference:
            for line in column:
                if line[0]["size"] < SECTION_HEADING_PT:
                    continue
                text = " ".join(w["text"] for w in line)
                title = text.removesuffix(CONTINUED).rstrip()
                if (title in seen) != text.endswith(CONTINUED):
                    wrong.append((number, text))
                seen.add(title)
    return wrong


@pytest.mark.parametrize("name, system", [("hill-112", "morschauser-modern"), ("bridge", "fireteam-tomorrow")])
def test_a_reference_section_that_goes_on_in_the_next_column_or_page_takes_its_heading_along(shared, name, system):
    """Issue 11 (a fresh read of Hill 112): the last Movement bullet stood at the head of the right column with no
    heading, just above "Battles", as if it were one of the Battles rules. Printed after blocks of every height, so
    that a section breaks at every bullet: every column of the quick reference's sections, on every page, opens
    with a section's heading."""
    trials = part_after_blocks(shared, name, f"{system}/pack.html", "reference")
    tops = headless_reference_columns([page["lines"] for page in trials.pages], 595.28 / 2)  # A4 is 595.28 pt wide
    assert tops == []


@pytest.mark.parametrize("name, system", [("hill-112", "morschauser-modern"), ("bridge", "fireteam-tomorrow")])
def test_a_reference_sections_repeated_heading_says_it_is_continued(shared, name, system):
    """Issue 11 (a fresh read of the bridge and Hill 112): a section going on in the next column repeated its
    heading word for word, so the bridge's last Recovery bullet read as a second Recovery section and Hill 112's
    "Movement" stood beside "Movement costs". Printed after blocks of every height, so that a section breaks at
    every bullet: a heading that repeats one before it says "(continued)", and a first heading never does."""
    trials = part_after_blocks(shared, name, f"{system}/pack.html", "reference")
    lines = [page["lines"] for page in trials.pages]
    assert misread_continuations(lines, 595.28 / 2) == []
    assert any(line[-1]["text"] == CONTINUED for page in lines for line in page)  # sections did break


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_reference_column_opens_with_a_heading(built, pages_of, name, paper):
    """Every example pack, on A4 and Letter: each column of its quick reference opens with a section's heading,
    which says "(continued)" where it repeats one before it, and only there."""
    read = pages_of(built(name, "--paper", paper)[0])
    lines, middle = [page["lines"] for page in read], read[0]["width"] / 2
    assert headless_reference_columns(lines, middle) == []
    assert misread_continuations(lines, middle) == []


SHEETS = ("The table", "The battlefield", "Deck run-sheet", "Turn tracker", "The turn sequence")  # pull-out sheets


def sheets_left_off_a_half_empty_page(read: list[dict]) -> list[tuple[int, str]]:
    """Each pull-out sheet, as (page number, its heading), that starts a page of its own after a page used less than
    half, though the sheet (one page, ending before the next part) would fit whole under what that page holds."""
    found = []
    for number, page in enumerate(read[1:], 2):
        before, after = read[number - 2], read[number] if number < len(read) else None
        heading = " ".join(w["text"] for w in page["lines"][0]) if page["lines"] else ""
        one_page = after is None or (after["lines"] and after["lines"][0][0]["size"] >= PART_HEADING_SIZE)
        if heading in SHEETS and one_page and before["used"] is not None and before["used"] < 1 / 2:
            if before["used"] + JOIN_GAP_MM * MM / (before["height"] - TOP_MARGIN - BOTTOM_MARGIN) + page["used"] <= 1:
                found.append((number, heading))
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", EXAMPLES)
def test_a_sheet_shares_a_half_empty_page_it_fits_on(built, pages_of, name, paper):
    """Issue 11 (a fresh read, Letter): the Ford's forces filled 40% of page 2 and its turn tracker, half a page,
    took page 3 of its own; a page used less than half is as wasteful before a sheet as anywhere. On A4 and Letter,
    no sheet of an example pack starts a page after one used less than half when it would fit under it whole."""
    assert sheets_left_off_a_half_empty_page(pages_of(built(name, "--paper", paper)[0])) == []


def test_a_sheet_follows_a_mostly_blank_page_when_it_fits_there_whole():
    """Issue 11: a pull-out sheet (a tracker, a run-sheet) starts a page, so a short part before it left a page
    mostly blank (the Ford's second page held one roster, a fifth of it used). When the page before a sheet uses
    less than half its height, the sheet may follow on it if it fits there whole; a sheet that does not fit
    still starts its own page, whole."""
    from generator.engine import render_pdf

    def html(rows: int) -> str:
        table = "".join(f"<tr><td>Turn {n}</td><td>&#9744;</td></tr>" for n in range(rows))
        return (
            '<html lang="en"><head><link rel="stylesheet" href="muster.css"></head><body>'
            '<section class="part" id="forces"><h2 class="part">Forces</h2><p>One short roster.</p></section>'
            f'<section class="part sheet" id="tracker"><h2 class="part">Turn tracker</h2><table>{table}</table>'
            "</section></body></html>"
        )

    assert render_pdf(html(12), TEMPLATES, tags=False)[1] == 1  # fits under the roster: one page, not two
    pdf, pages = render_pdf(html(45), TEMPLATES, tags=False)  # taller than the rest of the page: it starts one
    assert pages == 2
    with pdfplumber.open(__import__("io").BytesIO(pdf)) as opened:
        assert "Turn tracker" not in opened.pages[0].extract_text()
        assert opened.pages[1].extract_text().startswith("Turn tracker")


@pytest.mark.parametrize(
    ("name", "last", "full", "neighbour"),
    [("relay-station", "Pass 5", "Pass 1", "Pass 2"), ("hill-112", "Turn 9", "Turn 5", "Turn 7")],
)
def test_a_last_row_of_fewer_passes_keeps_the_columns_width(built, name, last, full, neighbour):
    """Issue 11 (a fourth fresh read): the deck run-sheet's fifth pass, alone in its row of four, was a table as
    wide as the page with three empty columns, its stripes and rules running through them. A row of fewer passes
    (or turns, on the tile schedule) keeps a full row's column width: its table ends where its last column
    does, read from the PDF."""
    pack, _ = built(name)
    with pdfplumber.open(pack) as pdf:
        for page in pdf.pages:
            words = page.extract_words(keep_blank_chars=True)
            heads = {w["text"]: w for w in words if w["text"] in (last, full, neighbour)}
            if last in heads and full in heads and neighbour in heads:
                break
        else:
            pytest.fail(f"no page shows {last} under {full} and {neighbour}")
        below = heads[last]["top"]
        # the second column starts where the neighbour's heading does: the lone table must end before it
        stop = heads[neighbour]["x0"]
        painted = [r for r in page.rects + page.lines if r["top"] >= below - 2 and r["width"] > 20]
        assert painted, "no rules or stripes under the last row's heading"
        assert max(r["x1"] for r in painted) <= stop + 1, (max(r["x1"] for r in painted), stop)


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_tables_header_row_prints_in_one_size(name):
    """Issue 11 (consistency): Para Bellum's action plans headed their first column "Points" at 11 pt, the size
    of the point counts under it, beside "Actions" and "How" at 8.5 pt. Every header cell of a table prints at
    one size, read from WeasyPrint's layout of the pack as it prints."""
    from weasyprint.formatting_structure import boxes

    from generator.engine import lay_out

    scenario = load(SCENARIOS / f"{name}.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    document, _ = lay_out(pack_html(scenario, pack), TEMPLATES)
    sizes: dict[int, set] = {}
    names: dict[int, str] = {}

    def walk(box, table, head: bool) -> None:
        if isinstance(box, boxes.TableBox):
            table = id(box.element)
            names[table] = box.element.get("class") or "table"
        head = head or box.element_tag == "thead"
        if head and isinstance(box, boxes.TableCellBox):
            sizes.setdefault(table, set()).add(round(box.style["font_size"], 2))
        for child in getattr(box, "children", []):
            walk(child, table, head)

    for page in document.pages:
        walk(page._page_box, None, False)
    assert sizes, "the pack has tables with header rows"
    assert {names[t]: sorted(s) for t, s in sizes.items() if len(s) > 1} == {}


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_right_aligned_figure_keeps_a_gap_before_the_column_after_it(name):
    """A fresh read of Hill 112's odds: its battles table printed "-4 2.8%", the right-aligned difference run into
    the left-aligned chance after it, because the compact odds tables' own padding undid the wider gap muster.css
    gives such a pair. Every text beside a right-aligned figure starts NUMBER_GAP_MM after the figure ends, read
    from the laid-out pack."""
    from weasyprint.formatting_structure import boxes

    from generator.engine import lay_out

    scenario = load(SCENARIOS / f"{name}.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    document, _ = lay_out(pack_html(scenario, pack), TEMPLATES)
    px = 96 / 25.4
    close = []

    def texts(box):
        return [t for t in box.descendants() if isinstance(t, boxes.TextBox) and t.text.strip()]

    def walk(box) -> None:
        if isinstance(box, boxes.TableRowBox):
            cells = [c for c in box.children if isinstance(c, boxes.TableCellBox)]
            for left, right in zip(cells, cells[1:]):
                if (
                    "num" in (left.element.get("class") or "").split()
                    and "num" not in (right.element.get("class") or "").split()
                ):
                    ends, starts = texts(left), texts(right)
                    if ends and starts:
                        gap = (min(t.position_x for t in starts) - max(t.position_x + t.width for t in ends)) / px
                        if gap < NUMBER_GAP_MM:
                            close.append((ends[0].text, starts[0].text, round(gap, 2)))
        for child in getattr(box, "children", []):
            walk(child)

    for page in document.pages:
        walk(page._page_box)
    assert close == [], close[:6]


@pytest.mark.parametrize("name, paper", [(name, "a4") for name in EXAMPLES] + [(name, "letter") for name in ON_LETTER])
def test_a_page_that_opens_inside_the_notes_says_they_go_on(built, pages_of, name, paper):
    """Issue 11 (a fresh read): Hill 112's notes 5 to 22 filled a Letter page under the running head "Quick
    reference" alone. The notes have no heading to repeat; a page that opens with a note after the first says
    "Notes (continued)" in its running head. (The list's own reset of the head, which WeasyPrint applies again on
    every page a split box goes on to, had emptied it.)"""
    pack, _ = built(name, "--paper", paper)
    opened_inside = 0
    for number, page in enumerate(pages_of(pack), 1):
        first = " ".join(w["text"] for w in page["lines"][0]) if page["lines"] else ""
        note = re.match(r"(\d+)\. ", first)
        if note and int(note.group(1)) > 1 and "Notes: gaps filled" not in page["text"]:
            opened_inside += 1
            assert page["head"].endswith("Notes (continued)"), (number, page["head"], first)
    # a case that has such a page, so the test proves something (Hill 112's Letter notes no longer open a page once
    # its umpire's schedule went to the pack's end, issue 14)
    if (name, paper) == ("relay-station", "letter"):
        assert opened_inside >= 1


def reference_pieces(document) -> dict[int, list[tuple[int, bool]]]:
    """For each quick-reference section of a laid-out document, its pieces (one per page and column it runs in):
    how many items each holds, and whether the section is marked to be read whole."""
    from weasyprint.formatting_structure import boxes

    pieces: dict[int, dict[tuple, set]] = {}
    whole: dict[int, bool] = {}
    for number, page in enumerate(document.pages):
        stack = [(page._page_box, None)]
        while stack:
            box, section = stack.pop()
            classes = (box.element.get("class") or "").split() if box.element is not None else []
            if "ref-section" in classes and isinstance(box, boxes.TableBox):
                section = box.element
                whole[id(section)] = "ref-whole" in classes
            if section is not None and box.element_tag == "li" and isinstance(box, boxes.BlockBox):
                pieces.setdefault(id(section), {}).setdefault((number, round(box.position_x)), set()).add(
                    id(box.element)
                )
                continue
            stack.extend((child, section) for child in getattr(box, "children", ()))
    return {key: [(len(items), whole[key]) for items in columns.values()] for key, columns in pieces.items()}


def test_a_reference_section_never_carries_one_item_alone_into_the_next_column():
    """The booklet's Morschauser appendix printed "Original scatter (continued)" over one bullet: column balancing
    split the six faces of the scatter die from the last line. A section that runs on leaves at least two items
    on each side of the break, and the scatter table (marked ref-whole) is read whole in one column. Checked on
    the whole quick reference (a booklet's appendix) set after blocks of many heights, so every split happens."""
    import weasyprint

    from generator.engine import make_fetcher

    scenario = load(SCENARIOS / "hill-112.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False, whole_reference=True)
    document = render(
        "morschauser-modern/pack.html", show=lambda part, piece=None: part == "reference", booklet=True, **pack
    )
    head, body, tail = re.match(r"(.*<body[^>]*>)(.*)(</body>.*)", document, re.S).groups()
    body = re.sub(r' id="[^"]*"', "", body)
    trials = "".join(
        f'<div style="break-before: page"></div><div style="height: {mm}mm"></div>{body}' for mm in range(150, 262, 6)
    )
    laid_out = weasyprint.HTML(string=head + trials + tail, base_url=f"{TEMPLATES}/", url_fetcher=make_fetcher())
    sections = reference_pieces(laid_out.render(pdf_tags=False))
    split = [counts for counts in sections.values() if len(counts) > 1]
    assert split, "no section ran on: the trials prove nothing"
    assert [counts for counts in split if min(count for count, _ in counts) < 2] == []
    assert [counts for counts in split if counts[0][1]] == []  # a section read whole is never split
