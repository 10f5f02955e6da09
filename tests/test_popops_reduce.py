"""End to end: DaCe `Reduce` nodes lowered to `popops::reduceWithOutput`, built for the
CPU emulator and compared with DaCe's CPU result; what the emulator measures of each
program (reductions run, syncs, bytes) is as planned."""

import shutil

import dace
import numpy as np
import pytest
from test_e2e import assert_as_planned, assert_same, run_dace, run_ipu

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")

M, N = dace.symbol("M"), dace.symbol("N")
RNG = np.random.default_rng(17)


@dace.program
def reductions(A: dace.float32[M, N], x: dace.float32[N], k: dace.int32[N], total: dace.float32[1],
               cols: dace.float32[N], rows: dace.float32[M], largest: dace.float32[1], smallest: dace.int32[1],
               product: dace.float32[1], acc: dace.float32[1]):
    total[0] = np.sum(A)
    cols[:] = np.sum(A, axis=0)
    rows[:] = np.sum(A, axis=1)
    largest[0] = np.max(A)
    smallest[0] = np.min(k)
    product[0] = dace.reduce(lambda a, b: a * b, x, identity=1)
    dace.reduce(lambda a, b: a + b, x, acc)  # no identity: onto acc's value


def test_reductions_match_dace():
    # one program, so one DaCe build and one emulator build: a whole-array sum, the sums
    # over each axis, a maximum, an int32 minimum, a product, and a sum onto a value
    m, n = 37, 301  # neither divides the tile count nor the vector width
    arrays = {"A": RNG.random((m, n), dtype=np.float32), "x": RNG.uniform(0.9, 1.1, n).astype(np.float32),
              "k": RNG.integers(-1000, 1000, n, dtype=np.int32), "total": np.zeros(1, np.float32),
              "cols": np.zeros(n, np.float32), "rows": np.zeros(m, np.float32), "largest": np.zeros(1, np.float32),
              "smallest": np.zeros(1, np.int32), "product": np.zeros(1, np.float32), "acc": np.full(1, 5, np.float32)}
    symbols = {"M": m, "N": n}
    ours, compiled = run_ipu(reductions, arrays, symbols)
    names = ["total", "cols", "rows", "largest", "smallest", "product", "acc"]
    assert_same(ours, run_dace(reductions, arrays, symbols), names)
    A64 = arrays["A"].astype(np.float64)
    np.testing.assert_allclose(ours["acc"], [5 + arrays["x"].sum(dtype=np.float64)], rtol=1e-6)
    np.testing.assert_allclose(ours["cols"], A64.sum(axis=0), rtol=1e-6)
    assert sorted(s["name"] for s in compiled.report["steps"] if s["kind"] == "reduce") == ["Reduce"] * 7
    assert_as_planned(compiled)


@dace.program
def half_sum(x: dace.float16[N], s: dace.float16[1]):
    s[0] = np.sum(x)


@dace.program
def float_sum(x: dace.float32[N], s: dace.float32[1]):
    s[0] = np.sum(x)


def test_float16_sum_accumulates_in_float32():
    # 3001 halves near 0.5 sum to about 1500, where float16 values are 1 apart: a float16
    # accumulator would lose most of each addition; popops' float32 one rounds once into
    # float16, so the result is DaCe's float32 sum of the same values within half of
    # float16's spacing there (plus float32's own rounding, far below it). DaCe 1.0.2
    # cannot build a float16 reduction for the CPU, so its float32 program is the reference.
    x = RNG.random(3001).astype(np.float16)
    ours, compiled = run_ipu(half_sum, {"x": x, "s": np.zeros(1, np.float16)}, {"N": 3001})
    theirs = run_dace(float_sum, {"x": x.astype(np.float32), "s": np.zeros(1, np.float32)},
                      {"N": 3001})["s"][0]
    assert abs(float(ours["s"][0]) - float(theirs)) <= np.spacing(np.float16(theirs)) / 2 + 1e-3
    assert_as_planned(compiled)


@dace.program
def demoted_reductions(A: dace.float32[M, N], x: dace.float64[N], cols: dace.float32[N], rows: dace.float32[M],
                       means: dace.float32[N], lo: dace.float64[1], hi: dace.float64[1], k: dace.int64[N],
                       least: dace.int64[1]):
    cols[:] = np.sum(A, axis=0)
    rows[:] = np.max(A, axis=1)
    means[:] = np.mean(A, axis=0)
    lo[0] = np.min(x)
    hi[0] = np.max(x)
    least[0] = np.min(k)


def test_reductions_under_demotion_match_dace():
    # ipu-demote-f64 once demoted the reductions' dims ([0] became [0, 0]) and failed on
    # DaCe's float64 identities of min and max (beyond float32): float32 sums, maxima and
    # means over an axis go to popops as without demotion, and the float64 minimum and
    # maximum run in float32, within float32's tolerance of DaCe's float64 result; the
    # int64 minimum starts from int32's largest value (int64's, truncated, was -1)
    m, n = 37, 301
    arrays = {"A": RNG.random((m, n), dtype=np.float32), "x": RNG.uniform(-1e3, 1e3, n), "cols": np.zeros(n, np.float32),
              "rows": np.zeros(m, np.float32), "means": np.zeros(n, np.float32), "lo": np.zeros(1), "hi": np.zeros(1),
              "k": RNG.integers(1, 1000, n), "least": np.zeros(1, np.int64)}
    symbols = {"M": m, "N": n}
    ours, compiled = run_ipu(demoted_reductions, arrays, symbols, demote_f64=True)
    names = ["cols", "rows", "means", "lo", "hi", "least"]
    assert_same(ours, run_dace(demoted_reductions, arrays, symbols), names)
    assert ours["lo"].dtype == np.float64 and ours["lo"][0] == np.float32(arrays["x"].min())
    assert sum(s["kind"] == "reduce" for s in compiled.report["steps"]) >= 3
