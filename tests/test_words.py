"""Words for players, not programmers (issue 11): what every example pack and card sheet prints, read back."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pdfplumber
import pytest
import yaml
from conftest import SCENARIOS, examples_by_system
from pypdf import PdfReader

from generator import markup, rendering
from generator.build import choose_seed, load
from generator.systems import get, known
from generator.systems.base import collect_notes, heading

EXAMPLES = [name for names in examples_by_system().values() for name in names]
# text under this size must be near black: #555 and lighter grey is too faint to read at arm's length
SMALL_POINTS = 7.45
DARKEST_FAINT_GREY = 0.15  # 0 black, 1 white: #262626; the #333 and #444 of small print read as grey too


def _text(pdf_path) -> str:
    """The words a page prints: a map's name is drawn twice, its white halo under it (WeasyPrint has no
    paint-order), and read without deduplication 'Mill-race wall' came back 'MMiillll--rraaccee', a '--'."""
    with pdfplumber.open(pdf_path) as pdf:
        return "\n".join(page.dedupe_chars().extract_text() or "" for page in pdf.pages)


def _first_page(pdf_path) -> str:
    with pdfplumber.open(pdf_path) as pdf:
        return pdf.pages[0].extract_text() or ""


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_pack_prints_a_command_a_key_or_the_word_seed(name, built):
    """No backtick, `muster` command, exit status, 'the seed says' or lone 'seed' in any pack or card sheet."""
    for pdf in built(name):
        text = _text(pdf)
        assert "`" not in text, f"{pdf.name}: a backtick prints raw"
        assert not re.search(r"\bmuster [a-z]", text), f"{pdf.name}: a command line prints"
        assert "exit" not in text.lower() and "status 2" not in text, f"{pdf.name}: an exit status prints"
        found = re.findall(r".{0,40}\bseed\b.{0,20}", text, flags=re.IGNORECASE)
        assert not found, f"{pdf.name}: 'seed' prints (say deck number or the original rules): {found}"


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_pack_points_to_another_part_by_where_it_falls_on_paper(name, built):
    """A pack names the part it points to, never "below" or "above": Hill 112's cover said its tiles were "drawn in
    advance below" though the schedule was three pages on; and a deck number never breaks from its words."""
    text = _text(built(name)[0])
    pointing = re.findall(r".{0,40}\b(?:drawn|printed|shown|listed|given|see)\b[a-z ]{0,12}\b(?:below|above)\b", text)
    assert pointing == []
    assert not re.search(r"from deck(?: number)?\n", text), "a deck number broke from its words in a sentence"


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_odds_print_a_certainty_as_a_fraction(name, built):
    """No '0/1' or '1/1' (nor '0% 0/1', '100% 1/1') anywhere in a pack; certainties read 'never' and 'always'."""
    text = _text(built(name)[0])
    assert not re.search(r"(?<![\d/])[01]/1(?![\d/])", text)
    assert "0% 0/1" not in text and "100% 1/1" not in text


@pytest.mark.parametrize("name", [n for n in EXAMPLES if load(SCENARIOS / f"{n}.yaml").system.uses_seed])
def test_the_deck_number_is_on_the_cover_and_every_card_back(name, built):
    """The shuffle's number reads 'Deck number N' on the cover and on the card backs, and no shell command beside it."""
    scenario = load(SCENARIOS / f"{name}.yaml")
    seed = choose_seed(scenario, None)
    pack, cards = built(name)
    cover = _first_page(pack)
    assert "Deck number" in cover and re.search(rf"(?m)^{seed}$", cover), cover[:300]
    with pdfplumber.open(cards) as pdf:
        backs = [page.extract_text() or "" for page in pdf.pages[1::2]]
    assert backs and all(f"Deck number {seed}" in back for back in backs)


def test_the_battle_matrix_cannot_be_read_as_fractions(built):
    """Morschauser's battle matrix prints the two chances stacked, never as '42 / 14'."""
    name = examples_by_system()["morschauser-modern"][0]
    text = _text(built(name)[0])
    assert "Battles by Battle Power after modifiers" in text
    assert not re.search(r"\b\d{1,3} / \d{1,3}\b", text)


def test_a_one_or_two_row_table_is_a_sentence(built):
    """An odds table of one or two rows prints as a sentence, not a table with a header: Fireteam's jump table.
    WarSpike's coin toss (heads and tails at 1/2) is not printed at all: its note says it."""
    text = " ".join(_text(built("relay-station")[0]).split())
    assert "Jump packs: mishap after a jump. Jump up to 24″: HIT on landing" in text  # the columns interleave
    assert "2.8% (1/36). Roll 2D6 after the jump" in text
    warspike = " ".join(_text(built(examples_by_system()["warspike"][0])[0]).split())
    assert "The coin shows" not in warspike and "Heads: 50.0%" not in warspike


