"""sdfg-copy-reduction-boxes: a reduction whose path needs a whole container (or a
static box) reduces a copy of its input box.

On our tree (`path "tree"`) a reduction of a box of a container (`np.sum(A[1:-1])`)
reduces a copy instead: a transient `<input>_box` of the box's shape, filled by an
`sdfg.copy` before the reduction (a Copy program on the device), so that the map of
`sdfg.accumulate` it expands into reads a whole container, the form
ipu-tile-partition supports. On popops' path (`path "popops"`) a static box is a slice
of the tensor and stays; only a box that loop variables move (`np.sum(A[t, :])` in a
loop over t) is copied, by the copy at those variables (a dynamic slice), since
`sdfg.reduce`'s boxes are static. Reductions inside maps and those without a path are
left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.passes.sdfg_fuse_maps import walk
from ipu_lower.passes.sdfg_hoist_reductions import add_transient, container_names


def needs_copy(op: sd.LibraryReduceOp) -> bool:
    """Whether the path of `op` needs its input box copied into a whole transient."""
    if op.path is None or not isinstance(op.parent_op(), sd.StateOp):
        return False
    ranges = op.input_ranges()
    if op.path.data == "popops":
        return any(e.dims() for r in ranges for e in r)
    ctype = op.input.type
    assert isinstance(ctype, sd.ArrayType)
    zero = IndexExpr.constant(0)
    return any(r != (zero, n) for r, n in zip(ranges, ctype.dims()))


def plan_copies(sdfg_op: sd.SdfgOp) -> dict[sd.LibraryReduceOp, str]:
    """The reductions of `sdfg_op` that reduce a copy, and the name of each copy."""
    names = container_names(sdfg_op)
    return {
        op: names.unique(f"{sd.container_name(op.input)}_box")
        for op in sdfg_op.walk()
        if isinstance(op, sd.LibraryReduceOp) and needs_copy(op)
    }


@dataclass
class _CopyBox(RewritePattern):
    names: dict[sd.LibraryReduceOp, str]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.LibraryReduceOp, rewriter: PatternRewriter) -> None:
        if (name := self.names.pop(op, None)) is None:
            return
        indices = list(op.indices)
        ranges = op.input_ranges()
        zero = IndexExpr.constant(0)
        whole = [(zero, end - begin) for begin, end in ranges]
        box = add_transient(op, name, [n for _, n in whole], op.input.type.element_type, rewriter)  # type: ignore[union-attr]
        used, in_ranges = sd.access_ranges(indices, ranges)
        copy = sd.CopyOp(op.input, in_ranges, box, whole, used)
        out_indices, out_ranges = sd.access_ranges(indices, op.output_ranges())
        reduce = sd.LibraryReduceOp(
            op.label.data, op.kind.data, box, whole, op.out, out_ranges, op.axis_list(),
            out_indices, op.identity, update=op.update is not None, padded=op.padded is not None, path=op.path.data,  # type: ignore[union-attr]
        )
        reduce.attributes.update(op.attributes)
        rewriter.insert(copy, InsertPoint.before(op))
        rewriter.replace(op, reduce)


@dataclass(frozen=True)
class SdfgCopyReductionBoxesPass(ModulePass):
    """Reductions of boxes their path cannot read in place reduce a copy of the box."""

    name = "sdfg-copy-reduction-boxes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        names = {r: n for s in op.walk() if isinstance(s, sd.SdfgOp) for r, n in plan_copies(s).items()}
        if names:
            walk([_CopyBox(names)]).rewrite_module(op)
