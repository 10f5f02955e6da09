"""sdfg-fuse-maps: fuse chains of elementwise maps of a state into one map, then drop
the transients nothing reads any more.

Planning comes first, as plain data. Each top-level op of a state is summarized as a
`Step` (the containers it reads and writes, and for a map whose body is memlets and
tasklets only, its iteration space and the containers it accesses away from the
iteration point); `plan_fusion` then decides, in one pass over the steps, which maps
fuse into which earlier map (`can_fuse` states the rule). A map C fuses into an earlier
map P when both have the same iteration space, every container through which they
interact (P writes and C reads or writes it, or P reads and C writes it) is accessed at
the iteration point only, or, when one of them accesses it elsewhere, each write of
one and access of the other are of the same point's element or never meet (rows a loop
variable keeps apart: `A[i - 1, j]` and `A[i, j]`; see `_independent`), and no op
between them writes what C touches or reads what
C writes, so that C can move up next to P, and the fused map writes arrays of one shape
once the transients it no longer needs are gone. Maps writing scalars are never fused.

Memlets and tasklets outside maps (scalar computations) first move up as far as their
values and containers allow (`scalars_first`), so that a constant DaCe computes between
two maps does not keep them apart.

The fused map is P's body followed by C's, C's parameters replaced by P's; a read in
the C part of a container written at the point earlier in the fused body takes the
written value instead (store-to-load forwarding). Then every transient that nothing
reads any more loses its writes, with the tasklets and reads that only fed them, and
is erased (`dead_transients`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.passes.tile_partition_points import point_offsets

Space = tuple[tuple[IndexExpr, IndexExpr, IndexExpr], ...]


# -- what ops touch ------------------------------------------------------------------------


def at_point(op: sd.ReadOp | sd.WriteOp, params: Sequence[SSAValue]) -> bool:
    """Whether `op` accesses exactly the iteration point: `x[i, j]` in a map over (i, j)."""
    rank = op.container.type.rank  # type: ignore[union-attr]
    return 0 < rank == len(params) and point_offsets(op, tuple(params)) == [0] * rank


def accesses(op: Operation) -> tuple[set[str], set[str]]:
    """The containers `op` (and the ops nested in it) reads and writes. A container used
    by any other kind of op counts as both read and written."""
    reads: set[str] = set()
    writes: set[str] = set()
    for inner in op.walk():
        if isinstance(inner, sd.ReadOp):
            reads.add(sd.container_name(inner.container))
        elif isinstance(inner, sd.WriteOp):
            writes.add(sd.container_name(inner.container))
        elif isinstance(inner, sd.CopyOp):
            reads.add(sd.container_name(inner.source))
            writes.add(sd.container_name(inner.destination))
        else:
            for value in inner.operands:
                if isinstance(value.owner, sd.ContainerOp):
                    reads.add(sd.container_name(value))
                    writes.add(sd.container_name(value))
    return reads, writes


def is_flat_map(op: Operation) -> bool:
    """A map whose body is memlets, tasklets and `sdfg.apply` only and uses no value from
    outside it other than containers and loop variables (the same in the whole state),
    so that it can move within its state."""
    if not isinstance(op, sd.MapOp):
        return False
    if any(not isinstance(inner, sd.ReadOp | sd.WriteOp | sd.TaskletOp | sd.ApplyOp) for inner in op.body.block.ops):
        return False
    return all(
        isinstance(value.owner, sd.ContainerOp) or _defined_in(value, op) or _is_loop_variable(value)
        for inner in op.walk()
        if inner is not op
        for value in inner.operands
    )


def _is_loop_variable(value: SSAValue) -> bool:
    return isinstance(value, BlockArgument) and isinstance(value.block.parent_op(), sd.ForOp)


def _defined_in(value: SSAValue, op: Operation) -> bool:
    if isinstance(value, OpResult):
        return op.is_ancestor(value.op)
    assert isinstance(value, BlockArgument)
    parent = value.block.parent_op()
    return parent is not None and op.is_ancestor(parent)


# -- planning ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One top-level op of a state, as fusion sees it: the containers it reads and
    writes; for a map that may fuse, its iteration space (else None) and the containers
    it accesses somewhere other than at the iteration point."""

    reads: frozenset[str]
    writes: frozenset[str]
    space: Space | None = None
    off_point: frozenset[str] = field(default_factory=frozenset)
    written_shapes: frozenset[tuple[str, tuple[IndexExpr, ...]]] = field(default_factory=frozenset)
    """The arrays the map writes, with their shapes (see `one_written_shape`)."""
    subsets: frozenset[tuple[str, bool, tuple[IndexExpr, ...]]] = field(default_factory=frozenset)
    """Each access of an array (container, whether it writes, `canonical` subset)."""
    schedule: str | None = None
    """The map's DaCe schedule: maps fuse only with maps of the same."""

    def touches(self) -> frozenset[str]:
        return self.reads | self.writes


