"""WarSpike Tactical Core: the Block tree, Advantage, the tracker, the command line and the printed packs."""

from __future__ import annotations

import dataclasses
import html as html_lib
import re
from pathlib import Path

import pytest
from conftest import SCENARIOS
from pypdf import PdfReader

from generator.build import load
from generator.cards import PAPERS
from generator.loading import load_text
from generator.scenario import validate
from generator.systems import get
from generator.systems.warspike import advantage
from generator.systems.warspike.organisation import organise
from generator.systems.warspike.scenario import Army, Block, Settings, Unit
from generator.systems.warspike.tree import tree_rows

WS = get("warspike")
COUNTS = WS.rules.advantage.counts
MM = 72 / 25.4


def scenario_from(text: str):
    return validate(load_text(text, "inline.yaml"))


def organisation_of(scenario):
    return organise([side.name for side in scenario.side_views], [Army.of(side) for side in scenario.sides])


def rows_by_name(scenario) -> dict:
    return {row["name"]: row for force in WS.prepare(scenario, 0).forces for row in force["rows"]}


PLATOON = """
title: Tree
system: warspike
briefing: A test.
victory: None.
sides:
  - name: Blue
    units:
      - {name: HQ, troops: 3, stature: 6, move_rate: 2, leader: Lt A, mentality: 8}
      - {name: A1, troops: 4, stature: 6, move_rate: 2}
      - {name: A2, troops: 4, stature: 6, move_rate: 1.5, mentality: 4}
      - {name: B1, troops: 4, stature: 6, move_rate: 2, hold: true}
      - {name: B2, troops: 4, stature: 6, move_rate: 2}
      - {name: Loner, troops: 2, stature: 4, move_rate: 2.5}
    blocks:
      - {name: Sec A, members: [A1, A2], leader: A2}
      - {name: Sec B, members: [B1, B2], hold: true}
      - {name: Platoon, members: [HQ, Sec A, Sec B]}
  - name: Red
    units:
      - {name: R1, troops: 4, stature: 6, move_rate: 2}
"""


def test_block_tree_rows_nest_sections_in_platoons_with_branch_guides():
    """Sections sit under their platoon in member order, with a tee for every branch but the last and an ell for the last."""
    sc = scenario_from(PLATOON)
    org = organisation_of(sc)
    rows = tree_rows(org, 0)
    assert [(r["name"], r["depth"], r["guides"]) for r in rows] == [
        ("Platoon", 0, []),
        ("HQ", 1, ["t"]),
        ("Sec A", 1, ["t"]),
        ("A1", 2, ["v", "t"]),
        ("A2", 2, ["v", "l"]),
        ("Sec B", 1, ["l"]),
        ("B1", 2, ["", "t"]),
        ("B2", 2, ["", "l"]),
        ("Loner", 0, []),
    ]


def test_block_facts_follow_the_named_leader_and_the_slowest_unit():
    """A Block takes its leader's Mentality, moves as far as its slowest Unit, and passes its hold order to its Units."""
    sc = scenario_from(PLATOON)
    org = organisation_of(sc)
    rows = rows_by_name(sc)
    sec_a = rows["Sec A"]
    assert (sec_a["follows"], sec_a["mentality"], sec_a["move"], sec_a["slowest"]) == ("A2", "4", "9\u2033", "A2")
    platoon = rows["Platoon"]
    assert (platoon["leader"], platoon["troops"], platoon["units"]) == ("Lt A", 19, 5)
    assert org.held("B2") == (True, True) and org.held("B1") == (True, False) and org.held("A1") == (False, False)
    assert rows["B2"]["hold_from_block"] and rows["Loner"]["move"] == "10\u2033"
    assert org.chain("A1") == ["Sec A", "Platoon"]


def test_validated_sides_hold_typed_units_and_blocks_with_rule_data_defaults():
    """After validation a side's Units and Blocks are typed records; omitted keys take their documented defaults."""
    sc = scenario_from(PLATOON)
    blue = Army.of(sc.sides[0])
    hq, loner = blue.units[0], blue.units[5]
    assert isinstance(hq, Unit) and (hq.troops, hq.leader, hq.mentality, hq.hold) == (3, "Lt A", 8, False)
    assert (loner.leader, loner.mentality, blue.player) == (None, None, "")
    sec_b, platoon = blue.blocks[1], blue.blocks[2]
    assert isinstance(platoon, Block) and (platoon.follows, platoon.level, sec_b.hold) == ("HQ", "", True)
    assert sc.data["turns"] is None and Settings.of(sc, WS.rules).turns == WS.rules.turn.default_turns


def test_the_block_tree_keeps_broken_links_as_problems_and_stays_walkable():
    """organise() returns what it could not link as (path, message) pairs instead of needing a checker to report to."""
    army = Army(
        units=[Unit(name="A", troops=1, stature=1, move_rate=1), Unit(name="B", troops=1, stature=1, move_rate=1)],
        blocks=[Block(name="Pair", members=["A", "Bee"])],
    )
    organisation = organise(["Blue"], [army])
    assert organisation.problems == [
        (("sides", 0, "blocks", 0, "members", 1), "Block 'Pair' names 'Bee', no Unit or Block of 'Blue'")
    ]
    assert [row["name"] for row in tree_rows(organisation, 0)] == ["Pair", "A", "B"]


def test_forces_tracker_and_unit_cards_carry_the_core_side_view():
    """Each force, tracker side and Unit card holds the scenario's own SideView, so no template re-zips two lists."""
    sc = scenario_from(PLATOON)
    prepared = WS.prepare(sc, 0)
    views = sc.side_views
    assert [force["side"] for force in prepared.forces] == views and prepared.forces[1]["side"] is views[1]
    assert [army["side"] for army in WS.pack(prepared)["tracker"]["sides"]] == views
    units = [card for card in WS.cards(prepared, "poker") if card["kind"] == "unit"]
    assert [card["side"].name for card in units] == ["Blue"] * 6 + ["Red"] and units[-1]["side"] is views[1]


def test_block_problems_are_all_reported_at_their_members():
    """One file with a double membership, a foreign Unit, an unknown name and a loop gets each problem at its own member."""
    bad = PLATOON.replace("members: [HQ, Sec A, Sec B]", "members: [HQ, Sec A, Sec B, A1, R1, Sec Z, Platoon]")
    with pytest.raises(Exception) as err:
        scenario_from(bad)
    text = str(err.value)
    assert "members[3]: Unit 'A1' is already in Block 'Sec A'" in text
    assert "members[4]: Block 'Platoon' of 'Blue' names 'R1', a Unit of 'Red'" in text
    assert "members[5]: Block 'Platoon' names 'Sec Z', no Unit or Block of 'Blue' (did you mean 'Sec" in text
    assert "members[6]: Block 'Platoon' is nested in itself: Platoon > Platoon" in text


