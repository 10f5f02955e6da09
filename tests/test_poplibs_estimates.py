"""Hand-worked values for ipu_lower.poplibs_estimates.

Each expected number is worked out in the comment above it from the C++ formula of
graphcore/poplibs 7eac0f26 (paths relative to that repository), not from our code.
Notation: w = workers (6 unless said), per = ceil(n / w) elements per worker.
"""

from __future__ import annotations

import pytest

from ipu_lower.poplibs_estimates import (
    binary_op_1d,
    binary_op_1d_in_place,
    reduce_add_on_tile,
    reduce_add_single_input,
    scaled_add_supervisor,
    scaled_add_to_is_constrained,
    unary_op_1d,
)

# --------------------------------------------------------------------------------------
# BinaryOp1D: 11 + w * (W + ceil(per / L) * C)
#   W = 29 float / 26 half (popopsCycleEstimators.cpp:1619)
#   add/sub/mul: L = 2 float / 4 half, C = 1 + 2 (hpp:310,371,410; cpp:75)
#   divide: L = 2 / 4, C = 10 / 21 (hpp:348-349); max/min: C = 3 / 4 (hpp:357-358,364-365)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "dtype", "n", "workers", "expected"),
    [
        # per = ceil(1000/6) = 167; ceil(167/2) = 84 loops * 3 = 252;
        # 11 + 6 * (29 + 252) = 11 + 6 * 281 = 11 + 1686 = 1697
        ("add", "float", 1000, 6, 1697),
        # per = 1; ceil(1/2) = 1 * 3 = 3; 11 + 6 * 32 = 203
        ("add", "float", 1, 6, 203),
        # per = ceil(8/6) = 2; ceil(2/2) = 1 * 3 = 3; 11 + 6 * 32 = 203
        ("add", "float", 8, 6, 203),
        # per = 1; ceil(1/4) = 1 * 3 = 3; 11 + 6 * (26 + 3) = 11 + 174 = 185
        ("add", "half", 5, 6, 185),
        # per = ceil(11398/6) = 1900 (6*1899 = 11394); ceil(1900/2) = 950 * 3 = 2850;
        # 11 + 6 * (29 + 2850) = 11 + 6 * 2879 = 11 + 17274 = 17285
        ("add", "float", 11398, 6, 17285),
        # per = 1900; ceil(1900/4) = 475 * 3 = 1425; 11 + 6 * 1451 = 11 + 8706 = 8717
        ("add", "half", 11398, 6, 8717),
        ("multiply", "half", 11398, 6, 8717),
        ("multiply", "float", 11398, 6, 17285),
        # per = ceil(16000/6) = 2667; ceil(2667/2) = 1334 * 3 = 4002;
        # 11 + 6 * (29 + 4002) = 11 + 6 * 4031 = 11 + 24186 = 24197
        ("add", "float", 16000, 6, 24197),
        # per = 2; ceil(2/4) = 1 * 3 = 3; 11 + 6 * 29 = 185
        ("subtract", "half", 8, 6, 185),
        # divide float: per = 167; ceil(167/2) = 84 * 10 = 840; 11 + 6 * 869 = 5225
        ("divide", "float", 1000, 6, 5225),
        # divide half: per = 167; ceil(167/4) = 42 * 21 = 882; 11 + 6 * 908 = 5459
        ("divide", "half", 1000, 6, 5459),
        # maximum float, 7 (not a multiple of 2): per = 2; 1 * 3 = 3; 11 + 6 * 32 = 203
        ("maximum", "float", 7, 6, 203),
        # minimum half: per = 2667; ceil(2667/4) = 667 * 4 = 2668;
        # 11 + 6 * (26 + 2668) = 11 + 6 * 2694 = 11 + 16164 = 16175
        ("minimum", "half", 16000, 6, 16175),
        # one worker: per = 5; ceil(5/2) = 3 * 3 = 9; 11 + 1 * (29 + 9) = 49
        ("add", "float", 5, 1, 49),
        # empty: no loops; 11 + 6 * 29 = 185
        ("add", "float", 0, 6, 185),
    ],
)
def test_binary_op_1d(op, dtype, n, workers, expected):
    assert binary_op_1d(op, dtype, n, workers) == expected


