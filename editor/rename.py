"""Giving an entity a new id, and everything that names it the new id too, as one undo step.

Ids are what the files refer to each other by (a border's `between`, a nation's capital, a
condition's `spaces`, the rules' victory cities) and what translations are keyed by
(`spaces.norway.name`). The places are found as the reference check finds them
(validators.references.references_to), so a rename leaves no reference behind that the check would
then report.
"""
from __future__ import annotations

import re

from .commands import MISSING
from .document import ScenarioDocument

ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
MAX_ID = 64
PREFIX = {"scenario": "scenario."}   # translation keys of scenario.yaml start with its name


def _path(pointer: str) -> tuple:
    steps = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
    return tuple(int(step) if step.isdigit() else step for step in steps)


def why_not(document: ScenarioDocument, kind: str, collection: str, old: str, new: str) -> str | None:
    """Why `old` cannot become `new` (None when it can)."""
    if not ID.match(new) or len(new) > MAX_ID:
        return f"{new!r} is not an id: lower-case letters, digits, '_' and '-', at most {MAX_ID}"
    taken = {e.get("id") for e in document.entities(kind, collection)}
    if new in taken:
        return f"{new!r} is already the id of another entry"
    if document.parent_entity(kind, ((collection, ("id", old)),)) is not None:
        return f"{old!r} comes from the parent scenario; a variant cannot rename it"
    if document.own_entity(kind, ((collection, ("id", old)),)) is None:
        return f"there is no {old!r} to rename"
    return None


def rename(document: ScenarioDocument, kind: str, collection: str, old: str, new: str) -> int:
    """Rename the entity `old` of `collection` to `new`, with every reference and translation key
    (one undo step). Returns how many references were changed. ValueError says why not."""
    problem = why_not(document, kind, collection, old, new)
    if problem:
        raise ValueError(problem)
    from validators.references import references_to
    own = {name: document.own(name) for name in document.files if not name.startswith("locale:")}
    system = document.merged("scenario").get("system")
    places = references_to(own, system if isinstance(system, str) else None, collection, old)
    if old in document.layout_positions:   # a space laid out automatically stays where it is drawn
        document.layout_positions[new] = document.layout_positions[old]
    stack = document.undo_stack
    stack.beginMacro(f"Rename {old} to {new}")
    try:
        document.set_field(kind, ((collection, ("id", old)),), ("id",), new)
        for file_kind, pointer in places:
            document.set_value(file_kind, _path(pointer), new)
        _rename_keys(document, f"{PREFIX.get(kind, '')}{collection}.{old}.",
                     f"{PREFIX.get(kind, '')}{collection}.{new}.")
    finally:
        stack.endMacro()
    return len(places)


def _rename_keys(document: ScenarioDocument, old: str, new: str) -> None:
    """Translations follow the key: each own locale's entries under `old` move to `new`."""
    for name, file in list(document.files.items()):
        entries = file.data.get("entries") if name.startswith("locale:") and file.data else None
        if not isinstance(entries, dict):
            continue
        for key in [k for k in entries if isinstance(k, str) and k.startswith(old)]:
            document.set_value(name, ("entries", new + key[len(old):]), entries[key])
            document.set_value(name, ("entries", key), MISSING)
