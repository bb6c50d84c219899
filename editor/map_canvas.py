"""The map canvas: spaces as nodes, borders as edges, over an optional board image.

The scene mirrors the document's merged map; every gesture (move, draw a border, rename, delete)
becomes an undo command on the document, and the scene follows the document's `changed` signal.
"""
from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QKeySequence,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPolygonF,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsObject,
    QGraphicsPixmapItem,
    QGraphicsScene,
    QGraphicsTextItem,
    QGraphicsView,
)

from .document import ScenarioDocument
from .map_layout import auto_layout

RADIUS = 18.0
SEA_FILL = QColor("#cfe3f3")
NEUTRAL_FILL = QColor("#e8e2d0")
# How each border kind is drawn: colour, width, pen style.
BORDER_STYLES = {
    "land": ("#5a4a32", 2.0, Qt.SolidLine),
    "mountain": ("#8b5a2b", 4.0, Qt.DashLine),
    "river": ("#2f6fb3", 3.0, Qt.DashDotLine),
    "sea": ("#4a90c8", 2.0, Qt.DashLine),
    "coast": ("#7fb0d8", 1.5, Qt.DotLine),
    "strait": ("#1c6e8c", 3.0, Qt.DashDotDotLine),
    "canal": ("#1b8a3a", 3.5, Qt.DashDotLine),
    "wrap": ("#999999", 1.0, Qt.DotLine),
    "track": ("#333333", 1.5, Qt.SolidLine),
}


def border_pen(kind: str) -> QPen:
    colour, width, style = BORDER_STYLES.get(kind, ("#aa00aa", 2.0, Qt.SolidLine))
    pen = QPen(QColor(colour), width, style)
    pen.setCosmetic(False)
    return pen


class SpaceItem(QGraphicsObject):
    """One space: a disc (land) or a rounded square (sea), filled with its owner's colour."""

    def __init__(self, space_id: str, scene: "MapScene"):
        super().__init__()
        self.space_id = space_id
        self.borders: list[BorderItem] = []
        self.fill = NEUTRAL_FILL
        self.is_sea = False
        self.marks: set[str] = set()
        self.name = space_id
        self.shown_name = space_id
        self._press_pos: QPointF | None = None
        self.setFlags(QGraphicsItem.ItemIsMovable | QGraphicsItem.ItemIsSelectable
                      | QGraphicsItem.ItemSendsGeometryChanges)
        self.setZValue(2)
        self.label = NameLabel(self)

    @property
    def map_scene(self) -> "MapScene":
        # Asked of Qt rather than kept: a Python reference from item to scene would make a
        # reference cycle, and collecting such cycles of Qt wrappers can crash the interpreter.
        return self.scene()

    def update_from(self, space: dict, fill: QColor, marks: set[str], shown: str | None = None) -> None:
        """`shown` is the name in the display language; the source name is what a rename edits."""
        looks = (space.get("name"), shown, space.get("kind"), fill.rgba(), frozenset(marks))
        if looks == getattr(self, "_looks", None):
            return  # nothing to redraw: most edits touch one space of hundreds
        self._looks = looks
        self.name = str(space.get("name") or self.space_id)
        self.shown_name = shown or self.name
        self.is_sea = space.get("kind") == "sea"
        self.fill = SEA_FILL if self.is_sea else fill
        self.marks = marks
        if not self.label.editing:
            self.label.setPlainText(self.shown_name)
            self.label.centre()
        names = self.name if self.shown_name == self.name else f"{self.shown_name} / {self.name}"
        self.setToolTip(f"{names} ({self.space_id})")
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(-RADIUS - 8, -RADIUS - 8, 2 * RADIUS + 16, 2 * RADIUS + 16)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addEllipse(QPointF(0, 0), RADIUS, RADIUS)
        return path

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing)
        selected = self.isSelected()
        painter.setPen(QPen(QColor("#f0a000") if selected else QColor("#333333"), 3 if selected else 1.2))
        painter.setBrush(QBrush(self.fill))
        rect = QRectF(-RADIUS, -RADIUS, 2 * RADIUS, 2 * RADIUS)
        if self.is_sea:
            painter.drawRoundedRect(rect, 6, 6)
        else:
            painter.drawEllipse(rect)
        if "capital" in self.marks:
            painter.setBrush(QColor("#f5d000"))
            painter.setPen(QPen(QColor("#5a4a00"), 1))
            painter.drawPolygon(_star(QPointF(0, 0), 9, 4))
        elif "victory_city" in self.marks:
            painter.setBrush(QColor("#ffffff"))
            painter.setPen(QPen(QColor("#222222"), 1.5))
            painter.drawEllipse(QPointF(0, 0), 5, 5)
        if "fortress" in self.marks:
            painter.setPen(QPen(QColor("#222222"), 2))
            painter.setBrush(Qt.NoBrush)
            painter.drawRect(QRectF(-RADIUS - 4, -RADIUS - 4, 2 * RADIUS + 8, 2 * RADIUS + 8))

    def itemChange(self, change, value):
        if change == QGraphicsItem.ItemPositionHasChanged:
            for border in self.borders:
                border.follow()
        return super().itemChange(change, value)

    def mousePressEvent(self, event) -> None:
        if self.map_scene.linking(event):
            self.map_scene.start_link(self, event.scenePos())
            event.accept()
            return
        self._press_pos = self.pos()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        if self._press_pos is not None and self.pos() != self._press_pos:
            self.map_scene.moved_spaces()
        self._press_pos = None

    def mouseDoubleClickEvent(self, event) -> None:
        self.map_scene.rename_requested.emit(self.space_id)
        event.accept()


