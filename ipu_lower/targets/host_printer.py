"""Print a `poplar.host_program` as host.cpp: init / run / exit behind a C ABI.

Each build-region op has a short printing function, found through `_BUILD_PRINTERS`.
Views (`poplar.flatten`, `poplar.slice`, `poplar.slice_box`, `poplar.reshape`,
`poplar.dim_shuffle`, `poplar.broadcast`) are printed inline where they are used, except
in a loop over blocks: there a view is built once, before the loop, as a named tensor
that each block slices (`_per_block_base`). Every distinct tile map becomes one constant
table of runs; `poplar.map_tensor` and `poplar.add_vertices` are loops over it
(`for_each_block`) that compute each tile's slice from its run, so host.cpp is as long
as the program, whatever the tile count.
The values of each `poplar.add_constant` are a table of exact literals beside them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from math import prod
from typing import IO

import numpy as np
from xdsl.dialects.builtin import MemRefType, f16
from xdsl.ir import Operation, SSAValue

from ipu_lower.dialects import poplar
from ipu_lower.dialects.constant_arrays import value_array
from ipu_lower.dialects.popops_reduce import POPOPS_OPERATION, accumulator_type
from ipu_lower.element_types import element_type
from ipu_lower.names import UniqueNames, c_identifier
from ipu_lower.targets.abi import (
    ABI_FUNCTIONS,
    CAST_INCLUDES,
    CONSTANT_INCLUDES,
    DYNAMIC_SLICE_INCLUDES,
    ELEMENTWISE_INCLUDES,
    HOST_INCLUDES,
    POPLIN_INCLUDES,
    POPOPS_INCLUDES,
    REDUCE_INCLUDES,
    SCALED_ADD_INCLUDES,
)
from ipu_lower.targets.codelet_printer import BLOCK_EXTENT, BLOCK_START, block_extents, uses_block_start
from ipu_lower.targets.cpp_expr import float_literal
from ipu_lower.targets.print_context import PrintContext, cpp_string

# Names the host template uses; generated names must not collide with them.
HOST_RESERVED = (
    "graph", "device", "engine", "codelets_path", "error", "state", "arch", "block", "vertex",
    "ipu_lower_attach", "TileRun", "TileBlock", "for_each_block", "std", "poplar", "main",
    "GridAxis", "grid_axis", "GridBlock", "for_each_box", "repeat", "ipu_lower_check_count",
)

ATTACH_FUNCTION = """\
// A real IPU when IPU_LOWER_HARDWARE is set in the environment, else the IPU Model.
poplar::Device ipu_lower_attach(const char *arch) {
  if (std::getenv("IPU_LOWER_HARDWARE") != nullptr) {
    auto manager = poplar::DeviceManager::createDeviceManager();
    for (auto &device : manager.getDevices(poplar::TargetType::IPU, 1)) {
      if (device.attach()) {
        return std::move(device);
      }
    }
    throw std::runtime_error("no IPU could be attached");
  }
  poplar::IPUModel model(arch);
  return model.createDevice();
}"""

CHECK_COUNT_FUNCTION = """\
// Whether the caller's array has the element count the program was compiled for; if not,
// `error` says so and the run returns before it reads or writes anything.
bool ipu_lower_check_count(std::string &error, const char *function, const char *name,
                           const void *data, std::size_t count, std::size_t compiled) {
  if (count == compiled && (data != nullptr || compiled == 0)) {
    return true;
  }
  error = std::string(function) + ": argument '" + name + "' has " + std::to_string(count) +
          (data == nullptr ? " elements at a null pointer" : " elements") +
          ", the program was compiled for " + std::to_string(compiled);
  return false;
}"""

TILE_MAPS = """\
// Tiles [first, end) hold `count` consecutive row-major elements each.
struct TileRun {
  unsigned first, end;
  std::size_t count;
};

// One tile's part of a tile map: the block at `index` (in element order), in run `run`,
// holding elements [begin, end).
struct TileBlock {
  unsigned tile;
  std::size_t index, run, begin, end;
};

// Calls f with each block of a tile map whose first block starts at element `start`,
// computed from its run.
template <std::size_t N, class F> void for_each_block(const TileRun (&runs)[N], F f, std::size_t start = 0) {
  std::size_t index = 0;
  for (std::size_t r = 0; r < N; ++r) {
    for (unsigned tile = runs[r].first; tile < runs[r].end; ++tile, ++index) {
      const std::size_t begin = start + (tile - runs[r].first) * runs[r].count;
      f(TileBlock{tile, index, r, begin, begin + runs[r].count});
    }
    start += (runs[r].end - runs[r].first) * runs[r].count;
  }
}

// A dimension of a grid map: its blocks (a tile map over block indices, not tiles),
// how many runs they form, and the tile stride of a block index.
struct GridAxis {
  std::vector<TileBlock> blocks;
  std::size_t runs, stride;
};

template <std::size_t N> GridAxis grid_axis(const TileRun (&runs)[N], std::size_t start, std::size_t stride) {
  GridAxis axis{{}, N, stride};
  for_each_block(runs, [&](const TileBlock &block) { axis.blocks.push_back(block); }, start);
  return axis;
}

// One tile's box of a grid map: [begin[d], end[d]) in dimension d, the box at `index`
// (row-major), whose combination of per-dimension runs is `run` (row-major).
struct GridBlock {
  unsigned tile;
  std::size_t index, run;
  std::vector<std::size_t> begin, end;
};

