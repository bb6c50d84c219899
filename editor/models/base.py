"""What every table over the document shares: following the document without pulling the rug out
from under a view.

A model learns of a change through the document's `changed` signal, which often fires from inside
the model's own `setData` (a view committing an editor), or while an editor is open elsewhere in
the table. A reset there would tear down indexes and editors the view is still using. So a
change is told to views as the rows inserted and removed (computed by comparing row keys before
and after), which keeps every other row's index, and its open editor, valid; values are
announced with `dataChanged`. Only a change of columns resets the model, and one that arrives
during `setData` waits for the event loop.
"""
from __future__ import annotations

from contextlib import contextmanager
from difflib import SequenceMatcher

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QTimer, Signal
from PySide6.QtGui import QBrush, QColor

from ..roles import BACKGROUND, HORIZONTAL, TOOLTIP

ADD_ROW = ("+add",)   # the key of a table's add row, which is always last
PROBLEM_BACKGROUND = QColor("#fbd9d6")   # behind a cell with a problem or a refused edit


class DocumentTableModel(QAbstractTableModel):
    """Subclasses implement `collect()` -> (rows, columns) and `row_key(row)`; `refresh()` does the
    rest. A subclass that ends with an add row says so in `wants_add_row()`."""

    refused = Signal(str)    # an edit was not stored: why, in the validator's words
    noticed = Signal(str)    # an edit was stored, but something about it needs saying

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list = []
        self.columns: list = []
        self.add_row_shown = False
        self.last_error = ""
        self.refusals: dict[tuple[int, int], str] = {}   # cell -> why its last edit was refused
        self._committing = 0
        self._reset_pending = False

    # -- to implement -------------------------------------------------------------------------
    def collect(self) -> tuple[list, list]:
        raise NotImplementedError

    def row_key(self, row) -> object:
        """What makes a row the same row after a change (an entity's identity, say)."""
        return None

    def wants_add_row(self) -> bool:
        return False

    def chosen(self, row: int) -> object:
        """What the row stands for, to a pane that shows the chosen row (None: nothing)."""
        return self.row_key(self.rows[row]) if 0 <= row < len(self.rows) else None

    # -- refusals -----------------------------------------------------------------------------
    def header_of(self, column: int) -> str:
        return str(self.headerData(column, HORIZONTAL) or "")

    def refuse(self, index, message: str) -> bool:
        """Say why an edit of a cell was not stored: in its tooltip, and to whoever listens."""
        self.last_error = message
        self.refusals[(index.row(), index.column())] = message
        self.dataChanged.emit(index, index, [BACKGROUND, TOOLTIP])
        header = self.header_of(index.column())
        self.refused.emit(f"{header}: {message}" if header else message)
        return False

    def accepted(self, index) -> None:
        self.refusals.pop((index.row(), index.column()), None)

    def refusal_look(self, index, role):
        """A cell whose last edit was refused: the problem colour behind it and the reason in its
        tooltip. None for any other role, or a cell with no refusal."""
        refusal = self.refusals.get((index.row(), index.column()))
        if role == BACKGROUND and refusal:
            return QBrush(PROBLEM_BACKGROUND)
        if role == TOOLTIP and refusal:
            return refusal
        return None

    # -- following the document ------------------------------------------------------------------
    @contextmanager
    def committing(self):
        """Wrap the work of setData: a reset asked for meanwhile waits for the event loop."""
        self._committing += 1
        try:
            yield
        finally:
            self._committing -= 1

    def refresh(self) -> None:
        self.refusals.clear()
        rows, columns = self.collect()
        add_row = self.wants_add_row()
        if columns != self.columns:
            if self._committing:
                if not self._reset_pending:
                    self._reset_pending = True
                    QTimer.singleShot(0, self, self._deferred_reset)
                return
            self._reset(rows, columns, add_row)
            return
        self._move_rows(rows, add_row)
        self.rows, self.add_row_shown = rows, add_row
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))

    def _keyed(self, rows: list, add_row: bool) -> list:
        return [(self.row_key(row), row) for row in rows] + ([(ADD_ROW, None)] if add_row else [])

    def _move_rows(self, rows: list, add_row: bool) -> None:
        """Tell views which rows went and which came, from the last change back to the first."""
        before, after = self._keyed(self.rows, self.add_row_shown), self._keyed(rows, add_row)
        old_keys, new_keys = [k for k, _ in before], [k for k, _ in after]
        if old_keys == new_keys:
            return
        working = list(before)
        for tag, i1, i2, j1, j2 in reversed(SequenceMatcher(None, old_keys, new_keys, autojunk=False).get_opcodes()):
            if tag in ("delete", "replace"):
                self.beginRemoveRows(QModelIndex(), i1, i2 - 1)
                del working[i1:i2]
                self._adopt(working)
                self.endRemoveRows()
            if tag in ("insert", "replace"):
                self.beginInsertRows(QModelIndex(), i1, i1 + j2 - j1 - 1)
                working[i1:i1] = after[j1:j2]
                self._adopt(working)
                self.endInsertRows()

    def _adopt(self, keyed: list) -> None:
        self.rows = [row for key, row in keyed if key != ADD_ROW]
        self.add_row_shown = bool(keyed) and keyed[-1][0] == ADD_ROW

    def _deferred_reset(self) -> None:
        self._reset_pending = False
        rows, columns = self.collect()
        self._reset(rows, columns, self.wants_add_row())

    def _reset(self, rows: list, columns: list, add_row: bool) -> None:
        self.beginResetModel()
        self.rows, self.columns, self.add_row_shown = rows, columns, add_row
        self.endResetModel()
