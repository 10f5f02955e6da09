"""Loops inside maps (`ipu_lower.frontend.map_loops`): each program is lowered, run on the
CPU emulator and compared with DaCe's CPU build of the same SDFG (and numpy), on sizes
that do not divide the tile count."""

import dace
import numpy as np
import pytest
from dace.sdfg import nodes
from dace.transformation.interstate.loop_lifting import LoopLifting
from test_e2e import assert_same, run_dace, run_ipu

from ipu_lower.emit import to_sdfg

M = dace.symbol("M")
N = dace.symbol("N")
RNG = np.random.default_rng(4321)


@dace.program
def row_sums(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        for j in range(N):
            s += A[i, j]
        r[i] = s


@dace.program
def scale_by_column(A: dace.float32[M, N], B: dace.float32[M, N]):
    for i in dace.map[0:M]:
        for j in range(N):
            B[i, j] = A[i, j] * j


@dace.program
def prefix_sums(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        for j in range(i):  # the point's own bound: no iteration for i = 0
            s += A[i, j]
        r[i] = s


@dace.program
def decays(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        x = dace.float32(0)
        for j in range(N):
            x = x * dace.float32(0.5) + A[i, j]
        r[i] = x


@dace.program
def sum_and_max(A: dace.float32[M, N], total: dace.float32[M], largest: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        for j in range(N):
            s += A[i, j]
        m = A[i, 0]
        for j in range(N):
            m = max(m, A[i, j])
        total[i] = s
        largest[i] = m


@dace.program
def large_sums(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        for j in range(N):
            if A[i, j] > 0.5:  # a branch on data of the point
                s += A[i, j]
        r[i] = s


@dace.program
def doubled_rows(A: dace.float32[M, N], B: dace.float32[M, N]):
    for i in dace.map[0:M]:
        t = np.ndarray(N, dtype=np.float32)  # a local array: one row per point
        for j in range(N):
            t[j] = A[i, j] * dace.float32(2)
        B[i, :] = t


@dace.program
def doubled_sums(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        q = dace.float32(0)
        for j in range(N):
            s += A[i, j]
            q = s * dace.float32(2)  # s written and read again in one state
        r[i] = q


def matrix(m: int, n: int) -> dict:
    return {"A": RNG.random((m, n), dtype=np.float32)}


def check(program, arrays: dict, symbols: dict, outputs: list, expected: dict, arch: str = "ipu2"):
    ours, _ = run_ipu(program, arrays, symbols, arch)
    assert_same(ours, expected, outputs)
    assert_same(ours, run_dace(program.to_sdfg(simplify=True), arrays, symbols), outputs)


@pytest.mark.parametrize("m, n, arch", [(1501, 7, "ipu2"), (1300, 3, "ipu1"), (3, 1, "ipu2")])
def test_a_sum_per_row(m, n, arch):
    arrays = {**matrix(m, n), "r": np.zeros(m, np.float32)}
    check(row_sums, arrays, {"M": m, "N": n}, ["r"], {"r": arrays["A"].sum(axis=1)}, arch)


def test_an_element_written_per_iteration():
    arrays = {**matrix(1475, 5), "B": np.zeros((1475, 5), np.float32)}
    expected = {"B": arrays["A"] * np.arange(5, dtype=np.float32)}
    check(scale_by_column, arrays, {"M": 1475, "N": 5}, ["B"], expected)


@pytest.mark.parametrize("m, n", [(37, 41), (1, 1)])
def test_a_loop_bounded_by_the_map_parameter(m, n):
    # the loop runs over the hull j < M - 1; point i keeps its sum where j >= i, and
    # point 0 (every point, for M = 1) runs no iteration at all
    arrays = {**matrix(m, n), "r": np.full(m, -1, np.float32)}
    expected = {"r": np.array([arrays["A"][i, :i].sum() for i in range(m)], np.float32)}
    check(prefix_sums, arrays, {"M": m, "N": n}, ["r"], expected)


def test_a_loop_carried_recurrence():
    arrays = {**matrix(1483, 6), "r": np.zeros(1483, np.float32)}
    x = np.zeros(1483, np.float32)
    for j in range(6):
        x = x * np.float32(0.5) + arrays["A"][:, j]
    check(decays, arrays, {"M": 1483, "N": 6}, ["r"], {"r": x})


def test_two_loops_in_sequence():
    arrays = {**matrix(1499, 4), "total": np.zeros(1499, np.float32), "largest": np.zeros(1499, np.float32)}
    expected = {"total": arrays["A"].sum(axis=1), "largest": arrays["A"].max(axis=1)}
    check(sum_and_max, arrays, {"M": 1499, "N": 4}, ["total", "largest"], expected)


def test_a_branch_on_data_inside_the_loop():
    arrays = {**matrix(1477, 5), "r": np.zeros(1477, np.float32)}
    expected = {"r": np.where(arrays["A"] > 0.5, arrays["A"], 0).sum(axis=1)}
    check(large_sums, arrays, {"M": 1477, "N": 5}, ["r"], expected)


def test_a_loop_region_inside_the_map():
    sdfg = to_sdfg(row_sums)
    (inner,) = [n.sdfg for n, _ in sdfg.all_nodes_recursive() if isinstance(n, nodes.NestedSDFG)]
    assert inner.apply_transformations_repeated([LoopLifting]) == 1
    arrays = {**matrix(53, 9), "r": np.zeros(53, np.float32)}
    ours, _ = run_ipu(sdfg, arrays, {"M": 53, "N": 9})
    assert_same(ours, {"r": arrays["A"].sum(axis=1)}, ["r"])


def test_a_local_array_copied_out_as_a_row():
    arrays = {**matrix(1481, 3), "B": np.zeros((1481, 3), np.float32)}
    check(doubled_rows, arrays, {"M": 1481, "N": 3}, ["B"], {"B": arrays["A"] * 2})


def test_a_value_written_and_read_again_in_one_step():
    arrays = {**matrix(29, 8), "r": np.zeros(29, np.float32)}
    check(doubled_sums, arrays, {"M": 29, "N": 8}, ["r"], {"r": arrays["A"].sum(axis=1) * 2})
