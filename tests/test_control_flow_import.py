"""The importer's structured control flow: DaCe loops and branches (guard states and
interstate edges, or LoopRegion / ConditionalBlock) become sdfg.for / sdfg.while /
sdfg.if, and control flow it cannot structure is one line naming the SDFG and the
states."""

# No `from __future__ import annotations`: DaCe reads the programs' annotations.
import dace
import pytest
from dace.properties import CodeBlock
from dace.sdfg.state import ConditionalBlock, ControlFlowRegion
from dace.transformation.interstate.loop_lifting import LoopLifting

from ipu_lower.dialects import sdfg as sd
from ipu_lower.frontend import control_flow as cf
from ipu_lower.frontend.importer import SdfgImportError, import_sdfg

N = dace.symbol("N")


def program_sdfg(program) -> dace.SDFG:
    sdfg = program.to_sdfg(simplify=True)
    sdfg.name = program.f.__name__  # DaCe prefixes the module name
    return sdfg


def imported(program_or_sdfg) -> sd.SdfgOp:
    sdfg = program_or_sdfg if isinstance(program_or_sdfg, dace.SDFG) else program_sdfg(program_or_sdfg)
    module = import_sdfg(sdfg)
    module.verify()
    (sdfg_op,) = module.ops
    assert isinstance(sdfg_op, sd.SdfgOp)
    return sdfg_op


def control_tree(block) -> list:
    """The control-flow ops of a block as nested tuples, states by label."""
    tree: list = []
    for op in block.ops:
        if isinstance(op, sd.StateOp):
            tree.append(op.label.data)
        elif isinstance(op, sd.ForOp):
            names = [v.name_hint for v in op.bound_operands]
            bounds = tuple(e.format(lambda d: names[d]) for e in op.bounds())
            tree.append(("for", op.variable.name_hint, bounds, control_tree(op.body.block)))
        elif isinstance(op, sd.WhileOp):
            tree.append(("while", control_tree(op.body.block)))
        elif isinstance(op, sd.IfOp):
            tree.append(("if", control_tree(op.then_region.block), control_tree(op.else_region.block)))
    return tree


@dace.program
def time_steps(TSTEPS: dace.int32, A: dace.float32[N], B: dace.float32[N]):
    for t in range(1, TSTEPS):
        B[1:-1] = A[:-2] + A[2:]
        A[1:-1] = B[:-2] + B[2:]


def test_a_loop_bounded_by_a_scalar_argument_reads_it():
    sdfg_op = imported(time_steps)
    (loop,) = [op for op in sdfg_op.body.block.ops if isinstance(op, sd.ForOp)]
    ((kind, variable, bounds, body),) = control_tree(sdfg_op.body.block)
    assert (kind, variable, bounds, len(body)) == ("for", "t", ("1", "TSTEPS", "1"), 1)
    assert [sd.container_name(v) for v in loop.bound_operands] == ["TSTEPS"]
    assert loop.trip_count() is None


@dace.program
def triangle(A: dace.float32[N, N]):
    for i in range(N):
        for j in range(i):
            A[i, j] = A[i, j] + A[j, i]


def test_a_triangular_nest_bounds_the_inner_loop_by_the_outer_variable():
    sdfg_op = imported(triangle)
    ((kind, i, bounds, body),) = control_tree(sdfg_op.body.block)
    assert (kind, i, bounds) == ("for", "i", ("0", "N", "1"))
    inner = next(item for item in body if isinstance(item, tuple))
    assert inner[:3] == ("for", "j", ("0", "i", "1"))
    copies = [op for op in sdfg_op.walk() if isinstance(op, sd.CopyOp)]
    # A[i, j] and A[j, i] move into scalars: copies whose ranges use the loop variables
    assert sorted(tuple(v.name_hint for v in c.indices) for c in copies) == [("i", "j"), ("j", "i")]


@dace.program
def static_steps(A: dace.float32[N]):
    for t in range(5):
        A[:] = A * dace.float32(0.5)


def test_a_loop_with_constant_bounds_has_a_static_trip_count():
    (loop,) = [op for op in imported(static_steps).walk() if isinstance(op, sd.ForOp)]
    assert loop.trip_count() == 5 and not loop.bound_operands


@dace.program
def branch(a: dace.float32[N], b: dace.float32[N], c: dace.float32[N]):
    if a[0] > 0:
        b[:] = a
        c[:] = a
    else:
        b[:] = c


