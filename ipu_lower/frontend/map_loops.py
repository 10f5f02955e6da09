"""Loops inside maps, turned inside out: `for i in dace.map[0:M]: for j in range(N): ...`.

DaCe makes the body of such a map a nested SDFG whose states loop (guard states, or
`LoopRegion`s). A nested SDFG with no loop that only moves scalars through Python
tasklets (an `if` on data of the point) is left as it is: the importer keeps it as an
`sdfg.nested` in the map, which `sdfg-inline-nested-in-maps` inlines. The `sdfg` dialect
has no control flow inside maps, and Poplar runs control flow on the host between
compute sets; so this rewrite of the SDFG, before import, interchanges them (loop
interchange with scalar expansion): the nested SDFG's control flow, structured
(`control_flow.structure`), is written again in the enclosing SDFG in place of the map's
state, and each of its states becomes one map over the points, holding that state's
tasklets. The map's iterations are independent by DaCe's semantics, so running every
point's step j before any point's step j + 1 computes the same values:

- each transient the nested SDFG keeps per point (`s` of `s += A[i, j]`, a local array)
  becomes a transient with one element (or copy) per point, indexed by the map's
  parameters; a scalar only one state writes and then reads stays a scalar inside that
  state's map (the importer makes it an SSA value);
- the nested SDFG's arguments are the caller's data on the node's edges (`__tmp_A` for
  the row `A[i, 0:N]`): their memlets are DaCe's nested-SDFG translation of the inner
  subset to the outer one (`unsqueeze_memlet`, as DaCe's inliner does), and its symbols
  are replaced by what the node maps them to;
- a loop whose bound uses the map's parameters (`for j in range(i)`) iterates over the
  hull of its bounds over the map's range (`j < M - 1`), and the states inside it guard
  the writes of each point by its own bounds: where they fail, a tasklet writes back the
  element's old value (an extra input, as `loop_extents` does for loop variables);
- a branch on data of the point (`if A[i, j] > 0.5`, with DaCe's interstate assignment
  `__tmp2 = __tmp_A[j]`) runs both arms for every point, one after the other: the value
  and the condition go into per-point transients first, and the arms' writes are guarded
  by the condition and its negation; a branch on the map's parameters alone is guarded
  by the condition itself; a branch on symbols stays a branch.

DaCe's own MapFission does the interchange for loops whose bounds do not depend on the
point; in DaCe 1.0.2 it leaves an invalid SDFG for `range(i)` and does not guard branches
on data, which are the cases this module exists for. A loop whose condition reads data
of the point (`while x > eps`) cannot run outside the map, nor can nested maps, library
nodes or views inside the body: each is a `MapLoopError` naming the node, which the
importer reports in one line.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field

import networkx as nx
from dace import Memlet, dtypes, nodes, subsets, symbolic
from dace import data as dt
from dace.properties import CodeBlock
from dace.sdfg import SDFG, InterstateEdge, SDFGState
from dace.sdfg.graph import SubgraphView
from dace.sdfg.propagation import propagate_memlets_state
from dace.sdfg.state import ConditionalBlock, ControlFlowRegion, LoopRegion
from dace.sdfg.utils import dfs_topological_sort
from dace.transformation.helpers import state_fission, unsqueeze_memlet

from ipu_lower.frontend import control_flow as cf
from ipu_lower.frontend.loop_extents import Hull
from ipu_lower.frontend.symbolic import SymbolicError, read_symbolic


class MapLoopError(Exception):
    """A nested SDFG in a map whose control flow cannot move out of the map."""

    def __init__(self, message: str, state: SDFGState, node):
        super().__init__(message)
        self.message, self.state, self.node = message, state, node


def interchange_map_loops(sdfg: SDFG) -> None:
    """Move the control flow of each nested SDFG that is the body of a map out of the
    map (see the module docstring)."""
    for state in list(sdfg.states()):
        while (found := _nested_map_body(state)) is not None:
            _Interchange(sdfg, state, *found).run()


def _nested_map_body(state: SDFGState):
    """A map at the top of `state` and the nested SDFG inside it, or None."""
    for node in state.nodes():
        if isinstance(node, nodes.NestedSDFG):
            entry = state.entry_node(node)
            if isinstance(entry, nodes.MapEntry) and state.entry_node(entry) is None and not _branches_on_scalars(node):
                return entry, node
    return None


def _branches_on_scalars(node: nodes.NestedSDFG) -> bool:
    """Whether the nested SDFG has no loop and only moves scalars through Python
    tasklets: the importer keeps it as it is, for sdfg-inline-nested-in-maps to inline
    into the map body."""
    inner = node.sdfg
    for region in inner.all_control_flow_regions():
        if isinstance(region, LoopRegion) or not nx.is_directed_acyclic_graph(region.nx):
            return False
    if any(desc.total_size != 1 or isinstance(desc, dt.View) for desc in inner.arrays.values()):
        return False
    return all(
        isinstance(n, nodes.AccessNode) or (isinstance(n, nodes.Tasklet) and n.language == dtypes.Language.Python)
        for state in inner.all_states()
        for n in state.nodes()
    ) and not any(e.data.wcr is not None for state in inner.all_states() for e in state.edges())


# -- what a condition or a value depends on ------------------------------------------


def _names(text: str) -> set[str]:
    """The names a condition or value reads (SyntaxError for text that is not Python)."""
    return {n.id for n in ast.walk(ast.parse(text.strip(), mode="eval")) if isinstance(n, ast.Name)}


@dataclass(frozen=True)
class _Guard:
    """What each point tests before a write lands: conditions of symbols, loop
    variables and map parameters (`j < i`), and per-point bool containers (with the
    value that lets the write through)."""

    conditions: tuple[str, ...] = ()
    flags: tuple[tuple[str, bool], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.conditions or self.flags)

    def also(self, condition: str | None = None, flag: tuple[str, bool] | None = None) -> _Guard:
        return _Guard(self.conditions + ((condition,) if condition else ()), self.flags + ((flag,) if flag else ()))


@dataclass
class _Container:
    """Where an inner container lives in the caller: an argument (the outer memlets of
    its connector, by whether they write), a per-point expansion, or a scalar local to
    one state's map."""

    name: str
    external: dict[bool, Memlet] = field(default_factory=dict)
    expanded: bool = False


