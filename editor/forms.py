"""A form that is rebuilt while one of its own fields may still be emitting a signal.

The new form is built apart, then put in the old one's place; the old one is hidden at once and
deleted by the event loop, after the signal that led here has returned. (Deleting a field inside
its own signal, say a spin box's editingFinished on Return, crashes in Qt's code that runs after.)
"""
from __future__ import annotations

from PySide6.QtWidgets import QBoxLayout, QFormLayout, QWidget


class FormSlot:
    def __init__(self, layout: QBoxLayout, stretch: int = 0):
        self.layout = layout
        self.host = QWidget()
        self.form = QFormLayout(self.host)
        layout.addWidget(self.host, stretch)

    def renew(self) -> QFormLayout:
        """An empty form in place of the current one; fill it right away."""
        old = self.host
        for field in old.findChildren(QWidget):
            field.blockSignals(True)   # a field going away (losing focus) reports no edit
        self.host = QWidget()
        self.form = QFormLayout(self.host)
        self.layout.replaceWidget(old, self.host)
        old.hide()
        old.deleteLater()
        return self.form

    def show(self) -> None:
        """Show the form once filled (fields added to a shown form would stay hidden)."""
        parent = self.host.parentWidget()
        if parent is not None and parent.isVisible():
            self.host.show()
