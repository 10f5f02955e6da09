"""sdfg-specialize: give SDFG symbols values, so every shape and map range is static.

Poplar tensors have static shapes, so this runs before tile partitioning. Symbols
given here are substituted everywhere (container shapes, map ranges, memlet subsets,
copy ranges, loop bounds, `sdfg.apply`): the substituted value of every expression is planned first (where a
shape or range that still depends on an unknown symbol is an error naming it), then
one pattern per op kind rewrites.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import Operation, Region
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from ipu_lower.diagnostics import IpuLowerError, UnknownSymbolWarning, error, unknown_symbols
from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.index_expr import ExprError, IndexExpr


def parse_symbol_values(text: str) -> dict[str, int]:
    """`"N=1024,M=64"` -> {"N": 1024, "M": 64}; IpuLowerError on malformed input."""
    values: dict[str, int] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name.isidentifier():
            raise IpuLowerError(f"error: malformed symbol value '{item}' (expected NAME=INTEGER)")
        try:
            number = int(value)
        except ValueError:
            raise IpuLowerError(f"error: value of symbol '{name}' must be an integer, got '{value}'") from None
        if number < 0:
            raise IpuLowerError(f"error: value of symbol '{name}' must not be negative, got {number}")
        values[name] = number
    return values


def _unresolved(exprs: list[IndexExpr], what: str, op: Operation) -> None:
    names = sorted(set().union(*(e.symbols() for e in exprs)))
    if names:
        listed = ", ".join(f"'{n}'" for n in names)
        raise error(
            op,
            f"unresolved symbol{'s' if len(names) > 1 else ''} {listed} in {what}; give "
            f"{'their values' if len(names) > 1 else 'its value'} with --symbols "
            f"{','.join(f'{n}=...' for n in names)} or sdfg-specialize{{symbols=\"...\"}}",
        )


def plan_substitution(module: ModuleOp, values: dict[str, int]) -> dict[IndexExpr, IndexExpr]:
    """Each expression of the module with `values` substituted; an expression that has no
    value (overflow, division by zero), a shape or map range left with a symbol, and a
    nested SDFG (whose symbols are its own) are located errors."""
    if (nested := sd.first_nested(module)) is not None:  # its symbols are its own, not the module's
        raise error(nested, f"nested SDFG '{nested.label.data}' is not inlined; run sdfg-inline-nested first")
    substituted: dict[IndexExpr, IndexExpr] = {}
    for op, e in sd.index_exprs(module):
        if e not in substituted:
            try:
                substituted[e] = e.substitute(values)
            except ExprError as err:
                raise error(op, f"'{e}' with the given symbol values: {err}") from err
    for op in module.walk():
        if isinstance(op, sd.ContainerOp):
            name = op.container_name.data
            dims = [substituted[d] for d in op.result.type.dims()]  # type: ignore[union-attr]
            _unresolved(dims, f"the shape of container '{name}'", op)
            if any(d.constant_value() < 0 for d in dims):  # type: ignore[operator]
                shape = ", ".join(str(d) for d in dims)
                raise error(op, f"container '{name}' has a negative dimension with the given symbol values: [{shape}]")
        elif isinstance(op, sd.MapOp):
            bounds = [e for r in op.ranges() for e in r]
            _unresolved([substituted[e] for e in bounds], f"the range of map '{op.label.data}'", op)
        elif isinstance(op, sd.ForOp):
            _unresolved([substituted[e] for e in op.bounds()], f"the bounds of loop '{op.label.data}'", op)
        elif isinstance(op, sd.ApplyOp):
            _unresolved([substituted[op.expr.data]], "the value a tasklet computes with", op)
        elif isinstance(op, sd.MatmulOp):
            _unresolved([substituted[e] for e in op.box_exprs()], f"the boxes of product '{op.label.data}'", op)
    return substituted


@dataclass
class _Substitute:
    substituted: dict[IndexExpr, IndexExpr]
    values: dict[str, int]

    def exprs(self, attr: ArrayAttr[sd.IndexExprAttr]) -> ArrayAttr[sd.IndexExprAttr]:
        return ArrayAttr([sd.expr_attr(self.substituted[e]) for e in sd.exprs(attr)])


class _SpecializeSdfg(_Substitute, RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.SdfgOp, rewriter: PatternRewriter) -> None:
        remaining = [s for s in op.symbol_names() if s not in self.values]
        if remaining != op.symbol_names():
            op.symbols = ArrayAttr([StringAttr(s) for s in remaining])
            rewriter.notify_op_modified(op)


class _SpecializeContainer(_Substitute, RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.ContainerOp, rewriter: PatternRewriter) -> None:
        ctype = op.result.type
        assert isinstance(ctype, sd.ArrayType)
        shape = [self.substituted[d] for d in ctype.dims()]
        if shape != ctype.dims():
            rewriter.replace_value_with_new_type(op.result, sd.ArrayType(shape, ctype.element_type))


class _SpecializeMap(_Substitute, RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.MapOp, rewriter: PatternRewriter) -> None:
        lower, upper, step = (self.exprs(a) for a in (op.lower, op.upper, op.step))
        if (lower, upper, step) != (op.lower, op.upper, op.step):
            op.lower, op.upper, op.step = lower, upper, step
            rewriter.notify_op_modified(op)


class _SpecializeAccess(_Substitute, RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, sd.ReadOp | sd.WriteOp | sd.AccumulateOp) and (subset := self.exprs(op.subset)) != op.subset:
            op.subset = subset
            rewriter.notify_op_modified(op)


class _SpecializeExprProperties(_Substitute, RewritePattern):
    """Loop bounds and `sdfg.apply`: their single-expression properties."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, sd.ForOp | sd.ApplyOp):
            return
        changed = False
        for name, value in list(op.properties.items()):
            if isinstance(value, sd.IndexExprAttr) and (new := self.substituted[value.data]) != value.data:
                op.properties[name] = sd.expr_attr(new)
                changed = True
        if changed:
            rewriter.notify_op_modified(op)