def summarize(op: Operation) -> Step:
    """The `Step` of a top-level op of a state."""
    reads, writes = accesses(op)
    if not is_flat_map(op):
        return Step(frozenset(reads), frozenset(writes))
    assert isinstance(op, sd.MapOp)
    off_point: set[str] = set()
    shapes: set[tuple[str, tuple[IndexExpr, ...]]] = set()
    subsets: set[tuple[str, bool, tuple[IndexExpr, ...]]] = set()
    for inner in op.body.block.ops:
        if isinstance(inner, sd.WriteOp):
            shapes.add((sd.container_name(inner.container), tuple(inner.container.type.dims())))  # type: ignore[union-attr]
        if isinstance(inner, sd.ReadOp | sd.WriteOp):
            subsets.add((sd.container_name(inner.container), isinstance(inner, sd.WriteOp), canonical(inner, op.params)))
        if isinstance(inner, sd.ReadOp | sd.WriteOp) and not at_point(inner, op.params):
            if isinstance(inner, sd.WriteOp) and inner.container.type.rank == 0:  # type: ignore[union-attr]
                return Step(frozenset(reads), frozenset(writes))  # writes a scalar: never fused
            off_point.add(sd.container_name(inner.container))
    return Step(
        frozenset(reads), frozenset(writes), tuple(op.ranges()), frozenset(off_point), frozenset(shapes),
        frozenset(subsets), op.schedule.data if op.schedule is not None else None,
    )


_PARAMETER = "__fuse_p"
"""The symbols `canonical` names map parameters by (no SDFG symbol starts so)."""


def canonical(op: sd.ReadOp | sd.WriteOp, params: Sequence[SSAValue]) -> tuple[IndexExpr, ...]:
    """The subset of an access with the map's parameters as symbols `__fuse_p0`, ...
    (by position, so that maps over one space compare) and loop variables as symbols of
    their own (the same in the whole state)."""
    names = {
        d: IndexExpr.symbol(f"{_PARAMETER}{list(params).index(index)}" if index in params else f"__fuse_v{id(index)}")
        for d, index in enumerate(op.indices)
    }
    return tuple(e.substitute(dims=names) for e in op.subset_exprs())


def _uses_parameter(e: IndexExpr) -> bool:
    return any(s.startswith(_PARAMETER) for s in e.symbols())


def _same_point(a: tuple[IndexExpr, ...], b: tuple[IndexExpr, ...], params: int) -> bool:
    """Whether two accesses of a row a loop variable picks are of one element, the same
    point's, and no other point's: equal subsets in which each parameter indexes a
    dimension of its own (plus a constant) and some other dimension uses none. (Off
    the point of an array the parameters index whole, the fused map would write at two
    offsets, which ipu-tile-partition does not place.)"""
    if any((x - y).constant_value() != 0 for x, y in zip(a, b)) or all(map(_uses_parameter, a)):
        return False
    indexed = []
    for e in a:
        if _uses_parameter(e):
            k = next((k for k in range(params) if (e - IndexExpr.symbol(f"{_PARAMETER}{k}")).constant_value() is not None), None)
            if k is None:
                return False
            indexed.append(k)
    return sorted(indexed) == list(range(params))


