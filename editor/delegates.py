"""Cell editors: a combo box wherever the model offers a column's allowed values.

Each view gets a delegate of its own (`ChoiceDelegate(view)`): a delegate's commitData signal
reaches every view it is set on, and a view handed another view's editor warns about it.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit, QStyledItemDelegate

from .models.entity_table import CHOICES_ROLE, STRICT_ROLE


class ChoiceDelegate(QStyledItemDelegate):
    def createEditor(self, parent, option, index):
        choices = index.data(CHOICES_ROLE)
        if choices is None:
            # Made here rather than by the base class: an editor Qt makes and hands through Python
            # keeps a Python wrapper alive after the view deletes it (one per edit, for good).
            editor = QLineEdit(parent)
            editor.setFrame(False)
            return editor
        combo = QComboBox(parent)
        strict = bool(index.data(STRICT_ROLE))
        # A fixed set of values (a schema enum) takes only those; a column of ids also takes
        # one not defined yet, which the problems list then shows until it is.
        combo.setEditable(not strict)
        combo.addItems(([] if strict else [""]) + [str(c) for c in choices])
        return combo

    def setEditorData(self, editor, index):
        if isinstance(editor, QLineEdit):
            editor.setText(str(index.data(Qt.ItemDataRole.EditRole) or ""))
        elif isinstance(editor, QComboBox):
            text = str(index.data(Qt.ItemDataRole.EditRole) or "")
            if editor.isEditable():
                editor.setCurrentText(text)
            else:
                editor.setCurrentIndex(max(editor.findText(text), 0))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor, model, index):
        if isinstance(editor, QLineEdit):
            model.setData(index, editor.text(), Qt.ItemDataRole.EditRole)
        elif isinstance(editor, QComboBox):
            model.setData(index, editor.currentText(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)
