"""ipu-lower-report: the emulator's cycle report as one self-contained HTML page.

    ipu-lower-report report.json -o report.html

The report is the JSON that `ipu-run --report` writes and `Program.report` holds (its format
is in ipu_lower/emulator/README.md, "Report"). The page shows what PopVision's Graph
Analyser shows for real hardware: heat maps of each tile's memory against its capacity and
of its compute cycles, the steps in execution order with their compute, exchange and sync
cycles, and the busiest tiles. It is plain HTML with inline CSS and SVG: no script, no
network, no other file. A malformed report is one line on stderr with exit code 1, and
nothing is written.
"""

from __future__ import annotations

import argparse
import gc
import heapq
import json
import math
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from ipu_lower.arch import ARCHS, Arch

T = TypeVar("T")

MAX_STEPS = 200
"""Steps listed one by one by default: the page of a 10,000-step report stays small."""

TOP_TILES = 10
MAX_NAME = 160
"""Characters of a step's name or kind shown; the rest is cut."""

MAX_IPUS = 64
"""Most IPUs a report may span: bounds the page of a hand-written num_tiles."""

MAX_KINDS = 64
"""Most kinds of step a report may have (the emulator has a dozen): bounds the table of kinds."""

COUNT_LIMIT = 2**64
"""Counts are the emulator's 64-bit unsigned counters; a larger one would overflow the
page's arithmetic in floats."""

MAX_CLOCK_HZ = 1e12
"""Clocks from 1 Hz to this: the estimated time of any count stays a finite number."""

MAX_REPORT_BYTES = 256 << 20
"""Largest report read, as for .sdfg files (a report of 10,000 steps is 2 MB)."""

CELL = 12
"""Pixels per tile in the heat maps (11 coloured, 1 gap)."""

BINS = 10
_STOPS = [(0x23, 0x30, 0x5E), (0x2F, 0x6F, 0xA8), (0x2A, 0xA1, 0x98), (0xA6, 0xC7, 0x4A),
          (0xF2, 0xC1, 0x2E), (0xE8, 0x70, 0x2A), (0xC0, 0x39, 0x2B)]


def _ramp(position: float) -> str:
    """The colour at `position` (0 to 1) along the stops, dark blue to red."""
    scaled = position * (len(_STOPS) - 1)
    low = min(int(scaled), len(_STOPS) - 2)
    frac = scaled - low
    rgb = (round(a + (b - a) * frac) for a, b in zip(_STOPS[low], _STOPS[low + 1]))
    return "#" + "".join(f"{c:02x}" for c in rgb)


PALETTE = [_ramp(i / (BINS - 1)) for i in range(BINS)]
"""The heat maps' colours: bin i holds values in (i/BINS, (i+1)/BINS] of the scale."""
ZERO_COLOUR = "#c9d1da"
"""A tile that is in the report with a zero value."""
EMPTY_COLOUR = "#eef1f4"
"""A tile the report does not list (no data, no vertices, no work)."""
OVER_COLOUR = "#6a0f6e"
"""Memory beyond the tile's capacity."""
STEP_COLOURS = {"compute": "#4c78a8", "exchange": "#f0a030", "sync": "#a0a8b0"}


class ReportError(Exception):
    """A report that cannot be read or drawn, or a page that cannot be written."""


@dataclass(frozen=True)
class Step:
    name: str
    kind: str
    executions: int
    compute: int
    exchange: int
    sync: int
    cycles: int
    exchange_bytes: int
    vertices: int | None


@dataclass(frozen=True)
class Tile:
    index: int
    bytes: int
    compute: int
    exchange_bytes: int


@dataclass(frozen=True)
class Report:
    arch: Arch
    num_tiles: int
    clock_hz: float
    total_cycles: int
    compute: int
    exchange: int
    sync: int
    vertices_without_estimate: int
    steps: list[Step]
    tiles: list[Tile]


# -- reading ---------------------------------------------------------------------------


