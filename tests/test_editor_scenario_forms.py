"""The forms for what a scenario needs beyond its map: the scenario's name, system, turn order,
victory and rules; the starting resources, pools and reinforcements; unit stats the system allows;
a field the entry has not got yet; a space's new id with every reference; File > New with a game
system. Driven through the widgets with real clicks and key presses."""
from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from editor.new_scenario import NewScenarioDialog  # noqa: E402
from editor.schema_form import TextBox  # noqa: E402
from sandtable.yamlsource import read_yaml_file  # noqa: E402

from editor_gestures import button, edit_cell, retype  # noqa: E402


@pytest.fixture
def window(open_editor, workshop):
    return open_editor(workshop, size=(1400, 900))


def write_lines(qtbot, box, lines: list[str]) -> None:
    """Click into a box of text, select all of it, type the lines over it."""
    qtbot.mouseClick(box.viewport(), Qt.LeftButton)
    qtbot.keyClick(box, Qt.Key_A, Qt.ControlModifier)
    for number, line in enumerate(lines):
        if number:
            qtbot.keyClick(box, Qt.Key_Return)
        qtbot.keyClicks(box, line)


def manifest(window) -> dict:
    return window.document.own("scenario")


def test_the_general_form_edits_name_year_and_description(qtbot, window, workshop):
    panel = window.scenario_panel
    window.tabs.setCurrentWidget(panel)
    form = panel.general
    retype(qtbot, form.fields["name"], "Workshop, revised")
    retype(qtbot, form.fields["year"], "1942")
    assert manifest(window)["name"] == "Workshop, revised" and manifest(window)["year"] == 1942
    retype(qtbot, form.fields["year"], "nineteen")
    assert manifest(window)["year"] == 1942
    assert form.error.text() == "year: expected an integer, found the text 'nineteen'"
    assert window.statusBar().currentMessage() == "Not stored — year: expected an integer, found the text 'nineteen'"
    description = form.fields["description"]
    assert isinstance(description, TextBox)
    write_lines(qtbot, description, ["Two lines:", "the second."])
    form.fields["name"].setFocus()   # leaving the box stores it
    assert manifest(window)["description"] == "Two lines:\nthe second."
    stack = window.document.undo_stack
    assert [stack.text(i) for i in range(stack.count())] == [
        "Set the scenario's name", "Set the scenario's year", "Set the scenario's description"]
    assert window.save()
    assert read_yaml_file(workshop / "scenario.yaml").data["year"] == 1942


def test_the_turn_order_is_built_with_clicks(qtbot, window):
    order = window.scenario_panel.turn_order
    window.tabs.setCurrentWidget(window.scenario_panel)
    window.scenario_panel.show_page("Turn order")
    first = order.order.item(0)
    qtbot.mouseClick(order.order.viewport(), Qt.LeftButton, pos=order.order.visualItemRect(first).center())
    qtbot.mouseClick(button(order, "Remove"), Qt.LeftButton)
    assert manifest(window)["turn_order"] == ["soviet-union"]
    assert order.candidates.currentText() == "germany"
    qtbot.mouseClick(button(order, "Add"), Qt.LeftButton)
    assert manifest(window)["turn_order"] == ["soviet-union", "germany"]
    item = order.order.item(1)
    qtbot.mouseClick(order.order.viewport(), Qt.LeftButton, pos=order.order.visualItemRect(item).center())
    qtbot.mouseClick(button(order, "Up"), Qt.LeftButton)
    assert manifest(window)["turn_order"] == ["germany", "soviet-union"]
    assert order.order.currentRow() == 0 and order.order.item(0).text() == "1. Germany  (germany)"
    for _ in range(2):
        qtbot.mouseClick(button(order, "Remove"), Qt.LeftButton)
    assert "turn_order" not in manifest(window)
    qtbot.mouseClick(button(order, "Add all"), Qt.LeftButton)
    assert manifest(window)["turn_order"] == ["germany", "soviet-union"]
    assert window.document.undo_stack.count() == 6


def test_a_victory_condition_is_added_and_built(qtbot, window):
    panel = window.scenario_panel.victory
    window.tabs.setCurrentWidget(window.scenario_panel)
    window.scenario_panel.show_page("Victory")
    qtbot.mouseClick(panel.page.add_button, Qt.LeftButton)
    editor = QApplication.focusWidget()
    qtbot.keyClicks(editor, "Sudden death")
    qtbot.keyClick(editor, Qt.Key_Return)
    qtbot.wait(1)   # a view commits its editor's Return from the event loop
    assert panel.current_locator() == (("victory", ("id", "sudden-death")),)
    panel.builder.op_choice.setCurrentText("controls")
    qtbot.mouseClick(button(panel.builder, "Add condition"), Qt.LeftButton)
    victory = manifest(window)["victory"][-1]
    assert victory == {"id": "sudden-death", "name": "Sudden death", "side": "axis",
                       "when": {"all": [{"turn": {"min": 1}}, {"controls": {"owner": "germany",
                                                                            "spaces": ["norway"]}}]}}


