"""Problem messages say whole things: a missing key's hint is its description's first sentence, not its first
full stop (which cut 'The season or campaign, e.g. Autumn 2026.' to '(the season or campaign, e)')."""

from __future__ import annotations

import re

import pytest
from conftest import SCENARIOS

from generator.loading import load_text
from generator.schema import Checker, Key, Record, Str, first_sentence


def test_a_missing_keys_hint_is_its_first_sentence_whole():
    spec = Record([Key("season", Str(), "The season or campaign, e.g. Autumn 2026. Printed on the cover.")])
    doc = load_text("club: x\n", "club.yaml")
    checker = Checker(doc)
    spec.check({}, (), checker)
    (problem,) = checker.problems
    # only its first letter is lowered: 'Autumn', like a rule's 'Move!', keeps its capital
    assert "missing key 'season' (the season or campaign, e.g. Autumn 2026)" in problem.message


def test_first_sentence_keeps_abbreviations_and_decimals():
    assert first_sentence("Range, i.e. how far. More.") == "Range, i.e. how far"
    assert first_sentence("Move 1.5 squares. More.") == "Move 1.5 squares"
    assert first_sentence("No full stop at all") == "No full stop at all"


def test_only_a_command_that_writes_says_nothing_was_written(muster, tmp_path):
    """`muster validate` never writes, so its last line does not tell a player that nothing was written."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: Bad\nsystem: fireteam-tomorrow\n", encoding="utf-8")
    checked = muster("validate", bad)
    assert checked.code == 1 and checked.err.splitlines()[-1].startswith("muster: ")
    assert "nothing was written" not in checked.err
    built = muster("build", bad, "--out", tmp_path / "out")
    assert built.code == 1 and built.err.splitlines()[-1].endswith("; nothing was written")


def test_a_file_with_a_wrong_key_says_the_cross_checks_are_still_to_run(muster, tmp_path):
    """Issue 12 (found after the red-team round): an unknown unit type and a square off the grid in one file
    reported only the unit type, while README promised every problem; the grid check needs every value of the
    right kind first. The file's problems are now followed by one line saying so, not counted as a problem; and
    once the type is fixed, the square is reported."""
    path, text = _hill_with(
        tmp_path,
        ("{type: infantry, at: C7,", "{type: infantri, at: C7,"),
        ("{type: infantry, at: E7,", "{type: infantry, at: Z99,"),
    )
    first = muster("validate", path)
    lines = first.err.splitlines()
    assert first.code == 1 and "(got 'infantri')" in lines[0]
    assert lines[1] == f"{path}: the checks that compare one key with another (names that refer to each other, " + (
        "sizes and limits, places on the table) run once the problems above are fixed"
    )
    assert lines[2:] == ["muster: 1 problem"]
    path.write_text(text.replace("infantri", "infantry"), encoding="utf-8")
    second = muster("validate", path)
    assert second.code == 1 and "square Z99 is off the 12 x 10 grid" in second.err
    assert "checks that compare one key" not in second.err


def test_a_refused_picture_and_a_square_off_the_grid_are_both_reported(muster, tmp_path):
    """Issue 12: prose problems (a picture outside the folder) leave every key of the right kind, so the
    cross-checks run beside them and the square off the grid is reported in the same listing, with no notice."""
    path, _ = _hill_with(
        tmp_path,
        ("{type: infantry, at: E7,", "{type: infantry, at: Z99,"),
        ("briefing: |\n", "briefing: |\n  ![the hill](../hill.png)\n"),
    )
    result = muster("validate", path)
    assert result.code == 1
    assert "picture '../hill.png' refuse" in result.err and "square Z99 is off the 12 x 10 grid" in result.err
    assert "checks that compare one key" not in result.err and result.err.endswith("muster: 2 problems\n")


def _hill_with(tmp_path, *edits: tuple[str, str]):
    """hill-112.yaml with each (old, new) edit made once, written to tmp_path: its path and its text."""
    from conftest import SCENARIOS

    text = (SCENARIOS / "hill-112.yaml").read_text(encoding="utf-8")
    for old, new in edits:
        text = text.replace(old, new, 1)
    path = tmp_path / "hill.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text


def test_a_list_of_the_wrong_length_says_how_many_it_holds(muster, tmp_path):
    """A new user's trial: `deployment: [0, 12, 12]` was told "expected [x, y, width, depth], 4 numbers ... (got a
    list)": it is a list, of three. The message says how many entries the list holds."""
    text = (SCENARIOS / "bridge.yaml").read_text(encoding="utf-8")
    path = tmp_path / "short.yaml"
    path.write_text(text.replace("deployment: [48, 0, 24, 10]", "deployment: [48, 0, 24]"), encoding="utf-8")
    result = muster("validate", path)
    assert result.code == 1
    assert "expected [x, y, width, depth], 4 numbers from 0 to 480 (got a list of 3 entries)" in result.err


