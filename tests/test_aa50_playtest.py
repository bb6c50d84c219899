"""Whole AA50 games many times over: random play keeps every invariant, every game ends, every
replay plays back to the same end; `sandtable playtest games` and `playtest replay` end to end.
"""
from __future__ import annotations

import json

import pytest

from engine.system import load_system
from playtest.study import Study, run_study
from sandtable.cli import main
from sandtable.scenario import load_scenario

from helpers import FIXTURES, REPO

SCENARIOS = REPO / "scenarios"


@pytest.mark.parametrize("name", ["aa50-1941", "aa50-1942"])
@pytest.mark.parametrize("options", [{}, {"research": True, "national_objectives": True,
                                          "victory": "projection"}])
def test_random_games_keep_every_invariant_and_replay_identically(name, options):
    """100 games per scenario and option set (200 per scenario): pieces appear only when
    placed and vanish only in combat, money never goes negative, control stays consistent
    (engine/aa50/game.py `invariants`, checked after every action), every game ends, and
    every game's actions played again reach the same end (Study.check)."""
    scenario = load_scenario(SCENARIOS / name)
    system = load_system(scenario)
    chosen = {s.key: s.default for s in system.game_settings()} | options
    study = Study(scenario, chosen, {"axis": "random", "allies": "random"}, 100, 2024, 6,
                  check=True)
    records = run_study(study, workers=2)
    assert [r.error for r in records if r.error] == []
    assert len(records) == 100
    assert {r.result["reason"] for r in records} <= {"victory-cities", "round-limit"}
    assert all(1 <= r.result["round"] <= 6 for r in records)
    battles = sum(len(r.chronicle["battles"]) for r in records)
    captures = sum(len(r.chronicle["captures"]) for r in records)
    assert battles > 1000 and captures > 500          # the random players do fight
    if options.get("national_objectives"):
        assert any(r.chronicle["payouts"] for r in records)


@pytest.mark.parametrize("name, options", [("aa50-1941", {}),
                                           ("aa50-1942", {"research": True})])
def test_random_games_that_buy_factories_keep_every_invariant(name, options):
    """A seeded slice of the 200 checked games per scenario (docs/playtest.md): random players
    that buy and place an industrial complex whenever they can (`random:favour=factory`), every
    invariant checked after every action: no unit mobilized by a factory placed the same turn
    (§7.1.5), no phase the options close, every fighter at sea on a carrier of its side."""
    scenario = load_scenario(SCENARIOS / name)
    system = load_system(scenario)
    chosen = {s.key: s.default for s in system.game_settings()} | options
    builder = "random:favour=factory"
    study = Study(scenario, chosen, {"axis": builder, "allies": builder}, 6, 24, 5, check=True,
                  keep_actions=True)
    records = run_study(study, workers=1)
    assert [r.error for r in records if r.error] == []
    factories = [a for r in records for _, a in r.moves or () if a[:2] == ("place", "factory")]
    assert len(factories) >= 30
    assert not any(a[0] == "research" for r in records for _, a in r.moves or ()) \
        or options.get("research")


def test_the_random_player_favours_a_word_when_told():
    system = load_system(load_scenario(SCENARIOS / "aa50-1941"))
    import numpy as np

    from engine.players import make_player
    game = system.new_game({}, np.random.default_rng(1), 3)
    builder = make_player("random:favour=factory", system, "axis", np.random.default_rng(2))
    plain = make_player("random", system, "axis", np.random.default_rng(2))
    assert builder.choose(game) == ("buy", "factory", 1)
    assert {plain.choose(game) for _ in range(40)} != {("buy", "factory", 1)}


def test_a_broken_state_is_caught_by_the_invariants():
    system = load_system(load_scenario(SCENARIOS / "aa50-1941"))
    import numpy as np
    game = system.new_game({}, np.random.default_rng(1), 3)
    assert list(game.invariants()) == []
    game.money["italy"] = -2
    piece = game.pieces["germany"][0]
    game.pieces["germany"].remove(piece)
    broken = list(game.invariants())
    assert "italy has -2 IPCs" in broken
    assert any("pieces on the board" in b for b in broken)


# -- the command line ----------------------------------------------------------------------------
def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_playtest_games_reports_who_wins(capsys, tmp_path):
    code, out, _ = run(capsys, "playtest", "games", str(SCENARIOS / "aa50-1942"), "--games", "6",
                       "--max-rounds", "3", "--players", "random", "--seed", "5", "--workers",
                       "1", "--report", str(tmp_path / "report"))
    assert code == 0
    assert out.startswith("aa50-1942: 6 games, seed 5\nplayers: Axis random, Allies random\n")
    assert "who wins" in out and "round limit" in out and "income by round" in out
    for name in ("index.html", "report.json", "outcome.png", "income.png", "map.png"):
        assert (tmp_path / "report" / name).stat().st_size > 500
    page = (tmp_path / "report" / "index.html").read_text()
    assert "<h1>Playtest of aa50-1942</h1>" in page and 'src="map.png"' in page
    assert "<h2>How the players played</h2>" in page and "units lost unable to strike back" in page
    assert "research=false, national-objectives=false" in page     # as the command line writes them


