"""Para Bellum: exact action-point odds checked a second way, plans against the seed's examples, the JSON contract, cards that fit."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import icepool
import pytest
from conftest import SCENARIOS
from pypdf import PdfReader

from generator.build import load
from generator.systems import get
from generator.systems.parabellum import cardfit, measure, odds, plans
from generator.systems.parabellum.units import Unit, Weapon

SYSTEM = get("para-bellum")
RULES = SYSTEM.rules

RIFLE = Weapon(name="Rifles", tags=[])
SHOTGUN = Weapon(name="Shotguns", tags=["assault"])
CANNON = Weapon(name="Cannon", tags=["heavy"])


def steps(*names):
    return tuple(names)


def plan_steps(points=None):
    return {p.steps for p in plans.all_plans(RULES, points)}


# --- odds -------------------------------------------------------------------------------


@pytest.mark.parametrize("stress", range(0, 7))
@pytest.mark.parametrize("order", [False, True])
def test_action_points_match_icepool(stress, order):
    """Our exact distribution equals icepool's for the seed's D6 table with Stress and order, clamped to 0..3."""
    die = icepool.Die([1, 2, 2, 2, 2, 3]) - stress + (1 if order else 0)
    want = {k: Fraction(die.quantity(k), die.denominator()) for k in die.outcomes()}
    clamped: dict[int, Fraction] = {}
    for k, p in want.items():
        clamped[max(0, min(3, k))] = clamped.get(max(0, min(3, k)), Fraction(0)) + p
    got = odds.action_points(RULES, stress, order)
    assert {k: got[k] for k in range(4) if got[k]} == clamped


@pytest.mark.parametrize("discipline", range(2, 7))
def test_discipline_variant_matches_brute_force(discipline):
    """The discipline test (fail 1, pass 2, natural six 3) equals a count over the six faces written out by hand."""
    for stress in range(5):
        for order in (False, True):
            counts = [0, 0, 0, 0]
            for face in (1, 2, 3, 4, 5, 6):
                base = 3 if face == 6 else (2 if face >= discipline else 1)
                total = base - stress + order
                counts[0 if total <= 0 else (3 if total >= 3 else total)] += 1
            got = odds.action_points(RULES, stress, order, discipline)
            assert [got[n] for n in range(4)] == [Fraction(c, 6) for c in counts]


def test_discipline_two_is_the_standard_table():
    """Discipline 2+ reproduces the seed's 1 / 2-5 / 6 table exactly, as the variant's note says."""
    assert odds.roll_points(RULES, 2) == odds.roll_points(RULES)


def test_seed_examples_one_and_two():
    """Ex 1: stress 2, ordered, a 3 gives 1 point (0 without the order); Ex 2: unstressed, ordered, a 6 gives 3."""
    two = RULES.action_points.points[3 - 1]
    assert odds.points_for(RULES, two, 2, True) == 1
    assert odds.points_for(RULES, two, 2, False) == 0
    six = RULES.action_points.points[6 - 1]
    assert odds.points_for(RULES, six, 0, True) == odds.points_for(RULES, six, 0, False) == 3


def test_order_value_at_each_stress():
    """An order buys +5/6 expected points unstressed (wasted on a 6), +1 at Stress 1, nothing from Stress 4 on."""
    rows = {r["stress"]: r for r in odds.order_value_table(RULES).rows}
    assert rows[0]["gain"] == Fraction(5, 6) and rows[0]["wasted"] == Fraction(1, 6)
    assert rows[1]["gain"] == 1 and rows[1]["wasted"] == 0
    assert rows[max(rows)]["gain"] == 0 and max(rows) == 4


def test_odds_json_contract(muster):
    """`muster odds para-bellum --json` has table action-points with a row per stress and order, ap0..ap3 as n/d, and expected."""
    result = muster("odds", "para-bellum", "--json")
    assert result.code == 0, result.err
    table = next(t for t in result.json()["tables"] if t["id"] == "action-points")
    keys = {(r["stress"], r["order"]) for r in table["rows"]}
    assert keys == {(s, o) for s in range(5) for o in (False, True)}
    for row in table["rows"]:
        probs = [Fraction(row[f"ap{n}"]) for n in range(4)]
        assert all("/" in row[f"ap{n}"] for n in range(4))
        assert sum(probs) == 1
        assert Fraction(row["expected"]) == sum(n * p for n, p in enumerate(probs))
    first = next(r for r in table["rows"] if r["stress"] == 0 and r["order"] is False)
    assert (first["ap0"], first["ap1"], first["ap2"], first["ap3"], first["expected"]) == (
        "0/1",
        "1/6",
        "2/3",
        "1/6",
        "2/1",
    )


def test_odds_json_with_discipline_variant(muster):
    """--variant discipline adds a discipline field, and its 2+ rows equal the standard table's."""
    plain = {(r["stress"], r["order"]): r for r in muster("odds", "para-bellum", "--json").json()["tables"][0]["rows"]}
    result = muster("odds", "para-bellum", "--json", "--variant", "discipline")
    assert result.code == 0, result.err
    rows = result.json()["tables"][0]["rows"]
    assert {r["discipline"] for r in rows} == {2, 3, 4, 5, 6}
    for r in rows:
        if r["discipline"] == 2:
            assert all(r[k] == plain[(r["stress"], r["order"])][k] for k in ("ap0", "ap1", "ap2", "ap3", "expected"))


