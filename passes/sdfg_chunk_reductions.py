"""sdfg-chunk-reductions: a reduction whose inputs reach its points through views runs
in chunks of its reduced range, in a loop, when all its points at once would not fit.

ipu-tile-partition gives each vertex of a reduction's first level the elements of its
block of points. An input read at the point lies there already; one read through a view
(`A[i, k]` and `B[k, j]`, broadcast over the points of DaCe's matrix-product map
`C[i, j] += A[i, k] * B[k, j]`) arrives through the exchange, one element per point, into
the tile's memory. At N = 1024 on ipu2 that is some 730,000 points and 5.8 MB of
received operands per tile, against 624 KiB of memory. So this pass cuts the range of
the outermost reduced parameter (k) into chunks of c: a loop over the chunks copies the
chunk's slice of each input that parameter indexes (`A[:, t c : t c + c]`,
`B[t c : t c + c, :]`) into a buffer, and the map, now over c values of k, reduces its
points into the destination, which accumulates (the map's write-conflict resolution)
across iterations. c is the largest divisor of the parameter's extent whose received
bytes per tile stay within `RECEIVE_FRACTION` of a tile's memory; the rest holds the
data itself, partial results and code. The copies use the loop variable, so
ipu-tile-partition makes them dynamic slices: the graph does not grow with the trip
count.

A map left alone: one whose views fit; a parameter that indexes an input other than as
itself plus a constant, or feeds a tasklet through `sdfg.apply`; one that does not fit
even in chunks of one (ipu-tile-partition's memory check has the last word).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil, prod

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ipu_lower.arch import Arch, pass_arch
from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.element_types import element_type
from ipu_lower.names import UniqueNames
from ipu_lower.passes.state_split import isolate_map
from ipu_lower.passes.tile_partition_points import static_ranges
from ipu_lower.passes.tile_partition_reductions import is_reduction_map, reduction_views

RECEIVE_FRACTION = 4
"""A reduction's received view elements may take 1 / RECEIVE_FRACTION of a tile's memory
(a margin of our own: the data laid out on the tile, partial results and code share it)."""


@dataclass(frozen=True)
class Chunking:
    """Run `map_op` in chunks of `size` values of its parameter `param` (by position)."""

    map_op: sd.MapOp
    param: int
    size: int
    extent: int


def plan_chunking(map_op: sd.MapOp, arch: Arch) -> Chunking | None:
    """How `map_op` runs in chunks, or None when it need not or cannot (module docstring)."""
    if not is_reduction_map(map_op):
        return None
    views = reduction_views(map_op)
    ranges = static_ranges(map_op)
    if not views or any(lo != 0 or step != 1 for lo, _, step in ranges):
        return None
    extents = [hi for _, hi, _ in ranges]
    first_reads = {key: read for read, key in reversed(views.items())}
    view_bytes = sum(element_type(read.container.type.element_type).bytes for read in first_reads.values())  # type: ignore[union-attr]
    budget = arch.bytes_per_tile // RECEIVE_FRACTION
    points = prod(extents)
    if ceil(points / arch.tiles) * view_bytes <= budget:
        return None
    accumulate = next(op for op in map_op.body.block.ops if isinstance(op, sd.AccumulateOp))
    reduced = [k for k, p in enumerate(map_op.params) if p not in accumulate.indices]
    if not reduced or not _chunkable(map_op, map_op.params[reduced[0]]):
        return None
    param, extent = reduced[0], extents[reduced[0]]
    fitting = [c for c in range(extent - 1, 0, -1) if extent % c == 0 and ceil(points // extent * c / arch.tiles) * view_bytes <= budget]
    return Chunking(map_op, param, fitting[0], extent) if fitting else None


def _chunkable(map_op: sd.MapOp, param: SSAValue) -> bool:
    """Whether every use of `param` is an index that is it plus a constant."""
    for op in map_op.body.block.ops:
        if isinstance(op, sd.ApplyOp) and param in op.indices:
            return False
        if isinstance(op, sd.ReadOp | sd.AccumulateOp) and param in op.indices and _dims_of(op, param) is None:
            return False
    return True


def _dims_of(op: sd.ReadOp | sd.AccumulateOp, param: SSAValue) -> list[tuple[int, int]] | None:
    """(dimension, constant) of each index of `op` that is `param` plus a constant; None
    when `param` is used in another way."""
    position = list(op.indices).index(param)
    found = []
    for k, e in enumerate(op.subset_exprs()):
        if position not in e.dims():
            continue
        shift = (e - IndexExpr.dim(position)).constant_value()
        if shift is None:
            return None
        found.append((k, shift))
    return found


def chunk(chunking: Chunking, names: UniqueNames) -> None:
    """Rewrite the map's state into: the ops before it; a loop over the chunks whose state
    copies the inputs' slices into buffers and runs the map over one chunk; the ops after
    it."""
    map_op, c = chunking.map_op, chunking.size
    param = map_op.params[chunking.param]
    state = map_op.parent_op()
    assert isinstance(state, sd.StateOp)
    sdfg_op = state.parent_op()
    while not isinstance(sdfg_op, sd.SdfgOp):
        sdfg_op = sdfg_op.parent_op()  # type: ignore[assignment]
    label = map_op.label.data
    loop = sd.ForOp(f"{label}_chunks", 0, chunking.extent // c, 1, variable_name=f"{label}_chunk")
    body = sd.StateOp(f"{label}_chunk")
    loop.body.block.add_op(body)
    isolate_map(state, map_op, names)
    map_op.detach()
    Rewriter.replace_op(state, loop)

    buffers: dict[tuple, SSAValue] = {}
    start = IndexExpr.dim(0) * c
    for op in [o for o in map_op.body.block.ops if isinstance(o, sd.ReadOp) and param in o.indices]:
        dims = _dims_of(op, param)
        assert dims is not None  # _chunkable
        key = (op.container, tuple(dims))
        if key not in buffers:
            ctype = op.container.type
            assert isinstance(ctype, sd.ArrayType)
            shape = list(ctype.dims())
            box = [(IndexExpr.constant(0), n) for n in shape]
            for k, shift in dims:
                shape[k] = IndexExpr.constant(c)
                box[k] = (start + shift, start + shift + c)
            name = names.fresh(f"{sd.container_name(op.container)}_chunk")
            buffer = sd.ContainerOp(name, sd.ArrayType(shape, ctype.element_type), transient=True)
            buffer.result.name_hint = name
            Rewriter.insert_op(buffer, InsertPoint.after(sdfg_op.containers()[-1]))
            whole = [(IndexExpr.constant(0), n) for n in shape]
            body.body.block.add_op(sd.CopyOp(op.container, box, buffer.result, whole, [loop.variable]))
            buffers[key] = buffer.result
        shifts = dict(dims)
        subset = [e - shifts[k] if k in shifts else e for k, e in enumerate(op.subset_exprs())]
        Rewriter.replace_op(op, sd.ReadOp(buffers[key], list(op.indices), subset))
    upper = list(map_op.upper.data)
    upper[chunking.param] = sd.expr_attr(c)
    map_op.upper = ArrayAttr(upper)
    body.body.block.add_op(map_op)


@dataclass(frozen=True)
class SdfgChunkReductionsPass(ModulePass):
    """Reductions whose view reads would not fit in tile memory run in chunks of their
    reduced range (see the module docstring)."""

    name = "sdfg-chunk-reductions"

    arch: str | None = None
    """Default: ipu2 (or ipu-opt's --arch)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        arch = pass_arch(self.arch)
        for sdfg_op in [s for s in op.ops if isinstance(s, sd.SdfgOp)]:
            names = UniqueNames(tuple(c.container_name.data for c in sdfg_op.containers()))
            maps = [m for m in sdfg_op.walk() if isinstance(m, sd.MapOp) and isinstance(m.parent_op(), sd.StateOp)]
            for chunking in [p for m in maps if (p := plan_chunking(m, arch)) is not None]:
                chunk(chunking, names)
