"""Morschauser Modern: odds checked against a second computation, schedules against the ordering rule, the JSON contracts."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import product

import icepool
import pytest
from conftest import SCENARIOS
from pypdf import PdfReader

SYSTEM = "morschauser-modern"
EXAMPLES = ["weissach-bridge", "hill-112"]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]  # seed 004: Ace low ... King
SUITS = ["H", "C", "D", "S"]  # seed 004: Hearts, Clubs, Diamonds, Spades
CARD = re.compile(r"^(A|[2-9]|10|J|Q|K)[HCDS]$")
OUTCOMES = ("win_destroy", "win_retreat", "draw", "lose_retreat", "lose_destroyed")

# The scatter schemes as the seed and the comments word them, written out here by hand (not read
# from rules.yaml), so the odds are checked against the text rather than against themselves.
SCATTER = {
    None: {5: "target", 6: "target", 1: "left", 2: "beyond", 3: "right", 4: "before"},
    "clock-face-scatter": {1: "beyond", 2: "right", 3: "before", 4: "left", 5: "target", 6: "target"},
    "centric-scatter": {1: "before", 2: "left", 3: "target", 4: "target", 5: "right", 6: "beyond"},
}


def frac(text: str) -> Fraction:
    num, den = text.split("/")
    return Fraction(int(num), int(den))


def odds_json(muster, *variants):
    args = ["odds", SYSTEM, "--json"]
    for v in variants:
        args += ["--variant", v]
    result = muster(*args)
    assert result.code == 0, result.err
    return {t["id"]: t for t in result.json()["tables"]}


def icepool_battle(attacker: int, defender: int) -> dict[str, Fraction]:
    """The battle rule restated for icepool: both D6 + power, equal draws, the winner's 6 destroys."""

    def outcome(a, d):
        if a + attacker == d + defender:
            return "draw"
        if a + attacker > d + defender:
            return "win_destroy" if a == 6 else "win_retreat"
        return "lose_destroyed" if d == 6 else "lose_retreat"

    die = icepool.map(outcome, icepool.d6, icepool.d6)
    return {k: Fraction(die.probability(k)) for k in OUTCOMES}


def test_battle_table_matches_icepool_for_every_pair_of_powers(muster):
    """Every attacker/defender row of `battle` equals icepool's count of the same rule, exactly."""
    table = odds_json(muster)["battle"]
    powers = sorted({r["attacker"] for r in table["rows"]})
    # Battle Power runs from the floor of 1 to AFV 7 + fortifications 2 + enemy below 1 = 10
    assert powers == list(range(1, 11))
    assert len(table["rows"]) == 100
    for row in table["rows"]:
        want = icepool_battle(row["attacker"], row["defender"])
        got = {k: frac(row[k]) for k in OUTCOMES}
        assert got == want, (row["attacker"], row["defender"])
        assert sum(got.values()) == 1
        assert abs(row["draw_float"] - float(got["draw"])) < 1e-6


def test_battle_by_difference_agrees_with_the_full_table(muster):
    """The compact table printed in the pack is the full table's row for every pair with that difference."""
    tables = odds_json(muster)
    by_diff = {r["difference"]: r for r in tables["battle_by_difference"]["rows"]}
    for row in tables["battle"]["rows"]:
        compact = by_diff[row["attacker"] - row["defender"]]
        assert all(compact[k] == row[k] for k in OUTCOMES)


def test_equal_powers_give_the_known_battle_odds(muster):
    """Equal Battle Powers: a draw is 6/36 and a win by a 6 is 5/36, counted by hand from the seed."""
    row = next(r for r in odds_json(muster)["battle"]["rows"] if r["attacker"] == r["defender"] == 5)
    assert row["draw"] == "1/6"
    assert row["win_destroy"] == "5/36"
    assert row["win_retreat"] == "5/18"