def _disjoint(a: tuple[IndexExpr, ...], b: tuple[IndexExpr, ...]) -> bool:
    """Whether no point's access `a` meets any point's access `b`: in some dimension
    neither uses a parameter and they differ by a constant (rows i and i - 1)."""
    return any(
        not _uses_parameter(x) and not _uses_parameter(y) and (x - y).constant_value() not in (None, 0)
        for x, y in zip(a, b)
    )


def _independent(name: str, p: Step, c: Step) -> bool:
    """Whether fusing `c` into `p` keeps what each reads and writes of `name`: every
    write of one and access of the other are of the same point's element, or never meet."""
    params = len(p.space or ())
    ours = [(w, s) for n, w, s in p.subsets if n == name]
    theirs = [(w, s) for n, w, s in c.subsets if n == name]
    if not ours or not theirs:
        return False  # a step that does not say how it accesses the container
    return all(
        _same_point(a, b, params) or _disjoint(a, b) for wa, a in ours for wb, b in theirs if wa or wb
    )


def can_fuse(p: Step, c: Step, between_reads: frozenset[str], between_writes: frozenset[str]) -> bool:
    """Whether map `c` may fuse into the earlier map `p`, the ops between them reading
    and writing `between_reads` and `between_writes`."""
    if p.space is None or c.space is None or p.space != c.space or p.schedule != c.schedule:
        return False
    shared = (p.writes & c.touches()) | (p.reads & c.writes)
    if any(not _independent(name, p, c) for name in shared & (p.off_point | c.off_point)):
        return False
    return not (between_writes & c.touches() or between_reads & c.writes)


def one_written_shape(p: Step, c: Step, group_reads: Counter[str], readers: dict[str, int]) -> bool:
    """Whether the map of `c` fused into `p` writes arrays of one shape, as a map must
    (their layout places its work in ipu-tile-partition), once the transients it no
    longer needs are gone: those whose every reader (`readers` counts the ops that read
    each transient; `group_reads`, those of them fused into `p`) is in the fused map,
    reading them at the point, where the written value is forwarded."""
    reads = group_reads + Counter(c.reads)
    off = p.off_point | c.off_point
    live = {
        shape
        for name, shape in p.written_shapes | c.written_shapes
        if name not in readers or name in off or reads[name] < readers[name]
    }
    return len(live) <= 1


def fused(p: Step, c: Step) -> Step:
    """The step of `c` fused into `p`: c's reads of what p writes are forwarded."""
    return Step(
        p.reads | (c.reads - p.writes),
        p.writes | c.writes,
        p.space,
        p.off_point | c.off_point,
        p.written_shapes | c.written_shapes,
        p.subsets | c.subsets,
        p.schedule,
    )


def plan_fusion(steps: Sequence[Step], readers: dict[str, int] | None = None) -> list[list[int]]:
    """Groups of step indices to fuse, each its first map followed by the maps fused into
    it in order; steps that stay alone are left out. `readers` counts the ops of the
    SDFG that read each transient (see `one_written_shape`).

    Each map fuses into the nearest earlier (possibly already fused) map it may. One
    pass suffices: fusing only grows what a map shares with others, so a map that cannot
    fuse now cannot later."""
    items: list[tuple[list[int], Step, Counter[str]]] = []
    for index, step in enumerate(steps):
        target = _fusion_target(items, step, readers or {})
        if target is None:
            items.append(([index], step, Counter(step.reads)))
        else:
            members, info, reads = items[target]
            items[target] = (members + [index], fused(info, step), reads + Counter(step.reads))
    return [members for members, _, _ in items if len(members) > 1]


