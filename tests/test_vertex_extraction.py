"""Tests for the planning halves of ipu-vertex-extraction (plan_signature, the built
codelet body) and convert-ipu-to-poplar (plan_placements, slice_sizes), for the cost
model they share (vertex_cycles), and for the tiling helpers of both dialects (tile
map queries, slice rules, check_slices_inside, the attribute checks the text syntax
cannot reach)."""

from __future__ import annotations

import io
from math import ceil

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import ArrayAttr, Builtin, Float32Type, IntAttr, ModuleOp, StringAttr
from xdsl.dialects.math import Math
from xdsl.dialects.memref import MemRef
from xdsl.dialects.scf import Scf
from xdsl.ir import Block
from xdsl.utils.exceptions import VerifyException

from ipu_lower.arch import get_arch
from ipu_lower.cost_model import (
    LOOP_INSTRUCTIONS_PER_ITERATION,
    MATH_FUNCTION_INSTRUCTIONS,
    VERTEX_OVERHEAD_INSTRUCTIONS,
    vertex_cycles,
)
from ipu_lower.dialects import ipu, poplar
from ipu_lower.dialects.tiling import Block as TileBlock
from ipu_lower.dialects.tiling import TileRun, check_slices_inside
from ipu_lower.frontend.frontends import LocatedMlirFrontend
from ipu_lower.passes.convert_ipu_to_poplar import ConvertIpuToPoplarPass, plan_placements, slice_sizes
from ipu_lower.passes.vertex_extraction import (
    RESERVED_FIELD_NAMES,
    IpuVertexExtractionPass,
    codelet_body,
    field_type,
    plan_signature,
)
from ipu_lower.registry import DIALECTS

WORKERS = get_arch("ipu2").workers_per_tile


def make_ctx() -> Context:
    ctx = Context()
    for dialect in (Builtin, Arith, Math, MemRef, Scf, *DIALECTS):
        ctx.load_dialect(dialect)
    return ctx


def parse(text: str, verify: bool = True) -> ModuleOp:
    module = LocatedMlirFrontend().parse(make_ctx(), io.BytesIO(text.encode()), "in.mlir")
    if verify:
        module.verify()
    return module


def the(module: ModuleOp, kind: type):
    ops = [op for op in module.walk() if isinstance(op, kind)]
    assert len(ops) == 1, ops
    return ops[0]


def graph(body: str, args: str = "") -> str:
    return f'ipu.graph "g" arch "ipu2" args [{args}] {{\n{body}\n}}'


def tiled_map(ops: str, variables: str, ins: str, outs: str, block_args: str, over: str = "<0 to 2 x 4>") -> ipu.TiledMapOp:
    text = graph(
        f"{variables}\n"
        f'  ipu.tiled_map "m" over {over} ins({ins}) outs({outs}) {{\n'
        f"  ^bb0({block_args}):\n{ops}\n  }}"
    )
    return the(parse(text), ipu.TiledMapOp)


# -- plan_signature ------------------------------------------------------------------


AXPY_VARIABLES = """
  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 4> : memref<8xf32>
  %t = ipu.variable "__tmp0" mapping <0 to 2 x 4> : memref<8xf32>"""


def axpy_map() -> ipu.TiledMapOp:
    """Outputs t, y (y also read); inputs a (whole), x, y."""
    return tiled_map(
        """    %s = ipu.access %va[] : memref<f32>
    %e = ipu.access %vx[0] : memref<8xf32>
    %old = ipu.access %vy[0] : memref<8xf32>
    %p = arith.mulf %s, %e : f32
    %r = arith.addf %p, %old : f32
    ipu.yield %p, %r : f32, f32""",
        AXPY_VARIABLES,
        "%a whole, %x block, %y block : memref<f32>, memref<8xf32>, memref<8xf32>",
        "%t block, %y block : memref<8xf32>, memref<8xf32>",
        "%va: memref<f32>, %vx: memref<8xf32>, %vy: memref<8xf32>",
    )


