import dace

N = dace.symbol("N")


@dace.program
def double(x: dace.float32[N]):
    x[:] = x + x


@dace.program
def square(x: dace.float32[N]):
    x[:] = x * x
