"""Cycle estimates for vertices, read from the codelet body: the one place cost
assumptions live.

A MultiVertex runs `compute(workerId)` once per worker thread. The estimate walks the
body for each worker with the sizes of the fields one vertex is connected to, so loop
trip counts follow from the IR (`scf.for %i = %worker to %n step %workers` over a
block of n elements gives ceil((n - worker) / workers) iterations). Workers share the
pipeline round-robin, so a worker issues one instruction every `workers` cycles
(poplar.md, cost-model hints): a vertex whose busiest worker executes I instructions
takes about workers * (overhead + I) cycles.
All instruction counts below are assumptions, not measurements.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import ceil

from xdsl.dialects import arith, memref, scf
from xdsl.ir import Block, Operation, SSAValue

VERTEX_OVERHEAD_INSTRUCTIONS = 10
"""Assumption: vertex entry, field pointer loads, loop setup (tut6 uses 5 for a dot)."""

LOOP_INSTRUCTIONS_PER_ITERATION = 2
"""Assumption: index increment and branch."""

MATH_FUNCTION_INSTRUCTIONS = 20
"""Assumption: a libm call (sqrt, exp, log, ...) in software on one worker."""

_FREE = (arith.ConstantOp, memref.DimOp, scf.YieldOp)
"""Values the compiler keeps in registers or folds: no instruction of their own."""

_INDEX_ARITHMETIC = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.DivUIOp: lambda a, b: a // b if b else None,
    arith.RemUIOp: lambda a, b: a % b if b else None,
    arith.CeilDivUIOp: lambda a, b: -(-a // b) if b else None,
    arith.MinUIOp: min,
    arith.MaxUIOp: max,
}


class _Worker:
    """Counts the instructions one worker executes, knowing the index values it can."""

    def __init__(self, fields: Sequence[SSAValue], sizes: Sequence[int], worker: int, workers: int):
        self.known: dict[SSAValue, int] = {}
        self.sizes = dict(zip(fields, sizes))
        self.worker = worker
        self.workers = workers

    def block(self, block: Block) -> int:
        return sum(self.op(op) for op in block.ops)

    def op(self, op: Operation) -> int:
        result = op.results[0] if op.results else None
        if isinstance(op, arith.ConstantOp) and isinstance(op.value.value.data, int):  # type: ignore[union-attr]
            self.known[op.result] = op.value.value.data  # type: ignore[union-attr]
        elif isinstance(op, memref.DimOp) and op.source in self.sizes:
            self.known[op.result] = self.sizes[op.source]
        elif op.name.endswith(".worker_id"):
            self.known[result] = self.worker  # type: ignore[index]
        elif op.name.endswith(".num_workers"):
            self.known[result] = self.workers  # type: ignore[index]
        elif type(op) in _INDEX_ARITHMETIC and all(o in self.known for o in op.operands):
            value = _INDEX_ARITHMETIC[type(op)](*(self.known[o] for o in op.operands))
            if value is not None:
                self.known[result] = value  # type: ignore[index]
        if isinstance(op, scf.ForOp):
            return self.trip_count(op) * (self.block(op.body.block) + LOOP_INSTRUCTIONS_PER_ITERATION)
        if isinstance(op, scf.IfOp):
            return 1 + max(self.block(r.block) if r.blocks else 0 for r in op.regions)
        if isinstance(op, _FREE) or op.name.endswith((".worker_id", ".num_workers")):
            return 0
        return MATH_FUNCTION_INSTRUCTIONS if op.dialect_name() == "math" else 1

    def trip_count(self, loop: scf.ForOp) -> int:
        """Iterations of `loop` for this worker; 1 when its bounds are not known."""
        bounds = [self.known.get(v) for v in (loop.lb, loop.ub, loop.step)]
        if any(b is None for b in bounds) or bounds[2] <= 0:  # type: ignore[operator]
            return 1
        lower, upper, step = bounds
        return max(0, ceil((upper - lower) / step))  # type: ignore[operator]


def vertex_cycles(body: Block, field_sizes: Sequence[int], workers: int) -> int:
    """Cycles of one vertex whose fields (the block arguments of `body`) hold
    `field_sizes` elements, run by `workers` worker threads."""
    busiest = max(_Worker(body.args, field_sizes, w, workers).block(body) for w in range(workers))
    return workers * (VERTEX_OVERHEAD_INSTRUCTIONS + busiest)
