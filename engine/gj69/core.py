"""The state of a GJ69 game and what every part of it shares: the GameState interface, the
decisions (`ask`), losses and VP, and the position conditions are evaluated on.

A game is one generator of steps (game.py): wherever a player decides, a step yields a
`Decision`, (seat, step name, legal actions), and receives the chosen action. `Steps` is the
type of such a generator; a step that works something out returns it at the end.
"""
from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace

import numpy as np

from validators.conditions import Stack, evaluate

from ..game import Action, Chronicle, GameResult, GameState, ensure_legal
from ..system import EngineError
from .board import Forces
from .cards import Deck, Order, Slot
from .damage import USED
from .movement import Movement
from .settings import Rules

Decision = tuple[str, str, list[Action]]
Steps = Generator[Decision, Action, None]


@dataclass
class OilField:
    value: float
    exposed_by: str | None = None     # the side that turned it over (§19 Oil Field Demolition)
    destroyed: bool = False


@dataclass
class Group:
    """Units of one area acting together (§6.2)."""

    side: str
    area: str
    units: dict[tuple[str, str], int]
    slot: Slot
    again: int = 0                    # actions left that act_again granted
    kind: str | None = None           # the kind its next action must be
    granted: bool = False             # it drew on act_again (a group draws once, §19 Hinode)



