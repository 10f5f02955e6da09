"""The Python API's errors (ipu_lower.emit, ipu_lower.compile): one exception type,
CompileError, one line with its location and stage, no notes; ipu-opt's:
tests/test_diagnostics_cli.py."""

# No `from __future__ import annotations`: DaCe reads the programs' annotations.
import inspect
import warnings

import dace
import numpy as np
import pytest
from xdsl.utils.exceptions import VerifyException

from ipu_lower.diagnostics import CompileError
from ipu_lower.emit import emit_program, lower_program, to_sdfg
from ipu_lower.examples.saxpy import saxpy
from ipu_lower.targets.poplar_cpp import PoplarCppTarget


def failing(err: Exception):
    def fail(*args, **kwargs):
        raise err

    return fail


def test_the_api_raises_one_located_compile_error(monkeypatch):
    notes = VerifyException("bad op\n  %0 = \"x.y\"() : () -> ()")
    notes.add_note("the whole module, printed")
    monkeypatch.setattr(PoplarCppTarget, "emit", failing(notes))
    with pytest.raises(CompileError) as info:
        emit_program(saxpy, {"N": 8}, None)
    err = info.value
    assert str(err) == 'error: bad op %0 = "x.y"() : () -> ()'
    assert (err.stage, err.location, err.message) == ("emit", "", 'bad op %0 = "x.y"() : () -> ()')
    assert not hasattr(err, "__notes__") and err.__cause__ is None


def test_an_internal_error_names_its_pass(monkeypatch):
    monkeypatch.setattr("ipu_lower.passes.sdfg_fuse_maps.SdfgFuseMapsPass.apply", failing(AssertionError()))
    with pytest.raises(CompileError) as info:
        emit_program(saxpy, {"N": 8}, None)
    assert (info.value.stage, info.value.location) == ("lower", "pass 'sdfg-fuse-maps'")
    assert info.value.message == "internal error in lower (AssertionError); set IPU_LOWER_DEBUG=1 for a traceback"


def test_the_api_locates_errors_of_the_passes():
    with pytest.raises(CompileError) as info:
        emit_program(saxpy, {}, None)
    assert info.value.stage == "lower" and "\n" not in str(info.value)
    assert str(info.value).startswith("sdfg.container 'x': error: unresolved symbol 'N' in the shape of container 'x'")




N, M = dace.symbol("N"), dace.symbol("M")


@dace.program
def outer(x: dace.float32[N], y: dace.float32[M], A: dace.float32[N, M]):
    A[:] = np.outer(x, y)  # DaCe warns that it calls back into Python


@dace.program
def undefined(x: dace.float32[N]):
    x[:] = missing  # noqa: F821


def test_the_api_shows_no_warning_of_dace():
    with warnings.catch_warnings(record=True) as caught, pytest.raises(CompileError) as info:
        warnings.simplefilter("always")
        lower_program(outer, {"N": 4, "M": 3}, None)
    assert caught == []
    assert info.value.stage == "import" and info.value.location.startswith("SDFG 'outer', state '")
    assert info.value.message.startswith("calls back into the Python interpreter ('numpy_outer'")


def test_a_dace_parse_error_is_located_in_the_source(capfd):
    line = inspect.getsourcelines(undefined.f)[1] + 2
    with pytest.raises(CompileError) as info:
        to_sdfg(undefined)
    assert info.value.location == f"{__file__}:{line}:12"
    assert info.value.message == 'DaCe cannot build an SDFG: Use of undefined variable "missing"'
    assert capfd.readouterr() == ("", "")  # DaCe's own print of the error is not shown


@dace.program
def argmin_rows(A: dace.float32[N, M], i: dace.int32[N]):
    i[:] = np.argmin(A, axis=1)


@dace.program
def argmax_rows(A: dace.float64[N, M], i: dace.int64[N]):
    i[:] = np.argmax(A, axis=1)


@pytest.mark.parametrize("program", [argmin_rows, argmax_rows], ids=["argmin", "argmax"])
def test_argmin_and_argmax_are_not_supported_yet(program):
    # DaCe reduces value-index pairs, a struct, into a transient: reported at its node
    # (it was an AttributeError, numpy reading the struct's ctypes class)
    with pytest.raises(CompileError) as info:
        lower_program(program, {"N": 4, "M": 3}, None, demote_f64=True)
    assert info.value.stage == "import"
    assert info.value.location == f"SDFG '{program.f.__name__}', state 'block', node '__tmp0' (AccessNode)"
    assert info.value.message.endswith("(np.argmin and np.argmax reduce value-index pairs in them); structs, and so "
                                       "argmin and argmax, are not supported yet")
