"""ipu-vertex-extraction: outline tiled maps into codelets placed by one `ipu.vertices`.

Each `ipu.tiled_map` becomes an `ipu.codelet` and an `ipu.compute_set` holding one
`ipu.vertices` over the same tile map. Two plans come first, as data: the signature
(`plan_signature`: one field per tensor, `input`, `output` or `inout`, with the slice
rule of the map) and the loop (`plan_loop`: whether the points run as float2/half4
vectors, and the unit of work: one 64-bit vector, or else one 32-bit word of the
narrowest element type the vertex streams). Then the point-wise body becomes the
vertex's code, its work split like popops' elementwise vertices: worker w takes units
w, w + workers, ... of its block, so no two workers share a 32-bit word (stores
narrower than 32 bits are not atomic); the elements after the last whole unit, when a
block has some, are done by one worker (`units % workers`, one of those with a unit
less). A unit is either
vector code (`vector.load`, arith/math on `vector<2xf32>` or `vector<4xf16>`,
`vector.store`) or a loop over its elements. Loads of whole scalars, and whatever
depends only on them, are done once, before the loops; in vector code, a product with
such an invariant that feeds one add is a `vector.fma` (one f32v2axpy / f16v4mix).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import prod

from ipu_lower.dialects import ipu
from ipu_lower.dialects.codelet_body import on_vectors
from xdsl.context import Context
from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    VectorType,
    f16,
    f32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import Pure

from ipu_lower.arch import ATOMIC_STORE_BYTES, get_arch
from ipu_lower.diagnostics import error
from ipu_lower.element_types import element_type, is_signedness_cast
from ipu_lower.names import UniqueNames
from ipu_lower.passes.vertex_extraction_reductions import ExtractFolds

# Members and parameters of every vertex class; fields must not shadow them.
RESERVED_FIELD_NAMES = ("compute", "numWorkers", "workerId", "blockStart", "blockExtent0", "blockExtent1", "blockExtent2")

VECTOR_ELEMENT_TYPES = (f32, f16)
"""Element types with vector arithmetic on the IPU (f32v2*, f16v4* instructions)."""


@dataclass(frozen=True)
class Signature:
    """The fields of an outlined codelet, and which tensor each one connects, how."""

    fields: list[ipu.FieldAttr]
    tensors: list[SSAValue]
    rules: list[ipu.SliceAttr]

    def field_of(self, tensor: SSAValue) -> int:
        return self.tensors.index(tensor)

    def is_streamed(self, index: int) -> bool:
        """Whether field `index` holds a run of elements (not one whole scalar)."""
        return not is_scalar_field(self.tensors[index], self.rules[index])


def plan_signature(op: ipu.TiledMapOp) -> Signature:
    """Fields in order: the map's inputs (inout when also written), then its outputs."""
    names = UniqueNames(RESERVED_FIELD_NAMES)
    outs = list(op.outs)
    fields, tensors, rules = [], [], []
    for value, rule in zip(op.ins, op.in_rules.data):
        fields.append(ipu.FieldAttr("inout" if value in outs else "input", _field_name(names, value)))
        tensors.append(value)
        rules.append(rule)
    for value, rule in zip(op.outs, op.out_rules.data):
        if value not in tensors:
            fields.append(ipu.FieldAttr("output", _field_name(names, value)))
            tensors.append(value)
            rules.append(rule)
    return Signature(fields, tensors, rules)


def _field_name(names: UniqueNames, value: SSAValue) -> str:
    return names.fresh(ipu.variable_of(value).var_name.data, "field")


def is_scalar_field(tensor: SSAValue, rule: ipu.SliceAttr) -> bool:
    return rule.is_whole and tensor.type.get_num_dims() == 0  # type: ignore[union-attr]


def field_type(tensor: SSAValue, rule: ipu.SliceAttr) -> MemRefType:
    """`memref<T>` for a whole scalar, `memref<?xT>` for a run of elements."""
    return _memref(tensor.type.element_type, is_scalar_field(tensor, rule))  # type: ignore[union-attr]


@cache  # building a MemRefType is slow; codelets repeat a handful of field types
def _memref(element: Attribute, scalar: bool) -> MemRefType:
    return MemRefType(element, [] if scalar else [DYNAMIC_INDEX])


