"""End to end: DaCe `MatMul` nodes (`A @ B`, `A @ x`, `x @ A`) lowered to
`poplin::matMulWithOutput`, built for the CPU emulator and compared with DaCe's CPU
result; what the emulator measures of each program (steps run, syncs, bytes) is as planned."""

import shutil

import dace
import numpy as np
import pytest
from test_e2e import assert_as_planned, assert_same, run_dace, run_ipu
from test_emitted_cpp import syntax_check

from ipu_lower.emit import emit_program

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")

M, K, N, L = (dace.symbol(s) for s in "MKNL")
RNG = np.random.default_rng(99)

HALF_TOLERANCE = {"rtol": 1e-2, "atol": 1e-2}
"""float16 products against DaCe's float32 ones: inputs of at most 1 in magnitude,
products accumulated in float32 and rounded once (11-bit mantissa: a relative error of
2^-11 per rounding, times the input roundings), K at most 100."""


@dace.program
def product(A: dace.float32[M, K], B: dace.float32[K, N], C: dace.float32[M, N]):
    C[:] = A @ B


@dace.program
def matrix_vector(A: dace.float32[M, K], x: dace.float32[K], y: dace.float32[M]):
    y[:] = A @ x


@dace.program
def vector_matrix(x: dace.float32[M], A: dace.float32[M, K], y: dace.float32[K]):
    y[:] = x @ A


@dace.program
def chain(A: dace.float32[M, K], B: dace.float32[K, N], C: dace.float32[N, L], D: dace.float32[M, L]):
    D[:] = (A @ B) @ C


@dace.program
def dense_relu(A: dace.float32[M, K], W: dace.float32[K, N], b: dace.float32[N], C: dace.float32[M, N]):
    C[:] = np.maximum(A @ W + b, dace.float32(0))


@dace.program
def product_f16(A: dace.float16[M, K], B: dace.float16[K, N], C: dace.float16[M, N]):
    C[:] = A @ B


T = dace.symbol("T")


@dace.program
def power_steps(A: dace.float32[M, M], x: dace.float32[M]):
    for t in range(T):
        x[:] = A @ x


@dace.program
def transposed_product(A: dace.float32[K, M], B: dace.float32[K, N], C: dace.float32[M, N]):
    C[:] = A.T @ B


@dace.program
def softmax_rows(x: dace.float32[M, N], out: dace.float32[M, N]):
    top = np.max(x, axis=-1)
    e = np.exp(x - top[:, np.newaxis])
    out[:] = e / np.sum(e, axis=-1)[:, np.newaxis]


@dace.program
def two_layers(x: dace.float32[M, K], w1: dace.float32[K, L], b1: dace.float32[L], w2: dace.float32[L, N],
               b2: dace.float32[N], y: dace.float32[M, N]):
    h = np.maximum(x @ w1 + b1, dace.float32(0))
    y[:] = h @ w2 + b2


@dace.program
def two_layers_f16(x: dace.float16[M, K], w1: dace.float16[K, L], b1: dace.float16[L], w2: dace.float16[L, N],
                   b2: dace.float16[N], y: dace.float16[M, N]):
    h = np.maximum(x @ w1 + b1, dace.float16(0))
    y[:] = h @ w2 + b2


@dace.program
def chain_of_three(A: dace.float32[M, K], B: dace.float32[K, L], C: dace.float32[L, N], D: dace.float32[N, M],
                   E: dace.float32[M, M]):
    E[:] = A @ B @ C @ D


@dace.program
def transposed_matrix_vector(A: dace.float32[M, N], y: dace.float32[M], z: dace.float32[N]):
    z[:] = A.T @ y


@dace.program
def scaled_sum(alpha: dace.float32, beta: dace.float32, A: dace.float32[M, K], B: dace.float32[K, N],
               C: dace.float32[M, N]):
    C[:] = alpha * A @ B + beta * C