def _faint(pdf) -> list:
    """Each page's small text lighter than near black: (page, size, grey, character)."""
    found = []
    for number, page in enumerate(pdf.pages, 1):
        for char in page.chars:
            colour = char.get("non_stroking_color") or ()
            if char["size"] >= SMALL_POINTS or not char["text"].strip() or len(colour) not in (1, 3):
                continue
            grey = colour[0] if len(colour) == 1 else sum(colour) / 3
            if max(colour) - min(colour) < 0.02 and DARKEST_FAINT_GREY < grey < 0.75:
                found.append((number, round(char["size"], 1), round(grey, 2), char["text"]))
    return found


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_small_text_is_faint_grey(name, built):
    """Text under 7.5 pt that a player must read is near black (#262626 or darker), never grey: a fresh read found
    Para Bellum's weapon tags, Fireteam's roster notes and Morschauser's unit types at 7 pt in #444, and the card
    stat labels in #333."""
    for pdf_path in built(name):
        with pdfplumber.open(pdf_path) as pdf:
            faint = _faint(pdf)
        assert not faint, f"{pdf_path.name}: faint small text {sorted(set(faint))[:12]}"


@pytest.mark.parametrize("name", ["relay-station", "warspike-hold-the-ford", "vesta-relay", "weissach-bridge"])
def test_no_small_text_on_a_mini_card_is_faint_grey(name):
    """A second fresh read: on mini cards, where text shrinks to 7 pt, WarSpike's 'Reaction only, one a turn' and
    Fireteam's 'TEAM CARD' printed in #333 and #444 (at 7.5 pt on poker cards they passed)."""
    import io

    from test_card_fit import sheet_pdf

    with pdfplumber.open(io.BytesIO(sheet_pdf(name, "mini"))) as pdf:
        faint = _faint(pdf)
    assert not faint, sorted(set(faint))[:12]


@pytest.mark.parametrize("system_id", known())
def test_note_headings_are_capitalised_and_unique(system_id):
    """Every reference note's heading starts with a capital, is not a bare key, and no heading repeats."""
    headings = [note["rule"] for note in get(system_id).reference()["notes"]]
    assert all(h[0].isupper() and "_" not in h for h in headings), headings
    assert len(headings) == len(set(headings)), headings


@pytest.mark.parametrize("system_id", known())
def test_a_note_does_not_open_by_repeating_its_heading(system_id):
    """A run-in heading is followed by new words: Para Bellum's note printed "Fire! Fire! is one action", which a
    reader took for a misprint (a heading ending in "!" takes no stop, so nothing parts the two)."""
    for note in get(system_id).reference()["notes"]:
        first = note["rule"].rstrip(".").split()[0].lower()
        assert note["note"].split()[0].lower().rstrip(".,:;") != first, note


@pytest.mark.parametrize("system_id", known())
def test_a_variants_rule_does_not_open_with_a_label_of_its_own(system_id):
    """The cover prints a variant as 'Name: rule': Morschauser's printed "Clock-face scatter: Scatter by the clock:
    1 beyond, ..." (a second label saying the name again)."""
    variants = get(system_id).rules_filled.data.get("variants") or []
    entries = variants.values() if isinstance(variants, dict) else variants
    summaries = [entry["summary"] for entry in entries if entry.get("summary")]
    for summary in summaries:
        assert not re.match(r"[A-Z][\w' -]{0,40}:", summary), summary


@pytest.mark.parametrize("system_id", known())
def test_every_variants_rule_opens_as_a_sentence(system_id):
    """The cover's variants box lists 'Name: rule' one under another: Hill 112's read "Clock-face scatter: 1
    beyond, 2 right, ..." over "Woods cost movement: A wood square costs ...", one rule opening with a figure, the
    next with a capital. Every variant's rule is a sentence that opens with a capital letter."""
    variants = get(system_id).rules_filled.data.get("variants") or []
    entries = variants.values() if isinstance(variants, dict) else variants
    for summary in (entry["summary"] for entry in entries if entry.get("summary")):
        assert summary[:1].isupper() and summary.endswith("."), summary


def test_a_pack_that_plays_one_scatter_calls_it_scatter():
    """Weissach headed its scatter table "Original scatter" with no variant to tell it from: a pack says
    "Original scatter" only where a booklet's whole reference prints it beside the variants that replace it,
    and a variant's own name where it plays one."""
    from generator.build import Options, choose_seed, compute, load

    scenario = load(SCENARIOS / "weissach-bridge.yaml")
    assert not scenario.data.get("variants")
    seed = choose_seed(scenario, None)
    assert compute(scenario, seed, Options(), with_cards=False)[0]["scatter"]["name"] == "Scatter"
    whole = compute(scenario, seed, Options(), with_cards=False, whole_reference=True)[0]
    assert whole["scatter"]["name"] == "Original scatter"
    played = load(SCENARIOS / "hill-112.yaml")
    assert "clock-face-scatter" in played.data.get("variants", [])
    assert compute(played, seed, Options(), with_cards=False)[0]["scatter"]["name"] == "Clock-face scatter"


@pytest.mark.parametrize("system_id", known())
def test_notes_speak_of_the_original_rules_without_keys_or_commands(system_id):
    """Notes say 'the original rules', never 'the seed', and print no backticked key or command line."""
    for note in get(system_id).reference()["notes"]:
        assert "`" not in note["note"] and "muster " not in note["note"], note
        assert not re.search(r"\bseed\b", note["note"], flags=re.IGNORECASE), note


