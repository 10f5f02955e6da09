"""Estimated cycles of elementwise programs against the IPU's physical bound and poplibs.

For saxpy (y = a x + y) and a 3-input chain (w = x y + z), in float32 and float16, at
1, 4 and 16 million elements: the cost model's estimate of the compute phase (per
compute set the busiest vertex, summed over the compute sets), the physical bound of
the busiest tile, poplibs' estimate for the same work on that tile, and both ratios;
then the busiest tile's memory against the same program lowered without
sdfg-fuse-maps and sdfg-write-in-place (the lowering before they existed).
Stencils and reductions are not listed: ipu-lower does not lower them from SDFGs yet.

Run: python benchmarks/roofline.py [--arch ipu2] [--sizes 1,4,16]
"""

# No `from __future__ import annotations`: DaCe reads the programs' annotations.
import argparse
from collections.abc import Callable
from dataclasses import dataclass

import dace
from ipu_lower.dialects import poplar
from ipu_lower.dialects import sdfg as sd
from ipu_lower.passes.sdfg_fuse_maps import SdfgFuseMapsPass
from ipu_lower.passes.sdfg_specialize import SdfgSpecializePass
from ipu_lower.passes.sdfg_write_in_place import SdfgWriteInPlacePass
from ipu_lower.passes.tile_partition import busiest_tile, container_bytes, plan_layouts
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from ipu_lower import poplibs_estimates as poplibs
from ipu_lower.arch import Arch, get_arch
from ipu_lower.emit import to_sdfg
from ipu_lower.frontend.importer import import_sdfg
from ipu_lower.pipelines import SdfgToPoplarPass

MEMORY_BYTES_PER_CYCLE = 24
"""A tile's memory serves two 64-bit loads and a 64-bit store per cycle (one
ld2xst64pace; graphcore/ipu_assembly_support isa_doc_generated/hover/ld2xst64pace.md)."""

PEAK_TFLOPS = {"float32": 62.5, "float16": 250.0}
"""GC200 peak arithmetic, per IPU (Graphcore IPU-M2000 specifications: 250 TFLOPS
FP16.16, 62.5 TFLOPS FP32), spread over its tiles and clock below."""

N = dace.symbol("N")


def saxpy_program(dtype):
    @dace.program
    def saxpy(a: dtype, x: dtype[N], y: dtype[N]):
        y[:] = a * x + y

    return saxpy


def chain_program(dtype):
    @dace.program
    def chain(x: dtype[N], y: dtype[N], z: dtype[N], w: dtype[N]):
        w[:] = x * y + z

    return chain


@dataclass(frozen=True)
class Workload:
    """A program, what the busiest tile moves and computes per element, and what
    poplibs would run for it on one tile of `n` elements."""

    name: str
    program: Callable
    accesses: int
    """elements loaded or stored per element (saxpy: x, y in, y out)"""
    flops: int
    poplibs: str
    poplibs_cycles: Callable[[str, int], int]


WORKLOADS = (
    Workload(
        "saxpy", saxpy_program, 3, 2, "scaledAddTo (ScaledAddSupervisor, unconstrained)",
        lambda t, n: poplibs.scaled_add_supervisor(t, n, mem_constrained=poplibs.scaled_add_to_is_constrained(t)),
    ),
    Workload(
        "chain3", chain_program, 4, 2, "mul + addInPlace (BinaryOp1D, BinaryOp1DInPlace)",
        lambda t, n: poplibs.binary_op_1d("multiply", t, n) + poplibs.binary_op_1d_in_place("add", t, n),
    ),
)
DTYPES = {"float32": (dace.float32, poplibs.FLOAT, 4), "float16": (dace.float16, poplibs.HALF, 2)}


def sdfg_module(workload: Workload, dtype) -> ModuleOp:
    return import_sdfg(to_sdfg(workload.program(dtype)))


def compute_cycles(module: ModuleOp) -> int:
    """The compute phase: each compute set lasts as long as its slowest vertex."""
    return sum(max(op.cycles.get_values()) for op in module.walk() if isinstance(op, poplar.AddVerticesOp))


