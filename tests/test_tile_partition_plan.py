"""Tests for the planning half of ipu-tile-partition (balanced_tile_map, analyze_map,
plan_layouts, check_memory) and for the copies it lowers."""

from __future__ import annotations

import io
from math import ceil
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.math import Math

from ipu_lower.arch import ARCHS, get_arch
from ipu_lower.cli import ipu_opt_main
from ipu_lower.diagnostics import IpuLowerError
from ipu_lower.dialects import ipu
from ipu_lower.dialects import sdfg as sd
from ipu_lower.frontend.frontends import LocatedMlirFrontend, SdfgFrontend
from ipu_lower.passes.sdfg_specialize import SdfgSpecializePass
from ipu_lower.passes.tile_partition import (
    SCALAR_MAP,
    IpuTilePartitionPass,
    MapAccesses,
    analyze_map,
    balanced_tile_map,
    check_memory,
    describe_access,
    plan_layouts,
    plan_partition,
)
from ipu_lower.passes.tile_partition_points import point_offsets
from ipu_lower.registry import dialects

EXAMPLES = Path(__file__).resolve().parents[1] / "ipu_lower" / "examples"


def make_ctx() -> Context:
    ctx = Context()
    for dialect in (Builtin, Arith, Math, *dialects()):
        ctx.load_dialect(dialect)
    return ctx


def parse_mlir(text: str, name: str = "in.mlir") -> ModuleOp:
    module = LocatedMlirFrontend().parse(make_ctx(), io.BytesIO(text.encode()), name)
    module.verify()
    return module


def specialized_example(name: str, symbols: str) -> sd.SdfgOp:
    ctx = make_ctx()
    with open(EXAMPLES / f"{name}.sdfg", "rb") as f:
        module = SdfgFrontend().parse(ctx, f, f"{name}.sdfg")
    SdfgSpecializePass(symbols=symbols).apply(ctx, module)
    module.verify()
    (sdfg_op,) = module.ops
    assert isinstance(sdfg_op, sd.SdfgOp)
    return sdfg_op


def the_op(module: ModuleOp, kind):
    ops = [op for op in module.walk() if isinstance(op, kind)]
    assert len(ops) == 1, ops
    return ops[0]


# --------------------------------------------------------------------------------------
# balanced_tile_map


def triples(tile_map: ipu.TileMapAttr) -> list[tuple[int, int, int]]:
    return [(run.first, run.end, run.count) for run in tile_map.runs()]


def per_tile_counts(tile_map: ipu.TileMapAttr) -> list[int]:
    return [count for first, end, count in triples(tile_map) for _ in range(first, end)]


def check_balanced(elements: int, tiles: int, grain: int) -> None:
    tile_map = balanced_tile_map(elements, tiles, grain)
    where = f"elements={elements} tiles={tiles} grain={grain}: {triples(tile_map)}"
    tile_map.verify()
    counts = per_tile_counts(tile_map)
    # covers every element exactly once
    assert sum(counts) == elements == tile_map.total(), where
    # groups are contiguous ranges of tiles starting at tile 0
    previous_end = 0
    for first, end, count in triples(tile_map):
        assert first == previous_end and end > first and count > 0, where
        previous_end = end
    # uses one tile per grain-sized unit of work, up to all tiles
    assert len(counts) == min(tiles, ceil(elements / grain)), where
    assert tile_map.last_tile() == len(counts) - 1, where
    # the busiest tile holds at most the balanced share, rounded up to the grain
    assert max(counts) == tile_map.max_per_tile(), where
    assert max(counts) <= ceil(ceil(elements / tiles) / grain) * grain, where
    # whole units everywhere except possibly the last tile
    assert all(c % grain == 0 for c in counts[:-1]), where
    assert counts[-1] <= max(counts), where
    # balanced: the full tiles differ by at most one unit
    full = counts[:-1] or counts
    assert max(full) - min(full) <= grain, where
    # element order follows tile order
    offset = 0
    for tile, block in enumerate(tile_map.blocks()):
        assert (block.tile, block.index, block.begin) == (tile, tile, offset), where
        assert tile_map.owner(block.begin, block.end) == tile, where
        offset = block.end
    assert offset == elements, where