class NameLabel(QGraphicsTextItem):
    """A space's name under it, editable in place: Enter keeps the new name, Escape drops it."""

    def __init__(self, space: SpaceItem):
        super().__init__(space)
        self.space = space
        self.editing = False
        self.setDefaultTextColor(QColor("#111111"))
        font = QFont()
        font.setPointSizeF(8)
        self.setFont(font)

    def centre(self) -> None:
        self.setPos(-self.boundingRect().width() / 2, RADIUS + 1)

    def start_editing(self) -> None:
        self.editing = True
        self.setPlainText(self.space.name)  # a rename edits the source text, whatever is shown
        self.setTextInteractionFlags(Qt.TextEditorInteraction)
        self.setFocus(Qt.OtherFocusReason)
        cursor = self.textCursor()
        cursor.select(cursor.SelectionType.Document)
        self.setTextCursor(cursor)

    def finish_editing(self, keep: bool) -> None:
        if not self.editing:
            return
        self.editing = False
        self.setTextInteractionFlags(Qt.NoTextInteraction)
        self.clearFocus()
        text = self.toPlainText().strip()
        if keep and text and text != self.space.name:
            self.space.map_scene.rename(self.space.space_id, text)
        else:
            self.setPlainText(self.space.shown_name)
        self.centre()

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key_Return, Qt.Key_Enter):
            self.finish_editing(True)
        elif event.key() == Qt.Key_Escape:
            self.finish_editing(False)
        else:
            super().keyPressEvent(event)

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.finish_editing(True)


def _star(centre: QPointF, outer: float, inner: float) -> QPolygonF:
    import math
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append(QPointF(centre.x() + radius * math.cos(angle), centre.y() + radius * math.sin(angle)))
    return QPolygonF(points)


class BorderItem(QGraphicsLineItem):
    def __init__(self, a: SpaceItem, b: SpaceItem, border: dict):
        super().__init__()
        self.a, self.b = a, b
        self.between = tuple(border["between"])
        self.setFlags(QGraphicsItem.ItemIsSelectable)
        self.setZValue(1)
        a.borders.append(self)
        b.borders.append(self)
        self.update_from(border)
        self.follow()

    def update_from(self, border: dict) -> None:
        if str(border.get("kind", "")) == getattr(self, "kind", None):
            return
        self.kind = str(border.get("kind", ""))
        self.setPen(border_pen(self.kind))
        self.setToolTip(f"{self.kind} border: {self.between[0]} – {self.between[1]}")

    def follow(self) -> None:
        self.setLine(QLineF(self.a.pos(), self.b.pos()))

    def detach(self) -> None:
        for end in (self.a, self.b):
            if self in end.borders:
                end.borders.remove(self)

    def paint(self, painter, option, widget=None) -> None:
        if self.isSelected():
            painter.setPen(QPen(QColor("#f0a000"), self.pen().widthF() + 3))
            painter.drawLine(self.line())
        painter.setPen(self.pen())
        painter.drawLine(self.line())


