"""The map tab: the canvas, its tools, the legend and the overview.

Tools: place a new space with a click on empty canvas, draw borders by dragging between spaces,
delete, align a board image by two reference points, keep the automatic layout. Layers can be
hidden. The find box moves through every match (Enter for the next, Shift+Enter for the one before)
and completes names as they are typed.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QPointF, QStringListModel, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from sandtable.paths import PathEscape, is_inside, write_target
from sandtable.safewrite import atomic_write_bytes

from .board_align import BoardAligner
from .document import ScenarioDocument
from .map_canvas import BORDER_STYLES, LAYERS, MapScene, MapView
from .map_items import BorderItem, SpaceItem
from .map_overlays import Legend, Overview

MARGIN = 10


class MapPage(QWidget):
    message = Signal(str)   # something to say in the status bar

    def __init__(self, document: ScenarioDocument, scope: QObject, parent=None):
        super().__init__(parent)
        self.document = document
        self.scene = MapScene(document, scope)
        self.view = MapView(self.scene)
        self.aligner = BoardAligner(self.scene)
        bar = QToolBar()
        bar.addAction("Fit").triggered.connect(self.view.fit)
        self.place_action = self._toggle(bar, "Add space", "Click on empty canvas to place a new space there",
                                         lambda on: setattr(self.scene, "place_mode", on))
        self.space_kind = QComboBox()
        self.space_kind.addItems(["land", "sea"])
        self.space_kind.setToolTip("The kind of the spaces the Add space tool places")
        self.space_kind.currentTextChanged.connect(lambda kind: setattr(self.scene, "new_space_kind", kind))
        bar.addWidget(self.space_kind)
        bar.addSeparator()
        self.link_action = self._toggle(bar, "Draw borders", "Drag from one space to another to add a border "
                                        "(or hold Shift)", lambda on: setattr(self.scene, "link_mode", on))
        self.border_kind = QComboBox()
        self.border_kind.addItems(list(BORDER_STYLES))
        self.border_kind.setToolTip("The kind of the borders drawn")
        self.border_kind.currentTextChanged.connect(lambda kind: setattr(self.scene, "new_border_kind", kind))
        bar.addWidget(self.border_kind)
        bar.addAction("Delete").triggered.connect(self.view.delete_selected)
        bar.addSeparator()
        self.layer_actions = {}
        layers = QMenu("Layers", self)
        for name in LAYERS:
            action = QAction(name.capitalize(), layers, checkable=True, checked=True)
            action.toggled.connect(lambda on, name=name: self.scene.set_layer(name, on))
            layers.addAction(action)
            self.layer_actions[name] = action
        self.overview_action = QAction("Overview", layers, checkable=True, checked=True)
        self.legend_action = QAction("Legend", layers, checkable=True, checked=True)
        layers.addSeparator()
        layers.addAction(self.legend_action)
        layers.addAction(self.overview_action)
        layers_button = QToolButton()
        layers_button.setText("Layers")
        layers_button.setMenu(layers)
        layers_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        bar.addWidget(layers_button)
        board = QMenu("Board", self)
        board.addAction("Board image…").triggered.connect(self.choose_board_image)
        self.align_action = QAction("Align board image", board, checkable=True)
        self.align_action.setToolTip("Drag two reference points of the image onto where they belong")
        self.align_action.toggled.connect(self.align)
        board.addAction(self.align_action)
        board.addAction("Store layout").triggered.connect(self.store_layout)
        board_button = QToolButton()
        board_button.setText("Board")
        board_button.setMenu(board)
        board_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        bar.addWidget(board_button)
        bar.addSeparator()
        self.find_edit = QLineEdit()
        self.find_edit.setPlaceholderText("Find a space (Ctrl+F); Enter: next, Shift+Enter: previous")
        self.find_edit.setClearButtonEnabled(True)
        self.find_edit.setMinimumWidth(260)
        self.find_edit.installEventFilter(self)
        self.names = QStringListModel(self)
        completer = QCompleter(self.names, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.activated.connect(self._completed)
        self.find_edit.setCompleter(completer)
        # While the list of names is open, keys go to it: Enter with no name picked from it would
        # only close it. It finds at once instead, as when the list is closed.
        popup = completer.popup()
        if popup is not None:
            popup.installEventFilter(self)
        bar.addWidget(self.find_edit)
        self.find_result = QLabel("")
        bar.addWidget(self.find_result)
        # The legend and the overview sit in a strip under the map, never over it: no space is
        # ever hidden behind them, wherever the map is scrolled.
        self.legend = Legend()
        self.overview = Overview(self.view)
        self.overlays = QWidget()
        strip = QHBoxLayout(self.overlays)
        strip.setContentsMargins(MARGIN, 2, MARGIN, 2)
        strip.addWidget(self.legend, 0, Qt.AlignmentFlag.AlignBottom)
        strip.addStretch()
        strip.addWidget(self.overview, 0, Qt.AlignmentFlag.AlignBottom)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(bar)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.overlays)
        self.legend_action.toggled.connect(self._show_overlays)
        self.overview_action.toggled.connect(self._show_overlays)
        self.view.context_menu_wanted.connect(self._fill_menu)
        self.scene.drawn.connect(self._follow_map)
        self._follow_map()

    def _toggle(self, bar: QToolBar, text: str, tip: str, slot) -> QAction:
        action = bar.addAction(text)
        action.setCheckable(True)
        action.setToolTip(tip)
        action.toggled.connect(slot)
        return action

    def _follow_map(self) -> None:
        self.legend.show_owners(self.scene.owners)
        names = [f"{item.shown_name} ({item.space_id})" for item in self.scene.spaces.values()]
        if names != self.names.stringList():
            self.names.setStringList(sorted(names, key=str.casefold))

    def _show_overlays(self, _on: bool = True) -> None:
        self.legend.setVisible(self.legend_action.isChecked())
        self.overview.setVisible(self.overview_action.isChecked())
        self.overlays.setVisible(self.legend_action.isChecked() or self.overview_action.isChecked())

    def eventFilter(self, watched, event) -> bool:
        is_enter = event.type() == QEvent.Type.KeyPress and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        completer = self.find_edit.completer()
        popup = completer.popup() if completer is not None else None
        if is_enter and popup is not None and watched is popup and not popup.currentIndex().isValid():
            popup.hide()
            self.find_next(backwards=bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier))
            return True
        if is_enter and watched is self.find_edit:
            self.find_next(backwards=bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier))
            return True
        return super().eventFilter(watched, event)

    # -- the right button -------------------------------------------------------------------------
    def _fill_menu(self, menu: QMenu, target, at: QPointF) -> None:
        """What applies where the right button was pressed: a space, a border, or the map."""
        if isinstance(target, SpaceItem):
            ident = target.space_id
            menu.addAction(f"Rename {target.name}…\tF2").triggered.connect(
                lambda: self.view.rename_in_place(ident))
            menu.addAction("Change its id…").triggered.connect(lambda: self.change_id(ident))
            if not target.shaped:
                kinds = menu.addMenu("Kind")
                for kind in ("land", "sea"):
                    action = kinds.addAction(kind)
                    action.setCheckable(True)
                    action.setChecked(target.is_sea == (kind == "sea"))
                    action.triggered.connect(lambda _=False, kind=kind: self.document.set_field(
                        "map", (("spaces", ("id", ident)),), ("kind",), kind, f"Make {ident} {kind}"))
            menu.addSeparator()
            menu.addAction("Delete space\tDel").triggered.connect(self.view.delete_selected)
        elif isinstance(target, BorderItem):
            pair = tuple(sorted(target.between))
            kinds = menu.addMenu("Kind")
            for kind in BORDER_STYLES:
                action = kinds.addAction(kind)
                action.setCheckable(True)
                action.setChecked(kind == target.kind)
                action.triggered.connect(lambda _=False, kind=kind: self.document.set_field(
                    "map", (("borders", ("between", pair)),), ("kind",), kind,
                    f"Make the border {pair[0]} – {pair[1]} {kind}"))
            menu.addSeparator()
            menu.addAction("Delete border\tDel").triggered.connect(self.view.delete_selected)
        else:
            for kind in ("land", "sea"):
                menu.addAction(f"Add a {kind} space here").triggered.connect(
                    lambda _=False, kind=kind: self._place(kind, at))
            menu.addSeparator()
            menu.addAction("Fit map\tCtrl+0").triggered.connect(self.view.fit)
            menu.addAction("Store layout").triggered.connect(self.store_layout)

    def _place(self, kind: str, at: QPointF) -> str:
        before = self.scene.new_space_kind
        self.scene.new_space_kind = kind
        try:
            return self.scene.add_space(at)
        finally:
            self.scene.new_space_kind = before

    def change_id(self, ident: str) -> bool:
        """Give a space a new id, and every reference to it (editor/rename.py)."""
        from .rename import rename
        new, given = QInputDialog.getText(self, "Change the id", f"New id of {ident}:", text=ident)
        if not given or not new.strip() or new.strip() == ident:
            return False
        try:
            count = rename(self.document, "map", "spaces", ident, new.strip())
        except ValueError as problem:
            self.message.emit(f"Not stored — {problem}")
            return False
        self.message.emit(f"Renamed {ident} to {new.strip()}: {count} reference(s) changed with it")
        return True

    # -- finding ---------------------------------------------------------------------------------
    def find_next(self, backwards: bool = False) -> str | None:
        found = self.view.find_space(self._needle(), backwards)
        if found is None:
            self.find_result.setText(" no match ")
            self.message.emit("No space by that name")
            return None
        item = self.scene.spaces[found]
        where = f"{self.view.match_number} of {len(self.view.matches)}"
        self.find_result.setText(f" {where} ")
        self.message.emit(f"{where}: {item.shown_name} ({found})")
        return found

    def _needle(self) -> str:
        """The typed text; a completed `Name (id)` looks for the id."""
        text = self.find_edit.text().strip()
        if text.endswith(")") and " (" in text:
            return text.rsplit(" (", 1)[1][:-1]
        return text

    def _completed(self, _text: str) -> None:
        self.find_next()

    # -- board -----------------------------------------------------------------------------------
    def choose_board_image(self) -> None:
        chosen, _ = QFileDialog.getOpenFileName(self, "A picture of the board", str(self.document.root),
                                                "Images (*.png *.jpg *.jpeg *.webp *.bmp)")
        if chosen:
            try:
                self.set_board_image(Path(chosen))
            except (OSError, PathEscape) as failure:
                self.message.emit(f"The board image was not set: {failure}")

    def set_board_image(self, path: Path) -> str:
        """Put a picture behind the map (one undo step). A picture from elsewhere is first copied
        into the scenario's folder, which holds everything the scenario uses."""
        root = self.document.root
        if not is_inside(root, path):
            target = root / "board" / path.name
            write_target(root, target)   # before making board/: a link there may lead out
            target.parent.mkdir(exist_ok=True)
            atomic_write_bytes(target, path.read_bytes(), within=root)
            path = target
        relative = path.resolve().relative_to(root.resolve()).as_posix()
        self.document.set_value("map", ("board", "image"), relative, f"Board image {relative}")
        self.message.emit(f"The board image is {relative}; Board > Align board image fits it to the map")
        return relative

    def align(self, on: bool) -> None:
        if not on:
            self.aligner.stop()
        elif not self.aligner.start():
            self.align_action.setChecked(False)
            self.message.emit("There is no board image to align (Board > Board image…)")

    def store_layout(self) -> None:
        placed = self.document.store_layout()
        self.message.emit(f"Stored the positions of {placed} space(s)" if placed
                          else "Every space already has a stored position")
