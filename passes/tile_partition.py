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
maps on tile 0, where scalars live. The patterns trust the plan: every map and scalar
computation was checked while planning.

Control flow keeps one layout per container and lives on the device (`plan_control`):
a loop whose trip count is static becomes `ipu.repeat`; any other loop `ipu.repeat_while`
over a predicate variable, a branch `ipu.if`. A loop variable the body uses is a counter
variable on tile 0 (i32), set by a single-point map before the loop and stepped by
another at the end of each iteration, which also computes the loop's predicate
(`t < upper`) when the trip count is not static. Vertices read the counter as a `whole`
scalar, so the IR does not grow with the trip count. The condition of an `sdfg.if` or
`sdfg.while` is a single-point map writing its predicate variable. Outside maps, an
array element at constant indices is copied into (or out of) a scalar on tile 0 around
the map that uses it; an element a loop counter picks (`A[t]`) is read from the array
connected whole to that map (`ipu.load`), which moves the whole array to tile 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from math import ceil, prod

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType, MemRefType, ModuleOp, i1, i32
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
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
from ipu_lower.dialects.index_arith import materialize
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.element_types import element_type, on_ipu


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


SCALAR_MAP = ipu.TileMapAttr([(0, 1, 1)])


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
    """What one elementwise map reads and writes, in first-use order."""

    iterations: int
    reads: list[str]
    writes: list[str]
    gathered: list[str] = field(default_factory=list)
    """arrays read whole by a scalar step, at elements loop counters pick"""


def _param_name(value: SSAValue, position: int) -> str:
    return value.name_hint or f"d{position}"


def describe_access(op: sd.ReadOp | sd.WriteOp) -> str:
    """`x[i + 1, j]`, with the map parameters by name."""
    names = [_param_name(v, k) for k, v in enumerate(op.indices)]
    subset = ", ".join(e.format(lambda d: names[d]) for e in op.subset_exprs())
    return f"{sd.container_name(op.container)}[{subset}]"


def point_offsets(op: sd.ReadOp | sd.WriteOp, params: tuple[SSAValue, ...]) -> list[int] | None:
    """The offset of each index from the map's parameter of the same position, when
    the access is `x[i0 + c0, i1 + c1, ...]` for constants c; else None."""
    if any(index not in params for index in op.indices):
        return None
    positions = {d: IndexExpr.dim(params.index(index)) for d, index in enumerate(op.indices)}
    offsets = []
    for k, e in enumerate(op.subset_exprs()):
        offset = e.substitute(dims=positions).dim_offset(k)
        if offset is None:
            return None
        offsets.append(offset)
    return offsets


def analyze_map(map_op: sd.MapOp) -> MapAccesses:
    """Check that `map_op` is elementwise and list the containers it touches."""
    label = map_op.label.data
    bounds = []
    for lo, hi, st in map_op.ranges():
        values = (lo.constant_value(), hi.constant_value(), st.constant_value())
        if None in values:
            raise error(map_op, f"map '{label}' has a range that is not static; run sdfg-specialize first")
        if values[0] != 0 or values[2] != 1:
            raise error(
                map_op, f"map '{label}' ranges must start at 0 with step 1 for now (got {lo} to {hi} step {st})"
            )
        bounds.append(values[1])
    return analyze_body(f"map '{label}'", list(map_op.body.block.ops), map_op.params, bounds)


