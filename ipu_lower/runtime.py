"""Compile a DaCe program to Poplar C++, build it against the CPU emulator and call it.

`compile(program_or_sdfg, symbols=..., arch=...)` returns a `CompiledProgram`: call it
with the DaCe program's arguments (numpy arrays and scalars); outputs are written back
into the arrays, and the last run's cycle estimate and profile are kept. Shared
libraries are cached by the hash of what they are built from.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import subprocess
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ipu_lower.cost_model import ProgramEstimate, WhileLoop
from ipu_lower.element_types import element_type_of_numpy

EMULATOR_INCLUDE = Path(__file__).resolve().parent / "emulator" / "include"

# Separate objects: host.cpp is long straight-line graph construction (fast at -O0);
# codelets.cpp is the hot loop (worth -O2).
HOST_FLAGS = ("-std=c++17", "-O0", "-fPIC")
CODELET_FLAGS = ("-std=c++17", "-O2", "-fPIC")

class BuildError(RuntimeError):
    """g++ could not build the emitted code."""


class ProgramError(RuntimeError):
    """The emitted program failed: the message of the exception it caught."""


def cache_root() -> Path:
    return Path(os.environ.get("IPU_LOWER_CACHE", Path.home() / ".cache" / "ipu_lower"))


def _emulator_fingerprint() -> str:
    digest = hashlib.sha256()
    for header in sorted(EMULATOR_INCLUDE.rglob("*.hpp")):
        digest.update(header.relative_to(EMULATOR_INCLUDE).as_posix().encode())
        digest.update(header.read_bytes())
    return digest.hexdigest()


def build_library(directory: Path, manifest: Mapping[str, Any]) -> Path:
    """Build `directory`'s host.cpp and codelets.cpp into a shared library (cached)."""
    digest = hashlib.sha256()
    for name in ("host.cpp", "codelets.cpp"):
        digest.update((directory / name).read_bytes())
    digest.update(_emulator_fingerprint().encode())
    digest.update(" ".join(HOST_FLAGS + CODELET_FLAGS).encode())
    out = cache_root() / digest.hexdigest()[:24]
    library = out / f"lib{manifest['prefix']}.so"
    if library.exists():
        return library
    out.mkdir(parents=True, exist_ok=True)
    jobs = [
        (directory / "host.cpp", out / "host.o", HOST_FLAGS),
        (directory / "codelets.cpp", out / "codelets.o", CODELET_FLAGS),
    ]
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda job: _gxx([*job[2], "-I", str(EMULATOR_INCLUDE), "-c", str(job[0]), "-o", str(job[1])]), jobs))
    partial = out / f"{library.name}.{os.getpid()}.tmp"
    _gxx(["-shared", str(out / "host.o"), str(out / "codelets.o"), "-o", str(partial)])
    partial.replace(library)  # atomic: concurrent builders never load a half-written file
    return library


def _gxx(arguments: list[str]) -> None:
    result = subprocess.run(["g++", *arguments], capture_output=True, text=True)
    if result.returncode != 0:
        raise BuildError(f"g++ failed:\n{result.stderr[-4000:]}")


RETURN_PREFIX = "__return"


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


