"""ipu-tile-partition: owner-computes block partitioning of maps and data over tiles.

Converts each `sdfg.sdfg` into an `ipu.graph`. Planning comes first, as plain data
(`plan_partition`): containers that an elementwise map (or a whole-container copy)
ties together form a group that shares one layout, and each group's row-major
elements are split into balanced contiguous blocks over the tiles
(`balanced_tile_map`), or, for stencils reading neighbours in several dimensions, its
arrays are cut into a grid of boxes (`tile_partition_grid`); the plan is checked
against tile memory. Patterns then rewrite
one op kind each: the SDFG becomes a graph with host transfers, containers become
variables laid out by the plan, states are inlined, maps become `ipu.tiled_map`s over
the layout of the data they touch (so every access is local), copies become
`ipu.copy`, and tasklets outside maps (scalar computations) run as single-point tiled
maps on tile 0, where scalars live. Maps that accumulate become tiled reductions
(`ipu_lower.passes.tile_partition_reductions`); reads that are not neighbours of the
point go through views (`ipu_lower.passes.tile_partition_views`). The patterns trust the plan: every map and scalar
computation was checked while planning.

Control flow (`tile_partition_control`) keeps one layout per container: loops and
branches become `ipu.repeat`, `ipu.repeat_while` and `ipu.if` over counter and predicate
variables on tile 0. The bodies of tiled maps and scalar steps are built by
`tile_partition_points`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from ipu_lower.arch import ATOMIC_STORE_BYTES, Arch, pass_arch
from ipu_lower.diagnostics import IpuLowerError, error
from ipu_lower.dialects import ipu
from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.dialects.tiling import UNPLANNED, TileRun
from ipu_lower.element_types import element_type, on_ipu
from ipu_lower.names import UniqueNames
from ipu_lower.passes.tile_partition_control import (
    ControlPlan,
    DynamicCopyToSlice,
    ForToRepeat,
    IfToIf,
    Rewrite,
    WhileToRepeatWhile,
    plan_control,
    plan_dynamic_copy,
)
from ipu_lower.passes.tile_partition_grid import Halo, choose_grid, is_stencil_frame, touched
from ipu_lower.passes.tile_partition_points import (
    SCALAR_MAP,
    Points,
    balanced_tile_map,
    memref_of,
    static_ranges,
    tiled_map,
)
from ipu_lower.passes.tile_partition_transfers import covers_whole, overwritten_first
from ipu_lower.passes.tile_partition_reductions import (
    ReductionPlan,
    analyze_reduction,
    is_reduction_map,
    plan_reduction,
    reduction_ops,
    reduction_views,
)
from ipu_lower.passes.tile_partition_views import (
    BROADCAST,
    PointFrame,
    ViewKey,
    check_flat_read,
    frame_offsets,
    plan_view,
    point_frame,
    reshaped_offset,
    split_offset,
    view_halos,
)


def _static_shape(ctype: sd.ArrayType, op: Operation) -> tuple[int, ...]:
    shape = ctype.static_shape()
    if shape is None:
        raise error(op, f"shape {ctype} is not static; run sdfg-specialize first")
    return shape


class _UnionFind:
    def __init__(self):
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)


@dataclass(frozen=True)
class MapAccesses:
    """What one map reads and writes, in first-use order, and where: `span` is the
    row-major element range [begin, end) of the arrays it writes that its points cover
    (None: all of them); `neighbour_reads` names the arrays it reads away from the point
    (ipu-plan-exchange sizes their halos)."""

    iterations: int
    reads: list[str]
    writes: list[str]
    span: tuple[int, int] | None = None
    neighbour_reads: frozenset[str] = frozenset()
    mask: tuple[tuple[int, int, int, int], ...] = ()
    """When the written box is not contiguous in memory (`B[1:-1, 1:-1]`), the span runs
    from its first to its last element and a point writes only if, for each
    (stride, size, lo, hi), lo <= (point / stride) % size < hi."""
    reshaped: dict[sd.ReadOp, int] = field(default_factory=dict)
    """Reads of a reshape of the written arrays' layout, by row-major offset from the
    point (see `tile_partition_views`)."""
    views: dict[sd.ReadOp, tuple[ViewKey, tuple[int, ...]]] = field(default_factory=dict)
    """Reads through a view of their container, and their offset in it."""
    view_halos: dict[ViewKey, tuple[int, int]] = field(default_factory=dict)
    offsets: dict[Operation, tuple[int, ...]] = field(default_factory=dict, compare=False)
    """The offset from the point of every other access of an array."""
    frame: PointFrame | None = field(default=None, compare=False)
    """Where the points are (None for a scalar step)."""

    def laid_out_together(self) -> list[str]:
        """The containers that share the layout of the map's points: all but those it
        reads only through views."""
        viewed = {key.container for key, _ in self.views.values()}
        return [n for n in self.reads + self.writes if n not in viewed or n in self.writes]



def _param_name(value: SSAValue, position: int) -> str:
    return value.name_hint or f"d{position}"


def describe_access(op: sd.ReadOp | sd.WriteOp) -> str:
    """`x[i + 1, j]`, with the map parameters by name."""
    names = [_param_name(v, k) for k, v in enumerate(op.indices)]
    subset = ", ".join(e.format(lambda d: names[d]) for e in op.subset_exprs())
    return f"{sd.container_name(op.container)}[{subset}]"


def analyze_map(map_op: sd.MapOp) -> MapAccesses:
    """Check that `map_op` is a map the partition supports and say what it touches."""
    label = map_op.label.data
    bounds = []
    for lo, hi, st in static_ranges(map_op):
        if st != 1:
            raise error(map_op, f"map '{label}' ranges must have step 1 for now (got {lo} to {hi} step {st})")
        bounds.append((lo, hi))
    if any(hi <= lo for lo, hi in bounds):
        return MapAccesses(0, [], [])  # runs no iteration (`B[1:-1]` of two elements): touches nothing
    return analyze_body(f"map '{label}'", list(map_op.body.block.ops), map_op.params, bounds)


@dataclass(frozen=True)
class _ArrayAccess:
    op: sd.ReadOp | sd.WriteOp | sd.AccumulateOp
    name: str
    offsets: list[int]
    """From the point, per dimension of the frame (unused for a reshaped read)."""
    flat: int | None = None
    """A reshaped read's row-major offset from the point."""


