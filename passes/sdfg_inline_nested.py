"""sdfg-inline-nested: nested SDFGs (`sdfg.nested`) inlined into the SDFG that calls them.

A nested SDFG in a state, innermost first (a nested SDFG in a nested SDFG is inlined
into its caller before that is inlined in turn), becomes its states and control flow:

- its symbols are substituted by the node's mapping (`K` by `N - 1`);
- every access of an argument (read, write, accumulate, copy) becomes an access of the
  caller's container it is bound to, its subset composed with the binding
  (`ipu_lower.dialects.alias`): `x[i]` of `x = %a[d0 + 1]` is `a[i + 1]`, and a copy of
  a row argument a copy of the caller's row; another op (a product, a reduction) may
  use an argument only when it is bound to a whole container;
- the node's index operands (variables of the loops around it) that its bindings and
  symbol mapping use become index operands of the accesses, copies, `sdfg.apply`s and
  loop bounds that use them; anywhere else (a shape, a map range) they are an error;
- its transients become containers of the caller, renamed `{label}_{name}` (then
  `{label}_{name}_1`, ...) where the caller has the name already;
- the state splits around it: the ops before it, its states and control flow, the ops
  after it in a state of their own; states left empty go.

A nested SDFG inside a map is a located error: its control flow would have to run per
point of the map, which is not supported yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from ipu_lower.diagnostics import error
from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.alias import Alias, ViewError, box_copy, copy_op
from ipu_lower.dialects.index_expr import ExprError, IndexExpr
from ipu_lower.passes.sdfg_specialize import substitute_exprs

_INDEX = "__nested_index_{}"
"""The symbol standing for the node's index operand j until the accesses take it as an
operand: with it, a binding is an `Alias` and the mapping a substitution of symbols."""


_ACCESSES = (sd.ReadOp, sd.WriteOp, sd.AccumulateOp, sd.CopyOp)
"""The ops that take an argument's binding into their subsets."""

_INDEXED = (*_ACCESSES, sd.ApplyOp, sd.ForOp, sd.NestedOp)
"""The ops whose expressions may use index operands (a nested SDFG's, in its bindings)."""


def check_inlining(module: ModuleOp) -> None:
    """A located error for the first nested SDFG the pass cannot inline, before anything
    is rewritten: one inside a map; an op other than an access or a copy (a product, a
    reduction, a loop bound) given an argument that is a part of a caller's container;
    a loop variable the node passes in a symbol that the inner SDFG uses where only
    symbols may appear (a shape, a map range)."""
    dynamic: dict[sd.SdfgOp, set[str]] = {}
    """The symbols of each nested SDFG that stand for loop variables (in pre-order, a
    caller before the SDFGs it calls)."""
    for op in module.walk():
        caller = _sdfg_of(op)
        if isinstance(op, sd.NestedOp):
            _check_not_in_map(op)
            outer = dynamic.get(caller, set())  # type: ignore[arg-type]
            dynamic[op.inner] = {n for n, v in op.symbol_mapping().items() if v.dims() or v.symbols() & outer}
        names = dynamic.get(caller, set())  # type: ignore[arg-type]
        if names and not isinstance(op, _INDEXED) and any(e.symbols() & names for e in sd.op_index_exprs(op)):
            raise error(
                op,
                f"'{op.name}' uses a symbol that nested SDFG '{_label(caller)}' is given a loop variable for, where "
                "only symbols may appear; not supported yet",
            )
        if not isinstance(op, (*_ACCESSES, sd.NestedOp)):  # a nested SDFG's binding composes too
            for value in op.operands:
                if (part := _part_of(value)) is not None:
                    raise error(
                        op,
                        f"'{op.name}' uses argument '{sd.container_name(value)}' of nested SDFG '{part[0]}', "
                        f"a part of '{part[1]}'; not supported yet",
                    )


def _sdfg_of(op: Operation) -> sd.SdfgOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, sd.SdfgOp):
        parent = parent.parent_op()
    return parent


def _label(sdfg: sd.SdfgOp | None) -> str:
    assert sdfg is not None and isinstance(sdfg.parent_op(), sd.NestedOp)
    return sdfg.parent_op().label.data  # type: ignore[union-attr]


def _check_not_in_map(op: sd.NestedOp) -> None:
    parent = op.parent_op()
    while not isinstance(parent, sd.SdfgOp):
        if isinstance(parent, sd.MapOp):
            raise error(
                op,
                f"nested SDFG '{op.label.data}' is inside map '{parent.label.data}'; nested SDFGs inside maps "
                "are not supported yet",
            )
        parent = parent.parent_op()  # type: ignore[union-attr]


