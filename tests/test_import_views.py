"""Tests for views, transposes and nested SDFGs in the importer
(ipu_lower/frontend/views.py; nested SDFGs become `sdfg.nested`, which sdfg-inline-nested
inlines): what accesses of which containers they become, and the one-line errors for
those it cannot resolve.
(No `from __future__ import annotations`: DaCe reads the programs' annotations.)"""

import dace
import pytest
from xdsl.context import Context

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.frontend.importer import SdfgImportError, import_sdfg
from ipu_lower.frontend.views import ViewError, window
from ipu_lower.passes.sdfg_inline_nested import SdfgInlineNestedPass

M = dace.symbol("M")
N = dace.symbol("N")


def imported(program, simplify: bool = False) -> sd.SdfgOp:
    module = import_sdfg(program.to_sdfg(simplify=simplify))
    module.verify()
    (sdfg_op,) = module.ops
    return sdfg_op


def access_texts(sdfg_op: sd.SdfgOp) -> list[str]:
    """Every read and write as `r A[i, j + 1]` / `w B[i]`, map parameters by name."""
    texts = []
    for op in sdfg_op.walk():
        if isinstance(op, sd.ReadOp | sd.WriteOp):
            names = [v.name_hint or f"d{k}" for k, v in enumerate(op.indices)]
            subset = ", ".join(e.format(lambda d: names[d]) for e in op.subset_exprs())
            texts.append(f"{'r' if isinstance(op, sd.ReadOp) else 'w'} {sd.container_name(op.container)}[{subset}]")
    return texts


def copies(sdfg_op: sd.SdfgOp) -> list[str]:
    return [
        f"{sd.container_name(op.source)}{[(str(b), str(e)) for b, e in op.source_ranges()]} -> "
        f"{sd.container_name(op.destination)}{[(str(b), str(e)) for b, e in op.destination_ranges()]}"
        for op in sdfg_op.walk()
        if isinstance(op, sd.CopyOp)
    ]


def inlined(sdfg: dace.SDFG) -> sd.SdfgOp:
    """`sdfg` imported, its nested SDFGs inlined by sdfg-inline-nested."""
    module = import_sdfg(sdfg)
    module.verify()
    SdfgInlineNestedPass().apply(Context(), module)
    module.verify()
    (sdfg_op,) = module.ops
    return sdfg_op


def bindings(sdfg_op: sd.SdfgOp) -> list[str]:
    """Each `sdfg.nested` as `label: direction x = A[...], ... | K = ...`, over `d0, d1, ...`
    of the argument (no index operands in these programs)."""
    return [
        f"{op.label.data}: "
        + ", ".join(f"{d} {c} = {sd.container_name(v)}[{', '.join(map(str, b))}]" for c, d, v, b in op.arguments())
        + " | " + ", ".join(f"{k} = {v}" for k, v in op.symbol_mapping().items())
        for op in sdfg_op.walk() if isinstance(op, sd.NestedOp)
    ]


def container_names(sdfg_op: sd.SdfgOp) -> list[str]:
    return [op.container_name.data for op in sdfg_op.containers()]


# -- views of DaCe's numpy frontend (without simplify, which removes most of them) ----------


@dace.program
def interior(A: dace.float32[N, N], B: dace.float32[N, N]):
    B[1:-1, 1:-1] = A[:-2, 1:-1] + A[2:, 1:-1]


@dace.program
def row(A: dace.float32[M, N], y: dace.float32[N]):
    x = A[3, :]
    y[:] = x * 2 + y


@dace.program
def column(A: dace.float32[M, N], y: dace.float32[M]):
    x = A[:, 2]
    y[:] = x * 2 + y


@dace.program
def reshaped(A: dace.float32[M, N], B: dace.float32[N, M]):
    B[:] = A.reshape([N, M]) + 1


@dace.program
def transposed(A: dace.float32[M, N], B: dace.float32[N, M]):
    B[:] = A.T


@dace.program
def shifted(A: dace.float32[N + 2], B: dace.float32[N]):
    B[:] = A[2:N + 2]


def test_slices_become_offsets_of_the_viewed_container():
    sdfg_op = imported(interior)
    assert "A_0" not in container_names(sdfg_op) and "A_1" not in container_names(sdfg_op)
    assert access_texts(sdfg_op) == ["r A[__i0, __i1 + 1]", "r A[__i0 + 2, __i1 + 1]", "w __tmp0[__i0, __i1]"]
    assert copies(sdfg_op) == ["__tmp0[('0', 'N - 2'), ('0', 'N - 2')] -> B[('1', 'N - 1'), ('1', 'N - 1')]"]