def test_unknown_variant_is_a_usage_error(muster):
    """A misspelt variant exits 2 and suggests the right name."""
    result = muster("odds", "para-bellum", "--variant", "disciplne")
    assert result.code == 2 and "did you mean 'discipline'" in result.err


# --- plans ------------------------------------------------------------------------------


def test_seed_worked_examples_are_legal_plans():
    """3 points: Run! then Fire! or vice versa, Move! Take Aim! Fire!; 2 points: Take Aim! and Fire!, Move! and Charge!."""
    three = {p.steps for p in plans.all_plans(RULES) if p.cost == 3}
    two = {p.steps for p in plans.all_plans(RULES) if p.cost == 2}
    assert {steps("run", "fire-short"), steps("fire-short", "run"), steps("move", "aim", "fire-short")} <= three
    assert {steps("aim", "fire-short"), steps("move", "charge")} <= two
    for unit in ([RIFLE], [SHOTGUN], [RIFLE, CANNON]):
        mine = {p.steps for p in plans.for_unit(plans.all_plans(RULES), unit, RULES)}
        assert {
            steps("run", "fire-short"),
            steps("move", "aim", "fire-short"),
            steps("aim", "fire-short"),
            steps("move", "charge"),
        } <= mine


def test_plans_match_an_independent_enumeration():
    """Every ordering of every set of distinct actions within 3 points, Fire! once, Stand Ready! alone: the same plans."""
    cost = {"move": 1, "aim": 1, "fire-short": 1, "charge": 1, "run": 2, "fire-long": 2, "stand-ready": 2}
    want = set()
    for n in (1, 2, 3):
        for seq in permutations(cost, n):
            if sum(cost[s] for s in seq) > 3 or {"fire-short", "fire-long"} <= set(seq):
                continue
            if "stand-ready" in seq and n > 1:
                continue
            want.add(seq)
    got = plans.all_plans(RULES)
    assert {p.steps for p in got} == want
    assert [len([p for p in got if p.cost == c]) for c in (1, 2, 3)] == [4, 15, 38]


def test_wasted_aim_is_marked():
    """Take Aim! with no Fire! after it is marked as wasted; before a Short or Long Fire! it is not."""
    marks = {p.steps: p.wastes_aim for p in plans.all_plans(RULES)}
    assert marks[steps("aim")] and marks[steps("move", "aim")] and marks[steps("fire-short", "aim")]
    assert not marks[steps("aim", "fire-short")] and not marks[steps("aim", "fire-long")]
    assert not marks[steps("aim", "move", "fire-short")]


def test_fire_then_charge_needs_every_fired_weapon_assault():
    """Assault-only units may Fire! then Charge!; any non-Assault weapon fired closes it; Short Fire! leaves heavy ones out."""
    everything = plans.all_plans(RULES)
    fc = {p.steps for p in everything if p.fire_and_charge}
    assault = {p.steps for p in plans.for_unit(everything, [SHOTGUN], RULES)}
    rifles = {p.steps for p in plans.for_unit(everything, [RIFLE, SHOTGUN], RULES)}
    assert steps("fire-short", "charge") in assault and fc <= assault
    assert not (fc & rifles)
    # a heavy non-Assault weapon only fires with the Long Fire!: the Short Fire! may still precede a charge
    mixed = {p.steps for p in plans.for_unit(everything, [SHOTGUN, CANNON], RULES)}
    assert steps("fire-short", "charge") in mixed
    assert steps("fire-long", "charge") not in mixed and steps("charge", "fire-long") not in mixed
    # heavy and Assault: the Long Fire! may charge too
    both = {p.steps for p in plans.for_unit(everything, [Weapon(name="Rotary", tags=["heavy", "assault"])], RULES)}
    assert steps("fire-long", "charge") in both and steps("fire-short") not in both


