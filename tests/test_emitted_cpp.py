"""The C++ that `ipu-opt -p sdfg-to-poplar -t poplar-cpp -o DIR` writes for the examples:
it compiles (-fsyntax-only -Wall -Werror against the bundled emulator headers), has the C ABI,
no 64-bit types, and lays data and vertices out as the tile plan says (read both from the
poplar-level IR and from host.cpp, whose runs of vertices and tile mappings are loops over
constant tables). DIR/program.json describes the C ABI as the SDFG signature does, and
`poplar-cpp{makefile=true}` adds a Makefile for the real SDK. Also the CLI's behaviour on
bad input: exit code 1, one line on stderr, no output written."""

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
from xdsl.ir import SSAValue

from ipu_lower.arch import get_arch
from ipu_lower.cli import ipu_opt_main
from ipu_lower.dialects import poplar
from ipu_lower.frontend.frontends import LocatedMlirFrontend
from ipu_lower.passes.tile_partition import balanced_tile_map
from ipu_lower.registry import DIALECTS
from ipu_lower.targets.host_tables import MIN_RUN

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
INCLUDE = REPO / "ipu_lower" / "emulator" / "include"
GXX = shutil.which("g++")
MAKE = shutil.which("make")
needs_gxx = pytest.mark.skipif(GXX is None, reason="g++ is not installed")

