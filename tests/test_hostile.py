"""Hostile scenario files: nothing in one can read a file from elsewhere, reach the network, hang, or leave a bad PDF.

tests/data/hostile/*.yaml hold one trick each in their prose (first line `# neutralised: what happens to it`); they
must validate, and their prose must come out with no link, script, style or outside picture. Refused files live in
tests/data/bad/ (test_bad_inputs.py). Pictures, symlinks and secrets are planted here, in a temporary club folder:

    club/SECRET.txt, club/secret.png         above the scenario's folder (secret.png a real PNG)
    club/scenarios/SECRET-BESIDE.txt         beside the scenario, but not a picture
    club/scenarios/NAME.yaml                 the scenario
"""

from __future__ import annotations

import os
import re
import time
import zlib
from pathlib import Path

import pytest
from conftest import DATA, files_under
from pypdf import PdfReader

from generator import engine, fetcher, files, markup
from generator.build import Options, compute, render_html
from generator.errors import RenderError
from generator.loading import load_file
from generator.scenario import validate

HOSTILE = sorted((DATA / "hostile").glob("*.yaml"))
MINIMAL = (DATA / "hostile" / "raw_html_script.yaml").read_text().split("victory:", 1)[1]
SECRET = b"MUSTER-SECRET-7f3a"  # the marker planted in every file a scenario must never reach


def png_with_text(text: bytes) -> bytes:
    """A real 1x1 PNG carrying text in a tEXt chunk, so that embedding it would put the text in the PDF."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")

    head = chunk(b"IHDR", (1).to_bytes(4, "big") * 2 + bytes([8, 2, 0, 0, 0]))
    return (
        b"\x89PNG\r\n\x1a\n"
        + head
        + chunk(b"tEXt", b"Comment\x00" + text)
        + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00"))
        + chunk(b"IEND", b"")
    )


@pytest.fixture
def club(tmp_path):
    """A club folder with secrets planted above and beside its scenarios folder; returns the scenarios folder."""
    (tmp_path / "SECRET.txt").write_bytes(SECRET + b" above")
    (tmp_path / "secret.png").write_bytes(png_with_text(SECRET + b" png above"))
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "SECRET-BESIDE.txt").write_bytes(SECRET + b" beside")
    return folder


def assert_pdf_is_clean(path: Path) -> None:
    """No planted secret, no attachment, no script or launch action, no link to a file or the network."""
    raw = path.read_bytes()
    assert SECRET not in raw
    for word in (b"/EmbeddedFile", b"/FileAttachment", b"/JavaScript", b"/Launch", b"/GoToR", b"/SubmitForm"):
        assert word not in raw, f"{path.name} holds {word.decode()}"
    reader = PdfReader(path)
    assert "/EmbeddedFiles" not in (reader.trailer["/Root"].get("/Names") or {})
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            assert annot.get("/Subtype") != "/FileAttachment"
            uri = str((annot.get("/A") or {}).get("/URI", ""))
            assert not uri, f"{path.name} links to {uri!r}"


@pytest.mark.parametrize("path", HOSTILE, ids=[p.stem for p in HOSTILE])
def test_hostile_prose_validates_and_comes_out_without_links_scripts_or_outside_pictures(path):
    """Each trick in the corpus is neutralised: the sanitised prose keeps no tag or attribute that could fetch or link."""
    assert re.match(r"# neutralised: .+", path.read_text().split("\n", 1)[0]), "start with '# neutralised: <what>'"
    scenario = validate(load_file(path))
    started = time.monotonic()
    pack, sheet = compute(scenario, 1, Options())
    render_html(scenario, pack, sheet)
    assert time.monotonic() - started < 5, "pathological prose must finish quickly"
    texts = [scenario.data["briefing"], scenario.data["victory"]] + [s.get("briefing") or "" for s in scenario.sides]
    for text in texts:
        html = str(markup.to_html(text, path.parent))
        for tag, attributes in re.findall(r"<([A-Za-z][\w:-]*)([^>]*)>", html):  # real tags, not escaped text
            assert tag.lower() in markup.TAGS, html
            assert set(re.findall(r"([\w:-]+)\s*=", attributes)) <= {"src", "alt", "align"}, html
            for src in re.findall(r'src="([^"]*)"', attributes):  # a checked picture's own bytes, no path
                assert src.startswith("data:image/"), src


def test_every_hostile_trick_together_builds_a_pdf_without_secrets_links_or_attachments(club, muster):
    """All the corpus's prose in one briefing, secrets planted above and beside, and a symlink at the output path."""
    prose = []
    for path in HOSTILE:
        data = load_file(path).data
        prose += [data["briefing"], data["victory"]] + [s.get("briefing") or "" for s in data["sides"]]
    briefing = "\n\n".join(p for p in prose if "[" * 100 not in p)[:19_000]
    scenario = club / "everything.yaml"
    scenario.write_text(
        "title: Everything at once\nsystem: fireteam-tomorrow\nbriefing: |\n"
        + "".join(f"  {line}\n" for line in briefing.splitlines())
        + "victory:"
        + MINIMAL
    )
    out = club.parent / "out"
    victim = club.parent / "victim.pdf"
    victim.write_bytes(b"not to be touched")
    (out / "everything").mkdir(parents=True)
    (out / "everything" / "everything.pdf").symlink_to(victim)
    result = muster("build", scenario, "--out", out)
    assert result.code == 0, result.err
    assert victim.read_bytes() == b"not to be touched"
    for name in ("everything.pdf", "everything-cards.pdf"):
        target = out / "everything" / name
        assert target.is_file() and not target.is_symlink()
        assert_pdf_is_clean(target)
    text = "".join(page.extract_text() for page in PdfReader(out / "everything" / "everything.pdf").pages)
    assert "<script>" in text  # printed as the text it is