def test_a_branch_on_data_reads_the_value_an_interstate_edge_assigns():
    sdfg_op = imported(branch)
    tree = control_tree(sdfg_op.body.block)
    assert tree[0] == "assign___tmp0" and tree[1][0] == "if" and tree[1][1] and tree[1][2]
    containers = {op.container_name.data: op for op in sdfg_op.containers()}
    assert str(containers["__tmp0"].result.type) == "!sdfg.array<f32>" and containers["__tmp0"].transient
    (branch_op,) = [op for op in sdfg_op.body.block.ops if isinstance(op, sd.IfOp)]
    read = next(op for op in branch_op.condition.block.ops if isinstance(op, sd.ReadOp))
    assert sd.container_name(read.container) == "__tmp0"


@dace.program
def chain(a: dace.int32[1], b: dace.float32[N]):
    if a[0] == 0:
        b[:] = b + 1
    elif a[0] == 1:
        b[:] = b * 2
    else:
        b[:] = b - 3


def test_elif_is_a_branch_in_the_else_region():
    tree = control_tree(imported(chain).body.block)
    outer = next(item for item in tree if isinstance(item, tuple))
    assert outer[0] == "if" and any(isinstance(item, tuple) and item[0] == "if" for item in outer[2])


@dace.program
def last_branch(c: dace.int32, A: dace.float32[N]):
    if c > 0:
        for i in range(3):
            A[:] = A + 1


def test_a_branch_whose_arms_end_the_program():
    # DaCe ends each arm in its own last state: they never meet, and need not
    ((kind, then, otherwise),) = [item for item in control_tree(imported(last_branch).body.block) if isinstance(item, tuple)]
    assert kind == "if" and [item[0] for item in then if isinstance(item, tuple)] == ["for"]


@dace.program
def doubling(out: dace.float32[1]):
    s = dace.float32(1)
    while s < 100.0:
        s = s * dace.float32(2)
    out[0] = s


def test_a_loop_on_data_is_a_while():
    tree = control_tree(imported(doubling).body.block)
    assert [item[0] for item in tree if isinstance(item, tuple)] == ["while"]


@dace.program
def skipping(A: dace.float32[N]):
    for i in range(N):
        if A[i] > 0.5:
            continue
        A[i] = 0


def test_continue_that_dace_structures_as_a_branch_imports():
    ((kind, _, _, body),) = [item for item in control_tree(imported(skipping).body.block) if isinstance(item, tuple)]
    assert kind == "for" and any(isinstance(item, tuple) and item[0] == "if" for item in body)


def test_loop_regions_import_like_guard_states():
    sdfg = program_sdfg(time_steps)
    assert sdfg.apply_transformations_repeated([LoopLifting]) == 1
    (loop,) = [op for op in imported(sdfg).walk() if isinstance(op, sd.ForOp)]
    assert [sd.container_name(v) for v in loop.bound_operands] == ["TSTEPS"]
    assert loop.variable.name_hint == "t" and str(loop.lower.data) == "1"


def conditional_block_sdfg() -> dace.SDFG:
    sdfg = dace.SDFG("conditional")
    sdfg.add_array("a", [N], dace.float32)
    sdfg.add_array("b", [N], dace.float32)
    block = ConditionalBlock("choose")
    sdfg.add_node(block, is_start_block=True)
    for condition, code in (("a[0] > 0", "y = x * 2"), (None, "y = x - 1")):
        region = ControlFlowRegion(f"arm_{len(block.branches)}", sdfg)
        state = region.add_state("work", is_start_block=True)
        state.add_mapped_tasklet(
            "arm", {"i": "0:N"}, {"x": dace.Memlet("a[i]")}, code, {"y": dace.Memlet("b[i]")}, external_edges=True
        )
        block.add_branch(CodeBlock(condition) if condition else None, region)
    return sdfg


def test_conditional_blocks_become_branches():
    sdfg_op = imported(conditional_block_sdfg())
    ((kind, then, otherwise),) = control_tree(sdfg_op.body.block)
    assert (kind, then, otherwise) == ("if", ["work"], ["work"])
    (branch_op,) = [op for op in sdfg_op.walk() if isinstance(op, sd.IfOp)]
    read = next(op for op in branch_op.condition.block.ops if isinstance(op, sd.ReadOp))
    assert sd.container_name(read.container) == "a"


@dace.program
def with_index(A: dace.float32[N]):
    for i in range(N):
        A[i] = A[i] + dace.float32(i)


