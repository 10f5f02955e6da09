"""The compile cache: a folder of the user's that gives back only what ipu-lower recorded
in it (threat model: docs/cache.md).

The root is `IPU_LOWER_CACHE`, else `~/.cache/ipu_lower`. It is used only while it, and
every folder on the way to an entry inside it, is a real folder (no symbolic link), owned
by the user and writable by no one else; folders are created 0700 and files 0600 (0700
for libraries) whatever the umask. A refused cache is one warning naming it and why, and
the process then builds in a private temporary folder instead.

An entry is a folder holding artifacts and `record.json`, the SHA-256 of each artifact,
written after them. An artifact is read only through `open_verified`, which hashes the
bytes it returns: a file that is missing from the record, differs from it or is a link is
not used (one warning when it was there at all), and the caller builds it again.
"""

from __future__ import annotations

import atexit
import fcntl
import hashlib
import json
import os
import shutil
import stat
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from ipu_lower.diagnostics import IpuLowerWarning, warn

RECORD = "record.json"
MAX_RECORD_BYTES = 1 << 16
_CHUNK = 1 << 20

T = TypeVar("T")


class CacheWarning(IpuLowerWarning):
    """The compile cache was refused, or an artifact in it did not match its record."""


class UntrustedCache(Exception):
    """A folder of the cache that is a link, or that another user could write."""


def cache_root() -> Path:
    return Path(os.environ.get("IPU_LOWER_CACHE", Path.home() / ".cache" / "ipu_lower"))


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _refusal(path: Path, st: os.stat_result) -> str | None:
    """Why a folder cannot be trusted, or None."""
    if stat.S_ISLNK(st.st_mode):
        return f"{path} is a symbolic link"
    if not stat.S_ISDIR(st.st_mode):
        return f"{path} is not a folder"
    if st.st_uid != os.geteuid():
        return f"{path} is owned by user {st.st_uid}, not by this user ({os.geteuid()})"
    if st.st_mode & 0o022:
        return f"{path} is writable by group or others (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def _private_folder(path: Path, follow: bool = False) -> None:
    """Create `path` 0700 if it is missing, then check it (through a link only if `follow`)."""
    try:
        os.mkdir(path, 0o700)
        os.chmod(path, 0o700)  # a umask may have taken the owner's bits too
    except FileExistsError:
        pass
    except OSError as err:
        raise UntrustedCache(f"cannot create {path}: {err.strerror}") from None
    why = _refusal(path, os.stat(path) if follow else os.lstat(path))
    if why:
        raise UntrustedCache(why)


