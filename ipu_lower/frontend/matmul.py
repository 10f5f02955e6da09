"""DaCe's BLAS product nodes as `sdfg.matmul`: `MatMul` (`A @ B`), and the nodes its
'specialize' expansion makes, `Gemm`, `Gemv`, `BatchedMatMul` and `Dot`.

Each becomes one `sdfg.matmul` C = alpha op(A) op(B) + beta C (`ipu_lower.dialects.
matmul`): DaCe's alpha, beta and transposes (`transA`, `transB`) as they are; a sum
write-conflict resolution on the result (`C += A @ B` built as one node) as beta = 1;
a `Gemm`'s `_cin` (a `Gemv`'s input `_y`) other than the result as a copy into the
result first. An operand is a container, a static box of one (`A[1:3] @ B`) or a view
that Poplar can express as a slice of one, possibly transposed (`A.T` through a DaCe
view: a transpose flag): poplin multiplies those in place. Vectors (`Gemv`'s `x` and
`y`, `Dot`'s operands and result) drop the dimensions of extent 1 of their boxes, as
DaCe's nodes do.

What stays elsewhere: a `Dot` (or a `MatMul` of two vectors) of integers is a reduction
(`ipu_lower.frontend.reductions`): poplin multiplies only floats. Anything else this
cannot express is a one-line error naming the node: boxes that a loop variable moves
(`A[i, :] @ x` inside `for i`: a dynamic slice would have to come first), other views
(reshapes, strided or reordered boxes), batched products of a matrix broadcast over the
groups, a `_cin` broadcast over the result, other write-conflict resolutions, symbolic
alpha and beta, and elements other than float64, float32 and float16 of one type
(float64 products run in float32 after `ipu-demote-f64`; without it, tile partitioning
rejects their float64 containers).
"""

from __future__ import annotations

from dataclasses import dataclass

from dace import nodes
from dace.sdfg import SDFGState
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.frontend import views
from ipu_lower.frontend.node_import import NodeImporting
from ipu_lower.frontend.reductions import is_dot_product, library_kind, reduction_type


ONE = IndexExpr.constant(1)


@dataclass(frozen=True)
class Connectors:
    """A node kind's connectors: A, B, the result, and the input that holds C's old
    value when beta != 0 (None: the result itself); which of A, B, C are vectors."""

    lhs: str
    rhs: str
    out: str
    old: str | None
    vectors: tuple[bool, bool, bool] = (False, False, False)


def _connectors(node: nodes.LibraryNode, dot: bool = False) -> Connectors | None:
    """`dot`: a `MatMul` of two vectors, whose vectors drop unit dimensions as a `Dot`'s."""
    from dace.libraries.blas.nodes.batched_matmul import BatchedMatMul
    from dace.libraries.blas.nodes.dot import Dot
    from dace.libraries.blas.nodes.gemm import Gemm
    from dace.libraries.blas.nodes.gemv import Gemv
    from dace.libraries.blas.nodes.matmul import MatMul

    if isinstance(node, MatMul | Gemm):
        return Connectors("_a", "_b", "_c", "_cin", (dot, dot, dot))
    if isinstance(node, BatchedMatMul):
        return Connectors("_a", "_b", "_c", None)
    if isinstance(node, Gemv):
        # DaCe's `x @ A` is a Gemv of A transposed: A is its first operand either way
        return Connectors("_A", "_x", "_y", "_y", (False, True, True))
    if isinstance(node, Dot):
        return Connectors("_x", "_y", "_result", None, (True, True, True))
    return None


def is_product(node) -> bool:
    """Whether `node` is one of the BLAS product nodes imported here."""
    return _connectors(node) is not None


def stays_a_reduction(importer: NodeImporting, state: SDFGState, node: nodes.LibraryNode) -> bool:
    """Whether a dot product (a `Dot`, a `MatMul` of two vectors) is left to the
    reductions: one of integers. Other products are not."""
    if not _is_dot(state, node):
        return False
    edges = [e for e in state.in_edges(node) + state.out_edges(node) if not e.data.is_empty()]
    elements = [importer.element_type(importer.sdfg.arrays[e.data.data].dtype, f"container '{e.data.data}'") for e in edges]
    return not all(isinstance(t, sd.MatmulOp.ELEMENTS) for t in elements)


