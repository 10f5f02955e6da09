"""sdfg-hoist-reductions: a `Reduce` inside a map, of the box the map's parameters pick,
becomes one reduction before the map.

`for i in dace.map[0:M]: r[i] = np.sum(A[i, :])` imports as a map whose body reduces
`%A[%i:%i + 1, 0:N]` into a transient scalar and reads that scalar. The pass moves the
reduction before the map, over every index of the dimensions the parameters pick (so
that it reads whole rows or columns; results the map does not read are computed too),
into a new transient `<scalar>_all` with one element per picked index, and the map reads
it where the iteration's box was (`sdfg.read %__tmp1_all[%i]`). It applies when

- the reduction stands directly in a map and reduces every dimension of its box;
- each dimension of the input box is either one element at one map parameter
  (`%i + c:%i + c + 1`) or uses no map parameter, and at least one is picked;
- the output is a one-element transient, without update, that nothing but this map
  touches: written by the reduction, read after it.

Other reductions inside maps stay, for sdfg-expand-reductions to report.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.names import UniqueNames
from ipu_lower.passes.sdfg_fuse_maps import walk


@dataclass(frozen=True)
class Hoist:
    """`reduce` leaves `map_op`: it reduces whole extents of the `kept` dimensions of its
    input (each picked at `at[k]`, an expression of the reduce's index operands) into a
    new transient named `name`, which replaces `scalar` in the map's `reads`."""

    reduce: sd.LibraryReduceOp
    map_op: sd.MapOp
    scalar: SSAValue
    kept: list[int]
    at: list[IndexExpr]
    reads: list[sd.ReadOp]
    name: str


def plan_hoists(sdfg_op: sd.SdfgOp) -> list[Hoist]:
    """The reductions of `sdfg_op` that leave their maps (module docstring)."""
    names = container_names(sdfg_op)
    plans = []
    for op in sdfg_op.walk():
        if isinstance(op, sd.LibraryReduceOp) and (plan := _plan(op, names)) is not None:
            plans.append(plan)
    return plans


def _plan(op: sd.LibraryReduceOp, names: UniqueNames) -> Hoist | None:
    map_op = op.parent_op()
    if not isinstance(map_op, sd.MapOp) or op.update is not None:
        return None
    ranges = op.input_ranges()
    if op.axis_list() != list(range(len(ranges))):
        return None
    params = {k for k, v in enumerate(op.indices) if v in map_op.params}
    kept, at = [], []
    for d, (begin, end) in enumerate(ranges):
        used = begin.dims() & params
        if not used:
            continue
        if len(begin.dims()) != 1 or end - begin != IndexExpr.constant(1) or begin.dim_offset(min(used)) is None:
            return None
        kept.append(d)
        at.append(begin)
    scalar = op.out
    ctype = scalar.type
    assert isinstance(ctype, sd.ArrayType)
    owner = scalar.owner
    if not kept or not isinstance(owner, sd.ContainerOp) or owner.transient is None:
        return None
    if any(n != IndexExpr.constant(1) for n in ctype.dims()):
        return None
    reads = []
    for use in scalar.uses:
        user = use.operation
        if user is op:
            continue
        if not isinstance(user, sd.ReadOp) or user.parent_op() is not map_op or not op.is_before_in_block(user):
            return None
        reads.append(user)
    return Hoist(op, map_op, scalar, kept, at, reads, names.unique(f"{owner.container_name.data}_all"))


def container_names(sdfg_op: sd.SdfgOp) -> UniqueNames:
    """Names that no container of `sdfg_op` has (`unique`)."""
    return UniqueNames(tuple(c.container_name.data for c in sdfg_op.containers()))


def add_transient(anchor: Operation, name: str, shape: list[IndexExpr], element: Attribute, rewriter: PatternRewriter) -> SSAValue:
    """A new transient container of the SDFG holding `anchor`, after its containers."""
    sdfg_op = anchor.parent_op()
    while not isinstance(sdfg_op, sd.SdfgOp):
        assert sdfg_op is not None
        sdfg_op = sdfg_op.parent_op()
    container = sd.ContainerOp(name, sd.ArrayType(shape, element), transient=True)
    container.result.name_hint = name
    rewriter.insert(container, InsertPoint.after(sdfg_op.containers()[-1]))
    return container.result


@dataclass
class _Hoist(RewritePattern):
    plans: dict[sd.LibraryReduceOp, Hoist]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.LibraryReduceOp, rewriter: PatternRewriter) -> None:
        if (plan := self.plans.pop(op, None)) is None:
            return
        ctype = op.input.type
        assert isinstance(ctype, sd.ArrayType)
        shape = ctype.dims()
        zero = IndexExpr.constant(0)
        whole = [(zero, shape[d]) if d in plan.kept else r for d, r in enumerate(op.input_ranges())]
        indices, in_ranges = sd.access_ranges(list(op.indices), whole)
        results = add_transient(op, plan.name, [shape[d] for d in plan.kept], op.element(), rewriter)
        hoisted = sd.LibraryReduceOp(
            op.label.data, op.kind.data, op.input, in_ranges, results,
            [(zero, shape[d]) for d in plan.kept], [d for d in range(len(shape)) if d not in plan.kept],
            indices, op.identity, padded=op.padded is not None,
        )
        rewriter.insert(hoisted, InsertPoint.before(plan.map_op))
        for read in plan.reads:
            rewriter.replace(read, sd.ReadOp(results, *sd.access_operands(list(op.indices), plan.at)))
        rewriter.erase(op)
        container = plan.scalar.owner
        assert isinstance(container, sd.ContainerOp)
        if not plan.scalar.uses:
            rewriter.erase(container)


@dataclass(frozen=True)
class SdfgHoistReductionsPass(ModulePass):
    """Reductions inside maps of the box the parameters pick run once before the map."""

    name = "sdfg-hoist-reductions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        plans = {p.reduce: p for s in op.walk() if isinstance(s, sd.SdfgOp) for p in plan_hoists(s)}
        if plans:
            walk([_Hoist(plans)]).rewrite_module(op)
