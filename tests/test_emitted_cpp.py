"""The C++ that `ipu-opt -p sdfg-to-poplar -t poplar-cpp -o DIR` writes for the examples:
it compiles (-fsyntax-only -Wall -Werror against the bundled emulator headers), has the C ABI,
no 64-bit types, and lays data and vertices out as the tile plan (`plan_layouts`) says, read
both from the poplar-level IR (one `poplar.map_tensor` per tensor and one
`poplar.add_vertices` per compute set, over runs of tiles, fields sliced by rules) and from
host.cpp (a table of runs per distinct tile map and `for_each_block` loops over it, followed
here block by block). Hand-written poplar IR with every slice rule (whole, block, halo,
partial) and names that are the printer's own (`block`, `vertex`, `TileRun`, ...) prints to
host code that builds what the IR says and compiles. DIR/program.json describes the C ABI as
the SDFG signature does, and `poplar-cpp{makefile=true}` adds a Makefile for the real SDK.
Also the CLI's behaviour on bad input: exit code 1, one line on stderr, no output written.

The codelets are read from codelets.cpp as well: each class head, its fields (a run of
elements the body loads or stores as float2/half4 is declared
`poplar::Vector<T, poplar::VectorLayout::SPAN, 8>`, `, true` when one loop both loads and
stores it), the `IPU_LOWER_CONSTRAINT("elem(*x)!=elem(*y)", ...)` that keeps every two
such fields in different memory elements, and the `__restrict` pointers and
`ipu_lower_rt` calls of its body. Besides the host build (the emulator branch of the
runtime helpers), the `#ifdef __IPU__` branch is compiled against stand-ins for what popc
provides (`float2`/`half4` vector types, `half`, the vertex field classes)."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from math import prod
from pathlib import Path

import numpy
import pytest
from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue

from ipu_lower.arch import get_arch
from ipu_lower.cli import ipu_opt_main
from ipu_lower.dialects import poplar
from ipu_lower.dialects import sdfg as sd
from ipu_lower.frontend.frontends import LocatedMlirFrontend, SdfgFrontend
from ipu_lower.passes.tile_partition import IpuTilePartitionPass, balanced_tile_map, plan_layouts
from ipu_lower.pipelines import SdfgToPoplarPass
from ipu_lower.registry import dialects
from ipu_lower.targets.cpp_expr import CPP_HELPERS
from ipu_lower.targets.poplar_cpp import PoplarCppTarget, split_files
from syntax_check import syntax_check as check_syntax

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "ipu_lower" / "examples"
INCLUDE = REPO / "ipu_lower" / "emulator" / "include"
GXX = shutil.which("g++")
CLANGXX = shutil.which("clang++")
MAKE = shutil.which("make")
needs_gxx = pytest.mark.skipif(GXX is None, reason="g++ is not installed")

CPP_FILES = ["codelets.cpp", "host.cpp"]
OUTPUT_FILES = ["codelets.cpp", "host.cpp", "program.json"]
ABI_FUNCTIONS = ("init", "run", "exit", "last_error", "signature")  # <prefix>_<function> in host.cpp


def run_ipu_opt(args: list[str], capsys) -> tuple[int, str, str]:
    """ipu_opt_main in this process: (exit code, stdout, stderr)."""
    try:
        ipu_opt_main([str(a) for a in args])
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def syntax_check(files: list[Path]) -> None:
    """g++ -fsyntax-only -Wall -Werror on all files at once, against the emulator's headers."""
    check_syntax(files, INCLUDE)


# --------------------------------------------------------------------------------------
# what each example should produce


@dataclass(frozen=True)
class Example:
    run_params: str
    arrays: tuple[str, ...]
    scalars: tuple[str, ...]
    maps: int
    poplar_type: str
    shape: tuple[str, ...]  # symbols, in order, giving the array shape
    outputs: tuple[str, ...]  # arguments read back to the host
    args: tuple[str, ...]  # in calling order
    inputs: tuple[str, ...]  # arguments written to the device: all but those overwritten before read


# After sdfg-fuse-maps and sdfg-write-in-place every example is one map (one codelet)
# over its arguments: no transients are left (saxpy updates y in place, chain computes
# z from x and y in one map, scale2d's scalar temporaries are folded into its map).
EXAMPLE_INFO = {
    "saxpy": Example("float a, float *x, std::size_t x_count, float *y, std::size_t y_count", ("x", "y"), ("a",), 1,
                     "FLOAT", ("N",), ("y",), ("a", "x", "y"), ("a", "x", "y")),
    "chain": Example("float *x, std::size_t x_count, float *y, std::size_t y_count, float *z, std::size_t z_count", ("x", "y", "z"), (), 1,
                     "FLOAT", ("N",), ("z",), ("x", "y", "z"), ("x", "y")),
    "scale2d": Example("float *A, std::size_t A_count, float *B, std::size_t B_count", ("A", "B"), (), 1,
                       "FLOAT", ("M", "N"), ("B",), ("A", "B"), ("A",)),
    "clamp": Example("int *x, std::size_t x_count, int lo, int hi, int *y, std::size_t y_count", ("x", "y"), ("lo", "hi"), 1,
                     "INT", ("N",), ("y",), ("x", "lo", "hi", "y"), ("x", "lo", "hi")),
}

# The one codelet of each example: its fields (name -> direction, element type, how the
# body reaches it: "scalar", "run" (element by element) or "vector" (float2 loads or
# stores as well), interleaved) in order, and the memory-element constraints of its
# vector fields. The float examples vectorise; clamp (int32) runs one element at a time.
EXAMPLE_CODELETS = {
    "saxpy": ("saxpy_Mult_map", {
        "a": ("Input", "float", "scalar", False),
        "x": ("Input", "float", "vector", False),
        "y": ("InOut", "float", "vector", True),
    }, ("elem(*x)!=elem(*y)",)),
    "chain": ("chain_Mult_map", {
        "x": ("Input", "float", "vector", False),
        "y": ("Input", "float", "vector", False),
        "z": ("Output", "float", "vector", False),
    }, ("elem(*x)!=elem(*y)", "elem(*x)!=elem(*z)", "elem(*y)!=elem(*z)")),
    "scale2d": ("scale2d_scale2d_scale2d_11", {
        "A": ("Input", "float", "vector", False),
        "B": ("Output", "float", "vector", False),
    }, ("elem(*A)!=elem(*B)",)),
    "clamp": ("clamp_clamp_clamp_10", {
        "hi": ("Input", "int", "scalar", False),
        "lo": ("Input", "int", "scalar", False),
        "x": ("Input", "int", "run", False),
        "y": ("Output", "int", "run", False),
    }, ()),
}

# (example, symbols, arch, target); sizes below the tile count, not divisible by it, and
# (for a few) larger than twice the tile count so every tile gets work.
CASES = [
    ("saxpy", "N=1", "ipu2", "poplar-cpp"),
    ("saxpy", "N=7", "ipu21", "poplar-cpp{sdk=2}"),
    ("saxpy", "N=1000", "ipu1", "poplar-cpp"),
    ("chain", "N=5", "ipu21", "poplar-cpp{sdk=2}"),
    ("chain", "N=1473", "ipu2", "poplar-cpp"),
    ("scale2d", "M=3,N=7", "ipu2", "poplar-cpp"),
    ("scale2d", "M=1,N=1", "ipu1", "poplar-cpp{sdk=2}"),
    ("scale2d", "M=50,N=61", "ipu2", "poplar-cpp"),
    ("clamp", "N=17", "ipu1", "poplar-cpp"),
    ("clamp", "N=2945", "ipu21", "poplar-cpp{sdk=2}"),
]


def case_id(case) -> str:
    name, symbols, arch, target = case
    return f"{name}-{symbols}-{arch}-{'sdk2' if 'sdk=2' in target else 'sdk3'}"


def symbol_values(symbols: str) -> dict[str, int]:
    return {k: int(v) for k, v in (item.split("=") for item in symbols.split(","))}


# --------------------------------------------------------------------------------------
# the layout of the graph, read from the poplar IR and from host.cpp alike


@dataclass
class Vertex:
    compute_set: str  # debug name of the compute set
    codelet: str
    tile: int | None = None
    cycles: int | None = None
    connections: list[tuple[str, str, int, int]] = field(default_factory=list)
    """(field, container, begin, end) of the flattened container."""


@dataclass
class Layout:
    variables: dict[str, tuple[str, tuple[int, ...]]] = field(default_factory=dict)
    """container -> (poplar type, shape)"""
    mappings: dict[str, list[tuple[int, int, int]]] = field(default_factory=dict)
    """container -> [(tile, begin, end)] of the flattened container, in order"""
    vertices: list[Vertex] = field(default_factory=list)
    loops: list[tuple[str, str, tuple[tuple[int, int, int], ...]]] = field(
        default_factory=list, compare=False
    )
    """host.cpp only: each for_each_block loop as (kind "mapping" or "vertices", container
    or compute set, the runs of its table)"""

    def view(self, name: str, begin: int | None, end: int | None) -> tuple[str, int, int]:
        size = prod(self.variables[name][1])
        if begin is None:
            return name, 0, size
        assert 0 <= begin < end <= size, (name, begin, end, size)
        return name, begin, end


def ir_context() -> Context:
    """Every dialect ipu-opt knows (codelet bodies may use math, for example)."""
    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    for dialect in dialects():
        ctx.load_dialect(dialect)
    return ctx


def parse_ir(text: str) -> ModuleOp:
    module = LocatedMlirFrontend().parse(ir_context(), io.BytesIO(text.encode()), "ir.mlir")
    module.verify()
    return module


def host_program(module: ModuleOp) -> poplar.HostProgramOp:
    programs = [op for op in module.ops if isinstance(op, poplar.HostProgramOp)]
    assert len(programs) == 1
    return programs[0]


