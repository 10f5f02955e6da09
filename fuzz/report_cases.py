"""Cases for ipu-lower-report: the emulator's report mutated, with values JSON holds but a
page cannot (lone surrogates, 10**400, 1e400), values JSON does not hold (NaN, 100,000
levels of nesting), huge arrays, titles and file names that are not UTF-8, and outputs
that cannot be written. Every case has a page from before the run (`page.html`) that must
be unchanged when the tool reports an error."""

from __future__ import annotations

import json
import os
import random

from fuzz import json_mutations, text_mutations
from fuzz.cases import Case

REPORT = "report.json"
PAGE = "page.html"
SENTINEL = b"<p>a page the user had before the run</p>\n"
ARGV = (REPORT, "-o", PAGE)
RAW = "@FUZZ-RAW@"
"""Stands for a field's value in a report's JSON until the raw text of the case replaces it."""


def base_report() -> dict:
    """A report as the emulator writes it (ipu_lower/emulator/README.md, "Report"): ipu2,
    a step of each of six kinds, five tiles."""
    kinds = ("copy", "execute", "stream_copy", "sync", "control", "reduce")
    steps = [
        {"name": f"{kind} {i}", "kind": kind, "executions": i + 1, "compute_cycles": 10 * i,
         "exchange_cycles": 5 * i, "sync_cycles": 150, "cycles": 15 * i + 150, "exchange_bytes": 64 * i}
        for i, kind in enumerate(kinds)
    ]
    steps[1] |= {"vertices": 3, "vertices_without_estimate": 0}
    totals = {f"{k}_cycles": sum(s[f"{k}_cycles"] for s in steps) for k in ("compute", "exchange", "sync")}
    return {
        "emulator": "ipu-lower CPU emulator", "arch": "ipu2", "num_tiles": 1472, "clock_hz": 1330000000,
        "total_cycles": sum(totals.values()), "estimated_seconds": 1e-6, "totals": totals,
        "vertices_without_estimate": 0, "steps": steps,
        "tile_columns": ["tile", "bytes", "compute_cycles", "exchange_bytes"],
        "tiles": [[t, 1000 * t, 7 * t, 64] for t in (0, 1, 45, 46, 1471)],
    }


def _with_raw(path: tuple[str | int, ...], raw: str) -> bytes:
    """The base report's JSON with the value at `path` written as `raw`, text that
    json.dumps would not write (NaN, 1e400, "\\ud800", 100,000 brackets)."""
    text = json.dumps(json_mutations.replace(base_report(), path, RAW))
    return text.replace(json.dumps(RAW), raw).encode()


RAW_VALUES: dict[str, bool] = {
    "NaN": True, "Infinity": True, "-Infinity": True, "1" + "0" * 5000: True, "[" * 100_000 + "]" * 100_000: True,
    "1e400": False, "-1e400": False, "1" + "0" * 400: False, "18446744073709551616": False, "-0": False,
    '"\\ud800"': False, '"a\\udfff\\ud800b"': False, '"\\u0000"': False, "[" * 900 + "]" * 900: False,
    "[" + "0," * 200_000 + "0]": False, '"' + "\\u00e9" * 100_000 + '"': False,
}
"""Raw values for a field, and whether any report holding one must be refused (a value JSON
does not hold, or one Python's parser refuses); the others depend on the field."""

_NOT_UTF8 = (b"\xff", b"\xed\xa0\x80", b"\xc3")  # a stray byte, a surrogate encoded, a cut sequence


def hostile_cases() -> list[Case]:
    """Each kind of input that once gave a traceback or left a partial page, once;
    tests/test_fuzz.py runs them all."""
    report = json.dumps(base_report()).encode()
    page = {PAGE: SENTINEL}

    def case(note: str, content: bytes = report, argv: tuple[str, ...] = ARGV, must_fail: bool = False,
             name: str = REPORT) -> Case:
        return Case("report-page", "ipu-lower-report", argv, {name: content} | page, note, must_fail)

    not_utf8 = os.fsdecode(b"r\xff.json")  # what Python makes of such a name in argv: a surrogate
    return [
        case("lone surrogate in a step's name", _with_raw(("steps", 0, "name"), '"a\\ud800b"')),
        case("lone surrogate in a step's kind", _with_raw(("steps", 2, "kind"), '"\\udfff"')),
        case("10**400 total_cycles", _with_raw(("total_cycles",), "1" + "0" * 400), must_fail=True),
        case("2**64 bytes on a tile", _with_raw(("tiles", 1, 1), "18446744073709551616"), must_fail=True),
        case("clock_hz 1e400", _with_raw(("clock_hz",), "1e400"), must_fail=True),
        case("clock_hz 10**400", _with_raw(("clock_hz",), "1" + "0" * 400), must_fail=True),
        case("clock_hz NaN", _with_raw(("clock_hz",), "NaN"), must_fail=True),
        case("900 levels of nesting in a step", _with_raw(("steps", 0), "[" * 900 + "]" * 900), must_fail=True),
        case("a step's cycles as 200,000 zeros", _with_raw(("steps", 0, "cycles"), "[" + "0," * 200_000 + "0]"),
             must_fail=True),
        case("no totals", json.dumps({k: v for k, v in base_report().items() if k != "totals"}).encode(), must_fail=True),
        case("report not UTF-8", report.replace(b"copy 0", b"copy \xed\xa0\x80"), must_fail=True),
        case("title not UTF-8", argv=(*ARGV, "--title", os.fsdecode(b"\xfe\xff"))),
        case("file name not UTF-8", argv=(not_utf8, "-o", PAGE), name=not_utf8),
        case("output in a missing directory", argv=(REPORT, "-o", "nodir/page.html"), must_fail=True),
        case("output is the working directory", argv=(REPORT, "-o", "."), must_fail=True),
        case("output is the report", argv=(REPORT, "-o", REPORT), must_fail=True),
        case("--max-steps 0", argv=(*ARGV, "--max-steps", "0"), must_fail=True),
        case("--max-steps x", argv=(*ARGV, "--max-steps", "x"), must_fail=True),
        case("no -o", argv=(REPORT,), must_fail=True),
    ]


def _raw_value(rng: random.Random) -> tuple[bytes, str, bool]:
    path = rng.choice(json_mutations.node_paths(base_report()))
    raw, must_fail = rng.choice(sorted(RAW_VALUES.items()))
    return _with_raw(path, raw), f"{'/'.join(map(str, path))} = {raw[:30]}", must_fail


def _mutation(rng: random.Random) -> tuple[bytes, str, bool]:
    mutated, done = json_mutations.mutate(rng, base_report(), rng.choice((1, 2, 3)))
    return json.dumps(mutated).encode(), "; ".join(done), False


def _text(rng: random.Random) -> tuple[bytes, str, bool]:
    text, how = text_mutations.mutate(rng, json.dumps(base_report()).encode())
    return text, how, False


def _not_utf8(rng: random.Random) -> tuple[bytes, str, bool]:
    text = json.dumps(base_report()).encode()
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice(_NOT_UTF8) + text[at:], f"a byte that is not UTF-8 at {at}", True


def report_page(rng: random.Random) -> Case:
    """One of the hostile cases, or a report with a raw value at a random field, mutated
    as JSON or as text, or with bytes that are not UTF-8."""
    if rng.random() < 0.25:
        return rng.choice(hostile_cases())
    content, note, must_fail = rng.choice((_raw_value, _mutation, _text, _not_utf8))(rng)
    return Case("report-page", "ipu-lower-report", ARGV, {REPORT: content, PAGE: SENTINEL}, note, must_fail)