def test_unit_without_weapons_has_no_fire():
    """A unit with no ranged weapon gets no Fire! plan, so every Take Aim! it could take is wasted."""
    mine = plans.for_unit(plans.all_plans(RULES), [], RULES)
    assert not any(s.startswith("fire") for p in mine for s in p.steps)
    assert all(p.wastes_aim for p in mine if "aim" in p.steps)


# --- scenario, deck, cards --------------------------------------------------------------


def test_deck_says_there_is_none(muster):
    """`muster deck` on a Para Bellum scenario exits 2 saying the system has no deck, rather than inventing one."""
    result = muster("deck", SCENARIOS / "vesta-relay.yaml")
    assert result.code == 2
    assert "para-bellum has no card deck" in result.err and result.out == ""


def test_example_has_hq_assault_only_and_heavy_units():
    """The example scenario holds an HQ, an assault-only unit and a heavy-weapon unit, as the issue asks."""
    scenario = load(SCENARIOS / "vesta-relay.yaml")
    units = [u for side in scenario.sides for u in side["units"]]
    assert any(u.hq and u.command_points for u in units)
    assert any(u.weapons and all("assault" in w.tags for w in u.weapons) for u in units)
    assert any("heavy" in w.tags for u in units for w in u.weapons)


def test_each_force_and_unit_card_carries_the_cores_side_view():
    """The pack's forces and the unit cards hold the core's SideView itself (briefing included), not copies of its fields."""
    scenario = load(SCENARIOS / "vesta-relay.yaml")
    prepared = SYSTEM.prepare(scenario, 1)
    assert len(prepared.forces) == len(scenario.side_views)
    assert all(force.side is view for force, view in zip(prepared.forces, scenario.side_views))
    fronts = [card for card in SYSTEM.cards(prepared, "poker") if "unit" in card]
    assert fronts and all(any(card["side"] is view for view in scenario.side_views) for card in fronts)


def _cards_at(scenario, size):
    """The system's cards laid out for a card size, as a build would."""
    return SYSTEM.cards(SYSTEM.prepare(scenario, 1), size)


def _worst_scenario():
    scenario = load(SCENARIOS / "vesta-relay.yaml")
    worst = Unit(
        name="Worst",
        models=1,
        movement=6,
        hq=True,
        command_points=20,
        stress=0,
        discipline=None,
        weapons=[Weapon(name=f"Weapon {i}", tags=["assault"]) for i in range(8)],
    )
    scenario.data["sides"][0]["units"].append(worst)
    return scenario


@pytest.mark.parametrize("size", ["poker", "mini", "tarot"])
def test_plan_lists_fit_their_cards(size):
    """At every size, every unit's plans are on its cards exactly once, no card holds more rows than its size
    allows, and no plan is wider than its column."""
    scenario = _worst_scenario()
    geometry = measure.for_size(size)
    printed: dict[str, list] = {}
    for card in _cards_at(scenario, size):
        if "items" not in card:
            continue
        assert card["fit"] is geometry
        unit = card["unit"]
        assert sum(cardfit.item_rows(item) for item in card["items"]) <= geometry.body_rows, (
            unit["name"],
            card["part"],
        )
        if card["part"] > 1:
            assert card["items"][0]["block"] == "legend"
        for g in card["groups"]:
            column = geometry.column_mm(g["cols"])
            for row in g["rows"]:
                assert len(row) <= g["cols"]
                for p in row:
                    assert measure.width_mm(p["abbr"] + p["mark"], geometry.text_pt) < column
                printed.setdefault(unit["name"], []).extend((g["points"], p["abbr"]) for p in row)
    for force in SYSTEM.prepare(scenario, 1).forces:
        for unit in force.units:
            every = [(g["points"], p["abbr"]) for g in unit["plans"] for p in g["plans"]]
            assert sorted(printed[unit["name"]]) == sorted(every)  # each plan once, none lost, none twice


