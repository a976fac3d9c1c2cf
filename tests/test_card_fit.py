"""Card text fits its card, measured by the engine that prints it, and read back from the PDF.

generator/fit.py wraps, then shrinks marked text to its box, never below 7 pt; text that cannot fit even then
is a problem of the scenario at its line and column. The sheets of the shipped examples are read back with
pdfplumber: every character inside its card's keyline (the safe area, itself inside the trim), none under a
badge or shape, none under 7 pt, no "..." anywhere, no internal identifiers, the side named once.
"""

from __future__ import annotations

import io
import re
from functools import cache
from pathlib import Path

import pdfplumber
import pytest
from conftest import DATA, files_under
from pdfcheck import MM

from generator import fit
from generator.build import Options, check_card_fit, choose_seed, compute, load, render_html, to_pdf
from generator.cards import CARD_SIZES, layout
from generator.errors import InputProblems

ROOT = Path(__file__).resolve().parent.parent
TOO_LONG = sorted((DATA / "cards").glob("*.yaml"))
SLACK = 0.1  # pt: a glyph's box may touch its boundary


@cache
def sheet_pdf(name: str, size: str = "poker", paper: str = "a4", bleed: bool = False) -> bytes:
    scenario = load(name if name.endswith(".yaml") else ROOT / "scenarios" / f"{name}.yaml")
    options = Options(card_size=size, paper=paper, bleed=bleed)
    pack, sheet = compute(scenario, choose_seed(scenario, None), options)
    _, html = render_html(scenario, pack, sheet)
    return to_pdf(scenario, html, card_size=size)


def header(path: Path, key: str) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(rf"#\s*{key}:\s*(.+)", line)
        if match:
            return match.group(1).strip()
    raise AssertionError(f"{path.name} needs a '# {key}:' line")


@pytest.mark.parametrize("path", TOO_LONG, ids=[p.stem for p in TOO_LONG])
def test_a_name_too_long_for_the_card_size_is_refused_by_build_and_validate_alike(path, muster, tmp_path):
    """Build refuses a name that cannot fit at 7 pt on the chosen card size: file:line:col, saying the longest that
    fits, exit 1, nothing written. `muster validate --cards SIZE` runs build's own fit check (in its limited child)
    and says the same at the same line and column (the file validated clean and then failed build before); without
    --cards it checks the poker size build defaults to.

    Issue 11 (a new user's trial): a 37-character side name too long for mini was told to 'print larger cards
    (--cards tarot)', where it did not fit either. The problem offers each larger size the name fits, and none when
    it fits no size: every size it offers validates clean, and every larger size it leaves out refuses.
    (One test, as each step is a fitting search of the cards: the three tests it was ran the same ones again.)"""
    want, size = header(path, "expect"), header(path, "cards")
    out = tmp_path / "out"
    built = muster("build", path, "--cards", size, "--out", out)
    assert built.code == 1, built.err
    assert "Traceback" not in built.err
    line = next(text for text in built.err.splitlines() if want in text)
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: ", line), line
    longest = int(re.search(r"the longest that fits is (\d+) characters", line).group(1))
    assert 0 < longest < len(re.search(r"'([^']+)' does not fit", line).group(1))
    assert not out.exists() or files_under(out) == []

    def validate(card_size: str):  # poker is the size validate checks when it is given none
        return muster("validate", path) if card_size == "poker" else muster("validate", path, "--cards", card_size)

    checked = validate(size)
    assert checked.code == 1 and "Traceback" not in checked.err, checked.err
    assert line in checked.err.splitlines()  # the same problem, at the same line and column
    offered = re.findall(r"--cards (\w+)", line)
    larger = [
        s for s in ("poker", "tarot") if CARD_SIZES[s][0] * CARD_SIZES[s][1] > CARD_SIZES[size][0] * CARD_SIZES[size][1]
    ]
    assert larger, "no larger card to offer: the test proves nothing of the offer"
    for other in larger:
        again = validate(other)
        assert (again.code == 0) is (other in offered), (other, line, again.err)


def test_a_name_pushed_out_of_the_band_by_a_name_above_it_is_not_blamed(muster):
    """A side name too long for a mini card's band runs onto a second line and pushes the team name under it out
    of the band: only the side name is reported (the team name was reported too, with a 'longest that fits' that
    moved each time it was followed). What fits is quoted without the space a cut ends on, and counted as quoted."""
    path = DATA / "side_name_pushes_team_name_out_of_band.yaml"
    checked = muster("validate", path, "--cards", "mini")
    assert checked.code == 1, checked.err
    (line,) = [text for text in checked.err.splitlines() if "does not fit" in text]
    assert ": sides[1].name: " in line
    count, quoted = re.search(r"the longest that fits is (\d+) characters \('([^']*)'\)", line).groups()
    assert quoted == quoted.rstrip() and int(count) == len(quoted)


def test_validate_checks_the_card_size_it_is_given_and_none_without_one():
    """A name that fits poker but not mini passes at poker and fails at mini; a booklet's planning
    (validate_limited without a card size) prints no cards, so it lays none out."""
    from generator.build import validate_limited
    from generator.errors import InputProblems

    path = DATA / "cards" / "warspike_leader_name_too_long_for_mini.yaml"
    assert validate_limited([str(path)], "poker") == []
    assert validate_limited([str(path)]) == []  # no card size: the mini card's problem is not looked for
    with pytest.raises(InputProblems, match=r"units\[0\]\.leader"):
        validate_limited([str(path)], "mini")


def test_the_poker_default_refuses_a_word_wider_than_the_card():
    """The scenario build with its default card size refuses too (one word cannot wrap)."""
    from generator.errors import InputProblems

    path = DATA / "cards" / "fireteam_team_name_one_long_word.yaml"
    scenario = load(path)
    pack, sheet = compute(scenario, choose_seed(scenario, None), Options())
    _, html = render_html(scenario, pack, sheet)
    with pytest.raises(InputProblems, match=r"does not fit a poker card even at 7 pt"):
        to_pdf(scenario, html, card_size="poker")


