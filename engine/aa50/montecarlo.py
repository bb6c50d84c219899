"""Many AA50 battles at once: the procedure of rounds.py with every die drawn from one generator.

All battles advance together, a round at a time; a battle that ends leaves the working arrays,
so later rounds only touch the battles still being fought. Dice of one hit class and one chance
are drawn together as a binomial count, which is the same in law as rolling them one by one.
"""
from __future__ import annotations

import numpy as np

from ..system import DRAW, OutcomeBatch
from . import rounds
from .model import BattleModel

MAX_ROUNDS = 10_000   # only a battle nobody can win goes on this long; it ends as a draw


def roll(groups: list[rounds.FireGroup], rng: np.random.Generator) -> dict[object, np.ndarray]:
    """Hits per hit class."""
    merged: dict[tuple[object, float], np.ndarray] = {}
    for hit_class, dice, p in groups:      # dice of one class and chance are drawn together
        if p > 0:
            key = (hit_class, p)
            merged[key] = merged[key] + dice if key in merged else dice
    hits: dict[object, np.ndarray] = {}
    for (hit_class, p), dice in merged.items():
        if not dice.any():
            continue                        # no die of this group is rolled in any battle
        drawn = dice if p >= 1 else rng.binomial(dice, p)
        hits[hit_class] = hits[hit_class] + drawn if hit_class in hits else drawn
    return hits


def fight_round(model: BattleModel, attacker: np.ndarray, defender: np.ndarray,
                first_round: bool, rng: np.random.Generator):
    """The surprise and general stages of one round."""
    a_side, d_side = model.attacker, model.defender
    a_detected = model.undetected_only_first(rounds.detects(a_side, attacker), first_round)
    d_detected = model.undetected_only_first(rounds.detects(d_side, defender), first_round)
    a_groups = rounds.surprise_fire(a_side, attacker, d_detected)
    d_groups = rounds.surprise_fire(d_side, defender, a_detected)
    if a_groups or d_groups:
        a_hits, d_hits = roll(a_groups, rng), roll(d_groups, rng)
        attacker, defender = (rounds.take_hits(a_side, attacker, d_hits),
                              rounds.take_hits(d_side, defender, a_hits))
    a_hits = roll(rounds.general_fire(model, a_side, attacker, d_detected, first_round), rng)
    d_hits = roll(rounds.general_fire(model, d_side, defender, a_detected, first_round), rng)
    return rounds.take_hits(a_side, attacker, d_hits), rounds.take_hits(d_side, defender, a_hits)


def simulate(model: BattleModel, runs: int, rng: np.random.Generator) -> OutcomeBatch:
    a_side, d_side = model.attacker, model.defender
    attacker = np.repeat(a_side.start[None, :], runs, axis=0)
    defender = np.repeat(d_side.start[None, :], runs, axis=0)
    final_a, final_d = np.empty_like(attacker), np.empty_like(defender)  # every row is written
    result = np.full(runs, DRAW, dtype=np.int8)
    rounds_fought = np.full(runs, MAX_ROUNDS, dtype=np.int64)
    live = np.arange(runs)

    hits = roll(rounds.anti_aircraft_fire(model, attacker), rng)
    attacker = rounds.take_hits(a_side, attacker, hits)
    for fought in range(MAX_ROUNDS):
        first_round = fought == 0
        attacker, defender, ended_as = rounds.start_of_round(model, attacker, defender, first_round)
        ended = np.flatnonzero(ended_as != rounds.CONTINUES)
        if ended.size:
            # Row indices and take() rather than boolean masks: several times faster on 2-D arrays.
            where = live[ended]
            final_a[where], final_d[where] = attacker.take(ended, axis=0), defender.take(ended, axis=0)
            result[where] = ended_as[ended]
            rounds_fought[where] = fought  # written once, as a battle ends
            going = np.flatnonzero(ended_as == rounds.CONTINUES)
            live, attacker, defender = live[going], attacker.take(going, axis=0), defender.take(going, axis=0)
        if live.size == 0:
            break
        attacker, defender = fight_round(model, attacker, defender, first_round, rng)
    if live.size:
        final_a[live], final_d[live] = attacker, defender
    return OutcomeBatch(result, rounds_fought, rounds.survivors(a_side, final_a),
                        rounds.survivors(d_side, final_d), rounds.losses(a_side, final_a),
                        rounds.losses(d_side, final_d))