// Calls f with each box of a grid map, row-major.
template <class F> void for_each_box(const std::vector<GridAxis> &axes, F f) {
  std::vector<std::size_t> at(axes.size(), 0);
  for (std::size_t index = 0;; ++index) {
    GridBlock box{0, index, 0, {}, {}};
    for (std::size_t d = 0; d < axes.size(); ++d) {
      const TileBlock &block = axes[d].blocks[at[d]];
      box.tile += static_cast<unsigned>(block.tile * axes[d].stride);
      box.run = box.run * axes[d].runs + block.run;
      box.begin.push_back(block.begin);
      box.end.push_back(block.end);
    }
    f(box);
    std::size_t d = axes.size();
    for (; d > 0; --d) {
      if (++at[d - 1] < axes[d - 1].blocks.size()) {
        break;
      }
      at[d - 1] = 0;
    }
    if (d == 0) {
      return;
    }
  }
}"""


class HostContext(PrintContext):
    """The print context of host.cpp: also the name of the table of each list of runs
    and of each constant's values."""

    def __init__(self, output: IO[str]):
        super().__init__(output, HOST_RESERVED)
        self.tile_maps: dict[tuple, str] = {}
        self.constants: dict[poplar.AddConstantOp, str] = {}
        """The table of values of each constant."""
        self.bases: dict[tuple[SSAValue, str | tuple[int, int]], str] = {}
        """The named tensor built once for each view and form that loops over blocks
        slice (`_per_block_base`)."""


def host_type(t) -> str:
    """The C++ type of host data at the ABI."""
    row = element_type(t)
    assert row is not None
    return row.host_cpp


def _flat(ctx: PrintContext, tensor: SSAValue) -> str:
    name = ctx[tensor]
    return f"{name}.flatten()" if len(poplar.tensor_type(tensor).get_shape()) > 1 else name


def _per_block_base(ctx: HostContext, tensor: SSAValue, form: str | tuple[int, int] = "flat") -> str:
    """What a loop over blocks slices `tensor` from, in `form`: "flat" (flattened),
    "grid" (as it is) or (rows, columns) (a matrix of the flattened elements). A view is
    built once per tensor and form, as a named tensor before the first loop that needs
    it (a matrix from the flattened one): rebuilding it per block would cost each block
    the whole view (a broadcast of 1000 rows is a million elements to gather). A
    variable stays inline: a view of a whole variable is one run of it, which costs a
    block nothing to rebuild."""
    match form:
        case "flat":
            shaped = _flat(ctx, tensor)
        case "grid":
            shaped = ctx[tensor]
        case (rows, columns):
            shaped = f"{_per_block_base(ctx, tensor)}.reshape({{{rows}, {columns}}})"
    if poplar.variable_of(tensor) is tensor:
        return shaped
    if (tensor, form) not in ctx.bases:
        name = ctx.bases[tensor, form] = ctx.names.fresh(f"{ctx[poplar.variable_of(tensor)]}_view", "view")
        ctx.line(f"poplar::Tensor {name} = {shaped};")
    return ctx.bases[tensor, form]


def _braced(values) -> str:
    return "{" + ", ".join(map(str, values)) + "}"


def _view(ctx: PrintContext, op: Operation) -> None:
    if isinstance(op, poplar.FlattenOp):
        ctx.values[op.result] = f"{ctx[op.tensor]}.flatten()"
    elif isinstance(op, poplar.SliceOp):
        ctx.values[op.result] = f"{ctx[op.tensor]}.slice({op.begin.value.data}, {op.end.value.data})"
    elif isinstance(op, poplar.SliceBoxOp):
        begin, end = op.bounds()
        ctx.values[op.result] = f"{ctx[op.tensor]}.slice({_braced(begin)}, {_braced(end)})"
    elif isinstance(op, poplar.ReshapeOp):
        ctx.values[op.result] = f"{ctx[op.tensor]}.reshape({_braced(poplar.tensor_type(op.result).get_shape())})"
    elif isinstance(op, poplar.DimShuffleOp):
        ctx.values[op.result] = f"{ctx[op.tensor]}.dimShuffle({_braced(op.order())})"
    elif isinstance(op, poplar.BroadcastOp):
        ctx.values[op.result] = f"{ctx[op.tensor]}.broadcast({op.times.value.data}, {op.dim.value.data})"


def _add_variable(ctx: PrintContext, op: poplar.AddVariableOp) -> None:
    name = ctx.bind(op.result, op.debug_name.data, "tensor")
    t = poplar.tensor_type(op.result)
    shape = ", ".join(str(d) for d in t.get_shape())
    ctx.line(
        f"poplar::Tensor {name} = graph.addVariable(poplar::{poplar.poplar_type_name(t.element_type)}, "
        f"{{{shape}}}, {cpp_string(op.debug_name.data)});"
    )


def _add_constant(ctx: HostContext, op: poplar.AddConstantOp) -> None:
    """`Graph::addConstant(type, shape, ArrayRef<T> values, debugName)` from the table
    of its values (`_print_constant_tables`)."""
    name = ctx.bind(op.result, op.debug_name.data, "tensor")
    t = poplar.tensor_type(op.result)
    shape = ", ".join(str(d) for d in t.get_shape())
    values = f"poplar::ArrayRef<{_constant_cpp_type(t.element_type)}>({ctx.constants[op]}, {t.num_elements()})"
    ctx.line(
        f"poplar::Tensor {name} = graph.addConstant(poplar::{poplar.poplar_type_name(t.element_type)}, "
        f"{{{shape}}}, {values}, {cpp_string(op.debug_name.data)});"
    )