def test_the_same_seed_gives_the_same_report_on_any_number_of_workers(capsys):
    reports = []
    for workers in ("1", "2"):
        code, out, _ = run(capsys, "playtest", "games", str(SCENARIOS / "aa50-1941"), "--games",
                           "8", "--max-rounds", "2", "--players", "random", "--seed", "9",
                           "--workers", workers, "--json")
        assert code == 0
        report = json.loads(out)
        report.pop("seconds")
        report["meta"].pop("workers")
        reports.append(report)
    assert reports[0] == reports[1]
    assert reports[0]["finished"] == 8


def test_heuristic_players_play_whole_games(capsys):
    code, out, _ = run(capsys, "playtest", "games", str(SCENARIOS / "aa50-1941"), "--games", "2",
                       "--max-rounds", "4", "--seed", "1", "--workers", "1", "--json",
                       "--check")
    report = json.loads(out)
    assert code == 0 and report["failed"] == 0
    assert report["meta"]["players"] == {"axis": "heuristic", "allies": "heuristic"}
    assert report["battles"]["per_game"] > 5


@pytest.mark.parametrize("argv, message", [
    (["--players", "heuristik"], "unknown player 'heuristik'; did you mean heuristic?"),
    (["--players", "axsi=random"], "unknown side 'axsi'; did you mean axis?"),
    (["--players", "heuristic:naval=maybe"], "naval='maybe': expected true or false"),
    (["--option", "victory=total"], "choose one of projection, surrender-with-honor, total-war"),
    (["--option", "reserch=true"], "unknown setting 'reserch'; did you mean research?"),
    (["--games", "0"], "--games must be between 1 and 1,000,000"),
    (["--games", "1000000000000"], "--games must be between 1 and 1,000,000"),
    (["--max-rounds", "-1"], "--max-rounds must be between 1 and 1000"),
])
def test_bad_arguments_exit_2_with_a_suggestion(capsys, argv, message):
    code, out, err = run(capsys, "playtest", "games", str(SCENARIOS / "aa50-1941"), *argv)
    assert code == 2 and message in err and not out


def test_settings_and_players_are_listed(capsys):
    code, out, _ = run(capsys, "playtest", "games", str(SCENARIOS / "aa50-1941"), "--option", "list")
    assert code == 0 and "victory=projection|surrender-with-honor|total-war" in out
    code, out, _ = run(capsys, "playtest", "games", str(SCENARIOS / "aa50-1941"), "--players", "list")
    rows = [line.split() for line in out.splitlines()]
    assert code == 0 and rows[0] == ["player", "setting", "values", "default", "meaning"]
    assert ["naval", "true|false", "true", "buys", "sea", "units"] in rows
    assert any(row[:1] == ["random"] for row in rows) and any(row[:1] == ["heuristic"] for row in rows)


def test_a_scenario_with_errors_is_refused_with_its_diagnostics(capsys):
    broken = FIXTURES / "core" / "ref001-unknown-space"
    if not broken.is_dir():
        broken = next(p.parent for p in (FIXTURES / "core").glob("*/scenario.yaml"))
    code, out, err = run(capsys, "playtest", "games", str(broken), "--games", "1")
    assert code == 1 and "error" in out and "mend them before playtesting" in err


def test_replays_play_back_to_the_identical_end(capsys, tmp_path):
    code, _, _ = run(capsys, "playtest", "games", str(SCENARIOS / "aa50-1941"), "--games", "2",
                     "--max-rounds", "2", "--players", "random", "--workers", "1",
                     "--replays", str(tmp_path), "--json")
    assert code == 0
    replay = tmp_path / "game-000001.jsonl"
    code, out, _ = run(capsys, "playtest", "replay", str(replay))
    assert code == 0 and "identical end" in out
    lines = replay.read_text().splitlines()
    result = json.loads(lines[-1])
    result["result"]["round"] += 1
    lines[-1] = json.dumps(result)
    replay.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "playtest", "replay", str(replay))
    assert code == 1 and "different end" in out
    lines[1] = lines[1].replace('"action": [', '"action": ["fly", ')
    replay.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "playtest", "replay", str(replay))
    assert code == 1 and "action 1: germany may not ['fly'" in out


def test_report_without_matplotlib_says_what_to_install(capsys, tmp_path, monkeypatch):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    code, out, err = run(capsys, "playtest", "games", str(SCENARIOS / "aa50-1941"), "--games", "1",
                         "--report", str(tmp_path / "r"))
    assert code == 2 and 'python3 -m pip install -e ".[report]"' in err and not out


@pytest.mark.parametrize("command", ["games", "compare"])
def test_a_system_without_whole_games_is_refused_plainly(capsys, command):
    code, out, err = run(capsys, "playtest", command, str(SCENARIOS / "ocs-charts-demo"), "--games", "1")
    assert code == 2 and "the engine plays no whole game of ocs" in err and not out


def test_a_replay_names_the_content_of_its_own_scenario_even_when_ids_are_reused():
    """Replays carry the scenario's content hash, worked out once per scenario object. A
    comparison makes and drops scenarios in one process, and Python may give a new one a
    dropped one's id: the hash kept for that id must not be taken for the new scenario's."""
    from engine.replay import content_hash
    from playtest import study
    scenario = load_scenario(REPO / "scenarios" / "aa50-1941")
    gone = load_scenario(REPO / "scenarios" / "northern-front")
    study._HASHES[id(scenario)] = (study.weakref.ref(gone), "the hash of another scenario")
    assert study._hash_of(scenario) == content_hash(scenario)
    assert study._hash_of(scenario) is study._hash_of(scenario)
