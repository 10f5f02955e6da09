import dace

N = dace.symbol("N")


@dace.program
def broken(x: dace.float32[N]:
    x[:] = 1
