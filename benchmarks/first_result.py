"""Time to first result: a new process, from its start to the first call returning.

- saxpy (N = 1000) from a fresh, empty cache: the process builds the emulator library
  and its precompiled headers, lowers saxpy, builds its library and calls it;
- a 1000x1000 softmax over rows (`x - max`, `exp`, `/ sum`) with a warm cache: the
  process finds the lowering and the library in the cache and pays the import, DaCe's
  parsing of the program and the graph construction of the library's init.

Each is a fresh Python process running a script (DaCe reads a program's source from its
file), timed from outside: wall time, and the CPU time of
the process and everything it waited for (g++), from getrusage of the children, since
on a busy machine wall time says more about the load than about the build. Each number
is the best of `--repeats` runs (the first softmax run warms the cache and is not counted).
Run: python benchmarks/first_result.py [--repeats 2]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

SAXPY = """
import numpy as np
import ipu_lower
from ipu_lower.examples.saxpy import saxpy
x = np.arange(1000, dtype=np.float32)
y = np.ones(1000, np.float32)
ipu_lower.compile(saxpy, symbols={"N": 1000})(np.float32(2), x, y)
assert (y == 2 * x + 1).all()
"""

SOFTMAX = """
import dace
import numpy as np
import ipu_lower
M = dace.symbol("M")
N = dace.symbol("N")
@dace.program
def softmax(x: dace.float32[M, N], out: dace.float32[M, N]):
    top = np.max(x, axis=-1)
    e = np.exp(x - top[:, np.newaxis])
    out[:] = e / np.sum(e, axis=-1)[:, np.newaxis]
x = np.random.default_rng(0).standard_normal((1000, 1000)).astype(np.float32)
out = np.zeros_like(x)
ipu_lower.compile(softmax, symbols={"M": 1000, "N": 1000})(x, out)
e = np.exp(x - x.max(axis=1, keepdims=True))
np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)
"""


def timed(code: str, cache: str) -> tuple[float, float]:
    """Wall and CPU seconds of a new Python process running `code` with `cache`."""
    script = os.path.join(os.path.dirname(cache), "first_result_case.py")
    with open(script, "w") as file:
        file.write(code)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run([sys.executable, script], check=True, env={**os.environ, "IPU_LOWER_CACHE": cache})
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    repeats = parser.parse_args().repeats
    saxpy, softmax = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="ipu-lower-first-") as folder:
            saxpy.append(timed(SAXPY, os.path.join(folder, "cache")))
    with tempfile.TemporaryDirectory(prefix="ipu-lower-first-") as folder:
        cache = os.path.join(folder, "cache")
        timed(SOFTMAX, cache)  # warms the cache
        softmax = [timed(SOFTMAX, cache) for _ in range(repeats)]
    print(f"{'case':<44} {'wall s':>8} {'CPU s':>8}")
    for name, runs in (("saxpy N=1000, fresh cache (emulator built)", saxpy), ("softmax 1000x1000, warm cache", softmax)):
        wall, cpu = min(runs)
        print(f"{name:<44} {wall:>8.1f} {cpu:>8.1f}")
    print(f"({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end: wall time on a busy machine is mostly waiting)")


if __name__ == "__main__":
    main()
