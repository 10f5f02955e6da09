"""What poplibs' own cycle estimators say for simple elementwise work on one tile.

This module restates, in our own Python, the published cycle-estimator formulas of
graphcore/poplibs at commit 7eac0f26 (the 2023-08-11 snapshot), so that benchmarks and
tests can put our cost model next to the number poplibs would report for the same work.
It covers six popops vertices on float and half data:

* ``BinaryOp1D`` (a MultiVertex computing ``out = in1 op in2``)   -> :func:`binary_op_1d`
* ``BinaryOp1DInPlace`` (``in1Out = in1Out op in2``)            -> :func:`binary_op_1d_in_place`
* ``UnaryOp1D`` (``out = op(in)``)                                 -> :func:`unary_op_1d`
* ``ScaledAddSupervisor`` (``A += b * B``, the plain ADD form)     -> :func:`scaled_add_supervisor`
* ``ScaledSubtractSupervisor`` (``A -= b * B``)                     -> :func:`scaled_subtract_supervisor`
* ``Cast1D`` (``out = cast(in)``, float <-> half)                    -> :func:`cast_1d`

and :func:`scaled_add_to_is_constrained`, which says whether ``popops::scaledAddTo``
would pick the memory-constrained variant of that vertex.

What this is NOT:

* Not a measurement and not a simulator: these are poplibs' *estimates*, which are
  themselves approximations (several are known to be data dependent, see the comment at
  lib/popops/popopsCycleEstimators.hpp:78-94).
* Not a port of poplibs and not linked to it: nothing here is poplibs' code. Every
  constant below cites the file and line(s) of that commit it was read from; paths are
  inside the poplibs repository.
* Not complete: only the ops, types and code paths named above. Integer types, the 2D
  vertices, broadcast/scalar vertices, aXPlusbY, casts other than float <-> half and the half-data /
  float-B scaled add branch are not modelled and raise ``ValueError``.
* Not "corrected": where the C++ does something odd (see "Quirks" in the functions'
  docstrings) we reproduce what the C++ computes, because the point is to compare with
  what poplibs reports.

All results are tile cycles for one vertex on one tile. ``workers`` is
``Target::getNumWorkerContexts()`` (6 on every IPU so far).
"""

from __future__ import annotations

from typing import NamedTuple

FLOAT = "float"
HALF = "half"

VECTOR_WIDTH = {FLOAT: 2, HALF: 4}
"""Target::getVectorWidth on a 64-bit data path: 64 bit = 2 floats or 4 halves
(lib/popops/popopsCycleEstimators.hpp:34-35; the same division, data path width over
element bits, is written out in lib/popops/PerformanceEstimation.cpp:70-71)."""

DEFAULT_WORKERS = 6
"""Worker contexts per tile on ipu1/ipu2 (desk reference: 6 worker contexts each)."""

FORCE_INTERLEAVED_ESTIMATES_DEFAULT = False
"""poplibs_support::getForceInterleavedEstimates() is true only when the environment
variable POPLIBS_FORCE_INTERLEAVED_ESTIMATES is set (to anything, even "0")
(lib/poplibs_support/forceInterleavedEstimates.cpp:7-10). Normally unset, so off."""


# --------------------------------------------------------------------------------------
# Shared pieces
# --------------------------------------------------------------------------------------

BASIC_OP_SUPERVISOR_OVERHEAD = 11
"""basicOpSupervisorOverhead(): 11 cycles (lib/popops/PerformanceEstimation.cpp:22).
It adds 2 more for ScaledPtr64 A/B pointers (ibid. :25-27); every caller modelled here
uses the default argument ``false`` (include/popops/PerformanceEstimation.hpp:31)."""


