"""Unsaved work kept safe: written beside the scenario every minute, offered back after a crash.

The recovery file (`.sandtable-recovery` in the scenario's folder, where everything of the
scenario lives) holds the data of each file edited since the last save, written atomically. A
save or a deliberate discard removes it; a crash leaves it, and opening the scenario again offers
to restore it, as one undo step, onto the files as they are on disk. It is YAML, read back with
the same safe loader as the scenario's files, and never read as a scenario file (its name has no
.yaml ending).

A recovery file may come from elsewhere (a cloned repository, a copied folder), so nothing in it
is trusted: it must name this scenario (its id and folder), every file kind in it must be one a
scenario has (sandtable.scenario.is_file_kind: the fixed files and locales named by a BCP 47
tag), and a link in its place is never read nor written through (it is replaced by the file).
"""
from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

from sandtable.safewrite import atomic_write_text, remove_file
from sandtable.scenario import is_file_kind
from sandtable.yamlsource import YamlRefused, read_yaml_file
from sandtable.yamlwrite import dump_canonical

from .commands import MISSING
from .document import ScenarioDocument, copy_data

NAME = ".sandtable-recovery"
HEADER = "# Unsaved work of the Sandtable editor; it offers it back when the scenario is next opened.\n"
# The latest time a clock gives that time.localtime can show (the end of year 9999).
LAST_TIME = 253_402_300_799


class RecoveryRefused(Exception):
    """A recovery file that is not offered: why, in a sentence."""


@dataclass
class Recovered:
    written: float                 # when (seconds since the epoch)
    files: dict[str, dict]         # file kind -> its data
    removed: list[str]             # file kinds taken out (locales)

    @property
    def when(self) -> str:
        try:
            return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.written))
        except (OverflowError, OSError, ValueError):
            return "an unknown time"


def path_for(document: ScenarioDocument) -> Path:
    return document.root / NAME


def identity(document: ScenarioDocument) -> dict:
    """Which scenario the unsaved work belongs to: its id as on disk, and its folder."""
    scenario = document.files.get("scenario")
    data = None if scenario is None else (scenario.disk_data if scenario.disk_data is not None else scenario.data)
    ident = data.get("id") if isinstance(data, dict) else None
    return {"id": ident if isinstance(ident, str) else None, "folder": str(document.root.resolve())}


def write(document: ScenarioDocument) -> Path | None:
    """Keep the unsaved edits; returns the file written (None when there is nothing unsaved).
    A link named like the recovery file is replaced, never written through."""
    edited = {kind: file for kind, file in document.files.items() if file.edited and file.data is not None}
    if not document.is_dirty() or not edited:
        discard(document)
        return None
    payload = {"scenario": identity(document), "written": time.time(),
               "files": {kind: copy_data(file.data) for kind, file in edited.items() if not file.removed},
               "removed": sorted(kind for kind, file in edited.items() if file.removed)}
    path = path_for(document)
    atomic_write_text(path, dump_canonical(payload, HEADER), within=document.root, follow_link=False)
    return path


def read(document: ScenarioDocument) -> Recovered | None:
    """What a crash left for this scenario; None when there is no recovery file. Raises
    RecoveryRefused for one that cannot be read or is not this scenario's work."""
    path = path_for(document)
    if path.is_symlink():
        raise RecoveryRefused(f"{NAME} is a link; the editor never follows one there")
    if not path.exists():
        return None
    try:
        data = read_yaml_file(path).data
    except YamlRefused as refused:
        raise RecoveryRefused(f"{NAME} cannot be read: {refused.diagnostic.message}") from None
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict) \
            or not isinstance(data.get("removed", []), list):
        raise RecoveryRefused(f"{NAME} is not a recovery file of this editor")
    if data.get("scenario") != identity(document):
        raise RecoveryRefused(f"{NAME} was written for another scenario (or another folder)")
    files = data["files"]
    removed = data.get("removed") or []
    strange = [kind for kind in list(files) + removed if not is_file_kind(kind)]
    strange += [kind for kind in removed if is_file_kind(kind) and not kind.startswith("locale:")]
    strange += [kind for kind, value in files.items() if not isinstance(value, dict)]
    if strange:
        raise RecoveryRefused(f"{NAME} names {str(strange[0])[:80]!r}, which is not a file of a "
                              "scenario (the scenario's files and locales/<BCP 47 tag>.yaml)")
    return Recovered(_timestamp(data.get("written"), path), files, removed)


def _timestamp(value, path: Path) -> float:
    """The time the file says it was written, or (for anything that is not a time a clock can
    show: NaN, -1e300, a string) the time the file was last changed."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value) and 0 <= value <= LAST_TIME:
        return float(value)
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


def restore(document: ScenarioDocument, recovered: Recovered) -> None:
    """Put the recovered data back as one undo step: the changes are unsaved edits again.
    A file the document could not read (or that links out of the folder) is left alone."""
    stack = document.undo_stack
    stack.beginMacro(f"Restore unsaved work of {recovered.when}")
    for kind, data in recovered.files.items():
        held = document.files.get(kind)
        if held is not None and held.data is None:
            continue
        own = document.own(kind)
        for key in list(own) + [k for k in data if k not in own]:
            if own.get(key, MISSING) != data.get(key, MISSING):
                document.set_value(kind, (key,), data.get(key, MISSING), f"Restore {key}")
    for kind in recovered.removed:
        document.remove_locale(kind.split(":", 1)[1])
    stack.endMacro()


def discard(document: ScenarioDocument) -> None:
    remove_file(path_for(document), within=document.root)
