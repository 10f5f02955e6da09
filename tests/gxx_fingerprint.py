"""The hash that keys what tests build or check with g++ in the compile cache."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path


def gxx_fingerprint(*inputs: str | Path) -> str:
    """The SHA-256 of g++'s version and of `inputs` in order: a string as itself, a file
    by its bytes, a folder by the path and bytes of every file below it."""
    version = subprocess.run([shutil.which("g++") or "g++", "--version"], capture_output=True, check=True)
    digest = hashlib.sha256(version.stdout)
    for item in inputs:
        if isinstance(item, str):
            digest.update(b"\0text\0" + item.encode())
            continue
        files = sorted(p for p in item.rglob("*") if p.is_file()) if item.is_dir() else [item]
        for path in files:
            name = path.relative_to(item).as_posix() if item.is_dir() else path.name
            digest.update(b"\0file\0" + name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
