"""Tests for the index expressions of the `sdfg` dialect (ipu_lower.dialects.index_expr)
and for their construction from DaCe's sympy objects (ipu_lower.frontend.symbolic):
canonical form, arithmetic and folding, substitution and evaluation, the queries passes
use (dim_offset), the text form and its limits."""

from __future__ import annotations

import random

import dace
import pytest
import sympy
from dace.symbolic import int_ceil, int_floor, pystr_to_symbolic
from xdsl.context import Context
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from ipu_lower.dialects.index_expr import (
    MAX_ATOM_NESTING,
    MAX_MAGNITUDE,
    MAX_NESTING,
    MAX_TERMS,
    RESERVED_NAMES,
    ExprError,
    IndexExpr,
    check_symbol_name,
    parse_index_expr,
    recombine_divmod,
)
from ipu_lower.frontend.symbolic import MAX_POWER, SymbolicError, to_index_expr

d0, d1, d2 = IndexExpr.dim(0), IndexExpr.dim(1), IndexExpr.dim(2)
N, M, K = IndexExpr.symbol("N"), IndexExpr.symbol("M"), IndexExpr.symbol("K")
C = IndexExpr.constant


def parse(text: str) -> IndexExpr:
    """The whole of `text` as an expression, dimensions written d0, d1, ..."""
    parser = Parser(Context(), text)
    expr = parse_index_expr(parser)
    assert parser.pos == len(text), f"{text!r} parsed only up to {parser.pos}"
    return expr


def parse_error(text: str) -> str:
    with pytest.raises(ParseError) as info:
        parse(text)
    return str(info.value)


# --------------------------------------------------------------------------------------
# canonical form


@pytest.mark.parametrize(
    ("built", "text"),
    [
        (d0 + 0, "d0"),
        (0 + d0, "d0"),
        ((N + 1) * 2, "2 * N + 2"),
        (2 * (1 + N), "2 * N + 2"),
        (N - N, "0"),
        (d0 * N - N * d0, "0"),
        (-d0, "-d0"),
        (3 - d0, "-d0 + 3"),
        (N * M, "M * N"),
        (M * N + N * M, "2 * M * N"),
        ((N + 1) * (N - 1), "N * N - 1"),
        (-(N + 1), "-N - 1"),
        (d1 + d0 + N + 2, "d0 + d1 + N + 2"),
        (d0 * N + 1, "d0 * N + 1"),
        (C(-5), "-5"),
        (C(0), "0"),
    ],
)
def test_canonical_text(built, text):
    assert str(built) == text
    assert parse(text) == built


def test_structural_equality_is_algebraic_equality_for_polynomials():
    assert d0 + 0 == d0
    assert (N + 1) * 2 == 2 * N + 2 == N + N + 2
    assert (d0 + d1) * (d0 - d1) == d0 * d0 - d1 * d1
    assert N * (M * K) == (N * M) * K == K * N * M
    assert hash((N + 1) * 2) == hash(2 * N + 2)
    assert d0 != d1 and d0 != N and N != M
    assert C(0).terms == () and C(0) == N - N


def test_constants_dimensions_and_symbols():
    assert C(7).constant_value() == 7
    assert C(0).constant_value() == 0
    assert N.constant_value() is None and (N - N + 3).constant_value() == 3
    assert IndexExpr.lift(4) == C(4) and IndexExpr.lift(N) is N
    with pytest.raises(ExprError, match="negative dimension"):
        IndexExpr.dim(-1)
    assert (d0 + d2.floordiv(N)).dims() == {0, 2}
    assert (d0 + M.min(d1 * N)).symbols() == {"M", "N"}
    assert C(3).symbols() == set() and C(3).dims() == set()


@pytest.mark.parametrize("name", ["N", "M_1", "_x", "d", "D0", "d0x", "dim", "minimum", "Mod"])
def test_symbol_names_accepted(name):
    assert check_symbol_name(name) == name
    assert IndexExpr.symbol(name).symbols() == {name}