def _is_write(op: Operation) -> bool:
    return isinstance(op, sd.WriteOp | sd.AccumulateOp)


def analyze_body(
    what: str, ops: list[Operation], params: tuple[SSAValue, ...], bounds: list[tuple[int, int]]
) -> MapAccesses:
    """Check the memlets of a body over the box `bounds` of `params`: scalars, and
    arrays: those of the written shape accessed at constant offsets from the point
    (`PointFrame`), reshapes of them and views of others (`tile_partition_views`)."""
    reads: list[str] = []
    writes: list[str] = []
    accessed: list[sd.ReadOp | sd.WriteOp | sd.AccumulateOp] = []
    points = prod(hi - lo for lo, hi in bounds)
    for op in ops:
        if isinstance(op, sd.TaskletOp):
            _check_tasklet_width(op)
            continue
        if isinstance(op, sd.ApplyOp):
            _check_apply(what, op, params, ops)
            continue
        if isinstance(op, sd.MapOp):
            raise error(
                op,
                f"map '{op.label.data}' inside {what} is not supported yet: sdfg-collapse-maps merges a nested map "
                "only when the enclosing body computes values (reads, tasklets) and then runs it",
            )
        if not isinstance(op, sd.ReadOp | sd.WriteOp | sd.AccumulateOp):
            raise error(op, f"'{op.name}' inside {what} is not supported yet")
        name = sd.container_name(op.container)
        ctype = op.container.type
        assert isinstance(ctype, sd.ArrayType)
        if isinstance(op, sd.AccumulateOp):  # reads the element it combines with
            reads.append(name)
        (writes if _is_write(op) else reads).append(name)
        verb = "writes" if _is_write(op) else "reads"
        if ctype.rank == 0:
            if _is_write(op) and points > 1:
                raise error(
                    op,
                    f"every iteration of {what} writes scalar '{name}', so the order would decide its value; "
                    "accumulate into it (write-conflict resolution) to reduce",
                )
            continue
        shape = _static_shape(ctype, op)
        if any(index not in params for index in op.indices):
            raise error(op, f"{what} {verb} '{describe_access(op)}' at a loop variable; run sdfg-dynamic-copies first")
        if not params:
            if any(not 0 <= e.constant_value() < n for e, n in zip(op.subset_exprs(), shape)):  # type: ignore[operator]
                raise error(op, f"{what} {verb} '{describe_access(op)}' outside its shape {ctype}")
            continue
        accessed.append(op)
    frame = _frame(what, accessed, params, bounds)
    arrays: list[_ArrayAccess] = []
    other: list[sd.ReadOp] = []  # reads away from the point's pattern: reshaped or view reads
    rows: list[sd.ReadOp] = []  # reads of other rows than the written one
    for op in accessed:
        shape = _static_shape(op.container.type, op)  # type: ignore[arg-type]
        offsets = frame_offsets(op, params, frame) if shape == frame.shape else None
        if offsets is None:
            if _is_write(op) and shape != frame.shape:
                first = next(w for w in accessed if _is_write(w))
                raise error(
                    op,
                    f"{what} writes '{describe_access(op)}' of shape {op.container.type}, but also "
                    f"'{sd.container_name(first.container)}' of shape {first.container.type}; the arrays a map "
                    "writes must have one shape",
                )
            if _is_write(op):
                raise _unsupported_access(what, op)
            other.append(op)  # type: ignore[arg-type]
            continue
        if isinstance(op, sd.ReadOp) and any(o for o, m in zip(offsets, frame.params) if m is None):
            rows.append(op)  # read through a view, which brings just its elements, not a halo of rows
            continue
        if any(lo + o < 0 or hi + o > n for (lo, hi), o, n in zip(frame.box, offsets, shape)):
            verb = "writes" if _is_write(op) else "reads"
            raise error(op, f"{what} {verb} '{describe_access(op)}' outside its shape {op.container.type}")
        arrays.append(_ArrayAccess(op, sd.container_name(op.container), offsets))
    reshaped, views = _reads_elsewhere(what, other, params, bounds, frame)
    views.update(_reads_elsewhere(what, rows, params, bounds, frame, reshapes=False)[1])
    arrays += [_ArrayAccess(op, sd.container_name(op.container), [], flat) for op, flat in reshaped.items()]
    span, neighbour_reads, mask = _geometry(what, arrays, frame)
    points_span = span or (0, prod(frame.shape))
    for op, flat in reshaped.items():
        check_flat_read(what, describe_access, op, (flat, flat), points_span, prod(frame.shape))
    written = {a.name: frame.box for a in arrays if _is_write(a.op)}
    halos_of_views = view_halos(what, describe_access, views, frame.shape, points_span, written)
    offsets = {a.op: tuple(a.offsets) for a in arrays if a.flat is None}
    return MapAccesses(
        points, list(dict.fromkeys(reads)), list(dict.fromkeys(writes)), span, neighbour_reads, mask, reshaped,
        views, halos_of_views, offsets, frame if accessed else None,
    )


def _frame(
    what: str,
    accessed: list[sd.ReadOp | sd.WriteOp | sd.AccumulateOp],
    params: tuple[SSAValue, ...],
    bounds: list[tuple[int, int]],
) -> PointFrame:
    """The frame of the first array the body writes; without one, the parameters in
    order over an array of the first read's shape."""
    write = next((op for op in accessed if _is_write(op)), None)
    if write is not None:
        frame = point_frame(write, params, bounds, _static_shape(write.container.type, write))  # type: ignore[arg-type]
        if frame is None:
            raise _unsupported_access(what, write)
        return frame
    shape = _static_shape(accessed[0].container.type, accessed[0]) if accessed else ()  # type: ignore[arg-type]
    return PointFrame(shape, tuple(range(len(params))), (0,) * len(params), tuple(bounds))


