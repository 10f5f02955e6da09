"""sdfg-collapse-maps: a map nested in a map becomes one map over both parameter sets.

DaCe keeps `for i in dace.map[0:N]: for j in dace.map[0:M]: ...` as two map scopes, one
inside the other (its MapCollapse transformation merges them; simplify does not run it),
and the importer mirrors them: an `sdfg.map` in the body of an `sdfg.map`. Poplar
spreads one iteration space over the tiles, so the two become one map over (i, j) when

- the outer body is the inner map, preceded only by computations of values: reads,
  tasklets and `sdfg.apply` (`t = A[i, 0] * 2` before the inner map); they are computed
  again at every point of the inner range, which reads the same elements (nothing in the
  outer body writes),
- the inner map's bounds are linear in the outer parameters they use, with constant
  coefficients, and the steps of both are 1 where a bound depends on a parameter,
- the schedules agree (or one map has none).

Inner bounds that depend on the outer parameters (`for j in dace.map[0:i + 1]`, a
triangle) become their hull over the outer range (`0:N`), and the points outside a
point's own range are guarded: a tasklet computes whether the point is inside
(`sdfg.apply` of `j - lower(i)` and `upper(i) - 1 - j`, both at least 0), and every write
of the inner body writes the element's old value (read at the same element) where it is
not, every accumulation the identity of its kind. Reads need no guard: the partition
checks that every point reads inside its arrays.

A nested map that cannot be collapsed stays, for the passes after this one to report.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, ModuleOp, i1, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.dialects.reduction import identity

_VALUE_OPS = (sd.ReadOp, sd.TaskletOp, sd.ApplyOp)
"""What may come before the inner map: ops that compute values and write nothing."""


def _linear(e: IndexExpr, dims: Sequence[int]) -> tuple[IndexExpr, dict[int, int]] | None:
    """(rest, coefficients) such that e = rest + sum(c * d for d, c in coefficients), rest
    free of `dims`; None when `e` is not of that form with constant coefficients."""
    rest = e.substitute(dims={d: 0 for d in dims})
    coefficients = {}
    for d in dims:
        c = e.substitute(dims={**{k: 0 for k in dims if k != d}, d: 1}) - rest
        if (value := c.constant_value()) is None:
            return None
        coefficients[d] = value
    total = rest
    for d, c in coefficients.items():
        total = total + IndexExpr.dim(d) * c
    return (rest, coefficients) if total == e else None


class _Collapse:
    """How `outer` and its nested `inner` map merge: the merged ranges over `operands`
    (the index operands the merged map keeps), and the inner dimensions to guard."""

    def __init__(self, outer: sd.MapOp, inner: sd.MapOp):
        self.outer, self.inner = outer, inner
        params = list(outer.params)
        self.operands: list[SSAValue] = list(outer.indices)
        self.operands += [v for v in inner.indices if v not in params and v not in self.operands]
        # inner dimension k -> its value in merged expressions: an outer parameter is a
        # dimension past the operands (hulled below), any other value one of the operands
        n = len(self.operands)
        self.inner_dims = {
            k: IndexExpr.dim(n + params.index(v) if v in params else self.operands.index(v))
            for k, v in enumerate(inner.indices)
        }
        self.outer_params = list(range(n, n + len(params)))
        self.ranges: list[tuple[IndexExpr, IndexExpr, IndexExpr]] = list(outer.ranges())
        self.guards: list[tuple[int, IndexExpr | None, IndexExpr | None]] = []
        """(inner parameter, its lower and upper bounds over the outer parameters where
        they differ from the hull's)"""
        self.valid = self._hull()

    def _hull(self) -> bool:
        outer_ranges = dict(zip(self.outer_params, self.outer.ranges()))
        for k, (lo, hi, st) in enumerate(self.inner.ranges()):
            lo, hi = (e.substitute(dims=self.inner_dims) for e in (lo, hi))
            depends = sorted((lo.dims() | hi.dims()) & set(self.outer_params))
            if not depends:
                self.ranges.append((lo, hi, st))
                continue
            if st.constant_value() != 1 or any(outer_ranges[d][2].constant_value() != 1 for d in depends):
                return False
            box = {d: (outer_ranges[d][0], outer_ranges[d][1] - 1) for d in depends}
            hull = (self._extreme(lo, box, lowest=True), self._extreme(hi, box, lowest=False))
            if hull[0] is None or hull[1] is None:
                return False
            self.ranges.append((hull[0], hull[1], st))
            self.guards.append((k, lo if lo != hull[0] else None, hi if hi != hull[1] else None))
        return True

    def _extreme(self, e: IndexExpr, box: dict[int, tuple[IndexExpr, IndexExpr]], lowest: bool) -> IndexExpr | None:
        """The least (greatest) value of `e` over the outer parameters in `box`."""
        linear = _linear(e, list(box))
        if linear is None:
            return None
        total, coefficients = linear
        for d, c in coefficients.items():
            low, high = box[d]
            total = total + (low if (c >= 0) == lowest else high) * c
        return total


def collapsible_inner(outer: sd.MapOp) -> _Collapse | None:
    """How `outer` merges with the map nested in it (module docstring), if it can."""
    ops = list(outer.body.block.ops)
    if not ops or not isinstance(inner := ops[-1], sd.MapOp):
        return None
    if not all(isinstance(op, _VALUE_OPS) for op in ops[:-1]):
        return None
    if len({m.schedule.data for m in (outer, inner) if m.schedule is not None}) > 1:
        return None
    collapse = _Collapse(outer, inner)
    return collapse if collapse.valid else None


class CollapseNestedMap(RewritePattern):
    """Merge a map with the map nested last in its body."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, outer: sd.MapOp, rewriter: PatternRewriter) -> None:
        collapse = collapsible_inner(outer)
        if collapse is None:
            return
        inner = collapse.inner
        lows, highs, steps = zip(*collapse.ranges)
        indices, bounds = sd.access_operands(collapse.operands, [*lows, *highs])
        schedule = outer.schedule or inner.schedule
        merged = sd.MapOp(
            outer.label.data,
            bounds[: len(lows)],
            bounds[len(lows) :],
            steps,
            Region(Block(arg_types=[IndexType()] * (len(outer.params) + len(inner.params)))),
            schedule=schedule.data if schedule is not None else None,
            indices=indices,
        )
        merged.attributes.update(outer.attributes)
        for new, old in zip(merged.params, (*outer.params, *inner.params)):
            new.name_hint = old.name_hint
        outer_values = list(merged.params[: len(outer.params)])
        inner_values = list(merged.params[len(outer.params) :])
        if collapse.guards:
            guard = _guard(collapse, [*collapse.operands, *outer_values, *inner_values])
            rewriter.insert(guard, InsertPoint.before(inner))
            active = guard[-1].results[0]
            for store in [op for op in inner.walk() if isinstance(op, sd.WriteOp | sd.AccumulateOp)]:
                _guard_store(store, active, rewriter)
        rewriter.inline_block(inner.body.block, InsertPoint.before(inner), inner_values)
        rewriter.erase(inner)
        rewriter.inline_block(outer.body.block, InsertPoint.at_end(merged.body.block), outer_values)
        rewriter.replace(outer, merged)


def _guard(collapse: _Collapse, values: list[SSAValue]) -> list[Operation]:
    """Ops computing whether the point lies in its own inner range: an `sdfg.apply` of
    `q - lower` and of `upper - 1 - q` per guarded inner parameter q (dimensions: the
    merged map's operands, the outer parameters, then the inner ones, as `values`),
    and a tasklet yielding that all are at least 0."""
    first_inner = len(collapse.operands) + len(collapse.outer_params)
    ops: list[Operation] = []
    for k, lo, hi in collapse.guards:
        q = IndexExpr.dim(first_inner + k)
        margins = ([q - lo] if lo is not None else []) + ([hi - 1 - q] if hi is not None else [])
        ops += [sd.ApplyOp(*_renumbered(values, margin), i32) for margin in margins]
    margins = [op.results[0] for op in ops]
    body = Block(arg_types=[i32] * len(margins))
    zero = arith.ConstantOp.from_int_and_width(0, i32)
    body.add_op(zero)
    active: SSAValue | None = None
    for arg in body.args:
        inside = arith.CmpiOp(arg, zero, "sge")
        body.add_op(inside)
        if active is not None:
            both = arith.AndIOp(active, inside.result)
            body.add_op(both)
            inside = both
        active = inside.result
    body.add_op(sd.YieldOp(active))  # type: ignore[arg-type]
    names = [f"m{k}" for k in range(len(margins))]
    ops.append(sd.TaskletOp("in_range", list(zip(names, margins)), [("active", i1)], Region(body)))
    return ops


def _renumbered(values: list[SSAValue], e: IndexExpr) -> tuple[IndexExpr, list[SSAValue]]:
    """`e`, over the dimensions `values`, as `sdfg.apply` takes it: (expression, operands)."""
    operands, (renumbered,) = sd.access_operands(values, [e])
    return renumbered, operands


def _guard_store(store: sd.WriteOp | sd.AccumulateOp, active: SSAValue, rewriter: PatternRewriter) -> None:
    """Make `store` store its value only where `active`: the element's old value (a
    write) or the identity of its kind (an accumulation) elsewhere."""
    t = store.value.type
    body = Block(arg_types=[i1, t] + ([] if isinstance(store, sd.AccumulateOp) else [t]))
    if isinstance(store, sd.AccumulateOp):
        neutral = identity(store.kind.data, t)
        body.add_op(neutral)
        otherwise = neutral.result
        inputs = [("active", active), ("value", store.value)]
    else:
        old = sd.ReadOp(store.container, list(store.indices), store.subset_exprs())
        rewriter.insert(old, InsertPoint.before(store))
        otherwise = body.args[2]
        inputs = [("active", active), ("value", store.value), ("old", old.result)]
    chosen = arith.SelectOp(body.args[0], body.args[1], otherwise)
    body.add_ops([chosen, sd.YieldOp(chosen.result)])
    guarded = sd.TaskletOp("guarded_store", inputs, [("stored", t)], Region(body))
    rewriter.insert(guarded, InsertPoint.before(store))
    rewriter.replace_uses_with_if(store.value, guarded.outputs[0], lambda use: use.operation is store)


class SdfgCollapseMapsPass(ModulePass):
    """Collapse nested maps into one (module docstring)."""

    name = "sdfg-collapse-maps"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if any(isinstance(o, sd.MapOp) and isinstance(o.parent_op(), sd.MapOp) for o in op.walk()):
            PatternRewriteWalker(CollapseNestedMap()).rewrite_module(op)
