"""ipu-vertex-extraction: outline tiled maps into codelets placed by one `ipu.vertices`.

Each `ipu.tiled_map` becomes an `ipu.codelet` and an `ipu.compute_set` holding one
`ipu.vertices` over the same tile map. The signature is planned first
(`plan_signature`: one field per tensor, `input`, `output` or `inout`, with the slice
rule of the map); then the point-wise body is lowered into the vertex's own code: the
worker's share of the points as an `scf.for` (points `workerId, workerId + numWorkers,
...` of the block), each `ipu.access` as a `memref.load` at the point plus its offset
and halo, each yielded value as a `memref.store` at the point. Loads of whole scalars,
and whatever depends only on them, are done once, before the loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import Pure

from ipu_lower.dialects import ipu
from ipu_lower.names import UniqueNames

# Members and parameters of every vertex class; fields must not shadow them.
RESERVED_FIELD_NAMES = ("compute", "numWorkers", "workerId")


@dataclass(frozen=True)
class Signature:
    """The fields of an outlined codelet, and which tensor each one connects, how."""

    fields: list[ipu.FieldAttr]
    tensors: list[SSAValue]
    rules: list[ipu.SliceAttr]

    def field_of(self, tensor: SSAValue) -> int:
        return self.tensors.index(tensor)


def plan_signature(op: ipu.TiledMapOp) -> Signature:
    """Fields in order: the map's inputs (inout when also written), then its outputs."""
    names = UniqueNames(RESERVED_FIELD_NAMES)
    outs = list(op.outs)
    fields, tensors, rules = [], [], []
    for value, rule in zip(op.ins, op.in_rules.data):
        fields.append(ipu.FieldAttr("inout" if value in outs else "input", _field_name(names, value)))
        tensors.append(value)
        rules.append(rule)
    for value, rule in zip(op.outs, op.out_rules.data):
        if value not in tensors:
            fields.append(ipu.FieldAttr("output", _field_name(names, value)))
            tensors.append(value)
            rules.append(rule)
    return Signature(fields, tensors, rules)


def _field_name(names: UniqueNames, value: SSAValue) -> str:
    return names.fresh(ipu.variable_of(value).var_name.data, "field")


def field_type(tensor: SSAValue, rule: ipu.SliceAttr) -> MemRefType:
    """`memref<T>` for a whole scalar, `memref<?xT>` for a run of elements."""
    scalar = rule.is_whole and tensor.type.get_num_dims() == 0  # type: ignore[union-attr]
    return _memref(tensor.type.element_type, scalar)  # type: ignore[union-attr]


@cache  # building a MemRefType is slow; codelets repeat a handful of field types
def _memref(element: Attribute, scalar: bool) -> MemRefType:
    return MemRefType(element, [] if scalar else [DYNAMIC_INDEX])


