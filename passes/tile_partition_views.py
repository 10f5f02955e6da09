"""Where a map's points are, and how its vertices read what is not at constant offsets
from them in an array of the written shape.

A map's points are the elements of the arrays it writes (their layout places the
work): the `PointFrame` of its first write, whose every index is a constant (a written
row `B[2, i]` fixes dimension 0) or one map parameter plus a constant. Accesses of
arrays of that shape whose every index is then a constant offset from the point are
read like neighbours (halos; `analyze_body`). The importer turns views into other
access patterns:

- a *reshaped* read (a reshape view: `A[(4 * i + j) floordiv 6, (4 * i + j) mod 6]` for
  a 4x6 `A` read as 6x4): the container has as many elements as the written arrays and
  the read lands at a constant row-major offset from the point. It shares their layout
  (so the read is local) and is read like a neighbour, at that offset.
- a *view* read: each index of the container is a constant or one map parameter plus a
  constant, each parameter used at most once (rows `A[3, i]`, columns `A[i, 2]`,
  transposes `A[j, i]`, broadcasts `x[j]` over the rows of `B[i, j]`, another row than
  the written one). The vertex reads an `ipu.view` of the container with the frame's
  shape (Poplar's slice, reshape, dimShuffle and broadcast of the variable), at
  constant offsets from the point. The container keeps its own layout: a row of it or
  a transposed block lives on other tiles, and Poplar's exchange brings each vertex
  exactly the elements of its block (for a transpose, a strided column block), so a
  view costs the exchange of the elements read, no copy of the container and no
  memory beyond the vertices' receive buffers. Copying the container first (into a
  transposed layout) would exchange as much and hold it twice.

Anything else (a scaled parameter, two parameters in one index, a parameter in two)
stays an error of `analyze_body`.
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
class PointFrame:
    """Where a map's points are: the elements of the arrays it writes (of `shape`) whose
    index in dimension k is `origin[k]` plus, when `params[k]` is a parameter (by
    position), that parameter; `box` holds the points of the map's ranges. A write of a
    row (`B[2, i]`) fixes a dimension: its parameter is None."""

    shape: tuple[int, ...]
    params: tuple[int | None, ...]
    origin: tuple[int, ...]
    box: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class ViewKey:
    """An `ipu.view` of `container` (see `ipu.ViewOp`): its box [begin, end), the
    variable dimension each of its dimensions walks (BROADCAST: none, the rest
    repeated along it), and its shape."""

    container: str
    begin: tuple[int, ...]
    end: tuple[int, ...]
    dims: tuple[int, ...]
    shape: tuple[int, ...]


BROADCAST = -1


def _strides(shape: tuple[int, ...]) -> list[int]:
    return [prod(shape[k + 1 :]) for k in range(len(shape))]


def _in_params(op: sd.ReadOp | sd.WriteOp, params: tuple[SSAValue, ...]) -> list[IndexExpr] | None:
    """The subset of `op` with dimension k standing for the k-th map parameter."""
    if any(index not in params for index in op.indices):
        return None
    positions = {d: IndexExpr.dim(params.index(index)) for d, index in enumerate(op.indices)}
    return [e.substitute(dims=positions) for e in op.subset_exprs()]


def _affine(e: IndexExpr) -> tuple[int | None, int] | None:
    """(None, c) for a constant c, (m, c) for parameter m plus c, else None."""
    if (constant := e.constant_value()) is not None:
        return None, constant
    used = e.dims()
    if len(used) != 1 or (offset := e.dim_offset(min(used))) is None:
        return None
    return min(used), offset


def point_frame(
    op: sd.WriteOp, params: tuple[SSAValue, ...], bounds: list[tuple[int, int]], shape: tuple[int, ...]
) -> PointFrame | None:
    """The frame of a map that writes `op` (of a container of `shape`): each index of the
    write a constant or one parameter plus a constant, every parameter used once."""
    exprs = _in_params(op, params)
    if exprs is None:
        return None
    terms = [_affine(e) for e in exprs]
    if any(t is None for t in terms):
        return None
    used = [m for m, _ in terms if m is not None]  # type: ignore[misc]
    if sorted(used) != list(range(len(params))):
        return None
    box = tuple((c, c + 1) if m is None else (bounds[m][0] + c, bounds[m][1] + c) for m, c in terms)  # type: ignore[misc]
    return PointFrame(shape, tuple(m for m, _ in terms), tuple(c for _, c in terms), box)  # type: ignore[misc]


def frame_offsets(op: sd.ReadOp | sd.WriteOp, params: tuple[SSAValue, ...], frame: PointFrame) -> list[int] | None:
    """The offset of each index of `op` (an array of the frame's shape) from the point,
    when constant; else None."""
    exprs = _in_params(op, params)
    if exprs is None or len(exprs) != len(frame.shape):
        return None
    offsets = []
    for e, m, origin in zip(exprs, frame.params, frame.origin):
        term = _affine(e)
        if term is None or term[0] != m:
            return None
        offsets.append(term[1] - origin)
    return offsets


def split_offset(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """Per-dimension offsets in an array of `shape` whose row-major offset is `flat`."""
    offsets = []
    for stride in _strides(shape):
        offsets.append(int(flat / stride))
        flat -= offsets[-1] * stride
    return tuple(offsets)


def reshaped_offset(
    op: sd.ReadOp, params: tuple[SSAValue, ...], frame: PointFrame, shape: tuple[int, ...]
) -> int | None:
    """The row-major offset from the point of a read of a container of `shape`, when
    that is a constant and it holds as many elements as the written arrays; else None."""
    exprs = _in_params(op, params)
    if exprs is None or prod(shape) != prod(frame.shape):
        return None
    read = sum((e * s for e, s in zip(exprs, _strides(shape))), IndexExpr.constant(0))
    point = sum(
        ((IndexExpr.dim(m) if m is not None else 0) + c) * s
        for m, c, s in zip(frame.params, frame.origin, _strides(frame.shape))
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
    frame: PointFrame,
    shape: tuple[int, ...],
) -> tuple[ViewKey, tuple[int, ...]] | None:
    """The view of its container with the frame's shape that `op` reads, and its offset
    from the point in that view; None when `op` is not a view read. A dimension of the
    frame whose parameter the read does not use (or that the write fixes) repeats the
    rest (a broadcast: `x[j]` read over the rows of `B[i, j]`). A walked dimension is
    cut from the container so that the point's own element needs no offset where the
    container is large enough, else (a stencil along a row) the read is offset within
    it. The view's dimensions have the frame's extents, so that offsets from the point
    are the same row-major offsets in both, except the outermost one, which may be
    shorter (`b[i] = t[i]` over the first 10 of 11 elements of b, t of 10)."""
    exprs = _in_params(op, params)
    if exprs is None:
        return None
    walks: dict[int, tuple[int, int]] = {}  # parameter -> (container dimension, offset)
    begin, end = [], []
    for d, e in enumerate(exprs):
        term = _affine(e)
        if term is None or (term[0] is not None and term[0] in walks):
            return None
        m, c = term
        if m is None:
            if not 0 <= c < shape[d]:
                raise error(op, f"{what} reads '{describe(op)}' outside its shape {op.container.type}")
            begin.append(c)
            end.append(c + 1)
            continue
        lo, hi = bounds[m]
        if lo + c < 0 or hi + c > shape[d]:
            raise error(op, f"{what} reads '{describe(op)}' outside its shape {op.container.type}")
        walks[m] = (d, c)
        begin.append(0)
        end.append(0)
    dims, offsets = [], []
    for k, (m, origin, extent) in enumerate(zip(frame.params, frame.origin, frame.shape)):
        if m is None or m not in walks:
            dims.append(BROADCAST)
            offsets.append(0)
            continue
        d, c = walks[m]
        if extent <= shape[d]:
            begin[d] = min(max(c - origin, 0), shape[d] - extent)
            end[d] = begin[d] + extent
        elif k == 0:  # a shorter outermost dimension keeps the row-major strides
            end[d] = shape[d]
        else:
            return None
        dims.append(d)
        offsets.append(c - origin - begin[d])
    view_shape = tuple(end[d] - begin[d] if d != BROADCAST else n for d, n in zip(dims, frame.shape))
    return ViewKey(sd.container_name(op.container), tuple(begin), tuple(end), tuple(dims), view_shape), tuple(offsets)


def view_halos(
    what: str,
    describe: Describe,
    views: dict[sd.ReadOp, tuple[ViewKey, tuple[int, ...]]],
    frame_shape: tuple[int, ...],
    span: tuple[int, int],
    written: dict[str, tuple[tuple[int, int], ...]],
) -> dict[ViewKey, tuple[int, int]]:
    """The halo of each view: the elements before and after the point its reads need.
    Each vertex is connected to its block of the view and the halo around it, so the
    view (whose row-major strides are those of the written arrays) must hold them for
    every point of the span (also those a mask skips). A view of a container the map
    writes (`written`: the box it writes of each) must lie outside that box: else a
    vertex would read elements another vertex of the same compute set writes."""
    halos: dict[ViewKey, tuple[int, int]] = {}
    strides = _strides(frame_shape)
    for op, (key, offsets) in views.items():
        box = written.get(key.container)
        if box is not None and all(b < hi and lo < e for b, e, (lo, hi) in zip(key.begin, key.end, box)):
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
        check_flat_read(what, describe, op, (-before, after), span, prod(key.shape))
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
