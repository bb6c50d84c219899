"""Every master-detail pair shows the highlighted row after a real mouse click.

A mouse press moves a view's current index before its selection; a detail pane that read the
selection inside currentRowChanged showed the row chosen before, and edits then landed on that
other entity (an objective took another's condition, a new card went into the other deck). Each
pair here is driven by clicks on the view's viewport, as a designer drives it.
"""
from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QSpinBox  # noqa: E402

from sandtable.yamlsource import read_yaml_file  # noqa: E402

from editor_gestures import button, click_row, type_into_add_row  # noqa: E402


@pytest.fixture
def window(open_editor, workshop):
    return open_editor(workshop)


def highlighted(view) -> list[int]:
    return [view.to_source(index).row() for index in view.selectionModel().selectedRows()]


def show(window, widget) -> None:
    window.tabs.setCurrentWidget(widget)


def test_an_objective_clicked_gets_the_edit_not_the_one_before(qtbot, window, workshop):
    """The issue's case: click one objective, then another; the builder shows the second one's
    condition, and an edit typed there lands on it alone."""
    panel = window.objectives_panel
    show(window, panel)
    click_row(qtbot, panel.view, 0, 1)
    click_row(qtbot, panel.view, 1, 1)   # defend-moscow
    assert highlighted(panel.view) == [1]
    assert panel.builder.model.condition == {"controls": {"owner": "soviet-union", "spaces": ["russia"]}}
    count = panel.builder.field("count")
    assert isinstance(count, QSpinBox)
    qtbot.mouseClick(count.lineEdit(), Qt.LeftButton)
    qtbot.keyClick(count.lineEdit(), Qt.Key_A, Qt.ControlModifier)
    qtbot.keyClicks(count.lineEdit(), "2")
    qtbot.keyClick(count.lineEdit(), Qt.Key_Return)
    assert window.save()
    saved = {o["id"]: o["when"] for o in read_yaml_file(workshop / "objectives.yaml").data["objectives"]}
    assert saved["defend-moscow"] == {"controls": {"owner": "soviet-union", "spaces": ["russia"], "count": 2}}
    assert saved["hold-the-north"]["all"][0] == {
        "controls": {"owner": "germany", "spaces": ["norway", "finland", "karelia-ssr"], "count": 2}}
    # And back: the first objective's condition again.
    click_row(qtbot, panel.view, 0, 2)
    assert panel.builder.model.condition == saved["hold-the-north"]


def test_after_adding_an_objective_add_condition_works(qtbot, window):
    panel = window.objectives_panel
    show(window, panel)
    click_row(qtbot, panel.view, 1)
    type_into_add_row(qtbot, panel.page, "Hold Karelia")
    assert highlighted(panel.view) == [2] and panel.current_locator() == (("objectives", ("id", "hold-karelia")),)
    panel.builder.op_choice.setCurrentText("turn")
    qtbot.mouseClick(button(panel.builder, "Add condition"), Qt.LeftButton)
    objectives = {o["id"]: o for o in window.document.own("objectives")["objectives"]}
    assert objectives["hold-karelia"]["when"] == {"turn": {}}
    assert objectives["defend-moscow"]["when"] == {"controls": {"owner": "soviet-union", "spaces": ["russia"]}}


def test_a_card_added_goes_into_the_deck_clicked(qtbot, window):
    panel = window.decks_panel
    document = window.document
    document.add_entity("decks", (), "decks", {"id": "soviet-orders", "name": "Soviet orders", "cards": [
        {"id": "s1", "title": "Winter", "effects": [{"op": "draw", "count": 1}]}]})
    show(window, panel)
    click_row(qtbot, panel.deck_view, 1, 1)
    click_row(qtbot, panel.deck_view, 0, 1)   # german-orders
    assert highlighted(panel.deck_view) == [0]
    assert [card["id"] for card in panel.cards.rows] == ["g1", "g2"]
    type_into_add_row(qtbot, panel.card_page, "Blitz")
    decks = {d["id"]: [c["id"] for c in d["cards"]] for d in document.own("decks")["decks"]}
    assert decks == {"german-orders": ["g1", "g2", "blitz"], "soviet-orders": ["s1"]}
    click_row(qtbot, panel.deck_view, 1, 1)
    assert [card["id"] for card in panel.cards.rows] == ["s1"]


