"""Translate the Python code of a DaCe tasklet into xDSL ``arith``/``math`` ops.

The reference semantics is the C++ that DaCe 1.0.2 generates for a Python tasklet
(``dace/codegen/cppunparse.py`` + ``DaCeKeywordRemover`` in ``dace/codegen/targets/cpp.py``),
with a few deliberate, documented deviations (marked "DEVIATION" below) that keep the IPU
free of f64 arithmetic or follow Python semantics where DaCe's C++ is surprising.

The code is parsed with :mod:`ast` and walked; it is never evaluated (no eval/exec).

Semantic decisions (one line each; "DaCe:" is what DaCe's generated C++ does):
- Untyped literals take the type of the other operand (``x * 0.2`` with f32 x -> f32 0.2).
  DEVIATION, DaCe: ``0.2`` is a C++ double, so ``x * 0.2`` is computed in f64 and narrowed.
- A float literal meeting an integer operand, or a literal with no typed partner, is f32
  (ints: i32, or i64 when the value does not fit). DEVIATION, DaCe: double.
- Literal-only subexpressions are folded in Python with the same rules (``1 / 2`` -> 0).
- ``float(x)`` -> f32. DaCe: prints ``float(x)``, a C++ functional cast to single precision.
- ``int(x)`` -> i32 (float -> int truncates). DaCe: C++ ``int(x)``.
- int ``/`` int -> ``arith.divsi`` (truncating). DaCe: C++ ``/`` on ints (not Python true division).
- ``//`` on ints -> ``arith.divsi`` (C truncating division, ``-7 // 2`` is -3, not Python's -4).
  DaCe: ``dace::math::ifloor(a / b)``, where ``a / b`` on ints already truncates.
- ``//`` on floats -> ``math.floor(a / b)`` in the float type. DaCe: ``(int)std::floor(a / b)``.
- ``%`` on ints -> ``arith.remsi`` (C remainder, sign of the dividend). DaCe: C ``%``.
- ``%`` on floats -> TaskletError. DaCe: C ``%`` on floats does not compile.
- min/max on floats -> ``arith.minimumf``/``maximumf`` (NaN-propagating, -0 < +0).
  DEVIATION, DaCe: ``(a < b) ? a : b`` whose NaN result depends on the argument order.
- min/max on ints -> ``arith.minsi``/``maxsi``; abs -> ``math.absf``/``math.absi``.
- ``x ** n`` with an integral literal n (``2`` or ``2.0``), 0 <= n <= 16: repeated multiplication
  left to right, result in x's type. DaCe: ``dace::math::ipow(x, n)`` (same order, same type).
- ``x ** -n`` on floats -> ``1 / x**n``. DaCe: ``reciprocal(ipow(x, n))``. On ints: TaskletError.
- ``x ** 0.5`` -> ``math.sqrt``, ``x ** -0.5`` -> ``1 / sqrt``. DaCe: ``dace::math::sqrt`` likewise.
- Other float powers -> ``math.powf``; int ** int (non-literal) -> ``math.ipowi``. DaCe: std::pow.
- Mixed arithmetic follows C promotion: int op float -> float; f16 op f32 -> f32; i32 op i64 ->
  i64; i1/i8/i16 are promoted to i32 before arithmetic and comparisons (C integral promotion).
- Integer arguments to float math functions (sqrt, exp, ...) become f32. DEVIATION, DaCe: double.
- Comparisons: floats -> ``arith.cmpf`` olt/ole/ogt/oge/oeq and une for ``!=``; ints -> cmpi
  slt/sle/sgt/sge/eq/ne; chains ``a < b < c`` -> ``(a < b) and (b < c)`` with b computed once.
- ``and``/``or``/``not`` convert operands to bool (``!= 0``) and give i1. DaCe: C ``&&``, ``||``, ``!``.
- Conversions are C-like: float->int ``fptosi``, int->float ``sitofp``, ``extf``/``truncf``,
  ``extsi``/``trunci``; i1 -> int/float zero-extends (``extui``); number -> bool is ``!= 0``.
- Assignments to connectors convert to the connector type immediately (C variables).
- Local temporaries are SSA names that take the type of each assigned value. DEVIATION, DaCe
  declares the local with the type inferred from its first assignment.
- ``if``/``elif``/``else`` and ``a if c else b`` compute both sides and ``arith.select``.
- ``np.*``/``numpy.*`` spellings are accepted as aliases although DaCe's C++ codegen only
  rewrites bare names and ``math.``/``dace.`` prefixes.
- Unsigned types (uint8/16/32, DaCe: ``unsigned char``/``short``/``int``) follow C too:
  uint8/uint16 are promoted to int (i32, zero-extended) before arithmetic and comparisons;
  uint32 stays unsigned and wins over int32 (``x - 1`` wraps, ``x < -1`` compares with
  4294967295, as in DaCe's C++); int64 wins over uint32. Assigning to an unsigned connector
  wraps modulo 2^width. On uint32: ``/``, ``//`` -> ``divui``, ``%`` -> ``remui``, comparisons
  -> ``cmpi ult/ule/ugt/uge``, min/max -> ``minui``/``maxui``; ``abs`` is the value itself;
  unsigned -> wider int ``extui``, -> float ``uitofp``; float -> unsigned ``fptoui``
  (truncation; out of range is undefined, as in C). A power of an unsigned value with a
  non-literal exponent is a TaskletError (``math.ipowi`` is signed).
- ``arith`` computes on signless integers: an unsigned value is held as the signless SSA
  value of its width (``_Unsigned``); input connectors of an unsigned type are cast to it,
  and results cast back, with signedness casts (``builtin.unrealized_conversion_cast``,
  see ``ipu_lower.element_types``).
"""

