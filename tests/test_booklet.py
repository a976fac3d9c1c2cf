"""The club booklet: contents that match the pages, one appendix per system, bookmarks, every problem first, the cache."""

from __future__ import annotations

import io
import json
import re
import shutil

import pytest
from conftest import SCENARIOS
from pypdf import PdfReader

FILES = ["bridge", "relay-station", "warspike-hold-the-ford"]


@pytest.fixture(scope="module")
def season(tmp_path_factory):
    """Three scenarios (two of one system) copied to a folder, and a booklet built from them once."""
    folder = tmp_path_factory.mktemp("season")
    for name in FILES:
        shutil.copy(SCENARIOS / f"{name}.yaml", folder / f"{name}.yaml")
    config = folder / "club.yaml"
    config.write_text("club: Test Club\nseason: Spring 2027\nauthor: The Editor\nintroduction: Hello **members**.\n")
    return folder, config


def _booklet(muster, season, out, *extra):
    folder, config = season
    paths = [folder / f"{n}.yaml" for n in FILES]
    return muster("booklet", *paths, "--out", out, "--config", config, "--jobs", "1", *extra)


@pytest.fixture(scope="module")
def built_booklet(season, tmp_path_factory):
    from generator.cli import main

    out = tmp_path_factory.mktemp("booklet") / "booklet.pdf"
    folder, config = season
    code = main(
        [
            "booklet",
            *[str(folder / f"{n}.yaml") for n in FILES],
            "--out",
            str(out),
            "--config",
            str(config),
            "--jobs",
            "2",
        ]
    )
    assert code == 0
    return out


def _outline(reader):
    flat = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                flat.append((depth, item.title, reader.get_destination_page_number(item) + 1))

    walk(reader.outline, 0)
    return flat


def test_contents_page_numbers_match_the_chapters_bookmarks(built_booklet):
    """Each contents line's page number is the page its chapter's bookmark opens, and a title is on that page."""
    reader = PdfReader(built_booklet)
    top = {title: page for depth, title, page in _outline(reader) if depth == 0}
    contents = reader.pages[1].extract_text()
    for title in ("The Bridge at Kessel Ford", "Relay Station Nine", "The Ford at Afon Du"):
        match = re.search(re.escape(title) + r".*?(\d+)\s*$", contents, flags=re.M | re.S)
        assert match, title
        assert title in top
        assert title in reader.pages[top[title] - 1].extract_text()


def test_contents_lines_link_to_their_chapters(built_booklet):
    """Every contents line is a link to the page its chapter's bookmark opens."""
    reader = PdfReader(built_booklet)
    starts = {page for depth, title, page in _outline(reader) if depth == 0 and title not in ("Cover", "Contents")}
    targets = set()
    for annot in reader.pages[1]["/Annots"]:
        dest = annot.get_object()["/Dest"]
        targets.add(reader.get_page_number(dest[0].get_object()) + 1)
    assert targets == starts


def test_one_appendix_per_system_used(built_booklet):
    """Two Fireteam scenarios share one Fireteam appendix; WarSpike gets its own; nothing else."""
    reader = PdfReader(built_booklet)
    appendices = [t for d, t, _ in _outline(reader) if d == 0 and t.startswith("Appendix")]
    assert appendices == ["Appendix A: Fireteam Tomorrow", "Appendix B: WarSpike Tactical Core"]
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert len(re.findall(r"Weapons \(this \w+’s table\)", text)) == 1  # the Fireteam reference, printed once


def test_cover_metadata_page_numbers_and_running_heads(built_booklet):
    """The cover names club and season; pages carry 'n / N' and the chapter as running head; metadata is set."""
    reader = PdfReader(built_booklet)
    total = len(reader.pages)
    cover = reader.pages[0].extract_text()
    assert "Test Club" in cover and "Spring 2027" in cover and "members" in cover
    third = reader.pages[2].extract_text()
    assert f"3 / {total}" in third
    assert "The Bridge at Kessel Ford" in third
    meta = reader.metadata
    assert meta.title == "Test Club scenarios" and meta.author == "The Editor"
    assert "Spring 2027" in meta.subject
    assert reader.trailer["/Root"]["/Lang"] == "en"


