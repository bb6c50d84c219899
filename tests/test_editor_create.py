"""Creating and deleting everything from the interface, each one undo step, with ids made from the
names and kept unique: spaces, unit types, sides and nations, decks and cards, results tables and
their rows and columns, options, locales."""
from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton  # noqa: E402

from editor.ids import slug, unique_id  # noqa: E402


@pytest.fixture
def window(open_editor, workshop):
    return open_editor(workshop)


def add_by_typing(qtbot, window, page, name: str) -> None:
    """Click the page's Add button, type the name into the add row, press Return."""
    window.tabs.setCurrentWidget(window.tabs.widget(next(
        i for i in range(window.tabs.count()) if window.tabs.widget(i).isAncestorOf(page)
        or window.tabs.widget(i) is page)))
    qtbot.mouseClick(page.add_button, Qt.LeftButton)
    editor = QApplication.focusWidget()
    qtbot.keyClicks(editor, name)
    qtbot.keyClick(editor, Qt.Key_Return)
    qtbot.wait(1)


def last(window, kind, collection):
    return window.document.own(kind)[collection][-1]


def test_ids_come_from_names_and_stay_unique():
    assert slug("Sea Zone 7") == "sea-zone-7" and slug("Über-Land!") == "uber-land" and slug("俄罗斯") == ""
    assert unique_id("norway", {"norway", "norway-2"}) == "norway-3"


def test_spaces_from_the_add_row_and_removed_by_selection(qtbot, window):
    page, stack = window.spaces_page, window.document.undo_stack
    add_by_typing(qtbot, window, page, "Sea Zone 7")
    assert last(window, "map", "spaces") == {"id": "sea-zone-7", "name": "Sea Zone 7", "kind": "land"}
    add_by_typing(qtbot, window, page, "Norway")
    assert last(window, "map", "spaces")["id"] == "norway-2"
    assert stack.count() == 2 and stack.text(1) == "Add space norway-2"
    assert "norway-2" in window.scene.spaces
    page.view.select_row(page.model.row_of(("id", "sea-zone-7")))
    qtbot.mouseClick(page.remove_button, Qt.LeftButton)
    assert "sea-zone-7" not in [s["id"] for s in window.document.own("map")["spaces"]]
    stack.undo()
    assert "sea-zone-7" in window.scene.spaces


def test_unit_types_sides_nations_and_options(qtbot, window, monkeypatch):
    add_by_typing(qtbot, window, window.units_page, "Heavy Tank")
    assert last(window, "units", "unit_types") == {"id": "heavy-tank", "name": "Heavy Tank", "domain": "land"}
    nations = window.nations_panel
    add_by_typing(qtbot, window, nations.sides, "Neutrals")
    assert last(window, "scenario", "sides") == {"id": "neutrals", "name": "Neutrals"}
    add_by_typing(qtbot, window, nations.nations, "Finland")
    assert last(window, "scenario", "nations") == {"id": "finland", "name": "Finland", "side": "axis"}
    add_by_typing(qtbot, window, window.options_page, "Fast game")
    assert last(window, "scenario", "options") == {"id": "fast-game-2", "name": "Fast game", "default": False}
    stack = window.document.undo_stack
    assert [stack.text(i) for i in range(stack.count())] == [
        "Add unit type heavy-tank", "Add side neutrals", "Add nation finland", "Add option fast-game-2"]
    nations.nations.view.select_row(nations.nations.model.row_of(("id", "germany")))
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a: asked.append(a[2]) or QMessageBox.StandardButton.Yes)
    assert nations.nations.remove_selected()
    assert "germany" not in [n["id"] for n in window.document.own("scenario")["nations"]]
    # Others name Germany (its turn, its units, objectives ...): that was said first.
    assert len(asked) == 1 and asked[0].split(" reference(s)")[0].isdigit() and "in setup.yaml" in asked[0]


def test_decks_and_cards(qtbot, window):
    panel = window.decks_panel
    add_by_typing(qtbot, window, panel.deck_page, "Soviet orders")
    assert last(window, "decks", "decks") == {"id": "soviet-orders", "name": "Soviet orders", "cards": []}
    panel.select((("decks", ("id", "soviet-orders")),))
    add_by_typing(qtbot, window, panel.card_page, "General Winter")
    assert last(window, "decks", "decks")["cards"] == [{"id": "general-winter", "title": "General Winter"}]
    panel.select((("decks", ("id", "german-orders")),))
    assert [panel.cards.data(panel.cards.index(r, 2)) for r in range(panel.cards.rowCount())] == [
        "Advance", "Hold", "+ new card (type its name)"]
    panel.card_view.select_row(1)
    assert panel.card_page.remove_selected()
    assert [c["id"] for c in window.document.own("decks")["decks"][0]["cards"]] == ["g1"]


def test_results_tables_and_their_rows_and_columns(qtbot, window):
    panel, stack = window.tables_panel, window.document.undo_stack
    add_by_typing(qtbot, window, panel.list_page, "Air raid")
    table = last(window, "tables", "tables")
    assert table["id"] == "air-raid" and table["axes"][0]["values"] == [1, 2, 3, 4, 5, 6]
    assert len(table["cells"]) == 6
    panel.select(("id", "weather"))
    qtbot.keyClicks(panel.new_label, "spring")
    qtbot.mouseClick(next(b for b in panel.grid_page.findChildren(QPushButton) if b.text() == "Add column"),
                     Qt.LeftButton)
    weather = window.document.own("tables")["tables"][0]
    assert weather["axes"][1]["values"] == ["summer", "winter", "spring"]
    assert weather["cells"][0] == ["clear", "snow", None]
    assert stack.text(stack.count() - 1) == "Add column spring" and stack.count() == 2
    panel.new_label.setText("7")
    assert panel.add_row()
    assert window.document.own("tables")["tables"][0]["axes"][0]["values"][-1] == 7
    panel.grid_view.setCurrentIndex(panel.grid_view.model().index(0, 1))
    assert panel.remove_column()
    panel.grid_view.setCurrentIndex(panel.grid_view.model().index(0, 0))
    assert panel.remove_row()
    weather = window.document.own("tables")["tables"][0]
    assert weather["axes"][1]["values"] == ["summer", "spring"] and weather["axes"][0]["values"][0] == 2
    assert weather["cells"][0] == ["clear", None] and len(weather["cells"]) == 6
    for _ in range(4):
        stack.undo()
    assert window.document.own("tables")["tables"][0]["cells"][0] == ["clear", "snow"]


def test_locales_are_started_and_removed(qtbot, window):
    panel, document = window.translation_panel, window.document
    window.tabs.setCurrentWidget(panel)
    qtbot.keyClicks(panel.new_tag, "ja")
    assert panel.start_locale()
    assert document.locale_tags == ["ja", "zh-Hans"] and panel.locale_box.currentText() == "ja"
    panel.show_locale("zh-Hans")
    assert panel.remove_locale()
    assert document.locale_tags == ["ja"]
    written = document.save()
    assert {p.name for p in written} == {"ja.yaml", "zh-Hans.yaml"}
    assert (document.root / "locales" / "ja.yaml").read_text().endswith("locale: ja\n")
    assert not (document.root / "locales" / "zh-Hans.yaml").exists()
    document.undo_stack.undo()
    assert document.locale_tags == ["ja", "zh-Hans"]
    document.save()
    assert (document.root / "locales" / "zh-Hans.yaml").exists()
