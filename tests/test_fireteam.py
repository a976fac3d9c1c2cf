"""Fireteam Tomorrow: odds checked against icepool and by hand, the deck and JSON contract, and the built PDFs."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import icepool
import pdfplumber
import pytest
from conftest import SCENARIOS
from pypdf import PdfReader

from generator.systems import get
from generator.systems.fireteam import odds

RULES = get("fireteam-tomorrow").rules
TWO = 2 @ icepool.d6


def test_fire_odds_match_icepool_for_every_net_modifier():
    """Each fire probability equals icepool's count of the opposed 2D6 roll with the 12-vs-2 rule."""
    for net in odds.fire_range(RULES):
        expected = icepool.map(lambda a, d, net=net: a + net > d or (a == 12 and d == 2), TWO, TWO).probability(True)
        assert odds.fire_hit(net, RULES) == Fraction(expected), net


def test_fire_known_answers():
    """Even fire HITs 575/1296 of the time; hopeless fire HITs only on a natural 12 against a natural 2."""
    assert odds.fire_hit(0, RULES) == Fraction(575, 1296)
    assert odds.fire_hit(min(odds.fire_range(RULES)), RULES) == Fraction(1, 1296)
    assert odds.fire_hit(11, RULES) == 1 - Fraction(0)  # 2+11 > 12 always


def test_fire_range_spans_every_modifier_the_rules_allow():
    """Firer at most +1 leader +4 quality; target at most +3 suppression +3 cover +4 quality +2 vehicle armour."""
    assert list(odds.fire_range(RULES)) == list(range(-12, 6))


def test_recovery_odds_match_icepool():
    """Recovery is 2D6 + modifier reaching 8, for every modifier from 0 to the largest allowed (5)."""
    assert list(odds.recovery_range(RULES)) == [0, 1, 2, 3, 4, 5]
    for m in odds.recovery_range(RULES):
        assert odds.recover(m, RULES) == Fraction((TWO + m >= 8).probability(True))
    assert odds.recover(0, RULES) == Fraction(5, 12)


def test_recovery_modifier_takes_only_one_proximity_bonus():
    """A Hero in heavy armour with a leader near gets +1 (one of) +1 (armour) +3 (Hero) = 5."""
    assert odds.recovery_modifier(RULES, "heavy", "Hero", True) == 5
    assert odds.recovery_modifier(RULES, "none", "Poor", False) == 0
    assert odds.recovery_modifier(RULES, "medium", "Good", False) == 2


def test_hth_bands_cover_every_outcome_and_mirror():
    """For every bonus difference the bands sum to 1, and my win at +d is my loss at -d."""
    for d in range(-5, 6):
        bands = odds.hth_bands(d, RULES)
        assert sum(bands.values()) == 1
        mirror = odds.hth_bands(-d, RULES)
        for key, value in bands.items():
            if key.startswith("win_"):
                assert value == mirror["lose_" + key[4:]]


def test_hth_bands_match_brute_force():
    """The killed band (margin 3 to 5) at equal bonuses, counted over all 6^4 rolls."""
    count = sum(
        1
        for a in range(1, 7)
        for b in range(1, 7)
        for c in range(1, 7)
        for d in range(1, 7)
        if 3 <= (a + b) - (c + d) <= 5
    )
    assert odds.hth_bands(0, RULES)["win_killed"] == Fraction(count, 6**4)


def test_movement_and_jump_odds():
    """A figure moves at least 7" 21/36 of the time, a vehicle 10" or more 5/8; a jump mishaps 1/36."""
    table = {row["inches"]: row for row in odds.movement_table(RULES).rows}
    assert table[7]["figure"] == Fraction(21, 36)
    assert table[10]["vehicle"] == Fraction((3 @ icepool.d6 >= 10).probability(True)) == Fraction(5, 8)
    assert table[3]["vehicle"] == 1
    assert odds.jump_table(RULES).rows[0]["mishap"] == Fraction(1, 36)


