"""A strength ladder: how strong each player is, measured by playing them against each other.

Every player meets every player (itself too) from both sides, the same games (the same seeds)
for every pairing. Games are asymmetric, so a player's strength is not its share of wins: the
ratings come from a Bradley-Terry model with a side advantage, the chance that the player on
the first side wins being

    1 / (1 + exp(-(r_first - r_second + h)))

fitted by Firth's bias-reduced logistic regression (playtest/stats.py; a player that wins every
game keeps a finite rating). A game counts 1 for the first side's player when that side wins
(or leads at the round limit), 0 when the other does, and a half when neither does. Ratings are
shown on the Elo scale (400 / ln 10 points per unit of the logit), the first player listed at 0,
with 95% intervals from the fit's covariance; h is shown as what the first side's seat is worth.

The mirror pairings (a player against itself) are what "the same seat against the same
opponent" compares with: a side's share of decided games with `search` against `heuristic`,
beside its share with `heuristic` against `heuristic`.
"""
from __future__ import annotations

import math
from itertools import product

import numpy as np

from engine.calculator import wilson

from .report import _pct, leader_at_limit
from .stats import Z95, fit_firth

ELO = 400 / math.log(10)
FORMAT_VERSION = 1


def pairings(players: list[str]) -> list[tuple[str, str]]:
    """(first side's player, second side's player), every player against every player."""
    return list(product(players, players))


def game_score(result: dict, sides: list[str]) -> float:
    """1 for the first side, 0 for the second, a half for neither (a draw, or level or no side
    ahead at the round limit)."""
    winner = result.get("winner") or leader_at_limit(result)
    return 1.0 if winner == sides[0] else 0.0 if winner == sides[1] else 0.5


def summarise_ladder(results: dict[tuple[str, str], list[dict]], players: list[str],
                     sides: list[str], meta: dict) -> dict:
    """The ladder's report from each pairing's game results."""
    rows, table = [], []
    for (first, second), found in results.items():
        scores = [game_score(r, sides) for r in found]
        decided = [r for r in found if r.get("winner") in sides]
        first_wins = sum(1 for r in decided if r["winner"] == sides[0])
        table.append({"first": first, "second": second, "games": len(found),
                      "score": sum(scores), "decided": len(decided), "first_wins": first_wins,
                      "first_share_of_decided": first_wins / len(decided) if decided else None,
                      "interval": list(wilson(first_wins, len(decided))) if decided else None})
        rows.append((first, second, sum(scores), len(found)))
    ratings, advantage = fit_ratings(rows, players)
    return {"format": "sandtable-ladder", "version": FORMAT_VERSION, "meta": meta,
            "sides": sides, "players": ratings, "first_side_advantage": advantage,
            "pairings": table}


def fit_ratings(rows: list[tuple[str, str, float, int]], players: list[str]) -> tuple[dict, dict]:
    """Elo-scale ratings with 95% intervals (the first player at 0), and the first side's
    advantage, from (first, second, score of the first, games) rows."""
    columns = players[1:]
    design, wins, trials = [], [], []
    for first, second, score, games in rows:
        x = np.zeros(len(columns) + 1)
        if first in columns:
            x[columns.index(first)] += 1
        if second in columns:
            x[columns.index(second)] -= 1
        x[-1] = 1.0                                 # the first side's seat
        design.append(x)
        wins.append(score)
        trials.append(games)
    beta, covariance = fit_firth(np.array(design), wins, trials)
    errors = np.sqrt(np.clip(np.diag(covariance), 0, None))
    ratings = {players[0]: {"rating": 0.0, "interval": [0.0, 0.0], "anchor": True}}
    for i, player in enumerate(columns):
        ratings[player] = {"rating": ELO * beta[i],
                           "interval": [ELO * (beta[i] - Z95 * errors[i]),
                                        ELO * (beta[i] + Z95 * errors[i])]}
    for player in players:
        mine = [(s if f == player else g - s, g) for f, sec, s, g in rows
                if player in (f, sec) and f != sec]
        ratings[player]["score"] = sum(s for s, _ in mine)
        ratings[player]["games"] = sum(g for _, g in mine)
    advantage = {"rating": ELO * beta[-1], "interval": [ELO * (beta[-1] - Z95 * errors[-1]),
                                                         ELO * (beta[-1] + Z95 * errors[-1])]}
    return ratings, advantage


def render_ladder_text(ladder: dict, names: dict[str, str] | None = None) -> str:
    names = names or {}
    meta, sides = ladder["meta"], ladder["sides"]
    first, second = (names.get(s, s) for s in sides)
    lines = [f"{meta.get('scenario', '?')}: strength ladder, {meta.get('games')} games a pairing, "
             f"seed {meta.get('seed')}", "",
             f"{'player':<14}{'rating':>8}   95% interval      score (games against others)"]
    for player, found in sorted(ladder["players"].items(), key=lambda kv: -kv[1]["rating"]):
        low, high = found["interval"]
        shown = "(anchor)" if found.get("anchor") else f"{low:+7.0f} to {high:+5.0f}"
        score = f"{found['score']:g} of {found['games']}" if found["games"] else "-"
        lines.append(f"{player:<14}{found['rating']:+8.0f}   {shown:<18}{score}")
    adv = ladder["first_side_advantage"]
    lines += ["", f"{possessive(first)} seat is worth {adv['rating']:+.0f} Elo "
              f"(95% {adv['interval'][0]:+.0f} to {adv['interval'][1]:+.0f}) against {possessive(second)}",
              "", f"{possessive(first)} share of decided games: {possessive(first)} player down, "
              f"{possessive(second)} across",
              f"  {'':<22}" + "".join(f"{p:>18}" for p in _players(ladder))]
    by_pair = {(row["first"], row["second"]): row for row in ladder["pairings"]}
    for one in _players(ladder):
        cells = []
        for other in _players(ladder):
            row = by_pair.get((one, other))
            if not row or row["first_share_of_decided"] is None:
                cells.append(f"{'-':>18}")
                continue
            cells.append(f"{_pct(row['first_share_of_decided']).strip():>8} of {row['decided']:<3}"
                         f"{'':>4}")
        lines.append(f"  {one:<22}" + "".join(cells))
    lines += ["", "Read a column for a fixed second-side player: going down it, the first side's "
              "player gets stronger in the same seat against the same opponent."]
    return "\n".join(lines)


def render_ladder_markdown(ladder: dict, names: dict[str, str] | None = None) -> str:
    names = names or {}
    rows = ["| player | rating (Elo) | 95% interval | score |", "| --- | ---: | --- | --- |"]
    for player, found in sorted(ladder["players"].items(), key=lambda kv: -kv[1]["rating"]):
        low, high = found["interval"]
        rows.append(f"| {player} | {found['rating']:+.0f} | "
                    f"{'anchor' if found.get('anchor') else f'{low:+.0f} to {high:+.0f}'} | "
                    f"{found['score']:g} of {found['games']} |")
    return "\n".join(rows) + "\n"


def possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def _players(ladder: dict) -> list[str]:
    return list(ladder["meta"].get("ladder") or ladder["players"])
