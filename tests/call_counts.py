"""Work measured as Python function calls: deterministic, unlike seconds on a shared
machine, for the tests that keep the compiler's work linear in the program's size."""

from __future__ import annotations

import sys
from collections.abc import Callable


def python_calls(function: Callable[..., object], *args: object) -> int:
    """How many Python calls `function(*args)` makes."""
    count = 0

    def profile(_frame, event, _arg):
        nonlocal count
        count += event == "call"

    sys.setprofile(profile)
    try:
        function(*args)
    finally:
        sys.setprofile(None)
    return count
