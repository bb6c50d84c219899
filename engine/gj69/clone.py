"""Copies of a GJ69 game (engine/game.py `clone`), cheap where a search asks for them.

The turn runs as one generator (game.py), and a running generator cannot be copied. But where a
step of play starts, at an impulse (§6.1) or a card taken into the hand (§5.1), the generator
holds nothing beyond the game's data and where the turn stands: whose impulse, the passes in a
row and the impulses so far (a *checkpoint*, kept by the game as it reaches it). There a clone
copies the position's data, shares what never changes (the scenario, the board, the unit
profiles and the movement rules with their caches, which are keyed by content), and starts the
turn's generator again at the checkpoint: about 0.1 ms, where replaying the game's actions
costs 10-20 ms by mid-game (benchmarks/search_gj69.py). Anywhere else (inside an impulse: a
group's units, an action, a reaction, a retreat) the clone replays the game from its start
(`ReplayClone`): correct, but its cost grows with the game.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from ..clones import copy_generator
from ..game import ReplayClone, as_action
from .cards import Deck

# ("hands", side): the side is choosing its hand; ("impulse", side, passes, impulses): the side's
# impulse, after `passes` passes in a row and `impulses` impulses this turn.
Checkpoint = tuple

# What a clone shares with its game (nothing in them changes during a game), and the caches it
# starts without; every other attribute is copied (by deepcopy when this module does not know it).
SHARED = frozenset({"system", "rules", "board", "profiles", "sides", "movement", "_domain",
                    "_moves", "_flies", "permanent", "deck_cards", "_start", "slot", "slot_kinds",
                    "effect", "_flow"})
FRESH: dict[str, Callable[[], object]] = {"_any_cache": dict, "_eligible_cache": dict, "_supplied": dict,
         "invariant_cache": lambda: (None, []), "_any_version": lambda: -1, "_legal": lambda: None}
_PLAIN = (int, float, str, bool, type(None), frozenset)


class Checkpoints(ReplayClone):
    """Clones of a GJ69 game: a copy of its data at a checkpoint, a replay elsewhere."""

    checkpoint: Checkpoint | None = None
    _step: str
    _over: bool

    def __init__(self, system, rules, rng: np.random.Generator, max_rounds: int | None):
        self.remember_start(system, _options(rules), rng, max_rounds)
        super().__init__(system, rules, rng, max_rounds)       # type: ignore[call-arg]

    def apply(self, action) -> None:
        super().apply(action)                                   # type: ignore[misc]
        self.remember(as_action(action))

    def at_checkpoint(self) -> bool:
        """Whether the game waits at a checkpoint's decision, where a clone is a copy."""
        return not self._over and self._step in ("impulse", "choose-cards")

    def clone(self):
        if not self.at_checkpoint():
            return ReplayClone.clone(self)
        twin = object.__new__(type(self))
        fields = twin.__dict__
        for key, value in self.__dict__.items():
            if key in SHARED:
                fields[key] = value
            elif key in FRESH:
                fields[key] = FRESH[key]()
            else:
                copier = _COPIERS.get(key)
                fields[key] = copier(value) if copier else _copied(value)
        twin._flow = twin._game(self.checkpoint)        # type: ignore[attr-defined]
        twin._advance(None)                             # type: ignore[attr-defined]
        return twin


def _options(rules) -> dict:
    """The game settings that make these rules again (for a replay)."""
    return {**rules.options, "last-turn": str(rules.last_turn), "hands": rules.hands}


def _copied(value):
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, dict) and all(isinstance(v, _PLAIN) for v in value.values()):
        return dict(value)
    return copy.deepcopy(value)


_COPIERS = {
    "rng": copy_generator,
    "forces": lambda forces: forces.copy(),
    "oil": lambda oil: {area: replace(marker) for area, marker in oil.items()},
    "decks": lambda decks: {side: Deck(list(d.pile), d.hand_size, list(d.hand), list(d.played),
                                       list(d.gone)) for side, d in decks.items()},
    "chronicle": lambda chronicle: chronicle.copy(),
    "_actions": list,
    "_applied": list,
    "_held_since_holiday": lambda held: {area: set(sides) for area, sides in held.items()},
}
