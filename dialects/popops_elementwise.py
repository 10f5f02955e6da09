"""What `poplar.scaled_add`, `poplar.map` and `poplar.cast` share: the elementwise popops
calls ipu-select-vertices may choose, and the element types they take.

The op names are popops' expression enums (include/popops/ExprOp.hpp:18-82 of
graphcore/poplibs at 7eac0f26), the ones whose vertices poplibs' estimators price for
float and half (`ipu_lower.poplibs_estimates`, whose function names are these in lower
case).
"""

from __future__ import annotations

from xdsl.dialects.builtin import Float16Type, Float32Type
from xdsl.ir import Attribute

BINARY_OPS = ("ADD", "SUBTRACT", "MULTIPLY", "DIVIDE", "MAXIMUM", "MINIMUM")
"""popops::expr::BinaryOpType values `poplar.map` takes (ExprOp.hpp:18-45)."""

CHOICE = "vertex_choice"
"""The attribute holding ipu-select-vertices' decision for a placement (on `ipu.vertices`,
then on the `poplar.add_vertices` or poplibs call it becomes)."""

UNARY_OPS = (
    "ABSOLUTE", "CEIL", "EXPONENT", "EXPONENT2", "FLOOR", "LOGARITHM", "NEGATE", "RSQRT", "SQRT", "TANH", "TRUNC",
)
"""popops::expr::UnaryOpType values `poplar.map` takes (ExprOp.hpp:47-82)."""


def float_element(t: Attribute) -> bool:
    """Whether popops' elementwise estimators (and these ops) take elements of type `t`."""
    return isinstance(t, Float32Type | Float16Type)
