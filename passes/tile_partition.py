"""ipu-tile-partition: owner-computes block partitioning of maps and data over tiles.

Converts each `sdfg.sdfg` into an `ipu.graph`. Planning comes first, as plain data
(`plan_partition`): containers that an elementwise map (or a whole-container copy)
ties together form a group that shares one layout, and each group's row-major
elements are split into balanced contiguous blocks over the tiles
(`balanced_tile_map`); the plan is checked against tile memory. Patterns then rewrite
one op kind each: the SDFG becomes a graph with host transfers, containers become
variables laid out by the plan, states are inlined, maps become `ipu.tiled_map`s over
the layout of the data they touch (so every access is local), copies become
`ipu.copy`, and tasklets outside maps (scalar computations) run as single-point tiled
maps on tile 0, where scalars live. Maps that accumulate become tiled reductions
(`ipu_lower.passes.tile_partition_reductions`). The patterns trust the plan: every map and scalar
computation was checked while planning.

Control flow (`tile_partition_control`) keeps one layout per container: loops and
branches become `ipu.repeat`, `ipu.repeat_while` and `ipu.if` over counter and predicate
variables on tile 0. The bodies of tiled maps and scalar steps are built by
`tile_partition_points`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import ceil, prod

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

from ipu_lower.arch import DEFAULT_ARCH, Arch, get_arch
from ipu_lower.diagnostics import IpuLowerError, error
from ipu_lower.dialects import ipu
from ipu_lower.dialects import sdfg as sd
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
from ipu_lower.passes.tile_partition_points import SCALAR_MAP, memref_of, point_offsets, static_ranges, tiled_map
from ipu_lower.passes.tile_partition_reductions import (
    ReductionPlan,
    analyze_reduction,
    is_reduction_map,
    plan_reduction,
    reduction_ops,
)


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
    op: sd.ReadOp | sd.WriteOp
    name: str
    offsets: list[int]
    shape: tuple[int, ...]


def analyze_body(
    what: str, ops: list[Operation], params: tuple[SSAValue, ...], bounds: list[tuple[int, int]]
) -> MapAccesses:
    """Check the memlets of a body over the box `bounds` of `params`: scalars, and arrays
    of one shape accessed at constant offsets from the point (the parameters in order);
    without `params` (a scalar step), array elements at constant indices."""
    reads: list[str] = []
    writes: list[str] = []
    arrays: list[_ArrayAccess] = []
    points = prod(hi - lo for lo, hi in bounds)
    for op in ops:
        if isinstance(op, sd.TaskletOp):
            _check_tasklet_width(op)
            continue
        if isinstance(op, sd.ApplyOp):
            _check_apply(what, op, params, ops)
            continue
        if not isinstance(op, sd.ReadOp | sd.WriteOp | sd.AccumulateOp):
            raise error(op, f"'{op.name}' inside {what} is not supported yet")
        name = sd.container_name(op.container)
        ctype = op.container.type
        assert isinstance(ctype, sd.ArrayType)
        if isinstance(op, sd.AccumulateOp):  # reads the element it combines with
            reads.append(name)
        (writes if isinstance(op, sd.WriteOp | sd.AccumulateOp) else reads).append(name)
        verb = "reads" if isinstance(op, sd.ReadOp) else "writes"
        if ctype.rank == 0:
            if isinstance(op, sd.WriteOp | sd.AccumulateOp) and points > 1:
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
        offsets = point_offsets(op, params)
        if offsets is None or len(shape) != len(bounds):
            raise error(
                op,
                f"{what} accesses '{describe_access(op)}' of shape {ctype}; only accesses at constant offsets "
                "from the point (the map parameters in order) are supported yet",
            )
        if any(lo + o < 0 or hi + o > n for (lo, hi), o, n in zip(bounds, offsets, shape)):
            raise error(op, f"{what} {verb} '{describe_access(op)}' outside its shape {ctype}")
        arrays.append(_ArrayAccess(op, name, offsets, shape))
    span, neighbour_reads, mask = _geometry(what, arrays, bounds)
    return MapAccesses(points, list(dict.fromkeys(reads)), list(dict.fromkeys(writes)), span, neighbour_reads, mask)


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
        raise error(
            op,
            f"tasklet '{op.label.data}' computes in {kind}, which the IPU does not "
            f"support; demote it with the ipu-demote-f64 pass or use {fix} constants",
        )


def _geometry(
    what: str, arrays: list[_ArrayAccess], bounds: list[tuple[int, int]]
) -> tuple[tuple[int, int] | None, frozenset[str], tuple[tuple[int, int, int, int], ...]]:
    """The written span, the arrays read away from the point and the mask of a map's array accesses (see
    MapAccesses).

    Every array of the map has the shape of the arrays it writes, and every write is at
    one offset from the point: the element it writes is the point of the tiled map, and
    the other accesses are offsets from it. A written box that is not contiguous in
    memory runs over its whole span with a mask; the reads of the masked points stay
    inside the arrays, since they lie between those of the box's first and last points."""
    written = [a for a in arrays if isinstance(a.op, sd.WriteOp)]
    if not written:
        return None, frozenset(), ()
    first = written[0]
    for access in arrays:
        if access.shape != first.shape:
            raise error(
                access.op,
                f"{what} accesses '{describe_access(access.op)}' of shape {access.op.container.type}, but writes "
                f"'{first.name}' of shape {first.op.container.type}; the arrays of a map must have one shape for now",
            )
        if isinstance(access.op, sd.WriteOp) and access.offsets != first.offsets:
            raise error(
                access.op,
                f"{what} writes '{describe_access(access.op)}' and '{describe_access(first.op)}' at different "
                "offsets from the point; not supported yet",
            )
    shape = first.shape
    strides = [prod(shape[k + 1 :]) for k in range(len(shape))]
    box = [(lo + o, hi + o) for (lo, hi), o in zip(bounds, first.offsets)]
    span = (sum(lo * st for (lo, _), st in zip(box, strides)), sum((hi - 1) * st for (_, hi), st in zip(box, strides)) + 1)
    mask: tuple[tuple[int, int, int, int], ...] = ()
    if not _is_contiguous(box, shape):
        # the outermost dimension stays inside the box between its first and last point
        mask = tuple((strides[k], shape[k], lo, hi) for k, (lo, hi) in enumerate(box) if k and (lo, hi) != (0, shape[k]))
    neighbour_reads: set[str] = set()
    written_names = {a.name for a in written}
    for access in arrays:
        flat = sum((o - w) * st for o, w, st in zip(access.offsets, first.offsets, strides))
        if flat == 0 or isinstance(access.op, sd.WriteOp):
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
    layouts: dict[str, ipu.TileMapAttr]
    written: frozenset[str] = field(default_factory=frozenset)
    copies: dict[sd.CopyOp, tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=dict)
    reductions: dict[sd.MapOp, ReductionPlan] = field(default_factory=dict)
    """the tiled reductions of each map that accumulates"""
    dropped: frozenset[Operation] = frozenset()
    """ops whose work a reduction does (the identity written before it)"""
    maps: dict[sd.MapOp, MapAccesses] = field(default_factory=dict)
    control: ControlPlan = field(default_factory=ControlPlan)
    names: UniqueNames = field(default_factory=UniqueNames)
    """names of the variables made while rewriting (counters, predicates, element copies)"""