# -- the rewrite ----------------------------------------------------------------------


class _Interchange:
    def __init__(self, sdfg: SDFG, state: SDFGState, entry: nodes.MapEntry, node: nodes.NestedSDFG):
        self.sdfg, self.state, self.entry, self.node = sdfg, state, entry, node
        self.params = list(entry.map.params)
        self.ranges = list(entry.map.range.ranges)
        self.inner = node.sdfg  # rewritten in place: the node goes (a copy of one with loop regions fails)
        symbolic.safe_replace(dict(node.symbol_mapping), self.inner.replace_dict)
        self.hull = Hull({p: (b, e) for p, (b, e, _) in zip(self.params, self.ranges)})
        self.containers: dict[str, _Container] = {}
        self.per_point: dict[str, str] = {}
        """Symbols the nested SDFG assigns values of the point to: their containers."""

    def fail(self, message: str) -> MapLoopError:
        return MapLoopError(f"nested SDFG '{self.inner.name}' in map '{self.entry.label}': {message}",
                            self.state, self.node)

    def run(self) -> None:
        self.check_scope()
        self.rename_assigned_symbols()
        try:
            items = _normalized(cf.structure(self.inner))
        except cf.ControlFlowError as err:
            raise self.fail(err.message) from err
        self.classify_symbols(items)
        self.classify_containers()
        start, after = self.make_room()
        flow = _Flow(self, start.parent_graph, start)
        flow.items(items, _Guard())
        flow.finish(after)

    # -- checks and names ---------------------------------------------------------------

    def check_scope(self) -> None:
        inside = self.state.scope_children()[self.entry]
        if any(n is not self.node and not isinstance(n, nodes.MapExit) for n in inside):
            raise self.fail("the map holds other nodes besides the nested SDFG; not supported yet")
        if any(step != 1 for _, _, step in self.ranges):
            raise self.fail(f"the map's range '{self.entry.map.range}' has a step; not supported yet")

    def rename_assigned_symbols(self) -> None:
        """Symbols the nested SDFG assigns take fresh names where the caller uses theirs."""
        taken = set(self.sdfg.arrays) | set(self.sdfg.symbols) | set(self.params)
        taken |= {n for e in self.sdfg.all_interstate_edges(recursive=False) for n in e.data.assignments}
        assigned = {n for e in self.inner.all_interstate_edges(recursive=False) for n in e.data.assignments}
        assigned |= {r.loop_variable for r in self.inner.all_control_flow_regions(recursive=False)
                     if isinstance(r, LoopRegion) and r.loop_variable}
        renames = {}
        for name in sorted(assigned & taken):
            fresh, k = name, 0
            while fresh in taken or fresh in self.inner.arrays or fresh in self.inner.symbols:
                k += 1
                fresh = f"{name}_{k}"
            renames[name] = fresh
            taken.add(fresh)
        if renames:
            self.inner.replace_dict(renames)
            for region in self.inner.all_control_flow_regions(recursive=False):
                if isinstance(region, LoopRegion) and region.loop_variable in renames:
                    region.loop_variable = renames[region.loop_variable]

    def classify_symbols(self, items) -> None:
        """Find the symbols that hold a value of the point: assigned from data, from the
        map's parameters or from such symbols (counted loops' variables apart, which
        iterate over the hull of their bounds)."""
        counted = {loop.variable for loop in _loops(items) if cf.counting(loop) is not None}
        assignments = [(n, v) for n, v in _assignments(items) if n not in counted]
        per_point: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, value in assignments:
                if name not in per_point and self.depends_on_point(value, per_point):
                    per_point.add(name)
                    changed = True
        for name in sorted(per_point):
            dtype = self.value_type(name, [v for n, v in assignments if n == name])
            self.per_point[name] = self.add_expanded(name, (), dtype)

    def names(self, text: str) -> set[str]:
        try:
            return _names(text)
        except SyntaxError as err:
            raise self.fail(f"cannot parse '{text}': {err.msg}") from err

    def depends_on_point(self, text: str, per_point=None) -> bool:
        names = self.names(text)
        return bool(names & (set(self.params) | set(self.inner.arrays) | set(per_point or self.per_point)))

    def reads_data(self, text: str) -> bool:
        return bool(self.names(text) & (set(self.inner.arrays) | set(self.per_point)))

    def value_type(self, name: str, values: list[str]):
        """The element type of a per-point symbol: that of the first container its
        values read, else its symbol type (32-bit for integers)."""
        for value in values:
            for read in sorted(self.names(value) & set(self.inner.arrays)):
                return self.inner.arrays[read].dtype
        dtype = self.inner.symbols.get(name, dtypes.int32)
        return dtypes.int32 if dtype in (dtypes.int64, dtypes.uint64) else dtype

    # -- containers ---------------------------------------------------------------------

    def classify_containers(self) -> None:
        arguments = self.argument_memlets()
        for name, desc in self.inner.arrays.items():
            if name in arguments:
                self.containers[name] = _Container(next(iter(arguments[name].values())).data, arguments[name])
            elif not desc.transient:
                continue  # not connected: nothing may use it (checked where it is used)
            elif isinstance(desc, dt.View):
                continue  # reported by the state that uses it
            elif self.state_local(name):
                local, _ = self.sdfg.add_scalar(name, desc.dtype, transient=True, find_new_name=True)
                self.containers[name] = _Container(local)
            else:
                shape = [] if isinstance(desc, dt.Scalar) else [self.hull_of(d) for d in desc.shape]
                self.containers[name] = _Container(self.add_expanded(name, shape, desc.dtype), expanded=True)

    def argument_memlets(self) -> dict[str, dict[bool, Memlet]]:
        """The outer memlets of each connected connector, by whether they write."""
        found: dict[str, dict[bool, Memlet]] = {}
        for edge in self.state.in_edges(self.node) + self.state.out_edges(self.node):
            writes = edge.src is self.node
            name = edge.src_conn if writes else edge.dst_conn
            if name is None or edge.data.is_empty():
                continue
            if isinstance(self.sdfg.arrays[edge.data.data], dt.View):
                raise self.fail(f"argument '{name}' is a view '{edge.data.data}' of the caller; not supported yet")
            found.setdefault(name, {})[writes] = edge.data
        return found

    def state_local(self, name: str) -> bool:
        """Whether `name` is a scalar that one state writes before it reads it."""
        desc = self.inner.arrays[name]
        if desc.total_size != 1 or any(name in self.names(e.data.condition.as_string) or
                                       any(name in self.names(v) for v in e.data.assignments.values())
                                       for e in self.inner.all_interstate_edges(recursive=False)):
            return False
        where = {(state, not state.in_edges(n)) for state in self.inner.states() for n in state.nodes()
                 if isinstance(n, nodes.AccessNode) and n.data == name}
        return len({state for state, _ in where}) == 1 and not any(read_first for _, read_first in where)

    def hull_of(self, size):
        bound = self.hull.bound(size, upper=True)
        if bound is None:
            raise self.fail(f"the size '{size}' of a local array is not linear in the map's parameters")
        return bound

    def add_expanded(self, name: str, shape: list, dtype) -> str:
        extents = [e - b + 1 for b, e, _ in self.ranges]
        outer, _ = self.sdfg.add_array(name, extents + list(shape), dtype, transient=True, find_new_name=True)
        return outer

    def point(self) -> list:
        """The index of the point in a per-point container."""
        return [(symbolic.symbol(p) - b, symbolic.symbol(p) - b, 1)
                for p, (b, _, _) in zip(self.params, self.ranges)]

    def local_name(self, name: str) -> str | None:
        """The caller's name of a scalar local to one state's map, None for other containers."""
        container = self.containers.get(name)
        if container is None or container.external or container.expanded:
            return None
        return container.name

    def outer_access(self, name: str, subset, write: bool = False) -> tuple[str, subsets.Range, bool]:
        """The caller's container, subset and whether it lives outside the map, for the
        access `subset` of the inner container `name` (a read, or a `write`)."""
        container = self.containers.get(name)
        if container is None:
            raise self.fail(f"container '{name}' is neither transient nor connected to the map")
        for expr in (x for r in subset.ndrange() for x in r):
            if used := sorted(str(s) for s in getattr(expr, "free_symbols", ()) if str(s) in self.per_point):
                raise self.fail(f"the index '{subset}' of '{name}' uses '{used[0]}', a value of the point; "
                                "not supported yet")
        if container.external:
            external = container.external.get(write) or container.external[not write]
            try:
                memlet = unsqueeze_memlet(Memlet(data=name, subset=copy.deepcopy(subset)), external)
            except (NotImplementedError, ValueError) as err:
                raise self.fail(f"cannot translate '{name}[{subset}]' to '{external}'") from err
            return container.name, memlet.subset, True
        if container.expanded:
            own = [] if isinstance(self.inner.arrays[name], dt.Scalar) else list(subset.ndrange())
            return container.name, subsets.Range(self.point() + own), True
        return container.name, subsets.Range([(0, 0, 1)]), False

    # -- where the loops go ---------------------------------------------------------------

    def make_room(self) -> tuple[SDFGState, SDFGState]:
        """Take the map out of its state; what computes its inputs moves to a state
        before. Returns the state the loops start from and the state they end in (the
        map's state, with what is left of it)."""
        state = self.state
        scope = state.scope_subgraph(self.entry).nodes()
        before = {n for n in _ancestors(state, self.entry) if n not in scope}
        state.remove_nodes_from(scope)
        for n in list(state.nodes()):
            if isinstance(n, nodes.AccessNode) and state.degree(n) == 0:
                state.remove_node(n)
        if any(not isinstance(n, nodes.AccessNode) for n in before):
            state_fission(SubgraphView(state, [n for n in before if n in state.nodes()]))
        cfg = state.parent_graph
        start = cfg.add_state_before(state, f"{self.entry.label}_loops", is_start_block=cfg.start_block is state)
        cfg.remove_edge(cfg.edges_between(start, state)[0])
        return start, state


