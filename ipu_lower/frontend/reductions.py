"""Reductions in DaCe SDFGs, as the importer emits them.

DaCe reduces in two ways: memlets with write-conflict resolution (WCR: a lambda such as
`lambda x, y: x + y` that combines a written value with the element it lands on), and
`Reduce` library nodes (whole array or some axes, with an optional identity).

A WCR memlet out of a tasklet is `sdfg.accumulate` (by the importer, in place). A
`Reduce` node is one `sdfg.library_reduce` as the SDFG holds it, wherever it stands (in a
state or in a map, on boxes that loop variables or map parameters move): the root boxes
of its input and output (views resolved, so a `Reduce` into a view, `s[:] = np.sum(A,
axis=0)`, writes the box of `s` it views), its axes over the root's dimensions, its
identity as a value of the output type, `update` for a WCR of its own kind on the
output, and `padded` when `static_loop_extents` made it read a padded transient. The
passes then hoist it out of a map (sdfg-hoist-reductions), choose popops or our tree
(sdfg-choose-reductions), copy the boxes the chosen path cannot read in place
(sdfg-copy-reduction-boxes) and expand it into `sdfg.reduce` or a map of
`sdfg.accumulate` (sdfg-expand-reductions, whose docstring gives DaCe's meaning of the
identity). A `Dot` of integer vectors (or a `MatMul` of two, `x @ y`: poplin multiplies
only floats, `ipu_lower.frontend.matmul`) is the sum of their products: the importer
writes 0 into the result and accumulates the products in a map.

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

import numpy as np
from dace import data as dt
from dace import dtypes, nodes
from dace.sdfg import SDFGState
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, Signedness
from xdsl.ir import Attribute, Block, Operation, Region

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.dialects.reduction import signless_value, typed_value
from ipu_lower.frontend import views
from ipu_lower.frontend.node_import import NodeImporting


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


# -- building IR ---------------------------------------------------------------------------


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

    def __init__(self, importer: NodeImporting, state: SDFGState):
        self.importer = importer
        self.state = state

    def fail(self, node, message: str):
        return self.importer.fail(message, self.state, node)

    def expr(self, value, node) -> IndexExpr:
        return self.importer.expr(value, "unsupported subset", self.state, node)

    def element(self, name: str, node) -> Attribute:
        desc = self.importer.sdfg.arrays[name]
        return self.importer.element_type(desc.dtype, f"container '{name}'")

    def box(self, memlet, node, dims=None) -> list[tuple[IndexExpr, IndexExpr]]:
        """(begin, size) of each dimension of a memlet's subset (step 1), over `dims`
        (names of loop variables and map parameters) as dimensions."""
        desc = self.importer.sdfg.arrays[memlet.data]
        if isinstance(desc, dt.Scalar):
            return []
        box = []
        for begin, end, step in memlet.subset.ndrange():
            if self.expr(step, node) != IndexExpr.constant(1):
                raise self.fail(node, f"strided subset '{memlet.data}[{memlet.subset}]' is not supported yet")
            first = self.importer.expr(begin, "unsupported subset", self.state, node, dims)
            size = self.importer.expr(end, "unsupported subset", self.state, node, dims) + 1 - first
            if size.dims():
                raise self.fail(node, f"subset '{memlet.data}[{memlet.subset}]' has a size that depends on a loop variable; not supported yet")
            box.append((first, size))
        return box

    def single_edge(self, node, edges, what: str):
        """The one memlet of a library node's input or output, from or to a container
        (through the map's entry or exit inside a map)."""
        real = [e for e in edges if not e.data.is_empty()]
        end = (real[0].src if what == "input" else real[0].dst) if len(real) == 1 else None
        if not isinstance(end, nodes.AccessNode | nodes.MapEntry | nodes.MapExit) or real[0].data.data is None:
            raise self.fail(node, f"needs exactly one {what} connected to a container")
        if what == "input" and real[0].data.wcr is not None:
            raise self.fail(node, f"{what} memlet with write-conflict resolution is not supported")
        return real[0]

    def reduce(self, node: nodes.LibraryNode) -> list[Operation]:
        """A `Reduce` node as it is: one `sdfg.library_reduce` of the root boxes of its
        input and output (views resolved), its axes over the root's dimensions, its
        identity as a value of the output type, `update` for a WCR of its own kind on the
        output, `padded` when `static_loop_extents` made it read a padded transient."""
        kind = reduction_kind(node.wcr)
        if kind is None:
            raise self.fail(node, unknown_reduction(node.wcr))
        inedge = self.single_edge(node, self.state.in_edges(node), "input")
        outedge = self.single_edge(node, self.state.out_edges(node), "output")
        if (wcr := outedge.data.wcr) is not None and reduction_kind(wcr) != kind:
            raise self.fail(
                node, f"output memlet's write-conflict resolution '{wcr}' is not the reduction's own ({kind}); not supported yet"
            )
        source, out = inedge.data.data, outedge.data.data
        element = self.element(out, node)
        self.element(source, node)
        importer = self.importer
        names = list(importer.map_params) + [n for n in importer.loop_vars if n not in importer.map_params]
        dims = {n: k for k, n in enumerate(names)}
        in_box, out_box = self.box(inedge.data, node, dims), self.box(outedge.data, node, dims)
        rank = len(in_box)
        if rank == 0:
            raise self.fail(node, "reduces a scalar")
        axes = list(range(rank)) if node.axes is None else sorted({a % rank for a in node.axes})
        if (message := sd.kept_shape_error([n for _, n in in_box], axes, [n for _, n in out_box])) is not None:
            raise self.fail(node, f"{message} '{out}'")
        in_root, in_ranges, root_axes = self.root_box(node, source, in_box, axes)
        out_root, out_ranges, _ = self.root_box(node, out, out_box, [])
        used = sd.first_use_order([e for r in in_ranges + out_ranges for e in r])
        renumber = {d: IndexExpr.dim(k) for k, d in enumerate(used)}

        def renumbered(ranges):
            return [(b.substitute(dims=renumber), e.substitute(dims=renumber)) for b, e in ranges]

        scope = {**importer.loop_vars, **importer.map_params}
        identity = None if node.identity is None else self.identity(node, node.identity, element)
        return [
            sd.LibraryReduceOp(
                node.label, kind, in_root, renumbered(in_ranges), out_root, renumbered(out_ranges), root_axes,
                [scope[names[d]] for d in used], identity, update=wcr is not None, padded=node in importer.padded,
            )
        ]

    def identity(self, node, value, element: Attribute) -> IntegerAttr | FloatAttr:
        number = parse_number(value)
        if number is None or not fits(number, element):
            raise self.fail(node, f"identity '{value}' is not a constant of the output type {element}")
        if isinstance(element, IntegerType):
            return IntegerAttr(int(number), element)
        return FloatAttr(float(number), element)  # type: ignore[arg-type]

    def root_box(self, node, name: str, box, axes: list[int]):
        """The container at the root of `name`, the box `box` of `name` is of it, and the
        root's dimensions that `axes` of the box walk."""
        alias = self.importer.aliases.get(name) or views.Alias.identity(name, len(box))
        ranges = alias.box([(begin, begin + size) for begin, size in box])
        if ranges is None:
            raise self.fail(node, f"accesses '{name}', a view that is not a box of '{alias.root}' (a transpose or a reshape); not supported yet")
        walked = [min(e.dims()) if e.dims() else None for e in alias.indices]
        return self.importer.containers[alias.root], ranges, [r for r, k in enumerate(walked) if k in axes]

    def matmul(self, node: nodes.LibraryNode) -> list[Operation]:
        """`x @ y` of two vectors of integers is a dot product (`is_dot_product`); the
        importer makes other products `sdfg.matmul` (`ipu_lower.frontend.matmul`)."""
        return self.dot(node)

    def dot(self, node: nodes.LibraryNode) -> list[Operation]:
        """A `Dot` node of integers (or a `MatMul` of two such vectors, `x @ y`): result = sum of
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
        zero_attr = IntegerAttr(0, element) if isinstance(element, IntegerType) else FloatAttr(0.0, element)  # type: ignore[arg-type]
        tasklet = sd.constant_tasklet(f"{label}_init", zero_attr)
        ops: list[Operation] = [tasklet, sd.WriteOp(tasklet.outputs[0], *self.importer.resolved(result, [b for b, _ in out_box], []))]
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
