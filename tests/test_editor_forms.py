"""Forms that change the document from inside their own signals: the condition builder and the
inspector, driven with real key presses.

Editing a national objective's `count` and pressing Return used to rebuild the condition form
while the spin box was still handling the key: the spin box was deleted under Qt's feet and the
editor died in libQt6Core. The fields must survive their own edits (they are updated in place).
"""
from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QSpinBox  # noqa: E402


@pytest.fixture
def window(open_editor, workshop):
    return open_editor(workshop)


def objective(window, ident: str) -> dict:
    return next(o for o in window.document.own("objectives")["objectives"] if o["id"] == ident)


def test_editing_count_with_return_forty_times_keeps_the_field_alive(qtbot, window):
    panel = window.objectives_panel
    window.tabs.setCurrentWidget(panel)
    panel.select(("id", "hold-the-north"))
    builder = panel.builder
    tree = builder.tree
    controls = builder.model.index(0, 0, builder.model.index(0, 0))
    qtbot.mouseClick(tree.viewport(), Qt.LeftButton, pos=tree.visualRect(controls).center())
    count = builder.field("count")
    assert isinstance(count, QSpinBox)
    deaths = []
    count.destroyed.connect(lambda: deaths.append("count"))
    for edit in range(40):
        value = 1 + edit % 3
        qtbot.mouseClick(count.lineEdit(), Qt.LeftButton)
        qtbot.keyClick(count.lineEdit(), Qt.Key_A, Qt.ControlModifier)
        qtbot.keyClicks(count.lineEdit(), str(value))
        qtbot.keyClick(count.lineEdit(), Qt.Key_Return)
        qtbot.wait(1)
        assert objective(window, "hold-the-north")["when"]["all"][0]["controls"]["count"] == value
        assert builder.field("count") is count and not deaths   # the same, living, widget
    assert count.hasFocus()   # still typing in it
    # Every Return that changed the value is one undo step, undone in order.
    stack = window.document.undo_stack
    assert stack.count() == 40 and stack.text(0) == "Edit the condition of hold-the-north"


def test_undo_while_a_condition_field_has_focus_updates_it_in_place(qtbot, window):
    panel = window.objectives_panel
    window.tabs.setCurrentWidget(panel)
    panel.select(("id", "defend-moscow"))
    owner = panel.builder.field("owner")
    owner.lineEdit().setFocus()
    qtbot.keyClick(owner.lineEdit(), Qt.Key_A, Qt.ControlModifier)
    qtbot.keyClicks(owner.lineEdit(), "germany")
    qtbot.keyClick(owner.lineEdit(), Qt.Key_Return)
    assert objective(window, "defend-moscow")["when"] == {"controls": {"owner": "germany", "spaces": ["russia"]}}
    window.document.undo_stack.undo()
    assert panel.builder.field("owner") is owner and owner.currentText() == "soviet-union"


def test_the_inspector_commits_with_return_and_keeps_its_field(qtbot, window):
    window.scene.select_space("finland")
    field = window.inspector.fields["value"]
    for value in ("4", "5", "6"):
        field.setFocus()
        qtbot.keyClick(field, Qt.Key_A, Qt.ControlModifier)
        qtbot.keyClicks(field, value)
        qtbot.keyClick(field, Qt.Key_Return)
        assert window.inspector.fields["value"] is field
    finland = next(s for s in window.document.own("map")["spaces"] if s["id"] == "finland")
    assert finland["value"] == 6
    qtbot.keyClick(field, Qt.Key_A, Qt.ControlModifier)
    qtbot.keyClicks(field, "lots")
    qtbot.keyClick(field, Qt.Key_Return)
    assert window.inspector.error.text() == "value: expected a number, found the text 'lots'"
    assert window.statusBar().currentMessage() == "Not stored — value: expected a number, found the text 'lots'"
