"""How the emulator library is built (runtime._build_emulator): its sources as a few
translation units that together hold each source once, and a line on stderr (a logging
record) when the build starts and when it ends, even when stderr is no terminal."""

import logging
from pathlib import Path

from ipu_lower import runtime


def test_units_hold_every_source_once_and_balance_them():
    sources = sorted(runtime.EMULATOR_SOURCES.rglob("*.cpp"))
    for count in (1, 2, 3, len(sources), len(sources) + 5):
        units = runtime.emulator_units(count)
        assert sorted(s for unit in units for s in unit) == sources
        assert len(units) == min(count, len(sources))
        sizes = [sum(s.stat().st_size for s in unit) for unit in units]
        assert sizes == sorted(sizes, reverse=True)
        # no unit outweighs another by more than its largest source (the greedy bound)
        assert sizes[0] - sizes[-1] <= max(s.stat().st_size for s in sources)


def test_build_says_when_it_starts_and_ends(tmp_path, monkeypatch, caplog):
    """g++ and ar replaced by a stand-in that writes each output: the build compiles
    each unit (which includes its sources by path) and each prelude, archives the units'
    objects, records the artifacts and logs one line before and one after, with the time."""
    monkeypatch.setenv("IPU_LOWER_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(runtime, "_VERIFIED_EMULATORS", set())
    commands, included = [], []

    def run(tool: str, arguments: list[str]) -> None:
        commands.append((tool, arguments))
        if "-c" in arguments:
            included.extend(Path(arguments[arguments.index("-c") + 1]).read_text().splitlines())
        output = arguments[arguments.index("-o") + 1] if tool == "g++" else arguments[1]
        Path(output).write_bytes(b"built")

    monkeypatch.setattr(runtime, "_run", run)
    with caplog.at_level(logging.WARNING, logger="ipu_lower.runtime"):
        out = runtime.emulator_build()
    lines = [r.getMessage() for r in caplog.records if r.name == "ipu_lower.runtime"]
    assert len(lines) == 2
    assert lines[0].startswith("ipu-lower: building the emulator library") and str(out) in lines[0]
    assert lines[1].startswith("ipu-lower: built the emulator library in ") and lines[1].endswith(" s")
    units = [a for tool, a in commands if tool == "g++" and "-c" in a]
    assert len(units) == len(runtime.emulator_units(runtime.BUILD_WORKERS))
    assert sorted(included) == sorted(f'#include "{s}"' for s in runtime.EMULATOR_SOURCES.rglob("*.cpp"))
    preludes = [a for tool, a in commands if tool == "g++" and "c++-header" in a]
    assert len(preludes) == len(runtime.PRELUDES)
    (archive,) = [a for tool, a in commands if tool == "ar"]
    assert len(archive) == 2 + len(units)
    assert sorted(p.name for p in out.iterdir() if p.name in runtime.EMULATOR_ARTIFACTS) == sorted(runtime.EMULATOR_ARTIFACTS)
    caplog.clear()
    commands.clear()
    runtime._VERIFIED_EMULATORS.clear()  # as a new process finds it
    with caplog.at_level(logging.WARNING, logger="ipu_lower.runtime"):
        assert runtime.emulator_build() == out  # verified against its record, not built again
    assert commands == [] and not caplog.records
