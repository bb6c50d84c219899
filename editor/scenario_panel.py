"""The scenario itself (scenario.yaml beyond its map pieces): its name, year, description and game
system; who plays in what order; how a side wins; its resources and phases; and the parameters
of its game system's rules, as forms made from the schemas.
"""
from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from sandtable.schemas import SchemaNode, root_node

from .commands import MISSING
from .document import ScenarioDocument
from .models import collections as tables
from .models.collections import ids
from .panels import ConditionsPanel
from .schema_form import SchemaForm
from .table_page import TablePage

GENERAL_FIELDS = ["name", "system", "year", "description", "version", "source_language"]


def rules_node(document: ScenarioDocument) -> SchemaNode:
    """The schema of `rules` for the scenario's game system (its profile's `$defs/rules`)."""
    from validators.schema import profile
    system = document.merged("scenario").get("system")
    rules = profile(system).get("rules") if isinstance(system, str) else None
    return SchemaNode(rules if isinstance(rules, dict) else {}, f"systems/{system}.schema.json")


class TurnOrder(QWidget):
    """The nations (or, in a game without nations, the sides) in the order they play: add, move
    up and down, remove; each change one undo step."""

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.order = QListWidget()
        self.order.setObjectName("turn-order")
        self.candidates = QComboBox()
        self.candidates.setMinimumContentsLength(16)
        buttons = []
        for text, slot in (("Add", self.add), ("Add all", self.add_all), ("Up", lambda: self.shift(-1)),
                           ("Down", lambda: self.shift(1)), ("Remove", self.remove)):
            button = QPushButton(text)
            button.clicked.connect(slot)
            buttons.append(button)
        row = QHBoxLayout()
        row.addWidget(self.candidates)
        for button in buttons:
            row.addWidget(button)
        row.addStretch()
        self.note = QLabel("")
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Who plays, in the order they play each round:"))
        layout.addLayout(row)
        layout.addWidget(self.order)
        layout.addWidget(self.note)
        document.changed.connect(lambda kind: self.refresh() if kind == "scenario" else None)
        document.reloaded.connect(self.refresh)
        self.refresh()

    def players(self) -> list[str]:
        return ids(self.document, "scenario", "nations") or ids(self.document, "scenario", "sides")

    def current(self) -> list[str]:
        order = self.document.merged("scenario").get("turn_order")
        return [p for p in order if isinstance(p, str)] if isinstance(order, list) else []

    def refresh(self) -> None:
        names = {e.get("id"): e.get("name") for e in self.document.entities("scenario", "nations")
                 + self.document.entities("scenario", "sides")}
        chosen = self.order.currentRow()
        self.order.clear()
        for number, player in enumerate(self.current(), 1):
            item = QListWidgetItem(f"{number}. {names.get(player) or player}  ({player})")
            self.order.addItem(item)
        self.order.setCurrentRow(min(chosen, self.order.count() - 1))
        passive = [e["id"] for e in self.document.entities("scenario", "nations")
                   if e.get("passive") is True or e.get("played_by")]
        waiting = [p for p in self.players() if p not in self.current() and p not in passive]
        self.candidates.clear()
        self.candidates.addItems(waiting)
        self.note.setText("Nations that are passive or played by another need no place of their own: "
                          + ", ".join(passive) if passive else "")

    def _store(self, order: list[str], text: str, row: int | None = None) -> None:
        self.document.set_field("scenario", (), ("turn_order",), order or MISSING, text)
        if row is not None:
            self.order.setCurrentRow(row)

    def add(self) -> bool:
        player = self.candidates.currentText()
        if not player:
            return False
        self._store(self.current() + [player], f"Add {player} to the turn order", len(self.current()))
        return True

    def add_all(self) -> bool:
        waiting = [self.candidates.itemText(i) for i in range(self.candidates.count())]
        if not waiting:
            return False
        self._store(self.current() + waiting, "Add every player to the turn order")
        return True

    def shift(self, step: int) -> bool:
        order, row = self.current(), self.order.currentRow()
        if not 0 <= row < len(order) or not 0 <= row + step < len(order):
            return False
        order[row], order[row + step] = order[row + step], order[row]
        self._store(order, f"Move {order[row + step]} {'up' if step < 0 else 'down'} the turn order", row + step)
        return True

    def remove(self) -> bool:
        order, row = self.current(), self.order.currentRow()
        if not 0 <= row < len(order):
            return False
        gone = order.pop(row)
        self._store(order, f"Take {gone} out of the turn order", min(row, len(order) - 1))
        return True


def _scrolled(widget: QWidget) -> QScrollArea:
    scroller = QScrollArea()
    scroller.setWidgetResizable(True)
    scroller.setWidget(widget)
    return scroller


class ScenarioPanel(QWidget):
    """scenario.yaml as forms, one tab each: General, Turn order, Victory, Resources, Phases, Rules."""

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.general = SchemaForm(document, "scenario", (), root_node("scenario"), GENERAL_FIELDS)
        self.turn_order = TurnOrder(document)
        self.victory = ConditionsPanel(document, tables.victory_model(document, self), "scenario")
        self.resources = TablePage(tables.resources_model(document, self))
        self.phases = TablePage(tables.phases_model(document, self))
        self.rules = SchemaForm(document, "scenario", ("rules",), lambda: rules_node(document))
        self.tabs = QTabWidget()
        for title, page in (("General", _scrolled(self.general)), ("Turn order", self.turn_order),
                            ("Victory", self.victory), ("Resources", self.resources),
                            ("Phases", self.phases), ("Rules", _scrolled(self.rules))):
            self.tabs.addTab(page, title)
        QVBoxLayout(self).addWidget(self.tabs)

    def show_page(self, title: str) -> None:
        for number in range(self.tabs.count()):
            if self.tabs.tabText(number) == title:
                self.tabs.setCurrentIndex(number)
