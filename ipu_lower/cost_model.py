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

from collections.abc import Callable, Sequence
from math import ceil

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, Operation, SSAValue

from ipu_lower.dialects import ipu, poplar

VERTEX_OVERHEAD_INSTRUCTIONS = 10
"""Assumption: vertex entry, field pointer loads, loop setup (tut6 uses 5 for a dot)."""

LOOP_INSTRUCTIONS_PER_ITERATION = 2
"""Assumption: index increment and branch."""

MATH_FUNCTION_INSTRUCTIONS = 20
"""Assumption: a libm call (sqrt, exp, log, ...) in software on one worker."""

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


class VertexCost:
    """The cost of one codelet body, for any field sizes. Per block, the ops whose cost
    does not depend on index values are summed once; only the ops that define index
    values or hold loops are evaluated for each worker."""

    def __init__(self, body: Block):
        self.body = body
        self._summaries: dict[Block, tuple[int, list[Operation]]] = {}

    def summary(self, block: Block) -> tuple[int, list[Operation]]:
        if block not in self._summaries:
            static, dynamic = 0, []
            for op in block.ops:
                if type(op) in _HANDLERS or type(op) in _INDEX_ARITHMETIC:
                    dynamic.append(op)
                else:
                    static += MATH_FUNCTION_INSTRUCTIONS if op.dialect_name() == "math" else 1
            self._summaries[block] = (static, dynamic)
        return self._summaries[block]

    def cycles(self, field_sizes: Sequence[int], workers: int) -> int:
        """Cycles of one vertex whose fields (the block arguments of the body) hold
        `field_sizes` elements, run by `workers` worker threads."""
        busiest = max(_Worker(self, field_sizes, w, workers).block(self.body) for w in range(workers))
        return workers * (VERTEX_OVERHEAD_INSTRUCTIONS + busiest)


class _Worker:
    """Counts the instructions one worker executes, knowing the index values it can."""

    def __init__(self, cost: VertexCost, sizes: Sequence[int], worker: int, workers: int):
        self.cost = cost
        self.known: dict[SSAValue, int] = {}
        self.sizes = dict(zip(cost.body.args, sizes))
        self.worker = worker
        self.workers = workers

    def block(self, block: Block) -> int:
        static, dynamic = self.cost.summary(block)
        return static + sum(self.op(op) for op in dynamic)

    def op(self, op: Operation) -> int:
        handler = _HANDLERS.get(type(op))
        if handler is not None:
            return handler(self, op)
        if all(o in self.known for o in op.operands):
            value = _INDEX_ARITHMETIC[type(op)](*(self.known[o] for o in op.operands))
            if value is not None:
                self.known[op.results[0]] = value
        return 1

    def constant(self, op: arith.ConstantOp) -> int:
        if isinstance(op.value, IntegerAttr):
            self.known[op.result] = op.value.value.data
        return 0

    def dim(self, op: memref.DimOp) -> int:
        if op.source in self.sizes:
            self.known[op.result] = self.sizes[op.source]
        return 0

    def worker_id(self, op: Operation) -> int:
        self.known[op.results[0]] = self.worker
        return 0

    def num_workers(self, op: Operation) -> int:
        self.known[op.results[0]] = self.workers
        return 0

    def for_loop(self, op: scf.ForOp) -> int:
        return self.trip_count(op) * (self.block(op.body.block) + LOOP_INSTRUCTIONS_PER_ITERATION)

    def if_else(self, op: scf.IfOp) -> int:
        return 1 + max(self.block(r.block) if r.blocks else 0 for r in op.regions)

    def free(self, op: Operation) -> int:
        return 0

    def trip_count(self, loop: scf.ForOp) -> int:
        """Iterations of `loop` for this worker; 1 when its bounds are not known."""
        bounds = [self.known.get(v) for v in (loop.lb, loop.ub, loop.step)]
        if any(b is None for b in bounds) or bounds[2] <= 0:  # type: ignore[operator]
            return 1
        lower, upper, step = bounds
        return max(0, ceil((upper - lower) / step))  # type: ignore[operator]


_HANDLERS: dict[type[Operation], Callable[[_Worker, Operation], int]] = {
    arith.ConstantOp: _Worker.constant,  # type: ignore[dict-item]
    memref.DimOp: _Worker.dim,  # type: ignore[dict-item]
    scf.ForOp: _Worker.for_loop,  # type: ignore[dict-item]
    scf.IfOp: _Worker.if_else,  # type: ignore[dict-item]
    scf.YieldOp: _Worker.free,
    ipu.WorkerIdOp: _Worker.worker_id,
    poplar.WorkerIdOp: _Worker.worker_id,
    ipu.NumWorkersOp: _Worker.num_workers,
    poplar.NumWorkersOp: _Worker.num_workers,
}
"""Ops with their own rule; constants, sizes and worker facts are free: the compiler
keeps them in registers or folds them."""


def vertex_cycles(body: Block, field_sizes: Sequence[int], workers: int) -> int:
    """Cycles of one vertex whose fields (the block arguments of `body`) hold
    `field_sizes` elements, run by `workers` worker threads."""
    return VertexCost(body).cycles(field_sizes, workers)
