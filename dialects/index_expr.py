"""Integer index expressions over dimensions and symbols: the algebra passes use.

An `IndexExpr` is a polynomial with integer coefficients whose variables are
dimensions (`d0`, `d1`, ...: positional, bound by the op that holds the expression,
e.g. to the block arguments of an `sdfg.map`), SDFG symbols (`N`, `M`, ...) and the
non-polynomial atoms `a floordiv b`, `a ceildiv b`, `a mod b`, `min(a, b)`,
`max(a, b)`. It is kept in a canonical form, so structural equality is algebraic
equality for polynomials: `d0 + 0 == d0`, `(N + 1) * 2 == 2 * N + 2`.

This is a superset of MLIR's affine expressions: `d0 * N` (a symbolic stride, as in a
manually flattened `A[i * N + j]`) and `N * M` (a shape) are representable before
specialization turns symbols into constants.

Text form (also the custom syntax of ops that hold expressions):
    expr ::= term (('+' | '-') term)*
    term ::= unary (('*' | 'floordiv' | 'ceildiv' | 'mod') unary)*
    unary ::= '-' unary | atom
    atom ::= integer | symbol | dimension | '(' expr ')' | ('min' | 'max') '(' expr ',' expr ')'
Parsing is a single left-to-right pass with bounded nesting: no backtracking.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from math import prod

__all__ = [
    "MAX_MAGNITUDE",
    "MAX_ATOM_NESTING",
    "MAX_NESTING",
    "MAX_TERMS",
    "ExprError",
    "IndexExpr",
    "RESERVED_NAMES",
    "check_symbol_name",
    "parse_index_expr",
    "recombine_divmod",
]

MAX_MAGNITUDE = 2**63
"""Coefficients and folded constants stay below this: index values are 64-bit."""

MAX_NESTING = 64
"""Parentheses, unary minus and infix atoms nest at most this deep in the text form."""

MAX_ATOM_NESTING = 12
"""floordiv/ceildiv/mod/min/max atoms nest at most this deep, so that the printed form of
every expression (at most four text levels per atom) parses back."""

MAX_TERMS = 1024
"""Terms of a canonical polynomial: multiplying out `(a + b) * (c + d) * ...` grows
exponentially, so a short hostile expression could otherwise hang the compiler."""

_INFIX = ("floordiv", "ceildiv", "mod")
_CALLS = ("min", "max")
RESERVED_NAMES = frozenset(_INFIX + _CALLS)
_DIM_NAME = re.compile(r"d([0-9]+)")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ExprError(ValueError):
    """An expression that cannot be built or evaluated (overflow, division by zero,
    unknown symbol, bad name)."""


def check_symbol_name(name: str) -> str:
    """`name` if it can name a symbol: an identifier that is neither a keyword of the
    expression syntax nor spelled like a dimension (`d0`)."""
    if not _IDENTIFIER.fullmatch(name) or name in RESERVED_NAMES or _DIM_NAME.fullmatch(name):
        raise ExprError(f"'{name}' cannot name a symbol")
    return name


# An atom is ("d", position), ("s", name) or (kind, IndexExpr, IndexExpr) for the
# floordiv/ceildiv/mod/min/max atoms; a monomial is a sorted tuple of atoms.
Atom = tuple
Monomial = tuple


def _atom_key(atom: Atom) -> tuple:
    if atom[0] in ("d", "s"):
        return atom
    return (atom[0], atom[1].key(), atom[2].key())


def _mono_key(mono: Monomial) -> tuple:
    return tuple(_atom_key(a) for a in mono)


def _checked(value: int) -> int:
    if abs(value) >= MAX_MAGNITUDE:
        raise ExprError(f"index expression value {value} does not fit in 64 bits")
    return value


@dataclass(frozen=True)
class IndexExpr:
    """A canonical polynomial: (monomial, coefficient) pairs, sorted, no zero
    coefficients; the constant term has the empty monomial."""

    terms: tuple[tuple[Monomial, int], ...]

    # -- construction ----------------------------------------------------------------

    @staticmethod
    def _of(coefficients: Mapping[Monomial, int]) -> IndexExpr:
        items = [(m, _checked(c)) for m, c in coefficients.items() if c != 0]
        items.sort(key=lambda item: _mono_key(item[0]))
        return IndexExpr(tuple(items))

    @staticmethod
    def constant(value: int) -> IndexExpr:
        return IndexExpr._of({(): value})

    @staticmethod
    def dim(position: int) -> IndexExpr:
        if position < 0:
            raise ExprError(f"negative dimension d{position}")
        return IndexExpr((((("d", position),), 1),))

    @staticmethod
    def symbol(name: str) -> IndexExpr:
        return IndexExpr((((("s", check_symbol_name(name)),), 1),))

    @staticmethod
    def lift(value: IndexExpr | int) -> IndexExpr:
        return value if isinstance(value, IndexExpr) else IndexExpr.constant(value)

    def key(self) -> tuple:
        """A total order on expressions (used to sort canonical forms)."""
        return tuple((_mono_key(m), c) for m, c in self.terms)

    # -- arithmetic --------------------------------------------------------------------

    def __add__(self, other: IndexExpr | int) -> IndexExpr:
        total = dict(self.terms)
        for mono, coeff in IndexExpr.lift(other).terms:
            total[mono] = total.get(mono, 0) + coeff
        return IndexExpr._of(total)

    __radd__ = __add__

    def __neg__(self) -> IndexExpr:
        return IndexExpr._of({m: -c for m, c in self.terms})

    def __sub__(self, other: IndexExpr | int) -> IndexExpr:
        return self + (-IndexExpr.lift(other))

    def __rsub__(self, other: IndexExpr | int) -> IndexExpr:
        return IndexExpr.lift(other) - self

    def __mul__(self, other: IndexExpr | int) -> IndexExpr:
        other = IndexExpr.lift(other)
        if len(self.terms) * len(other.terms) > MAX_TERMS:
            raise ExprError(f"index expression would have more than {MAX_TERMS} terms")
        total: dict[Monomial, int] = {}
        for m1, c1 in self.terms:
            for m2, c2 in other.terms:
                mono = tuple(sorted(m1 + m2, key=_atom_key))
                total[mono] = total.get(mono, 0) + _checked(c1 * c2)
        return IndexExpr._of(total)

    __rmul__ = __mul__

    def floordiv(self, other: IndexExpr | int) -> IndexExpr:
        return _call("floordiv", self, IndexExpr.lift(other))

    def ceildiv(self, other: IndexExpr | int) -> IndexExpr:
        return _call("ceildiv", self, IndexExpr.lift(other))

    def mod(self, other: IndexExpr | int) -> IndexExpr:
        return _call("mod", self, IndexExpr.lift(other))

    def min(self, other: IndexExpr | int) -> IndexExpr:
        return _call("min", self, IndexExpr.lift(other))

    def max(self, other: IndexExpr | int) -> IndexExpr:
        return _call("max", self, IndexExpr.lift(other))

    # -- queries -----------------------------------------------------------------------

    def constant_value(self) -> int | None:
        """The value when the expression is a constant."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and self.terms[0][0] == ():
            return self.terms[0][1]
        return None

    def _atoms(self) -> Iterable[Atom]:
        for mono, _ in self.terms:
            for atom in mono:
                yield atom
                if atom[0] not in ("d", "s"):
                    yield from atom[1]._atoms()
                    yield from atom[2]._atoms()

    def symbols(self) -> set[str]:
        return {a[1] for a in self._atoms() if a[0] == "s"}

    def dims(self) -> set[int]:
        return {a[1] for a in self._atoms() if a[0] == "d"}

    def dim_offset(self, position: int) -> int | None:
        """c when the expression is `d<position> + c` for a constant c, else None."""
        return (self - IndexExpr.dim(position)).constant_value()

    # -- substitution and evaluation -------------------------------------------------

    def substitute(
        self,
        symbols: Mapping[str, IndexExpr | int] | None = None,
        dims: Mapping[int, IndexExpr | int] | None = None,
    ) -> IndexExpr:
        """Replace the given symbols and dimensions; others stay."""
        symbols = symbols or {}
        dims = dims or {}

        def atom(a: Atom) -> IndexExpr:
            if a[0] == "s":
                return IndexExpr.lift(symbols[a[1]]) if a[1] in symbols else IndexExpr((((a,), 1),))
            if a[0] == "d":
                return IndexExpr.lift(dims[a[1]]) if a[1] in dims else IndexExpr((((a,), 1),))
            return _call(a[0], a[1].substitute(symbols, dims), a[2].substitute(symbols, dims))

        total = IndexExpr.constant(0)
        for mono, coeff in self.terms:
            total = total + prod((atom(a) for a in mono), start=IndexExpr.constant(coeff))
        return total

    def evaluate(self, symbols: Mapping[str, int] | None = None, dims: Sequence[int] = ()) -> int:
        """The value for the given symbol and dimension values."""
        missing = sorted(self.symbols() - set(symbols or {}))
        if missing:
            raise ExprError(f"no value for symbol{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
        if any(d >= len(dims) for d in self.dims()):
            raise ExprError(f"no value for dimension d{max(self.dims())}")
        value = self.substitute(symbols, dict(enumerate(dims))).constant_value()
        assert value is not None
        return value

    # -- printing ----------------------------------------------------------------------

    def format(self, dim_name: Callable[[int], str] = lambda d: f"d{d}") -> str:
        """The text form, naming dimensions with `dim_name`."""
        if not self.terms:
            return "0"
        ordered = [t for t in self.terms if t[0]] + [t for t in self.terms if not t[0]]
        text = ""
        for index, (mono, coeff) in enumerate(ordered):
            magnitude = abs(coeff)
            factors = [_format_atom(a, dim_name) for a in mono]
            if magnitude != 1 or not factors:
                factors.insert(0, str(magnitude))
            body = " * ".join(factors)
            if index == 0:
                text = f"-{body}" if coeff < 0 else body
            else:
                text += f" - {body}" if coeff < 0 else f" + {body}"
        return text

    def is_simple(self) -> bool:
        """Whether the text form is self-delimited (a non-negative integer, a symbol, a
        dimension or one atom), so that it needs no parentheses anywhere."""
        value = self.constant_value()
        if value is not None:
            return value >= 0
        return len(self.terms) == 1 and self.terms[0][1] == 1 and len(self.terms[0][0]) == 1

    @cached_property
    def atom_nesting(self) -> int:
        """How deep floordiv/ceildiv/mod/min/max atoms nest in the expression."""
        return max(
            (1 + max(a[1].atom_nesting, a[2].atom_nesting) for m, _ in self.terms for a in m if a[0] not in ("d", "s")),
            default=0,
        )

    def __str__(self) -> str:
        return self.format()


def _format_atom(atom: Atom, dim_name: Callable[[int], str]) -> str:
    if atom[0] == "d":
        return dim_name(atom[1])
    if atom[0] == "s":
        return atom[1]
    a, b = atom[1].format(dim_name), atom[2].format(dim_name)
    if atom[0] in _CALLS:
        return f"{atom[0]}({a}, {b})"
    a = a if atom[1].is_simple() else f"({a})"
    b = b if atom[2].is_simple() else f"({b})"
    return f"({a} {atom[0]} {b})"


def _fold(kind: str, a: int, b: int) -> int:
    if kind in _INFIX and b == 0:
        raise ExprError(f"{kind} by zero")
    if kind == "floordiv":
        return a // b
    if kind == "ceildiv":
        return -(-a // b)
    if kind == "mod":
        return a % b
    return min(a, b) if kind == "min" else max(a, b)


def _call(kind: str, a: IndexExpr, b: IndexExpr) -> IndexExpr:
    if max(a.atom_nesting, b.atom_nesting) >= MAX_ATOM_NESTING:
        raise ExprError(f"index expression nests {kind} and the like more than {MAX_ATOM_NESTING} deep")
    va, vb = a.constant_value(), b.constant_value()
    if kind in _INFIX and vb == 0:
        raise ExprError(f"{kind} by zero")
    if va is not None and vb is not None:
        return IndexExpr.constant(_fold(kind, va, vb))
    if kind in ("floordiv", "ceildiv") and vb == 1:
        return a
    if kind == "mod" and vb in (1, -1):
        return IndexExpr.constant(0)
    if kind in _CALLS:
        if a == b:
            return a
        a, b = sorted((a, b), key=IndexExpr.key)  # min and max commute
    return IndexExpr((((((kind, a, b),), 1),)))


# -- parsing -----------------------------------------------------------------------------


def parse_index_expr(
    parser,
    parse_dimension: Callable[[], int | None] | None = None,
    named_dimension: Callable[[int], int] | None = None,
) -> IndexExpr:
    """Parse an expression with an xDSL parser.

    `parse_dimension` parses an operand that stands for a dimension and returns its
    position (or None when the next token is not one); without it, dimensions are
    written `d0`, `d1`, .... With both, `named_dimension` gives the position of `dN`
    (an op whose expressions have operands and numbered dimensions, `sdfg.nested`).
    """
    return _ExprParser(parser, parse_dimension, named_dimension).expr(0)


class _ExprParser:
    def __init__(self, parser, parse_dimension, named_dimension=None):
        self.p = parser
        self.parse_dimension = parse_dimension
        self.named_dimension = named_dimension

    def _nested(self, depth: int) -> int:
        if depth >= MAX_NESTING:
            self.p.raise_error(f"expression nested more than {MAX_NESTING} deep")
        return depth + 1

    def _built(self, build: Callable[[], IndexExpr]) -> IndexExpr:
        try:
            return build()
        except ExprError as err:
            self.p.raise_error(str(err))

    def expr(self, depth: int) -> IndexExpr:
        value = self.term(depth)
        while True:
            if self.p.parse_optional_punctuation("+"):
                rhs = self.term(depth)
                value = self._built(lambda: value + rhs)
            elif self.p.parse_optional_punctuation("-"):
                rhs = self.term(depth)
                value = self._built(lambda: value - rhs)
            else:
                return value

    def term(self, depth: int) -> IndexExpr:
        value = self.unary(depth)
        while True:
            if self.p.parse_optional_punctuation("*"):
                rhs = self.unary(depth)
                value = self._built(lambda: value * rhs)
            elif (kind := self.p.parse_optional_keyword_in(_INFIX)) is not None:
                depth = self._nested(depth)  # each application nests the atom one deeper
                rhs = self.unary(depth)
                value = self._built(lambda: _call(kind, value, rhs))
            else:
                return value

    def unary(self, depth: int) -> IndexExpr:
        if self.p.parse_optional_punctuation("-"):
            operand = self.unary(self._nested(depth))
            return self._built(lambda: -operand)
        return self.atom(depth)

    def atom(self, depth: int) -> IndexExpr:
        if (value := self.p.parse_optional_integer(allow_boolean=False, allow_negative=False)) is not None:
            return self._built(lambda: IndexExpr.constant(value))
        if self.p.parse_optional_punctuation("("):
            inner = self.expr(self._nested(depth))
            self.p.parse_punctuation(")")
            return inner
        if self.parse_dimension is not None and (position := self.parse_dimension()) is not None:
            return IndexExpr.dim(position)
        name = self.p.parse_optional_identifier()
        if name is None:
            self.p.raise_error("expected an integer, a symbol or '(' in an index expression")
        if name in _CALLS:
            self.p.parse_punctuation("(")
            a = self.expr(self._nested(depth))
            self.p.parse_punctuation(",")
            b = self.expr(self._nested(depth))
            self.p.parse_punctuation(")")
            return self._built(lambda: _call(name, a, b))
        if match := _DIM_NAME.fullmatch(name):
            if self.parse_dimension is None:
                return IndexExpr.dim(int(match.group(1)))
            if self.named_dimension is not None:
                return IndexExpr.dim(self.named_dimension(int(match.group(1))))
        return self._built(lambda: IndexExpr.symbol(name))


def recombine_divmod(e: IndexExpr) -> IndexExpr:
    """`e` with every `k * c * (x floordiv c) + k * (x mod c)` (c a nonzero constant)
    replaced by `k * x`: the row-major offset of an index that a reshape split with
    floordiv and mod, put back together."""
    while True:
        terms = dict(e.terms)
        for mono, coeff in terms.items():
            match = next(
                (
                    (i, atom)
                    for i, atom in enumerate(mono)
                    if atom[0] == "floordiv"
                    and (c := atom[2].constant_value())
                    and coeff % c == 0
                    and terms.get(_partner(mono, i, atom)) == coeff // c
                ),
                None,
            )
            if match is not None:
                i, atom = match
                k = coeff // atom[2].constant_value()
                rest = mono[:i] + mono[i + 1 :]
                whole = IndexExpr._of({rest: k}) * atom[1]
                e = e - IndexExpr._of({mono: coeff}) - IndexExpr._of({_partner(mono, i, atom): k}) + whole
                break
        else:
            return e


def _partner(mono: Monomial, i: int, atom: Atom) -> Monomial:
    """`mono` with its floordiv atom `atom` (at `i`) replaced by the matching mod atom."""
    return tuple(sorted(mono[:i] + mono[i + 1 :] + (("mod", atom[1], atom[2]),), key=_atom_key))