def test_a_key_written_with_no_value_is_named_at_the_key(muster, tmp_path):
    """A new user's trial: an empty `name:` was told "missing key 'name' (...)" at the team's line, as if the key
    were not there. A required key written with no value is refused at the key itself, saying what it wants."""
    text = (SCENARIOS / "bridge.yaml").read_text(encoding="utf-8")
    path = tmp_path / "empty.yaml"
    path.write_text(text.replace("      - name: Ranger Alpha\n", "      - name:\n"), encoding="utf-8")
    result = muster("validate", path)
    assert result.code == 1
    line = next(n for n, row in enumerate(path.read_text().splitlines(), 1) if row == "      - name:")
    assert re.search(rf"{re.escape(str(path))}:{line}:\d+: sides\[0\]\.teams\[0\]\.name: expected ", result.err)
    assert "(got nothing)" in result.err and "missing key 'name'" not in result.err


def test_a_stray_argument_is_named_with_its_commands_usage(muster):
    """Issue 11 (a new user): `muster deck a.yaml b.yaml` printed the top-level usage, which names no command's
    arguments; the stray argument is now said under the command's own usage."""
    result = muster("deck", SCENARIOS / "bridge.yaml", SCENARIOS / "hill-112.yaml")
    assert result.code == 2
    assert "usage: muster deck" in result.err
    assert "muster deck: error: unrecognized arguments:" in result.err and "hill-112.yaml" in result.err


@pytest.mark.parametrize("command", ["build", "validate", "odds", "deck", "booklet", "systems", "schema", "calibrate"])
def test_every_argument_of_every_command_says_what_it_is(muster, command):
    """Issue 11 (a new user): `muster odds --help` listed --json and the system with no word of what they are."""
    result = muster(command, "--help")
    assert result.code == 0
    lines = result.out.split("positional arguments:", 1)[-1].splitlines() + [""]
    # an argument's line: two spaces in; its help follows on that line after two spaces more, or on the next, deeper
    bare = [
        line.strip()
        for line, after in zip(lines, lines[1:])
        if re.fullmatch(r"  [^ ].*", line) and "  " not in line.strip() and not after.startswith("    ")
    ]
    assert bare == [], bare


def test_a_back_offset_that_is_no_number_is_refused_as_such(muster, tmp_path):
    """Issue 11 (a new user): `--back-offset nan,0` was told "at most 10 mm each way", as if it were a number."""
    result = muster("build", SCENARIOS / "bridge.yaml", "--back-offset", "nan,0", "--out", tmp_path)
    assert result.code == 2 and "expected X,Y in mm such as 0.5,-1 (got 'nan,0')" in result.err
    assert not any(tmp_path.iterdir())


def test_validate_reads_a_booklets_config_as_one(muster, tmp_path):
    """Issue 11 (a new user): `muster validate booklets/club.yaml` said "missing key 'system'". A file with a config's
    own keys and no system is checked as a booklet's config: the example is valid; a bad one is told at line:col."""
    result = muster("validate", SCENARIOS.parent / "booklets" / "club.yaml")
    assert (result.code, result.out.strip()) == (0, "1 file valid"), result.err
    bad = tmp_path / "club.yaml"
    bad.write_text("club: Kessel\nseason: Autumn\nchapters: [a.yaml, a.yaml]\nlogo: crest.png\n", encoding="utf-8")
    result = muster("validate", bad)
    assert result.code == 1
    assert f"{bad}:3:20: chapters[1]: 'a.yaml' is named twice" in result.err
    assert f"{bad}:4:7: logo: picture not found: crest.png" in result.err
    assert "system" not in result.err


