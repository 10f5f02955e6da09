"""sdfg-lower-breaks: `sdfg.break` as a predicate the loop tests.

A loop whose body breaks (`for i in range(N): if A[i] < 0: out[0] = i; break`) gets a
transient bool `<loop>_running`, set before the loop. Each `sdfg.break` becomes a state
that clears it, and what would follow the break in the same iteration runs only while it
is set: the ops after each `sdfg.if` that holds a break, up to the loop body, move into
an `sdfg.if` on the predicate. The loop then stops running its body: an `sdfg.while`
also tests the predicate in its condition (Poplar's `RepeatWhileTrue` stops there); an
`sdfg.for` keeps its trip count, its body an `sdfg.if` on the predicate, so that the
iterations after the break do nothing. Inner loops are lowered first: a break leaves the
innermost loop only.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i1
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ipu_lower.dialects import sdfg as sd


class SdfgLowerBreaksPass(ModulePass):
    """Lower every `sdfg.break` (module docstring)."""

    name = "sdfg-lower-breaks"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        loops = [o for o in op.walk(region_first=True) if isinstance(o, sd.ForOp | sd.WhileOp)]  # inner loops first
        for loop in loops:
            breaks = [b for b in loop.body.walk() if isinstance(b, sd.BreakOp) and sd.innermost_loop(b) is loop]
            if breaks:
                _Lowering(loop).lower(breaks)


class _Lowering:
    def __init__(self, loop: sd.ForOp | sd.WhileOp):
        self.loop = loop
        self.label = loop.label.data
        sdfg = loop.parent_op()
        while not isinstance(sdfg, sd.SdfgOp):
            sdfg = sdfg.parent_op()  # type: ignore[union-attr]
        taken = {c.container_name.data for c in sdfg.containers()}
        name, k = f"{self.label}_running", 0
        while name in taken:
            k += 1
            name = f"{self.label}_running_{k}"
        container = sd.ContainerOp(name, sd.ArrayType([], i1), transient=True)
        container.result.name_hint = name
        first = next(o for o in sdfg.body.block.ops if not isinstance(o, sd.ContainerOp))
        Rewriter.insert_op(container, InsertPoint.before(first))
        self.running = container.result
        self.guards: set[sd.IfOp] = set()

    def lower(self, breaks: list[sd.BreakOp]) -> None:
        Rewriter.insert_op(self.set_running(True), InsertPoint.before(self.loop))
        for brk in breaks:
            inner: Operation = brk
            while (parent := inner.parent_op()) is not self.loop:
                self.guard_after(parent)  # type: ignore[arg-type]
                inner = parent  # type: ignore[assignment]
            Rewriter.replace_op(brk, self.set_running(False))
        if isinstance(self.loop, sd.WhileOp):
            self.test_in_condition(self.loop)
        else:
            guard = self.guard(list(self.loop.body.block.ops))
            self.loop.body.block.add_op(guard)

    def set_running(self, value: bool) -> sd.StateOp:
        state = sd.StateOp(f"{self.label}_{'run' if value else 'break'}")
        tasklet = sd.constant_tasklet("running" if value else "break", IntegerAttr(int(value), i1))
        state.body.block.add_ops([tasklet, sd.WriteOp(tasklet.outputs[0], self.running, [], [])])
        return state

    def condition(self) -> Region:
        read = sd.ReadOp(self.running, [], [])
        return Region(Block([read, sd.ConditionOp(read.result)]))

    def guard(self, ops: list[Operation]) -> sd.IfOp:
        """An `sdfg.if` on the predicate holding `ops` (moved out of their block)."""
        then = Block()
        for op in ops:
            op.detach()
            then.add_op(op)
        guard = sd.IfOp(f"{self.label}_while_running", self.condition(), Region(then))
        self.guards.add(guard)
        return guard

    def guard_after(self, op: sd.IfOp) -> None:
        """Run what follows `op` in its block only while the predicate holds."""
        following = []
        after = op.next_op
        while after is not None:
            following.append(after)
            after = after.next_op
        if not following or (len(following) == 1 and following[0] in self.guards):
            return
        guard = self.guard(following)
        Rewriter.insert_op(guard, InsertPoint.after(op))

    def test_in_condition(self, loop: sd.WhileOp) -> None:
        """The loop's condition and the predicate."""
        block = loop.condition.block
        final = block.last_op
        assert isinstance(final, sd.ConditionOp)
        read = sd.ReadOp(self.running, [], [])
        body = Block(arg_types=[i1, i1])
        both = arith.AndIOp(body.args[0], body.args[1])
        body.add_ops([both, sd.YieldOp(both.result)])
        tasklet = sd.TaskletOp("and_running", [("c", final.operands[0]), ("r", read.result)], [("out", i1)], Region(body))
        Rewriter.insert_op([read, tasklet], InsertPoint.before(final))
        Rewriter.replace_op(final, sd.ConditionOp(tasklet.outputs[0]))
