"""The playtest panel: pick two forces from the map's own units and run the battle calculator.

The calculator (engine.calculator) is imported when first used, and can be handed in instead, so
the panel works the same with the real engine or a stand-in. Battles run on a pool thread; the
progress bar follows the calculator's progress callback. The battle's settings are typed as on
the command line (`hedgehog=2 attack=overrun`); a system that reports battles in its own terms
has its text shown under the odds. A system's charts (engine.resolvers) are resolved below,
at once: they are exact and small.
"""
from __future__ import annotations

from collections import defaultdict

from PySide6.QtCore import QObject, QRectF, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from .document import ScenarioDocument
from .validation import build_scenario

ATTACKER_COLOUR = QColor("#b3261e")
DEFENDER_COLOUR = QColor("#2f6fb3")


def forces_by_space(document: ScenarioDocument) -> dict[str, dict[str, dict[str, int]]]:
    """space -> owner -> unit type -> count, from the starting position."""
    found: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for entry in document.entities("setup", "spaces"):
        space = entry.get("space")
        given = entry.get("units")
        units = given if isinstance(given, list) else []
        for stack in units:
            if not isinstance(stack, dict) or not isinstance(stack.get("type"), str):
                continue
            owner = stack.get("owner") or entry.get("control")
            number = stack.get("count")
            count = number if isinstance(number, int) else 0
            if isinstance(space, str) and isinstance(owner, str) and count > 0:
                table = found[space][owner]
                table[stack["type"]] = table.get(stack["type"], 0) + count
    return {space: dict(owners) for space, owners in found.items()}


def load_calculator():
    """engine.calculator, or None while the engine does not provide it."""
    try:
        from engine import calculator
    except ImportError:
        return None
    return calculator


def make_force(calculator, owner: str, units: dict[str, int]):
    """A Force for the calculator: built directly when it exports Force, else parsed from text."""
    units = {t: n for t, n in units.items() if n > 0}
    if hasattr(calculator, "Force"):
        return calculator.Force(owner, units)
    return calculator.parse_force(f"{owner}: " + ", ".join(f"{n} {t}" for t, n in units.items()))


class ForcePicker(QGroupBox):
    """A space, one of the owners with units there, and how many of each unit to commit."""

    changed = Signal()

    def __init__(self, title: str, document: ScenarioDocument, parent=None):
        super().__init__(title, parent)
        self.document = document
        self.forces: dict[str, dict[str, dict[str, int]]] = {}
        self.space = QComboBox()
        self.owner = QComboBox()
        self.units = QTableWidget(0, 2)
        self.units.setHorizontalHeaderLabels(["Unit", "Count"])
        self.units.horizontalHeader().setStretchLastSection(True)
        self.units.verticalHeader().hide()
        form = QFormLayout()
        form.addRow("Space", self.space)
        form.addRow("Owner", self.owner)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.units)
        self.space.currentTextChanged.connect(self._space_changed)
        self.owner.currentTextChanged.connect(self._owner_changed)

    def reload(self) -> None:
        self.forces = forces_by_space(self.document)
        current = self.space.currentData()
        self.space.blockSignals(True)
        self.space.clear()
        names = {s.get("id"): s.get("name") for s in self.document.entities("map", "spaces")}
        for space in sorted(self.forces, key=lambda s: str(names.get(s) or s)):
            self.space.addItem(str(names.get(space) or space), space)
        self.space.blockSignals(False)
        index = self.space.findData(current)
        self.space.setCurrentIndex(max(index, 0))
        self._space_changed()

    def choose(self, space: str, owner: str | None = None) -> None:
        self.space.setCurrentIndex(self.space.findData(space))
        if owner is not None:
            self.owner.setCurrentText(owner)

    def _space_changed(self, *_args) -> None:
        owners = self.forces.get(self.space.currentData(), {})
        self.owner.blockSignals(True)
        self.owner.clear()
        self.owner.addItems(sorted(owners))
        self.owner.blockSignals(False)
        self._owner_changed()

    def _owner_changed(self, *_args) -> None:
        units = self.forces.get(self.space.currentData(), {}).get(self.owner.currentText(), {})
        self.units.setRowCount(len(units))
        for row, (unit, count) in enumerate(sorted(units.items())):
            self.units.setItem(row, 0, QTableWidgetItem(unit))
            spin = QSpinBox()
            spin.setRange(0, count)
            spin.setValue(count)
            spin.valueChanged.connect(self.changed)
            self.units.setCellWidget(row, 1, spin)
        self.changed.emit()

    def _row(self, row: int) -> tuple[str, QSpinBox]:
        """(unit type, its count box) of a row of the unit table."""
        item, spin = self.units.item(row, 0), self.units.cellWidget(row, 1)
        assert item is not None and isinstance(spin, QSpinBox)
        return item.text(), spin

    def set_count(self, unit: str, count: int) -> None:
        for row in range(self.units.rowCount()):
            name, spin = self._row(row)
            if name == unit:
                spin.setValue(count)

    @property
    def space_id(self) -> str | None:
        return self.space.currentData()

    @property
    def owner_id(self) -> str:
        return self.owner.currentText()

    def chosen(self) -> dict[str, int]:
        return {name: spin.value() for name, spin in map(self._row, range(self.units.rowCount()))}


