"""The inspector: every field of the chosen entity, editable, including ones no table shows.

Text fields are edited as text; any other value as one line of YAML flow text, so nothing in the
file is out of reach and nothing is lost.

An edit here comes back as a change of the document while the field is still emitting
editingFinished; the form is then updated in place, and only rebuilt (the old one hidden and
handed to deleteLater) when the entity or its fields change.
"""
from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from sandtable.merge import identity
from sandtable.schemas import SchemaNode, root_node
from sandtable.texts import TRANSLATABLE_FIELDS

from .commands import MISSING
from .document import ScenarioDocument
from .explain import explanation, new_problems
from .flowtext import parse_value, to_text
from .forms import FormSlot

TEXT_FIELDS = set(TRANSLATABLE_FIELDS) | {"source", "notes"}


class Inspector(QWidget):
    refused = Signal(str)   # an edit was not stored, and why

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.kind: str | None = None
        self.locator: tuple = ()
        self.title = QLabel("Nothing selected")
        self.title.setWordWrap(True)
        self.error = QLabel("")
        self.error.setStyleSheet("color: #b3261e")
        self.error.setWordWrap(True)
        # Any field the schema allows that the entity does not have yet (a unit's stats, a
        # space's tags ...): chosen by name, typed as the fields above are.
        self.new_field = QComboBox()
        self.new_field.setObjectName("new-field")
        self.new_field.setToolTip("A field the format allows here that this entry has not got yet")
        self.new_value = QLineEdit()
        self.new_value.setObjectName("new-value")
        self.new_value.setPlaceholderText("value")
        self.new_value.returnPressed.connect(self.add_field)
        add = QPushButton("Add field")
        add.clicked.connect(self.add_field)
        self.adding = QWidget()
        row = QHBoxLayout(self.adding)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.new_field)
        row.addWidget(self.new_value, 1)
        row.addWidget(add)
        self._layout = QVBoxLayout(self)
        self._layout.addWidget(self.title)
        self.slot = FormSlot(self._layout)
        self._layout.addWidget(self.adding)
        self._layout.addWidget(self.error)
        self._layout.addStretch()
        self.adding.hide()
        self._shape: tuple | None = None
        self.fields: dict[str, QLineEdit] = {}
        document.changed.connect(lambda kind: self.refresh() if kind == self.kind else None)
        document.reloaded.connect(self.refresh)

    def show_entity(self, kind: str, locator: tuple) -> None:
        self.kind, self.locator = kind, tuple(locator)
        self.refresh()

    def entity(self) -> dict | None:
        if not self.kind or not self.locator:
            return None
        return self.document.find_merged(self.kind, self.locator)

    def refresh(self) -> None:
        entity = self.entity()
        if entity is None:
            self._shape = None
            self.slot.renew()
            self.fields = {}
            self.title.setText("Nothing selected")
            self.adding.hide()
            return
        key = identity(entity)
        names = [name for name in entity if not (key and name == key[0])]
        shape = (self.kind, self.locator, tuple(names))
        if shape != self._shape:
            self._shape = shape
            self.slot.renew()
            self.fields = {}
            label = " – ".join(key[1]) if isinstance(key[1], tuple) else key[1]
            self.title.setText(f"<b>{self.kind}</b> · {self.locator[-1][0]} · {label}")
            for name in names:
                edit = QLineEdit()
                edit.setObjectName(f"field-{name}")
                edit.editingFinished.connect(lambda name=name, edit=edit: self._commit(name, edit.text()))
                self.fields[name] = edit
                self.slot.form.addRow(name.replace("_", " "), edit)
            self.slot.show()
        for name in names:
            self._show(name, entity[name])
        self._offer_fields(entity)

    def schema(self) -> SchemaNode | None:
        """The schema of the chosen entity: its file's, down the collections of its locator."""
        if not self.kind or self.kind.startswith("locale"):
            return None
        node = root_node(self.kind)
        for collection, *_ in self.locator:
            node = node.child(collection).child(0)
        return node

    def _offer_fields(self, entity: dict) -> None:
        node = self.schema()
        missing = [n for n in (node.property_order() if node else []) if n not in entity and n != "remove"]
        chosen = self.new_field.currentText()
        if [self.new_field.itemText(i) for i in range(self.new_field.count())] != missing:
            self.new_field.clear()
            self.new_field.addItems(missing)
            if chosen in missing:
                self.new_field.setCurrentText(chosen)
        self.adding.setVisible(bool(missing))
        if node is not None:
            self.new_field.setToolTip("\n".join(
                f"{n}: {node.child(n).schema.get('description', '')}".rstrip(": ") for n in missing[:30]))

    def add_field(self) -> bool:
        """Give the entity a field it has not got (one undo step), if the schema takes the value."""
        name, text = self.new_field.currentText(), self.new_value.text()
        entity = self.entity()
        if not name or entity is None or self.kind is None or name in entity:
            return False
        node = self.schema()
        text_field = node is not None and node.child(name).schema.get("type") == "string"
        try:
            value = text.strip() if name in TEXT_FIELDS or text_field else parse_value(text)
        except ValueError as problem:
            self._refuse(name, str(problem))
            return False
        if value in ("", None):
            self._refuse(name, "type the value first")
            return False
        problems = new_problems(self.document, self.kind, self.locator, (name,), value, MISSING)
        if problems:
            self._refuse(name, explanation(problems))
            return False
        self.error.setText("")
        self.new_value.clear()
        self.document.set_field(self.kind, self.locator, (name,), value, f"Add {name} to {self._label()}")
        return True

    def _show(self, name: str, value) -> None:
        """The value in its field (without reporting an edit), styled by where it comes from."""
        edit = self.fields[name]
        text = value if name in TEXT_FIELDS and isinstance(value, str) else to_text(value)
        if edit.text() != text and not edit.isModified():
            blocker = QSignalBlocker(edit)
            edit.setText(text)
            blocker.unblock()
        status, parent = self._status(name)
        font = edit.font()
        font.setItalic(status == "inherited")
        font.setBold(status == "overridden")
        edit.setFont(font)
        edit.setStyleSheet({"inherited": "color: #7a7a7a", "overridden": "background: #fff1c2"}.get(status, ""))
        edit.setToolTip({"inherited": "inherited from the parent scenario",
                         "overridden": f"overrides the parent's value: {to_text(parent)}",
                         "added": "added by this variant"}.get(status, ""))
        for action in edit.actions():
            edit.removeAction(action)
        if status == "overridden":
            revert = QAction("Revert to inherited", edit)
            revert.triggered.connect(lambda _=False, name=name: self.revert(name))
            edit.addAction(revert)
            edit.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        else:
            edit.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)

    def _status(self, name: str) -> tuple[str, object]:
        if not self.document.is_variant or self.kind is None:
            return "own", None
        parent = self.document.parent_entity(self.kind, self.locator)
        if parent is None:
            return "added", None
        own = self.document.own_entity(self.kind, self.locator)
        if own is None or name not in own:
            return "inherited", None
        return "overridden", parent.get(name, MISSING)

    def _label(self) -> str:
        """The chosen entity as the history names it: its id, or its pair of spaces."""
        ident = self.locator[-1][1][1] if self.locator else ""
        return " – ".join(ident) if isinstance(ident, tuple) else str(ident)

    def revert(self, name: str) -> bool:
        return self.kind is not None and self.document.revert_field(self.kind, self.locator, (name,))

    def _commit(self, name: str, text: str) -> None:
        entity = self.entity()
        if entity is None or self.kind is None:
            return
        try:
            value = text if name in TEXT_FIELDS and isinstance(entity.get(name), str) else parse_value(text)
        except ValueError as problem:
            return self._refuse(name, str(problem))
        if value in ("", None):
            value = MISSING
        if value == entity.get(name, MISSING):
            return
        problems = new_problems(self.document, self.kind, self.locator, (name,), value,
                                entity.get(name, MISSING))
        if problems:
            return self._refuse(name, explanation(problems))
        self.error.setText("")
        self.fields[name].setModified(False)
        self.document.set_field(self.kind, self.locator, (name,), value, f"Set {name} of {self._label()}")

    def _refuse(self, name: str, message: str) -> None:
        self.error.setText(f"{name}: {message}")
        self.refused.emit(f"{name}: {message}")
