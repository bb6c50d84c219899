"""The map canvas: the board as the scenario draws it, over an optional board image.

The scene mirrors the document's merged map; every gesture (place a new space, move a node, draw a
border, rename, delete, align the board image) becomes an undo command on the document, and the
scene follows the document's `changed` signal. Layers (labels, sea borders, land borders, the
board image, units) can be hidden.
"""
from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QKeySequence, QPainter, QPen, QPixmap, QTransform
from PySide6.QtWidgets import QGraphicsLineItem, QGraphicsPixmapItem, QGraphicsScene, QGraphicsView, QMenu

from .document import ScenarioDocument
from .ids import slug, unique_id
from .map_items import BorderItem, SpaceItem
from .map_layout import auto_layout
from .map_style import BORDER_STYLES, NEUTRAL, SEA_BORDER_KINDS, Owner, controllers, owner_palette

__all__ = ["BORDER_STYLES", "LAYERS", "MapScene", "MapView", "coordinate"]

LAYERS = ("labels", "land borders", "sea borders", "board image", "units")
MARKS = ("capital", "victory_city", "fortress")


class MapScene(QGraphicsScene):
    rename_requested = Signal(str)
    space_selected = Signal(str)
    drawn = Signal()             # the picture changed (for the overview)

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.spaces: dict[str, SpaceItem] = {}
        self.borders: dict[tuple[str, str], BorderItem] = {}
        self.board: QGraphicsPixmapItem | None = None
        self.link_mode = False
        self.place_mode = False          # a click on empty canvas places a new space
        self.new_space_kind = "land"
        self.new_border_kind = "land"
        self.display_locale: str | None = None  # None: the source language
        self.layers = {name: True for name in LAYERS}
        self.owners: dict[str, Owner] = {}
        self._board_image: str | None = None
        self._link_from: SpaceItem | None = None
        self._link_line: QGraphicsLineItem | None = None
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.selectionChanged.connect(self._selection_changed)
        document.changed.connect(self._document_changed)
        document.reloaded.connect(self.rebuild)
        self.rebuild()

    # -- building ---------------------------------------------------------------------------
    def rebuild(self) -> None:
        for item in list(self.spaces.values()) + list(self.borders.values()):
            self.removeItem(item)
        self.spaces.clear()
        self.borders.clear()
        self._place_unplaced()
        self._load_board()
        self.sync()

    def _place_unplaced(self) -> None:
        """Positions, in memory only, for spaces that have neither a position nor a shape."""
        spaces = self.document.entities("map", "spaces")
        ids = [s["id"] for s in spaces if isinstance(s.get("id"), str)]
        placed = {s["id"]: tuple(s["position"]) for s in spaces
                  if isinstance(s.get("id"), str) and _is_position(s.get("position"))}
        placed.update({s["id"]: _shape_centre(s["shape"]) for s in spaces
                       if isinstance(s.get("id"), str) and s["id"] not in placed and _shape_centre(s.get("shape"))})
        placed.update({k: tuple(v) for k, v in self.document.layout_positions.items() if k in ids})
        edges = [tuple(b["between"]) for b in self.document.entities("map", "borders")
                 if _is_pair(b.get("between"))]
        self.document.layout_positions.update(auto_layout(ids, edges, placed))

    def board_geometry(self) -> dict:
        board = self.document.merged("map").get("board")
        return board if isinstance(board, dict) else {}

    def _load_board(self) -> None:
        if self.board is not None:
            self.removeItem(self.board)
            self.board = None
        board = self.board_geometry()
        self._board_image = board.get("image")
        if not isinstance(board.get("image"), str):
            return
        path = self.document.root / board["image"]
        pixmap = QPixmap(str(path)) if path.is_file() else QPixmap()
        if pixmap.isNull():
            return
        item = QGraphicsPixmapItem(pixmap)
        item.setZValue(-10)
        item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        self.addItem(item)
        self.board = item
        self.place_board()
        item.setVisible(self.layers["board image"])

    def place_board(self, geometry: dict | None = None) -> None:
        """Put the board image where `geometry` (x, y, width, height) says: the map's, by default."""
        if self.board is None:
            return
        geometry = geometry or self.board_geometry()
        pixmap = self.board.pixmap()
        width, height = geometry.get("width"), geometry.get("height")
        sx = width / pixmap.width() if isinstance(width, (int, float)) and _is_number(width) else 1.0
        sy = height / pixmap.height() if isinstance(height, (int, float)) and _is_number(height) else 1.0
        from PySide6.QtGui import QTransform
        self.board.setTransform(QTransform.fromScale(sx, sy))
        self.board.setPos(float(geometry.get("x", 0) or 0), float(geometry.get("y", 0) or 0))

    def set_display_locale(self, tag: str | None) -> None:
        """Show space names in a locale (falling back along its chain), or in the source (None)."""
        self.display_locale = tag
        self.sync()

    def _shown_names(self) -> dict[str, str]:
        if not self.display_locale:
            return {}
        from sandtable.i18n import Translator

        from .validation import build_scenario
        translator = Translator(build_scenario(self.document.snapshot()), self.display_locale)
        names = {}
        for key in translator.keys():
            parts = key.split(".")
            if len(parts) == 3 and parts[0] == "spaces" and parts[2] == "name":
                names[parts[1]] = translator.text(key)
        return names

    def sync(self) -> None:
        """Bring the items in line with the document: add, update and drop by id."""
        self.owners = owner_palette(self.document.merged("scenario"))
        holders = controllers(self.document)
        marks = self._marks()
        shown = self._shown_names()
        units = self._units()
        seen = set()
        for space in self.document.entities("map", "spaces"):
            space_id = space.get("id")
            if not isinstance(space_id, str) or space_id in seen:
                continue
            seen.add(space_id)
            item = self.spaces.get(space_id)
            if item is None:
                item = SpaceItem(space_id)
                self.addItem(item)
                self.spaces[space_id] = item
                self._show_layers(item)
            given = space.get("position")
            position: list = given if isinstance(given, list) and _is_position(given) else (
                self.document.layout_positions.get(space_id) or list(_shape_centre(space.get("shape")) or (0, 0)))
            holder = holders.get(space_id)
            owner = self.owners.get(holder) if holder is not None else None
            fill = owner.colour.lighter(135) if owner is not None else NEUTRAL
            item.update_from(space, fill, owner.colour if owner is not None else None,
                             marks.get(space_id, set()), shown.get(space_id), position)
            item.units.set_units(units.get(space_id, ""))
        for space_id in [s for s in self.spaces if s not in seen]:
            gone = self.spaces.pop(space_id)
            for line in list(gone.borders):
                self._drop_border(line)
            self.removeItem(gone)
        wanted: dict[tuple[str, str], dict] = {}
        for border in self.document.entities("map", "borders"):
            pair = border.get("between")
            if isinstance(pair, list) and _is_pair(pair) and pair[0] in self.spaces and pair[1] in self.spaces:
                wanted[(pair[0], pair[1])] = border
        for key in [p for p in self.borders if p not in wanted]:
            self._drop_border(self.borders[key])
        for key, border in wanted.items():
            edge = self.borders.get(key)
            if edge is None:
                edge = BorderItem(self.spaces[key[0]], self.spaces[key[1]], border)
                self.addItem(edge)
                self.borders[key] = edge
            else:
                edge.update_from(border)
            edge.setVisible(self._border_shown(edge))
        self.drawn.emit()

    def _drop_border(self, item: BorderItem) -> None:
        item.detach()
        self.borders.pop(item.between, None)
        self.removeItem(item)

    def _document_changed(self, kind: str) -> None:
        if kind in ("map", "setup", "scenario", "units"):
            if kind == "map" and self.board_geometry().get("image") != getattr(self, "_board_image", None):
                self._board_image = self.board_geometry().get("image")
                self._load_board()
            elif kind == "map":
                self.place_board()
            self.sync()

    def _marks(self) -> dict[str, set[str]]:
        marks: dict[str, set[str]] = {}
        for space in self.document.entities("map", "spaces"):
            tags = space.get("tags")
            found = {t for t in tags if t in MARKS} if isinstance(tags, list) else set()
            if space.get("kind") == "fortress":
                found.add("fortress")
            if isinstance(space.get("id"), str):
                marks[space["id"]] = found
        for nation in self.document.merged("scenario").get("nations", []) or []:
            if isinstance(nation, dict) and isinstance(nation.get("capital"), str):
                marks.setdefault(nation["capital"], set()).add("capital")
        return marks

    def _units(self) -> dict[str, str]:
        """space id -> its starting units in short (`3 inf · 1 arm`)."""
        short = {}
        for unit in self.document.entities("units", "unit_types"):
            if isinstance(unit.get("id"), str):
                # The short name, else the start of the id, the ids designers type: aa-gun -> aa.
                short[unit["id"]] = unit["short_name"] if isinstance(unit.get("short_name"), str) \
                    else unit["id"].split("-")[0][:3]
        found = {}
        for entry in self.document.entities("setup", "spaces"):
            given = entry.get("units")
            stacks = given if isinstance(given, list) else []
            parts = [f"{s.get('count', 1)} {short.get(s.get('type'), s.get('type'))}" for s in stacks
                     if isinstance(s, dict) and isinstance(s.get("type"), str)]
            if parts and isinstance(entry.get("space"), str):
                found[entry["space"]] = " · ".join(parts)
        return found

    # -- layers ----------------------------------------------------------------------------------
    def set_layer(self, name: str, shown: bool) -> None:
        self.layers[name] = shown
        for space in self.spaces.values():
            self._show_layers(space)
        for edge in self.borders.values():
            edge.setVisible(self._border_shown(edge))
        if self.board is not None:
            self.board.setVisible(self.layers["board image"])
        self.drawn.emit()

    def _show_layers(self, item: SpaceItem) -> None:
        item.label.setVisible(self.layers["labels"])
        item.units.setVisible(self.layers["units"])

    def _border_shown(self, item: BorderItem) -> bool:
        return self.layers["sea borders" if item.kind in SEA_BORDER_KINDS else "land borders"]

    def map_rect(self) -> QRectF:
        """The board's extent (map.yaml `board` width and height), or what the items cover."""
        board = self.board_geometry()
        if _is_number(board.get("width")) and _is_number(board.get("height")):
            return QRectF(float(board.get("x", 0) or 0), float(board.get("y", 0) or 0),
                          float(board["width"]), float(board["height"]))
        return self.itemsBoundingRect()

    # -- gestures ---------------------------------------------------------------------------
    def linking(self, event) -> bool:
        return self.link_mode or bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)

    def start_link(self, item: SpaceItem, at: QPointF) -> None:
        self._link_from = item
        self._link_line = QGraphicsLineItem(QLineF(item.anchor(), at))
        self._link_line.setPen(QPen(QColor("#f0a000"), 2, Qt.PenStyle.DashLine))
        self._link_line.setZValue(5)
        self.addItem(self._link_line)

    def mousePressEvent(self, event) -> None:
        if self.place_mode and event.button() == Qt.MouseButton.LeftButton and self.space_at(event.scenePos()) is None:
            self.add_space(event.scenePos())
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        if self._link_line is not None and self._link_from is not None:
            self._link_line.setLine(QLineF(self._link_from.anchor(), event.scenePos()))
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if self._link_line is not None:
            start = self._link_from
            self.removeItem(self._link_line)
            self._link_line, self._link_from = None, None
            target = self.space_at(event.scenePos())
            # The space the drag started on took the mouse when it was pressed; the release is
            # handled here, so it must let go, or the next press (on any space) goes to it.
            grabber = self.mouseGrabberItem()
            if grabber is not None:
                grabber.ungrabMouse()
            if target is not None and start is not None and target is not start:
                self.add_border(start.space_id, target.space_id)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def space_at(self, point: QPointF) -> SpaceItem | None:
        for item in self.items(point):
            if isinstance(item, SpaceItem):
                return item
            owner = getattr(item, "space", None)   # a name or a units badge: its space
            if isinstance(owner, SpaceItem):
                return owner
        return None

    def add_space(self, at: QPointF, name: str | None = None) -> str:
        """A new space at `at` (one undo step); its id comes from its name and is unique."""
        taken = {s.get("id") for s in self.document.entities("map", "spaces")}
        names = {s.get("name") for s in self.document.entities("map", "spaces")}
        if name is None:
            number = 1
            while f"New space {number}" in names or slug(f"New space {number}") in taken:
                number += 1
            name = f"New space {number}"
        ident = unique_id(slug(name) or "space", taken)
        self.document.add_entity("map", (), "spaces", {
            "id": ident, "name": name, "kind": self.new_space_kind,
            "position": [coordinate(at.x()), coordinate(at.y())]}, f"Add space {ident}")
        self.select_space(ident)
        return ident

    def moved_spaces(self) -> None:
        """Spaces were dragged (all selected ones move together): one undoable step."""
        moved = [item for item in self.spaces.values() if item.isSelected() and not item.shaped]
        if not moved:
            return
        stack = self.document.undo_stack
        stack.beginMacro("Move " + (moved[0].name if len(moved) == 1 else f"{len(moved)} spaces"))
        for item in moved:
            self.document.set_field("map", (("spaces", ("id", item.space_id)),), ("position",),
                                    [coordinate(item.pos().x()), coordinate(item.pos().y())])
        stack.endMacro()

    def add_border(self, a: str, b: str, kind: str | None = None) -> bool:
        if (a, b) in self.borders or (b, a) in self.borders:
            return False
        self.document.add_entity("map", (), "borders",
                                 {"between": [a, b], "kind": kind or self.new_border_kind},
                                 f"Add border {a} – {b}")
        return True

    def delete_selected(self) -> None:
        chosen = self.selectedItems()
        if not chosen:
            return
        stack = self.document.undo_stack
        stack.beginMacro(f"Delete {len(chosen)} item(s)")
        spaces = {i.space_id for i in chosen if isinstance(i, SpaceItem)}
        for pair, item in list(self.borders.items()):
            if item in chosen or spaces & set(pair):
                self.document.remove_entity("map", (("borders", ("between", tuple(sorted(pair)))),))
        for space_id in spaces:
            self.document.remove_entity("map", (("spaces", ("id", space_id)),))
        stack.endMacro()

    def rename(self, space_id: str, name: str) -> None:
        if name.strip():
            self.document.set_field("map", (("spaces", ("id", space_id)),), ("name",), name.strip(),
                                    f"Rename {space_id}")

    def _selection_changed(self) -> None:
        chosen = [i for i in self.selectedItems() if isinstance(i, SpaceItem)]
        if len(chosen) == 1:
            self.space_selected.emit(chosen[0].space_id)

    def select_space(self, space_id: str) -> SpaceItem | None:
        item = self.spaces.get(space_id)
        self.clearSelection()
        if item is not None:
            item.setSelected(True)
        return item

    def select_border(self, pair: tuple[str, str]) -> BorderItem | None:
        item = self.borders.get((pair[0], pair[1])) or self.borders.get((pair[1], pair[0]))
        self.clearSelection()
        if item is not None:
            item.setSelected(True)
        return item


