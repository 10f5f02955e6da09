"""What `sdfg.reduce`, `ipu.reduce` and `poplar.reduce` share: a DaCe `Reduce` node as
poplibs reduces it, `popops::reduceWithOutput(graph, in, out, dims,
ReduceParams(op, update), prog, "label", options)` (include/popops/Reduce.hpp:125-130
of graphcore/poplibs at 7eac0f26).

`out` combines the elements of `in` over the dimensions `dims` (distinct, ascending
dimensions of `in`) with `kind` (add, mul, min, max: popops' ADD, MUL, MIN, MAX); the
other dimensions of `in`, in order, are the dimensions of `out`, where dimensions of
extent 1 do not count on either side (poplibs compares the shapes without them,
lib/popops/reduction/Reduction.cpp:580-592). With `update` the result is combined into
the value `out` has (`out += reduce(in)`), which poplibs allows for ADD only
(Reduction.cpp:489-493). Elements: float32, float16 or int32, one type for both (the
types popops reduces for all four operations, Reduce.hpp:85-91). `out` is not `in` nor
part of the same container: poplibs writes it while it reads `in`.

float16 ADD and MUL accumulate in float32 (`accumulator_type`), popops' default
(Reduction.cpp:413-424, 448-456), which the printer also states in the options
`accumType.interTile` and `accumType.inVertex`; popops has no half->float MIN or MAX
(Reduce.hpp:90), so those accumulate in float16, which is exact for them.

Syntax after the op name: `"label" add %in<box> to %out<box> dims [0, 1] update :
<in type>, <out type>`, the boxes only at the sdfg level, `update` only when set.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ipu_lower.dialects.dynamic_slice import int_list
from ipu_lower.dialects.reduction import REDUCTION_KINDS
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float16Type,
    Float32Type,
    IntegerType,
    Signedness,
    StringAttr,
    UnitAttr,
    f32,
)
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

POPOPS_OPERATION = {"add": "ADD", "mul": "MUL", "min": "MIN", "max": "MAX"}
"""popops::Operation of each reduction kind (include/popops/OperationDef.hpp:15-24)."""


def popops_element(t: Attribute) -> bool:
    """Whether popops reduces elements of type `t` with every kind: float, half, int."""
    if isinstance(t, Float32Type | Float16Type):
        return True
    return isinstance(t, IntegerType) and t.width.data == 32 and t.signedness.data == Signedness.SIGNLESS


def accumulator_type(kind: str, element: Attribute) -> Attribute:
    """The type popops accumulates `element` values in: float32 for float16 sums and
    products, else the element type (see the module docstring)."""
    if isinstance(element, Float16Type) and kind in ("add", "mul"):
        return f32
    return element


def squeezed(shape: Sequence[Any]) -> list[Any]:
    """The dimensions of a shape other than those of extent 1 (ints or index expressions)."""
    return [n for n in shape if str(n) != "1"]


def reduce_properties(label: str, kind: str, dims: Sequence[int], update: bool) -> dict[str, Attribute]:
    """The properties the three ops share (`update` only when set)."""
    properties: dict[str, Attribute] = {"label": StringAttr(label), "kind": StringAttr(kind), "dims": int_list(dims)}
    if update:
        properties["update"] = UnitAttr()
    return properties


class ReduceMixin:
    """Properties `label`, `kind`, `dims`, optional `update`; operands `input`, `out`.
    The shapes are those of the operands' types (`in_shape`, `out_shape`: the sdfg level
    says its boxes'), and `root` says what data an operand is. The syntax is the ipu and
    poplar one, `"label" kind %in to %out dims [...] update? : <types>`."""

    def in_shape(self) -> list[Any]:
        return list(self.input.type.get_shape())  # type: ignore[attr-defined]

    def out_shape(self) -> list[Any]:
        return list(self.out.type.get_shape())  # type: ignore[attr-defined]

    @staticmethod
    def element_of(t: Attribute) -> Attribute:
        return t.element_type  # type: ignore[attr-defined]

    @staticmethod
    def root(value) -> object:
        return value

    def dim_list(self) -> list[int]:
        return list(self.dims.get_values())  # type: ignore[attr-defined]

    def is_update(self) -> bool:
        return self.update is not None  # type: ignore[attr-defined]

    def kept_shape(self) -> list[Any]:
        """The dimensions of the input that are not reduced, in order."""
        dims = set(self.dim_list())
        return [n for d, n in enumerate(self.in_shape()) if d not in dims]

    def element(self) -> Attribute:
        return self.element_of(self.input.type)  # type: ignore[attr-defined]

    def verify_reduce(self) -> None:
        name = self.name  # type: ignore[attr-defined]
        kind = self.kind.data  # type: ignore[attr-defined]
        if kind not in REDUCTION_KINDS:
            raise VerifyException(f"'{name}' kind '{kind}' is not one of {', '.join(REDUCTION_KINDS)}")
        elements = [self.element_of(v.type) for v in (self.input, self.out)]  # type: ignore[attr-defined]
        if not popops_element(elements[0]):
            raise VerifyException(f"'{name}' reduces float32, float16 or int32 elements, not {elements[0]}")
        if elements[0] != elements[1]:
            raise VerifyException(f"'{name}' input and output have different element types: {elements[0]}, {elements[1]}")
        shape, dims = self.in_shape(), self.dim_list()
        if not dims or dims != sorted(set(dims)) or not 0 <= dims[0] <= dims[-1] < len(shape):
            raise VerifyException(
                f"'{name}' dims {dims} must be distinct ascending dimensions of the rank-{len(shape)} input, at least one"
            )
        if squeezed(self.out_shape()) != squeezed(self.kept_shape()):
            kept = " x ".join(map(str, self.kept_shape())) or "one element"
            out = " x ".join(map(str, self.out_shape())) or "one element"
            raise VerifyException(f"'{name}' output of shape {out} does not hold the kept input dimensions ({kept})")
        if self.is_update() and kind != "add":
            raise VerifyException(f"'{name}' updates its output only for add (poplibs' ReduceParams update), not {kind}")
        if self.root(self.out) == self.root(self.input):  # type: ignore[attr-defined]
            raise VerifyException(f"'{name}' output must not be its input")

    def print_head(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.label)  # type: ignore[attr-defined]
        printer.print_string(f" {self.kind.data} ")  # type: ignore[attr-defined]

    def print_tail(self, printer: Printer) -> None:
        printer.print_string(f" dims {self.dim_list()}")
        if self.is_update():
            printer.print_string(" update")
        printer.print_op_attributes(self.attributes)  # type: ignore[attr-defined]
        printer.print_string(" : ")
        printer.print_list([self.input.type, self.out.type], printer.print_attribute)  # type: ignore[attr-defined]


    def print(self, printer: Printer) -> None:
        self.print_head(printer)
        printer.print_ssa_value(self.input)  # type: ignore[attr-defined]
        printer.print_string(" to ")
        printer.print_ssa_value(self.out)  # type: ignore[attr-defined]
        self.print_tail(printer)

    @classmethod
    def parse(cls, parser: Parser):
        label, kind = parse_head(parser)
        source = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        out = parser.parse_unresolved_operand()
        dims, update, attrs, types = parse_tail(parser)
        op = cls(  # type: ignore[call-arg]
            label, kind, parser.resolve_operand(source, types[0]), parser.resolve_operand(out, types[1]),
            dims.get_values(), update,
        )
        op.attributes.update(attrs)
        return op


def parse_head(parser: Parser) -> tuple[str, str]:
    """`"label" kind`."""
    label = parser.parse_str_literal()
    return label, parser.parse_keyword_in(REDUCTION_KINDS, " (a reduction)")


def parse_tail(parser: Parser) -> tuple[DenseArrayBase, bool, dict[str, Attribute], list[Attribute]]:
    """`dims [...] update? {attrs}? : <in type>, <out type>`."""
    parser.parse_keyword("dims")
    dims = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False))
    update = parser.parse_optional_keyword("update") is not None
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    in_type = parser.parse_type()
    parser.parse_punctuation(",")
    out_type = parser.parse_type()
    return int_list(dims), update, attrs, [in_type, out_type]
