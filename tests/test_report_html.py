"""ipu-lower-report: the emulator's report drawn as an HTML page.

A real report (a program run on the emulator) is drawn and opened in headless chromium,
whose screenshot must show the heat maps' colours where the tiles are; hand-made reports
check the error messages, the escaping of the report's strings and the size of the page
of a large report.
"""

import gc
import json
import os
import re
import shutil
import struct
import subprocess
import time
import zlib
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from ipu_lower.arch import ARCHS
from ipu_lower.report_html import (
    EMPTY_COLOUR,
    MAX_STEPS,
    OVER_COLOUR,
    PALETTE,
    ZERO_COLOUR,
    colour,
    grid_columns,
    ipu_lower_report_main,
)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
COLUMNS = ["tile", "bytes", "compute_cycles", "exchange_bytes"]


def small_report() -> dict:
    return {
        "emulator": "ipu-lower CPU emulator", "arch": "ipu1", "num_tiles": 1216, "clock_hz": 1600000000,
        "total_cycles": 800, "estimated_seconds": 5e-7,
        "totals": {"compute_cycles": 200, "exchange_cycles": 300, "sync_cycles": 300},
        "steps": [
            {"name": "copy 'x' -> 'y'", "kind": "copy", "executions": 1, "compute_cycles": 0,
             "exchange_cycles": 300, "sync_cycles": 150, "cycles": 450, "exchange_bytes": 1200},
            {"name": "scale", "kind": "execute", "executions": 1, "compute_cycles": 200, "exchange_cycles": 0,
             "sync_cycles": 150, "cycles": 350, "exchange_bytes": 0, "vertices": 2, "vertices_without_estimate": 0},
        ],
        "tile_columns": list(COLUMNS),
        "tiles": [[0, 1000, 200, 0], [5, 262144, 100, 1200]],
    }


def run_cli(tmp_path: Path, report, *extra: str, text: str | None = None) -> tuple[int, Path]:
    """Exit code of ipu-lower-report on `report` (a dict written as JSON, or `text`) and
    the page's path."""
    source, page = tmp_path / "report.json", tmp_path / "report.html"
    source.write_text(text if text is not None else json.dumps(report))
    try:
        ipu_lower_report_main([str(source), "-o", str(page), *extra])
    except SystemExit as exit:
        return exit.code, page
    return 0, page


# -- errors ----------------------------------------------------------------------------


def _set(path: str, value):
    """A change to a report: the field at `path` ("steps.0.name") set, or deleted for ...."""
    def change(report):
        *parents, last = path.split(".")
        for key in parents:
            report = report[int(key) if key.isdigit() else key]
        key = int(last) if last.isdigit() else last
        if value is ...:
            del report[key]
        else:
            report[key] = value
    return change


BAD = [
    (_set("arch", ...), "the report has no 'arch'"),
    (_set("arch", "ipu9"), "unknown IPU architecture \"ipu9\" (known: ipu1, ipu2, ipu21)"),
    (_set("num_tiles", True), "num_tiles must be a non-negative integer below 2**64, got true"),
    (_set("num_tiles", 1000), "num_tiles must be a multiple of ipu1's 1216 tiles (at most 64 IPUs), got 1000"),
    (_set("clock_hz", "1GHz"), "clock_hz must be a number of hertz from 1 to 1e+12, got \"1GHz\""),
    (_set("clock_hz", 0.5), "clock_hz must be a number of hertz from 1 to 1e+12, got 0.5"),
    (_set("clock_hz", 10**400), "clock_hz must be a number of hertz from 1 to 1e+12, got 1000000000000000000000000000000000000..."),
    (_set("total_cycles", 10**400), "total_cycles must be a non-negative integer below 2**64, got 1000000000000000000000000000000000000..."),
    (_set("tiles.1.1", 2**64), "tiles[1][1] must be a non-negative integer below 2**64, got 18446744073709551616"),
    (_set("steps.0.cycles", [[[[{"deep": [[[[0]]]]}]]]] * 10**6), "steps[0].cycles must be a non-negative integer below 2**64, got [[[[{\"deep\": [[[[0]]]]}]]], [[[{\"deep..."),
    (_set("total_cycles", 8.5), "total_cycles must be a non-negative integer below 2**64, got 8.5"),
    (_set("totals.sync_cycles", False), "totals.sync_cycles must be a non-negative integer below 2**64, got false"),
    (_set("totals", [1, 2]), "totals must be an object, got [1, 2]"),
    (_set("steps", {"0": {}}), "steps must be a list, got {\"0\": {}}"),
    (_set("steps.1", "scale"), "steps[1] must be an object, got \"scale\""),
    (_set("steps.0.name", 7), "steps[0].name must be a string, got 7"),
    (_set("steps.1.cycles", -350), "steps[1].cycles must be a non-negative integer below 2**64, got -350"),
    (_set("steps.1.exchange_bytes", ...), "steps[1] has no 'exchange_bytes'"),
    (_set("steps.1.vertices", "2"), "steps[1].vertices must be a non-negative integer below 2**64, got \"2\""),
    (_set("tile_columns", ["tile", "bytes", "cycles", "exchange_bytes"]), "tile_columns has no 'compute_cycles'"),
    (_set("tile_columns.3", None), "tile_columns[3] must be a string, got null"),
    (_set("tiles.1", [5, 262144, 100]), "tiles[1] has 3 values for 4 tile_columns"),
    (_set("tiles.1.2", True), "tiles[1][2] must be a non-negative integer below 2**64, got true"),
    (_set("tiles.1.0", 1216), "tiles[1] is tile 1216, but the report has 1216 tiles"),
    (_set("tiles.1.0", 0), "tiles[1]: tile 0 is listed twice"),
    (_set("tiles", "[[0, 1, 2, 3]]"), "tiles must be a list, got \"[[0, 1, 2, 3]]\""),
]


