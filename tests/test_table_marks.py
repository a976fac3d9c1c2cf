"""Issue 15: what a side puts on a table map besides its zones: units' starting points (`at`), reinforcements
arriving during the game, and planned moves drawn as arrows; each checked on the table at its line and column,
and a hidden one drawn on its own side's orders map alone."""

from __future__ import annotations

import re

import pytest
from conftest import SCENARIOS
from pypdf import PdfReader

from generator import tablemap
from generator.build import load
from generator.labels import curl_quotes
from generator.table import OnTable, Reinforcement, TableSize, point_words, side_words


def _text(pdf) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(pdf).pages).split())


def _write(tmp_path, example: str, old: str, new: str, name: str = "marks.yaml"):
    """The example with `old` replaced by `new` (exactly once), written to tmp_path; its path and its text."""
    text = (SCENARIOS / example).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path, text


def _line_of(text: str, fragment: str) -> int:
    return next(n for n, row in enumerate(text.splitlines(), 1) if fragment in row)


def test_every_example_with_a_table_shows_its_units_reinforcements_and_moves_where_it_gives_them():
    """Units may be given starting positions and are then drawn with their side's shape and a label: every unit an
    example places is a token on its map in its side's colour with its name; the Vesta raiders' Outriders arrive
    by an arrow from the east edge; relay-station's two thrusts are dashed arrows; the legend names each."""
    for name, tokens in (("bridge", 6), ("relay-station", 5), ("warspike-hold-the-ford", 8), ("vesta-relay", 1)):
        scenario = load(SCENARIOS / f"{name}.yaml")
        prepared = scenario.system.prepare(scenario, 0)
        svg = str(prepared.map)
        # a token: a white ground, the side's shape in its colour, a white dot at its middle (and one in the legend)
        dots = re.findall(r'<circle cx="[\d.]+" cy="[\d.]+" r="[\d.]+" fill="#ffffff"/>', svg)
        assert len(dots) == tokens + 1, (name, len(dots))
        placed = _placed(prepared)
        for side in prepared.table_view.on_table:
            for unit, _, _ in side.units:
                assert curl_quotes(unit) in placed, (name, unit)
        assert "Unit’s start" in svg
    vesta = load(SCENARIOS / "vesta-relay.yaml")
    prepared = vesta.system.prepare(vesta, 0)
    assert "Outriders (turn 2)" in _placed(prepared) and ">Reinforcements<" in str(prepared.map)
    relay = load(SCENARIOS / "relay-station.yaml")
    prepared = relay.system.prepare(relay, 0)
    svg = str(prepared.map)
    assert {"Skyhook jumps to the roof", "Gatecrash storms the gate"} <= _placed(prepared)
    assert len(re.findall(r'stroke="#3b7a35" stroke-width="[\d.]+" stroke-linejoin="round" stroke-dasharray', svg)) == 2
    assert ">Planned move<" in svg


def _placed(prepared) -> set[str]:
    view = prepared.table_view
    drawing = tablemap.table_map(
        view.battle, view.on_table, view.sides, view.cover, view.edges, view.unit, turn_word=view.turn_word
    )
    return {p.label.text for p in drawing.place_labels()}


def test_a_reinforcement_is_said_under_the_map_and_its_arrow_points_onto_the_table(tmp_path, muster):
    """The note under the map says when and where each side's reinforcements come on, in the map's measures; the
    arrow's tail is on the edge's point and its head inside the table."""
    out = tmp_path / "out"
    assert muster("build", SCENARIOS / "vesta-relay.yaml", "--out", out).code == 0
    text = _text(out / "vesta-relay" / "vesta-relay.pdf")
    assert (
        "Free Colonies Raiders 0–48″ across and 40–48″ down; its reinforcements: Outriders on turn 2, on the east "
        "edge, 30″ down" in text
    )
    drawing = tablemap.TableMap(48, 48)
    drawing.reinforcement(48, 30, "#b0352b", "Outriders")
    corners = [tuple(map(float, p.split(","))) for p in re.search(r'points="([^"]+)"', drawing.marks[0])[1].split()]
    assert max(x for x, _ in corners) == pytest.approx(48)  # the tail on the east edge
    assert min(x for x, _ in corners) < 48 - 2 * drawing.font  # the head well inside the table
    assert all(29 <= y <= 31 for _, y in corners)


