"""A table as the editor shows every table: a filter box, its own cell editors, add and remove.

`TableView` puts a filter proxy between the model and the view and gives the view a delegate of
its own. Callers speak in the model's rows (`current_row`, `select_row`); the proxy's are
private.

A view is often the master of a detail pane (objectives and their condition, decks and their
cards, the inspector ...). The detail follows `chosen`, which the view emits whenever the entity of
its current row changes: by a click, a key, or rows coming and going. It is read from the current
index, which a mouse press moves before the selection (reading the selection inside
currentRowChanged gives the row chosen before), and the selection always follows the current row,
so the detail is always the highlighted row's.

`TablePage` adds the filter box, the buttons, and a context menu (remove the row, revert an
overridden value to the inherited one).
"""
from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMenu,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from .delegates import ChoiceDelegate
from .models.entity_table import STATUS_ROLE, EntityTableModel

SIZE_SAMPLE = 30  # rows measured to size a column: enough to fit, cheap on a 200-space map


class RowFilter(QSortFilterProxyModel):
    """Rows whose text contains the filter (any column, any case); a table's add row always shows."""

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        model = self.sourceModel()
        if isinstance(model, EntityTableModel) and model.is_add_row(source_row):
            return True
        return super().filterAcceptsRow(source_row, source_parent)


class TableView(QTableView):
    chosen = Signal(object)   # what the current row stands for (model.chosen(row)); None for no row

    def __init__(self, model, parent=None):
        super().__init__(parent)
        self.source = model
        self.proxy = RowFilter(self)
        self.proxy.setSourceModel(model)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setFilterKeyColumn(-1)
        # Rows are filtered when the filter changes, not when a value does: a row edited so that
        # it no longer matches stays put, rather than vanish with its editor while committing.
        self.proxy.setDynamicSortFilter(False)
        self.setModel(self.proxy)
        self.setItemDelegate(ChoiceDelegate(self))
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(True)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
                             | QAbstractItemView.EditTrigger.AnyKeyPressed)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setResizeContentsPrecision(SIZE_SAMPLE)
        header.setStretchLastSection(True)
        self.verticalHeader().setDefaultSectionSize(22)
        self._fitted = False
        model.modelReset.connect(self._fit_columns_once)
        self._fit_columns_once()
        self.chosen_value: object = None
        self._before_reset: object = None
        self._rows_moving = False
        self.selectionModel().currentRowChanged.connect(lambda *_: self._follow_current())
        # Qt moves the current row while rows are still being removed, when the model's rows and
        # the proxy's disagree: the chosen entity is read once they are done.
        for signal in (self.proxy.rowsAboutToBeInserted, self.proxy.rowsAboutToBeRemoved,
                       self.proxy.layoutAboutToBeChanged):
            signal.connect(lambda *_: setattr(self, "_rows_moving", True))
        for signal in (self.proxy.rowsInserted, self.proxy.rowsRemoved, self.proxy.layoutChanged):
            signal.connect(lambda *_: self._rows_moved())
        self.proxy.modelAboutToBeReset.connect(self._remember_chosen)
        self.proxy.modelReset.connect(self._choose_again)
        self._to_choose: object = None
        if isinstance(model, EntityTableModel):
            model.added.connect(self._added)

    def _fit_columns_once(self) -> None:
        if self.source.rowCount() and not self._fitted:
            self.resizeColumnsToContents()
            self._fitted = True

    def keep_layout(self) -> None:
        """Columns sized by the caller: never fit them to the contents."""
        self._fitted = True

    # -- rows in the model's terms -----------------------------------------------------------
    def to_source(self, index: QModelIndex) -> QModelIndex:
        return self.proxy.mapToSource(index) if index.isValid() else QModelIndex()

    def current_row(self) -> int:
        """The model's row of the current (highlighted) line, -1 when none."""
        index = self.currentIndex()
        return self.to_source(index).row() if index.isValid() else -1

    # -- the chosen row, for a detail pane -----------------------------------------------------
    def _chosen_of(self, row: int) -> object:
        chosen = getattr(self.source, "chosen", None)
        return chosen(row) if chosen is not None and row >= 0 else None

    def _rows_moved(self) -> None:
        self._rows_moving = False
        self._follow_current()

    def _follow_current(self) -> None:
        if self._rows_moving:
            return
        value = self._chosen_of(self.current_row())
        if value != self.chosen_value:
            self.chosen_value = value
            self.chosen.emit(value)

    def _remember_chosen(self) -> None:
        self._before_reset = self.chosen_value

    def _choose_again(self) -> None:
        """After a reset (the columns changed), the same entity is chosen again if it is still there."""
        before, self._before_reset = self._before_reset, None
        row = self._row_of_chosen(before)
        if row < 0 or not self.select_row(row):
            self._follow_current()

    @property
    def chosen_locator(self) -> tuple | None:
        """The chosen entity's locator, for a view of an entity table (None: no entity row)."""
        return self.chosen_value if isinstance(self.chosen_value, tuple) else None

    def _added(self, locator) -> None:
        """A new entity becomes the chosen row. Added from the add row's editor, it is chosen once
        that editor is closed: moving the current row while the view commits the editor would
        commit and close it a second time."""
        if self.state() == QAbstractItemView.State.EditingState:
            self._to_choose = locator
        else:
            self.choose(locator)

    def closeEditor(self, editor, hint) -> None:
        super().closeEditor(editor, hint)
        locator, self._to_choose = self._to_choose, None
        if locator is not None:
            self.choose(locator)

    def choose(self, value) -> bool:
        """Make the row that stands for `value` (an entity's locator) the current one."""
        row = self._row_of_chosen(value)
        return row >= 0 and self.select_row(row)

    def _row_of_chosen(self, value) -> int:
        if value is None:
            return -1
        for row in range(self.source.rowCount()):
            if self._chosen_of(row) == value:
                return row
        return -1

    def selectionCommand(self, index, event=None):
        """The selection follows the current row: a Ctrl+click on the chosen row does not leave
        it current but unhighlighted (what a detail pane shows is always highlighted)."""
        command = super().selectionCommand(index, event)
        if index.isValid() and command & QItemSelectionModel.SelectionFlag.Deselect:
            rows = self.selectionBehavior() == QAbstractItemView.SelectionBehavior.SelectRows
            return (QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | (QItemSelectionModel.SelectionFlag.Rows if rows else QItemSelectionModel.SelectionFlag.NoUpdate))
        return command

    def select_row(self, row: int, column: int = 0) -> bool:
        index = self.proxy.mapFromSource(self.source.index(row, column))
        if not index.isValid():
            return False
        self.setCurrentIndex(index)
        self.selectRow(index.row())
        self.scrollTo(index)
        return True

    def set_filter(self, text: str) -> None:
        self.proxy.setFilterFixedString(text)

    def edit_add_row(self) -> bool:
        """Open the add row's name cell for typing."""
        model = self.source
        if not isinstance(model, EntityTableModel) or not model.has_add_row:
            return False
        row = len(model.rows)
        column = model._name_column()
        if not self.select_row(row, column):
            return False
        self.edit(self.proxy.mapFromSource(model.index(row, column)))
        return True


