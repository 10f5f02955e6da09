"""The importer on reductions, and the passes that expand them: each `Reduce` node is one
`sdfg.library_reduce` as DaCe holds it; sdfg-choose-reductions and
sdfg-expand-reductions make those popops can reduce `sdfg.reduce` with DaCe's meaning of
identities and the others maps that `sdfg.accumulate`, as WCR memlets and integer `Dot`
nodes are imported (ipu_lower.frontend.reductions); what the importer cannot import is
one line naming the SDFG, state and node."""

import importlib.util
from pathlib import Path

import dace
import numpy as np
import pytest
from dace import dtypes
from dace.frontend.operations import detect_reduction_type

from ipu_lower.dialects import sdfg as sd
from ipu_lower.frontend.importer import SdfgImportError, import_sdfg
from ipu_lower.frontend.reductions import reduction_kind, reduction_type
from ipu_lower.passes.sdfg_choose_reductions import SdfgChooseReductionsPass
from ipu_lower.passes.sdfg_copy_reduction_boxes import SdfgCopyReductionBoxesPass
from ipu_lower.passes.sdfg_expand_reductions import SdfgExpandReductionsPass
from ipu_lower.passes.sdfg_hoist_reductions import SdfgHoistReductionsPass
from xdsl.context import Context

N = dace.symbol("N")
M = dace.symbol("M")


# -- recognising the lambda ----------------------------------------------------------------

LAMBDAS = {
    "lambda a, b: a + b": "add",
    "(lambda x, y: (x + y))": "add",  # as DaCe saves it
    "lambda a, b: b + a": "add",
    "lambda a, b: a * b": "mul",
    "lambda x, y: max(x, y)": "max",
    "lambda a, b: max(b, a)": "max",
    "lambda a, b: min(a, b)": "min",
    "lambda a, b: a - b": None,
    "lambda a, b: a + a": None,
    "lambda a, b: a / b": None,
    "lambda a, b: b": None,
    "lambda a, b: a & b": None,
    "lambda a, b: 2 * a + b": None,
    "lambda a, b, c: a + b": None,
    "lambda a, b=1: a + b": None,
    "lambda a, b: max(a, b, 0)": None,
    "lambda a, b: abs(a) + b": None,
}


@pytest.mark.parametrize("wcr", sorted(LAMBDAS))
def test_reduction_is_recognised_from_the_syntax_tree(wcr):
    assert reduction_kind(wcr) == LAMBDAS[wcr]


@pytest.mark.parametrize("wcr", sorted(LAMBDAS))
def test_known_reductions_agree_with_dace(wcr):
    """What we call Sum, Product, Min, Max, DaCe's detect_reduction_type (which
    evaluates the lambda: fine on these strings of ours) calls so too."""
    ours = reduction_type(wcr)
    if ours in (dtypes.ReductionType.Sum, dtypes.ReductionType.Product, dtypes.ReductionType.Min,
                dtypes.ReductionType.Max):
        assert detect_reduction_type(wcr) == ours
    else:
        assert ours == dtypes.ReductionType.Custom


def test_hostile_lambda_is_not_evaluated():
    assert reduction_kind("lambda a, b: __import__('os').system('false')") is None
    assert reduction_kind("not python (") is None
    assert reduction_type(None) is None


# -- programs --------------------------------------------------------------------------------


@dace.program
def wcr_sum(A: dace.float32[N], s: dace.float32[1]):
    for i in dace.map[0:N]:
        s[0] += A[i]


@dace.program
def wcr_product(A: dace.float32[N], s: dace.float32[1]):
    for i in dace.map[0:N]:
        s[0] *= A[i]


@dace.program
def row_sums(A: dace.float32[M, N], s: dace.float32[M]):
    for i, j in dace.map[0:M, 0:N]:
        s[i] += A[i, j]


@dace.program
def wcr_dot(x: dace.float32[N], y: dace.float32[N], s: dace.float32[1]):
    for i in dace.map[0:N]:
        s[0] += x[i] * y[i]


@dace.program
def np_sum(A: dace.float32[N], s: dace.float32[1]):
    s[0] = np.sum(A)


@dace.program
def np_max(A: dace.int32[N], s: dace.int32[1]):
    s[0] = np.max(A)


@dace.program
def column_sums(A: dace.float32[M, N], s: dace.float32[N]):
    s[:] = np.sum(A, axis=0)


@dace.program
def row_minima(A: dace.float32[M, N]):
    return np.min(A, axis=1)


# Dot products of integers stay reductions (poplin multiplies floats: test_import_matmul)
@dace.program
def np_dot(x: dace.int32[N], y: dace.int32[N], s: dace.int32[1]):
    s[0] = np.dot(x, y)