def test_odds_json_contract(muster):
    """`muster odds fireteam-tomorrow --json`: system, tables with ids; fire rows carry exact fraction strings."""
    result = muster("odds", "fireteam-tomorrow", "--json")
    assert result.code == 0
    data = result.json()
    assert data["system"] == "fireteam-tomorrow"
    tables = {t["id"]: t for t in data["tables"]}
    assert {"fire", "recovery", "hth", "movement", "jump"} <= set(tables)
    fire = {row["net_modifier"]: row for row in tables["fire"]["rows"]}
    assert fire[0]["hit"] == "575/1296"
    assert abs(fire[0]["hit_float"] - 575 / 1296) < 1e-6
    recovery = {row["modifier"]: row["recover"] for row in tables["recovery"]["rows"]}
    assert recovery[0] == "5/12"


def test_odds_text_output_and_unknown_system(muster):
    """The text form prints every table; an unknown system is a usage error naming the known ones."""
    assert "Fire: chance to HIT" in muster("odds", "fireteam-tomorrow").out
    wrong = muster("odds", "fireteam-tommorow")
    assert wrong.code == 2
    assert "did you mean 'fireteam-tomorrow'" in wrong.err


def test_deck_json_contract_and_reproducible_passes(muster, tmp_path):
    """The deck has a Move and Fire card per team plus HTH and Recovery; each pass is a full shuffle from the seed."""
    result = muster("deck", "scenarios/bridge.yaml", "--json", "--passes", "5")
    assert result.code == 0
    deck = result.json()
    ids = [c["id"] for c in deck["cards"]]
    assert len(ids) == len(set(ids)) == 14  # the seed's own example: three teams a side
    assert len(deck["passes"]) == 5
    for run in deck["passes"]:
        assert sorted(run) == sorted(ids)
    assert len({tuple(run) for run in deck["passes"]}) > 1
    again = muster("deck", "scenarios/bridge.yaml", "--json", "--passes", "5").json()
    assert again["passes"] == deck["passes"]
    other = muster("deck", "scenarios/bridge.yaml", "--json", "--seed", str(deck["seed"] + 1)).json()
    assert other["passes"][0] != deck["passes"][0]


def test_deck_of_vehicle_scenario_gives_vehicles_their_own_cards(muster):
    """Vehicles get their own Move and Fire cards."""
    deck = muster("deck", "scenarios/relay-station.yaml", "--json").json()
    vehicle_cards = [c for c in deck["cards"] if c["vehicle"]]
    assert vehicle_cards and {c["type"] for c in vehicle_cards} == {"Move", "Fire"}


def _text(pdf) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(pdf).pages)


def test_pack_holds_every_part(built):
    """bridge.pdf has the cover with seed, the map, rosters with break points, run-sheet, odds and reference notes."""
    pack, _ = built("bridge")
    text = _text(pack)
    for part in (
        "The Bridge at Kessel Ford",
        "1402",
        "The table",
        "Forces",
        "Ranger Alpha",
        "withdraws once it has lost",
        "Deck run-sheet",
        "Pass 6",
        "Fire: chance to HIT",
        "Recovery",
        "Hand-to-hand",
        "Quick reference",
        "Weapon table (this pack’s values)",
        "HTH result"[:3],
    ):
        assert part in text, part


def test_cards_are_poker_size_three_by_three_with_backs(built):
    """The cards PDF is A4, fronts then backs, 16 cards over two front sheets."""
    _, cards = built("bridge")
    reader = PdfReader(cards)
    assert len(reader.pages) == 4  # 14 cards: two sheets of fronts, each followed by its backs
    box = reader.pages[0].mediabox
    assert abs(float(box.width) - 595.28) < 0.5 and abs(float(box.height) - 841.89) < 0.5
    text = reader.pages[1].extract_text()
    assert "Deck number 1402" in text


def test_letter_paper(built):
    """--paper letter gives Letter pages for the pack and the cards."""
    pack, cards = built("bridge", "--paper", "letter")
    for pdf in (pack, cards):
        box = PdfReader(pdf).pages[0].mediabox
        assert abs(float(box.width) - 612) < 0.5 and abs(float(box.height) - 792) < 0.5