def test_example_pdfs_hold_no_attachment_link_or_absolute_path(built):
    """The packs of the example scenarios carry no attachment, no URI and no path of the machine that built them."""
    root = str(Path(__file__).resolve().parent.parent).encode()
    for pack in built("bridge") + built("warspike-bridge-race"):
        assert_pdf_is_clean(pack)
        assert root not in pack.read_bytes()
        assert b"file:" not in pack.read_bytes()


PICTURE_CASES = {
    # name: (how to plant it beside the scenario, the briefing's picture, the message)
    "symlink_to_a_picture_outside": (
        lambda f: (f / "map.png").symlink_to(f.parent / "secret.png"),
        "map.png",
        "refused to read map.png: outside the scenario's folder",
    ),
    "symlink_loop": (
        lambda f: ((f / "a.png").symlink_to(f / "b.png"), (f / "b.png").symlink_to(f / "a.png")),
        "a.png",
        "picture not found: a.png",
    ),
    "text_file_named_png": (lambda f: (f / "fake.png").write_bytes(SECRET), "fake.png", "fake.png is not a picture"),
    "folder_named_png": (lambda f: (f / "dir.png").mkdir(), "dir.png", "refused to read dir.png: not a regular file"),
    "fifo_named_png": (lambda f: os.mkfifo(f / "pipe.png"), "pipe.png", "refused to read pipe.png: not a regular file"),
    "missing_picture": (lambda f: None, "nothere.png", "picture not found: nothere.png"),
    "svg_pulling_a_picture_from_above": (
        lambda f: (f / "map.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
            '<image href="../secret.png" width="10" height="10"/></svg>'
        ),
        "map.svg",
        "picture map.svg refers to another file ('../secret.png')",  # an SVG is printed from its own bytes only
    ),
    "svg_pulling_an_absolute_file_url": (
        lambda f: (f / "map.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
            f'<image href="{(f.parent / "secret.png").as_uri()}" width="10" height="10"/></svg>'
        ),
        "map.svg",
        # the address is a long path, which a message shortens to its end ('...test_picture_tricks_fail/secret.png'):
        # a worker's tmp folder (pytest-xdist) is long enough
        "secret.png'); an SVG is printed from its own bytes only",
    ),
    "svg_pulling_from_the_network": (
        lambda f: (f / "map.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
            '<image href="http://127.0.0.1:9/x.png" width="10" height="10"/></svg>'
        ),
        "map.svg",
        "picture map.svg refers to another file ('http://127.0.0.1:9/x.png')",
    ),
}