def _show(value: Any, room: int = 40) -> str:
    """`value` as JSON cut to `room` characters; only what is shown is visited, so a huge
    or deeply nested value costs no more than a small one."""
    if isinstance(value, dict | list):
        parts: list[str] = []
        used = 1
        for item in value.items() if isinstance(value, dict) else value:
            if used >= room:
                break
            parts.append(f"{_show(item[0], room - used)}: {_show(item[1], room - used)}" if isinstance(value, dict)
                         else _show(item, room - used))
            used += len(parts[-1]) + 2
        ends = "{}" if isinstance(value, dict) else "[]"
        text = ends[0] + ", ".join(parts) + ends[1]
    else:
        text = json.dumps(value[: room + 1] if isinstance(value, str) else value)
    return text if len(text) <= room else text[: room - 3] + "..."


def _get(obj: dict, key: str, where: str) -> Any:
    if key not in obj:
        raise ReportError(f"{where} has no '{key}'")
    return obj[key]


def _integer(value: Any, where: str) -> int:
    # bool is an int in Python, but `true` is no count of cycles
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < COUNT_LIMIT:
        raise ReportError(f"{where} must be a non-negative integer below 2**64, got {_show(value)}")
    return value


def _typed(value: Any, kind: type, noun: str, where: str) -> Any:
    if not isinstance(value, kind):
        raise ReportError(f"{where} must be {noun}, got {_show(value)}")
    return value


def _object(value: Any, where: str) -> dict:
    return _typed(value, dict, "an object", where)


def _list(value: Any, where: str) -> list:
    return _typed(value, list, "a list", where)


def _string(value: Any, where: str) -> str:
    return _typed(value, str, "a string", where)


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number JSON allows")


def parse_report(data: Any) -> Report:
    """The report in `data` (parsed JSON), its shape checked: a ReportError names the first
    field that is missing or of the wrong type."""
    top = _object(data, "the report")
    arch_name = _string(_get(top, "arch", "the report"), "arch")
    if arch_name not in ARCHS:
        raise ReportError(f"unknown IPU architecture {_show(arch_name)} (known: {', '.join(ARCHS)})")
    arch = ARCHS[arch_name]
    num_tiles = _integer(_get(top, "num_tiles", "the report"), "num_tiles")
    if num_tiles == 0 or num_tiles % arch.tiles or num_tiles > MAX_IPUS * arch.tiles:
        raise ReportError(f"num_tiles must be a multiple of {arch_name}'s {arch.tiles} tiles "
                          f"(at most {MAX_IPUS} IPUs), got {num_tiles}")
    clock_hz = _get(top, "clock_hz", "the report")
    if isinstance(clock_hz, bool) or not isinstance(clock_hz, int | float) or not 1 <= clock_hz <= MAX_CLOCK_HZ:
        raise ReportError(f"clock_hz must be a number of hertz from 1 to {MAX_CLOCK_HZ:.0e}, got {_show(clock_hz)}")
    totals = _object(_get(top, "totals", "the report"), "totals")
    compute, exchange, sync = (
        _integer(_get(totals, f"{k}_cycles", "totals"), f"totals.{k}_cycles") for k in ("compute", "exchange", "sync")
    )
    unestimated = _integer(top.get("vertices_without_estimate", 0), "vertices_without_estimate")
    steps = [_step(s, f"steps[{i}]") for i, s in enumerate(_list(_get(top, "steps", "the report"), "steps"))]
    kinds = {s.kind for s in steps}
    if len(kinds) > MAX_KINDS:
        raise ReportError(f"steps have {len(kinds):,} kinds, more than the {MAX_KINDS} a report may have")
    return Report(
        arch=arch,
        num_tiles=num_tiles,
        clock_hz=float(clock_hz),
        total_cycles=_integer(_get(top, "total_cycles", "the report"), "total_cycles"),
        compute=compute,
        exchange=exchange,
        sync=sync,
        vertices_without_estimate=unestimated,
        steps=steps,
        tiles=_tiles(top, num_tiles),
    )


def _step(value: Any, where: str) -> Step:
    step = _object(value, where)

    def count(key: str) -> int:
        return _integer(_get(step, key, where), f"{where}.{key}")

    vertices = step.get("vertices")
    return Step(
        name=_string(_get(step, "name", where), f"{where}.name"),
        kind=_string(_get(step, "kind", where), f"{where}.kind"),
        executions=count("executions"),
        compute=count("compute_cycles"),
        exchange=count("exchange_cycles"),
        sync=count("sync_cycles"),
        cycles=count("cycles"),
        exchange_bytes=count("exchange_bytes"),
        vertices=None if vertices is None else _integer(vertices, f"{where}.vertices"),
    )


