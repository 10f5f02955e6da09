"""From a DaCe program or SDFG to the files of the poplar-cpp target, in process."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from ipu_lower.diagnostics import CompileError, compile_stage, one_line
from ipu_lower.pipelines import SdfgToPoplarPass
from ipu_lower.program import symbol_value
from ipu_lower.targets.poplar_cpp import PoplarCppTarget, split_files


def to_sdfg(program_or_sdfg: Any):
    """A `dace.SDFG` from a `@dace.program` (named like its function), or a copy of an
    SDFG (the importer rewrites what it is given; the caller's SDFG stays as it was).
    A program DaCe cannot parse is a CompileError at its place in the source."""
    import dace

    from ipu_lower.dace_types import register

    register()
    if isinstance(program_or_sdfg, dace.SDFG):
        return dace.SDFG.from_json(program_or_sdfg.to_json())  # deepcopy fails on some control-flow regions
    if isinstance(program_or_sdfg, dace.frontend.python.parser.DaceProgram):
        if any(isinstance(a, str) for a in program_or_sdfg.f.__annotations__.values()):
            # DaCe 1.0.2 silently mistypes string annotations (e.g. as int8 scalars).
            raise TypeError(
                f"@dace.program '{program_or_sdfg.f.__name__}' has string annotations "
                "(from __future__ import annotations?), which DaCe does not evaluate"
            )
        with compile_stage("import", quiet=True):  # DaCe prints parse errors too
            try:
                sdfg = program_or_sdfg.to_sdfg(simplify=True)
            except Exception as err:
                raise _dace_parse_error(program_or_sdfg.f, err) from None
        sdfg.name = program_or_sdfg.f.__name__  # DaCe prefixes the module name
        return sdfg
    raise TypeError(f"expected a @dace.program or a dace.SDFG, got {type(program_or_sdfg).__name__}")


def _dace_parse_error(function: Any, err: Exception) -> CompileError:
    """DaCe's error for `function` at the line and column it names, else at the function."""
    from dace.frontend.python.common import DaceSyntaxError

    message = "DaCe cannot build an SDFG: "
    node = getattr(err, "node", None)
    if isinstance(err, DaceSyntaxError) and err.visitor is not None and hasattr(node, "lineno"):
        place = f"{err.visitor.filename}:{node.lineno}:{node.col_offset + 1}"
        return CompileError(message + err.message, place, "import")
    place = f"{function.__code__.co_filename}:{function.__code__.co_firstlineno}:1"
    return CompileError(f"{message}{type(err).__name__}: {one_line(err)}", place, "import")


def lower_program(
    program_or_sdfg: Any, symbols: Mapping[str, int], arch: str | None, demote_f64: bool = False, chunk: int = 0,
    prefer: str = "auto",
) -> ModuleOp:
    """The program at the poplar level (sdfg-to-poplar) for the given symbol values and
    arch; `chunk` forces the rows of a chunk of streamed maps (sdfg-stream-chunks),
    `prefer` our codelets or poplibs' vertices (ipu-select-vertices)."""
    from ipu_lower.frontend.importer import import_sdfg

    sdfg = to_sdfg(program_or_sdfg)
    with compile_stage("import"):
        module = import_sdfg(sdfg)
    spec = ",".join(f"{name}={symbol_value(name, value)}" for name, value in symbols.items())  # no "4,M=5"
    with compile_stage("lower"):
        SdfgToPoplarPass(symbols=spec, arch=arch, demote_f64=demote_f64, chunk=chunk, prefer=prefer).apply(Context(), module)
    return module


def emit_program(
    program_or_sdfg: Any, symbols: Mapping[str, int], arch: str | None, demote_f64: bool = False, chunk: int = 0,
    prefer: str = "auto",
) -> dict[str, str]:
    """host.cpp, codelets.cpp and program.json for the given symbol values and arch; what
    does not compile is a CompileError."""
    module = lower_program(program_or_sdfg, symbols, arch, demote_f64, chunk, prefer)
    output = io.StringIO()
    with compile_stage("emit"):
        PoplarCppTarget().emit(Context(), module, output)
    return split_files(output.getvalue())
