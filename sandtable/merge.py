"""Merging a variant over the scenario it extends, keeping where each value came from.

Lists of entities merge by identity (`id`, or the `between` pair of a border, or the `space` of a
setup entry): a variant entry with a known identity overrides fields of the parent's, an unknown
one is added, and one with `remove: true` takes the parent's out. Mappings merge key by key; in a
locale file's `entries`, a variant's `{remove: true}` takes the parent's translation of that key
out. Any other value in the variant replaces the parent's.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostics import Diagnostic, Location, error
from .yamlsource import SourceDoc, join_pointer

Origins = dict[str, Location]


@dataclass
class Tracked:
    """Data with the source location of each value and each mapping key, by JSON pointer."""

    data: object
    origins: Origins = field(default_factory=dict)
    key_origins: Origins = field(default_factory=dict)

    @classmethod
    def from_source(cls, doc: SourceDoc) -> Tracked:
        origins = {p: Location(doc.path, line, col, p) for p, (line, col) in doc.positions.items()}
        keys = {p: Location(doc.path, line, col, p) for p, (line, col) in doc.key_positions.items()}
        return cls(doc.data, origins, keys)

    def locate(self, pointer: str, key: bool = False) -> Location:
        """Where the value (or key) at `pointer` was written; falls back to the nearest parent."""
        if key and pointer in self.key_origins:
            return _repoint(self.key_origins[pointer], pointer)
        probe = pointer
        while probe not in self.origins:
            if not probe:
                return Location(None, 0, 0, pointer)
            probe = probe.rsplit("/", 1)[0]
        return _repoint(self.origins[probe], pointer)


def _repoint(location: Location, pointer: str) -> Location:
    return Location(location.file, location.line, location.column, pointer)


def identity(item):
    """The identity an entity merges by, or None for plain data."""
    if not isinstance(item, dict):
        return None
    if isinstance(item.get("id"), str):
        return ("id", item["id"])
    between = item.get("between")
    if isinstance(between, list) and len(between) == 2 and all(isinstance(x, str) for x in between):
        return ("between", tuple(sorted(between)))
    if isinstance(item.get("space"), str):
        return ("space", item["space"])
    return None


def _is_entity_list(value) -> bool:
    return isinstance(value, list) and bool(value) and all(identity(i) for i in value)


def removable_entries(kind: str | None) -> str | None:
    """The mapping whose keys a variant's `{remove: true}` takes out, in a file of this kind: a
    locale's entries (other mappings hold settings, whose keys a variant can only change)."""
    return "/entries" if kind is not None and kind.startswith("locale") else None


class _Merger:
    def __init__(self, parent: Tracked, child: Tracked, kind: str | None = None):
        self.parent = parent
        self.child = child
        self.out = Tracked(None)
        self.diagnostics: list[Diagnostic] = []
        self.removable = removable_entries(kind)

    def copy(self, value, side: Tracked, src: str, dst: str):
        if src in side.origins:
            self.out.origins[dst] = side.origins[src]
        if isinstance(value, dict):
            result = {}
            for key, child in value.items():
                s, d = join_pointer(src, key), join_pointer(dst, key)
                if s in side.key_origins:
                    self.out.key_origins[d] = side.key_origins[s]
                result[key] = self.copy(child, side, s, d)
            return result
        if isinstance(value, list):
            return [self.copy(item, side, join_pointer(src, i), join_pointer(dst, i))
                    for i, item in enumerate(value)]
        return value

    def merge(self, old, old_ptr: str, new, new_ptr: str, dst: str):
        if isinstance(old, dict) and isinstance(new, dict):
            return self._merge_mappings(old, old_ptr, new, new_ptr, dst)
        if _is_entity_list(old) and isinstance(new, list) and all(identity(i) for i in new):
            return self._merge_entities(old, old_ptr, new, new_ptr, dst)
        return self.copy(new, self.child, new_ptr, dst)

    def _origin_from(self, dst: str, new_ptr: str, old_ptr: str) -> None:
        """The merged node's place: the variant's when it names the node, else the parent's."""
        found = self.child.origins.get(new_ptr) or self.parent.origins.get(old_ptr)
        if found is not None:
            self.out.origins[dst] = found

    def _merge_mappings(self, old, old_ptr, new, new_ptr, dst):
        self._origin_from(dst, new_ptr, old_ptr)
        result: dict = {}
        removable = dst == self.removable
        for key in list(old) + [k for k in new if k not in old]:
            d = join_pointer(dst, key)
            in_new = key in new
            side, s = (self.child, join_pointer(new_ptr, key)) if in_new else \
                (self.parent, join_pointer(old_ptr, key))
            if removable and in_new and isinstance(new[key], dict) and new[key].get("remove") is True:
                if key not in old:
                    self.diagnostics.append(error(
                        "VAR003", f"removes entry {key!r}, which the parent does not have",
                        self.child.locate(join_pointer(s, "remove"), key=True),
                        hint="check the spelling of the key, or drop this entry"))
                continue
            if s in side.key_origins:
                self.out.key_origins[d] = side.key_origins[s]
            if in_new and key in old:
                result[key] = self.merge(old[key], join_pointer(old_ptr, key), new[key], s, d)
            elif in_new:
                result[key] = self.copy(new[key], self.child, s, d)
            else:
                result[key] = self.copy(old[key], self.parent, s, d)
        return result

    def _merge_entities(self, old, old_ptr, new, new_ptr, dst):
        self._origin_from(dst, new_ptr, old_ptr)
        changes: dict = {}
        repeated: list[int] = []
        for index, item in enumerate(new):
            if identity(item) in changes:
                repeated.append(index)  # kept, so the duplicate is reported rather than lost
            changes.setdefault(identity(item), (index, item))
        old_ids = {identity(item) for item in old}
        result: list = []

        def place(value, side, src):
            d = join_pointer(dst, len(result))
            result.append(None)
            result[-1] = value(d) if callable(value) else self.copy(value, side, src, d)

        for index, item in enumerate(old):
            key = identity(item)
            src = join_pointer(old_ptr, index)
            if key not in changes:
                place(item, self.parent, src)
                continue
            new_index, new_item = changes[key]
            new_src = join_pointer(new_ptr, new_index)
            if new_item.get("remove") is True:
                continue
            # merged at once, where the result list puts it (the names are bound now, not later)
            place(lambda d, item=item, src=src, new_item=new_item, new_src=new_src:
                  self.merge(item, src, new_item, new_src, d), None, None)
        for index, item in enumerate(new):
            key = identity(item)
            if key in old_ids and index not in repeated:
                continue
            src = join_pointer(new_ptr, index)
            if item.get("remove") is True:
                self.diagnostics.append(error(
                    "VAR003", f"removes {key[0]} {_show(key[1])!s}, which the parent does not have",
                    self.child.locate(join_pointer(src, "remove"), key=True),
                    hint="check the spelling of the id, or drop this entry"))
                continue
            place(item, self.child, src)
        return result


def _show(value) -> str:
    return " / ".join(value) if isinstance(value, tuple) else value


def merge_tracked(parent: Tracked, child: Tracked, kind: str | None = None) -> tuple[Tracked, list[Diagnostic]]:
    """The child merged over the parent (files of `kind`), and diagnostics for removals that
    match nothing."""
    merger = _Merger(parent, child, kind)
    merger.out.data = merger.merge(parent.data, "", child.data, "", "")
    return merger.out, merger.diagnostics