def test_same_input_and_seed_give_the_same_bytes(built, tmp_path, muster):
    """Building twice gives byte-identical PDFs."""
    pack, cards = built("bridge")
    again = tmp_path / "again"
    assert muster("build", "scenarios/bridge.yaml", "--out", again).code == 0
    assert (again / "bridge" / "bridge.pdf").read_bytes() == pack.read_bytes()
    assert (again / "bridge" / "bridge-cards.pdf").read_bytes() == cards.read_bytes()


def test_a_house_rule_changes_the_odds_range():
    """Adding a sixth troop quality widens the fire table on both ends' quality steps."""
    house = replace(RULES, qualities=RULES.qualities + ["Legend"])
    assert list(odds.fire_range(house)) == list(range(-13, 7))


def test_more_than_two_vehicles_is_a_warning_not_a_problem(muster, tmp_path):
    """Three vehicles validate (exit 0) with a warning that the rules advise very rarely more than two."""
    text = (Path("scenarios/relay-station.yaml")).read_text()
    extra = "\n".join(
        f"      - {{name: Car {i}, kind: wheeled, quality: Fair, weapons: [Vehicle machine gun]}}" for i in range(2)
    )
    path = tmp_path / "convoy.yaml"
    path.write_text(text.rstrip() + "\n" + extra + "\n")
    result = muster("validate", path)
    assert result.code == 0
    assert "warning: 3 vehicles: the rules advise very rarely more than 2" in result.err
    # a new user's trial: build said nothing of it; it prints validate's warning line for line, and builds
    built = muster("build", path, "--out", tmp_path / "out")
    assert built.code == 0, built.err
    warned = [line for line in result.err.splitlines() if "warning:" in line]
    assert warned and [line for line in built.err.splitlines() if "warning:" in line] == warned


def test_schema_command_gives_json_schema_with_documentation(muster):
    """`muster schema fireteam-tomorrow` is a JSON Schema whose keys carry their documentation."""
    schema = muster("schema", "fireteam-tomorrow").json()
    assert schema["properties"]["sides"]["minItems"] == 2
    team = schema["properties"]["sides"]["items"]["properties"]["teams"]["items"]
    assert team["properties"]["quality"]["enum"] == ["Poor", "Fair", "Good", "Elite", "Hero"]
    assert "description" in team["properties"]["figures"]


def test_deck_text_lists_each_pass(muster):
    """The deck without --json prints each pass, numbered, naming side, team and card."""
    out = muster("deck", "scenarios/bridge.yaml", "--passes", "2").out
    assert "Pass 1:" in out and "Pass 2:" in out and "Federal Rangers: Ranger Alpha" in out


def test_the_documented_example_validates_clean(muster, tmp_path):
    """The full example in docs/fireteam-tomorrow.md is a valid scenario with no warnings."""
    doc = (Path(__file__).parent.parent / "docs" / "fireteam-tomorrow.md").read_text(encoding="utf-8")
    path = tmp_path / "doc-example.yaml"
    path.write_text(doc.split("## A full example", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0], encoding="utf-8")
    result = muster("validate", path)
    assert (result.code, result.err) == (0, "")


def test_a_team_with_no_mg_or_explosive_gets_no_odds_against_a_vehicle(built):
    """Issue 11 (found reading relay-station's page 3): only MGs and explosives affect vehicles, yet Gatecrash,
    which carries neither, was printed a chance to HIT the Warthog in every cover. Its row now says it cannot harm
    the vehicle; Skyhook, which carries a machine gun, keeps its chances."""
    from generator.build import load

    system = get("fireteam-tomorrow")
    prepared = system.prepare(load("scenarios/relay-station.yaml"), 1)
    rows = {
        team["name"]: row
        for force in system.pack(prepared)["forces"]
        for team in force["teams"]
        for block in team["matchups"]
        for row in block["rows"]
        if row["enemy"].startswith("Warthog")
    }
    assert rows["Gatecrash"]["harmless"] and not rows["Skyhook"]["harmless"]
    pack, _ = built("relay-station")
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(pack).pages).split())
    assert "No MG or explosive in this team: it cannot harm the vehicle" in text