@dataclass(frozen=True)
class LoopPlan:
    """How the vertex walks its points: in units of `unit` elements, each unit one
    `vector` of that many lanes when the body vectorises, else a loop over the unit's
    elements (no loop when a unit is one element)."""

    unit: int
    vector: VectorType | None
    tail: bool = False
    """whether some block ends in a partial unit (else there is no code for one)"""


def invariant_values(op: ipu.TiledMapOp, signature: Signature) -> set[SSAValue]:
    """Values of the map body that are the same at every point: accesses of whole
    scalars, and pure ops of such values (constants included)."""
    inputs = dict(zip(op.body.block.args, op.ins))
    invariant: set[SSAValue] = set()
    for inner in op.body.block.ops:
        if isinstance(inner, ipu.AccessOp):
            if not signature.is_streamed(signature.field_of(inputs[inner.tensor])):
                invariant.add(inner.result)
        elif isinstance(inner, ipu.PointOp):
            continue
        elif (inner.has_trait(Pure) or is_signedness_cast(inner)) and all(o in invariant for o in inner.operands):
            invariant.update(inner.results)
    return invariant


def plan_loop(op: ipu.TiledMapOp, signature: Signature, vector_bytes: int) -> LoopPlan:
    """The unit of work and, when the points vectorise, the vector type. Vectorised,
    a unit is one `vector_bytes` vector; otherwise one 32-bit word of the narrowest
    streamed type (1 element for 32-bit types), so that workers never share a word."""
    streamed = [t.type.element_type for k, t in enumerate(signature.tensors) if signature.is_streamed(k)]  # type: ignore[union-attr]
    if not streamed:
        return LoopPlan(1, None)
    vector_type = _vector_type(op, signature, streamed, vector_bytes)
    if vector_type is not None:
        unit = vector_type.get_shape()[0]
    else:
        unit = max(max(1, ATOMIC_STORE_BYTES // element_type(t).bytes) for t in streamed)  # type: ignore[union-attr]
    return LoopPlan(unit, vector_type, any(run.count % unit for run in op.tile_map.runs()))


def _vector_type(
    op: ipu.TiledMapOp, signature: Signature, streamed: list[Attribute], vector_bytes: int
) -> VectorType | None:
    """The vector type when every point op can run on vectors: all streamed fields
    share one float type, every block (and every field, halo included) starts on a
    vector boundary, every streamed access is a whole number of vectors away from the
    point, and every op that varies per point is elementwise on that type (operands
    and results; invariants are broadcast)."""
    element = streamed[0]
    if any(t != element for t in streamed) or element not in VECTOR_ELEMENT_TYPES:
        return None
    lanes = vector_bytes // element_type(element).bytes  # type: ignore[union-attr]
    if not _blocks_aligned(op.tile_map, lanes):
        return None
    if any(signature.is_streamed(k) and rule.halo[0] % lanes for k, rule in enumerate(signature.rules)):
        return None
    invariant = invariant_values(op, signature)
    inputs = dict(zip(op.body.block.args, op.ins))
    for inner in op.body.block.ops:
        if isinstance(inner, ipu.AccessOp):
            if signature.is_streamed(signature.field_of(inputs[inner.tensor])) and inner.flat_offset() % lanes:
                return None
        elif isinstance(inner, ipu.YieldOp):
            outs = [signature.field_of(t) for t in op.outs]
            if any(v.type != element for v in inner.values) or not all(map(signature.is_streamed, outs)):
                return None
        elif inner.results and inner.results[0] not in invariant:
            types = [v.type for v in (*inner.operands, *inner.results)]
            if inner.dialect_name() not in ("arith", "math") or any(t != element for t in types):
                return None
    return VectorType(element, [lanes])


def _blocks_aligned(tile_map: ipu.TileMapAttr, lanes: int) -> bool:
    """Whether every block of `tile_map` starts a whole number of vectors into its tensor."""
    runs = tile_map.runs()
    for k, (run, start) in enumerate(zip(runs, tile_map.run_starts())):
        last_block = k == len(runs) - 1 and run.tiles == 1
        if start % lanes or (run.count % lanes and not last_block):
            return False
    return True


def _index(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


class _BodyBuilder:
    """Appends the vertex code of one tiled map to a codelet block."""

    def __init__(self, op: ipu.TiledMapOp, signature: Signature, plan: LoopPlan, block: Block):
        self.op = op
        self.signature = signature
        self.plan = plan
        self.fields = block.args
        self.prologue = block
        self.inputs = dict(zip(op.body.block.args, op.ins))
        self.hoisted: dict[SSAValue, SSAValue] = {}  # invariant map value -> prologue value
        self.broadcasts: dict[SSAValue, SSAValue] = {}
        self.constants: dict[int, SSAValue] = {}
        self.first_element: SSAValue | None = None

    def add(self, op: Operation, block: Block) -> SSAValue:
        block.add_op(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def block_start(self) -> SSAValue:
        """The first element of the vertex's block, read once."""
        if self.first_element is None:
            self.first_element = self.named(self.add(ipu.BlockStartOp(), self.prologue), "block_start")
        return self.first_element

    def constant(self, value: int) -> SSAValue:
        if value not in self.constants:
            self.constants[value] = self.add(_index(value), self.prologue)
        return self.constants[value]

    def named(self, value: SSAValue, hint: str) -> SSAValue:
        value.name_hint = hint
        return value

    def points(self) -> SSAValue:
        """How many points the vertex computes: the length of its block."""
        for index, rule in enumerate(self.signature.rules):
            if rule.kind.data == "block":
                return self.add(memref.DimOp(self.fields[index], self.constant(0)), self.prologue)
        for index, rule in enumerate(self.signature.rules):
            if rule.kind.data == "halo":
                size = self.add(memref.DimOp(self.fields[index], self.constant(0)), self.prologue)
                return self.add(arith.SubiOp(size, self.constant(sum(rule.halo))), self.prologue)
        return self.add(_index(1), self.prologue)

    def build(self) -> None:
        count = self.named(self.points(), "n")
        worker = self.named(self.add(ipu.WorkerIdOp(), self.prologue), "worker")
        workers = self.named(self.add(ipu.NumWorkersOp(), self.prologue), "workers")
        self.hoist_invariants()
        unit = self.plan.unit
        units = count if unit == 1 else self.named(self.add(arith.DivUIOp(count, self.constant(unit)), self.prologue), "units")
        body = Block(arg_types=[IndexType()])
        if unit == 1:
            self.scalar_point(body, self.named(body.args[0], "i"))
        else:
            self.named(body.args[0], "u")
            first = self.named(self.add(arith.MuliOp(body.args[0], self.constant(unit)), body), "first")
            if self.plan.vector is not None:
                self.vector_point(body, first)
            else:
                self.add(self.element_loop(self.constant(0), self.constant(unit), first), body)
        body.add_op(scf.YieldOp())
        self.add(scf.ForOp(worker, units, workers, [], body), self.prologue)
        if self.plan.tail:
            self.tail(count, units, worker, workers)

    def tail(self, count: SSAValue, units: SSAValue, worker: SSAValue, workers: SSAValue) -> None:
        """The elements after the last whole unit, done by the worker whose turn is next."""
        done = self.named(self.add(arith.MuliOp(units, self.constant(self.plan.unit)), self.prologue), "done")
        owner = self.add(arith.RemUIOp(units, workers), self.prologue)
        mine = self.add(arith.CmpiOp(worker, owner, "eq"), self.prologue)
        then = Block([self.element_loop(done, count, None), scf.YieldOp()])
        self.add(scf.IfOp(mine, [], Region(then)), self.prologue)

    def element_loop(self, lower: SSAValue, upper: SSAValue, offset: SSAValue | None) -> scf.ForOp:
        """A loop over elements lower..upper; the point is the loop index plus `offset`."""
        body = Block(arg_types=[IndexType()])
        point = body.args[0]
        if offset is not None:
            self.named(point, "k")
            point = self.add(arith.AddiOp(offset, point), body)
        self.named(point, "i")
        self.scalar_point(body, point)
        body.add_op(scf.YieldOp())
        return scf.ForOp(lower, upper, self.constant(1), [], body)

    def hoist_invariants(self) -> None:
        invariant = invariant_values(self.op, self.signature)
        for inner in self.op.body.block.ops:
            if isinstance(inner, ipu.AccessOp) and inner.result in invariant:
                field = self.fields[self.signature.field_of(self.inputs[inner.tensor])]
                self.hoisted[inner.result] = self.add(memref.LoadOp.get(field, []), self.prologue)
            elif inner.results and inner.results[0] in invariant:
                clone = inner.clone(value_mapper=dict(self.hoisted))
                self.prologue.add_op(clone)
                self.hoisted.update(zip(inner.results, clone.results))

    def streamed_index(self, block: Block, point: SSAValue, tensor: SSAValue, offset: int) -> tuple[SSAValue, SSAValue]:
        """The field of `tensor` and the index of the element at `offset` from the point."""
        field = self.signature.field_of(tensor)
        shift = self.signature.rules[field].halo[0] + offset
        index = point if not shift else self.add(arith.AddiOp(point, self.constant(shift)), block)
        return self.fields[field], index

    def access_index(
        self, block: Block, point: SSAValue, access: ipu.AccessOp | None, tensor: SSAValue | None = None
    ) -> tuple[SSAValue, SSAValue]:
        """The field and element index of `access` (or of the point of output `tensor`)."""
        if access is None:
            assert tensor is not None
            return self.fields[self.signature.field_of(tensor)], point
        return self.streamed_index(block, point, self.inputs[access.tensor], access.flat_offset())

    def point_index(self, block: Block, point: SSAValue) -> SSAValue:
        """The row-major index in the whole tensor of the element the point writes."""
        return self.add(arith.AddiOp(self.block_start(), point), block)

    def scalar_point(self, block: Block, point: SSAValue) -> None:
        values = dict(self.hoisted)
        for inner in self.op.body.block.ops:
            if inner.results and inner.results[0] in values:
                continue
            if isinstance(inner, ipu.AccessOp):
                field, index = self.access_index(block, point, inner)
                values[inner.result] = self.add(memref.LoadOp.get(field, [index]), block)
            elif isinstance(inner, ipu.PointOp):
                values[inner.result] = self.point_index(block, point)
            elif isinstance(inner, ipu.YieldOp):
                for tensor, value in zip(self.op.outs, inner.values):
                    field = self.fields[self.signature.field_of(tensor)]
                    indices = [] if field.type.get_num_dims() == 0 else [self.access_index(block, point, None, tensor)[1]]  # type: ignore[union-attr]
                    self.add(memref.StoreOp.get(values[value], field, indices), block)
            else:
                clone = inner.clone(value_mapper=values)
                block.add_op(clone)
                values.update(zip(inner.results, clone.results))

    def vector_point(self, block: Block, first: SSAValue) -> None:
        vtype = self.plan.vector
        assert vtype is not None
        values: dict[SSAValue, SSAValue] = {}

        def lanes(value: SSAValue) -> SSAValue:
            if value in values:
                return values[value]
            if value not in self.broadcasts:
                scalar = self.hoisted[value]
                lanes_of = self.add(vector.BroadcastOp(scalar, vtype), self.prologue)
                self.broadcasts[value] = self.named(lanes_of, f"{scalar.name_hint or _loaded_field(scalar) or 's'}_v")
            return self.broadcasts[value]

        for inner in self.op.body.block.ops:
            if inner.results and inner.results[0] in self.hoisted:
                continue
            if isinstance(inner, ipu.AccessOp):
                field, index = self.streamed_index(block, first, self.inputs[inner.tensor], inner.flat_offset())
                values[inner.result] = self.add(vector.LoadOp(field, [index], vtype), block)
            elif isinstance(inner, ipu.YieldOp):
                for tensor, value in zip(self.op.outs, inner.values):
                    field = self.fields[self.signature.field_of(tensor)]
                    self.add(vector.StoreOp(lanes(value), field, [first]), block)
            else:
                values[inner.results[0]] = self.add(on_vectors(inner, [lanes(o) for o in inner.operands], vtype), block)
        _contract_scaled_adds(block)


def _loaded_field(value: SSAValue) -> str | None:
    """The name of the field `value` is loaded from, if it is such a load."""
    owner = value.owner
    return owner.memref.name_hint if isinstance(owner, memref.LoadOp) else None


def _contract_scaled_adds(block: Block) -> None:
    """`s * x + y` with `s` broadcast from an invariant, the product used once: one
    `vector.fma` (the IPU's f32v2axpy / f16v4mix take the scalar from $TAS)."""
    for add in [op for op in block.ops if isinstance(op, arith.AddfOp)]:
        for product, addend in ((add.lhs, add.rhs), (add.rhs, add.lhs)):
            mul = product.owner
            if not isinstance(mul, arith.MulfOp) or mul.parent is not block or not product.has_one_use():
                continue
            scale, other = (mul.lhs, mul.rhs) if isinstance(mul.lhs.owner, vector.BroadcastOp) else (mul.rhs, mul.lhs)
            if not isinstance(scale.owner, vector.BroadcastOp):
                continue
            Rewriter.replace_op(add, vector.FMAOp(scale, other, addend))
            Rewriter.erase_op(mul)
            break


class _GridBodyBuilder(_BodyBuilder):
    """The vertex code of a tiled map over a grid map: each vertex computes a box,
    whose extents the host sets (`ipu.block_extent`), and whose fields are boxes too,
    flattened: an output the box itself, an input with a halo the box widened by the
    halo's widths on both sides of every dimension. Workers take rows (the last
    dimension) in turn: worker w rows w, w + workers, ...; a row is a loop over its
    elements, whose indices in each field are the row's start there plus the element."""

    def __init__(self, op: ipu.TiledMapOp, signature: Signature, block: Block):
        super().__init__(op, signature, LoopPlan(1, None), block)
        grid = op.tile_map
        assert isinstance(grid, ipu.GridMapAttr)
        self.rank = grid.rank
        self.shape = [int(n) for n in op.outs[0].type.get_shape()] if op.outs else []  # type: ignore[union-attr]
        self.extents: list[SSAValue] = []
        self.row: Block | None = None
        self.row_starts: dict[tuple[int, tuple[int, ...]], SSAValue] = {}
        self.row_point: SSAValue | None = None
        self.coordinates: list[SSAValue] = []

    def padded_strides(self, field: int) -> list[SSAValue]:
        """The row-major strides of field `field`'s box (halo included), per dimension."""
        ring = self.signature.rules[field].ring(self.rank)[1:]
        padded = [
            e if not lo + hi else self.add(arith.AddiOp(e, self.constant(lo + hi)), self.prologue)
            for e, (lo, hi) in zip(self.extents[1:], ring)
        ]
        strides = [padded[-1]]
        for extent in reversed(padded[:-1]):
            strides.insert(0, self.add(arith.MuliOp(strides[0], extent), self.prologue))
        return [*strides, self.constant(1)]

    def build(self) -> None:
        self.extents = [self.named(self.add(ipu.BlockExtentOp(d), self.prologue), f"extent{d}") for d in range(self.rank)]
        worker = self.named(self.add(ipu.WorkerIdOp(), self.prologue), "worker")
        workers = self.named(self.add(ipu.NumWorkersOp(), self.prologue), "workers")
        self.hoist_invariants()
        self.strides = {k: self.padded_strides(k) for k in range(len(self.fields)) if self.signature.is_streamed(k)}
        rows = self.extents[0]
        for extent in self.extents[1:-1]:
            rows = self.add(arith.MuliOp(rows, extent), self.prologue)
        self.row = Block(arg_types=[IndexType()])
        q = self.named(self.row.args[0], "row")
        self.coordinates = [q]
        for extent in reversed(self.extents[1:-1]):  # the row's coordinates in the box
            self.coordinates.insert(0, self.add(arith.DivUIOp(self.coordinates[0], extent), self.row))
            self.coordinates[1] = self.add(arith.RemUIOp(self.coordinates[1], extent), self.row)
        elements = Block(arg_types=[IndexType()])
        self.scalar_point(elements, self.named(elements.args[0], "i"))
        elements.add_op(scf.YieldOp())
        self.add(scf.ForOp(self.constant(0), self.extents[-1], self.constant(1), [], elements), self.row)
        self.row.add_op(scf.YieldOp())
        self.add(scf.ForOp(worker, rows, workers, [], self.row), self.prologue)

    def row_start(self, field: int, offsets: tuple[int, ...]) -> SSAValue:
        """Where the row, moved by `offsets`, starts in field `field` (computed per row)."""
        key = (field, offsets)
        if key not in self.row_starts:
            assert self.row is not None
            before = [lo for lo, _ in self.signature.rules[field].ring(self.rank)]
            strides = self.strides[field]
            start = self.constant(before[-1] + offsets[-1])  # the column of the row's first element
            for d, coordinate in enumerate(self.coordinates):
                shift = before[d] + offsets[d]
                if shift:
                    coordinate = self.add(arith.AddiOp(coordinate, self.constant(shift)), self.row)
                term = self.add(arith.MuliOp(coordinate, strides[d]), self.row)
                start = self.add(arith.AddiOp(start, term), self.row)
            self.row_starts[key] = start
        return self.row_starts[key]

    def access_index(
        self, block: Block, point: SSAValue, access: ipu.AccessOp | None, tensor: SSAValue | None = None
    ) -> tuple[SSAValue, SSAValue]:
        if access is not None:
            tensor, offsets = self.inputs[access.tensor], tuple(access.offsets())
        else:
            offsets = (0,) * self.rank
        field = self.signature.field_of(tensor)  # type: ignore[arg-type]
        return self.fields[field], self.add(arith.AddiOp(self.row_start(field, offsets), point), block)

    def point_index(self, block: Block, point: SSAValue) -> SSAValue:
        """The box's first element (`ipu.block_start`) plus the row's and the element's
        offsets from it in the whole tensor."""
        if self.row_point is None:
            assert self.row is not None
            start = self.block_start()
            for d, coordinate in enumerate(self.coordinates):
                stride = self.constant(prod(self.shape[d + 1 :]))
                start = self.add(arith.AddiOp(start, self.add(arith.MuliOp(coordinate, stride), self.row)), self.row)
            self.row_point = start
        return self.add(arith.AddiOp(self.row_point, point), block)


def codelet_body(op: ipu.TiledMapOp, signature: Signature, plan: LoopPlan) -> Region:
    block = Block(arg_types=[field_type(t, r) for t, r in zip(signature.tensors, signature.rules)])
    for arg, field in zip(block.args, signature.fields):
        arg.name_hint = field.field_name.data
    if isinstance(op.tile_map, ipu.GridMapAttr):
        _GridBodyBuilder(op, signature, block).build()
    else:
        _BodyBuilder(op, signature, plan, block).build()
    return Region(block)


@dataclass
class _ExtractVertices(RewritePattern):
    names: UniqueNames
    vector_bytes: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.TiledMapOp, rewriter: PatternRewriter) -> None:
        graph = ipu.graph_of(op)
        assert graph is not None
        signature = plan_signature(op)
        grid = isinstance(op.tile_map, ipu.GridMapAttr)
        plan = LoopPlan(1, None) if grid else plan_loop(op, signature, self.vector_bytes)
        name = self.names.fresh(f"{graph.sym_name.data}_{op.label.data}", "codelet")
        codelet = ipu.CodeletOp(name, signature.fields, codelet_body(op, signature, plan))
        first_step = next(o for o in graph.body.block.ops if not isinstance(o, ipu.VariableOp | ipu.CodeletOp))
        rewriter.insert(codelet, InsertPoint.before(first_step))
        placement = ipu.VerticesOp(name, op.tile_map, list(zip(signature.tensors, signature.rules)))
        rewriter.replace(op, ipu.ComputeSetOp(name, Region(Block([placement]))))


@dataclass(frozen=True)
class IpuVertexExtractionPass(ModulePass):
    name = "ipu-vertex-extraction"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for tiled in op.walk():
            if isinstance(tiled, ipu.TiledMapOp):
                _check_planned(tiled)
        for graph in [g for g in op.walk() if isinstance(g, ipu.GraphOp)]:
            names = UniqueNames(tuple(o.sym_name.data for o in graph.body.block.ops if isinstance(o, ipu.CodeletOp)))
            arch = get_arch(graph.arch.data)
            patterns = [
                _ExtractVertices(names, arch.data_path_bytes),
                ExtractFolds(names, arch.workers_per_tile, arch.data_path_bytes, RESERVED_FIELD_NAMES),
            ]
            walker = PatternRewriteWalker(GreedyRewritePatternApplier(patterns, dce_enabled=False), apply_recursively=False)
            walker.rewrite_region(graph.body)


def _check_planned(op: ipu.TiledMapOp) -> None:
    for value, rule in zip(op.ins, op.in_rules.data):
        if rule.is_unplanned:
            raise error(
                op,
                f"tiled map '{op.label.data}' reads '{ipu.variable_of(value).var_name.data}' from its neighbours "
                "with no planned halo; run ipu-plan-exchange first",
            )
