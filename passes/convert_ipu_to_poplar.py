"""convert-ipu-to-poplar: spell the tile-level program as Poplar API calls.

The cycle estimate of every placement is planned first, from its codelet body and the
sizes of the slices its vertices get (`plan_placements`). Then one pattern per op: the
graph becomes a `poplar.host_program` (its body the build region, a run region that
writes inputs, runs and reads outputs); a variable becomes `add_variable` (`add_constant`
when it has a value) plus one `map_tensor`; a compute set becomes `add_compute_set`, one
`add_vertices` per placement and an `execute`, or the poplibs call ipu-select-vertices
chose for its placement (`poplar.scaled_add`, `poplar.map`, `poplar.cast`); copies and
host transfers become their API calls; a codelet becomes a `poplar.codelet` next to the
host program (unless no vertex places it); a view becomes
Poplar's tensor views. The program sequence is
the program values in build order, then the Engine. Loops and branches, their regions
converted, become `program::Repeat`, `RepeatWhileTrue` and `If` over the sequences of
the programs their regions make (the graph construction inside them moves before them:
the build region is flat, the program tree is made of program values).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, MemRefType, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from ipu_lower.arch import get_arch
from ipu_lower.diagnostics import error
from ipu_lower.dialects import ipu, poplar
from ipu_lower.dialects.popops_elementwise import CHOICE
from ipu_lower.dialects.tiling import GridMapMixin, TileMapMixin


def write_handle(name: str) -> str:
    return f"write_{name}"


def read_handle(name: str) -> str:
    return f"read_{name}"


def slice_sizes(placement: ipu.VerticesOp | poplar.AddVerticesOp, run: int, extents: Sequence[int] = ()) -> list[int]:
    """How many elements each operand's slice holds for a vertex of `run` (whose box has
    `extents`, over a grid map), before or after the conversion."""
    count = placement.tile_map.runs()[run].count
    sizes = []
    for tensor, rule in zip(placement.tensors, placement.rules.data):
        if isinstance(placement, ipu.VerticesOp):
            elements = ipu.num_elements(tensor.type)
        else:
            elements = poplar.tensor_type(tensor).num_elements()
        if extents and not rule.is_whole:
            sizes.append(prod(e + lo + hi for e, (lo, hi) in zip(extents, rule.ring(len(extents)))))
        else:
            sizes.append(rule.slice_size(count, elements))
    return sizes


def run_extents(tile_map: TileMapMixin | GridMapMixin) -> list[tuple[int, ...]]:
    """The box extents of each run of a grid map (row-major over its per-dimension
    runs); none for a tile map (of either dialect)."""
    if not isinstance(tile_map, GridMapMixin):
        return [() for _ in tile_map.runs()]
    return tile_map.run_extents()


@dataclass(frozen=True)
class Placement:
    """What `add_vertices` needs of a placement: its codelet's field names, in operand
    order, and the cycle estimate of one vertex of each run of its tile map."""

    field_names: list[str]
    cycles: list[int]


def plan_placements(graph: ipu.GraphOp, schedule: str = "emitted") -> dict[ipu.VerticesOp, Placement]:
    """Each placement's field names and estimates, as emitted (what the host prints with
    setPerfEstimate) or in another `cost_model.Schedule`."""
    from ipu_lower.cost_model import VertexCost  # imported when used: the cost model needs numpy, most of the time of ipu-opt --help

    workers = get_arch(graph.arch.data).workers_per_tile
    codelets = {c.sym_name.data: c for c in graph.body.block.ops if isinstance(c, ipu.CodeletOp)}
    plans = {}
    for placement in graph.walk():
        if isinstance(placement, ipu.VerticesOp) and poplibs_choice(placement) is None:
            codelet = codelets[placement.codelet.root_reference.data]
            cost = VertexCost(codelet.body.block, schedule)  # type: ignore[arg-type]
            cycles = [
                cost.cycles(slice_sizes(placement, r, extents), workers, extents)
                for r, extents in enumerate(run_extents(placement.tile_map))
            ]
            plans[placement] = Placement(codelet.field_names(), cycles)
    return plans


def _poplar_map(tile_map: ipu.TileMapAttr | ipu.GridMapAttr) -> poplar.TileMapAttr | poplar.GridMapAttr:
    if isinstance(tile_map, ipu.GridMapAttr):
        return poplar.GridMapAttr([_poplar_map(d) for d in tile_map.dim_maps()], tile_map.tile_strides())  # type: ignore[misc]
    return poplar.TileMapAttr(tile_map.runs(), tile_map.start)


def _poplar_rule(rule: ipu.SliceAttr) -> poplar.SliceAttr:
    return poplar.SliceAttr(rule.kind.data, *rule.halo, rule.ring(0) if rule.per_dimension else ())


def _host_program(op: Operation) -> poplar.HostProgramOp | None:
    """The host program `op` is in, once its graph has been converted."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, poplar.HostProgramOp):
        parent = parent.parent_op()
    return parent


