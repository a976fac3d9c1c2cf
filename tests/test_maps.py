"""The maps: labels placed clear of each other and of what is drawn, one symbol per unit type, objectives where named."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pdfplumber
import pytest
from conftest import SCENARIOS

from generator import fonts, tablemap
from generator.build import load
from generator.cli import main
from generator.labels import Box, crosses, within
from generator.svg import PAGE_MARGIN_MM, side_pattern
from generator.systems.fireteam import map as table
from generator.systems.fireteam.scenario import read
from generator.systems.morschauser import battlefield, glyphs, roster
from generator.systems.morschauser.looks import level_mark
from generator.systems.morschauser.map import facing_arrow
from generator.systems.morschauser.scenario import GridScenario

FIRETEAM = "fireteam-tomorrow"
MORSCHAUSER = "morschauser-modern"


def examples(system: str) -> list:
    return [path for path in sorted(SCENARIOS.glob("*.yaml")) if f"system: {system}" in path.read_text()]


def fireteam_map(path) -> tablemap.TableMap:
    scenario = load(path)
    battle, forces = read(scenario)
    return table.table_map(scenario.system.rules, battle, forces, scenario.side_views)


def any_map(path):
    """An example's map before it is drawn, whatever its system: a table map drawn as the pack draws it (units,
    reinforcements and moves and all), or Morschauser's grid."""
    if f"system: {MORSCHAUSER}" in path.read_text():
        return grid_map(path)
    scenario = load(path)
    view = scenario.system.prepare(scenario, 0).table_view
    return tablemap.table_map(
        view.battle, view.on_table, view.sides, view.cover, view.edges, view.unit, turn_word=view.turn_word
    )


MAPPED = sorted(SCENARIOS.glob("*.yaml"))  # every example prints a map


def grid_map(path):
    scenario = load(path)
    game = GridScenario.of(scenario)
    units = roster.listed(scenario.system.rules, game, scenario.side_views)
    return battlefield.grid_map(game, battlefield.terrain_map(game), units)


@pytest.mark.parametrize("path", MAPPED, ids=lambda p: p.stem)
def test_no_map_label_overlaps_another_label_a_unit_or_an_objective(path):
    """Every example map's placed labels (names, codes, level marks, deployment zones' names) are clear of each
    other, of unit markers, facing arrows and objective stars, and inside the map; and no objective's star is
    under a unit marker or its arrow (hill-112's crest stars were). A fresh read of the WarSpike maps, which this
    test did not read: the Ford's 'Contubernium IV' ran its leader through 'Contubernium III'."""
    drawing = any_map(path)
    placed = drawing.place_labels()
    assert placed, "the map has labels"
    assert drawing.placement.collisions() == []
    outside = [p.label.text for p in placed if not p.box.inside(drawing.placement.bounds)]
    assert outside == []


CLEAR_MM = 0.3  # the least paper, as printed, between two marks placed on a map (crest marks touched at 0.13 mm)
MARKS = ("label", "code", "level", "place", "terrain", "zone", "objective")  # label kinds: what the placement sets


def _mm_per_unit(drawing) -> float:
    return drawing.mm_per_unit() if hasattr(drawing, "mm_per_unit") else drawing.scale


def _apart(first, second) -> float:
    """The distance between two boxes (0 when they touch or overlap)."""
    across = max(0.0, first.left - second.right, second.left - first.right)
    down = max(0.0, first.top - second.bottom, second.top - first.bottom)
    return math.hypot(across, down)


@pytest.mark.parametrize("path", MAPPED, ids=lambda p: p.stem)
def test_no_two_marks_placed_on_a_map_touch(path):
    """Every mark placed on an example map (a name, a unit's code, a hill's level mark, an objective's star)
    keeps at least 0.3 mm of paper, as printed, from every other placed mark and from every unit marker, token,
    reinforcement's arrow and facing arrow: hill-112's crest square printed "B1", its star and "▲3" touching,
    0.13 mm apart."""
    drawing = any_map(path)
    placed = [(p.label.text, p.box) for p in drawing.place_labels()]
    drawn = {
        "objective": "an objective's star",
        "unit marker": "a unit marker",
        "facing arrow": "a facing arrow",
        "unit": "a unit's token",
        "reinforcement": "a reinforcement's arrow",
    }
    stars = [(drawn[kind], box) for kind, box in drawing.placement.obstacles if kind == "objective"]
    units = [(drawn[kind], box) for kind, box in drawing.placement.obstacles if kind in list(drawn)[1:]]
    scale = _mm_per_unit(drawing)
    marks = placed + stars
    close = []
    for i, (name, box) in enumerate(marks):
        for other, other_box in marks[i + 1 :] + units:
            if _apart(box, other_box) * scale < CLEAR_MM:
                close.append(f"{name!r} and {other!r}: {_apart(box, other_box) * scale:.2f} mm")
    assert close == []


def _frame_bands(path) -> list[tuple[str, Box]]:
    """The objectives' dashed outlines (drawn 0.2 in from the square's edges, 0.4 wide) as four thin boxes each,
    in map units."""
    game = GridScenario.of(load(path))
    S = grid_map(path).S
    bands = []
    for objective in game.objectives:
        col, row = objective.at
        bands += [("objective frame", band) for band in _ring(col * S, row * S, S, 0.0, 0.4)]
    return bands


def _ring(x: float, y: float, S: float, inner: float, outer: float) -> list[Box]:
    """The four sides of a band drawn between `inner` and `outer` in from a square's edges."""
    return [
        Box(x + inner, y + inner, x + S - inner, y + outer),
        Box(x + inner, y + S - outer, x + S - inner, y + S - inner),
        Box(x + inner, y + inner, x + outer, y + S - inner),
        Box(x + S - outer, y + inner, x + S - inner, y + S - inner),
    ]


@pytest.mark.parametrize("path", examples(MORSCHAUSER), ids=lambda p: p.stem)
def test_no_code_level_mark_star_or_arrow_lies_on_an_objectives_frame(path):
    """A fresh reader found Hill 112's codes and its '▲3' on the crest's dashed objective frames and Weissach's G5
    star on its frame's corner (and B5 on I5's): the frame drawn round a square is an obstacle like a road. A fifth
    read found B5's facing arrow across I5's frame: a unit's marker and arrow keep off it too."""
    drawing = grid_map(path)
    scale = _mm_per_unit(drawing)
    marks = [(p.label.text, p.box) for p in drawing.place_labels()]
    marks += [("star", box) for kind, box in drawing.placement.obstacles if kind == "objective"]
    marks += [(kind, box) for kind, box in drawing.placement.obstacles if kind in ("unit marker", "facing arrow")]
    on = [
        (name, what)
        for name, box in marks
        for what, band in _frame_bands(path)
        if _apart(box, band) * scale < CLEAR_MM and box.overlap(band.grown(CLEAR_MM / scale)) > 0
    ]
    assert on == []


@pytest.mark.parametrize("path", examples(MORSCHAUSER), ids=lambda p: p.stem)
def test_no_facing_arrow_touches_a_units_side_badge(path):
    """Issue 11 (a fifth fresh read): Weissach's B1 and B7 face west, and the side's triangle at each marker's top
    left corner lay across the upper barb of its own arrow. No facing arrow's box overlaps any unit marker's frame
    badge, its own included (the badge's box is the square of a marker's two boxes; an arrow starts at its own
    marker's frame)."""
    drawing = grid_map(path)
    drawing.place_labels()
    arrows = [box for kind, box in drawing.placement.obstacles if kind == "facing arrow"]
    badges = [
        box
        for kind, box in drawing.placement.obstacles
        if kind == "unit marker" and box.width == pytest.approx(box.height)
    ]
    assert arrows and badges
    assert [(a, b) for a in arrows for b in badges if a.overlap(b) > 1e-6] == []


@pytest.mark.parametrize("path", examples(MORSCHAUSER), ids=lambda p: p.stem)
def test_each_contour_region_is_marked_once_inside_or_beside_it(path):
    """A hill's level is named once per region of that level (like a spot height), not in every square: a mark in
    each square crowded the units' codes into rows that read as one ("▲2 B11 ▲2 B9" on Hill 112's row 2)."""
    drawing = grid_map(path)
    marks = [p for p in drawing.place_labels() if p.label.kind == "level"]
    regions = drawing._level_regions()
    assert sorted(p.label.text for p in marks) == sorted(level_mark(drawing.levels[r[0]]) for r in regions)
    S = drawing.S
    for region in regions:
        text = level_mark(drawing.levels[region[0]])
        near = [Box(c * S, r * S, (c + 1) * S, (r + 1) * S).grown(S) for c, r in region]
        assert any(p.label.text == text and any(p.box.inside(n) for n in near) for p in marks), text