def test_problems_in_several_files_are_all_listed_and_nothing_written(muster, tmp_path):
    """A booklet with two bad files lists both files' problems and writes no PDF."""
    bad_one = tmp_path / "one.yaml"
    bad_one.write_text((SCENARIOS / "bridge.yaml").read_text().replace("quality: Good", "quality: Goood", 1))
    bad_two = tmp_path / "two.yaml"
    bad_two.write_text(
        (SCENARIOS / "relay-station.yaml").read_text().replace("system: fireteam-tomorrow", "system: nope")
    )
    out = tmp_path / "out" / "booklet.pdf"
    result = muster("booklet", SCENARIOS / "bridge.yaml", bad_one, bad_two, "--out", out)
    assert result.code == 1
    assert "one.yaml:" in result.err and "did you mean 'Good'" in result.err
    assert "two.yaml:" in result.err
    assert not out.exists()


def test_cache_reuses_chapters_and_rerenders_only_a_changed_one(muster, season, built_booklet, tmp_path, monkeypatch):
    """A fresh one-process build equals the two-process one byte for byte; a second build renders nothing;
    after one edit only that chapter renders again, and after a new title its system's appendix too (its
    sections name the chapters that play them)."""
    monkeypatch.setenv("MUSTER_CACHE", str(tmp_path / "cache"))
    stats = tmp_path / "stats.json"
    monkeypatch.setenv("MUSTER_STATS", str(stats))
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    assert _booklet(muster, season, first).code == 0
    assert json.loads(stats.read_text())["rendered"] == 5  # three chapters, two appendices
    assert first.read_bytes() == built_booklet.read_bytes()  # same input, same bytes, however many processes
    assert _booklet(muster, season, second).code == 0
    assert "rendered" not in json.loads(stats.read_text())  # the whole booklet came from the cache
    assert first.read_bytes() == second.read_bytes()
    folder, _ = season
    edited = folder / "relay-station.yaml"
    original = edited.read_text()
    try:
        edited.write_text(original.replace("on the Ostrava ridge", "on the Karvina ridge"))
        assert _booklet(muster, season, tmp_path / "c.pdf").code == 0
        assert json.loads(stats.read_text())["rendered"] == 1
        assert "Karvina ridge" in " ".join(page.extract_text() for page in PdfReader(tmp_path / "c.pdf").pages)
        edited.write_text(original.replace("title: Relay Station Nine", "title: Relay Station Ten"))
        assert _booklet(muster, season, tmp_path / "d.pdf").code == 0
        assert json.loads(stats.read_text())["rendered"] == 2
        assert "Relay Station Ten" in PdfReader(tmp_path / "d.pdf").pages[1].extract_text()
    finally:
        edited.write_text(original)


def test_booklet_workers_render_under_the_memory_limit(muster, tmp_path, monkeypatch):
    """A booklet part that passes MUSTER_RENDER_MEMORY_MB fails the booklet with that setting named, writing nothing.
    The limit is what a part adds to what it inherits at fork, so the part here asks for more than the limit
    itself (a valid scenario needs far less; the limit is for hostile ones, tests/test_limits.py)."""
    from generator.booklet import parts

    render_pdf = parts.render_pdf

    def greedy(*args, **kwargs):
        hoard = bytearray(200 * 1024 * 1024)  # past the 128 MiB limit below
        return render_pdf(*args, **kwargs) if hoard else None

    monkeypatch.setattr(parts, "render_pdf", greedy)  # the forked workers inherit it
    monkeypatch.setenv("MUSTER_RENDER_MEMORY_MB", "128")  # the floor: below it is a usage error
    out = tmp_path / "booklet.pdf"
    result = muster("booklet", SCENARIOS / "bridge.yaml", "--out", out, "--no-cache")
    assert result.code == 1, result.err
    assert "MUSTER_RENDER_MEMORY_MB" in result.err and "bridge.yaml" in result.err
    assert not out.exists()


