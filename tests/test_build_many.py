"""`muster build A.yaml B.yaml ...`: many scenarios in one warm process, the same files as one at a time, and a
season's packs written all together or not at all."""

from __future__ import annotations

import json

from conftest import SCENARIOS, files_under
from test_hostile import MINIMAL


def _scenario(folder, name: str, victory: str = "x") -> str:
    path = folder / f"{name}.yaml"
    path.write_text(f"title: {name.title()}\nsystem: fireteam-tomorrow\nbriefing: x\nvictory: {victory}" + MINIMAL)
    return str(path)


def test_many_scenarios_build_to_the_same_bytes_as_one_at_a_time(muster, tmp_path, built):
    """Two systems in one command, two at once: each pair is byte for byte what its own build writes (the run's
    own build of each example, one file to a command), and the written files are listed in the order the scenarios
    were given."""
    names = ["vesta-relay", "relay-station"]
    together = muster("build", *(SCENARIOS / f"{n}.yaml" for n in names), "--out", tmp_path / "together")
    assert together.code == 0, together.err
    listed = together.out.split()
    suffixes = ("", "-cards", "-counters")
    assert [p.split("/")[-1] for p in listed] == [f"{n}{s}.pdf" for n in names for s in suffixes]
    for name in names:
        pack, _ = built(name)
        for suffix in suffixes:
            file = f"{name}/{name}{suffix}.pdf"
            alone = pack.parent / f"{name}{suffix}.pdf"
            assert (tmp_path / "together" / file).read_bytes() == alone.read_bytes(), file


def test_every_files_problems_are_listed_and_nothing_is_written(muster, tmp_path):
    """One good file and two with problems: both bad files' problems at their own file:line:col, status 1, and
    not even the good file's pack is written (a season's packs are one print run)."""
    good = _scenario(tmp_path, "good")
    bad = [_scenario(tmp_path, f"bad{i}") for i in (1, 2)]
    for path in bad:  # a problem of its own in each: an unknown key
        with open(path, "a") as file:
            file.write("turnz: 3\n")
    result = muster("build", good, *bad, "--out", tmp_path / "out")
    assert result.code == 1
    for path in bad:
        assert f"{path}:" in result.err and "turnz" in result.err.split(path, 1)[1], result.err
    assert "nothing was written" in result.err and "Traceback" not in result.err
    assert not (tmp_path / "out").exists() or files_under(tmp_path / "out") == []


def test_two_files_of_one_name_are_a_usage_error(muster, tmp_path):
    """Two bridge.yaml from two folders would overwrite each other's pack: refused before any work."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = _scenario(tmp_path / "a", "bridge"), _scenario(tmp_path / "b", "bridge")
    result = muster("build", first, second, "--out", tmp_path / "out")
    assert result.code == 2
    assert "would both be built into" in result.err and "another file name" in result.err
    assert not (tmp_path / "out").exists()


def test_build_statistics_say_where_the_cpu_went(muster, tmp_path, monkeypatch):
    """MUSTER_STATS (for `make bench`): the CPU seconds WeasyPrint's layout and PDF writing took, and its import."""
    target = tmp_path / "stats.json"
    monkeypatch.setenv("MUSTER_STATS", str(target))
    assert muster("build", SCENARIOS / "vesta-relay.yaml", "--out", tmp_path / "out").code == 0
    stats = json.loads(target.read_text())
    assert stats["weasyprint"] > 0.1
    assert stats["weasyprint_import"] >= 0.0


def test_validation_warms_this_process_with_each_files_system_never_the_file(tmp_path):
    """Issue 13: validating many files (`muster validate`, a booklet's planning) reads each file only in its own
    limited child, but once a file's system is known this process reads that system's rule data, so the children
    after it start warm (a cold child spent 0.09 of its 0.1 s reading it: a 40-scenario booklet validated for 7 s).
    The files' problems and warnings still come in the files' order, with two children at once."""
    import generator.build as build
    from generator import systems
    from generator.errors import InputProblems

    read: list[str] = []
    real = build.warm
    build.warm = lambda system_id: read.append(system_id) or real(system_id)
    try:
        paths = [str(SCENARIOS / f"{n}.yaml") for n in ("bridge", "relay-station", "hill-112", "vesta-relay")]
        assert build.validate_limited(paths, jobs=2) == []
        assert sorted(read) == ["fireteam-tomorrow", "morschauser-modern", "para-bellum"]  # each system once
        assert "rules" in vars(systems.get("morschauser-modern"))  # its rule data is this process's now
        bad = [_scenario(tmp_path, f"bad{i}", victory="[") for i in range(4)]
        try:
            build.validate_limited([bad[0], paths[0], *bad[1:]], jobs=2)
        except InputProblems as err:
            files = [problem.file for problem in err.problems]
        assert files == sorted(files) and len(set(files)) == 4, files  # bad0 .. bad3, in the order given
    finally:
        build.warm = real
