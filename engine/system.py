"""The one interface every game system's engine offers, in the spirit of OpenSpiel's game API.

A `GameSystem` is built from a loaded scenario: the scenario's data gives the numbers (unit
values, abilities, options), the system's module gives the procedure. A battle is described by a
`BattlePosition` (who is where, with what) and resolved from it:

- `resolve_battle(position, rng)` fights one battle and returns a `BattleOutcome`. Every random
  event (each die, each draw) comes from `rng`, a `numpy.random.Generator` that the caller seeds
  and passes in; the same seed gives the same outcome, always.
- `simulate(position, runs, rng)` fights `runs` independent battles and returns an
  `OutcomeBatch` of arrays. A system may vectorise it; the default loops `resolve_battle`.
- `runner(position)` gives a picklable `(runs, rng) -> OutcomeBatch` that worker processes call.
- `exact(position, budget, time_limit)` returns the exact distribution of outcomes as an
  `ExactOutcome`, or None when the system has no exact method, or the state space is larger
  than `budget` states, or the work takes longer than `time_limit` seconds.

Whole games (engine/game.py): `new_game(options, rng, max_rounds)` returns a `GameState`;
`game_settings()` lists the options a game takes and `players()` the system's own AI players.

The battle calculator (engine/calculator.py) only speaks to this interface, so a system gains the
calculator, the CLI and the editor's playtest panel by implementing it. A system may report
battles in its own terms (`battle_details`, `render_battle`) and offer charts resolved on their
own (`chart_resolvers`, engine/resolvers.py).

Adding a system: create `engine/<system with - as _>/__init__.py` with a function
`build(scenario) -> GameSystem`; `load_system` finds it by the scenario's `system:` field.
"""
from __future__ import annotations

import difflib
import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import numpy as np

# The three ways a battle ends, as stored in OutcomeBatch.result.
ATTACKER_WINS, DEFENDER_WINS, DRAW = 0, 1, 2


class EngineError(Exception):
    """A battle or scenario the engine cannot work with."""


class UnknownName(EngineError):
    """A unit type, nation or space that the scenario does not have."""

    def __init__(self, what: str, name: str, known: list[str], aliases: dict[str, str] | None = None):
        self.what, self.name, self.known = what, name, sorted(known)
        # another name of the same thing first (a display name, a capital), then similar ids
        alias = (aliases or {}).get(_plain(name))
        close = difflib.get_close_matches(name, self.known, n=3, cutoff=0.6)
        close = ([alias] if alias else []) + [c for c in close if c != alias]
        self.suggestions = close[:3]
        hint = f"; did you mean {' or '.join(self.suggestions)}?" if self.suggestions else ""
        super().__init__(f"unknown {what} {name!r}{hint}")


def _plain(text: str) -> str:
    """A name reduced for comparison: lower case, letters and digits only."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


@dataclass(frozen=True)
class Contingent:
    """The units one nation brings to a battle: unit type id -> count."""

    owner: str
    units: dict[str, int]

    def total(self) -> int:
        return sum(self.units.values())


@dataclass(frozen=True)
class Policy:
    """The choices a player makes in battle that the rules leave open.

    order: which casualties are taken first: "cheapest" (by cost, then by weakest value),
           "weakest" (by combat value, then by cost), or unit type ids separated by commas
           (types not named follow, cheapest first).
    keep_land_unit: when attacking a territory, keep the last land unit alive while aircraft can
           be lost instead, so that the territory can be taken. None means: yes for territories.
    retreat_at: the attacker retreats at the end of a round when it has at most this many units
           left in the battle (0: never retreats).
    """

    order: str = "cheapest"
    keep_land_unit: bool | None = None
    retreat_at: int = 0


@dataclass(frozen=True)
class BattlePosition:
    """One battle: where it is, who attacks and who defends, and the system-specific extras.

    attackers / defenders: one contingent per nation taking part.
    landing: unit type -> count of the attacker's units that come ashore from transports
             (an amphibious assault); they are part of `attackers` too.
    bombard: ships supporting an amphibious assault from the sea; not part of `attackers`.
    raid: a strategic bombing raid on the space's factory instead of a battle.
    research: nation -> the ids of the research options it has developed.
    damage: damage already on the factory (for a raid).
    """

    space: str
    attackers: tuple[Contingent, ...]
    defenders: tuple[Contingent, ...]
    landing: dict[str, int] = field(default_factory=dict)
    bombard: Contingent | None = None
    raid: bool = False
    research: dict[str, frozenset[str]] = field(default_factory=dict)
    damage: int = 0
    policy: Policy = Policy()


@dataclass
class BattleOutcome:
    """How one battle ended."""

    result: int                        # ATTACKER_WINS, DEFENDER_WINS or DRAW
    rounds: int
    attacker_survivors: dict[str, int]  # unit type -> count still alive (retreated included)
    defender_survivors: dict[str, int]
    attacker_loss: float               # cost of the units lost
    defender_loss: float               # cost of the units lost (or of the damage done, for a raid)
    events: list[str] = field(default_factory=list)
    attacker_damage: float = 0.0       # damage taken by units still alive (GameSystem.damage_unit)
    defender_damage: float = 0.0

    @property
    def winner(self) -> str:
        return ("attacker", "defender", "draw")[self.result]


@dataclass
class OutcomeBatch:
    """Many battles' outcomes as arrays of equal length (one entry per battle)."""

    result: np.ndarray              # int8: ATTACKER_WINS / DEFENDER_WINS / DRAW
    rounds: np.ndarray              # int
    attacker_survivors: np.ndarray  # int: units alive at the end
    defender_survivors: np.ndarray
    attacker_loss: np.ndarray       # float: cost lost
    defender_loss: np.ndarray
    attacker_damage: np.ndarray | None = None   # float: damage on survivors, where measured
    defender_damage: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.result)

    @staticmethod
    def concatenate(batches: list[OutcomeBatch]) -> OutcomeBatch:
        names = ["result", "rounds", "attacker_survivors", "defender_survivors",
                 "attacker_loss", "defender_loss"]
        if all(b.attacker_damage is not None for b in batches):
            names += ["attacker_damage", "defender_damage"]
        return OutcomeBatch(*(np.concatenate([getattr(b, name) for b in batches])
                              for name in names))

    @staticmethod
    def from_outcomes(outcomes: list[BattleOutcome]) -> OutcomeBatch:
        return OutcomeBatch(
            np.array([o.result for o in outcomes], dtype=np.int8),
            np.array([o.rounds for o in outcomes], dtype=np.int64),
            np.array([sum(o.attacker_survivors.values()) for o in outcomes], dtype=np.int64),
            np.array([sum(o.defender_survivors.values()) for o in outcomes], dtype=np.int64),
            np.array([o.attacker_loss for o in outcomes], dtype=float),
            np.array([o.defender_loss for o in outcomes], dtype=float),
            np.array([o.attacker_damage for o in outcomes], dtype=float),
            np.array([o.defender_damage for o in outcomes], dtype=float))


