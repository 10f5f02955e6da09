import dace
import numpy as np

N = dace.symbol("N")


@dace.program
def interior_sum(A: dace.float32[N], s: dace.float32[1]):
    s[0] = np.sum(A[1:-1])


@dace.program
def interior_bytes(U: dace.uint8[N], t: dace.uint8[1]):
    t[0] = np.sum(U[1:-1])
