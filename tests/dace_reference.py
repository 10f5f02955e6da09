"""DaCe's side of the end-to-end tests, each piece of work done once per test session.

`parsed(program)`: DaCe parses a @dace.program once (seconds for a stencil); every test
that needs its SDFG, for ipu_lower.compile, for DaCe's build or to look at the lowered
IR, gets a fresh copy.

`dace_build(sdfg)`: DaCe's CPU build of an SDFG, shared by the pytest workers and kept
between runs in build/dace-builds/, under a hash of the SDFG, DaCe's version and the
compiler's flags (so a changed program or flag is a new build, never a stale one). The
first worker to need a build makes it while holding the entry's lock; the others load it.
DaCe generates the code and loads the library; the compile is one call (dace_direct.py)
where cmake is not needed.
"""

from __future__ import annotations

import copy
import fcntl
import hashlib
import json
from pathlib import Path

import dace
from dace.codegen import codegen, compiler
from dace.frontend.python.parser import DaceProgram
from dace.sdfg.utils import load_precompiled_sdfg

import dace_direct

BUILDS = Path(__file__).resolve().parents[1] / "build" / "dace-builds"

_PARSED: dict[DaceProgram, str] = {}
_LOADED: dict[str, object] = {}


def parsed(program: DaceProgram | dace.SDFG) -> dace.SDFG:
    """A fresh copy of the program's simplified SDFG, named like its function (as
    ipu_lower names it); an SDFG is copied."""
    if isinstance(program, dace.SDFG):
        return dace.SDFG.from_json(program.to_json())
    if program not in _PARSED:
        sdfg = program.to_sdfg(simplify=True)
        sdfg.name = program.f.__name__
        _PARSED[program] = json.dumps(sdfg.to_json())
    return dace.SDFG.from_json(json.loads(_PARSED[program]))


def dace_build(sdfg: dace.SDFG):
    """DaCe's compiled SDFG, built once for all workers and runs."""
    key = build_key(sdfg)
    if key not in _LOADED:
        folder = BUILDS / key
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / "lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            built = folder / "built"
            if not built.exists():
                build_program(sdfg, folder / "sdfg")
                built.touch()
            _LOADED[key] = load_precompiled_sdfg(str(folder / "sdfg"))
    return _LOADED[key]


def build_key(sdfg: dace.SDFG) -> str:
    """The name of the SDFG's build: a hash of the SDFG, DaCe's version, the compiler, its
    flags and the build type (which adds flags)."""
    config = [dace.config.Config.get("compiler", *key) for key in (("cpu", "executable"), ("cpu", "args"), ("build_type",))]
    parts = (sdfg.hash_sdfg(), dace.__version__, *config)
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def build_program(sdfg: dace.SDFG, program_folder: Path) -> None:
    """What `sdfg.compile()` does, with the compile in one call where cmake is not needed."""
    build = copy.deepcopy(sdfg)
    build.build_folder = str(program_folder)
    build.fill_scope_connectors()
    compiler.generate_program_folder(build, codegen.generate_code(build), str(program_folder))
    if dace_direct.cmake_only(program_folder):
        # DaCe's own configure and build of the folder, the rest of sdfg.compile(): for
        # another target's code or a library's package (a BLAS or LAPACK node expanded for
        # a library; the tests expand theirs 'pure', so none of their programs comes here).
        compiler.configure_and_compile(str(program_folder), build.name)
    else:
        dace_direct.build(program_folder, build.name, BUILDS)
