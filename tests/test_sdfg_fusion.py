"""Tests for the planning halves of sdfg-fuse-maps (plan_fusion, can_fuse, summarize,
dead_transients) and sdfg-write-in-place (plan_in_place), and an end-to-end check that
the examples compute the same after both passes (lowered with the rest of the
pipeline and run on the emulator)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from dataclasses import replace

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.math import Math

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.frontend.frontends import LocatedMlirFrontend
from ipu_lower.passes.sdfg_fuse_maps import (
    SdfgFuseMapsPass,
    Step,
    at_point,
    can_fuse,
    dead_transients,
    fused,
    plan_fusion,
    plan_state,
    summarize,
)
from ipu_lower.passes.sdfg_write_in_place import SdfgWriteInPlacePass, plan_in_place
from ipu_lower.registry import dialects

EXAMPLES = Path(__file__).resolve().parents[1] / "ipu_lower" / "examples"


def make_ctx() -> Context:
    ctx = Context()
    for dialect in (Builtin, Arith, Math, *dialects()):
        ctx.load_dialect(dialect)
    return ctx


def parse_mlir(text: str) -> ModuleOp:
    module = LocatedMlirFrontend().parse(make_ctx(), io.BytesIO(text.encode()), "in.mlir")
    module.verify()
    return module


def the_sdfg(module: ModuleOp) -> sd.SdfgOp:
    (sdfg_op,) = module.ops
    assert isinstance(sdfg_op, sd.SdfgOp)
    return sdfg_op


def states(module: ModuleOp) -> list[sd.StateOp]:
    return [op for op in module.walk() if isinstance(op, sd.StateOp)]


# --------------------------------------------------------------------------------------
# plan_fusion on plain data

N = IndexExpr.symbol("N")
SPACE = ((IndexExpr.constant(0), N, IndexExpr.constant(1)),)
OTHER_SPACE = ((IndexExpr.constant(0), N - 1, IndexExpr.constant(1)),)


def map_step(reads=(), writes=(), off=(), space=SPACE, shapes=()) -> Step:
    return Step(frozenset(reads), frozenset(writes), space, frozenset(off), frozenset(shapes))


def op_step(reads=(), writes=()) -> Step:
    return Step(frozenset(reads), frozenset(writes))


NOTHING: frozenset[str] = frozenset()


def test_chain_collapses_into_the_first_map():
    steps = [
        map_step(["x", "y"], ["t"]),
        map_step(["t", "x"], ["u"]),
        map_step(["u"], ["z"]),
    ]
    assert plan_fusion(steps) == [[0, 1, 2]]


def test_saxpy_steps_fuse_and_the_copy_stays():
    steps = [map_step(["a", "x"], ["t0"], off=["a"]), map_step(["t0", "y"], ["t1"]), op_step(["t1"], ["y"])]
    assert plan_fusion(steps) == [[0, 1]]


def test_different_spaces_do_not_fuse():
    assert plan_fusion([map_step(["x"], ["t"]), map_step(["t"], ["z"], space=OTHER_SPACE)]) == []


def test_maps_writing_arrays_of_different_shapes_fuse_only_when_one_dies():
    """The written arrays' layout places a map's work: a fused map writes one shape, once
    the transients whose readers are all in it (at the point) are gone."""
    ten, eleven = (IndexExpr.constant(10),), (IndexExpr.constant(11),)
    p = map_step(["x"], ["t"], shapes=[("t", ten)])
    c = map_step(["t"], ["b"], shapes=[("b", eleven)])
    assert plan_fusion([p, c], {"t": 1}) == [[0, 1]]  # C is t's only reader: t dies
    assert plan_fusion([p, c], {"t": 2}) == []  # t is read later too: it would stay
    assert plan_fusion([p, c]) == []  # t is not a transient
    same = map_step(["t"], ["b"], shapes=[("b", ten)])
    assert plan_fusion([p, same]) == [[0, 1]]


def test_shared_data_off_the_point_blocks_fusion():
    # C reads a neighbour of what P writes; P writes what C reads elsewhere.
    assert not can_fuse(map_step(["x"], ["t"]), map_step(["t"], ["z"], off=["t"]), NOTHING, NOTHING)
    assert not can_fuse(map_step(["x"], ["t"], off=["t"]), map_step(["t"], ["z"]), NOTHING, NOTHING)
    # P reads off the point what C writes (an anti-dependence across iterations).
    assert not can_fuse(map_step(["y"], ["z"], off=["y"]), map_step(["x"], ["y"]), NOTHING, NOTHING)
    # Both write the same container, one off the point.
    assert not can_fuse(map_step(["x"], ["t"]), map_step(["x"], ["t"], off=["t"]), NOTHING, NOTHING)


def test_data_neither_writes_may_be_read_anywhere():
    assert can_fuse(map_step(["x", "a"], ["t"], off=["x", "a"]), map_step(["t", "x"], ["z"], off=["x"]), NOTHING, NOTHING)


def test_ops_between_that_conflict_block_fusion():
    p, c = map_step(["x"], ["t"]), map_step(["t", "y"], ["z"])
    assert can_fuse(p, c, frozenset({"x", "w"}), frozenset({"w"}))
    assert not can_fuse(p, c, NOTHING, frozenset({"y"}))  # writes what C reads
    assert not can_fuse(p, c, NOTHING, frozenset({"z"}))  # writes what C writes
    assert not can_fuse(p, c, frozenset({"z"}), NOTHING)  # reads what C writes
    assert plan_fusion([p, op_step(["w"], ["y"]), c]) == []
    assert plan_fusion([p, op_step(["y"], ["w"]), c]) == [[0, 2]]


def test_a_map_fuses_past_maps_it_cannot_fuse_with():
    steps = [
        map_step(["x"], ["t"]),
        map_step(["w"], ["v"], space=OTHER_SPACE),  # unrelated, other space: stays between
        map_step(["t"], ["z"]),
    ]
    assert plan_fusion(steps) == [[0, 2]]


def test_nothing_before_a_conflicting_op_is_considered():
    steps = [
        map_step(["x"], ["t"]),
        op_step(["z"], []),  # reads what the last map writes
        map_step(["q"], ["r"], space=OTHER_SPACE),
        map_step(["t"], ["z"]),
    ]
    assert plan_fusion(steps) == []


def test_non_maps_never_fuse():
    assert plan_fusion([op_step(["x"], ["t"]), op_step(["t"], ["z"])]) == []
    assert not can_fuse(op_step(["x"], ["t"]), map_step(["t"], ["z"]), NOTHING, NOTHING)


def test_fused_step_forwards_reads_of_what_the_first_map_writes():
    step = fused(map_step(["x", "y"], ["t"], off=["y"]), map_step(["t", "x", "w"], ["u"]))
    assert step == map_step(["x", "y", "w"], ["t", "u"], off=["y"])


def test_fused_maps_keep_fusing_in_order():
    # The second pair's fusion sees the first pair fused (t forwarded, not read).
    steps = [map_step(["x"], ["t"]), map_step(["t"], ["u"]), map_step(["u", "t"], ["v"]), map_step(["v"], ["w"])]
    assert plan_fusion(steps) == [[0, 1, 2, 3]]


# --------------------------------------------------------------------------------------
# summaries read from the IR

MAPS = """
sdfg.sdfg @p args ["a", "x", "y", "A"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<f32>
  %x = sdfg.container "x" : !sdfg.array<N x f32>
  %y = sdfg.container "y" : !sdfg.array<N x f32>
  %A = sdfg.container "A" : !sdfg.array<N x N x f32>
  %s = sdfg.container "s" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.map "point" (%i) = (0) to (N) step (1) {
      %va = sdfg.read %a[] : !sdfg.array<f32>
      %vx = sdfg.read %x[%i + 1] : !sdfg.array<N x f32>
      sdfg.write %va to %y[%i] : !sdfg.array<N x f32>
    }
    sdfg.map "transposed" (%i, %j) = (0, 0) to (N, N) step (1, 1) {
      %v = sdfg.read %A[%j, %i] : !sdfg.array<N x N x f32>
      sdfg.write %v to %A[%i, %j] : !sdfg.array<N x N x f32>
    }
    sdfg.map "scalar" (%i) = (0) to (1) step (1) {
      %vx = sdfg.read %x[%i] : !sdfg.array<N x f32>
      sdfg.write %vx to %s[] : !sdfg.array<f32>
    }
    sdfg.copy %x[0:N] to %y[0:N] : !sdfg.array<N x f32>, !sdfg.array<N x f32>
  }
}
"""


def test_summaries_of_maps_and_copies():
    module = parse_mlir(MAPS)
    (state,) = states(module)
    point, transposed, scalar, copy = (summarize(op) for op in state.body.block.ops)
    assert replace(point, subsets=frozenset()) == map_step(["a", "x"], ["y"], off=["a", "x"], shapes=[("y", (IndexExpr.symbol("N"),))])
    assert ("y", True, (IndexExpr.symbol("__fuse_p0"),)) in point.subsets
    assert transposed.space is not None and transposed.off_point == {"A"}
    assert transposed.reads == transposed.writes == {"A"}
    assert scalar == op_step(["x"], ["s"])  # writes a scalar: never fused
    assert copy == op_step(["x"], ["y"])


def test_at_point_needs_every_parameter_in_order():
    module = parse_mlir(MAPS)
    maps = [op for op in module.walk() if isinstance(op, sd.MapOp)]
    verdicts = [at_point(o, m.params) for m in maps for o in m.body.block.ops if isinstance(o, sd.ReadOp | sd.WriteOp)]
    # a[], x[i + 1], y[i] | A[j, i], A[i, j] | x[i], s[]
    assert verdicts == [False, False, True, False, True, True, False]


def test_plan_state_of_the_saxpy_example():
    module = parse_example("saxpy")
    (state,) = states(module)
    order, (group,) = plan_state(state)
    assert order == list(state.body.block.ops)
    assert [m.label.data for m in group] == ["_Mult__map", "_Add__map"]


SCALAR_BETWEEN = """
sdfg.sdfg @s args ["x", "y", "z"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x f32>
  %z = sdfg.container "z" : !sdfg.array<f32>
  %t = sdfg.container "t" transient : !sdfg.array<4 x f32>
  %c = sdfg.container "c" transient : !sdfg.array<f32>
  %d = sdfg.container "d" transient : !sdfg.array<f32>
  sdfg.state "s" {
    sdfg.map "p" (%i) = (0) to (4) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<4 x f32>
      sdfg.write %v to %t[%i] : !sdfg.array<4 x f32>
    }
    %k = sdfg.tasklet "constant" ins() outs(o) : () -> (f32) {
      %h = arith.constant 0.5 : f32
      sdfg.yield %h : f32
    }
    sdfg.write %k to %c[] : !sdfg.array<f32>
    %zv = sdfg.read %z[] : !sdfg.array<f32>
    sdfg.write %zv to %d[] : !sdfg.array<f32>
    %tv = sdfg.read %t[0] : !sdfg.array<4 x f32>
    sdfg.write %tv to %z[] : !sdfg.array<f32>
    sdfg.map "q" (%j) = (0) to (4) step (1) {
      %a = sdfg.read %t[%j] : !sdfg.array<4 x f32>
      %b = sdfg.read %c[] : !sdfg.array<f32>
      %e = sdfg.read %d[] : !sdfg.array<f32>
      %m = sdfg.tasklet "mul" ins(a = %a, b = %b, e = %e) outs(o) : (f32, f32, f32) -> (f32) {
      ^bb0(%a1: f32, %b1: f32, %e1: f32):
        %r = arith.mulf %a1, %b1 : f32
        %r2 = arith.addf %r, %e1 : f32
        sdfg.yield %r2 : f32
      }
      sdfg.write %m to %y[%j] : !sdfg.array<4 x f32>
    }
  }
}
"""


def test_scalar_computations_move_up_so_that_maps_fuse():
    """The constant c (no inputs) and d = z (read before z is written below) move above
    map p, each as far as it can go; z = t[0] reads what p writes, so it stays after p,
    and blocks nothing: q then fuses into p."""
    module = parse_mlir(SCALAR_BETWEEN)
    (state,) = states(module)
    order, groups = plan_state(state)

    def describe(op):
        if isinstance(op, sd.MapOp):
            return op.label.data
        if isinstance(op, sd.TaskletOp):
            return op.label.data
        verb = "read" if isinstance(op, sd.ReadOp) else "write"
        return f"{verb} {sd.container_name(op.container)}"

    assert [describe(op) for op in order] == [
        "read z", "write d", "constant", "write c", "p", "read t", "write z", "q",
    ]
    assert [[m.label.data for m in group] for group in groups] == [["p", "q"]]
    SdfgFuseMapsPass().apply(make_ctx(), module)
    module.verify()
    assert [m.label.data for m in module.walk() if isinstance(m, sd.MapOp)] == ["p"]


def test_dead_transients_are_those_only_written():
    module = parse_mlir("""
