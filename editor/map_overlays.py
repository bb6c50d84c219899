"""What floats over the map: the legend (who is which colour) and the overview (the whole board
small, with the part in view framed; click or drag it to go there)."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QWidget

from .map_style import NEUTRAL, SEA


def _swatch(colour: QColor, ring: QColor | None = None) -> QLabel:
    swatch = QLabel()
    swatch.setFixedSize(16, 12)
    border = ring.name() if ring is not None else "#555555"
    swatch.setStyleSheet(f"background: {colour.name()}; border: {3 if ring else 1}px solid {border};")
    return swatch


class Legend(QFrame):
    """Each owner's colour and name; sea, neutral, and how a controlled sea zone looks."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("legend")
        self.setStyleSheet("#legend { background: rgba(255, 255, 255, 225); border: 1px solid #999; }")
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(6, 4, 6, 4)
        self.grid.setHorizontalSpacing(6)
        self.grid.setVerticalSpacing(2)
        self.entries: list[str] = []

    def show_owners(self, owners: dict) -> None:
        entries = [(o.colour.lighter(135), None, o.name) for o in owners.values()]
        entries += [(NEUTRAL, None, "neutral / no one"), (SEA, None, "sea")]
        if owners:
            first = next(iter(owners.values()))
            entries.append((SEA, first.colour, f"sea zone held by {first.name}"))
        names = [name for *_, name in entries]
        if names == self.entries:
            return
        self.entries = names
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        rows = (len(entries) + 1) // 2 if len(entries) > 6 else len(entries)   # two columns when long
        for number, (colour, ring, name) in enumerate(entries):
            row, column = number % rows, 2 * (number // rows)
            self.grid.addWidget(_swatch(colour, ring), row, column)
            self.grid.addWidget(QLabel(name), row, column + 1)
        self.adjustSize()


class Overview(QWidget):
    """The whole map, small. The picture is drawn again a moment after the map changes (not on
    every edit); the frame of the main view's visible part follows at once."""

    WIDTH = 220

    def __init__(self, view, parent=None):
        super().__init__(parent)
        self.view = view
        self.scene = view.map_scene
        self.image = QImage()
        self.source = QRectF()
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("The whole map: click or drag to look elsewhere")
        self._redraw = QTimer(self, singleShot=True, interval=300)
        self._redraw.timeout.connect(self.render_scene)
        self.scene.drawn.connect(self._redraw.start)
        view.horizontalScrollBar().valueChanged.connect(self.update)
        view.verticalScrollBar().valueChanged.connect(self.update)
        self.render_scene()

    def render_scene(self) -> None:
        rect = self.scene.map_rect()
        if not rect.isValid() or rect.isEmpty():
            self.image = QImage()
            self.setFixedSize(self.WIDTH, 40)
            self.update()
            return
        height = max(40, int(self.WIDTH * rect.height() / rect.width()))
        self.setFixedSize(self.WIDTH, min(height, 220))
        self.source = rect
        image = QImage(self.size(), QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QColor("#f7f5ef"))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.scene.render(painter, QRectF(image.rect()), rect, Qt.AspectRatioMode.KeepAspectRatio)
        painter.end()
        self.image = image
        self.update()

    def _scale(self) -> tuple[float, QPointF]:
        """Scene -> overview: the factor and the offset KeepAspectRatio left."""
        if self.source.isEmpty():
            return 1.0, QPointF()
        factor = min(self.width() / self.source.width(), self.height() / self.source.height())
        offset = QPointF((self.width() - self.source.width() * factor) / 2,
                         (self.height() - self.source.height() * factor) / 2)
        return factor, offset

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.drawImage(0, 0, self.image)
        painter.setPen(QPen(QColor("#888888"), 1))
        painter.drawRect(self.rect().adjusted(0, 0, -1, -1))
        factor, offset = self._scale()
        seen = self.view.visible_rect()
        frame = QRectF(offset.x() + (seen.x() - self.source.x()) * factor,
                       offset.y() + (seen.y() - self.source.y()) * factor,
                       seen.width() * factor, seen.height() * factor)
        painter.setPen(QPen(QColor("#d04000"), 2))
        painter.drawRect(frame.intersected(QRectF(self.rect())))

    def _go(self, at: QPointF) -> None:
        factor, offset = self._scale()
        if factor:
            self.view.centerOn(QPointF(self.source.x() + (at.x() - offset.x()) / factor,
                                       self.source.y() + (at.y() - offset.y()) / factor))
            self.update()

    def mousePressEvent(self, event) -> None:
        self._go(event.position())

    def mouseMoveEvent(self, event) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._go(event.position())
