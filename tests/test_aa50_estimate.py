"""The heuristic player's quick estimate of a battle's odds against the exact calculator."""
from __future__ import annotations

import numpy as np
import pytest

from engine.aa50 import exact
from engine.aa50.estimate import Fighter, expected_losses, win_chance
from engine.system import BattlePosition, Contingent, load_system
from sandtable.scenario import load_scenario

from helpers import REPO


@pytest.fixture(scope="module")
def aa50():
    return load_system(load_scenario(REPO / "scenarios" / "aa50-1941"))


def fighters(aa50, units: dict[str, int], attacking: bool):
    infantry, artillery = units.get("infantry", 0), units.get("artillery", 0)
    found = []
    for type_, n in units.items():
        if not n:
            continue
        p = aa50.profiles[type_]
        support = min(infantry, artillery) / infantry if attacking and type_ == "infantry" else 0
        found.append((Fighter(p.value(attacking), p.dice(attacking), 2 if p.two_hits else 1,
                              p.cost, p.is_air, support), n))
    return found


def test_the_estimate_follows_the_exact_odds(aa50):
    """On 40 random land and sea battles of up to 12 units, the estimate is within 0.05 of
    the exact chance on average, and never more than 0.25 off."""
    rng = np.random.default_rng(2026)
    errors = []
    while len(errors) < 40:
        if rng.random() < 0.7:
            space = "ukraine"
            attack = {t: int(rng.integers(0, 4)) for t in ("infantry", "artillery", "armour", "fighter")}
            defend = {t: int(rng.integers(0, 5)) for t in ("infantry", "armour", "fighter")}
            if not sum(n for t, n in attack.items() if t != "fighter"):
                continue
        else:
            space = "sz-16"
            attack = {t: int(rng.integers(0, 3)) for t in ("destroyer", "cruiser", "battleship", "fighter")}
            defend = {t: int(rng.integers(0, 3)) for t in ("destroyer", "cruiser", "carrier", "submarine")}
        if not sum(attack.values()) or not sum(defend.values()) or \
                sum(attack.values()) + sum(defend.values()) > 12:
            continue
        position = BattlePosition(space, (Contingent("germany", attack),),
                                  (Contingent("soviet-union", defend),))
        found = exact.exact(aa50.model(position), 300_000, None)
        truth = float(found.probability[found.result == 0].sum())
        guess = win_chance(fighters(aa50, attack, True), fighters(aa50, defend, False))
        errors.append(abs(guess - truth))
    assert float(np.mean(errors)) < 0.05
    assert max(errors) < 0.25


def test_an_anti_aircraft_gun_is_weighed_by_how_many_aircraft_it_downs(aa50):
    """§7.1.4: the gun fires one die at each attacking aircraft before the battle. The estimate
    averages its chance over how many it downs rather than playing the mean loss: on 40 random
    land battles with a gun and one to four aircraft it is within 0.02 of the exact chance on
    average and never 0.1 off, where the mean loss is off twice as much on the same battles.
    India in round 1 of aa50-1942 (one Japanese infantry and three fighters against three
    British infantry and the gun, the exact chance 66%) was estimated at 86% with the mean loss;
    it is 76.5% now (95% without the gun against the exact 84%: small battles still read
    optimistic)."""
    rng = np.random.default_rng(7)
    errors, mean_loss_errors = [], []
    while len(errors) < 40:
        attack = {t: int(rng.integers(0, 4)) for t in ("infantry", "artillery", "armour")}
        attack["fighter"], attack["bomber"] = int(rng.integers(1, 4)), int(rng.integers(0, 2))
        defend = {t: int(rng.integers(0, 5)) for t in ("infantry", "armour", "fighter")}
        if not attack["infantry"] + attack["artillery"] + attack["armour"] \
                or not sum(defend.values()) or sum(attack.values()) + sum(defend.values()) > 12:
            continue
        position = BattlePosition("ukraine", (Contingent("germany", attack),),
                                  (Contingent("soviet-union", {**defend, "aa-gun": 1}),))
        found = exact.exact(aa50.model(position), 300_000, None)
        truth = float(found.probability[found.result == 0].sum())
        attackers, defenders = fighters(aa50, attack, True), fighters(aa50, defend, False)
        errors.append(abs(win_chance(attackers, defenders, 1 / 6) - truth))
        thinned = [(f, n * 5 / 6 if f.air else n) for f, n in attackers]
        mean_loss_errors.append(abs(win_chance(thinned, defenders) - truth))
    assert float(np.mean(errors)) < 0.02 and max(errors) < 0.1
    assert float(np.mean(errors)) < float(np.mean(mean_loss_errors)) / 1.5
    assert max(errors) < max(mean_loss_errors) / 1.5
    india = win_chance(fighters(aa50, {"infantry": 1, "fighter": 3}, True),
                       fighters(aa50, {"infantry": 3}, False), 1 / 6)
    assert india == pytest.approx(0.765, abs=0.005)


def test_edges_and_expected_losses(aa50):
    inf = fighters(aa50, {"infantry": 4}, True)
    assert win_chance(inf, []) == 1.0 and win_chance([], inf) == 0.0
    assert win_chance(inf, fighters(aa50, {"infantry": 1}, False)) > 0.9
    assert win_chance(fighters(aa50, {"fighter": 2}, True), fighters(aa50, {"infantry": 1}, False),
                      anti_aircraft=1 / 6) < win_chance(fighters(aa50, {"fighter": 2}, True),
                                                        fighters(aa50, {"infantry": 1}, False))
    lost, killed = expected_losses(fighters(aa50, {"infantry": 6}, True),
                                   fighters(aa50, {"infantry": 1}, False))
    assert killed == pytest.approx(3.0) and 0 < lost < 3.0
