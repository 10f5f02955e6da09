"""A campaign: cases drawn from the targets by a seeded generator, run, classified, counted;
the failing ones written out as reproducers."""

from __future__ import annotations

import random
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from fuzz import cache_cases, compiler_cases, corpus, outcomes, report_cases, runtime_cases
from fuzz.cases import Case
from fuzz.runner import preload, run_cases

STANDALONE_TARGETS: dict[str, Callable[[random.Random], Case]] = {
    "sdfg-mutation": compiler_cases.sdfg_mutation,
    "mlir-mutation": compiler_cases.mlir_mutation,
    "hostile-strings": compiler_cases.hostile_strings,
    "oversized": compiler_cases.oversized,
    "bad-options": compiler_cases.bad_options,
    "compressed": compiler_cases.compressed,
    "report-page": report_cases.report_page,
}
"""Targets whose cases need nothing but the seed; RUNTIME_TARGETS' need the built programs."""
RUNTIME_TARGETS: dict[str, Callable[[random.Random, dict[str, bytes]], Case]] = {
    "python-misuse": runtime_cases.python_misuse,
    "ipu-run-misuse": runtime_cases.ipu_run_misuse,
    "cache-tampering": cache_cases.cache_tampering,
}
TARGETS = (*STANDALONE_TARGETS, *RUNTIME_TARGETS)


@dataclass
class Result:
    counts: Counter = field(default_factory=Counter)  # (target, class) -> cases
    seconds: Counter = field(default_factory=Counter)  # target -> seconds its cases ran
    failures: list[tuple[int, Case, str, str]] = field(default_factory=list)  # index, case, class, reason

    @property
    def failed(self) -> bool:
        return bool(self.failures)


def generate(seed: int, count: int, targets: tuple[str, ...], program: dict[str, bytes] | None) -> Iterator[Case]:
    """Case i depends only on the seed, i and the targets chosen from."""
    for index in range(count):
        rng = random.Random(f"{seed}:{index}")
        target = rng.choice(targets)
        if target in RUNTIME_TARGETS:
            yield RUNTIME_TARGETS[target](rng, program)
        else:
            yield STANDALONE_TARGETS[target](rng)


def run_campaign(
    seed: int, count: int, targets: tuple[str, ...] = TARGETS, jobs: int = 2, timeout: float = 10.0,
    out: Path | None = None, progress: Callable[[str], None] | None = None,
) -> Result:
    with tempfile.TemporaryDirectory(prefix="ipu-fuzz-") as scratch:
        workdir = Path(scratch)
        program = _prepare(workdir, any(t in RUNTIME_TARGETS for t in targets))
        cases = generate(seed, count, targets, program)
        return run_and_count(cases, workdir / "cases", jobs, timeout, out, progress, program)


def replay(paths: list[Path], jobs: int = 2, timeout: float = 10.0, out: Path | None = None, progress=None) -> Result:
    """Run saved cases (case.json files, or folders of them)."""
    files = sorted(f for p in paths for f in ([p] if p.is_file() else p.rglob("*.json")))
    texts = [f.read_text() for f in files]
    with tempfile.TemporaryDirectory(prefix="ipu-fuzz-") as scratch:
        workdir = Path(scratch)
        program = _prepare(workdir, any(corpus.uses_program(t) for t in texts))
        cases = [corpus.loads(t, program) for t in texts]
        return run_and_count(cases, workdir / "cases", jobs, timeout, out, progress, program)


def _prepare(workdir: Path, program_needed: bool) -> dict[str, bytes] | None:
    """Build saxpy when a case needs it, then import the tools (before the first fork)."""
    program = None
    if program_needed:
        (workdir / "saxpy").mkdir()
        program = runtime_cases.prepare(workdir / "saxpy")
    preload()
    return program


def run_and_count(
    cases, workdir: Path, jobs: int, timeout: float, out: Path | None, progress=None, program: dict[str, bytes] | None = None
) -> Result:
    result = Result()
    for index, case, directory, finished in run_cases(cases, workdir, jobs, timeout):
        outcome, reason = outcomes.classify(finished, case.must_fail)
        result.counts[case.target, outcome] += 1
        result.seconds[case.target] += finished.seconds
        if outcome in outcomes.FAILING:
            result.failures.append((index, case, outcome, reason))
            if out is not None:
                write_reproducer(out, index, case, outcome, reason, finished.stderr, program)
            if progress:
                progress(f"case {index} ({case.target}: {case.note[:80]}): {outcome}: {reason[:200]}")
        shutil.rmtree(directory, ignore_errors=True)
    return result


def write_reproducer(
    out: Path, index: int, case: Case, outcome: str, reason: str, stderr: str, program: dict[str, bytes] | None = None
) -> Path:
    """The case's files as they were before the run, its command line, what it printed,
    and the case as case.json (to replay, or to keep in fuzz/corpus/)."""
    directory = out / outcome / f"{case.target}-{index}"
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    case.materialize(directory)
    (directory / "REPRODUCE").write_text(  # an argument may be a file name that is not UTF-8
        f"# {case.target}: {case.note}\n# {outcome}: {reason}\ncd {directory} && {case.command_line()}\n",
        errors="backslashreplace",
    )
    (directory / "stderr.txt").write_text(stderr[-20000:])
    (directory / "case.json").write_text(corpus.dumps(case, program))
    return directory


def table(counts: Counter, seconds: Counter) -> str:
    """Counts by target (rows) and outcome class (columns), classes that occurred only,
    and the mean seconds a case of the target ran."""
    targets = sorted({t for t, _ in counts})
    classes = [c for c in (*outcomes.PASSING, *outcomes.FAILING) if any(counts[t, c] for t in targets)]
    width = max([len("target"), *map(len, targets)])
    lines = [" ".join([f"{'target':<{width}}", *(f"{c:>14}" for c in classes), f"{'total':>7}", f"{'s/case':>7}"])]
    for target in [*targets, "total"]:
        cells = [sum(counts[t, c] for t in (targets if target == "total" else [target])) for c in classes]
        spent = sum(seconds.values()) if target == "total" else seconds[target]
        mean = f"{spent / sum(cells):>7.2f}" if sum(cells) else f"{'-':>7}"
        lines.append(" ".join([f"{target:<{width}}", *(f"{n:>14}" for n in cells), f"{sum(cells):>7}", mean]))
    return "\n".join(lines)
