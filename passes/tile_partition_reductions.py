"""The reductions of ipu-tile-partition: a map that accumulates becomes a few tiled
reductions, each one compute set, the first over the map's data and the others over
the partial results of the one before (`ipu_lower.passes.reduction_plan` chooses them).

A map over (p0, ..., pk) that accumulates into `s[pa, ..., pb]` (the parameters it keeps,
in order) reduces the parameters between: its points are the row-major box O x R x I
(O: the product of the ranges before the reduced ones, R: of the reduced ones, I: after)
and its O x I results go to consecutive elements of s. An input is read at the point
(an array of the box's shape) or through a view of the box's shape (`x[j]` broadcast
over the rows of `A[i, j]` in `y[i] += A[i, j] * x[j]`, `A[i, k]` and `B[k, j]` in DaCe's
expansion of a matrix product; see `tile_partition_views`): the view brings each vertex
the elements of its block through the exchange. `analyze_reduction` checks that
and measures it; `plan_reduction` plans its levels with the cost model's estimate of
each level's codelet (`FoldCosts`); `reduction_ops` builds them. Partial results are
32-bit (see `ipu_lower.dialects.reduction`), so workers and vertices write whole words;
the final level writes s with `accumulate`: the value s held before takes part, as
DaCe's write-conflict resolution requires, and its blocks of s hold whole 32-bit words.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, MemRefType
from xdsl.ir import Block, Operation, Region, SSAValue

from ipu_lower.arch import Arch
from ipu_lower.diagnostics import error
from ipu_lower.dialects import ipu
from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.dialects.reduction import accumulator_type, identity
from ipu_lower.element_types import element_type, is_unsigned, signless
from ipu_lower.passes.reduction_plan import FoldLevel, FoldProblem, ReductionMap, plan_levels
from ipu_lower.passes.tile_partition_points import inline_tasklet, memref_of, point_offsets, static_ranges
from ipu_lower.passes.tile_partition_views import PointFrame, ViewKey, plan_view
from ipu_lower.passes.vertex_extraction_reductions import fold_codelet_body, plan_fold_signature

if TYPE_CHECKING:
    from ipu_lower.cost_model import VertexCost


def is_reduction_map(op: Operation) -> bool:
    """Whether `op` is a map that accumulates and runs some iteration (one that runs
    none changes nothing and is erased like any other)."""
    if not isinstance(op, sd.MapOp) or not any(isinstance(inner, sd.AccumulateOp) for inner in op.body.block.ops):
        return False
    sizes = [(hi - lo).constant_value() for lo, hi, _ in op.ranges()]
    return not any(size is not None and size <= 0 for size in sizes)


def _static_bounds(map_op: sd.MapOp) -> list[int]:
    label = map_op.label.data
    bounds = []
    for lo, hi, st in static_ranges(map_op):
        if lo != 0 or st != 1:
            raise error(
                map_op, f"map '{label}' ranges must start at 0 with step 1 for now (got {lo} to {hi} step {st})"
            )
        bounds.append(hi)
    return bounds


def analyze_reduction(map_op: sd.MapOp) -> ReductionMap:
    """Check that `map_op` is a reduction the partition supports and measure it."""
    from ipu_lower.passes.tile_partition import describe_access

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
    views = reduction_views(map_op)
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
        if isinstance(op, sd.ApplyOp):
            raise error(
                op,
                f"{what} accumulates and computes with its parameters (a tasklet that reads one, or the guard "
                "sdfg-collapse-maps puts on a range that depends on an enclosing map); not supported yet",
            )
        if not isinstance(op, sd.ReadOp):
            raise error(op, f"'{op.name}' inside {what} is not supported yet")
        name = sd.container_name(op.container)
        if op.container is accumulate.container:
            raise error(op, f"{what} reads '{describe_access(op)}', which it accumulates into")
        ctype = op.container.type
        assert isinstance(ctype, sd.ArrayType)
        if ctype.rank == 0 or op in views:
            continue
        if ctype.static_shape() != tuple(bounds) or point_offsets(op, map_op.params) != [0] * len(bounds):
            raise error(
                op,
                f"{what} reads '{describe_access(op)}'; a reduction reads its inputs at the iteration point "
                "or through a view (a row, column, transpose or broadcast) of the iteration's shape",
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
        tuple(dict.fromkeys(views.values())),
    )


def reduction_views(map_op: sd.MapOp) -> dict[sd.ReadOp, ViewKey]:
    """The reads of `map_op` (a reduction) through a view of the iteration box's shape,
    at the point; other reads are left to `analyze_reduction`."""
    from ipu_lower.passes.tile_partition import describe_access

    bounds = [hi for _, hi, _ in static_ranges(map_op)]
    rank = len(bounds)
    frame = PointFrame(tuple(bounds), tuple(range(rank)), (0,) * rank, tuple((0, n) for n in bounds))
    views: dict[sd.ReadOp, ViewKey] = {}
    for op in map_op.body.block.ops:
        if not isinstance(op, sd.ReadOp) or op.container.type.rank == 0:  # type: ignore[union-attr]
            continue
        shape = op.container.type.static_shape()  # type: ignore[union-attr]
        if shape == tuple(bounds) and point_offsets(op, map_op.params) == [0] * rank:
            continue  # at the point
        view = plan_view(
            f"map '{map_op.label.data}'", describe_access, op, map_op.params, [(0, n) for n in bounds], frame, shape
        )
        if view is not None and not any(view[1]):
            views[op] = view[0]
    return views


def _param_name(map_op: sd.MapOp, k: int) -> str:
    return map_op.params[k].name_hint or f"d{k}"


def _kept_parameters(map_op: sd.MapOp, accumulate: sd.AccumulateOp, bounds: list[int]) -> list[int]:
    """The positions of the map parameters that index the destination: its element is
    `s.flat[p_a * (n_b ... ) + ... + p_b]`, the kept parameters row-major from element 0."""
    from ipu_lower.passes.tile_partition import describe_access

    ctype = accumulate.container.type
    assert isinstance(ctype, sd.ArrayType)
    shape = ctype.static_shape()
    assert shape is not None  # plan_layouts checked every container
    params = map_op.params
    assert all(index in params for index in accumulate.indices)  # a map's body holds no other index values
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
class ReductionPlan:
    reduction: ReductionMap
    levels: list[FoldLevel]
    init: tuple[Operation, ...] = ()
    """the ops before the map that wrote the identity into its destination: they go"""


class FoldCosts:
    """The planner's vertex estimates (`VertexCycles`): the cost model on the fold
    codelet ipu-vertex-extraction builds for a level of this map, built once per kind
    of level and evaluated for each block size."""

    def __init__(self, map_op: sd.MapOp, destination: sd.ArrayType, arch: Arch):
        self.ops = list(map_op.body.block.ops)
        self.accumulate = next(op for op in self.ops if isinstance(op, sd.AccumulateOp))
        self.kind = self.accumulate.kind.data
        self.destination = destination
        self.arch = arch
        self.costs: dict[tuple, tuple[VertexCost, list[ipu.SliceAttr]]] = {}

    def __call__(self, level: FoldLevel, count: int, elements: int) -> int:
        key = (level.first, level.split, level.fold, level.in_rule, level.out_rule, level.partials, level.accumulate)
        if key not in self.costs:
            self.costs[key] = self._codelet_cost(level)
        cost, rules = self.costs[key]
        results = self.destination.static_shape() or (1,)
        sizes = [rule.slice_size(count, elements if rule == level.in_rule else 1) for rule in rules[:-1]]
        sizes.append(level.out_rule.slice_size(count, prod(results)))
        return cost.cycles(sizes, self.arch.workers_per_tile)

    def _codelet_cost(self, level: FoldLevel) -> tuple[VertexCost, list[ipu.SliceAttr]]:
        from ipu_lower.cost_model import VertexCost  # imported when used: the cost model needs numpy, most of the time of ipu-opt --help

        def detached(name: str, memref: MemRefType) -> SSAValue:
            return ipu.VariableOp(name, memref, SCALAR_TILE).result

        partial = MemRefType(accumulator_type(self.destination.element_type), [1])
        if level.first:
            body, ins = _point_body(self.ops, self.accumulate, level.in_rule, {})
            ins = [(detached(f"in{k}", memref_of(value.type)), rule) for k, (value, rule) in enumerate(ins)]
        else:
            body, ins = _partials_body(detached("partials", partial), level.in_rule)
        out = detached("out", memref_of(self.destination) if level.is_final else partial)
        op = _level_op("estimate", self.kind, level, ins, (out, level.out_rule), body)
        signature = plan_fold_signature(op, ())
        return VertexCost(fold_codelet_body(op, signature, self.arch.workers_per_tile, self.arch.data_path_bytes).block), signature.rules


SCALAR_TILE = ipu.TileMapAttr([(0, 1, 1)])


def reduction_problem(
    map_op: sd.MapOp, layouts: dict[str, ipu.TileMapAttr], arch: Arch, containers: dict[str, sd.ContainerOp]
) -> tuple[FoldProblem, FoldCosts]:
    """What planning `map_op`'s levels depends on, and the estimates of their vertices."""
    reduction = analyze_reduction(map_op)
    if not reduction.inputs and not reduction.views:
        raise error(map_op, f"map '{map_op.label.data}' reduces no array; its values do not depend on the point")
    destination = containers[reduction.destination].result.type
    assert isinstance(destination, sd.ArrayType)

    def element_bytes(names) -> int:
        return sum(element_type(containers[n].result.type.element_type).bytes for n in names)  # type: ignore[union-attr]

    problem = FoldProblem(
        reduction,
        arch,
        in_bytes=element_bytes(reduction.inputs),
        partial_bytes=element_type(accumulator_type(destination.element_type)).bytes,  # type: ignore[union-attr]
        out_bytes=element_type(destination.element_type).bytes,  # type: ignore[union-attr]
        input_layout=layouts[reduction.inputs[0]] if reduction.inputs else None,
        output_layout=layouts[reduction.destination],
        scalar_output=destination.rank == 0,
        overwrite=bool(identity_init(map_op, reduction)),
        view_bytes=element_bytes(key.container for key in reduction.views),
    )
    return problem, FoldCosts(map_op, destination, arch)


