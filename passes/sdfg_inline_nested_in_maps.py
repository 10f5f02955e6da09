"""sdfg-inline-nested-in-maps: a nested SDFG inside a map that branches on scalars,
inlined into the map body as values (if-conversion).

DaCe makes the body of `for i in dace.map[0:N]: if A[i] > 0.5: B[i] = A[i]` a nested
SDFG: a state computing the condition into a scalar, an `sdfg.if`, states of tasklets
moving scalars. When such an `sdfg.nested` stands directly in a map, every container of
its SDFG holds one element (a scalar, or an argument bound to one element of the
caller), and its program is states and `sdfg.if`s of reads, writes, copies, tasklets
and `sdfg.apply`s, it is the same as a chain of tasklets in the map body:

- each inner scalar is an SSA value (a copy gives its destination the source's); an
  argument read before it is written (on some path) is read from its bound element
  first, whatever its direction;
- each state's tasklets are copied in order, their inputs the current values;
  `sdfg.apply`s take the node's symbol mapping (the map parameter for `i`);
- an `sdfg.if` computes its condition, then both arms, then one tasklet that selects,
  per value an arm assigns, the then value where the condition holds (`arith.select`):
  a value the other arm leaves is the one from before the branch (an output's old
  element where nothing assigned it before);
- at the end, one `sdfg.write` per output argument some path assigns, to its bound
  element.

Both arms run at every point, as the tasklet translator does for Python's if/else.
Any other nested SDFG in a map (loops, arrays, maps, library nodes, a scalar read before
anything writes it) stays, for sdfg-inline-nested to report.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp, i1
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import ExprError, IndexExpr

_VALUE_OPS = (sd.ReadOp, sd.TaskletOp, sd.ApplyOp)
"""What a condition region may hold besides its `sdfg.condition`."""

_STATE_OPS = (*_VALUE_OPS, sd.WriteOp, sd.CopyOp)
"""What a state may hold (a copy, of one element to another, moves a value)."""


def inlinable(op: sd.NestedOp) -> bool:
    """Whether `op` stands in a map and its SDFG branches on scalars (module docstring)."""
    if not isinstance(op.parent_op(), sd.MapOp):
        return False
    inner = op.inner
    if any(not _one_element(c.result) for c in inner.containers()):
        return False
    arguments = {c.result for c in inner.containers() if c.transient is None}
    return _check_program(inner.body.block, arguments, op.symbol_mapping()) is not None


def _one_element(value: SSAValue) -> bool:
    assert isinstance(value.type, sd.ArrayType)
    return all(d.constant_value() == 1 for d in value.type.dims())


def _check_program(block: Block, defined: set[SSAValue], symbols: dict[str, IndexExpr]) -> set[SSAValue] | None:
    """The containers some path through `block` has a value of (`defined` before it), or
    None when `block` holds what the pass does not inline, or reads a transient no path
    has written."""
    defined = set(defined)
    for op in block.ops:
        if isinstance(op, sd.ContainerOp):
            continue
        if isinstance(op, sd.StateOp):
            ops = list(op.body.block.ops)
            if not all(isinstance(o, _STATE_OPS) for o in ops) or not _check_values(ops, defined, symbols):
                return None
        elif isinstance(op, sd.IfOp):
            ops = list(op.condition.block.ops)[:-1]  # then the sdfg.condition
            if not all(isinstance(o, _VALUE_OPS) for o in ops) or not _check_values(ops, defined, symbols):
                return None
            then = _check_program(op.then_region.block, defined, symbols)
            otherwise = _check_program(op.else_region.block, defined, symbols)
            if then is None or otherwise is None:
                return None
            defined = then | otherwise
        else:
            return None
    return defined


def _check_values(ops: list[Operation], defined: set[SSAValue], symbols: dict[str, IndexExpr]) -> bool:
    for op in ops:
        if isinstance(op, sd.ReadOp) and op.container not in defined:
            return False
        if isinstance(op, sd.CopyOp):
            if op.source not in defined:
                return False
            defined.add(op.destination)
        if isinstance(op, sd.WriteOp):
            defined.add(op.container)
        if isinstance(op, sd.ApplyOp):
            try:
                op.expr.data.substitute(symbols)
            except ExprError:
                return False
    return True


class _Inliner:
    """Inlines one nested SDFG into the map body before it, with the pattern's rewriter."""

    def __init__(self, op: sd.NestedOp, rewriter: PatternRewriter):
        self.op = op
        self.rewriter = rewriter
        own = {c.container_name.data: c.result for c in op.inner.containers() if c.transient is None}
        self.arguments = {own[name]: (direction, value, binding) for name, direction, value, binding in op.arguments()}
        self.values: dict[SSAValue, SSAValue] = {}
        """The new value of each inner SSA value (read results, tasklet results)."""
        self.old: dict[SSAValue, SSAValue] = {}
        """The element an argument is bound to, read before the node."""

    def insert(self, op: Operation) -> Operation:
        self.rewriter.insert(op, InsertPoint.before(self.op))
        return op

    def run(self) -> None:
        current = self.program(self.op.inner.body.block, {})
        for container, (direction, value, binding) in self.arguments.items():
            if direction != "in" and container in current:
                operands, subset = self.element(binding)
                self.insert(sd.WriteOp(current[container], value, operands, subset))
        self.rewriter.erase(self.op)

    def element(self, binding: list[IndexExpr]) -> tuple[list[SSAValue], list[IndexExpr]]:
        """The index operands and subset of the caller's element an argument is bound to
        (its own indices, all 0)."""
        n = len(self.op.indices)
        own = {d: 0 for e in binding for d in e.dims() if d >= n}
        return sd.access_operands(list(self.op.indices), [e.substitute(dims=own) for e in binding])

    def value_of(self, container: SSAValue, current: dict[SSAValue, SSAValue]) -> SSAValue:
        """The container's value: the last one assigned, else its bound element."""
        if container in current:
            return current[container]
        if container not in self.old:
            _, value, binding = self.arguments[container]  # _check_program: a transient is written first
            operands, subset = self.element(binding)
            self.old[container] = self.insert(sd.ReadOp(value, operands, subset)).results[0]
        return self.old[container]

    def program(self, block: Block, current: dict[SSAValue, SSAValue]) -> dict[SSAValue, SSAValue]:
        """The containers' values after `block`, from `current` before it."""
        current = dict(current)
        for op in block.ops:
            if isinstance(op, sd.StateOp):
                self.dataflow(op.body.block.ops, current)
            elif isinstance(op, sd.IfOp):
                current = self.branch(op, current)
        return current

    def dataflow(self, ops: Iterable[Operation], current: dict[SSAValue, SSAValue]) -> None:
        """The values of a state's (or a condition's) ops, in order."""
        for op in ops:
            if isinstance(op, sd.ReadOp):
                self.values[op.result] = self.value_of(op.container, current)
            elif isinstance(op, sd.WriteOp):
                current[op.container] = self.values[op.value]
            elif isinstance(op, sd.CopyOp):
                current[op.destination] = self.value_of(op.source, current)
            elif isinstance(op, sd.TaskletOp):
                copy = self.insert(op.clone(value_mapper={v: self.values[v] for v in op.inputs}))
                self.values.update(zip(op.outputs, copy.results))
            elif isinstance(op, sd.ApplyOp):
                expr = op.expr.data.substitute(self.op.symbol_mapping())
                operands, (expr,) = sd.access_operands(list(self.op.indices), [expr])
                self.values[op.result] = self.insert(sd.ApplyOp(expr, operands, op.result.type)).results[0]

    def branch(self, op: sd.IfOp, current: dict[SSAValue, SSAValue]) -> dict[SSAValue, SSAValue]:
        """Both arms of `op`, then the tasklet that selects what they assign."""
        *ops, condition = op.condition.block.ops
        self.dataflow(ops, current)
        assert isinstance(condition, sd.ConditionOp)  # verified
        then = self.program(op.then_region.block, current)
        otherwise = self.program(op.else_region.block, current)
        changed = [c for c in dict.fromkeys([*then, *otherwise]) if then.get(c) is not otherwise.get(c)]
        selected = []
        for container in changed:
            if container in self.arguments or (container in then and container in otherwise):
                selected.append(container)
            else:  # a transient only one arm has a value of: that one, the only one read
                current[container] = then[container] if container in then else otherwise[container]
        if selected:
            pairs = [(self.value_of(c, then), self.value_of(c, otherwise)) for c in selected]
            tasklet = self.insert(_select(op.label.data, self.values[condition.value], pairs))
            current.update(zip(selected, tasklet.results))
        return current