sdfg.sdfg @d args ["x", "y"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x f32>
  %written = sdfg.container "written" transient : !sdfg.array<4 x f32>
  %copied = sdfg.container "copied" transient : !sdfg.array<4 x f32>
  %read = sdfg.container "read" transient : !sdfg.array<4 x f32>
  %unused = sdfg.container "unused" transient : !sdfg.array<f32>
  sdfg.state "s0" {
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<4 x f32>
      sdfg.write %v to %written[%i] : !sdfg.array<4 x f32>
      sdfg.write %v to %read[%i] : !sdfg.array<4 x f32>
    }
    sdfg.copy %x[0:4] to %copied[0:4] : !sdfg.array<4 x f32>, !sdfg.array<4 x f32>
  }
  sdfg.state "s1" {
    sdfg.copy %read[0:4] to %y[0:4] : !sdfg.array<4 x f32>, !sdfg.array<4 x f32>
  }
}
""")
    assert [c.container_name.data for c in dead_transients(the_sdfg(module))] == ["written", "copied", "unused"]
    SdfgFuseMapsPass().apply(make_ctx(), module)
    module.verify()
    names = [c.container_name.data for c in the_sdfg(module).containers()]
    assert names == ["x", "y", "read"]
    (copy,) = [op for op in module.walk() if isinstance(op, sd.CopyOp)]
    assert sd.container_name(copy.source) == "read"


ROWS = """
sdfg.sdfg @rows args ["A"] symbols [] {
  %A = sdfg.container "A" : !sdfg.array<6 x 6 x f32>
  %t = sdfg.container "t" transient : !sdfg.array<4 x f32>
  sdfg.for "l" %i = 1 to 5 step 1 {
    sdfg.state "s" {
      sdfg.map "sum" (%j) = (0) to (4) step (1) {
        %u = sdfg.read %A[%i - 1, %j + 1] : !sdfg.array<6 x 6 x f32>
        %d = sdfg.read %A[%i + 1, %j + 1] : !sdfg.array<6 x 6 x f32>
        %s = sdfg.tasklet "add" ins(a = %u, b = %d) outs(o) : (f32, f32) -> (f32) {
        ^bb0(%a: f32, %b: f32):
          %r = arith.addf %a, %b : f32
          sdfg.yield %r : f32
        }
        sdfg.write %s to %t[%j] : !sdfg.array<4 x f32>
      }
      sdfg.map "store" (%j) = (0) to (4) step (1) {
        %v = sdfg.read %t[%j] : !sdfg.array<4 x f32>
        sdfg.write %v to %A[%i, WRITTEN] : !sdfg.array<6 x 6 x f32>
      }
    }
  }
}
"""


@pytest.mark.parametrize("written, fuses", [
    ("%j + 1", True),  # row i, which the first map never reads (rows i - 1 and i + 1)
    ("%j + 2", True),  # rows still apart, whatever the columns
])
def test_maps_on_rows_a_loop_variable_keeps_apart_fuse(written, fuses):
    module = parse_mlir(ROWS.replace("WRITTEN", written))
    (state,) = states(module)
    steps = [summarize(op) for op in state.body.block.ops]
    assert (plan_fusion(steps, {"t": 1}) == [[0, 1]]) == fuses  # t dies once fused


def test_maps_on_one_row_at_other_points_do_not_fuse():
    # the second map writes row i at column j + 2, which the first reads at column j + 1
    # of another point: fused, a point would read what another point wrote
    module = parse_mlir(ROWS.replace("%A[%i + 1, %j + 1]", "%A[%i, %j + 1]").replace("WRITTEN", "%j + 2"))
    (state,) = states(module)
    assert plan_fusion([summarize(op) for op in state.body.block.ops], {"t": 1}) == []


def test_fusion_forwards_a_value_the_second_map_overwrites_before_reading():
    # C writes t at the point, then reads it: the read takes C's value, not P's.
    module = parse_mlir("""
