import dace

N = dace.symbol("N")


@dace.program
def unsigned_mix(k: dace.uint32, x: dace.uint8[N], y: dace.uint32[N]):
    for i in dace.map[0:N]:
        with dace.tasklet:
            a << x[i]
            b << y[i]
            c << k
            r >> y[i]
            r = b // c if b > a else b - a
