"""The call boundary of a compiled program (issue 11): the C ABI checks element counts,
program.json must match the compiled code, the Python callable checks writability and
scalars, and one program may be called from several threads."""

# No `from __future__ import annotations`: DaCe reads the programs' annotations.
import ctypes
import json
import shutil
import threading
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ipu_lower
from ipu_lower.emit import lower_program
from ipu_lower.examples.clamp import clamp
from ipu_lower.examples.saxpy import saxpy
from ipu_lower.program import Program
from ipu_lower.runtime import CompiledProgram, ProgramError

N = 8


@pytest.fixture(scope="module")
def saxpy8():
    program = ipu_lower.compile(saxpy, symbols={"N": N}, prefer="codelet")  # a compute set to measure
    yield program
    program.close()


@pytest.fixture(scope="module")
def clamp8():
    program = ipu_lower.compile(clamp, symbols={"N": N})
    yield program
    program.close()


def _data():
    return np.arange(N, dtype=np.float32), np.ones(N, np.float32)


# --- the C ABI and program.json -------------------------------------------------------


def test_run_refuses_an_array_of_another_element_count_before_touching_it(saxpy8):
    compiled = saxpy8.last
    x, y = _data()
    short = np.ones(4, np.float32)
    assert compiled._run(ctypes.c_float(2), short.ctypes.data, short.size, y.ctypes.data, y.size) == 1
    assert compiled._last_error().decode() == (
        "saxpy_run: argument 'x' has 4 elements, the program was compiled for 8"
    )
    assert compiled._run(ctypes.c_float(2), x.ctypes.data, x.size, None, y.size) == 1
    assert "argument 'y' has 8 elements at a null pointer" in compiled._last_error().decode()
    np.testing.assert_array_equal(y, np.ones(N, np.float32))


def test_a_program_json_that_disagrees_with_the_compiled_code_is_refused(saxpy8, tmp_path):
    directory = tmp_path / "saxpy"
    shutil.copytree(saxpy8.directory, directory)
    manifest = json.loads((directory / "program.json").read_text())
    manifest["arguments"][1]["shape"] = manifest["arguments"][2]["shape"] = [4]
    (directory / "program.json").write_text(json.dumps(manifest))
    with pytest.raises(ProgramError, match=r"program.json: its arguments \(a: float32\[\], x: float32\[4\], "
                       r"y: float32\[4\] \(output\)\) are not those of the compiled program \(a: float32\[\], "
                       r"x: float32\[8\]"):
        CompiledProgram(directory)


@pytest.mark.parametrize("edit, message", [
    (lambda e: e.update(steps={}), "'estimate.steps' must be a list"),
    (lambda e: e["steps"][0].pop("exact"), r"'estimate.steps\[0\]' must be an object of kind, name, busiest_tile_bytes"),
    (lambda e: e["steps"][0].update(kind=3), r"'estimate.steps\[0\]'.kind and .name must be strings"),
    (lambda e: e["steps"][0].update(syncs=-1), r"'estimate.steps\[0\]'.syncs must be a non-negative integer"),
    (lambda e: e["steps"][0].update(exact=1), r"'estimate.steps\[0\]'.exact, .conditional and .modelled must be true or false"),
    (lambda e: e["steps"][0].update(within="p"), r"'estimate.steps\[0\]'.within must name a while loop"),
])
def test_a_damaged_plan_in_program_json_is_refused(saxpy8, tmp_path, edit, message):
    directory = tmp_path / "saxpy"
    shutil.copytree(saxpy8.directory, directory)
    manifest = json.loads((directory / "program.json").read_text())
    edit(manifest["estimate"])
    (directory / "program.json").write_text(json.dumps(manifest))
    with pytest.raises(ProgramError, match=message):
        CompiledProgram(directory)


# --- arrays and scalars ---------------------------------------------------------------


def _read_only_memmap(tmp_path):
    np.ones(N, np.float32).tofile(tmp_path / "y.bin")
    return np.memmap(tmp_path / "y.bin", dtype=np.float32, mode="r", shape=(N,))


def _not_writeable():
    y = np.ones(N, np.float32)
    y.flags.writeable = False
    return y


@pytest.mark.parametrize("make", [
    _read_only_memmap,
    lambda _: _not_writeable(),
    lambda _: np.frombuffer(np.ones(N, np.float32).tobytes(), np.float32),
], ids=["memmap", "writeable-false", "frombuffer-bytes"])
def test_a_read_only_output_is_refused_and_left_alone(saxpy8, tmp_path, make):
    y = make(tmp_path)
    with pytest.raises(ValueError, match="argument 'y' is read-only, and the program writes it"):
        saxpy8(2.0, np.arange(N, dtype=np.float32), y)
    np.testing.assert_array_equal(y, np.ones(N, np.float32))


