"""Unsaved work kept safe: written beside the scenario every minute, offered back after a crash.

The recovery file (`.sandtable-recovery` in the scenario's folder, where everything of the
scenario lives) holds the data of each file edited since the last save, written atomically. A
save or a deliberate discard removes it; a crash leaves it, and opening the scenario again offers
to restore it, as one undo step, onto the files as they are on disk. It is YAML, read back with
the same safe loader as the scenario's files, and never read as a scenario file (its name has no
.yaml ending).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from sandtable.yamlsource import YamlRefused, read_yaml_file
from sandtable.yamlwrite import atomic_write_text, dump_canonical

from .commands import MISSING
from .document import ScenarioDocument, copy_data

NAME = ".sandtable-recovery"
HEADER = "# Unsaved work of the Sandtable editor; it offers it back when the scenario is next opened.\n"


@dataclass
class Recovered:
    written: float                 # when (seconds since the epoch)
    files: dict[str, dict]         # file kind -> its data
    removed: list[str]             # file kinds taken out (locales)

    @property
    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.written))


def path_for(document: ScenarioDocument) -> Path:
    return document.root / NAME


def write(document: ScenarioDocument) -> Path | None:
    """Keep the unsaved edits; returns the file written (None when there is nothing unsaved)."""
    edited = {kind: file for kind, file in document.files.items() if file.edited and file.data is not None}
    if not document.is_dirty() or not edited:
        discard(document)
        return None
    payload = {"written": time.time(),
               "files": {kind: copy_data(file.data) for kind, file in edited.items() if not file.removed},
               "removed": sorted(kind for kind, file in edited.items() if file.removed)}
    path = path_for(document)
    atomic_write_text(path, dump_canonical(payload, HEADER))
    return path


def read(document: ScenarioDocument) -> Recovered | None:
    """What a crash left for this scenario, or None (no file, or one that cannot be read)."""
    path = path_for(document)
    if not path.is_file():
        return None
    try:
        data = read_yaml_file(path).data
    except (YamlRefused, OSError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
        return None
    files = {kind: value for kind, value in data["files"].items() if isinstance(value, dict)}
    removed = [kind for kind in data.get("removed") or [] if isinstance(kind, str)]
    written = data.get("written")
    return Recovered(float(written) if isinstance(written, (int, float)) else path.stat().st_mtime, files, removed)


def restore(document: ScenarioDocument, recovered: Recovered) -> None:
    """Put the recovered data back as one undo step: the changes are unsaved edits again."""
    stack = document.undo_stack
    stack.beginMacro(f"Restore unsaved work of {recovered.when}")
    for kind, data in recovered.files.items():
        own = document.own(kind)
        for key in list(own) + [k for k in data if k not in own]:
            if own.get(key, MISSING) != data.get(key, MISSING):
                document.set_value(kind, (key,), data.get(key, MISSING), f"Restore {key}")
    for kind in recovered.removed:
        if kind.startswith("locale:"):
            document.remove_locale(kind.split(":", 1)[1])
    stack.endMacro()


def discard(document: ScenarioDocument) -> None:
    try:
        path_for(document).unlink()
    except FileNotFoundError:
        pass
