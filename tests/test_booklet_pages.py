"""The booklet's page flow: no blank pages, one appendix per system, chapter order and logo from the config,
odd start pages when double-sided, and contents and bookmarks pointing at each part's first printed page."""

from __future__ import annotations

import re
import shutil

import pdfplumber
import pytest
from conftest import SCENARIOS
from pypdf import PdfReader

from generator.systems import get

# Two Para Bellum scenarios with different variants (rules as written, discipline) and one WarSpike scenario;
# their chapters are 3 and 4 pages long, so double-sided printing needs blank pages between some of them.
GIVEN = ["vesta-relay", "warspike-hold-the-ford", "vesta-relay-discipline"]
ORDER = ["warspike-hold-the-ford", "vesta-relay-discipline", "vesta-relay"]
TITLES = {
    "vesta-relay": "The Vesta Relay",
    "vesta-relay-discipline": "Vesta Relay, Discipline Variant",
    "warspike-hold-the-ford": "The Ford at Afon Du",
}
MM = 72 / 25.4
HEAD_BAND, FOOT_BAND = 14 * MM, 15 * MM  # templates/booklet/stamp.css: the running head and page number


def _config(double_sided: bool) -> str:
    chapters = "".join(f"  - {name}.yaml\n" for name in ORDER)
    return (
        "club: Test Club\nseason: Spring 2027\nlogo: crest.png\n"
        f"double_sided: {'true' if double_sided else 'false'}\nchapters:\n{chapters}"
    )


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """The scenarios, a PNG crest and two configs (single- and double-sided) in one folder."""
    from PIL import Image

    folder = tmp_path_factory.mktemp("club")
    for name in GIVEN:
        shutil.copy(SCENARIOS / f"{name}.yaml", folder / f"{name}.yaml")
    Image.new("RGB", (60, 40), (150, 20, 20)).save(folder / "crest.png")
    (folder / "single.yaml").write_text(_config(False))
    (folder / "double.yaml").write_text(_config(True))
    return folder


def _build(folder, config: str, out):
    from generator.cli import main

    paths = [str(folder / f"{name}.yaml") for name in GIVEN]
    assert main(["booklet", *paths, "--out", str(out), "--config", str(folder / config), "--jobs", "2"]) == 0
    return out


@pytest.fixture(scope="module")
def single(club, tmp_path_factory):
    return _build(club, "single.yaml", tmp_path_factory.mktemp("out") / "single.pdf")


@pytest.fixture(scope="module")
def double(club, single):
    return _build(club, "double.yaml", single.parent / "double.pdf")  # same folder: the parts come from the cache


def _page_texts(path) -> list[tuple[str, str]]:
    """Each page's running head and the text of its text area (between the head and the page number)."""
    out = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            head = page.crop((0, 0, page.width, HEAD_BAND)).extract_text() or ""
            body = page.crop((0, HEAD_BAND, page.width, page.height - FOOT_BAND)).extract_text() or ""
            out.append((head.strip(), body.strip()))
    return out


def _parts(path) -> list[tuple[str, int]]:
    """The booklet's top-level bookmarks but the front matter's: (title, page number)."""
    reader = PdfReader(path)
    return [
        (item.title, reader.get_destination_page_number(item) + 1)
        for item in reader.outline
        if not isinstance(item, list) and item.title not in ("Cover", "Contents")
    ]


def _contents(path) -> list[tuple[str, int]]:
    """The contents lines' links (a line links its title and its page number): (text, page number it opens)."""
    reader = PdfReader(path)
    links = []
    for annot in reader.pages[1]["/Annots"]:
        annot = annot.get_object()
        links.append((str(annot["/Contents"]), reader.get_page_number(annot["/Dest"][0].get_object()) + 1))
    return list(dict.fromkeys(links))


def test_no_page_of_the_booklet_is_blank(single):
    """Every page has text in its text area: no appendix opens on an empty page (it did, from the pack's
    zero-height running title filling page 1 ahead of the first section's page break)."""
    pages = _page_texts(single)
    blank = [number for number, (_, body) in enumerate(pages, 1) if not body]
    assert blank == []