# --- the fitting mechanism on its own -------------------------------------------------------------------------

PAGE = """<html><head><style>@page {{ size: 80mm 40mm; margin: 0 }}
.box {{ position: absolute; left: 5mm; top: 5mm; width: 30mm; font-size: 12pt; line-height: 1.1 }}</style></head>
<body><div class="box" data-fit-lines="{lines}">{text}</div></body></html>"""


def layouts(html_calls: list):
    import weasyprint

    def layout(text: str):
        html_calls.append(text)
        return weasyprint.HTML(string=text).render()

    return layout


def test_fit_wraps_then_shrinks_to_the_lines_allowed_and_lays_out_once_when_all_fits():
    """A name that needs three lines at 12 pt in a two-line box is shrunk until two lines hold it; a name that
    fits costs one layout, the one that is printed."""
    calls: list = []
    document, html, unfit = fit.fit(
        PAGE.format(lines=2, text="Warthog armoured car of the Relay Guard"), layouts(calls)
    )
    assert unfit == []
    (measure,) = fit.measure(document).values()
    assert measure.fits and measure.lines <= 2
    assert fit.MIN_PT <= measure.size_pt < 12
    assert len(calls) >= 2
    calls.clear()
    document, html, unfit = fit.fit(PAGE.format(lines=2, text="Skyhook"), layouts(calls))
    assert len(calls) == 1 and unfit == []
    assert fit.measure(document)[1].size_pt == 12


def test_fit_finds_the_size_when_a_word_must_move_down_a_line_before_the_lines_come_right():
    """A big title of three long words in a two-line box: shrinking by the overflow's ratio keeps three lines for
    many quarter points (the tarot card back's 'WARSPIKE TACTICAL CORE' ran out of rounds at 19.5 pt and was
    reported as not fitting 'even at 9 pt'). It must fit, and well above the smallest size."""
    page = PAGE.format(lines=2, text="TACTICALLY OVERWHELMING CORE").replace("font-size: 12pt", "font-size: 30pt")
    page = page.replace("width: 30mm", "width: 60mm")
    page = page.replace('data-fit-lines="2"', 'data-fit-lines="2" data-fit-min="9"')
    document, _, unfit = fit.fit(page, layouts([]))
    assert unfit == []
    (measure,) = fit.measure(document).values()
    assert measure.fits and measure.lines == 2 and measure.size_pt > 12


def test_fit_keeps_a_name_inside_the_fixed_height_of_the_box_around_it():
    """A name in a band of fixed height: two lines allowed, but at 12 pt they run past the band's foot, so the name
    shrinks until its second line ends inside the band (WarSpike's wrapped mini names sat on the band's foot)."""
    page = PAGE.format(lines=2, text="Slingers of the western hills")
    page = page.replace('<div class="box"', '<div class="band"><div class="box"').replace(
        "</div></body>", "</div></div></body>"
    )
    page = page.replace(
        ".box {",
        ".band { position: absolute; left: 0; top: 0; width: 40mm; height: 12mm; padding-bottom: 1mm; box-sizing: border-box }\n.box {",
    )
    page = page.replace("position: absolute; left: 5mm; top: 5mm; width: 30mm", "margin: 4mm 0 0 5mm; width: 30mm")
    document, _, unfit = fit.fit(page, layouts([]))
    assert unfit == []
    (measure,) = fit.measure(document).values()
    band_content_height = (12 - 1) * 96 / 25.4 - 4 * 96 / 25.4  # the band's content box below the name's top
    assert measure.lines == 2 and measure.size_pt < 12
    assert measure.bottom <= band_content_height + fit.SLACK_PX


def test_fit_reports_text_that_cannot_fit_at_7pt_with_the_longest_prefix_that_does():
    """One unbreakable word wider than the box at 7 pt: reported, with how many of its characters fit."""
    text = "Hochleistungsaufklärungsgruppenführerin"
    page = PAGE.format(lines=1, text=text).replace('data-fit-lines="1"', 'data-fit-lines="1" data-fit-path="a.b"')
    _, _, unfit = fit.fit(page, layouts([]))
    (problem,) = unfit
    assert problem.path == "a.b" and problem.text == text and problem.min_pt == 7
    assert 0 < problem.longest < len(text)


def test_many_unfit_names_on_many_cards_cost_the_layouts_of_one():
    """Issue 12 (third red team, F10): sixty unit names too wide for their cards ran validation past its clock,
    each name's longest prefix searched alone (seven layouts a name). Names on different cards cannot move one
    another and are searched side by side; the answers are those a search of each alone gives, and a name pushed
    out of its band by the one above it is still not blamed."""
    card = (
        '<div class="card" style="position:absolute;left:{left}mm;top:5mm;width:30mm;height:12mm">'
        '<div class="name" data-fit-lines="1" data-fit-path="n{i}" style="font-size:7pt">{text}</div></div>'
    )
    head = "<html><head><style>@page { size: 540mm 40mm; margin: 0 }</style></head><body>"
    names = ["W" * (20 + i) for i in range(10)] + ["Hochleistungsaufklärungsgruppe" + "x" * i for i in range(0, 10, 2)]
    page = head + "".join(card.format(left=5 + 35 * i, i=i, text=t) for i, t in enumerate(names)) + "</body></html>"
    calls: list = []
    _, _, unfit = fit.fit(page, layouts(calls))
    assert len(calls) <= 10, len(calls)  # one layout, then one search's steps (6 for names up to 40 characters)
    assert [u.path for u in unfit] == [f"n{i}" for i in range(len(names))]
    for u, text in zip(unfit, names):
        _, _, (alone,) = fit.fit(head + card.format(left=5, i=0, text=text) + "</body></html>", layouts([]))
        assert u.longest == alone.longest and 0 < u.longest < len(text), text


