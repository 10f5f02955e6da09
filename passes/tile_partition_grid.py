"""Grid layouts for ipu-tile-partition: N-dimensional stencils in boxes, not strips.

A group of containers (see `plan_layouts`) whose maps read neighbours in several
dimensions exchanges less when each tile holds a box of the arrays than when it holds a
strip of rows: a strip of a 1024x1024 Jacobi grid brings in two whole rows (2 x 1024
elements) per tile, a 27x27 box its perimeter (4 x 27). A group may take a grid map
when every step that touches it is a map over arrays of its shape whose parameters
index them in order at constant offsets (the stencil frame: its points are boxes, so
no mask is needed), or a whole copy within the group; then the grid is chosen, and kept
only if its cost (the busiest tile's points plus the elements it receives) beats the
strips'.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import ceil, prod

from xdsl.ir import Operation

from ipu_lower.dialects import ipu
from ipu_lower.dialects import sdfg as sd
from ipu_lower.passes.tile_partition_points import balanced_tile_map


@dataclass(frozen=True)
class Halo:
    """How far a group's maps read from the point: (before, after) in each dimension
    (the ring a grid's box needs), and before and after in row-major elements (the halo
    a strip needs)."""

    ring: tuple[tuple[int, int], ...] = ()
    flat_before: int = 0
    flat_after: int = 0

    def widened(self, offsets: Sequence[int], shape: Sequence[int]) -> Halo:
        flat = sum(o * prod(shape[k + 1 :]) for k, o in enumerate(offsets))
        ring = tuple((max(lo, -o), max(hi, o)) for (lo, hi), o in zip(self.widths(len(offsets)), offsets))
        return Halo(ring, max(self.flat_before, -flat), max(self.flat_after, flat))

    def joined(self, other: Halo) -> Halo:
        rank = max(len(self.ring), len(other.ring))
        ring = tuple((max(a, c), max(b, d)) for (a, b), (c, d) in zip(self.widths(rank), other.widths(rank)))
        return Halo(ring, max(self.flat_before, other.flat_before), max(self.flat_after, other.flat_after))

    def widths(self, rank: int) -> tuple[tuple[int, int], ...]:
        return self.ring or ((0, 0),) * rank

    @property
    def any(self) -> bool:
        return any(lo or hi for lo, hi in self.ring)


def touched(step: Operation | list[Operation]) -> set[str]:
    """The containers a step reads or writes."""
    ops = step if isinstance(step, list) else [step]
    names = set()
    for op in ops:
        for inner in op.walk():
            if isinstance(inner, sd.ReadOp | sd.WriteOp | sd.AccumulateOp):
                names.add(sd.container_name(inner.container))
            elif isinstance(inner, sd.CopyOp):
                names.update((sd.container_name(inner.source), sd.container_name(inner.destination)))
            elif isinstance(inner, sd.MatmulOp):
                names.update(sd.container_name(v) for v in (inner.lhs, inner.rhs, inner.out))
            elif isinstance(inner, sd.ReduceOp):
                names.update(sd.container_name(v) for v in (inner.input, inner.out))
    return names


def is_stencil_frame(frame, shape: tuple[int, ...]) -> bool:
    """Whether a map's points are the elements of arrays of `shape`, each parameter
    indexing its own dimension in order (no fixed dimension)."""
    return frame is not None and frame.shape == shape and frame.params == tuple(range(len(shape)))


def _splits(extents: Sequence[int], tiles: int) -> Iterator[tuple[int, ...]]:
    """Every number of blocks per dimension (at most one block per element) whose
    product is at most `tiles`."""
    if not extents:
        yield ()
        return
    for count in range(1, min(extents[0], tiles) + 1):
        for rest in _splits(extents[1:], tiles // count):
            yield (count, *rest)


def grid_cost(shape: Sequence[int], blocks: Sequence[int], halo: Halo, workers: int = 1) -> int:
    """The busiest tile's points, as its workers take its box's rows in turn (a share of
    ceil(rows / workers) rows each), plus the elements around its box it reads (the box
    widened by the halo's widths in each dimension, corners included). One element
    received is weighed like one point computed: a stencil point is a few cycles of
    compute, an f32 element 4 bytes at the exchange's 4-8 bytes per cycle
    (ipu_lower/arch.py)."""
    box = [ceil(n / b) for n, b in zip(shape, blocks)]
    rows = prod(box[:-1])
    points = ceil(rows / workers) * workers * box[-1]
    ring = prod(e + lo + hi for e, (lo, hi) in zip(box, halo.widths(len(box)))) - prod(box)
    return points + ring


def strip_cost(shape: Sequence[int], tiles: int, halo: Halo) -> int:
    """The same cost for strips of row-major elements."""
    return ceil(prod(shape) / tiles) + halo.flat_before + halo.flat_after


def best_grid(shape: Sequence[int], tiles: int, halo: Halo, workers: int = 1) -> tuple[int, ...]:
    """The blocks per dimension of least `grid_cost`; among equals, the fewest tiles."""
    return min(_splits(shape, tiles), key=lambda blocks: (grid_cost(shape, blocks, halo, workers), prod(blocks)))


def grid_map(shape: Sequence[int], blocks: Sequence[int]) -> ipu.GridMapAttr:
    """Each dimension cut into `blocks[d]` balanced runs; tiles numbered row-major."""
    dims = [balanced_tile_map(n, b, 1) for n, b in zip(shape, blocks)]
    strides = [prod(blocks[k + 1 :]) for k in range(len(blocks))]
    return ipu.GridMapAttr(dims, strides)


def choose_grid(shape: tuple[int, ...], tiles: int, halo: Halo, workers: int = 1) -> ipu.GridMapAttr | None:
    """A grid map for a group of arrays of `shape` read with `halo`, when it costs less
    than strips (run by `workers` worker threads a tile)."""
    if not 2 <= len(shape) <= 3 or not halo.any:  # the vertex's extents are members blockExtent0..2
        return None
    blocks = best_grid(shape, tiles, halo, workers)
    if grid_cost(shape, blocks, halo, workers) >= strip_cost(shape, tiles, halo):
        return None
    return grid_map(shape, blocks)
