"""The quick reference prints only the rules for what a scenario fields or plays (issue 11): whole sections, notes
and table rows by name (System.in_play), and single lines written in the rule data as {text, applies_to}."""

from __future__ import annotations

import html
import re

import pytest
from conftest import SCENARIOS, examples_by_system

from generator.build import Options, choose_seed, compute, load, pack_html
from generator.loading import load_text
from generator.models import NoteText, ReferenceLine, line_text, note_text
from generator.schema import Checker
from generator.systems import get, known

EXAMPLES = [name for names in examples_by_system().values() for name in names]
SYSTEMS_WITH_EXAMPLES = [system for system in known() if examples_by_system().get(system)]


def _words(text: str) -> str:
    """Text as compared here: straight quotes and hyphens, one space between words."""
    text = text.translate(str.maketrans({"\u2212": "-", "\u2013": "-", "\u2019": "'", "\u2018": "'", "\u201c": '"'}))
    return " ".join(text.replace("\u201d", '"').split())


def _prepared(name: str):
    scenario = load(SCENARIOS / f"{name}.yaml")
    seed = choose_seed(scenario, None)
    return scenario, scenario.system.prepare(scenario, seed)


def _pack_text(name: str) -> str:
    scenario = load(SCENARIOS / f"{name}.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    return _words(html.unescape(re.sub(r"<[^>]+>", " ", pack_html(scenario, pack))))


def _applied_lines(system_id: str) -> list[dict]:
    data = get(system_id).rules_filled.data
    return [line for section in data.get("reference", []) for line in section["lines"] if isinstance(line, dict)]


def _parted_notes(data, where: str = "") -> list[tuple[str, list]]:
    """Every note of the rule data written in parts, with the name it prints under."""
    out = []
    if isinstance(data, dict):
        if isinstance(data.get("note"), list):
            out.append((data.get("name") or data.get("title") or where, data["note"]))
        for key, value in data.items():
            out.extend(_parted_notes(value, key))
    elif isinstance(data, list):
        for item in data:
            out.extend(_parted_notes(item, where))
    return out


def _note_subjects(note: list) -> list[str]:
    """What a note's parts apply to, the items of a listing part included."""
    parts = [item for part in note if isinstance(part, dict) for item in part.get("each", [part])]
    return [name for part in parts for name in part["applies_to"]]


def _variant_notes(system_id: str) -> list[tuple[str, str]]:
    """Each variant's (name, note) in the rule data, for the systems that keep variants as a list or a mapping."""
    variants = get(system_id).rules_filled.data.get("variants") or []
    entries = variants.values() if isinstance(variants, dict) else variants
    return [(entry["name"], note_text(entry["note"])) for entry in entries if entry.get("note")]


@pytest.mark.parametrize("system_id", SYSTEMS_WITH_EXAMPLES)
def test_every_line_names_what_the_system_can_tell_is_in_play(system_id):
    """A line's applies_to names only things the system knows whether a scenario fields (a misspelt name would
    make a line print always, or never)."""
    scenario, prepared = _prepared(examples_by_system()[system_id][0])
    vocabulary = set(scenario.system.in_play(prepared))
    unknown = [(line["text"][:40], name) for line in _applied_lines(system_id) for name in line["applies_to"]]
    unknown += [
        (where, name)
        for where, note in _parted_notes(get(system_id).rules_filled.data)
        for name in _note_subjects(note)
    ]
    assert [item for item in unknown if item[1] not in vocabulary] == []


def test_a_note_in_parts_is_checked_like_a_reference_line_and_a_list_says_where_it_goes():
    """A note is text or a list of parts: text, {text, applies_to}, or {text, each} whose text holds {each}."""
    text = (
        "notes:\n"
        "  - A note.\n"
        "  - [A part., {text: About rivers., applies_to: [river]}]\n"
        "  - [{text: 'Not named: {each}.', join: or, each: [{text: a, applies_to: [A]}, {text: b, applies_to: [B]}]}]\n"
        "  - [{text: 'No list.', each: [{text: a, applies_to: [A]}, {text: b, applies_to: [B]}]}]\n"
        "  - [{text: A part., applies_too: [river]}]\n"
    )
    doc = load_text(text, "rules.yaml")
    checker = Checker(doc)
    notes = doc.data["notes"]
    for n in range(3):
        NoteText().check(notes[n], ("notes", n), checker)
    assert checker.problems == []
    assert note_text(notes[2], frozenset({"B"})) == "Not named: a." and note_text(notes[2]) == "Not named: a or b."
    assert note_text(notes[1], frozenset({"river"})) == "A part."
    NoteText().check(notes[3], ("notes", 3), checker)
    NoteText().check(notes[4], ("notes", 4), checker)
    assert {p.line for p in checker.problems} == {5, 6}
    assert any("{each}" in p.message for p in checker.problems)


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_note_prints_only_its_parts_about_what_the_scenario_fields(name):
    """A fresh read found Weissach's notes naming infantry guns, mountain and light field artillery it does not
    field, and Medium/Heavy artillery's note on rivers where the map has none: a note in parts prints the
    sentences (and the items of a list) about what the scenario fields, and never its whole text when a part is
    left out."""
    scenario, prepared = _prepared(name)
    left_out = scenario.system.leaves_out(prepared)
    text = _pack_text(name)
    for where, note in _parted_notes(scenario.system.rules_filled.data):
        printed, whole = _words(note_text(note, left_out)), _words(note_text(note))
        if where in left_out or not printed:
            assert printed not in text or not printed
            continue
        assert printed in text, (where, printed)
        if printed != whole:
            assert whole not in text, where


def test_the_notes_in_parts_leave_something_out_of_an_example():
    """The test above proves something: Weissach's notes leave out a part (mountain artillery, light field
    artillery) and Hill 112's the rivers."""
    for name, absent in (("weissach-bridge", "mountain artillery"), ("hill-112", "river square costs 2")):
        assert absent not in _pack_text(name).lower(), name


def test_a_reference_line_is_text_or_text_with_what_it_applies_to():
    """The rule data's shape check takes both forms of a line and refuses anything else at its line and column."""
    text = (
        "lines:\n"
        "  - A rule.\n"
        "  - {text: A rule., applies_to: [river]}\n"
        "  - {text: A rule., applys_to: [river]}\n"
        "  - {text: A rule., applies_to: []}\n"
        "  - {text: A rule., applies_to: [river], lead: 'Without rivers:'}\n"
        "  - {text: A rule., applies_to: [river], lead: 'Without fords:', lead_with: [ford]}\n"
    )
    doc = load_text(text, "rules.yaml")
    checker = Checker(doc)
    lines = doc.data["lines"]
    spec = ReferenceLine()
    assert spec.check(lines[0], ("lines", 0), checker) == "A rule."
    assert spec.check(lines[1], ("lines", 1), checker) == {
        "text": "A rule.",
        "applies_to": ["river"],
        "lead": "",
        "lead_with": [],
    }
    assert spec.check(lines[5], ("lines", 5), checker)["lead_with"] == ["ford"]
    assert checker.problems == []
    spec.check(lines[2], ("lines", 2), checker)
    spec.check(lines[3], ("lines", 3), checker)
    spec.check(lines[4], ("lines", 4), checker)  # a lead that never says when it prints
    assert {p.line for p in checker.problems} == {4, 5, 6}
    assert any("applys_to" in p.message and "did you mean" in p.message for p in checker.problems)


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_quick_reference_prints_a_line_only_where_what_it_applies_to_is_in_play(name):
    """Each example's pack prints every line whose subject it fields and none whose subjects it lacks: a fresh
    reader found Hill 112 printing the river and poor-quality modifiers, the bridge printing "+3 Hero"; and the
    notes of a variant only where the scenario plays it (Weissach printed the Woods cost variant's note, Vesta
    Relay the discipline variant's)."""
    scenario, prepared = _prepared(name)
    left_out = scenario.system.leaves_out(prepared)
    text = _pack_text(name)
    printed = {_words(line["text"]): _words(line["text"]) in text for line in _applied_lines(scenario.system.id)}
    wanted = {
        _words(line["text"]): not all(subject in left_out for subject in line["applies_to"])
        for line in _applied_lines(scenario.system.id)
    }
    assert printed == wanted
    for variant, note in _variant_notes(scenario.system.id):
        assert (_words(note)[:60] in text) == (variant not in left_out), variant


def test_a_battle_without_vehicles_prints_no_vehicle_rule():
    """The bridge fields no vehicle: its cover's table has no Vehicles column of noughts, its run-sheet does not
    speak of vehicles' cards and its movement odds have no vehicle column."""
    text = _pack_text("bridge")
    assert not re.search(r"(?i)vehicle", text)
    assert re.search(r"(?i)vehicle", _pack_text("relay-station"))  # which fields one, and says so


def test_movement_costs_name_only_the_ground_in_play_and_not_the_scatter_again():
    """Hill 112 has roads and towns but no river: its movement costs say "Road, town", not "Road, town, bridge",
    and list the movement variant, not the scatter variant the scatter table already names."""
    text = _pack_text("hill-112")
    costs = text[text.index("Movement costs") :][:400]
    assert "Road, town:" in costs and "bridge" not in costs.lower()
    assert "Woods cost movement" in costs and "Clock-face scatter" not in costs


@pytest.mark.parametrize("system_id", SYSTEMS_WITH_EXAMPLES)
def test_a_reference_for_every_scenario_keeps_every_line(system_id):
    """A booklet's appendix serves every chapter of its system: without a scenario the reference keeps every line,
    each as its text."""
    system = get(system_id)
    printed = [line for section in system.reference()["sections"] for line in section["lines"]]
    assert all(isinstance(line, str) for line in printed)
    assert {line_text(line) for line in _applied_lines(system_id)} <= set(printed)


def test_a_variant_that_replaces_the_action_roll_replaces_it_in_the_quick_reference():
    """Issue 11 (found by two fresh reads): the Discipline variant's quick reference printed the standard roll
    ("D6: 1 gives 1 action point, 2-5 give 2, 6 gives 3"), which the variant replaces, and not the test it plays.
    Each pack prints only the roll it plays."""
    standard, test = (
        "1 gives 1 action point, 2-5 give 2, 6 gives 3",
        "Discipline test variant, points: 1 below Discipline",
    )
    plain, discipline = _pack_text("vesta-relay"), _pack_text("vesta-relay-discipline")
    assert standard in plain and test not in plain
    assert test in discipline and standard not in discipline


def test_each_action_roll_in_the_reference_says_which_rules_it_belongs_to():
    """Issue 11 (a fresh read of the booklet): Appendix C's quick reference, serving the Vesta Relay chapters with
    and without the Discipline test, printed "Standard roll..." and "Discipline test..." one after the other with
    nothing saying which chapter plays which. Each roll line names its rules, so a page that prints both reads."""
    from generator.systems.parabellum.pack import STANDARD_ROLL

    lines = {tuple(line["applies_to"]): line_text(line) for line in _applied_lines("para-bellum")}
    assert lines[(STANDARD_ROLL,)].startswith("Without the Discipline test variant")  # true under house rules too
    # a later read: "..., then roll a D6." followed by "As originally written, roll a D6: ..." said the roll twice;
    # the line before every roll line says it once
    roll_lines = [text for text in lines.values()] + [
        text
        for section in get("para-bellum").rules_filled.data["reference"]
        for text in (line if isinstance(line, str) else line["text"] for line in section["lines"])
        if text.endswith("then roll a D6.")
    ]
    assert sum("roll a D6" in text for text in roll_lines) == 1, roll_lines
    variants = dict(_variant_notes("para-bellum"))
    for applies, text in lines.items():
        for name in set(applies) & set(variants):
            assert f"Under the {name.split(' (')[0]} variant" in text, text


def test_a_pack_playing_one_roll_does_not_name_the_other():
    """A fresh read of the Vesta Relay: its reference began the roll line "Without the Discipline test variant",
    a variant that pack never plays or explains. The words that tell the two rolls apart print only where both
    print (a booklet's appendix serving chapters of each); the standard pack prints the roll alone."""
    from generator.systems.parabellum.pack import STANDARD_ROLL

    plain, discipline = _pack_text("vesta-relay"), _pack_text("vesta-relay-discipline")
    assert "Discipline test variant:" not in plain  # its source line still cites where the variant comes from
    assert "then roll a D6. 1 gives 1 action point, 2-5 give 2, 6 gives 3." in plain
    (line,) = [line for line in _applied_lines("para-bellum") if line["applies_to"] == [STANDARD_ROLL]]
    variant = line["lead_with"][0]
    assert line_text(line, frozenset({variant})) == "1 gives 1 action point, 2-5 give 2, 6 gives 3."
    assert line_text(line, frozenset()) == "Without the Discipline test variant: " + line_text(
        line, frozenset({variant})
    )
    assert "Under the Discipline test variant, points: 1 below Discipline" in discipline


def test_the_jump_line_in_the_quick_reference_keeps_the_rules_at_least():
    """Issue 11 (a fresh read): the quick reference said "Start and land 3\" from any figure" where the rule says
    at least 3\"."""
    (line,) = [
        text
        for section in get("fireteam-tomorrow").rules_filled.data["reference"]
        for text in (line if isinstance(line, str) else line["text"] for line in section["lines"])
        if "Start and land" in text
    ]
    assert 'at least 3"' in line


def test_a_map_without_a_river_never_speaks_of_rivers():
    """A fresh read of Hill 112, which has no river: the woods variant cost two "like a river", the roads note
    spoke of bridges and Medium/Heavy artillery's note of river squares. Weissach, which has one, still does."""
    assert "river" not in _pack_text("hill-112").lower()
    assert "river square" in _pack_text("weissach-bridge").lower()


@pytest.mark.parametrize(
    "clause",
    [
        "A HIT figure in HTH loses at once and is removed",
        "There is no disengagement from HTH",
        "No firing at or into HTH, though figures in HTH may be caught by the edge of an explosion",
        "One figure guards up to 5 captives in place; moving them takes one figure per 3 captives.",
        "A team that joins another acts on that team's cards; its own leave the deck.",
        "A team that has withdrawn, or joined another team, has no cards of its own any more: skip its lines.",
        "Level: how many targets one figure may fire at on one Fire card.",
        "medic within 3\u2033 (the medic is this pack's reading of the missing third modifier)",
        "heavy armour (this pack's reading: the original rules name only medium)",
    ],
)
def test_fireteams_reference_prints_every_clause_of_the_original_rules(clause):
    """Issue 14's audit: the seed's HTH removal, no disengagement, no firing into HTH, captives, a merged team's
    cards (on the reference and the run-sheet) and what a weapon's Level means were never printed, and the medic
    and heavy armour modifiers, Muster's readings, did not say so where a player reads them."""
    text = _pack_text("bridge").replace("\u2019", "'")
    assert _words(clause) in text


def test_fireteams_vehicle_armour_and_jump_clearance_print_where_they_are_in_play():
    with_vehicle, without = _pack_text("relay-station"), _pack_text("bridge")
    armour = "Against a vehicle the target adds +2 for its armour"
    assert armour in with_vehicle and armour not in without
    jump = "A jump clears an obstacle half as high as the distance jumped, or goes 18\u2033 straight up or down."
    assert jump in with_vehicle and jump not in without  # Relay Station fields jump packs, the bridge does not


@pytest.mark.parametrize(
    "clause",
    [
        "next to the fronts of several enemies, choose which to face and fight",
        "if that brings it into contact with an enemy, it may not attack it this turn",
        "Hills: climb or descend as many contours each square entered as Unit types gives (this pack's reading",
    ],
)
def test_morschauers_reference_prints_the_facing_choice_the_advance_and_the_hills_reading(clause):
    """Issue 14's audit: the seed's "it may choose which of the enemy units it will face" and "may not attack the
    enemy unit this turn" after an advance were never printed, and the per-square reading of the hills rule was
    printed as if the seed said it."""
    assert _words(clause) in _pack_text("hill-112").replace("\u2019", "'")


@pytest.mark.parametrize(
    "scenario, printed",
    [
        # Fireteam: the original rules' bands stop at 3 to 5 (rule data hth.bands_note)
        ("bridge", "this pack’s readings: 1 to 2 loser HIT, a tie fights on."),
        # Para Bellum: Stand Ready! as the whole activation (its note), and Take Aim!'s bonus the seed never sizes
        ("vesta-relay", "Stand Ready! only on its own (this pack’s reading)."),
        ("vesta-relay", "Take Aim! gives a bonus to shooting that the original rules do not size (agree one before"),
        # Morschauser: cover and fortifications never add up (battle.terrain_note)
        ("weissach-bridge", "in cover as well, only the better counts (this pack’s reading)."),
    ],
)
def test_a_reading_the_pack_chose_says_so_where_the_player_reads_it(scenario, printed):
    """A fresh read of the quick references: Fireteam's "1 to 2 loser HIT; tie, fight on", Para Bellum's "Stand
    Ready! only on its own" and Morschauser's "+2 in fortifications" were this pack's readings, said only in notes
    pages away, and Take Aim! promised a bonus of no size. Each line now says it is a reading where it prints."""
    loaded = load(SCENARIOS / f"{scenario}.yaml")
    built, _ = compute(loaded, choose_seed(loaded, None), Options(), with_cards=False)
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", pack_html(loaded, built))).split())
    assert printed in words
