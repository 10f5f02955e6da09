"""`g++ -fsyntax-only -Wall -Werror` of C++ files, each file's own #include lines read once.

Parsing the headers is most of checking an emitted file (of 1.5 CPU-s for a 200-line
host.cpp, about 1.1). The #include lines a file starts with (before its first other
line; comments and blank lines between them) are precompiled once per distinct set of
lines, headers, flags and compiler, into the compile cache (`IPU_LOWER_CACHE`), and
given to g++ with `-include`: the file's own #includes then find their headers already
read (include guards), so it compiles as it would alone. `-Winvalid-pch` (an error under
-Werror) makes sure the precompiled lines are the ones read.
"""

from __future__ import annotations

import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

from gxx_fingerprint import gxx_fingerprint

from ipu_lower import cache

GXX = shutil.which("g++")
FLAGS = ("-std=c++17", "-Wall", "-Werror")
PRELUDE = "prelude.hpp"


def include_block(text: str) -> str:
    """The `#include <...>` lines `text` starts with, one per line; a quoted include
    (found beside the file) or any other directive ends them, as does code."""
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#include <"):
            lines.append(stripped)
        elif stripped and not stripped.startswith("//"):
            break
    return "".join(f"{line}\n" for line in lines)


@lru_cache(maxsize=None)
def prelude(block: str, include: Path) -> Path:
    """The folder holding PRELUDE (`block`) and its `.gch`, built once per fingerprint;
    checked against the cache's record once per process."""

    def find_or_build(store: cache.Cache) -> Path:
        out = store.entry("syntax-preludes", gxx_fingerprint(*FLAGS, str(include), block, include)[:24])
        names = [PRELUDE, f"{PRELUDE}.gch"]
        with store.locked(out):
            if not store.verified(out, names):
                with store.scratch(out) as scratch:
                    (scratch / PRELUDE).write_text(block)
                    result = subprocess.run(
                        [GXX, *FLAGS, "-I", str(include), "-x", "c++-header", str(scratch / PRELUDE),
                         "-o", str(scratch / names[1])],
                        capture_output=True, text=True, timeout=600, check=False,
                    )
                    assert result.returncode == 0, f"the #include lines\n{block}do not compile:\n{result.stderr[:3000]}"
                    store.record(out, {name: store.publish(scratch / name, out / name) for name in names})
        return out

    return cache.use(find_or_build)


def syntax_check(files: list[Path], include: Path) -> None:
    """Checks all `files` at once (in parallel); fails with the errors of those that fail."""
    assert GXX is not None
    commands = []
    for f in files:
        block = include_block(f.read_text())
        use = ["-Winvalid-pch", "-include", str(prelude(block, include) / PRELUDE)] if block else []
        commands.append([GXX, *FLAGS, "-fsyntax-only", "-I", str(include), *use, str(f)])
    procs = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for c in commands]
    failures = []
    for proc, f in zip(procs, files):
        _, err = proc.communicate(timeout=600)
        if proc.returncode != 0:
            failures.append(f"{f.name}:\n{err[:3000]}")
    assert not failures, "\n".join(failures)
