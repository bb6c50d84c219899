"""A form for a mapping of a scenario file, made from its JSON Schema: one field per property the
schema allows (not only those the file has), each edited with the widget its type calls for.

- a fixed set of values (`enum`): a drop-down, with an empty choice for "not given";
- yes/no: a check box;
- a long text (`description`, `text`): a text box of several lines, stored when it loses focus;
- a number or a short text: a line;
- anything else (a list, a mapping): a box of YAML, written as the file writes it, stored when it
  loses focus.

Each field's tooltip is the schema's description of it. An edit is refused, in the validators'
words, when the schema check says the new value is wrong (the same check tables use), and every
stored edit is one undo step. The form follows the document in place: a field keeps its widget and
focus while edits land, and one being typed in is not overwritten.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from sandtable.schemas import SchemaNode
from sandtable.yamlsource import YamlRefused, parse_yaml
from sandtable.yamlwrite import dump_canonical

from .commands import MISSING
from .document import ScenarioDocument
from .explain import explanation, new_problems
from .flowtext import parse_value, to_text

LONG_TEXTS = ("description", "text")


class TextBox(QPlainTextEdit):
    """A text of several lines that reports, like a line edit, when its typing is done."""

    editingFinished = Signal()

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        if self.document().isModified():
            self.document().setModified(False)
            self.editingFinished.emit()


class SchemaForm(QWidget):
    """Edit the mapping at `path` of the file `kind` (() is the file's top), as `node` describes
    it. `names` picks and orders the properties shown (all of the schema's by default)."""

    refused = Signal(str)

    def __init__(self, document: ScenarioDocument, kind: str, path: tuple, node: SchemaNode | Callable[[], SchemaNode],
                 names: list[str] | None = None, choices: dict[str, Callable[[], list[str]]] | None = None,
                 parent=None):
        super().__init__(parent)
        self.document, self.kind, self.path = document, kind, tuple(path)
        self._node = node
        self.names = names
        self.choices = choices or {}
        self.fields: dict[str, QWidget] = {}
        self.schemas: dict[str, dict] = {}
        self.error = QLabel("")
        self.error.setStyleSheet("color: #b3261e")
        self.error.setWordWrap(True)
        self.empty = QLabel("")
        self.empty.setWordWrap(True)
        self.host = QWidget()
        self.form = QFormLayout(self.host)
        self.column = QVBoxLayout(self)
        self.column.addWidget(self.empty)
        self.column.addWidget(self.host)
        self.column.addWidget(self.error)
        self.column.addStretch()
        self._shape: tuple | None = None
        document.changed.connect(lambda kind: self.refresh() if kind == self.kind else None)
        document.reloaded.connect(self.refresh)
        self.refresh()

    # -- what is edited ----------------------------------------------------------------------
    def node(self) -> SchemaNode:
        return self._node() if callable(self._node) else self._node

    def mapping(self) -> dict:
        value: object = self.document.merged(self.kind)
        for step in self.path:
            value = value.get(step) if isinstance(value, dict) else None
        return value if isinstance(value, dict) else {}

    def properties(self) -> dict[str, dict]:
        node = self.node()
        names = self.names or node.property_order()
        return {name: node.child(name).schema for name in names}

    # -- building and following ----------------------------------------------------------------
    def refresh(self) -> None:
        properties = self.properties()
        shape = tuple((name, _widget_kind(name, schema)) for name, schema in properties.items())
        if shape != self._shape:
            self._rebuild(properties)
            self._shape = shape
        values = self.mapping()
        for name, field in self.fields.items():
            _show(field, values.get(name, MISSING))

    def _rebuild(self, properties: dict[str, dict]) -> None:
        # Built apart and swapped in: the old fields may be emitting the signal that led here.
        old = self.host
        for field in old.findChildren(QWidget):
            field.blockSignals(True)
        self.host = QWidget()
        self.form = QFormLayout(self.host)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.column.replaceWidget(old, self.host)
        old.hide()
        old.deleteLater()
        self.fields, self.schemas = {}, properties
        for name, schema in properties.items():
            field = self._field(name, schema)
            field.setObjectName(f"field-{name}")
            description = schema.get("description")
            if isinstance(description, str):
                field.setToolTip(description)
            label = QLabel(name.replace("_", " "))
            label.setToolTip(field.toolTip())
            self.form.addRow(label, field)
            self.fields[name] = field
        self.empty.setText("" if properties else "The game system's rules take no parameters here.")

    def _field(self, name: str, schema: dict) -> QWidget:
        kind = _widget_kind(name, schema)
        store = self._storer(name)
        if kind == "enum" or name in self.choices:
            combo = QComboBox()
            values = [str(v) for v in schema.get("enum", [])] or self.choices[name]()
            combo.addItems([""] + values)
            combo.setEditable(name in self.choices)
            combo.activated.connect(lambda _=0: store(_typed(combo.currentText(), schema)))
            editor = combo.lineEdit()
            if editor is not None:
                editor.editingFinished.connect(lambda: store(_typed(combo.currentText(), schema)))
            return combo
        if kind == "bool":
            check = QCheckBox()
            check.toggled.connect(lambda on: store(bool(on)))
            return check
        if kind == "long":
            box = TextBox()
            box.setTabChangesFocus(True)
            box.setFixedHeight(box.fontMetrics().lineSpacing() * 4 + 12)
            box.editingFinished.connect(lambda: store(box.toPlainText().strip() or MISSING))
            return box
        if kind == "yaml":
            block = TextBox()
            block.setProperty("yaml", True)   # shows its value as YAML
            block.setTabChangesFocus(True)
            block.setPlaceholderText(_placeholder(schema))
            block.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
            block.setFixedHeight(block.fontMetrics().lineSpacing() * 6 + 12)
            block.editingFinished.connect(lambda: store(_parsed_block(block.toPlainText())))
            return block
        line = QLineEdit()
        line.setPlaceholderText(_placeholder(schema))
        if kind == "text":
            line.editingFinished.connect(lambda: store(line.text().strip() or MISSING))
        else:
            line.editingFinished.connect(lambda: store(_parsed(line.text())))
        return line

    def _storer(self, name: str) -> Callable[[object], None]:
        def store(value) -> None:
            self.set(name, value)
        return store

    # -- editing -------------------------------------------------------------------------------
    def set(self, name: str, value) -> bool:
        """Store `value` (MISSING: take the field out) as one undo step, unless the schema says no."""
        if isinstance(value, ValueError):
            return self._refuse(name, str(value))
        current = self.mapping().get(name, MISSING)
        field_path = self.path + (name,)
        if value != current and not (value is MISSING and current is MISSING):
            problems = new_problems(self.document, self.kind, (), field_path, value, current)
            if problems:
                return self._refuse(name, explanation(problems))
        self.error.setText("")
        field = self.fields.get(name)
        if isinstance(field, QLineEdit):
            field.setModified(False)   # what it shows is the document's again
        if value == current or (value is MISSING and current is MISSING):
            return False
        what = f"the scenario's {name}" if not self.path else f"{'.'.join(map(str, self.path))}: {name}"
        self.document.set_field(self.kind, (), field_path, value,
                                f"Clear {what}" if value is MISSING else f"Set {what}")
        return True

    def _refuse(self, name: str, message: str) -> bool:
        self.error.setText(f"{name}: {message}")
        self.refused.emit(f"{name}: {message}")
        return False


def _widget_kind(name: str, schema: dict) -> str:
    kind = schema.get("type")
    if "enum" in schema:
        return "enum"
    if kind == "boolean":
        return "bool"
    if kind == "string" or _is_text(schema):
        return "long" if name in LONG_TEXTS else "text"
    if kind in ("integer", "number"):
        return "number"
    return "yaml"


def _is_text(schema: dict) -> bool:
    """The format's translatable text ($defs/text): a string, whatever its constraints."""
    return schema.get("type") == "string" or (isinstance(schema.get("minLength"), int) and "type" not in schema)


def _placeholder(schema: dict) -> str:
    kind = schema.get("type")
    if kind == "integer":
        low, high = schema.get("minimum"), schema.get("maximum")
        span = f" {low}…{high}" if low is not None and high is not None else (f" ≥ {low}" if low is not None else "")
        return f"a whole number{span}"
    if kind == "number":
        return "a number"
    if kind == "array":
        return "[a, b, …]"
    if kind == "object":
        return "name: value, …"
    return ""


def _parsed(text: str):
    """What a line of flow text stands for; a ValueError (to refuse with) when it is not YAML."""
    if not text.strip():
        return MISSING
    try:
        return parse_value(text)
    except ValueError as problem:
        return problem


def _parsed_block(text: str):
    """What a box of YAML stands for; a ValueError (to refuse with) when it is not YAML."""
    if not text.strip():
        return MISSING
    try:
        return parse_yaml(text + "\n", Path("<form>")).data
    except YamlRefused as refused:
        return ValueError(refused.diagnostic.message)


def _block_text(value) -> str:
    return "" if value is MISSING or value is None else dump_canonical(value).rstrip("\n")


def _typed(text: str, schema: dict):
    """A drop-down's choice as the value the schema wants (the enum's own value, not its text)."""
    if not text:
        return MISSING
    for value in schema.get("enum", []):
        if str(value) == text:
            return value
    return text


def _show(field: QWidget, value) -> None:
    """Put a value into a field without it reporting an edit, and never over what is being typed."""
    blocker = QSignalBlocker(field)
    if isinstance(field, QComboBox):
        text = "" if value is MISSING or value is None else str(value)
        if field.currentText() != text:
            if field.isEditable():
                field.setCurrentText(text)
            else:
                found = field.findText(text)
                if found < 0:   # a value the choices lack (a typo in the file): shown, not lost
                    field.addItem(text)
                    found = field.count() - 1
                field.setCurrentIndex(found)
    elif isinstance(field, QCheckBox):
        field.setChecked(value is True)
    elif isinstance(field, TextBox):
        text = _block_text(value) if field.property("yaml") else (value if isinstance(value, str) else "")
        if field.toPlainText() != text and not field.hasFocus():
            field.setPlainText(text)
            field.document().setModified(False)
    elif isinstance(field, QLineEdit):
        text = "" if value is MISSING else (value if isinstance(value, str) else to_text(value))
        if field.text() != text and not field.isModified():
            field.setText(text)
            field.setCursorPosition(0)   # a long value shows its start
    blocker.unblock()

