"""Importing WeasyPrint runs no program (generator/startup.py), and still imports it where the quick way fails."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the library search is skipped on Linux")

# records every program a Python process starts through subprocess (ctypes.util.find_library starts ldconfig, gcc, ld)
RECORD = """
import subprocess
started = []
_init = subprocess.Popen.__init__
def _record(self, args, *rest, **named):
    started.append(args)
    return _init(self, args, *rest, **named)
subprocess.Popen.__init__ = _record
"""


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(RECORD) + textwrap.dedent(code)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_importing_weasyprint_starts_no_program():
    # every `muster build` paid ~300 programs (ldconfig, gcc, ld) for the library names WeasyPrint tries that are
    # other platforms'
    done = _run(
        """
        from generator import sandbox
        sandbox._preload()
        import weasyprint.text.ffi as ffi
        assert ffi.pango is not None and ffi.harfbuzz is not None
        print(len(started), started[:3])
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("0 "), done.stdout


def test_a_library_only_the_search_finds_is_still_opened():
    # Pango known to the system only as "pango-1.0" (the name ctypes.util.find_library resolves): the quick import
    # fails, silently, and the import is done again WeasyPrint's way
    done = _run(
        """
        import cffi.api
        _load = cffi.api._load_backend_lib
        def _load_except_pango(backend, name, flags):
            if name.startswith("libpango-1.0.so"):
                raise OSError("hidden from the loader for this test")
            return _load(backend, name, flags)
        cffi.api._load_backend_lib = _load_except_pango
        from generator.startup import import_weasyprint
        weasyprint = import_weasyprint()
        import weasyprint.text.ffi as ffi
        import ctypes.util
        assert ctypes.util.find_library.__name__ == "find_library"
        assert ffi.pango is not None
        assert weasyprint.HTML(string="<p>x</p>").render().pages
        print("programs", len(started) > 0)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "programs True\n", done.stdout  # and nothing of WeasyPrint's installation help
