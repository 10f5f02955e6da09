"""Compile a DaCe program to Poplar C++, build it against the CPU emulator and call it.

`compile(program_or_sdfg, symbols=..., arch=...)` returns a `Program` (ipu_lower/program.py)
that builds a `CompiledProgram` per set of symbol values: call it with the DaCe program's
arguments (numpy arrays and scalars); outputs are written back into the arrays, and the
last run's cycle estimate and profile are kept. Shared libraries are cached by the hash
of what they are built from, and lowerings by the SDFG, the options and the tool's own
sources (`_lowering_key`): a warm call skips the passes and g++ alike.

Running a built program (`CompiledProgram`, ipu-run) needs numpy and ctypes only: the
functions that compile import DaCe, sympy, xDSL and the passes when called.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import logging
import math
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ipu_lower import cache
from ipu_lower.diagnostics import UnknownSymbolWarning, unknown_symbols, warn
from ipu_lower.element_table import element_type_of_numpy
from ipu_lower.estimates import Counts, PlannedStep, ProgramEstimate, WhileLoop
from ipu_lower.program import IDENTIFIER, Program, symbol_value
from ipu_lower.targets.abi import (
    ABI_FUNCTIONS,
    CODELET_INCLUDES,
    DYNAMIC_SLICE_INCLUDES,
    ELEMENTWISE_INCLUDES,
    HOST_INCLUDES,
    POPLIN_INCLUDES,
    POPOPS_INCLUDES,
    REDUCE_INCLUDES,
)

if TYPE_CHECKING:
    from ipu_lower.dialects.index_expr import IndexExpr

EMULATOR = Path(__file__).resolve().parent / "emulator"
EMULATOR_INCLUDE = EMULATOR / "include"  # the headers: Poplar's API and the internals
EMULATOR_SOURCES = EMULATOR / "src"  # their implementation, built once into a library
EMULATOR_LIBRARY = "libipu_lower_emulator.a"
BUILD_WORKERS = max(2, os.cpu_count() or 1)
"""The g++ processes a build runs at once."""

_log = logging.getLogger(__name__)

# Separate objects: host.cpp is long straight-line graph construction (fast at -O0);
# codelets.cpp is the hot loop (worth -O2). The emulator's library is built once, on the
# first call of a new install: at -O1 in 12.6 s on 2 idle cores instead of 19.0 s at -O2
# (the time to a first result), and what it runs itself (exchange, poplibs' vertices) is
# no hot loop at the sizes a workstation emulates.
HOST_FLAGS = ("-std=c++17", "-O0", "-fPIC")
CODELET_FLAGS = ("-std=c++17", "-O2", "-fPIC")
EMULATOR_FLAGS = ("-std=c++17", "-O1", "-fPIC")

# What every host.cpp and codelets.cpp includes, precompiled once with its flags beside
# the emulator's library and given to g++ with `-include`: the program's own #includes
# then find their headers already read (two thirds of compiling a host.cpp). g++ reads a
# prelude it cannot use (another compiler, other flags) as text. The host prelude has the
# popops and poplin headers too, which a program without library calls does not include:
# that the files compile as written is tests/test_emitted_cpp.py's concern.
LIBRARY_INCLUDES = DYNAMIC_SLICE_INCLUDES + REDUCE_INCLUDES + ELEMENTWISE_INCLUDES + POPOPS_INCLUDES + POPLIN_INCLUDES
PRELUDES = {
    "host.hpp": (HOST_FLAGS, HOST_INCLUDES + LIBRARY_INCLUDES),
    "codelets.hpp": (CODELET_FLAGS, CODELET_INCLUDES),
}


class BuildError(RuntimeError):
    """g++ could not build the emitted code."""


class ProgramError(RuntimeError):
    """The emitted program failed: the message of the exception it caught."""


def _emulator_fingerprint() -> str:
    """The hash of what the emulator's build depends on: headers, sources, flags and
    preludes."""
    digest = hashlib.sha256()
    for path in sorted([*EMULATOR_INCLUDE.rglob("*.hpp"), *EMULATOR_SOURCES.rglob("*.cpp")]):
        digest.update(path.relative_to(EMULATOR).as_posix().encode())
        digest.update(path.read_bytes())
    digest.update(" ".join(EMULATOR_FLAGS).encode())
    digest.update(repr(sorted(PRELUDES.items())).encode())
    return digest.hexdigest()


EMULATOR_ARTIFACTS = [EMULATOR_LIBRARY, *PRELUDES, *(f"{name}.gch" for name in PRELUDES)]
_VERIFIED_EMULATORS: set[tuple] = set()
"""Emulator builds whose artifacts this process hashed, by path, inode, size and time:
the preludes are a hundred megabytes, and every library build reads them."""


def emulator_build() -> Path:
    """The emulator built once per fingerprint, in the cache's emulator/<fingerprint>:
    EMULATOR_LIBRARY (its sources) and PRELUDES with their precompiled `.gch`, each checked
    against the entry's record before g++ reads it. One builder at a time: the others, in
    this process or another, wait for its lock and then find the build."""
    return cache.use(_emulator_build)


def _emulator_build(store: cache.Cache) -> Path:
    out = store.entry("emulator", _emulator_fingerprint()[:24])
    if _emulator_identity(out) in _VERIFIED_EMULATORS:
        return out
    with store.locked(out):
        if not store.verified(out, EMULATOR_ARTIFACTS):
            _build_emulator(store, out)
        _VERIFIED_EMULATORS.add(_emulator_identity(out))
    return out


def _emulator_identity(out: Path) -> tuple:
    identity = []
    for name in EMULATOR_ARTIFACTS:
        try:
            st = os.lstat(out / name)
        except FileNotFoundError:
            return ()
        identity.append((name, st.st_ino, st.st_size, st.st_mtime_ns))
    return (str(out), *identity)


def emulator_library() -> Path:
    """The emulator's static library (see emulator_build)."""
    return emulator_build() / EMULATOR_LIBRARY


