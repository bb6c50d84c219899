"""The editing pages that are more than one table: nations, setup, objectives, decks, tables,
translations. Every table in them is a TablePage (filter box, add row, remove)."""
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
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from .condition_builder import ConditionBuilder
from .document import ScenarioDocument
from .models import collections as tables
from .models.changes import ChangesModel
from .models.collections import ids, owners
from .models.effects import EffectsModel, profile_effect_ops
from .models.setup_table import SetupModel
from .models.table_grid import TableGridModel
from .table_page import TablePage
from .variant_changes import revert


def _buttons(*widgets) -> QHBoxLayout:
    row = QHBoxLayout()
    for widget in widgets:
        row.addWidget(widget)
    row.addStretch()
    return row


def _button(text: str, slot) -> QPushButton:
    button = QPushButton(text)
    button.clicked.connect(slot)
    return button


def _titled(title: str, page: QWidget) -> QWidget:
    box = QWidget()
    column = QVBoxLayout(box)
    column.setContentsMargins(0, 0, 0, 0)
    column.addWidget(QLabel(f"<b>{title}</b>"))
    column.addWidget(page)
    return box


class NationsPanel(QWidget):
    """Sides above, nations below: create, rename, recolour, remove."""

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.sides = TablePage(tables.sides_model(document, self))
        self.nations = TablePage(tables.nations_model(document, self))
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(_titled("Sides", self.sides))
        splitter.addWidget(_titled("Nations", self.nations))
        splitter.setStretchFactor(1, 2)
        QVBoxLayout(self).addWidget(splitter)


class SetupPanel(QWidget):
    """Units per space and owner; add a stack by space, unit and count."""

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.model = SetupModel(document, self)
        self.space = QComboBox()
        self.unit = QComboBox()
        self.owner = QComboBox()
        self.count = QSpinBox()
        self.count.setRange(1, 999)
        self._fill_choices()
        document.changed.connect(lambda kind: self._fill_choices() if kind in ("map", "units", "scenario") else None)
        self.page = TablePage(self.model, [QLabel("Add"), self.count, self.unit, QLabel("of"), self.owner,
                                           QLabel("to"), self.space, _button("Add", self.add),
                                           _button("Remove selected", self.remove)])
        self.view = self.page.view
        # The rest of setup.yaml: what each nation starts with besides its units on the map.
        self.resources = tables.setup_resources_model(document, self)
        self.resources_page = TablePage(self.resources, [
            _button("Add starting resource", self.resources.append)], removable=True)
        self.resources_page.view.horizontalHeader().setStretchLastSection(False)   # amounts beside owners
        self.pools = TablePage(tables.pools_model(document, self))
        self.reinforcements = TablePage(tables.reinforcements_model(document, self))
        self.markers = TablePage(tables.markers_model(document, self))
        self.draws = TablePage(tables.draws_model(document, self))
        self.tabs = QTabWidget()
        for title, page, tip in (
                ("Units on the map", self.page, "Who holds each space and the units in it at the start"),
                ("Resources", self.resources_page, "What each nation starts with: IPCs, victory points …"),
                ("Pools", self.pools, "Units kept off the map until they enter (force pools)"),
                ("Reinforcements", self.reinforcements, "Units that arrive on a later turn"),
                ("Markers", self.markers, "Kinds of marker and how many exist"),
                ("Draws", self.draws, "Markers placed at random at the start")):
            self.tabs.addTab(page, title)
            self.tabs.setTabToolTip(self.tabs.count() - 1, tip)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)

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
        row = self.view.current_row()
        if row >= 0:
            self.model.remove_row(row)

    def select_space(self, space: str) -> None:
        for row, (entry, _) in enumerate(self.model.rows):
            if entry.get("space") == space:
                self.view.select_row(row)
                return