CPP_FILES = ["codelets.cpp", "host.cpp"]
OUTPUT_FILES = ["codelets.cpp", "host.cpp", "program.json"]
ABI_FUNCTIONS = ("init", "run", "exit", "last_error")  # <prefix>_<function> in host.cpp


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
    """g++ -fsyntax-only on all files at once (in parallel)."""
    procs = [
        subprocess.Popen(
            [GXX, "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", "-I", str(INCLUDE), str(f)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for f in files
    ]
    failures = []
    for proc, f in zip(procs, files):
        _, err = proc.communicate(timeout=600)
        if proc.returncode != 0:
            failures.append(f"{f.name}:\n{err[:3000]}")
    assert not failures, "\n".join(failures)


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


EXAMPLE_INFO = {
    "saxpy": Example("float a, float *x, float *y", ("x", "y", "__tmp0", "__tmp1"), ("a",), 2,
                     "FLOAT", ("N",), ("y",), ("a", "x", "y")),
    "chain": Example("float *x, float *y, float *z", ("x", "y", "z", "t", "u"), (), 3,
                     "FLOAT", ("N",), ("z",), ("x", "y", "z")),
    "scale2d": Example("float *A, float *B", ("A", "B"), ("__tmp1", "__tmp2", "__tmp3"), 1,
                       "FLOAT", ("M", "N"), ("B",), ("A", "B")),
    "clamp": Example("int *x, int lo, int hi, int *y", ("x", "y"), ("lo", "hi"), 1,
                     "INT", ("N",), ("y",), ("x", "lo", "hi", "y")),
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
    tables: list[tuple[str, str, int]] = field(default_factory=list, compare=False)
    """host.cpp only: (kind "mapping" or "vertices", container or compute set, rows)"""

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
    for dialect in DIALECTS:
        ctx.load_dialect(dialect)
    return ctx


def read_ir(text: str) -> Layout:
    """The layout the `poplar.host_program` of `sdfg-to-poplar` output builds."""
    module = LocatedMlirFrontend().parse(ir_context(), io.BytesIO(text.encode()), "ir.mlir")
    module.verify()
    programs = [op for op in module.ops if isinstance(op, poplar.HostProgramOp)]
    assert len(programs) == 1
    layout = Layout()
    views: dict[SSAValue, tuple[str, int, int]] = {}  # value -> (container, begin, end)
    flat: set[SSAValue] = set()  # values that are 1-D (slices cut the first dimension)
    compute_sets: dict[SSAValue, str] = {}
    vertices: dict[SSAValue, Vertex] = {}
    for op in programs[0].build_body.block.ops:
        if isinstance(op, poplar.AddVariableOp):
            shape = tuple(op.shape.get_values())
            layout.variables[op.debug_name.data] = (poplar.POPLAR_TYPES[op.element_type], shape)
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
        elif isinstance(op, poplar.SetTileMappingOp):
            if op.target in vertices:
                assert vertices[op.target].tile is None
                vertices[op.target].tile = op.tile.value.data
            else:
                name, begin, end = views[op.target]
                layout.mappings.setdefault(name, []).append((op.tile.value.data, begin, end))
        elif isinstance(op, poplar.AddComputeSetOp):
            compute_sets[op.result] = op.debug_name.data
        elif isinstance(op, poplar.AddVertexOp):
            vertices[op.result] = Vertex(compute_sets[op.compute_set], op.codelet.data)
            layout.vertices.append(vertices[op.result])
        elif isinstance(op, poplar.ConnectOp):
            vertices[op.vertex].connections.append((op.field.data, *views[op.tensor]))
        elif isinstance(op, poplar.SetPerfEstimateOp):
            assert vertices[op.vertex].cycles is None
            vertices[op.vertex].cycles = op.cycles.value.data
    return layout


TENSOR_EXPR = r"(\w+)(\.flatten\(\))?(?:\.slice\((\d+), (\d+)\))?"
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
# Anything that looks like building the graph must be one of the statements above.
GRAPH_CALL = re.compile(
    r"graph\.(addVariable|setTileMapping|addComputeSet|addVertex|connect|setPerfEstimate)\(|\brow\b"
)
TABLE_LOOP = re.compile(
    r"[ ]*static const std::size_t (\w+)\[\]\[(\d+)\] = \{\n(.*?)\n[ ]*\};\n"
    r"[ ]*for \(const auto &row : \1\) \{\n(.*?)\n[ ]*\}\n",
    re.S,
)
ROW = re.compile(r"\{(\d+(?:, \d+)*)\},")
MAPPING_BODY = re.compile(
    r"graph\.setTileMapping\((\w+)(?:\.flatten\(\))?\.slice\(row\[1\], row\[2\]\), "
    r"static_cast<unsigned>\(row\[0\]\)\);"
)
VERTEX_BODY_HEAD = re.compile(
    r'poplar::VertexRef vertex = graph\.addVertex\((\w+), "\w+"\);\n'
    r"graph\.setTileMapping\(vertex, static_cast<unsigned>\(row\[0\]\)\);"
)
VERTEX_BODY_CONNECT = re.compile(
    r'graph\.connect\(vertex\["\w+"\], \w+(?:\.flatten\(\))?(?:\.slice\(row\[(\d+)\], row\[(\d+)\]\))?\);'
)
VERTEX_BODY_TAIL = "graph.setPerfEstimate(vertex, row[1]);"


class HostReader:
    """Follows the graph-building statements of host.cpp in order; a table loop is
    followed once per row, with `row[k]` replaced by the row's k-th number."""

    def __init__(self) -> None:
        self.layout = Layout()
        self.tensors: dict[str, str] = {}  # C++ variable -> container
        self.compute_sets: dict[str, str] = {}  # C++ variable -> debug name
        self.vertices: dict[str, Vertex] = {}  # C++ variable -> the vertex it names now

    def tensor(self, var: str, flatten: str | None, begin: str | None, end: str | None):
        name = self.tensors[var]
        if begin is not None and not flatten:
            assert len(self.layout.variables[name][1]) <= 1, f"slice of unflattened {var}"
        return self.layout.view(name, None if begin is None else int(begin),
                                None if end is None else int(end))

    def statement(self, line: str) -> None:
        line = line.strip()
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
            assert m[2] is None and m[3] is None
            vertex = self.vertices[m[1]]
            assert vertex.tile is None
            vertex.tile = int(m[5])
        elif kind == "mapping":
            name, begin, end = self.tensor(*m.groups()[:4])
            self.layout.mappings.setdefault(name, []).append((int(m[5]), begin, end))
        elif kind == "vertex":
            self.vertices[m[1]] = Vertex(self.compute_sets[m[2]], m[3])
            self.layout.vertices.append(self.vertices[m[1]])
        elif kind == "connect":
            self.vertices[m[1]].connections.append((m[2], *self.tensor(*m.groups()[2:])))
        elif kind == "perf":
            vertex = self.vertices[m[1]]
            assert vertex.cycles is None
            vertex.cycles = int(m[2])

    def table(self, m: re.Match) -> None:
        table, columns, rows_text, body = m[1], int(m[2]), m[3], m[4]
        rows = [tuple(int(n) for n in r.split(", ")) for r in ROW.findall(rows_text)]
        assert ROW.sub("", rows_text).split() == [], rows_text
        assert len(rows) >= MIN_RUN and {len(r) for r in rows} == {columns}, table
        lines = [line.strip() for line in body.splitlines()]
        # the columns: tile, begin, end of a mapping; tile, cycles, then begin and end of
        # each sliced field of a vertex
        if mapping := MAPPING_BODY.fullmatch("\n".join(lines)):
            assert columns == 3, table
            self.layout.tables.append(("mapping", self.tensors[mapping[1]], len(rows)))
        else:
            head = VERTEX_BODY_HEAD.fullmatch("\n".join(lines[:2]))
            assert head and lines[-1] == VERTEX_BODY_TAIL, body
            slice_columns = []
            for line in lines[2:-1]:
                connect = VERTEX_BODY_CONNECT.fullmatch(line)
                assert connect, line
                if connect[1] is not None:
                    slice_columns += [int(connect[1]), int(connect[2])]
            assert slice_columns == list(range(2, columns)), body
            self.layout.tables.append(("vertices", self.compute_sets[head[1]], len(rows)))
        for row in rows:
            text = re.sub(r"row\[(\d+)\]", lambda k: str(row[int(k[1])]), body)
            for line in re.sub(r"static_cast<unsigned>\((\d+)\)", r"\1", text).splitlines():
                self.statement(line)


def read_host(text: str) -> Layout:
    reader = HostReader()
    pos = 0
    while pos < len(text):
        if m := TABLE_LOOP.match(text, pos):
            reader.table(m)
            pos = m.end()
        else:
            end = text.find("\n", pos) + 1 or len(text)
            reader.statement(text[pos:end])
            pos = end
    return reader.layout


CODELET_CLASS = re.compile(
    r"class (\w+) : public poplar::(MultiVertex|Vertex) \{(.*?)\n\};", re.DOTALL
)
FIELD = re.compile(r"poplar::(Input|Output|InOut)<(?:poplar::Vector<(\w+)>|(\w+))> (\w+);")


def read_codelets(text: str) -> dict[str, tuple[str, dict[str, tuple[str, bool, str]]]]:
    """class name -> (base, {field: (direction, is_vector, element type)})"""
    classes = {}
    for name, base, body in CODELET_CLASS.findall(text):
        fields = {}
        for direction, vector_type, scalar_type, field_name in FIELD.findall(body):
            fields[field_name] = (direction, bool(vector_type), vector_type or scalar_type)
        classes[name] = (base, fields)
    return classes


# --------------------------------------------------------------------------------------
# compiling and checking the examples


def emit(case, out_dir: Path, capsys) -> tuple[str, str, str]:
    """host.cpp, codelets.cpp and program.json of `ipu-opt ... -o out_dir`."""
    name, symbols, arch, target = case
    code, out, err = run_ipu_opt(
        [EXAMPLES / f"{name}.sdfg", "-p", "sdfg-to-poplar", "--symbols", symbols,
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
        [EXAMPLES / f"{name}.sdfg", "-p", "sdfg-to-poplar", "--symbols", symbols, "--arch", arch],
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
    assert len(re.findall(r'^extern "C" ', host, re.MULTILINE)) == 4


def check_sdk_style(codelets: str, sdk: int, maps: int) -> None:
    classes = read_codelets(codelets)
    assert len(classes) == maps
    if sdk == 3:
        assert {base for base, _ in classes.values()} == {"MultiVertex"}
        assert codelets.count("void compute(unsigned workerId) {") == maps
        assert "bool compute()" not in codelets
    else:
        assert {base for base, _ in classes.values()} == {"Vertex"}
        assert codelets.count("bool compute() {") == maps
        assert codelets.count("return true;") >= maps
        assert "MultiVertex" not in codelets and "workerId" not in codelets


def check_plan(case, layout: Layout, codelets_text: str, where: str) -> None:
    """`layout` is what balanced_tile_map gives for the example."""
    name, symbols, arch_name, _ = case
    info = EXAMPLE_INFO[name]
    values = symbol_values(symbols)
    shape = tuple(values[s] for s in info.shape)
    expected = list(balanced_tile_map(prod(shape), get_arch(arch_name).tiles, 2).intervals())

    assert set(layout.variables) == set(info.arrays) | set(info.scalars), where
    for array in info.arrays:
        assert layout.variables[array] == (info.poplar_type, shape), (where, array)
        assert layout.mappings[array] == expected, (where, array)
    for scalar in info.scalars:
        assert layout.variables[scalar] == (info.poplar_type, ()), (where, scalar)
        assert layout.mappings[scalar] == [(0, 0, 1)], (where, scalar)

    # one compute set per map, one vertex per tile that owns elements
    classes = read_codelets(codelets_text)
    compute_sets: dict[str, list[Vertex]] = {}
    for vertex in layout.vertices:
        compute_sets.setdefault(vertex.compute_set, []).append(vertex)
        assert vertex.codelet in classes, (where, vertex.codelet)
        assert isinstance(vertex.cycles, int) and vertex.cycles > 0, (where, vertex)
    assert len(compute_sets) == info.maps, where
    intervals = {tile: (b, e) for tile, b, e in expected}
    for cs, vertices in compute_sets.items():
        assert [v.tile for v in vertices] == list(range(len(expected))), (where, cs)
        for v in vertices:
            fields = classes[v.codelet][1]
            assert [f for f, *_ in v.connections] == list(fields), (where, cs, v)
            for field_name, tensor, b, e in v.connections:
                direction, is_vector, _ = fields[field_name]
                if is_vector:
                    assert (b, e) == intervals[v.tile], (where, cs, v, field_name)
                    assert layout.variables[tensor][1] == shape
                else:
                    assert layout.variables[tensor][1] == () and direction == "Input"


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

    # runs of same-shaped calls are tables: one per array and one per compute set
    tiles = len(ir.mappings[info.arrays[0]])
    if tiles >= MIN_RUN:
        compute_sets = {v.compute_set for v in ir.vertices}
        assert Counter(host.tables) == Counter(
            [("mapping", a, tiles) for a in info.arrays]
            + [("vertices", cs, tiles) for cs in compute_sets]
        )
        assert host_text.count("graph.addVertex(") == info.maps
    else:
        assert host.tables == [] and "static const" not in host_text
        assert host_text.count("graph.addVertex(") == len(ir.vertices)

    # host I/O: every argument (and no transient) is written, the results are read back
    writes = re.findall(r'graph\.createHostWrite\("write_(\w+)", ', host_text)
    assert writes == list(info.args)
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
    assert set(manifest) == {"sdfg", "prefix", "functions", "arch", "arguments"}
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
    check_layout(case, host, codelets, emit_ir(case, capsys))
    check_manifest(case, manifest, host)
    syntax_check([out_dir / f for f in CPP_FILES])


def test_manifest_of_saxpy(tmp_path, capsys):
    _, _, manifest = emit(("saxpy", "N=1000", "ipu2", "poplar-cpp"), tmp_path / "out", capsys)
    assert json.loads(manifest) == {
        "sdfg": "saxpy",
        "prefix": "saxpy",
        "functions": {"init": "saxpy_init", "run": "saxpy_run", "exit": "saxpy_exit",
                      "last_error": "saxpy_last_error"},
        "arch": "ipu2",
        "arguments": [
            {"name": "a", "dtype": "float32", "shape": [], "output": False},
            {"name": "x", "dtype": "float32", "shape": [1000], "output": False},
            {"name": "y", "dtype": "float32", "shape": [1000], "output": True},
        ],
    }


def test_makefile_option_writes_a_makefile_for_the_sdk(tmp_path, capsys):
    case = ("saxpy", "N=40", "ipu2", "poplar-cpp{makefile=true}")
    name, symbols, arch, target = case
    out_dir = tmp_path / "out"
    code, out, err = run_ipu_opt(
        [EXAMPLES / f"{name}.sdfg", "-p", "sdfg-to-poplar", "--symbols", symbols,
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
    for (_, fields3), (_, fields2) in zip(
        read_codelets(codelets3).values(), read_codelets(codelets2).values()
    ):
        assert fields3 == fields2


def test_codelet_fields_of_saxpy(tmp_path, capsys):
    _, codelets, _ = emit(("saxpy", "N=10", "ipu2", "poplar-cpp"), tmp_path / "out", capsys)
    classes = read_codelets(codelets)
    assert classes == {
        "saxpy_Mult_map": ("MultiVertex", {
            "a": ("Input", False, "float"),
            "x": ("Input", True, "float"),
            "tmp0": ("Output", True, "float"),
        }),
        "saxpy_Add_map": ("MultiVertex", {
            "tmp0": ("Input", True, "float"),
            "y": ("Input", True, "float"),
            "tmp1": ("Output", True, "float"),
        }),
    }


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
        [EXAMPLES / "saxpy.py", "-p", "sdfg-to-poplar", "--symbols", "N=12",
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
    assert 'extern "C" int clamp_run(int *x, int lo, int hi, int *y) {' in host
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
        ["bad.sdfg: not valid JSON"],
    ),
    "empty file": (lambda: "", ["bad.sdfg: not valid JSON"]),
    "JSON list": (lambda: "[1, 2, 3]", ["bad.sdfg: top level is a list, expected an SDFG object"]),
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
def test_container_names_that_are_host_table_loop_variables(tmp_path, capsys):
    import dace

    n = dace.symbol("N")
    sdfg = dace.SDFG("loops")
    sdfg.add_array("row", [n], dace.float32)
    sdfg.add_array("vertex", [n], dace.float32)
    state = sdfg.add_state("main")
    state.add_mapped_tasklet(
        "m", {"i": "0:N"}, {"p": dace.Memlet("row[i]")}, "q = p * 2",
        {"q": dace.Memlet("vertex[i]")}, external_edges=True,
    )
    sdfg.validate()
    path = tmp_path / "loops.sdfg"
    sdfg.save(str(path))
    out_dir = tmp_path / "out"
    code, _, err = run_ipu_opt(
        [path, "-p", "sdfg-to-poplar", "--symbols", "N=6", "-t", "poplar-cpp", "-o", out_dir],
        capsys,
    )
    assert (code, err) == (0, "")
    host = (out_dir / "host.cpp").read_text()
    assert "poplar::Tensor row_1 = " in host and "poplar::Tensor vertex_1 = " in host
    assert "for (const auto &row : row_1_mapping) {" in host  # the tables are there
    syntax_check([out_dir / "host.cpp"])


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