def analyze_body(what: str, ops: list[Operation], params: tuple[SSAValue, ...], bounds: list[int]) -> MapAccesses:
    """Check that the memlets of an elementwise body over `bounds` index by `params`;
    with no `params` (a scalar step outside maps), that array elements are read at
    constant indices or at loop counters, and written at constant indices."""
    reads: list[str] = []
    writes: list[str] = []
    gathered: list[str] = []
    kinds: dict[str, set[str]] = {}
    for op in ops:
        if isinstance(op, sd.TaskletOp):
            wide = next((r.type for inner in op.body.block.ops for r in inner.results if not on_ipu(r.type)), None)
            if wide is not None:
                kind, fix = ("float64", "float32") if str(wide) == "f64" else ("int64", "int32")
                raise error(
                    op,
                    f"tasklet '{op.label.data}' computes in {kind}, which the IPU does not "
                    f"support; demote it with the ipu-demote-f64 pass or use {fix} constants",
                )
            continue
        if isinstance(op, sd.ApplyOp):
            if any(index in params for index in op.indices):
                raise error(op, f"a tasklet of {what} computes with a map parameter ('{op.expr.data.format(lambda d: _param_name(op.indices[d], d))}'); not supported yet")
            if not on_ipu(op.result.type):
                raise error(op, f"sdfg.apply in {what} gives a {op.result.type}, which the IPU does not support")
            continue
        if not isinstance(op, sd.ReadOp | sd.WriteOp):
            raise error(op, f"'{op.name}' inside {what} is not supported yet")
        name = sd.container_name(op.container)
        ctype = op.container.type
        assert isinstance(ctype, sd.ArrayType)
        verb = "writes" if isinstance(op, sd.WriteOp) else "reads"
        if ctype.rank == 0:
            if isinstance(op, sd.WriteOp) and prod(bounds) > 1:
                raise error(op, f"every iteration of {what} writes scalar '{name}'; reductions are not supported yet")
        elif not params:
            _static_shape(ctype, op)
            dynamic = bool(op.indices)
            if dynamic and isinstance(op, sd.WriteOp):
                raise error(
                    op,
                    f"{what} writes '{describe_access(op)}' at an element a loop variable picks; "
                    "only reads of such elements are supported yet",
                )
            kinds.setdefault(name, set()).add(("dynamic " if dynamic else "constant ") + verb)
            if dynamic:
                gathered.append(name)
        else:
            if any(index not in params for index in op.indices):
                raise error(
                    op,
                    f"{what} {verb} '{describe_access(op)}' at a loop variable (an array slice that moves with "
                    "the loop); not supported yet",
                )
            offsets = point_offsets(op, params)
            shape = _static_shape(ctype, op)
            if offsets is not None and any(offsets) and shape == tuple(bounds):
                raise error(
                    op,
                    f"{what} {verb} '{describe_access(op)}', a neighbour at offset ({', '.join(map(str, offsets))}) "
                    "of the point; stencils are not supported yet",
                )
            if offsets is None or shape != tuple(bounds):
                raise error(
                    op,
                    f"{what} accesses '{describe_access(op)}' of shape {ctype}; only elementwise accesses "
                    "(the map parameters in order, over the whole container) are supported yet",
                )
        (writes if isinstance(op, sd.WriteOp) else reads).append(name)
    for name, seen in kinds.items():
        if "constant writes" in seen and "dynamic reads" in seen:
            raise error(
                ops[0],
                f"{what} writes an element of '{name}' and reads one a loop variable picks; not supported yet",
            )
    return MapAccesses(prod(bounds), list(dict.fromkeys(reads)), list(dict.fromkeys(writes)), list(dict.fromkeys(gathered)))


Step = sd.MapOp | sd.CopyOp | list[Operation]


def state_steps(state: sd.StateOp) -> list[Step]:
    """The state's maps and copies, and runs of memlets and tasklets outside any map
    (scalar computations), each run becoming one single-point step."""
    steps: list[Step] = []
    for op in state.body.block.ops:
        if isinstance(op, sd.ReadOp | sd.TaskletOp | sd.WriteOp | sd.ApplyOp):
            if not steps or not isinstance(steps[-1], list):
                steps.append([])
            steps[-1].append(op)  # type: ignore[union-attr]
        else:
            steps.append(op)  # type: ignore[arg-type]
    return steps


def free_label(ops: list[Operation]) -> str:
    return next((op.label.data for op in ops if isinstance(op, sd.TaskletOp)), "scalar")


def analyze_step(step: Step) -> MapAccesses | None:
    if isinstance(step, sd.MapOp):
        return analyze_map(step)
    if isinstance(step, list):
        return analyze_body(f"tasklet '{free_label(step)}'", step, (), [])
    return None


@dataclass(frozen=True)
class PartitionPlan:
    """Where every container of one SDFG lives, which arguments go back to the host, and
    the row-major element ranges of each copy's source and destination."""

    arch: Arch
    layouts: dict[str, ipu.TileMapAttr]
    written: frozenset[str] = field(default_factory=frozenset)
    copies: dict[sd.CopyOp, tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=dict)
    control: ControlPlan = field(default_factory=lambda: ControlPlan({}, {}))
    names: _Names = field(default_factory=lambda: _Names(()))
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
    gathered: set[str] = set()
    for step in program_steps(sdfg_op):
        if (accesses := analyze_step(step)) is not None:
            gathered.update(accesses.gathered)
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
    check_memory(sdfg_op, containers, layouts, arch, sorted(gathered))
    return layouts


