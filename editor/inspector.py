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
from PySide6.QtWidgets import QLabel, QLineEdit, QVBoxLayout, QWidget

from sandtable.merge import identity
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
        self._layout = QVBoxLayout(self)
        self._layout.addWidget(self.title)
        self.slot = FormSlot(self._layout)
        self._layout.addWidget(self.error)
        self._layout.addStretch()
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
        self.document.set_field(self.kind, self.locator, (name,), value, f"Set {name}")

    def _refuse(self, name: str, message: str) -> None:
        self.error.setText(f"{name}: {message}")
        self.refused.emit(f"{name}: {message}")
