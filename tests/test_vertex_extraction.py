"""Tests for the planning halves of ipu-vertex-extraction (plan_signature, plan_loop, the
codelet body it builds: vector units, word units with a tail, one element at a time) and
convert-ipu-to-poplar (plan_placements, slice_sizes), and for the tiling helpers of both
dialects (tile map queries, slice rules, check_slices_inside, the attribute checks the
text syntax cannot reach). The cost model has its own file, test_cost_model.py."""

from __future__ import annotations

import pytest
from ipu_lower.dialects import ipu, poplar
from ipu_lower.dialects.tiling import Block as TileBlock
from ipu_lower.dialects.tiling import TileRun, check_slices_inside
from ipu_lower.passes.convert_ipu_to_poplar import plan_placements, slice_sizes
from ipu_lower.passes.vertex_extraction import (
    RESERVED_FIELD_NAMES,
    IpuVertexExtractionPass,
    LoopPlan,
    codelet_body,
    field_type,
    plan_loop,
    plan_signature,
)
from ir_helpers import extracted_fold, graph, make_ctx, parse, the
from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects.builtin import (
    ArrayAttr,
    Float32Type,
    IntAttr,
    StringAttr,
    VectorType,
)
from xdsl.ir import Block, Operation
from xdsl.utils.exceptions import VerifyException

from ipu_lower.arch import get_arch
from ipu_lower.cost_model import (
    LOOP_DECISION,
    LOOP_OVERHEAD,
    VERTEX_OVERHEAD,
    WORKER_OVERHEAD,
    vertex_cycles,
)

WORKERS = get_arch("ipu2").workers_per_tile
VECTOR_BYTES = get_arch("ipu2").data_path_bytes  # 8: float2, half4










def tiled_map(
    ops: str, variables: str, ins: str, outs: str, block_args: str, over: str = "<0 to 2 x 4>", verify: bool = True
) -> ipu.TiledMapOp:
    text = graph(
        f"{variables}\n"
        f'  ipu.tiled_map "m" over {over} ins({ins}) outs({outs}) {{\n'
        f"  ^bb0({block_args}):\n{ops}\n  }}"
    )
    return the(parse(text, verify), ipu.TiledMapOp)


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
    # The whole scalar is the one field that is not a run of elements.
    assert [signature.is_streamed(k) for k in range(4)] == [False, True, True, True]


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
    body_of(op)


# -- plan_loop -----------------------------------------------------------------------


def variables(element: str, names: str = "xy", mapping: str = "<0 to 2 x 4>", size: int = 8) -> str:
    return "\n".join(
        f'  %{v} = ipu.variable "{v}" mapping {mapping} : memref<{size}x{element}>' for v in names
    )


def unary_map(element: str, op: str, mapping: str = "<0 to 2 x 4>", size: int = 8, result: str | None = None) -> ipu.TiledMapOp:
    """y = op(x) over `mapping`; `op` is the text of the op on %e giving %r."""
    result = result or element
    memref_x = f"memref<{size}x{element}>"
    memref_y = f"memref<{size}x{result}>"
    return tiled_map(
        f"""    %e = ipu.access %vx[0] : {memref_x}
    {op}
    ipu.yield %r : {result}""",
        f'  %x = ipu.variable "x" mapping {mapping} : {memref_x}\n'
        f'  %y = ipu.variable "y" mapping {mapping} : {memref_y}',
        f"%x block : {memref_x}",
        f"%y block : {memref_y}",
        f"%vx: {memref_x}",
        over=mapping,
    )


def loop_plan(op: ipu.TiledMapOp) -> LoopPlan:
    return plan_loop(op, plan_signature(op), VECTOR_BYTES)


def vector_type(plan: LoopPlan) -> str | None:
    return None if plan.vector is None else str(plan.vector)


@pytest.mark.parametrize(
    ("element", "add", "unit", "vector"),
    [("f32", "arith.addf", 2, "vector<2xf32>"), ("f16", "arith.addf", 4, "vector<4xf16>")],
)
def test_elementwise_floats_vectorise(element, add, unit, vector):
    # Blocks of 8 elements on tiles 0 and 1: whole float2 / half4 vectors.
    plan = loop_plan(unary_map(element, f"%r = {add} %e, %e : {element}"))
    assert (plan.unit, vector_type(plan), plan.tail) == (unit, vector, False)


