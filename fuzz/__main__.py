"""python -m fuzz --cases N --seed S [--jobs J] [--out DIR] [--target T ...] | --self-check"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

# One thread per case process: the cases run side by side on few cores.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from fuzz.campaign import TARGETS, replay, run_and_count, run_campaign, table  # noqa: E402
from fuzz.self_check import fake_cases  # noqa: E402


def self_check(timeout: float) -> bool:
    """Every fake case lands in the class it stands for."""
    with tempfile.TemporaryDirectory(prefix="ipu-fuzz-check-") as scratch:
        cases = fake_cases()
        result = run_and_count(cases, Path(scratch), jobs=len(cases), timeout=timeout, out=None)
    expected = Counter(case.note for case in cases)
    for outcome, count in sorted(expected.items()):
        got = sum(n for (_, c), n in result.counts.items() if c == outcome)
        print(f"{outcome:>16}: {'detected' if got == count else f'MISSED ({got} of {count})'}")
    return all(sum(n for (_, c), n in result.counts.items() if c == o) == k for o, k in expected.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__)
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--out", type=Path, default=Path("fuzz-out"), help="where reproducers of failures go")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds before a case is a hang")
    parser.add_argument("--target", action="append", choices=TARGETS, help="only these targets (repeatable)")
    parser.add_argument("--self-check", action="store_true", help="check that every failure class is detected")
    parser.add_argument("--replay", type=Path, nargs="+", metavar="PATH",
                        help="run saved cases (case.json files or folders, e.g. fuzz/corpus) instead of generating")
    args = parser.parse_args(argv)
    if args.self_check:
        return 0 if self_check(min(args.timeout, 2.0)) else 1
    started = time.monotonic()
    progress = lambda line: print(line, flush=True)  # noqa: E731
    if args.replay:
        result = replay(args.replay, args.jobs, args.timeout, args.out, progress)
        what = f"{sum(result.counts.values())} saved cases"
    else:
        result = run_campaign(
            args.seed, args.cases, tuple(args.target or TARGETS), args.jobs, args.timeout, args.out, progress
        )
        what = f"{args.cases} cases, seed {args.seed}"
    print(table(result.counts, result.seconds))
    print(f"{what}, {time.monotonic() - started:.0f} s; "
          + (f"{len(result.failures)} failures, reproducers in {args.out}/" if result.failed else "no failures"))
    return 1 if result.failed else 0


if __name__ == "__main__":
    sys.exit(main())
