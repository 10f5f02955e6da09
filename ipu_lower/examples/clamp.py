"""Scalar arguments: clamp int32 values into [lo, hi]."""

import dace

N = dace.symbol("N")


@dace.program
def clamp(x: dace.int32[N], lo: dace.int32, hi: dace.int32, y: dace.int32[N]):
    for i in dace.map[0:N]:
        with dace.tasklet:
            v << x[i]
            l << lo
            h << hi
            out >> y[i]
            out = min(max(v, l), h)
