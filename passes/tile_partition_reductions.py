"""The reductions of ipu-tile-partition: a map that accumulates becomes a few tiled
reductions, each one compute set, the first over the map's data and the others over
the partial results of the one before.

A map over (p0, ..., pk) that accumulates into `s[pa, ..., pb]` (the parameters it keeps,
in order) reduces the parameters between: its points are the row-major box O x R x I
(O: the product of the ranges before the reduced ones, R: of the reduced ones, I: after)
and its O x I results go to consecutive elements of s. `analyze_reduction` checks that;
`plan_levels` decides, as plain data, how the work is split over tiles, level by level:

- O = 1 (the whole array, or leading axes): the points are R rows of I. A *split* level
  gives each vertex a block of whole rows (contiguous: the data's own blocks when they
  hold whole rows); its workers share the rows, each its own I partial results, when I
  is smaller than the number of workers, else they share the I columns. Its partial
  results are R' rows of I (`partials<n>`) for the next level. The *final* level splits
  the I columns over tiles (`columns<I>`: every row of a block of columns), each vertex
  folding all rows of its columns into its block of s, on the tiles that hold s.
- O > 1 (trailing axes): when there are many outputs (O at least half the tiles) or
  few values to fold, one final level splits the outputs over tiles, each vertex
  folding the R x I points of its block of O x I results (`rows<R>`). Otherwise a split
  level gives each vertex a block of the R rows of every output (`columns<R I>`), and
  its O x I partial results are the rows of an O = 1 reduction.

Each split level reduces R by a factor (FOLD_MIN rows per worker at least) and runs
only if it and the final level after it are then cheaper than the final level alone; partial results are 32-bit (see
`ipu_lower.dialects.reduction`), so workers and vertices write whole words; the final
level writes s with `accumulate`: the value s held before takes part, as DaCe's
write-conflict resolution requires, and its blocks of s hold whole 32-bit words.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil, gcd, prod

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Operation, Region, SSAValue

from ipu_lower.arch import Arch
from ipu_lower.diagnostics import error
from ipu_lower.dialects import ipu
from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.dialects.reduction import accumulator_type
from ipu_lower.element_types import element_type

FOLD_MIN = 16
"""Values a worker folds at least in a split level, so that it is worth its compute set."""

LEVEL_OVERHEAD = 50
"""What a level costs beyond folding, in values a worker could fold in that time: a
compute set's launch, sync and exchange (some 300 cycles)."""

ATOMIC_STORE_BYTES = 4
"""Stores narrower than 32 bits are read-modify-writes of their word (see
ipu_lower.passes.vertex_extraction)."""


def is_reduction_map(op: Operation) -> bool:
    return isinstance(op, sd.MapOp) and any(isinstance(inner, sd.AccumulateOp) for inner in op.body.block.ops)


@dataclass(frozen=True)
class ReductionMap:
    """A map that accumulates: its points are the box outer x reduced x inner, its
    results go to the first outer x inner elements of `destination`."""

    kind: str
    inputs: list[str]
    """the arrays it reads at the point, in first-use order (scalars are read whole)"""
    destination: str
    outer: int
    reduced: int
    inner: int

    @property
    def results(self) -> int:
        return self.outer * self.inner


def _static_bounds(map_op: sd.MapOp) -> list[int]:
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
    return bounds  # type: ignore[return-value]


