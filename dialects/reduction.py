"""What every level needs to know about reductions: their kinds, the type results are
kept in, identities, and the arith ops that combine and convert values.

A reduction is DaCe's Sum, Product, Min or Max (`add`, `mul`, `min`, `max`: associative
and commutative, so partial results may be combined in any order). Partial results are
kept in 32 bits (`accumulator_type`): float16 in float32, 8- and 16-bit integers in
32-bit integers. That is more precise for float16, exact for integer min and max, and
gives the same bits as wrapping 8/16-bit arithmetic for integer sums and products once
truncated; and 32-bit partial results can be written by different workers of a tile
side by side (narrower stores are not atomic on the IPU).
"""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, Float16Type, Float32Type, FloatAttr, IntegerAttr, IntegerType, Signedness, f32
from xdsl.ir import Attribute, Operation, SSAValue

REDUCTION_KINDS = ("add", "mul", "min", "max")


def is_unsigned(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.signedness.data == Signedness.UNSIGNED


def accumulator_type(t: Attribute) -> Attribute:
    """The type partial results of `t` elements are kept in."""
    if isinstance(t, Float16Type):
        return f32
    if isinstance(t, IntegerType) and 1 < t.width.data < 32:
        return IntegerType(32, t.signedness.data)
    return t


def combine(kind: str, a: SSAValue, b: SSAValue) -> Operation:
    """The op combining two values of one type."""
    t = a.type
    if isinstance(t, IntegerType):
        unsigned = is_unsigned(t)
        ops = {
            "add": arith.AddiOp,
            "mul": arith.MuliOp,
            "min": arith.MinUIOp if unsigned else arith.MinSIOp,
            "max": arith.MaxUIOp if unsigned else arith.MaxSIOp,
        }
    else:
        ops = {"add": arith.AddfOp, "mul": arith.MulfOp, "min": arith.MinimumfOp, "max": arith.MaximumfOp}
    return ops[kind](a, b)


def identity(kind: str, t: Attribute) -> arith.ConstantOp:
    """The value that leaves any value unchanged when combined with it."""
    if isinstance(t, IntegerType):
        width = t.width.data
        lowest, highest = (0, 2**width - 1) if is_unsigned(t) else (-(2 ** (width - 1)), 2 ** (width - 1) - 1)
        value = {"add": 0, "mul": 1, "min": highest, "max": lowest}[kind]
        if is_unsigned(t) and value >= 2 ** (width - 1):
            value -= 2**width  # IntegerAttr keeps the bits, as a signed number
        return arith.ConstantOp(IntegerAttr(value, t))
    number = {"add": 0.0, "mul": 1.0, "min": math.inf, "max": -math.inf}[kind]
    return arith.ConstantOp(FloatAttr(number, t))  # type: ignore[arg-type]


def convert(value: SSAValue, to: Attribute) -> Operation | None:
    """The op converting `value` to the type `to` of the same kind (wider or narrower),
    None when it has that type already."""
    t = value.type
    if t == to:
        return None
    if isinstance(t, AnyFloat) and isinstance(to, AnyFloat):
        return arith.ExtFOp(value, to) if t.bitwidth < to.bitwidth else arith.TruncFOp(value, to)
    assert isinstance(t, IntegerType) and isinstance(to, IntegerType)
    if t.width.data > to.width.data:
        return arith.TruncIOp(value, to)
    return arith.ExtUIOp(value, to) if is_unsigned(t) else arith.ExtSIOp(value, to)


def same_class(a: Attribute, b: Attribute) -> bool:
    """Whether `a` and `b` are both floats or both integers of one signedness."""
    if isinstance(a, IntegerType) and isinstance(b, IntegerType):
        return is_unsigned(a) == is_unsigned(b)
    return isinstance(a, Float16Type | Float32Type) and isinstance(b, Float16Type | Float32Type)
