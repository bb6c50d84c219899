"""The map looks like the board: territories as filled polygons coloured by holder, sea as sea
(ringed in its controller's colour), names at the board's label places, a legend, layers that
hide, an overview, the board image aligned by two points, spaces placed with a click."""
from __future__ import annotations

import shutil
from itertools import pairwise
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QPoint, QPointF, Qt  # noqa: E402
from PySide6.QtGui import QColor, QFontMetricsF, QImage  # noqa: E402

from editor.map_style import PALETTE, SEA, owner_palette, text_colour  # noqa: E402

BOARD = Path(__file__).resolve().parent / "fixtures" / "editor" / "board"
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def window(open_editor, tmp_path):
    folder = tmp_path / "board"
    shutil.copytree(BOARD, folder)
    main = open_editor(folder, size=(1200, 800))
    main.map_view.fit()
    return main


def test_territories_are_filled_polygons_and_seas_are_sea(window):
    scene = window.scene
    red, blue, sea, outpost = (scene.spaces[i] for i in ("red-coast", "blue-hills", "north-sea", "outpost"))
    assert red.shaped and blue.shaped and sea.shaped and not outpost.shaped
    assert red.path.boundingRect().getRect() == (20, 20, 160, 160)
    assert blue.path.boundingRect().getRect() == (220, 20, 160, 210)   # the island is part of it
    colours = owner_palette(window.document.merged("scenario"))
    assert colours["redland"].colour == QColor(PALETTE[0]) and colours["blueland"].colour == QColor(PALETTE[1])
    assert red.fill == QColor(PALETTE[0]).lighter(135) and blue.fill == QColor(PALETTE[1]).lighter(135)
    assert sea.fill == SEA and sea.ring == QColor(PALETTE[1])     # held by Blueland, shown as a band
    assert red.ring is None
    # A territory cannot be dragged (its outline is the board's); a node can.
    assert not red.flags() & red.GraphicsItemFlag.ItemIsMovable
    assert outpost.flags() & outpost.GraphicsItemFlag.ItemIsMovable and outpost.pos() == QPointF(200, 100)
    # Borders run between centres, faint where the outlines already show them.
    assert scene.borders[("red-coast", "north-sea")].opacity() < 1
    assert scene.borders[("red-coast", "outpost")].opacity() == 1
    assert scene.borders[("red-coast", "outpost")].line().p1() == QPointF(100, 100)


def test_names_sit_where_the_board_puts_them_in_a_readable_colour(window):
    label = window.scene.spaces["red-coast"].label   # the board's name place: where its baseline starts
    margin = label.document().documentMargin()
    start = label.mapToScene(QPointF(margin, margin + QFontMetricsF(label.font()).ascent()))
    assert abs(start.x() - 60) < 0.01 and abs(start.y() - 60) < 0.01
    sea_label = window.scene.spaces["north-sea"].label
    centre = sea_label.mapToScene(sea_label.boundingRect().center())
    assert abs(centre.x() - 200) < 1 and abs(centre.y() - 250) < 1      # no label place: the position
    assert text_colour(QColor("#332288")) == QColor("#ffffff") and text_colour(QColor("#DDCC77")) == QColor("#111111")
    assert window.scene.spaces["red-coast"].units.text == "3 inf · 1 arm"


def test_the_legend_names_every_colour(window):
    entries = window.map_page.legend.entries
    assert entries == ["Redland", "Blueland", "neutral / no one", "sea", "sea zone held by Redland"]
    assert window.map_page.legend.isVisible()
    window.map_page.legend_action.setChecked(False)
    assert not window.map_page.legend.isVisible()


def test_layers_hide_and_show(window):
    page, scene = window.map_page, window.scene
    page.layer_actions["labels"].setChecked(False)
    assert not scene.spaces["red-coast"].label.isVisible()
    page.layer_actions["land borders"].setChecked(False)
    assert not scene.borders[("red-coast", "outpost")].isVisible()
    assert scene.borders[("red-coast", "north-sea")].isVisible()      # a coast is a sea border
    page.layer_actions["sea borders"].setChecked(False)
    assert not scene.borders[("red-coast", "north-sea")].isVisible()
    page.layer_actions["units"].setChecked(False)
    assert not scene.spaces["red-coast"].units.isVisible()
    page.layer_actions["labels"].setChecked(True)
    assert scene.spaces["red-coast"].label.isVisible()
    # A space added while a layer is hidden follows the layer.
    scene.add_space(QPointF(50, 250), "Cove")
    assert not scene.spaces["cove"].units.isVisible() and scene.spaces["cove"].label.isVisible()


def test_a_click_on_empty_canvas_places_a_new_space(qtbot, window):
    page, view = window.map_page, window.map_view
    page.place_action.setChecked(True)
    page.space_kind.setCurrentText("sea")
    point = view.mapFromScene(QPointF(390, 290))
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=point)
    spaces = window.document.own("map")["spaces"]
    new = spaces[-1]
    assert new["id"] == "new-space-1" and new["name"] == "New space 1" and new["kind"] == "sea"
    assert abs(new["position"][0] - 390) <= 2 and abs(new["position"][1] - 290) <= 2
    assert window.document.undo_stack.count() == 1
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.mapFromScene(QPointF(395, 10)))
    assert window.document.own("map")["spaces"][-1]["id"] == "new-space-2"
    # A click on a space selects it rather than placing another.
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.mapFromScene(QPointF(100, 150)))
    assert len(window.document.own("map")["spaces"]) == 6
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    assert "new-space-1" not in window.scene.spaces and len(window.document.own("map")["spaces"]) == 4