def test_booklet_is_tagged_with_one_structure_tree(built_booklet):
    """One structure tree covers the booklet: a Part per piece (front, chapters, appendices) under one Document,
    ParentTree keys unique and covering every page and link, marked content mapped to elements on its page,
    the stamped running heads and page numbers marked as artifacts."""
    from pypdf.generic import IndirectObject

    reader = PdfReader(built_booklet)
    root = reader.trailer["/Root"]
    assert root["/MarkInfo"]["/Marked"]
    assert root["/Lang"] == "en"
    tree = root["/StructTreeRoot"]
    document = tree["/K"][0].get_object()
    assert document["/S"] == "/Document"
    parts = [kid.get_object() for kid in document["/K"]]
    assert [p["/S"] for p in parts] == ["/Part"] * (1 + len(FILES) + 2)  # front, chapters, two appendices
    assert [p["/T"] for p in parts][1:4] == ["The Bridge at Kessel Ford", "Relay Station Nine", "The Ford at Afon Du"]
    for kid in document.raw_get("/K"):
        assert kid.get_object().raw_get("/P").idnum == tree["/K"][0].idnum

    nums = tree["/ParentTree"]["/Nums"]
    keys = [nums[i] for i in range(0, len(nums), 2)]
    assert len(keys) == len(set(keys)) and tree["/ParentTreeNextKey"] > max(keys)
    mapped = dict(zip(keys, [nums[i] for i in range(1, len(nums), 2)]))
    for index, page in enumerate(reader.pages):
        elements = mapped[page["/StructParents"]]
        content = page.get_contents().get_data()
        mcids = [int(n) for n in re.findall(rb"/MCID (\d+)", content)]
        assert mcids, index
        for mcid in mcids:
            assert elements[mcid].get_object().raw_get("/Pg").idnum == page.indirect_reference.idnum
        assert content.count(b"BDC") + content.count(b"BMC") == content.count(b"EMC")
        # the stamp: drawn last, marked as an artifact, a Form XObject of the page's own resources
        stamp = re.search(rb"/Artifact BMC\s+q (/\w+) Do Q\s+EMC\s*$", content)
        assert bool(stamp) == (index > 0), index  # the cover carries no running head or page number
        if stamp:
            form = page["/Resources"]["/XObject"][stamp.group(1).decode()]
            assert form["/Subtype"] == "/Form" and b"/MCID" not in form.get_data()
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            link = mapped[annot["/StructParent"]].get_object()
            objrs = [k.get_object() for k in link["/K"] if isinstance(k.get_object(), dict)]
            assert any(
                o.get("/Type") == "/OBJR" and o.raw_get("/Obj").idnum == annot.indirect_reference.idnum for o in objrs
            ), index

    ids = []

    def walk(element, reference):
        for kid in element.get("/K", []) if isinstance(element.get("/K"), list) else []:
            if isinstance(kid, IndirectObject) and "/S" in kid.get_object():
                assert kid.get_object().raw_get("/P").idnum == reference.idnum
                if "/ID" in kid.get_object():
                    ids.append(kid.get_object()["/ID"])
                walk(kid.get_object(), kid)

    walk(document, tree.raw_get("/K")[0])
    assert len(ids) == len(set(ids))  # table header ids, unique across parts


def _font_bytes(reader) -> int:
    """The embedded font programs' bytes in a PDF."""
    total = 0
    for number in reader.xref[0]:
        obj = reader.get_object(number)
        if isinstance(obj, dict) and obj.get("/Type") == "/FontDescriptor":
            total += sum(len(obj[key].get_object()._data) for key in ("/FontFile2", "/FontFile3") if key in obj)
    return total