def test_a_loop_variable_in_a_tasklet_is_an_apply():
    (apply,) = [op for op in imported(with_index).walk() if isinstance(op, sd.ApplyOp)]
    assert [v.name_hint for v in apply.indices] == ["i"] and str(apply.result.type) == "i32"


# -- what cannot be structured: one line naming the SDFG and the states -------------------------


@dace.program
def after_loop(A: dace.float32[N], out: dace.int32[1]):
    for i in range(N):
        A[i] = 0
    out[0] = i


@dace.program
def data_index(A: dace.float32[N], out: dace.int32[1]):
    k = dace.int32(0)
    s = dace.float32(0)
    while s < 2.0:
        s = s + A[k]
        k = k + 1
    out[0] = k


def irreducible_sdfg() -> dace.SDFG:
    sdfg = dace.SDFG("irreducible")
    sdfg.add_scalar("c", dace.int32)
    entry = sdfg.add_state("entry", is_start_block=True)
    left, right = sdfg.add_state("left"), sdfg.add_state("right")
    sdfg.add_edge(entry, left, dace.InterstateEdge("c > 0"))
    sdfg.add_edge(entry, right, dace.InterstateEdge("not (c > 0)"))
    sdfg.add_edge(left, right, dace.InterstateEdge())
    sdfg.add_edge(right, left, dace.InterstateEdge())
    return sdfg


def returning_sdfg() -> dace.SDFG:
    """A loop whose body may end the program (a return): it leaves the loop neither
    through its guard nor for the state its guard exits to."""
    sdfg = dace.SDFG("returning")
    sdfg.add_symbol("i", dace.int32)
    sdfg.add_scalar("c", dace.int32)
    init = sdfg.add_state("init", is_start_block=True)
    guard, body, done, stop = (sdfg.add_state(n) for n in ("guard", "body", "done", "stop"))
    sdfg.add_edge(init, guard, dace.InterstateEdge(assignments={"i": "0"}))
    sdfg.add_edge(guard, body, dace.InterstateEdge("i < 10"))
    sdfg.add_edge(guard, done, dace.InterstateEdge("not (i < 10)"))
    sdfg.add_edge(body, guard, dace.InterstateEdge("c > 0", assignments={"i": "i + 1"}))
    sdfg.add_edge(body, stop, dace.InterstateEdge("not (c > 0)"))
    return sdfg


def unreachable_sdfg() -> dace.SDFG:
    sdfg = dace.SDFG("unreach")
    sdfg.add_state("a", is_start_block=True)
    sdfg.add_state("b")
    return sdfg


CANNOT = {
    "return": (returning_sdfg, "SDFG 'returning': state 'body' leaves the loop at 'guard' other than through its "
               "guard or a break (a return, or a break out of several loops); not supported yet"),
    "irreducible": (irreducible_sdfg,
                    "SDFG 'irreducible': irreducible control flow: states 'left', 'right' form a loop entered at "
                    "more than one state"),
    "unreachable": (unreachable_sdfg, "SDFG 'unreach': state 'b' is unreachable from the start state"),
    "after loop": (lambda: program_sdfg(after_loop),
                   "symbol 'i' is read where no value is assigned to it (a loop variable outside its loop?)"),
    "data index": (lambda: program_sdfg(data_index),
                   "copy subset of 'A': 'k' uses 'k', which a loop or an interstate edge assigns"),
}


@pytest.mark.parametrize("case", sorted(CANNOT))
def test_control_flow_that_cannot_be_structured_is_one_line(case):
    build, *phrases = CANNOT[case]
    with pytest.raises(SdfgImportError) as info:
        import_sdfg(build())
    message = str(info.value)
    assert "\n" not in message and message.startswith("SDFG '")
    for phrase in phrases:
        assert phrase in message, f"{phrase!r} not in {message!r}"


def test_structure_gives_loops_and_branches_as_plain_data():
    items = cf.structure(program_sdfg(time_steps))
    (loop,) = [item for item in items if isinstance(item, cf.Loop)]
    assert (loop.variable, loop.condition, loop.entry, loop.latch) == ("t", "(t < TSTEPS)", [("t", "1")], [("t", "(t + 1)")])
    items = cf.structure(program_sdfg(branch))
    (choice,) = [item for item in items if isinstance(item, cf.Branch)]
    assert choice.condition == "(__tmp0 > 0)" and choice.then and choice.otherwise
