"""ipu-opt reads an SDFG in time linear in its size: unused transient containers and
states in sequence (the import once asked DaCe for the SDFG's free symbols at every
tasklet, a walk of all states each). Counts Python function calls of the load and import
(deterministic, unlike seconds on a shared machine) at sizes n, 2n and 4n: linear work
grows by the same amount from 2n to 4n as twice from n to 2n, quadratic work by four
times as much."""

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "compile_time.py"


def _benchmark():
    spec = importlib.util.spec_from_file_location("compile_time_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _calls(path: Path) -> int:
    """Python calls made while loading `path` into the sdfg dialect."""
    from xdsl.context import Context

    from ipu_lower.frontend.frontends import SdfgFrontend

    count = 0

    def profile(_frame, event, _arg):
        nonlocal count
        count += event == "call"

    sys.setprofile(profile)
    try:
        with open(path, "rb") as f:
            SdfgFrontend().parse(Context(), f, str(path))
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("unused, states", [((30, 60, 120), (2, 2, 2)), ((0, 0, 0), (8, 16, 32))],
                         ids=["unused-containers", "states"])
def test_work_grows_linearly(tmp_path, unused, states):
    benchmark = _benchmark()
    paths = []
    for k, (u, s) in enumerate(zip(unused, states)):
        paths.append(tmp_path / f"large_{k}.sdfg")
        benchmark.chain_sdfg(s, u).save(str(paths[-1]))
    _calls(paths[0])  # first imports and caches are not the work measured
    counts = [_calls(path) for path in paths]
    small, middle, big = counts
    assert small < middle < big
    assert (big - middle) < 3 * (middle - small), counts