def _tiles(top: dict, num_tiles: int) -> list[Tile]:
    columns = _list(_get(top, "tile_columns", "the report"), "tile_columns")
    for i, name in enumerate(columns):
        _string(name, f"tile_columns[{i}]")
    needed = ("tile", "bytes", "compute_cycles", "exchange_bytes")
    missing = [c for c in needed if c not in columns]
    if missing:
        raise ReportError(f"tile_columns has no {', '.join(repr(c) for c in missing)}")
    at = [columns.index(c) for c in needed]
    tiles: list[Tile] = []
    seen: set[int] = set()
    for i, value in enumerate(_list(_get(top, "tiles", "the report"), "tiles")):
        row = _list(value, f"tiles[{i}]")
        if len(row) != len(columns):
            raise ReportError(f"tiles[{i}] has {len(row)} values for {len(columns)} tile_columns")
        index, held, compute, exchanged = (_integer(row[k], f"tiles[{i}][{k}]") for k in at)
        if index >= num_tiles:
            raise ReportError(f"tiles[{i}] is tile {index}, but the report has {num_tiles} tiles")
        if index in seen:
            raise ReportError(f"tiles[{i}]: tile {index} is listed twice")
        seen.add(index)
        tiles.append(Tile(index, held, compute, exchanged))
    return tiles


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The garbage collector off while JSON is parsed and read: the parser builds only new,
    acyclic lists and dicts, and the collections their number sets off scan all of them
    again and free nothing (they made a 27 MB report take 7 CPU-seconds instead of 1.5)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _load_json(path: str | os.PathLike) -> Any:
    """The JSON in the file at `path`; a ReportError says what is wrong with it."""
    try:
        with open(path, "rb") as stream:
            raw = stream.read(MAX_REPORT_BYTES + 1)  # one byte past the limit at most: /dev/zero has no end
    except OSError as err:
        raise ReportError(f"cannot read '{path}': {err.strerror or err}") from None
    if len(raw) > MAX_REPORT_BYTES:
        raise ReportError(f"'{path}' is larger than {MAX_REPORT_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ReportError(f"'{path}' is not UTF-8 text") from None
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        raise ReportError(f"'{path}':{err.lineno}:{err.colno}: invalid JSON: {err.msg}") from None
    except (ValueError, RecursionError) as err:
        raise ReportError(f"'{path}': invalid JSON: {err if isinstance(err, ValueError) else 'nested too deeply'}") from None
    return data


def _read(path: str | os.PathLike, parse: Callable[[Any], T]) -> T:
    """`parse` of the JSON in the file at `path`, the collector paused until the JSON is
    dropped (see `_collector_paused`); a ReportError says what is wrong with it."""
    with _collector_paused():
        data = _load_json(path)
        try:
            return parse(data)
        except ReportError as err:
            err.__traceback__ = None  # its frames would keep parts of the JSON alive
            raise ReportError(f"'{path}': {err}") from None
        finally:
            del data


def load_report(path: str | os.PathLike) -> Report:
    """The report in the JSON file at `path`; a ReportError says what is wrong with it."""
    return _read(path, parse_report)


@dataclass(frozen=True)
class Choice:
    """ipu-select-vertices' decision for a step: our codelet or a poplibs call, from the
    two estimates of its compute (program.json's `vertex_choices`)."""

    step: str
    implementation: str
    call: str
    ops: tuple[str, ...]
    codelet_cycles: int
    poplibs_cycles: int


def parse_choices(data: Any) -> list[Choice]:
    """The decisions in program.json (`data`, parsed), their shape checked; none when the
    program was lowered before there were any."""
    choices = []
    for k, row in enumerate(_list(_object(data, "program.json").get("vertex_choices", []), "vertex_choices")):
        where = f"vertex_choices[{k}]"
        _object(row, where)
        implementation = _string(_get(row, "implementation", where), f"{where}.implementation")
        if implementation not in ("codelet", "poplibs"):
            raise ReportError(f"{where}.implementation must be codelet or poplibs, got {_show(implementation)}")
        choices.append(Choice(
            step=_string(_get(row, "step", where), f"{where}.step"),
            implementation=implementation,
            call=_string(_get(row, "call", where), f"{where}.call"),
            ops=tuple(_string(o, f"{where}.ops") for o in _list(_get(row, "ops", where), f"{where}.ops")),
            codelet_cycles=_integer(_get(row, "codelet_cycles", where), f"{where}.codelet_cycles"),
            poplibs_cycles=_integer(_get(row, "poplibs_cycles", where), f"{where}.poplibs_cycles"),
        ))
    return choices


@dataclass(frozen=True)
class VertexEstimate:
    """A placement of our codelet: its busiest vertex's cycles as emitted and as
    hand-scheduled asm could run the same body (program.json's `vertex_estimates`)."""

    step: str
    codelet: str
    emitted: int
    asm: int


def parse_estimates(data: Any) -> list[VertexEstimate]:
    """The vertex estimates in program.json (`data`, parsed), their shape checked; none
    when the program was lowered before there were any."""
    estimates = []
    for k, row in enumerate(_list(_object(data, "program.json").get("vertex_estimates", []), "vertex_estimates")):
        where = f"vertex_estimates[{k}]"
        _object(row, where)
        estimates.append(VertexEstimate(
            step=_string(_get(row, "step", where), f"{where}.step"),
            codelet=_string(_get(row, "codelet", where), f"{where}.codelet"),
            emitted=_integer(_get(row, "emitted", where), f"{where}.emitted"),
            asm=_integer(_get(row, "asm", where), f"{where}.asm"),
        ))
    return estimates


def load_program(path: str | os.PathLike) -> tuple[list[Choice], list[VertexEstimate]]:
    """The decisions and vertex estimates in the program.json at `path`; a ReportError
    says what is wrong."""
    return _read(path, lambda data: (parse_choices(data), parse_estimates(data)))


# -- drawing ---------------------------------------------------------------------------


def _escape(text: str) -> str:
    """`text` as HTML text or attribute value. A lone surrogate (JSON's "\\ud800", or a
    byte of a file name or argument that is not UTF-8) has no UTF-8 encoding: the page
    shows its escape instead."""
    return escape(text.encode("utf-8", "backslashreplace").decode("utf-8"))


def _cut(text: str) -> str:
    """At most MAX_NAME characters of a name from the report (a name is data of any length)."""
    return text if len(text) <= MAX_NAME else text[:MAX_NAME] + "…"


def grid_columns(tiles_per_ipu: int) -> int:
    """Columns of the tile grid: the divisor of the IPU's tile count that makes it nearest
    to 1.44 times as wide as tall (46 x 32 for 1472 tiles, 38 x 32 for 1216)."""
    target = math.sqrt(1.44 * tiles_per_ipu)
    return min((d for d in range(1, tiles_per_ipu + 1) if tiles_per_ipu % d == 0), key=lambda d: abs(d - target))


def colour(value: int, scale: float) -> str:
    """The heat-map colour of `value` on a scale from 0 to `scale`."""
    if value == 0:
        return ZERO_COLOUR
    if value > scale:
        return OVER_COLOUR
    return PALETTE[min(BINS - 1, math.ceil(value / scale * BINS) - 1)]


def _bytes(n: float) -> str:
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}" if n % size else f"{n // size:,} {unit}"
    return f"{n:,} B"


def _seconds(s: float) -> str:
    for unit, size in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if s >= size:
            return f"{s / size:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def _percent(part: float, whole: float) -> str:
    return f"{100 * part / whole:.3g}%" if whole else "0%"


def heat_map(
    ident: str, title: str, report: Report, value: Callable[[Tile], int], scale: float,
    label: Callable[[Tile], str], legend: list[str],
) -> str:
    """An SVG grid of the report's tiles coloured by `value(tile)` on 0 to `scale`, each
    cell titled `label(tile)`; tiles the report does not list are drawn empty."""
    columns = grid_columns(report.arch.tiles)
    rows = math.ceil(report.num_tiles / columns)
    left, top = 44, 4
    width, height = max(left + columns * CELL, left + 540), top + rows * CELL
    parts = [(
        f'<figure><figcaption>{_escape(title)}</figcaption>'
        f'<svg class="heatmap" width="{width}" height="{height + 58}" role="img" aria-label="{_escape(title)}">'
        f'<defs><pattern id="empty-{ident}" width="{CELL}" height="{CELL}" patternUnits="userSpaceOnUse" x="{left}" y="{top}">'
        f'<rect width="{CELL - 1}" height="{CELL - 1}" fill="{EMPTY_COLOUR}"/></pattern></defs>'
        f'<rect x="{left}" y="{top}" width="{columns * CELL}" height="{(rows - 1) * CELL}" fill="url(#empty-{ident})"/>'
        f'<rect x="{left}" y="{top + (rows - 1) * CELL}" width="{(report.num_tiles - (rows - 1) * columns) * CELL}" '
        f'height="{CELL}" fill="url(#empty-{ident})"/>'
    )]
    for row in range(0, rows, 4):
        parts.append(f'<text x="{left - 4}" y="{top + row * CELL + CELL - 2}" class="axis">{row * columns}</text>')
    for tile in report.tiles:
        x, y = left + tile.index % columns * CELL, top + tile.index // columns * CELL
        parts.append(f'<rect x="{x}" y="{y}" width="{CELL - 1}" height="{CELL - 1}" fill="{colour(value(tile), scale)}">'
                     f'<title>{label(tile)}</title></rect>')
    parts.append(_legend(left, height + 10, legend, any(value(t) > scale for t in report.tiles)))
    parts.append("</svg></figure>")
    return "".join(parts)


def _legend(x: int, y: int, ticks: list[str], over: bool) -> str:
    """The colour scale: the bins left to right with the scale's ends and middle below,
    then the zero, empty (and over-capacity) swatches."""
    swatch = 24
    parts = [f'<rect x="{x + i * swatch}" y="{y}" width="{swatch}" height="12" fill="{c}"/>' for i, c in enumerate(PALETTE)]
    for i, tick in enumerate(ticks):
        anchor = ("start", "middle", "end")[i]
        parts.append(f'<text x="{x + i * BINS * swatch // 2}" y="{y + 26}" text-anchor="{anchor}" class="tick">{_escape(tick)}</text>')
    extra = [(ZERO_COLOUR, "0"), (EMPTY_COLOUR, "not in report")] + ([(OVER_COLOUR, "over capacity")] if over else [])
    at = x + BINS * swatch + 16
    for fill, text in extra:
        parts.append(f'<rect x="{at}" y="{y}" width="12" height="12" fill="{fill}"/>'
                     f'<text x="{at + 16}" y="{y + 10}" class="tick">{text}</text>')
        at += 24 + 7 * len(text)
    return "".join(parts)


def _segments(compute: int, exchange: int, sync: int) -> str:
    """The three kinds of cycles side by side, each as wide as its share."""
    total = compute + exchange + sync
    return "".join(
        f'<i style="width:{100 * v / total:.2f}%;background:{STEP_COLOURS[k]}"></i>'
        for k, v in (("compute", compute), ("exchange", exchange), ("sync", sync)) if v
    )


def _bar(step: Step, scale: int) -> str:
    """A step's stacked bar, as wide as its cycles on `scale` (the longest step's)."""
    total = step.compute + step.exchange + step.sync
    return f'<div class="bar" style="width:{100 * total / scale:.2f}%">{_segments(step.compute, step.exchange, step.sync)}</div>'


def _chosen_steps(steps: list[Step], limit: int) -> list[int]:
    """Indices of the steps to list: all, or the `limit` of most cycles in their order."""
    if len(steps) <= limit:
        return list(range(len(steps)))
    return sorted(heapq.nlargest(limit, range(len(steps)), key=lambda i: (steps[i].cycles, -i)))


def steps_table(report: Report, limit: int) -> str:
    """The steps in execution order, each with its stacked bar; at most `limit` of them."""
    steps = report.steps
    if not steps:
        return "<p>No step ran.</p>"
    scale = max(s.compute + s.exchange + s.sync for s in steps) or 1
    shown = _chosen_steps(steps, limit)
    note = "" if len(shown) == len(steps) else (
        f'<p class="note">{len(steps):,} steps: the {len(shown):,} with the most cycles are listed in execution '
        f"order; the others are summed where they were left out.</p>")
    rows = []
    previous = -1
    for i in shown + [len(steps)]:
        if i > previous + 1:
            left_out = steps[previous + 1:i]
            rows.append(f'<tr class="gap"><td></td><td colspan="9">… {_count(len(left_out), "step")} not listed: '
                        f"{sum(s.cycles for s in left_out):,} cycles</td></tr>")
        if i < len(steps):
            s = steps[i]
            name = _cut(s.name)
            rows.append(
                f'<tr><td class="n">{i + 1}</td><td class="name" title="{_escape(name)}">{_escape(name)}</td>'
                f"<td>{_escape(_cut(s.kind))}</td><td class=\"n\">{s.executions:,}</td><td class=\"n\">{s.cycles:,}</td>"
                f'<td class="barcell">{_bar(s, scale)}</td>'
                f'<td class="n">{s.compute:,}</td><td class="n">{s.exchange:,}</td><td class="n">{s.sync:,}</td>'
                f'<td class="n">{s.exchange_bytes:,}</td></tr>')
        previous = i
    return (note + '<table class="steps"><thead><tr><th>#</th><th>step</th><th>kind</th><th>runs</th><th>cycles</th>'
            f'<th>compute / exchange / sync (bar: share of the longest step, {scale:,} cycles)</th>'
            "<th>compute</th><th>exchange</th><th>sync</th><th>exchange B</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def kinds_table(report: Report) -> str:
    """The steps summed by kind, in order of first appearance."""
    kinds: dict[str, list[int]] = {}
    for s in report.steps:
        sums = kinds.setdefault(s.kind, [0] * 6)
        for k, v in enumerate((1, s.executions, s.cycles, s.compute, s.exchange, s.sync)):
            sums[k] += v
    total = sum(v[2] for v in kinds.values())
    rows = "".join(
        f"<tr><td>{_escape(_cut(kind))}</td>" + "".join(f'<td class="n">{v:,}</td>' for v in sums)
        + f'<td class="n">{_percent(sums[2], total)}</td></tr>'
        for kind, sums in kinds.items()
    )
    return ('<table><thead><tr><th>kind</th><th>steps</th><th>runs</th><th>cycles</th><th>compute</th>'
            f"<th>exchange</th><th>sync</th><th>share</th></tr></thead><tbody>{rows}</tbody></table>")


def busiest_table(report: Report, title: str, key: Callable[[Tile], int], count: int) -> str:
    """The `count` tiles of largest `key`, the lower index first among equals."""
    capacity = report.arch.bytes_per_tile
    tiles = heapq.nsmallest(count, report.tiles, key=lambda t: (-key(t), t.index))
    rows = "".join(
        f'<tr><td class="n">{t.index}</td><td class="n">{t.bytes:,}</td><td class="n">{_percent(t.bytes, capacity)}</td>'
        f'<td class="n">{t.compute:,}</td><td class="n">{t.exchange_bytes:,}</td></tr>'
        for t in tiles
    )
    return (f"<div><h3>{_escape(title)}</h3><table><thead><tr><th>tile</th><th>bytes</th><th>of capacity</th>"
            f"<th>compute cycles</th><th>exchange B</th></tr></thead><tbody>{rows}</tbody></table></div>")


CSS = """
body{font:13px/1.4 system-ui,sans-serif;color:#1b1f24;margin:16px 24px;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:20px 0 6px}h3{font-size:13px;margin:6px 0}
.sub{color:#555;margin-bottom:8px}.cards{display:flex;gap:24px;margin:6px 0}.cards b{display:block;font-size:18px}
.maps{display:flex;gap:32px;flex-wrap:wrap}figure{margin:0}figcaption{font-weight:600;margin-bottom:2px}
.axis{font-size:9px;text-anchor:end;fill:#555}.tick{font-size:10px;fill:#333}
table{border-collapse:collapse}td,th{padding:1px 8px;text-align:left;border-bottom:1px solid #e4e7eb}
th{font-weight:600;background:#f6f8fa}.n{text-align:right;font-variant-numeric:tabular-nums}
.name{max-width:26em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.barcell{width:320px}.bar{display:flex;height:10px;min-width:1px}.bar i{display:block;height:100%}
.whole{width:600px;height:14px;background:#eef1f4}.gap td{color:#777;font-style:italic}.note{color:#555}.tops{display:flex;gap:32px}
.key i{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px}
"""


def choices_table(choices: Sequence[Choice]) -> str:
    """One row per step ipu-select-vertices priced: the poplibs call, the one chosen, and
    the two estimates of the busiest tile's compute."""
    rows = "".join(
        f"<tr><td>{_escape(_cut(c.step))}</td><td>{_escape(_cut(c.call + (' ' + ', '.join(c.ops) if c.ops else '')))}</td>"
        f"<td><b>{'our codelet' if c.implementation == 'codelet' else 'poplibs'}</b></td>"
        f'<td class="n">{c.codelet_cycles:,}</td><td class="n">{c.poplibs_cycles:,}</td></tr>'
        for c in choices
    )
    return ('<p class="note">Compute cycles of the busiest tile: our codelet as the cost model reads its body, '
            "poplibs' vertices as poplibs' own estimators give them (a chain: one call per op and a sync "
            "between calls).</p><table><thead><tr><th>step</th><th>poplibs call</th><th>chosen</th>"
            f"<th>our codelet</th><th>poplibs</th></tr></thead><tbody>{rows}</tbody></table>")


def estimates_table(estimates: Sequence[VertexEstimate]) -> str:
    """One row per placement of our codelets: the busiest vertex as emitted and the asm
    bound for the same body."""
    rows = "".join(
        f"<tr><td>{_escape(_cut(e.step))}</td><td>{_escape(_cut(e.codelet))}</td>"
        f'<td class="n">{e.emitted:,}</td><td class="n">{e.asm:,}</td><td class="n">{e.emitted / max(e.asm, 1):.2f}</td></tr>'
        for e in estimates
    )
    return ('<p class="note">Cycles of the busiest vertex: as emitted is what the cost model expects popc to make '
            "of our C++ (poplibs' rule for its C++ codelets; what setPerfEstimate says); asm is what "
            "hand-scheduled assembly could make of the same body (paired loads, rpt loops): a bound, not our "
            "code.</p><table><thead><tr><th>step</th><th>codelet</th><th>as emitted</th><th>asm bound</th>"
            f"<th>emitted / asm</th></tr></thead><tbody>{rows}</tbody></table>")


def render(
    report: Report, title: str, max_steps: int = MAX_STEPS, choices: Sequence[Choice] = (),
    estimates: Sequence[VertexEstimate] = (),
) -> str:
    """The page for `report` (and the vertex `choices` and `estimates` of its program,
    when given): every string from the report is escaped."""
    arch = report.arch
    capacity = arch.bytes_per_tile
    total = report.total_cycles
    peak_bytes = max((t.bytes for t in report.tiles), default=0)
    peak_compute = max((t.compute for t in report.tiles), default=0)
    seconds = total / report.clock_hz
    memory = heat_map(
        "memory",
        f"Memory per tile, against its capacity of {_bytes(capacity)}", report, lambda t: t.bytes, capacity,
        lambda t: f"tile {t.index}: {t.bytes:,} B, {_percent(t.bytes, capacity)}",
        ["0", _bytes(capacity // 2), _bytes(capacity)],
    )
    compute = heat_map(
        "compute",
        f"Compute cycles per tile (busiest {peak_compute:,})", report, lambda t: t.compute, max(peak_compute, 1),
        lambda t: f"tile {t.index}: {t.compute:,} cycles",
        ["0", f"{peak_compute / 2:,.0f}", f"{peak_compute:,}"],
    )
    key = "".join(f'<i style="background:{c}"></i>{k}' for k, c in STEP_COLOURS.items())
    note = "" if not report.vertices_without_estimate else (
        f'<p class="note">{report.vertices_without_estimate:,} vertices have no cycle estimate: '
        "their compute is not counted.</p>")
    cards = [
        ("total cycles", f"{total:,}"),
        ("estimated time", _seconds(seconds)),
        ("compute", f"{report.compute:,} ({_percent(report.compute, total)})"),
        ("exchange", f"{report.exchange:,} ({_percent(report.exchange, total)})"),
        ("sync", f"{report.sync:,} ({_percent(report.sync, total)})"),
        ("steps", f"{len(report.steps):,}"),
        ("tiles in report", f"{len(report.tiles):,} of {report.num_tiles:,}"),
        ("busiest tile's memory", f"{_bytes(peak_bytes)} ({_percent(peak_bytes, capacity)})"),
    ]
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{_escape(title)}</title>'
        f"<style>{CSS}</style></head><body>"
        f"<h1>{_escape(title)}</h1>"
        f'<div class="sub">{arch.name}: {report.num_tiles:,} tiles, {_bytes(capacity)} per tile, '
        f"{report.clock_hz / 1e9:.3g} GHz. Cycles are the CPU emulator's estimates, not measurements.</div>"
        '<div class="cards">' + "".join(f"<div>{k}<b>{v}</b></div>" for k, v in cards) + "</div>"
        f'<div class="bar whole">{_segments(report.compute, report.exchange, report.sync)}</div>'
        f'<div class="key">{key}</div>{note}'
        f'<h2>Tiles</h2><div class="maps">{memory}{compute}</div>'
        f"<h2>Steps by kind</h2>{kinds_table(report)}"
        f"<h2>Steps in execution order</h2>{steps_table(report, max_steps)}"
        + (f"<h2>Vertex choices</h2>{choices_table(choices)}" if choices else "")
        + (f"<h2>Vertex estimates</h2>{estimates_table(estimates)}" if estimates else "")
        + '<h2>Busiest tiles</h2><div class="tops">'
        f"{busiest_table(report, f'Top {TOP_TILES} by memory', lambda t: t.bytes, TOP_TILES)}"
        f"{busiest_table(report, f'Top {TOP_TILES} by compute cycles', lambda t: t.compute, TOP_TILES)}"
        "</div></body></html>\n"
    )


# -- the command -----------------------------------------------------------------------


def write_atomically(path: Path, text: str) -> None:
    """`text` into `path`, or `path` untouched: written beside it, then moved into place."""
    data = text.encode("utf-8")  # before any file exists
    if path.is_dir():
        raise ReportError(f"cannot write '{path}': it is a directory")
    if not path.absolute().parent.is_dir():
        raise ReportError(f"cannot write '{path}': its directory does not exist")
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # atomic_output's name; importing it costs xDSL's 0.8 s
    try:
        partial.write_bytes(data)
        partial.replace(path)
    except OSError as err:
        partial.unlink(missing_ok=True)
        raise ReportError(f"cannot write '{path}': {err.strerror or err}") from None


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="ipu-lower-report", description=__doc__.split("\n\n")[0])
    parser.error = _usage_error  # type: ignore[method-assign]
    parser.add_argument("report", help="the emulator's report (ipu-run --report FILE, or Program.report saved as JSON)")
    parser.add_argument("-o", "--output", required=True, help="the HTML page to write")
    parser.add_argument("--title", help="the page's title (default: the report's file name)")
    parser.add_argument("--program", metavar="PROGRAM_JSON",
                        help="the program.json of the run: adds each step's choice of our codelet or poplibs, "
                             "and each codelet's estimate as emitted and as asm")
    parser.add_argument("--max-steps", type=int, default=MAX_STEPS, metavar="N",
                        help=f"list at most N steps one by one, those of most cycles (default {MAX_STEPS})")
    args = parser.parse_args(argv)
    if args.max_steps < 1:
        parser.error("--max-steps must be at least 1")
    return args


def _usage_error(message: str) -> NoReturn:
    """One line and exit code 1, not argparse's usage and exit code 2."""
    raise ReportError(f"{message} (see ipu-lower-report --help)")


def run(argv: Sequence[str] | None = None) -> Path:
    args = _parse_args(argv)
    source, output = Path(args.report), Path(args.output)
    if os.path.realpath(output) == os.path.realpath(source):  # realpath, unlike resolve, takes a symlink loop
        raise ReportError(f"the page would overwrite the report '{source}': give another -o")
    report = load_report(source)
    choices, estimates = load_program(args.program) if args.program is not None else ([], [])
    title = args.title if args.title is not None else f"Cycle report: {source.name}"
    write_atomically(output, render(report, title, args.max_steps, choices, estimates))
    return output


def ipu_lower_report_main(argv: Sequence[str] | None = None) -> None:
    try:
        run(argv)
    except ReportError as err:
        print(f"ipu-lower-report: error: {err}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    ipu_lower_report_main()
