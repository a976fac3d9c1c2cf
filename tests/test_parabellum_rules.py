"""Para Bellum's rule data is checked like a scenario: a bad rules.yaml is named at its own line and column, exit 1."""

from __future__ import annotations

import pytest
from conftest import SCENARIOS

from generator import systems
from generator.systems.parabellum import ParaBellum

RULES_YAML = ParaBellum.folder / "rules.yaml"


@pytest.fixture
def edited_rules(tmp_path, monkeypatch):
    """edited_rules(old, new) -> (path, line, column): a copy of rules.yaml with one edit, in use for this test.

    The line and column are where `new` starts in the edited file, counted from 1 as the messages count.
    """

    def edit(old: str, new: str, column_of: str | None = None):
        text = RULES_YAML.read_text(encoding="utf-8")
        assert text.count(old) == 1, old
        edited = text.replace(old, new)
        path = tmp_path / "rules.yaml"
        path.write_text(edited, encoding="utf-8")
        system = ParaBellum()
        system.folder = tmp_path
        monkeypatch.setitem(systems._loaded, "para-bellum", system)
        before = edited[: edited.index(new)]
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1 + (new.index(column_of) if column_of else 0)
        return path, line, column

    return edit


def _validate(muster):
    result = muster("validate", SCENARIOS / "vesta-relay.yaml")
    assert "Traceback" not in result.err and "internal error" not in result.err
    return result


def test_a_renamed_key_is_named_at_its_line_and_column(muster, edited_rules):
    """`per_pont:` for `per_point:` is an unknown key at that key, with the right name suggested, exit 1."""
    path, line, column = edited_rules("  per_point: -1\n", "  per_pont: -1\n", column_of="per_pont")
    result = _validate(muster)
    assert result.code == 1
    assert (
        f"{path}:{line}:{column}: stress.per_pont: unknown key 'per_pont' (did you mean 'per_point'?); "
        "expected per_point, max, name, note"
    ) in result.err


def test_a_word_where_a_number_belongs_is_named_at_its_value(muster, edited_rules):
    """`command_points_max: twenty` is refused at the value, saying what would do."""
    path, line, column = edited_rules("command_points_max: 20", "command_points_max: twenty", column_of="twenty")
    result = _validate(muster)
    assert result.code == 1
    assert (
        f"{path}:{line}:{column}: hq.command_points_max: expected a whole number from 1 to 100 (got 'twenty')"
        in result.err
    )


def test_a_d6_table_short_of_a_face_is_refused(muster, edited_rules):
    """Five points for a six-sided die leave a face without points: refused at the list, exit 1."""
    path, line, column = edited_rules("points: [1, 2, 2, 2, 2, 3]", "points: [1, 2, 2, 2, 3]", column_of="[")
    result = _validate(muster)
    assert result.code == 1
    assert (
        f"{path}:{line}:{column}: action_points.points: give the points of each face of the 6-sided die, "
        "face 1 first: 6 entries (got 5)"
    ) in result.err


def test_a_discipline_range_upside_down_is_refused(muster, edited_rules):
    """The discipline variant's lowest score above its highest is refused at `min`."""
    path, line, column = edited_rules("    min: 2\n    max: 6\n", "    min: 5\n    max: 4\n", column_of="5")
    result = _validate(muster)
    assert result.code == 1
    assert f"{path}:{line}:{column}: variants.discipline.min: the lowest score 5 is above the highest, 4" in result.err


def test_a_reference_to_a_missing_weapon_tag_is_refused(muster, edited_rules):
    """An action firing all but a tag that no weapon tag is named is refused there, with the close name."""
    path, line, column = edited_rules("fires_except: heavy", "fires_except: hevy", column_of="hevy")
    result = _validate(muster)
    assert result.code == 1
    assert (
        f"{path}:{line}:{column}: actions[2].fires_except: expected a weapon tag, one of heavy, assault "
        "(got 'hevy') (did you mean 'heavy'?)"
    ) in result.err


def test_an_action_of_a_kind_not_declared_is_refused(muster, edited_rules):
    """`kind: lng` names no kind of `kinds`: refused at the action's kind, exit 1, also for `muster odds`."""
    path, line, column = edited_rules(
        "    kind: long\n    rule: Each model moves up to twice",
        "    kind: lng\n    rule: Each model moves up to twice",
        column_of="lng",
    )
    result = _validate(muster)
    assert result.code == 1
    want = f"{path}:{line}:{column}: actions[4].kind: expected an action kind, one of short, long (got 'lng') (did you mean 'long'?)"
    assert want in result.err
    odds = muster("odds", "para-bellum")
    assert odds.code == 1 and want in odds.err


def test_the_shipped_rule_data_is_clean_and_typed():
    """rules.yaml as shipped passes its checks and is read as attributes (the seed's 1 / 2-5 / 6 table)."""
    rules = ParaBellum().rules
    assert rules.action_points.points == [1, 2, 2, 2, 2, 3]
    assert rules.kinds["long"].cost == 2 and rules.variants.discipline.perfect_natural == 6
    assert [a.id for a in rules.actions][:3] == ["move", "aim", "fire-short"]
