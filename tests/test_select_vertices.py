"""ipu-select-vertices: which poplibs call a codelet's work is (pure functions), what the
two estimates say, and programs run on the emulator both ways with results equal to
NumPy's: saxpy (popops::scaledAddTo), a binary op, a unary op and a cast (mapWithOutput,
cast); a fused chain stays our codelet because poplibs would pay one vertex and one
sync per op where the codelet reads each input once; the report lists each choice."""

import json
import re

import dace
import numpy as np
import pytest

import ipu_lower
from ipu_lower.arch import get_arch
from ipu_lower.dialects import poplar
from ipu_lower.dialects.popops_elementwise import CHOICE
from ipu_lower.emit import emit_program, lower_program
from ipu_lower.examples.saxpy import saxpy
from ipu_lower.passes.select_vertices import Work, choice_summary, match_work, poplibs_cycles
from ipu_lower.poplibs_estimates import binary_op_1d, cast_1d, scaled_add_supervisor, scaled_subtract_supervisor
from ipu_lower.report_html import ipu_lower_report_main
from test_e2e import assert_as_planned

N, M, K = (dace.symbol(s) for s in "NMK")
X, Y, S = ("field", 0), ("field", 1), ("scalar", 2)


@dace.program
def elementwise(x: dace.float32[N], y: dace.float32[N], z: dace.float32[N], u: dace.float32[M],
                v: dace.float32[M], c: dace.float32[K], h: dace.float16[K]):
    z[:] = x + y
    v[:] = np.exp(u)
    for i in dace.map[0:K]:
        h[i] = c[i]


@dace.program
def fma3(x: dace.float32[N], y: dace.float32[N], z: dace.float32[N], w: dace.float32[N]):
    w[:] = x * y + z


# -- which call: pure functions ------------------------------------------------------------


@pytest.mark.parametrize(
    "expression",
    [
        ("ADD", ("MULTIPLY", S, X), Y),  # a * x + y
        ("ADD", Y, ("MULTIPLY", X, S)),  # y + x * a
        ("ADD", ("MULTIPLY", X, S), Y),
    ],
)
def test_scaled_add_in_any_order(expression):
    assert match_work(1, expression) == Work("scaledAddTo", (), (1, 0, 2))


def test_scaled_subtract_and_what_is_not_a_scaled_add():
    assert match_work(1, ("SUBTRACT", Y, ("MULTIPLY", S, X))) == Work("scaledSubtractFrom", (), (1, 0, 2))
    assert match_work(1, ("SUBTRACT", ("MULTIPLY", S, X), Y)) is None  # a * x - y: no poplibs vertex
    assert match_work(3, ("ADD", ("MULTIPLY", S, X), Y)) is None  # into a third tensor: a scalar operand


def test_binary_unary_cast_and_chain():
    assert match_work(2, ("ADD", X, Y)) == Work("mapWithOutput", ("ADD",), (0, 1, 2))
    assert match_work(1, ("EXPONENT", X)) == Work("mapWithOutput", ("EXPONENT",), (0, 1))
    assert match_work(1, ("CAST", X)) == Work("cast", (), (0, 1))
    assert match_work(2, ("ADD", ("MULTIPLY", X, Y), X)) == Work("map", ("MULTIPLY", "ADD"))


def test_in_place_needs_the_output_first_or_a_commutative_op():
    assert match_work(1, ("SUBTRACT", Y, X)) == Work("mapInPlace", ("SUBTRACT",), (1, 0))
    assert match_work(1, ("ADD", X, Y)) == Work("mapInPlace", ("ADD",), (1, 0))
    assert match_work(1, ("SUBTRACT", X, Y)) is None  # x - y into y
    assert match_work(0, ("NEGATE", X)) is None  # unary in place
    assert match_work(0, ("CAST", X)) is None


def test_poplibs_prices_a_chain_per_call_and_a_sync_between():
    n, workers, sync = 68, 6, get_arch("ipu2").sync_cycles
    chain = Work("map", ("MULTIPLY", "ADD"))
    expected = binary_op_1d("multiply", "float", n) + binary_op_1d("add", "float", n) + sync
    assert poplibs_cycles(chain, ["float"] * 4, n, workers, sync) == expected


# -- poplibs' estimates added for it ------------------------------------------------------