# --------------------------------------------------------------------------------------
# BinaryOp1DInPlace: 11 + w * (58 + ceil(per / L) * C)   (cpp:1510-1523)
#   in-place table: add/sub/mul C = 1 + 2 (+1 with the interleaved flag, cpp:75);
#   divide 10 / 21 (hpp:509-510); max/min float 4, half 4 (hpp:519-520, 526-527)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "dtype", "n", "expected"),
    [
        # per = 167; 84 * 3 = 252; 11 + 6 * (58 + 252) = 11 + 6 * 310 = 11 + 1860 = 1871
        ("add", "float", 1000, 1871),
        # per = 1900; 950 * 3 = 2850; 11 + 6 * 2908 = 11 + 17448 = 17459
        ("add", "float", 11398, 17459),
        # per = 1900; 475 * 3 = 1425; 11 + 6 * 1483 = 11 + 8898 = 8909
        ("add", "half", 11398, 8909),
        # per = 1; ceil(1/4) = 1 * 3 = 3; 11 + 6 * 61 = 377
        ("multiply", "half", 5, 377),
        # per = 1; 1 * 3 = 3; 11 + 6 * 61 = 377
        ("subtract", "float", 1, 377),
        # maximum float uses 4 here (3 in the not-in-place table): per = 167;
        # 84 * 4 = 336; 11 + 6 * 394 = 11 + 2364 = 2375
        ("maximum", "float", 1000, 2375),
        # divide half: per = 2667; ceil(2667/4) = 667 * 21 = 14007;
        # 11 + 6 * 14065 = 11 + 84390 = 84401
        ("divide", "half", 16000, 84401),
        # minimum float, 8: per = 2; 1 * 4 = 4; 11 + 6 * 62 = 383
        ("minimum", "float", 8, 383),
    ],
)
def test_binary_op_1d_in_place(op, dtype, n, expected):
    assert binary_op_1d_in_place(op, dtype, n) == expected


def test_binary_op_1d_in_place_force_interleaved():
    # add float 1000 with the env flag: C = 1 + 1 = 2; 84 * 2 = 168;
    # 11 + 6 * (58 + 168) = 11 + 1356 = 1367
    assert binary_op_1d_in_place("add", "float", 1000, force_interleaved=True) == 1367
    # divide is not an external codelet op, so the flag changes nothing (5225-style
    # calculation: 84 * 10 = 840; 11 + 6 * 898 = 5399)
    assert (
        binary_op_1d_in_place("divide", "float", 1000, force_interleaved=True) == 5399
    )
    assert binary_op_1d_in_place("divide", "float", 1000) == 5399


def test_binary_op_1d_as_a_c_codelet():
    # An op without an asm codelet pays 5 per vector for load/store and loop decision
    # (cpp:72-76): add float 1000: ceil(1000 / 6) = 167 elements, 84 float2, C = 1 + 5;
    # 11 + 6 * (29 + 84 * 6) = 3209, against 1697 for the asm codelet. Ops that are
    # not natural-vector ops (divide) have no per-vector overhead either way.
    assert binary_op_1d("add", "float", 1000, c_codelet=True) == 11 + 6 * (29 + 84 * 6) == 3209
    assert binary_op_1d("divide", "float", 1000, c_codelet=True) == binary_op_1d("divide", "float", 1000)


def test_binary_op_1d_ignores_interleaved_flag_because_not_in_place():
    # cpp:75 needs `getForceInterleavedEstimates() && inPlace`; BinaryOp1D passes false.
    # 1000-element float add is 1697 either way (see above); the in-place variant differs.
    assert binary_op_1d("add", "float", 1000) == 1697