sdfg.sdfg @o args ["x", "y", "z"] symbols [] {
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x f32>
  %z = sdfg.container "z" : !sdfg.array<4 x f32>
  %t = sdfg.container "t" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {
    sdfg.map "p" (%i) = (0) to (4) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<4 x f32>
      sdfg.write %v to %t[%i] : !sdfg.array<4 x f32>
    }
    sdfg.map "c" (%k) = (0) to (4) step (1) {
      %w = sdfg.read %y[%k] : !sdfg.array<4 x f32>
      sdfg.write %w to %t[%k] : !sdfg.array<4 x f32>
      %r = sdfg.read %t[%k] : !sdfg.array<4 x f32>
      sdfg.write %r to %z[%k] : !sdfg.array<4 x f32>
    }
  }
}
""")
    SdfgFuseMapsPass().apply(make_ctx(), module)
    module.verify()
    (map_op,) = [op for op in module.walk() if isinstance(op, sd.MapOp)]
    ops = list(map_op.body.block.ops)
    # t's writes go with t (nothing reads it any more), and so does the read of x.
    read_y, write_z = ops
    assert isinstance(read_y, sd.ReadOp) and sd.container_name(read_y.container) == "y"
    assert isinstance(write_z, sd.WriteOp) and write_z.value is read_y.result
    assert not any(c.container_name.data == "t" for c in the_sdfg(module).containers())


# --------------------------------------------------------------------------------------
# plan_in_place


def in_place_names(module: ModuleOp) -> list[tuple[str, str]]:
    return [(p.transient, p.target) for p in plan_in_place(the_sdfg(module))]


def parse_example(name: str) -> ModuleOp:
    from ipu_lower.frontend.frontends import SdfgFrontend

    with open(EXAMPLES / f"{name}.sdfg", "rb") as f:
        module = SdfgFrontend().parse(make_ctx(), f, f"{name}.sdfg")
    module.verify()
    return module


def test_in_place_plan_of_the_saxpy_example():
    module = parse_example("saxpy")
    assert in_place_names(module) == [("__tmp1", "y")]
    (plan,) = plan_in_place(the_sdfg(module))
    assert isinstance(plan.writer, sd.MapOp) and plan.writer.label.data == "_Add__map"


def copies_program(body: str, extra: str = "") -> ModuleOp:
    return parse_mlir(f"""
