"""The battle calculator: parsing forces, exact and sampled reports, their agreement, the CLI."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import EngineError, UnknownName, calculator
from engine.calculator import BattleReport, Force, parse_force, run_battle, wilson
from sandtable.cli import main
from sandtable.scenario import load_scenario

BOARD = Path(__file__).parent / "fixtures" / "engine" / "aa50-combat"


@pytest.fixture(scope="module")
def board():
    return load_scenario(BOARD)


# -- forces ------------------------------------------------------------------------------------
def test_parse_force():
    assert parse_force("germany: 3 infantry, 2 armour, 1 fighter") == Force(
        "germany", {"infantry": 3, "armour": 2, "fighter": 1})
    assert parse_force("Soviet-Union: infantry, infantry x2") == Force(
        "soviet-union", {"infantry": 3})


@pytest.mark.parametrize("text", ["3 infantry", "germany:", "germany: three infantry", ": 1 infantry"])
def test_parse_force_refuses_what_it_cannot_read(text):
    with pytest.raises(ValueError):
        parse_force(text)


# -- exact answers -----------------------------------------------------------------------------
def test_one_infantry_against_one_exactly(board):
    # Closed form (rulebook §5.5.3): a round ends the battle with 1 - 5/6*2/3 = 4/9.
    # Attacker wins (1/6*2/3)/(4/9) = 1/4, defender (5/6*1/3)/(4/9) = 5/8, draw (1/18)/(4/9)
    # = 1/8; mean rounds 9/4; the defender loses its 3 IPC infantry with 1/4 + 1/8 = 3/8.
    report = run_battle(board, parse_force("germany: 1 infantry"),
                        parse_force("soviet-union: 1 infantry"), "karelia-ssr")
    assert report.method == "exact" and report.intervals is None and report.runs == 0
    assert (report.attacker_wins, report.defender_wins, report.draws) == pytest.approx(
        (1 / 4, 5 / 8, 1 / 8), abs=1e-12)
    assert report.mean_rounds == pytest.approx(9 / 4)
    assert report.attacker_survivors == pytest.approx({0: 3 / 4, 1: 1 / 4})
    assert report.expected_defender_loss == pytest.approx(3 * 3 / 8)
    assert report.expected_attacker_loss == pytest.approx(3 * 3 / 4)
    assert report.swing == pytest.approx(9 / 8 - 9 / 4)
    json.dumps(report.as_dict())


def test_multinational_defence_is_accepted(board):
    report = run_battle(board, parse_force("germany: 2 armour"),
                        [parse_force("soviet-union: 1 infantry"),
                         parse_force("united-kingdom: 1 infantry")], "karelia-ssr")
    alone = run_battle(board, parse_force("germany: 2 armour"),
                       parse_force("soviet-union: 2 infantry"), "karelia-ssr")
    assert report.attacker_wins == pytest.approx(alone.attacker_wins)


def test_exact_refuses_a_battle_too_large(board, monkeypatch):
    monkeypatch.setattr(calculator, "EXACT_BUDGET", 10)
    attacker, defender = parse_force("germany: 12 infantry"), parse_force("soviet-union: 12 infantry")
    with pytest.raises(EngineError, match="too large"):
        run_battle(board, attacker, defender, "karelia-ssr", exact=True)
    report = run_battle(board, attacker, defender, "karelia-ssr", runs=2000, seed=1)
    assert report.method == "monte-carlo" and report.runs == 2000


def test_unknown_names_are_reported_with_a_guess(board):
    with pytest.raises(UnknownName, match="did you mean armour"):
        run_battle(board, parse_force("germany: 1 armor"), parse_force("soviet-union: 1 infantry"),
                   "karelia-ssr")
    with pytest.raises(UnknownName, match="karelia-ssr"):
        run_battle(board, parse_force("germany: 1 armour"), parse_force("soviet-union: 1 infantry"),
                   "karelia")


# -- Monte Carlo -------------------------------------------------------------------------------
BATTLES = [
    ("karelia-ssr", "germany: 1 infantry", "soviet-union: 1 infantry"),
    ("karelia-ssr", "germany: 3 infantry, 1 artillery, 2 armour, 1 fighter",
     "soviet-union: 5 infantry, 1 aa-gun"),
    ("karelia-ssr", "germany: 6 infantry, 2 artillery, 2 armour, 1 bomber",
     "soviet-union: 7 infantry, 1 armour, 1 fighter, 1 aa-gun"),
    ("karelia-ssr", "germany: 2 armour, 2 fighter", "soviet-union: 4 infantry"),
    ("sz-5", "germany: 2 submarine, 1 destroyer, 1 cruiser, 1 fighter",
     "soviet-union: 1 battleship, 1 transport, 1 submarine"),
    ("sz-5", "germany: 3 submarine, 1 bomber", "soviet-union: 1 carrier, 2 fighter, 1 cruiser"),
    ("sz-5", "germany: 1 battleship, 2 destroyer", "soviet-union: 2 submarine, 1 cruiser, 1 transport"),
    ("sz-5", "germany: 2 fighter, 1 bomber", "soviet-union: 2 submarine, 2 transport"),
]


@pytest.mark.parametrize("space,attacker,defender", BATTLES)
def test_monte_carlo_agrees_with_the_exact_answer(board, space, attacker, defender):
    """z-test: with a fixed seed, each sampled probability lies within 4 standard errors."""
    a, d = parse_force(attacker), parse_force(defender)
    exact = run_battle(board, a, d, space, exact=True)
    runs = 40_000
    sampled = run_battle(board, a, d, space, runs=runs, seed=2024, exact=False)
    assert sampled.method == "monte-carlo"
    for key in ("attacker_wins", "defender_wins", "draws"):
        p, q = getattr(exact, key), getattr(sampled, key)
        error = math.sqrt(max(p * (1 - p), 1e-12) / runs)
        assert abs(q - p) / error < 4, (key, p, q)
        low, high = sampled.intervals[key]
        assert low <= q <= high
    loss_spread = max(exact.expected_attacker_loss, 1) * 4 / math.sqrt(runs) * 3
    assert abs(sampled.expected_attacker_loss - exact.expected_attacker_loss) < loss_spread
    assert sampled.mean_rounds == pytest.approx(exact.mean_rounds, rel=0.05, abs=0.02)


def test_same_seed_same_report_in_one_process_or_many(board):
    a, d = parse_force("germany: 4 infantry, 2 armour"), parse_force("soviet-union: 5 infantry")
    one = run_battle(board, a, d, "karelia-ssr", runs=60_000, seed=9, exact=False, processes=1)
    again = run_battle(board, a, d, "karelia-ssr", runs=60_000, seed=9, exact=False, processes=1)
    many = run_battle(board, a, d, "karelia-ssr", runs=60_000, seed=9, exact=False, processes=2)
    assert one == again == many
    other = run_battle(board, a, d, "karelia-ssr", runs=60_000, seed=10, exact=False)
    assert other != one


def test_many_processes_from_a_thread(board):
    """The editor runs the calculator in a thread: workers then come from a fork server."""
    import threading
    a, d = parse_force("germany: 2 infantry"), parse_force("soviet-union: 2 infantry")
    found = {}

    def work():
        found["report"] = run_battle(board, a, d, "karelia-ssr", runs=30_000, seed=4, exact=False,
                                     processes=2)
    thread = threading.Thread(target=work)
    thread.start()
    thread.join(timeout=120)
    alone = run_battle(board, a, d, "karelia-ssr", runs=30_000, seed=4, exact=False, processes=1)
    assert found["report"] == alone


def test_progress_is_reported(board):
    seen = []
    run_battle(board, parse_force("germany: 2 infantry"), parse_force("soviet-union: 2 infantry"),
               "karelia-ssr", runs=60_000, seed=1, exact=False,
               progress=lambda done, total: seen.append((done, total)))
    assert seen == [(25_000, 60_000), (50_000, 60_000), (60_000, 60_000)]


def test_wilson_interval():
    low, high = wilson(50, 100)
    assert (low, high) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson(0, 100)[0] == pytest.approx(0.0, abs=1e-12)


def test_report_is_a_dataclass_with_the_editor_fields():
    fields = set(BattleReport.__dataclass_fields__)
    assert {"attacker_wins", "defender_wins", "draws", "intervals", "attacker_survivors",
            "defender_survivors", "expected_attacker_loss", "expected_defender_loss",
            "mean_rounds", "method", "runs"} <= fields


# -- the command line --------------------------------------------------------------------------
def test_cli_prints_the_exact_odds(capsys):
    code = main(["playtest", "battle", str(BOARD), "--attacker", "germany: 1 infantry",
                 "--defender", "soviet-union: 1 infantry", "--at", "karelia-ssr", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["method"] == "exact"
    assert report["attacker_wins"] == pytest.approx(0.25)
    assert report["loss_unit"] == "IPC" and report["ipc_swing"] == report["swing"]


def test_cli_simulates_with_a_seed_and_a_policy(capsys):
    args = ["playtest", "battle", str(BOARD), "--attacker", "germany: 2 infantry, 1 fighter",
            "--defender", "soviet-union: 2 infantry", "--at", "karelia-ssr", "--simulate",
            "--runs", "3000", "--seed", "5", "--order-of-loss", "fighter,infantry"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "Monte Carlo, 3000 battles, seed 5" in text and "95%" in text
    assert main(args) == 0
    assert capsys.readouterr().out == text


@pytest.mark.parametrize("option,value,message", [
    ("--attacker", "germany: 1 armor", "did you mean armour"),
    ("--attacker", "germny: 1 armour", "did you mean germany"),
    ("--at", "karelia", "did you mean karelia-ssr"),
    ("--attacker", "germany: 1 tank", "did you mean armour"),          # the unit's name
    ("--defender", "soviet union: 1 infantry", "did you mean soviet-union"),
])
def test_cli_unknown_names_exit_2(capsys, option, value, message):
    args = {"--attacker": "germany: 1 armour", "--defender": "soviet-union: 1 infantry",
            "--at": "karelia-ssr"}
    args[option] = value
    argv = ["playtest", "battle", str(BOARD)] + [x for kv in args.items() for x in kv]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_research_and_raid(capsys):
    assert main(["playtest", "battle", str(BOARD), "--attacker", "germany: 1 bomber",
                 "--defender", "soviet-union: 1 factory, 1 aa-gun", "--at", "ukraine-ssr",
                 "--raid", "--research", "soviet-union: radar", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    # radar: the bomber gets through 4/6 of the time and rolls 1d6 (mean 7/2): 7/3
    assert report["expected_defender_loss"] == pytest.approx(7 / 3)


# -- properties of every answer ----------------------------------------------------------------

LAND_ATTACK = ["infantry", "artillery", "armour", "fighter", "bomber"]
LAND_DEFENCE = ["infantry", "artillery", "armour", "fighter", "aa-gun"]
SEA = ["submarine", "destroyer", "cruiser", "battleship", "carrier", "transport", "fighter"]


def _force(draw, owner, kinds, most):
    units = {k: draw(st.integers(0, 3)) for k in kinds}
    units = {k: n for k, n in units.items() if n}
    if not units or sum(units.values()) > most:
        units = {kinds[0]: 1}
    return Force(owner, units)


@st.composite
def battles(draw):
    if draw(st.booleans()):
        return ("karelia-ssr", _force(draw, "germany", LAND_ATTACK, 7),
                _force(draw, "soviet-union", LAND_DEFENCE, 7))
    return ("sz-5", _force(draw, "germany", SEA, 5), _force(draw, "soviet-union", SEA, 5))


@settings(max_examples=30, deadline=None)
@given(battles())
def test_exact_answers_are_distributions(board, battle):
    space, attacker, defender = battle
    report = run_battle(board, attacker, defender, space, exact=True)
    assert report.attacker_wins + report.defender_wins + report.draws == pytest.approx(1)
    assert sum(report.attacker_survivors.values()) == pytest.approx(1)
    assert sum(report.defender_survivors.values()) == pytest.approx(1)
    assert max(report.attacker_survivors) <= sum(attacker.units.values())
    assert report.expected_attacker_loss >= -1e-9 and report.expected_defender_loss >= -1e-9
    assert report.mean_rounds >= 0


@settings(max_examples=12, deadline=None, derandomize=True)
@given(battles())
def test_monte_carlo_agrees_with_exact_on_drawn_battles(board, battle):
    """The z-test of test_monte_carlo_agrees_with_the_exact_answer on battles drawn at random
    (derandomized, so the same battles every run)."""
    space, attacker, defender = battle
    exact = run_battle(board, attacker, defender, space, exact=True)
    runs = 20_000
    sampled = run_battle(board, attacker, defender, space, runs=runs, seed=77, exact=False)
    for key in ("attacker_wins", "defender_wins", "draws"):
        p, q = getattr(exact, key), getattr(sampled, key)
        assert abs(q - p) / math.sqrt(max(p * (1 - p), 1e-12) / runs) < 4.5, (key, p, q)


def test_cli_raid_report_speaks_of_damage(capsys):
    assert main(["playtest", "battle", str(BOARD), "--attacker", "germany: 1 bomber",
                 "--defender", "soviet-union: 1 factory, 1 aa-gun", "--at", "ukraine-ssr",
                 "--raid", "--damage", "3"]) == 0
    text = capsys.readouterr().out
    # 5/6 of the time the bomber gets through; min(d6, 3) has mean 5/2: 25/12 = 2.08 IPC
    assert "some bombers get through   83.33%" in text
    assert "expected damage           2.08 IPC" in text


# -- arguments that make no battle ---------------------------------------------------------------
@pytest.mark.parametrize("options, message", [
    ({"--attacker": "germany: 0 infantry"}, "a count is at least 1"),
    ({"--attacker": "germany: 12345678901234567890123456789012 infantry"}, "at most 1,000,000 units"),
    ({"--retreat-at": "-5"}, "retreat at -5"),
    ({"--raid": None, "--damage": "-100", "--attacker": "germany: 1 bomber",
      "--defender": "soviet-union: 1 factory", "--at": "ukraine-ssr"}, "damage -100"),
    ({"--order-of-loss": "zeppelin,,"}, "a name is missing between commas"),
    ({"--order-of-loss": "zeppelin"}, "unknown unit type 'zeppelin'"),
    ({"--landing": "5 infantry"}, "5 infantry cannot land: the attacker has 2"),
    ({"--runs": "1000000000000", "--simulate": None}, "runs must be between 1 and 1,000,000,000"),
    ({"--runs": "0", "--simulate": None}, "runs must be between 1 and 1,000,000,000"),
])
def test_cli_refuses_arguments_that_make_no_battle_with_exit_2(capsys, options, message):
    args = {"--attacker": "germany: 2 infantry", "--defender": "soviet-union: 1 infantry",
            "--at": "karelia-ssr", **options}
    argv = ["playtest", "battle", str(BOARD)]
    for option, value in args.items():
        argv += [option] if value is None else [option, value]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_thousand_dice_have_exact_odds(board):
    """comb(1030, k) is beyond any float; the odds are computed in logarithms."""
    report = run_battle(board, parse_force("germany: 1030 infantry"),
                        parse_force("soviet-union: 4 infantry"), "karelia-ssr", exact=True)
    assert report.method == "exact"
    assert report.attacker_wins == pytest.approx(1.0)


def test_a_hundred_thousand_units_switch_to_simulation_soon(board):
    """The exact method gives up after a second (EXACT_TIME) or as soon as its tables outgrow
    the budget; two sides of 100,000 once tried to allocate 75 GB. The bound is generous."""
    import time
    start = time.perf_counter()
    report = run_battle(board, parse_force("germany: 100000 infantry"),
                        parse_force("soviet-union: 100000 infantry"), "karelia-ssr",
                        runs=200, seed=1)
    assert report.method == "monte-carlo" and report.runs == 200
    assert time.perf_counter() - start < 30


def test_chunks_are_made_as_they_are_needed_with_the_seeds_spawn_gives():
    chunks = calculator._chunks(10 ** 12, 7)
    first = [next(chunks) for _ in range(3)]
    spawned = __import__("numpy").random.SeedSequence(7).spawn(3)
    assert [size for size, _ in first] == [calculator.CHUNK] * 3
    assert [c.generate_state(2).tolist() for _, c in first] == \
        [c.generate_state(2).tolist() for c in spawned]


def test_a_huge_submarine_surprise_strike_switches_to_simulation_soon(board):
    """The surprise strike's outcomes times the defender's were looped over before the budget
    was asked: 100,000 submarines against 3,000 battleships ran for minutes."""
    import time
    start = time.perf_counter()
    report = run_battle(board, parse_force("germany: 100000 submarine, 2 battleship, 30 carrier"),
                        parse_force("united-kingdom: 2 submarine, 3000 battleship"), "sz-5",
                        runs=20, seed=35)
    assert report.method == "monte-carlo"
    assert time.perf_counter() - start < 30
