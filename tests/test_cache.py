"""The compile cache gives back only what it recorded (docs/cache.md): a planted, swapped
or linked library, an edited source, a redirected index or an edited emulator prelude is
rebuilt with a warning, never loaded; folders are private whatever the umask, and a cache
that others could write is refused."""

import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import ipu_lower
from ipu_lower import cache, runtime
from ipu_lower.cache import CacheWarning
from ipu_lower.emit import to_sdfg
from ipu_lower.examples.saxpy import saxpy

CANARY_SOURCE = """
#include <fcntl.h>
#include <unistd.h>
__attribute__((constructor)) static void planted() { close(open("{canary}", O_CREAT | O_WRONLY, 0600)); }
"""


N = 131


def _saxpy():
    """saxpy at size N, called once and checked; its CompiledProgram."""
    program = ipu_lower.compile(saxpy, symbols={"N": N})
    x = np.arange(N, dtype=np.float32)
    y = np.ones(N, np.float32)
    program(np.float32(2), x, y)
    np.testing.assert_array_equal(y, 2 * x + 1)
    return program.last


@pytest.fixture(scope="module")
def built() -> tuple[Path, list[Path]]:
    """saxpy built once in the tests' shared cache: the cache's root and the entries of
    saxpy's library, program and lowering, and of the emulator."""
    compiled = _saxpy()
    root = cache.current().root
    lowered = root / "lowered" / runtime._lowering_key(to_sdfg(saxpy), {"N": N}, None, False, 0)
    return root, [runtime.emulator_build(), compiled.library.parent, compiled.directory, lowered]


def _linked(shared: Path, entries: list[Path], root: Path) -> None:
    """`entries` of the cache at `shared` hard-linked into a cache at `root`."""
    for entry in entries:
        target = root / entry.relative_to(shared)
        target.mkdir(parents=True, mode=0o700)
        for file in entry.iterdir():
            if file.is_file() and file.name != "lock":
                os.link(file, target / file.name)


@pytest.fixture
def private(built, tmp_path, monkeypatch) -> Path:
    """A cache of the test's own holding saxpy, hard-linked from the shared one: a test
    tampers with it by replacing files (never writing into one), which touches no other
    test's."""
    root = tmp_path / "cache"
    _linked(*built, root)
    monkeypatch.setenv("IPU_LOWER_CACHE", str(root))
    monkeypatch.setattr(cache, "_OPENED", {})
    return root


def _replace(path: Path, data: bytes) -> None:
    path.unlink()
    path.write_bytes(data)


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, Path]:
    """A shared library whose constructor creates CANARY, and CANARY's path."""
    canary = tmp_path / "CANARY"
    source = tmp_path / "planted.c"
    source.write_text(CANARY_SOURCE.replace("{canary}", str(canary)))
    library = tmp_path / "planted.so"
    subprocess.run(["gcc", "-shared", "-fPIC", str(source), "-o", str(library)], check=True)
    return library, canary


@pytest.mark.parametrize("how", ["swapped", "planted before the first build", "symlinked"])
def test_a_library_the_record_does_not_vouch_for_is_rebuilt_not_loaded(private, planted, how):
    evil, canary = planted
    library = _saxpy().library
    assert library.is_relative_to(private.resolve())
    library.unlink()
    if how == "symlinked":
        library.symlink_to(evil)
    else:
        shutil.copy(evil, library)
        if how.startswith("planted"):
            (library.parent / cache.RECORD).unlink()
    with pytest.warns(CacheWarning, match=f"{library}"):
        _saxpy()
    assert not canary.exists()
    assert not library.is_symlink()


def test_an_edited_cached_source_is_lowered_again_not_compiled(private, planted):
    _, canary = planted
    compiled = _saxpy()
    host = compiled.directory / "host.cpp"
    _replace(host, host.read_bytes() + CANARY_SOURCE.replace("{canary}", str(canary)).encode())
    with pytest.warns(CacheWarning, match="host.cpp does not match"):
        _saxpy()
    assert not canary.exists()


def test_a_redirected_index_is_not_followed(private):
    compiled = _saxpy()
    index = next((private / "lowered").iterdir())
    _replace(index / "program", b"f" * 24)  # the record still names saxpy's
    with pytest.warns(CacheWarning, match="program does not match"):
        assert _saxpy().directory == compiled.directory
    # A path instead of a program's name is never read as one, even where the record agrees.
    store = cache.current()
    store.record(index, {"program": store.write(index / "program", str(compiled.directory).encode())})
    assert _saxpy().directory == compiled.directory


