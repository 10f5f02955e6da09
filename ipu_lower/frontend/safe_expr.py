"""Whitelist checker, evaluator and printer for the symbolic expressions of SDFG files.

DaCe turns the strings of a `.sdfg` file into sympy objects with `sympy.sympify`, which runs
Python `eval` on them. Every such string is first checked here, with Python's own parser
(`ast.parse(..., mode="eval")`) and a whitelist of node kinds. Nothing in this module calls
`eval`, `exec`, `compile` or a sympy function (it only lists sympy's names, see below).

Accepted (`check_expression`):

- int / float / bool literals (at most `MAX_NUMBER_DIGITS` digits each); `None` only as an
  operand of `is` / `is not`;
- names that are ASCII identifiers and not dunder names (`__x__`); DaCe's `__i0` is fine;
- `+ - * / // %`, `**` with a small literal exponent (`|e| <= MAX_POW_EXPONENT`, or a ratio
  of two such literals such as `3/2`) and a base without `**`, `& | ^`, `<< >>` by a literal
  of at most `MAX_SHIFT`;
- unary `- + not ~`, comparisons `== != < <= > >= is` and `is not`, `and`, `or`, `x if c else y`;
- calls of the functions in `ALLOWED_FUNCTIONS` (the names DaCe and sympy print, e.g.
  `int_floor`, `Mod`, `Min`), with at most `MAX_CALL_ARGS` positional arguments;
- with `allow_subscripts=True` (interstate conditions and assignments, which may read data):
  `name[index, ...]`, where `name` is not a Python builtin, sympy or DaCe function name (DaCe
  retries a failed `sympify` with `[` replaced by `(`, which would turn `open[1]` into a call).

The text must be at most `MAX_EXPRESSION_LENGTH` characters of printable ASCII without
backslashes or `#`, with at most `MAX_AST_NODES` nodes nested at most `MAX_AST_DEPTH` deep.

`evaluate` interprets a checked expression with Python integer semantics:
`/` gives an int when the division is exact and a float otherwise; `//`, `int_floor` and
one-argument `floor` round down; `int_ceil` and `ceiling`/`ceil` round up; `%` and `Mod` are
Python's `%` (result has the sign of the divisor); comparisons and `and`/`or`/`not` give bools.
`substitute` replaces known symbols, folds the constant parts and prints the result back with
minimal parentheses.
"""

from __future__ import annotations

import ast
import builtins
import keyword
import math
from collections.abc import Callable, Mapping
from fractions import Fraction

__all__ = [
    "ALLOWED_FUNCTIONS",
    "EvaluationError",
    "UnresolvedSymbolError",
    "UnsafeExpressionError",
    "check_expression",
    "check_range_string",
    "evaluate",
    "free_symbols",
    "is_identifier",
    "split_range_string",
    "substitute",
    "to_source",
]

MAX_EXPRESSION_LENGTH = 4000
MAX_AST_NODES = 1000
MAX_AST_DEPTH = 50
MAX_NUMBER_DIGITS = 40
MAX_CALL_ARGS = 256
MAX_POW_EXPONENT = 64
MAX_SHIFT = 64

# Functions an expression may call. All are printed by sympy or DaCe (`dace.symbolic`) for
# symbolic expressions, or are the Python spellings DaCe maps to them in `pystr_to_symbolic`.
# fmt: off
ALLOWED_FUNCTIONS = frozenset({
    "Min", "Max", "min", "max", "Abs", "abs",
    "floor", "ceiling", "ceil", "int_floor", "int_ceil", "Mod",
    "log", "sqrt", "exp", "round", "ROUND",
    "Eq", "Ne", "Lt", "Le", "Gt", "Ge", "Not", "And", "Or", "AND", "OR",
    "IfExpr", "Is", "IsNot",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_invert",
    "BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot",
})

_ALLOWED_BINOPS = (
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
    ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift,
)
_ALLOWED_UNARYOPS = (ast.USub, ast.UAdd, ast.Not, ast.Invert)
_ALLOWED_CMPOPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot)

# Names DaCe's `pystr_to_symbolic` binds besides sympy's namespace.
_DACE_SYMPY_LOCALS = frozenset({
    "abs", "min", "max", "True", "False", "GtE", "LtE", "NotEq", "floor", "ceil", "round",
    "And", "Or", "var", "root", "arg", "Is", "IsNot", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
    "BitwiseNot", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_invert", "LeftShift",
    "left_shift", "RightShift", "right_shift", "int_floor", "int_ceil", "IfExpr", "Mod", "Attr",
    "AND", "OR", "ROUND", "NoneSymbol", "In", "NotIn",
})
# fmt: on
_reserved_cache: frozenset[str] | None = None