def program_steps(sdfg_op: sd.SdfgOp) -> list[Step]:
    """The steps of every state, in loops and branches too, and the condition region of
    every branch and `sdfg.while` loop (a scalar step)."""
    steps: list[Step] = []
    for op in sdfg_op.walk():
        if isinstance(op, sd.StateOp):
            steps.extend(state_steps(op))
        elif isinstance(op, sd.IfOp | sd.WhileOp):
            steps.append(list(op.condition.block.ops)[:-1])
    return steps


@dataclass(frozen=True)
class LoopControl:
    """How one `sdfg.for` runs on the device: `trip_count` when static (`ipu.repeat`),
    else None (`ipu.repeat_while` over the variable `predicate`); `counter` is the
    variable holding the loop variable, when the body uses it."""

    trip_count: int | None
    counter: str | None
    predicate: str | None


@dataclass(frozen=True)
class ControlPlan:
    loops: dict[sd.ForOp, LoopControl]
    predicates: dict[sd.IfOp | sd.WhileOp, str]
    """the predicate variable of each branch and `sdfg.while` loop"""


class _Names:
    """Fresh variable names, distinct from the SDFG's containers and each other."""

    def __init__(self, taken):
        self.taken = set(taken)

    def fresh(self, hint: str) -> str:
        name, k = hint, 0
        while name in self.taken:
            k += 1
            name = f"{hint}_{k}"
        self.taken.add(name)
        return name


def plan_control(sdfg_op: sd.SdfgOp, names: _Names) -> ControlPlan:
    """The counter and predicate variables of the loops and branches of `sdfg_op`."""
    loops: dict[sd.ForOp, LoopControl] = {}
    predicates: dict[sd.IfOp | sd.WhileOp, str] = {}
    for op in sdfg_op.walk():
        if isinstance(op, sd.ForOp):
            label = op.label.data
            for bound in op.bounds():
                if bound.symbols():
                    raise error(op, f"bound '{bound}' of loop '{label}' is not static; run sdfg-specialize first")
            trip = op.trip_count()
            used = bool(op.variable.uses)
            counter = names.fresh(op.variable.name_hint or label) if used or trip is None else None
            predicate = names.fresh(f"{label}_cond") if trip is None else None
            loops[op] = LoopControl(trip, counter, predicate)
        elif isinstance(op, sd.IfOp | sd.WhileOp):
            predicates[op] = names.fresh(f"{op.label.data}_cond")
    return ControlPlan(loops, predicates)


def plan_partition(sdfg_op: sd.SdfgOp, arch: Arch) -> PartitionPlan:
    layouts = plan_layouts(sdfg_op, arch)
    written = {
        sd.container_name(op.container if isinstance(op, sd.WriteOp) else op.destination)
        for op in sdfg_op.walk()
        if isinstance(op, sd.WriteOp | sd.CopyOp)
    }
    copies = {op: plan_copy(op) for op in sdfg_op.walk() if isinstance(op, sd.CopyOp)}
    names = _Names(c.container_name.data for c in sdfg_op.containers())
    control = plan_control(sdfg_op, names)
    return PartitionPlan(arch, layouts, frozenset(written), copies, control, names)


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
    sdfg_op: sd.SdfgOp,
    containers: dict[str, sd.ContainerOp],
    layouts: dict[str, ipu.TileMapAttr],
    arch: Arch,
    gathered: list[str] = (),  # type: ignore[assignment]
) -> None:
    """Fail when the data mapped to some tile exceeds its memory; arrays read whole by
    scalar steps (`gathered`) also take their size on tile 0."""
    sizes = container_bytes(containers)
    most, where = busiest_tile(layouts, sizes)
    if gathered:
        extra = sum(sizes[n] * prod(_static_shape(containers[n].result.type, containers[n])) for n in gathered)  # type: ignore[arg-type]
        held = sum(r.count * sizes[n] for n, m in layouts.items() for r in m.runs() if r.first == 0)
        if held + extra > arch.bytes_per_tile:
            names = ", ".join(f"'{n}'" for n in gathered)
            raise error(
                sdfg_op,
                f"data does not fit in tile memory: tile 0 needs {held + extra} bytes, with {names} read whole "
                f"there (at elements a loop variable picks), but an {arch.name} tile has {arch.bytes_per_tile} bytes",
            )
    if most > arch.bytes_per_tile:
        raise error(
            sdfg_op,
            f"data does not fit in tile memory: tile {where} needs {most} bytes but an "
            f"{arch.name} tile has {arch.bytes_per_tile} bytes",
        )