# --------------------------------------------------------------------------------------
# UnaryOp1D: 11 + 9 + w * (W + inner(per))   (cpp:1543-1559)
#   W = 33 for exponent, 17 otherwise (cpp:1547)
#   inner: unrolled entries ceil(per / unroll) * cycles (cpp:1497-1498);
#          one-element entries (absolute): (cycles + 4) * per (cpp:1506, width 1);
#          natural-vector entries (ceil): floor((cycles + 4) * (per + v - 1) / v)
#          (cpp:1506 -> PerformanceEstimation.cpp:36, multiply before divide)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "dtype", "n", "expected"),
    [
        # sqrt float {10, false, 2} (hpp:193): per = 167; 84 * 10 = 840;
        # 20 + 6 * (17 + 840) = 20 + 6 * 857 = 20 + 5142 = 5162
        ("sqrt", "float", 1000, 5162),
        # per = 1; 1 * 10 = 10; 20 + 6 * 27 = 182
        ("sqrt", "float", 1, 182),
        # per = 1900; 950 * 10 = 9500; 20 + 6 * 9517 = 20 + 57102 = 57122
        ("sqrt", "float", 11398, 57122),
        # sqrt half {23, false, 4} (hpp:194): per = 1900; 475 * 23 = 10925;
        # 20 + 6 * 10942 = 20 + 65652 = 65672
        ("sqrt", "half", 11398, 65672),
        # exponent float {6, false, 2} (hpp:142), W = 33: per = 2; 1 * 6 = 6;
        # 20 + 6 * 39 = 254
        ("exponent", "float", 8, 254),
        # exponent half {4, false, 4} (hpp:144): per = 2667; 667 * 4 = 2668;
        # 20 + 6 * (33 + 2668) = 20 + 6 * 2701 = 20 + 16206 = 16226
        ("exponent", "half", 16000, 16226),
        # exponent2 is NOT the special case: W = 17. {6, false, 2} (hpp:148): per = 2;
        # 1 * 6 = 6; 20 + 6 * 23 = 158
        ("exponent2", "float", 8, 158),
        # absolute float {1, false} (hpp:105): per = 1; (1 + 4) * 1 = 5; 20 + 6 * 22 = 152
        ("absolute", "float", 5, 152),
        # absolute half {1, false} (hpp:106): per = 167; 5 * 167 = 835;
        # 20 + 6 * 852 = 20 + 5112 = 5132
        ("absolute", "half", 1000, 5132),
        # negate half {2, false, 4} (hpp:178): per = 1; 1 * 2 = 2; 20 + 6 * 19 = 134
        ("negate", "half", 5, 134),
        # logarithm float {12, false, 2} (hpp:172): per = 167; 84 * 12 = 1008;
        # 20 + 6 * 1025 = 20 + 6150 = 6170
        ("logarithm", "float", 1000, 6170),
        # tanh half {4, false, 4} (hpp:203): per = 167; 42 * 4 = 168; 20 + 6 * 185 = 1130
        ("tanh", "half", 1000, 1130),
        # square float {2, false, 2} (hpp:196): per = 2667; 1334 * 2 = 2668;
        # 20 + 6 * 2685 = 20 + 16110 = 16130
        ("square", "float", 16000, 16130),
        # ceil half {2, true} (hpp:128): per = 2; floor(6 * (2 + 3) / 4) = floor(30/4) = 7
        # (a plain 6 * ceil(2/4) would be 6); 20 + 6 * 24 = 164
        ("ceil", "half", 12, 164),
        # ceil float {2, true} (hpp:127): per = 1; floor(6 * (1 + 1) / 2) = 6;
        # 20 + 6 * 23 = 158
        ("ceil", "float", 6, 158),
    ],
)
def test_unary_op_1d(op, dtype, n, expected):
    assert unary_op_1d(op, dtype, n) == expected