def test_a_vehicle_fires_by_its_crews_quality(built):
    """Issue 11 (a fresh read of relay-station's page 4): the Warthog has its own Fire cards and a machine gun, yet
    its roster printed no chance to HIT anyone. A vehicle gets the teams' firing table at its crew's quality."""
    from generator.build import load

    system = get("fireteam-tomorrow")
    prepared = system.prepare(load("scenarios/relay-station.yaml"), 1)
    warthog = next(v for force in system.pack(prepared)["forces"] for v in force["vehicles"])
    step = RULES.qualities.index
    (block,) = warthog["matchups"]
    assert block["quality"] == warthog["quality"] and block["firers"] == ""
    assert {row["enemy"] for row in block["rows"]} == {"Skyhook", "Gatecrash"}
    for row in block["rows"]:
        net = step(warthog["quality"]) - step(row["quality"])
        assert [cell["plain"] for cell in row["cells"]] == [
            odds.fire_hit(net - cover.defence, RULES) for cover in RULES.cover
        ]
    pack, _ = built("relay-station")
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(pack).pages).split())
    after = text.split("Warthog armoured car wheeled vehicle", 1)[1]
    # the rule's leader commands figures: for a vehicle's crew it is a reading, and says so (a second reader)
    assert (
        "Firing at: chance to HIT per shot, in each cover, without and with a leader’s +1 (this pack’s reading: a"
        " friendly leader within 9″ of the vehicle) Target"
    ) in after


def test_a_distance_in_an_odds_sentence_carries_its_inch_mark(built):
    """Issue 11 (found by two fresh reads of relay-station's odds): the jump table, one row and so a sentence, read
    "Jump up to 24: HIT on landing"; a count that is a distance prints its unit on the page, and only there."""
    pack, _ = built("relay-station")
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(pack).pages).split())
    assert "Jump up to 24″: HIT on landing" in text
    table = odds.jump_table(RULES).to_json()
    assert table["rows"][0]["max_inches"] == 24 and table["columns"][0]["kind"] == "int"


def test_alike_rows_at_a_tables_ends_print_as_one(built):
    """Issue 11 (a fresh read of bridge's odds page): the fire table printed −12, −11, −10 and −9 each at 0.1%
    (only a natural 12 against a natural 2 HITs there). A run of three or more alike rows at either end of a
    table keyed by a number prints as one row, "−9 or less"; a shorter run stays, and JSON keeps every row."""
    from generator.tables import Column, Table

    fire = odds.fire_table(RULES)
    runs = fire.page_rows()
    assert runs[0] == ("or less", next(row for row in fire.rows if row["net_modifier"] == -9))
    assert [run for run, _ in runs[1:]] == [""] * (len(runs) - 1)
    assert len(fire.to_json()["rows"]) == len(fire.rows) == len(runs) + 3
    key, chance = Column("n", "N", "int"), Column("p", "P")
    rows = [{"n": n, "p": p} for n, p in enumerate([0, 0, 1, 2, 3, 3, 3])]
    assert [(run, row["n"]) for run, row in Table("t", "T", [key, chance], rows).page_rows()] == [
        ("", 0),
        ("", 1),
        ("", 2),
        ("", 3),
        ("or more", 4),
    ]
    pack, _ = built("bridge")
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(pack).pages).split())
    assert "−9 or less 0.1% 1/1296 −8 0.4%" in text and "−10 0.1%" not in text


def test_the_hth_odds_say_which_weapons_earn_the_bonus_as_the_rule_data_does():
    """Issue 11 (a new user's read): the odds page said "+2 for a pistol, rifle or HTH weapon" while the roster,
    the quick reference and the HTH card except civilian and sniper rifles. The note now prints the rule data's
    own words, so a house rule changes it with the rest."""
    from dataclasses import replace

    note = odds.hth_table(RULES).note
    assert RULES.hth.weapon_bonus_rule in note and "not civilian or sniper rifles" in note
    house = replace(RULES, hth=replace(RULES.hth, weapon_bonus_rule="+1 for a bayonet"))
    assert "+1 for a bayonet" in odds.hth_table(house).note


