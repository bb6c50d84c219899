"""The editing pages that are more than one table: setup, objectives, decks, tables, translations."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from sandtable.scenario import LOCALE_TAG

from .condition_builder import ConditionBuilder
from .document import ScenarioDocument
from .models import collections as tables
from .models.collections import ids, owners
from .models.effects import EffectsModel, profile_effect_ops
from .models.setup_table import SetupModel
from .models.table_grid import TableGridModel
from .models.translations import FILTERS, TranslationModel

SIZE_SAMPLE = 30  # rows measured to size a column: enough to fit, cheap on a 200-space map


def table_view(model, delegate=None) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setAlternatingRowColors(True)
    view.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
                         | QAbstractItemView.EditTrigger.AnyKeyPressed)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.horizontalHeader().setResizeContentsPrecision(SIZE_SAMPLE)
    view.horizontalHeader().setStretchLastSection(True)
    view.verticalHeader().setDefaultSectionSize(22)
    if delegate is not None:
        view.setItemDelegate(delegate)
    def fit_columns_once() -> None:
        if model.rowCount() and not view.property("fitted"):
            view.resizeColumnsToContents()
            view.setProperty("fitted", True)
    model.modelReset.connect(fit_columns_once)
    fit_columns_once()
    return view


def _selected_row(view: QTableView) -> int:
    rows = view.selectionModel().selectedRows() if view.selectionModel() else []
    return rows[0].row() if rows else view.currentIndex().row()


def _buttons(*pairs) -> QHBoxLayout:
    row = QHBoxLayout()
    for widget in pairs:
        row.addWidget(widget)
    row.addStretch()
    return row


def _button(text: str, slot) -> QPushButton:
    button = QPushButton(text)
    button.clicked.connect(slot)
    return button


class SetupPanel(QWidget):
    """Units per space and owner; add a stack by space, unit and count."""

    def __init__(self, document: ScenarioDocument, delegate=None, parent=None):
        super().__init__(parent)
        self.document = document
        self.model = SetupModel(document, self)
        self.view = table_view(self.model, delegate)
        self.space = QComboBox()
        self.unit = QComboBox()
        self.owner = QComboBox()
        self.count = QSpinBox()
        self.count.setRange(1, 999)
        self._fill_choices()
        document.changed.connect(lambda kind: self._fill_choices() if kind in ("map", "units", "scenario") else None)
        layout = QVBoxLayout(self)
        layout.addLayout(_buttons(QLabel("Add"), self.count, self.unit, QLabel("of"), self.owner,
                                  QLabel("to"), self.space, _button("Add", self.add),
                                  _button("Remove selected", self.remove)))
        layout.addWidget(self.view)

    def _fill_choices(self) -> None:
        for combo, values in ((self.space, ids(self.document, "map", "spaces")),
                              (self.unit, ids(self.document, "units", "unit_types")),
                              (self.owner, ["(space's controller)"] + owners(self.document))):
            current = combo.currentText()
            combo.clear()
            combo.addItems(values)
            if current in values:
                combo.setCurrentText(current)

    def add(self) -> None:
        owner = self.owner.currentText() if self.owner.currentIndex() > 0 else None
        if self.space.currentText() and self.unit.currentText():
            self.model.add_stack(self.space.currentText(), self.unit.currentText(), self.count.value(), owner)

    def remove(self) -> None:
        row = _selected_row(self.view)
        if row >= 0:
            self.model.remove_row(row)

    def select_space(self, space: str) -> None:
        for row, (entry, _) in enumerate(self.model.rows):
            if entry.get("space") == space:
                self.view.selectRow(row)
                return


class ObjectivesPanel(QWidget):
    """Objectives in a table; the chosen one's condition in the builder below."""

    def __init__(self, document: ScenarioDocument, delegate=None, parent=None):
        super().__init__(parent)
        self.document = document
        self.model = tables.objectives_model(document, self)
        self.view = table_view(self.model, delegate)
        self.builder = ConditionBuilder(self._apply_condition, self._suggest)
        self.view.selectionModel().currentRowChanged.connect(lambda *_: self._show_condition())
        self.model.modelReset.connect(self._reselect)
        self.model.dataChanged.connect(lambda *_: self._reselect())
        self._current: tuple | None = None
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.view)
        splitter.addWidget(self.builder)
        self.new_id = QLineEdit()
        self.new_id.setPlaceholderText("new objective id")
        layout = QVBoxLayout(self)
        layout.addLayout(_buttons(self.new_id, _button("Add objective", self.add),
                                  _button("Remove selected", self.remove)))
        layout.addWidget(splitter)

    def _suggest(self, name: str) -> list[str]:
        if name in ("space", "spaces"):
            return ids(self.document, "map", "spaces")
        if name in ("owner", "with", "nation"):
            return owners(self.document)
        if name == "side":
            return ids(self.document, "scenario", "sides")
        if name in ("types", "type", "unit"):
            return ids(self.document, "units", "unit_types")
        collections = {"option": "options", "resource": "resources", "phase": "phases"}
        return ids(self.document, "scenario", collections[name]) if name in collections else []

    def current_locator(self):
        row = self.view.currentIndex().row()
        return self.model.locator(row) if 0 <= row < len(self.model.rows) else None

    def _show_condition(self) -> None:
        row = self.view.currentIndex().row()
        self._current = self.model.locator(row) if 0 <= row < len(self.model.rows) else None
        self.builder.set_condition(self.model.rows[row].get("when") if self._current else None)

    def _reselect(self) -> None:
        if self._current is not None:
            self.select(self._current[-1][1])

    def _apply_condition(self, condition) -> None:
        from .commands import MISSING
        locator = self.current_locator()
        if locator:
            self.document.set_field("objectives", locator, ("when",),
                                    condition if condition is not None else MISSING, "Edit condition")

    def select(self, ident) -> None:
        row = self.model.row_of(ident)
        if row >= 0:
            self.view.setCurrentIndex(self.model.index(row, 0))
            self.view.selectRow(row)
            self._show_condition()

    def add(self) -> None:
        identifier = self.new_id.text().strip()
        people = owners(self.document)
        if not identifier or not people:
            return
        # Only what identifies it: the problems dock asks for the award and the condition, which
        # the table and the condition builder below then fill in.
        self.document.add_entity("objectives", (), "objectives", {
            "id": identifier, "name": identifier.replace("-", " ").capitalize(), "owner": people[0]},
            f"Add objective {identifier}")
        self.new_id.clear()
        self.select(("id", identifier))

    def remove(self) -> None:
        locator = self.current_locator()
        if locator:
            self._current = None
            self.document.remove_entity("objectives", locator)