class UnsafeExpressionError(ValueError):
    """A string that is not an expression of the whitelisted form."""

    def __init__(self, text: object, reason: str):
        self.text = text
        self.reason = reason
        super().__init__(f"expression {_shorten(text)!r} is not allowed: {reason}")


class UnresolvedSymbolError(ValueError):
    """`evaluate` was not given a value for some names of the expression."""

    def __init__(self, names):
        self.names = sorted(names)
        listed = ", ".join(f"'{n}'" for n in self.names)
        plural = "s" if len(self.names) != 1 else ""
        super().__init__(f"unresolved symbol{plural} {listed}")


class EvaluationError(ValueError):
    """A checked expression that has no value (division by zero, log of 0, ...)."""

    def __init__(self, text: str, reason: str):
        self.text = text
        self.reason = reason
        super().__init__(f"expression {_shorten(text)!r} cannot be evaluated: {reason}")


def _shorten(text: object, limit: int = 80) -> str:
    s = text if isinstance(text, str) else repr(text)
    return s if len(s) <= limit else s[: limit - 3] + "..."


def is_identifier(name: object) -> bool:
    """An ASCII Python identifier that is not a keyword and not a dunder name."""
    return (
        isinstance(name, str)
        and name.isascii()
        and name.isidentifier()
        and not keyword.iskeyword(name)
        and not _is_dunder(name)
    )


def _is_dunder(name: str) -> bool:
    return len(name) >= 4 and name.startswith("__") and name.endswith("__")


def _reserved_names() -> frozenset[str]:
    """Names that must not be subscripted (DaCe may turn `x[...]` into the call `x(...)`)."""
    global _reserved_cache
    if _reserved_cache is None:
        names = (
            set(dir(builtins))
            | set(keyword.kwlist)
            | _DACE_SYMPY_LOCALS
            | ALLOWED_FUNCTIONS
        )
        try:  # sympy's namespace is what `sympify` resolves names in
            import sympy

            names |= set(dir(sympy))
        except ImportError:  # pragma: no cover - sympy is a dependency
            pass
        _reserved_cache = frozenset(names)
    return _reserved_cache


# --------------------------------------------------------------------------------------------
# Checking


def check_expression(text: str, *, allow_subscripts: bool = False) -> ast.expr:
    """Parse `text` as a whitelisted expression and return its AST (never evaluates it)."""
    if not isinstance(text, str):
        raise UnsafeExpressionError(
            text, f"expected a string, got {type(text).__name__}"
        )
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise UnsafeExpressionError(
            text, f"longer than {MAX_EXPRESSION_LENGTH} characters ({len(text)})"
        )
    stripped = text.strip(" \t\r\n")
    if not stripped:
        raise UnsafeExpressionError(text, "empty expression")
    for ch in stripped:
        # What the parser cannot be trusted with: comments, line continuations, control and
        # non-ASCII characters (identifiers are NFKC-normalized by Python but not by sympy).
        if not (ch.isascii() and ch.isprintable()):
            raise UnsafeExpressionError(text, f"character {ch!r}")
        if ch in "#\\":
            raise UnsafeExpressionError(text, "comment" if ch == "#" else "backslash")
    try:
        tree = ast.parse(stripped, mode="eval")
    except SyntaxError as err:
        col = f" at column {err.offset}" if err.offset else ""
        detail = "" if err.msg == "invalid syntax" else f" ({err.msg})"
        raise UnsafeExpressionError(text, f"invalid syntax{col}{detail}") from None
    except (ValueError, RecursionError, MemoryError) as err:
        raise UnsafeExpressionError(
            text, f"cannot be parsed ({type(err).__name__})"
        ) from None
    _Checker(text, stripped, allow_subscripts).check(tree.body)
    return tree.body


