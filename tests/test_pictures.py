"""Pictures in a scenario's prose: checked once and embedded as checked, refused at validation with a position,
and printed the same whatever folder the scenario sits in."""

from __future__ import annotations

import base64
import io
import zlib
from pathlib import Path

import pytest
from PIL import Image
from test_hostile import MINIMAL

from generator import engine, fetcher, markup
from generator.errors import RenderError
from generator.rendering import TEMPLATES

SECRET = b"MUSTER-SECRET-7f3a"


def jpeg() -> bytes:
    """A real small JPEG: WeasyPrint embeds a JPEG's bytes as they are, so what it reads is what the PDF holds."""
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(out, format="JPEG")
    return out.getvalue()


@pytest.mark.parametrize("swap_to", ["a_secret_outside", "a_78_MB_file_beside"])
def test_a_picture_swapped_after_its_check_is_embedded_as_checked(swap_to, tmp_path, monkeypatch):
    """A picture replaced by a symlink as soon as it was read and checked (to a file outside the folder, or to a
    78 MB file) is not read again by name: the page holds the checked bytes, and the renderer opens no file of
    the scenario's folder at all, so the PDF has no secret and nothing past 8 MiB."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    picture = folder / "map.jpg"
    picture.write_bytes(jpeg())
    if swap_to == "a_secret_outside":
        target = tmp_path / "secret.jpg"
        target.write_bytes(jpeg()[:-2] + SECRET + b"\xff\xd9")
    else:
        target = folder / "huge.jpg"
        with target.open("wb") as handle:  # sparse: 78 MB on paper, nothing on disk
            handle.write(jpeg()[:-2] + SECRET)
            handle.truncate(78 * 1000 * 1000)
    read = markup.read_picture

    def read_then_swap(folder: Path, name: str) -> bytes:
        data = read(folder, name)
        picture.unlink()
        picture.symlink_to(target)
        return data

    monkeypatch.setattr(markup, "read_picture", read_then_swap)
    html = f'<html lang="en">{markup.to_html("![map](map.jpg)", folder)}</html>'
    data = engine.html_to_pdf(html, tmp_path)
    assert picture.is_symlink(), "the swap happened"
    assert SECRET not in data
    assert len(data) < fetcher.MAX_IMAGE_BYTES
    assert jpeg() in data  # the checked picture is what was embedded


def test_the_renderer_opens_no_file_of_the_scenarios_folder(tmp_path):
    """Pictures reach the page only as checked bytes: a page (or an SVG in it) naming a real picture beside the
    scenario by its file: URL fails the render, so nothing can print bytes that validation did not check."""
    (tmp_path / "map.jpg").write_bytes(jpeg())
    uri = (tmp_path / "map.jpg").as_uri()
    for src in (uri, svg_uri(f'<image href="{uri}" width="10" height="10"/>')):
        with pytest.raises(RenderError, match="not one of Muster's own files|refers to another file"):
            render(src)


def png_header(width: int, height: int) -> bytes:
    """A PNG that claims width x height pixels: all a decompression bomb needs to be judged (and refused) by."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")

    head = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(b"\x00")) + chunk(b"IEND", b"")


def scenario_with(folder: Path, briefing: str, name: str = "pictured") -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(
        f"title: Pictured\nsystem: fireteam-tomorrow\nbriefing: |\n  {briefing}\nvictory:" + MINIMAL, encoding="utf-8"
    )
    return path


def test_a_picture_named_in_any_script_prints(tmp_path, muster):
    """carte-été.png is a plain name in the scenario's folder: it validates and its bytes are in the pack."""
    (tmp_path / "carte-été.png").write_bytes(jpeg())  # a JPEG's bytes go into the PDF as they are
    scenario = scenario_with(tmp_path, "![La carte](carte-été.png)")
    assert muster("validate", scenario).code == 0
    result = muster("build", scenario, "--out", tmp_path / "out")
    assert result.code == 0, result.err
    assert jpeg() in (tmp_path / "out" / "pictured" / "pictured.pdf").read_bytes()


@pytest.mark.parametrize(
    ("picture", "message"),
    [
        ("../x.png", "picture '../x.png' refused: name a picture file"),
        ("https://example.com/x.png", "picture 'https://example.com/x.png' refused: name a picture file"),
        ("missing.png", "picture not found: missing.png"),
        ("bomb.png", "picture bomb.png has more than 40 million pixels"),
        ("half-bomb.png", "picture half-bomb.png has more than 40 million pixels"),
    ],
)
def test_validate_reports_a_refused_picture_at_its_line_and_column(picture, message, tmp_path, muster):
    """A picture the build would drop or fail on is a problem at file:line:col, from validate as from build; a PNG
    claiming 400 Mpx (past Pillow's own bomb error) or 100 Mpx (past its warning) is refused by our limit, in our
    words, and no Pillow warning reaches stderr."""
    (tmp_path / "x.png").write_bytes(jpeg())
    (tmp_path / "inner").mkdir()
    (tmp_path / "bomb.png").write_bytes(png_header(20_000, 20_000))
    (tmp_path / "half-bomb.png").write_bytes(png_header(10_000, 10_000))
    scenario = scenario_with(tmp_path / "inner" if picture == "../x.png" else tmp_path, f"![map]({picture})")
    for command in (["validate", scenario], ["build", scenario, "--out", tmp_path / "out"]):
        result = muster(*command)
        assert result.code == 1
        assert f"{scenario}:4:10: briefing: {message}" in result.err, result.err
        assert "Warning" not in result.err and "Traceback" not in result.err
    assert not (tmp_path / "out").exists()