def test_a_key_or_file_name_holding_a_line_break_or_an_escape_cannot_forge_a_line(muster, tmp_path):
    """Issue 12 (red team): a key holding a line break printed raw, forging a problem line of another file, and a
    terminal escape in a key reached the terminal; a folder name holding a line break printed raw in "cannot
    make the folder" and in the list of written files. Every such character is now written as its escape."""
    scenario = tmp_path / "keys.yaml"
    scenario.write_text(
        'title: T\nsystem: fireteam-tomorrow\n"x\\nother.yaml:1:1: forged": 1\n"\\e[2Jcleared": 2\n', encoding="utf-8"
    )
    result = muster("validate", scenario)
    assert result.code == 1
    assert "\x1b" not in result.err
    assert all(line.startswith((str(scenario), "muster: ")) for line in result.err.splitlines()), result.err
    assert "x\\nother.yaml:1:1: forged" in result.err and "\\x1b[2Jcleared" in result.err

    blocked = tmp_path / "a\nb"
    blocked.write_text("a file where the folder would go", encoding="utf-8")
    result = muster("build", SCENARIOS / "bridge.yaml", "--out", blocked)
    assert result.code == 1 and len(result.err.strip().splitlines()) == 1, result.err
    assert "a\\nb" in result.err

    result = muster("build", SCENARIOS / "bridge.yaml", "--out", tmp_path / "c\nd")
    assert result.code == 0, result.err
    assert [line for line in result.out.splitlines() if line] == [
        repr(str(tmp_path / "c\nd" / "bridge" / name))
        for name in ("bridge.pdf", "bridge-cards.pdf", "bridge-counters.pdf")
    ]


def test_the_notices_of_files_whose_problems_were_all_cut_are_cut_with_them(muster, tmp_path):
    """Issue 12 (red team): each file's notice ("the checks across keys ... run once the problems above are
    fixed") printed whatever the 100-problem cut: 150 bad files printed 252 lines. A notice prints after its
    file's problems when any of them was shown, and goes with them when none was."""
    files = []
    for n in range(150):
        path = tmp_path / f"bad{n:03}.yaml"
        path.write_text("title: T\nsystem: fireteam-tomorrow\nbogus: 1\n", encoding="utf-8")
        files.append(path)
    result = muster("validate", *files)
    lines = result.err.splitlines()
    assert result.code == 1
    problems = [line for line in lines if ": bogus: " in line or "unknown key" in line]
    shown_files = {line.split(":", 1)[0] for line in problems}
    notices = [line for line in lines if "run once the problems above are fixed" in line]
    assert len(notices) == len(shown_files) and {line.split(":", 1)[0] for line in notices} == shown_files
    assert len(lines) <= 100 + len(shown_files) + 2, len(lines)


def test_a_misspelt_required_key_is_one_problem_at_the_misspelling(muster, tmp_path):
    """A new user's trial: `movment: 6` in a Para Bellum unit was two problems, the unknown key and a 'missing key
    movement' at the unit's first line; and the hint of a missing key printed the rules' names in lower case
    ('move! and charge! go this far'), and its closing note spoke of 'squares on the grid' to a game with none."""
    text = (SCENARIOS / "vesta-relay.yaml").read_text(encoding="utf-8")
    typo = tmp_path / "typo.yaml"
    typo.write_text(text.replace("        movement: 6\n", "        movment: 6\n", 1), encoding="utf-8")
    result = muster("validate", typo)
    assert result.code == 1 and "Traceback" not in result.err
    line = next(n for n, row in enumerate(typo.read_text().splitlines(), 1) if row == "        movment: 6")
    assert f"{typo}:{line}:9: " in result.err and "did you mean 'movement'?" in result.err
    assert "missing key 'movement'" not in result.err and "1 problem" in result.err
    assert "grid" not in result.err
    gone = tmp_path / "gone.yaml"
    gone.write_text(text.replace("        movement: 6\n", "", 1), encoding="utf-8")
    result = muster("validate", gone)
    assert result.code == 1
    assert "missing key 'movement' (movement Value in inches: Move! and Charge! go this far, Run! twice" in result.err