class MapScene(QGraphicsScene):
    rename_requested = Signal(str)
    space_selected = Signal(str)

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__(parent)
        self.document = document
        self.spaces: dict[str, SpaceItem] = {}
        self.borders: dict[tuple[str, str], BorderItem] = {}
        self.board: QGraphicsPixmapItem | None = None
        self.link_mode = False
        self.new_border_kind = "land"
        self.display_locale: str | None = None  # None: the source language
        self._link_from: SpaceItem | None = None
        self._link_line: QGraphicsLineItem | None = None
        self.setItemIndexMethod(QGraphicsScene.NoIndex)
        self.selectionChanged.connect(self._selection_changed)
        document.changed.connect(self._document_changed)
        document.reloaded.connect(self.rebuild)
        self.rebuild()

    # -- building ---------------------------------------------------------------------------
    def rebuild(self) -> None:
        for item in list(self.spaces.values()):
            self.removeItem(item)
        for item in list(self.borders.values()):
            self.removeItem(item)
        self.spaces.clear()
        self.borders.clear()
        self._place_unplaced()
        self._load_board()
        self.sync()

    def _place_unplaced(self) -> None:
        spaces = self.document.entities("map", "spaces")
        ids = [s["id"] for s in spaces if isinstance(s.get("id"), str)]
        placed = {s["id"]: tuple(s["position"]) for s in spaces
                  if isinstance(s.get("id"), str) and _is_position(s.get("position"))}
        placed.update({k: tuple(v) for k, v in self.document.layout_positions.items() if k in ids})
        edges = [tuple(b["between"]) for b in self.document.entities("map", "borders")
                 if _is_pair(b.get("between"))]
        self.document.layout_positions.update(auto_layout(ids, edges, placed))

    def _load_board(self) -> None:
        if self.board is not None:
            self.removeItem(self.board)
            self.board = None
        board = self.document.merged("map").get("board")
        if not isinstance(board, dict) or not isinstance(board.get("image"), str):
            return
        path = self.document.root / board["image"]
        pixmap = QPixmap(str(path)) if path.is_file() else QPixmap()
        if pixmap.isNull():
            return
        item = QGraphicsPixmapItem(pixmap)
        width, height = board.get("width"), board.get("height")
        if isinstance(width, (int, float)) and isinstance(height, (int, float)):
            item.setTransform(item.transform().scale(width / pixmap.width(), height / pixmap.height()))
        item.setZValue(-10)
        self.addItem(item)
        self.board = item

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
        colours = self._owner_colours()
        marks = self._marks()
        shown = self._shown_names()
        seen = set()
        for space in self.document.entities("map", "spaces"):
            space_id = space.get("id")
            if not isinstance(space_id, str) or space_id in seen:
                continue
            seen.add(space_id)
            item = self.spaces.get(space_id)
            if item is None:
                item = SpaceItem(space_id, self)
                self.addItem(item)
                self.spaces[space_id] = item
            position = space.get("position")
            if not _is_position(position):
                position = self.document.layout_positions.get(space_id, [0, 0])
            if item.pos() != QPointF(*position):
                item.setPos(QPointF(*position))
            item.update_from(space, colours.get(space_id, NEUTRAL_FILL), marks.get(space_id, set()),
                             shown.get(space_id))
        for space_id in [s for s in self.spaces if s not in seen]:
            item = self.spaces.pop(space_id)
            for border in list(item.borders):
                self._drop_border(border)
            self.removeItem(item)
        wanted = {}
        for border in self.document.entities("map", "borders"):
            pair = border.get("between")
            if _is_pair(pair) and pair[0] in self.spaces and pair[1] in self.spaces:
                wanted[tuple(pair)] = border
        for pair in [p for p in self.borders if p not in wanted]:
            self._drop_border(self.borders[pair])
        for pair, border in wanted.items():
            item = self.borders.get(pair)
            if item is None:
                item = BorderItem(self.spaces[pair[0]], self.spaces[pair[1]], border)
                self.addItem(item)
                self.borders[pair] = item
            else:
                item.update_from(border)

    def _drop_border(self, item: BorderItem) -> None:
        item.detach()
        self.borders.pop(item.between, None)
        self.removeItem(item)

    def _document_changed(self, kind: str) -> None:
        if kind in ("map", "setup", "scenario"):
            self.sync()

    def _owner_colours(self) -> dict[str, QColor]:
        manifest = self.document.merged("scenario")
        colours = {}
        sides = {s.get("id"): s for s in manifest.get("sides", []) if isinstance(s, dict)}
        for collection in ("sides", "nations"):
            for entity in manifest.get(collection, []) or []:
                if not isinstance(entity, dict):
                    continue
                colour = entity.get("color") or sides.get(entity.get("side"), {}).get("color")
                if isinstance(colour, str):
                    colours[entity.get("id")] = QColor(colour).lighter(170)
        owner = {}
        for space in self.document.entities("map", "spaces"):
            if isinstance(space.get("original_owner"), str):
                owner[space.get("id")] = space["original_owner"]
        for entry in self.document.entities("setup", "spaces"):
            if isinstance(entry.get("control"), str):
                owner[entry.get("space")] = entry["control"]
        return {space: colours[who] for space, who in owner.items() if who in colours}

    def _marks(self) -> dict[str, set[str]]:
        marks: dict[str, set[str]] = {}
        for space in self.document.entities("map", "spaces"):
            tags = space.get("tags") if isinstance(space.get("tags"), list) else []
            found = {t for t in tags if t in ("capital", "victory_city", "fortress")}
            if space.get("kind") == "fortress":
                found.add("fortress")
            marks[space.get("id")] = found
        for nation in self.document.merged("scenario").get("nations", []) or []:
            if isinstance(nation, dict) and isinstance(nation.get("capital"), str):
                marks.setdefault(nation["capital"], set()).add("capital")
        return marks

    # -- gestures ---------------------------------------------------------------------------
    def linking(self, event) -> bool:
        return self.link_mode or bool(event.modifiers() & Qt.ShiftModifier)

    def start_link(self, item: SpaceItem, at: QPointF) -> None:
        self._link_from = item
        self._link_line = QGraphicsLineItem(QLineF(item.pos(), at))
        self._link_line.setPen(QPen(QColor("#f0a000"), 2, Qt.DashLine))
        self._link_line.setZValue(5)
        self.addItem(self._link_line)

    def mouseMoveEvent(self, event) -> None:
        if self._link_line is not None:
            self._link_line.setLine(QLineF(self._link_from.pos(), event.scenePos()))
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if self._link_line is not None:
            start = self._link_from
            self.removeItem(self._link_line)
            self._link_line, self._link_from = None, None
            target = self.space_at(event.scenePos())
            if target is not None and target is not start:
                self.add_border(start.space_id, target.space_id)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def space_at(self, point: QPointF) -> SpaceItem | None:
        for item in self.items(point):
            if isinstance(item, SpaceItem):
                return item
        return None

    def moved_spaces(self) -> None:
        """Spaces were dragged (all selected ones move together): one undoable step."""
        moved = [item for item in self.spaces.values() if item.isSelected()]
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
        item = self.borders.get(tuple(pair)) or self.borders.get(tuple(reversed(pair)))
        self.clearSelection()
        if item is not None:
            item.setSelected(True)
        return item