from __future__ import annotations

import ast
import math
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects import math as mathd
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    UnrealizedConversionCastOp,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from ipu_lower.element_table import ELEMENT_TYPES
from ipu_lower.element_types import is_unsigned, mlir_type, signless

__all__ = ["TaskletError", "translate_tasklet"]


class TaskletError(Exception):
    """A tasklet that cannot be translated; ``lineno`` is relative to the tasklet code."""

    def __init__(self, message: str, lineno: int | None = None):
        self.message = message.replace("\n", " ")
        self.lineno = lineno
        where = "" if lineno is None else f" at line {lineno} of the tasklet"
        super().__init__(self.message + where)


# --------------------------------------------------------------------------------------
# Types


_SUPPORTED_TYPES: tuple[Attribute, ...] = tuple(mlir_type(row) for row in ELEMENT_TYPES)
_FLOAT_RANK = {16: 0, 32: 1, 64: 2}


def _is_float(t: Attribute) -> bool:
    return isinstance(t, Float16Type | Float32Type | Float64Type)


def _is_int(t: Attribute) -> bool:
    return isinstance(t, IntegerType)


def _fwidth(t: Attribute) -> int:
    return 16 if isinstance(t, Float16Type) else 32 if isinstance(t, Float32Type) else 64


def _iwidth(t: Attribute) -> int:
    assert isinstance(t, IntegerType)
    return t.width.data


def _promote_int(t: Attribute) -> Attribute:
    # C integral promotion: bool/char/short operands are computed as int.
    return i32 if _iwidth(t) < 32 else t


def _common_type(a: Attribute, b: Attribute) -> Attribute:
    # C usual arithmetic conversions (for the types a tasklet may use).
    if _is_float(a) and _is_float(b):
        return a if _FLOAT_RANK[_fwidth(a)] >= _FLOAT_RANK[_fwidth(b)] else b
    if _is_float(a):
        return a
    if _is_float(b):
        return b
    a, b = _promote_int(a), _promote_int(b)
    if is_unsigned(a) == is_unsigned(b):
        return a if _iwidth(a) >= _iwidth(b) else b
    u, s = (a, b) if is_unsigned(a) else (b, a)
    # the unsigned type, unless the signed one is wider (and so holds all its values)
    return u if _iwidth(u) >= _iwidth(s) else s


def _fits(value: int, width: int) -> bool:
    return -(1 << (width - 1)) <= value < (1 << (width - 1))


def _wrap(value: int, width: int) -> int:
    # Two's complement wrap-around (C conversion to a narrower signed type on all compilers).
    if width == 1:
        return value & 1
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


# --------------------------------------------------------------------------------------
# Values: SSA values or untyped Python literals


@dataclass(frozen=True, eq=False)
class _Lit:
    """An untyped Python literal; it gets a type from the operand it meets."""

    value: bool | int | float

    @property
    def is_float(self) -> bool:
        return isinstance(self.value, float)


@dataclass(frozen=True, eq=False)
class _Unsigned:
    """A value of an unsigned type: ``bits`` is the signless SSA value of the same width
    that arith computes on, ``type`` (ui8/ui16/ui32) says how to read it."""

    bits: SSAValue
    type: IntegerType


_Typed = SSAValue | _Unsigned
_Value = _Typed | _Lit


def _bits(v: _Typed) -> SSAValue:
    return v.bits if isinstance(v, _Unsigned) else v


def _typed(bits: SSAValue, t: Attribute) -> _Typed:
    """``bits`` (of type ``signless(t)``) as a value of type ``t``."""
    assert bits.type == signless(t), (bits.type, t)
    return _Unsigned(bits, t) if is_unsigned(t) else bits  # type: ignore[arg-type]


class _Maybe:
    """A name assigned on some control-flow paths only."""


_MAYBE = _Maybe()

_DEFAULT_FLOAT = f32  # literal-only float values (DaCe: double)


def _default_type(lit: _Lit) -> Attribute:
    if isinstance(lit.value, bool):
        return i1
    if isinstance(lit.value, int):
        if _fits(lit.value, 32):
            return i32
        if _fits(lit.value, 64):
            return i64
        raise TaskletError(f"integer literal {lit.value} does not fit in 64 bits")
    return _DEFAULT_FLOAT


def _literal_type_for(lit: _Lit, other: Attribute) -> Attribute:
    """The type a literal takes when it meets an operand of type ``other``."""
    if _is_float(other):
        return other  # x * 2, x * 0.2 -> in x's float type
    if lit.is_float:
        return _DEFAULT_FLOAT  # n * 0.5 -> f32 (n is converted); DaCe: double
    if isinstance(lit.value, bool):
        return other if other == i1 else _promote_int(other)
    return _common_type(other, _default_type(lit))  # a literal too wide for i32 is i64 (C)


# --------------------------------------------------------------------------------------
# Name tables

# The modules a tasklet may name (`math.exp(x)`, `dace.float32(x)`): never symbols.
MODULE_NAMES = ("math", "np", "numpy", "dace", "cmath")

