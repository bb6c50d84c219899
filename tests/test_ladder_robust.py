"""The strength ladder (playtest/ladder.py) and the robust check of a verdict
(playtest/robust.py): their statistics on data of known truth, and both on the command line."""
from __future__ import annotations

import json
import math
from statistics import NormalDist

import numpy as np
import pytest

from playtest.ladder import ELO, fit_ratings, game_score
from playtest.report import _verdict, summarise
from playtest.robust import (
    FUTILE,
    Counted,
    Tally,
    chance_to_settle,
    check_robust,
    count_games,
    lean,
    log_beta_binomial,
    shift_counts,
)
from sandtable.cli import main

from helpers import REPO

SCENARIOS = REPO / "scenarios"
SIDES = ["allies", "axis"]


def results(first: int, second: int, neither: int = 0) -> list[dict]:
    return ([{"winner": "allies", "reason": "x", "round": 3}] * first
            + [{"winner": "axis", "reason": "x", "round": 3}] * second
            + [{"winner": None, "reason": "draw", "round": 3}] * neither)


# -- the ladder ----------------------------------------------------------------------------------
def test_ratings_recover_the_strengths_that_made_the_games():
    """Games drawn from known ratings and a known seat advantage: the fit finds them, and its 95%
    intervals hold the truth in about 95% of 300 ladders."""
    truth = {"random": 0.0, "heuristic": 250.0, "search": 400.0}
    seat = 80.0
    rng = np.random.default_rng(7)
    covered, estimates = 0, []
    for _ in range(300):
        rows = []
        for first in truth:
            for second in truth:
                p = 1 / (1 + math.exp(-(truth[first] - truth[second] + seat) / ELO))
                rows.append((first, second, float(rng.binomial(400, p)), 400))
        ratings, advantage = fit_ratings(rows, list(truth))
        low, high = ratings["heuristic"]["interval"]
        covered += low < truth["heuristic"] < high
        estimates.append((ratings["heuristic"]["rating"], ratings["search"]["rating"],
                          advantage["rating"]))
    mean = np.mean(estimates, axis=0)
    assert abs(mean[0] - 250) < 8 and abs(mean[1] - 400) < 8 and abs(mean[2] - seat) < 8
    assert 0.92 <= covered / 300 <= 0.98


def test_a_player_that_wins_everything_keeps_a_finite_rating():
    rows = [("random", "random", 5.0, 10), ("random", "search", 0.0, 10),
            ("search", "random", 10.0, 10), ("search", "search", 5.0, 10)]
    ratings, _ = fit_ratings(rows, ["random", "search"])
    assert 200 < ratings["search"]["rating"] < 2000
    assert ratings["search"]["score"] == 20 and ratings["search"]["games"] == 20


def test_a_game_counts_for_the_winner_or_the_side_ahead_at_the_limit_else_half():
    assert game_score({"winner": "allies"}, SIDES) == 1.0
    assert game_score({"winner": "axis"}, SIDES) == 0.0
    stopped = {"winner": None, "reason": "round-limit", "victory_cities": {"allies": 9, "axis": 12}}
    assert game_score(stopped, SIDES) == 0.0
    assert game_score(dict(stopped, victory_cities={"allies": 9, "axis": 9}), SIDES) == 0.5


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_ladder_rates_the_heuristic_above_random_play(capsys):
    code, out, err = run(capsys, "playtest", "ladder", str(SCENARIOS / "war-at-sea"),
                         "--players", "random,heuristic", "--games", "12", "--workers", "1",
                         "--json")
    assert code == 0, err
    ladder = json.loads(out)
    assert ladder["format"] == "sandtable-ladder" and len(ladder["pairings"]) == 4
    assert all(row["games"] == 12 for row in ladder["pairings"])
    assert ladder["players"]["heuristic"]["rating"] > ladder["players"]["random"]["rating"] + 200
    code, out, _ = run(capsys, "playtest", "ladder", str(SCENARIOS / "war-at-sea"),
                       "--players", "random,heuristic", "--games", "4", "--workers", "1")
    assert code == 0 and "seat is worth" in out and "heuristic" in out


@pytest.mark.parametrize("players", ["random", "random,random", "random,nobody"])
def test_the_ladder_refuses_a_wrong_list_of_players(capsys, players):
    code, _, err = run(capsys, "playtest", "ladder", str(SCENARIOS / "war-at-sea"),
                       "--players", players)
    assert code == 2 and "--players" in err


# -- the robust check ----------------------------------------------------------------------------
def play_with(first_share: float, seed: int = 3):
    rng = np.random.default_rng(seed)

    def play(look: int, games: int) -> Counted:
        wins = int(rng.binomial(games, first_share))
        return Counted(wins, games - wins, 0)
    return play


