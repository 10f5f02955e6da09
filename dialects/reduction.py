"""What every level needs to know about reductions: their kinds, the type results are
kept in, identities, and the arith ops that combine and convert values.

A reduction is DaCe's Sum, Product, Min or Max (`add`, `mul`, `min`, `max`: associative
and commutative, so partial results may be combined in any order). Partial results are
kept in 32 bits (`accumulator_type`): float16 in float32, 8- and 16-bit integers in
32-bit integers of the same signedness. That is more precise for float16, exact for
integer min and max, and gives the same bits as wrapping 8/16-bit arithmetic for integer
sums and products once truncated; and 32-bit partial results can be written by
different workers of a tile side by side (narrower stores are not atomic on the IPU).

`arith` computes on signless integers (`ipu_lower.element_types.signless`): values of
an unsigned type are combined as the signless integers of their width, with the unsigned
forms of min, max and extension, and reach and leave that form through signedness casts
(`signless_value`, `typed_value`).
"""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    Float16Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    UnrealizedConversionCastOp,
    f32,
)
from xdsl.ir import Attribute, Operation, SSAValue

from ipu_lower.element_types import is_unsigned, signless

REDUCTION_KINDS = ("add", "mul", "min", "max")


def accumulator_type(t: Attribute) -> Attribute:
    """The type partial results of `t` elements are kept in."""
    if isinstance(t, Float16Type):
        return f32
    if isinstance(t, IntegerType) and 1 < t.width.data < 32:
        return IntegerType(32, t.signedness.data)
    return t


_LARGEST_FLOAT = {16: 65504.0, 32: 3.4028234663852886e38, 64: 1.7976931348623157e308}
"""The largest finite value of each float width (IEEE binary16, 32 and 64)."""


def is_neutral(kind: str, value: int | float, element: Attribute) -> bool:
    """Whether combining with `value` under `kind` leaves every `element` value unchanged."""
    if isinstance(element, IntegerType):
        width = element.width.data
        unsigned = element.signedness.data == Signedness.UNSIGNED
        lowest, highest = (0, 2**width - 1) if unsigned else (-(2 ** (width - 1)), 2 ** (width - 1) - 1)
    else:
        highest = _LARGEST_FLOAT[element.bitwidth]  # type: ignore[attr-defined]
        lowest = -highest
    return {"add": value == 0, "mul": value == 1, "min": value >= highest, "max": value <= lowest}[kind]


def combine(kind: str, a: SSAValue, b: SSAValue, unsigned: bool = False) -> Operation:
    """The op combining two values of one type (signless integers compared as unsigned
    ones when `unsigned`)."""
    if isinstance(a.type, IntegerType):
        ops = {
            "add": arith.AddiOp,
            "mul": arith.MuliOp,
            "min": arith.MinUIOp if unsigned else arith.MinSIOp,
            "max": arith.MaxUIOp if unsigned else arith.MaxSIOp,
        }
    else:
        ops = {"add": arith.AddfOp, "mul": arith.MulfOp, "min": arith.MinimumfOp, "max": arith.MaximumfOp}
    return ops[kind](a, b)


def identity(kind: str, t: Attribute, unsigned: bool = False) -> arith.ConstantOp:
    """The value of type `t` (signless for integers) that leaves any value unchanged when
    combined with it (`unsigned`: for unsigned values, all ones is the largest)."""
    if isinstance(t, IntegerType):
        width = t.width.data
        lowest, highest = (0, -1) if unsigned else (-(2 ** (width - 1)), 2 ** (width - 1) - 1)
        value = {"add": 0, "mul": 1, "min": highest, "max": lowest}[kind]
        return arith.ConstantOp(IntegerAttr(value, t))
    number = {"add": 0.0, "mul": 1.0, "min": math.inf, "max": -math.inf}[kind]
    return arith.ConstantOp(FloatAttr(number, t))  # type: ignore[arg-type]


def convert(value: SSAValue, to: Attribute, unsigned: bool = False) -> Operation | None:
    """The op converting `value` to the type `to` of the same kind (wider or narrower;
    signless integers extended as unsigned ones when `unsigned`), None when it has that
    type already."""
    t = value.type
    if t == to:
        return None
    if isinstance(t, AnyFloat) and isinstance(to, AnyFloat):
        return arith.ExtFOp(value, to) if t.bitwidth < to.bitwidth else arith.TruncFOp(value, to)
    assert isinstance(t, IntegerType) and isinstance(to, IntegerType)
    if t.width.data > to.width.data:
        return arith.TruncIOp(value, to)
    return arith.ExtUIOp(value, to) if unsigned else arith.ExtSIOp(value, to)


def signless_value(value: SSAValue) -> Operation | None:
    """The signedness cast of an unsigned `value` to the signless integer arith computes
    on, None for any other value."""
    return UnrealizedConversionCastOp.get([value], [signless(value.type)]) if is_unsigned(value.type) else None


def typed_value(value: SSAValue, t: Attribute) -> Operation | None:
    """The signedness cast of a signless `value` back to the unsigned type `t`, None when
    `t` is not unsigned."""
    return UnrealizedConversionCastOp.get([value], [t]) if is_unsigned(t) else None


def combine_values(kind: str, a: SSAValue, b: SSAValue) -> list[Operation]:
    """The ops combining two values of one type, through signless casts for unsigned
    ones; the last op's result is the combination, of that type."""
    t = a.type
    casts = [signless_value(a), signless_value(b)]
    x, y = (cast.results[0] if cast is not None else v for cast, v in zip(casts, (a, b)))
    combined = combine(kind, x, y, is_unsigned(t))
    back = typed_value(combined.results[0], t)
    return [op for op in (*casts, combined, back) if op is not None]
