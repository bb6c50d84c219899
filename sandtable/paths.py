"""Keeping every path a scenario names inside the folder it may use."""
from __future__ import annotations

from pathlib import Path


class PathEscape(ValueError):
    """A path leaves the folder it must stay in."""


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
