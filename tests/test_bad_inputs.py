"""Every bad file under tests/data/bad/ gets its clear message at file:line:col, exit 1, and nothing written.

Each file holds one problem and starts with a comment naming the message fragment it must produce:
    # expect: a fireteam has 3 to 6 figures, found 7
Add a file to add a case; the file's name says the problem (team_of_seven.yaml).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import DATA, files_under

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
