"""The booklet cache is keyed on everything that reaches a page, and trusts nothing it reads back."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image
from pypdf import PdfReader
from test_hostile import MINIMAL

from generator.booklet import booklet
from generator.booklet.cache import entry_name
from generator.errors import InputProblems, MusterError


def jpeg(colour: tuple[int, int, int]) -> bytes:
    """A small JPEG: its bytes go into the PDF as they are, so the PDF shows which map it printed."""
    out = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(out, format="JPEG")
    return out.getvalue()


@pytest.fixture
def club(tmp_path, monkeypatch):
    """A scenario with a map beside it, a cache of its own; build() makes the booklet and returns (bytes, stats)."""
    monkeypatch.setenv("MUSTER_CACHE", str(tmp_path / "cache"))
    scenario = tmp_path / "club" / "raid.yaml"
    scenario.parent.mkdir()
    scenario.write_text("title: Raid\nsystem: fireteam-tomorrow\nbriefing: '![The map](map.jpg)'\nvictory:" + MINIMAL)
    (scenario.parent / "map.jpg").write_bytes(jpeg((200, 0, 0)))
    out = tmp_path / "booklet.pdf"

    def build() -> tuple[bytes, dict]:
        stats: dict = {}
        booklet([str(scenario)], out, jobs=1, statistics=stats.update)
        return out.read_bytes(), stats

    build.scenario, build.cache = scenario, tmp_path / "cache"
    return build


def test_an_edited_map_renders_again_and_a_deleted_map_fails(club):
    """The chapter's key holds its pictures' bytes: an edited map is printed new, not the cached old one; a deleted
    map fails the booklet, naming it, instead of building from the cache."""
    first, _ = club()
    assert jpeg((200, 0, 0)) in first
    (club.scenario.parent / "map.jpg").write_bytes(jpeg((0, 0, 200)))
    second, stats = club()
    assert stats["rendered"] == 1  # the chapter; its system's appendix did not change
    assert jpeg((0, 0, 200)) in second and jpeg((200, 0, 0)) not in second
    (club.scenario.parent / "map.jpg").unlink()
    with pytest.raises(MusterError, match="picture not found: map.jpg"):
        club()


def test_garbage_and_wrong_page_counts_in_the_cache_are_misses(club):
    """An entry whose bytes do not match its hash (garbage, a swapped file), or whose bytes match but do not hold
    the pages its name says, is not used: the parts render again and the booklet is the same as the first."""
    first, _ = club()
    entries = sorted(club.cache.glob("*.pdf"))
    assert len(entries) == 3  # the booklet, the chapter and the appendix
    for entry in entries:
        entry.write_bytes(b"%PDF-1.4 garbage")
    again, stats = club()
    assert again == first and stats["rendered"] == 2
    for entry in club.cache.glob("*.pdf"):
        if entry.name.startswith("booklet-"):
            entry.unlink()
            continue
        data = entry.read_bytes()
        key, pages, _ = entry.stem.rsplit("-", 2)
        entry.rename(club.cache / entry_name(key, data, int(pages) + 1))  # a sound PDF, a wrong count
    again, stats = club()
    assert again == first and stats["rendered"] == 2
    assert len(PdfReader(io.BytesIO(again)).pages) == len(PdfReader(io.BytesIO(first)).pages)


def svg_holding(image_href: str) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="80" height="80">'
        f'<image xlink:href="{image_href}" width="80" height="80"/></svg>'
    )


def test_a_picture_inside_an_svg_map_is_keyed_and_printed_with_the_svg(club):
    """An SVG map carries its pictures inside it (data: URLs), so every byte that reaches its page is in the SVG's
    bytes and in the chapter's key: an edited inner picture renders again and prints new."""
    map_svg = club.scenario.parent / "map.svg"
    club.scenario.write_text(club.scenario.read_text().replace("map.jpg", "map.svg"))
    for colour in ((200, 0, 0), (0, 0, 200)):
        map_svg.write_text(svg_holding("data:image/jpeg;base64," + base64.b64encode(jpeg(colour)).decode()))
        printed, stats = club()
        assert jpeg(colour) in printed, colour
    assert stats["rendered"] == 1 and jpeg((200, 0, 0)) not in printed  # the chapter again; not its appendix


