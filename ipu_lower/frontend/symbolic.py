"""DaCe's symbolic values (sympy objects and ints) as `IndexExpr`s of the `sdfg` dialect.

Shapes, map ranges and memlet subsets reach the importer as sympy expressions that DaCe
built from strings the safe loader already checked. This walks those objects (it never
parses or evaluates text) and accepts the integer expressions the `sdfg` dialect can
hold: sums, products, small non-negative integer powers, `int_floor`/`floor(a / b)`,
`int_ceil`/`ceiling(a / b)`, `Mod`, `Min` and `Max`. Map parameters become dimensions.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import reduce

import sympy

from ipu_lower.dialects.index_expr import ExprError, IndexExpr
from ipu_lower.frontend.safe_expr import UnsafeExpressionError, check_expression

MAX_POWER = 64


class SymbolicError(ValueError):
    """A DaCe expression that is not an integer index expression of the dialect."""


def to_index_expr(value, dims: Mapping[str, int] | None = None) -> IndexExpr:
    """`value` with the names in `dims` as dimensions (by position)."""
    try:
        return _Converter(dims or {}).convert(value)
    except ExprError as err:
        raise SymbolicError(f"'{value}': {err}") from err
    except _Unsupported as err:
        part, why = err.args
        detail = f"'{part}' {why}" if str(part) != str(value) else f"it {why}"
        raise SymbolicError(f"'{value}' is not an integer index expression ({detail})") from None


def read_symbolic(text: str):
    """DaCe's sympy value of an interstate or loop expression, after the safe loader's
    whitelist check (so that no string reaches sympy's eval unchecked, whatever the
    SDFG's origin); SymbolicError when it is not an expression DaCe can read."""
    from dace import symbolic

    try:
        check_expression(text, allow_subscripts=True)
        return symbolic.pystr_to_symbolic(text)
    except UnsafeExpressionError as err:
        raise SymbolicError(str(err)) from err
    except Exception as err:  # DaCe's parser raises many kinds
        raise SymbolicError(f"DaCe cannot read it: {err}") from err


class _Unsupported(Exception):
    """(the sub-expression, why it is not an index expression)"""


class _Converter:
    def __init__(self, dims: Mapping[str, int]):
        self.dims = dims

    def fail(self, value, why: str):
        raise _Unsupported(value, why)

    def convert(self, value) -> IndexExpr:
        if isinstance(value, bool) or getattr(value, "is_Boolean", False):
            self.fail(value, "is a boolean")
        if isinstance(value, int):
            return IndexExpr.constant(value)
        if not isinstance(value, sympy.Basic):
            self.fail(value, f"is a {type(value).__name__}")
        if value.is_Integer:
            return IndexExpr.constant(int(value))
        if value.is_Number:
            self.fail(value, "is not an integer")
        if value.is_Symbol:
            name = str(value)
            return IndexExpr.dim(self.dims[name]) if name in self.dims else IndexExpr.symbol(name)
        if value.is_Add:
            return reduce(lambda a, b: a + b, (self.convert(a) for a in value.args))
        if value.is_Mul:
            return reduce(lambda a, b: a * b, (self.convert(a) for a in value.args))
        if value.is_Pow:
            base, exponent = value.args
            if not exponent.is_Integer or not 0 <= int(exponent) <= MAX_POWER:
                self.fail(value, "is not a small non-negative integer power")
            return reduce(lambda a, _: a * self.convert(base), range(int(exponent)), IndexExpr.constant(1))
        name = type(value).__name__
        if name in ("int_floor", "int_ceil", "Mod") and len(value.args) == 2:
            a, b = (self.convert(x) for x in value.args)
            return a.floordiv(b) if name == "int_floor" else a.ceildiv(b) if name == "int_ceil" else a.mod(b)
        if name in ("floor", "ceiling") and len(value.args) == 1:
            numerator, denominator = sympy.fraction(sympy.together(value.args[0]))
            a, b = self.convert(numerator), self.convert(denominator)
            return a.floordiv(b) if name == "floor" else a.ceildiv(b)
        if name in ("Min", "Max") and value.args:
            parts = [self.convert(a) for a in value.args]
            return reduce(lambda a, b: a.min(b) if name == "Min" else a.max(b), parts)
        self.fail(value, f"uses '{name}', which is not supported")
