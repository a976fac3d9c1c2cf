"""Fireteam Tomorrow's rule data is checked like a scenario: a broken rules.yaml is named at its line and column, exit 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator import systems
from generator.scenario import SideView
from generator.systems.fireteam import SYSTEM, FireteamTomorrow

RULES_YAML = Path(SYSTEM.folder) / "rules.yaml"


@pytest.fixture
def house_rules(tmp_path, monkeypatch):
    """edit(old, new) writes rules.yaml with one text replaced into tmp_path and makes a fresh system read it.

    Returns the copy's path and the (line, column) where `new` starts, both 1-based.
    """

    def edit(old: str, new: str) -> tuple[Path, int, int]:
        text = RULES_YAML.read_text(encoding="utf-8")
        assert text.count(old) == 1, old
        text = text.replace(old, new)
        copy = tmp_path / "rules.yaml"
        copy.write_text(text, encoding="utf-8")
        system = FireteamTomorrow()
        system.folder = tmp_path
        monkeypatch.setitem(systems._loaded, "fireteam-tomorrow", system)
        before = text[: text.index(new)]
        return copy, before.count("\n") + 1, len(before) - before.rfind("\n")

    return edit


def _refused(muster, copy: Path, line: int, column: int, message: str) -> None:
    result = muster("validate", "scenarios/bridge.yaml")
    assert result.code == 1, result.err
    assert "internal error" not in result.err
    assert f"{copy}:{line}:{column}: {message}" in result.err.splitlines(), result.err


def test_a_renamed_rule_key_is_named_where_it_stands(muster, house_rules):
    """`team_max` renamed `team_maximum` is an unknown key with a close match, at the key itself."""
    copy, line, column = house_rules("  team_max: 6\n", "  team_maximum: 6\n")
    _refused(
        muster,
        copy,
        line,
        column + 2,
        "limits.team_maximum: unknown key 'team_maximum' (did you mean 'team_max'?); expected team_min, team_max, "
        "leaders_per_team, special_or_heavy_per_team, medics_per_team, players_max, figures_max, sides_min, "
        "vehicles_warn_above, large_group, players",
    )


def test_a_word_where_the_rules_want_a_number_is_named_at_the_value(muster, house_rules):
    """Recovery's target written as a word is refused at the word, with the range a number must be in."""
    copy, line, column = house_rules("  target: 8\n", "  target: eight\n")
    _refused(
        muster,
        copy,
        line,
        column + len("  target: "),
        "recovery.target: expected a whole number from 2 to 12 (got 'eight')",
    )


def test_hand_to_hand_bands_that_leave_a_margin_uncovered_are_refused(muster, house_rules):
    """Moving the 'killed' band to start at 4 leaves a margin of 3 without a result: reported at that band's min."""
    copy, line, column = house_rules("{id: killed, min: 3, max: 5,", "{id: killed, min: 4, max: 5,")
    _refused(
        muster,
        copy,
        line,
        column + len("{id: killed, min: "),
        "hth.bands[1].min: the bands must cover every margin once: the next band starts at 3, "
        "after the band ending at 2 (got 4)",
    )


def test_rule_data_naming_what_does_not_exist_is_refused(muster, house_rules):
    """A terrain kind's cover must be a cover level of the rule data; a close one is suggested."""
    copy, line, column = house_rules("{name: building, cover: heavy}", "{name: building, cover: hevy}")
    _refused(
        muster,
        copy,
        line,
        column + len("{name: building, cover: "),
        "terrain[2].cover: expected a cover level from the rule data, one of none, light, medium, heavy (got 'hevy') "
        "(did you mean 'heavy'?)",
    )


def test_fewest_figures_above_most_is_refused(muster, house_rules):
    """A team minimum above the maximum cannot be met by any team: reported at team_min."""
    copy, line, column = house_rules("  team_min: 3 ", "  team_min: 7 ")
    _refused(
        muster,
        copy,
        line,
        column + len("  team_min: "),
        "limits.team_min: the fewest figures in a team (7) is above the most (6)",
    )