def test_signature_orders_inputs_then_new_outputs():
    op = axpy_map()
    signature = plan_signature(op)
    assert [(f.direction.data, f.field_name.data) for f in signature.fields] == [
        ("input", "a"),
        ("input", "x"),
        ("inout", "y"),
        ("output", "tmp0"),
    ]
    assert signature.tensors == [op.ins[0], op.ins[1], op.ins[2], op.outs[0]]
    assert [r.rule_text() for r in signature.rules] == ["whole", "block", "block", "block"]
    # An output that is also an input is the input's field, not a second one.
    assert signature.field_of(op.outs[1]) == 2
    assert signature.field_of(op.outs[0]) == 3


def test_signature_field_types():
    op = axpy_map()
    signature = plan_signature(op)
    types = [str(field_type(t, r)) for t, r in zip(signature.tensors, signature.rules)]
    assert types == ["memref<f32>", "memref<?xf32>", "memref<?xf32>", "memref<?xf32>"]


@pytest.mark.parametrize("reserved", RESERVED_FIELD_NAMES)
def test_signature_avoids_vertex_member_names(reserved):
    op = tiled_map(
        "    %e = ipu.access %vx[0] : memref<8xf32>\n    ipu.yield %e : f32",
        f'  %x = ipu.variable "{reserved}" mapping <0 to 2 x 4> : memref<8xf32>\n'
        '  %y = ipu.variable "y" mapping <0 to 2 x 4> : memref<8xf32>',
        "%x block : memref<8xf32>",
        "%y block : memref<8xf32>",
        "%vx: memref<8xf32>",
    )
    assert [f.field_name.data for f in plan_signature(op).fields] == [f"{reserved}_1", "y"]


def test_signature_names_are_unique_cpp_identifiers():
    # "__x" and "x" both become x; "int" is a keyword; "a.b" is not an identifier.
    op = tiled_map(
        """    %e = ipu.access %v1[0] : memref<8xf32>
    %f = ipu.access %v2[0] : memref<8xf32>
    %g = ipu.access %v3[0] : memref<8xf32>
    %s = arith.addf %e, %f : f32
    %t = arith.addf %s, %g : f32
    ipu.yield %t : f32""",
        """  %x1 = ipu.variable "x" mapping <0 to 2 x 4> : memref<8xf32>
  %x2 = ipu.variable "__x" mapping <0 to 2 x 4> : memref<8xf32>
  %k = ipu.variable "int" mapping <0 to 2 x 4> : memref<8xf32>
  %o = ipu.variable "a.b" mapping <0 to 2 x 4> : memref<8xf32>""",
        "%x1 block, %x2 block, %k block : memref<8xf32>, memref<8xf32>, memref<8xf32>",
        "%o block : memref<8xf32>",
        "%v1: memref<8xf32>, %v2: memref<8xf32>, %v3: memref<8xf32>",
    )
    names = [f.field_name.data for f in plan_signature(op).fields]
    assert names == ["x", "x_1", "int_", "a_b"]
    # The codelet built from them verifies (names are C++ identifiers, none repeated).
    signature = plan_signature(op)
    ipu.CodeletOp("c", signature.fields, codelet_body(op, signature)).verify()


# -- the codelet body ----------------------------------------------------------------


def body_of(op: ipu.TiledMapOp) -> Block:
    signature = plan_signature(op)
    codelet = ipu.CodeletOp("c", signature.fields, codelet_body(op, signature))
    codelet.verify()
    return codelet.body.block


def loop_of(block: Block) -> scf.ForOp:
    (loop,) = [op for op in block.ops if isinstance(op, scf.ForOp)]
    return loop


def names(ops) -> list[str]:
    return [op.name for op in ops]


