"""Maps that contract: reductions whose inputs reach the points through views (a vector
broadcast over the rows of a matrix, DaCe's own map expansion of a matrix product), run
on the emulator against DaCe's CPU build, in one compute set and, when the exchanged
operands would not fit in tile memory, in chunks of the reduced range
(sdfg-chunk-reductions)."""

# No `from __future__ import annotations`: DaCe reads the programs' annotations.

import dace
import numpy as np
import pytest
from dace_reference import dace_build
from test_e2e import assert_as_planned, assert_same, run_dace, run_ipu

import ipu_lower
from ipu_lower.frontend.library_fallbacks import expand_as_dace_pure

M, K, N = (dace.symbol(s) for s in "MKN")
RNG = np.random.default_rng(7)


@dace.program
def matrix_vector_map(A: dace.float32[M, K], x: dace.float32[K], y: dace.float32[M]):
    for i, k in dace.map[0:M, 0:K]:
        y[i] += A[i, k] * x[k]


@dace.program
def product(A: dace.float32[M, K], B: dace.float32[K, N], C: dace.float32[M, N]):
    C[:] = A @ B


@pytest.fixture(scope="module")
def expanded_product():
    """`A @ B` as DaCe's pure expansion (MatMul -> Gemm -> a map over (i, j, k) that
    accumulates A[i, k] * B[k, j] into C[i, j]), and DaCe's CPU build of it."""
    sdfg = product.to_sdfg(simplify=True)
    expand_as_dace_pure(sdfg)
    assert not any(isinstance(n, dace.nodes.LibraryNode) for n, _ in sdfg.all_nodes_recursive())
    return sdfg, dace_build(sdfg)


def _arrays(shapes: dict) -> dict:
    return {name: RNG.uniform(-1, 1, shape).astype(np.float32) for name, shape in shapes.items()}


def test_matrix_vector_map_reads_the_vector_through_a_broadcast_view():
    arrays = _arrays({"A": (37, 23), "x": (23,), "y": (37,)})
    symbols = {"M": 37, "K": 23}
    ours, compiled = run_ipu(matrix_vector_map, arrays, symbols)
    assert_same(ours, run_dace(matrix_vector_map, arrays, symbols), ["y"])
    assert_as_planned(compiled)


def _run_expanded(expanded_product, m: int, k: int, n: int, arch: str):
    sdfg, dace_build = expanded_product
    arrays = _arrays({"A": (m, k), "B": (k, n), "C": (m, n)})
    theirs = {name: a.copy() for name, a in arrays.items()}
    dace_build(**theirs, M=m, K=k, N=n)
    ours = {name: a.copy() for name, a in arrays.items()}
    compiled = ipu_lower.compile(sdfg, symbols={"M": m, "K": k, "N": n}, arch=arch)
    compiled(**ours)
    assert_same(ours, theirs, ["C"])
    return compiled


def test_dace_map_expansion_of_a_product_runs_in_one_reduction(expanded_product):
    compiled = _run_expanded(expanded_product, 5, 7, 3, "ipu2")
    assert not [s for s in compiled.report["steps"] if s["kind"] == "dynamic_slice"]
    assert_as_planned(compiled)


def test_dace_map_expansion_of_a_product_runs_in_chunks_when_it_would_not_fit(expanded_product):
    # 216^3 points x 8 bytes of received operands over 1216 tiles exceed a quarter of an
    # ipu1 tile: two chunks of 108 values of k, each slicing A and B at the loop variable
    compiled = _run_expanded(expanded_product, 216, 216, 216, "ipu1")
    slices = [s for s in compiled.report["steps"] if s["kind"] == "dynamic_slice"]
    assert len(slices) == 2 and all(s["executions"] == 2 for s in slices)
    # the slices' bytes are planned as if every element crossed tiles: a bound
    assert_as_planned(compiled)
