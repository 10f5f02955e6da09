"""Reductions in DaCe SDFGs: `sdfg.reduce` (popops) or `sdfg.accumulate` (our own tree).

DaCe reduces in two ways: memlets with write-conflict resolution (WCR: a lambda such as
`lambda x, y: x + y` that combines a written value with the element it lands on), and
`Reduce` library nodes (whole array or some axes, with an optional identity). They take
one of two paths:

- popops (`sdfg.reduce`, then `popops::reduceWithOutput`): a `Reduce` node outside maps
  whose input and output Poplar can address as tensors, whole containers and static
  boxes (tensor slices; a box a loop variable moves is copied into a transient first,
  by a dynamic slice), of Sum, Product, Min or Max over float32, float16 or int32.
  poplibs' reduction is tuned for exactly this, and plans its own stages over the tiles.
- our tree (`sdfg.accumulate` in a map, planned by ipu-tile-partition as levels of
  `ipu.tiled_reduce`): WCR memlets in maps (a tasklet's result combined as it is
  computed, which no library call can take), `Dot` and a `MatMul` of two vectors, custom
  lambdas, other element types (8/16-bit and unsigned integers), a product, minimum or
  maximum into the output's old value (poplibs updates only sums), and a `Reduce` of a box
  of loop-dependent size: `loop_extents` makes it read a padded transient written by a
  guarded map, which sdfg-fuse-maps fuses with the reduction's map, so that the padded
  transient never exists; popops would need it in memory.

On the tree a `Reduce` becomes a map whose iterations `sdfg.accumulate` into the
destination, preceded, when the reduction starts from an identity (a `Reduce` with one,
`Dot`), by a write of that identity. `Dot` (`np.dot` of two vectors) is the sum of their
products.

DaCe's meaning of a `Reduce` (its pure expansion, dace/libraries/standard/nodes/reduce.py):
with an identity the output is first set to it and every value combined into it; without
one the values are combined into the output's old value; a WCR on the output memlet
combines the result into the old value too. So on the popops path an identity that is
the operation's neutral element (0, 1, the largest or smallest value of the type) gives a
plain reduction, any other identity is written first and the sum updates it, and no
identity (or a WCR of the same sum) updates the output.

The lambda is recognised from its syntax tree, never evaluated: DaCe's own
`dace.frontend.operations.detect_reduction_type` calls `eval` on it. We accept the forms
DaCe's frontends write for the reductions it names Sum, Product, Min and Max
(`a + b`, `a * b`, `min(a, b)`, `max(a, b)`, operands in either order) and report
anything else.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from dace import data as dt
from dace import Memlet, dtypes, nodes, subsets
from dace.sdfg import SDFG, SDFGState
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, Signedness
from xdsl.ir import Attribute, Block, Operation, Region

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.dialects.reduction import signless_value, typed_value
from ipu_lower.element_types import signless
from ipu_lower.frontend import views
from ipu_lower.frontend.symbolic import SymbolicError, to_index_expr

if TYPE_CHECKING:
    from ipu_lower.frontend.importer import _SdfgImporter

KIND_OF_REDUCTION_TYPE = {
    dtypes.ReductionType.Sum: "add",
    dtypes.ReductionType.Product: "mul",
    dtypes.ReductionType.Min: "min",
    dtypes.ReductionType.Max: "max",
}
"""DaCe's reduction types that `sdfg.accumulate` supports, and its name for each."""

_BINARY = {ast.Add: dtypes.ReductionType.Sum, ast.Mult: dtypes.ReductionType.Product}
_CALLS = {"min": dtypes.ReductionType.Min, "max": dtypes.ReductionType.Max}