def test_notes_under_one_heading_merge_and_bare_keys_read_as_words():
    """Two notes under one key print once, joined; a bare key becomes a capitalised word, and a word of it
    without a vowel is an abbreviation in capitals (the house-rules list printed "Hth" and "Hq units")."""
    data = {
        "hth": {"bands": [{"id": "a", "note": "First."}, {"id": "b", "note": "Second."}]},
        "hq_units": {"note": "X."},
    }
    assert collect_notes(data) == [{"rule": "Bands", "note": "First. Second."}, {"rule": "HQ units", "note": "X."}]
    assert heading("hth") == "HTH" and heading("move_distance") == "Move distance"


def test_notes_render_markdown_with_curly_quotes_and_real_dashes():
    """A note's Markdown prints as emphasis, its quotes curl, '--' is a dash and number ranges take an en dash."""
    html = markup.inline('The original rules say "add *only* ONE" -- of 2-5, -1 each; it\'s so.')
    assert (
        html
        == "The original rules say \u201cadd <em>only</em> ONE\u201d \u2013 of 2\u20135, \u22121 each; it\u2019s so."
    )
    assert str(rendering.heading_stop("Take Action!")) == "Take Action!"
    assert str(rendering.heading_stop("Stress")) == "Stress."


def test_prose_gets_curly_quotes_and_dashes():
    """Scenario prose (briefing, victory) goes through smarty: curly quotes, en and em dashes."""
    html = str(markup.to_html('"Hold" the bridge -- it\'s the only crossing --- for now.'))
    assert "\u201cHold\u201d" in html and "\u2013" in html and "\u2014" in html and "it\u2019s" in html


def test_every_packs_notes_print_curly_quotes(built):
    """The reference notes of a pack print curly quotes where the rule data has straight ones."""
    name = examples_by_system()["fireteam-tomorrow"][0]
    text = _text(built(name)[0])
    assert "\u201cEach player controls one team\u201d" in text
    assert '"Each player controls one team"' not in text


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_pack_or_card_prints_a_straight_quote(name, built):
    """Issue 11: quotes curl and a figure's inches take an inch mark everywhere, not only in Markdown: names from the
    scenario ("King's Own Rifles"), rule data on cards ("the firer's total") and table notes printed straight
    quotes. Every text a template prints goes through markup.curl_quotes, and so does every map label."""
    for pdf in built(name):
        text = _text(pdf)
        straight = re.findall(r".{0,30}['\"].{0,30}", text)
        assert not straight, f"{pdf.name}: straight quotes print: {straight[:5]}"


def test_curl_quotes_reads_apostrophes_quotes_and_inches():
    assert markup.curl_quotes("King's Own Rifles") == "King\u2019s Own Rifles"
    assert markup.curl_quotes("the players' dice, 12 o'clock") == "the players\u2019 dice, 12 o\u2019clock"
    assert markup.curl_quotes('"none" (or "C4"), move 6" and \'go\'') == (
        "\u201cnone\u201d (or \u201cC4\u201d), move 6\u2033 and \u2018go\u2019"
    )


def test_a_map_label_is_measured_and_drawn_with_curly_quotes():
    """A map label is SVG made by Muster, which the templates pass as it is: it curls its own text when made, so
    that its box is measured on the text that prints (St Mary’s church, not St Mary's church)."""
    from generator.labels import Label

    label = Label("St Mary's church", 3.0, (0.0, 0.0), [(0.0, 0.0)])
    assert label.text == "St Mary\u2019s church"


def test_certain_chances_read_as_words():
    """0 prints 'never', 1 'always', and a cell never pairs a certainty with '0/1' or '1/1'."""
    assert rendering.chance(0) == "never" and rendering.chance(1) == "always"
    assert str(rendering.odds_cell(Fraction(0))) == '<span class="pct certain">never</span>'
    assert str(rendering.odds_cell(Fraction(1))) == '<span class="pct certain">always</span>'
    assert str(rendering.odds_cell(Fraction(4, 9))) == '<span class="pct">44.4%</span> <span class="frac">4/9</span>'


def test_an_inch_mark_after_a_figure_stays_an_inch_mark():
    """`within 6"` prints a double prime, not the closing quotation mark smarty would make of it; quotes still curl."""
    from generator.markup import inline, to_html

    for render in (to_html, inline):
        html = str(render('no enemy within 6" and "held"'))
        assert "6\u2033" in html and "6\u201d" not in html, html
        assert "\u201cheld\u201d" in html, html
        quoted = str(render('squares are written "C4" and bands stop at "3 to 5"'))
        assert "\u201cC4\u201d" in quoted and "\u201c3 to 5\u201d" in quoted, quoted


def test_team_facts_and_cover_headings_read_as_words(built):
    """Fireteam's team line keeps a space before '· recovers' after jump packs, and the first cover column is
    'No cover', not 'None cover'."""
    from pypdf import PdfReader

    pack, _ = built("relay-station")
    text = "\n".join(page.extract_text() for page in PdfReader(pack).pages)
    assert "jump packs ·" in text and "jump packs·" not in text
    assert "No cover" in text and "None cover" not in text


def _rule_data_ids() -> set[str]:
    """Every hyphenated id or key in every system's rule data (`afv-or-at`, `clock-face-scatter`): words for code."""
    found: set[str] = set()

    def walk(data):
        if isinstance(data, dict):
            for key, value in data.items():
                if isinstance(key, str) and "-" in key:
                    found.add(key)
                if key == "id" and isinstance(value, str) and "-" in value:
                    found.add(value)
                walk(value)
        elif isinstance(data, list):
            for item in data:
                walk(item)

    for system_id in known():
        walk(get(system_id).rules_filled.data)
    return found


