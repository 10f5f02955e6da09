"""A chain of three elementwise operations with temporaries between them."""

import dace
import numpy as np

N = dace.symbol("N")


@dace.program
def chain(x: dace.float32[N], y: dace.float32[N], z: dace.float32[N]):
    t = x * y
    u = t + x
    z[:] = np.sqrt(u)