def _ancestors(state: SDFGState, node) -> set:
    found, work = set(), [node]
    while work:
        for edge in state.in_edges(work.pop()):
            if edge.src not in found:
                found.add(edge.src)
                work.append(edge.src)
    return found


# -- the structured control flow -------------------------------------------------------


def _normalized(items: list) -> list:
    """`items` with control-flow regions as the loops, branches and sequences they are."""
    result: list = []
    for item in items:
        if isinstance(item, cf.Loop):
            item.body = _normalized(item.body)
            result.append(item)
        elif isinstance(item, cf.Branch):
            item.then, item.otherwise = _normalized(item.then), _normalized(item.otherwise)
            result.append(item)
        elif isinstance(item, cf.Block) and isinstance(item.block, LoopRegion):
            result.append(_normalized([cf.loop_of_region(item.block)])[0])
        elif isinstance(item, cf.Block) and isinstance(item.block, ConditionalBlock):
            result += _conditional(item.block, 0)
        elif isinstance(item, cf.Block) and type(item.block) is ControlFlowRegion:
            result += _normalized(cf.structure(item.block))
        else:
            result.append(item)
    return result


def _conditional(block: ConditionalBlock, index: int) -> list:
    """Branch `index` of a conditional block and those after it, as nested branches."""
    if index >= len(block.branches):
        return []
    condition, region = block.branches[index]
    body = _normalized(cf.structure(region))
    if condition is None:
        return body
    return [cf.Branch(block.label, block, condition.as_string, body, _conditional(block, index + 1))]


