"""Source texts and one locale's translations side by side, filterable to what needs work."""
from __future__ import annotations

from PySide6.QtCore import QModelIndex
from PySide6.QtGui import QColor

from sandtable.i18n import State, translation_units
from sandtable.merge import Tracked
from sandtable.scenario import FILE_KINDS, Scenario, locale_kind
from sandtable.texts import fingerprint

from ..commands import MISSING
from ..document import ScenarioDocument
from ..roles import CHOOSABLE, DISPLAY, EDIT, EDITABLE, FOREGROUND, HORIZONTAL, NO_FLAGS
from .base import DocumentTableModel

STATUS_NAMES = {State.MISSING: "missing", State.STALE: "stale", State.TRANSLATED: "done"}
TO_DO = ("missing", "stale", "review")   # the states a translator still has work in

HEADERS = ("Key", "Source", "Translation", "Status")
KEY, SOURCE, TRANSLATION, STATUS = range(4)
FILTERS = ("all", "missing", "stale", "review", "to do")
_STATUS_COLOURS = {"missing": QColor("#b3261e"), "stale": QColor("#a86400"), "review": QColor("#6a3d9a")}


class TranslationModel(DocumentTableModel):
    """Rows are (key, source, entry, status, where): `where` is the Location of the source text
    (its file and JSON pointer)."""

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.tag: str | None = None
        self.filter = "all"
        # Listing every text of a scenario takes a while (a third of a second for AA50): a model
        # nobody looks at yet waits until it is woken.
        self.waiting = False
        document.changed.connect(self._changed)
        document.reloaded.connect(self.refresh)

    def set_locale(self, tag: str | None) -> None:
        self.tag = tag
        self.refresh()
        self.headerDataChanged.emit(HORIZONTAL, TRANSLATION, TRANSLATION)

    def set_filter(self, name: str) -> None:
        self.filter = name
        self.refresh()

    def _changed(self, kind: str) -> None:
        if kind in FILE_KINDS or (self.tag and kind == locale_kind(self.tag)):
            self.refresh()

    def _scenario(self) -> Scenario:
        scenario = Scenario(root=self.document.root)
        for kind in list(FILE_KINDS) + ([locale_kind(self.tag)] if self.tag else []):
            scenario.documents[kind] = Tracked(self.document.merged(kind))
        return scenario

    def wake(self) -> None:
        if self.waiting:
            self.waiting = False
            self.refresh()

    def collect(self) -> tuple[list, list]:
        rows = []
        if self.tag and not self.waiting:
            entries = self.document.merged(locale_kind(self.tag)).get("entries")
            entries = entries if isinstance(entries, dict) else {}
            for unit in translation_units(self._scenario(), self.tag):
                if unit.state is State.UNKNOWN:
                    continue  # not a text of the scenario: the problems dock reports it
                status = "review" if unit.needs_review and unit.state is State.TRANSLATED \
                    else STATUS_NAMES[unit.state]
                wanted = self.filter == "all" or status == self.filter or (self.filter == "to do" and status in TO_DO)
                if wanted:
                    entry = entries.get(unit.key) if isinstance(entries.get(unit.key), dict) else None
                    rows.append((unit.key, unit.source, entry, status, unit.where))
        return rows, list(HEADERS)

    def row_key(self, row) -> object:
        return row[0]

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=DISPLAY):
        if role == DISPLAY and orientation == HORIZONTAL and section < len(HEADERS):
            return HEADERS[section] if section != TRANSLATION or not self.tag else f"Translation ({self.tag})"
        return None

    def flags(self, index):
        if not index.isValid():
            return NO_FLAGS
        flags = CHOOSABLE
        return flags | EDITABLE if index.column() == TRANSLATION else flags

    def data(self, index, role=DISPLAY):
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        key, source, entry, status, _ = self.rows[index.row()]
        if role in (DISPLAY, EDIT):
            translation = entry.get("text", "") if entry else ""
            return (key, source, translation, status)[index.column()]
        if role == FOREGROUND and index.column() == STATUS:
            return _STATUS_COLOURS.get(status)
        return None

    def setData(self, index, value, role=EDIT) -> bool:
        if role != EDIT or index.column() != TRANSLATION or not self.tag:
            return False
        with self.committing():
            return self._set(index, value)

    def _set(self, index, value) -> bool:
        return self.translate(index.row(), str(value))

    def row_of_key(self, key: str) -> int:
        return next((number for number, row in enumerate(self.rows) if row[0] == key), -1)

    def set_review(self, row: int, on: bool) -> bool:
        """Mark a translation for review (fuzzy), or clear the mark (one undo step)."""
        key, _, entry, _, _ = self.rows[row]
        if entry is None or not self.tag or bool(entry.get("review")) == on:
            return False
        self.document.set_value(locale_kind(self.tag), ("entries", key, "review"), True if on else MISSING,
                                f"{'Mark' if on else 'Unmark'} {key} ({self.tag}) for review")
        return True

    def translate(self, row: int, value: str) -> bool:
        """Store the translation of a row's text (one undo step); an empty one takes it out.
        A translation edited is one reviewed: a mark for review goes with the edit."""
        key, source, entry, _, _ = self.rows[row]
        text = value.strip()
        if not self.tag:
            return False
        kind = locale_kind(self.tag)
        if not text:
            if entry is None:
                return False
            self.document.set_value(kind, ("entries", key), MISSING, f"Clear {self.tag} text of {key}")
            return True
        new = {"text": text, "source": fingerprint(source), "source_text": source}
        if entry is not None:
            new = {k: v for k, v in {**entry, **new}.items() if k != "review"}
        if new == entry:
            return False
        stack = self.document.undo_stack
        stack.beginMacro(f"Translate {key} ({self.tag})")
        if self.document.own(kind).get("locale") != self.tag:
            self.document.set_value(kind, ("locale",), self.tag)
        self.document.set_value(kind, ("entries", key), new)
        stack.endMacro()
        return True
