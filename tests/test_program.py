"""Symbol values from the arguments (ipu_lower/program.py): the shape solver, and
programs compiled without `symbols=` called like DaCe programs."""

# No `from __future__ import annotations`: DaCe reads the programs' annotations.
import io
import shutil
import sys
import warnings

import dace
import numpy as np
import pytest

import ipu_lower
from ipu_lower.diagnostics import CompileError, UnknownSymbolWarning, unknown_symbols
from ipu_lower.dialects.index_expr import IndexExpr
from ipu_lower.program import Program, infer_symbols

N, M = IndexExpr.symbol("N"), IndexExpr.symbol("M")


def test_plain_symbols_come_from_the_shapes():
    assert infer_symbols({"A": [N, M], "x": [M]}, {"A": (3, 4), "x": (4,)}, {}) == {"N": 3, "M": 4}


def test_linear_dimensions_are_solved_one_unknown_at_a_time():
    # 2 * M needs M from the other argument first; N + 1 is solved on its own
    declared = {"A": [N + 1, M * 2], "B": [M]}
    assert infer_symbols(declared, {"A": (5, 8), "B": (4,)}, {}) == {"N": 4, "M": 4}
    assert infer_symbols({"A": [M * 2]}, {"A": (8,)}, {}) == {"M": 4}


def test_given_values_are_checked_not_overridden():
    with pytest.raises(TypeError, match=r"argument 'A' has shape \[5\], but its declared shape \[N\] is \[4\] with N = 4"):
        infer_symbols({"A": [N]}, {"A": (5,)}, {"N": 4})


def test_disagreeing_arguments_name_the_later_one():
    with pytest.raises(TypeError, match=r"argument 'B' has shape \[3\], but its declared shape \[N\] is \[4\]"):
        infer_symbols({"A": [N], "B": [N]}, {"A": (4,), "B": (3,)}, {})


def test_wrong_rank_and_unsolvable_shapes():
    with pytest.raises(TypeError, match=r"argument 'A' must have shape \[N, M\], got \[4\]"):
        infer_symbols({"A": [N, M]}, {"A": (4,)}, {})
    # an odd length cannot be 2 * M; N * M (two unknowns) stays unsolved
    assert infer_symbols({"A": [M * 2]}, {"A": (7,)}, {}) == {}
    assert infer_symbols({"A": [N * M]}, {"A": (12,)}, {}) == {}
    with pytest.raises(TypeError, match=r"declared shape \[4\] is fixed"):
        infer_symbols({"A": [IndexExpr.constant(4)]}, {"A": (5,)}, {})



def test_a_disagreeing_shape_with_a_symbol_no_other_has_is_a_type_error():
    """B's N disagrees with A's before any shape gave M, and N * N * N of A's N has no
    64-bit value: both name the argument (an ExprError of the shape's evaluation before)."""
    with pytest.raises(TypeError, match=r"argument 'B' has shape \[6, 3\], but its declared shape \[N, M\] is \[5, M\] with N = 5"):
        infer_symbols({"A": [N], "B": [N, M]}, {"A": (5,), "B": (6, 3)}, {})
    with pytest.raises(TypeError, match=r"argument 'B' has shape \[8\], but its declared shape \[N \* N \* N\] is \[more than 64 bits\]"):
        infer_symbols({"A": [N], "B": [N * N * N]}, {"A": (2**22,), "B": (8,)}, {})
    program = Program("p", ["A", "B"], {"A": [N], "B": [N, M]}, ["M", "N"], {}, build=lambda values: pytest.fail("built"))
    with pytest.raises(TypeError, match=r"argument 'B' has shape \[6, 3\]"):
        program(np.zeros(5, np.float32), np.zeros((6, 3), np.float32))



def test_the_warning_names_the_unknown_symbols_and_the_known_ones():
    assert unknown_symbols({"N": 4}, ["N", "M"]) is None
    assert unknown_symbols(["n"], ["N"]) == "unknown symbol 'n' (the program's symbols: N)"
    assert unknown_symbols(["n", "K", "M"], ["N", "M"]) == "unknown symbols 'K', 'n' (the program's symbols: M, N)"
    assert unknown_symbols(["N"], []) == "unknown symbol 'N' (the program has no symbols)"


pytestmark_e2e = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
SN, ST = dace.symbol("N"), dace.symbol("T")


@dace.program
def scale(A: dace.float32[SN], B: dace.float32[SN]):
    B[:] = A * dace.float32(2)


@dace.program
def head(A: dace.float32[SN], B: dace.float32[SN]):
    for i in dace.map[0:ST]:
        B[i] = A[i]


