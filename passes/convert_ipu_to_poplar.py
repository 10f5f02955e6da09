"""convert-ipu-to-poplar: spell the tile-level program as Poplar API calls.

Each `ipu.graph` becomes a `poplar.host_program`: variables with their tile mappings,
one compute set per `ipu.compute_set` with its vertices (mapped, connected, with a
perf estimate from the cost model), copies, host read/write handles, the program
sequence and the Engine; the run region writes inputs, runs, reads outputs. Each
`ipu.codelet` becomes a `poplar.codelet` next to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from ipu_lower.arch import get_arch
from ipu_lower.cost_model import instructions_per_element, vertex_cycles
from ipu_lower.diagnostics import error
from ipu_lower.dialects import ipu, poplar


def write_handle(name: str) -> str:
    return f"write_{name}"


def read_handle(name: str) -> str:
    return f"read_{name}"


class _HostBuilder:
    def __init__(self, graph: ipu.GraphOp):
        self.graph = graph
        self.arch = get_arch(graph.arch.data)
        self.build_body = Block()
        self.run_body = Block()
        self.tensors: dict[SSAValue, SSAValue] = {}
        self.flat: dict[SSAValue, SSAValue] = {}
        self.codelets: dict[str, ipu.CodeletOp] = {}
        self.programs: list[SSAValue] = []

    def add(self, op: Operation) -> Operation:
        self.build_body.add_op(op)
        return op

    def view(self, tensor: SSAValue, begin: int, end: int) -> SSAValue:
        """The poplar tensor for row-major elements [begin, end) of an ipu tensor."""
        if tensor.type.get_num_dims() == 0:  # type: ignore[union-attr]
            return self.tensors[tensor]
        if (begin, end) == (0, ipu.num_elements(tensor.type)):
            return self.flat[tensor]
        return self.add(poplar.SliceOp(self.flat[tensor], begin, end)).results[0]

    def host_program(self) -> poplar.HostProgramOp:
        for op in self.graph.body.block.ops:
            self.lower(op)
        main = self.add(poplar.SequenceOp(self.programs)).results[0]
        self.add(poplar.EngineOp(main))
        self.run_body.add_op(poplar.RunOp(0))
        for op in self.graph.body.block.ops:
            if isinstance(op, ipu.ToHostOp):
                name = op.tensor.owner.var_name.data  # type: ignore[union-attr]
                self.run_body.add_op(poplar.ReadTensorOp(read_handle(name), name))
        variables = self.graph.variables()
        arguments: list[tuple[str, MemRefType]] = [
            (a.data, variables[a.data].result.type) for a in self.graph.args.data  # type: ignore[misc]
        ]
        return poplar.HostProgramOp(
            self.graph.sym_name.data, self.arch.name, arguments, Region(self.build_body), Region(self.run_body)
        )

    def lower(self, op: Operation) -> None:
        if isinstance(op, ipu.VariableOp):
            self.variable(op)
        elif isinstance(op, ipu.CodeletOp):
            self.codelets[op.sym_name.data] = op
        elif isinstance(op, ipu.FromHostOp):
            name = op.tensor.owner.var_name.data  # type: ignore[union-attr]
            self.add(poplar.CreateHostWriteOp(write_handle(name), self.tensors[op.tensor]))
            self.run_body.add_op(poplar.WriteTensorOp(write_handle(name), name))
        elif isinstance(op, ipu.ToHostOp):
            name = op.tensor.owner.var_name.data  # type: ignore[union-attr]
            self.add(poplar.CreateHostReadOp(read_handle(name), self.tensors[op.tensor]))
        elif isinstance(op, ipu.CopyOp):
            source = self.view(op.source, *op.source_range())
            destination = self.view(op.destination, *op.destination_range())
            self.programs.append(self.add(poplar.CopyOp(source, destination)).results[0])
        elif isinstance(op, ipu.ComputeSetOp):
            self.compute_set(op)
        else:
            raise error(op, f"'{op.name}' cannot be converted to Poplar; run ipu-vertex-extraction first")

    def variable(self, op: ipu.VariableOp) -> None:
        memref = op.result.type
        assert isinstance(memref, MemRefType)
        shape = memref.get_shape()
        tensor = self.add(poplar.AddVariableOp(op.var_name.data, memref.element_type, shape)).results[0]
        self.tensors[op.result] = tensor
        if not shape:
            self.add(poplar.SetTileMappingOp(tensor, 0))
            return
        self.flat[op.result] = (
            tensor if len(shape) == 1 else self.add(poplar.FlattenOp(tensor)).results[0]
        )
        for tile, begin, end in op.tile_map.intervals():
            self.add(poplar.SetTileMappingOp(self.view(op.result, begin, end), tile))

    def compute_set(self, op: ipu.ComputeSetOp) -> None:
        cs = self.add(poplar.AddComputeSetOp(op.label.data)).results[0]
        for vertex in op.body.block.ops:
            assert isinstance(vertex, ipu.VertexOp)
            codelet = self.codelets[vertex.codelet.root_reference.data]
            ref = self.add(poplar.AddVertexOp(cs, codelet.sym_name.data)).results[0]
            self.add(poplar.SetTileMappingOp(ref, vertex.on_tile()))
            elements = 1
            for field, tensor, (begin, end) in zip(
                codelet.fields.data, vertex.tensors, vertex.slice_pairs()
            ):
                self.add(poplar.ConnectOp(ref, field.field_name.data, self.view(tensor, begin, end)))
                if field.is_vector.data:
                    elements = end - begin
            self.add(poplar.SetPerfEstimateOp(ref, _estimate(codelet, elements, self.arch.workers_per_tile)))
        self.programs.append(self.add(poplar.ExecuteOp(cs)).results[0])


def _estimate(codelet: ipu.CodeletOp, elements: int, workers: int) -> int:
    fields = codelet.fields.data
    loads = sum(1 for f in fields if f.readable)
    stores = sum(1 for f in fields if f.writable)
    return vertex_cycles(instructions_per_element(codelet.body.block, loads, stores), elements, workers)


def _codelet(op: ipu.CodeletOp) -> poplar.CodeletOp:
    body = op.body.clone()
    old_yield = body.block.last_op
    assert isinstance(old_yield, ipu.YieldOp)
    values = list(old_yield.values)
    body.block.erase_op(old_yield)
    body.block.add_op(poplar.YieldOp(*values))
    return poplar.CodeletOp(op.sym_name.data, list(op.fields.data), body)


class _ConvertGraph(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.GraphOp, rewriter: PatternRewriter) -> None:
        codelets = [_codelet(c) for c in op.body.block.ops if isinstance(c, ipu.CodeletOp)]
        rewriter.replace(op, [*codelets, _HostBuilder(op).host_program()])


@dataclass(frozen=True)
class ConvertIpuToPoplarPass(ModulePass):
    name = "convert-ipu-to-poplar"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(_ConvertGraph(), apply_recursively=False).rewrite_module(op)