class _Checker:
    def __init__(self, text: str, source: str, allow_subscripts: bool):
        self.text = text
        self.source = source
        self.allow_subscripts = allow_subscripts
        self.count = 0

    def fail(self, reason: str) -> UnsafeExpressionError:
        return UnsafeExpressionError(self.text, reason)

    def check(self, node: ast.AST, depth: int = 0) -> None:
        self.count += 1
        if self.count > MAX_AST_NODES:
            raise self.fail(f"more than {MAX_AST_NODES} syntax nodes")
        if depth > MAX_AST_DEPTH:
            raise self.fail(f"nested more than {MAX_AST_DEPTH} levels deep")
        d = depth + 1
        if isinstance(node, ast.Constant):
            self.constant(node)
        elif isinstance(node, ast.Name):
            self.name(node.id)
        elif isinstance(node, ast.BinOp):
            if not isinstance(node.op, _ALLOWED_BINOPS):
                raise self.fail(f"operator {_binop_symbol(node.op)}")
            if isinstance(node.op, ast.Pow):
                self.power(node)
            if isinstance(node.op, (ast.LShift, ast.RShift)):
                amount = _int_literal(node.right)
                if amount is None or not 0 <= amount <= MAX_SHIFT:
                    raise self.fail(
                        f"shift amount must be an integer literal between 0 and {MAX_SHIFT}"
                    )
            self.check(node.left, d)
            self.check(node.right, d)
        elif isinstance(node, ast.UnaryOp):
            if not isinstance(
                node.op, _ALLOWED_UNARYOPS
            ):  # pragma: no cover - all are allowed
                raise self.fail(f"unary operator {type(node.op).__name__}")
            self.check(node.operand, d)
        elif isinstance(node, ast.BoolOp):
            for v in node.values:
                self.check(v, d)
        elif isinstance(node, ast.Compare):
            for op in node.ops:
                if not isinstance(op, _ALLOWED_CMPOPS):
                    raise self.fail(f"comparison '{_CMPOP_TEXT.get(type(op), '?')}'")
            operands = [node.left, *node.comparators]
            for i, operand in enumerate(operands):
                if _is_none(operand):
                    # `x is None` is how DaCe tests optional arrays; None means nothing else.
                    near = node.ops[max(i - 1, 0) : i + 1]
                    if not any(isinstance(op, (ast.Is, ast.IsNot)) for op in near):
                        raise self.fail("None outside of 'is None' / 'is not None'")
                    self.count += 1
                else:
                    self.check(operand, d)
        elif isinstance(node, ast.IfExp):
            self.check(node.test, d)
            self.check(node.body, d)
            self.check(node.orelse, d)
        elif isinstance(node, ast.Call):
            self.call(node, d)
        elif isinstance(node, ast.Subscript):
            self.subscript(node, d)
        elif isinstance(node, ast.Attribute):
            raise self.fail("attribute access")
        elif isinstance(node, ast.Lambda):
            raise self.fail("lambda expression")
        elif isinstance(
            node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
        ):
            raise self.fail("comprehension")
        elif isinstance(node, (ast.JoinedStr, ast.FormattedValue)):
            raise self.fail("string literal")
        elif isinstance(node, ast.NamedExpr):
            raise self.fail("assignment expression")
        elif isinstance(node, ast.Starred):
            raise self.fail("star expression")
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
            raise self.fail(f"{type(node).__name__.lower()} display")
        elif isinstance(node, ast.Slice):
            raise self.fail("slice")
        else:
            raise self.fail(f"{type(node).__name__} syntax")

    def constant(self, node: ast.Constant) -> None:
        value = node.value
        if value is None:
            raise self.fail("None outside of 'is None' / 'is not None'")
        if isinstance(value, bool):
            return
        if isinstance(value, (int, float)):
            literal = self.source[node.col_offset : node.end_col_offset]
            if sum(c.isdigit() for c in literal) > MAX_NUMBER_DIGITS:
                raise self.fail(
                    f"number literal with more than {MAX_NUMBER_DIGITS} digits"
                )
            return
        if isinstance(value, (str, bytes)):
            raise self.fail("string literal")
        if isinstance(value, complex):
            raise self.fail("complex literal")
        raise self.fail(f"literal {value!r}")

    def name(self, name: str) -> None:
        if _is_dunder(name):
            raise self.fail(f"dunder name '{name}'")
        if (
            not name.isidentifier() or not name.isascii()
        ):  # pragma: no cover - parser ensures
            raise self.fail(f"name {name!r}")

    def power(self, node: ast.BinOp) -> None:
        if _small_exponent(node.right) is None:
            raise self.fail(
                f"exponent of '**' must be an integer literal of at most {MAX_POW_EXPONENT} "
                "(or a ratio of two such literals)"
            )
        for sub in ast.walk(node.left):
            if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Pow):
                raise self.fail("nested '**'")

    def call(self, node: ast.Call, d: int) -> None:
        if not isinstance(node.func, ast.Name):
            if isinstance(node.func, ast.Attribute):
                raise self.fail("attribute access")
            raise self.fail("call of a computed function")
        fname = node.func.id
        if fname not in ALLOWED_FUNCTIONS:
            raise self.fail(f"call of '{fname}'")
        if node.keywords:
            raise self.fail(f"keyword arguments in call of '{fname}'")
        if not node.args:
            raise self.fail(f"call of '{fname}' without arguments")
        if len(node.args) > MAX_CALL_ARGS:
            raise self.fail(
                f"call of '{fname}' with more than {MAX_CALL_ARGS} arguments"
            )
        for a in node.args:
            if isinstance(a, ast.Starred):
                raise self.fail("star expression")
            self.check(a, d)

    def subscript(self, node: ast.Subscript, d: int) -> None:
        if not self.allow_subscripts:
            raise self.fail("subscript (data access is not allowed in this expression)")
        if not isinstance(node.value, ast.Name):
            if isinstance(node.value, ast.Attribute):
                raise self.fail("attribute access")
            raise self.fail("subscript of something other than a data container name")
        base = node.value.id
        self.name(base)
        if base in _reserved_names():
            raise self.fail(f"subscript of the reserved name '{base}'")
        index = node.slice
        items = index.elts if isinstance(index, ast.Tuple) else [index]
        if not items:
            raise self.fail("empty subscript")
        for item in items:
            self.check(item, d)