def test_the_overview_shows_the_board_and_moves_the_view(qtbot, window):
    view, overview = window.map_view, window.map_page.overview
    assert overview.isVisible() and not overview.image.isNull()
    view.resetTransform()
    view.scale(4, 4)
    qtbot.mouseClick(overview, Qt.LeftButton, pos=QPoint(overview.width() - 5, overview.height() - 5))
    centre = view.visible_rect().center()
    assert centre.x() > 280 and centre.y() > 200   # as near the bottom-right corner as the view goes


def test_find_moves_through_every_match_and_back(qtbot, window):
    page = window.map_page
    window.focus_find()
    qtbot.keyClicks(page.find_edit, "e")   # Red Coast, Blue Hills, North Sea, Outpost? no: no "e" in it
    found = []
    for _ in range(4):
        qtbot.keyClick(page.find_edit, Qt.Key_Return)
        found.append([i.space_id for i in window.scene.selectedItems()][0])
    assert found == ["blue-hills", "north-sea", "red-coast", "blue-hills"]
    assert window.statusBar().currentMessage() == "1 of 3: Blue Hills (blue-hills)"
    qtbot.keyClick(page.find_edit, Qt.Key_Return, Qt.ShiftModifier)
    assert [i.space_id for i in window.scene.selectedItems()] == ["red-coast"]
    assert page.find_result.text().strip() == "3 of 3"


def test_a_board_image_from_elsewhere_is_copied_in_and_aligned_by_two_points(qtbot, window, tmp_path):
    image = QImage(80, 60, QImage.Format_RGB32)
    image.fill(QColor("#336699"))
    outside = tmp_path / "scan.png"
    assert image.save(str(outside))
    page, scene, document = window.map_page, window.scene, window.document
    assert page.set_board_image(outside) == "board/scan.png"
    assert (document.root / "board" / "scan.png").is_file()
    assert scene.board is not None and scene.board.sceneBoundingRect().getRect() == (0, 0, 400, 300)
    page.align_action.setChecked(True)
    first, second = page.aligner.handles
    assert first.pos() == QPointF(100, 75) and second.pos() == QPointF(300, 225)   # a quarter in
    view = window.map_view
    start = view.mapFromScene(second.pos())
    end = view.mapFromScene(QPointF(500, 375))
    qtbot.mousePress(view.viewport(), Qt.LeftButton, pos=start)
    for step in range(1, 5):
        from editor_soak import _move
        _move(view.viewport(), start + (end - start) * step / 4)
    qtbot.mouseRelease(view.viewport(), Qt.LeftButton, pos=end)
    board = document.own("map")["board"]
    # Point 1 stayed at (100, 75) and point 2 went to about (500, 375): twice the size, moved up-left.
    slack = 2 / view.transform().m11()
    assert abs(board["width"] - 800) <= 2 * slack and abs(board["height"] - 600) <= 2 * slack
    assert abs(board["x"] + 100) <= slack and abs(board["y"] + 75) <= slack
    assert board["image"] == "board/scan.png"
    assert document.undo_stack.text(document.undo_stack.count() - 1) == "Align the board image"
    document.undo_stack.undo()
    assert document.own("map")["board"] == {"image": "board/scan.png", "width": 400, "height": 300}
    assert scene.board.sceneBoundingRect().getRect() == (0, 0, 400, 300)
    page.layer_actions["board image"].setChecked(False)
    assert not scene.board.isVisible()


def test_the_aa50_palette_has_no_near_white_nation(qapp):
    from sandtable.scenario import load_scenario
    owners = owner_palette(load_scenario(REPO / "scenarios" / "aa50-1941").manifest)
    colours = [o.colour.lighter(135) for o in owners.values()]
    assert len(owners) == 7 and len({c.name() for c in colours}) == 7
    assert all(c.lightnessF() < 0.9 for c in colours)
    assert all(c.name() != SEA.name() for c in colours)


def test_borders_drawn_one_after_another_each_start_where_they_are_dragged_from(qtbot, window):
    """A drag that starts on the space where the last one ended starts there (a→b, then b→c gives
    b–c): the space a drag started on is not left holding the mouse."""
    page, view = window.map_page, window.map_view
    page.place_action.setChecked(True)
    for point in ((390, 290), (395, 10), (200, 150)):
        qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.mapFromScene(QPointF(*point)))
    page.place_action.setChecked(False)
    page.link_action.setChecked(True)
    chain = ["new-space-1", "new-space-2", "new-space-3", "outpost", "new-space-1"]
    for start, end in pairwise(chain):
        a = view.mapFromScene(window.scene.spaces[start].anchor())
        b = view.mapFromScene(window.scene.spaces[end].anchor())
        qtbot.mousePress(view.viewport(), Qt.LeftButton, pos=a)
        qtbot.mouseMove(view.viewport(), (a + b) / 2)
        qtbot.mouseMove(view.viewport(), b)
        qtbot.mouseRelease(view.viewport(), Qt.LeftButton, pos=b)
    drawn = [tuple(b["between"]) for b in window.document.own("map")["borders"][4:]]
    assert drawn == list(pairwise(chain))
    assert window.scene.mouseGrabberItem() is None
