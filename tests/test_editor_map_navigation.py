"""The map as a designer expects it from Tiled or TripleA's map tools: a new map opens at a scale
to work at and stays still under the mouse while spaces are placed; Ctrl+= zooms; the middle
button pans; the right button offers what can be done where it is pressed; borders across the
board's wrapped edge go to the edge; the legend and the overview never cover a space."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QPoint, QPointF, QRect, Qt  # noqa: E402
from PySide6.QtGui import QContextMenuEvent  # noqa: E402
from PySide6.QtWidgets import QApplication, QMenu, QMessageBox  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def window(open_editor):
    return open_editor(size=(1400, 900))


def open_copy(window, tmp_path, *names: str):
    for name in names:
        shutil.copytree(REPO / "scenarios" / name, tmp_path / name)
    window.open_folder(tmp_path / names[-1])
    window.map_view.fit()


def test_a_new_map_opens_at_a_working_scale_and_stays_still_while_spaces_are_placed(qtbot, window, tmp_path):
    window.create_scenario(tmp_path / "fresh", "generic", "Fresh")
    view, page = window.map_view, window.map_page
    qtbot.wait(1)
    assert view.transform().m11() == pytest.approx(1.0)
    page.place_action.setChecked(True)
    corner = QPoint(40, 40)
    clicks = [QPoint(200, 150), QPoint(260, 160), QPoint(900, 600), QPoint(30, 600)]
    for number, point in enumerate(clicks, 1):
        before = view.mapToScene(corner)
        qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=point)
        # The canvas does not move: the same scene point is under the same place of the view...
        assert view.mapToScene(corner) == before
        # ... and the space is where the mouse was.
        placed = window.scene.spaces[f"new-space-{number}"].pos()
        assert (view.mapFromScene(placed) - point).manhattanLength() <= 2
    # A fit of a map of a few spaces does not blow them up tenfold.
    view.fit()
    assert view.transform().m11() <= view.MAX_FIT_SCALE


def test_ctrl_equals_and_ctrl_minus_zoom(qtbot, window, tmp_path):
    open_copy(window, tmp_path, "northern-front")
    view = window.map_view
    start = view.transform().m11()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key_Equal, Qt.ControlModifier)
    assert view.transform().m11() == pytest.approx(start * 1.25)
    qtbot.keyClick(view, Qt.Key_Plus, Qt.ControlModifier)
    assert view.transform().m11() == pytest.approx(start * 1.25 * 1.25)
    qtbot.keyClick(view, Qt.Key_Minus, Qt.ControlModifier)
    assert view.transform().m11() == pytest.approx(start * 1.25)


def test_the_middle_button_pans_even_over_a_space(qtbot, window, tmp_path):
    open_copy(window, tmp_path, "northern-front")
    view = window.map_view
    view.zoom(3)
    russia = window.scene.spaces["russia"]
    view.centerOn(russia.anchor())
    start = view.mapFromScene(russia.anchor())     # on a space: a left drag would move it
    before = view.mapToScene(QPoint(0, 0))
    qtbot.mousePress(view.viewport(), Qt.MiddleButton, pos=start)
    qtbot.mouseMove(view.viewport(), start + QPoint(40, 20))
    qtbot.mouseMove(view.viewport(), start + QPoint(80, 40))
    qtbot.mouseRelease(view.viewport(), Qt.MiddleButton, pos=start + QPoint(80, 40))
    moved = before - view.mapToScene(QPoint(0, 0))
    scale = view.transform().m11()
    assert moved.x() == pytest.approx(80 / scale, abs=1.5 / scale)
    assert moved.y() == pytest.approx(40 / scale, abs=1.5 / scale)
    assert window.document.undo_stack.count() == 0   # nothing moved but the view


def menu_by_right_click(qtbot, view, point: QPoint) -> QMenu:
    """A right click, and the menu it opens. (QTest's click goes to the widget itself; the window
    system's context-menu event that follows a real one is sent as the platform sends it.)"""
    view.last_menu = None
    qtbot.mouseClick(view.viewport(), Qt.RightButton, pos=point)
    QApplication.sendEvent(view.viewport(), QContextMenuEvent(QContextMenuEvent.Reason.Mouse, point,
                                                             view.viewport().mapToGlobal(point)))
    qtbot.waitUntil(lambda: view.last_menu is not None and view.last_menu.isVisible(), timeout=3000)
    return view.last_menu


def actions(menu: QMenu) -> list[str]:
    return [a.text() for a in menu.actions() if not a.isSeparator()]


def trigger(menu: QMenu, text: str) -> None:
    for action in menu.actions():
        if action.text() == text:
            action.trigger()
            return
        if action.menu() is not None and any(a.text() == text for a in action.menu().actions()):
            next(a for a in action.menu().actions() if a.text() == text).trigger()
            return
    raise AssertionError(f"no {text!r} in {actions(menu)}")


def test_the_right_button_offers_what_applies_there(qtbot, window, tmp_path, monkeypatch):
    open_copy(window, tmp_path, "northern-front")
    view, scene, document = window.map_view, window.scene, window.document
    # On the map itself: a space can be added right there.
    empty = QPointF(-150, -150)
    menu = menu_by_right_click(qtbot, view, view.mapFromScene(empty))
    assert actions(menu) == ["Add a land space here", "Add a sea space here", "Fit map\tCtrl+0", "Store layout"]
    trigger(menu, "Add a sea space here")
    added = document.own("map")["spaces"][-1]
    assert added["kind"] == "sea" and abs(added["position"][0] + 150) <= 1 and abs(added["position"][1] + 150) <= 1
    # On a border: its kind, or away with it.
    a, b = scene.spaces["finland"].anchor(), scene.spaces["sweden"].anchor()
    menu = menu_by_right_click(qtbot, view, view.mapFromScene((a + b) / 2))
    assert actions(menu) == ["Kind", "Delete border\tDel"]
    trigger(menu, "mountain")
    border = next(x for x in document.own("map")["borders"] if sorted(x["between"]) == ["finland", "sweden"])
    assert border["kind"] == "mountain"
    # On a space: rename, a new id, its kind, delete (asked first, since others name it).
    menu = menu_by_right_click(qtbot, view, view.mapFromScene(scene.spaces["norway"].anchor()))
    assert actions(menu) == ["Rename Norway…\tF2", "Change its id…", "Kind", "Delete space\tDel"]
    assert scene.spaces["norway"].isSelected()
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda *args: asked.append(args[2]) or QMessageBox.StandardButton.No)
    trigger(menu, "Delete space\tDel")
    assert "norway" in scene.spaces and asked == [   # its setup entry, and the Allies' victory condition
        "2 reference(s) to norway would then name nothing (1 in setup.yaml, 1 in scenario.yaml); the problems "
        "list will show each. Remove all the same? (Undo brings it back.)"]
    menu.hide()


