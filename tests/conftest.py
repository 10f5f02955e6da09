"""Built programs go to the repository's build/, not the user's ~/.cache (shared with lit).
Tests of the modules that build emitted C++ or DaCe programs are marked `build`; the fast
subset (README) runs `-m "not build"`."""

import os
from pathlib import Path

import pytest

os.environ.setdefault("IPU_LOWER_CACHE", str(Path(__file__).resolve().parents[1] / "build" / "test-cache"))
# DaCe's references build without -O3 -march=native -ffast-math (DaCe's default arguments):
# faster to build, and fast-math's flush-to-zero would otherwise hold for the rest of the pytest
# worker. DaCe's default build type (RelWithDebInfo) then adds -O2 -g -DNDEBUG, as its cmake does.
os.environ.setdefault("DACE_compiler_cpu_args", "-std=c++14 -fPIC -O1")

BUILDING_MODULES = {
    "test_benchmarks", "test_blas", "test_cache", "test_call_boundary", "test_constants", "test_contractions", "test_dace_direct", "test_dace_integration", "test_e2e", "test_emitted_cpp",
    "test_emulator", "test_emulator_headers", "test_library_fallbacks", "test_loop_extents", "test_map_loops", "test_nested_maps", "test_loop_breaks",
    "test_matmul", "test_popops_reduce", "test_program", "test_readme", "test_report_html", "test_sdfg_fusion", "test_select_vertices",
    "test_stream_chunks", "test_syntax_check", "test_tasklet_translation", "test_weak_literals",
}
"""Modules whose tests (some or all) compile emitted C++, run the emulator or build with DaCe."""


def pytest_collection_modifyitems(items):
    for item in items:
        if item.module.__name__ in BUILDING_MODULES:
            item.add_marker(pytest.mark.build)