def test_booklet_is_no_larger_than_its_parts(season, tmp_path, monkeypatch):
    """Issue 13: the joined booklet is packed, not bloated: within 1.3x of its largest part plus the other parts'
    content (their fonts left out), every stream compressed, structure elements in object streams. Stamping
    the running heads with pypdf's merge_page left every page's content uncompressed, and the join wrote tens of
    thousands of structure elements as loose objects: the example booklet was 7.2 MB from 3.3 MB of parts."""
    from generator.cli import main

    monkeypatch.setenv("MUSTER_CACHE", str(tmp_path / "cache"))  # this booklet's parts alone, to weigh them
    folder, config = season
    out = tmp_path / "booklet.pdf"
    paths = [str(folder / f"{n}.yaml") for n in FILES]
    assert main(["booklet", *paths, "--out", str(out), "--config", str(config), "--jobs", "2"]) == 0
    parts = [p.read_bytes() for p in (tmp_path / "cache").glob("*.pdf") if not p.name.startswith("booklet-")]
    assert len(parts) == len(FILES) + 2  # the chapters and the two systems' appendices
    sizes = sorted((len(data), _font_bytes(PdfReader(io.BytesIO(data)))) for data in parts)
    bound = sizes[-1][0] + sum(size - fonts for size, fonts in sizes[:-1])
    assert out.stat().st_size <= 1.3 * bound, (out.stat().st_size, bound)
    reader = PdfReader(out)
    assert reader.xref_objStm  # loose objects packed into object streams
    for index, page in enumerate(reader.pages):
        contents = page.raw_get("/Contents").get_object()
        for stream in contents if isinstance(contents, list) else [contents]:
            assert stream.get_object().get("/Filter") == "/FlateDecode", index


def test_front_matter_is_rendered_once_and_a_long_one_still_numbers_right(monkeypatch):
    """Issue 13: the cover and contents are laid out once in the common case (two pages: they were always laid out
    twice, the first time only to count their pages); a front matter longer than that is laid out again with its
    own length, so the contents' page numbers are still the pages the parts start on."""
    import generator.booklet.front as front
    from generator.booklet.plan import CHAPTER, DEFAULT_CONFIG, Part
    from generator.build import Options

    calls = []
    real = front._render_front
    monkeypatch.setattr(front, "_render_front", lambda *args: calls.append(1) or real(*args))
    parts = [Part(CHAPTER, f"s{n}.yaml", f"Scenario {n}", "head", "Fireteam Tomorrow", pages=3) for n in range(4)]
    config = {**DEFAULT_CONFIG, "title": "Book", "introduction_html": "<p>Welcome.</p>"}
    data, front_pages, total = front.front_matter(config, parts, Options())
    assert (len(calls), front_pages, total) == (1, 2, 2 + 4 * 3)
    assert [p.start for p in parts] == [3, 6, 9, 12]

    calls.clear()
    config["introduction_html"] = "".join(
        f"<p>Paragraph {n} of the club's long welcome to its season.</p>" for n in range(120)
    )
    data, front_pages, total = front.front_matter(config, parts, Options())
    assert front_pages == len(PdfReader(io.BytesIO(data)).pages) > 2 and len(calls) == 2
    assert [p.start for p in parts] == [front_pages + 1 + 3 * n for n in range(4)]
    contents = PdfReader(io.BytesIO(data)).pages[front_pages - 1].extract_text()
    assert all(f"Scenario {n}" in contents for n in range(4))
    assert re.findall(r"Scenario \d\s*Fireteam Tomorrow\s*(\d+)", contents) == [str(p.start) for p in parts]