class CompiledProgram:
    """A program built for the emulator; call it like the DaCe program."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self.manifest = json.loads((self.directory / "program.json").read_text())
        self.arguments = [
            Argument(a["name"], np.dtype(a["dtype"]), tuple(a["shape"]), a["output"])
            for a in self.manifest["arguments"]
        ]
        self.library = ctypes.CDLL(str(build_library(self.directory, self.manifest)))
        functions = self.manifest["functions"]
        self._run = getattr(self.library, functions["run"])
        self._run.restype = ctypes.c_int
        self._run.argtypes = [
            _ctype(a.dtype) if a.scalar else ctypes.c_void_p for a in self.arguments
        ]
        self._exit = getattr(self.library, functions["exit"])
        self._exit.restype = None
        self._report = self.library.ipu_lower_emulator_report
        self._report.restype = ctypes.c_char_p
        self._last_error = getattr(self.library, functions["last_error"])
        self._last_error.restype = ctypes.c_char_p
        init = getattr(self.library, functions["init"])
        init.restype = ctypes.c_int
        init.argtypes = [ctypes.c_char_p]
        if init(str(self.directory / "codelets.cpp").encode()) != 0:
            raise ProgramError(self._last_error().decode())
        self._open = True
        self.report: dict[str, Any] | None = None

    @property
    def cycles(self) -> int | None:
        """Estimated IPU cycles of the last run."""
        return None if self.report is None else self.report["total_cycles"]

    @property
    def estimate(self) -> ProgramEstimate:
        """The cost model's estimate of a run, before running (loops whose trip count is
        known only at run time apart: `ipu_lower.cost_model.ProgramEstimate`)."""
        data = self.manifest["estimate"]
        return ProgramEstimate(data["cycles"], tuple(WhileLoop(**loop) for loop in data["while_loops"]))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run on the given arguments; returns what the DaCe program returns, if anything."""
        if not self._open:
            raise ProgramError("the program has been closed")
        values = self._bind(args, kwargs)
        c_args, buffers, copy_back = [], [], []
        for argument, value in zip(self.arguments, values):
            if argument.scalar:
                c_args.append(_scalar(argument, value))
                continue
            array = _array(argument, value)
            buffer = np.ascontiguousarray(array)  # alive in `buffers` until the call returns
            buffers.append(buffer)
            if argument.output and buffer is not array:
                copy_back.append((array, buffer))
            c_args.append(buffer.ctypes.data)
        if self._run(*c_args) != 0:
            raise ProgramError(self._last_error().decode())
        for array, buffer in copy_back:
            array[...] = buffer
        self.report = json.loads(self._report().decode())
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
            if a.returned:
                bound[a.name] = np.zeros(a.shape, a.dtype)
        return [bound[a.name] for a in self.arguments]

    def close(self) -> None:
        if self._open:
            self._exit()
            self._open = False

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: nothing left to release into
            pass


def _array(argument: Argument, value: Any) -> np.ndarray:
    if not isinstance(value, np.ndarray):
        raise TypeError(f"argument '{argument.name}' must be a numpy array")
    if value.dtype != argument.dtype or value.shape != argument.shape:
        raise TypeError(
            f"argument '{argument.name}' must be {argument.dtype}{list(argument.shape)}, "
            f"got {value.dtype}{list(value.shape)}"
        )
    return value


def _scalar(argument: Argument, value: Any):
    if argument.dtype.kind in "iu" and isinstance(value, int | np.integer) and not isinstance(value, bool):
        info = np.iinfo(argument.dtype)
        if not info.min <= int(value) <= info.max:  # numpy would wrap it (with a warning)
            raise TypeError(
                f"argument '{argument.name}' must be a {argument.dtype} scalar "
                f"({info.min} to {info.max}), got {int(value)}"
            )
    as_array = np.asarray(value, dtype=argument.dtype)
    if as_array.shape != ():
        raise TypeError(f"argument '{argument.name}' must be a scalar")
    if argument.dtype == np.float16:
        return _ctype(argument.dtype)(int(as_array.view(np.uint16)))
    return _ctype(argument.dtype)(as_array.item())


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
) -> CompiledProgram:
    """Lower a `@dace.program` or `dace.SDFG` and build it for the emulator; with
    `demote_f64`, 64-bit data and arithmetic run in 32 bits (see ipu-demote-f64)."""
    from ipu_lower.emit import emit_program

    files = emit_program(program_or_sdfg, symbols or {}, arch, demote_f64)
    text = "".join(files[name] for name in sorted(files))
    out = Path(directory) if directory else cache_root() / "programs" / hashlib.sha256(text.encode()).hexdigest()[:24]
    out.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        path = out / name
        if not path.exists() or path.read_text() != content:
            path.write_text(content)
    return CompiledProgram(out)
