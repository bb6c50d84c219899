"""The main window: menus, the map and tables in tabs, outline, inspector, problems and history."""
from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import Any, cast

from PySide6.QtCore import QByteArray, QObject, QSettings, Qt, QTimer, QUrl
from PySide6.QtGui import QAction, QActionGroup, QDesktopServices, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDockWidget,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QUndoView,
    QVBoxLayout,
    QWidget,
)

from sandtable.diagnostics import Diagnostic
from sandtable.paths import PathEscape
from sandtable.safewrite import ChangedOnDisk
from sandtable.scenario import FILE_KINDS
from sandtable.yamlsource import YamlRefused, read_yaml_file
from sandtable.yamlwrite import save_yaml

from . import recovery
from .document import ScenarioDocument, scenario_files_in
from .inspector import Inspector
from .map_canvas import MapView
from .map_page import MapPage
from .models import collections as tables
from .models.base import DocumentTableModel
from .models.problems import ProblemsModel
from .panels import ChangesPanel, DecksPanel, NationsPanel, ObjectivesPanel, SetupPanel, TablesPanel
from .playtest import PlaytestPanel
from .playtest_games import GamesPanel
from .scenario_panel import ScenarioPanel
from .schema_form import SchemaForm
from .table_page import TablePage, TableView
from .translation_panel import TranslationPanel
from .validation import LiveValidator

SHORTCUTS_TEXT = """Map
  wheel, Ctrl++ (or Ctrl+=), Ctrl+-: zoom; Ctrl+0: fit the map
  drag the background, or the middle button anywhere: pan
  Shift-drag from a space to another: a border
  right button: what can be done on a space, a border or the map
  F2 or double-click: rename a space; Delete: remove what is selected
  Ctrl+F: find a space; Enter: the next match, Shift+Enter: the one before

Tables
  F2, double-click or typing: edit a cell; Return: store it
  the arrow keys and a click choose a row; what is shown beside it follows

Translations
  Ctrl+Down, Ctrl+Up: the next, the previous text with work left
  Return in the translation: store it and go on to the next; Shift+Return: a new line

Everywhere
  Ctrl+Z, Ctrl+Shift+Z: undo, redo; Ctrl+S: save; Ctrl+Shift+S: save as
  a scenario folder dropped on the window opens it"""

MAX_RECENT = 8
AUTOSAVE_MS = 60_000   # how often unsaved work is kept for recovery after a crash
APP_NAME = "Sandtable Editor"


