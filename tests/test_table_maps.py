"""Issue 15: one table map for every system measured in inches or centimetres: terrain, several deployment zones a
side (rectangles, polygons, table edges), objectives; the places the WarSpike examples' briefings name drawn."""

from __future__ import annotations

import re

import pytest
from conftest import SCENARIOS
from pypdf import PdfReader

from generator import tablemap
from generator.build import load
from generator.systems.fireteam.map import table_map
from generator.systems.fireteam.scenario import read

RELAY = (SCENARIOS / "relay-station.yaml").read_text(encoding="utf-8")
# the Marines drop onto the compound's north side and a second wave walks on from the west edge; Security holds
# the relay block and a strip along the east edge
ZONED = RELAY.replace(
    "    deployment: [0, 0, 14, 48]\n",
    "    deployment:\n      - {edge: west}\n      - {name: Drop, polygon: [[20, 2], [30, 2], [34, 10], [18, 10]]}\n",
).replace(
    "    deployment: [18, 16, 30, 28]\n",
    "    deployment:\n      - {rect: [18, 16, 18, 12], name: Inside}\n      - {edge: east, depth: 8}\n",
)


def _pack_text(pdf) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(pdf).pages).split())


def test_a_side_deploys_in_several_zones_polygons_and_from_a_table_edge(tmp_path, muster):
    """Fireteam allowed one deployment rectangle a side: an ambush from both canyon walls, or a wave that walks on
    from a table edge, could not be written. A side's `deployment` may be a list of zones: rectangles, polygons,
    a strip along an edge (`edge` and `depth`) or an edge the side enters from (`edge` alone), each drawn
    hatched in the side's pattern, and said in words under the map."""
    assert ZONED != RELAY
    path = tmp_path / "relay-zones.yaml"
    path.write_text(ZONED, encoding="utf-8")
    assert muster("validate", path).code == 0
    scenario = load(path)
    battle, forces = read(scenario)
    svg = str(table_map(scenario.system.rules, battle, forces, scenario.side_views).svg())
    # every zone hatched in its side's pattern: the Marines' entry strip and drop zone, Security's two zones
    assert svg.count('fill="url(#side0)"') == 2
    assert svg.count('fill="url(#side1)"') == 2
    # the drop zone's own corners, and three arrows onto the table from the west edge in the Marines' green
    assert 'points="20,2 30,2 34,10 18,10"' in svg
    assert len(re.findall(r'<polygon points="[^"]+" fill="#3b7a35" stroke="#000" stroke-width="0.08"', svg)) == 3
    result = muster("build", path, "--out", tmp_path / "out")
    assert result.code == 0, result.err
    text = _pack_text(tmp_path / "out" / "relay-zones" / "relay-zones.pdf")
    assert (
        "Orbital Marines enters from the west edge and Drop (in the outline drawn, 18–34″ across and 2–10″ down)"
        in text
    )
    assert "Syndicate Security Inside (18–36″ across and 16–28″ down) and within 8″ of the east edge" in text


@pytest.mark.parametrize(
    "marines, security, clash",
    [
        ("[14, 16, 10, 10]", "[18, 16, 30, 28]", True),  # two rectangles: 6 inches of one inside the other
        ("[0, 0, 18, 48]", "[18, 16, 30, 28]", False),  # touching along x = 18: allowed
        # a polygon's corner reaching into the rectangle: Shapely measures what the bounding boxes cannot
        ("\n      - {polygon: [[0, 0], [20, 20], [0, 40]]}", "[18, 16, 30, 28]", True),
        ("\n      - {polygon: [[0, 0], [17, 20], [0, 40]]}", "[18, 16, 30, 28]", False),
        ("\n      - {edge: east, depth: 4}", "[18, 16, 30, 28]", True),  # the strip x 44-48 is in Security's zone
        ("\n      - {edge: east}", "[18, 16, 30, 28]", False),  # entering from an edge deploys nowhere
    ],
)
def test_opposing_deployment_zones_may_not_overlap(marines, security, clash, tmp_path, muster):
    """Validation caught zones off the table but not two sides deployed on top of each other. Zones of opposing
    sides may touch, not overlap: the later side's zone is refused at its line and column, naming the other."""
    text = RELAY.replace("deployment: [0, 0, 14, 48]", f"deployment: {marines}").replace(
        "deployment: [18, 16, 30, 28]", f"deployment: {security}"
    )
    path = tmp_path / "clash.yaml"
    path.write_text(text, encoding="utf-8")
    result = muster("validate", path)
    if clash:
        assert result.code == 1
        line = text.splitlines().index(f"    deployment: {security}") + 1
        assert (
            f"clash.yaml:{line}:17: sides[1].deployment: overlaps the deployment zone of Orbital Marines" in result.err
        )
        assert "Traceback" not in result.err
    else:
        assert result.code == 0, result.err