def _part_of(value: SSAValue) -> tuple[str, str] | None:
    """(the node, the caller's container) when `value` is an argument of a nested SDFG
    that is, or is bound to an argument that is, a part of the caller's container."""
    owner = value.owner
    if not isinstance(owner, sd.ContainerOp) or owner.transient is not None:
        return None
    node = owner.parent_op().parent_op()  # type: ignore[union-attr]
    if not isinstance(node, sd.NestedOp):
        return None
    k = [c.data for c in node.connectors.data].index(owner.container_name.data)
    _, _, outer, binding = node.arguments()[k]
    n, rank = len(node.indices), _rank(value)
    if binding != [IndexExpr.dim(n + d) for d in range(rank)] or _rank(outer) != rank:
        return node.label.data, sd.container_name(outer)
    return _part_of(outer)


def _index_symbols(n: int) -> dict[int, IndexExpr]:
    return {j: IndexExpr.symbol(_INDEX.format(j)) for j in range(n)}


def binding_alias(op: sd.NestedOp, k: int, rank: int) -> Alias:
    """The binding of argument k (of rank `rank`) as an alias of its container."""
    _, _, value, binding = op.arguments()[k]
    n = len(op.indices)
    dims = {**_index_symbols(n), **{n + d: IndexExpr.dim(d) for d in range(rank)}}
    return Alias(sd.container_name(value), tuple(e.substitute(dims=dims) for e in binding))


def _bound(values: Sequence[IndexExpr], first: int) -> list[IndexExpr]:
    """`values` with the symbol of the node's index operand j as dimension first + j."""
    prefix = _INDEX.format("")
    names = {s for e in values for s in e.symbols() if s.startswith(prefix)}
    return [e.substitute({s: IndexExpr.dim(first + int(s[len(prefix):])) for s in names}) for e in values]


def _uses_index(values: Sequence[IndexExpr]) -> bool:
    prefix = _INDEX.format("")
    return any(s.startswith(prefix) for e in values for s in e.symbols())


def _rank(value: SSAValue) -> int:
    assert isinstance(value.type, sd.ArrayType)
    return value.type.rank