def test_balanced_tile_map_properties_small():
    cases = 0
    for tiles in (1, 2, 3, 4, 5, 6, 7, 8, 13, 16, 31):
        for grain in (1, 2, 3, 4, 8):
            for elements in range(1, 140):
                check_balanced(elements, tiles, grain)
                cases += 1
    assert cases == 11 * 5 * 139


@pytest.mark.parametrize("arch", sorted(ARCHS))
def test_balanced_tile_map_properties_real_tile_counts(arch):
    tiles = get_arch(arch).tiles
    sizes = [1, 2, 3, tiles - 1, tiles, tiles + 1, 2 * tiles - 1, 2 * tiles, 2 * tiles + 1,
             2 * tiles + 2, 3 * tiles + 5, 4 * tiles - 3, 10007, 100000, 999_999, 10**9 + 7]
    for grain in (1, 2, 4, 8):
        for elements in sizes:
            check_balanced(elements, tiles, grain)


def test_balanced_tile_map_100000_on_ipu2():
    tile_map = balanced_tile_map(100000, 1472, 2)
    counts = per_tile_counts(tile_map)
    assert len(counts) == 1472
    assert max(counts) == 68 and min(counts) == 66
    assert triples(tile_map) == [(0, 1424, 68), (1424, 1472, 66)]
    assert str(tile_map) == "#ipu.tile_map<0 to 1424 x 68, 1424 to 1472 x 66>"


@pytest.mark.parametrize(
    "elements, grain, expected",
    [
        (10, 2, [(0, 5, 2)]),
        (11, 2, [(0, 5, 2), (5, 6, 1)]),
        (1471, 1, [(0, 1471, 1)]),
        (1471, 2, [(0, 735, 2), (735, 736, 1)]),
        (2943, 2, [(0, 1471, 2), (1471, 1472, 1)]),
        (7, 4, [(0, 1, 4), (1, 2, 3)]),
        (3, 8, [(0, 1, 3)]),
    ],
)
def test_balanced_tile_map_below_tile_count(elements, grain, expected):
    """Fewer units than tiles: one unit per tile from tile 0, the last one partial."""
    assert triples(balanced_tile_map(elements, 1472, grain)) == expected


@pytest.mark.parametrize("tiles", [1, 2, 1216, 1472])
@pytest.mark.parametrize("grain", [1, 2, 4])
def test_balanced_tile_map_one_element(tiles, grain):
    tile_map = balanced_tile_map(1, tiles, grain)
    assert triples(tile_map) == [(0, 1, 1)]
    assert tile_map == SCALAR_MAP


def test_balanced_tile_map_uneven_split_of_partial_last_unit():
    # 9 elements, grain 2 -> 5 units over 2 tiles: 3 units then 2 units, last one partial
    assert triples(balanced_tile_map(9, 2, 2)) == [(0, 1, 6), (1, 2, 3)]
    # 13 elements, grain 2 -> 7 units over 3 tiles: 3, 2, 2 units; last partial
    assert triples(balanced_tile_map(13, 3, 2)) == [(0, 1, 6), (1, 2, 4), (2, 3, 3)]


# --------------------------------------------------------------------------------------
# plan_layouts on the examples


def test_plan_layouts_saxpy():
    arch = get_arch("ipu2")
    layouts = plan_layouts(specialized_example("saxpy", "N=1000"), arch)
    assert set(layouts) == {"a", "x", "y", "__tmp0", "__tmp1"}
    expected = balanced_tile_map(1000, arch.tiles, 2)
    for name in ("x", "y", "__tmp0", "__tmp1"):
        assert layouts[name] == expected, name
    assert triples(expected) == [(0, 500, 2)]
    # the scalar argument lives on tile 0
    assert layouts["a"] == SCALAR_MAP
    assert triples(layouts["a"]) == [(0, 1, 1)]


