"""Call a compiled program like a DaCe program: symbol values come from the arguments.

DaCe takes `N` from `A.shape` when `A: dace.float32[N]` is called with an array. So does
`Program`: each call binds the arguments by name, solves the declared shapes for the
symbols they use (`N`, `N + 1`, `2 * N`, ... one unknown at a time), takes the symbols no
shape determines from keyword arguments named like them (`prog(A, T=10)`) or from
`compile(..., symbols=...)`, and builds the program once per distinct set of values
(`ipu_lower.runtime.CompiledProgram`, whose shared library is also cached on disk).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ipu_lower.dialects.index_expr import ExprError, IndexExpr

Shapes = Mapping[str, Sequence[IndexExpr]]
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A C and Python identifier (symbol names, program.json's names)."""


def infer_symbols(declared: Shapes, arrays: Mapping[str, tuple[int, ...]], known: Mapping[str, int]) -> dict[str, int]:
    """The symbol values under which every array of `arrays` has its `declared` shape,
    starting from `known`. A TypeError names the argument whose shape disagrees."""
    values = dict(known)
    pending = [(name, k) for name in arrays for k in range(len(declared[name]))]
    for name, shape in arrays.items():
        if len(shape) != len(declared[name]):
            raise TypeError(f"argument '{name}' must have shape {_text(declared[name])}, got {list(shape)}")
    progress = True
    while pending and progress:
        progress = False
        for name, k in list(pending):
            expr, actual = declared[name][k], arrays[name][k]
            unknown = sorted(expr.symbols() - set(values))
            if len(unknown) > 1:
                continue
            if unknown:
                solved = _solve(expr, unknown[0], actual, values)
                if solved is None:
                    continue
                values[unknown[0]] = solved
            pending.remove((name, k))
            progress = True
            if _value(expr, values) != actual:
                raise TypeError(_mismatch(name, declared[name], arrays[name], values))
    return values


def _value(expr: IndexExpr, values: Mapping[str, int]) -> int | None:
    """The value of `expr`, or None where it has none: a symbol not known yet, a value past
    64 bits, a division by zero."""
    try:
        return expr.evaluate(values)
    except ExprError:
        return None


def _solve(expr: IndexExpr, symbol: str, actual: int, values: Mapping[str, int]) -> int | None:
    """The value of `symbol` that gives `expr` the value `actual` when `expr` is linear in
    it (a * symbol + b), else None."""
    at_zero, at_one = _value(expr, {**values, symbol: 0}), _value(expr, {**values, symbol: 1})
    if at_zero is None or at_one is None or at_one == at_zero or (actual - at_zero) % (at_one - at_zero):
        return None
    solved = (actual - at_zero) // (at_one - at_zero)
    return solved if solved >= 0 and _value(expr, {**values, symbol: solved}) == actual else None


def _text(shape: Sequence[IndexExpr]) -> str:
    return "[" + ", ".join(e.format() for e in shape) + "]"


def _shown(expr: IndexExpr, values: Mapping[str, int]) -> str:
    """`expr`'s value, or the expression where a symbol is not known yet."""
    value = _value(expr, values)
    if value is not None:
        return str(value)
    return "more than 64 bits" if expr.symbols() <= set(values) else expr.format()


def _mismatch(name: str, shape: Sequence[IndexExpr], actual: tuple[int, ...], values: Mapping[str, int]) -> str:
    used = sorted(set().union(*(e.symbols() for e in shape)))
    given = ", ".join(f"{s} = {values[s]}" for s in used if s in values)
    known = ", ".join(_shown(e, values) for e in shape)
    return f"argument '{name}' has shape {list(actual)}, but its declared shape {_text(shape)} is " + (
        f"[{known}] with {given}" if given else "fixed"
    )