def _is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _int_literal(node: ast.AST) -> int | None:
    """The value of an integer literal, optionally with a unary sign."""
    sign = 1
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        if isinstance(node.op, ast.USub):
            sign = -sign
        node = node.operand
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return sign * node.value
    return None


def _small_exponent(node: ast.AST) -> int | tuple[int, int] | None:
    """An allowed `**` exponent: a small int literal or a ratio of two (sympy prints `N**(3/2)`)."""
    value = _int_literal(node)
    if value is not None:
        return value if abs(value) <= MAX_POW_EXPONENT else None
    sign = 1
    inner = node
    while isinstance(inner, ast.UnaryOp) and isinstance(inner.op, (ast.USub, ast.UAdd)):
        if isinstance(inner.op, ast.USub):
            sign = -sign
        inner = inner.operand
    if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Div):
        num, den = _int_literal(inner.left), _int_literal(inner.right)
        if (
            num is not None
            and den is not None
            and den != 0
            and abs(num) <= MAX_POW_EXPONENT
            and abs(den) <= MAX_POW_EXPONENT
        ):
            return (sign * num, den)
    return None


# --------------------------------------------------------------------------------------------
# DaCe range strings ("begin:end:step:tile, ...", as parsed by `dace.subsets.Range.from_string`)


def split_range_string(text: str) -> list[list[str]]:
    """Split a range string into dimensions and their `:`-separated tokens, like DaCe does.

    Mirrors `dace.subsets.Range.from_string`: split at `:` first, then each piece at commas
    outside parentheses. Every token returned here is what DaCe hands to `pystr_to_symbolic`
    (after splitting at `|` for `SymExpr` pairs).
    """
    dims: list[list[str]] = []
    current: list[str] = []
    for token in text.split(":"):
        depth = 0
        start = 0
        for i, ch in enumerate(token):
            if ch == "," and depth == 0:
                current.append(token[start:i])
                dims.append(current)
                current = []
                start = i + 1
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
        current.append(token[start:])
    dims.append(current)
    return dims


def check_range_string(text: str) -> list[list[ast.expr]]:
    """Check a DaCe range string (`"0:N, i"`) token by token, exactly as DaCe will parse it.

    A dimension with one token is parsed whole; with 2 to 4 tokens (`begin:end:step:tile`),
    each token is split at `|` into a `SymExpr` main/approximation pair first.
    """
    if not isinstance(text, str):
        raise UnsafeExpressionError(
            text, f"expected a string, got {type(text).__name__}"
        )
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise UnsafeExpressionError(
            text, f"longer than {MAX_EXPRESSION_LENGTH} characters ({len(text)})"
        )
    result: list[list[ast.expr]] = []
    for dim in split_range_string(text):
        if len(dim) > 4:
            raise UnsafeExpressionError(text, "a range dimension has more than 4 parts")
        parts = dim if len(dim) == 1 else [p for token in dim for p in token.split("|")]
        if len(dim) > 1 and any(token.count("|") > 1 for token in dim):
            raise UnsafeExpressionError(text, "more than one '|' in a range token")
        parsed = []
        for part in parts:
            try:
                parsed.append(check_expression(part))
            except UnsafeExpressionError as err:
                raise UnsafeExpressionError(
                    text, f"in {part.strip()!r}: {err.reason}"
                ) from None
        result.append(parsed)
    return result


