"""Nested SDFGs, inlined into the SDFG that calls them.

`sdfg.simplify()` (which the `.py` frontend runs) inlines most nested SDFGs, but not
those with several states whose arguments are parts of the caller's containers
(`inner(A[1:], B[:-1])`), and `.sdfg` files need not be simplified. Such a node,
outside any map, is imported here: its SDFG, with the node's symbol mapping applied
(DaCe's `replace_dict`, as DaCe's own inliners do), is imported like any SDFG, then

- its transients become containers of the caller, renamed where a name is taken;
- each argument is an alias of the caller's data on the connector's edge, exactly
  like a view (`views.descriptor_window`): the argument's strides address the data
  from the first element of the edge's subset, so `x[i]` of `inner(A[1:], ...)` is
  `A[i + 1]`, and a row or column argument drops the dimension it fixes. Reads,
  writes, accumulations and copies of an argument are rewritten to the caller's
  container;
- its states (and whatever control flow its importer made) take the node's place
  among the caller's states (the caller's state splits around it).

A nested SDFG inside a map stays an error of the importer; so does an argument whose
strides do not address the data it is given (DaCe 1.0.2 writes such strides when an
argument is a column of a matrix whose symbols the nested SDFG renames).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from dace import data as dt
from dace import symbolic
from dace.sdfg import SDFG, SDFGState, nodes
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from ipu_lower.dialects import sdfg as sd
from ipu_lower.frontend import views


class NestedError(Exception):
    """A nested SDFG the importer cannot inline."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def inline(
    sdfg: SDFG,
    state: SDFGState,
    node: nodes.NestedSDFG,
    aliases: dict[str, views.Alias],
    containers: dict[str, SSAValue],
    import_sdfg: Callable[[SDFG], sd.SdfgOp],
) -> tuple[list[sd.ContainerOp], list[Operation]]:
    """The containers (the nested SDFG's transients, renamed) and the ops (states) that
    replace `node`, a nested SDFG in `state` of `sdfg`. `aliases` are the views of
    `state`, `containers` the caller's containers by name."""
    inner = copy.deepcopy(node.sdfg)
    symbolic.safe_replace(node.symbol_mapping, inner.replace_dict)
    arguments = {
        name: _argument_alias(sdfg, state, node, inner, name, aliases)
        for name, desc in inner.arrays.items()
        if not desc.transient
    }
    for name in arguments:  # their strides are in the aliases; the containers are replaced
        desc = inner.arrays[name]
        if isinstance(desc, dt.Array):
            desc.set_shape(desc.shape)
    imported = import_sdfg(inner)
    moved: list[sd.ContainerOp] = []
    taken = set(sdfg.arrays) | set(containers)
    for op in imported.containers():
        name = op.container_name.data
        if op.transient is not None:
            op.container_name = StringAttr(_fresh(name, f"{node.label}_{name}", taken))
            moved.append(op)
        else:
            alias = arguments[name]
            _rewrite_uses(op.result, containers[alias.root], alias, name, node.label)
    ops = list(imported.body.block.ops)
    for op in ops:
        op.detach()
    return moved, [op for op in ops if not isinstance(op, sd.ContainerOp)]


def _fresh(name: str, prefixed: str, taken: set[str]) -> str:
    candidate, k = (name if name not in taken else prefixed), 0
    while candidate in taken:
        k += 1
        candidate = f"{prefixed}_{k}"
    taken.add(candidate)
    return candidate


def _argument_alias(
    sdfg: SDFG, state: SDFGState, node: nodes.NestedSDFG, inner: SDFG, name: str, aliases: dict[str, views.Alias]
) -> views.Alias:
    """The caller's data the argument `name` stands for, through the connector's memlet."""
    edges = [e for e in state.in_edges(node) if e.dst_conn == name] + [
        e for e in state.out_edges(node) if e.src_conn == name
    ]
    if not edges:
        raise NestedError(f"argument '{name}' of nested SDFG '{node.label}' is not connected")
    memlets = {(e.data.data, str(e.data.subset)) for e in edges}
    if len(memlets) != 1:
        raise NestedError(f"argument '{name}' of nested SDFG '{node.label}' is read and written through different memlets")
    memlet = edges[0].data
    outer = memlet.data
    try:
        indices = views.descriptor_window(
            name, inner.arrays[name], outer, sdfg.arrays[outer], memlet.subset, kind="argument"
        )
    except views.ViewError as err:
        raise NestedError(f"nested SDFG '{node.label}': {err.message}") from err
    alias = views.Alias(outer, indices)
    return alias.through(aliases[outer]) if outer in aliases else alias


def _rewrite_uses(value: SSAValue, root: SSAValue, alias: views.Alias, name: str, label: str) -> None:
    """Make every use of the argument container `value` use the caller's `root` instead."""
    for use in list(value.uses):
        op = use.operation
        if isinstance(op, sd.ReadOp):
            Rewriter.replace_op(op, sd.ReadOp(root, *sd.access_operands(op.indices, alias.apply(op.subset_exprs()))))
        elif isinstance(op, sd.WriteOp):
            indices, subset = sd.access_operands(op.indices, alias.apply(op.subset_exprs()))
            Rewriter.replace_op(op, sd.WriteOp(op.value, root, indices, subset))
        elif isinstance(op, sd.AccumulateOp):
            indices, subset = sd.access_operands(op.indices, alias.apply(op.subset_exprs()))
            Rewriter.replace_op(op, sd.AccumulateOp(op.kind.data, op.value, root, indices, subset))
        elif isinstance(op, sd.CopyOp):
            Rewriter.replace_op(op, _copy(op, value, root, alias, label))
        elif alias == views.Alias.identity(alias.root, len(alias.indices)):
            op.operands = [root if v is value else v for v in op.operands]
        else:
            raise NestedError(f"'{op.name}' uses argument '{name}' of nested SDFG '{label}', a part of '{alias.root}'; not supported")


def _copy(op: sd.CopyOp, value: SSAValue, root: SSAValue, alias: views.Alias, label: str) -> Operation:
    """`op` with the argument `value` replaced by its caller's data."""
    ends = []
    for container, ranges in ((op.source, op.source_ranges()), (op.destination, op.destination_ranges())):
        if container is value:
            ends.append((root, alias, ranges))
        else:
            own = views.Alias.identity(sd.container_name(container), len(ranges))
            ends.append((container, own, ranges))
    try:
        return views.copy_op(f"{label}_copy", ends[0], ends[1], indices=op.indices)
    except views.ViewError as err:
        raise NestedError(f"nested SDFG '{label}': {err.message}") from err
