"""What the importers of library nodes (`matmul`, `reductions`) use of the SDFG importer.

They take the importer through this interface, so that they do not import the module
that imports them (`importer` calls them for each product and `Reduce` node).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from dace.sdfg import SDFG, SDFGState
from xdsl.ir import Attribute, Operation, SSAValue

from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.frontend import views


class NodeImporting(Protocol):
    """The state of the import and the helpers a node importer needs."""

    sdfg: SDFG
    containers: dict[str, SSAValue]
    """The containers imported so far, by DaCe name."""
    aliases: dict[str, views.Alias]
    """The views of the state being imported."""
    assigned: frozenset[str]
    """The symbols a loop or an interstate edge assigns."""
    loop_vars: dict[str, SSAValue]
    map_params: dict[str, SSAValue]
    padded: set
    """The library nodes `static_loop_extents` made read padded transients."""

    def fail(self, message: str, state: SDFGState | None = None, node=None) -> Exception: ...

    def expr(self, value, what: str, state=None, node=None, dims=None) -> IndexExpr: ...

    def element_type(self, dtype, what: str) -> Attribute: ...

    def ranges(self, state, node, name: str, subset, dims) -> list[tuple[IndexExpr, IndexExpr]]: ...

    def resolved(
        self, name: str, subset: list[IndexExpr], operands: Sequence[SSAValue]
    ) -> tuple[SSAValue, list[SSAValue], list[IndexExpr]]: ...

    def views_copy(self, state, node, label, source, destination, permutation=None, indices=()) -> Operation: ...
