"""Library nodes with no poplibs lowering, expanded into dataflow the importer handles.

DaCe 1.0.2 expands `Cholesky` only into LAPACK calls (OpenBLAS, MKL, cuSolverDn), which
no IPU has. This module gives it an implementation of its own, `ipu_pure`: a nested SDFG
of the Cholesky-Banachiewicz loops written with numpy slices (row i of L from the rows
above it: `np.dot(L[i, :j], L[j, :j])`), which the importer inlines and whose slices of
loop-dependent length `loop_extents` makes static. `expand_library_fallbacks`, run on
the SDFG before import, expands every library node that has such an implementation;
any other library node is left for the importer to report.
"""

# No `from __future__ import annotations`: DaCe reads the program's annotations.
import dace
import numpy as np
from dace import library, nodes
from dace.libraries.linalg.nodes.cholesky import Cholesky
from dace.sdfg import SDFG, SDFGState
from dace.transformation.transformation import ExpandTransformation

IMPLEMENTATION = "ipu_pure"


def _lower_cholesky(n, dtype) -> SDFG:
    """L with L @ L.T = A, zero above the diagonal, for an n x n `A` of `dtype`."""

    @dace.program
    def cholesky(_a: dtype[n, n], _b: dtype[n, n]):
        for i in range(n):
            for j in range(i):
                _b[i, j] = (_a[i, j] - np.dot(_b[i, :j], _b[j, :j])) / _b[j, j]
            _b[i, i] = np.sqrt(_a[i, i] - np.dot(_b[i, :i], _b[i, :i]))
            _b[i, i + 1:] = 0

    return cholesky.to_sdfg(simplify=True)


@library.expansion
class ExpandCholeskyIpu(ExpandTransformation):
    """`Cholesky` (lower) as loops of numpy slices."""

    environments = ()  # no library to link: plain dataflow

    @staticmethod
    def expansion(node: Cholesky, parent_state: SDFGState, parent_sdfg: SDFG, **kwargs) -> SDFG:
        (edge,) = [e for e in parent_state.in_edges(node) if e.dst_conn == "_a"]
        desc = parent_sdfg.arrays[edge.data.data]
        n = edge.data.subset.size()[0]
        return _lower_cholesky(n, desc.dtype)


Cholesky.register_implementation(IMPLEMENTATION, ExpandCholeskyIpu)


def expand_library_fallbacks(sdfg: SDFG) -> None:
    """Expand each library node that has an `ipu_pure` implementation (a lower
    `Cholesky` of a square box) with it."""
    for state in list(sdfg.all_states()):
        for node in list(state.nodes()):
            if isinstance(node, Cholesky) and node.lower and _square_input(state, node):
                node.implementation = IMPLEMENTATION
                node.expand(state.sdfg, state)


def _square_input(state: SDFGState, node: nodes.LibraryNode) -> bool:
    edges = [e for e in state.in_edges(node) if e.dst_conn == "_a"]
    if len(edges) != 1:
        return False
    sizes = edges[0].data.subset.size()
    return len(sizes) == 2 and sizes[0] == sizes[1]


def expand_as_dace_pure(sdfg: SDFG) -> None:
    """Expand every library node of `sdfg` as DaCe does on a machine without a BLAS library
    (its 'pure' implementations: maps and tasklets), e.g. `A @ B` into a map over (i, j, k)
    that accumulates A[i, k] * B[k, j]: what benchmarks and tests compare poplibs with."""
    from dace.libraries import blas

    default = blas.default_implementation
    blas.default_implementation = "pure"
    try:
        sdfg.expand_library_nodes()
    finally:
        blas.default_implementation = default