def _tensor_name(value: SSAValue) -> str:
    owner = value.owner
    return owner.var_name.data if isinstance(owner, ipu.VariableOp) else owner.debug_name.data  # type: ignore[union-attr]


class _Graph(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.GraphOp, rewriter: PatternRewriter) -> None:
        variables = op.host_data()
        arguments: list[tuple[str, MemRefType]] = [(a.data, variables[a.data].result.type) for a in op.args.data]  # type: ignore[misc]
        build = rewriter.move_region_contents_to_new_regions(op.body)
        program = poplar.HostProgramOp(
            op.sym_name.data, op.arch.data, arguments, build, Region(Block([poplar.RunOp(0)]))
        )
        rewriter.replace(op, program)


@dataclass
class _Codelet(RewritePattern):
    """A codelet moves next to the host program; one no vertex places (its placements
    became poplibs calls) goes."""

    placed: set[str]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.CodeletOp, rewriter: PatternRewriter) -> None:
        fields = [poplar.FieldAttr(f.direction.data, f.field_name.data) for f in op.fields.data]
        if (program := _host_program(op)) is None:
            return
        if op.sym_name.data not in self.placed:
            rewriter.erase(op)
            return
        codelet = poplar.CodeletOp(op.sym_name.data, fields, rewriter.move_region_contents_to_new_regions(op.body))
        rewriter.insert(codelet, InsertPoint.before(program))
        rewriter.erase(op)


class _WorkerOps(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, ipu.WorkerIdOp):
            rewriter.replace(op, poplar.WorkerIdOp())
        elif isinstance(op, ipu.NumWorkersOp):
            rewriter.replace(op, poplar.NumWorkersOp())
        elif isinstance(op, ipu.BlockStartOp):
            rewriter.replace(op, poplar.BlockStartOp())
        elif isinstance(op, ipu.BlockExtentOp):
            rewriter.replace(op, poplar.BlockExtentOp(op.dimension))


class _Variable(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.VariableOp, rewriter: PatternRewriter) -> None:
        memref = op.result.type
        assert isinstance(memref, MemRefType)
        t = poplar.TensorType(memref.get_shape(), memref.element_type)
        name = op.var_name.data
        tensor = poplar.AddVariableOp(name, t) if op.value is None else poplar.AddConstantOp(name, t, op.value)
        rewriter.replace(op, [tensor, poplar.MapTensorOp(tensor.result, _poplar_map(op.tile_map))], [tensor.result])


class _RemoteBuffer(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.RemoteBufferOp, rewriter: PatternRewriter) -> None:
        memref = op.result.type
        assert isinstance(memref, MemRefType)
        buffer = poplar.RemoteBufferType(op.repeats.value.data, op.part_elements(), memref.element_type)
        rewriter.replace(op, poplar.AddRemoteBufferOp(op.var_name.data, buffer))