def analyze_reduction(map_op: sd.MapOp) -> ReductionMap:
    """Check that `map_op` is a reduction the partition supports and measure it."""
    from ipu_lower.passes.tile_partition import describe_access, point_offsets

    label = map_op.label.data
    what = f"map '{label}'"
    bounds = _static_bounds(map_op)
    ops = list(map_op.body.block.ops)
    accumulates = [op for op in ops if isinstance(op, sd.AccumulateOp)]
    if len(accumulates) > 1:
        names = ", ".join(f"'{describe_access(a)}'" for a in accumulates)
        raise error(accumulates[1], f"{what} accumulates more than once ({names}); one reduction per map is supported yet")
    (accumulate,) = accumulates
    destination = sd.container_name(accumulate.container)
    inputs: list[str] = []
    for op in ops:
        if isinstance(op, sd.WriteOp):
            raise error(
                op,
                f"{what} accumulates into '{destination}' and writes '{describe_access(op)}'; a map that "
                "reduces may not write other containers yet",
            )
        if isinstance(op, sd.TaskletOp | sd.AccumulateOp):
            continue
        if not isinstance(op, sd.ReadOp):
            raise error(op, f"'{op.name}' inside {what} is not supported yet")
        name = sd.container_name(op.container)
        if op.container is accumulate.container:
            raise error(op, f"{what} reads '{describe_access(op)}', which it accumulates into")
        ctype = op.container.type
        assert isinstance(ctype, sd.ArrayType)
        if ctype.rank == 0:
            continue
        if ctype.static_shape() != tuple(bounds) or point_offsets(op, map_op.params) != [0] * len(bounds):
            raise error(
                op,
                f"{what} reads '{describe_access(op)}'; a reduction reads its inputs at the iteration point, "
                "over the whole container",
            )
        if name not in inputs:
            inputs.append(name)
    kept = _kept_parameters(map_op, accumulate, bounds)
    reduced = [k for k in range(len(bounds)) if k not in kept]
    if reduced and reduced != list(range(reduced[0], reduced[-1] + 1)):
        axes = ", ".join(_param_name(map_op, k) for k in reduced)
        raise error(accumulate, f"{what} reduces over {axes}, which are not adjacent; not supported yet")
    first = reduced[0] if reduced else len(bounds)
    last = reduced[-1] + 1 if reduced else len(bounds)
    return ReductionMap(
        accumulate.kind.data,
        inputs,
        destination,
        prod(bounds[:first]),
        prod(bounds[first:last]),
        prod(bounds[last:]),
    )


def _param_name(map_op: sd.MapOp, k: int) -> str:
    return map_op.params[k].name_hint or f"d{k}"


def _kept_parameters(map_op: sd.MapOp, accumulate: sd.AccumulateOp, bounds: list[int]) -> list[int]:
    """The positions of the map parameters that index the destination: its element is
    `s.flat[p_a * (n_b ... ) + ... + p_b]`, the kept parameters row-major from element 0."""
    from ipu_lower.passes.tile_partition import describe_access

    ctype = accumulate.container.type
    assert isinstance(ctype, sd.ArrayType)
    shape = ctype.static_shape()
    if shape is None:
        raise error(accumulate, f"shape {ctype} is not static; run sdfg-specialize first")
    params = map_op.params
    if any(index not in params for index in accumulate.indices):
        raise error(accumulate, f"'{describe_access(accumulate)}' is indexed by values other than the map parameters")
    positions = {d: IndexExpr.dim(params.index(index)) for d, index in enumerate(accumulate.indices)}
    flat = IndexExpr.constant(0)
    for e, stride in zip(accumulate.subset_exprs(), [prod(shape[d + 1 :]) for d in range(len(shape))]):
        flat = flat + e.substitute(dims=positions) * stride
    kept = sorted({params.index(index) for index in accumulate.indices})
    expected = IndexExpr.constant(0)
    for k in kept:
        expected = expected + IndexExpr.dim(k) * prod(bounds[j] for j in kept if j > k)
    if flat != expected:
        raise error(
            accumulate,
            f"map '{map_op.label.data}' accumulates into '{describe_access(accumulate)}'; a reduction's results "
            "must be the elements of its destination from the first, in the order of the map parameters it keeps",
        )
    if prod(bounds[k] for k in kept) > prod(shape):
        raise error(accumulate, f"'{describe_access(accumulate)}' lies outside {ctype}")
    return kept


# -- planning ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FoldLevel:
    """One tiled reduction: over `tile_map`, its streamed inputs connected by `in_rule`,
    each vertex folding the middle of `fold`; it writes `partials` results per vertex
    into a new tensor, or (partials None) the destination with `out_rule`."""

    tile_map: ipu.TileMapAttr
    in_rule: ipu.SliceAttr
    fold: tuple[int | None, int | None, int | None]
    split: str
    partials: int | None = None
    out_rule: ipu.SliceAttr = ipu.BLOCK

    @property
    def is_final(self) -> bool:
        return self.partials is None

    def partial_map(self) -> ipu.TileMapAttr:
        """Where the partial results live: on the tile of the vertex that writes them."""
        assert self.partials is not None
        runs: list[tuple[int, int, int]] = []
        for r in self.tile_map.runs():
            if runs and runs[-1][1] == r.first:
                runs[-1] = (runs[-1][0], r.end, self.partials)  # the same count: one run
            else:
                runs.append((r.first, r.end, self.partials))
        return ipu.TileMapAttr(runs)


def _whole_rows(tile_map: ipu.TileMapAttr | None, row: int, total: int | None = None) -> bool:
    """Whether `tile_map` (over `total` elements, when given) has blocks of whole rows."""
    if tile_map is None or (total is not None and (tile_map.start, tile_map.total()) != (0, total)):
        return False
    return tile_map.start % row == 0 and all(r.count % row == 0 for r in tile_map.runs())