def test_card_geometry_is_per_size():
    """Mini cards are narrower and shorter, so a unit needs more follow-on cards; tarot cards hold more rows in larger type."""
    scenario = load(SCENARIOS / "vesta-relay.yaml")
    mini, poker, tarot = measure.for_size("mini"), measure.for_size("poker"), measure.for_size("tarot")
    assert mini.inner_mm < poker.inner_mm < tarot.inner_mm and mini.body_rows < poker.body_rows < tarot.body_rows
    assert tarot.text_pt > poker.text_pt == mini.text_pt == 7.0  # the print floor
    assert mini.track == "down" and poker.track == "across"

    def parts(size):
        counts: dict[str, int] = {}
        for card in _cards_at(scenario, size):
            if "items" in card:
                counts[card["unit"]["name"]] = card["parts"]
        return counts

    at_mini, at_poker, at_tarot = parts("mini"), parts("poker"), parts("tarot")
    assert at_mini.keys() == at_poker.keys() == at_tarot.keys()
    for name in at_poker:
        assert at_mini[name] > at_poker[name] >= at_tarot[name], name


def test_wrapped_text_is_measured_into_rows():
    """Long stats, weapon and Fire!/Charge! text takes more rows on a mini card; a split plan group never leaves a lone row."""
    unit = {
        "models": 100,
        "movement": 48,
        "run": 96,
        "discipline": 6,
        "hq": True,
        "command_points": 20,
        "weapons": [{"name": "A very long weapon name indeed", "tag_text": "heavy, assault"}],
        "fire_charge": "Fires non-Assault weapons: no Charge! in an activation with Fire!.",
        "track": {"faces": "1\u20135 \u00b7 6", "levels": [{}] * 5},
    }
    rows = {
        size: {b["block"]: b["rows"] for b in cardfit.unit_blocks(unit, measure.for_size(size))}
        for size in ("mini", "poker")
    }
    assert rows["mini"]["stats"] == 2 and rows["poker"]["stats"] == 1
    assert rows["mini"]["weapon"] == 2 and rows["mini"]["fc"] == 3 and rows["poker"]["fc"] == 2
    assert rows["mini"]["track"] == 6 + 1 + 1 and rows["poker"]["track"] == 3 + 1 + 1
    plans_ = [{"abbr": "Charge\u00b7Move\u00b7Aim", "mark": " \u2020"}] * 20
    for first in range(0, 16):
        cards = cardfit.paginate(
            [{"block": "stats", "rows": first}], [{"points": 3, "plans": plans_}], measure.for_size("mini")
        )
        pieces = [len(i["rows"]) for c in cards for i in c if i["block"] == "plans"]
        assert sum(pieces) == 20 and min(pieces) >= 2, (first, pieces)


def test_six_action_cards_with_costs():
    """The cards PDF data holds one card for each of the six actions, Fire! with both its costs."""
    scenario = load(SCENARIOS / "vesta-relay.yaml")
    actions = [c for c in _cards_at(scenario, "poker") if c["kind"] == "pb-action"]
    assert [c["name"] for c in actions] == ["Move!", "Take Aim!", "Fire!", "Charge!", "Run!", "Stand Ready!"]
    fire = next(c for c in actions if c["name"] == "Fire!")
    assert [f["cost"] for f in fire["forms"]] == [1, 2]


def test_every_interpretation_has_a_note():
    """The reference prints a note for the clamp, Stand Ready!, Fire!, Fire!/Charge!, orders, the deck and the variant."""
    rules = {n["rule"] for n in SYSTEM.reference()["notes"]}
    for name in (
        "Action points from 0 to 3",
        "Stand Ready!",
        "Fire!",
        "Fire! and Charge!",
        "Take Action!",
        "No card deck",
        "Discipline test (comment variant)",
        "Stress",
    ):
        assert name in rules


def test_example_builds_pack_and_cards(built):
    """The example builds both PDFs on A4; the cards PDF is whole sheets and the pack prints the plan reference."""
    pack, cards = built("vesta-relay")
    sheet = PdfReader(cards)
    assert len(sheet.pages) % 2 == 0
    box = sheet.pages[0].mediabox
    assert round(float(box.width) * 25.4 / 72) == 210 and round(float(box.height) * 25.4 / 72) == 297
    text = "".join(page.extract_text() for page in PdfReader(pack).pages)
    assert "Action plans" in text and "38 plans" in text and "Quick reference" in text
