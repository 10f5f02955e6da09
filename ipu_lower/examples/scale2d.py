"""A 2-D elementwise map written with an explicit dace.map."""

import dace

M = dace.symbol("M")
N = dace.symbol("N")


@dace.program
def scale2d(A: dace.float32[M, N], B: dace.float32[M, N]):
    for i, j in dace.map[0:M, 0:N]:
        B[i, j] = A[i, j] * A[i, j] + dace.float32(1.0)
