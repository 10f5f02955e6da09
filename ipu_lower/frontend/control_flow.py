"""Recover structured control flow from a DaCe control-flow region.

DaCe 1.0.2's Python frontend writes loops and branches as a state machine: guard states
and interstate edges with conditions and assignments. `structure(cfg)` turns one region
(an SDFG, a `LoopRegion` body, a branch of a `ConditionalBlock`) into a tree of items in
execution order, as plain data the importer then emits as `sdfg` ops:

- `Block`: a state or a nested region (`LoopRegion`, `ConditionalBlock`, ...), run once;
- `Assign`: the assignments of an interstate edge, in order;
- `Loop`: a natural loop whose header (the guard) is an empty state with two out-edges,
  one into the loop under a condition and one out of it under its negation; `entry` and
  `latch` are the assignments of the edge into the guard from before the loop and of the
  one back edge; `variable` is the symbol both assign when the latch's value depends on
  it (DaCe's `t = 0` ... `t = t + 1`), else None;
- `Branch`: a state with two out-edges under complementary conditions, whose arms meet
  again at the branch's immediate post-dominator (or, outside loops and branches, both
  end the program);
- `Break`: the end of a path that leaves the innermost loop (`sdfg.break`).

The analysis is the textbook one: dominators give the back edges (an edge to a block that
dominates its source); the rest of the graph must be acyclic, or the control flow is
irreducible (a cycle entered at more than one block); each back edge's header and the
blocks that reach the back edge without passing the header form a natural loop;
post-dominators on the graph without back edges give the merge point of a branch. An edge
from inside a loop to the block its guard exits to is a `Break` (for the post-dominators,
it goes to the end of the loop body instead, where the arms of a branch around it meet).
A loop left otherwise (`return`, a break out of several loops), several back edges to
one guard, or a branch whose arms do not meet inside the enclosing loop, is reported as
`ControlFlowError` naming the states.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field

import networkx as nx
from dace import symbolic
from dace.sdfg import SDFGState
from dace.sdfg.state import ControlFlowBlock, ControlFlowRegion, LoopRegion

from ipu_lower.frontend.symbolic import SymbolicError, read_symbolic


class ControlFlowError(Exception):
    """Control flow that `structure` cannot express; the message names the states."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


Assignments = list[tuple[str, str]]


@dataclass
class Block:
    block: ControlFlowBlock


@dataclass
class Assign:
    assignments: Assignments
    where: ControlFlowBlock
    """the source block of the edge, for diagnostics"""


@dataclass
class Loop:
    label: str
    header: SDFGState
    condition: str
    body: list
    entry: Assignments = field(default_factory=list)
    latch: Assignments = field(default_factory=list)
    variable: str | None = None


@dataclass
class Branch:
    label: str
    block: ControlFlowBlock
    condition: str
    then: list
    otherwise: list


@dataclass
class Break:
    """`break`: the loop is left here, for the block its guard exits to."""

    where: ControlFlowBlock


Item = Block | Assign | Loop | Branch | Break

_EXIT = "__exit__"


def _label(block: ControlFlowBlock) -> str:
    return block.label


def _names(blocks) -> str:
    return ", ".join(f"'{_label(b)}'" for b in sorted(blocks, key=_label))


def assignments_of(edge) -> Assignments:
    return [(name, str(value)) for name, value in edge.data.assignments.items()]


def negation_of(text: str, other: str) -> bool:
    """Whether condition `other` is `not (text)`, as Python expressions."""
    try:
        a = ast.parse(text.strip(), mode="eval").body
        b = ast.parse(other.strip(), mode="eval").body
    except SyntaxError:
        return False
    return isinstance(b, ast.UnaryOp) and isinstance(b.op, ast.Not) and ast.dump(b.operand) == ast.dump(a)


def reads_name(expression: str, name: str) -> bool:
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError:
        return True
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(tree))


def replace_reads(tree: ast.AST, element: Callable, name: Callable) -> ast.AST:
    """`tree` (an interstate expression) with what it reads replaced: each subscript of a
    name, `A[i, j]`, by what `element(name, indices)` returns, and each other name it
    loads by what `name(id)` returns; a None answer keeps the node (its parts are still
    visited)."""

    class Reads(ast.NodeTransformer):
        def visit_Subscript(self, node: ast.Subscript):
            if isinstance(node.value, ast.Name):
                indices = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                replaced = element(node.value.id, indices)
                if replaced is not None:
                    return replaced
            return self.generic_visit(node)

        def visit_Name(self, node: ast.Name):
            replaced = name(node.id) if isinstance(node.ctx, ast.Load) else None
            return node if replaced is None else replaced

    return Reads().visit(tree)


