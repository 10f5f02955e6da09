"""saxpy on the CPU emulator at 1, 4 and 16 million elements.

For each size: the emulator's wall time for one call, the cost model's estimate of IPU
cycles (BSP: busiest tile + exchange + sync per step), and the cost model's own ideal:
the same vertex work spread perfectly over all tiles and workers, with no exchange and
no sync. Run: python benchmarks/saxpy.py [--arch ipu2] [--sizes 1,4,16]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

import ipu_lower  # noqa: E402
from saxpy import saxpy  # noqa: E402


def ideal_cycles(report: dict) -> float:
    """Total vertex cycles of all tiles, divided evenly over the tiles."""
    column = report["tile_columns"].index("compute_cycles")
    work = sum(row[column] for row in report["tiles"])
    return work / report["num_tiles"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default="ipu2")
    parser.add_argument("--sizes", default="1,4,16", help="millions of elements")
    args = parser.parse_args()
    header = f"{'elements':>10} {'build s':>8} {'run s':>8} {'IPU cycles':>11} {'ideal':>10} {'ratio':>6} {'IPU us':>8}"
    print(f"saxpy on the emulator ({args.arch})")
    print(header)
    print("-" * len(header))
    rng = np.random.default_rng(0)
    for millions in (int(m) for m in args.sizes.split(",")):
        n = millions * 1024 * 1024
        start = time.perf_counter()
        program = ipu_lower.compile(saxpy, symbols={"N": n}, arch=args.arch)
        built = time.perf_counter() - start
        x = rng.random(n, dtype=np.float32)
        y = rng.random(n, dtype=np.float32)
        expected = np.float32(2.0) * x + y
        start = time.perf_counter()
        program(np.float32(2.0), x, y)
        ran = time.perf_counter() - start
        np.testing.assert_allclose(y, expected, rtol=1e-6)
        report = program.report
        ideal = ideal_cycles(report)
        print(
            f"{n:>10} {built:>8.2f} {ran:>8.2f} {report['total_cycles']:>11} {ideal:>10.0f} "
            f"{report['total_cycles'] / ideal:>6.2f} {report['estimated_seconds'] * 1e6:>8.1f}"
        )
        program.close()


if __name__ == "__main__":
    main()