@cache  # building a MemRefType is slow, and programs repeat few container types
def memref_of(ctype: sd.ArrayType) -> MemRefType:
    return MemRefType(ctype.element_type, ctype.static_shape() or [])


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


def _memref_of_value(value: SSAValue) -> MemRefType:
    """The memref of a container (converted later) or of a variable made while rewriting."""
    t = value.type
    return t if isinstance(t, MemRefType) else memref_of(t)  # type: ignore[arg-type]


class _MapBuilder:
    """Builds one tiled map from the memlets, tasklets and `sdfg.apply` ops of a point
    (checked by `analyze_body`): reads become `ipu.access` at the point (or `ipu.load` of
    an array connected whole, at the element loop counters pick), `sdfg.apply` the
    arithmetic of its expression over the counters it uses, writes the yielded values.

    `counters` maps loop variables to their counter variables; `elements` maps memlets
    of array elements at constant indices to the scalar variables they go through."""

    def __init__(self, counters: dict[SSAValue, SSAValue], elements: dict[Operation, SSAValue] | None = None):
        self.counters = counters
        self.elements = elements or {}
        self.ins: list[SSAValue] = []
        self.outs: list[SSAValue] = []
        self.body = Block()
        self.args: dict[SSAValue, SSAValue] = {}
        self.current: dict[SSAValue, SSAValue] = {}  # container or variable -> its value at the point
        self.mapping: dict[SSAValue, SSAValue] = {}
        self.counter_values: dict[SSAValue, SSAValue] = {}

    def add(self, op: Operation) -> SSAValue:
        self.body.add_op(op)
        return op.results[0]

    def argument(self, value: SSAValue) -> SSAValue:
        if value not in self.args:
            self.ins.append(value)
            arg = self.body.insert_arg(_memref_of_value(value), len(self.body.args))
            arg.name_hint = value.name_hint
            self.args[value] = arg
        return self.args[value]

    def read(self, target: SSAValue) -> SSAValue:
        """The value of `target` at the point: read once, or the value written earlier."""
        if target not in self.current:
            rank = _memref_of_value(target).get_num_dims()
            self.current[target] = self.add(ipu.AccessOp(self.argument(target), [0] * rank))
        return self.current[target]

    def counter(self, variable: SSAValue) -> SSAValue:
        """The i32 value of a loop variable: its counter."""
        if variable not in self.counter_values:
            self.counter_values[variable] = self.read(self.counters[variable])
        return self.counter_values[variable]

    def convert(self, value: SSAValue, t) -> SSAValue:
        """An integer of another width (sign-extended or truncated)."""
        width, target = value.type.width.data, t.width.data  # type: ignore[union-attr]
        if width == target:
            return value
        return self.add(arith.ExtSIOp(value, t) if target > width else arith.TruncIOp(value, t))

    def ops(self, ops: list[Operation], in_map: bool = False) -> None:
        for op in ops:
            if isinstance(op, sd.ReadOp):
                target = self.elements.get(op, op.container)
                if op.indices and not in_map:  # an element loop counters pick
                    dims = [self.counter(i) for i in op.indices]
                    indices = [
                        self.add(arith.IndexCastOp(materialize(e, dims, self.body), IndexType()))
                        for e in op.subset_exprs()
                    ]
                    self.mapping[op.result] = self.add(ipu.LoadOp(self.argument(target), indices))
                else:
                    self.mapping[op.result] = self.read(target)
            elif isinstance(op, sd.ApplyOp):
                value = materialize(op.expr.data, [self.counter(i) for i in op.indices], self.body)
                self.mapping[op.result] = self.convert(value, op.result.type)
            elif isinstance(op, sd.TaskletOp):
                _inline_tasklet(op, self.body, self.mapping)
            elif isinstance(op, sd.WriteOp):
                self.write(self.elements.get(op, op.container), self.mapping[op.value])

    def write(self, target: SSAValue, value: SSAValue) -> None:
        if target not in self.outs:
            self.outs.append(target)
        self.current[target] = value

    def finish(self, label: str, tile_map: ipu.TileMapAttr) -> ipu.TiledMapOp:
        self.body.add_op(ipu.YieldOp(*(self.current[c] for c in self.outs)))

        def rule(value: SSAValue) -> ipu.SliceAttr:
            return ipu.WHOLE if tile_map.total() == 1 or _memref_of_value(value).get_num_dims() == 0 else ipu.BLOCK

        return ipu.TiledMapOp(
            label, tile_map, [(v, rule(v)) for v in self.ins], [(v, rule(v)) for v in self.outs], Region(self.body)
        )


