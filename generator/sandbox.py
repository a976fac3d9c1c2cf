"""The one process sandbox: each build, validation and booklet chapter runs in a child under a wall-clock and a memory limit."""

from __future__ import annotations

import faulthandler
import gc
import math
import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from multiprocessing.connection import wait

from . import startup
from .errors import InputProblems, MusterError, RenderError, UsageError, quoted

# Every build runs in one child process with a wall-clock and a memory limit, from reading the YAML to the
# PDF bytes (validation, computation, Markdown and rendering), so that a hostile or broken scenario can
# hang or bloat only that child. The example packs build in 3 to 11 s and under 200 MiB; the defaults
# leave about ten times that room, and a file that needs more is not a scenario.
RENDER_SECONDS = 120.0
RENDER_MEMORY_MB = 2048
# The range a club may set. Below the floors nothing can run: Python with WeasyPrint imported takes
# 80 MiB of address space before it reads a line, and a build's stages take a second. (The smallest example
# needs about 384 MiB: between the floor and that, a build fails naming the limit.) Above the ceilings the
# limit no longer protects the machine (a day; a TiB), and inf or 1e309 would not be a limit at all.
SECONDS_RANGE = (1.0, 86_400.0)
MEMORY_MB_RANGE = (128, 1_048_576)


def _env_limit(name: str, default: float, low: float, high: float) -> float:
    text = os.environ.get(name)
    if text is None or text == "":
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not low <= value <= high:  # also refuses nan and inf
        raise UsageError(f"{name} must be a number from {low:.0f} to {high:.0f} (got {text!r})")
    return value


def render_limits() -> tuple[float, int]:
    """The child's limits: seconds of wall clock and MiB of address space, from the environment."""
    seconds = _env_limit("MUSTER_RENDER_SECONDS", RENDER_SECONDS, *SECONDS_RANGE)
    memory = int(_env_limit("MUSTER_RENDER_MEMORY_MB", RENDER_MEMORY_MB, *MEMORY_MB_RANGE))
    return seconds, memory


def _context():
    # fork: the child starts as a copy of this process, with WeasyPrint already imported (once per command,
    # see _preload) and whatever rule data this process holds; it is our own child, so its time and memory
    # count as ours (resource.getrusage(RUSAGE_CHILDREN) reads its peak) and it dies with us.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _preload() -> None:
    """Import WeasyPrint and the build here, once, so that each forked child starts with them."""
    from . import engine

    if not engine.import_cpu:
        start = time.process_time()
        startup.import_weasyprint()

        engine.import_cpu = time.process_time() - start
    from . import build  # noqa: F401


def _limit_self(seconds: float, memory_mb: int) -> None:
    """In the child: cap address space and CPU time, and die with the process that forked us."""
    try:
        import resource
    except ImportError:  # not POSIX: the parent's wall clock still holds
        return
    # the limit is what the build may add to what the child inherits at fork: a warm parent (a test run, a booklet)
    # may already map more than the whole limit, and counting it failed small builds "past 2048 MiB"
    global _BASE_KB, _BASE_PEAK_KB
    _BASE_KB, _BASE_PEAK_KB = _vm_kb("VmSize"), _vm_kb("VmPeak")
    limit = (_BASE_KB + memory_mb * 1024) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    # a backstop for an orphan whose parent was killed: CPU seconds can only run out
    limit_cpu = int(seconds) + 5
    resource.setrlimit(resource.RLIMIT_CPU, (limit_cpu, limit_cpu + 5))
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (Linux)
    except (OSError, AttributeError):
        pass


# the child's address space at fork and the peak it inherits with it, in KiB (set by _limit_self)
_BASE_KB = _BASE_PEAK_KB = 0


def _vm_kb(field: str) -> int:
    """A VmSize/VmPeak figure of this process in KiB (0 where /proc cannot tell)."""
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith(field + ":"))
    except (OSError, StopIteration, ValueError, IndexError):
        return 0


def _near(memory_mb: int) -> bool:
    """Whether this process's address space came within a tenth of the limit: a C library failing to allocate
    there may raise anything (SystemError: error return without exception set), and it means the limit."""
    peak_kb = _vm_kb("VmPeak")  # a forked child inherits its parent's peak: only a new one is this build's
    return peak_kb > _BASE_PEAK_KB and peak_kb - _BASE_KB >= memory_mb * 1024 * 0.9


def _sigint_blocked(blocked: bool) -> None:
    """Hold SIGINT back from this process (it stays pending) or let it through."""
    if hasattr(signal, "pthread_sigmask"):  # POSIX; elsewhere children are spawned, not forked
        signal.pthread_sigmask(signal.SIG_BLOCK if blocked else signal.SIG_UNBLOCK, {signal.SIGINT})


