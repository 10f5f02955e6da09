"""sdfg-specialize: give SDFG symbols values, so every shape and map range is static.

Poplar tensors have static shapes, so this runs before tile partitioning. Symbols
given here are substituted everywhere (container shapes, map ranges, memlet subsets);
a shape or range that still depends on an unknown symbol is an error naming it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ipu_lower.diagnostics import IpuLowerError, error
from ipu_lower.dialects import sdfg as sd
from ipu_lower.frontend.safe_expr import evaluate, free_symbols, substitute


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
            raise IpuLowerError(
                f"error: value of symbol '{name}' must be an integer, got '{value}'"
            ) from None
        if number < 0:
            raise IpuLowerError(f"error: value of symbol '{name}' must not be negative, got {number}")
        values[name] = number
    return values


class _Specializer:
    def __init__(self, values: dict[str, int]):
        self.values = values

    def expr(self, e: sd.SymExprAttr) -> sd.SymExprAttr:
        names = free_symbols(e.text)
        if not names or not names <= self.values.keys():
            return sd.SymExprAttr(substitute(e.text, self.values)) if names & self.values.keys() else e
        value = evaluate(e.text, self.values)
        if value != int(value):
            raise ValueError(f"'{e.text}' is not an integer for the given symbol values")
        return sd.SymExprAttr(int(value))

    def exprs(self, attr: ArrayAttr[sd.SymExprAttr]) -> ArrayAttr[sd.SymExprAttr]:
        return ArrayAttr([self.expr(e) for e in attr.data])


def _unresolved(exprs, what: str, op: Operation) -> None:
    names = sorted(set().union(*(free_symbols(e.text) for e in exprs)) if exprs else set())
    if names:
        listed = ", ".join(f"'{n}'" for n in names)
        raise error(
            op,
            f"unresolved symbol{'s' if len(names) > 1 else ''} {listed} in {what}; give "
            f"{'their values' if len(names) > 1 else 'its value'} with --symbols "
            f"{','.join(f'{n}=...' for n in names)} or sdfg-specialize{{symbols=\"...\"}}",
        )


def specialize_sdfg(sdfg_op: sd.SdfgOp, values: dict[str, int]) -> None:
    spec = _Specializer(values)
    for op in sdfg_op.walk():
        try:
            _specialize_op(op, spec)
        except ValueError as err:
            raise error(op, str(err)) from err
    sdfg_op.symbols = ArrayAttr([s for s in sdfg_op.symbols.data if s.data not in values])
    for op in sdfg_op.walk():
        if isinstance(op, sd.ContainerOp):
            ctype = op.result.type
            assert isinstance(ctype, sd.ArrayType)
            _unresolved(ctype.shape.data, f"the shape of container '{op.container_name.data}'", op)
        elif isinstance(op, sd.MapOp):
            _unresolved(
                [*op.lower.data, *op.upper.data, *op.step.data],
                f"the range of map '{op.label.data}'",
                op,
            )


def _specialize_op(op: Operation, spec: _Specializer) -> None:
    if isinstance(op, sd.ContainerOp):
        ctype = op.result.type
        assert isinstance(ctype, sd.ArrayType)
        Rewriter.replace_value_with_new_type(
            op.result, sd.ArrayType([spec.expr(d) for d in ctype.shape.data], ctype.element_type)
        )
    elif isinstance(op, sd.MapOp):
        op.lower = spec.exprs(op.lower)
        op.upper = spec.exprs(op.upper)
        op.step = spec.exprs(op.step)
    elif isinstance(op, sd.ReadOp | sd.WriteOp):
        op.subset = spec.exprs(op.subset)
    elif isinstance(op, sd.CopyOp):
        op.source_subset = spec.exprs(op.source_subset)
        op.destination_subset = spec.exprs(op.destination_subset)


@dataclass(frozen=True)
class SdfgSpecializePass(ModulePass):
    """Substitute `symbols` ("N=1024,M=64") into every SDFG of the module; values of
    symbols an SDFG does not use are ignored, so one list can serve several programs."""

    name = "sdfg-specialize"

    symbols: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        values = parse_symbol_values(self.symbols)
        for sdfg_op in op.walk():
            if isinstance(sdfg_op, sd.SdfgOp):
                specialize_sdfg(sdfg_op, values)