@pytestmark_e2e
def test_a_program_compiled_without_symbols_takes_them_from_each_call():
    program = ipu_lower.compile(scale)
    assert program.report is None  # nothing built before the first call
    for n in (6, 11, 6):
        A = np.arange(n, dtype=np.float32)
        B = np.zeros(n, np.float32)
        program(A, B)
        np.testing.assert_array_equal(B, 2 * A)
        assert [a.shape for a in program.arguments] == [(n,), (n,)]
    assert len(program._built) == 2  # one build per distinct N


@pytestmark_e2e
def test_a_warm_call_skips_lowering_and_a_new_option_does_not(monkeypatch):
    A = np.arange(9, dtype=np.float32)
    ipu_lower.compile(scale)(A, np.zeros(9, np.float32))  # lowered and built, or found

    def no_lowering(*args, **kwargs):
        raise AssertionError("lowered again")

    monkeypatch.setattr("ipu_lower.emit.emit_program", no_lowering)
    B = np.zeros(9, np.float32)
    ipu_lower.compile(scale)(A, B)  # a new Program, the same SDFG and options: the cache
    np.testing.assert_array_equal(B, 2 * A)
    with pytest.raises(AssertionError, match="lowered again"):
        ipu_lower.compile(scale, arch="ipu1")(A, B)


@pytestmark_e2e
def test_a_build_shows_its_stages_on_a_terminal_only(monkeypatch, capsys):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    A = np.arange(5, dtype=np.float32)
    ipu_lower.compile(scale, arch="ipu21")(A, np.zeros(5, np.float32))
    lines = terminal.getvalue().splitlines()
    stages = [line.split(": ")[2].rsplit(" (", 1)[0] for line in lines]
    assert stages in ([], ["import and lower", "compile host.cpp and codelets.cpp", "done"])  # [] when cached
    monkeypatch.undo()
    ipu_lower.compile(scale, arch="ipu1")(A, np.zeros(5, np.float32))
    assert "ipu-lower:" not in capsys.readouterr().err


@pytestmark_e2e
def test_symbols_no_shape_gives_come_from_keywords_or_compile():
    A, B = np.arange(8, dtype=np.float32), np.zeros(8, np.float32)
    program = ipu_lower.compile(head)
    with pytest.raises(TypeError, match=r"head\(\): no argument's shape gives T; pass it as "
                                        r"compile\(head, symbols=\{'T': \.\.\.\}\) or as a keyword argument \(T=\.\.\.\)"):
        program(A, B)
    program(A, B, T=3)
    np.testing.assert_array_equal(B, [0, 1, 2, 0, 0, 0, 0, 0])
    ipu_lower.compile(head, symbols={"T": 5})(A, B=B)
    np.testing.assert_array_equal(B, [0, 1, 2, 3, 4, 0, 0, 0])


Q, R = dace.symbol("Q"), dace.symbol("R")


@dace.program
def outer(x: dace.float32[Q], y: dace.float32[R], A: dace.float32[Q, R]):
    A[:] = np.outer(x, y)  # DaCe 1.0.2 calls back into Python for np.outer


def test_a_python_callback_is_an_error_at_compile_not_a_symbol_to_ask_for():
    with warnings.catch_warnings(record=True) as caught, pytest.raises(
        CompileError, match=r"SDFG 'outer', state '.*', node '.*' \(Tasklet\): error: calls back into the Python interpreter \('numpy_outer'"
    ) as info:
        warnings.simplefilter("always")
        ipu_lower.compile(outer)
    assert caught == []  # DaCe's warning about the callback is not shown
    assert info.value.stage == "import" and info.value.location.startswith("SDFG 'outer', state")


def test_symbol_values_must_be_integers():
    with pytest.raises(TypeError, match=r"symbol 'N' must be a non-negative integer below 2\*\*63, got '4,M=5'"):
        ipu_lower.compile(scale, symbols={"N": "4,M=5"})
    with pytest.raises(TypeError, match=r"symbol 'N' must be a non-negative integer below 2\*\*63, got True"):
        ipu_lower.compile(scale, symbols={"N": True})


def test_an_unknown_symbol_is_accepted_with_a_warning_at_the_call_of_compile():
    """`n` for `N`: compile() warns where it is called and leaves `n` out; the caller's
    warning filters decide, through the stages that hide the warnings of dependencies."""
    with pytest.warns(UnknownSymbolWarning, match=r"^unknown symbol 'n' \(the program's symbols: N\)$") as caught:
        program = ipu_lower.compile(scale, symbols={"n": 64})
    assert [w.filename for w in caught] == [__file__]
    assert (program.free_symbols, program.symbols, program.last) == (["N"], {}, None)  # nothing built: N is unknown
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnknownSymbolWarning)
        with pytest.raises(UnknownSymbolWarning):
            ipu_lower.compile(scale, symbols={"M": 2})