def _reads_elsewhere(
    what: str,
    reads: list[sd.ReadOp],
    params: tuple[SSAValue, ...],
    bounds: list[tuple[int, int]],
    frame: PointFrame,
    reshapes: bool = True,
) -> tuple[dict[sd.ReadOp, int], dict[sd.ReadOp, tuple[ViewKey, tuple[int, ...]]]]:
    """The reshaped reads of a map (by row-major offset; none unless `reshapes`) and its
    view reads (by view and offset in it); any other read is an error (see
    `tile_partition_views`)."""
    reshaped: dict[sd.ReadOp, int] = {}
    views: dict[sd.ReadOp, tuple[ViewKey, tuple[int, ...]]] = {}
    for op in reads:
        shape = _static_shape(op.container.type, op)  # type: ignore[arg-type]
        flat = reshaped_offset(op, params, frame, shape) if reshapes else None
        if flat is not None:
            reshaped[op] = flat
        elif (view := plan_view(what, describe_access, op, params, bounds, frame, shape)) is not None:
            views[op] = view
        else:
            raise _unsupported_access(what, op)
    return reshaped, views


def _unsupported_access(what: str, op: sd.ReadOp | sd.WriteOp | sd.AccumulateOp) -> IpuLowerError:
    return error(
        op,
        f"{what} accesses '{describe_access(op)}' of shape {op.container.type}; only accesses at constant offsets "
        "from the point (the map parameters in order), reshapes and views (rows, columns, boxes, "
        "transposes) are supported yet",
    )


def _check_apply(what: str, op: sd.ApplyOp, params: tuple[SSAValue, ...], ops: list[Operation]) -> None:
    if not on_ipu(op.result.type):
        raise error(op, f"sdfg.apply in {what} gives a {op.result.type}, which the IPU does not support")
    if any(index in params for index in op.indices) and not any(
        isinstance(o, sd.WriteOp) and o.container.type.rank for o in ops  # type: ignore[union-attr]
    ):
        raise error(op, f"a tasklet of {what} computes with a map parameter, but the map writes no array; not supported yet")


def _check_tasklet_width(op: sd.TaskletOp) -> None:
    wide = next((r.type for inner in op.body.block.ops for r in inner.results if not on_ipu(r.type)), None)
    if wide is not None:
        kind, fix = ("float64", "float32") if str(wide) == "f64" else ("int64", "int32")
        read = sorted({sd.container_name(v.owner.container) for v in op.inputs if isinstance(v.owner, sd.ReadOp)})
        reading = f" (reading {', '.join(repr(n) for n in read)})" if read else ""
        raise error(
            op,
            f"tasklet '{op.label.data}'{reading} computes in {kind}, which the IPU does not "
            f"support; demote it with the ipu-demote-f64 pass ({DEMOTE_IN_PYTHON}) or use {fix} constants",
        )


DEMOTE_IN_PYTHON = "demote_f64=True in ipu_lower.compile"
"""How a caller of the Python API asks for ipu-demote-f64, for messages."""


def _geometry(
    what: str, arrays: list[_ArrayAccess], frame: PointFrame
) -> tuple[tuple[int, int] | None, frozenset[str], tuple[tuple[int, int, int, int], ...]]:
    """The written span, the arrays read away from the point and the mask of a map's
    array accesses (see MapAccesses).

    Every array of the map (but reshaped reads) has the frame's shape, and every write
    is at the point: the element it writes is the point of the tiled map, and the other
    accesses are offsets from it. A written box that is not contiguous in memory runs
    over its whole span with a mask; the reads of the masked points stay inside the
    arrays, since they lie between those of the box's first and last points."""
    written = [a for a in arrays if _is_write(a.op)]
    if not written:
        return None, frozenset(), ()
    first = written[0]
    for access in written:
        if any(access.offsets):
            raise error(
                access.op,
                f"{what} writes '{describe_access(access.op)}' and '{describe_access(first.op)}' at different "
                "offsets from the point; not supported yet",
            )
    shape = frame.shape
    strides = [prod(shape[k + 1 :]) for k in range(len(shape))]
    box = list(frame.box)
    span = (sum(lo * st for (lo, _), st in zip(box, strides)), sum((hi - 1) * st for (_, hi), st in zip(box, strides)) + 1)
    mask: tuple[tuple[int, int, int, int], ...] = ()
    if not _is_contiguous(box, shape):
        # the outermost dimension stays inside the box between its first and last point
        mask = tuple((strides[k], shape[k], lo, hi) for k, (lo, hi) in enumerate(box) if k and (lo, hi) != (0, shape[k]))
    neighbour_reads: set[str] = set()
    written_names = {a.name for a in written}
    for access in arrays:
        flat = access.flat if access.flat is not None else sum(o * st for o, st in zip(access.offsets, strides))
        if flat == 0 or _is_write(access.op):
            continue
        if access.name in written_names:
            raise error(
                access.op,
                f"{what} reads '{describe_access(access.op)}' away from the point and also writes "
                f"'{access.name}': other vertices write those elements in the same compute set",
            )
        neighbour_reads.add(access.name)
    whole = span == (0, prod(shape))
    return (None if whole else span), frozenset(neighbour_reads), mask


def _is_contiguous(box: list[tuple[int, int]], shape: tuple[int, ...]) -> bool:
    """Whether `box` is one run of row-major memory: the dimensions before the last
    partial one are single indices."""
    partial = [k for k, ((lo, hi), n) in enumerate(zip(box, shape)) if (lo, hi) != (0, n)]
    return not partial or all(hi - lo == 1 for lo, hi in box[: partial[-1]])


Step = sd.MapOp | sd.CopyOp | list[Operation]


def sink_reads(state: sd.StateOp) -> None:
    """Move each read and `sdfg.apply` outside maps whose value is used only past a map or
    copy (sdfg-fuse-maps moves reads up as far as they may go) down to its first user, so
    that every run of memlets and tasklets uses only values it computes. A read of a
    container that the map or copy in between writes stays, an error."""
    ops = list(state.body.block.ops)
    position = {op: k for k, op in enumerate(ops)}
    for op in reversed(ops):
        if not isinstance(op, sd.ReadOp | sd.ApplyOp) or not op.results[0].uses:
            continue
        users = [position[_top_level(use.operation, state)] for use in op.results[0].uses]
        first = min(users)
        between = ops[position[op] + 1 : first]
        if not any(isinstance(o, sd.MapOp | sd.CopyOp) for o in between):
            continue
        if isinstance(op, sd.ReadOp) and any(_writes(o, op.container) for o in between):
            raise error(op, f"the value of '{describe_access(op)}' is used after a step that writes it; not supported yet")
        op.detach()
        state.body.block.insert_op_before(op, ops[first])


