"""User-facing errors: one line, naming the place, never a traceback."""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc, StringAttr
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException


class IpuLowerError(DiagnosticException):
    """An error in the user's input, reported as `<place>: error: <message>`."""


def describe(op: Operation) -> str:
    """Where `op` came from: file:line:col when parsed from a file, else its name and label."""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    for key in ("sym_name", "label", "var_name", "container_name"):
        value = op.properties.get(key)
        if isinstance(value, StringAttr):
            return f"{op.name} '{value.data}'"
    return op.name


def error(op: Operation, message: str) -> IpuLowerError:
    return IpuLowerError(f"{describe(op)}: error: {message}")
