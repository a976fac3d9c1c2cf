"""Issue 15: a sheet of counters for every system, NAME-counters.pdf, in the cards' print options."""

from __future__ import annotations

import pdfplumber
import pytest
from conftest import SCENARIOS
from pdfcheck import text_under
from pypdf import PdfReader

from generator.build import load
from generator.cli import main

MM = 72 / 25.4
EXAMPLES = ["bridge", "warspike-hold-the-ford", "vesta-relay", "hill-112"]


def _build(tmp_path, name: str, *extra: str):
    out = tmp_path / "out"
    assert main(["build", str(SCENARIOS / f"{name}.yaml"), "--out", str(out), *extra]) == 0
    return out / name / f"{name}-counters.pdf"


def _words(pdf) -> list[list[str]]:
    return [page.extract_text().split() for page in PdfReader(pdf).pages]


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize(
    "options",
    [(), ("--paper", "letter"), ("--bleed",), ("--fronts-only",), ("--duplex", "short", "--ink-saver")],
    ids=["a4", "letter", "bleed", "fronts-only", "short-ink-saver"],
)
def test_every_system_prints_its_counters_at_every_paper_and_option(name, options, tmp_path):
    """There was nothing to put on the table: no HIT or Out markers, no Stress tokens, no unit counters. Every
    system's build writes NAME-counters.pdf in the cards' print options: fronts then backs (none with
    --fronts-only), every counter inside its page, no text under 7 pt."""
    counters = _build(tmp_path, name, *options)
    reader = PdfReader(counters)
    paper = (215.9, 279.4) if "letter" in options else (210.0, 297.0)
    box = reader.pages[0].mediabox
    assert (float(box.width) / MM, float(box.height) / MM) == pytest.approx(paper, abs=0.1)
    assert len(reader.pages) == (1 if "--fronts-only" in options else 2)
    assert text_under(counters) == []
    with pdfplumber.open(counters) as pdf:
        for page in pdf.pages:
            for word in page.extract_words():
                assert 0 <= word["x0"] and word["x1"] <= page.width and word["bottom"] <= page.height, word


def test_fireteam_has_a_hit_marker_for_every_figure_that_turns_over_to_out(tmp_path):
    counters = _build(tmp_path, "bridge")
    fronts, backs = _words(counters)
    scenario = load(SCENARIOS / "bridge.yaml")
    figures = sum(figure.count for side in scenario.sides for team in side["teams"] for figure in team.figures)
    assert fronts.count("HIT") == figures and backs.count("OUT") == figures
    assert "recovers" in fronts and "8+" in fronts  # the rule data's recovery target
    assert "bridge" in fronts  # the objective's marker


def test_warspike_marks_each_units_action_and_reaction_and_labels_each_block(tmp_path):
    counters = _build(tmp_path, "warspike-hold-the-ford")
    fronts, backs = _words(counters)
    text = " ".join(fronts)
    # five Roman Contubernia act (A); the war band's three Units all hold, so only react (R) on both faces; and
    # since the war band can never be Instigator, the Romans never react: A on both their faces too
    assert fronts.count("A") == 5 and fronts.count("R") == 3
    assert backs.count("A") == 5 and backs.count("R") == 3
    assert "Action taken" in text and "Half-Centuria" in text and "First pair" in text


def test_para_bellum_prints_stress_tokens_and_order_markers(tmp_path):
    counters = _build(tmp_path, "vesta-relay")
    fronts, backs = _words(counters)
    scenario = load(SCENARIOS / "vesta-relay.yaml")
    units = sum(len(side["units"]) for side in scenario.sides)
    points = sum(unit.command_points or 0 for side in scenario.sides for unit in side["units"])
    assert fronts.count("Stress") == 2 * units and fronts.count("1") >= 2 * units and backs.count("2") >= 2 * units
    assert " ".join(fronts).count("Take Action!") == points


def test_morschauser_unit_counters_are_the_size_of_the_printed_maps_squares(tmp_path):
    """A unit counter stands in a square of the map the pack prints: read back from the PDFs, the codes of two
    counters side by side lie one square of the printed map apart."""
    counters = _build(tmp_path, "hill-112")
    scenario = load(SCENARIOS / "hill-112.yaml")
    square = scenario.system.prepare(scenario, 0).square_mm
    with pdfplumber.open(counters) as pdf:
        words = {w["text"]: w for w in pdf.pages[0].extract_words()}
    a1, a2 = words["A1"], words["A2"]
    centre = lambda w: (w["x0"] + w["x1"]) / 2  # noqa: E731
    assert (centre(a2) - centre(a1)) / MM == pytest.approx(square, abs=0.05)
    # and the pack's map prints its squares that size: its column letters lie a square apart
    with pdfplumber.open(tmp_path / "out" / "hill-112" / "hill-112.pdf") as pdf:
        for page in pdf.pages:
            letters = {w["text"]: w for w in page.extract_words() if w["text"] in ("A", "B")}
            if len(letters) == 2 and letters["A"]["top"] == letters["B"]["top"]:
                break
        else:
            raise AssertionError("no map page with its columns lettered")
    assert (centre(letters["B"]) - centre(letters["A"])) / MM == pytest.approx(square, abs=0.05)


@pytest.mark.parametrize(
    "name, says",
    [
        ("bridge", ["Weapon levels", "Withdraws after losing"]),
        ("warspike-hold-the-ford", ["Under hold orders", "Can be Instigator"]),
        ("vesta-relay", ["Models", "Command Points", "Stress at the start"]),
        ("hill-112", ["By type", "Battle Power", "4 Infantry"]),
    ],
)
def test_every_cover_gives_each_sides_strength_at_a_glance(name, says, built):
    """Only Fireteam's cover summed up the sides, and not their weapons: every cover's "At a glance" gives each
    side's strength in its system's own terms, so an organiser sees whether the sides are even."""
    pack, _ = built(name)
    cover = " ".join(PdfReader(pack).pages[0].extract_text().split())
    assert "At a glance" in cover
    for word in says:
        assert word in cover, word
