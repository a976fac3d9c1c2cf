"""Before installing: find the system libraries WeasyPrint needs, and add HarfBuzz's subsetter where we can."""

import ctypes.util
import os
import shutil
import subprocess
import sys

# WeasyPrint cannot start without Pango; say so in one line rather than a traceback from cffi.
if not ctypes.util.find_library("pango-1.0") or not ctypes.util.find_library("pangoft2-1.0"):
    print(
        "Muster needs Pango for WeasyPrint: install it first (Debian/Ubuntu: apt-get install libpango-1.0-0 libpangoft2-1.0-0)",
        file=sys.stderr,
    )
    sys.exit(1)

# Without libharfbuzz-subset WeasyPrint subsets fonts with a slow fallback (about 7x slower per PDF).
if not ctypes.util.find_library("harfbuzz-subset"):
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("installing libharfbuzz-subset0 (faster font subsetting for WeasyPrint)...", file=sys.stderr)
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        ok = (
            subprocess.run(["apt-get", "install", "-y", "-q", "libharfbuzz-subset0"], **quiet, timeout=600).returncode
            == 0
        )
        if not ok:
            subprocess.run(["apt-get", "update", "-q"], **quiet, timeout=600)
            ok = (
                subprocess.run(
                    ["apt-get", "install", "-y", "-q", "libharfbuzz-subset0"], **quiet, timeout=600
                ).returncode
                == 0
            )
        if not ok:
            print("note: could not install libharfbuzz-subset0; PDFs build, but more slowly", file=sys.stderr)
    else:
        print(
            "note: libharfbuzz-subset0 is missing; PDFs build, but more slowly (apt-get install libharfbuzz-subset0)",
            file=sys.stderr,
        )