def _arrays(shapes: dict, dtype=np.float32) -> dict:
    return {name: RNG.uniform(-1, 1, shape).astype(dtype) for name, shape in shapes.items()}


def _check(program, arrays, symbols, outputs, arch="ipu2"):
    """Run on the emulator and compare with DaCe; what ran is as planned."""
    ours, compiled = run_ipu(program, arrays, symbols, arch)
    assert_same(ours, run_dace(program, arrays, symbols), outputs)
    matmuls = [s for s in compiled.report["steps"] if s["kind"] == "matmul"]
    assert matmuls, "no poplin product ran"
    assert_as_planned(compiled)
    return ours, compiled, matmuls


@pytest.mark.parametrize(
    "m, k, n",
    [(16, 16, 16), (7, 13, 5), (37, 1, 3), (1500, 3, 2)],  # square, non-square, K = 1, rows over the tile count
)
def test_matrix_product(m, k, n):
    arrays = _arrays({"A": (m, k), "B": (k, n), "C": (m, n)})
    _, _, (step,) = _check(product, arrays, {"M": m, "K": k, "N": n}, ["C"])
    assert step["executions"] == 1


def test_matrix_vector():
    arrays = _arrays({"A": (9, 14), "x": (14,), "y": (9,)})
    _check(matrix_vector, arrays, {"M": 9, "K": 14}, ["y"])


def test_vector_matrix():
    arrays = _arrays({"x": (9,), "A": (9, 14), "y": (14,)})
    _check(vector_matrix, arrays, {"M": 9, "K": 14}, ["y"])


def test_chain_of_two_products():
    arrays = _arrays({"A": (6, 5), "B": (5, 4), "C": (4, 3), "D": (6, 3)})
    _, _, steps = _check(chain, arrays, {"M": 6, "K": 5, "N": 4, "L": 3}, ["D"])
    assert len(steps) == 2


def test_product_then_bias_and_relu():
    arrays = _arrays({"A": (10, 8), "W": (8, 12), "b": (12,), "C": (10, 12)})
    ours, _, _ = _check(dense_relu, arrays, {"M": 10, "K": 8, "N": 12}, ["C"])
    assert (ours["C"] >= 0).all() and (ours["C"] > 0).any()


def test_products_in_a_loop():
    arrays = _arrays({"A": (5, 5), "x": (5,)})
    _, _, (step,) = _check(power_steps, arrays, {"M": 5, "T": 3}, ["x"])
    assert step["executions"] == 3  # a Repeat of the product and its copy back into x


def test_product_of_a_transpose():
    arrays = _arrays({"A": (4, 6), "B": (4, 3), "C": (6, 3)})
    # DaCe's Transpose node writes a transient, a copy of a transposed view here
    _check(transposed_product, arrays, {"M": 6, "K": 4, "N": 3}, ["C"])


def test_float16_against_float32():
    shapes = {"A": (12, 100), "B": (100, 7), "C": (12, 7)}
    arrays = _arrays(shapes, np.float16)
    ours, compiled = run_ipu(product_f16, arrays, {"M": 12, "K": 100, "N": 7})
    wide = {k: v.astype(np.float32) for k, v in arrays.items()}
    theirs = run_dace(product, wide, {"M": 12, "K": 100, "N": 7})
    np.testing.assert_allclose(ours["C"].astype(np.float32), theirs["C"], **HALF_TOLERANCE)
    assert [s["executions"] for s in compiled.report["steps"] if s["kind"] == "matmul"] == [1]
    assert_as_planned(compiled)


def test_on_ipu1():
    arrays = _arrays({"A": (1300, 3), "B": (3, 2), "C": (1300, 2)})  # more rows than ipu1's 1216 tiles
    _check(product, arrays, {"M": 1300, "K": 3, "N": 2}, ["C"], arch="ipu1")