# --------------------------------------------------------------------------------------------
# Free symbols, evaluation, substitution


def free_symbols(text: str) -> set[str]:
    """Names the expression reads, excluding called function names.

    Subscripted container names (`A` in `A[i]`) count as free names too.
    """
    tree = check_expression(text, allow_subscripts=True)
    return _names(tree)


def _names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            skip.add(id(node.func))
        elif isinstance(node, ast.Name) and id(node) not in skip:
            names.add(node.id)
    return names


Number = int | float | bool
_Value = int | float | bool | Fraction | None


def evaluate(text: str, values: Mapping[str, Number]) -> Number:
    """The value of a checked expression for the given symbol values (no subscripts).

    Arithmetic on ints is exact (non-integer quotients are kept as fractions internally); the
    result is an int or bool when it is integral or boolean, else a float.
    """
    tree = check_expression(text)
    names = _names(tree)
    missing = names - set(values)
    if missing:
        raise UnresolvedSymbolError(missing)
    for name in names:
        _check_value(name, values[name])
    return _to_number(_Evaluator(text, values).eval(tree))


def _check_value(name: str, v: object) -> None:
    if not isinstance(v, (int, float)):
        raise TypeError(
            f"value of '{name}' must be an int, float or bool, got {type(v).__name__}"
        )
    if isinstance(v, float) and not math.isfinite(v):
        raise ValueError(f"value of '{name}' is not finite: {v}")


def _to_number(v: _Value) -> Number:
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    return v  # type: ignore[return-value]


class _Evaluator:
    def __init__(self, text: str, values: Mapping[str, Number]):
        self.text = text
        self.values = values

    def fail(self, reason: str) -> EvaluationError:
        return EvaluationError(self.text, reason)

    def eval(self, node: ast.AST) -> _Value:
        try:
            return self._eval(node)
        except EvaluationError:
            raise
        except ZeroDivisionError:
            raise self.fail("division by zero") from None
        except OverflowError:
            raise self.fail("numeric overflow") from None
        except (TypeError, ValueError) as err:
            raise self.fail(str(err)) from None

    def _eval(self, node: ast.AST) -> _Value:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.values[node.id]
        if isinstance(node, ast.BinOp):
            return _normalize(
                _BINOPS[type(node.op)](self._eval(node.left), self._eval(node.right))
            )
        if isinstance(node, ast.UnaryOp):
            v = self._eval(node.operand)
            if isinstance(node.op, ast.USub):
                return -v
            if isinstance(node.op, ast.UAdd):
                return +v
            if isinstance(node.op, ast.Not):
                return not v
            return ~_as_int(v, "'~'")
        if isinstance(node, ast.BoolOp):
            if isinstance(node.op, ast.And):
                return all(bool(self._eval(v)) for v in node.values)
            return any(bool(self._eval(v)) for v in node.values)
        if isinstance(node, ast.Compare):
            left = None if _is_none(node.left) else self._eval(node.left)
            for op, comp in zip(node.ops, node.comparators):
                right = None if _is_none(comp) else self._eval(comp)
                if not _CMPOPS[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, ast.IfExp):
            return (
                self._eval(node.body)
                if self._eval(node.test)
                else self._eval(node.orelse)
            )
        if isinstance(node, ast.Call):
            assert isinstance(node.func, ast.Name)
            fname = node.func.id
            lo, hi, fn = _FUNCTIONS[fname]
            if len(node.args) < lo or (hi is not None and len(node.args) > hi):
                expected = (
                    f"{lo}"
                    if lo == hi
                    else f"at least {lo}"
                    if hi is None
                    else f"{lo} or {hi}"
                )
                raise self.fail(
                    f"'{fname}' takes {expected} argument(s), got {len(node.args)}"
                )
            return _normalize(fn(*[self._eval(a) for a in node.args]))
        raise self.fail(
            f"{type(node).__name__} cannot be evaluated"
        )  # pragma: no cover