def _constant_cpp_type(t) -> str:
    """The host type of a constant's values: float for half, every half being a float,
    which Poplar converts exactly; the host type otherwise."""
    return "float" if t == f16 else host_type(t)


def _literals(values: np.ndarray) -> list[str]:
    """The exact C++ literal of each value, row-major: numpy's shortest decimal form of
    a float32 (half values are float32 values), then `f`."""
    flat = values.reshape(-1)
    if flat.dtype == np.bool_:
        return np.where(flat, "true", "false").tolist()
    if flat.dtype.kind != "f":
        return flat.astype(str).tolist()
    flat = flat.astype(np.float32)
    literals = np.char.add(flat.astype(str), "f").tolist()
    for k in np.flatnonzero(~np.isfinite(flat)).tolist():
        value = "quiet_NaN()" if np.isnan(flat[k]) else "infinity()"
        literals[k] = ("-" if flat[k] < 0 else "") + f"std::numeric_limits<float>::{value}"
    return literals


_LITERALS_PER_LINE = 8


def _print_constant_tables(ctx: HostContext, program: poplar.HostProgramOp) -> None:
    """One table of values per constant, in its host type (`_constant_cpp_type`)."""
    for op in program.build_body.block.ops:
        if not isinstance(op, poplar.AddConstantOp):
            continue
        name = ctx.constants[op] = ctx.names.fresh(f"{op.debug_name.data}_values")
        literals = _literals(value_array(op.value))
        with ctx.descend(f"const {_constant_cpp_type(op.value.get_element_type())} {name}[] =", "};"):
            for k in range(0, len(literals), _LITERALS_PER_LINE):
                ctx.line(", ".join(literals[k : k + _LITERALS_PER_LINE]) + ",")


def _for_each_block(ctx: HostContext, tile_map: poplar.TileMapAttr | poplar.GridMapAttr):
    """A loop over the blocks of a tile map (or the boxes of a grid map), the body a
    lambda of `block`."""
    if isinstance(tile_map, poplar.GridMapAttr):
        axes = ", ".join(
            f"grid_axis({ctx.tile_maps[_runs(d)]}, {d.start}, {s})" for d, s in zip(tile_map.dim_maps(), tile_map.tile_strides())
        )
        return ctx.descend(f"for_each_box({{{axes}}}, [&](const GridBlock &block)", "});")
    start = f", {tile_map.start}" if tile_map.start else ""
    return ctx.descend(f"for_each_block({ctx.tile_maps[_runs(tile_map)]}, [&](const TileBlock &block)", f"}}{start});")


def _box(ring: list[tuple[int, int]]) -> str:
    """`{begin}, {end}` of the current grid block widened by a halo of `ring` (before,
    after per dimension), for Tensor::slice."""
    begin = ", ".join(f"block.begin[{d}] - {lo}" if lo else f"block.begin[{d}]" for d, (lo, _) in enumerate(ring))
    end = ", ".join(f"block.end[{d}] + {hi}" if hi else f"block.end[{d}]" for d, (_, hi) in enumerate(ring))
    return f"{{{begin}}}, {{{end}}}"


def _runs(tile_map: poplar.TileMapAttr) -> tuple:
    """A table of runs serves every tile map with those runs, whatever its start."""
    return tuple(tile_map.runs())


def _map_tensor(ctx: HostContext, op: poplar.MapTensorOp) -> None:
    if not poplar.tensor_type(op.tensor).get_shape():
        ctx.line(f"graph.setTileMapping({ctx[op.tensor]}, {op.tile_map.runs()[0].first});")
        return
    grid = isinstance(op.tile_map, poplar.GridMapAttr)
    base = _per_block_base(ctx, op.tensor, "grid" if grid else "flat")
    with _for_each_block(ctx, op.tile_map):
        if grid:
            ctx.line(f"graph.setTileMapping({base}.slice({_box([(0, 0)] * op.tile_map.rank)}), block.tile);")
        else:
            ctx.line(f"graph.setTileMapping({base}.slice(block.begin, block.end), block.tile);")


def _add_remote_buffer(ctx: PrintContext, op: poplar.AddRemoteBufferOp) -> None:
    """`Graph::addRemoteBuffer(handle, elementType, numElements, repeats)` (the call
    shape of public SDK code, e.g. graphcore/examples; rearrangeOnHost and
    optimiseMemory keep their defaults)."""
    name = ctx.bind(op.result, f"{op.handle.data}_buffer", "buffer")
    t = op.result.type
    assert isinstance(t, poplar.RemoteBufferType)
    ctx.line(
        f"poplar::RemoteBuffer {name} = graph.addRemoteBuffer({cpp_string(op.handle.data)}, "
        f"poplar::{poplar.poplar_type_name(t.element_type)}, {t.elements}, {t.repeats});"
    )


def _remote_copy(ctx: PrintContext, op: poplar.RemoteLoadOp | poplar.RemoteStoreOp) -> None:
    """`program::Copy(buffer, dst, offset)` or `Copy(src, buffer, offset)` (Poplar API
    reference, class poplar::program::Copy): the tensor flattened to the repeat's
    elements, the i32 repeat index seen as the UNSIGNED_INT the dynamic slices read
    (the offset's type is unverified: public code passes INT and UNSIGNED_INT tensors)."""
    tensor = _flat(ctx, op.tensor)
    offset = f"{ctx[op.offset]}.reinterpret(poplar::UNSIGNED_INT)"
    if isinstance(op, poplar.RemoteLoadOp):
        _program(ctx, op.result, "Copy", "load", ctx[op.buffer], tensor, offset)
    else:
        _program(ctx, op.result, "Copy", "store", tensor, ctx[op.buffer], offset)


