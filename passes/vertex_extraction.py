"""ipu-vertex-extraction: outline tiled maps into codelets and place one vertex per tile.

Each `ipu.tiled_map` becomes an `ipu.codelet` (its body; one field per tensor it
touches: `input`, `output` or `inout`, `vector` unless the tensor is a scalar) and an
`ipu.compute_set` holding one `ipu.vertex` per tile that owns work, its vector fields
connected to the slice of each tensor that this tile holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from ipu_lower.dialects import ipu
from ipu_lower.names import UniqueNames

# Members every codelet class has; fields must not shadow them.
RESERVED_FIELD_NAMES = ("compute", "numWorkers", "workerId", "i", "n")


@dataclass(frozen=True)
class Signature:
    """The fields of an outlined codelet, and which tensor each one connects."""

    fields: list[ipu.FieldAttr]
    tensors: list[SSAValue]
    yield_order: list[int]
    """For each writable field, the index of its value among the map's yields."""


def plan_signature(op: ipu.TiledMapOp) -> Signature:
    """Fields in order: the map's inputs (inout when also written), then its outputs."""
    names = UniqueNames(RESERVED_FIELD_NAMES)
    outs = list(op.outs)
    fields: list[ipu.FieldAttr] = []
    tensors: list[SSAValue] = []
    writable: list[int] = []
    for value in op.ins:
        direction = "inout" if value in outs else "input"
        fields.append(_field(names, value, direction))
        tensors.append(value)
        if direction == "inout":
            writable.append(outs.index(value))
    for index, value in enumerate(outs):
        if value not in op.ins:
            fields.append(_field(names, value, "output"))
            tensors.append(value)
            writable.append(index)
    return Signature(fields, tensors, writable)


def _field(names: UniqueNames, value: SSAValue, direction: str) -> ipu.FieldAttr:
    var = value.owner
    assert isinstance(var, ipu.VariableOp)
    is_vector = value.type.get_num_dims() > 0  # type: ignore[union-attr]
    return ipu.FieldAttr(
        names.fresh(var.var_name.data, "field"), direction, is_vector, value.type.element_type  # type: ignore[union-attr]
    )


def vertex_slices(tile_map: ipu.TileMapAttr, signature: Signature) -> list[tuple[int, list[tuple[int, int]]]]:
    """(tile, slice of each field's tensor) for every tile owning work."""
    placements = []
    for tile, begin, end in tile_map.intervals():
        slices = [
            (begin, end) if field.is_vector.data else (0, 0) for field in signature.fields
        ]
        placements.append((tile, slices))
    return placements


@dataclass
class _ExtractVertices(RewritePattern):
    names: UniqueNames

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.TiledMapOp, rewriter: PatternRewriter) -> None:
        graph = op.parent_op()
        assert isinstance(graph, ipu.GraphOp)
        signature = plan_signature(op)
        name = self.names.fresh(f"{graph.sym_name.data}_{op.label.data}", "codelet")

        body = op.body.clone()
        old_yield = body.block.last_op
        assert isinstance(old_yield, ipu.YieldOp)
        values = list(old_yield.values)
        body.block.erase_op(old_yield)
        body.block.add_op(ipu.YieldOp(*(values[i] for i in signature.yield_order)))
        codelet = ipu.CodeletOp(name, signature.fields, body)
        first_op = next(o for o in graph.body.block.ops if not isinstance(o, ipu.VariableOp | ipu.CodeletOp))
        rewriter.insert(codelet, InsertPoint.before(first_op))

        compute_set = ipu.ComputeSetOp(name)
        for tile, slices in vertex_slices(op.tile_map, signature):
            compute_set.body.block.add_op(ipu.VertexOp(name, tile, signature.tensors, slices))
        rewriter.replace(op, compute_set)


@dataclass(frozen=True)
class IpuVertexExtractionPass(ModulePass):
    name = "ipu-vertex-extraction"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for graph in [g for g in op.walk() if isinstance(g, ipu.GraphOp)]:
            names = UniqueNames(
                tuple(o.sym_name.data for o in graph.body.block.ops if isinstance(o, ipu.CodeletOp))
            )
            PatternRewriteWalker(_ExtractVertices(names), apply_recursively=False).rewrite_region(graph.body)

