"""Issue 15: each side's secret orders in a handout of its own, never in the shared pack."""

from __future__ import annotations

import re

from conftest import SCENARIOS
from pypdf import PdfReader

from generator.build import load
from generator.scenario import file_slugs

RACE = SCENARIOS / "warspike-bridge-race.yaml"
# the example gives each side orders, and the King's Own a flank guard the Jäger do not know of
ORDERED = RACE.read_text(encoding="utf-8")


def _text(pdf, maps: bool = True) -> str:
    """A PDF's words; without its map pages where not `maps`."""
    pages = [page.extract_text() for page in PdfReader(pdf).pages]
    return " ".join(" ".join(page for page in pages if maps or "Your deployment" not in page).split())


def test_each_sides_orders_print_in_its_own_handout_and_never_in_the_shared_pack(tmp_path, muster):
    """Each side's briefing printed in the shared Forces section for both players to read, and a scenario had no
    way to give a side orders the other must not see. A side's `orders` print in NAME-orders-SIDE.pdf alone, with
    the side's forces (not the enemy's) and its own map: its hidden zone drawn there and on no other page."""
    assert ORDERED.count("    orders: |") == 2 and "hidden: true" in ORDERED
    path = tmp_path / "race.yaml"
    path.write_text(ORDERED, encoding="utf-8")
    result = muster("build", path, "--out", tmp_path / "out")
    assert result.code == 0, result.err
    folder = tmp_path / "out" / "race"
    assert sorted(p.name for p in folder.glob("*.pdf")) == [
        "race-cards.pdf",
        "race-counters.pdf",
        "race-orders-kings-own-rifles.pdf",
        "race-orders-landwehr-jager.pdf",
        "race.pdf",
    ]
    shared = _text(folder / "race.pdf") + _text(folder / "race-cards.pdf")
    rifles = _text(folder / "race-orders-kings-own-rifles.pdf")
    jager = _text(folder / "race-orders-landwehr-jager.pdf")
    assert "do not blow it" in rifles and "do not blow it" not in shared + jager
    assert "guns come up at" in jager and "guns come up at" not in shared + rifles
    # its own forces, not the enemy's (the map, on a page of its own, labels every Unit the scenario places)
    rifles_forces = _text(folder / "race-orders-kings-own-rifles.pdf", maps=False)
    jager_forces = _text(folder / "race-orders-landwehr-jager.pdf", maps=False)
    assert "1 Sec Alpha" in rifles_forces and "Gruppe 1 Trupp A" not in rifles_forces
    assert "Gruppe 1 Trupp A" in jager_forces and "1 Sec Alpha" not in jager_forces
    # the hidden zone: on the Rifles' own map and in their deployment line, nowhere else
    assert "Flank guard" in rifles
    assert "Flank guard" not in shared and "Flank guard" not in jager
    assert "King’s Own Rifles deploys 22–52″ across and 36–44″ down and Flank guard" in rifles


def test_a_handout_left_by_an_earlier_build_goes_when_its_orders_do(tmp_path, muster):
    """A handout from an earlier build, for a side whose orders were since taken out, would be printed with the
    new pack: the build removes it."""
    path = tmp_path / "race.yaml"
    path.write_text(ORDERED, encoding="utf-8")
    assert muster("build", path, "--out", tmp_path / "out").code == 0
    path.write_text(
        re.sub(r"    orders: \|\n      The Zug is to.*?\n(?=    briefing:)", "", ORDERED, flags=re.S), "utf-8"
    )
    assert muster("build", path, "--out", tmp_path / "out").code == 0
    names = sorted(p.name for p in (tmp_path / "out" / "race").glob("*-orders-*.pdf"))
    assert names == ["race-orders-kings-own-rifles.pdf"]


def test_a_scenario_without_orders_writes_no_handout(built):
    pack, _ = built("warspike-hold-the-ford")
    assert not list(pack.parent.glob("*-orders-*"))


def test_side_names_become_plain_file_names():
    assert file_slugs(["!!", "??"]) == ["side-1", "side-2"]
    assert file_slugs(["King's Own Rifles", "Landwehr Jäger", "<>", "Red", "red"]) == [
        "kings-own-rifles",
        "landwehr-jager",
        "side-3",
        "red",
        "red-5",
    ]


def test_the_shared_map_leaves_out_a_hidden_zone_and_its_sides_map_draws_it(tmp_path):
    path = tmp_path / "race.yaml"
    path.write_text(ORDERED, encoding="utf-8")
    scenario = load(path)
    system = scenario.system
    prepared = system.prepare(scenario, 0)
    assert "Flank guard" not in str(prepared.map)
    assert "Flank guard" in str(system.side_table(prepared, 0)["map"])
    assert "Flank guard" not in str(system.side_table(prepared, 1)["map"])