def _add_compute_set(ctx: PrintContext, op: poplar.AddComputeSetOp) -> None:
    name = ctx.bind(op.result, f"cs_{op.debug_name.data}")
    ctx.line(f"poplar::ComputeSet {name} = graph.addComputeSet({cpp_string(op.debug_name.data)});")


def _connected(ctx: HostContext, tensor: SSAValue, rule: poplar.SliceAttr, grid: bool = False) -> str:
    """The tensor one vertex connects, from its block (or its box, over a grid map);
    what it is sliced from is built before the loop (`_per_block_base`)."""
    if rule.is_whole:
        return _per_block_base(ctx, tensor)
    if grid:
        box = _box(rule.ring(len(poplar.tensor_type(tensor).get_shape())))
        return f"{_per_block_base(ctx, tensor, 'grid')}.slice({box}).flatten()"
    if rule.is_partial:
        return f"{_per_block_base(ctx, tensor)}[block.index]"
    if rule.kind.data == "partials":
        n = rule.size
        return f"{_per_block_base(ctx, tensor)}.slice(block.index * {n}, block.index * {n} + {n})"
    if rule.kind.data == "rows":
        return f"{_per_block_base(ctx, tensor)}.slice(block.begin * {rule.size}, block.end * {rule.size})"
    if rule.kind.data == "columns":
        rows = poplar.tensor_type(tensor).num_elements() // rule.size
        matrix = _per_block_base(ctx, tensor, (rows, rule.size))
        return f"{matrix}.slice({{0, block.begin}}, {{{rows}, block.end}}).flatten()"
    lo, hi = rule.halo
    begin = f"block.begin - {lo}" if lo else "block.begin"
    end = f"block.end + {hi}" if hi else "block.end"
    return f"{_per_block_base(ctx, tensor)}.slice({begin}, {end})"


def _add_vertices(ctx: HostContext, op: poplar.AddVerticesOp) -> None:
    codelet = op.codelet.root_reference.data
    cycles = op.run_cycles()
    estimate = str(cycles[0])
    if len(set(cycles)) > 1:
        estimate = ctx.names.fresh(f"{codelet}_cycles")
        ctx.line(f"static const std::uint64_t {estimate}[] = {{{', '.join(map(str, cycles))}}};")
        estimate += "[block.run]"
    grid = isinstance(op.tile_map, poplar.GridMapAttr)
    body = poplar.codelet_named(op, codelet).body.block  # type: ignore[union-attr]
    connected = [_connected(ctx, tensor, rule, grid) for tensor, rule in zip(op.tensors, op.rules.data)]
    with _for_each_block(ctx, op.tile_map):
        ctx.line(f"poplar::VertexRef vertex = graph.addVertex({ctx[op.compute_set]}, {cpp_string(codelet)});")
        ctx.line("graph.setTileMapping(vertex, block.tile);")
        for name, edge in zip(op.names(), connected):
            ctx.line(f"graph.connect(vertex[{cpp_string(name)}], {edge});")
        if uses_block_start(body):
            ctx.line(f'graph.setInitialValue(vertex["{BLOCK_START}"], static_cast<unsigned>({_block_start(op)}));')
        for dim in block_extents(body):
            extent = f"block.end[{dim}] - block.begin[{dim}]"
            ctx.line(f'graph.setInitialValue(vertex["{BLOCK_EXTENT}{dim}"], static_cast<unsigned>({extent}));')
        ctx.line(f"graph.setPerfEstimate(vertex, {estimate});")


def _block_start(op: poplar.AddVerticesOp) -> str:
    """The row-major index of the block's first element (of its box's, over a grid)."""
    if not isinstance(op.tile_map, poplar.GridMapAttr):
        return "block.begin"
    shape = next(poplar.tensor_type(t).get_shape() for t, r in zip(op.tensors, op.rules.data) if not r.is_whole)
    terms = [f"block.begin[{d}] * {prod(shape[d + 1 :])}" for d in range(len(shape) - 1)]
    return " + ".join([*terms, f"block.begin[{len(shape) - 1}]"])


def _create_host_write(ctx: PrintContext, op: poplar.CreateHostWriteOp) -> None:
    ctx.line(f"graph.createHostWrite({cpp_string(op.handle.data)}, {ctx[op.tensor]});")


def _create_host_read(ctx: PrintContext, op: poplar.CreateHostReadOp) -> None:
    ctx.line(f"graph.createHostRead({cpp_string(op.handle.data)}, {ctx[op.tensor]});")


def _program(ctx: PrintContext, result: SSAValue, cpp_class: str, hint: str, *args: str) -> None:
    """`poplar::program::<cpp_class> <name>(args...);`, the name bound to `result`."""
    name = ctx.bind(result, hint)
    ctx.line(f"poplar::program::{cpp_class} {name}({', '.join(args)});")


def _execute(ctx: PrintContext, op: poplar.ExecuteOp) -> None:
    _program(ctx, op.result, "Execute", f"run_{ctx[op.compute_set]}", ctx[op.compute_set])


