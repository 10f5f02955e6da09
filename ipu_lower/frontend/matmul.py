"""DaCe `MatMul` nodes of a matrix and a matrix or a vector as `sdfg.matmul`.

The product of two vectors (`x @ y`) is a dot product and stays with the reductions
(`ipu_lower.frontend.reductions`). Every other `MatMul` becomes one `sdfg.matmul` over
whole containers, which poplin multiplies where they lie: the numpy frontend connects
`A @ B`, `A @ x` and `x @ A` to whole arrays. A box or a view of a container as an
operand (`A[1:3] @ B`, `A.T` through a view), a batched product (rank 3 and more),
a memlet with write-conflict resolution (`C += A @ B`) and elements other than float32
and float16 are one-line errors naming the node.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dace import data as dt
from dace import nodes
from dace.sdfg import SDFGState
from xdsl.dialects.builtin import Float16Type, Float32Type

from ipu_lower.dialects import sdfg as sd
from ipu_lower.frontend.reductions import covers

if TYPE_CHECKING:
    from ipu_lower.frontend.importer import _SdfgImporter

_OPERANDS = ("_a", "_b")
_RESULT = "_c"


def import_matmul(importer: _SdfgImporter, state: SDFGState, node: nodes.LibraryNode) -> sd.MatmulOp:
    """The `sdfg.matmul` of a `MatMul` node whose operands are not both vectors."""

    def fail(message: str):
        return importer.fail(message, state, node)

    ins = {e.dst_conn: e for e in state.in_edges(node) if not e.data.is_empty()}
    outs = [e for e in state.out_edges(node) if not e.data.is_empty()]
    if set(ins) != set(_OPERANDS) or len(outs) != 1 or outs[0].src_conn != _RESULT:
        raise fail(f"needs inputs {', '.join(_OPERANDS)} and output {_RESULT}")
    edges = [ins[c] for c in _OPERANDS] + outs
    names = []
    for edge in edges:
        memlet = edge.data
        name = memlet.data
        desc = importer.sdfg.arrays[name]
        if memlet.wcr is not None:
            raise fail(f"'{name}' is accumulated into (write-conflict resolution); a product added to its result is not supported yet")
        if name not in importer.containers or isinstance(desc, dt.View):
            raise fail(f"'{name}' is a view; MatMul of views (transposes, slices) is not supported yet: copy it into an array first")
        if not covers(memlet.subset, desc):
            raise fail(f"'{name}[{memlet.subset}]' is part of '{name}'; MatMul of boxes is not supported yet: copy it into an array first")
        names.append(name)
    ranks = [len(importer.sdfg.arrays[n].shape) for n in names]
    if ranks[0] > 2 or ranks[1] > 2:
        raise fail(f"batched MatMul (operands of ranks {ranks[0]} and {ranks[1]}) is not supported yet")
    elements = [importer.element_type(importer.sdfg.arrays[n].dtype, f"container '{n}'") for n in names]
    if len(set(elements)) != 1:
        raise fail(f"multiplies {elements[0]} by {elements[1]} into {elements[2]}; a type change is not supported yet")
    element = elements[0]
    if not isinstance(element, Float32Type | Float16Type):
        raise fail(f"MatMul of {element} elements is not supported (poplin multiplies float32 and float16)")
    if names[2] in names[:2]:
        raise fail(f"writes its result into its operand '{names[2]}'")
    lhs, rhs, out = (importer.containers[n] for n in names)
    return sd.MatmulOp(node.label, lhs, rhs, out)