def test_a_piece_off_the_table_says_which_edge_and_how_far_and_a_player_names_their_team(tmp_path, muster):
    """Issue 11 (a new user's trial): "terrain[11].rect: reaches off the 72" x 48" table" said neither which edge
    nor by how much, and "'Ann' already plays another team" did not say which team."""
    text = (SCENARIOS / "bridge.yaml").read_text(encoding="utf-8")
    text = text.replace("rect: [46, 26, 9, 7]", "rect: [66, 26, 9, 7]")  # Old mill: 3" past the east edge
    text = text.replace("circle: [26, 12, 2.5]", "circle: [1, 47, 2.5]")  # a crater over the south-west corner
    text = text.replace("player: Ben", "player: Ann")
    path = tmp_path / "bridge.yaml"
    path.write_text(text, encoding="utf-8")
    result = muster("validate", path)
    assert result.code == 1
    assert 'terrain[6].rect: reaches 3" past the east edge of the 72" x 48" table' in result.err
    assert 'terrain[10].circle: reaches 1.5" past the west edge and 1.5" past the south edge of the' in result.err
    assert "player: 'Ann' already plays 'Ranger Alpha'; each player controls one team" in result.err


def test_hand_to_hand_columns_are_headed_by_the_margin():
    """Issue 11 (a fresh read of bridge's odds page): the HTH table was headed "Lose: Loser HIT" and "Win: Winner
    may kill or capture the loser". Each column names the margin from the player's side ("Lose by 1–2"), and the
    note says, in the rule data's words, what each margin does."""
    table = odds.hth_table(RULES)
    labels = [column.label for column in table.columns[1:]]
    assert labels == [
        "Win by 6+",
        "Win by 3\u20135",
        "Win by 1\u20132",
        "Tie",
        "Lose by 1\u20132",
        "Lose by 3\u20135",
        "Lose by 6+",
    ]
    assert not any("Loser" in label or "Winner" in label for label in labels)
    for band in RULES.hth.bands:
        assert band.result[1:] in table.note


def test_a_figure_of_another_quality_fires_and_is_fired_at_by_its_own_chances():
    """Issue 11 (a fresh read of bridge's rosters): Cpl Orr is Elite in a Good team and Fixer Mags Elite in a Fair
    one, yet every chance to HIT and to recover was the team's. Such a figure gets its own block of firing rows,
    a row of its own as a target, and its own recovery; the modifiers a table cannot know are named beside it."""
    from generator.build import load
    from generator.systems.fireteam.pack import _quality_groups

    system = get("fireteam-tomorrow")
    prepared = system.prepare(load("scenarios/bridge.yaml"), 1)
    pack = system.pack(prepared)
    teams = {team["name"]: team for force in pack["forces"] for team in force["teams"]}
    bravo, one = teams["Ranger Bravo"], teams["Banner One"]
    assert [block["firers"] for block in bravo["matchups"]] == ["", "Cpl Orr"]
    step = RULES.qualities.index
    for block in bravo["matchups"]:
        for row in block["rows"]:
            net = step(block["quality"]) - step(row["quality"])
            assert [cell["plain"] for cell in row["cells"]] == [
                odds.fire_hit(net - cover.defence, RULES) for cover in RULES.cover
            ]
    targets = [row["enemy"] for row in one["matchups"][0]["rows"]]
    assert "Ranger Bravo: Cpl Orr" in targets
    orr = next(row for row in one["matchups"][0]["rows"] if row["enemy"] == "Ranger Bravo: Cpl Orr")
    assert orr["quality"] == "Elite"
    # an Elite recovers as a Good figure does (+1 for Good or Elite): Orr's chance is the team's, printed once
    elite = odds.recover(odds.recovery_modifier(RULES, "medium", "Elite", False), RULES)
    assert bravo["recovery"]["base"] == elite and bravo["recovery_others"] == []
    for force in prepared.forces:
        for team in force.teams:
            assert _quality_groups(team, RULES)[0] == (team.quality, "")
    assert any("within 12" in text and "at most +3" in text for text in pack["left_out"])


def test_the_small_odds_tables_stack_in_columns_so_the_odds_fit_one_page(built):
    """Issue 11 (a fresh read of bridge's and relay-station's odds): the small tables sat in rows as tall as
    the long fire table, so the hand-to-hand table went over to the next page and left the Odds page half
    empty. They flow down two columns, and every odds table of both examples is on the Odds part's first page."""
    for name in ("bridge", "relay-station"):
        pack, _ = built(name)
        pages = [" ".join(page.extract_text().split()) for page in PdfReader(pack).pages]
        odds_page = next(text for text in pages if "Odds Exact chances" in text)
        for title in ("Fire: chance to HIT", "Recovery: 2D6", "Movement: chance", "Hand-to-hand: results"):
            assert title in odds_page, (name, title)