def test_body_is_the_workers_share_of_the_block():
    block = body_of(axpy_map())
    loop = loop_of(block)
    assert block.last_op is loop
    worker = the_op(block, ipu.WorkerIdOp)
    workers = the_op(block, ipu.NumWorkersOp)
    dim = the_op(block, memref.DimOp)
    # n is the length of the first block field (x, field 1), the loop is i = worker,
    # worker + workers, ... < n.
    assert dim.source is block.args[1]
    assert (loop.lb, loop.ub, loop.step) == (worker.results[0], dim.result, workers.results[0])
    assert loop.iter_args == ()
    # Inside: the loads, the arithmetic, then one store per output, each at the point.
    i = loop.body.block.args[0]
    assert names(loop.body.block.ops) == [
        "memref.load", "memref.load", "arith.mulf", "arith.addf", "memref.store", "memref.store", "scf.yield"
    ]
    stores = [op for op in loop.body.block.ops if isinstance(op, memref.StoreOp)]
    assert [(s.memref, list(s.indices)) for s in stores] == [(block.args[3], [i]), (block.args[2], [i])]
    loads = [op for op in loop.body.block.ops if isinstance(op, memref.LoadOp)]
    assert [(load.memref, list(load.indices)) for load in loads] == [(block.args[1], [i]), (block.args[2], [i])]


def the_op(block: Block, kind: type):
    ops = [op for op in block.ops if isinstance(op, kind)]
    assert len(ops) == 1, ops
    return ops[0]


def test_scalar_loads_and_what_depends_only_on_them_are_hoisted():
    op = tiled_map(
        """    %s = ipu.access %va[] : memref<f32>
    %sq = arith.mulf %s, %s : f32
    %two = arith.constant 2.000000e+00 : f32
    %k = arith.mulf %sq, %two : f32
    %e = ipu.access %vx[0] : memref<8xf32>
    %p = arith.mulf %k, %e : f32
    %r = math.sqrt %sq : f32
    %q = arith.addf %p, %r : f32
    ipu.yield %q : f32""",
        AXPY_VARIABLES,
        "%a whole, %x block : memref<f32>, memref<8xf32>",
        "%y block : memref<8xf32>",
        "%va: memref<f32>, %vx: memref<8xf32>",
    )
    block = body_of(op)
    loop = loop_of(block)
    prologue = [o for o in block.ops if o is not loop]
    # The scalar load, sq, the constant 2, k and sqrt(sq) run once, before the loop.
    assert names(prologue) == [
        "arith.constant", "memref.dim", "ipu.worker_id", "ipu.num_workers",
        "memref.load", "arith.mulf", "arith.constant", "arith.mulf", "math.sqrt",
    ]
    scalar_load = prologue[4]
    assert scalar_load.memref is block.args[0] and list(scalar_load.indices) == []
    # What depends on the point stays in the loop.
    assert names(loop.body.block.ops) == ["memref.load", "arith.mulf", "arith.addf", "memref.store", "scf.yield"]


def test_load_index_is_the_point_plus_halo_and_offset():
    # halo<0, 3>: offset k reads element i + k of the vertex's slice.
    op = tiled_map(
        """    %e0 = ipu.access %vx[0] : memref<11xf32>
    %e2 = ipu.access %vx[2] : memref<11xf32>
    %e3 = ipu.access %vx[3] : memref<11xf32>
    %s = arith.addf %e0, %e2 : f32
    %t = arith.addf %s, %e3 : f32
    ipu.yield %t : f32""",
        """  %x = ipu.variable "x" mapping <0 to 1 x 11> : memref<11xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 4> : memref<8xf32>""",
        "%x halo<0, 3> : memref<11xf32>",
        "%y block : memref<8xf32>",
        "%vx: memref<11xf32>",
    )
    assert load_shifts(body_of(op)) == [0, 2, 3]


def load_shifts(block: Block) -> list[int]:
    """For each load in the loop: how far past the point it reads."""
    loop = loop_of(block)
    i = loop.body.block.args[0]
    shifts = []
    for op in loop.body.block.ops:
        if isinstance(op, memref.LoadOp):
            (index,) = op.indices
            if index is i:
                shifts.append(0)
            else:
                add = index.owner
                assert isinstance(add, arith.AddiOp) and add.lhs is i
                constant = add.rhs.owner
                assert isinstance(constant, arith.ConstantOp)
                shifts.append(constant.value.value.data)
    return shifts