def _fusion_target(items: list[tuple[list[int], Step, Counter[str]]], step: Step, readers: dict[str, int]) -> int | None:
    if step.space is None:
        return None
    between_reads: frozenset[str] = frozenset()
    between_writes: frozenset[str] = frozenset()
    for k in range(len(items) - 1, -1, -1):
        _, info, reads = items[k]
        if can_fuse(info, step, between_reads, between_writes) and one_written_shape(info, step, reads, readers):
            return k
        between_reads |= info.reads
        between_writes |= info.writes
        if between_writes & step.touches() or between_reads & step.writes:
            return None  # this op stays between `step` and every earlier map
    return None


def scalars_first(ops: Sequence[Operation]) -> list[Operation]:
    """The ops of a state with each memlet and tasklet outside maps moved up past every
    op it neither uses a value of nor conflicts with on a container. DaCe computes the
    constants of an expression (`dace.float32(0.2)`) just before the map that uses
    them, which would otherwise keep that map from moving up to fuse with the map
    producing its other input. The reads just before a tasklet that only it uses move
    with it, so that no read is left in an earlier step than its tasklet."""
    touched = {op: accesses(op) for op in ops}
    units: list[list[Operation]] = []
    for op in ops:
        unit = [op]
        if isinstance(op, sd.TaskletOp):
            while units and len(units[-1]) == 1 and _read_only_for(units[-1][0], op):
                unit.insert(0, units.pop()[0])
        units.append(unit)
    order: list[list[Operation]] = []
    for unit in units:
        position = len(order)
        if isinstance(unit[-1], sd.ReadOp | sd.TaskletOp | sd.WriteOp):
            while position and not any(_must_follow(op, e, touched) for op in unit for e in order[position - 1]):
                position -= 1
        order.insert(position, unit)
    return [op for unit in order for op in unit]


def _read_only_for(op: Operation, tasklet: sd.TaskletOp) -> bool:
    return isinstance(op, sd.ReadOp) and all(use.operation is tasklet for use in op.result.uses)


def _must_follow(op: Operation, earlier: Operation, touched: dict[Operation, tuple[set[str], set[str]]]) -> bool:
    if any(isinstance(v, OpResult) and v.op is earlier for v in op.operands):
        return True
    (reads, writes), (earlier_reads, earlier_writes) = touched[op], touched[earlier]
    return bool(earlier_writes & (reads | writes) or earlier_reads & writes)


def plan_state(
    state: sd.StateOp, readers: dict[str, int] | None = None
) -> tuple[list[Operation], list[list[sd.MapOp]]]:
    """The order of the state's ops (scalars_first) and the maps to fuse in it
    (`readers` as for `plan_fusion`)."""
    ops = scalars_first(list(state.body.block.ops))
    groups = plan_fusion([summarize(op) for op in ops], readers)
    return ops, [[ops[i] for i in group] for group in groups]  # type: ignore[misc]


def transient_readers(sdfg_op: sd.SdfgOp) -> dict[str, int]:
    """How many ops of the SDFG's states read each transient."""
    transients = {c.container_name.data for c in sdfg_op.containers() if c.transient is not None}
    counts: Counter[str] = Counter()
    for state in sdfg_op.walk():
        if isinstance(state, sd.StateOp):
            for op in state.body.block.ops:
                counts.update(accesses(op)[0] & transients)
    return {name: counts[name] for name in transients}


def dead_transients(sdfg_op: sd.SdfgOp) -> list[sd.ContainerOp]:
    """The transients that nothing reads: every use writes them (or there is none)."""
    return [
        op
        for op in sdfg_op.containers()
        if op.transient is not None and all(_writes_to(use.operation, op.result) for use in op.result.uses)
    ]


def _writes_to(op: Operation, container: SSAValue) -> bool:
    if isinstance(op, sd.WriteOp):
        return op.container is container
    return isinstance(op, sd.CopyOp) and op.destination is container and op.source is not container