@pytest.mark.parametrize(
    ("element", "unit"),
    [("i32", 1), ("i16", 2), ("i8", 4)],
)
def test_integers_do_not_vectorise_and_run_a_word_at_a_time(element, unit):
    # One 32-bit word of the element type: 1 int, 2 shorts, 4 bytes.
    plan = loop_plan(unary_map(element, f"%r = arith.addi %e, %e : {element}"))
    assert (plan.unit, plan.vector, plan.tail) == (unit, None, False)


def test_mixed_element_types_do_not_vectorise():
    # x f32 -> y f32 and h f16 -> g f16 in one map: two element types, no one vector
    # type; the unit is a word of the narrowest, 2 halves.
    op = tiled_map(
        """    %e = ipu.access %vx[0] : memref<8xf32>
    %f = ipu.access %vh[0] : memref<8xf16>
    %r = arith.addf %e, %e : f32
    %s = arith.mulf %f, %f : f16
    ipu.yield %r, %s : f32, f16""",
        variables("f32", "xy") + "\n" + variables("f16", "hg"),
        "%x block, %h block : memref<8xf32>, memref<8xf16>",
        "%y block, %g block : memref<8xf32>, memref<8xf16>",
        "%vx: memref<8xf32>, %vh: memref<8xf16>",
    )
    assert loop_plan(op) == LoopPlan(2, None, False)


@pytest.mark.parametrize(
    ("element", "mapping", "size", "expected"),
    [
        # runs of 5 floats: tile 1's block starts at element 5, not a float2 boundary
        ("f32", "<0 to 2 x 5>", 10, LoopPlan(1, None, False)),
        # a 3-float block before a 4-float one: the second starts at element 3
        ("f32", "<0 to 1 x 3, 1 to 2 x 4>", 7, LoopPlan(1, None, False)),
        # runs of 6 halves: tile 1 starts at element 6, not a half4 boundary; a word of
        # halves is the unit, and a block of 6 is 3 words, no tail
        ("f16", "<0 to 2 x 6>", 12, LoopPlan(2, None, False)),
        # only the last block may be ragged: its start is aligned, its tail runs apart
        ("f32", "<0 to 1 x 5>", 5, LoopPlan(2, VectorType(Float32Type(), [2]), True)),
        ("f32", "<0 to 2 x 6, 2 to 3 x 3>", 15, LoopPlan(2, VectorType(Float32Type(), [2]), True)),
    ],
)
def test_blocks_must_start_on_vector_boundaries(element, mapping, size, expected):
    add = "arith.addf"
    assert loop_plan(unary_map(element, f"%r = {add} %e, %e : {element}", mapping, size)) == expected


def halo_map(element: str, halo: str, offsets: list[int], size: int = 12, verify: bool = True) -> ipu.TiledMapOp:
    """y = sum of x at the offsets, x read with `halo` over blocks of 4."""
    memref_x = f"memref<{size}x{element}>"
    accesses = "\n".join(f"    %e{k} = ipu.access %vx[{o}] : {memref_x}" for k, o in enumerate(offsets))
    sums, last = [], "%e0"
    for k in range(1, len(offsets)):
        sums.append(f"    %s{k} = arith.addf {last}, %e{k} : {element}")
        last = f"%s{k}"
    return tiled_map(
        accesses + "\n" + "\n".join(sums) + f"\n    ipu.yield {last} : {element}",
        f'  %x = ipu.variable "x" mapping <0 to 1 x {size}> : {memref_x}\n'
        f'  %y = ipu.variable "y" mapping <0 to 2 x 4> : memref<8x{element}>',
        f"%x {halo} : {memref_x}",
        f"%y block : memref<8x{element}>",
        f"%vx: {memref_x}",
        verify=verify,
    )


