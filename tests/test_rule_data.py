"""Every system's rule data is checked like a scenario: the built-in files pass, a broken copy is refused at its spot."""

from __future__ import annotations

import re

import pytest
from conftest import SCENARIOS, examples_by_system

from generator import systems

EXAMPLES = {
    system_id: [SCENARIOS / f"{name}.yaml" for name in names] for system_id, names in examples_by_system().items()
}


def _broken(system_id: str, tmp_path, monkeypatch, edit):
    """A fresh instance of the system reading an edited copy of its rules.yaml, registered in its place."""
    system = systems.get(system_id)
    text = (system.folder / "rules.yaml").read_text(encoding="utf-8")
    text, line, col = edit(text)
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "rules.yaml").write_text(text, encoding="utf-8")
    fresh = type(system)()
    fresh.folder = folder
    monkeypatch.setitem(systems._loaded, system_id, fresh)
    return f"{folder / 'rules.yaml'}:{line}:{col}: "


def _rename_title(text: str):
    match = re.search(r"^title:", text, re.M)
    assert match, "every rules.yaml has a top-level `title:` (the system's name as printed)"
    line = text.count("\n", 0, match.start()) + 1
    return text[: match.start()] + "titel:" + text[match.end() :], line, 1


def _word_for_number(text: str):
    match = re.search(r"^(\s+)(\w+): ([0-9]+)[ \t]*(#.*)?$", text, re.M)
    assert match, "this check needs one indented `key: <whole number>` line in rules.yaml to break"
    line = text.count("\n", 0, match.start()) + 1
    start = match.start(3)
    return text[:start] + "many" + text[match.end(3) :], line, len(match.group(1)) + len(match.group(2)) + 3


@pytest.mark.parametrize("system_id", systems.known())
def test_built_in_rule_data_passes_its_own_checks(system_id):
    """Each system binds typed rule data, and its rules.yaml checks clean into it."""
    system = systems.get(system_id)
    assert system.rules_model is not None, f"{system_id} has no typed rule data (rules_model)"
    assert isinstance(system.rules, system.rules_model)


@pytest.mark.parametrize("system_id", systems.known())
def test_a_renamed_rule_key_is_a_problem_at_its_line(system_id, tmp_path, monkeypatch, muster):
    """Renaming a key of rules.yaml is reported at the file's own line and column with a suggestion, exit 1."""
    where = _broken(system_id, tmp_path, monkeypatch, _rename_title)
    result = muster("validate", EXAMPLES[system_id][0])
    assert result.code == 1, result.err
    assert f"{where}titel: unknown key 'titel' (did you mean 'title'?)" in result.err
    assert "internal error" not in result.err


@pytest.mark.parametrize("system_id", systems.known())
def test_a_word_where_a_number_belongs_is_a_problem_at_its_column(system_id, tmp_path, monkeypatch, muster):
    """A word in place of a rule number is reported where it stands, exit 1 for validate, odds and build alike."""
    where = _broken(system_id, tmp_path, monkeypatch, _word_for_number)
    for args in (
        ("validate", EXAMPLES[system_id][0]),
        ("odds", system_id),
        ("build", EXAMPLES[system_id][0], "--out", tmp_path / "out"),
    ):
        result = muster(*args)
        assert result.code == 1, (args, result.err)
        assert where in result.err and "(got 'many')" in result.err, (args, result.err)
    assert not (tmp_path / "out").exists()
