import dace
import numpy as np

M = dace.symbol("M")
N = dace.symbol("N")


@dace.program
def row_sums(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        r[i] = np.sum(A[i, :])