def emulator_units(count: int) -> list[list[Path]]:
    """The emulator's sources grouped into at most `count` translation units of about
    equal size (the largest source first, each into the smallest unit), largest unit
    first. Parsing the headers is most of compiling a source: the 22 sources took 63 s of
    CPU one by one, 37 s as one unit per folder and 24 s as one unit (g++ 12 -O2,
    alternated on the same loaded 2-core machine); a unit per worker parses them once
    per worker and keeps every worker busy. The sources share no internal names (their
    unity build is what checks it)."""
    units: list[list[Path]] = [[] for _ in range(count)]
    sizes = [0] * count
    for source in sorted(EMULATOR_SOURCES.rglob("*.cpp"), key=lambda s: (-s.stat().st_size, s)):
        k = sizes.index(min(sizes))
        units[k].append(source)
        sizes[k] += source.stat().st_size
    return [unit for _, unit in sorted(zip(sizes, units), key=lambda su: -su[0]) if unit]


def _build_emulator(store: cache.Cache, out: Path) -> None:
    """Compile the units (`emulator_units`), largest first, then the preludes, on
    BUILD_WORKERS, so that the workers end together; say so when it starts and ends, on
    stderr even when it is no terminal (WARNING records: what Python prints without any
    logging configured, and what a test can capture)."""
    from ipu_lower.targets.print_context import cpp_string

    start = time.monotonic()
    units = emulator_units(BUILD_WORKERS)
    _log.warning(
        f"ipu-lower: building the emulator library, once per version of it ({len(units)} translation units "
        f"and {len(PRELUDES)} precompiled headers on {BUILD_WORKERS} workers), in {out}"
    )
    with store.scratch(out) as scratch:
        include = ["-I", str(EMULATOR_INCLUDE)]
        jobs, objects = [], []
        for k, unit in enumerate(units):
            (scratch / f"unit{k}.cpp").write_text("".join(f"#include {cpp_string(str(s))}\n" for s in unit))
            objects.append(scratch / f"unit{k}.o")
            jobs.append([*EMULATOR_FLAGS, *include, "-c", str(scratch / f"unit{k}.cpp"), "-o", str(objects[-1])])
        for name, (flags, includes) in PRELUDES.items():
            (scratch / name).write_text("".join(f"#include {i}\n" for i in includes))
            jobs.append([*flags, *include, "-x", "c++-header", str(scratch / name), "-o", str(scratch / f"{name}.gch")])
        with ThreadPoolExecutor(max_workers=BUILD_WORKERS) as pool:
            list(pool.map(_gxx, jobs))
        _run("ar", ["rcs", str(scratch / EMULATOR_LIBRARY), *map(str, objects)])
        store.record(out, {name: store.publish(scratch / name, out / name) for name in EMULATOR_ARTIFACTS})
    _log.warning(f"ipu-lower: built the emulator library in {time.monotonic() - start:.1f} s")


def _library(sources: Mapping[str, bytes], prefix: str) -> tuple[Path, int, str]:
    """The shared library built from `sources` (host.cpp and codelets.cpp) against the
    emulator: its path, a descriptor open on it and its SHA-256. Found in the cache when
    the entry's record vouches for it, else built there first."""
    name = f"lib{prefix}.so"

    def find_or_build(store: cache.Cache) -> tuple[Path, int, str]:
        out = store.entry("libraries", library_key(sources))
        with store.locked(out):
            found = store.open_verified(out, name)
            if found is None:
                _build_library(store, out, sources, name)
                found = store.open_verified(out, name)
        if found is None:
            raise BuildError(f"{out / name} changed while it was being built")
        return (out / name, *found)

    return cache.use(find_or_build)


def library_key(sources: Mapping[str, bytes]) -> str:
    """The name of the cache entry of the library built from `sources`."""
    digest = hashlib.sha256()
    for name in ("host.cpp", "codelets.cpp"):
        digest.update(sources[name])
    digest.update(_emulator_fingerprint().encode())
    digest.update(" ".join(HOST_FLAGS + CODELET_FLAGS).encode())
    return digest.hexdigest()[:24]


