"""A designer's gestures on the editor's widgets, as real mouse clicks and key presses."""
from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QPushButton


def button(parent, text: str) -> QPushButton:
    return next(b for b in parent.findChildren(QPushButton) if b.text() == text)


def click(qtbot, widget) -> None:
    qtbot.mouseClick(widget, Qt.LeftButton)


def click_row(qtbot, view, row: int, column: int = 0, modifier=Qt.NoModifier) -> None:
    """A left click at the centre of the model row's cell, on the view's viewport."""
    index = view.proxy.mapFromSource(view.source.index(row, column))
    view.scrollTo(index)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, modifier, view.visualRect(index).center())


def retype(qtbot, field, text: str) -> None:
    """Click into a line, select what is there, type `text`, press Return."""
    qtbot.mouseClick(field, Qt.LeftButton)
    qtbot.keyClick(field, Qt.Key_A, Qt.ControlModifier)
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key_Return)


def edit_cell(qtbot, view, row: int, column: int, text: str) -> None:
    """Click a cell, double-click it, type over it, press Return (a view commits its editor from
    the event loop: it is given a moment)."""
    index = view.proxy.mapFromSource(view.source.index(row, column))
    view.scrollTo(index)
    centre = view.visualRect(index).center()
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=centre)
    qtbot.mouseDClick(view.viewport(), Qt.LeftButton, pos=centre)
    editor = QApplication.focusWidget()
    line = editor if isinstance(editor, QLineEdit) else editor.lineEdit()
    line.selectAll()
    qtbot.keyClicks(line, text)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key_Return)
    qtbot.wait(1)


def type_into_add_row(qtbot, page, name: str) -> None:
    """Press the page's Add button, type the name into the add row, press Return."""
    qtbot.mouseClick(page.add_button, Qt.LeftButton)
    editor = QApplication.focusWidget()
    qtbot.keyClicks(editor, name)
    qtbot.keyClick(editor, Qt.Key_Return)
    qtbot.wait(1)


def drag(qtbot, view, start, end, modifier=Qt.NoModifier) -> None:
    """Press at a scene point, move through the middle, release at another (a map gesture)."""
    viewport = view.viewport()
    a, b = view.mapFromScene(start), view.mapFromScene(end)
    qtbot.mousePress(viewport, Qt.LeftButton, modifier, a)
    qtbot.mouseMove(viewport, QPoint((a.x() + b.x()) // 2, (a.y() + b.y()) // 2))
    qtbot.mouseMove(viewport, b)
    qtbot.mouseRelease(viewport, Qt.LeftButton, modifier, b)
