"""Aligning a board image with the map by two reference points.

Two cross-hairs are pinned to points of the image. Drag one onto the place on the map where its
point belongs (over the space it shows) and the image is scaled and moved so that the other stays
where it is: two points fix a scale along each axis and an offset. Shift-drag moves a cross-hair
alone, to pin it to another point of the image. Letting go stores the image's place and size in
`map.yaml` (`board: {x, y, width, height}`), one undo step.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QGraphicsPixmapItem

from .map_canvas import MapScene, coordinate

HANDLE = 14.0


class ReferenceHandle(QGraphicsObject):
    def __init__(self, aligner: BoardAligner, number: int):
        super().__init__()
        self.aligner = aligner
        self.number = number
        flag = QGraphicsItem.GraphicsItemFlag
        self.setFlags(flag.ItemIsMovable | flag.ItemIgnoresTransformations | flag.ItemSendsGeometryChanges)
        self.setZValue(50)
        self.setCursor(Qt.CursorShape.SizeAllCursor)
        self.setToolTip("Drag onto where this point of the board belongs; Shift-drag to pin it elsewhere")
        self._alone = False

    def boundingRect(self) -> QRectF:
        return QRectF(-HANDLE - 2, -HANDLE - 2, 2 * HANDLE + 4, 2 * HANDLE + 4)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for colour, width in ((QColor("#ffffff"), 4), (QColor("#d04000"), 2)):
            painter.setPen(QPen(colour, width))
            painter.drawEllipse(QPointF(0, 0), HANDLE * 0.6, HANDLE * 0.6)
            painter.drawLine(QPointF(-HANDLE, 0), QPointF(HANDLE, 0))
            painter.drawLine(QPointF(0, -HANDLE), QPointF(0, HANDLE))
        painter.drawText(QRectF(4, -HANDLE - 2, 20, 14), str(self.number + 1))

    def mousePressEvent(self, event) -> None:
        self._alone = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        super().mousePressEvent(event)

    def itemChange(self, change, value):
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged and not self.aligner.placing:
            self.aligner.handle_moved(self.number, self._alone)
        return super().itemChange(change, value)

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        self.aligner.store()


class BoardAligner:
    """The two cross-hairs and the sums. `start()` shows them, `stop()` takes them away."""

    def __init__(self, scene: MapScene):
        self.scene = scene
        self.handles: list[ReferenceHandle] = []
        self.pins: list[QPointF] = []       # the image points (image pixels) the handles hold
        self.geometry: dict = {}
        self.placing = False

    @property
    def active(self) -> bool:
        return bool(self.handles)

    def start(self) -> bool:
        board = self.scene.board
        if board is None:
            return False
        self.stop()
        pixmap = board.pixmap()
        self.geometry = self._current()
        self.pins = [QPointF(pixmap.width() * 0.25, pixmap.height() * 0.25),
                     QPointF(pixmap.width() * 0.75, pixmap.height() * 0.75)]
        for number in range(2):
            handle = ReferenceHandle(self, number)
            self.scene.addItem(handle)
            self.handles.append(handle)
        self._place_handles()
        return True

    def stop(self) -> None:
        for handle in self.handles:
            self.scene.removeItem(handle)
        self.handles = []

    def _board(self) -> QGraphicsPixmapItem:
        """The board image (the aligner only runs while there is one)."""
        board = self.scene.board
        if board is None:
            raise RuntimeError("there is no board image to align")
        return board

    def _current(self) -> dict:
        rect = self._board().sceneBoundingRect()
        return {"x": rect.x(), "y": rect.y(), "width": rect.width(), "height": rect.height()}

    def to_scene(self, pin: QPointF) -> QPointF:
        pixmap = self._board().pixmap()
        g = self.geometry
        return QPointF(g["x"] + pin.x() * g["width"] / pixmap.width(),
                       g["y"] + pin.y() * g["height"] / pixmap.height())

    def to_image(self, point: QPointF) -> QPointF:
        pixmap = self._board().pixmap()
        g = self.geometry
        return QPointF((point.x() - g["x"]) * pixmap.width() / g["width"],
                       (point.y() - g["y"]) * pixmap.height() / g["height"])

    def _place_handles(self) -> None:
        self.placing = True
        for handle, pin in zip(self.handles, self.pins, strict=True):
            handle.setPos(self.to_scene(pin))
        self.placing = False

    def handle_moved(self, number: int, alone: bool) -> None:
        """A cross-hair moved: re-pin it (alone), or fit the image to both cross-hairs."""
        if alone:
            self.pins[number] = self.to_image(self.handles[number].pos())
            return
        self.geometry = fit(self.pins, [h.pos() for h in self.handles], self._board().pixmap().size(),
                            self.geometry)
        self.scene.place_board(self.geometry)

    def store(self) -> None:
        """Keep the image's place and size in the map: one undo step, only what changed."""
        wanted = {key: coordinate(value) for key, value in self.geometry.items()}
        stored = self.scene.board_geometry()
        changed = {k: v for k, v in wanted.items() if stored.get(k, 0 if k in "xy" else None) != v}
        if not changed:
            return
        document = self.scene.document
        document.undo_stack.beginMacro("Align the board image")
        for key, value in changed.items():
            document.set_value("map", ("board", key), value)
        document.undo_stack.endMacro()
        self.geometry = {**self.geometry, **wanted}
        self._place_handles()


def fit(pins: list[QPointF], targets: list[QPointF], size, current: dict) -> dict:
    """The image's place and size that put image point pins[i] at scene point targets[i]; an axis
    along which the two pins (or targets) coincide keeps its current scale."""
    geometry = dict(current)
    (p1, p2), (q1, q2) = pins, targets
    for axis, extent, origin in (("x", size.width(), "x"), ("y", size.height(), "y")):
        a, b = getattr(p1, axis)(), getattr(p2, axis)()
        c, d = getattr(q1, axis)(), getattr(q2, axis)()
        scale = (d - c) / (b - a) if abs(b - a) > 1e-6 and abs(d - c) > 1e-6 else None
        if scale is None or scale <= 0:
            scale = geometry["width" if axis == "x" else "height"] / extent
        geometry["width" if axis == "x" else "height"] = scale * extent
        geometry[origin] = c - scale * a
    return geometry
