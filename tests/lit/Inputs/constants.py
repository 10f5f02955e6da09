import dace
import numpy as np


@dace.program
def shifted(A: dace.float32[2, 3], B: dace.float32[2, 3]):
    B[:] = A + np.array([[1, 2, 3], [4, 5, 6.5]], dtype=np.float32)