def test_one_appendix_per_rule_system_with_a_section_per_variant_set(single):
    """Para Bellum's two variant sets share one appendix, with a section each; the notes print once."""
    appendices = [title for title, _ in _parts(single) if title.startswith("Appendix")]
    assert appendices == ["Appendix A: WarSpike Tactical Core", "Appendix B: Para Bellum"]
    first = _parts(single)[0][1]  # the parts' pages: the contents lines name the appendices' parts too
    text = "\n".join(body for _, body in _page_texts(single)[first - 1 :])
    discipline = get("para-bellum").variant_names()["discipline"]  # headed by its name, not its id
    assert "Para Bellum: Rules as written" in text and f"Para Bellum: With {discipline}" in text
    assert text.count("Quick reference") == 2  # once for each system, not once per variant set
    # a Para Bellum note, printed once (anywhere on a line: the notes run in two columns, read across)
    assert text.count("10. Activation.") == 1


def test_every_appendix_prints_its_title_first_on_its_first_page(single):
    """An appendix's first page opens with its title, as a chapter's opens with its cover (it opened with its
    first part or variant set, its title only in the running head)."""
    pages = _page_texts(single)
    appendices = [(title, page) for title, page in _parts(single) if title.startswith("Appendix")]
    assert appendices
    for title, page in appendices:
        assert pages[page - 1][1].splitlines()[0] == title, (title, page)


def test_an_appendixs_contents_line_says_what_it_holds(single):
    """Each appendix's contents line names the parts its bookmarks name, less its variant sets' headings (every
    line said "odds and quick reference": WarSpike's appendix holds the turn sequence and no odds part)."""
    outline = PdfReader(single).outline
    with pdfplumber.open(single) as pdf:
        contents = " ".join(pdf.pages[1].extract_text().split())
    checked = 0
    for index, item in enumerate(outline):
        if isinstance(item, list) or not item.title.startswith("Appendix"):
            continue
        system = item.title.split(": ", 1)[1]
        held = []
        for title, _ in _outline_items(outline[index + 1]):
            if not title.startswith(f"{system}: ") and title not in held:
                held.append(title)
        assert f"{' · '.join(held)}, shared by every {system} scenario" in contents, (held, contents)
        checked += 1
    assert checked == 2


def test_chapters_print_in_the_configs_order(single):
    """`chapters:` in the config orders the chapters, not the command line; the appendices follow in the
    order their systems first appear."""
    chapters = [title for title, _ in _parts(single) if not title.startswith("Appendix")]
    assert chapters == [TITLES[name] for name in ORDER]
    assert [text for text, _ in _contents(single)][:3] == chapters


def test_the_clubs_logo_is_on_the_cover(single):
    """The logo named in the config is drawn on page 1, above the club's name."""
    with pdfplumber.open(single) as pdf:
        cover = pdf.pages[0]
        images = cover.images
        assert len(images) == 1
        club = [w for w in cover.extract_words() if w["text"] == "Club"][0]
        assert images[0]["bottom"] <= club["top"]


@pytest.mark.parametrize("which", ["single", "double"])
def test_contents_and_bookmarks_open_each_parts_first_printed_page(which, request):
    """A part's bookmark and contents link open the page that carries its own running head first and has
    text, the page before belonging to another part (or left blank)."""
    path = request.getfixturevalue(which)
    pages = _page_texts(path)
    parts = _parts(path)
    assert len(parts) == 5
    assert _contents(path) == parts
    for title, page in parts:
        head, body = pages[page - 1]
        assert head.endswith(title) and body, (title, page)
        assert not pages[page - 2][0].endswith(title), (title, page)


