"""Print runs of same-shaped Graph calls as a loop over a constant table.

One vertex per tile means thousands of `addVertex`/`setTileMapping`/`connect` calls
that differ only in numbers; straight-line C++ for them is slow to compile and hard to
read. A run is recognised on the `poplar` ops themselves, so IR written by hand that
does not follow the pattern is still printed op by op.

- Mapping run: `%s = poplar.slice %t[b:e]` + `poplar.set_tile_mapping %s to T`, over one %t.
- Vertex run: `poplar.add_vertex %cs "C"`, its `set_tile_mapping`, `connect`s (of whole
  tensors or of single-use slices) and `set_perf_estimate`, with the same compute set,
  codelet, fields and tensors each time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import Operation, SSAValue

from ipu_lower.dialects import poplar
from ipu_lower.targets.print_context import PrintContext, cpp_string

MIN_RUN = 2


@dataclass(frozen=True)
class _Field:
    name: str
    tensor: SSAValue
    sliced: bool


@dataclass(frozen=True)
class _Vertex:
    compute_set: SSAValue
    codelet: str
    fields: tuple[_Field, ...]
    numbers: tuple[int, ...]
    """tile, cycles, then (begin, end) of each sliced field."""
    length: int


def _only_used_by(value: SSAValue, users: set[Operation]) -> bool:
    return all(use.operation in users for use in value.uses)


def _vertex_at(ops: Sequence[Operation], i: int) -> _Vertex | None:
    add = ops[i]
    if not isinstance(add, poplar.AddVertexOp):
        return None
    vertex = add.result
    tile = cycles = None
    fields: list[_Field] = []
    slices: list[int] = []
    j = i + 1
    while j < len(ops) and cycles is None:
        op = ops[j]
        if isinstance(op, poplar.SetTileMappingOp) and op.target is vertex and tile is None:
            tile = op.tile.value.data
        elif isinstance(op, poplar.ConnectOp) and op.vertex is vertex:
            fields.append(_Field(op.field.data, op.tensor, False))
        elif (
            isinstance(op, poplar.SliceOp)
            and j + 1 < len(ops)
            and isinstance(connect := ops[j + 1], poplar.ConnectOp)
            and connect.vertex is vertex
            and connect.tensor is op.result
            and _only_used_by(op.result, {connect})
        ):
            fields.append(_Field(connect.field.data, op.tensor, True))
            slices += [op.begin.value.data, op.end.value.data]
            j += 1
        elif isinstance(op, poplar.SetPerfEstimateOp) and op.vertex is vertex:
            cycles = op.cycles.value.data
        else:
            return None
        j += 1
    if tile is None or cycles is None or not _only_used_by(vertex, set(ops[i:j])):
        return None
    return _Vertex(add.compute_set, add.codelet.data, tuple(fields), (tile, cycles, *slices), j - i)


def _mapping_at(ops: Sequence[Operation], i: int) -> tuple[SSAValue, tuple[int, int, int]] | None:
    if i + 1 >= len(ops):
        return None
    view, mapping = ops[i], ops[i + 1]
    if (
        isinstance(view, poplar.SliceOp)
        and isinstance(mapping, poplar.SetTileMappingOp)
        and mapping.target is view.result
        and _only_used_by(view.result, {mapping})
    ):
        return view.tensor, (mapping.tile.value.data, view.begin.value.data, view.end.value.data)
    return None


def print_table_run(ctx: PrintContext, ops: Sequence[Operation], i: int) -> int:
    """Print the run starting at ops[i] as a loop and return the index after it (or i)."""
    return _vertex_run(ctx, ops, i) or _mapping_run(ctx, ops, i) or i


def _table(ctx: PrintContext, hint: str, rows: list[tuple[int, ...]]) -> str:
    name = ctx.names.fresh(hint)
    ctx.line(f"static const std::size_t {name}[][{len(rows[0])}] = {{")
    with ctx.indented():
        for start in range(0, len(rows), 4):
            ctx.line(" ".join("{" + ", ".join(map(str, r)) + "}," for r in rows[start : start + 4]))
    ctx.line("};")
    return name


def _mapping_run(ctx: PrintContext, ops: Sequence[Operation], i: int) -> int:
    first = _mapping_at(ops, i)
    rows = []
    j = i
    while (found := _mapping_at(ops, j)) is not None and first and found[0] is first[0]:
        rows.append(found[1])
        j += 2
    if len(rows) < MIN_RUN:
        return 0
    tensor = ctx[first[0]]  # type: ignore[index]
    table = _table(ctx, f"{tensor.split('.')[0]}_mapping", rows)
    with ctx.descend(f"for (const auto &row : {table})"):
        ctx.line(f"graph.setTileMapping({tensor}.slice(row[1], row[2]), static_cast<unsigned>(row[0]));")
    return j


def _vertex_run(ctx: PrintContext, ops: Sequence[Operation], i: int) -> int:
    first = _vertex_at(ops, i)
    if first is None:
        return 0
    rows = []
    j = i
    while (found := _vertex_at(ops, j)) is not None and (
        found.compute_set is first.compute_set
        and found.codelet == first.codelet
        and found.fields == first.fields
    ):
        rows.append(found.numbers)
        j += found.length
    if len(rows) < MIN_RUN:
        return 0
    table = _table(ctx, f"{ctx[first.compute_set]}_vertices", rows)
    with ctx.descend(f"for (const auto &row : {table})"):
        ctx.line(f"poplar::VertexRef vertex = graph.addVertex({ctx[first.compute_set]}, {cpp_string(first.codelet)});")
        ctx.line("graph.setTileMapping(vertex, static_cast<unsigned>(row[0]));")
        column = 2
        for field in first.fields:
            tensor = ctx[field.tensor]
            if field.sliced:
                tensor = f"{tensor}.slice(row[{column}], row[{column + 1}])"
                column += 2
            ctx.line(f"graph.connect(vertex[{cpp_string(field.name)}], {tensor});")
        ctx.line("graph.setPerfEstimate(vertex, row[1]);")
    return j
