"""The editor's main window, driven through its real widgets on the bundled scenario."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QSettings, Qt  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from editor.main_window import MainWindow  # noqa: E402
from sandtable.schemas import MODELINE, SCHEMA_DIR  # noqa: E402
from sandtable.texts import fingerprint  # noqa: E402
from sandtable.yamlsource import read_yaml_file  # noqa: E402

from editor_gestures import drag  # noqa: E402
from editor_windows import close_window, new_window  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
NORTHERN_FRONT = REPO / "scenarios" / "northern-front"


@pytest.fixture
def scenario(tmp_path) -> Path:
    folder = tmp_path / "scenarios" / "northern-front"
    shutil.copytree(NORTHERN_FRONT, folder)
    return folder


@pytest.fixture
def window(qtbot, open_editor, scenario):
    main = open_editor(scenario)
    wait_for_validation(qtbot, main)
    return main


def wait_for_validation(qtbot, main) -> None:
    qtbot.waitUntil(lambda: not main.validator.busy, timeout=10_000)


def codes(main) -> list[str]:
    return [d.code for d in main.problems_model.diagnostics]


def data(folder: Path, name: str) -> dict:
    return read_yaml_file(folder / name).data


def spaces_by_id(main) -> dict:
    return {s["id"]: s for s in main.document.own("map")["spaces"]}


def test_opening_shows_every_space_and_border_without_problems(window):
    assert len(window.scene.spaces) == 12
    assert len(window.scene.borders) == 24
    assert window.scene.spaces["russia"].marks == {"capital", "victory_city"}
    assert window.scene.spaces["karelia-ssr"].marks == {"victory_city"}
    assert codes(window) == []
    assert window.windowTitle().startswith("Northern Front, 1941")


def test_moving_a_node_is_undoable_and_saved(qtbot, window, scenario):
    norway = window.scene.spaces["norway"]
    start = norway.pos()
    drag(qtbot, window.map_view, start, start + type(start)(60, 40))
    moved = spaces_by_id(window)["norway"]["position"]
    slack = 1.5 / window.map_view.transform().m11()  # a pixel on screen, in scene units
    assert abs(moved[0] - 140) <= slack and abs(moved[1] - 160) <= slack
    assert [norway.pos().x(), norway.pos().y()] == moved
    window.document.undo_stack.undo()
    assert spaces_by_id(window)["norway"]["position"] == [80, 120]
    assert norway.pos() == start
    window.document.undo_stack.redo()
    assert [norway.pos().x(), norway.pos().y()] == moved
    assert window.save()
    assert next(s for s in data(scenario, "map.yaml")["spaces"] if s["id"] == "norway")["position"] == moved


def test_drawing_and_deleting_a_border_with_undo(qtbot, window):
    scene = window.scene
    drag(qtbot, window.map_view, scene.spaces["norway"].pos(), scene.spaces["karelia-ssr"].pos(),
         Qt.ShiftModifier)
    assert ("norway", "karelia-ssr") in scene.borders
    assert {"between": ["norway", "karelia-ssr"], "kind": "land"} in window.document.own("map")["borders"]
    window.document.undo_stack.undo()
    assert ("norway", "karelia-ssr") not in scene.borders
    window.document.undo_stack.redo()
    assert ("norway", "karelia-ssr") in scene.borders

    scene.select_border(("finland", "sweden"))
    window.map_view.setFocus()
    qtbot.keyClick(window.map_view, Qt.Key_Delete)
    assert ("finland", "sweden") not in scene.borders
    assert len(window.document.own("map")["borders"]) == 24
    window.document.undo_stack.undo()
    assert ("finland", "sweden") in scene.borders
    window.document.undo_stack.redo()
    assert ("finland", "sweden") not in scene.borders


def test_editing_a_unit_value_in_its_table(qtbot, window, scenario):
    model = window.units_view.source
    row = model.row_of(("id", "armour"))
    column = [c.header for c in model.columns].index("Attack")
    assert model.data(model.index(row, column)) == "3"
    assert model.setData(model.index(row, column), "4")
    armour = next(u for u in window.document.own("units")["unit_types"] if u["id"] == "armour")
    assert armour["stats"]["attack"] == 4
    window.document.undo_stack.undo()
    assert model.data(model.index(row, column)) == "3"
    window.document.undo_stack.redo()
    assert model.data(model.index(row, column)) == "4"
    assert not model.setData(model.index(row, column), "lots")
    assert model.last_error == "expected a number, found the text 'lots'"  # the validator's words


def test_save_reload_gives_back_the_edited_data(qtbot, window, scenario):
    before_units = data(scenario, "units.yaml")
    header = (scenario / "units.yaml").read_text().splitlines()[0]
    model = window.units_view.source
    row = model.row_of(("id", "fighter"))
    model.setData(model.index(row, [c.header for c in model.columns].index("Cost")), "12")
    window.scene.rename("sweden", "Sverige")
    assert window.isWindowModified()
    assert window.save()
    assert not window.isWindowModified()
    assert window.document.undo_stack.isClean()
    window.document.reload()
    after = window.document.own("units")
    expected = before_units
    next(u for u in expected["unit_types"] if u["id"] == "fighter")["cost"] = 12
    assert after == expected
    assert (scenario / "units.yaml").read_text().splitlines()[0] == header
    assert window.scene.spaces["sweden"].name == "Sverige"
    assert data(scenario, "setup.yaml") == data(NORTHERN_FRONT, "setup.yaml")  # untouched files stay


def test_a_broken_edit_shows_its_diagnostic_and_double_click_selects(qtbot, window):
    window.document.set_field("map", (("borders", ("between", ("finland", "norway"))),),
                              ("between",), ["finland", "nowhere"])
    qtbot.waitUntil(lambda: "REF001" in codes(window), timeout=10_000)
    row = codes(window).index("REF001")
    problem = window.problems_model.diagnostics[row]
    assert problem.message == "unknown space 'nowhere'"
    # The line of the value the edit replaced (the file on disk has the old one there).
    assert window.problems_model.data(window.problems_model.index(row, 3)) == "map.yaml:64:13"
    window.go_to_problem(window.problems_model.index(row, 0))
    assert window.tabs.currentIndex() == 0
    window.document.undo_stack.undo()
    qtbot.waitUntil(lambda: codes(window) == [], timeout=10_000)

    window.document.set_field("map", (("spaces", ("id", "finland")),), ("value",), "two")
    qtbot.waitUntil(lambda: bool(codes(window)), timeout=10_000)
    row = next(i for i, d in enumerate(window.problems_model.diagnostics) if d.pointer == "/spaces/1/value")
    window.problems_view.doubleClicked.emit(window.problems_model.index(row, 2))
    chosen = window.scene.selectedItems()
    assert [item.space_id for item in chosen] == ["finland"]
    assert window.inspector.fields["value"].text() == "two"


def test_translation_view_edits_a_string_undoably(qtbot, window, scenario):
    panel = window.translation_panel
    panel.new_tag.setText("zh-Hans")
    panel.start_locale()
    model = panel.model
    keys = [row[0] for row in model.rows]
    row = keys.index("spaces.russia.name")
    assert model.data(model.index(row, 3)) == "missing"
    assert model.setData(model.index(row, 2), "俄罗斯")
    assert window.document.own("locale:zh-Hans") == {
        "locale": "zh-Hans", "entries": {"spaces.russia.name": {
            "text": "俄罗斯", "source": fingerprint("Russia"), "source_text": "Russia"}}}
    assert model.data(model.index(row, 3)) == "done"
    panel.filter.setCurrentText("missing")
    assert "spaces.russia.name" not in [r[0] for r in model.rows]
    window.document.undo_stack.undo()
    assert window.document.own("locale:zh-Hans") == {"locale": "zh-Hans"}
    window.document.undo_stack.undo()
    assert window.document.own("locale:zh-Hans") == {}
    assert window.document.locale_tags == []
    window.document.undo_stack.redo()
    window.document.undo_stack.redo()
    assert window.save()
    assert data(scenario, "locales/zh-Hans.yaml")["entries"]["spaces.russia.name"]["text"] == "俄罗斯"
    qtbot.waitUntil(lambda: "LOC002" in codes(window), timeout=10_000)


def test_closing_with_unsaved_changes_asks(qtbot, window, monkeypatch):
    window.scene.rename("sweden", "Sverige")
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.Cancel)
    assert not window.close()
    assert asked == ["The scenario has unsaved changes. Save them first?"]
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Discard)
    assert window.close()


def test_a_file_changed_on_disk_is_announced(qtbot, window, scenario):
    path = scenario / "units.yaml"
    path.write_text(path.read_text().replace("cost: 3,", "cost: 4,"), encoding="utf-8")
    window.document.check_disk()
    assert window.banner.isVisible()
    assert window.banner_text.text().startswith("units.yaml changed on disk")
    window.reload_from_disk()
    assert window.document.own("units")["unit_types"][0]["cost"] == 4
    assert not window.banner.isVisible()


def test_keep_my_version_writes_it_even_with_nothing_unsaved(qtbot, window, scenario):
    """`format` (or any program) rewrote a file the designer had edited and saved; the banner's
    "keep my version" must write the editor's version back, though nothing is unsaved."""
    window.scene.rename("sweden", "Sverige")
    assert window.save() and not window.document.is_dirty()
    path = scenario / "map.yaml"
    mine = path.read_text(encoding="utf-8")
    path.write_text(mine.replace("Sverige", "Sweden"), encoding="utf-8")   # their save
    window.document.check_disk()
    assert window.banner.isVisible() and window.keep_button.isVisible()
    qtbot.mouseClick(window.keep_button, Qt.LeftButton)
    assert path.read_text(encoding="utf-8") == mine
    assert not window.banner.isVisible() and not window.document.is_dirty()
    assert window.document.check_disk() == []          # its own write is not announced again