def test_point_and_side_words():
    table = TableSize(72, 48)
    assert point_words([0, 24], table, "″") == "on the west edge, 24″ down"
    assert point_words([30, 48], table, "″") == "on the south edge, 30″ across"
    assert point_words([30, 12.5], table, "″") == "at 30″ across, 12.5″ down"
    arriving = Reinforcement(name="Second column", at=[72, 10], turn=4)
    quiet = Reinforcement(name="Scouts", at=[0, 0], hidden=True)
    side = OnTable([0, 0, 12, 48], [arriving, quiet])
    said = "0–12″ across and 0–48″ down; its reinforcements: Second column on turn 4, on the east edge, 10″ down"
    assert side_words(side, table, "″") == said
    # on the side's own orders its hidden one is said too, marked secret
    assert side_words(side, table, "″", hidden=True) == said + " and Scouts, on the west edge, 0″ down (secret)"
    assert side_words(OnTable(None, [arriving]), table, "″").startswith("has reinforcements: Second column")
    assert side.hidden and not OnTable([0, 0, 12, 48], [arriving]).hidden


@pytest.mark.parametrize(
    "example, old, new, key",
    [
        ("bridge.yaml", "        at: [22, 43]\n", "        at: [75, 43]\n", "sides[0].teams[1].at"),
        (
            "relay-station.yaml",
            "        at: [42, 24]\n",
            "        at: [42, 52]\n",
            "sides[1].vehicles[0].at",
        ),
        (
            "warspike-hold-the-ford.yaml",
            "leader: Gwion, mentality: 4, hold: true, at: [76, 22]}",
            "leader: Gwion, mentality: 4, hold: true, at: [126, 22]}",
            "sides[1].units[2].at",
        ),
        ("vesta-relay.yaml", "        at: [24, 37]\n", "        at: [24, 50]\n", "sides[0].units[1].at"),
        (
            "vesta-relay.yaml",
            "{name: Outriders, at: [48, 30], turn: 2}",
            "{name: Outriders, at: [51, 30], turn: 2}",
            "sides[1].reinforcements[0].at",
        ),
        (
            "relay-station.yaml",
            "path: [[6.5, 20], [22, 21.5]]",
            "path: [[6.5, 20], [22, 51.5]]",
            "sides[0].moves[0].path",
        ),
    ],
)
def test_a_position_off_the_table_is_refused_at_its_line(example, old, new, key, tmp_path, muster):
    """Validation catches positions off the table: a team's, vehicle's or unit's `at`, a reinforcement's point and
    a planned move's path, each at its line and column, saying which edge and how far."""
    path, text = _write(tmp_path, example, old, new)
    result = muster("validate", path)
    assert result.code == 1, result.out
    line = _line_of(text, new.strip().split("\n")[0])
    assert re.search(rf"marks\.yaml:{line}:\d+: {re.escape(key)}: reaches [\d.]+(″| cm| ?\") past the", result.err), (
        result.err
    )
    assert "Traceback" not in result.err


def test_a_hidden_move_is_drawn_on_its_own_sides_orders_map_alone(tmp_path, muster):
    """The Jäger's planned rush on the bridge is theirs to know: its arrow and name are on the Jäger's orders map,
    not on the shared map nor on the Rifles' handout."""
    out = tmp_path / "out"
    assert muster("build", SCENARIOS / "warspike-bridge-race.yaml", "--out", out).code == 0
    folder = out / "warspike-bridge-race"
    jager = _text(folder / "warspike-bridge-race-orders-landwehr-jager.pdf")
    rifles = _text(folder / "warspike-bridge-race-orders-kings-own-rifles.pdf")
    shared = _text(folder / "warspike-bridge-race.pdf")
    assert "Gruppe 1 rushes the bridge" in jager
    assert "Gruppe 1 rushes the bridge" not in rifles + shared
    assert "What of yours the shared map leaves out is drawn here alone" in jager


@pytest.mark.parametrize(
    "old, new, key",
    [
        (
            "    reinforcements:\n      - {name: Outriders, at: [48, 30], turn: 2}\n",
            "    reinforcements:\n      - {name: Outriders, at: [48, 30], turn: 2, hidden: true}\n",
            "sides[1].reinforcements[0].hidden",
        ),
        (
            "    reinforcements:\n",
            "    moves:\n      - {path: [[24, 44], [24, 35]], hidden: true}\n    reinforcements:\n",
            "sides[1].moves[0].hidden",
        ),
    ],
)
def test_a_hidden_reinforcement_or_move_needs_orders(old, new, key, tmp_path, muster):
    """A hidden reinforcement or move prints only on its side's orders handout: on a side without orders, nowhere.
    It is refused, as a hidden zone is."""
    path, _ = _write(tmp_path, "vesta-relay.yaml", old, new)
    result = muster("validate", path)
    assert result.code == 1
    assert f"{key}: a hidden " in result.err and "has no `orders`" in result.err


