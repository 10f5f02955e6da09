"""ipu-opt starts fast: its dialects, passes and target are registered by name and
imported when a run uses them, so `--help` imports neither DaCe nor numpy nor sympy."""

import subprocess
import sys
from pathlib import Path

import pytest

from ipu_lower.cli import _POPLAR_CPP, _poplar_cpp_target
from ipu_lower.registry import get_all_dialects, get_all_passes

HEAVY = ("dace", "numpy", "sympy", "networkx", "ipu_lower.passes", "ipu_lower.dialects.sdfg",
         "ipu_lower.dialects.ipu", "ipu_lower.dialects.poplar", "ipu_lower.targets")


@pytest.mark.parametrize("name", sorted(get_all_passes()))
def test_each_pass_is_registered_under_its_own_name(name):
    assert get_all_passes()[name]().name == name


@pytest.mark.parametrize("name", sorted(get_all_dialects()))
def test_each_dialect_is_registered_under_its_own_name(name):
    assert get_all_dialects()[name]().name == name


def test_the_target_is_registered_under_its_own_name():
    assert _poplar_cpp_target().name == _POPLAR_CPP


def _modules_after(args: list[str]) -> set[str]:
    """The modules a fresh process has imported once `ipu-opt ARGS` returns."""
    script = (
        "import sys\n"
        "from ipu_lower.cli import ipu_opt_main\n"
        f"try: ipu_opt_main({args!r})\n"
        "except SystemExit: pass\n"
        "print(' '.join(sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return set(result.stderr.split())


def _heavy(modules: set[str]) -> set[str]:
    return {m for m in modules if m.startswith(HEAVY)}


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