def test_double_sided_starts_every_part_on_a_right_hand_page(double, single):
    """double_sided: every chapter and appendix opens on an odd page; the only pages without text are blank
    left-hand pages just before a part, with no running head or number. Single-sided has no such page."""
    pages = _page_texts(double)
    starts = [page for _, page in _parts(double)]
    assert all(page % 2 == 1 for page in starts), starts
    blanks = [number for number, (head, body) in enumerate(pages, 1) if not body]
    assert blanks and all(number + 1 in starts and number % 2 == 0 for number in blanks), (blanks, starts)
    assert all(pages[number - 1] == ("", "") for number in blanks)
    with pdfplumber.open(double) as pdf:
        assert all(not pdf.pages[number - 1].chars for number in blanks)  # nor a page number
    assert len(pages) == len(_page_texts(single)) + len(blanks)


def _outline_items(items, reader=None):
    """Every bookmark under `items`, at every depth: (title, page number it opens, or None without a reader)."""
    for item in items:
        if isinstance(item, list):
            yield from _outline_items(item, reader)
        else:
            yield item.title, reader.get_destination_page_number(item) + 1 if reader else None


def _outline(path) -> list[tuple[str, int]]:
    """Every bookmark at every depth: (title, page number it opens)."""
    reader = PdfReader(path)
    return list(_outline_items(reader.outline, reader))


def test_no_bookmark_or_contents_line_opens_a_blank_page(double):
    """Blank left-hand pages stay blank, as a publisher leaves them (no running head, no number, no "this page
    is intentionally left blank"): so no bookmark, at any depth, and no contents line may open one."""
    pages = _page_texts(double)
    blanks = {number for number, (_, body) in enumerate(pages, 1) if not body}
    assert blanks
    opened = _outline(double) + _contents(double)
    assert len(opened) > len(_parts(double)) + 2
    assert [(title, page) for title, page in opened if page in blanks] == []


def _bad(muster, club, tmp_path, config: str):
    (club / "bad.yaml").write_text(config)
    out = tmp_path / "booklet.pdf"
    paths = [club / f"{name}.yaml" for name in GIVEN]
    result = muster("booklet", *paths, "--out", out, "--config", club / "bad.yaml", "--jobs", "1")
    assert result.code == 1 and not out.exists() and "Traceback" not in result.err
    return result.err


def test_a_chapter_not_given_is_refused_at_its_line(muster, club, tmp_path):
    """A name in `chapters` that is not among the scenarios given is refused at its line and column."""
    err = _bad(
        muster,
        club,
        tmp_path,
        "club: C\nseason: S\nchapters:\n  - vesta-relay.yaml\n  - vesta-relays.yaml\n"
        "  - warspike-hold-the-ford.yaml\n  - vesta-relay-discipline.yaml\n",
    )
    assert "bad.yaml:5:5: chapters[1]: 'vesta-relays.yaml' is not one of the scenarios given" in err
    assert "did you mean 'vesta-relay.yaml'" in err


def test_a_scenario_left_out_of_chapters_is_refused(muster, club, tmp_path):
    """Every scenario given must be named in `chapters`; the one left out is named, at the list's line."""
    err = _bad(muster, club, tmp_path, "club: C\nseason: S\nchapters:\n  - vesta-relay.yaml\n  - vesta-relay.yaml\n")
    assert "bad.yaml:4:3: chapters: every scenario given must be listed; missing" in err
    assert "warspike-hold-the-ford.yaml, vesta-relay-discipline.yaml" in err
    assert "bad.yaml:5:5: chapters[1]: 'vesta-relay.yaml' is named twice" in err


@pytest.mark.parametrize(
    ("logo", "message"),
    [
        ("../crest.png", "bad.yaml:3:7: logo: expected a plain relative path"),
        ("nowhere.png", "bad.yaml:3:7: logo: picture not found: nowhere.png"),
        ("vesta-relay.yaml", "bad.yaml:3:7: logo: expected a plain relative path to a PNG"),
        ("fake.png", "bad.yaml:3:7: logo: fake.png is not a picture"),
    ],
)
def test_a_logo_is_held_to_the_rules_for_scenario_pictures(muster, club, tmp_path, logo, message):
    """The logo must be a real picture file inside the config's folder, named by a plain relative path."""
    (club / "fake.png").write_text("a text file with a picture's name")
    assert message in _bad(muster, club, tmp_path, f"club: C\nseason: S\nlogo: {logo}\n")