def test_one_name_on_many_cards_is_searched_on_one_card_and_a_step_lays_out_only_its_cards():
    """Issue 12 (third red team, F7): a side name too long for 240 WarSpike unit cards was searched on all 240, every
    step a layout of the whole sheet. The cards (data-fit-unit) are left out of a step that does not measure them,
    and a name printed alike on many cards is searched on one of them."""
    card = (
        '<div class="card" data-fit-unit="" style="position:absolute;left:{left}mm;top:5mm;width:30mm;height:12mm">'
        '<div class="name" data-fit-lines="1" data-fit-path="side" style="font-size:7pt">{text}</div>'
        '<div class="name" data-fit-lines="1" style="font-size:7pt">Unit {i}</div></div><!--/data-fit-unit-->'
    )
    head = "<html><head><style>@page { size: 1100mm 40mm; margin: 0 }</style></head><body>"
    text = "W" * 30
    page = head + "".join(card.format(left=5 + 35 * i, i=i, text=text) for i in range(30)) + "</body></html>"
    calls: list = []
    _, _, unfit = fit.fit(page, layouts(calls))
    assert len(unfit) == 30 and {u.longest for u in unfit} == {unfit[0].longest} and 0 < unfit[0].longest < 30
    searched = [html for html in calls if html.count("Unit ") == 1]
    assert len(searched) >= 4 and all(fit.UNIT_END in html for html in searched)
    assert len(calls) - len(searched) <= 3  # the whole sheet: laid out, measured, and (at the end) as it prints


def test_names_past_the_ones_searched_are_reported_as_too_long_without_how_much_fits(monkeypatch):
    """Past fit.SEARCHED names, how much of each fits is not worked out (240 unit names too wide for their cards
    would lay out the whole sheet at every step): each is still reported at its line, told to shorten it."""
    from generator.build import check_card_fit
    from generator.errors import InputProblems

    monkeypatch.setattr(fit, "SEARCHED", 0)
    scenario = load(DATA / "cards" / "fireteam_team_name_one_long_word.yaml")
    with pytest.raises(InputProblems) as caught:
        check_card_fit(scenario, "poker")
    (problem,) = caught.value.problems
    assert (
        problem.message
        == "'Hochleistungsaufklärungsgruppenführerin' does not fit a poker card even at 7 pt: shorten it"
    )
    monkeypatch.setattr(fit, "SEARCHED", 24)
    with pytest.raises(InputProblems) as caught:
        check_card_fit(scenario, "poker")
    (problem,) = caught.value.problems
    assert "the longest that fits is" in problem.message


def test_a_name_that_reads_like_a_fitting_mark_is_printed_as_written():
    """The marks the fitting numbers are found only in tags: a name holding 'data-fit-lines=' or 'data-fit-unit'
    (its quotes escaped in the page's text) keeps its letters."""
    html = '<div data-fit-unit=""><div data-fit-lines="1">data-fit-lines=3 data-fit-unit="" x</div></div>'
    escaped = html.replace('3 data-fit-unit="" x', "3 data-fit-unit=&#34;&#34; x")
    numbered = fit.number(escaped)
    assert (
        numbered
        == '<div data-fit-unit="1"><div data-fit-id="1" data-fit-lines="1">data-fit-lines=3 data-fit-unit=&#34;&#34; x</div></div>'
    )


def test_a_name_pushed_below_its_bands_foot_is_shrunk_not_a_crash():
    """Issue 12, fourth red team F1: a team name pushed below the foot of its band by a side name that wrapped has
    no room at all (a negative height); shrinking it took a square root of that and ended in 'internal error'."""
    pushed = fit.Measure(1, 12.0, 7.0, 2, 3, 100.0, -20.0, 90.0, 40.0, 300.0)
    assert not pushed.fits and pushed.smaller() == 7.0
    path = DATA / "cards" / "fireteam_names_pushed_below_the_band.yaml"
    for size in ("poker", "mini"):
        scenario = load(path)
        with pytest.raises(InputProblems) as caught:
            check_card_fit(scenario, size)
        assert all("does not fit" in problem.message for problem in caught.value.problems)


# --- the shipped examples, read back ----------------------------------------------------------------------------

EXAMPLES = [
    ("relay-station", "poker", "a4", False),
    ("relay-station", "mini", "letter", False),
    ("bridge", "tarot", "a4", False),
    ("bridge", "poker", "letter", True),
    ("warspike-hold-the-ford", "poker", "a4", False),
    ("warspike-hold-the-ford", "mini", "a4", False),
    ("warspike-bridge-race", "tarot", "letter", False),
    ("hill-112", "mini", "a4", False),
    ("weissach-bridge", "poker", "a4", True),
]


def front_cards(name, size, paper, bleed):
    """Each front page's cards: (page, trim rectangle in pt, its characters, the shapes drawn on it)."""
    lay = layout(paper, size, bleed)
    w, h = CARD_SIZES[size]
    pdf = pdfplumber.open(io.BytesIO(sheet_pdf(name, size, paper, bleed)))
    for number in range(0, len(pdf.pages), 2):  # each sheet of fronts, then its backs
        page = pdf.pages[number]
        for slot in range(lay.per_sheet):
            x, y = lay.front_slot(slot)
            trim = (x * MM, y * MM, (x + w) * MM, (y + h) * MM)
            chars = [c for c in page.chars if inside(centre(c), trim)]
            if not chars:
                continue
            shapes = [s for s in page.curves + page.rects if within(s, trim)]
            yield number + 1, trim, chars, shapes


def centre(obj) -> tuple[float, float]:
    return ((obj["x0"] + obj["x1"]) / 2, (obj["top"] + obj["bottom"]) / 2)


