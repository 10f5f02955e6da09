"""The element types ipu-lower knows, in one table that every level and the runtime use.

Each row says how one scalar type is spelled in MLIR, in Poplar (`poplar::Type`), in
codelet C++, across the host C ABI, in numpy and in ctypes, and how many bytes it takes.
float64 and int64 have no Poplar type: the IPU has neither, so they exist only at the
`sdfg` level until `ipu-demote-f64` rewrites them (sources: Poplar's `poplar/Type.hpp`
lists FLOAT, HALF, INT, SHORT, SIGNED_CHAR, BOOL among others, and no DOUBLE or LONGLONG
usable in codelets).

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

import ctypes
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    IntegerType,
    Signedness,
    UnrealizedConversionCastOp,
    f16,
    f32,
    f64,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation

ui8 = IntegerType(8, Signedness.UNSIGNED)
ui16 = IntegerType(16, Signedness.UNSIGNED)
ui32 = IntegerType(32, Signedness.UNSIGNED)


@dataclass(frozen=True)
class ElementType:
    mlir: Attribute
    bytes: int
    numpy: str
    """numpy dtype name (DaCe's typeclasses have the same names)."""
    cpp: str
    """the type in codelet C++ (`half` is Poplar's device type)."""
    host_cpp: str
    """the type of host data at the C ABI (half crosses as raw IEEE binary16 words)."""
    ctypes: type
    poplar: str | None
    """the `poplar::Type` constant, or None where the IPU has no such type."""

    @property
    def name(self) -> str:
        return str(self.mlir)


ELEMENT_TYPES: tuple[ElementType, ...] = (
    ElementType(f32, 4, "float32", "float", "float", ctypes.c_float, "FLOAT"),
    ElementType(f16, 2, "float16", "half", "std::uint16_t", ctypes.c_uint16, "HALF"),
    ElementType(i32, 4, "int32", "int", "int", ctypes.c_int32, "INT"),
    ElementType(i16, 2, "int16", "short", "short", ctypes.c_int16, "SHORT"),
    ElementType(i8, 1, "int8", "signed char", "signed char", ctypes.c_int8, "SIGNED_CHAR"),
    ElementType(ui32, 4, "uint32", "unsigned int", "unsigned int", ctypes.c_uint32, "UNSIGNED_INT"),
    ElementType(ui16, 2, "uint16", "unsigned short", "unsigned short", ctypes.c_uint16, "UNSIGNED_SHORT"),
    ElementType(ui8, 1, "uint8", "unsigned char", "unsigned char", ctypes.c_uint8, "UNSIGNED_CHAR"),
    ElementType(i1, 1, "bool", "bool", "bool", ctypes.c_bool, "BOOL"),
    ElementType(f64, 8, "float64", "double", "double", ctypes.c_double, None),
    ElementType(i64, 8, "int64", "long long", "long long", ctypes.c_int64, None),
)

_BY_MLIR = {row.mlir: row for row in ELEMENT_TYPES}
_BY_NAME = {row.name: row for row in ELEMENT_TYPES}
_BY_NUMPY = {row.numpy: row for row in ELEMENT_TYPES}


def element_type(t: Attribute) -> ElementType | None:
    """The row of an MLIR element type, or None when it is not one of ours."""
    return _BY_MLIR.get(t)


def element_type_named(name: str) -> ElementType | None:
    """The row of `f32`, `i16`, ... (MLIR spelling)."""
    return _BY_NAME.get(name)


def element_type_of_numpy(name: str) -> ElementType | None:
    """The row of a numpy dtype name such as `float32` (also DaCe's typeclass names)."""
    return _BY_NUMPY.get(name)


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