def _index(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


class _BodyBuilder:
    """Appends the vertex code of one tiled map to a codelet block."""

    def __init__(self, op: ipu.TiledMapOp, signature: Signature, block: Block):
        self.op = op
        self.signature = signature
        self.fields = block.args
        self.prologue = block
        self.invariant: set[SSAValue] = set()

    def add(self, op: Operation, block: Block) -> Operation:
        block.add_op(op)
        return op

    def points(self) -> SSAValue:
        """How many points the vertex computes: the length of its block."""
        for index, rule in enumerate(self.signature.rules):
            if rule.kind.data == "block":
                zero = self.add(_index(0), self.prologue)
                return self.add(memref.DimOp(self.fields[index], zero), self.prologue).results[0]
        for index, rule in enumerate(self.signature.rules):
            if rule.kind.data == "halo":
                zero = self.add(_index(0), self.prologue)
                size = self.add(memref.DimOp(self.fields[index], zero), self.prologue).results[0]
                halo = self.add(_index(sum(rule.halo)), self.prologue).results[0]
                return self.add(arith.SubiOp(size, halo), self.prologue).results[0]
        return self.add(_index(1), self.prologue).results[0]

    def build(self) -> None:
        count = self.points()
        count.name_hint = "n"
        worker = self.add(ipu.WorkerIdOp(), self.prologue).results[0]
        worker.name_hint = "worker"
        workers = self.add(ipu.NumWorkersOp(), self.prologue).results[0]
        workers.name_hint = "workers"
        loop_body = Block(arg_types=[IndexType()])
        point = loop_body.args[0]
        point.name_hint = "i"
        values: dict[SSAValue, SSAValue] = {}
        inputs = dict(zip(self.op.body.block.args, self.op.ins))
        for inner in self.op.body.block.ops:
            if isinstance(inner, ipu.AccessOp):
                tensor = inputs[inner.tensor]
                field = self.signature.field_of(tensor)
                rule = self.signature.rules[field]
                if rule.is_whole:
                    load = self.add(memref.LoadOp.get(self.fields[field], []), self.prologue)
                    self.invariant.add(load.results[0])
                else:
                    shift = rule.halo[0] + inner.flat_offset()
                    index = point
                    if shift:
                        offset = self.add(_index(shift), self.prologue).results[0]
                        index = self.add(arith.AddiOp(point, offset), loop_body).results[0]
                    load = self.add(memref.LoadOp.get(self.fields[field], [index]), loop_body)
                values[inner.result] = load.results[0]
            elif isinstance(inner, ipu.YieldOp):
                for tensor, value in zip(self.op.outs, inner.values):
                    field = self.fields[self.signature.field_of(tensor)]
                    indices = [] if field.type.get_num_dims() == 0 else [point]  # type: ignore[union-attr]
                    self.add(memref.StoreOp.get(values[value], field, indices), loop_body)
            else:
                hoist = inner.has_trait(Pure) and all(
                    values[o] in self.invariant for o in inner.operands
                )
                clone = self.add(inner.clone(value_mapper=values), self.prologue if hoist else loop_body)
                values.update(zip(inner.results, clone.results))
                if hoist:
                    self.invariant.update(clone.results)
        loop_body.add_op(scf.YieldOp())
        self.add(scf.ForOp(worker, count, workers, [], loop_body), self.prologue)


def codelet_body(op: ipu.TiledMapOp, signature: Signature) -> Region:
    block = Block(arg_types=[field_type(t, r) for t, r in zip(signature.tensors, signature.rules)])
    for arg, field in zip(block.args, signature.fields):
        arg.name_hint = field.field_name.data
    _BodyBuilder(op, signature, block).build()
    return Region(block)


@dataclass
class _ExtractVertices(RewritePattern):
    names: UniqueNames

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.TiledMapOp, rewriter: PatternRewriter) -> None:
        graph = op.parent_op()
        assert isinstance(graph, ipu.GraphOp)
        signature = plan_signature(op)
        name = self.names.fresh(f"{graph.sym_name.data}_{op.label.data}", "codelet")
        codelet = ipu.CodeletOp(name, signature.fields, codelet_body(op, signature))
        first_step = next(o for o in graph.body.block.ops if not isinstance(o, ipu.VariableOp | ipu.CodeletOp))
        rewriter.insert(codelet, InsertPoint.before(first_step))
        placement = ipu.VerticesOp(name, op.tile_map, list(zip(signature.tensors, signature.rules)))
        rewriter.replace(op, ipu.ComputeSetOp(name, Region(Block([placement]))))


@dataclass(frozen=True)
class IpuVertexExtractionPass(ModulePass):
    name = "ipu-vertex-extraction"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for graph in [g for g in op.walk() if isinstance(g, ipu.GraphOp)]:
            names = UniqueNames(tuple(o.sym_name.data for o in graph.body.block.ops if isinstance(o, ipu.CodeletOp)))
            PatternRewriteWalker(_ExtractVertices(names), apply_recursively=False).rewrite_region(graph.body)

