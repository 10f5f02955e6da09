"""Print scalar ``arith``/``math`` ops as C++ expressions (codelets and host code).

Every expression has exactly the C++ type ``cpp_type(result type)`` and the semantics of the
MLIR op, as far as C++ allows:
- integer ``addi``/``subi``/``muli`` wrap around (computed in unsigned arithmetic, because
  signed overflow is undefined behaviour in C++ while MLIR wraps);
- ``divsi``/``remsi`` are C ``/`` and ``%`` (MLIR leaves division by zero and INT_MIN / -1
  undefined, like C++); ``floordivsi``, ``absi``, ``ipowi``, ``minimumf`` and ``maximumf`` use
  the helpers of ``CPP_HELPERS``;
- the unsigned ops (``divui``, ``remui``, ``minui``, ``maxui``, ``cmpi ult``..., ``extui``,
  ``uitofp``, ``fptoui``) read their signless operands through the unsigned C++ type of
  their width; a signedness cast (``builtin.unrealized_conversion_cast`` between ``ui8`` and
  ``i8``, ...) is a ``static_cast`` between ``unsigned char`` and ``signed char``, ... (the
  bits do not change);
- ``minimumf``/``maximumf`` propagate NaN and order -0 below +0 (``std::fmin`` does not);
- i1 is ``bool``; signed i1 arithmetic and comparisons treat ``true`` as -1 like MLIR;
- f16 is ``half`` (the IPU type); math functions on f16 are computed in float and rounded back;
- ``vector<2xf32>``/``vector<4xf16>`` are ``float2``/``half4`` (``ipu_lower_rt``): + - * / and
  negation are vector operators, ``vector.fma`` is one ``a * b + c`` expression (so the
  compiler may contract it), other ops apply their scalar expression lane by lane.
Only <cmath>, <limits> and <cstdint> are needed, so the output compiles with popc and on a host.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence

from xdsl.dialects import arith, vector
from xdsl.dialects import math as mathd
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    f16,
    f32,
)
from xdsl.ir import Attribute, Operation

from ipu_lower.element_types import element_type, is_signedness_cast

__all__ = ["CPP_HELPERS", "cpp_constant", "cpp_expression", "cpp_type", "cpp_vector_expression"]


CPP_HELPERS = r"""// ipu_lower runtime helpers (arith/math semantics in C++)
namespace ipu_lower_rt {
// arith.floordivsi: division rounding toward negative infinity.
template <typename T> inline T floordivsi(T a, T b) {
  T q = static_cast<T>(a / b);
  return static_cast<T>((a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q);
}
// math.absi: |INT_MIN| wraps to INT_MIN (no undefined behaviour).
inline signed char absi(signed char a) {
  return static_cast<signed char>(a < 0 ? 0u - static_cast<unsigned int>(a) : static_cast<unsigned int>(a));
}
inline short absi(short a) {
  return static_cast<short>(a < 0 ? 0u - static_cast<unsigned int>(a) : static_cast<unsigned int>(a));
}
inline int absi(int a) {
  return static_cast<int>(a < 0 ? 0u - static_cast<unsigned int>(a) : static_cast<unsigned int>(a));
}
inline long long absi(long long a) {
  return static_cast<long long>(a < 0 ? 0ull - static_cast<unsigned long long>(a)
                                      : static_cast<unsigned long long>(a));
}
// math.ipowi: wrapping exponentiation by squaring; a negative exponent gives
// 1 for base 1, +-1 for base -1 and 0 otherwise (integer 1 / base^-e).
template <typename T, typename U> inline T ipowi_impl(T base, T e) {
  if (e < 0) {
    if (base == 1) return 1;
    if (base == -1) return (e % 2 == 0) ? 1 : -1;
    return 0;
  }
  U r = 1, b = static_cast<U>(base);
  while (e != 0) {
    if (e % 2 != 0) r = static_cast<U>(r * b);
    b = static_cast<U>(b * b);
    e = static_cast<T>(e / 2);
  }
  return static_cast<T>(r);
}
inline signed char ipowi(signed char a, signed char e) { return ipowi_impl<signed char, unsigned int>(a, e); }
inline short ipowi(short a, short e) { return ipowi_impl<short, unsigned int>(a, e); }
inline int ipowi(int a, int e) { return ipowi_impl<int, unsigned int>(a, e); }
inline long long ipowi(long long a, long long e) { return ipowi_impl<long long, unsigned long long>(a, e); }
// arith.minimumf / arith.maximumf: NaN-propagating, -0.0 < +0.0. (The sign test is
// copysign, not std::signbit: g++ 12 -O2 crashes on signbit after fabs in one loop.)
inline bool negative(float a) { return std::copysign(1.0f, a) < 0.0f; }
template <typename T> inline T minimumf(T a, T b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == b) return negative(static_cast<float>(a)) ? a : b;
  return a < b ? a : b;
}
template <typename T> inline T maximumf(T a, T b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == b) return negative(static_cast<float>(a)) ? b : a;
  return a > b ? a : b;
}

