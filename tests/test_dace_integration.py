"""The IPU's storage and schedule types in DaCe (ipu_lower.dace_types) and
`IPUTransformSDFG` (ipu_lower.transformations)."""

import shutil
import subprocess
import sys

import dace
import numpy as np
import pytest

import ipu_lower
from ipu_lower.transformations import IPUTransformSDFG

N = dace.symbol("N")
M = dace.symbol("M")


@dace.program
def scale(x: dace.float32[N], y: dace.float32[N]):
    for i in dace.map[0:N]:
        y[i] = x[i] * dace.float32(2)


@dace.program
def rows(A: dace.float32[M, N], B: dace.float32[M, N]):
    for i in dace.map[0:M]:
        for j in dace.map[0:N]:
            B[i, j] = A[i, j] + 1


def _fresh_python(code: str) -> str:
    """What `code` prints in a new interpreter (no registration carried over)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.mark.parametrize("imports", ["import ipu_lower; import dace", "import dace; import ipu_lower"])
def test_importing_ipu_lower_registers_the_ipu_types_in_either_order(imports):
    names = "'IPU_Tile' in dace.dtypes.StorageType.__members__, 'IPU_Workers' in dace.dtypes.ScheduleType.__members__"
    assert _fresh_python(f"{imports}; print({names})") == "True True"


def test_importing_ipu_lower_alone_does_not_import_dace():
    assert _fresh_python("import sys, ipu_lower; print('dace' in sys.modules)") == "False"


def test_the_transformation_marks_containers_and_maps():
    sdfg = rows.to_sdfg(simplify=True)
    assert sdfg.apply_transformations(IPUTransformSDFG) == 1
    sdfg.validate()
    assert {d.storage for d in sdfg.arrays.values()} == {dace.dtypes.StorageType.IPU_Tile}
    schedules = sorted(
        (state.entry_node(n) is None, n.map.schedule.name)
        for n, state in sdfg.all_nodes_recursive()
        if isinstance(n, dace.nodes.MapEntry)
    )
    assert schedules == [(False, "IPU_Workers"), (True, "IPU_Device")]


def test_a_saved_marked_sdfg_loads_in_a_fresh_process(tmp_path):
    sdfg = scale.to_sdfg(simplify=True)
    sdfg.apply_transformations(IPUTransformSDFG)
    path = tmp_path / "scale.sdfg"
    sdfg.save(str(path))
    code = f"import ipu_lower, dace; s = dace.SDFG.from_file({str(path)!r}); s.validate(); print(s.arrays['x'].storage.name)"
    assert _fresh_python(code) == "IPU_Tile"
    lowered = _fresh_python(f"from ipu_lower.cli import ipu_opt_main; ipu_opt_main([{str(path)!r}])")
    assert 'sdfg.container "x" storage "IPU_Tile" : !sdfg.array<N x f32>' in lowered


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_a_marked_sdfg_runs_like_the_unmarked_one():
    sdfg = scale.to_sdfg(simplify=True)
    sdfg.apply_transformations(IPUTransformSDFG)
    x, y = np.arange(37, dtype=np.float32), np.zeros(37, np.float32)
    ipu_lower.compile(sdfg, symbols={"N": 37})(x=x, y=y)
    np.testing.assert_array_equal(y, x * 2)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_a_map_scheduled_on_one_tiles_workers_runs_there():
    sdfg = scale.to_sdfg(simplify=True)
    (entry,) = [n for n, _ in sdfg.all_nodes_recursive() if isinstance(n, dace.nodes.MapEntry)]
    entry.map.schedule = dace.dtypes.ScheduleType.IPU_Workers
    x, y = np.arange(3001, dtype=np.float32), np.zeros(3001, np.float32)
    program = ipu_lower.compile(sdfg, symbols={"N": 3001})
    program(x=x, y=y)
    np.testing.assert_array_equal(y, x * 2)
    computing = [tile for tile, _, cycles, _ in program.report["tiles"] if cycles > 0]
    assert computing == [0]
    spread = ipu_lower.compile(scale, symbols={"N": 3001})
    spread(x=x, y=y)
    assert len([t for t in spread.report["tiles"] if t[2] > 0]) > 100
