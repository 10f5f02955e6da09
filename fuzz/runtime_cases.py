"""Cases that misuse a compiled program: its Python callable (wrong shapes, dtypes,
read-only and non-contiguous arrays, bad scalars, threads) and ipu-run (damaged .npy files
and program.json, bad --arg, --report into a missing directory). saxpy (float32 arrays and
scalar) and clamp (int32 arrays and scalars) are built once per campaign (`prepare`); each
case gets its own copy of their directories, in prog/."""

from __future__ import annotations

import io
import os
import json
import random
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np

from fuzz import cache_cases, json_mutations
from fuzz.cases import CANARY_NAME, Case

N = 64
PROGRAMS = ("saxpy", "clamp")
PROGRAM_FILES = ("host.cpp", "codelets.cpp", "program.json")
SAXPY = "prog/saxpy"

_BUILD = """
import sys
from ipu_lower.cli import ipu_opt_main
from ipu_lower.examples import __file__ as examples
from ipu_lower.runtime import CompiledProgram
for name in sys.argv[2:]:
    sdfg = examples.replace("__init__.py", name + ".sdfg")
    out = sys.argv[1] + "/" + name
    try:
        ipu_opt_main([sdfg, "--symbols", "N={n}", "-p", "sdfg-to-poplar", "-t", "poplar-cpp", "-o", out])
    except SystemExit as exit_:
        if exit_.code:
            raise
    CompiledProgram(out).close()
"""


def prepare(directory: Path) -> dict[str, bytes]:
    """Build the PROGRAMS (N=64) into `directory` and the emulator's cache, in a child
    process (the parent forks the cases: it loads no library itself), and what the
    cache-tampering cases plant; their files, by path under `directory`."""
    subprocess.run([sys.executable, "-c", _BUILD.format(n=N), str(directory), *PROGRAMS], check=True, capture_output=True)
    built = {f"{p}/{name}": (directory / p / name).read_bytes() for p in PROGRAMS for name in PROGRAM_FILES}
    return built | cache_cases.prepare(directory, N)


def _copies(program: dict[str, bytes]) -> dict[str, bytes]:
    """The PROGRAMS' files, in prog/."""
    return {f"prog/{name}": content for name, content in program.items() if name.split("/")[0] in PROGRAMS}


# The snippet runs in a case's directory with the programs in prog/. A misuse the boundary
# must refuse is an error line (exit 1); a call that returns is checked against numpy, and
# a wrong or silently accepted call prints WRONG_MARKER (exit 3).
_SNIPPET_HEAD = """
import sys, threading
import numpy as np
from ipu_lower.runtime import CompiledProgram, ProgramError
N = {n}
program = CompiledProgram("prog/saxpy")
clamp = CompiledProgram("prog/clamp")
def wrong(message):
    print("fuzz-wrong: " + message, file=sys.stderr)
    sys.exit(3)
def guarded(program, *args, **kwargs):
    try:
        return program(*args, **kwargs)
    except (TypeError, OverflowError, ValueError, ProgramError) as err:
        print(("python: error: " + type(err).__name__ + ": " + str(err)).splitlines()[0], file=sys.stderr)
        sys.exit(1)
call = lambda *args, **kwargs: guarded(program, *args, **kwargs)
call_clamp = lambda *args, **kwargs: guarded(clamp, *args, **kwargs)
xi = np.arange(N, dtype=np.int32) - N // 2
yi = np.zeros(N, np.int32)
rng = np.random.default_rng(0)
x = rng.random(N, dtype=np.float32)
y = rng.random(N, dtype=np.float32)
expected = np.float32(2.0) * x + y
"""

