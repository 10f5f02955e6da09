"""The element types ipu-lower knows, in one table that every level and the runtime use.

Each row says how one scalar type is spelled in MLIR, in Poplar (`poplar::Type`), in
codelet C++, across the host C ABI, in numpy and in ctypes, and how many bytes it takes.
float64 and int64 have no Poplar type: the IPU has neither, so they exist only at the
`sdfg` level until `ipu-demote-f64` rewrites them (sources: Poplar's `poplar/Type.hpp`
lists FLOAT, HALF, INT, SHORT, SIGNED_CHAR, BOOL among others, and no DOUBLE or LONGLONG
usable in codelets).

Plain data, so that running a built program reads it without xDSL; each row names its
MLIR type, which `ipu_lower.element_types` maps to xDSL's attributes for the IR.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass


@dataclass(frozen=True)
class ElementType:
    name: str
    """the MLIR spelling (`f32`, `ui8`, `i1`)."""
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


ELEMENT_TYPES: tuple[ElementType, ...] = (
    ElementType("f32", 4, "float32", "float", "float", ctypes.c_float, "FLOAT"),
    ElementType("f16", 2, "float16", "half", "std::uint16_t", ctypes.c_uint16, "HALF"),
    ElementType("i32", 4, "int32", "int", "int", ctypes.c_int32, "INT"),
    ElementType("i16", 2, "int16", "short", "short", ctypes.c_int16, "SHORT"),
    ElementType("i8", 1, "int8", "signed char", "signed char", ctypes.c_int8, "SIGNED_CHAR"),
    ElementType("ui32", 4, "uint32", "unsigned int", "unsigned int", ctypes.c_uint32, "UNSIGNED_INT"),
    ElementType("ui16", 2, "uint16", "unsigned short", "unsigned short", ctypes.c_uint16, "UNSIGNED_SHORT"),
    ElementType("ui8", 1, "uint8", "unsigned char", "unsigned char", ctypes.c_uint8, "UNSIGNED_CHAR"),
    ElementType("i1", 1, "bool", "bool", "bool", ctypes.c_bool, "BOOL"),
    ElementType("f64", 8, "float64", "double", "double", ctypes.c_double, None),
    ElementType("i64", 8, "int64", "long long", "long long", ctypes.c_int64, None),
)

_BY_NAME = {row.name: row for row in ELEMENT_TYPES}
_BY_NUMPY = {row.numpy: row for row in ELEMENT_TYPES}


def element_type_named(name: str) -> ElementType | None:
    """The row of `f32`, `i16`, ... (MLIR spelling)."""
    return _BY_NAME.get(name)


def element_type_of_numpy(name: str) -> ElementType | None:
    """The row of a numpy dtype name such as `float32` (also DaCe's typeclass names)."""
    return _BY_NUMPY.get(name)
