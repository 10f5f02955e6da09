"""Cycle estimates for vertices: the one place cost assumptions live.

A MultiVertex runs its elementwise loop on the tile's worker threads; each worker gets
ceil(n / workers) elements. Workers share the pipeline round-robin, so a worker issues
one instruction every `workers` cycles (poplar.md, cost-model hints): a vertex whose
busiest worker executes I instructions takes about workers * I cycles.
All instruction counts below are assumptions, not measurements.
"""

from __future__ import annotations

from math import ceil

from xdsl.dialects import math
from xdsl.ir import Block
from xdsl.traits import IsTerminator

VERTEX_OVERHEAD_INSTRUCTIONS = 10
"""Assumption: vertex entry, field pointer loads, loop setup (tut6 uses 5 for a dot)."""

LOOP_INSTRUCTIONS_PER_ELEMENT = 2
"""Assumption: index increment and branch."""

MATH_FUNCTION_INSTRUCTIONS = 20
"""Assumption: a libm call (sqrt, exp, log, ...) in software on one worker."""


def instructions_per_element(body: Block, loads: int, stores: int) -> int:
    """Instructions one worker executes per element of an elementwise body."""
    compute = sum(
        MATH_FUNCTION_INSTRUCTIONS if op.name.startswith(math.Math.name + ".") else 1
        for op in body.ops
        if not op.has_trait(IsTerminator)
    )
    return compute + loads + stores + LOOP_INSTRUCTIONS_PER_ELEMENT


def vertex_cycles(per_element: int, elements: int, workers: int) -> int:
    """Cycles of a MultiVertex processing `elements` on `workers` worker threads."""
    per_worker = ceil(elements / workers)
    return workers * (VERTEX_OVERHEAD_INSTRUCTIONS + per_worker * per_element)
