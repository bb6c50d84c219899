"""Whole games from the editor: a batch of AI-against-AI games of the scenario as it is (unsaved
edits included), played in the background with progress, then the playtest report: its text and
its charts, the same as `sandtable playtest games --report` gives (playtest.study, playtest.report).

The games run in worker processes (a fork server: the editor runs threads), from a pool thread
that only waits; the interface stays free. Stop ends the batch after the games under way.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtGui import QFont, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from .document import ScenarioDocument
from .follow import FollowsDocument
from .validation import build_scenario, run_validators


class Stopped(Exception):
    """The designer stopped the batch."""


class _GameSignals(QObject):
    progress = Signal(int, int)
    finished = Signal(object)      # (report, text, [(name, png bytes)])
    failed = Signal(str)
    refused = Signal(object)       # the scenario's errors: no games are played


class _GamesJob(QRunnable):
    """Validate the scenario, then play the games, all off the interface's thread (validating a
    large scenario takes longer than a frame)."""

    def __init__(self, snapshot, players: dict, games: int, seed: int, max_rounds: int | None,
                 workers: int, signals: _GameSignals, stop: list, chosen: dict | None = None):
        super().__init__()
        self.snapshot, self.players, self.games, self.seed = snapshot, players, games, seed
        self.max_rounds, self.workers, self.signals, self.stop = max_rounds, workers, signals, stop
        self.chosen = chosen or {}

    def run(self) -> None:
        snapshot, self.snapshot = self.snapshot, None   # the pool may keep this wrapper
        errors = [d for d in run_validators(snapshot) if d.is_error]
        if errors:
            self._emit(self.signals.refused, errors)
            return
        try:
            from engine.system import load_system
            from playtest.report import display_names, render_text, summarise
            from playtest.report_html import plot_images
            from playtest.study import Study, portable, run_study

            scenario = build_scenario(snapshot)
            system = load_system(scenario)
            options = {s.key: self.chosen.get(s.key, s.default) for s in system.game_settings()}
            study = Study(portable(scenario), options, self.players, self.games, self.seed,
                          self.max_rounds)

            def progress(done: int, total: int) -> None:
                self._emit(self.signals.progress, done, total)
                if self.stop:
                    raise Stopped()
            records = run_study(study, self.workers, progress)
            meta = {"scenario": scenario.id, "folder": str(scenario.root), "system": system.system,
                    "sides": list(self.players), "players": self.players, "options": options,
                    "seed": self.seed, "games": self.games, "max_rounds": self.max_rounds,
                    "workers": self.workers}
            report = summarise(records, meta)
            answer = (report, render_text(report, display_names(scenario)), plot_images(report, scenario))
        except Stopped:
            self._emit(self.signals.failed, "stopped")
            return
        except Exception as failure:  # the engine's word, shown to the designer
            self._emit(self.signals.failed, f"{type(failure).__name__}: {failure}")
            return
        self._emit(self.signals.finished, answer)

    @staticmethod
    def _emit(signal, *values) -> None:
        try:
            signal.emit(*values)
        except RuntimeError:
            pass  # the panel is gone (the scenario was closed): nobody to tell


class GamesPanel(FollowsDocument, QGroupBox):
    watched = ("scenario", "units")
    finished = Signal(object)
    refused = Signal(object)   # the errors that kept the games from being played

    def __init__(self, document: ScenarioDocument, parent=None, lazy: bool = False):
        """`lazy`: ask the engine for its players when first shown (a faster opening)."""
        super().__init__("Whole games, AI against AI", parent)
        self.document = document
        self.report = None
        self.images: list[tuple[str, bytes]] = []
        self._stop: list = []
        self.pool = QThreadPool.globalInstance()
        self.players_form = QFormLayout()
        self.player_choices: dict[str, QComboBox] = {}
        self.games = QSpinBox()
        self.games.setRange(1, 100_000)
        self.games.setValue(20)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(1)
        self.max_rounds = QSpinBox()
        self.max_rounds.setRange(0, 1000)
        self.max_rounds.setSpecialValueText("no limit")
        self.max_rounds.setValue(10)
        self.workers = QSpinBox()
        self.workers.setRange(1, 256)   # every core the editor may use, once the engine is loaded
        self.run_button = QPushButton("Play games")
        self.run_button.clicked.connect(self.run)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        self.progress = QProgressBar()
        self.summary = QPlainTextEdit()
        self.summary.setReadOnly(True)
        font = QFont("monospace")
        font.setStyleHint(QFont.StyleHint.TypeWriter)
        self.summary.setFont(font)
        self.summary.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.summary.setPlaceholderText("Play games to see who wins, when and where.")
        self.charts_host = QWidget()
        self.charts = QVBoxLayout(self.charts_host)
        self.scroller = scroller = QScrollArea()
        scroller.setWidgetResizable(True)
        scroller.setWidget(self.charts_host)
        self._signals = _GameSignals()
        self._signals.progress.connect(self._progress)
        self._signals.finished.connect(self._finished)
        self._signals.failed.connect(self._failed)
        self._signals.refused.connect(self._refused)
        # The game's settings: the scenario's options (national objectives, research, which
        # victory ...) and the system's own, as `playtest games --option NAME=VALUE` takes them.
        self.options_form = QFormLayout()
        self.option_fields: dict[str, tuple[Any, QWidget]] = {}
        self.options_box = QGroupBox("Game options")
        self.options_box.setLayout(self.options_form)
        settings = QFormLayout()
        settings.addRow("Games", self.games)
        settings.addRow("Seed", self.seed)
        settings.addRow("Rounds at most", self.max_rounds)
        settings.addRow("Worker processes", self.workers)
        top = QHBoxLayout()
        top.addLayout(self.players_form)
        top.addLayout(settings)
        top.addWidget(self.options_box, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.stop_button)
        buttons.addWidget(self.progress, 1)
        results = QHBoxLayout()
        results.addWidget(self.summary, 1)
        results.addWidget(scroller, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(buttons)
        layout.addLayout(results, 1)
        self.follow(document, lazy)

    def reload(self) -> None:
        """A player per side, from the players the game system has."""
        self._stale = False
        try:
            from engine.players import available
            from engine.processes import available_cores
            from engine.system import load_system
            if not self.workers.property("chosen"):
                self.workers.setValue(available_cores())
                self.workers.setProperty("chosen", True)
            system = load_system(build_scenario(self.document.snapshot()))
            kinds = sorted(available(system))
            game_settings = list(system.game_settings())
        except Exception:  # no rules for this system: no games
            kinds, game_settings = [], []
        self._fill_options(game_settings)
        sides = [s["id"] for s in self.document.entities("scenario", "sides") if isinstance(s.get("id"), str)]
        chosen = {side: combo.currentText() for side, combo in self.player_choices.items()}
        while self.players_form.rowCount():
            self.players_form.removeRow(0)   # only ever from a scenario change, never from a combo's signal
        self.player_choices = {}
        for side in sides:
            combo = QComboBox()
            combo.addItems(kinds)
            default = chosen.get(side) or ("heuristic" if "heuristic" in kinds else "random")
            combo.setCurrentText(default)
            self.players_form.addRow(f"{side} plays", combo)
            self.player_choices[side] = combo
        self.run_button.setEnabled(bool(kinds) and bool(sides))
        self.run_button.setToolTip("" if kinds else "The engine has no whole games for this game system yet.")

    def _fill_options(self, game_settings: list) -> None:
        """A field for each game setting, keeping what was chosen in the ones that stay."""
        chosen = {}
        for name in self.option_fields:
            try:
                chosen[name] = self._typed(name)
            except ValueError:
                pass   # typed wrong: the new field starts from the default
        while self.options_form.rowCount():
            self.options_form.removeRow(0)   # only from a scenario change, never a field's signal
        self.option_fields = {}
        for setting in game_settings:
            field: QWidget
            value = chosen.get(setting.name, setting.default)
            if setting.kind == "bool" and not setting.optional:
                check = field = QCheckBox()
                check.setChecked(bool(value))
            elif setting.choices:
                combo = field = QComboBox()
                combo.addItems([str(c) for c in setting.choices])
                combo.setCurrentText(str(value))
            else:
                field = QLineEdit("none" if value is None else _shown(value))
            field.setToolTip(setting.describe())
            field.setObjectName(f"option-{setting.name}")
            self.options_form.addRow(setting.name, field)
            self.option_fields[setting.name] = (setting, field)
        self.options_box.setVisible(bool(game_settings))

    def _typed(self, name: str):
        setting, field = self.option_fields[name]
        if isinstance(field, QCheckBox):
            return field.isChecked()
        if isinstance(field, QComboBox):
            return setting.parse(field.currentText())
        return setting.parse(field.text() if isinstance(field, QLineEdit) else "")

    def chosen_options(self) -> dict:
        """The settings as chosen (by key); ValueError names one typed wrong."""
        return {setting.key: self._typed(name) for name, (setting, _) in self.option_fields.items()}

    def run(self) -> bool:
        try:
            chosen = self.chosen_options()
        except ValueError as problem:
            self.summary.setPlainText(f"Not played: {problem}")
            return False
        players = {side: combo.currentText() for side, combo in self.player_choices.items()}
        self._stop = []
        self.report = None
        self.run_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.progress.setRange(0, self.games.value())
        self.progress.setValue(0)
        self.summary.setPlainText("Checking the scenario, then playing …")
        self.pool.start(_GamesJob(self.document.snapshot(), players, self.games.value(), self.seed.value(),
                                  self.max_rounds.value() or None, self.workers.value(), self._signals,
                                  self._stop, chosen))
        return True

    def _refused(self, errors: list) -> None:
        self.summary.setPlainText(f"The scenario has {len(errors)} error(s); mend them (see Problems) "
                                  "before playing games.\n\n" + "\n".join(
                                      f"{d.code} {d.message}" for d in errors[:20]))
        self._done()
        self.refused.emit(errors)

    def stop(self) -> None:
        self._stop.append(True)
        self.stop_button.setEnabled(False)

    def _progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    def _finished(self, answer) -> None:
        report, text, images = answer
        self.report, self.images = report, images
        self.summary.setPlainText(text)
        self._done()
        while self.charts.count():
            old = self.charts.takeAt(0)
            widget = old.widget() if old is not None else None
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self.pictures = []
        for name, data in images:
            picture = QPixmap()
            picture.loadFromData(data, "PNG")
            label = QLabel()
            label.setObjectName(f"chart-{name}")
            label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            self.charts.addWidget(label)
            self.pictures.append((label, picture))
        self._fit_pictures()
        self.finished.emit(report)

    def _fit_pictures(self) -> None:
        """Each chart as wide as the space beside the text (never wider than drawn)."""
        width = max(200, self.scroller.viewport().width() - 24)
        for label, picture in getattr(self, "pictures", []):
            label.setPixmap(picture if picture.width() <= width
                            else picture.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_pictures()

    def _failed(self, message: str) -> None:
        self.summary.setPlainText("Stopped." if message == "stopped" else f"The games could not be played: {message}")
        self._done()

    def _done(self) -> None:
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)


def _shown(value) -> str:
    """A setting's value as it is typed (`battleship:2,cruiser:1` for counts)."""
    if isinstance(value, dict):
        return ",".join(f"{k}:{v}" for k, v in value.items())
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