def _loops(items: list):
    for item in items:
        if isinstance(item, cf.Loop):
            yield item
            yield from _loops(item.body)
        elif isinstance(item, cf.Branch):
            yield from _loops(item.then + item.otherwise)


def _assignments(items: list):
    for item in items:
        if isinstance(item, cf.Assign):
            yield from item.assignments
        elif isinstance(item, cf.Loop):
            yield from item.entry + item.latch
            yield from _assignments(item.body)
        elif isinstance(item, cf.Branch):
            yield from _assignments(item.then + item.otherwise)


class _Flow:
    """Writes the structured control flow into the caller's region from a state on, as
    a state machine of guard states and interstate edges (DaCe's frontend's form)."""

    def __init__(self, rewrite: _Interchange, cfg: ControlFlowRegion, start: SDFGState):
        self.rewrite, self.cfg, self.current = rewrite, cfg, start
        self.edge = InterstateEdge()
        """The edge into the next state."""

    def goto(self, label: str) -> SDFGState:
        state = self.cfg.add_state(label)
        self.cfg.add_edge(self.current, state, self.edge)
        self.current, self.edge = state, InterstateEdge()
        return state

    def flush(self, label: str) -> None:
        """A state to take the pending edge, when it has a condition or assignments."""
        if self.edge.assignments or not self.edge.is_unconditional():
            self.goto(label)

    def finish(self, after: SDFGState) -> None:
        self.cfg.add_edge(self.current, after, self.edge)

    def items(self, items: list, guard: _Guard) -> None:
        for item in items:
            if isinstance(item, cf.Block):
                self.block(item.block, guard)
            elif isinstance(item, cf.Assign):
                self.assign(item.assignments, guard)
            elif isinstance(item, cf.Loop):
                self.loop(item, guard)
            elif isinstance(item, cf.Break):
                raise self.rewrite.fail(f"state '{item.where.label}' breaks out of a loop in the map; not supported yet")
            else:
                self.branch(item, guard)

    def block(self, block, guard: _Guard) -> None:
        if not isinstance(block, SDFGState):
            raise self.rewrite.fail(f"{type(block).__name__} '{block.label}' is not supported yet")
        builder = _MapBuilder(self.rewrite, self.goto(block.label), guard)
        builder.dataflow(block)
        builder.finish()

    def assign(self, assignments: cf.Assignments, guard: _Guard) -> None:
        for name, value in assignments:
            if name in self.rewrite.per_point:
                builder = _MapBuilder(self.rewrite, self.goto(f"assign_{name}"), guard)
                builder.value(f"assign_{name}", value, self.rewrite.per_point[name])
                builder.finish()
            elif guard:
                raise self.rewrite.fail(
                    f"symbol '{name}' is assigned where only some points run (inside a loop bounded by the "
                    "point or a branch on its data); not supported yet"
                )
            else:
                self.edge.assignments[name] = value

    def loop(self, loop: cf.Loop, guard: _Guard) -> None:
        rewrite = self.rewrite
        if rewrite.reads_data(loop.condition):
            raise rewrite.fail(
                f"loop '{loop.label}' tests '{loop.condition}', which reads data of the point; only loops "
                "bounded by symbols, loop variables and the map's parameters can run outside the map"
            )
        for name, value in loop.entry + loop.latch:
            if name != loop.variable and rewrite.depends_on_point(value):
                raise rewrite.fail(f"loop '{loop.label}' assigns '{name} = {value}', a value of the point; "
                                   "not supported yet")
        condition, entry, body_guard = loop.condition, loop.entry, guard
        if rewrite.depends_on_point(condition) or any(rewrite.depends_on_point(v) for _, v in loop.entry):
            condition, entry, body_guard = self.hull(loop, guard)
        self.flush(f"{loop.label}_init")
        self.edge.assignments.update(dict(entry))
        header = self.goto(f"{loop.label}_guard")
        self.edge = InterstateEdge(condition=condition)
        self.items(loop.body, body_guard)
        if self.current is header or self.edge.assignments or not self.edge.is_unconditional():
            self.goto(f"{loop.label}_latch")
        self.cfg.add_edge(self.current, header, InterstateEdge(assignments=dict(loop.latch)))
        self.current, self.edge = header, InterstateEdge(condition=f"not ({condition})")

    def hull(self, loop: cf.Loop, guard: _Guard) -> tuple[str, cf.Assignments, _Guard]:
        """A loop whose bounds use the map's parameters: its condition over the hull of
        them, its entry assignments, and the guard of its body (each point's own bounds)."""
        rewrite, variable = self.rewrite, loop.variable
        count = cf.counting(loop)
        try:
            if count is None:
                raise SymbolicError("it does not count")
            first, last = read_symbolic(count.init), read_symbolic(count.bound) + count.offset
        except SymbolicError as err:
            raise rewrite.fail(f"loop '{loop.label}' tests '{loop.condition}', which uses the map's parameters, "
                               f"and cannot iterate over their hull ({err})") from err
        up = count.step > 0
        start, limit = rewrite.hull.bound(first, upper=not up), rewrite.hull.bound(last, upper=up)
        if start is None or limit is None:
            raise rewrite.fail(f"the bounds of loop '{loop.label}' are not linear in the map's parameters")
        body_guard = guard.also(f"({loop.condition})") if rewrite.depends_on_point(loop.condition) else guard
        if rewrite.depends_on_point(count.init):
            if abs(count.step) != 1:
                raise rewrite.fail(f"loop '{loop.label}' starts at '{count.init}', a value of the point, "
                                   "with a step other than 1; not supported yet")
            body_guard = body_guard.also(f"({variable} {'>=' if up else '<='} {count.init})")
        entry = [(n, str(start) if n == variable else v) for n, v in loop.entry]
        return f"({variable} {'<' if up else '>'} {limit})", entry, body_guard

    def branch(self, branch: cf.Branch, guard: _Guard) -> None:
        rewrite, condition = self.rewrite, branch.condition
        if not rewrite.depends_on_point(condition):
            self.uniform_branch(branch, guard)
        elif not rewrite.reads_data(condition):
            self.items(branch.then, guard.also(f"({condition})"))
            self.items(branch.otherwise, guard.also(f"(not ({condition}))"))
        else:
            flag = rewrite.add_expanded(f"{branch.label}_condition", [], dtypes.bool_)
            builder = _MapBuilder(rewrite, self.goto(f"{branch.label}_condition"), _Guard())
            builder.value(f"{branch.label}_condition", condition, flag)
            builder.finish()
            self.items(branch.then, guard.also(flag=(flag, True)))
            self.items(branch.otherwise, guard.also(flag=(flag, False)))

    def uniform_branch(self, branch: cf.Branch, guard: _Guard) -> None:
        """A branch every point takes the same way stays a branch."""
        self.flush(branch.label)
        fork, ends = self.current, []
        for condition, arm, name in ((branch.condition, branch.then, "then"),
                                     (f"not ({branch.condition})", branch.otherwise, "else")):
            self.current, self.edge = fork, InterstateEdge(condition=condition)
            self.items(arm, guard)
            if self.current is fork:
                self.goto(f"{branch.label}_{name}")
            ends.append((self.current, self.edge))
        merge = self.cfg.add_state(f"{branch.label}_merge")
        for state, edge in ends:
            self.cfg.add_edge(state, merge, edge)
        self.current, self.edge = merge, InterstateEdge()


