"""Constants of an SDFG (DaCe's `constants_prop`: array literals of a program) reach the
device: built with `ipu_lower.compile`, run on the emulator and compared with DaCe's CPU
result (with numpy where DaCe cannot build the program). What the importer cannot
translate, or the demotion cannot represent, is a located error naming the constant."""

import dace
import numpy as np
import pytest

import ipu_lower
from ipu_lower.diagnostics import CompileError
from ipu_lower.emit import lower_program
from ipu_lower.frontend.importer import SdfgImportError, import_sdfg
from ipu_lower.frontend.sdfg_json import sdfg_from_json_safely, validate_sdfg_json
from test_e2e import assert_same, run_dace, run_ipu

RNG = np.random.default_rng(21)


@dace.program
def assign_2d(B: dace.float32[2, 2]):
    B[:] = np.array([[1, 2], [3, 4]], dtype=np.float32)


@dace.program
def add_1d(A: dace.float32[5], B: dace.float32[5]):
    B[:] = A + np.array([1, 2, 3, 4, 5.5], dtype=np.float32)


@dace.program
def int_2d(A: dace.int32[2, 3], B: dace.int32[2, 3]):
    B[:] = A * np.array([[1, -2, 3], [4, 5, -2147483647]], dtype=np.int32)


@pytest.mark.parametrize("program, arrays", [
    (assign_2d, {"B": np.zeros((2, 2), np.float32)}),
    (add_1d, {"A": RNG.random(5, dtype=np.float32), "B": np.zeros(5, np.float32)}),
    (int_2d, {"A": RNG.integers(-3, 3, (2, 3), dtype=np.int32), "B": np.zeros((2, 3), np.int32)}),
])
def test_array_literals_match_dace(program, arrays):
    ours, _ = run_ipu(program, arrays, {})
    assert_same(ours, run_dace(program, arrays, {}), ["B"])


@dace.program
def half_scale(A: dace.float16[3], B: dace.float16[3]):
    B[:] = A * np.array([0.5, 2, 65504], dtype=np.float16)


def test_float16_literal_is_exact():
    # DaCe's CPU code cannot build a float16 constant (a constexpr of dace::half): numpy
    A = np.array([3, 0.25, 1], np.float16)
    B = np.zeros(3, np.float16)
    ipu_lower.compile(half_scale)(A, B)
    np.testing.assert_array_equal(B, A * np.array([0.5, 2, 65504], np.float16))


@dace.program
def double_shift(A: dace.float64[3], B: dace.float64[3]):
    B[:] = A + np.array([0.1, 2, 3e10], dtype=np.float64)


@dace.program
def double_overflow(A: dace.float64[2], B: dace.float64[2]):
    B[:] = A + np.array([1, 1e300], dtype=np.float64)


def test_float64_literal_is_demoted_with_an_overflow_check():
    A, B = RNG.random(3), np.zeros(3)
    ipu_lower.compile(double_shift, demote_f64=True)(A, B)
    np.testing.assert_allclose(B, A + np.array([0.1, 2, 3e10]), rtol=1e-6)
    with pytest.raises(CompileError, match="constant container '__tmp0' holds 1e[+]300, which f32 cannot represent; it cannot be demoted"):
        ipu_lower.compile(double_overflow, demote_f64=True)


def _scaled_by_constant(shape, value, transient=True) -> dace.SDFG:
    """B = A * k, `k` a constant of the SDFG that a map reads (a scalar when `shape` is
    empty)."""
    sdfg = dace.SDFG("scaled")
    sdfg.add_array("A", [4], dace.float32)
    sdfg.add_array("B", [4], dace.float32)
    if shape:
        sdfg.add_array("k", shape, dace.float32, transient=transient)
    else:
        sdfg.add_scalar("k", dace.float32, transient=transient)
    sdfg.add_constant("k", value, sdfg.arrays["k"])
    state = sdfg.add_state()
    entry, exit_ = state.add_map("m", {"i": "0:4"})
    tasklet = state.add_tasklet("t", {"a", "c"}, {"b"}, "b = a * c")
    index = "k[i]" if shape else "k[0]"
    state.add_memlet_path(state.add_read("A"), entry, tasklet, dst_conn="a", memlet=dace.Memlet("A[i]"))
    state.add_memlet_path(state.add_read("k"), entry, tasklet, dst_conn="c", memlet=dace.Memlet(index))
    state.add_memlet_path(tasklet, exit_, state.add_write("B"), src_conn="b", memlet=dace.Memlet("B[i]"))
    return sdfg


@pytest.mark.parametrize("shape, value", [([], np.float32(2.5)), ([4], np.array([1, -2, 0.5, 8], np.float32))])
def test_constant_scalars_and_arrays_built_as_sdfgs_match_dace(shape, value):
    sdfg = _scaled_by_constant(shape, value)
    arrays = {"A": RNG.random(4, dtype=np.float32), "B": np.zeros(4, np.float32)}
    ours, _ = run_ipu(sdfg, arrays, {})
    np.testing.assert_allclose(ours["B"], arrays["A"] * value, rtol=1e-6)
    assert_same(ours, run_dace(sdfg, arrays, {}), ["B"])


def test_a_large_constant_is_printed_as_hex():
    n = 100_000
    value = RNG.random(n, dtype=np.float32)
    module = import_sdfg(_scaled_by_constant([n], value))
    text = str(module)
    assert 'dense<"0x' in text and len(text) < 3 * 4 * n  # one hex string, not a literal per value
    lowered = str(lower_program(_scaled_by_constant([n], value), {}, "ipu2"))
    assert 'poplar.add_constant "k" : !poplar.tensor<100000xf32> = dense<"0x' in lowered


@pytest.mark.parametrize("shape, value, transient, message", [
    ([4], np.ones(4, np.float32), False, "constant 'k' is an argument; only transient constants are supported"),
    ([4], np.ones(3, np.float32), True, r"constant 'k' holds \[3\] values but its container has shape \[4\]"),
    ([4], np.array([1, 2, 3, 1e300]), True, "constant 'k' holds 1e[+]300, which f32 cannot represent"),
    ([4], np.array(["a", "b", "c", "d"]), True, "constant 'k' holds <U1 values, not numbers"),
])
def test_constants_the_importer_cannot_translate_are_errors_naming_them(shape, value, transient, message):
    with pytest.raises(SdfgImportError, match=f"^SDFG 'scaled': {message}$"):
        import_sdfg(_scaled_by_constant(shape, value, transient))


def test_a_scalar_constant_of_a_file_must_be_a_value_of_its_type():
    # DaCe's JSON keeps a scalar constant as its text, which the importer reads as its type
    obj = _scaled_by_constant([], np.float32(2.5)).to_json()
    obj["attributes"]["constants_prop"]["k"][0]["attributes"]["dtype"] = "int32"
    obj["attributes"]["_arrays"]["k"]["attributes"]["dtype"] = "int32"
    validate_sdfg_json(obj)
    with pytest.raises(SdfgImportError, match="^SDFG 'scaled': constant 'k' holds '2.5', which i32 cannot represent$"):
        import_sdfg(sdfg_from_json_safely(obj))
