"""The importer on DaCe's BLAS product nodes (`MatMul`, `Gemm`, `Gemv`,
`BatchedMatMul`, `Dot`): one `sdfg.matmul` each, over containers or boxes of them
(ipu_lower.frontend.matmul); a dot product of integers or of a box a loop moves stays a
reduction; what it cannot import is one line naming the SDFG, state and node."""

import dace
import pytest
from dace import Memlet
from dace.libraries.blas import BatchedMatMul, Dot, Gemm, Gemv, MatMul
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


def test_the_product_of_two_vectors_is_a_poplin_product():
    (op,) = _matmuls(dot)
    assert op.operand_shape(2) == []  # [1, K] x [K, 1] for poplin


T = dace.symbol("T")


@dace.program
def moving_rows(A: dace.float32[T, K], x: dace.float32[K], r: dace.float32[T]):
    for i in range(T):
        r[i] = A[i, :] @ x


def test_a_product_of_a_box_a_loop_moves_is_a_one_line_error():
    with pytest.raises(SdfgImportError) as info:
        import_sdfg(moving_rows.to_sdfg(simplify=True))
    assert "\n" not in str(info.value)
    assert "operand A 'A[i, 0:K]' is a box that a loop variable moves; a product of it is not supported yet" in str(info.value)


N = dace.symbol("N")


def matmul_sdfg(shapes, dtype=dace.float32, subsets=None, wcr=None, view=None, out="C", out_view=False):
    """`out = A @ B` as one MatMul node, built by hand; `subsets` overrides the memlets,
    `view` reads A through a contiguous view of it of that shape (True: A's shape),
    `out_view` writes C through a transposed view of it."""
    sdfg = dace.SDFG("handmade")
    for name, shape in shapes.items():
        sdfg.add_array(name, shape, dtype[name] if isinstance(dtype, dict) else dtype)
    state = sdfg.add_state("main")
    node = MatMul("mm")
    state.add_node(node)
    subsets = subsets or {}
    source = state.add_read("A")
    a = "A"
    if view is not None:
        a = "A_view"
        sdfg.add_view(a, shapes["A"] if view is True else view, dtype)
        view_node = state.add_access(a)
        state.add_edge(source, None, view_node, None, Memlet.from_array("A", sdfg.arrays["A"]))
        source = view_node
    state.add_edge(source, None, node, "_a", Memlet(subsets.get("A", a)))
    state.add_edge(state.add_read("B"), None, node, "_b", Memlet(subsets.get("B", "B")))
    if out_view:
        rows, columns = shapes[out]
        sdfg.add_view(f"{out}_view", (columns, rows), dtype, strides=(1, columns))
        view_node = state.add_access(f"{out}_view")
        state.add_edge(node, "_c", view_node, None, Memlet(f"{out}_view", wcr=wcr))
        state.add_edge(view_node, None, state.add_write(out), None, Memlet.from_array(out, sdfg.arrays[out]))
        return sdfg
    state.add_edge(node, "_c", state.add_write(out), None, Memlet(subsets.get(out, out), wcr=wcr))
    return sdfg


