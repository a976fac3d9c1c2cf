"""House rules: a club's file merged into a system's rule data (generator/house.py), checked like rules.yaml, and
followed by validation, odds, decks, cards, rosters and the reference alike."""

from __future__ import annotations

import html
import json
import re
import shutil
import textwrap
from fractions import Fraction

import pypdfium2
import pytest
from conftest import SCENARIOS

from generator import build, house, systems
from generator.errors import InputProblems
from generator.loading import load_file


def _text(path) -> str:
    pdf = pypdfium2.PdfDocument(str(path))
    try:
        return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


def _write(folder, name: str, text: str):
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


# a value the house rules changed, as the quick reference marks it beside the rules as written's: in the rule
# data's Markdown, the pack's HTML and a PDF's text
_MARKED_MD = re.compile(r"\*\*([^*]*)\*\* \*\(house rule[^*]*\)\*")
_MARKED_HTML = re.compile(r"<strong>([^<]*)</strong> <em>\(house rule[^<]*\)</em>")
_MARKED_TEXT = re.compile(r"\s*\(house\s+rule(?:;\s+was\s+(?:[^()]|\([^()]*\))*)?\)")


def _unmarked(text: str) -> str:
    """A page's text without the quick reference's house-rule marks: what the rules it plays say."""
    return _MARKED_TEXT.sub("", _MARKED_HTML.sub(r"\1", _MARKED_MD.sub(r"\1", text)))


def _problems(path, system_id: str, notices: bool = False) -> list:
    """The problems merging a house-rules file raises (with the notice of checks still to come, if `notices`)."""
    with pytest.raises(InputProblems) as caught:
        systems.get(system_id).with_house_rules(path)
    return [p for p in caught.value.problems if notices or not p.notice]


# --- muster rules -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("system_id", systems.known())
def test_the_printed_rule_data_is_a_house_file_that_changes_nothing(muster, tmp_path, system_id):
    done = muster("rules", system_id)
    assert done.code == 0, done.err
    path = tmp_path / "house.yaml"
    path.write_text(done.out, encoding="utf-8")
    assert load_file(path).data["system"] == system_id
    merged = systems.get(system_id).with_house_rules(path)
    assert merged.house.changes == []
    assert merged.rules == systems.get(system_id).rules
    again = muster("rules", system_id, "--house-rules", path)
    assert again.code == 0, again.err
    assert "  # house rule" not in again.out  # no value is marked changed


def test_the_printed_rule_data_keeps_its_notes_as_comments(muster):
    out = muster("rules", "fireteam-tomorrow").out
    assert "\nsystem: fireteam-tomorrow\n" in out
    assert not re.search(r"^\s*-?\s*note:", out, re.MULTILINE)
    # the medic's note (a reading of the original rules) sits above its entry as a comment
    assert '# The original rules say "add only ONE of these three modifiers"' in out
    assert "\nid:" not in out and "\ntitle: Fireteam" not in out  # the system's own, not a house file's


# --- merging ------------------------------------------------------------------------------------------------

KESSEL = """
    system: fireteam-tomorrow
    title: Kessel Valley Club house rules
    note: Played at the club since 2025.
    recovery:
      target: 7
      note: Our medics are better.
    weapons:
      - name: Assault rifle
        range: 32
      - name: Plasma lance
        class: special
        level: 3
        range: 12
    """


def test_mappings_merge_by_key_and_named_lists_by_name(tmp_path):
    base = systems.get("fireteam-tomorrow")
    merged = base.with_house_rules(_write(tmp_path, "club.yaml", KESSEL))
    assert merged.rules.recovery.target == 7 and merged.rules.recovery.dice == base.rules.recovery.dice
    assert base.rules.recovery.target == 8  # the built-in system is untouched
    weapons = {w.name: w for w in merged.rules.weapons}
    assert weapons["Assault rifle"].range == 32 and weapons["Assault rifle"].level == 1
    assert weapons["Plasma lance"].level == 3
    assert [w.name for w in merged.rules.weapons][: len(base.rules.weapons)] == [w.name for w in base.rules.weapons]
    changes = {c.path: (c.was, c.now) for c in merged.house.changes}
    assert changes[("recovery", "target")] == (8, 7)
    assert len(changes) == 3
    assert set(merged.house.notes.values()) == {"Played at the club since 2025.", "Our medics are better."}
    assert merged.house.notes[("recovery",)] == "Our medics are better."


def test_a_reference_line_follows_the_value_it_names(tmp_path):
    merged = systems.get("fireteam-tomorrow").with_house_rules(_write(tmp_path, "club.yaml", KESSEL))
    lines = [line for s in merged.reference()["sections"] for line in s["lines"] if "stands up" in line]
    # the value the house rules changed is marked, the value as written beside it
    assert lines == ["Roll 2D6 for each HIT figure; **7** *(house rule; was 8)* or more stands up, less is removed."]


# --- problems, at the house file's own lines --------------------------------------------------------------


def test_an_unknown_key_is_named_at_its_line_with_did_you_mean(tmp_path):
    path = _write(tmp_path, "club.yaml", "system: fireteam-tomorrow\nrecovery:\n  targte: 7\n")
    [problem] = _problems(path, "fireteam-tomorrow")
    assert (problem.file, problem.line, problem.col) == (str(path), 3, 3)
    assert "did you mean 'target'" in problem.message


def test_rule_data_that_no_longer_holds_together_is_refused_at_the_changed_value(tmp_path):
    path = _write(tmp_path, "club.yaml", "system: fireteam-tomorrow\nlimits:\n  team_min: 9\n")
    [problem] = _problems(path, "fireteam-tomorrow")
    assert (problem.file, problem.line) == (str(path), 3)
    assert "above the most" in problem.message


def test_a_wrong_type_and_a_new_entry_missing_keys_are_each_reported(tmp_path):
    text = "system: fireteam-tomorrow\nrecovery:\n  target: seven\nweapons:\n  - name: Rifle\n    range: 30\n"
    problems = _problems(_write(tmp_path, "club.yaml", text), "fireteam-tomorrow")
    assert [(p.line, p.path) for p in problems][:1] == [(3, "recovery.target")]
    assert any(p.line == 5 and "missing key 'class'" in p.message for p in problems)


def test_a_house_text_naming_no_value_is_refused(tmp_path):
    text = "system: fireteam-tomorrow\nrecovery:\n  rule: Roll {recovery.dice}D6; {recovery.goal} or more.\n"
    [problem] = _problems(_write(tmp_path, "club.yaml", text), "fireteam-tomorrow")
    assert problem.line == 3 and "{recovery.goal} names no value" in problem.message


@pytest.mark.parametrize(
    "text, words",
    [
        ("recovery: {target: 7}\n", "missing key 'system'"),
        ("system: fireteem-tomorrow\n", "did you mean 'fireteam-tomorrow'"),
        ("system: para-bellum\n", "for para-bellum, not fireteam-tomorrow"),
        ("system: fireteam-tomorrow\nid: other\n", "`id` is the system's own"),
        ("- a list\n", "a house-rules file is a mapping"),
    ],
)
def test_the_files_own_keys_are_checked(tmp_path, text, words):
    problems = _problems(_write(tmp_path, "club.yaml", text), "fireteam-tomorrow")
    assert any(words in p.message for p in problems), problems


def test_a_bad_house_file_is_exit_1_with_its_line_and_no_traceback(muster, tmp_path):
    path = _write(tmp_path, "club.yaml", "system: fireteam-tomorrow\nrecovery:\n  target: 40\n")
    for args in (("odds", "fireteam-tomorrow"), ("rules", "fireteam-tomorrow")):
        done = muster(*args, "--house-rules", path)
        assert done.code == 1
        assert f"{path}:3:11: recovery.target:" in done.err and "Traceback" not in done.err


