"""Slices whose length depends on a loop variable (`A[i, i:]`, `x[:i]`), made static.

DaCe writes `x[i:] -= A[i - 1, i:] * x[i - 1]` as a transient of shape `N - i`, maps over
`__i0 = 0:N - i` that access `A[i - 1, __i0 + i]`, and a copy of `N - i` elements; and
`A[i, :i] @ x[:i]` as a `Dot` of two views of length `i`. The `sdfg` dialect keeps shapes
and map ranges static (index expressions of sizes), so that one graph serves every
iteration. This rewrite of the SDFG, before import, makes them so:

- A copy of loop-dependent size becomes a map that copies element by element.
- A library node (`Reduce`, `Dot`, a `MatMul` of vectors) that reads a box of
  loop-dependent size reads instead a whole *padded* transient, filled by such a map with
  the box, and with the reduction's identity elsewhere.
- Each map over a loop-dependent range is rebased: a parameter `p` that the memlets
  index as `p + s(i)` (the same loop-dependent `s` in every access of a container of
  static shape) takes the values of `p + s(i)`, so that those accesses are at the point.
  Its range widens to the hull of all iterations' ranges (`i:N` with `i` in `0:N` is
  `0:N`) and each tasklet's outputs are guarded by the old range: outside it they write
  the old value back (an extra input), the identity into a padded transient or a
  write-conflict resolution, and anything into a transient nobody reads there.
- Each transient of a loop-dependent shape is rebased with the maps that write it (its
  element k is at `k + s(i)`) and sized by the hull of its shape.

The hull of an expression is its maximum (minimum) over the values the loops' variables
take, for expressions linear in each with a constant coefficient. What this does not
cover (a range of another form, accesses shifted by different amounts) is left as it
was, for the importer to report.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import sympy
from dace import Memlet, dtypes, nodes, subsets, symbolic
from dace import data as dt
from dace.properties import CodeBlock
from dace.sdfg import SDFG, SDFGState
from dace.sdfg.propagation import propagate_memlets_state
from dace.sdfg.state import ConditionalBlock, ControlFlowRegion, LoopRegion

from ipu_lower.frontend import control_flow as cf
from ipu_lower.frontend.reductions import library_kind, reduction_type
from ipu_lower.frontend.symbolic import SymbolicError

_OLD = "__old_"


class LoopExtentError(Exception):
    """A loop-dependent extent this rewrite recognises but cannot make static."""

    def __init__(self, message: str, state: SDFGState, node):
        super().__init__(message)
        self.message, self.state, self.node = message, state, node


def static_loop_extents(sdfg: SDFG) -> set:
    """Rewrite the loop-dependent extents of `sdfg` (see the module docstring); the
    library nodes that now read padded transients."""
    intervals = _loop_intervals(sdfg)
    if not intervals:
        return set()
    rewriter = _Rewriter(sdfg, Hull(intervals))
    rewriter.run()
    return {edge.dst for edge in rewriter.whole_reads}


# -- the values loop variables take -----------------------------------------------------


def _loop_intervals(sdfg: SDFG) -> dict[str, tuple]:
    """The first and last value of each counted loop's variable (sympy, possibly in
    enclosing loops' variables); loops that do not count are left out."""
    found: dict[str, tuple] = {}
    try:
        _visit_region(sdfg, found)
    except cf.ControlFlowError:
        pass  # the importer reports it
    return found


def _visit_region(cfg: ControlFlowRegion, found: dict[str, tuple]) -> None:
    for item in cf.structure(cfg):
        _visit(item, found)


def _visit(item, found: dict[str, tuple]) -> None:
    if isinstance(item, cf.Loop):
        count = cf.counting(item)
        if count is not None:
            try:
                found[item.variable] = count.interval()
            except SymbolicError:
                pass
        for inner in item.body:
            _visit(inner, found)
    elif isinstance(item, cf.Branch):
        for inner in item.then + item.otherwise:
            _visit(inner, found)
    elif isinstance(item, cf.Block):
        block = item.block
        if isinstance(block, LoopRegion):
            _visit(cf.loop_of_region(block), found)
        elif isinstance(block, ConditionalBlock):
            for _, region in block.branches:
                _visit_region(region, found)
        elif isinstance(block, ControlFlowRegion):
            _visit_region(block, found)