class _Structurer:
    def __init__(self, cfg: ControlFlowRegion):
        self.cfg = cfg
        self.start = cfg.start_block
        graph = nx.DiGraph()
        graph.add_nodes_from(cfg.nodes())
        graph.add_edges_from((e.src, e.dst) for e in cfg.edges())
        reachable = nx.descendants(graph, self.start) | {self.start}
        if unreachable := [b for b in cfg.nodes() if b not in reachable]:
            what = "state" if len(unreachable) == 1 else "states"
            verb = "is" if len(unreachable) == 1 else "are"
            raise ControlFlowError(f"{what} {_names(unreachable)} {verb} unreachable from the start state")
        idom = nx.immediate_dominators(graph, self.start)
        self.dominators: dict = {}
        for block in cfg.nodes():
            chain, current = {block}, block
            while idom[current] is not current:
                current = idom[current]
                chain.add(current)
            self.dominators[block] = chain
        self.back_edges = [e for e in cfg.edges() if e.dst in self.dominators[e.src]]
        forward = nx.DiGraph()
        forward.add_nodes_from(cfg.nodes())
        forward.add_edges_from((e.src, e.dst) for e in cfg.edges() if e not in self.back_edges)
        try:
            cycle = nx.find_cycle(forward, self.start)
        except nx.NetworkXNoCycle:
            cycle = None
        if cycle is not None:
            blocks = {u for u, _ in cycle}
            raise ControlFlowError(
                f"irreducible control flow: states {_names(blocks)} form a loop entered at more than one state"
            )
        self.loops: dict = {}
        for e in self.back_edges:
            self.loops.setdefault(e.dst, []).append(e)
        self.breaks = self._breaks()
        for e, header in self.breaks.items():  # for where branches meet, a break goes to the end of the loop body
            forward.remove_edge(e.src, e.dst)
            forward.add_edge(e.src, self.loops[header][0].src)
        forward.add_node(_EXIT)
        forward.add_edges_from((b, _EXIT) for b in cfg.nodes() if forward.out_degree(b) == 0)
        self.post_idom = nx.immediate_dominators(forward.reverse(copy=False), _EXIT)

    def _breaks(self) -> dict:
        """The edges that leave a loop (of one back edge) for the block its guard exits to,
        from a block of the loop other than its guard and its latch (`break`s), each with
        the guard of its loop. The blocks a break path runs before it leaves (dominated by
        the guard, not by the exit, outside the natural loop, all their successors such
        blocks or the exit) are the loop's too (`self.bodies`)."""
        found: dict = {}
        self.bodies: dict = {}
        for header, back in self.loops.items():
            if len(back) != 1:
                continue
            natural = self.loop_blocks(header, back[0].src)
            exits = {e.dst for e in self.cfg.out_edges(header) if e.dst not in natural}
            if len(exits) != 1:
                continue
            (exit_block,) = exits
            paths = {
                b for b in self.cfg.nodes()
                if b not in natural and header in self.dominators[b] and exit_block not in self.dominators[b]
            }
            while leaving := {b for b in paths if not self._ends_at(b, paths | {exit_block})}:
                paths -= leaving  # a path that ends elsewhere (a return) is no break
            self.bodies[header] = natural | paths
            for block in self.bodies[header] - {header, back[0].src}:
                for e in self.cfg.out_edges(block):
                    if e.dst is exit_block:
                        found[e] = header
        return found

    def _ends_at(self, block, targets: set) -> bool:
        """Whether `block` has successors, all in `targets`."""
        successors = {e.dst for e in self.cfg.out_edges(block)}
        return bool(successors) and successors <= targets

    def loop_blocks(self, header, latch) -> set:
        blocks = {header, latch}
        work = [latch]
        while work:
            block = work.pop()
            for e in self.cfg.in_edges(block):
                if e.src not in blocks:
                    blocks.add(e.src)
                    work.append(e.src)
        return blocks

    def sequence(self, block, stop, latch=None) -> list[Item]:
        """The items from `block` up to (not including) `stop`; `latch` is the back edge
        of the loop being structured, whose assignments the loop item keeps."""
        items: list[Item] = []
        while block is not stop:
            if block in self.loops:
                loop, exit_edge = self.loop(block)
                items.append(loop)
                items.extend(self.follow(exit_edge, latch))
                block = exit_edge.dst
                continue
            items.append(Block(block))
            out = self.cfg.out_edges(block)
            if not out:
                if stop is not None:
                    raise ControlFlowError(
                        f"control flow ends at state '{_label(block)}' inside a loop or branch "
                        "(return); not supported yet",
                    )
                return items
            if len(out) == 1 and out[0] in self.breaks:
                return items + self.follow(out[0], latch) + [Break(block)]
            if len(out) == 1:
                edge = out[0]
                if not edge.data.is_unconditional():
                    raise ControlFlowError(
                        f"the only edge out of state '{_label(block)}' has condition "
                        f"'{edge.data.condition.as_string}'; not supported yet",
                    )
                if edge in self.back_edges and edge is not latch:
                    raise ControlFlowError(
                        f"state '{_label(block)}' jumps back to '{_label(edge.dst)}' a second time "
                        "(continue); loops with several back edges are not supported yet",
                    )
                items.extend(self.follow(edge, latch))
                block = edge.dst
                continue
            branch, merge = self.branch(block, out, stop, latch)
            items.append(branch)
            block = merge
        return items

    def follow(self, edge, latch) -> list[Item]:
        """The assignments of `edge`, unless a loop item owns them (the latch of the
        loop being structured, or the edge entering a loop's guard)."""
        if edge is latch or not edge.data.assignments:
            return []
        if edge.dst in self.loops and edge not in self.back_edges:
            return []
        return [Assign(assignments_of(edge), edge.src)]

    def branch(self, block, out, stop, latch) -> tuple[Branch, object]:
        """The branch at `block` and the block where its arms meet again (None when
        both end the program)."""
        if len(out) != 2:
            raise ControlFlowError(
                f"state '{_label(block)}' has {len(out)} outgoing edges; only two-way branches are supported",
            )
        a, b = out
        ca, cb = a.data.condition.as_string, b.data.condition.as_string
        if negation_of(cb, ca):
            a, b, ca, cb = b, a, cb, ca
        if not negation_of(ca, cb):
            raise ControlFlowError(
                f"the conditions '{ca}' and '{cb}' of the edges out of state '{_label(block)}' are not "
                "complementary; only if/else branches are supported",
            )
        if a in self.back_edges or b in self.back_edges:
            raise ControlFlowError(
                f"state '{_label(block)}' branches back to an earlier state; only loops whose guard "
                "tests the condition before the body are supported (not do-while loops)",
            )
        merge = self.post_idom.get(block)
        if merge == _EXIT and stop is None:
            merge = None  # at the top level, both arms run to the end of the program
        elif merge is None or merge == _EXIT:
            raise ControlFlowError(
                f"the branches out of state '{_label(block)}' never meet again (a return or break in a "
                "branch); not supported yet",
            )
        then, otherwise = (self.arm(edge, merge, latch) for edge in (a, b))
        label = _label(block)
        if label.endswith("_guard"):
            label = label[: -len("_guard")]
        return Branch(label, block, ca, then, otherwise), merge

    def arm(self, edge, merge, latch) -> list[Item]:
        """The items of the branch arm that starts with `edge`, up to `merge`."""
        items = self.follow(edge, latch)
        if edge in self.breaks:
            return items + [Break(edge.src)]
        return items if edge.dst is merge else items + self.sequence(edge.dst, merge, latch)

    def loop(self, header) -> tuple[Loop, object]:
        back = self.loops[header]
        if len(back) > 1:
            raise ControlFlowError(
                f"loop at state '{_label(header)}' has {len(back)} back edges (from {_names(e.src for e in back)}; "
                "continue); not supported yet",
            )
        latch = back[0]
        blocks = self.bodies.get(header) or self.loop_blocks(header, latch.src)
        if not isinstance(header, SDFGState) or header.nodes():
            raise ControlFlowError(
                f"the guard '{_label(header)}' of a loop is not an empty state; not supported yet"
            )
        out = self.cfg.out_edges(header)
        inside = [e for e in out if e.dst in blocks]
        outside = [e for e in out if e.dst not in blocks]
        if len(out) != 2 or len(inside) != 1 or len(outside) != 1:
            raise ControlFlowError(
                f"loop at state '{_label(header)}' does not test its condition at its guard (a do-while "
                "loop or a loop without exit); not supported yet",
            )
        body_edge, exit_edge = inside[0], outside[0]
        condition = body_edge.data.condition.as_string
        if not negation_of(condition, exit_edge.data.condition.as_string):
            raise ControlFlowError(
                f"the conditions '{condition}' and '{exit_edge.data.condition.as_string}' of loop "
                f"'{_label(header)}' are not complementary",
            )
        for block in blocks - {header}:
            for e in self.cfg.out_edges(block):
                if e.dst not in blocks and e not in self.breaks:
                    raise ControlFlowError(
                        f"state '{_label(block)}' leaves the loop at '{_label(header)}' other than through "
                        "its guard or a break (a return, or a break out of several loops); not supported yet",
                    )
        entries = [e for e in self.cfg.in_edges(header) if e is not latch]
        if len(entries) > 1:
            raise ControlFlowError(
                f"loop at state '{_label(header)}' is entered from {len(entries)} states; not supported yet"
            )
        entry = assignments_of(entries[0]) if entries else []
        latch_assigns = assignments_of(latch)
        variable = None
        for name, value in latch_assigns:
            if reads_name(value, name) and any(n == name and not reads_name(v, name) for n, v in entry):
                variable = name
                break
        body = self.follow(body_edge, None) + self.sequence(body_edge.dst, header, latch)
        label = _label(header)
        if label.endswith("_guard"):
            label = label[: -len("_guard")]
        return Loop(label, header, condition, body, entry, latch_assigns, variable), exit_edge


