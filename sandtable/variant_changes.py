"""The changes a variant makes to the scenario it extends, one by one, and each applied alone.

A variant's files hold only what it changes (sandtable/merge.py). Read against its parent's
merged data with the same identities the merge uses, each piece of a variant file is one change:

- an entity of a list that merges by identity (`id`, a border's `between`, a set-up entry's
  `space`): an *override* of the parent's entity, an *addition*, or a *removal* (`remove: true`);
- any other value: a *replacement* of the parent's value (mappings are read key by key).

Each change carries a *patch*: a document of its file kind that holds that change only, so that
merging the patch over the parent gives the parent with that one change. What changes nothing
the rules read is left out: the variant's own name, id and description, and edits that touch only
notes and sources.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path

from .merge import Tracked, identity, merge_tracked
from .scenario import FILE_KINDS, Scenario, load_scenario
from .yamlsource import join_pointer

# Keys of scenario.yaml that name or describe a scenario rather than change its game.
DESCRIBING_KEYS = frozenset({"extends", "id", "name", "description", "notes", "sources", "source",
                             "year", "source_language"})
# Keys that only document, wherever they are.
DOCUMENTING_KEYS = frozenset({"notes", "source", "sources", "description"})


@dataclass(frozen=True)
class Change:
    kind: str                 # the file kind: "setup"
    what: str                 # override, addition, removal, replacement
    pointer: str              # where it is written in the variant's file
    label: str                # "sz-1 (setup.yaml) changed"
    patch: dict = field(repr=False, compare=False)
    file: str = ""            # the variant's file
    line: int = 0

    @property
    def group(self) -> str:
        """The file and top-level key it belongs to: 'setup.yaml /spaces'."""
        top = self.pointer.split("/")[1] if self.pointer.count("/") else ""
        return f"{FILE_KINDS.get(self.kind, self.kind)} /{top}"

    def as_dict(self) -> dict:
        return {"kind": self.kind, "what": self.what, "pointer": self.pointer,
                "label": self.label, "file": self.file, "line": self.line, "group": self.group}


def parent_of(scenario: Scenario) -> Scenario | None:
    """The merged scenario that a variant extends, or None when it extends none."""
    if len(scenario.lineage) < 2:
        return None
    return load_scenario(scenario.lineage[1])


def variant_changes(scenario: Scenario, parent: Scenario) -> list[Change]:
    """The changes the variant's own files make to `parent`, in file and line order."""
    found: list[Change] = []
    for kind, name in FILE_KINDS.items():
        source = scenario.sources.get(Path(scenario.root) / name)
        if source is None or not isinstance(source.data, dict):
            continue
        walker = _Walker(kind, name, source)
        walker.mapping(parent.doc(kind), source.data, "", lambda value: value, top=True)
        found.extend(change for change in walker.changes if _changes_play(change))
    return found


def apply_changes(parent: Scenario, changes: list[Change]) -> Scenario:
    """A copy of the parent with these changes merged over it (its data only, like
    playtest.study.portable); the parent is left as it was."""
    documents = {kind: Tracked(tracked.data) for kind, tracked in parent.documents.items()
                 if not kind.startswith("locale:")}
    patches: dict[str, dict] = {}
    for change in changes:                 # one patch a file kind: one merge of each file
        patches[change.kind] = _combine(patches.get(change.kind, {}), change.patch)
    for kind, patch in patches.items():
        base = documents.get(kind) or Tracked({})
        merged, _ = merge_tracked(base, Tracked(copy.deepcopy(patch)), kind)
        documents[kind] = Tracked(merged.data)
    return Scenario(root=parent.root, documents=documents, lineage=list(parent.lineage))


def _combine(first, second):
    """Two patches of one file as one: mappings key by key, lists of entities one after the
    other (the changes never touch the same entity or value)."""
    if isinstance(first, dict) and isinstance(second, dict):
        combined = dict(first)
        for key, value in second.items():
            combined[key] = _combine(first[key], value) if key in first else value
        return combined
    if isinstance(first, list) and isinstance(second, list):
        return first + second
    return second


def _changes_play(change: Change) -> bool:
    """Does the change touch anything besides notes and sources (and the identity of the
    entity it names)?"""
    def emptied(old, new) -> bool:            # something that was not empty, emptied
        return new in ({}, []) and old not in ({}, [])

    def bare(value):
        if isinstance(value, dict):
            kept = {k: bare(v) for k, v in value.items() if k not in DOCUMENTING_KEYS}
            kept = {k: v for k, v in kept.items() if not emptied(value[k], v)}
            return {} if identity(value) and set(kept) <= _IDENTITY_KEYS else kept
        if isinstance(value, list):
            return [b for b in (bare(v) for v in value) if b not in ({}, [])]
        return value

    return bare(change.patch) not in ({}, [])


_IDENTITY_KEYS = frozenset({"id", "between", "space"})


def without_documentation(value):
    if isinstance(value, dict):
        return {k: without_documentation(v) for k, v in value.items() if k not in DOCUMENTING_KEYS}
    if isinstance(value, list):
        return [without_documentation(v) for v in value]
    return value


class _Walker:
    """Reads one variant file against the parent's data of the same kind."""

    def __init__(self, kind: str, name: str, source):
        self.kind, self.name, self.source = kind, name, source
        self.changes: list[Change] = []

    def mapping(self, old: dict, new: dict, pointer: str, wrap, top: bool = False) -> None:
        for key, value in new.items():
            if top and self.kind == "scenario" and key in DESCRIBING_KEYS:
                continue
            if key in DOCUMENTING_KEYS:
                continue
            here = join_pointer(pointer, key)
            inner = (lambda k: lambda v: wrap({k: v}))(key)
            if key not in old:
                self.add("addition", here, inner(copy.deepcopy(value)), f"{here[1:]} added")
            else:
                self.value(old[key], value, here, inner)

    def value(self, old, new, pointer: str, wrap) -> None:
        if isinstance(old, dict) and isinstance(new, dict):
            self.mapping(old, new, pointer, wrap)
        elif _entity_list(old) and isinstance(new, list) and all(identity(i) for i in new):
            self.entities(old, new, pointer, wrap)
        elif old != new:
            self.add("replacement", pointer, wrap(copy.deepcopy(new)), f"{pointer[1:]} replaced")

    def entities(self, old: list, new: list, pointer: str, wrap) -> None:
        known = {identity(item) for item in old}
        noun = pointer.rsplit("/", 1)[-1].replace("_", " ")
        noun = noun[:-1] if noun.endswith("s") else noun
        for index, item in enumerate(new):
            key = identity(item)
            shown = " / ".join(key[1]) if isinstance(key[1], tuple) else key[1]
            if item.get("remove") is True:
                what, verb = "removal", "removed"
            elif key in known:
                what, verb = "override", "changed"
            else:
                what, verb = "addition", "added"
            self.add(what, join_pointer(pointer, index), wrap([copy.deepcopy(item)]),
                     f"{noun} {shown} {verb}")

    def add(self, what: str, pointer: str, patch: dict, label: str) -> None:
        line, _ = self.source.positions.get(pointer, (0, 0))
        self.changes.append(Change(self.kind, what, pointer, f"{label} ({self.name}:{line})", patch,
                                   str(self.source.path), line))


def _entity_list(value) -> bool:
    return isinstance(value, list) and bool(value) and all(identity(i) for i in value)


__all__ = ["Change", "parent_of", "variant_changes", "apply_changes", "without_documentation"]