@dataclass
class Hull:
    """Bounds of expressions over the values variables take: `intervals` holds each
    variable's first and last value (sympy, possibly in other variables of it)."""

    intervals: dict[str, tuple]

    def loop_names(self, expr) -> set[str]:
        return {str(s) for s in getattr(sympy.sympify(expr), "free_symbols", ())} & set(self.intervals)

    def depends(self, expr) -> bool:
        return bool(self.loop_names(expr))

    def bound(self, expr, upper: bool):
        """The maximum (`upper`) or minimum of `expr` over the loops' values; None when
        `expr` is not linear with a constant coefficient in a variable it uses."""
        expr = sympy.sympify(expr)
        for _ in range(4 * len(self.intervals) + 1):  # each step may bring in an enclosing loop
            symbols = [s for s in expr.free_symbols if str(s) in self.intervals]
            if not symbols:
                return sympy.simplify(expr)
            variable = symbols[0]
            coefficient = sympy.diff(expr, variable)
            if not coefficient.is_number:
                return None
            first, last = self.intervals[str(variable)]
            expr = sympy.expand(expr.subs(variable, last if (coefficient > 0) == upper else first))
        return None

    def loop_part(self, expr):
        """The terms of `expr` that use a loop variable."""
        terms = sympy.Add.make_args(sympy.expand(expr))
        return sympy.Add(*[t for t in terms if self.depends(t)])


# -- the rewrite -------------------------------------------------------------------------


@dataclass
class _Transient:
    """A transient of loop-dependent shape: its element k is at k + shift (per
    dimension; None until a map that accesses it decides), and the identity it holds
    outside its box when a library node reads it whole, as a Python literal (None: it
    is not padded)."""

    shift: list = field(default_factory=list)
    identity: str | None = None