@pytest.mark.parametrize("arch_name", ["ipu1", "ipu2", "ipu21"])
def test_plan_layouts_chain_shares_one_layout(arch_name):
    arch = get_arch(arch_name)
    n = 3 * arch.tiles + 5  # not divisible by the tile count
    layouts = plan_layouts(specialized_example("chain", f"N={n}"), arch)
    assert set(layouts) == {"x", "y", "z", "t", "u"}
    expected = balanced_tile_map(n, arch.tiles, 2)
    assert all(layout == expected for layout in layouts.values())
    assert expected.last_tile() == arch.tiles - 1


def test_plan_layouts_scale2d_flattens_rows():
    arch = get_arch("ipu1")
    layouts = plan_layouts(specialized_example("scale2d", "M=37,N=41"), arch)
    expected = balanced_tile_map(37 * 41, arch.tiles, 2)
    assert layouts["A"] == layouts["B"] == expected
    assert expected.total() == 1517
    # DaCe's transient scalars between the map's tasklets are SSA values: nothing to place
    assert set(layouts) == {"A", "B"}


def test_plan_layouts_clamp_int32_and_scalars():
    arch = get_arch("ipu2")
    layouts = plan_layouts(specialized_example("clamp", "N=17"), arch)
    assert layouts["x"] == layouts["y"] == balanced_tile_map(17, arch.tiles, 2)
    assert triples(layouts["x"]) == [(0, 8, 2), (8, 9, 1)]
    assert layouts["lo"] == layouts["hi"] == SCALAR_MAP


SEPARATE = """builtin.module {
  sdfg.sdfg @separate args ["x", "y", "p", "q"] symbols [] {
    %x = sdfg.container "x" : !sdfg.array<100 x f16>
    %y = sdfg.container "y" : !sdfg.array<100 x f16>
    %p = sdfg.container "p" : !sdfg.array<30 x i8>
    %q = sdfg.container "q" : !sdfg.array<30 x i8>
    sdfg.state "s" {
      sdfg.map "half" (%i) = (0) to (100) step (1) {
        %0 = sdfg.read %x[%i] : !sdfg.array<100 x f16>
        %1 = sdfg.tasklet "t" ins(v = %0) outs(o) : (f16) -> (f16) {
        ^bb0(%v: f16):
          %m = arith.addf %v, %v : f16
          sdfg.yield %m : f16
        }
        sdfg.write %1 to %y[%i] : !sdfg.array<100 x f16>
      }
      sdfg.map "bytes" (%k) = (0) to (30) step (1) {
        %2 = sdfg.read %p[%k] : !sdfg.array<30 x i8>
        %3 = sdfg.tasklet "u" ins(v = %2) outs(o) : (i8) -> (i8) {
        ^bb0(%v: i8):
          %m = arith.addi %v, %v : i8
          sdfg.yield %m : i8
        }
        sdfg.write %3 to %q[%k] : !sdfg.array<30 x i8>
      }
    }
  }
}
"""


def test_plan_layouts_separate_groups_and_grain_per_element_type():
    """Containers no map connects get separate layouts; the grain is the vector width
    of the element type (4 halves, 8 bytes per 64-bit access)."""
    (sdfg_op,) = parse_mlir(SEPARATE).ops
    arch = get_arch("ipu2")
    layouts = plan_layouts(sdfg_op, arch)
    assert layouts["x"] == layouts["y"] == balanced_tile_map(100, arch.tiles, 4)
    assert layouts["p"] == layouts["q"] == balanced_tile_map(30, arch.tiles, 8)
    assert triples(layouts["x"]) == [(0, 25, 4)]
    assert triples(layouts["p"]) == [(0, 3, 8), (3, 4, 6)]


MIXED_GRAIN = """builtin.module {
  sdfg.sdfg @mixed args ["h", "f"] symbols [] {
    %h = sdfg.container "h" : !sdfg.array<10 x f16>
    %f = sdfg.container "f" : !sdfg.array<10 x f32>
    sdfg.state "s" {
      sdfg.map "widen" (%i) = (0) to (10) step (1) {
        %0 = sdfg.read %h[%i] : !sdfg.array<10 x f16>
        %1 = sdfg.tasklet "t" ins(v = %0) outs(o) : (f16) -> (f32) {
        ^bb0(%v: f16):
          %w = arith.extf %v : f16 to f32
          sdfg.yield %w : f32
        }
        sdfg.write %1 to %f[%i] : !sdfg.array<10 x f32>
      }
    }
  }
}
"""