@pytest.mark.parametrize("variant", list(SCATTER))
def test_artillery_landing_and_kill_match_brute_force(muster, variant):
    """Where a shot lands and the chance to destroy the target equal an enumeration of both dice, per scatter."""
    rows = odds_json(muster, *([variant] if variant else []))["artillery"]["rows"]
    assert {(r["weapon"], r["fire"]) for r in rows} == {
        (w, f) for w in ("artillery", "afv-or-at") for f in ("direct", "indirect")
    }
    faces = SCATTER[variant]
    for row in rows:
        kills = {5, 6} if row["fire"] == "direct" else {6}
        misses = row["weapon"] == "afv-or-at"
        spots: dict[str, int] = {}
        destroyed = 0
        for scatter, effect in product(range(1, 7), repeat=2):
            where = faces[scatter]
            if misses and where != "target":
                where = "miss"
            spots[where] = spots.get(where, 0) + 1
            destroyed += where == "target" and effect in kills
        for spot in ("target", "left", "beyond", "right", "before", "miss"):
            assert frac(row[f"lands_{spot}"]) == Fraction(spots.get(spot, 0), 36), (variant, row["weapon"], spot)
        assert frac(row["destroy_target"]) == Fraction(destroyed, 36)


def test_artillery_kill_chances_are_the_seeds(muster):
    """Direct fire destroys the target 1/3 x 1/3 = 1/9 of the time, indirect 1/3 x 1/6 = 1/18."""
    rows = {(r["weapon"], r["fire"]): r for r in odds_json(muster)["artillery"]["rows"]}
    assert rows[("artillery", "direct")]["destroy_target"] == "1/9"
    assert rows[("artillery", "indirect")]["destroy_target"] == "1/18"
    assert rows[("afv-or-at", "direct")]["lands_miss"] == "2/3"


def test_a_scatter_variant_changes_the_odds_json(muster):
    """--variant clock-face-scatter is named in the JSON and moves a 1 from left to beyond."""
    result = muster("odds", SYSTEM, "--json", "--variant", "clock-face-scatter")
    assert result.json()["variants"] == ["clock-face-scatter"]
    art = next(t for t in result.json()["tables"] if t["id"] == "artillery")
    assert art["scatter"] == "clock-face"


def test_an_unknown_variant_is_a_usage_error(muster):
    """A misspelt variant exits 2 and suggests the close name."""
    result = muster("odds", SYSTEM, "--variant", "clockface-scatter")
    assert result.code == 2
    assert "did you mean 'clock-face-scatter'" in result.err


def card_key(card: str) -> tuple[int, int]:
    return (RANKS.index(card[:-1]), SUITS.index(card[-1]))


@pytest.mark.parametrize("name", EXAMPLES)
def test_schedule_follows_the_ordering_rule(muster, name):
    """Every turn deals each unit one distinct tile and orders them Ace to King, then Hearts, Clubs, Diamonds, Spades."""
    result = muster("deck", SCENARIOS / f"{name}.yaml", "--json")
    assert result.code == 0, result.err
    deck = result.json()
    text = (SCENARIOS / f"{name}.yaml").read_text()
    turns = int(re.search(r"^turns: (\d+)", text, re.M).group(1))
    assert len(deck["turns"]) == turns
    units = None
    for turn in deck["turns"]:
        draws = turn["draws"]
        cards = [d["card"] for d in draws]
        assert all(CARD.match(c) for c in cards), cards
        assert len(set(cards)) == len(cards)
        keys = [card_key(c) for c in cards]
        assert keys == sorted(keys)
        these = sorted((d["side"], d["unit"]) for d in draws)
        assert units is None or these == units  # every unit, once, every turn
        units = these


def test_deck_json_contract_and_seed(muster):
    """`deck --json` gives seed and turns of draws with unit and card; the same seed repeats, another differs."""
    path = SCENARIOS / "weissach-bridge.yaml"
    first = muster("deck", path, "--json", "--seed", "7").json()
    again = muster("deck", path, "--json", "--seed", "7").json()
    other = muster("deck", path, "--json", "--seed", "8").json()
    assert first["seed"] == 7
    assert set(first["turns"][0]["draws"][0]) >= {"unit", "card"}
    assert first == again
    assert first["turns"] != other["turns"]
    assert len(muster("deck", path, "--json", "--passes", "2").json()["turns"]) == 2


def test_turns_draw_independently_from_one_seed(muster):
    """Each turn is its own shuffle: turn 1 and turn 2 of one seed differ."""
    deck = muster("deck", SCENARIOS / "hill-112.yaml", "--json").json()
    assert deck["turns"][0]["draws"] != deck["turns"][1]["draws"]


