"""A results table as a grid: rows are the first axis's values, columns the second's.

Cells nest in axis order (`cells[row][column]`); a one-axis table is a single column. Deeper axes
show their nested cells as flow text, edited the same way.
"""
from __future__ import annotations

import copy
from collections.abc import Callable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from sandtable.merge import identity

from ..document import ScenarioDocument
from ..flowtext import parse_value, to_text


def axis_label(value) -> str:
    if isinstance(value, dict):
        return str(value.get("name") or value.get("id") or "")
    return to_text(value)


class TableGridModel(QAbstractTableModel):
    def __init__(self, document: ScenarioDocument, table_locator: Callable[[], tuple | None], parent=None):
        super().__init__(parent)
        self.document = document
        self.table_locator = table_locator
        self.table: dict = {}
        self.last_error = ""
        self.refresh()
        document.changed.connect(lambda kind: self.refresh() if kind == "tables" else None)
        document.reloaded.connect(self.refresh)

    def refresh(self) -> None:
        self.beginResetModel()
        self.table = {}
        locator = self.table_locator()
        if locator:
            (collection, ident), = locator
            self.table = next((t for t in self.document.entities("tables", collection)
                               if identity(t) == ident), {})
        self.endResetModel()

    def _axis(self, position: int) -> list:
        given = self.table.get("axes")
        axes = given if isinstance(given, list) else []
        if position < len(axes) and isinstance(axes[position], dict):
            values = axes[position].get("values")
            return values if isinstance(values, list) else []
        return []

    @property
    def two_dimensional(self) -> bool:
        axes = self.table.get("axes")
        return isinstance(axes, list) and len(axes) >= 2

    def _cells(self) -> list:
        cells = self.table.get("cells")
        return cells if isinstance(cells, list) else []

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._axis(0))

    def columnCount(self, parent=QModelIndex()) -> int:
        if parent.isValid() or not self.table:
            return 0
        return len(self._axis(1)) if self.two_dimensional else 1

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role != Qt.DisplayRole:
            return None
        if orientation == Qt.Vertical:
            values = self._axis(0)
            return axis_label(values[section]) if section < len(values) else None
        if self.two_dimensional:
            values = self._axis(1)
            return axis_label(values[section]) if section < len(values) else None
        return "Result"

    def flags(self, index):
        if not index.isValid():
            return Qt.NoItemFlags
        return Qt.ItemIsEnabled | Qt.ItemIsSelectable | Qt.ItemIsEditable

    def _cell(self, row: int, column: int):
        cells = self._cells()
        if row >= len(cells):
            return None
        if not self.two_dimensional:
            return cells[row]
        line = cells[row]
        return line[column] if isinstance(line, list) and column < len(line) else None

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        if role in (Qt.DisplayRole, Qt.EditRole):
            return to_text(self._cell(index.row(), index.column()))
        if role == Qt.TextAlignmentRole:
            return int(Qt.AlignCenter)
        return None

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:
        locator = self.table_locator()
        if role != Qt.ItemDataRole.EditRole or not index.isValid() or locator is None:
            return False
        try:
            parsed = parse_value(str(value))
        except ValueError as problem:
            self.last_error = str(problem)
            return False
        if parsed == self._cell(index.row(), index.column()):
            return False
        cells = copy.deepcopy(self._cells())
        rows, columns = self.rowCount(), self.columnCount()
        while len(cells) < rows:
            cells.append([None] * columns if self.two_dimensional else None)
        if self.two_dimensional:
            line = cells[index.row()] if isinstance(cells[index.row()], list) else []
            line += [None] * (columns - len(line))
            line[index.column()] = parsed
            cells[index.row()] = line
        else:
            cells[index.row()] = parsed
        self.document.set_field("tables", locator, ("cells",), cells,
                                f"Set cell {self.headerData(index.row(), Qt.Orientation.Vertical)}"
                                f" / {self.headerData(index.column(), Qt.Orientation.Horizontal)}")
        return True
