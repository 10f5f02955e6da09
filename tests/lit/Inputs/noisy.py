# Warns and prints while it loads, as DaCe and sympy do: ipu-opt shows neither.
import sys
import warnings

import dace

N = dace.symbol("N")
warnings.warn("a dependency's future warning", FutureWarning)
print("a dependency prints on stdout")
print("a dependency prints on stderr", file=sys.stderr)


@dace.program
def increment(x: dace.float32[N]):
    x[:] = x + 1
