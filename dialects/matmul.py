"""What `sdfg.matmul`, `ipu.matmul` and `poplar.matmul` share: the product
`C = alpha op(A) op(B) + beta C` of DaCe's BLAS nodes (`MatMul`, `Gemm`, `Gemv`,
`BatchedMatMul`, `Dot`), which poplin computes (`matMulWithOutput`, `matMulAcc`,
`matMulGroupedWithOutput`, `matMulGroupedAcc`).

Shapes of op(A) x op(B) -> C: [M, K] x [K, N] -> [M, N]; [M, K] x [K] -> [M]
(`A @ x`); [K] x [K, N] -> [N] (`x @ A`); [K] x [K] -> [] (a dot product);
[G, M, K] x [G, K, N] -> [G, M, N] (G independent products, poplin's groups).
op(X) is X or, with `transpose_a` / `transpose_b`, its transpose (of each matrix of a
group); a vector has no transpose. `alpha` (default 1) scales the product, `beta`
(default 0) the old value of C: with beta != 0 the op reads C (`C += A @ B` is beta 1);
both are stored only when they differ from their defaults, so each product has one
form. Elements: float32 or float16, one type for all three (poplin accumulates
float16 products in float32 partials, its default `partialsType`); `sdfg.matmul` also
takes float64, DaCe's type, which `ipu-demote-f64` demotes before poplin sees it and
which tile partitioning rejects otherwise. The result is neither operand: poplin writes
it while it reads them.

Syntax: `"label" [transpose] %A, [transpose] %B to %C [alpha <f>] [beta <f>] attr-dict
: <A type>, <B type>, <C type>`. `operand_shape(k)` gives the shape of operand k (0: A,
1: B, 2: C) as the product sees it (index expressions at the sdfg level, integers
below; the sdfg op multiplies boxes of containers), `element_of` a type's element
type, `root(value)` the data a value is (an op may say: a variable for a view of it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import opt_prop_def
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


def op_shape(shape: Sequence[Any], transposed: bool) -> list[Any]:
    """The shape of op(X): the last two dimensions swapped when `transposed`."""
    return [*shape[:-2], shape[-1], shape[-2]] if transposed else list(shape)


def product_shape(lhs: Sequence[Any], rhs: Sequence[Any]) -> list[Any] | None:
    """The result shape of `lhs @ rhs` (shapes of op(A), op(B); inner dimensions assumed
    equal), or None for ranks other than 2 x 2, 2 x 1, 1 x 2, 1 x 1 and 3 x 3."""
    ranks = (len(lhs), len(rhs))
    if ranks == (3, 3):
        return [lhs[0], lhs[1], rhs[2]]
    if ranks == (2, 2):
        return [lhs[0], rhs[1]]
    if ranks == (2, 1):
        return [lhs[0]]
    if ranks == (1, 2):
        return [rhs[1]]
    if ranks == (1, 1):
        return []
    return None


def matrix_sizes(lhs: Sequence[Any], rhs: Sequence[Any]) -> tuple[Any, Any, Any, Any]:
    """(G, M, K, N) of a product of op(A), op(B) of these shapes: G groups of [M, K] x
    [K, N]; a vector on the left is one row (M = 1), on the right one column (N = 1)."""
    groups = lhs[0] if len(lhs) == 3 else 1
    rows = lhs[-2] if len(lhs) >= 2 else 1
    columns = rhs[-1] if len(rhs) >= 2 else 1
    return groups, rows, lhs[-1], columns


_F64 = Float64Type()
_FLOAT_NAMES = {Float64Type: "float64", Float32Type: "float32", Float16Type: "float16"}
FLOAT32_MAX = 3.4028234663852886e38
"""The largest finite float32 (IEEE 754 binary32: (2 - 2^-23) 2^127)."""


class MatmulMixin:
    """Operands `lhs`, `rhs`, `out`, property `label` (declared by each op) and the
    shared properties below (see the module docstring)."""

    alpha = opt_prop_def(FloatAttr)
    beta = opt_prop_def(FloatAttr)
    transpose_a = opt_prop_def(UnitAttr)
    transpose_b = opt_prop_def(UnitAttr)

    ELEMENTS: ClassVar[tuple[type[Attribute], ...]] = (Float32Type, Float16Type)
    """The element types the op multiplies."""

    @staticmethod
    def product_properties(alpha: float = 1.0, beta: float = 0.0, transpose_a: bool = False,
                           transpose_b: bool = False) -> dict[str, Attribute]:
        """The properties of a product, defaults left out."""
        props: dict[str, Attribute] = {}
        if alpha != 1:
            props["alpha"] = FloatAttr(float(alpha), _F64)
        if beta != 0:
            props["beta"] = FloatAttr(float(beta), _F64)
        if transpose_a:
            props["transpose_a"] = UnitAttr()
        if transpose_b:
            props["transpose_b"] = UnitAttr()
        return props

    def copied_properties(self) -> dict[str, Attribute]:
        """alpha, beta and the transposes, for the same product one level down."""
        keys = ("alpha", "beta", "transpose_a", "transpose_b")
        return {k: v for k, v in self.properties.items() if k in keys}  # type: ignore[attr-defined]

    def alpha_value(self) -> float:
        return 1.0 if self.alpha is None else self.alpha.value.data  # type: ignore[attr-defined]

    def beta_value(self) -> float:
        """beta: how much of C's old value the result keeps (0: none, C is only written)."""
        return 0.0 if self.beta is None else self.beta.value.data  # type: ignore[attr-defined]

    def scales_c(self) -> bool:
        """Whether printing the product scales C with popops (alpha != 1 with beta = 0,
        or beta not 0 or 1)."""
        alpha, beta = self.alpha_value(), self.beta_value()
        return (beta == 0 and alpha != 1) or beta not in (0, 1)

    def transposed(self, k: int) -> bool:
        return (self.transpose_a if k == 0 else self.transpose_b) is not None  # type: ignore[attr-defined]

    @staticmethod
    def shape_of(t: Attribute) -> list[Any]:
        # !sdfg.array has index-expression dimensions, memref and !poplar.tensor integers
        return t.dims() if hasattr(t, "dims") else list(t.get_shape())  # type: ignore[attr-defined]

    @staticmethod
    def element_of(t: Attribute) -> Attribute:
        return t.element_type  # type: ignore[attr-defined]

    @staticmethod
    def root(value: SSAValue) -> object:
        return value

    def operand_values(self) -> tuple[SSAValue, SSAValue, SSAValue]:
        return self.lhs, self.rhs, self.out  # type: ignore[attr-defined]

    def operand_shape(self, k: int) -> list[Any]:
        """The shape of operand k (0: A, 1: B, 2: C) as the product sees it."""
        return self.shape_of(self.operand_values()[k].type)

    def sizes(self) -> tuple[Any, Any, Any, Any]:
        """(G, M, K, N): G products of op(A) [M, K] by op(B) [K, N] (`matrix_sizes`)."""
        return matrix_sizes(*(op_shape(self.operand_shape(k), self.transposed(k)) for k in (0, 1)))

    def is_grouped(self) -> bool:
        return len(self.operand_shape(0)) == 3

    def verify_matmul(self) -> None:
        name = self.name  # type: ignore[attr-defined]
        types = [v.type for v in self.operand_values()]
        elements = [self.element_of(t) for t in types]
        if not isinstance(elements[0], self.ELEMENTS):
            names = [_FLOAT_NAMES[t] for t in self.ELEMENTS]
            raise VerifyException(f"'{name}' multiplies {', '.join(names[:-1])} or {names[-1]} elements, not {elements[0]}")
        if len(set(elements)) != 1:
            raise VerifyException(f"'{name}' operands and result have different element types: {', '.join(map(str, elements))}")
        for attr, what in ((self.alpha, "alpha"), (self.beta, "beta")):  # type: ignore[attr-defined]
            if attr is not None and not abs(attr.value.data) <= FLOAT32_MAX:
                raise VerifyException(f"'{name}' {what} must be a finite float32 value (poplin's scale is a float), not {attr.value.data}")
        shapes = [self.operand_shape(k) for k in range(3)]
        for k, letter in ((0, "a"), (1, "b")):
            if self.transposed(k) and len(shapes[k]) < 2:
                raise VerifyException(f"'{name}' transposes operand {letter.upper()}, a vector (transpose_{letter} needs a matrix)")
        lhs, rhs = (op_shape(shapes[k], self.transposed(k)) for k in (0, 1))
        expected = product_shape(lhs, rhs)
        if expected is None:
            raise VerifyException(
                f"'{name}' multiplies a matrix by a matrix or a vector, a vector by a matrix or a vector, or "
                f"groups of matrices, not operands of ranks {len(lhs)} and {len(rhs)}"
            )
        if len(lhs) == 3 and lhs[0] != rhs[0]:
            raise VerifyException(f"'{name}' groups differ: {lhs[0]} products of A, {rhs[0]} of B")
        inner = rhs[-2] if len(rhs) >= 2 else rhs[0]
        if lhs[-1] != inner:
            raise VerifyException(
                f"'{name}' inner dimensions differ: {self.describe(0, True)} has {lhs[-1]} columns, "
                f"{self.describe(1, True)} has {inner} rows"
            )
        if list(shapes[2]) != expected:
            shape = " x ".join(map(str, expected)) or "[] (one element)"
            raise VerifyException(f"'{name}' result {self.describe(2)} must have shape {shape}")
        if self.root(self.out) in (self.root(self.lhs), self.root(self.rhs)):  # type: ignore[attr-defined]
            raise VerifyException(f"'{name}' result must not be one of its operands")

    def describe(self, k: int, op: bool = False) -> str:
        """Operand k as messages name it (with `op`, as op(X): its transpose, if so)."""
        return ("the transpose of " if op and self.transposed(k) else "") + str(self.operand_values()[k].type)

    # -- syntax -------------------------------------------------------------------------

    def print_operand(self, printer: Printer, k: int) -> None:
        printer.print_ssa_value(self.operand_values()[k])

    @classmethod
    def parse_operand(cls, parser: Parser) -> tuple[UnresolvedOperand, Any]:
        """An operand and what else its syntax says (nothing here; a box at the sdfg level)."""
        return parser.parse_unresolved_operand(), None

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.label)  # type: ignore[attr-defined]
        for k in range(3):
            printer.print_string(" " if k == 0 else ", " if k == 1 else " to ")
            if k < 2 and self.transposed(k):
                printer.print_string("transpose ")
            self.print_operand(printer, k)
        for keyword, attr in (("alpha", self.alpha), ("beta", self.beta)):  # type: ignore[attr-defined]
            if attr is not None:
                printer.print_string(f" {keyword} ")
                printer.print_float(attr.value.data, _F64)
        printer.print_op_attributes(self.attributes)  # type: ignore[attr-defined]
        printer.print_string(" : ")
        printer.print_list([v.type for v in self.operand_values()], printer.print_attribute)

    @classmethod
    def parse(cls, parser: Parser):
        label = parser.parse_str_literal()
        operands, transposes = [], []
        for k in range(3):
            if k == 1:
                parser.parse_punctuation(",")
            elif k == 2:
                parser.parse_keyword("to")
            transposes.append(k < 2 and parser.parse_optional_keyword("transpose") is not None)
            operands.append(cls.parse_operand(parser))
        scales = {"alpha": 1.0, "beta": 0.0}
        for keyword in scales:
            if parser.parse_optional_keyword(keyword) is not None:
                scales[keyword] = float(parser.parse_number())
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        start = parser.pos
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != 3:
            parser.raise_error(f"expected the types of A, B and the result, got {len(types)}", start, parser.pos)
        values = [parser.resolve_operand(v, t) for (v, _), t in zip(operands, types)]
        op = cls.build_parsed(label, values, [extra for _, extra in operands])
        op.properties.update(cls.product_properties(scales["alpha"], scales["beta"], *transposes[:2]))
        op.attributes.update(attrs)
        return op

    @classmethod
    def build_parsed(cls, label: str, values: list[SSAValue], extras: list[Any]):
        return cls(label, *values)  # type: ignore[call-arg]
