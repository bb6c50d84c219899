"""What a rules audit of the AA50 battle calculator asked for: the 1942 British objective,
positions the rules forbid, one attacker, and the two readings of the submarines' surprise
strike."""
from __future__ import annotations

import pytest

from engine.aa50.position import AA50Position
from engine.system import Contingent, EngineError, load_system
from sandtable.cli import main
from sandtable.scenario import load_scenario
from validators.conditions import Position, evaluate
from validators.index import build_index

from helpers import REPO

SCENARIOS = REPO / "scenarios"


@pytest.fixture(scope="module")
def aa50():
    return load_system(load_scenario(SCENARIOS / "aa50-1941"))


def objective(scenario, oid):
    return next(o for _, o in scenario.entities("objectives", "objectives") if o["id"] == oid)


def test_the_1942_british_objective_counts_japan_territories_of_the_1941_opening():
    """§5.8.1.5 and note 6 (§2.2): 'when the game started' is the 1941 opening."""
    s41 = load_scenario(SCENARIOS / "aa50-1941")
    s42 = load_scenario(SCENARIOS / "aa50-1942")
    spaces = objective(s42, "united-kingdom-japanese-territory")["when"]["controls"]["spaces"]
    assert spaces == objective(s41, "united-kingdom-japanese-territory")["when"]["controls"]["spaces"]
    assert not {"borneo", "east-indies", "kwangtung", "new-guinea", "solomon-islands",
                "philippine-islands", "wake-island"} & set(spaces)
    position = Position.starting(s42, build_index(s42))
    position.control["borneo"] = "united-kingdom"            # a British colony retaken
    assert not evaluate(objective(s42, "united-kingdom-japanese-territory")["when"], position).met
    position.control["formosa"] = "united-kingdom"
    assert evaluate(objective(s42, "united-kingdom-japanese-territory")["when"], position).met


@pytest.mark.parametrize("attackers, defenders, space, message", [
    (["germany: 1 infantry"], ["italy: 1 infantry"], "balkans", "cannot attack its own side"),
    (["germany: 1 infantry"], ["soviet-union: 1 infantry", "japan: 1 infantry"], "ukraine",
     "the defenders belong to two sides"),
    (["germany: 1 infantry"], ["soviet-union: 1 infantry"], "turkey", "turkey is neutral"),
    (["china: 1 infantry"], ["japan: 1 infantry"], "burma", "Chinese units fight only in China"),
    (["japan: 1 infantry"], ["china: 1 infantry"], "india", "Chinese units fight only in China"),
    (["germany: 1 infantry", "italy: 1 armour"], ["soviet-union: 1 infantry"], "ukraine",
     "only one nation attacks in a battle"),
])
def test_positions_the_rules_forbid_exit_2_with_the_reason(capsys, attackers, defenders, space,
                                                           message):
    argv = ["playtest", "battle", str(SCENARIOS / "aa50-1941"), "--at", space]
    for force in attackers:
        argv += ["--attacker", force]
    for force in defenders:
        argv += ["--defender", force]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_landings_need_a_coast(aa50):
    """§5.5.2: an amphibious assault comes from the sea."""
    position = AA50Position("russia", (Contingent("germany", {"infantry": 2}),),
                            (Contingent("soviet-union", {"infantry": 1}),), landing={"infantry": 2})
    with pytest.raises(EngineError, match="russia has no coast"):
        aa50.model(position)


def test_an_attacker_given_twice_is_added_up(capsys):
    argv = ["playtest", "battle", str(SCENARIOS / "aa50-1941"), "--at", "ukraine", "--json",
            "--attacker", "germany: 2 infantry", "--attacker", "germany: 1 armour",
            "--defender", "soviet-union: 2 infantry"]
    assert main(argv) == 0
    once = ["playtest", "battle", str(SCENARIOS / "aa50-1941"), "--at", "ukraine", "--json",
            "--attacker", "germany: 2 infantry, 1 armour", "--defender", "soviet-union: 2 infantry"]
    first = capsys.readouterr().out
    assert main(once) == 0
    assert capsys.readouterr().out == first


def test_the_two_readings_of_the_surprise_strike(aa50):
    """§7.3.5: 'this special attack happens only once in a battle' (first-round) against the
    strike before step ii in every round (every-round, the default). Without destroyers a
    submarine fighting a battleship strikes first each round, or only in the first."""
    def odds(reading):
        position = AA50Position("sz-7", (Contingent("germany", {"submarine": 2}),),
                                (Contingent("united-kingdom", {"battleship": 1}),),
                                surprise_strike=reading)
        found = aa50.exact(position)
        return float(found.probability[found.result == 0].sum())
    every, once = odds("every-round"), odds("first-round")
    assert every > once + 0.02
    import numpy as np

    from engine.aa50 import montecarlo
    position = AA50Position("sz-7", (Contingent("germany", {"submarine": 2}),),
                            (Contingent("united-kingdom", {"battleship": 1}),),
                            surprise_strike="first-round")
    batch = montecarlo.simulate(aa50.model(position), 40_000, np.random.default_rng(3))
    sampled = float((batch.result == 0).mean())
    assert abs(sampled - once) < 4 * (once * (1 - once) / 40_000) ** 0.5


def test_the_reading_is_a_setting_of_battles_and_games(capsys, aa50):
    assert main(["playtest", "battle", str(SCENARIOS / "aa50-1941"), "--at", "sz-7",
                 "--attacker", "germany: 1 submarine", "--defender", "united-kingdom: 1 destroyer",
                 "--option", "list"]) == 0
    assert "surprise-strike=every-round|first-round (default every-round)" in capsys.readouterr().out
    assert {s.name: s.default for s in aa50.game_settings()}["surprise-strike"] == "every-round"
