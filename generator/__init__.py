"""Muster: YAML scenarios and forces in, print-ready PDF packs for tabletop wargames out."""

import os
import sys

INTERRUPTED = "muster: interrupted; nothing half-written was left"


def interrupted(signum, frame) -> None:
    """Ctrl-C before main()'s own handling (starting, importing): one line and exit 130, never a traceback.

    No PDF is half-written then: writes happen inside main(), where Ctrl-C raises KeyboardInterrupt instead;
    the limited children die with this process (PR_SET_PDEATHSIG).
    """
    os.write(2, INTERRUPTED.encode() + b"\n")
    os._exit(130)


# Ctrl-C in the first moments: Python raises KeyboardInterrupt, with a traceback, until a handler is ours. This
# module is the first of Muster that any command runs, so the handler is installed here, before anything is
# imported or called (a call is where Python runs a pending signal's handler), for `muster` (the console script)
# and `python -m generator` (argv[0] is still "-m" while the package is imported; orig_argv names the module).
# A program importing Muster keeps its own handler. The C module _signal is loaded by Python's own start-up;
# `signal` would first import enum (milliseconds).
if sys.argv and (
    sys.argv[0][-7:] in (f"{os.sep}muster", "/muster")
    or sys.argv[0] == "muster"
    or (sys.argv[0] == "-m" and "generator" in sys.orig_argv)
):
    import _signal

    _signal.signal(_signal.SIGINT, interrupted)

__version__ = "0.1.0"