@pytest.mark.parametrize("case", sorted(PICTURE_CASES))
def test_picture_tricks_fail_the_build_with_the_fetchers_words_and_write_nothing(case, club, muster):
    """A symlink out, a non-picture, a folder, a FIFO or an SVG reaching out fails the build, naming file and picture."""
    plant, picture, message = PICTURE_CASES[case]
    plant(club)
    scenario = club / f"{case}.yaml"
    scenario.write_text(
        f"title: Picture trick\nsystem: fireteam-tomorrow\nbriefing: '![map]({picture})'\nvictory:" + MINIMAL
    )
    out = club.parent / "out"
    result = muster("build", scenario, "--out", out)
    assert result.code == 1, result.err
    # validate's problem at the picture's line:col (an SVG is read and checked whole, with what it names)
    assert result.err.startswith(f"{scenario}:3:19: briefing: "), result.err
    assert message in result.err, result.err
    assert not out.exists() or files_under(out) == []


def test_svg_with_an_external_entity_never_brings_the_file_in(club, muster):
    """An SVG beside the scenario declaring an entity that names a secret file fails or prints without it."""
    (club / "map.svg").write_text(
        f'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY s SYSTEM "{(club.parent / "SECRET.txt").as_uri()}">]>'
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20"><text x="0" y="10">&s;</text></svg>'
    )
    scenario = club / "entity.yaml"
    scenario.write_text("title: Entity\nsystem: fireteam-tomorrow\nbriefing: '![map](map.svg)'\nvictory:" + MINIMAL)
    out = club.parent / "out"
    result = muster("build", scenario, "--out", out)
    assert "Traceback" not in result.err and result.code in (0, 1), result.err
    for path in files_under(club.parent / "out") if out.exists() else []:
        assert SECRET not in path.read_bytes()


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "file://localhost/etc/hostname",
        "file://evil.example/share/x.png",
        "http://127.0.0.1:9/x.png",
        "https://example.com/x.css",
        "ftp://127.0.0.1/x.png",
        "gopher://127.0.0.1/",
        "file:{up}",
        "file:{beside}",
    ],
)
def test_fetcher_refuses_everything_but_the_projects_assets(url, club):
    """Absolute paths, other hosts, every network scheme and files beside the scenario are refused, with no socket."""
    from weasyprint.urls import FatalURLFetchingError

    url = url.format(up=(club.parent / "secret.png").as_posix(), beside=(club / "SECRET-BESIDE.txt").as_posix())
    with pytest.raises(FatalURLFetchingError):
        fetcher.make_fetcher().fetch(url)


def test_html_reaching_for_files_or_the_network_fails_rendering(club):
    """Even HTML our templates never write (a stylesheet link, an absolute picture) cannot fetch: the render fails."""
    for html in (
        f'<link rel="stylesheet" href="{(club.parent / "SECRET.txt").as_uri()}"><p>x</p>',
        '<p><img src="file:///etc/passwd"></p>',
        '<p style="background: url(http://127.0.0.1:9/)">x</p>',
        f'<a rel="attachment" href="{(club / "SECRET-BESIDE.txt").as_uri()}">x</a>',
    ):
        with pytest.raises(RenderError):
            engine.html_to_pdf(html, club)