def _copy(ctx: PrintContext, op: poplar.CopyOp) -> None:
    _program(ctx, op.result, "Copy", "copy", ctx[op.source], ctx[op.destination])


def _sequence(ctx: PrintContext, op: poplar.SequenceOp) -> None:
    name = ctx.bind(op.result, "program")
    ctx.line(f"poplar::program::Sequence {name};")
    for program in op.programs:
        ctx.line(f"{name}.add({ctx[program]});")


def _repeat(ctx: PrintContext, op: poplar.RepeatOp) -> None:
    _program(ctx, op.result, "Repeat", "loop", str(op.count.value.data), ctx[op.body])


def _repeat_while_true(ctx: PrintContext, op: poplar.RepeatWhileTrueOp) -> None:
    _program(ctx, op.result, "RepeatWhileTrue", "loop", ctx[op.cond], ctx[op.predicate], ctx[op.body])


def _if(ctx: PrintContext, op: poplar.IfOp) -> None:
    _program(ctx, op.result, "If", "branch", ctx[op.predicate], ctx[op.then_body], ctx[op.else_body])


def _dynamic(ctx: PrintContext, op: poplar.DynamicSliceOp | poplar.DynamicUpdateOp) -> None:
    """A program of one poplibs call: the slice seen with the box's shape, the i32
    offsets concatenated and seen as the UNSIGNED_INT poplibs reads."""
    update = isinstance(op, poplar.DynamicUpdateOp)
    name = ctx.bind(op.result, "update" if update else "slice")
    box = ", ".join(map(str, op.box_shape()))
    slice_ = ctx[op.slice]
    if list(poplar.tensor_type(op.slice).get_shape()) != op.box_shape():
        slice_ = f"{slice_}.reshape({{{box}}})"
    offsets = ", ".join(f"{ctx[o]}.reshape({{1}})" for o in op.offsets)
    offset = f"poplar::concat({{{offsets}}}).reinterpret(poplar::UNSIGNED_INT)"
    dims = "{" + ", ".join(map(str, op.dim_list())) + "}"
    sizes = "{" + ", ".join(map(str, op.size_list())) + "}"
    ctx.line(f"poplar::program::Sequence {name};")
    if update:
        ctx.line(f"popops::dynamicUpdate(graph, {ctx[op.tensor]}, {slice_}, {offset}, {dims}, {sizes}, {name});")
    else:
        ctx.line(f"popops::dynamicSliceWithOutput(graph, {slice_}, {ctx[op.tensor]}, {offset}, {dims}, {sizes}, {name});")


def _matmul(ctx: PrintContext, op: poplar.MatmulOp) -> None:
    """A program of poplibs calls, as a poplibs user writes C = alpha op(A) op(B) + beta C
    (graphcore/poplibs sdk-release-3.3, include/poplin/MatMul.hpp:125-130, 190-195,
    243-248, 288-293; include/popops/ElementWise.hpp:2159-2171):

    - beta = 0: `matMulWithOutput` (`matMulGroupedWithOutput` for groups) into C, then
      `popops::mulInPlace(C, alpha)` when alpha != 1;
    - beta != 0: `popops::mulInPlace(C, beta)` when beta != 1, then
      `matMulAcc(C, alpha, A, B)` (`matMulGroupedAcc`): C += alpha A B.

    A transpose is a free view (`.transpose()`, `.dimShuffle({0, 2, 1})` of groups). A
    vector is a matrix of one row on the left (`x @ A`, a dot product), of one column on
    the right (`A @ x`), and the result is seen likewise ([rows, columns]). The output
    of the WithOutput forms is a named tensor: poplin takes it by non-const reference.
    float32 partials (poplin's default, stated) accumulate float16 products."""
    name = ctx.bind(op.result, "matmul")
    groups, rows, inner, columns = op.sizes()
    operands = [ctx[op.lhs], ctx[op.rhs], ctx[op.out]]
    shapes = [op.operand_shape(k) for k in range(3)]
    if len(shapes[0]) == 1:
        operands[0] += f".reshape({{1, {inner}}})"
    if len(shapes[1]) == 1:
        operands[1] += f".reshape({{{inner}, 1}})"
    if len(shapes[2]) < 2:
        operands[2] += f".reshape({{{rows}, {columns}}})"
    grouped = op.is_grouped()
    for k in (0, 1):
        if op.transposed(k):
            operands[k] += ".dimShuffle({0, 2, 1})" if grouped else ".transpose()"
    lhs, rhs, out = operands
    label = op.label.data
    options = 'poplar::OptionFlags{{"partialsType", "float"}}'
    ctx.line(f"poplar::program::Sequence {name};")
    alpha, beta = op.alpha_value(), op.beta_value()
    form = "matMulGrouped" if grouped else "matMul"
    if beta == 0:
        result = ctx.names.fresh(f"{name}_out", "out")
        ctx.line(f"poplar::Tensor {result} = {out};")
        ctx.line(f"poplin::{form}WithOutput(graph, {lhs}, {rhs}, {result}, {name}, {cpp_string(label)}, {options});")
        if alpha != 1:
            ctx.line(f"popops::mulInPlace(graph, {result}, {float_literal(alpha)}, {name}, {cpp_string(label + '/alpha')});")
        return
    if beta != 1:
        ctx.line(f"popops::mulInPlace(graph, {out}, {float_literal(beta)}, {name}, {cpp_string(label + '/beta')});")
    ctx.line(
        f"poplin::{form}Acc(graph, {out}, {float_literal(alpha)}, {lhs}, {rhs}, {name}, {cpp_string(label)}, {options});"
    )