def test_a_move_whose_name_has_no_room_beside_it_sits_further_out_on_a_leader():
    """A fresh read: 'Gruppe 1 rushes the bridge' sat on 'Orchard wall', its few short legs leaving no clear spot
    beside them. A planned move's name may go further out round the line's middle, on a leader line, and is then
    clear of every other label."""
    drawing = tablemap.TableMap(72, 48)
    drawing.terrain("wall", "line", [[10, 16.5], [26, 16.5]], 0.8, "Orchard wall")
    drawing.terrain("building", "rect", [27, 12, 6, 4], 2, "Inn")
    drawing.move([[31, 13], [33, 17], [35.5, 20]], "#b0352b", "Gruppe 1 rushes the bridge")
    placed = drawing.place_labels()
    assert drawing.placement.collisions() == []
    move = next(p for p in placed if p.label.text == "Gruppe 1 rushes the bridge")
    assert move.label.kind == "move"


@pytest.mark.parametrize(
    "path_yaml, where",
    [
        ("[[10, 45.5], [10, 45.5]]", "moves[1].path: a move goes somewhere"),
        ("[[10, 45.5], [24, 45.5], [24, 45.5]]", "moves[1].path[2]: the last two points are one place"),
    ],
)
def test_a_move_that_goes_nowhere_or_has_no_heading_is_refused(path_yaml, where, tmp_path, muster):
    """A new user's trial: path [[36, 6], [36, 6]] validated and printed a name with no arrow; a path whose last
    two points were one place printed a dashed line with no head, its direction lost."""
    path, _ = _write(
        tmp_path, "relay-station.yaml", "path: [[10, 45.5], [24, 45.5], [25.5, 33.5]]", f"path: {path_yaml}"
    )
    result = muster("validate", path)
    assert result.code == 1
    assert f"sides[0].{where}" in result.err


def test_reinforcements_after_the_last_turn_or_pass_are_refused(tmp_path, muster):
    """A new user's trial: `turn: 9` in an 8-turn WarSpike battle, and `turn: 7` in a Fireteam game of 6 passes,
    validated and printed arrows for troops that never come. Fireteam's reinforcements come on a pass through the
    deck, and say so."""
    path, _ = _write(
        tmp_path,
        "bridge.yaml",
        "    briefing: Hold the east bank",
        "    reinforcements:\n      - {name: Sappers, at: [72, 30], turn: 7}\n    briefing: Hold the east bank",
    )
    result = muster("validate", path)
    assert result.code == 1
    assert "sides[1].reinforcements[0].turn: the game lasts 6 passes: reinforcements on pass 7 never arrive" in (
        result.err
    )
    path.write_text(path.read_text().replace("turn: 7", "turn: 3"))
    scenario = load(path)
    assert "Sappers (pass 3)" in _placed(scenario.system.prepare(scenario, 0))
    path, _ = _write(
        tmp_path,
        "warspike-hold-the-ford.yaml",
        "    deployment: [30, 66, 60, 20]\n",
        "    deployment: [30, 66, 60, 20]\n    reinforcements:\n      - {name: Auxilia, at: [0, 80], turn: 15}\n",
        "ws.yaml",
    )
    result = muster("validate", path)
    assert result.code == 1
    assert "sides[0].reinforcements[0].turn: the game lasts 14 turns: reinforcements on turn 15 never arrive" in (
        result.err
    )


def test_a_number_out_of_range_in_a_point_is_named_at_its_entry(tmp_path, muster):
    """A new user's trial: `at: [-3, 44]` was told "expected [x, y], 2 numbers from 0 to 480 (got a list of 2
    entries)", at the list: it is a list of two. The entry that is wrong is named, at its own column."""
    path, text = _write(tmp_path, "bridge.yaml", "        at: [22, 43]\n", "        at: [22, -3]\n")
    result = muster("validate", path)
    assert result.code == 1
    line = _line_of(text, "at: [22, -3]")
    column = text.splitlines()[line - 1].index("-3") + 1
    assert f"marks.yaml:{line}:{column}: sides[0].teams[1].at[1]: y: expected a number from 0 to 480 (got -3)" in (
        result.err
    )


def test_a_reinforcement_in_a_corner_keeps_its_arrow_on_the_table():
    """A new user's trial: reinforcements at [48, 0] drew their arrow along the north edge, half off the table."""
    drawing = tablemap.TableMap(48, 48)
    drawing.reinforcement(48, 0, "#b0352b", "Relief")
    corners = [tuple(map(float, p.split(","))) for p in re.search(r'points="([^"]+)"', drawing.marks[0])[1].split()]
    assert all(-1e-6 <= x <= 48 + 1e-6 and -1e-6 <= y <= 48 + 1e-6 for x, y in corners), corners