def test_an_off_table_zone_of_a_list_is_reported_at_its_shape(tmp_path, muster):
    text = ZONED.replace("[[20, 2], [30, 2], [34, 10], [18, 10]]", "[[20, 2], [30, 2], [54, 10], [18, 10]]")
    path = tmp_path / "off.yaml"
    path.write_text(text, encoding="utf-8")
    result = muster("validate", path)
    assert result.code == 1
    assert 'sides[0].deployment[1].polygon: reaches 6" past the east edge of the 48" x 48" table' in result.err


def _warspike(tmp_path, old: str, new: str, name: str = "ws.yaml"):
    text = (SCENARIOS / "warspike-hold-the-ford.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path, text.replace(old, new)


def test_warspike_refuses_an_unknown_terrain_kind_with_did_you_mean_and_a_piece_off_its_table_in_cm(tmp_path, muster):
    """WarSpike scenarios gain a table, terrain, deployment and objectives, checked like Fireteam's: a terrain kind
    must be one of the rule data's (with "did you mean"), and every length is in the scenario's unit."""
    path, text = _warspike(
        tmp_path, "{kind: ford, name: The ford, rect: [52, 37, 16, 10]}", "{kind: orchad, rect: [52, 37, 16, 10]}"
    )
    result = muster("validate", path)
    assert result.code == 1
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "kind: orchad" in row)
    assert f"ws.yaml:{line}:" in result.err
    assert "did you mean 'orchard'" in result.err
    path, _ = _warspike(tmp_path, "rect: [52, 37, 16, 10]", "rect: [110, 37, 16, 10]", "off.yaml")
    result = muster("validate", path)
    assert result.code == 1
    assert "terrain[1].rect: reaches 6 cm past the east edge of the 120 cm x 90 cm table" in result.err


def test_warspike_sides_may_not_deploy_on_top_of_each_other(tmp_path, muster):
    path, _ = _warspike(tmp_path, "rect: [36, 18, 48, 16]", "rect: [36, 60, 48, 16]")
    result = muster("validate", path)
    assert result.code == 1
    assert "sides[1].deployment[0].rect: overlaps the deployment zone of Legio II Augusta" in result.err


@pytest.mark.parametrize(
    "name, places, measure",
    [
        (
            "warspike-bridge-race",
            ("River Aller", "Aller bridge", "Mill", "Mill race", "Mill-race wall", "Orchard wall", "The bridge"),
            "72″ × 48″ table, measured in inches",
        ),
        (
            "warspike-hold-the-ford",
            ("Afon Du", "The ford", "Far bank", "Coed Du"),
            "120 cm × 90 cm table, measured in centimetres",
        ),
        ("vesta-relay", ("Vesta Ridge", "Compound wall", "Relay station", "Mast", "Scrub"), "48″ × 48″ table"),
        ("vesta-relay-discipline", ("Vesta Ridge", "Compound wall", "Relay station", "Mast", "Scrub"), "48″ × 48″"),
    ],
)
def test_the_warspike_and_para_bellum_examples_print_a_map_of_the_places_their_briefings_name(
    name, places, measure, built
):
    """The WarSpike example "Race for the Aller Bridge" has a bridge, a mill-race wall and an orchard wall that no
    page showed, the Ford its ford, and the Vesta Relay its compound, mast and scrub. Each prints a map page with
    them, its deployment zones and its unit of measure; the note says the rules give terrain no effect."""
    pack, _ = built(name)
    pages = [" ".join(page.extract_text().split()) for page in PdfReader(pack).pages]
    table = next((page for page in pages if measure in page), "")
    assert table, f"no page says {measure!r}"
    for place in places:
        assert place in table, place
    assert "Deployment:" in table
    assert "terrain no rule" in table or "say nothing of terrain" in table


