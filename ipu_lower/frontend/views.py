"""DaCe views, resolved to the containers they view.

DaCe's numpy frontend makes a View (`ArrayView`) access node for slices (`A[1:-1, 1:-1]`),
rows and columns (`A[i, :]`, `A[:, j]`) and reshapes: a window with no data of its own
on the subset of the container at the other end of its *view edge*, addressed with the
view's strides from the subset's first element. The importer makes no container for a
view. Every memlet on one becomes an access of the container at the root of the chain of
views, its subset the memlet's index expressions composed with the view's `Alias` (the
root index of each dimension as an expression of the view's indices), so later passes
see `A[i + 1, j + 1]` for `A_0[i, j]` and need to know nothing about views:

- a view whose strides are those of the viewed subset's dimensions (slices, rows,
  columns; a transposed view has them in another order) indexes the root at
  begin + step * view index; dimensions of extent 1 on either side drop out;
- a row-major contiguous view of a contiguous subset with another shape (a reshape)
  re-splits the row-major offset of the view index over the root's shape with
  `floordiv` and `mod`.

Anything else (negative or mismatched strides, a view that views nothing) is one error
naming the node: a wrong guess about memory would give wrong results.

Copies through views stay `sdfg.copy`s when both sides are boxes of their roots in the
same element order; otherwise (a transposed or reshaped side) the copy becomes a map
that reads and writes one element per point, like a DaCe `Transpose` library node.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dace import data as dt
from dace.libraries.standard.nodes import Transpose
from dace.sdfg import SDFG, SDFGState, nodes
from dace.sdfg.utils import get_view_edge

from ipu_lower.dialects.alias import ONE, Alias, ViewError, copy_op
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.frontend.symbolic import SymbolicError, to_index_expr


def is_view(desc: dt.Data) -> bool:
    return isinstance(desc, dt.View)


def resolve(aliases: dict[str, Alias], name: str, subset: Sequence[IndexExpr]) -> tuple[str, list[IndexExpr]]:
    """The root container and root subset of the element `subset` of `name`."""
    alias = aliases.get(name)
    return (name, list(subset)) if alias is None else (alias.root, alias.apply(subset))


# -- the alias of one view ------------------------------------------------------------------


def _exprs(values, what: str, node) -> list[IndexExpr]:
    try:
        return [to_index_expr(v) for v in values]
    except SymbolicError as err:
        raise ViewError(f"{what}: {err}", node) from err


def _contiguous_strides(shape: Sequence[IndexExpr]) -> list[IndexExpr]:
    strides = [IndexExpr.constant(1)] * len(shape)
    for k in range(len(shape) - 2, -1, -1):
        strides[k] = strides[k + 1] * shape[k + 1]
    return strides


def _text(values: Sequence[IndexExpr]) -> str:
    return "(" + ", ".join(str(v) for v in values) + ")"


def window(
    name: str,
    shape: Sequence[IndexExpr],
    strides: Sequence[IndexExpr],
    parent: str,
    parent_shape: Sequence[IndexExpr],
    parent_strides: Sequence[IndexExpr],
    subset: Sequence[tuple[IndexExpr, IndexExpr, IndexExpr]],
    node=None,
    kind: str = "view",
) -> tuple[IndexExpr, ...]:
    """The index into `parent` of each dimension of the view `name` of the subset
    `subset` ((begin, last, step) per dimension, DaCe's inclusive ranges). `kind` names
    what is a view of `parent` in messages (a view, a nested SDFG's argument)."""
    for value in (*strides, *parent_strides, *(step for _, _, step in subset)):
        constant = value.constant_value()
        if constant is not None and constant < 0:
            raise ViewError(
                f"{kind} '{name}' of '{parent}' has a negative stride {constant}; views that run backwards "
                "are not supported",
                node,
            )
    for begin, last, step in subset:
        if step.constant_value() is None:
            raise ViewError(f"{kind} '{name}' of '{parent}' has a symbolic step '{step}'; not supported", node)
    extents = [(last - begin).floordiv(step) + 1 for begin, last, step in subset]
    kept = [d for d, extent in enumerate(extents) if extent != ONE]
    walking = [k for k, n in enumerate(shape) if n != ONE]
    matched: dict[int, int] = {}  # parent dimension -> view dimension
    for k in walking:
        d = next(
            (d for d in kept if d not in matched and strides[k] == parent_strides[d] * subset[d][2]
             and shape[k] == extents[d]),
            None,
        )
        if d is None:
            break
        matched[d] = k
    if len(matched) == len(walking) == len(kept):
        return tuple(
            begin + step * IndexExpr.dim(matched[d]) if d in matched else begin
            for d, (begin, _, step) in enumerate(subset)
        )
    if _is_reshape(shape, strides, parent_shape, parent_strides, subset, extents):
        flat = sum(
            (begin * stride for (begin, _, _), stride in zip(subset, parent_strides)), IndexExpr.constant(0)
        ) + sum((IndexExpr.dim(k) * stride for k, stride in enumerate(strides)), IndexExpr.constant(0))
        return _split(flat, parent_shape)
    raise ViewError(
        f"{kind} '{name}' of '{parent}' has shape {_text(shape)} and strides {_text(strides)}, which are "
        f"neither the strides {_text([parent_strides[d] * subset[d][2] for d in kept])} of the viewed "
        "subset's dimensions nor a reshape of a contiguous subset; not supported",
        node,
    )


def _is_reshape(shape, strides, parent_shape, parent_strides, subset, extents) -> bool:
    """A row-major contiguous view of a contiguous subset of a row-major container."""
    if list(strides) != _contiguous_strides(shape) or list(parent_strides) != _contiguous_strides(parent_shape):
        return False
    if any(step != ONE for _, _, step in subset):
        return False
    partial = [
        d for d, ((begin, _, _), extent) in enumerate(zip(subset, extents))
        if (begin, extent) != (IndexExpr.constant(0), parent_shape[d])
    ]
    return not partial or all(extent == ONE for extent in extents[: partial[-1]])


def _split(flat: IndexExpr, shape: Sequence[IndexExpr]) -> tuple[IndexExpr, ...]:
    """The row-major index of the element at offset `flat` of an array of `shape`."""
    if not shape:
        return ()
    indices = []
    for n in reversed(shape[1:]):
        indices.append(flat.mod(n))
        flat = flat.floordiv(n)
    indices.append(flat)
    return tuple(reversed(indices))


def descriptor_window(
    name: str, desc: dt.Data, parent: str, parent_desc: dt.Data, subset, node=None, kind: str = "view",
    symbols: Mapping[str, IndexExpr] | None = None,
) -> tuple[IndexExpr, ...]:
    """`window` for DaCe descriptors and a DaCe subset (None: all of the parent);
    `symbols` are substituted into the shape and strides of `desc` (a nested SDFG's
    argument, in its own symbols)."""
    what = f"{kind} '{name}' of '{parent}'"
    shape, strides, parent_shape, parent_strides = [], [], [], []  # DaCe gives Scalars shape (1,)
    if not isinstance(desc, dt.Scalar):
        shape = [e.substitute(symbols) for e in _exprs(desc.shape, f"{what} has an unsupported shape", node)]
        strides = [e.substitute(symbols) for e in _exprs(desc.strides, f"{what} has unsupported strides", node)]
    if not isinstance(parent_desc, dt.Scalar):
        parent_shape = _exprs(parent_desc.shape, f"{what} views an unsupported shape", node)
        parent_strides = _exprs(parent_desc.strides, f"{what} views unsupported strides", node)
    if subset is None or isinstance(parent_desc, dt.Scalar):
        ranges = [(IndexExpr.constant(0), n - 1, ONE) for n in parent_shape]
    else:
        ranges = [tuple(_exprs(r, f"{what} views an unsupported subset", node)) for r in subset.ndrange()]
    if len(ranges) != len(parent_shape):
        raise ViewError(f"{what}: the viewed subset has {len(ranges)} dimensions, '{parent}' {len(parent_shape)}", node)
    return window(name, shape, strides, parent, parent_shape, parent_strides, ranges, node, kind)  # type: ignore[arg-type]


# -- the views of a state -------------------------------------------------------------------


def state_aliases(sdfg: SDFG, state: SDFGState) -> dict[str, Alias]:
    """The alias of every view accessed in `state`, by name."""
    aliases: dict[str, Alias] = {}
    resolved: dict[nodes.AccessNode, Alias] = {}
    for node in state.data_nodes():
        if is_view(node.desc(sdfg)):
            alias = _node_alias(sdfg, state, node, resolved, ())
            if aliases.setdefault(node.data, alias) != alias:
                raise ViewError(f"view '{node.data}' views different data in one state; not supported", node)
    return aliases


def viewed_edge(state: SDFGState, node: nodes.AccessNode):
    """The edge between a view node and the data it views."""
    edge = get_view_edge(state, node)
    if edge is None or not isinstance(edge.src, nodes.AccessNode) or not isinstance(edge.dst, nodes.AccessNode):
        raise ViewError(f"view '{node.data}' is not connected to the data it views by one edge; not supported", node)
    return edge


def is_view_edge(sdfg: SDFG, state: SDFGState, edge) -> bool:
    """Whether `edge` connects a view to the data it views (and so moves no data)."""
    return any(
        isinstance(n, nodes.AccessNode) and is_view(n.desc(sdfg)) and get_view_edge(state, n) is edge
        for n in (edge.src, edge.dst)
    )


def _node_alias(sdfg: SDFG, state: SDFGState, node: nodes.AccessNode, resolved: dict, chain: tuple) -> Alias:
    if node in resolved:
        return resolved[node]
    if node in chain:
        raise ViewError(f"view '{node.data}' views itself through a cycle of views", node)
    edge = viewed_edge(state, node)
    other = edge.src if edge.dst is node else edge.dst
    memlet = edge.data
    if memlet.data == other.data:
        subset, own = memlet.subset, memlet.other_subset
    elif memlet.data == node.data:
        subset, own = memlet.other_subset, memlet.subset
    else:
        raise ViewError(f"view '{node.data}' is connected by a memlet of '{memlet.data}'", node)
    desc, other_desc = node.desc(sdfg), other.desc(sdfg)
    if own is not None and own.size_exact() != list(desc.shape):
        raise ViewError(f"view '{node.data}' is connected through a part of itself ({own}); not supported", node)
    indices = descriptor_window(node.data, desc, other.data, other_desc, subset, node)
    alias = Alias(other.data, indices)
    if is_view(other_desc):
        alias = alias.through(_node_alias(sdfg, state, other, resolved, (*chain, node)))
    resolved[node] = alias
    return alias


# -- copies through views and transposes -----------------------------------------------------


def is_transpose(node) -> bool:
    """A DaCe `Transpose` library node (`A.T`, `np.transpose(A)` of a 2-D array)."""
    return isinstance(node, Transpose)