# numpy / DaCe type names (`dace.float32(x)`, `np.int16(x)`); `bool_` is numpy's spelling
_CAST_TYPES: dict[str, Attribute] = {row.numpy: mlir_type(row) for row in ELEMENT_TYPES} | {"bool_": i1}
_BUILTIN_CASTS: dict[str, Attribute] = {"float": f32, "int": i32, "bool": i1}  # C++ float()/int()

_UNARY_FLOAT_OPS: dict[str, type[Operation]] = {
    "sqrt": mathd.SqrtOp,
    "exp": mathd.ExpOp,
    "exp2": mathd.Exp2Op,
    "expm1": mathd.ExpM1Op,
    "log": mathd.LogOp,
    "log2": mathd.Log2Op,
    "log10": mathd.Log10Op,
    "log1p": mathd.Log1pOp,
    "sin": mathd.SinOp,
    "cos": mathd.CosOp,
    "tan": mathd.TanOp,
    "asin": mathd.AsinOp,
    "acos": mathd.AcosOp,
    "atan": mathd.AtanOp,
    "sinh": mathd.SinhOp,
    "cosh": mathd.CoshOp,
    "tanh": mathd.TanhOp,
    "asinh": mathd.AsinhOp,
    "acosh": mathd.AcoshOp,
    "atanh": mathd.AtanhOp,
    "floor": mathd.FloorOp,
    "ceil": mathd.CeilOp,
    "trunc": mathd.TruncOp,
    "erf": mathd.ErfOp,
    "cbrt": mathd.CbrtOp,
    "fabs": mathd.AbsFOp,
}
_BINARY_FLOAT_OPS: dict[str, type[Operation]] = {
    "atan2": mathd.Atan2Op,
    "copysign": mathd.CopySignOp,
}
_ALIASES = {  # numpy spellings
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "arcsinh": "asinh",
    "arccosh": "acosh",
    "arctanh": "atanh",
    "arctan2": "atan2",
    "power": "pow",
    "absolute": "abs",
    "minimum": "min",
    "maximum": "max",
}
_SPECIAL_FUNCS = ("min", "max", "abs", "pow")
_MODULE_CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan}
_BARE_CONSTANTS = {"inf": math.inf, "nan": math.nan}  # DaCe maps them to INFINITY/NAN
_RESERVED = (
    set(MODULE_NAMES)
    | set(_BUILTIN_CASTS)
    | set(_UNARY_FLOAT_OPS)
    | set(_BINARY_FLOAT_OPS)
    | set(_SPECIAL_FUNCS)
    | set(_BARE_CONSTANTS)
)

_MAX_UNROLLED_POWER = 16

_CMPF = {ast.Lt: "olt", ast.LtE: "ole", ast.Gt: "ogt", ast.GtE: "oge", ast.Eq: "oeq", ast.NotEq: "une"}
_CMPI = {ast.Lt: "slt", ast.LtE: "sle", ast.Gt: "sgt", ast.GtE: "sge", ast.Eq: "eq", ast.NotEq: "ne"}
_CMPU = {ast.Lt: "ult", ast.LtE: "ule", ast.Gt: "ugt", ast.GtE: "uge", ast.Eq: "eq", ast.NotEq: "ne"}
_PYCMP: dict[type, Callable[[float, float], bool]] = {
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
}


def _c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


# --------------------------------------------------------------------------------------
# Translator