def test_a_parts_table_header_ids_are_made_unique_in_the_booklet(tmp_path):
    """WeasyPrint names header cells "<object>-<row>-<column>", unique in one part only: the join prefixes them in
    each piece's structure elements as it copies them, so that two parts with the same table keep ids of their
    own, and every cell's /Headers still names a header cell of its own part."""
    import pikepdf

    from generator.booklet.join import Joiner
    from generator.booklet.parts import PART_PDF_VERSION
    from generator.engine import render_pdf
    from generator.rendering import TEMPLATES

    rows = "".join(f"<tr><th scope='row'>R{n}</th><td>{n}</td></tr>" for n in range(3))
    html = f"<html lang='en'><body><table><tr><th>Name</th><th>Value</th></tr>{rows}</table><p>after</p></body></html>"
    data, _ = render_pdf(html, TEMPLATES, tags=True, pdf_version=PART_PDF_VERSION)
    parts = [_part("One", [], data), _part("Two", [], data)]
    out = io.BytesIO()
    _joined(out, parts, Joiner(out), front=data)
    with pikepdf.open(out, attempt_recovery=False) as pdf:
        ids, headers = [], {}
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/StructElem":
                if "/ID" in obj:
                    ids.append(str(obj.ID))
                if "/A" in obj and "/Headers" in obj.A:
                    headers[obj.objgen] = [str(h) for h in obj.A.Headers]
        assert len(ids) == 3 * 5 == len(set(ids)), ids  # the front matter and the two parts: five header cells each
        assert {i.split("-")[0] for i in ids} == {"p0", "p1", "p2"}
        assert headers and all(set(h) <= set(ids) and len({i.split("-")[0] for i in h}) == 1 for h in headers.values())


def _part(title: str, sizes: list[tuple[float, float]], data: bytes | None = None):
    """A chapter of blank, tagged pages of these sizes (an empty structure tree), or of the PDF `data`."""
    import pikepdf

    from generator.booklet.plan import CHAPTER, Part

    if data is None:
        pdf = pikepdf.new()
        for size in sizes:
            pdf.add_blank_page(page_size=size)
        root = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.StructTreeRoot))
        root.K = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=pikepdf.Name.Document, P=root))
        root.ParentTree = pdf.make_indirect(pikepdf.Dictionary(Nums=pikepdf.Array()))
        pdf.Root.StructTreeRoot = root
        out = io.BytesIO()
        pdf.save(out)
        data = out.getvalue()
    part = Part(CHAPTER, f"{title}.yaml", title, title, "Fireteam Tomorrow")
    part.receive(data, len(PdfReader(io.BytesIO(data)).pages))
    return part


def _joined(out, parts, joiner, front: bytes, stamps=None, config=None) -> int:
    """Join the parts and a front matter with `joiner` (the parts' first pages set from their lengths); the stamps
    default to none on any page."""
    from generator.booklet.join import Piece
    from generator.booklet.stamp import Stamps

    start = len(PdfReader(io.BytesIO(front)).pages) + 1
    for part in parts:
        start += part.blank_before
        part.start = start
        start += part.pages
        joiner.add(Piece(part.pdf, part.label, part.label))
    stamps = stamps or Stamps(_part("sheet", [(100, 100)]).pdf, [None] * (start - 1))
    config = config or {"title": "Book", "club": "", "season": ""}
    return joiner.finish(Piece(front, "Cover and contents", None), parts, stamps, config)


def test_running_heads_are_laid_out_once_and_each_page_draws_only_its_own(monkeypatch):
    """Issue 13: the running heads and page numbers were a page of WeasyPrint layout per booklet page (190 pages,
    1.9 s of a 40-scenario booklet's 5 s after its chapters). They are laid out once, on one sheet, and each page's
    stamp copies its own texts from it: one sheet page laid out for a booklet of any length, and each page's text
    is its own head and number only (no other text of the sheet), along the long edge on a landscape page."""

    from generator.booklet.join import Joiner
    from generator.booklet.stamp import running_heads
    from generator.build import Options

    a4, turned = (595.2756, 841.8898), (841.8898, 595.2756)
    parts = [_part("Hill 112", [a4] * 150 + [turned] + [a4] * 30), _part("The Ford", [a4] * 120)]
    parts[1].blank_before = True
    import generator.booklet.stamp as stamp

    laid_out = []  # the pages WeasyPrint laid out for the stamps
    real = stamp.render_pdf
    monkeypatch.setattr(stamp, "render_pdf", lambda *a, **k: laid_out.append(real(*a, **k)[1]) or real(*a, **k))
    stamps = running_heads({"title": "Kessel Valley"}, parts, 2, Options())
    assert laid_out == [1]

    out = io.BytesIO()
    _joined(
        out,
        parts,
        Joiner(out),
        _part("front", [a4] * 2).pdf,
        stamps,
        {"title": "Kessel Valley", "club": "", "season": ""},
    )
    reader = PdfReader(out)
    total = len(reader.pages)
    assert total == 2 + 181 + 1 + 120
    blank = {0, 2 + 181}  # the cover and the blank left-hand page before The Ford
    for index, page in enumerate(reader.pages):
        words = page.extract_text().split()
        if index in blank:
            assert words == [], index
            continue
        head = "Contents" if index < 2 else "Hill 112" if index < 183 else "The Ford"
        assert " ".join(words) == f"Kessel Valley {head} {index + 1} / {total}", (index, words)
    with pdfplumber_open(out) as pdf:  # the landscape page: heads along its long edge, the number centred on it
        page = pdf.pages[2 + 150]
        words = {w["text"]: w for w in page.extract_words()}
        assert page.width > page.height
        assert words["112"]["x1"] == pytest.approx(page.width - 13 * 72 / 25.4, abs=0.5)
        middle = (words[str(2 + 151)]["x0"] + words[str(total)]["x1"]) / 2
        assert middle == pytest.approx(page.width / 2, abs=0.5)
        assert words[str(total)]["bottom"] > page.height - 15 * 72 / 25.4