DIAGNOSED = {
    "batched broadcast": (
        lambda: matmul_sdfg({"A": (2, 3, 4), "B": (4, 5), "C": (2, 3, 5)}),
        ("'sdfg.matmul' multiplies a matrix by a matrix or a vector, a vector by a matrix or a vector, or groups of "
        "matrices, not operands of ranks 3 and 2"),
    ),
    "strided box": (
        lambda: matmul_sdfg({"A": (6, 4), "B": (4, 5), "C": (3, 5)}, subsets={"A": "A[0:6:2, 0:4]"}),
        "operand A 'A[0:6:2, 0:4]' is strided; Poplar's slices cannot express it",
    ),
    "reshaping view": (
        lambda: matmul_sdfg({"A": (4, 3), "B": (4, 5), "C": (3, 5)}, view=(3, 4)),
        "operand A 'A_view' views 'A' in a way Poplar's slices cannot express",
    ),
    "transposed result": (
        lambda: matmul_sdfg({"A": (3, 4), "B": (4, 5), "C": (5, 3)}, out_view=True),
        "writes its result 'C_view' through a transposed view; not supported",
    ),
    "other accumulation": (
        lambda: matmul_sdfg({"A": (3, 4), "B": (4, 5), "C": (3, 5)}, wcr="lambda a, b: max(a, b)"),
        "writes 'C' with write-conflict resolution 'lambda a, b: max(a, b)'; only a sum (C += A @ B) is supported",
    ),
    "beta with an accumulation": (
        lambda: _with(matmul_sdfg({"A": (3, 4), "B": (4, 5), "C": (3, 5)}, wcr="lambda a, b: a + b"), beta=0.5),
        "adds alpha A B + beta C (beta 0.5) into 'C' (write-conflict resolution); not supported",
    ),
    "symbolic alpha": (
        lambda: _with(matmul_sdfg({"A": (3, 4), "B": (4, 5), "C": (3, 5)}), alpha="N"),
        "alpha 'N' is not a number; a symbolic alpha is not supported yet",
    ),
    "reordered groups": (
        lambda: _view_of_a(matmul_sdfg({"A": (4, 2, 3), "B": (2, 3, 5), "C": (2, 4, 5)}), (2, 4, 3), (3, 6, 1)),
        "operand A 'A_T' views 'A' with its dimensions reordered; only a transpose of matrices is supported",
    ),
    "broadcast cin": (
        lambda: _gemm_with_cin((5,)),
        "adds beta times 'bias[0:5]', which is broadcast over the result 'C[0:3, 0:5]'; not supported yet",
    ),
    "integers": (
        lambda: matmul_sdfg({"A": (3, 4), "B": (4, 5), "C": (3, 5)}, dtype=dace.int32),
        "MatMul of i32 elements is not supported (poplin multiplies float32 and float16, and float64 demoted to float32)",
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


def _with(sdfg: dace.SDFG, **properties) -> dace.SDFG:
    (node,) = [n for n in sdfg.nodes()[0].nodes() if isinstance(n, MatMul)]
    for key, value in properties.items():
        setattr(node, key, value)
    return sdfg


def _view_of_a(sdfg: dace.SDFG, shape, strides) -> dace.SDFG:
    """The product reads A through a view of it with `shape` and `strides`."""
    sdfg.add_view("A_T", shape, dace.float32, strides=strides)
    state = sdfg.nodes()[0]
    (edge,) = [e for e in state.edges() if e.dst_conn == "_a"]
    view = state.add_access("A_T")
    state.remove_edge(edge)
    state.add_edge(edge.src, None, view, None, Memlet.from_array("A", sdfg.arrays["A"]))
    state.add_edge(view, None, edge.dst, "_a", Memlet.from_array("A_T", sdfg.arrays["A_T"]))
    return sdfg


def _gemm_with_cin(shape) -> dace.SDFG:
    """C = A B + 2 bias, bias of `shape` (DaCe broadcasts it over C's rows)."""
    sdfg = dace.SDFG("handmade")
    for name, s in {"A": (3, 4), "B": (4, 5), "C": (3, 5), "bias": shape}.items():
        sdfg.add_array(name, s, dace.float32)
    state = sdfg.add_state("main")
    node = Gemm("mm", beta=2)
    state.add_node(node)
    for conn, name in (("_a", "A"), ("_b", "B"), ("_cin", "bias")):
        state.add_edge(state.add_read(name), None, node, conn, Memlet.from_array(name, sdfg.arrays[name]))
    state.add_edge(node, "_c", state.add_write("C"), None, Memlet.from_array("C", sdfg.arrays["C"]))
    return sdfg


@pytest.mark.parametrize("case", sorted(DIAGNOSED))
def test_unsupported_products_are_one_line_errors(case):
    build, message = DIAGNOSED[case]
    with pytest.raises(SdfgImportError) as info:
        import_sdfg(build())
    text = str(info.value)
    assert "\n" not in text
    assert text.startswith(("SDFG 'handmade', state 'main', node 'mm' (MatMul): ", "SDFG 'handmade', state 'main', node 'mm' (Gemm): ")), text
    assert message in text, text


def test_complex_elements_are_reported_with_their_container():
    with pytest.raises(SdfgImportError) as info:
        import_sdfg(matmul_sdfg({"A": (3, 4), "B": (4, 5), "C": (3, 5)}, dtype=dace.complex64))
    assert str(info.value) == "SDFG 'handmade': container 'A' has unsupported data type 'complex64'"


@pytest.mark.parametrize(
    "build, operands",
    [
        (lambda: matmul_sdfg({"A": (6, 4), "B": (4, 5), "C": (3, 5)}, subsets={"A": "A[1:4, 0:4]"}),
         '%A[1:4, 0:4], %B to %C'),
        (lambda: matmul_sdfg({"A": (3, 4), "B": (4, 5), "C": (3, 5)}, view=True), "%A, %B to %C"),
        (lambda: _transposed_view_sdfg(), "transpose %A, %B to %C"),
        (lambda: matmul_sdfg({"A": (3, 4), "B": (4, 5), "C": (3, 5)}, wcr="lambda a, b: a + b"),
         "%A, %B to %C beta 1.000000e+00"),
    ],
    ids=["box", "view", "transposed view", "accumulated"],
)
def test_boxes_views_and_accumulation(build, operands):
    (op,) = [o for o in import_sdfg(build()).walk() if isinstance(o, sd.MatmulOp)]
    assert f'sdfg.matmul "mm" {operands} :' in str(op)


def _transposed_view_sdfg() -> dace.SDFG:
    return _view_of_a(matmul_sdfg({"A": (4, 3), "B": (4, 5), "C": (3, 5)}), (3, 4), (1, 3))


@pytest.mark.parametrize(
    "node, operands",
    [
        (lambda: Gemm("mm", transA=True, transB=True, alpha=2, beta=0.5), "transpose %A, transpose %B to %C alpha 2.000000e+00 beta 5.000000e-01"),
        (lambda: Gemv("mm", transA=True, alpha=3), "transpose %A, %x to %y alpha 3.000000e+00"),
        (lambda: BatchedMatMul("mm"), "%G, %H to %P"),
        (lambda: Dot("mm"), "%x, %z to %s"),
    ],
    ids=["gemm", "gemv", "batched", "dot"],
)
def test_blas_nodes(node, operands):
    sdfg = dace.SDFG("handmade")
    shapes = {"A": (3, 3), "B": (3, 3), "C": (3, 3), "x": (3,), "y": (3,), "z": (3,), "s": (1,),
              "G": (2, 3, 3), "H": (2, 3, 3), "P": (2, 3, 3)}
    for name, shape in shapes.items():
        sdfg.add_array(name, shape, dace.float32)
    state = sdfg.add_state("main")
    made = node()
    conns = {Gemm: ("A", "B", "C"), Gemv: ("A", "x", "y"), BatchedMatMul: ("G", "H", "P"), Dot: ("x", "z", "s")}[type(made)]
    old = {Gemm: "_cin", Gemv: "_y"}.get(type(made))  # C's old value, read when beta != 0
    state.add_node(made)
    for conn in sorted(made.in_connectors):
        name = conns[2] if conn == old else conns[sorted(c for c in made.in_connectors if c != old).index(conn)]
        state.add_edge(state.add_read(name), None, made, conn, Memlet.from_array(name, sdfg.arrays[name]))
    (out,) = made.out_connectors
    state.add_edge(made, out, state.add_write(conns[2]), None, Memlet(f"{conns[2]}[0]" if out == "_result" else conns[2]))
    (op,) = [o for o in import_sdfg(sdfg).walk() if isinstance(o, sd.MatmulOp)]
    assert f'sdfg.matmul "mm" {operands}' in str(op)
