"""ipu-demote-f64: compute in float32 (and int32) what the SDFG computes in 64 bits.

The IPU has no float64 and Poplar no 64-bit integers in codelets. DaCe programs get
them easily: Python float literals and integer arithmetic promote to float64/int64.
This pass rewrites every f64 (and, with `int64=true`, i64) container, memlet value and
tasklet value to f32 (i32), dropping casts that become no-ops, and warns once per
container it demotes, since results may differ from a 64-bit CPU run.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp, f32, f64, i32, i64
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ipu_lower.diagnostics import describe
from ipu_lower.dialects import sdfg as sd

# Casts that become identities once both sides are demoted.
_CASTS = (arith.ExtFOp, arith.TruncFOp, arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp)


@dataclass(frozen=True)
class IpuDemoteF64Pass(ModulePass):
    """Demote f64 to f32 and, unless `int64=false`, i64 to i32."""

    name = "ipu-demote-f64"

    int64: bool = True

    def demoted(self, t: Attribute) -> Attribute:
        if t == f64:
            return f32
        if t == i64 and self.int64:
            return i32
        return t

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for container in [c for c in op.walk() if isinstance(c, sd.ContainerOp)]:
            ctype = container.result.type
            assert isinstance(ctype, sd.ArrayType)
            new = self.demoted(ctype.element_type)
            if new != ctype.element_type:
                print(
                    f"warning: {describe(container)}: demoting container "
                    f"'{container.container_name.data}' from {ctype.element_type} to {new}",
                    file=sys.stderr,
                )
                Rewriter.replace_value_with_new_type(container.result, sd.ArrayType(ctype.shape.data, new))
        for inner in list(op.walk()):
            self.demote_op(inner)

    def demote_op(self, op: Operation) -> None:
        for block in (b for r in op.regions for b in r.blocks):
            for arg in block.args:
                if (new := self.demoted(arg.type)) != arg.type:
                    Rewriter.replace_value_with_new_type(arg, new)
        if isinstance(op, arith.ConstantOp):
            self.demote_constant(op)
        for result in op.results:
            if (new := self.demoted(result.type)) != result.type and not isinstance(result.type, sd.ArrayType):
                Rewriter.replace_value_with_new_type(result, new)
        if isinstance(op, _CASTS) and op.operands[0].type == op.results[0].type:
            op.results[0].replace_all_uses_with(op.operands[0])
            op.detach()
            op.erase()

    def demote_constant(self, op: arith.ConstantOp) -> None:
        value = op.value
        if isinstance(value, FloatAttr) and value.type == f64:
            op.value = FloatAttr(value.value.data, f32)
        elif isinstance(value, IntegerAttr) and value.type == i64 and self.int64:
            op.value = IntegerAttr(value.value.data, i32, truncate_bits=True)
