"""User-facing errors: one line, naming the place, never a traceback.

`compile_stage` is the one place where anything the frontends, DaCe, sympy, xDSL or our
passes raise becomes a `CompileError`, and where warnings of those dependencies are kept
from the user (ours, `IpuLowerWarning`s, reach the caller); ipu-opt and the Python API
both go through it.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import sys
import warnings
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

from xdsl.utils.exceptions import DiagnosticException, ParseError

if TYPE_CHECKING:  # the IR's modules, imported where an op is described: ipu-run has no IR
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.ir import Operation

_ERROR = "error: "

_running_pass: ContextVar[str] = ContextVar("running_pass", default="")


class IpuLowerError(DiagnosticException):
    """An error in the user's input, reported as `<place>: error: <message>`."""


class CompileError(IpuLowerError):
    """Why a program does not compile, as one line `<location>: error: <message>`.

    `location` is a file:line:col, an SDFG node or an op, or '' when unknown; `stage` is
    the step that failed (import, lower or emit) or '' when it does not matter."""

    def __init__(self, message: str, location: str = "", stage: str = ""):
        self.message = one_line(message)
        self.location = one_line(location)
        self.stage = stage
        super().__init__(f"{self.location}: {_ERROR}{self.message}" if self.location else f"{_ERROR}{self.message}")


class IpuLowerWarning(UserWarning):
    """Something accepted but likely a mistake (in the user's input), or that the user
    should know (a cache refused); compile_stage lets it through, where it mutes those of
    dependencies, and ipu-opt prints it as one line `warning: <message>`."""


class UnknownSymbolWarning(IpuLowerWarning):
    """Values given for symbols the program does not have. They are accepted, as DaCe
    accepts them, but may be a typo of a symbol's name."""


def unknown_symbols(given: Iterable[str], known: Iterable[str]) -> str | None:
    """The warning for the names of `given` that are not among the program's `known`
    symbols, or None when there are none."""
    known = sorted(set(known))
    unknown = sorted(set(given) - set(known))
    if not unknown:
        return None
    program = f"the program's symbols: {', '.join(known)}" if known else "the program has no symbols"
    return f"unknown symbol{'s' * (len(unknown) > 1)} {', '.join(repr(n) for n in unknown)} ({program})"


def one_line(text: object) -> str:
    return " ".join(str(text).split())


def describe(op: Operation) -> str:
    """Where `op` came from: file:line:col when parsed from a file, else its name and label."""
    from xdsl.dialects.builtin import FileLineColLoc, StringAttr

    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    for key in ("sym_name", "label", "var_name", "container_name"):
        value = op.properties.get(key)
        if isinstance(value, StringAttr):
            return f"{op.name} '{value.data}'"
    return op.name


def error(op: Operation, message: str) -> IpuLowerError:
    return IpuLowerError(f"{describe(op)}: {_ERROR}{message}")


def located_verify_error(module: ModuleOp) -> IpuLowerError | None:
    """The first op of `module` (innermost first, as the verifier goes) that fails its
    verifier, as a one-line located error (without the IR xDSL's message carries)."""
    for op in module.walk(region_first=True):
        try:
            op.verify(verify_nested_ops=False)
        except Exception as err:
            return error(op, one_line(err) or type(err).__name__)
    return None


def verify_located(module: ModuleOp) -> None:
    """Verify `module`; a failure names the first op that fails."""
    try:
        module.verify()
    except Exception as err:  # some upstream verifiers raise plain exceptions
        raise located_verify_error(module) or err


def entering_pass(name: str | None) -> None:
    """Pass pipelines call this before each pass, so that its internal errors name it."""
    _running_pass.set(f"pass '{name}'" if name else "")


def as_compile_error(err: BaseException, stage: str = "", place: str = "") -> CompileError:
    """`err` as one located line; an exception of no known kind is an internal error of
    `stage`, at `place` (such as the pass that raised it) when given."""
    known = _input_error(err, stage)
    if known is not None:
        return known
    detail = f"{type(err).__name__}: {one_line(err)}" if one_line(err) else type(err).__name__
    return CompileError(
        f"internal error{f' in {stage}' if stage else ''} ({detail}); set IPU_LOWER_DEBUG=1 for a traceback",
        place,
        stage,
    )


