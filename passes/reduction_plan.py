"""How ipu-tile-partition splits a reduction over tiles, as plain data: a list of fold
levels, each one compute set of vertices, chosen by estimated cycles.

A reduction's points are the row-major box O x R x I (`ReductionMap`): O x I results,
each the combination of R values. A *level* is one `ipu.tiled_reduce` (`FoldLevel`):

- a *split* level gives each vertex a block of whole rows of an O = 1 problem (the
  data's own blocks when they hold whole rows: no exchange), or, when O > 1, a block of
  the R rows of every output (`columns<R I>`). Its vertices write partial results
  (`partials<n>`), either one set per vertex (the workers share the I columns) or one
  per worker (`split folded`: the workers share the rows, each writing its own I
  partial results; for few columns). The partial results of V vertices are the V (or
  V x workers) rows of I columns of the next level: a reduction tree.
- the *final* level writes the destination (`accumulate`: the value there takes part,
  unless the identity was written there just before, `FoldProblem.overwrite`):
  its vertices share the I columns (`columns<I>`: all rows of a block of columns), on
  the tiles that hold the destination, or, when O > 1, they share the O x I results
  and read the R rows of each (`rows<R>`).

`plan_levels` searches these shapes (split levels over 2, 4, 8, ... vertices, up to
the tile count, or the data's own blocks) for the plan with the fewest estimated
cycles in all: each level costs its busiest vertex (`vertex_cycles`, which
ipu-tile-partition answers with the cost model on the very codelet
ipu-vertex-extraction will build), the bytes its busiest tile receives and a sync
(`ipu_lower.cost_model.superstep_cycles`). A tree wins over one combine when the
partial results are many: one vertex folding 8832 partials (1472 tiles x 6 workers)
pays some 9000 cycles, two levels of about sqrt(8832) each some 2 x (200 + 150).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from math import gcd

from ipu_lower.arch import ATOMIC_STORE_BYTES, Arch
from ipu_lower.dialects import ipu
from ipu_lower.passes.tile_partition_points import balanced_tile_map


@dataclass(frozen=True)
class ReductionMap:
    """A map that accumulates: its points are the box outer x reduced x inner, its
    results go to the first outer x inner elements of `destination`."""

    kind: str
    inputs: list[str]
    """the arrays it reads at the point, in first-use order (scalars are read whole)"""
    destination: str
    outer: int
    reduced: int
    inner: int
    views: tuple = ()
    """the views (`ViewKey`s) it reads at the point, which never lie where its points do"""

    @property
    def results(self) -> int:
        return self.outer * self.inner


@dataclass(frozen=True)
class FoldLevel:
    """One tiled reduction: over `tile_map`, its streamed inputs connected by `in_rule`,
    each vertex folding the middle of `fold`; it writes `partials` results per vertex
    into a new tensor, or (partials None) the destination with `out_rule`."""

    tile_map: ipu.TileMapAttr
    in_rule: ipu.SliceAttr
    fold: tuple[int | None, int | None, int | None]
    split: str
    partials: int | None = None
    out_rule: ipu.SliceAttr = ipu.BLOCK
    first: bool = False
    """whether it reads the map's inputs (else the partial results of the level before)"""
    accumulate: bool = True
    """(final) whether the destination's value takes part"""
    cycles: int = 0
    """its estimate: busiest vertex, exchange into the busiest tile, one sync"""

    @property
    def is_final(self) -> bool:
        return self.partials is None

    def partial_map(self) -> ipu.TileMapAttr:
        """Where the partial results live: on the tile of the vertex that writes them."""
        assert self.partials is not None
        runs: list[tuple[int, int, int]] = []
        for r in self.tile_map.runs():
            if runs and runs[-1][1] == r.first:
                runs[-1] = (runs[-1][0], r.end, self.partials)  # the same count: one run
            else:
                runs.append((r.first, r.end, self.partials))
        return ipu.TileMapAttr(runs)


VertexCycles = Callable[[FoldLevel, int, int], int]
"""The compute cycles of one vertex of a level whose block holds `count` elements of
its tile map, reading a tensor of `elements` elements."""