class MapView(QGraphicsView):
    """Zoom with the wheel, pan by dragging the background (or with the middle button anywhere),
    Delete removes, F2 renames, the right button offers what can be done where it is pressed.

    The canvas is larger than the map by a wide margin and only ever grows: placing a space near
    the edge does not shift the picture under the mouse (a scene rect that followed the items
    would re-centre the view after each one)."""

    MAX_FIT_SCALE = 1.5    # a map of a few spaces opens at a readable size, not blown up to fill the view
    ROOM = 2000.0          # scene units of canvas around the map, to place new spaces in

    context_menu_wanted = Signal(object, object, object)   # (menu, space or border or None, scene point)

    def __init__(self, scene: MapScene, parent=None):
        super().__init__(scene, parent)
        self.map_scene = scene
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setBackgroundBrush(QColor("#f7f5ef"))
        self.matches: list[str] = []
        self._match = -1
        self._needle = ""
        self._pan_from: QPointF | None = None
        self._room = QRectF()
        self.last_menu: QMenu | None = None   # the context menu shown last (while it is open)
        scene.rename_requested.connect(self.rename_in_place)
        scene.drawn.connect(self.keep_room)
        self.keep_room()

    # -- the canvas ------------------------------------------------------------------------------
    def keep_room(self) -> None:
        """Make the canvas cover the map with room to spare; when it must grow, the part of the
        map in view stays where it is."""
        # The board's extent when map.yaml gives it (what the items cover otherwise): asking the
        # scene for its items' extent after every edit costs a board of polygons a dozen ms.
        wanted = self.map_scene.map_rect()
        if self._room.isValid() and self._room.contains(wanted):
            return
        centre = self.mapToScene(self.viewport().rect().center()) if self._room.isValid() else None
        room = wanted.adjusted(-self.ROOM, -self.ROOM, self.ROOM, self.ROOM)
        self._room = self._room.united(room) if self._room.isValid() else room
        self.setSceneRect(self._room)
        if centre is not None:
            self.centerOn(centre)

    def wheelEvent(self, event) -> None:
        factor = 1.15 if event.angleDelta().y() > 0 else 1 / 1.15
        self.zoom(factor)

    def zoom(self, factor: float) -> None:
        scale = self.transform().m11() * factor
        if 0.02 < scale < 20:
            self.scale(factor, factor)

    def fit(self) -> None:
        """The whole map in view, at most somewhat larger than life (a new map of a few spaces
        opens at a scale to work at, not zoomed in tenfold)."""
        drawn = self.map_scene.map_rect()
        rect = drawn.adjusted(-30, -30, 30, 30)
        if not drawn.isValid() or drawn.isNull():   # nothing on the map yet: life size
            self.resetTransform()
            self.centerOn(0, 0)
            return
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        if self.transform().m11() > self.MAX_FIT_SCALE:
            self.setTransform(QTransform.fromScale(self.MAX_FIT_SCALE, self.MAX_FIT_SCALE))
            self.centerOn(rect.center())

    def visible_rect(self) -> QRectF:
        return self.mapToScene(self.viewport().rect()).boundingRect()

    # -- the middle button pans, wherever it is pressed -----------------------------------------
    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.MiddleButton:
            self._pan_from = event.position()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        if self._pan_from is not None:
            moved = event.position() - self._pan_from
            self._pan_from = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - round(moved.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - round(moved.y()))
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if self._pan_from is not None and event.button() == Qt.MouseButton.MiddleButton:
            self._pan_from = None
            self.viewport().unsetCursor()
            event.accept()
            return
        super().mouseReleaseEvent(event)

    # -- the right button: what can be done here ------------------------------------------------
    def contextMenuEvent(self, event) -> None:
        menu = self.menu_at(event.pos())
        if menu is not None and not menu.isEmpty():
            # Shown without a loop of its own (popup, not exec); gone once it closes.
            menu.aboutToHide.connect(menu.deleteLater)
            menu.popup(event.globalPos())
            self.last_menu = menu
        elif menu is not None:
            menu.deleteLater()
        event.accept()

    def menu_at(self, point) -> QMenu | None:
        """The actions that apply where the view's point is: on a space, on a border, or on the
        map itself. Whoever shows the map fills it in (context_menu_wanted)."""
        at = self.mapToScene(point)
        space = self.map_scene.space_at(at)
        border = None
        if space is None:
            border = next((i for i in self.map_scene.items(at) if isinstance(i, BorderItem)), None)
        target = space or border
        if target is not None and not target.isSelected():
            self.map_scene.clearSelection()
            target.setSelected(True)
        menu = QMenu(self)
        self.context_menu_wanted.emit(menu, target, at)
        return menu

    # -- finding ---------------------------------------------------------------------------------
    def find_space(self, text: str, backwards: bool = False) -> str | None:
        """Select and centre the next space (the previous one, backwards) whose name, shown
        name or id contains `text`; the same text again moves on through all the matches."""
        needle = text.strip().casefold()
        if not needle:
            self.matches, self._match, self._needle = [], -1, ""
            return None
        if needle != self._needle:
            items = sorted(self.map_scene.spaces.values(),
                           key=lambda i: (i.name.casefold() != needle, i.shown_name.casefold(), i.space_id))
            self.matches = [i.space_id for i in items if needle in i.name.casefold()
                            or needle in i.shown_name.casefold() or needle in i.space_id]
            self._needle, self._match = needle, -1
        self.matches = [m for m in self.matches if m in self.map_scene.spaces]
        if not self.matches:
            return None
        self._match = (self._match + (-1 if backwards else 1)) % len(self.matches)
        found = self.matches[self._match]
        item = self.map_scene.select_space(found)
        if item is not None:
            self.centerOn(item.anchor())
        return found

    @property
    def match_number(self) -> int:
        return self._match + 1

    def delete_selected(self) -> bool:
        """Delete what is selected (a space takes its borders along), once the designer agrees
        when other entries refer to the spaces (editor/removal.py)."""
        from .removal import confirm_removal
        spaces = [i.space_id for i in self.map_scene.selectedItems() if isinstance(i, SpaceItem)]
        if spaces and not confirm_removal(self, self.map_scene.document, "map", "spaces", spaces,
                                          going_along={("map", "/borders/")}):
            return False
        self.map_scene.delete_selected()
        return True

    def keyPressEvent(self, event) -> None:
        if event.matches(QKeySequence.StandardKey.Delete) or event.key() == Qt.Key.Key_Backspace:
            self.delete_selected()
            return
        if event.key() == Qt.Key.Key_F2:
            chosen = [i for i in self.map_scene.selectedItems() if isinstance(i, SpaceItem)]
            if chosen:
                self.rename_in_place(chosen[0].space_id)
            return
        super().keyPressEvent(event)

    def rename_in_place(self, space_id: str) -> None:
        item = self.map_scene.spaces.get(space_id)
        if item is not None:
            self.map_scene.select_space(space_id)
            item.label.start_editing()


def coordinate(value: float) -> int:
    """A scene coordinate as stored: whole pixels (a map needs no finer placing)."""
    return int(round(value))


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


def _is_position(value) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)


def _is_pair(value) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)


def _shape_centre(shape) -> tuple[float, float] | None:
    """The middle of a shape's label place, or of its polygons' extent."""
    from .map_items import shape_path
    if isinstance(shape, dict) and _is_position(shape.get("label")):
        x, y = shape["label"]
        return float(x), float(y)
    path = shape_path(shape)
    if path is None:
        return None
    centre = path.boundingRect().center()
    return centre.x(), centre.y()