class _RemoteCopy(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, ipu.RemoteLoadOp):
            rewriter.replace(op, poplar.RemoteLoadOp(op.buffer, op.offset, op.tensor), [])
        elif isinstance(op, ipu.RemoteStoreOp):
            rewriter.replace(op, poplar.RemoteStoreOp(op.buffer, op.offset, op.tensor), [])


class _HostTransfer(RewritePattern):
    """A host transfer of a variable is a host read or write handle the run region
    uses; that of a remote buffer a copy between the argument and its repeats."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ipu.FromHostOp | ipu.ToHostOp) or (program := _host_program(op)) is None:
            return
        run_block = program.run_body.block
        owner = op.tensor.owner
        if isinstance(owner, ipu.RemoteBufferOp | poplar.AddRemoteBufferOp):  # converted or not yet
            name = owner.var_name.data if isinstance(owner, ipu.RemoteBufferOp) else owner.handle.data
            rewriter.erase(op)
            if isinstance(op, ipu.FromHostOp):
                run_block.insert_op_before(poplar.CopyToRemoteBufferOp(name, name), run_block.last_op)  # type: ignore[arg-type]
            else:
                run_block.add_op(poplar.CopyFromRemoteBufferOp(name, name))
            return
        name = _tensor_name(op.tensor)
        if isinstance(op, ipu.FromHostOp):
            rewriter.replace(op, poplar.CreateHostWriteOp(write_handle(name), op.tensor))
            run_block.insert_op_before(poplar.WriteTensorOp(write_handle(name), name), run_block.last_op)  # type: ignore[arg-type]
        else:
            rewriter.replace(op, poplar.CreateHostReadOp(read_handle(name), op.tensor))
            run_block.add_op(poplar.ReadTensorOp(read_handle(name), name))


def _view(tensor: SSAValue, begin: int, end: int) -> tuple[list[Operation], SSAValue]:
    """The ops computing the 1-D view of elements [begin, end) of a tensor."""
    t = poplar.tensor_type(tensor)
    if not t.get_shape():
        return [], tensor
    ops: list[Operation] = []
    if len(t.get_shape()) > 1:
        ops.append(poplar.FlattenOp(tensor))
        tensor = ops[-1].results[0]
    if (begin, end) != (0, t.num_elements()):
        ops.append(poplar.SliceOp(tensor, begin, end))
        tensor = ops[-1].results[0]
    return ops, tensor


class _TensorView(RewritePattern):
    """A view becomes Poplar's views of the tensor: the box (`slice`), without the
    dimensions it drops (`reshape`), in its order of dimensions (`dimShuffle`), with a
    dimension of extent 1 at each broadcast one (`reshape`) repeated (`broadcast`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.ViewOp, rewriter: PatternRewriter) -> None:
        ops: list[Operation] = []

        def then(view: Operation) -> None:
            ops.append(view)

        def current() -> SSAValue:
            return ops[-1].results[0] if ops else op.source

        shape = poplar.tensor_type(op.source).get_shape()
        box, kept = op.box(), op.kept_order()
        extents = op.result.type.get_shape()  # type: ignore[union-attr]
        walked = [d for d in op.walked() if d != ipu.ViewOp.BROADCAST]
        broadcast = [k for k, d in enumerate(op.walked()) if d == ipu.ViewOp.BROADCAST]
        unit_broadcasts = [1 if k in broadcast else n for k, n in enumerate(extents)]
        if box != [(0, n) for n in shape]:
            then(poplar.SliceBoxOp(current(), [b for b, _ in box], [e for _, e in box]))
        if walked != kept:
            if len(kept) != len(shape):
                then(poplar.ReshapeOp(current(), [box[d][1] - box[d][0] for d in kept]))
            then(poplar.DimShuffleOp(current(), [kept.index(d) for d in walked]))
        if poplar.tensor_type(current()).get_shape() != tuple(unit_broadcasts):
            then(poplar.ReshapeOp(current(), unit_broadcasts))
        for k in broadcast:
            then(poplar.BroadcastOp(current(), extents[k], k))
        rewriter.replace(op, ops, [current()])


