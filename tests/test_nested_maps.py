"""Maps nested in maps (sdfg-collapse-maps): each program is lowered, run on the CPU
emulator and compared with DaCe's CPU build of the same SDFG and with numpy, on sizes that
do not divide the tile count."""

import dace
import numpy as np
import pytest
from test_e2e import assert_same, run_dace, run_ipu
from xdsl.context import Context

from ipu_lower.dialects import sdfg as sd
from ipu_lower.frontend.importer import SdfgImportError, import_sdfg
from ipu_lower.passes.sdfg_collapse_maps import SdfgCollapseMapsPass

N = dace.symbol("N")
M = dace.symbol("M")
K = dace.symbol("K")
RNG = np.random.default_rng(2468)


@dace.program
def rectangular(A: dace.float32[N, M], B: dace.float32[N, M]):
    for i in dace.map[0:N]:
        for j in dace.map[0:M]:
            B[i, j] = A[i, j] * 2


@dace.program
def row_scale(A: dace.float32[N, M], B: dace.float32[N, M]):
    for i in dace.map[0:N]:
        t = A[i, 0] * 2  # computed per row, before the inner map
        for j in dace.map[0:M]:
            B[i, j] = A[i, j] * t


@dace.program
def three_deep(A: dace.float32[N, M, K], B: dace.float32[N, M, K]):
    for i in dace.map[0:N]:
        for j in dace.map[0:M]:
            for k in dace.map[0:K]:
                B[i, j, k] = A[i, j, k] - 1


@dace.program
def lower_triangle(A: dace.float32[N, N], B: dace.float32[N, N]):
    for i in dace.map[0:N]:
        for j in dace.map[0:i + 1]:
            B[i, j] = A[i, j] + 1


@dace.program
def band(A: dace.float32[N, N], B: dace.float32[N, N]):
    for i in dace.map[0:N - 2]:
        for j in dace.map[i:i + 3]:
            B[i, j] = A[i, j] * A[j, i]


@dace.program
def triangle_squares(A: dace.uint32[N, N], B: dace.uint32[N, N]):
    for i in dace.map[0:N]:
        for j in dace.map[0:i + 1]:
            B[i, j] = A[i, j] * A[i, j]


def _maps(program) -> list[sd.MapOp]:
    module = import_sdfg(program.to_sdfg(simplify=True))
    SdfgCollapseMapsPass().apply(Context(), module)
    module.verify()
    return [op for op in module.walk() if isinstance(op, sd.MapOp)]


@pytest.mark.parametrize("program, params", [(rectangular, 2), (row_scale, 2), (three_deep, 3), (lower_triangle, 2)])
def test_nested_maps_collapse_into_one(program, params):
    (merged,) = _maps(program)
    assert len(merged.params) == params


def test_a_dependent_range_becomes_its_hull_over_the_outer_range():
    (merged,) = _maps(lower_triangle)
    assert [(str(lo), str(hi)) for lo, hi, _ in merged.ranges()] == [("0", "N"), ("0", "N")]


def test_rectangular_nests_match_dace():
    arrays = {"A": RNG.random((9, 37), dtype=np.float32), "B": np.zeros((9, 37), np.float32)}
    for program in (rectangular, row_scale):
        ours, _ = run_ipu(program, arrays, {"N": 9, "M": 37})
        assert_same(ours, run_dace(program, arrays, {"N": 9, "M": 37}), ["B"])
    np.testing.assert_allclose(ours["B"], arrays["A"] * (arrays["A"][:, :1] * 2), rtol=1e-6)


def test_three_deep_nest_matches_dace():
    arrays = {"A": RNG.random((5, 7, 11), dtype=np.float32), "B": np.zeros((5, 7, 11), np.float32)}
    ours, _ = run_ipu(three_deep, arrays, {"N": 5, "M": 7, "K": 11})
    assert_same(ours, run_dace(three_deep, arrays, {"N": 5, "M": 7, "K": 11}), ["B"])
    np.testing.assert_allclose(ours["B"], arrays["A"] - 1)


@pytest.mark.parametrize("program", [lower_triangle, band])
def test_ranges_that_depend_on_the_outer_parameter_match_dace(program):
    # B starts from values the guarded points must keep
    arrays = {"A": RNG.random((13, 13), dtype=np.float32), "B": RNG.random((13, 13), dtype=np.float32)}
    ours, _ = run_ipu(program, arrays, {"N": 13})
    theirs = run_dace(program, arrays, {"N": 13})
    assert_same(ours, theirs, ["B"])
    assert not np.array_equal(theirs["B"], arrays["B"])  # the program wrote something


def test_unsigned_stores_are_guarded_too():
    arrays = {"A": RNG.integers(0, 60000, (11, 11), dtype=np.uint32), "B": RNG.integers(0, 9, (11, 11), dtype=np.uint32)}
    ours, _ = run_ipu(triangle_squares, arrays, {"N": 11})
    assert_same(ours, run_dace(triangle_squares, arrays, {"N": 11}), ["B"])
    np.testing.assert_array_equal(np.triu(ours["B"], 1), np.triu(arrays["B"], 1))


def test_a_step_that_depends_on_the_outer_parameter_is_an_import_error():
    @dace.program
    def strided(A: dace.float32[N, N], B: dace.float32[N, N]):
        for i in dace.map[1:N]:
            for j in dace.map[0:N:i]:
                B[i, j] = A[i, j]

    with pytest.raises(SdfgImportError, match="the step of the map depends on a parameter of an enclosing map"):
        import_sdfg(strided.to_sdfg(simplify=True))