def test_halo_and_access_offsets_must_be_whole_vectors():
    # halo<0, 2>, x[i] and x[i + 2]: whole float2 vectors away from the point
    assert vector_type(loop_plan(halo_map("f32", "halo<0, 2>", [0, 2]))) == "vector<2xf32>"
    # x[i + 1] is half a float2 away
    assert loop_plan(halo_map("f32", "halo<0, 2>", [0, 1])) == LoopPlan(1, None, False)
    # for halves, x[i + 2] is half a half4 away: a word unit instead
    assert loop_plan(halo_map("f16", "halo<0, 2>", [0, 2])) == LoopPlan(2, None, False)
    # a lower halo of 1 float shifts every vector of the field off its boundary, even for
    # x[i]; one of 2 does not. (A halo before element 0: these maps are not verified.)
    assert loop_plan(halo_map("f32", "halo<1, 0>", [0], verify=False)) == LoopPlan(1, None, False)
    assert vector_type(loop_plan(halo_map("f32", "halo<2, 0>", [-2, 0], verify=False))) == "vector<2xf32>"
    # rank 2: [1, 0] in rows of 4 is 4 elements on (2 float2), [1, -1] is 3
    op = tiled_map(
        """    %a = ipu.access %vx[0, 0] : memref<3x4xf32>
    %b = ipu.access %vx[1, 0] : memref<3x4xf32>
    %s = arith.addf %a, %b : f32
    ipu.yield %s : f32""",
        '  %x = ipu.variable "x" mapping <0 to 1 x 12> : memref<3x4xf32>\n'
        '  %y = ipu.variable "y" mapping <0 to 2 x 4> : memref<8xf32>',
        "%x halo<0, 4> : memref<3x4xf32>",
        "%y block : memref<8xf32>",
        "%vx: memref<3x4xf32>",
    )
    assert vector_type(loop_plan(op)) == "vector<2xf32>"


@pytest.mark.parametrize(
    ("ops", "result"),
    [
        # a cast to int and back: i32 values per point
        ("%i = arith.fptosi %e : f32 to i32\n    %r = arith.sitofp %i : i32 to f32", "f32"),
        # a comparison gives i1 per point, the select takes it
        ("%z = arith.constant 0.000000e+00 : f32\n    %c = arith.cmpf olt, %e, %z : f32\n"
         "    %r = arith.select %c, %z, %e : f32", "f32"),
        # a cast to the output type
        ("%r = arith.truncf %e : f32 to f16", "f16"),
    ],
)
def test_ops_that_are_not_elementwise_on_the_vector_type_do_not_vectorise(ops, result):
    plan = loop_plan(unary_map("f32", ops, result=result))
    assert plan.vector is None
    assert plan.unit == (2 if result == "f16" else 1)


def test_ops_on_invariants_do_not_stop_vectorisation():
    # An i32 scalar converted to float is done once, before the loop, and broadcast.
    op = tiled_map(
        """    %kv = ipu.access %vk[] : memref<i32>
    %f = arith.sitofp %kv : i32 to f32
    %e = ipu.access %vx[0] : memref<8xf32>
    %r = arith.mulf %f, %e : f32
    ipu.yield %r : f32""",
        '  %k = ipu.variable "k" mapping <0 to 1 x 1> : memref<i32>\n' + variables("f32"),
        "%k whole, %x block : memref<i32>, memref<8xf32>",
        "%y block : memref<8xf32>",
        "%vk: memref<i32>, %vx: memref<8xf32>",
    )
    assert vector_type(loop_plan(op)) == "vector<2xf32>"


def test_a_whole_scalar_output_does_not_vectorise():
    # One point (a map over one element) summing x[0] and x[2] into a scalar: the
    # accesses and the block are aligned, but a scalar is not a run of vectors.
    assert loop_plan(scalar_output_map()) == LoopPlan(1, None, False)