def fair(look: int, games: int) -> Counted:
    return count_games(results(games // 2, games - games // 2), SIDES)


def test_a_verdict_the_stronger_players_reach_too_holds_after_few_games():
    check = check_robust(Counted(80, 20, 0), play_with(0.95), SIDES, max_games=100, batch=10)
    assert check["result"] == "holds" and check["verdict"] == 1 and check["games"] <= 30


def test_a_verdict_the_stronger_players_reverse_depends_on_the_players():
    check = check_robust(Counted(80, 20, 0), play_with(0.1), SIDES, max_games=100, batch=10)
    assert check["result"] == "depends" and check["found"] == -1 and check["games"] < 100


def test_no_side_favoured_by_either_strength_holds_once_more_games_would_not_change_it():
    """Games split evenly: after two batches, the 40 games left could make a side significantly
    favoured with a chance under FUTILE, so the check stops there instead of playing them."""
    check = check_robust(Counted(50, 50, 0), fair, SIDES, max_games=60, batch=10)
    assert check["result"] == "holds" and check["games"] == 20 and check["looks"] == 2
    assert check["stopped_early"] and check["chance_to_settle"] < FUTILE


def test_an_unclear_answer_is_not_settled_and_stops_when_more_games_would_not_settle_it():
    check = check_robust(Counted(80, 20, 0), fair, SIDES, max_games=100, batch=10)
    assert check["result"] == "unsettled" and check["games"] == 30 and check["stopped_early"]
    assert check["chance_to_settle"] < FUTILE
    whole = check_robust(Counted(80, 20, 0), fair, SIDES, max_games=20, batch=10)
    assert whole["result"] == "unsettled" and whole["games"] == 20 and not whole["stopped_early"]


def test_stopping_for_futility_saves_games_and_keeps_most_of_the_power():
    """300 checks a true share: balanced scenarios stop after well under half the games
    allowed, while a real shift to 75% is still found nearly every time."""
    balanced = [check_robust(Counted(50, 50, 0), play_with(0.5, seed), SIDES, 100, 10)
                for seed in range(300)]
    assert np.mean([c["games"] for c in balanced]) < 50
    shifted = [check_robust(Counted(50, 50, 0), play_with(0.75, seed), SIDES, 100, 10)
               for seed in range(300)]
    assert sum(c["result"] == "depends" for c in shifted) / 300 > 0.95


def test_the_chance_to_settle_is_the_beta_binomial_prediction():
    stats = pytest.importorskip("scipy.stats")
    for first, second, more in [(7, 3, 12), (0, 0, 5), (30, 12, 40)]:
        for k in range(more + 1):
            assert math.exp(log_beta_binomial(k, more, first + 1, second + 1)) == \
                pytest.approx(stats.betabinom.pmf(k, more, first + 1, second + 1), rel=1e-9)
    z = NormalDist().inv_cdf(1 - 0.05 / 20)
    assert chance_to_settle(Counted(10, 10, 0), 0, z, 0.5) == 0.0
    assert chance_to_settle(Counted(19, 1, 0), 80, z, 0.5) > 0.99


def test_looking_after_every_batch_keeps_false_alarms_under_five_percent():
    """A balanced scenario whose verdict favours no side: with fair games at every look, the
    check must rarely call it dependent on the players (the sequential level, 5%)."""
    alarms = sum(check_robust(Counted(50, 50, 0), play_with(0.5, seed), SIDES, 100, 10)["result"]
                 == "depends" for seed in range(400))
    assert alarms / 400 < 0.05


def test_a_fair_value_is_checked_against_its_target_share():
    """`playtest balance --robust`: the side should win the target share at the fair value."""
    at_target = check_robust(Counted(0, 0, 0), play_with(0.3), SIDES, 60, 10, target=0.3, verdict=0)
    assert at_target["result"] == "holds" and at_target["target"] == 0.3
    off = check_robust(Counted(0, 0, 0), play_with(0.8), SIDES, 60, 10, target=0.3, verdict=0)
    assert off["result"] == "depends" and off["found"] == 1


def test_a_variant_s_shift_is_counted_game_by_game():
    old, new = "0011A-1", "1010AA0"
    assert shift_counts(old, new, 0) == Counted(3, 1, 3)
    assert shift_counts(old, new, 1) == Counted(1, 2, 4)


def stopped_with(allies: int, axis: int) -> dict:
    return {"winner": None, "reason": "round-limit", "round": 15,
            "victory_cities": {"allies": allies, "axis": axis}}


def test_games_count_for_the_winner_or_the_side_ahead_at_the_limit():
    tally = count_games(results(2, 1, 3) + [stopped_with(9, 12), stopped_with(10, 10)], SIDES)
    assert tally == Tally(wins=(2, 1), ahead=(0, 1), stopped=2, others=3)
    assert (tally.first, tally.second, tally.neither, tally.games) == (2, 2, 4, 8)
    with pytest.raises(ValueError, match="against each other"):
        tally.lean(target=0.6)               # a balance verdict has no other target
    assert lean(Counted(30, 5, 0)) == 1 and lean(Counted(5, 30, 0)) == -1
    assert lean(Counted(10, 10, 5)) == 0 and lean(Counted(0, 0, 9)) == 0


def printed_lean(games: list[dict]) -> int:
    """+1, -1 or 0 as the report's verdict line reads for these game results."""
    records = [{"index": i, "seed": i, "seconds": 0.0, "chronicle": {},
                "result": dict(r, round=15)}
               for i, r in enumerate(games)]
    line = _verdict(summarise(records, {"sides": SIDES}), {})
    return 1 if "allies is favoured" in line else -1 if "axis is favoured" in line else 0


def test_the_robust_check_starts_from_the_verdict_the_report_prints():
    """Decided games 14 to 6 for the Allies (not significant) and 19 stopped at the limit, 17 of
    them with the Allies ahead: the report reads the decided games and favours no side, so the
    check must not test "the Allies are favoured" (wins and leads pooled would say so)."""
    games = results(14, 6) + [stopped_with(12, 9)] * 17 + [stopped_with(9, 12)] * 2
    assert printed_lean(games) == 0 and count_games(games, SIDES).lean() == 0
    assert lean(Counted(14 + 17, 6 + 2, 0)) == 1            # the pooled reading it replaced
    check = check_robust(count_games(games, SIDES), fair, SIDES, max_games=20, batch=10)
    assert check["verdict"] == 0 and check["result"] == "holds"


def test_the_robust_reading_agrees_with_the_printed_verdict_on_random_studies():
    rng = np.random.default_rng(29)
    for _ in range(300):
        won, lost, led, trailed, level = (int(n) for n in rng.integers(0, 25, size=5))
        games = (results(won, lost) + [stopped_with(12, 9)] * led
                 + [stopped_with(9, 12)] * trailed + [stopped_with(10, 10)] * level)
        if games:
            assert count_games(games, SIDES).lean() == printed_lean(games), \
                (won, lost, led, trailed, level)


def test_robust_games_on_the_command_line(capsys):
    code, out, err = run(capsys, "playtest", "games", str(SCENARIOS / "war-at-sea"), "--games", "20",
                         "--players", "random", "--robust", "--workers", "1", "--json")
    assert code == 0, err
    report = json.loads(out)
    robust = report["robust"]
    assert robust["players"] == {"allies": "heuristic", "axis": "heuristic"}
    assert robust["result"] in ("holds", "depends", "unsettled")
    assert 10 <= robust["games"] <= 20 and robust["summary"]
    code, out, _ = run(capsys, "playtest", "games", str(SCENARIOS / "war-at-sea"), "--games", "20",
                       "--players", "random", "--robust", "--workers", "1")
    assert out.splitlines()[1] == "players: Allies random, Axis random"
    assert out.splitlines()[2].startswith("robust check: ")


# -- compare and balance, robust -------------------------------------------------------------------
DUEL = REPO / "tests" / "fixtures" / "balance" / "duel"
REINFORCED = REPO / "tests" / "fixtures" / "balance" / "duel-reinforced"
ONE_ROUND = ["--max-rounds", "1", "--workers", "1"]


def test_a_variant_s_shift_is_checked_with_stronger_players(capsys):
    """duel-reinforced gives the Soviet fleet two more cruisers: with random players and with
    heuristic ones alike the Allies gain, game by game (the duel is one forced battle)."""
    code, out, err = run(capsys, "playtest", "compare", str(REINFORCED), "--games", "60",
                         "--players", "random", "--robust", "--robust-games", "40",
                         "--ablation", "none", *ONE_ROUND, "--json")
    assert code == 0, err
    robust = json.loads(out)["robust"]
    assert robust["players"] == {"axis": "heuristic", "allies": "heuristic"}
    assert robust["verdict"] == -1 and robust["result"] == "holds" and robust["games"] <= 40
    assert robust["summary"].startswith("the shift holds with stronger players: axis loses again")


def test_a_fair_value_is_checked_with_stronger_players(capsys):
    code, out, err = run(capsys, "playtest", "balance", str(DUEL), "--knob",
                         "/setup/spaces/2/units/0/count", "--range", "1:8", "--games", "200",
                         "--players", "random", "--robust", "--robust-games", "40", *ONE_ROUND,
                         "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["found"] and answer["robust"]["result"] == "holds"
    assert answer["robust"]["games"] == 40 and answer["robust"]["target"] == 0.5
