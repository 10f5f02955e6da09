"""ipu-opt's errors go through one place (ipu_lower/diagnostics.py): whatever fails is one
located line naming the stage, exit code 1; and -o changes nothing on error
(ipu_lower/atomic_output.py). The Python API's errors: tests/test_diagnostics.py."""

import resource
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.utils.exceptions import VerifyException

from ipu_lower.cli import ipu_opt_main
from ipu_lower.diagnostics import IpuLowerError
from ipu_lower.passes.sdfg_specialize import SdfgSpecializePass

AXPY = str(Path(__file__).parent / "lit" / "Inputs" / "axpy.mlir")
LOWER = [AXPY, "--symbols", "N=8", "-p", "sdfg-to-poplar"]


def ipu_opt(args, capsys) -> str:
    """ipu-opt's one line on stderr, after checking it exits with code 1 and prints nothing else."""
    with pytest.raises(SystemExit) as info:
        ipu_opt_main(args)
    assert info.value.code == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured
    return captured.err.rstrip("\n")


def failing(err: Exception):
    def fail(*args, **kwargs):
        raise err

    return fail


@pytest.mark.parametrize(
    "where, place, stage",
    [
        ("ipu_lower.frontend.frontends.LocatedParser.parse_module", "", "import"),
        ("ipu_lower.passes.sdfg_fuse_maps.SdfgFuseMapsPass.apply", "pass 'sdfg-fuse-maps': ", "lower"),
        ("ipu_lower.targets.poplar_cpp.PoplarCppTarget.emit", "", "emit"),
    ],
)
def test_an_unknown_exception_is_one_line_naming_its_stage(where, place, stage, monkeypatch, capsys):
    monkeypatch.setattr(where, failing(KeyError(None)))
    line = ipu_opt(LOWER + ["-t", "poplar-cpp"], capsys)
    assert line == (
        f"ipu-opt: {place}error: internal error in {stage} (KeyError: None); set IPU_LOWER_DEBUG=1 for a traceback"
    )


def test_internal_errors_keep_their_traceback_with_ipu_lower_debug(monkeypatch):
    monkeypatch.setenv("IPU_LOWER_DEBUG", "1")
    monkeypatch.setattr(SdfgSpecializePass, "apply", failing(KeyError("ConstantOp")))
    with pytest.raises(KeyError, match="ConstantOp"):
        ipu_opt_main(LOWER)


@pytest.mark.parametrize(
    "err, line",
    [
        (ValueError("first\n  second\n"), "ipu-opt: error: first second"),
        (IpuLowerError("x.mlir:3:1: error: a\n  b"), "ipu-opt: x.mlir:3:1: error: a b"),
        (VerifyException("op failed\n%0 = ir.dump : ()\n"), "ipu-opt: error: op failed %0 = ir.dump : ()"),
    ],
)
def test_multi_line_messages_become_one_line(err, line, monkeypatch, capsys):
    monkeypatch.setattr(SdfgSpecializePass, "apply", failing(err))
    assert ipu_opt(LOWER, capsys) == line


def test_ir_that_is_not_utf8_is_located(tmp_path, capsys):
    path = tmp_path / "latin1.mlir"
    path.write_bytes(b"builtin.module {\n  // caf\xe9\n}\n")
    assert ipu_opt([str(path)], capsys) == f"ipu-opt: {path}:2:9: error: not UTF-8 text (invalid continuation byte)"


def test_usage_errors_exit_with_code_1(capsys):
    assert ipu_opt([AXPY, "--no-such-flag"], capsys) == (
        "ipu-opt: error: unrecognized arguments: --no-such-flag (see ipu-opt --help)"
    )


# --------------------------------------------------------------------------------------
# ipu-opt -o: the outputs appear whole or not at all


def test_a_failed_directory_write_leaves_the_old_files(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "host.cpp").write_text("old host")
    (out / "codelets.cpp").mkdir()  # host.cpp would be written before codelets.cpp fails
    line = ipu_opt(LOWER + ["-t", "poplar-cpp", "-o", str(out)], capsys)
    assert (out / "host.cpp").read_text() == "old host"
    assert line == f"ipu-opt: {out / 'codelets.cpp'}: error: cannot write the output: it is a directory"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no staging directory left


def test_an_output_directory_that_is_a_file_is_left_alone(tmp_path, capsys):
    out = tmp_path / "out"
    out.write_text("a file")
    line = ipu_opt(LOWER + ["-t", "poplar-cpp", "-o", str(out)], capsys)
    assert line == f"ipu-opt: {out}: error: cannot write the output: it exists and is not a directory"
    assert out.read_text() == "a file"


def test_a_directory_write_replaces_only_its_files(tmp_path):
    out = tmp_path / "deep" / "out"
    ipu_opt_main(LOWER + ["-t", "poplar-cpp", "-o", str(out)])
    (out / "host.cpp").write_text("old host")
    (out / "notes.txt").write_text("mine")
    ipu_opt_main(LOWER + ["-t", "poplar-cpp", "-o", str(out)])
    assert sorted(p.name for p in out.iterdir()) == ["codelets.cpp", "host.cpp", "notes.txt", "program.json"]
    assert "old host" not in (out / "host.cpp").read_text()
    assert (out / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in out.parent.iterdir()) == ["out"]


def _limit_file_size():
    resource.setrlimit(resource.RLIMIT_FSIZE, (400, 400))  # the IR of axpy.mlir is longer


@pytest.mark.parametrize("target", [[], ["-t", "poplar-cpp"]])
def test_a_write_that_fails_midway_leaves_the_old_output(target, tmp_path):
    """A file system that fills up while ipu-opt writes (here a file size limit)."""
    out = tmp_path / ("out" if target else "out.mlir")
    if target:
        out.mkdir()
        (out / "host.cpp").write_text("old host")
    else:
        out.write_text("old output")
    result = subprocess.run(
        [sys.executable, "-m", "ipu_lower.cli", *LOWER, *target, "-o", str(out)],
        capture_output=True, text=True, timeout=120, check=False, preexec_fn=_limit_file_size,
    )
    assert result.returncode == 1
    assert result.stderr == f"ipu-opt: {out}: error: cannot write the output: File too large\n"
    if target:
        assert [p.name for p in out.iterdir()] == ["host.cpp"] and (out / "host.cpp").read_text() == "old host"
    else:
        assert out.read_text() == "old output"
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]