def _build_library(store: cache.Cache, out: Path, sources: Mapping[str, bytes], name: str) -> None:
    emulator = emulator_build()
    with store.scratch(out) as scratch:
        jobs = []
        for source, flags, prelude in (("host.cpp", HOST_FLAGS, "host.hpp"), ("codelets.cpp", CODELET_FLAGS, "codelets.hpp")):
            (scratch / source).write_bytes(sources[source])  # the bytes verified, not the file again
            jobs.append([*flags, "-I", str(EMULATOR_INCLUDE), "-include", str(emulator / prelude),
                         "-c", str(scratch / source), "-o", str(scratch / Path(source).with_suffix(".o"))])
        with ThreadPoolExecutor(max_workers=BUILD_WORKERS) as pool:
            list(pool.map(_gxx, jobs))
        _gxx(["-shared", *(job[-1] for job in jobs), str(emulator / EMULATOR_LIBRARY), "-o", str(scratch / name)])
        store.record(out, {name: store.publish(scratch / name, out / name, mode=0o700)})


def _gxx(arguments: list[str]) -> None:
    _run("g++", arguments)


def _run(tool: str, arguments: list[str]) -> None:
    result = subprocess.run([tool, *arguments], capture_output=True, text=True)
    if result.returncode != 0:
        raise BuildError(f"{tool} failed:\n{result.stderr[-4000:]}")


RETURN_PREFIX = "__return"
MAX_MANIFEST_BYTES = 1 << 20
MAX_SOURCE_BYTES = 1 << 30
PROGRAM_FILES = ("program.json", "host.cpp", "codelets.cpp")
"""What `ipu-opt -o` writes and a CompiledProgram reads."""


_DEMOTED_FROM = {"float64": "float32", "int64": "int32"}
"""What ipu-demote-f64 makes of each 64-bit type."""


def _read_program_file(path: Path) -> bytes:
    try:
        with path.open("rb") as file:
            return file.read(MAX_SOURCE_BYTES if path.suffix == ".cpp" else MAX_MANIFEST_BYTES + 1)
    except OSError as err:
        raise ProgramError(f"cannot read {path}: {err.strerror}") from None


def parse_manifest(text: bytes, path: Path) -> dict[str, Any]:
    """program.json (`text`, read from `path`), every field checked before use: a damaged
    or hand-edited file is a ProgramError naming the field, not a KeyError later (or a
    wrong-sized buffer at the C boundary)."""
    if len(text) > MAX_MANIFEST_BYTES:
        raise ProgramError(f"{path} is larger than {MAX_MANIFEST_BYTES} bytes")
    try:
        manifest = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise ProgramError(f"{path} is not valid JSON: {err}") from None

    def fail(what: str) -> ProgramError:
        return ProgramError(f"{path}: {what}")

    def identifier(value: Any, what: str) -> str:
        if not isinstance(value, str) or not IDENTIFIER.fullmatch(value):
            raise fail(f"{what} must be a C identifier, got {value!r:.60}")
        return value

    if not isinstance(manifest, dict):
        raise fail("must be a JSON object")
    identifier(manifest.get("sdfg"), "'sdfg'")
    prefix = identifier(manifest.get("prefix"), "'prefix'")
    # Exactly the functions host.cpp exports: another name could make the call reach any
    # symbol the process has (libc's `system` with an argument's data as its command).
    expected = {key: f"{prefix}_{key}" for key in ABI_FUNCTIONS}
    if manifest.get("functions") != expected:
        raise fail(f"'functions' must be {json.dumps(expected)}, the functions the compiled program exports")
    arguments = manifest.get("arguments")
    if not isinstance(arguments, list):
        raise fail("'arguments' must be a list")
    for k, argument in enumerate(arguments):
        where = f"'arguments[{k}]'"
        if not isinstance(argument, dict):
            raise fail(f"{where} must be an object")
        identifier(argument.get("name"), f"{where}.name")
        if not isinstance(argument.get("dtype"), str) or element_type_of_numpy(argument["dtype"]) is None:
            raise fail(f"{where}.dtype must name a supported element type, got {argument.get('dtype')!r:.60}")
        shape = argument.get("shape")
        if not isinstance(shape, list) or any(type(d) is not int or not 0 <= d < 2**40 for d in shape):
            raise fail(f"{where}.shape must be a list of non-negative integers, got {shape!r:.60}")
        if type(argument.get("output")) is not bool:
            raise fail(f"{where}.output must be true or false")
        if "declared" in argument and _DEMOTED_FROM.get(argument["declared"]) != argument["dtype"]:
            raise fail(f"{where}.declared must be the 64-bit type demoted to its dtype, got {argument['declared']!r:.60}")
    _check_estimate(manifest.get("estimate"), fail)
    return manifest