def test_a_table_in_centimetres_draws_its_patterns_and_lines_for_centimetres():
    """A 120 cm table drew its woods' trees, hill contours and every outline at a third of their size: they were
    drawn for inches in units of a centimetre. A map in centimetres draws them 2.54 units an inch."""
    inches = tablemap.TableMap(48, 36)
    cm = tablemap.TableMap(120, 90, per_inch=2.54)
    assert 'patternTransform="scale(2.54)"' in str(cm.svg())
    assert "patternTransform" not in str(inches.svg())
    frame = re.compile(
        r'<rect x="0" y="0" width="[\d.]+" height="[\d.]+" fill="#f7f5ee" stroke="#000" stroke-width="([\d.]+)"'
    )
    assert float(frame.search(str(cm.svg())).group(1)) == pytest.approx(
        2.54 * float(frame.search(str(inches.svg())).group(1))
    )


def test_para_bellum_checks_its_table_like_the_others(tmp_path, muster):
    """Para Bellum scenarios gain the same keys, checked the same way: a terrain kind with "did you mean", zones of
    opposing sides that overlap."""
    text = (SCENARIOS / "vesta-relay.yaml").read_text(encoding="utf-8")
    bad = text.replace("{kind: building, name: Barracks", "{kind: buildings, name: Barracks").replace(
        "deployment: [0, 40, 48, 8]", "deployment: [0, 30, 48, 8]"
    )
    assert bad.count("buildings") == 1 and "[0, 30, 48, 8]" in bad
    path = tmp_path / "vesta.yaml"
    path.write_text(bad, encoding="utf-8")
    result = muster("validate", path)
    assert result.code == 1
    assert "did you mean 'building'" in result.err
    assert "sides[1].deployment: overlaps the deployment zone of Concord Garrison" not in result.err  # shape first
    path.write_text(bad.replace("buildings", "building"), encoding="utf-8")
    result = muster("validate", path)
    assert result.code == 1
    assert "sides[1].deployment: overlaps the deployment zone of Concord Garrison" in result.err


def test_a_zone_on_a_hill_is_hatched_over_it_and_a_named_zone_is_labelled_inside_itself():
    """A fresh read: the Ford's war band deploys on the far bank's hill and its hatching, drawn under all terrain,
    could not be seen; and the Rifles' 'King's Own Rifles: Flank guard' was wider than its zone and printed outside
    it, across a wall. Open ground (a hill, a field) lies under the hatching, and a named zone is labelled by its
    name (the side's badge beside it), inside the zone."""
    scenario = load(SCENARIOS / "warspike-hold-the-ford.yaml")
    svg = str(scenario.system.prepare(scenario, 0).map)
    hill = svg.index('fill="url(#contour)"')
    assert svg.index('fill="url(#side1)"') > hill
    race = load(SCENARIOS / "warspike-bridge-race.yaml")
    system = race.system
    view = system.prepare(race, 0).table_view
    drawing = tablemap.table_map(view.battle, view.on_table, view.sides, viewer=0)
    placed = {p.label.text: p.box for p in drawing.place_labels()}
    assert "Flank guard" in placed
    box = placed["Flank guard"]
    assert 60 <= box.left and box.right <= 70 and 30 <= box.top and box.bottom <= 42, box


def test_a_strip_deeper_than_the_table_is_refused(tmp_path, muster):
    """A new user's trial: {edge: north, depth: 200} on a 150 x 100 cm table built, the whole table hatched."""
    path, text = _warspike(tmp_path, "{name: Ridge line, rect: [36, 18, 48, 16]}", "{edge: north, depth: 100}")
    result = muster("validate", path)
    assert result.code == 1
    assert "deployment[0].depth: a strip 100 cm deep from the north edge reaches past the south edge" in result.err


def test_an_overlap_names_the_other_sides_zone_by_its_name(tmp_path, muster):
    """A new user's trial: "overlaps Blue Guards's deployment zone 1" named the zone by a number it does not print
    and wrote "Guards's"."""
    text = ZONED.replace("{rect: [18, 16, 18, 12], name: Inside}", "{rect: [18, 4, 18, 12], name: Inside}")
    path = tmp_path / "named.yaml"
    path.write_text(text, encoding="utf-8")
    result = muster("validate", path)
    assert result.code == 1
    assert "overlaps the deployment zone 'Drop' of Orbital Marines" in result.err