def _top_level(op: Operation, state: sd.StateOp) -> Operation:
    while op.parent_op() is not state:
        op = op.parent_op()  # type: ignore[assignment]
    return op


def _writes(op: Operation, container: SSAValue) -> bool:
    return any(
        isinstance(inner, sd.WriteOp) and inner.container is container
        or isinstance(inner, sd.CopyOp) and inner.destination is container
        for inner in op.walk()
    )


def state_steps(state: sd.StateOp) -> list[Step]:
    """The state's maps and copies, and runs of memlets and tasklets outside any map
    (scalar computations), each run becoming one single-point step."""
    steps: list[Step] = []
    for op in state.body.block.ops:
        if isinstance(op, sd.ReadOp | sd.TaskletOp | sd.WriteOp | sd.ApplyOp | sd.AccumulateOp):
            if not steps or not isinstance(steps[-1], list):
                steps.append([])
            steps[-1].append(op)  # type: ignore[union-attr]
        else:
            steps.append(op)  # type: ignore[arg-type]
    return steps


def free_label(ops: list[Operation]) -> str:
    return next((op.label.data for op in ops if isinstance(op, sd.TaskletOp)), "scalar")


def analyze_step(step: Step) -> MapAccesses | None:
    if is_reduction_map(step):
        reduction = analyze_reduction(step)  # type: ignore[arg-type]
        points = reduction.outer * reduction.reduced * reduction.inner
        return MapAccesses(points, reduction.inputs, [])  # its inputs share a layout, not its results
    if isinstance(step, sd.MapOp):
        return analyze_map(step)
    if isinstance(step, list):
        return analyze_body(f"tasklet '{free_label(step)}'", step, (), [])
    return None


def program_steps(sdfg_op: sd.SdfgOp) -> list[Step]:
    """The steps of every state, in loops and branches too, and the condition region of
    every branch and `sdfg.while` loop (a scalar step)."""
    steps: list[Step] = []
    for op in sdfg_op.walk():
        if isinstance(op, sd.StateOp):
            steps.extend(state_steps(op))
        elif isinstance(op, sd.IfOp | sd.WhileOp):
            steps.extend(condition_steps(op))
    return steps


def condition_steps(op: sd.IfOp | sd.WhileOp) -> list[Step]:
    """The copies that start the condition region of a branch or loop (buffers of
    elements loop variables pick), then the scalar step computing the condition."""
    ops = list(op.condition.block.ops)[:-1]
    copies = [o for o in ops if isinstance(o, sd.CopyOp)]
    return [*copies, [o for o in ops if not isinstance(o, sd.CopyOp)]]


@dataclass(frozen=True)
class PartitionPlan:
    """Where every container of one SDFG lives, which arguments go back to the host, the
    row-major element ranges of each static copy's source and destination, what each
    map touches, and how loops, branches and copies at loop variables run (`control`)."""

    arch: Arch
    layouts: dict[str, ipu.TileMapAttr | ipu.GridMapAttr]
    written: frozenset[str] = field(default_factory=frozenset)
    copies: dict[sd.CopyOp, tuple[CopyEnd, CopyEnd]] = field(default_factory=dict)
    reductions: dict[sd.MapOp, ReductionPlan] = field(default_factory=dict)
    """the tiled reductions of each map that accumulates"""
    dropped: frozenset[Operation] = frozenset()
    """ops whose work a reduction does (the identity written before it)"""
    maps: dict[sd.MapOp, MapAccesses] = field(default_factory=dict)
    control: ControlPlan = field(default_factory=ControlPlan)
    names: UniqueNames = field(default_factory=UniqueNames)
    """names of the variables made while rewriting (counters, predicates, element copies)"""
    overwritten: frozenset[str] = frozenset()
    """arguments the program overwrites completely before reading: not copied in"""
    remote: dict[str, int] = field(default_factory=dict)
    """the repeats of the remote buffer of each container in streaming memory"""


def plan_layouts(sdfg_op: sd.SdfgOp, arch: Arch) -> dict[str, ipu.TileMapAttr | ipu.GridMapAttr]:
    """The tile map of every container of `sdfg_op`."""
    containers = {op.container_name.data: op for op in sdfg_op.containers()}
    shapes: dict[str, tuple[int, ...]] = {}
    for name, op in containers.items():
        ctype = op.result.type
        assert isinstance(ctype, sd.ArrayType)
        if not on_ipu(ctype.element_type):
            kind = "float64" if str(ctype.element_type) == "f64" else "int64"
            fix = "float32" if kind == "float64" else "int32"
            origin = " (a temporary DaCe made for an expression)" if name.startswith("__tmp") else ""
            raise error(
                op,
                f"container '{name}'{origin} is {kind}, which the IPU does not support; "
                f"demote it with the ipu-demote-f64 pass ({DEMOTE_IN_PYTHON}) or use {fix}",
            )
        shapes[name] = _static_shape(ctype, op)
        if shapes[name] and prod(shapes[name]) == 0:
            raise error(op, f"container '{name}' has no elements")

    groups = _UnionFind()
    analyzed: list[tuple[Step, MapAccesses | None]] = []
    on_one_tile: set[str] = set()
    for step in program_steps(sdfg_op):
        analyzed.append((step, accesses := analyze_step(step)))
        if accesses is not None:
            if isinstance(step, list):
                continue  # a scalar step touches single elements: it ties no layouts
            arrays = [n for n in accesses.laid_out_together() if shapes[n]]
            for a in arrays[1:]:
                groups.union(arrays[0], a)
            if isinstance(step, sd.MapOp) and step.on_one_tile():
                on_one_tile.update(arrays)
        elif isinstance(step, sd.CopyOp):
            src, dst = sd.container_name(step.source), sd.container_name(step.destination)
            if shapes[src] and shapes[src] == shapes[dst] and _is_whole(step):
                groups.union(src, dst)

    members: dict[str, list[str]] = {}
    grains: dict[str, int] = {}
    element_bytes = container_bytes(containers)
    for name, shape in shapes.items():
        if shape and not containers[name].is_streaming():  # a remote buffer takes no tile memory
            root = groups.find(name)
            members.setdefault(root, []).append(name)
            row = element_type(containers[name].result.type.element_type)  # type: ignore[union-attr]
            grains[root] = max(grains.get(root, 1), arch.vector_width(row.bytes))  # type: ignore[union-attr]

    layouts: dict[str, ipu.TileMapAttr | ipu.GridMapAttr] = {name: SCALAR_MAP for name, shape in shapes.items() if not shape}
    for root, names in members.items():
        shape = shapes[names[0]]
        if on_one_tile & set(names):  # a map scheduled IPU_Workers: its tile's workers share it
            layouts.update({name: balanced_tile_map(prod(shape), 1, grains[root]) for name in names})
            continue
        # workers take rows of a box in turn: rows of narrower elements could share a word
        whole_words = all(element_bytes[n] >= ATOMIC_STORE_BYTES for n in names)
        halo = _grid_halo(set(names), shape, analyzed) if whole_words else None
        tile_map = (halo and choose_grid(shape, arch.tiles, halo, arch.workers_per_tile)) or balanced_tile_map(prod(shape), arch.tiles, grains[root])
        layouts.update({name: tile_map for name in names})
    check_memory(sdfg_op, containers, layouts, arch)
    return layouts