def svg_uri(body: str) -> str:
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20">{body}</svg>'
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def render(src: str) -> bytes:
    return engine.html_to_pdf(f'<html lang="en"><p><img src="{src}" alt="picture"></p></html>', Path("."))


def test_a_font_inside_an_svg_never_reaches_the_font_parsers():
    """An SVG carrying a font as a data: URL is refused before FreeType or HarfBuzz see the font's bytes."""
    font = next((TEMPLATES / "fonts").rglob("*.ttf")).read_bytes()
    style = "<style>@font-face { font-family: Evil; src: url(data:font/ttf;base64,%s) }</style>"
    # no text to draw with it (an SVG holding text is refused for that first): the font alone must not get through
    svg = svg_uri(style % base64.b64encode(font).decode() + '<rect width="10" height="10"/>')
    with pytest.raises(RenderError, match=r"a data: URL is not a picture \(PNG, JPEG, GIF, WebP or SVG\)"):
        render(svg)


def test_a_decompression_bomb_inside_an_svg_is_refused_with_its_reason():
    """A PNG bomb inside an SVG (no file, so validate cannot see it) is refused by the fetcher, with our reason."""
    bomb = base64.b64encode(png_header(20_000, 20_000)).decode()
    svg = svg_uri(f'<image href="data:image/png;base64,{bomb}" width="10" height="10"/>')
    with pytest.raises(RenderError, match="has more than 40 million pixels"):
        render(svg)


def test_code_spans_print_ampersands_and_angle_brackets_once_escaped():
    """`a & b < c` prints as a & b < c: the HTML holds &amp; and &lt; once, not &amp;amp; (printed as &amp;)."""
    html = str(markup.to_html("Type `a & b < c` or `&lt;` literally."))
    assert "<code>a &amp; b &lt; c</code>" in html
    assert "<code>&amp;lt;</code>" in html  # a literal &lt; prints as the four characters it is
    assert str(markup.inline("`x && y`")) == "<code>x &amp;&amp; y</code>"


def test_the_same_scenario_with_a_picture_builds_the_same_bytes_in_two_folders(tmp_path, muster):
    """The PDF names a picture by its content, not by a hash of the folder it sat in: same input, same bytes."""
    packs = []
    for club in ("club-a", "somewhere/else/club-b"):
        folder = tmp_path / club
        folder.mkdir(parents=True)
        (folder / "map.png").write_bytes(_small_png())
        scenario = scenario_with(folder, "![map](map.png)")
        result = muster("build", scenario, "--out", folder / "out")
        assert result.code == 0, result.err
        packs.append((folder / "out" / "pictured" / "pictured.pdf").read_bytes())
    assert packs[0] == packs[1]
    assert str(tmp_path).encode() not in packs[0]


def _small_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 4), (30, 90, 200)).save(out, format="PNG")
    return out.getvalue()


def test_a_picture_gone_after_validation_fails_the_render_in_our_words(tmp_path, capfd):
    """A picture deleted between validate and render stops the build with a RenderError naming it, never dropped
    silently nor printed as a traceback by the sanitiser that called us back."""
    with pytest.raises(RenderError, match=r"picture not found: gone.png \(in .*; it changed after validation\)"):
        markup.to_html("![map](gone.png)", tmp_path)
    assert capfd.readouterr().err == ""


def test_a_picture_written_escaped_is_reported_at_its_text_not_at_a_comment_that_names_it(tmp_path, muster):
    """Issue 12 (red team): `![m](old\\_map.png)` (Markdown's escaped underscore) was reported at a comment 90 lines
    down that named old_map.png: the search for the path ran past the text's own value to the end of the file. It
    now stays inside the value, and falls back on the text's own position."""
    scenario = scenario_with(tmp_path, "![m](old\\_map.png)")
    scenario.write_text(scenario.read_text(encoding="utf-8") + "# TODO replace old_map.png next season\n", "utf-8")
    result = muster("validate", scenario)
    assert result.code == 1
    assert f"{scenario}:3:11: briefing: picture not found: old_map.png" in result.err, result.err


def test_a_line_break_that_editors_do_not_show_is_refused_where_they_show_it(tmp_path, muster):
    """Issue 12 (red team): U+2028, U+2029 or U+0085 in a comment is a line break to YAML 1.1 and not to most
    editors: every later problem was reported a line off (and a key could hide in what looks like a comment).
    Such a character is refused at the line and column an editor shows."""
    for char in ("\u2028", "\u2029", "\x85"):
        scenario = scenario_with(tmp_path, "![map](missing.png)")
        scenario.write_text(f"# a comment{char}with more\n" + scenario.read_text(encoding="utf-8"), "utf-8")
        result = muster("validate", scenario)
        assert result.code == 1
        assert f"{scenario}:1:12: the character U+{ord(char):04X} is a line break to YAML" in result.err, result.err


