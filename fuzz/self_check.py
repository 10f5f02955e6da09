"""Fake targets, one per outcome class, that prove the runner and the classifier detect
each failure: `python -m fuzz --self-check`."""

from __future__ import annotations

from fuzz import outcomes
from fuzz.cases import Case

FAKES: tuple[tuple[str, str], ...] = tuple({
    outcomes.OK: "print('fine')",
    outcomes.DIAGNOSTIC: "import sys\nprint('in.sdfg: error: bad input', file=sys.stderr)\nsys.exit(1)",
    outcomes.TRACEBACK: "{}['missing']",
    outcomes.INTERNAL: "import sys\nprint('tool: error: internal error (KeyError: None)', file=sys.stderr)\nsys.exit(1)",
    outcomes.MULTILINE: "import sys\nprint('UserWarning: noise\\nx: error: bad', file=sys.stderr)\nsys.exit(1)",
    outcomes.HANG: "while True:\n    pass",
    outcomes.CRASH: "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)",
    outcomes.WRITE_ON_ERROR: "import sys\nopen('out.mlir', 'w').write('half')\nprint('x: error: bad', file=sys.stderr)\nsys.exit(1)",
    outcomes.MEMORY: f"hog = b'x' * ({outcomes.MEMORY_LIMIT_MIB + 100} << 20)",
    outcomes.CANARY: "open('CANARY', 'w')",
    outcomes.WRONG: f"import sys\nprint('{outcomes.WRONG_MARKER} 2 + 2 = 5', file=sys.stderr)\nsys.exit({outcomes.WRONG_EXIT})",
}.items()) + (
    (outcomes.MULTILINE, "import sys, warnings\nwarnings.warn('noise')\nprint('x: error: bad', file=sys.stderr)\nsys.exit(1)"),
    (outcomes.DIAGNOSTIC, "import sys\nprint('warning: unknown symbol', file=sys.stderr)\nprint('x: error: bad', file=sys.stderr)\nsys.exit(1)"),
    (outcomes.CANARY, "import os\nos.mkdir('out')\nopen('out/host.cpp', 'w').write(f'system(\"touch {os.getcwd()}/CANARY\");')"),
    (outcomes.OK, "import os\nos.mkdir('out')\nopen('out/host.cpp', 'w').write('void saxpy_open_case_7_CANARY_w();')"),
)
"""(class, the fake's code). Second fakes: a leaked warning (printed even when the caller,
pytest say, records warnings), a C++ injection (a second way to the canary class: a
payload's text, which names the canary by its path), a C++ name made of a payload's
words (no code: ok) and a warning line of the tool's own before its error line (still one
diagnostic)."""


def fake_cases() -> list[Case]:
    """One case per class; `note` is the class it must land in."""
    return [
        Case("self-check", "fake", ("fake.py",), {"fake.py": code.encode(), "out.mlir": b"before\n"}, expected)
        for expected, code in FAKES
    ]
