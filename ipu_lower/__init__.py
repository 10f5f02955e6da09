"""ipu-lower: compile DaCe SDFGs to Poplar C++ for Graphcore IPUs."""

from __future__ import annotations

from typing import Any

from ipu_lower.dace_types import register_when_dace_loads

register_when_dace_loads()


def compile(program_or_sdfg: Any, symbols=None, arch=None, directory=None, demote_f64=False, chunk=0, prefer="auto"):  # noqa: A001
    """Lower and build a `@dace.program` or `dace.SDFG` for the CPU emulator; see
    `ipu_lower.runtime.compile`. A program that does not compile, now or when a call
    builds it for new symbol values, raises `ipu_lower.diagnostics.CompileError` (one
    line, with `.location`, `.message` and `.stage`); wrong arguments raise TypeError, and
    g++ failing on the emitted code `ipu_lower.runtime.BuildError`."""
    from ipu_lower.diagnostics import compile_stage
    from ipu_lower.runtime import BuildError
    from ipu_lower.runtime import compile as compile_program

    with compile_stage("import", passing=(TypeError, OverflowError, BuildError)):
        return compile_program(
            program_or_sdfg, symbols=symbols, arch=arch, directory=directory, demote_f64=demote_f64, chunk=chunk,
            prefer=prefer,
        )
