"""A program's plan as program.json carries it: its estimated cycles, the while loops
whose trip counts only a run knows, and the steps in the terms the emulator measures.

Plain data, apart from the cost model that computes it (`ipu_lower.cost_model`): running
a built program reads and compares these without importing xDSL or the cost model.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class WhileLoop:
    """A `RepeatWhileTrue` whose trip count is known only when it runs (a bound read from
    data or from a scalar argument): what one iteration costs, and how often the program
    enters the loop (`entries`, per iteration of the enclosing while loop `within`)."""

    predicate: str
    iteration_cycles: int
    entries: int
    within: str | None = None


@dataclass(frozen=True)
class PlannedStep:
    """One program step as the plan has it, in the terms the emulator measures
    (ipu_lower_emulator/Measurement.hpp): its `kind` (the emulator's step kinds), the
    compute set's `name` for an Execute, the bytes its busiest tile moves in the
    exchange per execution (a bound unless `exact`) and its syncs per execution. It runs
    `entries` times per iteration of the while loop `within` (per run of the program
    when None); under an If (`conditional`) at most that often. `modelled`: a poplibs
    call, whose syncs and bytes the emulator takes from the cost model too, so that
    comparing them would check nothing (left at 0 here)."""

    kind: str
    name: str
    busiest_tile_bytes: int
    exact: bool
    syncs: int
    entries: int
    within: str | None = None
    conditional: bool = False
    modelled: bool = False


@dataclass(frozen=True)
class Counts:
    """How often a run executes what, what its busiest tiles move and how often it syncs:
    planned (`ProgramEstimate.planned`) or measured by the emulator
    (`ipu_lower.runtime.Measured.counts`), compared field by field (`ProgramEstimate.mismatches`).

    `runs`: executions of each compute set; `superstep_bytes`: the bytes each compute
    set's busiest tile moves per run; `executions`: steps run, by kind; `exchange`: the
    busiest tile's bytes summed over executions, by kind, for kinds the emulator measures;
    `syncs`: syncs of the steps the emulator measures (not of poplibs calls)."""

    runs: dict[str, int]
    superstep_bytes: dict[str, int]
    executions: dict[str, int]
    exchange: dict[str, int]
    syncs: int

    @staticmethod
    def of(steps: Sequence[tuple[PlannedStep, int]]) -> Counts:
        """The counts of `steps`, each with how often it ran."""
        runs: Counter[str] = Counter()
        executions: Counter[str] = Counter()
        exchange: Counter[str] = Counter()
        superstep_bytes: dict[str, int] = {}
        syncs = 0
        for step, times in steps:
            executions[step.kind] += times
            if step.kind == "execute":
                runs[step.name] += times
                superstep_bytes[step.name] = step.busiest_tile_bytes
            if not step.modelled:
                exchange[step.kind] += times * step.busiest_tile_bytes
                syncs += times * step.syncs
        return Counts(dict(runs), superstep_bytes, dict(executions), dict(exchange), syncs)


@dataclass(frozen=True)
class ProgramEstimate:
    """The cycles of one run of a host program. `cycles` counts every step as often as it
    runs when that is known (a `Repeat` multiplies its body by its count, an `If` costs
    its slower branch); a `RepeatWhileTrue` adds only its last evaluation of the condition
    there, and each of its iterations is in `while_loops`, since its trip count is
    not known before the program runs (`with_trips` adds them for given trip counts; the
    emulator's report counts the executions that happened). `steps` is the plan in the
    terms the emulator measures (`PlannedStep`, `planned`)."""

    cycles: int
    while_loops: tuple[WhileLoop, ...] = ()
    steps: tuple[PlannedStep, ...] = ()

    def _times(self, within: str | None, trips: dict[str, int]) -> int:
        """How often the body of the while loop over `within` runs (1 for None)."""
        if within is None:
            return 1
        loop = next(w for w in self.while_loops if w.predicate == within)
        return loop.entries * self._times(loop.within, trips) * trips[within]

    def with_trips(self, trips: dict[str, int]) -> int:
        """The cycles when the loop over each predicate in `trips` iterates that often."""
        return self.cycles + sum(
            loop.iteration_cycles * loop.entries * self._times(loop.within, trips) * trips[loop.predicate]
            for loop in self.while_loops
        )

    def planned(self, trips: dict[str, int] | None = None) -> tuple[Counts, Counts]:
        """The least and the most a run can count (`Counts`), when the loop over each
        predicate in `trips` iterates that often: equal unless the program has an If
        (whose branches may not run) or a dynamic slice (whose bytes are a bound)."""
        trips = trips or {}
        times = [(step, step.entries * self._times(step.within, trips)) for step in self.steps]
        least = Counts.of([(s if s.exact else replace(s, busiest_tile_bytes=0), 0 if s.conditional else n) for s, n in times])
        return least, Counts.of(times)

    def mismatches(self, measured: Counts, trips: dict[str, int] | None = None) -> list[str]:
        """Each field of `measured` outside what the plan allows (`planned`), described;
        empty when the run is what was planned."""
        least, most = self.planned(trips)
        wrong = []
        for field_ in ("runs", "executions", "exchange"):
            low, high, got = getattr(least, field_), getattr(most, field_), getattr(measured, field_)
            for key in sorted(set(high) | set(got)):
                if not low.get(key, 0) <= got.get(key, 0) <= high.get(key, 0):
                    wrong.append(f"{field_}[{key!r}]: measured {got.get(key, 0)}, planned {low.get(key, 0)} to {high.get(key, 0)}")
        for name, got_bytes in sorted(measured.superstep_bytes.items()):
            if most.superstep_bytes.get(name) != got_bytes:
                wrong.append(f"superstep_bytes[{name!r}]: measured {got_bytes}, planned {most.superstep_bytes.get(name)}")
        if not least.syncs <= measured.syncs <= most.syncs:
            wrong.append(f"syncs: measured {measured.syncs}, planned {least.syncs} to {most.syncs}")
        return wrong