MISUSES: dict[str, str] = {
    "correct call": "call(np.float32(2.0), x, y)\nif not np.allclose(y, expected): wrong('saxpy result')",
    "longer x": "call(2.0, np.ones(N + 1, np.float32), y)\nwrong('x of N + 1 elements accepted')",
    "shorter y": "call(2.0, x, np.ones(N - 1, np.float32))\nwrong('y of N - 1 elements accepted')",
    "2-D x": "call(2.0, x.reshape(8, -1), y)\nwrong('2-D x accepted')",
    "float64 x": "call(2.0, x.astype(np.float64), y)\nwrong('float64 x accepted')",
    "int32 y": "call(2.0, x, y.astype(np.int32))\nwrong('int32 y accepted')",
    "list x": "call(2.0, list(x), y)\nwrong('a list accepted for x')",
    "read-only y": "y.setflags(write=False)\nbefore = y.copy()\ncall(2.0, x, y)\n"
                   "wrong('read-only y ' + ('written' if not np.array_equal(y, before) else 'accepted'))",
    "frombuffer y": "y = np.frombuffer(bytes(4 * N), np.float32)\ncall(2.0, x, y)\n"
                    "wrong('y over immutable bytes ' + ('written' if y.any() else 'accepted'))",
    "read-only mmap y": "import tempfile\nsaved = tempfile.mkdtemp() + '/y.npy'  # not in the case's directory\n"
                        "np.save(saved, y)\ny = np.load(saved, mmap_mode='r')\ncall(2.0, x, y)\n"
                        "wrong('read-only memory map accepted as output')",
    "non-contiguous x": "x2 = np.repeat(x, 2)[::2]\ncall(2.0, x2, y)\n"
                        "if not np.allclose(y, expected): wrong('strided x read as contiguous')",
    "non-contiguous y": "big = np.repeat(y, 2)\ny2 = big[::2]\ncall(2.0, x, y2)\n"
                        "if not np.allclose(y2, expected): wrong('strided y: wrong result')\n"
                        "if not np.array_equal(big[1::2], y): wrong('strided y: wrote between elements')",
    "None scalar": "call(None, x, y)\nwrong('None accepted for a')",
    "str scalar": "call('2', x, y)\nwrong('a str accepted for a')",
    "bool scalar": "call(True, x, y)\nwrong('a bool accepted for a')",
    "huge scalar": "call(10**400, x, y)\nwrong('10**400 accepted for a float32')",
    "array scalar": "call(np.ones(2, np.float32), x, y)\nwrong('an array accepted for a')",
    "complex scalar": "call(1j, x, y)\nwrong('a complex accepted for a')",
    "missing argument": "call(2.0, x)\nwrong('call without y accepted')",
    "unknown keyword": "call(2.0, x, y, z=y)\nwrong('unknown keyword accepted')",
    "after close": "program.close()\ncall(2.0, x, y)\nwrong('a closed program ran')",
    "clamp: correct call": "call_clamp(xi, 3, 10, yi)\nif not np.array_equal(yi, np.clip(xi, 3, 10)): wrong('clamp result')",
    "clamp: int past int32": "call_clamp(xi, 2**32 + 5, 10, yi)\nwrong('2**32 + 5 accepted for an int32 lo')",
    "clamp: numpy int64 past int32": "call_clamp(xi, np.int64(2**40), 10, yi)\nwrong('np.int64(2**40) accepted for an int32 lo')",
    "clamp: float for int32": "call_clamp(xi, 2.7, 10, yi)\nwrong('2.7 accepted for an int32 lo')",
    "clamp: bool for int32": "call_clamp(xi, True, 10, yi)\nwrong('True accepted for an int32 lo')",
    "clamp: str for int32": "call_clamp(xi, '2', 10, yi)\nwrong(\"'2' accepted for an int32 lo\")",
    "clamp: None for int32": "call_clamp(xi, None, 10, yi)\nwrong('None accepted for an int32 lo')",
    "clamp: float32 array for int32": "call_clamp(xi.astype(np.float32), 3, 10, yi)\nwrong('float32 x accepted')",
    "threads": """
failed = []
def work(k):
    for step in range(50):
        xs = np.full(N, k + step, np.float32)
        ys = np.full(N, 1.0, np.float32)
        try:
            program(np.float32(2.0), xs, ys)
        except ProgramError:
            continue  # refusing a concurrent call is allowed; a wrong result is not
        if not np.allclose(ys, 2.0 * (k + step) + 1.0):
            failed.append(k)
threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
for t in threads: t.start()
for t in threads: t.join()
if failed: wrong(f'{len(failed)} of 200 calls from 4 threads wrong')
""",
}


def python_misuse(rng: random.Random, program: dict[str, bytes]) -> Case:
    return misuse_case(rng.choice(sorted(MISUSES)), program)


def misuse_case(name: str, program: dict[str, bytes]) -> Case:
    """The snippet MISUSES[name] against a copy of `program`."""
    snippet = _SNIPPET_HEAD.format(n=N) + MISUSES[name] + "\n"
    files = _copies(program) | {"misuse.py": snippet.encode()}
    return Case("python-misuse", "python", ("misuse.py",), files, name)


class _TouchCanary:
    """Unpickling it runs `touch CANARY` in the case's directory (the working directory)."""

    def __reduce__(self):
        return (os.system, (f"touch {CANARY_NAME}",))


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=True)
    return buffer.getvalue()


