"""What `sdfg.matmul`, `ipu.matmul` and `poplar.matmul` share: the product `C = A B` of
a matrix and a matrix, a matrix and a vector or a vector and a matrix (DaCe's `MatMul`
node, poplin's `matMul`).

Shapes: [M, K] x [K, N] -> [M, N]; [M, K] x [K] -> [M] (`A @ x`); [K] x [K, N] -> [N]
(`x @ A`). Elements: float32 or float16, one type for all three (poplin accumulates
float16 products in float32 partials, its default `partialsType`). The result is
neither operand: poplin writes it while it reads them. The operands are whole
containers (variables, tensors): a product of boxes reads copies of them.

Syntax: `"label" %A, %B to %C : <A type>, <B type>, <C type>`. `shape_of(type)` gives a
type's dimensions (index expressions at the sdfg level, integers below), `element_of`
its element type, `root(value)` the data a value is (an op may say: a variable for a
view of it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import Float16Type, Float32Type
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


def product_shape(lhs: Sequence[Any], rhs: Sequence[Any]) -> list[Any] | None:
    """The result shape of `lhs @ rhs` (their inner dimensions assumed equal), or None
    for ranks other than 2 x 2, 2 x 1, 1 x 2."""
    if len(lhs) == 2 and len(rhs) == 2:
        return [lhs[0], rhs[1]]
    if len(lhs) == 2 and len(rhs) == 1:
        return [lhs[0]]
    if len(lhs) == 1 and len(rhs) == 2:
        return [rhs[1]]
    return None


class MatmulMixin:
    """Operands `lhs`, `rhs`, `out` and property `label` (see the module docstring)."""

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

    def sizes(self) -> tuple[Any, Any, Any]:
        """(M, K, N) of the product as matrices: a vector on the left is one row (M = 1),
        one on the right one column (N = 1)."""
        lhs, rhs = self.shape_of(self.lhs.type), self.shape_of(self.rhs.type)  # type: ignore[attr-defined]
        rows = lhs[0] if len(lhs) == 2 else 1
        columns = rhs[1] if len(rhs) == 2 else 1
        return rows, lhs[-1], columns

    def verify_matmul(self) -> None:
        name = self.name  # type: ignore[attr-defined]
        types = [v.type for v in (self.lhs, self.rhs, self.out)]  # type: ignore[attr-defined]
        elements = [self.element_of(t) for t in types]
        if not isinstance(elements[0], Float32Type | Float16Type):
            raise VerifyException(f"'{name}' multiplies float32 or float16 elements, not {elements[0]}")
        if len(set(elements)) != 1:
            raise VerifyException(f"'{name}' operands and result have different element types: {', '.join(map(str, elements))}")
        lhs, rhs, out = (self.shape_of(t) for t in types)
        expected = product_shape(lhs, rhs)
        if expected is None:
            raise VerifyException(
                f"'{name}' multiplies a matrix by a matrix or a vector, or a vector by a matrix, "
                f"not operands of ranks {len(lhs)} and {len(rhs)}"
            )
        inner = rhs[0]
        if lhs[-1] != inner:
            raise VerifyException(f"'{name}' inner dimensions differ: {types[0]} has {lhs[-1]} columns, {types[1]} has {inner} rows")
        if list(out) != expected:
            shape = " x ".join(map(str, expected))
            raise VerifyException(f"'{name}' result {types[2]} must have shape {shape}")
        if self.root(self.out) in (self.root(self.lhs), self.root(self.rhs)):  # type: ignore[attr-defined]
            raise VerifyException(f"'{name}' result must not be one of its operands")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.label)  # type: ignore[attr-defined]
        printer.print_string(" ")
        printer.print_list([self.lhs, self.rhs], printer.print_ssa_value)  # type: ignore[attr-defined]
        printer.print_string(" to ")
        printer.print_ssa_value(self.out)  # type: ignore[attr-defined]
        printer.print_op_attributes(self.attributes)  # type: ignore[attr-defined]
        printer.print_string(" : ")
        printer.print_list([v.type for v in (self.lhs, self.rhs, self.out)], printer.print_attribute)  # type: ignore[attr-defined]

    @classmethod
    def parse(cls, parser: Parser):
        label = parser.parse_str_literal()
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        out = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        start = parser.pos
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != 3:
            parser.raise_error(f"expected the types of A, B and the result, got {len(types)}", start, parser.pos)
        values = [parser.resolve_operand(v, t) for v, t in zip((lhs, rhs, out), types)]
        op = cls(label, *values)  # type: ignore[call-arg]
        op.attributes.update(attrs)
        return op
