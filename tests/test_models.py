"""Typed records (generator/models.py): checked with the scenario's machinery, built as instances, problems at their spot."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from generator.errors import InputProblems
from generator.loading import load_text
from generator.models import MapOf, Model, Typed, UniqueNames, check_document, key, note_key
from generator.schema import Int, ListOf, Str


@dataclass(frozen=True)
class Weapon(Model):
    """One weapon."""

    name: str = key(Str(40), "The weapon's name.")
    range: int = key(Int(0, 96), "Range in inches.", default=0)
    origin: str = key(Str(40), "Where it comes from.", default="", name="from")
    note: str = note_key()

    def after(self, path, checker):
        if self.name == "Sword" and self.range:
            checker.report(path + ("range",), "a sword has no range")


@dataclass(frozen=True)
class Table(Model):
    """A weapon table."""

    weapons: list = key(UniqueNames(Typed(Weapon), what="weapon"), "The weapons.")
    faces: dict = key(
        MapOf(Str(1, "[1-6]", "a D6 face, 1 to 6"), Str(20)), "D6 faces (YAML keys are text).", default={}
    )
    tags: list = key(ListOf(Str(20)), "Tags.", default=[])


def _check(text: str):
    return check_document(load_text(text, "rules.yaml"), Table.spec())


def test_a_clean_file_becomes_typed_instances_with_defaults():
    """Keys become attributes, optional keys their defaults, a renamed YAML key its field, and a note is kept."""
    table = _check(
        "weapons:\n  - {name: Rifle, range: 24, from: armoury, note: a reading}\n  - {name: Knife}\nfaces: {1: miss}\n"
    )
    assert isinstance(table.weapons[0], Weapon)
    assert (table.weapons[0].range, table.weapons[0].origin, table.weapons[0].note) == (24, "armoury", "a reading")
    assert (table.weapons[1].range, table.weapons[1].note) == (0, "")
    assert table.faces == {"1": "miss"} and table.tags == [] and table.tags is not Table(weapons=[]).tags


def test_every_problem_is_named_at_its_line_and_column():
    """A renamed key, a word for a number and a duplicate name are all reported, each where it stands."""
    with pytest.raises(InputProblems) as caught:
        _check("weapons:\n  - {name: Rifle, rnage: 24}\n  - {name: Pistol, range: far}\n  - {name: Pistol}\n")
    text = [str(p) for p in caught.value.problems]
    assert (
        "rules.yaml:2:19: weapons[0].rnage: unknown key 'rnage' (did you mean 'range'?); expected name, range, from, note"
        in text
    )
    assert "rules.yaml:3:27: weapons[1].range: expected a whole number from 0 to 96 (got 'far')" in text
    assert len(text) == 2  # the duplicate is checked once every entry is clean


def test_duplicate_names_and_cross_key_checks_are_refused():
    """Two entries of one name, and a model's own check across its keys, are problems."""
    with pytest.raises(InputProblems) as caught:
        _check("weapons:\n  - {name: Sword, range: 2}\n  - {name: Rifle}\n  - {name: Rifle}\n")
    text = [str(p) for p in caught.value.problems]
    assert any("weapons[0].range: a sword has no range" in t for t in text)
    with pytest.raises(InputProblems, match="two weapons are named 'Rifle'"):
        _check("weapons:\n  - {name: Rifle}\n  - {name: Rifle}\n")


def test_a_mapping_of_names_checks_its_names_and_values():
    """MapOf checks both sides of every entry."""
    with pytest.raises(InputProblems, match=r"faces\.7: expected a D6 face, 1 to 6 \(got '7'\)"):
        _check("weapons: []\nfaces: {7: miss}\n")


def test_the_json_schema_carries_the_documentation():
    """The model's docstring and each key's documentation reach the JSON Schema editors read."""
    schema = Table.spec().json_schema()
    assert schema["description"] == "A weapon table."
    weapon = schema["properties"]["weapons"]["items"]
    assert weapon["properties"]["from"]["description"] == "Where it comes from."
    assert weapon["required"] == ["name"]


def test_a_short_list_names_its_minimum_in_words():
    """A list with too few entries says '1 entry' or '2 entries', as a person would write it."""
    with pytest.raises(InputProblems) as caught:
        check_document(load_text("weapons: []\n", "rules.yaml"), Typed(Short))
    assert [p.message for p in caught.value.problems] == ["expected at least 1 entry (got 0)"]


@dataclass(frozen=True)
class Short(Model):
    """A table that needs a weapon."""

    weapons: list = key(ListOf(Typed(Weapon), min=1), "The weapons.")


@dataclass(frozen=True)
class HitTable(Model):
    """A D6 table keyed by face."""

    hits: dict = key(MapOf(Int(1, 6), Str(20)), "What each face does.")


def test_a_table_keyed_by_numbers_reads_yaml_keys_as_numbers():
    """YAML mapping keys reach the checks as text: a table keyed by Int faces takes '1' as 1 and refuses 7 as a number."""
    table = check_document(load_text("hits: {1: miss, 6: hit}\n", "rules.yaml"), Typed(HitTable))
    assert table.hits == {1: "miss", 6: "hit"}
    with pytest.raises(InputProblems) as caught:
        check_document(load_text("hits: {7: hit}\n", "rules.yaml"), Typed(HitTable))
    assert [p.message for p in caught.value.problems] == ["expected a whole number from 1 to 6 (got 7)"]