class MainWindow(QMainWindow):
    def __init__(self, settings: QSettings | None = None, calculator=None):
        super().__init__()
        self.settings = settings or QSettings("Sandtable", "Sandtable Editor")
        self.calculator = calculator
        self.document: ScenarioDocument | None = None
        self._scope: QObject | None = None   # parent of the open document's models
        self.validator: LiveValidator | None = None
        self.setWindowTitle(APP_NAME)
        self.setAcceptDrops(True)
        self.resize(1400, 900)
        self.problems_model = ProblemsModel(self)
        self._build_docks()
        self._build_actions()
        self._build_central()
        self.statusBar().showMessage("Open a scenario folder to begin")
        self.problem_counts = QLabel("")
        self.statusBar().addPermanentWidget(self.problem_counts)
        self.autosave_timer = QTimer(self, interval=AUTOSAVE_MS)
        self.autosave_timer.timeout.connect(self.autosave)
        self.autosave_timer.start()
        self._restore_layout()

    # -- construction -----------------------------------------------------------------------
    def _build_central(self) -> None:
        self.tabs = QTabWidget()
        self.banner = QFrame()
        self.banner.setStyleSheet("QFrame { background: #fff4ce; border-bottom: 1px solid #e0c060; }")
        self.banner_text = QLabel("")
        reload_button = QPushButton("Reload from disk")
        reload_button.clicked.connect(self.reload_from_disk)
        self.keep_button = QPushButton("Keep my version and save")
        self.keep_button.clicked.connect(self.keep_my_version)
        row = QHBoxLayout(self.banner)
        row.addWidget(self.banner_text, 1)
        row.addWidget(reload_button)
        row.addWidget(self.keep_button)
        self.banner.hide()
        host = QWidget()
        layout = QVBoxLayout(host)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.banner)
        layout.addWidget(self.tabs)
        self.setCentralWidget(host)

    def _dock(self, title: str, name: str, widget: QWidget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        self.outline = QTreeWidget()
        self.outline.setHeaderLabels(["Scenario", ""])
        self.outline.itemActivated.connect(self._outline_activated)
        self.outline.itemClicked.connect(self._outline_activated)
        self.outline_dock = self._dock("Outline", "outline", self.outline, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.inspector_host = QWidget()
        QVBoxLayout(self.inspector_host)
        self.inspector: Inspector | None = None
        # Wide enough for any entity's form from the start, and scrolled when long: choosing
        # another space never resizes the dock (and so never shifts the map under the mouse).
        scroller = QScrollArea()
        scroller.setWidgetResizable(True)
        scroller.setWidget(self.inspector_host)
        scroller.setMinimumWidth(300)
        self.inspector_dock = self._dock("Inspector", "inspector", scroller, Qt.DockWidgetArea.RightDockWidgetArea)
        self.history = QUndoView()
        self.history.setEmptyLabel("Opened")
        self.history_dock = self._dock("History", "history", self.history, Qt.DockWidgetArea.RightDockWidgetArea)
        self.problems_page = TablePage(self.problems_model)
        self.problems_view = self.problems_page.view
        self.problems_view.keep_layout()
        self.problems_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.problems_view.verticalHeader().hide()
        header = self.problems_view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.problems_view.doubleClicked.connect(
            lambda index: self.go_to_problem(self.problems_view.to_source(index)
                                             if index.model() is self.problems_view.proxy else index))
        self.problems_dock = self._dock("Problems", "problems", self.problems_page,
                                        Qt.DockWidgetArea.BottomDockWidgetArea)

    def _on_map(self, act) -> None:
        """Act on the map view, when a scenario is open."""
        if self.map_view is not None:
            act(self.map_view)

    def _on_document(self, act) -> None:
        """Act on the open document, if any."""
        if self.document is not None:
            act(self.document)

    def _action(self, text: str, slot, shortcut=None, menu=None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        if menu is not None:
            menu.addAction(action)
        return action

    def _build_actions(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self._action("&New Scenario…", self.new_scenario, QKeySequence.StandardKey.New, file_menu)
        self._action("&Open…", self.open_dialog, QKeySequence.StandardKey.Open, file_menu)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        file_menu.addSeparator()
        self.save_action = self._action("&Save", self.save, QKeySequence.StandardKey.Save, file_menu)
        self._action("Save &As…", self.save_as, QKeySequence.StandardKey.SaveAs, file_menu)
        file_menu.addSeparator()
        self._action("&Quit", self.close, QKeySequence.StandardKey.Quit, file_menu)
        self.edit_menu = bar.addMenu("&Edit")
        self.undo_action = self._action("&Undo", lambda: self._on_document(lambda d: d.undo_stack.undo()),
                                        QKeySequence.StandardKey.Undo, self.edit_menu)
        self.redo_action = self._action("&Redo", lambda: self._on_document(lambda d: d.undo_stack.redo()),
                                        QKeySequence.StandardKey.Redo, self.edit_menu)
        self.edit_menu.addSeparator()
        # The usual actions act on the field being typed in (a line, a cell's editor, a text
        # box); Delete on the map removes what is selected there.
        for text, method, key in (("Cu&t", "cut", QKeySequence.StandardKey.Cut),
                                  ("&Copy", "copy", QKeySequence.StandardKey.Copy),
                                  ("&Paste", "paste", QKeySequence.StandardKey.Paste)):
            self._action(text, lambda _=False, method=method: self._on_focus(method), key, self.edit_menu)
        self._action("&Delete", self.delete_selected, None, self.edit_menu)
        self._action("Select &All", lambda: self._on_focus("selectAll"), QKeySequence.StandardKey.SelectAll,
                     self.edit_menu)
        self.edit_menu.addSeparator()
        self._action("&Find Space…", self.focus_find, QKeySequence.StandardKey.Find, self.edit_menu)
        view_menu = bar.addMenu("&View")
        self._action("&Fit Map", lambda: self._on_map(lambda view: view.fit()), "Ctrl+0", view_menu)
        zoom_in = self._action("Zoom &In", lambda: self._on_map(lambda view: view.zoom(1.25)), None, view_menu)
        # Ctrl++ and, on keyboards where + needs Shift, Ctrl+= (the same key unshifted).
        zoom_in.setShortcuts([QKeySequence(QKeySequence.StandardKey.ZoomIn), QKeySequence("Ctrl+=")])
        self._action("Zoom &Out", lambda: self._on_map(lambda view: view.zoom(0.8)),
                     QKeySequence.StandardKey.ZoomOut, view_menu)
        self.language_menu = view_menu.addMenu("Display &Language")
        view_menu.addSeparator()
        for dock in (self.outline_dock, self.inspector_dock, self.history_dock, self.problems_dock):
            view_menu.addAction(dock.toggleViewAction())
        help_menu = bar.addMenu("&Help")
        self._action("&Documentation", self.show_documentation, QKeySequence.StandardKey.HelpContents, help_menu)
        self._action("&Keyboard and Mouse", self.show_shortcuts, None, help_menu)
        help_menu.addSeparator()
        self._action(f"&About {APP_NAME}", self.show_about, None, help_menu)
        self.map_view: MapView | None = None
        self._refresh_recent()

    # -- the Edit menu's usual actions, on what has the focus ----------------------------------
    def _on_focus(self, method: str) -> bool:
        widget = QApplication.focusWidget()
        act = getattr(widget, method, None) if widget is not None else None
        if callable(act):
            act()
            return True
        return False

    def delete_selected(self) -> None:
        widget = QApplication.focusWidget()
        if self.map_view is not None and widget is self.map_view:
            self.map_view.delete_selected()
        elif isinstance(widget, QLineEdit):
            widget.del_()

    # -- help ------------------------------------------------------------------------------------
    def documentation_url(self) -> QUrl | None:
        """The editor's page: docs/editor.md where the package is (a checkout, or shipped with it),
        else below the address SANDTABLE_DOCS_URL gives, as `validate --docs-url` takes it."""
        from sandtable.resources import shared_path
        found = shared_path("docs", "editor.md")
        if found is not None:
            return QUrl.fromLocalFile(str(found))
        base = os.environ.get("SANDTABLE_DOCS_URL", "")
        return QUrl(base.rsplit("/", 1)[0] + "/editor.md") if base.startswith(("http://", "https://")) else None

    def show_documentation(self) -> None:
        url = self.documentation_url()
        if url is None or not QDesktopServices.openUrl(url):
            where = url.toString() if url is not None else "docs/editor.md of the source"
            self.statusBar().showMessage(f"The editor's documentation is {where}", 10_000)

    def show_shortcuts(self) -> None:
        QMessageBox.information(self, f"{APP_NAME}: keyboard and mouse", SHORTCUTS_TEXT)

    def show_about(self) -> None:
        from importlib.metadata import PackageNotFoundError, version
        try:
            number = version("sandtable")
        except PackageNotFoundError:
            number = "(not installed)"
        QMessageBox.about(self, f"About {APP_NAME}",
                          f"<b>{APP_NAME}</b> {number}<p>A scenario editor, validator and playtest engine for "
                          "WWII strategy board games.</p>")

    # -- a folder dropped on the window is opened --------------------------------------------------
    def _dropped_folder(self, event) -> Path | None:
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        folder = Path(urls[0].toLocalFile()) if len(urls) == 1 and urls[0].isLocalFile() else None
        if folder is not None and folder.is_file() and folder.name == FILE_KINDS["scenario"]:
            folder = folder.parent   # its scenario.yaml dropped: the folder is meant
        return folder if folder is not None and (folder / FILE_KINDS["scenario"]).is_file() else None

    def dragEnterEvent(self, event) -> None:
        if self._dropped_folder(event) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event) -> None:
        folder = self._dropped_folder(event)
        if folder is not None:
            event.acceptProposedAction()
            self.open_folder(folder)

    # -- opening ----------------------------------------------------------------------------
    def open_folder(self, folder: Path | str) -> None:
        folder = Path(folder)
        if not (folder / FILE_KINDS["scenario"]).is_file():
            QMessageBox.warning(self, APP_NAME, f"{folder} has no scenario.yaml.")
            return
        if self.document is not None and not self.confirm_discard():
            return
        self._close_document()
        self.document = ScenarioDocument(folder, self)
        self.document.changed_on_disk.connect(self._changed_on_disk)
        self.document.undo_stack.cleanChanged.connect(self._update_title)
        self.document.undo_stack.indexChanged.connect(self._edit_stored)
        # Undo and Redo say what they would undo and redo, as the history names it.
        self.document.undo_stack.undoTextChanged.connect(
            lambda text: self.undo_action.setText(f"&Undo {text}" if text else "&Undo"))
        self.document.undo_stack.redoTextChanged.connect(
            lambda text: self.redo_action.setText(f"&Redo {text}" if text else "&Redo"))
        self.document.saved.connect(self._update_title)
        self.history.setStack(self.document.undo_stack)
        self._build_views()
        self.validator = LiveValidator(self.document, self)
        self.validator.updated.connect(self._show_problems)
        self.validator.failed.connect(self._validation_failed)
        self.validator.schedule()
        self._remember(folder)
        self._update_title()
        self.statusBar().showMessage(f"Opened {folder}", 4000)
        self._offer_recovery()
        # The opened scenario's objects live as long as it is open: move them out of the cyclic
        # collector's view, so its full passes stay short and never stall the UI mid-edit. Done
        # once the map is on screen: freeing the scenarios closed before need not delay it.
        QTimer.singleShot(0, self, _keep_out_of_the_collectors_way)

    def _close_document(self) -> None:
        if self.validator is not None:
            self.validator.updated.disconnect(self._show_problems)
            self.validator.failed.disconnect(self._validation_failed)
            self.validator.deleteLater()
            self.validator = None
        while self.tabs.count():
            page = self.tabs.widget(0)
            self.tabs.removeTab(0)
            if page is not None:
                page.deleteLater()
        if self._scope is not None:
            self._scope.deleteLater()  # the models of the closed document
            self._scope = None
        if self.inspector is not None:
            self.inspector.deleteLater()
            self.inspector = None
        if self.document is not None:
            self.history.setStack(cast(QUndoStack, None))  # (Qt takes a null stack)
            self.document.deleteLater()
            self.document = None
        self.map_view = None
        self.problems_model.set_diagnostics([])
        self.banner.hide()

    def _fill_language_menu(self, scope: QObject) -> None:
        """The map's names in the source language or in any locale of the scenario."""
        self.language_menu.clear()
        group = QActionGroup(scope)
        tags = self.document.locale_tags if self.document is not None else []
        choices: list[tuple[str | None, str]] = [(None, "Source text")] + [(t, t) for t in tags]
        for tag, label in choices:
            action = group.addAction(QAction(label, scope, checkable=True))
            action.setChecked(tag is None)
            action.triggered.connect(lambda _=False, tag=tag: self.scene.set_display_locale(tag))
            self.language_menu.addAction(action)

    def _build_views(self) -> None:
        document = self.document
        assert document is not None  # views are built for an open document
        scope = self._scope = QObject(self)
        self.map_page = MapPage(document, scope)
        self.scene, self.map_view = self.map_page.scene, self.map_page.view
        self.find_edit = self.map_page.find_edit
        self.map_page.message.connect(lambda text: self.statusBar().showMessage(text, 6000))
        self._fill_language_menu(scope)
        self.tabs.addTab(self.map_page, "Map")
        self.scenario_panel = ScenarioPanel(document)
        self.tabs.addTab(self.scenario_panel, "Scenario")
        self.tabs.setTabToolTip(self.tabs.count() - 1, "Name, system, turn order, victory, resources, "
                                "phases and the rules' parameters")
        self.spaces_page = TablePage(tables.spaces_model(document, scope))
        self.spaces_view = self.spaces_page.view
        self.tabs.addTab(self.spaces_page, "Spaces")
        self.borders_page = TablePage(tables.borders_model(document, scope))
        self.borders_view = self.borders_page.view
        self.tabs.addTab(self.borders_page, "Borders")
        self.units_page = TablePage(tables.units_model(document, scope))
        self.units_view = self.units_page.view
        self.tabs.addTab(self.units_page, "Units")
        self.nations_panel = NationsPanel(document)
        self.tabs.addTab(self.nations_panel, "Nations")
        self.setup_panel = SetupPanel(document)
        self.tabs.addTab(self.setup_panel, "Setup")
        self.objectives_panel = ObjectivesPanel(document)
        self.tabs.addTab(self.objectives_panel, "Objectives")
        self.decks_panel = DecksPanel(document)
        self.tabs.addTab(self.decks_panel, "Decks")
        self.tables_panel = TablesPanel(document)
        self.tabs.addTab(self.tables_panel, "Tables")
        self.options_page = TablePage(tables.options_model(document, scope))
        self.options_view = self.options_page.view
        self.tabs.addTab(self.options_page, "Options")
        self.translation_panel = TranslationPanel(document)
        self.translation_panel.show_requested.connect(self.show_entity)
        self.tabs.addTab(self.translation_panel, "Translations")
        self.changes_panel = ChangesPanel(document)
        self.tabs.addTab(self.changes_panel, "Changes")
        self.tabs.setTabToolTip(self.tabs.count() - 1, "What this variant changes against its parent")
        self.changes_panel.view.doubleClicked.connect(self._go_to_change)
        self.playtest_panel = PlaytestPanel(document, self.calculator, lazy=True)
        self.games_panel = GamesPanel(document, lazy=True)
        playtest = QTabWidget()
        playtest.addTab(self.playtest_panel, "One battle")
        playtest.addTab(self.games_panel, "Whole games")
        # Third, where it is in sight at any size of the window: edit, then play, all day.
        self.tabs.insertTab(2, playtest, "Playtest")
        self.tabs.setTabToolTip(2, "A battle, or whole games AI against AI, of the scenario as it is")
        self.inspector = inspector = Inspector(document)
        host_layout = self.inspector_host.layout()
        if host_layout is not None:
            host_layout.addWidget(inspector)
        self.inspector.refused.connect(self._refused)
        for form in self.findChildren(SchemaForm):
            form.refused.connect(self._refused)
        for model in self._table_models():
            model.refused.connect(self._refused)
            model.noticed.connect(self._noticed)
        self.scene.space_selected.connect(
            lambda space: self.inspector.show_entity("map", (("spaces", ("id", space)),)))
        for view, kind in ((self.spaces_view, "map"), (self.units_view, "units"),
                           (self.borders_view, "map"), (self.options_view, "scenario"),
                           (self.nations_panel.nations.view, "scenario"), (self.nations_panel.sides.view, "scenario")):
            # The inspector shows the highlighted row of the table in view (a table out of view
            # whose rows moved under an edit on the map leaves it alone); a click on the row
            # already chosen shows it again.
            view.chosen.connect(lambda locator, kind=kind, view=view: self._inspect(kind, locator)
                                if view.isVisible() else None)
            view.clicked.connect(lambda _index, kind=kind, view=view: self._inspect(kind, view.chosen_locator))
        document.changed.connect(lambda _kind: self._refresh_outline())
        document.reloaded.connect(self._refresh_outline)
        self._refresh_outline()
        QTimer.singleShot(0, self.map_view.fit)

    def _table_models(self) -> list:
        """The models of the document's tables (the ones edits are typed into)."""
        return [view.source for view in self.findChildren(TableView) if isinstance(view.source, DocumentTableModel)]

    def _refused(self, message: str) -> None:
        """An edit was not stored: say why where the designer looks (the cell's tooltip has it too)."""
        self.statusBar().showMessage(f"Not stored — {message}", 10_000)

    def _edit_stored(self, _index: int = 0) -> None:
        """An edit went through: a refusal still in the status bar is about one before it."""
        if self.statusBar().currentMessage().startswith("Not stored"):
            self.statusBar().clearMessage()

    def _noticed(self, message: str) -> None:
        self.statusBar().showMessage(message, 10_000)

    def _inspect(self, kind: str, locator) -> None:
        if locator and self.inspector is not None:
            self.inspector.show_entity(kind, locator)

    def _refresh_outline(self) -> None:
        document = self.document
        self.outline.clear()
        if document is None:
            return
        manifest = document.merged("scenario")
        root = QTreeWidgetItem([str(manifest.get("name") or document.root.name),
                                "variant" if document.is_variant else ""])
        rows = [("Map", "map", "spaces"), ("Scenario", "scenario", "victory"), ("Playtest", "", ""),
                ("Spaces", "map", "spaces"), ("Borders", "map", "borders"),
                ("Units", "units", "unit_types"), ("Nations", "scenario", "nations"), ("Setup", "setup", "spaces"),
                ("Objectives", "objectives", "objectives"), ("Decks", "decks", "decks"),
                ("Tables", "tables", "tables"), ("Options", "scenario", "options")]
        for title, kind, collection in rows:
            QTreeWidgetItem(root, [title, str(len(document.entities(kind, collection))) if kind else ""])
        QTreeWidgetItem(root, ["Translations", ", ".join(document.locale_tags)])
        if document.parent_scenario is not None:
            QTreeWidgetItem(root, ["Changes", f"against {document.parent_scenario.root.name}"])

        self.outline.addTopLevelItem(root)
        root.setExpanded(True)
        self.outline.resizeColumnToContents(0)

    def _outline_activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        for index in range(self.tabs.count()):
            if self.tabs.tabText(index) == item.text(0):
                self.tabs.setCurrentIndex(index)

    # -- problems ---------------------------------------------------------------------------
    def _show_problems(self, diagnostics: list[Diagnostic]) -> None:
        self.problems_model.set_diagnostics(diagnostics, self.document.root if self.document else None)
        counts = self.problems_model.counts()
        self.problem_counts.setText(f"{counts['error']} error(s), {counts['warning']} warning(s)")
        self.problems_dock.setWindowTitle(f"Problems ({len(diagnostics)})")

    def _validation_failed(self, message: str) -> None:
        """A check crashed: say so where the problems are, rather than show a list that may be wrong."""
        self.problems_dock.setWindowTitle(f"Problems (the validators stopped: {message})")
        self.problem_counts.setText("validation stopped")

    def go_to_problem(self, index) -> None:
        """Select what a diagnostic is about: on the map for spaces and borders, else in its table."""
        diagnostic = self.problems_model.diagnostics[index.row()]
        document = self.document
        kind = document.kind_of_file(diagnostic.file) if document is not None else None
        if document is None or kind is None:
            return
        if kind.startswith("locale:"):
            self.tabs.setCurrentWidget(self.translation_panel)
            self.translation_panel.show_locale(kind.split(":", 1)[1])
            return
        locator = document.locator_of(kind, diagnostic.pointer)
        if not locator and kind in ("scenario", "setup"):
            self._show_part(kind, diagnostic.pointer)
        self.show_entity(kind, locator)

    def _show_part(self, kind: str, pointer: str) -> None:
        """A problem about no entity of its own (the turn order, a rule, a starting resource):
        the page of that part."""
        top = pointer.split("/")[1] if pointer.count("/") else ""
        if kind == "setup":
            pages = {"resources": self.setup_panel.resources_page, "pools": self.setup_panel.pools,
                     "reinforcements": self.setup_panel.reinforcements,
                     "markers": self.setup_panel.markers, "draws": self.setup_panel.draws}
            self.tabs.setCurrentWidget(self.setup_panel)
            self.setup_panel.tabs.setCurrentWidget(pages.get(top, self.setup_panel.page))
            return
        titles = {"turn_order": "Turn order", "rules": "Rules", "victory": "Victory",
                  "resources": "Resources", "phases": "Phases", "nations": "Turn order"}
        if top in ("sides", "options"):
            return
        self.tabs.setCurrentWidget(self.scenario_panel)
        self.scenario_panel.show_page(titles.get(top, "General"))

    def _go_to_change(self, index) -> None:
        change = self.changes_panel.model.rows[self.changes_panel.view.to_source(index).row()]
        if change.locator and change.what != "removed":
            self.show_entity(change.kind, change.locator)

    def show_entity(self, kind: str, locator: tuple) -> None:
        """Go to an entity: the map for spaces and borders, else its page, with its row chosen."""
        inspector, view = self.inspector, self.map_view
        if not locator or inspector is None or view is None:
            return
        collection, ident = locator[0][:2]
        if kind == "map" and collection in ("spaces", "borders"):
            self.tabs.setCurrentIndex(0)
            space = self.scene.select_space(ident[1]) if collection == "spaces" else None
            border = self.scene.select_border(ident[1]) if collection == "borders" else None
            if space is not None:
                view.centerOn(space.anchor())
            elif border is not None:
                view.centerOn(border)
            inspector.show_entity(kind, locator[:1])
            return
        pages = {("units", "unit_types"): (self.units_page, self.units_page),
                 ("scenario", "options"): (self.options_page, self.options_page),
                 ("scenario", "nations"): (self.nations_panel, self.nations_panel.nations),
                 ("scenario", "sides"): (self.nations_panel, self.nations_panel.sides)}
        scenario_pages = {"victory": "Victory", "resources": "Resources", "phases": "Phases",
                          "turn_order": "Turn order", "rules": "Rules"}
        setup_pages = {"resources": self.setup_panel.resources_page, "pools": self.setup_panel.pools,
                       "reinforcements": self.setup_panel.reinforcements, "markers": self.setup_panel.markers,
                       "draws": self.setup_panel.draws}
        if kind == "scenario" and collection in scenario_pages:
            self.tabs.setCurrentWidget(self.scenario_panel)
            self.scenario_panel.show_page(scenario_pages[collection])
            page = {"victory": self.scenario_panel.victory.page, "resources": self.scenario_panel.resources,
                    "phases": self.scenario_panel.phases}.get(collection)
            if page is not None:
                page.filter.clear()
                page.view.choose(locator[:1])
            return
        if kind == "setup" and collection in setup_pages:
            self.tabs.setCurrentWidget(self.setup_panel)
            self.setup_panel.tabs.setCurrentWidget(setup_pages[collection])
            setup_pages[collection].filter.clear()
            setup_pages[collection].view.choose(locator[:1])
            return
        if (kind, collection) in pages:
            tab, page = pages[(kind, collection)]
            self.tabs.setCurrentWidget(tab)
            page.filter.clear()
            page.view.select_row(page.model.row_of_locator(locator[:1]))
            inspector.show_entity(kind, locator[:1])
        elif kind == "setup":
            self.tabs.setCurrentWidget(self.setup_panel)
            self.setup_panel.select_space(ident[1])
        elif kind == "objectives":
            self.tabs.setCurrentWidget(self.objectives_panel)
            self.objectives_panel.page.filter.clear()
            self.objectives_panel.select(locator[:1])
        elif kind == "decks":
            self.tabs.setCurrentWidget(self.decks_panel)
            self.decks_panel.select(locator)
        elif kind == "tables":
            self.tabs.setCurrentWidget(self.tables_panel)
            self.tables_panel.select(locator[:1])

    # -- find -------------------------------------------------------------------------------
    def focus_find(self) -> None:
        if self.map_view is None:
            return
        self.tabs.setCurrentIndex(0)
        self.find_edit.setFocus()
        self.find_edit.selectAll()

    def _find(self, backwards: bool = False) -> str | None:
        return self.map_page.find_next(backwards) if self.map_view is not None else None

    # -- saving -----------------------------------------------------------------------------
    def save(self) -> bool:
        if self.document is None:
            return False
        try:
            written = self.document.save()
        except ChangedOnDisk as changed:   # another program saved it: the designer chooses
            self._changed_on_disk([changed.path])
            QMessageBox.critical(self, APP_NAME, f"The scenario was not saved:\n{changed}\n\n"
                                 "Reload it, or keep your version and save over it.")
            return False
        except Exception as failure:  # SaveRefused, PATH001 or an I/O error: nothing half-written
            QMessageBox.critical(self, APP_NAME, f"The scenario was not saved:\n{failure}")
            return False
        self.banner.hide()
        recovery.discard(self.document)
        self.statusBar().showMessage(f"Saved {len(written)} file(s)", 4000)
        return True

    # -- recovery ---------------------------------------------------------------------------
    def autosave(self) -> None:
        """Every minute: keep the unsaved edits in the recovery file (see editor/recovery.py)."""
        if self.document is None:
            return
        try:
            recovery.write(self.document)
        except (OSError, PathEscape) as failure:
            self.statusBar().showMessage(f"Unsaved work could not be kept for recovery: {failure}", 10_000)

    def _offer_recovery(self) -> None:
        document = self.document
        if document is None:
            return
        try:
            found = recovery.read(document)
        except recovery.RecoveryRefused as refused:
            self.statusBar().showMessage(f"Unsaved work was not offered back: {refused}", 15_000)
            return
        if found is None:
            return
        answer = QMessageBox.question(
            self, APP_NAME, f"Unsaved work of {found.when} was found: the editor closed without saving "
            f"it. Restore it? (It becomes unsaved edits again, undoable.)",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes)
        if answer == QMessageBox.StandardButton.Yes:
            recovery.restore(document, found)
            self.statusBar().showMessage(f"Restored the unsaved work of {found.when}", 6000)
        else:
            recovery.discard(document)

    def save_as(self) -> bool:
        if self.document is None:
            return False
        folder = QFileDialog.getExistingDirectory(self, "Save the scenario into a folder")
        return bool(folder) and self.save_into(Path(folder))

    def save_into(self, folder: Path) -> bool:
        """Save the scenario, and everything it uses, into `folder`, which it then lives in. A
        folder holding another scenario is replaced only when the designer says so."""
        document = self.document
        if document is None:
            return False
        if folder.resolve() == document.root.resolve():
            return self.save()
        occupied = scenario_files_in(folder)
        if occupied and not self._replace_scenario(folder, occupied):
            return False
        recovery.discard(document)   # the unsaved work is about to live in the new folder
        try:
            written = document.save(folder, replace=bool(occupied))
        except Exception as failure:  # SaveRefused, PATH001 or an I/O error: each file whole or untouched
            QMessageBox.critical(self, APP_NAME, f"The scenario was not saved into {folder}:\n{failure}")
            self.autosave()
            return False
        self.banner.hide()
        self._remember(folder)
        self._update_title()
        self.statusBar().showMessage(f"Saved {len(written)} file(s) into {folder}", 4000)
        return True

    def _replace_scenario(self, folder: Path, files: list[Path]) -> bool:
        try:
            other = read_yaml_file(folder / FILE_KINDS["scenario"]).data
        except (OSError, YamlRefused):
            other = None
        name = other.get("name") or other.get("id") if isinstance(other, dict) else None
        named = f" ({name})" if isinstance(name, str) else ""
        answer = QMessageBox.question(
            self, APP_NAME, f"{folder} holds another scenario{named}. Replace it?\n\nIts {len(files)} "
            "scenario file(s) are replaced by this scenario's; those this scenario does not have "
            "(its locales, say) are removed. Other files in the folder are left as they are.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def new_scenario(self) -> None:
        """File > New: a folder, a name and the game system, then the new scenario is open."""
        from .new_scenario import NewScenarioDialog
        dialog = NewScenarioDialog(self)
        folder = dialog.chosen_folder() if dialog.exec() == NewScenarioDialog.DialogCode.Accepted else None
        if folder is not None:
            self.create_scenario(folder, dialog.chosen_system(), dialog.name.text())

    def create_scenario(self, folder: Path, system: str = "aa50", name: str = "") -> bool:
        """Start a scenario in a folder holding none: its manifest (id, name, system), then open it."""
        from sandtable.schemas import schema_header

        from .new_scenario import manifest
        if scenario_files_in(folder):
            QMessageBox.warning(self, APP_NAME, f"{folder} already holds a scenario; open it instead.")
            return False
        if self.document is not None:
            if not self.confirm_discard():
                return False
            self._close_document()   # asked once: opening the new one asks nothing more
        folder.mkdir(parents=True, exist_ok=True)
        save_yaml(folder / "scenario.yaml", manifest(folder, name, system),
                  schema_header("scenario", folder / "scenario.yaml"), within=folder)
        self.open_folder(folder)
        return True

    def open_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open a scenario folder")
        if folder:
            self.open_folder(folder)

    def reload_from_disk(self) -> None:
        if self.document is not None:
            self.document.reload()
        self.banner.hide()

    def keep_my_version(self) -> bool:
        """The banner's choice: this version of the files changed on disk is written over them
        now, whether or not anything is unsaved."""
        if self.document is None:
            return False
        self.document.keep_mine()
        return self.save()

    def _changed_on_disk(self, paths: list) -> None:
        names = ", ".join(Path(p).name for p in paths)
        self.banner_text.setText(f"{names} changed on disk since it was opened. "
                                 "Reload to see the new text (your unsaved edits would be lost), "
                                 "or keep your version and save over it.")
        self.banner.show()

    # -- closing ----------------------------------------------------------------------------
    def confirm_discard(self) -> bool:
        """True when it is fine to drop the open document (saved, or the user says so)."""
        if self.document is None or not self.document.is_dirty():
            if self.document is not None:
                recovery.discard(self.document)
            return True
        answer = QMessageBox.question(
            self, APP_NAME, "The scenario has unsaved changes. Save them first?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        if answer == QMessageBox.StandardButton.Discard:
            recovery.discard(self.document)
            return True
        return False

    def closeEvent(self, event) -> None:
        if not self.confirm_discard():
            event.ignore()
            return
        self._save_layout()
        self._close_document()
        event.accept()

    # -- settings ---------------------------------------------------------------------------
    def _restore_layout(self) -> None:
        geometry = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        if isinstance(state, QByteArray):
            self.restoreState(state)

    def _save_layout(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()

    def recent(self) -> list[str]:
        value: Any = self.settings.value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [v for v in value or [] if isinstance(v, str)]

    def _remember(self, folder: Path) -> None:
        path = str(Path(folder).resolve())
        recent = [path] + [p for p in self.recent() if p != path]
        self.settings.setValue("recent", recent[:MAX_RECENT])
        self.settings.sync()
        self._refresh_recent()

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.recent():
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _=False, path=path: self.open_folder(path))
        self.recent_menu.setEnabled(bool(self.recent()))

    def _update_title(self, *_args) -> None:
        if self.document is None:
            self.setWindowTitle(APP_NAME)
            return
        name = self.document.merged("scenario").get("name") or self.document.root.name
        self.setWindowTitle(f"{name} — {self.document.root}[*] — {APP_NAME}")
        self.setWindowModified(self.document.is_dirty())


def _keep_out_of_the_collectors_way() -> None:
    gc.unfreeze()  # let the documents closed since the last opening go
    gc.collect()
    gc.freeze()