class ConditionsPanel(QWidget):
    """Entries that each hold a condition (objectives, victory conditions) in a table, and the
    highlighted entry's condition in the builder below."""

    def __init__(self, document: ScenarioDocument, model, kind: str, parent=None):
        super().__init__(parent)
        self.document = document
        self.kind = kind
        self.model = model
        self.page = TablePage(self.model)
        self.view = self.page.view
        self.builder = ConditionBuilder(self._apply_condition, self._suggest,
                                        names=lambda name: display_names(document, name))
        # The builder shows the condition of the highlighted entry, and again after an edit.
        self.view.chosen.connect(lambda _locator: self._show_condition())
        self.model.dataChanged.connect(lambda *_: self._show_condition())
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.page)
        splitter.addWidget(self.builder)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

    def _suggest(self, name: str) -> list[str]:
        return suggestions(self.document, name)

    def current_locator(self):
        return self.view.chosen_locator

    def _show_condition(self) -> None:
        locator = self.view.chosen_locator
        entry = self.document.find_merged(self.kind, locator) if locator else None
        self.builder.set_condition(entry.get("when") if entry else None)

    def _apply_condition(self, condition) -> None:
        from .commands import MISSING
        locator = self.current_locator()
        if locator:
            self.document.set_field(self.kind, locator, ("when",),
                                    condition if condition is not None else MISSING,
                                    f"Edit the condition of {locator[-1][1][1]}")

    def select(self, which) -> None:
        """Choose an entry by its locator (or its identity, for the first with it)."""
        row = (self.model.row_of_locator(which) if which and isinstance(which[0], tuple)
               else self.model.row_of(which))
        if row >= 0:
            self.view.select_row(row)

    def add(self, name: str) -> bool:
        if self.model.add(name):
            self.select(("id", self.model.last_added))
            return True
        return False

    def remove(self) -> None:
        self.page.remove_selected()


class ObjectivesPanel(ConditionsPanel):
    """Objectives in a table; the chosen one's condition in the builder below."""

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(document, tables.objectives_model(document), "objectives", parent)
        self.model.setParent(self)


def display_names(document: ScenarioDocument, name: str) -> dict[str, str]:
    """id -> name of the entities a condition's parameter of this name may take."""
    kinds = {"space": ("map", "spaces"), "spaces": ("map", "spaces"), "types": ("units", "unit_types"),
             "type": ("units", "unit_types"), "unit": ("units", "unit_types")}
    found: dict[str, str] = {}
    for kind, collection in [kinds[name]] if name in kinds else [("scenario", "nations"), ("scenario", "sides")]:
        for entity in document.entities(kind, collection):
            if isinstance(entity.get("id"), str) and isinstance(entity.get("name"), str):
                found[entity["id"]] = entity["name"]
    return found


def suggestions(document: ScenarioDocument, name: str) -> list[str]:
    """The ids a condition's parameter of this name may take."""
    if name in ("space", "spaces"):
        return ids(document, "map", "spaces")
    if name in ("owner", "with", "nation", "controller"):
        return owners(document)
    if name == "side":
        return ids(document, "scenario", "sides")
    if name in ("types", "type", "unit"):
        return ids(document, "units", "unit_types")
    collections = {"option": "options", "resource": "resources", "phase": "phases"}
    return ids(document, "scenario", collections[name]) if name in collections else []


class DecksPanel(QWidget):
    """Decks; the chosen deck's cards; the chosen card's effects."""

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.decks = tables.decks_model(document, self)
        self.deck_page = TablePage(self.decks)
        self.deck_view = self.deck_page.view
        self.cards = tables.cards_model(document, lambda: self.deck_view.chosen_locator, self)
        self.card_page = TablePage(self.cards)
        self.card_view = self.card_page.view
        self.effects = EffectsModel(document, lambda: self.card_view.chosen_locator, self)
        self.new_op = QComboBox()
        self.new_op.setEditable(True)
        self.effect_page = TablePage(self.effects, [self.new_op, _button("Add effect", self.add_effect),
                                                    _button("Remove effect", self.remove_effect)])
        self.effect_view = self.effect_page.view
        # The cards are the highlighted deck's, the effects the highlighted card's.
        self.deck_view.chosen.connect(lambda _locator: self.cards.refresh())
        self.card_view.chosen.connect(lambda _locator: self.effects.refresh())
        splitter = QSplitter(Qt.Orientation.Vertical)
        for title, page in (("Decks", self.deck_page), ("Cards of the chosen deck", self.card_page),
                            ("Effects of the chosen card", self.effect_page)):
            splitter.addWidget(_titled(title, page))
        QVBoxLayout(self).addWidget(splitter)
        self._fill_ops()

    def _fill_ops(self) -> None:
        self.new_op.clear()
        self.new_op.addItems(profile_effect_ops(self.document.merged("scenario").get("system")))

    @property
    def _deck(self) -> tuple | None:
        return self.deck_view.chosen_locator

    @property
    def _card(self) -> tuple | None:
        return self.card_view.chosen_locator

    def select(self, locator) -> None:
        self.deck_view.choose(locator[:1])
        if len(locator) > 1:
            self.card_view.choose(locator[:2])

    def add_card(self, title: str) -> bool:
        return self._deck is not None and self.cards.add(title)

    def remove_card(self) -> None:
        if self._card:
            self.document.remove_entity("decks", self._card)

    def add_effect(self) -> None:
        if self._card and self.new_op.currentText().strip():
            self.effects.add(self.new_op.currentText().strip())

    def remove_effect(self) -> None:
        row = self.effect_view.current_row()
        if self._card and 0 <= row < len(self.effects.effects):
            self.effects.remove(row)


