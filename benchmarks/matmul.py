"""Square matrix products C = A @ B: the estimated cycles through poplin and through
DaCe's own map expansion, against the arch's peak.

For each size N and element type: the cost model's cycles (ipu_lower.cost_model, which
the e2e tests check against the emulator) of the whole program, and the fraction of the
arch's peak they reach (2 N^3 FLOPs over tiles x peak FLOPs per tile and cycle, the AMP
rate for the type: `Arch.flops_per_cycle_f32` / `_f16`, float16 with float32 partials),
for two lowerings of the same `A @ B`:

- poplin: DaCe's `MatMul` node becomes one `poplin::matMulWithOutput`, estimated on the
  busiest tile of an explicit split of the product over the tiles
  (`cost_model.matmul_partition`): its FLOPs at the AMP peak divided by an ASSUMED
  efficiency, 0.65 (`arch.MATMUL_EFFICIENCY`, read off a published plot: an input, not a
  result), plus the bytes it receives (its blocks of A and B, partial sums of a split
  inner dimension) and a sync: so it cannot exceed 65% of the peak;
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

from ipu_lower.arch import MATMUL_EFFICIENCY, MATMUL_EFFICIENCY_NOTE, Arch
from ipu_lower.cost_model import matmul_partition, program_estimate
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
    products = [op for op in module.walk() if isinstance(op, poplar.MatmulOp)]
    exchange = sum(
        -(-matmul_partition(*op.sizes(), element_bytes, arch.tiles).received_bytes // arch.exchange_bytes_per_cycle)
        for op in products
    )
    loops = [op for op in module.walk() if isinstance(op, poplar.RepeatOp)]
    peak = arch.flops_per_cycle_f16 if element_bytes == 2 else arch.flops_per_cycle_f32
    ideal = 2 * n**3 / (arch.tiles * peak)
    return {
        "cycles": cycles,
        "ms": cycles / arch.clock_hz * 1e3,
        "peak": ideal / cycles,
        "chunks": loops[0].count.value.data if loops else 1,
        "ideal": ideal,
        "exchange": exchange if products else None,
    }


def main() -> None:
    arch, sizes = arch_and_sizes(__doc__, "1024,4096")
    print(f"C = A @ B, N x N, on {arch.name} ({arch.tiles} tiles, {arch.clock_hz / 1e9:.2f} GHz); peak FLOPs per tile "
          f"and cycle: {arch.flops_per_cycle_f32} float32, {arch.flops_per_cycle_f16} float16 (float32 partials).")
    print_header(
        f"{'N':>5} {'type':8} {'lowering':15} {'efficiency':>14} {'cycles':>11} {'exchange':>9} {'ms':>9} {'of peak':>8} "
        f"{'chunks':>6} {'peak cycles':>11}"
    )
    share, whole = MATMUL_EFFICIENCY
    for n in sizes:
        for type_name, (dtype, element_bytes) in TYPES.items():
            for name, expand in (("poplin", False), ("DaCe map", True)):
                r = row(product_sdfg(dtype, expand), n, element_bytes, arch)
                efficiency = "-" if expand else f"{share / whole:.2f}(assumed)"
                exchange = "-" if r["exchange"] is None else r["exchange"]
                print(
                    f"{n:>5} {type_name:8} {name:15} {efficiency:>14} {r['cycles']:>11} {exchange:>9} {r['ms']:>9.3f} "
                    f"{r['peak']:>8.2%} {r['chunks']:>6} {r['ideal']:>11.0f}"
                )
    print()
    print(f"efficiency: {MATMUL_EFFICIENCY_NOTE}. poplin's compute is the busiest tile's FLOPs at")
    print("the peak divided by that efficiency, an input of the estimate and not a result.")
    print("of peak: the peak's cycles for 2 N^3 FLOPs over the estimate. exchange: what the busiest tile of")
    print("the product's split over the tiles receives (its blocks of A and B, partial sums of a split inner")
    print("dimension), at the arch's bytes per cycle. The map expansion's estimate is the cost model's count of")
    print("our codelets as emitted, exchange and syncs, chunk by chunk.")


if __name__ == "__main__":
    main()
