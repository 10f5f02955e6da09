"""Loops inside maps (`ipu_lower.frontend.map_loops`): each program is lowered, run on the
CPU emulator and compared with DaCe's CPU build of the same SDFG (and numpy), on sizes
that do not divide the tile count."""

import sys
from pathlib import Path

import dace
import numpy as np
import pytest
from dace.sdfg import nodes
from dace.transformation.interstate.loop_lifting import LoopLifting
from test_e2e import assert_same, run_dace, run_ipu

from ipu_lower.emit import to_sdfg
from ipu_lower.frontend.importer import SdfgImportError, import_sdfg

sys.path.insert(0, str(Path(__file__).parent / "lit" / "Inputs"))
from map_loops import row_sums  # the lit test's program

M = dace.symbol("M")
N = dace.symbol("N")
RNG = np.random.default_rng(4321)


@dace.program
def scale_by_column(A: dace.float32[M, N], B: dace.float32[M, N]):
    for i in dace.map[0:M]:
        for j in range(N):
            B[i, j] = A[i, j] * j


@dace.program
def prefix_sums(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        for j in range(i):  # the point's own bound: no iteration for i = 0
            s += A[i, j]
        r[i] = s


@dace.program
def decays(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        x = dace.float32(0)
        for j in range(N):
            x = x * dace.float32(0.5) + A[i, j]
        r[i] = x


@dace.program
def sum_and_max(A: dace.float32[M, N], total: dace.float32[M], largest: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        for j in range(N):
            s += A[i, j]
        m = A[i, 0]
        for j in range(N):
            m = max(m, A[i, j])
        total[i] = s
        largest[i] = m


@dace.program
def large_sums(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        for j in range(N):
            if A[i, j] > 0.5:  # a branch on data of the point
                s += A[i, j]
        r[i] = s


@dace.program
def doubled_rows(A: dace.float32[M, N], B: dace.float32[M, N]):
    for i in dace.map[0:M]:
        t = np.ndarray(N, dtype=np.float32)  # a local array: one row per point
        for j in range(N):
            t[j] = A[i, j] * dace.float32(2)
        B[i, :] = t


@dace.program
def doubled_sums(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        q = dace.float32(0)
        for j in range(N):
            s += A[i, j]
            q = s * dace.float32(2)  # s written and read again in one state
        r[i] = q


@dace.program
def doubled_then_summed(A: dace.float32[M, N], r: dace.float32[M], t: dace.float32[M]):
    B = A * dace.float32(2)  # in the map's state: it moves to a state before the loops
    for i in dace.map[0:M]:
        s = dace.float32(0)
        for j in range(N):
            s += B[i, j]
        r[i] = s
    t[:] = r + dace.float32(1)  # stays in the map's state, after the loops


def matrix(m: int, n: int) -> dict:
    return {"A": RNG.random((m, n), dtype=np.float32)}


def check(program, arrays: dict, symbols: dict, outputs: list, expected: dict, arch: str = "ipu2"):
    ours, _ = run_ipu(program, arrays, symbols, arch)
    assert_same(ours, expected, outputs)
    assert_same(ours, run_dace(program, arrays, symbols), outputs)


@pytest.mark.parametrize("m, n, arch", [(1501, 7, "ipu2"), (1300, 3, "ipu1"), (3, 1, "ipu2")])
def test_a_sum_per_row(m, n, arch):
    arrays = {**matrix(m, n), "r": np.zeros(m, np.float32)}
    check(row_sums, arrays, {"M": m, "N": n}, ["r"], {"r": arrays["A"].sum(axis=1)}, arch)


def test_an_element_written_per_iteration():
    arrays = {**matrix(1475, 5), "B": np.zeros((1475, 5), np.float32)}
    expected = {"B": arrays["A"] * np.arange(5, dtype=np.float32)}
    check(scale_by_column, arrays, {"M": 1475, "N": 5}, ["B"], expected)


@pytest.mark.parametrize("m, n", [(37, 41), (1, 1)])
def test_a_loop_bounded_by_the_map_parameter(m, n):
    # the loop runs over the hull j < M - 1; point i keeps its sum where j >= i, and
    # point 0 (every point, for M = 1) runs no iteration at all
    arrays = {**matrix(m, n), "r": np.full(m, -1, np.float32)}
    expected = {"r": np.array([arrays["A"][i, :i].sum() for i in range(m)], np.float32)}
    check(prefix_sums, arrays, {"M": m, "N": n}, ["r"], expected)


def test_a_loop_carried_recurrence():
    arrays = {**matrix(1483, 6), "r": np.zeros(1483, np.float32)}
    x = np.zeros(1483, np.float32)
    for j in range(6):
        x = x * np.float32(0.5) + arrays["A"][:, j]
    check(decays, arrays, {"M": 1483, "N": 6}, ["r"], {"r": x})


def test_two_loops_in_sequence():
    arrays = {**matrix(1499, 4), "total": np.zeros(1499, np.float32), "largest": np.zeros(1499, np.float32)}
    expected = {"total": arrays["A"].sum(axis=1), "largest": arrays["A"].max(axis=1)}
    check(sum_and_max, arrays, {"M": 1499, "N": 4}, ["total", "largest"], expected)


def test_a_branch_on_data_inside_the_loop():
    arrays = {**matrix(1477, 5), "r": np.zeros(1477, np.float32)}
    expected = {"r": np.where(arrays["A"] > 0.5, arrays["A"], 0).sum(axis=1)}
    check(large_sums, arrays, {"M": 1477, "N": 5}, ["r"], expected)


def test_a_loop_region_inside_the_map():
    sdfg = to_sdfg(row_sums)
    (inner,) = [n.sdfg for n, _ in sdfg.all_nodes_recursive() if isinstance(n, nodes.NestedSDFG)]
    assert inner.apply_transformations_repeated([LoopLifting]) == 1
    arrays = {**matrix(53, 9), "r": np.zeros(53, np.float32)}
    ours, _ = run_ipu(sdfg, arrays, {"M": 53, "N": 9})
    assert_same(ours, {"r": arrays["A"].sum(axis=1)}, ["r"])


def test_a_local_array_copied_out_as_a_row():
    arrays = {**matrix(1481, 3), "B": np.zeros((1481, 3), np.float32)}
    check(doubled_rows, arrays, {"M": 1481, "N": 3}, ["B"], {"B": arrays["A"] * 2})


def test_a_value_written_and_read_again_in_one_step():
    arrays = {**matrix(29, 8), "r": np.zeros(29, np.float32)}
    check(doubled_sums, arrays, {"M": 29, "N": 8}, ["r"], {"r": arrays["A"].sum(axis=1) * 2})


def test_maps_before_and_after_in_the_same_state():
    arrays = {**matrix(41, 9), "r": np.zeros(41, np.float32), "t": np.zeros(41, np.float32)}
    sums = (arrays["A"] * 2).sum(axis=1)
    check(doubled_then_summed, arrays, {"M": 41, "N": 9}, ["r", "t"], {"r": sums, "t": sums + 1})


# -- what cannot move out of the map: one line naming the SDFG, state and node ------------


@dace.program
def halvings(A: dace.float32[M], r: dace.int32[M]):
    for i in dace.map[0:M]:
        x = A[i]
        n = 0
        while x > 1:
            x = x / 2
            n += 1
        r[i] = n


@dace.program
def every_other_row(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M:2]:
        s = dace.float32(0)
        for j in range(N):
            s += A[i, j]
        r[i] = s


@dace.program
def square_bound(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        for j in range(i * i):
            s += A[i, j]
        r[i] = s


@dace.program
def strided_start(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        for j in range(i, N, 2):
            s += A[i, j]
        r[i] = s


@dace.program
def gathered_column(A: dace.float32[M, N], I: dace.int32[M], r: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        k = I[i]
        for j in range(N):
            s += A[i, k]
        r[i] = s


@dace.program
def gathered_rows(A: dace.float32[M, N], I: dace.int32[M], r: dace.float32[M]):
    for i in dace.map[0:M]:
        k = I[i]
        s = dace.float32(0)
        for j in range(N):
            s += A[k, j]
        r[i] = s


@dace.program
def map_in_loop(A: dace.float32[M, N], B: dace.float32[M, N]):
    for i in dace.map[0:M]:
        for t in range(3):
            for j in dace.map[0:N]:
                B[i, j] = B[i, j] + A[i, j]


@dace.program
def sums_in_loop(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        for t in range(2):
            s += np.sum(A[i, :])
        r[i] = s


@dace.program
def shifted_rows(A: dace.float32[M, N], r: dace.float32[M]):
    B = A[:, 1:]
    for i in dace.map[0:M]:
        s = dace.float32(0)
        for j in range(N - 1):
            s += B[i, j]
        r[i] = s


@dace.program
def triangle_total(A: dace.float32[M, N], r: dace.float32[1]):
    for i in dace.map[0:M]:
        for j in range(i):
            r[0] += A[i, j]


@dace.program
def square_local(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        t = np.ndarray(i * i, dtype=np.float32)
        for j in range(N):
            t[0] = A[i, j]
        r[i] = t[0]


@dace.program
def early_exit(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        for j in range(N):
            if A[i, j] < 0:
                break
            s += A[i, j]
        r[i] = s


def nested(program):
    """The SDFG of `program`, its map's state and its nested SDFG node."""
    sdfg = to_sdfg(program)
    (node, state), = [(n, s) for n, s in sdfg.all_nodes_recursive() if isinstance(n, nodes.NestedSDFG)]
    return sdfg, state, node


def with_other_node_in_the_map():
    sdfg, state, node = nested(row_sums)
    extra = state.add_tasklet("extra", {}, {}, "")
    state.add_nedge(state.entry_node(node), extra, dace.Memlet())
    state.add_nedge(extra, state.exit_node(state.entry_node(node)), dace.Memlet())
    return sdfg


def with_unconnected_argument():
    sdfg, state, node = nested(row_sums)
    (edge,) = [e for e in state.in_edges(node) if e.dst_conn]
    node.remove_in_connector(edge.dst_conn)
    state.remove_memlet_path(edge)
    return sdfg


def with_assignment_in_a_guarded_arm():
    sdfg, _, node = nested(large_sums)
    (edge,) = [e for e in node.sdfg.edges() if e.dst.label.endswith("_latch") and e.data.is_unconditional()]
    edge.data.assignments["k"] = "1"
    return sdfg


def with_unparsable_value():
    sdfg, _, node = nested(large_sums)
    (edge,) = [e for e in node.sdfg.edges() if "__tmp2" in e.data.assignments]
    edge.data.assignments["__tmp2"] = edge.data.assignments["__tmp2"] + " +"
    return sdfg


def with_break_block():
    from dace.sdfg.state import BreakBlock, LoopRegion

    sdfg, _, node = nested(row_sums)
    node.sdfg.apply_transformations_repeated([LoopLifting])
    (loop,) = [b for b in node.sdfg.nodes() if isinstance(b, LoopRegion)]
    (last,), stop = loop.sink_nodes(), BreakBlock("stop")
    loop.add_node(stop)
    loop.add_edge(last, stop, dace.InterstateEdge())
    return sdfg


DIAGNOSTICS = {
    "a loop on data": (halvings, "loop 'while_", ("which reads data of the point; only loops bounded by "
                                                  "symbols, loop variables and the map's parameters can run "
                                                  "outside the map")),
    "a strided map": (every_other_row, "the map's range '0:M:2' has a step; not supported yet"),
    "a bound not linear": (square_bound, "the bounds of loop 'for_", "are not linear in the map's parameters"),
    "a start of the point with a step": (strided_start, "starts at 'i', a value of the point, with a step other"),
    "a loop assigning data of the point": (gathered_column, "a value of the point; not supported yet"),
    "an index of data of the point": (gathered_rows, "the index 'k, j' of '", "uses 'k', a value of the point"),
    "a map in the loop": (map_in_loop, "holds MapEntry '", "only Python tasklets can run inside a loop in a map"),
    "a library node in the loop": (sums_in_loop, "holds Reduce 'Reduce'; only Python tasklets"),
    "a view of the caller": (shifted_rows, "argument '", "is a view 'B' of the caller; not supported yet"),
    "an accumulation some points skip": (triangle_total, "accumulates into 'r' where only some points run"),
    "a local array of a square size": (square_local, "the size 'i**2' of a local array is not linear"),
    "a break": (early_exit, "breaks out of a loop in the map; not supported yet"),
    "another node in the map": (with_other_node_in_the_map, "the map holds other nodes besides the nested SDFG"),
    "an argument not connected": (with_unconnected_argument, "is neither transient nor connected to the map"),
    "a symbol some points assign": (with_assignment_in_a_guarded_arm, ("symbol 'k' is assigned where only some "
                                    "points run (inside a loop bounded by the point or a branch on its data)")),
    "an unparsable value": (with_unparsable_value, "cannot parse '__tmp_"),
    "a break block": (with_break_block, "BreakBlock 'stop' is not supported yet"),
}


@pytest.mark.parametrize("case", list(DIAGNOSTICS))
def test_what_cannot_move_out_of_the_map_is_one_line_naming_the_node(case):
    build, *parts = DIAGNOSTICS[case]
    sdfg = to_sdfg(build) if isinstance(build, dace.frontend.python.parser.DaceProgram) else build()
    (node, state), = [(n, s) for n, s in sdfg.all_nodes_recursive() if isinstance(n, nodes.NestedSDFG)]
    where = (f"SDFG '{sdfg.name}', state '{state.label}', node '{node.label}' (NestedSDFG): "
             f"nested SDFG '{node.label}' in map '{state.entry_node(node).label}': ")
    with pytest.raises(SdfgImportError) as info:
        import_sdfg(sdfg)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(where), message
    for part in parts:
        assert part in message, message
