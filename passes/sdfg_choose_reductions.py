"""sdfg-choose-reductions: each `sdfg.library_reduce` takes popops' path or our tree,
written as its `path`.

popops (`path "popops"`, then `sdfg.reduce` and `popops::reduceWithOutput`) takes a
reduction that it reduces as tuned library code and plans over the tiles itself: one
outside maps, of float32, float16 or int32 into the same type, that reduces some
dimension of more than one element, into an output box no index operand moves, whose
result starts from a neutral identity unless it is a sum (poplibs updates only sums: a
sum onto the output's value, or from another identity written first, is `update`; a sum
onto the output's value from another identity would need that identity combined with
the value, not written over it, so it stays on our tree), and
whose input is not `padded` (`static_loop_extents` pads it for a guarded map that
sdfg-fuse-maps fuses with our tree's map, so that the padded transient never exists;
popops would need it in memory). An input box that loop variables move is copied out
first by sdfg-copy-reduction-boxes. The rules are `LibraryReduceOp.not_popops`, which
the op's verifier checks for `path "popops"`.

Every other reduction takes our tree (`path "tree"`): a map of `sdfg.accumulate` that
ipu-tile-partition plans as levels of `ipu.tiled_reduce`. A reduction that has a path
keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ipu_lower.dialects import sdfg as sd
from ipu_lower.passes.sdfg_fuse_maps import walk


def plan_paths(module: ModuleOp) -> dict[sd.LibraryReduceOp, str]:
    """The path of each reduction of `module` that has none yet."""
    return {
        op: "tree" if op.not_popops() is not None else "popops"
        for op in module.walk()
        if isinstance(op, sd.LibraryReduceOp) and op.path is None
    }


@dataclass
class _SetPath(RewritePattern):
    paths: dict[sd.LibraryReduceOp, str]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.LibraryReduceOp, rewriter: PatternRewriter) -> None:
        if (path := self.paths.pop(op, None)) is None:
            return
        op.path = StringAttr(path)
        rewriter.notify_op_modified(op)


@dataclass(frozen=True)
class SdfgChooseReductionsPass(ModulePass):
    """Each reduction's path, popops or our tree, as an attribute."""

    name = "sdfg-choose-reductions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if paths := plan_paths(op):
            walk([_SetPath(paths)]).rewrite_module(op)
