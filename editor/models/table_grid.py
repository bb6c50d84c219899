"""A results table as a grid: rows are the first axis's values, columns the second's.

Cells nest in axis order (`cells[row][column]`); a one-axis table is a single column. Deeper axes
show their nested cells as flow text, edited the same way.
"""
from __future__ import annotations

import copy
from collections.abc import Callable

from PySide6.QtCore import QModelIndex

from ..document import ScenarioDocument
from ..flowtext import parse_value, to_text
from ..ids import slug, unique_id
from ..roles import (
    ALIGNMENT,
    CENTRED,
    CHOOSABLE,
    DISPLAY,
    EDIT,
    EDITABLE,
    HORIZONTAL,
    NO_FLAGS,
    VERTICAL,
)
from .base import DocumentTableModel


def axis_label(value) -> str:
    if isinstance(value, dict):
        return str(value.get("name") or value.get("id") or "")
    return to_text(value)


class TableGridModel(DocumentTableModel):
    def __init__(self, document: ScenarioDocument, table_locator: Callable[[], tuple | None], parent=None):
        super().__init__(parent)
        self.document = document
        self.table_locator = table_locator
        self.table: dict = {}
        self.refresh()
        document.changed.connect(lambda kind: self.refresh() if kind == "tables" else None)
        document.reloaded.connect(self.refresh)

    def collect(self) -> tuple[list, list]:
        locator = self.table_locator()
        self.table = (self.document.find_merged("tables", locator) or {}) if locator else {}
        rows = [axis_label(v) for v in self._axis(0)]
        columns = ([axis_label(v) for v in self._axis(1)] if self.two_dimensional
                   else (["Result"] if self.table else []))
        return rows, columns

    def row_key(self, row) -> object:
        return row

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
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=DISPLAY):
        if role != DISPLAY:
            return None
        labels = self.rows if orientation == VERTICAL else self.columns
        return labels[section] if 0 <= section < len(labels) else None

    def flags(self, index):
        if not index.isValid():
            return NO_FLAGS
        return CHOOSABLE | EDITABLE

    def _cell(self, row: int, column: int):
        cells = self._cells()
        if row >= len(cells):
            return None
        if not self.two_dimensional:
            return cells[row]
        line = cells[row]
        return line[column] if isinstance(line, list) and column < len(line) else None

    def data(self, index, role=DISPLAY):
        if not index.isValid():
            return None
        if role in (DISPLAY, EDIT):
            return to_text(self._cell(index.row(), index.column()))
        if role == ALIGNMENT:
            return CENTRED
        return self.refusal_look(index, role)

    def setData(self, index, value, role=EDIT) -> bool:
        if role != EDIT or not index.isValid():
            return False
        with self.committing():
            try:
                parsed = parse_value(str(value))
            except ValueError as problem:
                return self.refuse(index, str(problem))
            if parsed == self._cell(index.row(), index.column()):
                return False
            locator = self.table_locator()
            if not locator:
                return False
            self.accepted(index)
            cells = self._full_cells()
            if self.two_dimensional:
                cells[index.row()][index.column()] = parsed
            else:
                cells[index.row()] = parsed
            self.document.set_field("tables", locator, ("cells",), cells,
                                    f"Set cell {self.headerData(index.row(), VERTICAL)}"
                                    f" / {self.headerData(index.column(), HORIZONTAL)}")
            return True

    def _full_cells(self) -> list:
        """A copy of the cells, padded to the axes' sizes with empty cells."""
        cells = copy.deepcopy(self._cells())
        rows, columns = len(self._axis(0)), len(self._axis(1))
        while len(cells) < rows:
            cells.append([None] * columns if self.two_dimensional else None)
        if self.two_dimensional:
            lines = [line if isinstance(line, list) else [] for line in cells]
            cells = [line + [None] * (columns - len(line)) for line in lines]
        return cells

    # -- rows and columns: the axes' values, with their cells; each change one undo step ------
    def _new_value(self, axis: int, label: str):
        """An axis value for `label`, written as the axis writes its others (plain or {id, name})."""
        values = self._axis(axis)
        if values and all(isinstance(v, dict) for v in values):
            taken = {v.get("id") for v in values}
            return {"id": unique_id(slug(label) or "value", taken), "name": label}
        return parse_value(label)

    def _store(self, axes: list, cells: list, text: str) -> None:
        locator = self.table_locator()
        if not locator:
            return
        stack = self.document.undo_stack
        stack.beginMacro(text)
        self.document.set_field("tables", locator, ("axes",), axes)
        self.document.set_field("tables", locator, ("cells",), cells)
        stack.endMacro()

    def add_row(self, label: str) -> bool:
        if not self.table or not label.strip():
            return False
        axes = copy.deepcopy(self.table["axes"])
        axes[0]["values"].append(self._new_value(0, label.strip()))
        cells = self._full_cells()
        cells.append([None] * len(self._axis(1)) if self.two_dimensional else None)
        self._store(axes, cells, f"Add row {label.strip()}")
        return True

    def remove_row(self, row: int) -> bool:
        if not 0 <= row < len(self.rows) or len(self.rows) < 2:
            return False  # a table keeps at least one row (the schema asks for one)
        axes = copy.deepcopy(self.table["axes"])
        axes[0]["values"].pop(row)
        cells = self._full_cells()
        cells.pop(row)
        self._store(axes, cells, f"Remove row {self.rows[row]}")
        return True

    def add_column(self, label: str) -> bool:
        if not self.two_dimensional or not label.strip():
            return False
        axes = copy.deepcopy(self.table["axes"])
        axes[1]["values"].append(self._new_value(1, label.strip()))
        cells = [line + [None] for line in self._full_cells()]
        self._store(axes, cells, f"Add column {label.strip()}")
        return True

    def remove_column(self, column: int) -> bool:
        if not self.two_dimensional or not 0 <= column < len(self.columns) or len(self.columns) < 2:
            return False
        axes = copy.deepcopy(self.table["axes"])
        axes[1]["values"].pop(column)
        cells = self._full_cells()
        for line in cells:
            line.pop(column)
        self._store(axes, cells, f"Remove column {self.columns[column]}")
        return True