@pytest.mark.parametrize("kind", ["PNG", "JPEG"])
def test_a_truncated_picture_is_refused_at_its_line(kind, tmp_path, muster):
    """Issue 12 (red team): a PNG or JPEG cut short passed validate and build, and was embedded undecodable (a
    viewer shows nothing, or a grey box). A picture is decoded whole when it is checked."""
    from PIL import Image

    out = io.BytesIO()
    Image.effect_noise((120, 120), 60).convert("RGB").save(out, format=kind)
    name = f"cut.{kind.lower()}"
    (tmp_path / name).write_bytes(out.getvalue()[: len(out.getvalue()) // 2])
    scenario = scenario_with(tmp_path, f"![map]({name})")
    result = muster("validate", scenario)
    assert result.code == 1
    assert f"{scenario}:4:10: briefing: picture {name} is damaged: it does not decode whole" in result.err, result.err


@pytest.mark.parametrize(
    "body",
    [
        '<text x="5" y="40" font-family="DejaVu Serif" font-size="20">Hello</text>',
        '<style>@font-face { font-family: X; src: local("DejaVu Sans Mono"); }</style><text x="5" y="30">Hi</text>',
        '<text x="5" y="30"><tspan>\u6f22\u5b57</tspan></text>',
        '<a x="10" y="40" font-size="30" font-family="DejaVu Serif">Hello \u6f22\u5b57</a>',  # WeasyPrint draws it
    ],
)
def test_an_svg_picture_holding_text_is_refused_at_its_line(body, tmp_path, muster):
    """Issue 12 (red team): an SVG picture's <text> was drawn in whatever fonts the machine had (DejaVu, named or
    by @font-face local(), embedded in the PDF), so one file printed differently elsewhere; CJK text in it passed
    validate and failed build with no line and column. A picture that holds text is refused where it is named."""
    (tmp_path / "sign.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60">{body}</svg>', encoding="utf-8"
    )
    scenario = scenario_with(tmp_path, "![The sign](sign.svg)")
    for command in (["validate", scenario], ["build", scenario, "--out", tmp_path / "out"]):
        result = muster(*command)
        assert result.code == 1
        assert f"{scenario}:4:15: briefing: picture sign.svg holds text" in result.err, result.err
    assert not (tmp_path / "out").exists()


def _use_bomb(levels: int) -> str:
    """An SVG of `levels` nested <use> pairs: 2 ** levels copies of one square, in a file of a few hundred bytes."""
    defs = '<rect id="l0" width="1" height="1"/>' + "".join(
        f'<g id="l{n}"><use href="#l{n - 1}"/><use href="#l{n - 1}" x="1"/></g>' for n in range(1, levels + 1)
    )
    return f'<defs>{defs}</defs><use href="#l{levels}"/>'


@pytest.mark.parametrize(
    "body, words",
    [
        (_use_bomb(24), "draws more than 100,000 shapes once its <use> copies are counted"),
        ('<g id="a"><use href="#a"/></g>', "has a <use> that refers to itself, so it never ends"),
        (
            '<g id="a"><use href="#b"/></g><g id="b"><rect width="2" height="2"/><use href="#a"/></g>',
            "refers to itself",
        ),
    ],
)
def test_an_svg_whose_use_copies_never_end_or_number_millions_is_refused_at_its_line(body, words, tmp_path, muster):
    """Issue 12 (third red team, F11, F12): a <use> referring to itself validated, then failed the build with the
    whole picture in one 2.7 MB error line; 1.8 KB of nested <use> (16 million squares) validated and ran the build
    past its clock. Both are refused where the picture is named."""
    (tmp_path / "map.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">{body}</svg>', encoding="utf-8"
    )
    scenario = scenario_with(tmp_path, "![The map](map.svg)")
    result = muster("validate", scenario)
    assert result.code == 1 and f"{scenario}:4:14: briefing: picture map.svg " in result.err, result.err
    assert words in result.err and len(result.err) < 400, result.err
    ok = _use_bomb(8)  # 256 squares: a pattern drawn by <use> is a picture like any other
    (tmp_path / "map.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">{ok}</svg>')
    assert muster("validate", scenario).code == 0


def test_a_renderers_message_names_a_picture_and_keeps_to_one_short_line():
    """WeasyPrint's own failure for a picture carries the picture's data: URL (2.7 MB in one line for a 2 MB SVG):
    the URL is named, not printed, and the line stops at 300 characters."""
    from generator.engine import _short

    assert _short("Failed to render SVG image data:image/svg+xml;base64," + "A" * 10_000) == (
        "Failed to render SVG image (a picture)"
    )
    assert len(_short("word " * 1000)) == 300