def tiled_map(
    label: str, ops: list[Operation], tile_map: ipu.TileMapAttr, counters: dict[SSAValue, SSAValue] | None = None
) -> ipu.TiledMapOp:
    """The memlets and tasklets of one map point (`ops`, checked by `analyze_body`) as
    a tiled map: reads become `ipu.access` at the point, writes the yielded values."""
    builder = _MapBuilder(counters or {})
    builder.ops(ops, in_map=True)
    return builder.finish(label, tile_map)


def _flat_element(op: sd.ReadOp | sd.WriteOp) -> int:
    """The row-major position of the element a memlet at constant indices accesses."""
    shape = _memref_of_value(op.container).get_shape()
    return sum(e.constant_value() * prod(shape[k + 1 :]) for k, e in enumerate(op.subset_exprs()))  # type: ignore[operator]


def scalar_step(
    label: str,
    ops: list[Operation],
    plan: PartitionPlan,
    counters: dict[SSAValue, SSAValue],
    result: tuple[SSAValue, SSAValue] | None = None,
) -> tuple[list[Operation], list[Operation]]:
    """A step outside maps (or a condition, whose value `result[0]` goes to the variable
    `result[1]`) as a single-point tiled map on tile 0: (new variables, program ops).
    Elements of arrays at constant indices go through scalar variables: copied in before
    the map when it reads them, copied out after it when it writes them."""
    variables: list[ipu.VariableOp] = []
    elements: dict[Operation, SSAValue] = {}
    by_element: dict[tuple[SSAValue, int], SSAValue] = {}
    copy_in: list[Operation] = []
    copy_out: list[Operation] = []
    for op in ops:
        if not isinstance(op, sd.ReadOp | sd.WriteOp) or op.indices or op.container.type.rank == 0:  # type: ignore[union-attr]
            continue
        flat = _flat_element(op)
        key = (op.container, flat)
        if key not in by_element:
            name = plan.names.fresh(f"{sd.container_name(op.container)}_elem")
            element = _memref_of_value(op.container).element_type
            variable = ipu.VariableOp(name, MemRefType(element, []), SCALAR_MAP)
            variables.append(variable)
            by_element[key] = variable.result
            if isinstance(op, sd.ReadOp):  # read before any write of the step: copy it in
                copy_in.append(ipu.CopyOp(op.container, (flat, flat + 1), variable.result, (0, 1)))
            else:
                copy_out.append(ipu.CopyOp(variable.result, (0, 1), op.container, (flat, flat + 1)))
        elif isinstance(op, sd.WriteOp) and not any(c.source is by_element[key] for c in copy_out):  # type: ignore[attr-defined]
            copy_out.append(ipu.CopyOp(by_element[key], (0, 1), op.container, (flat, flat + 1)))
        elements[op] = by_element[key]
    builder = _MapBuilder(counters, elements)
    builder.ops(ops)
    if result is not None:
        builder.write(result[1], builder.mapping[result[0]])
    return variables, [*copy_in, builder.finish(label, SCALAR_MAP), *copy_out]  # type: ignore[list-item]