def plan_reduction(
    map_op: sd.MapOp, layouts: dict[str, ipu.TileMapAttr], arch: Arch, containers: dict[str, sd.ContainerOp]
) -> ReductionPlan:
    problem, costs = reduction_problem(map_op, layouts, arch, containers)
    return ReductionPlan(problem.reduction, plan_levels(problem, costs), identity_init(map_op, problem.reduction))


def identity_init(map_op: sd.MapOp, reduction: ReductionMap) -> tuple[Operation, ...]:
    """The ops just before `map_op` in its state that write the reduction's identity into
    all of its destination (how the importer starts a `Reduce` or `Dot`: a tasklet and its
    write, or a map of them over the destination), or none. The final level may then
    write the destination without reading it, and the ops go: one compute set less."""
    previous = map_op.prev_op
    if isinstance(previous, sd.WriteOp):
        tasklet, write, init = previous.prev_op, previous, (previous.prev_op, previous)
    elif isinstance(previous, sd.MapOp) and len(previous.body.block.ops) == 2:
        tasklet, write = previous.body.block.ops
        init = (previous,)
    else:
        return ()
    if not (
        isinstance(tasklet, sd.TaskletOp)
        and not tasklet.inputs
        and isinstance(write, sd.WriteOp)
        and write.value is tasklet.outputs[0]
        and write.value.has_one_use()
        and sd.container_name(write.container) == reduction.destination
        and prod(write.container.type.static_shape() or ()) == reduction.results  # type: ignore[union-attr]
        and (isinstance(previous, sd.WriteOp) or _writes_all_of(previous, write))  # type: ignore[arg-type]
    ):
        return ()
    return init if _yields_identity(tasklet, reduction.kind) else ()


