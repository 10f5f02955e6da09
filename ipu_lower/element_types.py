"""The element types of `ipu_lower.element_table` as MLIR types: each row's xDSL
attribute, and the signedness rules of the IR.

Unsigned types (`ui8`, `ui16`, `ui32`: Poplar's UNSIGNED_CHAR, UNSIGNED_SHORT,
UNSIGNED_INT) are the element types of containers, variables, tensors and fields, and the
types of values that cross ops (reads, writes, tasklet connectors, loads and stores), so
every level knows how to store them and how the host and Poplar see them. MLIR's `arith`
computes on signless integers only, with the signedness in the op (`divui`, `cmpi ult`,
`extui`, `uitofp`, ...): a tasklet turns an unsigned value into the signless integer of
its width, and back, with a *signedness cast* (`builtin.unrealized_conversion_cast`
between two integer types that differ only in signedness: the bits do not change), the
way MLIR's own conversions of unsigned tensors to `arith` do.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, Signedness, UnrealizedConversionCastOp
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser

from ipu_lower.element_table import ELEMENT_TYPES, ElementType

ui8 = IntegerType(8, Signedness.UNSIGNED)
ui16 = IntegerType(16, Signedness.UNSIGNED)
ui32 = IntegerType(32, Signedness.UNSIGNED)

# Builtin types parse without any dialect: the MLIR spelling is the one source of each.
_MLIR = {row.name: Parser(Context(), row.name).parse_type() for row in ELEMENT_TYPES}
_BY_MLIR = {_MLIR[row.name]: row for row in ELEMENT_TYPES}


def mlir_type(row: ElementType) -> Attribute:
    """The MLIR type of a row."""
    return _MLIR[row.name]


def element_type(t: Attribute) -> ElementType | None:
    """The row of an MLIR element type, or None when it is not one of ours."""
    return _BY_MLIR.get(t)


def on_ipu(t: Attribute) -> bool:
    """Whether Poplar has a type for `t` on the IPU."""
    row = element_type(t)
    return row is not None and row.poplar is not None


def is_unsigned(t: Attribute) -> bool:
    """Whether `t` is an unsigned integer type (`ui8`, ...)."""
    return isinstance(t, IntegerType) and t.signedness.data == Signedness.UNSIGNED


def signless(t: Attribute) -> Attribute:
    """The type `arith` computes values of type `t` in: the signless integer of the same
    width for an unsigned type, `t` itself otherwise."""
    return IntegerType(t.width.data) if is_unsigned(t) else t  # type: ignore[attr-defined]


def is_signedness_cast(op: Operation) -> bool:
    """Whether `op` is a signedness cast: `builtin.unrealized_conversion_cast` of one
    value between an unsigned type of ours and the signless integer of its width
    (either way), which keeps the bits."""
    if not isinstance(op, UnrealizedConversionCastOp) or len(op.operands) != 1 or len(op.results) != 1:
        return False
    a, b = op.operands[0].type, op.results[0].type
    return (is_unsigned(a) and b == signless(a) or is_unsigned(b) and a == signless(b)) and (
        element_type(a) is not None and element_type(b) is not None
    )
