"""sdfg-dynamic-copies: accesses at loop-variable indices go through buffers and copies.

Poplar plans its exchange when the graph is built, so a vertex can only read data at
places known then; where a loop counter picks the element (`A[i, j]` in a loop nest) or
the row (`A[t, :]` in a map over the row), the data must first move to a known place.
A map or a scalar step (memlets and tasklets outside maps, or the condition of a branch
or loop) that accesses an array so accesses a transient buffer instead: the box the
loop variables select (one index wide in each dimension they index, or that a constant
indexes; in the dimensions the map parameters index, all of the dimension, or, when the
step writes the box, the indices its accesses reach over the map's range where each is
a parameter plus a constant) is copied into the buffer
before the step when the step reads it, and back after the step when it writes it.
These copies are `sdfg.copy` ops whose ranges use the loop variables; ipu-tile-partition
turns them into dynamic slices and updates (poplibs' `dynamicSlice`), so the graph does
not grow with the trip count. A box the step writes but does not cover whole is copied
in first as well, so the copy back keeps the elements the step leaves.

`plan_buffers` decides, per step, as plain data (one buffer per box an array is
accessed at); one pattern per state and condition region applies it. First, a scalar
step that reads an element it has written (`A[i, j] -= s; A[i, j] /= d` in one state)
takes the written value instead (`forward_stores`). Index expressions that mix a loop
variable and a map parameter (`A[t + i]`), and a scalar step reading another element of
an array it accesses this way after writing it, are errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from ipu_lower.diagnostics import error
from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.passes.sdfg_fuse_maps import walk

Access = sd.ReadOp | sd.WriteOp | sd.AccumulateOp
"""A memlet; an accumulation reads the element it combines with and writes it."""


@dataclass
class Buffer:
    """A box of `container` one step accesses through a buffer: `offsets[k]` is the
    index in dimension `dims[k]` (over `indices`), the other dimensions are whole."""

    container: SSAValue
    dims: tuple[int, ...]
    offsets: tuple[IndexExpr, ...]
    indices: tuple[SSAValue, ...]
    accesses: list[Access] = field(default_factory=list)
    covered: bool = False
    """whether the step writes every element of the buffer"""
    window: list[tuple[int, int] | None] = field(default_factory=list)
    """per kept dimension of a buffer the step writes, the [first, end) its accesses
    reach over the map's box, when the bounds are constants and each index is a
    parameter plus a constant (so that the map writes the buffer at the point); None:
    all of the dimension"""

    def read(self) -> bool:
        return any(not isinstance(a, sd.WriteOp) for a in self.accesses)

    def written(self) -> bool:
        return any(not isinstance(a, sd.ReadOp) for a in self.accesses)

    def kept(self) -> list[int]:
        rank = self.container.type.rank  # type: ignore[union-attr]
        return [k for k in range(rank) if k not in self.dims]


@dataclass(frozen=True)
class StepPlan:
    """The buffers of one step: `ops` are its ops, `params` its map's parameters (none
    outside maps)."""

    ops: tuple[Operation, ...]
    buffers: tuple[Buffer, ...]


def _describe(op: Access) -> str:
    names = [v.name_hint or f"d{k}" for k, v in enumerate(op.indices)]
    subset = ", ".join(e.format(lambda d: names[d]) for e in op.subset_exprs())
    return f"{sd.container_name(op.container)}[{subset}]"


def plan_step(ops: Sequence[Operation], params: Sequence[SSAValue], bounds: list[tuple[IndexExpr, IndexExpr]]) -> StepPlan:
    """The buffers of a step over the box `bounds` of `params` (a map), or of a scalar
    step (no `params`)."""
    buffers: dict[tuple, Buffer] = {}
    for op in ops:
        if not isinstance(op, Access) or all(v in params for v in op.indices):
            continue
        dims, offsets = [], []
        for k, e in enumerate(op.subset_exprs()):
            in_map = [op.indices[d] in params for d in e.dims()]
            if any(in_map) and not all(in_map):
                raise error(
                    op,
                    f"index '{e.format(lambda d: op.indices[d].name_hint or f'd{d}')}' of '{_describe(op)}' "
                    "mixes a loop variable and a map parameter; not supported yet",
                )
            if not any(in_map):
                dims.append(k)
                offsets.append(e)
        order = sd.first_use_order(offsets)
        renumber = {d: IndexExpr.dim(n) for n, d in enumerate(order)}
        offsets = [e.substitute(dims=renumber) for e in offsets]
        used = tuple(op.indices[d] for d in order)
        key = (op.container, tuple(dims), tuple(e.key() for e in offsets), used)
        buffer = buffers.setdefault(key, Buffer(op.container, tuple(dims), tuple(offsets), tuple(used)))
        reach = _reach(op, buffer, params, bounds)
        buffer.window = reach if not buffer.accesses else [_union(a, b) for a, b in zip(buffer.window, reach)]
        buffer.accesses.append(op)
    for buffer in buffers.values():
        if not buffer.written():  # read only: all of the dimension, which the map reads like the array
            buffer.window = [None] * len(buffer.window)
        buffer.covered = any(isinstance(a, sd.WriteOp) and _covers(a, buffer, params, bounds) for a in buffer.accesses)
    if not params:
        _check_read_before_write(ops, {b.container for b in buffers.values()})
    return StepPlan(tuple(ops), tuple(buffers.values()))


def _reach(op: Access, buffer: Buffer, params: Sequence[SSAValue], bounds) -> list[tuple[int, int] | None]:
    """Per kept dimension, the indices `op` reaches over the map's box (see `Buffer.window`)."""
    reach: list[tuple[int, int] | None] = []
    for k in buffer.kept():
        e = op.subset_exprs()[k]
        window = None
        if len(e.dims()) == 1:
            (d,) = e.dims()
            shift = (e - IndexExpr.dim(d)).constant_value()
            lo, hi = (b.constant_value() for b in bounds[list(params).index(op.indices[d])])
            if shift is not None and lo is not None and hi is not None and lo < hi:  # not an empty buffer
                window = (lo + shift, hi + shift)
        reach.append(window)
    return reach


