"""Cycle estimates for vertices, read from the codelet body: the one place cost rules live.

A vertex's estimate is built from the IR of its codelet and the sizes of its fields, so
loop trip counts follow from the IR (`scf.for %u = %worker to %units step %workers`
gives each worker its share). Each body has two numbers (`Schedule`): `EMITTED`, what
popc can be expected to make of the C++ the printer emits, the estimate plans use and
the host prints with `setPerfEstimate`; and `ASM`, what a hand-scheduled assembly
vertex for the same body could reach, a bound and never an estimate of our code. The
rules, and where each number comes from (poplibs paths are in graphcore/poplibs at
7eac0f26, ISA notes in graphcore/ipu_assembly_support):

- A vertex costs `VERTEX_OVERHEAD` plus `workers` times its busiest worker's cycles:
  workers are barrel-scheduled, each issuing every `workers`-th tile cycle, which is how
  poplibs' estimators combine them (`supervisorCycles + maxWorkerCycles *
  numWorkerContexts`, lib/popops/PerformanceEstimation.cpp:625-626).
- A worker costs `WORKER_OVERHEAD`, then one cycle per instruction of its straight-line
  code (the IR outside loops), then its loops.
- A loop costs `LOOP_OVERHEAD` each time it runs, plus its iterations. A loop with a
  constant trip count is unrolled (its count is known to the compiler; assumption).
  Index arithmetic inside loops is free in both schedules: addresses post-increment in
  the loads and stores themselves (`ld64step`, the `pace` forms).
- EMITTED, as poplibs estimates its own C++ (non-asm) elementwise codelets
  (binaryOpInnerLoopCycles, lib/popops/popopsCycleEstimators.cpp:63-84: the op's cycles
  plus 5 per vector "for load/store and loop decision", against 2 for its asm):
  * every load and store is its own instruction: nothing we print guarantees the
    address packing, strides and memory elements `ld2x64pace`/`ld2xst64pace` need, and
    in poplibs those are only used from asm (ipu-performance.md);
  * floating point does not overlap memory: the op's cycles are added to the memory
    instructions, as that rule adds them;
  * an fma is a multiply and an add: `f32v2axpy`/`f16v4mix` read the scalar from $TAS
    and return the previous accumulator state, so they need a software pipeline that
    poplibs writes only in asm (ScaledAddSupervisor_fp.S:162-204);
  * each iteration of a loop whose trip count is not a constant pays `LOOP_DECISION`
    (the increment, compare and branch of `for (u = worker; u < units; u += workers)`;
    no loop we print has an `rptsize_t` count, the hardware-loop shape).
- ASM, a hand-scheduled `rpt` loop (no per-iteration overhead, isa_doc_generated/hover/
  rpt.md) of bundles, each pairing one main-pipeline instruction (load, store, integer,
  branch) with one auxiliary-pipeline instruction (floating point): an iteration takes
  max(main, aux) cycles (ipu-performance.md). Two vector loads of different fields
  issue as one `ld2x64pace`, two loads with a store as one `ld2xst64pace` (ISA notes
  ld2x64pace.md, ld2xst64pace.md). A `vector.fma` whose multiplier is a broadcast
  scalar is one `f16v4mix` per half4 but two `f32v2axpy` per float2 (one feeds the
  accumulators, one drains them: ScaledAddSupervisor_fp.S:192-201 against 481-490);
  any other fma is a multiply and an add.
- Both: a store narrower than 32 bits is a read-modify-write of its word
  (`SUB_WORD_STORE`). Floating point costs what poplibs charges per op and element
  type, from its own tables (`poplibs_estimates.BINARY_OP_TABLE`, `UNARY_OP_TABLE`, each
  row citing popopsCycleEstimators.hpp): `addf` on `vector<2xf32>` is one f32v2add, a
  division of two floats 10 cycles. Integer and boolean ops take one main-pipeline
  instruction per element.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
import math
from math import ceil, prod

import numpy as np

from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects import math as mathd
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    IndexType,
    IntegerAttr,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ipu_lower.arch import MATMUL_EFFICIENCY, Arch
from ipu_lower.dialects import ipu, poplar
from ipu_lower.dialects.popops_reduce import accumulator_type
from ipu_lower.dialects.tiling import Block
from ipu_lower.element_types import element_type, is_signedness_cast
from ipu_lower.estimates import Counts, PlannedStep, ProgramEstimate, WhileLoop
from ipu_lower.poplibs_estimates import (
    BASIC_OP_SUPERVISOR_OVERHEAD,
    BINARY_LOOP_OVERHEAD_C_CODELET,
    BINARY_OP_TABLE,
    FLOAT,
    HALF,
    REDUCE_SINGLE_INPUT_ENTRY_EXIT,
    REDUCE_SINGLE_INPUT_INIT,
    REDUCE_SINGLE_INPUT_NOT_FLOAT_OUT,
    REDUCE_SINGLE_INPUT_REMAINDER_SETUP,
    REDUCE_SINGLE_INPUT_SUM_ACCUMULATORS,
    SCALED_ADD_WORKER_EXIT,
    SCALED_ADD_WORKER_LOOP_OVERHEAD,
    SCALED_ADD_WORKER_PROLOGUE,
    SCALED_ADD_WORKER_REM_CHECK,
    UNARY_OP_TABLE,
    VECTOR_WIDTH,
    LoopCost,
    binary_op_1d,
    binary_op_1d_in_place,
    cast_1d,
    scaled_add_supervisor,
    scaled_subtract_supervisor,
    unary_op_1d,
)

VERTEX_OVERHEAD = BASIC_OP_SUPERVISOR_OVERHEAD
"""Launching a vertex: popops' basicOpSupervisorOverhead, 11 cycles
(lib/popops/PerformanceEstimation.cpp:22)."""

WORKER_OVERHEAD = SCALED_ADD_WORKER_PROLOGUE + SCALED_ADD_WORKER_REM_CHECK + SCALED_ADD_WORKER_EXIT
"""A worker's entry, field pointer loads, the test for the remainder and exit: what
popops' ScaledAdd worker pays around its loop, 15 + 2 + 1 cycles
(lib/popops/PerformanceEstimation.cpp:597, 603, 620)."""

LOOP_OVERHEAD = SCALED_ADD_WORKER_LOOP_OVERHEAD
"""Setting up and draining a repeat loop (count, `rpt`, pipeline fill): the ScaledAdd
worker's inner-loop constant, 6 cycles (lib/popops/PerformanceEstimation.cpp:600)."""

