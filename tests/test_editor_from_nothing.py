"""From nothing to a played game, in the editor alone: File > New (an AA50 scenario), a board of
three spaces placed and bordered on the map, two sides and two nations, a unit type with its
stats, the starting position and money, an objective, the turn order and a victory condition,
then whole games played from the Playtest tab and their report shown there.

Every step is a designer's gesture on the widgets (clicks, typing, drags); the scenario is then
saved, and what was saved is a scenario `sandtable validate` passes.
"""
from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QPointF, Qt  # noqa: E402

from editor.new_scenario import NewScenarioDialog  # noqa: E402

from editor_gestures import button, click, drag, edit_cell, retype, type_into_add_row  # noqa: E402
from helpers import diagnostics_of  # noqa: E402


@pytest.fixture
def window(open_editor):
    return open_editor(size=(1400, 900))


def column(model, header: str) -> int:
    return [c.header for c in model.columns].index(header)


def show(window, tab, page) -> None:
    """A page of a tab: by its widget, or by its title (the scenario's pages)."""
    window.tabs.setCurrentWidget(tab)
    if isinstance(page, str):
        tab.show_page(page)
    else:
        tab.tabs.setCurrentWidget(page)


def test_a_scenario_from_nothing_plays_whole_games_in_the_editor(qtbot, window, tmp_path, monkeypatch):
    folder = tmp_path / "scenarios" / "three-fields"

    # File > New: the folder, the name and the game system.
    def fill_in(dialog: NewScenarioDialog) -> int:
        dialog.folder.setText(str(folder))
        dialog.name.setText("Three fields")
        dialog.system.setCurrentIndex(dialog.system.findData("aa50"))
        return NewScenarioDialog.DialogCode.Accepted
    monkeypatch.setattr(NewScenarioDialog, "exec", fill_in)
    window.new_scenario()
    document = window.document
    assert document is not None and document.root == folder
    stack = document.undo_stack

    # The board: three spaces placed with clicks, then named, given ids and values in their table.
    page, view = window.map_page, window.map_view
    page.place_action.setChecked(True)
    for x in (0, 150, 300):
        qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.mapFromScene(QPointF(x, 0)))
    page.place_action.setChecked(False)
    assert sorted(window.scene.spaces) == ["new-space-1", "new-space-2", "new-space-3"]
    spaces = window.spaces_page
    window.tabs.setCurrentWidget(spaces)
    model = spaces.view.source
    for old, new, name, value in (("new-space-1", "redland-home", "Redland", "3"),
                                  ("new-space-2", "midfield", "Midfield", "1"),
                                  ("new-space-3", "blueland-home", "Blueland", "3")):
        edit_cell(qtbot, spaces.view, model.row_of(("id", old)), column(model, "Id"), new)
        qtbot.waitUntil(lambda new=new: model.row_of(("id", new)) >= 0)
        row = model.row_of(("id", new))
        edit_cell(qtbot, spaces.view, row, column(model, "Name"), name)
        edit_cell(qtbot, spaces.view, row, column(model, "Value"), value)
    # Borders, drawn as a chain on the map.
    window.tabs.setCurrentIndex(0)
    page.link_action.setChecked(True)
    scene = window.scene
    for a, b in (("redland-home", "midfield"), ("midfield", "blueland-home")):
        drag(qtbot, view, scene.spaces[a].anchor(), scene.spaces[b].anchor())
    page.link_action.setChecked(False)
    assert [x["between"] for x in document.own("map")["borders"]] == [
        ["redland-home", "midfield"], ["midfield", "blueland-home"]]

    # Sides and nations.
    nations = window.nations_panel
    window.tabs.setCurrentWidget(nations)
    for side in ("Axis", "Allies"):
        type_into_add_row(qtbot, nations.sides, side)
    for nation in ("Redland", "Blueland"):
        type_into_add_row(qtbot, nations.nations, nation)
    nation_model = nations.nations.view.source
    edit_cell(qtbot, nations.nations.view, nation_model.row_of(("id", "blueland")),
              column(nation_model, "Side"), "allies")
    edit_cell(qtbot, nations.nations.view, nation_model.row_of(("id", "redland")),
              column(nation_model, "Capital"), "redland-home")
    window.tabs.setCurrentWidget(spaces)   # AA50's capitals are marked on the board
    edit_cell(qtbot, spaces.view, model.row_of(("id", "redland-home")), column(model, "Tags"), "capital")

    # A unit type, with the stats AA50 gives every unit.
    window.tabs.setCurrentWidget(window.units_page)
    type_into_add_row(qtbot, window.units_page, "Infantry")
    units = window.units_view.source
    for header, value in (("Cost", "3"), ("Attack", "1"), ("Defense", "2"), ("Movement", "1")):
        edit_cell(qtbot, window.units_view, units.row_of(("id", "infantry")), column(units, header), value)
    assert document.own("units")["unit_types"] == [{"id": "infantry", "name": "Infantry", "domain": "land",
                                                    "cost": 3, "stats": {"attack": 1, "defense": 2, "movement": 1}}]

    # The money: a resource, and what each nation starts with.
    scenario_panel = window.scenario_panel
    show(window, scenario_panel, "Resources")
    type_into_add_row(qtbot, scenario_panel.resources, "IPC")
    setup = window.setup_panel
    show(window, setup, setup.resources_page)
    for row, (owner, amount) in enumerate((("redland", "9"), ("blueland", "6"))):
        click(qtbot, button(setup.resources_page, "Add starting resource"))
        edit_cell(qtbot, setup.resources_page.view, row, 0, owner)
        edit_cell(qtbot, setup.resources_page.view, row, 2, amount)

    # The starting position: control and units of both home spaces.
    show(window, setup, setup.page)
    for space, owner, count in (("redland-home", "redland", 5), ("blueland-home", "blueland", 3)):
        setup.count.setValue(count)
        setup.unit.setCurrentText("infantry")
        setup.owner.setCurrentText(owner)
        setup.space.setCurrentText(space)
        click(qtbot, button(setup.page, "Add"))
        row = next(r for r, (entry, _) in enumerate(setup.model.rows) if entry["space"] == space)
        edit_cell(qtbot, setup.view, row, 1, owner)   # control

    # An objective: Redland earns 2 IPCs a turn while it holds the midfield.
    objectives = window.objectives_panel
    window.tabs.setCurrentWidget(objectives)
    type_into_add_row(qtbot, objectives.page, "Hold the midfield")
    objective_model = objectives.model
    row = objective_model.row_of(("id", "hold-the-midfield"))
    edit_cell(qtbot, objectives.view, row, column(objective_model, "Award"), "2")
    edit_cell(qtbot, objectives.view, row, column(objective_model, "Resource"), "ipc")
    objectives.builder.op_choice.setCurrentText("controls")
    click(qtbot, button(objectives.builder, "Add condition"))
    retype(qtbot, objectives.builder.field("spaces"), "midfield")

    # The rules: who plays in what order, and how a side wins.
    show(window, scenario_panel, "Turn order")
    click(qtbot, button(scenario_panel.turn_order, "Add all"))
    show(window, scenario_panel, "Victory")
    victory = scenario_panel.victory
    type_into_add_row(qtbot, victory.page, "Redland takes Blueland")
    builder = victory.builder
    click(qtbot, button(builder, "Remove"))          # the placeholder condition ...
    builder.op_choice.setCurrentText("controls")     # ... becomes the real one
    click(qtbot, button(builder, "Add condition"))
    retype(qtbot, builder.field("spaces"), "blueland-home")
    assert document.own("scenario")["victory"] == [{
        "id": "redland-takes-blueland", "name": "Redland takes Blueland", "side": "axis",
        "when": {"controls": {"owner": "redland", "spaces": ["blueland-home"]}}}]

    # Nothing is wrong with it now; saved, the command line agrees.
    qtbot.waitUntil(lambda: not window.validator.busy, timeout=20_000)
    assert [(d.code, d.message) for d in window.problems_model.diagnostics if d.is_error] == []
    assert window.save()
    assert [d.code for d in diagnostics_of(folder)] == []
    assert stack.count() > 40 and stack.isClean()

    # Whole games, from the Playtest tab.
    playtest = window.games_panel.parentWidget().parentWidget()
    window.tabs.setCurrentWidget(playtest)
    playtest.setCurrentWidget(window.games_panel)
    games = window.games_panel
    assert sorted(games.player_choices) == ["allies", "axis"]
    games.games.setValue(4)
    games.max_rounds.setValue(8)
    games.workers.setValue(1)
    with qtbot.waitSignal(games.finished, timeout=180_000):
        click(qtbot, games.run_button)
    report = games.report
    assert report["games"] == 4 and report["finished"] == 4
    text = games.summary.toPlainText()
    assert text.startswith("three-fields: 4 games, seed 1\nplayers: Axis heuristic, Allies heuristic")
    assert "who wins" in text
    assert [name for name, _ in games.images][0] == "outcome"