def test_load_index_adds_the_lower_halo_width():
    # The slice of halo<l, h> starts l elements before the block: offset k is i + l + k.
    # (A map starting at element 0 cannot verify with l > 0, so this map is not verified.)
    text = graph(
        """  %x = ipu.variable "x" mapping <0 to 1 x 10> : memref<10xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 8> : memref<8xf32>
  ipu.tiled_map "m" over <0 to 2 x 4> ins(%x halo<2, 1> : memref<10xf32>) outs(%y block : memref<8xf32>) {
  ^bb0(%vx: memref<10xf32>):
    %l = ipu.access %vx[-2] : memref<10xf32>
    %m = ipu.access %vx[-1] : memref<10xf32>
    %r = ipu.access %vx[1] : memref<10xf32>
    %s = arith.addf %l, %m : f32
    %t = arith.addf %s, %r : f32
    ipu.yield %t : f32
  }"""
    )
    op = the(parse(text, verify=False), ipu.TiledMapOp)
    signature = plan_signature(op)
    block = codelet_body(op, signature).block
    assert load_shifts(block) == [0, 1, 3]


def test_rank_2_offsets_are_flattened():
    # [1, -1] in a 3x4 input is 1 * 4 - 1 = 3 elements on.
    op = tiled_map(
        """    %e = ipu.access %vx[1, -1] : memref<3x4xf32>
    ipu.yield %e : f32""",
        """  %x = ipu.variable "x" mapping <0 to 1 x 12> : memref<3x4xf32>
  %y = ipu.variable "y" mapping <0 to 2 x 4> : memref<8xf32>""",
        "%x halo<0, 4> : memref<3x4xf32>",
        "%y block : memref<8xf32>",
        "%vx: memref<3x4xf32>",
    )
    assert load_shifts(body_of(op)) == [3]


def test_points_of_a_halo_only_map_are_its_slice_less_the_halo():
    # No block operand: n = dim(x) - (lo + hi). One point writing a scalar whole.
    op = tiled_map(
        """    %a = ipu.access %vx[0] : memref<3xf32>
    %b = ipu.access %vx[2] : memref<3xf32>
    %s = arith.addf %a, %b : f32
    ipu.yield %s : f32""",
        """  %x = ipu.variable "x" mapping <0 to 1 x 3> : memref<3xf32>
  %k = ipu.variable "k" mapping <0 to 1 x 1> : memref<f32>""",
        "%x halo<0, 2> : memref<3xf32>",
        "%k whole : memref<f32>",
        "%vx: memref<3xf32>",
        over="<0 to 1 x 1>",
    )
    block = body_of(op)
    loop = loop_of(block)
    sub = loop.ub.owner
    assert isinstance(sub, arith.SubiOp)
    assert isinstance(sub.lhs.owner, memref.DimOp) and sub.lhs.owner.source is block.args[0]
    assert sub.rhs.owner.value.value.data == 2
    # The scalar output is stored with no index.
    (store,) = [o for o in loop.body.block.ops if isinstance(o, memref.StoreOp)]
    assert store.memref is block.args[1] and list(store.indices) == []
    # The vertex gets 3 elements of x: 1 point, run once by worker 0 (subi; then
    # load, addi, load, addf, store and the loop's 2 per iteration).
    assert vertex_cycles(block, [3, 1], WORKERS) == cycles(1 + 1 * (5 + LOOP_INSTRUCTIONS_PER_ITERATION))
    assert vertex_cycles(block, [2, 1], WORKERS) == cycles(1)  # no point: the loop never runs


def test_map_without_operands_runs_one_point():
    op = tiled_map(
        """    %c = arith.constant 7 : i32
    ipu.yield %c : i32""",
        '  %k = ipu.variable "k" mapping <0 to 1 x 1> : memref<i32>',
        "",
        "%k whole : memref<i32>",
        "",
        over="<0 to 1 x 1>",
    )
    block = body_of(op)
    loop = loop_of(block)
    assert isinstance(loop.ub.owner, arith.ConstantOp) and loop.ub.owner.value.value.data == 1
    # The constant is hoisted; the loop only stores it.
    assert names(loop.body.block.ops) == ["memref.store", "scf.yield"]


