"""The benchmarks still run: each at a small size, its table checked for what it claims."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ipu_lower.arch import get_arch

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def test_stencil_benchmark_prints_a_step_against_its_bounds():
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / "stencil.py"), "--sizes", "66"], capture_output=True, text=True, check=True
    ).stdout
    row = next(line for line in out.splitlines() if line.lstrip().startswith("66x66")).split()
    assert row[1] == "grid"  # a five-point stencil exchanges less in boxes than in strips
    values = [float(v) for v in row[2:]]
    points, compute, memory_bound, received, needed, exchange, exchange_bound, sync, total, bound, strips, blocks = values
    assert points == 3  # the 64 x 64 interior in boxes of 3 points over 1472 tiles
    assert compute > memory_bound > 0 and total > bound > 0
    # per sweep, each vertex receives its box's ring (corners included) and the constant
    assert received == 2 * (3 * 5 - 3 + 1) * 4 and received >= needed > 0
    assert exchange == received / 4 and sync == 3 * 150  # 4 bytes a cycle; the constant's own compute set
    assert needed < received < strips


def test_reduction_benchmark_prints_the_tree_and_its_alternatives():
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / "reduction.py"), "--sizes", "100000"], capture_output=True, text=True, check=True
    ).stdout
    rows = [line.split() for line in out.splitlines() if line.split() and line.split()[-2:-1] and line.split()[-1].isdigit()]
    levels = [row for row in rows if row[-2] in ("folded", "float2", "outputs", "final")]
    assert levels[0][:5] == ["100000", "0", "1472", "68", "folded"]  # x where it lies: 68 floats a tile
    assert levels[-1][-2] == "final" and levels[-1][-4] == "1" and len(levels) >= 3
    summary = next(line for line in out.splitlines() if "total" in line)
    total, two, one = (int(summary.split(word)[1].split()[0].rstrip(";")) for word in ("total", "2 levels", "1 level"))
    assert total == sum(int(row[-1]) for row in levels) and total < two < one
    popops = int(summary.split("popops::reduce")[1].split()[0])
    assert 0 < popops < total  # popops' plan of the same sum, in fewer and cheaper stages


def test_matmul_benchmark_prints_poplin_and_the_map_expansion_against_the_peak():
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / "matmul.py"), "--sizes", "64"], capture_output=True, text=True, check=True
    ).stdout
    rows = [line.split() for line in out.splitlines() if line.split()[:1] == ["64"]]
    by_lowering = {(r[1], " ".join(r[2:-7])): r for r in rows}
    assert sorted(by_lowering) == [(t, lowering) for t in ("float16", "float32") for lowering in ("DaCe map", "poplin")]
    for element in ("float32", "float16"):
        poplin, expansion = by_lowering[element, "poplin"], by_lowering[element, "DaCe map"]
        fraction = [float(r[-3].rstrip("%")) for r in (poplin, expansion)]
        assert 0 < fraction[1] < fraction[0] <= 100  # poplin is nearer the peak than our scalar codelets
        assert poplin[-2] == expansion[-2] == "1"  # 64^3 points fit without chunks
        assert int(poplin[-6]) >= float(poplin[-1]) > 0  # no estimate beats the peak
        assert poplin[-7] == "0.65(assumed)" and expansion[-7] == "-"  # the efficiency is labelled an input
        assert 0 < int(poplin[-5]) < int(poplin[-6])  # the split's exchange is part of the cycles


def test_roofline_rows_put_our_codelets_between_the_bound_and_poplibs():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import roofline
    finally:
        sys.path.remove(str(BENCHMARKS))
    rows = {(r.program, r.type_name): r for r in roofline.rows(get_arch("ipu2"), [2**16])}
    assert sorted({p for p, _ in rows}) == ["chain3", "jacobi", "saxpy", "sum"]
    assert {t for _, t in rows} == {"float16", "float32"}
    for r in rows.values():
        assert r.bound < r.asm < r.emitted, r  # asm bounds the C++ we emit; the hardware bounds both
        assert r.points >= 2**16 // 1472, r
    # saxpy as emitted is no better than poplibs' scaledAddTo, in asm better than it
    for t in ("float32", "float16"):
        saxpy = rows["saxpy", t]
        assert saxpy.asm < saxpy.poplibs < saxpy.emitted