class _SpecializeCopy(_Substitute, RewritePattern):
    """The boxes of copies and of popops reductions."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, sd.CopyOp):
            names = ("source_subset", "destination_subset")
        elif isinstance(op, sd.ReduceOp):
            names = ("input_subset", "output_subset")
        else:
            return
        changed = False
        for name in names:
            if (subset := self.exprs(op.properties[name])) != op.properties[name]:
                op.properties[name] = subset
                changed = True
        if changed:
            rewriter.notify_op_modified(op)


class _SpecializeMatmul(_Substitute, RewritePattern):
    """The boxes of a product's operands."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.MatmulOp, rewriter: PatternRewriter) -> None:
        changed = False
        for key in op.BOXES:
            box = op.properties.get(key)
            if box is None:
                continue
            new = ArrayAttr([self.exprs(entry) for entry in box.data])  # type: ignore[attr-defined]
            if new != box:
                op.properties[key] = new
                changed = True
        if changed:
            rewriter.notify_op_modified(op)


@dataclass(frozen=True)
class SdfgSpecializePass(ModulePass):
    """Substitute `symbols` ("N=1024,M=64") into every SDFG of the module; values of
    symbols an SDFG does not use are ignored, so one list can serve several programs, and
    a name no SDFG of the module has is an UnknownSymbolWarning (a typo of a name?)."""

    name = "sdfg-specialize"

    symbols: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        values = parse_symbol_values(self.symbols)
        known = {s for program in op.walk() if isinstance(program, sd.SdfgOp) for s in program.symbol_names()}
        if message := unknown_symbols(values, known):
            warnings.warn(message, UnknownSymbolWarning, stacklevel=2)
        substitute_exprs(op.body, plan_substitution(op, values), values)


def substitute_exprs(region: Region, substituted: dict[IndexExpr, IndexExpr], values: dict[str, int]) -> None:
    """Rewrite every expression of the ops in `region` to what `substituted` maps it to
    (every expression there must be a key); SDFGs stop declaring the symbols of `values`.
    `sdfg-inline-nested` substitutes a nested SDFG's symbol mapping with it."""
    patterns = [
        pattern(substituted, values)
        for pattern in (
            _SpecializeSdfg,
            _SpecializeContainer,
            _SpecializeMap,
            _SpecializeAccess,
            _SpecializeCopy,
            _SpecializeMatmul,
            _SpecializeExprProperties,
        )
    ]
    PatternRewriteWalker(
        GreedyRewritePatternApplier(patterns, dce_enabled=False), apply_recursively=False
    ).rewrite_region(region)