def _union(a: tuple[int, int] | None, b: tuple[int, int] | None) -> tuple[int, int] | None:
    return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))


def _covers(write: sd.WriteOp, buffer: Buffer, params: Sequence[SSAValue], bounds) -> bool:
    """Whether `write` stores every element of the buffer: the kept indices are the
    map parameters in order (plus constants), over the whole of the buffer's extent."""
    kept = [write.subset_exprs()[k] for k in buffer.kept()]
    shape = [write.container.type.dims()[k] for k in buffer.kept()]  # type: ignore[union-attr]
    if len(kept) != len(params):
        return False
    reach = _reach(write, buffer, params, bounds)
    for e, param, extent, window, reached, (lo, hi) in zip(kept, params, shape, buffer.window, reach, bounds):
        index = e.substitute(dims={d: IndexExpr.dim(list(params).index(write.indices[d])) for d in e.dims()})
        shift = (index - IndexExpr.dim(list(params).index(param))).constant_value()
        if shift is None or reached != window or (window is None and (shift, lo, hi) != (0, IndexExpr.constant(0), extent)):
            return False
    return True


def _check_read_before_write(ops: Sequence[Operation], buffered: set[SSAValue]) -> None:
    """In a scalar step, an array accessed through a buffer is read before it is written:
    reads see the array as it was, writes leave after the step."""
    written: set[SSAValue] = set()
    for op in ops:
        if isinstance(op, sd.ReadOp | sd.AccumulateOp) and op.container in buffered and op.container in written:
            raise error(
                op,
                f"'{_describe(op)}' is read after '{sd.container_name(op.container)}' is written in the same "
                "step, at an element a loop variable picks; not supported yet",
            )
        if isinstance(op, sd.WriteOp | sd.AccumulateOp):
            written.add(op.container)


def state_plans(state: sd.StateOp) -> list[StepPlan]:
    """The plans of the steps of a state that use buffers: each map, and each run of
    memlets, tasklets and `sdfg.apply` outside maps."""
    plans: list[StepPlan] = []
    run: list[Operation] = []
    for op in [*state.body.block.ops, None]:
        if isinstance(op, Access | sd.TaskletOp | sd.ApplyOp):
            run.append(op)
            continue
        if run:
            plans.append(plan_step(run, (), []))
            run = []
        if isinstance(op, sd.MapOp):
            plans.append(plan_step(list(op.body.block.ops), op.params, [(lo, hi) for lo, hi, _ in op.ranges()]))
    return [p for p in plans if p.buffers]


def forward_stores(state: sd.StateOp) -> None:
    """Each read outside maps of the element a write before it in the same run of
    memlets and tasklets stored, with no other store to its container between, takes
    the stored value."""
    stored: dict[SSAValue, sd.WriteOp] = {}
    for op in list(state.body.block.ops):
        if isinstance(op, sd.ReadOp) and (write := stored.get(op.container)) is not None and _same_element(op, write):
            op.result.replace_all_uses_with(write.value)
            op.detach()
            op.erase()
        elif isinstance(op, sd.WriteOp):
            stored[op.container] = op
        elif isinstance(op, sd.AccumulateOp):
            stored.pop(op.container, None)
        elif not isinstance(op, sd.ReadOp | sd.TaskletOp | sd.ApplyOp):
            stored.clear()  # a map or a copy: the run ends


def _same_element(a: Access, b: Access) -> bool:
    return list(a.indices) == list(b.indices) and [e.key() for e in a.subset_exprs()] == [
        e.key() for e in b.subset_exprs()
    ]


def plan_buffers(sdfg_op: sd.SdfgOp) -> dict[Operation, list[StepPlan]]:
    """The step plans of every state and condition region of `sdfg_op` that has any."""
    plans: dict[Operation, list[StepPlan]] = {}
    for op in sdfg_op.walk():
        if isinstance(op, sd.StateOp):
            found = state_plans(op)
        elif isinstance(op, sd.IfOp | sd.WhileOp):
            found = [p for p in [plan_step(list(op.condition.block.ops)[:-1], (), [])] if p.buffers]
        else:
            continue
        if found:
            plans[op] = found
    return plans


