"""The small things a designer meets all day: `not` in the condition builder, ids picked by name,
a variant's setup marked as its other tables are, the find box on the first Enter, a refusal that
clears with the next good edit, history that names what changed, the Playtest tab in sight, the
game's options and a validation off the interface's thread for whole games, a folder dropped on the
window, the Edit and Help menus."""
from __future__ import annotations

import importlib.util
import shutil
import threading
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl  # noqa: E402
from PySide6.QtGui import QDropEvent  # noqa: E402
from PySide6.QtWidgets import QApplication, QToolButton  # noqa: E402

from editor.models.entity_table import OVERRIDDEN_BACKGROUND, STATUS_ROLE  # noqa: E402
from editor.roles import BACKGROUND, FONT  # noqa: E402

from editor_gestures import button, click, edit_cell, retype  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def window(open_editor):
    return open_editor(size=(1400, 900))


def objective(window, ident: str) -> dict:
    return next(o for o in window.document.own("objectives")["objectives"] if o["id"] == ident)


def test_not_negates_the_chosen_condition(qtbot, window, workshop):
    window.open_folder(workshop)
    panel = window.objectives_panel
    window.tabs.setCurrentWidget(panel)
    panel.select(("id", "defend-moscow"))
    builder = panel.builder
    builder.op_choice.setCurrentText("not")
    click(qtbot, button(builder, "Add condition"))
    negated = {"controls": {"owner": "soviet-union", "spaces": ["russia"]}}
    assert objective(window, "defend-moscow")["when"] == {"not": negated}
    assert builder.model.node(builder.tree.currentIndex()).path == ()   # the `not` is chosen
    builder.op_choice.setCurrentText("any")
    click(qtbot, button(builder, "Add condition"))   # a group takes the chosen condition in
    assert objective(window, "defend-moscow")["when"] == {"any": [{"not": negated}]}


def test_ids_in_a_condition_are_ticked_in_a_list_of_names(qtbot, window, workshop):
    window.open_folder(workshop)
    panel = window.objectives_panel
    window.tabs.setCurrentWidget(panel)
    panel.select(("id", "defend-moscow"))
    chooser = panel.builder.findChild(QToolButton, "choose-spaces")
    menu = chooser.menu()
    menu.aboutToShow.emit()
    names = {a.text(): a for a in menu.actions()}
    assert "Russia  (russia)" in names and names["Russia  (russia)"].isChecked()
    names["Karelia S.S.R.  (karelia-ssr)"].trigger()
    assert objective(window, "defend-moscow")["when"]["controls"]["spaces"] == ["russia", "karelia-ssr"]
    menu.aboutToShow.emit()
    next(a for a in menu.actions() if a.data() == "russia").trigger()
    assert objective(window, "defend-moscow")["when"]["controls"]["spaces"] == ["karelia-ssr"]


def test_a_variants_setup_shows_what_it_overrides_and_reverts_it(qtbot, window, tmp_path):
    for name in ("aa50-1941", "aa50-1942"):
        shutil.copytree(REPO / "scenarios" / name, tmp_path / name)
    window.open_folder(tmp_path / "aa50-1942")
    model = window.setup_panel.model
    document = window.document
    own = {e["space"] for e in document.own("setup")["spaces"]}
    parent = {e["space"] for e in document.parent_scenario.doc("setup")["spaces"]}
    changed = next(e for e in document.own("setup")["spaces"] if "units" in e and e["space"] in parent)
    kept = next(space for space in sorted(parent - own))
    row_changed = next(r for r, (entry, _) in enumerate(model.rows) if entry["space"] == changed["space"])
    row_kept = next(r for r, (entry, _) in enumerate(model.rows) if entry["space"] == kept)
    unit = model.index(row_changed, 3)
    assert unit.data(STATUS_ROLE) == "overridden" and unit.data(FONT).bold()
    assert unit.data(BACKGROUND).color() == OVERRIDDEN_BACKGROUND
    assert model.index(row_kept, 3).data(STATUS_ROLE) == "inherited" and model.index(row_kept, 3).data(FONT).italic()
    page = window.setup_panel.page
    menu = page.context_menu(page.view.proxy.mapFromSource(unit))
    assert [a.text() for a in menu.actions()] == ["Revert to inherited"]
    menu.actions()[0].trigger()
    reverted = next(e for e in document.own("setup")["spaces"] if e["space"] == changed["space"]) \
        if any(e["space"] == changed["space"] for e in document.own("setup")["spaces"]) else {}
    assert "units" not in reverted
    after = document.find_merged("setup", (("spaces", ("space", changed["space"])),))
    before = next(e for e in document.parent_scenario.doc("setup")["spaces"] if e["space"] == changed["space"])
    assert after.get("units") == before.get("units")


def test_the_find_box_finds_on_the_first_enter_with_the_names_list_open(qtbot, window, tmp_path):
    shutil.copytree(REPO / "scenarios" / "northern-front", tmp_path / "northern-front")
    window.open_folder(tmp_path / "northern-front")
    find = window.find_edit
    find.setFocus()
    qtbot.keyClicks(find, "bel")
    popup = find.completer().popup()
    qtbot.waitUntil(popup.isVisible, timeout=3000)
    qtbot.keyClick(popup, Qt.Key_Return)   # the open list has the keys
    assert window.scene.spaces["belorussia"].isSelected()
    assert not popup.isVisible()