def _lcm(a: int, b: int) -> int:
    return a * b // gcd(a, b)


def fold_steps(results: int, values: int, per_worker: bool, workers: int) -> int:
    """Values the busiest worker of a vertex folds: `results` results of `values`
    values each, the workers sharing the results or (per_worker) the values."""
    return results * ceil(values / workers) if per_worker else ceil(results / workers) * values


def plan_levels(
    reduction: ReductionMap,
    arch: Arch,
    out_bytes: int,
    input_layout: ipu.TileMapAttr | None,
    output_layout: ipu.TileMapAttr,
    scalar_output: bool = False,
) -> list[FoldLevel]:
    """The tiled reductions that compute `reduction` on `arch`, the last one writing
    its destination (of `out_bytes` elements, laid out by `output_layout`).

    A split level is chosen when it and the final level after it fold fewer values on
    their busiest worker, plus LEVEL_OVERHEAD, than the final level alone would."""
    from ipu_lower.passes.tile_partition import balanced_tile_map

    tiles, workers = arch.tiles, arch.workers_per_tile
    word = max(1, ATOMIC_STORE_BYTES // out_bytes)  # results per 32-bit word of s

    def final_steps(rows: int, columns: int) -> int:
        width = min(tiles, ceil(columns / word))
        return fold_steps(ceil(columns / width), rows, False, workers)

    outer, rows, inner = reduction.outer, reduction.reduced, reduction.inner
    levels: list[FoldLevel] = []
    layout = input_layout
    while True:
        results = outer * inner
        per_worker = results < workers and rows >= 2 * FOLD_MIN * workers
        chunk = FOLD_MIN * (workers if per_worker else 1)
        slots = workers if per_worker else 1
        if outer > 1:
            grain = _lcm(inner, word)
            width = min(tiles, ceil(results / grain))
            alone = fold_steps(ceil(results / width), rows, False, workers)
            count = min(tiles, rows // chunk)
            split = (
                fold_steps(results, ceil(rows / count), per_worker, workers) + LEVEL_OVERHEAD
                + final_steps(count * slots, results)
                if count >= 2 else None
            )
            if split is None or split >= alone:
                work = output_layout if _whole_rows(output_layout, grain, results) else balanced_tile_map(results, tiles, grain)
                levels.append(FoldLevel(work, ipu.SliceAttr("rows", rows), (None, rows, inner), "outputs"))
                return levels
            work = balanced_tile_map(rows * inner, count, inner)
            levels.append(
                FoldLevel(
                    work, ipu.SliceAttr("columns", rows * inner), (outer, None, inner),
                    "folded" if per_worker else "outputs", results * slots, ipu.SliceAttr("partials", results * slots),
                )
            )
            outer, rows, inner = 1, work.num_blocks() * slots, results
            layout = None
            continue
        if layout is not None and _whole_rows(layout, inner) and rows >= tiles * chunk:
            work = layout  # the data's own blocks: no exchange
        else:
            count = min(tiles, rows // chunk)
            work = balanced_tile_map(rows * inner, count, inner) if count >= 2 else None
        if work is not None:
            count = work.num_blocks()
            split = (
                fold_steps(inner, ceil(rows / count), per_worker, workers) + LEVEL_OVERHEAD
                + final_steps(count * slots, inner)
            )
        if work is None or split >= final_steps(rows, inner):
            if scalar_output or inner == 1:
                owner = output_layout.first_block()
                assert owner is not None
                work = ipu.TileMapAttr([(owner.tile, owner.tile + 1, 1)])
            else:
                work = output_layout if _whole_rows(output_layout, word, inner) else balanced_tile_map(inner, tiles, word)
            out_rule = ipu.WHOLE if scalar_output else ipu.BLOCK
            levels.append(FoldLevel(work, ipu.SliceAttr("columns", inner), (1, rows, None), "outputs", None, out_rule))
            return levels
        levels.append(
            FoldLevel(work, ipu.BLOCK, (1, None, inner), "folded" if per_worker else "outputs", inner * slots,
                      ipu.SliceAttr("partials", inner * slots))
        )
        rows = work.num_blocks() * slots
        layout = None


@dataclass(frozen=True)
class ReductionPlan:
    reduction: ReductionMap
    levels: list[FoldLevel]


def plan_reduction(
    map_op: sd.MapOp, layouts: dict[str, ipu.TileMapAttr], arch: Arch, containers: dict[str, sd.ContainerOp]
) -> ReductionPlan:
    reduction = analyze_reduction(map_op)
    destination = containers[reduction.destination].result.type
    assert isinstance(destination, sd.ArrayType)
    out_bytes = element_type(destination.element_type).bytes  # type: ignore[union-attr]
    input_layout = layouts[reduction.inputs[0]] if reduction.inputs else None
    if not reduction.inputs:
        raise error(map_op, f"map '{map_op.label.data}' reduces no array; its values do not depend on the point")
    levels = plan_levels(
        reduction, arch, out_bytes, input_layout, layouts[reduction.destination], scalar_output=destination.rank == 0
    )
    return ReductionPlan(reduction, levels)


# -- rewriting --------------------------------------------------------------------------------


def reduction_ops(
    map_op: sd.MapOp, plan: ReductionPlan, variable_names: set[str]
) -> tuple[list[ipu.VariableOp], list[ipu.TiledReduceOp]]:
    """The partial-result tensors and the tiled reductions of a planned map (its
    containers are still `sdfg` values: the partition replaces them afterwards)."""
    from ipu_lower.passes.tile_partition import _inline_tasklet, memref_of

    label = map_op.label.data
    ops = list(map_op.body.block.ops)
    accumulate = next(op for op in ops if isinstance(op, sd.AccumulateOp))
    destination = accumulate.container
    kind = plan.reduction.kind
    partial_type = accumulator_type(destination.type.element_type)  # type: ignore[union-attr]
    variables: list[ipu.VariableOp] = []
    reductions: list[ipu.TiledReduceOp] = []
    source: SSAValue | None = None  # the partials of the level before
    for k, level in enumerate(plan.levels):
        if source is None:
            body, ins = _point_body(ops, accumulate, level.in_rule, _inline_tasklet, memref_of)
        else:
            body, ins = _partials_body(source, level.in_rule)
        if level.is_final:
            out: tuple[SSAValue, ipu.SliceAttr] = (destination, level.out_rule)
        else:
            name = _fresh(f"{label}_partials_{k}", variable_names)
            assert level.partials is not None
            memref = MemRefType(partial_type, [level.tile_map.num_blocks() * level.partials])
            variable = ipu.VariableOp(name, memref, level.partial_map())
            variable.result.name_hint = name if SSAValue.is_valid_name(name) else None
            variables.append(variable)
            out = (variable.result, level.out_rule)
        reductions.append(
            ipu.TiledReduceOp(
                label if k == 0 else f"{label}_{k}",
                kind,
                level.tile_map,
                level.fold,
                level.split,
                ins,
                out,
                body,
                accumulate=level.is_final,
            )
        )
        source = out[0]
    return variables, reductions


def _fresh(name: str, taken: set[str]) -> str:
    candidate, n = name, 1
    while candidate in taken:
        candidate = f"{name}_{n}"
        n += 1
    taken.add(candidate)
    return candidate


def _point_body(ops, accumulate, rule, inline_tasklet, memref_of) -> tuple[Region, list[tuple[SSAValue, ipu.SliceAttr]]]:
    """The map's computation at one point: reads become `ipu.access` at the point,
    tasklets are inlined, the accumulated value is yielded."""
    body = Block()
    ins: list[tuple[SSAValue, ipu.SliceAttr]] = []
    current: dict[SSAValue, SSAValue] = {}
    mapping: dict[SSAValue, SSAValue] = {}
    for op in ops:
        if isinstance(op, sd.ReadOp):
            if op.container not in current:
                rank = op.container.type.rank  # type: ignore[union-attr]
                ins.append((op.container, ipu.WHOLE if rank == 0 else rule))
                arg = body.insert_arg(memref_of(op.container.type), len(body.args))
                arg.name_hint = op.container.name_hint
                access = ipu.AccessOp(arg, [0] * rank)
                body.add_op(access)
                current[op.container] = access.result
            mapping[op.result] = current[op.container]
        elif isinstance(op, sd.TaskletOp):
            inline_tasklet(op, body, mapping)
    body.add_op(ipu.YieldOp(mapping[accumulate.value]))
    return Region(body), ins


def _partials_body(source: SSAValue, rule: ipu.SliceAttr) -> tuple[Region, list[tuple[SSAValue, ipu.SliceAttr]]]:
    """The partial results of the level before, read at the point."""
    body = Block(arg_types=[source.type])
    body.args[0].name_hint = source.name_hint
    access = ipu.AccessOp(body.args[0], [0])
    body.add_ops([access, ipu.YieldOp(access.result)])
    return Region(body), [(source, rule)]
