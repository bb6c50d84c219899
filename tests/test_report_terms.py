"""Each system's report in its own words: the payouts under the system's heading and
unit, scores named as the system counts them, no victory cities where a system has none, and
the side ahead at the round limit found by the system's own score."""
from __future__ import annotations

import json

import pytest

from playtest.report import leader_at_limit
from sandtable.cli import main

from helpers import REPO

SCENARIOS = REPO / "scenarios"


def play(capsys, scenario: str, *extra) -> tuple[dict, str]:
    argv = ["playtest", "games", str(SCENARIOS / scenario), "--games", "2", "--workers", "1",
            "--players", "random", *extra]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    return report, capsys.readouterr().out


@pytest.mark.parametrize("scenario, scores, payouts", [
    ("gj69-southern-operation", "VP", "victory points scored"),
    ("war-at-sea", "points on the score track", "points scored"),
    ("allies-vs-axis", "territories held", "ransoms paid"),
])
def test_systems_without_victory_cities_report_in_their_own_terms(capsys, scenario, scores, payouts):
    report, text = play(capsys, scenario)
    assert "final_victory_cities" not in report
    assert report["meta"]["terms"]["scores"] == scores
    assert report["meta"]["terms"]["payouts"] == payouts
    assert "national objectives" not in text
    if report["payouts"]:
        assert f"{payouts} (per game)" in text


def test_aa50_keeps_its_victory_cities_and_objectives(capsys):
    report, text = play(capsys, "aa50-1942", "--max-rounds", "2", "--option",
                        "national-objectives=true")
    assert report["final_victory_cities"] and report["meta"]["terms"]["unit"] == "IPC"
    assert "national objectives and bonuses (per game)" in text and " IPC in all" in text


def test_the_side_ahead_at_the_limit_is_read_from_the_score_where_there_are_no_cities():
    stopped = {"winner": None, "reason": "round-limit", "round": 8, "victory_cities": {},
               "scores": {"japan": 14.0, "allies": 9.0}}
    assert leader_at_limit(stopped) == "japan"
    assert leader_at_limit(dict(stopped, victory_cities={"japan": 3, "allies": 5})) == "allies"
