"""Para Bellum: exact action-point odds checked a second way, plans against the seed's examples, the JSON contract, cards that fit."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import permutations
from math import factorial

import icepool
import pdfplumber
import pytest
from conftest import SCENARIOS, examples_by_system
from pypdf import PdfReader

from generator.build import Options, load
from generator.systems import get
from generator.systems.parabellum import cards as cards_module
from generator.systems.parabellum import odds, pack, plans, roster
from generator.systems.parabellum.units import Weapon

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


PARA_BELLUM = examples_by_system()["para-bellum"]
SIZES = list(SYSTEM.card_sizes)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", PARA_BELLUM)
def test_one_card_per_unit(name, size):
    """Every example at every card size prints exactly one card for each unit (an HQ's Command Points on it),
    not a card and follow-on cards of plans, nor a separate Command Point card."""
    scenario = load(SCENARIOS / f"{name}.yaml")
    units = [(side["name"], unit.name) for side in scenario.sides for unit in side["units"]]
    fronts = _cards_at(scenario, size)
    unit_fronts = [(card["side"].name, card["unit"]["name"]) for card in fronts if "unit" in card]
    assert sorted(unit_fronts) == sorted(units)
    hqs = [card for card in fronts if card.get("unit", {}).get("hq")]
    assert hqs and all(len(card["command"]["boxes"]) == card["unit"]["command_points"] for card in hqs)
    assert len(fronts) == len(units) + len({action.action for action in RULES.actions})


def test_unit_cards_say_which_actions_are_open_and_which_combinations_are_not():
    """A unit's card names the actions its weapons open, in words (no shorthand), and its Fire!/Charge! limit
    with the weapons that set it: none for an unarmed unit, only the Short Fire! where a heavy weapon is not Assault."""
    scenario = load(SCENARIOS / "vesta-relay.yaml")
    cards = {card["unit"]["name"]: card for card in _cards_at(scenario, "poker") if "unit" in card}
    short, long_ = (kind["actions"] for kind in cards["Picket Section"]["kinds"])
    assert short == ["Move!", "Take Aim!", "Fire! (not heavy)", "Charge!"]
    assert long_ == ["Run!", "Fire! (all weapons)", "Stand Ready!"]
    assert cards["Picket Section"]["rules"][-1] == (
        "No Fire! and Charge! together (Rifles and Grenade launcher: not Assault)."
    )
    assert cards["Shock Troops"]["rules"][-1] == "May Fire! and Charge! together (every weapon is Assault)."
    assert cards["Mortar Team"]["rules"][-1] == (
        # a fifth fresh read: 'Fire! (Long) (Light mortar: not Assault)' stacked two brackets
        "May Fire! (Short) and Charge! together, not Fire! (Long): Light mortar is not Assault."
    )
    assert any("Stand Ready! alone" in line for line in cards["Picket Section"]["rules"])
    actions = roster.unit_actions(RULES, [], plans.for_unit(plans.all_plans(RULES), [], RULES))
    assert actions["unit"] == "No ranged weapons: no Fire!; Charge! is always open."
    assert all("Fire!" not in name for kind in actions["kinds"] for name in kind["actions"])
    heavy_only = [CANNON]
    actions = roster.unit_actions(RULES, heavy_only, plans.for_unit(plans.all_plans(RULES), heavy_only, RULES))
    assert [kind["actions"] for kind in actions["kinds"]][0] == ["Move!", "Take Aim!", "Charge!"]


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
        "Discipline test (a reader’s variant)",
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
    assert "Action plans" in text and "Move! + Take Aim! + Fire! (Short)" in text and "Quick reference" in text


# --- the plan table, the pack's words, the printed cards -----------------------------------


def test_plan_table_holds_every_useful_plan_once():
    """The pack's plan table has one row per set of actions at each cost: every plan that does not waste Take Aim!
    is an order of exactly one row, a row 'in any order' stands for all n! orders, and each 'before' halves them."""
    every = plans.all_plans(RULES)
    names = {roster.form_name(RULES, action): action.id for action in RULES.actions}
    useful = [plan for plan in every if not plan.wastes_aim]
    seen = set()
    table = pack.plan_table(RULES, every)
    assert [group["points"] for group in table] == [1, 2, 3]
    for group in table:
        for row in group["rows"]:
            steps = frozenset(names[name] for name in row["actions"])
            key = (group["points"], steps)
            assert key not in seen, key
            seen.add(key)
            orders = [plan for plan in useful if plan.cost == group["points"] and frozenset(plan.steps) == steps]
            before = sum(" before " in when for when in row["when"])
            assert len(orders) == factorial(len(steps)) // 2**before, row
    assert {(plan.cost, frozenset(plan.steps)) for plan in useful} == seen
    assert sum(len(group["rows"]) for group in table) <= 20  # compact: 57 plans in 18 rows


@pytest.mark.parametrize("name", PARA_BELLUM)
def test_pack_prints_one_plan_table_in_player_words(name, built):
    """The pack holds the action plans as one table in full words (no card shorthand like 'Move·RUN', no † marks,
    no counts of plans per unit), and no programmer's words: no 'no action 0%', 'rule data', 'Muster reads',
    'Encoded by', 'avg' or a rules.yaml key."""
    from generator.build import choose_seed, compute, render_html

    scenario = load(SCENARIOS / f"{name}.yaml")
    pack_data, sheet = compute(scenario, choose_seed(scenario, None), Options())
    html, _ = render_html(scenario, pack_data, sheet)
    assert html.count('class="pb-plan-table"') == 1
    with pdfplumber.open(built(name)[0]) as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    assert "Action plans" in text and "Move! + Charge!" in text and "Take Aim! before Fire!" in text
    flat = " ".join(text.split())
    for wrong in ("\u00b7RUN", "\u00b7FIRE", "READY", "\u2020", "\u2021", "Legal plans"):
        assert wrong not in flat, wrong
    assert not re.search(r"\d+ plans", flat)
    for wrong in ("no action 0%", "rule data", "Encoded by", "avg", " CP"):
        assert wrong not in flat, wrong
    assert not re.search(r"Muster (allows|assumes|reads|prints|lists|applies|still)", flat), flat
    assert not re.search(r"\b(command_points|fire_and_charge|bonus_for|fires_except|action_points|per_point)\b", flat)


# the least distance (mm) from a character to its card's edge: a cut half a millimetre off keeps every letter
SAFE_MM = 1.5


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", PARA_BELLUM)
def test_card_text_stays_inside_the_trim(name, size, tmp_path):
    """Read back from the PDF at every size: every character lies inside its card at least SAFE_MM from the trim
    (text that overflows a card, clipped or not, fails), and each unit's name is on exactly one card."""
    from pdfcheck import build_cards_only

    from generator.cards import CARD_SIZES

    width, height = CARD_SIZES[size]
    pdf_path = build_cards_only(SCENARIOS / f"{name}.yaml", size, tmp_path / "cards.pdf")
    scenario = load(SCENARIOS / f"{name}.yaml")
    names = {unit.name: 0 for side in scenario.sides for unit in side["units"]}
    mm = 72 / 25.4
    with pdfplumber.open(pdf_path) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            # a card's box and its trim box are both filled: one card per position
            cards = {
                (round(r["x0"]), round(r["top"])): r
                for r in page.rects
                if r.get("fill") and abs(r["width"] / mm - width) < 0.3 and abs(r["height"] / mm - height) < 0.3
            }.values()
            assert cards, f"no card on page {number}"
            inset = SAFE_MM * mm
            for ch in page.chars:
                assert any(
                    c["x0"] + inset <= ch["x0"]
                    and ch["x1"] <= c["x1"] - inset
                    and c["top"] + inset <= ch["top"]
                    and ch["bottom"] <= c["bottom"] - inset
                    for c in cards
                ), (number, ch["text"], round(ch["x0"] / mm, 1), round(ch["top"] / mm, 1))
            for c in cards:
                words = " ".join((page.crop((c["x0"], c["top"], c["x1"], c["bottom"])).extract_text() or "").split())
                for unit in names:
                    names[unit] += unit in words
    assert names == {unit: 1 for unit in names}


@pytest.mark.parametrize("name", PARA_BELLUM)
def test_pack_and_card_print_the_same_stress_track(name):
    """A unit's Stress in the pack is the track its card prints: a box for every level with the level's label
    (0, 1, ... '4+'), the starting level marked, not a bare number and an unlabelled row of boxes of another count."""
    from html.parser import HTMLParser

    from generator.build import choose_seed, compute, render_html

    scenario = load(SCENARIOS / f"{name}.yaml")
    pack_data, sheet = compute(scenario, choose_seed(scenario, None), Options())
    html, _ = render_html(scenario, pack_data, sheet)

    class Cells(HTMLParser):
        """Each stress cell of the pack's unit tables, as its levels: (label, boxes, starting?)."""

        def __init__(self):
            super().__init__()
            self.cells, self.level = [], None

        def handle_starttag(self, tag, attrs):
            classes = (dict(attrs).get("class") or "").split()
            if "pb-stress" in classes:
                self.cells.append([])
            elif "pb-level" in classes:
                self.level = ["", 0, "start" in classes]
                self.cells[-1].append(self.level)
            elif "box" in classes and self.level is not None:
                self.level[1] += 1

        def handle_data(self, data):
            if self.level is not None:
                self.level[0] += data.strip()

        def handle_endtag(self, tag):
            if tag == "td":
                self.level = None

    parser = Cells()
    parser.feed(html)
    units = [unit for card in _cards_at(scenario, "poker") if "unit" in card for unit in [card["unit"]]]
    assert len(parser.cells) == len(units)
    for cell, unit in zip(parser.cells, units):
        track = [(level["label"], 1, level["start"]) for level in unit["track"]["levels"]]
        assert [tuple(level) for level in cell] == track, unit["name"]
        assert [label for label, _, start in track if start] == [str(unit["stress"])]


def test_order_table_prints_levels_as_the_action_point_table_does():
    """The order-value table prints a Discipline as the score it needs ('4+') and its last Stress level as '4+',
    as the action-point table beside it does, while the JSON keeps the plain numbers."""
    from generator.rendering import cell_text

    scenario = load(SCENARIOS / "vesta-relay-discipline.yaml")
    prepared = SYSTEM.prepare(scenario, 1)
    blocks = {block["discipline"]: block["rows"] for block in pack.ap_blocks(RULES, prepared)}
    table = pack.order_table(RULES, prepared)
    discipline, stress = table.columns[0], table.columns[1]
    assert (discipline.key, stress.key) == ("discipline", "stress")
    for row in table.rows:
        assert cell_text(discipline, row["discipline"], row=row) == f"{row['discipline']}+"
        label = next(r["label"] for r in blocks[row["discipline"]] if r["stress"] == row["stress"])
        assert cell_text(stress, row["stress"], row=row) == label
    assert any(label.endswith("+") for label in (cell_text(stress, r["stress"], row=r) for r in table.rows))
    json_rows = table.to_json()["rows"]
    assert all(isinstance(r["discipline"], int) and isinstance(r["stress"], int) for r in json_rows)
    assert all("stress_label" not in r for r in json_rows)


def test_an_action_card_says_each_rule_once():
    """Issue 11 (a fresh read of the Vesta cards): the Take Aim! card said twice that its bonus is lost without a
    later Fire!, once in the rule data's words and once in a line of ours. Each card says it once."""
    cards = {card["name"]: card for card in cards_module.action_cards(RULES)}
    aim = cards["Take Aim!"]
    text = " ".join([form["rule"] for form in aim["forms"]] + aim["extra"])
    assert text.count("bonus is lost") == 1
    for card in cards.values():
        sentences = [form["rule"] for form in card["forms"]] + card["extra"]
        assert len(sentences) == len(set(sentences)), card["name"]


def test_a_mini_card_says_plainly_that_every_action_is_open():
    """Issue 11 (two fresh reads of the Letter mini cards): a unit open to every action had its list cut from the
    mini card with the words "Actions every one is open to it". It said "all open to this unit", then "all open; in
    one activation:" (read as a misprint), then "any card; in one activation:" (read as unclear), and now "Actions
    any action card, once each" over what may not go together."""
    from generator.build import choose_seed, compute, render_html

    scenario = load(SCENARIOS / "vesta-relay.yaml")
    pack, sheet = compute(scenario, choose_seed(scenario, None), Options(card_size="mini"))
    html = render_html(scenario, pack, sheet)[1]
    assert "every one is open to it" not in html and "any card; in one activation:" not in html
    assert '<div class="pb-head">Actions <span class="pb-open">any action card, once each</span></div>' in html


def test_a_mini_cards_open_actions_lead_into_what_goes_together_and_its_stress_headings_stand_over_their_figures(
    built,
):
    """Issue 11 (a fifth fresh read of the mini cards): 'Actions all open to this unit' stood over 'No Fire! and
    Charge! together', which read as taking back what it gave; and the stress track's 'No order' and 'Order'
    headings sat at the left of centred figures. Read from the mini card PDF: the heading leads into the line
    ('any action card, once each'), and each heading's centre lies within half a millimetre of the
    centre of the figures under it."""
    _, cards = built("vesta-relay", "--cards", "mini")
    with pdfplumber.open(cards) as pdf:
        page = pdf.pages[0]
        text = " ".join((page.extract_text() or "").split())
        assert "Actions any action card, once each • No Fire! and Charge! together" in text
        words = page.extract_words()
    card = [
        w for w in words if w["x1"] < words[0]["x0"] + 45 * 72 / 25.4 and w["top"] < 70 * 72 / 25.4 + words[0]["top"]
    ]
    heads = [(w["x0"], a["x1"]) for w, a in zip(card, card[1:]) if (w["text"], a["text"]) == ("No", "order")][:1]
    order = next(w for w in card if w["text"] == "Order")
    heads.append((order["x0"], order["x1"]))
    first = next(w for w in card if w["text"] == "1\u00b72\u00b73")  # stress 0 without an order
    second = next(w for w in card if w["text"] == "2\u00b73\u00b73" and abs(w["top"] - first["top"]) < 1)
    for (left, right), figure in zip(heads, (first, second)):
        assert abs((left + right) / 2 - (figure["x0"] + figure["x1"]) / 2) < 0.5 * 72 / 25.4, figure["text"]


def test_every_odds_columns_heading_stands_over_its_figures(built):
    """Issue 11 (a third fresh read): in "What a Take Action! order buys" the figures were set right and their
    headings left, so "0.83" read as part of the next column's "never". Read from the PDF: each heading of a column
    of figures ends where its figures end."""
    import pdfplumber

    pack, _ = built("vesta-relay")
    with pdfplumber.open(pack) as pdf:
        page = next(p for p in pdf.pages if "What a Take Action! order buys" in (p.extract_text() or ""))
        words = page.extract_words()
    title = next(w for w in words if w["text"] == "buys" and w["top"] > 0)
    table_top = title["bottom"]
    for heading in ("no order", "ordered", "buys"):
        last = heading.split()[-1]
        header = next(w for w in words if w["text"] == last and w["top"] > table_top)
        below = [
            w
            for w in words
            if w["top"] > header["bottom"]
            and w["top"] < header["bottom"] + 60
            and abs(w["x1"] - header["x1"]) < 20
            and w["text"].replace(".", "").replace("−", "").replace("-", "").isdigit()
        ]
        assert below, heading
        assert all(abs(w["x1"] - header["x1"]) < 1.0 for w in below), (heading, header["x1"], [w["x1"] for w in below])


def test_the_odds_part_says_which_roll_its_tables_count_from_the_rule_data():
    """Issue 11 (a fresh read): the Discipline variant's Odds part opened with the standard roll's words ("the six
    faces of the D6, less a point per Stress") over tables of the Discipline test. The lead is now made from the
    rule data: the D6, or the test with its points where the variant is played; changed rule data changes it."""
    from dataclasses import replace

    standard, discipline = (load(SCENARIOS / f"{name}.yaml") for name in ("vesta-relay", "vesta-relay-discipline"))
    rules = standard.system.rules
    prepared = {id(s): s.system.prepare(s, 1) for s in (standard, discipline)}

    def lead(scenario, rules=rules) -> str:
        return pack.odds_lead(rules, prepared[id(scenario)])

    assert lead(standard) == (
        "Exact chances over the 6 faces of the D6, less 1 point per Stress, plus 1 for a Take Action! order, kept "
        "between 0 and 3 points."
    )
    assert lead(discipline) == (
        "Exact chances over the 6 faces of the Discipline test's D6 (1 point below the unit's Discipline, "
        "2 at or above it, 3 on a natural 6), less 1 point per Stress, plus 1 for a Take Action! order, kept "
        "between 0 and 3 points. One table for each Discipline these forces have."
    )
    house = replace(
        rules,
        variants=replace(rules.variants, discipline=replace(rules.variants.discipline, failure=0, perfect_natural=5)),
        order=replace(rules.order, bonus=2),
    )
    assert "(0 points below the unit's Discipline, 2 at or above it, 3 on a natural 5)" in lead(discipline, house)
    assert "plus 2 for a Take Action! order" in lead(standard, house)


@pytest.mark.parametrize("name", examples_by_system()["para-bellum"])
def test_a_units_average_action_points_print_alike_with_and_without_an_order(name):
    """Issue 11 (consistency): a unit's line said '2 action points on average, 2.83 with a Take Action! order',
    then '1 ... 2' for another unit beside others' '2.00'. Every average prints to two decimals, as the odds
    table's columns do."""
    from generator.build import Parts, choose_seed, compute, pack_html

    scenario = load(SCENARIOS / f"{name}.yaml")
    built, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    text = re.sub(r"<[^>]+>", "", pack_html(scenario, built, Parts.of("forces")))
    pairs = re.findall(r"gets ([\d.]+) action points? on average, ([\d.]+) with", text)
    assert len(pairs) == text.count("action points on average"), "every unit says its average action points"
    assert [(a, b) for a, b in pairs if not re.fullmatch(r"\d\.\d\d", a) or not re.fullmatch(r"\d\.\d\d", b)] == []


@pytest.mark.parametrize("name", examples_by_system()["para-bellum"])
def test_the_odds_say_what_their_columns_mean_once(name):
    """A fresh read of the Discipline variant's odds page: the same note on "none" and "average" printed under
    each of its three tables, three times in a row. It prints once, over the tables."""
    from generator.build import Parts, choose_seed, compute, pack_html

    scenario = load(SCENARIOS / f"{name}.yaml")
    built, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    text = re.sub(r"<[^>]+>", "", pack_html(scenario, built, Parts.of("odds")))
    assert text.count("is the chance of no action at all") == 1
    assert text.index("is the chance of no action at all") < text.index("Action points by Stress")


def test_a_weapon_tag_prints_one_way_on_rosters_cards_and_the_reference(built):
    """Issue 11 (a fifth fresh read): Vesta's rosters printed '(assault)', the rules' text 'Assault' and the cards a
    boxed 'ASSAULT'. A tag names a special rule ('the Assault Special Rule'): read from both PDFs, it prints as
    'Assault' and 'Heavy' everywhere (the reference's tag table too), never in lower case or in capitals."""
    from pypdf import PdfReader

    pack, cards = built("vesta-relay")
    text = "\n".join(page.extract_text() for path in (pack, cards) for page in PdfReader(path).pages)
    assert "Sidearms (Assault)" in text and "Light mortar (Heavy)" in text and "Rotary cannon (Heavy, Assault)" in text
    assert re.search(r"^Heavy Fired only when", text, re.M), "the reference's tag table"
    assert re.search(r"Sidearms\s*Assault", text), "the card's boxed tag"
    assert not re.search(
        r"\((heavy|assault)|, (heavy|assault)\)|ASSAULT|HEAVY|^(heavy|assault) (Fired|A unit)", text, re.M
    )


def test_no_line_of_a_mini_unit_card_opens_with_a_separator(built):
    """Issue 11 (a fresh read of the mini cards): the stats line "4 models · Move 6″ · Run 12″ · Discipline 3+"
    wrapped before its last dot, so a line opened with a stray "· Discipline 3+". Read from the PDF: no line of
    any card opens with a separator; the wrapped figure still prints."""
    _, cards = built("vesta-relay-discipline", "--cards", "mini")
    with pdfplumber.open(cards) as pdf:
        lines = [line for page in pdf.pages for line in (page.extract_text() or "").splitlines()]
    assert [line for line in lines if line.lstrip().startswith("\u00b7")] == []
    assert any(line.startswith("Discipline 3+") for line in lines)


def test_an_hqs_roster_line_prints_its_command_points_as_boxes_to_strike_off():
    """Issue 11 (a fresh read of the booklet, which prints rosters and no cards): the rule note says an HQ's
    Command Points print as boxes to strike off, but the roster said only "HQ · 3 Command Points". The roster
    line prints a box for each point, as the card does."""
    from generator.build import choose_seed, compute, pack_html

    scenario = load(SCENARIOS / "vesta-relay.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    html = pack_html(scenario, pack)
    heads = re.findall(r'<span class="pb-hq">(.*?)</span></h3>', html, flags=re.S)
    # the example's two HQs: Command Section with 3 Command Points, Raid Leader with 2
    assert len(heads) == 2, heads
    for head, count in zip(heads, (3, 2)):
        assert head.count('<span class="box"></span>') == count, head
        assert "Command Points" in head


def test_the_activation_note_leaves_open_only_what_the_rule_does_not_say():
    """Issue 11 (stop 40's reads): the rule "Players alternate activations" printed beside the note "This pack gives
    no activation order". The original rules give the alternation and leave open who activates first and what a
    player out of units does; the note names those two, and says the pack settles neither."""
    activation = SYSTEM.rules_filled.data["activation"]
    assert activation["rule"].startswith("Players alternate activations")
    note = " ".join(activation["note"].split())
    assert "no activation order" not in note
    assert "who activates first" in note and "runs out of units" in note and "settle either" in note
