"""Outcome classes of a fuzz case, from what its process left behind.

A tool keeps its promise when it exits 0, or exits 1 with exactly one stderr line of the
form `<place>: error: <message>` (after any one-line `warning: <message>` of its own) and
leaves every file as it was. Everything else is a failure class that a campaign counts and
reports."""

from __future__ import annotations

import signal
from dataclasses import dataclass

OK = "ok"
DIAGNOSTIC = "diagnostic"
TRACEBACK = "traceback"
INTERNAL = "internal-error"
MULTILINE = "multiline"
HANG = "hang"
CRASH = "crash"
WRITE_ON_ERROR = "write-on-error"
CANARY = "canary"
WRONG = "wrong-answer"
MEMORY = "memory"

PASSING = (OK, DIAGNOSTIC)
FAILING = (CANARY, CRASH, HANG, WRITE_ON_ERROR, WRONG, MEMORY, TRACEBACK, INTERNAL, MULTILINE)
"""Worst first: a case that fails several ways is counted under the first."""

WRONG_MARKER = "fuzz-wrong:"
"""A runtime-misuse snippet that finds a silently wrong result prints this and exits WRONG_EXIT."""
WRONG_EXIT = 3
MEMORY_LIMIT_MIB = 512
"""Memory a case may take beyond what the tools take once imported: inputs are under
1 MB, and the loaders' own limits are 256 MiB."""


@dataclass(frozen=True)
class Finished:
    """What the runner saw of one case's process."""

    status: int | None  # the exit code, None when a signal ended it
    signal: int | None
    timed_out: bool
    stderr: str
    files_changed: tuple[str, ...]
    canary: bool
    injected: tuple[str, ...]  # emitted C++ files that carry a payload's text (its canary's name)
    seconds: float
    extra_memory_mib: int


def classify(run: Finished, must_fail: bool = False) -> tuple[str, str]:
    """The outcome class of a finished case and a one-line reason; `must_fail` cases
    (input the tool must refuse) that exit 0 are wrong answers."""
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    if run.canary:
        return CANARY, "the canary file exists: input was executed"
    if run.injected:
        return CANARY, f"a payload reached the emitted C++: {', '.join(run.injected)}"
    if run.timed_out:
        return HANG, "no exit within the time limit"
    if run.signal is not None:
        return CRASH, f"killed by {signal.Signals(run.signal).name}"
    if run.status == WRONG_EXIT and any(WRONG_MARKER in line for line in lines):
        return WRONG, next(line for line in lines if WRONG_MARKER in line)
    if run.status == 2 and any(line.startswith("usage:") for line in lines):
        return MULTILINE, "a usage message (exit 2): " + lines[-1][:200]
    if run.status not in (0, 1):
        return CRASH, f"exit code {run.status}"
    if run.extra_memory_mib > MEMORY_LIMIT_MIB:
        return MEMORY, f"{run.extra_memory_mib} MiB more than the tools take at rest"
    if run.status != 0 and run.files_changed:
        return WRITE_ON_ERROR, f"changed on error: {', '.join(run.files_changed)}"
    if any(line.startswith("Traceback") for line in lines):
        return TRACEBACK, lines[-1]
    if run.status == 0:
        return (WRONG, "exit 0 on input it must refuse") if must_fail else (OK, "")
    if any("internal error" in line for line in lines):
        return INTERNAL, lines[-1]
    errors = [line for line in lines if not line.startswith("warning: ")]
    if len(errors) != 1 or "error: " not in errors[0]:
        return MULTILINE, f"{len(lines)} stderr lines: " + " | ".join(lines[:3])[:300]
    return DIAGNOSTIC, errors[0]
