"""Every bad file under tests/data/bad/ gets its clear message at file:line:col, exit 1, and nothing written.

Each file holds one problem and starts with a comment naming the message fragment it must produce:
    # expect: a fireteam has 3 to 6 figures, found 7
Add a file to add a case; the file's name says the problem (team_of_seven.yaml).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import DATA, SCENARIOS, files_under

BAD = sorted((DATA / "bad").rglob("*.yaml"))


def expectation(path: Path) -> str:
    first = path.read_bytes().split(b"\n", 1)[0].decode("utf-8", "replace")
    match = re.match(r"#\s*expect:\s*(.+)", first)
    assert match, f"{path.name} must start with '# expect: <message fragment>'"
    return match.group(1).strip()


@pytest.mark.parametrize("path", BAD, ids=[str(p.relative_to(DATA / "bad")) for p in BAD])
def test_bad_file_is_refused_with_its_message_and_nothing_written(path, muster, tmp_path):
    """validate and build both refuse the file, name the spot, and build writes nothing."""
    want = expectation(path)
    checked = muster("validate", path)
    assert checked.code == 1, checked.err
    assert want in checked.err, checked.err
    assert "Traceback" not in checked.err
    # the problem line names the file, a line and a column
    line = next(text for text in checked.err.splitlines() if want in text)
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: ", line), line
    out = tmp_path / "out"
    built = muster("build", path, "--out", out)
    assert built.code == 1
    assert want in built.err
    assert not out.exists() or files_under(out) == []


def test_every_example_scenario_validates_clean(muster):
    """Good input yields no problems and no warnings at all."""
    result = muster("validate", *sorted((Path(__file__).parent.parent / "scenarios").glob("*.yaml")))
    assert result.code == 0, result.err
    assert result.err == ""


@pytest.mark.parametrize(
    ("scenario", "most", "word"),
    [("scenarios/bridge.yaml", 40, "passes"), ("scenarios/weissach-bridge.yaml", 20, "turns")],
)
def test_deck_passes_held_to_the_systems_own_bound(muster, scenario, most, word):
    """`muster deck --passes` draws no more than a scenario may set for its own game: the same bound, said in the
    system's word, a usage error beyond it."""
    assert muster("deck", scenario, "--json", "--passes", str(most)).code == 0
    beyond = muster("deck", scenario, "--passes", str(most + 1))
    assert beyond.code == 2
    assert f"plays 1 to {most} {word}" in beyond.err
    assert "Traceback" not in beyond.err
    # a new user's trial: --passes 0 said "from 1 to 1000", --passes 41 "1 to 40": one bound, said once
    none = muster("deck", scenario, "--passes", "0")
    assert none.code == 2 and "--passes 0: " in none.err and f"plays 1 to {most} {word}" in none.err


def test_a_booklet_given_one_scenario_twice_is_a_usage_error(muster, tmp_path):
    """A new user's trial: the same file given twice printed its chapter twice (and, with a config, blamed the
    config's chapter list): it is refused before anything renders, naming both spellings, exit 2."""
    out = tmp_path / "b.pdf"
    result = muster("booklet", "scenarios/bridge.yaml", "./scenarios/bridge.yaml", "--out", out)
    assert result.code == 2, result.err
    assert "./scenarios/bridge.yaml is given twice (as scenarios/bridge.yaml): each scenario prints once" in result.err
    assert not out.exists()


@pytest.mark.parametrize("command", [["booklet", "scenarios/bridge.yaml"], ["calibrate"]])
def test_an_out_that_is_a_folder_or_empty_is_a_usage_error_before_rendering(command, muster, tmp_path):
    """A new user's trial: `--out output` (a folder) failed after every chapter rendered, naming a hidden temporary
    file ('cannot write .../.output.j17gzzvs.part: Is a directory', exit 1); `--out ''` named another. Both are
    usage errors up front, saying what to give."""
    folder = tmp_path / "output"
    folder.mkdir()
    result = muster(*command, "--out", folder)
    assert result.code == 2, result.err
    assert f"--out {folder} is a folder: give the" in result.err and ".part" not in result.err
    assert files_under(folder) == []
    empty = muster(*command, "--out", "")
    assert empty.code == 2 and "--out is empty: give the" in empty.err, empty.err


@pytest.mark.parametrize("name", ["...yaml", "..yaml", ".hidden.yaml"])
def test_a_file_whose_name_starts_with_a_dot_cannot_name_its_output_folder(name, muster, tmp_path):
    """Issue 12 (red team): a scenario file named '...yaml' (its name before .yaml is '..') wrote its pack and cards
    into the folder above --out, and '..yaml' wrote hidden files into --out. Refused before anything renders."""
    scenario = tmp_path / "in" / name
    scenario.parent.mkdir()
    scenario.write_bytes((SCENARIOS / "bridge.yaml").read_bytes())
    out = tmp_path / "out" / "here"
    result = muster("build", scenario, "--out", out)
    assert result.code == 2
    assert "a file name that starts with a dot cannot name its output folder" in result.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]  # no out folder, nothing beside it


@pytest.mark.parametrize("name", ["keep.yaml", "fifo.pdf", "link.pdf", "-"])
def test_a_booklet_out_that_a_pdf_must_not_replace_is_a_usage_error(name, muster, tmp_path):
    """Issue 12 (second red-team pass): `booklet --out keep.yaml` replaced a scenario with the PDF, and a FIFO, a
    symlink (to /dev/stdout) or a device at --out was replaced too. --out must end in .pdf and, if something is
    there, be a regular file; else a usage error before anything renders, and what was there is left alone."""
    import os

    target = tmp_path / name
    if name == "keep.yaml":
        target.write_text("title: Keep me\n", encoding="utf-8")
    elif name == "fifo.pdf":
        os.mkfifo(target)
    elif name == "link.pdf":
        target.symlink_to(tmp_path / "elsewhere.pdf")
    result = muster("booklet", SCENARIOS / "bridge.yaml", "--out", target)
    assert result.code == 2, result.err
    assert "--out" in result.err and "Traceback" not in result.err
    if name == "keep.yaml":
        assert target.read_text(encoding="utf-8") == "title: Keep me\n"
    assert not (tmp_path / "elsewhere.pdf").exists()