def read_ir(text: str) -> Layout:
    """The layout the `poplar.host_program` of `sdfg-to-poplar` output builds, by the
    dialect's meaning of its ops: one mapping per block of a `poplar.map_tensor`, one
    vertex per block of a `poplar.add_vertices`, its fields sliced by their rules."""
    layout = Layout()
    views: dict[SSAValue, tuple[str, int, int]] = {}  # value -> (container, begin, end)
    flat: set[SSAValue] = set()  # values that are 1-D (slices cut the first dimension)
    compute_sets: dict[SSAValue, str] = {}
    for op in host_program(parse_ir(text)).build_body.block.ops:
        if isinstance(op, poplar.AddVariableOp):
            t = poplar.tensor_type(op.result)
            shape = t.get_shape()
            layout.variables[op.debug_name.data] = (poplar.poplar_type_name(t.element_type), shape)
            views[op.result] = layout.view(op.debug_name.data, None, None)
            if len(shape) <= 1:
                flat.add(op.result)
        elif isinstance(op, poplar.FlattenOp):
            views[op.result] = views[op.tensor]
            flat.add(op.result)
        elif isinstance(op, poplar.SliceOp):
            assert op.tensor in flat, "slice of an unflattened tensor"
            name, base, end = views[op.tensor]
            views[op.result] = layout.view(
                name, base + op.begin.value.data, base + op.end.value.data
            )
            assert views[op.result][2] <= end
            flat.add(op.result)
        elif isinstance(op, poplar.MapTensorOp):
            name, base, end = views[op.tensor]
            for block in op.tile_map.blocks():
                layout.mappings.setdefault(name, []).append(
                    (block.tile, base + block.begin, base + block.end)
                )
            assert base + op.tile_map.total() == end
        elif isinstance(op, poplar.AddComputeSetOp):
            compute_sets[op.result] = op.debug_name.data
        elif isinstance(op, poplar.AddVerticesOp):
            cycles = op.run_cycles()
            for block in op.tile_map.blocks():
                vertex = Vertex(compute_sets[op.compute_set], op.codelet.root_reference.data,
                                block.tile, cycles[block.run])
                for name, tensor, rule in zip(op.names(), op.tensors, op.rules.data):
                    container, base, _ = views[tensor]
                    bounds = rule.slice_of(block)
                    vertex.connections.append((name, *layout.view(
                        container, None if bounds is None else base + bounds[0],
                        None if bounds is None else base + bounds[1],
                    )))
                layout.vertices.append(vertex)
    return layout


def for_each_block(runs: tuple[tuple[int, int, int], ...]):
    """host.cpp's `for_each_block`, transcribed: (tile, index, run, begin, end) of each
    block of a table of (first, end, count) runs."""
    start = index = 0
    for r, (first, end, count) in enumerate(runs):
        for tile in range(first, end):
            begin = start + (tile - first) * count
            yield {"tile": tile, "index": index, "run": r, "begin": begin, "end": begin + count}
            index += 1
        start += (end - first) * count


TENSOR_EXPR = r"(\w+)(\.flatten\(\))?(?:\.slice\((\d+), (\d+)\)|\[(\d+)\])?"
STATEMENTS = {
    "variable": re.compile(
        r'poplar::Tensor (\w+) = graph\.addVariable\(poplar::(\w+), \{([0-9, ]*)\}, "(\w+)"\);'
    ),
    "compute_set": re.compile(r'poplar::ComputeSet (\w+) = graph\.addComputeSet\("(\w+)"\);'),
    "mapping": re.compile(rf"graph\.setTileMapping\({TENSOR_EXPR}, (\d+)\);"),
    "vertex": re.compile(r'poplar::VertexRef (\w+) = graph\.addVertex\((\w+), "(\w+)"\);'),
    "connect": re.compile(rf'graph\.connect\((\w+)\["(\w+)"\], {TENSOR_EXPR}\);'),
    "perf": re.compile(r"graph\.setPerfEstimate\((\w+), (\d+)\);"),
}
# Anything that looks like building the graph must be one of the statements above or a
# loop over a table of runs.
GRAPH_CALL = re.compile(
    r"graph\.(addVariable|setTileMapping|addComputeSet|addVertex|connect|setPerfEstimate)\("
    r"|\bblock\.|for_each_block\("
)
RUN_TABLE = re.compile(r"const TileRun (\w+)\[\] = \{(\{\d+, \d+, \d+\}(?:, \{\d+, \d+, \d+\})*)\};")
CYCLES_TABLE = re.compile(r"static const std::uint64_t (\w+)\[\] = \{(\d+(?:, \d+)*)\};")
LOOP_HEAD = re.compile(r"for_each_block\((\w+), \[&\]\(const TileBlock &block\) \{")
LOOP_END = "});"
# What a loop body may say about its block, and how the vertex bodies index the cycles.
BLOCK_FIELD = re.compile(r"\bblock\.(tile|index|run|begin|end)\b")
SUM = re.compile(r"\b(\d+) ([-+]) (\d+)\b")
LOOP_MAPPING = re.compile(
    r"graph\.setTileMapping\(\w+(?:\.flatten\(\))?\.slice\(block\.begin, block\.end\), block\.tile\);"
)
LOOP_VERTEX_HEAD = re.compile(r'poplar::VertexRef vertex = graph\.addVertex\((\w+), "\w+"\);')
LOOP_CONNECT = re.compile(
    r'graph\.connect\(vertex\["\w+"\], \w+(?:\.flatten\(\))?'
    r"(?:\.slice\(block\.begin(?: - \d+)?, block\.end(?: \+ \d+)?\)|\[block\.index\])?\);"
)
LOOP_PERF = re.compile(r"graph\.setPerfEstimate\(vertex, (?:\d+|\w+\[block\.run\])\);")


class HostReader:
    """Follows the graph-building statements of host.cpp in order; a `for_each_block` loop
    is followed once per block of its table of runs, with `block.X` replaced by the
    block's numbers."""

    def __init__(self, text: str) -> None:
        self.layout = Layout()
        self.tensors: dict[str, str] = {}  # C++ variable -> container
        self.compute_sets: dict[str, str] = {}  # C++ variable -> debug name
        self.vertices: dict[str, Vertex] = {}  # C++ variable -> the vertex it names now
        self.cycles: dict[str, list[int]] = {}  # C++ array of per-run cycle estimates
        self.tables: dict[str, tuple[tuple[int, int, int], ...]] = {}
        for name, runs in RUN_TABLE.findall(text):
            assert name not in self.tables, name
            self.tables[name] = tuple(
                tuple(int(n) for n in run.split(", ")) for run in re.findall(r"\{([\d, ]+)\}", runs)
            )
        # every table at namespace scope is one of those, and all are distinct tile maps
        assert len(re.findall(r"^const TileRun ", text, re.M)) == len(self.tables)
        assert len(set(self.tables.values())) == len(self.tables), self.tables

    def tensor(self, var: str, flatten, begin, end, element):
        name = self.tensors[var]
        if (begin is not None or element is not None) and not flatten:
            assert len(self.layout.variables[name][1]) <= 1, f"slice of unflattened {var}"
        if element is not None:
            return self.layout.view(name, int(element), int(element) + 1)
        return self.layout.view(name, None if begin is None else int(begin),
                                None if end is None else int(end))

    def statement(self, line: str) -> None:
        line = line.strip()
        if m := CYCLES_TABLE.fullmatch(line):
            self.cycles[m[1]] = [int(n) for n in m[2].split(", ")]
            return
        if not GRAPH_CALL.search(line):
            return
        for kind, pattern in STATEMENTS.items():
            if m := pattern.fullmatch(line):
                break
        else:
            raise AssertionError(f"unrecognised graph statement: {line}")
        if kind == "variable":
            var, type_, dims, name = m.groups()
            shape = tuple(int(d) for d in dims.replace(" ", "").split(",") if d)
            assert name not in self.layout.variables
            self.tensors[var] = name
            self.layout.variables[name] = (type_, shape)
        elif kind == "compute_set":
            self.compute_sets[m[1]] = m[2]
        elif kind == "mapping" and m[1] in self.vertices:
            assert m.groups()[1:5] == (None,) * 4
            vertex = self.vertices[m[1]]
            assert vertex.tile is None
            vertex.tile = int(m[6])
        elif kind == "mapping":
            name, begin, end = self.tensor(*m.groups()[:5])
            self.layout.mappings.setdefault(name, []).append((int(m[6]), begin, end))
        elif kind == "vertex":
            self.vertices[m[1]] = Vertex(self.compute_sets[m[2]], m[3])
            self.layout.vertices.append(self.vertices[m[1]])
        elif kind == "connect":
            self.vertices[m[1]].connections.append((m[2], *self.tensor(*m.groups()[2:])))
        elif kind == "perf":
            vertex = self.vertices[m[1]]
            assert vertex.cycles is None
            vertex.cycles = int(m[2])

    def loop(self, table: str, body: list[str]) -> None:
        """One `for_each_block(table, ...)` loop: a tensor mapping, or the vertices of a
        compute set, each statement of a form the printer uses."""
        runs = self.tables[table]
        if len(body) == 1:
            assert LOOP_MAPPING.fullmatch(body[0]), body
            var = re.match(r"graph\.setTileMapping\((\w+)", body[0])[1]
            self.layout.loops.append(("mapping", self.tensors[var], runs))
        else:
            head = LOOP_VERTEX_HEAD.fullmatch(body[0])
            assert head and body[1] == "graph.setTileMapping(vertex, block.tile);", body
            assert all(LOOP_CONNECT.fullmatch(line) for line in body[2:-1]), body
            assert LOOP_PERF.fullmatch(body[-1]), body
            self.layout.loops.append(("vertices", self.compute_sets[head[1]], runs))
        for block in for_each_block(runs):
            for line in body:
                line = BLOCK_FIELD.sub(lambda m, block=block: str(block[m[1]]), line)
                line = SUM.sub(lambda m: str(int(m[1]) + int(m[3]) * (1 if m[2] == "+" else -1)), line)
                line = re.sub(r"\b(\w+)\[(\d+)\]", lambda m: str(self.cycles[m[1]][int(m[2])])
                              if m[1] in self.cycles else m[0], line)
                self.statement(line)


def read_host(text: str) -> Layout:
    """The layout host.cpp builds: the statements of its init function, in order."""
    reader = HostReader(text)
    lines = iter(text[text.index("graph.addCodelets(codelets_path);"):].splitlines())
    for line in lines:
        if head := LOOP_HEAD.fullmatch(line.strip()):
            indent = line[: len(line) - len(line.lstrip())]
            body = []
            for inner in lines:
                if inner == indent + LOOP_END:
                    break
                assert inner.startswith(indent + "  "), inner
                body.append(inner.strip())
            reader.loop(head[1], body)
        else:
            reader.statement(line)
    return reader.layout