@pytest.mark.parametrize("name", ["min", "max", "mod", "floordiv", "ceildiv", "d0", "d12", "1a", "a-b", "", "a b"])
def test_symbol_names_rejected(name):
    with pytest.raises(ExprError, match="cannot name a symbol"):
        check_symbol_name(name)
    with pytest.raises(ExprError):
        IndexExpr.symbol(name)


def test_reserved_names_are_the_keywords():
    assert RESERVED_NAMES == {"min", "max", "mod", "floordiv", "ceildiv"}


# --------------------------------------------------------------------------------------
# floordiv, ceildiv, mod, min, max


@pytest.mark.parametrize(
    ("built", "value"),
    [
        (C(7).floordiv(2), 3),
        (C(-7).floordiv(2), -4),
        (C(7).floordiv(-2), -4),
        (C(7).ceildiv(2), 4),
        (C(-7).ceildiv(2), -3),
        (C(8).ceildiv(2), 4),
        (C(7).mod(3), 1),
        (C(-7).mod(3), 2),
        (C(7).mod(-3), -2),
        (C(3).min(-2), -2),
        (C(3).max(-2), 3),
        ((N - N + 9).floordiv(4), 2),
    ],
)
def test_constant_operands_fold(built, value):
    assert built == C(value)


@pytest.mark.parametrize("kind", ["floordiv", "ceildiv", "mod"])
def test_constant_division_by_zero(kind):
    with pytest.raises(ExprError, match=f"{kind} by zero"):
        getattr(C(4), kind)(0)


def test_identities_fold():
    assert N.floordiv(1) == N
    assert N.ceildiv(1) == N
    assert N.mod(1) == C(0) and N.mod(-1) == C(0)
    assert N.min(N) == N and (d0 + 1).max(1 + d0) == d0 + 1


def test_min_and_max_commute():
    assert N.min(M) == M.min(N)
    assert str(N.min(M)) == "min(M, N)"
    assert N.max(d0 + 1) == (d0 + 1).max(N)
    assert N.min(M) != N.max(M)


def test_symbolic_atoms_stay():
    assert str(N.floordiv(2)) == "(N floordiv 2)"
    assert str(N.ceildiv(32)) == "(N ceildiv 32)"
    assert str(d0.mod(4)) == "(d0 mod 4)"
    assert str((N + 1).floordiv(2)) == "((N + 1) floordiv 2)"
    assert str(N.floordiv(-2)) == "(N floordiv (-2))"
    assert str(N.max(3) + 1) == "max(3, N) + 1"
    assert str(2 * N.floordiv(2) - N.mod(2)) == "2 * (N floordiv 2) - (N mod 2)"
    # atoms are factors of monomials like symbols
    assert N.floordiv(2) * 2 + N.floordiv(2) == 3 * N.floordiv(2)
    assert N.floordiv(2) != N.ceildiv(2) != N.mod(2)


def test_atoms_substitute_and_fold():
    e = (d0 * N + d1).floordiv(2)
    assert str(e) == "((d0 * N + d1) floordiv 2)"
    assert e.substitute({"N": 4}) == (4 * d0 + d1).floordiv(2)
    assert e.substitute({"N": 4}, {0: 3, 1: 1}) == C(6)
    assert N.min(M).substitute({"N": 2, "M": 5}) == C(2)
    assert N.mod(M).substitute({"M": 1}) == C(0)


# --------------------------------------------------------------------------------------
# substitute and evaluate


def test_substitute_keeps_what_is_not_given():
    e = d0 * N + d1 * M + K
    assert e.substitute({"N": 3}) == 3 * d0 + d1 * M + K
    assert e.substitute(dims={1: 5}) == d0 * N + 5 * M + K
    assert e.substitute() == e
    # dimensions may be renumbered or replaced by expressions
    assert e.substitute(dims={0: d1, 1: d0}) == d1 * N + d0 * M + K
    assert (d0 + 1).substitute(dims={0: d0 + d1}) == d0 + d1 + 1
    assert N.substitute({"N": M * 2}) == 2 * M


