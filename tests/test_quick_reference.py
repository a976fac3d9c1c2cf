"""The quick reference prints the rules for what a scenario fields (issue 11): nothing its forces lack, everything
they have, in all four systems; a booklet's appendix, which serves every chapter, keeps every rule."""

from __future__ import annotations

import html
import re

import pytest
import yaml
from conftest import SCENARIOS, examples_by_system

from generator import build
from generator.build import Parts

EXAMPLES = [name for names in examples_by_system().values() for name in names]


def _reference_html(scenario, whole: bool = False) -> str:
    pack, _ = build.compute(
        scenario, build.choose_seed(scenario, None), build.Options(), with_cards=False, whole_reference=whole
    )
    return build.pack_html(scenario, pack, Parts.of("reference"))


def _headings(page: str) -> set[str]:
    """What the reference heads something with: section titles, note headings and each table row's first cell."""
    found = re.findall(r"<h3>(.*?)</h3>", page) + re.findall(r"<strong>(.*?)</strong>", page)
    found += re.findall(r"<tr><td>(?:<b>)?(.*?)(?:</b>)?</td>", page)
    return {html.unescape(re.sub(r"<[^>]+>", "", text)).strip().rstrip(".").lower() for text in found}


def _fielded(name: str) -> dict[str, bool]:
    """What the scenario's own YAML fields, read without Muster's code: the rules named here must print when
    True and must not when False."""
    data = yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text(encoding="utf-8"))
    system = data["system"]
    sides = data["sides"]
    if system == "fireteam-tomorrow":
        teams = [team for side in sides for team in side.get("teams") or []]
        vehicles = [vehicle for side in sides for vehicle in side.get("vehicles") or []]
        weapons = {figure.get("weapon") for team in teams for figure in team["figures"]}
        weapons |= {weapon for vehicle in vehicles for weapon in vehicle.get("weapons") or []}
        out = {
            "Jump packs": any(team.get("jump_packs") for team in teams),
            "Vehicles": bool(vehicles),
            "Vehicle armour": bool(vehicles),
        }
        return {**out, **{weapon: True for weapon in weapons if weapon}}
    if system == "morschauser-modern":
        from generator.systems import get

        names = {entry["id"]: entry["name"] for entry in get(system).rules_filled.data["unit_types"]}
        types = {names[unit["type"]] for side in sides for unit in side["units"]}
        return {name: name in types for name in names.values()}
    if system == "warspike":
        blocks = any(side.get("blocks") for side in sides)
        return {"Blocks": blocks, "Hold orders": "hold: true" in (SCENARIOS / f"{name}.yaml").read_text()}
    tags = {
        tag
        for side in sides
        for unit in side["units"]
        for w in unit.get("weapons") or []
        for tag in w.get("tags") or []
    }
    return {tag: True for tag in tags}


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_quick_reference_names_what_the_forces_field_and_nothing_else(name):
    """Every rule the system prints only for what a scenario fields (System.in_play: a weapon, a unit type, jump
    packs, vehicles, Blocks, hold orders, a tag) heads a section, note or table row of the quick reference exactly
    when the scenario fields it, and the scenario's own YAML agrees on what it fields."""
    scenario = build.load(SCENARIOS / f"{name}.yaml")
    system = scenario.system
    in_play = system.in_play(system.prepare(scenario, build.choose_seed(scenario, None)))
    assert in_play, f"{system.id} names no rule that depends on what a scenario fields"
    for thing, fielded in _fielded(name).items():
        assert in_play.get(thing) == fielded, (thing, fielded, in_play.get(thing))
    printed, whole = _headings(_reference_html(scenario)), _headings(_reference_html(scenario, whole=True))
    for thing, fielded in in_play.items():
        if thing.lower() not in whole:
            continue  # a key (`vehicles`) or a name the reference never heads anything with
        if fielded:
            assert thing.lower() in printed, f"{name}: the quick reference leaves out {thing!r}, which it fields"
        else:
            assert thing.lower() not in printed, f"{name}: the quick reference prints {thing!r}, which it lacks"


