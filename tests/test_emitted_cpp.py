"""The C++ that `ipu-opt -p sdfg-to-poplar -t poplar-cpp -o DIR` writes for the examples:
it compiles (-fsyntax-only -Wall -Werror against the bundled emulator headers), has the C ABI,
no 64-bit types, and lays data and vertices out as the tile plan says. Also the CLI's
behaviour on bad input: exit code 1, one line on stderr, no output written."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from math import prod
from pathlib import Path

import pytest

from ipu_lower.arch import get_arch
from ipu_lower.cli import ipu_opt_main
from ipu_lower.passes.tile_partition import balanced_tile_map

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
INCLUDE = REPO / "ipu_lower" / "emulator" / "include"
GXX = shutil.which("g++")
needs_gxx = pytest.mark.skipif(GXX is None, reason="g++ is not installed")


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
# reading the emitted host code

VARIABLE = re.compile(
    r'poplar::Tensor (\w+) = graph\.addVariable\(poplar::(\w+), \{([0-9, ]*)\}, "(\w+)"\);'
)
MAPPING = re.compile(
    r"graph\.setTileMapping\((\w+)(?:\.flatten\(\))?(?:\.slice\((\d+), (\d+)\))?, (\d+)\);"
)
VERTEX = re.compile(r'poplar::VertexRef (\w+) = graph\.addVertex\((\w+), "(\w+)"\);')
CONNECT = re.compile(
    r'graph\.connect\((\w+)\["(\w+)"\], (\w+)(?:\.flatten\(\))?(?:\.slice\((\d+), (\d+)\))?\);'
)
CODELET_CLASS = re.compile(
    r"class (\w+) : public poplar::(MultiVertex|Vertex) \{(.*?)\n\};", re.DOTALL
)
FIELD = re.compile(r"poplar::(Input|Output|InOut)<(?:poplar::Vector<(\w+)>|(\w+))> (\w+);")


@dataclass
class Host:
    variables: dict[str, tuple[str, str, tuple[int, ...]]]  # C++ name -> (dace name, type, shape)
    mappings: dict[str, list[tuple[int, int, int]]]  # C++ tensor -> [(tile, begin, end)]
    vertices: dict[str, tuple[str, str, int | None]]  # vertex -> (compute set, codelet, tile)
    connections: dict[str, list[tuple[str, str, int, int]]]  # vertex -> [(field, tensor, b, e)]


def read_host(text: str) -> Host:
    variables = {}
    for var, type_, dims, name in VARIABLE.findall(text):
        shape = tuple(int(d) for d in dims.replace(" ", "").split(",") if d)
        variables[var] = (name, type_, shape)
    mappings: dict[str, list[tuple[int, int, int]]] = {}
    vertex_tiles: dict[str, int] = {}
    for target, begin, end, tile in MAPPING.findall(text):
        if target in variables:
            size = prod(variables[target][2])
            b, e = (int(begin), int(end)) if begin else (0, size)
            mappings.setdefault(target, []).append((int(tile), b, e))
        else:
            vertex_tiles[target] = int(tile)
    vertices = {
        v: (cs, codelet, vertex_tiles.get(v)) for v, cs, codelet in VERTEX.findall(text)
    }
    connections: dict[str, list[tuple[str, str, int, int]]] = {}
    for vertex, field, tensor, begin, end in CONNECT.findall(text):
        size = prod(variables[tensor][2])
        b, e = (int(begin), int(end)) if begin else (0, size)
        connections.setdefault(vertex, []).append((field, tensor, b, e))
    return Host(variables, mappings, vertices, connections)


def read_codelets(text: str) -> dict[str, tuple[str, dict[str, tuple[str, bool, str]]]]:
    """class name -> (base, {field: (direction, is_vector, element type)})"""
    classes = {}
    for name, base, body in CODELET_CLASS.findall(text):
        fields = {}
        for direction, vector_type, scalar_type, field in FIELD.findall(body):
            fields[field] = (direction, bool(vector_type), vector_type or scalar_type)
        classes[name] = (base, fields)
    return classes


# --------------------------------------------------------------------------------------
# compiling and checking the examples


def emit(case, out_dir: Path, capsys) -> tuple[str, str]:
    name, symbols, arch, target = case
    code, out, err = run_ipu_opt(
        [EXAMPLES / f"{name}.sdfg", "-p", "sdfg-to-poplar", "--symbols", symbols,
         "--arch", arch, "-t", target, "-o", out_dir],
        capsys,
    )
    assert (code, err) == (0, ""), err
    assert out == ""  # everything went to the directory
    assert sorted(p.name for p in out_dir.iterdir()) == ["codelets.cpp", "host.cpp"]
    return (out_dir / "host.cpp").read_text(), (out_dir / "codelets.cpp").read_text()


def check_no_64_bit_types(host: str, codelets: str) -> None:
    for text, file in ((host, "host.cpp"), (codelets, "codelets.cpp")):
        for word in ("DOUBLE", "LONG", "double"):
            assert word not in text, f"{word} in {file}"


def check_c_abi(name: str, host: str, info: Example) -> None:
    assert f'extern "C" int {name}_init(const char *codelets_path) {{' in host
    assert f'extern "C" int {name}_run({info.run_params}) {{' in host
    assert f'extern "C" void {name}_exit(void) {{' in host
    assert len(re.findall(r'^extern "C" ', host, re.MULTILINE)) == 3


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


def check_layout(case, host_text: str, codelets_text: str) -> None:
    name, symbols, arch_name, _ = case
    info = EXAMPLE_INFO[name]
    arch = get_arch(arch_name)
    values = symbol_values(symbols)
    shape = tuple(values[s] for s in info.shape)
    elements = prod(shape)
    host = read_host(host_text)
    assert f'ipu_lower_attach("{arch_name}")' in host_text

    by_name = {dace_name: var for var, (dace_name, _, _) in host.variables.items()}
    assert set(by_name) == set(info.arrays) | set(info.scalars)
    expected = list(balanced_tile_map(elements, arch.tiles, 2).intervals())
    for array in info.arrays:
        var = by_name[array]
        assert host.variables[var][1:] == (info.poplar_type, shape), array
        assert host.mappings[var] == expected, array
    for scalar in info.scalars:
        var = by_name[scalar]
        assert host.variables[var][1:] == (info.poplar_type, ())
        assert host.mappings[var] == [(0, 0, 1)], scalar

    # one compute set per map, one vertex per tile that owns elements
    classes = read_codelets(codelets_text)
    compute_sets: dict[str, list[str]] = {}
    for vertex, (cs, codelet, _) in host.vertices.items():
        compute_sets.setdefault(cs, []).append(vertex)
        assert codelet in classes, codelet
    assert len(compute_sets) == info.maps
    intervals = {tile: (b, e) for tile, b, e in expected}
    for cs, vertices in compute_sets.items():
        assert [host.vertices[v][2] for v in vertices] == list(range(len(expected))), cs
        for v in vertices:
            _, codelet, tile = host.vertices[v]
            fields = classes[codelet][1]
            connected = host.connections[v]
            assert [f for f, *_ in connected] == list(fields), (cs, v)
            for field, tensor, b, e in connected:
                direction, is_vector, _ = fields[field]
                if is_vector:
                    assert (b, e) == intervals[tile], (cs, v, field)
                else:
                    assert host.variables[tensor][2] == () and direction == "Input"

    # host I/O: every argument (and no transient) is written, the results are read back
    writes = re.findall(r'graph\.createHostWrite\("write_(\w+)", ', host_text)
    assert writes == list(info.args)
    reads = re.findall(r'graph\.createHostRead\("read_(\w+)", ', host_text)
    assert reads == list(info.outputs)
    for out in info.outputs:
        assert f'engine.readTensor("read_{out}", {out}, {out} + {elements});' in host_text


@needs_gxx
@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_emitted_cpp_compiles_and_matches_plan(case, tmp_path, capsys):
    name, _, _, target = case
    out_dir = tmp_path / "out"
    host, codelets = emit(case, out_dir, capsys)
    check_no_64_bit_types(host, codelets)
    check_c_abi(name, host, EXAMPLE_INFO[name])
    check_sdk_style(codelets, 2 if "sdk=2" in target else 3, EXAMPLE_INFO[name].maps)
    check_layout(case, host, codelets)
    syntax_check([out_dir / "host.cpp", out_dir / "codelets.cpp"])


def test_sdk_option_changes_only_the_codelets(tmp_path, capsys):
    base = ["saxpy", "N=40", "ipu2"]
    host3, codelets3 = emit((*base, "poplar-cpp"), tmp_path / "sdk3", capsys)
    host2, codelets2 = emit((*base, "poplar-cpp{sdk=2}"), tmp_path / "sdk2", capsys)
    assert host3 == host2
    assert codelets3 != codelets2
    assert read_codelets(codelets3).keys() == read_codelets(codelets2).keys()
    for (_, fields3), (_, fields2) in zip(
        read_codelets(codelets3).values(), read_codelets(codelets2).values()
    ):
        assert fields3 == fields2


def test_codelet_fields_of_saxpy(tmp_path, capsys):
    _, codelets = emit(("saxpy", "N=10", "ipu2", "poplar-cpp"), tmp_path / "out", capsys)
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
    assert ((out_dir / "host.cpp").read_text(), (out_dir / "codelets.cpp").read_text()) == expected


def test_py_input_gives_the_same_cpp_as_sdfg(tmp_path, capsys):
    expected = emit(("saxpy", "N=12", "ipu2", "poplar-cpp"), tmp_path / "sdfg", capsys)
    out_dir = tmp_path / "py"
    code, _, err = run_ipu_opt(
        [EXAMPLES / "saxpy.py", "-p", "sdfg-to-poplar", "--symbols", "N=12",
         "-t", "poplar-cpp", "-o", out_dir],
        capsys,
    )
    assert (code, err) == (0, "")
    assert ((out_dir / "host.cpp").read_text(), (out_dir / "codelets.cpp").read_text()) == expected


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
    host = (out_dir / "host.cpp").read_text()
    assert 'extern "C" int clamp_run(int *x, int lo, int hi, int *y) {' in host
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
