"""saxpy: y = a * x + y over N elements (float32, scalar argument a)."""

import dace

N = dace.symbol("N")


@dace.program
def saxpy(a: dace.float32, x: dace.float32[N], y: dace.float32[N]):
    y[:] = a * x + y