class _Translator:
    def __init__(
        self,
        block: Block,
        input_names: Sequence[str],
        outputs: Sequence[tuple[str, Attribute]],
    ):
        if len(block.args) != len(input_names):
            raise TaskletError(
                f"block has {len(block.args)} arguments but {len(input_names)} input connectors"
            )
        self.builder = Builder(InsertPoint.at_end(block))
        self.lineno: int | None = None
        self.unsigned_args: dict[SSAValue, _Unsigned] = {}
        self.env: dict[str, _Value | _Maybe] = {}
        self.fixed: dict[str, Attribute] = {}  # connectors are C++ variables of a fixed type
        for name, arg in zip(input_names, block.args, strict=True):
            self._check_type(arg.type, f"input connector '{name}'")
            self.env[name] = arg
            self.fixed[name] = arg.type
        self.outputs = list(outputs)
        for name, t in self.outputs:
            self._check_type(t, f"output connector '{name}'")
            self.fixed[name] = t

    # ---- helpers ------------------------------------------------------------------

    def error(self, message: str, node: ast.AST | None = None) -> TaskletError:
        lineno = getattr(node, "lineno", None) if node is not None else None
        return TaskletError(message, lineno if lineno is not None else self.lineno)

    def _check_type(self, t: Attribute, what: str) -> None:
        if t not in _SUPPORTED_TYPES:
            raise TaskletError(f"unsupported type {t} of {what}")

    def unsupported(self, node: ast.AST, detail: str = "") -> TaskletError:
        extra = f" ({detail})" if detail else ""
        return self.error(f"unsupported Python construct '{type(node).__name__}'{extra}", node)

    def insert(self, op: Operation) -> SSAValue:
        self.builder.insert(op)
        return op.results[0]

    def value(self, v: _Value | _Maybe) -> _Value | _Maybe:
        """An unsigned input connector as the signless value arith computes on (one
        signedness cast, at its first use)."""
        if isinstance(v, SSAValue) and is_unsigned(v.type):
            if v not in self.unsigned_args:
                cast = self.insert(UnrealizedConversionCastOp.get([v], [signless(v.type)]))
                self.unsigned_args[v] = _Unsigned(cast, v.type)  # type: ignore[arg-type]
            return self.unsigned_args[v]
        return v

    def stored(self, v: _Typed) -> SSAValue:
        """A value as it leaves the tasklet: unsigned ones cast back to their type (an
        input connector passed through unchanged leaves as itself)."""
        if not isinstance(v, _Unsigned):
            return v
        owner = v.bits.owner
        if isinstance(owner, UnrealizedConversionCastOp) and owner.operands[0].type == v.type:
            return owner.operands[0]
        return self.insert(UnrealizedConversionCastOp.get([v.bits], [v.type]))

    def const(self, value: bool | int | float, t: Attribute) -> _Typed:
        """A constant of type ``t`` with C conversion semantics from a Python value."""
        if _is_float(t):
            try:
                fvalue = float(value)
            except OverflowError:
                raise self.error(f"integer literal {value} is too large for {t}") from None
            return self.insert(arith.ConstantOp(FloatAttr(fvalue, t)))
        if t == i1:
            v = value != 0  # number -> bool is != 0 (NaN -> true)
            return self.insert(arith.ConstantOp(IntegerAttr(int(v), i1, truncate_bits=True)))
        if isinstance(value, float):
            if not math.isfinite(value):
                raise self.error(f"cannot convert {value} to an integer")
            value = math.trunc(value)  # float -> int truncates toward zero
        value = _wrap(int(value), _iwidth(t))
        return _typed(self.insert(arith.ConstantOp(IntegerAttr(value, signless(t), truncate_bits=True))), t)

    def materialize(self, v: _Value, t: Attribute | None = None) -> _Typed:
        """A typed value for ``v``; a literal takes type ``t`` (or its default type)."""
        if not isinstance(v, _Lit):
            return v if t is None else self.convert(v, t)
        return self.const(v.value, t if t is not None else _default_type(v))

    def convert(self, v: _Typed, t: Attribute) -> _Typed:
        """C-like conversion of ``v`` to type ``t``."""
        s = v.type
        if s == t:
            return v
        x = _bits(v)
        if _is_float(s) and _is_float(t):
            if _fwidth(t) > _fwidth(s):
                return self.insert(arith.ExtFOp(x, t))
            return self.insert(arith.TruncFOp(x, t))
        if t == i1:  # number -> bool is != 0
            zero = _bits(self.const(0, s))
            if _is_float(s):
                return self.insert(arith.CmpfOp(x, zero, "une"))
            return self.insert(arith.CmpiOp(x, zero, "ne"))
        bits_t = signless(t)
        if _is_float(s):
            assert isinstance(bits_t, IntegerType)
            cast = arith.FPToUIOp if is_unsigned(t) else arith.FPToSIOp
            return _typed(self.insert(cast(x, bits_t)), t)  # truncation toward zero
        if s == i1:  # bool -> number is 0 or 1
            if _is_float(t):
                return self.insert(arith.SIToFPOp(self.insert(arith.ExtUIOp(x, i32)), t))
            return _typed(self.insert(arith.ExtUIOp(x, bits_t)), t)
        if _is_float(t):
            return self.insert(arith.UIToFPOp(x, t) if is_unsigned(s) else arith.SIToFPOp(x, t))
        assert isinstance(bits_t, IntegerType)
        if _iwidth(t) > _iwidth(s):
            extend = arith.ExtUIOp if is_unsigned(s) else arith.ExtSIOp
            return _typed(self.insert(extend(x, bits_t)), t)
        if _iwidth(t) < _iwidth(s):
            return _typed(self.insert(arith.TruncIOp(x, bits_t)), t)
        return _typed(x, t)  # same width, other signedness: the same bits

    def unify(self, a: _Value, b: _Value) -> tuple[_Typed, _Typed]:
        """Type literals from their partner, then convert both to the common C type."""
        if isinstance(a, _Lit) and isinstance(b, _Lit):
            ta, tb = _default_type(a), _default_type(b)
        elif isinstance(a, _Lit):
            assert not isinstance(b, _Lit)
            ta, tb = _literal_type_for(a, b.type), b.type
        elif isinstance(b, _Lit):
            ta, tb = a.type, _literal_type_for(b, a.type)
        else:
            ta, tb = a.type, b.type
        t = _common_type(ta, tb)
        return self.materialize(a, t), self.materialize(b, t)

    def unify_keep_bool(self, a: _Value, b: _Value, hint: Attribute | None) -> tuple[_Typed, _Typed]:
        """Like unify, but two bools stay i1 and two literals use ``hint`` (for selects)."""
        if isinstance(a, _Lit) and isinstance(b, _Lit) and hint is not None:
            return self.materialize(a, hint), self.materialize(b, hint)
        ta = None if isinstance(a, _Lit) else a.type
        tb = None if isinstance(b, _Lit) else b.type
        a_bool = ta == i1 or (isinstance(a, _Lit) and isinstance(a.value, bool))
        b_bool = tb == i1 or (isinstance(b, _Lit) and isinstance(b.value, bool))
        if a_bool and b_bool:
            return self.materialize(a, i1), self.materialize(b, i1)
        return self.unify(a, b)

    def to_bool(self, v: _Value) -> _Value:
        if isinstance(v, _Lit):
            return _Lit(bool(v.value))
        return self.convert(v, i1)

    def select(self, cond: _Value, a: _Value, b: _Value, hint: Attribute | None = None) -> _Value:
        if a is b:
            return a
        if isinstance(cond, _Lit):  # both sides were translated; pick statically
            return a if cond.value else b
        if not isinstance(a, _Lit) and not isinstance(b, _Lit) and a.type == b.type:
            x, y = a, b
        else:
            x, y = self.unify_keep_bool(a, b, hint)
        return _typed(self.insert(arith.SelectOp(cond, _bits(x), _bits(y))), x.type)

    # ---- statements -----------------------------------------------------------------

    def run(self, code: str) -> list[SSAValue]:
        try:
            tree = ast.parse(textwrap.dedent(code), mode="exec")
        except SyntaxError as e:
            raise TaskletError(f"syntax error: {e.msg}", e.lineno) from None
        try:
            self.statements(tree.body)
        except TaskletError as e:
            if e.lineno is None and self.lineno is not None:
                raise TaskletError(e.message, self.lineno) from None
            raise
        results: list[SSAValue] = []
        for name, t in self.outputs:
            if name not in self.env:
                raise TaskletError(f"output connector '{name}' is never assigned")
            v = self.value(self.env[name])
            if isinstance(v, _Maybe):
                raise TaskletError(f"output connector '{name}' is not assigned on every path")
            results.append(self.stored(self.materialize(v, t)))
        for arg in self.unsigned_args.values():  # casts of inputs only passed through
            if not arg.bits.uses and arg.bits not in results:
                self.builder.insertion_point.block.erase_op(arg.bits.owner)  # type: ignore[arg-type]
        return results

    def statements(self, body: list[ast.stmt]) -> None:
        for s in body:
            self.statement(s)

    def statement(self, s: ast.stmt) -> None:
        self.lineno = s.lineno
        if isinstance(s, ast.Assign):
            if len(s.targets) == 1:
                value = self.expr(s.value, self._hint(s.targets[0]))
            else:
                value = self.expr(s.value)
            for target in s.targets:
                self.assign(target, value)
        elif isinstance(s, ast.AugAssign):
            if not isinstance(s.target, ast.Name):
                raise self.unsupported(s.target)
            current = self.load(s.target.id, s.target)
            self.assign(s.target, self.binop(s.op, current, self.expr(s.value), s))
        elif isinstance(s, ast.If):
            self.if_statement(s)
        elif isinstance(s, ast.Pass):
            pass
        elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            pass  # docstring / comment string
        else:
            raise self.unsupported(s)

    def _hint(self, target: ast.expr) -> Attribute | None:
        if isinstance(target, ast.Name):
            return self.fixed.get(target.id)
        return None

    def assign(self, target: ast.expr, value: _Value) -> None:
        if not isinstance(target, ast.Name):
            raise self.unsupported(target)
        name = target.id
        if name in self.fixed:  # connector: a C++ variable of the connector type
            self.env[name] = self.materialize(value, self.fixed[name])
            return
        if name in _RESERVED:
            raise self.error(f"cannot assign to reserved name '{name}'", target)
        self.env[name] = value

    def if_statement(self, s: ast.If) -> None:
        cond = self.to_bool(self.expr(s.test))
        before = dict(self.env)
        self.statements(s.body)
        then_env = self.env
        self.env = dict(before)
        self.statements(s.orelse)
        else_env = self.env
        self.lineno = s.lineno
        merged: dict[str, _Value | _Maybe] = {}
        names = list(then_env) + [n for n in else_env if n not in then_env]
        for name in names:
            a = then_env.get(name, _MAYBE)
            b = else_env.get(name, _MAYBE)
            if a is b:
                merged[name] = a
            elif isinstance(a, _Maybe) or isinstance(b, _Maybe):
                merged[name] = _MAYBE  # assigned in one branch only, no previous value
            else:
                merged[name] = self.select(cond, self.value(a), self.value(b), self.fixed.get(name))
        self.env = merged

    # ---- expressions ----------------------------------------------------------------

    def load(self, name: str, node: ast.AST) -> _Value:
        if name in self.env:
            v = self.value(self.env[name])
            if isinstance(v, _Maybe):
                raise self.error(f"name '{name}' is not assigned on every path", node)
            return v
        if name in self.fixed:
            raise self.error(f"output connector '{name}' is read before it is assigned", node)
        if name in _BARE_CONSTANTS:
            return _Lit(_BARE_CONSTANTS[name])
        raise self.error(f"unknown name '{name}'", node)

    def expr(self, node: ast.expr, hint: Attribute | None = None) -> _Value:
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool | int | float):
                return _Lit(v)
            raise self.error(f"unsupported constant {v!r}", node)
        if isinstance(node, ast.Name):
            return self.load(node.id, node)
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.expr(node.left), self.expr(node.right), node)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node)
        if isinstance(node, ast.BoolOp):
            return self.boolop(node)
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.IfExp):
            cond = self.to_bool(self.expr(node.test))
            return self.select(cond, self.expr(node.body, hint), self.expr(node.orelse, hint), hint)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Attribute):
            mod, attr = self._dotted(node)
            if mod is not None and attr in _MODULE_CONSTANTS and mod in ("math", "np", "numpy"):
                return _Lit(_MODULE_CONSTANTS[attr])
            raise self.unsupported(node, f"'{ast.unparse(node)}'")
        raise self.unsupported(node)

    @staticmethod
    def _dotted(node: ast.Attribute) -> tuple[str | None, str]:
        if isinstance(node.value, ast.Name) and node.value.id in MODULE_NAMES:
            return node.value.id, node.attr
        return None, node.attr

    # arithmetic

    def binop(self, op: ast.operator, a: _Value, b: _Value, node: ast.AST) -> _Value:
        if isinstance(op, ast.Pow):
            return self.power(a, b, node)
        if isinstance(a, _Lit) and isinstance(b, _Lit):
            return self.fold_binop(op, a, b, node)
        x, y = self.unify(a, b)
        if _is_float(x.type):
            return self.float_binop(op, x, y, node)
        t, u = x.type, is_unsigned(x.type)
        ops: dict[type, type[Operation]] = {
            ast.Add: arith.AddiOp,
            ast.Sub: arith.SubiOp,
            ast.Mult: arith.MuliOp,
            # C semantics: int / int truncates (as DaCe's C++); // is DaCe's ifloor(a / b)
            # with C int division, i.e. truncation too (not Python's floor)
            ast.Div: arith.DivUIOp if u else arith.DivSIOp,
            ast.FloorDiv: arith.DivUIOp if u else arith.DivSIOp,
            ast.Mod: arith.RemUIOp if u else arith.RemSIOp,  # C remainder, as DaCe's C++ '%'
            ast.BitAnd: arith.AndIOp,
            ast.BitOr: arith.OrIOp,
            ast.BitXor: arith.XOrIOp,
        }
        if type(op) not in ops:
            raise self.error(f"unsupported operator '{type(op).__name__}'", node)
        return _typed(self.insert(ops[type(op)](_bits(x), _bits(y))), t)

    def float_binop(self, op: ast.operator, x: SSAValue, y: SSAValue, node: ast.AST) -> SSAValue:
        if isinstance(op, ast.Add):
            return self.insert(arith.AddfOp(x, y))
        if isinstance(op, ast.Sub):
            return self.insert(arith.SubfOp(x, y))
        if isinstance(op, ast.Mult):
            return self.insert(arith.MulfOp(x, y))
        if isinstance(op, ast.Div):
            return self.insert(arith.DivfOp(x, y))
        if isinstance(op, ast.FloorDiv):  # Python float floor division, kept in the float type
            return self.insert(mathd.FloorOp(self.insert(arith.DivfOp(x, y))))
        if isinstance(op, ast.Mod):
            raise self.error("'%' on floating-point operands is not supported", node)
        if isinstance(op, ast.BitAnd | ast.BitOr | ast.BitXor):
            raise self.error("bitwise operator on floating-point operands", node)
        raise self.error(f"unsupported operator '{type(op).__name__}'", node)

    def fold_binop(self, op: ast.operator, a: _Lit, b: _Lit, node: ast.AST) -> _Lit:
        x, y = a.value, b.value
        floats = a.is_float or b.is_float
        if isinstance(x, bool):
            x = int(x)
        if isinstance(y, bool):
            y = int(y)
        try:
            if isinstance(op, ast.Add):
                return _Lit(x + y)
            if isinstance(op, ast.Sub):
                return _Lit(x - y)
            if isinstance(op, ast.Mult):
                return _Lit(x * y)
            if isinstance(op, ast.Div):
                if floats:
                    return _Lit(x / y)
                return _Lit(_c_div(int(x), int(y)))  # C integer division
            if isinstance(op, ast.FloorDiv):
                if floats:
                    return _Lit(float(math.floor(x / y)))
                return _Lit(_c_div(int(x), int(y)))  # C truncating division, as DaCe
            if isinstance(op, ast.Mod):
                if floats:
                    raise self.error("'%' on floating-point operands is not supported", node)
                return _Lit(int(x) - _c_div(int(x), int(y)) * int(y))  # C remainder
            if isinstance(op, ast.BitAnd | ast.BitOr | ast.BitXor):
                if floats:
                    raise self.error("bitwise operator on floating-point operands", node)
                # C: bool & bool is an int
                f = {ast.BitAnd: int.__and__, ast.BitOr: int.__or__, ast.BitXor: int.__xor__}[type(op)]
                return _Lit(f(int(x), int(y)))
        except ZeroDivisionError:
            raise self.error("division by zero in a constant expression", node) from None
        raise self.error(f"unsupported operator '{type(op).__name__}'", node)

    def power(self, base: _Value, exp: _Value, node: ast.AST) -> _Value:
        n: int | None = None
        if isinstance(exp, _Lit) and not isinstance(exp.value, bool):
            if isinstance(exp.value, int) or (math.isfinite(exp.value) and float(exp.value).is_integer()):
                n = int(exp.value)
        if isinstance(base, _Lit) and isinstance(exp, _Lit):
            return self.fold_power(base, exp, n, node)
        if n is not None and abs(n) <= _MAX_UNROLLED_POWER:
            assert not isinstance(base, _Lit)  # literal ** literal was folded
            b = base
            if _is_int(b.type):
                b = self.convert(b, _promote_int(b.type))
            if n < 0 and not _is_float(b.type):
                raise self.error("negative exponent on an integer base", node)
            if n == 0:
                return self.const(1, b.type)
            r = b
            for _ in range(abs(n) - 1):  # left to right, like dace::math::ipow
                if _is_float(b.type):
                    r = self.insert(arith.MulfOp(_bits(r), _bits(b)))
                else:
                    r = _typed(self.insert(arith.MuliOp(_bits(r), _bits(b))), b.type)
            if n < 0:
                r = self.insert(arith.DivfOp(_bits(self.const(1, b.type)), _bits(r)))
            return r
        if isinstance(exp, _Lit) and not isinstance(exp.value, bool) and abs(float(exp.value)) == 0.5:
            b = self.materialize(base)
            if not _is_float(b.type):
                b = self.convert(b, _DEFAULT_FLOAT)
            r = self.insert(mathd.SqrtOp(_bits(b)))
            if float(exp.value) < 0:
                r = self.insert(arith.DivfOp(_bits(self.const(1, b.type)), r))
            return r
        x, y = self.unify(base, exp)
        if _is_float(x.type):
            return self.insert(mathd.PowFOp(_bits(x), _bits(y)))
        if is_unsigned(x.type):
            raise self.error(
                "a power of unsigned integers needs a literal exponent (math.ipowi is signed)", node
            )
        return self.insert(mathd.IPowIOp(_bits(x), _bits(y)))

    def fold_power(self, base: _Lit, exp: _Lit, n: int | None, node: ast.AST) -> _Lit:
        b = int(base.value) if isinstance(base.value, bool) else base.value
        if n is not None and not isinstance(b, float):
            if n < 0:
                raise self.error("negative exponent on an integer base", node)
            if abs(b) > 1 and n * math.log2(abs(b)) > 64:
                raise self.error(f"integer literal {b} ** {n} does not fit in 64 bits", node)
            return _Lit(b**n)  # int ** int literal stays an int (dace::math::ipow)
        if n is not None and abs(n) <= _MAX_UNROLLED_POWER:
            r = 1.0 if n == 0 else b
            for _ in range(abs(n) - 1):  # same order as the unrolled ops
                r *= b
            try:
                return _Lit(1.0 / r if n < 0 else r)
            except ZeroDivisionError:
                raise self.error("division by zero in a constant expression", node) from None
        try:
            return _Lit(math.pow(float(b), float(exp.value)))
        except (OverflowError, ValueError):
            raise self.error("invalid constant power", node) from None

    def unary(self, node: ast.UnaryOp) -> _Value:
        v = self.expr(node.operand)
        op = node.op
        if isinstance(v, _Lit):
            x = v.value
            if isinstance(op, ast.Not):
                return _Lit(not x)
            if isinstance(op, ast.USub):
                return _Lit(-x)
            if isinstance(op, ast.UAdd):
                return _Lit(+x)
            if isinstance(op, ast.Invert):
                if isinstance(x, float):
                    raise self.error("bitwise operator on floating-point operands", node)
                return _Lit(~int(x))
        t = v.type
        if isinstance(op, ast.Not):
            if t == i1:
                return self.insert(arith.XOrIOp(_bits(v), _bits(self.const(1, i1))))
            zero = _bits(self.const(0, t))
            if _is_float(t):
                return self.insert(arith.CmpfOp(_bits(v), zero, "oeq"))  # !x is x == 0 (NaN -> false)
            return self.insert(arith.CmpiOp(_bits(v), zero, "eq"))
        if _is_int(t):
            v = self.convert(v, _promote_int(t))
            t = v.type
        if isinstance(op, ast.UAdd):
            return v
        if isinstance(op, ast.USub):
            if _is_float(t):
                return self.insert(arith.NegfOp(_bits(v)))
            return _typed(self.insert(arith.SubiOp(_bits(self.const(0, t)), _bits(v))), t)
        if isinstance(op, ast.Invert):
            if _is_float(t):
                raise self.error("bitwise operator on floating-point operands", node)
            return _typed(self.insert(arith.XOrIOp(_bits(v), _bits(self.const(-1, t)))), t)
        raise self.unsupported(op)

    # logic

    def boolop(self, node: ast.BoolOp) -> _Value:
        is_and = isinstance(node.op, ast.And)
        vals: list[SSAValue] = []
        for sub in node.values:
            v = self.to_bool(self.expr(sub))
            if isinstance(v, _Lit):
                if bool(v.value) != is_and:  # `x and False` is False, `x or True` is True
                    return _Lit(not is_and)
                continue  # neutral element
            vals.append(v)
        if not vals:
            return _Lit(is_and)
        r = vals[0]
        for v in vals[1:]:
            r = self.insert(arith.AndIOp(r, v) if is_and else arith.OrIOp(r, v))
        return r

    def and_values(self, a: _Value | None, b: _Value) -> _Value:
        if a is None:
            return b
        if isinstance(a, _Lit):
            return b if a.value else a
        if isinstance(b, _Lit):
            return a if b.value else b
        return self.insert(arith.AndIOp(a, b))

    def compare(self, node: ast.Compare) -> _Value:
        left = self.expr(node.left)
        result: _Value | None = None
        for op, comp in zip(node.ops, node.comparators, strict=True):
            if type(op) not in _CMPI:
                raise self.error(f"unsupported comparison operator '{type(op).__name__}'", node)
            right = self.expr(comp)
            if isinstance(left, _Lit) and isinstance(right, _Lit):
                c: _Value = _Lit(_PYCMP[type(op)](left.value, right.value))
            else:
                x, y = self.unify(left, right)
                if _is_float(x.type):
                    c = self.insert(arith.CmpfOp(_bits(x), _bits(y), _CMPF[type(op)]))
                else:
                    predicates = _CMPU if is_unsigned(x.type) else _CMPI
                    c = self.insert(arith.CmpiOp(_bits(x), _bits(y), predicates[type(op)]))
            result = self.and_values(result, c)
            left = right
        assert result is not None
        return result

    # calls

    def _callee(self, node: ast.Call) -> str:
        func = node.func
        if isinstance(func, ast.Name):
            return func.id
        if isinstance(func, ast.Attribute):
            mod, attr = self._dotted(func)
            if mod is not None:
                return f"{mod}.{attr}"
            raise self.unsupported(func, f"'{ast.unparse(func)}'")
        raise self.unsupported(func)

    def call(self, node: ast.Call) -> _Value:
        full = self._callee(node)
        if node.keywords:
            raise self.error(f"keyword arguments are not supported in call to '{full}'", node)
        for a in node.args:
            if isinstance(a, ast.Starred):
                raise self.unsupported(a)
        mod, _, name = full.rpartition(".")
        # casts
        if mod == "" and name in _BUILTIN_CASTS:
            return self.cast(node, _BUILTIN_CASTS[name], full)
        if mod in ("dace", "np", "numpy") and name in _CAST_TYPES:
            return self.cast(node, _CAST_TYPES[name], full)
        if mod == "" and name in self.env:
            raise self.error(f"'{name}' is not callable", node)
        name = _ALIASES.get(name, name)
        if name in _UNARY_FLOAT_OPS or name in _BINARY_FLOAT_OPS or name in _SPECIAL_FUNCS:
            args = [self.expr(a) for a in node.args]
            if name in ("min", "max"):
                if len(args) < 2:
                    raise self.error(f"'{full}' needs at least two arguments", node)
                r = args[0]
                for a in args[1:]:
                    r = self.minmax(name, r, a)
                return r
            if name == "pow":
                self._arity(node, full, args, 2)
                return self.power(args[0], args[1], node)
            if name == "abs":
                self._arity(node, full, args, 1)
                return self.abs(args[0])
            if name in _BINARY_FLOAT_OPS:
                self._arity(node, full, args, 2)
                x, y = self.unify(args[0], args[1])
                if not _is_float(x.type):
                    x, y = self.convert(x, _DEFAULT_FLOAT), self.convert(y, _DEFAULT_FLOAT)
                return self.insert(_BINARY_FLOAT_OPS[name](_bits(x), _bits(y)))
            self._arity(node, full, args, 1)
            x = self.materialize(args[0])
            if not _is_float(x.type):
                x = self.convert(x, _DEFAULT_FLOAT)  # int argument -> f32 (DaCe: double)
            return self.insert(_UNARY_FLOAT_OPS[name](_bits(x)))
        raise self.error(f"unknown function '{full}'", node)

    def _arity(self, node: ast.Call, full: str, args: list[_Value], n: int) -> None:
        if len(args) != n:
            raise self.error(f"'{full}' expects {n} argument{'s' if n > 1 else ''}, got {len(args)}", node)

    def cast(self, node: ast.Call, t: Attribute, full: str) -> _Value:
        if len(node.args) != 1:
            raise self.error(f"'{full}' expects 1 argument, got {len(node.args)}", node)
        v = self.expr(node.args[0], t)
        if isinstance(v, _Lit):
            return self.const(v.value, t)  # dace.float32(0.2) is an f32 constant
        return self.convert(v, t)

    def minmax(self, name: str, a: _Value, b: _Value) -> _Value:
        if isinstance(a, _Lit) and isinstance(b, _Lit):
            r = min(a.value, b.value) if name == "min" else max(a.value, b.value)
            return _Lit(float(r) if (a.is_float or b.is_float) else int(r))
        x, y = self.unify(a, b)
        if _is_float(x.type):
            cls = arith.MinimumfOp if name == "min" else arith.MaximumfOp  # NaN-propagating
            return self.insert(cls(_bits(x), _bits(y)))
        if is_unsigned(x.type):
            cls = arith.MinUIOp if name == "min" else arith.MaxUIOp
        else:
            cls = arith.MinSIOp if name == "min" else arith.MaxSIOp
        return _typed(self.insert(cls(_bits(x), _bits(y))), x.type)

    def abs(self, a: _Value) -> _Value:
        if isinstance(a, _Lit):
            return _Lit(abs(int(a.value) if isinstance(a.value, bool) else a.value))
        if _is_float(a.type):
            return self.insert(mathd.AbsFOp(_bits(a)))
        promoted = self.convert(a, _promote_int(a.type))
        if is_unsigned(a.type):  # an unsigned value is its own absolute value
            return promoted
        return self.insert(mathd.AbsIOp(_bits(promoted)))


def translate_tasklet(
    code: str,
    block: Block,
    input_names: Sequence[str],
    outputs: Sequence[tuple[str, Attribute]],
) -> list[SSAValue]:
    """Append ops computing the tasklet's outputs to ``block``.

    ``block`` has one argument per input connector, in ``input_names`` order. Returns one
    value per entry of ``outputs``, converted to the declared output type.
    Raises :class:`TaskletError` for anything outside the supported Python subset.
    """
    return _Translator(block, input_names, outputs).run(code)
