"""End to end: DaCe's BLAS nodes (`Gemm`, `Gemv`, `BatchedMatMul`, `Dot`, a `MatMul` that
accumulates into its result and a `MatMul` of a box and of a transposed view) lowered to
poplin's products and popops' scaling, run on the emulator and compared with DaCe's CPU
result (its 'pure' expansions); what the emulator measures (steps run, syncs, bytes) is as planned.

One SDFG holds every case, one state each, so that one DaCe build and one emulator
build serve them all; the float16 build of the same SDFG is compared with DaCe's float32
result."""

import shutil

import dace
import numpy as np
import pytest
from dace import Memlet
from dace.libraries.blas import BatchedMatMul, Dot, Gemm, Gemv, MatMul
from test_e2e import assert_as_planned, assert_same, run_dace, run_ipu

from ipu_lower.emit import emit_program

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")

RNG = np.random.default_rng(7)

SHAPES = {
    "A": (6, 4), "B": (6, 5), "C": (4, 5), "Cin": (4, 5), "D": (4, 5),  # gemm: C = 1.5 A^T B - 0.5 Cin, D likewise in place
    "x": (4,), "y": (6,), "z": (6,), "w": (4,),  # gemv: y = 2 A x, w = A^T z + w
    "G": (3, 2, 4), "H": (3, 4, 5), "P": (3, 2, 5),  # batched: P = G @ H
    "u": (4,), "s": (1,),  # dot: s = x . u
    "E": (4, 5), "F": (5, 3), "R": (4, 3),  # accumulate: R += E @ F
    "V": (2, 3), "T": (4,),  # boxes: V = A[1:3, 0:4] @ F[0:4, 0:3]; a transposed view: T = A.T @ y
}
OUTPUTS = ["C", "D", "y", "w", "P", "s", "R", "V", "T"]

HALF_TOLERANCE = {"rtol": 2e-2, "atol": 2e-2}
"""float16 against DaCe's float32: inputs in [-1, 1], at most 6 products summed in
float32 and rounded once to float16 (relative 2^-11), then scaled and added in float16
steps (popops rounds each), on inputs already rounded to float16."""


def blas_sdfg(dtype=dace.float32) -> dace.SDFG:
    """Each case of the module docstring in a state of its own, the nodes expanded by
    DaCe with their 'pure' implementations (no BLAS library here)."""
    sdfg = dace.SDFG("blas")
    for name, shape in SHAPES.items():
        sdfg.add_array(name, shape, dtype)
    sdfg.add_view("A_T", (4, 6), dtype, strides=(1, 4))
    states = []

    def node_state(node, ins, outs, view=None):
        state = sdfg.add_state(node.label, is_start_block=not states)
        if states:
            sdfg.add_edge(states[-1], state, dace.InterstateEdge())
        states.append(state)
        node.implementation = "pure" if not isinstance(node, MatMul) else "specialize"
        state.add_node(node)
        for conn, (name, subset) in ins.items():
            source = state.add_read(name)
            if name == view:
                viewed, source = source, state.add_access("A_T")
                name = "A_T"
                state.add_edge(viewed, None, source, None, Memlet("A[0:6, 0:4]"))
            state.add_edge(source, None, node, conn, Memlet(f"{name}[{subset}]"))
        for conn, (name, subset, wcr) in outs.items():
            state.add_edge(node, conn, state.add_write(name), None, Memlet(f"{name}[{subset}]", wcr=wcr))

    node_state(Gemm("gemm", transA=True, alpha=1.5, beta=-0.5),
               {"_a": ("A", "0:6, 0:4"), "_b": ("B", "0:6, 0:5"), "_cin": ("Cin", "0:4, 0:5")},
               {"_c": ("C", "0:4, 0:5", None)})
    node_state(Gemm("gemm_in_place", transA=True, alpha=0.5, beta=2),
               {"_a": ("A", "0:6, 0:4"), "_b": ("B", "0:6, 0:5"), "_cin": ("D", "0:4, 0:5")},
               {"_c": ("D", "0:4, 0:5", None)})
    node_state(Gemv("gemv", alpha=2), {"_A": ("A", "0:6, 0:4"), "_x": ("x", "0:4")}, {"_y": ("y", "0:6", None)})
    node_state(Gemv("gemv_t", transA=True, beta=1),
               {"_A": ("A", "0:6, 0:4"), "_x": ("z", "0:6"), "_y": ("w", "0:4")}, {"_y": ("w", "0:4", None)})
    node_state(BatchedMatMul("bmm"),
               {"_a": ("G", "0:3, 0:2, 0:4"), "_b": ("H", "0:3, 0:4, 0:5")}, {"_c": ("P", "0:3, 0:2, 0:5", None)})
    node_state(Dot("dot"), {"_x": ("x", "0:4"), "_y": ("u", "0:4")}, {"_result": ("s", "0", None)})
    node_state(MatMul("accumulate"),
               {"_a": ("E", "0:4, 0:5"), "_b": ("F", "0:5, 0:3")}, {"_c": ("R", "0:4, 0:3", "lambda a, b: a + b")})
    node_state(MatMul("boxes"), {"_a": ("A", "1:3, 0:4"), "_b": ("F", "0:4, 0:3")}, {"_c": ("V", "0:2, 0:3", None)})
    node_state(MatMul("view"), {"_a": ("A", "0:4, 0:6"), "_b": ("y", "0:6")}, {"_c": ("T", "0:4", None)}, view="A")
    sdfg.validate()
    return sdfg


@pytest.fixture(scope="module")
def inputs() -> dict:
    return {name: RNG.uniform(-1, 1, shape).astype(np.float32) for name, shape in SHAPES.items()}


@pytest.fixture(scope="module")
def dace_result(inputs) -> dict:
    return run_dace(blas_sdfg(), inputs, {})


def test_blas_nodes_against_dace(inputs, dace_result):
    ours, compiled = run_ipu(blas_sdfg(), inputs, {})
    assert_same(ours, dace_result, OUTPUTS)
    steps = compiled.report["steps"]
    assert sum(s["kind"] == "matmul" for s in steps) == 9
    assert sum(s["kind"] == "elementwise" for s in steps) == 3  # -0.5 C, 2 D, 2 y
    assert_as_planned(compiled)  # the products and scalings run as often as planned


def test_blas_nodes_in_float16_against_dace_float32(inputs, dace_result):
    halves = {k: v.astype(np.float16) for k, v in inputs.items()}
    ours, compiled = run_ipu(blas_sdfg(dace.float16), halves, {})
    for name in OUTPUTS:
        np.testing.assert_allclose(ours[name].astype(np.float32), dace_result[name], err_msg=name, **HALF_TOLERANCE)
    assert_as_planned(compiled)


def test_emitted_host_calls_poplibs_as_its_users_do():
    """The calls as printed (their arguments under -Wall -Werror: tests/cpp/emulator_driver.cpp)."""
    host = emit_program(blas_sdfg(), {}, "ipu2")["host.cpp"]
    for call in ("poplin::matMulAcc(graph, C, 1.5f, A.transpose(), B, ", "popops::mulInPlace(graph, C, -0.5f, ",
                 "poplin::matMulGroupedWithOutput(graph, G, H, ", "poplin::matMulWithOutput(graph, A.slice({1, 0}, {3, 4}), "):
        assert call in host
