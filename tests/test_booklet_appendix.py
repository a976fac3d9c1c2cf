"""A rule system's booklet appendix: built from its examples' packs by asking for parts (build.Parts), its title
on its first page, what every variant set prints alike printed once, and the variants' names in its headings."""

from __future__ import annotations

import io

import pdfplumber
import pytest
from conftest import SCENARIOS

from generator.build import APPENDIX, Options, Parts, choose_seed, compute, load, pack_html, pieces

# Morschauser's two examples: the rules as written (weissach-bridge) and two variants (hill-112) that change
# where artillery lands but not the battles
MORSCHAUSER = ["weissach-bridge", "hill-112"]


@pytest.fixture(scope="module")
def appendix_pages() -> list[str]:
    """The text of each page of the Morschauser appendix, rendered as a booklet renders it (alone, before the
    booklet stamps its running heads)."""
    from generator.booklet.parts import _render_part
    from generator.booklet.plan import plan_parts

    parts = plan_parts([str(SCENARIOS / f"{name}.yaml") for name in MORSCHAUSER])
    (appendix,) = [part for part in parts if part.kind == APPENDIX]
    sets = [(names, path, appendix.played_in[names]) for names, path in appendix.variant_sets]
    data, *_ = _render_part((sets, APPENDIX, appendix.label, Options(), appendix.inputs))
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def test_the_appendix_prints_its_title_first_on_its_first_page(appendix_pages):
    """The appendix's first page opens with its title (it opened with a variant set's heading, titled only by
    the running head)."""
    assert appendix_pages[0].splitlines()[0] == "Appendix A: Morschauser Modern"


def test_tables_every_variant_set_prints_alike_print_once(appendix_pages):
    """The battle tables, the same under both variant sets, print once; the artillery table, which clock-face
    scatter changes, prints once per variant set (the battle tables printed in both sets' sections)."""
    text = "\n".join(appendix_pages)
    assert text.count("Battles by Battle Power after modifiers") == 1
    assert text.count("Battles: attacker") == 1
    assert text.count("Artillery: where a shot lands") == 2
    assert "(Original scatter)" in text and "(Clock-face scatter)" in text  # each scheme by its name


def test_variant_sections_are_headed_with_the_variants_names(appendix_pages):
    """A variant set's heading and list name its variants as the rule data names them, not by their ids."""
    text = " ".join(" ".join(appendix_pages).split())
    assert "Morschauser Modern: With Clock-face scatter and Woods cost movement" in text
    assert "clock-face-scatter" not in text and "woods-cost-movement" not in text


@pytest.fixture(scope="module")
def hill_112():
    scenario = load(SCENARIOS / "hill-112.yaml")
    pack, _ = compute(scenario, choose_seed(scenario, None), Options(), with_cards=False)
    return scenario, pack


def test_a_pack_prints_the_parts_and_pieces_asked_for(hill_112):
    """Parts names the parts a pack prints, and the pieces of a part its template marks: the odds alone, then
    only the artillery piece of the odds, with the part's heading."""
    scenario, pack = hill_112
    assert pieces(scenario.system) == {
        "odds": ("battles", "artillery"),
        "reference": ("rules", "scatter", "movement", "types", "notes"),
    }
    odds = pack_html(scenario, pack, Parts.of("odds"))
    assert 'id="odds"' in odds and 'id="forces"' not in odds and 'id="reference"' not in odds
    assert 'id="odds-battle_by_difference"' in odds and 'id="odds-artillery"' in odds
    artillery = pack_html(scenario, pack, Parts.of(odds=["artillery"]))
    assert '<h2 class="part">Odds</h2>' in artillery and 'id="odds-artillery"' in artillery
    assert 'id="odds-battle_by_difference"' not in artillery
    whole = pack_html(scenario, pack)
    assert all(f'id="{part}"' in whole for part in ("map", "forces", "schedule", "odds", "reference"))
    chapter = pack_html(scenario, pack, Parts.chapter(scenario.system), booklet=True)
    assert 'id="forces"' in chapter and 'id="odds"' not in chapter and 'id="reference"' not in chapter