def pdfplumber_open(data: io.BytesIO):
    import pdfplumber

    data.seek(0)
    return pdfplumber.open(data)


def test_the_join_gives_the_same_bytes_whatever_order_the_parts_arrive_in(tmp_path):
    """Issue 13: the join copies each part while the others still render, and two workers finish in no fixed
    order. qpdf numbers copied objects as it copies them and orders each object stream by those numbers, so
    adding parts as they came gave other bytes for the same booklet; they are added in the booklet's order."""
    import random

    import generator.booklet as booklet
    from generator.booklet.parts import PART_PDF_VERSION
    from generator.booklet.plan import CHAPTER, DEFAULT_CONFIG, Part
    from generator.build import Options
    from generator.engine import render_pdf
    from generator.rendering import TEMPLATES

    parts = []
    for n in range(6):
        rows = "".join(f"<tr><th scope='row'>Unit {n}.{r}</th><td>{r}</td></tr>" for r in range(3))
        html = f"<html lang='en'><body><h1>Part {n}</h1><table>{rows}</table><p>{'text ' * 200}</p></body></html>"
        data, pages = render_pdf(html, TEMPLATES, tags=True, pdf_version=PART_PDF_VERSION)
        parts.append(Part(CHAPTER, f"s{n}.yaml", f"Part {n}", f"Part {n}", "Fireteam Tomorrow"))
        parts[-1].receive(data, pages)
        (tmp_path / f"{n}.pdf").write_bytes(data)
    config = {**DEFAULT_CONFIG, "title": "Book", "club": "Club", "season": "2027"}
    front = booklet._front(config, parts, Options())  # what the booklet hands the join last, with its heads
    front.stamps, _ = booklet._stamps(config, parts, Options(), front.pages)

    class Inbox:
        def __init__(self, order):
            self.messages = [("part", i, str(tmp_path)) for i in order] + [("front", front)]

        def recv(self):
            return self.messages.pop(0)

    orders = [list(range(6)), [5, 4, 3, 2, 1, 0], random.Random(7).sample(range(6), 6)]
    made = set()
    for n, order in enumerate(orders):
        booklet._join(config, parts, Inbox(order), str(tmp_path / f"booklet-{n}.pdf"), "booklet.pdf")
        made.add((tmp_path / f"booklet-{n}.pdf").read_bytes())
    assert len(made) == 1


