"""ipu-tile-partition, part 2: the bodies of tiled maps, built from the ops of one point.

A map's body (or a run of memlets and tasklets outside maps, a *scalar step*) is
rewritten into the body of an `ipu.tiled_map` by `PointBody`, one op at a time:

- in a map, the point is the element the map writes (`Points`: where each dimension
  of the point comes from, and the input and offset of each array access: the
  container, or a view of it); a read becomes an `ipu.access` of that input at that
  offset (constant: `analyze_body` checked it), a write a value the body yields;
- a scalar step is a single point on tile 0. A scalar is read and written whole; an
  array element (at constant indices: sdfg-dynamic-copies has turned the elements loop
  variables pick into scalars) goes through a scalar variable (`elements`), copied in
  before the step and out after it;
- `sdfg.apply` (a loop variable or a map parameter used in a tasklet's arithmetic)
  becomes the arithmetic of its expression (`index_arith.materialize`) over i32 values:
  a loop variable is its counter variable (`counters`, read whole: the counters live on
  tile 0 and every vertex reads them), a map parameter the coordinate of the point
  (`ipu.point`) less the offset of the write.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from math import ceil, prod

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from ipu_lower.diagnostics import error
from ipu_lower.dialects import ipu
from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_arith import materialize
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.dialects.reduction import combine_values
from ipu_lower.dialects.tiling import UNPLANNED
from ipu_lower.element_types import is_signedness_cast
from ipu_lower.names import UniqueNames
from ipu_lower.passes.tile_partition_views import PointFrame

SCALAR_MAP = ipu.TileMapAttr([(0, 1, 1)])
"""Where scalars live and scalar steps run: one element on tile 0."""

Mask = tuple[tuple[int, int, int, int], ...]


@cache  # building a MemRefType is slow, and programs repeat few container types
def memref_of(ctype: sd.ArrayType) -> MemRefType:
    return MemRefType(ctype.element_type, ctype.static_shape() or [])


def memref_of_value(value: SSAValue) -> MemRefType:
    """The memref of a container (converted later) or of a variable made while rewriting."""
    t = value.type
    return t if isinstance(t, MemRefType) else memref_of(t)  # type: ignore[arg-type]


def balanced_tile_map(elements: int, tiles: int, grain: int) -> ipu.TileMapAttr:
    """Split `elements` into contiguous per-tile blocks over at most `tiles` tiles.

    Work is counted in units of `grain` elements (the vector width), spread as evenly
    as possible, so the busiest tile holds ceil(ceil(elements / tiles) / grain) * grain
    elements at most; only the last block may end in a partial unit. Fewer units than
    tiles use one tile per unit, starting at tile 0.
    """
    assert elements > 0 and tiles > 0 and grain > 0
    units = ceil(elements / grain)
    used = min(tiles, units)
    base, extra = divmod(units, used)
    counts = [(0, extra, (base + 1) * grain), (extra, used, base * grain)]
    runs = [(first, end, count) for first, end, count in counts if end > first and count > 0]
    overshoot = units * grain - elements
    if overshoot:
        first, end, count = runs.pop()
        if end - first > 1:
            runs.append((first, end - 1, count))
        runs.append((end - 1, end, count - overshoot))
    return ipu.TileMapAttr(runs)


def static_ranges(map_op: sd.MapOp) -> list[tuple[int, int, int]]:
    """The (begin, end, step) of each range of `map_op`, which must be constants."""
    ranges = []
    for lo, hi, st in map_op.ranges():
        values = (lo.constant_value(), hi.constant_value(), st.constant_value())
        if None in values:
            raise error(map_op, f"map '{map_op.label.data}' has a range that is not static; run sdfg-specialize first")
        ranges.append(values)
    return ranges  # type: ignore[return-value]


def point_offsets(op: sd.ReadOp | sd.WriteOp, params: Sequence[SSAValue]) -> list[int] | None:
    """The offset of each index from the map's parameter of the same position, when
    the access is `x[i0 + c0, i1 + c1, ...]` for constants c; else None."""
    if any(index not in params for index in op.indices):
        return None
    positions = {d: IndexExpr.dim(list(params).index(index)) for d, index in enumerate(op.indices)}
    offsets = []
    for k, e in enumerate(op.subset_exprs()):
        offset = e.substitute(dims=positions).dim_offset(k)
        if offset is None:
            return None
        offsets.append(offset)
    return offsets


def add(block: Block, op: Operation) -> SSAValue:
    block.add_op(op)
    return op.results[0]


def _index_constant(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def inline_tasklet(op: sd.TaskletOp, body: Block, mapping: dict[SSAValue, SSAValue]) -> None:
    """Clones the tasklet's ops into `body`. A value one tasklet casts to an unsigned type
    and the next casts back (a fused intermediate) is used as it was, without the casts."""
    values = {arg: mapping[operand] for arg, operand in zip(op.body.block.args, op.inputs)}
    for inner in op.body.block.ops:
        if isinstance(inner, sd.YieldOp):
            for result, value in zip(op.outputs, inner.values):
                mapping[result] = values[value]
            continue
        if is_signedness_cast(inner):
            source = values.get(inner.operands[0], inner.operands[0]).owner
            if is_signedness_cast(source) and source.operands[0].type == inner.results[0].type:  # type: ignore[arg-type]
                values[inner.results[0]] = source.operands[0]  # type: ignore[union-attr]
                continue
        body.add_op(inner.clone(value_mapper=values))


@dataclass(frozen=True)
class Points:
    """The points of a map: its parameters, where each dimension of the point comes from
    (`frame`), and the input (the container or a view of it, connected by `view_rules`
    when a view) and offset from the point of each of its array accesses (`where`)."""

    params: Sequence[SSAValue] = ()
    where: dict[Operation, tuple[SSAValue, tuple[int, ...]]] = field(default_factory=dict)
    frame: PointFrame | None = None
    view_rules: dict[SSAValue, ipu.SliceAttr] = field(default_factory=dict)


class PointBody:
    """Builds one tiled map (see the module docstring).

    `counters` maps loop variables to their counter variables; `points` are the map's
    (none in a scalar step); `elements` maps memlets of array elements in a scalar step
    to the scalar variables they go through."""

    def __init__(
        self,
        counters: dict[SSAValue, SSAValue],
        points: Points | None = None,
        elements: dict[Operation, SSAValue] | None = None,
    ):
        self.counters = counters
        self.points = points or Points()
        self.params = list(self.points.params)
        self.elements = elements or {}
        self.ins: list[SSAValue] = []
        self.outs: list[SSAValue] = []
        self.body = Block()
        self.arguments: dict[SSAValue, SSAValue] = {}
        self.current: dict[tuple[SSAValue, tuple[int, ...]], SSAValue] = {}  # (target, offset) -> value
        self.mapping: dict[SSAValue, SSAValue] = {}
        self.indices: dict[SSAValue, SSAValue] = {}  # loop variable or map parameter -> its i32 value
        self.point: SSAValue | None = None
        self.old: dict[SSAValue, SSAValue] = {}  # output -> its value before the body (for masks)

    def add(self, op: Operation) -> SSAValue:
        return add(self.body, op)

    def argument(self, target: SSAValue) -> SSAValue:
        if target not in self.arguments:
            self.ins.append(target)
            arg = self.body.insert_arg(memref_of_value(target), len(self.body.args))
            arg.name_hint = target.name_hint
            self.arguments[target] = arg
        return self.arguments[target]

    def read(self, target: SSAValue, offset: tuple[int, ...] = ()) -> SSAValue:
        """The value of `target` at `offset` from the point: read once, or the value
        written there earlier in the body."""
        key = (target, offset)
        if key not in self.current:
            self.current[key] = self.add(ipu.AccessOp(self.argument(target), list(offset)))
        return self.current[key]

    def write(self, target: SSAValue, value: SSAValue, offset: tuple[int, ...] = ()) -> None:
        if target not in self.outs:
            self.outs.append(target)
        self.current[(target, offset)] = value

    def point_index(self) -> SSAValue:
        if self.point is None:
            self.point = self.add(ipu.PointOp())
        return self.point

    def index_value(self, value: SSAValue) -> SSAValue:
        """The i32 value of a loop variable (its counter) or of a map parameter (the
        coordinate of the point less the write's offset)."""
        if value not in self.indices:
            if value in self.counters:
                self.indices[value] = self.integer(self.read(self.counters[value]), i32)
            else:
                frame = self.points.frame
                assert frame is not None  # analyze_body: maps that use parameters write arrays
                k = frame.params.index(self.params.index(value))  # the dimension of the point it follows
                coordinate = self.point_index()
                stride = prod(frame.shape[k + 1 :])
                if stride != 1:
                    coordinate = self.add(arith.DivUIOp(coordinate, self.add(_index_constant(stride))))
                if k:
                    coordinate = self.add(arith.RemUIOp(coordinate, self.add(_index_constant(frame.shape[k]))))
                if frame.origin[k]:
                    coordinate = self.add(arith.SubiOp(coordinate, self.add(_index_constant(frame.origin[k]))))
                self.indices[value] = self.add(arith.IndexCastOp(coordinate, i32))
        return self.indices[value]

    def integer(self, value: SSAValue, t: Attribute) -> SSAValue:
        """`value` as an integer of type `t` (sign-extended or truncated)."""
        width, target = value.type.width.data, t.width.data  # type: ignore[union-attr]
        if width == target:
            return value
        return self.add(arith.ExtSIOp(value, t) if target > width else arith.TruncIOp(value, t))

    def target_of(self, op: sd.ReadOp | sd.WriteOp) -> tuple[SSAValue, tuple[int, ...]]:
        """The input or output an access goes to, and its offset from the point."""
        rank = memref_of_value(op.container).get_num_dims()
        return self.points.where.get(op, (op.container, (0,) * rank))

    def ops(self, ops: list[Operation]) -> None:
        for op in ops:
            if isinstance(op, sd.ReadOp):
                if op in self.elements:
                    self.mapping[op.result] = self.read(self.elements[op])
                else:
                    self.mapping[op.result] = self.read(*self.target_of(op))
            elif isinstance(op, sd.ApplyOp):
                value = materialize(op.expr.data, [self.index_value(i) for i in op.indices], self.body)
                self.mapping[op.result] = self.integer(value, op.result.type)
            elif isinstance(op, sd.TaskletOp):
                inline_tasklet(op, self.body, self.mapping)
            elif isinstance(op, sd.WriteOp):
                if op in self.elements:
                    self.write(self.elements[op], self.mapping[op.value])
                else:
                    target, offset = self.target_of(op)
                    self.write(target, self.mapping[op.value], offset)
            elif isinstance(op, sd.AccumulateOp):  # outside maps: read, combine, write
                target = self.elements.get(op, op.container)
                point = (0,) * memref_of_value(target).get_num_dims()
                current = self.current[(target, point)] if (target, point) in self.current else self.read(target, point)
                combined = combine_values(op.kind.data, current, self.mapping[op.value])
                self.body.add_ops(combined)
                self.write(target, combined[-1].results[0], point)

    def finish(
        self, label: str, tile_map: ipu.TileMapAttr | ipu.GridMapAttr, neighbour_reads: frozenset[str] = frozenset(), mask: Mask = ()
    ) -> ipu.TiledMapOp:
        """The tiled map; the arrays of `neighbour_reads` are connected `neighbours`, for
        ipu-plan-exchange to size their halos. With a `mask` (see `MapAccesses`), points
        outside it yield the values their outputs already hold."""
        results = [self.current[(c, (0,) * memref_of_value(c).get_num_dims())] for c in self.outs]
        if mask:
            inside = self._inside(mask)
            results = [self.add(arith.SelectOp(inside, new, self.old[c])) for c, new in zip(self.outs, results)]
        self.body.add_op(ipu.YieldOp(*results))
        for op in reversed(list(self.body.ops)):  # casts whose value only fed a folded cast back
            if is_signedness_cast(op) and not op.results[0].uses:
                self.body.erase_op(op)

        def rule(value: SSAValue) -> ipu.SliceAttr:
            if value in self.points.view_rules:
                return self.points.view_rules[value]
            if memref_of_value(value).get_num_dims() == 0:
                return ipu.WHOLE
            return ipu.SliceAttr(UNPLANNED) if sd.container_name(value) in neighbour_reads else ipu.BLOCK

        return ipu.TiledMapOp(
            label, tile_map, [(v, rule(v)) for v in self.ins], [(v, rule(v)) for v in self.outs], Region(self.body)
        )

    def _inside(self, mask: Mask) -> SSAValue:
        """Whether the current point lies in the box `mask` describes (an i1)."""
        inside = None
        for stride, size, lo, hi in mask:
            coordinate = self.point_index()
            if stride != 1:
                coordinate = self.add(arith.DivUIOp(coordinate, self.add(_index_constant(stride))))
            coordinate = self.add(arith.RemUIOp(coordinate, self.add(_index_constant(size))))
            low = self.add(arith.CmpiOp(coordinate, self.add(_index_constant(lo)), "uge"))
            high = self.add(arith.CmpiOp(coordinate, self.add(_index_constant(hi)), "ult"))
            both = self.add(arith.AndIOp(low, high))
            inside = both if inside is None else self.add(arith.AndIOp(inside, both))
        assert inside is not None
        return inside


def tiled_map(
    label: str,
    ops: list[Operation],
    tile_map: ipu.TileMapAttr | ipu.GridMapAttr,
    points: Points,
    neighbour_reads: frozenset[str] = frozenset(),
    mask: Mask = (),
    counters: dict[SSAValue, SSAValue] | None = None,
) -> ipu.TiledMapOp:
    """The memlets, tasklets and `sdfg.apply` ops of one map point (`ops`, checked by
    `analyze_body`) as a tiled map whose points are the elements the map writes."""
    builder = PointBody(counters or {}, points)
    if mask:  # what the points outside the mask keep, read before anything is written
        for op in ops:
            if isinstance(op, sd.WriteOp) and op.container not in builder.old:
                builder.old[op.container] = builder.read(op.container, (0,) * memref_of_value(op.container).get_num_dims())
    builder.ops(ops)
    return builder.finish(label, tile_map, neighbour_reads, mask)


Memlet = sd.ReadOp | sd.WriteOp | sd.AccumulateOp


def _flat_element(op: Memlet) -> int:
    """The row-major position of the element a memlet at constant indices accesses."""
    shape = memref_of_value(op.container).get_shape()
    return sum(e.constant_value() * prod(shape[k + 1 :]) for k, e in enumerate(op.subset_exprs()))  # type: ignore[operator]


def scalar_step(
    label: str,
    ops: list[Operation],
    names: UniqueNames,
    counters: dict[SSAValue, SSAValue],
    result: tuple[SSAValue, SSAValue] | None = None,
) -> tuple[list[ipu.VariableOp], list[Operation]]:
    """A step outside maps (or a condition, whose value `result[0]` goes to the variable
    `result[1]`) as a single-point tiled map on tile 0: (new variables, program ops).

    Array elements are copied into scalar variables before the map when it reads them,
    and out after it when it writes them, in the order of the step's last writes; an
    array of one element lies on tile 0 and is read and written in place."""
    variables: list[ipu.VariableOp] = []
    elements: dict[Operation, SSAValue] = {}
    by_element: dict[tuple[SSAValue, int], SSAValue] = {}
    before: list[Operation] = []
    after: list[ipu.CopyOp] = []

    for op in ops:
        if not isinstance(op, Memlet) or prod(memref_of_value(op.container).get_shape()) == 1:
            continue  # a scalar, or an array of one element (on tile 0, at the step's point)
        flat = _flat_element(op)
        key = (op.container, flat)
        if key not in by_element:
            element = memref_of_value(op.container).element_type
            name = names.fresh(f"{sd.container_name(op.container)}_elem")
            variables.append(ipu.VariableOp(name, MemRefType(element, []), SCALAR_MAP))
            by_element[key] = variables[-1].result
            if not isinstance(op, sd.WriteOp):  # read before any write of the step: copy it in
                before.append(ipu.CopyOp(op.container, (flat, flat + 1), by_element[key], (0, 1)))
        if not isinstance(op, sd.ReadOp):
            after.append(ipu.CopyOp(by_element[key], (0, 1), op.container, (flat, flat + 1)))
        elements[op] = by_element[key]
    builder = PointBody(counters, elements=elements)
    builder.ops(ops)
    if result is not None:
        builder.write(result[1], builder.mapping[result[0]])
    return variables, [*before, builder.finish(label, SCALAR_MAP), *_last_writes(after)]


def _last_writes(copies: list[ipu.CopyOp]) -> list[ipu.CopyOp]:
    """The copies out of a step, an element written twice copied out once, where its
    last write stands."""
    kept: list[ipu.CopyOp] = []
    for op in reversed(copies):
        if not any(k.source is op.source and k.destination is op.destination for k in kept):
            kept.append(op)
    return kept[::-1]
