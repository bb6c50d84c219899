"""Turning command-line paths into scenario folders."""
from __future__ import annotations

from pathlib import Path

from ..cli import UsageError


def scenario_folders(paths: list[str]) -> list[Path]:
    from ..scenario import find_scenarios  # imported here: building the parser must stay light
    folders: list[Path] = []
    for text in paths:
        path = Path(text)
        if not path.exists():
            raise UsageError(f"{text}: no such file or folder")
        if not path.is_dir():
            raise UsageError(f"{text}: give a scenario folder (or a folder of scenarios)")
        found = find_scenarios(path)
        if not found:
            raise UsageError(f"{text}: no scenario.yaml here or below")
        folders += [f for f in found if f not in folders]
    return folders