# -- one state as a map -------------------------------------------------------------------


class _MapBuilder:
    """A state of the nested SDFG (or a value it assigns) as a map over the points in a
    state of the caller; `extra` parameters and ranges make it a map over the points and
    a box (a copy of the box at each point)."""

    def __init__(self, rewrite: _Interchange, state: SDFGState, guard: _Guard, extra: dict | None = None):
        self.rewrite, self.state, self.guard = rewrite, state, guard
        outer = rewrite.entry.map
        ranges = subsets.Range(list(outer.range.ranges) + list((extra or {}).values()))
        self.map = nodes.Map(outer.label, list(outer.params) + list(extra or {}), ranges, schedule=outer.schedule)
        self.entry, self.exit = nodes.MapEntry(self.map), nodes.MapExit(self.map)
        self.access: dict[tuple[str, bool], nodes.AccessNode] = {}
        self.written: list[tuple[nodes.Tasklet, str, Memlet]] = []
        """The outputs that leave the map: the writes the guard holds back."""

    def open(self) -> None:
        self.state.add_nodes_from([self.entry, self.exit])

    def outside(self, name: str, write: bool) -> nodes.AccessNode:
        key = (name, write)
        if key not in self.access:
            self.access[key] = self.state.add_write(name) if write else self.state.add_read(name)
        return self.access[key]

    def read(self, name: str, subset, tasklet: nodes.Tasklet, connector: str) -> None:
        tasklet.add_in_connector(connector)
        self.state.add_memlet_path(self.outside(name, False), self.entry, tasklet, dst_conn=connector,
                                   memlet=Memlet(data=name, subset=subset), propagate=False)

    def write(self, tasklet: nodes.Tasklet, connector: str, name: str, subset, wcr=None) -> None:
        tasklet.add_out_connector(connector)
        memlet = Memlet(data=name, subset=subset, wcr=wcr)
        self.state.add_memlet_path(tasklet, self.exit, self.outside(name, True), src_conn=connector, memlet=memlet,
                                   propagate=False)
        self.written.append((tasklet, connector, memlet))

    def dataflow(self, inner_state: SDFGState) -> None:
        """The state's tasklets inside the map: containers local to the map are scalars
        inside it, the others are read before it and written after it; a container the
        state writes and reads again is passed on inside the map as a scalar and written
        after it too."""
        rewrite, where = self.rewrite, f"state '{inner_state.label}'"
        copies: dict = {}
        if inner_state.nodes():
            self.open()
        for node in dfs_topological_sort(inner_state):
            if isinstance(node, nodes.Tasklet) and node.language == dtypes.Language.Python:
                copies[node] = copy.deepcopy(node)
                self.state.add_node(copies[node])
            elif isinstance(node, nodes.AccessNode):
                if isinstance(node.desc(rewrite.inner), dt.View):
                    raise rewrite.fail(f"{where} views '{node.data}' ('{node.label}'); views inside the loop body "
                                       "are not supported yet")
                local = rewrite.local_name(node.data)
                if local is not None:
                    copies[node] = self.state.add_access(local)
                elif inner_state.in_edges(node) and inner_state.out_edges(node):
                    copies[node] = self.passed_on(inner_state, node, where)
            else:
                raise rewrite.fail(f"{where} holds {type(node).__name__} '{node.label}'; only Python tasklets "
                                   "can run inside a loop in a map")
        for edge in inner_state.edges():
            self.edge(inner_state, edge, copies, where)

    def passed_on(self, inner_state: SDFGState, node: nodes.AccessNode, where: str) -> nodes.AccessNode:
        """A scalar inside the map for the element the state writes into `node` and reads
        from it again, written after the map too."""
        (written,) = {str(e.data.dst_subset or e.data.subset) for e in inner_state.in_edges(node)} or {None}
        read = {str(e.data.src_subset or e.data.subset) for e in inner_state.out_edges(node)}
        edge = inner_state.in_edges(node)[0]
        subset = edge.data.dst_subset or edge.data.subset
        if len(inner_state.in_edges(node)) != 1 or read != {written} or subset.num_elements() != 1:
            raise self.rewrite.fail(f"{where} writes '{node.data}' and reads it back other than one element "
                                    "at a time; not supported yet")
        name, _ = self.rewrite.sdfg.add_scalar(f"{node.data}_value", node.desc(self.rewrite.inner).dtype,
                                               transient=True, find_new_name=True)
        value = self.state.add_access(name)
        tasklet = self.state.add_tasklet(f"write_{node.data}", {"__in"}, {}, "__out = __in")
        self.state.add_edge(value, None, tasklet, "__in", Memlet(data=name, subset=subsets.Range([(0, 0, 1)])))
        self.write(tasklet, "__out", *self.rewrite.outer_access(node.data, subset, write=True)[:2], edge.data.wcr)
        return value

    def edge(self, inner_state: SDFGState, edge, copies: dict, where: str) -> None:
        src, dst, memlet = edge.src, edge.dst, edge.data
        if memlet.is_empty():
            if src in copies and dst in copies:
                self.state.add_nedge(copies[src], copies[dst], Memlet())
            return
        if isinstance(src, nodes.AccessNode) and isinstance(dst, nodes.AccessNode):
            self.copy(inner_state, edge, copies, where)
        elif src in copies and dst in copies:  # between tasklets and scalars inside the map
            scalar = next((copies[n].data for n in (src, dst) if isinstance(n, nodes.AccessNode)), None)
            inside = Memlet(data=scalar, subset=subsets.Range([(0, 0, 1)])) if scalar else copy.deepcopy(memlet)
            self.state.add_edge(copies[src], edge.src_conn, copies[dst], edge.dst_conn, inside)
        elif isinstance(src, nodes.AccessNode):
            name, subset, _ = self.rewrite.outer_access(src.data, memlet.src_subset or memlet.subset)
            self.read(name, subset, copies[dst], edge.dst_conn)
        else:
            name, subset, _ = self.rewrite.outer_access(dst.data, memlet.dst_subset or memlet.subset, write=True)
            self.write(copies[src], edge.src_conn, name, subset, memlet.wcr)

    def copy(self, inner_state: SDFGState, edge, copies: dict, where: str) -> None:
        """A copy between containers: of one element, a tasklet in the map; of a box, a
        map of its own over the points and the box."""
        memlet, inner = edge.data, self.rewrite.inner
        boxes = [subset or subsets.Range.from_array(inner.arrays[node.data])
                 for node, subset in ((edge.src, memlet.src_subset), (edge.dst, memlet.dst_subset))]
        if boxes[0].num_elements() != 1 or boxes[1].num_elements() != 1:
            self.box_copy(inner_state, edge, boxes, where)
            return
        tasklet = self.state.add_tasklet(f"copy_{edge.src.data}_{edge.dst.data}", {}, {}, "__out = __in")
        for node, box, write in ((edge.src, boxes[0], False), (edge.dst, boxes[1], True)):
            name, subset, outside = self.rewrite.outer_access(node.data, box, write)
            if outside and write:
                self.write(tasklet, "__out", name, subset)
            elif outside:
                self.read(name, subset, tasklet, "__in")
            elif write:
                tasklet.add_out_connector("__out")
                self.state.add_edge(tasklet, "__out", copies[node], None, Memlet(data=name, subset=subset))
            else:
                tasklet.add_in_connector("__in")
                self.state.add_edge(copies[node], None, tasklet, "__in", Memlet(data=name, subset=subset))

    def box_copy(self, inner_state: SDFGState, edge, boxes: list, where: str) -> None:
        """A copy of a box (`B[i, :] = t`, with `t` a local array), as a map over the
        points and the box, when no other node of the state touches its ends."""
        src, dst = edge.src.data, edge.dst.data
        others = [n for n in inner_state.nodes() if n not in (edge.src, edge.dst)]
        touched = {n.data for n in others if isinstance(n, nodes.AccessNode)}
        sizes = [[(d, n) for d, n in enumerate(box.size()) if n != 1] for box in boxes]
        if touched & {src, dst} or [n for _, n in sizes[0]] != [n for _, n in sizes[1]]:
            raise self.rewrite.fail(f"{where} copies '{src}' to '{dst}', a box of more than one element, "
                                    "where other nodes of the state use them too, or into a box of another "
                                    "shape; not supported yet")
        params = {f"__copy{k}": (0, n - 1, 1) for k, (_, n) in enumerate(sizes[0])}
        box_map = _MapBuilder(self.rewrite, self.state, self.guard, params)
        box_map.open()
        tasklet = self.state.add_tasklet(f"copy_{src}_{dst}", {}, {}, "__out = __in")
        for (name, box, dims), write in zip(zip((src, dst), boxes, sizes), (False, True)):
            at = {d: symbolic.symbol(p) for (d, _), p in zip(dims, params)}
            element = subsets.Range([(b + at.get(d, 0), b + at.get(d, 0), 1) for d, (b, _, _) in enumerate(box.ndrange())])
            outer, subset, _ = self.rewrite.outer_access(name, element, write)
            if write:
                box_map.write(tasklet, "__out", outer, subset)
            else:
                box_map.read(outer, subset, tasklet, "__in")
        box_map.finish(propagate=False)

    def value(self, label: str, text: str, target: str) -> None:
        """A tasklet computing the interstate expression `text` at each point into the
        per-point container `target`."""
        rewrite = self.rewrite
        inputs: dict[str, tuple[str, subsets.Range]] = {}

        def connector(access) -> ast.Name:
            inputs[f"__in{len(inputs)}"] = access
            return ast.Name(f"__in{len(inputs) - 1}", ast.Load())

        def element(name: str, indices: list[ast.expr]) -> ast.expr | None:
            if name not in rewrite.inner.arrays:
                return None
            try:
                subset = subsets.Range([(v, v, 1) for v in (read_symbolic(ast.unparse(i)) for i in indices)])
            except SymbolicError as err:
                raise rewrite.fail(f"cannot read an index of '{name}' in '{text}': {err}") from err
            return connector(rewrite.outer_access(name, subset)[:2])

        def symbol(name: str) -> ast.expr | None:
            if name in rewrite.per_point:
                return connector((rewrite.per_point[name], subsets.Range(rewrite.point())))
            if name in rewrite.inner.arrays:
                return connector(rewrite.outer_access(name, subsets.Range([(0, 0, 1)]))[:2])
            return None

        tree = ast.parse(text.strip(), mode="eval")  # parsed before, when its names were classified
        code = ast.unparse(cf.replace_reads(tree, element, symbol))
        self.open()
        tasklet = self.state.add_tasklet(label, {}, {"__out"}, f"__out = {code}")
        for connector, (name, subset) in inputs.items():
            self.read(name, subset, tasklet, connector)
        self.write(tasklet, "__out", target, subsets.Range(rewrite.point()))

    def finish(self, propagate: bool = True) -> None:
        """Connect the tasklets without inputs to the map, hold back the writes the
        guard fails and propagate the memlets (once for the state: `propagate`)."""
        if self.entry not in self.state.nodes():
            return  # an empty state
        for node in self.state.nodes():
            if isinstance(node, nodes.Tasklet) and not self.state.in_edges(node):
                self.state.add_nedge(self.entry, node, Memlet())
        if not self.state.out_edges(self.entry):  # the state only copied boxes, each in a map of its own
            self.state.remove_nodes_from([self.entry, self.exit])
        if self.guard:
            self.hold_back_writes()
        if propagate:
            propagate_memlets_state(self.rewrite.sdfg, self.state)

    def hold_back_writes(self) -> None:
        """Each write out of the map keeps the old value where the guard fails."""
        by_tasklet: dict[nodes.Tasklet, list[tuple[str, Memlet]]] = {}
        for tasklet, connector, memlet in self.written:
            by_tasklet.setdefault(tasklet, []).append((connector, memlet))
        point = subsets.Range(self.rewrite.point())
        for tasklet, outputs in by_tasklet.items():
            terms = list(self.guard.conditions)
            for flag, holds in self.guard.flags:
                connector = f"__guard_{flag}"
                if connector not in tasklet.in_connectors:
                    self.read(flag, point, tasklet, connector)
                terms.append(connector if holds else f"(not {connector})")
            lines = []
            for connector, memlet in outputs:
                if memlet.wcr is not None:
                    raise self.rewrite.fail(f"tasklet '{tasklet.label}' accumulates into '{memlet.data}' where "
                                            "only some points run; not supported yet")
                lines.append(f"    {connector} = {self.old_value(tasklet, connector, memlet)}")
            code = f"{tasklet.code.as_string}\nif not ({' and '.join(terms)}):\n" + "\n".join(lines)
            tasklet.code = CodeBlock(code)

    def old_value(self, tasklet: nodes.Tasklet, connector: str, memlet: Memlet) -> str:
        """The input of `tasklet` that reads the element `memlet` writes: one it has, or a new one."""
        for edge in self.state.in_edges(tasklet):
            if edge.data.data == memlet.data and str(edge.data.subset) == str(memlet.subset) and edge.dst_conn:
                return edge.dst_conn
        old = f"__old_{connector}"
        self.read(memlet.data, copy.deepcopy(memlet.subset), tasklet, old)
        return old