def test_one_side_all_on_hold_is_valid_and_only_the_other_can_instigate():
    """The seed's clause: a side whose every Unit holds cannot be Instigator, and the pack says the other side is."""
    sc = load(SCENARIOS / "warspike-hold-the-ford.yaml")
    prepared = WS.prepare(sc, 0)
    assert [f["can_instigate"] for f in prepared.forces] == [True, False]
    assert WS.pack(prepared)["first_turn"].startswith("Only Legio II Augusta can ever be Instigator")


@pytest.mark.parametrize(
    "first, second, totals, winner",
    [
        ({"forward": 3, "stood": 2}, {"forward": 2, "routing": 1}, (4, 2), 0),
        ({"forward": 1, "destroyed": 2}, {"forward": 1, "stood": 3}, (1, 1), None),
        ({"forward": 1}, {"forward": 1, "retreating": 1}, (2, 1), 0),
        ({"routing": 2}, {"forward": 1}, (0, 3), 1),
        ({}, {}, (0, 0), None),
    ],
)
def test_advantage_counts_forward_units_and_the_enemy_routing_or_retreating(first, second, totals, winner):
    """Routing and retreating Units count for the opponent, destroyed and standing Units for nobody, a tie for the coin."""
    result = advantage.settle((advantage.Movement(**first), advantage.Movement(**second)), COUNTS)
    assert result.totals == totals
    assert result.advantage == winner
    assert result.instigator == winner


def test_advantage_to_a_side_that_cannot_instigate_passes_to_the_other():
    """A side with the Advantage but every Unit on hold cannot be Instigator, so the other side is, if it can."""
    moves = (advantage.Movement(), advantage.Movement(routing=2))
    assert advantage.settle(moves, COUNTS, (False, True)).instigator == 1
    assert advantage.settle(moves, COUNTS, (False, False)).instigator is None
    with pytest.raises(ValueError):
        advantage.Movement(forward=-1)


def test_advantage_follows_the_rule_data():
    """The counting comes from rules.yaml: a house rule counting routing Units as zero changes the totals."""
    house = dataclasses.replace(COUNTS, routing="none")
    moves = (advantage.Movement(forward=1), advantage.Movement(routing=3))
    assert advantage.totals(moves, COUNTS) == (4, 0)
    assert advantage.totals(moves, house) == (1, 0)


def test_tracker_has_a_box_per_turn_per_unit_and_tallies_per_side():
    """Fourteen turns print as one table of fourteen; every Unit of both sides has a row. The Ford's Britons can
    never instigate, so it tallies no Advantage; the Race's sides have three tally rows each."""
    sc = load(SCENARIOS / "warspike-hold-the-ford.yaml")
    tracker = WS.pack(WS.prepare(sc, 0))["tracker"]
    assert [c["turns"] for c in tracker["chunks"]] == [list(range(1, 15))]
    assert tracker["columns"] == 14 and all(c["pad"] == 0 for c in tracker["chunks"])
    units = [[r["name"] for r in s["rows"] if r["kind"] == "unit"] for s in tracker["sides"]]
    assert [sorted(names) for names in units] == [sorted(u.name for u in Army.of(side).units) for side in sc.sides]
    assert [len(s["tallies"]) for s in tracker["sides"]] == [0, 0]
    assert [m.mark for m in tracker["marks"]] == ["A", "R"]  # no Unit of the war band moves at the Changeover
    race = WS.pack(WS.prepare(load(SCENARIOS / "warspike-bridge-race.yaml"), 0))["tracker"]
    assert [len(s["tallies"]) for s in race["sides"]] == [3, 3]
    assert [m.mark for m in race["marks"]] == ["A", "R", "C"]
    assert "Routing or retreating (count for Landwehr Jäger)" in [t["label"] for t in race["sides"][0]["tallies"]]


def test_a_long_game_pads_its_last_tracker_table():
    """Thirty turns print as three tables of ten columns; twenty-five as two of thirteen, the last padded, so the
    columns line up page to page."""
    for turns, widths, pads in ((30, [10, 10, 10], [0, 0, 0]), (25, [13, 12], [0, 1])):
        sc = scenario_from(PLATOON + f"turns: {turns}\n")
        tracker = WS.pack(WS.prepare(sc, 0))["tracker"]
        assert [len(c["turns"]) for c in tracker["chunks"]] == widths
        assert [c["pad"] for c in tracker["chunks"]] == pads


def test_odds_json_is_the_coin_toss_only(muster):
    """`muster odds warspike --json` prints the system and one table, the coin toss, with exact halves."""
    result = muster("odds", "warspike", "--json")
    assert result.code == 0
    data = result.json()
    assert data["system"] == "warspike"
    assert [t["id"] for t in data["tables"]] == ["coin_toss"]
    assert [(r["face"], r["chance"]) for r in data["tables"][0]["rows"]] == [("Heads", "1/2"), ("Tails", "1/2")]
    assert "no dice beyond the coin toss" in data["tables"][0]["note"]


def test_deck_says_there_is_none_and_exits_2(muster):
    """WarSpike has nothing to shuffle: `muster deck` explains so with exit status 2, JSON or not."""
    for extra in ((), ("--json",)):
        result = muster("deck", SCENARIOS / "warspike-bridge-race.yaml", *extra)
        assert result.code == 2
        assert "no card deck" in result.err and result.out == ""


def test_schema_and_systems_list_warspike(muster):
    """The JSON Schema documents units and blocks, and `muster systems --json` lists the system."""
    schema = muster("schema", "warspike").json()
    side = schema["properties"]["sides"]["items"]["properties"]
    assert set(side["units"]["items"]["required"]) == {"name", "troops", "stature", "move_rate"}
    assert side["blocks"]["items"]["properties"]["members"]["minItems"] == 2
    assert {"id": "warspike", "title": "WarSpike Tactical Core"} in muster("systems", "--json").json()


def test_every_rule_interpretation_reaches_the_reference_notes():
    """Each `note:` in the rule data is printed on the reference sheet."""
    rules_text = (WS.folder / "rules.yaml").read_text()
    assert len(WS.reference()["notes"]) == rules_text.count("note: >-") + rules_text.count("note: '")