@pytest.mark.parametrize(("change", "message"), BAD, ids=[m.split(" ")[0] + f"-{i}" for i, (_, m) in enumerate(BAD)])
def test_a_malformed_report_is_one_line_and_writes_nothing(tmp_path, capsys, change, message):
    report = small_report()
    change(report)
    code, page = run_cli(tmp_path, report)
    err = capsys.readouterr().err
    assert code == 1
    assert err == f"ipu-lower-report: error: '{tmp_path / 'report.json'}': {message}\n"
    assert not page.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


@pytest.mark.parametrize(("text", "message"), [
    ('{"arch": "ipu2",\n "num_tiles": }', ":2:15: invalid JSON: Expecting value"),
    ('{"arch": "ipu2", "total_cycles": NaN}', ": invalid JSON: NaN is not a number JSON allows"),
    ("[" * 100000 + "]" * 100000, ": invalid JSON: nested too deeply"),
    ("[]", ": the report must be an object, got []"),
])
def test_a_file_that_is_no_report_is_one_line(tmp_path, capsys, text, message):
    code, page = run_cli(tmp_path, None, text=text)
    assert code == 1
    assert capsys.readouterr().err == f"ipu-lower-report: error: '{tmp_path / 'report.json'}'{message}\n"
    assert not page.exists()


@pytest.mark.parametrize("text", ["[" + "[[0]], " * 200_000 + "[]]", "[" + "[[0]], " * 200_000 + "[] x"])
def test_reading_json_runs_no_garbage_collection(tmp_path, capsys, text):
    """The parser's many new lists set off no collection (each would scan them all: some
    hundred here, when the collector was on), and the collector is on again afterwards,
    whether the file is a report or not."""
    collections = []
    gc.callbacks.append(collect := lambda phase, info: phase == "start" and collections.append(info))
    try:
        code, _ = run_cli(tmp_path, None, text=text)
    finally:
        gc.callbacks.remove(collect)
    assert code == 1 and "ipu-lower-report: error: " in capsys.readouterr().err
    assert len(collections) <= 2 and gc.isenabled()  # what the CLI's own few objects set off


def test_unreadable_input_and_unwritable_output(tmp_path, capsys):
    missing = tmp_path / "none.json"
    with pytest.raises(SystemExit, match="1"):
        ipu_lower_report_main([str(missing), "-o", str(tmp_path / "a.html")])
    assert capsys.readouterr().err == f"ipu-lower-report: error: cannot read '{missing}': No such file or directory\n"

    (tmp_path / "latin1.json").write_bytes(b'{"arch": "\xe9"}')
    with pytest.raises(SystemExit, match="1"):
        ipu_lower_report_main([str(tmp_path / "latin1.json"), "-o", str(tmp_path / "a.html")])
    assert capsys.readouterr().err == f"ipu-lower-report: error: '{tmp_path / 'latin1.json'}' is not UTF-8 text\n"

    source = tmp_path / "report.json"
    source.write_text(json.dumps(small_report()))
    for output, message in [
        (tmp_path / "no" / "r.html", f"cannot write '{tmp_path / 'no' / 'r.html'}': its directory does not exist"),
        (source, f"the page would overwrite the report '{source}': give another -o"),
        (tmp_path, f"cannot write '{tmp_path}': it is a directory"),
    ]:
        with pytest.raises(SystemExit, match="1"):
            ipu_lower_report_main([str(source), "-o", str(output)])
        assert capsys.readouterr().err == f"ipu-lower-report: error: {message}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latin1.json", "report.json"]  # no partial page left
    assert json.loads(source.read_text()) == small_report()