SUB_WORD_STORE = 3
"""Instructions of a store narrower than 32 bits, a read-modify-write of its word: ld32,
sort4x16hi, st32, as poplibs writes its last half (lib/popops/codelets/asm/
ScaledAddSupervisor_fp.S:592-599)."""

LOOP_DECISION = BINARY_LOOP_OVERHEAD_C_CODELET - 3
"""What each iteration of a C++ loop pays to decide whether to go on (increment, compare,
branch), in the emitted schedule: poplibs' 5 cycles per vector of a C++ binary-op
codelet "for load/store and loop decision" (lib/popops/popopsCycleEstimators.cpp:72-76)
less that vector's three memory instructions (two loads, a store): 2."""


class Schedule(StrEnum):
    """Which code a vertex estimate describes (see the module docstring)."""

    EMITTED = "emitted"
    """The C++ the printer emits, as popc can be expected to compile it."""
    ASM = "asm"
    """A hand-scheduled assembly vertex for the same body: a bound."""

_POPLIBS_DTYPE = {Float32Type: FLOAT, Float16Type: HALF}
_POPLIBS_OPS: dict[type[Operation], tuple[dict[tuple[str, str], LoopCost], str]] = {
    arith.AddfOp: (BINARY_OP_TABLE, "add"),
    arith.SubfOp: (BINARY_OP_TABLE, "subtract"),
    arith.MulfOp: (BINARY_OP_TABLE, "multiply"),
    arith.DivfOp: (BINARY_OP_TABLE, "divide"),
    arith.MaximumfOp: (BINARY_OP_TABLE, "maximum"),
    arith.MinimumfOp: (BINARY_OP_TABLE, "minimum"),
    arith.NegfOp: (UNARY_OP_TABLE, "negate"),
    mathd.SqrtOp: (UNARY_OP_TABLE, "sqrt"),
    mathd.RsqrtOp: (UNARY_OP_TABLE, "rsqrt"),
    mathd.ExpOp: (UNARY_OP_TABLE, "exponent"),
    mathd.Exp2Op: (UNARY_OP_TABLE, "exponent2"),
    mathd.LogOp: (UNARY_OP_TABLE, "logarithm"),
    mathd.TanhOp: (UNARY_OP_TABLE, "tanh"),
    mathd.AbsFOp: (UNARY_OP_TABLE, "absolute"),
    mathd.CeilOp: (UNARY_OP_TABLE, "ceil"),
    mathd.FloorOp: (UNARY_OP_TABLE, "floor"),
    mathd.RoundOp: (UNARY_OP_TABLE, "round"),
    mathd.TruncOp: (UNARY_OP_TABLE, "trunc"),
}
_UNLISTED_FUNCTION = (UNARY_OP_TABLE, "logarithm")
"""math functions poplibs' tables do not list (sin, pow, ...) cost what its dearest
listed transcendental does."""


def float_op_cycles(kind: type[Operation], element: Attribute, lanes: int) -> int:
    """Auxiliary-pipeline cycles of a float op on `lanes` elements (1 for a scalar op)."""
    table, name = _POPLIBS_OPS.get(kind, _UNLISTED_FUNCTION)
    row = table[(name, _POPLIBS_DTYPE[type(element)])]
    if row.natural_vector:
        per_loop = VECTOR_WIDTH[_POPLIBS_DTYPE[type(element)]]
    else:
        per_loop = row.unroll or 1
    return max(1, ceil(row.cycles_per_loop * lanes / per_loop))


