"""Whole-array float32 sums: the levels our own tree plans and their estimated cycles,
against the same reduction in one or two levels and against popops::reduce.

The sum is a map that accumulates into s (`s[0] += x[i]`, a write-conflict resolution),
which stays on our tree; `np.sum(x)` of the same x goes to popops::reduceWithOutput
instead (sdfg-choose-reductions). For each size: every level of the plan (its
vertices, the values its busiest vertex folds, how: `folded` = each worker its own
partial results, `float2` = the same a vector at a time, `outputs` = the workers share
the results, `final` = into the destination; its estimated cycles: busiest vertex,
exchange into the busiest tile and one sync, which the e2e tests check against the
emulator); the plan's total; the best plan of at most two levels (the data where it
lies, then one combine) and of one level; the cost model's estimate of popops::reduce
of the same x in the same layout into s on tile 0 (ipu_lower.cost_model.reduce_cycles,
popops' stages from poplibs' own estimator and plan rules, which the emulator counts
alike); and poplibs' estimate of its first, on-tile stage on the busiest tile
(ipu_lower.poplibs_estimates.reduce_add_on_tile) next to our first level's compute.

Run: python benchmarks/reduction.py [--arch ipu2] [--sizes 1000,100000,1000000,16777216]
"""

# No `from __future__ import annotations`: DaCe reads the programs' annotations.
import dataclasses

import dace
import numpy as np
from roofline import arch_and_sizes, print_header
from xdsl.context import Context
from xdsl.dialects.builtin import f32

from ipu_lower import poplibs_estimates
from ipu_lower.arch import get_arch
from ipu_lower.cost_model import reduce_cycles
from ipu_lower.dialects import sdfg as sd
from ipu_lower.frontend.importer import import_sdfg
from ipu_lower.passes.reduction_plan import plan_levels
from ipu_lower.passes.sdfg_specialize import SdfgSpecializePass
from ipu_lower.passes.tile_partition import plan_partition
from ipu_lower.passes.tile_partition_reductions import reduction_problem

N = dace.symbol("N")


@dace.program
def whole_sum(x: dace.float32[N], s: dace.float32[1]):
    for i in dace.map[0:N]:
        s[0] += x[i]


def how(level) -> str:
    if level.is_final:
        return "final"
    return "float2" if level.fold[2] == 2 and level.split == "folded" else level.split


def plans(n: int, arch_name: str):
    """The plan's levels, the reduction's problem and estimator, and x's layout."""
    module = import_sdfg(whole_sum.to_sdfg(simplify=True))
    SdfgSpecializePass(symbols=f"N={n}").apply(Context(), module)
    sdfg_op = next(op for op in module.ops if isinstance(op, sd.SdfgOp))
    arch = get_arch(arch_name)
    plan = plan_partition(sdfg_op, arch)
    ((map_op, reduction),) = plan.reductions.items()
    containers = {c.container_name.data: c for c in sdfg_op.containers()}
    problem, costs = reduction_problem(map_op, plan.layouts, arch, containers)
    return reduction.levels, problem, costs, plan.layouts["x"]


def popops_cycles(n: int, layout, arch) -> int:
    """popops::reduce's estimate of the sum of x, in `layout`, into s on tile 0."""
    tiles = np.empty(n, np.int32)
    for block in layout.blocks():
        tiles[block.begin : block.end] = block.tile
    return reduce_cycles(tiles, np.zeros(n, np.int64), np.zeros(1, np.int32), f32, f32, False, arch)


def main() -> None:
    arch, sizes = arch_and_sizes(__doc__, "1000,100000,1000000,16777216")
    print(f"Whole-array float32 sums on our tree on {arch.name} ({arch.tiles} tiles): the planned levels, estimated")
    print(f"cycles (busiest vertex + exchange + sync {arch.sync_cycles}), against at most 2 levels and 1, popops::reduce")
    print("and poplibs' first stage.")
    print_header(f"{'elements':>9} {'level':>5} {'vertices':>8} {'values':>7} {'how':>7} {'cycles':>7}")
    for n in sizes:
        levels, problem, costs, layout = plans(n, arch.name)
        streamed = n  # elements of the tensor a level folds: x, then the partial results before
        for k, level in enumerate(levels):
            values = level.in_rule.slice_size(level.tile_map.max_per_tile(), streamed)
            if level.partials is not None:
                streamed = level.tile_map.num_blocks() * level.partials
            print(f"{n if k == 0 else '':>9} {k:>5} {level.tile_map.num_blocks():>8} {values:>7} {how(level):>7} {level.cycles:>7}")
        total = sum(level.cycles for level in levels)
        two = sum(level.cycles for level in plan_levels(dataclasses.replace(problem, max_levels=2), costs))
        one = sum(level.cycles for level in plan_levels(dataclasses.replace(problem, max_levels=1), costs))
        first = levels[0]
        busiest = first.tile_map.max_per_tile()
        ours = costs(first, busiest, n) if first.first else 0
        theirs = poplibs_estimates.reduce_add_on_tile(busiest, "float", arch.workers_per_tile)
        popops = popops_cycles(n, layout, arch)
        print(f"{'':>9} total {total}; at most 2 levels {two} ({two / total:.2f}x); 1 level {one} ({one / total:.1f}x); "
              f"popops::reduce {popops} ({total / popops:.2f}x of it); "
              f"first level compute {ours}, poplibs' on-tile stage for {busiest} floats {theirs} ({ours / theirs:.2f}x)")


if __name__ == "__main__":
    main()
