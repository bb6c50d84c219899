"""Live validation: after each edit, the validators run on a copy of the data on a pool thread.

The UI thread only takes a snapshot (a deep copy, a few milliseconds) and, later, shows the
result. A run that finishes after a newer edit is dropped; while one runs, further edits only ask
for one more run when it ends, so a burst of edits costs at most two runs.
"""
from __future__ import annotations

import sys
import time

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from sandtable.diagnostics import Diagnostic, Location
from sandtable.merge import Tracked, identity, merge_tracked
from sandtable.scenario import Scenario
from sandtable.yamlsource import join_pointer

from .document import ScenarioDocument, Snapshot
from .eventloop import run_until

UI_SWITCH_INTERVAL = 0.001  # seconds a thread may hold the GIL while validators run


def build_scenario(snapshot: Snapshot) -> Scenario:
    """A Scenario as load_scenario would give for the snapshot's files (variants merged)."""
    scenario = Scenario(root=snapshot.root)
    scenario.diagnostics.extend(snapshot.problems)
    parent = snapshot.parent
    if parent is not None:
        scenario.lineage = [snapshot.root] + list(parent.lineage)
        scenario.sources.update(parent.sources)
        scenario.failed_kinds |= parent.failed_kinds
        scenario.diagnostics.extend(parent.diagnostics)
        scenario.documents.update(parent.documents)
    else:
        scenario.lineage = [snapshot.root]
    for file in snapshot.files:
        if file.failed:
            scenario.failed_kinds.add(file.kind)
        if file.data is None:
            continue
        if file.disk_data is not None or not file.origins:
            origins, key_origins = carried_origins(file.path, file.data, file.disk_data,
                                                   file.origins, file.key_origins)
        else:
            origins, key_origins = file.origins, file.key_origins
        own = Tracked(file.data, origins, key_origins)
        inherited = scenario.documents.get(file.kind)
        if inherited is None:
            scenario.documents[file.kind] = own
        else:
            scenario.documents[file.kind], problems = merge_tracked(inherited, own, file.kind)
            scenario.diagnostics.extend(problems)
    return scenario


def carried_origins(path, data, disk_data, origins: dict, key_origins: dict) -> tuple[dict, dict]:
    """Positions for a file edited since it was read, in the file as it is on disk.

    A value the edits left where it was (an entity found again by its identity, a key of a mapping
    found again) keeps its line; a new or moved value takes the line of the nearest container that
    is still there (a new objective: the `objectives:` line). So every diagnostic names a real line
    of the file, and a duplicate's "first at line" points at the original. Every value gets a
    position in this file, so that in a variant the merge never credits the parent with it; lists
    of plain values (a polygon's points) take their list's position.
    """
    found, found_keys = {}, {}
    work = [("", data, "" if disk_data is not None else None, disk_data, Location(path, 0, 0, ""))]
    while work:
        pointer, value, old_pointer, old, around = work.pop()
        here = origins.get(old_pointer) if old_pointer is not None else None
        source = here or around
        place = Location(path, source.line, source.column, pointer)
        found[pointer] = place
        if old_pointer is not None and old_pointer in key_origins:
            key = key_origins[old_pointer]
            found_keys[pointer] = Location(path, key.line, key.column, pointer)
        if isinstance(value, dict):
            for key, child in value.items():
                kept = old_pointer is not None and isinstance(old, dict) and key in old
                work.append((join_pointer(pointer, key), child,
                             join_pointer(old_pointer, key) if kept and old_pointer is not None else None,
                             old[key] if kept else None, place))
        elif isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value):
            matches = _same_items(value, old if old_pointer is not None and isinstance(old, list) else [])
            for index, child in enumerate(value):
                match = matches[index]
                before = None
                if match is not None and old_pointer is not None:
                    before = join_pointer(old_pointer, match)
                work.append((join_pointer(pointer, index), child, before,
                             old[match] if match is not None else None, place))
    return found, found_keys


