"""ipu_lower/targets/host_tables.py: runs of same-shaped Graph calls in host.cpp become one
loop over a constant table, anything else is printed op by op.

The poplar IR is written by hand here (including shapes the lowering never produces), printed
with the poplar-cpp target, and host.cpp is read back by following its statements in order,
each table loop once per row. What it builds must be what the IR says, call for call, and it
must compile against the emulator headers.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp

from ipu_lower.dialects import poplar
from ipu_lower.dialects.ipu import IPU
from ipu_lower.dialects.poplar import POPLAR
from ipu_lower.dialects.sdfg import SDFG
from ipu_lower.frontend.frontends import LocatedMlirFrontend
from ipu_lower.targets.host_tables import MIN_RUN
from ipu_lower.targets.poplar_cpp import PoplarCppTarget, split_files

REPO = Path(__file__).resolve().parents[1]
INCLUDE = REPO / "ipu_lower" / "emulator" / "include"
GXX = shutil.which("g++")
needs_gxx = pytest.mark.skipif(GXX is None, reason="g++ is not installed")


# --------------------------------------------------------------------------------------
# building and printing hand-written poplar IR


def context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Arith, SDFG, IPU, POPLAR):
        ctx.load_dialect(dialect)
    return ctx


def program(build: str, name: str = "prog") -> ModuleOp:
    """A module with one host program whose build region is `build` (ending with an
    engine over every compute set) and an empty run region."""
    executes = []
    for i, cs in enumerate(re.findall(r"^\s*(%\w+) = poplar\.add_compute_set", build, re.M)):
        executes.append(f"%exec{i} = poplar.execute {cs}")
    programs = ", ".join(e.split(" = ")[0] for e in executes)
    tail = "\n".join([*executes, f"%all = poplar.sequence({programs})", "poplar.engine %all"])
    text = (
        "builtin.module {\n"
        f'  poplar.host_program @{name} arch "ipu2" args [] : [] build {{\n'
        f"{build}\n{tail}\n"
        "  } run {\n    poplar.run 0\n  }\n}\n"
    )
    module = LocatedMlirFrontend().parse(context(), io.BytesIO(text.encode()), "hand.mlir")
    module.verify()
    return module


def emit(module: ModuleOp) -> str:
    out = io.StringIO()
    PoplarCppTarget().emit(context(), module, out)
    return split_files(out.getvalue())["host.cpp"]


def init_body(host: str) -> str:
    start = host.index("graph.addCodelets(codelets_path);\n") + len("graph.addCodelets(codelets_path);\n")
    return host[start:host.index("poplar::Engine engine(")]


# --------------------------------------------------------------------------------------
# the Graph calls, from the IR and from host.cpp, as comparable tuples:
#   ("variable", name, type, shape) ("compute_set", name) ("vertex", compute set, codelet)
#   ("map", target, tile) ("connect", vertex, field, tensor) ("perf", vertex, cycles)
# where a tensor is (variable, flattened, begin, end) and a vertex its ordinal


def ir_calls(module: ModuleOp) -> list[tuple]:
    [host] = [op for op in module.ops if isinstance(op, poplar.HostProgramOp)]
    tensors, vertices, compute_sets, calls = {}, {}, {}, []
    for op in host.build_body.block.ops:
        if isinstance(op, poplar.AddVariableOp):
            name = op.debug_name.data
            shape = tuple(op.shape.get_values())
            calls.append(("variable", name, poplar.POPLAR_TYPES[op.element_type], shape))
            tensors[op.result] = (name, False, None, None)
        elif isinstance(op, poplar.FlattenOp):
            name, _, b, e = tensors[op.tensor]
            assert b is None
            tensors[op.result] = (name, True, None, None)
        elif isinstance(op, poplar.SliceOp):
            name, flat, b, e = tensors[op.tensor]
            offset = b or 0
            tensors[op.result] = (name, flat, offset + op.begin.value.data, offset + op.end.value.data)
        elif isinstance(op, poplar.AddComputeSetOp):
            compute_sets[op.result] = op.debug_name.data
            calls.append(("compute_set", op.debug_name.data))
        elif isinstance(op, poplar.AddVertexOp):
            vertices[op.result] = len(vertices)
            calls.append(("vertex", compute_sets[op.compute_set], op.codelet.data))
        elif isinstance(op, poplar.SetTileMappingOp):
            target = vertices[op.target] if op.target in vertices else tensors[op.target]
            calls.append(("map", target, op.tile.value.data))
        elif isinstance(op, poplar.ConnectOp):
            calls.append(("connect", vertices[op.vertex], op.field.data, tensors[op.tensor]))
        elif isinstance(op, poplar.SetPerfEstimateOp):
            calls.append(("perf", vertices[op.vertex], op.cycles.value.data))
    return calls


TENSOR = r"(\w+)(\.flatten\(\))?(?:\.slice\((\d+), (\d+)\))?"
STATEMENTS = [
    ("variable", re.compile(
        r'poplar::Tensor (\w+) = graph\.addVariable\(poplar::(\w+), \{([0-9, ]*)\}, "(\w+)"\);')),
    ("compute_set", re.compile(r'poplar::ComputeSet (\w+) = graph\.addComputeSet\("(\w+)"\);')),
    ("vertex", re.compile(r'poplar::VertexRef (\w+) = graph\.addVertex\((\w+), "(\w+)"\);')),
    ("map", re.compile(rf"graph\.setTileMapping\({TENSOR}, (\d+)\);")),
    ("connect", re.compile(rf'graph\.connect\((\w+)\["(\w+)"\], {TENSOR}\);')),
    ("perf", re.compile(r"graph\.setPerfEstimate\((\w+), (\d+)\);")),
]
TABLE_LOOP = re.compile(
    r"[ ]*static const std::size_t (\w+)\[\]\[(\d+)\] = \{\n(.*?)\n[ ]*\};\n"
    r"[ ]*for \(const auto &row : \1\) \{\n(.*?)\n[ ]*\}\n",
    re.S,
)
ROW = re.compile(r"\{(\d+(?:, \d+)*)\},")


def tables(host: str) -> list[tuple[str, int, list[tuple[int, ...]], list[str]]]:
    """(name, columns, rows, body lines) of every table loop."""
    found = []
    for m in TABLE_LOOP.finditer(host):
        rows = [tuple(int(n) for n in r.split(", ")) for r in ROW.findall(m[3])]
        assert ROW.sub("", m[3]).split() == [], m[3]
        assert {len(r) for r in rows} == {int(m[2])}, m[0]
        found.append((m[1], int(m[2]), rows, [line.strip() for line in m[4].splitlines()]))
    return found


class HostCalls:
    """Follows the statements of the init function; a table loop runs once per row."""

    def __init__(self) -> None:
        self.tensors: dict[str, tuple[str, bool, int | None, int | None]] = {}
        self.compute_sets: dict[str, str] = {}
        self.vertices: dict[str, int] = {}
        self.count = 0
        self.calls: list[tuple] = []

    def tensor(self, var: str, flatten: str | None, begin: str | None, end: str | None):
        name = self.tensors[var][0]
        return (name, bool(flatten), None if begin is None else int(begin),
                None if end is None else int(end))

    def statement(self, line: str) -> None:
        line = line.strip()
        if not line:
            return
        for kind, pattern in STATEMENTS:
            if m := pattern.fullmatch(line):
                break
        else:
            raise AssertionError(f"unexpected statement in init: {line}")
        if kind == "variable":
            var, type_, dims, name = m.groups()
            self.tensors[var] = (name, False, None, None)
            shape = tuple(int(d) for d in dims.replace(" ", "").split(",") if d)
            self.calls.append(("variable", name, type_, shape))
        elif kind == "compute_set":
            self.compute_sets[m[1]] = m[2]
            self.calls.append(("compute_set", m[2]))
        elif kind == "vertex":
            self.vertices[m[1]] = self.count
            self.count += 1
            self.calls.append(("vertex", self.compute_sets[m[2]], m[3]))
        elif kind == "map" and m[1] in self.vertices:
            assert m[2] is None and m[3] is None
            self.calls.append(("map", self.vertices[m[1]], int(m[5])))
        elif kind == "map":
            self.calls.append(("map", self.tensor(*m.groups()[:4]), int(m[5])))
        elif kind == "connect":
            self.calls.append(("connect", self.vertices[m[1]], m[2], self.tensor(*m.groups()[2:])))
        else:
            self.calls.append(("perf", self.vertices[m[1]], int(m[2])))


def host_calls(host: str) -> list[tuple]:
    body = init_body(host)
    reader = HostCalls()
    pos = 0
    while pos < len(body):
        if m := TABLE_LOOP.match(body, pos):
            [(_, _, rows, lines)] = tables(m[0])
            for row in rows:
                text = re.sub(r"row\[(\d+)\]", lambda k: str(row[int(k[1])]), "\n".join(lines))
                for line in re.sub(r"static_cast<unsigned>\((\d+)\)", r"\1", text).splitlines():
                    reader.statement(line)
            pos = m.end()
        else:
            end = body.find("\n", pos) + 1 or len(body)
            line = body[pos:end]
            if "graph.create" not in line and "poplar::program::" not in line and ".add(" not in line:
                reader.statement(line)
            pos = end
    return reader.calls


def syntax_check(host: str, tmp_path: Path) -> None:
    source = tmp_path / "host.cpp"
    source.write_text(host)
    result = subprocess.run(
        [GXX, "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", "-I", str(INCLUDE), str(source)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stderr[:3000]


# --------------------------------------------------------------------------------------
# hand-written IR


def variable(name: str, n: int, ssa: str | None = None, type_: str = "f32") -> str:
    return f'%{ssa or name} = poplar.add_variable "{name}" {type_} [{n}]'


def mappings(tensor: str, pieces: list[tuple[int, int, int]], prefix: str | None = None) -> str:
    """slice + set_tile_mapping per (tile, begin, end) of %tensor."""
    prefix = prefix or f"{tensor}m"
    return "\n".join(
        f"%{prefix}{k} = poplar.slice %{tensor}[{b} : {e}]\n"
        f"poplar.set_tile_mapping %{prefix}{k} to {t} : !poplar.tensor"
        for k, (t, b, e) in enumerate(pieces)
    )


def vertex(v: str, cs: str, tile: int, connects: list[tuple[str, str, tuple[int, int] | None]],
           cycles: int | None = 10, codelet: str = "C") -> str:
    """add_vertex, set_tile_mapping, then per (field, tensor, slice) an optional slice and a
    connect, then set_perf_estimate (unless cycles is None)."""
    lines = [f'%{v} = poplar.add_vertex %{cs} "{codelet}"',
             f"poplar.set_tile_mapping %{v} to {tile} : !poplar.vertex"]
    for field, tensor, interval in connects:
        if interval is None:
            lines.append(f'poplar.connect %{v}["{field}"] to %{tensor}')
        else:
            lines.append(f"%{v}_{field} = poplar.slice %{tensor}[{interval[0]} : {interval[1]}]")
            lines.append(f'poplar.connect %{v}["{field}"] to %{v}_{field}')
    if cycles is not None:
        lines.append(f"poplar.set_perf_estimate %{v} cycles {cycles}")
    return "\n".join(lines)


SPLIT = [(0, 0, 4), (1, 4, 8), (2, 8, 10)]

VARIABLES = "\n".join([
    variable("x", 10), variable("y", 10), '%a = poplar.add_variable "a" f32 []',
    "poplar.set_tile_mapping %a to 0 : !poplar.tensor",
])


def saxpy_like(tiles: list[tuple[int, int, int]], cycles=lambda t: 10 + t) -> str:
    return "\n".join([
        VARIABLES, mappings("x", tiles), mappings("y", tiles),
        '%cs = poplar.add_compute_set "work"',
        *(vertex(f"v{t}", "cs", t, [("a", "a", None), ("x", "x", (b, e)), ("y", "y", (b, e))],
                 cycles(t)) for t, b, e in tiles),
    ])


# name -> (build region, number of table loops host.cpp should have)
CASES: dict[str, tuple[str, int]] = {
    "runs of mappings and vertices": (saxpy_like(SPLIT), 3),
    "runs of exactly MIN_RUN": (saxpy_like(SPLIT[:MIN_RUN]), 3),
    "single vertex and mapping": (saxpy_like([(0, 0, 10)]), 0),
    "flattened 2-D tensor": ("\n".join([
        '%A = poplar.add_variable "A" f32 [2, 5]', "%Af = poplar.flatten %A",
        mappings("Af", SPLIT), '%cs = poplar.add_compute_set "work"',
        *(vertex(f"v{t}", "cs", t, [("A", "Af", (b, e))]) for t, b, e in SPLIT),
    ]), 2),
    "whole tensor mapped, no slices": ("\n".join([
        variable("x", 10), "poplar.set_tile_mapping %x to 3 : !poplar.tensor",
        variable("y", 10), "poplar.set_tile_mapping %y to 3 : !poplar.tensor",
    ]), 0),
    "mappings of two tensors interleaved": ("\n".join([
        variable("x", 10), variable("y", 10),
        *(f"{mappings('x', [p], f'xm{k}_')}\n{mappings('y', [p], f'ym{k}_')}"
          for k, p in enumerate(SPLIT)),
    ]), 0),
    "mapping runs of two tensors back to back": ("\n".join([
        variable("x", 10), variable("y", 10), mappings("x", SPLIT), mappings("y", SPLIT),
    ]), 2),
    "vertices without set_perf_estimate": ("\n".join([
        VARIABLES, mappings("x", SPLIT), '%cs = poplar.add_compute_set "work"',
        *(vertex(f"v{t}", "cs", t, [("x", "x", (b, e))], cycles=None) for t, b, e in SPLIT),
    ]), 1),
    "slice used by two fields of a vertex": ("\n".join([
        VARIABLES, mappings("x", SPLIT), '%cs = poplar.add_compute_set "work"',
        *(f'%v{t} = poplar.add_vertex %cs "C"\n'
          f"poplar.set_tile_mapping %v{t} to {t} : !poplar.vertex\n"
          f"%s{t} = poplar.slice %x[{b} : {e}]\n"
          f'poplar.connect %v{t}["in"] to %s{t}\n'
          f'poplar.connect %v{t}["out"] to %s{t}\n'
          f"poplar.set_perf_estimate %v{t} cycles 7" for t, b, e in SPLIT),
    ]), 1),
    "slice of one vertex used by the next": ("\n".join([
        VARIABLES, mappings("x", SPLIT), '%cs = poplar.add_compute_set "work"',
        '%v0 = poplar.add_vertex %cs "C"', "poplar.set_tile_mapping %v0 to 0 : !poplar.vertex",
        "%s = poplar.slice %x[0 : 4]", 'poplar.connect %v0["x"] to %s',
        "poplar.set_perf_estimate %v0 cycles 5",
        '%v1 = poplar.add_vertex %cs "C"', "poplar.set_tile_mapping %v1 to 1 : !poplar.vertex",
        'poplar.connect %v1["x"] to %s', "poplar.set_perf_estimate %v1 cycles 5",
    ]), 1),
    "slice made before the vertices, shared by them": ("\n".join([
        VARIABLES, mappings("x", SPLIT), '%cs = poplar.add_compute_set "work"',
        "%s = poplar.slice %x[0 : 4]",
        *(f'%v{t} = poplar.add_vertex %cs "C"\n'
          f"poplar.set_tile_mapping %v{t} to {t} : !poplar.vertex\n"
          f'poplar.connect %v{t}["x"] to %s\n'
          f"poplar.set_perf_estimate %v{t} cycles 5" for t in range(3)),
    ]), 2),
    "vertices of two compute sets interleaved": ("\n".join([
        VARIABLES, mappings("x", SPLIT), '%cs1 = poplar.add_compute_set "one"',
        '%cs2 = poplar.add_compute_set "two"',
        *(vertex(f"v{t}{cs}", cs, t, [("x", "x", (b, e))])
          for t, b, e in SPLIT for cs in ("cs1", "cs2")),
    ]), 1),
    "vertices of two compute sets interleaved op by op": ("\n".join([
        VARIABLES, '%cs1 = poplar.add_compute_set "one"', '%cs2 = poplar.add_compute_set "two"',
        *(f'%p{t} = poplar.add_vertex %cs1 "C"\n%q{t} = poplar.add_vertex %cs2 "C"\n'
          f"poplar.set_tile_mapping %p{t} to {t} : !poplar.vertex\n"
          f"poplar.set_tile_mapping %q{t} to {t} : !poplar.vertex\n"
          f'poplar.connect %p{t}["a"] to %a\npoplar.connect %q{t}["a"] to %a\n'
          f"poplar.set_perf_estimate %p{t} cycles 3\npoplar.set_perf_estimate %q{t} cycles 3"
          for t in range(3)),
    ]), 0),
    "a run, then a different codelet": ("\n".join([
        VARIABLES, mappings("x", SPLIT), '%cs = poplar.add_compute_set "work"',
        vertex("v0", "cs", 0, [("x", "x", (0, 4))]), vertex("v1", "cs", 1, [("x", "x", (4, 8))]),
        vertex("v2", "cs", 2, [("x", "x", (8, 10))], codelet="D"),
    ]), 2),
    "a run, then other fields": ("\n".join([
        VARIABLES, mappings("x", SPLIT), '%cs = poplar.add_compute_set "work"',
        vertex("v0", "cs", 0, [("x", "x", (0, 4))]), vertex("v1", "cs", 1, [("x", "x", (4, 8))]),
        vertex("v2", "cs", 2, [("x", "y", (8, 10))]),
    ]), 2),
    "perf estimate before the tile mapping": ("\n".join([
        VARIABLES, '%cs = poplar.add_compute_set "work"',
        *(f'%v{t} = poplar.add_vertex %cs "C"\npoplar.set_perf_estimate %v{t} cycles 4\n'
          f"poplar.set_tile_mapping %v{t} to {t} : !poplar.vertex\n"
          f'poplar.connect %v{t}["a"] to %a' for t in range(3)),
    ]), 0),
    "vertex used after its perf estimate": ("\n".join([
        VARIABLES, '%cs = poplar.add_compute_set "work"',
        *(f'{vertex(f"v{t}", "cs", t, [("a", "a", None)])}\npoplar.connect %v{t}["b"] to %a'
          for t in range(3)),
    ]), 0),
    "mapping slice used again by a vertex": ("\n".join([
        VARIABLES, '%cs = poplar.add_compute_set "work"',
        *(f"%s{t} = poplar.slice %x[{b} : {e}]\n"
          f"poplar.set_tile_mapping %s{t} to {t} : !poplar.tensor" for t, b, e in SPLIT),
        *(f'%v{t} = poplar.add_vertex %cs "C"\n'
          f"poplar.set_tile_mapping %v{t} to {t} : !poplar.vertex\n"
          f'poplar.connect %v{t}["x"] to %s{t}\npoplar.set_perf_estimate %v{t} cycles 9'
          for t, _, _ in SPLIT),
    ]), 0),
}


# --------------------------------------------------------------------------------------
# every case: same Graph calls as the IR, the expected number of loops, and it compiles


@pytest.mark.parametrize("case", sorted(CASES))
def test_host_makes_the_graph_calls_of_the_ir(case):
    build, loops = CASES[case]
    module = program(build)
    host = emit(module)
    assert host_calls(host) == ir_calls(module)
    assert len(tables(host)) == loops
    assert host.count("for (const auto &row : ") == loops


@needs_gxx
@pytest.mark.parametrize("case", sorted(CASES))
def test_host_compiles(case, tmp_path):
    syntax_check(emit(program(CASES[case][0])), tmp_path)


# --------------------------------------------------------------------------------------
# the form of the tables


def test_mapping_run_is_one_table_of_tile_begin_end():
    host = emit(program(f"{variable('x', 10)}\n{mappings('x', SPLIT)}"))
    assert tables(host) == [(
        "x_mapping", 3, SPLIT,
        ["graph.setTileMapping(x.slice(row[1], row[2]), static_cast<unsigned>(row[0]));"],
    )]
    assert "static const std::size_t x_mapping[][3] = {" in host
    assert host.count("graph.setTileMapping(") == 1


def test_mapping_run_of_a_flattened_tensor():
    host = emit(program('%A = poplar.add_variable "A" f32 [2, 5]\n%Af = poplar.flatten %A\n'
                        + mappings("Af", SPLIT)))
    [(name, _, rows, body)] = tables(host)
    assert (name, rows) == ("A_mapping", SPLIT)
    assert body == ["graph.setTileMapping(A.flatten().slice(row[1], row[2]), "
                    "static_cast<unsigned>(row[0]));"]


@pytest.mark.parametrize("count", range(1, MIN_RUN))
def test_fewer_than_min_run_mappings_are_op_by_op(count):
    pieces = [(t, 2 * t, 2 * t + 2) for t in range(count)]
    host = emit(program(f"{variable('x', 2 * count)}\n{mappings('x', pieces)}"))
    assert "static const" not in init_body(host) and "for (" not in init_body(host)
    for t, b, e in pieces:
        assert f"graph.setTileMapping(x.slice({b}, {e}), {t});" in host


def test_vertex_run_is_one_table_of_tile_cycles_and_slices():
    host = emit(program(saxpy_like(SPLIT, cycles=lambda t: 100 * (t + 1))))
    work = [t for t in tables(host) if t[0] == "cs_work_vertices"]
    assert work == [(
        "cs_work_vertices", 6,
        [(t, 100 * (t + 1), b, e, b, e) for t, b, e in SPLIT],
        [
            'poplar::VertexRef vertex = graph.addVertex(cs_work, "C");',
            "graph.setTileMapping(vertex, static_cast<unsigned>(row[0]));",
            'graph.connect(vertex["a"], a);',
            'graph.connect(vertex["x"], x.slice(row[2], row[3]));',
            'graph.connect(vertex["y"], y.slice(row[4], row[5]));',
            "graph.setPerfEstimate(vertex, row[1]);",
        ],
    )]
    assert [t[0] for t in tables(host)] == ["x_mapping", "y_mapping", "cs_work_vertices"]
    assert host.count("graph.addVertex(") == 1


def test_vertex_run_slice_columns_follow_the_field_order():
    tiles = [(0, 0, 5), (1, 5, 10)]
    build = "\n".join([
        VARIABLES, '%cs = poplar.add_compute_set "work"',
        *(vertex(f"v{t}", "cs", t, [("out", "y", (b, e)), ("a", "a", None), ("in", "x", (e - 1, e))])
          for t, b, e in tiles),
    ])
    [(_, columns, rows, body)] = tables(emit(program(build)))
    assert columns == 6
    assert rows == [(0, 10, 0, 5, 4, 5), (1, 10, 5, 10, 9, 10)]
    assert body[2:5] == [
        'graph.connect(vertex["out"], y.slice(row[2], row[3]));',
        'graph.connect(vertex["a"], a);',
        'graph.connect(vertex["in"], x.slice(row[4], row[5]));',
    ]


def test_single_vertex_is_op_by_op():
    host = emit(program(saxpy_like([(0, 0, 10)])))
    assert "static const" not in init_body(host) and "for (" not in init_body(host)
    body = [line.strip() for line in init_body(host).splitlines()]
    start = next(i for i, line in enumerate(body) if "graph.addVertex(" in line)
    assert body[start:start + 6] == [
        'poplar::VertexRef vertex_1 = graph.addVertex(cs_work, "C");',
        "graph.setTileMapping(vertex_1, 0);",
        'graph.connect(vertex_1["a"], a);',
        'graph.connect(vertex_1["x"], x.slice(0, 10));',
        'graph.connect(vertex_1["y"], y.slice(0, 10));',
        "graph.setPerfEstimate(vertex_1, 10);",
    ]


@pytest.mark.parametrize("case", [
    "vertices without set_perf_estimate",
    "slice used by two fields of a vertex",
    "vertices of two compute sets interleaved",
    "vertices of two compute sets interleaved op by op",
    "perf estimate before the tile mapping",
    "vertex used after its perf estimate",
])
def test_irregular_vertices_are_op_by_op(case):
    build, _ = CASES[case]
    host = emit(program(build))
    assert not any(name.endswith("_vertices") for name, *_ in tables(host))
    assert host.count("graph.addVertex(") == build.count("poplar.add_vertex")
    assert host.count("graph.setPerfEstimate(") == build.count("poplar.set_perf_estimate")


def test_runs_stop_where_the_shape_changes():
    host = emit(program(CASES["a run, then a different codelet"][0]))
    vertex_tables = [t for t in tables(host) if t[0].endswith("_vertices")]
    assert [(name, rows) for name, _, rows, _ in vertex_tables] == [
        ("cs_work_vertices", [(0, 10, 0, 4), (1, 10, 4, 8)])
    ]
    assert re.search(r'poplar::VertexRef (\w+) = graph\.addVertex\(cs_work, "D"\);\n'
                     r'.*graph\.setTileMapping\(\1, 2\);\n'
                     r'.*graph\.connect\(\1\["x"\], x\.slice\(8, 10\)\);\n', host)


def test_table_names_do_not_clash_with_containers():
    build = "\n".join([
        variable("x", 10), variable("x_mapping", 10, "xm"), mappings("x", SPLIT),
        mappings("xm", SPLIT, "xmm"),
    ])
    host = emit(program(build))
    names = [name for name, *_ in tables(host)]
    assert len(set(names)) == 2
    assert "x_mapping" not in names  # the container took the name first
    assert host_calls(host) == ir_calls(program(build))


# --------------------------------------------------------------------------------------
# printer bugs


LOOP_VARIABLE_NAMES = "\n".join([
    variable("row", 10), mappings("row", SPLIT),
    variable("vertex", 10), '%cs = poplar.add_compute_set "work"',
    *(vertex(f"v{t}", "cs", t, [("x", "vertex", (b, e))]) for t, b, e in SPLIT),
])


@needs_gxx
def test_containers_named_like_the_loop_variables_compile(tmp_path):
    syntax_check(emit(program(LOOP_VARIABLE_NAMES)), tmp_path)