def test_pass_replaces_the_map_by_a_codelet_and_one_placement():
    module = parse(graph(AXPY_VARIABLES + """
  ipu.tiled_map "m" over <0 to 1 x 5, 1 to 2 x 3> ins(%x block : memref<8xf32>) outs(%y block : memref<8xf32>) {
  ^bb0(%vx: memref<8xf32>):
    %e = ipu.access %vx[0] : memref<8xf32>
    ipu.yield %e : f32
  }"""))
    IpuVertexExtractionPass().apply(make_ctx(), module)
    module.verify()
    codelet = the(module, ipu.CodeletOp)
    placement = the(module, ipu.VerticesOp)
    assert codelet.sym_name.data == "g_m"
    assert placement.codelet.root_reference.data == "g_m"
    assert placement.tile_map.runs() == [TileRun(0, 1, 5), TileRun(1, 2, 3)]
    assert not [op for op in module.walk() if isinstance(op, ipu.TiledMapOp)]


# -- the cost model ------------------------------------------------------------------


def codelet_block(fields: str, body: str) -> Block:
    text = graph(f"  ipu.codelet @c({fields}) {{\n{body}\n  }}")
    return the(parse(text), ipu.CodeletOp).body.block


STRIDED_LOOP = """    %c0 = arith.constant 0 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %w = ipu.worker_id
    %nw = ipu.num_workers
    scf.for %i = %w to %n step %nw {
      %e = memref.load %x[%i] : memref<?xf32>
      %d = arith.addf %e, %e : f32
      memref.store %d, %x[%i] : memref<?xf32>
    }"""
STRIDED_BODY = 3  # load, addf, store; the yield is free


def cycles(instructions: int, workers: int = WORKERS) -> int:
    return workers * (VERTEX_OVERHEAD_INSTRUCTIONS + instructions)


@pytest.mark.parametrize("n", [0, 1, 2, 6, 7, 13, 68, 100])
def test_cycles_follow_the_busiest_workers_trip_count(n):
    block = codelet_block('%x: memref<?xf32> inout "x"', STRIDED_LOOP)
    busiest = ceil(n / WORKERS)  # worker 0 takes points 0, 6, 12, ...
    assert vertex_cycles(block, [n], WORKERS) == cycles(busiest * (STRIDED_BODY + LOOP_INSTRUCTIONS_PER_ITERATION))


def test_cycles_with_one_worker_run_every_point():
    block = codelet_block('%x: memref<?xf32> inout "x"', STRIDED_LOOP)
    assert vertex_cycles(block, [13], 1) == cycles(13 * 5, workers=1)


def test_hoisted_ops_count_once():
    prologue = """    %c0 = arith.constant 0 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %w = ipu.worker_id
    %nw = ipu.num_workers"""
    hoisted = codelet_block(
        '%a: memref<f32> input "a", %x: memref<?xf32> inout "x"',
        prologue + """
    %s = memref.load %a[] : memref<f32>
    %k = arith.mulf %s, %s : f32
    scf.for %i = %w to %n step %nw {
      %e = memref.load %x[%i] : memref<?xf32>
      %d = arith.mulf %e, %k : f32
      memref.store %d, %x[%i] : memref<?xf32>
    }""",
    )
    in_loop = codelet_block(
        '%a: memref<f32> input "a", %x: memref<?xf32> inout "x"',
        prologue + """
    scf.for %i = %w to %n step %nw {
      %s = memref.load %a[] : memref<f32>
      %k = arith.mulf %s, %s : f32
      %e = memref.load %x[%i] : memref<?xf32>
      %d = arith.mulf %e, %k : f32
      memref.store %d, %x[%i] : memref<?xf32>
    }""",
    )
    iterations = ceil(60 / WORKERS)
    assert vertex_cycles(hoisted, [1, 60], WORKERS) == cycles(2 + iterations * (3 + 2))
    assert vertex_cycles(in_loop, [1, 60], WORKERS) == cycles(iterations * (5 + 2))


def test_unknown_bounds_count_one_iteration():
    # The upper bound is data: the estimate takes one iteration.
    block = codelet_block(
        '%m: memref<i32> input "m", %x: memref<?xf32> inout "x"',
        """    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %raw = memref.load %m[] : memref<i32>
    %n = arith.index_cast %raw : i32 to index
    scf.for %i = %c0 to %n step %c1 {
      %e = memref.load %x[%i] : memref<?xf32>
      memref.store %e, %x[%i] : memref<?xf32>
    }""",
    )
    assert vertex_cycles(block, [1, 1000], WORKERS) == cycles(2 + 1 * (2 + 2))