@dace.program
def matmul_of_vectors(x: dace.int32[N], y: dace.int32[N], s: dace.int32[1]):
    s[0] = x @ y


def unknown_wcr_program():
    """`weighted`, whose WCR lambda is `p + 2 * q` (the input of ipu-opt's lit test)."""
    path = Path(__file__).parent / "lit" / "Inputs" / "unknown_wcr.py"
    spec = importlib.util.spec_from_file_location("unknown_wcr", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.weighted


def imported(program):
    module = import_sdfg(program.to_sdfg(simplify=True))
    module.verify()
    return module


def expanded(module):
    """`module` after the passes that hoist, choose, copy and expand reductions."""
    for step in (SdfgHoistReductionsPass(), SdfgChooseReductionsPass(), SdfgCopyReductionBoxesPass(),
                 SdfgExpandReductionsPass()):
        step.apply(Context(), module)
    module.verify()
    return module


def ops_of(module, kind):
    return [op for op in module.walk() if isinstance(op, kind)]


def access_text(op) -> str:
    names = [v.name_hint for v in op.indices]
    subset = ", ".join(e.format(lambda d: names[d]) for e in op.subset_exprs())
    return f"{sd.container_name(op.container)}[{subset}]"


def accumulates(module) -> list[tuple[str, str]]:
    return [(op.kind.data, access_text(op)) for op in ops_of(module, sd.AccumulateOp)]


@pytest.mark.parametrize(
    "program, expected",
    [
        (wcr_sum, [("add", "s[0]")]),
        (wcr_product, [("mul", "s[0]")]),
        (row_sums, [("add", "s[i]")]),
        (wcr_dot, [("add", "s[0]")]),
    ],
)
def test_wcr_memlet_becomes_accumulate_in_its_map(program, expected):
    module = imported(program)
    assert accumulates(module) == expected
    (accumulate,) = ops_of(module, sd.AccumulateOp)
    assert isinstance(accumulate.parent_op(), sd.MapOp)
    assert not ops_of(module, sd.WriteOp)  # WCR adds to s: no initial write


def test_dot_of_wcr_map_multiplies_then_accumulates():
    module = imported(wcr_dot)
    (accumulate,) = ops_of(module, sd.AccumulateOp)
    tasklets = ops_of(module, sd.TaskletOp)
    assert [op.name for t in tasklets for op in t.body.block.ops if op.name.startswith("arith")] == ["arith.mulf"]
    assert accumulate.value.owner is tasklets[-1]


def reduces(module) -> list[tuple]:
    """Each `sdfg.reduce`: kind, input box, output box, dims, update."""

    def box(value, ranges) -> str:
        return f"{sd.container_name(value)}[{', '.join(f'{b}:{e}' for b, e in ranges)}]"

    return [
        (op.kind.data, box(op.input, op.input_ranges()), box(op.out, op.output_ranges()), op.dim_list(), op.is_update())
        for op in ops_of(module, sd.ReduceOp)
    ]


@pytest.mark.parametrize(
    "program, expected",
    [
        (np_sum, ("add", "A[0:N]", "__tmp0[]", [0], False)),
        (np_max, ("max", "A[0:N]", "__tmp0[]", [0], False)),
        (column_sums, ("add", "A[0:M, 0:N]", "s[0:N]", [0], False)),
        (row_minima, ("min", "A[0:M, 0:N]", "__return[0:M]", [1], False)),
    ],
)
def test_reduce_node_with_its_neutral_identity_is_a_popops_reduction(program, expected):
    """numpy's reductions start from the operation's identity (0, the smallest int32,
    the largest float32): a plain `sdfg.reduce`, nothing written first."""
    module = expanded(imported(program))
    assert reduces(module) == [expected]
    assert not accumulates(module) and not ops_of(module, sd.MapOp)


@dace.program
def short_sum(x: dace.int16[N], s: dace.int16[1]):
    s[0] = np.sum(x)


@dace.program
def byte_column_maxima(A: dace.uint8[M, N], s: dace.uint8[N]):
    s[:] = np.max(A, axis=0)


@pytest.mark.parametrize(
    "program, identity, expected",
    [
        (short_sum, 0, [("add", "__tmp0[]")]),
        (byte_column_maxima, 0, [("max", "s[_i1]")]),
    ],
)
def test_reduce_node_on_the_tree_writes_its_identity_then_accumulates(program, identity, expected):
    """Element types popops does not reduce (16-bit, unsigned) stay on our tree: the
    identity written into the output, then a map that accumulates."""
    module = expanded(imported(program))
    assert accumulates(module) == expected and not reduces(module)
    state = ops_of(module, sd.StateOp)[0]
    ops = list(state.body.block.ops)
    (reduce_map,) = [op for op in ops if isinstance(op, sd.MapOp) and op.label.data == "Reduce"]
    init = ops[: ops.index(reduce_map)]
    constants = [op for t in init for op in t.walk() if op.name == "arith.constant"]
    assert [c.value.value.data for c in constants] == [identity]
    writes = [op for t in init for op in t.walk() if isinstance(op, sd.WriteOp)]
    assert [sd.container_name(w.container) for w in writes] == [expected[0][1].split("[")[0]]
    reads = [access_text(op) for op in reduce_map.walk() if isinstance(op, sd.ReadOp)]
    assert len(reads) == 1 and reads[0].split("[")[0] in ("A", "x")


def library_reduces(module) -> list[tuple]:
    """Each `sdfg.library_reduce`: kind, input box, output box, axes, identity, update."""

    def box(value, ranges) -> str:
        return f"{sd.container_name(value)}[{', '.join(f'{b}:{e}' for b, e in ranges)}]"

    return [
        (op.kind.data, box(op.input, op.input_ranges()), box(op.out, op.output_ranges()), op.axis_list(),
         None if op.identity is None else op.identity.value.data, op.update is not None)
        for op in ops_of(module, sd.LibraryReduceOp)
    ]


@pytest.mark.parametrize(
    "program, expected",
    [
        (np_sum, ("add", "A[0:N]", "__tmp0[]", [0], 0.0, False)),
        (np_max, ("max", "A[0:N]", "__tmp0[]", [0], -(2**31), False)),
        (column_sums, ("add", "A[0:M, 0:N]", "s[0:N]", [0], 0.0, False)),
        (short_sum, ("add", "x[0:N]", "__tmp0[]", [0], 0, False)),
    ],
)
def test_reduce_node_is_imported_as_it_is(program, expected):
    """One `sdfg.library_reduce` per node, whatever path it takes later: no path yet."""
    module = imported(program)
    assert library_reduces(module) == [expected]
    assert not reduces(module) and not accumulates(module)
    assert all(op.path is None for op in ops_of(module, sd.LibraryReduceOp))


def test_axis_reduction_into_a_view_writes_the_viewed_array():
    """numpy's `s[:] = np.sum(A, axis=0)` reduces into a view of s: the importer resolves
    the view, so the reduction writes the box of s it views."""
    module = imported(column_sums)
    names = [op.container_name.data for op in ops_of(module, sd.ContainerOp)]
    assert names == ["A", "s"]
    (op,) = ops_of(module, sd.LibraryReduceOp)
    assert sd.container_name(op.out) == "s" and [str(e) for _, e in op.output_ranges()] == ["N"]


def reduce_sdfg(wcr: str, identity, dtype=dace.float32, out_wcr: str | None = None, box: str = "0:N") -> dace.SDFG:
    """s[0] = Reduce(x[box]) with `identity`, its output memlet with `out_wcr`."""
    sdfg = dace.SDFG("reduce_semantics")
    sdfg.add_array("x", [N], dtype)
    sdfg.add_array("s", [1], dtype)
    state = sdfg.add_state("main")
    reduce = state.add_reduce(wcr, None, identity)
    state.add_edge(state.add_read("x"), None, reduce, None, dace.Memlet(f"x[{box}]"))
    state.add_edge(reduce, None, state.add_write("s"), None, dace.Memlet("s[0]", wcr=out_wcr))
    return sdfg


ADD, MUL, MIN = "lambda a, b: a + b", "lambda a, b: a * b", "lambda a, b: min(a, b)"


@pytest.mark.parametrize(
    "build, expected, init",
    [
        # an identity that is not neutral: written first, then the sum updates it
        (lambda: reduce_sdfg(ADD, 5), ("add", "x[0:N]", "s[0:1]", [0], True), [5.0]),
        # no identity: DaCe combines the values into the output's old value
        (lambda: reduce_sdfg(ADD, None), ("add", "x[0:N]", "s[0:1]", [0], True), []),
        # a WCR of the same sum on the output: an update too
        (lambda: reduce_sdfg(ADD, 0, out_wcr=ADD), ("add", "x[0:N]", "s[0:1]", [0], True), []),
        (lambda: reduce_sdfg(MUL, 1), ("mul", "x[0:N]", "s[0:1]", [0], False), []),
        (lambda: reduce_sdfg(MIN, float("inf")), ("min", "x[0:N]", "s[0:1]", [0], False), []),
        (lambda: reduce_sdfg(ADD, 0, dace.float16, box="2:N - 1"), ("add", "x[2:N - 1]", "s[0:1]", [0], False), []),
        (lambda: reduce_sdfg(ADD, 0, dace.int32), ("add", "x[0:N]", "s[0:1]", [0], False), []),
    ],
)
def test_dace_reduce_semantics_on_the_popops_path(build, expected, init):
    module = import_sdfg(build())
    module.verify()
    expanded(module)
    assert reduces(module) == [expected]
    constants = [op.value.value.data for op in module.walk() if op.name == "arith.constant"]
    assert constants == init


@pytest.mark.parametrize(
    "build",
    [
        lambda: reduce_sdfg(MUL, 2),  # poplibs updates only sums
        lambda: reduce_sdfg(MUL, None),  # into the old value
        lambda: reduce_sdfg(ADD, 0, dace.uint32),  # not a popops element type
        lambda: reduce_sdfg(ADD, 5, out_wcr=ADD),  # 5 combined with s's value, not written over it
    ],
)
def test_other_reduce_nodes_stay_on_the_tree(build):
    module = expanded(import_sdfg(build()))
    assert not reduces(module) and accumulates(module)


def test_an_update_onto_the_output_accumulates_the_identity_on_the_tree():
    """A product from 2 onto s's value (a WCR of the same product on the output): s is
    multiplied by 2, then by every value, where popops updates only sums."""
    module = expanded(import_sdfg(reduce_sdfg(MUL, 2, out_wcr=MUL)))
    assert accumulates(module) == [("mul", "s[0]"), ("mul", "s[0]")]
    assert not ops_of(module, sd.WriteOp)


def test_np_dot_is_the_sum_of_products_from_zero():
    module = imported(np_dot)
    assert accumulates(module) == [("add", "__tmp0[]")]
    dot_map = ops_of(module, sd.AccumulateOp)[0].parent_op()
    assert sorted(access_text(op) for op in dot_map.walk() if isinstance(op, sd.ReadOp)) == ["x[_i]", "y[_i]"]
    init = [op for op in ops_of(module, sd.TaskletOp) if op.label.data.endswith("_init")]
    assert len(init) == 1


@dace.program
def unsigned_minimum(x: dace.uint8[N], s: dace.uint8[1]):
    s[0] = np.min(x)


def test_unsigned_identity_is_a_signless_constant_cast_to_its_type():
    """arith has no unsigned constants: uint8's largest value, 255, is the i8 -1 cast."""
    module = expanded(imported(unsigned_minimum))
    (init,) = [op for op in ops_of(module, sd.TaskletOp) if op.label.data.endswith("_init")]
    constant, cast, _ = init.body.block.ops
    assert (constant.value.value.data, str(constant.result.type)) == (-1, "i8")
    assert str(cast.results[0].type) == "ui8"


def test_matmul_of_two_vectors_is_a_dot_product():
    module = imported(matmul_of_vectors)
    assert accumulates(module) == [("add", "__tmp0[0]")]
    dot_map = ops_of(module, sd.AccumulateOp)[0].parent_op()
    assert sorted(access_text(op) for op in dot_map.walk() if isinstance(op, sd.ReadOp)) == ["x[_i]", "y[_i]"]
    products = [op.name for op in dot_map.walk() if op.name.startswith("arith.")]
    assert products == ["arith.muli"]


# -- what is diagnosed -----------------------------------------------------------------------


def wcr_copy_sdfg() -> dace.SDFG:
    sdfg = dace.SDFG("wcr_copy")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_array("y", [N], dace.float32)
    state = sdfg.add_state("main")
    state.add_edge(state.add_read("x"), None, state.add_write("y"), None,
                   dace.Memlet("x[0:N]", wcr="lambda a, b: a + b"))
    return sdfg


def reduce_with_identity_sdfg(identity) -> dace.SDFG:
    sdfg = dace.SDFG("odd_identity")
    sdfg.add_array("x", [N], dace.int32)
    sdfg.add_array("s", [1], dace.int32)
    state = sdfg.add_state("main")
    reduce = state.add_reduce("lambda a, b: a + b", None, identity)
    state.add_edge(state.add_read("x"), None, reduce, None, dace.Memlet("x[0:N]"))
    state.add_edge(reduce, None, state.add_write("s"), None, dace.Memlet("s[0]"))
    return sdfg


def reduce_with_lambda_sdfg(wcr) -> dace.SDFG:
    sdfg = dace.SDFG("odd_lambda")
    sdfg.add_array("x", [N], dace.float32)
    sdfg.add_array("s", [1], dace.float32)
    state = sdfg.add_state("main")
    reduce = state.add_reduce(wcr, None, 0)
    state.add_edge(state.add_read("x"), None, reduce, None, dace.Memlet("x[0:N]"))
    state.add_edge(reduce, None, state.add_write("s"), None, dace.Memlet("s[0]"))
    return sdfg


def odd_reduce_sdfg(case: str) -> dace.SDFG:
    """A Reduce node the importer cannot take as it is, one way per case."""
    sdfg = dace.SDFG("odd_reduce")
    sdfg.add_array("A", [M, N], dace.float32)
    sdfg.add_array("x", [2 * N], dace.float32)
    sdfg.add_scalar("c", dace.float32)
    sdfg.add_array("s", [1], dace.float32)
    state = sdfg.add_state("main")
    reduce = state.add_reduce(ADD, [0] if case == "keeps a dimension" else None, 0)
    source = {"keeps a dimension": "A[0:M, 0:N]", "strided": "x[0:2 * N:2]", "scalar": "c"}.get(case, "x[0:2 * N]")
    if case == "reshaped view":
        sdfg.add_view("v", [N, 2], dace.float32)
        view = state.add_access("v")
        state.add_edge(state.add_read("x"), None, view, "views", dace.Memlet("x[0:2 * N]"))
        state.add_edge(view, None, reduce, None, dace.Memlet("v[0:N, 0:2]"))
    else:
        memlet = dace.Memlet(source, wcr=ADD if case == "WCR on the input" else None)
        state.add_edge(state.add_read(source.split("[")[0]), None, reduce, None, memlet)
    if case == "two inputs":
        state.add_edge(state.add_read("A"), None, reduce, None, dace.Memlet("A[0:M, 0:N]"))
    state.add_edge(reduce, None, state.add_write("s"), None, dace.Memlet("s[0]"))
    return sdfg


ODD_REDUCE = "SDFG 'odd_reduce', state 'main', node 'Reduce' (Reduce): "

DIAGNOSED = {
    **{
        f"Reduce: {case}": (lambda case=case: odd_reduce_sdfg(case), ODD_REDUCE + message)
        for case, message in {
            "keeps a dimension": "the kept input dimensions (N) do not match the output (one element) 's'",
            "strided": "strided subset 'x[0:2*N:2]' is not supported yet",
            "scalar": "reduces a scalar",
            "reshaped view": "accesses 'v', a view that is not a box of 'x' (a transpose or a reshape); not supported yet",
            "WCR on the input": "input memlet with write-conflict resolution is not supported",
            "two inputs": "needs exactly one input connected to a container",
        }.items()
    },
    "unknown WCR lambda": (
        lambda: unknown_wcr_program().to_sdfg(simplify=True),
        "SDFG 'unknown_wcr_weighted', state 'MapState', node 'unknown_wcr_weighted_",
    ),
    "unknown Reduce lambda": (
        lambda: reduce_with_lambda_sdfg("lambda a, b: a - b"),
        "SDFG 'odd_lambda', state 'main', node 'Reduce' (Reduce): write-conflict resolution 'lambda a, b: a - b' "
        "is not a known reduction",
    ),
    "WCR on a copy": (
        wcr_copy_sdfg,
        "SDFG 'wcr_copy', state 'main', node 'y' (AccessNode): memlet of 'x' has write-conflict resolution",
    ),
    "identity out of range": (
        lambda: reduce_with_identity_sdfg(2**40),
        "SDFG 'odd_identity', state 'main', node 'Reduce' (Reduce): identity '1099511627776' is not a constant",
    ),
    "WCR of another kind on the output": (
        lambda: reduce_sdfg(ADD, 0, out_wcr=MUL),
        "SDFG 'reduce_semantics', state 'main', node 'Reduce' (Reduce): output memlet's write-conflict resolution "
        "'lambda a, b: a * b' is not the reduction's own (add); not supported yet",
    ),
    "identity not a number": (
        lambda: reduce_with_identity_sdfg("N"),
        "SDFG 'odd_identity', state 'main', node 'Reduce' (Reduce): identity 'N' is not a constant",
    ),
}


@pytest.mark.parametrize("case", sorted(DIAGNOSED))
def test_unsupported_reductions_are_one_line_errors(case):
    build, prefix = DIAGNOSED[case]
    with pytest.raises(SdfgImportError) as info:
        import_sdfg(build())
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(prefix), message
    assert {
        "unknown WCR lambda": "(Tasklet): write-conflict resolution '(lambda p, q: (p + (2 * q)))' is not a known reduction",
    }.get(case, "") in message