sdfg.sdfg @c args ["x", "y", "z"] symbols [] {{
  %x = sdfg.container "x" : !sdfg.array<4 x f32>
  %y = sdfg.container "y" : !sdfg.array<4 x f32>
  %z = sdfg.container "z" : !sdfg.array<4 x f32>
  %t = sdfg.container "t" transient : !sdfg.array<4 x f32>
  %u = sdfg.container "u" transient : !sdfg.array<4 x f32>
  sdfg.state "s" {{
{body}
  }}
{extra}
}}
""")


def fill(container: str, label: str = "m", source: str = "x", index: str = "%i") -> str:
    return f"""
    sdfg.map "{label}" (%i) = (0) to (4) step (1) {{
      %v = sdfg.read %{source}[{index}] : !sdfg.array<4 x f32>
      sdfg.write %v to %{container}[%i] : !sdfg.array<4 x f32>
    }}"""


def copy(source: str, target: str, src_range: str = "0:4", dst_range: str = "0:4") -> str:
    return f"    sdfg.copy %{source}[{src_range}] to %{target}[{dst_range}] : !sdfg.array<4 x f32>, !sdfg.array<4 x f32>"


def test_in_place_when_nothing_between_touches_either_container():
    assert in_place_names(copies_program(fill("t") + "\n" + copy("x", "z") + "\n" + copy("t", "y"))) == [("t", "y")]


def test_not_in_place():
    cases = {
        "partial copy": fill("t") + "\n" + copy("t", "y", "0:2", "2:4"),
        "destination read between": fill("t") + "\n" + copy("y", "z") + "\n" + copy("t", "y"),
        "destination written between": fill("t") + "\n" + copy("z", "y") + "\n" + copy("t", "y"),
        "transient read between": fill("t") + "\n" + copy("t", "z") + "\n" + copy("t", "y"),
        "second writer": fill("t") + fill("t", "again") + "\n" + copy("t", "y"),
        "map reads the destination off the point": fill("t", source="y", index="3 - %i") + "\n" + copy("t", "y"),
        "copy into a transient's source": copy("x", "t") + "\n" + copy("t", "y"),
        "copy of an argument": fill("z") + "\n" + copy("z", "y"),
    }
    for what, body in cases.items():
        assert in_place_names(copies_program(body)) == [], what


def test_not_in_place_when_the_map_reads_the_destination_after_writing():
    body = """
    sdfg.map "m" (%i) = (0) to (4) step (1) {
      %v = sdfg.read %x[%i] : !sdfg.array<4 x f32>
      sdfg.write %v to %t[%i] : !sdfg.array<4 x f32>
      %w = sdfg.read %y[%i] : !sdfg.array<4 x f32>
      sdfg.write %w to %z[%i] : !sdfg.array<4 x f32>
    }