def _limited_child(conn, function: Callable, args: tuple, seconds: float, memory_mb: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent reports it and kills us
    _sigint_blocked(False)  # (blocked since the fork: one that came since is dropped, being ignored now)
    if not os.environ.get("MUSTER_DEBUG"):  # what C libraries print as memory runs out is not for the user:
        os.dup2(os.open(os.devnull, os.O_WRONLY), 2)  # the parent words every failure in one line
        faulthandler.disable()  # (a test runner's crash report writes to its own copy of stderr)
    _limit_self(seconds, memory_mb)
    try:
        result = ("ok", function(*args))
    except MemoryError:
        result = ("memory", "")
    except InputProblems as err:  # a Problem pickles; the exception's own arguments do not
        result = ("problems", err.problems)
    except RenderError as err:
        result = ("error", str(err))
    except MusterError as err:  # a usage error found late, such as a card size the system cannot hold
        result = ("usage", str(err))
    except Exception as err:  # a bug in Muster, unless memory ran out where C code could not say so
        result = ("memory", "") if _near(memory_mb) else ("bug", f"{type(err).__name__}: {err}")
    try:
        conn.send(result)
    except MemoryError:
        conn.send(("memory", ""))
    conn.close()


class _Limited:
    """One limited child running function(*args): started at once, its clock running from then."""

    def __init__(self, function: Callable, args: tuple, file: str, doing: str):
        self.seconds, self.memory_mb = render_limits()
        self.file, self.doing = quoted(file), doing
        ctx = _context()
        self.receive, send = ctx.Pipe(duplex=False)
        self.child = ctx.Process(
            target=_limited_child, args=(send, function, args, self.seconds, self.memory_mb), daemon=True
        )
        # the child starts as a copy of this process's memory, shared until written: its garbage collector would
        # write to every object it inherited (their GC headers), copying page after page of them. Frozen, they are
        # left out of its collections; this process takes them back at once.
        gc.freeze()
        # Ctrl-C in the instant after the fork would reach the child before it ignores it, and multiprocessing
        # would print "Process ForkProcess-1:" above our one line: blocked over the fork, a SIGINT waits, here
        # for this process (which answers it) and in the child until it ignores it
        _sigint_blocked(True)
        try:
            self.child.start()
        finally:
            gc.unfreeze()
            _sigint_blocked(False)  # last: a SIGINT held back is raised here, with nothing left undone
        send.close()
        self.deadline = time.monotonic() + self.seconds

    def restart_clock(self) -> None:
        """Its time limit counted from now: for a child that has waited on this process for its input."""
        self.deadline = time.monotonic() + self.seconds

    def stop(self) -> None:
        if self.child.is_alive():
            self.child.kill()
        self.child.join()
        self.receive.close()

    def result(self):
        """Its result once its pipe is readable or its time is up (then it is killed); errors name the file."""
        try:
            if not self.receive.poll(max(0.0, self.deadline - time.monotonic())):
                raise RenderError(
                    f"{self.file}: {self.doing} took longer than {self.seconds:g} s (MUSTER_RENDER_SECONDS); "
                    "the file is too large or hostile"
                )
            try:
                kind, payload = self.receive.recv()
            except EOFError:  # the child died without a word: a signal, or memory C code could not get
                self.child.join(5)
                code = self.child.exitcode
                how = (
                    f"killed by {signal.Signals(-code).name}"
                    if code is not None and code < 0
                    else f"exit status {code}"
                )
                raise RenderError(
                    f"{self.file}: {self.doing} stopped ({how}); it may have passed the memory limit of "
                    f"{self.memory_mb} MiB (MUSTER_RENDER_MEMORY_MB)"
                ) from None
        finally:
            self.stop()
        if kind == "ok":
            return payload
        if kind == "problems":
            raise InputProblems(payload)
        if kind == "memory":
            raise RenderError(
                f"{self.file}: {self.doing} needed more than {self.memory_mb} MiB (MUSTER_RENDER_MEMORY_MB); "
                "the file is too large or hostile"
            )
        if kind == "error":
            raise RenderError(payload if payload.startswith(f"{self.file}: ") else f"{self.file}: {payload}")
        if kind == "usage":
            raise UsageError(payload)
        raise RuntimeError(f"the limited child failed: {payload}")


def run_limited(function: Callable, args: tuple, file: str, doing: str = "building"):
    """function(*args) in a child under the time and memory limits; its result, or an error naming the file.

    InputProblems, RenderError and UsageError raised in the child are raised here; a child past its time
    is killed, and one past its memory fails with the limit's name.
    """
    render_limits()  # a bad setting is a usage error before anything is imported or started
    _preload()
    return _Limited(function, args, file, doing).result()


def start_limited(function: Callable, args: tuple, file: str, doing: str = "building") -> _Limited:
    """function(*args) started in a child under the limits, its clock running; its .result() as run_limited's,
    and .stop() kills it where its result is no longer wanted."""
    render_limits()
    _preload()
    return _Limited(function, args, file, doing)


def pipe():
    """A one-way pipe (receiving end, sending end) that a child started here can read from."""
    return _context().Pipe(duplex=False)


def run_each_limited(
    function: Callable,
    jobs: list[tuple[str, object]],
    workers: int,
    done: Callable[[int, object], None],
    failed: Callable[[int, InputProblems], None] | None = None,
    doing: str = "rendering",
) -> None:
    """function(argument) for each (file, argument) job, each in its own limited child with its own clock.

    Up to `workers` (at most the number of CPUs) run at once. done(index, result) runs in this process as each
    job finishes. Given `failed`, a job whose file has problems is handed to it and the others go on; any other
    failure (and, without `failed`, problems too) kills every other child and is raised, naming its file.
    """
    if not jobs:
        return
    render_limits()
    _preload()
    workers = max(1, min(workers, len(jobs), os.cpu_count() or 1))
    waiting = list(range(len(jobs)))
    running: dict[int, _Limited] = {}
    try:
        while waiting or running:
            while waiting and len(running) < workers:
                index = waiting.pop(0)
                running[index] = _Limited(function, (jobs[index][1],), jobs[index][0], doing)
            nearest = min(child.deadline for child in running.values())
            ready = wait([child.receive for child in running.values()], max(0.0, nearest - time.monotonic()))
            for index, child in list(running.items()):
                if child.receive in ready or time.monotonic() >= child.deadline:
                    del running[index]
                    try:
                        result = child.result()
                    except InputProblems as err:
                        if failed is None:
                            raise
                        failed(index, err)
                    else:
                        done(index, result)
    finally:  # a failure, or Ctrl-C: no child may keep rendering
        for child in running.values():
            child.stop()