# -- rewriting -----------------------------------------------------------------------------


@dataclass
class _Buffers(RewritePattern):
    """A state or condition region: each planned step gets its buffers (new transients
    after the SDFG's containers), its copies and its accesses redirected."""

    plans: dict[Operation, list[StepPlan]]
    names: set[str]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        for plan in self.plans.pop(op, []):
            first, last = plan.ops[0], plan.ops[-1]
            step = first.parent_op() if isinstance(first.parent_op(), sd.MapOp) else None
            copies_in: list[Operation] = []
            copies_out: list[Operation] = []
            values = [self.buffer(buffer, op, rewriter) for buffer in plan.buffers]
            for buffer, value in zip(plan.buffers, values):
                box, whole = self.ranges(buffer, value)
                if buffer.read() or not buffer.covered:
                    copies_in.append(sd.CopyOp(buffer.container, box, value, whole, buffer.indices))
                if buffer.written():
                    copies_out.append(sd.CopyOp(value, whole, buffer.container, box, buffer.indices))
            rewriter.insert(copies_in, InsertPoint.before(step or first))
            if copies_out:
                rewriter.insert(copies_out, InsertPoint.after(step or last))
            for buffer, value in zip(plan.buffers, values):
                for access in buffer.accesses:
                    self.redirect(access, buffer, value, rewriter)

    def buffer(self, buffer: Buffer, anchor: Operation, rewriter: PatternRewriter) -> SSAValue:
        ctype = buffer.container.type
        assert isinstance(ctype, sd.ArrayType)
        name = sd.container_name(buffer.container)
        hint, k = f"{name}_at", 0
        while (candidate := hint if not k else f"{hint}_{k}") in self.names:
            k += 1
        self.names.add(candidate)
        shape = [
            ctype.dims()[k] if window is None else IndexExpr.constant(window[1] - window[0])
            for k, window in zip(buffer.kept(), buffer.window)
        ]
        container = sd.ContainerOp(candidate, sd.ArrayType(shape, ctype.element_type), transient=True)
        container.result.name_hint = candidate
        sdfg_op = anchor.parent_op()
        while not isinstance(sdfg_op, sd.SdfgOp):
            sdfg_op = sdfg_op.parent_op()  # type: ignore[union-attr]
        rewriter.insert(container, InsertPoint.after(sdfg_op.containers()[-1]))
        return container.result

    @staticmethod
    def ranges(buffer: Buffer, value: SSAValue) -> tuple[list[sd.Range], list[sd.Range]]:
        """The box in the container and the whole buffer, as copy ranges."""
        ctype = buffer.container.type
        assert isinstance(ctype, sd.ArrayType)
        offsets = dict(zip(buffer.dims, buffer.offsets))
        windows = dict(zip(buffer.kept(), buffer.window))
        zero = IndexExpr.constant(0)
        box = [
            (offsets[k], offsets[k] + 1) if k in offsets
            else (zero, d) if windows[k] is None
            else (IndexExpr.constant(windows[k][0]), IndexExpr.constant(windows[k][1]))
            for k, d in enumerate(ctype.dims())
        ]
        whole = [(zero, d) for d in value.type.dims()]  # type: ignore[union-attr]
        return box, whole

    @staticmethod
    def redirect(access: Access, buffer: Buffer, value: SSAValue, rewriter: PatternRewriter) -> None:
        kept = [
            access.subset_exprs()[k] - (window[0] if window is not None else 0)
            for k, window in zip(buffer.kept(), buffer.window)
        ]
        used = sd.first_use_order(kept)
        renumber = {d: IndexExpr.dim(n) for n, d in enumerate(used)}
        indices = [access.indices[d] for d in used]
        subset = [e.substitute(dims=renumber) for e in kept]
        if isinstance(access, sd.ReadOp):
            rewriter.replace(access, sd.ReadOp(value, indices, subset))
        elif isinstance(access, sd.WriteOp):
            rewriter.replace(access, sd.WriteOp(access.value, value, indices, subset))
        else:
            rewriter.replace(access, sd.AccumulateOp(access.kind.data, access.value, value, indices, subset))


@dataclass(frozen=True)
class SdfgDynamicCopiesPass(ModulePass):
    """Accesses at loop-variable indices go through buffers, filled and drained by copies."""

    name = "sdfg-dynamic-copies"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for sdfg_op in [s for s in op.ops if isinstance(s, sd.SdfgOp)]:
            for state in [s for s in sdfg_op.walk() if isinstance(s, sd.StateOp)]:
                forward_stores(state)
            plans = plan_buffers(sdfg_op)
            if plans:
                names = {c.container_name.data for c in sdfg_op.containers()}
                walk([_Buffers(plans, names)]).rewrite_region(sdfg_op.body)
