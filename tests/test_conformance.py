"""What every registered rule system owes: examples that validate clean and print within the 7 pt floor at
every card size with every card's text on its card, a booklet appendix, templates, a docs page and exact odds.

Parametrised over generator.systems.known() and the scenarios/*.yaml files grouped by their `system:` key,
so a new system or a new example is checked without anyone editing this file.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction

import pytest
from conftest import ROOT, SCENARIOS, examples_by_system
from pdfcheck import build_cards_only, text_outside_cards, text_under
from pypdf import PdfReader

from generator.cards import CARD_SIZES
from generator.systems import get, known

# The card size `muster build` prints without --cards; its sheets come from the session's `built` fixture
DEFAULT_CARD_SIZE = "poker"

EXAMPLES = examples_by_system()
SYSTEMS = known()
NAMES = [name for system_id in SYSTEMS for name in EXAMPLES.get(system_id, [])]
SIZED = [
    (name, size) for system_id in SYSTEMS for name in EXAMPLES.get(system_id, []) for size in get(system_id).card_sizes
]


def test_every_example_names_a_registered_system():
    """No file in scenarios/ names a system the registry does not know (it would escape every check below)."""
    assert set(EXAMPLES) <= set(SYSTEMS), sorted(set(EXAMPLES) - set(SYSTEMS))


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_system_has_at_least_one_example(system_id):
    """Each registered system has a scenario in scenarios/ for the checks below to print."""
    assert EXAMPLES.get(system_id), f"no scenarios/*.yaml names system: {system_id}"


@pytest.mark.parametrize("name", NAMES)
def test_example_validates_clean_with_no_warnings(muster, name):
    """`muster validate` accepts the example and prints no warning at all."""
    result = muster("validate", SCENARIOS / f"{name}.yaml")
    assert (result.code, result.err) == (0, ""), result.err


@pytest.mark.parametrize("name", NAMES)
def test_pack_keeps_the_seven_point_floor(built, name):
    """No character of the example's pack is set under 7 pt."""
    pack, _ = built(name)
    assert text_under(pack) == []


@pytest.fixture(scope="session")
def card_sheets(built, tmp_path_factory):
    """The card sheets of an example at a card size: the default size from `built`, others built cards-only."""
    cache: dict = {}

    def sheets(name: str, size: str):
        if size == DEFAULT_CARD_SIZE:
            return built(name)[1]
        if (name, size) not in cache:
            target = tmp_path_factory.mktemp("cards") / f"{name}-{size}-cards.pdf"
            cache[name, size] = build_cards_only(SCENARIOS / f"{name}.yaml", size, target)
        return cache[name, size]

    return sheets


@pytest.mark.parametrize("name, size", SIZED)
def test_cards_keep_the_seven_point_floor_at_every_size(card_sheets, name, size):
    """At every card size its system declares, no character of the example's cards is set under 7 pt."""
    assert text_under(card_sheets(name, size)) == []


@pytest.mark.parametrize("name, size", SIZED)
def test_card_text_stays_on_its_card_at_every_size(card_sheets, name, size):
    """At every card size its system declares, every character of the example's card sheets lies on a card."""
    assert text_outside_cards(card_sheets(name, size), CARD_SIZES[size]) == []


def _titles(items) -> list[str]:
    return [t for item in items for t in (_titles(item) if isinstance(item, list) else [item.title])]


def _appendices(booklet) -> dict[str, list[str]]:
    """Each appendix bookmark of a booklet, with the titles bookmarked under it at any depth."""
    outline = PdfReader(booklet).outline
    found = {}
    for index, item in enumerate(outline):
        if not isinstance(item, list) and item.title.startswith("Appendix"):
            below = outline[index + 1] if index + 1 < len(outline) and isinstance(outline[index + 1], list) else []
            found[item.title] = _titles(below)
    return found


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_booklet_of_a_systems_examples_has_its_appendix(tmp_path, system_id):
    """A booklet of the system's examples renders, with one appendix titled for the system, bookmarking each
    part the system moves out of its chapters (under a section per variant set where the variants change it)."""
    system = get(system_id)
    booklet = tmp_path / f"{system_id}.pdf"
    files = [str(SCENARIOS / f"{name}.yaml") for name in EXAMPLES.get(system_id, [])]
    assert files, f"no example of {system_id} to make a booklet of"
    # a child process, as a user runs it: generator.booklet.Progress binds sys.stderr when first imported, so a
    # second in-process booklet under pytest's capsys writes to a closed stream (reported on issue 10)
    result = subprocess.run(
        [sys.executable, "-m", "generator", "booklet", *files, "--out", str(booklet), "--jobs", "2", "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    appendices = _appendices(booklet)
    assert list(appendices) == [f"Appendix A: {system.title}"], appendices
    # the variant sets' headings are "<system>: Rules as written", "<system>: With ..."
    parts = {title for title in appendices[f"Appendix A: {system.title}"] if not title.startswith(f"{system.title}: ")}
    assert len(parts) == len(system.appendix_parts), (parts, system.appendix_parts)


@pytest.mark.parametrize("system_id", SYSTEMS)
@pytest.mark.parametrize("template", ["pack.html", "cards.html"])
def test_system_has_its_pack_and_cards_templates(system_id, template):
    """templates/<id>/ holds the pack and the card macros the build renders for the system."""
    assert (ROOT / "templates" / system_id / template).is_file()


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_system_has_a_docs_page(system_id):
    """docs/<id>.md documents the scenario keys the system adds."""
    page = ROOT / "docs" / f"{system_id}.md"
    assert page.is_file(), f"no {page.relative_to(ROOT)}"
    assert page.read_text(encoding="utf-8").strip()


FRACTION = re.compile(r"-?\d+/[1-9]\d*")


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_odds_json_is_valid_and_its_fractions_parse(muster, system_id):
    """`muster odds <id> --json` prints JSON naming the system, with tables whose exact fractions parse as
    numerator/denominator and agree with the rounded float printed beside them."""
    result = muster("odds", system_id, "--json")
    assert result.code == 0, result.err
    odds = json.loads(result.out)
    assert odds["system"] == system_id
    assert odds["tables"], f"{system_id} prints no odds tables"
    fractions = 0
    for table in odds["tables"]:
        assert table["rows"], table["id"]
        for row in table["rows"]:
            for key, value in row.items():
                if f"{key}_float" not in row:
                    continue
                assert isinstance(value, str) and FRACTION.fullmatch(value), (table["id"], key, value)
                assert abs(float(Fraction(value)) - row[f"{key}_float"]) <= 5e-7, (table["id"], key, value)
                fractions += 1
    assert fractions, f"{system_id}'s odds hold no exact fraction"
