"""Output files that appear whole or not at all.

Everything is first written beside its destination (same file system, so the final
rename is atomic); a failure while writing removes what was written and leaves what the
user had untouched.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path

from ipu_lower.diagnostics import CompileError


def partial_path(path: Path) -> Path:
    """Where `path` is written before it is moved into place (beside it, hidden)."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def _cannot_write(path: Path, err: OSError) -> CompileError:
    return CompileError(f"cannot write the output: {err.strerror or err}", str(path))


def write_file(path: Path, text: str) -> None:
    """`path` holds `text`, or, on error, what it held before."""
    partial = partial_path(path)
    try:
        with open(partial, "x") as stream:  # created with the umask's permissions, like the file it replaces
            stream.write(text)
        partial.replace(path)
    except OSError as err:
        partial.unlink(missing_ok=True)
        raise _cannot_write(path, err) from None


def write_files(directory: Path, files: Mapping[str, str]) -> None:
    """`directory` holds `files` (other files in it stay), or, on error, what it held before."""
    if directory.exists() and not directory.is_dir():
        raise CompileError("cannot write the output: it exists and is not a directory", str(directory))
    for name in files:
        if (directory / name).is_dir():
            raise CompileError("cannot write the output: it is a directory", str(directory / name))
    try:
        directory.parent.mkdir(parents=True, exist_ok=True)
        staging = partial_path(directory)
        staging.mkdir()
    except OSError as err:
        raise _cannot_write(directory, err) from None
    try:
        for name, content in files.items():
            (staging / name).write_text(content)
        if directory.exists():
            for name in files:  # each rename is atomic; the checks above leave nothing that makes one fail
                (staging / name).replace(directory / name)
        else:
            staging.rename(directory)
    except OSError as err:
        raise _cannot_write(directory, err) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
