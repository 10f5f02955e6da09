"""Import a DaCe SDFG object into the `sdfg` dialect.

The importer walks states in execution order and, in each state, the dataflow in
topological order. Maps become `sdfg.map`, tasklets `sdfg.tasklet` with `arith`/`math`
bodies, memlets `sdfg.read`/`sdfg.write`, AccessNode-to-AccessNode edges `sdfg.copy`.
Transient scalars that only connect tasklets inside one map scope become SSA values.
Memlets with write-conflict resolution become `sdfg.accumulate`; `Reduce` and `Dot`
library nodes a map that accumulates (`ipu_lower.frontend.reductions`).
Anything not supported yet raises `SdfgImportError` naming the SDFG, state and node.
"""

from __future__ import annotations

import numpy as np
import sympy
from dace import data as dt
from dace import dtypes, nodes
from dace.sdfg import SDFG, SDFGState
from dace.sdfg.infer_types import infer_connector_types
from dace.sdfg.utils import dfs_topological_sort
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.element_types import element_type_of_numpy
from ipu_lower.frontend import nested, views
from ipu_lower.frontend.reductions import (
    ReductionImporter,
    library_kind,
    reduction_kind,
    unknown_reduction,
    write_reductions_through_views,
)
from ipu_lower.frontend.symbolic import SymbolicError, to_index_expr
from ipu_lower.frontend.tasklet import TaskletError, translate_tasklet