def test_plan_layouts_group_grain_is_the_largest_vector_width():
    (sdfg_op,) = parse_mlir(MIXED_GRAIN).ops
    layouts = plan_layouts(sdfg_op, get_arch("ipu2"))
    assert layouts["h"] == layouts["f"] == balanced_tile_map(10, 1472, 4)
    assert triples(layouts["f"]) == [(0, 2, 4), (2, 3, 2)]


def saxpy_bytes_on_tile0(n: int, tiles: int) -> int:
    """Four float32 vectors (x, y, two temporaries) plus the float32 scalar a."""
    per_tile = balanced_tile_map(n, tiles, 2).max_per_tile()
    return 4 * 4 * per_tile + 4


def test_memory_overflow_names_tile_and_bytes():
    arch = get_arch("ipu2")
    sdfg_op = specialized_example("saxpy", f"N={10**9}")
    needed = saxpy_bytes_on_tile0(10**9, arch.tiles)
    assert needed == 4 * 4 * 679348 + 4
    with pytest.raises(IpuLowerError) as info:
        plan_layouts(sdfg_op, arch)
    message = str(info.value)
    assert "\n" not in message
    assert message == (
        f"sdfg.sdfg 'saxpy': error: data does not fit in tile memory: tile 0 needs {needed} "
        f"bytes but an ipu2 tile has {624 * 1024} bytes"
    )


def test_memory_limit_boundary_on_ipu1():
    """The largest saxpy that fits on ipu1 (256 KiB per tile) plans; one more element fails."""
    arch = get_arch("ipu1")
    fits = 16382 * arch.tiles
    assert saxpy_bytes_on_tile0(fits, arch.tiles) <= arch.bytes_per_tile
    layouts = plan_layouts(specialized_example("saxpy", f"N={fits}"), arch)
    assert layouts["x"].max_per_tile() == 16382
    with pytest.raises(
        IpuLowerError, match=r"tile 0 needs 262148 bytes but an ipu1 tile has 262144 bytes"
    ):
        plan_layouts(specialized_example("saxpy", f"N={fits + 1}"), arch)


def test_check_memory_reports_the_fullest_tile():
    """A container laid out to put most data on a later tile: that tile is named."""
    arch = get_arch("ipu1")
    sdfg_op = specialized_example("clamp", "N=70000")
    containers = {op.container_name.data: op for op in sdfg_op.containers()}
    lopsided = ipu.TileMapAttr([(0, 3, 2), (3, 4, 69994)])
    layouts = {"x": lopsided, "y": lopsided, "lo": SCALAR_MAP, "hi": SCALAR_MAP}
    with pytest.raises(IpuLowerError, match=r"tile 3 needs 559952 bytes but an ipu1 tile"):
        check_memory(sdfg_op, containers, layouts, arch)
    # the same data spread evenly fits
    even = balanced_tile_map(70000, arch.tiles, 2)
    check_memory(sdfg_op, containers, {**layouts, "x": even, "y": even}, arch)


def test_memory_overflow_through_cli_is_one_line(tmp_path, capsys):
    out_dir = tmp_path / "out"
    with pytest.raises(SystemExit) as info:
        ipu_opt_main([str(EXAMPLES / "saxpy.sdfg"), "-p", "sdfg-to-poplar", "--symbols",
                      f"N={10**9}", "-t", "poplar-cpp", "-o", str(out_dir)])
    assert info.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("ipu-opt: ")
    assert "data does not fit in tile memory: tile 0 needs" in err
    assert not out_dir.exists()


def test_plan_partition_lists_the_written_containers():
    """Containers written by a memlet or a copy; of the arguments, only those go back to
    the host."""
    plan = plan_partition(specialized_example("saxpy", "N=64"), get_arch("ipu21"))
    assert plan.arch.name == "ipu21"
    assert plan.written == {"__tmp0", "__tmp1", "y"}
    assert plan.layouts["x"] == balanced_tile_map(64, get_arch("ipu21").tiles, 2)


