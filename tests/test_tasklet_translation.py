"""Tests for the tasklet frontend (ipu_lower.frontend.tasklet) and the C++ expression printer
(ipu_lower.targets.cpp_expr), including a differential test against DaCe's own CPU build."""

from __future__ import annotations

import math
import shutil
import struct
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects import math as mathd
from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    UnrealizedConversionCastOp,
    f16,
    f32,
    f64,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, SSAValue

from ipu_lower.element_types import ui8, ui16, ui32
from ipu_lower.frontend.tasklet import TaskletError, translate_tasklet
from ipu_lower.targets.cpp_expr import CPP_HELPERS, cpp_constant, cpp_expression, cpp_type

# --------------------------------------------------------------------------------------
# helpers


def translate(
    code: str, inputs: Sequence[tuple[str, Attribute]], outputs: Sequence[tuple[str, Attribute]]
) -> tuple[Block, list[SSAValue]]:
    block = Block(arg_types=[t for _, t in inputs])
    results = translate_tasklet(code, block, [n for n, _ in inputs], outputs)
    for op in block.ops:
        op.verify()
    assert [r.type for r in results] == [t for _, t in outputs]
    return block, results


def op_names(block: Block) -> list[str]:
    return [op.name for op in block.ops]


def non_const(block: Block) -> list[str]:
    return [n for n in op_names(block) if n != "arith.constant"]


def constants(block: Block) -> list[tuple[float | int, Attribute]]:
    out = []
    for op in block.ops:
        if isinstance(op, arith.ConstantOp):
            assert isinstance(op.value, FloatAttr | IntegerAttr)
            out.append((op.value.value.data, op.result.type))
    return out


F = [("a", f32), ("b", f32)]
I = [("n", i32), ("m", i32)]


def fout(name: str = "y") -> list[tuple[str, Attribute]]:
    return [(name, f32)]


def iout(name: str = "y") -> list[tuple[str, Attribute]]:
    return [(name, i32)]


# --------------------------------------------------------------------------------------
# Part 1: translation, construct by construct


def test_simple_binops_f32():
    block, (r,) = translate("y = a + b - a * b / a", F, fout())
    assert non_const(block) == ["arith.addf", "arith.mulf", "arith.divf", "arith.subf"]
    assert r.type == f32


def test_simple_binops_i32():
    block, _ = translate("y = n + m - n * m", I, iout())
    assert non_const(block) == ["arith.addi", "arith.muli", "arith.subi"]


def test_int_true_division_is_c_division():
    block, (r,) = translate("y = n / m", I, iout())
    assert non_const(block) == ["arith.divsi"]
    assert r.type == i32


def test_floordiv_and_mod_ints():
    block, _ = translate("y = n // m + n % m", I, iout())
    # DaCe: ifloor(n / m) with C int division, i.e. truncating like '/'
    assert non_const(block) == ["arith.divsi", "arith.remsi", "arith.addi"]


def test_floordiv_floats_is_floor_of_division():
    block, (r,) = translate("y = a // b", F, fout())
    assert non_const(block) == ["arith.divf", "math.floor"]
    assert r.type == f32


def test_literal_takes_type_of_other_operand():
    block, _ = translate("y = a * 0.2 + 1", F, fout())
    assert constants(block) == [(pytest.approx(0.2, rel=1e-7), f32), (1.0, f32)]
    assert non_const(block) == ["arith.mulf", "arith.addf"]
    block, _ = translate("y = x * 2", [("x", f16)], [("y", f16)])
    assert constants(block) == [(2.0, f16)]
    block, _ = translate("y = x * 2", [("x", i64)], [("y", i64)])
    assert constants(block) == [(2, i64)]


def test_float_literal_with_int_operand_is_f32():
    block, (r,) = translate("y = n * 0.5", I, fout())
    assert non_const(block) == ["arith.sitofp", "arith.mulf"]
    assert constants(block) == [(0.5, f32)]


def test_wide_int_literal_promotes_to_i64():
    block, _ = translate("y = n + 3000000000", I, [("y", i64)])
    assert non_const(block) == ["arith.extsi", "arith.addi"]
    assert constants(block) == [(3000000000, i64)]


def test_literal_folding_uses_c_rules():
    block, _ = translate("y = 1 / 2 + 7 % -3 + (-7) // 2", [], iout())
    # C division 0, C remainder 1, C truncating division -3 (as DaCe's ifloor(-7 / 2))
    assert constants(block) == [(-2, i32)]
    assert non_const(block) == []
    block, _ = translate("y = a * (1.0 / 4.0) * -2", F, fout())
    assert constants(block) == [(0.25, f32), (-2.0, f32)]


def test_literal_only_defaults():
    _, _ = translate("t = 1.5\ny = t", [], [("y", f64)])
    block, _ = translate("y = 1.5 + 1", [], [("y", f64)])
    assert constants(block) == [(2.5, f64)]
    block, _ = translate("y = sqrt(2.0)", [], [("y", f64)])
    assert constants(block) == [(2.0, f32)]
    assert non_const(block) == ["math.sqrt", "arith.extf"]


def test_mixed_promotion():
    block, (r,) = translate("y = n * a", [("n", i32), ("a", f32)], fout())
    assert non_const(block) == ["arith.sitofp", "arith.mulf"]
    block, _ = translate("y = h + a", [("h", f16), ("a", f32)], fout())
    assert non_const(block) == ["arith.extf", "arith.addf"]
    block, _ = translate("y = n + l", [("n", i32), ("l", i64)], [("y", i64)])
    assert non_const(block) == ["arith.extsi", "arith.addi"]
    # C integral promotion: i8 + i8 is computed in i32, then truncated to the output
    block, _ = translate("y = p + q", [("p", i8), ("q", i8)], [("y", i8)])
    assert non_const(block) == ["arith.extsi", "arith.extsi", "arith.addi", "arith.trunci"]


def test_output_conversions():
    cases = [
        ("a", f32, i32, ["arith.fptosi"]),
        ("n", i32, f32, ["arith.sitofp"]),
        ("a", f32, f64, ["arith.extf"]),
        ("a", f32, f16, ["arith.truncf"]),
        ("n", i32, i64, ["arith.extsi"]),
        ("n", i32, i8, ["arith.trunci"]),
        ("c", i1, i32, ["arith.extui"]),
        ("c", i1, f32, ["arith.extui", "arith.sitofp"]),
        ("a", f32, i1, ["arith.cmpf"]),
        ("n", i32, i1, ["arith.cmpi"]),
    ]
    for name, src, dst, ops in cases:
        block, (r,) = translate(f"y = {name}", [(name, src)], [("y", dst)])
        assert non_const(block) == ops, (src, dst)
        assert r.type == dst
    block, _ = translate("y = a", [("a", f32)], [("y", i1)])
    cmp = next(op for op in block.ops if isinstance(op, arith.CmpfOp))
    assert cmp.predicate.value.data == 13  # une: NaN -> true like C


def test_output_is_converted_at_assignment():
    # y is an i32 variable: y = a truncates, then y * 0.5 is computed from the truncated value
    block, _ = translate("y = a\nz = y * 0.5", [("a", f32)], [("y", i32), ("z", f32)])
    assert non_const(block) == ["arith.fptosi", "arith.sitofp", "arith.mulf"]


def test_locals_and_augassign():
    block, _ = translate("t = a * b\nt += 1\nt *= t\ny = t", F, fout())
    assert non_const(block) == ["arith.mulf", "arith.addf", "arith.mulf"]
    block, _ = translate("y = n\ny += m\ny //= 2\ny %= 5\ny -= 1", I, iout())
    assert non_const(block) == ["arith.addi", "arith.divsi", "arith.remsi", "arith.subi"]


def test_multiple_targets():
    block, (y, z) = translate("y = z = a + 1", F, [("y", f32), ("z", i32)])
    assert non_const(block) == ["arith.addf", "arith.fptosi"]


def test_unary_ops():
    block, _ = translate("y = -a + +b", F, fout())
    assert non_const(block) == ["arith.negf", "arith.addf"]
    block, _ = translate("y = -n", I, iout())
    assert non_const(block) == ["arith.subi"]
    block, _ = translate("y = ~n", I, iout())
    assert non_const(block) == ["arith.xori"]
    block, _ = translate("y = not n", I, [("y", i1)])
    assert non_const(block) == ["arith.cmpi"]
    block, _ = translate("y = not a", F, [("y", i1)])
    assert non_const(block) == ["arith.cmpf"]
    block, _ = translate("y = not c", [("c", i1)], [("y", i1)])
    assert non_const(block) == ["arith.xori"]
    block, _ = translate("y = -c", [("c", i1)], iout())  # C: -true == -1
    assert non_const(block) == ["arith.extui", "arith.subi"]