def test_an_effect_added_goes_to_the_card_clicked(qtbot, window):
    panel = window.decks_panel
    show(window, panel)
    click_row(qtbot, panel.deck_view, 0, 1)
    click_row(qtbot, panel.card_view, 1, 2)   # g2, no effects
    click_row(qtbot, panel.card_view, 0, 2)   # g1
    assert highlighted(panel.card_view) == [0]
    assert panel.effects.rows == [{"op": "move_again", "groups": 1}]
    click_row(qtbot, panel.card_view, 1, 2)
    assert panel.effects.rows == []
    panel.new_op.setCurrentText("draw")
    qtbot.mouseClick(button(panel.effect_page, "Add effect"), Qt.LeftButton)
    cards = {c["id"]: c.get("effects") for c in window.document.own("decks")["decks"][0]["cards"]}
    assert cards == {"g1": [{"op": "move_again", "groups": 1}], "g2": [{"op": "draw"}]}


def test_the_grid_is_the_results_table_clicked(qtbot, window):
    panel = window.tables_panel
    window.document.add_entity("tables", (), "tables", {
        "id": "flak", "name": "Flak", "roll": "1d6",
        "axes": [{"id": "roll", "name": "Roll", "values": [1, 2]}], "cells": ["hit", "miss"]})
    show(window, panel)
    click_row(qtbot, panel.list_view, 1, 1)
    click_row(qtbot, panel.list_view, 0, 1)   # weather
    assert highlighted(panel.list_view) == [0]
    assert panel.grid.rowCount() == 6 and panel.grid.data(panel.grid.index(0, 1)) == "snow"
    click_row(qtbot, panel.list_view, 1, 1)   # flak
    assert panel.grid.rowCount() == 2 and panel.grid.data(panel.grid.index(0, 0)) == "hit"
    qtbot.keyClicks(panel.new_label, "3")
    qtbot.mouseClick(button(panel.grid_page, "Add row"), Qt.LeftButton)
    tables = {t["id"]: t["axes"][0]["values"] for t in window.document.own("tables")["tables"]}
    assert tables == {"weather": [1, 2, 3, 4, 5, 6], "flak": [1, 2, 3]}


@pytest.mark.parametrize("page, kind, rows", [
    ("spaces_page", "map", ("norway", "finland")),
    ("units_page", "units", ("infantry", "artillery")),
    ("options_page", "scenario", ("national-objectives", "fast-game")),
])
def test_the_inspector_shows_the_row_clicked_or_reached_by_keys(qtbot, window, page, kind, rows):
    page = getattr(window, page)
    view = page.view
    show(window, page)
    first, second = (view.source.row_of(("id", ident)) for ident in rows)
    click_row(qtbot, view, first, 1)
    click_row(qtbot, view, second, 1)
    assert window.inspector.locator[-1][1] == ("id", rows[1])
    view.setFocus()
    qtbot.keyClick(view, Qt.Key_Up if first < second else Qt.Key_Down)
    row = view.current_row()
    assert highlighted(view) == [row] and window.inspector.locator == view.source.locator(row)


def test_the_nations_and_sides_show_in_the_inspector(qtbot, window):
    panel = window.nations_panel
    show(window, panel)
    click_row(qtbot, panel.nations.view, 1, 1)
    click_row(qtbot, panel.nations.view, 0, 1)
    assert window.inspector.locator == (("nations", ("id", "germany")),)
    click_row(qtbot, panel.sides.view, 1, 1)
    assert window.inspector.locator == (("sides", ("id", "allies")),)


def test_ctrl_click_keeps_the_chosen_row_highlighted(qtbot, window):
    panel = window.objectives_panel
    show(window, panel)
    click_row(qtbot, panel.view, 1, 1)
    click_row(qtbot, panel.view, 1, 1, Qt.ControlModifier)
    assert highlighted(panel.view) == [1]
    assert panel.current_locator() == (("objectives", ("id", "defend-moscow")),)


def test_the_detail_follows_when_the_chosen_row_is_removed(qtbot, window):
    panel = window.objectives_panel
    show(window, panel)
    click_row(qtbot, panel.view, 0, 1)
    qtbot.mouseClick(panel.page.remove_button, Qt.LeftButton)
    assert highlighted(panel.view) == [0]
    assert panel.current_locator() == (("objectives", ("id", "defend-moscow")),)
    assert panel.builder.model.condition == {"controls": {"owner": "soviet-union", "spaces": ["russia"]}}


def test_a_condition_node_clicked_shows_its_own_form(qtbot, window):
    panel = window.objectives_panel
    show(window, panel)
    click_row(qtbot, panel.view, 0, 1)
    tree = panel.builder.tree
    root = panel.builder.model.index(0, 0)
    for row, field in ((1, "min"), (0, "count")):
        node = panel.builder.model.index(row, 0, root)
        qtbot.mouseClick(tree.viewport(), Qt.LeftButton, pos=tree.visualRect(node).center())
        assert panel.builder.field(field) is not None
