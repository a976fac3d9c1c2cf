"""Put as sitecustomize by tests/test_limits.py: SIGINT to this process after the command has finished, while
Python shuts down. MUSTER_TEST_SIGINT_EXIT says when: "atexit" (in an exit function, with Python's handlers still
in place) or "teardown" (while modules are torn down, after Python has put back the handlers it replaced: this
module's dictionary is cleared then, which drops the last reference to the object below)."""

import atexit
import os

_when = os.environ.get("MUSTER_TEST_SIGINT_EXIT")


class _SignalOnDelete:
    def __del__(self):
        os.kill(os.getpid(), 2)


if _when == "atexit":
    atexit.register(os.kill, os.getpid(), 2)
elif _when == "teardown":
    _late = _SignalOnDelete()
