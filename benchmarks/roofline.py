"""Estimated compute cycles of four kernels against the IPU's physical bound and poplibs.

For saxpy (y = a x + y), a 3-input chain (w = x y + z), one sweep of a 2-D 5-point
Jacobi stencil and a whole-array sum (s += x[i]), in float32 and float16, at the given
sizes (millions of elements; the stencil is the square array of about that many): on
the busiest tile, for the compute phase (per placement its slowest vertex, summed over
placements),

- emitted: the cost model's estimate of the C++ codelets as popc can be expected to
  compile them (`cost_model.Schedule.EMITTED`, what the host prints with
  setPerfEstimate);
- asm: what hand-scheduled assembly for the same codelet bodies could reach
  (`Schedule.ASM`: paired loads, f32v2axpy/f16v4mix, rpt loops), a bound;
- poplibs: poplibs' own estimate for the same work on that tile, through the popops
  vertices a poplibs program would run (`ipu_lower/poplibs_estimates.py`, each constant
  cited there);
- bound: the tile's memory traffic at 24 bytes a cycle, or its FLOPs at the GC200's
  published peak when that is larger;
- chosen: what ipu-select-vertices gave the work under `prefer=auto` (our codelet, or the
  poplibs call whose estimate was lower), per placement.

`rows()` returns the table's rows, for scripts that add columns. Then the busiest tile's
memory for saxpy and the chain against the same program lowered without sdfg-fuse-maps
and sdfg-write-in-place.

Run: python benchmarks/roofline.py [--arch ipu2] [--sizes 1,16]
"""

# No `from __future__ import annotations`: DaCe reads the programs' annotations.
import argparse
from collections.abc import Callable
from dataclasses import dataclass
from math import isqrt

import dace
from ipu_lower.dialects import ipu, poplar
from ipu_lower.dialects.popops_elementwise import CHOICE
from ipu_lower.dialects import sdfg as sd
from ipu_lower.passes.convert_ipu_to_poplar import plan_placements, run_extents, slice_sizes
from ipu_lower.passes.sdfg_fuse_maps import SdfgFuseMapsPass
from ipu_lower.passes.sdfg_specialize import SdfgSpecializePass
from ipu_lower.passes.sdfg_write_in_place import SdfgWriteInPlacePass
from ipu_lower.passes.select_vertices import IpuSelectVerticesPass
from ipu_lower.passes.tile_partition import busiest_tile, container_bytes, plan_layouts
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from ipu_lower import poplibs_estimates as poplibs
from ipu_lower.arch import Arch, get_arch
from ipu_lower.cost_model import Schedule
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


def jacobi_program(dtype):
    @dace.program
    def jacobi(c: dtype, A: dtype[N, N], B: dtype[N, N]):
        B[1:-1, 1:-1] = c * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])

    return jacobi


def sum_program(dtype):
    @dace.program
    def whole_sum(x: dtype[N], s: dtype[1]):
        for i in dace.map[0:N]:
            s[0] += x[i]

    return whole_sum


def in_place_chain(*ops: str) -> Callable[[str, int], int]:
    """poplibs' cycles of a first BinaryOp1D then BinaryOp1DInPlace vertices, `ops` in order."""
    return lambda t, n: poplibs.binary_op_1d(ops[0], t, n) + sum(poplibs.binary_op_1d_in_place(o, t, n) for o in ops[1:])


@dataclass(frozen=True)
class Workload:
    """A program, what the busiest tile moves and computes per point, and what poplibs
    would run for it on one tile of `n` points."""

    name: str
    program: Callable
    points: str
    """the field whose slice holds a vertex's points"""
    accesses: int
    """elements loaded or stored per point at best (saxpy: x, y in, y out)"""
    flops: int
    poplibs: str
    poplibs_cycles: Callable[[str, int], int]
    two_dimensional: bool = False


