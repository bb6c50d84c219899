"""Bad input is explained, drop-downs keep to their values, every table filters, and no Qt warning
reaches the terminal. All typed with real key presses into the cells."""
from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QComboBox  # noqa: E402

from editor.models.entity_table import PROBLEM_BACKGROUND  # noqa: E402
from editor.roles import BACKGROUND, TOOLTIP  # noqa: E402
from editor.table_page import TablePage  # noqa: E402


@pytest.fixture
def window(open_editor, workshop, qt_warnings):
    main = open_editor()
    main.activateWindow()
    main.open_folder(workshop)
    return main


def type_into(qtbot, window, page, row: int, header: str, text: str) -> None:
    """Click the cell, F2, select what is there, type, Return: as a designer does."""
    window.tabs.setCurrentWidget(next(window.tabs.widget(i) for i in range(window.tabs.count())
                                      if window.tabs.widget(i) is page or window.tabs.widget(i).isAncestorOf(page)))
    view = page.view
    column = [page.model.headerData(c, Qt.Horizontal) for c in range(page.model.columnCount())].index(header)
    index = view.proxy.mapFromSource(page.model.index(row, column))
    view.scrollTo(index)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.visualRect(index).center())
    qtbot.keyClick(view, Qt.Key_F2)
    editor = QApplication.focusWidget()
    if isinstance(editor, QComboBox) and not editor.isEditable():
        qtbot.keyClicks(editor, text[:1])
    else:
        qtbot.keyClick(editor, Qt.Key_A, Qt.ControlModifier)
        qtbot.keyClicks(editor, text)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key_Return)
    qtbot.wait(1)


def test_a_refused_number_says_why_in_the_validators_words(qtbot, window, qt_warnings):
    page = window.spaces_page
    row = page.model.row_of(("id", "finland"))
    type_into(qtbot, window, page, row, "Value", "two")
    finland = next(s for s in window.document.own("map")["spaces"] if s["id"] == "finland")
    assert finland["value"] == 2 and window.document.undo_stack.count() == 0
    said = "Value: expected a number, found the text 'two'"
    assert window.statusBar().currentMessage() == f"Not stored — {said}"
    index = page.model.index(row, 3)
    assert page.model.data(index, TOOLTIP).startswith("expected a number, found the text 'two'")
    assert page.model.data(index, BACKGROUND).color() == PROBLEM_BACKGROUND
    type_into(qtbot, window, page, row, "Value", "-1")     # a number is a number: stored
    assert next(s for s in window.document.own("map")["spaces"] if s["id"] == "finland")["value"] == -1
    assert page.model.data(index, TOOLTIP) is None
    assert qt_warnings == []


def test_broken_text_in_a_card_effect_is_explained(qtbot, window, qt_warnings):
    panel = window.decks_panel
    panel.select((("decks", ("id", "german-orders")), ("cards", ("id", "g1"))))
    type_into(qtbot, window, panel.effect_page, 0, "Parameters", "groups: [1, 2")
    assert window.document.own("decks")["decks"][0]["cards"][0]["effects"] == [{"op": "move_again", "groups": 1}]
    assert window.statusBar().currentMessage().startswith("Not stored — Parameters: YAML syntax error")
    assert panel.effects.data(panel.effects.index(0, 1), TOOLTIP).startswith("YAML syntax error")
    type_into(qtbot, window, panel.effect_page, 0, "Parameters", "groups: 2, hidden: true")
    assert window.document.own("decks")["decks"][0]["cards"][0]["effects"] == [
        {"op": "move_again", "groups": 2, "hidden": True}]
    assert qt_warnings == []


def test_a_fixed_list_takes_only_its_values_and_a_list_of_ids_takes_a_new_one_with_a_word(
        qtbot, window, qt_warnings):
    page = window.spaces_page
    row = page.model.row_of(("id", "norway"))
    type_into(qtbot, window, page, row, "Kind", "s")         # the drop-down: s... is sea
    assert next(s for s in window.document.own("map")["spaces"] if s["id"] == "norway")["kind"] == "sea"
    kind = page.model.index(row, 2)
    assert not page.model.setData(kind, "lnad")               # pasted, say: refused, with a hint
    assert window.statusBar().currentMessage() == "Not stored — Kind: 'lnad' is not allowed here (did you mean 'land'?)"
    setup = window.setup_panel.page
    type_into(qtbot, window, setup, 0, "Unit", "panzer")
    assert window.document.own("setup")["spaces"][0]["units"][0]["type"] == "panzer"
    assert window.statusBar().currentMessage().startswith(
        "Unit: 'panzer' is not defined in this scenario (known: infantry, artillery")
    qtbot.waitUntil(lambda: any(d.code == "REF001" and "panzer" in d.message
                                for d in window.problems_model.diagnostics), timeout=10_000)
    assert qt_warnings == []


def test_every_table_has_a_filter_box(qtbot, window):
    pages = window.findChildren(TablePage)
    assert len(pages) == 24   # every table of the document, and the problems
    page = window.spaces_page
    window.tabs.setCurrentWidget(page)
    qtbot.keyClicks(page.filter, "sea zone")
    shown = [page.view.model().index(r, 1).data() for r in range(page.view.model().rowCount())]
    seas = [s["name"] for s in window.document.own("map")["spaces"] if s["name"].startswith("Sea Zone")]
    assert len(seas) >= 2 and shown == seas + ["+ new space (type its name)"]
    page.filter.clear()
    assert page.view.model().rowCount() == page.model.rowCount()
    # An edited row that no longer matches stays until the filter changes (no row vanishes
    # from under its editor).
    qtbot.keyClicks(page.filter, "sea zone")
    type_into(qtbot, window, page, page.model.row_of(("id", "sz-5")), "Name", "Gulf of Bothnia")
    assert page.view.model().rowCount() == len(seas) + 1
    assert "Gulf of Bothnia" in [page.view.model().index(r, 1).data() for r in range(len(seas))]