def test_row_and_column_views_fix_a_dimension():
    # x views A_0, which views A: the chain is followed to A
    assert access_texts(imported(row))[0] == "r A[3, __i0]"
    assert access_texts(imported(column))[0] == "r A[__i0, 2]"


def test_a_reshape_splits_the_row_major_offset():
    assert access_texts(imported(reshaped))[0] == "r A[((__i0 * M + __i1) floordiv N), ((__i0 * M + __i1) mod N)]"
    assert access_texts(imported(reshaped, simplify=True))[0] == access_texts(imported(reshaped))[0]


def test_a_transpose_is_a_map_reading_the_transposed_element():
    sdfg_op = imported(transposed, simplify=True)
    (map_op,) = [op for op in sdfg_op.walk() if isinstance(op, sd.MapOp)]
    assert map_op.label.data == "_Transpose_"
    assert [str(hi) for _, hi, _ in map_op.ranges()] == ["N", "M"]
    assert access_texts(sdfg_op) == ["r A[i1, i0]", "w B[i0, i1]"]


def test_a_copy_through_a_view_copies_the_viewed_box():
    assert copies(imported(shifted)) == ["A[('2', 'N + 2')] -> B[('0', 'N')]"]


def transposed_view_copy() -> dace.SDFG:
    """B = A viewed transposed (strides (1, N) on an (N, N) A), copied."""
    sdfg = dace.SDFG("tcopy")
    sdfg.add_array("A", [N, N], dace.float32)
    sdfg.add_array("B", [N, N], dace.float32)
    sdfg.add_view("T", [N, N], dace.float32, strides=[1, N])
    state = sdfg.add_state("main")
    view = state.add_access("T")
    state.add_edge(state.add_read("A"), None, view, "views", dace.Memlet("A[0:N, 0:N]"))
    state.add_edge(view, None, state.add_write("B"), None, dace.Memlet("T[0:N, 0:N]"))
    return sdfg


def test_a_copy_through_a_transposed_view_is_a_map():
    module = import_sdfg(transposed_view_copy())
    module.verify()
    (sdfg_op,) = module.ops
    assert not copies(sdfg_op)
    assert access_texts(sdfg_op) == ["r A[i1, i0]", "w B[i0, i1]"]


# -- the alias of one view -------------------------------------------------------------------


def exprs(*values) -> list[IndexExpr]:
    return [IndexExpr.lift(v) if not isinstance(v, str) else IndexExpr.symbol(v) for v in values]


def ranges(*triples) -> list[tuple[IndexExpr, IndexExpr, IndexExpr]]:
    return [tuple(IndexExpr.lift(v) for v in t) for t in triples]  # type: ignore[misc]


def texts(indices) -> list[str]:
    return [str(e) for e in indices]


def test_window_of_slices_rows_and_transposes():
    # a 6x8 parent (strides 8, 1)
    parent = exprs(6, 8), exprs(8, 1)
    assert texts(window("v", exprs(4, 6), exprs(8, 1), "A", *parent, ranges((1, 4, 1), (2, 7, 1)))) == ["d0 + 1", "d1 + 2"]
    assert texts(window("v", exprs(8), exprs(1), "A", *parent, ranges((3, 3, 1), (0, 7, 1)))) == ["3", "d0"]
    assert texts(window("v", exprs(6), exprs(8), "A", *parent, ranges((0, 5, 1), (2, 2, 1)))) == ["d0", "2"]
    assert texts(window("v", exprs(8, 6), exprs(1, 8), "A", *parent, ranges((0, 5, 1), (0, 7, 1)))) == ["d1", "d0"]
    assert texts(window("v", exprs(3), exprs(2), "A", *parent, ranges((1, 1, 1), (0, 5, 2)))) == ["1", "2 * d0"]
    # extra unit dimensions of the view drop out
    assert texts(window("v", exprs(1, 8), exprs(8, 1), "A", *parent, ranges((3, 3, 1), (0, 7, 1)))) == ["3", "d1"]


def test_window_of_a_reshape():
    parent = exprs(6, 8), exprs(8, 1)
    assert texts(window("v", exprs(8, 6), exprs(6, 1), "A", *parent, ranges((0, 5, 1), (0, 7, 1)))) == [
        "((6 * d0 + d1) floordiv 8)", "((6 * d0 + d1) mod 8)"]
    # a reshape of rows 2 and 3 starts at their first element
    assert texts(window("v", exprs(4, 4), exprs(4, 1), "A", *parent, ranges((2, 3, 1), (0, 7, 1)))) == [
        "((4 * d0 + d1 + 16) floordiv 8)", "((4 * d0 + d1 + 16) mod 8)"]