class _Rewriter:
    def __init__(self, sdfg: SDFG, hull: Hull):
        self.sdfg, self.hull = sdfg, hull
        self.transients: dict[str, _Transient] = {
            name: _Transient([None] * len(desc.shape))
            for name, desc in sdfg.arrays.items()
            if desc.transient and type(desc) is dt.Array and any(hull.depends(d) for d in desc.shape)
        }
        self.whole_reads: list = []
        """Edges into library nodes that read a padded transient whole, once it is sized."""
        self.aligned: list[tuple[SDFGState, object]] = []
        """Dot products, whose padded inputs must be rebased alike."""

    def run(self) -> None:
        states = list(self.sdfg.all_states())
        for state in states:
            for node in list(state.nodes()):
                if library_kind(node) is not None and state.entry_node(node) is None:
                    self.pad_inputs(state, node)
            for edge in list(state.edges()):
                if self.is_dynamic_copy(state, edge):
                    self.copy_as_map(state, edge.src, edge.data.src_subset, edge.dst, edge.data.dst_subset)
                    state.remove_edge(edge)
        for state in states:
            changed = False
            for node in list(state.nodes()):
                if isinstance(node, nodes.MapEntry) and state.entry_node(node) is None:
                    changed |= self.rebase_map(state, node)
            if changed:
                propagate_memlets_state(self.sdfg, state)
        for state in states:
            self.shift_other_accesses(state)
        self.check_alignment()
        self.resize_transients()
        for edge in self.whole_reads:
            edge.data = Memlet.from_array(edge.data.data, self.sdfg.arrays[edge.data.data])

    # -- copies and library nodes -------------------------------------------------------

    def dynamic_box(self, subset) -> bool:
        return subset is not None and any(self.hull.depends(s) for s in subset.size())

    def is_dynamic_copy(self, state: SDFGState, edge) -> bool:
        if not (isinstance(edge.src, nodes.AccessNode) and isinstance(edge.dst, nodes.AccessNode)):
            return False
        if any(isinstance(n.desc(self.sdfg), dt.View) for n in (edge.src, edge.dst)) or edge.data.wcr:
            return False
        return self.dynamic_box(edge.data.src_subset) or self.dynamic_box(edge.data.dst_subset)

    def copy_as_map(self, state: SDFGState, src: nodes.AccessNode, src_subset, dst: nodes.AccessNode, dst_subset,
                    where=None):
        """A map copying box `src_subset` of `src` into `dst_subset` of `dst` (boxes of
        the same sizes once dimensions of size one are dropped); errors name `where`
        (by default `dst`)."""
        where = where or dst
        src_subset = src_subset or subsets.Range.from_array(src.desc(self.sdfg))
        dst_subset = dst_subset or subsets.Range.from_array(dst.desc(self.sdfg))
        for name, box in ((src.data, src_subset), (dst.data, dst_subset)):
            if any(step != 1 for _, _, step in box.ndrange()):
                raise LoopExtentError(f"box '{name}[{box}]' of loop-dependent size has a stride; not supported yet",
                                      state, where)
        src_dims = [d for d, s in enumerate(src_subset.size()) if sympy.simplify(s - 1) != 0]
        dst_dims = [d for d, s in enumerate(dst_subset.size()) if sympy.simplify(s - 1) != 0]
        src_sizes, dst_sizes = src_subset.size(), dst_subset.size()
        if len(src_dims) != len(dst_dims) or any(
            sympy.simplify(src_sizes[a] - dst_sizes[b]) != 0 for a, b in zip(src_dims, dst_dims)
        ):
            raise LoopExtentError(
                f"copy from '{src.data}[{src_subset}]' to '{dst.data}[{dst_subset}]' of loop-dependent size "
                "changes the shape of its box; not supported yet", state, where,
            )
        params = {d: f"__k{k}" for k, d in enumerate(dst_dims)}
        dst_index = [params.get(d, str(b)) for d, (b, _, _) in enumerate(dst_subset.ndrange())]
        src_index = [str(b) for b, _, _ in src_subset.ndrange()]
        for a, b in zip(src_dims, dst_dims):
            src_index[a] = str(symbolic.symbol(params[b]) - dst_subset.ndrange()[b][0] + src_subset.ndrange()[a][0])
        ranges = {params[d]: f"{dst_subset.ndrange()[d][0]}:{dst_subset.ndrange()[d][1] + 1}" for d in dst_dims}
        state.add_mapped_tasklet(
            f"copy_{src.data}_{dst.data}",
            ranges,
            {"__in": Memlet(f"{src.data}[{', '.join(src_index)}]")},
            "__out = __in",
            {"__out": Memlet(f"{dst.data}[{', '.join(dst_index)}]")},
            input_nodes={src.data: src},
            output_nodes={dst.data: dst},
            external_edges=True,
        )

    def pad_inputs(self, state: SDFGState, node) -> None:
        """Each input of `node` of loop-dependent size comes instead from a padded
        transient of the input's shape (see the module docstring)."""
        edges = [e for e in state.in_edges(node) if not e.data.is_empty() and self.dynamic_box(e.data.subset)]
        if not edges or not all(isinstance(e.src, nodes.AccessNode) for e in edges):
            return
        for edge in edges:
            src, subset = edge.src, edge.data.subset
            if isinstance(src.desc(self.sdfg), dt.View):  # copy from what the view views
                src, subset = self.viewed(state, src, subset, node)
            name, desc = self.sdfg.add_transient(
                f"{edge.data.data}_padded", edge.data.subset.size(), src.desc(self.sdfg).dtype, find_new_name=True
            )
            self.transients[name] = _Transient([None] * len(desc.shape), self.identity_of(state, node, desc.dtype))
            padded = state.add_access(name)
            self.copy_as_map(state, src, subset, padded, subsets.Range.from_array(desc), node)
            self.whole_reads.append(state.add_edge(padded, None, node, edge.dst_conn, Memlet.from_array(name, desc)))
            state.remove_edge(edge)
            if isinstance(edge.src.desc(self.sdfg), dt.View) and not state.out_edges(edge.src):
                state.remove_node(edge.src)
        if library_kind(node) != "reduce":
            self.aligned.append((state, node))

    def viewed(self, state: SDFGState, view: nodes.AccessNode, subset, node):
        """The container a view node views and the box of it that `subset` of the view is."""
        ins = [e for e in state.in_edges(view) if not e.data.is_empty()]
        source = ins[0].src if len(ins) == 1 else None
        if not isinstance(source, nodes.AccessNode) or isinstance(source.desc(self.sdfg), dt.View):
            raise LoopExtentError(f"view '{view.data}' of loop-dependent size is not a view of a container; "
                                  "not supported yet", state, node)
        memlet = ins[0].data
        box = memlet.subset if memlet.data == source.data else memlet.other_subset
        view_dims = list(subset.ndrange())
        result, k = [], 0
        for b, e, s in box.ndrange():
            if sympy.simplify(e - b) == 0:
                result.append((b, e, s))
            elif k < len(view_dims):
                vb, ve, _ = view_dims[k]
                result.append((b + vb, b + ve, s))
                k += 1
            else:
                k = -1
                break
        if k != len(view_dims):
            raise LoopExtentError(f"view '{view.data}' of loop-dependent size reshapes '{source.data}'; "
                                  "not supported yet", state, node)
        return source, subsets.Range(result)

    def identity_of(self, state: SDFGState, node, dtype) -> str:
        """What a padded input of `node` holds outside its box (a literal of `dtype`):
        the identity of its reduction."""
        if library_kind(node) != "reduce":
            return "0"  # a dot product
        if node.identity is not None:
            return repr(node.identity)
        literal = _identity_literal(reduction_type(node.wcr), dtype)
        if literal is None:
            raise LoopExtentError(f"reduction '{node.wcr}' of a loop-dependent box has no known identity",
                                  state, node)
        return literal

    # -- maps ---------------------------------------------------------------------------

    def rebase_map(self, state: SDFGState, entry: nodes.MapEntry) -> bool:
        ranges = _canonical_range(entry.map.range).ranges
        if not any(self.hull.depends(x) for r in ranges for x in r):
            return False
        scope = state.scope_subgraph(entry, include_entry=False, include_exit=False)
        if any(isinstance(n, nodes.MapEntry | nodes.NestedSDFG) for n in scope.nodes()):
            return False
        inner = [e for e in state.all_edges(*scope.nodes()) if not e.data.is_empty()]
        shifts = {}
        for param, (begin, end, step) in zip(entry.map.params, ranges):
            if step != 1:
                raise LoopExtentError(f"map range '{begin}:{end + 1}:{step}' of loop-dependent length has a "
                                      "stride; not supported yet", state, entry)
            shifts[param] = self.param_shift(param, inner)
            if shifts[param] is None:
                accesses = sorted({str(e.data) for e in inner if param in str(e.data.subset)})
                raise LoopExtentError(
                    f"map over a loop-dependent range accesses {', '.join(accesses)} at offsets from "
                    f"'{param}' that differ by a loop variable; not supported yet", state, entry,
                )
        new_ranges, guards = [], []
        for param, (begin, end, step) in zip(entry.map.params, ranges):
            first, last = begin + shifts[param], end + shifts[param]
            low, high = self.hull.bound(first, upper=False), self.hull.bound(last, upper=True)
            if low is None or high is None:
                raise LoopExtentError(f"map range '{begin}:{end + 1}' is not linear in the loop variables; "
                                      "not supported yet", state, entry)
            new_ranges.append((_dace(low), _dace(high), 1))
            if self.hull.depends(first):
                guards.append(f"{param} >= {first}")
            if self.hull.depends(last):
                guards.append(f"{param} <= {last}")
        replacements = {_canonical(p): _canonical(p) - s for p, s in shifts.items() if s != 0}
        for edge in inner:
            self.rebase_memlet(edge.data, list(entry.map.params), replacements)
        entry.map.range = subsets.Range(new_ranges)
        guard = " and ".join(f"({g})" for g in guards)
        for tasklet in [n for n in scope.nodes() if isinstance(n, nodes.Tasklet)]:
            self.guard_outputs(state, entry, tasklet, guard)
        return True

    def param_shift(self, param: str, edges):
        """The `s` that puts the accesses `param + s` of containers of static shape (and
        of transients already rebased) at the point: their common offset when they have
        one, else their common loop-dependent part (`A[p + i - 1]`, `A[p + i + 1]` keep
        their neighbours); 0 without any; None when they disagree or use `param`
        otherwise."""
        offsets = []
        for edge in edges:
            transient = self.transients.get(edge.data.data)
            for d, (begin, _, _) in enumerate(_canonical_range(edge.data.subset).ndrange()):
                symbol = sympy.Symbol(param, integer=True)
                if symbol not in begin.free_symbols:
                    continue
                if sympy.diff(begin, symbol) != 1:
                    return None
                if transient is None:
                    offsets.append(begin - symbol)
                elif transient.shift[d] is not None:
                    offsets.append(begin - symbol + transient.shift[d])
        offsets = [sympy.simplify(o) for o in offsets]
        if not offsets:
            return sympy.Integer(0)
        if len(set(offsets)) == 1:
            return offsets[0]
        loop_parts = {sympy.simplify(self.hull.loop_part(o)) for o in offsets}
        return loop_parts.pop() if len(loop_parts) == 1 else None

    def rebase_memlet(self, memlet: Memlet, params: list[str], replacements) -> None:
        subset = _canonical_range(memlet.subset)
        subset = subsets.Range([tuple(x.xreplace(replacements) for x in r) for r in subset.ndrange()])
        memlet.subset = subset
        transient = self.transients.get(memlet.data)
        if transient is None:
            return
        shifted = []
        for d, (begin, end, step) in enumerate(subset.ndrange()):
            if transient.shift[d] is None:  # its element k is where this map puts it: at the point
                at = [s for s in begin.free_symbols if str(s) in params]
                single = len(at) == 1 and sympy.diff(begin, at[0]) == 1
                transient.shift[d] = -(begin - at[0]) if single else -self.hull.loop_part(begin)
            shifted.append((begin + transient.shift[d], end + transient.shift[d], step))
        memlet.subset = subsets.Range(shifted)

    def guard_outputs(self, state: SDFGState, entry: nodes.MapEntry, tasklet: nodes.Tasklet, guard: str) -> None:
        if not guard:
            return
        otherwise = []
        for edge in state.out_edges(tasklet):
            memlet = edge.data
            if edge.src_conn is None or memlet.data is None or isinstance(edge.dst, nodes.Tasklet):
                continue
            if isinstance(edge.dst, nodes.AccessNode) and state.entry_node(edge.dst) is entry:
                continue  # a value passed to a tasklet of the map, which guards its own outputs
            transient = self.transients.get(memlet.data)
            if memlet.wcr is not None:
                identity = _identity_literal(reduction_type(memlet.wcr), self.sdfg.arrays[memlet.data].dtype)
                if identity is None:
                    continue  # the importer reports the lambda
                otherwise.append(f"{edge.src_conn} = {identity}")
            elif transient is not None and transient.identity is not None:
                otherwise.append(f"{edge.src_conn} = {transient.identity}")
            elif transient is None:
                otherwise.append(f"{edge.src_conn} = {self.old_value(state, entry, tasklet, memlet)}")
        if otherwise:
            body = "\n".join(f"    {line}" for line in otherwise)
            tasklet.code = CodeBlock(f"{tasklet.code.as_string}\nif not ({guard}):\n{body}\n")

    def old_value(self, state: SDFGState, entry: nodes.MapEntry, tasklet: nodes.Tasklet, memlet: Memlet) -> str:
        """The input of `tasklet` that reads the element `memlet` writes: one it has, or a new one."""
        for edge in state.in_edges(tasklet):
            if edge.data.data == memlet.data and str(edge.data.subset) == str(memlet.subset) and edge.dst_conn:
                return edge.dst_conn
        old = _OLD + str(len(tasklet.in_connectors))
        tasklet.add_in_connector(old)
        state.add_memlet_path(state.add_read(memlet.data), entry, tasklet, dst_conn=old,
                              memlet=Memlet(data=memlet.data, subset=memlet.subset))
        return old

    # -- the rest ------------------------------------------------------------------------

    def shift_other_accesses(self, state: SDFGState) -> None:
        """Accesses of rebased transients outside maps (copies of static size)."""
        for edge in state.edges():
            if state.entry_node(edge.src) is not None or state.entry_node(edge.dst) is not None:
                continue
            if isinstance(edge.src, nodes.MapExit) or isinstance(edge.dst, nodes.MapEntry):
                continue
            for end, subset_of in ((edge.src, "src_subset"), (edge.dst, "dst_subset")):
                if not isinstance(end, nodes.AccessNode) or end.data not in self.transients:
                    continue
                transient = self.transients[end.data]
                subset = getattr(edge.data, subset_of)
                if subset is None:
                    continue
                shifted = subsets.Range([(b + (t or 0), e + (t or 0), s)
                                         for (b, e, s), t in zip(_canonical_range(subset).ndrange(), transient.shift)])
                if edge.data.data == end.data:
                    edge.data.subset = shifted
                else:
                    edge.data.other_subset = shifted

    def check_alignment(self) -> None:
        for state, node in self.aligned:
            shifts = {tuple(sympy.simplify(t or 0) for t in self.transients[e.data.data].shift)
                      for e in state.in_edges(node) if e.data.data in self.transients}
            if len(shifts) > 1:
                raise LoopExtentError("the operands of this product of loop-dependent length start at "
                                      "different offsets from the loop variable; not supported yet", state, node)

    def resize_transients(self) -> None:
        """Each rebased transient sized by the hull of its shape; a padded one holds the
        identity from the start, where no iteration's box reaches (below the first
        box, or all of it when every box is empty: it has at least one element)."""
        padded = {}
        for name, transient in self.transients.items():
            desc = self.sdfg.arrays[name]
            shape = []
            for size, shift in zip(map(_canonical, desc.shape), transient.shift):
                shift = shift or 0
                low, high = self.hull.bound(shift, upper=False), self.hull.bound(size + shift, upper=True)
                if low is None or high is None or (low < 0) is sympy.true:
                    return  # left loop-dependent: the importer names it
                shape.append(high if transient.identity is None else sympy.Max(high, 1))
            desc.set_shape([_dace(n) for n in shape])
            if transient.identity is not None:
                padded[name] = transient.identity
        if padded:
            state = self.sdfg.add_state_before(self.sdfg.start_block, "init_padded", is_start_block=True)
            for name, identity in padded.items():
                shape = self.sdfg.arrays[name].shape
                params = [f"__k{d}" for d in range(len(shape))]
                state.add_mapped_tasklet(
                    f"init_{name}", {p: f"0:{n}" for p, n in zip(params, shape)}, {}, f"__out = {identity}",
                    {"__out": Memlet(f"{name}[{', '.join(params)}]")}, external_edges=True,
                )