// 64-bit vectors (vector<2xf32>, vector<4xf16>). On the IPU: float2 and half4, the
// data of a vector field as a pointer, loads and stores of whole vectors, and the
// memory-element constraints popc needs to pair loads (ld2x64pace, ld2xst64pace).
// Elsewhere (IPU Model, emulator): a struct with the same lane-wise arithmetic, each
// lane rounded like the IPU's, read and written through the field element by element
// so that every access is checked; constraints mean nothing there.
#ifdef __IPU__
using float2 = ::float2;
using half4 = ::half4;
template <typename F> inline auto data(F &field) { return &field[0]; }
template <typename V, typename T> inline V load(const T *p, unsigned i) {
  return *reinterpret_cast<const V *>(p + i);
}
template <typename T, typename V> inline void store(T *p, unsigned i, V v) {
  *reinterpret_cast<V *>(p + i) = v;
}
#define IPU_LOWER_CONSTRAINT(...) [[poplar::constraint(__VA_ARGS__)]]
#else
template <typename T, unsigned N> struct vec {
  T lane[N];
  T &operator[](unsigned k) { return lane[k]; }
  const T &operator[](unsigned k) const { return lane[k]; }
};
#define IPU_LOWER_VEC_OP(op)                                                   \
  template <typename T, unsigned N>                                            \
  inline vec<T, N> operator op(const vec<T, N> &a, const vec<T, N> &b) {       \
    vec<T, N> r{};                                                             \
    for (unsigned k = 0; k < N; ++k) r[k] = static_cast<T>(a[k] op b[k]);      \
    return r;                                                                  \
  }