def test_power():
    block, _ = translate("y = a ** 2", F, fout())
    assert non_const(block) == ["arith.mulf"]
    block, _ = translate("y = a ** 3.0", F, fout())
    assert non_const(block) == ["arith.mulf", "arith.mulf"]
    block, (r,) = translate("y = n ** 3", I, iout())
    assert non_const(block) == ["arith.muli", "arith.muli"]
    block, _ = translate("y = a ** 0", F, fout())
    assert non_const(block) == [] and constants(block) == [(1.0, f32)]
    block, _ = translate("y = a ** -2", F, fout())
    assert non_const(block) == ["arith.mulf", "arith.divf"]
    block, _ = translate("y = a ** 0.5", F, fout())
    assert non_const(block) == ["math.sqrt"]
    block, _ = translate("y = a ** -0.5", F, fout())
    assert non_const(block) == ["math.sqrt", "arith.divf"]
    block, _ = translate("y = a ** 1.5", F, fout())
    assert non_const(block) == ["math.powf"]
    block, _ = translate("y = a ** 20", F, fout())
    assert non_const(block) == ["math.powf"]
    block, _ = translate("y = a ** b", F, fout())
    assert non_const(block) == ["math.powf"]
    block, _ = translate("y = a ** n", [("a", f32), ("n", i32)], fout())
    assert non_const(block) == ["arith.sitofp", "math.powf"]
    block, _ = translate("y = n ** m", I, iout())
    assert non_const(block) == ["math.ipowi"]
    block, _ = translate("y = pow(a, 2) + math.pow(a, b) + np.power(a, 2)", F, fout())
    assert non_const(block) == ["arith.mulf", "math.powf", "arith.addf", "arith.mulf", "arith.addf"]
    block, _ = translate("y = 2 ** 10 + 2.0 ** -1", [], fout())
    assert constants(block) == [(1024.5, f32)]


def test_comparisons():
    preds = {"<": 4, "<=": 5, ">": 2, ">=": 3, "==": 1, "!=": 13}
    for sym, pred in preds.items():
        block, (r,) = translate(f"y = a {sym} b", F, [("y", i1)])
        (cmp,) = [op for op in block.ops if isinstance(op, arith.CmpfOp)]
        assert cmp.predicate.value.data == pred
        assert r.type == i1
    ipreds = {"<": 2, "<=": 3, ">": 4, ">=": 5, "==": 0, "!=": 1}
    for sym, pred in ipreds.items():
        block, _ = translate(f"y = n {sym} m", I, [("y", i1)])
        (cmp,) = [op for op in block.ops if isinstance(op, arith.CmpiOp)]
        assert cmp.predicate.value.data == pred


def test_chained_comparison():
    block, _ = translate("y = 0 < a <= b < 10", F, [("y", i1)])
    assert non_const(block) == ["arith.cmpf", "arith.cmpf", "arith.andi", "arith.cmpf", "arith.andi"]
    cmps = [op for op in block.ops if isinstance(op, arith.CmpfOp)]
    assert cmps[0].rhs is block.args[0] and cmps[1].lhs is block.args[0]  # `a` computed once


def test_comparison_of_bools_is_promoted():
    block, _ = translate("y = c > d", [("c", i1), ("d", i1)], [("y", i1)])
    assert non_const(block) == ["arith.extui", "arith.extui", "arith.cmpi"]


def test_boolean_operators():
    block, _ = translate("y = a < b and n > 0 or not c", [*F, ("n", i32), ("c", i1)], [("y", i1)])
    assert non_const(block) == ["arith.cmpf", "arith.cmpi", "arith.andi", "arith.xori", "arith.ori"]
    block, _ = translate("y = a and n", [("a", f32), ("n", i32)], [("y", i1)])
    assert non_const(block) == ["arith.cmpf", "arith.cmpi", "arith.andi"]
    block, _ = translate("y = c and True", [("c", i1)], [("y", i1)])
    assert non_const(block) == []
    block, _ = translate("y = c and False", [("c", i1)], [("y", i1)])
    assert constants(block) == [(0, i1)]


def test_ifexp():
    block, (r,) = translate("y = a if a > b else b", F, fout())
    assert non_const(block) == ["arith.cmpf", "arith.select"]
    block, (r,) = translate("y = 0.1 if c else 0.2", [("c", i1)], [("y", f64)])
    assert constants(block) == [(0.1, f64), (0.2, f64)]  # literals typed by the output
    block, _ = translate("y = a if c else n", [("a", f32), ("n", i32), ("c", i1)], fout())
    assert non_const(block) == ["arith.sitofp", "arith.select"]
    block, _ = translate("y = n if 1 else m", I, iout())
    assert non_const(block) == []


def test_if_else_statement():
    code = "if a > b:\n    y = a\n    t = 1\nelse:\n    y = b\n    t = 2\nz = t"
    block, (y, z) = translate(code, F, [("y", f32), ("z", i32)])
    assert non_const(block) == ["arith.cmpf", "arith.select", "arith.select"]
    assert isinstance(y.owner, arith.SelectOp)


def test_if_elif_else_and_single_branch():
    code = """
r = n
if n > 10:
    r = 1
elif n > 0:
    r = 2
if m < 0:
    r = r * 2
y = r
"""
    block, _ = translate(code, I, iout())
    assert non_const(block) == [
        "arith.cmpi",
        "arith.cmpi",
        "arith.select",
        "arith.select",
        "arith.cmpi",
        "arith.muli",
        "arith.select",
    ]


def test_nested_if():
    code = "y = a\nif n > 0:\n  y = b\n  if m > 0:\n    y = a + b\n"
    block, _ = translate(code, [*F, *I], fout())
    assert non_const(block).count("arith.select") == 2


def test_if_with_constant_condition():
    block, _ = translate("if True:\n  y = a\nelse:\n  y = b", F, fout())
    assert non_const(block) == []


def test_pass_and_docstring():
    block, _ = translate('"""doc"""\npass\ny = a', F, fout())
    assert non_const(block) == []


def test_min_max_abs():
    block, _ = translate("y = min(a, b) + max(a, b, 1.0)", F, fout())
    assert non_const(block) == ["arith.minimumf", "arith.maximumf", "arith.maximumf", "arith.addf"]
    block, _ = translate("y = min(n, m) + max(n, 0)", I, iout())
    assert non_const(block) == ["arith.minsi", "arith.maxsi", "arith.addi"]
    block, _ = translate("y = np.minimum(a, b) + np.maximum(a, n)", [*F, ("n", i32)], fout())
    assert non_const(block) == ["arith.minimumf", "arith.sitofp", "arith.maximumf", "arith.addf"]
    block, _ = translate("y = abs(a) + math.fabs(b) + np.abs(a)", F, fout())
    assert non_const(block) == ["math.absf", "math.absf", "arith.addf", "math.absf", "arith.addf"]
    block, _ = translate("y = abs(n)", I, iout())
    assert non_const(block) == ["math.absi"]
    block, _ = translate("y = abs(-3) + min(2, 5.0)", [], iout())
    assert constants(block) == [(5, i32)]


@pytest.mark.parametrize("prefix", ["", "math.", "np.", "numpy.", "dace."])
def test_math_functions_all_spellings(prefix: str):
    names = {
        "sqrt": "math.sqrt",
        "exp": "math.exp",
        "log": "math.log",
        "log2": "math.log2",
        "log10": "math.log10",
        "sin": "math.sin",
        "cos": "math.cos",
        "tan": "math.tan",
        "tanh": "math.tanh",
        "floor": "math.floor",
        "ceil": "math.ceil",
        "erf": "math.erf",
        "fabs": "math.absf",
        "exp2": "math.exp2",
        "expm1": "math.expm1",
        "log1p": "math.log1p",
        "sinh": "math.sinh",
        "cosh": "math.cosh",
        "trunc": "math.trunc",
        "cbrt": "math.cbrt",
    }
    for fn, opname in names.items():
        block, _ = translate(f"y = {prefix}{fn}(a)", F, fout())
        assert non_const(block) == [opname], fn
    block, _ = translate(f"y = {prefix}atan2(a, b) + {prefix}copysign(a, b)", F, fout())
    assert non_const(block) == ["math.atan2", "math.copysign", "arith.addf"]


def test_numpy_aliases():
    block, _ = translate("y = np.arcsin(a) + np.arctan2(a, b) + np.absolute(a)", F, fout())
    assert non_const(block) == ["math.asin", "math.atan2", "arith.addf", "math.absf", "arith.addf"]


def test_math_function_of_int_is_f32():
    block, _ = translate("y = sqrt(n)", I, [("y", f64)])
    assert non_const(block) == ["arith.sitofp", "math.sqrt", "arith.extf"]


def test_math_function_keeps_f16_and_f64():
    block, (r,) = translate("y = exp(h)", [("h", f16)], [("y", f16)])
    assert non_const(block) == ["math.exp"]
    block, _ = translate("y = exp(d)", [("d", f64)], [("y", f64)])
    assert non_const(block) == ["math.exp"]