def test_index_arithmetic_on_known_values_gives_known_bounds():
    # n - 2 (a halo) and a step of 2 are followed: ceil((10 - 2) / 2) = 4 iterations.
    block = codelet_block(
        '%x: memref<?xf32> inout "x"',
        """    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %d = memref.dim %x, %c0 : memref<?xf32>
    %n = arith.subi %d, %c2 : index
    scf.for %i = %c0 to %n step %c2 {
      %e = memref.load %x[%i] : memref<?xf32>
      memref.store %e, %x[%i] : memref<?xf32>
    }""",
    )
    assert vertex_cycles(block, [10], WORKERS) == cycles(1 + 4 * (2 + 2))


def test_math_functions_cost_more_than_arithmetic():
    def block(op: str) -> Block:
        return codelet_block(
            '%x: memref<f32> inout "x"',
            f"""    %e = memref.load %x[] : memref<f32>
    %r = {op} %e : f32
    memref.store %r, %x[] : memref<f32>""",
        )

    assert vertex_cycles(block("math.exp"), [1], WORKERS) == cycles(2 + MATH_FUNCTION_INSTRUCTIONS)
    assert vertex_cycles(block("arith.negf"), [1], WORKERS) == cycles(3)


def test_branches_cost_their_longest_side():
    block = codelet_block(
        '%x: memref<f32> inout "x"',
        """    %w = ipu.worker_id
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %w, %c0 : index
    scf.if %first {
      %e = memref.load %x[] : memref<f32>
      %r = math.exp %e : f32
      memref.store %r, %x[] : memref<f32>
    } else {
      %e = memref.load %x[] : memref<f32>
      memref.store %e, %x[] : memref<f32>
    }""",
    )
    assert vertex_cycles(block, [1], WORKERS) == cycles(1 + 1 + (2 + MATH_FUNCTION_INSTRUCTIONS))


def test_carried_values_loop_like_any_other():
    block = codelet_block(
        '%v: memref<?xf32> input "v", %out: memref<f32> output "out"',
        """    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %v, %c0 : memref<?xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %e = memref.load %v[%i] : memref<?xf32>
      %next = arith.addf %acc, %e : f32
      scf.yield %next : f32
    }
    memref.store %sum, %out[] : memref<f32>""",
    )
    assert vertex_cycles(block, [9, 1], WORKERS) == cycles(9 * (2 + 2) + 1)


def test_the_same_body_costs_the_same_at_the_poplar_level():
    block = codelet_block('%x: memref<?xf32> inout "x"', STRIDED_LOOP)
    module = parse(graph(f'  ipu.codelet @c(%x: memref<?xf32> inout "x") {{\n{STRIDED_LOOP}\n  }}'))
    ConvertIpuToPoplarPass().apply(make_ctx(), module)
    codelet = the(module, poplar.CodeletOp)
    assert the_op(codelet.body.block, poplar.WorkerIdOp)
    assert vertex_cycles(codelet.body.block, [13], WORKERS) == vertex_cycles(block, [13], WORKERS)


# -- plan_placements and slice_sizes ----------------------------------------------------


