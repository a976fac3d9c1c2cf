"""A build writes its pack and its cards as one: both new, or the old pair left as it was."""

from __future__ import annotations

import os

import pytest
from conftest import files_under
from test_hostile import MINIMAL

from generator import files
from generator.errors import RenderError


@pytest.fixture
def old_pair(tmp_path):
    """A scenario and the pair an earlier build left in out/pair/; returns (scenario, out, pack, cards)."""
    scenario = tmp_path / "pair.yaml"
    scenario.write_text("title: Pair\nsystem: fireteam-tomorrow\nbriefing: x\nvictory:" + MINIMAL)
    out = tmp_path / "out"
    (out / "pair").mkdir(parents=True)
    pack, cards = out / "pair" / "pair.pdf", out / "pair" / "pair-cards.pdf"
    pack.write_bytes(b"%PDF old pack")
    return scenario, out, pack, cards


def test_a_folder_where_the_cards_go_fails_the_build_and_leaves_the_old_pack(old_pair, muster):
    """A folder named pair-cards.pdf stops the cards' rename: the build fails naming it, and the old pack stays."""
    scenario, out, pack, cards = old_pair
    cards.mkdir()
    result = muster("build", scenario, "--out", out)
    assert result.code == 1, result.err
    assert f"cannot write {cards}" in result.err and "Traceback" not in result.err, result.err
    assert pack.read_bytes() == b"%PDF old pack" and cards.is_dir()
    assert files_under(out) == [pack]  # no .part left behind


def test_a_cards_file_that_cannot_be_replaced_leaves_the_old_pair(old_pair, muster, monkeypatch):
    """An old cards file that refuses to be replaced (immutable, no permission) fails the build; the old pack
    and the old cards both stay, so the folder never holds a new pack beside old cards."""
    scenario, out, pack, cards = old_pair
    cards.write_bytes(b"%PDF old cards")
    real = os.replace

    def replace(source, target):
        if os.fspath(target) == os.fspath(cards):
            raise PermissionError(1, "Operation not permitted", os.fspath(target))
        real(source, target)

    monkeypatch.setattr(files.os, "replace", replace)
    result = muster("build", scenario, "--out", out)
    assert result.code == 1, result.err
    assert f"cannot write {cards}: Operation not permitted" in result.err, result.err
    assert (pack.read_bytes(), cards.read_bytes()) == (b"%PDF old pack", b"%PDF old cards")
    assert files_under(out) == [cards, pack]


def test_writing_together_puts_back_a_target_that_had_no_old_file(tmp_path, monkeypatch):
    """When the second rename fails and the first target had no file before, the new first file is removed."""
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    second.mkdir()
    with pytest.raises(RenderError, match="cannot write .*b.pdf"):
        files.write_together({first: b"new a", second: b"new b"})
    assert not first.exists() and files_under(tmp_path) == []


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT", "SIGUSR1", "SIGALRM"])
def test_a_signal_between_the_two_renames_waits_for_the_second(name, tmp_path):
    """Issue 12 (red team, twice): a SIGTERM that arrived between the pack's rename and the cards' (a shell's kill, a
    service manager stopping a job) left a new pack beside the old cards; then a Ctrl-C that arrived as the first
    rename returned (before the rollback knew of it), and SIGUSR1 or SIGALRM, did the same. Every signal a process
    can hold is held while the set is renamed, and arrives once it is whole: here the process is stopped by the
    signal it sent itself after the first rename, with both new files in place."""
    import signal
    import subprocess
    import sys

    pack, cards = tmp_path / "pair.pdf", tmp_path / "pair-cards.pdf"
    pack.write_bytes(b"old pack")
    cards.write_bytes(b"old cards")
    script = f"""
import os, signal
from pathlib import Path
from generator import files
real = os.replace
def replace(src, dst):
    real(src, dst)
    if str(dst).endswith("pair.pdf"):
        os.kill(os.getpid(), signal.{name})
os.replace = replace
files.write_together({{Path({str(pack)!r}): b"new pack", Path({str(cards)!r}): b"new cards"}})
print("finished")
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    # Ctrl-C is Python's KeyboardInterrupt, which Python ends by dying of SIGINT too; the others end it directly
    assert result.returncode == -getattr(signal, name), (result.returncode, result.stderr)
    assert (pack.read_bytes(), cards.read_bytes()) == (b"new pack", b"new cards")
    assert "finished" not in result.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pair-cards.pdf", "pair.pdf"]  # no backup left


def test_two_builds_writing_one_pair_at_once_leave_one_builds_pair(tmp_path):
    """Issue 12 (third red team, F5): two builds into the same --out each renamed their pack, then their cards;
    the second's two renames fell between the first's, leaving its pack beside the first's cards (6 times in 3,000
    runs). Renames into a folder now hold it: the first renames both files before the second starts. Here the
    first writer pauses after its first rename, the second starts inside that pause."""
    import time

    pack, cards = tmp_path / "pair.pdf", tmp_path / "pair-cards.pdf"
    go = os.pipe()
    writers = []
    for tag, pause, start in ((b"A", 0.4, 0.0), (b"B", 0.0, 0.1)):
        pid = os.fork()
        if pid == 0:  # a writer: waits for the start, then writes the pair
            code = 1
            try:
                os.close(go[1])
                os.read(go[0], 1)
                time.sleep(start)
                replace = os.replace

                def slow(source, target, replace=replace, pause=pause):
                    replace(source, target)
                    if str(target) == str(pack):
                        time.sleep(pause)

                os.replace = slow
                files.write_together({pack: tag * 8, cards: tag * 8})
                code = 0
            finally:
                os._exit(code)
        writers.append(pid)
    os.close(go[0])
    os.write(go[1], b"go")
    os.close(go[1])
    assert all(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0 for pid in writers)
    assert pack.read_bytes() == cards.read_bytes(), (pack.read_bytes(), cards.read_bytes())
    assert files_under(tmp_path) == [cards, pack]  # no backup or .part left behind


def test_a_stale_part_is_judged_by_when_it_was_made_not_by_its_old_files_time(tmp_path):
    """A backup is a hard link to the old file and keeps its mtime: another build took a fresh backup of an old
    pack for a part left by a killed build and removed it, losing the pair it was to put back. Its ctime, which
    the link sets, says it is new."""
    old = tmp_path / "pair.pdf"
    old.write_bytes(b"%PDF old")
    os.utime(old, (0, 0))  # written long ago
    backup = tmp_path / ".pair.pdf.0123456789ab.old.part"
    os.link(old, backup)
    files._remove_stale_parts(old)
    assert backup.exists()
