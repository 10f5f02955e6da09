"""Cases for ipu-opt: mutated example SDFGs, damaged lit inputs, hostile strings in SDFG
fields, and oversized SDFGs. Every case has outputs from before the run (`out.mlir`, or
`out/host.cpp` for the C++ target) that must be unchanged when ipu-opt reports an error."""

from __future__ import annotations

import copy
import gzip
import json
import random
import re
from functools import cache
from importlib import resources
from pathlib import Path

from fuzz import json_mutations, text_mutations
from fuzz.cases import Case
from fuzz.payloads import PAYLOADS

SENTINEL = b"// a file the user had before the run\n"
LIT_ROOT = Path(__file__).resolve().parents[1] / "tests" / "lit"
MAX_INPUT = (1 << 20) - 1
"""Inputs stay under 1 MB: the size the hang rule (10 s) applies to."""


@cache
def example_sdfgs() -> dict[str, dict]:
    folder = resources.files("ipu_lower.examples")
    return {
        entry.name: json.loads(entry.read_text())
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".sdfg")
    }


@cache
def lit_inputs() -> tuple[tuple[str, bytes], ...]:
    """The IR of each lit test (split at `// -----`, RUN and CHECK lines dropped), named by
    the pass the test is for when it is one."""
    chunks = []
    for path in sorted(LIT_ROOT.rglob("*.mlir")):
        text = path.read_text()
        pass_name = path.stem.removesuffix("-invalid") if path.parent.name == "passes" else ""
        for chunk in text.split("// -----"):
            ir = "\n".join(line for line in chunk.splitlines() if not line.lstrip().startswith("//"))
            if ir.strip():
                chunks.append((pass_name, ir.encode()))
    return tuple(chunks)


def _symbols(sdfg: dict, rng: random.Random) -> str:
    names = sdfg.get("attributes", {}).get("symbols", {}) if isinstance(sdfg, dict) else {}
    names = names if isinstance(names, dict) else {}
    return ",".join(f"{name}={rng.choice((1, 7, 64, 1000))}" for name in sorted(names) if re.fullmatch(r"\w+", name))


def _sdfg_case(target: str, rng: random.Random, document: bytes, symbols: str, note: str) -> Case:
    """ipu-opt on an .sdfg: half the cases import only (to out.mlir), half lower to C++."""
    if rng.random() < 0.5:
        argv = ("in.sdfg", "-o", "out.mlir")
        outputs = {"out.mlir": SENTINEL}
    else:
        argv = ("in.sdfg", "-p", "sdfg-to-poplar", "-t", "poplar-cpp", "-o", "out")
        outputs = {"out/host.cpp": SENTINEL}
    if symbols:
        argv += ("--symbols", symbols)
    return Case(target, "ipu-opt", argv, {"in.sdfg": document[:MAX_INPUT], **outputs}, note)


def sdfg_mutation(rng: random.Random) -> Case:
    name, sdfg = rng.choice(sorted(example_sdfgs().items()))
    if rng.random() < 0.2:
        text, how = text_mutations.mutate(rng, json.dumps(sdfg).encode())
        return _sdfg_case("sdfg-mutation", rng, text, _symbols(sdfg, rng), f"{name}: {how}")
    mutated, done = json_mutations.mutate(rng, sdfg, rng.choice((1, 1, 2, 3)))
    return _sdfg_case("sdfg-mutation", rng, _dumps(mutated), _symbols(sdfg, rng), f"{name}: {'; '.join(done)}")


def mlir_mutation(rng: random.Random) -> Case:
    pass_name, ir = rng.choice(lit_inputs())
    text, how = text_mutations.mutate(rng, ir)
    argv = ("in.mlir", "-o", "out.mlir") + (("-p", pass_name) if pass_name and rng.random() < 0.5 else ())
    return Case("mlir-mutation", "ipu-opt", argv, {"in.mlir": text, "out.mlir": SENTINEL}, how)


def hostile_strings(rng: random.Random) -> Case:
    """A payload in one string field, or in every string field at once."""
    name, sdfg = rng.choice(sorted(example_sdfgs().items()))
    payload = rng.choice(PAYLOADS)
    fields = json_mutations.string_fields(sdfg)
    if rng.random() < 0.3:
        hostile = copy.deepcopy(sdfg)
        for path in fields:
            hostile = json_mutations.replace(hostile, path, payload)
        where = "every string field"
    else:
        path = rng.choice(fields)
        hostile = json_mutations.replace(sdfg, path, rng.choice((payload, f"N + {payload}", f"{payload} # ")))
        where = "/".join(map(str, path))
    return _sdfg_case("hostile-strings", rng, _dumps(hostile), _symbols(sdfg, rng), f"{name}: {where}: {payload[:60]}")


def _many_transients(rng: random.Random, sdfg: dict) -> tuple[dict, str]:
    count = rng.choice((500, 2000, 4000))
    arrays = sdfg["attributes"]["_arrays"]
    template = next(iter(arrays.values()))
    for i in range(count):
        extra = copy.deepcopy(template)
        extra["attributes"]["transient"] = True
        arrays[f"fuzz_unused_{i}"] = extra
    return sdfg, f"{count} unused transients"


