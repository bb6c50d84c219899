"""The balance report's numbers, on records made by hand."""
from __future__ import annotations

import pytest

from engine.calculator import wilson
from playtest.report import quartiles, render_text, summarise


def record(index, winner, reason, round_, cities, incomes, captures=(), battles=(), payouts=()):
    return {"index": index, "seed": index, "seconds": 0.5, "error": None, "replay": None,
            "actions": 10,
            "result": {"winner": winner, "reason": reason, "round": round_,
                       "victory_cities": cities, "scores": {}},
            "chronicle": {"series": {"income": incomes}, "captures": list(captures),
                          "battles": list(battles), "payouts": list(payouts)}}


META = {"scenario": "test", "sides": ["axis", "allies"], "players": {"axis": "random",
        "allies": "random"}, "seed": 1, "max_rounds": 10}


def test_quartiles_interpolate_between_ranks():
    assert quartiles([1, 2, 3, 4, 5]) == (2, 3, 4)
    assert quartiles([1, 2, 3, 4]) == (1.75, 2.5, 3.25)


def test_win_rates_intervals_lengths_and_standings():
    records = [record(0, "axis", "victory-cities", 6, {"axis": 15, "allies": 3},
                      {"germany": [30, 35, 40]}),
               record(1, "axis", "victory-cities", 8, {"axis": 15, "allies": 3},
                      {"germany": [30, 20]},
                      captures=[(1, "ukraine", "soviet-union", "germany"),
                                (2, "ukraine", "germany", "soviet-union")],
                      battles=[(1, "ukraine", "germany", "soviet-union", 5, 3, "attacker")],
                      payouts=[(1, "lebensraum", "germany", 5)]),
               record(2, "allies", "victory-cities", 9, {"axis": 3, "allies": 15},
                      {"germany": [30]}),
               record(3, None, "round-limit", 10, {"axis": 9, "allies": 9}, {"germany": [31]}),
               record(4, None, "round-limit", 10, {"axis": 10, "allies": 8}, {"germany": [31]})]
    report = summarise(records, META)
    assert report["sides"]["axis"]["wins"] == 2
    assert report["sides"]["axis"]["interval"] == list(wilson(2, 5))
    assert report["round_limit"] == {"count": 2, "rate": 0.4}
    assert report["ahead_at_limit"] == {"level": 1, "axis": 1}
    assert report["length"]["median"] == 9 and report["length"]["histogram"] == {
        "6": 1, "8": 1, "9": 1, "10": 2}
    first_round = report["series"]["income"]["germany"][0]
    assert (first_round["median"], first_round["games"]) == (30, 5)
    assert report["series"]["income"]["germany"][2] == {"round": 3, "q1": 40, "median": 40,
                                                       "q3": 40, "games": 1}
    assert report["captures"]["ukraine"]["per_game"] == pytest.approx(2 / 5)
    assert report["battles"]["per_game"] == pytest.approx(1 / 5)
    assert report["battles"]["mean_size"] == 8
    assert report["payouts"]["lebensraum"] == {"owner": "germany", "per_game": 0.2,
                                                "amount_per_game": 1.0}
    text = render_text(report, {"axis": "Axis", "allies": "Allies"})
    assert "verdict: no side is significantly favoured (Axis wins 66.7% of decided games" in text
    assert "ahead when stopped: level 1, Axis 1" in text


def test_the_verdict_reads_the_standings_when_most_games_reach_the_limit():
    records = [record(i, None, "round-limit", 10, {"axis": 12, "allies": 6}, {}) for i in range(30)]
    records.append(record(30, "allies", "victory-cities", 9, {"axis": 3, "allies": 15}, {}))
    text = render_text(summarise(records, META), {"axis": "Axis", "allies": "Allies"})
    assert ("verdict: Axis is favoured: it leads in 100.0% of the games stopped at the "
            "round limit with a side ahead") in text
    assert "the 1 decided game went 0 to Axis, 1 to Allies" in text


def test_failed_games_are_listed_with_their_replays():
    records = [record(0, "axis", "victory-cities", 6, {}, {}),
               {**record(1, None, "x", 1, {}, {}), "result": None,
                "error": "EngineError: broken invariant\nTraceback", "replay": "/tmp/g1.jsonl"}]
    report = summarise(records, META)
    assert report["failed"] == 1 and report["finished"] == 1
    assert report["errors"] == [{"game": 1, "seed": 1, "error": "EngineError: broken invariant\n"
                                 "Traceback", "replay": "/tmp/g1.jsonl"}]
    assert "game 1: EngineError: broken invariant\n    replay: /tmp/g1.jsonl" in render_text(report)


def test_the_verdict_is_split_when_standings_and_decided_games_disagree():
    """Leads at the round limit favour one side and the decided games the other, each
    significantly: the verdict says so rather than crowning either."""
    records = [record(i, None, "round-limit", 10, {"axis": 12, "allies": 6}, {}) for i in range(20)]
    records += [record(20 + i, "allies", "victory-cities", 9, {"axis": 3, "allies": 15}, {})
                for i in range(12)]
    text = render_text(summarise(records, META), {"axis": "Axis", "allies": "Allies"})
    assert ("verdict: split: Axis leads in 20 of the 20 games stopped at the round limit with a "
            "side ahead, but Allies wins 12 of the 12 decided games; longer games (--max-rounds) "
            "would settle it") in text