def _check_estimate(estimate: Any, fail: Callable[[str], ProgramError]) -> None:
    """The shape of program.json's `estimate` (see ProgramEstimate)."""

    def count(value: Any, what: str) -> None:
        if type(value) is not int or value < 0:
            raise fail(f"{what} must be a non-negative integer, got {value!r:.60}")

    if not isinstance(estimate, dict) or not isinstance(estimate.get("while_loops"), list):
        raise fail("'estimate' must be an object with 'cycles' and a list 'while_loops'")
    count(estimate.get("cycles"), "'estimate.cycles'")
    for k, loop in enumerate(estimate["while_loops"]):
        where = f"'estimate.while_loops[{k}]'"
        if not isinstance(loop, dict) or set(loop) != {"predicate", "iteration_cycles", "entries", "within"}:
            raise fail(f"{where} must be an object of predicate, iteration_cycles, entries and within")
        if not isinstance(loop["predicate"], str) or not (loop["within"] is None or isinstance(loop["within"], str)):
            raise fail(f"{where}.predicate and .within must be names")
        count(loop["iteration_cycles"], f"{where}.iteration_cycles")
        count(loop["entries"], f"{where}.entries")
    steps = estimate.get("steps", [])  # absent from program.json written before plans had steps
    if not isinstance(steps, list):
        raise fail("'estimate.steps' must be a list")
    loops = {loop["predicate"] for loop in estimate["while_loops"]}
    for k, step in enumerate(steps):
        where = f"'estimate.steps[{k}]'"
        if not isinstance(step, dict) or set(step) != set(PlannedStep.__dataclass_fields__):
            raise fail(f"{where} must be an object of {', '.join(PlannedStep.__dataclass_fields__)}")
        if not isinstance(step["kind"], str) or not isinstance(step["name"], str):
            raise fail(f"{where}.kind and .name must be strings")
        for key in ("busiest_tile_bytes", "syncs", "entries"):
            count(step[key], f"{where}.{key}")
        if any(type(step[key]) is not bool for key in ("exact", "conditional", "modelled")):
            raise fail(f"{where}.exact, .conditional and .modelled must be true or false")
        if step["within"] is not None and step["within"] not in loops:
            raise fail(f"{where}.within must name a while loop of 'estimate.while_loops'")


@dataclass(frozen=True)
class Argument:
    name: str
    dtype: np.dtype
    shape: tuple[int, ...]
    output: bool

    @property
    def scalar(self) -> bool:
        return not self.shape

    @property
    def returned(self) -> bool:
        """DaCe's `__return*` containers: allocated by the call and returned, not passed."""
        return self.name.startswith(RETURN_PREFIX)


@dataclass(frozen=True)
class MeasuredStep:
    """A program step that ran, with totals over its `executions`
    (ipu_lower_emulator/Measurement.hpp); `modelled`: a poplibs call whose syncs and
    bytes are the emulator's cost model, not a measurement."""

    name: str
    kind: str
    executions: int
    syncs: int
    busiest_tile_exchange_bytes: int
    exchange_bytes: int
    modelled: bool


@dataclass(frozen=True)
class MeasuredComputeSet:
    """A compute set that ran: its runs, the tile that moves the most bytes in its
    exchange and those bytes per run, all tiles' bytes per run, and for each vertex
    (tile, elements read, elements written) over all its runs."""

    name: str
    runs: int
    busiest_tile: int
    busiest_tile_exchange_bytes: int
    exchange_bytes: int
    vertices: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class Measured:
    """What the emulator measured in one run, from what ran and from the graph the host
    code built, never from an estimate (ipu_lower_emulator/Measurement.hpp): the steps in
    order of first execution, the compute sets that ran, and the syncs of the steps it
    measures (`modelled_syncs`: those of poplibs calls, from its cost model)."""

    syncs: int
    modelled_syncs: int
    steps: tuple[MeasuredStep, ...]
    compute_sets: tuple[MeasuredComputeSet, ...]

    @staticmethod
    def parse(data: dict[str, Any]) -> Measured:
        """From the JSON of `ipu_lower_emulator_measured()`."""
        assert data["vertex_columns"] == ["tile", "elements_read", "elements_written"]
        return Measured(
            data["syncs"],
            data["modelled_syncs"],
            tuple(MeasuredStep(**step) for step in data["steps"]),
            tuple(
                MeasuredComputeSet(**{**c, "vertices": tuple(tuple(v) for v in c["vertices"])})
                for c in data["compute_sets"]
            ),
        )

    def counts(self) -> Counts:
        """The fields the plan has too (`ProgramEstimate.planned`)."""
        executions: dict[str, int] = {}
        exchange: dict[str, int] = {}
        for step in self.steps:
            executions[step.kind] = executions.get(step.kind, 0) + step.executions
            if not step.modelled:
                exchange[step.kind] = exchange.get(step.kind, 0) + step.busiest_tile_exchange_bytes
        return Counts(
            {c.name: c.runs for c in self.compute_sets},
            {c.name: c.busiest_tile_exchange_bytes for c in self.compute_sets},
            executions,
            exchange,
            self.syncs,
        )


