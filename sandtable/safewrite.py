"""Writing a file safely: atomically, inside its folder, and never over a change made meanwhile.

Every file Sandtable writes goes through `atomic_write_bytes` (or `atomic_write_text`):

- atomic: the bytes go to a new temporary file beside the target (created exclusively, never
  through a link), which is then renamed over it; a crash leaves the old file or the new one;
- inside: `within` names the folder the write must stay in, and sandtable/paths.py's one check
  (PATH001) refuses a target that leads out of it, by `..` or through a link;
- compare before replace: a writer that read the file first passes the fingerprint of what it
  read (`unchanged_since`), and the file is replaced only if it still holds those bytes. Another
  program's save in between raises ChangedOnDisk and nothing is written: the caller reads again
  and retries, or refuses, but never silently undoes that save.

The fingerprint is the size and a SHA-256 of the bytes. The modification time is not part of it:
two saves within one tick of a coarse clock keep the same time, and a `touch` changes it without
changing a byte (replacing such a file loses nothing). The comparison is made once the new text is
on disk beside the target, just before the rename: what is left between them is the time of one
system call, where it was the whole time a command worked (seconds for a large map.yaml). No
portable file system offers a rename that compares first.
"""
from __future__ import annotations

import hashlib
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from .paths import write_target


@dataclass(frozen=True)
class Fingerprint:
    """What a file held when it was read: its size and a hash of its bytes."""

    size: int
    digest: str

    @classmethod
    def of(cls, raw: bytes) -> Fingerprint:
        return cls(len(raw), hashlib.sha256(raw).hexdigest())


class Unchecked:
    """unchanged_since=ANY: replace whatever the file holds (a file nobody read before writing)."""


ANY = Unchecked()
ABSENT = None   # unchanged_since=ABSENT: the file must still not exist


class ChangedOnDisk(OSError):
    """The file changed on disk since it was read; nothing was written."""

    def __init__(self, path: Path):
        super().__init__(f"{path} changed on disk since it was read (another program saved it); "
                         "nothing was written")
        self.path = path


def fingerprint(path: Path) -> Fingerprint | None:
    """The fingerprint of the file now (None when there is none); a link is followed."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):   # a FIFO would block the read
            raise IsADirectoryError(f"{path} is not a regular file")
        with open(path, "rb") as stream:
            return Fingerprint.of(stream.read())
    except FileNotFoundError:
        return None


def atomic_write_text(path: Path, text: str, *, within: Path | None, follow_link: bool = True,
                      unchanged_since: Fingerprint | None | Unchecked = ANY) -> None:
    """Write `text` (UTF-8, newlines as \\n) to `path`; see atomic_write_bytes."""
    atomic_write_bytes(path, text.encode("utf-8"), within=within, follow_link=follow_link,
                       unchanged_since=unchanged_since)


def atomic_write_bytes(path: Path, data: bytes, *, within: Path | None, follow_link: bool = True,
                       unchanged_since: Fingerprint | None | Unchecked = ANY) -> None:
    """Write `data` to `path` through a temporary file and a rename.

    `within`: the folder the write must stay inside (a scenario's folder, an output folder), or
    None for a single file the user named, with no folder around it to keep to. With
    `follow_link`, a link is followed, so that the file it names is replaced and the link kept;
    without, a link at `path` is itself replaced by the file. A new file gets the permissions the
    umask gives; a replaced one keeps its own. Raises PathEscape (PATH001) for a target outside
    `within`, ChangedOnDisk when the file no longer matches `unchanged_since`, OSError otherwise;
    nothing is written in any of these cases."""
    path = Path(path)
    if within is not None:
        path = write_target(within, path, follow_link)
    elif follow_link and path.is_symlink():
        path = path.resolve()
    try:
        status = os.lstat(path)
        mode = stat.S_IMODE(status.st_mode) if stat.S_ISREG(status.st_mode) else None
    except FileNotFoundError:
        mode = None
    try:
        handle, temp_name = _new_temporary(path)
    except OSError as problem:
        raise _naming(problem, path) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            _fill(stream, data)
            os.fsync(stream.fileno())
        if mode is not None:
            os.chmod(temp_name, mode)
        if not isinstance(unchanged_since, Unchecked) and fingerprint(path) != unchanged_since:
            raise ChangedOnDisk(path)
        os.replace(temp_name, path)
    except BaseException as problem:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        if type(problem) is OSError and problem.filename is None:
            raise _naming(problem, path) from None     # a full disk: say which file it was
        raise


def _fill(stream, data: bytes) -> None:
    stream.write(data)
    stream.flush()


def _naming(problem: OSError, path: Path) -> OSError:
    """The error with the file it was writing named (a write's own error names none)."""
    return OSError(problem.errno, problem.strerror or str(problem), str(path))


def probe_folder(folder: Path) -> None:
    """Write a small file into `folder` and remove it: OSError when the folder takes no file
    (read-only, no permission, a full disk), found before the work that would fill it."""
    probe = Path(folder) / f".sandtable-probe-{os.getpid()}"
    try:
        atomic_write_bytes(probe, b"probe\n", within=Path(folder), follow_link=False)
    finally:
        remove_file(probe, within=Path(folder))


def remove_file(path: Path, *, within: Path) -> bool:
    """Delete `path` (a link itself, never the file it names), once it is known to lie inside
    `within`. False when there was nothing to delete."""
    try:
        os.unlink(write_target(within, Path(path), follow_link=False))
        return True
    except FileNotFoundError:
        return False


def _new_temporary(path: Path) -> tuple[int, str]:
    """A new file beside `path`, created exclusively and never through a link, with mode 0666 so
    that the umask decides (tempfile's files are 0600 whatever the umask)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    while True:
        name = str(path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(name, flags, 0o666), name
        except FileExistsError:
            continue