def test_a_front_matter_longer_than_guessed_gets_its_running_heads_again(muster, tmp_path):
    """Issue 13: the running heads are laid out beside the front matter, for the front matter's guessed length
    (a cover and a page of contents); a long introduction makes it longer, and the heads are laid out again for
    the length it has: every page still reads its own number and the booklet's length."""
    config = tmp_path / "club.yaml"
    welcome = "\\n\\n".join(f"  Paragraph {n} of the club's long welcome to its season." for n in range(90))
    config.write_text("club: Long\nseason: Autumn\nintroduction: |\n" + welcome.replace("\\n\\n", "\n\n") + "\n")
    out = tmp_path / "long.pdf"
    result = muster("booklet", SCENARIOS / "relay-station.yaml", "--config", config, "--out", out, "--no-cache")
    assert result.code == 0, result.err
    reader = PdfReader(out)
    total = len(reader.pages)
    contents = next(n for n, page in enumerate(reader.pages) if "Relay Station Nine" in page.extract_text())
    assert contents >= 2  # the front matter ran past its guessed two pages
    for n, page in enumerate(reader.pages[1:], 2):
        assert f"{n} / {total}" in page.extract_text(), n


def test_a_booklet_made_without_a_config_names_no_club_and_no_season():
    """Issue 11 (a new user): a booklet made without --config printed "Muster" as its club and "Scenarios" as its
    season on the cover. Without a config the cover has its title, the count and the contents, and no invented
    club or season."""
    import generator.booklet.front as front
    from generator.booklet.plan import CHAPTER, DEFAULT_CONFIG, Part
    from generator.build import Options

    parts = [Part(CHAPTER, f"s{n}.yaml", f"Scenario {n}", "head", "Fireteam Tomorrow", pages=3) for n in range(2)]
    data, _, _ = front.front_matter(dict(DEFAULT_CONFIG), parts, Options())
    cover = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert "Scenario booklet" in cover and "2 scenarios for Fireteam Tomorrow" in cover
    assert "Muster" not in cover and "Scenarios" not in cover, cover


def test_a_chapter_pages_head_names_its_part_and_the_side_whose_roster_begins_there(built_booklet):
    """Issue 11 (stop 40's reads): a booklet page's centre head named only the side whose roster went on at its
    top ("Federal Rangers (continued)") over a page that mostly held the next side's. It names the part the page
    opens in, the side going on and the side beginning there, as a pack's head does, and nothing over the
    contents (which the stamp names) or a chapter's cover (which the chapter's head names)."""
    reader = PdfReader(built_booklet)
    texts = [" ".join(page.extract_text().split()) for page in reader.pages]
    assert any("Forces · Federal Rangers (continued) · Red Banner Militia" in text for text in texts)
    contents = next(text for text in texts if "Contents" in text)
    assert contents.count("Contents") == 2  # its heading and the stamp's head, not a centre head as well


def test_the_booklets_largest_process_stays_flat_in_its_length(tmp_path):
    """Issue 13: the join held every part twice in qpdf (source and copy, ~9 MB a chapter of the bridge's size):
    318 MB for 24 chapters against 107 MB for 4. It writes each part to the booklet's file as it comes and keeps a
    few bytes a page, so six times the chapters cost the largest process of the build a few megabytes more. Peak
    memory is the largest of the command's processes, read from the kernel (getrusage) as `make bench` reads it;
    the copies share one cached chapter, so it renders once."""
    import subprocess
    import sys

    for n in range(18):
        shutil.copy(SCENARIOS / "bridge.yaml", tmp_path / f"s{n:02}.yaml")
    measure = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, capture_output=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    env = {**__import__("os").environ, "MUSTER_CACHE": str(tmp_path / "cache")}
    peaks = {}
    for count in (3, 18):
        paths = [str(tmp_path / f"s{n:02}.yaml") for n in range(count)]
        command = [sys.executable, "-m", "generator", "booklet", *paths, "--out", str(tmp_path / f"{count}.pdf")]
        run = subprocess.run([sys.executable, "-c", measure, *command], capture_output=True, text=True, env=env)
        assert run.returncode == 0, run.stderr
        peaks[count] = int(run.stdout) / 1024
        assert len(PdfReader(tmp_path / f"{count}.pdf").pages) > 4 * count
    assert peaks[18] - peaks[3] < 25, peaks  # MB


