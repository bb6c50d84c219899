"""The inspector: every field of the chosen entity, editable, including ones no table shows.

Text fields are edited as text; any other value as one line of YAML flow text, so nothing in the
file is out of reach and nothing is lost.
"""
from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from sandtable.merge import identity
from sandtable.texts import TRANSLATABLE_FIELDS

from .commands import MISSING
from .document import ScenarioDocument
from .flowtext import parse_value, to_text

TEXT_FIELDS = set(TRANSLATABLE_FIELDS) | {"source", "notes"}


class Inspector(QWidget):
    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.kind: str | None = None
        self.locator: tuple = ()
        self.title = QLabel("Nothing selected")
        self.title.setWordWrap(True)
        self.form = QFormLayout()
        self.error = QLabel("")
        self.error.setStyleSheet("color: #b3261e")
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addLayout(self.form)
        layout.addWidget(self.error)
        layout.addStretch()
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
        while self.form.rowCount():
            self.form.removeRow(0)
        self.fields = {}
        entity = self.entity()
        if entity is None:
            self.title.setText("Nothing selected")
            return
        key = identity(entity)
        label = " – ".join(key[1]) if isinstance(key[1], tuple) else key[1]
        self.title.setText(f"<b>{self.kind}</b> · {self.locator[-1][0]} · {label}")
        for name, value in entity.items():
            if key and name == key[0]:
                continue
            edit = QLineEdit(value if name in TEXT_FIELDS and isinstance(value, str) else to_text(value))
            edit.setObjectName(f"field-{name}")
            edit.editingFinished.connect(lambda name=name, edit=edit: self._commit(name, edit.text()))
            self.fields[name] = edit
            self.form.addRow(name.replace("_", " "), edit)

    def _commit(self, name: str, text: str) -> None:
        entity = self.entity()
        if entity is None or self.kind is None:
            return
        try:
            value = text if name in TEXT_FIELDS and isinstance(entity.get(name), str) else parse_value(text)
        except ValueError as problem:
            self.error.setText(str(problem))
            return
        self.error.setText("")
        if value in ("", None):
            value = MISSING
        if value == entity.get(name, MISSING):
            return
        self.document.set_field(self.kind, self.locator, (name,), value, f"Set {name}")
