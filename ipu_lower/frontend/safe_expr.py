"""Whitelist checker for the symbolic expressions of SDFG files.

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

Constant parts (without names) must stay within the 64-bit integer range, checked before
computing them (`constant_range`), since sympy folds them as soon as DaCe reads the text.

The text must be at most `MAX_EXPRESSION_LENGTH` characters of printable ASCII without
backslashes or `#`, with at most `MAX_AST_NODES` nodes nested at most `MAX_AST_DEPTH` deep.

This is only the safety check of untrusted text: the algebra passes use on the checked
expressions, once DaCe has turned them into sympy objects, is `ipu_lower.dialects.index_expr`.
"""

from __future__ import annotations

import ast
import builtins
import keyword

from ipu_lower.frontend.constant_range import ConstantRangeError, check_constants

__all__ = [
    "ALLOWED_FUNCTIONS",
    "UnsafeExpressionError",
    "check_expression",
    "check_range_string",
    "is_identifier",
    "split_range_string",
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
    try:
        check_constants(tree.body)
    except ConstantRangeError as err:
        raise UnsafeExpressionError(text, str(err)) from None
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


_BINOP_TEXT = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
    ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<",
    ast.RShift: ">>", ast.MatMult: "@",
}
_CMPOP_TEXT = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
    ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in",
}


def _binop_symbol(op: ast.operator) -> str:
    text = _BINOP_TEXT.get(type(op))
    return f"'{text}'" if text else type(op).__name__