def test_house_rules_for_another_system_or_twice_are_usage_errors(muster, tmp_path):
    path = _write(tmp_path, "club.yaml", KESSEL)
    other = _write(tmp_path, "other.yaml", "system: fireteam-tomorrow\n")
    assert muster("odds", "para-bellum", "--house-rules", path).code == 2
    done = muster("odds", "fireteam-tomorrow", "--house-rules", path, "--house-rules", other)
    assert done.code == 2 and "both house rules for fireteam-tomorrow" in done.err


# --- a scenario's own house rules ---------------------------------------------------------------------------


def _bridge(tmp_path, house_line: str):
    text = (SCENARIOS / "bridge.yaml").read_text(encoding="utf-8")
    text = text.replace("system: fireteam-tomorrow\n", f"system: fireteam-tomorrow\n{house_line}\n", 1)
    return _write(tmp_path, "bridge.yaml", text)


@pytest.mark.parametrize(
    "name, words",
    [
        ("../club.yaml", "plain relative path"),
        ("/etc/passwd", "plain relative path"),
        ("missing.yaml", "house-rules file not found"),
        ("club.txt", "plain relative path"),
    ],
)
def test_a_scenario_names_a_yaml_file_in_its_own_folder(muster, tmp_path, name, words):
    done = muster("validate", _bridge(tmp_path, f"house_rules: {name}"))
    assert done.code == 1
    assert "house_rules:" in done.err or "house_rules" in done.err
    assert words in done.err


