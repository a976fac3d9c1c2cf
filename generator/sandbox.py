"""The one process sandbox: scenario renders run in child processes under a wall-clock and a memory limit."""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures import TimeoutError as FuturesTimeout
from concurrent.futures.process import BrokenProcessPool

from .engine import html_to_pdf
from .errors import RenderError, UnfitText, UsageError

# Every build renders in one child process with a wall-clock and a memory limit, so that a hostile or
# broken scenario can hang or bloat only that child. The example packs render in 3 to 11 s and under
# 200 MiB; the defaults leave about ten times that room, and a file that needs more is not a scenario.
RENDER_SECONDS = 120.0
RENDER_MEMORY_MB = 2048


def _env_limit(name: str, default: float, low: float) -> float:
    text = os.environ.get(name)
    if text is None or text == "":
        return default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value >= low:  # also refuses nan
        raise UsageError(f"{name} must be a number of at least {low:g} (got {text!r})")
    return value


def render_limits() -> tuple[float, int]:
    """The render child's limits: seconds of wall clock and MiB of address space, from the environment."""
    seconds = _env_limit("MUSTER_RENDER_SECONDS", RENDER_SECONDS, 0.001)
    memory = int(_env_limit("MUSTER_RENDER_MEMORY_MB", RENDER_MEMORY_MB, 64))
    return seconds, memory


def _context():
    # forkserver: the server imports WeasyPrint once and forks a fresh child per build, so the limits
    # cost a fork, not WeasyPrint's import, and the child never inherits the caller's threads or state.
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(["generator.sandbox", "weasyprint"])
    return ctx


def start_renderer() -> None:
    """Check the render limits and start the fork server early, so its import of WeasyPrint overlaps the build's work."""
    render_limits()
    if _context().get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def _limit_self(seconds: float, memory_mb: int, cpu: bool = True) -> None:
    """In the child: cap address space and CPU time, and die with the process that forked us.

    A long-lived worker that renders many parts (the booklet's) passes cpu=False: CPU time adds
    up over its parts, so its parent keeps the clock instead.
    """
    try:
        import resource
    except ImportError:  # not POSIX: the parent's wall clock still holds
        return
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if cpu:  # a backstop for an orphan whose parent was killed: CPU seconds can only run out
        limit_cpu = int(seconds) + 5
        resource.setrlimit(resource.RLIMIT_CPU, (limit_cpu, limit_cpu + 5))
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (Linux)
    except (OSError, AttributeError):
        pass


def _render_child(conn, jobs, seconds: float, memory_mb: int) -> None:
    _limit_self(seconds, memory_mb)
    try:
        result = ("ok", [html_to_pdf(*job) for job in jobs])
    except MemoryError:
        result = ("memory", "")
    except UnfitText as err:  # bad input, not a failure: the parent reports it at the scenario's line and column
        result = ("unfit", err.unfit)
    except RenderError as err:
        result = ("error", str(err))
    except Exception as err:  # a bug in Muster: the parent reports it as an internal error
        result = ("bug", f"{type(err).__name__}: {err}")
    try:
        conn.send(result)
    except MemoryError:
        conn.send(("memory", ""))
    conn.close()


def render_pdfs(jobs: list[tuple], file: str) -> list[bytes]:
    """Render each (html, base, scenario_folder) job to PDF bytes in one limited child; errors name the file.

    As with any multiprocessing use, a script that calls this must guard its entry point with
    `if __name__ == "__main__":` (the `muster` command and `python -m generator` do).
    """
    seconds, memory_mb = render_limits()
    ctx = _context()
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_render_child, args=(send, jobs, seconds, memory_mb), daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(seconds):
            raise RenderError(
                f"{file}: rendering took longer than {seconds:g} s (MUSTER_RENDER_SECONDS); "
                "the file is too large or hostile"
            )
        try:
            kind, payload = receive.recv()
        except EOFError:  # the child died without a word: a signal, or memory C code could not get
            child.join(5)
            code = child.exitcode
            how = f"killed by {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit status {code}"
            raise RenderError(
                f"{file}: rendering stopped ({how}); it may have passed the memory limit of "
                f"{memory_mb} MiB (MUSTER_RENDER_MEMORY_MB)"
            ) from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    if kind == "ok":
        return payload
    if kind == "memory":
        raise RenderError(
            f"{file}: rendering needed more than {memory_mb} MiB (MUSTER_RENDER_MEMORY_MB); "
            "the file is too large or hostile"
        )
    if kind == "unfit":
        raise UnfitText(payload)
    if kind == "error":
        raise RenderError(f"{file}: {payload}")
    raise RuntimeError(f"the render child failed: {payload}")


def _pool_job(function: Callable, file: str, argument):
    """In a pool worker: one job, its render errors naming its file as render_pdfs' do."""
    try:
        return function(argument)
    except RenderError as err:
        raise RenderError(f"{file}: {err}") from err
    except MemoryError:
        seconds, memory_mb = render_limits()
        raise RenderError(f"{file}: rendering needed more than {memory_mb} MiB (MUSTER_RENDER_MEMORY_MB)") from None


def render_in_pool(
    function: Callable, jobs: list[tuple[str, object]], workers: int, done: Callable[[int, object], None], name: str
) -> None:
    """Call function(argument) for each (file, argument) job in up to `workers` limited processes, in the order given.

    done(index, result) runs in this process as each job finishes; errors name the job's file, or `name` (such
    as "the booklet") when the whole lot runs out of time. After any failure every worker is killed.
    """
    if not jobs:
        return
    # Scenario files come from strangers: jobs run in worker processes under the same memory limit as a
    # single build's render child, and the whole lot under its clock (per job, shared between the workers).
    # spawn: workers start clean and are our own children, so their time and memory count as ours.
    seconds, memory_mb = render_limits()
    workers = max(1, min(workers, len(jobs)))
    deadline = seconds * len(jobs) / workers + 15  # 15 s for the workers to start and import WeasyPrint
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_limit_self,
        initargs=(seconds, memory_mb, False),
    )
    try:
        futures = {
            pool.submit(_pool_job, function, file, argument): index for index, (file, argument) in enumerate(jobs)
        }
        for future in as_completed(futures, timeout=deadline):
            index = futures[future]
            try:
                done(index, future.result())
            except MemoryError:
                raise RenderError(
                    f"{jobs[index][0]}: rendering needed more than {memory_mb} MiB (MUSTER_RENDER_MEMORY_MB)"
                ) from None
            except BrokenProcessPool:
                raise RenderError(
                    f"{jobs[index][0]}: a render worker died; it may have passed the memory limit of "
                    f"{memory_mb} MiB (MUSTER_RENDER_MEMORY_MB)"
                ) from None
    except FuturesTimeout:
        _kill(pool)
        raise RenderError(
            f"{name} took longer than {deadline:g} s to render (MUSTER_RENDER_SECONDS per part); "
            "a scenario is too large or hostile"
        ) from None
    except BaseException:
        _kill(pool)
        raise
    pool.shutdown(wait=True)


def _kill(pool: ProcessPoolExecutor) -> None:
    """Stop every worker now: after a failure no orphan may keep rendering."""
    # concurrent.futures offers no public way to kill its workers; _processes is the standard library's own
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        if process.is_alive():
            process.kill()
    pool.shutdown(wait=True, cancel_futures=True)