def test_emitted_files_compile_without_warnings(tmp_path):
    files = emit_program(dense_relu, {"M": 10, "K": 8, "N": 12}, "ipu2")
    assert "poplin::matMulWithOutput(graph, A, W, " in files["host.cpp"]
    paths = []
    for name in ("host.cpp", "codelets.cpp"):
        (tmp_path / name).write_text(files[name])
        paths.append(tmp_path / name)
    syntax_check(paths)


def test_softmax_over_rows():
    arrays = _arrays({"x": (37, 23), "out": (37, 23)})
    symbols = {"M": 37, "N": 23}
    ours, _ = run_ipu(softmax_rows, arrays, symbols)
    assert_same(ours, run_dace(softmax_rows, arrays, symbols), ["out"])
    np.testing.assert_allclose(ours["out"].sum(axis=1), 1, rtol=1e-5)


def test_two_layer_perceptron():
    shapes = {"x": (37, 19), "w1": (19, 29), "b1": (29,), "w2": (29, 23), "b2": (23,), "y": (37, 23)}
    _, _, steps = _check(two_layers, _arrays(shapes), {"M": 37, "K": 19, "L": 29, "N": 23}, ["y"])
    assert len(steps) == 2


def test_two_layer_perceptron_in_float16_against_float32():
    shapes = {"x": (37, 19), "w1": (19, 29), "b1": (29,), "w2": (29, 23), "b2": (23,), "y": (37, 23)}
    symbols = {"M": 37, "K": 19, "L": 29, "N": 23}
    arrays = _arrays(shapes, np.float16)
    ours, _ = run_ipu(two_layers_f16, arrays, symbols)
    theirs = run_dace(two_layers, {k: v.astype(np.float32) for k, v in arrays.items()}, symbols)
    np.testing.assert_allclose(ours["y"].astype(np.float32), theirs["y"], **HALF_TOLERANCE)


def test_chain_of_three_products():
    arrays = _arrays({"A": (9, 5), "B": (5, 7), "C": (7, 4), "D": (4, 9), "E": (9, 9)})
    _, _, steps = _check(chain_of_three, arrays, {"M": 9, "K": 5, "L": 7, "N": 4}, ["E"])
    assert len(steps) == 3


def test_transposed_matrix_vector():
    arrays = _arrays({"A": (11, 6), "y": (11,), "z": (6,)})
    _check(transposed_matrix_vector, arrays, {"M": 11, "N": 6}, ["z"])


def test_scaled_product_plus_scaled_matrix():
    arrays = {**_arrays({"A": (8, 5), "B": (5, 6), "C": (8, 6)}), "alpha": np.float32(1.5), "beta": np.float32(-0.5)}
    _check(scaled_sum, arrays, {"M": 8, "K": 5, "N": 6}, ["C"])


@dace.program
def products_f64(A: dace.float64[M, K], B: dace.float64[K, N], C: dace.float64[M, N], x: dace.float64[K],
                 y: dace.float64[K], d: dace.float64[1]):
    C[:] = A @ B
    d[0] = np.dot(x, y)


def test_float64_products_run_in_float32_under_demotion():
    # MatMul and Dot of float64 were rejected at import even with demotion asked for:
    # demoted, poplin multiplies them in float32, within float32's tolerance of DaCe
    arrays = {**_arrays({"A": (7, 13), "B": (13, 5), "C": (7, 5), "x": (13,), "y": (13,)}, np.float64), "d": np.zeros(1)}
    symbols = {"M": 7, "K": 13, "N": 5}
    ours, compiled = run_ipu(products_f64, arrays, symbols, demote_f64=True)
    assert_same(ours, run_dace(products_f64, arrays, symbols), ["C", "d"])
    assert ours["C"].dtype == np.float64
    assert sum(s["kind"] == "matmul" for s in compiled.report["steps"]) == 2
    with pytest.raises(Exception, match="container 'A' is float64, which the IPU does not support; demote it"):
        run_ipu(products_f64, arrays, symbols)
