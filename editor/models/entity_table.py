"""A table of entities (spaces, unit types, cards ...): one row per entity, one column per field.

Rows come from the document's merged data; an edit becomes `document.set_field` on the row's
entity, so it is undoable and, in a variant, lands in the variant's own file.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from sandtable.merge import identity
from sandtable.yamlsource import resolve_plain

from ..commands import MISSING
from ..document import ScenarioDocument

CHOICES_ROLE = Qt.ItemDataRole.UserRole + 1   # the values a column may take, for the combo-box delegate
LOCATOR_ROLE = Qt.ItemDataRole.UserRole + 2   # the row entity's locator


@dataclass
class Column:
    header: str
    path: tuple                      # the field inside the entity, e.g. ("stats", "attack")
    kind: str = "text"               # text | number | integer | bool | list | scalar | readonly
    choices: Callable[[], list[str]] | None = None
    required: bool = False           # cannot be emptied

    def show(self, value) -> str:
        if value is MISSING or value is None:
            return ""
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return str(value)

    def parse(self, text):
        """The value to store for what the user typed; MISSING to delete; ValueError if invalid."""
        if self.kind == "bool":
            return bool(text)
        if isinstance(text, str):
            text = text.strip()
        if text == "" or text is None:
            if self.required:
                raise ValueError(f"{self.header} cannot be empty")
            return MISSING
        if self.kind == "list":
            return [part.strip() for part in str(text).split(",") if part.strip()]
        if self.kind == "scalar":
            return resolve_plain(str(text))
        if self.kind in ("number", "integer"):
            value = resolve_plain(str(text)) if isinstance(text, str) else text
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{self.header} must be a number")
            if self.kind == "integer" and not float(value).is_integer():
                raise ValueError(f"{self.header} must be a whole number")
            return int(value) if float(value).is_integer() else value
        return str(text)


def dig(value, path: tuple):
    for step in path:
        if isinstance(value, dict) and step in value:
            value = value[step]
        else:
            return MISSING
    return value


class EntityTableModel(QAbstractTableModel):
    def __init__(self, document: ScenarioDocument, kind: str, collection: str,
                 columns: list[Column] | Callable[[], list[Column]],
                 parent_locator: Callable[[], tuple | None] | None = None, parent=None):
        super().__init__(parent)
        self.document, self.kind, self.collection = document, kind, collection
        self._columns_source = columns
        self.parent_locator = parent_locator or (lambda: ())
        self.columns: list[Column] = []
        self.rows: list[dict] = []
        self.last_error = ""
        self.refresh()
        document.changed.connect(self._changed)
        document.reloaded.connect(self.refresh)

    # -- data -------------------------------------------------------------------------------
    def _holder(self):
        locator = self.parent_locator()
        if locator is None:
            return None
        return self.document.find_merged(self.kind, locator)

    def refresh(self) -> None:
        """Follow the document. When the same entities are still there in the same order (a value
        changed), only announce changed data: a reset would make views measure every row again."""
        columns = self._columns_source() if callable(self._columns_source) else self._columns_source
        holder = self._holder()
        items = holder.get(self.collection) if isinstance(holder, dict) else None
        rows = [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []
        same_shape = (len(rows) == len(self.rows) and columns == self.columns
                      and [identity(r) for r in rows] == [identity(r) for r in self.rows])
        if same_shape:
            self.rows = rows
            if rows and columns:
                self.dataChanged.emit(self.index(0, 0), self.index(len(rows) - 1, len(columns) - 1))
            return
        self.beginResetModel()
        self.columns, self.rows = columns, rows
        self.endResetModel()

    def _changed(self, kind: str) -> None:
        if kind == self.kind or kind == "scenario":
            self.refresh()

    def locator(self, row: int) -> tuple:
        return tuple(self.parent_locator() or ()) + ((self.collection, identity(self.rows[row])),)

    def row_of(self, ident) -> int:
        for row, item in enumerate(self.rows):
            if identity(item) == ident:
                return row
        return -1

    # -- Qt model ---------------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role == Qt.DisplayRole and orientation == Qt.Horizontal and 0 <= section < len(self.columns):
            return self.columns[section].header
        if role == Qt.DisplayRole and orientation == Qt.Vertical:
            return section + 1
        return None

    def flags(self, index):
        if not index.isValid():
            return Qt.NoItemFlags
        column = self.columns[index.column()]
        flags = Qt.ItemIsEnabled | Qt.ItemIsSelectable
        if column.kind == "bool":
            return flags | Qt.ItemIsUserCheckable
        if column.kind != "readonly" and identity(self.rows[index.row()]) is not None:
            flags |= Qt.ItemIsEditable
        return flags

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        column = self.columns[index.column()]
        value = dig(self.rows[index.row()], column.path)
        if role == Qt.CheckStateRole and column.kind == "bool":
            return Qt.Checked if value is True else Qt.Unchecked
        if role == Qt.DisplayRole and column.kind != "bool":
            return column.show(value)
        if role == Qt.EditRole:
            return column.show(value)
        if role == CHOICES_ROLE and column.choices is not None:
            return column.choices()
        if role == LOCATOR_ROLE:
            return self.locator(index.row())
        if role == Qt.TextAlignmentRole and column.kind in ("number", "integer"):
            return int(Qt.AlignRight | Qt.AlignVCenter)
        return None

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:
        editable = Qt.ItemFlag.ItemIsEditable | Qt.ItemFlag.ItemIsUserCheckable
        if not index.isValid() or not (self.flags(index) & editable):
            return False
        column = self.columns[index.column()]
        if role == Qt.ItemDataRole.CheckStateRole and column.kind == "bool":
            value = Qt.CheckState(value) == Qt.CheckState.Checked if not isinstance(value, bool) else value
        elif role != Qt.ItemDataRole.EditRole:
            return False
        try:
            parsed = column.parse(value)
        except ValueError as problem:
            self.last_error = str(problem)
            return False
        current = dig(self.rows[index.row()], column.path)
        if parsed == current or (parsed is MISSING and current is MISSING):
            return False
        self.document.set_field(self.kind, self.locator(index.row()), column.path, parsed,
                                f"Set {column.header.lower()} of {_name(self.rows[index.row()])}")
        return True


def _name(entity: dict) -> str:
    key = identity(entity)
    if key is None:
        return "entry"
    return " – ".join(key[1]) if isinstance(key[1], tuple) else key[1]
