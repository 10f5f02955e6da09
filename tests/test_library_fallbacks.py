"""Library nodes without a poplibs lowering, expanded by ipu_lower.frontend.library_fallbacks:
`np.linalg.cholesky` through its `ipu_pure` loops, checked against numpy (DaCe's own
expansions of it call LAPACK, which its CPU build here does not have)."""

import shutil

import dace
import numpy as np
import pytest

import ipu_lower
from ipu_lower.frontend.importer import SdfgImportError, import_sdfg

N = dace.symbol("N")


@dace.program
def factor(A: dace.float32[N, N], L: dace.float32[N, N]):
    L[:] = np.linalg.cholesky(A)


@dace.program
def factor_and_solve(A: dace.float32[N, N], b: dace.float32[N], x: dace.float32[N]):
    L = np.linalg.cholesky(A)
    for i in range(N):
        x[i] = (b[i] - np.dot(L[i, :i], x[:i])) / L[i, i]


def _positive_definite(n: int) -> np.ndarray:
    b = np.random.default_rng(n).random((n, n))
    return (b @ b.T + n * np.eye(n)).astype(np.float32)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@pytest.mark.parametrize("n, arch", [(1, "ipu2"), (2, "ipu2"), (9, "ipu2"), (33, "ipu1")])
def test_cholesky_through_its_loops_matches_numpy(n, arch):
    A = _positive_definite(n)
    L = np.full((n, n), np.nan, np.float32)  # the upper triangle is written too
    ipu_lower.compile(factor, symbols={"N": n}, arch=arch)(A=A, L=L)
    np.testing.assert_allclose(L, np.linalg.cholesky(A.astype(np.float64)), rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_a_factor_feeds_the_rest_of_the_program():
    A, b = _positive_definite(12), np.arange(12, dtype=np.float32)
    x = np.zeros(12, np.float32)
    ipu_lower.compile(factor_and_solve, symbols={"N": 12})(A=A, b=b, x=x)
    np.testing.assert_allclose(x, np.linalg.solve(np.linalg.cholesky(A.astype(np.float64)), b), rtol=1e-4)


def test_other_linear_algebra_is_reported():
    @dace.program
    def solve(A: dace.float32[N, N], b: dace.float32[N], x: dace.float32[N]):
        x[:] = np.linalg.solve(A, b)

    with pytest.raises(SdfgImportError, match=r"Solve nodes are not supported yet"):
        import_sdfg(solve.to_sdfg(simplify=True))