@pytest.mark.parametrize(
    ("built", "symbols", "dims", "value"),
    [
        (d0 * N + d1, {"N": 10}, [3, 4], 34),
        (N.floordiv(2), {"N": -5}, [], -3),
        (N.ceildiv(2), {"N": -5}, [], -2),
        (N.ceildiv(2), {"N": 5}, [], 3),
        (N.mod(3), {"N": -7}, [], 2),
        (N.min(M) + N.max(M), {"N": 9, "M": 5}, [], 14),
        (C(42), {}, [], 42),
        (C(42), {"unused": 1}, [7], 42),
    ],
)
def test_evaluate(built, symbols, dims, value):
    assert built.evaluate(symbols, dims) == value


def test_evaluate_errors():
    with pytest.raises(ExprError, match=r"^no value for symbol N$"):
        N.evaluate({})
    with pytest.raises(ExprError, match=r"^no value for symbols M, N$"):
        (N + M + d0).evaluate({}, [1])
    with pytest.raises(ExprError, match=r"^no value for dimension d1$"):
        (d0 + 2 * d1).evaluate({}, [1])
    with pytest.raises(ExprError, match="floordiv by zero"):
        N.floordiv(M).evaluate({"N": 1, "M": 0})
    with pytest.raises(ExprError, match="mod by zero"):
        N.mod(d0).evaluate({"N": 1}, [0])
    with pytest.raises(ExprError, match="does not fit in 64 bits"):
        (N * N).evaluate({"N": 2**32})


# --------------------------------------------------------------------------------------
# bounded magnitude


def test_magnitude_is_bounded():
    biggest = MAX_MAGNITUDE - 1
    assert C(biggest).constant_value() == biggest and C(-biggest).constant_value() == -biggest
    for value in (MAX_MAGNITUDE, -MAX_MAGNITUDE, 2**100):
        with pytest.raises(ExprError, match=f"value {value} does not fit in 64 bits"):
            C(value)
    with pytest.raises(ExprError, match="does not fit in 64 bits"):
        C(biggest) + 1
    with pytest.raises(ExprError, match="does not fit in 64 bits"):
        (N * 2**62) * 2
    with pytest.raises(ExprError, match="does not fit in 64 bits"):
        N * 2**40 + N * 2**40 * (2**23 - 1)  # coefficients summed
    assert (N * 2**62 - N * 2**62) == C(0)


# --------------------------------------------------------------------------------------
# dim_offset


@pytest.mark.parametrize(
    ("built", "position", "offset"),
    [
        (d0, 0, 0),
        (d0 + 3, 0, 3),
        (d1 - 1, 1, -1),
        (d1 + 3, 0, None),
        (d0 + N, 0, None),
        (2 * d0, 0, None),
        (d0 + d1, 0, None),
        (C(3), 0, None),
    ],
)
def test_dim_offset(built, position, offset):
    assert built.dim_offset(position) == offset


# --------------------------------------------------------------------------------------
# text form


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("d0 + 0", "d0"),
        ("(N + 1) * 2", "2 * N + 2"),
        ("N - -1", "N + 1"),
        ("N * -1", "-N"),
        ("1 - - - 1", "0"),
        ("-(-(N))", "N"),
        ("2 * 3 - 6", "0"),
        ("N + 2 * M * 3", "6 * M + N"),
        ("7 floordiv -2", "-4"),
        ("-7 ceildiv 2", "-3"),  # unary minus binds tighter than ceildiv
        ("7 mod -2", "-1"),
        ("min(3, 2)", "2"),
        ("max(N, M)", "max(M, N)"),
        ("N floordiv 2 * 2", "2 * (N floordiv 2)"),  # left to right, like *
        ("N * 2 floordiv 2", "((2 * N) floordiv 2)"),
        ("N mod 4 + 1", "(N mod 4) + 1"),
        ("N ceildiv (M + 1)", "(N ceildiv (M + 1))"),
        ("min(d0 + 1, N) - max(0, d0 - 1)", "-max(0, d0 - 1) + min(d0 + 1, N)"),
        ("  N  +  1 ", "N + 1"),
    ],
)
def test_parse(text, canonical):
    expr = parse(text)
    assert str(expr) == canonical
    assert parse(canonical) == expr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("N +", "expected an integer, a symbol or '(' in an index expression"),
        ("(N + 1", "Expected ')'"),
        ("min(N)", "Expected ','"),
        ("max", "Expected '('"),
        ("mod", "'mod' cannot name a symbol"),
        ("N mod", "expected an integer, a symbol or '('"),
        ("4 floordiv 0", "floordiv by zero"),
        ("N mod 0 + 3 mod 0", "mod by zero"),
        ("9223372036854775808", "value 9223372036854775808 does not fit in 64 bits"),
        ("N * 9223372036854775807 * 2", "does not fit in 64 bits"),
        ("* N", "expected an integer, a symbol or '('"),
    ],
)
def test_parse_errors(text, message):
    assert message in parse_error(text)


