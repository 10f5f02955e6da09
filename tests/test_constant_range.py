"""The expression checker's magnitude limits (frontend/constant_range.py): constant parts of
an expression are computed with range checks before sympy ever sees the text, so that
DaCe's `sympify` never folds a constant with millions of digits or one no int64 holds."""

import math
import time

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ipu_lower.frontend.constant_range import INT64_MAX, constant_value
from ipu_lower.frontend.safe_expr import UnsafeExpressionError, check_expression

HUGE = [
    "floor(exp(10000000))",
    "exp(1000000)",
    "2**64",
    "Min(N, 2**64)",
    "2**40 * 2**40",
    "9**40 // N",
    "10**40",
    "99999999999999999999",
    "1 << 64",
    "N + 4611686018427387904 * 4",
    "1.5e300",
    "log(0)",
    "1 / 0",
]


@pytest.mark.parametrize("text", HUGE)
def test_constants_outside_int64_are_rejected_before_computing(text):
    start = time.perf_counter()
    with pytest.raises(UnsafeExpressionError, match="constant"):
        check_expression(text)
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize(
    "text, value",
    [("2**62", 2**62), ("9223372036854775807", INT64_MAX), ("-2**62", -(2**62)),
     ("floor(exp(43))", math.floor(math.exp(43))), ("int_ceil(7, 2)", 4), ("Mod(-7, 3)", 2)],
)
def test_constants_inside_int64_are_computed(text, value):
    assert constant_value(check_expression(text)) == value


def test_names_leave_their_expression_symbolic_but_its_constant_parts_checked():
    assert constant_value(check_expression("N * 2**62")) is None
    with pytest.raises(UnsafeExpressionError, match="64-bit"):
        check_expression("exp(N) + exp(100)")


# ---- property: accepted with the value sympy (through DaCe) gives, or rejected ---------------

_LEAVES = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False).map(repr),  # see test_call_boundary's _SCALARS
    st.sampled_from(["N", "i", "__import__", "__class__", "True", "None", "x.y", "'s'", "lambda: 1"]),
)
_BINARY = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "<", "=="]
_CALLS = ["exp", "log", "sqrt", "floor", "ceiling", "Min", "Max", "Abs", "Mod", "int_floor",
          "int_ceil", "eval", "getattr", "open"]


def _expressions():
    def extend(children):
        return st.one_of(
            st.tuples(children, st.sampled_from(_BINARY), children).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(st.sampled_from(["-", "~", "not "]), children).map(lambda t: f"({t[0]}{t[1]})"),
            st.tuples(st.sampled_from(_CALLS), st.lists(children, min_size=1, max_size=2)).map(
                lambda t: f"{t[0]}({', '.join(t[1])})"
            ),
        )

    return st.recursive(_LEAVES, extend, max_leaves=8)


def _reference(text: str):
    """sympy's value of the text as DaCe reads it (None when it is not a plain number)."""
    import sympy
    from dace import symbolic

    try:
        value = symbolic.pystr_to_symbolic(text)
    except (ValueError, TypeError):  # sympy cannot order some of it: Min(0, ~0)
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    if isinstance(value, sympy.Basic) and value.is_number:
        evaluated = value.evalf()
        return float(evaluated) if evaluated.is_Number else None
    return None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # the first example imports DaCe
@given(_expressions())
@example("Min(0, (~0))")
def test_checker_accepts_with_the_reference_value_or_rejects(text):
    start = time.perf_counter()
    try:
        tree = check_expression(text)
    except UnsafeExpressionError:
        assert time.perf_counter() - start < 1
        return
    value = constant_value(tree)
    if value is None:
        return
    reference = _reference(text)
    if reference is not None:
        assert math.isclose(float(reference), float(value), rel_tol=1e-9, abs_tol=1e-9), text