@dataclass
class ExactOutcome:
    """The exact distribution of a battle's end: one row per distinct end, with its probability."""

    probability: np.ndarray
    result: np.ndarray
    attacker_survivors: np.ndarray
    defender_survivors: np.ndarray
    attacker_loss: np.ndarray
    defender_loss: np.ndarray
    mean_rounds: float
    states: int = 0          # how many states the calculation visited


@dataclass(frozen=True)
class ReportTerms:
    """How the balance report names a system's measures, in the system's own words: what a
    game's `scores` count, the heading of its payouts (the chronicle's), and their unit."""

    scores: str = "score"
    payouts: str = "bonuses paid"
    unit: str = ""


class GameSystem(ABC):
    """A game system's rules engine, built from one scenario."""

    system: str = ""
    # A system whose battles need more than BattlePosition's fields subclasses it (a frozen
    # dataclass) and names the subclass here; the calculator builds positions through it.
    position_type: type[BattlePosition] = BattlePosition
    # What losses are counted in, in the system's own terms ("IPC" in AA50, "VP" in GJ69 ...).
    loss_unit: str = "IPC"
    # A second measure: damage that survivors carry away, where the system has one
    # ("damage points" in War at Sea); None when losses say it all.
    damage_unit: str | None = None
    # Whether a battle may have no defending force: where an unowned space is fought for (a
    # neutral territory in Allies vs. Axis) and a defender with no units is a space its owner
    # left empty. Elsewhere a battle needs a defender with units.
    defender_optional: bool = False

    def __init__(self, scenario):
        self.scenario = scenario

    # -- names -------------------------------------------------------------------------------
    @abstractmethod
    def unit_types(self) -> list[str]:
        """The ids of the unit types that can fight."""

    @abstractmethod
    def nations(self) -> list[str]:
        """The ids of the nations (or sides) that can own units."""

    @abstractmethod
    def spaces(self) -> list[str]:
        """The ids of the spaces a battle can be fought in."""

    def aliases(self, what: str) -> dict[str, str]:
        """Other names of things ("nation", "unit type", "space") -> their ids, keyed by
        _plain(name): what a user may type instead of the id. None by default."""
        return {}

    def unknown(self, what: str, name: str, known: list[str]) -> UnknownName:
        return UnknownName(what, name, known, self.aliases(what))

    def check_position(self, position: BattlePosition) -> None:
        """Raise UnknownName or EngineError when the position does not fit this scenario."""
        for contingent in _contingents(position):
            if contingent.owner not in self.nations():
                raise self.unknown("nation", contingent.owner, self.nations())
            for unit in contingent.units:
                if unit not in self.unit_types():
                    raise self.unknown("unit type", unit, self.unit_types())
        if position.space not in self.spaces():
            raise self.unknown("space", position.space, self.spaces())

    # -- battles -----------------------------------------------------------------------------
    @abstractmethod
    def resolve_battle(self, position: BattlePosition, rng: np.random.Generator) -> BattleOutcome:
        """Fight one battle, drawing every random event from `rng`."""

    def simulate(self, position: BattlePosition, runs: int,
                 rng: np.random.Generator) -> OutcomeBatch:
        """Fight `runs` independent battles. Systems override this with a vectorised version."""
        return OutcomeBatch.from_outcomes([self.resolve_battle(position, rng) for _ in range(runs)])

    def runner(self, position: BattlePosition) -> Callable[[int, np.random.Generator], OutcomeBatch]:
        """A picklable `(runs, rng) -> OutcomeBatch` for worker processes. Systems return
        something small (a compiled battle) so that workers need not load the scenario."""
        return partial(self.simulate, position)

    def exact(self, position: BattlePosition, budget: int = 200_000,
              time_limit: float | None = None) -> ExactOutcome | None:
        """The exact distribution of outcomes, or None when not available within `budget`
        states (and `time_limit` seconds, when given)."""
        return None

    def unit_cost(self, unit_type: str) -> float:
        """What one unit of a type costs (the measure of losses)."""
        return 0.0

    def can_attack(self, unit_type: str) -> bool:
        """Whether units of a type may be part of an attacking force (a factory may not)."""
        return True

    # -- reports in the system's own terms -----------------------------------------------------
    def battle_details(self, position: BattlePosition) -> dict:
        """What a battle report says beyond the generic odds, in the system's own terms (plain
        data, for `--json` and the renderer): {} by default."""
        return {}

    def render_battle(self, report, forces: list, space: str) -> str | None:
        """The battle report (engine.calculator.BattleReport) as text in the system's own
        terms, or None for the generic text. `forces` are the attacker's and then the defenders'
        forces, printable as 'germany: 3 infantry'; `report.details` holds `battle_details`."""
        return None

    def chart_resolvers(self) -> dict:
        """The system's charts resolved on their own (engine.resolvers.ChartResolver by id),
        for `sandtable playtest chart` and the editor: none by default."""
        return {}

    # -- whole games ---------------------------------------------------------------------------
    def game_settings(self) -> list:
        """The settings of a whole game (engine.options.Setting): the scenario's `options:`
        and the system's own game settings. Systems add theirs to this list."""
        from .options import settings_of_scenario
        return settings_of_scenario(self.scenario.manifest.get("options") or [])

    def new_game(self, options: dict, rng: np.random.Generator, max_rounds: int | None = None):
        """A new game (engine.game.GameState) with the chosen settings (keys of
        `game_settings()`), drawing every chance event from `rng`. A game always ends: at the
        latest after `max_rounds` rounds, or the scenario's last turn."""
        raise EngineError(f"the engine cannot play whole games of {self.system} yet")

    def plays_games(self) -> bool:
        """Whether the system plays whole games (it overrides `new_game`)."""
        return type(self).new_game is not GameSystem.new_game

    def players(self) -> dict[str, type]:
        """The system's own players by name (engine.players.Player subclasses), beside the
        players every system has (random)."""
        return {}

    report_terms = ReportTerms()

    def victory_targets(self, options: dict) -> dict[str, float]:
        """Side -> the victory cities (or points) that win it the game with these settings,
        where the victory rule is such a count: the report draws it as a line."""
        found = {}
        for _, entry in self.scenario.entities("scenario", "victory"):
            if entry.get("option") and entry["option"] != options.get("victory"):
                continue
            count = (entry.get("when") or {}).get("victory_cities")
            if isinstance(count, dict) and isinstance(count.get("count"), (int, float)) \
                    and isinstance(count.get("side"), str):
                found[count["side"]] = count["count"]
        return found


def _contingents(position: BattlePosition):
    yield from position.attackers
    yield from position.defenders
    if position.bombard is not None:
        yield position.bombard


def system_module_name(system: str) -> str:
    return f"engine.{system.replace('-', '_')}"


def load_system(scenario) -> GameSystem:
    """The rules engine for a loaded scenario, chosen by its `system:`. A scenario that puts
    more pieces into play than a game can hold (sandtable/limits.py) is refused here, for every
    system and every command alike."""
    from sandtable.diagnostics import shown_path
    from sandtable.limits import excesses
    system = scenario.system
    if not system:
        raise EngineError(f"{scenario.root} does not say which game system it uses")
    for excess in excesses(scenario)[:1]:
        where = scenario.locate(excess.kind, excess.pointer)
        place = shown_path(where.file) + (f":{where.line}" if where.line else "")
        raise EngineError(f"{place}: {excess.message}")
    try:
        module = importlib.import_module(system_module_name(system))
    except ModuleNotFoundError as missing:
        if missing.name != system_module_name(system):
            raise
        raise EngineError(f"the engine has no rules for the game system {system!r} yet") from None
    return module.build(scenario)