def _grid_halo(group: set[str], shape: tuple[int, ...], analyzed: list[tuple[Step, MapAccesses | None]]) -> Halo | None:
    """How far the maps of a group read from the point, if the group may take a grid
    map (see `tile_partition_grid`): every step touching it is a map over its shape in
    the stencil frame, with no reshaped or view reads, whose halo stays inside the
    arrays, or a whole copy within it."""
    halo = Halo()
    for step, accesses in analyzed:
        names = touched(step)
        if not names & group:
            continue
        if isinstance(step, sd.CopyOp):
            if not (names <= group and _is_whole(step)):
                return None
            continue
        if (
            not isinstance(step, sd.MapOp)
            or accesses is None
            or is_reduction_map(step)
            or not is_stencil_frame(accesses.frame, shape)
            or accesses.reshaped
            or accesses.views
        ):
            return None
        ring = Halo()
        for op, offsets in accesses.offsets.items():
            if sd.container_name(op.container) in accesses.neighbour_reads:  # type: ignore[attr-defined]
                ring = ring.widened(offsets, shape)
        box = accesses.frame.box  # type: ignore[union-attr]
        if any(lo < before or hi + after > n for (lo, hi), (before, after), n in zip(box, ring.widths(len(shape)), shape)):
            return None  # the ring would leave the arrays: the points by the edge read no neighbour there
        halo = halo.joined(ring)
    return halo


def plan_remote_buffers(sdfg_op: sd.SdfgOp) -> dict[str, int]:
    """The repeats of the remote buffer of each container in streaming memory: the
    boxes of rows that copies at loop variables move (sdfg-stream-chunks makes them),
    all the same for one container, at multiples of their rows. Any other use of a
    streaming container is an error."""
    repeats: dict[str, int] = {}
    rows: dict[str, int] = {}
    for op in sdfg_op.walk():
        streaming = [v for v in op.operands if sd.is_streaming(v)]
        if not streaming:
            continue
        name = sd.container_name(streaming[0])
        if not isinstance(op, sd.CopyOp) or not op.indices:
            raise error(op, f"'{op.name}' uses streaming container '{name}'; run sdfg-stream-chunks first")
        if len(streaming) > 1:
            raise error(op, f"copy between streaming containers '{name}' and '{sd.container_name(streaming[1])}'; not supported yet")
        box = plan_dynamic_copy(op)
        shape = _static_shape(streaming[0].type, op)  # type: ignore[arg-type]
        size = box.sizes[0] if box.dims == (0,) else None
        if size is None or box.offsets[0] not in [IndexExpr.dim(d) * size for d in range(len(op.indices))]:
            raise error(
                op,
                f"copy of streaming container '{name}' that is not a block of its rows at a loop variable times the "
                "block's rows; run sdfg-stream-chunks first",
            )
        if rows.setdefault(name, size) != size:
            raise error(op, f"copies of streaming container '{name}' move blocks of {rows[name]} and {size} rows; one size only")
        repeats[name] = shape[0] // size
    for op in sdfg_op.containers():
        if op.is_streaming() and op.container_name.data not in repeats:
            repeats[op.container_name.data] = 1
    return repeats


def plan_partition(sdfg_op: sd.SdfgOp, arch: Arch) -> PartitionPlan:
    remote = plan_remote_buffers(sdfg_op)
    layouts = plan_layouts(sdfg_op, arch)
    written = {
        sd.container_name(
            op.destination if isinstance(op, sd.CopyOp) else op.out if isinstance(op, sd.MatmulOp | sd.ReduceOp) else op.container
        )
        for op in sdfg_op.walk()
        if isinstance(op, sd.WriteOp | sd.CopyOp | sd.AccumulateOp | sd.MatmulOp | sd.ReduceOp)
    }
    all_copies = [op for op in sdfg_op.walk() if isinstance(op, sd.CopyOp)]
    copies = {op: plan_copy(op) for op in all_copies if not op.indices}
    dynamic = {op: plan_dynamic_copy(op) for op in all_copies if op.indices}
    containers = {op.container_name.data: op for op in sdfg_op.containers()}
    map_ops = [op for op in sdfg_op.walk() if isinstance(op, sd.MapOp)]
    reductions = {op: plan_reduction(op, layouts, arch, containers) for op in map_ops if is_reduction_map(op)}
    maps = {op: analyze_map(op) for op in map_ops if op not in reductions}
    dropped = frozenset(op for reduction in reductions.values() for op in reduction.init)
    names = UniqueNames(tuple(containers))
    control = plan_control(sdfg_op, names, dynamic)
    overwritten = overwritten_first(sdfg_op, maps)
    return PartitionPlan(
        arch, layouts, frozenset(written), copies, reductions, dropped, maps, control, names, overwritten, remote
    )