# --------------------------------------------------------------------------------------
# ScaledAddSupervisor, ADD, same type (PerformanceEstimation.cpp:473-628)
#   supervisor = 21 + 11 + (7 if n % v == 0 else 13) + 12 + 6  -> 57 or 63
#   vectors = n // v, tail = n % v, vpw = vectors // w, rem = vectors % w
#   worker = 15 + [6 + inner * (vpw - 1) if vpw] + 2 + (wid == rem: 1 + tail cost) + 1
#   inner: unconstrained 3 (4 for float A / half B); constrained 1 if vpw >= 16 else 2
#   tail cost: float 8; half 5, +7 if tail >= 2, +6 if tail == 3
#   result = supervisor + w * max(worker)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dtype", "n", "constrained", "expected"),
    [
        # float 1000: vectors 500, tail 0, vpw 83, rem 2; sup 57.
        # unconstrained: 15 + 6 + 3 * 82 = 267; + 2 + 1 + 1 = 271; 57 + 6 * 271 = 1683
        ("float", 1000, False, 1683),
        # constrained (83 >= 16 -> 1): 15 + 6 + 82 = 103; + 4 = 107; 57 + 642 = 699
        ("float", 1000, True, 699),
        # float 11398: vectors 5699, tail 0, vpw 949 (6*949 = 5694), rem 5; sup 57.
        # unconstrained: 15 + 6 + 3 * 948 = 2865; + 4 = 2869; 57 + 6 * 2869 = 17271
        ("float", 11398, False, 17271),
        # constrained: 15 + 6 + 948 = 969; + 4 = 973; 57 + 5838 = 5895
        ("float", 11398, True, 5895),
        # half 11398: vectors 2849 (4*2849 = 11396), tail 2, vpw 474, rem 5; sup 63.
        # unconstrained: 15 + 6 + 3 * 473 = 1440; + 2 + 1 + (5 + 7) + 1 = 1456;
        # 63 + 6 * 1456 = 63 + 8736 = 8799
        ("half", 11398, False, 8799),
        # constrained: 15 + 6 + 473 = 494; + 2 + 1 + 12 + 1 = 510; 63 + 3060 = 3123
        ("half", 11398, True, 3123),
        # half 16000: vectors 4000, tail 0, vpw 666, rem 4; sup 57.
        # unconstrained: 15 + 6 + 3 * 665 = 2016; + 4 = 2020; 57 + 12120 = 12177
        ("half", 16000, False, 12177),
        # constrained: 15 + 6 + 665 = 686; + 4 = 690; 57 + 4140 = 4197
        ("half", 16000, True, 4197),
        # float 1: vectors 0, tail 1, vpw 0, rem 0; sup 63; no loop.
        # worker 0: 15 + 2 + 1 + 8 + 1 = 27; 63 + 6 * 27 = 225 (same constrained)
        ("float", 1, False, 225),
        ("float", 1, True, 225),
        # half 5: vectors 1, tail 1, vpw 0, rem 1; sup 63. The one whole vector is never
        # costed (remainingVectors < 0 quirk), the lone half only pays the check:
        # worker 1: 15 + 2 + 1 + 5 + 1 = 24; 63 + 144 = 207
        ("half", 5, False, 207),
        # half 7: vectors 1, tail 3: 15 + 2 + 1 + 5 + 7 + 6 + 1 = 37; 63 + 222 = 285
        ("half", 7, False, 285),
        # float 8: vectors 4, tail 0, vpw 0, rem 4; sup 57: 15 + 2 + 1 + 1 = 19;
        # 57 + 114 = 171
        ("float", 8, False, 171),
        # float 100: vectors 50, vpw 8, rem 2; sup 57.
        # constrained (8 < 16 -> 2): 15 + 6 + 2 * 7 = 35; + 4 = 39; 57 + 234 = 291
        ("float", 100, True, 291),
        # unconstrained: 15 + 6 + 21 = 42; + 4 = 46; 57 + 276 = 333
        ("float", 100, False, 333),
    ],
)
def test_scaled_add_supervisor(dtype, n, constrained, expected):
    assert scaled_add_supervisor(dtype, n, constrained) == expected


def test_scaled_add_leftover_vectors_never_costed():
    # float 12: vectors 6, vpw 1, rem 0: 15 + 6 + 0 + 2 + 1 + 1 = 25; 57 + 150 = 207
    # float 22: vectors 11, vpw 1, rem 5 -- the 5 extra vectors add nothing: also 207
    assert scaled_add_supervisor("float", 12, False) == 207
    assert scaled_add_supervisor("float", 22, False) == 207


def test_scaled_add_constrained_not_monotonic():
    # float 192: vectors 96, vpw 16 -> inner 1: 15 + 6 + 15 = 36; + 4 = 40; 57 + 240 = 297
    # float 190: vectors 95, vpw 15, rem 5 -> inner 2: 15 + 6 + 28 = 49; + 4 = 53;
    # 57 + 318 = 375 -- more cycles for fewer elements
    assert scaled_add_supervisor("float", 192, True) == 297
    assert scaled_add_supervisor("float", 190, True) == 375


def test_scaled_add_mixed_and_interleaved():
    # float A, half B, unconstrained: inner 4. float 1000: 15 + 6 + 4 * 82 = 349;
    # + 4 = 353; 57 + 2118 = 2175
    assert scaled_add_supervisor("float", 1000, False, data_b_dtype="half") == 2175
    # interleaved flag, same type, unconstrained: inner 3 - 1 = 2: 15 + 6 + 164 = 185;
    # + 4 = 189; 57 + 1134 = 1191
    assert scaled_add_supervisor("float", 1000, False, force_interleaved=True) == 1191
    # interleaved flag, constrained, vpw >= 16: inner 1 - 1 = 0: 15 + 6 + 0 = 21;
    # + 4 = 25; 57 + 150 = 207
    assert scaled_add_supervisor("float", 1000, True, force_interleaved=True) == 207
    # interleaved flag does not apply to mixed types: still 2175
    assert (
        scaled_add_supervisor(
            "float", 1000, False, data_b_dtype="half", force_interleaved=True
        )
        == 2175
    )


def test_scaled_add_workers_parameter():
    # float 1000, 1 worker: vectors 500, vpw 500, rem 0; sup 57.
    # unconstrained: 15 + 6 + 3 * 499 = 1518; + 2 + 1 + 1 = 1522; 57 + 1522 = 1579
    assert scaled_add_supervisor("float", 1000, False, workers=1) == 1579