class _SharedLibrary:
    """A loaded shared library and its one copy of the program's state (the Engine, the
    last error, the emulator's report): every CompiledProgram of the same library shares
    it. Calls into it hold `lock`; init runs for the first user and exit after the last
    one closes.

    The library is loaded through the descriptor its bytes were verified from
    (/proc/self/fd/N), so what runs is what was hashed, not whatever the path names by
    then; the descriptor stays open, so that no other library is ever loaded under the
    same name."""

    def __init__(self, fd: int):
        self.fd = fd
        self.cdll = ctypes.CDLL(f"/proc/self/fd/{fd}")
        self.lock = threading.RLock()  # reentrant: a program collected during a call closes under it
        self.users = 0
        self.runs = 0  # calls begun: tells a program whether the library's last run was its own


_LIBRARIES: dict[tuple[int, int, str], _SharedLibrary] = {}
_LIBRARIES_LOCK = threading.Lock()


def _shared_library(fd: int, digest: str) -> _SharedLibrary:
    """The library open at `fd` (which this takes over), loaded once per file and content."""
    st = os.fstat(fd)
    key = (st.st_dev, st.st_ino, digest)
    with _LIBRARIES_LOCK:
        if key in _LIBRARIES:
            os.close(fd)
        else:
            _LIBRARIES[key] = _SharedLibrary(fd)
        return _LIBRARIES[key]


class CompiledProgram:
    """A program built for the emulator; call it like the DaCe program.

    Safe to call from several threads: the calls of every CompiledProgram of one shared
    library run one at a time (the library holds one Engine), each with its own buffers;
    `report` and `cycles` are those of the last call that finished."""

    def __init__(self, directory: Path, files: Mapping[str, bytes] | None = None):
        """The program `ipu-opt -o` wrote into `directory`; `files`, when given, are the
        contents of its program.json, host.cpp and codelets.cpp, already verified."""
        self.directory = Path(directory)
        if files is None:
            files = {name: _read_program_file(self.directory / name) for name in PROGRAM_FILES}
        self.manifest = parse_manifest(files["program.json"], self.directory / "program.json")
        # The type the program declares for an argument the build demoted (float64 for
        # float32, int64 for int32): calls may pass arrays of it, which run converted and
        # whose results come back into them.
        self.declared = {a["name"]: np.dtype(a["declared"]) for a in self.manifest["arguments"] if "declared" in a}
        self.arguments = [
            Argument(a["name"], np.dtype(a["dtype"]), tuple(a["shape"]), a["output"])
            for a in self.manifest["arguments"]
        ]
        self.library, fd, digest = _library(files, self.manifest["prefix"])
        self._shared = _shared_library(fd, digest)
        library, functions = self._shared.cdll, self.manifest["functions"]
        self._check_signature(_export(library, functions["signature"]))
        self._run = _export(library, functions["run"])
        self._run.restype = ctypes.c_int
        self._run.argtypes = [
            t for a in self.arguments for t in ([_ctype(a.dtype)] if a.scalar else [ctypes.c_void_p, ctypes.c_size_t])
        ]
        self._exit = _export(library, functions["exit"])
        self._exit.restype = None
        self._report = _export(library, "ipu_lower_emulator_report")
        self._report.restype = ctypes.c_char_p
        self._measured_json = _export(library, "ipu_lower_emulator_measured")
        self._measured_json.restype = ctypes.c_char_p
        self._last_error = _export(library, functions["last_error"])
        self._last_error.restype = ctypes.c_char_p
        init = _export(library, functions["init"])
        init.restype = ctypes.c_int
        init.argtypes = [ctypes.c_char_p]
        with self._shared.lock:
            if self._shared.users == 0 and init(str(self.directory / "codelets.cpp").encode()) != 0:
                raise ProgramError(self._last_error().decode())
            self._shared.users += 1
        self._open = True
        self.report: dict[str, Any] | None = None
        self._run_number = 0  # the library's run count after this program's last call
        self._measured: Measured | None = None

    def _check_signature(self, signature: Any) -> None:
        """program.json's arguments must be those the compiled code takes: a hand-edited
        or stale file would make the call pass buffers of other sizes or types."""
        signature.restype = ctypes.c_char_p
        compiled = json.loads(signature().decode())
        listed = [{k: a[k] for k in ("name", "dtype", "shape", "output")} for a in self.manifest["arguments"]]
        if listed != compiled:
            def text(arguments: list[dict]) -> str:
                return ", ".join(f"{a['name']}: {a['dtype']}{a['shape']}{' (output)' if a['output'] else ''}" for a in arguments)

            raise ProgramError(
                f"{self.directory / 'program.json'}: its arguments ({text(listed)}) are not those of the "
                f"compiled program ({text(compiled)}); write the directory again with ipu-opt -o"
            )

    @property
    def cycles(self) -> int | None:
        """Estimated IPU cycles of the last run."""
        return None if self.report is None else self.report["total_cycles"]

    @property
    def estimate(self) -> ProgramEstimate:
        """The cost model's estimate of a run, before running (loops whose trip count is
        known only at run time apart: `ipu_lower.estimates.ProgramEstimate`)."""
        data = self.manifest["estimate"]
        return ProgramEstimate(
            data["cycles"],
            tuple(WhileLoop(**loop) for loop in data["while_loops"]),
            tuple(PlannedStep(**step) for step in data.get("steps", [])),
        )

    @property
    def measured(self) -> Measured | None:
        """What the emulator measured in the last call (`Measured`), None before any.
        Read from the library when first asked for (it lists every vertex); a
        ProgramError if another program of the same library has run since."""
        if self.report is None:
            return None
        if self._measured is None:
            with self._shared.lock:
                if self._shared.runs != self._run_number:
                    raise ProgramError("another program of the same library ran after this one's last call")
                self._measured = Measured.parse(json.loads(self._measured_json().decode()))
        return self._measured

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run on the given arguments; returns what the DaCe program returns, if anything.
        Every argument is checked before anything runs: a wrong kind of value is a
        TypeError, a read-only array the program writes a ValueError and a scalar out of
        its type's range an OverflowError, each naming the argument."""
        if not self._open:
            raise ProgramError("the program has been closed")
        values = self._bind(args, kwargs)
        c_args, buffers, copy_back = [], [], []
        for argument, value in zip(self.arguments, values):
            if argument.scalar:
                c_args.append(_scalar(argument, value))
                continue
            array = _array(argument, value, self.declared.get(argument.name))
            buffer = _converted(argument, array)  # alive in `buffers` until the call returns
            buffers.append(buffer)
            if argument.output and buffer is not array:
                copy_back.append((array, buffer))
            c_args += [buffer.ctypes.data, buffer.size]
        self.report = self._measured = None  # a failed run has none, not the previous run's
        with self._shared.lock:
            self._shared.runs += 1
            if self._run(*c_args) != 0:
                raise ProgramError(self._last_error().decode())
            report = self._report().decode()
            self._run_number = self._shared.runs
        for array, buffer in copy_back:
            array[...] = buffer
        self.report = json.loads(report)
        returned = [v for a, v in zip(self.arguments, values) if a.returned]
        return None if not returned else returned[0] if len(returned) == 1 else tuple(returned)

    def _bind(self, args: tuple, kwargs: dict) -> list[Any]:
        names = [a.name for a in self.arguments if not a.returned]
        if len(args) > len(names):
            raise TypeError(f"{self.manifest['sdfg']}() takes {len(names)} arguments, got {len(args)}")
        bound = dict(zip(names, args))
        for name, value in kwargs.items():
            if name in bound:
                raise TypeError(f"argument '{name}' given twice")
            bound[name] = value
        unknown = set(bound) - set(names)
        missing = [n for n in names if n not in bound]
        if unknown or missing:
            raise TypeError(
                f"{self.manifest['sdfg']}() takes arguments {', '.join(names)}"
                + (f"; unknown: {', '.join(sorted(unknown))}" if unknown else "")
                + (f"; missing: {', '.join(missing)}" if missing else "")
            )
        for a in self.arguments:
            if a.returned:  # in the type the program declares: a demoted float64 comes back as one
                bound[a.name] = np.zeros(a.shape, self.declared.get(a.name, a.dtype))
        return [bound[a.name] for a in self.arguments]

    def close(self) -> None:
        """Release the program; the library's Engine goes with the last program using it."""
        if self._open:
            self._open = False
            with self._shared.lock:
                self._shared.users -= 1
                if self._shared.users == 0:
                    self._exit()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: nothing left to release into
            pass