def scalar_output_map() -> ipu.TiledMapOp:
    return tiled_map(
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


def test_a_map_without_streamed_fields_runs_single_points():
    op = constant_map()
    assert loop_plan(op) == LoopPlan(1, None, False)


def constant_map() -> ipu.TiledMapOp:
    return tiled_map(
        """    %c = arith.constant 7 : i32
    ipu.yield %c : i32""",
        '  %k = ipu.variable "k" mapping <0 to 1 x 1> : memref<i32>',
        "",
        "%k whole : memref<i32>",
        "",
        over="<0 to 1 x 1>",
    )


@pytest.mark.parametrize(
    ("element", "mapping", "size", "unit", "tail"),
    [
        ("f32", "<0 to 2 x 4>", 8, 2, False),
        ("f32", "<0 to 2 x 4, 2 to 3 x 3>", 11, 2, True),
        ("i16", "<0 to 2 x 4, 2 to 3 x 3>", 11, 2, True),
        ("i8", "<0 to 2 x 8>", 16, 4, False),
        ("i8", "<0 to 1 x 6>", 6, 4, True),
        ("i32", "<0 to 1 x 7>", 7, 1, False),  # a unit of one element never leaves a tail
    ],
)
def test_a_tail_is_planned_when_a_block_ends_in_a_partial_unit(element, mapping, size, unit, tail):
    add = "arith.addf" if element.startswith("f") else "arith.addi"
    plan = loop_plan(unary_map(element, f"%r = {add} %e, %e : {element}", mapping, size))
    assert (plan.unit, plan.tail) == (unit, tail)


# -- the codelet body ----------------------------------------------------------------


def body_of(op: ipu.TiledMapOp, verify: bool = True) -> Block:
    signature = plan_signature(op)
    codelet = ipu.CodeletOp("c", signature.fields, codelet_body(op, signature, loop_plan(op)))
    if verify:
        codelet.verify()
    return codelet.body.block


def loops(block: Block) -> list[scf.ForOp]:
    return [op for op in block.ops if isinstance(op, scf.ForOp)]


def the_op(block: Block, kind: type):
    ops = [op for op in block.ops if isinstance(op, kind)]
    assert len(ops) == 1, ops
    return ops[0]


def names(ops) -> list[str]:
    return [op.name for op in ops]


def constant_value(value) -> int:
    owner = value.owner
    assert isinstance(owner, arith.ConstantOp), owner
    return owner.value.value.data


def check_tail(block: Block, unit: int) -> scf.ForOp:
    """The tail: done = units * unit; the worker units % workers loops over elements
    done..n, one at a time. Returns that loop."""
    branch = the_op(block, scf.IfOp)
    assert block.last_op is branch and not branch.false_region.blocks
    cond = branch.cond.owner
    assert isinstance(cond, arith.CmpiOp) and cond.predicate.value.data == 0  # eq
    worker, workers = the_op(block, ipu.WorkerIdOp).results[0], the_op(block, ipu.NumWorkersOp).results[0]
    owner = cond.rhs.owner
    assert cond.lhs is worker and isinstance(owner, arith.RemUIOp) and owner.rhs is workers
    units = owner.lhs
    (loop,) = [op for op in branch.true_region.block.ops if isinstance(op, scf.ForOp)]
    done = loop.lb.owner
    assert isinstance(done, arith.MuliOp) and done.lhs is units and constant_value(done.rhs) == unit
    assert isinstance(loop.ub.owner, memref.DimOp) and constant_value(loop.step) == 1
    return loop


def test_vector_body_takes_every_workers_th_vector():
    # axpy_map: t = a * x, y = t + y in f32 over blocks of 4: float2 units, no tail.
    block = body_of(axpy_map())
    (loop,) = loops(block)
    assert block.last_op is loop  # blocks of 4: no tail code
    worker, workers = the_op(block, ipu.WorkerIdOp), the_op(block, ipu.NumWorkersOp)
    dim = the_op(block, memref.DimOp)
    units = the_op(block, arith.DivUIOp)
    # n is the length of the first block field (x, field 1); units = n / 2; the loop is
    # u = worker, worker + workers, ... < units.
    assert dim.source is block.args[1]
    assert units.lhs is dim.result and constant_value(units.rhs) == 2
    assert (loop.lb, loop.ub, loop.step) == (worker.results[0], units.result, workers.results[0])
    # The scalar is loaded once and broadcast before the loop.
    load = the_op(block, memref.LoadOp)
    broadcast = the_op(block, vector.BroadcastOp)
    assert load.memref is block.args[0] and broadcast.source is load.res
    # Inside: first = u * 2, vector loads of x and y there, the product (used twice: it
    # is the output t too, so no fma), the sum, a vector store per output.
    inner = loop.body.block
    assert names(inner.ops) == [
        "arith.muli", "vector.load", "vector.load", "arith.mulf", "arith.addf",
        "vector.store", "vector.store", "scf.yield",
    ]
    first = inner.first_op
    assert first.lhs is inner.args[0] and constant_value(first.rhs) == 2
    loads = [op for op in inner.ops if isinstance(op, vector.LoadOp)]
    assert [(op.base, list(op.indices), str(op.result.type)) for op in loads] == [
        (block.args[1], [first.result], "vector<2xf32>"),
        (block.args[2], [first.result], "vector<2xf32>"),
    ]
    mul = next(op for op in inner.ops if isinstance(op, arith.MulfOp))
    assert mul.lhs is broadcast.vector and mul.rhs is loads[0].result
    stores = [op for op in inner.ops if isinstance(op, vector.StoreOp)]
    assert [(s.base, list(s.indices)) for s in stores] == [(block.args[3], [first.result]), (block.args[2], [first.result])]
    assert stores[0].vector is mul.result


def test_vector_body_with_a_ragged_last_block_has_a_scalar_tail():
    # Blocks of 4, 4 and 3 floats: units = n / 2 vectors, then the element after the
    # last whole vector is done by one worker, one element at a time.
    op = unary_map("f32", "%r = math.sqrt %e : f32", "<0 to 2 x 4, 2 to 3 x 3>", 11)
    block = body_of(op)
    vector_loop, = loops(block)
    assert names(vector_loop.body.block.ops) == ["arith.muli", "vector.load", "math.sqrt", "vector.store", "scf.yield"]
    tail = check_tail(block, 2)
    i = tail.body.block.args[0]
    assert names(tail.body.block.ops) == ["memref.load", "math.sqrt", "memref.store", "scf.yield"]
    load, sqrt, store = list(tail.body.block.ops)[:3]
    assert (load.memref, list(load.indices)) == (block.args[0], [i])
    assert str(sqrt.result.type) == "f32"
    assert (store.memref, list(store.indices)) == (block.args[1], [i])


def test_word_units_loop_over_their_elements_with_a_tail():
    # int16: a unit is one word, 2 shorts, an inner loop k = 0..2 at i = first + k, so
    # no two workers store into one word; blocks of 4, 4, 3: a tail for the last short.
    op = unary_map("i16", "%r = arith.addi %e, %e : i16", "<0 to 2 x 4, 2 to 3 x 3>", 11)
    block = body_of(op)
    (outer,) = loops(block)
    worker = the_op(block, ipu.WorkerIdOp).results[0]
    units = the_op(block, arith.DivUIOp)
    assert constant_value(units.rhs) == 2
    assert (outer.lb, outer.ub) == (worker, units.result)
    first, inner = list(outer.body.block.ops)[:2]
    assert isinstance(first, arith.MuliOp) and constant_value(first.rhs) == 2
    assert isinstance(inner, scf.ForOp)
    assert (constant_value(inner.lb), constant_value(inner.ub), constant_value(inner.step)) == (0, 2, 1)
    point = inner.body.block.first_op
    assert isinstance(point, arith.AddiOp) and (point.lhs, point.rhs) == (first.result, inner.body.block.args[0])
    assert names(inner.body.block.ops) == ["arith.addi", "memref.load", "arith.addi", "memref.store", "scf.yield"]
    load, store = (op for op in inner.body.block.ops if isinstance(op, memref.LoadOp | memref.StoreOp))
    assert list(load.indices) == [point.result] and list(store.indices) == [point.result]
    tail = check_tail(block, 2)
    assert names(tail.body.block.ops) == ["memref.load", "arith.addi", "memref.store", "scf.yield"]


def test_word_units_without_a_tail_when_every_block_is_whole_words():
    # int8 in blocks of 8: 2 words each, no tail code.
    block = body_of(unary_map("i8", "%r = arith.addi %e, %e : i8"))
    (outer,) = loops(block)
    assert block.last_op is outer
    inner = next(op for op in outer.body.block.ops if isinstance(op, scf.ForOp))
    assert constant_value(inner.ub) == 4


def test_32_bit_bodies_that_do_not_vectorise_run_one_element_at_a_time():
    # int32: the unit is one element, the old loop i = worker, worker + workers, ... < n
    # with the point's code inside, and nothing after it.
    block = body_of(unary_map("i32", "%r = arith.addi %e, %e : i32"))
    (loop,) = loops(block)
    assert block.last_op is loop
    assert not any(isinstance(op, arith.DivUIOp | scf.IfOp) for op in block.ops)
    worker, workers = the_op(block, ipu.WorkerIdOp), the_op(block, ipu.NumWorkersOp)
    dim = the_op(block, memref.DimOp)
    assert (loop.lb, loop.ub, loop.step) == (worker.results[0], dim.result, workers.results[0])
    i = loop.body.block.args[0]
    assert names(loop.body.block.ops) == ["memref.load", "arith.addi", "memref.store", "scf.yield"]
    load, _, store, _ = loop.body.block.ops
    assert (load.memref, list(load.indices)) == (block.args[0], [i])
    assert (store.memref, list(store.indices)) == (block.args[1], [i])


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
    (loop,) = loops(block)
    prologue = [o for o in block.ops if o is not loop]
    # The scalar load, sq, the constant 2, k and sqrt(sq) run once, before the loop;
    # then the vector count and the broadcasts of the two invariants the points use.
    assert names(prologue) == [
        "arith.constant", "memref.dim", "ipu.worker_id", "ipu.num_workers",
        "memref.load", "arith.mulf", "arith.constant", "arith.mulf", "math.sqrt",
        "arith.constant", "arith.divui", "vector.broadcast", "vector.broadcast",
    ]
    scalar_load = prologue[4]
    assert scalar_load.memref is block.args[0] and list(scalar_load.indices) == []
    k, r = prologue[7], prologue[8]
    assert [b.source for b in prologue[11:]] == [k.result, r.result]
    # What depends on the point stays in the loop: k * x + sqrt(sq) is one fma.
    assert names(loop.body.block.ops) == ["arith.muli", "vector.load", "vector.fma", "vector.store", "scf.yield"]


def test_load_index_is_the_point_plus_halo_and_offset():
    # halo<0, 3>: offset k reads element i + k of the vertex's slice (3 is not a whole
    # float2 away, so the points run one at a time).
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
    assert load_shifts(body_of(op), memref.LoadOp) == [0, 2, 3]


def test_vector_load_index_is_the_first_element_plus_halo_and_offset():
    # halo<0, 2> with x[i] and x[i + 2]: float2 loads at first and first + 2.
    assert load_shifts(body_of(halo_map("f32", "halo<0, 2>", [0, 2])), vector.LoadOp) == [0, 2]


def load_shifts(block: Block, kind: type[Operation]) -> list[int]:
    """For each load of `kind` in the first loop: how far past the point it reads."""
    loop = loops(block)[0]
    inner = loop.body.block
    point = inner.args[0] if kind is memref.LoadOp else inner.first_op.results[0]
    shifts = []
    for op in inner.ops:
        if isinstance(op, kind):
            (index,) = op.indices
            if index is point:
                shifts.append(0)
            else:
                add = index.owner
                assert isinstance(add, arith.AddiOp) and add.lhs is point
                shifts.append(constant_value(add.rhs))
    return shifts


def test_load_index_adds_the_lower_halo_width():
    # The slice of halo<l, h> starts l elements before the block: offset k is i + l + k.
    # (A map starting at element 0 cannot verify with l > 0, so this map is not verified.)
    op = halo_map("f32", "halo<2, 1>", [-2, -1, 1], size=11, verify=False)
    assert loop_plan(op).vector is None  # -1 and 1 are not whole vectors away
    assert load_shifts(body_of(op, verify=False), memref.LoadOp) == [0, 1, 3]


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
    assert load_shifts(body_of(op), memref.LoadOp) == [3]


def test_points_of_a_halo_only_map_are_its_slice_less_the_halo():
    # No block operand: n = dim(x) - (lo + hi). One point writing a scalar whole.
    block = body_of(scalar_output_map())
    (loop,) = loops(block)
    assert block.last_op is loop
    sub = loop.ub.owner
    assert isinstance(sub, arith.SubiOp)
    assert isinstance(sub.lhs.owner, memref.DimOp) and sub.lhs.owner.source is block.args[0]
    assert constant_value(sub.rhs) == 2
    # The scalar output is stored with no index.
    (store,) = [o for o in loop.body.block.ops if isinstance(o, memref.StoreOp)]
    assert store.memref is block.args[1] and list(store.indices) == []
    # The vertex gets 3 elements of x: 1 point, run by worker 0 (subi before the loop;
    # load, load, store and one addf, the addi free, and the loop decision: 3 + 1 + 2 = 6
    # per iteration as emitted); with 2 elements there is no point and the loop never runs.
    assert vertex_cycles(block, [3, 1], WORKERS) == cycles(1 + LOOP_OVERHEAD + 1 * (3 + 1 + LOOP_DECISION))
    assert vertex_cycles(block, [2, 1], WORKERS) == cycles(1)


def test_map_without_operands_runs_one_point():
    block = body_of(constant_map())
    (loop,) = loops(block)
    assert block.last_op is loop
    assert constant_value(loop.ub) == 1 and loop.ub.name_hint == "n"
    assert loop.lb.owner is the_op(block, ipu.WorkerIdOp)
    # The constant is hoisted; the loop only stores it, with no index.
    assert names(loop.body.block.ops) == ["memref.store", "scf.yield"]
    assert list(loop.body.block.first_op.indices) == []


# -- fma contraction -----------------------------------------------------------------------


def fma_map(ops: str) -> ipu.TiledMapOp:
    """A map over f32 x, y, z (blocks of 4) and a whole scalar a; `ops` gives %r."""
    return tiled_map(
        f"""    %s = ipu.access %va[] : memref<f32>
    %e = ipu.access %vx[0] : memref<8xf32>
    %f = ipu.access %vy[0] : memref<8xf32>
    %g = ipu.access %vz[0] : memref<8xf32>
{ops}""",
        '  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>\n' + variables("f32", "xyzo"),
        "%a whole, %x block, %y block, %z block : memref<f32>, memref<8xf32>, memref<8xf32>, memref<8xf32>",
        "%o block : memref<8xf32>",
        "%va: memref<f32>, %vx: memref<8xf32>, %vy: memref<8xf32>, %vz: memref<8xf32>",
    )


def loop_ops(op: ipu.TiledMapOp) -> list[Operation]:
    block = body_of(op)
    return [o for o in loops(block)[0].body.block.ops if not isinstance(o, vector.LoadOp | vector.StoreOp | scf.YieldOp | arith.MuliOp)]


@pytest.mark.parametrize(
    "ops",
    [
        "    %p = arith.mulf %s, %e : f32\n    %r = arith.addf %p, %f : f32",  # a * x + y
        "    %p = arith.mulf %e, %s : f32\n    %r = arith.addf %f, %p : f32",  # y + x * a
    ],
)
def test_a_broadcast_product_feeding_one_add_is_an_fma(ops):
    block = body_of(fma_map(ops + "\n    ipu.yield %r : f32"))
    loop = loops(block)[0].body.block
    (fma,) = [o for o in loop.ops if isinstance(o, vector.FMAOp | arith.MulfOp | arith.AddfOp)]
    assert isinstance(fma, vector.FMAOp)
    # fma(broadcast a, x, y): the multiplier is the broadcast scalar
    broadcast = the_op(block, vector.BroadcastOp)
    loads = [o for o in loop.ops if isinstance(o, vector.LoadOp)]
    assert (fma.lhs, fma.rhs, fma.acc) == (broadcast.vector, loads[0].result, loads[1].result)
    assert str(fma.res.type) == "vector<2xf32>"


def test_a_product_used_twice_is_not_contracted():
    # p is added to y and to z: an fma for one add would leave the product to compute
    # again for the other.
    ops = loop_ops(fma_map("""    %p = arith.mulf %s, %e : f32
    %q = arith.addf %p, %f : f32
    %r = arith.addf %p, %g : f32
    %t = arith.addf %q, %r : f32
    ipu.yield %t : f32"""))
    assert names(ops) == ["arith.mulf", "arith.addf", "arith.addf", "arith.addf"]


def test_a_product_of_two_streamed_values_is_not_contracted():
    # x * y + z: neither multiplier is a broadcast invariant (f32v2axpy takes its scale
    # from a register, one scalar for all lanes).
    ops = loop_ops(fma_map("""    %p = arith.mulf %e, %f : f32
    %r = arith.addf %p, %g : f32
    ipu.yield %r : f32"""))
    assert names(ops) == ["arith.mulf", "arith.addf"]


def test_a_subtraction_is_not_contracted():
    # a * x - y is not an fma of a * x and y.
    ops = loop_ops(fma_map("""    %p = arith.mulf %s, %e : f32
    %r = arith.subf %p, %f : f32
    ipu.yield %r : f32"""))
    assert names(ops) == ["arith.mulf", "arith.subf"]


def test_scalar_tails_are_not_contracted():
    # The tail runs the map's own scalar ops: mulf then addf (the vector loop's fma is a
    # vector instruction; the scalar code keeps the ops it was given).
    op = tiled_map(
        """    %s = ipu.access %va[] : memref<f32>
    %e = ipu.access %vx[0] : memref<5xf32>
    %f = ipu.access %vy[0] : memref<5xf32>
    %p = arith.mulf %s, %e : f32
    %r = arith.addf %p, %f : f32
    ipu.yield %r : f32""",
        '  %a = ipu.variable "a" mapping <0 to 1 x 1> : memref<f32>\n' + variables("f32", "xy", "<0 to 1 x 5>", 5),
        "%a whole, %x block, %y block : memref<f32>, memref<5xf32>, memref<5xf32>",
        "%y block : memref<5xf32>",
        "%va: memref<f32>, %vx: memref<5xf32>, %vy: memref<5xf32>",
        over="<0 to 1 x 5>",
    )
    block = body_of(op)
    assert [o.name for o in loops(block)[0].body.block.ops if not isinstance(o, vector.LoadOp | vector.StoreOp)] == [
        "arith.muli", "vector.fma", "scf.yield"]
    tail = check_tail(block, 2)
    assert names(tail.body.block.ops) == ["memref.load", "memref.load", "arith.mulf", "arith.addf", "memref.store", "scf.yield"]


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
    # tile 1's block starts at element 5: one element at a time
    assert not any(isinstance(op, vector.LoadOp) for op in codelet.walk())


def test_pass_vectorises_with_the_arch_data_path():
    # ipu1's loads are 64 bits too: float2 units for blocks of 4 floats.
    module = parse(graph(AXPY_VARIABLES + """
  ipu.tiled_map "m" over <0 to 2 x 4> ins(%x block : memref<8xf32>) outs(%y block : memref<8xf32>) {
  ^bb0(%vx: memref<8xf32>):
    %e = ipu.access %vx[0] : memref<8xf32>
    %d = arith.addf %e, %e : f32
    ipu.yield %d : f32
  }""").replace('arch "ipu2"', 'arch "ipu1"'))
    IpuVertexExtractionPass().apply(make_ctx(), module)
    module.verify()
    codelet = the(module, ipu.CodeletOp)
    assert get_arch("ipu1").data_path_bytes == 8
    assert {str(op.result.type) for op in codelet.walk() if isinstance(op, vector.LoadOp)} == {"vector<2xf32>"}


def cycles(worker: int) -> int:
    """A vertex whose busiest worker spends `worker` cycles besides its overhead."""
    return VERTEX_OVERHEAD + WORKERS * (WORKER_OVERHEAD + worker)


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
    # An iteration as emitted is a load, a store and the loop decision (2 + 2); the loop
    # costs LOOP_OVERHEAD (6) besides. In asm the load and store alone (2).
    assert plans[first].cycles == [cycles(6 + 2 * 4), cycles(6 + 4), cycles(6 + 4)]
    assert plans[second].cycles == [cycles(6 + 6 * 4)]
    assert plan_placements(graph_op, "asm")[second].cycles == [cycles(6 + 6 * 2)]


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


# -- fold codelets (ipu.tiled_reduce) ------------------------------------------------------


def test_fold_fields_are_its_inputs_then_its_results():
    codelet = extracted_fold("f32", "<0 to 1 x 8>", "<1 x ? x 1>", "outputs", "block", 8, 8, accumulate=True)
    assert [(f.direction.data, f.field_name.data) for f in codelet.fields.data] == [("input", "x"), ("inout", "p")]
    codelet = extracted_fold("f32", "<0 to 1 x 8>", "<1 x ? x 1>", "folded", "partials<6>", 8, 6)
    assert [f.direction.data for f in codelet.fields.data] == ["input", "output"]


@pytest.mark.parametrize(
    "element, tile_map, fold, vectorised",
    [
        ("f32", "<0 to 1 x 8>", "<1 x ? x 2>", True),  # rows of one float2
        ("f32", "<0 to 1 x 8>", "<1 x ? x 1>", False),  # rows of one float
        ("f16", "<0 to 1 x 8>", "<1 x ? x 2>", False),  # widened to float32 one at a time
        ("i32", "<0 to 1 x 8>", "<1 x ? x 2>", False),
        ("f32", "<from 2: 0 to 1 x 6>", "<1 x ? x 2>", True),  # a block from a vector boundary
        ("f32", "<from 1: 0 to 1 x 6>", "<1 x ? x 2>", False),  # not: float2 loads would be misaligned
    ],
)
def test_folds_of_float2_rows_use_vector_code(element, tile_map, fold, vectorised):
    lanes = int(fold.split("x")[-1].strip(" >"))
    codelet = extracted_fold(element, tile_map, fold, "folded", f"partials<{6 * lanes}>", 8, 6 * lanes)
    assert any(isinstance(op, vector.LoadOp) for op in codelet.body.walk()) == vectorised
