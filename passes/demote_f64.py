"""ipu-demote-f64: compute in float32 (and int32) what the SDFG computes in 64 bits.

The IPU has no float64 and Poplar no 64-bit integers in codelets. DaCe programs get
them easily: Python float literals and integer arithmetic promote to float64/int64.
This pass rewrites every f64 (and, with `int64=true`, i64) type in the module to f32
(i32) with a `TypeConversionPattern` (containers, memlet values, tasklet values,
constants), truncating integer constants, then drops the casts that became no-ops. It
warns once per container it demotes, since results may differ from a 64-bit CPU run.
The values of constant containers are converted first; one that overflows 32 bits (a
finite float64 beyond float32's range, an int64 beyond int32's) is an error naming its
container, found before anything is rewritten.

It records what each program's demoted arguments were declared as in the module's
`sdfg.declared_types` attribute (`{sdfg_name = {A = f64}}`): program.json carries it, so
that callers (the Python callable, ipu-run) accept the 64-bit arrays the program declares.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float64Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    f32,
    f64,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    TypeConversionPattern,
    attr_type_rewrite_pattern,
    op_type_rewrite_pattern,
)

from ipu_lower.diagnostics import describe, error
from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.constant_value import converted, dense_value, value_array

DECLARED_TYPES = "sdfg.declared_types"
"""The module attribute naming, per program, its arguments' declared 64-bit types."""

# Casts that become identities once both sides are demoted.
_CASTS = (arith.ExtFOp, arith.TruncFOp, arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp)


@dataclass
class _Demote(TypeConversionPattern):
    int64: bool = True
    recursive: bool = True

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, arith.CmpiOp | arith.CmpfOp):
            return  # an i1 of its operands: its i64 predicate is an enum, not data to demote
        super().match_and_rewrite(op, rewriter)

    @attr_type_rewrite_pattern
    def convert_type(self, typ: Float64Type | IntegerType) -> Attribute | None:
        if typ == f64:
            return f32
        if typ == i64 and self.int64:
            return i32
        return None


@dataclass
class _TruncateIntegerConstant(RewritePattern):
    """i64 constants keep their low 32 bits, as a C cast to int does."""

    int64: bool

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ConstantOp, rewriter: PatternRewriter) -> None:
        value = op.value
        if self.int64 and isinstance(value, IntegerAttr) and value.type == i64:
            rewriter.replace(op, arith.ConstantOp(IntegerAttr(value.value.data, i32, truncate_bits=True)))


@dataclass
class _DemoteValue(RewritePattern):
    """A constant container takes its demoted values (`plan`) before its type is
    converted, which would otherwise reinterpret the 64-bit bytes of its value."""

    plan: dict[sd.ContainerOp, DenseIntOrFPElementsAttr]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.ContainerOp, rewriter: PatternRewriter) -> None:
        if (value := self.plan.pop(op, None)) is not None:
            op.value = value
            rewriter.notify_op_modified(op)


def demoted_value(container: sd.ContainerOp, element: Attribute) -> DenseIntOrFPElementsAttr:
    """The value of a constant container as `element`s; a located error when a value
    overflows it."""
    assert container.value is not None
    try:
        return dense_value(converted(value_array(container.value), element), element)
    except ValueError as err:
        raise error(container, f"constant container '{container.container_name.data}' {err}; it cannot be demoted") from err


class _DropIdentityCast(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, _CASTS) and op.operands[0].type == op.results[0].type:
            rewriter.replace(op, [], [op.operands[0]])


@dataclass(frozen=True)
class IpuDemoteF64Pass(ModulePass):
    """Demote f64 to f32 and, unless `int64=false`, i64 to i32."""

    name = "ipu-demote-f64"

    int64: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        demoted = {f64: f32, **({i64: i32} if self.int64 else {})}
        values: dict[sd.ContainerOp, DenseIntOrFPElementsAttr] = {}
        declared = dict(op.attributes[DECLARED_TYPES].data) if DECLARED_TYPES in op.attributes else {}
        for program in [p for p in op.walk() if isinstance(p, sd.SdfgOp)]:
            arguments = dict(declared[program.sym_name.data].data) if program.sym_name.data in declared else {}
            for container in [c for c in program.walk() if isinstance(c, sd.ContainerOp)]:
                ctype = container.result.type
                assert isinstance(ctype, sd.ArrayType)
                if (new := demoted.get(ctype.element_type)) is not None:
                    if container.value is not None:
                        values[container] = demoted_value(container, new)
                    print(
                        f"warning: {describe(container)}: demoting container "
                        f"'{container.container_name.data}' from {ctype.element_type} to {new}",
                        file=sys.stderr,
                    )
                    if container.transient is None:
                        arguments[container.container_name.data] = ctype.element_type
            if arguments:
                declared[program.sym_name.data] = DictionaryAttr(arguments)
        if declared:
            op.attributes[DECLARED_TYPES] = DictionaryAttr(declared)
        first = [_DemoteValue(values), _TruncateIntegerConstant(self.int64), _Demote(int64=self.int64)]
        for patterns in (first, [_DropIdentityCast()]):
            PatternRewriteWalker(GreedyRewritePatternApplier(patterns, dce_enabled=False)).rewrite_module(op)