WORKLOADS = (
    Workload(
        "saxpy", saxpy_program, "x", 3, 2, "scaledAddTo (ScaledAddSupervisor, unconstrained)",
        lambda t, n: poplibs.scaled_add_supervisor(t, n, mem_constrained=poplibs.scaled_add_to_is_constrained(t)),
    ),
    Workload("chain3", chain_program, "w", 4, 2, "mul + addInPlace (BinaryOp1D, BinaryOp1DInPlace)",
             in_place_chain("multiply", "add")),
    # A point reads its own element of A (its neighbours are other points' own) and writes B.
    Workload("jacobi", jacobi_program, "B", 2, 5,
             "add + 3 addInPlace + mulInPlace of shifted views (BinaryOp1D, BinaryOp1DInPlace; the scalar "
             "multiply estimated as an in-place multiply, as CostModel.hpp does)",
             in_place_chain("add", "add", "add", "add", "multiply"), two_dimensional=True),
    Workload("sum", sum_program, "x", 1, 1, "reduce's on-tile stage (ReduceAdd SCALAR_OUTPUT_SINGLE_INPUT)",
             lambda t, n: poplibs.reduce_add_on_tile(n, t)),
)
DTYPES = {"float32": (dace.float32, poplibs.FLOAT, 4), "float16": (dace.float16, poplibs.HALF, 2)}


def sdfg_module(workload: Workload, dtype) -> ModuleOp:
    return import_sdfg(to_sdfg(workload.program(dtype)))


def compute_cycles(module: ModuleOp) -> int:
    """The compute phase as emitted: each placement lasts as long as its slowest vertex."""
    return sum(max(op.cycles.get_values()) for op in module.walk() if isinstance(op, poplar.AddVerticesOp))


@dataclass(frozen=True)
class Row:
    program: str
    type_name: str
    elements: int
    points: int
    """on the busiest tile"""
    emitted: int
    asm: int
    poplibs: int
    bound: float
    limit: str
    chosen: str
    """ipu-select-vertices' choices for the placements, each once, `+`-separated"""


def tile_level(workload: Workload, dtype, n: int, arch: Arch) -> ModuleOp:
    """The program at the tile level, every placement still our codelet (the steps of
    sdfg-to-poplar before ipu-select-vertices)."""
    module = sdfg_module(workload, dtype)
    ctx = Context()
    for step in SdfgToPoplarPass(symbols=f"N={n}", arch=arch.name).steps():
        if isinstance(step, IpuSelectVerticesPass):
            return module
        step.apply(ctx, module)
    raise AssertionError("sdfg-to-poplar has no ipu-select-vertices")


def row(workload: Workload, type_name: str, n: int, arch: Arch) -> Row:
    dtype, poplibs_type, size = DTYPES[type_name]
    module = tile_level(workload, dtype, n, arch)
    graph = next(op for op in module.walk() if isinstance(op, ipu.GraphOp))
    emitted, asm = plan_placements(graph, Schedule.EMITTED), plan_placements(graph, Schedule.ASM)
    IpuSelectVerticesPass().apply(Context(), module)
    points = max(
        slice_sizes(placement, r, extents)[plan.field_names.index(workload.points)]
        for placement, plan in emitted.items() if workload.points in plan.field_names
        for r, extents in enumerate(run_extents(placement.tile_map))
    )
    peak_per_tile = PEAK_TFLOPS[type_name] * 1e12 / (arch.tiles * arch.clock_hz)
    memory_bound = workload.accesses * size * points / MEMORY_BYTES_PER_CYCLE
    flop_bound = workload.flops * points / peak_per_tile
    elements = n * n if workload.two_dimensional else n
    return Row(
        workload.name, type_name, elements, points,
        sum(max(p.cycles) for p in emitted.values()), sum(max(p.cycles) for p in asm.values()),
        workload.poplibs_cycles(poplibs_type, points), max(memory_bound, flop_bound),
        "memory" if memory_bound >= flop_bound else "flops",
        "+".join(dict.fromkeys(_chosen(placement) for placement in emitted)),
    )