def test_the_documented_example_validates_clean(muster, tmp_path):
    """The full example in docs/warspike.md is a valid scenario with no warnings."""
    doc = (SCENARIOS.parent / "docs" / "warspike.md").read_text()
    example = doc.split("## A full example", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "doc-example.yaml"
    path.write_text(example)
    result = muster("validate", path)
    assert (result.code, result.err) == (0, "")


def text_of(pdf) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(pdf).pages)


def test_bridge_pack_prints_tree_tracker_sequence_and_glossary(built):
    """The A4 pack carries the rosters, a ten-turn tracker, the one-page turn sequence with its glossary, and no odds but the toss."""
    pack, cards = built("warspike-bridge-race")
    reader = PdfReader(pack)
    width, height = (float(v) / MM for v in reader.pages[0].mediabox[2:])
    assert (round(width), round(height)) == (210, 297)
    text = text_of(pack)
    for words in (
        "Turn tracker",
        "Struck off",
        "Units moving forward",
        "Glossary",
        "Paired-Resolutions",
        "5: Changeover",
        "roll no dice beyond the coin toss",
        "1 Platoon",
        "Gruppe 3 Trupp B",
    ):
        assert words in text, words
    sequence = [p.extract_text() for p in reader.pages if "1: Instigator" in p.extract_text()]
    assert len(sequence) == 1 and "Glossary" in sequence[0] and "Advantage" in sequence[0]


def test_bridge_cards_hold_one_card_per_unit_plus_options_and_markers(built):
    """Fourteen Unit cards with worked Move distances, eight option cards and two markers: three sheets with backs."""
    _, cards = built("warspike-bridge-race")
    reader = PdfReader(cards)
    assert len(reader.pages) == 6  # 24 cards, 9 a sheet, each sheet followed by its backs
    text = text_of(cards)
    assert "6 × 1.5" in text and "9\u2033" in text and "Gruppe 1 Trupp A" in text
    assert "INSTIGATOR" in text and "RETALIATOR" in text and "SPECIAL" in text


def test_letter_paper_builds_the_ford_in_centimetres(built):
    """On Letter the pack and the cards take the Letter page, and Moves print in centimetres."""
    pack, cards = built("warspike-hold-the-ford", "--paper", "letter")
    for pdf in (pack, cards):
        box = PdfReader(pdf).pages[0].mediabox
        assert (round(float(box[2]) / MM, 1), round(float(box[3]) / MM, 1)) == PAPERS["letter"]
    assert "12.5 cm" in text_of(cards)  # Contubernium IV: the war band, on hold, moves not at all


def test_the_advantage_examples_name_no_side_of_the_scenario():
    """Issue 11 (found by two fresh reads): the worked Advantage examples were printed with the scenario's own
    sides, so The Ford at Afon Du told players its war band 'has the Advantage and is Instigator next turn', a side
    that can never be Instigator, moving more Units than it has. The examples illustrate the rule for any two
    sides and name them so."""
    system = get("warspike")
    for name in ("warspike-hold-the-ford", "warspike-bridge-race"):
        scenario = load(SCENARIOS / f"{name}.yaml")
        pack = system.pack(system.prepare(scenario, 1))
        sides = [side.name for side in scenario.side_views]
        for example in pack["examples"]:
            said = " ".join([example["first"], example["second"], example["outcome"], *example["names"]])
            assert not any(side in said for side in sides), said
            assert example["names"] == ["Side A", "Side B"]


def test_a_right_aligned_figure_is_set_apart_from_the_left_aligned_column_after_it(built):
    """Issue 11 (found by a fresh read): the roster's move rate, right-aligned, ran into the Move beside it ("1.5 9″"
    read as one phrase), and Para Bellum's order table's figures into their words ("0.83 never"). A figure column
    followed by a text column has a wider gap: at least 3 mm, measured on the page."""
    import pdfplumber

    pack, _ = built("warspike-bridge-race")
    pairs = []
    with pdfplumber.open(pack) as pdf:
        for page in pdf.pages:  # the roster runs onto the second page since the cover says what the pack covers
            words = page.extract_words()
            pairs += [(a, b) for a, b in zip(words, words[1:]) if a["text"] == "1.5" and b["text"].startswith("9")]
    assert pairs, "the roster row of 2 Sec Bravo (move rate 1.5, Move 9″) was not found"
    for rate, move in pairs:
        assert move["x0"] - rate["x1"] >= 3 * 72 / 25.4, (rate, move)


@pytest.mark.parametrize("name", ["warspike-bridge-race", "warspike-hold-the-ford"])
def test_a_block_whose_name_says_its_level_is_not_tagged_with_it_again(name, built):
    """Issue 11 (a fresh read of both turn trackers): "1 Platoon Platoon", "1 Section Section" and
    "Half-Centuria Centuria" (a half-centuria is not a centuria). The roster already left the level off where the
    name says it; the tracker did not. Both print the level only where the name does not say it. (The map's page
    is left out: its Units' names are labels round their tokens, read in no order: 'Contubernium II' over
    'Contubernium I'.)"""
    pack, _ = built(name)
    pages = [page.extract_text() for page in PdfReader(pack).pages]
    text = " ".join(" ".join(page for page in pages if "from the top-left corner" not in page).split())
    for doubled in ("Platoon Platoon", "Section Section", "Centuria Centuria", "Contubernium Contubernium"):
        assert doubled not in text


def test_role_markers_change_hands_only_where_both_sides_can_instigate():
    """Issue 11 (a fresh read of the Ford's cards): both role markers said "changes hands" in a battle where every
    Ordovices Unit holds, so only the Romans are ever Instigator. There each marker says who keeps it all game."""
    system = get("warspike")
    markers = {}
    for name in ("warspike-hold-the-ford", "warspike-bridge-race"):
        prepared = system.prepare(load(SCENARIOS / f"{name}.yaml"), 1)
        markers[name] = {
            card["role"]: card for card in system.cards(prepared, "poker") if card["kind"].startswith("marker")
        }
    ford = markers["warspike-hold-the-ford"]
    assert ford["Instigator"]["foot"] == ford["Retaliator"]["foot"] == "Role marker"
    assert ford["Instigator"]["lines"][-1] == "Stays with Legio II Augusta all game."
    assert ford["Retaliator"]["lines"][-1] == "Stays with Ordovices war band all game."
    race = markers["warspike-bridge-race"]
    assert {card["foot"] for card in race.values()} == {"Role marker: changes hands"}
    assert not any("Stays with" in line for card in race.values() for line in card["lines"])


