import dace

N = dace.symbol("N")


@dace.program
def weighted(x: dace.float32[N], s: dace.float32[1]):
    for i in dace.map[0:N]:
        with dace.tasklet:
            a << x[i]
            b >> s(1, lambda p, q: p + 2 * q)[0]
            b = a
