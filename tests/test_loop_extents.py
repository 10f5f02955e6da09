"""Slices whose length depends on a loop variable (`A[i, i:]`, `x[:i]`, `np.dot(A[i, :i],
x[:i])`): the rewrite of ipu_lower.frontend.loop_extents, and triangular programs run
on the emulator against DaCe's CPU result."""

import copy
import importlib.util
import shutil
from pathlib import Path

import dace
import numpy as np
import pytest
from ipu_lower.dialects import sdfg as sd

import ipu_lower
from ipu_lower.emit import to_sdfg
from dace_reference import dace_build, parsed
from ipu_lower.frontend.importer import SdfgImportError, import_sdfg
from ipu_lower.frontend.loop_extents import static_loop_extents
from ipu_lower.passes.sdfg_choose_reductions import SdfgChooseReductionsPass
from ipu_lower.passes.sdfg_expand_reductions import SdfgExpandReductionsPass
from xdsl.context import Context

N = dace.symbol("N")


def _lit_inputs():
    """The programs of the lit test (tests/lit/cli/loop-extents.test)."""
    path = Path(__file__).parent / "lit" / "Inputs" / "loop_extents.py"
    spec = importlib.util.spec_from_file_location("loop_extents_inputs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LIT = _lit_inputs()
eliminate, forward, misaligned = LIT.eliminate, LIT.forward, LIT.misaligned


@dace.program
def scale_upper(A: dace.float32[N, N]):
    for i in range(N):
        A[i, i:] = A[i, i:] * 2


@dace.program
def scale_lower(A: dace.float32[N, N]):
    for i in range(N):
        A[i, :i] = A[i, :i] * 0.5


@dace.program
def backward(U: dace.float32[N, N], b: dace.float32[N], x: dace.float32[N]):
    for i in range(N - 1, -1, -1):
        x[i] = (b[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]


@dace.program
def upper_row_sums(A: dace.float32[N, N], r: dace.float32[N]):
    for i in range(N):
        r[i] = np.sum(A[i, i:])


@dace.program
def lower_row_max(A: dace.float32[N, N], r: dace.float32[N]):
    for i in range(N):
        r[i] = np.max(A[i, :i + 1])


@dace.program
def corner_sums(A: dace.float32[N, N], r: dace.float32[N]):
    for i in range(N):
        r[i] = np.sum(A[i:, :i + 1])


@dace.program
def column_below(A: dace.float32[N, N]):
    for i in range(N):
        A[i + 1:, i] /= A[i, i]


@dace.program
def reflect(A: dace.float32[N, N], B: dace.float32[N, N]):
    for i in range(N):
        B[i:, i] = A[i, i:]


@dace.program
def cholesky(A: dace.float32[N, N]):
    for i in range(N):
        for j in range(i):
            A[i, j] -= np.dot(A[i, :j], A[j, :j])
            A[i, j] /= A[j, j]
        A[i, i] -= np.dot(A[i, :i], A[i, :i])
        A[i, i] = np.sqrt(A[i, i])


@dace.program
def lu(A: dace.float32[N, N]):
    for i in range(N):
        for j in range(i):
            A[i, j] -= A[i, :j] @ A[:j, j]
            A[i, j] /= A[j, j]
        for j in range(i, N):
            A[i, j] -= A[i, :i] @ A[:i, j]


def _case(name: str, n: int, rng) -> dict:
    A = (rng.random((n, n)) + n * np.eye(n)).astype(np.float32)  # diagonally dominant
    vector = rng.random(n).astype(np.float32)
    zeros = np.zeros(n, np.float32)
    return {
        "eliminate": {"A": A, "x": vector},
        "scale_upper": {"A": A},
        "scale_lower": {"A": A},
        "forward": {"L": np.tril(A), "b": vector, "x": zeros},
        "backward": {"U": np.triu(A), "b": vector, "x": zeros},
        "upper_row_sums": {"A": A, "r": zeros},
        "lower_row_max": {"A": A - 2, "r": zeros},
        "corner_sums": {"A": A, "r": zeros},
        "column_below": {"A": A},
        "reflect": {"A": A, "B": np.zeros((n, n), np.float32)},
        "cholesky": {"A": (A @ A.T).astype(np.float32)},
        "lu": {"A": A},
    }[name]


PROGRAMS = {p.f.__name__: p for p in [eliminate, scale_upper, scale_lower, forward, backward, upper_row_sums,
                                 lower_row_max, corner_sums, column_below, reflect, cholesky, lu]}


@pytest.fixture(autouse=True)
def dace_build_folder(tmp_path_factory):
    dace.config.Config.set("default_build_folder", value=str(tmp_path_factory.getbasetemp() / "dacecache"))


# 37 on ipu1, where rows do not divide the tile count. The nested triangular programs also
# take 1 (boxes empty in every iteration), 2 (empty in all but one) and 9 (fewer than a row
# of tiles); each size is a build, so the others do not repeat them.
_SIZES = {name: [(37, "ipu1")] for name in PROGRAMS} | {
    name: [(1, "ipu2"), (2, "ipu2"), (9, "ipu2"), (37, "ipu1")] for name in ("cholesky", "lu", "corner_sums")
}


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_triangular_program_matches_dace(name):
    program = PROGRAMS[name]
    reference = dace_build(parsed(program))
    rng = np.random.default_rng(7)
    for n, arch in _SIZES[name]:
        arrays = _case(name, n, rng)
        theirs = {k: v.copy() for k, v in arrays.items()}
        reference(**theirs, N=n)
        ours = {k: v.copy() for k, v in arrays.items()}
        ipu_lower.compile(parsed(program), symbols={"N": n}, arch=arch)(**ours)
        for key in arrays:
            np.testing.assert_allclose(ours[key], theirs[key], rtol=1e-5, atol=1e-4, err_msg=f"{key}, N={n}")


# -- the rewrite ---------------------------------------------------------------------------


def test_maps_and_transients_are_rebased_on_the_loop_variable():
    sdfg = to_sdfg(eliminate)
    static_loop_extents(sdfg)
    transient = next(d for n, d in sdfg.arrays.items() if d.transient and len(d.shape) == 1 and n != "__tmp0")
    assert [str(s) for s in transient.shape] == ["N"]  # N - i elements from i on, for every i in 1:N
    maps = [n for s in sdfg.all_states() for n in s.nodes() if isinstance(n, dace.nodes.MapEntry)]
    assert sorted(str(m.map.range) for m in maps) == ["1:N", "1:N"]
    guarded = [n for s in sdfg.all_states() for n in s.nodes()
               if isinstance(n, dace.nodes.Tasklet) and "__i0 >= i" in n.code.as_string]
    assert len(guarded) == 1  # only the map writing x: the transient's padding is never read
    assert guarded[0].code.as_string.rstrip().endswith("__out = __in1")  # x's old value, already an input


def test_nested_triangular_loops_take_the_hull_of_both():
    # j < i < N: A[i, :j] is at most N - 2 long, so the padded copies have N - 2 elements
    sdfg = to_sdfg(cholesky)
    static_loop_extents(sdfg)
    padded = {n: [str(s) for s in d.shape] for n, d in sdfg.arrays.items() if n.endswith("_padded")}
    assert sorted(padded.values()) == [["Max(1, N - 1)"]] * 2 + [["Max(1, N - 2)"]] * 2


def test_reductions_of_loop_dependent_boxes_read_padded_transients_on_our_tree():
    # np.sum(A[i, i:]): the Reduce reads a padded transient, which the guarded map that
    # fills it would fuse with the reduction's map away on our tree; popops would need it
    sdfg = to_sdfg(upper_row_sums)
    padded = static_loop_extents(copy.deepcopy(sdfg))
    assert [type(n).__name__ for n in padded] == ["Reduce"]
    module = import_sdfg(sdfg)
    (reduce,) = [op for op in module.walk() if isinstance(op, sd.LibraryReduceOp)]
    assert reduce.padded is not None  # what static_loop_extents decided, for sdfg-choose-reductions
    SdfgChooseReductionsPass().apply(Context(), module)
    assert reduce.path.data == "tree"
    SdfgExpandReductionsPass().apply(Context(), module)
    assert not [op for op in module.walk() if isinstance(op, sd.ReduceOp | sd.LibraryReduceOp)]
    assert [op.kind.data for op in module.walk() if isinstance(op, sd.AccumulateOp)] == ["add"]


def test_programs_without_loop_dependent_extents_are_left_alone():
    @dace.program
    def rows(A: dace.float32[N, N]):
        for i in range(N):
            A[i, :] = A[i, :] * 2

    sdfg = to_sdfg(rows)
    before = sdfg.to_json()
    static_loop_extents(sdfg)
    assert sdfg.to_json() == before


def test_a_product_of_operands_at_different_offsets_is_reported():
    with pytest.raises(SdfgImportError, match=r"node '_Dot_' \(Dot\): the operands of this product of "
                                             "loop-dependent length start at different offsets"):
        import_sdfg(to_sdfg(misaligned))


def test_a_copy_that_reshapes_a_loop_dependent_box_is_reported():
    sdfg = dace.SDFG("reshaping")
    sdfg.add_symbol("N", dace.int32)
    sdfg.add_array("A", [N, N], dace.float32)
    sdfg.add_array("B", [N * N], dace.float32)
    guard = sdfg.add_state("guard")
    body = sdfg.add_state("body")
    done = sdfg.add_state("done")
    sdfg.add_edge(sdfg.add_state("init", is_start_block=True), guard, dace.InterstateEdge(assignments={"i": "0"}))
    sdfg.add_edge(guard, body, dace.InterstateEdge("i < N"))
    sdfg.add_edge(guard, done, dace.InterstateEdge("not (i < N)"))
    sdfg.add_edge(body, guard, dace.InterstateEdge(assignments={"i": "i + 1"}))
    body.add_nedge(body.add_read("A"), body.add_write("B"),
                   dace.Memlet(data="A", subset="0:i, 0:2", other_subset="0:2*i"))
    with pytest.raises(SdfgImportError, match=r"state 'body', node 'B' \(AccessNode\): copy from 'A\[0:i, 0:2\]' "
                                             r"to 'B\[0:2\*i\]' of loop-dependent size changes the shape of its box"):
        import_sdfg(sdfg)


def test_lowering_leaves_the_callers_sdfg_as_it_was():
    from ipu_lower.emit import lower_program

    sdfg = eliminate.to_sdfg(simplify=True)
    before = sdfg.to_json()
    lower_program(sdfg, {"N": 5}, "ipu2")
    assert sdfg.to_json() == before
