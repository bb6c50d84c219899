"""The open scenario: the raw data of each file in its own folder, edited only through undo commands.

The document keeps what each file says, exactly as read (unknown keys included), so saving writes
back everything the editor does not understand. Views read the *merged* data (a variant over its
parent) and edit through entity locators; for a variant, an edit to something inherited becomes an
override entry in the variant's own file, as `extends` merging expects.
"""
from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, Signal
from PySide6.QtGui import QUndoStack

from sandtable.diagnostics import Diagnostic, Location, error
from sandtable.merge import Tracked, identity, merge_tracked
from sandtable.paths import PathEscape, inside, is_inside, write_target
from sandtable.safewrite import ANY, ChangedOnDisk, Fingerprint, atomic_write_bytes, fingerprint, remove_file
from sandtable.scenario import (
    FILE_KINDS,
    LOCALE_DIR,
    Scenario,
    file_path,
    is_locale_tag,
    load_scenario,
    locale_kind,
    parent_folder,
)
from sandtable.schemas import schema_header
from sandtable.yamlsource import YamlRefused, join_pointer, read_yaml_file
from sandtable.yamlwrite import leading_comments, save_yaml

from .commands import MISSING, InsertItem, RemoveItem, SetFileRemoved, SetValue

# A locator names an entity by the chain of lists and identities that leads to it:
# (("decks", ("id", "japan")), ("cards", ("id", "j01"))). A step may carry a third member, which
# of several entries with the same identity it means (0 for the first): a duplicate is a mistake
# the designer must be able to select, fix or remove, and not confuse with the original.
Locator = tuple


def steps(locator: Locator):
    """(collection, identity, occurrence) of each step of a locator."""
    for step in locator:
        yield step[0], step[1], (step[2] if len(step) > 2 else 0)


@dataclass
class ScenarioFile:
    """One file of the scenario's own folder, as the editor holds it."""

    kind: str
    path: Path
    data: dict | None            # None when the file could not be read: it is never written
    header: str = ""
    disk_text: str | None = None  # what the file held when last read or written; None if absent
    origins: dict = field(default_factory=dict)      # value positions, valid while not edited
    key_origins: dict = field(default_factory=dict)
    edited: bool = False          # changed since read or written, so positions are stale
    version: int = 0              # counts edits, so unchanged data need not be copied again
    problem: Diagnostic | None = None
    announced_text: str | None = None   # the outside change last reported
    removed: bool = False         # the designer removed the file (a locale): deleted at the next save
    created: bool = False         # this document wrote the file first (it was not there when read)
    disk_data: dict | None = None  # the data as on disk, kept from the first edit (for positions)
    # The bytes last read or written (None: no file): a save replaces the file only if it still
    # holds them, so another program's save is never silently undone.
    fingerprint: Fingerprint | None = None

    @property
    def exists(self) -> bool:
        return self.disk_text is not None


@dataclass
class FileSnapshot:
    kind: str
    path: Path
    data: dict | None            # None: absent or unreadable
    origins: dict                # positions of the values as on disk
    key_origins: dict
    failed: bool = False
    disk_data: dict | None = None  # for an edited file: its data as on disk (the origins' data)


@dataclass
class Snapshot:
    """A copy of the document's data for a validation run on another thread."""

    root: Path
    files: list[FileSnapshot]
    parent: Scenario | None
    problems: list[Diagnostic]