def _writes_all_of(init_map: sd.MapOp, write: sd.WriteOp) -> bool:
    """Whether `init_map` writes every element of `write`'s container, at its point."""
    bounds = [(lo.constant_value(), hi.constant_value(), st.constant_value()) for lo, hi, st in init_map.ranges()]
    shape = write.container.type.static_shape()  # type: ignore[union-attr]
    return bounds == [(0, n, 1) for n in shape] and point_offsets(write, init_map.params) == [0] * len(shape)


def _yields_identity(tasklet: sd.TaskletOp, kind: str) -> bool:
    """Whether `tasklet` yields one constant, the identity of `kind` for its type (bit
    for bit: DaCe's max identity for floats is the lowest finite float, not -inf)."""
    constants = [op for op in tasklet.body.block.ops if isinstance(op, arith.ConstantOp)]
    if len(constants) != 1:
        return False
    element = tasklet.outputs[0].type
    value = constants[0].value
    expected = identity(kind, signless(element), is_unsigned(element)).value
    if isinstance(value, IntegerAttr) and isinstance(expected, IntegerAttr):
        width = element.width.data  # type: ignore[attr-defined]
        return value.value.data % 2**width == expected.value.data % 2**width
    return isinstance(value, FloatAttr) and isinstance(expected, FloatAttr) and value.value.data == expected.value.data


