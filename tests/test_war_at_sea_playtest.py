"""War at Sea whole games played by the players: the random player fuzzes the rules (no broken
invariant in 500 games, every replay identical on playback, every kind of decision taken), the
heuristic player plays sensibly (it beats the random player from either side, escapes when
outgunned, escorts its convoys)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from engine import load_system
from engine.war_at_sea.combat import Decision
from engine.war_at_sea.heuristic import WaSHeuristic
from engine.war_at_sea.ships import Ship
from playtest.study import Study, run_study
from sandtable.scenario import load_scenario

SCENARIO = Path(__file__).parent.parent / "scenarios" / "war-at-sea"
VARIANTS = {"weaker_bismarck_class": True, "hidden_allied_movement": True, "banked_uboats": True,
            "refuel_after_escape": True, "usa_closed_until_turn_4": True, "internment": True}
KINDS = {"base", "move", "withdraw", "deploy", "air", "battle", "aim", "escape", "group",
         "pursue", "press", "give-up", "deliver", "stay", "refuel", "return", "end"}


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(SCENARIO)


@pytest.fixture(scope="module")
def was(scenario):
    return load_system(scenario)


def test_random_games_keep_every_rule_and_play_back_identically(scenario):
    """500 games of two random players, half with every variant rule of §18 in play: the
    invariants hold after every action, the actions played back on a new game of the same seed
    reach the same result (both checked by `Study(check=True)`), every game ends after turn 8
    with a result of the scenario's victory conditions (§17.4), and every kind of decision is
    taken somewhere."""
    taken: Counter = Counter()
    results: Counter = Counter()
    for options, seed in (({}, 14), (VARIANTS, 15)):
        study = Study(scenario, options, {"allies": "random", "axis": "random"}, games=250,
                      seed=seed, check=True, keep_actions=True)
        for record in run_study(study, workers=2):
            assert record.error is None, record.error
            assert record.result["round"] == 8
            assert len(record.chronicle["series"]["score-track"]["axis"]) == 8
            results[record.result["reason"]] += 1
            taken.update(action[0] for _, action in record.moves)
    assert KINDS <= set(taken), KINDS - set(taken)
    assert set(results) <= {"axis-victory", "allied-victory", "draw"} and len(results) == 3


def test_heuristic_games_are_legal_and_the_same_seed_gives_the_same_game(scenario):
    study = Study(scenario, {}, {"allies": "heuristic", "axis": "heuristic"}, games=12, seed=3,
                  check=True, keep_actions=True)
    first, second = run_study(study), run_study(study)
    assert all(r.error is None for r in first)
    assert [r.moves for r in first] == [r.moves for r in second]
    hidden = Study(scenario, VARIANTS, study.players, games=6, seed=4, check=True)
    assert all(r.error is None for r in run_study(hidden))


@pytest.mark.parametrize("side, other", [("allies", "axis"), ("axis", "allies")])
def test_the_heuristic_beats_the_random_player_from_either_side(scenario, side, other):
    """Statistical: the heuristic side wins at least 16 of 20 games (it won 30 of 30 with the
    Allies and 28 of 30 with the Axis when written)."""
    study = Study(scenario, {}, {side: "heuristic", other: "random"}, games=20, seed=8)
    winners = Counter(r.result["winner"] for r in run_study(study))
    assert winners[side] >= 16, winners


def _decision(was, kind, mine, theirs, **extra):
    return Decision("axis", kind, extra.pop("options"), 1, {"axis": mine, "allies": theirs}, **extra)


def _player(was, side="axis", **options):
    return WaSHeuristic(was, side, WaSHeuristic.settings and options, np.random.default_rng(0))


def test_the_heuristic_escapes_when_outgunned_and_fights_when_not(was):
    """§11.1: Admiral Hipper alone against Hood escapes; Bismarck against Kent fights on."""
    player = WaSHeuristic(was, "axis", {}, np.random.default_rng(0))
    options = (("escape", "no"), ("escape", "yes"))

    class View:
        def other(self, side):
            return "allies" if side == "axis" else "axis"
        combat_rules = was.combat_rules

    class Request:
        def __init__(self, decision):
            self.decision, self.step = decision, "surface"
    weak = Decision("axis", "escape", options, 1, {"axis": [Ship(was.types["admiral-hipper"])],
                                                   "allies": [Ship(was.types["hood"])]})
    strong = Decision("axis", "escape", options, 1, {"axis": [Ship(was.types["bismarck"])],
                                                     "allies": [Ship(was.types["kent"])]})
    state = View()
    state.request = Request(weak)
    assert player.choose(state) == ("escape", "yes")
    state.request = Request(strong)
    assert player.choose(state) == ("escape", "no")


def test_the_heuristic_sails_a_convoy_only_with_an_escort_13_8_2(scenario, was):
    """Every convoy the heuristic Allies send to sea has anti-submarine escorts (§8.2) sailing
    into the same area in the same turn."""
    study = Study(scenario, {}, {"allies": "heuristic", "axis": "heuristic"}, games=6, seed=11,
                  keep_actions=True)
    sailed = 0
    for record in run_study(study):
        moves = [(seat, a) for seat, a in record.moves if a[0] == "move" and seat == "allies"]
        for index, (_, action) in enumerate(moves):
            if action[1].startswith("convoy#") and action[2] == "north-atlantic":
                sailed += 1
                escorts = {a[1] for _, a in moves[index + 1:index + 40] if a[2] == action[2]}
                assert sum(was.types[name].anti_submarine for name in escorts
                           if name in was.types) >= 3
    assert sailed >= 3


# -- the command line ------------------------------------------------------------------------------
def run(capsys, *argv):
    from sandtable.cli import main
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_playtest_games_reports_war_at_sea_in_its_own_terms(capsys, tmp_path):
    code, out, _ = run(capsys, "playtest", "games", str(SCENARIO), "--games", "6", "--seed", "2",
                       "--workers", "1", "--check", "--report", str(tmp_path / "report"),
                       "--option", "weaker-bismarck-class=true")
    assert code == 0
    assert out.startswith("war-at-sea: 6 games, seed 2")
    assert "weaker-bismarck-class=true" in out
    for words in ("who wins", "score-track by round", "points by round", "sea-areas by round",
                  "convoy delivered to Britain (§13)"):
        assert words in out
    assert (tmp_path / "report" / "index.html").stat().st_size > 500


def test_variant_rules_and_heuristic_settings_are_listed(capsys):
    code, out, _ = run(capsys, "playtest", "games", str(SCENARIO), "--option", "list")
    assert code == 0
    for name in ("weaker-bismarck-class", "hidden-allied-movement", "banked-uboats",
                 "refuel-after-escape", "usa-closed-until-turn-4", "internment"):
        assert f"{name}=true|false (default false)" in out
    code, out, _ = run(capsys, "playtest", "games", str(SCENARIO), "--players", "list")
    rows = [line.split()[:3] for line in out.splitlines()]
    assert code == 0 and ["judge", "strength|calculator", "strength"] in rows
    assert any(row[:2] == ["escape-below", "X"] for row in rows)


def test_a_war_at_sea_replay_plays_back_to_the_identical_end(capsys, tmp_path):
    code, _, _ = run(capsys, "playtest", "games", str(SCENARIO), "--games", "2", "--seed", "3",
                     "--players", "allies=random", "--workers", "1", "--replays", str(tmp_path),
                     "--json")
    assert code == 0
    code, out, _ = run(capsys, "playtest", "replay", str(tmp_path / "game-000001.jsonl"))
    assert code == 0 and "identical end" in out
