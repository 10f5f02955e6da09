"""Which arguments ipu-tile-partition need not copy from the host: those the program
overwrites completely before it reads them.

The graph copies each argument to the device before the program runs, so that what the
program does not write keeps the caller's values, and copies back those it writes. An
argument whose first access, in program order, writes every element (a map writing it
at every point, a copy of a whole container into it, a product into all of it that does
not read it: beta 0) needs no copy
in: nothing of the caller's values survives. Steps in loops and branches may not run,
or not first, so an argument they touch before any such write is copied in.
"""

from __future__ import annotations

from xdsl.ir import Operation

from ipu_lower.dialects import sdfg as sd
from ipu_lower.passes.tile_partition_grid import touched


def overwritten_first(sdfg_op: sd.SdfgOp, maps: dict) -> frozenset[str]:
    """The arguments of `sdfg_op` whose first access overwrites all of them; `maps` are
    the partition's `MapAccesses` of its (non-reduction) maps."""
    first: dict[str, bool] = {}
    for op in sdfg_op.body.block.ops:
        if isinstance(op, sd.ContainerOp):
            continue
        steps = _state_steps(op) if isinstance(op, sd.StateOp) else [op]
        for step in steps:
            whole = _overwritten(step, maps)
            for name in touched(step):
                first.setdefault(name, name in whole)
    arguments = {a.data for a in sdfg_op.arg_names.data}
    return frozenset(n for n, overwritten in first.items() if overwritten and n in arguments)


def _state_steps(state: sd.StateOp) -> list:
    from ipu_lower.passes.tile_partition import state_steps

    return state_steps(state)


def _overwritten(step: Operation | list[Operation], maps: dict) -> set[str]:
    """The arrays a top-level step writes every element of without reading them."""
    if isinstance(step, sd.CopyOp) and not step.indices and covers_whole(step.destination, step.destination_ranges()):
        written = {sd.container_name(step.destination)}
        return written - {sd.container_name(step.source)}
    if isinstance(step, sd.MatmulOp):
        # with beta != 0 the product reads C; a box of C leaves the rest of it
        if step.beta_value() != 0 or step.box(2) is not None:
            return set()
        return {sd.container_name(step.out)} - {sd.container_name(v) for v in (step.lhs, step.rhs)}
    if not isinstance(step, sd.MapOp) or step not in maps:
        return set()
    accesses = maps[step]
    if accesses.span is not None or accesses.mask or accesses.frame is None:
        return set()
    ops = list(step.body.block.ops)
    read = {sd.container_name(op.container) for op in ops if isinstance(op, sd.ReadOp | sd.AccumulateOp)}
    names = set()
    for op in ops:
        if (
            isinstance(op, sd.WriteOp)
            and op.container.type.static_shape() == accesses.frame.shape  # type: ignore[union-attr]
            and not any(accesses.offsets.get(op, (1,)))
            and accesses.frame.params == tuple(range(len(accesses.frame.shape)))
        ):
            names.add(sd.container_name(op.container))
    return names - read


def covers_whole(value, ranges) -> bool:
    """Whether the copy ranges `ranges` of `value` are all of it."""
    shape = value.type.static_shape()
    return [(b.constant_value(), e.constant_value()) for b, e in ranges] == [(0, d) for d in shape]
