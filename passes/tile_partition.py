"""ipu-tile-partition: owner-computes block partitioning of maps and data over tiles.

Converts each `sdfg.sdfg` into an `ipu.graph`. Planning comes first, as plain data:
containers that an elementwise map (or a whole-container copy) ties together form a
group that shares one layout, and each group's row-major elements are split into
balanced contiguous blocks over the tiles (`balanced_tile_map`). Each map then becomes
an `ipu.tiled_map` over the layout of the data it touches, so every access is local.
Scalars live on tile 0 and are broadcast. The plan is checked against tile memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import ceil, prod

from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp, f64, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from ipu_lower.arch import DEFAULT_ARCH, Arch, get_arch
from ipu_lower.diagnostics import IpuLowerError, error
from ipu_lower.dialects import ipu
from ipu_lower.dialects import sdfg as sd

ELEMENT_BYTES: dict[str, int] = {"f16": 2, "f32": 4, "f64": 8, "i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8}


def element_bytes(t: Attribute) -> int:
    return ELEMENT_BYTES[str(t)]


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
    groups = [(first, end, count) for first, end, count in counts if end > first and count > 0]
    overshoot = units * grain - elements
    if overshoot:
        first, end, count = groups.pop()
        if end - first > 1:
            groups.append((first, end - 1, count))
        groups.append((end - 1, end, count - overshoot))
    return ipu.TileMapAttr(groups)


SCALAR_MAP = ipu.TileMapAttr([(0, 1, 1)])


def _static_shape(ctype: sd.ArrayType, op: Operation) -> tuple[int, ...]:
    shape = ctype.static_shape()
    if shape is None:
        raise error(op, f"shape {ctype} is not static; run sdfg-specialize first")
    return shape


@dataclass
class _Group:
    """Containers that must share one layout (maps and copies only tie equal shapes)."""

    members: set[str] = field(default_factory=set)
    elements: int = 0
    grain: int = 1


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


def analyze_map(map_op: sd.MapOp) -> MapAccesses:
    """Check that `map_op` is elementwise and list the containers it touches."""
    label = map_op.label.data
    bounds = []
    for lo, hi, st in zip(map_op.lower.data, map_op.upper.data, map_op.step.data):
        if lo.as_int() is None or hi.as_int() is None or st.as_int() is None:
            raise error(map_op, f"map '{label}' has a range that is not static; run sdfg-specialize first")
        if lo.as_int() != 0 or st.as_int() != 1:
            raise error(
                map_op,
                f"map '{label}' ranges must start at 0 with step 1 for now "
                f"(got {lo.text} to {hi.text} step {st.text})",
            )
        bounds.append(hi.as_int())
    return analyze_body(f"map '{label}'", list(map_op.body.block.ops), map_op.param_names, bounds)


def analyze_body(what: str, ops: list[Operation], params: list[str], bounds: list[int]) -> MapAccesses:
    """Check that the memlets of an elementwise body over `bounds` index by `params`."""
    indices = [sd.SymExprAttr(p) for p in params]
    reads: list[str] = []
    writes: list[str] = []
    for op in ops:
        if isinstance(op, sd.TaskletOp):
            continue
        if not isinstance(op, sd.ReadOp | sd.WriteOp):
            raise error(op, f"'{op.name}' inside {what} is not supported yet")
        container = op.container.owner
        assert isinstance(container, sd.ContainerOp)
        name = container.container_name.data
        ctype = op.container.type
        assert isinstance(ctype, sd.ArrayType)
        if ctype.rank == 0:
            if isinstance(op, sd.WriteOp) and prod(bounds) > 1:
                raise error(
                    op,
                    f"every iteration of {what} writes scalar '{name}'; "
                    "reductions are not supported yet",
                )
        elif list(op.subset.data) != indices or _static_shape(ctype, op) != tuple(bounds):
            subset = ", ".join(e.text for e in op.subset.data)
            raise error(
                op,
                f"{what} accesses '{name}[{subset}]' of shape {ctype}; only elementwise "
                f"accesses (the map parameters in order, over the whole container) are supported yet",
            )
        (writes if isinstance(op, sd.WriteOp) else reads).append(name)
    return MapAccesses(prod(bounds), list(dict.fromkeys(reads)), list(dict.fromkeys(writes)))


Step = sd.MapOp | sd.CopyOp | list[Operation]


def state_steps(state: sd.StateOp) -> list[Step]:
    """The state's maps and copies, and runs of memlets and tasklets outside any map
    (scalar computations), each run becoming one single-iteration step."""
    steps: list[Step] = []
    for op in state.body.block.ops:
        if isinstance(op, sd.ReadOp | sd.TaskletOp | sd.WriteOp):
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
        return analyze_body(f"tasklet '{free_label(step)}'", step, [], [])
    return None


def plan_layouts(sdfg_op: sd.SdfgOp, arch: Arch) -> dict[str, ipu.TileMapAttr]:
    """The tile map of every container of `sdfg_op`."""
    containers = {op.container_name.data: op for op in sdfg_op.containers()}
    shapes: dict[str, tuple[int, ...]] = {}
    for name, op in containers.items():
        ctype = op.result.type
        assert isinstance(ctype, sd.ArrayType)
        if ctype.element_type == f64:
            raise error(
                op,
                f"container '{name}' is float64, which the IPU does not support; "
                "demote it with the ipu-demote-f64 pass or use float32",
            )
        if ctype.element_type == i64:
            raise error(
                op,
                f"container '{name}' is int64, which the IPU does not support; "
                "demote it with the ipu-demote-f64 pass or use int32",
            )
        shapes[name] = _static_shape(ctype, op)
        if shapes[name] and prod(shapes[name]) == 0:
            raise error(op, f"container '{name}' has no elements")

    groups = _UnionFind()
    for state in sdfg_op.body.block.ops:
        if not isinstance(state, sd.StateOp):
            continue
        for step in state_steps(state):
            if (accesses := analyze_step(step)) is not None:
                arrays = [n for n in accesses.reads + accesses.writes if shapes[n]]
                for a in arrays[1:]:
                    groups.union(arrays[0], a)
            elif isinstance(step, sd.CopyOp):
                src = step.source.owner.container_name.data  # type: ignore[union-attr]
                dst = step.destination.owner.container_name.data  # type: ignore[union-attr]
                if shapes[src] and shapes[src] == shapes[dst] and _is_whole(step):
                    groups.union(src, dst)

    by_root: dict[str, _Group] = {}
    for name, shape in shapes.items():
        if not shape:
            continue
        group = by_root.setdefault(groups.find(name), _Group())
        group.members.add(name)
        ctype = containers[name].result.type
        assert isinstance(ctype, sd.ArrayType)
        group.grain = max(group.grain, arch.vector_width(element_bytes(ctype.element_type)))
        group.elements = prod(shape)

    layouts = {name: SCALAR_MAP for name, shape in shapes.items() if not shape}
    for group in by_root.values():
        tile_map = balanced_tile_map(group.elements, arch.tiles, group.grain)
        layouts.update({name: tile_map for name in group.members})
    check_memory(sdfg_op, containers, layouts, arch)
    return layouts


def _is_whole(copy: sd.CopyOp) -> bool:
    for value, ranges in (
        (copy.source, copy.source_ranges()),
        (copy.destination, copy.destination_ranges()),
    ):
        shape = value.type.static_shape()  # type: ignore[union-attr]
        if [(b.as_int(), e.as_int()) for b, e in ranges] != [(0, d) for d in shape]:
            return False
    return True


def check_memory(
    sdfg_op: sd.SdfgOp,
    containers: dict[str, sd.ContainerOp],
    layouts: dict[str, ipu.TileMapAttr],
    arch: Arch,
) -> None:
    """Fail when the data mapped to some tile exceeds its memory."""
    used: dict[int, int] = {}
    for name, tile_map in layouts.items():
        size = element_bytes(containers[name].result.type.element_type)  # type: ignore[union-attr]
        for first, end, count in tile_map.triples():
            for tile in range(first, end):
                used[tile] = used.get(tile, 0) + count * size
    tile, most = max(used.items(), key=lambda kv: kv[1], default=(0, 0))
    if most > arch.bytes_per_tile:
        raise error(
            sdfg_op,
            f"data does not fit in tile memory: tile {tile} needs {most} bytes but an "
            f"{arch.name} tile has {arch.bytes_per_tile} bytes",
        )


def _memref(ctype: sd.ArrayType) -> MemRefType:
    return MemRefType(ctype.element_type, ctype.static_shape() or [])


class _GraphBuilder:
    """Builds the `ipu.graph` of one SDFG from its layouts."""

    def __init__(self, sdfg_op: sd.SdfgOp, arch: Arch, layouts: dict[str, ipu.TileMapAttr]):
        self.sdfg_op = sdfg_op
        self.arch = arch
        self.layouts = layouts
        self.block = Block()
        self.tensors: dict[SSAValue, SSAValue] = {}
        self.written: set[str] = set()

    def build(self) -> ipu.GraphOp:
        args = [a.data for a in self.sdfg_op.arg_names.data]
        for op in self.sdfg_op.containers():
            var = ipu.VariableOp(
                op.container_name.data,
                _memref(op.result.type),  # type: ignore[arg-type]
                self.layouts[op.container_name.data],
            )
            self.block.add_op(var)
            self.tensors[op.result] = var.result
        by_name = {op.container_name.data: op.result for op in self.sdfg_op.containers()}
        for name in args:
            self.block.add_op(ipu.FromHostOp(self.tensors[by_name[name]]))
        for state in self.sdfg_op.body.block.ops:
            if isinstance(state, sd.StateOp):
                for step in state_steps(state):
                    self.lower(step)
        for name in args:
            tensor = self.tensors[by_name[name]]
            if name in self.written and tensor.type.get_num_dims() > 0:  # type: ignore[union-attr]
                self.block.add_op(ipu.ToHostOp(tensor))
        return ipu.GraphOp(self.sdfg_op.sym_name.data, self.arch.name, args, Region(self.block))

    def lower(self, step: Step) -> None:
        if isinstance(step, sd.MapOp):
            self.block.add_op(self.tiled_map(step.label.data, list(step.body.block.ops)))
        elif isinstance(step, list):
            self.block.add_op(self.tiled_map(free_label(step), step))
        elif isinstance(step, sd.CopyOp):
            self.block.add_op(self.copy(step))
        else:
            raise error(step, f"'{step.name}' directly in a state is not supported yet")

    def copy(self, op: sd.CopyOp) -> ipu.CopyOp:
        src = _flat_range(op.source, op.source_ranges(), op)
        dst = _flat_range(op.destination, op.destination_ranges(), op)
        if src[1] - src[0] != dst[1] - dst[0]:
            raise error(op, "copy source and destination hold different numbers of elements")
        self.written.add(op.destination.owner.container_name.data)  # type: ignore[union-attr]
        return ipu.CopyOp(self.tensors[op.source], src, self.tensors[op.destination], dst)

    def tiled_map(self, label: str, ops: list[Operation]) -> ipu.TiledMapOp:
        """The elementwise body `ops` (memlets and tasklets) as a tiled map."""
        ins: list[SSAValue] = []
        outs: list[SSAValue] = []
        body = Block()
        current: dict[SSAValue, SSAValue] = {}  # container -> its value this iteration
        mapping: dict[SSAValue, SSAValue] = {}
        for op in ops:
            if isinstance(op, sd.ReadOp):
                if op.container not in current:
                    ins.append(self.tensors[op.container])
                    current[op.container] = body.insert_arg(op.result.type, len(body.args))
                mapping[op.result] = current[op.container]
            elif isinstance(op, sd.TaskletOp):
                self.inline_tasklet(op, body, mapping)
            elif isinstance(op, sd.WriteOp):
                if self.tensors[op.container] not in outs:
                    outs.append(self.tensors[op.container])
                current[op.container] = mapping[op.value]
                self.written.add(op.container.owner.container_name.data)  # type: ignore[union-attr]
        body.add_op(
            ipu.YieldOp(*(current[c] for c in dict.fromkeys(
                w.container for w in ops if isinstance(w, sd.WriteOp)
            )))
        )
        arrays = [t for t in ins + outs if t.type.get_num_dims() > 0]  # type: ignore[union-attr]
        tile_map = arrays[0].owner.tile_map if arrays else SCALAR_MAP  # type: ignore[union-attr]
        return ipu.TiledMapOp(label, tile_map, ins, outs, Region(body))

    @staticmethod
    def inline_tasklet(op: sd.TaskletOp, body: Block, mapping: dict[SSAValue, SSAValue]) -> None:
        values = {arg: mapping[operand] for arg, operand in zip(op.body.block.args, op.inputs)}
        for inner in op.body.block.ops:
            if isinstance(inner, sd.YieldOp):
                for result, value in zip(op.outputs, inner.values):
                    mapping[result] = values[value]
                continue
            clone = inner.clone(value_mapper=values)
            body.add_op(clone)
            if any(r.type in (f64, i64) for r in clone.results):
                raise error(
                    op,
                    f"tasklet '{op.label.data}' computes in 64 bits, which the IPU does not "
                    "support; demote it with the ipu-demote-f64 pass or use float32 constants",
                )


def _flat_range(value: SSAValue, ranges, op: Operation) -> tuple[int, int]:
    """The row-major element range of a box that is contiguous in memory."""
    shape = value.type.static_shape()  # type: ignore[union-attr]
    if not shape:
        return 0, 1
    bounds = [(b.as_int(), e.as_int()) for b, e in ranges]
    if any(b is None or e is None for b, e in bounds):
        raise error(op, "copy bounds are not static; run sdfg-specialize first")
    # Contiguous iff the dimensions after the last partial one are whole and the
    # dimensions before it are single indices.
    partial = [i for i, (b, e) in enumerate(bounds) if (b, e) != (0, shape[i])]
    last = partial[-1] if partial else 0
    if any(e - b != 1 for b, e in bounds[:last]):  # type: ignore[operator]
        raise error(op, "copies of non-contiguous boxes are not supported yet")
    strides = [prod(shape[i + 1 :]) for i in range(len(shape))]
    begin = sum(b * s for (b, _), s in zip(bounds, strides))
    count = prod(e - b for b, e in bounds)  # type: ignore[operator]
    if count <= 0:
        raise error(op, "copy of an empty box")
    return begin, begin + count  # type: ignore[operator]


@dataclass
class _PartitionSdfg(RewritePattern):
    arch: Arch

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.SdfgOp, rewriter: PatternRewriter) -> None:
        layouts = plan_layouts(op, self.arch)
        rewriter.replace(op, _GraphBuilder(op, self.arch, layouts).build())


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
        PatternRewriteWalker(_PartitionSdfg(arch), apply_recursively=False).rewrite_module(op)