def _normalize(v: _Value) -> _Value:
    if isinstance(v, complex):
        raise ValueError("the result is a complex number")  # noqa: TRY004 - a value, not a type error
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return v


def _as_int(v: _Value, what: str) -> int:
    if isinstance(v, int):
        return int(v)
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    raise TypeError(f"{what} needs integer operands, got {_to_number(v)!r}")


def _exact(v: _Value) -> bool:
    return isinstance(v, (int, Fraction))


def _divide(a: _Value, b: _Value) -> _Value:
    if _exact(a) and _exact(b):
        return Fraction(a) / Fraction(b)  # exact; ZeroDivisionError for b == 0
    return a / b


def _floordiv(a: _Value, b: _Value) -> _Value:
    r = a // b
    return int(r) if isinstance(r, float) and math.isfinite(r) else r


def _ceildiv(a: _Value, b: _Value) -> _Value:
    if _exact(a) and _exact(b):
        return -((-a) // b)
    return _ceil1(a / b)


def _mod(a: _Value, b: _Value) -> _Value:
    return a % b


def _power(a: _Value, b: _Value) -> _Value:
    if isinstance(b, Fraction):
        b = float(b)
    if _exact(a) and isinstance(b, int) and b < 0:
        return Fraction(1) / (Fraction(a) ** -b)
    if isinstance(a, Fraction) and isinstance(b, float):
        a = float(a)
    return a**b


def _shift(a: _Value, b: _Value, left: bool) -> int:
    x, n = _as_int(a, "a shift"), _as_int(b, "a shift")
    if not 0 <= n <= MAX_SHIFT:
        raise ValueError(f"shift amount {n} is outside 0..{MAX_SHIFT}")
    return x << n if left else x >> n


def _floor1(x: _Value) -> int:
    return x if isinstance(x, int) else math.floor(x)


def _ceil1(x: _Value) -> int:
    return x if isinstance(x, int) else math.ceil(x)


def _sqrt(x: _Value) -> _Value:
    if isinstance(x, int) and x >= 0:
        r = math.isqrt(x)
        if r * r == x:
            return r
    return math.sqrt(x)


def _log(x: _Value, base: _Value | None = None) -> float:
    if x == 0:
        raise ValueError("log of 0")
    return math.log(x) if base is None else math.log(x, base)


def _round(x: _Value) -> int:
    return round(x)


def _bits(op: Callable[[int, int], int], name: str) -> Callable[[_Value, _Value], int]:
    return lambda a, b: op(_as_int(a, name), _as_int(b, name))


_BINOPS: dict[type, Callable[[_Value, _Value], _Value]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: _divide,
    ast.FloorDiv: _floordiv,
    ast.Mod: _mod,
    ast.Pow: _power,
    ast.BitAnd: _bits(lambda a, b: a & b, "'&'"),
    ast.BitOr: _bits(lambda a, b: a | b, "'|'"),
    ast.BitXor: _bits(lambda a, b: a ^ b, "'^'"),
    ast.LShift: lambda a, b: _shift(a, b, True),
    ast.RShift: lambda a, b: _shift(a, b, False),
}
_CMPOPS: dict[type, Callable[[_Value, _Value], bool]] = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.Is: lambda a, b: a is b,
    ast.IsNot: lambda a, b: a is not b,
}