def test_the_configs_problems_and_the_scenarios_are_listed_together(muster, club, tmp_path):
    """A config with an unknown key and a scenario with a wrong value: both problems are listed, at their
    files' lines and columns, and nothing is written (the config's stopped the booklet before any scenario
    was read)."""
    bad = tmp_path / "bad-scenario.yaml"
    bad.write_text((club / "vesta-relay.yaml").read_text().replace("system: para-bellum", "system: para-belum"))
    (tmp_path / "club.yaml").write_text("club: C\nseason: S\ncolour: red\n")
    out = tmp_path / "booklet.pdf"
    result = muster(
        "booklet", club / "warspike-hold-the-ford.yaml", bad, "--out", out, "--config", tmp_path / "club.yaml"
    )
    assert result.code == 1 and not out.exists() and "Traceback" not in result.err
    assert "club.yaml:3:1: colour: unknown key 'colour'" in result.err
    assert re.search(r"bad-scenario\.yaml:\d+:\d+: system: .*para-belum", result.err), result.err
    assert "2 problems; nothing was written" in result.err


@pytest.mark.parametrize(
    "introduction, message",
    [
        ("'" + "[" * 300 + "'", "bad.yaml:3:15: introduction: at most"),
        ("'" + "> " * 40 + "deep'", "bad.yaml:3:15: introduction: lists or quotes nested deeper than"),
        ("'See ![the crest](nowhere.png).'", "bad.yaml:3:"),
        ("'See ![the map](../crest.png).'", "refused"),
    ],
    ids=["brackets", "nesting", "missing picture", "outside picture"],
)
def test_the_introduction_is_checked_as_scenario_prose_is(muster, club, tmp_path, introduction, message):
    """The booklet's introduction is Markdown like a briefing: validation bounds its brackets and nesting and
    checks its pictures, each problem at the config's line and column (it was never checked, and its pictures
    were dropped without a word)."""
    err = _bad(muster, club, tmp_path, f"club: C\nseason: S\nintroduction: {introduction}\n")
    assert message in err, err
    assert "introduction" in err


def test_a_picture_in_the_introduction_prints_on_the_cover(muster, club, tmp_path):
    """A picture the introduction names, beside the config, prints on the cover from its checked bytes."""
    (club / "pictured.yaml").write_text(
        "club: Test Club\nseason: S\nintroduction: 'Our table: ![the crest](crest.png)'\n"
    )
    out = tmp_path / "booklet.pdf"
    paths = [club / f"{name}.yaml" for name in GIVEN]
    result = muster("booklet", *paths, "--out", out, "--config", club / "pictured.yaml", "--jobs", "1")
    assert result.code == 0, result.err
    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages[0].images) == 1


