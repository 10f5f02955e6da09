"""Bounded work on hostile `.sdfg` inputs: each case ends quickly in one located error line
(exit code 1, no traceback), run by `ipu-opt` in a subprocess so that a hang fails the test
instead of stalling the suite: one subprocess for all cases (`outcomes`), since DaCe's
start-up (2 CPU-s) was most of each."""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parent.parent / "ipu_lower" / "examples"
TIMEOUT = 60  # far above the few seconds these take; a regression hangs for minutes


def saxpy() -> dict:
    return json.loads((EXAMPLES / "saxpy.sdfg").read_text())


BATCH = """
import contextlib, io, json, sys, traceback
from ipu_lower.cli import ipu_opt_main
outcomes = {}
for case, args in json.load(sys.stdin).items():
    out, err, code = io.StringIO(), io.StringIO(), 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            ipu_opt_main(args)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        except BaseException:  # what the process would print before it ends
            traceback.print_exc()
            code = -1
    outcomes[case] = (code, out.getvalue(), err.getvalue())
json.dump(outcomes, sys.stdout)
"""
"""Runs ipu-opt's entry point on each case's arguments in one process; its outcomes as JSON."""


def run_ipu_opt_all(cases: dict[str, list[str]]) -> dict[str, subprocess.CompletedProcess]:
    """`ipu-opt ARGS` of every case, each with its own exit code, stdout and stderr, in one
    fresh process that has TIMEOUT in all."""
    result = subprocess.run([sys.executable, "-c", BATCH], input=json.dumps(cases),
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return {case: subprocess.CompletedProcess(cases[case], code, out, err)
            for case, (code, out, err) in json.loads(result.stdout).items()}


def assert_one_line_error(result: subprocess.CompletedProcess, *fragments: str) -> None:
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and " error: " in lines[0], result.stderr
    assert "internal error" not in lines[0] and "Unknown type" not in lines[0]
    for fragment in fragments:
        assert fragment in lines[0]


def tmp0(doc: dict) -> dict:
    return doc["attributes"]["_arrays"]["__tmp0"]["attributes"]


def map_range(doc: dict) -> dict:
    for node in doc["nodes"][0]["nodes"]:
        if node["type"] == "MapEntry":
            return node["attributes"]["range"]["ranges"][0]
    raise AssertionError("saxpy has a map")


HUGE_CONSTANTS = {
    "floor-exp": (lambda d: tmp0(d).update(total_size="floor(exp(10000000))"), ("total_size", "64-bit")),
    "exp": (lambda d: tmp0(d).update(total_size="exp(1000000)"), ("total_size", "64-bit")),
    "product": (lambda d: tmp0(d).update(shape=["4294967296 * 4294967296"]), ("shape", "64-bit")),
    "map-bound-pow": (lambda d: map_range(d).update(end="2**64"), ("range", "64-bit")),
    "map-bound-number": (lambda d: map_range(d).update(end=2**64), ("range", "must be a string")),
}


@pytest.mark.parametrize("case", HUGE_CONSTANTS)
def test_huge_constants_are_located_errors(outcomes, case):
    assert_one_line_error(outcomes[case], *HUGE_CONSTANTS[case][1])


# ---- memory before limits --------------------------------------------------------------------


def _parse_measuring_memory(path: Path) -> tuple[str, int]:
    """The error of loading `path` with the .sdfg frontend, and the peak of Python allocations."""
    import tracemalloc

    from xdsl.context import Context

    import ipu_lower.frontend.importer  # noqa: F401 - imported by the frontend, not measured
    from ipu_lower.frontend.frontends import SdfgFrontend
    from ipu_lower.frontend.sdfg_json import SdfgInputError

    tracemalloc.start()
    try:
        with open(path, "rb") as stream, pytest.raises(SdfgInputError) as err:
            SdfgFrontend().parse(Context(), stream, str(path))
        return str(err.value), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_too_large_file_is_refused_before_it_is_read(tmp_path):
    from ipu_lower.frontend.sdfg_json import MAX_SDFG_BYTES

    path = tmp_path / "huge.sdfg"
    with open(path, "wb") as f:  # sparse: costs no disk
        f.truncate(MAX_SDFG_BYTES + 1024)
    message, peak = _parse_measuring_memory(path)
    assert "larger than" in message
    assert peak < 16 * 1024 * 1024


def test_a_gzip_bomb_stops_at_the_limit_with_no_more_than_the_limit_in_memory(tmp_path, monkeypatch):
    import zlib

    from ipu_lower.frontend import sdfg_json

    limit = 16 * 1024 * 1024
    monkeypatch.setattr(sdfg_json, "MAX_SDFG_BYTES", limit)
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = b" " * (1024 * 1024)
    bomb = b"".join(compressor.compress(block) for _ in range(8 * limit // len(block))) + compressor.flush()
    path = tmp_path / "bomb.sdfgz"
    path.write_bytes(bomb)
    message, peak = _parse_measuring_memory(path)
    assert "decompressed size exceeds" in message
    assert peak < 1.5 * limit


# ---- maps whose parameters and ranges differ in number ---------------------------------------


def scale2d_map(doc: dict) -> dict:
    """The attributes of scale2d's one map, `[i=0:M, j=0:N]`."""
    return next(n for n in doc["nodes"][0]["nodes"] if n["type"] == "MapEntry")["attributes"]


MAP_RANGES = {
    "fewer-ranges": (["i", "j"], slice(0, 1), "has 2 parameters (i, j) but 1 range: a map needs one range per parameter"),
    "no-range": (["i", "j"], slice(0, 0), "has 2 parameters (i, j) but 0 ranges: a map needs one range per parameter"),
    "more-ranges": (["i"], slice(0, 2), "has 1 parameter (i) but 2 ranges: a map needs one range per parameter"),
    "nothing": ([], slice(0, 0), "has no parameters: a map needs at least one"),
}


def map_ranges_input(folder: Path, case: str) -> Path:
    """scale2d with its map's parameters and ranges as MAP_RANGES[case] has them."""
    params, ranges, _ = MAP_RANGES[case]
    doc = json.loads((EXAMPLES / "scale2d.sdfg").read_text())
    attributes = scale2d_map(doc)
    attributes["params"], attributes["range"]["ranges"] = params, attributes["range"]["ranges"][ranges]
    path = folder / f"{case}.sdfg"
    path.write_text(json.dumps(doc))
    return path


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    """A folder with each case's input, `<case>.sdfg`."""
    folder = tmp_path_factory.mktemp("inputs")
    for case, (mutate, _) in HUGE_CONSTANTS.items():
        doc = copy.deepcopy(saxpy())
        mutate(doc)
        (folder / f"{case}.sdfg").write_text(json.dumps(doc))
    for case in MAP_RANGES:
        map_ranges_input(folder, case)
    return folder


@pytest.fixture(scope="module")
def outcomes(inputs) -> dict[str, subprocess.CompletedProcess]:
    """What ipu-opt does with each case's input: HUGE_CONSTANTS read alone, MAP_RANGES
    lowered to C++ in `<case>.out`."""
    cases = {case: [str(inputs / f"{case}.sdfg")] for case in HUGE_CONSTANTS}
    for case in MAP_RANGES:
        cases[case] = [str(inputs / f"{case}.sdfg"), "--symbols", "M=4,N=8", "-p", "sdfg-to-poplar",
                       "-t", "poplar-cpp", "-o", str(inputs / f"{case}.out")]
    return run_ipu_opt_all(cases)


@pytest.mark.parametrize("case", MAP_RANGES)
def test_a_map_with_a_range_per_parameter_or_a_located_error(inputs, outcomes, case):
    """The importer pairs parameters and ranges one to one: a parameter without a range
    read as a symbol, and a map without any was an internal error of ipu-tile-partition."""
    import dace

    import ipu_lower
    from ipu_lower.diagnostics import CompileError

    place = "SDFG 'scale2d', state 'MapState', node 'scale2d_scale2d_11' (MapEntry)"
    expected = f"{place}: error: map 'scale2d_scale2d_11' {MAP_RANGES[case][2]}"
    assert_one_line_error(outcomes[case])
    assert outcomes[case].stderr == f"ipu-opt: {expected}\n" and not (inputs / f"{case}.out").exists()
    with pytest.raises(CompileError) as raised:  # the Python API, before it asks for sizes
        ipu_lower.compile(dace.SDFG.from_file(str(inputs / f"{case}.sdfg")))
    assert str(raised.value) == expected