def test_boxes_that_touch_but_for_rounding_leave_a_spot_clear():
    """Issue 11 (a fresh read of Weissach's map): B5's code sat in J4 on a leader, read as a unit there, though
    its own square I5 had a clear corner: that corner touched the objective's frame at 80.39999999999999 against
    80.4, and the 4e-14 of overlap counted as crowding, so a clear spot outside the square won."""
    from generator.labels import covered

    frame = Box(80.0, 40.0, 80.4, 50.0)
    spot = Box(80.4 - 1e-14, 47.1, 83.5, 49.3)
    assert spot.overlap(frame) == 0 and covered(spot, [frame]) == 0
    assert Box(80.3, 47.1, 83.5, 49.3).overlap(frame) > 0  # a real overlap still counts
    drawing = grid_map(SCENARIOS / "weissach-bridge.yaml")
    code = next(p for p in drawing.place_labels() if p.label.text == "B5")
    S = drawing.S
    assert code.leader is None and code.box.inside(Box(8 * S, 4 * S, 9 * S, 5 * S)), code.box  # in I5, its square


def test_placement_finds_near_a_box_what_a_scan_of_the_whole_map_finds():
    """The index under map placement (issue 12, F6): for boxes of every size, in and beyond the map, what it gives
    as near holds everything a scan of every obstacle and label finds overlapping, in the order they came in; an
    obstacle blocked twice is one, and a label withdrawn is no longer near anything."""
    import random

    from generator.labels import Label, Placement

    rng = random.Random(12)
    bounds = Box(0, 0, 260, 400)

    def box() -> Box:
        x, y = rng.uniform(-30, 290), rng.uniform(-30, 430)
        return Box(x, y, x + rng.choice([0.5, 4, 20, 150]), y + rng.choice([0.5, 3, 30, 300]))

    placement = Placement(bounds, gap=0.5)
    boxes = [box() for _ in range(400)]
    for i, b in enumerate(boxes):
        placement.block(b, "road" if i % 2 else "house")
        placement.block(b, "road" if i % 2 else "house")  # a second road along the same band
    assert len(placement.obstacles) == 400
    labels = [
        placement.place(Label(f"L{i}", 2.0, (x, y), [(x, y)])) for i, (x, y) in enumerate((50, 60) for _ in range(60))
    ]
    placement.withdraw(labels[7])
    for _ in range(300):
        probe = box()
        assert placement.obstacles_near(probe) == [(k, b) for k, b in placement.obstacles if b.overlap(probe) > 0]
        assert placement.placed_near(probe) == [p for p in placement.placed if p.box.overlap(probe) > 0]
    assert labels[7] not in placement.placed_near(labels[7].box)


def test_a_name_along_a_road_through_the_whole_grid_is_tried_at_a_dozen_of_its_squares(tmp_path):
    """A road through all 1,040 squares of a 26 x 40 grid gave its name two spots a square (2,080) to try against
    every band on the map; it is tried at NAME_SQUARES of them, spread from the first to the last, and round the
    first."""
    from generator.systems.morschauser.map import NAME_SQUARES

    snake = ", ".join(
        f'"{c}1:{c}40"' if i % 2 == 0 else f'"{c}40:{c}1"' for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    )
    path = tmp_path / "road.yaml"
    path.write_text(
        "title: One long road\nsystem: morschauser-modern\nbriefing: x\nvictory: x\ngrid: {columns: 26, rows: 40}\n"
        f"terrain:\n  - {{kind: road, name: The long road, squares: [{snake}]}}\nsides:\n"
        "  - {name: Blue, colour: blue, units: [{type: infantry, at: C4, facing: east}]}\n"
        "  - {name: Red, colour: red, units: [{type: infantry, at: H5, facing: west}]}\n"
    )
    drawing = grid_map(path)
    name = next(p for p in drawing.place_labels() if p.label.text == "The long road")
    S = drawing.S
    tops = {(round(x / S - 0.5), round((y - 1) / S)) for x, y in name.label.candidates[: 2 * NAME_SQUARES : 2]}
    assert len(name.label.candidates) <= 2 * NAME_SQUARES + 33
    assert (0, 0) in tops and (25, 0) in tops, tops  # A1, the first, and Z1, the last square of the snake


def test_a_line_labels_leader_is_measured_exactly_from_the_line_not_from_points_along_it():
    """Issue 12 (third red team, F2): a named road zigzagging across a 480-inch table was cut into points a quarter
    of the type size apart (100,000 of them) for each of the 600 spots its name tried. A leader is measured from
    the line's pieces themselves: its start lies on the line, exactly as near the box as the line comes."""
    from generator import labels

    line = [(float(x * 7 % 480), float(x * 7)) for x in range(64)]
    label = labels.Label("A long road", 3.0, line[32], [], line=line, reach=1.0)
    placement = labels.Placement(labels.Box(0, 0, 480, 480))
    for x in range(0, 480, 4):
        box = label.box_at(float(x), 240.0)
        leader = placement._leader(label, box)
        # the nearest the line comes, found the slow way: a thousand points on each piece
        fine = min(
            math.hypot(px - nx, py - ny)
            for (x0, y0), (x1, y1) in zip(line, line[1:])
            for t in (i / 1000 for i in range(1001))
            for px, py in [(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)]
            for nx, ny in [box.nearest(px, py)]
        )
        if leader is None:
            assert fine <= 1.0 + 1e-9
            continue
        (sx, sy), end = leader
        assert end == box.nearest(sx, sy)
        assert math.hypot(sx - end[0], sy - end[1]) == pytest.approx(fine, abs=0.5)
        assert math.hypot(sx - end[0], sy - end[1]) <= fine + 1e-9
        assert any(
            labels._segment_to_box(a, b, labels.Box.centred(sx, sy, 0, 0))[0] < 1e-9 for a, b in zip(line, line[1:])
        )


def test_a_square_named_by_many_town_entries_is_drawn_once(tmp_path):
    """Issue 12 (third red team, F1): 200 town entries over the whole grid drew each square's houses 200 times
    and placed every label against all of them (12 KB, past the 120 s clock). A square is drawn once per kind."""

    def drawing(towns: int):
        path = tmp_path / f"towns{towns}.yaml"
        path.write_text(
            "title: Towns\nsystem: morschauser-modern\nbriefing: x\nvictory: x\ngrid: {columns: 12, rows: 9}\n"
            "terrain:\n" + '  - {kind: town, squares: ["A1:L9"]}\n' * towns + "sides:\n"
            "  - {name: Blue, colour: blue, units: [{type: infantry, at: C4, facing: east}]}\n"
            "  - {name: Red, colour: red, units: [{type: infantry, at: H5, facing: west}]}\n"
        )
        return grid_map(path)

    once, again = drawing(1), drawing(40)
    assert len(again.houses) == len(once.houses) and len(again.areas) == len(once.areas)
    assert len(again.placement.obstacles) == len(once.placement.obstacles)


