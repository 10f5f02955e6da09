"""The CPU emulator (ipu_lower/emulator) runs Poplar programs with BSP semantics.

Hand-written host programs (tests/cpp/emulator_driver.cpp, one scenario per
command-line argument) and codelets (tests/cpp/emulator_codelets.cpp, with the
registration blocks the code generator emits) are compiled once per version of
their sources (kept in the compile cache), as are the real outputs of `ipu-opt
ipu_lower/examples/*.sdfg -p 'sdfg-to-poplar{prefer=codelet}' -t poplar-cpp -o DIR`
(our codelets, which these tests run), linked with the emulator's library into shared
libraries and called through ctypes.
Each check of the BSP semantics asserts the exact error or the exact values
that would change if the check were removed.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import json
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from gxx_fingerprint import gxx_fingerprint

from ipu_lower import cache
from ipu_lower.arch import ARCHS, get_arch
from ipu_lower.cost_model import matmul_cycles
from ipu_lower.poplibs_estimates import binary_op_1d_in_place, scaled_add_supervisor
from ipu_lower.runtime import emulator_library

REPO = Path(__file__).resolve().parents[1]
INCLUDE = REPO / "ipu_lower" / "emulator" / "include"
CPP = REPO / "tests" / "cpp"
EXAMPLES = REPO / "ipu_lower" / "examples"
GXX = shutil.which("g++")
pytestmark = pytest.mark.skipif(GXX is None, reason="g++ is not installed")

CXXFLAGS = ["-std=c++17", "-O1", "-Wall", "-Werror", "-I", str(INCLUDE)]

# id: (example, --symbols, --arch, -t); sizes that do not divide evenly over the tiles,
# one larger than twice the tile count, one SDK 2.x style (bool compute()).
# saxpy_n20 defines the same codelet classes as saxpy, in another library.
EMITTED = {
    "saxpy": ("saxpy", "N=1000", "ipu2", "poplar-cpp"),
    "saxpy_n20": ("saxpy", "N=20", "ipu2", "poplar-cpp"),
    "chain": ("chain", "N=37", "ipu1", "poplar-cpp{sdk=2}"),
    "scale2d": ("scale2d", "M=3,N=5", "ipu2", "poplar-cpp"),
    "clamp": ("clamp", "N=2945", "ipu21", "poplar-cpp"),
}


def _gxx(args: list[str]) -> None:
    assert GXX is not None
    result = subprocess.run([GXX, *args], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"g++ {' '.join(args)}:\n{result.stderr[:4000]}"


def _emit(name: str, out_dir: Path) -> None:
    from ipu_lower.cli import ipu_opt_main

    example, symbols, arch, target = EMITTED[name]
    args = [str(EXAMPLES / f"{example}.sdfg"), "-p", "sdfg-to-poplar{prefer=codelet}", "--symbols", symbols,
            "--arch", arch, "-t", target, "-o", str(out_dir)]
    err = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            ipu_opt_main(args)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
    assert code == 0, err.getvalue()


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> dict[str, Path]:
    """The driver and every emitted example, each example in a folder of its own with its
    sources and its library, from the compile cache when it holds a build of the same
    sources (`_build_key`)."""
    root = tmp_path_factory.mktemp("emulator")
    for name in EMITTED:
        (root / name).mkdir()
        _emit(name, root / name)
        assert "IPU_LOWER_EMULATOR" in (root / name / "codelets.cpp").read_text(), (
            f"{name}: codelets.cpp has no emulator registration block"
        )
    artifacts = {"driver": root / "driver", **{f"lib{n}.so": root / n / f"lib{n}.so" for n in EMITTED}}

    def find_or_build(store: cache.Cache) -> None:
        entry = store.entry("test-emulator", _build_key(root)[:24])
        with store.locked(entry):
            if not store.verified(entry, list(artifacts)):
                with store.scratch(entry) as scratch:
                    _compile_and_link(root, scratch)
                    store.record(entry, {a: store.publish(scratch / a, entry / a, 0o700) for a in artifacts})
            for artifact, path in artifacts.items():
                shutil.copy(entry / artifact, path)

    cache.use(find_or_build)
    paths = {"driver": root / "driver"}
    paths.update({n: root / n for n in EMITTED})
    return paths


def _build_key(root: Path) -> str:
    """The hash of what the build reads: the emitted sources, tests/cpp, the emulator's
    library (its path names the hash of its headers and sources), the flags and g++."""
    sources = [root / name / part for name in EMITTED for part in ("host.cpp", "codelets.cpp")]
    return gxx_fingerprint(*CXXFLAGS, str(emulator_library()), *sources, CPP)


def _compile_and_link(root: Path, out: Path) -> None:
    """Compiles the driver and every emitted example (all translation units in parallel,
    objects in `root`) and links `out`/driver and `out`/lib<example>.so."""
    objects = {
        root / "driver.o": CPP / "emulator_driver.cpp",
        root / "codelets.o": CPP / "emulator_codelets.cpp",
    }
    for name in EMITTED:
        for part in ("host", "codelets"):
            objects[root / name / f"{part}.o"] = root / name / f"{part}.cpp"
    emulator = str(emulator_library())
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        list(pool.map(lambda item: _gxx([*CXXFLAGS, "-fPIC", "-c", str(item[1]), "-o", str(item[0])]),
                      objects.items()))
        jobs = [[str(root / "driver.o"), str(root / "codelets.o"), emulator, "-o", str(out / "driver")]]
        jobs += [["-shared", str(root / n / "host.o"), str(root / n / "codelets.o"), emulator, "-o",
                  str(out / f"lib{n}.so")] for n in EMITTED]
        list(pool.map(_gxx, jobs))


def drive(build, *args: str, env: dict[str, str] | None = None, stdin: str | None = None,
          ok: bool = True) -> list[str]:
    """Runs one driver scenario; its stdout lines (the error line if it failed)."""
    full_env = {k: v for k, v in os.environ.items() if k != "IPU_LOWER_EMULATOR_SEED"}
    full_env.update(env or {})
    result = subprocess.run([str(build["driver"]), *args], capture_output=True, text=True,
                            env=full_env, input=stdin, timeout=120)
    lines = result.stdout.splitlines()
    if ok:
        assert result.returncode == 0, result.stdout + result.stderr
    else:
        assert result.returncode == 3, result.stdout + result.stderr
    return lines


def error_of(build, *args: str) -> str:
    lines = drive(build, *args, ok=False)
    assert lines[-1].startswith("ERROR: "), lines
    return lines[-1][len("ERROR: "):]


def report_of(lines: list[str]) -> dict:
    (line,) = [x for x in lines if x.startswith("REPORT ")]
    return json.loads(line[len("REPORT "):])


def values(lines: list[str], label: str) -> list[float]:
    (line,) = [x for x in lines if x.startswith(label + " ")]
    return [float(v) for v in line.split()[1:]]


def step(report: dict, name: str) -> dict:
    (s,) = [s for s in report["steps"] if s["name"] == name]
    return s


# --------------------------------------------------------------------------------------
# architecture table


ARCH_PROGRAM = """
#include <ipu_lower_emulator/Arch.hpp>
#include <cstdio>
int main() { std::puts(poplar::emulator::archTableJson().c_str()); }
"""


def test_the_cached_build_is_one_of_the_same_sources(build, tmp_path):
    for name in EMITTED:
        shutil.copytree(build[name], tmp_path / name)
    key = _build_key(tmp_path)
    assert key == _build_key(build["driver"].parent)
    codelets = tmp_path / "clamp" / "codelets.cpp"
    codelets.write_text(codelets.read_text().replace("ipu_lower_rt", "ipu_lower_rt ", 1))
    assert _build_key(tmp_path) != key


def test_arch_table_equals_arch_py(tmp_path):
    # A tiny program prints the emulator's one C++ table; it must equal arch.py.
    source, exe = tmp_path / "arch.cpp", tmp_path / "arch"
    source.write_text(ARCH_PROGRAM)
    _gxx([*CXXFLAGS, str(source), str(emulator_library()), "-o", str(exe)])
    table = json.loads(subprocess.run([str(exe)], capture_output=True, text=True,
                                      check=True).stdout)
    assert sorted(table) == sorted(ARCHS)
    for name, row in table.items():
        assert {"tiles", "bytes_per_tile", "workers_per_tile", "clock_hz", "data_path_bytes",
                "exchange_bytes_per_cycle", "sync_cycles"} <= set(row), name
        assert row == {key: getattr(ARCHS[name], key) for key in row}, name


def test_targets_and_devices(build):
    lines = drive(build, "targets", ok=False)
    for line in lines[:3]:
        t = json.loads(line)
        arch = ARCHS[t["name"]]
        assert (t["tiles"], t["tiles_per_ipu"], t["model_tiles"], t["model_ipus"]) == (
            arch.tiles, arch.tiles, arch.tiles, 1)
        assert t["bytes_per_tile"] == t["model_bytes"] == arch.bytes_per_tile
        assert t["workers_per_tile"] == arch.workers_per_tile
        assert t["clock_hz"] == arch.clock_hz
        assert t["exchange_bytes_per_cycle"] == arch.exchange_bytes_per_cycle
        assert (t["float_vector_width"], t["half_vector_width"], t["char_vector_width"]) == (
            arch.vector_width(4), arch.vector_width(2), arch.vector_width(1))
        assert (t["float_size"], t["half_size"], t["attach"]) == (4, 2, True)
    assert lines[3:] == [
        "hardware 0",  # no IPUs: DeviceManager finds none
        "default attach false",
        "ERROR: unknown IPU architecture 'ipu9' (known: ipu1, ipu2, ipu21)",
    ]


# --------------------------------------------------------------------------------------
# running programs


def test_saxpy_runs_twice_with_new_data(build):
    lines = drive(build, "saxpy")
    assert values(lines, "run1") == [100 + 3 * i for i in range(12)]
    assert values(lines, "run2") == [float(i) for i in range(12)]
    report = report_of(lines)
    # one Execute: compute = slowest tile (estimates 100, 110, 120); tiles 1 and 2
    # read the 4-byte `a` from tile 0: ceil(4 / 4) exchange cycles; one sync.
    assert report["steps"] == [{
        "name": "saxpy", "kind": "execute", "executions": 1, "compute_cycles": 120,
        "exchange_cycles": 1, "sync_cycles": 150, "cycles": 271, "exchange_bytes": 8,
        "vertices": 3, "vertices_without_estimate": 0}]
    assert report["total_cycles"] == 271
    assert report["estimated_seconds"] == pytest.approx(271 / 1.33e9)
    assert (report["arch"], report["num_tiles"], report["clock_hz"]) == ("ipu2", 1472, 1.33e9)
    assert report["tile_columns"] == ["tile", "bytes", "compute_cycles", "exchange_bytes"]
    assert report["tiles"] == [[0, 36, 100, 0], [1, 32, 110, 4], [2, 32, 120, 4]]


def test_vertex_order_does_not_change_results(build):
    outputs = []
    for seed in ("1", "99"):
        lines = drive(build, "saxpy", env={"IPU_LOWER_EMULATOR_SEED": seed})
        assert report_of(lines)["seed"] == int(seed)
        outputs.append([x for x in lines if not x.startswith("REPORT")])
    assert outputs[0] == outputs[1]


def test_compute_set_sees_writes_of_earlier_compute_sets(build):
    # cs1: A (Output edge on all of x) writes x[0] = 42 while B copies x[1] -> y[0]:
    # A's edge covers x[1] but does not assign it, so B's read is defined; cs2: D
    # copies x[0] -> y[1] and sees cs1's write. Whatever the vertex order.
    lines = drive(build, "snapshot")
    assert lines == [f"seed {s} x 42 5 y 5 42" for s in range(8)]


def _read_race(reader_tile, element, variable, writer, writer_tile, cs, fields) -> str:
    return (f"vertex '{reader_tile[0]}' (tile {reader_tile[1]}) reads element {element} of "
            f"'{variable}' that vertex '{writer}' (tile {writer_tile}) writes in compute set "
            f"'{cs}' (fields '{fields[0]}' and '{fields[1]}'); Poplar leaves such a read undefined")


@pytest.mark.parametrize("mode", ["output", "reversed"])
def test_reading_what_another_vertex_writes_is_an_error(build, mode):
    # WriteAt assigns x[5] through an Output edge on all of x; CopyVec reads x[2:6]
    # (zero-copy, or reversed: a gathered strided edge). On the IPU it may see 5 or 42.
    assert error_of(build, "read_race", mode) == _read_race(
        ("CopyVec", 1), 5, "x", "WriteAt", 0, "cs", ("in", "out"))


def test_reading_what_an_inout_edge_covers_is_an_error(build):
    # every element of an InOut edge counts as written: CopyVec reads x[2:6] of
    # the x[0:6] the InOut covers; the lowest is reported
    assert error_of(build, "read_race", "inout") == _read_race(
        ("CopyVec", 1), 2, "x", "InterleavedInOut<float>", 0, "cs", ("in", "y"))


def test_reading_elements_an_output_edge_leaves_alone_is_fine(build):
    # WriteAt's edge covers x[2:6] but it assigns x[1] only
    lines = drive(build, "read_race", "unwritten")
    assert values(lines, "x") == [0, 42, 2, 3, 4, 5, 6, 7]
    assert values(lines, "y") == [2, 3, 4, 5]


def _stencil(y):
    return [y[i - 1] + y[i] + y[i + 1] for i in range(1, 13)]


def test_in_place_stencil_over_several_vertices_is_an_error(build):
    # vertex 0 (tile 0) writes y[1:5] and reads y[0:6]: y[5] is vertex 1's
    assert error_of(build, "stencil", "inplace") == _read_race(
        ("Stencil3", 0), 5, "y", "Stencil3", 1, "cs", ("in", "out"))


def test_in_place_stencil_in_one_vertex_is_fine(build):
    # one vertex reads y[0:14] and writes y[1:13]: its Input sees y from before
    # the compute set
    old = [float(i * i) for i in range(14)]
    assert values(drive(build, "stencil", "single"), "y") == [old[0], *_stencil(old), old[13]]


def test_halo_read_of_what_an_earlier_compute_set_wrote_is_fine(build):
    lines = drive(build, "stencil", "twophase")
    x = [float(i * i) for i in range(14)]
    y = [x[0], *_stencil(x), x[13]]
    assert values(lines, "y") == y
    assert values(lines, "z") == [0, *_stencil(y), 0]


def test_seed_sets_the_vertex_order(build):
    lines = drive(build, "order", "1", "2", "3", "1")
    orders = [line.split()[2:] for line in lines]
    for order in orders:
        assert sorted(order) == [str(i) for i in range(8)]
    assert orders[0] == orders[3]  # same seed, same order
    assert len({tuple(o) for o in orders[:3]}) == 3  # different seeds, different orders
    assert orders[0] != [str(i) for i in range(8)]  # not the order vertices were added
    # the environment variable sets the default seed (0 without it)
    assert drive(build, "order", "env", env={"IPU_LOWER_EMULATOR_SEED": "2"})[0].split()[2:] == orders[1]
    assert drive(build, "order", "env")[0].split()[2:] == drive(build, "order", "0")[0].split()[2:]


def test_two_vertices_writing_one_element_is_an_error(build):
    assert error_of(build, "race") == (
        "vertices 'WriteAt' (tile 3) and 'WriteAt' (tile 4) both write element 7 of 'y' "
        "in compute set 'cs' (fields 'out' and 'out')")


def test_disjoint_writes_through_shared_output_edges(build):
    # Both vertices are connected to all of y; they write y[2] and y[7] only:
    # no error, and only written elements are committed.
    assert values(drive(build, "race", "2"), "y") == [0, 0, 1, 0, 0, 0, 0, 2, 0, 0]


# Stores narrower than 32 bits are a read-modify-write of their word on the IPU: two
# writers (vertex, worker) storing different elements of one word race. Driver:
# `subword TYPE N CODELET BEGIN END ...`, vertex k on tile k over x[BEGIN:END], x = 0..N-1.

def _word_race(codelet_a, tile_a, worker_a, codelet_b, tile_b, worker_b, first, second,
               field_a, field_b) -> str:
    return (f"vertices '{codelet_a}' (tile {tile_a}, worker {worker_a}) and '{codelet_b}' "
            f"(tile {tile_b}, worker {worker_b}) write elements {first} and {second} of 'x', "
            f"which share a 32-bit word, in compute set 'cs' (fields '{field_a}' and "
            f"'{field_b}'); stores narrower than 32 bits are not atomic")


@pytest.mark.parametrize("codelet, field", [("Interleaved", "out"), ("InterleavedInOut", "y")])
def test_workers_storing_halves_of_one_word_is_an_error(build, codelet, field):
    # worker w stores element w: workers 0 and 1 share word 0 (Output stores record
    # their worker; InOut edges are compared before and after each worker)
    assert error_of(build, "subword", "half", "16", codelet, "0", "16") == _word_race(
        f"{codelet}<half>", 0, 0, f"{codelet}<half>", 0, 1, 0, 1, field, field)


@pytest.mark.parametrize("codelet, expected", [
    ("Interleaved", [2 * i for i in range(16)]),
    ("InterleavedInOut", [i + 1 for i in range(16)]),
])
def test_workers_interleaving_32_bit_elements_is_fine(build, codelet, expected):
    assert values(drive(build, "subword", "float", "16", codelet, "0", "16"), "x") == expected


@pytest.mark.parametrize("type_", ["schar", "half"])
def test_workers_storing_whole_words_is_fine(build, type_):
    # worker w takes words w, w + 6, ... (4 int8 or 2 half elements each); 30
    # elements: the last word is partly outside the edge
    assert values(drive(build, "subword", type_, "30", "WordsInOut", "0", "30"), "x") == [
        i + 1 for i in range(30)]


def test_two_vertices_storing_halves_of_one_word_is_an_error(build):
    # each vertex alone is fine (one element, one worker); together they share word 0
    assert error_of(build, "subword", "half", "2", "Interleaved", "0", "1",
                    "WordsInOut", "1", "2") == _word_race(
        "Interleaved<half>", 0, 0, "WordsInOut<half>", 1, 0, 0, 1, "out", "y")
    # WordsInOut's units follow its edge, not x's words: x[3:8] starts inside word 0
    assert error_of(build, "subword", "schar", "8", "WordsInOut", "0", "3",
                    "WordsInOut", "3", "8") == _word_race(
        "WordsInOut<signed char>", 0, 0, "WordsInOut<signed char>", 1, 0, 0, 3, "y", "y")


def test_two_vertices_on_neighbouring_words_is_fine(build):
    assert values(drive(build, "subword", "schar", "8", "WordsInOut", "0", "4",
                        "WordsInOut", "4", "8"), "x") == [i + 1 for i in range(8)]


def test_reading_an_output_is_an_error(build):
    assert error_of(build, "output_read") == (
        "vertex 'ReadsOutput' (tile 2) read Output field 'y' (tensor 'tmp0') at index 0 "
        "in compute set 'cs'; Output fields are write-only (use InOut to read and write)")


@pytest.mark.parametrize("scenario, message", [
    ("unmapped", "Engine: tensor 'x' has 3 unmapped elements (first: element 7 of 10); "
                 "map every element with Graph::setTileMapping"),
    ("unconnected", "Engine: field 'out' (Output<Vector<float>>) of vertex 'CopyVec' (tile 0) "
                    "in compute set 'cs' is not connected"),
    ("vertex_unmapped", "Engine: vertex 'CopyVec' (#0, no tile) in compute set 'cs' has no "
                        "tile mapping; use Graph::setTileMapping(vertex, tile)"),
    ("unknown_field", "Graph::connect: vertex class 'CopyVec' has no field 'input' "
                      "(its fields: in, out)"),
    ("connect_type", "Graph::connect: field 'in' of vertex 'CopyVec' is Input<Vector<float>> "
                     "but tensor 'i' has element type int"),
    ("connect_scalar", "Graph::connect: field 'a' of vertex 'Saxpy' is the scalar edge "
                       "Input<float>; it needs a tensor of exactly 1 element, but tensor 'two' "
                       "has 2"),
    ("memory", "Engine: tile 0 holds 800000 bytes of variables and constants, more than its "
               "638976 bytes of memory"),
    ("returns_false", "vertex 'ReturnsFalse' (tile 0) in compute set 'cs' returned false "
                      "from compute()"),
])
def test_graph_errors(build, scenario, message):
    assert error_of(build, scenario) == message


def test_unregistered_codelet(build):
    message = error_of(build, "unregistered")
    assert message.startswith("Graph::addVertex: codelet 'NoSuchCodelet' is not registered "
                              "with the emulator (registered: Accumulate, Affine, CopyVec,")


@pytest.mark.parametrize("direction", ["write", "read"])
def test_host_buffer_size_must_match(build, direction):
    lines = drive(build, "write_size", direction, ok=False)
    assert lines[0] == "half ok"  # 4 HALF elements are 8 raw bytes
    handle = "writeTensor('write_x')" if direction == "write" else "readTensor('read_x')"
    assert lines[1] == (f"ERROR: Engine::{handle}: the buffer has 12 bytes but tensor 'x' "
                        "has 4 elements of float (16 bytes)")


def test_copy_across_and_within_tiles(build):
    lines = drive(build, "copy")
    assert lines[0] == "copied equal"
    report = report_of(lines)
    # 100 floats tile 0 -> tile 1: 400 bytes at 4 bytes/cycle, plus a sync
    assert step(report, "copy 'src' -> 'dst'") == {
        "name": "copy 'src' -> 'dst'", "kind": "copy", "executions": 1, "compute_cycles": 0,
        "exchange_cycles": 100, "sync_cycles": 150, "cycles": 250, "exchange_bytes": 400}
    # 100 floats within tile 2: ceil(400 / 8) cycles, no exchange, no sync
    assert step(report, "copy 'l1' -> 'l2'") == {
        "name": "copy 'l1' -> 'l2'", "kind": "copy", "executions": 1, "compute_cycles": 50,
        "exchange_cycles": 0, "sync_cycles": 0, "cycles": 50, "exchange_bytes": 0}
    # 8 floats, half on tile 0 and half on tile 1, -> tile 1
    assert step(report, "copy 's2' -> 'd2'") == {
        "name": "copy 's2' -> 'd2'", "kind": "copy", "executions": 1, "compute_cycles": 2,
        "exchange_cycles": 4, "sync_cycles": 150, "cycles": 156, "exchange_bytes": 16}
    assert report["total_cycles"] == 456
    assert report["tiles"] == [[0, 416, 0, 0], [1, 448, 2, 416], [2, 800, 50, 0]]


def test_control_flow(build):
    lines = drive(build, "control")
    # RepeatWhileTrue runs cond first: counter 5 -> 4 (body), 3, 2, 1, 0 (stop)
    assert lines[0] == "while acc 40 counter 0"
    report = report_of(lines)
    assert step(report, "cond")["executions"] == 5
    assert step(report, "add10")["executions"] == 4
    assert step(report, "repeatWhileTrue 'pred'") == {
        "name": "repeatWhileTrue 'pred'", "kind": "control", "executions": 5,
        "compute_cycles": 0, "exchange_cycles": 0, "sync_cycles": 750, "cycles": 750,
        "exchange_bytes": 0}
    assert report["vertices_without_estimate"] == 2
    assert lines[3:] == [  # after REPORT and MEASURED
        "switch 0 acc 1", "switch 1 acc 100", "switch 7 acc 1000",  # 7: default case
        "if 1 acc 1", "if 0 acc 100",
        "repeat acc 3000",
    ]


def measured_of(lines: list[str]) -> dict:
    (line,) = [x for x in lines if x.startswith("MEASURED ")]
    return json.loads(line[len("MEASURED "):])


@pytest.mark.parametrize("flag", ["0", "1"])
def test_measured_counts(build, flag):
    measured = measured_of(drive(build, "measured", flag))
    steps = {s["name"]: s for s in measured["steps"]}
    # the stencil's vertex on tile t reads x[4t:4t+6) and writes y[4t+1:4t+5): the vertex
    # on tile 1 reads x[4] (tile 0) and x[9] (tile 2), those on tiles 0 and 2 one element
    # each (x[5], x[8]): 8 bytes on the busiest tile, 16 in all, per run
    assert steps["stencil"] == {"name": "stencil", "kind": "execute", "executions": 3, "syncs": 3,
                                "busiest_tile_exchange_bytes": 3 * 8, "exchange_bytes": 3 * 16, "modelled": False}
    # s2[0:4) crosses from tile 0 to tile 1 (16 bytes), s2[4:8) stays: a sync each time
    assert steps["copy 's2' -> 'd2'"] == {"name": "copy 's2' -> 'd2'", "kind": "copy", "executions": 3, "syncs": 3,
                                          "busiest_tile_exchange_bytes": 3 * 16, "exchange_bytes": 3 * 16,
                                          "modelled": False}
    assert steps["if 'flag'"]["syncs"] == 1 and steps["sync"]["syncs"] == 1
    (stencil, branch) = measured["compute_sets"]
    assert measured["vertex_columns"] == ["tile", "elements_read", "elements_written"]
    assert stencil == {"name": "stencil", "runs": 3, "busiest_tile": 1, "busiest_tile_exchange_bytes": 8,
                       "exchange_bytes": 16, "vertices": [[t, 3 * 6, 3 * 4] for t in range(3)]}
    if flag == "1":
        # WriteAt on tile 4 is connected to all 5 elements of w (tile 3) and assigns one
        assert branch == {"name": "write", "runs": 1, "busiest_tile": 4, "busiest_tile_exchange_bytes": 20,
                          "exchange_bytes": 20, "vertices": [[4, 0, 1]]}
        assert "inout" not in steps
    else:
        # Saxpy on tile 0 reads a, x[0:4) and updates z[3:7), of which z[5], z[6] lie on
        # tile 1: in and back, 2 x 2 x 4 bytes; it reads 1 + 4 + 4 elements, writes 4
        assert branch == {"name": "inout", "runs": 1, "busiest_tile": 0, "busiest_tile_exchange_bytes": 16,
                          "exchange_bytes": 16, "vertices": [[0, 9, 4]]}
        assert "write" not in steps
    assert measured["syncs"] == 3 + 3 + 1 + 1 + 1 and measured["modelled_syncs"] == 0


def test_measured_poplibs_calls_are_modelled(build):
    measured = measured_of(drive(build, "reduce"))
    assert {s["kind"] for s in measured["steps"]} == {"reduce"}
    assert all(s["modelled"] for s in measured["steps"])
    assert measured["syncs"] == 0 and measured["modelled_syncs"] == sum(s["syncs"] for s in measured["steps"]) > 0


def test_dynamic_slice_and_update(build):
    lines = drive(build, "dynamic", "1", "3")
    assert values(lines, "a") == [0, 1, 2, 3, 4, 5, 6, 7, 8, 3, 4, 5]  # row 1 copied into row 3
    report = report_of(lines)
    # 3 floats tile 1 -> tile 4: 12 bytes at 4 bytes/cycle, and a sync for the offsets
    assert step(report, "take") == {
        "name": "take", "kind": "dynamic_slice", "executions": 1, "compute_cycles": 0,
        "exchange_cycles": 3, "sync_cycles": 150, "cycles": 153, "exchange_bytes": 12}
    assert step(report, "put")["kind"] == "dynamic_update"
    # measured at the box the offsets select when it runs: row 1 (tile 1) into tile 4, then back into row 3
    measured = {s["name"]: s for s in measured_of(lines)["steps"]}
    assert [(measured[n]["busiest_tile_exchange_bytes"], measured[n]["syncs"]) for n in ("take", "put")] == [(12, 1), (12, 1)]
    assert error_of(build, "dynamic", "2", "4") == (
        "popops::dynamicUpdate: offset 4 and size 1 leave dimension 0 of tensor 'a' of shape {4,3}")
    assert error_of(build, "dynamic", "0", "0", "offset_type") == (
        "popops::dynamicSliceWithOutput: the offset tensor 'from' must be UNSIGNED_INT of shape {1}, not int {1}")


def test_poplin_matmul(build):
    lines = drive(build, "matmul")
    assert values(lines, "c") == [4, 5, 10, 11]  # [[1, 2, 3], [4, 5, 6]] @ [[1, 0], [0, 1], [1, 1]]
    assert values(lines, "y") == [-1, -1]  # c @ [1, -1]
    report = report_of(lines)
    # the (g, m, k, n) split whose busiest tile receives least (CostModel.hpp): 1 x 2 x 3 x 2
    # tiles, each receiving one element of a and of b (8 bytes) and the float partials of
    # the split k, (3 - 1) x ceil(1 / 3) x 4 = 8 bytes: 16 bytes, 4 cycles, 192 bytes over
    # its 12 tiles; 2 FLOPs a tile at 32 a cycle: 1 cycle; and a sync
    assert step(report, "ab") == {
        "name": "ab", "kind": "matmul", "executions": 1, "compute_cycles": 1,
        "exchange_cycles": 4, "sync_cycles": 150, "cycles": 155, "exchange_bytes": 192}
    assert error_of(build, "matmul", "rank") == "poplin::matMul: operand 'x' of shape {2} is not a matrix"
    assert error_of(build, "matmul", "inner") == "poplin::matMul: operands of shapes {2,3} and {2,2} do not agree"
    assert error_of(build, "matmul", "types") == "poplin::matMul: operands 'a' and 'h' have different element types"
    assert error_of(build, "matmul", "output") == (
        "poplin::matMulWithOutput: output 'y' has shape {3,1}, not {2,1}")


def test_popops_reduce(build):
    lines = drive(build, "reduce")
    assert values(lines, "cols") == [15, 27, 39]  # [10, 20, 30] + the sums of the columns
    assert values(lines, "rows") == [3, 6]
    assert values(lines, "wide") == [2052]  # accumulated in float (popops' default for half)
    assert values(lines, "narrow") == [2048]  # in half: 2048 + 1 rounds back to 2048
    assert values(lines, "f") == [10.5]
    # each column's values on tiles 1 and 2: those tiles fold 3 values into 3 partials,
    # 6 * (17 + ceil(3 / 12)) = 108, and sync; tile 1 receives the 6 partials (24 bytes,
    # 6 cycles) and folds them with the 3 old values, 108, and syncs (CostModel.hpp)
    assert step(report_of(lines), "cols") == {
        "name": "cols", "kind": "reduce", "executions": 1, "compute_cycles": 216,
        "exchange_cycles": 6, "sync_cycles": 300, "cycles": 522, "exchange_bytes": 24}
    where = "popops::reduceWithOutput: "
    assert error_of(build, "reduce", "update") == where + "update can only be used with ADD, LOG_ADD or SQUARE_ADD, not MUL"
    assert error_of(build, "reduce", "option") == where + "unrecognised option 'accumType.everywhere'"
    assert error_of(build, "reduce", "value") == where + "option 'accumType.inVertex' takes half or float, not 'int'"
    assert error_of(build, "reduce", "dims") == where + "invalid dimension 2 for tensor 'a' of rank 2"
    assert error_of(build, "reduce", "shape") == (
        where + "dimension mismatch in output: input 'a' of shape {2,3} reduced over {0} gives {3}, not {2}")
    assert error_of(build, "reduce", "types") == where + "Operation::MIN does not reduce half into float"
    assert error_of(build, "reduce", "operation") == (
        "popops::reduce: Operation::LOGICAL_AND is not emulated (ADD, MUL, MIN and MAX are)")
    assert error_of(build, "reduce", "scale") == where + "the scale 'scale' must be one FLOAT element"
    assert error_of(build, "reduce", "reduce-update") == (
        "popops::reduce: cannot do an update using reduce(); call reduceWithOutput() instead")


def test_poplin_accumulating_and_grouped_products(build):
    lines = drive(build, "matmul_acc")
    # 2 [[1, 2], [3, 4]] + 0.5 [[2, 4], [6, 8]]; groups [1, 2] [1, 1]^T = 3, [3, 4] [2, -1]^T = 2, minus themselves
    assert values(lines, "c") == [3, 6, 9, 12]
    assert values(lines, "p") == [0, 0]
    report = report_of(lines)
    # popops' estimates for the busiest tile of c (3 elements on tile 1), plus a sync
    assert step(report, "c2")["compute_cycles"] == binary_op_1d_in_place("multiply", "float", 3)
    assert step(report, "c2")["sync_cycles"] == 150
    acc = step(report, "acc")
    product = step(report, "grouped")  # a product alone: matmul_cycles
    assert acc["compute_cycles"] == 1 + scaled_add_supervisor("float", 3, False)
    assert acc["sync_cycles"] == 2 * 150
    assert product["cycles"] == matmul_cycles(1, 2, 1, 4, get_arch("ipu2"), groups=2)
    assert error_of(build, "matmul_acc", "acc_shape") == "poplin::matMulAcc: C 'c' has shape {2,3}, not {2,2}"
    assert error_of(build, "matmul_acc", "groups") == (
        "poplin::matMulGroupedWithOutput: operands of shapes {2,1,2} and {3,2,1} do not agree")
    assert error_of(build, "matmul_acc", "int_scale") == (
        "popops::mulInPlace: tensor 'n' is int, which a float constant does not multiply (FLOAT or HALF)")


def test_half_tensors_round_trip_as_raw_bits(build):
    bits = [0x3C00, 0xC100, 0x7BFF, 0x0001, 0x03FF, 0x2E66, 0x7C00, 0xFC00, 0x8000, 0x3555]
    lines = drive(build, "half", *(f"{b:04x}" for b in bits))
    assert values(lines, "in") == bits
    expected = (np.array(bits, dtype=np.uint16).view(np.float16).astype(np.float32)
                * np.float32(0.5)).astype(np.float16).view(np.uint16)
    assert values(lines, "out") == expected.tolist()


def test_half_conversion_matches_numpy(build):
    rng = np.random.default_rng(7)
    floats = np.concatenate([
        rng.standard_normal(3000).astype(np.float32) * np.float32(1000),
        rng.uniform(-7e-5, 7e-5, 2000).astype(np.float32),  # subnormal halves
        np.array([0.0, -0.0, 65504, 65519.99, 65520, -65520, 1e30, np.inf, -np.inf,
                  2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -26, 2.0 ** -14, 1 + 2.0 ** -11,
                  1 + 3 * 2.0 ** -11, 2049, 2051], dtype=np.float32),
    ])
    # every half value, exactly, and the midpoints between neighbours (ties to even)
    halves = np.arange(0x10000, dtype=np.uint16).view(np.float16)
    finite = halves[np.isfinite(halves)].astype(np.float32)
    finite.sort()
    mids = ((finite[:-1].astype(np.float64) + finite[1:]) / 2).astype(np.float32)
    floats = np.concatenate([floats, finite, mids[::7]])
    fbits = floats.view(np.uint32)
    lines = drive(build, "half_conv", stdin="\n".join(str(b) for b in fbits))
    got = np.array([[int(v) for v in line.split()] for line in lines], dtype=np.uint64)
    with np.errstate(over="ignore"):
        want_half = floats.astype(np.float16)
    assert got[:, 0].tolist() == want_half.view(np.uint16).tolist()
    assert got[:, 1].tolist() == want_half.astype(np.float32).view(np.uint32).tolist()


def test_vertex_state_fields(build):
    lines = drive(build, "state")
    assert values(lines, "y") == [3, 7, 7, 13]  # y * weights[i % 2] + bias
    assert values(lines, "z") == [15, 25, 35]   # weights set element by element


def test_vector_list_and_vector_of_edges(build):
    lines = drive(build, "lists")
    assert values(lines, "sums") == [18, 37, 56]  # row sums + column sums (strided edges)
    # the vertex on tile 1 reads 3 rows of 4 and 3 columns of 3 floats of m (tile 0);
    # it writes sums on its own tile: 21 floats cross tiles
    assert step(report_of(lines), "rowsums")["exchange_bytes"] == 4 * (3 * 4 + 3 * 3)


def test_registered_field_type_names(build):
    assert drive(build, "field_types") == [
        "Saxpy.a Input<float>", "Saxpy.x Input<Vector<float>>", "Saxpy.y InOut<Vector<float>>",
        "Affine.y InOut<Vector<float>>", "Affine.weights Vector<float>", "Affine.bias unsigned int",
        "RowSums.rows Input<VectorList<float>>", "RowSums.extra Vector<Input<Vector<float>>>",
        "RowSums.sums Output<Vector<float>>"]


def test_tensor_views(build):
    lines = drive(build, "views")
    assert lines[0] == ("shape t {4,3} slice {2,2} row {4} dimshuffle {2,3,2} flat 12 "
                        "rank0 0 1 contiguous 10 aliases 10")
    m = np.arange(12, dtype=np.float32).reshape(3, 4)
    # Copy through a transpose and a concat along dimension 1
    assert values(lines, "mt") == m.T.flatten().tolist()
    assert values(lines, "cat") == np.concatenate([m[:, :2], m], axis=1).flatten().tolist()
    # Saxpy on columns (strided InOut: copied in and out): col2 = 10 * col1 + col2
    m[:, 2] = 10 * m[:, 1] + m[:, 2]
    assert values(lines, "m") == m.flatten().tolist()


def test_big_tensor_views_stay_cheap(build):
    lines = drive(build, "big")  # 2^24 floats over 1472 tiles
    assert values(lines, "y") == [0, 3, 2997, 3 * ((2**24 - 1) % 1000)]
    assert values(lines, "seconds")[0] < 20


def test_views_match_a_naive_model(build):
    assert drive(build, "view_fuzz") == ["views ok"]


def test_streams_in_a_repeat(build):
    lines = drive(build, "stream")
    assert values(lines, "out") == [float(i) for i in range(1, 13)]
    report = report_of(lines)
    # each transfer: 16 bytes onto one tile, ceil(16 / 4) cycles, plus a sync
    assert step(report, "stream 'in' -> 'x'") == {
        "name": "stream 'in' -> 'x'", "kind": "stream_copy", "executions": 3,
        "compute_cycles": 0, "exchange_cycles": 12, "sync_cycles": 450, "cycles": 462,
        "exchange_bytes": 48}


def test_print_tensor(build):
    assert drive(build, "print") == ["m: [[1, 2], [3, 4]]", "m: [3, 4]"]


def test_scalar_edge_types(build):
    assert drive(build, "types") == [
        "Inc<int> 4 4294967292",          # -5 + 1
        "Inc<unsigned char> 1 0",         # 255 + 1 wraps
        "Inc<signed char> 1 129",         # -128 + 1 = -127
        "Inc<short> 2 32001",
        "Inc<unsigned> 4 4000000001",
        "Inc<long long> 8 1099511627777",
        "Inc<unsigned long long> 8 8",
        "Inc<bool> 1 1",
    ]


# --------------------------------------------------------------------------------------
# the compiler's real output


def _reference(name: str, args: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    name = EMITTED[name][0]
    if name == "saxpy":
        return {"y": (args["a"] * args["x"]).astype(np.float32) + args["y"]}
    if name == "chain":
        t = args["x"] * args["y"]
        return {"z": np.sqrt(t + args["x"])}
    if name == "scale2d":
        return {"B": args["A"] * args["A"] + np.float32(1.0)}
    if name == "clamp":
        return {"y": np.minimum(np.maximum(args["x"], args["lo"]), args["hi"])}
    raise AssertionError(name)


_CTYPES = {"float32": (ctypes.c_float, np.float32), "int32": (ctypes.c_int32, np.int32)}


def _arguments(manifest: dict, rng) -> dict[str, np.ndarray]:
    args = {}
    for arg in manifest["arguments"]:
        _, dtype = _CTYPES[arg["dtype"]]
        if dtype == np.float32:
            data = rng.uniform(0.5, 4.0, arg["shape"]).astype(np.float32)
        else:
            data = rng.integers(-50, 50, arg["shape"]).astype(np.int32)
        args[arg["name"]] = np.ascontiguousarray(data)
    if "lo" in args:
        args["lo"], args["hi"] = np.int32(-10), np.int32(20)
    return args


class Emitted:
    """One emitted example built into a shared library, called through ctypes."""

    def __init__(self, build, name: str) -> None:
        self.name = name
        self.directory = build[name]
        self.manifest = json.loads((self.directory / "program.json").read_text())
        self.lib = ctypes.CDLL(str(self.directory / f"lib{name}.so"))
        self.lib.ipu_lower_emulator_report.restype = ctypes.c_char_p
        self.functions = {k: getattr(self.lib, v) for k, v in self.manifest["functions"].items()}
        self.functions["last_error"].restype = ctypes.c_char_p

    def init(self) -> None:
        codelets = str(self.directory / "codelets.cpp").encode()
        assert self.functions["init"](codelets) == 0, self.functions["last_error"]()

    def run_and_check(self, rng) -> None:
        args = _arguments(self.manifest, rng)
        expected = _reference(self.name, args)
        call = []
        for arg in self.manifest["arguments"]:
            ctype, _ = _CTYPES[arg["dtype"]]
            value = args[arg["name"]]
            call.append(ctype(value.item()) if arg["shape"] == [] and not arg["output"]
                        else value.ctypes.data_as(ctypes.POINTER(ctype)))
            if arg["shape"]:
                call.append(ctypes.c_size_t(value.size))  # the element count the run checks
        assert self.functions["run"](*call) == 0, self.functions["last_error"]()
        for out, want in expected.items():
            np.testing.assert_allclose(args[out], want, rtol=1e-6)

    def report(self) -> dict:
        return json.loads(self.lib.ipu_lower_emulator_report())

    def exit(self) -> None:
        self.functions["exit"]()


def _planned_bytes(name: str) -> dict[int, int]:
    """tile -> bytes of data ipu-tile-partition's plan puts there."""
    from ipu_lower.arch import get_arch
    from ipu_lower.dialects.sdfg import SdfgOp
    from ipu_lower.frontend.frontends import SdfgFrontend
    from ipu_lower.passes.tile_partition import IpuTilePartitionPass, plan_layouts
    from ipu_lower.pipelines import SdfgToPoplarPass
    from xdsl.context import Context

    example, symbols, arch, _ = EMITTED[name]
    module = SdfgFrontend().parse(Context(), io.BytesIO((EXAMPLES / f"{example}.sdfg").read_bytes()),
                                  example)
    steps = SdfgToPoplarPass(symbols=symbols, arch=arch).steps()
    for step in steps[: next(k for k, p in enumerate(steps) if isinstance(p, IpuTilePartitionPass))]:
        step.apply(Context(), module)  # the sdfg-level steps: specialize, fuse, in place
    (sdfg,) = [op for op in module.ops if isinstance(op, SdfgOp)]
    held: dict[int, int] = {}
    for tile_map in plan_layouts(sdfg, get_arch(arch)).values():
        for block in tile_map.blocks():
            held[block.tile] = held.get(block.tile, 0) + 4 * (block.end - block.begin)
    return held


