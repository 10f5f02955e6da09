"""Print a `poplar.host_program` as host.cpp: init / run / exit behind a C ABI.

Each build-region op has a short printing function, found through `_BUILD_PRINTERS`.
Views (`poplar.flatten`, `poplar.slice`) are printed inline where they are used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation

from ipu_lower.dialects import poplar
from ipu_lower.names import UniqueNames, c_identifier
from ipu_lower.targets.cpp_expr import cpp_type
from ipu_lower.targets.host_tables import print_table_run
from ipu_lower.targets.print_context import PrintContext, cpp_string

# Names the host template uses; generated names must not collide with them.
HOST_RESERVED = (
    "graph", "device", "engine", "codelets_path", "error", "state", "arch", "row", "vertex",
    "ipu_lower_attach", "std", "poplar", "main",
)

HOST_INCLUDES = (
    "<cstddef>", "<cstdint>", "<cstdlib>", "<exception>", "<memory>", "<stdexcept>",
    "<string>", "<utility>", "<poplar/DeviceManager.hpp>", "<poplar/Engine.hpp>",
    "<poplar/Graph.hpp>", "<poplar/IPUModel.hpp>", "<poplar/Program.hpp>",
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

# Host-side pointee types: HALF data crosses the ABI as raw IEEE binary16 words.
def host_type(t) -> str:
    return "std::uint16_t" if str(t) == "f16" else cpp_type(t)


def _view(ctx: PrintContext, op: Operation) -> None:
    if isinstance(op, poplar.FlattenOp):
        ctx.values[op.result] = f"{ctx[op.tensor]}.flatten()"
    elif isinstance(op, poplar.SliceOp):
        ctx.values[op.result] = f"{ctx[op.tensor]}.slice({op.begin.value.data}, {op.end.value.data})"


def _add_variable(ctx: PrintContext, op: poplar.AddVariableOp) -> None:
    name = ctx.bind(op.result, op.debug_name.data, "tensor")
    shape = ", ".join(str(d) for d in op.shape.get_values())
    type_name = poplar.POPLAR_TYPES[op.element_type]
    ctx.line(
        f"poplar::Tensor {name} = graph.addVariable(poplar::{type_name}, {{{shape}}}, "
        f"{cpp_string(op.debug_name.data)});"
    )


def _set_tile_mapping(ctx: PrintContext, op: poplar.SetTileMappingOp) -> None:
    ctx.line(f"graph.setTileMapping({ctx[op.target]}, {op.tile.value.data});")


def _add_compute_set(ctx: PrintContext, op: poplar.AddComputeSetOp) -> None:
    name = ctx.bind(op.result, f"cs_{op.debug_name.data}")
    ctx.line(f"poplar::ComputeSet {name} = graph.addComputeSet({cpp_string(op.debug_name.data)});")


def _add_vertex(ctx: PrintContext, op: poplar.AddVertexOp) -> None:
    name = ctx.bind(op.result, "vertex")
    ctx.line(
        f"poplar::VertexRef {name} = graph.addVertex({ctx[op.compute_set]}, "
        f"{cpp_string(op.codelet.data)});"
    )


def _connect(ctx: PrintContext, op: poplar.ConnectOp) -> None:
    ctx.line(f"graph.connect({ctx[op.vertex]}[{cpp_string(op.field.data)}], {ctx[op.tensor]});")


def _set_perf_estimate(ctx: PrintContext, op: poplar.SetPerfEstimateOp) -> None:
    ctx.line(f"graph.setPerfEstimate({ctx[op.vertex]}, {op.cycles.value.data});")


def _create_host_write(ctx: PrintContext, op: poplar.CreateHostWriteOp) -> None:
    ctx.line(f"graph.createHostWrite({cpp_string(op.handle.data)}, {ctx[op.tensor]});")


def _create_host_read(ctx: PrintContext, op: poplar.CreateHostReadOp) -> None:
    ctx.line(f"graph.createHostRead({cpp_string(op.handle.data)}, {ctx[op.tensor]});")


def _execute(ctx: PrintContext, op: poplar.ExecuteOp) -> None:
    name = ctx.bind(op.result, f"run_{ctx[op.compute_set]}")
    ctx.line(f"poplar::program::Execute {name}({ctx[op.compute_set]});")


def _copy(ctx: PrintContext, op: poplar.CopyOp) -> None:
    name = ctx.bind(op.result, "copy")
    ctx.line(f"poplar::program::Copy {name}({ctx[op.source]}, {ctx[op.destination]});")


def _sequence(ctx: PrintContext, op: poplar.SequenceOp) -> None:
    name = ctx.bind(op.result, "program")
    ctx.line(f"poplar::program::Sequence {name};")
    for program in op.programs:
        ctx.line(f"{name}.add({ctx[program]});")


def _engine(ctx: PrintContext, op: poplar.EngineOp) -> None:
    ctx.line(f"poplar::Engine engine(graph, {ctx[op.program]});")
    ctx.line("engine.load(device);")


_BUILD_PRINTERS: dict[type[Operation], Callable[[PrintContext, Operation], None]] = {
    poplar.FlattenOp: _view,
    poplar.SliceOp: _view,
    poplar.AddVariableOp: _add_variable,  # type: ignore[dict-item]
    poplar.SetTileMappingOp: _set_tile_mapping,  # type: ignore[dict-item]
    poplar.AddComputeSetOp: _add_compute_set,  # type: ignore[dict-item]
    poplar.AddVertexOp: _add_vertex,  # type: ignore[dict-item]
    poplar.ConnectOp: _connect,  # type: ignore[dict-item]
    poplar.SetPerfEstimateOp: _set_perf_estimate,  # type: ignore[dict-item]
    poplar.CreateHostWriteOp: _create_host_write,  # type: ignore[dict-item]
    poplar.CreateHostReadOp: _create_host_read,  # type: ignore[dict-item]
    poplar.ExecuteOp: _execute,  # type: ignore[dict-item]
    poplar.CopyOp: _copy,  # type: ignore[dict-item]
    poplar.SequenceOp: _sequence,  # type: ignore[dict-item]
    poplar.EngineOp: _engine,  # type: ignore[dict-item]
}


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
    assert isinstance(op, poplar.WriteTensorOp | poplar.ReadTensorOp)
    cname, memref = args[op.argument.data]
    count = 1
    for d in memref.get_shape():
        count *= d
    begin = f"&{cname}" if not memref.get_shape() else cname
    method = "writeTensor" if isinstance(op, poplar.WriteTensorOp) else "readTensor"
    ctx.line(f"engine.{method}({cpp_string(op.handle.data)}, {begin}, {begin} + {count});")


def program_prefix(program: poplar.HostProgramOp) -> str:
    """The prefix of the C ABI functions: `<prefix>_init`, `<prefix>_run`, `<prefix>_exit`."""
    return c_identifier(program.sym_name.data, "sdfg")


def print_host(ctx: PrintContext, program: poplar.HostProgramOp) -> None:
    prefix = program_prefix(program)
    state = f"{prefix}_state"
    last_error = f"{prefix}_error"
    ctx.names.taken.update(
        {f"{prefix}_{n}" for n in ("init", "run", "exit", "last_error", "context")} | {state, last_error}
    )
    args: dict[str, tuple[str, MemRefType]] = {}
    params = []
    arg_names = UniqueNames(tuple(ctx.names.taken))  # only the run function sees them
    for name, memref in program.argument_list():
        cname = arg_names.fresh(name, "arg")
        args[name] = (cname, memref)
        t = host_type(memref.element_type)
        params.append(f"{t} {cname}" if not memref.get_shape() else f"{t} *{cname}")

    ctx.line(f"// Host program of SDFG '{program.sym_name.data}' for {program.arch.data}, generated by ipu-lower.")
    for include in HOST_INCLUDES:
        ctx.line(f"#include {include}")
    ctx.line()
    ctx.line("namespace {")
    ctx.line()
    for line in ATTACH_FUNCTION.splitlines():
        ctx.line(line)
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
            ops = list(program.build_body.block.ops)
            i = 0
            while i < len(ops):
                after_run = print_table_run(ctx, ops, i)
                if after_run > i:
                    i = after_run
                    continue
                _BUILD_PRINTERS[type(ops[i])](ctx, ops[i])
                i += 1
            ctx.line(
                f"{state}.reset(new {prefix}_context{{std::move(device), std::move(engine)}});"
            )
    ctx.line()
    ctx.line("// Runs the program on the given data; any number of times after init.")
    with ctx.descend(f'extern "C" int {prefix}_run({", ".join(params) or "void"})'):
        with ctx.descend(f"if (!{state})"):
            ctx.line(f'{last_error} = "{prefix}_run: {prefix}_init has not succeeded";')
            ctx.line("return 1;")
        with _guarded(ctx, f"{prefix}_run", last_error):
            ctx.line(f"poplar::Engine &engine = {state}->engine;")
            for op in program.run_body.block.ops:
                _run_statement(ctx, op, args)
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
