"""ipu-tile-partition, part 3: loops and branches as device programs.

Control flow runs on the device, so the host starts one program whatever the data, and
the IR does not grow with the trip count. The plan (`plan_control`) gives each loop and
branch its variables, all scalars on tile 0:

- an `sdfg.for` whose trip count is static becomes `ipu.repeat`; any other (a bound read
  from a scalar container, or depending on an enclosing loop's variable) becomes
  `ipu.repeat_while` over a predicate variable (bool);
- its loop variable, when the body uses it or the trip count is not static, is a counter
  variable (i32): a single-point map sets it (and the predicate) before the loop, another
  at the end of each iteration steps it and recomputes the predicate (`t < upper`,
  `upper` read again as DaCe's guard does). Maps read the counter as a `whole` scalar;
- the condition of an `sdfg.if` or `sdfg.while` is a scalar step writing the predicate
  variable, before `ipu.if` or inside `ipu.repeat_while`'s condition region;
- a copy whose box moves with loop variables (`DynamicCopy`, from sdfg-dynamic-copies or
  the importer) becomes `ipu.dynamic_slice` or `ipu.dynamic_update`: an offset that is a
  loop variable is its counter, any other offset a variable a single-point map computes
  from the counters first.

The patterns run on loops and branches whose regions are already converted, inner ones
first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.dialects.builtin import MemRefType, i1, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ipu_lower.diagnostics import error
from ipu_lower.dialects import ipu
from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_arith import materialize
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.names import UniqueNames
from ipu_lower.passes.tile_partition_points import SCALAR_MAP, PointBody, add, scalar_step


@dataclass(frozen=True)
class LoopControl:
    """How one `sdfg.for` runs on the device: `trip_count` when static (`ipu.repeat`),
    else None (`ipu.repeat_while` over the variable `predicate`); `counter` is the
    variable holding the loop variable, when the loop needs one."""

    trip_count: int | None
    counter: str | None
    predicate: str | None


@dataclass(frozen=True)
class DynamicCopy:
    """A copy between a box of `array` that moves with loop variables and the whole of
    another container: the box has `sizes[k]` elements from `offsets[k]` (expressions of
    the copy's index operands) in dimension `dims[k]`, and is whole in the others;
    `update` when the copy writes the array."""

    array: SSAValue
    other: SSAValue
    update: bool
    dims: tuple[int, ...]
    sizes: tuple[int, ...]
    offsets: tuple[IndexExpr, ...]


def plan_dynamic_copy(op: sd.CopyOp) -> DynamicCopy:
    """The box of a copy whose ranges use loop variables (on one side only)."""
    moving = [any(e.dims() for r in ranges for e in r) for ranges in (op.source_ranges(), op.destination_ranges())]
    if all(moving):
        raise error(op, "copy between two boxes that move with loop variables; not supported yet")
    update = moving[1]
    array, other = (op.destination, op.source) if update else (op.source, op.destination)
    ranges, other_ranges = (op.destination_ranges(), op.source_ranges()) if update else (op.source_ranges(), op.destination_ranges())
    other_shape = other.type.static_shape()  # type: ignore[union-attr]
    shape = array.type.static_shape()  # type: ignore[union-attr]
    if shape is None or other_shape is None:
        raise error(op, "copy of a container whose shape is not static; run sdfg-specialize first")
    zero = IndexExpr.constant(0)
    if other_ranges != [(zero, IndexExpr.constant(d)) for d in other_shape]:
        raise error(
            op,
            f"copy between a box of '{sd.container_name(array)}' that moves with a loop variable and part of "
            f"'{sd.container_name(other)}'; only whole containers are supported yet",
        )
    dims, sizes, offsets = [], [], []
    for k, (begin, end) in enumerate(ranges):
        size = (end - begin).constant_value()
        if size is None:
            raise error(op, f"copy range '{begin}:{end}' is not static; run sdfg-specialize first")
        if (begin, end) != (zero, IndexExpr.constant(shape[k])):
            dims.append(k)
            sizes.append(size)
            offsets.append(begin)
    return DynamicCopy(array, other, update, tuple(dims), tuple(sizes), tuple(offsets))


@dataclass(frozen=True)
class ControlPlan:
    loops: dict[sd.ForOp, LoopControl] = field(default_factory=dict)
    predicates: dict[sd.IfOp | sd.WhileOp, str] = field(default_factory=dict)
    """the predicate variable of each branch and `sdfg.while` loop"""
    copies: dict[sd.CopyOp, DynamicCopy] = field(default_factory=dict)
    """the copies at loop variables"""


def plan_control(
    sdfg_op: sd.SdfgOp, names: UniqueNames, copies: dict[sd.CopyOp, DynamicCopy] | None = None
) -> ControlPlan:
    """The counter and predicate variables of the loops and branches of `sdfg_op`, and
    its copies at loop variables."""
    loops: dict[sd.ForOp, LoopControl] = {}
    predicates: dict[sd.IfOp | sd.WhileOp, str] = {}
    for op in sdfg_op.walk():
        if isinstance(op, sd.ForOp):
            label = op.label.data
            for bound in op.bounds():
                if bound.symbols():
                    raise error(op, f"bound '{bound}' of loop '{label}' is not static; run sdfg-specialize first")
            trip = op.trip_count()
            needed = bool(op.variable.uses) or trip is None
            counter = names.fresh(op.variable.name_hint or label) if needed else None
            predicate = names.fresh(f"{label}_cond") if trip is None else None
            loops[op] = LoopControl(trip, counter, predicate)
        elif isinstance(op, sd.IfOp | sd.WhileOp):
            predicates[op] = names.fresh(f"{op.label.data}_cond")
    return ControlPlan(loops, predicates, copies or {})


@dataclass
class Rewrite:
    """What the patterns of one SDFG share: the variables the control plan names (the
    counter of each loop variable, the predicate of each loop and branch), where new
    variables go, and how scalar steps are built."""

    control: ControlPlan
    names: UniqueNames
    body: Block
    """the SDFG's body, where new variables go (after the containers)"""
    counters: dict[SSAValue, SSAValue] = field(default_factory=dict)
    predicates: dict[Operation, SSAValue] = field(default_factory=dict)

    def add_variables(self, variables: list[ipu.VariableOp]) -> None:
        anchor = next((o for o in self.body.ops if not isinstance(o, sd.ContainerOp | ipu.VariableOp)), None)
        for variable in variables:
            if SSAValue.is_valid_name(variable.var_name.data):
                variable.result.name_hint = variable.var_name.data
            if anchor is None:
                self.body.add_op(variable)
            else:
                self.body.insert_op_before(variable, anchor)

    def make_variables(self) -> None:
        """The counters and predicates the control plan names."""
        made: list[ipu.VariableOp] = []
        for loop, info in self.control.loops.items():
            if info.counter is not None:
                made.append(ipu.VariableOp(info.counter, MemRefType(i32, []), SCALAR_MAP))
                self.counters[loop.variable] = made[-1].result
            if info.predicate is not None:
                made.append(ipu.VariableOp(info.predicate, MemRefType(i1, []), SCALAR_MAP))
                self.predicates[loop] = made[-1].result
        for op, name in self.control.predicates.items():
            made.append(ipu.VariableOp(name, MemRefType(i1, []), SCALAR_MAP))
            self.predicates[op] = made[-1].result
        self.add_variables(made)

    def scalar_step(self, label: str, ops: list[Operation], result=None) -> list[Operation]:
        variables, program = scalar_step(label, ops, self.names, self.counters, result)
        self.add_variables(variables)
        return program


def _moved(block: Block) -> Region:
    """A new region holding the ops of `block` (already converted to the ipu level)."""
    ops = list(block.ops)
    for o in ops:
        o.detach()
    return Region(Block(ops))


Compute = Callable[[Block, list[SSAValue]], list[tuple[SSAValue, SSAValue]]]


def _control_map(label: str, reads: list[SSAValue], compute: Compute) -> ipu.TiledMapOp:
    """A single-point map on tile 0 that reads the integer scalars `reads` (as i32) and
    writes what `compute(body, values)` gives: (variable, value) pairs."""
    builder = PointBody({})
    values = [builder.integer(builder.read(v), i32) for v in reads]
    for variable, value in compute(builder.body, values):
        builder.write(variable, value)
    return builder.finish(label, SCALAR_MAP)


@dataclass
class ForToRepeat(RewritePattern):
    """A counted loop, its body already converted (see the module docstring)."""

    context: Rewrite

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.ForOp, rewriter: PatternRewriter) -> None:
        info = self.context.control.loops[op]
        label = op.label.data
        if info.trip_count == 0:
            rewriter.erase(op)
            return
        body = _moved(op.body.block)
        if info.counter is None:
            assert info.trip_count is not None
            rewriter.replace(op, ipu.RepeatOp(info.trip_count, body), [])
            return
        lower, upper, _ = op.bounds()
        step = op.step_value()
        inputs = [self.context.counters.get(v, v) for v in op.bound_operands]
        counter = self.context.counters[op.variable]
        less = "slt" if step > 0 else "sgt"

        def stepped(block: Block, counter_value: SSAValue) -> SSAValue:
            return add(block, arith.AddiOp(counter_value, add(block, arith.ConstantOp.from_int_and_width(step, 32))))

        if info.predicate is None:
            assert info.trip_count is not None
            first = _control_map(f"{label}_init", inputs, lambda b, v: [(counter, materialize(lower, v, b))])
            body.block.add_op(_control_map(f"{label}_step", [counter], lambda b, v: [(counter, stepped(b, v[0]))]))
            rewriter.replace(op, [first, ipu.RepeatOp(info.trip_count, body)], [])
            return
        predicate = self.context.predicates[op]

        def start(b: Block, v: list[SSAValue]) -> list[tuple[SSAValue, SSAValue]]:
            value = materialize(lower, v, b)
            return [(counter, value), (predicate, add(b, arith.CmpiOp(value, materialize(upper, v, b), less)))]

        def advance(b: Block, v: list[SSAValue]) -> list[tuple[SSAValue, SSAValue]]:
            value = stepped(b, v[0])
            return [(counter, value), (predicate, add(b, arith.CmpiOp(value, materialize(upper, v[1:], b), less)))]

        first = _control_map(f"{label}_init", inputs, start)
        body.block.add_op(_control_map(f"{label}_step", [counter, *inputs], advance))
        rewriter.replace(op, [first, ipu.RepeatWhileOp(predicate, Region(Block()), body)], [])