def test_casts():
    block, _ = translate("y = float(n)", I, [("y", f64)])
    assert non_const(block) == ["arith.sitofp", "arith.extf"]  # float() is C++ float (f32)
    sitofp = next(op for op in block.ops if isinstance(op, arith.SIToFPOp))
    assert sitofp.result.type == f32
    block, _ = translate("y = int(a)", F, [("y", i64)])
    assert non_const(block) == ["arith.fptosi", "arith.extsi"]
    block, _ = translate("y = dace.float16(a)", F, [("y", f16)])
    assert non_const(block) == ["arith.truncf"]
    block, _ = translate("y = np.float64(a)", F, [("y", f64)])
    assert non_const(block) == ["arith.extf"]
    block, _ = translate("y = dace.int64(n)", I, [("y", i64)])
    assert non_const(block) == ["arith.extsi"]
    block, _ = translate("y = numpy.int8(n)", I, [("y", i8)])
    assert non_const(block) == ["arith.trunci"]
    block, _ = translate("y = dace.int16(a)", F, [("y", i16)])
    assert non_const(block) == ["arith.fptosi"]
    block, _ = translate("y = dace.bool_(a)", F, [("y", i1)])
    assert non_const(block) == ["arith.cmpf"]
    block, _ = translate("y = bool(n)", I, [("y", i1)])
    assert non_const(block) == ["arith.cmpi"]
    block, _ = translate("y = dace.int32(c)", [("c", i1)], iout())
    assert non_const(block) == ["arith.extui"]


def test_cast_of_literals_is_a_constant():
    block, _ = translate("y = dace.float32(0.2)", [], fout())
    assert constants(block) == [(struct.unpack("f", struct.pack("f", 0.2))[0], f32)]
    block, _ = translate("y = a * dace.float32(0.2)", F, fout())
    assert non_const(block) == ["arith.mulf"]
    block, _ = translate("y = dace.int32(-2.7) + dace.int8(300)", [], iout())
    assert constants(block) == [(-2, i32), (44, i8)]
    assert non_const(block) == ["arith.extsi", "arith.addi"]
    block, _ = translate("y = bool(0.0)", [], [("y", i1)])
    assert constants(block) == [(0, i1)]


def test_module_constants():
    block, _ = translate("y = a * math.pi + np.e", F, fout())
    assert [t for _, t in constants(block)] == [f32, f32]
    assert constants(block)[0][0] == pytest.approx(math.pi, rel=1e-7)
    block, _ = translate("y = inf", [], fout())
    assert constants(block) == [(math.inf, f32)]


def test_input_connector_reassignment_keeps_type():
    block, (r,) = translate("n = a\ny = n", [("n", i32), ("a", f32)], iout())
    assert non_const(block) == ["arith.fptosi"]


def test_output_with_same_name_as_input():
    block, (r,) = translate("pass", [("x", f32)], [("x", f32)])
    assert r is block.args[0]


def test_dedented_code():
    block, _ = translate("    y = a\n    z = b", F, [("y", f32), ("z", f32)])
    assert non_const(block) == []


def test_block_builder_appends_after_existing_ops():
    block = Block(arg_types=[f32])
    existing = arith.ConstantOp(FloatAttr(1.0, f32))
    block.add_op(existing)
    translate_tasklet("y = a + 1", block, ["a"], [("y", f32)])
    assert block.first_op is existing


# --------------------------------------------------------------------------------------
# Part 1: unsigned types (arith computes on signless integers, C rules as DaCe's C++)

U32 = [("u", ui32), ("v", ui32)]
CAST = "builtin.unrealized_conversion_cast"


def test_unsigned_inputs_are_cast_to_signless_once_and_back():
    block, (r,) = translate("y = a * b + a", [("a", ui8), ("b", ui8)], [("y", ui8)])
    # uint8 is promoted to int (zero-extended), the result wraps back into 8 bits
    assert non_const(block) == [CAST, CAST, "arith.extui", "arith.extui", "arith.muli", "arith.extui",
                                "arith.addi", "arith.trunci", CAST]
    casts = [op for op in block.ops if isinstance(op, UnrealizedConversionCastOp)]
    assert [(str(c.inputs[0].type), str(c.outputs[0].type)) for c in casts] == [
        ("ui8", "i8"), ("ui8", "i8"), ("i8", "ui8")]
    assert r.type == ui8


def test_unsigned_passed_through_has_no_casts():
    block, (r, q) = translate("y = a\nz = a", [("a", ui16)], [("y", ui16), ("z", ui16)])
    assert list(block.ops) == [] and r is block.args[0] and q is block.args[0]


def test_uint32_arithmetic_uses_unsigned_ops():
    block, _ = translate("y = u / v + u // v + u % v + min(u, v) + max(u, v, 3)", U32, [("y", ui32)])
    assert [n for n in non_const(block) if n != CAST] == [
        "arith.divui", "arith.divui", "arith.addi", "arith.remui", "arith.addi",
        "arith.minui", "arith.addi", "arith.maxui", "arith.maxui", "arith.addi"]


def test_uint32_comparisons_are_unsigned_uint8_ones_signed_after_promotion():
    block, _ = translate("c1 = u < v\nc2 = u <= v\nc3 = u > v\nc4 = u >= v\nc5 = u == v", U32,
                         [(f"c{k}", i1) for k in range(1, 6)])
    assert [op.predicate.value.data for op in block.ops if isinstance(op, arith.CmpiOp)] == [6, 7, 8, 9, 0]
    block, _ = translate("c = a < b", [("a", ui8), ("b", ui8)], [("c", i1)])
    assert [op.predicate.value.data for op in block.ops if isinstance(op, arith.CmpiOp)] == [2]  # slt


def test_uint32_meets_int32_as_unsigned_and_int64_as_signed():
    # C: int is converted to unsigned int (the same bits: no op); long long holds all of it
    block, _ = translate("y = u + n", [("u", ui32), ("n", i32)], [("y", ui32)])
    assert [n for n in non_const(block) if n != CAST] == ["arith.addi"]
    block, _ = translate("c = u < n", [("u", ui32), ("n", i32)], [("c", i1)])
    assert [op.predicate.value.data for op in block.ops if isinstance(op, arith.CmpiOp)] == [6]  # ult
    block, _ = translate("y = u + l", [("u", ui32), ("l", i64)], [("y", i64)])
    assert [n for n in non_const(block) if n != CAST] == ["arith.extui", "arith.addi"]


def test_unsigned_literals_wrap_like_c():
    block, _ = translate("y = u - 1", [("u", ui32)], [("y", ui32)])
    assert constants(block) == [(1, i32)]
    block, _ = translate("y = dace.uint8(-1) + dace.uint32(4294967295)", [], [("y", ui32)])
    assert constants(block) == [(-1, i8), (-1, i32)]  # 255 and 4294967295, as signless bits
    block, _ = translate("c = u > -1", [("u", ui32)], [("c", i1)])  # -1 is 4294967295 (C)
    assert constants(block) == [(-1, i32)]
    assert [op.predicate.value.data for op in block.ops if isinstance(op, arith.CmpiOp)] == [8]  # ugt


def test_unsigned_conversions():
    block, _ = translate("y = float(u)", [("u", ui32)], fout())
    assert non_const(block) == [CAST, "arith.uitofp"]
    block, _ = translate("y = a * 0.5", [("a", ui16)], fout())
    assert non_const(block) == [CAST, "arith.uitofp", "arith.mulf"]
    block, _ = translate("y = dace.uint8(x)", [("x", f32)], [("y", ui8)])
    assert non_const(block) == ["arith.fptoui", CAST]
    block, _ = translate("y = int(u)", [("u", ui32)], iout())  # same width: the same bits
    assert non_const(block) == [CAST]
    block, _ = translate("y = np.uint32(n)", [("n", i32)], [("y", ui32)])
    assert non_const(block) == [CAST]
    block, _ = translate("y = dace.uint16(n)", [("n", i8)], [("y", ui16)])  # C: sign-extends
    assert non_const(block) == ["arith.extsi", CAST]
    block, _ = translate("y = a", [("a", ui8)], [("y", i64)])
    assert non_const(block) == [CAST, "arith.extui"]
    block, _ = translate("y = bool(u)", [("u", ui32)], [("y", i1)])
    assert non_const(block) == [CAST, "arith.cmpi"]


def test_abs_of_unsigned_is_the_value_and_negation_wraps():
    block, _ = translate("y = abs(u)", [("u", ui32)], [("y", ui32)])
    assert list(block.ops) == []
    block, _ = translate("y = -u\nz = ~u", [("u", ui32)], [("y", ui32), ("z", ui32)])
    assert [n for n in non_const(block) if n != CAST] == ["arith.subi", "arith.xori"]


def test_unsigned_select_and_if():
    block, (r,) = translate("y = a\nif b > a:\n    y = b", [("a", ui8), ("b", ui8)], [("y", ui8)])
    select = next(op for op in block.ops if isinstance(op, arith.SelectOp))
    assert select.result.type == i8 and r.type == ui8


def test_unsigned_power():
    block, _ = translate("y = u ** 3", [("u", ui32)], [("y", ui32)])
    assert [n for n in non_const(block) if n != CAST] == ["arith.muli", "arith.muli"]
    with pytest.raises(TaskletError, match="a power of unsigned integers needs a literal exponent"):
        translate("y = u ** v", U32, [("y", ui32)])


# --------------------------------------------------------------------------------------
# Part 1: errors (every TaskletError path)