def _same_items(items: list, before: list) -> list:
    """For each item, the index of the same item before the edits: by identity (and which
    occurrence of it) for entities; by position for anything else, when the length is the same."""
    if not before:
        return [None] * len(items)
    if all(identity(item) is None for item in items):
        return list(range(len(items))) if len(items) == len(before) else [None] * len(items)
    where: dict = {}
    for index, item in enumerate(before):
        where.setdefault(identity(item), []).append(index)
    seen: dict = {}
    matches = []
    for item in items:
        ident = identity(item)
        nth = seen.get(ident, 0)
        seen[ident] = nth + 1
        places = where.get(ident, []) if ident is not None else []
        matches.append(places[nth] if nth < len(places) else None)
    # An entity whose identity was edited (a border's ends) is still the one at its place.
    taken = set(matches)
    for index, match in enumerate(matches):
        if match is None and index < len(before) and index not in taken:
            matches[index] = index
            taken.add(index)
    return matches


def run_validators(snapshot: Snapshot) -> list[Diagnostic]:
    import validators
    return validators.validate(build_scenario(snapshot))


class _Signals(QObject):
    done = Signal(int, list, float)
    failed = Signal(int, str)


class _ValidationJob(QRunnable):
    def __init__(self, snapshot: Snapshot, generation: int, signals: _Signals):
        super().__init__()
        self.snapshot: Snapshot | None
        self.snapshot, self.generation, self.signals = snapshot, generation, signals

    def run(self) -> None:
        started = time.perf_counter()
        snapshot, self.snapshot = self.snapshot, None   # the pool may keep this wrapper: not the data
        if snapshot is None:
            return
        try:
            diagnostics = run_validators(snapshot)
        except Exception as failure:  # a bug in a check must not take the editor down
            self._report(self.signals.failed, self.generation, f"{type(failure).__name__}: {failure}")
            return
        self._report(self.signals.done, self.generation, diagnostics, time.perf_counter() - started)

    @staticmethod
    def _report(signal, *values) -> None:
        try:
            signal.emit(*values)
        except RuntimeError:
            pass  # the editor closed while this ran: nobody is listening any more


class LiveValidator(QObject):
    """Runs the validators after each change of the document, off the UI thread."""

    updated = Signal(list)   # the diagnostics of the latest data
    failed = Signal(str)     # the validators stopped with an error (a bug in a check)
    started = Signal()

    def __init__(self, document: ScenarioDocument, parent: QObject | None = None, delay_ms: int = 0):
        super().__init__(parent)
        self.document = document
        # The global pool outlives this object, so closing a scenario never waits on a run; a
        # run that ends after that reports to signals nobody listens to any more.
        self.pool = QThreadPool.globalInstance()
        self._signals = _Signals()
        self._signals.done.connect(self._finished)
        self._signals.failed.connect(self._failed)
        self._generation = 0
        self._running = False
        self._again = False
        self.last_duration = 0.0
        self._switch_interval = sys.getswitchinterval()
        self.diagnostics: list[Diagnostic] = []
        self._timer = QTimer(self, singleShot=True, interval=delay_ms)
        self._timer.timeout.connect(self._start)
        document.changed.connect(self.schedule)
        document.reloaded.connect(self.schedule)

    def schedule(self, *_args) -> None:
        self._generation += 1
        if self._running:
            self._again = True
        elif not self._timer.isActive():
            self._timer.start()

    def _start(self) -> None:
        if not self._running:
            # While the validators run, the UI thread needs the GIL for each Qt call into Python
            # (every item's paint); a short switch interval hands it over within a millisecond.
            self._switch_interval = sys.getswitchinterval()
            sys.setswitchinterval(min(self._switch_interval, UI_SWITCH_INTERVAL))
        self._running, self._again = True, False
        self.started.emit()
        self.pool.start(_ValidationJob(self.document.snapshot(), self._generation, self._signals))

    def _finished(self, generation: int, diagnostics: list | None, duration: float) -> None:
        self._running = False
        sys.setswitchinterval(self._switch_interval)
        self.last_duration = duration
        if generation == self._generation and diagnostics is not None:
            self.diagnostics = diagnostics
            self.updated.emit(diagnostics)
        if self._again or generation != self._generation:
            self._start()

    def _failed(self, generation: int, message: str) -> None:
        self._finished(generation, None, 0.0)
        if generation == self._generation:
            self.failed.emit(message)

    @property
    def busy(self) -> bool:
        return self._running or self._timer.isActive()

    def wait(self, timeout_ms: int = 10_000) -> bool:
        """Run the event loop until the latest data has been validated (for scripts and tests)."""
        return run_until(lambda: not self.busy, timeout_ms)
