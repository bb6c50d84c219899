"""`sandtable playtest chart` and `playtest battle` for OCS, end to end through the command line."""
from __future__ import annotations

import json

import pytest

from sandtable.cli import main

from helpers import REPO

CHARTS = str(REPO / "scenarios" / "ocs-charts")
DEMO = str(REPO / "scenarios" / "ocs-charts-demo")


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_charts_are_listed(capsys):
    code, out, _ = run(capsys, "playtest", "chart", CHARTS)
    assert code == 0
    assert out.splitlines()[0].split() == ["air-combat", "Air", "combat", "(charts", "14.3e)"]
    assert "port-damage              Port damage (charts 19.0b)" in out
    assert "combat and barrage: sandtable playtest battle" in out


def test_air_combat_from_the_command_line_14_3e(capsys):
    code, out, _ = run(capsys, "playtest", "chart", CHARTS, "air-combat",
                       "--option", "attacker-air=2", "--option", "defender-air=1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Air combat (charts 14.3e), exact"
    assert "  modified roll  2d6 +1 (attacker's rating +2, defender's rating -1)" in lines
    # 6 or less on 2d6+1: 10/36; no loss on the loss roll: 2/3
    assert any(line.split() == ["Attacker", "returns:", "no", "loss", "18.52%", "5/27"] for line in lines)


def test_chart_as_json(capsys):
    code, out, _ = run(capsys, "playtest", "chart", CHARTS, "attrition", "--option", "rating=0",
                       "--option", "steps=4", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["chart"] == "attrition" and answer["inputs"] == {"rating": 0, "steps": 4}
    assert [o["result"] for o in answer["outcomes"]] == ["lose-1", "lose-2", "lose-4", "lose-all"]
    assert sum(o["probability"] for o in answer["outcomes"]) == pytest.approx(1)


def test_chart_settings_are_listed(capsys):
    code, out, _ = run(capsys, "playtest", "chart", CHARTS, "flak", "--option", "list")
    assert code == 0
    assert out.splitlines()[0].startswith(
        "mission=barrage|strafing|trainbusting|air-transport|base-transfer|fighter-sweep|interception "
        "(default barrage): the air mission")
    code, out, _ = run(capsys, "playtest", "chart", CHARTS, "supply-dump-destruction", "--option", "list")
    assert out == "the supply-dump-destruction chart has no settings: the dice alone decide it\n"


@pytest.mark.parametrize("argv, message", [
    (["air-combt"], "unknown chart 'air-combt'; did you mean air-combat?"),
    (["air-combat", "--option", "atacker-air=2"], "unknown setting 'atacker-air'; did you mean attacker-air"),
    (["flak", "--option", "mission=bombing"], "mission='bombing': choose one of barrage, strafing"),
    (["flak", "--option", "aircraft=many"], "aircraft='many': expected a whole number"),
    (["mission-loss", "--option", "aircraft=5"], "the mission loss table has rows for 2, 3, 4 aircraft, not 5"),
])
def test_mistakes_are_usage_errors(capsys, argv, message):
    code, out, err = run(capsys, "playtest", "chart", CHARTS, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_a_system_without_charts_says_so(capsys):
    code, out, _ = run(capsys, "playtest", "chart", str(REPO / "scenarios" / "aa50-1941"))
    assert code == 0 and "no charts resolved on their own" in out


def test_combat_report_speaks_ocs(capsys):
    code, out, _ = run(capsys, "playtest", "battle", DEMO, "--attacker", "axis: 2 panzer-regiment",
                       "--defender", "allies: 1 rifle-division", "--at", "0202",
                       "--option", "hedgehog=1", "--option", "attack=overrun")
    assert code == 0
    assert "IPC" not in out and "bomber" not in out
    lines = out.splitlines()
    assert lines[0] == "Combat at 0202, very close terrain, overrun attack (exact)"
    assert "  supply     attacker 4T, defender 2T (1 SP = 4T)" in lines
    for start in ("  step losses  attacker  expected", "  retreat      attacker", "  DG           attacker",
                  "  exploit      "):
        assert any(line.startswith(start) for line in lines), start


def test_barrage_report_speaks_ocs(capsys):
    code, out, _ = run(capsys, "playtest", "battle", DEMO, "--attacker", "axis: 2 artillery-regiment",
                       "--defender", "allies: 1 rifle-division", "--at", "0202", "--raid")
    assert code == 0 and "IPC" not in out and "bomber" not in out
    lines = out.splitlines()
    assert lines[0] == "Barrage of 0202 by artillery (exact)"
    assert "  supply     3T" in lines
    assert lines[3] == "  column     strength 16: 12-16, shifts -1 (density-up-to-3 +0, close-terrain -1) -> 8-11"
    # 8-11: 7-9 DG, 10 [1/2], 11-12 1/2 (a step on 4-6)
    assert "  DG (with or without loss)   58.33%" in lines
    assert "  steps lost                 expected 0.08:  0 steps 91.7%, 1 step 8.3%" in lines


def test_battle_json_has_the_details_in_steps(capsys):
    code, out, _ = run(capsys, "playtest", "battle", DEMO, "--attacker", "axis: 2 panzer-regiment",
                       "--defender", "allies: 1 rifle-division", "--at", "0202", "--json",
                       "--option", "defender-mode=disorganized")
    report = json.loads(out)
    assert code == 0 and report["loss_unit"] == "steps"
    assert "swing" in report and "ipc_swing" not in report        # steps, not IPCs
    assert report["details"]["kind"] == "combat"
    assert report["details"]["action_rating"] == {"attacker": 4, "defender": 1}
    assert set(report["details"]) >= {"steps_lost", "retreat_hexes", "disorganized", "exploit",
                                      "supply_tokens"}


def test_battle_settings_are_checked(capsys):
    code, _, err = run(capsys, "playtest", "battle", DEMO, "--attacker", "axis: 2 panzer-regiment",
                       "--defender", "allies: 1 rifle-division", "--at", "0202",
                       "--option", "attacker-mode=disorganised")
    assert code == 2 and "choose one of normal, disorganized, strategic, exploit; did you mean disorganized?" in err


def test_the_examples_in_the_docs_are_what_the_commands_print(capsys, monkeypatch):
    """docs/ocs-charts.md shows each resolver's command and output; they must not drift."""
    import re
    import shlex
    monkeypatch.chdir(REPO)
    page = (REPO / "docs" / "ocs-charts.md").read_text(encoding="utf-8")
    examples = re.findall(r"```console\n\$ sandtable (.*?)\n(.*?)```", page, re.S)
    assert len(examples) >= 13
    for command, shown in examples:
        code, out, err = run(capsys, *shlex.split(command))
        assert (code, out) == (0, shown), command
