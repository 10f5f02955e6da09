"""The planning of reductions (passes/reduction_plan.py): whatever levels the search
returns compute the reduction, for every shape and tile count. A small interpreter runs a
plan's levels on numpy data the way the fold codelets do (slices by the levels' rules,
folds of their boxes, per-worker partial results) and is checked against numpy; the
plans come from the search with the real cost model (through ipu-tile-partition) and with
made-up vertex estimates that steer it to other shapes."""

from __future__ import annotations

import dataclasses
import zlib

import numpy as np
import pytest
from ir_helpers import parse

from ipu_lower.arch import get_arch
from ipu_lower.dialects import ipu
from ipu_lower.dialects import sdfg as sd
from ipu_lower.passes.reduction_plan import FoldLevel, FoldProblem, ReductionMap, plan_levels
from ipu_lower.passes.tile_partition import balanced_tile_map, plan_partition

COMBINE = {"add": np.add, "mul": np.multiply, "min": np.minimum, "max": np.maximum}
IDENTITY = {"add": 0, "mul": 1, "min": np.inf, "max": -np.inf}


def connected(tensor: np.ndarray, rule: ipu.SliceAttr, block) -> np.ndarray:
    """The elements of `tensor` a vertex of `block` is connected to by `rule`."""
    bounds = rule.slice_of(block)
    if bounds is None:
        return tensor
    begin, end = bounds
    assert 0 <= begin < end <= rule.extent(tensor.size), (rule.rule_text(), begin, end, tensor.size)
    if rule.kind.data == "columns":
        return tensor.reshape(-1, rule.size)[:, begin:end].reshape(-1)
    return tensor[begin:end]