def err(code: str, inputs=F, outputs=None) -> TaskletError:
    outputs = fout() if outputs is None else outputs
    with pytest.raises(TaskletError) as info:
        translate(code, inputs, outputs)
    assert "\n" not in str(info.value)
    return info.value


def test_error_for_loop_names_construct_and_line():
    e = err("y = a\nfor i in range(3):\n    y = y + 1")
    assert str(e) == "unsupported Python construct 'For' at line 2 of the tasklet"
    assert e.lineno == 2


@pytest.mark.parametrize(
    "code, construct, line",
    [
        ("y = a\nwhile a > 0:\n    pass", "While", 2),
        ("def f(x):\n    return x\ny = a", "FunctionDef", 1),
        ("global g\ny = a", "Global", 1),
        ("import math\ny = a", "Import", 1),
        ("y = a\nreturn y", "Return", 2),
        ("y: dace.float32 = a", "AnnAssign", 1),
        ("y, z = a, b", "Tuple", 1),
        ("y = a\nx[0] = a", "Subscript", 2),
        ("y = a\nx.b = a", "Attribute", 2),
        ("y = a\nb", "Expr", 2),
        ("y = (lambda q: q)(a)", "Lambda", 1),
        ("y = a[0]", "Subscript", 1),
        ("y = [a][0]", "Subscript", 1),
        ("y = a.real", "Attribute", 1),
        ("y = foo.sqrt(a)", "Attribute", 1),
        ("y = np.random.rand()", "Attribute", 1),
        ("y = sqrt(*a)", "Starred", 1),
        ("y = a\nwith a:\n    pass", "With", 2),
        ("y = (z := a)", "NamedExpr", 1),
        ("y = a\ny = f'{a}'", "JoinedStr", 2),
        ("y = a\ndel a", "Delete", 2),
        ("y = a\nassert a", "Assert", 2),
        ("y = a\nraise a", "Raise", 2),
        ("y = a\ntry:\n  pass\nexcept:\n  pass", "Try", 2),
        ("y = a\nclass C:\n  pass", "ClassDef", 2),
        ("y = [a for a in b]", "ListComp", 1),
        ("y = (a, b)", "Tuple", 1),
        ("y = a\nif a:\n  for q in b:\n    pass", "For", 3),
        ("y = dace.float32", "Attribute", 1),
    ],
)
def test_error_unsupported_constructs(code: str, construct: str, line: int):
    e = err(code)
    assert e.message.startswith(f"unsupported Python construct '{construct}'")
    assert e.lineno == line


def test_error_syntax():
    e = err("y = a +\n")
    assert e.message.startswith("syntax error")
    assert e.lineno == 1


def test_error_unknown_name():
    e = err("y = a\nz = foo + 1")
    assert e.message == "unknown name 'foo'" and e.lineno == 2
    assert str(e) == "unknown name 'foo' at line 2 of the tasklet"
    assert err("y = min").message == "unknown name 'min'"


def test_error_unknown_function():
    assert err("y = foo(a)").message == "unknown function 'foo'"
    assert err("y = math.foo(a)").message == "unknown function 'math.foo'"
    assert err("y = np.float128(a)").message == "unknown function 'np.float128'"
    assert err("y = a(b)").message == "'a' is not callable"


def test_error_bad_constants():
    assert err("y = 'abc'").message == "unsupported constant 'abc'"
    assert err("y = None").message == "unsupported constant None"
    assert err("y = 1j * a").message == "unsupported constant 1j"
    assert err("y = 10 ** 30 + n", I, iout()).message == "integer literal 10 ** 30 does not fit in 64 bits"
    e = err("y = 2 ** 62 * 4 + n", I, iout())
    assert e.message == "integer literal 18446744073709551616 does not fit in 64 bits" and e.lineno == 1
    e = err("y = a * (" + " * ".join(["10 ** 18"] * 18) + ")")
    assert e.message.startswith("integer literal") and "too large for f32" in e.message and e.lineno == 1


def test_error_call_arity_and_keywords():
    assert err("y = min(a)").message == "'min' needs at least two arguments"
    assert err("y = abs(a, b)").message == "'abs' expects 1 argument, got 2"
    assert err("y = math.sqrt(a, b)").message == "'math.sqrt' expects 1 argument, got 2"
    assert err("y = pow(a)").message == "'pow' expects 2 arguments, got 1"
    assert err("y = atan2(a)").message == "'atan2' expects 2 arguments, got 1"
    assert err("y = dace.float32(a, b)").message == "'dace.float32' expects 1 argument, got 2"
    assert err("y = max(a, b, key=a)").message == "keyword arguments are not supported in call to 'max'"


def test_error_outputs():
    assert str(err("z = a", outputs=[("y", f32)])) == "output connector 'y' is never assigned"
    e = err("if a > 0:\n    y = a")
    assert e.message == "output connector 'y' is not assigned on every path" and e.lineno is None
    e = err("y += a")
    assert e.message == "output connector 'y' is read before it is assigned" and e.lineno == 1
    e = err("t = y + 1\ny = t")
    assert e.message == "output connector 'y' is read before it is assigned"


def test_error_local_not_assigned_on_every_path():
    e = err("if a > 0:\n    t = a\ny = t")
    assert e.message == "name 't' is not assigned on every path" and e.lineno == 3


def test_error_reserved_name():
    assert err("min = a\ny = a").message == "cannot assign to reserved name 'min'"
    assert err("math = a\ny = a").message == "cannot assign to reserved name 'math'"


def test_error_float_modulo_and_bitwise():
    assert err("y = a % b").message == "'%' on floating-point operands is not supported"
    assert err("y = 5.0 % 2").message == "'%' on floating-point operands is not supported"
    assert err("y = a & b").message == "bitwise operator on floating-point operands"
    assert err("y = 1.0 | 2").message == "bitwise operator on floating-point operands"
    assert err("y = ~a").message == "bitwise operator on floating-point operands"
    assert err("y = ~1.5").message == "bitwise operator on floating-point operands"


def test_bitwise_on_ints_is_supported():
    block, _ = translate("y = (n & m) | (n ^ 3) | (1 & 3)", I, iout())
    assert non_const(block) == ["arith.andi", "arith.xori", "arith.ori", "arith.ori"]


def test_error_unsupported_operators():
    assert err("y = n << 2", I, iout()).message == "unsupported operator 'LShift'"
    assert err("y = 1 >> 2", I, iout()).message == "unsupported operator 'RShift'"
    assert err("y = a @ b").message == "unsupported operator 'MatMult'"
    assert err("y = a is b", outputs=[("y", i1)]).message == "unsupported comparison operator 'Is'"
    assert err("y = a in b", outputs=[("y", i1)]).message == "unsupported comparison operator 'In'"


def test_error_power():
    assert err("y = n ** -1", I, iout()).message == "negative exponent on an integer base"
    assert err("y = 2 ** -1", I, iout()).message == "negative exponent on an integer base"
    assert err("y = (-8.0) ** 0.3").message == "invalid constant power"


def test_error_constant_division_by_zero():
    assert err("y = a * (1 / 0)").message == "division by zero in a constant expression"
    assert err("y = a * (1 % 0)").message == "division by zero in a constant expression"
    assert err("y = a * 0.0 ** -1").message == "division by zero in a constant expression"


def test_error_constant_conversion():
    assert err("y = dace.int32(inf)", outputs=iout()).message == "cannot convert inf to an integer"


def test_error_connector_types():
    with pytest.raises(TaskletError, match="unsupported type index of input connector 'a'"):
        translate_tasklet("y = a", Block(arg_types=[IndexType()]), ["a"], [("y", f32)])
    u64 = IntegerType(64, Signedness.UNSIGNED)
    with pytest.raises(TaskletError, match="unsupported type ui64 of output connector 'y'"):
        translate_tasklet("y = a", Block(arg_types=[f32]), ["a"], [("y", u64)])
    with pytest.raises(TaskletError, match="block has 1 arguments but 2 input connectors"):
        translate_tasklet("y = a", Block(arg_types=[f32]), ["a", "b"], [("y", f32)])


def test_no_eval_or_exec_in_frontend():
    src = Path(__file__).parents[1] / "ipu_lower" / "frontend" / "tasklet.py"
    text = src.read_text()
    assert "eval(" not in text and "exec(" not in text


# --------------------------------------------------------------------------------------
# Part 2: C++ printing


def test_cpp_type():
    assert [cpp_type(t) for t in (f32, f16, f64, i1, i8, i16, i32, i64)] == [
        "float",
        "half",
        "double",
        "bool",
        "signed char",
        "short",
        "int",
        "long long",
    ]
    assert cpp_type(IndexType()) == "unsigned"  # element counts and positions in a codelet
    with pytest.raises(ValueError):
        cpp_type(IntegerType(7))
    with pytest.raises(ValueError):
        cpp_type(IntegerType(3))


