"""Morschauser Modern's rule data is checked like a scenario: a broken rules.yaml is named at its own line and column, exit 1."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SCENARIOS

from generator import systems
from generator.loading import load_file
from generator.scenario import validate
from generator.systems.morschauser import MorschauserModern
from generator.systems.morschauser.scenario import GridScenario, Unit

SYSTEM = "morschauser-modern"
RULES = Path(systems.get(SYSTEM).folder) / "rules.yaml"
EXAMPLE = SCENARIOS / "weissach-bridge.yaml"


def where(text: str, line_start: str, value: str) -> tuple[int, int]:
    """The line and column (from 1) of `value` on the first line starting with `line_start`, counted by hand."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith(line_start):
            return number, line.index(value, len(line_start) - len(line_start.lstrip())) + 1
    raise AssertionError(f"no line starts with {line_start!r}")


@pytest.fixture
def broken(tmp_path, monkeypatch):
    """A copy of the package's rules.yaml with edits, bound to a fresh system instance in the registry."""

    def edit(*changes: tuple[str, str]) -> tuple[Path, str]:
        text = RULES.read_text(encoding="utf-8")
        for old, new in changes:
            assert text.count(old) == 1, old
            text = text.replace(old, new)
        (tmp_path / "rules.yaml").write_text(text, encoding="utf-8")
        system = MorschauserModern()
        system.folder = tmp_path
        monkeypatch.setitem(systems._loaded, SYSTEM, system)
        return tmp_path / "rules.yaml", text

    return edit


def test_a_renamed_key_is_named_at_its_line_and_column(muster, broken):
    """`minimum_powr` for `minimum_power` is an unknown key at the key itself, with the close name offered; exit 1."""
    path, text = broken(("  minimum_power: 1 ", "  minimum_powr: 1 "))
    line, col = where(text, "  minimum_powr:", "minimum_powr")
    result = muster("validate", EXAMPLE)
    assert result.code == 1, result.err
    assert (
        f"{path}:{line}:{col}: battle.minimum_powr: unknown key 'minimum_powr' (did you mean 'minimum_power'?); "
        "expected die, destroy_natural, minimum_power, rule, modifiers"
    ) in result.err
    assert "internal error" not in result.err


def test_a_word_where_a_number_belongs_is_named_at_the_value(muster, broken):
    """A unit type's Battle Power written `five` in a flow mapping is refused at that value's column; exit 1."""
    path, text = broken(
        ("name: Machine gun, move: 2, battle_power: 6,", "name: Machine gun, move: 2, battle_power: six,")
    )
    line, col = where(text, "  - {id: machine-gun", "six")
    result = muster("validate", EXAMPLE)
    assert result.code == 1, result.err
    assert (
        f"{path}:{line}:{col}: unit_types[4].battle_power: expected a whole number from 1 to 20 (got 'six')"
        in result.err
    )


def test_a_scatter_table_must_cover_the_die_exactly(muster, broken):
    """A scatter scheme with a 7 and no 6 is refused at its faces, saying what is missing and what is extra."""
    path, text = broken(
        (
            "faces: {1: left, 2: beyond, 3: right, 4: before, 5: target, 6: target}",
            "faces: {1: left, 2: beyond, 3: right, 4: before, 5: target, 7: target}",
        )
    )
    line, col = where(text, "      faces: {1: left", "{")
    result = muster("validate", EXAMPLE)
    assert result.code == 1, result.err
    assert (
        f"{path}:{line}:{col}: artillery.scatter.morschauser.faces: a D6 table covers the faces 1 to 6 exactly "
        "(missing 6; no face 7)"
    ) in result.err


def test_names_must_refer_to_the_rule_datas_own(muster, broken):
    """A variant naming a scatter scheme that does not exist, and a unit type naming an unknown weapon, are both reported."""
    path, text = broken(
        ("    scatter: clock-face\n", "    scatter: clock-fase\n"),
        (
            "range: 4, weapon: artillery, arc: 90, contours: 1, advance: false, may_be_poor: false, glyph: mortar}",
            "range: 4, weapon: artilery, arc: 90, contours: 1, advance: false, may_be_poor: false, glyph: mortar}",
        ),
    )
    result = muster("validate", EXAMPLE)
    assert result.code == 1, result.err
    line, col = where(text, "    scatter: clock-fase", "clock-fase")
    assert (
        f"{path}:{line}:{col}: variants[0].scatter: expected a scatter scheme, one of morschauser, clock-face, centric "
        "(got 'clock-fase') (did you mean 'clock-face'?)"
    ) in result.err
    line, col = where(text, "  - {id: mortar", "artilery")
    assert (
        f"{path}:{line}:{col}: unit_types[6].weapon: expected a weapon, one of artillery, afv-or-at (got 'artilery')"
        in result.err
    )


def test_the_tiles_must_be_the_ranks_times_the_suits(muster, broken):
    """turn.cards disagreeing with 13 ranks of 4 suits, and a unit limit above it, are refused where they stand."""
    path, text = broken(("  cards: 52\n", "  cards: 50\n"))
    result = muster("validate", EXAMPLE)
    assert result.code == 1, result.err
    line, col = where(text, "  cards: 50", "50")
    assert f"{path}:{line}:{col}: turn.cards: 13 ranks of 4 suits make 52 tiles (got 50)" in result.err


def test_odds_with_broken_rules_is_a_problem_not_a_crash(muster, broken):
    """`muster odds` reads the same rule data, so it refuses it the same way: exit 1, never 3."""
    broken(("  die: 6\n  destroy_natural: 6 ", "  die: 6\n  destroy_natural: 8 "))
    result = muster("odds", SYSTEM)
    assert result.code == 1, result.err
    assert "battle.destroy_natural: a D6 has no face 8" in result.err


def test_a_validated_scenario_reads_as_typed_units():
    """After validation the system's keys are typed records: units with attributes, squares as (column, row)."""
    game = GridScenario.of(validate(load_file(EXAMPLE)))
    unit = game.sides[0].units[0]
    assert isinstance(unit, Unit)
    assert isinstance(unit.at, tuple) and unit.quality in ("normal", "poor")
    assert game.grid.columns >= 4 and game.turns == 8
