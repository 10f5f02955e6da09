"""Compile time of ipu-opt against DaCe's own code generator, on chains of states.

Generates SDFGs of 10, 50 and 200 states in sequence, each one elementwise map over
N = 1e6 float32 elements (state k reads the array state k-1 wrote), saves each as a
.sdfg file and measures, in fresh processes on the same file:

- the whole command: `ipu-opt FILE --symbols N=1000000 -p sdfg-to-poplar -t poplar-cpp
  -o DIR`, against `python -c "dace.SDFG.from_file(FILE).generate_code()"`; both pay
  Python start-up and `import dace`, and ipu-opt also imports xDSL;
- the code generator alone, in process, once the SDFG is loaded: ipu-opt's lowering
  (every pass of sdfg-to-poplar, with the IR verified before the first and after the
  last as ipu-opt does, and the poplar-cpp printer) against DaCe's `generate_code()`.

Both load the file with DaCe's `SDFG.from_json` (ipu-opt after its safety check). The
two sides run alternately (ours, DaCe's, ours, ...), so that a change in the machine's
load falls on both, and each number is the median of `--repeats` runs: elapsed seconds,
and for whole commands also the CPU seconds (user + sys) of the process, which a busy
machine inflates less. Linear growth from 50 to 200 states is 4x.
Run: python benchmarks/compile_time.py [--states 10,50,200] [--repeats 3]

`--large` measures instead how ipu-opt scales with the size of one SDFG: chains with
thousands of unused transient containers and of 250, 500 and 1,000 states, the whole
command and the lowering in process, and the growth from each size to the next (linear:
the ratio of the sizes).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import dace

N = dace.symbol("N")

# Each prints {"load": seconds, "generate": seconds} for the file in argv[1].
DACE_IN_PROCESS = """
import json, sys, time
import dace
start = time.perf_counter()
sdfg = dace.SDFG.from_file(sys.argv[1])
loaded = time.perf_counter()
sdfg.generate_code()
print(json.dumps({"load": loaded - start, "generate": time.perf_counter() - loaded}))
"""

IPU_OPT_IN_PROCESS = """
import gc, io, json, sys, time
from xdsl.context import Context
from ipu_lower.frontend.frontends import SdfgFrontend
from ipu_lower.pipelines import SdfgToPoplarPass
from ipu_lower.targets.poplar_cpp import PoplarCppTarget
import dace
start = time.perf_counter()
with open(sys.argv[1], "rb") as f:
    module = SdfgFrontend().parse(Context(), f, sys.argv[1])
gc.freeze()  # as ipu-opt does once its input is loaded
loaded = time.perf_counter()
ctx = Context()
SdfgToPoplarPass(symbols="N=1000000").apply(ctx, module)  # verifies as ipu-opt does
PoplarCppTarget().emit(ctx, module, io.StringIO())
print(json.dumps({"load": loaded - start, "generate": time.perf_counter() - loaded}))
"""


def chain_sdfg(states: int, unused: int = 0) -> dace.SDFG:
    """x -> t0 -> t1 -> ... -> y, one elementwise map per state (two buffers reused), and
    `unused` transient containers no state accesses."""
    sdfg = dace.SDFG(f"chain_{states}")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_array("y", [N], dace.float32)
    for name in ("t0", "t1"):
        sdfg.add_array(name, [N], dace.float32, transient=True)
    for k in range(unused):
        sdfg.add_array(f"unused{k}", [N], dace.float32, transient=True)
    previous = None
    for k in range(states):
        source = "x" if k == 0 else f"t{(k - 1) % 2}"
        target = "y" if k == states - 1 else f"t{k % 2}"
        state = sdfg.add_state(f"s{k}")
        state.add_mapped_tasklet(
            f"step{k}",
            {"i": "0:N"},
            {"a": dace.Memlet(f"{source}[i]")},
            "b = a * dace.float32(1.5) + dace.float32(0.5)",
            {"b": dace.Memlet(f"{target}[i]")},
            external_edges=True,
        )
        if previous is not None:
            sdfg.add_edge(previous, state, dace.InterstateEdge())
        previous = state
    sdfg.validate()
    return sdfg


class Run(NamedTuple):
    """One process: elapsed and CPU (user + sys) seconds, and what it printed."""

    elapsed: float
    cpu: float
    stdout: str


def run(command: list[str]) -> Run:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])} ... failed:\n{result.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(elapsed, cpu, result.stdout)


def alternated(commands: list[list[str]], repeats: int) -> list[list[Run]]:
    """Each command `repeats` times, taking turns: the runs of command k are result[k]."""
    runs: list[list[Run]] = [[] for _ in commands]
    for _ in range(repeats):
        for command, done in zip(commands, runs):
            done.append(run(command))
    return runs


def median(values) -> float:
    return statistics.median(values)


def generate_seconds(runs: list[Run]) -> float:
    """The median of the in-process code generator's seconds the runs printed."""
    return median(json.loads(r.stdout)["generate"] for r in runs)


def ipu_opt_command(path: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "ipu_lower.cli", str(path), "--symbols", "N=1000000",
            "-p", "sdfg-to-poplar", "-t", "poplar-cpp", "-o", str(out)]


DACE_COMMAND = "import sys, dace; dace.SDFG.from_file(sys.argv[1]).generate_code()"