def test_plan_layouts_needs_static_shapes():
    ctx = make_ctx()
    with open(EXAMPLES / "saxpy.sdfg", "rb") as f:
        module = SdfgFrontend().parse(ctx, f, "saxpy.sdfg")
    (sdfg_op,) = module.ops
    with pytest.raises(IpuLowerError, match="is not static; run sdfg-specialize first"):
        plan_layouts(sdfg_op, get_arch("ipu2"))


def test_plan_layouts_rejects_float64():
    text = MIXED_GRAIN.replace("f32", "f64")
    (sdfg_op,) = parse_mlir(text).ops
    with pytest.raises(IpuLowerError, match="container 'f' is float64"):
        plan_layouts(sdfg_op, get_arch("ipu2"))


def test_plan_layouts_rejects_empty_container():
    with pytest.raises(IpuLowerError, match="container 'x' has no elements"):
        plan_layouts(specialized_example("saxpy", "N=0"), get_arch("ipu2"))


# --------------------------------------------------------------------------------------
# analyze_map


def one_map(params: str, lower: str, upper: str, step: str, body: str, containers: str,
            symbols: str = "") -> str:
    return f"""builtin.module {{
  sdfg.sdfg @m args [] symbols [{symbols}] {{
{containers}
    sdfg.state "s" {{
      sdfg.map "m" ({params}) = ({lower}) to ({upper}) step ({step}) {{
{body}
      }}
    }}
  }}
}}
"""


def transient(name: str, type_: str) -> str:
    return f'    %{name} = sdfg.container "{name}" transient : {type_}'


def copy_body(src: str, src_subset: str, dst: str, dst_subset: str, type_: str) -> str:
    return f"""        %0 = sdfg.read %{src}[{src_subset}] : {type_}
        %1 = sdfg.tasklet "t" ins(v = %0) outs(o) : (f32) -> (f32) {{
        ^bb0(%v: f32):
          sdfg.yield %v : f32
        }}
        sdfg.write %1 to %{dst}[{dst_subset}] : {type_}"""


V16 = "!sdfg.array<16 x f32>"
M8 = "!sdfg.array<8 x 8 x f32>"
VEC_CONTAINERS = "\n".join([transient("x", V16), transient("y", V16)])
MAT_CONTAINERS = "\n".join([transient("A", M8), transient("B", M8)])


def map_of(text: str) -> sd.MapOp:
    return the_op(parse_mlir(text), sd.MapOp)


def test_analyze_map_elementwise():
    text = one_map("%i", "0", "16", "1", copy_body("x", "%i", "y", "%i", V16), VEC_CONTAINERS)
    assert analyze_map(map_of(text)) == MapAccesses(16, ["x"], ["y"])
    text = one_map("%i, %j", "0, 0", "8, 8", "1, 1", copy_body("A", "%i, %j", "B", "%i, %j", M8),
                   MAT_CONTAINERS)
    assert analyze_map(map_of(text)) == MapAccesses(64, ["A"], ["B"])


@pytest.mark.parametrize("subset", ["%i + 0", "(%i + 1) * 2 - %i - 2", "%i + N - N"])
def test_analyze_map_elementwise_is_algebraic(subset):
    """Any spelling of the point itself is elementwise: subsets are canonical expressions."""
    text = one_map("%i", "0", "16", "1", copy_body("x", subset, "y", "%i", V16), VEC_CONTAINERS,
                   symbols='"N"')
    assert analyze_map(map_of(text)) == MapAccesses(16, ["x"], ["y"])


def test_analyze_map_first_use_order_and_dedup():
    sdfg_op = specialized_example("scale2d", "M=3,N=5")
    (map_op,) = [op for op in sdfg_op.walk() if isinstance(op, sd.MapOp)]
    # A is read twice (A[i, j] * A[i, j]) but listed once
    assert analyze_map(map_op) == MapAccesses(15, ["A"], ["B"])
    sdfg_op = specialized_example("clamp", "N=9")
    (map_op,) = [op for op in sdfg_op.walk() if isinstance(op, sd.MapOp)]
    assert analyze_map(map_op) == MapAccesses(9, ["hi", "lo", "x"], ["y"])