def inside(point, box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def within(obj, box, slack: float = 0.5) -> bool:
    return (
        obj["x0"] >= box[0] - slack
        and obj["top"] >= box[1] - slack
        and obj["x1"] <= box[2] + slack
        and obj["bottom"] <= box[3] + slack
    )


def keyline_inside(trim, shapes) -> tuple[float, float, float, float]:
    """The keyline's inner edge: the smallest outline drawn on the card that is still nine tenths of its size."""
    w, h = trim[2] - trim[0], trim[3] - trim[1]
    rings = [s for s in shapes if s["width"] >= 0.85 * w and s["height"] >= 0.85 * h and s["width"] < w - 1]
    assert rings, "no keyline on the card"
    ring = min(rings, key=lambda s: s["width"] * s["height"])
    return (ring["x0"], ring["top"], ring["x1"], ring["bottom"])


def overlaps(a, b) -> bool:
    return (
        a["x0"] < b["x1"] - SLACK
        and b["x0"] < a["x1"] - SLACK
        and a["top"] < b["bottom"] - SLACK
        and b["top"] < a["bottom"] - SLACK
    )


@pytest.mark.parametrize("name,size,paper,bleed", EXAMPLES, ids=["-".join(map(str, e)) for e in EXAMPLES])
def test_every_character_sits_inside_its_cards_keyline_clear_of_badges_at_7pt_or_more(name, size, paper, bleed):
    """Nothing cut by the trim or a frame, nothing under a badge or shape, nothing under 7 pt, no '...'."""
    bad = []
    for number, trim, chars, shapes in front_cards(name, size, paper, bleed):
        # with bleed no keyline is drawn (the band runs to the cut); the safe area stays where it would be
        inset = (2 if size == "mini" else 3) * MM + 0.25 * MM
        safe = (
            (trim[0] + inset, trim[1] + inset, trim[2] - inset, trim[3] - inset)
            if bleed
            else keyline_inside(trim, shapes)
        )
        # badges and symbols: small closed shapes, neither hairlines nor the card's own outlines
        badges = [s for s in shapes if 3 * MM < s["width"] < 16 * MM and 3 * MM < s["height"] < 16 * MM]
        for c in chars:
            if not c["text"].strip():
                continue
            box = (c["x0"] + SLACK, c["top"] + SLACK, c["x1"] - SLACK, c["bottom"] - SLACK)
            if not (inside(box[:2], safe) and inside(box[2:], safe)):
                bad.append((number, c["text"], "outside the keyline"))
            if any(overlaps(c, b) for b in badges):
                bad.append((number, c["text"], "under a badge"))
            if c["size"] < 7 - 0.01:
                bad.append((number, c["text"], f"{c['size']:.2f} pt"))
        text = "".join(c["text"] for c in chars)
        if "\u2026" in text or "..." in text:
            bad.append((number, text[:40], "ellipsis"))
    assert bad == [], bad[:12]


def test_a_para_bellum_unit_card_too_full_for_its_size_is_refused_at_the_unit(muster, tmp_path):
    """A Para Bellum unit card's body (stats, weapons, track, actions) was fitted to the card only on tarot: a unit
    with eight long weapons ran its stress track off the foot of a mini and a poker card and built without a word.
    The body is fitted on every size; what cannot fit at 7 pt is refused at the unit (validate and build alike,
    nothing written), offering exactly the larger sizes it fits."""
    text = (ROOT / "scenarios" / "vesta-relay.yaml").read_text(encoding="utf-8")
    weapons = "".join(
        f"\n          - {{name: Heavy plasma projector Mk {i} long name, tags: [heavy, assault]}}" for i in range(8)
    )
    copy = tmp_path / "crowded.yaml"
    copy.write_text(text.replace("        weapons:\n          - {name: Carbines}", "        weapons:" + weapons, 1))
    lines = copy.read_text(encoding="utf-8").splitlines()
    at = next(n for n, line in enumerate(lines, 1) if "- name: Command Section" in line)
    out = tmp_path / "out"
    built = muster("build", copy, "--cards", "mini", "--out", out)
    assert built.code == 1 and "Traceback" not in built.err, built.err
    assert not out.exists() or files_under(out) == []
    for size in ("mini", "poker"):
        checked = muster("validate", copy, "--cards", size)
        assert checked.code == 1, (size, checked.err)
        (line,) = [text for text in checked.err.splitlines() if "does not fit" in text]
        assert line.startswith(f"{copy}:{at}:") and ": sides[0].units[0]: the card of 'Command Section' " in line, line
        assert "fewer weapons or shorter weapon names, or print larger cards (--cards tarot)" in line, line
    assert muster("validate", copy, "--cards", "tarot").code == 0


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("warspike-hold-the-ford", "mini"),
        ("warspike-hold-the-ford", "poker"),
        ("warspike-hold-the-ford", "tarot"),
        ("hill-112", "mini"),
        ("relay-station", "mini"),
        ("vesta-relay", "mini"),
        ("vesta-relay", "poker"),
    ],
)
def test_every_name_on_a_deck_prints_at_one_size(name, size):
    """Issue 11 (two fresh reads of the card sheets): a name too long for its band was shrunk alone, so one deck
    set "Slingers of the western hills" at 9.5 pt among names at 11 pt, "Optio's Contubernium" at 7.75 among 8.5,
    "Self-propelled guns" and "Warthog armoured car" smaller than their neighbours. A deck's names (each card's
    first line in the bold serif under its side's name) print at one size: the size the longest needs. So does
    the band's second line of a card of options or actions ("THE RETALIATOR / Reaction", "ACTION / Once an
    activation"): a fifth read found "Action" at 8.5 pt beside the Ford's names at 7 pt on one mini sheet."""
    sides = {side["name"].upper().replace(" ", "") for side in load(ROOT / "scenarios" / f"{name}.yaml").data["sides"]}
    bands = sides | {"THEINSTIGATOR", "THERETALIATOR", "ACTION", "EVERYSIDE"}  # the band's first line, in capitals
    sizes = {}
    for number, _, chars, _ in front_cards(name, size, "a4", False):
        text = "".join(c["text"] for c in sorted(chars, key=lambda c: (round(c["top"]), c["x0"]))).replace(" ", "")
        if not any(text.startswith(band) for band in bands):
            continue  # a role marker: no band
        serif = [c for c in chars if c["fontname"].endswith("Source-Serif-4-Bold") and c["text"].strip()]
        top = min(c["top"] for c in serif)
        first = [c for c in serif if abs(c["top"] - top) < 1]
        sizes.setdefault(round(first[0]["size"], 2), []).append((number, "".join(c["text"] for c in first)))
    assert len(sizes) == 1, {size: names[:3] for size, names in sizes.items()}


