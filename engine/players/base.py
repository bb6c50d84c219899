"""The player interface."""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..game import Action, GameState
from ..options import Setting


@dataclass(frozen=True)
class Plan:
    """One way to play a whole decision (a purchase, the attacks of a combat move, an impulse's
    card and group): what a player proposes to a search. `label` names it in logs and reports;
    `content` is the player's own, handed back to it by `follow`."""

    label: str
    content: Any = None


class Player(ABC):
    """Plays the seats of one side. `settings` are the options its spec may set."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""          # one line for `--players list`
    settings: ClassVar[list[Setting]] = []
    # What a search built on this player does by default (engine/players/search.py): rounds it
    # looks ahead before it reads the position's standing (None: to the end of the game), and
    # look-ahead games per decision. Each system sets them from what its games cost.
    search_horizon: ClassVar[int | None] = 1
    search_budget: ClassVar[int] = 24
    # whether the horizon's rounds count from the decision's seat: a look-ahead then stops
    # when that seat's turn comes round again (every other seat has answered), not where a
    # new round begins (which is sooner for the last seat of a round than for the first)
    search_from_seat: ClassVar[bool] = False
    # whether a look-ahead stops sooner, where the deciding seat next faces a decision with
    # plans (`plan_point`): in a game of many short decisions a turn (GJ69's impulses) a
    # look-ahead to the seat's next one is cheap, so the budget reaches every plan, several
    # times, where look-aheads to the end of the turn would reach two plans once each
    search_to_next_plan: ClassVar[bool] = False

    def __init__(self, system, side: str, options: dict, rng: np.random.Generator):
        self.system, self.side, self.rng = system, side, rng
        self.options = {s.key: s.default for s in self.settings} | dict(options)

    @classmethod
    def check_settings(cls, options: dict, system) -> None:
        """SettingError for settings that the system's game refuses (a nation it lacks), so
        that a study stops before its first game; the settings' own kinds are checked by
        `engine.options.resolve`. Most players' settings need nothing more."""
        return None

    @abstractmethod
    def choose(self, state: GameState) -> Action:
        """The action to take for `state.current_player`, one of the side's seats."""

    # -- what a search asks of a player ---------------------------------------------------------
    def plans(self, state: GameState) -> list[Plan]:
        """The plans this player would weigh for the decision that starts here, its own choice
        first; empty where there is no such decision (most actions carry out a plan already
        chosen). A search plays each of them out and `follow`s the best."""
        return []

    def plan_point(self, state: GameState) -> bool:
        """Whether this player would weigh plans at `state`'s decision (for
        `search_to_next_plan`); asked after every action of a look-ahead, so it must be cheap."""
        return False

    def follow(self, state: GameState, plan: Plan) -> None:
        """Carry out `plan` (one of `plans(state)`) from here: the next `choose` calls play
        it."""
        raise NotImplementedError(f"{type(self).__name__} offers no plans to follow")

    def fork(self, rng: np.random.Generator) -> Player:
        """A player like this one for a look-ahead: the same settings, and what it remembers
        of the game so far where that changes its choices."""
        return type(self)(self.system, self.side, self.options, rng)
