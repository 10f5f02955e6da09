"""Programs whose SDFGs have views, a transpose and a nested SDFG (tests/lit/e2e/views.test)."""

import dace

M = dace.symbol("M")
N = dace.symbol("N")


@dace.program
def scale(v: dace.float32[N], w: dace.float32[N]):
    t = v * dace.float32(2)
    w[:] = t + v
    w[1:] = t[1:]  # overwrites what the line above wrote: another state, which simplify keeps


@dace.program
def views(A: dace.float32[M, N + 1], B: dace.float32[N + 1, M], y: dace.float32[N + 1]):
    B[:] = A.T + dace.float32(1)  # a transpose
    scale(A[2, 1:], y[:-1])  # a nested SDFG with several states, given a row and a slice