def test_cast_1d_by_hand():
    # float -> half, 100 elements: 17 per worker, vectors of 4 (two 64-bit loads of 2
    # floats, one 64-bit store of 4 halves), 2 cycles each: 19 + 2 * 4, then remainder
    # 1: bit 0 set (1 + 2), bit 1 clear (1); 12 + 6 * (31 + 18).
    assert cast_1d("float", "half", 100) == 306
    # half -> float: vectors of 2 (one store of 2 floats), 1 cycle each: 19 + 8 + 1 + 2.
    assert cast_1d("half", "float", 100) == 12 + 6 * (30 + 18)
    with pytest.raises(ValueError, match="to itself"):
        cast_1d("float", "float", 4)


def test_scaled_subtract_is_scaled_add_and_seven():
    for n in (1, 2, 100, 1001):
        assert scaled_subtract_supervisor("half", n) == scaled_add_supervisor("half", n, False) + 7


# -- the decision on real programs --------------------------------------------------------


def _choices(module) -> dict[str, dict]:
    """The decision on each add_vertices (by codelet) or poplibs call (by label)."""
    found = {}
    for op in module.walk():
        if (choice := op.attributes.get(CHOICE)) is not None:
            name = op.codelet.root_reference.data if isinstance(op, poplar.AddVerticesOp) else op.label.data
            found[name] = choice_summary(choice)
    return found


