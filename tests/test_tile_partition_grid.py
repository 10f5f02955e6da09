"""Grid maps (ipu_lower.dialects.tiling.GridMapMixin) and how ipu-tile-partition chooses
them (passes/tile_partition_grid.py, plan_layouts)."""

# No `from __future__ import annotations`: DaCe reads the programs' annotations.
from math import prod

import dace
import numpy as np
import pytest
from xdsl.utils.exceptions import VerifyException

from ipu_lower.cost_model import exchange
from ipu_lower.dialects import ipu, poplar
from ipu_lower.emit import lower_program
from ipu_lower.passes.tile_partition_grid import Halo, best_grid, choose_grid, grid_cost, grid_map, strip_cost

def ring(rank: int, widths: tuple[int, int] = (1, 1)) -> Halo:
    """One element read either side in every dimension, and in row-major order."""
    return Halo((widths,) * rank, *widths)


def covered(grid: ipu.GridMapAttr, shape) -> np.ndarray:
    """How often each element is in a block, and check tiles are distinct."""
    count = np.zeros(shape, dtype=int)
    tiles = []
    for block in grid.blocks():
        count[tuple(slice(b, e) for b, e in block.box)] += 1
        tiles.append(block.tile)
    assert len(set(tiles)) == len(tiles)
    return count


@pytest.mark.parametrize("shape, tiles", [((6, 8), 4), ((1024, 1024), 1472), ((37, 5), 1216), ((9, 10, 11), 1472), ((2, 3), 1)])
def test_grid_map_covers_every_element_once_on_distinct_tiles(shape, tiles):
    blocks = best_grid(shape, tiles, ring(len(shape)))
    grid = grid_map(shape, blocks)
    grid.verify()
    assert prod(blocks) <= tiles and grid.last_tile() < tiles
    assert (covered(grid, shape) == 1).all()
    assert grid.bounds() == [(0, n) for n in shape] and grid.total() == prod(shape)


def test_restricted_grid_keeps_tiles_and_owner_boxes():
    shape = (30, 20)
    grid = grid_map(shape, (4, 3))
    interior = grid.restricted([(1, 29), (1, 19)])
    count = np.zeros(shape, dtype=int)
    for block in interior.blocks():
        own = grid.owner_box(block.tile)
        assert own is not None
        assert all(ob <= b and e <= oe for (b, e), (ob, oe) in zip(block.box, own))
        count[tuple(slice(b, e) for b, e in block.box)] += 1
    assert count[1:29, 1:19].min() == 1 and count.sum() == 28 * 18
    assert interior.num_blocks() == 12 and grid.owner_box(12) is None


def test_corner_blocks_are_the_extremes():
    grid = grid_map((100, 90), (20, 30))
    corners = {b.box for b in grid.corner_blocks()}
    assert {((0, 5), (0, 3)), ((95, 100), (87, 90))} <= corners and len(corners) == 4


@pytest.mark.parametrize("kind, widths, message", [
    ("block", [(1, 1)], "widths per dimension are \\(before, after\\) pairs of a halo"),
    ("halo", [(1, 1), (-1, 0)], "halo widths must not be negative"),
])
def test_widths_per_dimension_are_checked(kind, widths, message):
    with pytest.raises(VerifyException, match=message):
        ipu.SliceAttr(kind, widths=widths)


def test_overlapping_strides_are_rejected():
    dims = [ipu.TileMapAttr([(0, 2, 3)]), ipu.TileMapAttr([(0, 2, 4)])]
    with pytest.raises(VerifyException, match="give two blocks one tile"):
        ipu.GridMapAttr(dims, [1, 1])


