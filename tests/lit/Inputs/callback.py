import dace
import numpy as np

N = dace.symbol("N")
M = dace.symbol("M")


@dace.program
def outer(x: dace.float32[N], y: dace.float32[M], A: dace.float32[N, M]):
    A[:] = np.outer(x, y)  # DaCe 1.0.2 has no replacement for np.outer: a Python callback