@pytest.mark.parametrize("size", ["poker", "mini", "tarot"])
def test_the_keyline_sits_clearly_inside_the_trim(size):
    """A cut half a millimetre off never shows a double line: the keyline is 2 mm or more inside every trim edge."""
    for number, trim, _, shapes in front_cards("relay-station", size, "a4", False):
        outer = [s for s in shapes if s["width"] >= 0.85 * (trim[2] - trim[0]) and s["width"] < trim[2] - trim[0] - 1]
        assert outer, f"page {number}: no keyline"
        for s in outer:
            gaps = (s["x0"] - trim[0], s["top"] - trim[1], trim[2] - s["x1"], trim[3] - s["bottom"])
            assert min(gaps) >= 2 * MM - SLACK, (number, [round(g / MM, 2) for g in gaps])


@pytest.mark.parametrize("size", ["poker", "mini", "tarot"])
def test_with_bleed_no_keyline_hangs_under_a_band_that_runs_to_the_cut(size):
    """Issue 11 (a fresh read of the bleed sheets): with --bleed the band's colour ran to the cut while the body's
    keyline stayed 3 mm inside the trim, a framed box hanging under a full-width band, on a line close enough to
    the cut to show a print shop's cutting error. With bleed no keyline is drawn; without, it is (above)."""
    for number, trim, _, shapes in front_cards("relay-station", size, "a4", True):
        outer = [
            s for s in shapes if s["width"] >= 0.85 * (trim[2] - trim[0]) and s["height"] >= 0.85 * (trim[3] - trim[1])
        ]
        assert outer == [], f"page {number}: a keyline with bleed"


