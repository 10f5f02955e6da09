"""Isolating a map in its own state, for the passes that put it in a loop over chunks
(sdfg-stream-chunks, sdfg-chunk-reductions)."""

from __future__ import annotations

from xdsl.ir import Block, Operation, Region

from ipu_lower.diagnostics import error
from ipu_lower.dialects import sdfg as sd
from ipu_lower.names import UniqueNames


def isolate_map(state: sd.StateOp, map_op: sd.MapOp, names: UniqueNames) -> None:
    """Move the ops of `state` before `map_op` into a new state before it and those after
    it into a new state after it, leaving `map_op` alone in `state`. A value that would
    cross the split (an op on one side using a value made on the other or by the map's
    neighbours in the state) is an error: states do not pass SSA values."""
    ops = list(state.body.block.ops)
    at = ops.index(map_op)
    pieces = [(ops[:at], "before"), (ops[at + 1 :], "after")]
    for group, _ in pieces:
        inside = set(group)
        for op in group:
            for inner in op.walk():
                for operand in inner.operands:
                    owner = operand.owner
                    top = owner if isinstance(owner, Operation) else owner.parent_op()
                    while top is not None and top.parent_op() is not state:
                        top = top.parent_op()
                    if top is not None and top not in inside and not isinstance(top, sd.ContainerOp):
                        raise error(inner, f"a value crosses map '{map_op.label.data}', which runs in chunks; not supported yet")
    for operand in (v for inner in map_op.walk() for v in inner.operands):
        owner = operand.owner
        if isinstance(owner, Operation) and owner.parent_op() is state:
            raise error(map_op, f"map '{map_op.label.data}' uses a value computed outside it; not supported yet")
    parent = state.parent_block()
    assert parent is not None
    label = state.label.data
    for group, where in pieces:
        if not group:
            continue
        for op in group:
            op.detach()
        piece = sd.StateOp(names.fresh(f"{label}_{where}"), Region(Block(group)))
        if where == "before":
            parent.insert_op_before(piece, state)
        else:
            parent.insert_op_after(piece, state)