def test_a_variant_changes_validation_too(muster, tmp_path):
    """Heavy artillery in a wood is fine as written, refused under woods-cost-movement."""
    base = (
        (SCENARIOS / "weissach-bridge.yaml")
        .read_text()
        .replace("at: K2, facing: west, name: Heavy battery", "at: B1, facing: west, name: Heavy battery")
    )
    plain = tmp_path / "plain.yaml"
    plain.write_text(base)
    assert muster("validate", plain).code == 0
    variant = tmp_path / "variant.yaml"
    variant.write_text(base.replace("turns: 8\n", "turns: 8\nvariants: [woods-cost-movement]\n"))
    result = muster("validate", variant)
    assert result.code == 1
    assert "cannot be in woods square B1" in result.err


def test_examples_build_a_pack_and_unit_cards(built):
    """Both examples build: the pack has its parts and the card PDF has a front and back sheet per nine units."""
    for name, units in (("weissach-bridge", 19),):
        pack, cards = built(name)
        text = "".join(p.extract_text() for p in PdfReader(pack).pages)
        for part in ("The battlefield", "Forces", "Umpire’s tile schedule", "Odds", "Quick reference", "Bridge"):
            assert part in text
        assert len(PdfReader(cards).pages) == 2 * -(-units // 9)


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_tiles_are_the_umpires_on_a_sheet_of_their_own(built, name):
    """Issue 14: the original rules place each unit's tile face down and turn the tiles over only after the
    Artillery Fire Phase, so whether to fire artillery (losing the tile and the move) is decided blind; the pack
    printed every turn's tiles on every roster line for all to read. Read from the PDF: no page before the odds
    (cover, map, rosters) shows a playing card; the schedule starts a page of its own, holds its pages alone to the
    pack's end, and tells the umpire on every one of them to uncover a turn only after its Artillery Fire Phase;
    the cover says the tiles lie face down, and the reference's note says why the rosters print none."""
    pack, _ = built(name)
    pages = [page.extract_text() for page in PdfReader(pack).pages]
    schedule = [i for i, text in enumerate(pages) if "Umpire’s tile schedule" in text]
    assert schedule and schedule == list(range(schedule[0], len(pages))), schedule
    assert pages[schedule[0]].startswith("Umpire’s tile schedule\n"), pages[schedule[0]][:80]
    forces = next(i for i, text in enumerate(pages) if text.startswith("Forces\n"))
    odds = next(i for i, text in enumerate(pages) if text.startswith("Odds\n"))
    assert forces < odds
    assert [i for i in range(odds) if set(pages[i]) & set("♥♣♦♠")] == [], "a tile printed before the schedule"
    lead = " ".join(pages[schedule[0]].split())
    assert "For the umpire, or for solo play: take these pages out of the pack and keep them from the players." in lead
    # (a fresh read: the cover said "printed on its own sheet" of a schedule two pages long, and its deck number
    # "sets the order the cards come up in" in a game of tiles)
    assert all("Uncover a turn only after its Artillery Fire Phase." in pages[i] for i in schedule)
    whole = " ".join(" ".join(pages).split())
    assert "face down until the Artillery Fire Phase is over" in whole and "its own sheet" not in whole
    assert "the cards come up" not in whole and "This number sets the umpire’s tile schedule" in whole
    assert "this pack prints no tile on the rosters or the unit cards" in whole


def test_letter_paper_build(built):
    """--paper letter gives Letter pages (612 x 792 pt) for the hill scenario."""
    pack, cards = built("hill-112", "--paper", "letter")
    page = PdfReader(pack).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)
    assert len(PdfReader(cards).pages) == 2 * 3  # 24 units: three sheets of nine, each with its backs