def test_a_save_never_silently_undoes_another_programs_save(qtbot, window, scenario, monkeypatch):
    path = scenario / "map.yaml"
    theirs = path.read_text(encoding="utf-8") + "# their note\n"
    window.scene.rename("sweden", "Sverige")
    path.write_text(theirs, encoding="utf-8")          # saved before the watcher said a word
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: shown.append(a[2]))
    assert not window.save()
    assert shown[0].startswith("The scenario was not saved:\n") and "map.yaml changed on disk" in shown[0]
    assert path.read_text(encoding="utf-8") == theirs and window.document.is_dirty()
    assert window.banner.isVisible() and window.banner_text.text().startswith("map.yaml changed on disk")
    qtbot.mouseClick(window.keep_button, Qt.LeftButton)   # the designer's choice: mine
    assert "Sverige" in path.read_text(encoding="utf-8") and not window.document.is_dirty()


def test_recent_folders_and_layout_persist(qtbot, tmp_path, window, scenario):
    assert window.recent() == [str(scenario.resolve())]
    window.close()
    settings = QSettings(str(tmp_path / "editor.ini"), QSettings.IniFormat)
    assert settings.value("window/state") is not None
    again = MainWindow(settings)
    assert [a.text() for a in again.recent_menu.actions()] == [str(scenario.resolve())]