def _ceil_div(x: int, y: int) -> int:
    """iceil(x, y) = x / y + (x % y > 0) on unsigned ints
    (lib/popops/popopsCycleEstimators.cpp:33)."""
    return -(-x // y)


def _basic_op_loop_cycles(
    num_elems: int, vector_size: int, cycles_per_vector: int
) -> int:
    """basicOpLoopCycles (lib/popops/PerformanceEstimation.cpp:33-37).

    Quirk: the C++ expression ``cyclesPerVector * (numElems + vectorSize - 1) /
    vectorSize`` multiplies BEFORE it divides, so it is
    ``floor(c * (n + v - 1) / v)``, which can exceed ``c * ceil(n / v)`` by up to
    ``c - 1`` cycles (e.g. c=6, v=4, n=2 gives 7, not 6). Reproduced as written.
    """
    return (cycles_per_vector * (num_elems + vector_size - 1)) // vector_size


class LoopCost(NamedTuple):
    """One entry of poplibs' OpPerformanceInfo tables
    (lib/popops/popopsCycleEstimators.hpp:43-66).

    * ``natural_vector`` True: one loop handles one natural vector (2 floats / 4 halves)
      in ``cycles_per_loop`` plus an overhead added later by the caller.
    * ``natural_vector`` False and ``unroll`` > 0: one loop handles ``unroll`` elements
      in exactly ``cycles_per_loop``, no overhead added.
    * ``natural_vector`` False and ``unroll`` == 0 (unary ops only): one element per
      loop, plus an overhead added later.
    """

    cycles_per_loop: int
    natural_vector: bool
    unroll: int = 0


# --------------------------------------------------------------------------------------
# Per-op tables. Each row is read from lib/popops/popopsCycleEstimators.hpp at 7eac0f26;
# the comment gives the line. Op names are popops::expr enum names in lower case.
# --------------------------------------------------------------------------------------

# binaryOpPerfInfo (popopsCycleEstimators.hpp:305-469): not-in-place binary ops.
BINARY_OP_TABLE: dict[tuple[str, str], LoopCost] = {
    ("add", FLOAT): LoopCost(1, True),  # hpp:310
    ("add", HALF): LoopCost(1, True),  # hpp:311
    ("subtract", FLOAT): LoopCost(1, True),  # hpp:410
    ("subtract", HALF): LoopCost(1, True),  # hpp:411
    ("multiply", FLOAT): LoopCost(1, True),  # hpp:371
    ("multiply", HALF): LoopCost(1, True),  # hpp:372
    ("divide", FLOAT): LoopCost(10, False, 2),  # hpp:348
    ("divide", HALF): LoopCost(21, False, 4),  # hpp:349
    ("maximum", FLOAT): LoopCost(3, False, 2),  # hpp:357
    ("maximum", HALF): LoopCost(4, False, 4),  # hpp:358
    ("minimum", FLOAT): LoopCost(3, False, 2),  # hpp:364
    ("minimum", HALF): LoopCost(4, False, 4),  # hpp:365
}

# binaryOpInPlacePerfInfo (popopsCycleEstimators.hpp:471-585): in-place binary ops.
# Note maximum/minimum float are 4 here but 3 in the not-in-place table.
BINARY_OP_IN_PLACE_TABLE: dict[tuple[str, str], LoopCost] = {
    ("add", FLOAT): LoopCost(1, True),  # hpp:472
    ("add", HALF): LoopCost(1, True),  # hpp:473
    ("subtract", FLOAT): LoopCost(1, True),  # hpp:572
    ("subtract", HALF): LoopCost(1, True),  # hpp:573
    ("multiply", FLOAT): LoopCost(1, True),  # hpp:533
    ("multiply", HALF): LoopCost(1, True),  # hpp:534
    ("divide", FLOAT): LoopCost(10, False, 2),  # hpp:509
    ("divide", HALF): LoopCost(21, False, 4),  # hpp:510
    ("maximum", FLOAT): LoopCost(4, False, 2),  # hpp:519
    ("maximum", HALF): LoopCost(4, False, 4),  # hpp:520
    ("minimum", FLOAT): LoopCost(4, False, 2),  # hpp:526
    ("minimum", HALF): LoopCost(4, False, 4),  # hpp:527
}

# unaryOpPerfInfo (popopsCycleEstimators.hpp:104-212): not-in-place unary ops.
# The seven ops the brief asks for, then a few more float/half rows of the same table
# that need no extra logic (they exercise the other two LoopCost patterns too).
UNARY_OP_TABLE: dict[tuple[str, str], LoopCost] = {
    ("sqrt", FLOAT): LoopCost(10, False, 2),  # hpp:193
    ("sqrt", HALF): LoopCost(23, False, 4),  # hpp:194
    ("exponent", FLOAT): LoopCost(6, False, 2),  # hpp:142
    ("exponent", HALF): LoopCost(4, False, 4),  # hpp:144
    ("logarithm", FLOAT): LoopCost(12, False, 2),  # hpp:172
    ("logarithm", HALF): LoopCost(4, False, 4),  # hpp:173
    ("negate", FLOAT): LoopCost(2, False, 2),  # hpp:177
    ("negate", HALF): LoopCost(2, False, 4),  # hpp:178
    ("absolute", FLOAT): LoopCost(1, False),  # hpp:105 (one element per loop)
    ("absolute", HALF): LoopCost(1, False),  # hpp:106 (one element per loop)
    ("square", FLOAT): LoopCost(2, False, 2),  # hpp:196
    ("square", HALF): LoopCost(2, False, 4),  # hpp:197
    ("tanh", FLOAT): LoopCost(12, False, 2),  # hpp:202
    ("tanh", HALF): LoopCost(4, False, 4),  # hpp:203
    # --- further rows, same table ---
    ("ceil", FLOAT): LoopCost(2, True),  # hpp:127
    ("ceil", HALF): LoopCost(2, True),  # hpp:128
    ("floor", FLOAT): LoopCost(2, True),  # hpp:153
    ("floor", HALF): LoopCost(2, True),  # hpp:154
    ("round", FLOAT): LoopCost(2, True),  # hpp:186
    ("round", HALF): LoopCost(2, True),  # hpp:187
    ("inverse", FLOAT): LoopCost(6, False, 2),  # hpp:132
    ("inverse", HALF): LoopCost(15, False, 4),  # hpp:131
    ("exponent2", FLOAT): LoopCost(6, False, 2),  # hpp:148
    ("exponent2", HALF): LoopCost(4, False, 4),  # hpp:150
    ("trunc", FLOAT): LoopCost(3, False, 2),  # hpp:204
    ("trunc", HALF): LoopCost(11, False, 4),  # hpp:205
    ("sigmoid", FLOAT): LoopCost(12, False, 2),  # hpp:206
    ("sigmoid", HALF): LoopCost(6, False, 4),  # hpp:207
    ("rsqrt", FLOAT): LoopCost(8, False, 2),  # hpp:208
    ("rsqrt", HALF): LoopCost(19, False, 4),  # hpp:209
    ("relu", FLOAT): LoopCost(3, False, 2),  # hpp:210
    ("relu", HALF): LoopCost(3, False, 4),  # hpp:211
}

# Ops with an assembly (external) codelet for float/half: hasExternalCodelet
# (lib/popops/popopsCycleEstimators.cpp:38-42).
EXTERNAL_CODELET_BINARY_OPS = frozenset({"add", "subtract", "multiply"})

# Per-vector loop overhead added to a natural-vector-width binary op
# (binaryOpInnerLoopCycles, popopsCycleEstimators.cpp:74-76):
BINARY_LOOP_OVERHEAD_EXTERNAL = 2  # cpp:75, asm codelet, default
BINARY_LOOP_OVERHEAD_EXTERNAL_INTERLEAVED_IN_PLACE = (
    1  # cpp:75, env flag set and in place
)
BINARY_LOOP_OVERHEAD_C_CODELET = 5  # cpp:76, no asm codelet (none of our ops)

# BinaryOp1D worker constant: 29 for float, 26 otherwise (popopsCycleEstimators.cpp:1619).
BINARY_OP_1D_WORKER_CYCLES = {FLOAT: 29, HALF: 26}
# BinaryOp1DInPlace worker constant (popopsCycleEstimators.cpp:1515).
BINARY_OP_1D_IN_PLACE_WORKER_CYCLES = 58

# UnaryOp1D worker constant: 33 for EXPONENT, 17 for every other op
# (popopsCycleEstimators.cpp:1547). Only "exponent", not "exponent2".
UNARY_OP_1D_WORKER_CYCLES = 17
UNARY_OP_1D_WORKER_CYCLES_EXPONENT = 33
# Per-loop overhead added by unaryOpInnerLoopCycles when no unroll factor is given
# (popopsCycleEstimators.cpp:1506).
UNARY_LOOP_OVERHEAD = 4
# Extra supervisor cycles on top of workers * workerCycles (popopsCycleEstimators.cpp:1556).
UNARY_OP_1D_SUPERVISOR_EXTRA = 9


# --------------------------------------------------------------------------------------
# Argument checking
# --------------------------------------------------------------------------------------


def _check_dtype(func: str, dtype: str, arg: str = "dtype") -> None:
    if dtype not in VECTOR_WIDTH:
        raise ValueError(
            f"{func}: unsupported {arg} {dtype!r}; supported: {', '.join(sorted(VECTOR_WIDTH))}"
        )


def _check_sizes(func: str, n: int, workers: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"{func}: n must be a non-negative int, got {n!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"{func}: workers must be a positive int, got {workers!r}")


def _lookup(
    func: str, table: dict[tuple[str, str], LoopCost], op: str, dtype: str
) -> LoopCost:
    _check_dtype(func, dtype)
    try:
        return table[(op, dtype)]
    except (KeyError, TypeError):
        ops = sorted({name for name, _ in table})
        raise ValueError(
            f"{func}: unsupported op {op!r} for dtype {dtype!r}; supported ops: {', '.join(ops)}"
        ) from None


# --------------------------------------------------------------------------------------
# Binary ops
# --------------------------------------------------------------------------------------


def _binary_inner_loop_cycles(
    op: str,
    dtype: str,
    cost: LoopCost,
    num_elems: int,
    in_place: bool,
    force_interleaved: bool,
    c_codelet: bool = False,
) -> int:
    """binaryOpInnerLoopCycles (lib/popops/popopsCycleEstimators.cpp:63-84) for one worker;
    `c_codelet` takes the branch of ops without an asm codelet."""
    if cost.natural_vector:
        elems_per_loop = VECTOR_WIDTH[dtype]  # cpp:68
        if op in EXTERNAL_CODELET_BINARY_OPS and not c_codelet:  # dtype is float/half here, cpp:38-42
            # The interleaved shortcut needs BOTH the env flag and in-place (cpp:75).
            overhead = (
                BINARY_LOOP_OVERHEAD_EXTERNAL_INTERLEAVED_IN_PLACE
                if force_interleaved and in_place
                else BINARY_LOOP_OVERHEAD_EXTERNAL
            )
        else:
            overhead = BINARY_LOOP_OVERHEAD_C_CODELET
        cycles_per_loop = cost.cycles_per_loop + overhead
    else:
        elems_per_loop = cost.unroll  # cpp:78
        cycles_per_loop = cost.cycles_per_loop
    return _ceil_div(num_elems, elems_per_loop) * cycles_per_loop  # cpp:80-81


def binary_op_1d(op: str, dtype: str, n: int, workers: int = DEFAULT_WORKERS, *, c_codelet: bool = False) -> int:
    """poplibs' estimate for a ``BinaryOp1D`` vertex over ``n`` elements
    (MAKE_PERF_ESTIMATOR_NAME(BinaryOp1D), lib/popops/popopsCycleEstimators.cpp:1615-1632).

    cycles = 11 + workers * (W + ceil(ceil(n / workers) / L) * C), where
    W = 29 float / 26 half (cpp:1619), and for add/subtract/multiply L is the vector
    width and C = table cycles + 2 (cpp:68, 74-75), otherwise L = unroll and C = table
    cycles (cpp:78).

    Each worker is charged for ``ceil(n / workers)`` elements (cpp:1628), i.e. the
    split is by elements, not by whole vectors.

    getForceInterleavedEstimates() does not matter here: it only changes the inner loop
    when in place (cpp:75), and this vertex is not in place.

    ``c_codelet``: what poplibs' rule charges when the op has no asm codelet, C = table
    cycles + 5 "for load/store and loop decision" (cpp:72-76): its estimate of a C++
    vertex doing the same work.
    """
    func = "binary_op_1d"
    cost = _lookup(func, BINARY_OP_TABLE, op, dtype)
    _check_sizes(func, n, workers)
    per_worker = _ceil_div(n, workers)  # cpp:1628
    worker_cycles = BINARY_OP_1D_WORKER_CYCLES[dtype] + _binary_inner_loop_cycles(
        op, dtype, cost, per_worker, in_place=False, force_interleaved=False, c_codelet=c_codelet
    )  # cpp:1619, 1629
    return workers * worker_cycles + BASIC_OP_SUPERVISOR_OVERHEAD  # cpp:1618, 1630


def binary_op_1d_in_place(
    op: str,
    dtype: str,
    n: int,
    workers: int = DEFAULT_WORKERS,
    *,
    force_interleaved: bool = FORCE_INTERLEAVED_ESTIMATES_DEFAULT,
) -> int:
    """poplibs' estimate for a ``BinaryOp1DInPlace`` vertex over ``n`` elements
    (getBinaryOp1DInPlaceEstimate, lib/popops/popopsCycleEstimators.cpp:1510-1523, used
    by MAKE_PERF_ESTIMATOR_NAME(BinaryOp1DInPlace) at cpp:1654-1662).

    cycles = 11 + workers * (58 + inner loop over ceil(n / workers) elements), with the
    in-place table. ``force_interleaved`` models POPLIBS_FORCE_INTERLEAVED_ESTIMATES being
    set: add/subtract/multiply then pay 1 instead of 2 overhead cycles per vector
    (cpp:75). Default off, as in a normal environment.
    """
    func = "binary_op_1d_in_place"
    cost = _lookup(func, BINARY_OP_IN_PLACE_TABLE, op, dtype)
    _check_sizes(func, n, workers)
    per_worker = _ceil_div(n, workers)  # cpp:1519
    worker_cycles = BINARY_OP_1D_IN_PLACE_WORKER_CYCLES + _binary_inner_loop_cycles(
        op, dtype, cost, per_worker, in_place=True, force_interleaved=force_interleaved
    )  # cpp:1515, 1520-1521
    return workers * worker_cycles + BASIC_OP_SUPERVISOR_OVERHEAD  # cpp:1514, 1522


# --------------------------------------------------------------------------------------
# Unary ops
# --------------------------------------------------------------------------------------


def _unary_inner_loop_cycles(dtype: str, cost: LoopCost, num_elems: int) -> int:
    """unaryOpInnerLoopCycles (lib/popops/popopsCycleEstimators.cpp:1493-1507)."""
    if not cost.natural_vector and cost.unroll > 0:
        # Unrolled loop, no overhead added (cpp:1497-1498).
        return _ceil_div(num_elems, cost.unroll) * cost.cycles_per_loop
    # One element per loop, or one natural vector per loop (cpp:1500-1503), plus a
    # constant per-loop overhead of 4 (cpp:1506) through basicOpLoopCycles.
    width = VECTOR_WIDTH[dtype] if cost.natural_vector else 1
    return _basic_op_loop_cycles(
        num_elems, width, cost.cycles_per_loop + UNARY_LOOP_OVERHEAD
    )


def unary_op_1d(op: str, dtype: str, n: int, workers: int = DEFAULT_WORKERS) -> int:
    """poplibs' estimate for a ``UnaryOp1D`` vertex over ``n`` elements
    (MAKE_PERF_ESTIMATOR_NAME(UnaryOp1D), lib/popops/popopsCycleEstimators.cpp:1543-1559).

    cycles = 11 + 9 + workers * (W + inner loop over ceil(n / workers) elements), with
    W = 33 for "exponent" and 17 otherwise (cpp:1547).

    Quirk: for natural-vector ops (ceil, floor, round) the loop count goes through
    basicOpLoopCycles, which multiplies before dividing (see _basic_op_loop_cycles).
    """
    func = "unary_op_1d"
    cost = _lookup(func, UNARY_OP_TABLE, op, dtype)
    _check_sizes(func, n, workers)
    worker_cycles = (
        UNARY_OP_1D_WORKER_CYCLES_EXPONENT
        if op == "exponent"
        else UNARY_OP_1D_WORKER_CYCLES
    )  # cpp:1547
    per_worker = _ceil_div(n, workers)  # cpp:1553
    worker_cycles += _unary_inner_loop_cycles(dtype, cost, per_worker)  # cpp:1554
    return (
        worker_cycles * workers
        + UNARY_OP_1D_SUPERVISOR_EXTRA
        + BASIC_OP_SUPERVISOR_OVERHEAD
    )  # cpp:1546, 1556-1557


# --------------------------------------------------------------------------------------
# ScaledAdd (A += b * B), supervisor vertex, float/half data
# All line numbers in this section are lib/popops/PerformanceEstimation.cpp unless
# another file is named.
# --------------------------------------------------------------------------------------

SCALED_ADD_PER_TYPE_SUPERVISOR = 21  # :508 (+6 more for a ScaledPtr64 A, :511-513; the
# ScaledAddSupervisor vertex declares A as ONE_PTR, lib/popops/codelets/
# elemwiseScaledAddCodelets.cpp:69 and :94, so that branch is not taken)
SCALED_ADD_SUPERVISOR_NO_REMAINDER = 7  # :517, when numElems % vectorWidth == 0
SCALED_ADD_SUPERVISOR_REMAINDER = 13  # :517, otherwise
SCALED_ADD_SUPERVISOR_FIXED = 12  # :517
SCALED_ADD_SUPERVISOR_BRANCH = 6  # :526-527 (setzi + bri)

SCALED_ADD_INNER_CONSTRAINED_LONG = 1  # :587, constrained and >= 16 vectors per worker
SCALED_ADD_INNER_CONSTRAINED_SHORT = 2  # :587, constrained and < 16 vectors per worker
SCALED_ADD_CONSTRAINED_LONG_THRESHOLD = 16  # :587
SCALED_ADD_INNER_SAME_TYPE = 3  # :588, unconstrained, A and B the same type
SCALED_ADD_INNER_MIXED_TYPE = 4  # :588, unconstrained, float A with half B

SCALED_ADD_WORKER_PROLOGUE = 15  # :597
SCALED_ADD_WORKER_LOOP_OVERHEAD = 6  # :600
SCALED_ADD_WORKER_REM_CHECK = 2  # :603 (workerID == rem)
SCALED_ADD_WORKER_FINAL_CHECK = 1  # :605 (final == 0?), only on worker wid == rem
SCALED_ADD_WORKER_FLOAT_TAIL = 8  # :608, process the last float
SCALED_ADD_WORKER_HALF_TAIL_CHECK = 5  # :610, any half tail
SCALED_ADD_WORKER_HALF_TAIL_PAIR = 7  # :612, half tail of 2 or 3
SCALED_ADD_WORKER_HALF_TAIL_LAST = 6  # :614, half tail of exactly 3
SCALED_ADD_WORKER_EXIT = 1  # :620 (exitz)


def scaled_add_supervisor(
    dtype: str,
    n: int,
    mem_constrained: bool,
    workers: int = DEFAULT_WORKERS,
    data_b_dtype: str | None = None,
    *,
    force_interleaved: bool = FORCE_INTERLEAVED_ESTIMATES_DEFAULT,
) -> int:
    """poplibs' estimate for ``ScaledAddSupervisor<dtype, data_b_dtype, ...>`` over ``n``
    elements, ADD operation, A not ScaledPtr64: the "(half,half), (float,half) and
    (float,float)" branch of getScaledArithmeticSupervisorCycleEstimate
    (lib/popops/PerformanceEstimation.cpp:473-628).

    ``dtype`` is A's type (it also sets the vector width, include/popops/
    PerformanceEstimation.hpp:186); ``data_b_dtype`` is B's type, default the same.
    ``mem_constrained`` is the vertex's template flag (see
    :func:`scaled_add_to_is_constrained` for what scaledAddTo picks: by default, never).
    ``force_interleaved`` models POPLIBS_FORCE_INTERLEAVED_ESTIMATES being set.

    Shape of the result: supervisor + workers * max over workers of
    (15 + [6 + inner * (vectorsPerWorker - 1) if vectorsPerWorker] + 2 + tail + 1).

    Quirks reproduced (what the C++ computes, not what the hardware does):

    * ``remainingVectors < 0`` (:598) compares an unsigned with 0, so it is always
      false: every worker is charged ``totalVectors / workers`` vectors and the
      ``totalVectors % workers`` leftover vectors are never costed. E.g. 22 floats
      (11 vectors) cost the same as 12 floats (6 vectors).
    * ``remainingVectors`` is always < workers, so exactly one worker (wid ==
      remainingVectors, :604) gets the extra "final == 0?" cycle and the tail cost;
      that worker is always the slowest.
    * A half tail of 1 element is charged only the 5-cycle check (:610); the lone half
      itself is never costed (only a tail of 3 adds the "final half", :613-614).
    * The memory-constrained inner loop drops from 2 to 1 cycle per vector once a
      worker has >= 16 vectors (:587), so the estimate is not monotonic in n
      (190 floats cost more than 192).
    * With the interleaved flag the inner loop loses one more cycle for same-type data
      (:590-594), including the constrained case: 1 - 1 = 0 cycles per vector.
    * :517 reads ``+ +(remainingElems == 0 ? 7 : 13)``: the doubled plus is a harmless
      unary plus.
    """
    func = "scaled_add_supervisor"
    b_dtype = dtype if data_b_dtype is None else data_b_dtype
    _check_dtype(func, dtype)
    _check_dtype(func, b_dtype, "data_b_dtype")
    _check_sizes(func, n, workers)
    if dtype == HALF and b_dtype == FLOAT:
        raise ValueError(
            f"{func}: half A with float B uses a different estimator branch "
            "(PerformanceEstimation.cpp:532-559), not modelled here"
        )
    same_type = dtype == b_dtype

    # Split into whole vectors, a tail of elements, and vectors per worker (:500-506).
    vector_width = VECTOR_WIDTH[dtype]
    total_vectors = n // vector_width
    remaining_elems = n % vector_width
    vectors_per_worker = total_vectors // workers
    remaining_vectors = total_vectors % workers

    supervisor = (
        SCALED_ADD_PER_TYPE_SUPERVISOR
        + BASIC_OP_SUPERVISOR_OVERHEAD
        + (
            SCALED_ADD_SUPERVISOR_NO_REMAINDER
            if remaining_elems == 0
            else SCALED_ADD_SUPERVISOR_REMAINDER
        )
        + SCALED_ADD_SUPERVISOR_FIXED
        + SCALED_ADD_SUPERVISOR_BRANCH
    )  # :515-517, :527

    if mem_constrained:
        inner = (
            SCALED_ADD_INNER_CONSTRAINED_LONG
            if vectors_per_worker >= SCALED_ADD_CONSTRAINED_LONG_THRESHOLD
            else SCALED_ADD_INNER_CONSTRAINED_SHORT
        )
    else:
        inner = SCALED_ADD_INNER_SAME_TYPE if same_type else SCALED_ADD_INNER_MIXED_TYPE
    if force_interleaved and same_type:  # :590-594
        inner -= 1

    slowest = 0
    for wid in range(workers):
        cycles = SCALED_ADD_WORKER_PROLOGUE
        # C++: vectorsPerWorker + (remainingVectors < 0), and an unsigned is never < 0,
        # so the leftover vectors never reach any worker (:598).
        num_vectors = vectors_per_worker
        if num_vectors != 0:
            cycles += SCALED_ADD_WORKER_LOOP_OVERHEAD + inner * (
                num_vectors - 1
            )  # :599-602
        cycles += SCALED_ADD_WORKER_REM_CHECK
        if wid == remaining_vectors:  # :604
            cycles += SCALED_ADD_WORKER_FINAL_CHECK
            if remaining_elems != 0:
                if dtype == FLOAT:
                    cycles += SCALED_ADD_WORKER_FLOAT_TAIL
                else:
                    cycles += SCALED_ADD_WORKER_HALF_TAIL_CHECK
                    if remaining_elems >= 2:
                        cycles += SCALED_ADD_WORKER_HALF_TAIL_PAIR
                        if remaining_elems == 3:
                            cycles += SCALED_ADD_WORKER_HALF_TAIL_LAST
        cycles += SCALED_ADD_WORKER_EXIT
        slowest = max(slowest, cycles)
    return supervisor + slowest * workers  # :625-627


def scaled_add_to_is_constrained(
    dtype: str, optimize_for_speed: bool = False, data_b_dtype: str | None = None
) -> bool:
    """Whether ``popops::scaledAddTo(A, B, ...)`` instantiates the memory-constrained
    ScaledAddSupervisor for A of ``dtype`` and B of ``data_b_dtype`` (default the same)
    (``addConstraints`` in createVertices, lib/popops/ScaledAdd.cpp:89-95).

    The constraint needs ALL of: A half or float; not (float, float); not
    (float, half); not (half, float) with the DEFAULT specialisation (which plain
    scaledAddTo always passes, ScaledAdd.cpp:411-413, 432-433, 475-476); and the
    ``optimizeForSpeed`` option (ScaledAdd.cpp:95), which defaults to false
    (ScaledAdd.cpp:56; include/popops/ScaledAdd.hpp:27).

    So with default options nothing is constrained, and with optimizeForSpeed=true only
    (half, half) is.
    """
    func = "scaled_add_to_is_constrained"
    b_dtype = dtype if data_b_dtype is None else data_b_dtype
    _check_dtype(func, dtype)
    _check_dtype(func, b_dtype, "data_b_dtype")
    pair = (dtype, b_dtype)
    return (
        pair != (FLOAT, FLOAT)  # ScaledAdd.cpp:91
        and pair != (FLOAT, HALF)  # ScaledAdd.cpp:92
        and pair != (HALF, FLOAT)  # ScaledAdd.cpp:93-94 (DEFAULT specialisation)
        and bool(optimize_for_speed)  # ScaledAdd.cpp:95
    )


# --------------------------------------------------------------------------------------
# Reductions: popops::reduce's ADD of one contiguous region into one output.
# Line numbers are lib/popops/reduction/CycleEstimationFunctions.cpp unless another
# file is named.
# --------------------------------------------------------------------------------------

DATA_PATH_BITS = 64
"""Target::getDataPathWidth() on every IPU so far: 64 bits (the same width as
VECTOR_WIDTH above)."""

ACCUMULATOR_VECTOR_WIDTH = {FLOAT: 4, HALF: 8}
"""getAccVectorWidth (:362-366): the f32v4acc / f16v8acc accumulators."""

REDUCE_SINGLE_INPUT_ENTRY_EXIT = 1 + 2  # :313, entry, storage and exit
REDUCE_SINGLE_INPUT_INIT = 6  # :315, other init / checking
REDUCE_SINGLE_INPUT_REMAINDER_SETUP = 5  # :318, remainder, load from accumulators
REDUCE_SINGLE_INPUT_SUM_ACCUMULATORS = 3  # :322
REDUCE_SINGLE_INPUT_NOT_FLOAT_OUT = 5  # :324-325, an output other than float

def reduce_add_single_input(n: int, partials_dtype: str, out_dtype: str = FLOAT) -> int:
    """Worker cycles of popops' ReduceAdd vertex specialised SCALAR_OUTPUT_SINGLE_INPUT
    folding `n` contiguous partials into one output: getCyclesEstimateForSingleInput
    (:292-330), with ADD's accumulators (opVectorWidth = getAccVectorWidth, :298-300),
    one cycle per op (getOpCyclesPerVector, :387-392) and no interleaving (the default,
    FORCE_INTERLEAVED_ESTIMATES_DEFAULT).

    Quirk reproduced: ``cyclesPerLoop * partialsSize / elemsPerLoop`` multiplies first
    (:316), like ``_basic_op_loop_cycles``.

    popops picks this specialisation for an ADD of one region into a scalar only when
    its partials are not one contiguous tensor (getReductionVertexSpecialisation,
    lib/popops/reduction/ReductionConnection.cpp:2239-2244 tries ALL_REGIONS_CONTINUOUS
    first); that one's estimator is passed ``numOutputsM1`` as its number of outputs
    (CycleEstimationFunctions.cpp:473-477, 335-356), which for one output is 0 and drops
    its per-partial term, so it says nothing about folding n values. This is poplibs'
    estimate of the work itself.
    """
    func = "reduce_add_single_input"
    _check_dtype(func, partials_dtype, "partials_dtype")
    _check_dtype(func, out_dtype, "out_dtype")
    if n < 1:
        raise ValueError(f"{func}: n must be positive, got {n}")
    data_path = DATA_PATH_BITS // (8 * (4 if partials_dtype == FLOAT else 2))  # :453
    op_vector_width = ACCUMULATOR_VECTOR_WIDTH[partials_dtype]
    elems_per_cycle = min(op_vector_width, data_path)  # :307-308
    loads_per_loop = op_vector_width // elems_per_cycle  # :309
    cycles_per_loop = max(loads_per_loop, 1)  # :310
    elems_per_loop = elems_per_cycle * loads_per_loop  # :311
    cycles = REDUCE_SINGLE_INPUT_ENTRY_EXIT + REDUCE_SINGLE_INPUT_INIT
    cycles += cycles_per_loop * n // elems_per_loop  # :316
    cycles += REDUCE_SINGLE_INPUT_REMAINDER_SETUP + n % elems_per_loop  # :318-320
    cycles += REDUCE_SINGLE_INPUT_SUM_ACCUMULATORS
    if out_dtype != FLOAT:
        cycles += REDUCE_SINGLE_INPUT_NOT_FLOAT_OUT
    return cycles


def reduce_add_on_tile(n: int, partials_dtype: str, workers: int = DEFAULT_WORKERS) -> int:
    """Tile cycles of popops' first, on-tile stage of an ADD of `n` contiguous elements
    on one tile into one float: split between the workers
    (splitTwoStageReductionsBetweenWorkers, lib/popops/reduction/
    ReductionConnection.cpp:293-374: up to one piece per worker, at least 2 rows each by
    getMaxSplit, :278-286),
    one ReduceAdd vertex per piece (`reduce_add_single_input`), the pieces' vertices
    each on its own worker context: the busiest context times the number of contexts,
    as poplibs combines worker cycles (lib/popops/PerformanceEstimation.cpp:627).
    Not counted: the second on-tile stage that adds the workers' results."""
    _check_sizes("reduce_add_on_tile", n, workers)
    pieces = max(1, min(workers, n // 2))
    return workers * reduce_add_single_input(_ceil_div(n, pieces), partials_dtype)


# --------------------------------------------------------------------------------------
# ScaledSubtract (A -= b * B) and Cast1D, float/half data
# --------------------------------------------------------------------------------------

SCALED_SUBTRACT_SUPERVISOR_EXTRA = 7
"""ScaledSubtractSupervisor pays 7 supervisor cycles more than ScaledAddSupervisor:
getScaledArithmeticSupervisorCycleEstimate adds them for SUBTRACT
(lib/popops/PerformanceEstimation.cpp:523-525; the vertex's estimator calls the same
function with ScaledArithmeticOp::SUBTRACT, lib/popops/popopsCycleEstimators.cpp:525-531)."""


def scaled_subtract_supervisor(dtype: str, n: int, workers: int = DEFAULT_WORKERS) -> int:
    """poplibs' estimate for ``ScaledSubtractSupervisor<dtype, dtype, ...>`` over ``n``
    elements, not memory-constrained (as ``popops::scaledSubtractFrom`` of one type
    picks it): :func:`scaled_add_supervisor` plus the SUBTRACT supervisor cycles."""
    return scaled_add_supervisor(dtype, n, False, workers) + SCALED_SUBTRACT_SUPERVISOR_EXTRA


CAST_READ_PORTS = 2  # PerformanceEstimation.cpp:276
CAST_WRITE_PORTS = 1  # ibid.
CAST_PROLOGUE = 19  # :309, "based on Half_Float_core"
CAST_REMAINDER_CHECK = 1  # :321, per bit of the remainder
CAST_REMAINDER_ELEMENTS = 2  # :325, a remainder bit that is set
CAST_1D_SUPERVISOR = 12  # :361
CAST_1D_WORKER = 18  # :362-363


def _cast_worker_cycles(from_dtype: str, to_dtype: str, n: int) -> int:
    """castWorkerCycles for float <-> half, the floating-point conversion on the
    auxiliary pipeline (lib/popops/PerformanceEstimation.cpp:266-329): the vector the
    loads and stores allow per conversion, min(2 loads, 1 store) of 64 bits (:268-290),
    max(load, store) cycles per vector (:296-305), 19 cycles of prologue (:309), and per
    bit of the remainder one check plus 2 cycles if set (:316-327)."""
    data_path_bytes = DATA_PATH_BITS // 8
    from_width = data_path_bytes // (4 if from_dtype == FLOAT else 2)
    to_width = data_path_bytes // (4 if to_dtype == FLOAT else 2)
    vector = min(from_width * CAST_READ_PORTS, to_width * CAST_WRITE_PORTS)
    per_vector = max(vector // min(vector, from_width), vector // min(vector, to_width))
    cycles = CAST_PROLOGUE + per_vector * (n // vector)
    remainder = n % vector
    for bit in range((vector - 1).bit_length()):  # gccs::ceilLog2(vector) bits
        cycles += CAST_REMAINDER_CHECK + (CAST_REMAINDER_ELEMENTS if remainder & (1 << bit) else 0)
    return cycles


def cast_1d(from_dtype: str, to_dtype: str, n: int, workers: int = DEFAULT_WORKERS) -> int:
    """poplibs' estimate for a ``Cast1D`` vertex converting ``n`` elements between float
    and half (getCast1DCycleEstimate, lib/popops/PerformanceEstimation.cpp:356-365):
    12 + workers * (castWorkerCycles(ceil(n / workers)) + 18)."""
    func = "cast_1d"
    _check_dtype(func, from_dtype, "from_dtype")
    _check_dtype(func, to_dtype, "to_dtype")
    _check_sizes(func, n, workers)
    if from_dtype == to_dtype:
        raise ValueError(f"{func}: a cast from {from_dtype} to itself is a copy, which poplibs does not estimate as Cast1D")
    per_worker = _ceil_div(n, workers)  # :359-360
    return CAST_1D_SUPERVISOR + workers * (_cast_worker_cycles(from_dtype, to_dtype, per_worker) + CAST_1D_WORKER)
