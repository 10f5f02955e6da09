"""Input formats of ipu-opt, chosen by file extension (or -f).

- `.sdfg` / `.sdfgz`: DaCe JSON, validated by the whitelist checker before DaCe parses it.
- `.py`: a Python file defining `@dace.program`s; `entry` picks one when there are several.
- `.mlir`: IR text; ops get file:line:col locations so diagnostics can name them.
"""

from __future__ import annotations

import runpy
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.frontend import Frontend

# Its string-literal lexing, linear in the input, for every parse (the dialects
# themselves are imported when the context first needs them).
from ipu_lower.dialects import string_literal  # noqa: F401
from ipu_lower.diagnostics import CompileError

# DaCe takes a second to import: the SDFG frontends import it only when used.


class LocatedParser(Parser):
    """An MLIR parser that records where each op starts as its location."""

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int = 0):
        super().__init__(ctx, text, name)
        self.line_offset = line_offset

    def parse_operation(self) -> Operation:
        where = self._current_token.span.get_location()
        op = super().parse_operation()
        if isinstance(op.location, UnknownLoc):
            op.location = FileLineColLoc(
                StringAttr(where.file), IntAttr(where.line + self.line_offset), IntAttr(where.col)
            )
        return op


@dataclass(frozen=True)
class LocatedMlirFrontend(Frontend):
    name = "mlir"

    def parse(self, ctx: Context, input: IO[bytes], input_name: str, line_offset: int = 0) -> ModuleOp:
        data = input.read()
        try:
            text = data.decode()
        except UnicodeDecodeError as err:
            line = data.count(b"\n", 0, err.start) + 1 + line_offset
            column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
            raise CompileError(f"not UTF-8 text ({err.reason})", f"{input_name}:{line}:{column}", "import") from None
        return LocatedParser(ctx, text, input_name, line_offset).parse_module()


@dataclass(frozen=True)
class SdfgFrontend(Frontend):
    """A DaCe `.sdfg` (JSON) or `.sdfgz` (gzipped JSON) file."""

    name = "sdfg"

    def parse(self, ctx: Context, input: IO[bytes], input_name: str) -> ModuleOp:
        from ipu_lower.frontend.importer import import_sdfg
        from ipu_lower.frontend.sdfg_json import read_sdfg_file, sdfg_from_json_safely

        document = read_sdfg_file(input, input_name)
        return import_sdfg(sdfg_from_json_safely(document))


@dataclass(frozen=True)
class SdfgzFrontend(SdfgFrontend):
    name = "sdfgz"


@dataclass(frozen=True)
class DacePythonFrontend(Frontend):
    """A Python file with `@dace.program`s, converted with `to_sdfg(simplify=True)`."""

    name = "py"

    entry: str = ""

    def parse(self, ctx: Context, input: IO[bytes], input_name: str) -> ModuleOp:
        import dace

        from ipu_lower.emit import to_sdfg
        from ipu_lower.frontend.importer import import_sdfg
        from ipu_lower.frontend.sdfg_json import SdfgInputError
        path = Path(input_name).resolve()
        sys.path.insert(0, str(path.parent))
        try:
            namespace = runpy.run_path(str(path), run_name=path.stem)
        except SyntaxError as err:
            raise SdfgInputError(err.msg, f"{input_name}:{err.lineno}:{err.offset}") from None
        except SystemExit as err:
            raise SdfgInputError(f"the file exited (sys.exit({err.code!r})) while loading", input_name) from err
        except Exception as err:
            raise SdfgInputError(f"running the file failed: {type(err).__name__}: {err}", input_name) from err
        finally:
            sys.path.remove(str(path.parent))
        programs = {
            name: value
            for name, value in namespace.items()
            if isinstance(value, dace.frontend.python.parser.DaceProgram)
        }
        if not programs:
            raise SdfgInputError("the file defines no @dace.program", input_name)
        if self.entry:
            if self.entry not in programs:
                raise SdfgInputError(
                    f"no @dace.program named '{self.entry}' (found: {', '.join(sorted(programs))})",
                    input_name,
                )
            program = programs[self.entry]
        elif len(programs) > 1:
            raise SdfgInputError(
                f"several @dace.programs ({', '.join(sorted(programs))}); pick one with --entry NAME",
                input_name,
            )
        else:
            program = next(iter(programs.values()))
        try:
            sdfg = to_sdfg(program)  # DaCe's errors are located CompileErrors
        except TypeError as err:
            raise SdfgInputError(str(err), input_name) from None
        return import_sdfg(sdfg)
