"""The search player: the system's heuristic, improved by looking ahead.

Where the heuristic faces a decision that shapes a whole step of play (a purchase, the attacks of
a combat move, an impulse's card), it proposes a few plans, its own choice first (`plans`). The
search plays each plan out on clones of the game: the rest of the step as the plan says, then
every side as the heuristic plays it, for `horizon` rounds (or to the end; counted from the
deciding seat where the system says so; or, where the system says so and no horizon is set,
only until the deciding seat next weighs plans), with the dice drawn anew for each look-ahead,
and reads who stands better there (`GameState.standing`). It follows
the plan that did best. This is rollout policy improvement (Tesauro and Galperin) over
plan-level choices: the action space of a turn is far too large to search action by action,
but a handful of plans is not.

The look-aheads are shared out by successive halving: every plan gets a few, the worse half is
dropped, the survivors get more, until the budget is spent. Each plan's k-th look-ahead draws
the same dice (common random numbers), so plans are compared on the same luck and a real
difference shows with fewer games. Ties go to the heuristic's own choice.

The same seed gives the same choices: the look-aheads' seeds are drawn from the player's own
generator, never from the clock (`seconds` is the exception, and says so).
"""
from __future__ import annotations

import gc
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from ..game import Action, GameState
from ..options import Setting
from .base import Plan, Player

MAX_LOOKAHEAD_ACTIONS = 200_000        # a guard: a look-ahead never plays longer than this


class SearchPlayer(Player):
    name = "search"
    description = "the heuristic improved by looking ahead: plays out its plans, follows the best"
    settings = [
        # The ranges keep a typing slip from playing for days: a thousand look-aheads a decision
        # already make an AA50 game last about an hour.
        Setting("budget", None, "int", "look-ahead games per decision, shared among the plans "
                "(default: the heuristic's own, set by what the system's games cost)",
                optional=True, minimum=1, maximum=1000),
        Setting("width", 4, "int", "the most plans weighed at one decision", minimum=1, maximum=16),
        Setting("horizon", None, "int", "rounds each look-ahead plays before the position is "
                "judged (default: the heuristic's own: to the end where games are short, to "
                "the side's next impulse in GJ69)",
                optional=True, minimum=1, maximum=50),
        Setting("seconds", None, "float", "also stop a decision's search after this long "
                "(the choices then depend on the machine's speed)", optional=True,
                minimum=0.001, maximum=3600),
    ]

    def __init__(self, system, side, options, rng):
        super().__init__(system, side, options, rng)
        self.base = system.players()["heuristic"](system, side, {}, rng)
        base = type(self.base)
        self.budget = base.search_budget if self.options["budget"] is None else self.options["budget"]
        horizon = self.options["horizon"]
        self.horizon = base.search_horizon if horizon is None else horizon
        self.to_next_plan = base.search_to_next_plan and horizon is None
        if self.budget < 1 or self.options["width"] < 1 or (self.horizon is not None and self.horizon < 1):
            from ..options import SettingError
            raise SettingError("search: budget, width and horizon are at least 1")
        self.searched = 0                   # decisions searched, and look-ahead games played
        self.lookaheads = 0
        # the heuristic of each other side, never playing itself: each look-ahead plays a fork
        # of it, which may keep what does not change from one look-ahead to the next
        self._opponents: dict[str, Player] = {}

    def choose(self, state: GameState) -> Action:
        plans = self.base.plans(state)[:self.options["width"]]
        if len(plans) > 1:
            with _collector_paused():
                best = self._best(state, plans)
            self.base.follow(state, best)
        elif plans:
            self.base.follow(state, plans[0])
        return self.base.choose(state)

    # -- the search ----------------------------------------------------------------------------
    def _best(self, state: GameState, plans: list[Plan]) -> Plan:
        budget, deadline = self.budget, None
        if self.options["seconds"] is not None:
            deadline = time.perf_counter() + self.options["seconds"]
        seeds = [int(s) for s in self.rng.integers(2**63, size=budget)]
        totals = [0.0] * len(plans)
        counts = [0] * len(plans)
        alive = list(range(len(plans)))
        stages = max(1, math.ceil(math.log2(len(plans))))
        spent = 0
        for stage in range(stages):
            each = max(1, (budget - spent) // (len(alive) * (stages - stage)))
            for index in alive:
                for _ in range(each):
                    if spent >= budget or (deadline and time.perf_counter() > deadline):
                        break
                    totals[index] += self._lookahead(state, plans[index], seeds[counts[index] % budget])
                    counts[index] += 1
                    spent += 1
            alive.sort(key=lambda i: (-_mean(totals[i], counts[i]), i))
            alive = sorted(alive[:max(1, math.ceil(len(alive) / 2))])
        self.searched += 1
        self.lookaheads += spent
        best = max(alive, key=lambda i: (_mean(totals[i], counts[i]), -i))
        return plans[best]

    def _lookahead(self, root: GameState, plan: Plan, seed: int) -> float:
        """The standing of this player's side after playing `plan` and then `horizon` rounds
        of heuristic play on a clone, with the dice drawn from `seed`."""
        state = root.clone()
        state.reseed(seed)
        rng = np.random.default_rng(seed)
        own = self.base.fork(rng)
        own.follow(state, plan)
        others: dict[str, Player] = {}
        stop = math.inf if self.horizon is None else root.round + self.horizon
        deciding = root.current_player if self.base.search_from_seat else None
        for played in range(MAX_LOOKAHEAD_ACTIONS):
            if state.is_terminal() or _horizon_reached(state, stop, deciding):
                break
            if self.to_next_plan and played and state.current_player == root.current_player \
                    and own.plan_point(state):
                break
            seat = state.current_player
            assert seat is not None
            side = state.side_of(seat)
            if side == self.side:
                player = own
            else:
                if side not in others:
                    others[side] = self._opponent(side).fork(rng)
                player = others[side]
            state.apply(player.choose(state))
        standing = state.standing(self.side)
        state.discard()
        return standing


    def _opponent(self, side: str) -> Player:
        found = self._opponents.get(side)
        if found is None:
            heuristic = self.system.players()["heuristic"]
            # its own generator: it never draws, and the look-aheads' forks get theirs
            found = self._opponents[side] = heuristic(self.system, side, {}, np.random.default_rng(0))
        return found


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The look-aheads make and drop many objects that live no longer than the decision (the
    copies of the game and what their players work out); the cyclic collector, which would
    scan them over and over while they live, waits until the decision is made."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _horizon_reached(state: GameState, stop: float, seat: str | None) -> bool:
    """Whether a look-ahead has played its rounds: round `stop` has begun, and, counting
    from a `seat`, that seat's turn has come round in it (or the round after has begun,
    where the seat takes no turn)."""
    if state.round < stop:
        return False
    return seat is None or state.round > stop or state.current_player == seat


def _mean(total: float, count: int) -> float:
    return total / count if count else -math.inf