def _inline_tasklet(op: sd.TaskletOp, body: Block, mapping: dict[SSAValue, SSAValue]) -> None:
    values = {arg: mapping[operand] for arg, operand in zip(op.body.block.args, op.inputs)}
    for inner in op.body.block.ops:
        if isinstance(inner, sd.YieldOp):
            for result, value in zip(op.outputs, inner.values):
                mapping[result] = values[value]
            continue
        body.add_op(inner.clone(value_mapper=values))


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
class _Rewrite:
    """What the patterns of one SDFG share: its plan, the counter variable of each loop
    variable the body uses, the predicate variable of each loop and branch."""

    plan: PartitionPlan
    body: Block
    """the SDFG's body, where new variables go (after the containers)"""
    counters: dict[SSAValue, SSAValue] = field(default_factory=dict)
    predicates: dict[Operation, SSAValue] = field(default_factory=dict)

    def add_variables(self, variables: list[ipu.VariableOp]) -> None:
        anchor = next((o for o in self.body.ops if not isinstance(o, sd.ContainerOp | ipu.VariableOp)), None)
        for variable in variables:
            if SSAValue.is_valid_name(variable.var_name.data):
                variable.result.name_hint = variable.var_name.data
            if anchor is None:
                self.body.add_op(variable)
            else:
                self.body.insert_op_before(variable, anchor)

    def make_variables(self) -> None:
        """The counters and predicates the control plan names."""
        control = self.plan.control
        made: list[ipu.VariableOp] = []
        for loop, info in control.loops.items():
            if info.counter is not None:
                made.append(ipu.VariableOp(info.counter, MemRefType(i32, []), SCALAR_MAP))
                self.counters[loop.variable] = made[-1].result
            if info.predicate is not None:
                made.append(ipu.VariableOp(info.predicate, MemRefType(i1, []), SCALAR_MAP))
                self.predicates[loop] = made[-1].result
        for op, name in control.predicates.items():
            made.append(ipu.VariableOp(name, MemRefType(i1, []), SCALAR_MAP))
            self.predicates[op] = made[-1].result
        self.add_variables(made)

    def scalar_step(self, label: str, ops: list[Operation], result=None) -> list[Operation]:
        variables, program = scalar_step(label, ops, self.plan, self.counters, result)
        self.add_variables(variables)  # type: ignore[arg-type]
        return program


@dataclass
class _InlineState(RewritePattern):
    """Inline a state's steps where it stands; runs of memlets and tasklets outside
    maps become single-point tiled maps on tile 0 on the way."""

    context: _Rewrite

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.StateOp, rewriter: PatternRewriter) -> None:
        for step in state_steps(op):
            if isinstance(step, list):
                rewriter.insert(self.context.scalar_step(free_label(step), step), InsertPoint.before(step[0]))
                for inner in reversed(step):
                    rewriter.erase(inner)
        rewriter.inline_block(op.body.block, InsertPoint.before(op))
        rewriter.erase(op)


def _moved(block: Block) -> Region:
    """A new region holding the ops of `block` (already converted to the ipu level)."""
    ops = list(block.ops)
    for o in ops:
        o.detach()
    return Region(Block(ops))


def _control_map(label: str, reads: list[SSAValue], compute) -> ipu.TiledMapOp:
    """A single-point map on tile 0 that reads the integer scalars `reads` (as i32) and
    writes what `compute(body, values)` gives: (variable, value) pairs."""
    builder = _MapBuilder({})
    values = [builder.convert(builder.read(v), i32) for v in reads]
    for variable, value in compute(builder.body, values):
        builder.write(variable, value)
    return builder.finish(label, SCALAR_MAP)


def _add(body: Block, op: Operation) -> SSAValue:
    body.add_op(op)
    return op.results[0]


