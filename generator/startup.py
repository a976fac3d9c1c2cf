"""Importing WeasyPrint without the programs its library search runs: once per command, but paid by every build.

WeasyPrint opens GObject, Pango, HarfBuzz and fontconfig through cffi, trying each library's names for every
platform in turn ('libgobject-2.0-0', 'gobject-2.0-0', 'gobject-2.0', 'libgobject-2.0.so.0', then macOS's and
Windows's). cffi hands each name the system's loader refuses to `ctypes.util.find_library`, which on Linux runs
ldconfig, then gcc and ld, for every one of them: about 300 programs for one import on the machine the goals of
README.md's "Speed" were set on, a fifth of a second of CPU (more where `ld` on the PATH is a shell script), in
every `muster build`. Each of WeasyPrint's lists holds the library's Linux file name, which the loader finds
itself, so on Linux the import runs with that search switched off; should that leave a library unopened (one
known to the system only under another name), the import is done again, as WeasyPrint does it.
"""

from __future__ import annotations

import contextlib
import io
import sys


def _no_search(name: str) -> None:
    return None


def import_weasyprint():
    """The weasyprint module, imported (see the module's docstring for how, on Linux)."""
    if "weasyprint" not in sys.modules and sys.platform.startswith("linux"):
        import ctypes.util

        search = ctypes.util.find_library
        ctypes.util.find_library = _no_search
        try:
            # WeasyPrint prints its installation help to stdout when a library will not open: not yet its words
            with contextlib.redirect_stdout(io.StringIO()):
                import weasyprint  # noqa: F401
        except OSError:  # a library only the search knows: forget the half-done import and do it WeasyPrint's way
            for name in [name for name in sys.modules if name == "weasyprint" or name.startswith("weasyprint.")]:
                del sys.modules[name]
        finally:
            ctypes.util.find_library = search
    import weasyprint

    return weasyprint