def is_internal(err: BaseException) -> bool:
    """Whether `err` is a bug of ours or a dependency's rather than a problem of the input."""
    return _input_error(err, "") is None


def _input_error(err: BaseException, stage: str) -> CompileError | None:
    """`err` as one located line if it is of a kind that reports a problem of the input."""
    if isinstance(err, CompileError):
        return err
    if isinstance(err, RecursionError):  # the parsers and DaCe recurse once per level of nesting
        return CompileError("the input nests too deeply (deeper than Python's recursion limit)", stage=stage)
    if isinstance(err, ParseError):
        where = err.span.get_location()
        return CompileError(err.msg, f"{where.file}:{where.line}:{where.col}", stage)
    if isinstance(getattr(err, "where", None), str) and isinstance(getattr(err, "message", None), str):
        # the frontends' SdfgImportError and SdfgInputError (not imported: they load DaCe)
        return CompileError(err.message, err.where, stage)
    if isinstance(err, OSError) and err.strerror:
        return CompileError(f"{err.strerror}: {err.filename}" if err.filename else err.strerror, stage=stage)
    if isinstance(err, DiagnosticException | ValueError):
        location, found, message = str(err).strip().partition(_ERROR)
        if not found:  # no place given
            return CompileError(location, stage=stage)
        return CompileError(message, location.strip().removesuffix(":"), stage)
    return None


def warn(message: str, category: type[Warning] = IpuLowerWarning) -> None:
    """Warn where the user's code called into ipu-lower: the first frame outside its
    packages (Python shows that line, not one of ours)."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_our_folders()):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


@functools.cache
def _our_folders() -> tuple[str, ...]:
    """Where ipu_lower, ipu_lower.dialects and ipu_lower.passes live (the last two are
    mapped from the repository's root)."""
    from importlib.util import find_spec

    return tuple(str(Path(folder).resolve()) + os.sep for name in ("ipu_lower", "ipu_lower.dialects", "ipu_lower.passes")
                 for folder in find_spec(name).submodule_search_locations)


@contextlib.contextmanager
def warnings_as_lines(tool: str) -> Iterator[None]:
    """Show ipu-lower's warnings as one line each on stderr, `<tool>: warning: <message>`
    (Python's default shows two, with a line of source)."""
    original = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, IpuLowerWarning):
            print(f"{tool}: warning: {message}", file=sys.stderr)
        else:
            original(message, category, filename, lineno, file, line)

    warnings.showwarning = show
    try:
        yield
    finally:
        warnings.showwarning = original


@contextlib.contextmanager
def compile_stage(stage: str, passing: tuple[type[BaseException], ...] = (), quiet: bool = False) -> Iterator[None]:
    """Run one step of compilation: warnings of dependencies are not shown, with `quiet` nor
    what they print (DaCe prints its parse errors), and any exception but those `passing`
    through is raised as a CompileError; with IPU_LOWER_DEBUG=1 internal errors keep their
    traceback. Our own warnings are issued again when the step ends, to the caller's
    filters. Like `warnings.catch_warnings` and `redirect_stdout`, which it uses, it acts
    on the whole process: compile from one thread at a time."""
    muted = contextlib.ExitStack()
    if quiet:
        muted.enter_context(contextlib.redirect_stdout(io.StringIO()))
        muted.enter_context(contextlib.redirect_stderr(io.StringIO()))
    running = _running_pass.set("")
    ours: list[warnings.WarningMessage] | None = []
    try:
        with warnings.catch_warnings(record=True) as ours, muted:
            warnings.simplefilter("ignore")
            warnings.simplefilter("always", IpuLowerWarning)
            try:
                yield
            except passing:
                raise
            except Exception as err:
                if os.environ.get("IPU_LOWER_DEBUG") and is_internal(err):
                    raise
                raise as_compile_error(err, stage, _running_pass.get()) from None
            finally:
                _running_pass.reset(running)
    finally:
        for w in ours or ():
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