def test_a_vertical_stencil_reads_no_columns():
    # reading the rows above and below only: boxes widen by no column, and are taller
    # than wide, where strips would read a whole row either side
    shape, tiles = (1024, 1024), 1472
    vertical = Halo(((1, 1), (0, 0)), 1024, 1024)
    blocks = best_grid(shape, tiles, vertical)
    rows, columns = (-(-n // b) for n, b in zip(shape, blocks))
    assert rows > columns and grid_cost(shape, blocks, vertical) < strip_cost(shape, tiles, vertical) / 2


def test_boxes_have_rows_the_workers_share_evenly():
    # the 6 workers of a tile take a box's rows in turn: 24 rows keep all busy alike,
    # where the squarest boxes (27 rows) would leave the busiest worker 5 rows in 27
    shape = (1024, 1024)
    blocks = best_grid(shape, 1472, ring(2), workers=6)
    rows = -(-shape[0] // blocks[0])
    assert rows % 6 == 0 and grid_cost(shape, blocks, ring(2), 6) < grid_cost(shape, (38, 38), ring(2), 6)


def test_jacobi_grid_beats_strips_at_1024():
    shape, tiles = (1024, 1024), 1472
    blocks = best_grid(shape, tiles, ring(2))
    # boxes, not strips: the busiest tile computes about as much as in strips (713
    # points) and reads its ring (~120 elements) instead of two rows (2048)
    assert grid_cost(shape, blocks, ring(2)) < 900 < strip_cost(shape, tiles, Halo(((1, 1), (1, 1)), 1024, 1024))
    assert all(16 <= -(-n // b) <= 64 for n, b in zip(shape, blocks))


@pytest.mark.parametrize("shape, halo", [
    ((4096,), ring(1)),  # 1-D: strips are boxes
    ((4, 4, 4, 4), ring(4)),  # rank 4: no grid yet
    ((64, 64), Halo()),  # nothing read away from the point
    ((4000, 1), Halo(((1, 0), (0, 0)), 1, 0)),  # one column: boxes are strips
])
def test_no_grid_where_strips_are_as_good(shape, halo):
    assert choose_grid(shape, 1216, halo) is None


N = dace.symbol("N")


@dace.program
def five_point(A: dace.float32[N, N], B: dace.float32[N, N]):
    B[1:-1, 1:-1] = A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1]


@dace.program
def five_point_and_sum(A: dace.float32[N, N], B: dace.float32[N, N], s: dace.float32[1]):
    B[1:-1, 1:-1] = A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1]
    s[0] = np.sum(B)


@dace.program
def five_point_and_transpose(A: dace.float32[N, N], B: dace.float32[N, N], C: dace.float32[N, N]):
    B[1:-1, 1:-1] = A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1]
    C[:] = A.T


@dace.program
def five_point_half(A: dace.float16[N, N], B: dace.float16[N, N]):
    B[1:-1, 1:-1] = A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1]


def layouts_of(program, n: int) -> dict:
    """The tile map of each variable of the program lowered for ipu2."""
    module = lower_program(program, {"N": n}, "ipu2")
    return {
        op.tensor.owner.debug_name.data: op.tile_map
        for op in module.walk()
        if isinstance(op, poplar.MapTensorOp)
    }


def test_a_stencil_group_takes_a_grid():
    layouts = layouts_of(five_point, 256)
    assert isinstance(layouts["A"], poplar.GridMapAttr) and layouts["A"] == layouts["B"]


# a reduction or a view of the arrays, or elements narrower than the 32-bit words that
# workers store (they take a box's rows in turn), keep strips
@pytest.mark.parametrize("program", [five_point_and_sum, five_point_and_transpose, five_point_half])
def test_reductions_views_and_narrow_elements_keep_strips(program):
    layouts = layouts_of(program, 256)
    assert isinstance(layouts["A"], poplar.TileMapAttr) and isinstance(layouts["B"], poplar.TileMapAttr)


def test_model_exchange_of_a_grid_is_the_boxes_rings():
    n = 1024
    module = lower_program(five_point, {"N": n}, "ipu2")
    (placement,) = [op for op in module.walk() if isinstance(op, poplar.AddVerticesOp)]
    assert isinstance(placement.tile_map, poplar.GridMapAttr)
    rings = {b.tile: prod(e + 2 for e in b.extents) - prod(b.extents) for b in placement.tile_map.blocks()}
    (compute_set,) = [op for op in module.walk() if isinstance(op, poplar.AddComputeSetOp)]
    result = exchange(compute_set.result)
    # every box of the interior reads its whole ring from other tiles but where the ring
    # lies in its own data box: the first row and column of boxes hold the array's edge
    assert result.busiest_tile_bytes == 4 * max(rings.values())
    assert result.total_bytes < 4 * sum(rings.values())