PLACEMENTS = graph(
    """  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>
  %x = ipu.variable "x" mapping <0 to 1 x 33> : memref<33xf32>
  %y = ipu.variable "y" mapping <0 to 1 x 31> : memref<31xf32>
  %p = ipu.variable "p" mapping <0 to 5 x 1> : memref<5xf32>
  %m = ipu.variable "m" mapping <0 to 1 x 4> : memref<2x2xf32>
  ipu.codelet @c(%fa: memref<f32> input "a", %fx: memref<?xf32> input "x", %fy: memref<?xf32> output "y", %fp: memref<f32> output "p", %fm: memref<?xf32> input "m") {
    %c0 = arith.constant 0 : index
    %n = memref.dim %fy, %c0 : memref<?xf32>
    %w = ipu.worker_id
    %nw = ipu.num_workers
    scf.for %i = %w to %n step %nw {
      %e = memref.load %fx[%i] : memref<?xf32>
      memref.store %e, %fy[%i] : memref<?xf32>
    }
  }
  ipu.compute_set "cs" {
    ipu.vertices @c over <0 to 3 x 7, 3 to 4 x 6, 4 to 5 x 4> (%a whole, %x halo<0, 2>, %y block, %p partial, %m whole : memref<f32>, memref<33xf32>, memref<31xf32>, memref<5xf32>, memref<2x2xf32>)
  }
  ipu.compute_set "one" {
    ipu.vertices @c over <9 to 10 x 31> (%a whole, %x halo<0, 2>, %y block, %p partial, %m whole : memref<f32>, memref<33xf32>, memref<31xf32>, memref<5xf32>, memref<2x2xf32>)
  }"""
)


def test_slice_sizes_per_rule():
    placement = next(op for op in parse(PLACEMENTS).walk() if isinstance(op, ipu.VerticesOp))
    # whole: the tensor; halo<0, 2>: the block and 2; block: the block; partial: 1.
    assert slice_sizes(placement, 0) == [1, 9, 7, 1, 4]
    assert slice_sizes(placement, 1) == [1, 8, 6, 1, 4]
    assert slice_sizes(placement, 2) == [1, 6, 4, 1, 4]


def test_plan_placements_gives_one_estimate_per_run():
    module = parse(PLACEMENTS)
    graph_op = the(module, ipu.GraphOp)
    codelet = the(module, ipu.CodeletOp)
    plans = plan_placements(graph_op)
    first, second = [op for op in module.walk() if isinstance(op, ipu.VerticesOp)]
    assert set(plans) == {first, second}
    assert plans[first].field_names == ["a", "x", "y", "p", "m"]
    assert plans[first].cycles == [
        vertex_cycles(codelet.body.block, slice_sizes(first, r), WORKERS) for r in range(3)
    ]
    # Blocks of 7 take two iterations on worker 0, blocks of 6 and 4 one; 31 take six.
    per_iteration = 2 + LOOP_INSTRUCTIONS_PER_ITERATION
    assert plans[first].cycles == [cycles(2 * per_iteration), cycles(per_iteration), cycles(per_iteration)]
    assert plans[second].cycles == [cycles(6 * per_iteration)]


# -- tiling helpers ------------------------------------------------------------------------


RUNS = [TileRun(0, 3, 7), TileRun(5, 6, 6), TileRun(6, 8, 4)]


@pytest.mark.parametrize("attr", [ipu.TileMapAttr, poplar.TileMapAttr])
def test_tile_map_queries(attr):
    tile_map = attr(RUNS)
    assert tile_map.runs() == RUNS
    assert tile_map.run_starts() == [0, 21, 27]
    assert tile_map.total() == 35
    assert tile_map.num_blocks() == 6
    assert tile_map.max_per_tile() == 7
    assert tile_map.last_tile() == 7
    assert tile_map.runs_text() == "<0 to 3 x 7, 5 to 6 x 6, 6 to 8 x 4>"
    assert list(tile_map.blocks()) == [
        TileBlock(0, 0, 0, 0, 7),
        TileBlock(1, 1, 0, 7, 14),
        TileBlock(2, 2, 0, 14, 21),
        TileBlock(5, 3, 1, 21, 27),
        TileBlock(6, 4, 2, 27, 31),
        TileBlock(7, 5, 2, 31, 35),
    ]
    assert tile_map.first_block() == TileBlock(0, 0, 0, 0, 7)
    assert tile_map.last_block() == TileBlock(7, 5, 2, 31, 35)


def test_first_and_last_block_are_the_ends_of_blocks():
    for runs in ([TileRun(4, 5, 3)], [TileRun(0, 1424, 68), TileRun(1424, 1472, 66)], RUNS):
        tile_map = ipu.TileMapAttr(runs)
        blocks = list(tile_map.blocks())
        assert (tile_map.first_block(), tile_map.last_block()) == (blocks[0], blocks[-1])
        assert sum(b.end - b.begin for b in blocks) == tile_map.total()