def test_a_tank_or_anti_tank_cards_fire_line_does_not_forbid_firing_at_trenches():
    """Issue 11 (a second fresh read of Hill 112's cards): AFV and anti-tank cards said "never indirectly" while
    the quick reference says fire at a unit in fortifications is indirect, so the Wessex tanks read as never
    firing at the trenches the briefing tells them to shell. The card says what the rule data's note means: only
    at a unit it can see (the indirect effect for a seen unit in cover is in the odds table)."""
    from generator.build import load

    scenario = load(SCENARIOS / "hill-112.yaml")
    prepared = scenario.system.prepare(scenario, 112)
    fronts = scenario.system.cards(prepared, "poker")
    direct = [card for card in fronts if card.get("fires") and not card.get("indirect")]
    assert direct, "Hill 112 fields tanks and anti-tank guns"
    for card in direct:
        assert "Fires in the Artillery Fire Phase, only at a unit it can see; off target misses." in card["text"]
        assert not any("never indirectly" in line for line in card["text"])


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_phase_a_card_names_is_named_as_the_turn_sequence_names_it(name):
    """Issue 11 (consistency): the cards said "Fires in the artillery phase" while the quick reference's turn
    sequence, on the same table, calls it the "Artillery Fire Phase". Every phase a card names is one the turn
    sequence names, spelled the same."""
    from generator.build import load

    scenario = load(SCENARIOS / f"{name}.yaml")
    sequence = next(part for part in scenario.system.rules.reference if part.title == "Turn sequence")
    phases = {m.group(0) for line in sequence.lines for m in re.finditer(r"(?:[A-Z]\w+ )+Phase", line)}
    assert phases, "the turn sequence names its phases"
    prepared = scenario.system.prepare(scenario, 1)
    named = [
        m.group(0)
        for card in scenario.system.cards(prepared, "poker")
        for line in card.get("text", [])
        for m in re.finditer(r"(?:\w+ )+phase", line, flags=re.IGNORECASE)
    ]
    assert named, "the cards name a phase"
    assert [phrase for phrase in named if not any(phrase.endswith(phase) for phase in phases)] == []


@pytest.mark.parametrize("variants", [(), ("clock-face-scatter",)], ids=["original", "clock-face"])
def test_the_artillery_tables_columns_read_in_the_scatter_dies_order(variants):
    """A fresh read of Hill 112's odds: under clock-face scatter (1 beyond, 2 right, 3 before, 4 left) the table's
    columns ran left, beyond, right, before, and the first was headed "Lands target". On target comes first,
    headed "Lands on target", then each miss in the order of the die's faces as the note under the table gives
    them."""
    from generator.systems import get
    from generator.systems.morschauser.odds import artillery_table
    from generator.systems.morschauser.variants import scatter_id

    rules = get(SYSTEM).rules
    table = artillery_table(rules, variants)
    lands = [column for column in table.columns if column.key.startswith("lands_") and column.key != "lands_miss"]
    assert lands[0].label == "Lands on target"
    faces = rules.artillery.scatter[scatter_id(rules, variants)].faces
    order = list(dict.fromkeys(spot for _, spot in sorted(faces.items()) if spot != "target"))
    assert [column.key.removeprefix("lands_") for column in lands[1:]] == order


def test_the_cover_names_the_objectives_with_the_game_before_the_variants(built):
    """Issue 11 (a fresh read of Hill 112's cover): "The objectives are Crest west (F3) and Crest east (G3)." printed
    under the variants box, away from the victory conditions it completes. It follows the game's turns and grid,
    before the variants in play."""
    pack, _ = built("hill-112")
    cover = PdfReader(pack).pages[0].extract_text()
    assert cover.index("Victory") < cover.index("The game") < cover.index("The objectives are")
    assert cover.index("The objectives are") < cover.index("Variants in play")


def test_the_umpires_schedule_and_the_cover_say_what_the_schedule_is_not_how_a_bag_is_drawn():
    """A fresh read of Hill 112: the schedule's own page said "each turn every unit draws one tile from the bag",
    which the schedule replaces; the cover said the deck number "always draws the same tiles", untrue of a bag;
    and the notes said the schedule draws "in roster order" though it lists each turn's units in the order they
    act, and that 20 turns are "as many as fit". Each now says what the players and the umpire hold."""
    import html

    from generator import build

    scenario = build.load(SCENARIOS / "hill-112.yaml")
    pack, _ = build.compute(scenario, build.choose_seed(scenario, None), build.Options(), with_cards=False)
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", build.pack_html(scenario, pack))).split())
    schedule = words[words.index("Umpire’s tile schedule For the umpire") :]
    assert "draws one tile from the bag" not in schedule
    assert "The schedule is drawn as the bag would be" in schedule
    assert "the units are listed in the order they act" in schedule
    assert "always draws the same tiles" not in words
    assert "This number sets the umpire’s tile schedule: the same number always prints the same schedule." in words
    assert "in roster order" not in words and "as many as fit" not in words