def run_levels(levels: list[FoldLevel], kind: str, data: np.ndarray, out: np.ndarray, workers: int) -> None:
    """Run the levels on `data` (the first level's input, flat) into `out` (flat), as
    the fold codelets of ipu-vertex-extraction would."""
    combine = COMBINE[kind]
    source = data
    for level in levels:
        assert level.first == (source is data)
        target = out if level.is_final else np.full(level.tile_map.num_blocks() * level.partials, np.nan)
        for block in level.tile_map.blocks():
            values = connected(source, level.in_rule, block)
            known = np.prod([f for f in level.fold if f is not None])
            assert values.size % known == 0, (level, block)
            box = values.reshape([f if f is not None else values.size // known for f in level.fold])
            if level.split == "folded":
                parts = [combine.reduce(box[:, w::workers, :], axis=1, initial=IDENTITY[kind]) for w in range(workers)]
                results = np.concatenate([p.reshape(-1) for p in parts])
            else:
                results = combine.reduce(box, axis=1).reshape(-1)
            window = connected(np.arange(target.size), level.out_rule, block)
            assert results.size == window.size, (level, block)
            target[window] = combine(target[window], results) if level.is_final else results
        source = target


def problem_for(outer, rows, inner, tiles, kind="add", out_bytes=4, scalar=False, counts=()) -> FoldProblem:
    arch = dataclasses.replace(get_arch("ipu2"), tiles=tiles)
    grain = arch.vector_width(4)
    word = max(1, 4 // out_bytes)
    return FoldProblem(
        ReductionMap(kind, ["x"], "s", outer, rows, inner),
        arch,
        in_bytes=4,
        partial_bytes=4,
        out_bytes=out_bytes,
        input_layout=balanced_tile_map(outer * rows * inner, tiles, grain),
        output_layout=ipu.TileMapAttr([(0, 1, 1)]) if scalar else balanced_tile_map(outer * inner, tiles, word),
        scalar_output=scalar,
        counts=counts,
    )


def check_plan(problem: FoldProblem, levels: list[FoldLevel], seed: int = 0) -> None:
    r = problem.reduction
    rng = np.random.default_rng(seed)
    data = rng.integers(-9, 10, (r.outer, r.reduced, r.inner)).astype(np.float64)
    out = rng.integers(-9, 10, r.results).astype(np.float64)
    expected = COMBINE[r.kind](out, COMBINE[r.kind].reduce(data, axis=1).reshape(-1))
    run_levels(levels, r.kind, data.reshape(-1), out, problem.arch.workers_per_tile)
    np.testing.assert_array_equal(out, expected)
    assert levels[-1].is_final and all(not level.is_final for level in levels[:-1])
    if problem.scalar_output:
        assert levels[-1].out_rule == ipu.WHOLE and levels[-1].tile_map.num_blocks() == 1


def work_estimate(level: FoldLevel, count: int, elements: int) -> int:
    """Cycles as a vertex's values: the busiest worker's share plus a launch."""
    values = level.in_rule.slice_size(count, elements)
    share = values // 6 if level.split == "folded" else values
    return 100 + share


def scrambled_estimate(level: FoldLevel, count: int, elements: int) -> int:
    """Arbitrary but repeatable estimates, so that the search picks unusual plans."""
    return zlib.crc32(repr((level.split, level.fold, level.tile_map.num_blocks(), count)).encode()) % 5000


SHAPES = [
    (1, 1, 1), (1, 2, 1), (1, 3, 1), (1, 5, 1), (1, 17, 1), (1, 64, 1), (1, 257, 1), (1, 1000, 1),
    (1, 6, 3), (1, 40, 5), (1, 100, 2), (1, 7, 13), (1, 3, 40),
    (3, 5, 1), (4, 50, 1), (7, 100, 1), (2, 30, 3), (100, 3, 1), (5, 2, 7),
]


@pytest.mark.parametrize("estimate", [work_estimate, scrambled_estimate], ids=["work", "scrambled"])
@pytest.mark.parametrize("tiles", [1, 2, 3, 7, 16, 1472])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_every_plan_computes_the_reduction(shape, tiles, estimate):
    outer, rows, inner = shape
    problem = problem_for(outer, rows, inner, tiles, counts=(2, 3, 4, 8, 16, 64, tiles))
    check_plan(problem, plan_levels(problem, estimate))


@pytest.mark.parametrize("kind", sorted(COMBINE))
@pytest.mark.parametrize("out_bytes", [1, 2, 4])
@pytest.mark.parametrize("rows", [1, 9, 200])
def test_narrow_results_and_every_kind(kind, out_bytes, rows):
    """int8/int16 destinations: the final level's blocks hold whole 32-bit words."""
    for outer, inner in ((1, 7), (9, 1)):
        problem = problem_for(outer, rows, inner, 5, kind, out_bytes)
        levels = plan_levels(problem, work_estimate)
        check_plan(problem, levels)
        word = 4 // out_bytes
        final = levels[-1]
        assert all(b.begin % word == 0 for b in final.tile_map.blocks())


@pytest.mark.parametrize("rows", [1, 2, 11, 12, 5000])
def test_scalar_destination(rows):
    problem = problem_for(1, rows, 1, 7, scalar=True)
    check_plan(problem, plan_levels(problem, scrambled_estimate))


def test_a_tree_when_partials_are_many():
    """With the model's costs in cycles, 8832 partial results (1472 tiles x 6 workers)
    are not folded by one vertex: a tree of levels over fewer and fewer tiles."""
    problem = problem_for(1, 100000, 1, 1472, scalar=True)
    levels = plan_levels(problem, work_estimate)
    check_plan(problem, levels)
    assert len(levels) >= 3
    assert levels[0].tile_map == problem.input_layout  # the data where it lies
    assert [level.tile_map.num_blocks() for level in levels] == sorted((l.tile_map.num_blocks() for l in levels), reverse=True)
    assert levels[-1].in_rule.slice_size(1, 1) < 100


# -- plans of real maps, with the cost model ------------------------------------------------


def reduction_module(shape: tuple[int, ...], kept: list[int], element: str = "f32") -> str:
    rank = len(shape)
    params = [f"%p{k}" for k in range(rank)]
    dest_shape = [shape[k] for k in kept]
    array = " x ".join(map(str, shape)) + f" x {element}"
    dest = (" x ".join(map(str, dest_shape)) + f" x {element}") if kept else element
    return f"""sdfg.sdfg @r args ["x", "s"] symbols [] {{
  %x = sdfg.container "x" : !sdfg.array<{array}>
  %s = sdfg.container "s" : !sdfg.array<{dest}>
  sdfg.state "s0" {{
    sdfg.map "m" ({", ".join(params)}) = ({", ".join("0" for _ in shape)}) to ({", ".join(map(str, shape))}) step ({", ".join("1" for _ in shape)}) {{
      %v = sdfg.read %x[{", ".join(params)}] : !sdfg.array<{array}>
      sdfg.accumulate add %v to %s[{", ".join(params[k] for k in kept)}] : !sdfg.array<{dest}>
    }}
  }}
}}"""


@pytest.mark.parametrize("arch", ["ipu1", "ipu2"])
@pytest.mark.parametrize(
    "shape, kept",
    [((1,), []), ((7,), []), ((3001,), []), ((100000,), []), ((64, 6), [1]), ((6, 64), [0]), ((300, 5), [1]),
     ((5, 3000), [0]), ((2, 3, 4), [0]), ((2, 3, 4), [2])],
)
def test_plans_of_the_model_compute_the_reduction(shape, kept, arch):
    module = parse(reduction_module(shape, kept))
    (sdfg_op,) = [op for op in module.ops if isinstance(op, sd.SdfgOp)]
    plan = plan_partition(sdfg_op, get_arch(arch))
    ((_, reduction),) = plan.reductions.items()
    r = reduction.reduction
    problem = problem_for(r.outer, r.reduced, r.inner, get_arch(arch).tiles, scalar=not kept)
    check_plan(problem, reduction.levels)
    assert all(level.cycles > get_arch(arch).sync_cycles for level in reduction.levels)


def test_the_data_is_folded_where_it_lies_when_it_is_large():
    module = parse(reduction_module((1000000,), []))
    plan = plan_partition(next(op for op in module.ops if isinstance(op, sd.SdfgOp)), get_arch("ipu2"))
    (reduction,) = plan.reductions.values()
    first = reduction.levels[0]
    assert first.tile_map == plan.layouts["x"] and first.fold == (1, None, 2) and first.split == "folded"


@pytest.mark.parametrize("max_levels", [1, 2, 3])
def test_a_plan_keeps_to_its_number_of_levels(max_levels):
    problem = dataclasses.replace(problem_for(1, 100000, 1, 1472, scalar=True), max_levels=max_levels)
    levels = plan_levels(problem, work_estimate)
    check_plan(problem, levels)
    assert len(levels) <= max_levels
    unlimited = plan_levels(dataclasses.replace(problem, max_levels=None), work_estimate)
    assert len(unlimited) >= 3  # a tree pays off here, so fewer levels cost more
    if max_levels < len(unlimited):
        assert sum(level.cycles for level in levels) > sum(level.cycles for level in unlimited)