def test_a_bad_report_leaves_an_existing_page(tmp_path, capsys):
    (tmp_path / "report.html").write_text("the old page")
    report = small_report()
    report["steps"][0]["cycles"] = None
    code, page = run_cli(tmp_path, report)
    assert code == 1 and page.read_text() == "the old page"
    assert "steps[0].cycles must be a non-negative integer below 2**64, got null" in capsys.readouterr().err



def test_a_report_too_large_or_of_too_many_kinds_is_one_line(tmp_path, capsys, monkeypatch):
    report = small_report()
    report["steps"] = [dict(step, kind=f"kind {i}") for i, step in enumerate(report["steps"] * 33)]
    code, _ = run_cli(tmp_path, report)
    assert code == 1 and capsys.readouterr().err.endswith(": steps have 66 kinds, more than the 64 a report may have\n")
    monkeypatch.setattr("ipu_lower.report_html.MAX_REPORT_BYTES", 100)
    code, _ = run_cli(tmp_path, small_report())
    assert code == 1 and capsys.readouterr().err.endswith("report.json' is larger than 100 bytes\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


@pytest.mark.parametrize("argv, message", [
    ([], "the following arguments are required: report, -o/--output"),
    (["r.json"], "the following arguments are required: -o/--output"),
    (["r.json", "-o", "r.html", "--max-steps", "x"], "argument --max-steps: invalid int value: 'x'"),
    (["r.json", "-o", "r.html", "--max-steps", "0"], "--max-steps must be at least 1"),
    (["r.json", "-o", "r.html", "--colour"], "unrecognized arguments: --colour"),
])
def test_a_usage_error_is_one_line_with_exit_code_1(capsys, argv, message):
    with pytest.raises(SystemExit, match="1"):
        ipu_lower_report_main(argv)
    assert capsys.readouterr().err == f"ipu-lower-report: error: {message} (see ipu-lower-report --help)\n"


@pytest.mark.parametrize("output", ["", ".", "..", "/"])
def test_an_output_that_names_a_directory_is_one_line(tmp_path, capsys, monkeypatch, output):
    monkeypatch.chdir(tmp_path)
    Path("report.json").write_text(json.dumps(small_report()))
    with pytest.raises(SystemExit, match="1"):
        ipu_lower_report_main(["report.json", "-o", output])
    assert capsys.readouterr().err == f"ipu-lower-report: error: cannot write '{Path(output)}': it is a directory\n"
    assert os.listdir() == ["report.json"] and not list(Path("/").glob(".*.tmp"))


def test_a_symlink_loop_is_no_traceback(tmp_path, capsys):
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    with pytest.raises(SystemExit, match="1"):
        ipu_lower_report_main([str(loop), "-o", str(tmp_path / "r.html")])
    assert capsys.readouterr().err == f"ipu-lower-report: error: cannot read '{loop}': Too many levels of symbolic links\n"
    (tmp_path / "report.json").write_text(json.dumps(small_report()))
    ipu_lower_report_main([str(tmp_path / "report.json"), "-o", str(loop)])  # the link is replaced, as by mv
    assert loop.read_text().startswith("<!DOCTYPE html>")


def test_text_without_a_utf8_encoding_is_shown_escaped(tmp_path):
    """A lone surrogate: JSON's "\\ud800" in a step's name or kind, or a byte of a file
    name or title that is not UTF-8 (Python reads those as surrogates)."""
    report = small_report()
    report["steps"][0]["name"] = "a\ud800b"
    report["steps"][1]["kind"] = "\udfff"
    source, page = tmp_path / os.fsdecode(b"r\xff.json"), tmp_path / "page.html"
    source.write_text(json.dumps(report))  # ASCII: json.dumps escapes the surrogates
    ipu_lower_report_main([str(source), "-o", str(page)])
    elements = Elements(page.read_text(encoding="utf-8"))
    assert {"a\\ud800b", "\\udfff", "Cycle report: r\\udcff.json"} <= set(elements.text)
    ipu_lower_report_main([str(source), "-o", str(page), "--title", os.fsdecode(b"\xfe")])
    assert Elements(page.read_text(encoding="utf-8")).text.count("\\udcfe") == 2  # <title> and <h1>
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([source.name, "page.html"])  # no partial page

# -- what the page holds ---------------------------------------------------------------


class Elements(HTMLParser):
    """The start tags, text and attributes of a page, as a browser's parser sees them."""

    def __init__(self, page: str):
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []
        self.titles: list[str] = []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.titles += [v for k, v in attrs if k == "title"]

    def handle_data(self, data):
        self.text.append(data)


def test_strings_from_the_report_stay_text(tmp_path):
    report = small_report()
    name = "</td></tr><script>alert('name')</script> & \"quoted\" <!--"
    report["steps"][0]["name"] = name
    report["steps"][1]["kind"] = "<img src=x onerror=alert(1)>"
    code, page = run_cli(tmp_path, report, "--title", "<u>mine</u> & </title><script>x</script>")
    assert code == 0
    elements = Elements(page.read_text())
    assert not {"script", "img", "u"} & set(elements.tags)
    assert name in elements.text and name in elements.titles
    assert "<img src=x onerror=alert(1)>" in elements.text
    assert elements.text.count("<u>mine</u> & </title><script>x</script>") == 2  # <title> and <h1>


def test_tiles_lie_in_a_grid_coloured_against_capacity(tmp_path):
    assert (grid_columns(1472), grid_columns(1216)) == (46, 38)
    assert [colour(v, 10) for v in (0, 1, 5, 6, 10, 11)] == [ZERO_COLOUR, PALETTE[0], PALETTE[4], PALETTE[5], PALETTE[-1], OVER_COLOUR]
    report = small_report()
    report["tiles"].append([40, 300000, 0, 0])  # beyond ipu1's 256 KiB
    code, page = run_cli(tmp_path, report)
    assert code == 0
    html = page.read_text()
    memory, compute = re.findall(r'<svg class="heatmap".*?</svg>', html)
    cells = r'<rect x="(\d+)" y="(\d+)" width="11" height="11" fill="(#\w+)"><title>tile (\d+):'
    # 38 columns of 12 pixels after a 44-pixel margin: tile 40 is the third of the second row
    assert re.findall(cells, memory) == [("44", "4", PALETTE[0], "0"), ("104", "4", PALETTE[-1], "5"),
                                         ("68", "16", OVER_COLOUR, "40")]
    assert re.findall(cells, compute) == [("44", "4", PALETTE[-1], "0"), ("104", "4", PALETTE[4], "5"),
                                          ("68", "16", ZERO_COLOUR, "40")]
    assert "over capacity" in memory and "over capacity" not in compute


def test_a_large_report_is_capped_and_small(tmp_path):
    rng = np.random.default_rng(7)
    report = small_report()
    report.update(arch="ipu2", num_tiles=1472, tiles=[[t, int(rng.integers(0, 600000)), int(rng.integers(0, 9000)), 64]
                                                     for t in range(1472)])
    cycles = rng.integers(0, 5000, 10000)
    report["steps"] = [{"name": f"compute set {i} " + "x" * 500, "kind": "execute", "executions": 1, "compute_cycles": int(c),
                        "exchange_cycles": 10, "sync_cycles": 150, "cycles": int(c) + 160, "exchange_bytes": 40}
                       for i, c in enumerate(cycles)]
    start = time.perf_counter()
    code, page = run_cli(tmp_path, report)
    assert code == 0 and time.perf_counter() - start < 5
    html = page.read_text()
    assert len(html) < 600_000
    assert "10,000 steps: the 200 with the most cycles are listed in execution order" in html
    listed = [int(n) for n in re.findall(r'<tr><td class="n">(\d+)</td><td class="name"', html)]
    assert len(listed) == MAX_STEPS and listed == sorted(listed)
    assert min(cycles[i - 1] for i in listed) >= max(np.delete(cycles, [i - 1 for i in listed]))
    left_out = sum(int(n.replace(",", "")) for n in re.findall(r"not listed: ([\d,]+) cycles", html))
    assert left_out == sum(int(c) + 160 for c in np.delete(cycles, [i - 1 for i in listed]))
    assert "x" * 161 not in html  # names are cut
    code, page = run_cli(tmp_path, report, "--max-steps", "3")
    assert len(re.findall(r'<td class="name"', page.read_text())) == 3


# -- a real report in a real browser ---------------------------------------------------


def decode_png(data: bytes) -> np.ndarray:
    """The RGB pixels of an 8-bit, non-interlaced RGB(A) PNG (what chromium writes). Rows
    are unfiltered along anti-diagonals: pixel (y, x) depends only on (y, x-1), (y-1, x)
    and (y-1, x-1), so each diagonal is one vector step whatever filter its rows use."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, []
    while pos < len(data):
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", data[pos + 8:pos + 21])
        elif kind == b"IDAT":
            chunks.append(data[pos + 8:pos + 8 + size])
        pos += 12 + size
    assert depth == 8 and colour_type in (2, 6) and not interlace
    channels = 3 if colour_type == 2 else 4
    raw = np.frombuffer(zlib.decompress(b"".join(chunks)), np.uint8).reshape(height, 1 + width * channels)
    filters = raw[:, 0].astype(np.int16)
    filtered = raw[:, 1:].reshape(height, width, channels).astype(np.int16)
    out = np.zeros((height + 1, width + 1, channels), np.int16)  # a zero row above and column to the left
    for k in range(height + width - 1):
        y = np.arange(max(0, k - width + 1), min(height, k + 1))
        x = k - y
        left, up, corner = out[y + 1, x], out[y, x + 1], out[y, x]
        p = left + up - corner
        to_left, to_up, to_corner = np.abs(p - left), np.abs(p - up), np.abs(p - corner)
        paeth = np.where((to_left <= to_up) & (to_left <= to_corner), left, np.where(to_up <= to_corner, up, corner))
        f = filters[y][:, None]
        predicted = np.select([f == 1, f == 2, f == 3, f == 4], [left, up, (left + up) >> 1, paeth], 0)
        out[y + 1, x + 1] = (filtered[y, x] + predicted) & 0xFF
    return out[1:, 1:, :3].astype(np.uint8)


def chromium(tmp_path: Path, page: Path, *mode: str) -> subprocess.CompletedProcess:
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1400,1000"]
    return subprocess.run([CHROMIUM, *flags, *mode, page.as_uri()], capture_output=True, text=True, timeout=120, check=True)


@pytest.fixture(scope="module")
def real_report(tmp_path_factory) -> Path:
    """The report of jacobi_1d_steps over 2 x 1472 points run on the emulator: every tile
    holds data, tile 0 also runs the loop's counter."""
    if shutil.which("g++") is None:
        pytest.skip("needs g++")
    from test_e2e import jacobi_1d_steps, run_ipu

    n = 2 * ARCHS["ipu2"].tiles
    arrays = {"TSTEPS": np.int32(3), "A": np.linspace(0, 1, n, dtype=np.float32), "B": np.zeros(n, np.float32)}
    _, compiled = run_ipu(jacobi_1d_steps, arrays, {"N": n})
    path = tmp_path_factory.mktemp("report") / "jacobi.json"
    path.write_text(json.dumps(compiled.report))
    return path


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (apt-get install chromium), as .ci/run installs")
def test_headless_chromium_draws_the_heat_maps(real_report, tmp_path):
    page = tmp_path / "report.html"
    ipu_lower_report_main([str(real_report), "-o", str(page)])
    report = json.loads(real_report.read_text())
    tiles = report["tiles"]
    assert len(tiles) == report["num_tiles"] == 1472

    dom = chromium(tmp_path, page, "--dump-dom").stdout
    maps = re.findall(r'<svg class="heatmap".*?</svg>', dom, re.DOTALL)
    assert len(maps) == 2
    assert [m.count("<title>tile ") for m in maps] == [len(tiles)] * 2
    assert len(re.findall(r'<td class="name"', dom)) == len(report["steps"])

    chromium(tmp_path, page, f"--screenshot={tmp_path / 'shot.png'}")
    pixels = decode_png((tmp_path / "shot.png").read_bytes())
    assert pixels.shape == (1000, 1400, 3)
    packed = (pixels[..., 0].astype(np.int32) << 16) | (pixels[..., 1].astype(np.int32) << 8) | pixels[..., 2]
    found = dict(zip(*np.unique(packed, return_counts=True)))
    capacity, busiest = ARCHS["ipu2"].bytes_per_tile, max(t[2] for t in tiles)
    expected: dict[str, int] = {}
    for _, held, compute, _ in tiles:
        for fill in (colour(held, capacity), colour(compute, busiest)):
            expected[fill] = expected.get(fill, 0) + 1
    assert len(expected) >= 3  # tile 0 is the busiest: its compute colour is its own
    for fill, count in expected.items():  # 11 x 11 pixels a tile (the legends only add)
        assert found.get(int(fill[1:], 16), 0) >= 0.9 * 121 * count, fill
    heat = sum(found.get(int(c[1:], 16), 0) for c in [*PALETTE, ZERO_COLOUR, EMPTY_COLOUR, OVER_COLOUR])
    assert heat >= 0.2 * pixels.shape[0] * pixels.shape[1]