@pytest.mark.parametrize(
    ("body", "named"),
    [  # {uri}: an absolute file: URL inside the scenario's folder, which the render fetched unkeyed before
        ('<image xlink:href="{uri}" width="80" height="80"/>', "{uri}"),
        ('<image href="inner.jpg" width="80" height="80"/>', "inner.jpg"),
        ('<g xml:base="{uri}"><image href="#x" width="80" height="80"/></g>', "{uri}"),
        ('<rect width="9" height="9" style="fill: url({uri})"/>', "{uri}"),
        ("<style>@import '{uri}';</style>", "{uri}"),
        ("<style>@font-face {{ font-family: F; src: u\\72l(inner.jpg) }}</style>", "inner.jpg"),
    ],
)
def test_an_svg_map_naming_another_file_is_refused_at_the_pictures_line_and_column(body, named, club):
    """An SVG is printed from its own bytes only: one that names a file (a picture beside it, a stylesheet, a font;
    by href, xml:base, style or <style>, CSS escapes or not) would print bytes that no check read and no cache key
    held (edit that file, and the booklet printed the old picture from the cache). It is refused where the
    scenario names the SVG, before anything renders."""
    folder = club.scenario.parent
    (folder / "inner.jpg").write_bytes(jpeg((0, 200, 0)))
    uri = (folder / "inner.jpg").as_uri()
    (folder / "map.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="80" height="80">'
        + body.format(uri=uri)
        + "</svg>"
    )
    club.scenario.write_text(club.scenario.read_text().replace("map.jpg", "map.svg"))
    with pytest.raises(InputProblems) as refused:
        club()
    [problem] = [str(problem) for problem in refused.value.problems]
    prefix = f"{club.scenario}:3:23: briefing: picture map.svg refers to another file ("
    assert problem.startswith(prefix) and problem.endswith(
        f"{named.format(uri=uri)[-40:]}'); an SVG is printed from its own bytes only, so put that picture inside it "
        "as a data: URL"
    ), problem


def test_an_edited_introduction_picture_is_printed_new(club, tmp_path):
    """Issue 12 (red team): the whole booklet's key held the config's text and the logo's bytes but not the
    introduction's pictures: an edited picture returned the old booklet. The config's limited child reads the
    cover's pictures once; the key and the cover are made of those same bytes."""
    config = tmp_path / "club" / "club.yaml"
    config.write_text("club: Kessel\nseason: Autumn\nintroduction: '![Our crest](crest.jpg)'\n", encoding="utf-8")
    crest = tmp_path / "club" / "crest.jpg"
    crest.write_bytes(jpeg((0, 150, 0)))
    out = tmp_path / "with-intro.pdf"
    booklet([str(club.scenario)], out, str(config), jobs=1)
    assert jpeg((0, 150, 0)) in out.read_bytes()
    crest.write_bytes(jpeg((150, 0, 150)))
    booklet([str(club.scenario)], out, str(config), jobs=1)
    assert jpeg((150, 0, 150)) in out.read_bytes() and jpeg((0, 150, 0)) not in out.read_bytes()


def test_a_map_changed_while_its_chapter_renders_is_not_kept_under_the_key_it_was_planned_with(club, monkeypatch):
    """Issue 12 (red team): keys were made from the pictures the planning child read, and each chapter's child read
    them again, so a map edited during a build was cached under the old map's key: once the old map was back, the
    booklet printed the edited one until --no-cache. A chapter now checks that the file and pictures it printed are
    the ones its key was made of, and is kept under no key (nor is the booklet) when they are not."""
    import generator.booklet as booklet_module

    club()  # red, cached
    mapped = club.scenario.parent / "map.jpg"
    mapped.write_bytes(jpeg((0, 160, 0)))  # green: planned with this
    real = booklet_module.render_parts

    def edited_meanwhile(*args, **kwargs):
        mapped.write_bytes(jpeg((0, 0, 200)))  # blue, after the keys were made
        return real(*args, **kwargs)

    monkeypatch.setattr(booklet_module, "render_parts", edited_meanwhile)
    printed, _ = club()
    assert jpeg((0, 0, 200)) in printed  # what it read is what it printed
    monkeypatch.setattr(booklet_module, "render_parts", real)
    mapped.write_bytes(jpeg((0, 160, 0)))  # green again: the blue chapter must not come back from the cache
    again, stats = club()
    assert jpeg((0, 160, 0)) in again and jpeg((0, 0, 200)) not in again
    assert stats["rendered"] == 1