def _huge_sizes(rng: random.Random, sdfg: dict) -> tuple[dict, str]:
    expression = rng.choice((
        "floor(exp(10000000))", "exp(1000000)", "N**N**N**N", "2**(2**(2**40))", "factorial(10**9)",
        "N*" * 5000 + "N", "(" * 3000 + "N" + ")" * 3000, "9" * 100_000, "N**-1000000000", "Mod(N, 0)",
    ))
    name = rng.choice(sorted(sdfg["attributes"]["_arrays"]))
    attributes = sdfg["attributes"]["_arrays"][name]["attributes"]
    field = rng.choice(("total_size", "shape", "strides", "offset"))
    attributes[field] = expression if field == "total_size" else [expression] * len(attributes.get(field) or [1])
    return sdfg, f"{name}.{field} = {expression[:40]}"


def _long_names(rng: random.Random, sdfg: dict) -> tuple[dict, str]:
    length = rng.choice((1000, 100_000, 500_000))
    old = rng.choice(sorted(sdfg["attributes"]["_arrays"]))
    text = json.dumps(sdfg).replace(f'"{old}"', f'"{old}{"z" * length}"')
    return json.loads(text), f"{old} renamed to {length} more characters"


def _many_states(rng: random.Random, sdfg: dict) -> tuple[dict, str]:
    count = rng.choice((100, 1000))
    states = sdfg["nodes"]
    for i in range(count):
        state = copy.deepcopy(states[0])
        state["id"] = len(states)
        state["label"] = f"fuzz_state_{i}"
        states.append(state)
    return sdfg, f"{count} more states, no edges"


OVERSIZERS = (_many_transients, _huge_sizes, _long_names, _many_states)


def oversized(rng: random.Random) -> Case:
    name, sdfg = rng.choice(sorted(example_sdfgs().items()))
    grown, how = rng.choice(OVERSIZERS)(rng, copy.deepcopy(sdfg))
    symbols = rng.choice((_symbols(sdfg, rng), ",".join(f"{s}={2**62}" for s in sdfg["attributes"]["symbols"])))
    return _sdfg_case("oversized", rng, _dumps(grown), symbols, f"{name}: {how}")


BAD_OPTIONS: tuple[tuple[str, ...], ...] = (
    *(("--symbols", v) for v in (
        "N=4,M=5", "N=abc", "N=-1", "N=0", "N=1e3", "N=" + "9" * 50, "N=64,N=65", "=5", "N", ",", "N=2**70",
        "N=64;M=1", "N=__import__('os').system('touch CANARY')", "N=0x40", "N=6_4", "N= 64",
    )),
    *(("-p", v) for v in (
        'sdfg-to-poplar{symbols="N=("}', "sdfg-to-poplar{arch=ipu9}", "sdfg-to-poplar{chunk=-1}",
        "sdfg-to-poplar{chunk=99999999999999999999}", "no-such-pass", "sdfg-to-poplar{", "sdfg-to-poplar{demote_f64=maybe}",
        'sdfg-specialize{symbols="N=open(\'CANARY\',\'w\')"}', "sdfg-to-poplar{" * 200, "sdfg-fuse-maps," * 200,
    )),
    *(("--pass-pipeline", v) for v in ("builtin.module(sdfg-to-poplar", "builtin.module(" + "(" * 1000, "builtin.module()")),
    *(("-t", v) for v in ("poplar-cpp{sdk=x}", "poplar-cpp{sdk=99}", "no-such-target")),
    ("-p", "sdfg-to-poplar", "-t", "poplar-cpp", "-o", "taken"),
    ("-o", "no/such/dir/out.mlir"),
    ("-o", "taken/out.mlir"),
    ("--split-input-file",),
    ("--entry", "nothing"),
)
"""Option values ipu-opt must refuse in one line: malformed symbols and pipelines, outputs
where a file or a missing directory is in the way."""


def bad_options(rng: random.Random) -> Case:
    name, sdfg = rng.choice(sorted(example_sdfgs().items()))
    options = rng.choice(BAD_OPTIONS)
    files = {"in.sdfg": _dumps(sdfg), "taken": SENTINEL, "out.mlir": SENTINEL}
    symbols = () if "--symbols" in options else ("--symbols", _symbols(sdfg, rng))
    return Case("bad-options", "ipu-opt", ("in.sdfg", *options, *symbols), files, f"{name}: {' '.join(options)[:80]}")


@cache
def _gzip_bomb() -> bytes:
    """300 MiB of spaces (JSON whitespace) before a document, as 300 gzip members of 1 MiB
    each (a gzip file may hold several): about 300 kB, made in milliseconds."""
    return gzip.compress(b" " * (1 << 20), compresslevel=9) * 300 + gzip.compress(b"{}")


def compressed(rng: random.Random) -> Case:
    """.sdfgz inputs: a bomb, a damaged stream, or a mutated SDFG compressed."""
    name, sdfg = rng.choice(sorted(example_sdfgs().items()))
    kind = rng.choice(("bomb", "truncated", "mutated", "not gzip"))
    if kind == "bomb":
        data = _gzip_bomb()
    elif kind == "truncated":
        data = gzip.compress(_dumps(sdfg))[: rng.randrange(10, 200)]
    elif kind == "mutated":
        mutated, done = json_mutations.mutate(rng, sdfg)
        data, kind = gzip.compress(_dumps(mutated)), f"mutated: {done[0]}"
    else:
        data = _dumps(sdfg)
    argv = ("in.sdfgz", "-o", "out.mlir", "--symbols", _symbols(sdfg, rng))
    return Case("compressed", "ipu-opt", argv, {"in.sdfgz": data, "out.mlir": SENTINEL}, f"{name}: {kind}")


def _dumps(document) -> bytes:
    return json.dumps(document).encode()