def test_largest_constant_parses():
    assert parse("9223372036854775807") == C(MAX_MAGNITUDE - 1)
    assert parse("-9223372036854775807") == C(1 - MAX_MAGNITUDE)


def test_dimension_names_in_text():
    """Without a dimension parser, `d<digits>` are dimensions: `d0` is never a symbol."""
    assert parse("d0 + d12") == d0 + IndexExpr.dim(12)
    assert parse("d") == IndexExpr.symbol("d")
    assert parse("d0x") == IndexExpr.symbol("d0x")


def test_custom_dimension_parser():
    """Ops parse their dimensions as SSA operands, numbered in order of first use."""
    seen: list[str] = []

    def parse_dimension() -> int | None:
        operand = parser.parse_optional_unresolved_operand()
        if operand is None:
            return None
        if operand.span.text not in seen:
            seen.append(operand.span.text)
        return seen.index(operand.span.text)

    parser = Parser(Context(), "%j * N + %i - %j")
    assert parse_index_expr(parser, parse_dimension) == d0 * N + d1 - d0
    assert seen == ["%j", "%i"]
    # with a dimension parser, `d0` is an identifier, and it cannot name a symbol
    seen.clear()
    parser = Parser(Context(), "%i + d0")
    with pytest.raises(ParseError, match="'d0' cannot name a symbol"):
        parse_index_expr(parser, parse_dimension)


def test_format_names_dimensions():
    names = ["i", "j"]
    assert (d0 + 1).format(lambda d: names[d]) == "i + 1"
    assert (d0 * N - d1).floordiv(2).format(lambda d: names[d]) == "((i * N - j) floordiv 2)"
    assert C(0).format(lambda d: "never") == "0"


def test_is_simple():
    assert d0.is_simple() and N.is_simple() and C(3).is_simple() and C(0).is_simple()
    assert not C(-3).is_simple()
    assert not (2 * N).is_simple() and not (N + 1).is_simple()
    assert N.floordiv(2).is_simple() and N.min(d0).is_simple()  # atoms print parenthesized


# -- bounded nesting


def test_nesting_up_to_the_limit_parses():
    assert parse("(" * MAX_NESTING + "N" + ")" * MAX_NESTING) == N
    assert parse("-" * MAX_NESTING + "N") == N
    assert parse("N" + " mod 3" * MAX_ATOM_NESTING).symbols() == {"N"}


@pytest.mark.parametrize(
    "text",
    [
        "(" * (MAX_NESTING + 1) + "N" + ")" * (MAX_NESTING + 1),
        "-" * (MAX_NESTING + 1) + "N",
        "min(" * (MAX_NESTING + 1) + "N" + ", 1)" * (MAX_NESTING + 1),
        "(" * 5000,
    ],
)
def test_nesting_beyond_the_limit_is_a_parse_error(text):
    assert f"expression nested more than {MAX_NESTING} deep" in parse_error(text)


def nested_floordiv(depth: int) -> IndexExpr:
    expr = N
    for _ in range(depth):
        expr = expr.floordiv(2)
    return expr