IPU_LOWER_VEC_OP(+)
IPU_LOWER_VEC_OP(-)
IPU_LOWER_VEC_OP(*)
IPU_LOWER_VEC_OP(/)
#undef IPU_LOWER_VEC_OP
template <typename T, unsigned N> inline vec<T, N> operator-(const vec<T, N> &a) {
  vec<T, N> r{};
  for (unsigned k = 0; k < N; ++k) r[k] = static_cast<T>(-a[k]);
  return r;
}
using float2 = vec<float, 2>;
using half4 = vec<half, 4>;
template <typename F> inline F *data(F &field) { return &field; }
template <typename V, typename F> inline V load(const F *field, unsigned i) {
  V v{};
  for (unsigned k = 0; k < sizeof(V) / sizeof(v[0]); ++k) v[k] = (*field)[i + k];
  return v;
}
template <typename F, typename V> inline void store(const F *field, unsigned i, const V &v) {
  for (unsigned k = 0; k < sizeof(V) / sizeof(v[0]); ++k) (*field)[i + k] = v[k];
}
#define IPU_LOWER_CONSTRAINT(...)
#endif
template <typename V, typename T> inline V broadcast(T s) {
  V v{};
  for (unsigned k = 0; k < sizeof(V) / sizeof(v[0]); ++k) v[k] = s;
  return v;
}
// An op without a vector instruction, lane by lane.
template <typename V, typename F, typename... Vs> inline V lanewise(F f, const V &a, const Vs &...rest) {
  V r{};
  for (unsigned k = 0; k < sizeof(V) / sizeof(r[0]); ++k) r[k] = f(a[k], rest[k]...);
  return r;
}
}  // namespace ipu_lower_rt
"""


# --------------------------------------------------------------------------------------
# Types

# unsigned type used for wrapping arithmetic (>= unsigned int, so that no operand is
# promoted back to a signed int)
_WRAP_TYPES = {8: "unsigned int", 16: "unsigned int", 32: "unsigned int", 64: "unsigned long long"}
# unsigned type of the same width (zero extension, uitofp)
_UNSIGNED_TYPES = {8: "unsigned char", 16: "unsigned short", 32: "unsigned int", 64: "unsigned long long"}

INDEX_TYPE = "unsigned"
"""`index` in codelets: element counts and positions within one tile's memory."""


_VECTOR_TYPES = {VectorType(f32, [2]): "ipu_lower_rt::float2", VectorType(f16, [4]): "ipu_lower_rt::half4"}


def cpp_type(t: Attribute) -> str:
    """The C++ spelling of a scalar or 64-bit vector type; f64 (``double``) is for host code only."""
    if isinstance(t, IndexType):
        return INDEX_TYPE
    if isinstance(t, VectorType):
        if t not in _VECTOR_TYPES:
            raise ValueError(f"no C++ type for {t}")
        return _VECTOR_TYPES[t]
    row = element_type(t)
    if row is None:
        raise ValueError(f"no C++ type for {t}")
    return row.cpp