def test_the_odds_columns_are_balanced_before_layout_in_reading_order():
    """The small odds tables' two columns are worked out before layout (CSS columns made WeasyPrint lay the Odds
    page out again for every pixel it tried: 10 s of bridge's 16 s pack): each column a run of the tables in
    order, the split the one that leaves the taller column shortest."""
    from generator.tables import Column, Table, in_columns

    def table(name: str, rows: int) -> Table:
        return Table(name, name, [Column("n", "N", "int"), Column("p", "P")], [{"n": i, "p": i} for i in range(rows)])

    fire, recovery, jump, movement = table("fire", 16), table("recovery", 6), table("jump", 1), table("movement", 11)
    assert in_columns([fire, recovery, jump, movement]) == [[fire], [recovery, jump, movement]]
    assert in_columns([recovery, fire, movement]) == [[recovery, fire], [movement]]
    assert in_columns([fire]) == [[fire]]
    from generator.build import Options, choose_seed, compute, load, render_html

    for name in ("bridge", "relay-station"):
        scenario = load(SCENARIOS / f"{name}.yaml")
        html = render_html(scenario, *compute(scenario, choose_seed(scenario, None), Options()))[0]
        grid = html[html.index('<div class="odds-grid">') : html.index('<div class="odds-wide">')]
        assert grid.count('<div class="odds-col">') == 2 and "odds-fire" in grid.split('<div class="odds-col">')[1]


def test_relay_stations_perimeter_has_the_gate_its_briefing_storms():
    """Issue 11 (two fresh reads of relay-station's map): the briefing has a team storm the gate, but the road ran
    into an unbroken wall and the compound stood open on its west side. The perimeter is one wall whose two ends
    stand either side of the road, the only way in on foot."""
    import yaml

    data = yaml.safe_load((SCENARIOS / "relay-station.yaml").read_text(encoding="utf-8"))
    walls = [piece for piece in data["terrain"] if piece["kind"] == "wall"]
    road = next(piece for piece in data["terrain"] if piece["kind"] == "road")
    assert len(walls) == 1
    line = walls[0]["line"]
    (x0, y0), (x1, y1), (rx, ry) = line[0], line[-1], road["line"][-1]
    assert y0 == y1 == ry and min(x0, x1) < rx < max(x0, x1)
    assert "storms the gate" in data["briefing"]


@pytest.mark.parametrize("name", ["bridge", "relay-station"])
def test_a_figure_is_named_beside_its_teams_recovery_only_when_its_chance_differs(name):
    """Issue 11 (a third fresh read): bridge's roster printed "Cpl Orr (Elite) 72%, helped 83%" after a Good team's
    own "recovers 72%, ... near 83%": an Elite recovers as a Good figure does. A figure of another quality is named
    only where its chances differ (Relay Station's Mags, Elite in a Fair team, stays)."""
    from generator.build import load

    system = get("fireteam-tomorrow")
    pack = system.pack(system.prepare(load(f"scenarios/{name}.yaml"), 1))
    others = {}
    for force in pack["forces"]:
        for team in force["teams"]:
            for other in team["recovery_others"]:
                assert {k: other[k] for k in team["recovery"]} != team["recovery"], (team["name"], other["figures"])
                others[team["name"]] = other["figures"]
    if name == "relay-station":
        assert "Mags" in others["Gate watch"]


