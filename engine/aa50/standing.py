"""A side's chance to win, read off the position (what a search reads where it stops looking
ahead, engine/game.py `standing`).

The game is won by holding enough victory cities at the end of a round (rulebook §6); what
takes them is income and armies. The estimate is a logistic function of the side's lead:

- victory cities: the lead, and how far the side has come toward the chosen condition's count
  (the cities it still misses, against those the other side misses);
- production: the lead in IPCs collected a turn (a lost capital collects nothing, §5.5.3.8);
- army: the lead in the cost of the units on the board.

Capitals weigh through the cities and the production they hold. The weights were fitted on
1,317 positions of 120 heuristic games of aa50-1942 and aa50-1941 (each round's position
against the game's end, a round-limit draw counting half; `python benchmarks/aa50_players.py
fit-standing` refits them): 0.87, 1.05, 0.00, 0.56, log loss 0.627 against 0.693 for an even
guess. Production's fitted weight is nil (the cities and armies that bring income say it
already); a small one is kept so that a territory taken counts for something a round ahead.
Every weight is positive: more cities, income or army never lower a side's standing.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import economy

if TYPE_CHECKING:
    from .game import AA50Game

# victory-city lead, cities missing (other side's minus own, over the target), production lead,
# army lead; the lead terms are shares (-1 to 1) of the two sides' total.
WEIGHTS = (0.87, 1.05, 0.25, 0.56)


def features(game: AA50Game, side: str) -> tuple[float, ...]:
    """The position's terms for `side`, each positive where the side leads."""
    data = game.data
    cities = game.victory_city_counts()
    own_cities = cities.get(side, 0)
    other_cities = sum(n for s, n in cities.items() if s != side)
    total_cities = max(1, len(data.board.victory_cities))
    own_target, other_target = _targets(game, side)
    income = {s: 0.0 for s in data.sides}
    for nation, entry in data.nations.items():
        if entry.side in income:
            income[entry.side] += economy.production(game, nation)
    army = economy.army_values(game)
    own_income, other_income = income.get(side, 0.0), sum(v for s, v in income.items() if s != side)
    own_army, other_army = army.get(side, 0.0), sum(v for s, v in army.items() if s != side)
    missing = 0.0
    if own_target and other_target:
        missing = (max(0, other_target - other_cities) - max(0, own_target - own_cities)) \
            / max(own_target, other_target)
    return ((own_cities - other_cities) / total_cities, missing,
            _lead(own_income, other_income), _lead(own_army, other_army))


def estimate(game: AA50Game, side: str) -> float:
    """The side's chance to win; an even 0.5 where the scenario names no victory condition
    (its games end only at the round limit, undecided)."""
    if _targets(game, side) == (None, None):
        return 0.5
    score = sum(w * x for w, x in zip(WEIGHTS, features(game, side), strict=True))
    return 1.0 / (1.0 + math.exp(-score))


def _lead(own: float, other: float) -> float:
    total = own + other
    return (own - other) / total if total > 0 else 0.0


def _targets(game: AA50Game, side: str) -> tuple[int | None, int | None]:
    """The victory-city counts the chosen victory condition asks of `side` and of the other
    side (None where the scenario sets none: the game ends only at the round limit)."""
    chosen = game.options.get("victory")
    own = other = None
    for entry in game.data.victory:
        if entry.get("option") and entry["option"] != chosen:
            continue
        condition = (entry.get("when") or {}).get("victory_cities")
        if not isinstance(condition, dict) or not isinstance(condition.get("count"), int):
            continue
        if condition.get("side") == side:
            own = condition["count"]
        else:
            other = condition["count"]
    return own, other