class Cache:
    """A checked cache root (see the module's docstring)."""

    def __init__(self, root: Path):
        self.root = root

    @classmethod
    def open(cls, root: Path) -> Cache:
        """The cache at `root`, created where missing (its missing parents 0700 too). The
        root itself may be reached through a link (`~/.cache` on another disk); the folder
        it names must pass the checks."""
        root = Path(os.path.abspath(root))
        for parent in reversed(root.parents):
            if not parent.exists():
                _private_folder(parent)
        _private_folder(root, follow=True)
        return cls(Path(os.path.realpath(root)))

    def entry(self, *parts: str) -> Path:
        """The folder root/parts..., every folder on the way created where missing and
        checked: not a link, the user's, writable by no one else."""
        path = self.root
        why = _refusal(path, os.lstat(path))
        if why:
            raise UntrustedCache(why)
        for part in parts:
            path = path / part
            _private_folder(path)
        return path

    def recorded(self, entry: Path) -> dict[str, str]:
        """The digests `entry`'s record holds ({} without a readable record)."""
        data = self._read_small(entry / RECORD)
        try:
            record = json.loads(data) if data is not None else {}
        except ValueError:
            return {}
        if not isinstance(record, dict) or not all(isinstance(v, str) for v in record.values()):
            return {}
        return record

    def record(self, entry: Path, digests: Mapping[str, str]) -> None:
        """Record `digests` as the whole content of `entry` (after its artifacts are in place)."""
        self.write(entry / RECORD, json.dumps(dict(digests), sort_keys=True).encode())

    def open_verified(self, entry: Path, name: str) -> tuple[int, str] | None:
        """An open descriptor (positioned at 0) of the artifact `entry/name` and its SHA-256,
        when it is a regular file of the user's that matches the record; else None, with a
        warning when a file was there to be refused. The caller closes the descriptor."""
        path = entry / name
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            return None
        except OSError:  # ELOOP: a link, which is never followed
            self._mismatch(path, "is a symbolic link")
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
                self._mismatch(path, "is not a file that only this user can write")
                os.close(fd)
                return None
            digest = hashlib.sha256()
            while chunk := os.read(fd, _CHUNK):
                digest.update(chunk)
            expected = self.recorded(entry).get(name)
            if expected != digest.hexdigest():
                self._mismatch(path, "is not in the cache's record" if expected is None else "does not match the cache's record")
                os.close(fd)
                return None
            os.lseek(fd, 0, os.SEEK_SET)
            return fd, digest.hexdigest()
        except BaseException:
            os.close(fd)
            raise

    def read_verified(self, entry: Path, name: str) -> bytes | None:
        """The bytes of a verified artifact (see open_verified)."""
        opened = self.open_verified(entry, name)
        if opened is None:
            return None
        with os.fdopen(opened[0], "rb") as file:
            return file.read()

    def verified(self, entry: Path, names: list[str]) -> bool:
        """Whether every one of `names` is a verified artifact of `entry`."""
        opened = [self.open_verified(entry, name) for name in names]
        for item in opened:
            if item is not None:
                os.close(item[0])
        return None not in opened

    def write(self, path: Path, data: bytes, mode: int = 0o600) -> str:
        """Write `path` atomically with `mode` (whatever the umask); returns its SHA-256."""
        fd, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            with os.fdopen(fd, "wb") as file:
                os.fchmod(file.fileno(), mode)
                file.write(data)
            os.replace(partial, path)  # a link at `path` is replaced, never followed
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
        return sha256_of(data)

    def publish(self, built: Path, path: Path, mode: int = 0o600) -> str:
        """Move the file `built` (in a scratch folder of the same entry) to `path` with
        `mode`; returns its SHA-256."""
        os.chmod(built, mode)
        digest = hashlib.sha256()
        with open(built, "rb") as file:
            while chunk := file.read(_CHUNK):
                digest.update(chunk)
        os.replace(built, path)
        return digest.hexdigest()

    @contextmanager
    def scratch(self, entry: Path) -> Iterator[Path]:
        """A private scratch folder inside `entry`, removed afterwards."""
        folder = Path(tempfile.mkdtemp(dir=entry, prefix=".build-"))
        try:
            yield folder
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    @contextmanager
    def locked(self, entry: Path) -> Iterator[None]:
        """Hold `entry`'s lock (other processes and threads wait for it)."""
        fd = os.open(entry / "lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # released when the descriptor closes, or its process dies
            yield
        finally:
            os.close(fd)

    def _read_small(self, path: Path) -> bytes | None:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return None
        with os.fdopen(fd, "rb") as file:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
                return None
            return file.read(MAX_RECORD_BYTES)

    def _mismatch(self, path: Path, why: str) -> None:
        warn(f"{path} {why}; building it again", CacheWarning)


_OPENED: dict[Path, Cache] = {}
_PRIVATE: list[Cache] = []
_LOCK = threading.Lock()


def current() -> Cache:
    """The cache of cache_root(), or this process's private one where it was refused."""
    root = cache_root()
    with _LOCK:
        if root not in _OPENED:
            try:
                _OPENED[root] = Cache.open(root)
            except UntrustedCache as refusal:
                _OPENED[root] = _refuse(refusal)
        return _OPENED[root]


def use(operation: Callable[[Cache], T]) -> T:
    """Run `operation` on the current cache; if it finds a folder it cannot trust, warn,
    and run it again on this process's private cache, which then serves the process."""
    cache = current()
    try:
        return operation(cache)
    except UntrustedCache as refusal:
        with _LOCK:
            private = _refuse(refusal)
            for root, opened in _OPENED.items():
                if opened is cache:
                    _OPENED[root] = private
        return operation(private)


def _refuse(refusal: UntrustedCache) -> Cache:
    warn(f"not using the compile cache: {refusal}; building in a private temporary folder", CacheWarning)
    if not _PRIVATE:
        folder = tempfile.mkdtemp(prefix="ipu-lower-cache-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _PRIVATE.append(Cache(Path(folder)))
    return _PRIVATE[0]