def structure(cfg: ControlFlowRegion) -> list[Item]:
    """The items of `cfg` in execution order (raises ControlFlowError)."""
    if not cfg.nodes():
        return []
    return _Structurer(cfg).sequence(cfg.start_block, None)


def loop_of_region(region: LoopRegion) -> Loop:
    """A `LoopRegion` as a `Loop` item (raises ControlFlowError)."""
    if region.inverted:
        raise ControlFlowError(
            f"loop '{region.label}' tests its condition after the body (do-while); not supported yet"
        )
    entry = _statements(region.init_statement, region)
    latch = _statements(region.update_statement, region)
    variable = region.loop_variable or None
    if variable not in dict(entry) or variable not in dict(latch):
        variable = None
    body = structure(region)
    return Loop(region.label, None, region.loop_condition.as_string, body, entry, latch, variable)


def _statements(code, region: LoopRegion) -> Assignments:
    """`name = expression` statements of a LoopRegion's init or update code."""
    if code is None or not code.as_string.strip():
        return []
    try:
        tree = ast.parse(code.as_string)
    except SyntaxError as err:
        raise ControlFlowError(f"cannot parse '{code.as_string}' of loop '{region.label}': {err.msg}") from err
    result = []
    for statement in tree.body:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)):
            raise ControlFlowError(
                f"'{ast.unparse(statement)}' of loop '{region.label}' is not an assignment to a symbol"
            )
        result.append((statement.targets[0].id, ast.unparse(statement.value)))
    return result