def _huge_header() -> bytes:
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }"
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode()


def _npz() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("x.npy", _npy(np.ones(N, np.float32)))
    return buffer.getvalue()


DAMAGED_NPY = {
    "empty": lambda: b"",
    "huge header": _huge_header,
    "npz": _npz,
    "truncated data": lambda: _npy(np.ones(N, np.float32))[:-17],
    "pickled object touching the canary": lambda: _npy(np.array([_TouchCanary()] * N, dtype=object)),
    "float64": lambda: _npy(np.ones(N, np.float64)),
    "wrong length": lambda: _npy(np.ones(N + 1, np.float32)),
    "random bytes": lambda: bytes(range(256)) * 4,
}

BAD_ARGS = (
    ("a=nan",), ("a=1e400",), ("a=",), ("a",), ("a=2", "a=3"), ("b=2",), ("a=__import__('os')",),
    ("a=x.npy",), ("x=2",), ("=2",), ("a=2=3",), ("a=0x10",), ("a=1_000",), ("a=-inf",),
)


def _damaged_npy(rng: random.Random, files: dict[str, bytes], program: dict[str, bytes]) -> tuple[list[str], str]:
    damage, victim = rng.choice(sorted(DAMAGED_NPY)), rng.choice(("x.npy", "y.npy"))
    files[victim] = DAMAGED_NPY[damage]()
    return [], f"{damage} {victim}"


def _damaged_manifest(rng: random.Random, files: dict[str, bytes], program: dict[str, bytes]) -> tuple[list[str], str]:
    mutated, done = json_mutations.mutate(rng, json.loads(program["saxpy/program.json"]), rng.choice((1, 2)))
    files[f"{SAXPY}/program.json"] = json.dumps(mutated).encode()
    return [], "program.json: " + "; ".join(done)


def _other_shapes(rng: random.Random, files: dict[str, bytes], program: dict[str, bytes]) -> tuple[list[str], str]:
    """program.json edited to other array sizes than the code was compiled for, with
    .npy files of those sizes: ipu-run must refuse."""
    manifest = json.loads(program["saxpy/program.json"])
    size = rng.choice((N // 2, N + 1, 4 * N, 1 << 20))
    for argument in manifest["arguments"]:
        if argument["shape"]:
            argument["shape"] = [size]
    files[f"{SAXPY}/program.json"] = json.dumps(manifest).encode()
    files |= {"x.npy": _npy(np.ones(size, np.float32)), "y.npy": _npy(np.zeros(size, np.float32))}
    return [], f"program.json claims {size} elements, the code has {N}"


def _bad_report(rng: random.Random, files: dict[str, bytes], program: dict[str, bytes]) -> tuple[list[str], str]:
    path = rng.choice(("nodir/report.json", "x.npy/report.json", "prog"))  # prog: a directory
    return ["--report", path], f"--report {path}"


def _bad_output_dir(rng: random.Random, files: dict[str, bytes], program: dict[str, bytes]) -> tuple[list[str], str]:
    files["taken"] = b"a file where the output directory should go\n"
    path = rng.choice(("taken", "taken/sub"))
    return ["--output-dir", path], f"--output-dir {path}"


MISUSES_OF_IPU_RUN = {
    "npy": _damaged_npy, "manifest": _damaged_manifest, "shapes": _other_shapes,
    "report": _bad_report, "output-dir": _bad_output_dir, "arg": None,
}
"""Each adds to the case's files and returns extra arguments and a note; "arg" replaces
the scalar argument with BAD_ARGS."""


def ipu_run_misuse(rng: random.Random, program: dict[str, bytes]) -> Case:
    files = _copies(program)
    files |= {"x.npy": _npy(np.ones(N, np.float32)), "y.npy": _npy(np.zeros(N, np.float32))}
    arrays = ["--arg", "x=x.npy", "--arg", "y=y.npy"]
    kind = rng.choice(sorted(MISUSES_OF_IPU_RUN))
    if kind == "arg":
        bad = rng.choice(BAD_ARGS)
        args, note = arrays + [p for b in bad for p in ("--arg", b)], "--arg " + " --arg ".join(bad)
    else:
        extra, note = MISUSES_OF_IPU_RUN[kind](rng, files, program)
        args = ["--arg", "a=2", *arrays, *extra]
    return Case("ipu-run-misuse", "ipu-run", (SAXPY, *args), files, note, must_fail=kind == "shapes")
