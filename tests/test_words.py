"""Words for players, not programmers (issue 11): what every example pack and card sheet prints, read back."""

from __future__ import annotations

import re
from fractions import Fraction

import pdfplumber
import pytest
from conftest import SCENARIOS, examples_by_system

from generator import markup, rendering
from generator.build import choose_seed, load
from generator.systems import get, known
from generator.systems.base import collect_notes

EXAMPLES = [name for names in examples_by_system().values() for name in names]
# text under this size must be near black: #555 and lighter grey is too faint to read at arm's length
SMALL_POINTS = 7.45
DARKEST_FAINT_GREY = 0.3  # 0 black, 1 white: #4d4d4d


def _text(pdf_path) -> str:
    with pdfplumber.open(pdf_path) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


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


def test_a_two_row_coin_table_is_a_sentence(built):
    """WarSpike's coin toss prints as one sentence, not a two-row table with a header."""
    name = examples_by_system()["warspike"][0]
    text = " ".join(_text(built(name)[0]).split())
    assert "The coin toss (who may choose to be Instigator). Heads: 50.0% (1/2); Tails: 50.0% (1/2)." in text
    assert "The coin shows" not in text


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_small_text_is_faint_grey(name, built):
    """Text under 7.5 pt that a player must read is near black, never #555 or lighter grey."""
    for pdf_path in built(name):
        with pdfplumber.open(pdf_path) as pdf:
            for number, page in enumerate(pdf.pages, 1):
                faint = set()
                for char in page.chars:
                    colour = char.get("non_stroking_color") or ()
                    if char["size"] >= SMALL_POINTS or not char["text"].strip() or len(colour) not in (1, 3):
                        continue
                    grey = colour[0] if len(colour) == 1 else sum(colour) / 3
                    if max(colour) - min(colour) < 0.02 and DARKEST_FAINT_GREY < grey < 0.75:
                        faint.add((round(char["size"], 1), round(grey, 2), char["text"]))
                assert not faint, f"{pdf_path.name} p.{number}: faint small text {sorted(faint)[:12]}"


@pytest.mark.parametrize("system_id", known())
def test_note_headings_are_capitalised_and_unique(system_id):
    """Every reference note's heading starts with a capital, is not a bare key, and no heading repeats."""
    headings = [note["rule"] for note in get(system_id).reference()["notes"]]
    assert all(h[0].isupper() and "_" not in h for h in headings), headings
    assert len(headings) == len(set(headings)), headings


@pytest.mark.parametrize("system_id", known())
def test_notes_speak_of_the_original_rules_without_keys_or_commands(system_id):
    """Notes say 'the original rules', never 'the seed', and print no backticked key or command line."""
    for note in get(system_id).reference()["notes"]:
        assert "`" not in note["note"] and "muster " not in note["note"], note
        assert not re.search(r"\bseed\b", note["note"], flags=re.IGNORECASE), note


def test_notes_under_one_heading_merge_and_bare_keys_read_as_words():
    """Two notes under one key print once, joined; a bare key becomes a capitalised word."""
    data = {
        "hth": {"bands": [{"id": "a", "note": "First."}, {"id": "b", "note": "Second."}]},
        "hq_units": {"note": "X."},
    }
    assert collect_notes(data) == [{"rule": "Bands", "note": "First. Second."}, {"rule": "Hq units", "note": "X."}]


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