def test_a_booklet_prints_each_sides_orders_at_the_end_of_its_chapter_marked_for_cutting_out(tmp_path, muster):
    """A booklet prints a chapter's orders after the rest of it, each side's on a page of its own in a frame to cut
    along, its hidden zone drawn on its own page alone; the chapter's shared pages print none of them."""
    out = tmp_path / "book.pdf"
    result = muster("booklet", RACE, "--out", out, "--no-cache")
    assert result.code == 0, result.err
    pages = [" ".join(page.extract_text().split()) for page in PdfReader(out).pages]
    cut = [i for i, page in enumerate(pages) if "Cut out along the dashed line" in page]
    assert len(cut) == 2, cut
    rifles, jager = (pages[i] for i in cut)
    assert "Orders: King’s Own Rifles" in rifles and "do not blow it" in rifles and "Flank guard" in rifles
    assert "Orders: Landwehr Jäger" in jager and "guns come up at" in jager and "Flank guard" not in jager
    chapter = [page for i, page in enumerate(pages) if "Race for the Aller Bridge" in page and i < cut[0]]
    assert chapter, "the chapter's pages come before its orders"
    shared = " ".join(page for i, page in enumerate(pages) if i not in cut)
    for secret in ("do not blow it", "guns come up at", "Flank guard"):
        assert secret not in shared, secret
    # the page between the slips left blank: printed double-sided, the back of the Rifles' orders is not the
    # Jäger's (a fresh read found them on the two faces of one sheet)
    assert cut[1] == cut[0] + 2
    assert "Left blank" in pages[cut[0] + 1]
    assert not any(word in pages[cut[0] + 1] for word in ("blow", "noon", "Flank guard"))
    assert "Left blank" in pages[cut[1] + 1]  # and after the last: cutting it out spares the next chapter
    assert all("Cut out" not in page for page in pages[cut[1] + 1 :])


def test_two_sides_whose_names_make_one_handout_name_are_refused(tmp_path, muster):
    """A new user's trial: sides 'RED LEGION!' and 'Red Legion' wrote red-legion.pdf holding the first side's
    secret orders and red-legion-2.pdf the second's: handed out by name, each side got the other's orders."""
    text = ORDERED.replace("name: King's Own Rifles", "name: LANDWEHR JÄGER!")
    path = tmp_path / "twins.yaml"
    path.write_text(text, encoding="utf-8")
    result = muster("validate", path)
    assert result.code == 1
    assert "would name their orders handouts alike (…-orders-landwehr-jager.pdf)" in result.err


def test_a_hidden_zone_on_a_side_without_orders_is_refused(tmp_path, muster):
    """A new user's trial: a hidden zone on a side with no orders validated and built, and printed on no map."""
    text = re.sub(r"    orders: \|\n      Brigade wants.*?\n(?=    briefing:)", "", ORDERED, flags=re.S)
    assert text.count("    orders: |") == 1
    path = tmp_path / "hidden.yaml"
    path.write_text(text, encoding="utf-8")
    result = muster("validate", path)
    assert result.code == 1
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "hidden: true" in row)
    assert f"hidden.yaml:{line}:" in result.err
    assert "deployment[1].hidden: a hidden zone is drawn only on its side's orders handout" in result.err


def test_the_cards_say_no_deck_number_where_the_system_has_none(built):
    """A new user's trial: a WarSpike cards PDF's description ended 'deck number None'."""
    _, cards = built("warspike-bridge-race")
    assert "None" not in str(PdfReader(cards).metadata)


def test_an_orders_slip_never_joins_the_page_before_it():
    """A new user's trial: a booklet chapter laid the Garrison's orders slip below the Raiders' roster, on a page
    the roster left mostly blank: cutting the slip out cut the roster. A slip is never offered to join the page
    before it."""
    from generator.build import Options, Parts, choose_seed, compute, pack_html
    from generator.engine import _SHEET

    scenario = load(RACE)
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False, book=True)
    html = pack_html(scenario, pack, Parts.chapter(scenario.system), booklet=True)
    assert 'class="part sheet orders-cut"' in html
    assert not [sheet for sheet in _SHEET.findall(html) if sheet.startswith("orders")]
    assert "map" in _SHEET.findall(html)


def test_two_sides_named_without_a_letter_each_get_their_own_handout(tmp_path, muster):
    text = ORDERED.replace("name: King's Own Rifles", "name: '!!'").replace("name: Landwehr Jäger", "name: '??'")
    text = text.replace("King's Own Rifles", "!!").replace("Landwehr Jäger", "??")
    path = tmp_path / "marks.yaml"
    path.write_text(text, encoding="utf-8")
    result = muster("validate", path)
    assert "would name their orders handouts alike" not in result.err
