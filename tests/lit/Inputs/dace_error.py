import dace

N = dace.symbol("N")


@dace.program
def undefined(x: dace.float32[N]):
    for i in range(N):
        x[i] = missing[i]
