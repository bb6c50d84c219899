"""A variant's changes against its parent, as a table (see editor/variant_changes.py)."""
from __future__ import annotations

from PySide6.QtCore import QModelIndex

from ..commands import MISSING
from ..document import ScenarioDocument
from ..flowtext import to_text
from ..roles import CHOOSABLE, DISPLAY, HORIZONTAL, NO_FLAGS, TOOLTIP
from ..variant_changes import variant_changes
from .base import DocumentTableModel

HEADERS = ("File", "Entity", "Field", "Parent's value", "Variant's value", "Change")


def _value(value) -> str:
    return "" if value is MISSING else to_text(value)


class ChangesModel(DocumentTableModel):
    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.refresh()
        document.changed.connect(lambda _kind: self.refresh())
        document.reloaded.connect(self.refresh)

    def collect(self) -> tuple[list, list]:
        return variant_changes(self.document), list(HEADERS)

    def row_key(self, row) -> object:
        return row.kind, row.locator, row.field

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=DISPLAY):
        if role == DISPLAY and orientation == HORIZONTAL and 0 <= section < len(self.columns):
            return self.columns[section]
        return None

    def flags(self, index):
        return CHOOSABLE if index.isValid() else NO_FLAGS

    def data(self, index, role=DISPLAY):
        if not index.isValid() or index.row() >= len(self.rows) or role not in (DISPLAY, TOOLTIP):
            return None
        change = self.rows[index.row()]
        cells = (self.document.files[change.kind].path.name if change.kind in self.document.files else change.kind,
                 change.entity, change.place, _value(change.parent), _value(change.value), change.what)
        return cells[index.column()]
