"""Target `poplar-cpp`: print host.cpp and codelets.cpp from the `poplar` dialect.

Both files go to one stream, each after a `// FILE: <name>` line; `ipu-opt -o DIR`
splits them into DIR/host.cpp and DIR/codelets.cpp.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from ipu_lower.diagnostics import IpuLowerError, error
from ipu_lower.dialects import poplar
from ipu_lower.targets.codelet_printer import print_codelet, print_codelets_header
from ipu_lower.targets.host_printer import HOST_RESERVED, print_host
from ipu_lower.targets.print_context import PrintContext

FILE_MARKER = "// FILE: "
HOST_FILE = "host.cpp"
CODELETS_FILE = "codelets.cpp"


@dataclass(frozen=True)
class PoplarCppTarget(Target):
    """Options: `sdk=3` (MultiVertex, void compute) or `sdk=2` (Vertex, bool compute)."""

    name = "poplar-cpp"

    sdk: int = 3

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        if self.sdk not in (2, 3):
            raise IpuLowerError(f"error: poplar-cpp option sdk must be 2 or 3, got {self.sdk}")
        programs = [op for op in module.ops if isinstance(op, poplar.HostProgramOp)]
        codelets = [op for op in module.ops if isinstance(op, poplar.CodeletOp)]
        for op in module.ops:
            if not isinstance(op, poplar.HostProgramOp | poplar.CodeletOp):
                raise error(op, f"'{op.name}' is not a poplar op; lower the module with sdfg-to-poplar first")
        if len(programs) != 1:
            raise IpuLowerError(
                f"error: poplar-cpp needs exactly one poplar.host_program, found {len(programs)}"
            )
        output.write(f"{FILE_MARKER}{HOST_FILE}\n")
        print_host(PrintContext(output, HOST_RESERVED), programs[0])
        output.write(f"{FILE_MARKER}{CODELETS_FILE}\n")
        codelet_ctx = PrintContext(output)
        print_codelets_header(codelet_ctx, self.sdk)
        for codelet in codelets:
            print_codelet(codelet_ctx, codelet, self.sdk)


def split_files(text: str) -> dict[str, str]:
    """The files of a `poplar-cpp` output, by name."""
    files: dict[str, str] = {}
    current = None
    for line in text.splitlines(keepends=True):
        if line.startswith(FILE_MARKER):
            current = line[len(FILE_MARKER):].strip()
            files[current] = ""
        elif current is not None:
            files[current] += line
    return files