def test_the_rule_data_and_the_scenario_are_typed_records(muster):
    """After validation the rule data and each team are objects read by attribute, and the pack's forces carry the core's side view."""
    from generator.build import load
    from generator.systems.fireteam.equipment import Weapon
    from generator.systems.fireteam.models import Rules

    assert isinstance(SYSTEM.rules, Rules) and isinstance(SYSTEM.rules.weapons[0], Weapon)
    assert SYSTEM.rules.weapons[0].kind == "personal"  # the YAML key `class`
    scenario = load("scenarios/bridge.yaml")
    prepared = SYSTEM.prepare(scenario, 1402)
    assert prepared.forces[0].teams[0].quality == "Good"
    assert prepared.battle.table.width == 72
    forces = SYSTEM.pack(prepared)["forces"]
    assert [force["side"] for force in forces] == scenario.side_views
    assert all(isinstance(force["side"], SideView) for force in forces)


def test_the_hth_and_recovery_cards_read_the_rule_data(tmp_path, monkeypatch):
    """Issue 11 (found by a new user): the HTH card said '+2 with a pistol, rifle or blade' while the weapon table
    gives civilian and sniper rifles no bonus, and the bridge's Kessel Volunteers carry civilian rifles. The card
    now names the weapons carried that earn the bonus, from the rule data, and the Recovery card's target and the
    dice both cards roll come from it too: changed rule data changes the cards."""

    def hth_and_recovery(system) -> tuple[str, str]:
        from generator.build import load

        prepared = system.prepare(load("scenarios/bridge.yaml"), 1402)
        cards = {card["type"]: card["text"] for card in system.cards(prepared, "poker")}
        return cards["HTH"][1], cards["Recovery"][0]

    hth, recovery = hth_and_recovery(SYSTEM)
    assert hth == "Each rolls 2D6 + armour level, +2 with a pistol, submachine gun, assault rifle or battle rifle only."
    assert recovery.startswith("Every HIT figure, every side, rolls 2D6: 8 or more, it recovers")

    system = _edited_system(
        tmp_path,
        monkeypatch,
        [
            ("  target: 8\n", "  target: 9\n"),
            ("  weapon_bonus: 2\n", "  weapon_bonus: 3\n"),
            (
                "{name: Civilian rifle, class: personal, level: 1, range: 24, hth_bonus: false}",
                "{name: Civilian rifle, class: personal, level: 1, range: 24, hth_bonus: true}",
            ),
        ],
    )
    hth, recovery = hth_and_recovery(system)
    assert hth == (
        "Each rolls 2D6 + armour level, +3 with a pistol, submachine gun, assault rifle, battle rifle or civilian "
        "rifle only."
    )
    assert recovery.startswith("Every HIT figure, every side, rolls 2D6: 9 or more, it recovers")


