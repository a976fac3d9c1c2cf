"""Muster installs like any Python tool: the wheel carries the code, rule data and templates, and builds from anywhere."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT, SCENARIOS
from pypdf import PdfReader


def _source_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def test_templates_ship_as_the_generator_templates_package():
    """generator/templates links to the top-level templates/, so setuptools' find ships them as generator.templates
    and a new system's folders need no line in pyproject.toml."""
    link = ROOT / "generator" / "templates"
    assert link.is_symlink() and link.resolve() == (ROOT / "templates").resolve()
    assert (ROOT / "templates" / "__init__.py").is_file()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel `pip wheel .` builds, from a copy of what the sdist holds (no stale build/ of the work tree),
    offline: no build isolation, no index."""
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for name in ("generator", "templates"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-index", "--no-build-isolation"]
        + ["--disable-pip-version-check", "--quiet", "-w", str(target)],
        check=True,
        cwd=source,
    )
    (built,) = target.glob("muster-*.whl")
    return built


def test_wheel_holds_every_module_rule_file_and_template(wheel):
    """Every file of generator/ (code and each system's rules.yaml) and of templates/ is in the wheel, the
    templates under generator/templates/, where the installed Muster looks for them."""
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"generator/{p.relative_to(ROOT / 'generator').as_posix()}" for p in _source_files(ROOT / "generator")}
    expected |= {
        f"generator/templates/{p.relative_to(ROOT / 'templates').as_posix()}" for p in _source_files(ROOT / "templates")
    }
    assert "generator/systems/fireteam/rules.yaml" in expected and "generator/templates/base.html" in expected
    assert sorted(expected - names) == []


def test_installed_wheel_builds_bridge_from_another_folder(wheel, tmp_path, built):
    """The wheel installed (not editable) into a fresh virtual environment gives a `muster` that, run from a folder
    outside the repository, builds scenarios/bridge.yaml into a temporary folder: exit 0 and both PDFs, using the
    installed code and templates, not the source tree's, and printing the same bytes as the source tree does."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    # The dependencies (WeasyPrint and the rest) come from this environment, appended to the new one's path
    # rather than downloaded again; its own .pth files (Muster's editable finder) are not read from there.
    (site / "muster-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", str(wheel)]
        + ["--no-deps", "--no-index", "--ignore-installed", "--disable-pip-version-check", "--quiet"],
        check=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    muster = venv / ("Scripts/muster.exe" if os.name == "nt" else "bin/muster")
    out = tmp_path / "out"
    result = subprocess.run(
        [muster, "build", str(SCENARIOS / "bridge.yaml"), "--out", str(out)],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    for name, from_source in zip(("bridge.pdf", "bridge-cards.pdf"), built("bridge")):
        assert len(PdfReader(out / "bridge" / name).pages) > 0
        assert (out / "bridge" / name).read_bytes() == from_source.read_bytes(), name
    located = subprocess.run(
        [python, "-c", "import generator.rendering as r; print(r.PACKAGE); print(r.TEMPLATES)"],
        cwd=elsewhere,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert [Path(p).is_relative_to(site) for p in located] == [True, True], located
    assert list(elsewhere.iterdir()) == []  # nothing written where it was run from