CopyEnd = tuple[int, int] | ViewKey
"""A side of a copy: the row-major element range [begin, end) of its container, or,
for a box that is not contiguous in memory, the view of the box (copied whole)."""


def plan_copy(op: sd.CopyOp) -> tuple[CopyEnd, CopyEnd]:
    """What a copy reads and writes."""
    src = _copy_end(op.source, op.source_ranges(), op)
    dst = _copy_end(op.destination, op.destination_ranges(), op)
    if _count(src) != _count(dst):
        raise error(op, "copy source and destination hold different numbers of elements")
    return src, dst


def _count(end: CopyEnd) -> int:
    if isinstance(end, ViewKey):
        return prod(e - b for b, e in zip(end.begin, end.end))
    return end[1] - end[0]


def _is_whole(copy: sd.CopyOp) -> bool:
    return covers_whole(copy.source, copy.source_ranges()) and covers_whole(copy.destination, copy.destination_ranges())


def busiest_tile(layouts: dict[str, ipu.TileMapAttr | ipu.GridMapAttr], element_bytes: dict[str, int]) -> tuple[int, int]:
    """(bytes, tile) of the tile holding the most data. Bytes per tile are summed over
    the distinct runs of all layouts: O(runs), not O(tiles). A grid map counts as its
    largest box on each tile it uses (an upper bound)."""
    runs = {name: _tile_runs(tile_map) for name, tile_map in layouts.items()}
    bounds = sorted({t for name_runs in runs.values() for r in name_runs for t in (r.first, r.end)})
    most, where = 0, 0
    for first, end in zip(bounds, bounds[1:]):
        used = 0
        for name, name_runs in runs.items():
            used += sum(r.count * element_bytes[name] for r in name_runs if r.first <= first and end <= r.end)
        if used > most:
            most, where = used, first
    return most, where


def _tile_runs(tile_map: ipu.TileMapAttr | ipu.GridMapAttr) -> list[TileRun]:
    if isinstance(tile_map, ipu.GridMapAttr):
        return [TileRun(0, tile_map.last_tile() + 1, tile_map.max_per_tile())]
    return tile_map.runs()


def container_bytes(containers: dict[str, sd.ContainerOp]) -> dict[str, int]:
    """The element size of each container."""
    return {name: element_type(op.result.type.element_type).bytes for name, op in containers.items()}  # type: ignore[union-attr]


def check_memory(
    sdfg_op: sd.SdfgOp,
    containers: dict[str, sd.ContainerOp],
    layouts: dict[str, ipu.TileMapAttr | ipu.GridMapAttr],
    arch: Arch,
) -> None:
    """Fail when the data mapped to some tile exceeds its memory."""
    most, where = busiest_tile(layouts, container_bytes(containers))
    if most > arch.bytes_per_tile:
        raise error(
            sdfg_op,
            f"data does not fit in tile memory: tile {where} needs {most} bytes but an "
            f"{arch.name} tile has {arch.bytes_per_tile} bytes",
        )


def _copy_end(value: SSAValue, ranges: list[sd.Range], op: Operation) -> CopyEnd:
    """The row-major element range of a box that is contiguous in memory, else the view
    of the box."""
    shape = value.type.static_shape()  # type: ignore[union-attr]
    if not shape:
        return 0, 1
    bounds = [(b.constant_value(), e.constant_value()) for b, e in ranges]
    if any(b is None or e is None for b, e in bounds):
        raise error(op, "copy bounds are not static; run sdfg-specialize first")
    if any(e <= b for b, e in bounds):  # type: ignore[operator]
        raise error(op, "copy of an empty box")
    if any(b < 0 or e > n for (b, e), n in zip(bounds, shape)):  # type: ignore[operator]
        box = ", ".join(f"{b}:{e}" for b, e in bounds)
        raise error(op, f"copy box [{box}] of '{sd.container_name(value)}' lies outside its shape {list(shape)}")
    # Contiguous iff the dimensions after the last partial one are whole and the
    # dimensions before it are single indices.
    partial = [i for i, (b, e) in enumerate(bounds) if (b, e) != (0, shape[i])]
    last = partial[-1] if partial else 0
    if any(e - b != 1 for b, e in bounds[:last]):  # type: ignore[operator]
        begins, ends = zip(*bounds)
        extents = tuple(e - b for b, e in bounds)  # type: ignore[operator]
        return ViewKey(sd.container_name(value), begins, ends, tuple(range(len(shape))), extents)  # type: ignore[arg-type]
    strides = [prod(shape[i + 1 :]) for i in range(len(shape))]
    begin = sum(b * s for (b, _), s in zip(bounds, strides))  # type: ignore[misc]
    return begin, begin + prod(e - b for b, e in bounds)  # type: ignore[operator]


def _layout_of(plan: PartitionPlan, containers: list[SSAValue]) -> ipu.TileMapAttr | ipu.GridMapAttr:
    arrays = [c for c in containers if c.type.rank > 0]  # type: ignore[union-attr]
    return plan.layouts[sd.container_name(arrays[0])] if arrays else SCALAR_MAP


# -- patterns ------------------------------------------------------------------------------


@dataclass
class _SdfgToGraph(RewritePattern):
    """The SDFG (its contents already converted) becomes a graph: arguments are written
    from the host first (but those it overwrites before reading them), and those the
    program writes are read back at the end."""

    plans: dict[sd.SdfgOp, PartitionPlan]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.SdfgOp, rewriter: PatternRewriter) -> None:
        plan = self.plans[op]
        args = [a.data for a in op.arg_names.data]
        graph = ipu.GraphOp(op.sym_name.data, plan.arch.name, args, rewriter.move_region_contents_to_new_regions(op.body))
        block = graph.body.block
        variables = graph.host_data()
        first_step = next((s for s in block.ops if not isinstance(s, ipu.VariableOp | ipu.RemoteBufferOp)), None)
        transfers_in = [ipu.FromHostOp(variables[a].result) for a in args if a not in plan.overwritten]
        if first_step is None:
            block.add_ops(transfers_in)
        else:
            block.insert_ops_before(transfers_in, first_step)
        block.add_ops(
            ipu.ToHostOp(variables[a].result)
            for a in args
            if a in plan.written and variables[a].result.type.get_num_dims() > 0  # type: ignore[union-attr]
        )
        rewriter.replace(op, graph)