def _chosen(placement: ipu.VerticesOp) -> str:
    """`codelet`, or the poplibs call ipu-select-vertices chose (`codelet` where no call
    does the work)."""
    choice = placement.attributes.get(CHOICE)
    if choice is None or choice.data["impl"].data == "codelet":  # type: ignore[attr-defined]
        return "codelet"
    return choice.data["call"].data  # type: ignore[attr-defined]


def rows(arch: Arch, sizes: list[int]) -> list[Row]:
    """A row per workload, type and size (elements; the stencil's side is the square
    root of that)."""
    return [
        row(workload, type_name, isqrt(size) if workload.two_dimensional else size, arch)
        for workload in WORKLOADS for type_name in DTYPES for size in sizes
    ]


def busiest_tile_bytes(module: ModuleOp, arch: str, fuse: bool, n: int) -> int:
    """Bytes on the busiest tile."""
    ctx = Context()
    SdfgSpecializePass(symbols=f"N={n}").apply(ctx, module)
    if fuse:
        SdfgFuseMapsPass().apply(ctx, module)
        SdfgWriteInPlacePass().apply(ctx, module)
    sdfg_op = next(op for op in module.ops if isinstance(op, sd.SdfgOp))
    layouts = plan_layouts(sdfg_op, get_arch(arch))
    containers = {op.container_name.data: op for op in sdfg_op.containers()}
    most, _ = busiest_tile(layouts, container_bytes(containers))
    return most


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
    arch, millions = arch_and_sizes(__doc__, "1,16", "millions of elements (2**20)")
    print(f"Compute cycles on {arch.name} ({arch.tiles} tiles), busiest tile: our codelets as emitted (C++) and as")
    print(f"hand-scheduled asm could run them, poplibs' estimate for the same work, and the bound (its bytes /")
    print(f"{MEMORY_BYTES_PER_CYCLE}, or its FLOPs / peak when larger).")
    print_header(
        f"{'program':8} {'type':8} {'elements':>9} {'points':>6} {'emitted':>8} {'asm':>6} {'poplibs':>7} {'bound':>6} "
        f"{'limit':>6} {'emitted/bound':>13} {'asm/bound':>9} {'poplibs/bound':>13}  chosen"
    )
    for r in rows(arch, [m * 2**20 for m in millions]):
        print(
            f"{r.program:8} {r.type_name:8} {r.elements:>9} {r.points:>6} {r.emitted:>8} {r.asm:>6} {r.poplibs:>7} "
            f"{r.bound:>6.0f} {r.limit:>6} {r.emitted / r.bound:>13.2f} {r.asm / r.bound:>9.2f} {r.poplibs / r.bound:>13.2f}  {r.chosen}"
        )
    print()
    print("emitted: the estimate plans use and the host prints; asm: a bound for hand-written vertices, not our code;")
    print("chosen: ipu-select-vertices' pick (prefer=auto) from the emitted and poplibs estimates of each placement.")
    print("poplibs' work: " + "; ".join(f"{w.name}: {w.poplibs}" for w in WORKLOADS))
    print()
    print("Busiest tile's data, bytes: lowered without and with sdfg-fuse-maps + sdfg-write-in-place")
    print_header(f"{'program':8} {'type':8} {'elements':>9} {'before':>8} {'after':>8} {'after/before':>12}")
    for workload in WORKLOADS[:2]:
        for type_name, (dtype, _, _) in DTYPES.items():
            for m in millions:
                n = m * 2**20
                before = busiest_tile_bytes(sdfg_module(workload, dtype), arch.name, False, n)
                after = busiest_tile_bytes(sdfg_module(workload, dtype), arch.name, True, n)
                print(f"{workload.name:8} {type_name:8} {n:>9} {before:>8} {after:>8} {after / before:>12.2f}")


if __name__ == "__main__":
    main()