class ScenarioDocument(QObject):
    changed = Signal(str)            # a file kind whose data changed
    reloaded = Signal()              # everything may have changed
    saved = Signal()
    changed_on_disk = Signal(list)   # paths of files another program changed
    problems_changed = Signal()      # the latest validation's diagnostics are in `problems`

    def __init__(self, root: Path | str, parent: QObject | None = None):
        super().__init__(parent)
        self.root = Path(root)
        self.files: dict[str, ScenarioFile] = {}
        self.undo_stack = QUndoStack(self)
        self.layout_positions: dict[str, list[float]] = {}
        self._parent_scenario: Scenario | None = None
        self.parent_problems: list[Diagnostic] = []   # why the scenario it extends was not read
        self._merged: dict[str, dict] = {}
        self._copies: dict[str, tuple] = {}
        # (file kind, JSON pointer into the merged data) -> the diagnostics about that value
        self.problems: dict[tuple[str, str], list[Diagnostic]] = {}
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._on_file_changed)
        self._watcher.directoryChanged.connect(self._on_directory_changed)
        self._read_all()

    # -- reading ---------------------------------------------------------------------------
    def _own_paths(self) -> dict[str, Path]:
        paths = {kind: self.root / name for kind, name in FILE_KINDS.items()}
        locale_dir = self.root / LOCALE_DIR
        if locale_dir.is_dir():
            for path in sorted(locale_dir.glob("*.yaml")):
                if is_locale_tag(path.stem):
                    paths[locale_kind(path.stem)] = path
        return paths

    def _read_all(self) -> None:
        self.files = {}
        for kind, path in self._own_paths().items():   # scenario.yaml first: it says whether a variant
            self.files[kind] = (self._read(kind, path, "extends" in self.own("scenario"))
                                if is_inside(self.root, path) else self._refused(kind, path))
        self._parent_scenario = self._load_parent()
        self._merged.clear()
        self._watch()

    @staticmethod
    def _read(kind: str, path: Path, variant: bool = False) -> ScenarioFile:
        if not path.exists():
            # A new file names its schema, a variant's the schema of a variant's files.
            return ScenarioFile(kind, path, {}, header=schema_header(kind, path, variant))
        try:
            doc = read_yaml_file(path)
        except YamlRefused as refused:
            text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
            return ScenarioFile(kind, path, None, disk_text=text, problem=refused.diagnostic)
        data = doc.data if isinstance(doc.data, dict) else {}
        tracked = Tracked.from_source(doc)
        return ScenarioFile(kind, path, data, leading_comments(doc.text), doc.text,
                            tracked.origins, tracked.key_origins, fingerprint=doc.fingerprint)

    @staticmethod
    def _refused(kind: str, path: Path) -> ScenarioFile:
        """A file that links out of the scenario folder: shown as a problem, never written."""
        problem = error("PATH001", f"{path.name} links to a file outside the scenario folder; "
                        "it was not read", Location(path, 1, 1))
        return ScenarioFile(kind, path, None, disk_text="", problem=problem)

    def _load_parent(self) -> Scenario | None:
        """The scenario this one extends, found as the loader finds it (sandtable/scenario.py
        `parent_folder`: never outside the folder of scenarios); what refuses it goes to the
        problems."""
        file = self.files.get("scenario")
        manifest = None if file is None or file.data is None else \
            Tracked(file.data, file.origins, file.key_origins)
        folder, self.parent_problems = parent_folder(self.root, manifest, [self.root.resolve()])
        return load_scenario(folder) if folder is not None else None

    def reload(self) -> None:
        """Read every file again, dropping unsaved edits and the undo history."""
        self.undo_stack.clear()
        self.layout_positions.clear()
        self._read_all()
        self.reloaded.emit()

    # -- data for views --------------------------------------------------------------------
    @property
    def is_variant(self) -> bool:
        return self._parent_scenario is not None

    @property
    def parent_scenario(self) -> Scenario | None:
        return self._parent_scenario

    def own(self, kind: str) -> dict:
        """The data of the scenario's own file of `kind` (empty if absent, unreadable or removed)."""
        file = self.files.get(kind)
        return file.data if file is not None and file.data is not None and not file.removed else {}

    def find_merged(self, kind: str, locator) -> dict | None:
        """The merged entity a locator leads to: (collection, identity) steps from the file's top."""
        return _follow(self.merged(kind), locator)

    def pointer_of(self, kind: str, locator: Locator) -> str | None:
        """The JSON pointer of the entity in the merged data (what diagnostics point at)."""
        value, pointer = self.merged(kind), ""
        for collection, ident, nth in steps(locator):
            items = value.get(collection) if isinstance(value, dict) else None
            index = _find_index(items, ident, nth)
            if index is None or items is None:
                return None
            pointer = join_pointer(join_pointer(pointer, collection), index)
            value = items[index]
        return pointer

    def own_entity(self, kind: str, locator: Locator) -> dict | None:
        """The entry of the scenario's own file that the locator leads to (a variant's override)."""
        return _follow(self.own(kind), locator)

    def parent_entity(self, kind: str, locator: Locator) -> dict | None:
        """What the parent scenario says of the entity (None outside a variant, or if it is new)."""
        if self._parent_scenario is None:
            return None
        return _follow(self._parent_scenario.doc(kind), locator)

    def merged(self, kind: str) -> dict:
        """What the game sees: the variant's file merged over its parent's (read-only)."""
        if self._parent_scenario is None:
            return self.own(kind)
        if kind not in self._merged:
            inherited = self._parent_scenario.documents.get(kind)
            mine = Tracked(copy.deepcopy(self.own(kind)))
            merged = mine if inherited is None else merge_tracked(inherited, mine, kind)[0]
            self._merged[kind] = merged.data if isinstance(merged.data, dict) else {}
        return self._merged[kind]

    def entities(self, kind: str, collection: str) -> list[dict]:
        items = self.merged(kind).get(collection)
        return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []

    @property
    def locale_tags(self) -> list[str]:
        tags = {k.split(":", 1)[1] for k, f in self.files.items()
                if k.startswith("locale:") and not f.removed and (f.exists or f.data)}
        if self._parent_scenario is not None:
            tags |= set(self._parent_scenario.locale_tags)
        return sorted(tags)

    def kind_of_file(self, path: Path | str | None) -> str | None:
        if path is None:
            return None
        path = Path(path)
        if path.parent.name == LOCALE_DIR:
            return locale_kind(path.stem)
        for kind, name in FILE_KINDS.items():
            if path.name == name:
                return kind
        return None

    # -- primitive edits (used by the undo commands only) ----------------------------------
    def _container(self, kind: str, path: tuple):
        value = self.own(kind)
        for step in path:
            value = value[step]
        return value

    def _keep_disk_data(self, kind: str) -> None:
        """Before a file's first edit, keep its data as on disk: the positions read from the file
        are positions of that data, and lead diagnostics to real lines after edits."""
        file = self.files[kind]
        if file.disk_data is None and file.exists and file.data is not None:
            file.disk_data = copy_data(file.data)

    def _replace(self, kind: str, path: tuple, value):
        """Set (or, with MISSING, delete) the value at `path`; returns what was there."""
        self._ensure_file(kind)
        self._keep_disk_data(kind)
        holder = self._container(kind, path[:-1])
        key = path[-1]
        if isinstance(holder, list):
            old = holder[key]
            holder[key] = value
        else:
            old = holder.get(key, MISSING)
            if value is MISSING:
                holder.pop(key, None)
            else:
                holder[key] = value
        self._touch(kind)
        return old

    def _insert(self, kind: str, path: tuple, index: int, item) -> None:
        self._keep_disk_data(kind)
        self._container(kind, path).insert(index, item)
        self._touch(kind)

    def _remove(self, kind: str, path: tuple, index: int):
        self._keep_disk_data(kind)
        item = self._container(kind, path).pop(index)
        self._touch(kind)
        return item

    def _set_removed(self, kind: str, removed: bool) -> None:
        self.files[kind].removed = removed
        self._touch(kind)

    def add_locale(self, tag: str) -> bool:
        """Start a locale: its file with `locale: tag` and no entries yet (one undo step)."""
        kind = locale_kind(tag)
        file = self.files.get(kind)
        if file is not None and file.removed:
            self.undo_stack.push(SetFileRemoved(self, kind, False, f"Bring back locale {tag}"))
            return True
        if file is not None and file.data and file.data.get("locale") == tag:
            return False
        self.set_value(kind, ("locale",), tag, f"Start locale {tag}")
        return True

    def remove_locale(self, tag: str) -> bool:
        """Take the scenario's own locale file out: deleted at the next save, back on undo."""
        kind = locale_kind(tag)
        file = self.files.get(kind)
        if file is None or file.removed or file.data is None:
            return False
        self.undo_stack.push(SetFileRemoved(self, kind, True, f"Remove locale {tag}"))
        return True

    def _ensure_file(self, kind: str) -> None:
        """Start holding the file of `kind` (ValueError for anything that is not a file kind)."""
        if kind not in self.files:
            path = file_path(self.root, kind)
            self.files[kind] = (self._read(kind, path, self.is_variant) if is_inside(self.root, path)
                                else self._refused(kind, path))

    def _touch(self, kind: str) -> None:
        self.files[kind].edited = True
        self.files[kind].version += 1
        self._merged.pop(kind, None)
        self.changed.emit(kind)

    def existing_prefix(self, kind: str, path: tuple) -> int:
        """How many leading steps of `path` lead to containers that exist."""
        value = self.own(kind)
        for depth, step in enumerate(path):
            if isinstance(value, dict) and step in value:
                value = value[step]
            elif isinstance(value, list) and isinstance(step, int) and step < len(value):
                value = value[step]
            else:
                return depth
        return len(path)

    # -- edits through the undo stack ------------------------------------------------------
    def set_value(self, kind: str, path: tuple, value, text: str | None = None) -> None:
        """Set a value by its path in the own file, creating missing mappings on the way."""
        self._ensure_file(kind)
        found = self.existing_prefix(kind, path[:-1])
        if found < len(path) - 1:
            value = _nest(path[found + 1:], value)
            path = path[:found + 1]
        current = self._value_at(kind, path)
        if current == value and current is not MISSING:
            return
        self.undo_stack.push(SetValue(self, kind, path, value, text or f"Set {_describe(path)}"))

    def _value_at(self, kind: str, path: tuple):
        try:
            return self._container(kind, path)
        except (KeyError, IndexError, TypeError):
            return MISSING

    def append_item(self, kind: str, path: tuple, item, text: str | None = None) -> None:
        """Add an item at the end of the list at `path` (creating the list if needed)."""
        self._ensure_file(kind)
        existing = self._value_at(kind, path)
        if not isinstance(existing, list):
            self.set_value(kind, path, [item], text)
            return
        self.undo_stack.push(InsertItem(self, kind, path, len(existing), item,
                                        text or f"Add to {_describe(path)}"))

    def remove_item(self, kind: str, path: tuple, index: int, text: str | None = None) -> None:
        self.undo_stack.push(RemoveItem(self, kind, path, index, text or f"Remove from {_describe(path)}"))

    # -- entity edits (variant aware) -------------------------------------------------------
    def set_field(self, kind: str, locator: Locator, field_path: tuple, value,
                  text: str | None = None) -> None:
        """Set a field of the entity `locator` names; in a variant, override what is inherited."""
        text = text or f"Set {'.'.join(map(str, field_path))} of {_show(locator[-1][1])}"
        own_path, rest = self._resolve(kind, locator)
        if rest is None:
            self.set_value(kind, own_path + tuple(field_path), value, text)
            return
        if value is MISSING:
            return  # an inherited field cannot be taken out by a variant, only overridden
        collection_path, override = rest
        override = _deep_update(override, field_path, value)
        self.append_item(kind, collection_path, override, text)

    def add_entity(self, kind: str, locator: Locator, collection: str, item: dict,
                   text: str | None = None) -> None:
        """Add an entity to `collection` (inside the entity `locator` names, or at the top)."""
        if locator:
            own_path, rest = self._resolve(kind, locator)
            if rest is not None:
                collection_path, override = rest
                override[collection] = [item]
                self.append_item(kind, collection_path, override, text)
                return
            self.append_item(kind, own_path + (collection,), item, text)
        else:
            self.append_item(kind, (collection,), item, text)

    def remove_entity(self, kind: str, locator: Locator, text: str | None = None) -> None:
        """Take an entity out: delete it from the own file, or mark an inherited one removed."""
        text = text or f"Remove {_show(locator[-1][1])}"
        own_path, rest = self._resolve(kind, locator)
        inherited = self._inherited(kind, locator)
        if rest is None:
            list_path, index = own_path[:-1], own_path[-1]
            if inherited:
                current = self._value_at(kind, own_path)
                self.set_value(kind, own_path, _identity_stub(current, remove=True), text)
            else:
                self.remove_item(kind, list_path, index, text)
            return
        collection_path, override = rest
        self.append_item(kind, collection_path, _mark_removed(override), text)

    def revert_field(self, kind: str, locator: Locator, field_path: tuple) -> bool:
        """Give a field overridden in a variant back to the parent's value (one undo step): the
        field leaves the override entry, and an entry left with nothing but its identity goes."""
        if self.parent_entity(kind, locator) is None:
            return False
        own_path, rest = self._resolve(kind, locator)
        if rest is not None:
            return False  # nothing of the variant's own to take back
        entry = copy.deepcopy(self._value_at(kind, own_path))
        if _remove_path(entry, field_path) is MISSING:
            return False
        text = f"Revert {'.'.join(map(str, field_path))} of {_show(locator[-1][1])} to inherited"
        if _only_identity(entry):
            self.remove_item(kind, own_path[:-1], own_path[-1], text)
        else:
            self.set_value(kind, own_path, entry, text)
        return True

    def revert_entity(self, kind: str, locator: Locator) -> bool:
        """Drop a variant's override (or removal) of an inherited entity: it is the parent's again."""
        if self.parent_entity(kind, locator) is None:
            return False
        own_path, rest = self._resolve(kind, locator)
        if rest is not None:
            return False
        self.remove_item(kind, own_path[:-1], own_path[-1], f"Revert {_show(locator[-1][1])} to inherited")
        return True

    def _inherited(self, kind: str, locator: Locator) -> bool:
        if self._parent_scenario is None:
            return False
        return _follow(self._parent_scenario.doc(kind), locator) is not None

    def _resolve(self, kind: str, locator: Locator):
        """(own path of the entity, None) if the own file has it; otherwise
        (own path of the list to append an override to, the override so far)."""
        data = self.own(kind)
        path: tuple = ()
        for depth, (collection, ident, nth) in enumerate(steps(locator)):
            items = data.get(collection) if isinstance(data, dict) else None
            index = _find_index(items, ident, nth)
            if index is None or items is None:
                return (), (path + (collection,), _override_for(self.merged(kind), locator, depth))
            path += (collection, index)
            data = items[index]
        return path, None

    def locator_of(self, kind: str, pointer: str) -> Locator:
        """The entity locator for a JSON pointer into the merged data (as far as it goes)."""
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
        value = self.merged(kind)
        locator = []
        position = 0
        while position + 1 < len(tokens) and isinstance(value, dict):
            items = value.get(tokens[position])
            if not isinstance(items, list) or not tokens[position + 1].isdigit():
                break
            index = int(tokens[position + 1])
            if index >= len(items) or identity(items[index]) is None:
                break
            locator.append(locator_step(tokens[position], items, index))
            value = items[index]
            position += 2
        return tuple(locator)

    # -- validation ------------------------------------------------------------------------
    def set_problems(self, diagnostics: list[Diagnostic]) -> None:
        """Remember the latest diagnostics by the value they are about, for views to mark."""
        found: dict[tuple[str, str], list[Diagnostic]] = {}
        for diagnostic in diagnostics:
            kind = self.kind_of_file(diagnostic.file)
            if kind is not None and diagnostic.pointer:
                found.setdefault((kind, diagnostic.pointer), []).append(diagnostic)
        self.problems = found
        self.problems_changed.emit()

    def snapshot(self) -> Snapshot:
        """A private copy of the data, cheap enough to take on the UI thread after each edit."""
        files = []
        problems = list(self.parent_problems)
        for kind, file in self.files.items():
            if file.problem is not None:
                problems.append(file.problem)
            if file.data is None or file.removed or (not file.exists and not file.data):
                files.append(FileSnapshot(kind, file.path, None, {}, {}, file.problem is not None))
                continue
            files.append(FileSnapshot(kind, file.path, self._frozen_copy(kind, file), file.origins,
                                      file.key_origins, disk_data=file.disk_data if file.edited else None))
        return Snapshot(self.root, files, self._parent_scenario, problems)

    def _frozen_copy(self, kind: str, file: ScenarioFile):
        """A copy of a file's data that nobody changes; reused until the file is edited again."""
        cached = self._copies.get(kind)
        if cached is None or cached[0] is not file or cached[1] != file.version:
            cached = (file, file.version, copy_data(file.data))
            self._copies[kind] = cached
        return cached[2]

    # -- saving ----------------------------------------------------------------------------
    def is_dirty(self) -> bool:
        """Unsaved edits. The automatic layout does not count: it is computed the same way
        (seeded) at every opening, and only written when the designer asks (store_layout)."""
        return not self.undo_stack.isClean()

    def _pending_layout(self) -> dict[str, list[float]]:
        placed = {s.get("id") for s in self.entities("map", "spaces") if s.get("position")}
        return {k: v for k, v in self.layout_positions.items() if k not in placed}

    def save(self, folder: Path | str | None = None, replace: bool = False) -> list[Path]:
        """Write every changed file (or all files, to a new folder). Returns the paths written.

        Only what the designer changed is written: the automatic layout stays in memory unless a
        space was moved or `store_layout` was asked for, and a variant's files hold only its own
        entries (an inherited value is never copied into them). A file left with nothing in it
        (every edit of a new file undone) is not written, and one this document wrote before is
        removed again.

        Saved into another folder, the scenario takes everything it uses along (its locales and
        the files its data names, such as the board image). A folder that holds another
        scenario is refused (TargetOccupied) unless `replace` says to replace it: that scenario's
        files are then written over or, where this scenario has none, removed.

        Every write stays inside the target folder (PathEscape, PATH001, otherwise), and a file
        that another program changed since it was read is not written over (ChangedOnDisk, before
        anything is written) unless the designer chose to keep this version (keep_mine)."""
        target = Path(folder) if folder is not None else self.root
        moving = target.resolve() != self.root.resolve()
        occupied = scenario_files_in(target) if moving else []
        if occupied and not replace:
            raise TargetOccupied(target, occupied)
        if not moving:
            self._check_unchanged_on_disk()
        if moving and self.is_variant:
            self._rebase_extends(target)
        written = []
        self._unwatch()
        try:
            for file in self.files.values():
                if file.data is None:
                    continue  # unreadable: leave it alone
                if _goes(file):
                    if file.exists and not moving:
                        remove_file(file.path, within=self.root)
                        file.disk_text = file.fingerprint = None
                        file.edited, file.created = False, False
                        written.append(file.path)
                    continue
                if not moving and not file.edited and file.exists:
                    continue
                path = target / file.path.relative_to(self.root)
                write_target(target, path)   # before making locales/: a link there may lead out
                path.parent.mkdir(parents=True, exist_ok=True)
                first = moving or not path.exists()
                text = save_yaml(path, file.data, file.header, original=file.disk_text, within=target,
                                 unchanged_since=ANY if moving else file.fingerprint)
                written.append(path)
                file.disk_text, file.edited, file.path, file.disk_data = text, False, path, None
                file.fingerprint = Fingerprint.of(text.encode("utf-8"))
                file.created = file.created or first
                file.origins, file.key_origins = _positions(path, text)
            if moving:
                written += self._copy_named_files(target)
                for stale in set(occupied) - set(written):
                    remove_file(stale, within=target)   # the replaced scenario's, not this one's
        finally:
            self.root = target
            self._watch()
        self.undo_stack.setClean()
        self.saved.emit()
        return written

    def _to_write(self) -> list[ScenarioFile]:
        """The files a save in place would remove, replace or create."""
        return [f for f in self.files.values() if f.data is not None and
                ((_goes(f) and f.exists) or (not _goes(f) and (f.edited or not f.exists)))]

    def _check_unchanged_on_disk(self) -> None:
        """Refuse the whole save, before anything is written, when a file it would replace or
        remove no longer holds what was read: another program saved it meanwhile."""
        for file in self._to_write():
            try:
                now = fingerprint(file.path)
            except OSError:
                continue   # the write itself will say what is wrong
            if now != file.fingerprint:
                raise ChangedOnDisk(file.path)

    def keep_mine(self, paths: list[Path] | None = None) -> list[Path]:
        """The designer keeps this version of files another program changed: the next save
        writes them over what is on disk now, even with nothing unsaved. Returns those files."""
        kept = []
        for file in self.files.values():
            if file.data is None or (paths is not None and file.path not in paths):
                continue
            try:
                now = fingerprint(file.path)
            except OSError:
                continue
            if now != file.fingerprint:
                file.fingerprint = now
                file.edited = True
                kept.append(file.path)
        return kept

    def _copy_named_files(self, target: Path) -> list[Path]:
        """Copy the files the scenario's data names (the board image ...) into `target`, at the
        same place relative to it. A path that leads out of the folder is not followed (PATH002
        says so)."""
        from validators.files import FILE_REFERENCES
        from validators.walk import find
        copied = []
        for kind, pattern in FILE_REFERENCES:
            for _pointer, value in find(self.own(kind), pattern):
                if not isinstance(value, str):
                    continue
                try:
                    source = inside(self.root, value)
                    destination = inside(target, value)
                except PathEscape:
                    continue
                if source.is_file() and source != destination:
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    atomic_write_bytes(destination, source.read_bytes(), within=target)
                    copied.append(destination)
        return copied

    def store_layout(self) -> int:
        """Write the automatic layout's positions into the map (one undo step): the designer asked
        to keep the map as it is drawn. Returns how many spaces were placed."""
        pending = self._pending_layout()
        if not pending:
            return 0
        self.undo_stack.beginMacro(f"Store the layout of {len(pending)} space(s)")
        for space_id, position in pending.items():
            self.set_field("map", (("spaces", ("id", space_id)),), ("position",),
                           [_coordinate(position[0]), _coordinate(position[1])])
        self.undo_stack.endMacro()
        return len(pending)

    def _rebase_extends(self, target: Path) -> None:
        parent = (self.root / self.own("scenario")["extends"]).resolve()
        relative = Path(os.path.relpath(parent, target.resolve())).as_posix()
        self.set_value("scenario", ("extends",), relative, "Point extends at the parent")

    # -- changes on disk -------------------------------------------------------------------
    def _watch(self) -> None:
        paths = [str(f.path) for f in self.files.values() if f.path.exists()]
        folders = [str(self.root)] + ([str(self.root / LOCALE_DIR)] if (self.root / LOCALE_DIR).is_dir() else [])
        for group in (paths, folders):
            fresh = [p for p in group if p not in self._watcher.files() + self._watcher.directories()]
            if fresh:
                self._watcher.addPaths(fresh)

    def _unwatch(self) -> None:
        watched = self._watcher.files() + self._watcher.directories()
        if watched:
            self._watcher.removePaths(watched)

    def _on_file_changed(self, name: str) -> None:
        self.check_disk()

    def _on_directory_changed(self, name: str) -> None:
        self.check_disk()

    def check_disk(self) -> list[Path]:
        """Files whose text on disk differs from what the editor last read or wrote."""
        stale = []
        for file in self.files.values():
            try:
                text = file.path.read_text(encoding="utf-8") if file.path.exists() else None
            except OSError:
                continue
            if text != file.disk_text and text != file.announced_text:
                stale.append(file.path)
                file.announced_text = text  # say it once per outside change
        self._watch()  # an atomic replace drops the old file from the watch list
        if stale:
            self.changed_on_disk.emit(stale)
        return stale


