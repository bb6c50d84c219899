"""The random player: uniform over the legal actions. It plays badly on purpose: it goes where
no sensible player goes, and so finds the rules' holes (the property tests fuzz with it)."""
from __future__ import annotations

from ..game import Action, GameState
from .base import Player


class RandomPlayer(Player):
    name = "random"
    description = "uniform among the legal actions: plays badly on purpose, to fuzz the rules"

    def choose(self, state: GameState) -> Action:
        actions = state.legal_actions()
        return actions[int(self.rng.integers(len(actions)))]