class Program:
    """A DaCe program built for the emulator per set of symbol values; call it like the
    DaCe program. `report`, `cycles`, `estimate`, `arguments` and `directory` are those of
    the program the last call ran (or of the one `compile(..., symbols=...)` built).

    Safe to call from several threads: each set of symbol values is built once (the
    others wait for it), and the runs of one built program take turns (see
    `ipu_lower.runtime.CompiledProgram`)."""

    def __init__(
        self,
        name: str,
        parameters: Sequence[str],
        declared: Shapes,
        free_symbols: Sequence[str],
        symbols: Mapping[str, int],
        build: Callable[[dict[str, int]], Any],
    ):
        self.name = name
        self.parameters = list(parameters)
        self.declared = declared
        self.free_symbols = list(free_symbols)
        self.symbols = dict(symbols)
        self._build = build
        self._built: dict[tuple[tuple[str, int], ...], Any] = {}
        self._building = threading.Lock()
        self.last: Any = None
        if set(self.free_symbols) <= set(self.symbols):
            self.last = self.specialize(self.symbols)

    def specialize(self, values: Mapping[str, int]) -> Any:
        """The program built for these symbol values (built on first use)."""
        key = tuple(sorted((s, values[s]) for s in self.free_symbols))
        with self._building:
            if key not in self._built:
                self._built[key] = self._build(dict(key))
            return self._built[key]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        symbol_kwargs = {k: kwargs.pop(k) for k in list(kwargs) if k in self.free_symbols}
        bound = self._bind(args, kwargs)
        known = {**self.symbols, **{k: symbol_value(k, v) for k, v in symbol_kwargs.items()}}
        arrays = {n: v.shape for n, v in bound.items() if isinstance(v, np.ndarray) and n in self.declared}
        values = infer_symbols(self.declared, arrays, known)
        missing = [s for s in self.free_symbols if s not in values]
        if missing:
            listed = ", ".join(f"'{s}': ..." for s in missing)
            raise TypeError(
                f"{self.name}(): no argument's shape gives {', '.join(missing)}; pass "
                f"{'them' if len(missing) > 1 else 'it'} as compile({self.name}, symbols={{{listed}}}) "
                f"or as a keyword argument ({', '.join(f'{s}=...' for s in missing)})"
            )
        program = self.last = self.specialize(values)
        return program(**bound)  # not self.last, which another thread may have set since

    def _bind(self, args: tuple, kwargs: dict) -> dict[str, Any]:
        if len(args) > len(self.parameters):
            raise TypeError(f"{self.name}() takes {len(self.parameters)} arguments, got {len(args)}")
        bound = dict(zip(self.parameters, args))
        for name, value in kwargs.items():
            if name in bound:
                raise TypeError(f"{self.name}(): argument '{name}' given twice")
            bound[name] = value
        return bound

    @property
    def report(self) -> dict[str, Any] | None:
        return None if self.last is None else self.last.report

    @property
    def cycles(self) -> int | None:
        return None if self.last is None else self.last.cycles

    @property
    def estimate(self) -> Any:
        """The cost model's estimate of a run (`ipu_lower.estimates.ProgramEstimate`)."""
        return None if self.last is None else self.last.estimate

    @property
    def measured(self) -> Any:
        """What the emulator measured in the last run (`ipu_lower.runtime.Measured`)."""
        return None if self.last is None else self.last.measured

    @property
    def arguments(self) -> list[Any]:
        return [] if self.last is None else self.last.arguments

    @property
    def directory(self) -> Any:
        return None if self.last is None else self.last.directory

    def close(self) -> None:
        for built in self._built.values():
            built.close()


def symbol_value(name: Any, value: Any) -> int:
    """A symbol's value checked at the API: a name and a non-negative int64 (a bool, a
    string or a float is no size, and the passes take the values as a text)."""
    if not isinstance(name, str) or not IDENTIFIER.fullmatch(name):
        raise TypeError(f"symbol names must be identifiers, got {name!r:.60}")
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or not 0 <= value < 2**63:
        raise TypeError(f"symbol '{name}' must be a non-negative integer below 2**63, got {value!r:.60}")
    return int(value)