@dataclass
class Bundles:
    """The instructions of a repeat body, by pipeline, with its vector memory accesses
    kept apart so that they can pair."""

    main: int = 0
    aux: int = 0
    vector_loads: Counter[SSAValue] = field(default_factory=Counter)
    vector_stores: int = 0

    def add(self, other: Bundles, times: int = 1) -> None:
        self.main += times * other.main
        self.aux += times * other.aux
        self.vector_stores += times * other.vector_stores
        for f, n in other.vector_loads.items():
            self.vector_loads[f] += times * n

    def cycles(self, schedule: Schedule) -> int:
        loads = sum(self.vector_loads.values())
        stores = self.vector_stores
        if schedule is Schedule.EMITTED:  # one instruction each, floating point beside them
            return self.main + loads + stores + self.aux
        # Loads of different fields pair; a pair takes a store along; bundles co-issue.
        pairs = min(loads // 2, loads - max(self.vector_loads.values(), default=0))
        triples = min(pairs, stores)
        memory = pairs + (loads - 2 * pairs) + (stores - triples)
        return max(self.main + memory, self.aux)


def _is_float(t: Attribute) -> bool:
    return isinstance(t, Float32Type | Float16Type)


def _lanes(t: Attribute) -> tuple[Attribute, int]:
    return (t.element_type, t.get_shape()[0]) if isinstance(t, VectorType) else (t, 1)


_INDEX_ARITHMETIC: dict[type[Operation], Callable[..., int | None]] = {
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
    """The cost of one codelet body, for any field sizes, in one `Schedule` (by default
    as emitted). What a loop body issues does not depend on the worker: it is summed
    once per body."""

    def __init__(self, body: Block, schedule: Schedule = Schedule.EMITTED):
        self.body = body
        self.schedule = Schedule(schedule)
        self._loop_bodies: dict[Block, tuple[int, list[Operation]]] = {}
        self._straight: dict[Block, tuple[int, list[Operation]]] = {}
        self.constants = {
            op.result: op.value.value.data
            for op in body.walk()
            if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr)
        }

    def cycles(self, field_sizes: Sequence[int], workers: int, extents: Sequence[int] = ()) -> int:
        """Cycles of one vertex whose fields (the block arguments of the body) hold
        `field_sizes` elements, run by `workers` worker threads; over a grid map, its
        box has `extents`."""
        busiest = max(_Worker(self, field_sizes, w, workers, extents).straight(self.body) for w in range(workers))
        return VERTEX_OVERHEAD + workers * (WORKER_OVERHEAD + busiest)

    def straight_code(self, block: Block) -> tuple[int, list[Operation]]:
        """The cycles of `block` run once, outside loops, but for its loops and
        branches; and the ops each worker evaluates: those loops and branches, and what
        defines index values and conditions (their bounds)."""
        if block not in self._straight:
            cycles, dynamic = 0, []
            for op in block.ops:
                if isinstance(op, scf.ForOp | scf.IfOp):
                    dynamic.append(op)
                    continue
                if isinstance(op, arith.ConstantOp):
                    continue  # known to every worker from the start
                if isinstance(op, (*_FACTS, arith.CmpiOp)) or (op.results and isinstance(op.results[0].type, IndexType)):
                    dynamic.append(op)
                if not isinstance(op, _FACTS):
                    issued = instructions(op, self.schedule)
                    cycles += issued.main + issued.aux + sum(issued.vector_loads.values()) + issued.vector_stores
            self._straight[block] = (cycles, dynamic)
        return self._straight[block]

    def loop_body(self, block: Block) -> tuple[int, list[Operation]]:
        """The cycles of one iteration of a loop over `block` but for its loops with
        variable bounds and its branches, and those ops."""
        if block not in self._loop_bodies:
            bundles, dynamic = self._bundles(block)
            decision = LOOP_DECISION if self.schedule is Schedule.EMITTED else 0
            self._loop_bodies[block] = (bundles.cycles(self.schedule) + decision, dynamic)
        return self._loop_bodies[block]

    def _bundles(self, block: Block) -> tuple[Bundles, list[Operation]]:
        bundles = Bundles()
        dynamic: list[Operation] = []
        for op in block.ops:
            if _is_free(op):
                continue
            trips = _constant_trip_count(op) if isinstance(op, scf.ForOp) else None
            if trips is not None:  # unrolled
                inner, inner_dynamic = self._bundles(op.body.block)
                bundles.add(inner, trips)
                dynamic += inner_dynamic * trips
            elif isinstance(op, scf.ForOp | scf.IfOp):
                dynamic.append(op)
            else:
                bundles.add(instructions(op, self.schedule))
        return bundles, dynamic


_FACTS = (
    arith.ConstantOp,
    memref.DimOp,
    scf.YieldOp,
    ipu.WorkerIdOp,
    poplar.WorkerIdOp,
    ipu.NumWorkersOp,
    poplar.NumWorkersOp,
    ipu.BlockStartOp,
    poplar.BlockStartOp,
    ipu.BlockExtentOp,
    poplar.BlockExtentOp,
)
"""Ops that cost nothing: the compiler keeps constants, sizes and worker facts in
registers or folds them."""


def _is_free(op: Operation) -> bool:
    """Facts, signedness casts (the bits stay in their register) and, inside loops,
    address arithmetic."""
    return (
        isinstance(op, _FACTS)
        or is_signedness_cast(op)
        or (bool(op.results) and isinstance(op.results[0].type, IndexType))
    )


def _constant_trip_count(loop: scf.ForOp) -> int | None:
    bounds = []
    for value in (loop.lb, loop.ub, loop.step):
        owner = value.owner
        if not isinstance(owner, arith.ConstantOp) or not isinstance(owner.value, IntegerAttr):
            return None
        bounds.append(owner.value.value.data)
    lower, upper, step = bounds
    return max(0, ceil((upper - lower) / step)) if step > 0 else None


def instructions(op: Operation, schedule: Schedule = Schedule.EMITTED) -> Bundles:
    """The instructions of one op that is not a loop or branch."""
    if is_signedness_cast(op):
        return Bundles()  # the same bits, read as another type
    if isinstance(op, vector.LoadOp):
        return Bundles(vector_loads=Counter({op.base: 1}))
    if isinstance(op, vector.StoreOp):
        return Bundles(vector_stores=1)
    if isinstance(op, memref.LoadOp | vector.BroadcastOp):
        return Bundles(main=1)
    if isinstance(op, memref.StoreOp):
        row = element_type(op.value.type)
        return Bundles(main=SUB_WORD_STORE if row is not None and row.bytes < 4 else 1)
    if not op.results:
        return Bundles()
    element, lanes = _lanes(op.results[0].type)
    if isinstance(op, vector.FMAOp):
        scaled = any(isinstance(o.owner, vector.BroadcastOp) for o in (op.lhs, op.rhs))
        multiply = float_op_cycles(arith.MulfOp, element, lanes)
        # f16v4mix: one per half4; f32v2axpy: one to feed, one to drain, per float2.
        mix = schedule is Schedule.ASM and scaled and isinstance(element, Float16Type)
        return Bundles(aux=multiply if mix else 2 * multiply)
    if _is_float(element) and (type(op) in _POPLIBS_OPS or op.dialect_name() == "math"):
        return Bundles(aux=float_op_cycles(type(op), element, lanes))
    if _is_float(element) or any(_is_float(_lanes(o.type)[0]) for o in op.operands):
        return Bundles(aux=lanes)  # comparisons, conversions: one instruction a lane
    return Bundles(main=lanes)


class _Worker:
    """Counts the cycles one worker spends, knowing the index values it can."""

    def __init__(self, cost: VertexCost, sizes: Sequence[int], worker: int, workers: int, extents: Sequence[int] = ()):
        self.cost = cost
        self.known: dict[SSAValue, int] = dict(cost.constants)
        self.sizes = dict(zip(cost.body.args, sizes))
        self.extents = extents
        self.worker = worker
        self.workers = workers

    def straight(self, block: Block) -> int:
        """Cycles of a block run outside any loop: one per instruction, loops aside."""
        total, dynamic = self.cost.straight_code(block)
        for op in dynamic:
            self.evaluate(op)
            if isinstance(op, scf.ForOp):
                trips = self.trip_count(op)
                total += LOOP_OVERHEAD + trips * self.iteration(op.body.block) if trips else 0
            elif isinstance(op, scf.IfOp):
                total += 1 + sum(self.straight(r.block) for r in self.taken(op))
        return total

    def iteration(self, block: Block) -> int:
        """Cycles of one iteration of a loop with this body."""
        cycles, dynamic = self.cost.loop_body(block)
        if dynamic:
            for op in block.ops:  # index facts for the bounds of the inner loops
                self.evaluate(op)
        for op in dynamic:
            if isinstance(op, scf.ForOp):
                cycles += LOOP_OVERHEAD + self.trip_count(op) * self.iteration(op.body.block)
            else:
                cycles += 1 + sum(self.straight(r.block) for r in self.taken(op))  # type: ignore[arg-type]
        return cycles

    def evaluate(self, op: Operation) -> None:
        """Record what `op` tells about index values and conditions."""
        if isinstance(op, memref.DimOp):
            if op.source in self.sizes:
                self.known[op.result] = self.sizes[op.source]
        elif isinstance(op, ipu.WorkerIdOp | poplar.WorkerIdOp):
            self.known[op.results[0]] = self.worker
        elif isinstance(op, ipu.NumWorkersOp | poplar.NumWorkersOp):
            self.known[op.results[0]] = self.workers
        elif isinstance(op, ipu.BlockExtentOp | poplar.BlockExtentOp):
            if op.dimension < len(self.extents):
                self.known[op.result] = self.extents[op.dimension]
        elif (operands := op.operands) and all(o in self.known for o in operands):
            values = [self.known[o] for o in operands]
            if type(op) in _INDEX_ARITHMETIC:
                value = _INDEX_ARITHMETIC[type(op)](*values)
                if value is not None:
                    self.known[op.results[0]] = value
            elif isinstance(op, arith.CmpiOp) and op.predicate.value.data in (0, 1):
                self.known[op.result] = int((values[0] == values[1]) == (op.predicate.value.data == 0))

    def taken(self, op: scf.IfOp) -> list:
        """The regions of a branch this worker runs: the taken one when the condition is
        known, else the dearer one."""
        if op.cond in self.known:
            region = op.true_region if self.known[op.cond] else op.false_region
            return [region] if region.blocks else []
        regions = [r for r in op.regions if r.blocks]
        return [max(regions, key=lambda r: self.straight(r.block))] if regions else []

    def trip_count(self, loop: scf.ForOp) -> int:
        """Iterations of `loop` for this worker; 1 when its bounds are not known."""
        bounds = [self.known.get(v) for v in (loop.lb, loop.ub, loop.step)]
        if any(b is None for b in bounds) or bounds[2] <= 0:  # type: ignore[operator]
            return 1
        lower, upper, step = bounds
        return max(0, ceil((upper - lower) / step))  # type: ignore[operator]


def vertex_cycles(
    body: Block, field_sizes: Sequence[int], workers: int, schedule: Schedule = Schedule.EMITTED
) -> int:
    """Cycles of one vertex whose fields (the block arguments of `body`) hold
    `field_sizes` elements, run by `workers` worker threads, in `schedule`."""
    return VertexCost(body, schedule).cycles(field_sizes, workers)


# -- exchange ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Exchange:
    """What a compute set's vertices receive from other tiles before it runs: the
    busiest tile's bytes and the total over tiles."""

    busiest_tile_bytes: int
    total_bytes: int

    def cycles(self, exchange_bytes_per_cycle: int) -> int:
        """Exchange time: the busiest tile's bytes over the bytes a tile receives per
        cycle, as popops' ExchangeEstimator::getCycles computes it
        (lib/popops/ExchangeEstimator.cpp; the rate is the arch's, see ipu_lower/arch.py)."""
        return ceil(self.busiest_tile_bytes / exchange_bytes_per_cycle)


def exchange(compute_set: SSAValue) -> Exchange:
    """The exchange of the `poplar.add_vertices` of `compute_set`: every element a
    vertex is connected to that its tile does not hold (by the tensor's
    `poplar.map_tensor`) crosses the exchange once, twice for an inout field (in, and
    back), the rule the emulator measures by (CostModel.hpp). Counted block by block:
    proportional to the tile count, for estimates, never for building IR."""
    received = _TileBytes()
    for use in compute_set.uses:
        placement = use.operation
        if not isinstance(placement, poplar.AddVerticesOp):
            continue
        codelet = poplar.codelet_named(placement, placement.codelet.root_reference.data)
        assert codelet is not None  # the verifier of add_vertices sees to it
        directions = {f.field_name.data: f.direction.data for f in codelet.fields.data}
        for name, tensor, rule in zip(placement.names(), placement.tensors, placement.rules.data):
            size = poplar.tensor_type(tensor).num_elements()
            per_element = element_type(poplar.tensor_type(tensor).element_type).bytes
            crossings = 2 if directions[name] == "inout" else 1
            if isinstance(placement.tile_map, poplar.GridMapAttr):
                _receive_boxes(received, placement.tile_map, tensor, rule, per_element * crossings)
                continue
            if isinstance(tensor.owner, poplar.AddTensorOp):
                layout = _mapping(tensor).tile_map
                _receive_blocks(received, placement.tile_map, layout, rule, size, per_element * crossings)
                continue
            tiles = element_tiles(tensor)  # a view: its elements lie anywhere in the variable
            for block in placement.tile_map.blocks():
                for begin, end in rule.element_ranges(block, size):
                    foreign = int(np.count_nonzero(tiles[begin:end] != block.tile))
                    received.add(block.tile, block.tile + 1, foreign * per_element * crossings)
    return Exchange(received.busiest(), received.total)


class _TileBytes:
    """Bytes received per tile, added over ranges of tiles: the work is that of the
    ranges, not of the tiles."""

    def __init__(self) -> None:
        self.changes: Counter[int] = Counter()
        self.total = 0

    def add(self, first: int, end: int, bytes_: int) -> None:
        """Each of the tiles [first, end) receives `bytes_` more."""
        self.changes[first] += bytes_
        self.changes[end] -= bytes_
        self.total += bytes_ * (end - first)

    def busiest(self) -> int:
        level = most = 0
        for tile in sorted(self.changes):
            level += self.changes[tile]
            most = max(most, level)
        return most


def _receive_blocks(
    received: _TileBytes,
    work: poplar.TileMapAttr,
    layout: poplar.TileMapAttr,
    rule: poplar.SliceAttr,
    size: int,
    element_bytes: int,
) -> None:
    """What the vertices of `work` receive of a variable of `size` elements laid out by
    `layout`: the elements of their slices that their tile does not hold. Computed once
    per stretch of tiles where both maps keep one run, when the slice moves from tile to
    tile as the held block does (as between equal runs), else tile by tile."""
    held_runs = list(zip(layout.runs(), layout.run_starts()))
    index = 0
    for r, (run, start) in enumerate(zip(work.runs(), work.run_starts())):
        cuts = {run.first, run.end}
        cuts.update(t for h, _ in held_runs for t in (h.first, h.end) if run.first < t < run.end)
        cuts_in_order = sorted(cuts)
        for first, last in zip(cuts_in_order, cuts_in_order[1:]):
            held = next(((h, s) for h, s in held_runs if h.first <= first < h.end), None)

            def received_at(tile: int) -> int:
                k = tile - run.first
                block = Block(tile, index + k, r, start + k * run.count, start + (k + 1) * run.count)
                own_begin = own_end = 0
                if held is not None:
                    own_begin = held[1] + (tile - held[0].first) * held[0].count
                    own_end = own_begin + held[0].count
                return element_bytes * sum(
                    end - begin - max(0, min(end, own_end) - max(begin, own_begin))
                    for begin, end in rule.element_ranges(block, size)
                )

            if held is None or rule.step(run.count) == held[0].count:
                received.add(first, last, received_at(first))
            else:
                for tile in range(first, last):
                    received.add(tile, tile + 1, received_at(tile))
        index += run.tiles


def _receive_boxes(
    received: _TileBytes, grid: poplar.GridMapAttr, tensor: SSAValue, rule: poplar.SliceAttr, element_bytes: int
) -> None:
    """What the vertices of a grid map receive of `tensor`: the elements of each one's
    box (with its halo) that its tile does not hold."""
    shape = poplar.tensor_type(tensor).get_shape()
    layout = _mapping(tensor).tile_map if isinstance(tensor.owner, poplar.AddTensorOp) else None
    tiles = None if isinstance(layout, poplar.GridMapAttr) else element_tiles(tensor).reshape(shape)
    for block in grid.blocks():
        box = rule.box_of(block) or tuple((0, n) for n in shape)
        if tiles is not None:  # a scalar every vertex reads, or a tensor in strips
            held = int(np.count_nonzero(tiles[tuple(slice(b, e) for b, e in box)] == block.tile))
        elif (own := layout.owner_box(block.tile)) is not None:  # type: ignore[union-attr]
            held = prod(max(0, min(e, oe) - max(b, ob)) for (b, e), (ob, oe) in zip(box, own))
        else:
            held = 0
        received.add(block.tile, block.tile + 1, (prod(e - b for b, e in box) - held) * element_bytes)


def _mapping(tensor: SSAValue) -> poplar.MapTensorOp:
    """The `poplar.map_tensor` of a variable: first the op after it, where
    convert-ipu-to-poplar puts it, since a variable has a use per state that reads it."""
    after = tensor.owner.next_op
    if isinstance(after, poplar.MapTensorOp) and after.tensor is tensor:
        return after
    return next(u.operation for u in tensor.uses if isinstance(u.operation, poplar.MapTensorOp))


def element_tiles(tensor: SSAValue) -> np.ndarray:
    """The tile holding each element of a tensor (row-major, flat): a variable's by its
    `poplar.map_tensor`, a view's by following its views back to the variable. One entry
    per element: for estimates of views only."""
    owner = tensor.owner
    if isinstance(owner, poplar.AddTensorOp):
        layout = _mapping(tensor).tile_map
        if isinstance(layout, poplar.GridMapAttr):
            boxes = np.empty(poplar.tensor_type(tensor).get_shape(), dtype=np.int32)
            for block in layout.blocks():
                boxes[tuple(slice(b, e) for b, e in block.box)] = block.tile
            return boxes.reshape(-1)
        tiles = np.empty(poplar.tensor_type(tensor).num_elements(), dtype=np.int32)
        for run, start in zip(layout.runs(), layout.run_starts()):
            tiles[start : start + run.elements] = np.repeat(np.arange(run.first, run.end, dtype=np.int32), run.count)
        return tiles
    assert isinstance(owner, poplar.FlattenOp | poplar.SliceOp | poplar.SliceBoxOp | poplar.ReshapeOp
                      | poplar.DimShuffleOp | poplar.BroadcastOp)
    source = element_tiles(owner.tensor).reshape(poplar.tensor_type(owner.tensor).get_shape())
    if isinstance(owner, poplar.SliceBoxOp):
        view = source[tuple(slice(b, e) for b, e in zip(*owner.bounds()))]
    elif isinstance(owner, poplar.SliceOp):
        view = source[owner.begin.value.data : owner.end.value.data]
    elif isinstance(owner, poplar.DimShuffleOp):
        view = source.transpose(owner.order())
    elif isinstance(owner, poplar.BroadcastOp):
        view = np.concatenate([source] * owner.times.value.data, axis=owner.dim.value.data)
    else:  # flatten, reshape: the same elements in the same order
        view = source
    return np.ascontiguousarray(view).reshape(-1)


def superstep_cycles(compute: int, exchange_bytes: int, arch: Arch) -> int:
    """Cycles of one compute set run as a BSP superstep, as the emulator counts them
    (ipu_lower/emulator/include/ipu_lower_emulator/CostModel.hpp): its busiest tile's
    compute, the bytes the busiest tile receives (`Exchange.cycles`) and one sync
    (`arch.sync_cycles`)."""
    return compute + Exchange(exchange_bytes, exchange_bytes).cycles(arch.exchange_bytes_per_cycle) + arch.sync_cycles


PARTIAL_BYTES = 4
"""Bytes of a partial sum of a product: float32, what ipu-lower asks poplin for in float16
too (see `Arch.flops_per_cycle_f16`)."""


@dataclass(frozen=True)
class MatmulPartition:
    """An explicit split of `groups` products [rows, inner] x [inner, columns] over the
    tiles: how many parts each dimension is cut into, and what the busiest tile receives
    and computes."""

    groups: int
    rows: int
    inner: int
    columns: int
    received_bytes: int
    flops: int


def matmul_partition(groups: int, rows: int, inner: int, columns: int, element_bytes: int, tiles: int) -> MatmulPartition:
    """The split of the product over `tiles` whose busiest tile receives the fewest bytes
    (then computes the fewest FLOPs), as poplin's planner trades exchange against compute
    (lib/poplin/ConvPlan.cpp, which weighs each candidate's exchange and compute
    estimates): every tile of a (g, m, k, n) split receives its blocks of A and B (no
    operand is assumed to lie where it is used, nor broadcast more cheaply: assumption)
    and, when k is split, the k tiles sharing a block of the result reduce-scatter their
    partials (`PARTIAL_BYTES` each): each receives k - 1 of its 1/k of the block.
    The emulator's CostModel.hpp (`matMulPartition`) computes the same."""
    best: MatmulPartition | None = None
    for pg in range(1, min(groups, tiles) + 1):
        cg = -(-groups // pg)
        for pm in range(1, min(rows, tiles // pg) + 1):
            cm = -(-rows // pm)
            for pk in range(1, min(inner, tiles // (pg * pm)) + 1):
                ck = -(-inner // pk)
                pn = min(columns, tiles // (pg * pm * pk))  # more column parts never add bytes
                cn = -(-columns // pn)
                received = cg * (cm * ck + ck * cn) * element_bytes
                received += cg * (pk - 1) * -(-(cm * cn) // pk) * PARTIAL_BYTES
                flops = 2 * cg * cm * ck * cn
                if best is None or (received, flops) < (best.received_bytes, best.flops):
                    best = MatmulPartition(pg, pm, pk, pn, received, flops)
    assert best is not None  # tiles >= 1 and every dimension >= 1
    return best


def matmul_cycles(rows: int, inner: int, columns: int, element_bytes: int, arch: Arch, groups: int = 1) -> int:
    """Cycles of one poplin product of `groups` times [rows, inner] x [inner, columns]
    (float16 when `element_bytes` is 2, else float32; poplin's grouped product for more
    than one group), as the emulator counts them (CostModel.hpp), on the busiest tile of
    `matmul_partition`: its FLOPs at the arch's peak per tile (`Arch.flops_per_cycle_*`)
    times poplin's efficiency (`arch.MATMUL_EFFICIENCY`: an assumption read off a
    published plot, see its source), the bytes it receives over the exchange, and a sync.
    Adding the received partials is not counted (assumption: it hides under the AMP
    work)."""
    peak = arch.flops_per_cycle_f16 if element_bytes == 2 else arch.flops_per_cycle_f32
    part = matmul_partition(groups, rows, inner, columns, element_bytes, arch.tiles)
    share, whole = MATMUL_EFFICIENCY
    compute = -(-part.flops * whole // (peak * share))
    exchange_cycles = -(-part.received_bytes // arch.exchange_bytes_per_cycle)
    return compute + exchange_cycles + arch.sync_cycles


REDUCE_FOLD_PER_RESULT = REDUCE_SINGLE_INPUT_ENTRY_EXIT + REDUCE_SINGLE_INPUT_INIT + REDUCE_SINGLE_INPUT_REMAINDER_SETUP + (
    REDUCE_SINGLE_INPUT_SUM_ACCUMULATORS
)
"""What a popops reduction vertex pays per result it folds: entry and exit, init, the
remainder and summing its accumulators, 3 + 6 + 5 + 3 cycles
(getCyclesEstimateForSingleInput, lib/popops/reduction/CycleEstimationFunctions.cpp:313-322)."""

REDUCE_STAGE_FACTOR = 64
"""popops adds a reduction stage while the partials exceed this many per output
(reductionFactorThresholdToAddMoreStages, lib/popops/reduction/ReductionPlan.hpp:147-150)."""


def _fold_width(t: Attribute) -> int:
    """Values a worker folds per cycle: the 64-bit data path of float (2) and half (4)
    values, one int (getAccVectorWidth, CycleEstimationFunctions.cpp:362-366)."""
    return {Float32Type: 2, Float16Type: 4}.get(type(t), 1)


def _fold(values: int, results: int, width: int, float_results: bool, workers: int) -> int:
    """Tile cycles of folding `values` into `results` on one tile, its workers sharing
    them (see `reduce_cycles`)."""
    if not results:
        return 0
    per_result = REDUCE_FOLD_PER_RESULT + (0 if float_results else REDUCE_SINGLE_INPUT_NOT_FLOAT_OUT)
    return workers * (-(-results // workers) * per_result + -(-values // (workers * width)))


def reduce_cycles(
    in_tiles: np.ndarray, output_of: np.ndarray, out_tiles: np.ndarray, element: Attribute, accumulator: Attribute,
    update: bool, arch: Arch,
) -> int:
    """Cycles of one popops reduction of the input elements on tiles `in_tiles`, each
    into output `output_of` (held on `out_tiles`), as the emulator counts them
    (CostModel.hpp, `reduceCost`): popops' stages (lib/popops/reduction/Reduction.cpp
    :289-405), each a superstep of the busiest tile's compute, the bytes the busiest
    tile receives and a sync. A tile folds v values into f results in
    `workers * (ceil(f / workers) * (REDUCE_FOLD_PER_RESULT + 5 when the results are
    not float) + ceil(v / (workers * width)))` (`_fold`: the worker cycles of
    getCyclesEstimateForSingleInput, CycleEstimationFunctions.cpp:292-330, shared by the
    workers and combined as PerformanceEstimation.cpp:625-626 does). With k_o the tiles
    holding values of output o and P their sum:

    1. each tile folds its values into one result per output they belong to; when
       every k_o is 1 those are the outputs (with their old values under `update`), and
       an output held on another tile crosses the exchange once (twice under update);
       otherwise partials in the accumulator type stay where they are;
    2. while P > 64 outputs (`REDUCE_STAGE_FACTOR`), unless the fan-in k = max k_o is
       under 2 sqrt(tiles) and partials lie on more than 3/4 of the tiles
       (calculateNextStep, ReductionPlan.cpp:311-341), an intermediate stage splits
       each output's partials into min(k_o, s) groups, s = floor(sqrt(P // outputs))
       (ReductionPlan.cpp:226-231), spread evenly over the tiles (assumption): the
       busiest tile receives and folds ceil(groups / tiles) groups of ceil(k / s);
    3. the tile of each output receives its k_o partials (each crossing: assumption)
       and folds them (and the old value under update)."""
    tiles, workers = arch.tiles, arch.workers_per_tile
    outputs = len(out_tiles)
    out_bytes, accum_bytes = element_type(element).bytes, element_type(accumulator).bytes  # type: ignore[union-attr]
    out_float, accum_float = isinstance(element, Float32Type), isinstance(accumulator, Float32Type)
    sync, rate = arch.sync_cycles, arch.exchange_bytes_per_cycle
    pairs = np.unique(in_tiles.astype(np.int64) * outputs + output_of)
    folder, owner = pairs // outputs, pairs % outputs
    values = np.bincount(in_tiles, minlength=tiles)
    results = np.bincount(folder, minlength=tiles)
    spread = np.bincount(owner, minlength=outputs)
    fan_in, partials = int(spread.max(initial=0)), int(spread.sum())
    if fan_in <= 1:  # 1. the outputs, where the values are
        folded = values + (results if update else 0)
        compute = max((_fold(int(v), int(f), _fold_width(element), out_float, workers) for v, f in zip(folded, results)),
                      default=0)
        crossing = out_tiles[owner] != folder
        received = np.bincount(folder[crossing], minlength=tiles) * out_bytes * (2 if update else 1)
        return compute + -(-int(received.max(initial=0)) // rate) + sync
    width = _fold_width(element)  # 1. partials
    cycles = max(_fold(int(v), int(f), width, accum_float, workers) for v, f in zip(values, results)) + sync
    holding = int(np.count_nonzero(values))
    while partials > REDUCE_STAGE_FACTOR * outputs and not (
        fan_in < 2 * math.sqrt(tiles) and holding > tiles * 3 // 4
    ):  # 2.
        s = max(1, int(math.sqrt(partials // outputs)))
        spread = np.minimum(spread, s)
        groups = int(spread.sum())
        per_tile = -(-groups // tiles)
        received = per_tile * -(-fan_in // s)
        cycles += _fold(received, per_tile, _fold_width(accumulator), accum_float, workers)
        cycles += -(-received * accum_bytes // rate) + sync
        fan_in, partials, holding = min(fan_in, s), groups, min(tiles, groups)
    folded = np.bincount(out_tiles, weights=spread + (1 if update else 0), minlength=tiles).astype(np.int64)  # 3.
    owned = np.bincount(out_tiles, minlength=tiles)
    compute = max(_fold(int(v), int(f), _fold_width(accumulator), out_float, workers) for v, f in zip(folded, owned))
    received = np.bincount(out_tiles, weights=spread, minlength=tiles).astype(np.int64) * accum_bytes
    return cycles + compute + -(-int(received.max()) // rate) + sync


def reduce_estimate(op: poplar.ReduceOp, arch: Arch) -> int:
    """`reduce_cycles` of a `poplar.reduce`, its elements' tiles read from the tile
    mappings of its tensors (`element_tiles`)."""
    shape = poplar.tensor_type(op.input).get_shape()
    dims = op.dim_list()
    kept = [n if d not in dims else 1 for d, n in enumerate(shape)]
    output_of = np.broadcast_to(np.arange(prod(kept)).reshape(kept), shape).reshape(-1)
    element = op.element()
    return reduce_cycles(
        element_tiles(op.input), output_of, element_tiles(op.out), element, accumulator_type(op.kind.data, element),
        op.is_update(), arch,
    )


def product_cycles(op: poplar.MatmulOp, arch: Arch) -> int:
    """Cycles of the poplibs calls a `poplar.matmul` prints (host_printer._matmul), as
    the emulator counts them (CostModel.hpp): the product (`matmul_cycles`); with beta
    != 0 (`matMulAcc`) poplin's `scaledAddTo` of it into C, poplibs' ScaledAddSupervisor
    estimate for C's elements on its busiest tile plus a sync; and each
    `popops::mulInPlace` of C (by alpha, or by beta), poplibs' BinaryOp1DInPlace
    multiply estimate for the same elements plus a sync (popops places elementwise
    vertices where C lies: nothing moves)."""
    groups, rows, inner, columns = op.sizes()
    t = poplar.tensor_type(op.lhs)
    size = element_type(t.element_type).bytes
    dtype = HALF if size == 2 else FLOAT
    cycles = matmul_cycles(rows, inner, columns, size, arch, groups)
    if not op.scales_c() and op.beta_value() == 0:
        return cycles
    busiest = int(np.bincount(element_tiles(op.out)).max())
    if op.beta_value() != 0:
        cycles += scaled_add_supervisor(dtype, busiest, False, arch.workers_per_tile) + arch.sync_cycles
    if op.scales_c():
        cycles += binary_op_1d_in_place("multiply", dtype, busiest, arch.workers_per_tile) + arch.sync_cycles
    return cycles


def elementwise_cycles(op: poplar.ScaledAddOp | poplar.MapOp | poplar.CastOp, arch: Arch) -> int:
    """Cycles of a popops elementwise call, as the emulator counts them (CostModel.hpp):
    popops puts the vertices where the output lies (lib/popops/ScaledAdd.cpp:219,
    ElementWise.cpp:531, 703, Cast.cpp:110), so one superstep: poplibs' estimate of
    the vertex (ScaledAdd/SubtractSupervisor, BinaryOp1D[InPlace], UnaryOp1D, Cast1D)
    for the output's elements on its busiest tile, the bytes the busiest tile receives
    (the input elements held on another tile than their output element, and a scale
    held elsewhere), and a sync."""
    if isinstance(op, poplar.ScaledAddOp):
        out, inputs = op.target, [op.source]
    elif isinstance(op, poplar.MapOp):
        out, inputs = op.out, list(op.inputs)
    else:
        out, inputs = op.destination, [op.source]
    dtype = {Float16Type: HALF}.get(type(poplar.tensor_type(inputs[0]).element_type), FLOAT)
    out_tiles = element_tiles(out)
    per_tile = np.bincount(out_tiles, minlength=arch.tiles)
    busiest, workers = int(per_tile.max()), arch.workers_per_tile
    if isinstance(op, poplar.ScaledAddOp):
        compute = (scaled_subtract_supervisor(dtype, busiest, workers) if op.subtract
                   else scaled_add_supervisor(dtype, busiest, False, workers))
    elif isinstance(op, poplar.MapOp) and len(op.inputs) == 2:
        estimate = binary_op_1d_in_place if op.in_place() else binary_op_1d
        compute = estimate(op.op.data.lower(), dtype, busiest, workers)
    elif isinstance(op, poplar.MapOp):
        compute = unary_op_1d(op.op.data.lower(), dtype, busiest, workers)
    else:
        to = {Float16Type: HALF}.get(type(poplar.tensor_type(out).element_type), FLOAT)
        compute = cast_1d(dtype, to, busiest, workers)
    received = np.zeros(arch.tiles, dtype=np.int64)
    for tensor in inputs:
        crossing = element_tiles(tensor) != out_tiles
        received += np.bincount(out_tiles[crossing], minlength=arch.tiles) * element_type(poplar.tensor_type(tensor).element_type).bytes
    if isinstance(op, poplar.ScaledAddOp):
        scale_tile = int(element_tiles(op.scale)[0])
        receiving = (per_tile > 0) & (np.arange(arch.tiles) != scale_tile)
        received += receiving * element_type(poplar.tensor_type(op.scale).element_type).bytes
    return compute + -(-int(received.max()) // arch.exchange_bytes_per_cycle) + arch.sync_cycles


def remote_copy_cycles(bytes_: int, arch: Arch) -> int:
    """Cycles of one copy of `bytes_` between a remote buffer and tiles, as the emulator
    counts them (CostModel.hpp): the bytes over the IPU's link to streaming memory
    (`Arch.streaming_bytes_per_second`; the link, not the exchange, bounds it: an
    assumption) and a sync."""
    return ceil(bytes_ * arch.clock_hz / arch.streaming_bytes_per_second) + arch.sync_cycles


# -- programs ------------------------------------------------------------------------------


def program_estimate(program: poplar.HostProgramOp, arch: Arch) -> ProgramEstimate:
    """The estimate of `program`'s engine program (see ProgramEstimate). Per step, as the
    emulator's CostModel.hpp: an `Execute` costs its compute (for each placement its
    slowest vertex, summed over the placements: as if they shared a tile), its exchange
    (`exchange`) and a sync; a copy or dynamic slice moves its bytes through the exchange
    (as if every element crossed tiles) and syncs; a remote buffer copy costs
    `remote_copy_cycles`; a matrix product costs `product_cycles`, a popops reduction
    `reduce_estimate`, a popops elementwise call `elementwise_cycles`; a control
    program syncs once per evaluation of its predicate. Each step is also recorded as
    planned (`PlannedStep`)."""
    engine = program.build_body.block.last_op
    assert isinstance(engine, poplar.EngineOp)
    return _ProgramWalk(arch).estimate(engine.program)


class _ProgramWalk:
    def __init__(self, arch: Arch):
        self.arch = arch
        self.while_loops: list[WhileLoop] = []
        self.steps: list[PlannedStep] = []
        self.conditional = False  # inside a branch of an If

    def estimate(self, value: SSAValue) -> ProgramEstimate:
        cycles = self.cycles(value, 1, None)
        return ProgramEstimate(cycles, tuple(self.while_loops), tuple(self.steps))

    def step(self, kind: str, busiest: int, syncs: int, entries: int, within: str | None, *,
             name: str = "", exact: bool = True, modelled: bool = False) -> None:
        self.steps.append(PlannedStep(kind, name, busiest, exact, syncs, entries, within, self.conditional, modelled))

    def copied(self, source: SSAValue, destination: SSAValue) -> tuple[int, int]:
        """A Copy between tensors, as the emulator counts it (CostModel.hpp): each
        destination tile receives the elements whose source lies on another tile and
        copies the rest itself, a data path's width per cycle; one sync if any crosses.
        Its cycles, and the bytes the busiest tile receives."""
        es = element_type(poplar.tensor_type(source).element_type).bytes
        to, away = element_tiles(destination), element_tiles(source)
        crossing = to != away
        tiles = self.arch.tiles
        received = np.bincount(to[crossing], minlength=tiles) * es
        local = np.bincount(to[~crossing], minlength=tiles) * es
        compute = int(-(-local.max() // self.arch.data_path_bytes)) if local.size else 0
        busiest = int(received.max()) if received.size else 0
        exchange_cycles = -(-busiest // self.arch.exchange_bytes_per_cycle)
        return compute + exchange_cycles + (self.arch.sync_cycles if crossing.any() else 0), busiest

    def sliced(self, op: poplar.DynamicSliceOp | poplar.DynamicUpdateOp) -> tuple[int, int]:
        """A dynamic slice or update: the offsets are known only when it runs, so this is
        a bound of what the emulator counts (see `copied`): the busiest destination tile
        (of the slice, or of the tensor, receiving at most the slice) receives all its
        elements from other tiles, and the busiest copies all its own; and one sync.
        Its cycles, and the bound of the bytes the busiest tile receives."""
        es = element_type(poplar.tensor_type(op.slice).element_type).bytes
        slice_tiles = np.bincount(element_tiles(op.slice))
        if isinstance(op, poplar.DynamicSliceOp):
            most = int(slice_tiles.max())
        else:
            most = int(min(np.bincount(element_tiles(op.tensor)).max(), slice_tiles.sum()))
        received, copied = ceil(most * es / self.arch.exchange_bytes_per_cycle), ceil(most * es / self.arch.data_path_bytes)
        return received + copied + self.arch.sync_cycles, most * es

    def cycles(self, value: SSAValue, entries: int, within: str | None) -> int:
        """Cycles of one run of the program `value`, its steps recorded as run `entries`
        times per iteration of the while loop `within` (while loops inside it too)."""
        op = value.owner
        sync = self.arch.sync_cycles
        if isinstance(op, poplar.ExecuteOp):
            placements = [u.operation for u in op.compute_set.uses if isinstance(u.operation, poplar.AddVerticesOp)]
            compute = sum(max(p.run_cycles()) for p in placements)
            busiest = exchange(op.compute_set).busiest_tile_bytes
            name = op.compute_set.owner.debug_name.data  # type: ignore[union-attr]
            self.step("execute", busiest, 1, entries, within, name=name)
            return superstep_cycles(compute, busiest, self.arch)
        if isinstance(op, poplar.CopyOp):
            cycles, busiest = self.copied(op.source, op.destination)
            self.step("copy", busiest, 1 if busiest else 0, entries, within)
            return cycles
        if isinstance(op, poplar.DynamicSliceOp | poplar.DynamicUpdateOp):
            cycles, bound = self.sliced(op)
            kind = "dynamic_slice" if isinstance(op, poplar.DynamicSliceOp) else "dynamic_update"
            self.step(kind, bound, 1, entries, within, exact=False)
            return cycles
        if isinstance(op, poplar.RemoteLoadOp | poplar.RemoteStoreOp):
            t = poplar.tensor_type(op.tensor)
            es = element_type(t.element_type).bytes
            self.step("remote_copy", int(np.bincount(element_tiles(op.tensor)).max()) * es, 1, entries, within)
            return remote_copy_cycles(t.num_elements() * es, self.arch)
        if isinstance(op, poplar.MatmulOp):
            self.step("matmul", 0, 0, entries, within, modelled=True)
            if op.scales_c():
                self.step("elementwise", 0, 0, entries, within, modelled=True)
            return product_cycles(op, self.arch)
        if isinstance(op, poplar.ReduceOp):
            self.step("reduce", 0, 0, entries, within, modelled=True)
            return reduce_estimate(op, self.arch)
        if isinstance(op, poplar.ScaledAddOp | poplar.MapOp | poplar.CastOp):
            self.step("elementwise", 0, 0, entries, within, modelled=True)
            return elementwise_cycles(op, self.arch)
        if isinstance(op, poplar.SequenceOp):
            return sum(self.cycles(p, entries, within) for p in op.programs)
        if isinstance(op, poplar.RepeatOp):
            return op.count.value.data * self.cycles(op.body, entries * op.count.value.data, within)
        if isinstance(op, poplar.IfOp):
            self.step("control", 0, 1, entries, within)
            outer, self.conditional = self.conditional, True
            branches = self.cycles(op.then_body, entries, within), self.cycles(op.else_body, entries, within)
            self.conditional = outer
            return sync + max(branches)
        assert isinstance(op, poplar.RepeatWhileTrueOp)
        name = _tensor_name(op.predicate)
        first = len(self.steps)
        condition = self.cycles(op.cond, entries, within) + sync
        self.step("control", 0, 1, entries, within)
        # the condition and its predicate run once more than the body, each iteration here
        self.steps += [replace(s, entries=s.entries // entries, within=name) for s in self.steps[first:] if s.within == within]
        iteration = condition + self.cycles(op.body, 1, name)
        self.while_loops.append(WhileLoop(name, iteration, entries, within))
        return condition


def _tensor_name(tensor: SSAValue) -> str:
    owner = tensor.owner
    assert isinstance(owner, poplar.AddVariableOp)
    return owner.debug_name.data
