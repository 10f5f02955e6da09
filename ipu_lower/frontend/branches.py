"""Branches inside maps, as one tasklet: `if A[i] > 0.5: B[i] = A[i] else: B[i] = -A[i]`
in a `dace.map`.

DaCe makes the body of such a map a nested SDFG: a state whose interstate edge assigns
the condition (`__tmp1 = (__tmp_9_11_r > 0.5)`), a guard state, a state per branch
computing on scalars, and a state where they meet. When every state of the nested SDFG
only moves scalars through Python tasklets, and its control flow is branches that meet
again (no loop), it is the same as one Python tasklet with the node's connectors: each
state's tasklets in order, their connectors copied from and to the scalars they read
and write, inside `if`/`else` as the interstate edges say. The tasklet translator then
computes both sides and selects (`ipu_lower/frontend/tasklet.py`). An output some path
does not assign, or that the branches read (`elif A[i] > B[i]` after writing B[i]),
starts from its old value, read at the same element (so DaCe's memlets, dynamic for the
maybe-read and maybe-written, are no longer). Any other nested SDFG in
a map stays, for the importer to report.
"""

from __future__ import annotations

from dace import data as dt
from dace import Memlet, dtypes, nodes
from dace.sdfg import SDFG, SDFGState
from dace.sdfg.utils import dfs_topological_sort


def tasklets_from_branches(sdfg: SDFG) -> None:
    """Replace each nested SDFG inside a map that only branches on scalars (see the
    module docstring) with the tasklet it amounts to."""
    for state in sdfg.states():
        for node in list(state.nodes()):
            if isinstance(node, nodes.NestedSDFG) and isinstance(state.entry_node(node), nodes.MapEntry):
                program = _program(node)
                if program is not None:
                    _replace(state, node, *program)


class _NotScalar(Exception):
    """The nested SDFG does more than branch on scalars."""


def _program(node: nodes.NestedSDFG) -> tuple[list[str], list[str]] | None:
    """The tasklet's code, and the outputs it needs the old value of that are not also
    inputs: those some path leaves as they were, or that the states read (DaCe reads an
    output array of a nested SDFG where it lies, before or after writing it). The code
    starts each of those, and each output that is also an input, from its old value."""
    inner = node.sdfg
    if any(str(k) != str(v) for k, v in node.symbol_mapping.items()):
        return None  # renamed symbols: its code would need them substituted
    try:
        for state in inner.states():
            _check_state(inner, state)
        lines, assigned = _emit(inner, inner.start_state, None, set())
    except _NotScalar:
        return None
    outputs = set(node.out_connectors)
    inout = set(node.in_connectors) & outputs
    kept = sorted(((outputs - assigned) | (outputs & _read_names(inner))) - inout)
    return [f"{name} = {_OLD}{name}" for name in sorted(inout) + kept] + lines, kept


def _read_names(sdfg: SDFG) -> set[str]:
    """The data the states read, and the names interstate edges use."""
    names = {
        node.data
        for state in sdfg.states()
        for node in state.nodes()
        if isinstance(node, nodes.AccessNode) and state.out_edges(node)
    }
    for edge in sdfg.edges():
        names |= {str(s) for s in edge.data.free_symbols}
    return names


_OLD = "__old_"
"""The prefix of the inputs that bring an output's value before the branches."""


def _check_state(sdfg: SDFG, state: SDFGState) -> None:
    for node in state.nodes():
        if isinstance(node, nodes.Tasklet):
            if node.language != dtypes.Language.Python:
                raise _NotScalar
        elif isinstance(node, nodes.AccessNode):
            if node.desc(sdfg).total_size != 1 or isinstance(node.desc(sdfg), dt.View):
                raise _NotScalar
        else:
            raise _NotScalar
    if any(edge.data.wcr is not None for edge in state.edges()):
        raise _NotScalar