def _is_dot(state: SDFGState, node: nodes.LibraryNode) -> bool:
    kind = library_kind(node)
    return kind == "dot" or (kind == "matmul" and is_dot_product(state, node))


class _Importer:
    def __init__(self, importer: NodeImporting, state: SDFGState, node: nodes.LibraryNode):
        self.importer = importer
        self.state = state
        self.node = node

    def fail(self, message: str):
        return self.importer.fail(message, self.state, self.node)

    def scalar(self, what: str) -> float:
        value = getattr(self.node, what, 0 if what == "beta" else 1)
        try:
            return float(value)
        except (TypeError, ValueError):
            raise self.fail(f"{what} '{value}' is not a number; a symbolic {what} is not supported yet") from None

    def operand(self, edge, vector: bool, what: str) -> tuple[str, list[sd.BoxEntry] | None, bool]:
        """The root container of an operand, its box (None: all of it) and whether the
        product sees it transposed (a view that swaps the last two dimensions)."""
        memlet = edge.data
        name = memlet.data
        if {str(s) for s in memlet.subset.free_symbols} & self.importer.assigned:
            raise self.fail(
                f"{what} '{name}[{memlet.subset}]' is a box that a loop variable moves; a product of it is not "
                "supported yet: copy it into an array first"
            )
        if any(step != 1 for _, _, step in memlet.subset.ndrange()):
            raise self.fail(f"{what} '{name}[{memlet.subset}]' is strided; Poplar's slices cannot express it")
        ranges = self.importer.ranges(self.state, self.node, name, memlet.subset, {})
        alias = self.importer.aliases.get(name) or views.Alias.identity(name, len(ranges))
        root_shape = self.importer.containers[alias.root].type.dims()  # type: ignore[attr-defined]
        box: list[sd.BoxEntry] = []
        walker: dict[int, int] = {}  # dimension of the name -> root dimension it walks
        for d, e in enumerate(alias.indices):
            used = sorted(e.dims())
            if not used:
                box.append((e, e + 1, False))
                continue
            k = used[0]
            if len(used) != 1 or e.dim_offset(k) is None or k in walker:
                raise self.fail(f"{what} '{name}' views '{alias.root}' in a way Poplar's slices cannot express")
            begin, end = ranges[k]
            box.append((e.substitute(dims={k: begin}), e.substitute(dims={k: end}), True))
            walker[k] = d
        kept = []
        for k, (begin, end) in enumerate(ranges):
            extent = end - begin
            if k not in walker:
                if extent != ONE:
                    raise self.fail(f"{what} '{name}' views '{alias.root}' in a way Poplar's slices cannot express")
                continue
            if vector and extent == ONE:
                b = box[walker[k]][0]
                box[walker[k]] = (b, b + 1, False)  # DaCe's vectors drop unit dimensions
                continue
            kept.append(walker[k])
        transposed = False
        if kept != sorted(kept):
            swapped = [*kept[:-2], kept[-1], kept[-2]]
            if len(kept) < 2 or swapped != sorted(swapped):
                raise self.fail(f"{what} '{name}' views '{alias.root}' with its dimensions reordered; only a "
                                "transpose of matrices is supported")
            transposed = True
        whole = all(walked and begin == IndexExpr.constant(0) and end == n for (begin, end, walked), n in zip(box, root_shape))
        return alias.root, None if whole else box, transposed

    def product(self) -> list[Operation]:
        node, state = self.node, self.state
        conn = _connectors(node, _is_dot(state, node))
        assert conn is not None
        ins = {e.dst_conn: e for e in state.in_edges(node) if not e.data.is_empty()}
        outs = [e for e in state.out_edges(node) if not e.data.is_empty()]
        needed = {conn.lhs, conn.rhs}
        if not needed <= set(ins) or set(ins) - needed - {conn.old} or len(outs) != 1 or outs[0].src_conn != conn.out:
            raise self.fail(f"needs inputs {conn.lhs}, {conn.rhs} and output {conn.out}")
        alpha, beta = self.scalar("alpha"), self.scalar("beta")
        wcr = outs[0].data.wcr
        old = ins.get(conn.old) if conn.old else None
        if wcr is not None:
            kind = reduction_type(wcr)
            if kind is None or kind.name != "Sum":
                raise self.fail(f"writes '{outs[0].data.data}' with write-conflict resolution '{wcr}'; only a sum "
                                "(C += A @ B) is supported")
            if not (beta == 0 or (beta == 1 and old is None)):
                raise self.fail(f"adds alpha A B + beta C (beta {beta:g}) into '{outs[0].data.data}' "
                                "(write-conflict resolution); not supported")
            beta = 1.0
        names, boxes, transposes = [], [], []
        for edge, vector, what in zip((ins[conn.lhs], ins[conn.rhs], outs[0]), conn.vectors, ("operand A", "operand B", "result")):
            name, box, transposed = self.operand(edge, vector, what)
            names.append(name)
            boxes.append(box)
            transposes.append(transposed)
        if transposes[2]:
            raise self.fail(f"writes its result '{outs[0].data.data}' through a transposed view; not supported")
        transpose_a, transpose_b = (t != bool(getattr(node, f"trans{x}", False)) for t, x in zip(transposes, "AB"))
        self.check_elements(names)
        if names[2] in names[:2]:
            raise self.fail(f"writes its result into its operand '{names[2]}'")
        ops: list[Operation] = []
        if beta != 0 and old is not None:
            old_name, old_box, _ = self.operand(old, conn.vectors[2], "the input of C")
            if (old_name, old_box) != (names[2], boxes[2]):
                ops.append(self.copy_old(old, outs[0]))
        containers = [self.importer.containers[n] for n in names]
        op = sd.MatmulOp(node.label, *containers, boxes=boxes, alpha=alpha, beta=beta,
                         transpose_a=transpose_a, transpose_b=transpose_b)
        try:
            op.verify_matmul()
        except VerifyException as err:  # shapes DaCe's node allows and poplin does not
            raise self.fail(str(err)) from err
        return [*ops, op]

    def check_elements(self, names: list[str]) -> None:
        elements = [self.importer.element_type(self.importer.sdfg.arrays[n].dtype, f"container '{n}'") for n in names]
        if len(set(elements)) != 1:
            raise self.fail(f"multiplies {elements[0]} by {elements[1]} into {elements[2]}; a type change is not supported yet")
        # float64 is imported as it is: ipu-demote-f64 may make it float32 later
        if not isinstance(elements[0], sd.MatmulOp.ELEMENTS):
            raise self.fail(f"{type(self.node).__name__} of {elements[0]} elements is not supported "
                            "(poplin multiplies float32 and float16, and float64 demoted to float32)")

    def copy_old(self, old, out) -> Operation:
        """C's old value from another container (a `Gemm`'s `_cin`), copied into C."""
        ends = []
        for edge in (old, out):
            name = edge.data.data
            ranges = self.importer.ranges(self.state, self.node, name, edge.data.subset, {})
            ends.append((name, ranges))
        sizes = [[e - b for b, e in r if e - b != ONE] for _, r in ends]
        if sizes[0] != sizes[1]:
            raise self.fail(f"adds beta times '{old.data.data}[{old.data.subset}]', which is broadcast over the "
                            f"result '{out.data.data}[{out.data.subset}]'; not supported yet")
        return self.importer.views_copy(self.state, self.node, f"{self.node.label}_cin", *ends)


def import_product(importer: NodeImporting, state: SDFGState, node: nodes.LibraryNode) -> list[Operation]:
    """The `sdfg.matmul` of a BLAS product node (after a copy of C's old value into the
    result, for a `Gemm` whose `_cin` is another container)."""
    return _Importer(importer, state, node).product()