# -- rewriting -----------------------------------------------------------------------------


def fuse_into(head: sd.MapOp, member: sd.MapOp, rewriter: PatternRewriter) -> None:
    """Append `member`'s body to `head`'s, forwarding the values `head` wrote at the
    point to the reads of them that follow."""
    current: dict[SSAValue, SSAValue] = {}  # container -> its value at the point
    for op in head.body.block.ops:
        if isinstance(op, sd.WriteOp):
            _record(current, op, head.params, track_new=True)
    ops = list(member.body.block.ops)
    rewriter.inline_block(member.body.block, InsertPoint.at_end(head.body.block), head.params)
    rewriter.erase(member)
    for op in ops:
        if isinstance(op, sd.ReadOp) and op.container in current and at_point(op, head.params):
            rewriter.replace_all_uses_with(op.result, current[op.container])
            rewriter.erase(op)
        elif isinstance(op, sd.WriteOp):
            _record(current, op, head.params, track_new=False)


def _record(current: dict[SSAValue, SSAValue], op: sd.WriteOp, params, track_new: bool) -> None:
    if not track_new and op.container not in current:
        return
    if at_point(op, params):
        current[op.container] = op.value
    else:
        current.pop(op.container, None)


def erase_dead(op: Operation, rewriter: PatternRewriter) -> None:
    """Erase `op`, then the tasklets and reads that only fed it, and maps left empty."""
    operands = list(op.operands)
    parent = op.parent_op()
    rewriter.erase(op)
    for value in operands:
        owner = value.owner
        if isinstance(owner, sd.TaskletOp | sd.ReadOp) and all(not r.uses for r in owner.results):
            erase_dead(owner, rewriter)
    if isinstance(parent, sd.MapOp) and parent.parent is not None and not parent.body.block.ops:
        erase_dead(parent, rewriter)


@dataclass
class _FuseMaps(RewritePattern):
    plans: dict[sd.StateOp, tuple[list[Operation], list[list[sd.MapOp]]]]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.StateOp, rewriter: PatternRewriter) -> None:
        if op not in self.plans:
            return
        order, groups = self.plans.pop(op)
        block = op.body.block
        if order != list(block.ops):
            for inner in order:
                inner.detach()
                rewriter.insert(inner, InsertPoint.at_end(block))
        for head, *members in groups:
            for member in members:
                fuse_into(head, member, rewriter)


@dataclass
class _EraseDeadTransient(RewritePattern):
    dead: set[sd.ContainerOp]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.ContainerOp, rewriter: PatternRewriter) -> None:
        if op not in self.dead:
            return
        for use in list(op.result.uses):
            if use.operation.parent is not None:
                erase_dead(use.operation, rewriter)
        rewriter.erase(op)


@dataclass(frozen=True)
class SdfgFuseMapsPass(ModulePass):
    """Fuse chains of maps of a state into one map, then erase transients nothing reads."""

    name = "sdfg-fuse-maps"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        plans = {
            state: plan
            for sdfg_op in op.walk()
            if isinstance(sdfg_op, sd.SdfgOp)
            for readers in [transient_readers(sdfg_op)]
            for state in sdfg_op.walk()
            if isinstance(state, sd.StateOp)
            and ((plan := plan_state(state, readers))[1] or plan[0] != list(state.body.block.ops))
        }
        if plans:
            walk([_FuseMaps(plans)]).rewrite_module(op)
        dead = {c for s in op.walk() if isinstance(s, sd.SdfgOp) for c in dead_transients(s)}
        if dead:
            walk([_EraseDeadTransient(dead)]).rewrite_module(op)


def walk(patterns: list[RewritePattern]) -> PatternRewriteWalker:
    return PatternRewriteWalker(GreedyRewritePatternApplier(patterns, dce_enabled=False), apply_recursively=False)