def test_cache_entries_swapped_between_two_keys_are_misses(club, tmp_path):
    """Issue 12 (red team): an entry was checked against a hash of its bytes alone, so two chapters' entries whose
    names were swapped printed each other's pages. The hash in an entry's name seals its key and page count with
    its bytes."""
    other = club.scenario.parent / "ambush.yaml"
    other.write_text(club.scenario.read_text().replace("title: Raid", "title: Ambush"), encoding="utf-8")
    out = tmp_path / "two.pdf"
    booklet([str(club.scenario), str(other)], out, jobs=1)
    first = out.read_bytes()
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(first)).pages)
    assert text.index("Raid") < text.index("Ambush")
    entries = {}
    for entry in club.cache.glob("*.pdf"):
        if entry.name.startswith("booklet-"):
            entry.unlink()
        else:
            key, rest = entry.name.split("-", 1)
            entries[key] = (entry, rest)
    chapters = [
        key for key, (entry, _) in entries.items() if b"Raid" in entry.read_bytes() or b"Ambush" in entry.read_bytes()
    ]
    (a, rest_a), (b, rest_b) = entries[chapters[0]], entries[chapters[1]]
    a.rename(club.cache / "swap"), b.rename(club.cache / f"{chapters[0]}-{rest_b}")
    (club.cache / "swap").rename(club.cache / f"{chapters[1]}-{rest_a}")
    stats: dict = {}
    booklet([str(club.scenario), str(other)], out, jobs=1, statistics=stats.update)
    assert stats["rendered"] >= 2
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(out.read_bytes())).pages)
    assert text.index("Raid") < text.index("Ambush")


def test_a_logo_swapped_for_a_fifo_after_it_was_checked_is_never_read_again(club, tmp_path, monkeypatch):
    """Issue 12 (red team): the booklet's own process read the logo again, unlimited, after the config's child had
    checked it: swapped for a FIFO meanwhile, it blocked the booklet past every time limit. The logo is read once,
    in the config's limited child, and the cover prints those checked bytes."""
    import os
    import signal

    import generator.booklet as booklet_module

    config = tmp_path / "club" / "club.yaml"
    config.write_text("club: Kessel\nseason: Autumn\nlogo: crest.jpg\n", encoding="utf-8")
    crest = tmp_path / "club" / "crest.jpg"
    crest.write_bytes(jpeg((0, 120, 120)))
    real = booklet_module.plan

    def swapped_after_planning(*args, **kwargs):
        planned = real(*args, **kwargs)
        crest.unlink()
        os.mkfifo(crest)  # opening it for reading would wait for a writer that never comes
        return planned

    def stuck(*_):
        raise TimeoutError("the booklet read the logo again")

    monkeypatch.setattr(booklet_module, "plan", swapped_after_planning)
    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(60)
    try:
        out = tmp_path / "logo.pdf"
        booklet([str(club.scenario)], out, str(config), jobs=1)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert jpeg((0, 120, 120)) in out.read_bytes()


