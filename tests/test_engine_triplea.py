"""The triplea rule family's battles: AA50's procedure on the game's dice (here twelve-sided).

Exact values are worked out by hand on a d12; the simulation must agree with the exact answer
within its statistical error; what the procedure cannot fight is refused by name.
"""
from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from engine import ATTACKER_WINS, DEFENDER_WINS, DRAW, BattlePosition, Contingent, EngineError, load_system
from engine.aa50 import rounds
from engine.calculator import parse_force
from sandtable.cli import main
from sandtable.scenario import load_scenario

D12 = Path(__file__).parent / "fixtures" / "engine" / "triplea-d12"


@pytest.fixture(scope="module")
def d12():
    return load_system(load_scenario(D12))


def position(attacker: str, *defenders: str, space: str = "field", **extra) -> BattlePosition:
    def contingent(text):
        force = parse_force(text)
        return Contingent(force.owner, force.units)
    return BattlePosition(space, (contingent(attacker),), tuple(contingent(d) for d in defenders), **extra)


def odds(system, pos):
    found = system.exact(pos)
    return tuple(float(found.probability[found.result == r].sum()) for r in (ATTACKER_WINS, DEFENDER_WINS, DRAW))


def test_the_system_rolls_the_games_dice(d12):
    assert d12.system == "triplea" and d12.dice_sides == 12 and d12.loss_unit == "PU"


def test_one_footman_against_one_footman_on_twelve_sided_dice(d12):
    # attack 3 hits 3/12 = 1/4, defense 6 hits 6/12 = 1/2; a round changes nothing with 3/4 * 1/2:
    # attacker wins 1/4*1/2 / (5/8) = 1/5, defender 3/4*1/2 / (5/8) = 3/5, both die 1/8 / (5/8) = 1/5
    assert odds(d12, position("red: 1 footman", "blue: 1 footman")) == pytest.approx(
        (float(F(1, 5)), float(F(3, 5)), float(F(1, 5))), abs=1e-12)
    assert d12.exact(position("red: 1 footman", "blue: 1 footman")).mean_rounds == pytest.approx(8 / 5)


def _chances(model, side, counts, first_round=True) -> list[tuple[int, float]]:
    groups = rounds.general_fire(model, side, counts[None, :], np.zeros(1, dtype=bool), first_round)
    return sorted((int(dice[0]), p) for _, dice, p in groups if dice[0])


def test_a_defensive_support_lifts_the_defender_only(d12):
    model = d12.model(position("red: 1 footman", "blue: 1 footman, 1 archer"))
    # the archer lifts one defending footman from 6 to 8 of 12
    assert _chances(model, model.defender, model.defender.start) == [(1, 8 / 12)]
    model = d12.model(position("blue: 1 footman, 1 archer", "red: 1 footman"))
    assert _chances(model, model.attacker, model.attacker.start) == [(1, 3 / 12)]


def test_a_support_for_some_nations_only(d12):
    red = d12.model(position("red: 2 footman, 1 knight", "blue: 1 footman"))
    # the knight lifts two of red's footmen (3 -> 4) and rolls two dice at 8
    assert _chances(red, red.attacker, red.attacker.start) == [(2, 4 / 12), (2, 8 / 12)]
    grey = d12.model(position("grey: 2 footman, 1 knight", "red: 1 footman"))
    assert _chances(grey, grey.attacker, grey.attacker.start) == [(2, 3 / 12), (2, 8 / 12)]


def test_marines_attack_higher_when_they_come_ashore(d12):
    model = d12.model(position("red: 2 marine", "blue: 1 footman", space="shore", landing={"marine": 1}))
    assert _chances(model, model.attacker, model.attacker.start) == [(1, 3 / 12), (1, 6 / 12)]


def test_an_anti_aircraft_gun_rolls_its_own_die(d12):
    model = d12.model(position("red: 3 flyer", "blue: 1 flak, 1 footman"))
    groups = rounds.anti_aircraft_fire(model, model.attacker.start[None, :])
    assert [(int(dice[0]), p) for _, dice, p in groups] == [(3, pytest.approx(2 / 6))]


def test_the_simulation_agrees_with_the_exact_answer(d12):
    battle = position("red: 3 footman, 1 knight", "blue: 2 footman, 1 archer")
    exact = odds(d12, battle)
    runs = 40_000
    batch = d12.simulate(battle, runs, np.random.default_rng(2024))
    for outcome, p in zip((ATTACKER_WINS, DEFENDER_WINS, DRAW), exact, strict=True):
        share = float(np.mean(batch.result == outcome))
        assert abs(share - p) < 4 * np.sqrt(p * (1 - p) / runs) + 1e-9
    single = [d12.resolve_battle(battle, np.random.default_rng(seed)).result for seed in range(2000)]
    assert abs(np.mean(np.array(single) == ATTACKER_WINS) - exact[0]) < 4 * np.sqrt(exact[0] * (1 - exact[0]) / 2000)


def test_the_same_seed_gives_the_same_battle(d12):
    battle = position("red: 3 footman, 1 knight", "blue: 2 footman, 1 archer")
    one = d12.resolve_battle(battle, np.random.default_rng(7))
    assert d12.resolve_battle(battle, np.random.default_rng(7)).events == one.events
    assert all("rolls" not in e or max(map(int, e.split("[")[1].split("]")[0].split(", "))) <= 12
               for e in one.events)


def test_a_unit_of_three_hit_points_is_refused_by_name(d12):
    with pytest.raises(EngineError, match="giant of red: it takes 3 hits"):
        d12.exact(position("red: 1 giant", "blue: 1 footman"))


def test_the_battle_command_fights_a_triplea_battle(capsys):
    assert main(["playtest", "battle", str(D12), "--attacker", "red: 1 footman", "--defender", "blue: 1 footman",
                 "--at", "field"]) == 0
    out = capsys.readouterr().out
    assert "attacker wins  20.00%" in out and "defender wins  60.00%" in out and "PU" in out


def test_whole_games_are_refused_by_name(d12):
    with pytest.raises(EngineError, match="whole games of the triplea rule family are not played yet"):
        d12.new_game({}, np.random.default_rng(1))
    assert d12.players() == {}