class _Copy(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.CopyOp, rewriter: PatternRewriter) -> None:
        source_ops, source = _view(op.source, *op.source_range())
        destination_ops, destination = _view(op.destination, *op.destination_range())
        rewriter.replace(op, [*source_ops, *destination_ops, poplar.CopyOp(source, destination)], [])


class _Dynamic(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, ipu.DynamicSliceOp | ipu.DynamicUpdateOp):
            kind = poplar.DynamicSliceOp if isinstance(op, ipu.DynamicSliceOp) else poplar.DynamicUpdateOp
            rewriter.replace(op, kind(op.tensor, op.offsets, op.slice, op.dim_list(), op.size_list()), [])


class _Matmul(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.MatmulOp, rewriter: PatternRewriter) -> None:
        matmul = poplar.MatmulOp(op.label.data, op.lhs, op.rhs, op.out)
        matmul.properties.update(op.copied_properties())
        rewriter.replace(op, matmul, [])


class _Reduce(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.ReduceOp, rewriter: PatternRewriter) -> None:
        reduce = poplar.ReduceOp(op.label.data, op.kind.data, op.input, op.out, op.dim_list(), op.is_update())
        rewriter.replace(op, reduce, [])


def poplibs_choice(placement: ipu.VerticesOp) -> DictionaryAttr | None:
    """The decision of ipu-select-vertices for a placement when it chose poplibs (which
    it does only for a placement alone in its compute set: the call replaces the set)."""
    choice = placement.attributes.get(CHOICE)
    if not isinstance(choice, DictionaryAttr) or len(placement.parent_block().ops) != 1:  # type: ignore[union-attr]
        return None
    return choice if choice.data["impl"] == StringAttr("poplibs") else None


def _poplibs_call(label: str, placement: ipu.VerticesOp, choice: DictionaryAttr) -> Operation:
    """The poplibs call ipu-select-vertices chose for a placement, on its whole tensors
    (the `fields` of the decision, in the call's argument order)."""
    call = choice.data["call"].data  # type: ignore[attr-defined]
    fields = [placement.tensors[k] for k in choice.data["fields"].get_values()]  # type: ignore[attr-defined]
    if call in ("scaledAddTo", "scaledSubtractFrom"):
        op: Operation = poplar.ScaledAddOp(label, *fields, subtract=call == "scaledSubtractFrom")
    elif call == "cast":
        op = poplar.CastOp(label, *fields)
    else:
        kind = choice.data["ops"].data[0].data  # type: ignore[attr-defined]
        inputs = fields if call == "mapInPlace" else fields[:-1]
        op = poplar.MapOp(label, kind, inputs, fields[0] if call == "mapInPlace" else fields[-1])
    op.attributes[CHOICE] = choice
    return op


@dataclass
class _ComputeSet(RewritePattern):
    """A compute set becomes add_compute_set, one add_vertices per placement and an
    execute; one whose placement ipu-select-vertices gave to poplibs, that call."""

    placements: dict[ipu.VerticesOp, Placement]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ipu.ComputeSetOp, rewriter: PatternRewriter) -> None:
        first = op.body.block.first_op
        if isinstance(first, ipu.VerticesOp) and (choice := poplibs_choice(first)) is not None:
            rewriter.replace(op, _poplibs_call(op.label.data, first, choice), [])
            return
        compute_set = poplar.AddComputeSetOp(op.label.data)
        ops: list[Operation] = [compute_set]
        for placement in op.body.block.ops:
            assert isinstance(placement, ipu.VerticesOp)
            plan = self.placements[placement]
            connections = [
                (name, tensor, _poplar_rule(rule))
                for name, tensor, rule in zip(plan.field_names, placement.tensors, placement.rules.data)
            ]
            vertices = poplar.AddVerticesOp(
                compute_set.result,
                placement.codelet.root_reference.data,
                _poplar_map(placement.tile_map),
                connections,
                plan.cycles,
            )
            if CHOICE in placement.attributes:
                vertices.attributes[CHOICE] = placement.attributes[CHOICE]
            ops.append(vertices)
        ops.append(poplar.ExecuteOp(compute_set.result))
        rewriter.replace(op, ops, [])


