"""tests/syntax_check.py: a file checked with its own #include lines precompiled compiles,
or fails, as it would alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from syntax_check import PRELUDE, include_block, prelude, syntax_check

HEADER = "#pragma once\n#include <cstddef>\ninline std::size_t one() { return 1; }\n"


@pytest.mark.parametrize("text, block", [
    ("// a comment\n#include <a.hpp>\n\n  #include <cstddef>  // size_t\nint x;\n#include <vector>\n",
     "#include <a.hpp>\n#include <cstddef>  // size_t\n"),
    ('#include <a.hpp>\n#include "local.hpp"\n#include <vector>\n', "#include <a.hpp>\n"),
    ("#include <a.hpp>\n#ifdef X\n#include <vector>\n#endif\n", "#include <a.hpp>\n"),
    ("#define X 1\n#include <a.hpp>\n", ""),
])
def test_the_include_block_is_the_angle_includes_before_anything_else(text, block):
    assert include_block(text) == block


@pytest.fixture
def include(tmp_path, monkeypatch) -> Path:
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed")
    monkeypatch.setenv("IPU_LOWER_CACHE", str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir(mode=0o700)
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "a.hpp").write_text(HEADER)
    return tmp_path / "include"


def test_a_file_compiles_or_fails_as_alone(include, tmp_path):
    good = tmp_path / "good.cpp"
    good.write_text("// generated\n#include <a.hpp>\n\nstd::size_t two() { return one() + one(); }\n")
    syntax_check([good], include)
    # the prelude holds the file's own includes only: what they do not declare is missing
    missing = tmp_path / "missing.cpp"
    missing.write_text("#include <a.hpp>\nstd::vector<int> v;\n")
    unused = tmp_path / "unused.cpp"
    unused.write_text("#include <a.hpp>\nint f() { int x; return 0; }\n")  # -Wall -Werror hold
    with pytest.raises(AssertionError) as failed:
        syntax_check([good, missing, unused], include)
    assert "missing.cpp:" in str(failed.value) and "vector" in str(failed.value)
    assert "unused.cpp:" in str(failed.value) and "good.cpp:" not in str(failed.value)
    folder = prelude("#include <a.hpp>\n", include)
    assert sorted(p.name for p in folder.iterdir() if p.name != "lock") == sorted(
        ["record.json", PRELUDE, f"{PRELUDE}.gch"])


def test_a_changed_header_is_a_new_prelude(include):
    before = prelude("#include <a.hpp>\n", include)
    (include / "a.hpp").write_text(HEADER + "inline int two() { return 2; }\n")
    prelude.cache_clear()
    assert prelude("#include <a.hpp>\n", include) != before
