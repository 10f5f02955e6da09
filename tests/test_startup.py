"""The tools start fast. ipu-opt's dialects, passes and target are registered by name and
imported when a run uses them, so `--help` imports neither DaCe nor numpy nor sympy, and
reading and printing IR imports only the dialects it holds, without numpy. ipu-run
imports what running a built program needs: no xDSL IR, sympy, DaCe or cost model.

Each test reads the modules a fresh process has imported (`sys.modules`), not times."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ipu_lower.cli import _POPLAR_CPP, _poplar_cpp_target
from ipu_lower.registry import get_all_dialects, get_all_passes

HEAVY = ("dace", "numpy", "sympy", "networkx", "ipu_lower.passes", "ipu_lower.dialects.sdfg",
         "ipu_lower.dialects.ipu", "ipu_lower.dialects.poplar", "ipu_lower.targets")
IR_HEAVY = ("dace", "numpy", "sympy", "networkx", "ipu_lower.passes", "ipu_lower.dialects.ipu",
            "ipu_lower.dialects.poplar", "ipu_lower.targets", "ipu_lower.cost_model", "ipu_lower.frontend.importer")
RUN_HEAVY = ("dace", "sympy", "networkx", "xdsl.ir", "xdsl.dialects", "ipu_lower.passes", "ipu_lower.dialects.sdfg",
             "ipu_lower.dialects.ipu", "ipu_lower.dialects.poplar", "ipu_lower.cost_model", "ipu_lower.frontend",
             "ipu_lower.element_types", "ipu_lower.targets.poplar_cpp", "ipu_lower.targets.host_printer",
             "ipu_lower.targets.codelet_printer", "ipu_lower.targets.print_context")
RUN_MAIN = "ipu_lower.run_cli:ipu_run_main"
EXAMPLES = Path(__file__).resolve().parents[1] / "ipu_lower" / "examples"
AXPY = Path(__file__).resolve().parent / "lit" / "Inputs" / "axpy.mlir"


@pytest.mark.parametrize("name", sorted(get_all_passes()))
def test_each_pass_is_registered_under_its_own_name(name):
    assert get_all_passes()[name]().name == name


@pytest.mark.parametrize("name", sorted(get_all_dialects()))
def test_each_dialect_is_registered_under_its_own_name(name):
    assert get_all_dialects()[name]().name == name


def test_the_target_is_registered_under_its_own_name():
    assert _poplar_cpp_target().name == _POPLAR_CPP


def _modules_after(args: list[str], main: str = "ipu_lower.cli:ipu_opt_main") -> set[str]:
    """The modules a fresh process has imported once `main(ARGS)` (ipu-opt's unless
    given) returns."""
    module, function = main.split(":")
    script = (
        "import sys\n"
        f"from {module} import {function}\n"
        f"try: {function}({args!r})\n"
        "except SystemExit: pass\n"
        "print(' '.join(sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return set(result.stderr.splitlines()[-1].split())


def _heavy(modules: set[str], heavy: tuple[str, ...] = HEAVY) -> set[str]:
    return {m for m in modules if m.startswith(heavy)}


def test_help_imports_no_pass_dialect_dace_numpy_or_sympy():
    modules = _modules_after(["--help"])
    assert "xdsl.xdsl_opt_main" in modules  # the process did get as far as the help
    assert _heavy(modules) == set()


def test_a_run_imports_what_it_uses(tmp_path):
    """The same measurement sees the imports of a real lowering (so the test above can fail)."""
    modules = _modules_after(["--version"])
    assert _heavy(modules) == set()
    source = tmp_path / "empty.mlir"
    source.write_text("builtin.module {}\n")
    modules = _modules_after([str(source), "-p", "ipu-plan-exchange", "-t", "poplar-cpp"])
    assert "ipu_lower.passes.plan_exchange" in modules
    assert "ipu_lower.targets.poplar_cpp" in modules
    assert "ipu_lower.passes.tile_partition" not in modules  # a pass the run does not use


def test_reading_and_printing_ir_imports_its_dialects_only():
    """No numpy, sympy or DaCe, nor the ipu and poplar dialects the input does not hold."""
    modules = _modules_after([str(AXPY)])
    assert {"ipu_lower.dialects.sdfg", "xdsl.dialects.arith"} <= modules
    assert _heavy(modules, IR_HEAVY) == set()


def test_ipu_run_help_imports_no_ir_sympy_dace_or_cost_model():
    modules = _modules_after(["--help"], RUN_MAIN)
    assert "ipu_lower.runtime" in modules and "numpy" in modules  # it did import the runtime
    assert _heavy(modules, RUN_HEAVY) == set()


@pytest.mark.build
def test_ipu_run_of_a_built_program_imports_no_ir_sympy_dace_or_cost_model(tmp_path):
    from ipu_lower.cli import ipu_opt_main

    out = tmp_path / "saxpy"
    ipu_opt_main([str(EXAMPLES / "saxpy.sdfg"), "--symbols", "N=8", "-p", "sdfg-to-poplar", "-t", "poplar-cpp",
                  "-o", str(out)])
    np.save(tmp_path / "x.npy", np.arange(8, dtype=np.float32))
    np.save(tmp_path / "y.npy", np.ones(8, np.float32))
    modules = _modules_after([str(out), "--arg", "a=2", "--arg", f"x={tmp_path / 'x.npy'}",
                              "--arg", f"y={tmp_path / 'y.npy'}"], RUN_MAIN)
    np.testing.assert_array_equal(np.load(tmp_path / "y.npy"), 2 * np.arange(8, dtype=np.float32) + 1)  # it ran
    assert _heavy(modules, RUN_HEAVY) == set()
    # What the same measurement sees of a lowering (so that the assertion above can fail).
    assert _heavy(_modules_after([str(AXPY), "--symbols", "N=6", "-p", "sdfg-to-poplar"]), RUN_HEAVY)


def test_a_tasklet_naming_dace_does_not_ask_dace_for_the_free_symbols(tmp_path, monkeypatch):
    """`dace.float32(1.5)` names the module, not a symbol: the importer answers that
    without DaCe's walk of every state for the SDFG's free symbols."""
    import dace

    from ipu_lower.frontend.importer import import_sdfg
    from tests.test_compile_scaling import _benchmark

    sdfg = _benchmark().chain_sdfg(3)
    assert "dace.float32" in next(n for n in sdfg.all_nodes_recursive() if isinstance(n[0], dace.nodes.Tasklet))[0].code.as_string
    walks = []
    free_symbols = dace.SDFG.free_symbols
    monkeypatch.setattr(dace.SDFG, "free_symbols", property(lambda s: walks.append(s) or free_symbols.fget(s)))
    import_sdfg(sdfg)
    assert walks == []


def test_the_collector_runs_rarely_during_a_run_and_is_restored(tmp_path):
    import gc

    from ipu_lower.examples import __file__ as examples
    from ipu_lower.cli import ipu_opt_main

    saxpy = Path(examples).parent / "saxpy.sdfg"
    collections = []
    callback = lambda phase, info: phase == "start" and collections.append(gc.get_threshold()[0])  # noqa: E731
    before = gc.get_threshold()
    gc.callbacks.append(callback)
    try:
        ipu_opt_main([str(saxpy), "--symbols", "N=1000", "-p", "sdfg-to-poplar", "-t", "poplar-cpp",
                      "-o", str(tmp_path / "out")])
    finally:
        gc.callbacks.remove(callback)
    assert gc.get_threshold() == before
    assert len(collections) < 5, collections  # at Python's default, 700, dozens