def reduction_type(wcr: str | None) -> dtypes.ReductionType | None:
    """DaCe's name for the reduction a WCR lambda performs, read from its syntax tree:
    Sum, Product, Min or Max for `lambda a, b: a + b` (`b + a`), `a * b`, `min(a, b)`,
    `max(a, b)`; Custom for any other lambda; None without one."""
    if wcr is None or not str(wcr).strip():
        return None
    try:
        tree = ast.parse(str(wcr).strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return dtypes.ReductionType.Custom
    if not isinstance(tree, ast.Lambda):
        return dtypes.ReductionType.Custom
    args = tree.args
    if args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg or args.defaults or len(args.args) != 2:
        return dtypes.ReductionType.Custom
    params = {a.arg for a in args.args}
    body = tree.body

    def both(operands: Sequence[ast.expr]) -> bool:
        return (
            len(operands) == 2
            and all(isinstance(o, ast.Name) for o in operands)
            and {o.id for o in operands} == params  # type: ignore[attr-defined]
            and len(params) == 2
        )

    if isinstance(body, ast.BinOp) and type(body.op) in _BINARY and both([body.left, body.right]):
        return _BINARY[type(body.op)]
    if (
        isinstance(body, ast.Call)
        and isinstance(body.func, ast.Name)
        and body.func.id in _CALLS
        and not body.keywords
        and both(body.args)
    ):
        return _CALLS[body.func.id]
    return dtypes.ReductionType.Custom


def reduction_kind(wcr: str) -> str | None:
    """The `sdfg.accumulate` kind of a WCR lambda, None when it is not one we support."""
    return KIND_OF_REDUCTION_TYPE.get(reduction_type(wcr))  # type: ignore[arg-type]


def unknown_reduction(wcr: str) -> str:
    return (
        f"write-conflict resolution '{wcr}' is not a known reduction "
        "(only sum, product, min and max, as 'lambda a, b: a + b', 'a * b', 'min(a, b)', 'max(a, b)')"
    )


# -- which path a Reduce node takes ---------------------------------------------------------

POPOPS_DTYPES = ("float32", "float16", "int32")
"""The element types popops reduces with each of Sum, Product, Min and Max
(include/popops/Reduce.hpp:85-91: float, half, int)."""


def is_neutral(kind: str, value: float, dtype) -> bool:
    """Whether combining with `value` leaves every `dtype` value unchanged under `kind`."""
    info = np.finfo(dtype) if np.issubdtype(dtype, np.floating) else np.iinfo(dtype)
    return {"add": value == 0, "mul": value == 1, "min": value >= info.max, "max": value <= info.min}[kind]


def popops_reductions(sdfg: SDFG, assigned: frozenset[str], padded) -> set:
    """The `Reduce` nodes of `sdfg` that take the popops path (module docstring), for
    `assigned` symbols (loop variables) and the `padded` nodes that `loop_extents` made
    read padded transients."""
    from dace.libraries.standard.nodes.reduce import Reduce

    found = set()
    for state in sdfg.states():
        for node in state.nodes():
            if isinstance(node, Reduce) and node not in padded and _popops_reduction(sdfg, state, node, assigned):
                found.add(node)
    return found


def _popops_reduction(sdfg: SDFG, state: SDFGState, node, assigned: frozenset[str]) -> bool:
    kind = reduction_kind(node.wcr)
    ins = [e for e in state.in_edges(node) if not e.data.is_empty()]
    outs = [e for e in state.out_edges(node) if not e.data.is_empty()]
    if kind is None or state.entry_node(node) is not None or len(ins) != 1 or len(outs) != 1:
        return False
    inedge, outedge = ins[0], outs[0]
    if not isinstance(inedge.src, nodes.AccessNode) or not isinstance(outedge.dst, nodes.AccessNode):
        return False
    dtype = sdfg.arrays[inedge.data.data].dtype
    if inedge.data.wcr is not None or sdfg.arrays[outedge.data.data].dtype != dtype:
        return False
    if np.dtype(dtype.type).name not in POPOPS_DTYPES:
        return False
    identity = None if node.identity is None else parse_number(node.identity)
    if node.identity is not None and identity is None:
        return False  # the tree names what is wrong with it
    neutral = identity is not None and is_neutral(kind, identity, dtype.type)
    if kind != "add" and not neutral:
        return False  # poplibs updates only sums
    wcr = outedge.data.wcr
    if wcr is not None and (reduction_kind(wcr) != kind or (identity is not None and not neutral)):
        return False
    if {str(s) for s in outedge.data.subset.free_symbols} & assigned:
        return False
    sizes = inedge.data.subset.size()
    axes = _axes(node, len(sizes))
    if axes is None or all(sizes[a] == 1 for a in axes):
        return False
    try:
        aliases = views.state_aliases(sdfg, state)
        for edge in (inedge, outedge):
            alias = aliases.get(edge.data.data)
            if alias is not None and alias.box(_index_ranges(edge.data.subset)) is None:
                return False  # a transposed or reshaped view
    except (views.ViewError, SymbolicError):
        return False  # the tree reports it
    return True


def _axes(node, rank: int) -> list[int] | None:
    """The dimensions a `Reduce` node reduces, sorted; None when they do not fit."""
    axes = list(range(rank)) if node.axes is None else sorted({a % rank if rank else a for a in node.axes})
    return axes if rank and all(0 <= a < rank for a in axes) else None


def _index_ranges(subset) -> list[tuple[IndexExpr, IndexExpr]]:
    return [(to_index_expr(b), to_index_expr(e + 1)) for b, e, _ in subset.ndrange()]


# -- building IR ---------------------------------------------------------------------------


def constant_tasklet(label: str, value, element: Attribute) -> sd.TaskletOp:
    """A tasklet without inputs yielding `value` as an `element` constant (an unsigned
    one is a signless constant cast to its type: arith has no unsigned constants)."""
    if isinstance(element, IntegerType):
        attr: Attribute = IntegerAttr(int(value), signless(element), truncate_bits=True)
    else:
        attr = FloatAttr(float(value), element)  # type: ignore[arg-type]
    ops: list[Operation] = [arith.ConstantOp(attr)]
    if (typed := typed_value(ops[0].results[0], element)) is not None:
        ops.append(typed)
    return sd.TaskletOp(label, [], [("out", element)], Region(Block([*ops, sd.YieldOp(ops[-1].results[0])])))


def parse_number(value) -> int | float | None:
    """A number given as a Python or numpy number, or as the text of a literal (never
    evaluated); None for anything else."""
    if isinstance(value, bool | np.bool_):
        return int(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        return float(value)
    if isinstance(value, str):
        text = value.strip()
        for convert in (int, float):
            try:
                return convert(text)
            except ValueError:
                continue
    return None


def fits(value: int | float, element: Attribute) -> bool:
    """Whether `value` is an `element` value: an integer in range of an integer type, any
    number but NaN for a float type (rounded to it)."""
    if isinstance(element, IntegerType):
        if not math.isfinite(value) or not float(value).is_integer():
            return False
        width = element.width.data
        if element.signedness.data == Signedness.UNSIGNED:
            return 0 <= int(value) < 2**width
        return -(2 ** (width - 1)) <= int(value) < 2 ** (width - 1)
    return not math.isnan(float(value))


class ReductionImporter:
    """Imports the reduction library nodes of one state, for the SDFG importer."""

    def __init__(self, importer: _SdfgImporter, state: SDFGState):
        self.importer = importer
        self.state = state

    def fail(self, node, message: str):
        return self.importer.fail(message, self.state, node)

    def expr(self, value, node) -> IndexExpr:
        return self.importer.expr(value, "unsupported subset", self.state, node)

    def element(self, name: str, node) -> Attribute:
        desc = self.importer.sdfg.arrays[name]
        return self.importer.element_type(desc.dtype, f"container '{name}'")

    def box(self, memlet, node) -> list[tuple[IndexExpr, IndexExpr]]:
        """(begin, size) of each dimension of a memlet's subset (step 1)."""
        desc = self.importer.sdfg.arrays[memlet.data]
        if isinstance(desc, dt.Scalar):
            return []
        box = []
        for begin, end, step in memlet.subset.ndrange():
            if self.expr(step, node) != IndexExpr.constant(1):
                raise self.fail(node, f"strided subset '{memlet.data}[{memlet.subset}]' is not supported yet")
            first = self.expr(begin, node)
            box.append((first, self.expr(end, node) + 1 - first))
        return box

    def single_edge(self, node, edges, what: str):
        real = [e for e in edges if not e.data.is_empty()]
        if len(real) != 1 or not isinstance(real[0].src if what == "input" else real[0].dst, nodes.AccessNode):
            raise self.fail(node, f"needs exactly one {what} connected to a container")
        if real[0].data.wcr is not None:
            raise self.fail(node, f"{what} memlet with write-conflict resolution is not supported")
        return real[0]

    def init(self, node, label: str, value, out: str, out_box, element: Attribute) -> list[Operation]:
        """Ops writing `value` into every element of `out_box` of container `out`."""
        number = parse_number(value)
        if number is None or not fits(number, element):
            raise self.fail(node, f"identity '{value}' is not a constant of the output type {element}")
        sizes = [size for _, size in out_box]
        varying = [d for d, size in enumerate(sizes) if size != IndexExpr.constant(1)]
        tasklet = constant_tasklet(f"{label}_init", number, element)
        if not varying:
            return [tasklet, sd.WriteOp(tasklet.outputs[0], *self.importer.resolved(out, [b for b, _ in out_box], []))]
        zero, one = IndexExpr.constant(0), IndexExpr.constant(1)
        init_map = sd.MapOp(
            f"{label}_init", [zero] * len(varying), [sizes[d] for d in varying], [one] * len(varying),
            param_names=[f"_o{k}" for k in range(len(varying))],
        )
        subset = [b + IndexExpr.dim(varying.index(d)) if d in varying else b for d, (b, _) in enumerate(out_box)]
        init_map.body.block.add_ops([tasklet, sd.WriteOp(tasklet.outputs[0], *self.importer.resolved(out, subset, init_map.params))])
        return [init_map]

    def reduce(self, node: nodes.LibraryNode) -> list[Operation]:
        """A `Reduce` node: `sdfg.reduce` on the popops path (`popops_reduce`); else (the
        identity written into the output, then) a map over the input box accumulating
        each element into the output element of its kept indices."""
        if node in self.importer.popops_reductions:
            return self.popops_reduce(node)
        kind = reduction_kind(node.wcr)
        if kind is None:
            raise self.fail(node, unknown_reduction(node.wcr))
        inedge = self.single_edge(node, self.state.in_edges(node), "input")
        outedge = self.single_edge(node, self.state.out_edges(node), "output")
        source, out = inedge.data.data, outedge.data.data
        element = self.element(out, node)
        if self.element(source, node) != element:
            raise self.fail(node, f"reduces {self.element(source, node)} elements into {element}; a type change is not supported yet")
        in_box, out_box = self.box(inedge.data, node), self.box(outedge.data, node)
        rank = len(in_box)
        axes = list(range(rank)) if node.axes is None else sorted({a % rank if rank else a for a in node.axes})
        if any(not 0 <= a < max(rank, 1) for a in axes):
            raise self.fail(node, f"axes {node.axes} do not fit the rank-{rank} input")
        one = IndexExpr.constant(1)
        kept = [d for d in range(rank) if d not in axes and in_box[d][1] != one]
        out_varying = [d for d, (_, size) in enumerate(out_box) if size != one]
        if [in_box[d][1] for d in kept] != [out_box[d][1] for d in out_varying]:
            raise self.fail(
                node,
                f"the kept input dimensions ({', '.join(str(in_box[d][1]) for d in kept) or 'none'}) do not match the "
                f"output '{out}' ({', '.join(str(out_box[d][1]) for d in out_varying) or 'one element'})",
            )
        ops: list[Operation] = []
        label = node.label
        if node.identity is not None:
            ops += self.init(node, label, node.identity, out, out_box, element)
        zero = IndexExpr.constant(0)
        if rank == 0:
            raise self.fail(node, "reduces a scalar")
        map_op = sd.MapOp(label, [zero] * rank, [size for _, size in in_box], [one] * rank,
                          param_names=[f"_i{d}" for d in range(rank)])
        read = sd.ReadOp(*self.importer.resolved(source, [b + IndexExpr.dim(d) for d, (b, _) in enumerate(in_box)], map_op.params))
        position = dict(zip(out_varying, kept))
        out_subset = [b + IndexExpr.dim(position[d]) if d in position else b for d, (b, _) in enumerate(out_box)]
        accumulate = sd.AccumulateOp(kind, read.result, *self.importer.resolved(out, out_subset, map_op.params))
        map_op.body.block.add_ops([read, accumulate])
        return ops + [map_op]

    def popops_reduce(self, node: nodes.LibraryNode) -> list[Operation]:
        """`sdfg.reduce` of the root boxes of the node's input and output, updating the
        output unless the identity is neutral (then written first when it is not one)."""
        kind = reduction_kind(node.wcr)
        assert kind is not None
        (inedge,) = [e for e in self.state.in_edges(node) if not e.data.is_empty()]
        (outedge,) = [e for e in self.state.out_edges(node) if not e.data.is_empty()]
        source, out = inedge.data.data, outedge.data.data
        in_box, out_box = self.box(inedge.data, node), self.box(outedge.data, node)
        axes = _axes(node, len(in_box))
        assert axes is not None
        in_root, in_ranges, dims = self.root_box(source, in_box, axes)
        out_root, out_ranges, _ = self.root_box(out, out_box, [])
        identity = None if node.identity is None else parse_number(node.identity)
        neutral = identity is not None and is_neutral(kind, identity, self.importer.sdfg.arrays[source].dtype.type)
        ops: list[Operation] = []
        if identity is not None and not neutral:
            ops += self.init(node, node.label, node.identity, out, out_box, self.element(out, node))
        update = not neutral or outedge.data.wcr is not None
        return ops + [sd.ReduceOp(node.label, kind, in_root, in_ranges, out_root, out_ranges, dims, update)]

    def root_box(self, name: str, box, axes: list[int]):
        """The container at the root of `name`, the box `box` of `name` is of it, and the
        root's dimensions that `axes` of the box walk."""
        alias = self.importer.aliases.get(name) or views.Alias.identity(name, len(box))
        ranges = alias.box([(begin, begin + size) for begin, size in box])
        assert ranges is not None  # popops_reductions leaves reordering views to the tree
        walked = [min(e.dims()) if e.dims() else None for e in alias.indices]
        return self.importer.containers[alias.root], ranges, [r for r, k in enumerate(walked) if k in axes]

    def matmul(self, node: nodes.LibraryNode) -> list[Operation]:
        """`x @ y` of two vectors is a dot product (`is_dot_product`); the importer makes
        other products `sdfg.matmul` (`ipu_lower.frontend.matmul`)."""
        return self.dot(node)

    def dot(self, node: nodes.LibraryNode) -> list[Operation]:
        """A `Dot` node (or a `MatMul` of two vectors, `x @ y`): result = sum of
        x[i] * y[i] (the result starts from 0)."""
        x, y, out = ("_a", "_b", "_c") if library_kind(node) == "matmul" else ("_x", "_y", "_result")
        edges = {e.dst_conn: e for e in self.state.in_edges(node) if not e.data.is_empty()}
        outs = [e for e in self.state.out_edges(node) if not e.data.is_empty()]
        if set(edges) != {x, y} or len(outs) != 1 or outs[0].src_conn != out:
            raise self.fail(node, f"needs inputs {x}, {y} and output {out}")
        for edge in (*edges.values(), outs[0]):
            if edge.data.wcr is not None:
                raise self.fail(node, "memlet with write-conflict resolution is not supported")
        result = outs[0].data.data
        element = self.element(result, node)
        vectors = []
        for conn in (x, y):
            memlet = edges[conn].data
            if self.element(memlet.data, node) != element:
                raise self.fail(node, f"multiplies {self.element(memlet.data, node)} elements into {element}; a type change is not supported yet")
            box = self.box(memlet, node)
            varying = [d for d, (_, size) in enumerate(box) if size != IndexExpr.constant(1)]
            if len(varying) > 1:
                raise self.fail(node, f"'{memlet.data}[{memlet.subset}]' is not a vector")
            vectors.append((memlet.data, box, varying))
        sizes = {str(box[v[0]][1]) if v else "1" for _, box, v in vectors}
        if len(sizes) != 1:
            raise self.fail(node, f"multiplies vectors of different lengths ({', '.join(sorted(sizes))})")
        (_, box, varying) = vectors[0]
        length = box[varying[0]][1] if varying else IndexExpr.constant(1)
        out_box = self.box(outs[0].data, node)
        if any(size != IndexExpr.constant(1) for _, size in out_box):
            raise self.fail(node, f"result '{result}[{outs[0].data.subset}]' is not one element")
        label = node.label
        ops = self.init(node, label, 0, result, out_box, element)
        zero, one = IndexExpr.constant(0), IndexExpr.constant(1)
        map_op = sd.MapOp(label, [zero], [length], [one], param_names=["_i"])
        reads = []
        for name, vbox, vvarying in vectors:
            subset = [b + IndexExpr.dim(0) if d in vvarying else b for d, (b, _) in enumerate(vbox)]
            reads.append(sd.ReadOp(*self.importer.resolved(name, subset, map_op.params)))
        body = Block(arg_types=[element, element])
        casts = [signless_value(arg) for arg in body.args]
        x, y = (cast.results[0] if cast is not None else arg for cast, arg in zip(casts, body.args))
        product = arith.MuliOp(x, y) if isinstance(element, IntegerType) else arith.MulfOp(x, y)
        typed = typed_value(product.result, element)
        body.add_ops([op for op in (*casts, product, typed) if op is not None])
        body.add_op(sd.YieldOp(body.last_op.results[0]))  # type: ignore[union-attr]
        tasklet = sd.TaskletOp(f"{label}_mult", [("x", reads[0].result), ("y", reads[1].result)], [("out", element)], Region(body))
        accumulate = sd.AccumulateOp("add", tasklet.outputs[0], *self.importer.resolved(result, [b for b, _ in out_box], []))
        map_op.body.block.add_ops([*reads, tasklet, accumulate])
        return ops + [map_op]


def is_dot_product(state: SDFGState, node) -> bool:
    """Whether a `MatMul` node multiplies two vectors into one element (`x @ y`)."""
    ins = [e for e in state.in_edges(node) if not e.data.is_empty()]
    outs = [e for e in state.out_edges(node) if not e.data.is_empty()]
    return (
        bool(ins)
        and all(_vector_length(e.data) is not None for e in ins)
        and all(e.data.subset.num_elements() == 1 for e in outs)
    )


def _vector_length(memlet) -> int | None:
    """The length of a memlet's subset when at most one of its dimensions has more than
    one element, else None."""
    sizes = [s for s in memlet.subset.size() if s != 1]
    return None if len(sizes) > 1 else 1 if not sizes else sizes[0]


def library_kind(node) -> str | None:
    """'reduce', 'dot' or 'matmul' for the library nodes imported here (a `MatMul`
    only of two vectors: a dot product)."""
    from dace.libraries.blas.nodes.dot import Dot
    from dace.libraries.blas.nodes.matmul import MatMul
    from dace.libraries.standard.nodes.reduce import Reduce

    if isinstance(node, Reduce):
        return "reduce"
    if isinstance(node, Dot):
        return "dot"
    if isinstance(node, MatMul):
        return "matmul"
    return None


def write_reductions_through_views(sdfg: SDFG) -> None:
    """A `Reduce` whose output is a view of a box of another container (the numpy
    frontend's `s[:] = np.sum(A, axis=0)`) writes that box directly; the view goes."""
    from dace.libraries.standard.nodes.reduce import Reduce

    for state in sdfg.states():
        for node in list(state.nodes()):
            if not isinstance(node, Reduce) or len(state.out_edges(node)) != 1:
                continue
            outedge = state.out_edges(node)[0]
            view = outedge.dst
            if not isinstance(view, nodes.AccessNode) or not isinstance(view.desc(sdfg), dt.View):
                continue
            if len(state.in_edges(view)) != 1 or len(state.out_edges(view)) != 1:
                continue
            viewed = state.out_edges(view)[0]
            target = viewed.dst
            memlet = viewed.data
            if viewed.src_conn != "views" or not isinstance(target, nodes.AccessNode):
                continue
            if isinstance(target.desc(sdfg), dt.View) or memlet.data != target.data or memlet.wcr is not None:
                continue
            desc = view.desc(sdfg)
            box = [s for s in memlet.subset.size() if s != 1]
            if [s for s in desc.shape if s != 1] != box or covers(outedge.data.subset, desc) is False:
                continue
            new = type(outedge.data)(data=target.data, subset=memlet.subset)
            state.remove_edge(outedge)
            state.remove_edge(viewed)
            state.remove_node(view)
            state.add_edge(node, outedge.src_conn, target, None, new)
            if not any(
                isinstance(n, nodes.AccessNode) and n.data == view.data for s in sdfg.states() for n in s.nodes()
            ):
                del sdfg.arrays[view.data]


def hoist_reductions_out_of_maps(sdfg: SDFG) -> None:
    """A `Reduce` inside a map, of the box of an array the map's parameters pick
    (`for i in dace.map[0:M]: r[i] = np.sum(A[i, :])`), into a transient scalar: one
    `Reduce` before the map, over every index of the dimensions the parameters pick,
    into a transient array the map then reads where the iteration's box was."""
    from dace.libraries.standard.nodes.reduce import Reduce

    for state in sdfg.states():
        for node in list(state.nodes()):
            entry = state.entry_node(node) if isinstance(node, Reduce) else None
            if isinstance(entry, nodes.MapEntry) and state.entry_node(entry) is None:
                _hoist(sdfg, state, node, entry, Reduce)


def _hoist(sdfg: SDFG, state: SDFGState, reduce, entry: nodes.MapEntry, reduce_class) -> None:
    """Hoist one `Reduce` out of the map of `entry` when it has that form (see
    `hoist_reductions_out_of_maps`); otherwise leave it, for the importer to report."""
    ins, outs = state.in_edges(reduce), state.out_edges(reduce)
    if len(ins) != 1 or len(outs) != 1 or ins[0].src is not entry or ins[0].data.wcr is not None:
        return
    scalar = outs[0].dst
    if not isinstance(scalar, nodes.AccessNode) or len(state.in_edges(scalar)) != 1:
        return
    desc = scalar.desc(sdfg)
    if not desc.transient or desc.total_size != 1 or outs[0].data.wcr is not None:
        return
    params = {str(p) for p in entry.map.params}
    subset = ins[0].data.subset
    shape = sdfg.arrays[ins[0].data.data].shape
    kept: list[int] = []  # the dimensions a parameter indexes: one element an iteration
    for d, (begin, end, _) in enumerate(subset.ndrange()):
        used = params & {str(s) for bound in (begin, end) for s in getattr(bound, "free_symbols", ())}
        if used and (begin != end or len(used) != 1):
            return
        if used:
            kept.append(d)
    if not kept or reduce.axes is not None and sorted(reduce.axes) != list(range(len(shape))):
        return
    # The reduction covers every index of the kept dimensions (results the map does not
    # read are computed too), so that it reads whole rows or columns of the container.
    whole = [(0, shape[d] - 1, 1) if d in kept else r for d, r in enumerate(subset.ndrange())]
    axes = [d for d in range(len(shape)) if d not in kept]
    name, array = sdfg.add_transient(f"{scalar.data}_all", [shape[d] for d in kept], desc.dtype, find_new_name=True)
    source = next(e for e in state.in_edges(entry) if e.dst_conn == "IN_" + ins[0].src_conn[len("OUT_"):])
    hoisted = reduce_class(reduce.label, reduce.wcr, axes, reduce.identity)
    results = state.add_access(name)
    state.add_edge(source.src, None, hoisted, None, Memlet(data=source.data.data, subset=subsets.Range(whole)))
    state.add_edge(hoisted, None, results, None, Memlet.from_array(name, array))
    connector = entry.next_connector(name)
    entry.add_in_connector(f"IN_{connector}")
    entry.add_out_connector(f"OUT_{connector}")
    state.add_edge(results, None, entry, f"IN_{connector}", Memlet.from_array(name, array))
    at = subsets.Range([subset.ndrange()[d] for d in kept])
    for edge in state.out_edges(scalar):
        state.add_edge(entry, f"OUT_{connector}", edge.dst, edge.dst_conn, Memlet(data=name, subset=at))
    state.remove_node(scalar)
    state.remove_node(reduce)
    if not any(isinstance(n, nodes.AccessNode) and n.data == scalar.data for s in sdfg.states() for n in s.nodes()):
        del sdfg.arrays[scalar.data]
    if not state.out_edges_by_connector(entry, ins[0].src_conn):
        state.remove_edge(source)
        entry.remove_in_connector(source.dst_conn)
        entry.remove_out_connector(ins[0].src_conn)


def reduce_whole_containers(sdfg: SDFG, popops: set, assigned: frozenset[str]) -> None:
    """A `Reduce` of a box of a container (`np.sum(A[1:-1])`) on our tree reduces a copy
    of the box instead: a transient of the box's shape, filled by a copy (which
    ipu-tile-partition lowers to a Copy program), so that the reduction reads a whole
    container, the form the partitioner supports. On the popops path (the nodes
    `popops`) only a box that loop variables (`assigned`) move is copied (by a dynamic
    slice): a static one is a slice of the tensor."""
    from dace.libraries.standard.nodes.reduce import Reduce

    for state in sdfg.states():
        for node in list(state.nodes()):
            if not isinstance(node, Reduce) or state.entry_node(node) is not None:
                continue
            edges = [e for e in state.in_edges(node) if not e.data.is_empty()]
            if len(edges) != 1 or not isinstance(edges[0].src, nodes.AccessNode) or edges[0].data.wcr is not None:
                continue
            edge = edges[0]
            source = sdfg.arrays[edge.data.data]
            if isinstance(source, dt.View) or covers(edge.data.subset, source):
                continue
            if node in popops and not {str(s) for s in edge.data.subset.free_symbols} & assigned:
                continue
            name, box = sdfg.add_transient(f"{edge.data.data}_box", edge.data.subset.size(), source.dtype, find_new_name=True)
            copy = state.add_access(name)
            state.add_edge(edge.src, edge.src_conn, copy, None, Memlet(data=edge.data.data, subset=edge.data.subset, other_subset=subsets.Range.from_array(box)))
            state.add_edge(copy, None, node, edge.dst_conn, Memlet.from_array(name, box))
            state.remove_edge(edge)


def covers(subset, desc) -> bool:
    """Whether a subset is the whole of a data descriptor."""
    sizes = subset.size()
    return len(sizes) == len(desc.shape) and all(
        b == 0 and s == d for (b, _, _), s, d in zip(subset.ndrange(), sizes, desc.shape)
    )
