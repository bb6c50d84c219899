"""Writing an output file whole or not at all: the study's replays and report pages.

`replace_file` writes the bytes to a new temporary file beside the target (created exclusively,
never through a link planted in its place) and renames it over the target. A full disk or a
read-only folder raises the OSError and leaves nothing behind: no half-written file, no
temporary one. `probe_folder` writes and removes a small file, so that a folder that cannot be
written is found before a study plays its games rather than after.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


def replace_file(path: Path | str, data: bytes) -> Path:
    """Write `data` to `path` atomically; OSError (with nothing left behind) when it cannot."""
    path = Path(path)
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part",
                                             dir=path.parent)
    except OSError as problem:
        raise _naming(problem, path) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            _fill(stream, data)
        os.chmod(temporary, 0o666 & ~_UMASK)      # mkstemp's 0600 would hide a report
        os.replace(temporary, path)
    except BaseException as problem:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        if isinstance(problem, OSError):
            raise _naming(problem, path) from None
        raise
    return path


def _naming(problem: OSError, path: Path) -> OSError:
    """The error with the file it was writing named (a write's own error names none)."""
    return OSError(problem.errno, problem.strerror or str(problem), str(path))


def _fill(stream, data: bytes) -> None:
    stream.write(data)
    stream.flush()


def probe_folder(folder: Path | str) -> None:
    """Write a small file into `folder` and remove it; OSError when the folder takes no file
    (read-only, no permission, a full disk)."""
    handle, probe = tempfile.mkstemp(prefix=".sandtable-probe-", dir=folder)
    try:
        with os.fdopen(handle, "wb") as stream:
            _fill(stream, b"probe\n")
            os.fsync(stream.fileno())
    finally:
        os.unlink(probe)


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()       # read once: setting it to read it is not thread-safe


__all__ = ["replace_file", "probe_folder"]
