"""The condition builder: a tree of conditions and a form for the chosen node's parameters.

Each change hands the whole new condition to `apply` (which pushes one undo command), and the
builder shows it again from the document: the document stays the only truth.
"""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from sandtable.schemas import SchemaNode

from . import conditions


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
        siblings = self.node(parent).children if parent.isValid() else self._roots
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

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role == Qt.DisplayRole and orientation == Qt.Horizontal:
            return ("Condition", "Parameters")[section]
        return None

    def flags(self, index):
        return Qt.ItemIsEnabled | Qt.ItemIsSelectable if index.isValid() else Qt.NoItemFlags

    def data(self, index, role=Qt.DisplayRole):
        node = self.node(index)
        if node is None or role != Qt.DisplayRole:
            return None
        if index.column() == 0:
            return (conditions.op_of(node.value) or "?").replace("_", " ")
        return conditions.summary(node.value)


class ConditionBuilder(QWidget):
    """Edit one condition. `suggest(name)` gives the ids a parameter of that name may take."""

    edited = Signal(object)

    def __init__(self, apply: Callable[[object], None], suggest: Callable[[str], list[str]], parent=None):
        super().__init__(parent)
        self.apply = apply
        self.suggest = suggest
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
        self.form_host = QWidget()
        self.form = QFormLayout(self.form_host)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(buttons)
        layout.addWidget(self.tree, 2)
        layout.addWidget(self.form_host, 1)
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
        while self.form.rowCount():
            self.form.removeRow(0)
        self._fields = {}
        node = self.model.node(self.tree.currentIndex())
        if node is None:
            return
        op = conditions.op_of(node.value)
        if op is None:
            return
        schema = self.vocabulary.get(op, {})
        body = node.value[op]
        if op in ("all", "any", "not"):
            return
        if schema.get("type") != "object":
            self._add_field(op, schema, body, lambda v: self._set(node.path, {op: v}))
            return
        for name, prop in schema.get("properties", {}).items():
            if name == "of":
                continue
            self._add_field(name, prop, body.get(name) if isinstance(body, dict) else None,
                            lambda v, name=name: self._set_param(node.path, op, name, v))

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
        self.form.addRow(name.replace("_", " "), widget)

    # -- editing ----------------------------------------------------------------------------
    def _set(self, path: tuple, value) -> None:
        self._commit(conditions.replaced(self.model.condition, path, value))

    def _set_param(self, path: tuple, op: str, name: str, value) -> None:
        node = conditions.get(self.model.condition, path)
        body = dict(node[op])
        if value is None:
            body.pop(name, None)
        else:
            body[name] = value
        if body != node[op]:
            self._set(path, {op: body})

    def add(self, op: str) -> None:
        child = conditions.blank(op, {name: self.suggest(name) for name in _PARAMETER_NAMES})
        path = self.current_path() or ()
        self._commit(conditions.with_child(self.model.condition, path, child))

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


_PARAMETER_NAMES = ("owner", "spaces", "types", "side", "with", "resource", "phase", "option", "kind", "tags")
