"""Driving the editor like a designer in a hurry: random real key presses and mouse clicks on every
table, form and the map, with undo and redo mixed in. Seeded, so a failure can be replayed.

Used by tests/test_editor_soak.py (a short run in CI) and benchmarks/editor.py (the long run).
Nothing here calls a model or the document directly: every change goes through the widgets.
"""
from __future__ import annotations

import random

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QWidget,
)

# What a hurried designer types into a cell: good values, wrong ones, and nothing.
TYPED = ["3", "0", "-1", "12", "2.5", "two", "", "land", "sea", "germany", "soviet-union", "axis",
         "panzer", "Norway", "[a, b]", "{x: 1}", "x: [", "infantry", "armour", "true", "no",
         "Sea Zone 7", "Über-Land", "#fff", "2d6", "neutral, fortress", "俄罗斯"]


class Soak:
    """One random designer at one window. `run(steps)` returns how many of each action it did."""

    def __init__(self, window, seed: int = 1941):
        self.window = window
        self.random = random.Random(seed)
        self.done: dict[str, int] = {}
        self.trace = False
        self.actions = [
            (self.edit_cell, 30), (self.add_row, 6), (self.remove_row, 4), (self.undo, 14),
            (self.redo, 8), (self.condition, 10), (self.inspector, 6), (self.map_gesture, 8),
            (self.filter, 3), (self.grid_shape, 3), (self.effects, 3),
        ]
        self._weights = [w for _, w in self.actions]

    # -- running ----------------------------------------------------------------------------
    def answer(self, parent, title, text, *args, **kwargs):
        """The designer's answer when a removal would break references (editor/removal.py): yes or
        no, at random; the one question the soak expects."""
        if "would then name nothing" not in text:
            raise AssertionError(f"unexpected question: {text}")
        self.done["answered"] = self.done.get("answered", 0) + 1
        return self.random.choice([QMessageBox.StandardButton.Yes, QMessageBox.StandardButton.No])

    def run(self, steps: int, after_step=None) -> dict[str, int]:
        asked, QMessageBox.question = QMessageBox.question, self.answer   # no modal box waits for a click
        try:
            return self._run(steps, after_step)
        finally:
            QMessageBox.question = asked

    def _run(self, steps: int, after_step=None) -> dict[str, int]:
        for step in range(steps):
            action = self.random.choices(self.actions, self._weights)[0][0]
            if action():
                self.done[action.__name__] = self.done.get(action.__name__, 0) + 1
            QApplication.processEvents()
            if after_step is not None:
                after_step(step)
        self.close_editors()
        return self.done

    def log(self, message: str) -> None:
        if self.trace:
            print(message, flush=True)

    def pick(self, values):
        return values[self.random.randrange(len(values))] if values else None

    def close_editors(self) -> None:
        focus = QApplication.focusWidget()
        if focus is not None:
            QTest.keyClick(focus, Qt.Key_Escape)
        QApplication.processEvents()

    def show_tab(self, page: QWidget) -> None:
        tabs = self.window.tabs
        for index in range(tabs.count()):
            if tabs.widget(index) is page or tabs.widget(index).isAncestorOf(page):
                if tabs.currentIndex() != index:
                    bar = tabs.tabBar()
                    QTest.mouseClick(bar, Qt.LeftButton, Qt.NoModifier, bar.tabRect(index).center())
                return

    def pages(self) -> list:
        w = self.window
        return [w.spaces_page, w.borders_page, w.units_page, w.nations_panel.sides,
                w.nations_panel.nations, w.setup_panel.page, w.objectives_panel.page,
                w.decks_panel.deck_page, w.decks_panel.card_page, w.decks_panel.effect_page,
                w.tables_panel.list_page, w.tables_panel.grid_page, w.options_page,
                w.translation_panel.page]

    # -- tables ------------------------------------------------------------------------------
    def click_cell(self, view, row: int, column: int, modifier=Qt.NoModifier) -> bool:
        index = view.model().index(row, column)
        if not index.isValid():
            return False
        view.scrollTo(index)
        rect = view.visualRect(index)
        if rect.isEmpty():
            return False
        QTest.mouseClick(view.viewport(), Qt.LeftButton, modifier, rect.center())
        return True

    def type_into_focus(self, text: str, finish=Qt.Key_Return) -> None:
        editor = QApplication.focusWidget()
        if editor is None:
            return
        if isinstance(editor, QComboBox) and not editor.isEditable():
            if text:
                type_text(editor, text[:1])
        else:
            QTest.keyClick(editor, Qt.Key_A, Qt.ControlModifier)
            if text:
                type_text(editor, text)
            else:
                QTest.keyClick(editor, Qt.Key_Delete)
        editor = QApplication.focusWidget()
        if editor is not None:
            QTest.keyClick(editor, finish)

    def edit_cell(self) -> bool:
        page = self.pick(self.pages())
        self.show_tab(page)
        view = page.view
        model = view.model()
        if not model.rowCount() or not model.columnCount():
            return False
        row, column = self.random.randrange(model.rowCount()), self.random.randrange(model.columnCount())
        if not self.click_cell(view, row, column):
            return False
        flags = model.flags(model.index(row, column))
        if flags & Qt.ItemIsUserCheckable:
            QTest.keyClick(view, Qt.Key_Space)
            return True
        if not flags & Qt.ItemIsEditable:
            return False
        QTest.keyClick(view, Qt.Key_F2)
        finish = self.pick([Qt.Key_Return, Qt.Key_Return, Qt.Key_Tab, Qt.Key_Escape])
        text = self.pick(TYPED)
        self.log(f"edit {type(model.sourceModel()).__name__} {row},{column} {text!r} {finish}")
        self.type_into_focus(text, finish)
        return True

    def add_row(self) -> bool:
        page = self.pick([p for p in self.pages() if getattr(p, "add_button", None) is not None])
        self.show_tab(page)
        if not page.add_button.isEnabled():
            return False
        QTest.mouseClick(page.add_button, Qt.LeftButton)
        name = self.pick(["New land", "Sea Zone 7", "Blitz", "x", "Norway", "Über"])
        self.log(f"add {page.model.noun} {name!r} focus {type(QApplication.focusWidget()).__name__}")
        self.type_into_focus(name)
        return True

    def remove_row(self) -> bool:
        page = self.pick([p for p in self.pages() if getattr(p, "remove_button", None) is not None])
        self.show_tab(page)
        model = page.view.model()
        if not model.rowCount():
            return False
        row = self.random.randrange(model.rowCount())
        if not self.click_cell(page.view, row, 0):
            return False
        self.log(f"remove {page.model.noun} row {row}")
        QTest.mouseClick(page.remove_button, Qt.LeftButton)
        return True

    def filter(self) -> bool:
        page = self.pick(self.pages())
        self.show_tab(page)
        QTest.mouseClick(page.filter, Qt.LeftButton)
        QTest.keyClick(page.filter, Qt.Key_A, Qt.ControlModifier)
        type_text(page.filter, self.pick(["", "", "or", "a", "zz"]) or "")
        if not page.filter.text():
            QTest.keyClick(page.filter, Qt.Key_Backspace)
        return True

    def grid_shape(self) -> bool:
        panel = self.window.tables_panel
        self.show_tab(panel)
        lists = panel.list_view.model()
        if lists.rowCount() and not self.click_cell(panel.list_view, self.random.randrange(lists.rowCount()), 0):
            return False
        grid = panel.grid_view.model()
        if grid.rowCount() and grid.columnCount():
            self.click_cell(panel.grid_view, self.random.randrange(grid.rowCount()),
                            self.random.randrange(grid.columnCount()))
        QTest.mouseClick(panel.new_label, Qt.LeftButton)
        type_text(panel.new_label, self.pick(["7", "spring", "x"]))
        button = self.pick([b for b in panel.grid_page.findChildren(QPushButton)
                            if b.text() in ("Add row", "Add column", "Remove row", "Remove column")])
        QTest.mouseClick(button, Qt.LeftButton)
        return True

    def effects(self) -> bool:
        panel = self.window.decks_panel
        self.show_tab(panel)
        for view in (panel.deck_view, panel.card_view):
            model = view.model()
            if not model.rowCount() or not self.click_cell(view, self.random.randrange(model.rowCount()), 0):
                return False
        QTest.mouseClick(panel.new_op.lineEdit(), Qt.LeftButton)
        QTest.keyClick(panel.new_op.lineEdit(), Qt.Key_A, Qt.ControlModifier)
        type_text(panel.new_op.lineEdit(), self.pick(["draw", "move_again", "x y"]))
        button = self.pick([b for b in panel.effect_page.findChildren(QPushButton)
                            if b.text() in ("Add effect", "Remove effect")])
        QTest.mouseClick(button, Qt.LeftButton)
        return True

    # -- forms -------------------------------------------------------------------------------
    def condition(self) -> bool:
        panel = self.window.objectives_panel
        self.show_tab(panel)
        objectives = len(panel.model.rows)   # not the add row at the end
        if not objectives or not self.click_cell(panel.view, self.random.randrange(objectives), 0):
            return False
        builder = panel.builder
        tree = builder.tree
        nodes = []

        def walk(parent):
            for row in range(builder.model.rowCount(parent)):
                index = builder.model.index(row, 0, parent)
                nodes.append(index)
                walk(index)
        walk(tree.rootIndex())
        if nodes:
            index = self.pick(nodes)
            tree.scrollTo(index)
            QTest.mouseClick(tree.viewport(), Qt.LeftButton, Qt.NoModifier, tree.visualRect(index).center())
        if self.random.random() < 0.15:
            buttons = [b for b in builder.findChildren(QPushButton) if b.text() in ("Add condition", "Remove")]
            QTest.mouseClick(self.pick(buttons), Qt.LeftButton)
            return True
        fields = [f for f in builder._fields.values() if f.isVisible()]
        field = self.pick(fields)
        if field is None:
            return False
        return self.edit_field(field)

    def edit_field(self, field: QWidget) -> bool:
        if isinstance(field, QCheckBox):
            QTest.mouseClick(field, Qt.LeftButton)
            return True
        target = field.lineEdit() if isinstance(field, (QComboBox, QAbstractSpinBox)) and hasattr(field, "lineEdit") \
            and field.lineEdit() is not None else field
        QTest.mouseClick(target, Qt.LeftButton)
        QTest.keyClick(target, Qt.Key_A, Qt.ControlModifier)
        text = str(self.random.randrange(0, 6)) if isinstance(field, QSpinBox) else self.pick(TYPED)
        if text:
            type_text(target, text)
        QTest.keyClick(target, Qt.Key_Return)
        return True

    def inspector(self) -> bool:
        page = self.pick([self.window.spaces_page, self.window.units_page, self.window.options_page])
        self.show_tab(page)
        model = page.view.model()
        if not model.rowCount() or not self.click_cell(page.view, self.random.randrange(model.rowCount()), 0):
            return False
        fields = [f for f in self.window.inspector.fields.values() if f.isVisible()]
        field = self.pick(fields)
        return field is not None and self.edit_field(field)

    # -- the map -----------------------------------------------------------------------------
    def map_gesture(self) -> bool:
        w = self.window
        self.show_tab(w.map_view.parentWidget())
        view, scene = w.map_view, w.scene
        spaces = list(scene.spaces.values())
        space = self.pick(spaces)
        if space is None:
            return False
        point = view.mapFromScene(space.scenePos())
        viewport = view.viewport()
        if not viewport.rect().contains(point):
            view.centerOn(space)
            point = view.mapFromScene(space.scenePos())
        gesture = self.random.random()
        if gesture < 0.1:
            return self.map_tool(view, viewport)
        QTest.mouseClick(viewport, Qt.LeftButton, Qt.NoModifier, point)
        if gesture < 0.5:
            end = point + QPoint(self.random.randint(-40, 40), self.random.randint(-40, 40))
            QTest.mousePress(viewport, Qt.LeftButton, Qt.NoModifier, point)
            _move(viewport, (point + end) / 2)
            _move(viewport, end)
            QTest.mouseRelease(viewport, Qt.LeftButton, Qt.NoModifier, end)
        elif gesture < 0.7:
            QTest.keyClick(viewport, Qt.Key_F2)
            self.type_into_focus(self.pick(["Nordland", "X", "Sea Zone 9"]))
        elif gesture < 0.8:
            QTest.keyClick(viewport, Qt.Key_Delete)
        else:
            other = self.pick(spaces)
            end = view.mapFromScene(other.scenePos())
            QTest.mousePress(viewport, Qt.LeftButton, Qt.ShiftModifier, point)
            _move(viewport, end)
            QTest.mouseRelease(viewport, Qt.LeftButton, Qt.ShiftModifier, end)
        return True

    def map_tool(self, view, viewport) -> bool:
        """Place a space with the Add space tool on empty canvas, or toggle a layer."""
        page = self.window.map_page
        if self.random.random() < 0.5:
            layer = self.pick(list(page.layer_actions.values()))
            layer.toggle()
            return True
        page.place_action.setChecked(True)
        corner = view.mapFromScene(view.map_scene.map_rect().bottomRight()) + QPoint(20, 20)
        spot = corner if viewport.rect().contains(corner) else QPoint(5, 5)
        QTest.mouseClick(viewport, Qt.LeftButton, Qt.NoModifier, spot)
        page.place_action.setChecked(False)
        return True

    # -- history -----------------------------------------------------------------------------
    def undo(self) -> bool:
        """Ctrl+Z, a few times in a row (as one does, looking for the right state)."""
        self.close_editors()
        for _ in range(self.random.randint(1, 6)):
            QTest.keyClick(self.window.tabs.tabBar(), Qt.Key_Z, Qt.ControlModifier)
        return True

    def redo(self) -> bool:
        self.close_editors()
        for _ in range(self.random.randint(1, 6)):
            QTest.keyClick(self.window.tabs.tabBar(), Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
        return True


def type_text(widget: QWidget, text: str) -> None:
    """Key presses for `text`; characters beyond ASCII as key events carrying their text (an
    input method's way), since QTest.keyClicks knows only ASCII keys."""
    from PySide6.QtGui import QKeyEvent
    for char in text:
        if char.isascii():
            QTest.keyClick(widget, char)
        else:
            for kind in (QKeyEvent.KeyPress, QKeyEvent.KeyRelease):
                QApplication.sendEvent(widget, QKeyEvent(kind, 0, Qt.NoModifier, char))


def _move(widget: QWidget, point) -> None:
    """A mouse move with the left button held (QTest.mouseMove sends no buttons)."""
    from PySide6.QtGui import QMouseEvent
    point = QPointF(point)
    event = QMouseEvent(QMouseEvent.MouseMove, point, widget.mapToGlobal(point), Qt.LeftButton,
                        Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(widget, event)


def own_data(document) -> dict:
    """Every file's own data (what a save would write), for comparing states."""
    from editor.document import copy_data
    return {kind: copy_data(document.own(kind)) for kind in document.files}


def back_to_start(window) -> None:
    """Undo everything and forget the history: the document as opened, and the memory of what
    was done since released, so that what is left is what the editor keeps (a leak, if any)."""
    import gc

    from PySide6.QtCore import QCoreApplication, QEvent
    for _ in range(3):   # close any editor, and let the commits it queued land first
        focus = QApplication.focusWidget()
        if focus is not None:
            QTest.keyClick(focus, Qt.Key_Escape)
        QApplication.processEvents()
    stack = window.document.undo_stack
    stack.setIndex(0)
    stack.clear()
    for _ in range(2):
        QApplication.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.DeferredDelete)
    gc.collect()


def resident_mb() -> float:
    import os
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
