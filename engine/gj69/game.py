"""A whole game of GJ69 Southern Operation 1941, behind engine/game.py's GameState.

The game is written as the rules read, one generator (`_game`) that follows the turn (§4.0):
optional units enter (§17.2), each side chooses its hand (§5.1), the sides take impulses in turn
until two passes in a row (§4.0(2)-(3), §6), then the end of turn: oil-field destruction,
recovery, discard, victory points (§4.0(4), §12, §15). Wherever a player decides, the generator
yields (seat, step, legal actions) and `apply` sends the chosen action back in. A decision with
one legal action is taken without asking: a player with no card and no ready air unit passes
(§4.0(3)), a unit with one retreat area retreats there.

Seats are the two sides. Steps inside an impulse: `impulse` (pass, a normal action with a card
face down, an air operation, or a card action), `group-area` and `group-units` (§6.2: an area,
then its ready units one at a time), `action` (move, attack, air attack, air move, sea
transport, each with its target), `react` (the enemy's reaction card, §10), `retreat` (§11.5),
`again` (act_again) and the steps of the card operations (operations.py).
"""
from __future__ import annotations

from typing import Iterator

import numpy as np

from validators.conditions import evaluate

from ..game import Action, Chronicle, GameResult, GameState, ensure_legal
from ..system import EngineError
from .board import Forces
from .cards import Deck, Order, Play, Slot
from .damage import READY, USED
from .groups import Group, GroupActions
from .movement import Movement
from .operations import OPERATIONS
from .scoring import OilField, Scoring
from .settings import Rules

IMPULSE_LIMIT = 200     # impulses in one turn: a guard, far above what the cards allow (see docs)
AIR_SLOT = Order.air().slots[0]
NORMAL_SLOT = Order.normal().slots[0]