def _reduce(ctx: PrintContext, op: poplar.ReduceOp) -> None:
    """A program of one popops call writing into the output (include/popops/Reduce.hpp:
    125-130 in graphcore/poplibs), `update` stated either way. float16 sums and
    products accumulate in float: popops' default, stated in the options (Reduce.hpp:
    66-83), which popops does not offer for float16 MIN and MAX (Reduce.hpp:90)."""
    name = ctx.bind(op.result, "reduce")
    dims = "{" + ", ".join(map(str, op.dim_list())) + "}"
    update = "true" if op.is_update() else "false"
    params = f"popops::ReduceParams(popops::Operation::{POPOPS_OPERATION[op.kind.data]}, {update})"
    widened = accumulator_type(op.kind.data, op.element()) != op.element()  # float16 into float32
    options = '{{"accumType.interTile", "float"}, {"accumType.inVertex", "float"}}' if widened else "{}"
    ctx.line(f"poplar::program::Sequence {name};")
    ctx.line(
        f"popops::reduceWithOutput(graph, {ctx[op.input]}, {ctx[op.out]}, {dims}, {params}, {name}, "
        f"{cpp_string(op.label.data)}, poplar::OptionFlags{options});"
    )


def _scaled_add(ctx: PrintContext, op: poplar.ScaledAddOp) -> None:
    """A program of one popops call, the scale a tensor (include/popops/ScaledAdd.hpp:
    79-82, 129-132 in graphcore/poplibs)."""
    name = ctx.bind(op.result, "scaled")
    call = "scaledSubtractFrom" if op.subtract else "scaledAddTo"
    ctx.line(f"poplar::program::Sequence {name};")
    ctx.line(
        f"popops::{call}(graph, {ctx[op.target]}, {ctx[op.source]}, {ctx[op.scale]}, {name}, {cpp_string(op.label.data)});"
    )


def _map(ctx: PrintContext, op: poplar.MapOp) -> None:
    """A program of one popops call of a unary or binary expression op
    (include/popops/ElementWise.hpp:201-210, 241-262 in graphcore/poplibs)."""
    name = ctx.bind(op.result, "map")
    kind = "BinaryOpType" if len(op.inputs) == 2 else "UnaryOpType"
    inputs = ", ".join(ctx[v] for v in op.inputs)
    ctx.line(f"poplar::program::Sequence {name};")
    if op.in_place():
        ctx.line(f"popops::mapInPlace(graph, popops::expr::{kind}::{op.op.data}, {inputs}, {name}, {cpp_string(op.label.data)});")
    else:
        ctx.line(
            f"popops::mapWithOutput(graph, popops::expr::{kind}::{op.op.data}, {inputs}, {ctx[op.out]}, {name}, "
            f"{cpp_string(op.label.data)});"
        )


def _cast(ctx: PrintContext, op: poplar.CastOp) -> None:
    """The program popops::cast returns (include/popops/Cast.hpp:86-88 in graphcore/poplibs)."""
    name = ctx.bind(op.result, "cast")
    ctx.line(
        f"poplar::program::Program {name} = popops::cast(graph, {ctx[op.source]}, {ctx[op.destination]}, "
        f"{cpp_string(op.label.data)});"
    )


def _engine(ctx: PrintContext, op: poplar.EngineOp) -> None:
    ctx.line(f"poplar::Engine engine(graph, {ctx[op.program]});")
    ctx.line("engine.load(device);")


_BUILD_PRINTERS: dict[type[Operation], Callable[[PrintContext, Operation], None]] = {
    poplar.FlattenOp: _view,
    poplar.SliceOp: _view,
    poplar.SliceBoxOp: _view,
    poplar.ReshapeOp: _view,
    poplar.DimShuffleOp: _view,
    poplar.BroadcastOp: _view,
    poplar.AddVariableOp: _add_variable,  # type: ignore[dict-item]
    poplar.AddConstantOp: _add_constant,  # type: ignore[dict-item]
    poplar.MapTensorOp: _map_tensor,  # type: ignore[dict-item]
    poplar.AddComputeSetOp: _add_compute_set,  # type: ignore[dict-item]
    poplar.AddVerticesOp: _add_vertices,  # type: ignore[dict-item]
    poplar.CreateHostWriteOp: _create_host_write,  # type: ignore[dict-item]
    poplar.CreateHostReadOp: _create_host_read,  # type: ignore[dict-item]
    poplar.ExecuteOp: _execute,  # type: ignore[dict-item]
    poplar.CopyOp: _copy,  # type: ignore[dict-item]
    poplar.AddRemoteBufferOp: _add_remote_buffer,  # type: ignore[dict-item]
    poplar.RemoteLoadOp: _remote_copy,  # type: ignore[dict-item]
    poplar.RemoteStoreOp: _remote_copy,  # type: ignore[dict-item]
    poplar.SequenceOp: _sequence,  # type: ignore[dict-item]
    poplar.RepeatOp: _repeat,  # type: ignore[dict-item]
    poplar.RepeatWhileTrueOp: _repeat_while_true,  # type: ignore[dict-item]
    poplar.IfOp: _if,  # type: ignore[dict-item]
    poplar.DynamicSliceOp: _dynamic,  # type: ignore[dict-item]
    poplar.DynamicUpdateOp: _dynamic,  # type: ignore[dict-item]
    poplar.MatmulOp: _matmul,  # type: ignore[dict-item]
    poplar.ReduceOp: _reduce,  # type: ignore[dict-item]
    poplar.ScaledAddOp: _scaled_add,  # type: ignore[dict-item]
    poplar.MapOp: _map,  # type: ignore[dict-item]
    poplar.CastOp: _cast,  # type: ignore[dict-item]
    poplar.EngineOp: _engine,  # type: ignore[dict-item]
}