def test_deleting_a_space_others_name_says_how_many_references_break_first(qtbot, window, tmp_path, monkeypatch):
    open_copy(window, tmp_path, "northern-front")
    scene, view = window.scene, window.map_view
    asked: list[str] = []
    answer = [QMessageBox.StandardButton.No]
    monkeypatch.setattr(QMessageBox, "question", lambda *args: asked.append(args[2]) or answer[0])
    scene.select_space("karelia-ssr")
    view.setFocus()
    qtbot.keyClick(view, Qt.Key_Delete)
    assert "karelia-ssr" in scene.spaces   # No: nothing happened
    assert asked == ["1 reference(s) to karelia-ssr would then name nothing (1 in setup.yaml); the problems "
                     "list will show each. Remove all the same? (Undo brings it back.)"]
    answer[0] = QMessageBox.StandardButton.Yes
    qtbot.keyClick(view, Qt.Key_Delete)
    assert "karelia-ssr" not in scene.spaces and len(asked) == 2


def test_a_wrap_border_is_drawn_to_the_edges_not_across_the_board(window, tmp_path):
    open_copy(window, tmp_path, "aa50-1941")
    scene = window.scene
    board = scene.map_rect()
    border = scene.borders.get(("sz-20", "sz-55")) or scene.borders[("sz-55", "sz-20")]
    assert border.kind == "wrap" and len(border.segments) == 2
    east, west = border.segments
    assert east.p2().x() == board.right() and west.p1().x() == board.left()
    assert east.p2().y() == west.p1().y()          # they meet the edges at the same height
    for segment in (east, west):
        assert abs(segment.dx()) < board.width() / 2   # neither crosses the board
    assert border.boundingRect().width() > board.width() * 0.9   # both ends are drawn ...
    middle = QPointF(board.center().x(), east.p2().y())
    assert not border.shape().contains(middle)       # ... and nothing in between


@pytest.mark.parametrize("names", [("northern-front",), ("aa50-1941",)])
def test_the_legend_and_the_overview_never_cover_the_map(window, tmp_path, names):
    open_copy(window, tmp_path, *names)
    page = window.map_page
    viewport = QRect(page.view.viewport().mapTo(window, QPoint(0, 0)), page.view.viewport().size())
    for overlay in (page.legend, page.overview):
        assert overlay.isVisible()
        where = QRect(overlay.mapTo(window, QPoint(0, 0)), overlay.size())
        assert not where.intersects(viewport)
    page.legend_action.setChecked(False)
    page.overview_action.setChecked(False)
    assert not page.overlays.isVisible()   # and the map takes the room back