class TablePage(QWidget):
    """A table with a filter box above it and, for entity tables, Add and Remove."""

    def __init__(self, model, extra_buttons: list[QWidget] | None = None, parent=None,
                 removable: bool = True):
        super().__init__(parent)
        self.model = model
        self.view = TableView(model)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter")
        self.filter.setClearButtonEnabled(True)
        self.filter.setMaximumWidth(260)
        self.filter.textChanged.connect(self.view.set_filter)
        row = QHBoxLayout()
        row.addWidget(self.filter)
        entity_table = isinstance(model, EntityTableModel)
        if entity_table and model.new_entity is not None:
            self.add_button = QPushButton(f"Add {model.noun}")
            self.add_button.clicked.connect(self.view.edit_add_row)
            row.addWidget(self.add_button)
        for widget in extra_buttons or []:
            row.addWidget(widget)
        if entity_table and removable:
            self.remove_button = QPushButton("Remove selected")
            self.remove_button.clicked.connect(self.remove_selected)
            row.addWidget(self.remove_button)
        row.addStretch()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.view)
        if entity_table or hasattr(model, "revert_value"):
            self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            self.view.customContextMenuRequested.connect(self._context_menu)

    def remove_selected(self) -> bool:
        """Remove the entity of the chosen row (that very one, even if another shares its id)."""
        return self.remove_row(self.view.current_row())

    def remove_row(self, row: int) -> bool:
        """Remove a row's entity, once the designer agrees when others refer to it (removal.py)."""
        if not 0 <= row < len(self.model.rows):
            return False
        from .removal import confirm_removal
        if isinstance(self.model, EntityTableModel) and not confirm_removal(
                self, self.model.document, self.model.kind, self.model.collection,
                [self.model.rows[row].get("id")]):
            return False
        return self.model.remove(row)

    def _context_menu(self, point) -> None:
        menu = self.context_menu(self.view.indexAt(point))
        if menu is not None and not menu.isEmpty():
            menu.aboutToHide.connect(menu.deleteLater)   # shown without a loop of its own
            menu.popup(self.view.viewport().mapToGlobal(point))

    def context_menu(self, view_index) -> QMenu | None:
        """What can be done to the cell: revert an overridden value, remove the entry."""
        index = self.view.to_source(view_index)
        if not index.isValid() or index.row() >= len(self.model.rows):
            return None
        menu = QMenu(self)
        if index.data(STATUS_ROLE) == "overridden":
            revert = QAction("Revert to inherited", menu)
            revert.triggered.connect(lambda: self.model.revert_value(index))
            menu.addAction(revert)
        if isinstance(self.model, EntityTableModel):
            remove = QAction(f"Remove this {self.model.noun}", menu)
            remove.triggered.connect(lambda: self.remove_row(index.row()))
            menu.addAction(remove)
        return menu