def test_owner():
    tile_map = ipu.TileMapAttr(RUNS)
    assert tile_map.owner(0, 7) == 0
    assert tile_map.owner(8, 10) == 1
    assert tile_map.owner(21, 22) == 5
    assert tile_map.owner(34, 35) == 7
    assert tile_map.owner(6, 8) is None  # split over tiles 0 and 1
    assert tile_map.owner(35, 36) is None  # past the end
    for block in tile_map.blocks():
        assert tile_map.owner(block.begin, block.end) == block.tile


def test_a_tile_map_has_a_run():
    # An empty map would place nothing and print a zero-length C++ table.
    with pytest.raises(VerifyException, match="#ipu.tile_map needs at least one run"):
        ipu.TileMapAttr([])
    with pytest.raises(VerifyException, match="#poplar.tile_map needs at least one run"):
        poplar.TileMapAttr([])


@pytest.mark.parametrize("attr", [ipu.SliceAttr, poplar.SliceAttr])
def test_slice_of(attr):
    block = TileBlock(tile=5, index=3, run=1, begin=21, end=27)
    assert attr("whole").slice_of(block) is None
    assert attr("block").slice_of(block) == (21, 27)
    assert attr("halo", 2, 3).slice_of(block) == (19, 30)
    assert attr("partial").slice_of(block) == (3, 4)
    assert attr("halo", 2, 3).rule_text() == "halo<2, 3>"
    assert attr("halo", 1, 0).halo == (1, 0)
    assert (attr("whole").is_whole, attr("partial").is_partial) == (True, True)
    assert [attr(k).is_blockwise for k in ("whole", "block", "partial")] == [False, True, False]
    assert attr("halo", 0, 1).is_blockwise


def test_check_slices_inside():
    tile_map = ipu.TileMapAttr(RUNS)
    rules = [ipu.SliceAttr("whole"), ipu.SliceAttr("block"), ipu.SliceAttr("halo", 0, 2), ipu.SliceAttr("partial")]
    check_slices_inside(rules, tile_map, [1, 35, 37, 6], ["a", "x", "h", "p"])
    with pytest.raises(VerifyException, match=r"the block slice \[31:35\] of 'x' on tile 7 is outside its 34 elements"):
        check_slices_inside(rules, tile_map, [1, 34, 37, 6], ["a", "x", "h", "p"])
    with pytest.raises(VerifyException, match=r"the halo<0, 2> slice \[31:37\] of 'h' on tile 7 is outside its 36"):
        check_slices_inside(rules, tile_map, [1, 35, 36, 6], ["a", "x", "h", "p"])
    with pytest.raises(VerifyException, match=r"the partial slice \[5:6\] of 'p' on tile 7 is outside its 5"):
        check_slices_inside(rules, tile_map, [1, 35, 37, 5], ["a", "x", "h", "p"])
    # A halo before element 0 is caught on the first block.
    with pytest.raises(VerifyException, match=r"the halo<1, 0> slice \[-1:7\] of 'h' on tile 0"):
        check_slices_inside([ipu.SliceAttr("halo", 1, 0)], tile_map, [100], ["h"])


def test_checks_the_text_syntax_cannot_reach():
    with pytest.raises(VerifyException, match=r"needs \(first, end, count\) triples"):
        ipu.TileMapAttr.new((ArrayAttr([IntAttr(0), IntAttr(1), IntAttr(2), IntAttr(3)]), IntAttr(0)))
    with pytest.raises(VerifyException, match="unknown slice rule 'diagonal'"):
        ipu.SliceAttr("diagonal")
    with pytest.raises(VerifyException, match="halo widths must not be negative"):
        poplar.SliceAttr("halo", -1, 0)
    with pytest.raises(VerifyException, match="only a halo rule has widths, not 'block'"):
        ipu.SliceAttr("block", 1, 0)
    with pytest.raises(VerifyException, match="field direction 'both' is not one of input, output, inout"):
        ipu.FieldAttr.new((StringAttr("both"), StringAttr("x")))
    with pytest.raises(VerifyException, match="needs a static, non-negative shape"):
        poplar.TensorType([2, -1], Float32Type())
