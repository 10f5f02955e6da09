"""Python literals in tasklets follow numpy's weak-scalar rule (NEP 50): a float32 or
float16 expression with Python numbers stays in its type, where DaCe 1.0.2 writes
float64 temporaries (the sdfg-weaken-literals pass)."""

# No `from __future__ import annotations`: DaCe reads the programs' annotations.
import dace
import numpy as np
import pytest
from test_e2e import run_ipu

from xdsl.context import Context

from ipu_lower.dialects import sdfg as sd
from ipu_lower.frontend.importer import import_sdfg
from ipu_lower.passes.sdfg_weaken_literals import SdfgWeakenLiteralsPass

N = dace.symbol("N")


@dace.program
def affine(A: dace.float32[N], B: dace.float32[N]):
    for i in dace.map[0:N]:
        B[i] = A[i] * 0.5 + 3


@dace.program
def affine_f16(A: dace.float16[N], B: dace.float16[N]):
    for i in dace.map[0:N]:
        B[i] = -A[i] / 4 + 2.5


@dace.program
def scaled_ints(K: dace.int32[N], B: dace.float32[N]):
    for i in dace.map[0:N]:
        B[i] = K[i] * 0.5


@dace.program
def explicit_double(A: dace.float32[N], B: dace.float32[N]):
    for i in dace.map[0:N]:
        B[i] = dace.float64(A[i] * 3) / 7


def _value_types(program) -> set[str]:
    """The element types of the containers and tasklet results after the pass."""
    module = import_sdfg(program.to_sdfg(simplify=True))
    SdfgWeakenLiteralsPass().apply(Context(), module)
    module.verify()
    containers = {str(op.result.type.element_type) for op in module.walk() if isinstance(op, sd.ContainerOp)}
    return containers | {str(r.type) for op in module.walk() if isinstance(op, sd.TaskletOp) for r in op.outputs}


def test_float32_expression_with_python_numbers_stays_float32_and_runs():
    assert _value_types(affine) == {"f32"}
    a = np.linspace(-2, 2, 11, dtype=np.float32)
    ours, _ = run_ipu(affine, {"A": a, "B": np.zeros(11, np.float32)}, {"N": 11})
    np.testing.assert_array_equal(ours["B"], a * np.float32(0.5) + np.float32(3))  # numpy 2's float32 result


def test_float16_expression_stays_float16():
    assert _value_types(affine_f16) == {"f16"}


@pytest.mark.parametrize(
    "program", [scaled_ints, explicit_double], ids=["int times a float literal", "cast of an expression"]
)
def test_float64_stays_where_numpy_gives_it(program):
    # NEP 50: int32 * 0.5 is float64; a cast the user wrote around an expression is kept
    assert "f64" in _value_types(program)