def test_no_picture_or_scenario_is_read_in_the_booklets_own_process(tmp_path, monkeypatch):
    """Every step of a booklet build that reads the user's files runs in a limited child: the config (its logo),
    each scenario, the planning and the cache keys (which read every picture again; an SVG is parsed to check it).
    The parent parsed every scenario and every picture with no limit (issue 12)."""
    import os

    from generator import fetcher
    from generator.cli import main

    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>'
    (tmp_path / "map.svg").write_text(svg)
    (tmp_path / "crest.svg").write_text(svg)
    scenario = (SCENARIOS / "bridge.yaml").read_text()
    (tmp_path / "bridge.yaml").write_text(
        scenario.replace("briefing: |\n", "briefing: |\n  ![the map](map.svg)\n\n", 1)
    )
    (tmp_path / "club.yaml").write_text("club: C\nseason: S\nlogo: crest.svg\n")
    readers = tmp_path / "readers.txt"
    checked = fetcher.check_picture

    def check_picture(data, name):
        with open(readers, "a") as record:
            record.write(f"{os.getpid()}\n")
        return checked(data, name)

    monkeypatch.setattr(fetcher, "check_picture", check_picture)
    monkeypatch.setenv("MUSTER_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "booklet.pdf"
    code = main(["booklet", str(tmp_path / "bridge.yaml"), "--out", str(out), "--config", str(tmp_path / "club.yaml")])
    assert code == 0 and out.exists()
    pids = readers.read_text().split()
    assert pids, "no picture was checked: the test proves nothing"
    assert str(os.getpid()) not in pids


def test_an_appendix_prints_each_variant_sets_own_scatter_and_movement_costs():
    """Issue 11 (found by a fresh read of the booklet): the Morschauser appendix printed its quick reference once,
    as the rules are written ("Scatter: Original scatter", "Woods: 1"), under a heading saying "in play", while
    Hill 112 plays Clock-face scatter and woods costing 2. What a variant changes in the quick reference now prints
    in each variant set's section; the rest of it once."""
    from generator.booklet.appendix import appendix_html
    from generator.build import Options, choose_seed, compute, load

    sets = []
    for name in ("weissach-bridge", "hill-112"):
        scenario = load(SCENARIOS / f"{name}.yaml")
        pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False, whole_reference=True)
        sets.append((tuple(scenario.data.get("variants", ())), scenario, pack))
    sets.sort(key=lambda s: len(s[0]))
    html = appendix_html(sets, "Appendix B: Morschauser Modern")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    as_written, with_variants = text.split("Morschauser Modern: With ", 1)
    as_written = as_written.split("Morschauser Modern: Rules as written", 1)[1]
    assert "Original scatter" in as_written and "Woods: 1." in as_written
    assert "Clock-face scatter" in with_variants and "Woods: 2." in with_variants
    assert "Original scatter" not in with_variants and "Woods: 1." not in with_variants
    # the section is headed by the scheme's name alone: "Scatter: Clock-face scatter" said it twice
    headings = re.findall(r"<h3>([^<]*scatter[^<]*)<", html, flags=re.I)  # a heading's words, before its "(continued)"
    assert sorted(headings) == ["Clock-face scatter", "Original scatter"], headings
    assert html.count(">Unit types</h3>") == 1 and "costs in play" not in text  # the rest once; no "in play"


def test_a_booklet_speaks_of_itself_as_a_book(single):
    """Issue 11 (a fresh read of the booklet): its chapters and appendices kept the packs' words, "this pack reads
    them as...", in a book that is no pack. A booklet says "this book"; a pack keeps "this pack"."""
    from generator.booklet.parts import in_a_book

    text = " ".join(body for _, body in _page_texts(single))
    assert not re.search(r"(?i)\bthis pack\b", text)
    assert re.search(r"(?i)\bthis book reads\b", " ".join(text.split()))
    assert in_a_book("This pack reads; this pack prints; a package") == "This book reads; this book prints; a package"


def test_a_wide_map_turns_on_a_portrait_page_in_a_book(muster, tmp_path):
    """Issue 11 (a fresh read of the booklet): the bridge's 72 x 48 map printed on a landscape page in the middle of a
    portrait book meant to be printed on both sides. Every page of a book is upright; the wide map keeps its
    landscape drawing turned a quarter on its portrait page, as large as the page's text height allows."""
    out = tmp_path / "book.pdf"
    result = muster("booklet", SCENARIOS / "bridge.yaml", "--out", out, "--no-cache")
    assert result.code == 0, result.err
    with pdfplumber.open(out) as pdf:
        assert all(page.height > page.width for page in pdf.pages)
        turned_pages = [page for page in pdf.pages if sum(not char["upright"] for char in page.chars) > 100]
        assert len(turned_pages) == 1
        (page,) = turned_pages
        turned = [char for char in page.chars if not char["upright"]]
        assert len(turned) > len(page.chars) / 2
        # the map's drawing spans most of the page's height (more than 200 mm), not a third of a portrait page
        top = min(char["top"] for char in turned)
        bottom = max(char["bottom"] for char in turned)
        assert (bottom - top) * 25.4 / 72 > 200