def busiest_tile_bytes(module: ModuleOp, arch: str, fuse: bool, n: int) -> tuple[int, int]:
    """(bytes, elements of the largest layout block) on the busiest tile."""
    ctx = Context()
    SdfgSpecializePass(symbols=f"N={n}").apply(ctx, module)
    if fuse:
        SdfgFuseMapsPass().apply(ctx, module)
        SdfgWriteInPlacePass().apply(ctx, module)
    sdfg_op = next(op for op in module.ops if isinstance(op, sd.SdfgOp))
    layouts = plan_layouts(sdfg_op, get_arch(arch))
    containers = {op.container_name.data: op for op in sdfg_op.containers()}
    most, _ = busiest_tile(layouts, container_bytes(containers))
    return most, max(m.max_per_tile() for m in layouts.values())


def print_header(header: str) -> None:
    print(header)
    print("-" * len(header))


def arch_and_sizes(doc: str, sizes: str, sizes_help: str | None = None) -> tuple[Arch, list[int]]:
    """The `--arch` and `--sizes` (comma-separated) options of a benchmark script."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--arch", default="ipu2")
    parser.add_argument("--sizes", default=sizes, help=sizes_help)
    args = parser.parse_args()
    return get_arch(args.arch), [int(size) for size in args.sizes.split(",")]


def main() -> None:
    arch, millions = arch_and_sizes(__doc__, "1,4,16", "millions of elements (2**20)")
    sizes = [m * 2**20 for m in millions]
    peak_per_tile = {t: tf * 1e12 / (arch.tiles * arch.clock_hz) for t, tf in PEAK_TFLOPS.items()}

    print(f"Compute cycles on {arch.name} ({arch.tiles} tiles): the model, the bound of the busiest tile")
    print(f"(its bytes / {MEMORY_BYTES_PER_CYCLE}, or its FLOPs / peak when larger) and poplibs' estimate for it.")
    header = (
        f"{'program':8} {'type':8} {'elements':>9} {'per tile':>8} {'model':>7} {'bound':>6} {'limit':>6} "
        f"{'poplibs':>7} {'model/bound':>11} {'model/poplibs':>13}"
    )
    print_header(header)
    memory_rows = []
    for workload in WORKLOADS:
        for type_name, (dtype, poplibs_type, size) in DTYPES.items():
            for n in sizes:
                module = sdfg_module(workload, dtype)
                SdfgToPoplarPass(symbols=f"N={n}", arch=arch.name).apply(Context(), module)
                cycles = compute_cycles(module)
                after, per_tile = busiest_tile_bytes(sdfg_module(workload, dtype), arch.name, True, n)
                before, _ = busiest_tile_bytes(sdfg_module(workload, dtype), arch.name, False, n)
                memory_bound = workload.accesses * size * per_tile / MEMORY_BYTES_PER_CYCLE
                flop_bound = workload.flops * per_tile / peak_per_tile[type_name]
                bound = max(memory_bound, flop_bound)
                limit = "memory" if memory_bound >= flop_bound else "flops"
                reference = workload.poplibs_cycles(poplibs_type, per_tile)
                print(
                    f"{workload.name:8} {type_name:8} {n:>9} {per_tile:>8} {cycles:>7} {bound:>6.0f} {limit:>6} "
                    f"{reference:>7} {cycles / bound:>11.2f} {cycles / reference:>13.2f}"
                )
                memory_rows.append((workload.name, type_name, n, before, after))
    print()
    print("poplibs' work: " + "; ".join(f"{w.name}: {w.poplibs}" for w in WORKLOADS))
    print()
    print("Busiest tile's data, bytes: lowered without and with sdfg-fuse-maps + sdfg-write-in-place")
    print_header(f"{'program':8} {'type':8} {'elements':>9} {'before':>8} {'after':>8} {'after/before':>12}")
    for name, type_name, n, before, after in memory_rows:
        print(f"{name:8} {type_name:8} {n:>9} {before:>8} {after:>8} {after / before:>12.2f}")


if __name__ == "__main__":
    main()