def test_the_fire_and_recovery_cards_print_every_modifier_from_the_rule_data(tmp_path, monkeypatch):
    """Issue 11 (a fresh read of the card sheets): the Recovery card said only "rolls 2D6: 8 or more, it
    recovers" while the roster counted a leader, member or medic near, armour and quality (72% against 42%), and
    the Fire cards named the firer's bonuses only: no cover, no suppressive fire, no target quality, and the
    Warthog's card none at all. Both cards now print every modifier from the rule data (the Recovery card the
    armour and qualities the battle fields), so changed rule data changes them."""

    def fire_and_recovery(system, size="poker"):
        from generator.build import load

        prepared = system.prepare(load("scenarios/relay-station.yaml"), 1)
        cards = system.cards(prepared, size)
        fire = [card for card in cards if card["type"] == "Fire"]
        # the Marines face the Warthog; Security faces no vehicle
        team = next(card["text"] for card in fire if not card["vehicle"] and card["side_index"] == 0)
        guard = next(card["text"] for card in fire if not card["vehicle"] and card["side_index"] == 1)
        vehicle = next(card["text"] for card in fire if card["vehicle"])
        recovery = next(card["text"] for card in cards if card["type"] == "Recovery")
        return team, guard, vehicle, recovery

    team, guard, vehicle, recovery = fire_and_recovery(SYSTEM)
    # a later fresh read: '(12 against 2 always HITs)' read as two totals compared
    assert team[0] == (
        "Firer and target each roll 2D6: HIT if the firer's total is greater; a 12 rolled against a 2 always HITs."
    )
    assert team[1] == 'Firer: +1 leader within 9"; +1 each troop quality better than the target.'
    assert team[2] == (
        'Target: +1 each friendly within 12" that can see the firer, at most +3; cover: light +1, medium +2, '
        "heavy +3; +1 each troop quality better than the firer."
    )
    # a second fresh read: the Fire card gave the vehicle's armour but not that only an MG or explosive harms it,
    # and printed it on the cards of a side with no enemy vehicle
    # and 'A vehicle: +2 vehicle armour' did not say it is the armour of the vehicle fired at
    assert team[3] == "Against a vehicle: +2 vehicle armour; only an MG or explosive harms it." and len(team) == 4
    assert guard == team[:3]
    assert vehicle[0] == "Each weapon fires, at its crew's quality." and vehicle[1:] == guard
    assert recovery[1] == (
        '+1 for one of: leader within 6", group member within 3", medic within 3" (not the medic itself). '
        # a third reader: after "one of: ...;" the bonuses that all count read as more of the one
        "Also +1 medium armour, +1 heavy armour, +1 quality Good or Elite."  # no Hero fights at Relay Station Nine
    )
    *_, mini_recovery = fire_and_recovery(SYSTEM, "mini")
    assert "see the rosters" in mini_recovery[-1]

    system = _edited_system(
        tmp_path,
        monkeypatch,
        [
            ("  - {name: heavy, defence: 3}\n", "  - {name: heavy, defence: 4}\n"),
            (
                '{id: leader, name: "Leader within 9\\"", value: 1, times: 1}',
                '{id: leader, name: "Officer near", value: 2, times: 1}',
            ),
            (
                '{id: medium_armour, name: "Medium armour", value: 1, armour: [medium]}',
                '{id: medium_armour, name: "Medium armour", value: 2, armour: [medium]}',
            ),
        ],
    )
    team, _, _, recovery = fire_and_recovery(system)
    assert team[1].startswith("Firer: +2 officer near;") and "heavy +4" in team[2]
    assert "+2 medium armour" in recovery[1]


def _edited_system(tmp_path, monkeypatch, edits: list[tuple[str, str]]) -> FireteamTomorrow:
    """Fireteam Tomorrow with its rules.yaml edited (each old text found once), registered for this test."""
    text = RULES_YAML.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (tmp_path / "rules.yaml").write_text(text, encoding="utf-8")
    system = FireteamTomorrow()
    system.folder = tmp_path
    monkeypatch.setitem(systems._loaded, "fireteam-tomorrow", system)
    return system


def test_the_jump_pack_line_on_a_move_card_keeps_the_rules_distance_from_figures():
    """Issue 11 (a second fresh read): Skyhook's Move card left out "start and land at least 3\\" from any figure",
    which the quick reference prints."""
    from generator.build import load

    cards = SYSTEM.cards(SYSTEM.prepare(load("scenarios/relay-station.yaml"), 1), "poker")
    (move,) = [card["text"] for card in cards if card["type"] == "Move" and card["jump_packs"]]
    assert any('starting and landing at least 3" from any figure' in line for line in move)


def test_a_move_card_reads_the_rule_data_and_gives_the_chance_a_roll_beats_the_fixed_move(tmp_path, monkeypatch):
    """Issue 11 (a fifth fresh read): Move cards were half empty beside the Fire cards they now share a size with,
    and their dice and distances were written into the code. A Move card reads them from the rule data and says
    how often the roll beats the fixed move (7 or more on 2D6: 21/36), which the odds page prints: a player
    deciding whether to roll has it in hand."""
    from generator.build import load

    def moves(system):
        # a mini card's: a poker or tarot card adds how often a roll reaches each distance (tested below)
        cards = system.cards(system.prepare(load("scenarios/relay-station.yaml"), 1), "mini")
        team = next(
            card["text"] for card in cards if card["type"] == "Move" and not card["vehicle"] and not card["jump_packs"]
        )
        jump = next(card["text"] for card in cards if card["type"] == "Move" and card["jump_packs"])
        vehicle = next(card["text"] for card in cards if card["type"] == "Move" and card["vehicle"])
        return team, jump, vehicle

    team, jump, vehicle = moves(SYSTEM)
    assert team == [
        'Each figure: 2D6 inches, or 6" without rolling.',
        'Rolling goes farther than 6" in 58.3% of rolls, 7" on average.',
        'Linear obstacle \u22122"; rough ground costs double.',
    ]
    assert 'Jump packs: up to 24" instead' in jump[2] and vehicle[0].startswith("Move 3D6 inches")
    system = _edited_system(
        tmp_path,
        monkeypatch,
        [
            ("  fixed: 6\n", "  fixed: 5\n"),
            ("  linear_obstacle: 2\n", "  linear_obstacle: 3\n"),
            ("  max: 24\n", "  max: 20\n"),
        ],
    )
    team, jump, _ = moves(system)
    # 2D6 beats 5 on 6 or more: 26/36
    assert team[:2] == [
        'Each figure: 2D6 inches, or 5" without rolling.',
        'Rolling goes farther than 5" in 72.2% of rolls, 7" on average.',
    ]
    assert team[2] == 'Linear obstacle \u22123"; rough ground costs double.' and 'up to 20" instead' in jump[2]


