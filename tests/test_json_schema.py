"""`muster schema SYSTEM` answered a second way: every example passes its system's JSON Schema under an independent
validator (jsonschema, Draft 2020-12), and broken copies are refused by the schema and by `muster validate` alike."""

from __future__ import annotations

import copy
import json

import pytest
import yaml
from conftest import SCENARIOS, examples_by_system
from jsonschema import Draft202012Validator

from generator.systems import known

EXAMPLES = examples_by_system()
NAMES = [name for system_id in known() for name in EXAMPLES.get(system_id, [])]


def schema_validator(muster, system_id: str) -> Draft202012Validator:
    """A Draft 2020-12 validator for what `muster schema SYSTEM` prints, after checking the schema is one."""
    result = muster("schema", system_id)
    assert result.code == 0, result.err
    schema = json.loads(result.out)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def example(name: str) -> dict:
    """An example as an editor's YAML plugin sees it: plain YAML, none of Muster's own loading."""
    return yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text(encoding="utf-8"))


def schema_problems(validator: Draft202012Validator, data) -> list[str]:
    return [
        f"{'.'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}"
        for error in validator.iter_errors(data)
    ]


@pytest.mark.parametrize("system_id", known())
def test_schema_declares_draft_2020_12_and_is_a_valid_schema(muster, system_id):
    """The printed schema names the 2020-12 dialect and passes that dialect's metaschema."""
    validator = schema_validator(muster, system_id)
    assert validator.schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("name", NAMES)
def test_example_passes_its_systems_json_schema(muster, name):
    """An independent validator finds nothing wrong with the example under its system's schema."""
    data = example(name)
    assert schema_problems(schema_validator(muster, data["system"]), data) == []


# One problem each, as a user makes them: (what is broken, the key path the problem is reported at, the change)
BREAKAGES = {
    "unknown_key": (("weather",), lambda data: data.update(weather="rain")),
    "unknown_key_in_a_side": (("sides", 0, "motto"), lambda data: data["sides"][0].update(motto="Onwards")),
    "word_where_the_seed_number_belongs": (("seed",), lambda data: data.update(seed="twelve")),
    "number_where_the_title_belongs": (("title",), lambda data: data.update(title=1944)),
    "text_where_the_sides_list_belongs": (("sides",), lambda data: data.update(sides="North and South")),
}


def _path_text(path: tuple) -> str:
    """("sides", 0, "motto") -> "sides[0].motto", as Muster's messages write a key path."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else ("." if text else "") + part
    return text


@pytest.mark.parametrize("system_id", known())
@pytest.mark.parametrize("breakage", list(BREAKAGES))
def test_broken_copy_is_refused_by_the_schema_and_by_validate(muster, tmp_path, system_id, breakage):
    """A copy of the system's first example with one problem fails the JSON Schema at that key, and `muster
    validate` refuses it (exit 1) with a message naming that key."""
    path, change = BREAKAGES[breakage]
    data = copy.deepcopy(example(EXAMPLES[system_id][0]))
    change(data)
    errors = list(schema_validator(muster, system_id).iter_errors(data))
    assert errors, "the schema accepted it"
    # a wrong value is reported at its own path; an unknown key at its mapping, by additionalProperties
    assert any(
        tuple(error.absolute_path) == path
        or (
            tuple(error.absolute_path) == path[:-1]
            and error.validator == "additionalProperties"
            and repr(path[-1]) in error.message
        )
        for error in errors
    ), [(list(error.absolute_path), error.message) for error in errors]
    broken = tmp_path / f"{breakage}.yaml"
    broken.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    result = muster("validate", broken)
    assert result.code == 1, result.err
    assert f": {_path_text(path)}" in result.err or f"unknown key {path[-1]!r}" in result.err, result.err


@pytest.mark.parametrize("system_id", known())
def test_an_optional_key_left_empty_is_judged_alike_by_the_schema_and_by_validate(muster, tmp_path, system_id):
    """`seed:` with no value is either accepted by both the schema and `muster validate`, or refused by both."""
    data = copy.deepcopy(example(EXAMPLES[system_id][0]))
    data["seed"] = None
    copy_file = tmp_path / "empty-seed.yaml"
    copy_file.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    schema_accepts = schema_problems(schema_validator(muster, system_id), data) == []
    muster_accepts = muster("validate", copy_file).code == 0
    assert schema_accepts == muster_accepts, (
        f"schema accepts: {schema_accepts}, muster validate accepts: {muster_accepts}"
    )
