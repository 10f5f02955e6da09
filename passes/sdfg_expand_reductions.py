"""sdfg-expand-reductions: each `sdfg.library_reduce` becomes what its `path` says.

DaCe's meaning of a `Reduce` (`sdfg.library_reduce`'s docstring): with an identity the
output is set to it and every value combined into it; without one the values are
combined into the output's old value, as they are with `update`.

- `path "popops"`: `sdfg.reduce` of the same boxes over the same axes. An identity that
  is neutral for the kind (0, 1, the type's largest or smallest value) gives a plain
  reduction; any other identity is written into the output first and the sum updates it;
  no identity, or `update`, updates the output.
- `path "tree"`: a map over the input box whose iterations read one element each and
  `sdfg.accumulate` it into the output element of its kept indices, ipu-tile-partition's
  form of a reduction. An identity is written into the output box first (a map over the
  box's extents of more than one), or accumulated into it with `update`.

The reduction's index operands stay index operands of what it becomes. What cannot be
expanded is an error located at the reduction: one without a path (sdfg-choose-reductions
gives it one), one inside a map (sdfg-hoist-reductions hoists only those of the box the
map's parameters pick), on popops' path a box that index operands move
(sdfg-copy-reduction-boxes copies it out first), on our tree a change of element type.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ipu_lower.diagnostics import error
from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.passes.sdfg_fuse_maps import walk

ZERO, ONE = IndexExpr.constant(0), IndexExpr.constant(1)


def check_expandable(op: sd.LibraryReduceOp) -> None:
    """Raise the located error that says why `op` cannot be expanded, if it cannot."""
    if op.path is None:
        raise error(op, "reduction without a path (popops or tree); run sdfg-choose-reductions first")
    if not isinstance(op.parent_op(), sd.StateOp):
        raise error(
            op,
            "a Reduce inside a map is not supported yet: sdfg-hoist-reductions hoists only one of the box the "
            "map's parameters pick into a transient scalar the map alone reads",
        )
    if op.path.data == "popops" and op.indices:
        raise error(op, "popops reduces static boxes, and loop variables move this one; run sdfg-copy-reduction-boxes first")
    element, source = op.element(), op.input.type.element_type  # type: ignore[union-attr]
    if op.path.data == "tree" and source != element:
        raise error(op, f"reduces {source} elements into {element}; a type change is not supported yet")


def shifted(ranges: Sequence[sd.Range], by: int) -> list[sd.Range]:
    """`ranges` with their dimensions numbered from `by` (after `by` map parameters)."""
    dims = {d: IndexExpr.dim(d + by) for r in ranges for e in r for d in e.dims()}
    return [(b.substitute(dims=dims), e.substitute(dims=dims)) for b, e in ranges]


def fill(label: str, value: IntegerAttr | FloatAttr, container: SSAValue, ranges: Sequence[sd.Range],
         indices: Sequence[SSAValue], kind: str | None = None) -> list[Operation]:
    """Ops writing `value` into every element of the box `ranges` of `container` (over
    `indices`), or accumulating it with `kind`: a tasklet yielding it, in a map over the
    extents of more than one."""
    sizes = [end - begin for begin, end in ranges]
    varying = [d for d, n in enumerate(sizes) if n != ONE]
    tasklet = sd.constant_tasklet(f"{label}_init", value)

    def store(subset: list[IndexExpr], operands: Sequence[SSAValue]) -> Operation:
        access = sd.access_operands(operands, subset)
        if kind is None:
            return sd.WriteOp(tasklet.outputs[0], container, *access)
        return sd.AccumulateOp(kind, tasklet.outputs[0], container, *access)

    if not varying:
        return [tasklet, store([b for b, _ in ranges], indices)]
    init_map = sd.MapOp(
        f"{label}_init", [ZERO] * len(varying), [sizes[d] for d in varying], [ONE] * len(varying),
        param_names=[f"_o{k}" for k in range(len(varying))],
    )
    begins = [b for b, _ in shifted(ranges, len(varying))]
    subset = [b + IndexExpr.dim(varying.index(d)) if d in varying else b for d, b in enumerate(begins)]
    init_map.body.block.add_ops([tasklet, store(subset, [*init_map.params, *indices])])
    return [init_map]


def popops(op: sd.LibraryReduceOp) -> list[Operation]:
    """`sdfg.reduce`, after the identity when it is not neutral (module docstring)."""
    neutral = op.neutral()
    ops: list[Operation] = []
    if op.identity is not None and not neutral:
        ops += fill(op.label.data, op.identity, op.out, op.output_ranges(), [])
    update = not neutral or op.update is not None
    return [*ops, sd.ReduceOp(op.label.data, op.kind.data, op.input, op.input_ranges(), op.out, op.output_ranges(), op.axis_list(), update)]


def tree(op: sd.LibraryReduceOp) -> list[Operation]:
    """The identity (written, or accumulated with `update`), then a map over the input
    box accumulating each element into the output element of its kept indices."""
    kind, label, indices = op.kind.data, op.label.data, list(op.indices)
    ops: list[Operation] = []
    if op.identity is not None:
        ops += fill(label, op.identity, op.out, op.output_ranges(), indices, kind if op.update is not None else None)
    in_ranges = shifted(op.input_ranges(), len(op.input_ranges()))
    out_ranges = shifted(op.output_ranges(), len(in_ranges))
    rank = len(in_ranges)
    sizes = [end - begin for begin, end in in_ranges]
    axes = op.axis_list()
    kept = [d for d in range(rank) if d not in axes and sizes[d] != ONE]
    out_varying = [d for d, (begin, end) in enumerate(out_ranges) if end - begin != ONE]
    map_op = sd.MapOp(label, [ZERO] * rank, sizes, [ONE] * rank, param_names=[f"_i{d}" for d in range(rank)])
    operands = [*map_op.params, *indices]
    read = sd.ReadOp(op.input, *sd.access_operands(operands, [b + IndexExpr.dim(d) for d, (b, _) in enumerate(in_ranges)]))
    position = dict(zip(out_varying, kept))
    out_subset = [b + IndexExpr.dim(position[d]) if d in position else b for d, (b, _) in enumerate(out_ranges)]
    accumulate = sd.AccumulateOp(kind, read.result, op.out, *sd.access_operands(operands, out_subset))
    map_op.body.block.add_ops([read, accumulate])
    return [*ops, map_op]


@dataclass
class _Expand(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.LibraryReduceOp, rewriter: PatternRewriter) -> None:
        assert op.path is not None  # checked before any rewrite
        rewriter.replace(op, popops(op) if op.path.data == "popops" else tree(op), [])


@dataclass(frozen=True)
class SdfgExpandReductionsPass(ModulePass):
    """Each reduction becomes `sdfg.reduce` (popops) or a map of `sdfg.accumulate` (our tree)."""

    name = "sdfg-expand-reductions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        reductions = [r for r in op.walk() if isinstance(r, sd.LibraryReduceOp)]
        for reduce in reductions:
            check_expandable(reduce)
        if reductions:
            walk([_Expand()]).rewrite_module(op)