CODELET_CLASS = re.compile(
    r"^class (?:IPU_LOWER_CONSTRAINT\((.*?)\) )?(\w+) : public poplar::(MultiVertex|Vertex) \{\n(.*?)\n\};",
    re.DOTALL | re.MULTILINE,
)
CONSTRAINT = re.compile(r'"elem\(\*(\w+)\)!=elem\(\*(\w+)\)"')
FIELD = re.compile(
    r"^  poplar::(Input|Output|InOut)<"
    r"(?:poplar::Vector<(\w+)(?:, poplar::VectorLayout::SPAN, ([48])(, true)?)?>|(\w+))> (\w+);$",
    re.MULTILINE,
)


@dataclass(frozen=True)
class Field:
    direction: str  # Input, Output, InOut
    element: str  # the C++ element type
    access: str  # "scalar" (one value), "run" (Vector<T> or Vector<T, SPAN, 4>), "vector" (Vector<T, SPAN, 8>)
    interleaved: bool  # Vector<T, SPAN, 8, true>

    @property
    def is_vector(self) -> bool:
        """A run of elements (a block or halo slice), not one whole scalar."""
        return self.access != "scalar"


@dataclass(frozen=True)
class CodeletClass:
    base: str  # MultiVertex or Vertex
    fields: dict[str, Field]
    constraints: tuple[str, ...]  # the arguments of IPU_LOWER_CONSTRAINT, in order
    body: str  # everything after the field declarations


def read_codelets(text: str) -> dict[str, CodeletClass]:
    """class name -> its base, fields (in order), constraints and body."""
    classes = {}
    for constraints, name, base, body in CODELET_CLASS.findall(text):
        fields = {}
        for direction, vector_type, alignment, interleaved, scalar_type, field_name in FIELD.findall(body):
            # runs of 8/16-bit elements are word-aligned (4); vector streams 8-byte aligned
            access = "scalar" if scalar_type else "vector" if alignment == "8" else "run"
            fields[field_name] = Field(direction, vector_type or scalar_type, access, bool(interleaved))
        assert name not in classes, name
        # every line of the class before the blank line is a field it declares
        declarations = body.split("\n\n", 1)[0].splitlines()
        assert declarations[0] == "public:" and len(declarations) == 1 + len(fields), declarations
        parsed = tuple(f'"elem(*{a})!=elem(*{b})"' for a, b in CONSTRAINT.findall(constraints))
        assert ", ".join(parsed) == constraints, constraints
        classes[name] = CodeletClass(base, fields, tuple(c.strip('"') for c in parsed), body.split("\n\n", 1)[1])
    return classes


VECTOR_LOAD = re.compile(r"= ipu_lower_rt::load<ipu_lower_rt::(float2|half4)>\((\w+), \w+\);")
VECTOR_STORE = re.compile(r"ipu_lower_rt::store\((\w+), \w+, \w+\);")
POINTER = re.compile(r"^    auto \*__restrict (\w+) = ipu_lower_rt::data\((\w+)\);$", re.MULTILINE)
CPP_ELEMENT = {"float2": "float", "half4": "half"}


def check_vector_fields(codelets_text: str) -> None:
    """Each codelet declares as aligned vectors exactly the fields its body loads or
    stores as float2/half4, interleaved exactly those it both loads and stores, reaches
    each through one `__restrict` pointer, and constrains every two of them to different
    memory elements (in field order)."""
    for name, codelet in read_codelets(codelets_text).items():
        pointers = dict(POINTER.findall(codelet.body))  # pointer -> field
        assert len(set(pointers.values())) == len(pointers), (name, pointers)
        loaded = {pointers[p] for _, p in VECTOR_LOAD.findall(codelet.body)}
        stored = {pointers[p] for p in VECTOR_STORE.findall(codelet.body)}
        for lanes, p in VECTOR_LOAD.findall(codelet.body):
            assert CPP_ELEMENT[lanes] == codelet.fields[pointers[p]].element, (name, p)
        streamed = [f for f, field in codelet.fields.items() if field.access == "vector"]
        assert set(streamed) == loaded | stored == set(pointers.values()), (name, streamed, loaded, stored)
        interleaved = [f for f, field in codelet.fields.items() if field.interleaved]
        assert set(interleaved) == loaded & stored, (name, interleaved)
        assert all(codelet.fields[f].direction == "InOut" for f in interleaved), name
        assert all(codelet.fields[f].direction != "Input" for f in stored), name
        expected = tuple(f"elem(*{a})!=elem(*{b})" for k, a in enumerate(streamed) for b in streamed[k + 1:])
        assert codelet.constraints == expected, (name, codelet.constraints)
        # the pointers come first in compute(), one per vector field, in field order
        compute = codelet.body.split("\n", 1)[1]
        assert [f for _, f in POINTER.findall(compute)] == streamed
        head = compute.splitlines()[: len(streamed)]
        assert all(POINTER.fullmatch(line) for line in head), head


# --------------------------------------------------------------------------------------
# compiling and checking the examples


def emit(case, out_dir: Path, capsys) -> tuple[str, str, str]:
    """host.cpp, codelets.cpp and program.json of `ipu-opt ... -o out_dir`, our codelets
    kept where poplibs has a vertex for the work (test_select_vertices.py has the calls)."""
    name, symbols, arch, target = case
    code, out, err = run_ipu_opt(
        [EXAMPLES / f"{name}.sdfg", "-p", "sdfg-to-poplar{prefer=codelet}", "--symbols", symbols,
         "--arch", arch, "-t", target, "-o", out_dir],
        capsys,
    )
    assert (code, err) == (0, ""), err
    assert out == ""  # everything went to the directory
    assert sorted(p.name for p in out_dir.iterdir()) == OUTPUT_FILES
    return tuple((out_dir / f).read_text() for f in ("host.cpp", "codelets.cpp", "program.json"))


def emit_ir(case, capsys) -> str:
    """The poplar-level IR of the same lowering (no target, to stdout)."""
    name, symbols, arch, _ = case
    code, out, err = run_ipu_opt(
        [EXAMPLES / f"{name}.sdfg", "-p", "sdfg-to-poplar{prefer=codelet}", "--symbols", symbols, "--arch", arch],
        capsys,
    )
    assert (code, err) == (0, ""), err
    return out


def check_no_64_bit_types(host: str, codelets: str) -> None:
    for text, file in ((host, "host.cpp"), (codelets, "codelets.cpp")):
        for word in ("DOUBLE", "LONG", "double"):
            assert word not in text, f"{word} in {file}"


def check_c_abi(name: str, host: str, info: Example) -> None:
    assert f'extern "C" int {name}_init(const char *codelets_path) {{' in host
    assert f'extern "C" int {name}_run({info.run_params}) {{' in host
    assert f'extern "C" const char *{name}_last_error(void) {{' in host
    assert f'extern "C" void {name}_exit(void) {{' in host
    assert f'extern "C" const char *{name}_signature(void) {{' in host
    assert len(re.findall(r'^extern "C" ', host, re.MULTILINE)) == 5


def check_sdk_style(codelets: str, sdk: int, maps: int) -> None:
    classes = read_codelets(codelets)
    assert len(classes) == maps
    if sdk == 3:
        assert {c.base for c in classes.values()} == {"MultiVertex"}
        assert codelets.count("void compute(unsigned workerId) {") == maps
        assert "bool compute()" not in codelets
    else:
        assert {c.base for c in classes.values()} == {"Vertex"}
        assert codelets.count("bool compute() {") == maps
        assert codelets.count("return true;") >= maps
        assert "MultiVertex" not in codelets and "workerId" not in codelets


def check_plan(case, layout: Layout, codelets_text: str, where: str) -> None:
    """`layout` is what the tile plan (`plan_layouts`) says for the example: each
    container mapped block by block as its layout says, one vertex per block of the
    layout of the data a map touches, on the tile that holds that block."""
    name, symbols, _, _ = case
    info = EXAMPLE_INFO[name]
    values = symbol_values(symbols)
    shape = tuple(values[s] for s in info.shape)
    plan = planned_layouts(case)
    blocks = {c: [(b.tile, b.begin, b.end) for b in m.blocks()] for c, m in plan.items()}

    assert set(layout.variables) == set(info.arrays) | set(info.scalars) == set(plan), where
    for array in info.arrays:
        assert layout.variables[array] == (info.poplar_type, shape), (where, array)
        assert layout.mappings[array] == blocks[array], (where, array)
    for scalar in info.scalars:
        assert layout.variables[scalar] == (info.poplar_type, ()), (where, scalar)
        assert layout.mappings[scalar] == blocks[scalar] == [(0, 0, 1)], (where, scalar)

    # one compute set per map, one vertex per block of the layout of its arrays, on the
    # tile holding that block, connected to the block (arrays) or the whole scalar
    classes = read_codelets(codelets_text)
    compute_sets: dict[str, list[Vertex]] = {}
    for vertex in layout.vertices:
        compute_sets.setdefault(vertex.compute_set, []).append(vertex)
        assert vertex.codelet in classes, (where, vertex.codelet)
        assert isinstance(vertex.cycles, int) and vertex.cycles > 0, (where, vertex)
    assert len(compute_sets) == info.maps, where
    for cs, vertices in compute_sets.items():
        arrays = {t for v in vertices for _, t, _, _ in v.connections if t in info.arrays}
        (tile_map,) = {plan[a] for a in arrays}  # a map's arrays share one layout
        assert [v.tile for v in vertices] == [b.tile for b in tile_map.blocks()], (where, cs)
        for v, block in zip(vertices, tile_map.blocks()):
            fields = classes[v.codelet].fields
            assert [f for f, *_ in v.connections] == list(fields), (where, cs, v)
            for field_name, tensor, b, e in v.connections:
                direction = fields[field_name].direction
                if fields[field_name].is_vector:
                    assert (b, e) == (block.begin, block.end), (where, cs, v, field_name)
                    assert (v.tile, b, e) in layout.mappings[tensor], (where, cs, v, field_name)
                else:
                    assert layout.variables[tensor][1] == () and direction == "Input"
                    assert (b, e) == (0, 1)


