"""One time step of the 2-D Jacobi stencil: the model's cycles and exchange against the
bounds for its partition.

A step is two five-point sweeps (B from A, then A from B), each one compute set. For
each size: the busiest tile's points; the cost model's compute cycles (per compute set
the slowest vertex, summed) next to the memory roofline of the update (each point reads
one element of A and writes one of B at best: 8 bytes over 24 bytes per cycle); the
bytes the busiest tile receives per step (ipu_lower.cost_model.exchange, which the
e2e tests check against the emulator) next to what its points read from other tiles
(the halo its partition needs); the exchange cycles of both at the arch's bytes per
cycle; sync per superstep; and the total. The last columns are the halos the same
work needs in strips of rows and in a near-square grid of blocks.

Run: python benchmarks/stencil.py [--arch ipu2] [--sizes 1024,4096]
"""

# No `from __future__ import annotations`: DaCe reads the programs' annotations.
from math import ceil, isqrt

import dace
from ipu_lower.dialects import poplar
from roofline import MEMORY_BYTES_PER_CYCLE, arch_and_sizes, compute_cycles, print_header

from ipu_lower.arch import Arch
from ipu_lower.cost_model import exchange
from ipu_lower.emit import lower_program

N = dace.symbol("N")
FLOAT_BYTES = 4
UPDATE_BYTES = 2 * FLOAT_BYTES
"""Per point: one element of the input read, one of the output written."""
OFFSETS = ((-1, 0), (0, -1), (0, 1), (1, 0))


@dace.program
def jacobi_step(A: dace.float32[N, N], B: dace.float32[N, N]):
    B[1:-1, 1:-1] = dace.float32(0.2) * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
    A[1:-1, 1:-1] = dace.float32(0.2) * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])


def block_points(block, n: int) -> list[tuple[int, int]]:
    """The (row, column) points of a block of a strip partition (a run of row-major
    elements) or of a grid partition (a box)."""
    if hasattr(block, "box"):
        (r0, r1), (c0, c1) = block.box
        return [(r, c) for r in range(r0, r1) for c in range(c0, c1)]
    return [divmod(p, n) for p in range(block.begin, block.end)]


def needed_halo(points: list[tuple[int, int]], n: int) -> int:
    """Elements outside the block that its interior points read."""
    inside = {p for p in points if 0 < p[0] < n - 1 and 0 < p[1] < n - 1}
    reads = {(r + dr, c + dc) for r, c in inside for dr, dc in OFFSETS}
    return len(reads - set(points))


def strip_halo(n: int) -> int:
    """What the busiest tile receives when the arrays are cut into strips of row-major
    elements: its halo<n, n> slice, a row's worth of elements either side."""
    return 2 * n


def block_perimeter(n: int, tiles: int) -> int:
    """The halo of the busiest tile when the (n-2)^2 interior is cut into a near-square
    grid of blocks over at most `tiles` tiles."""
    interior = n - 2
    rows = max(1, min(interior, isqrt(tiles)))
    cols = max(1, min(interior, tiles // rows))
    return 2 * (ceil(interior / rows) + ceil(interior / cols))


def step_row(n: int, arch: Arch) -> dict:
    module = lower_program(jacobi_step, {"N": n}, arch.name)
    compute_sets = [op for op in module.walk() if isinstance(op, poplar.AddComputeSetOp)]
    exchanges = [exchange(cs.result) for cs in compute_sets]
    sweeps = [
        op for op in module.walk()
        if isinstance(op, poplar.AddVerticesOp) and any(r.kind.data == "halo" for r in op.rules.data)
    ]
    assert len(sweeps) == 2, "a step is two sweeps"
    busiest = [max(s.tile_map.blocks(), key=lambda b: len(block_points(b, n))) for s in sweeps]
    points = [block_points(b, n) for b in busiest]
    needed = sum(needed_halo(p, n) for p in points) * FLOAT_BYTES
    return {
        "n": n,
        "partition": "grid" if isinstance(sweeps[0].tile_map, poplar.GridMapAttr) else "strips",
        "points": max(len(p) for p in points),
        "compute": compute_cycles(module),
        "memory_bound": sum(len(p) for p in points) * UPDATE_BYTES / MEMORY_BYTES_PER_CYCLE,
        "received": sum(e.busiest_tile_bytes for e in exchanges),
        "needed": needed,
        "exchange": sum(e.cycles(arch.exchange_bytes_per_cycle) for e in exchanges),
        "exchange_bound": needed / arch.exchange_bytes_per_cycle,
        "sync": len(compute_sets) * arch.sync_cycles,
        "strips": len(sweeps) * strip_halo(n) * FLOAT_BYTES,
        "blocks": len(sweeps) * block_perimeter(n, arch.tiles) * FLOAT_BYTES,
    }


def main() -> None:
    arch, sizes = arch_and_sizes(__doc__, "1024,4096")
    print(f"2-D Jacobi, float32, one time step (two sweeps) on {arch.name} ({arch.tiles} tiles), per busiest tile;")
    print(f"exchange at {arch.exchange_bytes_per_cycle} bytes/cycle, sync {arch.sync_cycles} cycles per superstep.")
    print_header(
        f"{'size':>9} {'layout':>6} {'points':>6} {'compute':>7} {'mem bound':>9} {'recv B':>7} {'needed B':>8} "
        f"{'exch':>5} {'exch bound':>10} {'sync':>5} {'total':>6} {'bound':>6} {'strips B':>8} {'blocks B':>8}"
    )
    for n in sizes:
        r = step_row(n, arch)
        total = r["compute"] + r["exchange"] + r["sync"]
        bound = r["memory_bound"] + r["exchange_bound"] + r["sync"]
        print(
            f"{n:>4}x{n:<4} {r['partition']:>6} {r['points']:>6} {r['compute']:>7} {r['memory_bound']:>9.0f} "
            f"{r['received']:>7} {r['needed']:>8} {r['exchange']:>5} {r['exchange_bound']:>10.0f} {r['sync']:>5} "
            f"{total:>6} {bound:>6.0f} {r['strips']:>8} {r['blocks']:>8}"
        )
    print()
    print("layout: the partition ipu-tile-partition chose (strips of row-major elements, or a grid of boxes).")
    print("recv B: bytes the model's exchange brings the busiest tile per step (its halo slices, a box's ring")
    print("with its four corners); needed B: the elements outside its block its points read (a box's perimeter).")
    print("strips B: what the busiest tile would receive per step in strips of rows (halo<n, n> slices);")
    print("blocks B: what it would need in the near-square grid of at most the tile count.")


if __name__ == "__main__":
    main()
