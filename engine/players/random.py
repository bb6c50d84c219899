"""The random player: uniform over the legal actions. It plays badly on purpose: it goes where
no sensible player goes, and so finds the rules' holes (the property tests fuzz with it).

`random:favour=WORD` takes, whenever one is legal, an action naming WORD (uniformly among
them), and otherwise plays as before: `random:favour=factory` buys and places an AA50 industrial
complex whenever it can, to put the rules on new factories to the test."""
from __future__ import annotations

from ..game import Action, GameState
from ..options import Setting
from .base import Player


class RandomPlayer(Player):
    name = "random"
    description = "uniform among the legal actions: plays badly on purpose, to fuzz the rules"
    settings = [Setting("favour", "", "text",
                        "a word: an action naming it is taken whenever one is legal")]

    def choose(self, state: GameState) -> Action:
        actions = state.legal_actions()
        word = self.options["favour"]
        if word:
            favoured = [a for a in actions if word in (str(part) for part in a)]
            actions = favoured or actions
        return actions[int(self.rng.integers(len(actions)))]