# -- rewriting --------------------------------------------------------------------------------


def reduction_ops(
    map_op: sd.MapOp, plan: ReductionPlan, variable_names: set[str], views: dict[sd.ReadOp, SSAValue]
) -> tuple[list[ipu.VariableOp], list[ipu.TiledReduceOp]]:
    """The partial-result tensors and the tiled reductions of a planned map (its
    containers are still `sdfg` values: the partition replaces them afterwards); `views`
    gives the `ipu.view` each view read reads."""
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
        if level.first:
            body, ins = _point_body(ops, accumulate, level.in_rule, views)
        else:
            assert source is not None
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
        reductions.append(_level_op(label if k == 0 else f"{label}_{k}", kind, level, ins, out, body))
        source = out[0]
    return variables, reductions


def _level_op(
    label: str,
    kind: str,
    level: FoldLevel,
    ins: list[tuple[SSAValue, ipu.SliceAttr]],
    out: tuple[SSAValue, ipu.SliceAttr],
    body: Region,
) -> ipu.TiledReduceOp:
    accumulate = level.is_final and level.accumulate
    return ipu.TiledReduceOp(label, kind, level.tile_map, level.fold, level.split, ins, out, body, accumulate)


def _fresh(name: str, taken: set[str]) -> str:
    candidate, n = name, 1
    while candidate in taken:
        candidate = f"{name}_{n}"
        n += 1
    taken.add(candidate)
    return candidate


def _point_body(
    ops: list[Operation], accumulate: sd.AccumulateOp, rule: ipu.SliceAttr, views: dict[sd.ReadOp, SSAValue]
) -> tuple[Region, list[tuple[SSAValue, ipu.SliceAttr]]]:
    """The map's computation at one point: reads (of containers or of the `views` of
    view reads) become `ipu.access` at the point, tasklets are inlined, the accumulated
    value is yielded."""

    body = Block()
    ins: list[tuple[SSAValue, ipu.SliceAttr]] = []
    current: dict[SSAValue, SSAValue] = {}
    mapping: dict[SSAValue, SSAValue] = {}
    for op in ops:
        if isinstance(op, sd.ReadOp):
            source = views.get(op, op.container)
            if source not in current:
                rank = op.container.type.rank  # type: ignore[union-attr]
                ins.append((source, ipu.WHOLE if rank == 0 else rule))
                arg = body.insert_arg(source.type if isinstance(source.type, MemRefType) else memref_of(op.container.type), len(body.args))
                arg.name_hint = op.container.name_hint
                access = ipu.AccessOp(arg, [0] * len(arg.type.get_shape()))  # type: ignore[attr-defined]
                body.add_op(access)
                current[source] = access.result
            mapping[op.result] = current[source]
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
