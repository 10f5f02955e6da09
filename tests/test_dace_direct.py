"""DaCe's reference builds in one compiler call (dace_direct.py): the same machine code as
DaCe's cmake build, against the precompiled runtime header, loaded by DaCe's loader; cmake
for what one call cannot build; a new build for a changed program or flag."""

import copy
import shutil
import subprocess

import dace
import numpy as np
import pytest
from dace.config import set_temporary
from dace.sdfg.utils import load_precompiled_sdfg

import dace_direct
from dace_reference import BUILDS, build_key, build_program, parsed

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")

N = dace.symbol("N")
needs_cmake = pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake")


@dace.program
def row_sums(A: dace.float64[N, N], s: dace.float64[N]):
    for i in dace.map[0:N]:
        s[i] = np.sum(A[i, :]) * 0.5 + A[i, 0]


@pytest.fixture(scope="module")
def direct_build(tmp_path_factory):
    """`row_sums` built in one call: its SDFG and program folder."""
    sdfg, folder = parsed(row_sums), tmp_path_factory.mktemp("direct") / "row_sums"
    build_program(sdfg, folder)
    return sdfg, folder


def _machine_code(library) -> str:
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", library], capture_output=True, text=True, check=True)
    return listing.stdout.split("\n", 3)[3]  # after the line that names the file


@needs_cmake
@pytest.mark.skipif(shutil.which("objdump") is None, reason="needs objdump")
def test_one_call_builds_the_machine_code_of_dace_cmake_build(direct_build, tmp_path):
    sdfg, folder = direct_build
    assert not (folder / "build" / "CMakeCache.txt").exists()
    theirs = copy.deepcopy(sdfg)
    theirs.build_folder = str(tmp_path / "cmake")
    theirs.compile(return_program_handle=False)
    assert _machine_code(folder / "build" / "librow_sums.so") == _machine_code(tmp_path / "cmake" / "build" / "librow_sums.so")


def test_the_program_compiles_against_the_precompiled_runtime_header(direct_build):
    _, folder = direct_build
    command = dace_direct.library_command(folder, "row_sums", dace_direct.runtime(BUILDS))
    included = subprocess.run([*command, "-fsyntax-only", "-H"], capture_output=True, text=True, check=True).stderr
    assert any(line.startswith("! ") and line.endswith("dace.h.gch") for line in included.splitlines()), included


def test_dace_loader_runs_the_build(direct_build):
    _, folder = direct_build
    A = np.random.default_rng(1).uniform(-1, 1, (5, 5))
    s = np.zeros(5)
    load_precompiled_sdfg(str(folder))(A=A, s=s, N=5)
    np.testing.assert_allclose(s, A.sum(axis=1) * 0.5 + A[:, 0])


def _environment(name: str, **fields):
    """A DaCe environment registered as `name`, with the given fields and the others empty."""
    empty = dict(cmake_minimum_version=None, cmake_packages=[], cmake_variables={}, cmake_includes=[],
                 cmake_libraries=[], cmake_compile_flags=[], cmake_link_flags=[], cmake_files=[], headers=[],
                 state_fields=[], init_code="", finalize_code="", dependencies=[])
    return dace.library.environment(type(name, (), empty | fields))


def _scaled(environment) -> dace.SDFG:
    """b = direct_scale(a), a function of the environment's header."""
    sdfg = dace.SDFG("scaled")
    sdfg.add_array("a", [4], dace.int32)
    sdfg.add_array("b", [4], dace.int32)
    tasklet, _, _ = sdfg.add_state().add_mapped_tasklet(
        "scale", {"i": "0:4"}, {"x": dace.Memlet("a[i]")}, "y = direct_scale(x);", {"y": dace.Memlet("b[i]")},
        language=dace.Language.CPP, external_edges=True)
    tasklet.environments = {environment.full_class_path()}
    return sdfg