def test_a_build_past_its_time_limit_fails_naming_the_file(muster, tmp_path, monkeypatch):
    """A build that runs past MUSTER_RENDER_SECONDS is stopped; the message names the file and the setting.

    The clock covers the whole build: here Python-Markdown's 15 s on lines of '#', before any rendering.
    (The memory limit: test_limits.py.)"""
    monkeypatch.setenv("MUSTER_RENDER_SECONDS", "1")
    scenario = DATA / "hostile" / "costly" / "markdown_ten_thousand_hash_lines.yaml"
    result = muster("build", scenario, "--out", tmp_path / "out")
    assert result.code == 1
    assert f"muster: {scenario}: building took longer than 1 s (MUSTER_RENDER_SECONDS)" in result.err
    assert not (tmp_path / "out").exists() or files_under(tmp_path / "out") == []


@pytest.mark.parametrize("value", ["soon", "0", "-5", "nan"])
def test_a_bad_render_limit_setting_is_a_usage_error(value, muster, tmp_path, monkeypatch):
    """A render limit that is not a positive number is refused before anything renders (exit 2)."""
    monkeypatch.setenv("MUSTER_RENDER_SECONDS", value)
    scenario = tmp_path / "x.yaml"
    scenario.write_text("title: X\nsystem: fireteam-tomorrow\nbriefing: x\nvictory:" + MINIMAL)
    result = muster("build", scenario, "--out", tmp_path / "out")
    assert result.code == 2 and "MUSTER_RENDER_SECONDS must be a number" in result.err


GENERATED = {
    "larger_than_a_megabyte": (
        lambda p: p.write_bytes(b"title: x\nbriefing: '" + b"x" * (1024 * 1024) + b"'\n"),
        "the file is larger than 1024 KiB",
    ),
    "a_hundred_thousand_values": (
        lambda p: p.write_text("title: x\nsides: [" + "1," * 100_001 + "1]\n"),
        "the file has more than 100000 values",
    ),
    "latin1_not_utf8": (lambda p: p.write_bytes(b"title: Caf\xe9\n"), "the file is not UTF-8"),
    "nul_bytes": (lambda p: p.write_bytes(b"title: x\x00\n"), "the character U+0000 is not allowed"),
    "briefing_over_twenty_thousand_characters": (
        lambda p: p.write_text(
            "title: Long\nsystem: fireteam-tomorrow\nbriefing: '" + "word " * 4001 + "'\nvictory:" + MINIMAL
        ),
        "briefing: text longer than 20000 characters",
    ),
    "billion_laughs": (
        lambda p: p.write_text('a: &a ["lol","lol"]\nb: &b [*a,*a]\nc: [*b,*b]\n'),
        "anchors (&a) are not allowed",
    ),
    "fifo_instead_of_a_file": (lambda p: os.mkfifo(p), "not a regular file"),
    "folder_instead_of_a_file": (lambda p: p.mkdir(), "not a regular file"),
}


@pytest.mark.parametrize("case", sorted(GENERATED))
def test_oversize_and_odd_files_are_refused_quickly_and_nothing_written(case, muster, tmp_path):
    """Files too big, too many values, wrong encoding, a FIFO or a folder are refused with a clear message, fast."""
    make, message = GENERATED[case]
    path = tmp_path / f"{case}.yaml"
    make(path)
    started = time.monotonic()
    # both commands, 100,000 values too: libyaml's parser reads them in half a second (PyYAML's took five, and
    # twice that under a loaded machine's suite passed this bound)
    for command in (["build", path, "--out", tmp_path / "out"], ["validate", path]):
        result = muster(*command)
        assert result.code == 1, result.err
        assert message in result.err and str(path) in result.err
    assert time.monotonic() - started < 10
    assert not (tmp_path / "out").exists()


