"""Runs cases in forked children of a process that imported the tools once (a fresh
ipu-opt spends 1-2 s importing xDSL, DaCe and sympy). Each child gets its own directory,
process group and stderr file; the parent kills it at the time limit and compares the
directory before and after."""

from __future__ import annotations

import faulthandler
import hashlib
import importlib
import os
import runpy
import shutil
import signal
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from fuzz.cases import CANARY_NAME, Case
from fuzz.outcomes import Finished

Tool = Callable[[list[str]], None]
POLL_SECONDS = 0.01


def _ipu_opt(argv: list[str]) -> None:
    from ipu_lower.cli import ipu_opt_main

    sys.argv = ["ipu-opt", *argv]  # argparse names the program after it
    ipu_opt_main(argv)


def _ipu_run(argv: list[str]) -> None:
    from ipu_lower.run_cli import ipu_run_main

    sys.argv = ["ipu-run", *argv]
    ipu_run_main(argv)


def _ipu_lower_report(argv: list[str]) -> None:
    from ipu_lower.report_html import ipu_lower_report_main

    sys.argv = ["ipu-lower-report", *argv]
    ipu_lower_report_main(argv)


def _python(argv: list[str]) -> None:
    sys.argv = list(argv)
    runpy.run_path(argv[0], run_name="__main__")


TOOLS: dict[str, Tool] = {
    "ipu-opt": _ipu_opt, "ipu-run": _ipu_run, "ipu-lower-report": _ipu_lower_report, "python": _python, "fake": _python,
}


def preload() -> None:
    """Import what the tools import, once, before the first fork."""
    import ipu_lower.cli  # noqa: F401
    import ipu_lower.report_html  # noqa: F401
    import ipu_lower.run_cli  # noqa: F401


def _snapshot(directory: Path) -> dict[str, str]:
    """Every file under `directory` (the canary apart) and a hash of its content."""
    files = {}
    for path in sorted(directory.rglob("*")):
        if path.is_file() and path.name != CANARY_NAME:
            files[str(path.relative_to(directory))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return files


def _changed(before: dict[str, str], after: dict[str, str]) -> tuple[str, ...]:
    return tuple(sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name)))


def _restore_warnings() -> None:
    """The warning filters and printing the interpreter started with: a caller such as
    pytest records warnings instead of printing them, which would hide the ones that leak."""
    importlib.reload(warnings)


def _child(tool: Tool, argv: list[str], directory: Path, stderr_path: Path) -> None:
    """In the forked child: never returns."""
    code = 1
    try:
        os.setpgid(0, 0)
        faulthandler.disable()  # pytest's writes a crash's stack to the terminal, not to the case's stderr
        os.chdir(directory)
        # The child ends in os._exit (below), so atexit never runs: a case's temporary
        # files go into a folder of its own beside its directory (not in it: what changes
        # there is the case's output), which run_cases removes when the case ends.
        tempfile.tempdir = os.environ["TMPDIR"] = str(_scratch(directory))
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(os.open(stderr_path.with_suffix(".out"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 1)
        os.dup2(os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
        # The parent's streams may not be the file descriptors (pytest captures them).
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - flushed at os._exit below
        sys.stderr = open(2, "w", closefd=False, errors="backslashreplace")  # noqa: SIM115 - as the interpreter's
        _restore_warnings()
        tool(argv)
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
        if not isinstance(exit_.code, int | None):
            print(exit_.code, file=sys.stderr)
    except BaseException:  # as the interpreter does with an uncaught exception
        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # a closed or broken stream: nothing more to save
                pass
        os._exit(code)


class _Running:
    def __init__(self, index: int, case: Case, directory: Path, stderr_path: Path, pid: int, before: dict[str, str]):
        self.index, self.case, self.directory, self.stderr_path = index, case, directory, stderr_path
        self.pid, self.before, self.started = pid, before, time.monotonic()
        self.timed_out = False
        self.peak_kib = 0  # the child's peak resident memory, counted from the fork (pages it shares too)


def run_cases(
    cases: Iterable[Case], workdir: Path, jobs: int = 2, timeout: float = 10.0
) -> Iterator[tuple[int, Case, Path, Finished]]:
    """Run every case, at most `jobs` at a time; yields (index, case, directory, result)
    in the order they finish."""
    pending = iter(enumerate(cases))
    running: dict[int, _Running] = {}
    exhausted = False
    while running or not exhausted:
        while not exhausted and len(running) < jobs:
            item = next(pending, None)
            if item is None:
                exhausted = True
                break
            started = _start(*item, workdir)
            running[started.pid] = started
        ended = _reap(running)
        if ended is None:
            _kill_overdue(running.values(), timeout)
            time.sleep(POLL_SECONDS)
            continue
        done, status = ended
        _kill_group(done.pid)  # what the case started and left behind
        shutil.rmtree(_scratch(done.directory), ignore_errors=True)
        yield done.index, done.case, done.directory, _finished(done, status)


def _reap(running: dict[int, _Running]) -> tuple[_Running, int] | None:
    """A case whose process ended, and its wait status. Only our own children are
    waited for: the caller (pytest, say) may have others."""
    for pid in list(running):
        ended, status, usage = os.wait4(pid, os.WNOHANG)
        if ended:
            done = running.pop(pid)
            done.peak_kib = usage.ru_maxrss
            return done, status
    return None


def _scratch(directory: Path) -> Path:
    """The folder of a case's temporary files."""
    return directory.with_name(directory.name + ".tmp")


def _start(index: int, case: Case, workdir: Path) -> _Running:
    directory = workdir / f"case-{index}"
    directory.mkdir(parents=True)
    _scratch(directory).mkdir()
    argv = list(case.materialize(directory))
    before = _snapshot(directory)
    stderr_path = workdir / f"case-{index}.err"
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _child(TOOLS[case.tool], argv, directory, stderr_path)
    return _Running(index, case, directory, stderr_path, pid, before)


WALL_FACTOR = 6
"""A case hangs when it has computed for the time limit, or waited WALL_FACTOR times as
long: on a loaded machine wall time alone would call slow cases hangs."""


def _kill_overdue(running: Iterable[_Running], timeout: float) -> None:
    now = time.monotonic()
    for case in running:
        wall = now - case.started
        if not case.timed_out and (wall > WALL_FACTOR * timeout or (wall > timeout and _cpu_seconds(case.pid) > timeout)):
            case.timed_out = True
            _kill_group(case.pid)


def _cpu_seconds(pid: int) -> float:
    """User and system time of a running process (its threads included)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _resident_kib() -> int:
    """This process's resident memory now: what a forked child starts with."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def _finished(done: _Running, status: int) -> Finished:
    stderr = done.stderr_path.read_text(errors="replace") if done.stderr_path.exists() else ""
    signalled = os.WIFSIGNALED(status) and not done.timed_out
    after = _snapshot(done.directory)
    return Finished(
        status=os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        signal=os.WTERMSIG(status) if signalled else None,
        timed_out=done.timed_out,
        stderr=stderr,
        files_changed=_changed(done.before, after),
        canary=(done.directory / CANARY_NAME).exists(),
        # A payload names the canary by its path: its text in C++ (code, a comment or a
        # string) holds `/CANARY`; a name made of it (`..._case_7_CANARY_w`) is no code.
        injected=tuple(
            name for name in _changed(done.before, after)
            if name.endswith(".cpp") and f"/{CANARY_NAME}".encode() in (done.directory / name).read_bytes()
        ),
        seconds=time.monotonic() - done.started,
        extra_memory_mib=max(0, done.peak_kib - _resident_kib()) // 1024,
    )
