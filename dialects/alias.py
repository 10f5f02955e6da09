"""Aliases: a name that stands for (a part of) a container, with the container's index
of each of its dimensions as an expression of the name's own indices.

DaCe's views and the arguments of nested SDFGs are aliases of the data they are given
(`A[1:]` as `x`: `x[i]` is `A[i + 1]`). The importer resolves views with them
(`ipu_lower.frontend.views`), `sdfg-inline-nested` the arguments of nested SDFGs: every
access of the name becomes an access of the container, its subset composed with the
alias, and a copy of a box of the name a copy of the container's box (or, when the
alias reorders elements, a map that copies one element per point).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import SSAValue

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr

Range = tuple[IndexExpr, IndexExpr]
"""[begin, end) of one dimension."""

ONE = IndexExpr.constant(1)


class ViewError(Exception):
    """A view the importer cannot resolve; `node` is where it is."""

    def __init__(self, message: str, node=None):
        super().__init__(message)
        self.message = message
        self.node = node


@dataclass(frozen=True)
class Alias:
    """The root container a name stands for, and the root index of each of its
    dimensions as an expression of the name's own indices (dimension k is index k)."""

    root: str
    indices: tuple[IndexExpr, ...]

    @staticmethod
    def identity(name: str, rank: int) -> Alias:
        return Alias(name, tuple(IndexExpr.dim(k) for k in range(rank)))

    def apply(self, subset: Sequence[IndexExpr]) -> list[IndexExpr]:
        """The root indices of the element `subset` of the name."""
        dims = dict(enumerate(subset))
        return [e.substitute(dims=dims) for e in self.indices]

    def through(self, outer: Alias) -> Alias:
        """This alias of a name that `outer` resolves in turn."""
        return Alias(outer.root, tuple(outer.apply(self.indices)))

    def box(self, ranges: Sequence[Range]) -> list[Range] | None:
        """The root box of the box `ranges` of the name, when the root holds its elements
        as a box in the same row-major order; else None."""
        result: list[Range] = []
        order: list[int] = []
        for e in self.indices:
            used = sorted(e.dims())
            if not used:
                result.append((e, e + 1))
                continue
            k = used[0]
            if len(used) != 1 or e.dim_offset(k) is None:
                return None
            begin, end = ranges[k]
            result.append((e.substitute(dims={k: begin}), e.substitute(dims={k: end})))
            order.append(k)
        extents = [end - begin for begin, end in ranges]
        dropped = [k for k in range(len(ranges)) if k not in order]
        if order != sorted(set(order)) or any(extents[k] != IndexExpr.constant(1) for k in dropped):
            return None
        return result


def copy_op(
    label: str,
    source: tuple[SSAValue, Alias, list[Range]],
    destination: tuple[SSAValue, Alias, list[Range]],
    permutation: Sequence[int] | None = None,
    indices: Sequence[SSAValue] = (),
) -> sd.CopyOp | sd.MapOp:
    """Copy the box of a source name (its root container, alias and box) to the box of a
    destination name: an `sdfg.copy` of the root boxes when both keep their elements'
    order, else a map over the destination's box, reading the source element at
    `permutation` of the point (a transpose) and writing the point. Both boxes must have
    the same extents once dimensions of extent 1 are dropped (in permuted order). The
    boxes may use `indices` (loop variables) as dimensions; only an `sdfg.copy` can."""
    (src_value, src_alias, src_ranges), (dst_value, dst_alias, dst_ranges) = source, destination
    if permutation is None:
        src_box, dst_box = src_alias.box(src_ranges), dst_alias.box(dst_ranges)
        if src_box is not None and dst_box is not None:
            return box_copy(src_value, src_box, dst_value, dst_box, indices)
    if indices:
        raise ViewError(f"copy '{label}' through a view that reorders elements, of a box that moves with a loop; "
                        "not supported yet")
    src_walk = [k for k, (b, e) in enumerate(src_ranges) if e - b != ONE]
    dst_walk = [k for k, (b, e) in enumerate(dst_ranges) if e - b != ONE]
    order = list(permutation) if permutation is not None else list(range(len(dst_walk)))
    if len(src_walk) != len(dst_walk) or sorted(order) != list(range(len(dst_walk))) or any(
        src_ranges[src_walk[order[p]]][1] - src_ranges[src_walk[order[p]]][0] != dst_ranges[k][1] - dst_ranges[k][0]
        for p, k in enumerate(dst_walk)
    ):
        raise ViewError(f"copy '{label}' between boxes of different shapes through a view; not supported")
    extents = [dst_ranges[k][1] - dst_ranges[k][0] for k in dst_walk]
    op = sd.MapOp(label, [0] * len(extents), extents, [1] * len(extents), param_names=[f"i{p}" for p in range(len(extents))])
    points = [IndexExpr.dim(p) for p in range(len(extents))]
    src_point = [b for b, _ in src_ranges]
    for p, k in enumerate(dst_walk):
        src_point[src_walk[order[p]]] = src_point[src_walk[order[p]]] + points[p]
    dst_point = [b for b, _ in dst_ranges]
    for p, k in enumerate(dst_walk):
        dst_point[k] = dst_point[k] + points[p]
    read = sd.ReadOp(src_value, *sd.access_operands(op.params, src_alias.apply(src_point)))
    write = sd.WriteOp(read.result, dst_value, *sd.access_operands(op.params, dst_alias.apply(dst_point)))
    op.body.block.add_ops([read, write])
    return op


def box_copy(source: SSAValue, source_box: Sequence[Range], destination: SSAValue,
             destination_box: Sequence[Range], indices: Sequence[SSAValue]) -> sd.CopyOp:
    """An `sdfg.copy` of the boxes, with only the `indices` they use, in order of first use."""
    boxes = [e for r in (*source_box, *destination_box) for e in r]
    operands, flat = sd.access_operands(indices, boxes)
    pairs = [(flat[k], flat[k + 1]) for k in range(0, len(flat), 2)]
    return sd.CopyOp(source, pairs[: len(source_box)], destination, pairs[len(source_box):], operands)
