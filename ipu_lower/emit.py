"""From a DaCe program or SDFG to the files of the poplar-cpp target, in process."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Mapping
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from ipu_lower.pipelines import SdfgToPoplarPass
from ipu_lower.program import symbol_value
from ipu_lower.targets.poplar_cpp import PoplarCppTarget, split_files


def to_sdfg(program_or_sdfg: Any):
    """A `dace.SDFG` from a `@dace.program` (named like its function), or a copy of an
    SDFG (the importer rewrites what it is given; the caller's SDFG stays as it was)."""
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
        with contextlib.redirect_stdout(io.StringIO()):  # DaCe prints parse errors too
            sdfg = program_or_sdfg.to_sdfg(simplify=True)
        sdfg.name = program_or_sdfg.f.__name__  # DaCe prefixes the module name
        return sdfg
    raise TypeError(f"expected a @dace.program or a dace.SDFG, got {type(program_or_sdfg).__name__}")


def lower_program(
    program_or_sdfg: Any, symbols: Mapping[str, int], arch: str | None, demote_f64: bool = False, chunk: int = 0
) -> ModuleOp:
    """The program at the poplar level (sdfg-to-poplar) for the given symbol values and
    arch; `chunk` forces the rows of a chunk of streamed maps (sdfg-stream-chunks)."""
    from ipu_lower.frontend.importer import import_sdfg

    module = import_sdfg(to_sdfg(program_or_sdfg))
    spec = ",".join(f"{name}={symbol_value(name, value)}" for name, value in symbols.items())  # no "4,M=5"
    SdfgToPoplarPass(symbols=spec, arch=arch, demote_f64=demote_f64, chunk=chunk).apply(Context(), module)
    return module


def emit_program(
    program_or_sdfg: Any, symbols: Mapping[str, int], arch: str | None, demote_f64: bool = False, chunk: int = 0
) -> dict[str, str]:
    """host.cpp, codelets.cpp and program.json for the given symbol values and arch."""
    module = lower_program(program_or_sdfg, symbols, arch, demote_f64, chunk)
    output = io.StringIO()
    PoplarCppTarget().emit(Context(), module, output)
    return split_files(output.getvalue())
