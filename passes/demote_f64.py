"""ipu-demote-f64: compute in float32 (and int32) what the SDFG computes in 64 bits.

The IPU has no float64 and Poplar no 64-bit integers in codelets. DaCe programs get
them easily: Python float literals and integer arithmetic promote to float64/int64.
This pass rewrites every f64 (and, with `int64=true`, i64) element type of data to f32
(i32) with a `TypeConversionPattern`: the types of values and block arguments, and the
types held in properties (a host program's argument memrefs), descending into types
only. An integer attribute or a dense array in a property (reduction dims, slice
bounds, a program index, a comparison predicate) is an index or a shape, not data: it
keeps its i64. Constants and the identities of `sdfg.library_reduce` are data: integers keep their low 32 bits, as a C cast to int
does, floats their value; the 64-bit types' bounds (DaCe's identities of min and max)
become the 32-bit types' bounds, and a finite float beyond float32's range is an error.
The values of constant containers are converted before their type is; one that overflows
32 bits (a finite float64 beyond float32's range, an int64 beyond int32's) is an error
naming its container, found before anything is rewritten. Casts that became no-ops go. It warns once per container it demotes, since results may
differ from a 64-bit CPU run.

It records what each program's demoted arguments were declared as in the module's
`sdfg.declared_types` attribute (`{sdfg_name = {A = f64}}`): program.json carries it, so
that callers (the Python callable, ipu-run) accept the 64-bit arrays the program declares.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    f32,
    f64,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, TypeAttribute
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    TypeConversionPattern,
    op_type_rewrite_pattern,
)

from ipu_lower.diagnostics import describe, error
from ipu_lower.dialects import sdfg as sd
from ipu_lower.dialects.constant_arrays import converted, dense_value, value_array

DECLARED_TYPES = "sdfg.declared_types"
"""The module attribute naming, per program, its arguments' declared 64-bit types."""

# Casts that become identities once both sides are demoted.
_CASTS = (arith.ExtFOp, arith.TruncFOp, arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp)

_FLOAT32_MAX = float(np.finfo(np.float32).max)
_FLOAT64_MAX = float(np.finfo(np.float64).max)
_INT_BOUNDS = {int(np.iinfo(np.int64).max): int(np.iinfo(np.int32).max), int(np.iinfo(np.int64).min): int(np.iinfo(np.int32).min)}


@dataclass
class _Demote(TypeConversionPattern):
    int64: bool = True

    def convert_type(self, typ: Attribute) -> Attribute | None:
        """`typ` demoted, None when unchanged. Only types and arrays are descended into:
        the width of an IntegerAttr or a dense array is that of an index, not of data."""
        if typ == f64:
            return f32
        if typ == i64 and self.int64:
            return i32
        if isinstance(typ, ArrayAttr):
            items = self._converted(typ.data)
            return None if items is None else ArrayAttr(items)
        if isinstance(typ, TypeAttribute) and isinstance(typ, ParametrizedAttribute):
            params = self._converted(typ.parameters)
            return None if params is None else type(typ).new(params)
        return None

    def _converted(self, items: Sequence[Attribute]) -> list[Attribute] | None:
        # `is None`, not `or`: an IntegerAttr of value 0 is falsy
        new = [self.convert_type(t) for t in items]
        return None if all(n is None for n in new) else [t if n is None else n for n, t in zip(new, items)]


def _demoted_constant(value: Attribute, int64: bool) -> IntegerAttr | FloatAttr | None:
    """The 32-bit value of a 64-bit constant, None for any other: the 64-bit types' bounds
    (DaCe's identities of min and max) become the 32-bit types' bounds, other integers keep
    their low 32 bits (as a C cast to int does), other floats their value."""
    if int64 and isinstance(value, IntegerAttr) and value.type == i64:
        number = value.value.data
        return IntegerAttr(_INT_BOUNDS.get(number, number), i32, truncate_bits=True)
    if isinstance(value, FloatAttr) and value.type == f64:
        number = value.value.data
        return FloatAttr(math.copysign(_FLOAT32_MAX, number) if abs(number) == _FLOAT64_MAX else number, f32)
    return None


def _check_constants(module: ModuleOp) -> None:
    """A float64 constant that float32 cannot hold (finite, beyond its range, not a bound)
    is an error: demoted, it would be infinity."""
    for op in module.walk():
        value = op.value if isinstance(op, arith.ConstantOp) else op.identity if isinstance(op, sd.LibraryReduceOp) else None
        if isinstance(value, FloatAttr) and value.type == f64:
            number = value.value.data
            if _FLOAT32_MAX < abs(number) < _FLOAT64_MAX:
                raise error(op, f"float64 constant {number} is beyond float32's range (largest {_FLOAT32_MAX:.8g}); it cannot be demoted")


@dataclass
class _DemoteConstant(RewritePattern):
    int64: bool

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ConstantOp, rewriter: PatternRewriter) -> None:
        if (value := _demoted_constant(op.value, self.int64)) is not None:
            rewriter.replace(op, arith.ConstantOp(value))


@dataclass
class _DemoteIdentity(RewritePattern):
    """A reduction's identity is data, demoted as a constant is."""

    int64: bool

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sd.LibraryReduceOp, rewriter: PatternRewriter) -> None:
        if op.identity is not None and (value := _demoted_constant(op.identity, self.int64)) is not None:
            op.identity = value
            rewriter.notify_op_modified(op)


@dataclass
class _DemoteValue(RewritePattern):
    """A constant container takes its demoted values (`plan`): its type's conversion
    leaves the dense value as it is."""

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
        _check_constants(op)
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
        first = [_DemoteValue(values), _DemoteConstant(self.int64), _DemoteIdentity(self.int64), _Demote(int64=self.int64)]
        for patterns in (first, [_DropIdentityCast()]):
            PatternRewriteWalker(GreedyRewritePatternApplier(patterns, dce_enabled=False)).rewrite_module(op)
