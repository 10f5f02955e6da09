import dace

N = dace.symbol("N")


@dace.program
def clip_low(A: dace.float32[N], B: dace.float32[N]):
    for i in dace.map[0:N]:
        if A[i] > 0.5:
            B[i] = A[i]