def test_a_rosters_other_figure_and_a_mini_hth_card_read_as_sentences(built):
    """Issue 11 (a fifth fresh read): Relay Station's roster said "Mags (Elite) 58.3%, helped 72.2%" after the
    team's "with leader, member or medic near", and the mini HTH card, its first line left out for room, opened
    "Each rolls 2D6 ...". The roster says "with one near", and the mini card "In every fight each rolls"."""
    pack, _ = built("relay-station")
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(pack).pages).split())
    # and 'Mags (Elite) 58.3%, 72.2% with one near' said neither what the figures are nor one of what
    # and a sixth: 'with one of them near' left the reader to find what 'them' were, three helpers back; and a
    # seventh: 'with the same help' counted Mags's own bonus, and Mags is the team's medic (a fixer), whom the rule
    # data's medic bonus excludes ('not the medic itself'): a medic is helped by the others only
    mags = "Mags (Elite) recovers 58.3%, 72.2% with leader within 6″ or group member within 3″ # Figure"
    assert mags in text and ", helped " not in text
    # a later read: the team's own line said 'leader, member or medic near' without the distances the Recovery card
    # gives; they are read from the rule data, and the chance comes before them ('within 3″ 83.3%' ran together)
    assert "recovers 72.2%, 83.3% with leader within 6″, group member within 3″ or medic within 3″" in text
    from generator.build import load

    system = get("fireteam-tomorrow")
    cards = system.cards(system.prepare(load("scenarios/relay-station.yaml"), 1), "mini")
    (hth,) = [card["text"] for card in cards if card["type"] == "HTH"]
    assert hth[0].startswith("In every fight each rolls 2D6 + armour level")


def test_the_weapons_table_gives_each_weapons_hth_bonus_as_a_number(built):
    """Issue 11 (a third fresh read): the table's "HTH weapon" column said "yes" or nothing, so the Improvised
    weapon (class HTH, no bonus) read as an HTH weapon denied its +2. The column is "HTH bonus": the rule data's
    +2 where a weapon earns it, "none" where it does not."""
    pack, _ = built("bridge")
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(pack).pages).split())
    assert "Weapon Class Level Range HTH bonus Effect" in text
    assert "Pistol personal 1 12″ +2" in text and "Improvised weapon HTH 0 contact none" in text


def test_a_roster_prints_its_chances_as_the_odds_page_does_centred_under_their_headings(built):
    """Issue 11 (a fifth fresh read): the rosters rounded chances to whole percent ('recovers 42%', a firing table's
    '56%') where the Odds page prints 41.7% and 55.6%, and the firing table's figures sat at the left of columns
    whose headings are centred. Read from bridge.pdf: the rosters give tenths, and every figure of Ranger Alpha's
    firing table stands centred, within half a millimetre, under its 'no leader' or 'leader +1' heading."""
    pack, _ = built("bridge")
    with pdfplumber.open(pack) as pdf:
        page = next(p for p in pdf.pages if "Ranger Alpha" in (p.extract_text() or ""))
        text = page.extract_text()
        assert "recovers 72.2%, 83.3% with leader within 6″" in " ".join(text.split())
        words = page.extract_words()
    # each heading a phrase of two words, from the first's left to the second's right; Ranger Alpha's table first
    heads = [
        (w["x0"], after["x1"])
        for w, after in zip(words, words[1:])
        if (w["text"], after["text"]) in (("no", "leader"), ("leader", "+1"))
    ][:8]
    top = next(w["bottom"] for w in words if w["text"] == "no")
    row = [w for w in words if w["text"] == "55.6%" and w["top"] > top][:1]
    assert row, "Banner One's row"
    figures = sorted(
        (w for w in words if abs(w["top"] - row[0]["top"]) < 1 and w["text"].endswith("%")), key=lambda w: w["x0"]
    )
    assert len(figures) == 8
    for (left, right), figure in zip(sorted(heads), figures):
        assert abs((figure["x0"] + figure["x1"]) / 2 - (left + right) / 2) < 0.5 * 72 / 25.4, figure["text"]


def test_a_firing_tables_target_keeps_its_quality_on_its_last_line(built):
    """Issue 11 (a fifth fresh read): on A4, Relay Station's 'Warthog armoured car (MG or explosive only)' wrapped
    and left its quality, 'Fair', alone on a line of the firing table. The name and its quality are joined by a
    no-break space: no line of the pack is a quality alone."""
    pack, _ = built("relay-station")
    with pdfplumber.open(pack) as pdf:
        lines = [line["text"].strip() for page in pdf.pages for line in page.extract_text_lines()]
    assert "only) Fair" in " ".join(lines)
    assert [line for line in lines if line in ("Poor", "Fair", "Good", "Elite")] == []
