"""Target `poplar-cpp`: print host.cpp and codelets.cpp from the `poplar` dialect.

Both files go to one stream, each after a `// FILE: <name>` line; `ipu-opt -o DIR`
splits them into DIR/host.cpp and DIR/codelets.cpp.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp
from xdsl.utils.target import Target

from ipu_lower.arch import get_arch
from ipu_lower.diagnostics import IpuLowerError, error
from ipu_lower.dialects import poplar
from ipu_lower.passes.demote_f64 import DECLARED_TYPES
from ipu_lower.targets.codelet_printer import print_codelet, print_codelets_header
from ipu_lower.element_types import element_type
from ipu_lower.targets.abi import ABI_FUNCTIONS
from ipu_lower.targets.host_printer import abi_arguments, print_host, program_prefix
from ipu_lower.targets.print_context import PrintContext

FILE_MARKER = "// FILE: "
HOST_FILE = "host.cpp"
CODELETS_FILE = "codelets.cpp"
MANIFEST_FILE = "program.json"
MAKEFILE = "Makefile"

# Building for a machine with the Poplar SDK (popc and libpoplar on the PATH).
MAKEFILE_TEXT = """\
# Builds the program for the real Poplar SDK: `make` (needs popc and the SDK's libraries).
CXX ?= g++
CXXFLAGS ?= -std=c++17 -O2 -fPIC

all: lib{prefix}.so codelets.gp

codelets.gp: codelets.cpp
\tpopc -O2 codelets.cpp -o codelets.gp

lib{prefix}.so: host.cpp
\t$(CXX) $(CXXFLAGS) -shared host.cpp -o lib{prefix}.so -lpoplar -lpoputil -lpopops -lpoplin

clean:
\trm -f codelets.gp lib{prefix}.so