def _select(label: str, condition: SSAValue, pairs: list[tuple[SSAValue, SSAValue]]) -> sd.TaskletOp:
    """A tasklet giving, per pair, its first value where `condition` holds, else its second."""
    block = Block(arg_types=[i1, *(v.type for pair in pairs for v in pair)])
    flag, *args = block.args
    selects = [arith.SelectOp(flag, args[2 * k], args[2 * k + 1]) for k in range(len(pairs))]
    block.add_ops([*selects, sd.YieldOp(*(s.result for s in selects))])
    inputs = [("__condition", condition)]
    for k, (then, otherwise) in enumerate(pairs):
        inputs += [(f"__then_{k}", then), (f"__else_{k}", otherwise)]
    outputs = [(f"__out_{k}", then.type) for k, (then, _) in enumerate(pairs)]
    return sd.TaskletOp(label, inputs, outputs, Region(block))


class _InlineNestedInMap(RewritePattern):
    """A nested SDFG the pass inlines (`inlinable`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.NestedOp, rewriter: PatternRewriter) -> None:
        if inlinable(op):
            _Inliner(op, rewriter).run()


@dataclass(frozen=True)
class SdfgInlineNestedInMapsPass(ModulePass):
    """Inline each nested SDFG inside a map that branches on scalars into the map body."""

    name = "sdfg-inline-nested-in-maps"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(_InlineNestedInMap(), apply_recursively=False).rewrite_module(op)