class SurvivorChart(QWidget):
    """Bars of P(n units survive), attacker in red, defender in blue, side by side."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.attacker: dict[int, float] = {}
        self.defender: dict[int, float] = {}
        self.setMinimumHeight(180)

    def set_distributions(self, attacker: dict, defender: dict) -> None:
        self.attacker = {int(k): float(v) for k, v in attacker.items()}
        self.defender = {int(k): float(v) for k, v in defender.items()}
        self.update()

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor("#ffffff"))
        counts = sorted(set(self.attacker) | set(self.defender))
        if not counts:
            painter.setPen(QColor("#777777"))
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "Run a battle to see how many units survive")
            return
        top = max(list(self.attacker.values()) + list(self.defender.values()) + [1e-9])
        left, bottom, right, head = 40, self.height() - 28, self.width() - 10, 22
        painter.setPen(QPen(QColor("#444444")))
        painter.drawLine(left, bottom, right, bottom)
        slot = (right - left) / len(counts)
        bar = max(2.0, slot * 0.38)
        font = QFont()
        font.setPointSizeF(7.5)
        painter.setFont(font)
        for i, n in enumerate(counts):
            x = left + i * slot + slot * 0.1
            for offset, series, colour in ((0, self.attacker, ATTACKER_COLOUR),
                                           (bar, self.defender, DEFENDER_COLOUR)):
                height = (bottom - head) * series.get(n, 0.0) / top
                painter.fillRect(QRectF(x + offset, bottom - height, bar, height), colour)
            painter.setPen(QColor("#222222"))
            painter.drawText(QRectF(left + i * slot, bottom + 2, slot, 14), Qt.AlignmentFlag.AlignCenter, str(n))
        painter.drawText(QRectF(left, 2, right - left, 16), Qt.AlignmentFlag.AlignLeft,
                         "Survivors: attacker (red), defender (blue)")
        painter.drawText(QRectF(0, head - 6, left - 4, 14), Qt.AlignmentFlag.AlignRight, f"{top:.0%}")


class _BattleSignals(QObject):
    progress = Signal(int, int)
    finished = Signal(object)
    failed = Signal(str)


class _BattleJob(QRunnable):
    def __init__(self, calculator, snapshot, attacker, defender, space, runs, seed, signals,
                 options=(), raid=False):
        super().__init__()
        self.calculator, self.snapshot = calculator, snapshot
        self.attacker, self.defender, self.space = attacker, defender, space
        self.runs, self.seed, self.signals = runs, seed, signals
        self.options, self.raid = list(options), raid

    def run(self) -> None:
        try:
            scenario = build_scenario(self.snapshot)
            chosen = {}
            if self.options:
                chosen["extras"] = self.calculator.battle_extras(scenario, self.options)
            if self.raid:
                chosen["raid"] = True
            report = self.calculator.run_battle(
                scenario, self.attacker, self.defender, self.space,
                runs=self.runs, seed=self.seed,
                progress=lambda done, total: self.signals.progress.emit(int(done), int(total)),
                **chosen)
            render = getattr(self.calculator, "render_report", None)
            text = render(scenario, report, [self.attacker, self.defender], self.space) if render else None
        except Exception as failure:  # shown to the designer, who can fix the data
            self.signals.failed.emit(f"{type(failure).__name__}: {failure}")
            return
        self.signals.finished.emit((report, text))


class PlaytestPanel(QWidget):
    finished = Signal(object)

    def __init__(self, document: ScenarioDocument, calculator=None, parent=None):
        super().__init__(parent)
        self.document = document
        self._calculator = calculator
        self.pool = QThreadPool.globalInstance()
        self.report = None
        self.attacker = ForcePicker("Attacker", document)
        self.defender = ForcePicker("Defender (the battle is in this space)", document)
        self.runs = QSpinBox()
        self.runs.setRange(100, 1_000_000)
        self.runs.setSingleStep(1000)
        self.runs.setValue(10_000)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setSpecialValueText("random")
        self.settings = QLineEdit()
        self.settings.setPlaceholderText("battle settings, as on the command line: hedgehog=2 attack=overrun")
        self.settings.setToolTip("NAME=VALUE pairs separated by spaces; "
                                 "'sandtable playtest battle SCENARIO --option list' lists them")
        self.raid = QCheckBox("Raid / barrage")
        self.run_button = QPushButton("Run battle")
        self.run_button.clicked.connect(self.run)
        self.progress = QProgressBar()
        self.result = QLabel("")
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.chart = SurvivorChart()
        self.details = QLabel("")
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setFont(_monospace())
        self.charts = ChartBox(document)
        self._signals = _BattleSignals()
        self._signals.progress.connect(self._progress)
        self._signals.finished.connect(self._finished)
        self._signals.failed.connect(self._failed)

        pickers = QHBoxLayout()
        pickers.addWidget(self.attacker)
        pickers.addWidget(self.defender)
        controls = QHBoxLayout()
        controls.addWidget(QLabel("Runs"))
        controls.addWidget(self.runs)
        controls.addWidget(QLabel("Seed"))
        controls.addWidget(self.seed)
        controls.addWidget(self.run_button)
        controls.addWidget(self.progress, 1)
        options = QHBoxLayout()
        options.addWidget(QLabel("Settings"))
        options.addWidget(self.settings, 1)
        options.addWidget(self.raid)
        layout = QVBoxLayout(self)
        layout.addLayout(pickers, 2)
        layout.addLayout(options)
        layout.addLayout(controls)
        layout.addWidget(self.result)
        layout.addWidget(self.details)
        layout.addWidget(self.chart, 2)
        layout.addWidget(self.charts)
        document.changed.connect(lambda kind: self.reload() if kind in ("setup", "map") else None)
        document.reloaded.connect(self.reload)
        self.reload()

    def reload(self) -> None:
        self.attacker.reload()
        self.defender.reload()

    @property
    def calculator(self):
        if self._calculator is None:
            self._calculator = load_calculator()
        return self._calculator

    def run(self) -> bool:
        calculator = self.calculator
        if calculator is None:
            self.result.setText("The battle calculator (engine.calculator) is not available.")
            return False
        if not self.defender.space_id or not any(self.attacker.chosen().values()):
            self.result.setText("Choose an attacking force and the space it attacks.")
            return False
        attacker = make_force(calculator, self.attacker.owner_id, self.attacker.chosen())
        defender = make_force(calculator, self.defender.owner_id, self.defender.chosen())
        self.run_button.setEnabled(False)
        self.progress.setRange(0, self.runs.value())
        self.progress.setValue(0)
        self.result.setText("Running …")
        seed = self.seed.value() or None
        self.pool.start(_BattleJob(calculator, self.document.snapshot(), attacker, defender,
                                   self.defender.space_id, self.runs.value(), seed, self._signals,
                                   self.settings.text().split(), self.raid.isChecked()))
        return True

    def _progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    def _finished(self, answer) -> None:
        report, text = answer
        self.report = report
        self.details.setText(text or "")
        self.run_button.setEnabled(True)
        self.progress.setValue(self.progress.maximum())
        self.result.setText(
            f"Attacker wins {report.attacker_wins:.1%} · draws {report.draws:.1%} · "
            f"defender wins {report.defender_wins:.1%}   "
            f"(expected losses: attacker {report.expected_attacker_loss:.1f}, defender "
            f"{report.expected_defender_loss:.1f}{_unit(report)}; {report.mean_rounds:.1f} rounds; "
            + ("computed exactly)" if report.method == "exact" else f"{report.runs:,} battles simulated)"))
        self.chart.set_distributions(report.attacker_survivors, report.defender_survivors)
        self.finished.emit(report)

    def _failed(self, message: str) -> None:
        self.run_button.setEnabled(True)
        self.result.setText(f"The battle could not be run: {message}")


def _unit(report) -> str:
    unit = getattr(report, "loss_unit", "")
    return f" {unit}" if unit else ""


def _monospace() -> QFont:
    font = QFont("monospace")
    font.setStyleHint(QFont.StyleHint.TypeWriter)
    return font


class ChartBox(QGroupBox):
    """The scenario's charts (engine.resolvers): pick one, type its settings, read every result
    with its exact probability. Hidden when the game system has none."""

    resolved = Signal(object)

    def __init__(self, document: ScenarioDocument, parent=None):
        super().__init__("Charts", parent)
        self.document = document
        self.answer: dict | None = None
        self.choice = QComboBox()
        self.settings = QLineEdit()
        self.settings.setPlaceholderText("chart settings: attacker-air=2 defender-air=1")
        self.button = QPushButton("Resolve chart")
        self.button.clicked.connect(self.resolve)
        self.result = QLabel("")
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result.setFont(_monospace())
        row = QHBoxLayout()
        row.addWidget(self.choice)
        row.addWidget(self.settings, 1)
        row.addWidget(self.button)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.result)
        document.changed.connect(lambda kind: self.reload() if kind in ("tables", "scenario") else None)
        document.reloaded.connect(self.reload)
        self.reload()

    def _scenario(self):
        return build_scenario(self.document.snapshot())

    def reload(self) -> None:
        try:
            from engine.resolvers import chart_list
            charts = chart_list(self._scenario())
        except Exception:  # no engine for this system, or data it cannot read: no charts
            charts = []
        current = self.choice.currentData()
        self.choice.clear()
        for chart in charts:
            self.choice.addItem(f"{chart['title']} ({chart['source']})", chart["chart"])
            self.choice.setItemData(self.choice.count() - 1, "\n".join(chart["settings"]), Qt.ItemDataRole.ToolTipRole)
        self.choice.setCurrentIndex(max(self.choice.findData(current), 0))
        self.setVisible(bool(charts))

    def choose(self, chart: str) -> None:
        self.choice.setCurrentIndex(self.choice.findData(chart))

    def resolve(self) -> bool:
        chart = self.choice.currentData()
        if not chart:
            return False
        try:
            from engine.resolvers import chart_distribution
            self.answer = chart_distribution(self._scenario(), chart, self.settings.text().split())
        except Exception as problem:  # a setting the chart does not take: shown, not raised
            self.answer = None
            self.result.setText(f"The chart could not be resolved: {problem}")
            return False
        width = max(len(o["text"]) for o in self.answer["outcomes"])
        lines = [f"{w['what']}: {w['value']}" for w in self.answer["working"]]
        lines += [f"{o['text']:<{width}}  {100 * o['probability']:6.2f}%  {o['exact']}"
                  for o in self.answer["outcomes"]]
        self.result.setText("\n".join(lines))
        self.resolved.emit(self.answer)
        return True