# words a programmer reads and a player should never meet: the rule file and its keys, command lines and their flags
PROGRAMMER_WORDS = [
    (r"(?i)\brule data\b", "'rule data'"),
    (r"(?i)\byaml\b", "'YAML'"),
    (r"\bMuster allows\b", "'Muster allows'"),
    (r"\bEncoded by Muster\b", "'Encoded by Muster'"),
    (r"\bis refused\b", "'is refused' (say what the player does)"),
    (r"(?i)\bexit\b", "'exit'"),
    (r"--", "'--' (a command-line flag)"),
    (r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", "a snake_case key"),
    # found by fresh reads (issue 11): a feature players cannot use yet, the program's own checking, a code comment
    # quoted from the source, playing cards written as codes, a weapon class by its id
    (r"(?i)house-rules file", "'house-rules file'"),
    (r"(?i)rules that checked", "'the rules that checked' (the program validating)"),
    (r"//", "'//'"),
    (r"\b(?:[2-9AJQK]|10)[HCDS]\b", "a playing card as a code ('AH', 'KS'): print its suit"),
    (r"\bhth\b", "'hth' (the weapon class's id)"),
    # a second fresh read: a data model's words (an entity "holds" or "belongs to" another, a default "gets"
    # a value, a list "names none", a layout "has room for"), and a tag naming a type, not what it means
    (r"\bholds at most\b|\bbelongs to at most\b|\bHQ holds\b|\bBlock holds\b", "'holds/belongs to at most'"),
    (r"\bone that does not gets\b|\bwhen it names none\b|\bhave room for\b", "a default or a layout, in code's words"),
    (r"\(Block\)", "'(Block)' as a tag"),
    # a fresh read of Hill 112's notes: how the program draws ("a shuffle set by the deck number ... and the turn
    # number"), where a player wants what the number does for them
    (r"(?i)\bshuffle set by\b|\bset by the deck number\b", "a draw in code's words ('a shuffle set by ...')"),
]
# what Python prints when a value reaches the page unformatted: None, True, False, a type, a repr, an internal id
PYTHON_WORDS = [
    (r"\b(None|True|False|NoneType)\b", "a Python value (None, True, False)"),
    (r"\b(dict|str|int|list|tuple)\b(?![- ])|<class |object at 0x|Traceback", "a Python type or repr"),
    (r"\{'[^']*': |\['[^']*', '|Fraction\(", "a Python repr of a dict, a list or a Fraction"),
    (r"\bS\d+[TV]\d+\b", "an internal unit id such as S1T1"),
]


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_pack_or_card_prints_a_programmers_word(name, built):
    """No pack or card sheet prints a rule-data id (`afv-or-at`), 'rule data', 'YAML', 'Muster allows', 'is refused',
    'exit', '--', a snake_case key, None/True/False, a Python repr or an id like S1T1: every word on the page is one a
    player reads."""
    patterns = (
        PROGRAMMER_WORDS
        + PYTHON_WORDS
        + [
            (rf"(?<![\w-]){re.escape(ident)}(?![\w-])", f"the rule-data id {ident!r}")
            for ident in sorted(_rule_data_ids())
        ]
    )
    for pdf in built(name):
        text = " ".join(_text(pdf).split())
        found = [
            f"{what}: ...{text[max(0, m.start() - 40) : m.end() + 20]}..."
            for pattern, what in patterns
            for m in [re.search(pattern, text)]
            if m
        ]
        assert not found, f"{pdf.name} prints programmers' words:\n" + "\n".join(found)


@pytest.mark.parametrize("system_id", known())
def test_notes_say_what_the_player_does_not_what_muster_does(system_id):
    """A note reads as the rules a player plays ('This pack reads ...'), never 'Muster allows', 'Muster refuses' or
    'is refused': validation is not a rule of the game."""
    for note in get(system_id).reference()["notes"]:
        assert not re.search(r"\bMuster\b", note["note"]), note
        assert not re.search(r"\brefuse[sd]?\b", note["note"]), note


@pytest.mark.parametrize("system_id", known())
def test_every_note_is_headed_by_a_name_not_a_key(system_id):
    """Every note in the shipped rule data sits on an entry with a name or title of its own, so no heading is a bare
    key ('Bands', 'Grid') turned into a word."""

    def unnamed(data, path):
        if isinstance(data, dict):
            if str(data.get("note") or "").strip() and not (data.get("name") or data.get("title")):
                yield ".".join(map(str, path))
            for key, value in data.items():
                yield from unnamed(value, path + (key,))
        elif isinstance(data, list):
            for i, item in enumerate(data):
                yield from unnamed(item, path + (i,))

    assert list(unnamed(get(system_id).rules_filled.data, ())) == []


def test_fireteam_firing_chances_say_which_number_is_which(built):
    """A team's firing table labels its two chances per cover ('no leader', 'leader +1'), never '34% / 44%'."""
    text = _text(built("bridge")[0])
    assert not re.search(r"\d+% / \d+%", text)
    assert text.count("no leader leader +1 no leader leader +1") >= 6, "every team's table labels both numbers"


def test_fireteam_prints_one_hth_number_per_figure():
    """A figure's HTH number is its armour level plus the weapon bonus, printed once per figure; the team line no
    longer prints the armour's share as a second, different 'HTH +'."""
    from generator import build

    scenario = build.load(SCENARIOS / "bridge.yaml")
    pack, sheet = build.compute(scenario, build.choose_seed(scenario, None), build.Options())
    pack_html, _ = build.render_html(scenario, pack, sheet)
    assert "(HTH +" not in pack_html
    rules = get("fireteam-tomorrow").rules
    levels = {armour.name: armour.level for armour in rules.armour}
    weapons = {weapon.name: weapon for weapon in rules.weapons}
    seen = 0
    for force in pack["forces"]:
        for team in force["teams"]:
            for figure in team["figures"]:
                bonus = rules.hth.weapon_bonus if weapons[figure["weapon"]].hth_bonus else 0
                assert figure["hth"] == levels[team["armour"]] + bonus, (team["name"], figure)
                assert "HTH" not in figure["tags"]
                seen += 1
    assert seen > 10


@pytest.mark.parametrize("name", EXAMPLES)
def test_objective_points_print_only_where_the_victory_rules_score_them(name):
    """An objective's victory points print on the cover only when the scenario's victory text scores points:
    a number nothing uses is noise."""
    data = yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text(encoding="utf-8"))
    scored = [o["name"] for o in data.get("objectives") or [] if o.get("points") is not None]
    if scored:
        assert re.search(r"\bpoints?\b", data.get("victory") or ""), f"{name}: {scored} carry points nothing scores"


