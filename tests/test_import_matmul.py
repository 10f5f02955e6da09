"""The importer on `MatMul` nodes of a matrix and a matrix or a vector: one
`sdfg.matmul` over whole containers (ipu_lower.frontend.matmul); the product of two
vectors stays a dot product; what it cannot import is one line naming the SDFG, state
and node."""

import dace
import pytest
from dace import Memlet
from dace.libraries.blas import MatMul
from ipu_lower.dialects import sdfg as sd

from ipu_lower.frontend.importer import SdfgImportError, import_sdfg

M, K, N = (dace.symbol(s) for s in "MKN")


@dace.program
def product(A: dace.float32[M, K], B: dace.float32[K, N]):
    return A @ B


@dace.program
def matrix_vector(A: dace.float32[M, K], x: dace.float32[K]):
    return A @ x


@dace.program
def vector_matrix(x: dace.float32[M], A: dace.float32[M, K]):
    return x @ A


@dace.program
def dot(x: dace.float32[K], y: dace.float32[K]):
    return x @ y


def _matmuls(program) -> list[sd.MatmulOp]:
    module = import_sdfg(program.to_sdfg(simplify=True))
    return [op for op in module.walk() if isinstance(op, sd.MatmulOp)]


@pytest.mark.parametrize(
    "program, operands",
    [(product, ("A", "B", "__return")), (matrix_vector, ("A", "x", "__return")), (vector_matrix, ("x", "A", "__return"))],
)
def test_products_become_one_op_over_whole_containers(program, operands):
    (op,) = _matmuls(program)
    assert tuple(sd.container_name(v) for v in (op.lhs, op.rhs, op.out)) == operands


def test_the_product_of_two_vectors_stays_a_dot_product():
    module = import_sdfg(dot.to_sdfg(simplify=True))
    assert not [op for op in module.walk() if isinstance(op, sd.MatmulOp)]
    assert [op for op in module.walk() if isinstance(op, sd.AccumulateOp)]


def matmul_sdfg(shapes, dtype=dace.float32, subsets=None, wcr=None, view=False, out="C"):
    """`out = A @ B` as one MatMul node, built by hand; `subsets` overrides the memlets,
    `view` reads A through a view of it."""
    sdfg = dace.SDFG("handmade")
    for name, shape in shapes.items():
        sdfg.add_array(name, shape, dtype[name] if isinstance(dtype, dict) else dtype)
    state = sdfg.add_state("main")
    node = MatMul("mm")
    state.add_node(node)
    subsets = subsets or {}
    source = state.add_read("A")
    if view:
        sdfg.add_view("A_view", shapes["A"], dtype)
        view_node = state.add_access("A_view")
        state.add_edge(source, None, view_node, None, Memlet.from_array("A", sdfg.arrays["A"]))
        source = view_node
    a = "A_view" if view else "A"
    state.add_edge(source, None, node, "_a", Memlet(subsets.get("A", a)))
    state.add_edge(state.add_read("B"), None, node, "_b", Memlet(subsets.get("B", "B")))
    state.add_edge(node, "_c", state.add_write(out), None, Memlet(subsets.get(out, out), wcr=wcr))
    return sdfg


DIAGNOSED = {
    "batched": (
        lambda: matmul_sdfg({"A": (2, 3, 4), "B": (2, 4, 5), "C": (2, 3, 5)}),
        "batched MatMul (operands of ranks 3 and 3) is not supported yet",
    ),
    "box": (
        lambda: matmul_sdfg({"A": (6, 4), "B": (4, 5), "C": (3, 5)}, subsets={"A": "A[0:3, 0:4]"}),
        "'A[0:3, 0:4]' is part of 'A'; MatMul of boxes is not supported yet",
    ),
    "view": (
        lambda: matmul_sdfg({"A": (3, 4), "B": (4, 5), "C": (3, 5)}, view=True),
        "'A_view' is a view; MatMul of views (transposes, slices) is not supported yet",
    ),
    "accumulated": (
        lambda: matmul_sdfg({"A": (3, 4), "B": (4, 5), "C": (3, 5)}, wcr="lambda a, b: a + b"),
        "'C' is accumulated into (write-conflict resolution)",
    ),
    "integers": (
        lambda: matmul_sdfg({"A": (3, 4), "B": (4, 5), "C": (3, 5)}, dtype=dace.int32),
        "MatMul of i32 elements is not supported (poplin multiplies float32 and float16)",
    ),
    "mixed types": (
        lambda: matmul_sdfg(
            {"A": (3, 4), "B": (4, 5), "C": (3, 5)}, dtype={"A": dace.float16, "B": dace.float32, "C": dace.float32}
        ),
        "multiplies f16 by f32 into f32; a type change is not supported yet",
    ),
    "in place": (
        lambda: matmul_sdfg({"A": (4, 4), "B": (4, 4)}, out="A"),
        "writes its result into its operand 'A'",
    ),
}


@pytest.mark.parametrize("case", sorted(DIAGNOSED))
def test_unsupported_products_are_one_line_errors(case):
    build, message = DIAGNOSED[case]
    with pytest.raises(SdfgImportError) as info:
        import_sdfg(build())
    text = str(info.value)
    assert "\n" not in text
    assert text.startswith("SDFG 'handmade', state 'main', node 'mm' (MatMul): "), text
    assert message in text, text


def test_complex_elements_are_reported_with_their_container():
    with pytest.raises(SdfgImportError) as info:
        import_sdfg(matmul_sdfg({"A": (3, 4), "B": (4, 5), "C": (3, 5)}, dtype=dace.complex64))
    assert str(info.value) == "SDFG 'handmade': container 'A' has unsupported data type 'complex64'"
