import dace

N = dace.symbol("N")


@dace.program
def doubled(A: dace.float32[N]):
    return A * dace.float32(2)