def test_nested_atoms_round_trip():
    expr = nested_floordiv(10)
    assert parse(str(expr)) == expr


@pytest.mark.parametrize("depth", range(1, MAX_ATOM_NESTING + 1))
def test_every_expression_up_to_the_atom_nesting_limit_round_trips(depth):
    chain = parse("N" + " floordiv 2" * depth)
    assert chain.atom_nesting == depth
    assert parse(str(chain)) == chain
    # the deepest text per atom: a negative sum as operand of an infix atom
    worst = IndexExpr.symbol("N")
    for _ in range(depth):
        worst = (-worst - IndexExpr.symbol("M")).mod(3)
    assert parse(str(worst)) == worst


@pytest.mark.parametrize("chain", [" floordiv 2" * (MAX_ATOM_NESTING + 1), " mod 3" * 5000])
def test_atoms_nested_deeper_than_the_limit_are_rejected(chain):
    with pytest.raises(ParseError, match=f"more than {MAX_ATOM_NESTING} deep"):
        parse("N" + chain)



def test_atom_nesting_is_bounded_when_built_too():
    deep = parse("N" + " mod 3" * MAX_ATOM_NESTING)
    with pytest.raises(ExprError, match="nests"):
        deep.min(IndexExpr.dim(0))


def test_products_of_sums_are_bounded():
    text = " * ".join(f"(a{k} + b{k})" for k in range(40))
    with pytest.raises(ParseError, match=f"more than {MAX_TERMS} terms"):
        parse(text)
    ten = " * ".join(f"(a{k} + b{k})" for k in range(10))  # exactly 1024 terms is fine
    assert len(parse(ten).terms) == MAX_TERMS


# -- randomized round trips (fixed seed)


SYMBOL_VALUES = {"N": 7, "M": -3, "K": 11}
DIM_VALUES = (2, -5, 4)


