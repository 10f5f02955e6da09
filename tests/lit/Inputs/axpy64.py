"""A float64 program, for ipu-demote-f64 and the callers of its demoted build."""

import dace

N = dace.symbol("N")


@dace.program
def axpy64(a: dace.float64, x: dace.float64[N], y: dace.float64[N]):
    y[:] = a * x + y