class TablesPanel(QWidget):
    """Results tables: the list, and the chosen table as a grid whose rows and columns can be
    added and removed."""

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.list_model = tables.tables_model(document, self)
        self.list_page = TablePage(self.list_model)
        self.list_view = self.list_page.view
        self.grid = TableGridModel(document, lambda: self.list_view.chosen_locator, self)
        self.new_label = QLineEdit()
        self.new_label.setPlaceholderText("label of a new row or column")
        self.grid_page = TablePage(self.grid, [
            self.new_label, _button("Add row", self.add_row), _button("Add column", self.add_column),
            _button("Remove row", self.remove_row), _button("Remove column", self.remove_column)])
        self.grid_view = self.grid_page.view
        self.grid_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.grid_view.horizontalHeader().setStretchLastSection(False)
        self.list_view.chosen.connect(lambda _locator: self.grid.refresh())   # the highlighted table's grid
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.list_page)
        splitter.addWidget(self.grid_page)
        splitter.setStretchFactor(1, 3)
        QVBoxLayout(self).addWidget(splitter)

    def select(self, which) -> None:
        row = (self.list_model.row_of_locator(which) if which and isinstance(which[0], tuple)
               else self.list_model.row_of(which))
        if row >= 0:
            self.list_view.select_row(row)

    def _label(self) -> str:
        label = self.new_label.text().strip()
        self.new_label.clear()
        return label

    def add_row(self) -> bool:
        return self.grid.add_row(self._label())

    def add_column(self) -> bool:
        return self.grid.add_column(self._label())

    def remove_row(self) -> bool:
        index = self.grid_view.to_source(self.grid_view.currentIndex())
        return index.isValid() and self.grid.remove_row(index.row())

    def remove_column(self) -> bool:
        index = self.grid_view.to_source(self.grid_view.currentIndex())
        return index.isValid() and self.grid.remove_column(index.column())


class ChangesPanel(QWidget):
    """In a variant: every value it sets and every entity it adds or removes, against its parent.
    Double-click a line to go to it; Revert gives it back to the parent."""

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.model = ChangesModel(document, self)
        self.summary = QLabel("")
        self.page = TablePage(self.model, [_button("Revert selected", self.revert_selected), self.summary])
        self.view = self.page.view
        self.view.keep_layout()   # the two values share the width; the rest fit their contents
        header = self.view.horizontalHeader()
        header.setStretchLastSection(False)
        for column in range(self.model.columnCount()):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch if column in (3, 4)
                                        else QHeaderView.ResizeMode.ResizeToContents)
        QVBoxLayout(self).addWidget(self.page)
        self.model.rowsInserted.connect(self._summarise)
        self.model.rowsRemoved.connect(self._summarise)
        self.model.modelReset.connect(self._summarise)
        self._summarise()

    def _summarise(self, *_args) -> None:
        if not self.document.is_variant:
            self.summary.setText("This scenario is not a variant: it changes nothing of a parent.")
            return
        parent = self.document.parent_scenario
        name = parent.root.name if parent is not None else "its parent"
        self.summary.setText(f"{len(self.model.rows)} change(s) against {name}")

    def current_change(self):
        row = self.view.current_row()
        return self.model.rows[row] if 0 <= row < len(self.model.rows) else None

    def revert_selected(self) -> bool:
        change = self.current_change()
        return change is not None and revert(self.document, change)
