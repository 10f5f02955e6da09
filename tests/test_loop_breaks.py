"""`break` in loops (sdfg.break, lowered by sdfg-lower-breaks): each program is lowered, run
on the CPU emulator and compared with DaCe's CPU build of the same SDFG and with numpy."""

import dace
import numpy as np
import pytest
from test_e2e import assert_same, run_dace, run_ipu

from ipu_lower.dialects import sdfg as sd
from ipu_lower.frontend.importer import import_sdfg

N = dace.symbol("N")
RNG = np.random.default_rng(97)


@dace.program
def first_negative(A: dace.float32[N], out: dace.int32[1]):
    out[0] = -1
    for i in range(N):
        if A[i] < 0:
            out[0] = i
            break


@dace.program
def sum_until_big(A: dace.float32[N], s: dace.float32[1]):
    for i in range(N):
        s[0] += A[i]
        if s[0] > 3:
            break
        A[i] = s[0]  # only in the iterations that do not break


@dace.program
def while_break(A: dace.float32[N], s: dace.float32[1]):
    i = 0
    while i < N:
        if A[i] > 0.9:
            break
        s[0] += A[i]
        i += 1


@dace.program
def inner_break(A: dace.float32[N, N], r: dace.float32[N]):
    for i in range(N):
        for j in range(N):
            if A[i, j] > 0.8:
                break  # leaves the inner loop only
            r[i] += A[i, j]


def test_break_is_imported_where_the_program_has_it():
    module = import_sdfg(first_negative.to_sdfg(simplify=True))
    (brk,) = [op for op in module.walk() if isinstance(op, sd.BreakOp)]
    assert isinstance(sd.innermost_loop(brk), sd.ForOp)
    assert isinstance(brk.parent_op(), sd.IfOp)


@pytest.mark.parametrize("negative_at", [5, None])
def test_search_loop_stops_at_the_first_match(negative_at):
    a = RNG.random(23, dtype=np.float32)
    if negative_at is not None:
        a[negative_at] = -1
        a[negative_at + 4] = -2  # a later match must not win
    arrays = {"A": a, "out": np.zeros(1, np.int32)}
    ours, _ = run_ipu(first_negative, arrays, {"N": 23})
    assert_same(ours, run_dace(first_negative, arrays, {"N": 23}), ["out"])
    assert ours["out"][0] == (-1 if negative_at is None else negative_at)


def test_statements_after_the_break_run_only_until_it():
    arrays = {"A": RNG.random(19, dtype=np.float32), "s": np.zeros(1, np.float32)}
    ours, _ = run_ipu(sum_until_big, arrays, {"N": 19})
    assert_same(ours, run_dace(sum_until_big, arrays, {"N": 19}), ["A", "s"])


def test_while_loop_with_break_matches_dace():
    a = RNG.random(29, dtype=np.float32) * 0.8
    a[11] = 0.95
    arrays = {"A": a, "s": np.zeros(1, np.float32)}
    ours, _ = run_ipu(while_break, arrays, {"N": 29})
    assert_same(ours, run_dace(while_break, arrays, {"N": 29}), ["s"])
    np.testing.assert_allclose(ours["s"][0], a[:11].sum(), rtol=1e-5)


def test_break_leaves_the_inner_loop_only():
    arrays = {"A": RNG.random((9, 9), dtype=np.float32), "r": np.zeros(9, np.float32)}
    ours, _ = run_ipu(inner_break, arrays, {"N": 9})
    assert_same(ours, run_dace(inner_break, arrays, {"N": 9}), ["r"])
