"""The loader keeps positions and reads YAML 1.2 plainly; scenario prose cannot smuggle HTML, links or outside files."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.errors import InputProblems
from generator.loading import load_file, load_text
from generator.markup import to_html

# a real 1x1 PNG
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC")

SCENARIO = (Path(__file__).parent.parent / "scenarios" / "bridge.yaml").read_text()


def test_positions_are_kept_for_values_and_keys():
    """Every value's line and column is known, so a problem points at the spot."""
    doc = load_text("a: 1\nsides:\n  - name: X\n    teams: []\n", "f.yaml")
    assert doc.where(("sides", 0, "teams")) == (4, 12)
    assert doc.where(("sides", 0, "teams"), key=True) == (4, 5)
    assert doc.where(("sides", 0, "nothing", 3)) == (3, 5)  # falls back to the nearest ancestor


def test_yaml_12_scalars_norway_stays_text():
    """NO, on and dates stay text; true/false are booleans; 010 is ten."""
    doc = load_text("a: NO\nb: on\nc: 2024-01-01\nd: true\ne: 010\nf: 0x10\ng: 1.5\n", "f.yaml")
    assert doc.data == {"a": "NO", "b": "on", "c": "2024-01-01", "d": True, "e": 10, "f": 16, "g": 1.5}


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("a: 123456789012345678901234567890\n", "far too large"),
        ("a: .nan\n", "not a usable number"),
        ("a: " + "[" * 60 + "]" * 60 + "\n", "nesting deeper than"),
        ("a: 1\na: 2\n", "duplicate key 'a'"),
        ("? [a, b]\n: c\n", "a key must be a plain name"),
        ("", "the file is empty"),
        ("a: 1\n---\nb: 2\n", "not valid YAML"),
    ],
)
def test_loader_refuses_with_a_position(text, fragment):
    """Each surprise is a Problem with a line and column, never a library exception."""
    with pytest.raises(InputProblems) as err:
        load_text(text, "f.yaml")
    assert fragment in str(err.value)
    assert err.value.problems[0].line >= 1


def test_oversize_and_non_utf8_files_are_refused(tmp_path):
    """A file over a megabyte, or not UTF-8, is refused before parsing."""
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: " + b"x" * (1024 * 1024 + 10))
    with pytest.raises(InputProblems, match="larger than"):
        load_file(big)
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"title: caf\xe9\n")
    with pytest.raises(InputProblems, match=r"latin.yaml:1:11: the file is not UTF-8"):
        load_file(latin)


def test_markdown_neutralises_html_links_and_outside_pictures(tmp_path):
    """Raw HTML prints as text, links lose their targets, pictures must be plain paths in the scenario folder,
    and come out as their own checked bytes (data: URLs); text with no folder has no pictures."""
    (tmp_path / "map.png").write_bytes(PNG)
    text = (
        '<script>alert(1)</script> [x](file:///etc/passwd) <a href="http://evil">y</a> '
        "![a](map.png) ![b](/etc/passwd.png) ![c](../up.png) ![d](http://evil/x.png)"
    )
    html = to_html(text, tmp_path)
    assert "<script" not in html and "&lt;script&gt;" in html
    assert "<a" not in html and "&lt;a href" in html  # the raw tag survives only as printed text
    assert f'src="data:image/png;base64,{base64.b64encode(PNG).decode()}"' in html
    assert html.count("src=") == 1
    assert "src=" not in to_html(text)


def test_hostile_briefing_is_neutralised_in_the_pdf(muster, tmp_path):
    """A briefing with raw HTML and a link to a local file builds, and the PDF carries neither link nor file."""
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT")
    text = SCENARIO.replace(
        "Dawn, the third day",
        f'<iframe src="file://{secret}"></iframe> <a href="file://{secret}">open</a> '
        f'[notes](file://{secret}) <img src="file://{secret}"> Dawn, the third day',
    )
    scenario = tmp_path / "hostile.yaml"
    scenario.write_text(text)
    result = muster("build", scenario, "--out", tmp_path / "out")
    assert result.code == 0, result.err
    pdf = tmp_path / "out" / "hostile" / "hostile.pdf"
    raw = pdf.read_bytes()
    assert b"TOP-SECRET" not in raw
    reader = PdfReader(pdf)
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A") or {}
            assert "file:" not in str(action.get("/URI", ""))
    assert "<iframe" in reader.pages[0].extract_text()  # printed as the text it is


def test_picture_beside_the_scenario_is_allowed_and_one_outside_is_refused(muster, tmp_path):
    """A PNG in the scenario's folder prints; a path escaping the folder is dropped before rendering."""
    import base64

    png = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    )
    (tmp_path / "map.png").write_bytes(png)
    (tmp_path / "fake.png").write_text("not a picture")
    ok = tmp_path / "ok.yaml"
    ok.write_text(SCENARIO.replace("Dawn, the third day", "![map](map.png) Dawn, the third day"))
    assert muster("build", ok, "--out", tmp_path / "out").code == 0
    fake = tmp_path / "fake.yaml"
    fake.write_text(SCENARIO.replace("Dawn, the third day", "![map](fake.png) Dawn, the third day"))
    result = muster("build", fake, "--out", tmp_path / "out2")
    assert result.code == 1
    assert "fake.png is not a picture" in result.err
    assert not (tmp_path / "out2").exists()


def test_written_pdfs_are_readable_by_others(muster, tmp_path):
    """Atomic writes go through a private temporary file; the PDF itself gets the usual mode (umask 022: 0644)."""
    import os

    old = os.umask(0o022)
    try:
        from generator.files import write_atomic

        target = tmp_path / "x.pdf"
        write_atomic(target, b"%PDF-1.7 test")
        assert target.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(old)


def test_libyamls_parser_and_pyyamls_read_every_shipped_file_alike(monkeypatch):
    """The loader reads with libyaml's parser (PyYAML's own took five seconds over 100,000 values: a hostile-file
    test passed its ten-second bound only on a quiet machine) and falls back to PyYAML's where libyaml refuses. The
    two give the same data and the same line and column for every value and key of every scenario, booklet
    config and rule file shipped; and a file only PyYAML reads (an escaped half character) still reaches the
    schema, which says what is wrong with it."""
    from generator import loading

    root = Path(__file__).parent.parent
    files = sorted(root.glob("scenarios/**/*.yaml")) + sorted(root.glob("generator/systems/*/rules.yaml"))
    assert len(files) > 8
    texts = {str(path): path.read_text(encoding="utf-8") for path in files}
    texts["wide.yaml"] = 't: "Bourg-l\u00e9s \U0001f600 \u20ac"\nk: [\u00e4\u00e4, b, {\u00f6: 1}]\n'
    assert load_text('title: "Kessel \\ud800 Ford"\n', "f.yaml").data == {"title": "Kessel \ud800 Ford"}
    fast = {name: load_text(text, name) for name, text in texts.items()}
    monkeypatch.setattr(loading, "_FastLoader", loading._Loader)
    for name, doc in fast.items():
        slow = load_text(texts[name], name)
        assert (doc.data, doc.marks, doc.key_marks) == (slow.data, slow.marks, slow.key_marks), name