def _export(library: ctypes.CDLL, name: str) -> Any:
    try:
        return getattr(library, name)
    except AttributeError:  # a host.cpp edited by hand
        raise ProgramError(f"the compiled program exports no function '{name}'; write it again with ipu-opt -o") from None


def _array(argument: Argument, value: Any, declared: np.dtype | None = None) -> np.ndarray:
    if not isinstance(value, np.ndarray):
        raise TypeError(f"argument '{argument.name}' must be a numpy array, got {type(value).__name__}")
    accepted = value.dtype == argument.dtype or (declared is not None and value.dtype == declared)
    if not accepted or value.shape != argument.shape:
        also = f" (or {declared}, which the program declares and the build demoted)" if declared is not None else ""
        raise TypeError(
            f"argument '{argument.name}' must be {argument.dtype}{list(argument.shape)}{also}, "
            f"got {value.dtype}{list(value.shape)}"
        )
    if argument.output and not value.flags.writeable:
        raise ValueError(f"argument '{argument.name}' is read-only, and the program writes it")
    return value


def _converted(argument: Argument, array: np.ndarray) -> np.ndarray:
    """The contiguous, aligned array of the argument's element type that the program
    reads: the array itself when it is one, else a converted copy (a value out of the
    narrower type's range is an error, not a wrapped or infinite value)."""
    if array.dtype != argument.dtype and argument.dtype.kind in "iu" and array.size:
        info = np.iinfo(argument.dtype)
        if array.min() < info.min or array.max() > info.max:
            raise OverflowError(
                f"argument '{argument.name}' holds values outside {argument.dtype} ({info.min} to {info.max}), "
                "which the demoted program computes in"
            )
    if array.dtype != argument.dtype and argument.dtype.kind == "f":
        with np.errstate(over="ignore"):
            narrow = np.require(array, dtype=argument.dtype, requirements=("C_CONTIGUOUS", "ALIGNED"))
        if (np.isinf(narrow) & np.isfinite(array)).any():  # inf and nan given as such pass
            high = np.finfo(argument.dtype).max
            raise OverflowError(
                f"argument '{argument.name}' holds values beyond the range of {argument.dtype} (-{high:.7g} to {high:.7g}), "
                "which the demoted program computes in"
            )
        return narrow
    return np.require(array, dtype=argument.dtype, requirements=("C_CONTIGUOUS", "ALIGNED"))