def test_the_booklets_own_process_lets_each_part_go_once_the_join_has_it(season, tmp_path, monkeypatch):
    """Issue 13: the booklet's process kept every part's PDF until the end (for the running heads' page sizes and
    the cache's entry names), growing with the booklet; the children forked from it late (the front matter, the
    running heads) inherited all of it. Each part's PDF is let go once it is written for the join, its page sizes
    and entry name kept."""
    import generator.booklet as booklet

    monkeypatch.setenv("MUSTER_CACHE", str(tmp_path / "cache"))
    seen = []
    real = booklet.render_parts
    monkeypatch.setattr(booklet, "render_parts", lambda parts, *a, **k: seen.append(parts) or real(parts, *a, **k))
    folder, config = season
    out = booklet.booklet([str(folder / f"{n}.yaml") for n in FILES], tmp_path / "b.pdf", str(config), jobs=2)
    (parts,) = seen
    assert [p.pdf for p in parts] == [b""] * len(parts)
    assert [len(p.sizes) for p in parts] == [p.pages for p in parts] and all(p.entry for p in parts)
    assert {p.entry for p in parts} < {f.name for f in (tmp_path / "cache").glob("*.pdf")}
    assert len(PdfReader(out).pages) == 2 + sum(p.pages + p.blank_before for p in parts)


def test_the_join_keeps_a_few_bytes_a_page_of_each_part_it_has_written(tmp_path):
    """Issue 13: the join writes each part as it comes and keeps only what the end needs (its pages' entries,
    bookmarks, ParentTree keys); keeping each part's PDF with its bookmarks' label grew the join child by the
    whole part, 60 to 130 MB over a 200-scenario booklet. Python's own memory, traced, after 10 and after 40 copies
    of one part: what each copy leaves behind is a fraction of the part's size (a seventh here)."""
    import tracemalloc

    from generator.booklet.join import Joiner, Piece
    from generator.booklet.parts import PART_PDF_VERSION
    from generator.engine import render_pdf
    from generator.rendering import TEMPLATES

    rows = "".join(f"<tr><th scope='row'>Unit {n}</th><td>{n}</td><td>{'x ' * 20}</td></tr>" for n in range(150))
    html = f"<html lang='en'><body><h1>Part</h1><table>{rows}</table></body></html>"
    data, pages = render_pdf(html, TEMPLATES, tags=True, pdf_version=PART_PDF_VERSION)
    with open(tmp_path / "b.pdf", "wb") as handle:
        joiner = Joiner(handle)
        tracemalloc.start()
        try:
            held = []
            for count in range(1, 41):
                joiner.add(Piece(bytes(bytearray(data)), f"Part {count}", f"Part {count}"))  # its own bytes, as read
                if count in (10, 40):
                    held.append(tracemalloc.get_traced_memory()[0])
        finally:
            tracemalloc.stop()
    per_part = (held[1] - held[0]) / 30  # its pages' entries, and 7 bytes an object of the cross-reference table
    assert per_part < len(data) / 4, (per_part, pages, len(data))


def test_the_cache_keeps_the_booklet_this_build_joined_not_what_is_at_out_later(season, tmp_path, monkeypatch):
    """Review of issue 13's streamed join: the booklet was hashed and copied into the cache from --out after it
    was renamed there, where another build may write meanwhile; a later build with nothing changed would then
    print that other booklet. It is cached from the file the join wrote, before the rename."""
    import generator.booklet as booklet

    monkeypatch.setenv("MUSTER_CACHE", str(tmp_path / "cache"))
    real = booklet.place

    def place_then_overwritten(target, part):
        joined = part.read_bytes()
        real(target, part)
        target.write_bytes(b"%PDF-1.4 another build's booklet")
        place_then_overwritten.joined = joined

    monkeypatch.setattr(booklet, "place", place_then_overwritten)
    folder, config = season
    paths = [str(folder / f"{n}.yaml") for n in FILES]
    booklet.booklet(paths, tmp_path / "b.pdf", str(config), jobs=1)
    (entry,) = (tmp_path / "cache").glob("booklet-*.pdf")
    assert entry.read_bytes() == place_then_overwritten.joined