def test_write_goes_to_a_hidden_part_file_beside_the_target_then_is_renamed(tmp_path, monkeypatch):
    """write_atomic writes a .part file in the target's folder and os.replace()s it over the old PDF."""
    target = tmp_path / "x.pdf"
    target.write_bytes(b"old")
    seen = []
    real = os.replace

    def spy(src, dst):
        seen.append((Path(src), Path(dst), Path(src).read_bytes(), Path(dst).read_bytes()))
        real(src, dst)

    monkeypatch.setattr(files.os, "replace", spy)
    files.write_atomic(target, b"new")
    ((src, dst, src_bytes, dst_bytes),) = seen
    assert src.parent == tmp_path and src.name.startswith(".x.pdf.") and src.suffix == ".part"
    assert (dst, src_bytes, dst_bytes) == (target, b"new", b"old")  # the old PDF stood until the rename
    assert target.read_bytes() == b"new" and files_under(tmp_path) == [target]


def test_a_write_failing_midway_keeps_the_old_pdf_and_leaves_no_part(tmp_path, monkeypatch):
    """When the disk fails during the write, the old PDF stays whole, no .part remains, and the error is a RenderError."""
    target = tmp_path / "x.pdf"
    target.write_bytes(b"old")

    def fail(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", fail)
    with pytest.raises(RenderError, match="cannot write .*x.pdf: No space left on device"):
        files.write_atomic(target, b"new")
    assert files_under(tmp_path) == [target] and target.read_bytes() == b"old"


def test_symlinks_planted_at_the_output_folder_and_file_are_replaced_not_followed(tmp_path):
    """A symlink at out/NAME/ or out/NAME/NAME.pdf is replaced by a real folder or file; what it pointed at is untouched."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("keep")
    out = tmp_path / "out"
    out.mkdir()
    (out / "name").symlink_to(elsewhere, target_is_directory=True)
    folder = files.own_folder(out / "name")
    assert folder.is_dir() and not folder.is_symlink()
    victim = tmp_path / "victim.pdf"
    victim.write_bytes(b"victim")
    (folder / "name.pdf").symlink_to(victim)
    files.write_atomic(folder / "name.pdf", b"%PDF-new")
    assert not (folder / "name.pdf").is_symlink() and (folder / "name.pdf").read_bytes() == b"%PDF-new"
    assert victim.read_bytes() == b"victim" and sorted(p.name for p in elsewhere.iterdir()) == ["keep.txt"]


def test_part_files_left_by_killed_builds_are_cleaned_but_a_fresh_one_is_kept(tmp_path):
    """A stale .part (over a minute old) goes on the next write; one a concurrent build may be writing stays."""
    stale, fresh = tmp_path / ".x.pdf.abc.part", tmp_path / ".x.pdf.def.part"
    stale.write_bytes(b"%PDF-trunc")
    fresh.write_bytes(b"%PDF-trunc")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    files.write_atomic(tmp_path / "x.pdf", b"%PDF-1")
    assert not stale.exists() and fresh.exists()
    assert [p.name for p in tmp_path.glob("*.pdf")] == ["x.pdf"]


def test_longest_allowed_pathological_markdown_renders_quickly():
    """100 open brackets and parentheses in 20,000 characters, the most validation allows, render in well under 3 s."""
    for text in ("[" * 100 + "x" * 19_900, "![" * 50 + "(" * 100 + "x" * 19_800, "`[" * 100 + "x" * 19_800):
        started = time.monotonic()
        markup.to_html(text)
        assert time.monotonic() - started < 3


@pytest.mark.parametrize(
    "name",
    [
        "../scenarios/bridge",
        "/etc/passwd",
        "a b",
        "-rf",
        "",
        'x"; touch PWNED; "',
        "x'; touch PWNED; '",
        "x`touch PWNED`",
    ],
)
def test_make_scenario_refuses_a_name_that_is_not_a_plain_scenario_name(name, tmp_path):
    """`make scenario NAME=...` refuses paths, options and shell syntax (exit 2) and runs none of it."""
    import subprocess

    from conftest import ROOT

    result = subprocess.run(
        ["make", "-s", "-o", ".venv/.installed", "scenario", f"NAME={name}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    assert result.returncode == 2, result.stderr
    assert "make scenario: NAME must be a plain scenario name" in result.stderr
    assert not (ROOT / "PWNED").exists()
