"""What a variant changes against its parent: every value it sets, every entity it adds or removes.

Read from the variant's own files (which hold only its changes) beside the parent's data, the way
`extends` merging reads them: entities by identity, mappings key by key, anything else whole.
"""
from __future__ import annotations

from dataclasses import dataclass

from sandtable.merge import identity

from .commands import MISSING

# A variant's own name and description, and how it names its parent, are not changes of the game.
IGNORED = {("scenario", key) for key in ("id", "name", "extends", "description", "notes", "sources", "version")}


@dataclass(frozen=True)
class Change:
    kind: str                 # file kind
    locator: tuple            # the entity (empty for a value outside any entity)
    field: tuple              # the field inside it (empty for a whole entity)
    what: str                 # "changed", "added", "removed" or "set"
    parent: object = MISSING
    value: object = MISSING

    @property
    def entity(self) -> str:
        if not self.locator:
            return ""
        return " / ".join(_show(step[1]) for step in self.locator)

    @property
    def place(self) -> str:
        return ".".join(str(step) for step in self.field)


def variant_changes(document) -> list[Change]:
    if not document.is_variant:
        return []
    parent = document.parent_scenario
    found: list[Change] = []
    for kind in document.files:
        own = document.own(kind)
        if own:
            _mapping(kind, (), (), own, parent.doc(kind), found)
    return found


def _mapping(kind, locator, path, own: dict, inherited, found) -> None:
    inherited = inherited if isinstance(inherited, dict) else {}
    for key, value in own.items():
        here = path + (key,)
        if not locator and (kind, key) in IGNORED:
            continue
        before = inherited.get(key, MISSING)
        if _entity_list(value):
            _entities(kind, locator, here, value, before if isinstance(before, list) else [], found)
        elif isinstance(value, dict) and isinstance(before, dict):
            _mapping(kind, locator, here, value, before, found)
        elif value != before:
            what = "set" if before is MISSING else "changed"
            found.append(Change(kind, locator, here, what, before, value))


def _entities(kind, locator, path, own: list, inherited: list, found) -> None:
    collection = path[-1]
    for entry in own:
        ident = identity(entry)
        step = (collection, ident)
        before = next((item for item in inherited if identity(item) == ident), None)
        if before is None:
            found.append(Change(kind, locator + (step,), (), "added", MISSING, entry))
        elif entry.get("remove") is True:
            found.append(Change(kind, locator + (step,), (), "removed", before, MISSING))
        else:
            body = {k: v for k, v in entry.items() if k != ident[0]}
            _mapping(kind, locator + (step,), (), body, before, found)


def _entity_list(value) -> bool:
    return isinstance(value, list) and bool(value) and all(identity(item) for item in value)


def _show(ident) -> str:
    value = ident[1] if isinstance(ident, tuple) else ident
    return " – ".join(value) if isinstance(value, tuple) else str(value)


def revert(document, change: Change) -> bool:
    """Undo a variant's change (one undo step): give the value back to the parent, take out an
    entity the variant added, bring back one it removed."""
    if change.what == "added":
        document.remove_entity(change.kind, change.locator)
        return True
    if change.what == "removed":
        return document.revert_entity(change.kind, change.locator)
    if change.locator:
        return document.revert_field(change.kind, change.locator, change.field)
    document.set_value(change.kind, change.field, MISSING, f"Revert {'.'.join(map(str, change.field))}")
    return True