@pytest.mark.parametrize("view, subset, message", [
    ((exprs(8), exprs(-1)), ranges((0, 0, 1), (7, 0, -1)), "view 'v' of 'A' has a negative stride -1"),
    ((exprs(6), exprs(1)), ranges((0, 5, 1), (2, 2, 1)), "view 'v' of 'A' has shape (6) and strides (1), which are "
                                                         "neither the strides (8) of the viewed subset's dimensions"),
    ((exprs(4, 2), exprs(2, 1)), ranges((0, 3, 1), (0, 1, 1)), "nor a reshape of a contiguous subset"),
])
def test_window_errors(view, subset, message):
    with pytest.raises(ViewError) as info:
        window("v", *view, "A", exprs(6, 8), exprs(8, 1), subset)
    assert message in info.value.message


# -- nested SDFGs -------------------------------------------------------------------------------


@dace.program
def doubled(x: dace.float32[N], y: dace.float32[N]):
    t = x * dace.float32(2)
    y[:] = t + x
    y[1:] = t[1:]  # overwrites: a second state, so simplify keeps the nested SDFG


@dace.program
def caller(a: dace.float32[N + 1], b: dace.float32[N + 1]):
    doubled(a[1:], b[:-1])


@dace.program
def rows_caller(A: dace.float32[M, N], B: dace.float32[M, N]):
    t = A[0] + dace.float32(1)
    doubled(A[1], B[2])
    B[0] = t


@pytest.mark.parametrize("simplify", [False, True])
def test_nested_sdfg_is_imported_as_it_is(simplify):
    sdfg_op = imported(caller, simplify)
    (text,) = bindings(sdfg_op)
    assert text.endswith("doubled: in x = a[d0 + 1], out y = b[d0] | N = N")  # doubled(a[1:], b[:-1])
    (nested,) = [op for op in sdfg_op.walk() if isinstance(op, sd.NestedOp)]
    assert nested.inner.arg_names.data[0].data == "x" and "t" in container_names(nested.inner)


@pytest.mark.parametrize("simplify", [False, True])
def test_nested_sdfg_states_replace_the_call(simplify):
    sdfg = caller.to_sdfg(simplify=simplify)
    assert any(isinstance(n, dace.nodes.NestedSDFG) for n, _ in sdfg.all_nodes_recursive())
    sdfg_op = inlined(sdfg)
    texts = access_texts(sdfg_op)
    assert "r a[__i0 + 1]" in texts  # x[i] of doubled(a[1:], ...) is a[i + 1]
    assert not any(" x[" in t or " y[" in t for t in texts)
    assert "t" in container_names(sdfg_op) and sd.container_name(sdfg_op.containers()[0].result) == "a"


def test_nested_sdfg_rows_and_a_renamed_transient():
    assert bindings(imported(rows_caller))[0].endswith("doubled: in x = A[1, d0], out y = B[2, d0] | N = N")
    sdfg_op = inlined(rows_caller.to_sdfg(simplify=False))
    texts = access_texts(sdfg_op)
    assert "r A[1, __i0]" in texts  # x[i] of doubled(A[1], B[2]) is A[1, i]
    assert "__tmp2[('0', 'N')] -> B[('2', '3'), ('0', 'N')]" in copies(sdfg_op)  # y[:] = ... is B[2, :]
    names = container_names(sdfg_op)
    assert "t" in names and len(set(names)) == len(names)  # the caller's t and the callee's, renamed
    assert any(n.endswith("doubled_t") for n in names), names


K = dace.symbol("K")


@dace.program
def increment(u: dace.float32[K]):
    u[:] = u + dace.float32(1)


@dace.program
def increment_part_of_a_row(A: dace.float32[M, N]):
    increment(A[2, 1:])


def test_nested_sdfg_with_another_symbol_name():
    assert bindings(imported(increment_part_of_a_row))[0].endswith("increment: inout u = A[2, d0 + 1] | K = N - 1")
    sdfg_op = inlined(increment_part_of_a_row.to_sdfg(simplify=False))
    (map_op,) = [op for op in sdfg_op.walk() if isinstance(op, sd.MapOp)]
    assert [str(hi) for _, hi, _ in map_op.ranges()] == ["N - 1"]  # K is N - 1 here
    assert "r A[2, __i0 + 1]" in access_texts(sdfg_op)
    assert "A[('2', '3'), ('1', 'N')]" in copies(sdfg_op)[0]
    assert sdfg_op.symbol_names() == ["M", "N"]


def test_nested_sdfg_argument_with_strides_that_do_not_address_it():
    # DaCe 1.0.2 gives the column argument strides in the callee's own symbols (M here)
    @dace.program
    def columns(A: dace.float32[M, N], B: dace.float32[M, N]):
        doubled(A[:, 0], B[:, 1])

    with pytest.raises(SdfgImportError) as info:
        import_sdfg(columns.to_sdfg(simplify=False))
    message = str(info.value)
    assert "\n" not in message
    assert "(NestedSDFG): nested SDFG '" in message and "doubled': argument 'x' of 'A" in message
    assert "which are neither the strides (N) of the viewed subset's dimensions" in message