def test_the_grid_legend_names_every_level_and_draws_the_objectives_star():
    """The legend's note named only ▲1 and ▲2 (hard-coded) though Hill 112 rises to ▲3, and its objective swatch
    showed the dashed frame without the star the map draws."""
    from generator.build import Options, choose_seed, compute, pack_html
    from generator.systems.morschauser.legend import swatch_uri

    scenario = load(SCENARIOS / "hill-112.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    note = re.search(r'<p class="legend-note">(.*?)</p>', pack_html(scenario, pack), re.S).group(1)
    assert all(level_mark(n) in note for n in (1, 2, 3)), note
    assert "#ffd84a" in _decoded(swatch_uri("objective"))


def test_a_hills_levels_read_apart_in_grey_and_its_mark_is_no_sides_shape():
    """Issue 11 (a fresh read of Hill 112): contours 2 and 3 were shades a reader could hardly tell apart, and the
    level mark '▲3' looked like the Hohenstaufen triangle on the unit markers beside it. Each level is now at least
    30 of 255 darker than the one below it in grey, and the mark's sign is no side's shape."""
    from generator.scenario import SHAPES
    from generator.systems.morschauser.looks import HILL_FILLS, LEVEL_SIGN

    def grey(colour: str) -> float:
        r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        return 0.299 * r + 0.587 * g + 0.114 * b

    steps = [grey(lower) - grey(upper) for lower, upper in zip(HILL_FILLS, HILL_FILLS[1:])]
    assert min(steps) >= 30, steps
    shape_glyphs = {"circle": "●○", "triangle": "▲△▴▵", "square": "■□", "diamond": "◆◇", "star": "★☆"}
    assert set(shape_glyphs) <= set(SHAPES)
    assert not any(LEVEL_SIGN in glyphs for glyphs in shape_glyphs.values())
    drawing = grid_map(SCENARIOS / "hill-112.yaml")
    assert {p.label.text[0] for p in drawing.place_labels() if p.label.kind == "level"} == {LEVEL_SIGN}


def _decoded(uri: str) -> str:
    import base64
    import urllib.parse

    head, _, body = uri.partition(",")
    return base64.b64decode(body).decode() if head.endswith(";base64") else urllib.parse.unquote(body)


def _drawn_lines(svg: str) -> list[tuple[str, float, list[tuple[float, float]]]]:
    """Each road and river as drawn on a grid map: (kind, width, its points), read from the SVG's dark edge strokes."""
    edges = {"#3d3326": "road", "#2f5f8f": "river"}
    found = []
    for d, colour, width in re.findall(
        r'<path d="(M[^"]+)" fill="none" stroke="(#[0-9a-f]{6})" stroke-width="([\d.]+)"', svg
    ):
        if colour in edges and float(width) > 1:
            numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
            found.append((edges[colour], float(width), list(zip(numbers[::2], numbers[1::2]))))
    return found


def _on_band(box, line, width: float) -> bool:
    """Whether a box covers any part of a line drawn `width` wide (the line's segments run along the grid)."""
    for (x0, y0), (x1, y1) in zip(line, line[1:]):
        band = type(box)(
            min(x0, x1) - width / 2, min(y0, y1) - width / 2, max(x0, x1) + width / 2, max(y0, y1) + width / 2
        )
        if box.overlap(band) > 1e-6:
            return True
    return False


@pytest.mark.parametrize("path", examples(MORSCHAUSER), ids=lambda p: p.stem)
def test_no_code_name_star_or_arrow_lies_on_a_road_a_river_or_a_house(path):
    """On every Morschauser example map no placed mark (unit code, level mark, place name, objective star) and no
    facing arrow covers a road's or river's band as drawn, nor a house of a town (weissach's east-facing arrows
    ran along its road, hill-112's 'Esquay' sat on the road and the town's houses); and every town square shows
    houses."""
    drawing = grid_map(path)
    svg = str(drawing.svg())
    placed = [(p.label.text, p.box) for p in drawing.place_labels()]
    marks = placed + [(kind, box) for kind, box in drawing.placement.obstacles if kind in ("objective", "facing arrow")]
    Box = type(marks[0][1])
    houses = [
        Box(float(x), float(y), float(x) + float(w), float(y) + float(h))
        for x, y, w, h in re.findall(
            r'<rect class="house" x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)"', svg
        )
    ]
    lines = _drawn_lines(svg)
    assert lines, "the map has roads or rivers"
    from generator.systems.morschauser.map import STAR_RADII

    # a star stands on a line only where its square has no room for a full star off it (a bridge square)
    full = 2 * STAR_RADII[0]

    def room_off_lines(box) -> bool:
        col, row = math.floor(box.centre[0] / drawing.S), math.floor(box.centre[1] / drawing.S)
        return any(
            not any(_on_band(spot, line, width) for _, width, line in lines)
            for spot in drawing._star_spots_of(col, row)
            if spot.width >= full
        )

    wrong = [
        f"{name!r} on a {kind}"
        for name, box in marks
        for kind, width, line in lines
        if _on_band(box, line, width) and (name != "objective" or room_off_lines(box))
    ]
    assert wrong == []
    towns = {
        square for square, cell in battlefield.terrain_map(GridScenario.of(load(path))).items() if "town" in cell.kinds
    }
    S = drawing.S
    assert all(any(h.inside(Box(c * S, r * S, (c + 1) * S, (r + 1) * S)) for h in houses) for c, r in towns)
    wrong += [f"{name!r} on a house" for name, box in marks for house in houses if box.overlap(house) > 1e-6]
    assert wrong == []


def _distance_to_line(box, line) -> float:
    best = math.inf
    for (x0, y0), (x1, y1) in zip(line, line[1:]):
        for i in range(101):
            x, y = x0 + (x1 - x0) * i / 100, y0 + (y1 - y0) * i / 100
            nx, ny = box.nearest(x, y)
            best = min(best, math.hypot(nx - x, ny - y))
    return best


@pytest.mark.parametrize("path", examples(FIRETEAM), ids=lambda p: p.stem)
def test_a_line_terrain_label_sits_beside_its_line_not_on_it(path):
    """A road's, river's, wall's or hedge's name keeps off the band it names, yet stays within two font sizes of it
    (a planned move's name may go further, on a leader line: test_table_maps)."""
    drawing = fireteam_map(path)
    lines = [p for p in drawing.place_labels() if p.label.line and p.label.kind == "terrain"]
    for placed in lines:
        distance = _distance_to_line(placed.box, placed.label.line)
        assert 0 < distance <= placed.label.reach + 2 * placed.label.size, placed.label.text
        assert not any(own.overlap(placed.box) > 0 for own in placed.label.avoid), placed.label.text


def _drawn_edges(path) -> list[tuple[str, list, float]]:
    """Every line a Fireteam map draws that a label could cross, as its points and its drawn width (map units):
    each line terrain's band, each area piece's outline and each deployment zone's dashed edge."""
    scenario = load(path)
    battle, forces = read(scenario)
    edges = []
    for feature in battle.terrain:
        coords = getattr(feature, feature.shape)
        if feature.shape == "line":
            edges.append((f"{feature.kind} line", [tuple(p) for p in coords], (feature.width or 2) + 0.3))
            continue
        if feature.shape == "rect":
            x, y, w, h = coords
            ring = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
        elif feature.shape == "circle":
            x, y, r = coords
            ring = [(x + r * math.cos(a * math.pi / 12), y + r * math.sin(a * math.pi / 12)) for a in range(25)]
        else:
            ring = [tuple(p) for p in coords] + [tuple(coords[0])]
        edges.append((f"{feature.kind} outline", ring, 0.12))
    from generator.table import zones

    for side in forces:
        for zone in zones(side.deployment):
            if zone.ring(battle.table):
                edges.append(("a zone edge", zone.ring(battle.table), 0.35))
        for move in side.moves:
            edges.append(("a planned move", [tuple(p) for p in move.path], 0.88))
    return edges


def _reaches_into(box: Box, line, width: float, step: float = 0.01) -> bool:
    """Whether a line drawn `width` wide reaches into the box: points every `step` along it, each with the disc of
    the stroke round it, measured against the box (the slow, plain way: independent of the placement's bands)."""
    inner = box.grown(-1e-6)
    for (x0, y0), (x1, y1) in zip(line, line[1:]):
        if min(x0, x1) > inner.right + width or max(x0, x1) < inner.left - width:
            continue
        if min(y0, y1) > inner.bottom + width or max(y0, y1) < inner.top - width:
            continue
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
        for i in range(n + 1):
            x, y = x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n
            nx, ny = inner.nearest(x, y)
            if math.hypot(nx - x, ny - y) < width / 2 - step:
                return True
    return False


@pytest.mark.parametrize("path", examples(FIRETEAM), ids=lambda p: p.stem)
def test_no_fireteam_label_crosses_a_line_an_outline_or_a_zone_edge(path):
    """A fresh reader found the bridge map's 'Wall (medium)' on the Rangers' zone edge, 'River Kessel' over the
    zone's corner and 'Kessel bridge (light)' across the bridge's outline: every line drawn is an obstacle to
    every label, not only to its own name."""
    drawing = fireteam_map(path)
    crossing = [
        (placed.label.text, what)
        for placed in drawing.place_labels()
        for what, line, width in _drawn_edges(path)
        if _reaches_into(placed.box, line, width)
    ]
    assert crossing == []


def test_the_deployment_hatching_is_drawn_under_the_terrain_labels():
    """In bridge.svg every zone's hatched rectangle comes before the first terrain name's text."""
    svg = str(fireteam_map(SCENARIOS / "bridge.yaml").svg())
    last_zone = max(m.start() for m in re.finditer(r'fill="url\(#side\d\)"', svg))
    first_label = svg.index(">Alder wood (light)<")
    assert last_zone < first_label


@pytest.mark.parametrize("path", examples(FIRETEAM), ids=lambda p: p.stem)
def test_the_deployment_hatching_lies_under_the_terrain_and_the_zones_edge_over_it(path):
    """Issue 11 (a fifth fresh read): relay-station's Syndicate hatching ran over the Relay block and the Barracks,
    a lattice across their grey and round their names. Every zone's hatching is drawn before the first terrain
    piece but open ground, and its dashed edge after the last, so where the zone runs still shows across them."""
    svg = str(fireteam_map(path).svg())
    hatching = [m.start() for m in re.finditer(r'fill="url\(#side\d\)"', svg)]
    edges = [m.start() for m in re.finditer(r'stroke-dasharray="1.2 0.6"', svg)]
    scale = svg.index(">0</text>")  # the scale's first number: the ticks and the legend's swatches follow
    # every terrain piece's outline, but open ground (a hill, a field), which lies under the hatching: a zone on a
    # hill was hatched under the hill's fill and could not be seen (issue 15, a fresh read of the Ford)
    ground = {tablemap.TERRAIN_STYLE[kind][0] for kind in tablemap.OPEN_GROUND}
    outlines = list(re.finditer(r'fill="(#[0-9a-f]+)" stroke="#4a4034"', svg[:scale]))
    pieces = [m.start() for m in outlines if m.group(1) not in ground]
    under = [m.start() for m in outlines if m.group(1) in ground]
    assert hatching and edges and pieces
    assert max(hatching) < min(pieces) and max(pieces) < min(edges)
    assert all(place < min(hatching) for place in under)


def test_a_legend_of_two_rows_spreads_its_entries_evenly():
    """Issue 11 (a fifth fresh read): the bridge's legend printed ten entries in a row and 'Objective' alone on
    a second. Its rows, as the pack draws them (with the compass's edge names), differ by one entry at most."""
    scenario = load(SCENARIOS / "bridge.yaml")
    battle, forces = read(scenario)
    drawing = table.table_map(scenario.system.rules, battle, forces, scenario.side_views, edges=True)
    counts = [len(row) for row in drawing._legend_rows()]
    assert len(counts) == 2 and max(counts) - min(counts) <= 1, counts


BADGE = re.compile(
    r'<g fill="[^"]+" stroke="#000" stroke-width="0.12">(?:<circle cx="([\d.]+)" cy="[\d.]+" r="([\d.]+)"/>'
    r'|<polygon points="([^"]+)"/>)</g><text x="([\d.]+)"[^>]*font-size="([\d.]+)" font-weight="bold"[^>]*>([^<]+)<'
)


@pytest.mark.parametrize("path", examples(FIRETEAM), ids=lambda p: p.stem)
def test_a_deployment_zones_badge_keeps_half_a_millimetre_from_its_name(path):
    """Issue 11 (a fifth fresh read): the bridge's 'Red Banner Militia' touched its badge. Read from the map's
    SVG: the badge's right edge and the name's left edge (its centre less half its measured width) are half a
    millimetre apart or more, as printed."""
    from generator.labels import text_width

    drawing = fireteam_map(path)
    svg = str(drawing.svg())
    gaps = {}
    for cx, r, polygon, x, size, name in BADGE.findall(svg):
        right = float(cx) + float(r) if cx else max(float(point.split(",")[0]) for point in polygon.split())
        left = float(x) - text_width(name, float(size), bold=True) / 2
        gaps[name] = (left - right) * drawing.scale
    from generator.table import zones

    _, forces = read(load(path))
    assert len(gaps) == sum(len(zones(side.deployment)) for side in forces) and min(gaps.values()) >= 0.5, gaps


@pytest.mark.parametrize("path", examples(FIRETEAM), ids=lambda p: p.stem)
def test_an_objectives_name_is_led_from_its_stars_edge_never_through_the_star(path):
    """Issue 11 (a fifth fresh read): relay-station's 'Uplink', set just under its star, got a leader line from the
    star's middle, drawn through the star. A leader starts at the star's edge, and a name within reach of the
    star's edge has none."""
    drawing = fireteam_map(path)
    stars = [box for kind, box in drawing.placement.obstacles if kind == "objective"]
    for placed in drawing.place_labels():
        if placed.label.kind != "objective":
            continue
        star = next(box for box in stars if box.centre == pytest.approx(placed.label.anchor))
        if placed.leader is not None:
            (x, y), (cx, cy) = placed.leader[0], star.centre
            assert math.hypot(x - cx, y - cy) >= 0.9 * star.width / 2, placed.label.text
        if _apart(placed.box, star) <= placed.label.size * 0.6:
            assert placed.leader is None, placed.label.text


def _on_piece(feature, x: float, y: float) -> bool:
    shape = feature.shape
    coords = getattr(feature, shape)
    if shape == "rect":
        left, top, w, h = coords
        return left <= x <= left + w and top <= y <= top + h
    if shape == "circle":
        cx, cy, r = coords
        return math.hypot(x - cx, y - cy) <= r
    if shape == "polygon":
        inside = False
        for (x0, y0), (x1, y1) in zip(coords, coords[1:] + coords[:1]):
            if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                inside = not inside
        return inside
    half = (feature.width or 2) / 2
    for (x0, y0), (x1, y1) in zip(coords, coords[1:]):
        length2 = (x1 - x0) ** 2 + (y1 - y0) ** 2 or 1
        t = max(0, min(1, ((x - x0) * (x1 - x0) + (y - y0) * (y1 - y0)) / length2))
        if math.hypot(x - x0 - t * (x1 - x0), y - y0 - t * (y1 - y0)) <= half:
            return True
    return False


@pytest.mark.parametrize("path", examples(FIRETEAM), ids=lambda p: p.stem)
def test_every_fireteam_objective_lies_on_the_terrain_its_name_names_and_never_in_a_river(path):
    """ "The bridge" is on the bridge (it was drawn in the river north of it); no objective is in a river."""
    battle, _ = read(load(path))
    for objective in battle.objectives:
        x, y = objective.at
        words = set(re.findall(r"[a-z]+", objective.name.lower()))
        named = [f for f in battle.terrain if f.kind in words or (f.name and words & set(f.name.lower().split()))]
        if named:
            assert any(_on_piece(f, x, y) for f in named), objective.name
        rivers = [f for f in battle.terrain if f.kind == "river" and _on_piece(f, x, y)]
        bridges = [f for f in battle.terrain if f.kind == "bridge" and _on_piece(f, x, y)]
        assert not rivers or bridges, f"{objective.name} is in the river"


def test_every_morschauser_unit_type_draws_its_own_symbol():
    """No two unit types of the rule data share a glyph, and no two glyphs draw the same picture
    (field and light field artillery shared one)."""
    rules = load(examples(MORSCHAUSER)[0]).system.rules
    types = rules.unit_types
    by_glyph = {}
    for unit_type in types:
        by_glyph.setdefault(unit_type.glyph, []).append(unit_type.name)
    assert [names for names in by_glyph.values() if len(names) > 1] == []
    pictures = {glyph: glyphs.unit_glyph(glyph, 10, 10, 8, 6) for glyph in glyphs.UNIT_GLYPHS}
    assert len(set(pictures.values())) == len(pictures)


def test_the_machine_gun_and_the_mortar_point_different_ways():
    """The mortar's arrow points up (high fire), the machine gun's along the frame: they looked alike."""
    mortar = glyphs.unit_glyph("mortar", 10, 10, 8, 6)
    machine_gun = glyphs.unit_glyph("machine-gun", 10, 10, 8, 6)
    assert "<circle" in mortar and "<circle" not in machine_gun
    # the machine gun's longest stroke is horizontal: a stroke from x-2.4 to x+2.4 at the centre line
    assert "H12.400" in machine_gun


def test_a_facing_arrow_is_an_open_stroke_unlike_any_filled_side_shape():
    """A side's badge is a filled shape (a triangle among them); the facing arrow is a shaft and barbs, unfilled."""
    for facing in ("north", "east", "south", "west"):
        arrow = facing_arrow(50, 50, 5.6, 3.8, facing)
        assert 'fill="none"' in arrow and "<polygon" not in arrow


def _pattern_lines(markup: str) -> set[tuple]:
    """A pattern's strokes as (dx, dy) directions, scale-free, so like drawings compare equal."""
    found = set()
    for d in re.findall(r'd="([^"]+)"', markup):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
        commands = re.findall(r"[MLHVQ]", d)
        found.add((tuple(commands), tuple(round(n / max(map(abs, numbers)), 3) for n in numbers)))
    found |= {("circle",)} if "<circle" in markup else set()
    return found


def test_hill_hatching_differs_from_every_deployment_hatching():
    """The Fireteam hill pattern was the side 'hatch' pattern's very diagonal; in grey the two read alike."""
    defs = tablemap._pattern_defs()
    hill = re.search(r'<pattern id="contour".*?</pattern>', defs, re.S).group(0)
    for pattern in ("hatch", "crosshatch", "dots", "horizontal", "vertical", "zigzag", "grid", "rings"):
        assert _pattern_lines(hill) != _pattern_lines(side_pattern(pattern, "#000", "p")), pattern


def test_the_fireteam_map_has_a_legend_of_its_terrain_kinds():
    """bridge's map names each terrain kind it uses, with a swatch, under the table."""
    svg = str(fireteam_map(SCENARIOS / "bridge.yaml").svg())
    for name in ("Woods", "Building", "Ruins", "River", "Road", "Bridge", "Wall", "Hedge", "Objective"):
        assert f">{name}</text>" in svg, name


SQUARE_REFERENCE = re.compile(r"\b([A-Z])([1-9]\d?)(?::([A-Z])([1-9]\d?))?\b")


def _terrain_words(scenario, game) -> dict[str, set]:
    """Each word a briefing may use for terrain (a kind, 'bridge', a terrain entry's name) and its squares."""
    cells = battlefield.terrain_map(game)
    words = {}
    for kind in scenario.system.rules.terrain.kinds:
        words[kind] = {
            square for square, cell in cells.items() if kind in cell.kinds or (kind == "hill" and cell.level)
        }
    words["bridge"] = words.get("road", set()) & words.get("river", set())
    for entry in game.terrain:
        if entry.name:
            words[entry.name.lower()] = set(entry.all_squares())
    return words


def _references(text: str, words: dict) -> list[tuple[str, str, tuple[int, int]]]:
    """(square as written, the terrain word nearest before it in its clause, the square) for every square
    reference that follows a terrain word in the same clause (a sentence, or a part of one between semicolons)."""
    found = []
    plain = text.replace("*", "").replace("\n", " ")
    for clause in re.split(r"[.;!?](?:\s|$)", plain):
        lower = clause.lower()
        for match in SQUARE_REFERENCE.finditer(clause):
            before = lower[: match.start()]
            named = [(before.rfind(word), word) for word in words if re.search(rf"\b{re.escape(word)}\b", before)]
            if not named:
                continue
            word = max(named)[1]
            first = (ord(match.group(1)) - ord("A"), int(match.group(2)) - 1)
            last = (ord(match.group(3)) - ord("A"), int(match.group(4)) - 1) if match.group(3) else first
            for col in range(first[0], last[0] + 1):
                for row in range(first[1], last[1] + 1):
                    found.append((match.group(0), word, (col, row)))
    return found


@pytest.mark.parametrize("path", examples(MORSCHAUSER), ids=lambda p: p.stem)
def test_a_square_the_briefing_gives_for_a_terrain_lies_on_that_terrain(path):
    """A square reference (G5, F3:G3) after a terrain word in the same clause of the briefing, the victory text
    or a side's briefing lies on that terrain on the map: weissach's briefing ran the river "from G1 to G9"
    while its terrain bent the river into column F."""
    scenario = load(path)
    game = GridScenario.of(scenario)
    words = _terrain_words(scenario, game)
    texts = [scenario.data["briefing"], scenario.data["victory"]]
    texts += [side.get("briefing") or "" for side in scenario.data["sides"]]
    wrong = [
        f"{written} is not on the {word}"
        for text in texts
        for written, word, square in _references(text, words)
        if square not in words[word]
    ]
    assert wrong == []


MM = 72 / 25.4
MAP_HEADINGS = ("The table", "The battlefield")
FILLS = 0.45  # the least share of the printable area a map's drawing covers (a 96" x 48" table covered a third)


def map_page(pdf_path) -> dict:
    """The page a pack prints its map on, measured: its size, the drawing's box (every line, curve and rectangle
    under the part's heading and its rule), the printable area and the text in its head and foot margins."""
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            lines = page.extract_text_lines()
            heading = [line for line in lines if line["text"] in MAP_HEADINGS and line["chars"][0]["size"] > 14]
            if not heading:
                continue
            under = heading[0]["bottom"]
            rules = [
                r for r in page.rects + page.lines if 0 <= r["top"] - under < 5 * MM and r["width"] > page.width / 2
            ]
            under = max([under] + [r["bottom"] for r in rules]) + 0.5
            drawn = [o for o in page.rects + page.curves + page.lines if o["top"] > under]
            top, right, bottom, left = (margin * MM for margin in PAGE_MARGIN_MM)
            return {
                "landscape": page.width > page.height,
                "drawn": (max(o["x1"] for o in drawn) - min(o["x0"] for o in drawn))
                * (max(o["bottom"] for o in drawn) - min(o["top"] for o in drawn)),
                "printable": (page.width - left - right) * (page.height - top - bottom),
                "head": " ".join(line["text"] for line in lines if line["bottom"] < top),
                "foot": " ".join(line["text"] for line in lines if line["top"] > page.height - bottom),
                "text": page.extract_text(),
            }
    raise AssertionError(f"no map page in {pdf_path}")


def _check_map_page(pdf_path, heading_head: str) -> dict:
    page = map_page(pdf_path)
    assert page["drawn"] / page["printable"] >= FILLS, f"the map covers {page['drawn'] / page['printable']:.0%}"
    assert heading_head in page["head"], "the running head is on the map's page"
    assert re.search(r"Page \d+ of \d+", page["foot"]), "the page number is on the map's page"
    return page


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("path", examples(FIRETEAM) + examples(MORSCHAUSER), ids=lambda p: p.stem)
def test_every_example_map_fills_its_page_under_its_running_head(path, paper, built):
    """On A4 and Letter each example's map covers at least 45% of its page's printable area (bridge's 72" x 48"
    table covered 42% of a portrait page; it now takes a landscape one), and that page keeps its running head,
    its page number and the map's legend."""
    pack, _ = built(path.stem, "--paper", paper)
    page = _check_map_page(pack, "The table" if f"system: {FIRETEAM}" in path.read_text() else "The battlefield")
    assert "measured in inches" in page["text"] or "The black arrow" in page["text"], "the legend is on the page"


@pytest.mark.parametrize(
    "name, wide",
    [
        ("bridge", ("table: {width: 72, depth: 48}", "table: {width: 96, depth: 48}")),
        ("weissach-bridge", ("grid: {columns: 12, rows: 9}", "grid: {columns: 26, rows: 9}")),
    ],
)
def test_a_wide_table_prints_its_map_on_a_landscape_page(name, wide, tmp_path):
    """A 96" x 48" Fireteam table and a 26 x 9 Morschauser grid print their maps on a landscape page, filling at
    least 45% of it, with the running head and page number along its long edge; the pack's other pages stay
    portrait."""
    source = (SCENARIOS / f"{name}.yaml").read_text()
    assert wide[0] in source
    path = tmp_path / f"{name}.yaml"
    path.write_text(source.replace(*wide))
    assert main(["build", str(path), "--out", str(tmp_path / "out")]) == 0
    pack = tmp_path / "out" / name / f"{name}.pdf"
    page = _check_map_page(pack, "The table" if name == "bridge" else "The battlefield")
    assert page["landscape"]
    with pdfplumber.open(pack) as pdf:
        assert [p.width > p.height for p in pdf.pages].count(True) == 1


def test_a_booklet_stamps_a_landscape_map_page_with_landscape_heads(built):
    """The booklet draws running heads and page numbers over each page of a chapter: over bridge's landscape map
    page they are laid out for that page's own size, so its heads sit along the long edge."""
    from pypdf import PdfReader

    from generator.booklet.plan import Part
    from generator.booklet.stamp import running_heads
    from generator.build import CHAPTER, Options

    pack, _ = built("bridge")
    chapter = pack.read_bytes()
    pages = PdfReader(pack).pages
    turned = [page.mediabox.width > page.mediabox.height for page in pages]
    assert True in turned
    part = Part(CHAPTER, str(pack), "The bridge", "The bridge", FIRETEAM)
    part.receive(chapter, len(turned))
    stamps = running_heads({"title": "Club"}, [part], 1, Options())
    assert stamps.contents[0] is None  # the cover is left unstamped
    for page, content in zip(pages, stamps.contents[1:]):
        # each stamp is drawn in its own page's flipped coordinates: from the top of a page as high as it is
        assert content.startswith(b"1 0 0 -1 0 %.6f cm" % float(page.mediabox.height))


def _prepared_map(path) -> str:
    scenario = load(path)
    return str(scenario.system.prepare(scenario, 1).map)


@pytest.mark.parametrize("path", examples(FIRETEAM) + examples(MORSCHAUSER), ids=lambda p: p.stem)
def test_a_map_names_its_edges_when_the_scenario_speaks_of_the_compass(path):
    """relay-station's Marines win by leaving "by the west edge", and every example's words point the compass
    (the east bank, Crest west): each map prints NORTH, EAST, SOUTH and WEST round its edges."""
    svg = _prepared_map(path)
    for name in ("NORTH", "EAST", "SOUTH", "WEST"):
        assert f">{name}</text>" in svg, name


def test_a_map_leaves_the_edges_unnamed_when_no_word_points_the_compass(tmp_path):
    """The same table with its victory saying "the far edge" instead of "the west edge" prints no edge names:
    they come from the scenario's words, not from every map."""
    source = (SCENARIOS / "relay-station.yaml").read_text()
    assert "the west edge" in source
    path = tmp_path / "relay-station.yaml"
    path.write_text(source.replace("the west edge", "the far edge"))
    assert ">WEST</text>" not in _prepared_map(path)


def test_the_edge_names_print_on_the_map_page(built):
    """relay-station's printed map page carries NORTH and SOUTH over and under its table, at 7 pt or more."""
    pack, _ = built("relay-station")
    with pdfplumber.open(pack) as pdf:
        page = next(p for p in pdf.pages if "The table" in (p.extract_text() or "").splitlines()[:2])
        words = {w["text"]: w for w in page.extract_words(extra_attrs=["size"])}
    assert words["NORTH"]["size"] >= 7 and words["NORTH"]["bottom"] < words["SOUTH"]["top"]


def test_the_maps_page_margins_are_the_print_styles_margins():
    """Maps are sized to the printable area from svg.PAGE_MARGIN_MM: it must be the @page margin muster.css sets."""
    css = (Path(__file__).parent.parent / "templates" / "muster.css").read_text()
    margin = re.search(r"@page\s*\{[^}]*?margin:\s*([^;]+);", css).group(1)
    assert tuple(float(value.removesuffix("mm")) for value in margin.split()) == PAGE_MARGIN_MM


PATTERN = re.compile(r'<pattern id="([^"]+)" width="([\d.]+)" height="([\d.]+)"')
PATTERN_FILL = re.compile(
    r'<rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)" fill="url\(#([^)]+)\)"'
)


def _whole(ratio: float) -> bool:
    return abs(ratio - round(ratio)) < 1e-3


@pytest.mark.parametrize("path", examples(MORSCHAUSER), ids=lambda p: p.stem)
def test_a_labels_box_hides_what_lies_under_it(path):
    """A second fresh read: Weissach's B1 code box was a tenth see-through, the fortification's zigzag showing
    faintly inside it. Every label's white box on a Morschauser map is opaque."""
    svg = str(grid_map(path).svg())
    boxes = re.findall(r'<rect [^>]*fill="#ffffff"[^>]*stroke="#555"[^>]*/>', svg)
    assert boxes and not [box for box in boxes if "opacity" in box]


@pytest.mark.parametrize("path", examples(MORSCHAUSER), ids=lambda p: p.stem)
def test_no_label_or_mark_is_printed_over_part_of_a_tree(path):
    """weissach-bridge's 'Hornwald' and hill-112's 'Bois de Baron' covered the top row of their woods' trees, halves
    of circles peeping out under the name: on every Morschauser example map no placed label, objective star or
    facing arrow covers any part of a tree drawn (a name stands in a clearing), and every woods square keeps
    most of its trees."""
    drawing = grid_map(path)
    svg = str(drawing.svg())
    trees = [
        Box(float(x) - float(r), float(y) - float(r), float(x) + float(r), float(y) + float(r))
        for x, y, r in re.findall(r'<circle class="tree" cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', svg)
    ]
    assert trees
    marks = [(p.label.text, p.box) for p in drawing.placement.placed]
    marks += [(kind, box) for kind, box in drawing.placement.obstacles if kind in ("objective", "facing arrow")]
    assert [name for name, box in marks for tree in trees if box.overlap(tree) > 1e-6] == []
    woods = {
        square for square, cell in battlefield.terrain_map(GridScenario.of(load(path))).items() if "woods" in cell.kinds
    }
    S = drawing.S
    for col, row in woods:
        square = Box(col * S, row * S, (col + 1) * S, (row + 1) * S)
        assert sum(tree.inside(square) for tree in trees) >= 5, (col, row)


@pytest.mark.parametrize("path", examples(MORSCHAUSER), ids=lambda p: p.stem)
def test_no_code_or_mark_stands_on_a_fortifications_zigzag(path):
    """Hill 112's codes B1 to B4 stood on the fortifications' zigzag trench line, which showed either side of
    each code's box: on every Morschauser example map no piece of a zigzag drawn passes through a placed label,
    an objective star or a facing arrow, and each fortification keeps most of its line."""
    drawing = grid_map(path)
    svg = str(drawing.svg())
    lines = [
        [tuple(map(float, point.split(","))) for point in drawn.split()]
        for drawn in re.findall(r'<poly(?:gon|line) points="([^"]+)" class="trench"', svg)
    ]
    forts = {
        square
        for square, cell in battlefield.terrain_map(GridScenario.of(load(path))).items()
        if "fortification" in cell.kinds
    }
    assert bool(lines) == bool(forts)
    marks = [(p.label.text, p.box) for p in drawing.placement.placed]
    marks += [(kind, box) for kind, box in drawing.placement.obstacles if kind in ("objective", "facing arrow")]
    assert [
        name for name, box in marks for line in lines for start, end in zip(line, line[1:]) if crosses(start, end, box)
    ] == []
    drawn = sum(math.dist(start, end) for line in lines for start, end in zip(line, line[1:]))
    whole = 4 * (drawing.S - 2.4) * math.hypot(1, 0.9 * 6 / (drawing.S - 2.4)) * len(forts)
    assert drawn > whole / 2


@pytest.mark.parametrize("path", examples(MORSCHAUSER), ids=lambda p: p.stem)
def test_no_tree_house_or_pattern_tile_is_cut_at_a_squares_edge(path):
    """Every pattern a grid map fills a square's area (or a bridge's deck) with starts at that area's own corner
    and fits a whole number of tiles across and down it, so no tile is cut at its far edge, whether the renderer
    starts tiles at the page's origin or at the shape (WeasyPrint starts them at the shape: the woods' 3.33
    tiles in an 8.8 fill cut the right-hand column of trees in every square); and every tree and house drawn
    lies inside its square."""
    svg = str(grid_map(path).svg())
    tiles = {pid: (float(w), float(h)) for pid, w, h in PATTERN.findall(svg)}
    fills = PATTERN_FILL.findall(svg)
    assert fills, "the map fills some area with a pattern"
    cut = [
        f"{pid} at {x},{y} ({w} x {h})"
        for x, y, w, h, pid in fills
        if pid in tiles
        and (
            float(x) != 0
            or float(y) != 0
            or not _whole(float(w) / tiles[pid][0])
            or not _whole(float(h) / tiles[pid][1])
        )
    ]
    assert cut == []
    S = 10.0
    trees = [
        (float(x), float(y), float(r))
        for x, y, r in re.findall(r'<circle class="tree" cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', svg)
    ]
    houses = re.findall(r'<rect class="house" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg)
    assert trees and houses
    for x, y, r in trees:
        assert math.floor((x - r) / S) == math.floor((x + r) / S) and math.floor((y - r) / S) == math.floor((y + r) / S)
    for x, y, w, h in houses:
        x, y, w, h = map(float, (x, y, w, h))
        assert math.floor(x / S) == math.floor((x + w) / S) and math.floor(y / S) == math.floor((y + h) / S)


def _printed_size(char) -> float:
    """A character's font size as printed, in points: its box's height, or its width when it runs up or down the
    page (pdfplumber's 'size' is the box's height, so an edge name turned 90 degrees reads as its advance)."""
    return char["bottom"] - char["top"] if char["upright"] else char["x1"] - char["x0"]


def _small_text_on_maps(pdf_path) -> list[str]:
    """Every character under 7 pt on a page that prints a map (a page whose text opens with its heading)."""
    small, maps = [], 0
    with pdfplumber.open(pdf_path) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            lines = [line["text"] for line in page.extract_text_lines()]
            lines += [line[::-1] for line in lines]  # a booklet turns a wide map a quarter: its lines read backwards
            if not any(heading in lines for heading in MAP_HEADINGS) or "NORTH" not in lines:
                continue
            maps += 1
            small += [
                f"p.{number} {char['text']!r} at {_printed_size(char):.2f} pt"
                for char in page.chars
                if _printed_size(char) < 6.99
            ]
    assert maps, f"no map page found in {pdf_path}"
    return small


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("path", examples(FIRETEAM) + examples(MORSCHAUSER), ids=lambda p: p.stem)
def test_every_character_on_a_map_page_prints_at_7_pt_or_more(path, paper, built):
    """Read back from the PDF, no character on an example's map page (codes, level marks, names, coordinates,
    edge names, the legend) prints under 7 pt, on A4 and on Letter."""
    pack, _ = built(path.stem, "--paper", paper)
    assert _small_text_on_maps(pack) == []


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_character_on_a_booklets_map_pages_prints_at_7_pt_or_more(paper, example_booklet_on):
    """The example booklet prints the maps of its six examples whose words name the compass (and so print the
    edges' names the test finds a map by; landscape ones among them) with no character under 7 pt."""
    out = example_booklet_on(paper)
    with pdfplumber.open(out) as pdf:
        # a wide map is turned a quarter on its page, its text read backwards ("HTRON")
        maps = [page for page in pdf.pages if {"NORTH", "HTRON"} & set((page.extract_text() or "").split())]
    assert len(maps) == 6
    assert _small_text_on_maps(out) == []


def test_no_two_terrain_kinds_share_a_pattern():
    """Issue 11 (a fresh read of bridge's map): Crater and Rubble were drawn alike, stippled on a near-same fill,
    on the map and in its legend. Every area kind with a pattern has its own, so the kinds read apart in black and
    white too."""
    patterns = [pattern for _, pattern in tablemap.TERRAIN_STYLE.values() if pattern]
    assert sorted(patterns) == sorted(set(patterns))
    defs = tablemap._pattern_defs()
    assert all(f'id="{pattern}"' in defs for pattern in patterns)


def test_a_leader_line_counts_what_it_crosses():
    """Issue 11 (fresh reads of bridge's and hill-112's maps): 'Kessel bridge (light)' ran its leader line from the
    bridge's middle through the objective's star, and hill-112's '▲3' through B1's marker. A leader may not cross a
    unit, an objective, a label or another leader, save what it names; placement counts crossings as crowding."""
    from generator.labels import Label, Placement, crosses, segments_cross

    assert crosses((0, 0), (10, 0), Box(4, -1, 6, 1)) and not crosses((0, 2), (10, 2), Box(4, -1, 6, 1))
    assert not crosses((0, 1), (10, 1), Box(4, -1, 6, 1))  # along an edge only
    assert segments_cross(((0, 0), (2, 2)), ((0, 2), (2, 0))) and not segments_cross(((0, 0), (1, 1)), ((1, 1), (2, 0)))
    placement = Placement(Box(0, 0, 100, 100))
    placement.block(Box(48, 48, 52, 52), "unit marker")
    # a label whose only spot far to the right needs a leader from its anchor across the marker
    far = Label("Far", 2.0, (40, 50), [(70, 50)], reach=1.0)
    assert placement.crowding(far, far.box_at(70, 50)) > 0
    placed = placement.place(far)
    assert placement.collisions() == ["the leader of 'Far' crosses a unit marker"] and placed.leader
    # a label naming the marker itself may start its leader on it
    own = Placement(Box(0, 0, 100, 100))
    own.block(Box(48, 48, 52, 52), "objective")
    named = Label("Star", 2.0, (50, 50), [(70, 50)], reach=1.0, at="objective")
    assert own.crowding(named, named.box_at(70, 50)) == 0


@pytest.mark.parametrize("path", examples(MORSCHAUSER), ids=lambda p: p.stem)
def test_every_objective_star_prints_full_size(path):
    """Issue 11 (a fresh read of weissach's map): the bridge's star shrank into its square's last free corner,
    beside the river and the road, while the town's printed full size. A star marks a point and may stand on a
    road, a river or a bridge, so every example's stars print alike, and the 'heavier lines' note prints only
    where a contour line is heavier."""
    from generator.systems.morschauser.map import STAR_RADII

    drawing = grid_map(path)
    drawing.place_labels()
    stars = [box for kind, box in drawing.placement.obstacles if kind == "objective"]
    assert stars and {round(box.width, 6) for box in stars} == {round(2 * STAR_RADII[0], 6)}


@pytest.mark.parametrize("name,steep", [("weissach-bridge", False), ("hill-112", False)])
def test_the_map_note_speaks_of_heavier_contours_only_where_there_are_some(name, steep, built):
    """The legend said 'heavier lines are steeper steps' on maps whose every contour is one level."""
    pack, _ = built(name)
    with pdfplumber.open(pack) as pdf:
        text = " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)
    assert ("heavier lines are steeper steps" in text) == steep


def test_the_steepest_step_is_between_squares_that_share_a_side():
    from generator.systems.morschauser.relief import steepest

    assert steepest({(0, 0): 2}, 2, 1) == 2  # a level-2 square beside open ground
    assert steepest({(0, 0): 1, (1, 0): 2}, 3, 1) == 2  # level 2 meets open ground at (2, 0)
    assert steepest({(0, 0): 1, (1, 0): 2, (2, 0): 1}, 3, 1) == 1
    assert steepest({(0, 0): 2, (1, 1): 0}, 1, 1) == 0  # one square: no neighbour


@pytest.mark.parametrize("path", examples(FIRETEAM), ids=lambda p: p.stem)
def test_a_name_inside_its_own_area_has_no_leader(path):
    """Issue 11 (a fresh read of relay-station's map): 'Relay block (heavy)', moved up off the Uplink's star but
    still inside the building, got a leader line from the building's edge, which read as an interior wall. A
    name that lies inside its own area needs no line to it."""
    from generator.labels import within

    drawing = fireteam_map(path)
    inside = [
        p for p in drawing.place_labels() if p.label.outline and all(within(c, p.label.outline) for c in p.box.corners)
    ]
    assert all(p.leader is None for p in inside), [p.label.text for p in inside if p.leader]
    if path.stem == "relay-station":
        assert any(p.label.text.startswith("Relay block") for p in inside)
    assert within((0.5, 0.5), [(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)])
    assert not within((1.5, 0.5), [(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)])


@pytest.mark.parametrize("path", examples(FIRETEAM), ids=lambda p: p.stem)
def test_fireteam_terrain_ends_at_the_tables_frame(path):
    """The bridge's road and river ran a little past the frame (the square end of a slanted line stood out at a
    corner): every terrain drawing sits in a group clipped to the table's own rectangle."""
    drawing = fireteam_map(path)
    svg = str(drawing.svg())
    clip = re.search(r'<clipPath id="([^"]+)"><rect x="0" y="0" width="([\d.]+)" height="([\d.]+)"/></clipPath>', svg)
    assert clip and (float(clip[2]), float(clip[3])) == (drawing.width, drawing.depth)
    group = svg.index(f'<g clip-path="url(#{clip[1]})">')
    assert svg.index("\n".join(drawing.layers)) > group
    assert svg.index("</g>", group) > svg.index(drawing.layers[-1])


def test_a_line_that_leaves_the_table_runs_on_under_the_clip_to_end_square_along_the_frame():
    """Issue 11 (a fifth fresh read): the bridge's River Kessel met the north edge on a slant, and its band's square
    end left a wedge of bare table between the river and the frame. A line's end at the table's edge is drawn on
    past it by the band's width, and the clip to the table squares it off along the frame: the river's drawn path
    starts above the north edge and ends below the south one by more than half its width."""
    svg = str(fireteam_map(SCENARIOS / "bridge.yaml").svg())
    d = re.search(r'<path d="M([^"]+)" fill="none" stroke="#3b6f9e" stroke-width="([\d.]+)" stroke-linejoin', svg)
    points = [tuple(map(float, p.split())) for p in d[1].split(" L")]
    half = float(d[2]) / 2
    assert points[0][1] < -half and points[-1][1] > 48 + half, (points[0], points[-1])
    # an end inside the table is drawn where it ends (the wall's corner and ends)
    wall = re.search(r'<path d="M([^"]+)" fill="none" stroke="#4a4034" stroke-width="1.1"', svg)
    assert wall and wall[1].startswith("9 27") and wall[1].endswith("23 37")


def _plates(svg: str) -> list[tuple[str, Box]]:
    """The label plates drawn on a Fireteam map: (fill, box)."""
    found = re.finditer(
        r'<rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)" rx="[\d.]+" fill="(#\w+)"/>', svg
    )
    return [(m[5], Box(float(m[1]), float(m[2]), float(m[1]) + float(m[3]), float(m[2]) + float(m[4]))) for m in found]


@pytest.mark.parametrize("path", examples(FIRETEAM), ids=lambda p: p.stem)
def test_an_area_name_on_a_patterned_piece_sits_in_a_clearing_of_its_ground(path):
    """Alder wood's name printed across its tree symbols: a name inside a patterned piece has a plate of the
    piece's own fill under its whole box, drawn before its text; a name on plain ground or outside has none."""
    drawing = fireteam_map(path)
    svg = str(drawing.svg())
    plates = _plates(svg)
    scenario = load(path)
    battle, _ = read(scenario)
    patterned = {tablemap.TERRAIN_STYLE[f.kind][0] for f in battle.terrain if tablemap.TERRAIN_STYLE[f.kind][1]}
    expected = 0
    for placed in drawing.placement.placed:
        label, box = placed.label, placed.box
        if not (label.plate and label.outline and within(box.centre, label.outline)):
            continue
        expected += 1
        assert label.plate in patterned
        mine = [b for fill, b in plates if fill == label.plate and b.left <= box.left and b.right >= box.right]
        assert any(abs(b.top - box.top) < 0.01 and abs(b.bottom - box.bottom) < 0.01 for b in mine), label.text
    assert len(plates) == expected
    if path.stem == "bridge":
        assert expected >= 2  # Alder wood and Fox covert


def test_the_map_note_gives_each_deployment_zone_in_inches(tmp_path):
    """The bridge's Red Banner zone ends 10" down, between the map's 6" and 12" ticks: the note under the map says
    each zone's edges in numbers, read from the scenario."""
    assert main(["build", str(SCENARIOS / "bridge.yaml"), "--out", str(tmp_path)]) == 0
    with pdfplumber.open(tmp_path / "bridge" / "bridge.pdf") as pdf:
        text = " ".join(page.extract_text() for page in pdf.pages if "The table" in page.extract_text())
    text = " ".join(text.split())
    assert (
        "Deployment: Federal Rangers 0–28″ across and 38–48″ down and Farmyard (9.5–22.5″ across and 27.5–37″ "
        "down); Red Banner Militia 48–72″ across and 0–10″ down." in text
    )


EDGE = sorted((Path(__file__).parent / "data" / "edge").glob("*.yaml"))


@pytest.mark.parametrize("path", EDGE, ids=lambda p: p.stem)
def test_an_odd_but_valid_map_validates_and_places_its_labels(path, muster):
    """tests/data/edge/ holds files within every bound whose maps once crashed `muster validate` with exit 3 (each
    says on its first lines how): each validates, and its map places every label."""
    result = muster("validate", path)
    assert (result.code, result.err) == (0, ""), result.err
    drawing = grid_map(path) if "morschauser" in path.read_text() else fireteam_map(path)
    assert drawing.place_labels()


def test_a_bands_overlap_with_a_box_is_the_area_they_share():
    """A line is an obstacle of its true shape (issue 12, F3): a band's overlap with a box is the area inside both,
    checked against counting a fine grid of points, and nothing when they only touch."""
    import random

    from generator.labels import Band

    def inside(band: Band, x: float, y: float) -> bool:
        (x0, y0), (x1, y1) = band.start, band.end
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy)
        along = ((x - x0) * dx + (y - y0) * dy) / length
        across = abs((x - x0) * dy - (y - y0) * dx) / length
        return 0 <= along <= length and across <= band.width / 2

    rng = random.Random(3)
    for _ in range(40):
        band = Band(
            (rng.uniform(0, 10), rng.uniform(0, 10)), (rng.uniform(0, 10), rng.uniform(0, 10)), rng.uniform(0.1, 3)
        )
        x, y = rng.uniform(0, 8), rng.uniform(0, 8)
        box = Box(x, y, x + rng.uniform(0.5, 4), y + rng.uniform(0.5, 4))
        n = 200
        cell = box.width * box.height / n**2
        counted = sum(
            cell
            for i in range(n)
            for j in range(n)
            if inside(band, box.left + (i + 0.5) * box.width / n, box.top + (j + 0.5) * box.height / n)
        )
        assert band.overlap(box) == pytest.approx(counted, abs=box.width * box.height * 0.02), (band, box)
    flat = Band((0.0, 5.0), (10.0, 5.0), 2.0)  # from 4 to 6 across
    assert flat.overlap(Box(2, 6, 3, 8)) == 0 and flat.overlap(Box(2, 0, 3, 4)) == 0  # touching its edges
    assert flat.overlap(Box(2, 5, 3, 8)) == pytest.approx(1.0)
    slanting = Band((0.0, 0.0), (10.0, 10.0), 1.0)
    assert slanting.overlap(Box(5.75, 0, 9, 4.85)) == 0  # beside it: its square boxes once covered this


@pytest.mark.parametrize("width, depth", [(12, 12), (24, 24), (36, 24), (72, 48), (480, 480)])
def test_the_scales_numbers_lie_inside_the_map_on_every_size_of_table(width, depth):
    """Fourth red team F5: on a 24-inch table the margin (4.5% of the table) was narrower than '24' at the scale's
    fixed size in mm, and the numbers at the left printed as '2', '8', '4', the tops of those above cut off. The
    widest number at the left and the numbers' height above the top lie inside the picture's margin."""
    from generator.tablemap import FONT_MM, TICK_SIZE, TICK_TEXT, TableMap

    drawing = TableMap(width, depth, tick=6 if max(width, depth) <= 96 else 12)
    fs = FONT_MM * TICK_SIZE / drawing.scale
    last = int(depth // drawing.tick) * drawing.tick
    assert TICK_TEXT + fonts.text_width(f"{last:g}", fs) <= drawing.margin
    assert TICK_TEXT + fs * 0.8 <= drawing.margin


def _scale_numbers(svg: str, font: float) -> list[Box]:
    """Where the scale's numbers print on a Fireteam map, read from its SVG: each <text> outside the table
    (a negative x or y) as a box a number's height tall, placed by its text-anchor."""
    boxes = []
    for m in re.finditer(
        r'<text x="([\d.-]+)" y="([\d.-]+)" font-size="([\d.]+)" text-anchor="(\w+)">([\d.]+)</text>', svg
    ):
        x, y, size, anchor, number = float(m[1]), float(m[2]), float(m[3]), m[4], m[5]
        if x >= 0 and y >= 0:
            continue
        wide = fonts.text_width(number, size)
        left = x - wide / 2 if anchor == "middle" else x - wide
        boxes.append(Box(left, y - size * 0.8, left + wide, y + size * 0.2))
    return boxes


def test_a_name_with_no_clear_spot_stays_on_the_table_clear_of_the_frame_and_the_scale(tmp_path):
    """Fourth red team F4: on a 24-inch table crossed by two diagonals, a river and a road, the bow-tie wood's
    name found no clear spot round its middle and took the least crowded one, out across the table's frame and
    over the scale's '6'. A spot reaching off the table slides back onto it; the frame and the numbers are marks
    no name may cover."""
    drawing = fireteam_map(Path(__file__).parent / "data" / "edge" / "crowded_corner_beside_the_scale.yaml")
    svg = str(drawing.svg())
    frame = re.search(
        r'<rect x="0" y="0" width="([\d.]+)" height="([\d.]+)" fill="#f7f5ee" stroke="#000" stroke-width="([\d.]+)"/>',
        svg,
    )
    width, depth, stroke = float(frame[1]), float(frame[2]), float(frame[3])
    inside = Box(stroke / 2, stroke / 2, width - stroke / 2, depth - stroke / 2)
    numbers = _scale_numbers(svg, drawing.font)
    assert len(numbers) == 2 * (24 // 6 + 1)
    for placed in drawing.place_labels():
        assert placed.box.inside(inside), (placed.label.text, placed.box)
        assert not [n for n in numbers if n.overlap(placed.box) > 0], placed.label.text