def _print_tile_map_tables(ctx: HostContext, program: poplar.HostProgramOp) -> None:
    """One table of runs per distinct tile map the build region loops over."""
    for op in program.build_body.block.ops:
        tile_map = op.properties.get("tile_map")
        if isinstance(op, poplar.MapTensorOp) and not poplar.tensor_type(op.tensor).get_shape():
            continue  # a scalar is mapped directly
        if isinstance(tile_map, poplar.GridMapAttr):
            maps = tile_map.dim_maps()
        else:
            maps = [tile_map] if isinstance(tile_map, poplar.TileMapAttr) else []
        for one in maps:
            if _runs(one) in ctx.tile_maps:
                continue
            name = ctx.names.fresh(f"tile_map_{len(ctx.tile_maps)}")
            ctx.tile_maps[_runs(one)] = name
            runs = ", ".join(f"{{{r.first}, {r.end}, {r.count}}}" for r in one.runs())
            ctx.line(f"const TileRun {name}[] = {{{runs}}};")


@contextmanager
def _guarded(ctx: PrintContext, function: str, last_error: str) -> Iterator[None]:
    """A try block whose exception becomes a return code of 1 and the last error message."""
    ctx.line("try {")
    with ctx.indented():
        yield
    ctx.line("} catch (const std::exception &error) {")
    ctx.line(f'  {last_error} = std::string("{function}: ") + error.what();')
    ctx.line("  return 1;")
    ctx.line("}")
    ctx.line("return 0;")


def _run_statement(ctx: PrintContext, op: Operation, args: dict[str, tuple[str, MemRefType]]) -> None:
    if isinstance(op, poplar.RunOp):
        ctx.line(f"engine.run({op.program_index.value.data});")
        return
    if isinstance(op, poplar.CopyToRemoteBufferOp | poplar.CopyFromRemoteBufferOp):
        _remote_transfer(ctx, op, args[op.argument.data][0])
        return
    assert isinstance(op, poplar.WriteTensorOp | poplar.ReadTensorOp)
    cname, memref = args[op.argument.data]
    count = 1
    for d in memref.get_shape():
        count *= d
    begin = f"&{cname}" if not memref.get_shape() else cname
    method = "writeTensor" if isinstance(op, poplar.WriteTensorOp) else "readTensor"
    ctx.line(f"engine.{method}({cpp_string(op.handle.data)}, {begin}, {begin} + {count});")


def _remote_transfer(ctx: PrintContext, op: poplar.CopyToRemoteBufferOp | poplar.CopyFromRemoteBufferOp, arg: str) -> None:
    """The argument moved repeat by repeat: `Engine::copyToRemoteBuffer(data, handle,
    repeatIndex)` and `copyFromRemoteBuffer(handle, data, repeatIndex)` (the argument
    order of public SDK code, e.g. graphcore/popart willow/include/popart/popx/devicex.hpp;
    the replication index keeps its default 0)."""
    buffer = op.remote_buffer()
    handle = cpp_string(op.handle.data)
    with ctx.descend(f"for (std::size_t repeat = 0; repeat < {buffer.repeats}; ++repeat)"):
        data = f"{arg} + repeat * {buffer.elements}"
        if isinstance(op, poplar.CopyToRemoteBufferOp):
            ctx.line(f"engine.copyToRemoteBuffer({data}, {handle}, repeat);")
        else:
            ctx.line(f"engine.copyFromRemoteBuffer({handle}, {data}, repeat);")


def abi_arguments(program: poplar.HostProgramOp) -> list[dict]:
    """The arguments of `<prefix>_run` in order, as program.json lists them and
    `<prefix>_signature` returns them: name, numpy dtype, shape and whether the run
    writes it back."""
    read_back = {
        op.argument.data
        for op in program.run_body.block.ops
        if isinstance(op, poplar.ReadTensorOp | poplar.CopyFromRemoteBufferOp)
    }
    return [
        {
            "name": name,
            "dtype": element_type(memref.element_type).numpy,  # type: ignore[union-attr]
            "shape": list(memref.get_shape()),
            "output": name in read_back,
        }
        for name, memref in program.argument_list()
    ]


def program_prefix(program: poplar.HostProgramOp) -> str:
    """The prefix of the C ABI functions (ABI_FUNCTIONS): `<prefix>_init`, `<prefix>_run`, ..."""
    return c_identifier(program.sym_name.data, "sdfg")


