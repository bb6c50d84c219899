"""Whole games: the state every game system's game offers, in the spirit of OpenSpiel.

`GameSystem.new_game(options, rng)` (engine/system.py) starts a game and returns a `GameState`.
The state says whose decision it is (`current_player`, a seat: a nation in AA50, a side in GJ69),
in which `phase` and `round`; `legal_actions()` lists what that player may do, `apply(action)`
does it. Chance (dice, card draws, spinners) is drawn inside `apply` from the one seeded
`numpy.random.Generator` the game was started with, so a game is fully given by its scenario,
options, seed and actions: a *replay* (engine/replay.py).

Actions are small plain values: a tuple of strings and integers, such as
`("buy", "infantry", 3)` or `("end",)`. JSON writes them as lists; `as_action` turns them back.

A state also keeps a `Chronicle`: what the balance report reads (income and victory cities per
round, captures, battles, objective payouts). The report knows no game system; a system records
what it has.

A state can be cloned (`clone()`): the copy is played on without touching its parent, and
reaches the parent's end given the same actions, since it continues from the same generator
state. `reseed(seed)` re-draws the chance of a clone: a search player samples the dice of the
turns it looks ahead this way. `standing(side)` is the system's own estimate of a side's chance
to win from the position, which a search reads where it stops looking ahead.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from .system import EngineError

Action = tuple


class IllegalAction(EngineError):
    """An action the rules do not allow here: a bug in a player, or a replay of another game."""


def as_action(value: Any) -> Action:
    """The action a JSON value stands for: lists become tuples, all the way down."""
    if isinstance(value, tuple) and not any(isinstance(v, (list, tuple)) for v in value):
        return value                    # a flat tuple already (every move a player makes)
    if isinstance(value, (list, tuple)):
        return tuple(as_action(v) for v in value)
    return value


@dataclass
class GameResult:
    """How a game ended.

    winner: the winning side's id, or None (a draw, or the round limit reached first).
    reason: why it ended, in the system's words: "victory-cities", "victory-points",
        "conquest", "sudden-death", "round-limit" ...
    round: the round the game ended in (1 is the first).
    victory_cities: side -> victory cities held at the end (systems that have them).
    scores: side or nation -> the system's score at the end (VP, money, income).
    """

    winner: str | None
    reason: str
    round: int
    victory_cities: dict[str, int] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> GameResult:
        return cls(data.get("winner"), data["reason"], data["round"],
                   dict(data.get("victory_cities") or {}), dict(data.get("scores") or {}))


@dataclass
class Chronicle:
    """What happened in one game, in the terms of the balance report.

    series: name -> who -> one value per round (income, victory cities, VP ...), as recorded at
        the end of each round; a round not recorded repeats nothing (the list is shorter).
    captures: (round, space, from, to) whenever a space changes hands.
    battles: (round, space, attacker, defender, attacking units, defending units, winner).
    payouts: (round, objective, who, amount) for each national objective or bonus paid.
    blunders: (round, kind, side, amount): what a sensible player does not do, as the system
        sees it happen (kinds in BLUNDERS). The report shows them per side and game, so that a
        designer sees whether the players played well enough to trust the verdict.
    """

    series: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    captures: list[tuple[int, str, str | None, str | None]] = field(default_factory=list)
    battles: list[tuple[int, str, str, str, int, int, str]] = field(default_factory=list)
    payouts: list[tuple[int, str, str, float]] = field(default_factory=list)
    blunders: list[tuple[int, str, str, float]] = field(default_factory=list)

    def record(self, name: str, who: str, round_: int, value: float) -> None:
        values = self.series.setdefault(name, {}).setdefault(who, [])
        while len(values) < round_ - 1:          # rounds the owner skipped keep the last value
            values.append(values[-1] if values else 0.0)
        if len(values) >= round_:
            values[round_ - 1] = value
        else:
            values.append(value)

    def capture(self, round_: int, space: str, old: str | None, new: str | None) -> None:
        self.captures.append((round_, space, old, new))

    def battle(self, round_: int, space: str, attacker: str, defender: str, attacking: int,
               defending: int, winner: str) -> None:
        self.battles.append((round_, space, attacker, defender, attacking, defending, winner))

    def payout(self, round_: int, objective: str, who: str, amount: float) -> None:
        self.payouts.append((round_, objective, who, amount))

    def blunder(self, round_: int, kind: str, side: str, amount: float = 1) -> None:
        assert kind in BLUNDERS, kind
        self.blunders.append((round_, kind, side, amount))

    def copy(self) -> Chronicle:
        """A chronicle that shares no list or dictionary with this one (entries are tuples and
        numbers), for a game's clone."""
        return Chronicle({name: {who: list(values) for who, values in series.items()}
                          for name, series in self.series.items()},
                         list(self.captures), list(self.battles), list(self.payouts), list(self.blunders))

    def as_dict(self) -> dict:
        return {"series": self.series, "captures": [list(c) for c in self.captures],
                "battles": [list(b) for b in self.battles],
                "payouts": [list(p) for p in self.payouts],
                "blunders": [list(b) for b in self.blunders]}


# An attack is made "below the odds" when its estimated chance to win is under this.
BELOW_ODDS = 0.3

