"""The whole game of War at Sea (§4-§17) behind engine/game.py's GameState.

Two seats, the sides: the Allies (Britain, with the United States and the Soviet Union as they
join) and the Axis (Germany with Italy). A turn (§5): reinforcements and the entry rolls;
Allied movement and speed rolls, then Axis movement; U-boats; air-strike markers; combat
(anti-submarine everywhere, then air strikes, then surface battles, the Axis choosing the order
of each kind); convoys; sea control; refuelling at sea; return to port, Axis first; scoring.

The turn is written as a generator (`_play`) that yields a `Request` wherever a side decides
and receives the side's action; `apply` checks the action and sends it in. Chance comes only
from the generator given to the game, inside `apply`.

Actions (tuples):
    ("base", ship, port)          §4.3 start a ship in another of its nation's setup ports
    ("move", ship, space)         §6 move a ship (one or two sea areas; from sea after refuelling
                                  or on a convoy's route, §13.1, §14.4)
    ("withdraw", ship, port)      §6.2 after a failed speed roll, §7.3 when disabled: the port
    ("deploy", area)              §8.1 send one U-boat flotilla from Germany
    ("air", space)                §9.1 place the side's air-strike marker
    ("battle", space)             §7.1 the Axis picks the next battle of a kind
    ("aim", "warships"|"convoys"), ("escape", "no"|"yes"), ("group", ship, n),
    ("pursue", ship, n), ("press", "on"), ("give-up", ship)     §10-§11 (combat.py)
    ("deliver", convoy), ("stay", convoy)                       §13.2
    ("refuel", ship)              §14.2 roll for one ship
    ("return", ship, port)        §12.3 the port a ship goes back to
    ("end",)                      end the step (stay, send no more, place nothing)
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from validators.conditions import Position, evaluate

from ..clones import copy_generator, generator_at
from ..game import Action, Chronicle, GameResult, GameState, ensure_legal
from .combat import Battle, BattleEnd, Decision, Dice
from .rules import Variant
from .ships import Ship
from .standing import chance_to_win

END = ("end",)
# how long each kind of action is (the module docstring lists them)
ARITY = {"end": 1, "base": 3, "move": 3, "withdraw": 3, "deploy": 2, "air": 2, "battle": 2,
         "aim": 2, "escape": 2, "group": 3, "pursue": 3, "press": 2, "give-up": 2, "deliver": 2,
         "stay": 2, "refuel": 2, "return": 3}

PHASES = {
    "setup": "setup", "reinforcements": "reinforcements", "movement": "movement",
    "withdraw": "movement", "submarines": "submarines", "air": "air-strikes",
    "battle-order": "combat", "surface": "combat", "disabled": "combat", "convoys": "combat",
    "sea-control": "sea-control", "refuel": "return-to-port", "return": "return-to-port",
    "scoring": "scoring", "over": "scoring",
}


@dataclass(eq=False)
class Vessel(Ship):
    """A surface ship in the game: where it is and what it did this turn."""

    nation: str = ""            # its nationality now (§16.5: taken-over ships change it)
    side: str = ""
    at: str = ""                # a sea area or a port
    origin: str = ""            # where it began this turn's movement
    moved: bool = False
    rolls: bool = False         # moved two areas: rolls the speed die (§6.1)
    fuelled: bool = False       # refuelled at sea: stays out, moves freely next turn (§14.4)
    staying: bool = False       # a convoy that stays at sea for the next leg (§13.2)
    at_war: bool = True         # the United States' ships before their entry roll (§16.2)
    may_sail: bool = True       # the Soviet ships' roll of the turn (§16.1)
    neutral_since: int = 0      # the turn it entered a neutral port (§15.6)
    allowed: frozenset = frozenset()   # where its nationality lets it go (§6.4, §16)
    leg: int = -1               # a convoy's place on its route (§13)


@dataclass
class Request:
    """A decision of `side`: `options()` lists the actions, `check` tells one quickly."""

    side: str
    step: str
    options: Callable[[], list[Action]]
    check: Callable[[Action], bool]
    decision: Decision | None = None     # in a surface battle: what combat.py asks
    where: str | None = None             # the space it is about
    moves: dict[str, dict[str, bool]] | None = None   # movement: ship -> where -> speed roll
    restart: int | None = None           # the stage that, begun again on the game's data as it
                                         # is, asks this same request first (`WaSGame.clone`)


def _fixed(options: Iterable[Action]) -> tuple[Callable[[], list[Action]], Callable[[Action], bool]]:
    """The two callables of a request whose options are known when it is made."""
    listed = list(options)
    return (lambda: list(listed)), (lambda action: action in listed)


# The stages of the game (§4.3, §5): the setup, then those of every turn, in order.
STAGES = ("setup", "reinforcements", "allied-movement", "axis-movement", "submarines",
          "allied-air", "axis-air", "combat", "convoys", "sea-control", "refuel", "axis-return",
          "allied-return", "scoring")
# What a clone copies (`WaSGame._copy_at`); everything else a game holds is never changed once the
# game is set up, or is a number or a text, and is shared. tests/test_war_at_sea_search.py
# checks that a clone shares nothing else that can change.
COPIED = frozenset({"vessels", "uboats_at", "markers", "control", "air", "no_control", "points",
                    "lost", "delivered", "log", "chronicle", "rng", "dice", "_numbers",
                    "_touched", "_applied", "_legal", "_flow", "request"})


@dataclass(frozen=True)
class _Reseed:
    """Where a game's chance was drawn anew (`reseed`), in the actions a clone replays."""

    state: Mapping[str, Any]