def print_host(output: IO[str], program: poplar.HostProgramOp) -> None:
    ctx = HostContext(output)
    prefix = program_prefix(program)
    state = f"{prefix}_state"
    last_error = f"{prefix}_error"
    ctx.names.taken.update(
        {f"{prefix}_{n}" for n in (*ABI_FUNCTIONS, "context")} | {state, last_error}
    )
    args: dict[str, tuple[str, MemRefType]] = {}
    params = []
    counts: dict[str, str] = {}  # the parameter giving each array's element count
    arg_names = UniqueNames(tuple(ctx.names.taken))  # only the run function sees them
    for name, memref in program.argument_list():
        cname = arg_names.fresh(name, "arg")
        args[name] = (cname, memref)
        t = host_type(memref.element_type)
        if memref.get_shape():
            counts[name] = arg_names.fresh(f"{cname}_count")
            params += [f"{t} *{cname}", f"std::size_t {counts[name]}"]
        else:
            params.append(f"{t} {cname}")

    ctx.line(f"// Host program of SDFG '{program.sym_name.data}' for {program.arch.data}, generated by ipu-lower.")
    ops = program.build_body.block.ops
    slices = any(isinstance(op, poplar.DynamicSliceOp | poplar.DynamicUpdateOp) for op in ops)
    reduces = any(isinstance(op, poplar.ReduceOp) for op in ops)
    poplin = any(isinstance(op, poplar.MatmulOp) for op in ops)
    scales = any(isinstance(op, poplar.MatmulOp) and op.scales_c() for op in ops)
    scaled_adds = any(isinstance(op, poplar.ScaledAddOp) for op in ops)
    maps = any(isinstance(op, poplar.MapOp) for op in ops)
    casts = any(isinstance(op, poplar.CastOp) for op in ops)
    popops = slices or reduces or scales or scaled_adds or maps or casts
    constants = any(isinstance(op, poplar.AddConstantOp) for op in ops)
    includes = (
        HOST_INCLUDES
        + (DYNAMIC_SLICE_INCLUDES if slices else ())
        + (REDUCE_INCLUDES if reduces else ())
        + (ELEMENTWISE_INCLUDES if scales or maps else ())
        + (SCALED_ADD_INCLUDES if scaled_adds else ())
        + (CAST_INCLUDES if casts else ())
        + (POPOPS_INCLUDES if popops else ())
        + (POPLIN_INCLUDES if poplin else ())
        + (CONSTANT_INCLUDES if constants else ())
    )
    for include in includes:
        ctx.line(f"#include {include}")
    ctx.line()
    ctx.line("namespace {")
    ctx.line()
    for line in (ATTACH_FUNCTION + "\n\n" + CHECK_COUNT_FUNCTION).splitlines():
        ctx.line(line)
    ctx.line()
    for line in TILE_MAPS.splitlines():
        ctx.line(line)
    ctx.line()
    _print_tile_map_tables(ctx, program)
    ctx.line()
    if constants:
        _print_constant_tables(ctx, program)
        ctx.line()
    with ctx.descend(f"struct {prefix}_context", "};"):
        ctx.line("poplar::Device device;")
        ctx.line("poplar::Engine engine;")
    ctx.line(f"std::unique_ptr<{prefix}_context> {state};")
    ctx.line(f"std::string {last_error};")
    ctx.line()
    ctx.line("}  // namespace")
    ctx.line()
    ctx.line("// Builds the graph and the Engine once; 0 on success.")
    with ctx.descend(f'extern "C" int {prefix}_init(const char *codelets_path)'):
        with _guarded(ctx, f"{prefix}_init", last_error):
            ctx.line(f"poplar::Device device = ipu_lower_attach({cpp_string(program.arch.data)});")
            ctx.line("poplar::Graph graph(device.getTarget());")
            ctx.line("graph.addCodelets(codelets_path);")
            if popops:
                ctx.line("popops::addCodelets(graph);")
            if poplin:
                ctx.line("poplin::addCodelets(graph);")
            for op in program.build_body.block.ops:
                _BUILD_PRINTERS[type(op)](ctx, op)
            ctx.line(f"{state}.reset(new {prefix}_context{{std::move(device), std::move(engine)}});")
    ctx.line()
    ctx.line("// Runs the program on the given data; any number of times after init. Each array")
    ctx.line("// comes with its element count: a count other than the compiled one is an error")
    ctx.line("// before anything is read or written.")
    with ctx.descend(f'extern "C" int {prefix}_run({", ".join(params) or "void"})'):
        with ctx.descend(f"if (!{state})"):
            ctx.line(f'{last_error} = "{prefix}_run: {prefix}_init has not succeeded";')
            ctx.line("return 1;")
        for name, count in counts.items():
            cname, memref = args[name]
            check = f"{last_error}, {cpp_string(prefix + '_run')}, {cpp_string(name)}, {cname}, {count}, {prod(memref.get_shape())}"
            ctx.line(f"if (!ipu_lower_check_count({check})) return 1;")
        with _guarded(ctx, f"{prefix}_run", last_error):
            ctx.line(f"poplar::Engine &engine = {state}->engine;")
            for op in program.run_body.block.ops:
                _run_statement(ctx, op, args)
    ctx.line()
    ctx.line("// The arguments of run as JSON: name, dtype, shape and output of each, in order.")
    with ctx.descend(f'extern "C" const char *{prefix}_signature(void)'):
        ctx.line(f"return {cpp_string(json.dumps(abi_arguments(program)))};")
    ctx.line()
    ctx.line("// Why the last init or run returned 1.")
    with ctx.descend(f'extern "C" const char *{prefix}_last_error(void)'):
        ctx.line(f"return {last_error}.c_str();")
    ctx.line()
    ctx.line("// Releases the Engine and the device.")
    with ctx.descend(f'extern "C" void {prefix}_exit(void)'):
        with ctx.descend(f"if ({state})"):
            ctx.line(f"poplar::Device device = std::move({state}->device);")
            ctx.line(f"{state}.reset();")
            ctx.line("device.detach();")