class GameCore(GameState):
    """A game's state; the turn (game.py), the groups (groups.py) and the scoring (scoring.py)
    are its parts."""

    _flow: Steps

    def __init__(self, system, rules: Rules, rng: np.random.Generator, max_rounds: int | None):
        self.system, self.rules, self.rng = system, rules, rng
        self.board = system.board
        self.profiles = system.profiles_for(rules)
        self.sides = list(system.sides)
        self.movement = Movement(self.board, self.profiles, self.sides, rules.fortress(),
                                 rules.confinement())
        self.forces: Forces = system.starting_forces()
        self.oil = {area: OilField(value) for area, value in system.draw_oil_fields(rng).items()}
        self.decks = {side: Deck(sorted(cards), system.hand_sizes.get(side, 0))
                      for side, cards in system.decks.items()}
        self.vp = {side: 0.0 for side in self.sides}
        self.turn = 1
        self.last_turn = rules.last_turn if max_rounds is None else min(rules.last_turn, max_rounds)
        self.cut_short = self.last_turn < rules.last_turn
        self.chronicle = Chronicle()
        self.plays: dict[str, int] = {}             # card -> times played (any way)
        self.retreating: dict[str, int] = {}        # units on their way to a retreat area
        self.playing: str | None = None             # the card whose action is being carried out
        self.order: Order | None = None             # the groups of the action being taken
        self.group: Group | None = None             # the group choosing units or acting
        self.slot: Slot | None = None               # the slot whose group is being chosen
        self.slot_kinds: frozenset = frozenset()
        self.reserved: dict | None = None
        self.effect: dict | None = None             # the card operation being carried out
        self.reaction_area: str | None = None       # where a reaction card would strike
        self._order_kind: str | None = None
        self._again_left = 0
        self.actions_taken: list[int] = []          # actions of each group of the order so far
        self._phase = "setup"
        self._step = ""
        self._seat: str | None = None
        self._actions: list[Action] = []
        self._legal: set | None = None
        self._any_cache: dict = {}
        self._any_version = -1
        self._eligible_cache: dict = {}         # area -> (its change stamp, key -> units)
        self._supplied: dict = {}
        self._domain = {u: p.domain for u, p in self.profiles.items()}
        self._moves = {u: p.movement > 0 for u, p in self.profiles.items()}
        self._flies = {u: p.flies for u, p in self.profiles.items()}
        self._over = False
        self.counters = self.forces.total()             # every counter in play, for invariants
        self.invariant_cache: tuple = (None, [])
        self.deck_cards = {side: deck.all_cards() for side, deck in self.decks.items()}
        self.permanent = {a: self.forces.control[a] for a in self.board.ids
                          if self.board.areas[a].permanent and a in self.forces.control}
        self._holiday_control = self._fortress_control()
        self._held_since_holiday = self._holders_now()

    # -- the GameState interface ---------------------------------------------------------------
    @property
    def current_player(self) -> str | None:
        return None if self._over else self._seat

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def step(self) -> str:
        """The decision being asked inside the phase (see the module's docstring)."""
        return self._step

    @property
    def round(self) -> int:
        return self.turn

    def seats(self) -> list[str]:
        return list(self.sides)

    def side_of(self, seat: str) -> str:
        return seat

    def legal_actions(self) -> list[Action]:
        return list(self._actions)

    def is_legal(self, action) -> bool:
        if self._legal is None:
            self._legal = set(self._actions)
        try:
            return action in self._legal
        except TypeError:
            return False

    def apply(self, action) -> None:
        action = ensure_legal(self, action)
        self._advance(action)

    def is_terminal(self) -> bool:
        return self._over

    def discard(self) -> None:
        self._flow.close()              # the turn's generator refers back to the game

    def result(self) -> GameResult:
        scores = dict(self.vp)
        if not self._over:
            return GameResult(None, "in-progress", self.turn, scores=scores)
        if self.cut_short:
            return GameResult(None, "round-limit", self.turn, scores=scores)
        position = self.position()
        for _, victory in self.system.scenario.entities("scenario", "victory"):
            if isinstance(victory.get("when"), dict) and evaluate(victory["when"], position).met:
                return GameResult(victory.get("side"), "victory-points", self.turn, scores=scores)
        return GameResult(None, "victory-points", self.turn, scores=scores)

    def _advance(self, action) -> None:
        try:
            decision = next(self._flow) if action is None else self._flow.send(action)
        except StopIteration:
            self._over, self._seat, self._actions, self._step = True, None, [], ""
            self._legal = None
            return
        self._seat, self._step, self._actions = decision
        self._legal = None

    def ask(self, seat: str, step: str, actions: list[Action]) -> Generator[Decision, Action, Action]:
        """The decision of `seat`: the action it chooses among `actions` (taken at once when
        there is only one)."""
        if not actions:
            raise EngineError(f"no legal action for {seat} at {step}: a rules bug")
        if len(actions) == 1:
            return actions[0]
        return (yield (seat, step, actions))

    # -- helpers shared with the operations and players ----------------------------------------
    def enemy(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def supplied(self, side: str) -> frozenset[str]:
        """Areas with a line of communication for `side` (§13), kept until the map changes."""
        key = (side, self.forces.version)
        found = self._supplied.get(key)
        if found is None:
            self._supplied = {k: v for k, v in self._supplied.items() if k[1] == self.forces.version}
            found = self._supplied[key] = frozenset(self.movement.supplied(self.forces, side))
        return found

    def recovering(self, side: str) -> frozenset[str]:
        """Areas where the side's units turn ready at the end of the turn: those with a line of
        communication (§12), and the supply leader's area wherever it is (§16.2(1)②)."""
        areas = self.supplied(side)
        leader = self.rules.leader()
        if leader and leader.get("recover_at_end_of_turn") == "all" \
                and self.profiles.get(leader["type"]) and self.profiles[leader["type"]].side == side:
            areas |= frozenset(self.forces.where(leader["type"]))
        return areas

    def drop_zones(self, unit: str, source: str) -> list[str]:
        """Areas an airborne unit may be placed in (§19 Divine Soldiers): any other area it may
        be in, with room for it (§7.4)."""
        side = self.profiles[unit].side
        return [a for a in self.board.ids if a != source and self.movement.unit_may_be(unit, a)
                and self.movement.room(self.forces, a, side, 1 if self.board.areas[a].land else 0, 0)]

    def fires_here(self, unit: str, area: str, side: str) -> bool:
        """§8.0(2): land units attack in land areas, air units in land areas their side
        controls, ships in sea areas."""
        domain = self.profiles[unit].domain
        land = self.board.areas[area].land
        if domain == "land":
            return land
        if domain == "air":
            return land and self.forces.control.get(area) == side
        return not land

    def eliminate(self, area: str, unit: str, face: str, card: str | None = None) -> None:
        """A unit on the map goes to the replacement pool."""
        self.forces.take(area, unit, face)
        self.lose({unit: 1}, card)

    def lose(self, units: dict[str, int], card: str | None = None) -> None:
        """Units sent to their side's replacement pool, and the VP that pays: the enemy scores
        `loss_vp` for units of the side the rules name (§15.0(1)②), a unit with an
        elimination_vp scores its side, unless the card named removed it (§16.2(3))."""
        pools = self.system.replacement_pools
        elimination = self.rules.elimination_vp()
        for unit, n in sorted(units.items()):
            if not n:
                continue
            profile = self.profiles[unit]
            self.forces.to_pool(pools.get(profile.side, f"{profile.side}-replacements"), unit, n)
            amount = self.loss_vp_of(unit) * n
            if amount:
                self._score(self.enemy(profile.side), amount,
                            f"{self.system.name_of(profile.side)} units lost (§15.0(1)②)")
            change = elimination.get(unit)
            if change and card not in (change.get("cards") or []):
                self._score(change["side"], float(change["amount"]) * n,
                            f"{self.system.name_of(unit)} eliminated (§16.2(3))")

    def loss_vp_of(self, unit: str) -> float:
        """The VP the enemy scores when a unit of this type goes to the pool (§15.0(1)②)."""
        profile = self.profiles[unit]
        return self.system.loss_vp.get((profile.side, profile.durability), 0.0)

    def note_off_guard(self, area: str, side: str, lost: dict[str, int], before: dict) -> None:
        """The chronicle's blunder for the side's units `lost` in the area (`before`: its
        (type, face) counts there when the attack began) that their side could not guard: land
        units at sea, which one point sinks (§11.31(2)), and air units struck while used, which
        one point sends to the pool (§11.32)."""
        at_sea = not self.board.areas[area].land
        count, vp = 0, 0.0
        for unit, n in lost.items():
            profile = self.profiles[unit]
            if profile.domain == "land" and at_sea:
                off = n
            elif profile.domain == "air":
                off = min(n, before.get((unit, USED), 0))
            else:
                continue
            count += off
            vp += off * self.loss_vp_of(unit)
        self.note_lost_off_guard(side, count, vp)

    def note_lost_off_guard(self, side: str, count: int, vp: float) -> None:
        """`count` units of the side lost off guard, worth `vp` to the enemy (also ships sunk
        by Submarines with no destroyer of theirs there, operations.py)."""
        if count:
            self.chronicle.blunder(self.turn, "lost-off-guard", side, count)
            self.chronicle.blunder(self.turn, "lost-off-guard-vp", side, vp)

    def _use_card(self, side: str, card: str, face_down: bool = False) -> None:
        """§5.2(4): a used card is discarded; a card face up that says so is removed (§19)."""
        removed = self.system.cards[card].removed_after_use and not face_down
        self.decks[side].use(card, removed)
        self.plays[card] = self.plays.get(card, 0) + 1

    def _score(self, side: str, amount: float, why: str) -> None:
        self.vp[side] = self.vp.get(side, 0.0) + amount
        self.chronicle.payout(self.turn, why, side, amount)

    def _fortress_control(self) -> dict[str, str]:
        """Fortress area -> who holds it (§16.1, for the holidays of §17.3)."""
        return {a: self.forces.control[a] for a in self.board.ids
                if self.board.areas[a].fortress and a in self.forces.control}

    def _holders_now(self) -> dict[str, set[str]]:
        return {a: {holder} for a, holder in self._fortress_control().items()}

    # -- positions for conditions ----------------------------------------------------------------
    def position(self):
        """The game as validators/conditions.py sees a position (objectives and victory)."""
        units: dict[str, list[Stack]] = {}
        for area, stacks in self.forces.units.items():
            totals: dict[str, int] = {}
            for (unit, _), n in stacks.items():
                if n:
                    totals[unit] = totals.get(unit, 0) + n
            if totals:
                units[area] = [Stack(self.profiles[u].owner, u, n) for u, n in sorted(totals.items())]
        return replace(self.system.base_position, control=dict(self.forces.control), units=units,
                       options=dict(self.rules.options),
                       resources={(side, "vp"): value for side, value in self.vp.items()},
                       turn=self.turn, phase=self._phase)

    # -- invariants ------------------------------------------------------------------------------
    def invariants(self) -> list[str]:
        from .invariants import broken
        return broken(self)