def test_cpp_constant():
    def c(value, t):
        attr = FloatAttr(value, t) if t in (f16, f32, f64) else IntegerAttr(value, t, truncate_bits=True)
        return cpp_constant(arith.ConstantOp(attr))

    assert c(0.2, f32) == "0.2f"
    assert c(1.0, f32) == "1.0f"
    assert c(-0.0, f32) == "-0.0f"
    assert c(1e20, f32) == "1e+20f"
    assert c(0.1, f64) == "0.1"
    assert c(2.0, f64) == "2.0"
    assert c(1 / 3, f64) == repr(1 / 3)
    assert c(0.2, f16) == "static_cast<half>(0.2f)"
    assert c(math.inf, f32) == "std::numeric_limits<float>::infinity()"
    assert c(-math.inf, f64) == "-std::numeric_limits<double>::infinity()"
    assert c(math.nan, f32) == "std::numeric_limits<float>::quiet_NaN()"
    assert c(math.inf, f16) == "static_cast<half>(std::numeric_limits<float>::infinity())"
    assert c(42, i32) == "42"
    assert c(-5, i8) == "-5"
    assert c(-(2**31), i32) == "(-2147483647 - 1)"
    assert c(2**40, i64) == "1099511627776LL"
    assert c(7, i64) == "7"
    assert c(-(2**63), i64) == "(-9223372036854775807LL - 1)"
    assert c(1, i1) == "true"
    assert c(0, i1) == "false"
    # f32 literals are exact: the printed text rounds back to the same float
    for v in (0.1, 1 / 3, 3.4028234663852886e38, 1.401298464324817e-45, 123456.789):
        text = c(v, f32)[:-1]
        stored = struct.unpack("f", struct.pack("f", v))[0]
        assert struct.unpack("f", struct.pack("f", float(text)))[0] == stored


def test_cpp_expression_examples():
    blk = Block(arg_types=[f32, f32, i32, i32, i1])
    x, y, n, m, c = blk.args
    assert cpp_expression(arith.AddfOp(x, y), ["x", "y"]) == "(x + y)"
    assert cpp_expression(arith.SelectOp(c, x, y), ["c", "x", "y"]) == "(c ? x : y)"
    assert cpp_expression(arith.FloorDivSIOp(n, m), ["n", "m"]) == "ipu_lower_rt::floordivsi<int>(n, m)"
    assert cpp_expression(arith.FPToSIOp(x, i32), ["x"]) == "static_cast<int>(x)"
    assert cpp_expression(mathd.AbsFOp(x), ["x"]) == "std::fabs(x)"
    assert cpp_expression(mathd.PowFOp(x, y), ["x", "y"]) == "std::pow(x, y)"
    assert cpp_expression(arith.MinimumfOp(x, y), ["x", "y"]) == "ipu_lower_rt::minimumf<float>(x, y)"
    assert cpp_expression(arith.CmpfOp(x, y, "une"), ["x", "y"]) == "(x != y)"
    assert cpp_expression(arith.CmpiOp(n, m, "slt"), ["n", "m"]) == "(n < m)"
    assert cpp_expression(arith.AddiOp(n, m), ["n", "m"]) == (
        "static_cast<int>(static_cast<unsigned int>(n) + static_cast<unsigned int>(m))"
    )
    u = Block(arg_types=[ui8]).args[0]
    assert cpp_expression(UnrealizedConversionCastOp.get([u], [i8]), ["u"]) == "static_cast<signed char>(u)"
    assert cpp_expression(arith.DivUIOp(n, m), ["n", "m"]) == (
        "static_cast<int>((static_cast<unsigned int>(n) / static_cast<unsigned int>(m)))"
    )
    assert cpp_expression(arith.FPToUIOp(x, i8), ["x"]) == "static_cast<signed char>(static_cast<unsigned char>(x))"
    with pytest.raises(ValueError, match="no C\\+\\+ expression for 'math.fma'"):
        cpp_expression(mathd.FmaOp(x, y, x), ["x", "y", "x"])
    with pytest.raises(ValueError):
        cpp_expression(arith.AddfOp(x, y), ["x"])


def test_cpp_helpers_only_use_allowed_headers():
    assert "#include" not in CPP_HELPERS
    assert "namespace ipu_lower_rt {" in CPP_HELPERS
    for line in CPP_HELPERS.splitlines():
        if line.startswith(("template", "inline")) and "(" in line:
            assert "inline" in line, line


# --------------------------------------------------------------------------------------
# C++ generation for the compiled tests


_HAVE_GXX = shutil.which("g++") is not None
needs_gxx = pytest.mark.skipif(not _HAVE_GXX, reason="g++ not available")

_PRELUDE = """#include <cmath>
#include <limits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
typedef _Float16 half;  // host stand-in for the IPU half type
"""


def block_to_cpp_function(
    fname: str, block: Block, results: Sequence[SSAValue], out_types: Sequence[Attribute]
) -> str:
    """One C++ function: inputs by value, outputs by pointer, one `const T vN = <expr>;` per op."""
    names: dict[SSAValue, str] = {}
    params = []
    for k, arg in enumerate(block.args):
        names[arg] = f"in{k}"
        params.append(f"const {cpp_type(arg.type)} in{k}")
    for k, t in enumerate(out_types):
        params.append(f"{cpp_type(t)}* out{k}")
    lines = [f"static void {fname}({', '.join(params)}) {{"]
    for k, op in enumerate(block.ops):
        (res,) = op.results
        names[res] = f"v{k}"
        expr = cpp_expression(op, [names[o] for o in op.operands])
        lines.append(f"  const {cpp_type(res.type)} v{k} = {expr};")
    for k, r in enumerate(results):
        lines.append(f"  *out{k} = {names[r]};")
    lines.append("}")
    return "\n".join(lines)


def _parse_fmt(t: Attribute) -> str:
    if t == f32 or t == f16:
        return "static_cast<{T}>(std::strtod(argv[k++], nullptr))"
    if t == f64:
        return "std::strtod(argv[k++], nullptr)"
    return "static_cast<{T}>(std::strtoll(argv[k++], nullptr, 10))"


def _print_stmt(t: Attribute, var: str) -> str:
    if t in (f16, f32, f64):
        return f'std::printf(" %.17g", static_cast<double>({var}));'
    return f'std::printf(" %lld", static_cast<long long>({var}));'


def build_program(funcs: Sequence[tuple[Sequence[Attribute], Sequence[Attribute]]], bodies: Sequence[str]) -> str:
    """A main() reading `case_id inputs...` groups from argv and printing one output line per group."""
    src = [_PRELUDE, CPP_HELPERS, *bodies, "int main(int argc, char** argv) {", "  int k = 1;"]
    src.append("  while (k < argc) {")
    src.append("    const int c = std::atoi(argv[k++]);")
    src.append("    switch (c) {")
    for idx, (ins, outs) in enumerate(funcs):
        src.append(f"    case {idx}: {{")
        for j, t in enumerate(ins):
            src.append(f"      const {cpp_type(t)} a{j} = {_parse_fmt(t).format(T=cpp_type(t))};")
        for j, t in enumerate(outs):
            src.append(f"      {cpp_type(t)} o{j};")
        args = [f"a{j}" for j in range(len(ins))] + [f"&o{j}" for j in range(len(outs))]
        src.append(f"      case_{idx}({', '.join(args)});")
        for j, t in enumerate(outs):
            src.append("      " + _print_stmt(t, f"o{j}"))
        src.append('      std::printf("\\n");')
        src.append("      break;")
        src.append("    }")
    src.append("    default: return 1;")
    src.append("    }")
    src.append("  }")
    src.append("  return 0;")
    src.append("}")
    return "\n".join(src) + "\n"


