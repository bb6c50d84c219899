"""The condition builder: a tree of conditions and a form for the chosen node's parameters.

A parameter naming one id is a drop-down of the scenario's ids; one naming several (`spaces`,
`types`) is a line of ids with a menu of them all by name, each ticked when chosen.

Each change hands the whole new condition to `apply` (which pushes one undo command), and the
builder shows it again from the document: the document stays the only truth.

Showing it again happens while the edited field is still emitting the signal that made the change
(Return in a spin box emits editingFinished from inside its key handler). So the form is never
torn down then: when the chosen node keeps its parameters, the fields are updated in place (they
keep the focus, too); when it changes, the old form is hidden and handed to deleteLater.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QSignalBlocker, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLineEdit,
    QMenu,
    QPushButton,
    QSpinBox,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from sandtable.schemas import SchemaNode

from . import conditions
from .forms import FormSlot
from .roles import CHOOSABLE, DISPLAY, HORIZONTAL, NO_FLAGS


class _Node:
    __slots__ = ("path", "value", "parent", "children", "row")

    def __init__(self, path, value, parent, row):
        self.path, self.value, self.parent, self.row = path, value, parent, row
        self.children: list[_Node] = []


class ConditionModel(QAbstractItemModel):
    """A condition as a tree: column 0 the op, column 1 its parameters."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.condition = None
        self._roots: list[_Node] = []

    def set_condition(self, condition) -> None:
        self.beginResetModel()
        self.condition = condition
        self._roots = []
        if isinstance(condition, dict):
            root = _Node((), condition, None, 0)
            self._grow(root)
            self._roots = [root]
        self.endResetModel()

    def _grow(self, node: _Node) -> None:
        for row, (relative, child) in enumerate(conditions.children(node.value)):
            leaf = _Node(node.path + relative, child, node, row)
            node.children.append(leaf)
            self._grow(leaf)

    def node(self, index: QModelIndex) -> _Node | None:
        return index.internalPointer() if index.isValid() else None

    def index_of_path(self, path: tuple) -> QModelIndex:
        def search(nodes):
            for node in nodes:
                if node.path == path:
                    return self.createIndex(node.row, 0, node)
                found = search(node.children)
                if found is not None:
                    return found
            return None
        return search(self._roots) or QModelIndex()

    def index(self, row, column, parent=QModelIndex()):
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        above = self.node(parent)
        siblings = above.children if above is not None else self._roots
        return self.createIndex(row, column, siblings[row])

    def parent(self, index=QModelIndex()):
        node = self.node(index)
        if node is None or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.parent.row, 0, node.parent)

    def rowCount(self, parent=QModelIndex()) -> int:
        if parent.column() > 0:
            return 0
        node = self.node(parent)
        return len(node.children) if node is not None else len(self._roots)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 2

    def headerData(self, section, orientation, role=DISPLAY):
        if role == DISPLAY and orientation == HORIZONTAL:
            return ("Condition", "Parameters")[section]
        return None

    def flags(self, index):
        return CHOOSABLE if index.isValid() else NO_FLAGS

    def data(self, index, role=DISPLAY):
        node = self.node(index)
        if node is None or role != DISPLAY:
            return None
        if index.column() == 0:
            return (conditions.op_of(node.value) or "?").replace("_", " ")
        return conditions.summary(node.value)