@dataclass
class _ContainerToVariable(RewritePattern):
    plan: PartitionPlan

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.ContainerOp, rewriter: PatternRewriter) -> None:
        name = op.container_name.data
        if name in self.plan.remote:
            rewriter.replace(op, ipu.RemoteBufferOp(name, memref_of(op.result.type), self.plan.remote[name]))  # type: ignore[arg-type]
            return
        rewriter.replace(op, ipu.VariableOp(name, memref_of(op.result.type), self.plan.layouts[name], op.value))  # type: ignore[arg-type]


@dataclass
class _InlineState(RewritePattern):
    """Inline a state's steps where it stands; runs of memlets and tasklets outside
    maps become single-point tiled maps on tile 0 on the way, but for the writes of an
    identity a reduction does without (`ReductionPlan.init`)."""

    plan: PartitionPlan
    context: Rewrite

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.StateOp, rewriter: PatternRewriter) -> None:
        for step in state_steps(op):
            if isinstance(step, list):
                kept = [inner for inner in step if inner not in self.plan.dropped]
                if kept:
                    rewriter.insert(self.context.scalar_step(free_label(kept), kept), InsertPoint.before(step[0]))
                for inner in reversed(step):
                    rewriter.erase(inner)
        rewriter.inline_block(op.body.block, InsertPoint.before(op))
        rewriter.erase(op)


@dataclass
class _MapToTiledMap(RewritePattern):
    plan: PartitionPlan
    context: Rewrite

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.MapOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.parent_op(), sd.StateOp):
            return  # its state is inlined first
        if op in self.plan.reductions:
            sdfg_op = op.parent_op()
            while not isinstance(sdfg_op, sd.SdfgOp):  # a map in a loop or branch
                sdfg_op = sdfg_op.parent_op()  # type: ignore[union-attr]
            taken = {c.container_name.data for c in sdfg_op.containers()} | self.context.names.taken
            taken |= {v.var_name.data for v in sdfg_op.body.block.ops if isinstance(v, ipu.VariableOp)}
            created: list[ipu.ViewOp] = []
            views = {read: _view_of(read.container, key, created) for read, key in reduction_views(op).items()}
            rewriter.insert(created, _graph_level(op))
            variables, reductions = reduction_ops(op, self.plan.reductions[op], taken, views)
            self.context.names.taken.update(v.var_name.data for v in variables)
            last_container = sdfg_op.containers()[-1]
            rewriter.insert(variables, InsertPoint.after(last_container))
            rewriter.replace(op, reductions)
            return
        ops = list(op.body.block.ops)
        accesses = self.plan.maps[op]
        if not accesses.iterations or op in self.plan.dropped:
            rewriter.erase(op)
            return
        containers = [o.container for o in ops if isinstance(o, sd.ReadOp | sd.WriteOp) and o not in accesses.views]
        tile_map = _layout_of(self.plan, containers)
        mask = accesses.mask
        if isinstance(tile_map, ipu.GridMapAttr):  # its points are the written box: no mask
            assert accesses.frame is not None
            tile_map, mask = tile_map.restricted(accesses.frame.box), ()
        elif accesses.span is not None:
            tile_map = tile_map.restricted(*accesses.span)
        where, view_rules, view_ops = _inputs(accesses, ops)
        rewriter.insert(view_ops, _graph_level(op))
        if (copy := _view_copy(accesses, ops, where)) is not None:
            rewriter.replace(op, copy)
            return
        points = Points(op.params, where, accesses.frame, view_rules)
        rewriter.replace(
            op,
            tiled_map(op.label.data, ops, tile_map, points, accesses.neighbour_reads, mask, self.context.counters),
        )


def _view_copy(
    accesses: MapAccesses, ops: list[Operation], where: dict[Operation, tuple[SSAValue, tuple[int, ...]]]
) -> ipu.CopyOp | None:
    """A map that only writes each point of a contiguous span from the point of a view (a
    transpose `B = A.T`, a strided copy) as a copy of the view: a Poplar Copy program,
    exchange and on-tile moves without a compute set."""
    if len(ops) != 2 or accesses.mask:
        return None
    read, write = ops
    if not (isinstance(read, sd.ReadOp) and isinstance(write, sd.WriteOp) and write.value is read.result):
        return None
    if read not in accesses.views or any(where[read][1]):
        return None
    span = accesses.span or (0, prod(write.container.type.static_shape()))  # type: ignore[union-attr]
    return ipu.CopyOp(where[read][0], span, write.container, span)


def _inputs(
    accesses: MapAccesses, ops: list[Operation]
) -> tuple[dict[Operation, tuple[SSAValue, tuple[int, ...]]], dict[SSAValue, ipu.SliceAttr], list[ipu.ViewOp]]:
    """The input and offset of each array access of a map (see `tiled_map`), how each
    view is connected, and the `ipu.view`s to insert before the tiled map."""
    where: dict[Operation, tuple[SSAValue, tuple[int, ...]]] = {
        op: (op.container, offsets) for op, offsets in accesses.offsets.items()  # type: ignore[attr-defined]
    }
    inputs: dict[ViewKey, SSAValue] = {}
    created: list[ipu.ViewOp] = []
    for op, flat in accesses.reshaped.items():
        where[op] = (op.container, split_offset(flat, op.container.type.static_shape()))  # type: ignore[union-attr]
    for op in ops:
        if op in accesses.views:
            key, offsets = accesses.views[op]  # type: ignore[index]
            if key not in inputs:
                inputs[key] = _view_of(op.container, key, created)  # type: ignore[union-attr]
            where[op] = (inputs[key], offsets)
    rules = {
        value: ipu.SliceAttr(UNPLANNED) if any(accesses.view_halos[key]) else ipu.BLOCK
        for key, value in inputs.items()
    }
    return where, rules, created


