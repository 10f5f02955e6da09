"""What `ipu.dynamic_slice/update` and `poplar.dynamic_slice/update` share: a box of a
tensor whose offsets are read from a tensor at run time (poplibs' `dynamicSlice`).

The box takes `sizes[k]` elements from dimension `dims[k]`, starting at `offset[k]`, and
the whole of every other dimension; `offsets` are rank-0 i32 tensors, one per entry of
`dims` (non-negative: Poplar reads them, concatenated, as UNSIGNED_INT). The slice
tensor holds the box's elements in row-major order, whatever its shape. Syntax:

    %A at [%t] dims [0] sizes [1] into %row : <A type>, <row type>
    %A at [%t] dims [0] sizes [1] from %row : <A type>, <row type>

`shape_of(type)` gives a type's static shape: memrefs at the ipu level, tensors at the
poplar level.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar
from math import prod

from xdsl.dialects.builtin import DenseArrayBase, i64
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


def int_list(values: Sequence[int]) -> DenseArrayBase:
    """`array<i64: ...>`, an attribute upstream MLIR parses too."""
    return DenseArrayBase.from_list(i64, list(values))


class DynamicSliceMixin:
    """Operands `tensor`, `offsets` (variadic), `slice`; properties `dims`, `sizes` (see
    the module docstring). `KEYWORD` is `into` for a slice and `from` for an update;
    `SCALAR_I32` the type of an offset."""

    KEYWORD: ClassVar[str]
    SCALAR_I32: ClassVar[Attribute]

    def box_shape(self) -> list[int]:
        shape = list(self.shape_of(self.tensor.type))  # type: ignore[attr-defined]
        for d, size in zip(self.dim_list(), self.size_list()):
            if d < len(shape):
                shape[d] = size
        return shape

    def dim_list(self) -> list[int]:
        return list(self.dims.get_values())  # type: ignore[attr-defined]

    def size_list(self) -> list[int]:
        return list(self.sizes.get_values())  # type: ignore[attr-defined]

    @staticmethod
    def shape_of(t: Attribute) -> tuple[int, ...]:
        raise NotImplementedError

    @staticmethod
    def element_of(t: Attribute) -> Attribute:
        raise NotImplementedError

    def verify_box(self) -> None:
        name = self.name  # type: ignore[attr-defined]
        tensor, slice_ = self.tensor.type, self.slice.type  # type: ignore[attr-defined]
        shape = self.shape_of(tensor)
        dims, sizes = self.dim_list(), self.size_list()
        if len(dims) != len(sizes) or not dims:
            raise VerifyException(f"'{name}' needs one size per dimension, and at least one, got {dims} and {sizes}")
        if len(set(dims)) != len(dims) or any(not 0 <= d < len(shape) for d in dims):
            raise VerifyException(f"'{name}' dims {dims} must be distinct dimensions of a rank-{len(shape)} tensor")
        for d, size in zip(dims, sizes):
            if not 1 <= size <= shape[d]:
                raise VerifyException(f"'{name}' size {size} does not fit dimension {d} of {tensor}")
        offsets = self.offsets  # type: ignore[attr-defined]
        if len(offsets) != len(dims) or any(v.type != self.SCALAR_I32 for v in offsets):
            raise VerifyException(f"'{name}' needs {len(dims)} offsets of type {self.SCALAR_I32}")
        if self.element_of(slice_) != self.element_of(tensor):
            raise VerifyException(f"'{name}' slice {slice_} and tensor {tensor} have different element types")
        if prod(self.shape_of(slice_)) != prod(self.box_shape()):
            raise VerifyException(
                f"'{name}' slice {slice_} does not hold the {prod(self.box_shape())} elements of the box"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.tensor)  # type: ignore[attr-defined]
        printer.print_string(" at [")
        printer.print_list(self.offsets, printer.print_ssa_value)  # type: ignore[attr-defined]
        printer.print_string(f"] dims {self.dim_list()} sizes {self.size_list()} {self.KEYWORD} ")
        printer.print_ssa_value(self.slice)  # type: ignore[attr-defined]
        printer.print_op_attributes(self.attributes)  # type: ignore[attr-defined]
        printer.print_string(" : ")
        printer.print_list([self.tensor.type, self.slice.type], printer.print_attribute)  # type: ignore[attr-defined]

    @classmethod
    def parse(cls, parser: Parser):
        tensor = parser.parse_unresolved_operand()
        parser.parse_keyword("at")
        offsets = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)

        def integers(keyword: str) -> list[int]:
            parser.parse_keyword(keyword)
            return parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
            )

        dims, sizes = integers("dims"), integers("sizes")
        parser.parse_keyword(cls.KEYWORD)
        slice_ = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        tensor_type = parser.parse_type()
        parser.parse_punctuation(",")
        slice_type = parser.parse_type()
        op = cls(  # type: ignore[call-arg]
            parser.resolve_operand(tensor, tensor_type),
            [parser.resolve_operand(o, cls.SCALAR_I32) for o in offsets],
            parser.resolve_operand(slice_, slice_type),
            dims,
            sizes,
        )
        op.attributes.update(attrs)
        return op