def compile_and_run(tmp: Path, source: str, argv: Sequence[str]) -> list[list[str]]:
    cpp = tmp / "prog.cpp"
    exe = tmp / "prog"
    cpp.write_text(source)
    proc = subprocess.run(
        ["g++", "-std=c++17", "-O0", "-Wall", "-Werror", "-Wno-unused-variable", str(cpp), "-o", str(exe)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    out = subprocess.run([str(exe), *argv], capture_output=True, text=True, check=True).stdout
    return [line.split() for line in out.splitlines()]


def parse_output(text: str, t: Attribute) -> float | int:
    return float(text) if t in (f16, f32, f64) else int(text)


def fmt_input(value: float | int | bool, t: Attribute) -> str:
    if t in (f16, f32, f64):
        return repr(float(value))
    return str(int(value))


# --------------------------------------------------------------------------------------
# Compiled semantics of individual ops (MLIR semantics vs. the printed C++)


def _f32(v: float) -> float:
    return struct.unpack("f", struct.pack("f", v))[0]


@dataclass
class OpCase:
    build: Callable[[Sequence[SSAValue]], object]
    ins: list[Attribute]
    out: Attribute
    samples: list[tuple]
    ref: Callable[..., float | int]


def _wrap(v: int, w: int) -> int:
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def _floordiv(a: int, b: int) -> int:
    return a // b


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _minimum(a: float, b: float) -> float:
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b:
        return a if math.copysign(1, a) < 0 else b
    return min(a, b)


def _maximum(a: float, b: float) -> float:
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b:
        return b if math.copysign(1, a) < 0 else a
    return max(a, b)


def _ipowi(b: int, e: int, w: int) -> int:
    if e < 0:
        return 1 if b == 1 else ((1 if e % 2 == 0 else -1) if b == -1 else 0)
    return _wrap(b**e, w)


NAN, INF = math.nan, math.inf
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
FS = [(1.5, -2.0), (-0.0, 0.0), (0.0, -0.0), (NAN, 1.0), (1.0, NAN), (3.0, 3.0), (-INF, 2.0)]

OP_CASES = [
    OpCase(lambda v: arith.AddiOp(*v), [i32, i32], i32, [(INT_MAX, 1), (-5, 3)], lambda a, b: _wrap(a + b, 32)),
    OpCase(lambda v: arith.SubiOp(*v), [i32, i32], i32, [(INT_MIN, 1), (5, 7)], lambda a, b: _wrap(a - b, 32)),
    OpCase(lambda v: arith.MuliOp(*v), [i32, i32], i32, [(65536, 65536), (-7, 9)], lambda a, b: _wrap(a * b, 32)),
    OpCase(lambda v: arith.MuliOp(*v), [i8, i8], i8, [(100, 3), (-128, -1)], lambda a, b: _wrap(a * b, 8)),
    OpCase(lambda v: arith.MuliOp(*v), [i16, i16], i16, [(-32768, -32768), (300, 300)], lambda a, b: _wrap(a * b, 16)),
    OpCase(lambda v: arith.AddiOp(*v), [i64, i64], i64, [(2**63 - 1, 1), (-3, 2**40)], lambda a, b: _wrap(a + b, 64)),
    OpCase(lambda v: arith.AddiOp(*v), [i1, i1], i1, [(1, 1), (1, 0), (0, 0)], lambda a, b: (a + b) % 2),
    OpCase(lambda v: arith.DivSIOp(*v), [i32, i32], i32, [(-7, 2), (7, -2), (7, 2)], _trunc_div),
    OpCase(lambda v: arith.RemSIOp(*v), [i32, i32], i32, [(-7, 2), (7, -2), (7, 2)], lambda a, b: a - _trunc_div(a, b) * b),
    OpCase(lambda v: arith.FloorDivSIOp(*v), [i32, i32], i32, [(-7, 2), (7, -2), (7, 2), (-8, 2), (-1, 5)], _floordiv),
    OpCase(lambda v: arith.FloorDivSIOp(*v), [i8, i8], i8, [(-7, 2), (-128, 3)], _floordiv),
    OpCase(lambda v: arith.MinSIOp(*v), [i32, i32], i32, [(-7, 2), (7, -2)], min),
    OpCase(lambda v: arith.MaxSIOp(*v), [i32, i32], i32, [(-7, 2), (7, -2)], max),
    OpCase(lambda v: arith.MinSIOp(*v), [i1, i1], i1, [(1, 0), (0, 0), (1, 1)], lambda a, b: int(a or b)),
    OpCase(lambda v: arith.MaxSIOp(*v), [i1, i1], i1, [(1, 0), (0, 0), (1, 1)], lambda a, b: int(a and b)),
    OpCase(lambda v: arith.AndIOp(*v), [i32, i32], i32, [(12, 10), (-1, 5)], lambda a, b: a & b),
    OpCase(lambda v: arith.OrIOp(*v), [i8, i8], i8, [(12, 10), (-128, 5)], lambda a, b: a | b),
    OpCase(lambda v: arith.XOrIOp(*v), [i1, i1], i1, [(1, 1), (1, 0)], lambda a, b: a ^ b),
    OpCase(lambda v: arith.MinimumfOp(*v), [f32, f32], f32, FS, _minimum),
    OpCase(lambda v: arith.MaximumfOp(*v), [f32, f32], f32, FS, _maximum),
    OpCase(lambda v: arith.MinimumfOp(*v), [f16, f16], f16, FS, _minimum),
    OpCase(lambda v: arith.MaximumfOp(*v), [f64, f64], f64, FS, _maximum),
    OpCase(lambda v: arith.NegfOp(v[0]), [f32], f32, [(0.0,), (-2.5,)], lambda a: -a),
    OpCase(lambda v: arith.AddfOp(*v), [f16, f16], f16, [(0.1, 0.2), (1000.0, 0.25)], None),
    OpCase(lambda v: mathd.AbsIOp(v[0]), [i32], i32, [(INT_MIN,), (-5,), (7,)], lambda a: _wrap(abs(a), 32)),
    OpCase(lambda v: mathd.AbsIOp(v[0]), [i8], i8, [(-128,), (-5,)], lambda a: _wrap(abs(a), 8)),
    OpCase(lambda v: mathd.AbsIOp(v[0]), [i64], i64, [(-(2**63),), (-5,)], lambda a: _wrap(abs(a), 64)),
    OpCase(lambda v: mathd.AbsFOp(v[0]), [f32], f32, [(-0.0,), (-2.5,)], abs),
    OpCase(lambda v: mathd.IPowIOp(*v), [i32, i32], i32, [(3, 4), (2, 31), (3, 40), (-1, -3), (1, -5), (5, -1), (-2, 3), (7, 0)], lambda b, e: _ipowi(b, e, 32)),
    OpCase(lambda v: mathd.IPowIOp(*v), [i64, i64], i64, [(3, 39), (-3, 41)], lambda b, e: _ipowi(b, e, 64)),
    OpCase(lambda v: mathd.PowFOp(*v), [f32, f32], f32, [(2.0, 0.5), (9.0, 1.5)], lambda a, b: _f32(a**b)),
    OpCase(lambda v: mathd.SqrtOp(v[0]), [f16], f16, [(2.0,)], None),
    OpCase(lambda v: mathd.ExpOp(v[0]), [f64], f64, [(1.0,)], math.exp),
    OpCase(lambda v: mathd.FloorOp(v[0]), [f32], f32, [(-1.5,), (2.5,)], math.floor),
    OpCase(lambda v: mathd.CeilOp(v[0]), [f32], f32, [(-1.5,), (2.5,)], math.ceil),
    OpCase(lambda v: mathd.TruncOp(v[0]), [f32], f32, [(-1.5,), (2.5,)], math.trunc),
    OpCase(lambda v: mathd.CopySignOp(*v), [f32, f32], f32, [(2.0, -0.0)], math.copysign),
    OpCase(lambda v: mathd.Atan2Op(*v), [f64, f64], f64, [(1.0, -1.0)], math.atan2),
    OpCase(lambda v: arith.ExtUIOp(v[0], i32), [i8], i32, [(-1,), (5,)], lambda a: a & 0xFF),
    OpCase(lambda v: arith.ExtUIOp(v[0], i64), [i32], i64, [(-1,)], lambda a: a & 0xFFFFFFFF),
    OpCase(lambda v: arith.ExtUIOp(v[0], i32), [i1], i32, [(1,), (0,)], lambda a: a),
    OpCase(lambda v: arith.ExtSIOp(v[0], i32), [i1], i32, [(1,), (0,)], lambda a: -a),
    OpCase(lambda v: arith.ExtSIOp(v[0], i64), [i8], i64, [(-3,)], lambda a: a),
    OpCase(lambda v: arith.TruncIOp(v[0], i8), [i32], i8, [(300,), (-129,)], lambda a: _wrap(a, 8)),
    OpCase(lambda v: arith.TruncIOp(v[0], i1), [i32], i1, [(2,), (3,)], lambda a: a & 1),
    OpCase(lambda v: arith.SIToFPOp(v[0], f32), [i1], f32, [(1,), (0,)], lambda a: float(-a)),
    OpCase(lambda v: arith.UIToFPOp(v[0], f64), [i32], f64, [(-1,)], lambda a: float(a & 0xFFFFFFFF)),
    OpCase(lambda v: arith.FPToSIOp(v[0], i32), [f32], i32, [(-2.7,), (2.7,)], lambda a: math.trunc(a)),
    OpCase(lambda v: arith.TruncFOp(v[0], f16), [f32], f16, [(0.1,)], None),
    OpCase(lambda v: arith.CmpiOp(*v, "slt"), [i1, i1], i1, [(1, 0), (0, 1)], lambda a, b: int(-a < -b)),
    OpCase(lambda v: arith.CmpiOp(*v, "sge"), [i1, i1], i1, [(1, 0), (0, 1)], lambda a, b: int(-a >= -b)),
    OpCase(lambda v: arith.CmpiOp(*v, "ult"), [i32, i32], i1, [(-1, 1), (1, 2)], lambda a, b: int((a & 0xFFFFFFFF) < (b & 0xFFFFFFFF))),
    OpCase(lambda v: arith.CmpiOp(*v, "uge"), [i8, i8], i1, [(-1, 1), (1, 2)], lambda a, b: int((a & 0xFF) >= (b & 0xFF))),
    OpCase(lambda v: arith.DivUIOp(*v), [i32, i32], i32, [(-1, 2), (7, 2), (-8, -1)], lambda a, b: _wrap((a & 0xFFFFFFFF) // (b & 0xFFFFFFFF), 32)),
    OpCase(lambda v: arith.DivUIOp(*v), [i8, i8], i8, [(-1, 3), (100, 7)], lambda a, b: _wrap((a & 0xFF) // (b & 0xFF), 8)),
    OpCase(lambda v: arith.RemUIOp(*v), [i32, i32], i32, [(-1, 10), (7, 3)], lambda a, b: _wrap((a & 0xFFFFFFFF) % (b & 0xFFFFFFFF), 32)),
    OpCase(lambda v: arith.RemUIOp(*v), [i16, i16], i16, [(-1, 1000), (-300, 7)], lambda a, b: _wrap((a & 0xFFFF) % (b & 0xFFFF), 16)),
    OpCase(lambda v: arith.MinUIOp(*v), [i32, i32], i32, [(-1, 1), (3, 2)], lambda a, b: min(a, b, key=lambda x: x & 0xFFFFFFFF)),
    OpCase(lambda v: arith.MaxUIOp(*v), [i8, i8], i8, [(-1, 1), (3, 2)], lambda a, b: max(a, b, key=lambda x: x & 0xFF)),
    OpCase(lambda v: arith.MinUIOp(*v), [i1, i1], i1, [(1, 0), (1, 1)], lambda a, b: a & b),
    OpCase(lambda v: arith.MaxUIOp(*v), [i1, i1], i1, [(1, 0), (0, 0)], lambda a, b: a | b),
    OpCase(lambda v: arith.FPToUIOp(v[0], i8), [f32], i8, [(200.7,), (3.2,)], lambda a: _wrap(math.trunc(a), 8)),
    OpCase(lambda v: arith.FPToUIOp(v[0], i32), [f32], i32, [(3e9,), (7.9,)], lambda a: _wrap(math.trunc(_f32(a)), 32)),
    OpCase(lambda v: UnrealizedConversionCastOp.get([v[0]], [i8]), [ui8], i8, [(200,), (5,)], lambda a: _wrap(a, 8)),
    OpCase(lambda v: UnrealizedConversionCastOp.get([v[0]], [ui16]), [i16], ui16, [(-1,), (5,)], lambda a: a & 0xFFFF),
    OpCase(lambda v: UnrealizedConversionCastOp.get([v[0]], [ui32]), [i32], ui32, [(-2,)], lambda a: a & 0xFFFFFFFF),
]
_CMPF_REF = {
    "false": lambda a, b, u: False,
    "oeq": lambda a, b, u: not u and a == b,
    "ogt": lambda a, b, u: not u and a > b,
    "oge": lambda a, b, u: not u and a >= b,
    "olt": lambda a, b, u: not u and a < b,
    "ole": lambda a, b, u: not u and a <= b,
    "one": lambda a, b, u: not u and a != b,
    "ord": lambda a, b, u: not u,
    "ueq": lambda a, b, u: u or a == b,
    "ugt": lambda a, b, u: u or a > b,
    "uge": lambda a, b, u: u or a >= b,
    "ult": lambda a, b, u: u or a < b,
    "ule": lambda a, b, u: u or a <= b,
    "une": lambda a, b, u: u or a != b,
    "uno": lambda a, b, u: u,
    "true": lambda a, b, u: True,
}
for _pred, _fn in _CMPF_REF.items():
    OP_CASES.append(
        OpCase(
            (lambda p: lambda v: arith.CmpfOp(*v, p))(_pred),
            [f32, f32],
            i1,
            [(1.0, 2.0), (2.0, 1.0), (1.0, 1.0), (NAN, 1.0)],
            (lambda fn: lambda a, b: int(fn(a, b, math.isnan(a) or math.isnan(b))))(_fn),
        )
    )


@needs_gxx
def test_printed_ops_have_mlir_semantics(tmp_path: Path):
    funcs, bodies, argv, expected = [], [], [], []
    for idx, case in enumerate(OP_CASES):
        block = Block(arg_types=case.ins)
        op = case.build(block.args)
        block.add_op(op)
        op.verify()
        bodies.append(block_to_cpp_function(f"case_{idx}", block, [op.results[0]], [case.out]))
        funcs.append((case.ins, [case.out]))
        for sample in case.samples:
            argv.append(str(idx))
            argv.extend(fmt_input(v, t) for v, t in zip(sample, case.ins))
            expected.append((idx, case, sample))
    results = compile_and_run(tmp_path, build_program(funcs, bodies), argv)
    assert len(results) == len(expected)
    for (idx, case, sample), (text,) in zip(expected, results):
        got = parse_output(text, case.out)
        if case.ref is None:
            continue
        if case.ins[0] in (f32, f16):
            sample = tuple(_f32(s) if isinstance(s, float) else s for s in sample)
        want = case.ref(*sample)
        where = f"case {idx} ({case.build([*Block(arg_types=case.ins).args]).name}) on {sample}"
        if isinstance(want, float) and math.isnan(want):
            assert math.isnan(got), where
        elif case.out == f32:
            assert got == _f32(want) and math.copysign(1, got) == math.copysign(1, want), where
        else:
            assert got == want and math.copysign(1, got) == math.copysign(1, want), where


@needs_gxx
def test_f16_and_helpers_compile_with_pedantic_flags(tmp_path: Path):
    src = _PRELUDE + CPP_HELPERS + "int main() { return ipu_lower_rt::floordivsi<int>(-7, 2) == -4 ? 0 : 1; }\n"
    (tmp_path / "h.cpp").write_text(src)
    proc = subprocess.run(
        ["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", str(tmp_path / "h.cpp"), "-o", str(tmp_path / "h")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert subprocess.run([str(tmp_path / "h")]).returncode == 0


# --------------------------------------------------------------------------------------
# Differential test: translated + printed C++ vs. DaCe's own CPU build of the same tasklet


@dataclass
class DiffCase:
    code: str
    ins: list[tuple[str, Attribute]]
    outs: list[tuple[str, Attribute]]
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)  # default (-5, 5)
    extra: list[tuple] = field(default_factory=list)  # hand-picked samples
    # reference other than DaCe (a documented deviation): compare to this Python function and
    # check that DaCe differs from it on at least one sample
    python_ref: Callable[..., tuple] | None = None
    samples: list[tuple] = field(default_factory=list)


def _rand(rng: np.random.Generator, t: Attribute, lo: float, hi: float, n: int) -> list:
    if t in (f32, f64):
        return [float(np.float32(v)) for v in rng.uniform(lo, hi, n)]
    if t == i1:
        return [bool(v) for v in rng.integers(0, 2, n)]
    return [int(v) for v in rng.integers(int(lo), int(hi) + 1, n)]


FF = [("a", f32), ("b", f32)]
NN = [("n", i32), ("d", i32)]
FFNN = [*FF, *NN]
R32 = [("r", f32)]
RI = [("r", i32)]

DIFF_CASES = [
    DiffCase("r = a * b + 1.5", FF, R32),
    DiffCase("r = (a - b) / (a * a + 3.0)", FF, R32),
    DiffCase("t = a * b\nu = t + a\nr = u * u - t", FF, R32),
    DiffCase("r = a ** 2 + b ** 3 - abs(a) ** 0.5 * 0.5 + abs(b) ** -0.5", FF, R32),
    DiffCase("r = n ** 2 - 3 * n + d ** 3", NN, RI),
    DiffCase("r = n // d", NN, RI, {"n": (0, 50), "d": (1, 7)}),  # negative operands: see below
    DiffCase("r = n % d\nq = n / d", NN, [("r", i32), ("q", i32)], {"n": (-50, 50), "d": (1, 7)},
             extra=[(-7, -2), (7, -3), (-7, 2), (7, -2)]),
    DiffCase("r = a // b", FF, R32, {"a": (-10, 10), "b": (0.5, 3)}),
    DiffCase("if a > b:\n    r = a\nelse:\n    r = b", FF, R32),
    # DaCe scopes a local first assigned inside a branch to that branch: declare it first
    DiffCase("s = 0\nif n > 3:\n    s = 1\nelif n > 0:\n    s = 2\nelse:\n    s = 3\nr = s * n",
             NN, RI, {"n": (-3, 8)}),
    DiffCase("r = a if a > 0 else -a\nq = 1.5 if a > b else 2.5", FF, [("r", f32), ("q", f32)]),
    DiffCase("r = min(a, b) + max(a, 0.5) + min(a, b, 1.0)", FF, R32),
    DiffCase("r = min(n, d) * max(n, 3) + max(n, d, 0)", NN, RI),
    DiffCase("r = abs(a) + abs(n)", [("a", f32), ("n", i32)], R32),
    DiffCase("r = sqrt(abs(a)) + exp(b * 0.1) + math.sqrt(abs(b))", FF, R32),
    DiffCase("r = log(abs(a) + 1.0) + math.log(abs(b) + 2.0) * tanh(a)", FF, R32),
    DiffCase("r = sin(a) * cos(b) + math.exp(-abs(a))", FF, R32),
    DiffCase("r = floor(a) + ceil(b)", FF, R32),
    DiffCase("c1 = a < b\nc2 = (a < b) and not (n == 3)\nc3 = (0 < n) and (n <= 3)\nc4 = a >= b or n != 2",
             [*FF, ("n", i32)], [("c1", i1), ("c2", i1), ("c3", i1), ("c4", i1)], {"n": (-1, 5)}),
    DiffCase("r = float(n) * 0.5\nq = int(a) + int(b * 3.0)", [*FF, ("n", i32)], [("r", f32), ("q", i32)]),
    DiffCase("r = dace.float32(n) / dace.float32(3)\nq = dace.int32(a * 10.0)", [("a", f32), ("n", i32)],
             [("r", f32), ("q", i32)]),
    DiffCase("r = n\nr += d\nr *= 2\nr -= 7", NN, RI),
    DiffCase("acc = a\nacc += b\nacc *= 2.0\nacc /= 4.0\nr = acc", FF, R32),
    DiffCase("r = n * a + d", [("a", f32), *NN], R32, {"n": (-100, 100), "d": (-100, 100)}),
    DiffCase("r = n + l * 3", [("n", i32), ("l", i64)], [("r", i64)], {"n": (-1000, 1000), "l": (-(10**12), 10**12)}),
    DiffCase("r = (a if n > 0 else b) * (2 if d > 0 else 3)", FFNN, R32),
    DiffCase("y = a\nif n > 0:\n    y = b\n    if d > 0:\n        y = a + b\nr = y", FFNN, R32),
    DiffCase("r = n if flag else d\nq = not flag", [*NN, ("flag", i1)], [("r", i32), ("q", i1)]),
    DiffCase("r = a * 0.1 + dace.float32(0.2) * b", FF, R32),
    DiffCase("r = a\nr = r * n", [("a", f32), ("n", i32)], RI),  # r is converted to int at once
    # `//` on negative ints truncates like DaCe's ifloor(n / d) (Python would give -4 for -7 // 2)
    DiffCase("r = n // d", NN, RI, {"n": (-50, 50), "d": (1, 7)},
             extra=[(-7, 2), (7, -2), (-1, 3), (-8, 2), (7, 2), (-7, -2), (-1, -3)]),
    # documented deviation: DaCe prints `0 < n <= 3` verbatim, i.e. C++ `(0 < n) <= 3`
    DiffCase("r = 0 < n <= 3\nq = a < b < 2.0", [*FF, ("n", i32)], [("r", i1), ("q", i1)],
             extra=[(1.0, 3.0, 5), (1.0, 3.0, 2), (3.0, 1.0, -1), (0.0, 1.0, 0)],
             python_ref=lambda a, b, n: (0 < n <= 3, a < b < 2.0)),
    # unsigned: uint8/uint16 are promoted to int, results wrap into the output's width
    DiffCase("r = a + b\nq = a - b\np = a * b\nm = -a", [("a", ui8), ("b", ui8)],
             [("r", ui8), ("q", ui8), ("p", ui8), ("m", ui8)], {"a": (0, 255), "b": (0, 255)},
             extra=[(255, 1), (0, 1), (16, 16)]),
    DiffCase("r = (a + b) // 2\nq = a % (b + 1)\nc = a < b\ns = max(a, b) - min(a, b)",
             [("a", ui16), ("b", ui16)], [("r", ui16), ("q", ui16), ("c", i1), ("s", ui16)],
             {"a": (0, 65535), "b": (0, 65535)}, extra=[(65535, 65535), (0, 65535)]),
    # uint32 stays unsigned: unsigned division, comparison and min/max, wrapping - and ~
    DiffCase("r = u / v\nq = u % v\ns = min(u, v) + max(u, v)\nc = u >= v\nd = u - v\ne = ~u",
             [("u", ui32), ("v", ui32)], [("r", ui32), ("q", ui32), ("s", ui32), ("c", i1), ("d", ui32), ("e", ui32)],
             {"u": (0, 2**32 - 1), "v": (1, 2**32 - 1)}, extra=[(2**32 - 1, 2), (3, 2**31 + 5), (0, 1)]),
    # int32 meets uint32 as unsigned (n = -1 is 4294967295); int64 holds every uint32
    DiffCase("c = u < n\nr = u + n\nl = u + w", [("u", ui32), ("n", i32), ("w", i64)],
             [("c", i1), ("r", ui32), ("l", i64)], {"u": (0, 2**32 - 1), "n": (-5, 5), "w": (-5, 5)},
             extra=[(7, -1, -1), (2**32 - 1, 1, 1)]),
    # conversions from and to float and signed types
    DiffCase("r = float(a) * 0.5 + dace.float32(u)\nq = dace.uint8(x)\np = dace.uint32(n)\nk = int(u)",
             [("a", ui16), ("u", ui32), ("x", f32), ("n", i32)],
             [("r", f32), ("q", ui8), ("p", ui32), ("k", i32)],
             {"a": (0, 65535), "u": (0, 2**32 - 1), "x": (0, 255), "n": (-100, 100)}),
]


def _diff_cases() -> list[DiffCase]:
    rng = np.random.default_rng(1234)
    for c in DIFF_CASES:
        random = [] if c.extra and c.python_ref is not None else list(
            zip(*[_rand(rng, t, *c.ranges.get(name, (-5, 5)), 8) for name, t in c.ins])
        )
        c.samples = list(c.extra) + random
    return DIFF_CASES


def _dace_run(cases: list[DiffCase]) -> list[list[tuple]]:
    dace = pytest.importorskip("dace")
    from dace.dtypes import typeclass
    from dace_reference import dace_build

    dtypes: dict[Attribute, typeclass] = {
        f32: dace.float32,
        f64: dace.float64,
        i32: dace.int32,
        i64: dace.int64,
        i1: dace.bool_,
        ui8: dace.uint8,
        ui16: dace.uint16,
        ui32: dace.uint32,
    }
    np_types = {f32: np.float32, f64: np.float64, i32: np.int32, i64: np.int64, i1: np.bool_,
                ui8: np.uint8, ui16: np.uint16, ui32: np.uint32}
    sdfg = dace.SDFG("tasklet_differential")
    state = sdfg.add_state()
    arrays: dict[str, np.ndarray] = {}
    for k, c in enumerate(cases):
        s = len(c.samples)
        inputs, outputs = {}, {}
        for j, (name, t) in enumerate(c.ins):
            arr = f"c{k}_in_{name}"
            sdfg.add_array(arr, [s], dtypes[t])
            arrays[arr] = np.array([smp[j] for smp in c.samples], dtype=np_types[t])
            inputs[name] = dace.Memlet(f"{arr}[i]")
        for name, t in c.outs:
            arr = f"c{k}_out_{name}"
            sdfg.add_array(arr, [s], dtypes[t])
            arrays[arr] = np.zeros(s, dtype=np_types[t])
            outputs[name] = dace.Memlet(f"{arr}[i]")
        state.add_mapped_tasklet(
            f"case{k}", {"i": f"0:{s}"}, inputs, c.code, outputs, external_edges=True
        )
    sdfg.validate()
    compiled = dace_build(sdfg)
    compiled(**arrays)
    results = []
    for k, c in enumerate(cases):
        cols = [arrays[f"c{k}_out_{name}"] for name, _ in c.outs]
        results.append([tuple(col[s].item() for col in cols) for s in range(len(c.samples))])
    return results


def _ours_run(cases: list[DiffCase], tmp: Path) -> list[list[tuple]]:
    funcs, bodies, argv, index = [], [], [], []
    for k, c in enumerate(cases):
        block, results = translate(c.code, c.ins, c.outs)
        bodies.append(block_to_cpp_function(f"case_{k}", block, results, [t for _, t in c.outs]))
        funcs.append(([t for _, t in c.ins], [t for _, t in c.outs]))
        for smp in c.samples:
            argv.append(str(k))
            argv.extend(fmt_input(v, t) for v, (_, t) in zip(smp, c.ins))
            index.append(k)
    lines = compile_and_run(tmp, build_program(funcs, bodies), argv)
    per_case: list[list[tuple]] = [[] for _ in cases]
    for k, line in zip(index, lines, strict=True):
        per_case[k].append(tuple(parse_output(v, t) for v, (_, t) in zip(line, cases[k].outs, strict=True)))
    return per_case


def _close(got: float, want: float, t: Attribute) -> bool:
    if t in (f32, f64, f16):
        return bool(np.isclose(got, want, rtol=2e-6, atol=1e-6))
    return int(got) == int(want)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_differential_against_dace(tmp_path: Path):
    cases = _diff_cases()
    assert len(cases) >= 25
    ours = _ours_run(cases, tmp_path)
    theirs = _dace_run(cases)
    failures = []
    for k, c in enumerate(cases):
        dace_differs = False
        for s, smp in enumerate(c.samples):
            mine, dace_out = ours[k][s], theirs[k][s]
            want = c.python_ref(*smp) if c.python_ref is not None else dace_out
            for (name, t), g, w, dv in zip(c.outs, mine, want, dace_out):
                if not _close(g, float(w), t):
                    failures.append(f"case {k} {c.code!r} on {smp}: {name} = {g}, expected {w}")
                if not _close(g, float(dv), t):
                    dace_differs = True
        if c.python_ref is not None:
            assert dace_differs, f"case {k}: DaCe now agrees with the Python reference; revisit the decision"
    assert not failures, "\n".join(failures)