def test_bridge_prints_no_jump_packs_and_no_vehicles():
    """The bridge's Rangers and militia have neither jump packs nor vehicles: their rules and the weapons nobody
    carries are not on its quick reference (a new user's find)."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", _reference_html(build.load(SCENARIOS / "bridge.yaml"))))
    for absent in ("Jump", "jump pack", "Vehicle", "vehicles", "Sword", "Light mortar", "Grenade launcher"):
        assert absent not in text, absent
    assert "Assault rifle" in text and "Sniper rifle" in text


@pytest.mark.parametrize("system_id", sorted(examples_by_system()))
def test_a_booklet_appendix_keeps_every_rule(system_id):
    """The appendix serves every chapter, so its quick reference prints every section, note and row the system has
    (where its chapters play every variant): nothing is left out for the scenario it happens to be rendered from."""
    name = examples_by_system()[system_id][0]
    scenario = build.load(SCENARIOS / f"{name}.yaml")
    every = frozenset(scenario.system.variants())
    pack, _ = build.compute(scenario, 1, build.Options(), with_cards=False, whole_reference=True, book_variants=every)
    assert not pack["reference"]["leaves_out"]
    rules = scenario.system.rules_filled.data
    assert [s["title"] for s in pack["reference"]["sections"]] == [s["title"] for s in rules.get("reference", [])]


@pytest.mark.parametrize(
    ("played", "printed", "left_out"),
    [
        (
            {"clock-face-scatter", "woods-cost-movement"},
            {"Woods cost movement"},
            {"Centric scatter", "Pass through stationary friends", "Cavalry move 3", "Variants"},
        ),
        (
            {"clock-face-scatter", "centric-scatter"},
            {"Centric scatter", "Variants"},
            {"Woods cost movement", "Pass through stationary friends"},
        ),
    ],
)
def test_a_booklet_appendix_leaves_out_the_variants_no_chapter_plays(played, printed, left_out):
    """A fresh read of the example booklet: Appendix B's notes printed "Pass through stationary friends" (a unit may
    move through a friend) as if it were a rule, beside the note that units may not pass through friends, and the
    Centric scatter's notes, though no chapter plays either. The appendix prints the notes of the variants its
    chapters play, and the note on playing the two scatters together only where both are played."""
    scenario = build.load(SCENARIOS / "hill-112.yaml")
    pack, _ = build.compute(
        scenario, 1, build.Options(), with_cards=False, whole_reference=True, book_variants=frozenset(played)
    )
    headings = {note["rule"] for note in pack["reference"]["notes"]}
    assert printed <= headings and not left_out & headings, headings


def test_the_odds_give_jump_mishaps_only_where_a_team_jumps():
    """The odds part prints the jump-pack mishap only for a scenario whose teams wear jump packs (relay-station's
    do, the bridge's do not); a booklet's appendix, serving every chapter, always prints it."""
    for name, jumps in (("bridge", False), ("relay-station", True)):
        scenario = build.load(SCENARIOS / f"{name}.yaml")
        for whole in (False, True):
            pack, _ = build.compute(scenario, 1, build.Options(), with_cards=False, whole_reference=whole)
            odds = build.pack_html(scenario, pack, Parts.of("odds"))
            assert ("Jump packs: mishap" in odds) == (jumps or whole), (name, whole)


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("whole", [False, True], ids=["pack", "appendix"])
def test_no_two_headings_of_the_quick_reference_say_the_same(name, whole):
    """Issue 11 (consistency): Para Bellum's quick reference headed a column "Actions" (what points buy) and the
    table under it "Actions" too, a reader looking for one found the other. Each heading in a quick reference,
    a pack's or an appendix's, names its own thing."""
    from generator.build import load

    page = _reference_html(load(SCENARIOS / f"{name}.yaml"), whole)
    heads = [html.unescape(re.sub(r"<[^>]+>", "", text)).strip() for text in re.findall(r"<h3[^>]*>(.*?)</h3>", page)]
    assert heads, "the quick reference has headings"
    assert sorted({h for h in heads if heads.count(h) > 1}) == []


def _variant_names(data: dict) -> dict[str, str]:
    """Every optional variant of a system's rule data, id to name (a list of entries or a mapping by id)."""
    variants = data.get("variants") or {}
    entries = variants.items() if isinstance(variants, dict) else ((v["id"], v) for v in variants)
    return {key: value["name"].split(" (")[0] for key, value in entries}


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_printed_note_speaks_of_a_variant_the_scenario_does_not_play(name):
    """Issue 11 (a fresh read): the Bridge at Weissach, which plays no variant, printed "nor, under the variant
    Woods cost movement, in a wood" and "Clock-face scatter and Centric scatter each replace the original
    scatter". A note about a variant prints only where the variant is played (a booklet's appendix keeps all)."""
    scenario = build.load(SCENARIOS / f"{name}.yaml")
    system = scenario.system
    played = set(yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text(encoding="utf-8")).get("variants") or [])
    absent = [v for key, v in _variant_names(system.rules_filled.data).items() if key not in played]
    notes = system.reference(system.prepare(scenario, build.choose_seed(scenario, None)))["notes"]
    for note in notes:
        for variant in absent:
            assert variant not in note["note"] and variant not in note["rule"], (variant, note)
