"""The values of constant containers, variables and tensors, shared by the three levels.

DaCe keeps an array literal of a program (`np.array([[1, 2], [3, 4]])`) as a constant of
the SDFG: a transient container whose data lives only in the constant. Each level holds
those values in a builtin dense attribute whose type is the container's static shape
and element type, written after the type as MLIR's `memref.global` writes its initial
value:

    %c = sdfg.container "c" transient : !sdfg.array<2 x 2 x f32> = dense<[[1.0, 2.0], [3.0, 4.0]]>

xDSL prints a dense attribute of more than 100 elements as one hex string, so a large
constant costs its bytes twice in the IR, not a literal per element. Their numpy form is in
`constant_arrays` (numpy is not imported to read or print the IR).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import prod
from typing import TypeVar

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ipu_lower.element_types import element_type


def verify_value(value: Attribute, shape: Sequence[int] | None, element: Attribute, what: str) -> None:
    """`value` holds one `element` per element of `shape` (None: not static)."""
    if shape is None:
        raise VerifyException(f"{what} has a value, so its shape must be static")
    if not isinstance(value, DenseIntOrFPElementsAttr):
        raise VerifyException(f"the value of {what} must be a dense attribute, not {value}")
    expected = TensorType(element, shape)
    if value.type != expected:
        raise VerifyException(f"the value of {what} has type {value.type}, expected {expected}")
    row = element_type(element)
    if row is None or len(value.data.data) != prod(shape) * row.bytes:
        raise VerifyException(f"the value of {what} does not hold {prod(shape)} values of {element}")


def print_typed_value(printer: Printer, op: Operation, t: Attribute, value: DenseIntOrFPElementsAttr | None) -> None:
    """The end of the custom syntax of an op that may have a value: its attributes, `:`
    and its type `t`, then ` = dense<...>`, the dense type left out: it follows from `t`."""
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(t)
    if value is not None:
        printer.print_string(" = ")
        value.print_without_type(printer)


_T = TypeVar("_T", bound=Attribute)


def parse_typed_value(
    parser: Parser, kind: type[_T], shape: Callable[[_T], Sequence[int] | None]
) -> tuple[dict[str, Attribute], _T, DenseIntOrFPElementsAttr | None]:
    """What `print_typed_value` printed: the attributes, the type (a `kind`) and the value
    if there is one, its dense type from the type's `shape` and element type."""
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    t = parser.parse_type()
    if not isinstance(t, kind):
        parser.raise_error(f"expected a {kind.name} type, got {t}")  # type: ignore[attr-defined]
    if parser.parse_optional_punctuation("=") is None:
        return attrs, t, None
    dims, element = shape(t), t.element_type  # type: ignore[attr-defined]
    if dims is None:
        parser.raise_error("a value needs a static shape")
    if element_type(element) is None:
        parser.raise_error(f"no value of element type {element}")
    parser.parse_keyword("dense")
    return attrs, t, parser.parse_dense_int_or_fp_elements_attr(TensorType(element, dims))