@pytest.mark.parametrize(
    "name, abbreviations",
    [
        ("bridge", ["Level", "Range", "LOT", "HTH", "MG", "HIT · Out"]),
        ("hill-112", ["Code", "Start", "Mv", "BP", "Rng", "Arc", "T1"]),
    ],
)
def test_roster_abbreviations_are_explained_in_a_key_line(name, abbreviations, built):
    """Each roster's column heads and short marks are spelt out once, in a key line above the first side."""
    text = " ".join(_text(built(name)[0]).split())
    assert "Key:" in text, f"{name}: no key line"
    key_line = text.split("Key:", 1)[1][:700]
    for abbreviation in abbreviations:
        assert re.search(rf"(?<!\w){re.escape(abbreviation)}(?!\w)", key_line), f"{name}: {abbreviation} not explained"


@pytest.mark.parametrize("name", examples_by_system()["morschauser-modern"])
def test_turn_boxes_match_the_tick_instructions(name):
    """The roster gives each turn one box, and its instructions speak of one box a turn, not of F and M marks."""
    from generator import build

    scenario = build.load(SCENARIOS / f"{name}.yaml")
    pack, sheet = build.compute(scenario, build.choose_seed(scenario, None), build.Options())
    html = build.render_html(scenario, pack, sheet)[0]
    instructions = re.search(r'<p class="side-summary">(.*?)</p>', html, flags=re.DOTALL).group(1)
    assert "(F)" not in instructions and "(M)" not in instructions, instructions
    assert "one box" in instructions, instructions
    turns = yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text(encoding="utf-8"))["turns"]
    for row in re.findall(r'<td class="code">.*?</tr>', html, flags=re.DOTALL):
        assert row.count('<td class="turn">') == turns and row.count('<span class="box"></span>') == turns, row[:80]


def test_hold_the_ford_briefing_counts_the_roman_roster():
    """The Ford at Afon Du's briefing gives the Romans' strength as the roster has it (five Contubernia, 39 men)."""
    data = yaml.safe_load((SCENARIOS / "warspike-hold-the-ford.yaml").read_text(encoding="utf-8"))
    romans = data["sides"][0]
    assert sum(unit["troops"] for unit in romans["units"]) == 39 and len(romans["units"]) == 5
    briefing = " ".join(data["briefing"].split())
    # a second fresh read found "five Contubernia of thirty-nine men" garbled: the men are in the Contubernia
    assert "thirty-nine men in five Contubernia" in briefing and "of eight men" not in briefing


def test_calibration_sheet_speaks_to_the_player_and_sets_the_command_apart(muster, tmp_path):
    """The calibration sheet tells a player what to read and write down; the build flag appears only on one line
    marked for the person printing, and that text ends above the rulers it explains."""
    out = tmp_path / "calibrate.pdf"
    assert muster("calibrate", "--out", out, "--back-offset", "0.5,-1").code == 0
    with pdfplumber.open(out) as pdf:
        back = pdf.pages[1]
        text = " ".join((back.extract_text() or "").split())
        words = back.extract_words()
    assert "Write the two numbers here" in text
    player, _, printer = text.partition("For the person printing:")
    assert "--back-offset" not in player and "--back-offset" in printer, text[:400]
    assert "(0.5,-1.0)" in printer
    # measured, not assumed: the instructions end above the highest ruler label on the page
    howto_bottom = max(w["bottom"] for w in words if w["text"] in ("Y", "down", "printed"))
    ruler_top = min(w["top"] for w in words if w["text"] in ("A1", "A2", "A3"))
    assert howto_bottom < ruler_top, (howto_bottom, ruler_top)