def test_a_read_only_input_is_fine(saxpy8):
    x, y = _data()
    x.flags.writeable = False
    saxpy8(2.0, x, y)
    np.testing.assert_array_equal(y, 2 * np.arange(N) + 1)


@pytest.mark.parametrize("value, error, message", [
    (None, TypeError, "argument 'a' must be a real number \\(float32 scalar\\), got NoneType"),
    ("2", TypeError, "got str"),
    (True, TypeError, "got bool"),
    (np.bool_(True), TypeError, "got bool"),
    (1 + 2j, TypeError, "got complex"),
    (1e39, OverflowError, "argument 'a' is beyond the range of float32, got 1e\\+39"),
    (np.float64(-1e39), OverflowError, "argument 'a' is beyond the range of float32"),
    (10**400, OverflowError, "argument 'a' is beyond the range of float32"),
])
def test_a_float_scalar_of_the_wrong_kind_or_range_is_an_error(saxpy8, value, error, message):
    x, y = _data()
    with pytest.raises(error, match=message):
        saxpy8(value, x, y)
    np.testing.assert_array_equal(y, np.ones(N, np.float32))


@pytest.mark.parametrize("value, error, message", [
    (2.7, TypeError, "argument 'lo' must be an integer \\(int32 scalar\\), got float"),
    (np.float64(2.0), TypeError, "got float64"),
    (None, TypeError, "got NoneType"),
    (True, TypeError, "got bool"),
    (2**32 + 5, OverflowError, "argument 'lo' must be a int32 scalar \\(-2147483648 to 2147483647\\), got 4294967301"),
    (np.uint64(2**63), OverflowError, "got 9223372036854775808"),
])
def test_an_int_scalar_of_the_wrong_kind_or_range_is_an_error(clamp8, value, error, message):
    x, y = np.arange(N, dtype=np.int32), np.zeros(N, np.int32)
    with pytest.raises(error, match=message):
        clamp8(x, value, 5, y)
    assert not y.any()


@pytest.mark.parametrize("a", [2, 2.0, np.float32(2), np.float64(2), np.int64(2), np.uint8(2), np.array(2.0)])
def test_numbers_of_a_compatible_kind_are_accepted(saxpy8, a):
    x, y = _data()
    saxpy8(a, x, y)
    np.testing.assert_array_equal(y, 2 * np.arange(N) + 1)


def test_inf_and_nan_given_as_such_pass(saxpy8):
    x, y = _data()
    saxpy8(float("inf"), x + 1, y)
    assert np.isinf(y).all()


# --- threads and reports --------------------------------------------------------------


def _in_threads(count: int, work) -> list:
    results: list = [None] * count

    def run(k: int) -> None:
        try:
            results[k] = work(k)
        except Exception as err:  # noqa: BLE001 - reported by the assertion below
            results[k] = err

    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.fixture(scope="module")
def saxpy_large():
    """Runs long enough for calls from several threads to overlap (at N = 8 they rarely do)."""
    program = ipu_lower.compile(saxpy, symbols={"N": LARGE})
    yield program
    program.close()


LARGE = 20000


@pytest.mark.parametrize("callable_of", [lambda p: p, lambda p: p.last], ids=["Program", "CompiledProgram"])
def test_four_threads_calling_one_program_all_get_their_answer(saxpy_large, callable_of):
    program = callable_of(saxpy_large)

    def work(k: int) -> bool:
        for repeat in range(6):
            x = np.full(LARGE, k + 1, np.float32)
            y = np.full(LARGE, repeat, np.float32)
            program(np.float32(k), x, y)
            if not (y == k * (k + 1) + repeat).all():
                return False
        return True

    assert _in_threads(4, work) == [True] * 4


def test_two_programs_of_one_library_share_its_engine_until_both_close(saxpy8):
    # dlopen gives both the same state: closing one must not close the other's Engine
    first, second = CompiledProgram(saxpy8.directory), CompiledProgram(saxpy8.directory)
    first.close()
    x, y = _data()
    second(2.0, x, y)
    np.testing.assert_array_equal(y, 2 * np.arange(N) + 1)
    second.close()
    x, y = _data()
    saxpy8(2.0, x, y)  # the fixture's own program still runs
    np.testing.assert_array_equal(y, 2 * np.arange(N) + 1)


def test_what_a_program_measured_is_its_own_last_run(saxpy8):
    # one library holds one Engine: once the other program has run, the first's
    # measurement is gone, and asking for it is an error rather than the other's numbers
    first, second = CompiledProgram(saxpy8.directory), CompiledProgram(saxpy8.directory)
    assert first.measured is None  # before any call
    x, y = _data()
    first(2.0, x, y)
    (updates,) = first.measured.compute_sets
    assert updates.runs == 1 and sum(written for _, _, written in updates.vertices) == N
    second(2.0, x, y)
    assert first.measured.compute_sets == (updates,)  # read before: kept
    third = CompiledProgram(saxpy8.directory)
    third(2.0, x, y)
    with pytest.raises(ProgramError, match="another program of the same library ran after this one's last call"):
        second.measured
    for program in (first, second, third):
        program.close()