def test_the_rules_form_follows_the_system_and_checks_values(qtbot, window):
    window.tabs.setCurrentWidget(window.scenario_panel)
    window.scenario_panel.show_page("Rules")
    rules = window.scenario_panel.rules
    assert "starting_victory_cities" in rules.fields and "china" in rules.fields   # AA50's rules
    cities = rules.fields["starting_victory_cities"]
    assert isinstance(cities, TextBox)   # a mapping: a box of YAML
    write_lines(qtbot, cities, ["axis: 0", "allies: 2"])
    rules.fields["china"].setFocus()     # leaving the box stores it
    assert manifest(window)["rules"] == {"starting_victory_cities": {"axis": 0, "allies": 2}}
    assert cities.toPlainText() == "allies: 2\naxis: 0"   # as the file writes it
    write_lines(qtbot, cities, ["axis: many"])
    rules.fields["china"].setFocus()
    assert rules.error.text() == "starting_victory_cities: expected an integer, found the text 'many'"
    write_lines(qtbot, cities, ["axis: [1"])
    rules.fields["china"].setFocus()
    assert rules.error.text().startswith("starting_victory_cities: ")
    assert manifest(window)["rules"] == {"starting_victory_cities": {"axis": 0, "allies": 2}}
    # Another system, other rules: War at Sea's scoring track.
    system = window.scenario_panel.general.fields["system"]
    system.setCurrentIndex(system.findText("war-at-sea"))
    system.activated.emit(system.currentIndex())
    assert manifest(window)["system"] == "war-at-sea"
    assert "scoring" in rules.fields and "china" not in rules.fields


def test_germanys_starting_ipcs_and_a_new_starting_resource(qtbot, window, workshop):
    setup = window.setup_panel
    window.tabs.setCurrentWidget(setup)
    setup.tabs.setCurrentWidget(setup.resources_page)
    view = setup.resources_page.view
    edit_cell(qtbot, view, 0, 2, "9")
    assert window.document.own("setup")["resources"] == [{"owner": "germany", "resource": "ipc", "amount": 9},
                                                         {"owner": "soviet-union", "resource": "ipc", "amount": 12}]
    edit_cell(qtbot, view, 0, 2, "lots")
    assert window.document.own("setup")["resources"][0]["amount"] == 9
    assert window.statusBar().currentMessage().startswith("Not stored — Amount: expected a number")
    qtbot.mouseClick(button(setup.resources_page, "Add starting resource"), Qt.LeftButton)
    assert window.document.own("setup")["resources"][2] == {"owner": "germany", "resource": "ipc", "amount": 0}
    edit_cell(qtbot, view, 2, 0, "soviet-union")
    edit_cell(qtbot, view, 2, 2, "3")
    assert window.save()
    assert read_yaml_file(workshop / "setup.yaml").data["resources"] == [
        {"owner": "germany", "resource": "ipc", "amount": 9},
        {"owner": "soviet-union", "resource": "ipc", "amount": 12},
        {"owner": "soviet-union", "resource": "ipc", "amount": 3}]
    assert window.document.undo_stack.count() == 4


def test_pools_and_reinforcements_write_unit_stacks(qtbot, window):
    setup = window.setup_panel
    window.tabs.setCurrentWidget(setup)
    setup.tabs.setCurrentWidget(setup.reinforcements)
    page = setup.reinforcements
    qtbot.mouseClick(page.add_button, Qt.LeftButton)
    qtbot.keyClicks(QApplication.focusWidget(), "Siberian divisions")
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key_Return)
    qtbot.wait(1)
    model = page.view.source
    row = model.row_of(("id", "siberian-divisions"))
    columns = [c.header for c in model.columns]
    edit_cell(qtbot, page.view, row, columns.index("Owner"), "soviet-union")
    edit_cell(qtbot, page.view, row, columns.index("Units"), "3 infantry, 1 armour of soviet-union")
    assert window.document.own("setup")["reinforcements"] == [{
        "id": "siberian-divisions", "turn": 2, "owner": "soviet-union",
        "units": [{"type": "infantry", "count": 3}, {"type": "armour", "count": 1, "owner": "soviet-union"}]}]
    assert model.data(model.index(row, columns.index("Units"))) == "3 infantry, 1 armour of soviet-union"
    edit_cell(qtbot, page.view, row, columns.index("Units"), "3 infantry, two tanks")
    assert window.statusBar().currentMessage() == (
        "Not stored — Units: write each stack as a count and a unit type ('3 infantry'), not 'two tanks'")


