"""The playtest panel: forces from the map's own units, a background run, the result and its chart."""
from __future__ import annotations

import gc
import importlib.util
import shutil
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("PySide6")

from PySide6.QtWidgets import QLabel  # noqa: E402

from editor.document import ScenarioDocument  # noqa: E402
from editor.playtest import PlaytestPanel, forces_by_space  # noqa: E402

NORTHERN_FRONT = Path(__file__).resolve().parent.parent / "scenarios" / "northern-front"


@pytest.fixture
def document(qapp, tmp_path):
    folder = tmp_path / "northern-front"
    shutil.copytree(NORTHERN_FRONT, folder)
    made = ScenarioDocument(folder)
    yield made
    gc.collect()


@dataclass(frozen=True)
class FakeForce:
    owner: str
    units: dict


class FakeCalculator:
    """Stands in for engine.calculator: records the call, reports progress, answers fixed odds."""

    Force = FakeForce

    def __init__(self):
        self.calls = []

    def run_battle(self, scenario, attacker, defender, space, runs=10000, seed=None, exact=None,
                   progress=None):
        self.calls.append((scenario.id, attacker, defender, space, runs, seed))
        for done in (runs // 2, runs):
            progress(done, runs)
        return SimpleNamespace(attacker_wins=0.25, defender_wins=0.7, draws=0.05,
                               attacker_survivors={0: 0.75, 1: 0.15, 2: 0.1},
                               defender_survivors={0: 0.25, 1: 0.5, 2: 0.25},
                               expected_attacker_loss=5.0, expected_defender_loss=4.5,
                               mean_rounds=2.25, method="monte-carlo", runs=runs, states=0)


def test_forces_come_from_the_starting_position(document):
    forces = forces_by_space(document)
    assert forces["karelia-ssr"] == {"soviet-union": {"infantry": 5, "artillery": 1, "aa-gun": 1,
                                                      "factory": 1}}
    assert forces["sz-5"] == {"germany": {"cruiser": 1, "submarine": 1, "transport": 1}}
    assert forces["norway"] == {"germany": {"infantry": 2, "fighter": 1}}


def test_a_battle_runs_in_the_background_and_shows_its_odds(qtbot, document):
    calculator = FakeCalculator()
    panel = PlaytestPanel(document, calculator)
    qtbot.addWidget(panel)
    panel.attacker.choose("norway", "germany")
    panel.attacker.set_count("fighter", 0)
    panel.defender.choose("archangel", "soviet-union")
    panel.runs.setValue(2000)
    panel.seed.setValue(7)
    with qtbot.waitSignal(panel.finished, timeout=10_000):
        assert panel.run()
    assert calculator.calls == [("northern-front", FakeForce("germany", {"infantry": 2}),
                                 FakeForce("soviet-union", {"infantry": 2}), "archangel", 2000, 7)]
    assert panel.progress.value() == 2000
    assert panel.result.text().startswith("Attacker wins 25.0% · draws 5.0% · defender wins 70.0%")
    assert panel.chart.attacker == {0: 0.75, 1: 0.15, 2: 0.1}
    assert panel.chart.defender == {0: 0.25, 1: 0.5, 2: 0.25}
    assert panel.run_button.isEnabled()
    image = panel.chart.grab().toImage()
    assert image.width() > 0


def test_no_attacking_units_means_no_run(qtbot, document):
    calculator = FakeCalculator()
    panel = PlaytestPanel(document, calculator)
    qtbot.addWidget(panel)
    panel.attacker.choose("finland", "germany")
    panel.attacker.set_count("infantry", 0)
    assert not panel.run()
    assert panel.result.text() == "Choose an attacking force and the space it attacks."
    assert calculator.calls == []


@pytest.mark.skipif(importlib.util.find_spec("engine.calculator") is None,
                    reason="engine.calculator is not there yet")
def test_the_real_calculator_runs_from_the_panel(qtbot, document):
    panel = PlaytestPanel(document)
    qtbot.addWidget(panel)
    panel.attacker.choose("finland", "germany")
    panel.defender.choose("archangel", "soviet-union")
    with qtbot.waitSignal(panel.finished, timeout=60_000):
        assert panel.run()
    report = panel.report
    assert report.method == "exact"  # two infantry on each side is a small chain
    assert "computed exactly" in panel.result.text()
    assert report.attacker_wins + report.defender_wins + report.draws == pytest.approx(1.0)
    assert sum(report.attacker_survivors.values()) == pytest.approx(1.0)
    assert panel.chart.attacker == {int(k): v for k, v in report.attacker_survivors.items()}


@pytest.mark.skipif(importlib.util.find_spec("engine.calculator") is None,
                    reason="engine.calculator is not there yet")
def test_the_defaults_are_a_battle_that_can_be_fought(qtbot, document):
    panel = PlaytestPanel(document)
    qtbot.addWidget(panel)
    sides = {"germany": "axis", "soviet-union": "allies"}
    assert sides[panel.attacker.owner_id] != sides[panel.defender.owner_id]
    assert panel.attacker.owner_id == "germany"              # the first to play
    assert panel.attacker.chosen() and panel.defender.chosen()
    attackable = [panel.attacker.units.item(r, 0).text() for r in range(panel.attacker.units.rowCount())]
    assert "factory" not in attackable and "infantry" in attackable     # a factory never attacks
    defending = [panel.defender.units.item(r, 0).text() for r in range(panel.defender.units.rowCount())]
    assert "factory" in defending
    borders = {tuple(sorted(b["between"])) for b in document.entities("map", "borders")}
    assert tuple(sorted((panel.attacker.space_id, panel.defender.space_id))) in borders


@pytest.mark.skipif(importlib.util.find_spec("engine.calculator") is None,
                    reason="engine.calculator is not there yet")
def test_a_force_composed_freely_and_losses_in_the_systems_terms(qtbot, document):
    panel = PlaytestPanel(document)
    qtbot.addWidget(panel)
    panel.attacker.choose("finland", "germany")
    panel.attacker.set_count("armour", 3)          # none of them are in Finland at the start
    panel.attacker.set_count("infantry", 0)
    assert panel.attacker.chosen() == {"armour": 3}
    panel.defender.choose("archangel", "soviet-union")
    with qtbot.waitSignal(panel.finished, timeout=60_000):
        assert panel.run()
    assert panel.report.loss_unit == "IPC"
    assert " IPC; " in panel.result.text()           # expected losses ... defender 2.9 IPC; ...
    image = panel.chart.grab().toImage()
    assert image.width() > 0
    from editor.playtest import X_TITLE, Y_TITLE
    assert X_TITLE == "units left at the end of the battle" and Y_TITLE == "probability"


@pytest.mark.skipif(importlib.util.find_spec("playtest.study") is None, reason="playtest.study is not there")
def test_whole_games_play_in_the_background_and_show_the_report(qtbot, qapp, tmp_path):
    from editor.playtest_games import GamesPanel
    for name in ("aa50-1941", "aa50-1942"):
        shutil.copytree(NORTHERN_FRONT.parent / name, tmp_path / name)
    document = ScenarioDocument(tmp_path / "aa50-1942")
    panel = GamesPanel(document)
    qtbot.addWidget(panel)
    assert sorted(panel.player_choices) == ["allies", "axis"]
    assert panel.player_choices["axis"].currentText() == "heuristic"
    for combo in panel.player_choices.values():
        combo.setCurrentText("random")
    panel.games.setValue(3)
    panel.max_rounds.setValue(2)
    panel.workers.setValue(1)
    panel.seed.setValue(5)
    with qtbot.waitSignal(panel.finished, timeout=120_000):
        assert panel.run()
        assert not panel.run_button.isEnabled() and panel.stop_button.isEnabled()
    report = panel.report
    assert report["games"] == 3 and report["finished"] + report["failed"] == 3
    assert panel.progress.value() == 3 and panel.run_button.isEnabled()
    assert panel.summary.toPlainText().startswith("aa50-1942: 3 games, seed 5\n"
                                                  "players: Axis random, Allies random")
    names = [name for name, _ in panel.images]
    assert names[0] == "outcome" and "map" in names
    assert len(panel.charts_host.findChildren(QLabel)) == len(names)
    # The same study from the command line gives the same report (the engine decides, not the panel).
    from engine.system import load_system
    from playtest.report import summarise
    from playtest.study import Study, portable, run_study
    from sandtable.scenario import load_scenario
    scenario = load_scenario(tmp_path / "aa50-1942")
    options = {s.key: s.default for s in load_system(scenario).game_settings()}
    records = run_study(Study(portable(scenario), options, {"axis": "random", "allies": "random"}, 3, 5, 2))
    assert summarise(records, report["meta"])["sides"] == report["sides"]
    document.deleteLater()


def test_a_neutral_territory_is_fought_with_no_defender(qtbot, qapp, tmp_path):
    """Allies vs. Axis: a territory nobody owns is invaded against its printed neutral defence
    power, with no defending side (page: neutral territories). Leaving the defender's counts at
    zero asks exactly that, as the command line does without --defender."""
    folder = tmp_path / "allies-vs-axis"
    shutil.copytree(NORTHERN_FRONT.parent / "allies-vs-axis", folder)
    panel = PlaytestPanel(ScenarioDocument(folder))
    qtbot.addWidget(panel)
    panel.attacker.choose(panel.attacker.space_id, "axis")
    for row in range(panel.attacker.units.rowCount()):
        panel.attacker.set_count(panel.attacker.units.item(row, 0).text(), 0)
    panel.attacker.set_count("infantry", 8)
    panel.defender.choose("ireland", panel.defender.owner_id)
    for row in range(panel.defender.units.rowCount()):
        panel.defender.set_count(panel.defender.units.item(row, 0).text(), 0)
    with qtbot.waitSignal(panel.finished, timeout=60_000):
        assert panel.run()
    shown = panel.details.text()
    assert "defending nobody: a neutral territory" in shown
    assert "invasion power 8 against neutral defence power 8" in shown
    gc.collect()


@pytest.mark.parametrize("name, attacking", [
    ("northern-front", {"infantry": 2}),        # not sz-5's cruiser, submarine and transport
    ("gj69-southern-operation", {"ijn-chokai": 1, "ijn-kumano": 1, "ijn-destroyers": 2}),
])
def test_the_panel_opens_on_a_battle_the_rules_allow(qtbot, qapp, tmp_path, name, attacking):
    """The opening battle is one the engine accepts: ships do not open against a territory
    (AA50 §5.4), nor the 25th Army's tanks against ships at sea (GJ69 §8.0(2)); a mixed stack
    opens with its units of one domain. Run gives odds, not a refusal."""
    folder = tmp_path / name
    shutil.copytree(NORTHERN_FRONT.parent / name, folder)
    panel = PlaytestPanel(ScenarioDocument(folder))
    qtbot.addWidget(panel)
    assert panel.attacker.chosen() == attacking
    with qtbot.waitSignal(panel.finished, timeout=60_000):
        assert panel.run()
    assert panel.result.text().startswith("Attacker wins ")
    gc.collect()


def test_a_name_matplotlib_would_read_as_math_still_gives_the_plots(qtbot, qapp, tmp_path):
    """A side named `$M 50 \\frac{$ Axis` once raised while the plots were drawn, after every
    game was played: the panel showed nothing."""
    import matplotlib

    from editor.playtest_games import GamesPanel
    folder = tmp_path / "northern-front"
    shutil.copytree(NORTHERN_FRONT, folder)
    manifest = folder / "scenario.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "{id: axis, name: Axis,", "{id: axis, name: '$M 50 \\\\frac{$ Axis',"), encoding="utf-8")
    document = ScenarioDocument(folder)
    panel = GamesPanel(document)
    qtbot.addWidget(panel)
    for combo in panel.player_choices.values():
        combo.setCurrentText("random")
    panel.games.setValue(2)
    panel.max_rounds.setValue(2)
    panel.workers.setValue(1)
    with matplotlib.rc_context({"text.parse_math": True}):   # Matplotlib's default
        assert panel.run()
        qtbot.waitUntil(panel.run_button.isEnabled, timeout=120_000)   # finished, or failed
    assert panel.report is not None and panel.report["games"] == 2
    assert [name for name, _ in panel.images][0] == "outcome"
    document.deleteLater()
