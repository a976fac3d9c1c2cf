"""The booklet cache lives in the user's cache folder, not beside --out, and is pruned oldest first to its limit."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from conftest import SCENARIOS

from generator.booklet import cache


@pytest.fixture
def linux(monkeypatch, tmp_path):
    """A Linux user with a home of their own and neither MUSTER_CACHE nor XDG_CACHE_HOME set."""
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MUSTER_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    return tmp_path / "home"


def test_cache_folder_is_the_users_cache_folder_on_linux(linux, monkeypatch, tmp_path):
    """~/.cache/muster/booklet by default; $XDG_CACHE_HOME/muster/booklet when set (a relative one is ignored, as
    the XDG specification says); $MUSTER_CACHE, when set, is the folder itself."""
    assert cache.cache_folder() == linux / ".cache" / "muster" / "booklet"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_folder() == tmp_path / "xdg" / "muster" / "booklet"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert cache.cache_folder() == linux / ".cache" / "muster" / "booklet"
    monkeypatch.setenv("MUSTER_CACHE", str(tmp_path / "mine"))
    assert cache.cache_folder() == tmp_path / "mine"


def test_cache_folder_on_macos_and_windows(monkeypatch, tmp_path):
    """~/Library/Caches/muster on macOS, %LOCALAPPDATA%\\muster\\Cache on Windows."""
    monkeypatch.delenv("MUSTER_CACHE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(sys, "platform", "darwin")
    assert cache.cache_folder() == tmp_path / "Library" / "Caches" / "muster" / "booklet"
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    assert cache.cache_folder() == tmp_path / "Local" / "muster" / "Cache" / "booklet"


def _entry(folder: Path, name: str, size: int, age_days: int) -> Path:
    path = folder / name
    path.write_bytes(b"%" * size)
    when = 1_700_000_000 - age_days * 86400
    os.utime(path, (when, when))
    return path


def test_prune_deletes_oldest_first_down_to_the_limit_and_keeps_the_last_build(tmp_path, monkeypatch):
    """Over the limit, the oldest entries go first until the cache fits; the last build's entries stay even when
    they are the oldest or alone exceed the limit; what the cache did not write (not a .pdf) is left alone."""
    monkeypatch.setattr(cache, "LIMIT_BYTES", 300)
    oldest = _entry(tmp_path, "a-1.pdf", 100, age_days=30)
    kept_old = _entry(tmp_path, "b-2.pdf", 100, age_days=20)
    middle = _entry(tmp_path, "c-1.pdf", 100, age_days=10)
    newer = _entry(tmp_path, "d-3.pdf", 100, age_days=5)
    newest = _entry(tmp_path, "booklet-e.pdf", 100, age_days=1)
    other = _entry(tmp_path, "notes.txt", 1000, age_days=40)
    cache.prune(tmp_path, keep={"b-2.pdf", "booklet-e.pdf"})
    # 500 bytes of PDFs: a (oldest) and c go, b is kept although older than c, leaving 300: d stays
    assert [p.exists() for p in (oldest, kept_old, middle, newer, newest, other)] == [
        False,
        True,
        False,
        True,
        True,
        True,
    ]
    monkeypatch.setattr(cache, "LIMIT_BYTES", 0)
    cache.prune(tmp_path, keep={"b-2.pdf", "booklet-e.pdf"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b-2.pdf", "booklet-e.pdf", "notes.txt"]


def test_booklet_caches_in_the_users_folder_and_prunes_what_it_no_longer_uses(muster, linux, tmp_path, monkeypatch):
    """A booklet built with --out in a project folder leaves no hidden .cache there: its parts go to
    $XDG_CACHE_HOME/muster/booklet; an old entry from an earlier build is pruned once the cache is over its limit,
    the entries this build just wrote stay, and a second build reads them instead of rendering."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    folder = tmp_path / "xdg" / "muster" / "booklet"
    folder.mkdir(parents=True)
    stale = _entry(folder, "0" * 64 + "-3.pdf", 1000, age_days=30)
    monkeypatch.setattr(cache, "LIMIT_BYTES", 1)
    out = tmp_path / "project" / "output" / "booklet.pdf"
    assert muster("booklet", SCENARIOS / "bridge.yaml", "--out", out, "--jobs", "1").code == 0
    assert sorted(p.name for p in out.parent.parent.rglob("*")) == ["booklet.pdf", "output"]
    assert not stale.exists()
    written = sorted(p.name for p in folder.iterdir())
    # the booklet, a chapter and an appendix (names are hashes: which sorts first depends on the code's hash)
    assert len(written) == 3 and sum(name.startswith("booklet-") for name in written) == 1, written
    stats = tmp_path / "stats.json"
    monkeypatch.setenv("MUSTER_STATS", str(stats))
    out.unlink()
    assert muster("booklet", SCENARIOS / "bridge.yaml", "--out", out, "--jobs", "1").code == 0
    assert out.is_file() and "rendered" not in stats.read_text()  # the whole booklet came from the cache