def plan_layouts(sdfg_op: sd.SdfgOp, arch: Arch) -> dict[str, ipu.TileMapAttr]:
    """The tile map of every container of `sdfg_op`."""
    containers = {op.container_name.data: op for op in sdfg_op.containers()}
    shapes: dict[str, tuple[int, ...]] = {}
    for name, op in containers.items():
        ctype = op.result.type
        assert isinstance(ctype, sd.ArrayType)
        if not on_ipu(ctype.element_type):
            kind = "float64" if str(ctype.element_type) == "f64" else "int64"
            fix = "float32" if kind == "float64" else "int32"
            raise error(
                op,
                f"container '{name}' is {kind}, which the IPU does not support; "
                f"demote it with the ipu-demote-f64 pass or use {fix}",
            )
        shapes[name] = _static_shape(ctype, op)
        if shapes[name] and prod(shapes[name]) == 0:
            raise error(op, f"container '{name}' has no elements")

    groups = _UnionFind()
    for step in program_steps(sdfg_op):
        if (accesses := analyze_step(step)) is not None:
            if isinstance(step, list):
                continue  # a scalar step touches single elements: it ties no layouts
            arrays = [n for n in accesses.reads + accesses.writes if shapes[n]]
            for a in arrays[1:]:
                groups.union(arrays[0], a)
        elif isinstance(step, sd.CopyOp):
            src, dst = sd.container_name(step.source), sd.container_name(step.destination)
            if shapes[src] and shapes[src] == shapes[dst] and _is_whole(step):
                groups.union(src, dst)

    members: dict[str, list[str]] = {}
    grains: dict[str, int] = {}
    for name, shape in shapes.items():
        if shape:
            root = groups.find(name)
            members.setdefault(root, []).append(name)
            row = element_type(containers[name].result.type.element_type)  # type: ignore[union-attr]
            grains[root] = max(grains.get(root, 1), arch.vector_width(row.bytes))  # type: ignore[union-attr]

    layouts = {name: SCALAR_MAP for name, shape in shapes.items() if not shape}
    for root, names in members.items():
        tile_map = balanced_tile_map(prod(shapes[names[0]]), arch.tiles, grains[root])
        layouts.update({name: tile_map for name in names})
    check_memory(sdfg_op, containers, layouts, arch)
    return layouts


