"""Square matrix products C = A @ B: the estimated cycles through poplin and through
DaCe's own map expansion, against the arch's peak.

For each size N and element type: the cost model's cycles (ipu_lower.cost_model, which
the e2e tests check against the emulator) of the whole program, and the fraction of the
arch's peak they reach (2 N^3 FLOPs over tiles x peak FLOPs per tile and cycle, the AMP
rate for the type: `Arch.flops_per_cycle_f32` / `_f16`, float16 with float32 partials),
for two lowerings of the same `A @ B`:

- poplin: DaCe's `MatMul` node becomes one `poplin::matMulWithOutput`, estimated as its
  FLOPs at the AMP peak over all tiles divided by poplin's measured efficiency, 0.65
  (`arch.MATMUL_EFFICIENCY`, `cost_model.matmul_cycles`), plus its operands' exchange
  and a sync: so it cannot exceed 65% of the peak;
- DaCe's map expansion: the node expanded as DaCe expands it without a BLAS library
  (MatMul -> Gemm -> 'pure': a map over (i, j, k) accumulating A[i, k] * B[k, j] into
  C[i, j]), lowered by ipu-lower like any map: a reduction whose operands reach the
  points through broadcast views, in chunks of k (sdfg-chunk-reductions) when they would
  not fit, computed by our scalar fold codelets on the workers (no AMP).

`chunks` is the loop's trip count (1: no loop). Run: python benchmarks/matmul.py
[--arch ipu2] [--sizes 1024,4096]
"""

# No `from __future__ import annotations`: DaCe reads the programs' annotations.
import dace
from roofline import arch_and_sizes, print_header

from ipu_lower.arch import Arch
from ipu_lower.cost_model import program_estimate
from ipu_lower.dialects import poplar
from ipu_lower.emit import lower_program
from ipu_lower.frontend.library_fallbacks import expand_as_dace_pure

N = dace.symbol("N")
TYPES = {"float32": (dace.float32, 4), "float16": (dace.float16, 2)}


def product_sdfg(dtype, expand: bool) -> dace.SDFG:
    @dace.program
    def product(A: dtype[N, N], B: dtype[N, N], C: dtype[N, N]):
        C[:] = A @ B

    sdfg = product.to_sdfg(simplify=True)
    if expand:
        expand_as_dace_pure(sdfg)
    return sdfg


def row(sdfg: dace.SDFG, n: int, element_bytes: int, arch: Arch) -> dict:
    module = lower_program(sdfg, {"N": n}, arch.name)
    program = next(op for op in module.walk() if isinstance(op, poplar.HostProgramOp))
    cycles = program_estimate(program, arch).cycles
    loops = [op for op in module.walk() if isinstance(op, poplar.RepeatOp)]
    peak = arch.flops_per_cycle_f16 if element_bytes == 2 else arch.flops_per_cycle_f32
    ideal = 2 * n**3 / (arch.tiles * peak)
    return {
        "cycles": cycles,
        "ms": cycles / arch.clock_hz * 1e3,
        "peak": ideal / cycles,
        "chunks": loops[0].count.value.data if loops else 1,
        "ideal": ideal,
    }


def main() -> None:
    arch, sizes = arch_and_sizes(__doc__, "1024,4096")
    print(f"C = A @ B, N x N, on {arch.name} ({arch.tiles} tiles, {arch.clock_hz / 1e9:.2f} GHz); peak FLOPs per tile "
          f"and cycle: {arch.flops_per_cycle_f32} float32, {arch.flops_per_cycle_f16} float16 (float32 partials).")
    print_header(f"{'N':>5} {'type':8} {'lowering':15} {'cycles':>11} {'ms':>9} {'of peak':>8} {'chunks':>6} {'peak cycles':>11}")
    for n in sizes:
        for type_name, (dtype, element_bytes) in TYPES.items():
            for name, expand in (("poplin", False), ("DaCe map", True)):
                r = row(product_sdfg(dtype, expand), n, element_bytes, arch)
                print(
                    f"{n:>5} {type_name:8} {name:15} {r['cycles']:>11} {r['ms']:>9.3f} {r['peak']:>8.2%} "
                    f"{r['chunks']:>6} {r['ideal']:>11.0f}"
                )
    print()
    print("of peak: the peak's cycles for 2 N^3 FLOPs over the estimate. poplin's estimate is the peak")
    print("divided by its measured efficiency, plus exchange and sync; the map expansion's is the cost")
    print("model's count of our codelets, exchange and syncs, chunk by chunk.")


if __name__ == "__main__":
    main()