def _width(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    raise ValueError(f"expected an integer type, got {t}")


def _is_float(t: Attribute) -> bool:
    return isinstance(t, Float16Type | Float32Type | Float64Type)


# --------------------------------------------------------------------------------------
# Constants


def _shortest_repr(value: float, fmt: str) -> str:
    """Shortest decimal string that rounds back to ``value`` in the struct format ``fmt``."""
    target = struct.pack(fmt, value)
    for digits in range(1, 18):
        s = f"{value:.{digits}g}"
        try:
            if struct.pack(fmt, float(s)) == target:
                break
        except OverflowError:  # rounded up past the largest finite value
            continue
    else:  # pragma: no cover - 17 digits always round-trip a double
        s = repr(value)
    if "e" not in s and "." not in s and "n" not in s:
        s += ".0"
    return s


def float_literal(value: float) -> str:
    """The C++ float literal of `value` rounded to float32 (what a `float` parameter gets)."""
    return _shortest_repr(value, "<f") + "f"


def cpp_constant(op: arith.ConstantOp) -> str:
    """The exact C++ literal of a scalar ``arith.constant``."""
    attr = op.value
    t = op.result.type
    if isinstance(attr, FloatAttr):
        value = attr.value.data
        ctype = cpp_type(t)
        if math.isnan(value) or math.isinf(value):
            base = "float" if isinstance(t, Float16Type) else ctype
            if math.isnan(value):
                s = f"std::numeric_limits<{base}>::quiet_NaN()"
            else:
                s = f"{'-' if value < 0 else ''}std::numeric_limits<{base}>::infinity()"
            return f"static_cast<half>({s})" if isinstance(t, Float16Type) else s
        if isinstance(t, Float64Type):
            return _shortest_repr(value, "<d")
        if isinstance(t, Float32Type):
            return _shortest_repr(value, "<f") + "f"
        if isinstance(t, Float16Type):
            # every half value is exactly a float: the float literal converts exactly
            return f"static_cast<half>({_shortest_repr(value, '<e')}f)"
        raise ValueError(f"unsupported float constant type {t}")
    if isinstance(attr, IntegerAttr) and isinstance(t, IndexType):
        return f"{attr.value.data}u"
    if isinstance(attr, IntegerAttr) and isinstance(t, IntegerType):
        value = attr.value.data
        width = t.width.data
        if width == 1:
            return "true" if value != 0 else "false"
        if element_type(t) is None:
            raise ValueError(f"unsupported integer constant type {t}")
        lo = -(1 << (width - 1))
        value = (value - lo) % (1 << width) + lo  # signed interpretation
        if width == 64:
            if value == lo:
                return "(-9223372036854775807LL - 1)"
            return f"{value}LL" if not -(2**31) <= value < 2**31 else str(value)
        if value == -(2**31):
            return "(-2147483647 - 1)"
        return str(value)
    raise ValueError(f"unsupported constant {attr}")


# --------------------------------------------------------------------------------------
# Expressions

_CMPI_OPS = {0: "==", 1: "!=", 2: "<", 3: "<=", 4: ">", 5: ">="}
_CMPF_ORDERED = {1: "==", 2: ">", 3: ">=", 4: "<", 5: "<="}  # oeq ogt oge olt ole
# ugt uge ult ule: negation of the complementary ordered comparison
_CMPF_UNORDERED_NEG = {9: "<=", 10: "<", 11: ">=", 12: ">"}

_UNARY_MATH = {
    mathd.SqrtOp: "std::sqrt",
    mathd.ExpOp: "std::exp",
    mathd.Exp2Op: "std::exp2",
    mathd.ExpM1Op: "std::expm1",
    mathd.LogOp: "std::log",
    mathd.Log2Op: "std::log2",
    mathd.Log10Op: "std::log10",
    mathd.Log1pOp: "std::log1p",
    mathd.SinOp: "std::sin",
    mathd.CosOp: "std::cos",
    mathd.TanOp: "std::tan",
    mathd.AsinOp: "std::asin",
    mathd.AcosOp: "std::acos",
    mathd.AtanOp: "std::atan",
    mathd.SinhOp: "std::sinh",
    mathd.CoshOp: "std::cosh",
    mathd.TanhOp: "std::tanh",
    mathd.AsinhOp: "std::asinh",
    mathd.AcoshOp: "std::acosh",
    mathd.AtanhOp: "std::atanh",
    mathd.FloorOp: "std::floor",
    mathd.CeilOp: "std::ceil",
    mathd.TruncOp: "std::trunc",
    mathd.RoundOp: "std::round",
    mathd.ErfOp: "std::erf",
    mathd.CbrtOp: "std::cbrt",
    mathd.AbsFOp: "std::fabs",
}
_BINARY_MATH = {
    mathd.PowFOp: "std::pow",
    mathd.Atan2Op: "std::atan2",
    mathd.CopySignOp: "std::copysign",
}


def _cast(t: Attribute, expr: str) -> str:
    return f"static_cast<{cpp_type(t)}>({expr})"


def _float_call(func: str, t: Attribute, args: Sequence[str]) -> str:
    if isinstance(t, Float16Type):  # compute half math in float, round back to half
        inner = ", ".join(f"static_cast<float>({a})" for a in args)
        return f"static_cast<half>({func}({inner}))"
    return f"{func}({', '.join(args)})"


def _signed_i1(x: str) -> str:
    return f"(-static_cast<int>({x}))"  # MLIR signed view of i1: true is -1


def _int_binop(op: Operation, t: Attribute, a: str, b: str) -> str:
    w = _width(t)
    ctype = cpp_type(t)
    if isinstance(op, arith.AddiOp | arith.SubiOp | arith.MuliOp):
        if w == 1:  # arithmetic modulo 2
            return f"({a} && {b})" if isinstance(op, arith.MuliOp) else f"({a} != {b})"
        sym = {arith.AddiOp: "+", arith.SubiOp: "-", arith.MuliOp: "*"}[type(op)]
        u = _WRAP_TYPES[w]
        return f"static_cast<{ctype}>(static_cast<{u}>({a}) {sym} static_cast<{u}>({b}))"
    if isinstance(op, arith.AndIOp | arith.OrIOp | arith.XOrIOp):
        if w == 1:
            sym = {arith.AndIOp: "&&", arith.OrIOp: "||", arith.XOrIOp: "!="}[type(op)]
            return f"({a} {sym} {b})"
        sym = {arith.AndIOp: "&", arith.OrIOp: "|", arith.XOrIOp: "^"}[type(op)]
        expr = f"({a} {sym} {b})"
        return expr if w >= 32 else _cast(t, expr)
    if isinstance(op, arith.MinSIOp | arith.MaxSIOp):
        if w == 1:  # signed i1: true (-1) < false (0)
            return f"({a} || {b})" if isinstance(op, arith.MinSIOp) else f"({a} && {b})"
        sym = "<" if isinstance(op, arith.MinSIOp) else ">"
        return f"({a} {sym} {b} ? {a} : {b})"
    if isinstance(op, arith.MinUIOp | arith.MaxUIOp):
        if w == 1:  # unsigned i1: false (0) < true (1)
            return f"({a} && {b})" if isinstance(op, arith.MinUIOp) else f"({a} || {b})"
        sym = "<" if isinstance(op, arith.MinUIOp) else ">"
        u = _UNSIGNED_TYPES[w]
        return f"(static_cast<{u}>({a}) {sym} static_cast<{u}>({b}) ? {a} : {b})"
    if w == 1:
        raise ValueError(f"'{op.name}' on i1 is not supported")
    if isinstance(op, arith.DivSIOp | arith.RemSIOp):
        sym = "/" if isinstance(op, arith.DivSIOp) else "%"
        expr = f"({a} {sym} {b})"
        return expr if w >= 32 else _cast(t, expr)
    if isinstance(op, arith.DivUIOp | arith.RemUIOp):
        sym = "/" if isinstance(op, arith.DivUIOp) else "%"
        u = _UNSIGNED_TYPES[w]
        return _cast(t, f"(static_cast<{u}>({a}) {sym} static_cast<{u}>({b}))")
    if isinstance(op, arith.FloorDivSIOp):
        return f"ipu_lower_rt::floordivsi<{ctype}>({a}, {b})"
    raise ValueError(f"unsupported integer op '{op.name}'")


def _cmpf(pred: int, a: str, b: str) -> str:
    if pred in _CMPF_ORDERED:
        return f"({a} {_CMPF_ORDERED[pred]} {b})"
    if pred in _CMPF_UNORDERED_NEG:
        return f"(!({a} {_CMPF_UNORDERED_NEG[pred]} {b}))"
    match pred:
        case 0:
            return "false"
        case 6:  # one
            return f"({a} < {b} || {a} > {b})"
        case 7:  # ord
            return f"({a} == {a} && {b} == {b})"
        case 8:  # ueq
            return f"(!({a} < {b} || {a} > {b}))"
        case 13:  # une
            return f"({a} != {b})"
        case 14:  # uno
            return f"({a} != {a} || {b} != {b})"
        case 15:
            return "true"
    raise ValueError(f"unknown cmpf predicate {pred}")


def _cmpi(pred: int, t: Attribute, a: str, b: str) -> str:
    w = _width(t)
    if pred in (0, 1):
        return f"({a} {_CMPI_OPS[pred]} {b})"
    if 2 <= pred <= 5:
        if w == 1:
            a, b = _signed_i1(a), _signed_i1(b)
        return f"({a} {_CMPI_OPS[pred]} {b})"
    if 6 <= pred <= 9:  # ult ule ugt uge
        sym = {6: "<", 7: "<=", 8: ">", 9: ">="}[pred]
        if w == 1:
            return f"({a} {sym} {b})"
        u = _UNSIGNED_TYPES[w]
        return f"(static_cast<{u}>({a}) {sym} static_cast<{u}>({b}))"
    raise ValueError(f"unknown cmpi predicate {pred}")


_INDEX_BINOPS = {arith.AddiOp: "+", arith.SubiOp: "-", arith.MuliOp: "*", arith.DivUIOp: "/", arith.RemUIOp: "%"}


def _index_expression(op: Operation, t: Attribute, x: Sequence[str]) -> str:
    """Index arithmetic: unsigned C++ arithmetic, which wraps like MLIR's index."""
    if type(op) in _INDEX_BINOPS:
        return f"({x[0]} {_INDEX_BINOPS[type(op)]} {x[1]})"
    if isinstance(op, arith.CeilDivUIOp):
        return f"(({x[0]} + {x[1]} - 1u) / {x[1]})"
    if isinstance(op, arith.MinUIOp | arith.MaxUIOp):
        sym = "<" if isinstance(op, arith.MinUIOp) else ">"
        return f"({x[0]} {sym} {x[1]} ? {x[0]} : {x[1]})"
    if isinstance(op, arith.CmpiOp) and op.predicate.value.data in (0, 1, 6, 7, 8, 9):
        sym = {0: "==", 1: "!=", 6: "<", 7: "<=", 8: ">", 9: ">="}[op.predicate.value.data]
        return f"({x[0]} {sym} {x[1]})"
    if isinstance(op, arith.IndexCastOp):
        return _cast(t, x[0])
    if isinstance(op, arith.SelectOp):
        return f"({x[0]} ? {x[1]} : {x[2]})"
    raise ValueError(f"'{op.name}' on index values is not supported in codelets")


_VECTOR_OPERATORS = {arith.AddfOp: "+", arith.SubfOp: "-", arith.MulfOp: "*", arith.DivfOp: "/"}


def cpp_vector_expression(op: Operation, operands: Sequence[str]) -> str:
    """One C++ expression computing the vector result of ``op``."""
    t = op.results[0].type
    assert isinstance(t, VectorType)
    x = list(operands)
    if isinstance(op, vector.BroadcastOp):
        return f"ipu_lower_rt::broadcast<{cpp_type(t)}>({x[0]})"
    if isinstance(op, vector.FMAOp):
        return f"({x[0]} * {x[1]} + {x[2]})"
    if type(op) in _VECTOR_OPERATORS:
        return f"({x[0]} {_VECTOR_OPERATORS[type(op)]} {x[1]})"
    if isinstance(op, arith.NegfOp):
        return f"(-{x[0]})"
    element = cpp_type(t.element_type)
    params = [f"a{k}" for k in range(len(x))]
    lane = cpp_expression(op, params, t.element_type)
    signature = ", ".join(f"{element} {p}" for p in params)
    return f"ipu_lower_rt::lanewise([]({signature}) {{ return {lane}; }}, {', '.join(x)})"


def cpp_expression(op: Operation, operands: Sequence[str], lane_type: Attribute | None = None) -> str:
    """One C++ expression computing the single result of ``op`` from the C names of its
    operands; with ``lane_type``, the expression for one lane of a vector op."""
    if len(op.results) != 1:
        raise ValueError(f"'{op.name}' does not have exactly one result")
    if len(operands) != len(op.operands):
        raise ValueError(f"'{op.name}' has {len(op.operands)} operands, got {len(operands)} names")
    t = lane_type or op.results[0].type
    if isinstance(t, VectorType):
        return cpp_vector_expression(op, operands)
    x = list(operands)

    if isinstance(op, arith.ConstantOp):
        return cpp_constant(op)
    if any(isinstance(v.type, IndexType) for v in (*op.operands, *op.results)):
        return _index_expression(op, t, x)

    # floating-point arithmetic
    if isinstance(op, arith.AddfOp | arith.SubfOp | arith.MulfOp | arith.DivfOp):
        sym = {arith.AddfOp: "+", arith.SubfOp: "-", arith.MulfOp: "*", arith.DivfOp: "/"}[type(op)]
        expr = f"({x[0]} {sym} {x[1]})"
        return _cast(t, expr) if isinstance(t, Float16Type) else expr
    if isinstance(op, arith.NegfOp):
        return f"(-{x[0]})"
    if isinstance(op, arith.MinimumfOp):
        return f"ipu_lower_rt::minimumf<{cpp_type(t)}>({x[0]}, {x[1]})"
    if isinstance(op, arith.MaximumfOp):
        return f"ipu_lower_rt::maximumf<{cpp_type(t)}>({x[0]}, {x[1]})"

    # integer arithmetic and logic
    if isinstance(
        op,
        arith.AddiOp
        | arith.SubiOp
        | arith.MuliOp
        | arith.DivSIOp
        | arith.RemSIOp
        | arith.FloorDivSIOp
        | arith.AndIOp
        | arith.OrIOp
        | arith.XOrIOp
        | arith.MinSIOp
        | arith.MaxSIOp
        | arith.DivUIOp
        | arith.RemUIOp
        | arith.MinUIOp
        | arith.MaxUIOp,
    ):
        return _int_binop(op, t, x[0], x[1])

    # comparisons and select
    if isinstance(op, arith.CmpfOp):
        return _cmpf(op.predicate.value.data, x[0], x[1])
    if isinstance(op, arith.CmpiOp):
        return _cmpi(op.predicate.value.data, op.lhs.type, x[0], x[1])
    if isinstance(op, arith.SelectOp):
        return f"({x[0]} ? {x[1]} : {x[2]})"

    # conversions
    if isinstance(op, arith.ExtFOp | arith.TruncFOp | arith.FPToSIOp):
        return _cast(t, x[0])
    if isinstance(op, arith.FPToUIOp):
        w = _width(t)
        if w == 1:
            raise ValueError("'arith.fptoui' to i1 is not supported")
        return _cast(t, f"static_cast<{_UNSIGNED_TYPES[w]}>({x[0]})")
    if is_signedness_cast(op):
        return _cast(t, x[0])
    if isinstance(op, arith.SIToFPOp):
        src = op.input.type
        return _cast(t, _signed_i1(x[0]) if _width(src) == 1 else x[0])
    if isinstance(op, arith.UIToFPOp):
        w = _width(op.input.type)
        return _cast(t, x[0] if w == 1 else f"static_cast<{_UNSIGNED_TYPES[w]}>({x[0]})")
    if isinstance(op, arith.ExtSIOp):
        w = _width(op.input.type)
        return _cast(t, _signed_i1(x[0]) if w == 1 else x[0])
    if isinstance(op, arith.ExtUIOp):
        w = _width(op.input.type)
        return _cast(t, x[0] if w == 1 else f"static_cast<{_UNSIGNED_TYPES[w]}>({x[0]})")
    if isinstance(op, arith.TruncIOp):
        if _width(t) == 1:
            return f"(({x[0]} & 1) != 0)"
        return _cast(t, x[0])

    # math
    if type(op) in _UNARY_MATH:
        return _float_call(_UNARY_MATH[type(op)], t, x)
    if type(op) in _BINARY_MATH:
        return _float_call(_BINARY_MATH[type(op)], t, x)
    if isinstance(op, mathd.AbsIOp):
        if _width(t) == 1:
            return x[0]  # |-1| wraps to -1 in i1
        return f"ipu_lower_rt::absi({x[0]})"
    if isinstance(op, mathd.IPowIOp):
        if _width(t) == 1:
            raise ValueError("'math.ipowi' on i1 is not supported")
        return f"ipu_lower_rt::ipowi({x[0]}, {x[1]})"
    raise ValueError(f"no C++ expression for '{op.name}'")
