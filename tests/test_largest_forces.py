"""The largest legal forces print whole: no roster entry split across pages, headers repeated, no text outside its card."""

from __future__ import annotations

import pdfplumber
import pytest
import yaml
from pdfcheck import text_outside_cards

from generator.cards import CARD_SIZES


def fifty_figures(folder):
    """Eight teams (eight players), fifty figures: six fireteams of six and two groups of seven, each figure named."""
    sides = []
    n = 0
    for side_name in ["North", "South"]:
        teams = []
        for t in range(4):
            size = 7 if t == 3 else 6
            figures = [{"role": "leader", "weapon": "Assault rifle", "name": f"F{n}"}]
            n += 1
            for _ in range(size - 1):
                figures.append({"weapon": "Civilian rifle" if t == 3 else "Assault rifle", "name": f"F{n}"})
                n += 1
            team = {"name": f"{side_name} team {t + 1}", "quality": "Poor" if t == 3 else "Good", "figures": figures}
            if t == 3:
                team["group"] = True
            teams.append(team)
        sides.append({"name": side_name, "teams": teams})
    assert n == 50
    data = {
        "title": "Fifty",
        "system": "fireteam-tomorrow",
        "seed": 5,
        "briefing": "Big.",
        "victory": "Last one standing.",
        "passes": 12,
        "sides": sides,
    }
    path = folder / "fifty.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def fifty_two_units(folder, count: int = 52):
    """Fifty-two units (or `count`, an even number) on a 16 x 12 grid, one card tile each from one deck."""
    types = ["infantry", "cavalry", "afv-turreted", "afv", "machine-gun", "anti-tank-gun", "mortar", "field-artillery"]
    sides = []
    for s, (name, facing, cols) in enumerate([("West", "east", "ABCD"), ("East", "west", "MNOP")]):
        units = [
            {
                "type": types[i % len(types)],
                "at": f"{cols[i // 13]}{i % 13 + 1 if i % 13 < 12 else 12}",
                "facing": facing,
                "name": f"{name} unit {i + 1}",
            }
            for i in range(count // 2)
        ]
        # unique squares: four columns x twelve rows hold 48, so put the last two further in
        seen = set()
        for i, unit in enumerate(units):
            while unit["at"] in seen:
                unit["at"] = f"{'EL'[s]}{len(seen) % 12 + 1}"
                if unit["at"] in seen:
                    unit["at"] = f"{'FK'[s]}{i % 12 + 1}"
            seen.add(unit["at"])
        sides.append({"name": name, "units": units})
    data = {
        "title": "Fifty-two",
        "system": "morschauser-modern",
        "seed": 52,
        "briefing": "Everything.",
        "victory": "Hold.",
        "grid": {"columns": 16, "rows": 12},
        "turns": 8,
        "sides": sides,
    }
    path = folder / ("fifty-two.yaml" if count == 52 else f"units-{count}.yaml")
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@pytest.fixture(scope="module")
def largest(tmp_path_factory):
    from generator.cli import main

    folder = tmp_path_factory.mktemp("largest")
    built = {}
    for make in (fifty_figures, fifty_two_units):
        path = make(folder)
        assert main(["validate", str(path)]) == 0
        assert main(["build", str(path), "--out", str(folder / "out")]) == 0
        built[path.stem] = (
            folder / "out" / path.stem / f"{path.stem}.pdf",
            folder / "out" / path.stem / f"{path.stem}-cards.pdf",
        )
    return built


def test_no_fireteam_roster_entry_splits_across_pages(largest):
    """Every team's figures, all seven of a group included, sit on one page with their team's heading."""
    import re

    pack, _ = largest["fifty"]
    with pdfplumber.open(pack) as pdf:
        pages = [page.extract_text() for page in pdf.pages]
    n = 0
    for side in ("North", "South"):
        for t in range(4):
            size = 7 if t == 3 else 6
            names = [f"F{n + i}" for i in range(size)]
            n += size
            holders = [i for i, text in enumerate(pages) if re.search(rf"\b{names[0]}\b", text)]
            assert len(holders) == 1, names[0]
            page = pages[holders[0]]
            assert f"{side} team {t + 1}" in page
            for name in names:
                assert re.search(rf"\b{name}\b", page), (side, t, name)


def test_long_tables_keep_their_header_on_every_page(largest):
    """Every page that holds roster or schedule rows of the 52-unit game also holds that table's header row; and
    every page of the umpire's schedule holds rows (its first, a block of 52 rows kept whole, held only the lead)."""
    import re

    pack, _ = largest["fifty-two"]
    with pdfplumber.open(pack) as pdf:
        texts = [page.extract_text() for page in pdf.pages]
    roster = [t for t in texts if re.search(r"^(West|East) unit \d+\b", t, flags=re.M)]
    schedule = [t for t in texts if re.search(r"^\d+ [AJQK0-9]+[♥♣♦♠] ", t, flags=re.M)]
    assert roster and schedule
    assert len(schedule) == len([t for t in texts if "Umpire’s tile schedule" in t])
    for text in roster:
        assert "Code Unit Start" in text
    for text in schedule:
        assert re.search(r"# Turn \d+", text)


@pytest.mark.parametrize("name", ["fifty", "fifty-two"])
def test_no_card_text_escapes_its_card(largest, name):
    """Every character on a card sheet lies inside a card (nothing spills past a card's edge)."""
    _, cards = largest[name]
    assert text_outside_cards(cards, CARD_SIZES["poker"]) == []


def test_grid_roster_lists_all_fifty_two_units_whole(largest):
    """All 52 units appear in the grid game's pack, each named once in the roster."""
    pack, _ = largest["fifty-two"]
    with pdfplumber.open(pack) as pdf:
        text = "\n".join(page.extract_text() for page in pdf.pages)
    for side in ("West", "East"):
        for i in range(1, 27):
            assert f"{side} unit {i}" in text


def test_pack_metadata_language_bookmarks_and_tags(built):
    """A pack carries title, author, subject, language, bookmarks for its parts and a structure tree."""
    from pypdf import PdfReader

    pack, _ = built("bridge")
    reader = PdfReader(pack)
    meta = reader.metadata
    assert meta.title == "The Bridge at Kessel Ford"
    assert meta.author == "Muster example scenarios"
    assert "Fireteam Tomorrow" in meta.subject
    root = reader.trailer["/Root"]
    assert root["/Lang"] == "en"
    assert "/StructTreeRoot" in root and root["/MarkInfo"]["/Marked"]
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    for part in ("Cover", "The table", "Forces", "Deck run-sheet", "Odds", "Quick reference"):
        assert part in titles


def test_a_card_size_a_system_cannot_hold_is_refused(muster, tmp_path, monkeypatch):
    """No system refuses a size today (Para Bellum fits all three); the refusal still works for one that would:
    a usage error naming the sizes, and nothing written."""
    from generator.systems import get

    system = get("para-bellum")
    monkeypatch.setattr(type(system), "card_sizes", ("poker", "tarot"))
    result = muster("build", "scenarios/vesta-relay.yaml", "--out", tmp_path, "--cards", "mini")
    assert result.code == 2
    assert "Para Bellum cards come in poker or tarot size, not mini" in result.err
    assert not (tmp_path / "vesta-relay").exists()


def _schedule_rows(pdf_path) -> list[list[float]]:
    """Per page of the umpire's tile schedule, the top of each row's number (its "#"), in mm from the page's top."""
    import re

    pages = []
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            if "Umpire’s tile schedule" not in (page.extract_text() or ""):
                continue
            words = page.extract_words()
            pages.append(
                [w["top"] * 25.4 / 72 for w in words if w["x0"] * 25.4 / 72 < 20 and re.fullmatch(r"\d+", w["text"])]
            )
    return pages


def test_the_schedules_row_height_is_the_one_its_page_breaks_are_worked_out_with(largest):
    """Whether a block of the umpire's schedule is kept whole is worked out from its height in rows; the rows'
    pitch read back from the PDF is the height that reckoning uses."""
    from generator.systems.morschauser.pack import SCHEDULE_ROW_MM

    pack, _ = largest["fifty-two"]
    pitches = [b - a for rows in _schedule_rows(pack) for a, b in zip(rows, rows[1:]) if 0 < b - a < 6]
    assert len(pitches) > 100
    assert all(abs(p - SCHEDULE_ROW_MM) < 0.05 for p in pitches), sorted(set(round(p, 2) for p in pitches))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_schedule_block_over_half_a_page_flows_on_instead_of_leaving_a_gap(tmp_path, paper):
    """The schedule kept a block of up to 30 units whole, a fixed count: 30 units' block, 142 mm tall, was pushed
    whole onto the next page, leaving a third of a page empty above it. A block taller than half the page's text
    area now flows on, measured against the paper it prints on: every schedule page but the last is filled to
    within a few rows of its foot."""
    from generator.build import PAGE_MARGIN_MM, PAPER_MM
    from generator.cli import main
    from generator.systems.morschauser.pack import SCHEDULE_ROW_MM

    path = fifty_two_units(tmp_path, 30)
    assert main(["build", str(path), "--out", str(tmp_path / "out"), "--paper", paper]) == 0
    rows = _schedule_rows(tmp_path / "out" / path.stem / f"{path.stem}.pdf")
    foot = PAPER_MM[paper][1] - PAGE_MARGIN_MM[2]
    assert len(rows) > 1
    for page in rows[:-1]:
        assert foot - max(page) < 6 * SCHEDULE_ROW_MM, (paper, foot - max(page))
