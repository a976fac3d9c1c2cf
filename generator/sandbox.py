"""The one process sandbox: each build, validation and booklet chapter runs in a child under a wall-clock and a memory limit."""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from .engine import html_to_pdf
from .errors import InputProblems, MusterError, RenderError, UsageError, quoted

# Every build runs in one child process with a wall-clock and a memory limit, from reading the YAML to the
# PDF bytes (validation, computation, Markdown and rendering), so that a hostile or broken scenario can
# hang or bloat only that child. The example packs build in 3 to 11 s and under 200 MiB; the defaults
# leave about ten times that room, and a file that needs more is not a scenario.
RENDER_SECONDS = 120.0
RENDER_MEMORY_MB = 2048
# The range a club may set. Below the floors not even an empty pack renders (the child starts with
# WeasyPrint loaded, about 200 MiB of address space); above the ceilings the limit no longer protects
# the machine (a day; a TiB), and inf or 1e309 would not be a limit at all.
SECONDS_RANGE = (1.0, 86_400.0)
MEMORY_MB_RANGE = (256, 1_048_576)


def _env_limit(name: str, default: float, low: float, high: float) -> float:
    text = os.environ.get(name)
    if text is None or text == "":
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not low <= value <= high:  # also refuses nan and inf
        raise UsageError(f"{name} must be a number from {low:g} to {high:g} (got {text!r})")
    return value


def render_limits() -> tuple[float, int]:
    """The child's limits: seconds of wall clock and MiB of address space, from the environment."""
    seconds = _env_limit("MUSTER_RENDER_SECONDS", RENDER_SECONDS, *SECONDS_RANGE)
    memory = int(_env_limit("MUSTER_RENDER_MEMORY_MB", RENDER_MEMORY_MB, *MEMORY_MB_RANGE))
    return seconds, memory


def _context():
    # forkserver: the server imports WeasyPrint once and forks a fresh child per build, so the limits
    # cost a fork, not WeasyPrint's import, and the child never inherits the caller's threads or state.
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(["generator.sandbox", "weasyprint", "generator.build"])
    return ctx


def _limit_self(seconds: float, memory_mb: int) -> None:
    """In the child: cap address space and CPU time, and die with the process that forked us."""
    try:
        import resource
    except ImportError:  # not POSIX: the parent's wall clock still holds
        return
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    # a backstop for an orphan whose parent was killed: CPU seconds can only run out
    limit_cpu = int(seconds) + 5
    resource.setrlimit(resource.RLIMIT_CPU, (limit_cpu, limit_cpu + 5))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to report; it kills us
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (Linux)
    except (OSError, AttributeError):
        pass


def _limited_child(conn, function: Callable, args: tuple, seconds: float, memory_mb: int) -> None:
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
    except Exception as err:  # a bug in Muster: the parent reports it as an internal error
        result = ("bug", f"{type(err).__name__}: {err}")
    try:
        conn.send(result)
    except MemoryError:
        conn.send(("memory", ""))
    conn.close()


_LIVE: set = set()  # children running now, so that a failure or Ctrl-C in one thread stops them all
_LIVE_LOCK = threading.Lock()


def stop_children() -> None:
    """Kill every limited child still running (after a failure elsewhere, or Ctrl-C)."""
    with _LIVE_LOCK:
        children = list(_LIVE)
    for child in children:
        if child.is_alive():
            child.kill()


def run_limited(function: Callable, args: tuple, file: str, doing: str = "building"):
    """function(*args) in a child under the time and memory limits; its result, or an error naming the file.

    `function` must be importable by name (the child imports it); InputProblems, RenderError and UsageError
    raised in the child are raised here. As with any multiprocessing use, a script that calls this must
    guard its entry point with `if __name__ == "__main__":` (the `muster` command does).
    """
    seconds, memory_mb = render_limits()
    file = quoted(file)
    ctx = _context()
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_limited_child, args=(send, function, args, seconds, memory_mb), daemon=True)
    with _LIVE_LOCK:
        _LIVE.add(child)
    try:
        child.start()
        send.close()
        if not receive.poll(seconds):
            raise RenderError(
                f"{file}: {doing} took longer than {seconds:g} s (MUSTER_RENDER_SECONDS); "
                "the file is too large or hostile"
            )
        try:
            kind, payload = receive.recv()
        except EOFError:  # the child died without a word: a signal, or memory C code could not get
            child.join(5)
            code = child.exitcode
            how = f"killed by {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit status {code}"
            raise RenderError(
                f"{file}: {doing} stopped ({how}); it may have passed the memory limit of "
                f"{memory_mb} MiB (MUSTER_RENDER_MEMORY_MB)"
            ) from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
        with _LIVE_LOCK:
            _LIVE.discard(child)
    if kind == "ok":
        return payload
    if kind == "problems":
        raise InputProblems(payload)
    if kind == "memory":
        raise RenderError(
            f"{file}: {doing} needed more than {memory_mb} MiB (MUSTER_RENDER_MEMORY_MB); "
            "the file is too large or hostile"
        )
    if kind == "error":
        raise RenderError(payload if payload.startswith(f"{file}: ") else f"{file}: {payload}")
    if kind == "usage":
        raise UsageError(payload)
    raise RuntimeError(f"the limited child failed: {payload}")


def _render_jobs(jobs: list[tuple]) -> list[bytes]:
    return [html_to_pdf(*job) for job in jobs]


def render_pdfs(jobs: list[tuple], file: str) -> list[bytes]:
    """Render each (html, base, scenario_folder) job to PDF bytes in one limited child; errors name the file."""
    return run_limited(_render_jobs, (jobs,), file, "rendering")


def run_each_limited(
    function: Callable, jobs: list[tuple[str, object]], workers: int, done: Callable[[int, object], None]
) -> None:
    """function(argument) for each (file, argument) job, each in its own limited child with its own clock.

    Up to `workers` (at most the number of CPUs) run at once. done(index, result) runs in this process, one
    at a time, as each job finishes; the first failure stops every other child and is raised, naming its file.
    """
    if not jobs:
        return
    render_limits()  # a bad setting is a usage error before any child starts
    workers = max(1, min(workers, len(jobs), os.cpu_count() or 1))
    lock = threading.Lock()
    failures: list[BaseException] = []  # the first is the one to report: the others were stopped because of it

    def one(index: int) -> None:
        if failures:
            return
        file, argument = jobs[index]
        try:
            result = run_limited(function, (argument,), file, "rendering")
        except BaseException as err:
            with lock:
                failures.append(err)
            stop_children()
            return
        with lock:
            if not failures:
                done(index, result)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(one, index) for index in range(len(jobs))]
        try:
            for future in futures:
                future.result()
        except BaseException:  # Ctrl-C: stop every child, then let the threads end
            failures.append(KeyboardInterrupt())
            stop_children()
            for future in futures:
                future.cancel()
            raise
    if failures:
        raise failures[0]
