"""The player interface."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

import numpy as np

from ..game import Action, GameState
from ..options import Setting


class Player(ABC):
    """Plays the seats of one side. `settings` are the options its spec may set."""

    name: ClassVar[str] = ""
    settings: ClassVar[list[Setting]] = []

    def __init__(self, system, side: str, options: dict, rng: np.random.Generator):
        self.system, self.side, self.rng = system, side, rng
        self.options = {s.key: s.default for s in self.settings} | dict(options)

    @abstractmethod
    def choose(self, state: GameState) -> Action:
        """The action to take for `state.current_player`, one of the side's seats."""
