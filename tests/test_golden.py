"""Every example's odds, deck, HTML and PDF text are exactly the golden output in tests/golden/ (`make golden`)."""

from __future__ import annotations

import difflib
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import golden  # noqa: E402


def _same(name: str, file: str, text: str) -> None:
    want = (golden.GOLDEN / name / file).read_text(encoding="utf-8")
    if text != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), text.splitlines(True), "golden", "now"))[:60])
        pytest.fail(
            f"{name}/{file} differs from its golden output (refresh with `make golden` only if the change "
            f"is meant, and say why in the commit):\n{diff}"
        )


@pytest.mark.parametrize("name", golden.examples())
def test_example_matches_its_golden_output(name, built):
    """Odds and deck JSON, the pack's, cards', counters' and orders handouts' HTML and every PDF page's text
    are as the goldens hold them."""
    assert (golden.GOLDEN / name).is_dir(), f"no golden output for {name}: run `make golden`"
    pack, cards = built(name)
    for file, text in golden.outputs(name, pack, cards).items():
        _same(name, file, text)
