"""Magnitude limits for the constant parts of checked expressions, applied before computing.

sympy folds the constant parts of an expression as soon as DaCe reads it: `floor(exp(10**7))`
asks for the millions of digits of an integer and never finishes, and `2**64` becomes a
value no 64-bit integer holds (DaCe then fails with "Unknown type: object"). This walks an
expression the whitelist accepted and computes each sub-expression without names with
Python numbers, checking before every step that can grow (`**`, `<<`, `exp`) that the
result stays within the 64-bit signed range, and every result after the others.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable

__all__ = ["INT64_MAX", "INT64_MIN", "ConstantRangeError", "check_constants", "constant_value"]

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

Number = int | float


class ConstantRangeError(ValueError):
    """A constant sub-expression outside the 64-bit range, or one that has no value."""


def check_constants(tree: ast.expr) -> None:
    """Raise ConstantRangeError when a constant part of `tree` is out of range."""
    constant_value(tree)


def constant_value(node: ast.expr) -> Number | None:
    """The value of `node` when it has no names (None otherwise); its constant parts are
    checked either way."""
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            return None
        return _in_range(node.value, "literal")
    children = [constant_value(child) for child in _operands(node)]
    if any(value is None for value in children):
        return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)):
        (value,) = children
        if isinstance(node.op, ast.Invert) and not isinstance(value, int):
            return None
        return _in_range(_UNARY[type(node.op)](value), "negation")
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = children
        return _in_range(_BINARY[type(node.op)](left, right), _BINOP_NAME[type(node.op)])
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS:
        try:
            return _in_range(_FUNCTIONS[node.func.id](*children), f"{node.func.id}(...)")
        except TypeError:  # a wrong number of arguments: DaCe reports it
            return None
    return None


def _operands(node: ast.expr) -> list[ast.expr]:
    """The sub-expressions of `node` (the function name of a call is not one)."""
    if isinstance(node, ast.Call):
        return list(node.args)
    return [child for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)]


def _in_range(value: Number | None, what: str) -> Number | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, float) and math.isnan(value):
        raise ConstantRangeError(f"the constant {what} is not a number")
    if not INT64_MIN <= value <= INT64_MAX:
        raise ConstantRangeError(f"the constant {what} is outside the 64-bit integer range")
    return value


def _bits(value: Number) -> float:
    """log2 of |value| (0 for values below 1)."""
    return math.log2(abs(value)) if abs(value) > 1 else 0.0


def _power(base: Number, exponent: Number) -> Number | None:
    if base == 0 and exponent < 0:
        raise ConstantRangeError("the constant power divides by zero")
    if _bits(base) * abs(exponent) > 64:
        raise ConstantRangeError("the constant power is outside the 64-bit integer range")
    if base < 0 and not float(exponent).is_integer():
        return None  # complex; sympy keeps it symbolic
    return base**exponent


def _shift(left: Number, right: Number, shift: Callable[[int, int], int]) -> int | None:
    if not isinstance(left, int) or not isinstance(right, int) or right < 0:
        return None
    if shift is operator.lshift and _bits(left) + right > 64:
        raise ConstantRangeError("the constant shift is outside the 64-bit integer range")
    return shift(left, right)


def _divide(divide: Callable[[Number, Number], Number]) -> Callable[[Number, Number], Number]:
    def checked(left: Number, right: Number) -> Number:
        if right == 0:
            raise ConstantRangeError("the constant divides by zero")
        return divide(left, right)

    return checked


def _integer_only(function: Callable[[int, int], int]) -> Callable[[Number, Number], int | None]:
    return lambda a, b: function(a, b) if isinstance(a, int) and isinstance(b, int) else None


def _exp(x: Number) -> float:
    if x > math.log(2**63):
        raise ConstantRangeError("the constant exp(...) is outside the 64-bit integer range")
    return math.exp(x)


def _log(x: Number, base: Number | None = None) -> float:
    if x <= 0 or (base is not None and (base <= 0 or base == 1)):
        raise ConstantRangeError("the constant log(...) has no real value")
    return math.log(x) if base is None else math.log(x, base)


def _sqrt(x: Number) -> float | None:
    return math.sqrt(x) if x >= 0 else None


def _ceil_divide(left: Number, right: Number) -> Number:
    return -_divide(operator.floordiv)(-left, right)


_UNARY: dict[type, Callable[[Number], Number]] = {
    ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert,
}
_BINARY: dict[type, Callable[[Number, Number], Number | None]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: _divide(operator.truediv),
    ast.FloorDiv: _divide(operator.floordiv),
    ast.Mod: _divide(operator.mod),
    ast.Pow: _power,
    ast.LShift: lambda a, b: _shift(a, b, operator.lshift),
    ast.RShift: lambda a, b: _shift(a, b, operator.rshift),
    ast.BitAnd: _integer_only(operator.and_),
    ast.BitOr: _integer_only(operator.or_),
    ast.BitXor: _integer_only(operator.xor),
}
_BINOP_NAME = {
    ast.Add: "sum", ast.Sub: "difference", ast.Mult: "product", ast.Div: "quotient",
    ast.FloorDiv: "quotient", ast.Mod: "remainder", ast.Pow: "power", ast.LShift: "shift",
    ast.RShift: "shift", ast.BitAnd: "bitwise and", ast.BitOr: "bitwise or", ast.BitXor: "bitwise xor",
}
# The functions sympy evaluates on numbers; the others (comparisons, logic) only give booleans.
_FUNCTIONS: dict[str, Callable[..., Number | None]] = {
    "Min": min, "min": min, "Max": max, "max": max, "Abs": abs, "abs": abs,
    "floor": math.floor, "ceiling": math.ceil, "ceil": math.ceil,
    "int_floor": _divide(operator.floordiv), "int_ceil": _ceil_divide,
    "Mod": _divide(operator.mod), "exp": _exp, "log": _log, "sqrt": _sqrt,
}