@pytest.mark.parametrize(("size", "least"), [("poker", 0.36), ("tarot", 0.4)])
def test_poker_and_tarot_text_uses_the_cards_height(size, least):
    """Every tarot card's text (its lines' heights added up) fills over two fifths of the card's height, not a
    third; every poker card's over 0.36 (a poker Move card without jump packs filled 0.35, its vehicle's 0.29, the
    rest of its body blank beside the Fire card's)."""
    shares = []
    for _, trim, chars, _ in front_cards("relay-station", size, "a4", False):
        spans = sorted((c["top"], c["bottom"]) for c in chars if c["text"].strip())
        covered, end = 0.0, trim[1]
        for top, bottom in spans:
            if bottom > end:
                covered += bottom - max(top, end)
                end = bottom
        shares.append(covered / (trim[3] - trim[1]))
    # 0.29 to 0.35 before type was scaled to tarot (in DejaVu Sans, whose glyph boxes are taller than the bundled
    # Source Sans'); 0.39 to 0.50 after. Since every card of a kind prints its rules at one size (fit groups,
    # 2031328), a Move card of two short paragraphs takes the size Skyhook's jump-pack Move card fits: 0.36, still
    # above the third this test was written against; the deck as a whole fills more than two fifths. Since the
    # team cards (Move and Fire) print at one size, a Move card without jump packs takes the Fire card's size
    # (9.75 pt) and fills 0.34, its chance of beating the fixed move added; with how often a roll reaches each
    # distance (a tarot Move card's, a vehicle's too: a fresh read found them half empty) every card fills 0.42;
    # a poker card's Move card gives it too since a fresh read found its lower half blank (0.38 and more)
    shares.sort()
    assert shares[0] > least and shares[len(shares) // 2] >= 0.42, [round(s, 2) for s in shares]


def test_long_names_validation_accepts_wrap_or_shrink_clear_of_the_badge(tmp_path):
    """A 38-character team name and a 24-character side name print whole on a poker card:
    inside the keyline, clear of the badge (they were cut mid-letter and ran under the badge)."""
    text = (DATA / "cards" / "fireteam_vehicle_name_too_long_for_mini.yaml").read_text(encoding="utf-8")
    text = text.replace("name: Alpha", "name: Tenth Mechanised Reconnaissance Squadron")
    text = text.replace("name: Blue", "name: Syndicate Security Group")
    path = tmp_path / "long_names.yaml"
    path.write_text(text, encoding="utf-8")
    test_every_character_sits_inside_its_cards_keyline_clear_of_badges_at_7pt_or_more(str(path), "poker", "a4", False)
    (team,) = {t for t in card_texts(str(path)) if "Tenth" in t and "MOVE" in t}
    assert "TenthMechanisedReconnaissanceSquadron" in team


def card_texts(name: str, size: str = "poker") -> list[str]:
    """Each front's characters, spaces left out."""
    return [
        "".join(c["text"] for c in chars if c["text"].strip())
        for _, _, chars, _ in front_cards(name, size, "a4", False)
    ]


def test_fronts_print_no_internal_identifiers_and_the_side_once():
    """No `S1T1-move` or `hth` on a card; a side's name appears once on each of its cards."""
    texts = card_texts("relay-station")
    sides = [side["name"] for side in load(ROOT / "scenarios" / "relay-station.yaml").sides]
    for text in texts:
        assert not re.search(r"S\d+[TV]\d+|-(move|fire)\b|\bhth\b|\brecovery\b", text), text
        for side in sides:
            assert text.lower().count(side.lower().replace(" ", "")) <= 1, text


def test_backs_name_the_game_and_the_scenario():
    pdf = pdfplumber.open(io.BytesIO(sheet_pdf("relay-station")))
    back = pdf.pages[1].extract_text()
    assert "MUSTER" not in back
    assert "FIRETEAM" in back and "Relay Station Nine" in back


def test_a_wheeled_vehicles_move_card_says_only_what_applies_to_it():
    """The Warthog is a wheeled car: its Move card says nothing of hovercraft or helicopters."""
    (move,) = [t for t in card_texts("relay-station") if "Warthog" in t and "MOVE" in t]
    assert "hovercraft" not in move.lower() and "helicopter" not in move.lower()


def test_with_bleed_the_bands_colour_runs_past_the_trim():
    """--bleed exists so that a cut a little off shows colour, not white: each front's band reaches 3 mm past the
    trim on the top and both sides (it stopped at the trim, leaving the bleed white)."""
    from generator.cards import BLEED

    w, _ = CARD_SIZES["poker"]
    pdf = pdfplumber.open(io.BytesIO(sheet_pdf("bridge", "poker", "a4", True)))
    page = pdf.pages[0]
    coloured = [
        r
        for r in page.rects
        if r.get("fill") and r.get("non_stroking_color") not in (None, (1,), (1, 1, 1), [1], [1, 1, 1])
    ]
    wide = [r for r in coloured if abs(r["width"] / MM - (w + 2 * BLEED)) < 0.3]
    assert len(wide) == layout("a4", "poker", True).per_sheet, sorted({round(r["width"] / MM, 1) for r in coloured})


def test_a_side_name_that_fits_no_card_is_told_to_shorten_it_alone(muster, tmp_path):
    """A side name longer than any card's band holds (a side name prints on one line) offers no larger card."""
    text = (ROOT / "scenarios" / "bridge.yaml").read_text(encoding="utf-8")
    copy = tmp_path / "bridge.yaml"
    copy.write_text(text.replace("name: Red Banner Militia", "name: Red Banner Militia of the Upper Kessel Valleys"))
    checked = muster("validate", copy, "--cards", "mini")
    assert checked.code == 1
    (line,) = [text for text in checked.err.splitlines() if "does not fit" in text]
    assert line.endswith(": shorten it"), line


@pytest.mark.parametrize("size", ["poker", "mini", "tarot"])
@pytest.mark.parametrize("name", ["bridge", "relay-station"])
def test_every_card_of_one_kind_prints_its_rules_at_one_size(name, size):
    """Issue 11 (a third fresh read): on one deck's Fire cards the rules printed at two sizes (the Marines' cards,
    with the line for facing a vehicle, shrank; the Syndicate's did not). Texts of one fit group end at the
    smallest size any of them needed: every Fire card's "... HIT if the firer's total ..." is one size, read from the
    PDF (a mini card opens "Each rolls 2D6", not "Firer and target")."""
    sizes = set()
    with pdfplumber.open(io.BytesIO(sheet_pdf(name, size))) as pdf:
        for page in pdf.pages:
            words = page.extract_words(extra_attrs=["size"])
            sizes |= {
                round(w["size"], 2) for w, after in zip(words, words[1:]) if (w["text"], after["text"]) == ("HIT", "if")
            }
    assert len(sizes) == 1, sizes


@pytest.mark.parametrize("size", ["poker", "tarot"])
def test_a_fireteam_deck_prints_its_team_cards_rules_at_one_size_and_its_shared_cards_at_one(size):
    """Issue 11 (a fifth fresh read): within one deck the rules' size jumped from card to card (bridge poker: Move
    8.5 pt, Fire 8, HTH 7.25, Recovery 7). A publisher sets a deck's cards of one kind alike: the team cards (Move
    and Fire, a side's own) print their rules at one size, the shared cards (HTH and Recovery) at one, read from the
    PDF as the size of every character between the card's kind ('TEAM CARD', 'SHARED CARD') and its foot."""
    for name in ("bridge", "relay-station"):
        sizes: dict[str, set] = {}
        for _, _trim, chars, _ in front_cards(name, size, "a4", False):
            lines: dict[float, list] = {}
            for c in chars:
                lines.setdefault(round(c["bottom"], 0), []).append(c)
            text = {
                bottom: "".join(c["text"] for c in sorted(cs, key=lambda c: c["x0"])) for bottom, cs in lines.items()
            }
            (under, kind), *_ = [(bottom, words.split()[0]) for bottom, words in text.items() if words.endswith("CARD")]
            kind = "shared" if kind == "SHARED" else "team"
            foot = min(
                min(c["top"] for c in lines[bottom]) for bottom, words in text.items() if words.startswith("Deck")
            )
            body = [c for c in chars if under < c["top"] and c["bottom"] < foot and c["text"].strip()]
            sizes.setdefault(kind, set()).update(round(c["size"], 2) for c in body)
        assert set(sizes) == {"team", "shared"}, (name, sizes)
        assert all(len(found) == 1 for found in sizes.values()), (name, sizes)


def test_a_fit_group_takes_its_smallest_members_size():
    """fit._matched: each group's members at the group's smallest size; a member already there, or in no group,
    is left alone."""

    def measure(ident: int, size: float) -> fit.Measure:
        return fit.Measure(ident, size, 7.0, 0, 1, 100.0, None, 50.0, 10.0, 50.0)

    measures = {1: measure(1, 8.0), 2: measure(2, 7.25), 3: measure(3, 8.0), 4: measure(4, 9.0)}
    assert fit._matched({1: "fire", 2: "fire", 3: "move"}, measures) == {1: 7.25}
    assert fit._groups('<p data-fit-id="5" data-fit-lines="0" data-fit-group="rules Fire">') == {5: "rules Fire"}


@pytest.mark.parametrize("size, room_mm", [("poker", 8), ("mini", 8), ("tarot", 12)])
def test_a_morschauser_card_sets_its_rules_under_the_start_line_and_prints_no_tile(size, room_mm):
    """Issue 11 (a third fresh read): a one-line "starts in ..." left a blank line under it (its box was sized for
    two lines and the rules started at a fixed top). Issue 14: the cards printed every turn's tile, though the
    original rules keep a unit's tile face down until the Artillery Fire Phase is over, so a player deciding to
    fire would know the order. Read from the PDF, every unit card: the first rule starts within a line of the start
    line's foot; no "Turn" or "Tile" row and no playing card's suit anywhere; and the rules take the room the tiles
    left, the fullest card's text running to within `room_mm` of its trim's foot (a tarot card's next line is 5 mm
    and its safe area 4 mm: a size a quarter point larger runs past the foot)."""
    gaps, tiles, feet = [], [], []
    for number, trim, chars, _ in front_cards("hill-112", size, "a4", False):
        rows = []  # (top, text, chars) of each line: chars whose tops lie within half their size of the line's
        for c in sorted((c for c in chars if c["text"].strip()), key=lambda c: c["top"]):
            if rows and c["top"] - rows[-1][0] < c["size"] / 2:
                rows[-1][2].append(c)
            else:
                rows.append((c["top"], "", [c]))
        rows = [(top, "".join(c["text"] for c in sorted(cs, key=lambda c: c["x0"])), cs) for top, _, cs in rows]
        start = next(i for i, (_, text, _) in enumerate(rows) if "tarts" in text)
        while not re.search(r"(north|south|east|west)$", rows[start][1]):
            start += 1  # the start line wrapped: its last line ends with the facing
        bottom = max(c["bottom"] for c in rows[start][2])
        following = rows[start + 1]
        size_pt = max(c["size"] for c in following[2])
        gaps.append((number, following[1][:20], (following[0] - bottom) / size_pt))
        tiles += [(number, text) for _, text, _ in rows if text.startswith(("Turn", "Tile")) or set(text) & set("♥♣♦♠")]
        feet.append((trim[3] - max(c["bottom"] for c in chars)) / MM)
    assert all(gap < 1.0 for *_, gap in gaps), [g for g in gaps if g[2] >= 1.0][:6]
    assert tiles == []
    assert min(feet) < room_mm, [round(f, 1) for f in feet]


def test_a_full_tarot_fire_card_prints_its_rules_at_9pt_or_more_with_paragraphs_set_close():
    """Issue 11 (a third fresh read): relay-station's tarot Fire cards shrank their rules to 8.25 pt under a 34 pt
    title, with 4 mm between paragraphs whatever the size (11 pt of gap under 8 pt text). The rules now take the
    card from under a smaller title, and the gaps are in em: every Fire card's text 9 pt or more, and the space
    between two paragraphs less than the text's own size, read from the PDF."""
    sizes, gaps = set(), []
    with pdfplumber.open(io.BytesIO(sheet_pdf("relay-station", "tarot"))) as pdf:
        for page in pdf.pages:
            lines = page.extract_text_lines(return_chars=True)
            for above, below in zip(lines, lines[1:]):
                if below["text"].startswith(("Firer:", "Target:")):
                    size = below["chars"][0]["size"]
                    sizes.add(round(size, 2))
                    gaps.append((below["top"] - above["bottom"]) / size)
    assert sizes and min(sizes) >= 9, sizes
    assert gaps and max(gaps) < 1.0, [round(g, 2) for g in gaps]


def test_para_bellum_tarot_unit_cards_are_fitted_to_their_height_at_one_size():
    """Issue 11 (a fifth fresh read): Para Bellum's tarot unit cards set their body at 8.5 pt and left the lowest
    fifth of a 120 mm card blank, small beside the action cards' 12 pt. The body is fitted to the card from a
    larger size as one group: every unit card's rules ('Take Aim! helps only before a Fire!') print at one size
    of 9 pt or more, and the fullest card's text runs to within 12 mm of its trim's foot, read from the PDF."""
    for name in ("vesta-relay", "vesta-relay-discipline"):
        sizes, lowest = set(), []
        for _, trim, chars, _ in front_cards(name, "tarot", "a4", False):
            if "Action points" not in "".join(c["text"] for c in chars):
                continue  # an action card
            lines: dict[float, list] = {}
            for c in chars:
                lines.setdefault(round(c["bottom"], 0), []).append(c)
            for row in lines.values():
                text = "".join(c["text"] for c in sorted(row, key=lambda c: c["x0"]))
                if "TakeAim!helpsonly" in text.replace(" ", ""):
                    sizes |= {round(c["size"], 2) for c in row if c["text"].strip()}
            lowest.append(trim[3] - max(c["bottom"] for c in chars))
        assert len(sizes) == 1 and min(sizes) >= 9, (name, sizes)
        assert min(lowest) < 12 * MM, (name, [round(x / MM, 1) for x in lowest])


@pytest.mark.parametrize("size, room_mm", [("poker", 5), ("mini", 5), ("tarot", 12)])
def test_para_bellum_action_cards_use_their_height(size, room_mm):
    """Issue 11 (fresh reads of the card sheets): Para Bellum's action cards set their rules at 9 pt and left two
    thirds of a 120 mm tarot card blank; poker and mini cards, set at 7.5 and 7 pt, left the fullest of them (Fire!)
    a fifth blank and Move! half. The rules are fitted as one group from a larger size on every card size: every
    action card's rules print at one size, and the fullest card's text runs to within `room_mm` of its foot."""
    sizes, lowest = set(), []
    for _, _trim, chars, _ in front_cards("vesta-relay", size, "a4", False):
        # an action card's foot says so ('Para Bellum · action card'); a unit card may say 'any action card'
        if "ParaBellum·actioncard" not in "".join(c["text"] for c in chars).replace(" ", ""):
            continue
        name = max(c["size"] for c in chars)
        under = max(c["bottom"] for c in chars if c["size"] > name - 0.01)  # the action's name
        foot = max(c["top"] for c in chars)  # 'Para Bellum · action card'
        body = [c for c in chars if under < c["top"] and c["bottom"] < foot - 1 and c["text"].strip()]
        # the rules' size: the smallest of the card's upright text (its cost line is set larger)
        sizes.add(
            min(round(c["size"], 2) for c in body if "Bold" not in c["fontname"] and "Italic" not in c["fontname"])
        )
        lowest.append(foot - max(c["bottom"] for c in body))
    assert lowest and len(sizes) == 1 and min(sizes) >= 7, sizes
    if size == "tarot":
        assert min(sizes) > 10, sizes
    assert min(lowest) < room_mm * MM, [round(x / MM, 1) for x in lowest]


def test_a_card_line_never_breaks_between_a_figure_and_its_word_or_inside_a_game_term():
    """Issue 11 (a fifth fresh read): Fire cards broke 'heavy' / '+3' and 'light' / '+1' across lines, and Para
    Bellum's 'Stand' / 'Ready!'. Card text binds a signed figure to the word before and after it, and a two-word
    term ending in '!', with no-break spaces; read from relay-station's and bridge's card PDFs at every size, no line
    ends with a cover level or 'at most' whose figure starts the next."""
    from generator.rendering import unbroken

    assert (
        unbroken("cover: light +1, heavy +3; +1 each troop")
        == "cover: light\u00a0+1, heavy\u00a0+3; +1\u00a0each troop"
    )
    assert unbroken("Run! · Stand Ready!") == "Run! · Stand\u00a0Ready!"
    assert unbroken('2D6 beats 6" 58.3%') == '2D6 beats 6" 58.3%'
    broken = []
    for name in ("bridge", "relay-station"):
        for size in ("poker", "mini", "tarot"):
            with pdfplumber.open(io.BytesIO(sheet_pdf(name, size))) as pdf:
                for page in pdf.pages:
                    lines = [line["text"] for line in page.extract_text_lines()]
                    broken += [
                        (name, size, above, below)
                        for above, below in zip(lines, lines[1:])
                        if re.search(r"(light|medium|heavy|most)$", above) and re.match(r"[+\u2212]\d", below)
                    ]
    assert broken == []


@pytest.mark.parametrize("size", ["poker", "mini", "tarot"])
@pytest.mark.parametrize("name", ["warspike-hold-the-ford", "warspike-bridge-race"])
def test_warspike_cards_of_one_kind_print_their_text_at_one_size(name, size):
    """Issue 11 (a fresh read): the Instigator and Retaliator markers, a pair always printed together, set their
    rules at two sizes (hold-the-ford tarot 11.2 and 10.2 pt), as did the unit cards' Action and Reaction lists
    and the option cards' rules, each fitted alone. Read from the PDF: every word of the two markers' rules at
    one size, every unit card's 'one per turn:' at one size, every option card's 'Block:' at one size."""
    markers: list[set] = []
    turn, block = set(), set()
    for _, _trim, chars, _ in front_cards(name, size, "a4", False):
        largest = max(c["size"] for c in chars)
        kind = [c for c in chars if c["size"] > largest - 0.01]  # a marker's role is its largest word
        if "".join(c["text"] for c in kind).strip() in ("INSTIGATOR", "RETALIATOR"):
            under = max(c["bottom"] for c in kind)
            foot = max(c["top"] for c in chars)
            markers.append({round(c["size"], 2) for c in chars if under < c["top"] < foot - 1 and c["text"].strip()})
        words = pdfplumber.utils.extract_words(chars, extra_attrs=["size"])
        turn |= {round(w["size"], 2) for w in words if w["text"] == "turn:"}
        block |= {round(w["size"], 2) for w in words if w["text"] == "Block:"}
    assert len(markers) == 2 and all(markers), markers
    assert len(markers[0] | markers[1]) == 1, markers
    assert len(turn) == 1 and len(block) == 1, (turn, block)


@pytest.mark.parametrize("size", ["poker", "mini", "tarot"])
def test_warspike_stat_names_stand_on_one_line_clear_of_their_cells_lines(size):
    """Issue 11 (a fresh read): on a mini card the four stats across left 'Troops' and 'Mentality' within 0.7 pt
    of their cells' lines and broke 'Move rate' onto two lines. Every stat's name prints on one line, at least
    0.5 mm from any vertical line of the card beside it, read from the PDF."""
    clear = 0.5 * MM
    for _, trim, chars, _ in front_cards("warspike-hold-the-ford", size, "a4", False):
        words = pdfplumber.utils.extract_words(chars, extra_attrs=["size"])
        firsts = {}  # each name's first word: 'Stature' comes again in the move box's sum
        for w, after in zip(words, [*words[1:], None]):
            if w["text"] in ("Troops", "Stature", "Mentality") or (w["text"], after and after["text"]) == (
                "Move",
                "rate",
            ):
                firsts.setdefault(w["text"], w)
        names = list(firsts.values())
        if not names:
            continue
        assert len(names) == 4, [w["text"] for w in words]
        move = next(w for w in words if w["text"] == "rate")
        assert any(abs(move["bottom"] - w["bottom"]) < 0.5 for w in names if w["text"] == "Move")
        with pdfplumber.open(io.BytesIO(sheet_pdf("warspike-hold-the-ford", size))) as pdf:
            edges = [
                e
                for page in pdf.pages[:1]
                for e in page.edges
                if e["orientation"] == "v" and trim[0] <= e["x0"] <= trim[2] and trim[1] <= e["top"] <= trim[3]
            ]
        for w in names + [move]:
            beside = [e for e in edges if e["top"] < w["bottom"] and e["bottom"] > w["top"]]
            gaps = [min(abs(e["x0"] - w["x0"]), abs(e["x0"] - w["x1"])) for e in beside]
            assert not gaps or min(gaps) >= clear, (w["text"], round(min(gaps) / MM, 2))
        break  # the first unit card: every unit card is set alike