# What the report counts as a player's blunder, kind -> what one counts (the amount), short enough
# for a report's row (docs/playtest.md says more of each): each system records those it can see.
BLUNDERS = {
    "lost-unfought": "units lost unable to strike back",
    "lost-unfought-value": "what those units cost",
    "lost-after-landing": "of the units lost, transports that had landed troops",
    "unspent": "money left that could still buy a unit",
    "below-odds": f"attacks at an estimated chance below {BELOW_ODDS:.0%}",
    "capital-empty": "turns ended with the capital open to capture",
    "cards-unused": "cards in hand when a side passed to end the turn",
    "cards-unused-reaction": "of those, reaction cards kept for an enemy impulse",
    "idle-turnover": "units turned over without moving or fighting",
    "lost-off-guard": "units lost off guard: troops at sea, used aircraft, lone ships",
    "lost-off-guard-vp": "VP those losses gave the enemy",
}


class GameState(ABC):
    """One game in progress. Subclasses keep the rules; this class fixes the interface."""

    chronicle: Chronicle
    rng: np.random.Generator        # every chance event is drawn from this one generator

    # -- who, where, when ----------------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> str | None:
        """The seat (nation or side id) whose decision it is; None once the game is over."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """The id of the phase being played (the scenario's phase ids where it has them)."""

    @property
    @abstractmethod
    def round(self) -> int:
        """The round being played, from 1."""

    @abstractmethod
    def seats(self) -> list[str]:
        """Every seat that can be `current_player`, in turn order."""

    @abstractmethod
    def side_of(self, seat: str) -> str:
        """The side a seat plays for: players are assigned to sides."""

    # -- moves ---------------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now, in a fixed order. Never empty while
        the game goes on: some action always ends the current step."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Take `action` for the current player; IllegalAction when the rules forbid it."""

    def is_legal(self, action: Action) -> bool:
        """Whether `action` may be taken now. Systems answer it without listing every action
        where they can."""
        return as_action(action) in self.legal_actions()

    # -- the end -------------------------------------------------------------------------------
    @abstractmethod
    def is_terminal(self) -> bool:
        ...

    @abstractmethod
    def result(self) -> GameResult:
        """How the game ended (or stands, if it has not)."""

    def standing(self, side: str) -> float:
        """The side's chance to win from here, as the system estimates it without playing on:
        1 or 0 once the game is decided (0.5 for a draw or a game stopped undecided); between,
        the system's own measure (material, income, victory cities, VP). This default knows
        only the end."""
        if not self.is_terminal():
            return 0.5
        winner = self.result().winner
        return 0.5 if winner is None else float(winner == side)

    # -- copies --------------------------------------------------------------------------------
    def clone(self) -> GameState:
        """A copy of the game that shares nothing mutable with this one, with the same
        generator state: the same actions lead both to the same end. Systems make it cheap (a
        copy of the position's data, never of the scenario)."""
        raise EngineError(f"{type(self).__name__} cannot be cloned")

    def discard(self) -> None:  # noqa: B027 (a hook: most games hold nothing to let go of)
        """The game is played no further (a search's look-ahead is done with its copy): let go
        of what would keep it alive until the cyclic collector runs. No-op by default."""

    def reseed(self, seed) -> None:
        """Draw the chance of the rest of the game anew from `seed` (an int or a SeedSequence):
        the generator is reset in place, so every part of the game that holds it sees the new
        draws."""
        self.rng.bit_generator.state = np.random.default_rng(seed).bit_generator.state

    # -- checks --------------------------------------------------------------------------------
    def invariants(self) -> Iterable[str]:
        """Broken invariants of the rules, as sentences; empty when all hold. Tests and
        `playtest games --check` call it after every action."""
        return ()


class ReplayClone:
    """Cloning by replay, for a game whose turn runs as a Python generator (a running generator
    cannot be copied): the clone is a new game started as this one was, with every action
    played again, and the generator reset wherever this game's was. Correct for any system;
    its cost grows with the game's length, so a system whose position is plain data copies that
    instead.

    A state mixes this in (before GameState), calls `remember_start(...)` in its constructor
    before any chance is drawn, and `remember(action)` for each action it applies."""

    rng: np.random.Generator
    _start: tuple
    _applied: list                       # actions, and ("reseed", state) where chance was reset

    def remember_start(self, system, options: dict, rng: np.random.Generator,
                       max_rounds: int | None) -> None:
        self._start = (system, dict(options), type(rng.bit_generator),
                       rng.bit_generator.state, max_rounds)
        self._applied = []

    def remember(self, action: Action) -> None:
        self._applied.append(action)

    def reseed(self, seed) -> None:
        self.rng.bit_generator.state = np.random.default_rng(seed).bit_generator.state
        self._applied.append(_Reseed(self.rng.bit_generator.state))

    def clone(self):
        system, options, kind, rng_state, max_rounds = self._start
        generator = np.random.Generator(kind())
        generator.bit_generator.state = rng_state
        twin = system.new_game(options, generator, max_rounds)
        for entry in self._applied:
            if isinstance(entry, _Reseed):
                twin.rng.bit_generator.state = entry.state
                twin._applied.append(entry)
            else:
                twin.apply(entry)
        return twin


@dataclass(frozen=True)
class _Reseed:
    state: Mapping[str, Any]


def ensure_legal(state: GameState, action: Action) -> Action:
    """The action as a tuple, or IllegalAction naming the player, the phase and the action."""
    action = as_action(action)
    if not state.is_legal(action):
        raise IllegalAction(f"{state.current_player} may not {list(action)} in the "
                            f"{state.phase} phase of round {state.round}")
    return action