def large(sizes: list[tuple[int, int]], repeats: int) -> None:
    """The table of `--large`: seconds against (unused containers, states)."""
    print(f"ipu-opt on large SDFGs (seconds, median of {repeats}, command and lowering alternated)")
    header = (f"{'containers':>10} {'states':>6} | {'command':>8} {'lowering':>8} | "
              f"{'size x':>6} {'command x':>9} {'lowering x':>10}")
    print(header)
    print("-" * len(header))
    previous = None
    with tempfile.TemporaryDirectory() as tmp:
        for unused, states in sizes:
            path = Path(tmp) / f"large_{unused}_{states}.sdfg"
            chain_sdfg(states, unused).save(str(path))
            commands, lowerings = alternated(
                [ipu_opt_command(path, Path(tmp) / "out"), [sys.executable, "-c", IPU_OPT_IN_PROCESS, str(path)]],
                repeats,
            )
            command = median(r.elapsed for r in commands)
            lowering = generate_seconds(lowerings)
            # growth against the previous row of the same series (containers or states)
            same_series = previous is not None and (previous[0] == unused or previous[1] == states)
            growth = ""
            if same_series:
                size = (unused / previous[0]) if previous[1] == states else (states / previous[1])
                growth = f"{size:>6.1f} {command / previous[2]:>9.2f} {lowering / previous[3]:>10.2f}"
            print(f"{unused:>10} {states:>6} | {command:>8.2f} {lowering:>8.3f} | {growth}")
            previous = (unused, states, command, lowering)


class Row(NamedTuple):
    """Medians at one size: whole processes (elapsed and CPU seconds), code generators in process."""

    states: int
    ours: float
    theirs: float
    ours_cpu: float
    theirs_cpu: float
    lowering: float
    codegen: float


def measure(states: int, tmp: Path, repeats: int) -> Row:
    path = tmp / f"chain_{states}.sdfg"
    chain_sdfg(states).save(str(path))
    ours, theirs, lowering, codegen = alternated(
        [
            ipu_opt_command(path, tmp / f"out_{states}"),
            [sys.executable, "-c", DACE_COMMAND, str(path)],
            [sys.executable, "-c", IPU_OPT_IN_PROCESS, str(path)],
            [sys.executable, "-c", DACE_IN_PROCESS, str(path)],
        ],
        repeats,
    )
    return Row(
        states,
        median(r.elapsed for r in ours),
        median(r.elapsed for r in theirs),
        median(r.cpu for r in ours),
        median(r.cpu for r in theirs),
        generate_seconds(lowering),
        generate_seconds(codegen),
    )


def verdict(rows: list[Row], repeats: int) -> list[str]:
    """What the table says, in words: the numbers as measured, whichever way they went."""
    lines = []
    for row in rows:
        faster = row.ours < row.theirs
        lines.append(
            f"{row.states} states: the whole ipu-opt command is {'faster' if faster else 'SLOWER'} than DaCe's "
            f"whole generate_code() process ({row.ours:.2f} s against {row.theirs:.2f} s elapsed, "
            f"{row.ours_cpu:.2f} s against {row.theirs_cpu:.2f} s of CPU; median of {repeats}, alternated)"
        )
    faster = all(r.lowering < r.codegen for r in rows)
    lines.append(f"ipu-opt's lowering faster than DaCe's generate_code() at every size: {'yes' if faster else 'NO'}")
    by_states = {row.states: row for row in rows}
    if 50 in by_states and 200 in by_states:
        command = by_states[200].ours / by_states[50].ours
        lowering = by_states[200].lowering / by_states[50].lowering
        ok = "ok" if max(command, lowering) <= 5 else "TOO SLOW"
        lines.append(f"200 states / 50 states: whole command {command:.2f}x, lowering {lowering:.2f}x "
                     f"(target: at most 5x) {ok}")
    load = os.getloadavg()[0]
    lines.append(f"load average when done: {load:.1f} on {os.cpu_count()} cores"
                 + (" (a busy machine: compare the CPU seconds)" if load > 1 else ""))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", default="10,50,200")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--large", action="store_true", help="scaling with unused containers and states")
    args = parser.parse_args()
    if args.large:
        large([(500, 10), (2000, 10), (8000, 10), (0, 250), (0, 500), (0, 1000)], args.repeats)
        return
    counts = [int(s) for s in args.states.split(",")]

    print(f"compile time, chains of elementwise states at N=1e6 (seconds, median of {args.repeats}, "
          "ours and DaCe's alternated): ipu-opt -p sdfg-to-poplar -t poplar-cpp vs DaCe generate_code()")
    header = (f"{'states':>6} | {'ipu-opt':>8} {'DaCe':>6} {'ratio':>6} {'cpu x':>6} | {'lowering':>8} "
              f"{'codegen':>8} {'ratio':>6} {'growth':>7}")
    print(f"{'':>6} | {'whole command':^29} | {'code generator, in process':^32}")
    print(header)
    print("-" * len(header))
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        for states in counts:
            row = measure(states, Path(tmp), args.repeats)
            growth = f"{row.lowering / rows[-1].lowering:.2f}x" if rows else ""
            rows.append(row)
            print(f"{states:>6} | {row.ours:>8.2f} {row.theirs:>6.2f} {row.ours / row.theirs:>6.2f} "
                  f"{row.ours_cpu / row.theirs_cpu:>6.2f} | {row.lowering:>8.3f} {row.codegen:>8.3f} "
                  f"{row.lowering / row.codegen:>6.2f} {growth:>7}")
    print("\n".join(verdict(rows, args.repeats)))


if __name__ == "__main__":
    main()