def test_scaled_add_to_is_constrained():
    # Default options: optimizeForSpeed is false (ScaledAdd.cpp:56, :95) -> never.
    for a in ("float", "half"):
        for b in ("float", "half"):
            assert scaled_add_to_is_constrained(a, data_b_dtype=b) is False
    # optimizeForSpeed: only (half, half); float/float (:91), float/half (:92) and
    # half/float with the DEFAULT specialisation (:93-94) stay unconstrained.
    assert scaled_add_to_is_constrained("half", optimize_for_speed=True) is True
    assert scaled_add_to_is_constrained("float", optimize_for_speed=True) is False
    assert scaled_add_to_is_constrained("float", True, data_b_dtype="half") is False
    assert scaled_add_to_is_constrained("half", True, data_b_dtype="float") is False


# --------------------------------------------------------------------------------------
# ReduceAdd SCALAR_OUTPUT_SINGLE_INPUT: 3 + 6 + c * n // e + 5 + n % e + 3 (+ 5 when
# the output is not float) (CycleEstimationFunctions.cpp:313-325); float: 2 floats a
# load through 4-wide accumulators, c = 2, e = 4; half: c = 2, e = 8.
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "partials", "out", "expected"),
    [
        (1, "float", "float", 3 + 6 + 0 + 5 + 1 + 3),
        (7, "float", "float", 3 + 6 + 3 + 5 + 3 + 3),
        (1000, "float", "float", 3 + 6 + 500 + 5 + 0 + 3),
        (1000, "half", "float", 3 + 6 + 250 + 5 + 0 + 3),
        (1000, "float", "half", 3 + 6 + 500 + 5 + 0 + 3 + 5),
        (11398, "float", "float", 3 + 6 + 5699 + 5 + 2 + 3),
    ],
)
def test_reduce_add_single_input(n, partials, out, expected):
    assert reduce_add_single_input(n, partials, out) == expected


def test_reduce_add_on_tile_splits_between_the_workers():
    # 1000 floats in 6 pieces of at most 167: 6 * (3 + 6 + 83 + 5 + 3 + 3).
    assert reduce_add_on_tile(1000, "float") == 6 * 103
    # 5 floats: at most 5 // 2 = 2 pieces of 3, still 6 contexts' worth of time.
    assert reduce_add_on_tile(5, "float") == 6 * reduce_add_single_input(3, "float")
    assert reduce_add_on_tile(1, "float", workers=4) == 4 * reduce_add_single_input(1, "float")


# --------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("func", [binary_op_1d, binary_op_1d_in_place])
def test_binary_unsupported(func):
    with pytest.raises(ValueError, match=r"unsupported op 'power'.*supported ops: add"):
        func("power", "float", 10)
    with pytest.raises(ValueError, match=r"unsupported dtype 'int'.*float, half"):
        func("add", "int", 10)
    with pytest.raises(ValueError, match="n must be a non-negative int"):
        func("add", "float", -1)
    with pytest.raises(ValueError, match="workers must be a positive int"):
        func("add", "float", 10, 0)


def test_unary_unsupported():
    with pytest.raises(ValueError, match=r"unary_op_1d: unsupported op 'cos'.*sqrt"):
        unary_op_1d("cos", "float", 10)
    with pytest.raises(ValueError, match=r"unsupported dtype 'bfloat16'"):
        unary_op_1d("sqrt", "bfloat16", 10)


def test_reduce_unsupported():
    with pytest.raises(ValueError, match=r"unsupported partials_dtype 'int'"):
        reduce_add_single_input(10, "int")
    with pytest.raises(ValueError, match="n must be positive"):
        reduce_add_single_input(0, "float")
    with pytest.raises(ValueError, match="workers must be a positive int"):
        reduce_add_on_tile(10, "float", 0)


def test_scaled_add_unsupported():
    with pytest.raises(ValueError, match=r"unsupported dtype 'int'"):
        scaled_add_supervisor("int", 10, False)
    with pytest.raises(ValueError, match=r"unsupported data_b_dtype 'double'"):
        scaled_add_supervisor("float", 10, False, data_b_dtype="double")
    with pytest.raises(ValueError, match="half A with float B"):
        scaled_add_supervisor("half", 10, False, data_b_dtype="float")
    with pytest.raises(ValueError, match=r"unsupported dtype 'int'"):
        scaled_add_to_is_constrained("int")
