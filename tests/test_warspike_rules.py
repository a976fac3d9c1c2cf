"""WarSpike's rule data is checked like a scenario: a problem in rules.yaml is named at its own line and column, exit 1."""

from __future__ import annotations

import shutil

import pytest
from conftest import SCENARIOS

from generator import systems
from generator.systems.warspike import WarSpike

EXAMPLE = SCENARIOS / "warspike-bridge-race.yaml"


@pytest.fixture
def house_rules(tmp_path, monkeypatch):
    """edit(old, new): a copy of rules.yaml with `old` (found once) replaced, bound to a fresh WarSpike; -> (path, line of new)."""

    def edit(old: str, new: str):
        folder = tmp_path / "warspike"
        folder.mkdir(exist_ok=True)
        shutil.copy(WarSpike.folder / "rules.yaml", folder / "rules.yaml")
        text = (folder / "rules.yaml").read_text()
        assert text.count(old) == 1, old
        text = text.replace(old, new)
        (folder / "rules.yaml").write_text(text)
        before = text[: text.index(new)]
        line = before.count("\n") + 1
        system = WarSpike()
        system.folder = folder
        monkeypatch.setitem(systems._loaded, "warspike", system)
        return folder / "rules.yaml", line

    return edit


def problems(muster) -> list[str]:
    result = muster("validate", EXAMPLE)
    assert result.code == 1, result.err
    assert "internal error" not in result.err and "Traceback" not in result.err
    return result.err.splitlines()


def test_a_renamed_key_is_named_at_its_line_with_the_key_it_should_be(house_rules, muster):
    """`battle_secs` for `battle_seconds`: an unknown key with a "did you mean", at the key itself."""
    path, line = house_rules("  battle_seconds: 30\n", "  battle_secs: 30\n")
    assert (
        f"{path}:{line}:3: turn.battle_secs: unknown key 'battle_secs' (did you mean 'battle_seconds'?); "
        "expected battle_seconds, rule, default_turns, turns_max, ground_scale, length"
    ) in problems(muster)


def test_a_word_where_a_number_belongs_is_named_at_the_value(house_rules, muster):
    """`troops_max: many` is refused where the word stands, saying what kind of number is wanted."""
    path, line = house_rules("  troops_max: 1000\n", "  troops_max: many\n")
    assert f"{path}:{line}:15: unit.troops_max: expected a whole number from 1 to 100000 (got 'many')" in problems(
        muster
    )


def test_a_default_above_the_maximum_is_refused_at_the_default(house_rules, muster):
    """12 turns by default but at most 60: a default of 80 could never be played, so the rule data is refused."""
    path, line = house_rules("  default_turns: 12\n", "  default_turns: 80\n")
    assert (
        f"{path}:{line}:18: turn.default_turns: the default number of turns (80) is above turns_max (60)"
        in problems(muster)
    )


def test_reactions_must_name_the_actions_the_unit_card_lists(house_rules, muster):
    """A Unit card lists one set of options for its Action or Reaction, so a Reaction the Actions lack is refused."""
    path, line = house_rules("  - name: Move\n    text: Directly towards", "  - name: Moev\n    text: Directly towards")
    lines = problems(muster)
    assert (
        f"{path}:{line}:11: reactions[0].name: expected one of the Actions' names, Move, Shoot, Engage, "
        "Special (got 'Moev') (did you mean 'Move'?): a Unit card lists one set of options for its Action or Reaction"
    ) in lines
    assert any(": actions[0].name: Action 'Move' has no Reaction of that name" in problem for problem in lines)


def test_advantage_counts_take_only_own_opponent_or_none(house_rules, muster):
    """Each way a Unit ends a turn counts for its own side, the opponent or nobody; any other word is refused."""
    path, line = house_rules("    routing: opponent\n", "    routing: theirs\n")
    assert (
        f"{path}:{line}:14: advantage.counts.routing: expected whose total it counts towards, one of own, "
        "opponent, none (got 'theirs')"
    ) in problems(muster)


def test_a_coin_with_two_faces_alike_is_refused(house_rules, muster):
    """The coin toss's odds count faces as equally likely, so two faces of one name are refused at the second."""
    path, line = house_rules("  faces: [Heads, Tails]\n", "  faces: [Heads, Heads]\n")
    assert f"{path}:{line}:18: coin_toss.faces[1]: the coin has two faces named 'Heads'" in problems(muster)


def test_more_than_two_armies_is_refused_in_the_rule_data(house_rules, muster):
    """A WarSpike turn has one Instigator and one Retaliator: the rule data may not ask for three sides."""
    path, line = house_rules("  sides: 2\n", "  sides: 3\n")
    assert (
        f"{path}:{line}:10: armies.sides: a WarSpike turn has one Instigator and one Retaliator, so 2 sides (got 3)"
    ) in problems(muster)


def test_the_retaliators_marker_says_any_unit_may_counter_a_move():
    """Issue 11 (a fresh read of both WarSpike sheets): the cards said only the targeted Unit reacts, directly
    towards the active Unit, while the notes and the bridge race's briefing let any Unit head off a Move that
    targets no one. The Retaliator's role marker prints that rule, in the rule data's words."""
    from generator.build import load

    system = systems.get("warspike")
    prepared = system.prepare(load(EXAMPLE), 1)
    marker = next(card for card in system.cards(prepared, "poker") if card["kind"] == "marker retaliator")
    counter = system.rules.movement_counter
    assert counter.rule in marker["lines"]
    assert "Any of your Units may make the Move Reaction to a Move that targets no one" in counter.rule


def test_the_move_counters_reaction_must_be_one_of_the_reactions(house_rules, muster):
    """The rule on countering a Move names the Reaction whose card and marker line it governs: a name no Reaction
    has is refused at its own line, with the Reactions' names."""
    path, line = house_rules("  reaction: Move\n", "  reaction: Mvoe\n")
    assert any(
        p.startswith(f"{path}:{line}:13: movement_counter.reaction: expected one of the Reactions' names")
        and "(got 'Mvoe') (did you mean 'Move'?)" in p
        for p in problems(muster)
    ), problems(muster)