@lru_cache(maxsize=None)
def planned_layouts(case) -> dict:
    """container -> tile map, from ipu-tile-partition's planning function on the
    specialized example."""
    name, symbols, arch_name, _ = case
    module = SdfgFrontend().parse(ir_context(), io.BytesIO((EXAMPLES / f"{name}.sdfg").read_bytes()),
                                  f"{name}.sdfg")
    # the sdfg-level steps of the pipeline (specialize, fuse maps, write in place)
    steps = SdfgToPoplarPass(symbols=symbols, arch=arch_name).steps()
    for step in steps[: next(k for k, p in enumerate(steps) if isinstance(p, IpuTilePartitionPass))]:
        step.apply(ir_context(), module)
    (sdfg_op,) = [op for op in module.ops if isinstance(op, sd.SdfgOp)]
    layouts = plan_layouts(sdfg_op, get_arch(arch_name))
    # the plan itself: arrays tied by maps share one balanced layout in units of the
    # vector width (2 elements of 4 bytes), scalars live on tile 0
    info = EXAMPLE_INFO[name]
    elements = prod(symbol_values(symbols)[s] for s in info.shape)
    grain = get_arch(arch_name).vector_width(4)
    for array in info.arrays:
        assert layouts[array] == balanced_tile_map(elements, get_arch(arch_name).tiles, grain)
    return layouts


def runs_of(tile_map) -> tuple[tuple[int, int, int], ...]:
    return tuple((r.first, r.end, r.count) for r in tile_map.runs())


def check_layout(case, host_text: str, codelets_text: str, ir_text: str) -> None:
    name, symbols, arch_name, _ = case
    info = EXAMPLE_INFO[name]
    elements = prod(symbol_values(symbols)[s] for s in info.shape)
    assert f'ipu_lower_attach("{arch_name}")' in host_text

    ir = read_ir(ir_text)
    host = read_host(host_text)
    check_plan(case, ir, codelets_text, "poplar IR")
    check_plan(case, host, codelets_text, "host.cpp")
    assert host == ir

    # the IR places tensors and vertices with the plan's tile maps, one op each
    program = host_program(parse_ir(ir_text))
    plan = planned_layouts(case)
    ops = list(program.build_body.block.ops)
    names = {op.result: op.debug_name.data for op in ops if isinstance(op, poplar.AddVariableOp)}
    placed = [op for op in ops if isinstance(op, poplar.MapTensorOp)]
    assert sorted(names[op.tensor] for op in placed) == sorted(plan)
    for op in placed:
        assert op.tile_map.runs() == plan[names[op.tensor]].runs()
    placements = [op for op in ops if isinstance(op, poplar.AddVerticesOp)]
    assert len(placements) == info.maps
    for op in placements:
        rules = [rule.rule_text() for rule in op.rules.data]
        tensors = [names[t] for t in op.tensors]
        assert rules == ["block" if t in info.arrays else "whole" for t in tensors]
        assert op.tile_map.runs() == plan[next(t for t in tensors if t in info.arrays)].runs()

    # host.cpp: one table per distinct tile map, one loop per array and per compute set,
    # each over its tile map's runs; scalars are mapped directly
    looped = [op.tile_map for op in placed if names[op.tensor] in info.arrays]
    looped += [op.tile_map for op in placements]
    assert len(re.findall(r"^const TileRun \w+\[\] = ", host_text, re.M)) == len(
        {runs_of(m) for m in looped})
    assert Counter(host.loops) == Counter(
        [("mapping", a, runs_of(plan[a])) for a in info.arrays]
        + [("vertices", cs, runs_of(plan[info.arrays[0]])) for cs in {v.compute_set for v in ir.vertices}]
    )
    assert host_text.count("graph.addVertex(") == info.maps
    assert host_text.count("graph.setTileMapping(") == len(info.arrays) + len(info.scalars) + info.maps
    assert len(host_text.splitlines()) < 300

    # host I/O: every argument the program reads (and no transient) is written, the results are read back
    writes = re.findall(r'graph\.createHostWrite\("write_(\w+)", ', host_text)
    assert writes == list(info.inputs)
    reads = re.findall(r'graph\.createHostRead\("read_(\w+)", ', host_text)
    assert reads == list(info.outputs)
    for out in info.outputs:
        assert f'engine.readTensor("read_{out}", {out}, {out} + {elements});' in host_text


@lru_cache(maxsize=None)
def load_example(name: str):
    from ipu_lower.frontend.sdfg_json import load_sdfg_json, sdfg_from_json_safely

    path = EXAMPLES / f"{name}.sdfg"
    return sdfg_from_json_safely(load_sdfg_json(path.read_bytes(), str(path)))


def written_arguments(sdfg) -> set[str]:
    """Non-transient containers some state writes to."""
    return {
        node.data
        for state in sdfg.states()
        for node in state.data_nodes()
        if state.in_degree(node) > 0 and not sdfg.arrays[node.data].transient
    }


def check_manifest(case, manifest_text: str, host_text: str) -> None:
    """program.json gives the C ABI as the SDFG's signature does."""
    import dace

    name, symbols, arch_name, _ = case
    info = EXAMPLE_INFO[name]
    sdfg = load_example(name)
    values = symbol_values(symbols)
    manifest = json.loads(manifest_text)
    assert manifest_text.endswith("\n")
    assert set(manifest) == {"sdfg", "prefix", "functions", "arch", "arguments", "estimate", "vertex_choices", "vertex_estimates"}
    assert manifest["estimate"]["cycles"] > 0 and manifest["estimate"]["while_loops"] == []  # straight-line
    assert manifest["sdfg"] == sdfg.name == name
    assert manifest["prefix"] == name
    assert manifest["functions"] == {f: f"{name}_{f}" for f in ABI_FUNCTIONS}
    for function in manifest["functions"].values():
        assert re.search(rf'^extern "C" [\w *]+\b{function}\(', host_text, re.M), function
    assert manifest["arch"] == arch_name

    assert set(info.outputs) == written_arguments(sdfg) & set(sdfg.arg_names)
    expected = []
    for arg in sdfg.arg_names:
        desc = sdfg.arrays[arg]
        shape = [] if isinstance(desc, dace.data.Scalar) else [
            int(dace.symbolic.pystr_to_symbolic(str(d)).subs(values)) for d in desc.shape
        ]
        expected.append({"name": arg, "dtype": desc.dtype.as_numpy_dtype().name,
                         "shape": shape, "output": arg in info.outputs})
    assert manifest["arguments"] == expected
    assert [a["name"] for a in manifest["arguments"]] == list(info.args)
    for arg in manifest["arguments"]:  # everything is an exact numpy dtype
        assert str(numpy.dtype(arg["dtype"])) == arg["dtype"]


@needs_gxx
@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_emitted_cpp_compiles_and_matches_plan(case, tmp_path, capsys):
    name, _, _, target = case
    out_dir = tmp_path / "out"
    host, codelets, manifest = emit(case, out_dir, capsys)
    check_no_64_bit_types(host, codelets)
    check_c_abi(name, host, EXAMPLE_INFO[name])
    check_sdk_style(codelets, 2 if "sdk=2" in target else 3, EXAMPLE_INFO[name].maps)
    check_example_codelet(name, codelets)
    check_layout(case, host, codelets, emit_ir(case, capsys))
    check_manifest(case, manifest, host)
    syntax_check([out_dir / f for f in CPP_FILES])


def test_manifest_of_saxpy(tmp_path, capsys):
    _, _, manifest = emit(("saxpy", "N=1000", "ipu2", "poplar-cpp"), tmp_path / "out", capsys)
    assert json.loads(manifest) == {
        "sdfg": "saxpy",
        "prefix": "saxpy",
        "functions": {"init": "saxpy_init", "run": "saxpy_run", "exit": "saxpy_exit",
                      "last_error": "saxpy_last_error", "signature": "saxpy_signature"},
        "arch": "ipu2",
        "arguments": [
            {"name": "a", "dtype": "float32", "shape": [], "output": False},
            {"name": "x", "dtype": "float32", "shape": [1000], "output": False},
            {"name": "y", "dtype": "float32", "shape": [1000], "output": True},
        ],
        # one compute set: its slowest vertex (215 as emitted), the exchange of the scalar
        # a (1), a sync (150); the codelet forced (`emit`), poplibs' estimate of
        # scaledAddTo beside it, and the asm bound of the codelet's body
        "estimate": {"cycles": 366, "while_loops": [], "steps": [
            {"kind": "execute", "name": "saxpy_Mult_map", "busiest_tile_bytes": 4, "exact": True, "syncs": 1,
             "entries": 1, "within": None, "conditional": False, "modelled": False}]},
        "vertex_choices": [{"step": "saxpy_Mult_map", "implementation": "codelet", "call": "scaledAddTo", "ops": [],
                            "codelet_cycles": 215, "poplibs_cycles": 171}],
        "vertex_estimates": [{"step": "saxpy_Mult_map", "codelet": "saxpy_Mult_map", "emitted": 215, "asm": 185}],
    }


def test_makefile_option_writes_a_makefile_for_the_sdk(tmp_path, capsys):
    case = ("saxpy", "N=40", "ipu2", "poplar-cpp{makefile=true}")
    name, symbols, arch, target = case
    out_dir = tmp_path / "out"
    code, out, err = run_ipu_opt(
        [EXAMPLES / f"{name}.sdfg", "-p", "sdfg-to-poplar{prefer=codelet}", "--symbols", symbols,
         "--arch", arch, "-t", target, "-o", out_dir],
        capsys,
    )
    assert (code, out, err) == (0, "", "")
    assert sorted(p.name for p in out_dir.iterdir()) == sorted([*OUTPUT_FILES, "Makefile"])
    makefile = (out_dir / "Makefile").read_text()
    assert re.search(r"^\tpopc .*codelets\.cpp.* -o codelets\.gp$", makefile, re.M), makefile
    assert re.search(r"^\t.* host\.cpp .*-o libsaxpy\.so .*-lpoplar\b", makefile, re.M), makefile
    for line in makefile.splitlines():  # recipes are indented with a tab, never spaces
        assert not line.startswith(" "), line
    # the other files are the same as without the option
    plain = emit((name, symbols, arch, "poplar-cpp"), tmp_path / "plain", capsys)
    assert tuple((out_dir / f).read_text() for f in ("host.cpp", "codelets.cpp",
                                                      "program.json")) == plain
    if MAKE is not None:  # make can read it (-n: print the commands, run none)
        result = subprocess.run([MAKE, "-n", "-C", str(out_dir)], capture_output=True,
                                text=True, timeout=60, check=False)
        assert result.returncode == 0, result.stderr
        assert "popc" in result.stdout and "-lpoplar" in result.stdout


