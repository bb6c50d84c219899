"""The playtest panel: two forces (from the map, or composed freely) and the battle calculator.

The calculator (engine.calculator) is imported when first used, and can be handed in instead, so
the panel works the same with the real engine or a stand-in. Battles run on a pool thread; the
progress bar follows the calculator's progress callback. The battle's settings are typed as on
the command line (`hedgehog=2 attack=overrun`); a system that reports battles in its own terms
has its text shown under the odds. A system's charts (engine.resolvers) are resolved below,
at once: they are exact and small.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from PySide6.QtCore import QObject, QRectF, QRunnable, QSignalBlocker, Qt, QThreadPool, Signal
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
from .follow import FollowsDocument
from .validation import build_scenario

X_TITLE = "units left at the end of the battle"
Y_TITLE = "probability"
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
    """Who fights, and with what: an owner, a space, and a count for every unit type.

    Choosing the space and the owner takes the units the owner has there at the start; every
    count can then be changed (a force need not be on the map). The attacker's table lists only
    the unit types that may attack (the rules say which: engine's `can_attack`)."""

    changed = Signal()

    def __init__(self, title: str, document: ScenarioDocument, parent=None):
        super().__init__(title, parent)
        self.document = document
        self.forces: dict[str, dict[str, dict[str, int]]] = {}
        self.may_fight: Callable[[str], bool] = lambda unit: True
        self.owner = QComboBox()
        self.space = QComboBox()
        self.units = QTableWidget(0, 2)
        self.units.setHorizontalHeaderLabels(["Unit", "Count"])
        self.units.horizontalHeader().setStretchLastSection(True)
        self.units.verticalHeader().hide()
        take = QPushButton("Take the units there")
        take.setToolTip("The owner's units in that space at the start")
        take.clicked.connect(self.fill_from_map)
        form = QFormLayout()
        form.addRow("Owner", self.owner)
        form.addRow("Space", self.space)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(take)
        layout.addWidget(self.units)
        self.space.currentIndexChanged.connect(lambda *_: self.fill_from_map())
        self.owner.currentIndexChanged.connect(lambda *_: self.fill_from_map())

    def reload(self) -> None:
        """Follow the scenario: its owners, spaces and unit types, keeping what was chosen."""
        self.forces = forces_by_space(self.document)
        owner, space, counts = self.owner_id, self.space_id, self.chosen()
        blockers = [QSignalBlocker(self.owner), QSignalBlocker(self.space)]
        self.owner.clear()
        for ident, name in _owners(self.document):
            self.owner.addItem(name, ident)
        self.space.clear()
        names = {s["id"]: str(s.get("name") or s["id"]) for s in self.document.entities("map", "spaces")
                 if isinstance(s.get("id"), str)}
        for place in sorted(names, key=lambda i: names[i].casefold()):
            self.space.addItem(names[place], place)
        self.owner.setCurrentIndex(max(self.owner.findData(owner), 0))
        self.space.setCurrentIndex(max(self.space.findData(space), 0))
        del blockers
        types = [u["id"] for u in self.document.entities("units", "unit_types")
                 if isinstance(u.get("id"), str) and self.may_fight(u["id"])]
        self.units.setRowCount(len(types))
        for row, unit in enumerate(types):
            self.units.setItem(row, 0, QTableWidgetItem(unit))
            spin = QSpinBox()
            spin.setRange(0, 999)
            spin.setValue(counts.get(unit, 0))
            spin.valueChanged.connect(self.changed)
            self.units.setCellWidget(row, 1, spin)
        if space is None:
            self.fill_from_map()

    def choose(self, space: str, owner: str | None = None) -> None:
        """A space and owner, and the units the owner has there."""
        blockers = [QSignalBlocker(self.owner), QSignalBlocker(self.space)]
        self.space.setCurrentIndex(self.space.findData(space))
        if owner is not None:
            self.owner.setCurrentIndex(self.owner.findData(owner))
        del blockers
        self.fill_from_map()

    def _row(self, row: int) -> tuple[str, QSpinBox]:
        """(unit type, its count box) of a row of the unit table."""
        item, spin = self.units.item(row, 0), self.units.cellWidget(row, 1)
        assert item is not None and isinstance(spin, QSpinBox)
        return item.text(), spin

    def fill_from_map(self) -> None:
        there = self.forces.get(self.space_id or "", {}).get(self.owner_id, {})
        for unit, spin in map(self._row, range(self.units.rowCount())):
            blocker = QSignalBlocker(spin)
            spin.setValue(there.get(unit, 0))
            del blocker
        self.changed.emit()

    def set_count(self, unit: str, count: int) -> None:
        for name, spin in map(self._row, range(self.units.rowCount())):
            if name == unit:
                spin.setValue(count)

    @property
    def space_id(self) -> str | None:
        return self.space.currentData()

    @property
    def owner_id(self) -> str:
        return self.owner.currentData() or ""

    def chosen(self) -> dict[str, int]:
        """Unit type -> count, the ones chosen (more than none)."""
        return {unit: spin.value() for unit, spin in map(self._row, range(self.units.rowCount())) if spin.value()}


def _owners(document: ScenarioDocument) -> list[tuple[str, str]]:
    """(id, name) of whoever can own units: the nations, then the sides."""
    found = []
    for collection in ("nations", "sides"):
        for entity in document.entities("scenario", collection):
            if isinstance(entity.get("id"), str):
                found.append((entity["id"], str(entity.get("name") or entity["id"])))
    return found


def side_of(document: ScenarioDocument) -> dict[str, str]:
    """owner id -> its side (a side is its own)."""
    sides = {s["id"]: s["id"] for s in document.entities("scenario", "sides") if isinstance(s.get("id"), str)}
    for nation in document.entities("scenario", "nations"):
        if isinstance(nation.get("id"), str) and isinstance(nation.get("side"), str):
            sides[nation["id"]] = nation["side"]
    return sides


Pick = tuple[str, str]                      # (space, owner)
FightCheck = Callable[[Pick, Pick, dict[str, int]], bool]
MAX_OPENING_TRIES = 40                      # battles the engine is asked about before opening


def first_battle(document: ScenarioDocument, may_attack: Callable[[str], bool],
                 can_fight: FightCheck | None = None):
    """A battle to start from: ((attacker's space, owner), (defender's space, owner), the
    attacking units), the two of opposite sides, the attacker with units that may attack, the
    defender in the same space or next door if any is: the first to play in the turn order, from
    its strongest space facing an enemy. With `can_fight` (the engine's word on a battle), the
    first such battle the rules allow, with the attacking units of one domain when a mixed stack
    may not fight there (ships against a territory); else the first candidate. None when there is
    nothing to fight."""
    forces = forces_by_space(document)
    sides = side_of(document)
    order = [o for o in document.merged("scenario").get("turn_order") or [] if isinstance(o, str)]
    neighbours: dict[str, set[str]] = defaultdict(set)
    for border in document.entities("map", "borders"):
        pair = border.get("between")
        if isinstance(pair, list) and len(pair) == 2:
            neighbours[pair[0]].add(pair[1])
            neighbours[pair[1]].add(pair[0])
    strength = {(space, owner): sum(n for u, n in units.items() if may_attack(u))
                for space, owners in forces.items() for owner, units in owners.items()}
    enemies = [(space, owner) for space, owners in forces.items() for owner in owners]

    def foes_of(space: str, owner: str) -> tuple[list, list]:
        foes = [(s, o) for s, o in enemies if sides.get(o, o) != sides.get(owner, owner)]
        here = [pick for pick in foes if pick[0] == space]     # systems that fight in place
        return here + [pick for pick in foes if pick[0] in neighbours[space]], foes
    picks = [pick for pick, units in strength.items() if units]
    picks.sort(key=lambda pick: (order.index(pick[1]) if pick[1] in order else len(order),
                                 not foes_of(*pick)[0], -strength[pick], pick))
    domains = {u["id"]: u.get("domain") for u in document.entities("units", "unit_types")
               if isinstance(u.get("id"), str)}
    candidates = []
    for space, owner in picks:
        near, foes = foes_of(space, owner)
        units = {u: n for u, n in forces[space][owner].items() if may_attack(u) and n > 0}
        candidates += [((space, owner), foe, units) for foe in (near or foes[:1])]
    if can_fight is not None:
        tries = 0
        for attack, defend, units in candidates:
            for subset in _by_domain(units, domains):
                if tries >= MAX_OPENING_TRIES:
                    break
                tries += 1
                if can_fight(attack, defend, subset):
                    return attack, defend, subset
    return candidates[0] if candidates else None


def _by_domain(units: dict[str, int], domains: dict[str, str | None]) -> list[dict[str, int]]:
    """The whole stack, then its units of each domain alone (land, sea, air) when it mixes them."""
    groups: dict = defaultdict(dict)
    for unit, count in units.items():
        groups[domains.get(unit)][unit] = count
    return [units] + (list(groups.values()) if len(groups) > 1 else [])


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
        left, bottom, right, head = 58, self.height() - 40, self.width() - 10, 22
        painter.setPen(QPen(QColor("#444444")))
        painter.drawLine(left, bottom, right, bottom)
        painter.drawLine(left, bottom, left, head)
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
        painter.drawText(QRectF(0, bottom - 7, left - 4, 14), Qt.AlignmentFlag.AlignRight, "0%")
        painter.drawText(QRectF(left, bottom + 16, right - left, 14), Qt.AlignmentFlag.AlignCenter, X_TITLE)
        painter.save()
        painter.translate(12, (bottom + head) / 2)
        painter.rotate(-90)
        painter.drawText(QRectF(-80, -8, 160, 16), Qt.AlignmentFlag.AlignCenter, Y_TITLE)
        painter.restore()


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
        snapshot, self.snapshot = self.snapshot, None   # the pool may keep this wrapper: not the data
        try:
            scenario = build_scenario(snapshot)
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
            forces = [self.attacker] + ([self.defender] if self.defender else [])
            text = render(scenario, report, forces, self.space) if render else None
        except Exception as failure:  # shown to the designer, who can fix the data
            self.signals.failed.emit(f"{type(failure).__name__}: {failure}")
            return
        self.signals.finished.emit((report, text))


class PlaytestPanel(FollowsDocument, QWidget):
    watched = ("setup", "map", "units", "scenario")
    finished = Signal(object)

    def __init__(self, document: ScenarioDocument, calculator=None, parent=None, lazy: bool = False):
        """`lazy`: fill the pickers when first shown (the main window opens a scenario faster)."""
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
        self.charts = ChartBox(document, lazy=lazy)
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
        layout.addLayout(pickers, 3)
        layout.addLayout(options)
        layout.addLayout(controls)
        layout.addWidget(self.result)
        layout.addWidget(self.details)
        layout.addWidget(self.chart, 2)
        layout.addWidget(self.charts)
        self._placed = False
        self.follow(document, lazy)

    def reload(self) -> None:
        self._stale = False
        if not self._placed:
            self.charts.reload()
        self.attacker.may_fight = attack_filter(self.document)
        self.attacker.reload()
        self.defender.reload()
        if not self._placed:
            # Start from a battle that can be fought: two sides, units that may attack.
            battle = first_battle(self.document, self.attacker.may_fight,
                                  fight_check(self.document))
            if battle is not None:
                self.attacker.choose(*battle[0])
                self.defender.choose(*battle[1])
                for unit in self.attacker.chosen():
                    self.attacker.set_count(unit, battle[2].get(unit, 0))
            self._placed = True

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
        # no defending units: a battle with no defending side (an Allies vs. Axis neutral
        # territory); the calculator says so where the rules need a defender
        defender = (make_force(calculator, self.defender.owner_id, self.defender.chosen())
                    if any(n > 0 for n in self.defender.chosen().values()) else [])
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


def fight_check(document: ScenarioDocument) -> FightCheck | None:
    """Whether the rules allow a battle, as the engine's calculator says on one simulated run
    (cheap; its refusal is the message a designer would see on Run). The engine's own
    calculator, whatever runs the panel's battles: this is a question of rules."""
    calculator = load_calculator()
    if calculator is None:
        return None
    try:
        scenario = build_scenario(document.snapshot())
    except Exception:  # data the engine cannot read yet: no opinion
        return None
    forces = forces_by_space(document)

    def can_fight(attack: Pick, defend: Pick, units: dict[str, int]) -> bool:
        try:
            defenders = forces.get(defend[0], {}).get(defend[1], {})
            calculator.run_battle(scenario, make_force(calculator, attack[1], units),
                                  [make_force(calculator, defend[1], defenders)], defend[0],
                                  runs=1, seed=0, exact=False)
        except Exception:  # refused (EngineError and its kin): not a battle to open on
            return False
        return True
    return can_fight


def attack_filter(document: ScenarioDocument) -> Callable[[str], bool]:
    """Which unit types may attack, as the game system's rules say (all, without an engine)."""
    try:
        from engine.system import load_system
        return load_system(build_scenario(document.snapshot())).can_attack
    except Exception:  # no engine for this system, or data it cannot read yet: offer every unit
        return lambda unit: True


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

    def __init__(self, document: ScenarioDocument, parent=None, lazy: bool = False):
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
        if lazy:
            self.hide()   # until the panel it is in is first shown (PlaytestPanel.reload)
        else:
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