def test_the_hth_bonus_rule_in_words_names_the_weapons_the_table_gives_it():
    """Issue 11 (a second fresh read): the roster key, odds note and quick reference said "+2 for a pistol or
    rifle ... or a special HTH weapon" while the weapons table (and so every roster and the HTH card) gave the
    submachine gun the +2. The words name every kind of weapon the table marks, and the rifles it does not."""
    rule = SYSTEM.rules.hth.weapon_bonus_rule.lower()
    reference = " ".join(
        line if isinstance(line, str) else line["text"]
        for section in SYSTEM.rules_filled.data["reference"]
        for line in section["lines"]
    ).lower()
    for weapon in SYSTEM.rules.weapons:
        name = weapon.name.lower()
        if weapon.hth_bonus:
            assert name in rule or name.split()[-1] in rule, weapon.name
        elif name.endswith("rifle"):
            assert name.split()[0] in rule, weapon.name  # "not civilian or sniper rifles"
    assert "submachine gun" in reference and "hth bonus in the weapons table" in reference
    # a fresh read: "or HTH weapon: see HTH weapon in the weapons table" named the weapons table's class HTH, which
    # holds an improvised weapon with no bonus beside the sword; the table's column says which earn it
    assert "special hth weapon such as a sword" in reference and "see hth weapon" not in reference


def test_a_vehicles_damage_record_says_what_a_hit_ticks_and_what_a_full_row_takes(tmp_path, monkeypatch):
    """Issue 11 (a second fresh read): the Warthog's damage boxes said nothing of what a HIT does. The record's rows,
    boxes, what a full row takes away and what a HIT ticks are rule data, printed on the roster as this pack's
    reading; a club's edit changes the roster."""
    from generator.build import load

    pack = SYSTEM.pack(SYSTEM.prepare(load("scenarios/relay-station.yaml"), 1))
    (warthog,) = [v for force in pack["forces"] for v in force["vehicles"]]
    assert [(row["name"], row["boxes"], row["lost"]) for row in warthog["damage"]] == [
        ("Vehicle machine gun", 2, "It cannot fire."),
        ("Movement", 2, "The vehicle cannot move."),
        ("Crew", 3, "The vehicle is out of the game."),
    ]
    assert pack["vehicle_rules"]["hit"].startswith("Each HIT ticks one box: the firer rolls a D6, 1–2 a weapon")
    assert pack["vehicle_rules"]["dice"] == 3 and pack["vehicle_rules"]["armour"] == "vehicle armour +2"

    system = _edited_system(
        tmp_path,
        monkeypatch,
        [
            (
                '{name: crew, boxes: 3, lost: "The vehicle is out of the game."}',
                '{name: crew, boxes: 4, lost: "Bailed out."}',
            ),
            ("  vehicle_dice: 3", "  vehicle_dice: 2"),
        ],
    )
    edited = system.pack(system.prepare(load("scenarios/relay-station.yaml"), 1))
    (warthog,) = [v for force in edited["forces"] for v in force["vehicles"]]
    assert warthog["damage"][-1] == {"name": "Crew", "weapon": None, "boxes": 4, "lost": "Bailed out."}
    assert edited["vehicle_rules"]["dice"] == 2


def test_a_damage_row_the_roster_cannot_draw_is_refused(muster, house_rules):
    """The roster knows three rows (each weapon, movement, crew); rule data naming another is refused at the name,
    with the rows it expects."""
    copy, line, column = house_rules("{name: movement, boxes: 2,", "{name: movment, boxes: 2,")
    _refused(
        muster,
        copy,
        line,
        column + len("{name: "),
        "vehicles.damage[1].name: expected one of weapon, movement, crew (got 'movment') (did you mean 'movement'?)",
    )


