"""Muster prints in its own bundled type: the same input gives the same bytes on a machine with no fonts at all."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pypdf
import pytest
from conftest import ROOT, SCENARIOS
from fontTools.ttLib import TTFont

from generator import labels
from generator.rendering import TEMPLATES

FAMILIES = {"Source Sans 3", "Source Serif 4", "Muster Symbols"}
FONT_DIR = TEMPLATES / "fonts"
NO_FONTS_CONF = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><cachedir>{cache}</cachedir></fontconfig>
"""


def stylesheets():
    return sorted(p for p in TEMPLATES.rglob("*.css") if p.parent.name != "fonts")


def _families(value: str) -> list[str]:
    return [name.strip().strip("\"'") for name in value.split(",") if name.strip()]


@pytest.mark.parametrize("sheet", stylesheets(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_templates_name_only_bundled_families(sheet):
    """No template falls back on the machine's fonts: every family named is one fonts.css declares."""
    css = sheet.read_text(encoding="utf-8")
    named = [f for v in re.findall(r"font-family:\s*([^;}]+)", css) for f in _families(v)]
    named += [f for v in re.findall(r"\bfont:\s*[\d.]+pt\s+([^;}]+)", css) for f in _families(v)]
    assert set(named) <= FAMILIES, f"{sheet.name} names {sorted(set(named) - FAMILIES)}"


@pytest.mark.parametrize("sheet", ["muster.css", "cards.css", "booklet/booklet.css"])
def test_every_page_kind_loads_the_bundled_faces(sheet):
    """Packs, card sheets (and the calibration sheet) and the booklet's own pages import fonts.css first."""
    first = (TEMPLATES / sheet).read_text(encoding="utf-8").splitlines()[0]
    assert re.fullmatch(r'@import url\("(\.\./)?fonts/fonts\.css"\);', first)


def test_fonts_css_declares_every_face_and_every_file_is_there():
    css = (FONT_DIR / "fonts.css").read_text(encoding="utf-8")
    faces = re.findall(r'font-family: "([^"]+)"; src: url\(([^)]+)\)(?:; font-weight: (\w+); font-style: (\w+))?', css)
    for family in ("Source Sans 3", "Source Serif 4"):
        styles = {(w, s) for f, _, w, s in faces if f == family}
        assert styles == {("normal", "normal"), ("normal", "italic"), ("bold", "normal"), ("bold", "italic")}
    for _, file, _, _ in faces:
        assert (FONT_DIR / file).is_file(), file
    for licence in ("OFL-SourceSans3.md", "OFL-SourceSerif4.md", "LICENSE-MusterSymbols-DejaVu.txt"):
        assert (FONT_DIR / licence).is_file()


@pytest.mark.parametrize("file", ["SourceSans3-Regular.ttf", "SourceSerif4-Regular.ttf", "SourceSerif4-Bold.ttf"])
def test_faces_have_real_small_caps_and_tabular_figures(file):
    with TTFont(str(FONT_DIR / file)) as font:
        features = {r.FeatureTag for r in font["GSUB"].table.FeatureList.FeatureRecord}
        assert "smcp" in features  # small caps drawn by the designer, not shrunk capitals
        widths = {font["hmtx"].metrics[font.getBestCmap()[ord(d)]][0] for d in "0123456789"}
        assert "tnum" in features or len(widths) == 1  # figures line up in a column


def test_map_labels_are_measured_with_the_bundled_face():
    """Label boxes come from the font the PDF embeds: the bundled Source Sans 3, not a machine font."""
    with TTFont(str(FONT_DIR / "SourceSans3-Bold.ttf")) as font:
        upem = font["head"].unitsPerEm
        advance = sum(font["hmtx"].metrics[font.getBestCmap()[ord(c)]][0] for c in "Relay block") / upem
    assert labels.text_width("Relay block", 10, bold=True) == pytest.approx(advance * 10)


def _embedded(pdf) -> set[str]:
    names: set[str] = set()

    def walk(resources, seen):
        if resources is None:
            return
        resources = resources.get_object()
        for ref in (resources.get("/Font") or {}).values():
            names.add(str(ref.get_object()["/BaseFont"]).split("+")[-1])
        for ref in (resources.get("/XObject") or {}).values():
            xobject = ref.get_object()
            if id(xobject) not in seen:
                seen.add(id(xobject))
                walk(xobject.get("/Resources"), seen)

    for page in pypdf.PdfReader(pdf).pages:
        walk(page.get("/Resources"), set())
    return names


def _build(name: str, out, env: dict) -> tuple[bytes, bytes]:
    subprocess.run(
        [sys.executable, "-m", "generator", "build", str(SCENARIOS / f"{name}.yaml"), "--out", str(out)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    return (out / name / f"{name}.pdf").read_bytes(), (out / name / f"{name}-cards.pdf").read_bytes()


@pytest.mark.parametrize("name", ["bridge", "weissach-bridge"])
def test_same_bytes_on_a_machine_without_fonts(name, tmp_path, built):
    """A fontconfig that knows no font at all gives the very same PDFs: nothing comes from the machine.

    (Before the fonts were bundled such a build crashed inside Pango.) Both builds embed only bundled faces.
    The build with this machine's fonts is the run's own build of the example (the same bytes in or out of a
    process of its own: test_build_many).
    """
    pack, cards = built(name)
    conf = tmp_path / "no-fonts.conf"
    conf.write_text(NO_FONTS_CONF.format(cache=tmp_path / "fc-cache"), encoding="utf-8")
    bare = _build(name, tmp_path / "bare", {**os.environ, "FONTCONFIG_FILE": str(conf)})
    assert bare == (pack.read_bytes(), cards.read_bytes())
    for pdf in (pack, cards):
        faces = _embedded(pdf)
        assert faces and all(re.match(r"(Source-Sans-3|Source-Serif-4|Muster-Symbols)", f) for f in faces), faces