def test_a_cache_that_cannot_be_written_is_said_once_and_the_booklet_is_still_made(club, tmp_path, monkeypatch, capsys):
    """Issue 12 (red team): MUSTER_CACHE naming a file (or a folder under one) failed the booklet with "cannot
    write". The cache saves time and never decides whether a booklet is made: it is said once, and the booklet
    is written."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache's folder would go", encoding="utf-8")
    monkeypatch.setenv("MUSTER_CACHE", str(blocker / "cache"))
    from generator.booklet import cache

    monkeypatch.setattr(cache, "_UNWRITABLE", set())
    printed, _ = club()
    assert jpeg((200, 0, 0)) in printed
    said = capsys.readouterr().err
    assert said.count("the booklet cache is not kept (cannot write") == 1, said


def test_a_fifo_in_the_cache_under_an_entrys_name_is_a_miss_not_a_hang(club, tmp_path):
    """Issue 12 (second red-team pass): the booklet's own process read any file named like an entry, so a FIFO
    (or a link to a device) put in a shared cache under an entry's name blocked the booklet past every limit. An
    entry must be a regular file, or it is a miss. Run as a command with a deadline, so that a hang fails."""
    import os
    import subprocess
    import sys

    first, _ = club()
    for entry in club.cache.glob("*.pdf"):
        entry.unlink()
        os.mkfifo(entry)
    out = tmp_path / "again.pdf"
    command = [sys.executable, "-m", "generator", "booklet", str(club.scenario), "--out", str(out), "--jobs", "1"]
    env = {**os.environ, "MUSTER_CACHE": str(club.cache)}
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes() == first


def test_two_maps_swapped_while_the_booklet_renders_are_not_kept_under_the_planned_key(club, monkeypatch):
    """Issue 12 (second red-team pass): a chapter checked the set of its pictures' bytes, not which file held
    which, so two maps swapped while the booklet rendered (and swapped back) were cached in the wrong places. Each
    picture is checked with its own path."""
    import generator.booklet as booklet_module

    folder = club.scenario.parent
    club.scenario.write_text(
        club.scenario.read_text().replace("'![The map](map.jpg)'", "'![North](north.jpg) ![South](south.jpg)'")
    )
    (folder / "north.jpg").write_bytes(jpeg((0, 160, 0)))
    (folder / "south.jpg").write_bytes(jpeg((160, 160, 0)))
    real = booklet_module.render_parts

    def swapped_meanwhile(*args, **kwargs):
        (folder / "north.jpg").write_bytes(jpeg((160, 160, 0)))
        (folder / "south.jpg").write_bytes(jpeg((0, 160, 0)))
        return real(*args, **kwargs)

    monkeypatch.setattr(booklet_module, "render_parts", swapped_meanwhile)
    club()
    monkeypatch.setattr(booklet_module, "render_parts", real)
    (folder / "north.jpg").write_bytes(jpeg((0, 160, 0)))  # as planned: the swapped chapter must not come back
    (folder / "south.jpg").write_bytes(jpeg((160, 160, 0)))
    _, stats = club()
    assert stats.get("rendered", 0) >= 1, stats


def test_a_warspike_appendix_is_keyed_on_the_scenario_it_is_made_from_and_names_no_side(tmp_path, monkeypatch):
    """Issue 12 (second red-team pass): an appendix's key left out the scenario it is rendered from, and the
    WarSpike appendix printed that scenario's side ("only Legio II Augusta can be Instigator"): renamed, the side
    stayed in the cached appendix. The key holds the scenario's bytes, and an appendix, serving every chapter,
    prints no battle's own sides."""
    from conftest import SCENARIOS

    monkeypatch.setenv("MUSTER_CACHE", str(tmp_path / "cache"))
    scenario = tmp_path / "ford.yaml"
    scenario.write_text((SCENARIOS / "warspike-hold-the-ford.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "ford.pdf"
    booklet([str(scenario)], out, jobs=1)
    scenario.write_text(scenario.read_text().replace("Legio II Augusta", "Legio IX Hispana"), encoding="utf-8")
    stats: dict = {}
    booklet([str(scenario)], out, jobs=1, statistics=stats.update)
    assert stats["rendered"] == 2  # the chapter, and the appendix made from it
    reader = PdfReader(out)
    appendix = " ".join(page.extract_text() for page in reader.pages if "Appendix" in (page.extract_text() or ""))
    assert "Appendix" in appendix and "In this battle" not in appendix and "Legio" not in appendix