def _condition(context: Rewrite, op: sd.IfOp | sd.WhileOp) -> tuple[SSAValue, list[Operation]]:
    """The predicate variable of a branch or loop and the program computing it: the
    copies that start the region (already converted), then a scalar step."""
    ops = list(op.condition.block.ops)
    condition = ops.pop()
    assert isinstance(condition, sd.ConditionOp)
    predicate = context.predicates[op]
    copies = [o for o in ops if o.dialect_name() == "ipu"]
    step = [o for o in ops if o.dialect_name() != "ipu"]
    for copy in copies:
        copy.detach()
    return predicate, [*copies, *context.scalar_step(f"{op.label.data}_cond", step, (condition.value, predicate))]


@dataclass
class DynamicCopyToSlice(RewritePattern):
    """A copy at loop variables: `ipu.dynamic_slice` or `ipu.dynamic_update`, after the
    single-point map computing the offsets that are not bare loop variables."""

    context: Rewrite

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.CopyOp, rewriter: PatternRewriter) -> None:
        plan = self.context.control.copies.get(op)
        if plan is None or isinstance(op.parent_op(), sd.StateOp):
            return  # a static copy; or its state is inlined first
        counters = [self.context.counters[v] for v in op.indices]
        name = sd.container_name(plan.array)
        if sd.is_streaming(plan.array):  # rows at a loop variable times their count: its counter is the repeat
            copy = ipu.RemoteStoreOp if plan.update else ipu.RemoteLoadOp
            rewriter.replace(op, copy(plan.array, counters[next(iter(plan.offsets[0].dims()))], plan.other), [])
            return
        offsets: list[SSAValue] = []
        computed: list[tuple[SSAValue, IndexExpr]] = []
        for e in plan.offsets:
            bare = next((d for d in e.dims() if e == IndexExpr.dim(d)), None)
            if bare is not None:
                offsets.append(counters[bare])
                continue
            variable = ipu.VariableOp(self.context.names.fresh(f"{name}_offset"), MemRefType(i32, []), SCALAR_MAP)
            self.context.add_variables([variable])
            offsets.append(variable.result)
            computed.append((variable.result, e))
        ops: list[Operation] = []
        if computed:
            ops.append(
                _control_map(f"{name}_offsets", counters, lambda b, v: [(o, materialize(e, v, b)) for o, e in computed])
            )
        kind = ipu.DynamicUpdateOp if plan.update else ipu.DynamicSliceOp
        ops.append(kind(plan.array, offsets, plan.other, plan.dims, plan.sizes))
        rewriter.replace(op, ops, [])


@dataclass
class IfToIf(RewritePattern):
    """A branch, its regions already converted: its condition as a scalar step writing
    the predicate, then `ipu.if`."""

    context: Rewrite

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.IfOp, rewriter: PatternRewriter) -> None:
        predicate, program = _condition(self.context, op)
        branch = ipu.IfOp(predicate, _moved(op.then_region.block), _moved(op.else_region.block))
        rewriter.replace(op, [*program, branch], [])


@dataclass
class WhileToRepeatWhile(RewritePattern):
    """A loop, its body already converted: `ipu.repeat_while` whose condition region
    computes the predicate."""

    context: Rewrite

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.WhileOp, rewriter: PatternRewriter) -> None:
        predicate, program = _condition(self.context, op)
        rewriter.replace(op, ipu.RepeatWhileOp(predicate, Region(Block(program)), _moved(op.body.block)), [])