def test_a_refusal_in_the_status_bar_goes_with_the_next_good_edit(qtbot, window, workshop):
    window.open_folder(workshop)
    window.tabs.setCurrentWidget(window.units_page)
    model = window.units_view.source
    row = model.row_of(("id", "armour"))
    column = [c.header for c in model.columns].index("Cost")
    edit_cell(qtbot, window.units_view, row, column, "five")
    assert window.statusBar().currentMessage().startswith("Not stored — Cost:")
    edit_cell(qtbot, window.units_view, row, column, "6")
    assert window.statusBar().currentMessage() == ""


def test_the_history_names_what_changed(qtbot, window, workshop):
    window.open_folder(workshop)
    window.scene.select_space("finland")
    retype(qtbot, window.inspector.fields["value"], "4")
    panel = window.objectives_panel
    window.tabs.setCurrentWidget(panel)
    panel.select(("id", "defend-moscow"))
    panel.builder.op_choice.setCurrentText("turn")
    click(qtbot, button(panel.builder, "Add condition"))
    stack = window.document.undo_stack
    assert [stack.text(i) for i in range(stack.count())] == [
        "Set value of finland", "Edit the condition of defend-moscow"]
    assert window.undo_action.text() == "&Undo Edit the condition of defend-moscow"


def test_the_playtest_tab_is_in_sight_at_the_default_size(window, workshop):
    window.open_folder(workshop)
    bar = window.tabs.tabBar()
    playtest = next(i for i in range(window.tabs.count()) if window.tabs.tabText(i) == "Playtest")
    assert bar.rect().contains(bar.tabRect(playtest))


@pytest.mark.skipif(importlib.util.find_spec("playtest.study") is None, reason="playtest.study is not there")
def test_whole_games_take_the_options_and_validate_off_the_interface_thread(qtbot, window, tmp_path, monkeypatch):
    import editor.playtest_games as games_module
    for name in ("aa50-1941", "aa50-1942"):
        shutil.copytree(REPO / "scenarios" / name, tmp_path / name)
    window.open_folder(tmp_path / "aa50-1942")
    games = window.games_panel
    games.reload()
    assert {"national-objectives", "research", "victory"} <= set(games.option_fields)
    games.option_fields["national-objectives"][1].setChecked(False)
    assert games.chosen_options()["national_objectives"] is False
    threads = []
    checked = games_module.run_validators
    monkeypatch.setattr(games_module, "run_validators",
                        lambda snapshot: threads.append(threading.current_thread()) or checked(snapshot))
    played = {}

    def study(scenario, options, players, count, seed, max_rounds):
        played.update(options)
        raise RuntimeError("enough")   # the options are what is checked here, not the games
    monkeypatch.setattr("playtest.study.Study", study)
    with qtbot.waitSignal(games._signals.failed, timeout=60_000):
        assert games.run()
    assert threads and threads[0] is not threading.main_thread()
    assert played["national_objectives"] is False and played["research"] is False


def test_a_scenario_folder_dropped_on_the_window_opens(qtbot, window, tmp_path):
    shutil.copytree(REPO / "scenarios" / "northern-front", tmp_path / "northern-front")
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(tmp_path / "northern-front"))])
    drop = QDropEvent(QPointF(200, 200), Qt.CopyAction, data, Qt.LeftButton, Qt.NoModifier)
    window.dropEvent(drop)
    assert window.document is not None and window.document.root == tmp_path / "northern-front"
    empty = QMimeData()
    empty.setUrls([QUrl.fromLocalFile(str(tmp_path))])   # not a scenario: nothing happens
    window.dropEvent(QDropEvent(QPointF(200, 200), Qt.CopyAction, empty, Qt.LeftButton, Qt.NoModifier))
    assert window.document.root == tmp_path / "northern-front"


def test_the_edit_and_help_menus(qtbot, window, workshop):
    window.open_folder(workshop)
    menus = {m.title(): [a.text() for a in m.actions() if not a.isSeparator()]
             for m in window.menuBar().findChildren(type(window.edit_menu)) if m.title()}
    assert menus["&Edit"][2:] == ["Cu&t", "&Copy", "&Paste", "&Delete", "Select &All", "&Find Space…"]
    assert menus["&Help"] == ["&Documentation", "&Keyboard and Mouse", "&About Sandtable Editor"]
    # Copy and paste act on the field being typed in.
    field = window.scenario_panel.general.fields["name"]
    window.tabs.setCurrentWidget(window.scenario_panel)
    field.setFocus()
    field.selectAll()
    next(a for a in window.edit_menu.actions() if a.text() == "&Copy").trigger()
    assert QApplication.clipboard().text() == "Workshop"
    assert window.documentation_url().toLocalFile() == str(REPO / "docs" / "editor.md")