def test_find_selects_and_centres_a_space(qtbot, window):
    window.focus_find()
    qtbot.keyClicks(window.find_edit, "belo")
    qtbot.keyClick(window.find_edit, Qt.Key_Return)
    assert [i.space_id for i in window.scene.selectedItems()] == ["belorussia"]


def test_rename_in_place_on_the_canvas(qtbot, window):
    window.map_view.rename_in_place("archangel")
    label = window.scene.spaces["archangel"].label
    assert label.editing
    qtbot.keyClicks(window.map_view.viewport(), "")
    label.setPlainText("Arkhangelsk")
    label.finish_editing(True)
    assert spaces_by_id(window)["archangel"]["name"] == "Arkhangelsk"
    window.document.undo_stack.undo()
    assert window.scene.spaces["archangel"].label.toPlainText() == "Archangel"


def test_deleting_a_space_takes_its_borders_and_undo_brings_all_back(qtbot, window):
    window.scene.select_space("sweden")
    window.map_view.setFocus()
    qtbot.keyClick(window.map_view, Qt.Key_Delete)
    assert "sweden" not in window.scene.spaces
    assert not [pair for pair in window.scene.borders if "sweden" in pair]
    assert len(window.document.own("map")["borders"]) == 21
    window.document.undo_stack.undo()
    assert "sweden" in window.scene.spaces
    assert len(window.scene.borders) == 24
    assert window.document.undo_stack.index() == 0


def test_a_new_scenario_starts_from_a_manifest(qtbot, window, tmp_path):
    folder = tmp_path / "scenarios" / "my-front"
    window.create_scenario(folder)
    assert data(folder, "scenario.yaml") == {"id": "my-front", "name": "my-front", "system": "aa50"}
    assert window.document.root == folder
    assert window.scene.spaces == {}
    wait_for_validation(qtbot, window)


def test_the_edit_command_refuses_a_folder_without_a_scenario(tmp_path, capsys):
    from sandtable.cli import main
    assert main(["edit", str(tmp_path)]) == 2
    assert "no scenario.yaml here" in capsys.readouterr().err