def _pack_text(path) -> str:
    """A scenario's pack as the reader sees its words: the rendered HTML with tags dropped and spaces joined."""
    import html

    from generator import build

    scenario = build.load(path)
    pack, _ = build.compute(scenario, build.choose_seed(scenario, None), build.Options(), with_cards=False)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", build.pack_html(scenario, pack))).split())


def test_a_name_in_a_sentence_lowers_only_a_leading_article():
    """'The bridge' reads 'the bridge' inside a sentence; a proper noun ('Hill 112', 'Theodore's farm') keeps its
    capitals."""
    assert rendering.in_sentence("The bridge") == "the bridge"
    assert rendering.in_sentence("A farm") == "a farm" and rendering.in_sentence("An orchard") == "an orchard"
    for name in ("Hill 112", "Theodore's farm", "Uplink", "The", "Anvil ridge", "Crest west"):
        assert rendering.in_sentence(name) == name


@pytest.mark.parametrize(
    "name, was, now", [("bridge", "The bridge", "The bridge"), ("hill-112", "Crest west", "A crest")]
)
def test_objectives_read_as_a_sentence_in_every_system(name, was, now, tmp_path):
    """Fireteam's and Morschauser's covers name their objectives inside a sentence, the article lower-cased: 'The
    objective is the bridge.', never 'Objectives: The bridge.'"""
    source = (SCENARIOS / f"{name}.yaml").read_text(encoding="utf-8")
    assert f"name: {was}" in source
    path = tmp_path / f"{name}.yaml"
    path.write_text(source.replace(f"name: {was}", f"name: {now}"), encoding="utf-8")
    text = _pack_text(path)
    lowered = now[0].lower() + now[1:]
    assert re.search(rf"The objectives? (is|are) [^.]*\b{lowered}\b", text), text[:1500]
    assert f"Objectives: {now}" not in text and f"Objectives:  {now}" not in text


@pytest.mark.parametrize("system_id", known())
def test_the_command_lines_odds_speak_as_the_pack_does(system_id, muster):
    """`muster odds SYSTEM` prints a certainty as 'never' or 'always' and a yes/no cell as 'yes' or 'no', with the
    pack's own formatter: never True, False, '0% (0/1)' or '100% (1/1)'."""
    out = muster("odds", system_id).out
    assert not re.search(r"\b(True|False|None)\b", out), out[:2000]
    assert "(0/1)" not in out and "(1/1)" not in out and not re.search(r"(?<![\d.])(0|100)%", out), out[:2000]
    for table in get(system_id).odds():
        for row in table.rows:
            for column in table.columns:
                if column.kind == "prob":
                    assert rendering.chance_text(row[column.key]) in out


def test_a_yes_no_column_prints_words_on_the_page_and_in_the_terminal(muster):
    """Para Bellum's Order column is yes/no in the terminal and wherever a pack prints it: Column.shown decides."""
    from generator.tables import Column

    assert Column("order", "Order", "text").shown(True) == "yes" and Column("o", "O", "text").shown(False) == "no"
    lines = muster("odds", "para-bellum").out.splitlines()
    assert lines[1].split()[:2] == ["Stress", "Order"] and lines[2].split()[1] == "no" and lines[3].split()[1] == "yes"


BAD = Path(__file__).resolve().parent / "data" / "bad"
# a message may name the scenario's own keys (that is where the problem is) but never the program's insides
MESSAGE_WORDS = PYTHON_WORDS + [
    (r"(?i)\brule data\b", "'rule data' (say the table: the weapon table, the unit types)"),
    (r"\bregistered\b", "'registered'"),
    (r"<(stream|document|block|flow|scalar)[a-z ]*>", "a YAML parser's token name such as <stream end>"),
]