def test_each_variant_sets_section_names_the_chapters_that_play_it(appendix_pages):
    """Issue 11 (a fresh read of the booklet): the appendix printed a section for the rules as written and one for
    clock-face scatter with woods cost, and nothing told the reader that Weissach plays the first and Hill 112
    the second. Each section says which chapters play it."""
    # the extracted text may lose the space between the bold lead and the italic title
    text = " ".join(" ".join(page.split()) for page in appendix_pages).replace("Played in:", "Played in: ")
    text = " ".join(text.split())
    assert "the rules as originally written. Played in: The Bridge at Weissach." in text
    assert "Played in: Hill 112." in text
    assert text.index("Played in: The Bridge at Weissach.") < text.index("Played in: Hill 112.")


def test_a_variant_sections_heading_stays_with_its_first_table_and_the_shared_parts_say_so(appendix_pages):
    """Issue 11 (a fresh read of the booklet's Appendix B): "Morschauser Modern: Rules as written" and its
    "Played in" line stood at the foot of a page with its first table overleaf, and the quick reference every
    chapter shares followed the last variant section's own under a bare "Quick reference", so a reader took the
    wrong woods cost. A section's heading, list and "Played in" line go over with its first part, and the parts
    after the sections open under a kicker, "Morschauser Modern · every chapter", over the first one's heading (a
    heading of its own stood bare over "Quick reference", two headings stacked)."""
    for page in appendix_pages:
        text = " ".join(page.split()).replace("Played in:", "Played in: ")
        for start in (i for i in range(len(text)) if text.startswith("Played in:", i)):
            assert "Artillery: where a shot lands" in text[start:], page  # its first table on the same page
    text = " ".join(" ".join(appendix_pages).split()).replace("Played in:", "Played in: ")
    last_section = text.rindex("Played in: Hill 112.")
    shared = text.index("Morschauser Modern · every chapter, whatever its variants Quick reference")
    assert last_section < shared < text.rindex("Quick reference")
    assert "variant sets differ" not in text  # the section says what it holds in a reader's words


def test_the_appendix_says_it_holds_the_whole_rule_set(appendix_pages):
    """Issue 11 (a fresh read of the booklet): Appendix A printed the mortar, grenade launcher, Hero and hovercraft
    rules no Fireteam chapter fields, and a reader took them for another system's. The appendix serves every
    chapter of its system and the next a club writes, so it keeps them, and says so under its title."""
    first = " ".join(appendix_pages[0].split())
    assert first.startswith(
        "Appendix A: Morschauser Modern The whole of Morschauser Modern as this book plays it, for every Morschauser "
        "Modern chapter here and any the club writes next"
    )


def test_the_parts_every_chapter_shares_rank_under_their_kicker_in_the_bookmarks(example_booklet_on):
    """Issue 11 (a fresh read of the booklet's outline): "Morschauser Modern: every chapter" and "Para Bellum: every
    chapter" were bookmarks with nothing under them, the shared "Quick reference" and "Action plans" beside them
    at their rank. In the example booklet every such entry holds the parts after it, the quick reference among
    them."""
    from pypdf import PdfReader

    reader = PdfReader(example_booklet_on("a4"))
    kickers = []

    def walk(entries) -> None:
        for index, entry in enumerate(entries):
            if isinstance(entry, list):
                walk(entry)
            elif entry.title.endswith(": every chapter"):
                after = entries[index + 1] if index + 1 < len(entries) else None
                kickers.append(
                    (
                        entry.title,
                        [e.title for e in after if not isinstance(e, list)] if isinstance(after, list) else [],
                    )
                )

    walk(reader.outline)
    assert {title for title, _ in kickers} == {"Morschauser Modern: every chapter", "Para Bellum: every chapter"}
    assert [title for title, under in kickers if "Quick reference" not in under] == []


def test_the_appendix_prints_no_note_of_a_variant_no_chapter_plays(appendix_pages):
    """A fresh read of the example booklet: the Morschauser appendix's notes printed "Pass through stationary
    friends" as if it were a rule (beside "units are not allowed to 'pass through' friendly units") and two notes on
    Centric scatter, though no chapter plays either. Its chapters play Clock-face scatter and Woods cost movement:
    their notes print, no other variant's, and not the note on playing the two scatters together."""
    text = " ".join(appendix_pages)
    assert "Woods cost movement. In the original rules woods block sight" in " ".join(text.split())
    for absent in ("Pass through stationary friends", "Centric scatter", "Cavalry move 3"):
        assert absent not in text, absent
