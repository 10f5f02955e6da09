"""The plans of the passes that hoist, choose and copy reductions
(`sdfg.library_reduce`): plan_hoists, plan_paths and plan_copies on small IR, each
decision alone."""

from ir_helpers import parse

from ipu_lower.dialects import sdfg as sd
from ipu_lower.passes.sdfg_choose_reductions import plan_paths
from ipu_lower.passes.sdfg_copy_reduction_boxes import plan_copies
from ipu_lower.passes.sdfg_hoist_reductions import plan_hoists


def sdfg(containers: str, body: str) -> str:
    return f"""sdfg.sdfg @f args [] symbols ["M", "N"] {{
  %A = sdfg.container "A" transient : !sdfg.array<M x N x f32>
  %t = sdfg.container "t" transient : !sdfg.array<f32>
  {containers}
  {body}
}}"""


def reductions(module) -> dict[str, sd.LibraryReduceOp]:
    return {op.label.data: op for op in module.walk() if isinstance(op, sd.LibraryReduceOp)}


def the_sdfg(module) -> sd.SdfgOp:
    return next(op for op in module.walk() if isinstance(op, sd.SdfgOp))


def test_hoist_plan_keeps_the_picked_dimensions_and_names_a_fresh_transient():
    module = parse(sdfg('%t_all = sdfg.container "t_all" transient : !sdfg.array<3 x f32>', """
  sdfg.state "s" {
    sdfg.map "m" (%j) = (0) to (N - 1) step (1) {
      sdfg.library_reduce "col" add %A[0:M, %j + 1:%j + 2] to %t[] axes [0, 1] : !sdfg.array<M x N x f32>, !sdfg.array<f32>
      %v = sdfg.read %t[] : !sdfg.array<f32>
      %w = sdfg.read %t[] : !sdfg.array<f32>
    }
  }"""))
    (plan,) = plan_hoists(the_sdfg(module))
    assert plan.reduce is reductions(module)["col"]
    assert (plan.kept, [str(e) for e in plan.at], plan.name, len(plan.reads)) == ([1], ["d0 + 1"], "t_all_1", 2)


def test_hoist_plan_leaves_what_the_map_does_not_own():
    # a read before the reduction, an update, a write of the scalar: nothing to hoist
    module = parse(sdfg("", """
  sdfg.state "s" {
    sdfg.map "m" (%i) = (0) to (M) step (1) {
      %v = sdfg.read %t[] : !sdfg.array<f32>
      sdfg.library_reduce "read_before" add %A[%i:%i + 1, 0:N] to %t[] axes [0, 1] : !sdfg.array<M x N x f32>, !sdfg.array<f32>
    }
    sdfg.map "n" (%i) = (0) to (M) step (1) {
      sdfg.library_reduce "update" add %A[%i:%i + 1, 0:N] to %t[] axes [0, 1] update : !sdfg.array<M x N x f32>, !sdfg.array<f32>
    }
  }"""))
    assert plan_hoists(the_sdfg(module)) == []


def test_paths_follow_what_popops_reduces():
    module = parse(sdfg('%h = sdfg.container "h" transient : !sdfg.array<N x i16>\n  %k = sdfg.container "k" transient : !sdfg.array<i16>', """
  sdfg.state "s" {
    sdfg.library_reduce "sum" add %A[0:M, 0:N] to %t[] axes [0, 1] : !sdfg.array<M x N x f32>, !sdfg.array<f32>
    sdfg.library_reduce "max_onto" max %A[0:M, 0:N] to %t[] axes [0, 1] : !sdfg.array<M x N x f32>, !sdfg.array<f32>
    sdfg.library_reduce "max" max %A[0:M, 0:N] to %t[] axes [0, 1] identity(0xFF800000 : f32) : !sdfg.array<M x N x f32>, !sdfg.array<f32>
    sdfg.library_reduce "short" add %h[0:N] to %k[] axes [0] identity(0 : i16) : !sdfg.array<N x i16>, !sdfg.array<i16>
    sdfg.library_reduce "chosen" add %A[0:M, 0:N] to %t[] axes [0, 1] path "tree" : !sdfg.array<M x N x f32>, !sdfg.array<f32>
  }"""))
    paths = {op.label.data: path for op, path in plan_paths(module).items()}
    assert paths == {"sum": "popops", "max_onto": "tree", "max": "popops", "short": "tree"}
    ops = reductions(module)
    assert ops["max_onto"].not_popops() == "poplibs updates only sums, and this max updates its output (no neutral identity, or update)"
    assert ops["short"].not_popops() == "it reduces float32, float16 or int32 into the same type, not i16 into i16"


def test_copies_are_planned_for_what_the_path_cannot_read_in_place():
    module = parse(sdfg('%s = sdfg.container "s" transient : !sdfg.array<1 x f32>', """
  sdfg.for "l" %r = 0 to M step 1 {
    sdfg.state "s" {
      sdfg.library_reduce "tree_box" add %A[1:M, 0:N] to %s[0:1] axes [0, 1] path "tree" : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
      sdfg.library_reduce "tree_whole" add %A[0:M, 0:N] to %s[0:1] axes [0, 1] path "tree" : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
      sdfg.library_reduce "popops_static" add %A[1:M, 0:N] to %s[0:1] axes [0, 1] path "popops" : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
      sdfg.library_reduce "popops_row" add %A[%r:%r + 1, 0:N] to %s[0:1] axes [0, 1] update path "popops" : !sdfg.array<M x N x f32>, !sdfg.array<1 x f32>
    }
  }"""))
    copies = {op.label.data: name for op, name in plan_copies(the_sdfg(module)).items()}
    assert copies == {"tree_box": "A_box", "popops_row": "A_box_1"}
