"""sdfg-write-in-place: a map that fills a transient only to copy it into a container
writes that container directly.

DaCe spells `y[:] = a * x + y` as a map writing a transient T, then `sdfg.copy` of T
into y. When T is written only by that map (at the iteration point, over all of T),
read only by the copy (whole T to the whole of a container Y of the same shape),
nothing between the map and the copy touches Y or T, and the map accesses Y only at
the point and not after its first write of T, the map writes Y instead of T: each
element of Y gets its new value in the iteration that computed it, which reads only
that element of Y. The copy and T go away. A rank-0 T written by one memlet outside
maps is handled the same way. `plan_in_place` decides, as plain data; one pattern per
copy applies it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.passes.sdfg_fuse_maps import accesses, at_point, is_flat_map, walk


@dataclass(frozen=True)
class InPlaceWrite:
    """`writer` (a map, or a memlet outside maps) writes `target` instead of `transient`,
    and `copy` (of `transient` into `target`) is erased."""

    copy: sd.CopyOp
    writer: sd.MapOp | sd.WriteOp
    transient: str
    target: str


def plan_in_place(sdfg_op: sd.SdfgOp) -> list[InPlaceWrite]:
    """Every copy of `sdfg_op` whose source may be written in place, at most one per
    target container (so that the rewrites do not interact)."""
    plans: list[InPlaceWrite] = []
    for state in sdfg_op.walk():
        if not isinstance(state, sd.StateOp):
            continue
        ops = list(state.body.block.ops)
        for position, op in enumerate(ops):
            if not isinstance(op, sd.CopyOp) or (plan := _plan_copy(op, ops[:position])) is None:
                continue
            if all(p.target != plan.target for p in plans):
                plans.append(plan)
    return plans


def _plan_copy(copy: sd.CopyOp, before: list[Operation]) -> InPlaceWrite | None:
    """The in-place write for `copy`, given the ops of its state that precede it."""
    source, target = copy.source, copy.destination
    stype, ttype = source.type, target.type
    assert isinstance(stype, sd.ArrayType) and isinstance(ttype, sd.ArrayType)
    transient_op = source.owner
    assert isinstance(transient_op, sd.ContainerOp)
    if transient_op.transient is None or source is target or stype.dims() != ttype.dims():
        return None
    if not (_whole(copy.source_ranges(), stype) and _whole(copy.destination_ranges(), ttype)):
        return None
    other_uses = [use.operation for use in source.uses if use.operation is not copy]
    if not other_uses or not all(isinstance(u, sd.WriteOp) and u.container is source for u in other_uses):
        return None  # read by something else than the copy, or never written
    writer = _sole_writer(other_uses, before)  # type: ignore[arg-type]
    if writer is None:
        return None
    between = before[before.index(writer) + 1 :]
    names = {sd.container_name(source), sd.container_name(target)}
    for op in between:
        reads, writes = accesses(op)
        if names & (reads | writes):
            return None
    if isinstance(writer, sd.MapOp) and not _map_may_write(writer, source, target):
        return None
    return InPlaceWrite(copy, writer, sd.container_name(source), sd.container_name(target))


def _whole(ranges: list[sd.Range], ctype: sd.ArrayType) -> bool:
    return all(b == IndexExpr.constant(0) and e == d for (b, e), d in zip(ranges, ctype.dims(), strict=True))


def _sole_writer(writes: list[sd.WriteOp], before: list[Operation]) -> sd.MapOp | sd.WriteOp | None:
    """The one top-level op of `before` all of `writes` belong to: a flat map, or (for a
    rank-0 container) a single memlet outside maps."""
    parents = {w.parent_op() for w in writes}
    if len(parents) != 1:
        return None
    (parent,) = parents
    if isinstance(parent, sd.StateOp):
        if len(writes) != 1 or writes[0] not in before or writes[0].container.type.rank != 0:  # type: ignore[union-attr]
            return None
        return writes[0]
    if parent in before and is_flat_map(parent):
        return parent  # type: ignore[return-value]
    return None


def _map_may_write(map_op: sd.MapOp, transient: SSAValue, target: SSAValue) -> bool:
    """`map_op` writes all of `transient` at the point, accesses `target` only at the
    point, and not after its first write of `transient`."""
    ctype = transient.type
    assert isinstance(ctype, sd.ArrayType)
    zero, one = IndexExpr.constant(0), IndexExpr.constant(1)
    if map_op.ranges() != [(zero, d, one) for d in ctype.dims()]:
        return False  # the map must cover every element of the transient
    written = False
    for op in map_op.body.block.ops:
        if not isinstance(op, sd.ReadOp | sd.WriteOp):
            continue
        if op.container is transient:
            if not at_point(op, map_op.params):
                return False
            written = True
        elif op.container is target and (written or not at_point(op, map_op.params)):
            return False
    return True


@dataclass
class _WriteInPlace(RewritePattern):
    plans: dict[sd.CopyOp, InPlaceWrite]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.CopyOp, rewriter: PatternRewriter) -> None:
        if (plan := self.plans.pop(op, None)) is None:
            return
        transient, target = op.source, op.destination
        writes = [plan.writer] if isinstance(plan.writer, sd.WriteOp) else list(plan.writer.body.block.ops)
        for write in writes:
            if isinstance(write, sd.WriteOp) and write.container is transient:
                new = sd.WriteOp(write.value, target, write.indices, write.subset_exprs())
                new.attributes.update(write.attributes)
                rewriter.replace(write, new)
        rewriter.erase(op)
        container = transient.owner
        assert isinstance(container, sd.ContainerOp) and not transient.uses
        rewriter.erase(container)


@dataclass(frozen=True)
class SdfgWriteInPlacePass(ModulePass):
    """Maps that fill a transient only to copy it into a container write it directly."""

    name = "sdfg-write-in-place"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        plans = {p.copy: p for s in op.walk() if isinstance(s, sd.SdfgOp) for p in plan_in_place(s)}
        if plans:
            walk([_WriteInPlace(plans)]).rewrite_module(op)