@dataclass(frozen=True)
class FoldProblem:
    """What the plan depends on besides the reduction's shape."""

    reduction: ReductionMap
    arch: Arch
    in_bytes: int
    """bytes the first level streams per point from the inputs laid out like its points"""
    partial_bytes: int
    out_bytes: int
    input_layout: ipu.TileMapAttr | None
    """the layout shared by the streamed inputs"""
    output_layout: ipu.TileMapAttr
    scalar_output: bool = False
    counts: tuple[int, ...] = field(default=())
    """vertex counts tried for split levels; default 2, 4, 8, ... and the tile count"""
    max_levels: int | None = None
    """at most this many levels (None: as many as pay off)"""
    overwrite: bool = False
    """whether the final level writes the destination without reading it (it holds the
    identity)"""
    view_bytes: int = 0
    """bytes the first level reads per point through views: always exchanged"""


def _whole_rows(tile_map: ipu.TileMapAttr | None, row: int, total: int) -> bool:
    """Whether `tile_map` covers elements [0, total) in blocks of whole rows."""
    if tile_map is None or (tile_map.start, tile_map.total()) != (0, total):
        return False
    return all(r.count % row == 0 for r in tile_map.runs())


def _lcm(a: int, b: int) -> int:
    return a * b // gcd(a, b)


def _one_tile(tile_map: ipu.TileMapAttr) -> int | None:
    runs = tile_map.runs()
    return runs[0].first if len(runs) == 1 and runs[0].tiles == 1 else None