@dace.program
def rows_in_a_loop(A: dace.float32[M, N], B: dace.float32[M, N]):
    for t in range(M):
        doubled(A[t], B[t])


def test_nested_sdfg_in_a_loop_binds_the_loop_variable():
    # the loop keeps the nested SDFG even simplified; its rows move with t, an index operand
    sdfg_op = imported(rows_in_a_loop, simplify=True)
    (nested,) = [op for op in sdfg_op.walk() if isinstance(op, sd.NestedOp)]
    (loop,) = [op for op in sdfg_op.walk() if isinstance(op, sd.ForOp)]
    assert list(nested.indices) == [loop.variable]
    assert [[str(e) for e in b] for *_, b in nested.arguments()] == [["d0", "d1"], ["d0", "d1"]]  # A[t, i], B[t, i]
    texts = access_texts(inlined(rows_in_a_loop.to_sdfg(simplify=True)))
    assert "r A[t, __i0]" in texts and "w t[__i0]" in texts


def copy_of_two() -> dace.SDFG:
    """A nested SDFG `inner` that copies its argument a (2 elements) into b."""
    inner = dace.SDFG("inner")
    inner.add_array("a", [2], dace.float32)
    inner.add_array("b", [2], dace.float32)
    s = inner.add_state("s")
    s.add_nedge(s.add_read("a"), s.add_write("b"), dace.Memlet("a[0:2]"))
    return inner


def test_nested_sdfg_left_in_a_map_is_imported_in_the_map(monkeypatch):
    # the rewrites before import take the nested SDFGs out of most maps; one they leave
    # (here: with interchange_map_loops off) is an sdfg.nested in the sdfg.map, its argument at
    # the map parameter, and sdfg-inline-nested says it cannot inline it yet
    from ipu_lower.diagnostics import IpuLowerError
    from ipu_lower.frontend import importer

    monkeypatch.setattr(importer, "interchange_map_loops", lambda sdfg: None)
    sdfg = dace.SDFG("outer")
    sdfg.add_array("x", [N, 2], dace.float32)
    sdfg.add_array("y", [N, 2], dace.float32)
    state = sdfg.add_state("main")
    entry, exit_ = state.add_map("m", {"i": "0:N"})
    node = state.add_nested_sdfg(copy_of_two(), sdfg, {"a"}, {"b"}, {})
    state.add_memlet_path(state.add_read("x"), entry, node, dst_conn="a", memlet=dace.Memlet("x[i, 0:2]"))
    state.add_memlet_path(node, exit_, state.add_write("y"), src_conn="b", memlet=dace.Memlet("y[i, 0:2]"))
    module = import_sdfg(sdfg)
    module.verify()
    (nested,) = [op for op in module.walk() if isinstance(op, sd.NestedOp)]
    (map_op,) = [op for op in module.walk() if isinstance(op, sd.MapOp) and op.label.data == "m"]
    assert nested.parent_op() is map_op and list(nested.indices) == list(map_op.params)
    assert [[str(e) for e in b] for *_, b in nested.arguments()] == [["d0", "d1"], ["d0", "d1"]]  # x[i, k], y[i, k]
    with pytest.raises(IpuLowerError, match="nested SDFG 'inner' is inside map 'm'; nested SDFGs inside maps"):
        SdfgInlineNestedPass().apply(Context(), module)


def test_nested_sdfg_argument_at_a_symbol_that_holds_data():
    # p = k[0] on an interstate edge: a value at run time, which a binding cannot hold yet
    sdfg = dace.SDFG("outer")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_array("y", [N], dace.float32)
    sdfg.add_array("k", [1], dace.int32)
    sdfg.add_symbol("p", dace.int32)
    first, state = sdfg.add_state("first"), sdfg.add_state("main")
    sdfg.add_edge(first, state, dace.InterstateEdge(assignments={"p": "k[0]"}))
    node = state.add_nested_sdfg(copy_of_two(), sdfg, {"a"}, {"b"}, {})
    state.add_edge(state.add_read("x"), None, node, "a", dace.Memlet("x[p:p+2]"))
    state.add_edge(node, "b", state.add_write("y"), None, dace.Memlet("y[0:2]"))
    with pytest.raises(SdfgImportError) as info:
        import_sdfg(sdfg)
    assert str(info.value) == (
        "SDFG 'outer', state 'main', node 'inner' (NestedSDFG): argument 'a' of nested SDFG 'inner' is the part of "
        "'x' at 'p', a symbol an interstate edge assigns (data at run time); not supported yet"
    )