def _program_of(block: Block, control: Operation, rewriter: PatternRewriter) -> SSAValue:
    """Move the (converted) ops of a region of `control` before it and return the
    sequence of the programs they make, in order."""
    ops = list(block.ops)
    for op in ops:
        op.detach()
    programs = [r for o in ops for r in o.results if isinstance(r.type, poplar.ProgramType) and not r.uses]
    sequence = poplar.SequenceOp(programs)
    rewriter.insert([*ops, sequence], InsertPoint.before(control))
    return sequence.result


class _Control(RewritePattern):
    """A loop or branch whose regions are converted: their programs become sequences,
    the op `program::Repeat`, `RepeatWhileTrue` or `If` over them."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, ipu.RepeatOp):
            body = _program_of(op.body.block, op, rewriter)
            rewriter.replace(op, poplar.RepeatOp(op.count.value.data, body), [])
        elif isinstance(op, ipu.RepeatWhileOp):
            cond = _program_of(op.condition.block, op, rewriter)
            body = _program_of(op.body.block, op, rewriter)
            rewriter.replace(op, poplar.RepeatWhileTrueOp(cond, op.predicate, body), [])
        elif isinstance(op, ipu.IfOp):
            then = _program_of(op.then_region.block, op, rewriter)
            otherwise = _program_of(op.else_region.block, op, rewriter)
            rewriter.replace(op, poplar.IfOp(op.predicate, then, otherwise), [])


class _FinishBuild(RewritePattern):
    """Once the build region holds only Poplar calls: run its programs in order."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: poplar.HostProgramOp, rewriter: PatternRewriter) -> None:
        block = op.build_body.block
        if isinstance(block.last_op, poplar.EngineOp) or any(o.dialect_name() == "ipu" for o in block.ops):
            return
        programs = [r for o in block.ops for r in o.results if isinstance(r.type, poplar.ProgramType) and not r.uses]
        sequence = poplar.SequenceOp(programs)
        rewriter.insert([sequence, poplar.EngineOp(sequence.result)], InsertPoint.at_end(block))


@dataclass(frozen=True)
class ConvertIpuToPoplarPass(ModulePass):
    name = "convert-ipu-to-poplar"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        placements = {}
        for graph in [g for g in op.ops if isinstance(g, ipu.GraphOp)]:
            for tiled_map in (o for o in graph.walk() if isinstance(o, ipu.TiledMapOp)):
                raise error(tiled_map, "'ipu.tiled_map' cannot be converted to Poplar; run ipu-vertex-extraction first")
            placements.update(plan_placements(graph))
        patterns = [
            _Graph(),
            _Codelet({p.codelet.root_reference.data for p in placements}),
            _WorkerOps(),
            _Variable(),
            _RemoteBuffer(),
            _RemoteCopy(),
            _HostTransfer(),
            _TensorView(),
            _Copy(),
            _Dynamic(),
            _Matmul(),
            _Reduce(),
            _ComputeSet(placements),
        ]
        # One walk converts every op (a graph is visited before the ops it moves into
        # its host program); a second turns loops and branches into programs, inner ones
        # first; a third finishes each build region.
        PatternRewriteWalker(GreedyRewritePatternApplier(patterns, dce_enabled=False), apply_recursively=False).rewrite_module(op)
        PatternRewriteWalker(_Control(), apply_recursively=False, walk_regions_first=True).rewrite_module(op)
        PatternRewriteWalker(_FinishBuild(), apply_recursively=False).rewrite_module(op)