""" + copy("t", "y")
    assert in_place_names(copies_program(body)) == []
    before = body.replace(
        "sdfg.write %v to %t[%i] : !sdfg.array<4 x f32>\n      %w = sdfg.read %y[%i] : !sdfg.array<4 x f32>",
        "%w = sdfg.read %y[%i] : !sdfg.array<4 x f32>\n      sdfg.write %v to %t[%i] : !sdfg.array<4 x f32>",
    )
    assert in_place_names(copies_program(before)) == [("t", "y")]


def test_not_in_place_when_the_transient_is_read_in_another_state():
    extra = '  sdfg.state "later" {\n' + copy("t", "z") + "\n  }"
    assert in_place_names(copies_program(fill("t") + "\n" + copy("t", "y"), extra)) == []


def test_one_in_place_write_per_destination():
    body = fill("t") + "\n" + copy("t", "y") + fill("u", "second") + "\n" + copy("u", "y")
    module = copies_program(body)
    assert in_place_names(module) == [("t", "y")]
    SdfgWriteInPlacePass().apply(make_ctx(), module)
    module.verify()
    assert in_place_names(module) == [("u", "y")]  # a second run takes the next one


# --------------------------------------------------------------------------------------
# end to end: the examples still compute the same


def lower_and_build(module: ModuleOp, symbols: str, directory: Path):
    from ipu_lower.pipelines import SdfgToPoplarPass
    from ipu_lower.runtime import CompiledProgram
    from ipu_lower.targets.poplar_cpp import PoplarCppTarget, split_files

    ctx = Context()
    SdfgToPoplarPass(symbols=symbols).apply(ctx, module)
    output = io.StringIO()
    PoplarCppTarget().emit(ctx, module, output)
    for name, content in split_files(output.getvalue()).items():
        (directory / name).write_text(content)
    return CompiledProgram(directory)


RNG = np.random.default_rng(7)


def example_arguments(name: str, n: int):
    x, y = RNG.random(n, dtype=np.float32), RNG.random(n, dtype=np.float32)
    if name == "saxpy":
        return {"a": np.float32(2.5), "x": x, "y": y}, {"N": n}, lambda d: {"y": d["a"] * d["x"] + d["y"]}
    if name == "chain":
        return {"x": x, "y": y, "z": np.zeros(n, np.float32)}, {"N": n}, lambda d: {"z": np.sqrt(d["x"] * d["y"] + d["x"])}
    if name == "scale2d":
        a = RNG.random((n // 50, 50), dtype=np.float32)
        return {"A": a, "B": np.zeros_like(a)}, {"M": n // 50, "N": 50}, lambda d: {"B": d["A"] * d["A"] + np.float32(1)}
    raise KeyError(name)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@pytest.mark.parametrize("name", ["saxpy", "chain", "scale2d"])
def test_examples_compute_the_same_after_fusion(name, tmp_path):
    module = parse_example(name)
    ctx = make_ctx()
    SdfgFuseMapsPass().apply(ctx, module)
    SdfgWriteInPlacePass().apply(ctx, module)
    module.verify()
    sdfg_op = the_sdfg(module)
    assert len([op for op in module.walk() if isinstance(op, sd.MapOp)]) == 1
    assert not any(c.transient for c in sdfg_op.containers())
    assert not any(isinstance(op, sd.CopyOp) for op in module.walk())

    arrays, symbols, reference = example_arguments(name, 3001 if name != "scale2d" else 1000)
    (tmp_path / "out").mkdir()
    program = lower_and_build(module, ",".join(f"{k}={v}" for k, v in symbols.items()), tmp_path / "out")
    outputs = {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in arrays.items()}
    program(**outputs)
    for key, expected in reference(arrays).items():
        np.testing.assert_allclose(outputs[key], expected, rtol=1e-5, atol=1e-6, err_msg=key)
    program.close()