class DecksPanel(QWidget):
    """Decks; the chosen deck's cards; the chosen card's effects."""

    def __init__(self, document: ScenarioDocument, delegate=None, parent=None):
        super().__init__(parent)
        self.document = document
        self.decks = tables.decks_model(document, self)
        self.deck_view = table_view(self.decks, delegate)
        self._deck: tuple | None = None
        self._card: tuple | None = None
        self.cards = tables.cards_model(document, lambda: self._deck, self)
        self.card_view = table_view(self.cards, delegate)
        self.effects = EffectsModel(document, lambda: self._card, self)
        self.effect_view = table_view(self.effects, delegate)
        self.deck_view.selectionModel().currentRowChanged.connect(lambda *_: self._deck_chosen())
        self.card_view.selectionModel().currentRowChanged.connect(lambda *_: self._card_chosen())
        self.new_card = QLineEdit()
        self.new_card.setPlaceholderText("new card id")
        self.new_op = QComboBox()
        self.new_op.setEditable(True)
        splitter = QSplitter(Qt.Orientation.Vertical)
        for title, view, extra in (("Decks", self.deck_view, None),
                                   ("Cards of the chosen deck", self.card_view,
                                    _buttons(self.new_card, _button("Add card", self.add_card),
                                             _button("Remove card", self.remove_card))),
                                   ("Effects of the chosen card", self.effect_view,
                                    _buttons(self.new_op, _button("Add effect", self.add_effect),
                                             _button("Remove effect", self.remove_effect)))):
            box = QWidget()
            column = QVBoxLayout(box)
            column.setContentsMargins(0, 0, 0, 0)
            column.addWidget(QLabel(f"<b>{title}</b>"))
            if extra is not None:
                column.addLayout(extra)
            column.addWidget(view)
            splitter.addWidget(box)
        QVBoxLayout(self).addWidget(splitter)
        self._fill_ops()

    def _fill_ops(self) -> None:
        self.new_op.clear()
        self.new_op.addItems(profile_effect_ops(self.document.merged("scenario").get("system")))

    def _deck_chosen(self) -> None:
        row = self.deck_view.currentIndex().row()
        self._deck = self.decks.locator(row) if 0 <= row < len(self.decks.rows) else None
        self._card = None
        self.cards.refresh()
        self.effects.refresh()

    def _card_chosen(self) -> None:
        row = self.card_view.currentIndex().row()
        self._card = self.cards.locator(row) if 0 <= row < len(self.cards.rows) else None
        self.effects.refresh()

    def select(self, locator) -> None:
        row = self.decks.row_of(locator[0][1])
        if row >= 0:
            self.deck_view.setCurrentIndex(self.decks.index(row, 0))
        if len(locator) > 1:
            row = self.cards.row_of(locator[1][1])
            if row >= 0:
                self.card_view.setCurrentIndex(self.cards.index(row, 0))

    def add_card(self) -> None:
        identifier = self.new_card.text().strip()
        if self._deck and identifier:
            self.document.add_entity("decks", self._deck, "cards",
                                     {"id": identifier, "title": identifier.replace("-", " ").capitalize()},
                                     f"Add card {identifier}")
            self.new_card.clear()

    def remove_card(self) -> None:
        if self._card:
            card, self._card = self._card, None
            self.document.remove_entity("decks", card)

    def add_effect(self) -> None:
        if self._card and self.new_op.currentText().strip():
            self.effects.add(self.new_op.currentText().strip())

    def remove_effect(self) -> None:
        row = _selected_row(self.effect_view)
        if self._card and 0 <= row < len(self.effects.effects):
            self.effects.remove(row)


