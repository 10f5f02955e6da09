"""README's blocks run as written: every `sh` and `python` block but those `NOT_HERE` names
runs, in order, in a temporary directory laid out like a clone's root (its `ipu_lower/`),
with the venv's commands on PATH, and leaves nothing outside `out/`."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOT_HERE = {
    "python3 -m venv": "sets up the venv: CI runs it",
    "lit -s": "runs this suite",
    "make -C out": "needs the Poplar SDK",
}
"""Blocks containing these run elsewhere, for the reasons given."""


def readme_blocks() -> list[tuple[str, str]]:
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"^```(sh|python)\n(.*?)^```", text, re.DOTALL | re.MULTILINE)
    return [(kind, code) for kind, code in blocks if not any(s in code for s in NOT_HERE)]


def test_the_readme_has_runnable_blocks():
    kinds = [kind for kind, _ in readme_blocks()]
    assert kinds.count("sh") >= 3 and kinds.count("python") >= 1


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_readme_blocks_run_as_written(tmp_path):
    (tmp_path / "ipu_lower").symlink_to(ROOT / "ipu_lower")
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    for kind, code in readme_blocks():
        command = ["bash", "-e", "-c", code] if kind == "sh" else [sys.executable, "-c", code]
        result = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
        assert result.returncode == 0, f"README block failed:\n{code}\n{result.stderr[-2000:]}"
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["ipu_lower", "out"], left  # nothing outside out/
