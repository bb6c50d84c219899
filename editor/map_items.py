"""The things drawn on the map: spaces (a territory's polygons, or a node), their names and units,
and the borders between them.

A space with a `shape` is drawn as the board draws it: its polygons filled with its holder's
colour (sea zones as sea, ringed in the colour of whoever controls them), its name at the board's
label place. A space without a shape is a node at its position (a disc for land, a rounded square
for sea) that can be dragged. Items ask Qt for their scene rather than keep it: a Python reference
from item to scene would make a cycle of Qt wrappers, and collecting those can crash.
"""
from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QGraphicsItem, QGraphicsLineItem, QGraphicsObject, QGraphicsTextItem

from .document import copy_data
from .map_style import LAND_EDGE, NEUTRAL, SEA, SEA_EDGE, SELECTED, border_pen, text_colour

RADIUS = 18.0
BOARD_LETTERS = 13   # pixels: the size of the printed names on a board of a few thousand pixels
FAINT = 0.35         # borders between two drawn territories: the outlines already show them
SEA_Z, SHAPE_Z, BORDER_Z, NODE_Z, LABEL_Z, UNITS_Z = -1.0, 0.0, 1.0, 2.0, 3.0, 4.0


def shape_path(shape) -> QPainterPath | None:
    """The polygons of a space's `shape` as one path (holes and islands alike), or None."""
    polygons = shape.get("polygons") if isinstance(shape, dict) else None
    if not isinstance(polygons, list):
        return None
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)   # outer rings only: pieces add up, nothing is a hole
    for polygon in polygons:
        points = [QPointF(float(p[0]), float(p[1])) for p in polygon or []
                  if isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) for v in p)]
        if len(points) >= 3:
            path.addPolygon(QPolygonF(points))
            path.closeSubpath()
    return path if not path.isEmpty() else None


def _point(value) -> QPointF | None:
    if isinstance(value, list) and len(value) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return QPointF(float(value[0]), float(value[1]))
    return None