@pytest.mark.parametrize("packages, by_cmake", [([], False), pytest.param(["Threads"], True, marks=needs_cmake)])
def test_an_environment_includes_and_flags_build_in_one_call_its_packages_by_cmake(tmp_path, packages, by_cmake):
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "direct_scale.h").write_text("inline int direct_scale(int x) { return SCALE * x; }\n")
    environment = _environment(f"DirectScale{len(packages)}", cmake_includes=[str(tmp_path / "include")],
                               cmake_compile_flags=["-DSCALE=3"], headers=["direct_scale.h"], cmake_packages=packages)
    folder = tmp_path / "scaled"
    build_program(_scaled(environment), folder)
    assert (folder / "build" / "CMakeCache.txt").exists() == by_cmake
    a, b = np.arange(4, dtype=np.int32), np.zeros(4, dtype=np.int32)
    load_precompiled_sdfg(str(folder))(a=a, b=b)
    np.testing.assert_array_equal(b, 3 * a)


def _program_folder(tmp_path, files: str, environment=None):
    (tmp_path / "dace_files.csv").write_text(files)
    (tmp_path / "dace_environments.csv").write_text(environment.full_class_path() if environment else "")
    return tmp_path


@pytest.mark.parametrize("fields, reason", [
    ({"cmake_packages": ["BLAS"]}, "DACE_ENV_PACKAGES BLAS"),
    ({"cmake_libraries": ["/usr/lib/libm.so"]}, "DACE_ENV_LIBRARIES /usr/lib/libm.so"),
    ({"cmake_files": ["/tmp/find.cmake"]}, "DACE_ENV_CMAKE_FILES /tmp/find.cmake"),
    ({"cmake_variables": {"FOO": "1"}}, "DACE_ENV_VAR_KEYS FOO"),
    ({"cmake_link_flags": ["-lm"]}, "link flags -lm"),
    ({"cmake_includes": ["${FOO_INCLUDE}"]}, "cmake variables in the includes or flags"),
    ({"cmake_includes": ["/opt/foo"], "cmake_compile_flags": ["-DFOO"]}, None),
])
def test_an_environment_needs_cmake_for_packages_libraries_and_variables(tmp_path, fields, reason):
    environment = _environment("NeedsCmake", **fields)
    assert dace_direct.cmake_only(_program_folder(tmp_path, "cpu,,p.cpp\n", environment)) == reason


def test_code_for_another_target_needs_cmake(tmp_path):
    assert dace_direct.cmake_only(_program_folder(tmp_path, "cpu,,p.cpp\nmpi,,p_mpi.cpp")) == "code for mpi"


@pytest.mark.parametrize("path, value, reason", [
    (("compiler", "build_type"), "Coverage", "build type Coverage"),
    (("compiler", "cpu", "libs"), "m", "compiler.cpu.libs is set"),
    (("compiler", "extra_cmake_args"), "-DX=1", "compiler.extra_cmake_args is set"),
    (("compiler", "linker", "executable"), "ld.gold", "compiler.linker.executable is set"),
])
def test_config_values_only_cmake_reads_need_cmake(tmp_path, path, value, reason):
    folder = _program_folder(tmp_path, "cpu,,p.cpp")
    assert dace_direct.cmake_only(folder) is None
    with set_temporary(*path, value=value):
        assert dace_direct.cmake_only(folder) == reason


def test_a_changed_program_compiler_flag_or_build_type_is_a_new_build(monkeypatch):
    sdfg = parsed(row_sums)
    key = build_key(sdfg)
    assert build_key(parsed(row_sums)) == key
    changed = parsed(row_sums)
    changed.add_array("unused", [1], dace.float64, transient=True)
    keys = {build_key(changed)}
    # DaCe reads a DACE_<path> variable before its config (conftest.py sets the flags so).
    for variable, value in [("cpu_args", "-std=c++14 -fPIC -O2"), ("cpu_executable", "clang++"), ("build_type", "Debug")]:
        with monkeypatch.context() as patch:
            patch.setenv(f"DACE_compiler_{variable}", value)
            keys.add(build_key(sdfg))
    assert key not in keys and len(keys) == 4
