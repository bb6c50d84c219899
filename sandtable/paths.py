"""Keeping every path a scenario names, and every file Sandtable writes, inside the folder it may use.

Reading and writing share one rule (PATH001): a path that leads outside its folder, by `..` or
through a symbolic link, is refused. `write_target` is the check every writer calls before it
creates, replaces or removes a file (sandtable/safewrite.py, editor saves, the recovery file).
"""
from __future__ import annotations

from pathlib import Path


class PathEscape(ValueError):
    """A path leaves the folder it must stay in."""

    code = "PATH001"


def inside(root: Path, relative: str | Path) -> Path:
    """`relative` resolved against `root`; refuses absolute paths and any escape, symlinks included."""
    relative = Path(relative)
    if relative.is_absolute() or relative.drive:
        raise PathEscape(f"{relative} is an absolute path; give a path relative to {root.name}/")
    real_root = root.resolve()
    target = (root / relative).resolve()
    if target != real_root and real_root not in target.parents:
        raise PathEscape(f"{relative} leads outside {root.name}/")
    return target


def is_inside(root: Path, path: Path) -> bool:
    real_root = root.resolve()
    target = path.resolve()
    return target == real_root or real_root in target.parents


def write_target(root: Path, path: Path, follow_link: bool = True) -> Path:
    """The file a write to `path` changes, once it is known to lie inside `root` (PATH001).

    With `follow_link`, a link is followed (a scenario file linked to another file of the same
    folder is written through, and the link kept); without, the link itself is what gets replaced
    or removed, so that a planted link never leads a write elsewhere. Either way every folder on
    the way is resolved: a linked `locales/` that leads out is refused too."""
    path = Path(path)
    if path.name in ("", ".", ".."):
        raise PathEscape(f"{path} names no file; nothing was written")
    real_root = Path(root).resolve()
    target = path.resolve() if follow_link else path.parent.resolve() / path.name
    if real_root not in target.parents:
        raise PathEscape(f"{_shown(root, path)} leads outside {Path(root).name or root}/ "
                         "(through a link or ..); nothing was written")
    return target


def _shown(root: Path, path: Path) -> str:
    try:
        return Path(path).relative_to(root).as_posix()
    except ValueError:
        return str(path)