class _Inliner:
    """Inlines one nested SDFG with the rewriter of the pattern that matched it."""

    def __init__(self, op: sd.NestedOp, rewriter: PatternRewriter):
        self.op = op
        self.rewriter = rewriter
        self.label = op.label.data

    def run(self) -> None:
        inner = self.op.inner
        self.substitute_symbols(inner)
        own = {c.container_name.data: c for c in inner.containers() if c.transient is None}
        for k, (name, _, value, _) in enumerate(self.op.arguments()):
            container = own[name]
            self.replace_argument(container.result, value, binding_alias(self.op, k, _rank(container.result)))
            self.rewriter.erase(container)
        for inner_op in list(inner.walk()):
            self.bind_indices(inner_op)
        self.move_transients(inner)
        self.split_state(inner)

    def substitute_symbols(self, inner: sd.SdfgOp) -> None:
        index_symbols = _index_symbols(len(self.op.indices))
        mapping = {name: value.substitute(dims=index_symbols) for name, value in self.op.symbol_mapping().items()}
        substituted: dict[IndexExpr, IndexExpr] = {}
        for where, e in sd.index_exprs(inner.body.block):
            try:
                substituted.setdefault(e, e.substitute(mapping))
            except ExprError as err:
                raise error(where, f"'{e}' with the symbols of nested SDFG '{self.label}': {err}") from err
        substitute_exprs(inner.body, substituted, {})

    def replace_argument(self, argument: SSAValue, value: SSAValue, alias: Alias) -> None:
        """Every use of the argument container `argument` uses the caller's `value`."""
        for user in list(dict.fromkeys(use.operation for use in argument.uses)):
            if isinstance(user, sd.ReadOp):
                new: Operation = sd.ReadOp(value, user.indices, alias.apply(user.subset_exprs()))
            elif isinstance(user, sd.WriteOp):
                new = sd.WriteOp(user.value, value, user.indices, alias.apply(user.subset_exprs()))
            elif isinstance(user, sd.AccumulateOp):
                new = sd.AccumulateOp(user.kind.data, user.value, value, user.indices, alias.apply(user.subset_exprs()))
            elif isinstance(user, sd.CopyOp):
                new = self.copy(user, argument, value, alias)
            else:
                assert alias == Alias.identity(alias.root, _rank(argument))  # check_inlining
                user.operands = [value if v is argument else v for v in user.operands]
                self.rewriter.notify_op_modified(user)
                continue
            self.rewriter.replace(user, new)

    def copy(self, op: sd.CopyOp, argument: SSAValue, value: SSAValue, alias: Alias) -> Operation:
        ends = []
        for container, ranges in ((op.source, op.source_ranges()), (op.destination, op.destination_ranges())):
            if container is argument:
                ends.append((value, alias, ranges))
            else:
                ends.append((container, Alias.identity(sd.container_name(container), len(ranges)), ranges))
        try:
            return copy_op(f"{self.label}_copy", ends[0], ends[1], indices=op.indices)
        except ViewError as err:
            raise error(op, f"nested SDFG '{self.label}': {err.message}") from err

    def bind_indices(self, op: Operation) -> None:
        """Give `op` the node's index operands its expressions name as `_INDEX` symbols."""
        indices = list(self.op.indices)
        if isinstance(op, sd.ReadOp | sd.WriteOp | sd.AccumulateOp):
            if not _uses_index(op.subset_exprs()):
                return
            operands, subset = sd.access_operands([*op.indices, *indices], _bound(op.subset_exprs(), len(op.indices)))
            if isinstance(op, sd.ReadOp):
                new: Operation = sd.ReadOp(op.container, operands, subset)
            elif isinstance(op, sd.WriteOp):
                new = sd.WriteOp(op.value, op.container, operands, subset)
            else:
                new = sd.AccumulateOp(op.kind.data, op.value, op.container, operands, subset)
        elif isinstance(op, sd.CopyOp):
            flat = [e for r in op.source_ranges() + op.destination_ranges() for e in r]
            if not _uses_index(flat):
                return
            flat = _bound(flat, len(op.indices))
            pairs = [(flat[k], flat[k + 1]) for k in range(0, len(flat), 2)]
            rank = len(op.source_ranges())
            new = box_copy(op.source, pairs[:rank], op.destination, pairs[rank:], [*op.indices, *indices])
        elif isinstance(op, sd.ApplyOp):
            if not _uses_index([op.expr.data]):
                return
            operands, (value,) = sd.access_operands([*op.indices, *indices], _bound([op.expr.data], len(op.indices)))
            new = sd.ApplyOp(value, operands, op.result.type)
        elif isinstance(op, sd.ForOp):
            if not _uses_index(list(op.bounds())):
                return
            operands, (lower, upper, step) = sd.access_operands(
                [*op.bound_operands, *indices], _bound(list(op.bounds()), len(op.bound_operands))
            )
            op.operands = operands
            op.lower, op.upper, op.step = (sd.expr_attr(e) for e in (lower, upper, step))
            self.rewriter.notify_op_modified(op)
            return
        else:
            return  # check_inlining: no other op depends on the index operands
        self.rewriter.replace(op, new)

    def move_transients(self, inner: sd.SdfgOp) -> None:
        """The inner transients, into the caller's containers (renamed where taken)."""
        caller = self.op.parent_op()
        while not isinstance(caller, sd.SdfgOp):
            caller = caller.parent_op()  # type: ignore[union-attr]
        taken = {c.container_name.data for c in caller.containers()}
        anchor = next(o for o in caller.body.block.ops if not isinstance(o, sd.ContainerOp))
        for container in inner.containers():
            name = container.container_name.data
            fresh = _fresh(name, f"{self.label}_{name}", taken)
            container.detach()
            if fresh != name:
                container.container_name = StringAttr(fresh)
            self.rewriter.insert(container, InsertPoint.before(anchor))

    def split_state(self, inner: sd.SdfgOp) -> None:
        """The state holding the node: its ops before the node, the inner SDFG's states
        and control flow, a state of the ops after the node; the empty ones go."""
        state = self.op.parent_op()
        assert isinstance(state, sd.StateOp)  # check_inlining
        after = sd.StateOp(f"{state.label.data}_after_{self.label}")
        following = []
        op = self.op.next_op
        while op is not None:
            following.append(op)
            op = op.next_op
        for op in following:
            op.detach()
            after.body.block.add_op(op)
        program = list(inner.body.block.ops)
        for op in program:
            op.detach()
        self.rewriter.insert([*program, after], InsertPoint.after(state))
        self.rewriter.erase(self.op)
        for op in (state, after):
            if not op.body.block.ops:
                self.rewriter.erase(op)


def _fresh(name: str, prefixed: str, taken: set[str]) -> str:
    candidate, k = (name if name not in taken else prefixed), 0
    while candidate in taken:
        k += 1
        candidate = f"{prefixed}_{k}"
    taken.add(candidate)
    return candidate


class _InlineNested(RewritePattern):
    """A nested SDFG that holds no nested SDFG itself (innermost first)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.NestedOp, rewriter: PatternRewriter) -> None:
        if any(isinstance(o, sd.NestedOp) for o in op.inner.walk()):
            return
        _Inliner(op, rewriter).run()


@dataclass(frozen=True)
class SdfgInlineNestedPass(ModulePass):
    """Inline every `sdfg.nested` of the module into its caller."""

    name = "sdfg-inline-nested"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if sd.first_nested(op) is None:
            return  # most programs: nothing to check or walk with patterns
        check_inlining(op)
        PatternRewriteWalker(GreedyRewritePatternApplier([_InlineNested()], dce_enabled=False)).rewrite_module(op)
