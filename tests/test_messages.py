"""Problem messages say whole things: a missing key's hint is its description's first sentence, not its first
full stop (which cut 'The season or campaign, e.g. Autumn 2026.' to '(the season or campaign, e)')."""

from __future__ import annotations

from generator.loading import load_text
from generator.schema import Checker, Key, Record, Str, first_sentence


def test_a_missing_keys_hint_is_its_first_sentence_whole():
    spec = Record([Key("season", Str(), "The season or campaign, e.g. Autumn 2026. Printed on the cover.")])
    doc = load_text("club: x\n", "club.yaml")
    checker = Checker(doc)
    spec.check({}, (), checker)
    (problem,) = checker.problems
    assert "missing key 'season' (the season or campaign, e.g. autumn 2026)" in problem.message


def test_first_sentence_keeps_abbreviations_and_decimals():
    assert first_sentence("Range, i.e. how far. More.") == "Range, i.e. how far"
    assert first_sentence("Move 1.5 squares. More.") == "Move 1.5 squares"
    assert first_sentence("No full stop at all") == "No full stop at all"


def test_only_a_command_that_writes_says_nothing_was_written(muster, tmp_path):
    """`muster validate` never writes, so its last line does not tell a player that nothing was written."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: Bad\nsystem: fireteam-tomorrow\n", encoding="utf-8")
    checked = muster("validate", bad)
    assert checked.code == 1 and checked.err.splitlines()[-1].startswith("muster: ")
    assert "nothing was written" not in checked.err
    built = muster("build", bad, "--out", tmp_path / "out")
    assert built.code == 1 and built.err.splitlines()[-1].endswith("; nothing was written")