# name -> (min args, max args or None for any, implementation)
_FUNCTIONS: dict[str, tuple[int, int | None, Callable[..., _Value]]] = {
    "Min": (1, None, min),
    "min": (1, None, min),
    "Max": (1, None, max),
    "max": (1, None, max),
    "Abs": (1, 1, abs),
    "abs": (1, 1, abs),
    "floor": (1, 1, _floor1),
    "ceiling": (1, 1, _ceil1),
    "ceil": (1, 1, _ceil1),
    "int_floor": (2, 2, _floordiv),
    "int_ceil": (2, 2, _ceildiv),
    "Mod": (2, 2, _mod),
    "log": (1, 2, _log),
    "sqrt": (1, 1, _sqrt),
    "exp": (1, 1, math.exp),
    "round": (1, 1, _round),
    "ROUND": (1, 1, _round),
    "Eq": (2, 2, _CMPOPS[ast.Eq]),
    "Ne": (2, 2, _CMPOPS[ast.NotEq]),
    "Lt": (2, 2, _CMPOPS[ast.Lt]),
    "Le": (2, 2, _CMPOPS[ast.LtE]),
    "Gt": (2, 2, _CMPOPS[ast.Gt]),
    "Ge": (2, 2, _CMPOPS[ast.GtE]),
    "Is": (2, 2, _CMPOPS[ast.Is]),
    "IsNot": (2, 2, _CMPOPS[ast.IsNot]),
    "Not": (1, 1, lambda a: not a),
    "And": (1, None, lambda *a: all(map(bool, a))),
    "AND": (1, None, lambda *a: all(map(bool, a))),
    "Or": (1, None, lambda *a: any(map(bool, a))),
    "OR": (1, None, lambda *a: any(map(bool, a))),
    "IfExpr": (3, 3, lambda c, a, b: a if c else b),
    "bitwise_and": (2, 2, _BINOPS[ast.BitAnd]),
    "BitwiseAnd": (2, 2, _BINOPS[ast.BitAnd]),
    "bitwise_or": (2, 2, _BINOPS[ast.BitOr]),
    "BitwiseOr": (2, 2, _BINOPS[ast.BitOr]),
    "bitwise_xor": (2, 2, _BINOPS[ast.BitXor]),
    "BitwiseXor": (2, 2, _BINOPS[ast.BitXor]),
    "bitwise_invert": (1, 1, lambda a: ~_as_int(a, "bitwise_invert")),
    "BitwiseNot": (1, 1, lambda a: ~_as_int(a, "BitwiseNot")),
}
assert set(_FUNCTIONS) == ALLOWED_FUNCTIONS


def substitute(text: str, values: Mapping[str, Number]) -> str:
    """Replace the names given in `values`, fold constant subexpressions, print the result.

    Subscripted container names are never replaced and unknown names stay symbolic, so this
    works for partially known symbols: `substitute("N*M + 1", {"N": 4})` is `"4 * M + 1"`.
    Integer results are folded; a non-integral quotient of integers stays a division so that
    the printed expression remains exact.
    """
    tree = check_expression(text, allow_subscripts=True)
    for name, v in values.items():
        _check_value(name, v)
    return to_source(_Substituter(text, values).visit(tree))


class _Substituter:
    def __init__(self, text: str, values: Mapping[str, Number]):
        self.text = text
        self.values = values

    def visit(self, node: ast.expr) -> ast.expr:
        if isinstance(node, ast.Name):
            return (
                ast.Constant(self.values[node.id]) if node.id in self.values else node
            )
        if isinstance(node, ast.Subscript):
            index = node.slice
            if isinstance(index, ast.Tuple):
                index = ast.Tuple([self.visit(e) for e in index.elts], ast.Load())
            else:
                index = self.visit(index)
            return ast.Subscript(node.value, index, ast.Load())
        if isinstance(node, ast.BinOp):
            new: ast.expr = ast.BinOp(
                self.visit(node.left), node.op, self.visit(node.right)
            )
        elif isinstance(node, ast.UnaryOp):
            new = ast.UnaryOp(node.op, self.visit(node.operand))
        elif isinstance(node, ast.BoolOp):
            new = ast.BoolOp(node.op, [self.visit(v) for v in node.values])
        elif isinstance(node, ast.Compare):
            new = ast.Compare(
                self.visit(node.left),
                list(node.ops),
                [self.visit(c) for c in node.comparators],
            )
        elif isinstance(node, ast.IfExp):
            new = ast.IfExp(
                self.visit(node.test), self.visit(node.body), self.visit(node.orelse)
            )
        elif isinstance(node, ast.Call):
            new = ast.Call(node.func, [self.visit(a) for a in node.args], [])
        else:
            return node
        return self.fold(new)

    def fold(self, node: ast.expr) -> ast.expr:
        if _names(node) or any(
            isinstance(s, ast.Subscript) or _is_none(s) for s in ast.walk(node)
        ):
            return node
        try:
            value = _Evaluator(self.text, {}).eval(node)
        except ValueError:
            return node
        if isinstance(value, Fraction):
            return node  # keep `5 / 2` exact
        if isinstance(value, float) and not math.isfinite(value):
            return node
        if _too_many_digits(value):
            return node
        return ast.Constant(value)