def test_the_inspector_edits_any_field_of_the_chosen_space(qtbot, window):
    window.scene.select_space("karelia-ssr")
    assert window.inspector.fields["tags"].text() == "[victory_city]"
    field = window.inspector.fields["tags"]
    field.setText("[victory_city, fortress]")
    field.editingFinished.emit()
    assert spaces_by_id(window)["karelia-ssr"]["tags"] == ["victory_city", "fortress"]
    assert window.scene.spaces["karelia-ssr"].marks == {"victory_city", "fortress"}
    field = window.inspector.fields["value"]
    field.setText("[unclosed")
    field.editingFinished.emit()
    assert window.inspector.error.text().startswith("value: YAML syntax error")
    assert spaces_by_id(window)["karelia-ssr"]["value"] == 2


def test_an_objective_is_built_in_its_page_and_saved_to_a_new_file(qtbot, window, scenario):
    panel = window.objectives_panel
    assert panel.add("Hold Karelia")
    assert window.document.own("objectives") == {"objectives": [
        {"id": "hold-karelia", "name": "Hold Karelia", "owner": "germany"}]}
    qtbot.waitUntil(lambda: any(d.pointer == "/objectives/0" for d in window.problems_model.diagnostics),
                    timeout=10_000)
    panel.builder.op_choice.setCurrentText("controls")
    panel.builder.add("controls")
    assert window.document.own("objectives")["objectives"][0]["when"] == {
        "controls": {"owner": "germany", "spaces": ["norway"]}}
    spaces = panel.builder.field("spaces")
    spaces.setText("karelia-ssr")
    spaces.editingFinished.emit()
    award = [c.header for c in panel.model.columns].index("Award")
    assert panel.model.setData(panel.model.index(0, award), "5")
    assert window.document.own("objectives")["objectives"][0] == {
        "id": "hold-karelia", "name": "Hold Karelia", "owner": "germany",
        "when": {"controls": {"owner": "germany", "spaces": ["karelia-ssr"]}}, "award": {"amount": 5}}
    qtbot.waitUntil(lambda: codes(window) == [], timeout=10_000)
    assert window.save()
    first = (scenario / "objectives.yaml").read_text().splitlines()[0]
    # the new file names a schema that is there (this copy keeps none: the installation's)
    assert first.startswith(MODELINE)
    assert (scenario / first[len(MODELINE):]).resolve() == SCHEMA_DIR / "objectives.schema.json"
    assert data(scenario, "objectives.yaml")["objectives"][0]["award"] == {"amount": 5}


def test_a_crash_in_a_check_is_shown_and_does_not_stop_the_editor(qtbot, window, monkeypatch):
    import validators

    def broken_check(scenario):
        raise KeyError("spaces")
    working = validators.validate
    monkeypatch.setattr(validators, "validate", broken_check)
    window.scene.rename("sweden", "Sverige")
    qtbot.waitUntil(lambda: window.problem_counts.text() == "validation stopped", timeout=10_000)
    assert window.problems_dock.windowTitle() == "Problems (the validators stopped: KeyError: 'spaces')"
    monkeypatch.setattr(validators, "validate", working)
    window.document.undo_stack.undo()
    qtbot.waitUntil(lambda: window.problem_counts.text() == "0 error(s), 0 warning(s)", timeout=10_000)


def test_the_map_shows_names_in_a_display_language_with_fallback(qtbot, tmp_path, scenario):
    """Names follow the locale chain of sandtable.i18n (zh-Hans-CN -> zh-Hans -> zh -> en);
    a rename still edits the English source text."""
    from sandtable.texts import fingerprint
    (scenario / "locales").mkdir()
    (scenario / "locales" / "zh-Hans.yaml").write_text(
        "locale: zh-Hans\nentries:\n"
        f"  spaces.norway.name: {{text: 挪威, source: '{fingerprint('Norway')}'}}\n", encoding="utf-8")
    main = new_window(tmp_path)
    main.open_folder(scenario)
    wait_for_validation(qtbot, main)
    labels = [a.text() for a in main.language_menu.actions()]
    assert labels == ["Source text", "zh-Hans"]
    main.scene.set_display_locale("zh-Hans-CN")
    norway, finland = main.scene.spaces["norway"], main.scene.spaces["finland"]
    assert norway.label.toPlainText() == "挪威"
    assert finland.label.toPlainText() == "Finland"  # untranslated: the source text
    norway.label.start_editing()
    assert norway.label.toPlainText() == "Norway"
    norway.label.finish_editing(False)
    main.language_menu.actions()[0].trigger()
    assert norway.label.toPlainText() == "Norway"
    close_window(main)
