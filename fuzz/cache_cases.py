"""Cases that tamper with the compile cache (docs/cache.md) between two uses: a library
planted, swapped, symlinked or left writable, a cached source edited, an index
redirected, a prelude edited, folders that others can write or that are links, a umask
of 0. Each case builds a cache of its own in a temporary folder (hard links to the
campaign's emulator and libraries: nothing is copied or compiled that need not be),
tampers with it and calls saxpy again: the result must be right, no planted code may run
(CANARY), and the tampering must be noticed (a CacheWarning).

Rebuilding the emulator (a minute of g++) is replaced in the cases by putting back the
campaign's own build, which is what a rebuild would produce: the cases check the cache's
decisions, not g++."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from fuzz.cases import CANARY_NAME, Case

PLANTED_SOURCE = f"""
#include <fcntl.h>
#include <unistd.h>
__attribute__((constructor)) static void planted(void) {{ close(open("{CANARY_NAME}", O_CREAT | O_WRONLY, 0600)); }}
"""
"""A constructor that creates CANARY in the working directory (the case's)."""

WRONG_SAXPY = """
import dace
N = dace.symbol("N")
@dace.program
def saxpy(a: dace.float32, x: dace.float32[N], y: dace.float32[N]):
    y[:] = a * x - y
"""
"""saxpy's name and signature, another result: what a swapped library would compute."""

_BUILD_WRONG = """
import sys
from ipu_lower.cli import ipu_opt_main
from ipu_lower.runtime import CompiledProgram
try:
    ipu_opt_main([sys.argv[1], "--symbols", "N={n}", "-p", "sdfg-to-poplar", "-t", "poplar-cpp", "-o", sys.argv[2]])
except SystemExit as exit_:
    if exit_.code:
        raise
print(CompiledProgram(sys.argv[2]).library)
"""


def prepare(directory: Path, n: int) -> dict[str, bytes]:
    """The planted library and the wrong saxpy (its files and its built library), by
    path under `directory`."""
    source = directory / "planted.c"
    source.write_text(PLANTED_SOURCE)
    subprocess.run(["gcc", "-shared", "-fPIC", str(source), "-o", str(directory / "planted.so")], check=True)
    (directory / "wrong_saxpy.py").write_text(WRONG_SAXPY)
    built = subprocess.run([sys.executable, "-c", _BUILD_WRONG.format(n=n), str(directory / "wrong_saxpy.py"),
                            str(directory / "wrong")], check=True, capture_output=True, text=True)
    files = {"planted.so": (directory / "planted.so").read_bytes(),
             "wrong/libsaxpy.so": Path(built.stdout.strip().splitlines()[-1]).read_bytes()}
    for name in ("host.cpp", "codelets.cpp", "program.json"):
        files[f"wrong/{name}"] = (directory / "wrong" / name).read_bytes()
    return files


# The snippet runs in the case's directory with the prepared files in prog/.
_SNIPPET_HEAD = """
import atexit, os, shutil, stat, sys, tempfile, warnings
from pathlib import Path
import numpy as np
from ipu_lower import cache, runtime
from ipu_lower.cache import CacheWarning
from ipu_lower.runtime import CompiledProgram

N = {n}
PROG = Path("prog").resolve()
shared = cache.cache_root()  # the campaign's: the emulator and both saxpy libraries
root = Path(tempfile.mkdtemp(prefix="fuzz-cache-"))
atexit.register(shutil.rmtree, root, ignore_errors=True)
emulator = runtime._emulator_fingerprint()[:24]

def wrong(message):
    print("fuzz-wrong: " + message, file=sys.stderr)
    sys.exit(3)

def link_entry(*parts):
    for depth in range(1, len(parts) + 1):
        (root / Path(*parts[:depth])).mkdir(mode=0o700, exist_ok=True)
    for file in (shared / Path(*parts)).iterdir():
        if file.is_file() and file.name != "lock":
            os.link(file, root / Path(*parts) / file.name)

def rebuild_emulator(store, out):  # what g++ would build, without its minute
    for name in runtime.EMULATOR_ARTIFACTS:
        (out / name).unlink(missing_ok=True)
        os.link(shared / "emulator" / emulator / name, out / name)
    store.record(out, cache.Cache(shared).recorded(shared / "emulator" / emulator))

def sources(folder):
    return {{name: (folder / name).read_bytes() for name in ("host.cpp", "codelets.cpp")}}

library = Path("libraries", runtime.library_key(sources(PROG / "saxpy")), "libsaxpy.so")
wrong_library = Path("libraries", runtime.library_key(sources(PROG / "wrong")), "libsaxpy.so")
runtime._build_emulator = rebuild_emulator
{umask}
root.chmod(0o700)
link_entry("emulator", emulator)
link_entry(*library.parent.parts)
os.environ["IPU_LOWER_CACHE"] = str(root)

def replace(path, data, mode=0o600):  # a new file: the campaign's, linked here, stay as they are
    path.unlink(missing_ok=True)
    path.write_bytes(data)
    path.chmod(mode)

def saxpy():
    from ipu_lower.examples.saxpy import saxpy as program
    import ipu_lower
    x, y = np.arange(N, dtype=np.float32), np.ones(N, np.float32)
    ipu_lower.compile(program, symbols={{"N": N}})(np.float32(2), x, y)
    if not np.array_equal(y, 2 * x + 1):
        wrong("saxpy computed something else")

def call_directory():
    x, y = np.arange(N, dtype=np.float32), np.ones(N, np.float32)
    CompiledProgram(PROG / "saxpy")(np.float32(2), x, y)
    if not np.array_equal(y, 2 * x + 1):
        wrong("saxpy computed something else")

{first_call}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
"""

_SNIPPET_TAIL = """
    {call}()
said = [str(w.message) for w in caught if issubclass(w.category, CacheWarning)]
if {must_warn} and not any({expected!r} in line for line in said):
    wrong("the tampering went unnoticed: " + (" | ".join(said) or "no warning"))
for path in [root, *root.rglob("*")] if {check_modes} else []:
    if not path.is_symlink() and path.stat().st_mode & 0o022:
        wrong(f"{{path}} is writable by group or others under umask 000")
"""

_LIB = "    lib = root / library\n"
TAMPERINGS: dict[str, tuple[str, str, str]] = {
    # name: (what the snippet does, the call after it, a part of the warning it must give)
    "library planted before the first build": (
        _LIB + "    (lib.parent / 'record.json').unlink()\n    replace(lib, (PROG / 'planted.so').read_bytes(), 0o700)\n",
        "call_directory", "is not in the cache's record"),
    "library swapped for a planted one": (
        _LIB + "    replace(lib, (PROG / 'planted.so').read_bytes(), 0o700)\n", "call_directory", "does not match"),
    "library swapped for a*x - y": (
        _LIB + "    replace(lib, (PROG / 'wrong/libsaxpy.so').read_bytes(), 0o700)\n", "call_directory", "does not match"),
    "library symlinked to a*x - y": (
        _LIB + "    lib.unlink()\n    lib.symlink_to(PROG / 'wrong/libsaxpy.so')\n", "call_directory", "is a symbolic link"),
    "library left writable by others": (
        _LIB + "    replace(lib, lib.read_bytes(), 0o777)\n", "call_directory", "is not a file that only this user can write"),
    "cached host.cpp edited": (
        "    program = next((root / 'programs').iterdir())\n"
        "    host = program / 'host.cpp'\n"
        "    replace(host, host.read_bytes() + (PROG / 'planted.c').read_bytes())\n", "saxpy", "host.cpp does not match"),
    "index redirected to a*x - y": (
        "    store = cache.Cache(root)\n"
        "    entry = store.entry('programs', 'f' * 24)\n"
        "    store.record(entry, {n: store.write(entry / n, (PROG / 'wrong' / n).read_bytes()) "
        "for n in ('host.cpp', 'codelets.cpp', 'program.json')})\n"
        "    link_entry(*wrong_library.parent.parts)\n"
        "    index = next((root / 'lowered').iterdir())\n"
        "    replace(index / 'program', b'f' * 24)\n", "saxpy", "program does not match"),
    "index holding a path, recorded": (
        "    store = cache.Cache(root)\n"
        "    index = next((root / 'lowered').iterdir())\n"
        "    store.record(index, {'program': store.write(index / 'program', str(PROG / 'wrong').encode())})\n",
        "saxpy", ""),
    "prelude edited, its .gch removed": (
        "    entry = root / 'emulator' / emulator\n"
        "    replace(entry / 'host.hpp', (PROG / 'planted.c').read_bytes() + (entry / 'host.hpp').read_bytes())\n"
        "    (entry / 'host.hpp.gch').unlink()\n"
        "    shutil.rmtree(root / library.parent)\n", "call_directory", "host.hpp does not match"),
    "root writable by others": ("    root.chmod(0o777)\n    cache._OPENED.clear()\n", "call_directory",
                                "not using the compile cache"),
    "root writable by its group": ("    root.chmod(0o770)\n    cache._OPENED.clear()\n", "call_directory",
                                   "not using the compile cache"),
    "libraries folder a symbolic link": (
        "    elsewhere = Path(tempfile.mkdtemp())\n"
        "    atexit.register(shutil.rmtree, elsewhere, ignore_errors=True)\n"
        "    (root / 'libraries').rename(elsewhere / 'libraries')\n"
        "    (root / 'libraries').symlink_to(elsewhere / 'libraries')\n", "call_directory", "is a symbolic link"),
    "library entry writable by others": (
        "    (root / library.parent).chmod(0o777)\n", "call_directory", "not using the compile cache"),
    "emulator folder of another user": (
        "    os.chown(root / 'emulator', 65534, 65534) if os.geteuid() == 0 else (root / 'emulator').chmod(0o757)\n"
        "    shutil.rmtree(root / library.parent)\n", "call_directory", "not using the compile cache"),
}
"""What each case does to the cache after the first call, the call that follows, and a
part of the warning that must say so ("" where none is owed: a path in the index is
never a program's name, so it is lowered again without a word)."""


def cache_tampering(rng: random.Random, program: dict[str, bytes]) -> Case:
    return tampering_case(rng.choice(sorted(TAMPERINGS)), program, umask=rng.random() < 0.25)


def tampering_case(name: str, program: dict[str, bytes], umask: bool = False) -> Case:
    """TAMPERINGS[name] on a cache of the case's own; under umask 000 when `umask`."""
    from fuzz.runtime_cases import N  # the size the campaign built saxpy for

    action, call, expected = TAMPERINGS[name]
    first_call = "saxpy()  # lowered into this cache; the library and the emulator found" if call == "saxpy" else ""
    snippet = (_SNIPPET_HEAD.format(n=N, umask="os.umask(0)" if umask else "", first_call=first_call) + action
               + _SNIPPET_TAIL.format(call=call, must_warn=bool(expected), expected=expected,
                                      check_modes=umask and "writable" not in name and "another user" not in name))
    files = {f"prog/{path}": content for path, content in program.items()} | {"tamper.py": snippet.encode()}
    files["prog/planted.c"] = PLANTED_SOURCE.encode()
    return Case("cache-tampering", "python", ("tamper.py",), files, name + (" (umask 000)" if umask else ""))