.PHONY: all clean
"""


@dataclass(frozen=True)
class PoplarCppTarget(Target):
    """Options: `sdk=3` (MultiVertex, void compute) or `sdk=2` (Vertex, bool compute);
    `makefile=true` adds a Makefile for building with the real Poplar SDK."""

    name = "poplar-cpp"

    sdk: int = 3
    makefile: bool = False

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        if self.sdk not in (2, 3):
            raise IpuLowerError(f"error: poplar-cpp option sdk must be 2 or 3, got {self.sdk}")
        programs = [op for op in module.ops if isinstance(op, poplar.HostProgramOp)]
        codelets = [op for op in module.ops if isinstance(op, poplar.CodeletOp)]
        for op in module.ops:
            if not isinstance(op, poplar.HostProgramOp | poplar.CodeletOp):
                first = "convert-ipu-to-poplar" if op.dialect_name() == "ipu" else "sdfg-to-poplar"
                raise error(op, f"'{op.name}' is not a poplar op; lower the module with {first} first")
        if len(programs) != 1:
            raise IpuLowerError(
                f"error: poplar-cpp needs exactly one poplar.host_program, found {len(programs)}"
            )
        output.write(f"{FILE_MARKER}{HOST_FILE}\n")
        print_host(output, programs[0])
        output.write(f"{FILE_MARKER}{CODELETS_FILE}\n")
        codelet_ctx = PrintContext(output)
        print_codelets_header(codelet_ctx, self.sdk)
        for codelet in codelets:
            print_codelet(codelet_ctx, codelet, self.sdk)
        output.write(f"{FILE_MARKER}{MANIFEST_FILE}\n")
        output.write(json.dumps(manifest(programs[0], declared_types(module, programs[0])), indent=2) + "\n")
        if self.makefile:
            output.write(f"{FILE_MARKER}{MAKEFILE}\n")
            output.write(MAKEFILE_TEXT.format(prefix=program_prefix(programs[0])))


def declared_types(module: ModuleOp, program: poplar.HostProgramOp) -> dict[str, str]:
    """The numpy type each argument ipu-demote-f64 demoted was declared with."""
    if DECLARED_TYPES not in module.attributes:
        return {}
    by_program = module.attributes[DECLARED_TYPES]
    assert isinstance(by_program, DictionaryAttr)
    arguments = by_program.data.get(program.sym_name.data)
    if not isinstance(arguments, DictionaryAttr):
        return {}
    return {name: element_type(typ).numpy for name, typ in arguments.data.items()}  # type: ignore[arg-type]


def manifest(program: poplar.HostProgramOp, declared: dict[str, str] | None = None) -> dict:
    """What a caller needs to know about the C ABI of host.cpp (read by ipu_lower.runtime),
    and the cost model's estimate of a run (`ipu_lower.cost_model.program_estimate`).
    `declared`: the 64-bit type of each argument the build demoted, which callers accept."""
    from ipu_lower.cost_model import program_estimate  # imported when used: the cost model needs numpy, most of the time of ipu-opt --help

    prefix = program_prefix(program)
    estimate = program_estimate(program, get_arch(program.arch.data))
    return {
        "sdfg": program.sym_name.data,
        "prefix": prefix,
        "functions": {name: f"{prefix}_{name}" for name in ABI_FUNCTIONS},
        "arch": program.arch.data,
        "arguments": [
            {**argument, **({"declared": declared[argument["name"]]} if declared and argument["name"] in declared else {})}
            for argument in abi_arguments(program)
        ],
        "estimate": {
            "cycles": estimate.cycles,
            "while_loops": [asdict(loop) for loop in estimate.while_loops],
            "steps": [asdict(step) for step in estimate.steps],
        },
        "vertex_choices": vertex_choices(program),
        "vertex_estimates": vertex_estimates(program),
    }


def vertex_estimates(program: poplar.HostProgramOp) -> list[dict]:
    """For each placement of our codelets, the busiest vertex's estimate as emitted (what
    setPerfEstimate prints) and what hand-scheduled asm could make of the same body
    (`cost_model.Schedule.ASM`, a bound), by the name of its compute set."""
    from ipu_lower.cost_model import Schedule, VertexCost
    from ipu_lower.passes.convert_ipu_to_poplar import run_extents, slice_sizes

    workers = get_arch(program.arch.data).workers_per_tile
    rows = []
    for op in program.build_body.block.ops:
        if isinstance(op, poplar.AddVerticesOp):
            codelet = poplar.codelet_named(op, op.codelet.root_reference.data)
            assert codelet is not None  # the verifier's
            cost = VertexCost(codelet.body.block, Schedule.ASM)  # type: ignore[arg-type]
            asm = max(
                cost.cycles(slice_sizes(op, run, extents), workers, extents)
                for run, extents in enumerate(run_extents(op.tile_map))
            )
            step = op.compute_set.owner.debug_name.data  # type: ignore[union-attr]
            rows.append({"step": step, "codelet": op.codelet.root_reference.data, "emitted": max(op.run_cycles()), "asm": asm})
    return rows


def vertex_choices(program: poplar.HostProgramOp) -> list[dict]:
    """ipu-select-vertices' decision for each step it priced, named as the emulator's
    report names the step (its compute set, or the poplibs call's label), in build order."""
    from ipu_lower.dialects.popops_elementwise import CHOICE
    from ipu_lower.passes.select_vertices import choice_summary

    rows = []
    for op in program.build_body.block.ops:
        if isinstance(choice := op.attributes.get(CHOICE), DictionaryAttr):
            step = op.compute_set.owner.debug_name.data if isinstance(op, poplar.AddVerticesOp) else op.label.data
            rows.append({"step": step, **choice_summary(choice)})
    return rows


def split_files(text: str) -> dict[str, str]:
    """The files of a `poplar-cpp` output, by name (joined once each: appending line by
    line copied a file per line, quadratic in a host.cpp of large constants)."""
    files: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines(keepends=True):
        if line.startswith(FILE_MARKER):
            current = line[len(FILE_MARKER):].strip()
            files[current] = []
        elif current is not None:
            files[current].append(line)
    return {name: "".join(lines) for name, lines in files.items()}
