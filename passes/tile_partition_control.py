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
  variable, before `ipu.if` or inside `ipu.repeat_while`'s condition region.

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
class ControlPlan:
    loops: dict[sd.ForOp, LoopControl] = field(default_factory=dict)
    predicates: dict[sd.IfOp | sd.WhileOp, str] = field(default_factory=dict)
    """the predicate variable of each branch and `sdfg.while` loop"""


def plan_control(sdfg_op: sd.SdfgOp, names: UniqueNames) -> ControlPlan:
    """The counter and predicate variables of the loops and branches of `sdfg_op`."""
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
    return ControlPlan(loops, predicates)


@dataclass
class Rewrite:
    """What the patterns of one SDFG share: the variables the control plan names (the
    counter of each loop variable, the predicate of each loop and branch), where new
    variables go, and how scalar steps are built."""

    control: ControlPlan
    names: UniqueNames
    layouts: dict[str, ipu.TileMapAttr]
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
        variables, program = scalar_step(
            label, ops, self.names, self.counters, lambda c: self.layouts[sd.container_name(c)], result
        )
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
    """The predicate variable of a branch or loop and the scalar step computing it."""
    ops = list(op.condition.block.ops)
    condition = ops.pop()
    assert isinstance(condition, sd.ConditionOp)
    predicate = context.predicates[op]
    return predicate, context.scalar_step(f"{op.label.data}_cond", ops, (condition.value, predicate))


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