def test_point_offsets():
    text = one_map("%i, %j", "0, 0", "8, 8", "1, 1", copy_body("A", "%i - 1, %j + 2", "B", "%i, %j", M8),
                   MAT_CONTAINERS)
    map_op = map_of(text)
    read, write = [op for op in map_op.body.block.ops if isinstance(op, sd.ReadOp | sd.WriteOp)]
    assert point_offsets(read, map_op.params) == [-1, 2]
    assert point_offsets(write, map_op.params) == [0, 0]
    assert describe_access(read) == "A[i - 1, j + 2]"
    transposed = one_map("%i, %j", "0, 0", "8, 8", "1, 1", copy_body("A", "%j, %i", "B", "%i, %j", M8),
                         MAT_CONTAINERS)
    map_op = map_of(transposed)
    read = next(op for op in map_op.body.block.ops if isinstance(op, sd.ReadOp))
    assert point_offsets(read, map_op.params) is None
    # an index that is not a parameter of the map has no offset from the point
    assert point_offsets(read, map_op.params[:1]) is None


OFFSETS_ONLY = (
    "only accesses at constant offsets from the point (the map parameters in order), reshapes and views "
    "(rows, columns, boxes, transposes) are supported yet"
)

REJECTED = {
    "neighbour read outside the container": (
        one_map("%i", "0", "16", "1", copy_body("x", "%i + 1", "y", "%i", V16), VEC_CONTAINERS),
        f"map 'm' reads 'x[i + 1]' outside its shape {V16}",
    ),
    "neighbour write outside the container": (
        one_map("%i", "0", "16", "1", copy_body("x", "%i", "y", "%i - 1", V16), VEC_CONTAINERS),
        f"map 'm' writes 'y[i - 1]' outside its shape {V16}",
    ),
    "2-D neighbour outside the container": (
        one_map("%i, %j", "0, 0", "8, 8", "1, 1", copy_body("A", "%i, %j - 1", "B", "%i, %j", M8),
                MAT_CONTAINERS),
        f"map 'm' reads 'A[i, j - 1]' outside its shape {M8}",
    ),
    "in-place neighbour": (
        one_map("%i", "1", "15", "1", copy_body("x", "%i - 1", "x", "%i", V16), VEC_CONTAINERS),
        "map 'm' reads 'x[i - 1]' away from the point and also writes 'x': other vertices write "
        "those elements in the same compute set",
    ),
    "symbolic index": (
        one_map("%i", "0", "16", "1", copy_body("x", "%i + N", "y", "%i", V16), VEC_CONTAINERS,
                symbols='"N"'),
        f"map 'm' accesses 'x[i + N]' of shape {V16}; {OFFSETS_ONLY}",
    ),
    "scaled index": (
        one_map("%i", "0", "16", "1", copy_body("x", "%i floordiv 2", "y", "%i", V16), VEC_CONTAINERS),
        f"map 'm' accesses 'x[(i floordiv 2)]' of shape {V16}; {OFFSETS_ONLY}",
    ),
    "step 2": (
        one_map("%i", "0", "16", "2", copy_body("x", "%i", "y", "%i", V16), VEC_CONTAINERS),
        "map 'm' ranges must have step 1 for now (got 0 to 16 step 2)",
    ),
    "symbolic range": (
        one_map("%i", "0", "N", "1", copy_body("x", "%i", "y", "%i", V16), VEC_CONTAINERS,
                symbols='"N"'),
        "map 'm' has a range that is not static; run sdfg-specialize first",
    ),
    "scalar written by every iteration": (
        one_map("%i", "0", "16", "1",
                copy_body("x", "%i", "s", "", V16).replace(
                    f"%s[] : {V16}", "%s[] : !sdfg.array<f32>"),
                "\n".join([transient("x", V16), transient("s", "!sdfg.array<f32>")])),
        "every iteration of map 'm' writes scalar 's', so the order would decide its value; "
        "accumulate into it (write-conflict resolution) to reduce",
    ),
}