def test_a_fused_chain_stays_our_codelet():
    n = 100_000  # 68 elements on the busiest tile of ipu2
    choice = _choices(lower_program(fma3, {"N": n}, None))["fma3_Mult_map"]
    arch = get_arch("ipu2")
    busiest = -(-n // arch.tiles)
    # poplibs would run w = x * y, then w += z: two BinaryOp1D vertices, each loading
    # two vectors and storing one per element pair (24 bytes of tile memory per float
    # pair each, 48 for the two), and a second superstep; the fused codelet loads three
    # and stores one (32 bytes).
    two_calls = binary_op_1d("multiply", "float", busiest) + binary_op_1d("add", "float", busiest) + arch.sync_cycles
    assert choice["poplibs_cycles"] == two_calls
    assert choice["codelet_cycles"] < two_calls
    assert choice["implementation"] == "codelet"
    # forcing poplibs does not split a chain: the program has no temporaries for it
    assert _choices(lower_program(fma3, {"N": n}, None, prefer="poplibs"))["fma3_Mult_map"]["implementation"] == "codelet"


def test_auto_picks_the_smaller_estimate():
    for choice in _choices(lower_program(elementwise, {"N": 60_000, "M": 700, "K": 8}, None)).values():
        cheaper = "poplibs" if choice["poplibs_cycles"] < choice["codelet_cycles"] else "codelet"
        assert choice["implementation"] == cheaper


# -- both ways on the emulator ------------------------------------------------------------


@pytest.mark.parametrize("prefer", ["codelet", "poplibs"])
def test_saxpy_both_ways(prefer):
    n = 1000
    program = ipu_lower.compile(saxpy, symbols={"N": n}, prefer=prefer)
    rng = np.random.default_rng(1)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    expected = np.float32(2.5) * x + y
    program(a=np.float32(2.5), x=x, y=y)
    np.testing.assert_allclose(y, expected, rtol=1e-6)
    (step,) = program.report["steps"]
    assert step["kind"] == ("elementwise" if prefer == "poplibs" else "execute")
    assert_as_planned(program)  # what ran, how often and what crossed tiles, as planned


@pytest.mark.parametrize("prefer", ["codelet", "poplibs"])
def test_binary_unary_and_cast_both_ways(prefer):
    sizes = {"N": 600, "M": 700, "K": 803}
    program = ipu_lower.compile(elementwise, symbols=sizes, prefer=prefer)
    rng = np.random.default_rng(2)
    x, y = rng.random(600, dtype=np.float32), rng.random(600, dtype=np.float32)
    u = rng.standard_normal(700).astype(np.float32)
    c = (rng.standard_normal(803) * 100).astype(np.float32)
    z, v, h = np.zeros(600, np.float32), np.zeros(700, np.float32), np.zeros(803, np.float16)
    program(x=x, y=y, z=z, u=u, v=v, c=c, h=h)
    np.testing.assert_array_equal(z, x + y)
    np.testing.assert_allclose(v, np.exp(u), rtol=1e-6)
    np.testing.assert_array_equal(h, c.astype(np.float16))
    kinds = [s["kind"] for s in program.report["steps"]]
    assert kinds == (["elementwise"] * 3 if prefer == "poplibs" else ["execute"] * 3)
    assert_as_planned(program)


# -- the report ----------------------------------------------------------------------------


REPORT = {
    "emulator": "ipu-lower CPU emulator", "arch": "ipu2", "num_tiles": 1472, "clock_hz": 1330000000,
    "total_cycles": 322, "estimated_seconds": 2.4e-7,
    "totals": {"compute_cycles": 171, "exchange_cycles": 1, "sync_cycles": 150},
    "steps": [{"name": "saxpy_Mult_map", "kind": "elementwise", "executions": 1, "compute_cycles": 171,
               "exchange_cycles": 1, "sync_cycles": 150, "cycles": 322, "exchange_bytes": 1996}],
    "tile_columns": ["tile", "bytes", "compute_cycles", "exchange_bytes"], "tiles": [[0, 20, 0, 0]],
}


def _page(tmp_path, program: dict) -> tuple[int, str]:
    (tmp_path / "report.json").write_text(json.dumps(REPORT))
    (tmp_path / "program.json").write_text(json.dumps(program))
    page = tmp_path / "page.html"
    try:
        ipu_lower_report_main([str(tmp_path / "report.json"), "-o", str(page), "--program", str(tmp_path / "program.json")])
    except SystemExit as exit:
        return exit.code, ""
    return 0, page.read_text()


def test_the_report_lists_each_choice_with_both_estimates(tmp_path):
    files = emit_program(saxpy, {"N": 100}, None, prefer="poplibs")
    status, page = _page(tmp_path, json.loads(files["program.json"]))
    assert status == 0
    row = re.search(r"<h2>Vertex choices</h2>.*?<tbody>(.*?)</tbody>", page).group(1)
    assert row == ('<tr><td>saxpy_Mult_map</td><td>scaledAddTo</td><td><b>poplibs</b></td>'
                   '<td class="n">215</td><td class="n">171</td></tr>')


def test_a_malformed_choice_is_one_line(tmp_path, capsys):
    program = {"vertex_choices": [{"step": "s", "implementation": "asm", "call": "map", "ops": [],
                                   "codelet_cycles": 1, "poplibs_cycles": 2}]}
    assert _page(tmp_path, program) == (1, "")
    err = capsys.readouterr().err
    assert err == (f"ipu-lower-report: error: '{tmp_path / 'program.json'}': vertex_choices[0].implementation "
                   'must be codelet or poplibs, got "asm"\n')


def test_the_report_lists_each_codelet_as_emitted_and_as_asm(tmp_path):
    """The chain's codelet: the estimate the host prints, and the asm bound for its body
    (Schedule.ASM), both for the busiest vertex, as program.json carries them."""
    files = emit_program(fma3, {"N": 100_000}, None)
    program = json.loads(files["program.json"])
    module = lower_program(fma3, {"N": 100_000}, None)
    (placement,) = [op for op in module.walk() if isinstance(op, poplar.AddVerticesOp)]
    (estimate,) = program["vertex_estimates"]
    assert estimate["emitted"] == max(placement.run_cycles())
    assert 0 < estimate["asm"] < estimate["emitted"]  # paired loads and rpt loops: fewer cycles
    status, page = _page(tmp_path, program)
    assert status == 0
    row = re.search(r"<h2>Vertex estimates</h2>.*?<tbody>(.*?)</tbody>", page).group(1)
    assert row == (f'<tr><td>{estimate["step"]}</td><td>{estimate["codelet"]}</td>'
                   f'<td class="n">{estimate["emitted"]:,}</td><td class="n">{estimate["asm"]:,}</td>'
                   f'<td class="n">{estimate["emitted"] / estimate["asm"]:.2f}</td></tr>')


def test_a_malformed_vertex_estimate_is_one_line(tmp_path, capsys):
    program = {"vertex_estimates": [{"step": "s", "codelet": "c", "emitted": "many", "asm": 2}]}
    assert _page(tmp_path, program) == (1, "")
    assert "vertex_estimates[0].emitted" in capsys.readouterr().err
