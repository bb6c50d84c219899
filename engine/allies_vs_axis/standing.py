"""How an Allies vs. Axis side stands: its chance to win from a position, without playing on.

A game is lost by being jailed too often, by losing every territory, or by losing the main
territory (the end conditions in play, "Game end"). What leads there: the jailings already
counted against the limit, the risk of the next one (a player whose armies in hand cannot pay
the largest penalty of the opponent's territories loses them all and goes to jail, "Jail"),
the armies themselves, and the territories' income, which buys armies. The log-odds that the
first side in turn order (the Allies) wins are a weighted sum of the differences between the
sides (FEATURES, each the opponent's minus the side's where it hurts, the side's over the
opponent's where it helps):

    jail     1/(limit - jailed) of the Axis minus that of the Allies (0 with no jail limit)
    risk     the Axis's jail risk minus the Allies': 1 when the armies in hand cannot pay the
             largest penalty, else that penalty over their power
    army     ln of the Allies' army power over the Axis's (in hand and defending, plus one)
    income   ln of the Allies' income over the Axis's (plus one)

The weights are a logistic regression fitted to the round starts of 1,800 heuristic games (the
four modes, sudden death and the jail limit of five, the players' settings drawn at random)
against who won: on held-out games it scores a Brier score of 0.104 where the base rate
scores 0.250. Money in hand adds nothing once income and armies are counted (its weight comes
out negative: money kept is armies not bought), nor do the territories' number or, in sudden
death, whether the main territory is open to the opponent's armies in hand: in those five-round
games no position predicts the winner better than the base rate, so there the look-ahead's own
ends (a main territory taken) decide. `python benchmarks/allies_vs_axis_players.py standing`
plays the games and fits them again.
"""
from __future__ import annotations

import math

INTERCEPT = -0.16
WEIGHTS = {"jail": 1.52, "risk": 1.93, "army": 1.79, "income": 2.60}


def _jail_pressure(game, side: str) -> float:
    limit = jail_limit(game)
    jailed = game.counters[side].get("jailed", 0)
    return 1 / (limit - jailed) if limit and jailed < limit else 0.0


def jail_limit(game) -> int | None:
    """The jailings that lose the game, from the victory conditions in play."""
    for victory in game.victories:
        counter = victory.when.get("counter") if isinstance(victory.when, dict) else None
        if isinstance(counter, dict) and counter.get("counter") == "jailed":
            return int(counter.get("min", 0)) or None
    return None


def jail_risk(game, side: str) -> float:
    """1 when the side's armies in hand cannot pay the largest penalty the opponent's
    territories charge; otherwise that penalty over their power."""
    enemy = game.opponent(side)
    largest = max((game.penalty(space) for space, owner in game.owner.items() if owner == enemy),
                  default=0)
    hand = game.formulas.invasion_power(game.reserve[side])
    return 1.0 if hand <= largest else float(largest / hand)


def features(game) -> dict[str, float]:
    """The differences between the sides the weights read, for the first side in turn order."""
    first, second = game.board.sides
    return {
        "jail": _jail_pressure(game, second) - _jail_pressure(game, first),
        "risk": jail_risk(game, second) - jail_risk(game, first),
        "army": math.log((float(game.army_power(first)) + 1) / (float(game.army_power(second)) + 1)),
        "income": math.log((game.income(first) + 1) / (game.income(second) + 1)),
    }


def chance_to_win(game, side: str) -> float:
    """`side`'s chance to win the game in progress, from its position."""
    z = INTERCEPT + sum(WEIGHTS[name] * value for name, value in features(game).items())
    chance = 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))
    return chance if side == game.board.sides[0] else 1 - chance
