"""What validate passes, build prints: every character the bundled fonts draw prints, and a picture with no
description still builds."""

from __future__ import annotations

import unicodedata

import pdfplumber
import yaml
from conftest import SCENARIOS
from PIL import Image

from generator import coverage


def _scenario(tmp_path, **changes) -> str:
    tree = yaml.safe_load((SCENARIOS / "bridge.yaml").read_text(encoding="utf-8"))
    tree.update(changes)
    path = tmp_path / "alphabet.yaml"
    path.write_text(yaml.safe_dump(tree, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_every_character_validation_admits_prints(muster, tmp_path):
    """The whole admitted alphabet in one briefing: validate passes it, build prints it (no missing glyph, no
    failed build), and the PDF's text holds every letter."""
    letters = [
        chr(c)
        for c in sorted(coverage.printable())
        if unicodedata.category(chr(c))[0] in "LNPS" and not chr(c).isspace() and chr(c) not in "\\`*_[]<>#|!{}&~^"
    ]
    assert len(letters) > 900  # Latin, Cyrillic, modern Greek, figures, punctuation, symbols
    lines = ["".join(letters[i : i + 60]) for i in range(0, len(letters), 60)]
    path = _scenario(tmp_path, briefing="\n\n".join(lines))
    assert muster("validate", path).code == 0
    built = muster("build", path, "--out", tmp_path / "out")
    assert built.code == 0, built.err
    with pdfplumber.open(tmp_path / "out" / "alphabet" / "alphabet.pdf") as pdf:
        text = "".join(page.extract_text() or "" for page in pdf.pages[:3])
    missing = [c for c in letters if c not in text and unicodedata.category(c)[0] == "L"]
    assert len(missing) < 20, missing[:40]  # ligatures and compatibility forms may extract differently


def test_a_picture_without_a_description_builds(muster, tmp_path):
    """`![](map.png)` passed validate and then failed the build (a tagged PDF wants every picture described)."""
    Image.new("RGB", (40, 20), "red").save(tmp_path / "map.png")
    path = _scenario(tmp_path, briefing="![](map.png)\n\nThe river is deep.")
    assert muster("validate", path).code == 0
    built = muster("build", path, "--out", tmp_path / "out")
    assert built.code == 0, built.err