def test_makefile_option_false_writes_no_makefile(tmp_path, capsys):
    emit(("clamp", "N=9", "ipu1", "poplar-cpp{makefile=false}"), tmp_path / "out", capsys)


def test_sdk_option_changes_only_the_codelets(tmp_path, capsys):
    base = ["saxpy", "N=40", "ipu2"]
    host3, codelets3, manifest3 = emit((*base, "poplar-cpp"), tmp_path / "sdk3", capsys)
    host2, codelets2, manifest2 = emit((*base, "poplar-cpp{sdk=2}"), tmp_path / "sdk2", capsys)
    assert host3 == host2
    assert manifest3 == manifest2
    assert codelets3 != codelets2
    assert read_codelets(codelets3).keys() == read_codelets(codelets2).keys()
    for sdk3, sdk2 in zip(read_codelets(codelets3).values(), read_codelets(codelets2).values()):
        assert (sdk3.fields, sdk3.constraints) == (sdk2.fields, sdk2.constraints)
        assert (sdk3.base, sdk2.base) == ("MultiVertex", "Vertex")


def check_example_codelet(name: str, codelets_text: str) -> None:
    """The one codelet of the example, as EXAMPLE_CODELETS says, and its vector fields
    as its body uses them."""
    class_name, fields, constraints = EXAMPLE_CODELETS[name]
    classes = read_codelets(codelets_text)
    assert list(classes) == [class_name]
    codelet = classes[class_name]
    assert {f: (d.direction, d.element, d.access, d.interleaved) for f, d in codelet.fields.items()} == fields
    assert list(codelet.fields) == list(fields)
    assert codelet.constraints == constraints
    check_vector_fields(codelets_text)


def definitions(body: str, cpp_type: str) -> dict[str, str]:
    """name -> expression of each `const <cpp_type> name = expression;` of a body."""
    return dict(re.findall(rf"^ *const {re.escape(cpp_type)} (\w+) = (.*);$", body, re.M))


def test_saxpy_codelet(tmp_path, capsys):
    # N = 7 on ipu2: blocks of 2, 2, 2 and 1 floats, so the codelet has the vector loop
    # and the scalar tail.
    _, codelets, _ = emit(("saxpy", "N=7", "ipu2", "poplar-cpp"), tmp_path / "out", capsys)
    check_example_codelet("saxpy", codelets)
    codelet = read_codelets(codelets)["saxpy_Mult_map"]
    body = codelet.body
    # One InOut y, interleaved (loaded and stored in one loop), apart from x.
    assert "  poplar::InOut<poplar::Vector<float, poplar::VectorLayout::SPAN, 8, true>> y;" in codelets
    assert codelets.count('class IPU_LOWER_CONSTRAINT("elem(*x)!=elem(*y)") saxpy_Mult_map : ') == 1
    pointers = {field: pointer for pointer, field in POINTER.findall(body)}
    assert set(pointers) == {"x", "y"}
    assert "__restrict" in body and body.count("__restrict") == 2
    # The vector loop: every workers-th float2 of the block.
    assert re.search(r"^    const unsigned units = \(n / 2u\);$", body, re.M)
    loop = re.search(r"^    for \(unsigned (\w+) = workerId; \1 < units; \1 \+= numWorkers\(\)\) \{\n(.*?)\n    \}$",
                     body, re.M | re.S)
    assert loop, body
    vectors = definitions(body, "ipu_lower_rt::float2")
    # a * x + y is one expression of float2 values: the broadcast scalar a, the loads of
    # x and y at the unit's first element; its result is stored to y there.
    (fma,) = [(k, m) for k, e in vectors.items() if (m := re.fullmatch(r"\((\w+) \* (\w+) \+ (\w+)\)", e))]
    result, (scale, x, y) = fma[0], fma[1].groups()
    scalar = re.fullmatch(r"ipu_lower_rt::broadcast<ipu_lower_rt::float2>\((\w+)\)", vectors[scale])
    assert scalar and definitions(body, "float")[scalar[1]] == "*a"
    first = re.search(r"const unsigned (\w+) = \(\w+ \* 2u\);", loop[2])[1]
    assert vectors[x] == f"ipu_lower_rt::load<ipu_lower_rt::float2>({pointers['x']}, {first})"
    assert vectors[y] == f"ipu_lower_rt::load<ipu_lower_rt::float2>({pointers['y']}, {first})"
    loop_lines = [line.strip() for line in loop[2].splitlines()]
    assert loop_lines[-1] == f"ipu_lower_rt::store({pointers['y']}, {first}, {result});"
    assert len(loop_lines) == 5  # first, two loads, the fma, the store
    # The broadcast is made once, before the loop; nothing else is a vector op.
    assert body.index(f"const ipu_lower_rt::float2 {scale} = ") < body.index(loop[0])
    assert set(vectors) == {scale, x, y, result}
    assert "lanewise" not in body
    # The tail: the worker whose turn is next does the last element, one float at a
    # time, through the fields themselves.
    tail = re.search(r"if \((\w+)\) \{\n +for \(unsigned (\w+) = (\w+); \2 < n; \2 \+= 1u\) \{\n(.*?)\n +\}\n +\}", body, re.S)
    assert tail, body
    conditions = definitions(body, "bool")
    owner = re.fullmatch(r"\(workerId == (\w+)\)", conditions[tail[1]])
    assert owner and definitions(body, "unsigned")[owner[1]] == "(units % numWorkers())"
    assert definitions(body, "unsigned")[tail[3]] == "(units * 2u)"
    i = tail[2]
    assert f"y[{i}] = " in tail[4] and f"= x[{i}];" in tail[4] and "ipu_lower_rt::" not in tail[4]


def test_codelets_without_a_tail_have_no_tail_code(tmp_path, capsys):
    # N = 10 on ipu2: five blocks of 2 floats, whole float2 vectors: no code after the
    # vector loop.
    _, codelets, _ = emit(("saxpy", "N=10", "ipu2", "poplar-cpp"), tmp_path / "out", capsys)
    check_example_codelet("saxpy", codelets)
    body = read_codelets(codelets)["saxpy_Mult_map"].body
    assert "if (" not in body and "units % numWorkers()" not in body


def test_int_codelet_runs_one_element_at_a_time(tmp_path, capsys):
    # clamp (int32, no vector arithmetic): plain poplar::Vector<int> fields, no
    # constraint, no pointers; each worker takes every workers-th element.
    _, codelets, _ = emit(("clamp", "N=17", "ipu1", "poplar-cpp"), tmp_path / "out", capsys)
    check_example_codelet("clamp", codelets)
    body = read_codelets(codelets)["clamp_clamp_clamp_10"].body
    assert "IPU_LOWER_CONSTRAINT(" not in codelets.split("}  // namespace ipu_lower_rt", 1)[1]
    assert "__restrict" not in body and "ipu_lower_rt::load" not in body
    assert re.search(r"for \(unsigned (\w+) = workerId; \1 < n; \1 \+= numWorkers\(\)\) \{", body)


def test_output_is_deterministic(tmp_path, capsys):
    first = emit(("chain", "N=100", "ipu1", "poplar-cpp"), tmp_path / "a", capsys)
    second = emit(("chain", "N=100", "ipu1", "poplar-cpp"), tmp_path / "b", capsys)
    assert first == second


def read_outputs(out_dir: Path) -> tuple[str, ...]:
    assert sorted(p.name for p in out_dir.iterdir()) == OUTPUT_FILES
    return tuple((out_dir / f).read_text() for f in ("host.cpp", "codelets.cpp", "program.json"))


def test_pass_pipeline_form_gives_the_same_output(tmp_path, capsys):
    expected = emit(("clamp", "N=33", "ipu1", "poplar-cpp"), tmp_path / "p", capsys)
    out_dir = tmp_path / "pipeline"
    code, _, err = run_ipu_opt(
        [EXAMPLES / "clamp.sdfg", "--pass-pipeline",
         'builtin.module(sdfg-to-poplar{symbols="N=33" arch="ipu1"})',
         "-t", "poplar-cpp", "-o", out_dir],
        capsys,
    )
    assert (code, err) == (0, "")
    assert read_outputs(out_dir) == expected


def test_py_input_gives_the_same_cpp_as_sdfg(tmp_path, capsys):
    expected = emit(("saxpy", "N=12", "ipu2", "poplar-cpp"), tmp_path / "sdfg", capsys)
    out_dir = tmp_path / "py"
    code, _, err = run_ipu_opt(
        [EXAMPLES / "saxpy.py", "-p", "sdfg-to-poplar{prefer=codelet}", "--symbols", "N=12",
         "-t", "poplar-cpp", "-o", out_dir],
        capsys,
    )
    assert (code, err) == (0, "")
    assert read_outputs(out_dir) == expected


