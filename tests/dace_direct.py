"""DaCe's CPU build of a generated program folder in one compiler call, without cmake.

DaCe (`sdfg.compile()`) configures cmake on its own CMakeLists.txt for every program,
builds the program and a loader stub with make, and the parse of DaCe's runtime header
`dace/dace.h` is most of the compile. Here the program folder is still DaCe's
(`generate_program_folder`) and so is the loader (`load_precompiled_sdfg` finds
`build/lib<name>.so` and its stub beside it), but the library is compiled by one call
with the flags cmake would pass, against a precompiled `dace/dace.h`; the stub, the same
for every program, is built once. Both live in a runtime folder per compiler and flags.

A program that needs more than that (another target's code, an environment's cmake
package, library or variable, a config value only cmake reads) is built by cmake:
`cmake_only` says why.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shlex
import subprocess
from collections.abc import Sequence
from pathlib import Path

import dace
from dace.codegen import compiler
from dace.codegen.exceptions import CompilationError
from dace.config import Config

RUNTIME_INCLUDE = Path(dace.__file__).parent / "runtime" / "include"
STUB_SOURCE = Path(dace.__file__).parent / "codegen" / "tools" / "dacestub.cpp"

# CMake's CMAKE_CXX_FLAGS_<BUILD TYPE> for GCC, which DaCe's CMakeLists.txt leaves as they are.
_BUILD_TYPE_FLAGS = {
    "Debug": ["-g"],
    "Release": ["-O3", "-DNDEBUG"],
    "RelWithDebInfo": ["-O2", "-g", "-DNDEBUG"],
    "MinSizeRel": ["-Os", "-DNDEBUG"],
}
_CMAKE_ARGUMENT = re.compile(r'-D(\w+)="?(.*?)"?')


def compiler_command(environment_flags: Sequence[str] = ()) -> list[str]:
    """The compiler and the flags of a DaCe CPU compile, in cmake's order: the config's
    `compiler.cpu.args` and the environments' flags, the build type's flags, then what the
    library target adds (position independent code, OpenMP)."""
    cxx = Config.get("compiler", "cpu", "executable") or os.environ.get("CXX", "c++")
    args = shlex.split(Config.get("compiler", "cpu", "args"))
    build_type = _BUILD_TYPE_FLAGS[Config.get("compiler", "build_type")]
    return [cxx, *args, *environment_flags, *build_type, "-fPIC", "-fopenmp"]


def _sources(program_folder: Path) -> list[tuple[str, str, str]]:
    """(target, target type, file) of each file that DaCe links into the program."""
    lines = (program_folder / "dace_files.csv").read_text().splitlines()
    return [tuple(line.strip().split(",")) for line in lines if line.strip()]


def _environment(program_folder: Path) -> tuple[dict[str, str], set[str]]:
    """The program's environments as DaCe passes them to cmake: its `DACE_ENV_*`
    variables by name, and the link flags."""
    names = set(filter(None, (program_folder / "dace_environments.csv").read_text().splitlines()))
    arguments, link_flags = compiler.get_environment_flags(dace.library.get_environments_and_dependencies(names))
    return {m[1]: m[2] for m in map(_CMAKE_ARGUMENT.fullmatch, arguments)}, link_flags


def cmake_only(program_folder: Path) -> str | None:
    """Why only DaCe's cmake build can build the program, or None if one call can."""
    if Config.get("compiler", "build_type") not in _BUILD_TYPE_FLAGS:
        return f"build type {Config.get('compiler', 'build_type')}"
    for key in ("cpu.libs", "extra_cmake_args", "linker.executable"):
        if Config.get("compiler", *key.split(".")):
            return f"compiler.{key} is set"
    others = sorted({target for target, target_type, _ in _sources(program_folder) if (target, target_type) != ("cpu", "")})
    if others:
        return f"code for {', '.join(others)}"
    variables, link_flags = _environment(program_folder)
    for name in ("DACE_ENV_PACKAGES", "DACE_ENV_LIBRARIES", "DACE_ENV_CMAKE_FILES", "DACE_ENV_VAR_KEYS"):
        if variables[name]:
            return f"{name} {variables[name]}"
    if link_flags:
        return f"link flags {' '.join(sorted(link_flags))}"
    # A `$` (DaCe escapes it so) is a cmake variable to expand.
    if "_DACE_CMAKE_EXPAND" in variables["DACE_ENV_INCLUDES"] + variables["DACE_ENV_COMPILE_FLAGS"]:
        return "cmake variables in the includes or flags"
    return None


def _run(command: list) -> None:
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode:
        # DaCe's own message and error, which callers catch (a program the compiler rejects).
        raise CompilationError("Compiler failure:\n" + shlex.join(map(str, command)) + "\n" + result.stderr)


def runtime(root: Path) -> Path:
    """The folder, under `root`, of `dace/dace.h` precompiled with the compiler's flags and
    of DaCe's loader stub, built by the first process that needs them."""
    command = compiler_command()
    key = hashlib.sha256("\0".join((dace.__version__, *command)).encode()).hexdigest()[:16]
    folder = root / f"runtime-{key}"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "built").exists():
            # The header's own folder is searched after this one, so a compile whose flags
            # the precompiled header does not fit parses the header instead.
            (folder / "pch" / "dace").mkdir(parents=True, exist_ok=True)
            _run([*command, f"-I{RUNTIME_INCLUDE}", "-x", "c++-header", RUNTIME_INCLUDE / "dace" / "dace.h",
                  "-o", folder / "pch" / "dace" / "dace.h.gch"])
            _run([*command, "-shared", "-o", folder / "libdacestub.so", STUB_SOURCE, "-ldl", "-lpthread"])
            (folder / "built").touch()
    return folder


def library_command(program_folder: Path, name: str, shared: Path) -> list:
    """The one call that compiles and links the folder's sources into `build/lib<name>.so`
    as DaCe's cmake build does (its defines, include folders and linker flags), with the
    precompiled header of `shared` (the runtime folder)."""
    variables, _ = _environment(program_folder)
    build_folder = program_folder / "build"
    sources = [program_folder / "src" / target / file for target, _, file in _sources(program_folder)]
    includes = [shared / "pch", RUNTIME_INCLUDE, *variables["DACE_ENV_INCLUDES"].split()]
    return [*compiler_command(variables["DACE_ENV_COMPILE_FLAGS"].split()),
            f'-DDACE_BINARY_DIR="{build_folder}"', f"-D{name}_EXPORTS", *(f"-I{i}" for i in includes), *sources,
            *shlex.split(Config.get("compiler", "linker", "args") or ""), "-shared", f"-Wl,-soname,lib{name}.so",
            "-o", build_folder / f"lib{name}.so", "-lpthread"]


def build(program_folder: Path, name: str, root: Path) -> None:
    """Builds DaCe's program folder as its cmake build does: `build/lib<name>.so` and the
    loader stub beside it; `root` holds the runtime folder."""
    shared = runtime(root)
    (program_folder / "build").mkdir(exist_ok=True)
    _run(library_command(program_folder, name, shared))
    stub = program_folder / "build" / f"libdacestub_{name}.so"
    stub.unlink(missing_ok=True)
    os.link(shared / "libdacestub.so", stub)
