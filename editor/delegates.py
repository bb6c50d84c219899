"""Cell editors: a combo box wherever the model offers a column's allowed values."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QStyledItemDelegate

from .models.entity_table import CHOICES_ROLE


class ChoiceDelegate(QStyledItemDelegate):
    def createEditor(self, parent, option, index):
        choices = index.data(CHOICES_ROLE)
        if choices is None:
            return super().createEditor(parent, option, index)
        combo = QComboBox(parent)
        combo.setEditable(True)
        combo.addItems([""] + [str(c) for c in choices])
        return combo

    def setEditorData(self, editor, index):
        if isinstance(editor, QComboBox):
            editor.setCurrentText(str(index.data(Qt.EditRole) or ""))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor, model, index):
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentText(), Qt.EditRole)
        else:
            super().setModelData(editor, model, index)