def test_a_contact_weapon_that_fires_is_refused(muster, house_rules):
    """Issue 11 (a second fresh read): the Improvised weapon (level 1, range 0) read on the roster as a weapon that
    fires at one figure in base contact, where figures fight hand to hand. A range-0 weapon is an HTH weapon:
    rule data giving it a level is refused at the level."""
    copy, line, column = house_rules(
        "{name: Improvised weapon, class: hth, level: 0,", "{name: Improvised weapon, class: hth, level: 1,"
    )
    _refused(
        muster,
        copy,
        line,
        column + len("{name: Improvised weapon, class: hth, level: "),
        "weapons[6].level: a weapon used only in base contact (range 0) is an HTH weapon: class hth, level 0",
    )


def test_the_hth_cards_results_are_the_rule_datas_bands():
    """A fresh read of the Fireteam decks: the HTH card said 'by 3-5: killed' (which reads as the winner killed)
    where the pack's table says 'Loser killed', and left out that a HIT figure loses at once. The card's results
    are the rule data's bands, in their words, widest margin first, and its HIT-figure rule."""
    from generator.build import load

    prepared = SYSTEM.prepare(load("scenarios/bridge.yaml"), 1402)
    text = next(card["text"] for card in SYSTEM.cards(prepared, "poker") if card["type"] == "HTH")
    hth = SYSTEM.rules.hth
    results = next(line for line in text if line.startswith("Win "))
    for band in hth.bands:
        assert band.result[:1].lower() + band.result[1:] in results, band.id
    assert results.index("kill or capture") < results.index("loser killed") < results.index("loser HIT")
    assert hth.hit_figure in text


@pytest.mark.parametrize("size", ["poker", "tarot"])
def test_a_poker_or_tarot_move_card_gives_the_chance_a_roll_reaches_each_distance(size):
    """Issue 11 (fresh reads of the tarot and then the poker cards): a Fireteam Move card used half its body beside
    the Fire card it shares a size with. On a poker or tarot card a figure's Move card also says, exactly, how
    often its roll reaches each even distance past the fixed move it may take without rolling (2D6: 8" on 15 of 36
    rolls, 12" on 1), each distance bound to its chance, before the jump packs and the obstacles; a mini card keeps
    to the rules."""
    from generator.build import load

    prepared = SYSTEM.prepare(load("scenarios/relay-station.yaml"), 1)

    def team_move(size):
        cards = SYSTEM.cards(prepared, size)
        return next(c["text"] for c in cards if c["type"] == "Move" and not c["vehicle"] and not c["jump_packs"])

    assert team_move(size)[2:] == [
        'A roll reaches 8":\u00a041.7%; 10":\u00a016.7%; 12":\u00a02.8%.',
        'Linear obstacle \u22122"; rough ground costs double.',
    ]
    assert not any(line.startswith("A roll reaches") for line in team_move("mini"))
    cards = SYSTEM.cards(prepared, size)
    jump = next(c["text"] for c in cards if c["type"] == "Move" and c["jump_packs"])
    assert jump[2].startswith("A roll reaches") and jump[3].startswith("Jump packs")


def test_the_hth_note_and_the_reference_agree_on_when_a_hit_figure_in_hth_goes():
    """A fresh read: the reference said a HIT figure in HTH "loses at once and is removed", while the note on the
    result bands said a loser by 1 or 2 is turned on its side and settled on the next Recovery card "as a HIT
    figure in HTH is", so a player could not tell whether it goes now or at Recovery. Seed 001: it "is immediately
    removed from play"; the note now says a figure already HIT when its fight comes up is removed at once."""
    rules = systems.get("fireteam-tomorrow").rules_filled
    note = " ".join(rules.data["hth"]["bands_note"]["note"].split())
    assert "as a HIT figure in HTH is" not in note
    assert "a figure already HIT when its fight comes up is removed at once" in note
    lines = [line for section in rules.data["reference"] for line in section["lines"] if isinstance(line, str)]
    assert any("A HIT figure in HTH loses at once and is removed" in line for line in lines)