def test_the_advantage_line_prints_only_where_the_roles_change_hands():
    """Where only one side can be Instigator the Advantage never moves: the Ford's Retaliator marker says who
    keeps it instead; the bridge race's says who takes the Advantage."""
    system = get("warspike")
    lines = {}
    for name in ("warspike-hold-the-ford", "warspike-bridge-race"):
        prepared = system.prepare(load(SCENARIOS / f"{name}.yaml"), 1)
        card = next(card for card in system.cards(prepared, "poker") if card["kind"] == "marker retaliator")
        lines[name] = card["lines"]
    advantage = system.rules.cards.advantage
    assert advantage not in lines["warspike-hold-the-ford"] and advantage in lines["warspike-bridge-race"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", ["warspike-bridge-race", "warspike-hold-the-ford"])
def test_a_blocks_rows_never_split_across_pages(name, paper, built):
    """Issue 11 (a fresh read on Letter): bridge-race's roster broke inside 2 Section, leaving 2 Sec Bravo alone at
    the top of page 2. A Block's row and its Units' rows print on one page."""
    system = get("warspike")
    prepared = system.prepare(load(SCENARIOS / f"{name}.yaml"), 1)
    pack, _ = built(name, "--paper", paper)
    # each page's lines: a Unit's row is a line that opens with its name and then its troops
    pages = [page.extract_text().replace("\u2019", "'").splitlines() for page in PdfReader(pack).pages]
    forces = [i for i, lines in enumerate(pages) if any("Block / Unit" in line for line in lines)]
    checked = 0
    for force in system.pack(prepared)["forces"]:
        rows = force["rows"]
        for i, row in enumerate(rows):
            if row["kind"] != "block":
                continue
            members = []
            for later in rows[i + 1 :]:
                if later["kind"] == "block":
                    break
                members.append(later["name"])
            if not members:
                continue
            holding = [
                p
                for p in forces
                if all(any(re.match(rf"\s*{re.escape(m)} \d", line) for line in pages[p]) for m in members)
            ]
            assert holding, (row["name"], members)
            checked += 1
    assert checked


def test_a_unit_under_hold_orders_only_reacts_on_its_card_and_the_instigators_marker():
    """Issue 11 (a fresh read of the WarSpike cards): a Unit under hold orders (3 Sec Alpha, every Ordovices Unit)
    had "HOLD ORDERS: holds its ground and reacts" above "Action or Reaction, one a turn", and the Instigator's
    marker said "Repeat until every one of your Units has acted". Its card offers a Reaction only, and where an
    Instigator has such Units its marker says they never take an Action (a third reader: "never activated" read
    against the glossary's "a Unit that responds with a Reaction is also activated")."""
    system = get("warspike")

    def cards_of(name: str) -> list[dict]:
        return system.cards(system.prepare(load(SCENARIOS / f"{name}.yaml"), 1), "poker")

    race, ford = cards_of("warspike-bridge-race"), cards_of("warspike-hold-the-ford")
    for cards in (race, ford):
        units = [card for card in cards if card["kind"] == "unit"]
        assert any(card["hold"] for card in units) and any(not card["hold"] for card in units)

    def instigator(cards):
        return next(card for card in cards if card["kind"] == "marker instigator")["lines"]

    assert "A Unit under hold orders only reacts: it never takes an Action." in instigator(race)
    assert not any("hold orders" in line for line in instigator(ford))  # the Romans, the only Instigator, hold none
    from generator.build import Options, choose_seed, compute, render_html

    scenario = load(SCENARIOS / "warspike-hold-the-ford.yaml")
    pack, sheet = compute(scenario, choose_seed(scenario, None), Options())
    html = render_html(scenario, pack, sheet)[1]
    held = sum(1 for card in ford if card["kind"] == "unit" and card["hold"])
    assert html.count("<b>Reaction</b> only, one per turn") == held
    assert (
        html.count("<b>Action</b> or <b>Reaction</b>, one per turn")
        == len([card for card in ford if card["kind"] == "unit"]) - held
    )


def test_turn_one_where_one_side_cannot_instigate_says_the_coin_changes_nothing():
    """Issue 11 (a second fresh read of the Ford): turn 1 said "the coin toss decides only whether it commits or
    passes", and a coin decides no player's choice. Where only one side can be Instigator it chooses each turn,
    whoever wins the toss."""
    from generator.systems.warspike.pack import first_turn

    system = get("warspike")
    forces = system.prepare(load(SCENARIOS / "warspike-hold-the-ford.yaml"), 1).forces
    text = first_turn(None, forces)
    assert "decides only" not in text
    assert "each turn Legio II Augusta becomes Instigator or passes, whoever wins the coin toss" in text


@pytest.mark.parametrize("name, contested", [("warspike-hold-the-ford", False), ("warspike-bridge-race", True)])
def test_the_tracker_tallies_advantage_only_where_it_can_pick_the_instigator(name, contested):
    """Issue 11 (a second fresh read): the Ford's tracker printed an Instigator row of dashes and Advantage tallies
    for the Britons, whose every Unit holds. Advantage only picks between sides that can instigate: with one such
    side that side chooses each turn, so the tracker has no tally rows, no Advantage row and no Instigator
    row for the side that can never take it, and its lead says why. The Race keeps them all."""
    prepared = WS.prepare(load(SCENARIOS / f"{name}.yaml"), 1)
    tracker = WS.pack(prepared)["tracker"]
    assert tracker["advantage"] is contested
    for army in tracker["sides"]:
        assert bool(army["tallies"]) is contested
    from generator.build import Options, choose_seed, compute, pack_html

    scenario = load(SCENARIOS / f"{name}.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    html = pack_html(scenario, pack)
    tracker_html = html[html.index('id="tracker"') : html.index('id="sequence"')]
    assert ("Advantage to (next turn’s Instigator)" in tracker_html) is contested
    assert ("Units moving forward" in tracker_html) is contested
    instigator_rows = tracker_html.count("Instigator this turn</td>")
    chunks = tracker_html.count('<table class="ws-tracker')
    able = sum(1 for force in prepared.forces if force["can_instigate"])
    assert instigator_rows == able * chunks
    if not contested:
        assert (
            "Only Legio II Augusta can be Instigator, so no Advantage is tallied: each turn Legio II Augusta becomes "
            "Instigator or passes, whoever wins the coin toss." in (" ".join(tracker_html.split()))
        )


def test_a_blocks_level_tag_is_left_off_where_its_name_already_says_it():
    """Issue 11 (a second fresh read): "First pair Pair of Contubernia" read as a stammer. The level's tag is left
    off where the Block's name already holds the level or its head word; it stays where the name does not say it."""
    from generator.systems.warspike.roster import level_tag

    assert level_tag("First pair", "Pair of Contubernia") == ""
    assert level_tag("1 Platoon", "Platoon") == ""
    assert level_tag("Half-Centuria", "Half-Centuria") == ""
    assert level_tag("Ford line", "War band") == "War band"
    assert level_tag("Jäger Zug", "Platoon") == "Platoon"
    rows = WS.pack(WS.prepare(load(SCENARIOS / "warspike-hold-the-ford.yaml"), 0))["forces"][0]["rows"]
    assert {r["name"]: r["level_tag"] for r in rows if r["kind"] == "block"}["First pair"] == ""


@pytest.mark.parametrize("name, contested", [("warspike-hold-the-ford", False), ("warspike-bridge-race", True)])
def test_the_sequence_and_reference_say_when_advantage_is_not_tallied_in_this_battle(name, contested):
    """Issue 11 (a third fresh read): the Ford's tracker said no Advantage is tallied, while its turn sequence and
    quick reference told players to tally it: both now say, for this battle, that no Advantage is tallied and the
    coin toss opens every turn; the Race, where both sides may instigate, prints the rule alone. A fifth read found the Ford's flow
    still drawing the coin toss for 'Turn 1, and whenever Advantage is tied' and a full Advantage step, corrected
    by a note under it: the two steps themselves now say 'Every turn in this battle' and 'Skipped in this
    battle'."""
    from generator.build import Options, choose_seed, compute, pack_html

    scenario = load(SCENARIOS / f"{name}.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    html = " ".join(pack_html(scenario, pack).split())
    sequence = html[html.index('id="sequence"') : html.index('id="reference"')]
    reference = html[html.index('id="reference"') :]
    coin = re.search(r"Coin toss <span class=\"when\">([^<]*)</span>", sequence).group(1)
    assert coin == ("Turn 1, and whenever Advantage is tied" if contested else "Every turn in this battle")
    advantage = re.search(
        r'<div class="ws-step( skipped)?">\s*<div class="ws-step-head">Advantage(.*?)</div>', sequence
    )
    assert (advantage.group(1) is None) is contested
    assert ("Skipped in this battle" in advantage.group(2)) is not contested
    assert ("Only Legio II Augusta can be Instigator, so no Advantage is tallied" in sequence) is not contested
    assert ("Next turn: the side with the Advantage is Instigator" in sequence) is contested
    assert (
        "<b>In this battle</b> only Legio II Augusta can be Instigator, so no Advantage is tallied" in reference
    ) is not contested
    assert "In this battle" not in (sequence + reference) or not contested
    # a sixth read: the Ford's reference said no Advantage is tallied, then printed the Advantage rule and three
    # worked examples of tallying it; a battle that tallies none prints neither
    assert ("The side with the higher total has the Advantage" in reference) is contested
    assert ("For example, Side A" in reference) is contested


def test_a_unit_holding_its_ground_reacts_without_moving_by_the_rule_data(tmp_path, monkeypatch):
    """Issue 11 (a third fresh read): a held Unit's card offered "Reaction only: Move · Shoot · Engage · Special"
    while the Ford's Britons "never advance" and the rule says held Units "hold their ground": a Move Reaction goes
    towards the enemy. The Reactions a held Unit may take are rule data (hold.reactions), printed on its card in
    the Reactions' order, with a note saying it is this pack's reading; a free Unit keeps every option."""
    system = get("warspike")
    cards = system.cards(system.prepare(load(SCENARIOS / "warspike-hold-the-ford.yaml"), 1), "poker")
    units = [card for card in cards if card["kind"] == "unit"]
    assert {card["options"] for card in units if card["hold"]} == {"Shoot \u00b7 Engage \u00b7 Special"}
    assert {card["options"] for card in units if not card["hold"]} == {"Move \u00b7 Shoot \u00b7 Engage \u00b7 Special"}
    assert "never by Move" in system.rules.hold.reactions_note.note


def test_a_hold_reaction_the_rules_do_not_have_is_refused(muster, tmp_path, monkeypatch):
    """hold.reactions names Reactions: a misspelt one is refused at its place, with a close match."""
    from generator import systems
    from generator.systems.warspike import WarSpike

    source = Path(get("warspike").folder) / "rules.yaml"
    text = source.read_text(encoding="utf-8").replace(
        "reactions: [Shoot, Engage, Special]", "reactions: [Shoot, Engag, Special]"
    )
    (tmp_path / "rules.yaml").write_text(text, encoding="utf-8")
    system = WarSpike()
    system.folder = tmp_path
    monkeypatch.setitem(systems._loaded, "warspike", system)
    result = muster("validate", "scenarios/warspike-hold-the-ford.yaml")
    assert result.code == 1, result.err
    assert "hold.reactions[1]: expected one of the Reactions' names" in result.err
    assert "(got 'Engag') (did you mean 'Engage'?)" in result.err


def test_a_tracker_rows_level_and_orders_read_apart_from_its_name():
    """A fresh read of the Ford's turn tracker: the row "Ford line War band hold" read as one name. A row's level
    and hold orders follow its name in brackets."""
    from generator.build import Options, Parts, choose_seed, compute, load, pack_html

    scenario = load(SCENARIOS / "warspike-hold-the-ford.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    page = pack_html(scenario, pack, Parts.of("tracker"))
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "Ford line (War band, holds)" in text and "Chief’s hearth guard (holds)" in text
    assert " hold " not in text.replace("(", " ").replace(")", " ")


def test_the_original_rules_bridge_example_is_set_as_every_example_is():
    """A fresh read found the original rules' bridge example set as a plain rule among the Paired-Resolution
    rules, beside italic "For example, ..." lines under Advantage: every example of the reference is an italic
    line opening "For example,"."""
    from generator.build import Options, choose_seed, compute, pack_html

    scenario = load(SCENARIOS / "warspike-bridge-race.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    html = pack_html(scenario, pack)
    items = re.findall(r"<li(\s[^>]*)?>(.*?)</li>", html, flags=re.S)
    examples = [(attrs, text) for attrs, text in items if "example" in attrs or "opposite banks" in text]
    assert any("opposite banks" in text for _, text in examples)
    for attrs, text in examples:
        assert 'class="example"' in attrs and text.startswith("For example, "), text[:60]


def test_the_instigators_loop_ends_when_a_side_has_units_under_hold_orders():
    """King's Own holds two Units, which never take an Action: the marker's "Repeat until every one of your Units
    has acted" and the turn sequence's "While the Instigator has Units that have not acted" could never end. Both
    now count only the Units free to act, and the hold-orders note says a holding Unit does not move at the
    Changeover either."""
    rules = get("warspike").rules_filled.data
    loop = next(step["text"] for step in rules["flow"] if step.get("loop"))
    assert "free to act" in loop and "hold" in loop, loop
    assert any("free to act" in line for line in rules["cards"]["instigator"] if line.startswith("Repeat"))
    assert "Changeover" in rules["hold"]["reactions_note"]["note"]


def test_the_one_use_a_turn_limit_is_printed_once_beside_the_changeover_it_counts():
    """A fresh read found "Every Unit performs at most one Action or one Reaction in a turn" under "Coin toss and
    hold orders", away from the Actions and the Changeover, and without the Changeover move the tracker counts as
    a Unit's use of its turn (its A, R or C box). It is said once, after the Changeover rule, and names it."""
    from generator.build import Options, choose_seed, compute, pack_html

    scenario = load(SCENARIOS / "warspike-hold-the-ford.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    reference = pack_html(scenario, pack).split('id="reference"', 1)[1]
    sections = re.findall(r'<div class="ref-section[^"]*">(.*?)</div>', reference, flags=re.S)
    limit = get("warspike").rules_filled.data["per_turn"]["rule"]
    assert "Changeover" in limit
    (holder,) = [section for section in sections if limit in section]
    assert "Paired-Resolutions" in holder and holder.index("Retaliator may move any remaining Units") < holder.index(
        limit
    )
    assert sum(section.count("at most one") for section in sections) == 1


@pytest.mark.parametrize("name", ["warspike-bridge-race", "warspike-hold-the-ford"])
def test_a_player_is_a_player_not_a_game_term(name):
    """A fresh read of the glossary: "WarSpike capitalises its game terms", then "The player that won..." beside
    "a Player picks", and "two fireteams into a section, three sections into a Platoon". A player and a platoon
    are not among the original rules' game terms: the pack writes them in lower case mid-sentence."""
    from generator.build import Options, choose_seed, compute, pack_html

    scenario = load(SCENARIOS / f"{name}.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    text = " ".join(re.sub(r"<[^>]+>", " ", pack_html(scenario, pack)).split())
    assert not re.findall(r"[a-z,;] Players?\b", text), re.findall(r".{30}[a-z,;] Players?\b.{20}", text)
    assert "three sections into a platoon" in text


def test_the_move_reaction_allows_the_head_off_its_example_and_marker_show():
    """A fresh read: the reference's Move Reaction said "Directly towards the Instigator's active Unit" a few lines
    above the original rules' bridge example, where the Retaliator's Unit "runs to head it off", and beside the
    role marker's "or head it off". The original rules say both (their list of Reactions, and their summary of
    countering a Move): the Move Reaction prints both, and the note says so."""
    rules = get("warspike").rules_filled.data
    move = next(r["text"] for r in rules["reactions"] if r["name"] == "Move")
    assert move.startswith("Directly towards the Instigator's active Unit") and "heading it off" in move
    assert "head it off" in rules["resolution"]["bridge_example"]
    assert "Move Reaction" in rules["movement_counter"]["note"]


def _ford_and_race_packs() -> dict[str, str]:
    """The two WarSpike examples' packs as HTML, their words only."""
    from generator.build import Options, choose_seed, compute, pack_html

    texts = {}
    for name in ("warspike-hold-the-ford", "warspike-bridge-race"):
        scenario = load(SCENARIOS / f"{name}.yaml")
        pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
        words = " ".join(re.sub(r"<[^>]+>", " ", pack_html(scenario, pack)).split())
        texts[name] = words.replace("“", '"').replace("”", '"')
    return texts


def test_a_battle_without_advantage_prints_no_notes_on_settling_it():
    """Issue 11 (stop 40's reads): the Ford, where one side only can be Instigator and "no Advantage is tallied",
    went on to print how Advantage ties, destroyed Units and Blocks are counted and what a side that cannot
    instigate does with the Advantage; and both examples printed the note on a scenario's named Instigator,
    though neither names one. The Aller bridge, where both sides contest the Advantage, keeps its notes."""
    texts = _ford_and_race_packs()
    advantage = WS.rules.advantage
    # each note by its opening words (the pack's curly quotes read back as straight ones)
    notes = [
        " ".join(note.note.split()[:14])
        for note in (advantage.rough, advantage.destroyed, advantage.blocks, advantage.cannot_instigate)
    ]
    ford, race = texts["warspike-hold-the-ford"], texts["warspike-bridge-race"]
    assert "no Advantage is tallied" in ford
    assert [note for note in notes if note in ford] == []
    assert [note for note in notes if note not in race] == []
    named = WS.rules.coin_toss.scenario_instigator.note.split('"')[1][:40]
    assert named not in ford + race


def test_the_reference_says_which_reactions_a_holding_unit_has_and_a_roster_says_its_side_holds_once():
    """Issue 11 (stop 40's reads): the reference's Reactions offered a Move to every Unit, the Ford's all holding
    Units too, while the notes read hold orders as Shoot, Engage or Special only; the reference says so beside the
    hold orders, as a reading. The Ford's roster said its side holds twice ("3 Units under hold orders. Every Unit
    holds: ... cannot be Instigator.")."""
    ford = _ford_and_race_packs()["warspike-hold-the-ford"]
    assert (
        "A Unit under hold orders reacts only by Shoot, Engage or Special, and makes no Changeover move: this pack’s reading"
        in ford
    )
    assert "Every Unit is under hold orders: this side can never be Instigator." in ford
    assert "Units under hold orders. Every Unit" not in ford


def test_the_reference_says_how_a_move_is_countered_and_the_note_says_where():
    """Issue 14: a note said the Reaction cards print how to counter a Move Action; they did not. The seed: the
    Retaliator "may" counter "by moving directly towards the Instigator's unit (or heading them off at their
    perceived objective), or attacking them as they move". The quick reference prints all three; the note says
    which pages print what."""
    from generator import build

    scenario = load(SCENARIOS / "warspike-bridge-race.yaml")
    pack, sheet = build.compute(scenario, build.choose_seed(scenario, None), build.Options())
    pack_html, _ = build.render_html(scenario, pack, sheet)
    reference = pack_html.split('id="reference"', 1)[1]
    assert "Countering a Move:</b> Any of your Units may counter a Move that targets no one (or let it go)" in reference
    assert "heading it off at its objective, or attacking it as it moves." in reference
    note = get("warspike").rules.movement_counter.note
    assert "print all three ways" in note and "Reaction cards print" not in note and "the first two" not in note


def test_a_retaliator_marker_that_stays_with_a_holding_side_offers_no_move_reaction():
    """A fresh read of the Ford: its Retaliator marker stays all game with the war band, every Unit of which holds
    (and a holding Unit reacts only by Shoot, Engage or Special), yet it said "Any of your Units may make the Move
    Reaction". Where the marker changes hands (the Aller bridge), it still says so."""
    from generator.build import load

    system = get("warspike")
    rule = system.rules.movement_counter.rule

    def marker(name: str) -> list[str]:
        prepared = system.prepare(load(SCENARIOS / f"{name}.yaml"), 1)
        return next(c for c in system.cards(prepared, "poker") if c["kind"] == "marker retaliator")["lines"]

    ford, race = marker("warspike-hold-the-ford"), marker("warspike-bridge-race")
    assert rule not in ford and any(line.startswith("Stays with") for line in ford)
    assert rule in race


@pytest.mark.parametrize("size", ["poker", "mini", "tarot"])
def test_the_move_reaction_card_prints_all_three_ways_to_counter_a_move(size):
    """Issue 14: the Move Reaction's card printed two of the seed's three ways to counter a Move ("directly
    towards ... or heading them off ..., or attacking them as they move"), its smallest card said to have no
    room; and the Retaliator's marker said "counter ..., or head it off". On every card size the Move Reaction's
    card prints all three, fitted whole, and the marker sends any Unit to that Reaction."""
    from generator.build import TEMPLATES, Options, choose_seed, compute, lay_out, render_html_cards

    scenario = load(SCENARIOS / "warspike-bridge-race.yaml")
    _, sheet = compute(scenario, choose_seed(scenario, None), Options(card_size=size))
    html = render_html_cards(scenario, sheet)
    words = " ".join(re.sub(r"<[^>]+>", " ", html).split()).replace("’", "'")
    assert (
        "Directly towards the Instigator's active Unit, heading it off at its objective, or attacking it as it moves."
        in words
    )
    assert "Any of your Units may make the Move Reaction to a Move that targets no one." in words
    # every text fits its card at 7 pt or more, the rule texts too (check_card_fit answers for a scenario's names)
    assert lay_out(html, TEMPLATES, True)[1] == []


def test_reaction_cards_and_marker_lines_follow_what_the_retaliating_units_may_do():
    """A fresh read of the Ford: the war band, the only side that is ever Retaliator, holds with every Unit, and a
    holding Unit reacts only by Shoot, Engage or Special, yet its card sheet printed a Move Reaction card and its
    marker a Changeover line. Reaction cards and those marker lines now follow the Units that can be Retaliator;
    where any of them is free (the Aller bridge), all four cards and both lines print, and the Move Reaction's
    card says any Unit may make it against a Move that targets no one."""
    system = get("warspike")
    rules = system.rules

    def sheet(name: str) -> tuple[dict, list[str]]:
        cards = system.cards(system.prepare(load(SCENARIOS / f"{name}.yaml"), 1), "poker")
        reactions = {c["name"]: c["rule"] for c in cards if c["kind"] == "option reaction"}
        return reactions, next(c for c in cards if c["kind"] == "marker retaliator")["lines"]

    ford, ford_marker = sheet("warspike-hold-the-ford")
    assert (
        list(ford)
        == [r.name for r in rules.reactions if r.name in rules.hold.reactions]
        == [
            "Shoot",
            "Engage",
            "Special",
        ]
    )
    assert rules.cards.changeover not in ford_marker and rules.movement_counter.rule not in ford_marker
    race, race_marker = sheet("warspike-bridge-race")
    assert list(race) == [r.name for r in rules.reactions]
    assert race["Move"] == rules.movement_counter.card and "any of your Units" in race["Move"]
    assert race["Shoot"] == rules.cards.reaction_rule
    assert rules.cards.changeover in race_marker and rules.movement_counter.rule in race_marker


def test_a_battle_with_one_possible_instigator_never_says_the_coin_decides_the_turn():
    """A fresh read of the Ford: turn 1 said the Romans choose "whoever wins the coin toss", while the tracker said
    "the coin toss decides each turn" and the reference "the coin toss decides every turn", though a side that
    cannot instigate can only pass. Every page now says the one side chooses, whoever wins the toss."""
    from generator import build

    scenario = load(SCENARIOS / "warspike-hold-the-ford.yaml")
    pack, sheet = build.compute(scenario, build.choose_seed(scenario, None), build.Options())
    words = " ".join(re.sub(r"<[^>]+>", " ", build.render_html(scenario, pack, sheet)[0]).split())
    assert "coin toss decides" not in words
    assert "each turn Legio II Augusta becomes Instigator or passes, whoever wins the coin toss." in words
    assert "each turn opens with the coin toss, and Legio II Augusta becomes Instigator or passes whoever wins it" in (
        words
    )


def test_a_holding_units_card_says_it_never_moves_where_others_say_how_far():
    """A fresh read of the Ford: every war band card printed a large "MOVE UP TO 17.5 cm", though a Unit under hold
    orders makes no Move Reaction and no Changeover move (the rule data's reading). Its box now says "No Move"
    under the hold orders' name; a free Unit's still gives its distance and the sum behind it."""
    from generator.build import Options, choose_seed, compute, render_html_cards

    scenario = load(SCENARIOS / "warspike-hold-the-ford.yaml")
    _, sheet = compute(scenario, choose_seed(scenario, None), Options())
    html = render_html_cards(scenario, sheet)
    boxes = re.findall(r'<div class="ws-move[^"]*">(.*?)</div>', html)
    words = [" ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", box)).split()) for box in boxes]
    held = [w for w in words if w.startswith("Hold orders")]
    free = [w for w in words if w.startswith("Move up to")]
    assert len(held) == 3 and len(free) == 5 and len(words) == 8
    assert all(w == "Hold orders No Move Holds its ground and reacts" for w in held)
    assert "Move up to 12.5 cm Stature × move rate = 5 × 2.5" in free
    assert "17.5 cm" not in " ".join(held)


@pytest.mark.parametrize("name, free", [("warspike-hold-the-ford", False), ("warspike-bridge-race", True)])
def test_a_battle_whose_retaliating_units_all_hold_skips_what_they_cannot_do(name, free):
    """A fresh read of the Ford: every Unit of the war band, the only side ever Retaliator, holds, yet its pack
    printed the tracker's "C Changeover move", a Changeover step not marked skipped, "Countering a Move" in the
    reference and a note on the Move Reaction's card it has no more, and a Move on every holding row of the
    roster while their cards say "No Move". Where a Unit that can be Retaliator is free (the Aller bridge), all of
    it prints."""
    from generator import build

    scenario = load(SCENARIOS / f"{name}.yaml")
    pack, sheet = build.compute(scenario, build.choose_seed(scenario, None), build.Options())
    page = build.render_html(scenario, pack, sheet)[0]
    words = " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    tracker = words[words.index("Turn tracker") :]
    assert ("C Changeover move (Retaliator)" in tracker) is free
    changeover = re.search(r"5: Changeover (Skipped in this battle )?", words)
    assert (changeover.group(1) is None) is free
    counter = get("warspike").rules.movement_counter
    assert (f"{counter.name}: {counter.reference}" in words) is free
    notes = words[words.index("Notes: gaps filled") :]
    assert (f"{counter.name}." in notes) is free
    rows = [r for r in re.findall(r"<tr class=\"(?:unit|block)[^\"]*\">.*?</tr>", page, re.S)]
    held = [r for r in rows if "<b>Hold</b>" in r]
    assert held and all(">No Move<" in r for r in held)
    assert all(">No Move<" not in r for r in rows if r not in held)


def test_the_covers_instigator_line_is_labelled_for_the_turns_it_speaks_of():
    """A fresh read of the Ford: the cover's box was headed "Turn 1." over a line about every turn (only the Romans
    can be Instigator); and a scenario naming its Instigator where one side alone can be one was told "Advantage
    decides every later turn", in a battle that tallies none."""
    from generator.systems.warspike.pack import first_turn

    def label(name: str, instigator: str | None = None) -> tuple[str, str]:
        prepared = WS.prepare(load(SCENARIOS / f"{name}.yaml"), 1)
        if instigator is not None:
            prepared.settings = dataclasses.replace(prepared.settings, instigator=instigator)
        data = WS.pack(prepared)
        return data["first_turn_label"], data["first_turn"]

    assert label("warspike-hold-the-ford")[0] == "Each turn."
    assert label("warspike-bridge-race")[0] == "Turn 1."
    named = label("warspike-hold-the-ford", "Legio II Augusta")
    assert named[0] == "Turn 1." and "Advantage" not in named[1]
    assert named[1].endswith(
        "each later turn Legio II Augusta becomes Instigator or passes, whoever wins the coin toss."
    )
    forces = WS.prepare(load(SCENARIOS / "warspike-bridge-race.yaml"), 1).forces
    assert first_turn("X", forces).endswith("Advantage decides every later turn.")


def test_a_unit_card_says_how_far_it_moves_in_a_block_kept_to_a_slower_unit():
    """Left noticed at stop 48: the Ford's Contubernium I card said "Move up to 15 cm" while its Half-Centuria moves
    at Contubernium IV's 12.5 cm (the rule data's block_move reading), which only the roster said. A card now names
    each Block that keeps its Unit slower, with the distance; a Block no slower than the Unit (First pair) and a
    holding Unit's card say nothing more."""
    from generator.build import Options, choose_seed, compute, render_html_cards

    scenario = load(SCENARIOS / "warspike-hold-the-ford.yaml")
    _, sheet = compute(scenario, choose_seed(scenario, None), Options())
    html = render_html_cards(scenario, sheet)
    lines = {}
    for face in re.finditer(r'<div class="unit"[^>]*>(.*?)</div>(.*?)(?=<div class="unit"|\Z)', html, re.S):
        found = re.search(r'<div class="ws-block-move"[^>]*>(.*?)</div>', face.group(2))
        text = " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split()) if found else ""
        lines[html_lib.unescape(face.group(1))] = text
    assert {name for name, line in lines.items() if line} == {
        "Optio’s Contubernium",
        "Contubernium I",
        "Contubernium II",
        "Contubernium III",
    }
    assert lines["Contubernium I"] == "In Half-Centuria: 12.5 cm , as its slowest Unit"
    assert lines["Optio’s Contubernium"] == "In Half-Centuria: 12.5 cm , as its slowest Unit"
    assert lines["Contubernium III"] == "In Second pair or Half-Centuria: 12.5 cm , as its slowest Unit"
    assert lines["Contubernium IV"] == ""
    assert lines["Spearmen of the ford"] == ""  # holds: its box says No Move


def test_the_coin_toss_line_leaves_the_last_word_to_the_scenarios_victory():
    """Left noticed at stop 48: the Ford's Victory gives the Britons the game when every turn is struck off, while its
    reference said the same end was "(a draw)". The coin-toss rule now says a draw unless the Victory says otherwise."""
    pack = _ford_and_race_packs()["warspike-hold-the-ford"]
    words = " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", pack)).split())
    assert "every turn is struck off (a draw)" not in words
    assert "every turn is struck off (a draw, unless the scenario’s Victory says otherwise)" in words


def test_the_turn_sequence_offers_the_retaliator_only_the_reactions_its_units_may_make():
    """A fresh read of the Ford: step 2 of the turn sequence offered "Move, Shoot, Engage or Special", though every
    Unit that is ever Retaliator holds and cannot Move. The step now names the Reactions this battle's Retaliators
    may make; the Race, whose Retaliators may move, keeps all four, and step 1 every Action."""
    packs = _ford_and_race_packs()
    ford, race = packs["warspike-hold-the-ford"], packs["warspike-bridge-race"]
    step = "Choose a Reaction for the targeted Unit, at no enemy but the active Unit:"
    assert f"{step} Shoot, Engage or Special. The Retaliator" in ford
    assert f"{step} Move, Shoot, Engage or Special. The Retaliator" in race
    for pack in (ford, race):
        assert "assign it an Action: Move, Shoot, Engage or Special. A Block" in pack
        assert "{actions}" not in pack and "{reactions}" not in pack


@pytest.mark.parametrize(
    "seconds, said", [(420, "7 minutes"), (280, "4 minutes 40 seconds"), (60, "1 minute"), (50, "50 seconds")]
)
def test_a_games_battle_time_is_said_in_minutes_and_seconds(seconds, said):
    """A new user's club file of 20-second turns: the Ford's cover said "4.67 minutes of battle time"."""
    from generator.systems.warspike.pack import battle_time

    assert battle_time(seconds) == said