def test_a_symbol_set_is_built_once_when_threads_ask_for_it_together():
    builds = []

    def build(values):
        builds.append(values)
        time.sleep(0.05)
        return object()

    program = Program("p", ["A"], {}, ["N"], {}, build)
    built = _in_threads(4, lambda _: program.specialize({"N": 3}))
    assert builds == [{"N": 3}] and all(b is built[0] for b in built)


def test_a_failed_run_leaves_no_report(saxpy8):
    compiled = CompiledProgram(saxpy8.directory)
    x, y = _data()
    compiled(2.0, x, y)
    assert compiled.cycles is not None
    compiled._run = lambda *_: 1  # a run the program reports failed
    compiled._last_error = lambda: b"saxpy_run: failed"
    with pytest.raises(ProgramError, match="saxpy_run: failed"):
        compiled(2.0, x, y)
    assert compiled.report is None and compiled.cycles is None
    compiled.close()


# --- symbols ----------------------------------------------------------------------------


@pytest.mark.parametrize("symbols, message", [
    ({"N": "4,M=5"}, "symbol 'N' must be a non-negative integer below 2\\*\\*63, got '4,M=5'"),
    ({"N": True}, "got True"),
    ({"N": 2**64}, "got 18446744073709551616"),
    ({"N": 4.0}, "got 4.0"),
    ({"N=4,M": 5}, "symbol names must be identifiers, got 'N=4,M'"),
])
def test_symbol_values_are_checked_ints_wherever_they_enter(symbols, message):
    with pytest.raises(TypeError, match=message):
        ipu_lower.compile(saxpy, symbols=symbols)
    with pytest.raises(TypeError, match=message):
        lower_program(saxpy, symbols, "ipu2")


# --- properties -------------------------------------------------------------------------

# No subnormals: a DaCe program built earlier in the same pytest worker is compiled with
# -ffast-math, which flushes them to zero for the whole process, and Hypothesis then refuses
# to draw them.
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.text(max_size=3), st.complex_numbers(allow_nan=False, allow_subnormal=False),
    st.integers(min_value=-(2**70), max_value=2**70), st.floats(allow_nan=False, width=64, allow_subnormal=False),
    st.integers(min_value=-(2**40), max_value=2**40).map(np.int64),
    st.floats(allow_nan=False, allow_infinity=False, width=32, allow_subnormal=False).map(np.float32),
)
_DTYPES = st.sampled_from([np.float32, np.float64, np.int32, np.float16])


@st.composite
def _arrays(draw):
    """A float32[8]-like array: maybe another dtype or shape, strided, reversed or read-only."""
    dtype = draw(_DTYPES)
    size = draw(st.sampled_from([N, N, N, 4, 16]))
    step = draw(st.sampled_from([1, 1, 2, -1]))
    base = (np.arange(size * abs(step), dtype=dtype) + 1)[::step]
    array = base.reshape(draw(st.sampled_from([(size,), (size,), (2, size // 2)])))
    if draw(st.booleans()):
        array.flags.writeable = False
    return array


def _named_error(error: Exception) -> bool:
    return isinstance(error, TypeError | ValueError | OverflowError) and (
        "argument 'a'" in str(error) or "argument 'x'" in str(error) or "argument 'y'" in str(error)
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=_SCALARS, x=_arrays(), y=_arrays())
def test_saxpy_runs_like_numpy_or_refuses_an_argument_by_name(saxpy8, a, x, y):
    before = y.copy()
    try:
        saxpy8(a, x, y)
    except Exception as error:  # noqa: BLE001 - checked below
        assert _named_error(error), repr(error)
        np.testing.assert_array_equal(y, before)
        return
    assert x.dtype == y.dtype == np.float32 and x.shape == y.shape == (N,) and y.flags.writeable
    with np.errstate(over="ignore", invalid="ignore"):
        expected = np.float32(a) * x + before
    np.testing.assert_allclose(y, expected, rtol=1e-6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lo=_SCALARS, hi=st.integers(min_value=-(2**33), max_value=2**33))
def test_clamp_runs_like_numpy_or_refuses_a_scalar_by_name(clamp8, lo, hi):
    x, y = np.arange(-N, N, 2, dtype=np.int32), np.zeros(N, np.int32)
    try:
        clamp8(x, lo, hi, y)
    except (TypeError, OverflowError) as error:
        assert "argument 'lo'" in str(error) or "argument 'hi'" in str(error), repr(error)
        assert not y.any()
        return
    assert -(2**31) <= int(lo) < 2**31 and -(2**31) <= hi < 2**31
    np.testing.assert_array_equal(y, np.minimum(np.maximum(x, lo), hi))