def _scalar(argument: Argument, value: Any):
    """The scalar as its C type: a bool argument takes bools, an integer one Python and
    numpy integers, a floating-point one those and floats (anything else is a TypeError); a value
    its type cannot hold is an OverflowError, never a wrapped or infinite one."""
    dtype, name = argument.dtype, argument.name
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]  # a 0-d array is its numpy scalar
    if dtype.kind == "b":
        if not isinstance(value, bool | np.bool_):
            raise TypeError(f"argument '{name}' must be a bool, got {type(value).__name__}")
        return _ctype(dtype)(bool(value))
    integer = isinstance(value, int | np.integer) and not isinstance(value, bool)
    if not (integer or (dtype.kind == "f" and isinstance(value, float | np.floating))):
        kind = "an integer" if dtype.kind in "iu" else "a real number"
        raise TypeError(f"argument '{name}' must be {kind} ({dtype} scalar), got {type(value).__name__}")
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if not info.min <= int(value) <= info.max:  # numpy would wrap it
            raise OverflowError(f"argument '{name}' must be a {dtype} scalar ({info.min} to {info.max}), got {int(value)}")
        return _ctype(dtype)(int(value))
    try:
        wide = float(value)
    except OverflowError:  # an int beyond any float
        wide = math.inf
    with np.errstate(over="ignore"):
        narrow = np.array(wide).astype(dtype)
    if (integer or math.isfinite(wide)) and not np.isfinite(narrow):  # inf and nan given as such pass
        raise OverflowError(f"argument '{name}' is beyond the range of {dtype}, got {value!r:.40}")
    if dtype == np.float16:
        return _ctype(dtype)(int(narrow.view(np.uint16)))
    return _ctype(dtype)(narrow.item())


def _ctype(dtype: np.dtype):
    row = element_type_of_numpy(dtype.name)
    assert row is not None
    return row.ctypes


def compile(  # noqa: A001 - mirrors dace.program.compile
    program_or_sdfg: Any,
    symbols: Mapping[str, int] | None = None,
    arch: str | None = None,
    directory: str | Path | None = None,
    demote_f64: bool = False,
    chunk: int = 0,
    prefer: str = "auto",
) -> Program:
    """Lower a `@dace.program` or `dace.SDFG` and build it for the emulator, once per set
    of symbol values: those in `symbols` now, others when a call's arguments give them
    (see `ipu_lower.program`). With `demote_f64`, 64-bit data and arithmetic run in 32
    bits (see ipu-demote-f64). `chunk` forces the rows of a chunk of the maps that
    touch streaming memory (see sdfg-stream-chunks). `prefer` (auto, codelet, poplibs)
    chooses between our codelets and poplibs' vertices (see ipu-select-vertices).
    `directory` receives the emitted files of the last build."""
    from ipu_lower.emit import to_sdfg
    from ipu_lower.frontend.importer import reject_malformed_maps, reject_python_callbacks

    sdfg = to_sdfg(program_or_sdfg)
    reject_python_callbacks(sdfg)  # before its callback symbols, or map parameters without
    reject_malformed_maps(sdfg)  # a range, read as sizes to ask for
    given = {name: symbol_value(name, value) for name, value in (symbols or {}).items()}
    free = sorted(str(s) for s in sdfg.free_symbols)
    if message := unknown_symbols(given, free):  # accepted, as DaCe accepts them, and left out
        warn(message, UnknownSymbolWarning)
    given = {name: value for name, value in given.items() if name in free}

    def build(values: dict[str, int]) -> CompiledProgram:
        return _build(sdfg, values, arch, directory, demote_f64, chunk, prefer)

    return Program(sdfg.name, list(sdfg.arg_names), declared_shapes(sdfg), free, given, build)