def _canonical(expr):
    """`expr` with each symbol a plain integer sympy symbol of its name: DaCe makes
    symbols of one name with different assumptions, which sympy keeps apart."""
    expr = sympy.sympify(expr)
    return expr.xreplace({s: sympy.Symbol(str(s), integer=True) for s in expr.free_symbols})


def _dace(expr):
    """`expr` with DaCe's symbols again, as DaCe's data descriptors expect."""
    return expr.xreplace({s: symbolic.symbol(str(s)) for s in expr.free_symbols})


def _canonical_range(subset) -> subsets.Range:
    return subsets.Range([tuple(_canonical(x) for x in r) for r in subset.ndrange()])


_IDENTITIES = {
    dtypes.ReductionType.Sum: 0, dtypes.ReductionType.Product: 1,
    dtypes.ReductionType.Min: "inf", dtypes.ReductionType.Max: "-inf",
}
"""The identity of each reduction `sdfg.accumulate` supports (`dialects.reduction.identity`
builds the same values as constants), infinities by name."""


def _identity_literal(kind, dtype) -> str | None:
    """The identity of reduction `kind` as a Python literal of `dtype` in a tasklet (the
    largest or smallest integer for an integer min or max); None for other reductions."""
    value = _IDENTITIES.get(kind)
    if isinstance(value, str) and np.issubdtype(dtype.type, np.integer):
        info = np.iinfo(dtype.type)
        return str(info.max if value == "inf" else info.min)
    return None if value is None else str(value)
