"""Allies vs. Axis engine: invasions and costs by the page's formulas and worked examples.

Section names are the page's headings ("Invasion power", "Defence power", "Treaty cost",
"Penalty cost", "Strategic move cost", "Ransom cost", "Invading hostile territories").
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine import ATTACKER_WINS, DEFENDER_WINS, BattlePosition, Contingent, EngineError, load_system
from engine.allies_vs_axis import AvAPosition
from engine.calculator import Force, run_battle
from sandtable.scenario import load_scenario

SCENARIO = Path(__file__).parent.parent / "scenarios" / "allies-vs-axis"
ONE_OF_EACH = {"infantry": 1, "tank": 1, "aircraft": 1, "battleship": 1}


@pytest.fixture(scope="module")
def ava():
    return load_system(load_scenario(SCENARIO))


def test_invasion_power_example(ava):
    """Invasion power: 1 infantry, 1 tank, 1 aircraft, 1 battleship = 1 + 3 + 5 + 7 = 16."""
    assert ava.formulas.invasion_power(ONE_OF_EACH) == 16
    assert ava.formulas.invasion_power({"infantry": 4, "tank": 2}) == 10


def test_defence_power_example_with_support(ava):
    """Defence power: the same army defends with 22 = 16 + (1+1+1) + (1+1) + 1 of support."""
    assert ava.formulas.defence_power(ONE_OF_EACH) == 22
    # support pairs one supporter with one stronger unit: 3 infantry, 1 tank -> 3 + 3 + 1
    assert ava.formulas.defence_power({"infantry": 3, "tank": 1}) == 7
    # a battleship supports nobody
    assert ava.formulas.defence_power({"battleship": 2}) == 14


def test_treaty_cost_examples(ava):
    """Treaty cost: Albania (10) costs $M 200 with no treaty before, $M 300 after Norway."""
    assert ava.formulas.treaty_cost(10, 0) == 200
    assert ava.formulas.treaty_cost(10, 1) == 300
    assert ava.formulas.treaty_cost(10, 3) == 500


def test_penalty_cost_example_and_rates(ava):
    """Penalty cost: defence power 300 x 30 % (Regular) = 90; Fierce Battle's rate is 50 %."""
    assert ava.formulas.penalty_cost(300) == 90
    assert ava.formulas_for("fierce-battle").penalty_cost(300) == 150
    assert ava.formulas_for("no-italy").penalty_cost(300) == 120


def test_penalty_takes_whole_units_example(ava):
    """Penalty cost: 89 infantry and 1 tank (92 power) pay a penalty of 90 with every unit,
    the tank only partly needed is lost whole, and losing every unit means jail."""
    lost, jailed = ava.formulas.penalty_losses({"infantry": 89, "tank": 1}, 90)
    assert lost == {"infantry": 89, "tank": 1} and jailed
    lost, jailed = ava.formulas.penalty_losses({"infantry": 95, "tank": 1}, 90)
    assert lost == {"infantry": 90} and not jailed


def test_landing_penalty_on_hostile_territory(ava):
    """Hostile territories: the penalty is the territory's defence power x the penalty rate."""
    penalty, lost, jailed = ava.landing_penalty({"infantry": 10}, {"infantry": 10, "tank": 10},
                                                "france")
    # defence 10 + 30 + 10 support = 50; 30 % of it is 15 power: all 10 infantry
    assert penalty == 15 and lost == {"infantry": 10} and jailed


def test_strategic_move_cost_examples(ava):
    """Strategic move cost: 1 step costs $M 1000, 2000, 3000 ...; 2 steps twice as much."""
    assert [ava.formulas.strategic_move_cost(1, used) for used in range(3)] == [1000, 2000, 3000]
    assert [ava.formulas.strategic_move_cost(2, used) for used in range(3)] == [2000, 4000, 6000]
    assert ava.formulas.strategic_move_cost(-1, 0) == ava.formulas.strategic_move_cost(1, 0)


def test_ransom_cost_examples(ava):
    """Ransom cost: $M 2000 x times jailed: 2000, 4000, 6000."""
    assert [ava.formulas.ransom_cost(n) for n in (1, 2, 3)] == [2000, 4000, 6000]


def battle(attacker: dict, defender: dict, space: str = "france", **extra) -> BattlePosition:
    return AvAPosition(space, (Contingent("axis", attacker),),
                       (Contingent("allies", defender),) if defender else (), **extra)


def test_invasion_needs_power_at_least_defence(ava):
    """Invading hostile territories: an invasion starts only when invasion power >= defence
    power, and every invading unit is lost."""
    rng = np.random.default_rng(1)
    equal = ava.resolve_battle(battle({"aircraft": 4, "infantry": 2}, {"infantry": 10, "tank": 3}), rng)
    # invasion 22; defence 10 + 9 + 3 support = 22
    assert equal.result == ATTACKER_WINS and equal.attacker_survivors == {}
    assert equal.attacker_loss == 4 * 220 + 2 * 50
    short = ava.resolve_battle(battle({"aircraft": 4, "infantry": 1}, {"infantry": 10, "tank": 3}), rng)
    assert short.result == DEFENDER_WINS and short.attacker_loss == 0


def test_battleships_need_a_seaport(ava):
    """Battleships: they take part only in territories with a seaport."""
    seaport = ava.invasion(battle({"battleship": 2}, {"infantry": 5}, space="france"))
    inland = ava.invasion(battle({"battleship": 2, "infantry": 1}, {"infantry": 5, "battleship": 1},
                                 space="poland"))
    assert not ava.has_seaport("poland")
    assert seaport.invasion_power == 14
    assert inland.invasion_power == 1 and inland.defence_power == 5


def test_neutral_territory_infantry_only(ava):
    """Neutral territories: only infantry invades, against the printed neutral defence power."""
    found = ava.invasion(battle({"infantry": 8}, {}, space="ireland"))
    assert found.neutral and found.defence_power == 8 and found.may_start
    with pytest.raises(EngineError, match="only infantry"):
        ava.invasion(battle({"tank": 3}, {}, space="ireland"))


def test_secret_territories_cannot_be_invaded(ava):
    """Invading secret territories: armies cannot invade them."""
    with pytest.raises(EngineError, match="secret"):
        ava.invasion(battle({"infantry": 50}, {"infantry": 1}, space="neutral-bank"))


def test_calculator_gives_the_certain_outcome():
    """Through the calculator the outcome is exact: probability 1 either way."""
    report = run_battle(SCENARIO, Force("axis", {"tank": 8}), Force("allies", {"infantry": 10, "tank": 3}),
                        "france", seed=3)
    assert report.method == "exact" and report.attacker_wins == 1.0
    assert report.expected_attacker_loss == 8 * 140
    report = run_battle(SCENARIO, Force("axis", {"tank": 7}), Force("allies", {"infantry": 10, "tank": 3}),
                        "france", seed=3)
    assert report.defender_wins == 1.0
