"""sdfg-stream-chunks: maps reach containers in streaming memory in chunks of rows.

A container in `IPU_Streaming` lives off the chip (a Poplar remote buffer), so a program
may hold more data than the tiles do; a map that touches one runs as a loop over chunks
of the rows of its streamed parameter instead. The streamed parameter is the one that
indexes the first dimension of the streaming containers the map accesses, always alone
(`A[%i, %j]`, never `A[%i + 1, %j]`), and ranges over all their rows. Each container the
map accesses at that parameter in its first dimension (streaming or not) gets a landing
container of `rows` rows in tile memory: per chunk, the loop copies the chunk's rows in
(when the map reads them, accumulates into them or writes only some of their elements),
runs the map over the chunk's rows, and copies them back (when the map writes them):

    sdfg.for "m_chunks" %c = 0 to N / rows step 1 {
      sdfg.state "m_chunk" {
        sdfg.copy %A[%c * rows:%c * rows + rows, 0:M] to %A_chunk[0:rows, 0:M]
        sdfg.map "m" (%i, %j) = (0, 0) to (rows, M) step (1, 1) { ... %A_chunk[%i, %j] ... }
        sdfg.copy %B_chunk[0:rows, 0:M] to %B[%c * rows:%c * rows + rows, 0:M]
      }
    }

ipu-tile-partition makes the copies of a streaming container remote-buffer copies (the
chunk index is the repeat) and those of a container in tile memory dynamic slices.
Everything else the map reads stays where it is (a scalar, a row of weights broadcast
over the rows), and it may accumulate into a container it does not index by the streamed
parameter (a sum over all rows), since each chunk's map adds to what the last left.

`plan_chunks` decides, as plain data, the rows of a chunk per number of streamed rows:
the largest divisor of that number whose landing containers, for all the maps of the
program at once (they are shared), fit with everything in tile memory into
`CHUNK_MARGIN` of the tile memory of the arch. The rest of the tile memory is left for
what the later passes add (vertex state and code, exchange buffers, reduction partials,
the rounding of balanced layouts over the tiles). The option `chunk` forces the rows.
Accesses of a streaming container elsewhere (another index, a copy, a matrix product,
outside maps) are errors naming the container.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ipu_lower.arch import DEFAULT_ARCH, Arch, get_arch
from ipu_lower.diagnostics import IpuLowerError, error
from ipu_lower.element_types import element_type
from ipu_lower.names import UniqueNames
from ipu_lower.passes.state_split import isolate_map

CHUNK_MARGIN = 0.5
"""The fraction of the arch's tile memory the chunks and the data in tile memory may
take together (see the module docstring for what the rest is for)."""

Access = sd.ReadOp | sd.WriteOp | sd.AccumulateOp


@dataclass(frozen=True)
class MapChunks:
    """How one map runs in chunks: its streamed parameter (a position in its
    parameters) over `extent` rows, the containers it accesses at that parameter in
    their first dimension (in first-use order), those copied into their landing
    container before the map runs on a chunk (`loads`) and those copied back after it
    (`stores`)."""

    map_op: sd.MapOp
    param: int
    extent: int
    chunked: tuple[str, ...]
    loads: frozenset[str]
    stores: frozenset[str]


@dataclass(frozen=True)
class ChunkPlan:
    maps: list[MapChunks] = field(default_factory=list)
    rows: dict[int, int] = field(default_factory=dict)
    """the rows of a chunk, per number of streamed rows"""


def _static_shape(value: SSAValue, op: Operation) -> tuple[int, ...]:
    shape = value.type.static_shape()  # type: ignore[union-attr]
    if shape is None:
        raise error(op, f"container '{sd.container_name(value)}' has shape {value.type}, not static; run sdfg-specialize first")
    return shape


def _describe(op: Access) -> str:
    names = [v.name_hint or f"d{k}" for k, v in enumerate(op.indices)]
    subset = ", ".join(e.format(lambda d: names[d]) for e in op.subset_exprs())
    return f"{sd.container_name(op.container)}[{subset}]"


def _accesses(map_op: sd.MapOp) -> list[Access]:
    return [op for op in map_op.walk() if isinstance(op, Access)]


def _streamed_param(map_op: sd.MapOp, accesses: list[Access]) -> int | None:
    """The position of the parameter that indexes the first dimension of the streaming
    containers the map accesses (None if it accesses none)."""
    label = map_op.label.data
    found: int | None = None
    for op in accesses:
        if not sd.is_streaming(op.container):
            continue
        first = op.subset_exprs()[0]
        bare = next((d for d in first.dims() if first == IndexExpr.dim(d)), None)
        param = map_op.params.index(op.indices[bare]) if bare is not None and op.indices[bare] in map_op.params else None
        if param is None or (found is not None and param != found):
            raise error(
                op,
                f"map '{label}' accesses '{_describe(op)}' of streaming container '{sd.container_name(op.container)}'; "
                "a map reaches streaming memory in chunks of rows: at one of its parameters alone in the first dimension",
            )
        found = param
    return found


def analyze_map(map_op: sd.MapOp) -> MapChunks | None:
    """What running `map_op` in chunks involves, None if it touches no streaming
    container; an error if it touches one in a way chunks cannot serve."""
    accesses = _accesses(map_op)
    position = _streamed_param(map_op, accesses)
    if position is None:
        return None
    label = map_op.label.data
    param = map_op.params[position]
    lower, upper, step = (e.constant_value() for e in map_op.ranges()[position])
    if lower is None or upper is None:
        raise error(map_op, f"map '{label}' has a range that is not static; run sdfg-specialize first")
    chunked: dict[str, bool] = {}  # name -> whether the map writes every element of its rows
    reads: set[str] = set()
    writes: set[str] = set()
    for op in accesses:
        name = sd.container_name(op.container)
        subset = op.subset_exprs()
        uses_param = param in op.indices
        position_of = op.indices.index(param) if uses_param else None
        alone_first = position_of is not None and bool(subset) and subset[0] == IndexExpr.dim(position_of)
        elsewhere = any(position_of in e.dims() for e in subset[1:])
        if sd.is_streaming(op.container) and (lower, upper, step) != (0, _static_shape(op.container, op)[0], 1):
            raise error(
                op,
                f"map '{label}' runs over rows {lower} to {upper} step {step} of streaming container '{name}' "
                f"of {_static_shape(op.container, op)[0]} rows; chunks cover all rows",
            )
        if uses_param and (not alone_first or elsewhere):
            raise error(
                op,
                f"map '{label}' accesses '{_describe(op)}' at its streamed parameter elsewhere than alone in the "
                "first dimension; chunks of rows cannot serve it",
            )
        if not uses_param:
            if isinstance(op, sd.WriteOp) and op.container.type.rank > 0:  # type: ignore[union-attr]
                raise error(
                    op,
                    f"map '{label}' writes '{_describe(op)}' in every chunk of its streamed rows; accumulate into it "
                    "or index it by the streamed parameter",
                )
            continue
        if _static_shape(op.container, op)[0] < upper:
            raise error(op, f"map '{label}' accesses '{_describe(op)}' past the rows of '{name}'")
        covered = chunked.get(name, False)
        if isinstance(op, sd.WriteOp):
            covered = covered or _writes_all_rows(map_op, op)
        chunked[name] = covered
        if isinstance(op, sd.ReadOp | sd.AccumulateOp):
            reads.add(name)
        if isinstance(op, sd.WriteOp | sd.AccumulateOp):
            writes.add(name)
    for use in param.uses:
        if not isinstance(use.operation, Access):
            raise error(use.operation, f"map '{label}' computes with its streamed parameter; not supported yet")
    loads = frozenset(n for n in chunked if n in reads or not chunked[n])
    return MapChunks(map_op, position, upper, tuple(chunked), loads, frozenset(writes))


def _writes_all_rows(map_op: sd.MapOp, op: sd.WriteOp) -> bool:
    """Whether the write reaches every element of the rows of its container: each
    dimension is a distinct parameter alone, over the whole dimension."""
    shape = _static_shape(op.container, op)
    seen = []
    for e, n in zip(op.subset_exprs(), shape):
        bare = next((d for d in e.dims() if e == IndexExpr.dim(d)), None)
        if bare is None or op.indices[bare] not in map_op.params:
            return False
        position = map_op.params.index(op.indices[bare])
        if position in seen or [v.constant_value() for v in map_op.ranges()[position]][:2] != [0, n]:
            return False
        seen.append(position)
    return True


def _row_bytes(container: sd.ContainerOp) -> int:
    shape = container.result.type.static_shape()  # type: ignore[union-attr]
    return prod(shape[1:]) * element_type(container.result.type.element_type).bytes  # type: ignore[union-attr]


def _largest_divisor(n: int, cap: int) -> int:
    return max(d for d in range(1, min(n, cap) + 1) if n % d == 0)


def plan_chunks(sdfg_op: sd.SdfgOp, arch: Arch, chunk: int = 0) -> ChunkPlan:
    """The maps of `sdfg_op` that run in chunks and the rows of a chunk (see the module
    docstring); `chunk`, when not 0, forces the rows."""
    containers = {c.container_name.data: c for c in sdfg_op.containers()}
    maps: list[MapChunks] = []
    for op in sdfg_op.walk():
        if isinstance(op, sd.MapOp) and isinstance(op.parent_op(), sd.StateOp):
            if (chunks := analyze_map(op)) is not None:
                maps.append(chunks)
        elif _reaches_streaming(op) and not _inside_map(op):
            name = next(sd.container_name(v) for v in op.operands if sd.is_streaming(v))
            raise error(op, f"'{op.name}' uses streaming container '{name}'; only maps reach streaming memory (in chunks of rows)")
    if not maps:
        return ChunkPlan()
    landings = {(m.extent, name) for m in maps for name in m.chunked}
    per_row = sum(_row_bytes(containers[name]) for _, name in landings)
    resident = sum(
        prod(c.result.type.static_shape()) * element_type(c.result.type.element_type).bytes  # type: ignore[union-attr]
        for c in containers.values()
        if not c.is_streaming()
    )
    rows: dict[int, int] = {}
    for extent in sorted({m.extent for m in maps}):
        first = next(m.map_op for m in maps if m.extent == extent)
        if chunk:
            if extent % chunk:
                raise error(first, f"chunks of {chunk} rows do not divide the {extent} rows of map '{first.label.data}'")
            rows[extent] = chunk
            continue
        budget = int(CHUNK_MARGIN * arch.tiles * arch.bytes_per_tile) - resident
        if budget < per_row:
            raise error(
                first,
                f"map '{first.label.data}' runs in chunks of rows, but one row of its chunks ({per_row} bytes for all "
                f"streamed maps) and the data in tile memory ({resident} bytes) exceed {CHUNK_MARGIN:g} of the tile "
                f"memory of {arch.name} ({arch.tiles * arch.bytes_per_tile} bytes)",
            )
        rows[extent] = _largest_divisor(extent, budget // per_row)
    return ChunkPlan(maps, rows)


def _reaches_streaming(op: Operation) -> bool:
    return any(sd.is_streaming(v) for v in op.operands)


def _inside_map(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, sd.SdfgOp):
        if isinstance(parent, sd.MapOp):
            return True
        parent = parent.parent_op()
    return False


# -- rewriting ----------------------------------------------------------------------------


def _landing(sdfg_op: sd.SdfgOp, container: sd.ContainerOp, rows: int, names: UniqueNames) -> SSAValue:
    ctype = container.result.type
    shape = [rows, *ctype.static_shape()[1:]]  # type: ignore[union-attr]
    op = sd.ContainerOp(names.fresh(f"{container.container_name.data}_chunk"), sd.ArrayType(shape, ctype.element_type), transient=True)  # type: ignore[union-attr]
    op.result.name_hint = op.container_name.data
    sdfg_op.body.block.insert_op_after(op, sdfg_op.containers()[-1])
    return op.result


def _chunk_loop(sdfg_op: sd.SdfgOp, chunks: MapChunks, rows: int, landings: dict, names: UniqueNames) -> None:
    map_op = chunks.map_op
    state = map_op.parent_op()
    assert isinstance(state, sd.StateOp)
    label = map_op.label.data
    isolate_map(state, map_op, names)
    loop = sd.ForOp(names.fresh(f"{label}_chunks"), 0, chunks.extent // rows, 1, variable_name="c")
    counter = loop.variable
    containers = {c.container_name.data: c for c in sdfg_op.containers()}
    values: dict[str, SSAValue] = {}
    for name in chunks.chunked:
        key = (name, rows)
        if key not in landings:
            landings[key] = _landing(sdfg_op, containers[name], rows, names)
        values[name] = landings[key]
    for op in _accesses(map_op):
        name = sd.container_name(op.container)
        if name in values:
            op.operands[1 if isinstance(op, sd.WriteOp | sd.AccumulateOp) else 0] = values[name]
    upper = sd.exprs(map_op.upper)
    upper[chunks.param] = IndexExpr.constant(rows)
    map_op.upper = ArrayAttr([sd.expr_attr(e) for e in upper])
    begin = IndexExpr.dim(0) * rows

    def box(name: str) -> tuple[list[sd.Range], list[sd.Range]]:
        shape = containers[name].result.type.static_shape()  # type: ignore[union-attr]
        rest = [(IndexExpr.constant(0), IndexExpr.constant(n)) for n in shape[1:]]
        return [(begin, begin + rows), *rest], [(IndexExpr.constant(0), IndexExpr.constant(rows)), *rest]

    loads = [sd.CopyOp(containers[n].result, box(n)[0], values[n], box(n)[1], [counter]) for n in chunks.chunked if n in chunks.loads]
    stores = [sd.CopyOp(values[n], box(n)[1], containers[n].result, box(n)[0], [counter]) for n in chunks.chunked if n in chunks.stores]
    map_op.detach()
    body = sd.StateOp(names.fresh(f"{label}_chunk"), Region(Block([*loads, map_op, *stores])))
    loop.body.block.add_op(body)
    parent = state.parent_block()
    assert parent is not None
    parent.insert_op_before(loop, state)
    state.detach()
    state.erase()


@dataclass(frozen=True)
class SdfgStreamChunksPass(ModulePass):
    """Run the maps that touch streaming containers in chunks of rows (see the module
    docstring); `chunk` forces the rows of a chunk (0: the largest that fits)."""

    name = "sdfg-stream-chunks"

    chunk: int = 0
    arch: str | None = None
    """Default: ipu2 (or ipu-opt's --arch)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            arch = get_arch(self.arch or DEFAULT_ARCH)
        except ValueError as err:
            raise IpuLowerError(f"error: {err}") from err
        if self.chunk < 0:
            raise IpuLowerError(f"error: sdfg-stream-chunks needs a positive chunk, got {self.chunk}")
        for sdfg_op in [s for s in op.ops if isinstance(s, sd.SdfgOp)]:
            plan = plan_chunks(sdfg_op, arch, self.chunk)
            names = UniqueNames(tuple(_taken(sdfg_op)))
            landings: dict[tuple[str, int], SSAValue] = {}
            for chunks in plan.maps:
                _chunk_loop(sdfg_op, chunks, plan.rows[chunks.extent], landings, names)


def _taken(sdfg_op: sd.SdfgOp) -> set[str]:
    """Container names and labels already in use."""
    taken = {c.container_name.data for c in sdfg_op.containers()}
    taken |= {o.label.data for o in sdfg_op.walk() if isinstance(o.properties.get("label"), StringAttr)}  # type: ignore[union-attr]
    return taken
