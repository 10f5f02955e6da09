import dace

M = dace.symbol("M")
N = dace.symbol("N")


@dace.program
def row_sums(A: dace.float32[M, N], r: dace.float32[M]):
    for i in dace.map[0:M]:
        s = dace.float32(0)
        for j in range(N):
            s += A[i, j]
        r[i] = s