class SpaceItem(QGraphicsObject):
    def __init__(self, space_id: str):
        super().__init__()
        self.space_id = space_id
        self.borders: list[BorderItem] = []
        self.fill = NEUTRAL
        self.ring: QColor | None = None      # a sea zone's controller
        self.is_sea = False
        self.marks: set[str] = set()
        self.name = space_id
        self.shown_name = space_id
        self.path: QPainterPath | None = None  # the board's polygons, in scene coordinates
        self.centre = QPointF()
        self._press_pos: QPointF | None = None
        self._looks: tuple | None = None
        self._shape: object = None
        flag = QGraphicsItem.GraphicsItemFlag
        self.setFlags(flag.ItemIsSelectable | flag.ItemSendsGeometryChanges)
        self.setZValue(NODE_Z)
        self.label = NameLabel(self)
        self.units = UnitBadge(self)

    @property
    def map_scene(self):
        return self.scene()

    @property
    def shaped(self) -> bool:
        return self.path is not None

    def update_from(self, space: dict, fill: QColor, ring: QColor | None, marks: set[str],
                    shown: str | None, position: list) -> None:
        """Follow the space's data; `shown` is its name in the display language."""
        shape = space.get("shape")
        looks = (space.get("name"), shown, space.get("kind"), fill.rgba(), ring.rgba() if ring else None,
                 frozenset(marks), tuple(position))
        # A copy of the outlines drawn: comparing them is quick (a board's take a millisecond),
        # and an edit that changes them in place is still seen.
        if looks == self._looks and shape == self._shape:
            return  # nothing to redraw: most edits touch one space of hundreds
        self._looks, self._shape = looks, copy_data(shape)
        self.prepareGeometryChange()
        self.name = str(space.get("name") or self.space_id)
        self.shown_name = shown or self.name
        self.is_sea = space.get("kind") == "sea"
        self.fill = SEA if self.is_sea else fill
        self.ring = ring if self.is_sea else None
        self.marks = marks
        self.path = shape_path(shape)
        self.centre = QPointF(float(position[0]), float(position[1]))
        if self.shaped:
            # The polygons are in board coordinates: the item stays at the origin and cannot be
            # dragged (moving a territory would rewrite its whole outline).
            self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, False)
            # Sea zones are drawn first: an island's outline lies over the sea around it.
            self.setZValue(SEA_Z if self.is_sea else SHAPE_Z)
            if self.pos() != QPointF():
                self.setPos(QPointF())
            label = _point(shape.get("label")) if isinstance(shape, dict) else None
        else:
            self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, True)
            self.setZValue(NODE_Z)
            if self.pos() != self.centre:
                self.setPos(self.centre)
            label = None
        self.label.set_board_scale(self.shaped)
        if not self.label.editing:
            self.label.setPlainText(self.shown_name)
        if self.shaped:
            self.label.place(label or self.centre, baseline=label is not None)
        else:
            self.label.place()
        self.label.setDefaultTextColor(text_colour(self.fill) if self.shaped else QColor("#111111"))
        self.units.place()
        names = self.name if self.shown_name == self.name else f"{self.shown_name} / {self.name}"
        self.setToolTip(f"{names} ({self.space_id})")
        for border in self.borders:
            border.follow()
        self.update()

    def anchor(self) -> QPointF:
        """Where borders meet this space: its centre, in scene coordinates."""
        return self.centre if self.shaped else self.pos()

    def boundingRect(self) -> QRectF:
        if self.path is not None:
            return self.path.boundingRect().adjusted(-4, -4, 4, 4)
        return QRectF(-RADIUS - 8, -RADIUS - 8, 2 * RADIUS + 16, 2 * RADIUS + 16)

    def shape(self) -> QPainterPath:
        if self.path is not None:
            return self.path
        path = QPainterPath()
        path.addEllipse(QPointF(0, 0), RADIUS, RADIUS)
        return path

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        selected = self.isSelected()
        if self.shaped:
            self._paint_shape(painter, selected)
            centre = self.centre
        else:
            painter.setPen(QPen(SELECTED if selected else QColor("#333333"), 3 if selected else 1.2))
            painter.setBrush(QBrush(self.fill))
            rect = QRectF(-RADIUS, -RADIUS, 2 * RADIUS, 2 * RADIUS)
            if self.is_sea:
                painter.drawRoundedRect(rect, 6, 6)
                if self.ring is not None:
                    painter.setPen(QPen(self.ring, 4))
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                    painter.drawRoundedRect(rect.adjusted(3, 3, -3, -3), 4, 4)
            else:
                painter.drawEllipse(rect)
            centre = QPointF(0, 0)
        self._paint_marks(painter, centre)

    def _paint_shape(self, painter: QPainter, selected: bool) -> None:
        path = self.path
        if path is None:
            return
        painter.setBrush(QBrush(self.fill))
        painter.setPen(QPen(SEA_EDGE if self.is_sea else LAND_EDGE, 1.0))
        painter.drawPath(path)
        if self.ring is not None:
            # Sea-zone control: a band of the controller's colour inside the zone's edge.
            painter.save()
            painter.setClipPath(path)
            painter.setPen(QPen(self.ring, 10))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(path)
            painter.restore()
        if selected:
            painter.setPen(QPen(SELECTED, 4))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(path)

    def _paint_marks(self, painter: QPainter, centre: QPointF) -> None:
        if "capital" in self.marks:
            painter.setBrush(QColor("#f5d000"))
            painter.setPen(QPen(QColor("#5a4a00"), 1))
            painter.drawPolygon(star(centre, 9, 4))
        elif "victory_city" in self.marks:
            painter.setBrush(QColor("#ffffff"))
            painter.setPen(QPen(QColor("#222222"), 1.5))
            painter.drawEllipse(centre, 5, 5)
        if "fortress" in self.marks:
            painter.setPen(QPen(QColor("#222222"), 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(QRectF(centre.x() - RADIUS - 4, centre.y() - RADIUS - 4, 2 * RADIUS + 8, 2 * RADIUS + 8))

    def itemChange(self, change, value):
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged:
            for border in self.borders:
                border.follow()
            self.label.place()
            self.units.place()
        elif change == QGraphicsItem.GraphicsItemChange.ItemSceneChange:
            # The name and the units are items of their own, above every territory (as children
            # they would lie under the neighbours drawn after this one); they come and go with it.
            old = self.scene()
            if old is not None and value is not old:
                old.removeItem(self.label)
                old.removeItem(self.units)
        elif change == QGraphicsItem.GraphicsItemChange.ItemSceneHasChanged and self.scene() is not None:
            self.scene().addItem(self.label)
            self.scene().addItem(self.units)
        return super().itemChange(change, value)

    def mousePressEvent(self, event) -> None:
        scene = self.map_scene
        if scene is not None and scene.linking(event):
            scene.start_link(self, event.scenePos())
            event.accept()
            return
        self._press_pos = self.pos()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        if self._press_pos is not None and self.pos() != self._press_pos and self.map_scene is not None:
            self.map_scene.moved_spaces()
        self._press_pos = None

    def mouseDoubleClickEvent(self, event) -> None:
        if self.map_scene is not None:
            self.map_scene.rename_requested.emit(self.space_id)
        event.accept()


class NameLabel(QGraphicsTextItem):
    """A space's name (under a node, or at the board's label place), editable in place: Enter
    keeps the new name, Escape drops it."""

    def __init__(self, space: SpaceItem):
        super().__init__()
        self.space = space
        self.editing = False
        self.anchor: QPointF | None = None
        self.baseline = False
        self.setZValue(LABEL_Z)
        self.set_board_scale(False)

    def set_board_scale(self, board: bool) -> None:
        """Names on a board are lettered in the board's pixels, as large as its own; a node's
        name is small print under it."""
        font = QFont()
        if board:
            font.setPixelSize(BOARD_LETTERS)
            font.setBold(True)
        else:
            font.setPointSizeF(8)
        if font != self.font():
            self.setFont(font)

    def place(self, at: QPointF | None = None, baseline: bool = False) -> None:
        """Put the name at `at` (scene coordinates): its baseline starting there (a board's name
        place), or centred on it; under the node when None."""
        if at is not None:
            self.anchor, self.baseline = at, baseline
        elif not self.space.shaped:
            self.anchor = None
        rect = self.boundingRect()
        if self.anchor is None:
            node = self.space.pos()
            self.setPos(node.x() - rect.width() / 2, node.y() + RADIUS + 1)
        elif self.baseline:
            margin = self.document().documentMargin()
            ascent = QFontMetricsF(self.font()).ascent()
            self.setPos(self.anchor.x() - margin, self.anchor.y() - margin - ascent)
        else:
            self.setPos(self.anchor.x() - rect.width() / 2, self.anchor.y() - rect.height() / 2)

    def start_editing(self) -> None:
        self.editing = True
        self.setPlainText(self.space.name)  # a rename edits the source text, whatever is shown
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextEditorInteraction)
        self.setFocus(Qt.FocusReason.OtherFocusReason)
        cursor = self.textCursor()
        cursor.select(cursor.SelectionType.Document)
        self.setTextCursor(cursor)

    def finish_editing(self, keep: bool) -> None:
        if not self.editing:
            return
        self.editing = False
        self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.clearFocus()
        text = self.toPlainText().strip()
        scene = self.space.map_scene
        if keep and text and text != self.space.name and scene is not None:
            scene.rename(self.space.space_id, text)
        else:
            self.setPlainText(self.space.shown_name)
        self.place()

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.finish_editing(True)
        elif event.key() == Qt.Key.Key_Escape:
            self.finish_editing(False)
        else:
            super().keyPressEvent(event)

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.finish_editing(True)


class UnitBadge(QGraphicsItem):
    """The units a space starts with, in short: `3 inf · 1 arm` under its name."""

    def __init__(self, space: SpaceItem):
        super().__init__()
        self.space = space
        self.text = ""
        self.setZValue(UNITS_Z)
        self.font = QFont()
        self.font.setPointSizeF(7)
        self._rect = QRectF()

    def set_units(self, text: str) -> None:
        if text != self.text:
            self.prepareGeometryChange()
            self.text = text
            self.place()
            self.setToolTip(text)

    def place(self) -> None:
        width = QFontMetricsF(self.font).horizontalAdvance(self.text) + 8 if self.text else 0
        label = self.space.label
        below = label.pos().y() + label.boundingRect().height() - 2
        centre_x = label.pos().x() + label.boundingRect().width() / 2
        self._rect = QRectF(centre_x - width / 2, below, width, 12)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if not self.text:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("#444444"), 0.8))
        painter.setBrush(QColor(255, 255, 255, 215))
        painter.drawRoundedRect(self._rect, 3, 3)
        painter.setFont(self.font)
        painter.setPen(QColor("#222222"))
        painter.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.text)


