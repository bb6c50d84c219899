"""What every table over the document shares: following the document without pulling the rug out
from under a view.

A model learns of a change through the document's `changed` signal, which often fires from inside
the model's own `setData` (the view is committing an editor). Resetting a model there tears down
the indexes and editors the view is still using, so a change of shape (rows added or removed)
that arrives during `setData` is applied from the event loop instead. A change of values only is
announced at once with `dataChanged`, which is always safe and keeps the model current.
"""
from __future__ import annotations

from contextlib import contextmanager

from PySide6.QtCore import QAbstractTableModel, Qt, QTimer, Signal


class DocumentTableModel(QAbstractTableModel):
    """Subclasses implement `collect()` -> (rows, columns) and `row_key(row)`; `refresh()` does the rest."""

    refused = Signal(str)    # an edit was not stored: why, in the validator's words
    noticed = Signal(str)    # an edit was stored, but something about it needs saying

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list = []
        self.columns: list = []
        self.last_error = ""
        self.refusals: dict[tuple[int, int], str] = {}   # cell -> why its last edit was refused
        self._committing = 0
        self._reset_pending = False

    def header_of(self, column: int) -> str:
        return str(self.headerData(column, Qt.Horizontal) or "")

    def refuse(self, index, message: str) -> bool:
        """Say why an edit of a cell was not stored: in its tooltip, and to whoever listens."""
        self.last_error = message
        self.refusals[(index.row(), index.column())] = message
        self.dataChanged.emit(index, index, [Qt.BackgroundRole, Qt.ToolTipRole])
        header = self.header_of(index.column())
        self.refused.emit(f"{header}: {message}" if header else message)
        return False

    def accepted(self, index) -> None:
        self.refusals.pop((index.row(), index.column()), None)

    # -- to implement -------------------------------------------------------------------------
    def collect(self) -> tuple[list, list]:
        raise NotImplementedError

    def row_key(self, row) -> object:
        """What makes a row the same row after a change (an entity's identity, say)."""
        return id(row)

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
        same_shape = (len(rows) == len(self.rows) and columns == self.columns
                      and [self.row_key(r) for r in rows] == [self.row_key(r) for r in self.rows])
        if same_shape:
            self.rows = rows
            if rows and self.columnCount():
                self.dataChanged.emit(self.index(0, 0),
                                      self.index(self.rowCount() - 1, self.columnCount() - 1))
            return
        if self._committing:
            if not self._reset_pending:
                self._reset_pending = True
                QTimer.singleShot(0, self, self._deferred_reset)
            return
        self._reset(rows, columns)

    def _deferred_reset(self) -> None:
        self._reset_pending = False
        rows, columns = self.collect()
        self._reset(rows, columns)

    def _reset(self, rows: list, columns: list) -> None:
        self.beginResetModel()
        self.rows, self.columns = rows, columns
        self.endResetModel()
