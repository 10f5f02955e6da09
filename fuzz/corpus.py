"""Cases saved as JSON (`case.json` beside each reproducer) and replayed: fuzz/corpus/
holds small ones, the regression seeds of the failure classes found so far. The files of
the prepared saxpy program are not saved, only whether the case uses them."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from fuzz.cases import Case

PROGRAM_DIR = "prog/"
CORPUS = Path(__file__).resolve().parent / "corpus"


def dumps(case: Case, program: dict[str, bytes] | None) -> str:
    own = {
        name: content for name, content in case.files.items()
        if not (program and name.startswith(PROGRAM_DIR) and program.get(name.removeprefix(PROGRAM_DIR)) == content)
    }
    return json.dumps({
        "target": case.target, "tool": case.tool, "argv": list(case.argv), "note": case.note,
        "must_fail": case.must_fail, "uses_program": len(own) < len(case.files),
        "files": {name: _encode(content) for name, content in own.items()},
    }, indent=1) + "\n"


def loads(text: str, program: dict[str, bytes] | None) -> Case:
    data = json.loads(text)
    files = {name: _decode(content) for name, content in data["files"].items()}
    if data["uses_program"]:
        if program is None:
            raise ValueError("the case runs the prepared program: prepare it first")
        files = {f"{PROGRAM_DIR}{name}": content for name, content in program.items()} | files
    return Case(data["target"], data["tool"], tuple(data["argv"]), files, data["note"], data["must_fail"])


def uses_program(text: str) -> bool:
    return json.loads(text)["uses_program"]


def _encode(content: bytes) -> dict[str, str]:
    try:
        return {"text": content.decode()}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(content).decode()}


def _decode(content: dict[str, str]) -> bytes:
    return content["text"].encode() if "text" in content else base64.b64decode(content["base64"])
