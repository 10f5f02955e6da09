"""Hostile strings for every string field of an input: Python, sympy and C++ code that
would touch the case's canary file if anything evaluated or compiled it."""

from __future__ import annotations

from fuzz.cases import CANARY_NAME, CASE_DIR

CANARY = f"{CASE_DIR}/{CANARY_NAME}"

PAYLOADS: tuple[str, ...] = (
    f"__import__('os').system('touch {CANARY}')",
    f"open('{CANARY}', 'w')",
    f"(lambda: open('{CANARY}', 'w'))()",
    f"[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'Popen'][0](['touch', '{CANARY}'])",
    f"Symbol('N') + __import__('pathlib').Path('{CANARY}').touch()",
    f"N + Function('open')('{CANARY}', 'w')",
    f"exec(\"open('{CANARY}', 'w')\")",
    f"eval(compile(\"open('{CANARY}','w')\", 'x', 'exec'))",
    f"\"); system(\"touch {CANARY}\"); //",
    f"x; }} int _fuzz = system(\"touch {CANARY}\"); void f() {{",
    f"*/ #include <cstdlib>\n static int _f = std::system(\"touch {CANARY}\"); /*",
    f"a\n#define float int\nstatic int _f = system(\"touch {CANARY}\");\n",
    f"getattr(__builtins__, 'open')('{CANARY}', 'w')",
    f"N; import os; os.system('touch {CANARY}')",
    f"${{touch {CANARY}}}$(touch {CANARY})`touch {CANARY}`",
)