class ConditionBuilder(QWidget):
    """Edit one condition. `suggest(name)` gives the ids a parameter of that name may take."""

    edited = Signal(object)

    def __init__(self, apply: Callable[[object], None], suggest: Callable[[str], list[str]], parent=None,
                 names: Callable[[str], dict[str, str]] | None = None):
        super().__init__(parent)
        self.apply = apply
        self.suggest = suggest
        self.names = names   # id -> display name, for the ids a parameter may take
        self.vocabulary = conditions.vocabulary()
        self.model = ConditionModel(self)
        self.tree = QTreeView()
        self.tree.setModel(self.model)
        self.tree.setHeaderHidden(False)
        self.tree.selectionModel().currentChanged.connect(lambda *_: self._show_form())
        self.op_choice = QComboBox()
        self.op_choice.addItems(list(self.vocabulary))
        add = QPushButton("Add condition")
        add.clicked.connect(lambda: self.add(self.op_choice.currentText()))
        remove = QPushButton("Remove")
        remove.clicked.connect(self.remove_current)
        buttons = QHBoxLayout()
        for widget in (self.op_choice, add, remove):
            buttons.addWidget(widget)
        buttons.addStretch()
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addLayout(buttons)
        self._layout.addWidget(self.tree, 2)
        self.slot = FormSlot(self._layout, 1)
        self._form_shape: tuple | None = None
        self._fields: dict[str, QWidget] = {}

    # -- showing ----------------------------------------------------------------------------
    def set_condition(self, condition) -> None:
        path = self.current_path()
        self.model.set_condition(condition)
        self.tree.expandAll()
        self.tree.resizeColumnToContents(0)
        index = self.model.index_of_path(path) if path is not None else QModelIndex()
        if not index.isValid():
            index = self.model.index(0, 0)
        self.tree.setCurrentIndex(index)
        self._show_form()

    def current_path(self) -> tuple | None:
        node = self.model.node(self.tree.currentIndex())
        return node.path if node else None

    def _show_form(self) -> None:
        node = self.model.node(self.tree.currentIndex())
        op = conditions.op_of(node.value) if node is not None else None
        # Each parameter: (name, its schema, its value, how to store a new value).
        params: list[tuple[str, dict, Any, Callable[[Any], None]]] = []
        if node is not None and op is not None and op not in ("all", "any", "not"):
            schema = self.vocabulary.get(op, {})
            path = node.path
            if schema.get("type") != "object":
                params = [(op, schema, node.value[op], partial(self._set_whole, path, op))]
            else:
                body = node.value[op]
                params = [(name, prop, body.get(name) if isinstance(body, dict) else None,
                           partial(self._set_param, path, op, name))
                          for name, prop in schema.get("properties", {}).items() if name != "of"]
        shape = (node.path if node else None, op, tuple(name for name, *_ in params))
        if shape == self._form_shape:
            for name, _schema, value, _store in params:
                _show_value(self._fields[name], value)
            return
        self._form_shape = shape
        self.slot.renew()
        self._fields = {}
        for name, prop, value, store in params:
            self._add_field(name, prop, value, store)
        self.slot.show()

    def _add_field(self, name: str, schema: dict, value, store: Callable) -> None:
        schema = SchemaNode(schema, "common.schema.json").schema
        kind = schema.get("type")
        widget: QWidget
        if kind == "boolean":
            check = widget = QCheckBox()
            check.setChecked(value is True)
            check.toggled.connect(lambda on: store(on if on else None))
        elif kind == "integer":
            spin = widget = QSpinBox()
            spin.setRange(0, 10_000)
            spin.setSpecialValueText("—")
            spin.setValue(value if isinstance(value, int) else 0)
            spin.editingFinished.connect(lambda: store(spin.value() or None))
        elif kind == "number":
            number = widget = QDoubleSpinBox()
            number.setRange(-1e6, 1e6)
            number.setValue(float(value) if isinstance(value, (int, float)) else 0.0)
            number.editingFinished.connect(lambda: store(number.value()))
        elif kind == "array":
            line = widget = QLineEdit(", ".join(str(v) for v in value) if isinstance(value, list) else "")
            line.setPlaceholderText(", ".join(self.suggest(name)[:4]))
            line.editingFinished.connect(
                lambda: store([p.strip() for p in line.text().split(",") if p.strip()] or None))
            if self.suggest(name):
                chooser = self._chooser(name, line, store)
                row = QWidget()
                pair = QHBoxLayout(row)
                pair.setContentsMargins(0, 0, 0, 0)
                pair.addWidget(line, 1)
                pair.addWidget(chooser)
                widget.setObjectName(f"param-{name}")
                self._fields[name] = widget
                self.slot.form.addRow(name.replace("_", " "), row)
                return
        else:
            combo = widget = QComboBox()
            combo.setEditable(True)
            combo.addItems([""] + self.suggest(name))
            combo.setCurrentText(str(value) if value is not None else "")
            combo.activated.connect(lambda *_: store(combo.currentText().strip() or None))
            editor = combo.lineEdit()
            if editor is not None:  # always, for an editable combo box
                editor.editingFinished.connect(lambda: store(combo.currentText().strip() or None))
        widget.setObjectName(f"param-{name}")
        self._fields[name] = widget
        self.slot.form.addRow(name.replace("_", " "), widget)

    def _chooser(self, name: str, line: QLineEdit, store: Callable) -> QToolButton:
        """A button whose menu lists the ids a list parameter may take, each ticked when chosen:
        ids are picked by their names rather than typed."""
        button = QToolButton()
        button.setText("Choose…")
        button.setObjectName(f"choose-{name}")
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(button)
        button.setMenu(menu)

        def chosen() -> list[str]:
            return [p.strip() for p in line.text().split(",") if p.strip()]

        def fill() -> None:
            menu.clear()
            names = self.names(name) if self.names is not None else {}
            for ident in self.suggest(name):
                action = menu.addAction(f"{names.get(ident) or ident}  ({ident})")
                action.setCheckable(True)
                action.setChecked(ident in chosen())
                action.setData(ident)
                action.toggled.connect(lambda on, ident=ident: toggle(ident, on))

        def toggle(ident: str, on: bool) -> None:
            now = chosen()
            if on and ident not in now:
                now.append(ident)
            elif not on and ident in now:
                now.remove(ident)
            store(now or None)

        menu.aboutToShow.connect(fill)
        fill()
        return button

    # -- editing ----------------------------------------------------------------------------
    def _set(self, path: tuple, value) -> None:
        if path and conditions.find(self.model.condition, path) is None:
            return  # the node is gone (undone elsewhere)
        self._commit(conditions.replaced(self.model.condition, path, value))

    def _set_whole(self, path: tuple, op: str, value) -> None:
        """A condition whose parameter is one value (`option: fast`)."""
        self._set(path, {op: value})

    def _set_param(self, path: tuple, op: str, name: str, value) -> None:
        node = conditions.find(self.model.condition, path)
        if conditions.op_of(node) != op:
            return  # the condition changed under this field (undone elsewhere): nothing to set
        body = dict(node[op]) if isinstance(node[op], dict) else {}
        if value is None:
            body.pop(name, None)
        else:
            body[name] = value
        if body != node[op]:
            self._set(path, {op: body})

    def add(self, op: str) -> None:
        """Add a condition of `op`. A group (`not`, `all`, `any`, `at least`) takes the chosen
        condition inside it: `not` negates what is chosen; a leaf goes into the chosen group (or
        joins the chosen leaf in an `all`)."""
        path = self.current_path()
        if op in conditions.GROUPS and self.model.condition is not None and path is not None:
            self._commit(conditions.wrapped(self.model.condition, path, op))
            self._choose(path)   # the new group, where the chosen condition was
            return
        if op == "not":
            return   # nothing to negate yet: choose or add the condition to negate first
        child = conditions.blank(op, {name: self.suggest(name) for name in _PARAMETER_NAMES})
        self._commit(conditions.with_child(self.model.condition, path or (), child))

    def _choose(self, path: tuple) -> None:
        index = self.model.index_of_path(path)
        if index.isValid():
            self.tree.setCurrentIndex(index)

    def remove_current(self) -> None:
        path = self.current_path()
        if path is not None:
            self._commit(conditions.removed(self.model.condition, path))

    def _commit(self, condition) -> None:
        if condition != self.model.condition:
            self.apply(condition)
            self.edited.emit(condition)

    def field(self, name: str) -> QWidget | None:
        return self._fields.get(name)


def _show_value(widget: QWidget, value) -> None:
    """Put a value into a field without it reporting an edit."""
    blocker = QSignalBlocker(widget)
    if isinstance(widget, QCheckBox):
        widget.setChecked(value is True)
    elif isinstance(widget, QSpinBox):
        widget.setValue(value if isinstance(value, int) and not isinstance(value, bool) else 0)
    elif isinstance(widget, QDoubleSpinBox):
        widget.setValue(float(value) if isinstance(value, (int, float)) else 0.0)
    elif isinstance(widget, QLineEdit):
        text = ", ".join(str(v) for v in value) if isinstance(value, list) else ""
        if widget.text() != text:
            widget.setText(text)
    elif isinstance(widget, QComboBox):
        text = str(value) if value is not None else ""
        if widget.currentText() != text:
            widget.setCurrentText(text)
    blocker.unblock()


_PARAMETER_NAMES = ("owner", "spaces", "types", "side", "with", "resource", "phase", "option", "kind", "tags")