def _emit(
    sdfg: SDFG, state: SDFGState, stop: SDFGState | None, assigned: set[str], on_path: frozenset = frozenset()
) -> tuple[list[str], set[str]]:
    """Python for the states from `state` up to (not including) `stop`, and the names
    assigned on every path through them (`assigned` before); `on_path` are the states
    of the enclosing branches, which a loop would come back to."""
    lines: list[str] = []
    assigned = set(assigned)
    seen = set(on_path)
    while state is not None and state is not stop:
        if state in seen:
            raise _NotScalar  # a loop
        seen.add(state)
        lines += _dataflow(state, assigned)
        edges = sdfg.out_edges(state)
        if not edges:
            break
        if len(edges) == 1:
            if not edges[0].data.is_unconditional():
                raise _NotScalar
            lines += _assignments(edges[0].data.assignments, assigned)
            state = edges[0].dst
            continue
        if len(edges) != 2:
            raise _NotScalar
        then_edge, else_edge = edges
        condition = then_edge.data.condition.as_string
        if else_edge.data.condition.as_string.replace(" ", "") != f"(not{condition.replace(' ', '')})":
            then_edge, else_edge = else_edge, then_edge
            condition = then_edge.data.condition.as_string
            if else_edge.data.condition.as_string.replace(" ", "") != f"(not{condition.replace(' ', '')})":
                raise _NotScalar
        merge = _meeting_state(sdfg, then_edge.dst, else_edge.dst)
        then_lines, then_assigned = _branch(sdfg, then_edge, merge, assigned, frozenset(seen))
        else_lines, else_assigned = _branch(sdfg, else_edge, merge, assigned, frozenset(seen))
        lines += [f"if {condition}:", *_indented(then_lines), "else:", *_indented(else_lines)]
        assigned = then_assigned & else_assigned
        state = merge
    return lines, assigned


def _branch(
    sdfg: SDFG, edge, merge: SDFGState | None, assigned: set[str], on_path: frozenset
) -> tuple[list[str], set[str]]:
    """A branch: its edge's assignments, then its states up to where it meets the other."""
    assigned = set(assigned)
    first = _assignments(edge.data.assignments, assigned)
    lines, assigned = _emit(sdfg, edge.dst, merge, assigned, on_path)
    return first + lines, assigned


def _meeting_state(sdfg: SDFG, a: SDFGState, b: SDFGState) -> SDFGState | None:
    """The first state, in breadth-first order from `a`, that `b` reaches too."""
    from_b = set(sdfg.bfs_nodes(b))
    return next((state for state in sdfg.bfs_nodes(a) if state in from_b), None)


def _dataflow(state: SDFGState, assigned: set[str]) -> list[str]:
    """The state's tasklets in dependence order, each with its connectors copied from
    and to the scalars it reads and writes; scalar-to-scalar copies as assignments."""
    lines = []
    for node in dfs_topological_sort(state):
        if isinstance(node, nodes.AccessNode):
            for edge in state.in_edges(node):
                if isinstance(edge.src, nodes.AccessNode):
                    lines.append(f"{node.data} = {edge.src.data}")
                    assigned.add(node.data)
            continue
        for edge in state.in_edges(node):
            if edge.dst_conn and not edge.data.is_empty():
                lines.append(f"{edge.dst_conn} = {edge.data.data}")
        lines += node.code.as_string.splitlines()
        for edge in state.out_edges(node):
            if edge.src_conn and not edge.data.is_empty():
                lines.append(f"{edge.data.data} = {edge.src_conn}")
                assigned.add(edge.data.data)
    return lines


def _assignments(assignments: dict[str, str], assigned: set[str]) -> list[str]:
    assigned.update(assignments)
    return [f"{name} = {value}" for name, value in assignments.items()]


def _indented(lines: list[str]) -> list[str]:
    return [f"    {line}" for line in lines] or ["    pass"]


def _replace(state: SDFGState, node: nodes.NestedSDFG, lines: list[str], kept: list[str]) -> None:
    outputs = set(node.out_connectors)
    inputs = {_OLD + name if name in outputs else name for name in node.in_connectors}
    tasklet = state.add_tasklet(node.label, inputs | {_OLD + name for name in kept}, outputs, "\n".join(lines))
    for edge in state.in_edges(node):
        for step in state.memlet_path(edge):
            step.data.dynamic = False  # read on every path: the branches are both computed
        connector = _OLD + edge.dst_conn if edge.dst_conn in outputs else edge.dst_conn
        state.add_edge(edge.src, edge.src_conn, tasklet, connector, edge.data)
    for edge in state.out_edges(node):
        path = state.memlet_path(edge)
        for step in path:
            step.data.dynamic = False  # written on every path, an old value where it was kept
        state.add_edge(tasklet, edge.src_conn, edge.dst, edge.dst_conn, edge.data)
        if edge.src_conn in kept:
            container = path[-1].dst
            old = state.add_read(container.data)
            state.add_memlet_path(
                old, state.entry_node(node), tasklet, dst_conn=_OLD + edge.src_conn,
                memlet=Memlet(data=edge.data.data, subset=edge.data.subset),
            )
    state.remove_node(node)
