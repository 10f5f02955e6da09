"""ipu-opt takes time linear in the size of an SDFG: unused transient containers and
states in sequence. Counts Python function calls of the load and lowering in process
(deterministic, unlike seconds on a shared machine) at sizes n, 2n and 4n: linear work
grows by the same amount from 2n to 4n as twice from n to 2n, quadratic work by four
times as much."""

import importlib.util
import io
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
    """Python calls made while loading `path` and lowering it to Poplar C++."""
    from xdsl.context import Context
    from xdsl.passes import PassPipeline

    from ipu_lower.frontend.frontends import SdfgFrontend
    from ipu_lower.pipelines import SdfgToPoplarPass
    from ipu_lower.targets.poplar_cpp import PoplarCppTarget

    count = 0

    def profile(_frame, event, _arg):
        nonlocal count
        count += event == "call"

    sys.setprofile(profile)
    try:
        with open(path, "rb") as f:
            module = SdfgFrontend().parse(Context(), f, str(path))
        ctx = Context()
        PassPipeline(SdfgToPoplarPass(symbols="N=1024").steps(), lambda _p, m, _n: m.verify()).apply(ctx, module)
        PoplarCppTarget().emit(ctx, module, io.StringIO())
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("unused, states", [((30, 60, 120), (2, 2, 2)), ((0, 0, 0), (3, 6, 12))],
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
