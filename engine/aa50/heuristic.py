"""Placeholder replaced below."""
from ..players.random import RandomPlayer


class HeuristicPlayer(RandomPlayer):
    name = "heuristic"