class SdfgImportError(Exception):
    """An SDFG construct the importer cannot translate; one line naming the place."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def import_sdfg(sdfg: SDFG) -> ModuleOp:
    """Translate `sdfg` (which is modified: connector types get inferred)."""
    return ModuleOp([_SdfgImporter(sdfg).run()])


class _SdfgImporter:
    def __init__(self, sdfg: SDFG):
        self.sdfg = sdfg
        self.where = f"SDFG '{sdfg.name}'"
        self.containers: dict[str, SSAValue] = {}
        self.map_params: dict[str, SSAValue] = {}
        """The parameters of the map being imported, by DaCe name."""
        self.aliases: dict[str, views.Alias] = {}
        """The views of the state being imported, by name (see `views`)."""
        self.inlined: list[sd.ContainerOp] = []
        """The transients of inlined nested SDFGs (see `nested`)."""

    def fail(self, message: str, state: SDFGState | None = None, node=None) -> SdfgImportError:
        where = self.where
        if state is not None:
            where += f", state '{state.label}'"
        if node is not None:
            where += f", node '{node.label if hasattr(node, 'label') else node}' ({type(node).__name__})"
        return SdfgImportError(where, message)

    def run(self) -> sd.SdfgOp:
        try:
            infer_connector_types(self.sdfg)
        except Exception as err:  # DaCe raises many kinds; report them as input errors
            raise self.fail(f"DaCe cannot infer connector types: {err}") from err
        write_reductions_through_views(self.sdfg)
        body = Block()
        args = self.argument_names()
        for name, desc in self.sdfg.arrays.items():
            if not views.is_view(desc):  # views are resolved to what they view
                body.add_op(self.container(name, desc))
        for state in self.states_in_order():
            body.add_ops(self.state(state))
        if self.inlined:
            first = next((op for op in body.ops if not isinstance(op, sd.ContainerOp)), None)
            for op in self.inlined:
                body.insert_op_before(op, first) if first is not None else body.add_op(op)
        symbols = sorted(set().union(*(e.symbols() for _, e in sd.index_exprs(body))))
        return sd.SdfgOp(self.sdfg.name, args, symbols, Region(body))

    def argument_names(self) -> list[str]:
        """DaCe's arg_names, then the other non-transient containers (such as the
        `__return` arrays of a program that returns values) in DaCe's arglist order."""
        names = list(self.sdfg.arg_names)
        names += [  # the data arguments of DaCe's SDFG.arglist, which also computes symbols
            n
            for n, desc in self.sdfg.arrays.items()
            if not desc.transient and n not in names and not (isinstance(desc, dt.Scalar) and n.startswith("__dace"))
        ]
        for name in names:
            desc = self.sdfg.arrays.get(name)
            if desc is None:
                raise self.fail(f"argument '{name}' is not a data container")
            if desc.transient:
                raise self.fail(f"argument '{name}' is transient")
        return names

    def element_type(self, dtype, what: str) -> Attribute:
        numpy_type = getattr(dtype, "type", None)
        row = element_type_of_numpy(np.dtype(numpy_type).name) if isinstance(numpy_type, type) else None
        if row is None:
            name = dtype.to_string() if hasattr(dtype, "to_string") else dtype
            raise self.fail(f"{what} has unsupported data type '{name}'")
        return row.mlir

    def expr(self, value, what: str, state=None, node=None, dims=None) -> IndexExpr:
        try:
            return to_index_expr(value, dims)
        except SymbolicError as err:
            raise self.fail(f"{what}: {err}", state, node) from err

    def container(self, name: str, desc: dt.Data) -> sd.ContainerOp:
        what = f"container '{name}'"
        if isinstance(desc, dt.Stream):
            raise self.fail(f"{what} is a stream; streams are not supported yet")
        if not isinstance(desc, dt.Array | dt.Scalar) or isinstance(desc, dt.View):
            raise self.fail(f"{what} is a {type(desc).__name__}, which is not supported yet")
        element = self.element_type(desc.dtype, what)
        if isinstance(desc, dt.Scalar):
            shape: list[IndexExpr] = []
        else:
            if not _is_row_major(desc):
                raise self.fail(f"{what} is not a contiguous row-major array")
            shape = [self.expr(d, f"{what} has an unsupported shape") for d in desc.shape]
        op = sd.ContainerOp(name, sd.ArrayType(shape, element), transient=desc.transient)
        if SSAValue.is_valid_name(name):
            op.result.name_hint = name
        self.containers[name] = op.result
        return op

    def states_in_order(self) -> list[SDFGState]:
        """States of a straight-line SDFG in execution order."""
        if any(not isinstance(b, SDFGState) for b in self.sdfg.nodes()):
            block = next(b for b in self.sdfg.nodes() if not isinstance(b, SDFGState))
            raise self.fail(
                f"control-flow region '{block.label}' ({type(block).__name__}) is not supported yet"
            )
        if not self.sdfg.nodes():
            return []
        order = [self.sdfg.start_block]
        while True:
            out = self.sdfg.out_edges(order[-1])
            if not out:
                break
            edge = out[0]
            if len(out) > 1 or not edge.data.is_unconditional() or edge.data.assignments:
                raise self.fail(
                    "conditional or looping control flow (interstate edges with conditions "
                    "or assignments) is not supported yet",
                    state=order[-1],
                )
            if edge.dst in order:
                raise self.fail("control flow loops back to an earlier state", state=edge.dst)
            order.append(edge.dst)
        if len(order) != len(self.sdfg.nodes()):
            raise self.fail("some states are unreachable from the start state")
        return order

    # -- dataflow ---------------------------------------------------------------------

    def state(self, state: SDFGState) -> list[Operation]:
        """The state; or, when it calls nested SDFGs, the state split around the states
        of each, which are inlined."""
        op = sd.StateOp(state.label)
        ops: list[Operation] = [op]
        scope_children = state.scope_children()
        top = set(scope_children[None])
        block = op.body.block
        values: dict = {}
        try:
            self.aliases = views.state_aliases(self.sdfg, state)
        except views.ViewError as err:
            raise self.fail(err.message, state, err.node) from err
        for node in dfs_topological_sort(state):
            if node not in top:
                continue
            if isinstance(node, nodes.MapEntry):
                block.add_op(self.map(state, node, scope_children))
                self.map_params = {}
            elif isinstance(node, nodes.AccessNode):
                for edge in state.out_edges(node):
                    if isinstance(edge.dst, nodes.AccessNode) and not views.is_view_edge(self.sdfg, state, edge):
                        block.add_op(self.copy(state, edge))
            elif isinstance(node, nodes.Tasklet):
                self.tasklet_with_memlets(state, node, block, values)
            elif views.is_transpose(node):
                block.add_op(self.transpose(state, node))
            elif isinstance(node, nodes.NestedSDFG):
                ops += self.nested(state, node)
                ops.append(sd.StateOp(f"{state.label}_after_{node.label}"))
                block = ops[-1].body.block
            elif isinstance(node, nodes.MapExit):
                continue
            elif library_kind(node) is not None:
                block.add_ops(getattr(ReductionImporter(self, state), library_kind(node))(node))
            else:
                raise self.fail(
                    f"{type(node).__name__} nodes are not supported yet", state, node
                )
        return [op for k, op in enumerate(ops) if k == 0 or not isinstance(op, sd.StateOp) or op.body.block.ops]

    def nested(self, state: SDFGState, node: nodes.NestedSDFG) -> list[Operation]:
        """The states of a nested SDFG, inlined (see `nested`)."""
        try:
            moved, ops = nested.inline(
                self.sdfg, state, node, self.aliases, self.containers, lambda inner: import_sdfg(inner).body.block.first_op
            )
        except nested.NestedError as err:
            raise self.fail(err.message, state, node) from err
        self.inlined += moved
        self.containers.update((op.container_name.data, op.result) for op in moved)
        return ops

    def copy(self, state: SDFGState, edge) -> sd.CopyOp | sd.MapOp:
        memlet = edge.data
        self.check_memlet(state, edge)
        src, dst = edge.src.data, edge.dst.data
        if memlet.data == src:
            src_subset, dst_subset = memlet.subset, memlet.other_subset
        else:
            src_subset, dst_subset = memlet.other_subset, memlet.subset
        src_type, dst_type = self.sdfg.arrays[src].dtype, self.sdfg.arrays[dst].dtype
        if src_type != dst_type:
            raise self.fail(
                f"copy from '{src}' ({src_type.to_string()}) to '{dst}' ({dst_type.to_string()}) "
                "converts element types, which is not supported yet",
                state,
                edge.dst,
            )
        return self.views_copy(
            state, edge.dst, f"copy_{src}_{dst}",
            (src, self.ranges(state, edge.src, src, src_subset)), (dst, self.ranges(state, edge.dst, dst, dst_subset)),
        )

    def transpose(self, state: SDFGState, node) -> sd.MapOp:
        """A `Transpose` library node: a map writing each element of the output from the
        input element at the transposed index."""
        (inp,), (out,) = state.in_edges(node), state.out_edges(node)
        for edge in (inp, out):
            self.check_memlet(state, edge)
        ends = [(e.data.data, self.ranges(state, node, e.data.data, e.data.subset)) for e in (inp, out)]
        return self.views_copy(state, node, node.label, *ends, permutation=(1, 0))  # type: ignore[return-value]

    def views_copy(self, state, node, label, source, destination, permutation=None) -> sd.CopyOp | sd.MapOp:
        """Copy (name, box) to (name, box), either side possibly a view."""
        ends = []
        for name, ranges in (source, destination):
            alias = self.aliases.get(name) or views.Alias.identity(name, len(ranges))
            ends.append((self.containers[alias.root], alias, ranges))
        try:
            return views.copy_op(label, ends[0], ends[1], permutation)
        except views.ViewError as err:
            raise self.fail(err.message, state, node) from err

    def ranges(self, state, node, name: str, subset) -> list[tuple[IndexExpr, IndexExpr]]:
        desc = self.sdfg.arrays[name]
        if isinstance(desc, dt.Scalar):
            return []
        what = f"copy subset of '{name}'"
        if subset is None:
            return [(IndexExpr.constant(0), self.expr(d, what, state, node)) for d in desc.shape]
        result = []
        for begin, end, step in subset.ndrange():
            if step != 1:
                raise self.fail(f"copy with a strided subset of '{name}'", state, node)
            result.append((self.expr(begin, what, state, node), self.expr(end, what, state, node) + 1))
        return result

    def check_memlet(self, state: SDFGState, edge, wcr: bool = False) -> None:
        """`wcr`: whether the memlet may have write-conflict resolution (a tasklet's
        output written into a container)."""
        memlet = edge.data
        node = edge.dst if isinstance(edge.dst, nodes.Tasklet | nodes.AccessNode) else edge.src
        if memlet.wcr is not None:
            if not wcr:  # the text of the memlet would evaluate the lambda: name its parts
                raise self.fail(
                    f"memlet of '{memlet.data}' has write-conflict resolution '{memlet.wcr}' on a "
                    f"{'copy' if isinstance(edge.src, nodes.AccessNode) else 'value passed between tasklets'}, "
                    "which is not supported yet",
                    state,
                    node,
                )
            if reduction_kind(memlet.wcr) is None:
                raise self.fail(unknown_reduction(memlet.wcr), state, node)
        if memlet.dynamic:
            raise self.fail(f"dynamic memlet '{_memlet_text(memlet)}' is not supported yet", state, node)

    def map(self, state: SDFGState, entry: nodes.MapEntry, scope_children) -> sd.MapOp:
        m = entry.map
        lower, upper, step = [], [], []
        for begin, end, stride in m.range.ranges:
            lower.append(self.expr(begin, "unsupported map range", state, entry))
            upper.append(self.expr(end, "unsupported map range", state, entry) + 1)
            step.append(self.expr(stride, "unsupported map range", state, entry))
        op = sd.MapOp(entry.label, lower, upper, step, param_names=list(m.params))
        self.map_params = {p: arg for p, arg in zip(m.params, op.params)}
        block = op.body.block
        values: dict = {}
        inside = set(scope_children[entry])
        for node in dfs_topological_sort(state, sources=[entry]):
            if node not in inside:
                continue
            if isinstance(node, nodes.Tasklet):
                self.tasklet_with_memlets(state, node, block, values)
            elif isinstance(node, nodes.AccessNode):
                desc = node.desc(self.sdfg)
                if not (desc.transient and desc.total_size == 1):
                    raise self.fail(
                        "access nodes inside a map must be transient scalars", state, node
                    )
            elif isinstance(node, nodes.MapEntry):
                raise self.fail("nested maps are not supported yet", state, node)
            elif not isinstance(node, nodes.MapExit):
                raise self.fail(
                    f"{type(node).__name__} nodes inside a map are not supported yet", state, node
                )
        return op

    def tasklet_with_memlets(
        self,
        state: SDFGState,
        tasklet: nodes.Tasklet,
        block: Block,
        values: dict,
    ) -> None:
        """Reads for the inputs, the tasklet, writes (or SSA values) for the outputs.

        `values` holds the SSA values of map-local transient scalars (by access node) and
        of tasklet outputs feeding other tasklets directly (by tasklet and connector).
        """
        if tasklet.language != dtypes.Language.Python:
            raise self.fail(
                f"tasklet language {tasklet.language.name} is not supported (only Python)",
                state,
                tasklet,
            )
        inputs: list[tuple[str, SSAValue]] = []
        for edge in sorted(state.in_edges(tasklet), key=lambda e: e.dst_conn or ""):
            if edge.dst_conn is None:  # an ordering-only edge
                continue
            self.check_memlet(state, edge)
            conn = edge.dst_conn
            if isinstance(edge.src, nodes.Tasklet):  # a value passed between tasklets
                inputs.append((conn, values[(edge.src, edge.src_conn)]))
            elif isinstance(edge.src, nodes.AccessNode) and edge.src in values:
                inputs.append((conn, values[edge.src]))
            else:
                read = sd.ReadOp(*self.element_subset(state, tasklet, edge.data))
                block.add_op(read)
                inputs.append((conn, read.result))
        outputs = [e for e in state.out_edges(tasklet) if e.src_conn is not None]
        typed_outputs = []
        for edge in outputs:
            self.check_memlet(state, edge, wcr=self.writes_container(state, edge))
            dtype = (
                tasklet.out_connectors[edge.src_conn]
                if edge.data.data is None
                else self.sdfg.arrays[edge.data.data].dtype
            )
            typed_outputs.append((edge.src_conn, self.element_type(dtype, f"output '{edge.src_conn}'")))
        body = Block(arg_types=[v.type for _, v in inputs])
        try:
            results = translate_tasklet(
                tasklet.code.as_string, body, [c for c, _ in inputs], typed_outputs
            )
        except TaskletError as err:
            raise self.fail(str(err), state, tasklet) from err
        body.add_op(sd.YieldOp(*results))
        op = sd.TaskletOp(tasklet.label, inputs, typed_outputs, Region(body))
        block.add_op(op)
        for edge, result in zip(outputs, op.outputs):
            dst = edge.dst
            if isinstance(dst, nodes.Tasklet):
                values[(tasklet, edge.src_conn)] = result
            elif isinstance(dst, nodes.AccessNode) and state.entry_node(dst) is not None:
                values[dst] = result
            else:
                container, indices, subset = self.element_subset(state, tasklet, edge.data)
                if edge.data.wcr is not None:
                    kind = reduction_kind(edge.data.wcr)
                    block.add_op(sd.AccumulateOp(kind, result, container, indices, subset))  # type: ignore[arg-type]
                else:
                    block.add_op(sd.WriteOp(result, container, indices, subset))

    def writes_container(self, state: SDFGState, edge) -> bool:
        """Whether a tasklet's output edge becomes a memlet into a container (not an SSA
        value passed to another tasklet or through a map-local transient)."""
        dst = edge.dst
        if isinstance(dst, nodes.Tasklet):
            return False
        return not (isinstance(dst, nodes.AccessNode) and state.entry_node(dst) is not None)

    def element_subset(self, state, tasklet, memlet) -> tuple[SSAValue, list[SSAValue], list[IndexExpr]]:
        """The single element a tasklet connector reads or writes: its container (the root
        of a view), the map parameters it uses (in order of first use) and one expression
        of them per dimension."""
        subset = memlet.subset
        if subset.num_elements() != 1:
            raise self.fail(
                f"memlet '{_memlet_text(memlet)}' moves more than one element into a tasklet; "
                "only element-wise tasklets are supported yet",
                state,
                tasklet,
            )
        names = list(self.map_params)
        exprs = [
            self.expr(begin, "unsupported memlet subset", state, tasklet, dict(zip(names, range(len(names)))))
            for begin, _, _ in subset.ndrange()
        ]
        return self.resolved(memlet.data, exprs, [self.map_params[n] for n in names])

    def resolved(self, name: str, subset: list[IndexExpr], operands) -> tuple[SSAValue, list[SSAValue], list[IndexExpr]]:
        """The container (the root of a view), index operands and subset of an access of
        `name` at `subset`, whose dimension k stands for `operands[k]`."""
        root, exprs = views.resolve(self.aliases, name, subset)
        if isinstance(self.sdfg.arrays[root], dt.Scalar):
            return self.containers[root], [], []
        return self.containers[root], *sd.access_operands(operands, exprs)


def _memlet_text(memlet) -> str:
    """`x[i]`, also for a memlet with write-conflict resolution (whose own text, through
    DaCe's detect_reduction_type, would evaluate the lambda)."""
    if memlet.wcr is None:
        return str(memlet)
    return f"{memlet.data}[{memlet.subset}] (write-conflict resolution '{memlet.wcr}')"


def _is_row_major(desc: dt.Array) -> bool:
    expected = 1
    for dim, stride in zip(reversed(desc.shape), reversed(desc.strides)):
        if sympy.simplify(stride - expected) != 0:
            return False
        expected = expected * dim
    return not desc.offset or all(sympy.simplify(o) == 0 for o in desc.offset)