def _view_of(container: SSAValue, key: ViewKey, created: list[ipu.ViewOp]) -> SSAValue:
    """The view `key` of `container`: the container itself when the view is all of it in
    its own order, else a new `ipu.view` (appended to `created`)."""
    shape = container.type.static_shape()  # type: ignore[attr-defined]
    if key.begin == (0,) * len(shape) and key.end == shape and key.dims == tuple(range(len(shape))):
        return container
    extents = [n for d, n in zip(key.dims, key.shape) if d == BROADCAST]
    created.append(ipu.ViewOp(container, key.begin, key.end, key.dims, extents))
    created[-1].result.name_hint = f"{container.name_hint}_view" if container.name_hint else None
    return created[-1].result


def _graph_level(op: Operation) -> InsertPoint:
    """Before the loop or branch around `op` that is directly in the SDFG (or graph):
    views are the graph's, whatever loop first uses them."""
    while not isinstance(op.parent_op(), sd.SdfgOp | ipu.GraphOp):
        op = op.parent_op()  # type: ignore[assignment]
    return InsertPoint.before(op)


@dataclass
class _CopyToCopy(RewritePattern):
    plan: PartitionPlan

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.CopyOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.parent_op(), sd.StateOp) or op not in self.plan.copies:
            return  # its state is inlined first; or a dynamic copy
        ends = []
        for value, end in zip((op.source, op.destination), self.plan.copies[op]):
            if isinstance(end, ViewKey):
                view = ipu.ViewOp(value, end.begin, end.end, end.dims)
                view.result.name_hint = f"{value.name_hint}_box" if value.name_hint else None
                rewriter.insert(view, _graph_level(op))
                value, end = view.result, (0, _count(end))
            ends.append((value, end))
        (src, src_range), (dst, dst_range) = ends
        rewriter.replace(op, ipu.CopyOp(src, src_range, dst, dst_range))


class _MatmulToMatmul(RewritePattern):
    """A product is poplin's to plan: its operands and result keep the layouts planned
    for them (a matmul ties none), which the steps around it use. A box of a container
    is an `ipu.view` of its variable (Poplar's slice: no copy); alpha, beta and the
    transposes stay on the op."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.MatmulOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.parent_op(), sd.StateOp):
            return  # its state is inlined first
        operands = []
        for k, value in enumerate(op.operand_values()):
            box = op.box(k)
            if box is not None:
                begin, end = ([e.constant_value() for e in ends] for ends in zip(*[b[:2] for b in box]))
                view = ipu.ViewOp(value, begin, end, [d for d, entry in enumerate(box) if entry[2]])  # type: ignore[arg-type]
                view.result.name_hint = f"{value.name_hint}_box" if value.name_hint else None
                rewriter.insert(view, _graph_level(op))
                value = view.result
            operands.append(value)
        matmul = ipu.MatmulOp(op.label.data, *operands)
        matmul.properties.update(op.copied_properties())
        rewriter.replace(op, matmul)


class _ReduceToReduce(RewritePattern):
    """A popops reduction is popops' to plan: its input and output keep the layouts
    planned for them (a reduction ties none), which the steps around it use; a box that
    is not the whole container is an `ipu.view` of it (a Poplar slice)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.ReduceOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.parent_op(), sd.StateOp):
            return  # its state is inlined first
        values = []
        for value, ranges in ((op.input, op.input_ranges()), (op.out, op.output_ranges())):
            box = [(begin.constant_value(), end.constant_value()) for begin, end in ranges]
            if box != [(0, n.constant_value()) for n in value.type.dims()]:  # type: ignore[attr-defined]
                view = ipu.ViewOp(value, [b for b, _ in box], [e for _, e in box], list(range(len(box))))
                view.result.name_hint = f"{value.name_hint}_box" if value.name_hint else None
                rewriter.insert(view, _graph_level(op))
                value = view.result
            values.append(value)
        rewriter.replace(op, ipu.ReduceOp(op.label.data, op.kind.data, *values, op.dim_list(), op.is_update()))


@dataclass(frozen=True)
class IpuTilePartitionPass(ModulePass):
    """Partition every SDFG over the tiles of `arch` (ipu1, ipu2, ipu21)."""

    name = "ipu-tile-partition"

    arch: str | None = None
    """Default: ipu2 (or ipu-opt's --arch)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        arch = pass_arch(self.arch)
        if (nested := sd.first_nested(op)) is not None:
            raise error(nested, f"nested SDFG '{nested.label.data}' is not inlined; run sdfg-inline-nested first")
        for state in [s for s in op.walk() if isinstance(s, sd.StateOp)]:
            sink_reads(state)
        plans = {s: plan_partition(s, arch) for s in op.ops if isinstance(s, sd.SdfgOp)}
        for sdfg_op, plan in plans.items():
            # The dataflow first, while it still refers to containers; then control flow,
            # inner loops and branches before the ones around them; then the data.
            context = Rewrite(plan.control, plan.names, sdfg_op.body.block)
            context.make_variables()
            dataflow = [_InlineState(plan, context), _MapToTiledMap(plan, context), _CopyToCopy(plan), _MatmulToMatmul(), _ReduceToReduce(),
                        DynamicCopyToSlice(context)]
            _walk(dataflow).rewrite_region(sdfg_op.body)
            control = [ForToRepeat(context), IfToIf(context), WhileToRepeatWhile(context)]
            _walk(control, regions_first=True).rewrite_region(sdfg_op.body)
            _walk([_ContainerToVariable(plan)]).rewrite_region(sdfg_op.body)
        _walk([_SdfgToGraph(plans)]).rewrite_module(op)


def _walk(patterns: list[RewritePattern], regions_first: bool = False) -> PatternRewriteWalker:
    """One walk suffices: a state is visited before the ops it inlines (and, with
    `regions_first`, a loop or branch after the ones it holds)."""
    return PatternRewriteWalker(
        GreedyRewritePatternApplier(patterns, dce_enabled=False),
        apply_recursively=False,
        walk_regions_first=regions_first,
    )