class TablesPanel(QWidget):
    """Results tables: the list, and the chosen table as a grid."""

    def __init__(self, document: ScenarioDocument, delegate=None, parent=None):
        super().__init__(parent)
        self.document = document
        self.list_model = tables.tables_model(document, self)
        self.list_view = table_view(self.list_model, delegate)
        self._table: tuple | None = None
        self.grid = TableGridModel(document, lambda: self._table, self)
        self.grid_view = table_view(self.grid)
        self.grid_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.grid_view.horizontalHeader().setStretchLastSection(False)
        self.list_view.selectionModel().currentRowChanged.connect(lambda *_: self._chosen())
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.list_view)
        splitter.addWidget(self.grid_view)
        splitter.setStretchFactor(1, 3)
        QVBoxLayout(self).addWidget(splitter)

    def _chosen(self) -> None:
        row = self.list_view.currentIndex().row()
        self._table = self.list_model.locator(row) if 0 <= row < len(self.list_model.rows) else None
        self.grid.refresh()

    def select(self, ident) -> None:
        row = self.list_model.row_of(ident)
        if row >= 0:
            self.list_view.setCurrentIndex(self.list_model.index(row, 0))


class TranslationPanel(QWidget):
    """Pick a locale (or start one); source and translation side by side; filter to the work left."""

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.model = TranslationModel(document, self)
        self.view = table_view(self.model)
        self.view.setProperty("fitted", True)  # fixed layout: source and translation share the width
        header = self.view.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column in (1, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)
        header.resizeSection(0, 260)
        self.locale_box = QComboBox()  # (QWidget.locale is a method)
        self.locale_box.currentTextChanged.connect(self.model.set_locale)
        self.filter = QComboBox()
        self.filter.addItems(list(FILTERS))
        self.filter.currentTextChanged.connect(self.model.set_filter)
        self.new_tag = QLineEdit()
        self.new_tag.setPlaceholderText("new locale, e.g. zh-Hans")
        self.summary = QLabel("")
        self.model.modelReset.connect(self._summarise)
        layout = QVBoxLayout(self)
        layout.addLayout(_buttons(QLabel("Locale"), self.locale_box, QLabel("Show"), self.filter,
                                  self.new_tag, _button("Start locale", self.start_locale), self.summary))
        layout.addWidget(self.view)
        document.reloaded.connect(self._fill_locales)
        self._fill_locales()

    def _fill_locales(self) -> None:
        current = self.locale_box.currentText()
        self.locale_box.blockSignals(True)
        self.locale_box.clear()
        self.locale_box.addItems(self.document.locale_tags)
        self.locale_box.blockSignals(False)
        tags = self.document.locale_tags
        self.show_locale(current if current in tags else (tags[0] if tags else ""))

    def show_locale(self, tag: str) -> None:
        if self.locale_box.findText(tag) < 0 and tag:
            self.locale_box.addItem(tag)
        self.locale_box.setCurrentText(tag)
        self.model.set_locale(tag or None)

    def start_locale(self) -> None:
        tag = self.new_tag.text().strip()
        if LOCALE_TAG.match(tag):
            self.show_locale(tag)
            self.new_tag.clear()

    def _summarise(self) -> None:
        self.summary.setText(f"{self.model.rowCount()} text(s) shown")