class _Planner:
    def __init__(self, problem: FoldProblem, vertex_cycles: VertexCycles):
        self.p = problem
        self.vertex_cycles = vertex_cycles
        arch = problem.arch
        self.tiles, self.workers = arch.tiles, arch.workers_per_tile
        self.word = max(1, ATOMIC_STORE_BYTES // problem.out_bytes)  # results per 32-bit word
        self.counts = problem.counts or tuple(sorted({*(2**k for k in range(1, self.tiles.bit_length())), self.tiles}))
        self.best_rows = cache(self._best_rows)

    def estimate(self, level: FoldLevel, elements: int, local_input: bool, local_output: bool) -> FoldLevel:
        """`level` with its cycles: `elements` is the size of the tensor it streams."""
        compute = max(self.vertex_cycles(level, count, elements) for count in {r.count for r in level.tile_map.runs()})
        busiest = level.tile_map.max_per_tile()
        moved = 0
        if not local_input:
            moved += level.in_rule.slice_size(busiest, elements) * (self.p.in_bytes if level.first else self.p.partial_bytes)
        if level.first:
            moved += level.in_rule.slice_size(busiest, elements) * self.p.view_bytes
        if level.is_final and not local_output:  # written back, and read first when it accumulates
            out = level.out_rule.slice_size(busiest, self.p.reduction.results)
            moved += (2 if level.accumulate else 1) * out * self.p.out_bytes
        from ipu_lower.cost_model import superstep_cycles  # imported when used: the cost model needs numpy, most of the time of ipu-opt --help

        return replace(level, cycles=superstep_cycles(compute, moved, self.p.arch))

    def plan(self) -> list[FoldLevel]:
        r = self.p.reduction
        levels = self.p.max_levels
        if r.outer == 1:
            return self._best_rows(r.reduced, r.inner, True, levels)[1]
        return self._best_outer(levels)[1]

    def _split_maps(self, rows: int, inner: int, first: bool, grain: int = 1) -> list[tuple[ipu.TileMapAttr, bool]]:
        """Tile maps of split levels over `rows` rows of `inner`, in blocks of whole
        `grain`s of rows: the data's own blocks when they hold such (local), and
        balanced blocks."""
        maps = []
        layout = self.p.input_layout
        if first and _whole_rows(layout, inner * grain, rows * inner):
            maps.append((layout, True))
        if rows % grain == 0:
            for count in self.counts:
                if 2 <= count <= min(self.tiles, rows // (2 * grain)):
                    maps.append((balanced_tile_map(rows * inner, count, inner * grain), False))
        return maps

    def _splits(self, rows: int, inner: int, first: bool) -> list[tuple[ipu.TileMapAttr, bool, str, int, int]]:
        """(tile map, local, split, columns a vertex's rows are viewed as, partial
        results per column) of the split levels to try: the workers share the columns
        or the rows; and, for one column, the rows viewed as rows of one 64-bit vector
        of partial results, which workers fold a vector at a time."""
        options = []
        for tile_map, local in self._split_maps(rows, inner, first):
            options.append((tile_map, local, "outputs", inner, 1))
            options.append((tile_map, local, "folded", inner, self.workers))
        lanes = self.p.arch.vector_width(self.p.partial_bytes)
        if inner == 1 and lanes > 1:
            for tile_map, local in self._split_maps(rows, inner, first, lanes):
                options.append((tile_map, local, "folded", lanes, self.workers))
        return options

    def _best_rows(self, rows: int, inner: int, first: bool, levels: int | None) -> tuple[int, list[FoldLevel]]:
        """The cheapest plan for `rows` rows of `inner` results (O = 1) in at most
        `levels` levels (None: any number)."""
        options = [self._final_columns(rows, inner, first)]
        for tile_map, local, split, columns, slots in self._splits(rows, inner, first) if levels != 1 else ():
            partials = columns * slots
            following = tile_map.num_blocks() * partials // inner
            if following >= rows:
                continue
            level = FoldLevel(
                tile_map, ipu.BLOCK, (1, None, columns), split, partials, ipu.SliceAttr("partials", partials), first
            )
            level = self.estimate(level, rows * inner, local, True)
            cycles, rest = self.best_rows(following, inner, False, _fewer(levels))
            options.append((level.cycles + cycles, [level, *rest]))
        return min(options, key=lambda option: option[0])

    def _final_columns(self, rows: int, inner: int, first: bool) -> tuple[int, list[FoldLevel]]:
        """One level whose vertices share the `inner` columns, each folding all rows
        of its columns into the destination."""
        out = self.p.output_layout
        if self.p.scalar_output or inner == 1:
            owner = out.first_block()
            assert owner is not None
            tile_map = ipu.TileMapAttr([(owner.tile, owner.tile + 1, 1)])
        elif _whole_rows(out, self.word, inner):
            tile_map = out
        else:
            tile_map = balanced_tile_map(inner, self.tiles, self.word)
        tile = _one_tile(tile_map)
        local_output = tile_map == out or (tile is not None and _one_tile(out) == tile)
        local_input = first and tile is not None and self.p.input_layout is not None and _one_tile(self.p.input_layout) == tile
        out_rule = ipu.WHOLE if self.p.scalar_output else ipu.BLOCK
        level = FoldLevel(
            tile_map, ipu.SliceAttr("columns", inner), (1, rows, None), "outputs", None, out_rule, first,
            not self.p.overwrite,
        )
        level = self.estimate(level, rows * inner, local_input, local_output)
        return level.cycles, [level]

    def _best_outer(self, levels: int | None) -> tuple[int, list[FoldLevel]]:
        """O > 1: one level from the outputs (`rows<R>`), or a split level over the
        rows of every output followed by an O = 1 plan of its partial results."""
        r = self.p.reduction
        rows, inner, results = r.reduced, r.inner, r.results
        grain = _lcm(inner, self.word)
        out, layout = self.p.output_layout, self.p.input_layout
        finals: list[tuple[ipu.TileMapAttr, bool, bool]] = []
        if _whole_rows(out, grain, results) or (out.num_blocks() == 1 and out.total() == results):
            finals.append((out, False, True))
        else:
            finals.append((balanced_tile_map(results, self.tiles, grain), False, False))
        if layout is not None and _whole_rows(layout, rows * grain, rows * results):
            runs = [(run.first, run.end, run.count // rows) for run in layout.runs()]
            finals.append((ipu.TileMapAttr(runs), True, False))  # the data's own blocks
        options = []
        for tile_map, local_input, local_output in finals:
            level = FoldLevel(
                tile_map, ipu.SliceAttr("rows", rows), (None, rows, inner), "outputs", first=True,
                accumulate=not self.p.overwrite,
            )
            level = self.estimate(level, rows * results, local_input, local_output or tile_map == out)
            options.append((level.cycles, [level]))
        for count in self.counts if levels != 1 else ():
            if not 2 <= count <= min(self.tiles, rows // 2):
                continue
            tile_map = balanced_tile_map(rows * inner, count, inner)
            for split, slots in (("outputs", 1), ("folded", self.workers)):
                level = FoldLevel(
                    tile_map, ipu.SliceAttr("columns", rows * inner), (r.outer, None, inner), split,
                    results * slots, ipu.SliceAttr("partials", results * slots), True,
                )
                level = self.estimate(level, rows * results, False, True)
                cycles, rest = self.best_rows(tile_map.num_blocks() * slots, results, False, _fewer(levels))
                options.append((level.cycles + cycles, [level, *rest]))
        return min(options, key=lambda option: option[0])


def _fewer(levels: int | None) -> int | None:
    return None if levels is None else levels - 1


def plan_levels(problem: FoldProblem, vertex_cycles: VertexCycles) -> list[FoldLevel]:
    """The levels that compute `problem.reduction` in the fewest estimated cycles, the
    last one writing its destination."""
    return _Planner(problem, vertex_cycles).plan()