@pytest.mark.parametrize("name", list(EMITTED))
def test_emitted_code_runs(build, name):
    emitted = Emitted(build, name)
    directory = emitted.directory
    emitted.init()
    try:
        rng = np.random.default_rng(3)
        for _ in range(2):  # run() twice with different data
            emitted.run_and_check(rng)
        report = emitted.report()
    finally:
        emitted.exit()
    # The report is this library's: its compute sets, in program order, on its arch.
    host = (directory / "host.cpp").read_text()
    compute_sets = [line.split('addComputeSet("')[1].split('"')[0]
                    for line in host.splitlines() if "addComputeSet(" in line]
    executes = [s["name"] for s in report["steps"] if s["kind"] == "execute"]
    assert executes == compute_sets
    assert report["arch"] == EMITTED[name][2]
    assert report["num_tiles"] == ARCHS[EMITTED[name][2]].tiles
    assert report["total_cycles"] == sum(s["cycles"] for s in report["steps"])
    assert all(s["vertices_without_estimate"] == 0 for s in report["steps"]
               if s["kind"] == "execute")
    assert report["tiles"] and all(row[1] > 0 for row in report["tiles"])
    # host.cpp's for_each_block loops map the data as the tile plan says (4-byte elements
    # in every example), and every vertex works on the blocks of its own tile: the only
    # exchange is the whole scalars (on tile 0) sent to the vertices on other tiles
    assert {row[0]: row[1] for row in report["tiles"] if row[1]} == _planned_bytes(name)
    for s in report["steps"]:
        if s["kind"] == "execute":
            part = host.split(f'graph.addComputeSet("{s["name"]}");')[1].split("poplar::program::Execute")[0]
            whole = re.findall(r'graph\.connect\(vertex\["\w+"\], \w+\);', part)
            assert s["exchange_bytes"] == 4 * len(whole) * (s["vertices"] - 1), s


def test_libraries_keep_their_own_registry_and_report(build):
    # Two libraries in one process both register a codelet named saxpy_Mult_map: each
    # engine uses its own (500 vertices vs 10 in its one compute set), and each library
    # reports its own last run.
    big, small = Emitted(build, "saxpy"), Emitted(build, "saxpy_n20")
    big.init()
    small.init()
    try:
        rng = np.random.default_rng(5)
        big.run_and_check(rng)
        small.run_and_check(rng)
        vertices = {e.name: [s["vertices"] for s in e.report()["steps"] if s["kind"] == "execute"]
                    for e in (big, small)}
        assert vertices == {"saxpy": [500], "saxpy_n20": [10]}
    finally:
        big.exit()
        small.exit()
