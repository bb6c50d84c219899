"""The playtest panel with OCS: battle settings typed as on the command line, a barrage, and the
charts resolved in the panel."""
from __future__ import annotations

import gc
import shutil

import pytest

pytest.importorskip("PySide6")

from editor.document import ScenarioDocument  # noqa: E402
from editor.playtest import ChartBox, PlaytestPanel  # noqa: E402

from helpers import REPO  # noqa: E402


@pytest.fixture
def demo(qapp, tmp_path):
    for name in ("ocs-charts", "ocs-charts-demo"):
        shutil.copytree(REPO / "scenarios" / name, tmp_path / name)
    made = ScenarioDocument(tmp_path / "ocs-charts-demo")
    yield made
    gc.collect()


def test_a_combat_with_settings_is_reported_in_ocs_terms(qtbot, demo):
    panel = PlaytestPanel(demo)
    qtbot.addWidget(panel)
    panel.attacker.choose("0101", "axis")
    panel.attacker.set_count("infantry-regiment", 0)
    panel.defender.choose("0202", "allies")
    panel.settings.setText("hedgehog=1 attack=overrun")
    with qtbot.waitSignal(panel.finished, timeout=30_000):
        assert panel.run()
    assert panel.report.loss_unit == "steps"
    assert panel.report.details["attack"] == "overrun"
    assert panel.report.details["surprise_modifier"] == 4 - 2 - 1      # ratings, hedgehog (9.8)
    assert "defender 0.4 steps;" in panel.result.text()
    text = panel.details.text()
    assert text.startswith("Combat at 0202, very close terrain, overrun attack (exact)")
    assert "step losses" in text and "IPC" not in text


def test_a_barrage_from_the_panel(qtbot, demo):
    panel = PlaytestPanel(demo)
    qtbot.addWidget(panel)
    panel.attacker.choose("0201", "axis")
    panel.defender.choose("0202", "allies")
    panel.raid.setChecked(True)
    panel.settings.setText("barrage-by=air")
    with qtbot.waitSignal(panel.finished, timeout=30_000):
        assert panel.run()
    assert panel.report.details["kind"] == "barrage"
    assert panel.details.text().startswith("Barrage of 0202 by air (exact)")


def test_a_misspelt_setting_is_shown(qtbot, demo):
    panel = PlaytestPanel(demo)
    qtbot.addWidget(panel)
    panel.attacker.choose("0101", "axis")
    panel.defender.choose("0202", "allies")
    panel.settings.setText("hedgehgo=1")
    assert panel.run()
    qtbot.waitUntil(lambda: panel.run_button.isEnabled(), timeout=30_000)
    assert "unknown setting 'hedgehgo'; did you mean hedgehog?" in panel.result.text()


def test_charts_resolve_in_the_panel(qtbot, demo):
    box = ChartBox(demo)
    qtbot.addWidget(box)
    assert not box.isHidden()
    assert box.choice.count() == 10
    box.choose("airbase-capture")
    box.settings.setText("aircraft=2 active=1")
    with qtbot.waitSignal(box.resolved):
        assert box.resolve()
    assert box.answer["chart"] == "airbase-capture"
    # 9.14f: an active aircraft loses a step on 2d6+2 <= 6 (1/6), an inactive one on <= 6 (5/12)
    assert [o["exact"] for o in box.answer["outcomes"]] == ["35/72", "4/9", "5/72"]
    assert "no aircraft loses a step   48.61%  35/72" in box.result.text()
    box.settings.setText("aircraft=2 active=3")
    assert not box.resolve()
    assert box.result.text() == "The chart could not be resolved: active is a count from 0 to 2, not 3"


def test_no_charts_no_box(qtbot, qapp, tmp_path):
    shutil.copytree(REPO / "scenarios" / "northern-front", tmp_path / "northern-front")
    document = ScenarioDocument(tmp_path / "northern-front")
    box = ChartBox(document)
    qtbot.addWidget(box)
    assert box.isHidden() and box.choice.count() == 0
    assert not box.resolve()