@pytest.mark.parametrize("path", sorted(BAD.rglob("*.yaml")), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_message_for_a_bad_file_speaks_to_its_author(path, muster):
    """Everything `muster validate` prints for each file in tests/data/bad is words the scenario's author reads: no
    None, True, False, Python type or repr, internal id, 'rule data', 'registered' or YAML parser token."""
    result = muster("validate", path)
    assert result.code == 1
    text = result.err.replace(str(path), "FILE")
    found = [
        f"{what}: {m.group(0)!r} in {text[max(0, m.start() - 60) : m.end() + 30]!r}"
        for pattern, what in MESSAGE_WORDS
        for m in [re.search(pattern, text)]
        if m
    ]
    assert not found, "\n".join(found)


def test_a_yaml_syntax_error_reads_in_words(muster, tmp_path):
    """A YAML syntax error names what the author wrote ('the end of the file', 'a key'), not PyYAML's tokens
    ('<stream end>', '<block mapping start>', '?'), and a stray ':' says what to do."""
    cases = {
        "open.yaml": ("title: {a: 1\n", "the end of the file"),
        "colon.yaml": ("title: x\n  bad: 1\n", "a ':' is not allowed here"),
        "list.yaml": ("a:\n  - 1\n  b: 2\n", "found a key"),
        # a line indented less than the lines beside it: it is out of line, not "indented further"
        "short-key.yaml": ("title: T\ngrid:\n  columns: 10\n rows: 8\n", "a key indented out of line"),
        "short-item.yaml": ("s:\n  - name: A\n    units:\n      - x\n     - y\n", "a list indented out of line"),
        "tab.yaml": ("title: T\ngrid:\n\tcolumns: 10\n", "found a tab: YAML is indented with spaces only"),
    }
    for name, (text, words) in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        err = muster("validate", tmp_path / name).err
        assert words in err and "<" not in err and "'?'" not in err and "further" not in err, err
        assert "cannot start any token" not in err, err


def test_the_terminal_deck_says_deck_number_as_the_pack_does(muster):
    """`muster deck` heads its listing with the deck number, the words the cover and card backs use, not 'seed'."""
    for name in ("bridge", "hill-112"):
        first = muster("deck", SCENARIOS / f"{name}.yaml").out.splitlines()[0]
        assert "deck number" in first and "seed" not in first, first


def test_the_booklet_prints_no_programmers_word(example_booklet_on):
    """The booklet of every example (front matter, chapters and one appendix per system) prints none of the words
    a pack may not print."""
    text = " ".join(_text(example_booklet_on("a4")).split())
    patterns = PROGRAMMER_WORDS + PYTHON_WORDS
    found = [
        f"{what}: ...{text[max(0, m.start() - 40) : m.end() + 20]}..."
        for pattern, what in patterns
        for m in [re.search(pattern, text)]
        if m
    ]
    assert not found, "the booklet prints programmers' words:\n" + "\n".join(found)
    # a book has one colophon, by its contents: each appendix closed with "Printed with Muster 0.1.0" (four in all)
    with pdfplumber.open(example_booklet_on("a4")) as pdf:
        pages = [" ".join((page.extract_text() or "").split()) for page in pdf.pages]
    assert [n for n, page in enumerate(pages) if "Printed with Muster" in page] == [1], "one colophon, page 2"


def test_the_example_booklet_says_where_the_cards_its_notes_mention_are(example_booklet_on):
    """A fresh read of the example booklet: the appendices' notes speak of "each unit's card", "its card offers
    those" and "the Retaliator's role marker", and the book prints no card. Where its notes mention cards, the
    example booklet's introduction says they are printed apart, from the same deck number."""
    with pdfplumber.open(example_booklet_on("a4")) as pdf:
        pages = [" ".join((page.extract_text() or "").split()) for page in pdf.pages]
    appendices = " ".join(page for page in pages if "Appendix" in page[:200] or "Notes" in page)
    assert re.search(r"\b(unit's card|its card|role marker)", appendices)
    intro = pages[0].replace("\u2019", "'")
    assert "The cards (unit cards, Fireteam's deck, Para Bellum's action cards and the WarSpike role markers" in intro


def test_sentences_a_second_reader_could_not_parse_read_plainly():
    """Issue 11 (a second fresh read): the roster key said "Firing at tables leave out each friendly within 12" ...
    +1 to the target, at most 3"; the grid odds said "the table above gives every result ... as an exact fraction"
    under a matrix of whole percentages; every cover said "The same deck number always gives the same shuffled
    deck", a programmer's sentence. Each now says what a player does or sees."""
    from generator.build import Options, choose_seed, compute, load, pack_html

    def text(name: str) -> str:
        scenario = load(f"scenarios/{name}.yaml")
        pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
        return " ".join(pack_html(scenario, pack).split())

    bridge, hill = text("bridge"), text("hill-112")
    assert "<b>Not in the Firing at tables</b>, so add it at the table:" in bridge and "at most +3" in bridge
    assert "This matrix rounds to whole percentages" in hill
    for page in (bridge, hill):
        assert "always gives the same shuffled deck" not in page
    assert (
        "This number sets the order the cards come up in, as this pack prints it; the same number always sets the same order."
        in bridge
    )
    # (issue 14: Morschauser's tiles are drawn, not dealt as cards, and its schedule is the umpire's; a later read:
    # "the same number always draws the same tiles" was untrue of a bag, so the number sets the schedule)
    assert "This number sets the umpire’s tile schedule: the same number always prints the same schedule." in hill


@pytest.mark.parametrize(
    "name, covers",
    [("vesta-relay", True), ("warspike-bridge-race", True), ("bridge", False), ("hill-112", False)],
)
def test_a_cover_says_what_a_partial_rule_set_leaves_to_the_players(built, name, covers):
    """Issue 11 (a third fresh read): Para Bellum's and WarSpike's packs print activation and turn sequences only,
    so "every raider unit is destroyed or has fled" could not be played from the paper, and only a note at the
    back said why. Their covers now say what the pack covers and what to play by the group's full rules (the rule
    data's `scope`); Fireteam and Morschauser, whole games, print none."""
    pack, _ = built(name)
    first = " ".join(PdfReader(pack).pages[0].extract_text().split())
    assert ("What these rules cover." in first) is covers
    if covers:
        assert "play those by the full rules your group uses" in first


def test_a_booklet_chapter_says_what_its_rules_cover_not_what_the_book_covers():
    """Issue 11 (a fresh read of the booklet): each Para Bellum and WarSpike chapter's callout read "What this book
    covers" (a pack's "this pack", turned to "this book" in a booklet) over a sentence about one rule system; the
    appendix's lead said "weapons, troops and rules that no chapter fields are here too"."""
    from generator.booklet.parts import in_a_book
    from generator.build import Options, choose_seed, compute, load, pack_html

    scenario = load("scenarios/vesta-relay.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    chapter = in_a_book(pack_html(scenario, pack))
    assert "<b>What these rules cover.</b>" in chapter and "covers." not in chapter
    appendix = (Path(__file__).parents[1] / "templates" / "booklet" / "appendix.html").read_text()
    assert (
        "rules that no chapter fields are here too" not in appendix
        and "those no chapter’s forces use as well" in appendix
    )


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_yes_or_no_column_says_no_where_it_is_not_yes(name):
    """A fresh read of Hill 112's unit types: "Advances after winning" said "yes" for four types and nothing for
    the rest, and a blank reads as unknown. In every table of every pack (the whole reference too) a column that
    says "yes" anywhere says "yes" or "no" in every row."""
    import html as html_lib

    from generator.build import Options, compute, pack_html

    scenario = load(SCENARIOS / f"{name}.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False, whole_reference=True)
    page = pack_html(scenario, pack)
    blanks = []
    for table in re.findall(r"<table\b.*?</table>", page, flags=re.S):
        rows = [
            [
                html_lib.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
                for cell in re.findall(r"<td\b[^>]*>(.*?)</td>", row, re.S)
            ]
            for row in re.findall(r"<tr\b.*?</tr>", re.sub(r"<thead\b.*?</thead>", "", table, flags=re.S), re.S)
        ]
        if "colspan" in table or not rows:
            continue
        for column in range(max(len(row) for row in rows)):
            cells = [row[column] for row in rows if len(row) > column]
            if "yes" in cells:
                blanks += [(name, column, cell) for cell in cells if cell not in ("yes", "no")]
    assert blanks == []


def test_card_and_turn_phrases_a_reader_stumbled_on_read_plainly():
    """Issue 11 (a fresh read of every page): WarSpike's "one a turn" and "never target" (the original rules: the
    last Units "may not target an Unit"), Para Bellum's "Action points for a D6 of 1 · 2–5 · 6" and its mini card's
    "Actions all open"; and Morschauser's "After firing: remove its tile" over a row headed "Tile", read as two
    different tiles. Each now says what the player does, in the pack and on the cards."""
    from generator.build import Options, compute, render_html

    def pages(name: str, card_size: str = "poker") -> str:
        scenario = load(SCENARIOS / f"{name}.yaml")
        pack, sheet = compute(scenario, choose_seed(scenario, None), Options(card_size=card_size))
        return " ".join(" ".join(render_html(scenario, pack, sheet)).split())

    warspike, vesta = pages("warspike-bridge-race"), pages("vesta-relay", "mini")
    for stumble in ("one a turn", "never target", "for a D6 of", "all open"):
        assert stumble not in warspike + vesta, stumble
    assert "but target no one" in warspike and "one per turn" in warspike
    assert 'Action points <span class="pb-faces">by D6 roll: 1 · 2–5 · 6</span>' in vesta
    hill = pages("hill-112")
    assert "remove its tile" not in hill and "After firing: it loses this turn’s tile and may not move." in hill
    # a second read: Morschauser's turn sequence said to draw tiles from a bag beside the pack's tiles drawn in
    # advance, and its cover note read "+2, not +3 ... 7 + 2 + 1 = 10"; WarSpike said the Changeover three ways.
    # (Issue 14: the tiles are the umpire's, face down until the Artillery Fire Phase is over, or drawn from a bag.)
    assert "Draw a playing-card tile from the bag" not in hill
    assert "drawn from a bag, or kept by an umpire on the umpire’s tile schedule" in hill
    assert "7 + 2 + 1" not in hill
    assert "may not target any Unit" not in warspike and "that have not acted may" not in warspike
    # one way, short enough for the Retaliator's mini card: the turn sequence, the rule, the card
    assert warspike.count("target no one") >= 3 and "not target an enemy Unit" not in warspike


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_cover_says_which_variants_it_plays_one_way_in_every_system(name):
    """Issue 11 (a fresh read of the booklet): the variants a game plays showed four ways, a box (Morschauser), a
    dashed box with other words (Para Bellum), a sentence (Weissach) and nothing at all (the Vesta Relay, which
    plays none of Para Bellum's variants). Now one: a box headed "Variant(s) in play" naming each played variant
    with its rule, the sentence where the system has variants and none is played, nothing where it has none."""
    from generator.build import Options, Parts, compute, pack_html

    scenario = load(SCENARIOS / f"{name}.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    cover = " ".join(pack_html(scenario, pack, Parts.of("cover")).split())
    played = yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text(encoding="utf-8")).get("variants") or []
    names = scenario.system.variant_names()
    boxes = re.findall(r'<div class="variants"><b>Variants? in play</b> <ul>(.*?)</ul></div>', cover)
    none_played = "Rules as originally written, with none of the optional variants." in cover
    if played:
        assert len(boxes) == 1 and not none_played
        assert re.findall(r"<li><b>(.*?)</b>: ", boxes[0]) == [markup.curl_quotes(names[v]) for v in played]
    else:
        assert not boxes and none_played is bool(names), (name, names)
    assert "pb-variant" not in cover and "Variant in play:" not in cover