def test_an_edited_prelude_is_rebuilt_not_compiled(private, built, monkeypatch):
    """The emulator's preludes are g++'s input for every program: one edited with its
    precompiled form removed would be compiled into every library."""
    shared = built[1][0]
    entry = private / shared.relative_to(built[0])
    _replace(entry / "host.hpp", b'#include "/etc/passwd"\n')
    (entry / "host.hpp.gch").unlink()
    rebuilt = []
    monkeypatch.setattr(runtime, "_build_emulator", lambda store, out: rebuilt.append(out))
    with pytest.warns(CacheWarning, match="host.hpp does not match"):
        runtime.emulator_build()
    assert rebuilt == [entry]
    _replace(entry / "host.hpp", (shared / "host.hpp").read_bytes())
    os.link(shared / "host.hpp.gch", entry / "host.hpp.gch")
    runtime.emulator_build()  # as recorded again: used
    assert rebuilt == [entry]


def test_folders_and_files_are_private_whatever_the_umask(tmp_path):
    old = os.umask(0)
    try:
        store = cache.Cache.open(tmp_path / "made" / "here")
        entry = store.entry("libraries", "abc")
        store.write(entry / "file", b"data")
    finally:
        os.umask(old)
    for folder in (tmp_path / "made", tmp_path / "made" / "here", store.root / "libraries", entry):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    assert stat.S_IMODE((entry / "file").stat().st_mode) == 0o600


def _refused(monkeypatch, root: Path, match: str) -> None:
    monkeypatch.setenv("IPU_LOWER_CACHE", str(root))
    monkeypatch.setattr(cache, "_OPENED", {})
    with pytest.warns(CacheWarning, match=match):
        used = cache.use(lambda store: store.entry("libraries", "abc"))
    assert not used.is_relative_to(root.resolve())
    assert stat.S_IMODE(used.parent.parent.stat().st_mode) == 0o700


def test_a_root_others_can_write_is_refused(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    root.mkdir()
    root.chmod(0o777)
    _refused(monkeypatch, root, f"not using the compile cache: {root}.* writable by group or others")


def test_a_symlinked_folder_inside_the_cache_is_refused(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    root.mkdir(mode=0o700)
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    (root / "libraries").symlink_to(tmp_path / "elsewhere")
    _refused(monkeypatch, root, "libraries is a symbolic link")


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root")
def test_a_folder_of_another_user_is_refused(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    (root / "libraries").mkdir(mode=0o700, parents=True)
    root.chmod(0o700)
    os.chown(root / "libraries", 65534, 65534)
    _refused(monkeypatch, root, "libraries is owned by user 65534")


def test_two_processes_compiling_the_same_program_at_once_both_work(built, tmp_path):
    script = textwrap.dedent(f"""
        import numpy as np, ipu_lower
        from ipu_lower.examples.saxpy import saxpy
        x, y = np.arange({N}, dtype=np.float32), np.ones({N}, np.float32)
        ipu_lower.compile(saxpy, symbols={{"N": {N}}})(np.float32(3), x, y)
        assert (y == 3 * x + 1).all()
    """)
    root = tmp_path / "cache"
    _linked(built[0], built[1][:1], root)  # the emulator only: both lower and build saxpy
    environment = {**os.environ, "IPU_LOWER_CACHE": str(root)}
    workers = [subprocess.Popen([sys.executable, "-c", script], env=environment, stderr=subprocess.PIPE, text=True)
               for _ in range(2)]
    for worker in workers:
        _, err = worker.communicate(timeout=600)
        assert worker.returncode == 0, err
        assert "CacheWarning" not in err


def test_a_demoted_float64_beyond_float32_is_an_overflow_not_inf():
    argument = runtime.Argument("x", np.dtype(np.float32), (3,), False)
    with pytest.raises(OverflowError, match="argument 'x' holds values beyond the range of float32"):
        runtime._converted(argument, np.array([1.0, -1e39, 0.0]))
    converted = runtime._converted(argument, np.array([np.inf, np.nan, 3.4e38]))
    assert np.isinf(converted[0]) and np.isnan(converted[1]) and converted.dtype == np.float32


def test_ipu_run_says_it_in_one_line(private, tmp_path):
    out = tmp_path / "out"
    tools = Path(sys.executable).parent  # the venv's, active or not
    subprocess.run([str(tools / "ipu-opt"), str(Path(ipu_lower.__file__).parent / "examples" / "saxpy.sdfg"),
                    "--symbols", f"N={N}", "-p", "sdfg-to-poplar", "-t", "poplar-cpp", "-o", str(out)], check=True)
    library = runtime.CompiledProgram(out).library
    _replace(library, Path("/bin/true").read_bytes())
    np.save(tmp_path / "x.npy", np.arange(N, dtype=np.float32))
    np.save(tmp_path / "y.npy", np.ones(N, np.float32))
    run = subprocess.run([str(tools / "ipu-run"), str(out), "--arg", "a=2", "--arg", f"x={tmp_path / 'x.npy'}",
                          "--arg", f"y={tmp_path / 'y.npy'}"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines() == [f"ipu-run: warning: {library} does not match the cache's record; building it again"]
    np.testing.assert_array_equal(np.load(tmp_path / "y.npy"), 2 * np.arange(N, dtype=np.float32) + 1)
