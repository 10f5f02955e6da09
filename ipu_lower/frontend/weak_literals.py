"""Python literals in tasklets as numpy's weak scalars (NEP 50).

DaCe 1.0.2 types `B[i] = A[i] * 0.5 + 3` with float32 `A` as numpy did before 2.0: its
frontend casts the input up (`dace.float64(__in1) * 0.5`) and gives the temporaries it
writes (`__tmp1`, `__tmp2`) float64, which no IPU computes in. Numpy 2 (NEP 50) keeps
float32: a Python int or float takes the type of the array operand it meets, except that
a float meeting an integer gives float64. `weaken_literals` applies that rule to the SDFG
before import: it reads each tasklet's expression with its inputs' types, taking DaCe's
promotion casts to float64 (`dace.float64(x)` of an input or a literal, inside an
operation: a tasklet that only converts, `dace.float64(A[i] * 3)`, is the program's own
conversion and keeps float64) as no cast, and
when every tasklet writing a float64 transient yields the same narrower float, the
transient takes that type and those casts become casts to it. It repeats until nothing
changes, since temporaries feed temporaries. The code is parsed, never evaluated.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import numpy as np
from dace import data as dt
from dace import dtypes, nodes
from dace.properties import CodeBlock
from dace.sdfg import SDFG, SDFGState

_FLOAT64_CASTS = ("float64", "double")
_MODULES = {"dace", "np", "numpy", "math"}
_SAME_TYPE_CALLS = {"exp", "log", "sqrt", "sin", "cos", "tan", "tanh", "abs", "fabs", "floor", "ceil", "exp2", "log2", "log10"}


@dataclass(frozen=True)
class _Weak:
    """A Python literal: its kind, "int" or "float" (bool counts as int)."""

    kind: str


_Type = np.dtype | _Weak | None
"""A strong numpy type, a weak literal, or None: not known (the tasklet is left alone)."""


def _combine(a: _Type, b: _Type) -> _Type:
    """NEP 50's result type of a binary operation."""
    if a is None or b is None:
        return None
    if isinstance(a, _Weak) and isinstance(b, _Weak):
        return _Weak("float" if "float" in (a.kind, b.kind) else "int")
    if isinstance(a, _Weak) or isinstance(b, _Weak):
        strong, weak = (b, a) if isinstance(a, _Weak) else (a, b)
        if weak.kind == "float" and strong.kind in "biu":  # type: ignore[union-attr]
            return np.dtype(np.float64)
        return np.dtype(np.int64) if strong.kind == "b" else strong  # type: ignore[union-attr]
    return np.result_type(a, b)


class _Reader(ast.NodeVisitor):
    """The type of an expression, recording DaCe's float64 promotion casts it meets."""

    def __init__(self, inputs: dict[str, np.dtype]):
        self.inputs = inputs
        self.casts: list[ast.Call] = []

    def type_of(self, node: ast.expr) -> _Type:
        if isinstance(node, ast.Name):
            return self.inputs.get(node.id)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool | int):
                return _Weak("int")
            return _Weak("float") if isinstance(node.value, float) else None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            return self.type_of(node.operand)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult | ast.Div | ast.Pow):
            return _combine(self.type_of(node.left), self.type_of(node.right))
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
            name = _call_name(node.func)
            inner = self.type_of(node.args[0])
            if name in _FLOAT64_CASTS and (isinstance(inner, _Weak) or isinstance(node.args[0], ast.Name)):
                self.casts.append(node)
                return inner if not isinstance(inner, _Weak) else _Weak("float")
            if name in _SAME_TYPE_CALLS and isinstance(inner, np.dtype) and inner.kind == "f":
                return inner
        return None


def _call_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in _MODULES:
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


def _tasklet_result(state: SDFGState, tasklet: nodes.Tasklet, sdfg: SDFG) -> tuple[np.dtype, list[ast.Call], ast.Module] | None:
    """The narrower float a single-assignment Python tasklet yields, its float64 casts
    and its parsed code; None when it yields anything else or cannot be read."""
    if tasklet.code.language != dtypes.Language.Python or len(tasklet.out_connectors) != 1:
        return None
    try:
        tree = ast.parse(tasklet.code.as_string)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Assign) or len(tree.body[0].targets) != 1:
        return None
    inputs = {}
    for edge in state.in_edges(tasklet):
        if edge.data.data is None or edge.dst_conn is None:
            continue
        inputs[edge.dst_conn] = np.dtype(sdfg.arrays[edge.data.data].dtype.as_numpy_dtype())
    value = tree.body[0].value
    if isinstance(value, ast.Call) and _call_name(value.func) in _FLOAT64_CASTS:
        return None  # a conversion the program asks for: DaCe writes its promotions inside operations
    reader = _Reader(inputs)
    result = reader.type_of(value)
    if not isinstance(result, np.dtype) or result.kind != "f" or result.itemsize >= 8:
        return None
    return result, reader.casts, tree


def _writers(sdfg: SDFG, name: str) -> list[tuple[SDFGState, nodes.Node]] | None:
    """The nodes that write container `name` (through map exits), or None when a nested
    SDFG reads or writes it (its own container keeps float64)."""
    writers = []
    for state in sdfg.states():
        for node in state.data_nodes():
            if node.data != name:
                continue
            for edge in state.in_edges(node):
                writers.append((state, state.memlet_path(edge)[0].src))
            if any(isinstance(state.memlet_path(e)[-1].dst, nodes.NestedSDFG) for e in state.out_edges(node)):
                return None
    return writers


def weaken_literals(sdfg: SDFG) -> None:
    """Retype the float64 transients that NEP 50 makes narrower (module docstring)."""
    for inner in sdfg.all_sdfgs_recursive():
        while _weaken_once(inner):
            pass


def _weaken_once(sdfg: SDFG) -> bool:
    changed = False
    for name, desc in sdfg.arrays.items():
        if not desc.transient or desc.dtype != dtypes.float64 or isinstance(desc, dt.View):
            continue
        writers = _writers(sdfg, name)
        if not writers:
            continue
        results = [
            (node, _tasklet_result(state, node, sdfg) if isinstance(node, nodes.Tasklet) else None)
            for state, node in writers
        ]
        types = {r[0] for _, r in results if r is not None}
        if any(r is None for _, r in results) or len(types) != 1:
            continue
        (narrow,) = types
        for tasklet, (_, casts, tree) in results:  # type: ignore[misc]
            for call in casts:
                call.func = ast.Attribute(ast.Name("dace", ast.Load()), narrow.name, ast.Load())
            tasklet.code = CodeBlock(ast.unparse(tree), dtypes.Language.Python)
        desc.dtype = dtypes.typeclass(narrow.type)
        changed = True
    return changed
