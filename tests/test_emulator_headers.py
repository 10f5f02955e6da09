"""Compile-only checks of the CPU emulator headers in ipu_lower/emulator/include
and of its sources in ipu_lower/emulator/src.

poplar/*.hpp are the emulator of the Poplar SDK 3.x API subset the code
generator emits (same paths and signatures); ipu_lower_emulator/*.hpp are its
internals. Each header compiles on its own, each source cleanly; hand-written
samples (tests/cpp/) must compile with ``g++ -std=c++17 -fsyntax-only -Wall
-Werror``; snippets using API the generator must never emit (unsupported
device types) must fail to compile. What the emulator does when run is tested
in tests/test_emulator.py.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gxx_fingerprint import gxx_fingerprint

from ipu_lower import cache

REPO = Path(__file__).resolve().parents[1]
INCLUDE_DIR = REPO / "ipu_lower" / "emulator" / "include"
SOURCE_DIR = REPO / "ipu_lower" / "emulator" / "src"
SAMPLES = REPO / "tests" / "cpp"

GXX = shutil.which("g++")
pytestmark = pytest.mark.skipif(GXX is None, reason="g++ not found")

FLAGS = ["-std=c++17", "-fsyntax-only", "-Wall", "-Werror"]


def _compile(source: Path) -> subprocess.CompletedProcess[str]:
    assert GXX is not None
    return subprocess.run(
        [GXX, *FLAGS, "-I", str(INCLUDE_DIR), str(source)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _compile_snippet(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    source = tmp_path / "snippet.cpp"
    source.write_text(code)
    return _compile(source)


@pytest.mark.parametrize(
    "sample", ["syntax_sample_host.cpp", "syntax_sample_codelets.cpp"]
)
def test_sample_compiles(sample: str) -> None:
    result = _compile(SAMPLES / sample)
    assert result.returncode == 0, result.stderr


def _compile_all(sources: list[Path]) -> list[str]:
    """Compiles the files at once (in parallel: each parses a lot of C++); the failures."""
    assert GXX is not None
    procs = [
        subprocess.Popen(
            [GXX, *FLAGS, "-I", str(INCLUDE_DIR), str(source)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for source in sources
    ]
    failures = []
    for source, proc in zip(sources, procs):
        _, err = proc.communicate(timeout=300)
        if proc.returncode != 0:
            failures.append(f"{source.name}:\n{err}")
    return failures


def test_every_header_is_self_contained(tmp_path: Path) -> None:
    """Each header alone in a translation unit (48 of them: 35 CPU-s), once per version of
    the headers, flags and g++: a pass is kept in the compile cache, as a build would be."""
    headers = sorted(p.relative_to(INCLUDE_DIR) for p in INCLUDE_DIR.rglob("*.hpp"))
    assert headers, "no headers found"
    listing = "".join(f"{header.as_posix()}\n" for header in headers).encode()

    def check(store: cache.Cache) -> None:
        entry = store.entry("self-contained-headers", _headers_key()[:24])
        with store.locked(entry):
            if store.read_verified(entry, PASSED) == listing:
                return
            sources = []
            for header in headers:  # poplar/Graph.hpp: poplar_Graph.hpp.cpp
                source = tmp_path / f"{'_'.join(header.parts)}.cpp"
                source.write_text(f"#include <{header.as_posix()}>\n")
                sources.append(source)
            failures = _compile_all(sources)
            assert not failures, "\n".join(failures)
            store.record(entry, {PASSED: store.write(entry / PASSED, listing)})

    cache.use(check)


PASSED = "passed"
"""The headers that compiled alone, one per line."""


def _headers_key() -> str:
    """The hash of what compiling the headers reads: them, the flags and g++."""
    return gxx_fingerprint(*FLAGS, str(INCLUDE_DIR), INCLUDE_DIR)


def test_a_changed_header_is_checked_again(tmp_path: Path, monkeypatch) -> None:
    copy = tmp_path / "include"
    shutil.copytree(INCLUDE_DIR, copy)
    monkeypatch.setattr(sys.modules[__name__], "INCLUDE_DIR", copy)
    key = _headers_key()
    header = copy / "poplar" / "Type.hpp"
    header.write_text(header.read_text() + "\n")
    assert _headers_key() != key


def test_every_source_compiles_cleanly(tmp_path: Path) -> None:
    """All sources as one translation unit: clean under -Wall -Werror (the runtime builds
    without -Werror: another compiler may warn), and free of internal names two sources
    share, which the runtime's unity build (`runtime.emulator_units`) needs. The
    headers are parsed once, not once per source."""
    sources = sorted(SOURCE_DIR.rglob("*.cpp"))
    assert sources, "no sources found"
    unity = tmp_path / "all_sources.cpp"
    unity.write_text("".join(f'#include "{source}"\n' for source in sources))
    failures = _compile_all([unity])
    assert not failures, "\n".join(failures)


def test_every_header_names_what_it_is() -> None:
    # poplar/X.hpp emulates the SDK header of the same path, popops/X.hpp and poplin/X.hpp the poplibs
    # header; the emulator's internals say that they have no SDK counterpart.
    for header in INCLUDE_DIR.rglob("*.hpp"):
        first_line = header.read_text().splitlines()[0]
        rel = header.relative_to(INCLUDE_DIR).as_posix()
        if rel.startswith("poplar/"):
            assert first_line.startswith(f"// CPU emulator of Poplar SDK 3.x <{rel}>"), rel
        elif rel.startswith(("popops/", "poplin/")):
            assert first_line.startswith(f"// CPU emulator of poplibs' <{rel}>"), rel
        else:
            assert rel.startswith("ipu_lower_emulator/"), rel
            assert first_line.startswith(
                "// ipu-lower CPU emulator internals (no Poplar SDK counterpart)"
            ), rel
        assert "stand-in" not in first_line, rel


@pytest.mark.parametrize("type_name", ["DOUBLE", "LONG", "UNSIGNED_LONG"])
def test_unsupported_device_type_fails(tmp_path: Path, type_name: str) -> None:
    # The SDK documents these types as unsupported on the IPU; the stand-in
    # headers deliberately omit them so emitted code naming them cannot compile.
    code = (
        "#include <poplar/Graph.hpp>\n"
        "poplar::Tensor f(poplar::Graph &g) {\n"
        f"  return g.addVariable(poplar::{type_name}, {{4}}, \"t\");\n"
        "}\n"
    )
    result = _compile_snippet(tmp_path, code)
    assert result.returncode != 0, f"poplar::{type_name} unexpectedly compiled"
    assert type_name in result.stderr


def test_supported_type_snippet_compiles(tmp_path: Path) -> None:
    # Control for the test above: the same snippet with FLOAT compiles.
    code = (
        "#include <poplar/Graph.hpp>\n"
        "poplar::Tensor f(poplar::Graph &g) {\n"
        "  return g.addVariable(poplar::FLOAT, {4}, \"t\");\n"
        "}\n"
    )
    result = _compile_snippet(tmp_path, code)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "body",
    [
        # Input edges are read-only.
        "poplar::Input<poplar::Vector<float>> x; void compute() { x[0] = 1.0f; }",
        "poplar::Input<float> x; void compute() { *x = 1.0f; }",
        # ONE_PTR vectors store no count, so they have no size().
        "poplar::Input<poplar::Vector<float, poplar::VectorLayout::ONE_PTR>> x;"
        " unsigned n; void compute() { n = x.size(); }",
    ],
)
def test_codelet_misuse_fails(tmp_path: Path, body: str) -> None:
    code = (
        "#include <poplar/Vertex.hpp>\n"
        f"class V : public poplar::Vertex {{ public: {body} }};\n"
    )
    result = _compile_snippet(tmp_path, code)
    assert result.returncode != 0, "misuse unexpectedly compiled"