def _too_many_digits(value: object) -> bool:
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return value.bit_length() > 200 or len(str(abs(value))) > MAX_NUMBER_DIGITS


# --------------------------------------------------------------------------------------------
# Printing with minimal parentheses

_P_IFEXP, _P_OR, _P_AND, _P_NOT, _P_CMP = 1, 2, 3, 4, 5
_P_BOR, _P_BXOR, _P_BAND, _P_SHIFT, _P_ADD, _P_MUL, _P_UNARY, _P_POW, _P_ATOM = range(
    6, 15
)

_BINOP_INFO: dict[type, tuple[str, int]] = {
    ast.Add: ("+", _P_ADD),
    ast.Sub: ("-", _P_ADD),
    ast.Mult: ("*", _P_MUL),
    ast.Div: ("/", _P_MUL),
    ast.FloorDiv: ("//", _P_MUL),
    ast.Mod: ("%", _P_MUL),
    ast.Pow: ("**", _P_POW),
    ast.BitAnd: ("&", _P_BAND),
    ast.BitOr: ("|", _P_BOR),
    ast.BitXor: ("^", _P_BXOR),
    ast.LShift: ("<<", _P_SHIFT),
    ast.RShift: (">>", _P_SHIFT),
}
_CMPOP_TEXT = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}


def _binop_symbol(op: ast.operator) -> str:
    if isinstance(op, ast.MatMult):
        return "'@'"
    info = _BINOP_INFO.get(type(op))
    return f"'{info[0]}'" if info else type(op).__name__


def _precedence(node: ast.expr) -> int:
    if isinstance(node, ast.IfExp):
        return _P_IFEXP
    if isinstance(node, ast.BoolOp):
        return _P_OR if isinstance(node.op, ast.Or) else _P_AND
    if isinstance(node, ast.UnaryOp):
        return _P_NOT if isinstance(node.op, ast.Not) else _P_UNARY
    if isinstance(node, ast.Compare):
        return _P_CMP
    if isinstance(node, ast.BinOp):
        return _BINOP_INFO[type(node.op)][1]
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool)
        and str(node.value).startswith("-")  # also -0.0
    ):
        return _P_UNARY
    return _P_ATOM


def to_source(node: ast.expr) -> str:
    """Print a checked expression AST with minimal parentheses."""

    def wrap(child: ast.expr, parens: bool) -> str:
        s = to_source(child)
        return f"({s})" if parens else s

    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, float):
            return repr(v)
        return repr(v)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.BinOp):
        sym, p = _BINOP_INFO[type(node.op)]
        if isinstance(node.op, ast.Pow):
            left = wrap(node.left, _precedence(node.left) <= p)
            right = wrap(node.right, _precedence(node.right) < _P_UNARY)
        else:
            left = wrap(node.left, _precedence(node.left) < p)
            right = wrap(node.right, _precedence(node.right) <= p)
        return f"{left} {sym} {right}"
    if isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.Not):
            return "not " + wrap(node.operand, _precedence(node.operand) < _P_NOT)
        sym = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}[type(node.op)]
        return sym + wrap(node.operand, _precedence(node.operand) < _P_UNARY)
    if isinstance(node, ast.BoolOp):
        p = _precedence(node)
        word = " and " if isinstance(node.op, ast.And) else " or "
        return word.join(wrap(v, _precedence(v) < p) for v in node.values)
    if isinstance(node, ast.Compare):
        parts = [wrap(node.left, _precedence(node.left) <= _P_CMP)]
        for op, comp in zip(node.ops, node.comparators):
            parts.append(_CMPOP_TEXT[type(op)])
            parts.append(wrap(comp, _precedence(comp) <= _P_CMP))
        return " ".join(parts)
    if isinstance(node, ast.IfExp):
        body = wrap(node.body, _precedence(node.body) <= _P_IFEXP)
        test = wrap(node.test, _precedence(node.test) <= _P_IFEXP)
        orelse = wrap(node.orelse, _precedence(node.orelse) < _P_IFEXP)
        return f"{body} if {test} else {orelse}"
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)
        return f"{node.func.id}({', '.join(to_source(a) for a in node.args)})"
    if isinstance(node, ast.Subscript):
        index = node.slice
        items = index.elts if isinstance(index, ast.Tuple) else [index]
        return f"{to_source(node.value)}[{', '.join(to_source(i) for i in items)}]"
    raise TypeError(f"cannot print {type(node).__name__}")  # pragma: no cover