def test_console_script(tmp_path):
    script = Path(sys.executable).parent / "ipu-opt"
    if not script.exists():
        pytest.skip("the ipu-opt console script is not installed")
    out_dir = tmp_path / "out"
    result = subprocess.run(
        [str(script), str(EXAMPLES / "clamp.sdfg"), "-p", "sdfg-to-poplar", "--symbols",
         "N=64", "-t", "poplar-cpp", "-o", str(out_dir)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert (result.returncode, result.stderr, result.stdout) == (0, "", "")
    assert sorted(p.name for p in out_dir.iterdir()) == OUTPUT_FILES
    host = (out_dir / "host.cpp").read_text()
    assert 'extern "C" int clamp_run(int *x, std::size_t x_count, int lo, int hi, int *y, std::size_t y_count) {' in host
    assert json.loads((out_dir / "program.json").read_text())["functions"]["run"] == "clamp_run"
    # an error through the real process: exit code 1, one line
    result = subprocess.run(
        [str(script), str(tmp_path / "missing.sdfg"), "-o", str(tmp_path / "none")],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("ipu-opt: ")
    assert not (tmp_path / "none").exists()


# --------------------------------------------------------------------------------------
# CLI errors: exit code 1, one line on stderr, nothing written


def saxpy_json() -> dict:
    return json.loads((EXAMPLES / "saxpy.sdfg").read_text())


def hostile_shape() -> str:
    doc = saxpy_json()
    doc["attributes"]["_arrays"]["x"]["attributes"]["shape"] = [
        "__import__('os').system('touch X')"
    ]
    return json.dumps(doc)


def hostile_total_size() -> str:
    doc = saxpy_json()
    doc["attributes"]["_arrays"]["y"]["attributes"]["total_size"] = (
        "__import__('os').system('touch X')"
    )
    return json.dumps(doc)


BAD_FILES = {
    "truncated JSON": (
        lambda: (EXAMPLES / "saxpy.sdfg").read_text()[:300],
        ["bad.sdfg: error: not valid JSON"],
    ),
    "empty file": (lambda: "", ["bad.sdfg: error: not valid JSON"]),
    "JSON list": (lambda: "[1, 2, 3]", ["bad.sdfg: error: top level is a list, expected an SDFG object"]),
    "JSON object that is not an SDFG": (
        lambda: json.dumps({"type": "NotAnSDFG", "attributes": {}}),
        ["'NotAnSDFG'", "expected SDFG"],
    ),
    "hostile shape": (hostile_shape, ["SDFG 'saxpy'", "data 'x'", "'shape'", "is not allowed"]),
    "hostile total_size": (hostile_total_size, ["SDFG 'saxpy'", "data 'y'", "is not allowed"]),
}


def check_one_line_error(code: int, out: str, err: str, phrases: list[str]) -> str:
    assert code == 1
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith("ipu-opt:"), err
    assert "Traceback" not in err and "internal error" not in err
    for phrase in phrases:
        assert phrase in lines[0], (phrase, lines[0])
    return lines[0]


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_malformed_sdfg_is_one_line_error(case, tmp_path, capsys, monkeypatch):
    make, phrases = BAD_FILES[case]
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "bad.sdfg"
    path.write_text(make())
    out_dir = tmp_path / "out"
    code, out, err = run_ipu_opt(
        [path, "-p", "sdfg-to-poplar", "--symbols", "N=8", "-t", "poplar-cpp", "-o", out_dir],
        capsys,
    )
    check_one_line_error(code, out, err, phrases)
    assert not out_dir.exists()
    # nothing was evaluated: no file X anywhere near
    assert not (tmp_path / "X").exists()
    assert not (REPO / "X").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.sdfg"]


def test_malformed_sdfg_to_output_file_writes_nothing(tmp_path, capsys):
    path = tmp_path / "bad.sdfg"
    path.write_text("{")
    out_file = tmp_path / "out.mlir"
    code, out, err = run_ipu_opt([path, "-o", out_file], capsys)
    check_one_line_error(code, out, err, ["not valid JSON"])
    assert not out_file.exists()


CLI_ERRORS = {
    "missing input file": (
        lambda tmp: [tmp / "missing.sdfg", "-p", "sdfg-to-poplar"],
        ["No such file or directory", "missing.sdfg"],
    ),
    "unknown pass": (
        lambda tmp: [EXAMPLES / "saxpy.sdfg", "-p", "no-such-pass"],
        ["no-such-pass"],
    ),
    "unknown pass in --pass-pipeline": (
        lambda tmp: [EXAMPLES / "saxpy.sdfg", "--pass-pipeline", "builtin.module(no-such-pass)"],
        ["no-such-pass"],
    ),
    "--pass-pipeline without builtin.module": (
        lambda tmp: [EXAMPLES / "saxpy.sdfg", "--pass-pipeline", "sdfg-to-poplar"],
        ["--pass-pipeline must look like 'builtin.module(", "got 'sdfg-to-poplar'"],
    ),
    "--pass-pipeline unbalanced": (
        lambda tmp: [EXAMPLES / "saxpy.sdfg", "--pass-pipeline", "builtin.module(sdfg-to-poplar"],
        ["--pass-pipeline must look like"],
    ),
    "-p and --pass-pipeline": (
        lambda tmp: [EXAMPLES / "saxpy.sdfg", "-p", "sdfg-to-poplar", "--pass-pipeline",
                     "builtin.module(sdfg-to-poplar)"],
        ["give either -p or --pass-pipeline, not both"],
    ),
    "unknown pass option": (
        lambda tmp: [EXAMPLES / "saxpy.sdfg", "--pass-pipeline",
                     "builtin.module(sdfg-to-poplar{bogus=1})"],
        ["invalid pass pipeline", "bogus"],
    ),
    "unresolved symbol": (
        lambda tmp: [EXAMPLES / "saxpy.sdfg", "-p", "sdfg-to-poplar", "-t", "poplar-cpp"],
        ["unresolved symbol 'N'", "--symbols N="],
    ),
    "symbol not an integer": (
        lambda tmp: [EXAMPLES / "saxpy.sdfg", "-p", "sdfg-to-poplar", "--symbols", "N=abc",
                     "-t", "poplar-cpp"],
        ["value of symbol 'N' must be an integer, got 'abc'"],
    ),
    "empty container": (
        lambda tmp: [EXAMPLES / "saxpy.sdfg", "-p", "sdfg-to-poplar", "--symbols", "N=0",
                     "-t", "poplar-cpp"],
        ["container 'x' has no elements"],
    ),
    "unknown arch option": (
        lambda tmp: [EXAMPLES / "saxpy.sdfg", "-p", "sdfg-to-poplar{arch=ipu9}", "--symbols",
                     "N=8", "-t", "poplar-cpp"],
        ["unknown IPU architecture 'ipu9'"],
    ),
    "sdk option out of range": (
        lambda tmp: [EXAMPLES / "saxpy.sdfg", "-p", "sdfg-to-poplar", "--symbols", "N=8",
                     "-t", "poplar-cpp{sdk=4}"],
        ["poplar-cpp option sdk must be 2 or 3, got 4"],
    ),
    "poplar-cpp without lowering": (
        lambda tmp: [EXAMPLES / "saxpy.sdfg", "-t", "poplar-cpp"],
        ["lower the module with sdfg-to-poplar first"],
    ),
    ".py with two programs and no entry": (
        lambda tmp: [two_programs(tmp), "-p", "sdfg-to-poplar", "--symbols", "N=8",
                     "-t", "poplar-cpp"],
        ["several @dace.programs (first, second)", "--entry"],
    ),
    ".py with an unknown entry": (
        lambda tmp: [two_programs(tmp), "--entry", "third", "-p", "sdfg-to-poplar",
                     "--symbols", "N=8", "-t", "poplar-cpp"],
        ["no @dace.program named 'third' (found: first, second)"],
    ),
}


def two_programs(tmp: Path) -> Path:
    path = tmp / "two.py"
    path.write_text(
        "import dace\nN = dace.symbol('N')\n\n"
        "@dace.program\ndef first(x: dace.float32[N]):\n    x[:] = x + 1\n\n"
        "@dace.program\ndef second(x: dace.float32[N]):\n    x[:] = x * 2\n"
    )
    return path


@pytest.mark.parametrize("case", sorted(CLI_ERRORS))
def test_cli_error_is_one_line(case, tmp_path, capsys):
    make_args, phrases = CLI_ERRORS[case]
    out_dir = tmp_path / "out"
    code, out, err = run_ipu_opt([*make_args(tmp_path), "-o", out_dir], capsys)
    check_one_line_error(code, out, err, phrases)
    assert not out_dir.exists()


# --------------------------------------------------------------------------------------
# names that are macros of the headers host.cpp includes


@needs_gxx
def test_container_names_that_are_standard_macros(tmp_path, capsys):
    import dace

    n = dace.symbol("N")
    sdfg = dace.SDFG("macros")
    sdfg.add_array("EXIT_FAILURE", [n], dace.float32)
    sdfg.add_array("INT32_MAX", [n], dace.float32)
    state = sdfg.add_state("main")
    state.add_mapped_tasklet(
        "m", {"i": "0:N"}, {"p": dace.Memlet("EXIT_FAILURE[i]")}, "q = p * 2",
        {"q": dace.Memlet("INT32_MAX[i]")}, external_edges=True,
    )
    sdfg.validate()
    path = tmp_path / "macros.sdfg"
    sdfg.save(str(path))
    out_dir = tmp_path / "out"
    code, _, err = run_ipu_opt(
        [path, "-p", "sdfg-to-poplar", "--symbols", "N=6", "-t", "poplar-cpp", "-o", out_dir],
        capsys,
    )
    assert (code, err) == (0, "")
    syntax_check([out_dir / "host.cpp", out_dir / "codelets.cpp"])


@needs_gxx
def test_container_names_that_are_the_host_loop_names(tmp_path, capsys):
    """Containers named like the block loops' own names (the loop variable, the vertex,
    the structs and the function) are renamed, and the loops still build the plan."""
    import dace

    n = dace.symbol("N")
    program = dace.SDFG("loops")
    for name in ("block", "TileRun", "vertex"):
        program.add_array(name, [n], dace.float32)
    state = program.add_state("main")
    state.add_mapped_tasklet(
        "m", {"i": "0:N"}, {"p": dace.Memlet("block[i]"), "r": dace.Memlet("TileRun[i]")},
        "q = p * r", {"q": dace.Memlet("vertex[i]")}, external_edges=True,
    )
    program.validate()
    path = tmp_path / "loops.sdfg"
    program.save(str(path))
    out_dir = tmp_path / "out"
    args = [path, "-p", "sdfg-to-poplar", "--symbols", "N=3000", "--arch", "ipu1"]
    code, _, err = run_ipu_opt([*args, "-t", "poplar-cpp", "-o", out_dir], capsys)
    assert (code, err) == (0, "")
    code, ir_text, err = run_ipu_opt(args, capsys)
    assert (code, err) == (0, "")
    host = (out_dir / "host.cpp").read_text()
    for name in ("block", "TileRun", "vertex"):
        assert f"poplar::Tensor {name}_1 = graph.addVariable(" in host
    assert "graph.connect(vertex[\"vertex\"], vertex_1.slice(block.begin, block.end));" in host
    layout = read_host(host)
    assert layout == read_ir(ir_text)
    tile_map = balanced_tile_map(3000, get_arch("ipu1").tiles, 2)
    assert [(t, b, e) for t, b, e in layout.mappings["TileRun"]] == [
        (b.tile, b.begin, b.end) for b in tile_map.blocks()]
    assert [v.tile for v in layout.vertices] == [b.tile for b in tile_map.blocks()]
    syntax_check([out_dir / "host.cpp", out_dir / "codelets.cpp"])


# --------------------------------------------------------------------------------------
# the host printer on hand-written poplar IR: every slice rule, several tile maps


HAND_WRITTEN = """
poplar.codelet @body(%a: memref<f32> input "a", %x: memref<?xf32> input "x", %y: memref<?xf32> inout "y", %p: memref<f32> output "p") {
  %c0 = arith.constant 0 : index
  %n = memref.dim %y, %c0 : memref<?xf32>
  %w = poplar.worker_id
  %nw = poplar.num_workers
  %va = memref.load %a[] : memref<f32>
  scf.for %i = %w to %n step %nw {
    %e = memref.load %x[%i] : memref<?xf32>
    %r = arith.mulf %e, %va : f32
    memref.store %r, %y[%i] : memref<?xf32>
  }
  memref.store %va, %p[] : memref<f32>
}
poplar.host_program @hand arch "ipu2" args ["a", "x"] : [memref<f32>, memref<10xf32>] build {
  %a = poplar.add_variable "a" : !poplar.tensor<f32>
  poplar.map_tensor %a over <3 to 4 x 1> : !poplar.tensor<f32>
  %x = poplar.add_variable "x" : !poplar.tensor<10xf32>
  poplar.map_tensor %x over <0 to 2 x 3, 2 to 4 x 2> : !poplar.tensor<10xf32>
  %y = poplar.add_variable "block" : !poplar.tensor<2x5xf32>
  poplar.map_tensor %y over <0 to 2 x 3, 2 to 4 x 2> : !poplar.tensor<2x5xf32>
  %p = poplar.add_variable "vertex" : !poplar.tensor<4xf32>
  poplar.map_tensor %p over <0 to 4 x 1> : !poplar.tensor<4xf32>
  %h = poplar.add_variable "TileRun" : !poplar.tensor<2x1x3xf32>
  poplar.map_tensor %h over <1471 to 1472 x 6> : !poplar.tensor<2x1x3xf32>
  %g = poplar.add_variable "graph" : !poplar.tensor<10xf32>
  poplar.map_tensor %g over <5 to 6 x 4, 6 to 7 x 6> : !poplar.tensor<10xf32>
  %v = poplar.add_variable "for_each_block" : !poplar.tensor<2x4xf32>
  poplar.map_tensor %v over <5 to 7 x 4> : !poplar.tensor<2x4xf32>
  %q = poplar.add_variable "tile_map_0" : !poplar.tensor<2xf32>
  poplar.map_tensor %q over <5 to 7 x 1> : !poplar.tensor<2xf32>
  %c = poplar.add_variable "body_cycles" : !poplar.tensor<f32>
  poplar.map_tensor %c over <0 to 1 x 1> : !poplar.tensor<f32>
  poplar.create_host_write "write_a" to %a : !poplar.tensor<f32>
  poplar.create_host_write "write_x" to %x : !poplar.tensor<10xf32>
  %cs = poplar.add_compute_set "TileBlock"
  poplar.add_vertices %cs @body over <0 to 2 x 3, 2 to 4 x 2> ["a" = %a whole, "x" = %x block, "y" = %y block, "p" = %p partial] cycles [120, 96] : !poplar.tensor<f32>, !poplar.tensor<10xf32>, !poplar.tensor<2x5xf32>, !poplar.tensor<4xf32>
  %cs2 = poplar.add_compute_set "stencil"
  poplar.add_vertices %cs2 @body over <5 to 7 x 4> ["p" = %q partial, "y" = %v block, "x" = %g halo<0, 2>, "a" = %c whole] cycles [77] : !poplar.tensor<2xf32>, !poplar.tensor<2x4xf32>, !poplar.tensor<10xf32>, !poplar.tensor<f32>
  poplar.add_vertices %cs2 @body over <8 to 9 x 1, 10 to 12 x 2> ["a" = %a whole, "x" = %x halo<0, 1>, "y" = %x block, "p" = %p partial] cycles [5, 6] : !poplar.tensor<f32>, !poplar.tensor<10xf32>, !poplar.tensor<10xf32>, !poplar.tensor<4xf32>
  %p0 = poplar.execute %cs
  %p1 = poplar.execute %cs2
  %seq = poplar.sequence(%p0, %p1)
  poplar.engine %seq
} run {
  poplar.write_tensor "write_a" from "a"
  poplar.write_tensor "write_x" from "x"
  poplar.run 0
}
"""


def print_hand_written() -> dict[str, str]:
    out = io.StringIO()
    PoplarCppTarget().emit(ir_context(), parse_ir(HAND_WRITTEN), out)
    return split_files(out.getvalue())


def test_hand_written_ir_host_builds_what_the_ir_says():
    host = print_hand_written()["host.cpp"]
    layout = read_host(host)
    assert layout == read_ir(HAND_WRITTEN)
    # the rules, spelled out for a few vertices: (field, container, begin, end)
    first_run, second_run = layout.vertices[0], layout.vertices[2]
    assert (first_run.tile, first_run.cycles, first_run.connections) == (0, 120, [
        ("a", "a", 0, 1), ("x", "x", 0, 3), ("y", "block", 0, 3), ("p", "vertex", 0, 1)])
    assert (second_run.tile, second_run.cycles, second_run.connections) == (2, 96, [
        ("a", "a", 0, 1), ("x", "x", 6, 8), ("y", "block", 6, 8), ("p", "vertex", 2, 3)])
    stencil = [v for v in layout.vertices if v.compute_set == "stencil"]
    assert [(v.tile, v.cycles, v.connections) for v in stencil] == [
        (5, 77, [("p", "tile_map_0", 0, 1), ("y", "for_each_block", 0, 4), ("x", "graph", 0, 6),
                 ("a", "body_cycles", 0, 1)]),
        (6, 77, [("p", "tile_map_0", 1, 2), ("y", "for_each_block", 4, 8), ("x", "graph", 4, 10),
                 ("a", "body_cycles", 0, 1)]),
        (8, 5, [("a", "a", 0, 1), ("x", "x", 0, 2), ("y", "x", 0, 1), ("p", "vertex", 0, 1)]),
        (10, 6, [("a", "a", 0, 1), ("x", "x", 1, 4), ("y", "x", 1, 3), ("p", "vertex", 1, 2)]),
        (11, 6, [("a", "a", 0, 1), ("x", "x", 3, 6), ("y", "x", 3, 5), ("p", "vertex", 2, 3)]),
    ]
    assert layout.mappings["TileRun"] == [(1471, 0, 6)]
    assert layout.mappings["a"] == [(3, 0, 1)]
    assert layout.mappings["graph"] == [(5, 0, 4), (6, 4, 10)]
    # one table per distinct tile map of a loop (7; the scalars' maps have none), each
    # loop over its own table, and a cycles array only where the runs' estimates differ
    tables = re.findall(r"^const TileRun (\w+)\[\] = (.*);$", host, re.M)
    assert [runs for _, runs in tables] == [
        "{{0, 2, 3}, {2, 4, 2}}", "{{0, 4, 1}}", "{{1471, 1472, 6}}", "{{5, 6, 4}, {6, 7, 6}}",
        "{{5, 7, 4}}", "{{5, 7, 1}}", "{{8, 9, 1}, {10, 12, 2}}"]
    assert len(layout.loops) == 7 + 3
    assert re.findall(r"std::uint64_t \w+\[\] = \{(.*)\};", host) == ["120, 96", "5, 6"]
    assert "graph.setPerfEstimate(vertex, 77);" in host
    # no generated name is one of the printer's own
    declared = re.findall(r"poplar::(?:Tensor|ComputeSet) (\w+) = ", host)
    assert len(declared) == len(set(declared)) == 11
    for name, _ in tables:
        assert name not in declared


@needs_gxx
def test_hand_written_ir_compiles(tmp_path):
    files = print_hand_written()
    for name in ("host.cpp", "codelets.cpp"):
        (tmp_path / name).write_text(files[name])
    syntax_check([tmp_path / "host.cpp", tmp_path / "codelets.cpp"])


def test_dace_parse_failure_prints_nothing_on_stdout(tmp_path, capsys):
    path = tmp_path / "bad_program.py"
    path.write_text(
        "import dace\nN = dace.symbol('N')\n\n"
        "@dace.program\ndef bad(A: dace.float32[N]):\n    A[0, 1] = 2\n"
    )
    code, out, err = run_ipu_opt([path], capsys)
    assert code == 1 and err.count("\n") == 1
    assert "DaCe cannot build an SDFG" in err
    assert out == ""


# --------------------------------------------------------------------------------------
# the runtime helpers' two branches: the host build (emulator, IPU Model) and popc's


# y = a * x + y, then sqrt and max, in float16 at the sdfg level: a codelet on half4.
HALF_PROGRAM = """
sdfg.sdfg @haxpy args ["a", "x", "y"] symbols ["N"] {
  %a = sdfg.container "a" : !sdfg.array<f16>
  %x = sdfg.container "x" : !sdfg.array<N x f16>
  %y = sdfg.container "y" : !sdfg.array<N x f16>
  sdfg.state "s0" {
    sdfg.map "m" (%i) = (0) to (N) step (1) {
      %va = sdfg.read %a[] : !sdfg.array<f16>
      %vx = sdfg.read %x[%i] : !sdfg.array<N x f16>
      %vy = sdfg.read %y[%i] : !sdfg.array<N x f16>
      %r = sdfg.tasklet "t" ins(a = %va, x = %vx, y = %vy) outs(o) : (f16, f16, f16) -> (f16) {
      ^bb0(%aa: f16, %xx: f16, %yy: f16):
        %p = arith.mulf %aa, %xx : f16
        %s = arith.addf %p, %yy : f16
        %q = math.sqrt %s : f16
        %m = arith.maximumf %q, %xx : f16
        sdfg.yield %m : f16
      }
      sdfg.write %r to %y[%i] : !sdfg.array<N x f16>
    }
  }
}
"""


def emit_half_program(tmp_path: Path, capsys) -> Path:
    """codelets.cpp of HALF_PROGRAM at N = 1001 (blocks of 4 halves, the last ragged)."""
    source = tmp_path / "haxpy.mlir"
    source.write_text(HALF_PROGRAM)
    out_dir = tmp_path / "haxpy"
    code, out, err = run_ipu_opt(
        [source, "-p", "sdfg-to-poplar", "--symbols", "N=1001", "-t", "poplar-cpp", "-o", out_dir], capsys
    )
    assert (code, out, err) == (0, "", "")
    return out_dir / "codelets.cpp"


@needs_gxx
def test_half_codelet_uses_half4_and_compiles_for_the_host(tmp_path, capsys):
    codelets_path = emit_half_program(tmp_path, capsys)
    codelets = codelets_path.read_text()
    check_vector_fields(codelets)
    (codelet,) = read_codelets(codelets).values()
    assert codelet.constraints == ("elem(*x)!=elem(*y)",)
    assert codelet.fields["y"] == Field("InOut", "half", "vector", True)
    vectors = definitions(codelet.body, "ipu_lower_rt::half4")
    assert re.search(r"^    const unsigned units = \(n / 4u\);$", codelet.body, re.M)
    # one fma expression; sqrt and maximumf have no half4 instruction: lane by lane
    assert len([e for e in vectors.values() if re.fullmatch(r"\(\w+ \* \w+ \+ \w+\)", e)]) == 1
    assert len([e for e in vectors.values() if e.startswith("ipu_lower_rt::lanewise([](half a0")]) == 2
    syntax_check([codelets_path])


def test_gxx_does_not_define_ipu():
    """The syntax checks above compile the host branch of the helpers (`#ifndef __IPU__`)."""
    if GXX is None:
        pytest.skip("g++ is not installed")
    result = subprocess.run([GXX, "-std=c++17", "-dM", "-E", "-x", "c++", "/dev/null"],
                            capture_output=True, text=True, timeout=60, check=True)
    assert "__IPU__" not in result.stdout


# Stand-ins for what popc provides, enough for the codelets and the helpers: `half` (a
# built-in type on the IPU), float2/half4 (<ipu_vector_math>), and the vertex classes and
# fields of <poplar/Vertex.hpp> (an Input of a Vector reads elements, InOut and Output
# write them, `&field[0]` is the data). VECTOR_TYPEDEF is the compiler's spelling of a
# vector type: popc (clang) has ext_vector_type; g++ has the GNU vector_size extension,
# with the same operators and subscripts for what the helpers use.
FAKE_SDK = {
    "poplar/HalfFloat.hpp": "#pragma once\ntypedef _Float16 half;\n",
    "ipu_vector_math": "#pragma once\n{typedefs}\n",
    "poplar/Vertex.hpp": """#pragma once
namespace poplar {
enum class VectorLayout { SPAN };
template <typename T, VectorLayout L = VectorLayout::SPAN, unsigned Align = alignof(T), bool Interleaved = false>
struct Vector {
  T *p;
  unsigned n;
  T &operator[](unsigned i) const { return p[i]; }
  unsigned size() const { return n; }
};
template <typename T> struct Input {
  const T *p;
  const T &operator*() const { return *p; }
};
template <typename T, VectorLayout L, unsigned A, bool I> struct Input<Vector<T, L, A, I>> {
  Vector<T, L, A, I> v;
  const T &operator[](unsigned i) const { return v[i]; }
  unsigned size() const { return v.size(); }
};
template <typename T> struct InOut {
  T *p;
  T &operator*() const { return *p; }
};
template <typename T, VectorLayout L, unsigned A, bool I> struct InOut<Vector<T, L, A, I>> {
  Vector<T, L, A, I> v;
  T &operator[](unsigned i) const { return v[i]; }
  unsigned size() const { return v.size(); }
};
template <typename T> struct Output : InOut<T> {};
class MultiVertex {
public:
  static unsigned numWorkers() { return 6; }
};
class Vertex {};
}  // namespace poplar
""",
}
VECTOR_TYPEDEFS = {
    "g++": "typedef float float2 __attribute__((vector_size(8)));\ntypedef half half4 __attribute__((vector_size(8)));",
    "clang++": "typedef float float2 __attribute__((ext_vector_type(2)));\ntypedef half half4 __attribute__((ext_vector_type(4)));",
}
# g++ and clang ignore (and warn about) the attribute only popc knows.
UNKNOWN_ATTRIBUTE_WARNING = {"g++": "-Wno-attributes", "clang++": "-Wno-unknown-attributes"}

# Uses every helper of the IPU branch on a field-like run of floats and of halves, and
# checks the lanes: load and store of whole vectors at an element index, broadcast,
# vector arithmetic, lanewise.
HELPERS_CHECK = """#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <ipu_vector_math>
#include <type_traits>
{helpers}
static_assert(std::is_same<ipu_lower_rt::float2, ::float2>::value, "the __IPU__ branch is compiled");
static_assert(std::is_same<ipu_lower_rt::half4, ::half4>::value, "the __IPU__ branch is compiled");

struct IPU_LOWER_CONSTRAINT("elem(*x)!=elem(*y)", "elem(*x)!=elem(*z)") Apart {{ int field; }};

int main() {{
  alignas(8) float xs[6] = {{1, 4, 9, 16, 25, 36}};
  alignas(8) float ys[6] = {{0, 0, 0, 0, 0, 0}};
  poplar::Input<poplar::Vector<float, poplar::VectorLayout::SPAN, 8>> x{{{{xs, 6}}}};
  poplar::InOut<poplar::Vector<float, poplar::VectorLayout::SPAN, 8, true>> y{{{{ys, 6}}}};
  auto *__restrict x_p = ipu_lower_rt::data(x);
  auto *__restrict y_p = ipu_lower_rt::data(y);
  const ipu_lower_rt::float2 two = ipu_lower_rt::broadcast<ipu_lower_rt::float2>(2.0f);
  for (unsigned first = 0; first < 6; first += 2) {{
    const ipu_lower_rt::float2 v = ipu_lower_rt::load<ipu_lower_rt::float2>(x_p, first);
    const ipu_lower_rt::float2 r = ipu_lower_rt::lanewise([](float a0) {{ return std::sqrt(a0); }}, v);
    ipu_lower_rt::store(y_p, first, (two * v + r));
  }}
  for (unsigned i = 0; i < 6; ++i)
    if (ys[i] != 2 * xs[i] + std::sqrt(xs[i])) return 1 + i;
  alignas(8) half hs[8] = {{1, 2, 3, 4, 5, 6, 7, 8}};
  poplar::InOut<poplar::Vector<half, poplar::VectorLayout::SPAN, 8, true>> h{{{{hs, 8}}}};
  auto *__restrict h_p = ipu_lower_rt::data(h);
  const ipu_lower_rt::half4 three = ipu_lower_rt::broadcast<ipu_lower_rt::half4>(static_cast<half>(3));
  const ipu_lower_rt::half4 upper = ipu_lower_rt::load<ipu_lower_rt::half4>(h_p, 4);
  ipu_lower_rt::store(h_p, 0, ipu_lower_rt::lanewise([](half a0, half a1) {{
    return ipu_lower_rt::maximumf<half>(a0, a1); }}, upper * three - three, three));
  const float expected[8] = {{12, 15, 18, 21, 5, 6, 7, 8}};
  for (unsigned i = 0; i < 8; ++i)
    if (static_cast<float>(hs[i]) != expected[i]) return 10 + i;
  return 0;
}}
"""


def fake_sdk(directory: Path, compiler: str) -> Path:
    for name, text in FAKE_SDK.items():
        path = directory / "fake_sdk" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace("{typedefs}", VECTOR_TYPEDEFS[compiler]))
    return directory / "fake_sdk"


def ipu_compilers() -> list:
    clang_reason = "clang++ is not installed: ext_vector_type (popc's float2/half4) needs clang"
    return [
        pytest.param("g++", marks=pytest.mark.skipif(GXX is None, reason="g++ is not installed")),
        pytest.param("clang++", marks=pytest.mark.skipif(CLANGXX is None, reason=clang_reason)),
    ]


def compile_for_ipu(compiler: str, include: Path, source: Path, *flags: str) -> subprocess.CompletedProcess:
    """`source` compiled as popc would see it: __IPU__ defined, the stand-in SDK."""
    return subprocess.run(
        [shutil.which(compiler), "-std=c++17", "-Wall", "-Werror", UNKNOWN_ATTRIBUTE_WARNING[compiler],
         "-D__IPU__", "-I", str(include), *flags, str(source)],
        capture_output=True, text=True, timeout=600, check=False,
    )


@pytest.mark.parametrize("compiler", ipu_compilers())
def test_ipu_branch_of_the_helpers_computes_lanes(compiler, tmp_path):
    source = tmp_path / "helpers.cpp"
    source.write_text(HELPERS_CHECK.format(helpers=CPP_HELPERS))
    binary = tmp_path / "helpers"
    result = compile_for_ipu(compiler, fake_sdk(tmp_path, compiler), source, "-O1", "-o", str(binary))
    assert result.returncode == 0, result.stderr[:3000]
    run = subprocess.run([str(binary)], capture_output=True, timeout=60, check=False)
    assert run.returncode == 0, f"lane check {run.returncode} failed"


@pytest.mark.parametrize("compiler", ipu_compilers())
def test_emitted_codelets_compile_in_the_ipu_branch(compiler, tmp_path, capsys):
    # Each example's codelets and the half4 program, with __IPU__ defined: the IPU
    # branch of the helpers (ipu_vector_math's float2/half4, pointers into the fields,
    # the constraint attribute) with the bodies the printer writes.
    sources = [emit_half_program(tmp_path, capsys)]
    for name, symbols in (("saxpy", "N=1001"), ("chain", "N=77"), ("scale2d", "M=3,N=7"), ("clamp", "N=17")):
        emit((name, symbols, "ipu2", "poplar-cpp"), tmp_path / name, capsys)
        sources.append(tmp_path / name / "codelets.cpp")
    include = fake_sdk(tmp_path, compiler)
    failures = []
    for source in sources:
        wrapper = source.with_name("ipu_check.cpp")
        wrapper.write_text(
            f'#include "{source.name}"\n#include <type_traits>\n'
            'static_assert(std::is_same<ipu_lower_rt::float2, ::float2>::value, "the __IPU__ branch");\n'
        )
        result = compile_for_ipu(compiler, include, wrapper, "-fsyntax-only")
        if result.returncode != 0:
            failures.append(f"{source}:\n{result.stderr[:3000]}")
    assert not failures, "\n".join(failures)