@dataclass
class _ForToRepeat(RewritePattern):
    """A counted loop, its body already converted: `ipu.repeat` when its trip count is
    static, else `ipu.repeat_while` over its predicate; the counter is set before the
    loop and stepped (and the predicate computed) at the end of each iteration."""

    context: _Rewrite

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.ForOp, rewriter: PatternRewriter) -> None:
        info = self.context.plan.control.loops[op]
        label = op.label.data
        if info.trip_count == 0:
            rewriter.erase_op(op)
            return
        lower, upper, _ = op.bounds()
        step = op.step_value()
        inputs = [self.context.counters.get(v, v) for v in op.bound_operands]
        body = _moved(op.body.block)
        before: list[Operation] = []
        if info.counter is None:
            assert info.trip_count is not None
            rewriter.replace_op(op, ipu.RepeatOp(info.trip_count, body), [])
            return
        counter = self.context.counters[op.variable]
        less = "slt" if step > 0 else "sgt"

        def stepped(block: Block, values: list[SSAValue]) -> SSAValue:
            return _add(block, arith.AddiOp(values[0], _add(block, arith.ConstantOp.from_int_and_width(step, 32))))

        if info.predicate is None:
            assert info.trip_count is not None
            before.append(_control_map(f"{label}_init", [], lambda b, v: [(counter, materialize(lower, v, b))]))
            body.block.add_op(_control_map(f"{label}_step", [counter], lambda b, v: [(counter, stepped(b, v))]))
            loop: Operation = ipu.RepeatOp(info.trip_count, body)
        else:
            predicate = self.context.predicates[op]

            def first(b: Block, v: list[SSAValue]):
                value = materialize(lower, v, b)
                return [(counter, value), (predicate, _add(b, arith.CmpiOp(value, materialize(upper, v, b), less)))]

            def next_(b: Block, v: list[SSAValue]):
                value = stepped(b, v)
                return [(counter, value), (predicate, _add(b, arith.CmpiOp(value, materialize(upper, v[1:], b), less)))]

            before.append(_control_map(f"{label}_init", inputs, first))
            body.block.add_op(_control_map(f"{label}_step", [counter, *inputs], next_))
            loop = ipu.RepeatWhileOp(predicate, Region(Block()), body)
        rewriter.replace_op(op, [*before, loop], [])


@dataclass
class _IfToIf(RewritePattern):
    """A branch, its regions already converted: its condition as a single-point map
    writing the predicate, then `ipu.if`."""

    context: _Rewrite

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.IfOp, rewriter: PatternRewriter) -> None:
        ops = list(op.condition.block.ops)
        condition = ops.pop()
        assert isinstance(condition, sd.ConditionOp)
        predicate = self.context.predicates[op]
        program = self.context.scalar_step(f"{op.label.data}_cond", ops, (condition.value, predicate))
        branch = ipu.IfOp(predicate, _moved(op.then_region.block), _moved(op.else_region.block))
        rewriter.replace_op(op, [*program, branch], [])


@dataclass
class _WhileToRepeatWhile(RewritePattern):
    """A loop, its body already converted: `ipu.repeat_while` whose condition region
    computes the predicate."""

    context: _Rewrite

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.WhileOp, rewriter: PatternRewriter) -> None:
        ops = list(op.condition.block.ops)
        condition = ops.pop()
        assert isinstance(condition, sd.ConditionOp)
        predicate = self.context.predicates[op]
        program = self.context.scalar_step(f"{op.label.data}_cond", ops, (condition.value, predicate))
        loop = ipu.RepeatWhileOp(predicate, Region(Block(program)), _moved(op.body.block))
        rewriter.replace_op(op, loop, [])


@dataclass
class _MapToTiledMap(RewritePattern):
    context: _Rewrite

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.MapOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.parent_op(), sd.StateOp):
            return  # its state is inlined first
        ops = list(op.body.block.ops)
        containers = [o.container for o in ops if isinstance(o, sd.ReadOp | sd.WriteOp)]
        tile_map = _layout_of(self.context.plan, containers)
        rewriter.replace(op, tiled_map(op.label.data, ops, tile_map, self.context.counters))


@dataclass
class _CopyToCopy(RewritePattern):
    plan: PartitionPlan

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.CopyOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.parent_op(), sd.StateOp):
            return  # its state is inlined first
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
        plans = {s: plan_partition(s, arch) for s in op.ops if isinstance(s, sd.SdfgOp)}
        for sdfg_op, plan in plans.items():
            # The dataflow first, while it still refers to containers; then control flow,
            # inner loops and branches before the ones around them; then the data.
            context = _Rewrite(plan, sdfg_op.body.block)
            context.make_variables()
            _walk([_InlineState(context), _MapToTiledMap(context), _CopyToCopy(plan)]).rewrite_region(sdfg_op.body)
            control = [_ForToRepeat(context), _IfToIf(context), _WhileToRepeatWhile(context)]
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
