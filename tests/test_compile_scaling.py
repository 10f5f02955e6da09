"""ipu-opt's work grows linearly with the size of an SDFG: unused transient containers
and states in sequence, from reading the file to the printed C++. Counts Python function
calls (deterministic, unlike seconds on a shared machine) at sizes n, 2n and 4n: linear
work grows by the same amount from 2n to 4n as twice from n to 2n, quadratic work by four
times as much. What each count once caught: the import asked DaCe for the SDFG's free
symbols at every tasklet (a walk of all states each); every placement's verifier scanned
all codelets for its own; the estimate in program.json walked every block of every tile
map (`test_cost_model.test_exchange_work_does_not_grow_with_the_tiles`) and all uses of
a variable for its tile map; the IR was verified after each of a dozen passes."""

import importlib.util
import io
from pathlib import Path

import pytest
from call_counts import python_calls
from ir_helpers import parse, the
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from ipu_lower.arch import get_arch
from ipu_lower.cli import ipu_opt_main
from ipu_lower.cost_model import program_estimate
from ipu_lower.dialects import poplar
from ipu_lower.frontend.frontends import SdfgFrontend
from ipu_lower.pipelines import SdfgToPoplarPass
from ipu_lower.targets.poplar_cpp import PoplarCppTarget

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "compile_time.py"


def _benchmark():
    spec = importlib.util.spec_from_file_location("compile_time_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load(path: Path) -> ModuleOp:
    with open(path, "rb") as f:
        return SdfgFrontend().parse(Context(), f, str(path))


def _compile(path: Path) -> None:
    """What ipu-opt -p sdfg-to-poplar -t poplar-cpp does with the file."""
    module = _load(path)
    SdfgToPoplarPass(symbols="N=1000000").apply(Context(), module)
    PoplarCppTarget().emit(Context(), module, io.StringIO())


def _chains(tmp_path: Path, unused, states) -> list[Path]:
    benchmark = _benchmark()
    paths = []
    for k, (u, s) in enumerate(zip(unused, states)):
        paths.append(tmp_path / f"large_{k}.sdfg")
        benchmark.chain_sdfg(s, u).save(str(paths[-1]))
    return paths


def _assert_linear(counts: list[int], growth: float = 3) -> None:
    small, middle, big = counts
    assert small < middle < big
    assert (big - middle) < growth * (middle - small), counts


@pytest.mark.parametrize("unused, states", [((30, 60, 120), (2, 2, 2)), ((0, 0, 0), (8, 16, 32))],
                         ids=["unused-containers", "states"])
def test_reading_grows_linearly(tmp_path, unused, states):
    paths = _chains(tmp_path, unused, states)
    _load(paths[0])  # first imports and caches are not the work measured
    _assert_linear([python_calls(_load, path) for path in paths])


def test_lowering_grows_linearly(tmp_path):
    """Import, every pass of sdfg-to-poplar and the printer (with the estimate in
    program.json), on 4, 8 and 16 states."""
    paths = _chains(tmp_path, (0, 0, 0), (4, 8, 16))
    _compile(paths[0])
    _assert_linear([python_calls(_compile, path) for path in paths], growth=2.2)


def _placements(n: int) -> str:
    """A poplar program of `n` compute sets, each of one codelet of its own."""
    codelets = "\n".join(f'poplar.codelet @c{k}(%x: memref<?xf32> inout "x") {{\n}}' for k in range(n))
    steps = "\n".join(
        f'  %cs{k} = poplar.add_compute_set "cs{k}"\n'
        f'  poplar.add_vertices %cs{k} @c{k} over <0 to 2 x 4> ["x" = %x block] cycles [1] : !poplar.tensor<8xf32>\n'
        f"  %run{k} = poplar.execute %cs{k}"
        for k in range(n)
    )
    return f"""{codelets}
poplar.host_program @p arch "ipu2" args [] : [] build {{
  %x = poplar.add_variable "x" : !poplar.tensor<8xf32>
  poplar.map_tensor %x over <0 to 2 x 4> : !poplar.tensor<8xf32>
{steps}
  %all = poplar.sequence({", ".join(f"%run{k}" for k in range(n))})
  poplar.engine %all
}} run {{
^bb0:
}}
"""


def test_verifying_placements_grows_linearly():
    """Each poplar.add_vertices finds its codelet without scanning all the others."""
    modules = [parse(_placements(n), verify=False) for n in (50, 100, 200)]
    modules[0].verify()
    _assert_linear([python_calls(m.verify) for m in modules], growth=2.2)


def test_estimating_placements_grows_linearly():
    """The estimate finds a variable's tile map without scanning its uses (one per
    compute set that reads it)."""
    programs = [the(parse(_placements(n)), poplar.HostProgramOp) for n in (50, 100, 200)]
    program_estimate(programs[0], get_arch("ipu2"))
    _assert_linear([python_calls(program_estimate, p, get_arch("ipu2")) for p in programs], growth=2.2)


# (not --disable-verify: xdsl-opt turns attribute verification off for the whole process)
@pytest.mark.parametrize("flags, verified", [((), 2), (("--verify-each",), 21)])
def test_ipu_opt_verifies_the_input_and_the_result(tmp_path, monkeypatch, flags, verified):
    """The whole IR is verified before the first pass and after the last (and after
    every one of the twenty steps with --verify-each)."""
    path = _chains(tmp_path, (0,), (2,))[0]
    count = 0
    verify = ModuleOp.verify

    def counted(self, *args, **kwargs):
        nonlocal count
        count += 1
        return verify(self, *args, **kwargs)

    monkeypatch.setattr(ModuleOp, "verify", counted)
    ipu_opt_main([str(path), "--symbols", "N=64", "-p", "sdfg-to-poplar", "-t", "poplar-cpp", "-o", str(tmp_path / "out"),
                  *flags])
    assert (tmp_path / "out" / "host.cpp").exists()
    assert count == verified