class GJ69Game(GroupActions, Scoring, GameState):
    """One game; the group actions (groups.py) and the end-of-turn scoring (scoring.py) are
    parts of it."""

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
        self._phase = "setup"
        self._step = ""
        self._seat: str | None = None
        self._actions: list[Action] = []
        self._legal: set | None = None
        self._any_cache: dict = {}
        self._supplied: dict = {}
        self._domain = {u: p.domain for u, p in self.profiles.items()}
        self._moves = {u: p.movement > 0 for u, p in self.profiles.items()}
        self._flies = {u: p.flies for u, p in self.profiles.items()}
        self._over = False
        self.counters = self.forces.total()             # every counter in play, for invariants
        self.invariant_cache: tuple = (None, [])
        self.deck_cards = {side: deck.all_cards() for side, deck in self.decks.items()}
        self.permanent = {a: self.forces.control.get(a) for a in self.board.ids
                          if self.board.areas[a].permanent}
        self._holiday_control = self._fortress_control()
        self._held_since_holiday = self._holders_now()
        self._flow = self._game()
        self._advance(None)

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
        self._any_cache.clear()

    def ask(self, seat: str, step: str, actions: list[Action]) -> Iterator:
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

    def supplied(self, side: str) -> set[str]:
        """Areas with a line of communication for `side` (§13), kept until the map changes."""
        key = (side, self.forces.version)
        found = self._supplied.get(key)
        if found is None:
            self._supplied = {k: v for k, v in self._supplied.items() if k[1] == self.forces.version}
            found = self._supplied[key] = frozenset(self.movement.supplied(self.forces, side))
        return found

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
            amount = self.system.loss_vp.get((profile.side, profile.durability), 0.0) * n
            if amount:
                self._score(self.enemy(profile.side), amount,
                            f"{self.system.name_of(profile.side)} units lost (§15.0(1)②)")
            change = elimination.get(unit)
            if change and card not in (change.get("cards") or []):
                self._score(change["side"], float(change["amount"]) * n,
                            f"{self.system.name_of(unit)} eliminated (§16.2(3))")

    def _score(self, side: str, amount: float, why: str) -> None:
        self.vp[side] = self.vp.get(side, 0.0) + amount
        self.chronicle.payout(self.turn, why, side, amount)

    # -- the turn (§4.0) -----------------------------------------------------------------------
    def _game(self) -> Iterator:
        while True:
            self._phase = "place-units"
            yield from self._place_units()
            self._phase = "choose-cards"
            yield from self._choose_hands()
            self._phase = "impulses"
            yield from self._impulses()
            self._phase = "end-of-turn"
            self._end_of_turn()
            if self.turn >= self.last_turn:
                if not self.cut_short:
                    self._end_of_game()
                return
            self.turn += 1

    def _place_units(self) -> Iterator:
        """§17.2: optional units enter at the start of their turn, in a sea area their side
        controls (without enemy ships, for Hiryu and Soryu)."""
        for change in self.rules.placements(self.turn):
            for unit in change.get("types") or []:
                if unit not in self.profiles:
                    continue
                side = self.profiles[unit].side
                enemy = self.enemy(side)
                areas = [a for a in self.board.ids if not self.board.areas[a].land
                         and self.forces.control.get(a) == side
                         and self.movement.unit_may_be(unit, a)
                         and not (change.get("where") == "own_sea_without_enemy_ships"
                                  and self.forces.count(a, enemy, self.profiles, "sea"))]
                if not areas:
                    continue
                act = yield from self.ask(side, "place-units", [("place", unit, a) for a in areas])
                self.forces.add(act[2], unit, change.get("face", READY))
                self.counters[unit] = self.counters.get(unit, 0) + 1

    def _choose_hands(self) -> Iterator:
        """§5.1: each side takes its hand from its deck, Japan 7 cards and the Allies 5."""
        for side in self.sides:
            deck = self.decks[side]
            if self.rules.hands == "draw":
                order = self.rng.permutation(len(deck.pile))
                chosen = [deck.pile[i] for i in order[:deck.hand_size]]
                for card in chosen:
                    deck.pile.remove(card)
                deck.hand = sorted(chosen)
                continue
            while len(deck.hand) < deck.hand_size and deck.pile:
                if len(deck.pile) <= deck.hand_size - len(deck.hand):
                    deck.hand += deck.pile
                    deck.pile = []
                    break
                act = yield from self.ask(side, "choose-cards",
                                          [("take", c) for c in sorted(set(deck.pile))])
                deck.pile.remove(act[1])
                deck.hand.append(act[1])
            deck.hand.sort()

    def _impulses(self) -> Iterator:
        """§4.0(2)-(3): impulses in turn, the first player first, until both pass in a row."""
        side = self.sides[0]
        passes, impulses = 0, 0
        needed = int((self.system.rules.get("passes_to_end_turn") or 2))
        while passes < needed and impulses < IMPULSE_LIMIT:
            passed = (yield from self._impulse(side)) if self._can_act(side) else True
            passes = passes + 1 if passed else 0
            yield from self._end_of_impulse(side)
            side = self.enemy(side)
            impulses += 1

    def _can_act(self, side: str) -> bool:
        """§4.0(3): a side without hand cards and ready air units passes."""
        return bool(self.decks[side].hand) or self._any_eligible(side, AIR_SLOT)

    def _impulse(self, side: str) -> Iterator:
        """§6.1: one action, or a pass. Returns whether the side passed."""
        deck = self.decks[side]
        hand = sorted(set(deck.hand))
        options: list[Action] = [("pass",)]
        if hand and self._any_eligible(side, NORMAL_SLOT):
            options += [("normal", card) for card in hand]
        if self._any_eligible(side, AIR_SLOT):
            options.append(("air",))
        for card in hand:
            for play in self.system.cards[card].plays:
                if play.is_action and self._playable(side, play):
                    options.append(("play", card, play.option))
        act = yield from self.ask(side, "impulse", options)
        if act[0] == "pass":
            return True
        if act[0] == "normal":
            self._use_card(side, act[1], face_down=True)
            yield from self._run_order(side, Order.normal())
        elif act[0] == "air":
            yield from self._run_order(side, Order.air())
        else:
            self._use_card(side, act[1])
            play = self.system.play(act[1], act[2])
            self.playing = act[1]
            yield from self._play(side, play)
            self.playing = None
        self.order = self.group = None
        return False

    def _use_card(self, side: str, card: str, face_down: bool = False) -> None:
        """§5.2(4): a used card is discarded; a card face up that says so is removed (§19)."""
        removed = self.system.cards[card].removed_after_use and not face_down
        self.decks[side].use(card, removed)
        self.plays[card] = self.plays.get(card, 0) + 1

    def _playable(self, side: str, play: Play) -> bool:
        order = self.system.order(play)
        if order and any(self._any_eligible(side, slot) for slot in order.slots):
            return True
        return any(OPERATIONS[e["op"]][0](self, side, e) for e in play.effects
                   if e.get("op") in OPERATIONS)

    def _play(self, side: str, play: Play) -> Iterator:
        """§6.3: the card's groups act, then its other operations, in the card's order."""
        order = self.system.order(play)
        if order is not None:
            yield from self._run_order(side, order)
        for effect in play.effects:
            if effect.get("op") in OPERATIONS:
                self.effect = effect
                yield from OPERATIONS[effect["op"]][1](self, side, effect)
        self.effect = None

    def _end_of_impulse(self, side: str) -> Iterator:
        """§16.2(1)①: after each of its side's impulses, units in the supply leader's area
        recover (any 1); §14.0(2): then control changes where one side's units alone stand."""
        leader = self.rules.leader()
        if leader and self.profiles.get(leader["type"]) and self.profiles[leader["type"]].side == side:
            for area in self.forces.where(leader["type"]):
                for _ in range(int(leader.get("recover_after_own_impulse") or 0)):
                    used = sorted({u for u, f, _ in self.forces.stacks(area, side) if f == USED})
                    if not used:
                        break
                    act = yield from self.ask(side, "leader-recovery",
                                              [("recover", area, u) for u in used])
                    self.forces.turn(area, act[2], READY)
        self._update_control()

    def _update_control(self) -> None:
        """§14.0(2): land areas are held by land and air units, sea areas by ships."""
        sides, domains = self.forces.sides, self._domain
        for area_id, stacks in self.forces.units.items():
            area = self.board.areas[area_id]
            if area.permanent or not stacks:
                continue
            holder = self.forces.control.get(area_id)
            taker = None
            for (unit, _), n in stacks.items():
                if n and (domains[unit] != "sea") == area.land:
                    if sides[unit] == holder:
                        taker = None
                        break
                    taker = sides[unit]
            if taker is None:
                continue
            self.forces.control[area_id] = taker
            self.forces.version += 1
            self.chronicle.capture(self.turn, area_id, holder, taker)
            self._held_since_holiday.setdefault(area_id, set()).add(taker)

    # -- invariants ------------------------------------------------------------------------------
    def invariants(self) -> list[str]:
        from .invariants import broken
        return broken(self)
