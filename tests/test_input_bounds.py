"""Bounded work on hostile `.sdfg` inputs: each case ends quickly in one located error line
(exit code 1, no traceback), run as `ipu-opt` in a subprocess so that a hang fails the test
instead of stalling the suite."""

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


def run_ipu_opt(path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ipu_lower.cli", str(path), *args],
        capture_output=True, text=True, timeout=TIMEOUT,
    )


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


@pytest.mark.parametrize(
    "mutate, fragments",
    [
        (lambda d: tmp0(d).update(total_size="floor(exp(10000000))"), ("total_size", "64-bit")),
        (lambda d: tmp0(d).update(total_size="exp(1000000)"), ("total_size", "64-bit")),
        (lambda d: tmp0(d).update(shape=["4294967296 * 4294967296"]), ("shape", "64-bit")),
        (lambda d: map_range(d).update(end="2**64"), ("range", "64-bit")),
        (lambda d: map_range(d).update(end=2**64), ("range", "must be a string")),
    ],
    ids=["floor-exp", "exp", "product", "map-bound-pow", "map-bound-number"],
)
def test_huge_constants_are_located_errors(tmp_path, mutate, fragments):
    doc = copy.deepcopy(saxpy())
    mutate(doc)
    path = tmp_path / "bad.sdfg"
    path.write_text(json.dumps(doc))
    assert_one_line_error(run_ipu_opt(path), *fragments)


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


@pytest.mark.parametrize(
    "params, ranges, message",
    [
        (["i", "j"], slice(0, 1), "has 2 parameters (i, j) but 1 range: a map needs one range per parameter"),
        (["i", "j"], slice(0, 0), "has 2 parameters (i, j) but 0 ranges: a map needs one range per parameter"),
        (["i"], slice(0, 2), "has 1 parameter (i) but 2 ranges: a map needs one range per parameter"),
        ([], slice(0, 0), "has no parameters: a map needs at least one"),
    ],
    ids=["fewer-ranges", "no-range", "more-ranges", "nothing"],
)
def test_a_map_with_a_range_per_parameter_or_a_located_error(tmp_path, params, ranges, message):
    """The importer pairs parameters and ranges one to one: a parameter without a range
    read as a symbol, and a map without any was an internal error of ipu-tile-partition."""
    import dace

    import ipu_lower
    from ipu_lower.diagnostics import CompileError

    doc = json.loads((EXAMPLES / "scale2d.sdfg").read_text())
    attributes = scale2d_map(doc)
    attributes["params"], attributes["range"]["ranges"] = params, attributes["range"]["ranges"][ranges]
    path = tmp_path / "bad.sdfg"
    path.write_text(json.dumps(doc))
    place = "SDFG 'scale2d', state 'MapState', node 'scale2d_scale2d_11' (MapEntry)"
    expected = f"{place}: error: map 'scale2d_scale2d_11' {message}"
    result = run_ipu_opt(path, "--symbols", "M=4,N=8", "-p", "sdfg-to-poplar", "-t", "poplar-cpp", "-o", str(tmp_path / "out"))
    assert_one_line_error(result)
    assert result.stderr == f"ipu-opt: {expected}\n" and not (tmp_path / "out").exists()
    with pytest.raises(CompileError) as raised:  # the Python API, before it asks for sizes
        ipu_lower.compile(dace.SDFG.from_file(str(path)))
    assert str(raised.value) == expected