@dataclass(frozen=True)
class Counting:
    """How a loop counts its variable: from `init` by `step` while it is below (above,
    for a negative step) `bound + offset` (Python expressions, as DaCe wrote them)."""

    init: str
    bound: str
    offset: int
    step: int

    def interval(self) -> tuple:
        """The first and the last value the variable may take (sympy; raises
        SymbolicError); the last is a bound when the step is not one."""
        first, bound = read_symbolic(self.init), read_symbolic(self.bound) + self.offset
        return (first, bound - 1) if self.step > 0 else (bound + 1, first)


def counting(loop: Loop) -> Counting | None:
    """How `loop` counts its variable, when the latch adds a constant to it and the
    condition compares it with a bound on the side the step moves towards; else None."""
    variable = loop.variable
    if variable is None:
        return None
    init, update = dict(loop.entry)[variable], dict(loop.latch)[variable]
    others = [v for n, v in loop.entry + loop.latch if n != variable]
    if any(reads_name(v, variable) for v in others):
        return None
    try:
        step = read_symbolic(update) - symbolic.symbol(variable)
        test = ast.parse(loop.condition.strip(), mode="eval").body
    except (SyntaxError, SymbolicError):
        return None
    if not (getattr(step, "is_Integer", False) and int(step) != 0):
        return None
    step = int(step)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    flipped = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE}
    if isinstance(right, ast.Name) and right.id == variable and type(op) in flipped:
        left, right, op = right, left, flipped[type(op)]()
    if not (isinstance(left, ast.Name) and left.id == variable) or reads_name(ast.unparse(right), variable):
        return None
    offset = {ast.Lt: 0, ast.LtE: 1, ast.Gt: 0, ast.GtE: -1}.get(type(op))
    if offset is None or (step > 0) != isinstance(op, ast.Lt | ast.LtE):
        return None
    return Counting(init, ast.unparse(right), offset, step)