class RandomExpr:
    """Random expression trees as (text, IndexExpr built by the API, value at
    SYMBOL_VALUES and DIM_VALUES computed with Python ints)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def leaf(self) -> tuple[str, IndexExpr, int]:
        choice = self.rng.randrange(3)
        if choice == 0:
            value = self.rng.randint(0, 20)
            return str(value), C(value), value
        if choice == 1:
            name = self.rng.choice(sorted(SYMBOL_VALUES))
            return name, IndexExpr.symbol(name), SYMBOL_VALUES[name]
        position = self.rng.randrange(len(DIM_VALUES))
        return f"d{position}", IndexExpr.dim(position), DIM_VALUES[position]

    def divisor(self) -> tuple[str, IndexExpr, int]:
        if self.rng.random() < 0.5:
            value = self.rng.choice([-3, -2, 1, 2, 3, 5])
            return f"({value})", C(value), value
        return "K", K, SYMBOL_VALUES["K"]

    def tree(self, depth: int) -> tuple[str, IndexExpr, int]:
        if depth == 0 or self.rng.random() < 0.25:
            return self.leaf()
        op = self.rng.choice(["+", "-", "*", "neg", "floordiv", "ceildiv", "mod", "min", "max"])
        a_text, a, a_value = self.tree(depth - 1)
        if op == "neg":
            return f"-({a_text})", -a, -a_value
        if op in ("floordiv", "ceildiv", "mod"):
            b_text, b, b_value = self.divisor()
            value = {
                "floordiv": a_value // b_value,
                "ceildiv": -(-a_value // b_value),
                "mod": a_value % b_value,
            }[op]
            return f"({a_text}) {op} {b_text}", getattr(a, op)(b), value
        b_text, b, b_value = self.tree(depth - 1)
        if op in ("min", "max"):
            value = min(a_value, b_value) if op == "min" else max(a_value, b_value)
            return f"{op}({a_text}, {b_text})", getattr(a, op)(b), value
        value = {"+": a_value + b_value, "-": a_value - b_value, "*": a_value * b_value}[op]
        built = {"+": a + b, "-": a - b, "*": a * b}[op]
        return f"({a_text}) {op} ({b_text})", built, value


@pytest.mark.parametrize("seed", range(5))
def test_random_expressions_round_trip(seed):
    gen = RandomExpr(seed)
    for _ in range(200):
        text, built, value = gen.tree(4)
        # the parser builds the same canonical expression as the API
        parsed = parse(text)
        assert parsed == built, text
        # the canonical text parses back to it
        assert parse(str(built)) == built, (text, str(built))
        # and everything computes the value of the tree
        assert built.evaluate(SYMBOL_VALUES, DIM_VALUES) == value, text
        assert built.substitute(SYMBOL_VALUES, dict(enumerate(DIM_VALUES))) == C(value)


def test_random_expressions_exercise_every_atom():
    gen = RandomExpr(0)
    texts = " ".join(str(gen.tree(4)[1]) for _ in range(200))
    for word in ("floordiv", "ceildiv", "mod", "min(", "max(", "d0", "d2", "N", "M", "K", " * ", " - "):
        assert word in texts, word


# --------------------------------------------------------------------------------------
# symbolic.py: DaCe's sympy objects as index expressions

n, m, i, j = (dace.symbol(s) for s in ("N", "M", "i", "j"))


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (5, "5"),
        (sympy.Integer(-3), "-3"),
        (n, "N"),
        (n + 1, "N + 1"),
        (2 * (n + 1), "2 * N + 2"),
        (n * m - 1, "M * N - 1"),
        (n**2, "N * N"),
        (n**0, "1"),
        ((n + 1) ** 2, "2 * N + N * N + 1"),
        (int_floor(n, 2), "(N floordiv 2)"),
        (int_ceil(n, 32), "(N ceildiv 32)"),
        (sympy.floor(n / 2), "(N floordiv 2)"),
        (sympy.floor(n / 2 + m / 3), "((2 * M + 3 * N) floordiv 6)"),
        (sympy.ceiling((n + 1) / 3), "((N + 1) ceildiv 3)"),
        (sympy.Mod(n, 3), "(N mod 3)"),
        (sympy.Min(n, m), "min(M, N)"),
        (sympy.Max(n, m, 4), "max(max(4, M), N)"),
        (sympy.Min(n - 1, 64 * m + 63), "min(N - 1, 64 * M + 63)"),
    ],
)
def test_to_index_expr(value, text):
    assert str(to_index_expr(value)) == text


@pytest.mark.parametrize(
    ("python_text", "text"),
    [
        ("N // 2", "(N floordiv 2)"),
        ("N % 3", "(N mod 3)"),
        ("min(N, M)", "min(M, N)"),
        ("max(N, M)", "max(M, N)"),
        ("ceil(N / 2)", "(N ceildiv 2)"),
        ("floor(N / 2)", "(N floordiv 2)"),
        ("int_ceil(N, 2)", "(N ceildiv 2)"),
        ("int_floor(N + 1, 4)", "((N + 1) floordiv 4)"),
        ("Mod(N, M)", "(N mod M)"),
        ("Min(N - 1, 64 * M + 63) + 1", "min(N - 1, 64 * M + 63) + 1"),
        ("-N", "-N"),
        ("N**3", "N * N * N"),
    ],
)
def test_to_index_expr_of_dace_strings(python_text, text):
    """What DaCe builds from the strings of a program or an .sdfg file."""
    assert str(to_index_expr(pystr_to_symbolic(python_text))) == text


@pytest.mark.parametrize(
    "python_text",
    ["N // 2", "N % 3", "min(N, M) * 2 - 1", "max(N - M, 0)", "ceil(N / 4)", "floor((N + M) / 3)",
     "Mod(N + 2 * M, 5)", "int_ceil(N * M, 7)", "(N + 1)**2 - M", "Min(N - 1, 64 * M + 63) + 1"],
)
def test_to_index_expr_evaluates_like_sympy(python_text):
    parsed = pystr_to_symbolic(python_text)
    for values in ({"N": 11, "M": 3}, {"N": 4, "M": 9}, {"N": 0, "M": 1}):
        expected = parsed.subs({dace.symbol(k): v for k, v in values.items()})
        assert to_index_expr(parsed).evaluate(values) == int(expected), (python_text, values)


def test_map_parameters_become_dimensions():
    dims = {"i": 0, "j": 1}
    assert to_index_expr(i + 1, dims) == d0 + 1
    assert to_index_expr(n - j, dims) == N - d1
    assert to_index_expr(i * n + j, dims) == d0 * N + d1
    assert to_index_expr(sympy.Mod(i, 2), dims) == d0.mod(2)
    # names not in `dims` stay symbols
    assert to_index_expr(i + 1) == IndexExpr.symbol("i") + 1
    assert to_index_expr(i + j, {"j": 0}) == IndexExpr.symbol("i") + d0


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (sympy.Rational(1, 2), "'1/2' is not an integer index expression (it is not an integer)"),
        (sympy.Float(2.5), "is not an integer index expression (it is not an integer)"),
        (n / 2, "'N/2' is not an integer index expression ('1/2' is not an integer)"),
        (n**-1, "'1/N' is not an integer index expression (it is not a small non-negative integer power)"),
        (n ** (MAX_POWER + 1), f"'N**{MAX_POWER + 1}' is not an integer index expression (it is not a small"),
        (2**n, "'2**N' is not an integer index expression (it is not a small"),
        (sympy.sqrt(n), "'sqrt(N)' is not an integer index expression"),
        (sympy.Abs(n), "'Abs(N)' is not an integer index expression (it uses 'Abs', which is not supported)"),
        (sympy.Eq(n, 1), "(it uses 'Equality', which is not supported)"),
        (sympy.oo, "'oo' is not an integer index expression (it is not an integer)"),
        ("N", "'N' is not an integer index expression (it is a str)"),
        (2.0, "'2.0' is not an integer index expression (it is a float)"),
        (sympy.Integer(2**63), "'9223372036854775808': index expression value 9223372036854775808 does not fit"),
        (n * 2**62 * 4, "does not fit in 64 bits"),
        (sympy.Symbol("mod"), "'mod': 'mod' cannot name a symbol"),
        (sympy.Symbol("d0"), "'d0': 'd0' cannot name a symbol"),
    ],
)
def test_to_index_expr_rejects(value, message):
    with pytest.raises(SymbolicError) as info:
        to_index_expr(value)
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, ValueError)


def test_to_index_expr_largest_power():
    assert to_index_expr(n**MAX_POWER) == to_index_expr(n ** (MAX_POWER - 1)) * N
    assert len(str(to_index_expr(n**MAX_POWER)).split(" * ")) == MAX_POWER


D0, D1 = IndexExpr.dim(0), IndexExpr.dim(1)


def test_recombine_divmod_undoes_a_reshape_split():
    """A 4x6 array read as 6x4: the row-major offset of the split index is the flat
    index it was split from, in two and in three dimensions, with constant offsets kept."""
    flat = D0 * 4 + D1
    assert recombine_divmod(flat.floordiv(6) * 6 + flat.mod(6)) == flat
    assert recombine_divmod(flat.floordiv(6) * 6 + flat.mod(6) - flat) == IndexExpr.constant(0)
    flat = D0 * 7 + D1 + 2
    i2, q = flat.mod(5), flat.floordiv(5)
    split = q.floordiv(3) * 15 + q.mod(3) * 5 + i2
    assert recombine_divmod(split) == flat
    assert recombine_divmod(split * 2 + 1) == flat * 2 + 1


def test_recombine_divmod_leaves_other_expressions():
    flat = D0 * 4 + D1
    for e in (flat.floordiv(6) * 5 + flat.mod(6), flat.floordiv(6) * 6 + flat.mod(5), flat.floordiv(N) * N + flat.mod(N),
              flat.floordiv(6) * 6, D0 + 3):
        assert recombine_divmod(e) == e
