import dace
import numpy as np

N = dace.symbol("N")


@dace.program
def eliminate(A: dace.float32[N, N], x: dace.float32[N]):
    for i in range(1, N):
        x[i:] -= A[i - 1, i:] * x[i - 1]


@dace.program
def forward(L: dace.float32[N, N], b: dace.float32[N], x: dace.float32[N]):
    for i in range(N):
        x[i] = (b[i] - np.dot(L[i, :i], x[:i])) / L[i, i]


@dace.program
def misaligned(A: dace.float32[N, N], x: dace.float32[N], r: dace.float32[N]):
    for i in range(N):
        r[i] = np.dot(A[i, i:], x[:N - i])


@dace.program
def strided(A: dace.float32[N, N], r: dace.float32[N]):
    for i in range(N):
        r[i] = np.sum(A[i, i::2])


@dace.program
def offsets(A: dace.float32[N], B: dace.float32[N]):
    for i in range(N // 2):
        B[i:2 * i] = A[:i]