def plan_partition(sdfg_op: sd.SdfgOp, arch: Arch) -> PartitionPlan:
    layouts = plan_layouts(sdfg_op, arch)
    written = {
        sd.container_name(op.destination if isinstance(op, sd.CopyOp) else op.container)
        for op in sdfg_op.walk()
        if isinstance(op, sd.WriteOp | sd.CopyOp | sd.AccumulateOp)
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
    return PartitionPlan(arch, layouts, frozenset(written), copies, reductions, dropped, maps, control, names)


def plan_copy(op: sd.CopyOp) -> tuple[tuple[int, int], tuple[int, int]]:
    """The row-major element ranges a copy reads and writes."""
    src = _flat_range(op.source, op.source_ranges(), op)
    dst = _flat_range(op.destination, op.destination_ranges(), op)
    if src[1] - src[0] != dst[1] - dst[0]:
        raise error(op, "copy source and destination hold different numbers of elements")
    return src, dst


def _is_whole(copy: sd.CopyOp) -> bool:
    for value, ranges in ((copy.source, copy.source_ranges()), (copy.destination, copy.destination_ranges())):
        shape = value.type.static_shape()  # type: ignore[union-attr]
        if [(b.constant_value(), e.constant_value()) for b, e in ranges] != [(0, d) for d in shape]:
            return False
    return True


def busiest_tile(layouts: dict[str, ipu.TileMapAttr], element_bytes: dict[str, int]) -> tuple[int, int]:
    """(bytes, tile) of the tile holding the most data. Bytes per tile are summed over
    the distinct runs of all layouts: O(runs), not O(tiles)."""
    bounds = sorted({t for m in layouts.values() for r in m.runs() for t in (r.first, r.end)})
    most, where = 0, 0
    for first, end in zip(bounds, bounds[1:]):
        used = 0
        for name, tile_map in layouts.items():
            used += sum(r.count * element_bytes[name] for r in tile_map.runs() if r.first <= first and end <= r.end)
        if used > most:
            most, where = used, first
    return most, where


def container_bytes(containers: dict[str, sd.ContainerOp]) -> dict[str, int]:
    """The element size of each container."""
    return {name: element_type(op.result.type.element_type).bytes for name, op in containers.items()}  # type: ignore[union-attr]


def check_memory(
    sdfg_op: sd.SdfgOp, containers: dict[str, sd.ContainerOp], layouts: dict[str, ipu.TileMapAttr], arch: Arch
) -> None:
    """Fail when the data mapped to some tile exceeds its memory."""
    most, where = busiest_tile(layouts, container_bytes(containers))
    if most > arch.bytes_per_tile:
        raise error(
            sdfg_op,
            f"data does not fit in tile memory: tile {where} needs {most} bytes but an "
            f"{arch.name} tile has {arch.bytes_per_tile} bytes",
        )


def _flat_range(value: SSAValue, ranges: list[sd.Range], op: Operation) -> tuple[int, int]:
    """The row-major element range of a box that is contiguous in memory."""
    shape = value.type.static_shape()  # type: ignore[union-attr]
    if not shape:
        return 0, 1
    bounds = [(b.constant_value(), e.constant_value()) for b, e in ranges]
    if any(b is None or e is None for b, e in bounds):
        raise error(op, "copy bounds are not static; run sdfg-specialize first")
    # Contiguous iff the dimensions after the last partial one are whole and the
    # dimensions before it are single indices.
    partial = [i for i, (b, e) in enumerate(bounds) if (b, e) != (0, shape[i])]
    last = partial[-1] if partial else 0
    if any(e - b != 1 for b, e in bounds[:last]):  # type: ignore[operator]
        raise error(op, "copies of non-contiguous boxes are not supported yet")
    strides = [prod(shape[i + 1 :]) for i in range(len(shape))]
    begin = sum(b * s for (b, _), s in zip(bounds, strides))  # type: ignore[misc]
    count = prod(e - b for b, e in bounds)  # type: ignore[operator]
    if count <= 0:
        raise error(op, "copy of an empty box")
    return begin, begin + count


def _layout_of(plan: PartitionPlan, containers: list[SSAValue]) -> ipu.TileMapAttr:
    arrays = [c for c in containers if c.type.rank > 0]  # type: ignore[union-attr]
    return plan.layouts[sd.container_name(arrays[0])] if arrays else SCALAR_MAP


# -- patterns ------------------------------------------------------------------------------


@dataclass
class _SdfgToGraph(RewritePattern):
    """The SDFG (its contents already converted) becomes a graph: arguments are written
    from the host first, and those the program writes are read back at the end."""

    plans: dict[sd.SdfgOp, PartitionPlan]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.SdfgOp, rewriter: PatternRewriter) -> None:
        plan = self.plans[op]
        args = [a.data for a in op.arg_names.data]
        graph = ipu.GraphOp(op.sym_name.data, plan.arch.name, args, rewriter.move_region_contents_to_new_regions(op.body))
        block = graph.body.block
        variables = graph.variables()
        first_step = next((s for s in block.ops if not isinstance(s, ipu.VariableOp)), None)
        transfers_in = [ipu.FromHostOp(variables[a].result) for a in args]
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
        rewriter.replace(op, ipu.VariableOp(name, memref_of(op.result.type), self.plan.layouts[name]))  # type: ignore[arg-type]


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
            variables, reductions = reduction_ops(op, self.plan.reductions[op], taken)
            self.context.names.taken.update(v.var_name.data for v in variables)
            last_container = sdfg_op.containers()[-1]
            rewriter.insert(variables, InsertPoint.after(last_container))
            rewriter.replace(op, reductions)
            return
        ops = list(op.body.block.ops)
        containers = [o.container for o in ops if isinstance(o, sd.ReadOp | sd.WriteOp)]
        accesses = self.plan.maps[op]
        if not accesses.iterations or op in self.plan.dropped:
            rewriter.erase(op)
            return
        tile_map = _layout_of(self.plan, containers)
        if accesses.span is not None:
            tile_map = tile_map.restricted(*accesses.span)
        counters = self.context.counters
        rewriter.replace(op, tiled_map(op.label.data, ops, tile_map, op.params, accesses.neighbour_reads, accesses.mask, counters))