def test_analyze_map_stencil_geometry():
    """A map over part of the container writes a span of it; the arrays it reads away
    from the written element are named (ipu-plan-exchange sizes their halos)."""
    # y[i + 1] = x[i] + x[i + 2] over i in [0, 14): writes y[1:15], reads x one either side
    body = copy_body("x", "%i", "y", "%i + 1", V16).replace(
        "%0 = sdfg.read %x[%i]", "%0 = sdfg.read %x[%i + 2]")
    assert analyze_map(map_of(one_map("%i", "0", "14", "1", body, VEC_CONTAINERS))) == MapAccesses(
        14, ["x"], ["y"], (1, 15), frozenset({"x"}))
    body = copy_body("x", "%i - 1", "y", "%i", V16)
    assert analyze_map(map_of(one_map("%i", "1", "16", "1", body, VEC_CONTAINERS))) == MapAccesses(
        15, ["x"], ["y"], (1, 16), frozenset({"x"}))
    # rows 1..6 of an 8x8 matrix, whole rows: a contiguous span; the row above is 8 elements back
    body = copy_body("A", "%i - 1, %j", "B", "%i, %j", M8)
    assert analyze_map(map_of(one_map("%i, %j", "1, 0", "7, 8", "1, 1", body, MAT_CONTAINERS))) == MapAccesses(
        48, ["A"], ["B"], (8, 56), frozenset({"A"}))
    # the interior of the matrix is not contiguous: its span runs from (1, 1) to (6, 6),
    # and a point writes only where its column (point % 8) is in [1, 7)
    body = copy_body("A", "%i, %j - 1", "B", "%i, %j", M8)
    assert analyze_map(map_of(one_map("%i, %j", "1, 1", "7, 7", "1, 1", body, MAT_CONTAINERS))) == MapAccesses(
        36, ["A"], ["B"], (9, 55), frozenset({"A"}), ((1, 8, 1, 7),))
    # the whole container at the point: elementwise, no span, no halo
    body = copy_body("x", "%i", "y", "%i", V16)
    assert analyze_map(map_of(one_map("%i", "0", "16", "1", body, VEC_CONTAINERS))) == MapAccesses(16, ["x"], ["y"])


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_analyze_map_rejects(case):
    text, phrase = REJECTED[case]
    map_op = map_of(text)
    with pytest.raises(IpuLowerError) as info:
        analyze_map(map_op)
    message = str(info.value)
    assert "\n" not in message
    assert message.endswith(phrase), message
    # parsed from a file: the diagnostic names file:line:col of the offending op
    assert message.startswith("in.mlir:"), message
    line = int(message.split(":")[1])
    assert 1 <= line <= text.count("\n")


def test_analyze_map_error_points_at_the_read():
    text, _ = REJECTED["neighbour read outside the container"]
    with pytest.raises(IpuLowerError) as info:
        analyze_map(map_of(text))
    line = int(str(info.value).split(":")[1])
    assert "sdfg.read %x" in text.splitlines()[line - 1]


def test_tile_partition_pass_reports_the_rejected_map():
    text, _phrase = REJECTED["scaled index"]
    ctx = make_ctx()
    module = parse_mlir(text)
    with pytest.raises(IpuLowerError, match=r"accesses 'x\[\(i floordiv 2\)\]'"):
        IpuTilePartitionPass().apply(ctx, module)


def test_tile_partition_pass_unknown_arch():
    module = parse_mlir(one_map("%i", "0", "16", "1", copy_body("x", "%i", "y", "%i", V16),
                                VEC_CONTAINERS))
    with pytest.raises(IpuLowerError, match=r"unknown IPU architecture 'ipu9'"):
        IpuTilePartitionPass(arch="ipu9").apply(make_ctx(), module)


# --------------------------------------------------------------------------------------
# copies


