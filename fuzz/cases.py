"""A fuzz case: files to write into a fresh directory and one tool to run there."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

CASE_DIR = "@CASE@"
"""Stands for the case's directory in files and arguments (canary paths are absolute)."""
CANARY_NAME = "CANARY"


@dataclass(frozen=True)
class Case:
    """`tool` is `ipu-opt`, `ipu-run`, `ipu-lower-report`, `python` (argv[0] a script
    among the files) or, for the self-check, `fake`. `files` hold what exists before the run, outputs that must
    survive an error included."""

    target: str
    tool: str
    argv: tuple[str, ...]
    files: dict[str, bytes] = field(default_factory=dict)
    note: str = ""
    must_fail: bool = False  # exit 0 is a wrong answer: the input must be refused

    def materialize(self, directory: Path) -> tuple[str, ...]:
        """Write the files into `directory`; the arguments with it filled in."""
        for name, content in self.files.items():
            path = directory / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content.replace(CASE_DIR.encode(), str(directory).encode()))
        return tuple(arg.replace(CASE_DIR, str(directory)) for arg in self.argv)

    def command_line(self) -> str:
        return " ".join([self.tool, *(json.dumps(a) if " " in a else a for a in self.argv)])