def _goes(file: ScenarioFile) -> bool:
    """A save removes the file: the designer removed it (a locale), or it was left with nothing in
    it and nobody else wrote it (a new file whose every edit was undone): no stub stays behind."""
    return file.removed or (not file.data and (file.created or not file.exists))


class TargetOccupied(Exception):
    """Save As into a folder that holds another scenario, without being told to replace it."""

    def __init__(self, folder: Path, files: list[Path]):
        self.folder, self.files = folder, files
        super().__init__(f"{folder} holds another scenario ({len(files)} scenario file(s))")


def scenario_files_in(folder: Path) -> list[Path]:
    """The scenario files a folder holds: scenario.yaml and the other files of a scenario, and its
    locales."""
    found = [folder / name for name in FILE_KINDS.values() if (folder / name).is_file()]
    locales = folder / LOCALE_DIR
    if locales.is_dir():
        found += [path for path in sorted(locales.glob("*.yaml")) if is_locale_tag(path.stem)]
    return found


def copy_data(value):
    """A deep copy of plain YAML data (mappings, lists, scalars), several times quicker than
    copy.deepcopy, which matters on the UI thread after every edit."""
    if isinstance(value, dict):
        return {key: copy_data(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_data(item) for item in value]
    return value


def _coordinate(value: float) -> int:
    return int(round(float(value)))


def _positions(path: Path, text: str):
    from sandtable.yamlsource import parse_yaml
    tracked = Tracked.from_source(parse_yaml(text, path))
    return tracked.origins, tracked.key_origins


def _find_index(items, ident, nth: int = 0) -> int | None:
    """The index of the `nth` entry (0: the first) with identity `ident`."""
    if not isinstance(items, list):
        return None
    for index, item in enumerate(items):
        if identity(item) == ident:
            if nth == 0:
                return index
            nth -= 1
    return None


def _find(items, ident, nth: int = 0):
    index = _find_index(items, ident, nth)
    return items[index] if index is not None else None


def _follow(value, locator: Locator):
    for collection, ident, nth in steps(locator):
        value = _find(value.get(collection) if isinstance(value, dict) else None, ident, nth)
        if value is None:
            return None
    return value


def occurrence(items: list, index: int) -> int:
    """How many entries before `index` share its identity (0 for the first of them)."""
    ident = identity(items[index])
    return sum(1 for item in items[:index] if identity(item) == ident) if ident is not None else 0


def locator_step(collection: str, items: list, index: int) -> tuple:
    """The locator step for items[index]: with its occurrence only when it is a duplicate."""
    nth = occurrence(items, index)
    ident = identity(items[index])
    return (collection, ident, nth) if nth else (collection, ident)


def _identity_stub(entity: dict, remove: bool = False) -> dict:
    """The keys an entity merges by, alone (the start of an override entry)."""
    kind, _ = identity(entity)
    stub = {kind: copy.deepcopy(entity[kind])}
    if remove:
        stub["remove"] = True
    return stub


def _override_for(merged: dict, locator: Locator, depth: int) -> dict:
    """An override entry for the inherited entity at locator[depth], nesting down to the last."""
    value = merged
    chain = []
    for collection, ident, nth in steps(locator):
        value = _find(value.get(collection) if isinstance(value, dict) else None, ident, nth)
        if value is None:
            raise KeyError(f"no {collection} entry {_show(ident)}")
        chain.append((collection, value))
    override = _identity_stub(chain[-1][1])
    # Wrap the innermost stub in stubs of the entities above it, up to locator[depth].
    for index in range(len(chain) - 1, depth, -1):
        outer = _identity_stub(chain[index - 1][1])
        outer[chain[index][0]] = [override]
        override = outer
    return override


def _innermost(override: dict) -> dict:
    for value in override.values():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            return _innermost(value[0])
    return override


def _deep_update(override: dict, field_path: tuple, value) -> dict:
    target = _innermost(override)
    for step in field_path[:-1]:
        target = target.setdefault(step, {})
    target[field_path[-1]] = value
    return override


def _remove_path(entry: dict, path: tuple):
    """Take the value at `path` out of `entry` (and mappings left empty by it); MISSING if absent."""
    holders = [entry]
    for step in path[:-1]:
        holder = holders[-1].get(step) if isinstance(holders[-1], dict) else None
        if not isinstance(holder, dict):
            return MISSING
        holders.append(holder)
    gone = holders[-1].pop(path[-1], MISSING) if isinstance(holders[-1], dict) else MISSING
    for depth in range(len(holders) - 1, 0, -1):
        if not holders[depth]:
            holders[depth - 1].pop(path[depth - 1], None)
    return gone


def _only_identity(entry: dict) -> bool:
    kind = identity(entry)
    return kind is not None and set(entry) <= {kind[0]}


def _mark_removed(override: dict) -> dict:
    _innermost(override)["remove"] = True
    return override


def _nest(path: tuple, value):
    for step in reversed(path):
        value = {step: value}
    return value


def _show(ident) -> str:
    """An identity ("id", "norway") or ("between", ("a", "b")) as people read it."""
    named = isinstance(ident, tuple) and len(ident) == 2 and ident[0] in ("id", "between", "space")
    value = ident[1] if named else ident
    return " / ".join(value) if isinstance(value, tuple) else str(value)


def _describe(path: tuple) -> str:
    return join_pointer("", path[0]) + "".join(join_pointer("", p) for p in path[1:]) if path else "/"