def star(centre: QPointF, outer: float, inner: float) -> QPolygonF:
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append(QPointF(centre.x() + radius * math.cos(angle), centre.y() + radius * math.sin(angle)))
    return QPolygonF(points)


class BorderItem(QGraphicsLineItem):
    """A border: a line between the two spaces' centres, styled by its kind. A `wrap` border joins
    spaces at the two ends of a board that wraps around (the Pacific's east and west edges): it is
    drawn from each space to the edge it leaves by, never across the whole board."""

    def __init__(self, a: SpaceItem, b: SpaceItem, border: dict):
        super().__init__()
        self.a, self.b = a, b
        self.between = tuple(border["between"])
        self.kind: str | None = None
        self.segments: list[QLineF] = []
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(BORDER_Z)
        a.borders.append(self)
        b.borders.append(self)
        self.update_from(border)
        self.follow()

    def update_from(self, border: dict) -> None:
        kind = str(border.get("kind", ""))
        if kind == self.kind:
            return
        self.kind = kind
        self.setPen(border_pen(kind))
        self.setToolTip(f"{self.kind} border: {self.between[0]} – {self.between[1]}")
        self.follow()

    def follow(self) -> None:
        line = QLineF(self.a.anchor(), self.b.anchor())
        scene = self.scene()
        edges = scene.map_rect() if self.kind == "wrap" and scene is not None and hasattr(scene, "map_rect") else None
        segments = wrap_segments(line, edges.left(), edges.right()) if edges is not None and edges.isValid() \
            else [line]
        if line != self.line() or segments != self.segments:
            self.prepareGeometryChange()
            self.segments = segments
            self.setLine(line)
        self.setOpacity(FAINT if self.a.shaped and self.b.shaped and not self.isSelected() else 1.0)

    def itemChange(self, change, value):
        if change == QGraphicsItem.GraphicsItemChange.ItemSceneHasChanged:
            self.follow()   # a wrap border needs the board's edges, known once it is on the map
        return super().itemChange(change, value)

    def boundingRect(self) -> QRectF:
        margin = self.pen().widthF() + 4
        rect = QRectF()
        for segment in self.segments or [self.line()]:
            rect = rect.united(QRectF(segment.p1(), segment.p2()).normalized())
        return rect.adjusted(-margin, -margin, margin, margin)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        for segment in self.segments or [self.line()]:
            path.moveTo(segment.p1())
            path.lineTo(segment.p2())
        stroker = QPainterPathStroker()
        stroker.setWidth(self.pen().widthF() + 6)
        return stroker.createStroke(path)

    def detach(self) -> None:
        for end in (self.a, self.b):
            if self in end.borders:
                end.borders.remove(self)

    def paint(self, painter, option, widget=None) -> None:
        segments = self.segments or [self.line()]
        if self.isSelected():
            painter.setPen(QPen(SELECTED, self.pen().widthF() + 3))
            for segment in segments:
                painter.drawLine(segment)
        painter.setPen(self.pen())
        for segment in segments:
            painter.drawLine(segment)


def wrap_segments(line: QLineF, left: float, right: float) -> list[QLineF]:
    """A border across a board's wrapped east-west edge, as two pieces: from the eastern space to
    the east edge, and from the west edge to the western space, meeting the edges at the height
    where the straight way round would cross them."""
    width = right - left
    east, west = (line.p1(), line.p2()) if line.p1().x() >= line.p2().x() else (line.p2(), line.p1())
    round_east = QPointF(west.x() + width, west.y())   # the western space, seen past the east edge
    run = round_east.x() - east.x()
    height = east.y() + (right - east.x()) / run * (round_east.y() - east.y()) if run > 0 else east.y()
    return [QLineF(east, QPointF(right, height)), QLineF(QPointF(left, height), west)]