def test_a_link_out_of_the_scenarios_folder_is_refused(muster, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    _write(outside, "club.yaml", KESSEL)
    inside = tmp_path / "game"
    inside.mkdir()
    (inside / "club.yaml").symlink_to(outside / "club.yaml")
    done = muster("validate", _bridge(inside, "house_rules: club.yaml"))
    assert done.code == 1 and "outside the scenario's folder" in done.err


def test_a_scenarios_house_rules_shape_its_deck_and_the_command_line_overrides_them(muster, tmp_path):
    _write(tmp_path, "club.yaml", KESSEL)
    scenario = _bridge(tmp_path, "house_rules: club.yaml")
    deck = muster("deck", scenario, "--json")
    assert deck.code == 0, deck.err
    assert deck.json()["house_rules"]["title"] == "Kessel Valley Club house rules"
    plain = _write(tmp_path, "plain.yaml", "system: fireteam-tomorrow\ntitle: Nothing changed\n")
    deck = muster("deck", scenario, "--json", "--house-rules", plain)
    assert deck.json()["house_rules"]["title"] == "Nothing changed"
    # a house limit lets through what the rules as written refuse (a team of seven), and only with it
    big = _write(tmp_path, "big.yaml", "system: fireteam-tomorrow\nlimits:\n  team_max: 9\n")
    assert muster("deck", SCENARIOS / "bridge.yaml", "--house-rules", big).code == 0
    seven = (SCENARIOS / "bridge.yaml").read_text(encoding="utf-8")
    seven = seven.replace("{weapon: Assault rifle, count: 3}", "{weapon: Assault rifle, count: 5}", 1)  # 7 figures
    team = _write(tmp_path, "seven.yaml", seven)
    assert muster("validate", team).code == 1
    assert muster("validate", team, "--house-rules", big).code == 0  # validate plays them as build does


# --- every printed page follows ----------------------------------------------------------------------------


def test_a_changed_recovery_target_changes_odds_card_roster_and_reference(muster, tmp_path):
    """The issue's test: Fireteam's recovery target 7 through a house file; the odds JSON, the Recovery card, the
    roster's recovery chances and the reference line all change, and the pack says which house rules it plays."""
    club = _write(tmp_path, "club.yaml", "system: fireteam-tomorrow\ntitle: Kessel Club\nrecovery: {target: 7}\n")
    plain = json.loads(muster("odds", "fireteam-tomorrow", "--json").out)
    housed = muster("odds", "fireteam-tomorrow", "--json", "--house-rules", club).json()
    assert housed["house_rules"]["title"] == "Kessel Club"
    text = muster("odds", "fireteam-tomorrow", "--house-rules", club).out
    assert text.startswith(f"With house rules: Kessel Club ({club})")  # the printed table says so too

    def recovery(tables):
        return next(t for t in tables["tables"] if t["title"].startswith("Recovery"))

    assert recovery(plain)["title"].endswith("8 or more") and recovery(housed)["title"].endswith("7 or more")
    assert recovery(housed)["rows"][0]["recover"] == "7/12" and recovery(plain)["rows"][0]["recover"] == "5/12"

    out = tmp_path / "out"
    done = muster("build", SCENARIOS / "bridge.yaml", "--out", out, "--house-rules", club)
    assert done.code == 0, done.err
    pack, cards = _text(out / "bridge" / "bridge.pdf"), _text(out / "bridge" / "bridge-cards.pdf")
    assert "Played with: Kessel Club (1 change to the rules, listed in the quick reference" in pack
    assert "Recovery, the total needed to stand up again: 7 (was 8)." in pack
    assert "Roll 2D6 for each HIT figure; 7 (house rule; was 8) or more stands up" in pack
    assert "8 or more stands up" not in pack
    assert "recovers 58.3%" in pack and "recovers 41.7%" not in pack  # a Fair team in light armour: 7+ on 2D6
    assert "rolls 2D6: 7 or more, it" in cards and "8 or more, it" not in cards


def test_built_in_rules_files_are_untouched_by_a_merge(tmp_path):
    system = systems.get("fireteam-tomorrow")
    before = system.rules_doc.data["recovery"]["target"]
    system.with_house_rules(_write(tmp_path, "club.yaml", KESSEL))
    assert system.rules_doc.data["recovery"]["target"] == before
    assert house.rule_label(system.rules_doc.data, ("weapons", 2, "range")) == "Weapons › Assault rifle › range"


def test_copying_a_scenario_folder_with_its_house_file_keeps_them_together(muster, tmp_path):
    _write(tmp_path, "club.yaml", KESSEL)
    scenario = _bridge(tmp_path, "house_rules: club.yaml")
    moved = tmp_path / "moved"
    moved.mkdir()
    shutil.copy(scenario, moved / "bridge.yaml")
    shutil.copy(tmp_path / "club.yaml", moved / "club.yaml")
    assert muster("validate", moved / "bridge.yaml").code == 0


# --- a booklet ----------------------------------------------------------------------------------------------


def test_a_booklet_keys_chapters_on_their_house_rules_and_gives_them_their_own_appendix(tmp_path, monkeypatch):
    """Chapters played with house rules share an appendix only with chapters played with the same file's rules (it
    prints their odds and reference), and an edited house file is a new chapter and appendix, not the cached ones."""
    from pypdf import PdfReader
    from test_hostile import MINIMAL

    from generator.booklet import booklet

    monkeypatch.setenv("MUSTER_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "club"
    folder.mkdir()
    club = _write(folder, "club.yaml", "system: fireteam-tomorrow\ntitle: Kessel Club\nrecovery: {target: 7}\n")
    plain = folder / "plain.yaml"
    plain.write_text("title: Plain raid\nsystem: fireteam-tomorrow\nbriefing: Go.\nvictory:" + MINIMAL)
    housed = folder / "housed.yaml"
    housed.write_text(
        "title: Housed raid\nsystem: fireteam-tomorrow\nhouse_rules: club.yaml\nbriefing: Go.\nvictory:" + MINIMAL
    )
    out = tmp_path / "booklet.pdf"

    def build() -> tuple[str, list[str], dict]:
        stats: dict = {}
        booklet([str(plain), str(housed)], out, jobs=1, statistics=stats.update)
        reader = PdfReader(out)
        return (
            "\n".join(page.extract_text() for page in reader.pages),
            [o.title for o in reader.outline if hasattr(o, "title")],
            stats,
        )

    text, outline, _ = build()
    assert "Appendix A: Fireteam Tomorrow" in outline and "Appendix B: Fireteam Tomorrow, Kessel Club" in outline
    assert "played with Kessel Club" in text
    assert "7 or more stands up" in _unmarked(text) and "8 or more stands up" in text  # each appendix its own
    club.write_text("system: fireteam-tomorrow\ntitle: Kessel Club\nrecovery: {target: 6}\n", encoding="utf-8")
    text, _, stats = build()
    assert stats["rendered"] == 2  # the housed chapter and its appendix; the plain ones came from the cache
    assert "6 or more stands up" in _unmarked(text) and "7 or more stands up" not in _unmarked(text)


def test_a_booklet_config_names_house_rules_per_system_and_the_command_line_overrides_them(muster, tmp_path):
    from pypdf import PdfReader
    from test_hostile import MINIMAL

    folder = tmp_path / "club"
    folder.mkdir()
    _write(folder, "club.yaml", "system: fireteam-tomorrow\ntitle: Kessel Club\nrecovery: {target: 7}\n")
    _write(folder, "strict.yaml", "system: fireteam-tomorrow\ntitle: Strict Club\nrecovery: {target: 9}\n")
    raid = folder / "raid.yaml"
    raid.write_text(
        "title: Raid\nsystem: fireteam-tomorrow\nhouse_rules: strict.yaml\nbriefing: Go.\nvictory:" + MINIMAL
    )
    config = _write(folder, "season.yaml", "club: K\nseason: W\nhouse_rules:\n  fireteam-tomorrow: club.yaml\n")
    out = tmp_path / "b.pdf"
    done = muster("booklet", raid, "--config", config, "--out", out, "--no-cache")
    assert done.code == 0, done.err
    text = "\n".join(page.extract_text() for page in PdfReader(out).pages)
    assert "Kessel Club" in text and "7 or more stands up" in _unmarked(text) and "Strict Club" not in text
    done = muster(
        "booklet", raid, "--config", config, "--out", out, "--no-cache", "--house-rules", folder / "strict.yaml"
    )
    assert done.code == 0, done.err
    text = "\n".join(page.extract_text() for page in PdfReader(out).pages)
    assert "Strict Club" in text and "9 or more stands up" in _unmarked(text) and "Kessel Club" not in text
    bad = _write(folder, "bad.yaml", "club: K\nseason: W\nhouse_rules:\n  fireteam-tomorow: club.yaml\n")
    done = muster("validate", bad)
    assert done.code == 1 and f"{bad}:4:3:" in done.err and "did you mean 'fireteam-tomorrow'" in done.err


def _pack_html(scenario_path, houses: dict) -> tuple[str, str]:

    scenario = build.load(scenario_path, houses)
    pack, sheet = build.compute(scenario, build.choose_seed(scenario, None), build.Options())
    return build.render_html(scenario, pack, sheet)


def test_morschauser_follows_a_house_bag_of_tiles_and_a_units_battle_power(tmp_path):
    """Morschauser's schedule page said "the bag of 52" and "Ace to King, and equal ranks Hearts, Clubs, Diamonds,
    Spades" whatever the rule data held; a club playing without Spades, and with stronger infantry, gets its
    own bag on every page that speaks of it, and its infantry's power on the roster, the cards and the reference."""
    club = _write(
        tmp_path,
        "club.yaml",
        """
        system: morschauser-modern
        title: Three suits
        turn:
          cards: 39
          suits: [H, C, D]
          suit_names: [Hearts, Clubs, Diamonds]
        limits:
          units_max: 39
        unit_types:
          - name: Infantry
            battle_power: 6
        """,
    )
    plain_pack, plain_cards = _pack_html(SCENARIOS / "weissach-bridge.yaml", {})
    pack, cards = _pack_html(SCENARIOS / "weissach-bridge.yaml", {"morschauser-modern": str(club)})
    assert "one tile of the 52 " in plain_pack and "one tile of the 52 " not in pack
    assert "one tile of the 39 " in pack and "Ace to King; equal ranks go Hearts, Clubs, Diamonds." in pack
    # the activation order's note too (it said "... before Diamonds before Spades, so A♥, A♣, A♦, A♠")
    assert "before Spades" not in pack and "A♠" not in pack
    pack = _unmarked(pack)
    assert "suit only between equal ranks: Ace to King; equal ranks go Hearts, Clubs, Diamonds." in pack
    assert "one bag of 39, so a game has at most 39 units" in pack  # the rule data's own note
    assert "Played with:</b> Three suits" in pack
    assert "Unit types › Infantry, its Battle Power before modifiers:</strong> 6 (was 5)." in pack
    infantry = [row for row in re.findall(r"<tr[^>]*>.*?</tr>", pack, re.S) if ">Infantry<" in row]
    assert infantry and all(">6<" in row for row in infantry[:1])
    assert cards != plain_cards


def test_a_changed_distance_is_listed_with_its_unit(tmp_path):
    """The quick reference listed a club's longer assault rifle as "range: 32 (was 30)", a bare number beside
    rules that print every distance with its unit. Each key of the rule data says what its numbers count: a
    range prints 32″ (was 30″), a whole new weapon's range and blast theirs, a word stays a word (LOT), a
    Morschauser move counts squares, and a number that is no distance stays bare."""
    fireteam = systems.get("fireteam-tomorrow").with_house_rules(
        _write(
            tmp_path,
            "club.yaml",
            KESSEL.replace(
                "range: 12",
                "range: 12\n        explosive: true\n        blast: 2\n      - name: Sniper rifle\n        range: 60",
            )
            + """
    movement:
      fixed: 5
    """,
        )
    )
    changes = {
        c["rule"]: (c["now"], c["was"])
        for c in house.printed(fireteam.house, fireteam.rules_doc.data, fireteam.rules_model)["changes"]
    }
    assert changes["Weapons › Assault rifle, range in inches"] == ("32″", "30″")
    assert changes["Movement, inches a figure may take without rolling"] == ("5″", "6″")
    assert changes["Recovery, the total needed to stand up again"] == ("7", "8")
    assert changes["Weapons › Sniper rifle, range in inches"] == ("60″", "LOT")
    lance = changes["Weapons › Plasma lance"][0]
    assert "range 12″" in lance and "blast 2″" in lance and "level 3" in lance
    grid = systems.get("morschauser-modern").with_house_rules(
        _write(tmp_path, "grid.yaml", "system: morschauser-modern\nunit_types:\n  - name: Cavalry\n    move: 3\n")
    )
    moved = house.printed(grid.house, grid.rules_doc.data, grid.rules_model)["changes"]
    assert [(c["rule"], c["now"], c["was"]) for c in moved] == [
        ("Unit types › Cavalry, squares it moves", "3 squares", "2 squares")
    ]
    pack, _ = _pack_html(SCENARIOS / "bridge.yaml", {"fireteam-tomorrow": str(_write(tmp_path, "c.yaml", KESSEL))})
    assert "Weapons › Assault rifle, range in inches:</strong> 32″ (was 30″)." in pack
    # a fresh read: the cover counted the added Plasma lance among "3 values ... each beside the value it replaces"
    assert "(2 changes to the rules and 1 addition, each listed in the quick reference, a changed value" in pack
    # a second fresh read: "Played with house rules: Kessel Valley Club house rules. 3 values of this system's rules
    # are changed" said "house rules" twice and read as a program's diff
    assert "Played with house rules" not in pack and "values of this system" not in pack


def test_a_house_rule_that_breaks_the_bag_is_refused_at_its_line(tmp_path):
    path = _write(tmp_path, "club.yaml", "system: morschauser-modern\nturn:\n  cards: 40\n")
    [problem] = _problems(path, "morschauser-modern")
    assert (problem.file, problem.line) == (str(path), 3) and "13 ranks of 4 suits make 52 tiles" in problem.message


def test_a_built_in_value_a_house_rule_no_longer_agrees_with_says_to_set_it_in_the_house_file(tmp_path):
    path = _write(
        tmp_path,
        "club.yaml",
        "system: morschauser-modern\nturn:\n  cards: 39\n  suits: [H, C, D]\n  suit_names: [Hearts, Clubs, Diamonds]\n",
    )
    [problem] = _problems(path, "morschauser-modern")
    assert problem.file.endswith("rules.yaml") and problem.path == "limits.units_max"
    assert "at most the 39 tiles" in problem.message and "set it in club.yaml too" in problem.message


def test_every_roll_reads_its_dice_from_the_rule_data(muster, tmp_path):
    """The odds rolled 2D6 for fire, recovery, HTH and jumps whatever `dice` the rule data gave: a house rule of 3D6
    changed the printed words and left the odds wrong. 3D6 + 0 reaching 8: 1 - 35/216."""
    club = _write(tmp_path, "club.yaml", "system: fireteam-tomorrow\nrecovery: {dice: 3}\n")
    tables = muster("odds", "fireteam-tomorrow", "--json", "--house-rules", club).json()["tables"]
    recovery = next(t for t in tables if t["title"].startswith("Recovery"))
    assert recovery["title"] == "Recovery: 3D6 + modifiers, 8 or more"
    assert recovery["rows"][0]["recover"] == "181/216"


# a rule's number written into a template or into the code that words cards and pages: it would print whatever a
# house rule says (the dice rolled, a target, the bag of tiles)
RULE_NUMBER = re.compile(r"\b\d+D6\b|\b\d+ or more\b|\bbag of \d+|\bwithin \d+")


def _literals(path) -> list[tuple[int, str]]:
    """A Python file's string literals (f-string parts too) but its docstrings and comments, with their lines."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant):
                docs.add(id(body[0].value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


def test_no_rule_number_is_written_into_templates_or_card_and_page_code():
    from conftest import ROOT

    found = []
    for template in sorted((ROOT / "templates").rglob("*.html")):
        text = re.sub(r"\{#.*?#\}", "", template.read_text(encoding="utf-8"), flags=re.S)  # comments say anything
        found += [f"{template.name}: {m.group(0)}" for m in RULE_NUMBER.finditer(text)]
    for module in sorted((ROOT / "generator" / "systems").glob("*/*.py")):
        if module.stem in ("cards", "pack", "roster", "odds", "deck"):
            found += [
                f"{module.parent.name}/{module.name}:{line}: {text}"
                for line, text in _literals(module)
                if RULE_NUMBER.search(text)
            ]
    assert not found, found


@pytest.mark.parametrize("system_id", systems.known())
def test_each_docs_page_shows_a_house_rules_example_that_merges_and_changes_what_it_says(system_id, tmp_path):
    from conftest import ROOT

    text = (ROOT / "docs" / f"{system_id}.md").read_text(encoding="utf-8")
    section = text.split("## House rules", 1)[1].split("\n## ", 1)[0]
    example = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    path = tmp_path / "club.yaml"
    path.write_text(example, encoding="utf-8")
    merged = systems.get(system_id).with_house_rules(path)
    assert merged.house.changes and merged.house.notes
    assert merged.rules != systems.get(system_id).rules


def test_a_misspelt_entry_name_says_which_entry_it_may_mean(tmp_path):
    """A new user's 'Light machinegun' was taken as a new weapon and told only "missing key 'class'"."""
    text = "system: fireteam-tomorrow\nweapons:\n  - name: Light machinegun\n    range: 30\n"
    problems = _problems(_write(tmp_path, "club.yaml", text), "fireteam-tomorrow")
    assert problems and all(p.line == 3 for p in problems)
    assert all("no entry of the built-in list is named 'Light machinegun'" in p.message for p in problems)
    assert all("did you mean 'Light machine gun'?" in p.message for p in problems)


def test_a_house_file_is_merged_once_while_its_bytes_stay_the_same(tmp_path):
    """A booklet's forty chapters of one system merged and checked the whole rule data forty times."""
    path = _write(tmp_path, "club.yaml", "system: fireteam-tomorrow\nrecovery: {target: 7}\n")
    system = systems.get("fireteam-tomorrow")
    first = system.with_house_rules(path)
    assert system.with_house_rules(path) is first
    path.write_text("system: fireteam-tomorrow\nrecovery: {target: 6}\n", encoding="utf-8")  # same size, new bytes
    assert system.with_house_rules(path).rules.recovery.target == 6


def test_para_bellums_order_bonus_changes_odds_cards_roster_and_reference(muster, tmp_path):
    """A Take Action! order worth 2 points: the odds JSON, every unit card's Stress track, the roster's expected
    points and the reference line follow it, and the track runs to the level the order can no longer lift."""
    club = _write(tmp_path, "club.yaml", "system: para-bellum\ntitle: Sharp orders\norder: {bonus: 2}\n")
    plain = muster("odds", "para-bellum", "--json").json()
    housed = muster("odds", "para-bellum", "--json", "--house-rules", club).json()

    def ordered(tables, stress):
        rows = tables["tables"][0]["rows"]
        return next(r for r in rows if r["stress"] == stress and r["order"])

    assert ordered(plain, 0)["expected"] == "17/6" and ordered(housed, 0)["expected"] == "3/1"
    assert ordered(plain, 2)["ap0"] == "1/6" and ordered(housed, 2)["ap0"] == "0/1"
    assert housed["house_rules"]["title"] == "Sharp orders"

    plain_pack, plain_cards = _pack_html(SCENARIOS / "vesta-relay.yaml", {})
    pack, cards = _pack_html(SCENARIOS / "vesta-relay.yaml", {"para-bellum": str(club)})
    assert "+1 for a Take Action! order" in plain_pack and "+2 for a Take Action! order" in _unmarked(pack)
    assert "plus 2 for a Take Action! order" in pack  # the odds page's own heading
    assert "Order, action points the order adds:</strong> 2 (was 1)." in pack
    calm = "At its starting Stress 0 it gets <b>2.00</b> action points on average, <b>{}</b> with a Take Action!"
    assert calm.format("2.83") in plain_pack and calm.format("3.00") in pack and calm.format("2.83") not in pack
    # the card's track: an order at Stress 0 gives 3 points on every face, and the track reaches Stress 5
    assert "2·3·3" in plain_cards and "3·3·3" in cards and "5+" in cards and "5+" not in plain_cards
    assert "(4 with the standard roll)" not in pack  # no note keeps the rules-as-written level


def test_warspikes_turn_and_coin_follow_the_house_rules(muster, tmp_path):
    """Shorter turns, a longer default game and a coin with other faces: the cover's game length, the turn
    tracker, the reference notes that name those values, and the coin toss's odds all follow."""
    club = _write(
        tmp_path,
        "club.yaml",
        """
        system: warspike
        title: Fast turns
        turn:
          battle_seconds: 20
          default_turns: 9
        coin_toss:
          faces: [Crown, Eagle]
        """,
    )
    text = (SCENARIOS / "warspike-bridge-race.yaml").read_text(encoding="utf-8")
    race = _write(tmp_path, "race.yaml", re.sub(r"(?m)^turns: \d+\n", "", text))
    plain_pack, _ = _pack_html(race, {})
    pack, _ = _pack_html(race, {"warspike": str(club)})
    assert "<b>12 turns</b> of about 30 seconds each: 6 minutes" in plain_pack
    assert "<b>9 turns</b> of about 20 seconds each: 3 minutes" in pack
    assert "the game lasts 9 turns." in _unmarked(pack) and "the game lasts 12 turns." in plain_pack
    assert "prints only the 20 seconds of battle time" in _unmarked(pack)
    assert '<th class="turn">9</th>' in pack and '<th class="turn">10</th>' not in pack
    assert "Turn, seconds of battle time one turn represents:</strong> 20 (was 30)." in pack
    assert "Coin toss, the coin’s faces:</strong> Crown, Eagle (was Heads, Tails)." in pack
    odds = muster("odds", "warspike", "--json", "--house-rules", club).json()
    faces = [row["face"] for row in odds["tables"][0]["rows"]]
    assert faces == ["Crown", "Eagle"] and all(row["chance"] == "1/2" for row in odds["tables"][0]["rows"])


def test_fireteam_texts_with_numbers_follow_the_house_rules(tmp_path):
    """Rule texts wrote some values in words or lists ("a team down to two", "more than half", "five captives",
    "+1 medium or heavy armour", "+2 for a pistol", "Cover: light 1, medium 2, heavy 3"); the Recovery card wrote
    the morale rules into its code. Each now reads the value it names, on the reference, the roster and the card."""
    club = _write(
        tmp_path,
        "club.yaml",
        """
        system: fireteam-tomorrow
        morale:
          team_withdraw_at: 3
          side_loss_fraction: 2/3
        hth:
          weapon_bonus: 3
          captives: {guard: 4}
        cover:
          - name: heavy
            defence: 4
        recovery:
          all_of:
            - name: Heavy armour
              value: 2
        """,
    )
    pack, cards = _pack_html(SCENARIOS / "bridge.yaml", {"fireteam-tomorrow": str(club)})
    pack = _unmarked(pack)
    assert "A team down to 3 withdraws or joins another team after a Recovery card" in pack
    assert "A side that has lost more than two thirds of its figures after a Recovery card" in pack
    assert "(more than two thirds) after a Recovery card" in pack and "(more than half)" not in pack
    assert (
        "+1 medium armour, +2 heavy armour (this pack’s reading: the original rules name only medium); +1 Good" in pack
    )
    assert "+3 for a pistol, submachine gun or rifle" in pack
    assert "heavy +4" in pack and "heavy +3;" not in pack
    assert "a team down to 3 figures withdraws" in cards and "over two thirds of its figures" in cards
    rules = systems.get("fireteam-tomorrow").with_house_rules(club).rules
    assert rules.hth.captives.rule.startswith("One figure may guard up to 4 captives")


def test_a_vehicle_armour_is_one_value_the_odds_the_fire_card_and_the_reference_read(tmp_path):
    """The odds added vehicle_armour.fire_defence while the Fire card printed the defender's vehicle modifier: one
    value kept twice, held together by a check a club's file had to satisfy by changing both. It is kept once, as
    the modifier: a house rule changing it changes the card, the roster's chances against a vehicle and the
    reference alike, and the old key is an unknown one."""

    system = systems.get("fireteam-tomorrow")
    assert system.rules.vehicle_fire_defence == 2
    old = _write(tmp_path, "old.yaml", "system: fireteam-tomorrow\nvehicle_armour: {fire_defence: 3}\n")
    [problem] = _problems(old, "fireteam-tomorrow")
    assert problem.path == "vehicle_armour.fire_defence" and "unknown key 'fire_defence'" in problem.message
    club = _write(
        tmp_path,
        "club.yaml",
        "system: fireteam-tomorrow\nfire:\n  defender:\n    - name: Vehicle armour (heavy +{fire.defender.vehicle.value})\n"
        "      value: 3\n",
    )
    housed = system.with_house_rules(club)
    assert housed.rules.vehicle_fire_defence == 3
    assert [m.name for m in housed.rules.fire.defender if m.vehicles_only] == ["Vehicle armour (heavy +3)"]
    reference = " ".join(line for s in housed.reference()["sections"] for line in s["lines"])
    assert "Against a vehicle the target adds **+3** *(house rule; was +2)* for its armour" in reference

    def vehicle_rows(house: dict | None) -> tuple[list, str]:
        scenario = build.load(SCENARIOS / "relay-station.yaml", house)
        pack, sheet = build.compute(scenario, build.choose_seed(scenario, None), build.Options())
        pack_html, cards_html = build.render_html(scenario, pack, sheet)
        return [r for r in re.findall(r"<tr[^>]*>.*?</tr>", pack_html, re.S) if "MG or explosive only" in r], cards_html

    plain_rows, plain_cards = vehicle_rows(None)
    club_rows, club_cards = vehicle_rows({"fireteam-tomorrow": str(club)})
    assert plain_rows and club_rows and plain_rows != club_rows
    club_cards, plain_cards = (cards.replace("\xa0", " ") for cards in (club_cards, plain_cards))
    assert "Against a vehicle: +3 vehicle armour" in club_cards
    assert "Against a vehicle: +2 vehicle armour" in plain_cards


def test_para_bellums_d6_table_and_action_kinds_are_worded_from_the_data(tmp_path):
    """The reference wrote the D6 table and each kind's actions out by hand; a club's table, or Run! made Short,
    now reads on the reference as played."""
    club = _write(
        tmp_path,
        "club.yaml",
        """
        system: para-bellum
        action_points:
          points: [0, 1, 2, 2, 3, 3]
        actions:
          - id: run
            kind: short
        """,
    )
    plain, _ = _pack_html(SCENARIOS / "vesta-relay.yaml", {})
    pack, _ = _pack_html(SCENARIOS / "vesta-relay.yaml", {"para-bellum": str(club)})
    assert "1 gives 1 action point, 2–5 give 2, 6 gives 3." in plain
    assert "1 gives 0 action points, 2 gives 1, 3–4 give 2, 5–6 give 3." in _unmarked(pack)
    assert "Long (2 points): Run!, Fire! (all weapons, heavy included), Stand Ready!." in plain
    pack = _unmarked(pack)
    assert "Short (1 point): Move!, Take Aim!, Fire! (non-heavy weapons), Charge!, Run!." in pack
    assert "Long (2 points): Fire! (all weapons, heavy included), Stand Ready!." in pack


def test_morschauser_activation_order_is_worded_from_the_bag(muster, tmp_path):
    club = _write(
        tmp_path,
        "club.yaml",
        "system: morschauser-modern\nturn:\n  cards: 39\n  suits: [H, C, D]\n  suit_names: [Hearts, Clubs, Diamonds]\n"
        "limits:\n  units_max: 39\n",
    )
    pack, _ = _pack_html(SCENARIOS / "weissach-bridge.yaml", {"morschauser-modern": str(club)})
    assert "activate units from Ace to King; equal ranks go Hearts, Clubs, Diamonds." in _unmarked(pack)
    deck = muster("deck", SCENARIOS / "weissach-bridge.yaml", "--house-rules", club)
    assert deck.code == 0 and "(Ace to King; equal ranks go Hearts, Clubs, Diamonds)" in deck.out.splitlines()[0]


def test_musters_own_readings_are_never_called_house_values():
    """A new user read 'Weapons (house table)' and 'house values' as the club's house rules: Muster's own filled
    gaps say they are Muster's, and 'house' on paper means only a club's house rules."""
    from generator.rendering import TEMPLATES

    loose = re.compile(r"\bhouse\b(?! rules?\b)", re.I)

    def strings(node):
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for item in node.values():
                yield from strings(item)
        elif isinstance(node, list):
            for item in node:
                yield from strings(item)

    found = [
        (system_id, text)
        for system_id in systems.known()
        for text in strings(systems.get(system_id).rules_filled.data)
        if loose.search(text)
    ]
    for template in sorted(TEMPLATES.rglob("*.html")):
        words = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", template.read_text(encoding="utf-8"), flags=re.S)
        words = re.sub(r"<[^>]*>", " ", words)  # the text a reader sees, not class names
        found += [(template.name, line) for line in words.splitlines() if loose.search(line)]
    assert not found


@pytest.mark.parametrize(
    "system_id, example",
    [("fireteam-tomorrow", "bridge"), ("para-bellum", "vesta-relay"), ("morschauser-modern", "weissach-bridge")],
)
def test_the_card_backs_and_the_odds_page_name_the_house_rules(tmp_path, system_id, example):
    """A new user's trial: the cards PDF and the odds page did not say which house rules they followed, so a deck
    printed with them could be shuffled into a game played by the rules as written unnoticed."""
    club = _write(tmp_path, "club.yaml", f"system: {system_id}\ntitle: Kessel Valley Club\n")
    plain_pack, plain_cards = _pack_html(SCENARIOS / f"{example}.yaml", {})
    pack, cards = _pack_html(SCENARIOS / f"{example}.yaml", {system_id: str(club)})
    assert '<div class="bhouse" data-fit-lines="3" data-fit-min="5">Kessel Valley Club</div>' in cards
    assert "bhouse" not in plain_cards
    assert "Worked out with the house rules: <b>Kessel Valley Club</b>." in pack
    assert "Worked out with the house rules" not in plain_pack
    # a new user's trial: "Worked out with the house rules: Riverside Wargames Club house rules" said it twice
    titled = _write(tmp_path, "titled.yaml", f"system: {system_id}\ntitle: Riverside Wargames Club house rules\n")
    pack, _ = _pack_html(SCENARIOS / f"{example}.yaml", {system_id: str(titled)})
    assert "Worked out with the <b>Riverside Wargames Club house rules</b>." in pack


def test_an_unknown_top_level_key_lists_what_a_house_file_may_hold(tmp_path):
    """A new user's trial: a misspelt top-level key listed 'expected id, title, ...', though a house file may not
    change the system's id and its `title` is the house rules' own."""
    path = _write(tmp_path, "club.yaml", "system: para-bellum\nordr: {bonus: 2}\n")
    [problem] = _problems(path, "para-bellum")
    assert (problem.file, problem.line, problem.col) == (str(path), 2, 1)
    assert "(did you mean 'order'?); expected system, title, source, scope," in problem.message
    assert " id," not in problem.message


@pytest.mark.parametrize(
    "value, unit, printed",
    [
        (1, "square", "1 square"),
        (1.0, "square", "1.0 square"),
        ("1", "square", "1 square"),
        (Fraction(1), "square", "1 square"),
        (2, "square", "2 squares"),
        (0.5, "square", "0.5 squares"),
        (1, "inch", "1\u2033"),
    ],
)
def test_a_distance_in_words_is_singular_for_one_however_the_one_is_written(value, unit, printed):
    """`distance()` chose "square" or "squares" by comparing the value's text with "1": a house rule's 1.0 printed
    "1.0 squares". One is one, however written."""
    from generator.distances import distance

    assert distance(value, unit) == printed


def test_a_move_cards_reach_line_does_not_repeat_the_chance_the_line_before_gives(tmp_path):
    """A fresh read of a house-rules pack (a fixed move of 5″): the Move card said "Rolling goes farther than 5″ in
    72.2% of rolls" and then "A roll reaches 6″: 72.2%", one chance twice. The reach line starts past the distance
    the line before speaks of; with the rules' 6″ it still starts at 8″, and vehicles' lines are as they were."""
    from generator.dice import nd
    from generator.systems.fireteam.cards import _reach

    rolled = nd(3)
    assert _reach(rolled, beyond=5).startswith('A roll reaches 8"')
    assert _reach(rolled, beyond=6).startswith('A roll reaches 8"')
    assert _reach(rolled).startswith('A roll reaches 4"')
    club = _write(tmp_path, "club.yaml", "system: fireteam-tomorrow\nmovement:\n  fixed: 5\n")
    scenario = build.load(SCENARIOS / "bridge.yaml", {"fireteam-tomorrow": str(club)})
    _, sheet = build.compute(scenario, build.choose_seed(scenario, None), build.Options())
    cards = build.render_html_cards(scenario, sheet).replace("\xa0", " ").replace("″", '"')
    assert 'Rolling goes farther than 5" in 72.2% of rolls' in re.sub(r"<[^>]+>", "", cards)
    assert 'A roll reaches 6"' not in cards and 'A roll reaches 8"' in cards


def test_house_rules_for_a_system_no_scenario_plays_are_refused_not_ignored(tmp_path, muster):
    """A new user's trial: `muster build bridge.yaml --house-rules ws.yaml` (WarSpike house rules for a Fireteam
    scenario) printed the pack without them and said nothing, and `validate` called the file valid, while `muster
    odds` refused the same file. Build and validate refuse it too, before writing anything; a file that one of
    the scenarios given plays is used as before. (Issue 16's trial: `export` and `deck` took it without a word.)"""
    wrong = _write(tmp_path, "ws.yaml", "system: warspike\ntitle: Aller club\n")
    out = tmp_path / "out"
    bridge = SCENARIOS / "bridge.yaml"
    for command in (
        ["build", bridge, "--out", out],
        ["validate", bridge],
        ["export", bridge, "--map-png", "--dpi", "10", "--out", out],
        ["deck", bridge],
    ):
        result = muster(*command, "--house-rules", wrong)
        assert result.code == 2 and "Traceback" not in result.err, result.err
        assert f"{wrong} holds house rules for warspike, and no scenario given is a warspike scenario" in result.err
    assert not out.exists()
    both = muster(
        "validate", SCENARIOS / "bridge.yaml", SCENARIOS / "warspike-hold-the-ford.yaml", "--house-rules", wrong
    )
    assert both.code == 0 and "2 files valid" in both.out, both.err


def test_a_number_or_a_single_word_is_asked_for_without_one_of(tmp_path):
    """A new user's trial: a range written as a word was told "expected a whole number from 0 to 480, or one of LOT",
    'one of' a single word. One word is named alone; several keep 'one of'."""
    from generator.schema import Int
    from generator.systems.fireteam.kinds import NumberOrWord

    club = _write(
        tmp_path, "club.yaml", "system: fireteam-tomorrow\nweapons:\n  - name: Battle rifle\n    range: forty\n"
    )
    [problem] = _problems(club, "fireteam-tomorrow")
    assert problem.message == "expected a whole number from 0 to 480, or LOT (got 'forty')"
    assert NumberOrWord(Int(1, 20), ["qualities", "cover"]).expected().endswith(", or one of qualities, cover")


def test_a_house_file_with_wrong_keys_says_more_checks_follow(tmp_path):
    """A new user's trial: a misspelt top-level key was reported as "1 problem"; once mended, the misspelt weapon
    below it brought two more. As a scenario does, the file is told that the rules it changes are checked once
    the problems listed are fixed."""
    bad = _write(
        tmp_path, "club.yaml", "system: fireteam-tomorrow\nrecovry:\n  target: 7\nweapons:\n  - name: Batle rifle\n"
    )
    problems = _problems(bad, "fireteam-tomorrow", notices=True)
    assert [p.path for p in problems if not p.notice] == ["recovry"]
    assert [p.message for p in problems if p.notice] == [
        "the rules it changes or adds are checked, as the rule data is, once the problems above are fixed"
    ]


def test_a_booklet_configs_house_rules_may_serve_systems_it_has_no_chapter_of(tmp_path):
    """The refusal above is the command line's: a club's booklet config maps each system it plays to its house
    rules, and a season's book need not have a chapter of every one, so validating a booklet's chapters does not
    refuse the config's house rules for a system none of them plays."""
    from generator.build import validate_limited
    from generator.errors import UsageError

    wrong = str(_write(tmp_path, "ws.yaml", "system: warspike\ntitle: Aller club\n"))
    bridge = [str(SCENARIOS / "bridge.yaml")]
    assert validate_limited(bridge, house_rules={"warspike": wrong}) == []
    with pytest.raises(UsageError, match="holds house rules for warspike"):
        validate_limited(bridge, house_rules={"warspike": wrong}, played={"warspike": wrong})


def test_a_booklets_command_line_house_rules_must_be_played_by_a_chapter(muster, tmp_path):
    """build and validate refused `--house-rules` for a system none of their scenarios plays; `muster booklet`
    still printed the book without them and said nothing. Its command line's house rules are refused the same
    way (the config's may serve other systems: the test above)."""
    wrong = _write(tmp_path, "ws.yaml", "system: warspike\ntitle: Aller club\n")
    out = tmp_path / "book.pdf"
    done = muster("booklet", SCENARIOS / "bridge.yaml", "--out", out, "--no-cache", "--house-rules", wrong)
    assert done.code == 2 and "Traceback" not in done.err, done.err
    assert f"{wrong} holds house rules for warspike, and no scenario given is a warspike scenario" in done.err
    assert not out.exists()


def _rows(html: str, table_class: str) -> dict[str, str]:
    """The rows of a pack's table of `table_class`, by the text of their first cell."""
    table = re.search(rf'<table class="{table_class}">.*?</table>', html, re.S).group(0)
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
    return {re.sub(r"<[^>]*>", "", re.findall(r"<td>(.*?)</td>", row, re.S)[0]).strip(): row for row in rows[1:]}


def test_the_reference_marks_each_changed_value_with_the_one_it_replaces(tmp_path):
    """The issue: "in the reference each changed value marked as a house rule with the original value beside it".
    A fresh read found the changes only in the list at the end: the reference's lines said "7 or more stands up"
    and the weapons table "32″" as if the rules said so. Each value a house rule changed now prints marked where
    the reference prints it, the value as written beside it, in the lines and notes of all four systems and in
    the tables of rule data (Fireteam's weapons, Morschauser's unit types, Para Bellum's actions and tags)."""
    fireteam = _write(
        tmp_path,
        "ft.yaml",
        """
        system: fireteam-tomorrow
        weapons:
          - name: Assault rifle
            range: 32
            level: 2
        morale:
          side_loss_fraction: 2/3
        """,
    )
    pack, _ = _pack_html(SCENARIOS / "bridge.yaml", {"fireteam-tomorrow": str(fireteam)})
    plain, _ = _pack_html(SCENARIOS / "bridge.yaml", {})
    assert "house rule" not in plain
    assert "lost more than <strong>two thirds</strong> <em>(house rule; was half)</em> of its figures" in pack
    rifle, pistol = _rows(pack, "weapons")["Assault rifle"], _rows(pack, "weapons")["Pistol"]
    assert '<b>32″</b> <span class="house-was">(house rule; was 30″)</span>' in rifle
    assert '<b>2</b> <span class="house-was">(house rule; was 1)</span>' in rifle  # the level, merged by name too
    assert "house" not in pistol and rifle.count("house rule") == 2

    grid = _write(tmp_path, "grid.yaml", "system: morschauser-modern\nunit_types:\n  - name: Infantry\n    move: 3\n")
    pack, _ = _pack_html(SCENARIOS / "weissach-bridge.yaml", {"morschauser-modern": str(grid)})
    types = _rows(pack, "types")
    assert '<b>3</b> <span class="house-was">(house rule; was 2)</span>' in types["Infantry"]
    assert "house" not in types["Cavalry"] and types["Infantry"].count("house rule") == 1

    # Para Bellum's two Fire! actions share a name: a house rule on Move! marks Move! alone, not the first Fire!
    para = _write(
        tmp_path,
        "pb.yaml",
        """
        system: para-bellum
        action_points:
          points: [0, 1, 2, 2, 3, 3]
        weapon_tags:
          - name: heavy
            rule: Fired only in a Long Fire!, never after moving.
        actions:
          - id: move
            rule: Each model moves up to its Movement Value in inches, plus one.
        """,
    )
    pack, _ = _pack_html(SCENARIOS / "vesta-relay.yaml", {"para-bellum": str(para)})
    actions = re.search(r'<table class="weapons pb-actions">.*?</table>', pack, re.S).group(0)
    assert actions.count("house rule") == 1
    assert "(house rule; was &#8220;Each model moves up to its Movement Value in inches&#8221;)" in actions
    assert (
        '<b>Fired only in a Long Fire!, never after moving.</b> <span class="house-was">(house rule; was &#8220;Fired'
        in pack
    )
    # a sentence a system works out from several values is marked whole, with the rules as written's sentence
    assert (
        "<strong>1 gives 0 action points, 2 gives 1, 3–4 give 2, 5–6 give 3</strong> <em>(house rule; was “1 gives 1 "
        "action point, 2–5 give 2, 6 gives 3”)</em>" in pack
    )

    spike = _write(tmp_path, "ws.yaml", "system: warspike\nturn:\n  battle_seconds: 20\n")
    pack, _ = _pack_html(SCENARIOS / "warspike-hold-the-ford.yaml", {"warspike": str(spike)})
    assert "prints only the <strong>20</strong> <em>(house rule; was 30)</em> seconds of battle time" in pack


def test_a_value_the_house_rules_leave_alone_is_not_marked(tmp_path):
    """A house file that sets a value to what the rules as written already say changes nothing, and nothing on
    the reference is marked; a derived sentence stays unmarked when the values it is made of are unchanged."""
    same = _write(tmp_path, "same.yaml", "system: fireteam-tomorrow\ntitle: Same\nrecovery: {target: 8}\n")
    merged = systems.get("fireteam-tomorrow").with_house_rules(same)
    lines = [line for s in merged.reference()["sections"] for line in s["lines"]]
    assert not any("house rule" in line for line in lines)
    assert "Roll 2D6 for each HIT figure; 8 or more stands up, less is removed." in lines


def test_a_housed_cover_never_says_rules_as_originally_written_and_the_list_reads_plainly(tmp_path):
    """A fresh read of three packs played with house rules: the covers said "Played with: ... house rules" and
    "Rules as originally written, with none of the optional variants"; a changed sentence's old text ran on as part
    of the new ("...plus one. (was Each model moves ...)."); the club's added Plasma lance was listed as "added"
    in a pack whose weapons table (the weapons the forces carry) does not show it, and did not say why."""
    para = _write(
        tmp_path,
        "pb.yaml",
        """
        system: para-bellum
        title: Vesta Club
        actions:
          - id: move
            rule: Each model moves up to its Movement Value in inches, plus one.
        """,
    )
    plain, _ = _pack_html(SCENARIOS / "vesta-relay.yaml", {})
    pack, _ = _pack_html(SCENARIOS / "vesta-relay.yaml", {"para-bellum": str(para)})
    assert "Rules as originally written, with none of the optional variants." in plain
    assert "Rules as originally written" not in pack and "None of the optional variants is played." in pack
    assert (
        "Each model moves up to its Movement Value in inches, plus one (was &#8220;Each model moves up to its "
        "Movement Value in inches&#8221;)." in pack
    )
    assert "(house rule; was &#8220;Each model moves up to its Movement Value in inches&#8221;)</span>" in pack
    grid = _write(tmp_path, "grid.yaml", "system: morschauser-modern\nunit_types:\n  - name: Cavalry\n    move: 3\n")
    pack, _ = _pack_html(SCENARIOS / "weissach-bridge.yaml", {"morschauser-modern": str(grid)})
    assert "Rules as originally written" not in pack

    pack, _ = _pack_html(SCENARIOS / "bridge.yaml", {"fireteam-tomorrow": str(_write(tmp_path, "c.yaml", KESSEL))})
    assert "Plasma lance:</strong> added (class special, level 3, range 12″); not in play in this scenario." in pack
    # a new user's trial: the list was headed "House rules: Kessel Valley Club house rules"
    assert '<h3 class="ref-head">Kessel Valley Club house rules</h3>' in pack and "House rules: Kessel" not in pack
    text = (SCENARIOS / "bridge.yaml").read_text(encoding="utf-8")
    assert "{weapon: Light machine gun}" in text  # a team's one heavy weapon: a Plasma lance in its place
    lanced = _write(tmp_path, "bridge.yaml", text.replace("{weapon: Light machine gun}", "{weapon: Plasma lance}", 1))
    pack, _ = _pack_html(lanced, {"fireteam-tomorrow": str(_write(tmp_path, "d.yaml", KESSEL))})
    assert "Plasma lance:</strong> added (class special, level 3, range 12″)." in pack
    assert '<td>Plasma lance <span class="house-was">(house rule)</span></td>' in pack


def test_a_misspelt_note_is_told_note_may_be_written_there(tmp_path):
    """A new user's trial: `notes:` under `recovery` was told "unknown key 'notes'; expected dice, target, rule,
    one_of, all_of", no "did you mean" and no `note` among the keys, though any mapping of a house file may carry
    one: a club could think its notes were not allowed and delete them."""
    club = _write(tmp_path, "club.yaml", "system: fireteam-tomorrow\nrecovery:\n  target: 9\n  notes: Better medics.\n")
    [problem] = _problems(club, "fireteam-tomorrow")
    assert (problem.line, problem.path) == (4, "recovery.notes")
    assert "did you mean 'note'?" in problem.message and "note" in problem.message.split("expected", 1)[1]


@pytest.mark.parametrize("example", ["bridge", "weissach-bridge", "vesta-relay", "warspike-hold-the-ford"])
def test_every_systems_cover_names_its_house_rules_even_one_that_changes_nothing(tmp_path, example):
    """A fresh read of a housed Ford pack: WarSpike's cover, laid out apart from the shared one, never said which
    house rules it was built with, and a house file that changes nothing printed its title over an empty list.
    Every system's cover now carries the same line, and a file without changes says so on the cover and the list."""
    scenario = build.load(SCENARIOS / f"{example}.yaml")
    system_id = scenario.system.id
    club = _write(tmp_path, "club.yaml", f"system: {system_id}\ntitle: Aller club house rules\n")
    pack, _ = _pack_html(SCENARIOS / f"{example}.yaml", {system_id: str(club)})
    cover = pack[pack.index('id="cover"') :]
    cover = cover[: cover.index("</section>")]
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", cover)).split())
    assert "Played with: Aller club house rules (no change to the rules as written)." in words
    listed = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", pack)).split())
    assert "Aller club house rules These house rules change nothing in the rules as written." in listed


def test_a_changed_sentence_is_said_to_change_no_value_and_a_tag_is_named_as_printed(tmp_path):
    """A fresh read of a housed Vesta Relay: the club's Move! sentence said "plus one" while rosters and cards
    printed the units' Movement Values, and the list named the tag "Weapon tags › heavy" where its table says
    Heavy. The list now says a changed sentence changes no value Muster works from, and names entries as printed."""
    club = _write(
        tmp_path,
        "pb.yaml",
        """
        system: para-bellum
        title: Vesta Club house rules
        weapon_tags:
          - name: heavy
            rule: Fired only when Fire! is taken as a Long Action, and never after moving.
        """,
    )
    pack, _ = _pack_html(SCENARIOS / "vesta-relay.yaml", {"para-bellum": str(club)})
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", pack)).split())
    assert "Weapon tags › Heavy, what the tag does:" in words
    assert "Weapon tags › heavy" not in words
    assert "where a sentence changes one of them, change that value in the house rules too." in words
    value = _write(tmp_path, "value.yaml", "system: para-bellum\ntitle: Sharp orders\norder: {bonus: 2}\n")
    pack, _ = _pack_html(SCENARIOS / "vesta-relay.yaml", {"para-bellum": str(value)})
    assert "Sharp orders" in pack and "change that value in the house rules too" not in pack


def test_morschauser_battle_and_artillery_lines_read_their_values_from_the_rule_data(tmp_path):
    """A fresh read of the Weissach reference: its battle lines wrote "+1 in cover", "+2 in fortifications", the D6
    and the 6 into the text, so a club's cover worth 2 left the reference at +1 while the odds followed the data.
    Each figure is now a value of the rule data, marked where a house rule changed it; the artillery effect line is
    worked from the effect faces."""
    club = _write(
        tmp_path,
        "club.yaml",
        """
        system: morschauser-modern
        title: Cover club
        battle:
          modifiers:
            - id: cover
              value: 2
        artillery:
          effect:
            direct: [4, 5, 6]
        """,
    )
    plain, _ = _pack_html(SCENARIOS / "weissach-bridge.yaml", {})
    pack, _ = _pack_html(SCENARIOS / "weissach-bridge.yaml", {"morschauser-modern": str(club)})

    def words(text: str) -> str:
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())

    assert "+1 in cover (woods, built-up)." in words(plain)
    assert "+2 (house rule; was +1) in cover (woods, built-up)." in words(pack)
    assert "Effect on any unit in the square hit, D6: direct fire 5–6 destroys; indirect fire 6 destroys." in words(
        plain
    )
    assert "direct fire 4–6 destroys; indirect fire 6 destroys (house rule; was “D6: direct fire 5–6" in words(pack)
    assert "Battle › Modifiers › In cover (built-up area, woods), Battle Power added: 2 (was 1)." in words(pack)


def test_warspikes_advantage_words_tracker_and_notes_follow_the_counts(tmp_path):
    """A new user's trial: a club's `advantage.counts.destroyed: opponent` changed the worked examples' totals while
    the Advantage rule, the turn sequence, the tracker's tally rows and the destroyed-Units note still said destroyed
    Units count zero. Each is now worded from the counts, the rule's change marked beside what it replaces."""
    club = _write(
        tmp_path, "club.yaml", "system: warspike\ntitle: Aller club\nadvantage:\n  counts:\n    destroyed: opponent\n"
    )
    plain, _ = _pack_html(SCENARIOS / "warspike-bridge-race.yaml", {})
    pack, _ = _pack_html(SCENARIOS / "warspike-bridge-race.yaml", {"warspike": str(club)})

    def words(text: str) -> str:
        return re.sub(r" ([.;)])", r"\1", " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split()))

    was = (
        "its own Units moving forward and the opposing side’s routing and retreating Units; destroyed Units and Units"
        " that have not moved count zero"
    )
    now = (
        "its own Units moving forward and the opposing side’s routing, retreating and destroyed Units; Units that"
        " have not moved count zero"
    )
    assert f"Each side totals {was}. The side with the higher total" in words(plain)
    assert f"Each side totals {now} (house rule; was “{was}”). The side with the higher total" in words(pack)
    assert f"Each side totals {now}. The higher total has the Advantage" in words(pack)  # the turn sequence
    assert "Routing or retreating (count for Landwehr Jäger)" in words(plain)
    assert "Routing, retreating or destroyed (count for Landwehr Jäger)" in words(pack)
    assert "They count as zero here." in words(plain)
    assert "They count here towards the opposing side’s total (house rule; was “They count as zero" in words(pack)
    assert "Advantage › Counts, a destroyed Unit: opponent (was none)." in words(pack)


def test_notes_that_name_this_packs_own_figures_follow_the_house_rules(tmp_path):
    """A new user's trial: with a house cover of +3, Morschauser's note still said "a trench in a wood is +2, not
    +3" and "the battle table runs from Battle Power 1 to 10" while the odds table ran to 11; Fireteam's note on
    heavy armour said "the same +1" under a house +2. Notes now name the rule data's own figures by reference,
    worked out as the odds work them out, and mark a changed one."""
    mors = _write(
        tmp_path,
        "mors.yaml",
        "system: morschauser-modern\ntitle: Cover club\nbattle:\n  modifiers:\n    - id: cover\n      value: 3\n",
    )
    pack, _ = _pack_html(SCENARIOS / "weissach-bridge.yaml", {"morschauser-modern": str(mors)})
    words = _unmarked(" ".join(html.unescape(re.sub(r"<[^>]+>", "", pack)).split()))
    assert "Only the better one counts: a trench in a wood is +3, not +5." in words
    assert "So the battle table runs from Battle Power 1 to 11: the strongest unit’s 7, +3 for cover or" in words
    assert "from Battle Power 1 to 10" not in words
    fire = _write(
        tmp_path,
        "fire.yaml",
        "system: fireteam-tomorrow\ntitle: Power armour club\nrecovery:\n  all_of:\n"
        "    - id: heavy_armour\n      value: 2\n",
    )
    pack, _ = _pack_html(SCENARIOS / "bridge.yaml", {"fireteam-tomorrow": str(fire)})
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", "", pack)).split())
    assert "Heavy armour gets +2 (house rule; was +1) here" in words
