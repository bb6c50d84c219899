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