def copy_module(src_shape: str, src: str, dst_shape: str, dst: str) -> str:
    src_type = f"!sdfg.array<{src_shape} x f32>"
    dst_type = f"!sdfg.array<{dst_shape} x f32>"
    return f"""builtin.module {{
  sdfg.sdfg @c args ["x", "y"] symbols [] {{
    %x = sdfg.container "x" : !sdfg.array<{src_shape} x f32>
    %y = sdfg.container "y" : !sdfg.array<{dst_shape} x f32>
    sdfg.state "s" {{
      sdfg.copy %x[{src}] to %y[{dst}] : {src_type}, {dst_type}
    }}
  }}
}}
"""


def lowered_copy(text: str) -> ipu.CopyOp:
    module = parse_mlir(text)
    IpuTilePartitionPass().apply(make_ctx(), module)
    module.verify()
    op = the_op(module, ipu.CopyOp)
    return op


def copy_ranges(op: ipu.CopyOp) -> tuple[tuple[int, int], tuple[int, int]]:
    return op.source_range(), op.destination_range()


def test_whole_copy_shares_the_layout():
    text = copy_module("16", "0:16", "16", "0:16")
    (sdfg_op,) = parse_mlir(text).ops
    layouts = plan_layouts(sdfg_op, get_arch("ipu2"))
    assert layouts["x"] == layouts["y"] == balanced_tile_map(16, 1472, 2)
    assert copy_ranges(lowered_copy(text)) == ((0, 16), (0, 16))


def test_partial_copy_gets_separate_layouts():
    text = copy_module("16", "2:10", "8", "0:8")
    (sdfg_op,) = parse_mlir(text).ops
    layouts = plan_layouts(sdfg_op, get_arch("ipu2"))
    assert layouts["x"] == balanced_tile_map(16, 1472, 2)
    assert layouts["y"] == balanced_tile_map(8, 1472, 2)
    assert copy_ranges(lowered_copy(text)) == ((2, 10), (0, 8))


def test_copy_of_whole_rows_is_flattened():
    assert copy_ranges(lowered_copy(copy_module("4 x 4", "1:3, 0:4", "8", "0:8"))) == (
        (4, 12), (0, 8))


def test_copy_of_a_non_contiguous_box_copies_a_view_of_it():
    op = lowered_copy(copy_module("4 x 4", "0:2, 1:3", "4", "0:4"))
    view = op.source.owner
    assert isinstance(view, ipu.ViewOp) and isinstance(view.source.owner, ipu.VariableOp)
    assert (view.box(), view.walked()) == ([(0, 2), (1, 3)], [0, 1])
    assert copy_ranges(op) == ((0, 4), (0, 4))


def test_copy_outside_its_container_is_an_error():
    with pytest.raises(IpuLowerError, match=r"copy box \[0:2, 3:5\] of 'x' lies outside its shape \[4, 4\]"):
        lowered_copy(copy_module("4 x 4", "0:2, 3:5", "4", "0:4"))


def test_copy_of_part_of_one_row_is_contiguous():
    assert copy_ranges(lowered_copy(copy_module("4 x 4", "1:2, 1:3", "2", "0:2"))) == (
        (5, 7), (0, 2))


# restricted tile maps (a map over part of its container)


@pytest.mark.parametrize("elements, tiles, grain", [(1000, 1472, 2), (100000, 1472, 2), (37, 4, 4), (64, 8, 1)])
@pytest.mark.parametrize("cut", [(1, -1), (0, -5), (7, 0), ("third", "quarter")])
def test_restricted_map_blocks_are_the_blocks_cut_to_the_range(elements, tiles, grain, cut):
    whole = balanced_tile_map(elements, tiles, grain)
    begin, end = (elements // 3, elements - elements // 4) if cut[0] == "third" else (cut[0], elements + cut[1])
    restricted = whole.restricted(begin, end)
    expected = [(b.tile, max(b.begin, begin), min(b.end, end)) for b in whole.blocks() if b.begin < end and b.end > begin]
    assert [(b.tile, b.begin, b.end) for b in restricted.blocks()] == expected
    assert restricted.start == begin and restricted.end() == end
    assert len(restricted.runs()) <= len(whole.runs()) + 2  # the size of the IR, not of the machine