def test_a_secret_move_is_marked_secret_on_its_sides_map_and_in_the_words_under_it(tmp_path, muster):
    """A new user's trial: the handout's map drew a hidden move like a shared one, and the words under it left it
    out. On its own side's map a hidden move's or reinforcement's name says "(secret)", and so do the words."""
    out = tmp_path / "out"
    assert muster("build", SCENARIOS / "warspike-bridge-race.yaml", "--out", out).code == 0
    jager = _text(out / "warspike-bridge-race" / "warspike-bridge-race-orders-landwehr-jager.pdf")
    assert "its planned moves: Gruppe 1 rushes the bridge (secret)" in jager
    race = load(SCENARIOS / "warspike-bridge-race.yaml")
    view = race.system.prepare(race, 0).table_view
    drawing = tablemap.table_map(view.battle, view.on_table, view.sides, viewer=1)
    assert "Gruppe 1 rushes the bridge (secret)" in {p.label.text for p in drawing.place_labels()}


@pytest.mark.parametrize("example", ["vesta-relay.yaml", "warspike-hold-the-ford.yaml"])
def test_marks_alone_give_a_map_on_the_default_table_and_are_checked_on_it(example, tmp_path, muster):
    """Reading the change back: a Para Bellum or WarSpike side's reinforcements, moves or units' starting points
    given with no table, terrain, zones or objectives were neither drawn nor checked, and the words under the map
    read a table there was none of (a crash). Such a scenario is drawn on the default table, and its marks are
    checked on it."""
    import yaml

    data = yaml.safe_load((SCENARIOS / example).read_text(encoding="utf-8"))
    for key in ("table", "terrain", "objectives"):
        data.pop(key, None)
    for side in data["sides"]:
        side.pop("deployment", None)
        side.pop("reinforcements", None)
    data["sides"][0]["reinforcements"] = [{"name": "Relief", "at": [0, 20], "turn": 2}]
    path = tmp_path / "alone.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    result = muster("build", path, "--out", tmp_path / "out")
    assert result.code == 0, result.err
    text = _text(tmp_path / "out" / "alone" / "alone.pdf")
    assert "its reinforcements: Relief on turn 2, on the west edge, 20" in text or "has reinforcements: Relief" in text
    data["sides"][0]["reinforcements"][0]["at"] = [400, 20]
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    result = muster("validate", path)
    assert result.code == 1 and "sides[0].reinforcements[0].at: reaches" in result.err


def test_a_reinforcement_just_inside_the_table_keeps_its_arrow_on_it():
    """Reading the change back: a point an inch in from an edge drew its arrow's tail a full arrow's length back
    from it, off the table."""
    drawing = tablemap.TableMap(72, 48)
    drawing.reinforcement(1.5, 20, "#b0352b", "Relief")
    corners = [tuple(map(float, p.split(","))) for p in re.search(r'points="([^"]+)"', drawing.marks[0])[1].split()]
    assert min(x for x, _ in corners) >= -1e-6, corners
    assert max(x for x, _ in corners) == pytest.approx(1.5, abs=1e-6)  # its head on the point


def test_a_reinforcement_nearer_the_edge_than_its_heads_length_keeps_its_tail_on_the_table():
    """A code review: a point between half and one and a fifth font sizes from an edge still put the tail past it
    (its arrow kept a head's length)."""
    for share in (0.6, 0.8, 1.0):
        drawing = tablemap.TableMap(72, 48)
        drawing.reinforcement(share * drawing.font, 20, "#b0352b", "Relief")
        points = re.search(r'points="([^"]+)"', drawing.marks[0])[1].split()
        assert min(float(p.split(",")[0]) for p in points) >= -1e-6, (share, points)


def test_an_orders_handout_of_a_side_with_no_zone_says_what_it_has_not_that_it_deploys(tmp_path, muster):
    """A code review: a side with only a hidden reinforcement printed "Legio II Augusta deploys has
    reinforcements: ..." on its orders handout."""
    path, _ = _write(
        tmp_path,
        "warspike-hold-the-ford.yaml",
        "    deployment: [30, 66, 60, 20]\n",
        "    orders: March on the ford.\n    reinforcements:\n"
        "      - {name: Second column, at: [0, 80], turn: 3, hidden: true}\n",
        "ford.yaml",
    )
    out = tmp_path / "out"
    result = muster("build", path, "--out", out)
    assert result.code == 0, result.err
    text = _text(out / "ford" / "ford-orders-legio-ii-augusta.pdf")
    assert "Legio II Augusta has reinforcements: Second column on turn 3" in text and "deploys has" not in text