def test_unit_stats_are_those_the_system_allows(qtbot, window):
    document = window.document
    document.add_entity("units", (), "unit_types", {"id": "ski-troops", "name": "Ski troops", "domain": "land"})
    model = window.units_view.source
    columns = [c.header for c in model.columns]
    assert columns[4:7] == ["Attack", "Defense", "Movement"]
    window.tabs.setCurrentWidget(window.units_page)
    row = model.row_of(("id", "ski-troops"))
    edit_cell(qtbot, window.units_view, row, columns.index("Movement"), "2")
    assert document.own("units")["unit_types"][-1]["stats"] == {"movement": 2}
    edit_cell(qtbot, window.units_view, row, columns.index("Attack"), "7")   # AA50's dice: 0 to 6
    assert document.own("units")["unit_types"][-1]["stats"] == {"movement": 2}
    assert "Not stored — Attack:" in window.statusBar().currentMessage()


def test_the_inspector_adds_a_field_the_entry_has_not_got(qtbot, window):
    window.scene.select_space("finland")
    inspector = window.inspector
    assert "tags" not in inspector.fields
    choices = [inspector.new_field.itemText(i) for i in range(inspector.new_field.count())]
    assert "tags" in choices and "name" not in choices
    inspector.new_field.setCurrentText("tags")
    retype(qtbot, inspector.new_value, "[victory_city]")
    finland = next(s for s in window.document.own("map")["spaces"] if s["id"] == "finland")
    assert finland["tags"] == ["victory_city"] and "tags" in inspector.fields
    inspector.new_field.setCurrentText("value")
    assert inspector.new_field.currentText() != "value"   # it has one already: not offered


def test_a_space_renamed_takes_every_reference_and_translation_along(qtbot, window, workshop):
    page = window.spaces_page
    window.tabs.setCurrentWidget(page)
    model = page.view.source
    edit_cell(qtbot, page.view, model.row_of(("id", "norway")), 0, "finland")
    assert window.statusBar().currentMessage() == "Not stored — Id: 'finland' is already the id of another entry"
    edit_cell(qtbot, page.view, model.row_of(("id", "norway")), 0, "Norge!")
    assert window.statusBar().currentMessage() == (
        "Not stored — Id: 'Norge!' is not an id: lower-case letters, digits, '_' and '-', at most 64")
    edit_cell(qtbot, page.view, model.row_of(("id", "norway")), 0, "taken")
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Renamed"))
    assert window.statusBar().currentMessage() == "Renamed norway to taken: 8 reference(s) changed with it"
    document = window.document
    assert model.row_of(("id", "taken")) >= 0 and model.row_of(("id", "norway")) < 0
    borders = [b["between"] for b in document.own("map")["borders"] if "taken" in b["between"]]
    assert len(borders) == 5
    assert document.own("setup")["spaces"][0]["space"] == "taken"
    hold = next(o for o in document.own("objectives")["objectives"] if o["id"] == "hold-the-north")
    assert hold["when"]["all"][0]["controls"]["spaces"] == ["taken", "finland", "karelia-ssr"]
    allied = next(v for v in document.own("scenario")["victory"] if v["id"] == "allies-victory")
    assert allied["when"]["controls"]["spaces"] == ["finland", "taken"]
    assert "spaces.taken.name" in document.own("locale:zh-Hans")["entries"]
    assert "taken" in window.scene.spaces and "norway" not in window.scene.spaces
    stack = document.undo_stack
    assert stack.text(stack.count() - 1) == "Rename norway to taken"
    stack.undo()
    assert document.own("setup")["spaces"][0]["space"] == "norway"
    assert "spaces.norway.name" in document.own("locale:zh-Hans")["entries"]
    assert allied["when"]["controls"]["spaces"] == ["finland", "norway"]
    assert window.save()
    from helpers import diagnostics_of
    assert [d.code for d in diagnostics_of(workshop) if d.is_error] == []


def test_file_new_asks_for_the_game_system(qtbot, window, tmp_path):
    occupied = NewScenarioDialog(window, tmp_path / "workshop")
    qtbot.addWidget(occupied)
    assert "already holds a scenario" in occupied.problem.text()
    dialog = NewScenarioDialog(window, tmp_path / "pacific")
    qtbot.addWidget(dialog)
    assert dialog.problem.text() == ""
    dialog.name.setText("Pacific, 1942")
    dialog.system.setCurrentIndex(dialog.system.findData("war-at-sea"))
    assert window.create_scenario(dialog.chosen_folder(), dialog.chosen_system(), dialog.name.text())
    assert read_yaml_file(tmp_path / "pacific" / "scenario.yaml").data == {
        "id": "pacific-1942", "name": "Pacific, 1942", "system": "war-at-sea"}
    assert window.document.root == tmp_path / "pacific"
    assert "scoring" in window.scenario_panel.rules.fields