def test_who_first_took_a_space_how_many_games_each_round_stands_on_and_length_by_winner():
    """A capture's "by" is the first taker, not the space's usual holder; the
    medians by round say how many games are still running; game length is split by winner."""
    records = [record(0, "axis", "victory-cities", 2, {}, {"germany": [30, 35]},
                      captures=[(1, "ukraine", "soviet-union", "germany"),
                                (2, "ukraine", "germany", "soviet-union"),
                                (2, "ukraine", "germany", "soviet-union")]),
               record(1, "allies", "victory-cities", 4, {}, {"germany": [30, 20, 10, 5]},
                      captures=[(3, "ukraine", "soviet-union", "germany")]),
               record(2, "allies", "victory-cities", 6, {}, {"germany": [31, 1, 1, 1, 1, 1]})]
    report = summarise(records, META)
    ukraine = report["captures"]["ukraine"]
    assert ukraine["taken_by"] == {"soviet-union": 2, "germany": 2}
    assert ukraine["first_taken_by"] == {"germany": 2} and ukraine["games"] == 2
    assert {k: v["median"] for k, v in report["length_by_winner"].items()} == {"axis": 2, "allies": 5}
    text = render_text(report)
    assert "first taken in round 2 (median), by germany in 2 of 2 games" in text
    assert "games running        3     3     2     2     1     1" in text
    assert "median by winner: axis 2, allies 5" in text


def test_columns_by_round_widen_for_long_figures():
    """An army of 1266 beside one of 1366.5 read as "12661366.5" in six-character columns: every
    column takes the widest figure, plus a space."""
    records = [record(i, None, "round-limit", 2, {}, {"germany": [1266 + 201 * i, 1366 + 201 * i]})
               for i in range(2)]
    text = render_text(summarise(records, META))
    assert "  round                 1      2\n  germany          1366.5 1466.5\n" in text


def test_blunders_are_counted_per_side_and_game():
    blunders = [[1, "lost-unfought", "axis", 3], [1, "unspent", "allies", 0],
                [2, "unspent", "allies", 20], [2, "lost-unfought", "axis", 1]]
    records = [record(0, "axis", "victory-cities", 2, {}, {}),
               record(1, "allies", "victory-cities", 2, {}, {})]
    records[0]["chronicle"]["blunders"] = blunders
    report = summarise(records, META)
    assert report["blunders"]["lost-unfought"] == {"axis": {"per_game": 2.0, "games": 0.5},
                                                   "allies": {"per_game": 0.0, "games": 0.0}}
    assert report["blunders"]["unspent"]["allies"] == {"per_game": 10.0, "games": 0.5}
    assert "capital-empty" not in report["blunders"]
    text = render_text(report)
    assert "how the players played" in text
    assert "  units lost unable to strike back                2.0        0.0\n" in text
    assert "  money left that could still buy a unit          0.0       10.0" in text


def test_a_verdict_that_depends_on_the_players_is_no_balance_claim():
    records = [record(i, "axis", "victory-cities", 5, {}, {}) for i in range(20)]
    report = summarise(records, META)
    report["robust"] = {"result": "depends", "summary": "the verdict depends on the players: "
                        "axis is favoured with random players, allies with stronger ones (30 games)"}
    text = render_text(report)
    assert "is favoured: it wins" not in text
    assert "verdict: depends on the players, not a balance claim: axis is favoured" in text
    assert text.splitlines()[2].startswith("robust check: the verdict depends on the players")


def test_payouts_are_read_under_the_side_paid_most_first_with_its_total_and_whole_names():
    long_name = "Allies hold Singapore at the end of a turn (§15.0(1)①)"
    records = [record(0, "allies", "victory-points", 8, {}, {},
                      payouts=[(1, "japan-area-malay", "japan", 1), (2, "units", "allies", 1),
                               (2, "units", "allies", 0.5), (3, "fortress", "allies", 1)]),
               record(1, "allies", "victory-points", 8, {}, {},
                      payouts=[(1, "fortress", "allies", 1), (4, "fortress", "allies", 1)])]
    report = summarise(records, {**META, "sides": ["japan", "allies"]})
    text = render_text(report, {"japan": "Japan", "allies": "Allies", "fortress": long_name})
    lines = text.splitlines()
    start = lines.index("bonuses paid (per game)")
    width = len(long_name) + 2
    assert lines[start + 1:start + 6] == [
        "  Japan: 0.5 in all",
        f"    {'japan-area-malay':<{width}}  0.50 times,    0.5",
        "  Allies: 2.2 in all",
        f"    {long_name:<{width}}  1.50 times,    1.5",
        f"    {'units':<{width}}  1.00 times,    0.8"]
