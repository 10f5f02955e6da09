"""Compile time of ipu-opt against DaCe's own code generator, on chains of states.

Generates SDFGs of 10, 50 and 200 states in sequence, each one elementwise map over
N = 1e6 float32 elements (state k reads the array state k-1 wrote), saves each as a
.sdfg file and times, as fresh processes on the same file:

- `ipu-opt FILE --symbols N=1000000 -p sdfg-to-poplar -t poplar-cpp -o DIR`
- DaCe: `dace.SDFG.from_file(FILE).generate_code()` (C++ generation, no compiler)

Both pay Python start-up and `import dace`. Prints the best of `--repeats` runs, the
ratio ipu-opt / DaCe (below 1 is faster than DaCe) and how each grows with the state
count (linear growth from 50 to 200 states is 4x).
Run: python benchmarks/compile_time.py [--states 10,50,200] [--repeats 3]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import dace

N = dace.symbol("N")

DACE_CODEGEN = "import sys, dace; dace.SDFG.from_file(sys.argv[1]).generate_code()"


def chain_sdfg(states: int) -> dace.SDFG:
    """x -> t0 -> t1 -> ... -> y, one elementwise map per state (two buffers reused)."""
    sdfg = dace.SDFG(f"chain_{states}")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_array("y", [N], dace.float32)
    for name in ("t0", "t1"):
        sdfg.add_array(name, [N], dace.float32, transient=True)
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


def best_time(command: list[str], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            raise SystemExit(f"{' '.join(command[:3])} ... failed:\n{result.stderr[-2000:]}")
        best = min(best, elapsed)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", default="10,50,200")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    counts = [int(s) for s in args.states.split(",")]

    header = f"{'states':>7} {'ipu-opt s':>10} {'DaCe s':>8} {'ipu/DaCe':>9} {'ipu growth':>11} {'DaCe growth':>12}"
    print("compile time: ipu-opt -p sdfg-to-poplar -t poplar-cpp vs DaCe generate_code(), N=1e6")
    print(header)
    print("-" * len(header))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for states in counts:
            path = Path(tmp) / f"chain_{states}.sdfg"
            chain_sdfg(states).save(str(path))
            ours = best_time(
                [sys.executable, "-m", "ipu_lower.cli", str(path), "--symbols", "N=1000000",
                 "-p", "sdfg-to-poplar", "-t", "poplar-cpp", "-o", str(Path(tmp) / f"out_{states}")],
                args.repeats,
            )
            theirs = best_time([sys.executable, "-c", DACE_CODEGEN, str(path)], args.repeats)
            growth = "" if not rows else f"{ours / rows[-1][1]:>10.2f}x"
            dace_growth = "" if not rows else f"{theirs / rows[-1][2]:>11.2f}x"
            rows.append((states, ours, theirs))
            print(f"{states:>7} {ours:>10.2f} {theirs:>8.2f} {ours / theirs:>9.2f} {growth:>11} {dace_growth:>12}")
    faster = all(ours < theirs for _, ours, theirs in rows)
    print(f"ipu-opt faster than DaCe's code generator at every size: {'yes' if faster else 'NO'}")
    by_states = {states: ours for states, ours, _ in rows}
    if 50 in by_states and 200 in by_states:
        ratio = by_states[200] / by_states[50]
        print(f"200 states / 50 states: {ratio:.2f}x (target: at most 5x) {'ok' if ratio <= 5 else 'TOO SLOW'}")


if __name__ == "__main__":
    main()