class MapView(QGraphicsView):
    """Zoom with the wheel, pan by dragging the background, Delete removes, F2 renames."""

    def __init__(self, scene: MapScene, parent=None):
        super().__init__(scene, parent)
        self.map_scene = scene
        self.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.setDragMode(QGraphicsView.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.SmartViewportUpdate)
        self.setBackgroundBrush(QColor("#f7f5ef"))
        scene.rename_requested.connect(self.rename_in_place)

    def wheelEvent(self, event) -> None:
        factor = 1.15 if event.angleDelta().y() > 0 else 1 / 1.15
        self.zoom(factor)

    def zoom(self, factor: float) -> None:
        scale = self.transform().m11() * factor
        if 0.05 < scale < 20:
            self.scale(factor, factor)

    def fit(self) -> None:
        rect = self.map_scene.itemsBoundingRect().adjusted(-30, -30, 30, 30)
        if rect.isValid():
            self.fitInView(rect, Qt.KeepAspectRatio)

    def find(self, text: str) -> str | None:
        """Select and centre the first space whose name or id contains `text`."""
        needle = text.strip().casefold()
        if not needle:
            return None
        items = sorted(self.map_scene.spaces.values(), key=lambda i: (i.name.casefold() != needle, i.name))
        for item in items:
            if needle in item.name.casefold() or needle in item.space_id:
                self.map_scene.select_space(item.space_id)
                self.centerOn(item)
                return item.space_id
        return None

    def keyPressEvent(self, event) -> None:
        if event.matches(QKeySequence.Delete) or event.key() == Qt.Key_Backspace:
            self.map_scene.delete_selected()
            return
        if event.key() == Qt.Key_F2:
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


def _is_position(value) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)


def _is_pair(value) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)
