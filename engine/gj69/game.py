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

from dataclasses import dataclass, replace
from typing import Iterator

import numpy as np

from validators.conditions import Stack, evaluate

from ..game import Action, Chronicle, GameResult, GameState, ensure_legal
from ..system import EngineError
from .board import Forces
from .cards import AIR, ATTACK, MOVE, TRANSPORT, Deck, Order, Play, Slot, order_of
from .combat import fight, ready_faces, strikes_of
from .damage import READY, USED
from .movement import AIR_LIMIT, LAND_LIMIT, Movement
from .operations import OPERATIONS
from .settings import Rules

IMPULSE_LIMIT = 200     # impulses in one turn: a guard, far above what the cards allow (see docs)
KIND_OF = {"move": MOVE, "attack": ATTACK, "attack-twice": ATTACK, "air-attack": AIR, "air-move": AIR,
           "transport": TRANSPORT, "hold": None}
AIR_SLOT = Order.air().slots[0]
NORMAL_SLOT = Order.normal().slots[0]


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


class GJ69Game(GameState):
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
                self._score(self.enemy(profile.side), amount, "unit-losses")
            change = elimination.get(unit)
            if change and card not in (change.get("cards") or []):
                self._score(change["side"], float(change["amount"]) * n, f"eliminated-{unit}")

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

    # -- groups (§6.2) -------------------------------------------------------------------------
    def _eligible(self, side: str, area: str, slot: Slot, kinds=None,
                  reserved: dict | None = None) -> dict[tuple[str, str], int]:
        """(type, face) -> how many units of the area may join a group of the slot."""
        stacks = self.forces.units.get(area)
        if not stacks:
            return {}
        kinds = slot.kinds if kinds is None else kinds
        land = self.board.areas[area].land
        own = self.forces.control.get(area) == side
        moving = MOVE in kinds
        transport = TRANSPORT in kinds
        air = AIR in kinds
        attack = ATTACK in kinds
        enemy_here = None
        sides, domains, movers, flies = self.forces.sides, self._domain, self._moves, self._flies
        found = {}
        for (unit, face), n in stacks.items():
            if sides[unit] != side or (face != READY and not slot.used_may_act):
                continue
            domain = domains[unit]
            if slot.domain and domain != slot.domain:
                continue
            ok = (moving and movers[unit]) or (transport and movers[unit] and domain == "land") \
                or (air and flies[unit] and (land and own if domain == "air" else not land))
            if not ok and attack and (land if domain == "land" else (land and own) if domain == "air"
                                      else not land):
                if enemy_here is None:
                    enemy_here = self.forces.has(area, self.enemy(side))
                ok = enemy_here
            if ok:
                left = n - reserved.get((area, unit, face), 0) if reserved else n
                if left > 0:
                    found[(unit, face)] = left
        return found

    def _any_eligible(self, side: str, slot: Slot) -> bool:
        """Whether some area has units for the slot (kept until the next action)."""
        key = (side, slot.kinds, slot.domain, slot.used_may_act)
        known = self._any_cache.get(key)
        if known is None:
            known = self._any_cache[key] = any(self._eligible(side, area, slot)
                                               for area in self.forces.occupied(side))
        return known

    def _run_order(self, side: str, order: Order) -> Iterator:
        self.order, self._order_kind, self._again_left = order, None, order.again_groups
        if order.declare_first:
            declared: list[Group] = []
            reserved: dict = {}
            for number, slot in enumerate(order.slots):
                group = yield from self._select_group(side, slot, number > 0, slot.kinds, reserved)
                if group is None:
                    break
                for (unit, face), n in group.units.items():
                    key = (group.area, unit, face)
                    reserved[key] = reserved.get(key, 0) + n
                declared.append(group)
            for group in declared:
                yield from self._act(group, order)
            return
        for number, slot in enumerate(order.slots):
            kinds = slot.kinds
            if order.same_kind and self._order_kind:
                kinds = kinds & {self._order_kind}
            group = yield from self._select_group(side, slot, number > 0, kinds, None)
            if group is None:
                break
            yield from self._act(group, order)

    def _select_group(self, side: str, slot: Slot, optional: bool, kinds,
                      reserved: dict | None) -> Iterator:
        areas = [a for a in sorted(self.forces.occupied(side))
                 if self._eligible(side, a, slot, kinds, reserved)]
        if not areas:
            return None
        self.slot, self.slot_kinds, self.reserved = slot, kinds, reserved
        act = yield from self.ask(side, "group-area", [("area", a) for a in areas]
                                  + ([("end",)] if optional else []))
        if act[0] == "end":
            return None
        area = act[1]
        self.group = Group(side, area, {}, slot)
        chosen = yield from self.choose_units(side, self._eligible(side, area, slot, kinds, reserved),
                                              slot.max_units)
        self.group.units = chosen
        return self.group

    def choose_units(self, side: str, available: dict, limit: int | None) -> Iterator:
        """Units added one at a time, then done (§6.2: any number of the area's units)."""
        chosen: dict[tuple[str, str], int] = {}
        while True:
            options: list[Action] = []
            if limit is None or sum(chosen.values()) < limit:
                options = [("add", u, f) for (u, f), n in sorted(available.items())
                           if n > chosen.get((u, f), 0)]
            if chosen:
                options.append(("done",))
            act = yield from self.ask(side, "group-units", options)
            if act[0] == "done":
                return chosen
            key = (act[1], act[2])
            chosen[key] = chosen.get(key, 0) + 1

    def _act(self, group: Group, order: Order) -> Iterator:
        """The group's action, and its actions again when the card allows (act_again); its
        units turn to their used face when it is done (§6.2 ③)."""
        self.group = group
        last = None
        while True:
            kinds = group.slot.kinds
            if order.same_kind and self._order_kind:
                kinds = kinds & {self._order_kind}
            if group.kind:
                kinds = kinds & {group.kind}
            act = yield from self.ask(group.side, "action", self.action_options(group, kinds))
            kind = KIND_OF[act[0]]
            if kind and order.same_kind and self._order_kind is None:
                self._order_kind = kind
            if act[0] == "attack-twice":            # the second action is spent on it (§18.1)
                self._spend_again(group, order)
            yield from self._perform(group, act, order)
            if kind is None:
                break
            last = kind
            ready = ready_faces(group.units)
            if not ready or not (group.again > 0 or self._again_left > 0):
                break
            again = yield from self.ask(group.side, "again", [("again",), ("stop",)])
            if again == ("stop",):
                break
            self._spend_again(group, order)
            group.kind = kind if order.again_same_kind else None
            # §18.1: the second action's units are some of the first's
            chosen = yield from self.choose_units(group.side, ready, group.slot.max_units)
            for (unit, face), n in ready.items():
                left = n - chosen.get((unit, face), 0)
                if left:
                    self.forces.turn(group.area, unit, USED, left)
            group.units = chosen
        for (unit, face), n in group.units.items():
            if face != READY:
                continue
            if group.slot.stay_ready and last == MOVE and self.profiles[unit].domain == "land":
                continue
            self.forces.turn(group.area, unit, USED, n)

    def _spend_again(self, group: Group, order: Order) -> None:
        """One more action of the group, from what act_again grants."""
        if group.again == 0:
            self._again_left -= 1
            group.again = order.again_times
        group.again -= 1

    def can_act_again(self, group: Group) -> bool:
        return group.again > 0 or self._again_left > 0

    def mover(self, group: Group):
        slot = group.slot
        return self.movement.mover(group.side, [(u, n) for (u, _), n in group.units.items()],
                                   slot.movement, sea_limits=slot.sea_limits,
                                   sea_land_units=slot.sea_land_units or self.board.sea_land_units,
                                   enter_sea=slot.enter_sea)

    def action_options(self, group: Group, kinds) -> list[Action]:
        """What the group may do (§7, §8, §9, §7.5); holding is left when nothing fits."""
        side, area = group.side, group.area
        units = [u for (u, _), n in group.units.items() if n]
        profiles = [self.profiles[u] for u in units]
        options: list[Action] = []
        if MOVE in kinds and all(p.movement > 0 for p in profiles):
            options += [("move", d) for d in self.movement.destinations(self.forces, self.mover(group), area)]
        if ATTACK in kinds and all(self.fires_here(u, area, side) for u in units) \
                and self.forces.has(area, self.enemy(side)):
            options.append(("attack",))
            if self.order is not None and self.order.again_groups and self.can_act_again(group) \
                    and (group.kind is None or group.kind == ATTACK):
                options.append(("attack-twice",))   # both attacks declared: damage added (§18.1)
        if AIR in kinds and all(p.flies for p in profiles) \
                and all(self.fires_here(u, area, side) if p.domain == "air" else True
                        for u, p in zip(units, profiles)):
            carriers = any(p.domain == "sea" for p in profiles)
            reach = min(p.movement for p in profiles)
            options += [("air-attack", t) for t in self.movement.air_range(area, reach, carriers)
                        if self.air_targets(side, t)]
            if not carriers:
                options += [("air-move", d) for d in
                            self.movement.air_move_destinations(self.forces, self.mover(group), area)]
        if TRANSPORT in kinds and all(p.domain == "land" for p in profiles):
            options += [("transport", d) for d in
                        self.movement.transport_destinations(self.forces, self.mover(group), area)]
        return options or [("hold",)]

    def air_targets(self, side: str, area: str) -> dict[tuple[str, str], int]:
        """Enemy units in the area that an air attack of `side` may damage (§16.1(2), §16.2(2))."""
        enemy = self.enemy(side)
        immune = self.rules.immune_to_air()
        shield = self.fortress_shield(side, area)
        return {(u, f): n for u, f, n in self.forces.stacks(area, enemy)
                if u not in immune and not (shield and self.profiles[u].domain == "land")}

    def fortress_shield(self, side: str, area: str) -> bool:
        """§16.1(2): in an enemy fortress area without own land units, air-attack damage cannot
        be given to the land units."""
        fortress = self.rules.fortress()
        return bool(fortress and fortress.get("air_damage_needs_own_land_units")
                    and area in self.movement.fortress_areas
                    and self.forces.control.get(area) != side
                    and not self.forces.count(area, side, self.profiles, "land"))

    # -- what an action does -------------------------------------------------------------------
    def _perform(self, group: Group, act: Action, order: Order) -> Iterator:
        kind = act[0]
        if kind in ("move", "air-move", "transport"):
            yield from self._enter(group, act[1], order)
        elif kind in ("attack", "attack-twice"):
            counters = yield from self._reaction(group, group.area, "normal_attack", order)
            yield from self._attack(group, counters, order, combined=kind == "attack-twice")
        elif kind == "air-attack":
            yield from self._air_attack(group, act[1])

    def _reaction(self, group: Group, area: str, trigger: str, order: Order) -> Iterator:
        """§10(2): before the group's action the enemy may play a reaction card whose trigger
        fits and whose units are there to fire; Oxygen Torpedoes' groups cannot be answered."""
        if order.immune:
            return []
        enemy = self.enemy(group.side)
        options: list[Action] = []
        for card in sorted(set(self.decks[enemy].hand)):
            for play in self.system.cards[card].plays:
                if any(trigger in (c.get("trigger") or []) and self._counter_fires(enemy, area, c)
                       for c in play.counters):
                    options.append(("react", card, play.option))
        if not options:
            return []
        self.reaction_area = area
        act = yield from self.ask(enemy, "react", options + [("no-reaction",)])
        self.reaction_area = None
        if act[0] != "react":
            return []
        self._use_card(enemy, act[1])
        play = self.system.play(act[1], act[2])
        return [c for c in play.counters if trigger in (c.get("trigger") or [])]

    def _counter_fires(self, side: str, area: str, counter: dict) -> bool:
        for unit, face, _ in self.forces.stacks(area, side):
            if counter.get("attackers") == "ships":
                if self.profiles[unit].domain == "sea" and not self.board.areas[area].land:
                    return True
            elif face == READY and self.fires_here(unit, area, side):
                return True
        return False

    def _enter(self, group: Group, target: str, order: Order) -> Iterator:
        """A move, air move or sea transport into `target`. An enemy reaction card strikes the
        group first, on its used face; its retreating units go back where they came from
        (§10(4), §11.5(2)); the others enter."""
        origin = group.area
        counters = []
        if self.forces.has(target, self.enemy(group.side)):
            counters = yield from self._reaction(group, target, "enemy_enters", order)
        for (unit, face), n in group.units.items():
            self.forces.take(origin, unit, face, n)
        moving = dict(group.units)
        if counters:
            enemy = self.enemy(group.side)
            struck, _ = fight(self.profiles, self.board.areas[target].land, moving,
                              {(u, f): n for u, f, n in self.forces.stacks(target, enemy)},
                              strikes_of(counters, "", "normal", 0), [], set(), False,
                              {"attacker": frozenset(u for u, _ in moving), "defender": frozenset()},
                              self.rng)
            self._record_battle(target, enemy, group.side, 0, True, struck)
            for unit, n in struck.retreats.items():
                self.forces.add(origin, unit, USED, n)
            self.lose(struck.eliminated)
            moving = struck.stays
        for (unit, face), n in moving.items():
            self.forces.add(target, unit, face, n)
        group.area, group.units = target, dict(moving)

    def _attack(self, group: Group, counters: list[dict], order: Order, combined: bool = False) -> Iterator:
        """§8, §10, §11: the counter-attacks, then the group's attack on every enemy unit of
        its area."""
        side, area = group.side, group.area
        enemy = self.enemy(side)
        can_retreat = {"attacker": self._retreating_types(area, group.units),
                       "defender": self._retreating_types(area, self.forces.units.get(area, {}), enemy)}
        attackers = dict(group.units)
        defenders = {(u, f): n for u, f, n in self.forces.stacks(area, enemy)}
        for (unit, face), n in list(attackers.items()) + list(defenders.items()):
            self.forces.take(area, unit, face, n)
        mine, theirs = fight(self.profiles, self.board.areas[area].land, attackers, defenders,
                             strikes_of(counters, "attacker", "normal",
                                        2 if combined else group.slot.strikes, combined),
                             order.set_attack, set(), False, can_retreat, self.rng)
        yield from self._after_fight(area, side, attackers, defenders, mine, theirs, air=False)
        group.units = dict(mine.stays)

    def _air_attack(self, group: Group, target: str) -> Iterator:
        """§9.1, §11: the air units or carriers strike the enemy units of the target area; the
        attacker allocates the damage (§11.2(1)) and carriers roll their save (§11.6)."""
        side = group.side
        enemy = self.enemy(side)
        defenders = {(u, f): n for u, f, n in self.forces.stacks(target, enemy)}
        can_retreat = {"attacker": frozenset(),
                       "defender": self._retreating_types(target, defenders, enemy)}
        for (unit, face), n in defenders.items():
            self.forces.take(target, unit, face, n)
        _, theirs = fight(self.profiles, self.board.areas[target].land, dict(group.units), defenders,
                          strikes_of([], "attacker", "air", 1), [], self.rules.immune_to_air(),
                          self.fortress_shield(side, target), can_retreat, self.rng)
        yield from self._after_fight(target, side, {}, defenders, None, theirs, air=True)

    def _after_fight(self, area, side, attackers, defenders, mine, theirs, air: bool) -> Iterator:
        enemy = self.enemy(side)
        for sides in (mine, theirs):
            if sides is not None:
                for (unit, face), n in sides.stays.items():
                    self.forces.add(area, unit, face, n)
        self._record_battle(area, side, enemy, sum(attackers.values()),
                            air or bool(mine and mine.stays), theirs)
        if mine is not None:
            self.lose(mine.eliminated)
        self.lose(theirs.eliminated)
        if mine is not None:
            yield from self._retreats(side, area, mine.retreats)
        yield from self._retreats(enemy, area, theirs.retreats)

    def _retreating_types(self, area: str, units, side: str | None = None) -> frozenset[str]:
        """Unit types that have an area to retreat to from `area` (§11.5(1))."""
        types = {u for (u, _), n in units.items() if n and (side is None or self.forces.sides[u] == side)}
        return frozenset(u for u in types if self.movement.retreat_areas(self.forces, area, u))

    def _retreats(self, side: str, area: str, units: dict[str, int]) -> Iterator:
        """§11.5: each retreating unit goes, turned, to an area its owner chooses; none left
        means the replacement pool."""
        for unit, n in units.items():
            self.retreating[unit] = self.retreating.get(unit, 0) + n
        for unit, n in sorted(units.items()):
            for _ in range(n):
                options = self.movement.retreat_areas(self.forces, area, unit)
                if options:
                    act = yield from self.ask(side, "retreat", [("retreat", unit, a) for a in options])
                    self.forces.add(act[2], unit, USED)
                else:
                    self.lose({unit: 1})
                self.retreating[unit] -= 1

    def _record_battle(self, area: str, attacker: str, defender: str, attacking: int,
                       attackers_left: bool, struck) -> None:
        """The chronicle's battle: the attacker wins when none of the struck units is left in
        the area (and, in a normal attack, some of its own are), the defender when the attack
        leaves none of the attacking group."""
        defending = sum(struck.stays.values()) + sum(struck.eliminated.values()) \
            + sum(struck.retreats.values())
        if not struck.stays and attackers_left:
            winner = "attacker"
        elif struck.stays and not attackers_left:
            winner = "defender"
        else:
            winner = "draw"
        self.chronicle.battle(self.turn, area, attacker, defender, attacking, defending, winner)

    # -- the end of the turn (§4.0(4)) ---------------------------------------------------------
    def _end_of_turn(self) -> None:
        self._oil_destruction()
        self._recovery()
        for deck in self.decks.values():
            deck.new_turn()
        self._score_objectives("end_of_turn")
        self._holidays()
        for side in self.sides:
            self.chronicle.record("vp", side, self.turn, self.vp[side])
            self.chronicle.record("areas-vp", side, self.turn, self._area_vp(side))
            self.chronicle.record("units", side, self.turn, self._units_on_map(side))

    def _oil_destruction(self) -> None:
        """§4.0(4)①: each turned-over oil-field marker in an area its side holds is destroyed on
        a die of 5 or more, 6 or more with enemy units there."""
        rule = self.system.rules.get("oil_sabotage") or {}
        for area, marker in sorted(self.oil.items()):
            side = marker.exposed_by
            if not side or marker.destroyed or self.forces.control.get(area) != side:
                continue
            enemy_there = self.forces.has(area, self.enemy(side))
            needed = int(rule.get("with_enemy_units" if enemy_there else "without_enemy_units", 6))
            if int(self.rng.integers(1, 7)) >= needed:
                marker.destroyed = True

    def _recovery(self) -> None:
        """§12: units in areas with a line of communication to their supply source turn ready;
        all units in the supply leader's area too (§16.2(1)②)."""
        leader = self.rules.leader()
        for side in self.sides:
            areas = set(self.supplied(side))
            if leader and leader.get("recover_at_end_of_turn") == "all" \
                    and self.profiles.get(leader["type"]) and self.profiles[leader["type"]].side == side:
                areas |= set(self.forces.where(leader["type"]))
            for area in areas:
                for unit, face, n in self.forces.stacks(area, side):
                    if face == USED:
                        self.forces.turn(area, unit, READY, n)

    def _score_objectives(self, timing: str) -> None:
        position = self.position()
        for objective_id, entity in self.system.index.objectives.items():
            data = entity.data
            award = data.get("award") or {}
            if data.get("timing") != timing or award.get("resource", "vp") != "vp":
                continue
            if isinstance(data.get("when"), dict) and evaluate(data["when"], position).met:
                side = self.system.side_of(data.get("owner", "")) or data.get("owner")
                self._score(side, float(award.get("amount", 0)), objective_id)

    def _holidays(self) -> None:
        """§17.3: on the holiday turns, Japan scores for each fortress area it has taken since
        the last holiday, and loses for each the Allies have retaken from it."""
        changes = self.rules.holidays(self.turn)
        if not changes:
            return
        now = self._fortress_control()
        for change in changes:
            side = change["side"]
            enemy = self.enemy(side)
            if change["per"] == "captured_fortress":
                areas = [a for a, holder in now.items()
                         if holder == side and self._holiday_control.get(a) != side]
            else:
                areas = [a for a, holder in now.items() if holder == enemy
                         and side in self._held_since_holiday.get(a, set())]
            for area in areas:
                self._score(side, float(change["amount"]), f"holiday-{area}")
        self._holiday_control = now
        self._held_since_holiday = self._holders_now()

    def _fortress_control(self) -> dict[str, str]:
        return {a: self.forces.control.get(a) for a in self.board.ids if self.board.areas[a].fortress}

    def _holders_now(self) -> dict[str, set[str]]:
        return {a: {holder} for a, holder in self._fortress_control().items()}

    def _end_of_game(self) -> None:
        """§15.0(2)-(3): the VP of the land areas each side holds, and of the oil-field
        markers left in them."""
        self._score_objectives("end_of_game")
        for area, marker in sorted(self.oil.items()):
            holder = self.forces.control.get(area)
            if not marker.destroyed and holder:
                self._score(holder, marker.value, f"oil-field-{area}")
        for side in self.sides:
            self.chronicle.record("vp", side, self.turn, self.vp[side])

    def _area_vp(self, side: str) -> float:
        return sum(a.value for a in self.board.areas.values()
                   if a.land and self.forces.control.get(a.id) == side)

    def _units_on_map(self, side: str) -> float:
        return float(sum(n for stacks in self.forces.units.values() for (u, _), n in stacks.items()
                         if self.forces.sides[u] == side))

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
