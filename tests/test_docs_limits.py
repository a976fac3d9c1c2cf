"""Each docs/<system>.md says what validation really enforces (issue 11): every length and range in its
'Lengths and ranges' table, and every range its key tables give, is the one `muster schema` and the rule data hold."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from generator.systems import get, known

ROOT = Path(__file__).resolve().parent.parent

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _bounded(schema: dict) -> dict[str, dict]:
    """Every key of the JSON Schema with a length, range or entry count, by its path (`sides[].units[].name`)."""
    found: dict[str, dict] = {}

    def walk(node, path: str) -> None:
        if not isinstance(node, dict):
            return
        for key, child in (node.get("properties") or {}).items():
            walk(child, f"{path}.{key}" if path else key)
        if "items" in node:
            walk(node["items"], path + "[]")
        for choice in node.get("anyOf", []) + node.get("oneOf", []) + node.get("allOf", []):
            walk(choice, path)
        limits = {k: node[k] for k in ("minimum", "maximum", "minItems", "maxItems", "maxLength") if k in node}
        if limits and path:
            found.setdefault(path, limits)

    walk(schema, "")
    return found


def _number(value) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _says(limits: dict) -> str:
    """The words the docs use for a limit: 'at most 40 characters', '1 to 60', '2 to 8 entries', 'up to 20 entries'."""
    if "maxLength" in limits:
        return f"at most {limits['maxLength']} characters"
    if "maxItems" in limits:
        low, high = limits.get("minItems", 0), limits["maxItems"]
        if low == high:
            return f"exactly {high} entries"
        return f"up to {high} entries" if low == 0 else f"{low} to {high} entries"
    return f"{_number(limits['minimum'])} to {_number(limits['maximum'])}"


def _schema(system_id: str, muster) -> dict:
    result = muster("schema", system_id)
    assert result.code == 0
    return json.loads(result.out)


def _doc(system_id: str) -> str:
    return (DOCS / f"{system_id}.md").read_text(encoding="utf-8")


def _limits_table(text: str) -> dict[str, str]:
    """The 'Lengths and ranges' table: key -> the limit it states (the words before any ';' comment)."""
    section = text.split("Lengths and ranges", 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \| (.*?) \|$", section, flags=re.MULTILINE)
    return {key: limit.split(";")[0].strip() for key, limit in rows}


@pytest.mark.parametrize("system_id", known())
def test_the_docs_state_every_length_and_range_validation_enforces(system_id, muster):
    """Every key with a length, range or entry count in the schema has a row in its doc's 'Lengths and ranges'
    table saying exactly that limit, and the table lists no key or limit the schema does not hold."""
    enforced = {path: _says(limits) for path, limits in _bounded(_schema(system_id, muster)).items()}
    documented = _limits_table(_doc(system_id))
    assert documented == enforced


@pytest.mark.parametrize("system_id", known())
def test_every_range_in_the_key_tables_is_the_one_validation_enforces(system_id, muster):
    """A key table's 'N to M' or 'N..M' for a key is a range the schema holds for that key or a key inside it
    (`table` 12 to 480 is table.width's and table.depth's): no doc promises a range validation does not keep."""
    bounded = _bounded(_schema(system_id, muster))
    text = _doc(system_id).split("Lengths and ranges", 1)[0]
    checked = 0
    for key, row in re.findall(r"^\| `([^`]+)` \|(.*)$", text, flags=re.MULTILINE):
        first = row.split(". ")[0]  # the key's own range comes first; later sentences may count other things
        for low, high in re.findall(r"\b(\d+(?:\.\d+)?) ?(?:to|\.\.) ?(\d+(?:\.\d+)?)\b", first):
            inside = [
                limits for path, limits in bounded.items() if re.search(rf"(^|[.\]]){re.escape(key)}($|[.\[])", path)
            ]
            ranges = {
                (
                    _number(limits.get("minimum", limits.get("minItems"))),
                    _number(limits.get("maximum", limits.get("maxItems"))),
                )
                for limits in inside
                if "maxLength" not in limits
            }
            assert (low, high) in ranges, f"docs/{system_id}.md: {key} says {low} to {high}; the schema has {ranges}"
            checked += 1
    assert checked, f"docs/{system_id}.md states no range in its key tables"


def test_the_whole_game_limits_in_the_docs_are_the_rule_datas():
    """The limits the rule data sets on a whole game (Fireteam's figures and players, Morschauser's units, WarSpike's
    two armies) are the numbers the docs give."""
    fireteam = get("fireteam-tomorrow").rules.limits
    row = _doc("fireteam-tomorrow").split("| `sides[].teams[].figures` |", 1)[1].split("\n", 1)[0]
    assert f"at most {fireteam.figures_max} figures and {fireteam.players_max} players" in row
    units = get("morschauser-modern").rules_filled.data["limits"]["units_max"]
    assert f"at most {units} units in the whole game" in _doc("morschauser-modern")
    assert get("warspike").rules_filled.data["armies"]["sides"] == 2 and "the rules take exactly two" in _doc(
        "warspike"
    )


@pytest.mark.parametrize("system_id", known())
def test_the_docs_name_every_card_size_and_the_fit_at_7_pt(system_id):
    """Each doc names every card size the system prints (not the poker size alone) and says a name must fit its
    card at 7 pt, with the longest that fits reported."""
    text = " ".join(_doc(system_id).split())
    for size in get(system_id).card_sizes:
        assert re.search(rf"\b{size}\b", text), f"docs/{system_id}.md does not name the {size} card size"
    assert "fit at 7 pt" in text and "the longest that fits" in text


def test_the_fireteam_guide_lists_the_weapon_tables_names_as_the_rule_data_has_them():
    """A new user's trial: the guide said only "a name from the weapon table", and the names had to be dug out of
    the schema (which also lists the vehicle weapons a figure may not carry). It lists the figures' and the
    vehicles' weapons apart, each list the rule data's, in its order."""
    rules = get("fireteam-tomorrow").rules
    text = " ".join((ROOT / "docs" / "fireteam-tomorrow.md").read_text(encoding="utf-8").split())
    figures = ", ".join(w.name for w in rules.weapons if w.kind != "vehicle")
    vehicles = ", ".join(w.name for w in rules.weapons if w.kind == "vehicle")
    assert f"A figure carries one of: {figures}." in text
    assert f"A vehicle mounts: {vehicles}." in text


def test_the_readme_gives_the_cards_a_sheet_holds_with_bleed():
    """A new user's trial: --bleed fits fewer cards a sheet (four poker cards on Letter, not nine) and README did
    not say so. Its numbers are the layout's."""
    from generator.cards import layout

    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    words = {4: "four", 6: "six", 9: "nine", 12: "twelve", 16: "sixteen"}
    poker = f"poker {words[layout('a4', 'poker', True).per_sheet]} on A4 and {words[layout('letter', 'poker', True).per_sheet]} on Letter"
    assert {layout(paper, "mini", True).per_sheet for paper in ("a4", "letter")} == {12}
    assert f"so fewer fit a sheet: {poker}, mini twelve, tarot still four" in text
