"""Put as sitecustomize by tests/test_limits.py: SIGINT to this process at the Nth step (a call, line, return or
exception) of Muster's start-up, counted from Muster's first line; with MUSTER_TEST_SIGINT_IN, only steps of code
from that file name count ("<string>": code Python made with exec(), such as a dataclass's methods)."""

import os
import sys

_package, _at = os.environ["MUSTER_TEST_PACKAGE"], int(os.environ.get("MUSTER_TEST_SIGINT_AT", "0"))
_only = os.environ.get("MUSTER_TEST_SIGINT_IN")
_steps, _started = 0, False


def _step(frame, event, arg):
    global _steps, _started
    if not _started:
        if not frame.f_code.co_filename.startswith(_package):
            return None  # Python's own start-up, before Muster's first line: not counted
        _started = True
    if _only is None or frame.f_code.co_filename == _only:
        _steps += 1
        if _steps >= _at:
            sys.settrace(None)
            while frame is not None:
                frame.f_trace, frame = None, frame.f_back
            os.kill(os.getpid(), 2)  # answered at once, by whichever handler is in place at this step
            return None
    return _step


if _at:
    sys.settrace(_step)
