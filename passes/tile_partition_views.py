"""Reads of a map that ipu-tile-partition cannot read as a neighbour of the point in an
array of the written shape, and how it reads them instead.

A map's points are the elements of the arrays it writes (their layout places the
work); other reads are at constant offsets from the point in arrays of the same shape
(`analyze_body`). The importer turns views into other access patterns:

- a *reshaped* read (a reshape view: `A[(4 * i + j) floordiv 6, (4 * i + j) mod 6]` for
  a 4x6 `A` read as 6x4): the container has as many elements as the written arrays and
  the read lands at a constant row-major offset from the point. It shares their layout
  (so the read is local) and is read like a neighbour, at that offset.
- a *view* read: each index of the container is a constant or one map parameter plus a
  constant, each parameter used once and every parameter used (rows `A[3, i]`, columns
  `A[i, 2]`, transposes `A[j, i]`). The vertex reads an `ipu.view` of the container
  with the shape of the written arrays (Poplar's slice, reshape and dimShuffle of the
  variable), at constant offsets from the point. The container keeps its own layout:
  a row of it or a transposed block lives on other tiles, and Poplar's exchange brings
  each vertex exactly the elements of its block (for a transpose, a strided column
  block), so a view costs the exchange of the elements read, no copy of the container
  and no memory beyond the vertices' receive buffers. Copying the container first
  (into a transposed layout) would exchange as much and hold it twice.

Anything else (a scaled parameter, two parameters in one index, a parameter the read
does not use: a broadcast) stays an error of `analyze_body`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import prod

from ipu_lower.diagnostics import error
from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr, recombine_divmod
from xdsl.ir import SSAValue


@dataclass(frozen=True)
class ViewKey:
    """An `ipu.view` of `container`: its box [begin, end) and the variable dimension
    each of its dimensions walks (see `ipu.ViewOp`)."""

    container: str
    begin: tuple[int, ...]
    end: tuple[int, ...]
    dims: tuple[int, ...]


def _strides(shape: tuple[int, ...]) -> list[int]:
    return [prod(shape[k + 1 :]) for k in range(len(shape))]


def _in_params(op: sd.ReadOp, params: tuple[SSAValue, ...]) -> list[IndexExpr] | None:
    """The subset of `op` with dimension k standing for the k-th map parameter."""
    if any(index not in params for index in op.indices):
        return None
    positions = {d: IndexExpr.dim(params.index(index)) for d, index in enumerate(op.indices)}
    return [e.substitute(dims=positions) for e in op.subset_exprs()]


def split_offset(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """Per-dimension offsets in an array of `shape` whose row-major offset is `flat`."""
    offsets = []
    for stride in _strides(shape):
        offsets.append(int(flat / stride))
        flat -= offsets[-1] * stride
    return tuple(offsets)


def reshaped_offset(
    op: sd.ReadOp,
    params: tuple[SSAValue, ...],
    origin: list[int],
    shape: tuple[int, ...],
    written_shape: tuple[int, ...],
) -> int | None:
    """The row-major offset from the point (an element of the written arrays, written at
    `origin` from the map parameters) of a read of a container of `shape`, when that is
    a constant and both hold as many elements; else None."""
    exprs = _in_params(op, params)
    if exprs is None or prod(shape) != prod(written_shape):
        return None
    read = sum((e * s for e, s in zip(exprs, _strides(shape))), IndexExpr.constant(0))
    point = sum(
        ((IndexExpr.dim(m) + w) * s for m, (w, s) in enumerate(zip(origin, _strides(written_shape)))),
        IndexExpr.constant(0),
    )
    return recombine_divmod(read - point).constant_value()


Describe = Callable[[sd.ReadOp], str]
"""How messages spell an access (`describe_access` of ipu-tile-partition)."""


def plan_view(
    what: str,
    describe: Describe,
    op: sd.ReadOp,
    params: tuple[SSAValue, ...],
    bounds: list[tuple[int, int]],
    origin: list[int],
    shape: tuple[int, ...],
    written_shape: tuple[int, ...],
) -> tuple[ViewKey, tuple[int, ...]] | None:
    """The view of its container with the written arrays' shape that `op` reads, and its
    offset from the point in that view; None when `op` is not a view read. The view is
    cut from the container so that the point's own element needs no offset where the
    container is large enough, else (a stencil along a row) the read is offset within it.
    Its dimensions have the extents of the written arrays, so that offsets from the point
    are the same row-major offsets in both, except the outermost one, which may be
    shorter (`y[i] = t[i]` over the first 10 of 11 elements of y, t of 10)."""
    exprs = _in_params(op, params)
    if exprs is None:
        return None
    walks: dict[int, tuple[int, int]] = {}  # parameter -> (container dimension, offset)
    begin, end = [], []
    for d, e in enumerate(exprs):
        index = e.constant_value()
        if index is not None:
            if not 0 <= index < shape[d]:
                raise error(op, f"{what} reads '{describe(op)}' outside its shape {op.container.type}")
            begin.append(index)
            end.append(index + 1)
            continue
        used = e.dims()
        if len(used) != 1:
            return None
        m = min(used)
        offset = e.dim_offset(m)
        if offset is None or m in walks:
            return None
        walks[m] = (d, offset)
        begin.append(0)
        end.append(0)
    if sorted(walks) != list(range(len(written_shape))):
        return None  # a parameter the read does not use: a broadcast
    offsets = []
    for m, (d, c) in sorted(walks.items()):
        lo, hi = bounds[m]
        if lo + c < 0 or hi + c > shape[d]:
            raise error(op, f"{what} reads '{describe(op)}' outside its shape {op.container.type}")
        extent = written_shape[m]
        if extent <= shape[d]:
            begin[d] = min(max(c - origin[m], 0), shape[d] - extent)
            end[d] = begin[d] + extent
        elif m == 0:  # a shorter outermost dimension keeps the row-major strides
            end[d] = shape[d]
        else:
            return None
        offsets.append(c - origin[m] - begin[d])
    dims = tuple(walks[m][0] for m in range(len(written_shape)))
    return ViewKey(sd.container_name(op.container), tuple(begin), tuple(end), dims), tuple(offsets)


def view_halos(
    what: str,
    describe: Describe,
    views: dict[sd.ReadOp, tuple[ViewKey, tuple[int, ...]]],
    written_shape: tuple[int, ...],
    span: tuple[int, int],
    written: set[str],
) -> dict[ViewKey, tuple[int, int]]:
    """The halo of each view: the elements before and after the point its reads need.
    Each vertex is connected to its block of the view and the halo around it, so the
    view (whose row-major strides are those of the written arrays) must hold them for
    every point of the span (also those a mask skips). No view may be of a container
    the map writes: a vertex would read elements another vertex of the same compute
    set writes."""
    halos: dict[ViewKey, tuple[int, int]] = {}
    strides = _strides(written_shape)
    for op, (key, offsets) in views.items():
        if key.container in written:
            raise error(
                op,
                f"{what} reads '{describe(op)}' through a view and writes '{key.container}': other vertices "
                "write those elements in the same compute set",
            )
        flat = sum(o * s for o, s in zip(offsets, strides))
        before, after = halos.get(key, (0, 0))
        halos[key] = (max(before, -flat), max(after, flat))
    for op, (key, _) in views.items():
        before, after = halos[key]
        check_flat_read(what, describe, op, (-before, after), span, prod(e - b for b, e in zip(key.begin, key.end)))
    return halos


def check_flat_read(
    what: str, describe: Describe, op: sd.ReadOp, reach: tuple[int, int], span: tuple[int, int], elements: int
) -> None:
    """The elements from `reach[0]` to `reach[1]` (row-major offsets) around every point of
    `span` lie in the array of `elements` that `op` reads."""
    first, last = span[0] + min(reach[0], 0), span[1] - 1 + max(reach[1], 0)
    if first < 0 or last >= elements:
        raise error(
            op,
            f"{what} reads '{describe(op)}' from elements [{first}:{last + 1}] around its points, outside the "
            f"{elements} it can read them from; not supported",
        )