@dataclass
class _CopyToCopy(RewritePattern):
    plan: PartitionPlan

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.CopyOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.parent_op(), sd.StateOp) or op not in self.plan.copies:
            return  # its state is inlined first; or a dynamic copy
        src, dst = self.plan.copies[op]
        rewriter.replace(op, ipu.CopyOp(op.source, src, op.destination, dst))


@dataclass(frozen=True)
class IpuTilePartitionPass(ModulePass):
    """Partition every SDFG over the tiles of `arch` (ipu1, ipu2, ipu21)."""

    name = "ipu-tile-partition"

    arch: str | None = None
    """Default: ipu2 (or ipu-opt's --arch)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            arch = get_arch(self.arch or DEFAULT_ARCH)
        except ValueError as err:
            raise IpuLowerError(f"error: {err}") from err
        for state in [s for s in op.walk() if isinstance(s, sd.StateOp)]:
            sink_reads(state)
        plans = {s: plan_partition(s, arch) for s in op.ops if isinstance(s, sd.SdfgOp)}
        for sdfg_op, plan in plans.items():
            # The dataflow first, while it still refers to containers; then control flow,
            # inner loops and branches before the ones around them; then the data.
            context = Rewrite(plan.control, plan.names, sdfg_op.body.block)
            context.make_variables()
            dataflow = [_InlineState(plan, context), _MapToTiledMap(plan, context), _CopyToCopy(plan), DynamicCopyToSlice(context)]
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