class WaSGame(GameState):
    def __init__(self, system, variant: Variant, rng: np.random.Generator,
                 max_rounds: int | None = None):
        self._start = (variant, rng.bit_generator.state, max_rounds)
        self._applied: list = []                # every action, and every reseed, since the start
        self.system = system
        self.board = system.board
        self.variant = variant
        self.rng = rng
        self.dice = Dice(rng)
        self.types = system.types_for(variant)
        self.combat_rules = system.combat_rules
        manifest = system.scenario.manifest
        rules = manifest.get("rules") or {}
        self.allies, self.axis = self.board.order
        turns = manifest.get("turns") or {}
        self.turns = int(turns.get("count", 8)) if isinstance(turns, dict) else 8
        self.last = min(self.turns, max_rounds) if max_rounds else self.turns
        scoring = rules.get("scoring") or {}
        self.track = int(scoring.get("track_start", 0))
        self.track_range = (int(scoring.get("track_min", -10)), int(scoring.get("track_max", 10)))
        self.positive = scoring.get("positive_side", self.axis)
        self.neutral_penalty = int(scoring.get("neutral_port_penalty", 1))
        self.route = [(c["from_space"], c["to_space"], int(c["points"]))
                      for c in scoring.get("convoy_points") or []]
        self.uboat_type = rules.get("uboat_type", "uboat")
        self.uboat_limit = int(rules.get("uboat_limit", 7))
        self.max_areas = int((rules.get("speed_roll") or {}).get("max_areas", 2))
        self.refuelling = rules.get("refuelling") or {}
        self.entry = [e for e in rules.get("entry_into_war") or [] if isinstance(e, dict)]
        self.fate = rules.get("italian_fleet_fate") or {}
        self.setup_choices = [c for c in rules.get("setup_choices") or [] if isinstance(c, dict)]
        self.chronicle = Chronicle()
        self.vessels: dict[str, Vessel] = {}
        self.uboats_home = 0
        self.uboats_at: Counter = Counter()
        self.uboats_banked = 0
        self.uboat_base = self.board.ports[0]
        self.markers: dict[str, str] = {}       # last turn's sea control, read by movement (§12.2)
        self.control: dict[str, str] = {}       # this turn's, once decided
        self.air: dict[str, str | None] = {}
        self.no_control: set[str] = set()       # §11.2: every pursuer out
        self.points: dict[str, int] = {}
        self.lost: dict[str, int] = {}          # §15.6 neutral-port penalties this turn
        self.delivered: dict[str, int] = {}     # §13 convoy points this turn
        self.streak = self.best_streak = 0      # §16.4 Axis control of the Mediterranean
        self.convoy_home: str | None = None
        self.log: list[str] = []
        self._round = 1
        self._epoch = 0                         # counts steps begun, for the invariants
        self._step = "setup"
        self._over = False
        self._result: GameResult | None = None
        self._legal: list[Action] | None = None
        self._schedule: dict[int, list[dict]] = {}
        self._numbers: dict[str, int] = {}
        self._touched: list[Vessel] = []        # moved since the invariants were last checked
        self._checked: int | None = None
        self._space_order = {s: i for i, s in enumerate(self.board.index.spaces)}
        self._entering = {e.get("nation") for e in self.entry}
        self._stage = 0                         # the stage being played (STAGES)
        self._place_setup()
        self._flow = self._play()
        self.request: Request | None = next(self._flow)

    # -- GameState -----------------------------------------------------------------------------
    @property
    def current_player(self) -> str | None:
        return None if self._over or self.request is None else self.request.side

    @property
    def phase(self) -> str:
        return PHASES[self._step]

    @property
    def step(self) -> str:
        return self._step

    @property
    def _step(self) -> str:
        return self.__step

    @_step.setter
    def _step(self, step: str) -> None:
        self.__step = step
        self._epoch += 1

    @property
    def round(self) -> int:
        return self._round

    def seats(self) -> list[str]:
        return [self.allies, self.axis]

    def side_of(self, seat: str) -> str:
        return seat

    def legal_actions(self) -> list[Action]:
        if self._over or self.request is None:
            return []
        if self._legal is None:
            self._legal = self.request.options()
        return self._legal

    def is_legal(self, action: Action) -> bool:
        if self._over or self.request is None or not isinstance(action, tuple) or not action:
            return False
        try:
            return ARITY.get(action[0]) == len(action) and bool(self.request.check(action))
        except (TypeError, KeyError, IndexError, ValueError):
            return False

    def apply(self, action: Action) -> None:
        action = ensure_legal(self, action)
        self._applied.append(action)
        self._legal = None
        try:
            self.request = self._flow.send(action)
        except StopIteration:
            self.request = None
            self._over = True

    def is_terminal(self) -> bool:
        return self._over

    def discard(self) -> None:
        self._flow.close()              # the game's generator refers back to it

    def result(self) -> GameResult:
        if self._result is not None:
            return self._result
        return GameResult(None, "in-progress", self._round,
                          scores={self.positive: self.track, self.other(self.positive): -self.track})

    # -- copies --------------------------------------------------------------------------------
    def clone(self) -> WaSGame:
        """A copy of the game. At a request that begins its stage (`Request.restart`: the
        movements, the U-boats, the air-strike markers, the setup, where a search weighs its
        plans) the data is copied and the stage begun again on the copy: under a fifth of a
        millisecond. Elsewhere the turn's generator is in the middle of something a copy
        cannot reach, and the game is played again from its start (a few milliseconds, the
        way engine/game.py's ReplayClone does it)."""
        if self.request is not None and self.request.restart is not None:
            return self._copy_at(self.request.restart)
        return self._replayed()

    def _copy_at(self, stage: int) -> WaSGame:
        """The game's data, with nothing that can change shared (COPIED says what is copied),
        played on from the start of `stage`."""
        twin = object.__new__(WaSGame)
        twin.__dict__.update(self.__dict__)
        vessels = {}
        for name, vessel in self.vessels.items():
            copied = object.__new__(Vessel)
            copied.__dict__.update(vessel.__dict__)
            vessels[name] = copied
        twin.vessels = vessels
        twin.uboats_at = Counter(self.uboats_at)
        twin.markers, twin.control = dict(self.markers), dict(self.control)
        twin.air, twin.no_control = dict(self.air), set(self.no_control)
        twin.points, twin.lost = dict(self.points), dict(self.lost)
        twin.delivered, twin._numbers = dict(self.delivered), dict(self._numbers)
        twin.log, twin._applied = list(self.log), list(self._applied)
        twin.chronicle = self.chronicle.copy()
        twin.rng = copy_generator(self.rng)
        twin.dice = self.dice.copy(twin.rng)
        twin._touched, twin._checked, twin._legal = [], None, None
        twin._flow = twin._play(stage)
        twin.request = next(twin._flow)
        return twin

    def _replayed(self) -> WaSGame:
        """A new game started as this one was, every action played again, the chance reset
        wherever this game's was."""
        variant, state, max_rounds = self._start
        twin = WaSGame(self.system, variant, generator_at(state), max_rounds)
        for entry in self._applied:
            if isinstance(entry, _Reseed):
                twin._restore(entry)
            else:
                twin.apply(entry)
        return twin

    def reseed(self, seed) -> None:
        """Draw the rest of the game's chance anew, the dice drawn ahead included."""
        self._restore(_Reseed(np.random.default_rng(seed).bit_generator.state))

    def _restore(self, reseed: _Reseed) -> None:
        self.rng.bit_generator.state = reseed.state
        self.dice.drop()
        self._applied.append(reseed)

    def standing(self, side: str) -> float:
        """The side's chance to win from here (engine/war_at_sea/standing.py)."""
        if self.is_terminal():
            return super().standing(side)
        return chance_to_win(self, side)

    # -- setting up ------------------------------------------------------------------------------
    def _place_setup(self) -> None:
        scenario = self.system.scenario
        for _, entry in scenario.entities("setup", "spaces"):
            for stack in entry.get("units") or []:
                self._arrive(stack, entry.get("space"), stack.get("owner", entry.get("control")))
        for _, entry in scenario.entities("setup", "reinforcements"):
            self._schedule.setdefault(int(entry.get("turn", 0)), []).append(entry)
            for stack in entry.get("units") or []:
                if self.types.get(stack.get("type")) and self.types[stack["type"]].is_convoy:
                    self.convoy_home = self.convoy_home or entry.get("space")
        if self.convoy_home is None:
            self.convoy_home = next((v.at for v in self.vessels.values() if v.type.is_convoy), None)

    def _arrive(self, stack: dict, space: str, owner: object) -> None:
        """Put a stack of the setup or of the turn track on the map (§4.2-§4.3)."""
        unit = self.types.get(stack.get("type"))
        if unit is None or unit.is_air_unit:
            return                                   # the air unit is the side's marker (§9.1)
        count = int(stack.get("count", 1))
        if unit.is_uboat:
            room = self.uboat_limit - self._uboats()
            placed = min(room, count)
            self.uboats_home += placed
            self.uboat_base = space
            if unit.id in self.variant.banked:       # §18.3: the rest waits for room
                self.uboats_banked += count - placed
            elif count > placed:
                self.log.append(f"turn {self._round}: {count - placed} U-boat(s) lost: at most "
                                f"{self.uboat_limit} (§8.6)")
            return
        nation = owner if isinstance(owner, str) and owner in self.board.index.nations \
            else unit.nation
        for _ in range(count):
            number = 0
            if unit.is_convoy or count > 1 or unit.id in self._numbers:
                number = self._numbers[unit.id] = self._numbers.get(unit.id, 0) + 1
            else:
                self._numbers[unit.id] = 0
            vessel = Vessel(unit, number=number, nation=nation,
                            side=self.board.side_of_nation(nation) or unit.side, at=space,
                            origin=space, at_war=nation not in self._entering,
                            allowed=self.system.allowed_spaces(nation, unit.cls))
            self.vessels[vessel.name] = vessel

    def _uboats(self) -> int:
        return self.uboats_home + sum(self.uboats_at.values())

    # -- the game ------------------------------------------------------------------------------
    def _play(self, start: int = 0) -> Generator[Request, Action, None]:
        """The game from stage `start` of the current turn on. Nothing a stage keeps in its
        local variables outlives it, so a stage begun again on a copy of the data plays on as
        the original does (`clone`)."""
        while True:
            for stage in range(start, len(STAGES)):
                self._stage = stage
                yield from self._play_stage(STAGES[stage])
            if self._round >= self.last:
                self._finish()
                return
            self._round += 1
            start = 1

    def _play_stage(self, stage: str) -> Generator[Request, Action, None]:
        allies, axis = self.allies, self.axis
        if stage == "setup":
            yield from self._setup()
        elif stage == "reinforcements":
            self._begin_turn()
        elif stage in ("allied-movement", "axis-movement"):
            yield from self._movement(allies if stage == "allied-movement" else axis)
            if stage == "axis-movement":
                self.markers = {}                    # §6.3: removed after the Axis moved
        elif stage == "submarines":
            yield from self._submarines()
        elif stage in ("allied-air", "axis-air"):
            yield from self._air_marker(allies if stage == "allied-air" else axis)
        elif stage == "combat":
            yield from self._combat()
        elif stage == "convoys":
            yield from self._convoys()
        elif stage == "sea-control":
            self._sea_control()
        elif stage == "refuel":
            yield from self._refuel()
        elif stage in ("axis-return", "allied-return"):   # §5.7: the Axis first
            yield from self._return(axis if stage == "axis-return" else allies)
        else:
            self._score()

    # §4.3 -----------------------------------------------------------------------------------------
    def _setup(self) -> Generator[Request, Action, None]:
        choices = {c["nation"]: list(c.get("spaces") or []) for c in self.setup_choices}
        if not choices:
            return
        movable = {v.name: [p for p in choices[v.nation] if p != v.at]
                   for v in self.vessels.values() if v.nation in choices and v.at in choices[v.nation]}
        side = next((self.board.side_of_nation(n) for n in choices), self.allies)
        self._step = "setup"
        restart: int | None = self._stage
        while movable:
            action = yield Request(
                side, "setup",
                lambda: [("base", n, p) for n, ps in movable.items() for p in ps] + [END],
                lambda a: a == END or (a[0] == "base" and a[2] in movable.get(a[1], ())),
                restart=restart)
            restart = None
            if action == END:
                return
            self.vessels[action[1]].at = action[2]
            del movable[action[1]]

    # §5.1, §15.4, §16 --------------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        turn = self._round
        self._step = "reinforcements"
        self.no_control = set()
        self.air = {self.allies: None, self.axis: None}
        self.lost = {self.allies: 0, self.axis: 0}
        self.delivered = {self.allies: 0, self.axis: 0}
        for vessel in self.vessels.values():
            vessel.moved = vessel.rolls = vessel.escaped = vessel.sheltered = False
            vessel.origin = vessel.at
        for space, who, _, closed_from in self.board.port_turns:
            if turn == closed_from:                  # §15.4: France closes, its ships are lost
                for vessel in [v for v in self.vessels.values()
                               if v.at == space and (who is None or v.side == who)]:
                    self._remove(vessel, f"is lost when {space} closes (§15.4)")
        if self.fate and turn == int(self.fate.get("turn", 0)):
            self._italian_fleet()
        if self.uboats_banked:                       # §18.3
            room = min(self.uboats_banked, self.uboat_limit - self._uboats())
            self.uboats_home += room
            self.uboats_banked -= room
        for entry in self._schedule.get(turn, []):
            for stack in entry.get("units") or []:
                self._arrive(stack, str(entry.get("space")), stack.get("owner", entry.get("owner")))
        for entry in self.entry:
            nation, start = entry.get("nation"), int(entry.get("turn", 1))
            need = int(entry.get("roll_at_least", 1))
            for vessel in [v for v in self.vessels.values() if v.nation == nation]:
                if entry.get("each_turn"):           # §16.1: each ship, each turn, to sail
                    vessel.at_war = turn >= start
                    vessel.may_sail = vessel.at_war and self._die() >= need
                elif not vessel.at_war and turn >= start:   # §16.2: once, easier each turn
                    easier = int(entry.get("easier_each_turn", 0)) * (turn - start)
                    vessel.at_war = self._die() >= need - easier

    def _italian_fleet(self) -> None:
        """§16.4-§16.5: unless the Axis held the area enough turns in a row, each Italian ship
        rolls: to the Allies, scuttled, or to Germany."""
        if self.best_streak >= int(self.fate.get("consecutive_turns", 4)):
            return
        nation = self.fate.get("nation", "italy")
        allies_at_most = int(self.fate.get("to_allies_at_most", 2))
        scuttled_at_most = int(self.fate.get("scuttled_at_most", 4))
        for vessel in [v for v in self.vessels.values() if v.nation == nation]:
            roll = self._die()
            if roll <= allies_at_most:
                self._change_sides(vessel, self.allies)
            elif roll <= scuttled_at_most:
                self._remove(vessel, "is scuttled (§16.4)")
            else:
                self._change_sides(vessel, self.axis)

    def _change_sides(self, vessel: Vessel, side: str) -> None:
        vessel.nation = self.board.playing.get(side, vessel.nation)
        vessel.allowed = self.system.allowed_spaces(vessel.nation, vessel.type.cls)
        if vessel.side != side:
            vessel.side = side
            if self.board.port_side.get(vessel.at) not in (None, side):
                vessel.at = vessel.origin = self.fate.get("allied_port", vessel.at)
        self.log.append(f"turn {self._round}: {vessel.name} goes to {vessel.nation} (§16.4)")

    # §6, §15 -------------------------------------------------------------------------------------------
    def _movement(self, side: str) -> Generator[Request, Action, None]:
        self._step = "movement"
        blocked = {a for a, s in self.markers.items() if s != side}
        blocked |= {v.at for v in self.vessels.values()
                    if v.side != side and v.at in self.board.points}
        moves = {v.name: self._destinations(v, blocked) for v in self.vessels.values()
                 if v.side == side and v.at_war and v.may_sail}
        moves = {name: dests for name, dests in moves.items() if dests}
        must = {v.name for v in self.vessels.values() if v.side == side and v.staying}

        def options():
            found = [("move", name, dest) for name, dests in moves.items() for dest in dests]
            return found + ([END] if not must & moves.keys() else [])

        def check(action):
            if action == END:
                return not must & moves.keys()
            return action[0] == "move" and action[2] in moves.get(action[1], ())

        restart: int | None = self._stage
        while moves:
            action = yield Request(side, "movement", options, check, moves=moves, restart=restart)
            restart = None
            if action == END:
                break
            vessel = self.vessels[action[1]]
            vessel.rolls = moves.pop(action[1])[action[2]]
            vessel.moved = True
            vessel.staying = vessel.fuelled = False
            self._go(vessel, action[2])
            if vessel.type.is_convoy:               # §13.1: one convoy to an area
                vessel.leg = next(i for i, leg in enumerate(self.route) if leg[0] == action[2])
                for other in self.vessels.values():
                    if (other.type.is_convoy and other.side == side and not other.moved
                            and other.at_war and other.may_sail):
                        moves[other.name] = self._destinations(other, blocked)
                        if not moves[other.name]:
                            del moves[other.name]
        yield from self._speed_rolls(side)
        self._repair(side)
        self._neutral_ports(side)

    def _destinations(self, vessel: Vessel, blocked: set[str]) -> dict[str, bool]:
        """Where a ship may go this turn -> whether it must roll its speed die (§6.1, §6.4,
        §13.1, §14.4, §16)."""
        board, here, turn = self.board, vessel.at, self._round
        allowed = self._allowed(vessel)
        if vessel.type.is_convoy:
            return self._convoy_leg(vessel)
        if here in board.points:
            if not vessel.fuelled:
                return {}
            found = {a: False for a in board.sea_areas if a != here and a in allowed}
            found.update({p: False for p in board.ports if p in allowed
                          and board.port_open(p, vessel.side, turn, self.variant.closed_ports)})
            return found
        first = [a for a in board.adjacent[here] if a in board.points and a in allowed]
        found = dict.fromkeys(first, False)
        for area in first:
            if area in blocked:                      # §6.1: it must stop there
                continue
            for beyond in board.adjacent[area]:
                if beyond in board.points and beyond not in found and beyond in allowed:
                    found[beyond] = self.max_areas >= 2
        return found

    def reach(self, vessel: Vessel) -> dict[str, bool]:
        """Where a ship could go in its side's next movement (for a player's plans): the
        sea-control markers block as they do then; ships that moved this turn do not."""
        blocked = {a for a, s in self.markers.items() if s != vessel.side}
        return self._destinations(vessel, blocked)

    def _convoy_leg(self, vessel: Vessel) -> dict[str, bool]:
        """§13.1: a convoy sails one area at a time along its route, one convoy to an area."""
        taken = {v.at for v in self.vessels.values() if v.type.is_convoy and v is not vessel}
        if vessel.at in self.board.points:
            target = self.route[vessel.leg + 1][0] if vessel.leg + 1 < len(self.route) else None
        else:
            target = self.route[0][0] if self.route and vessel.at == self.convoy_home else None
        if target and target in self.board.adjacent[vessel.at] and target not in taken:
            return {target: False}
        return {}

    def _allowed(self, vessel: Vessel) -> frozenset[str]:
        return vessel.allowed

    def _speed_rolls(self, side: str) -> Generator[Request, Action, None]:
        """§6.1-§6.2: a ship that moved two areas stays only if its die is below its speed;
        otherwise it goes back to its port or into a port next to the second area."""
        failed = {}
        for vessel in [v for v in self.vessels.values() if v.side == side and v.rolls]:
            if self._die() < vessel.speed(self.combat_rules.minimum_speed):
                continue
            ports = [p for p in self.board.adjacent[vessel.at] if p in self.board.port_side
                     and self._may_dock(vessel, p)]
            if vessel.origin not in ports:
                ports.insert(0, vessel.origin)
            failed[vessel.name] = ports
        self._step = "withdraw"
        yield from self._choose_ports(side, failed, "withdraw", sheltered=True)

    def _may_dock(self, vessel: Vessel, port: str) -> bool:
        return (port in self._allowed(vessel)
                and self.board.port_open(port, vessel.side, self._round, self.variant.closed_ports))

    def _choose_ports(self, side: str, pending: dict[str, list[str]], verb: str,
                      sheltered: bool) -> Generator[Request, Action, None]:
        """Each ship goes to one of its ports; the side chooses where there is a choice; a ship
        with nowhere to go is lost (§12.3)."""
        for name, ports in list(pending.items()):
            if len(ports) <= 1:
                del pending[name]
                if ports:
                    self._dock(self.vessels[name], ports[0], sheltered)
                else:
                    self._remove(self.vessels[name], "has no port to go back to (§12.3)")
        while pending:
            action = yield Request(
                side, self._step,
                lambda: [(verb, n, p) for n, ps in pending.items() for p in ps],
                lambda a: a[0] == verb and a[2] in pending.get(a[1], ()))
            self._dock(self.vessels[action[1]], action[2], sheltered)
            del pending[action[1]]

    def _go(self, vessel: Vessel, space: str) -> None:
        self._touched.append(vessel)
        if space in self.board.port_side:
            self._dock(vessel, space, False)
        else:
            vessel.at = space

    def _dock(self, vessel: Vessel, port: str, sheltered: bool) -> None:
        back = vessel.rolls and port == vessel.origin     # §15.6: back where it set out from
        self._touched.append(vessel)
        vessel.at = port
        vessel.disabled = vessel.escaped = vessel.fuelled = vessel.staying = False
        vessel.sheltered = vessel.sheltered or sheltered
        if self.board.port_side.get(port, "?") is None:
            if not (back and vessel.neutral_since):
                vessel.neutral_since = self._round
        else:
            vessel.neutral_since = 0
        if vessel.type.is_convoy:
            vessel.leg = -1

    def _repair(self, side: str) -> None:
        """§15.1-§15.2: ships that stayed in port share its repair value; the most damaged
        first among those whose damage leaves them crippled, then by gunnery."""
        staying: dict[str, list[Vessel]] = {}
        for vessel in self.vessels.values():
            if (vessel.side == side and not vessel.moved and vessel.damage
                    and vessel.at in self.board.repair):
                staying.setdefault(vessel.at, []).append(vessel)
        for port, ships in staying.items():
            left = self.board.repair[port]
            for vessel in sorted(ships, key=lambda v: (v.damage < v.type.armour, -v.type.gunnery,
                                                       v.name)):
                mended = min(left, vessel.damage)
                vessel.damage -= mended
                left -= mended

    def _neutral_ports(self, side: str) -> None:
        """§15.6: a ship must leave a neutral port the turn after it came in, or its side loses
        a point for it (§18.6: it is interned instead)."""
        for vessel in [v for v in self.vessels.values() if v.side == side and v.neutral_since
                       and v.neutral_since < self._round
                       and self.board.port_side.get(v.at, "?") is None]:
            if vessel.at in self.variant.internment:
                self.lost[side] += self.variant.internment[vessel.at]
                self._remove(vessel, f"is interned in {vessel.at} (§18.6)")
            else:
                self.lost[side] += self.neutral_penalty

    # §8.1 ------------------------------------------------------------------------------------------
    def _submarines(self) -> Generator[Request, Action, None]:
        self._step = "submarines"
        areas = [a for a in self.board.sea_areas
                 if a in self.system.allowed_spaces(self.types[self.uboat_type].nation,
                                                    self.types[self.uboat_type].cls)]
        restart: int | None = self._stage
        while self.uboats_home:
            action = yield Request(self.axis, "submarines",
                                   lambda: [("deploy", a) for a in areas] + [END],
                                   lambda a: a == END or (a[0] == "deploy" and a[1] in areas),
                                   restart=restart)
            restart = None
            if action == END:
                return
            self.uboats_home -= 1
            self.uboats_at[action[1]] += 1

    # §9.1 -----------------------------------------------------------------------------------------
    def _air_marker(self, side: str) -> Generator[Request, Action, None]:
        self._step = "air"
        tag = self.board.air.get(side, (None, 0))[0]
        spaces = [s for s in self.board.index.spaces if tag in self.board.tags[s]]
        if not spaces:
            return
        action = yield Request(side, "air", lambda: [("air", s) for s in spaces] + [END],
                               lambda a: a == END or (a[0] == "air" and a[1] in spaces),
                               restart=self._stage)
        if action != END:
            self.air[side] = action[1]

    # §7 ----------------------------------------------------------------------------------------------
    def _combat(self) -> Generator[Request, Action, None]:
        """§7.1: each kind of combat everywhere before the next kind; a battle in one space
        changes nothing in another of the same kind, so the spaces are found once per kind."""
        for kind in ("anti-submarine", "air-strike", "surface"):
            waiting = self._battle_spaces(kind)
            while waiting:
                where = waiting[0]
                if len(waiting) > 1:                 # §7.1: the Axis chooses the order
                    self._step = "battle-order"
                    action = yield Request(self.axis, "battle-order",
                                           *_fixed([("battle", s) for s in waiting]))
                    where = action[1]
                waiting.remove(where)
                yield from getattr(self, "_" + kind.replace("-", "_"))(where)

    def _at(self, space: str, side: str) -> list[Vessel]:
        return [v for v in self.vessels.values() if v.at == space and v.side == side]

    def _where(self) -> dict[str, dict[str, list[Vessel]]]:
        """Space -> side -> the ships there."""
        found: dict[str, dict[str, list[Vessel]]] = {}
        for vessel in self.vessels.values():
            found.setdefault(vessel.at, {}).setdefault(vessel.side, []).append(vessel)
        return found

    def _battle_spaces(self, kind: str) -> list[str]:
        where = self._where()
        if kind == "anti-submarine":
            return [a for a in self.board.sea_areas
                    if self.uboats_at[a] and self.allies in where.get(a, ())]
        if kind == "surface":
            return [a for a in self.board.sea_areas if len(where.get(a, ())) == 2]
        found = []
        for space, ships in where.items():
            if self.board.port_side.get(space, "?") is None:
                continue                             # §15.5: no air strike in a neutral port
            for side in (self.allies, self.axis):
                value = (self.board.air[side][1] if self.air.get(side) == space else 0)
                if space in self.board.points:
                    value += sum(v.air_strike() for v in ships.get(side, ()) if v.type.is_carrier)
                if value and any(not v.sheltered for v in ships.get(self.other(side), ())):
                    found.append(space)
                    break
        return sorted(found, key=self._space_order.__getitem__)

    def _battle(self, space: str, ships: dict, markers: dict[str, int]) -> Battle:
        return Battle(self.combat_rules, ships, markers, space in self.board.points, self.dice)

    def _anti_submarine(self, area: str) -> Generator[Request, Action, None]:
        """§8.2-§8.5: one round; sunk U-boats are gone, disabled ones go home."""
        boats = [Ship(self.types[self.uboat_type], number=n + 1) for n in range(self.uboats_at[area])]
        battle = self._battle(area, {self.allies: self._at(area, self.allies), self.axis: boats}, {})
        battle.anti_submarine(self.allies)
        sunk = sum(1 for b in boats if b.sunk)
        home = sum(1 for b in boats if b.disabled)
        self.uboats_at[area] -= sunk + home
        self.uboats_home += home
        self.log.append(f"turn {self._round} {area}: " + "; ".join(battle.events))
        yield from self._after_battle(area)

    def _air_strike(self, space: str) -> Generator[Request, Action, None]:
        markers = {side: self.board.air[side][1] for side in (self.allies, self.axis)
                   if self.air.get(side) == space}
        battle = self._battle(space, {side: self._at(space, side) for side in (self.allies, self.axis)},
                              markers)
        battle.air_strikes([self.allies, self.axis])
        self.log.append(f"turn {self._round} {space}: " + "; ".join(battle.events))
        yield from self._after_battle(space)

    def _surface(self, area: str) -> Generator[Request, Action, None]:
        """§10-§11: the players make the battle's choices."""
        sides = (self.allies, self.axis)
        ships = {side: self._at(area, side) for side in sides}
        sizes = {side: len(ships[side]) for side in sides}
        battle = self._battle(area, ships, {})
        engagement = battle.engagement(list(sides))
        self._step = "surface"
        try:
            decision = next(engagement)
            while True:
                action = yield Request(decision.side, "surface", *_fixed(decision.options),
                                       decision, area)
                decision = engagement.send(action)
        except StopIteration as stop:
            end: BattleEnd = stop.value
        if end.pursuers_lost:
            self.no_control.add(area)                # §11.2
        self.log.append(f"turn {self._round} {area}: " + "; ".join(battle.events))
        left = {side: [v for v in ships[side] if v.in_battle and not v.escaped] for side in sides}
        winner = (next(s for s in sides if left[s]) if sum(bool(x) for x in left.values()) == 1
                  and not end.pursuers_lost else "none")
        self.chronicle.battle(self._round, area, self.allies, self.axis, sizes[self.allies],
                              sizes[self.axis], winner)
        yield from self._after_battle(area)

    def _after_battle(self, space: str) -> Generator[Request, Action, None]:
        """Sunk ships leave the game; disabled ones go to port at once (§7.3, §15.5)."""
        for vessel in [v for v in self.vessels.values() if v.at == space and v.sunk]:
            self._remove(vessel, "is sunk")
        self._step = "disabled"
        for side in (self.axis, self.allies):
            disabled = [v for v in self._at(space, side) if v.disabled]
            if space not in self.board.points:       # struck in port: it is there already
                for vessel in disabled:
                    vessel.disabled, vessel.sheltered = False, True
                continue
            pending = {v.name: self._home_ports(v, disabled=True) for v in disabled}
            yield from self._choose_ports(side, pending, "withdraw", sheltered=True)
        self._step = "surface"

    def _home_ports(self, vessel: Vessel, disabled: bool) -> list[str]:
        if vessel.type.is_convoy and disabled and self.convoy_home:
            return [self.convoy_home]                # §13.4: back to the United States
        return self.board.return_ports(vessel.at, vessel.nation, vessel.type.cls, vessel.side,
                                       disabled, self._round, self.variant.closed_ports)

    # §13 ------------------------------------------------------------------------------------------------
    def _convoys(self) -> Generator[Request, Action, None]:
        """§13.2-§13.4: a convoy that survived on its route scores at the route's port, or
        stays for the next leg; on the last leg it must go in."""
        self._step = "convoys"
        for vessel in [v for v in self.vessels.values() if v.type.is_convoy and v.at in self.board.points]:
            leg = next((i for i, r in enumerate(self.route) if r[0] == vessel.at), None)
            if leg is None:
                continue
            may_stay = (leg + 1 < len(self.route)
                        and self.route[leg + 1][0] in self.board.adjacent[vessel.at])
            choice = ("deliver", vessel.name)
            if may_stay:
                choice = yield Request(self.allies, "convoys",
                                       *_fixed([("deliver", vessel.name), ("stay", vessel.name)]),
                                       where=vessel.at)
            if choice[0] == "stay":
                vessel.staying = True
                continue
            _, port, points = self.route[leg]
            self.delivered[vessel.side] += points
            self.chronicle.payout(self._round, f"convoy delivered to {self._name(port)} (§13)",
                                  vessel.side, points)
            self._remove(vessel, f"reaches {port} and scores {points} (§13)")

    # §12 --------------------------------------------------------------------------------------------------
    def _sea_control(self) -> None:
        """§12.1: surface ships that did not escape hold an area; surviving U-boats deny the
        Allies; nobody holds an area whose pursuers were all sunk or disabled (§11.2)."""
        self._step = "sea-control"
        before = self.control
        self.control = {}
        present: dict[str, set[str]] = {}
        for vessel in self.vessels.values():
            if vessel.at in self.board.points and not vessel.escaped:
                present.setdefault(vessel.at, set()).add(vessel.side)
        for area in self.board.sea_areas:
            sides = present.get(area, set())
            if len(sides) != 1 or area in self.no_control:
                continue
            (side,) = sides
            if side == self.allies and self.uboats_at[area]:
                continue
            self.control[area] = side
        for area in self.board.sea_areas:
            if before.get(area) != self.control.get(area):
                self.chronicle.capture(self._round, area, before.get(area), self.control.get(area))
        self.markers = dict(self.control)
        fate_area = self.fate.get("space")
        self.streak = self.streak + 1 if fate_area and self.control.get(fate_area) == self.axis else 0
        self.best_streak = max(self.best_streak, self.streak)

    # §14 ---------------------------------------------------------------------------------------------------
    def _refuel(self) -> Generator[Request, Action, None]:
        """§14.1-§14.4: German warships in the Atlantic may roll, one after another, to stay
        at sea; a failure sends the ship into the neutral port."""
        self._step = "refuel"
        for vessel in self.vessels.values():
            vessel.fuelled = False
        need = (self.refuelling.get("success_at_most") or {}).get(str(self._round))
        if need is None:
            return
        nation = self.refuelling.get("nation")
        spaces = set(self.refuelling.get("spaces") or [])
        fail_port = self.refuelling.get("failure_port")
        may = {v.name for v in self.vessels.values()
               if v.nation == nation and v.at in spaces and v.type.is_warship
               and (not v.escaped or v.nation in self.variant.refuel_after_escape)}
        side = self.board.side_of_nation(nation) if nation else self.axis
        while may:
            action = yield Request(side, "refuel", lambda: [("refuel", n) for n in may] + [END],
                                   lambda a: a == END or (a[0] == "refuel" and a[1] in may))
            if action == END:
                return
            may.discard(action[1])
            vessel = self.vessels[action[1]]
            if self._die() <= int(need):
                vessel.fuelled = True
            elif fail_port:
                self._dock(vessel, fail_port, False)

    # §12.3 ---------------------------------------------------------------------------------------------------
    def _return(self, side: str) -> Generator[Request, Action, None]:
        self._step = "return"
        if side == self.axis:                        # §8.5: every U-boat goes home
            self.uboats_home += sum(self.uboats_at.values())
            self.uboats_at = Counter()
        pending = {v.name: self._home_ports(v, disabled=False) for v in self.vessels.values()
                   if v.side == side and v.at in self.board.points
                   and not v.fuelled and not v.staying}
        yield from self._choose_ports(side, pending, "return", sheltered=False)

    # §17 -------------------------------------------------------------------------------------------------------
    def _score(self) -> None:
        self._step = "scoring"
        held = {self.allies: 0, self.axis: 0}
        for area, side in self.control.items():
            held[side] += self.board.points[area][side]
        self.points = {side: held[side] + self.delivered[side] - self.lost[side] for side in held}
        other = self.other(self.positive)
        low, high = self.track_range
        self.track = max(low, min(high, self.track + self.points[self.positive] - self.points[other]))
        for side in (self.allies, self.axis):
            self.chronicle.record("points", side, self._round, self.points[side])
            self.chronicle.record("sea-areas", side, self._round,
                                  sum(1 for s in self.control.values() if s == side))
            self.chronicle.record("ships", side, self._round,
                                  sum(1 for v in self.vessels.values() if v.side == side))
            if self.lost[side]:
                self.chronicle.payout(self._round, "ships left in a neutral port (§15.6)", side,
                                      -self.lost[side])
        self.chronicle.record("score-track", self.positive, self._round, self.track)

    def _finish(self) -> None:
        """§17.4: after the last turn the marker's sign decides (the scenario's `victory`)."""
        self._step = "over"
        scores = {self.positive: float(self.track), self.other(self.positive): float(-self.track)}
        if self._round < self.turns:
            self._result = GameResult(None, "round-limit", self._round, scores=scores)
            return
        position = Position(control=dict(self.control), units={}, sides={
            n: s for n in self.board.index.nations if (s := self.board.side_of_nation(n))},
            resources={(self.positive, "score-track"): self.track}, turn=self._round)
        for entry in self.system.scenario.manifest.get("victory") or []:
            if isinstance(entry, dict) and evaluate(entry.get("when") or {}, position).met:
                self._result = GameResult(entry.get("side"), str(entry.get("id", "victory")),
                                          self._round, scores=scores)
                return
        self._result = GameResult(None, "no-victory-condition", self._round, scores=scores)

    # -- helpers ---------------------------------------------------------------------------------------------
    def _die(self) -> int:
        return self.dice.one()

    def _name(self, space: str) -> str:
        return str(self.board.index.spaces[space].data.get("name", space))

    def other(self, side: str) -> str:
        return self.axis if side == self.allies else self.allies

    def _remove(self, vessel: Vessel, why: str) -> None:
        self.vessels.pop(vessel.name, None)
        self.log.append(f"turn {self._round}: {vessel.name} {why}")

    # -- what a side sees -----------------------------------------------------------------------------------
    def hidden_from(self, viewer: str) -> bool:
        """§18.2: the other side's ships are face down during the phase the variant names."""
        return any(side != viewer and phase == self.phase for side, phase in self.variant.hidden)

    def seen(self, viewer: str, space: str) -> list[Vessel] | int:
        """The other side's ships in a space as `viewer` sees them: the ships, or only how many
        when they are face down (§18.2)."""
        ships = self._at(space, self.other(viewer))
        return len(ships) if self.hidden_from(viewer) else ships

    # -- checks ----------------------------------------------------------------------------------------------------
    def invariants(self) -> Iterable[str]:
        """Broken rules of the position. Every ship is checked whenever a step has begun since
        the last check; within one step (a run of moves or returns) the ships that moved are."""
        broken: list[str] = []
        if self._epoch != self._checked:
            ships = list(self.vessels.values())
            self._checked = self._epoch
            self._check_globals(broken)
        else:
            ships = [v for v in self._touched if self.vessels.get(v.name) is v]
        self._touched = []
        fighting = self._step == "surface"          # the sunk leave when the battle ends
        enemy_ports = self.system.enemy_ports
        for vessel in ships:
            at = vessel.at
            if vessel.sunk and not fighting:
                broken.append(f"{vessel.name} is sunk but still on the map")
            if at not in vessel.allowed:
                broken.append(f"{vessel.name} ({vessel.nation}) is in {at}: "
                              + str(self.board.limit_against(vessel.nation, vessel.type.cls, at)))
            if at in enemy_ports[vessel.side]:
                broken.append(f"{vessel.name} is in the enemy port {at} (§2.2)")
            if vessel.damage > vessel.type.armour and not vessel.sunk or vessel.damage < 0:
                broken.append(f"{vessel.name} carries {vessel.damage} damage with armour "
                              f"{vessel.type.armour}")
            if vessel.disabled and not fighting and self._step != "disabled":
                broken.append(f"{vessel.name} is disabled outside a battle")
        if not self._over and not self.legal_actions():
            broken.append(f"{self.current_player} has no legal action in step {self._step}")
        return broken

    def _check_globals(self, broken: list[str]) -> None:
        board = self.board
        for name, vessel in self.vessels.items():
            if vessel.name != name:
                broken.append(f"{vessel.name} is kept as {name}")
        convoys = Counter(v.at for v in self.vessels.values()
                          if v.type.is_convoy and v.at in board.points)
        if any(n > 1 for n in convoys.values()):
            broken.append(f"two convoys share an area (§13.1): {dict(convoys)}")
        if (self._uboats() > self.uboat_limit or self.uboats_home < 0
                or min(self.uboats_at.values(), default=0) < 0):
            broken.append(f"{self._uboats()} U-boat flotillas in play, at most "
                          f"{self.uboat_limit} (§8.6)")
        low, high = self.track_range
        if not low <= self.track <= high:
            broken.append(f"the score marker is at {self.track}, off the track (§17.2)")
        for side, space in self.air.items():
            if space is not None and board.air[side][0] not in board.tags[space]:
                broken.append(f"{side}'s air marker is in {space}, where it may not go (§9.1)")
        if self._round > self.last:
            broken.append(f"the game went on past turn {self.last}")