def _build(
    sdfg: Any, symbols: Mapping[str, int], arch: str | None, directory: str | Path | None, demote_f64: bool, chunk: int,
    prefer: str = "auto",
) -> CompiledProgram:
    from ipu_lower.emit import emit_program

    key = _lowering_key(sdfg, symbols, arch, demote_f64, chunk, prefer)
    if directory is None:
        found = cache.use(lambda store: _lowered(store, key))
        if found is not None:  # lowered before: skip the frontend, the passes and g++
            return CompiledProgram(*found)
    progress = _Progress(sdfg.name)
    progress.stage("import and lower")
    files = {name: text.encode() for name, text in emit_program(sdfg, symbols, arch, demote_f64, chunk, prefer).items()}
    progress.stage("compile host.cpp and codelets.cpp")
    if directory is None:
        out = cache.use(lambda store: _store_lowered(store, key, files))
    else:
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        for name, content in files.items():
            path = out / name
            if not path.exists() or path.read_bytes() != content:
                partial = out / f"{name}.{os.getpid()}.{threading.get_ident()}.tmp"
                partial.write_bytes(content)
                partial.replace(path)  # atomic: a concurrent build of the same program never reads half a file
    program = CompiledProgram(out, files)
    progress.stage("done")
    return program


_PROGRAM_NAME = re.compile(r"[0-9a-f]{24}")


def _lowered(store: cache.Cache, key: str) -> tuple[Path, dict[str, bytes]] | None:
    """The folder and the verified files of the program the lowering `key` produced
    before, or None (nothing recorded, or a file that does not match its record)."""
    program = store.read_verified(store.entry("lowered", key), "program")
    if program is None or not _PROGRAM_NAME.fullmatch(program.decode("ascii", "replace")):
        return None
    out = store.entry("programs", program.decode())
    files = {name: store.read_verified(out, name) for name in PROGRAM_FILES}
    if None in files.values():
        return None
    return out, files


def _store_lowered(store: cache.Cache, key: str, files: Mapping[str, bytes]) -> Path:
    """Write the emitted `files` into the cache's programs/<their hash> and record that
    the lowering `key` produced them."""
    name = hashlib.sha256(b"".join(files[n] for n in sorted(files))).hexdigest()[:24]
    out = store.entry("programs", name)
    store.record(out, {n: store.write(out / n, content) for n, content in files.items()})
    index = store.entry("lowered", key)
    store.record(index, {"program": store.write(index / "program", name.encode())})
    return out


class _Progress:
    """A build's stages and elapsed time on a terminal (stderr), one line each; nothing
    when stderr is not a terminal."""

    def __init__(self, name: str):
        self.name, self.start = name, time.monotonic()
        self.shown = sys.stderr.isatty()

    def stage(self, what: str) -> None:
        if self.shown:
            print(f"ipu-lower: {self.name}: {what} ({time.monotonic() - self.start:.1f} s)", file=sys.stderr, flush=True)


def _lowering_key(
    sdfg: Any, symbols: Mapping[str, int], arch: str | None, demote_f64: bool, chunk: int, prefer: str = "auto"
) -> str:
    """What a lowering depends on: the SDFG, the options and the tool itself (its Python
    sources and the emulator's)."""
    digest = hashlib.sha256(json.dumps(_without_guids(sdfg.to_json()), sort_keys=True, default=str).encode())
    digest.update(json.dumps([sorted(symbols.items()), arch, demote_f64, chunk, prefer]).encode())
    digest.update(_tool_fingerprint().encode())
    return digest.hexdigest()[:32]


def _without_guids(value: Any) -> Any:
    """An SDFG's JSON without the identifiers DaCe draws afresh each time it builds one."""
    if isinstance(value, dict):
        return {k: _without_guids(v) for k, v in value.items() if k != "guid"}
    if isinstance(value, list):
        return [_without_guids(v) for v in value]
    return value


_TOOL_FINGERPRINT: list[str] = []


def _tool_fingerprint() -> str:
    """The hash of ipu-lower's Python sources (the passes and dialects too), of the
    emulator's build and of the versions of the libraries lowering uses: a changed tool
    lowers afresh. Computed once per process."""
    if not _TOOL_FINGERPRINT:
        from ipu_lower import dialects, passes

        from importlib.metadata import version

        digest = hashlib.sha256(_emulator_fingerprint().encode())
        digest.update(" ".join(version(name) for name in ("dace", "xdsl", "sympy", "numpy")).encode())
        for package in (Path(__file__).resolve().parent, Path(dialects.__file__).parent, Path(passes.__file__).parent):
            for path in sorted(package.rglob("*.py")):
                digest.update(path.read_bytes())
        _TOOL_FINGERPRINT.append(digest.hexdigest())
    return _TOOL_FINGERPRINT[0]


def declared_shapes(sdfg: Any) -> dict[str, list[IndexExpr]]:
    """The shape of each array argument, as index expressions of the SDFG's symbols
    (arrays whose shape is not one are left out: no symbol is taken from them)."""
    from dace import data

    from ipu_lower.frontend.symbolic import SymbolicError, to_index_expr

    shapes = {}
    for name, descriptor in sdfg.arglist().items():
        if isinstance(descriptor, data.Array) and not isinstance(descriptor, data.View):
            try:
                shapes[name] = [to_index_expr(d) for d in descriptor.shape]
            except SymbolicError:
                continue
    return shapes
