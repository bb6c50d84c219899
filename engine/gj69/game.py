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

from collections.abc import Generator

import numpy as np

from ..game import Action
from .cards import Order, Play
from .clone import Checkpoint, Checkpoints
from .core import Decision, Steps
from .damage import READY, USED
from .groups import GroupActions
from .operations import OPERATIONS
from .scoring import Scoring
from .settings import Rules
from .standing import Standing

IMPULSE_LIMIT = 200     # impulses in one turn: a guard, far above what the cards allow (see docs)
AIR_SLOT = Order.air().slots[0]
NORMAL_SLOT = Order.normal().slots[0]


class GJ69Game(Checkpoints, GroupActions, Scoring, Standing):
    """One game: the turn (here), the group actions (groups.py), the end-of-turn scoring
    (scoring.py), clones (clone.py) and the standing (standing.py), on the state of core.py."""

    def __init__(self, system, rules: Rules, rng: np.random.Generator, max_rounds: int | None):
        super().__init__(system, rules, rng, max_rounds)
        self._flow = self._game()
        self._advance(None)

    # -- the turn (§4.0) -----------------------------------------------------------------------
    def _game(self, resume: Checkpoint | None = None) -> Steps:
        """The game from its start, or from a checkpoint (clone.py): the hands or the impulses
        of the turn, taken up where the checkpoint says."""
        while True:
            if resume is None:
                self._phase = "place-units"
                yield from self._place_units()
            if resume is None or resume[0] == "hands":
                self._phase = "choose-cards"
                yield from self._choose_hands(resume)
                resume = None
            self._phase = "impulses"
            yield from self._impulses(resume)
            resume = None
            self._phase = "end-of-turn"
            self._end_of_turn()
            if self.turn >= self.last_turn:
                if not self.cut_short:
                    self._end_of_game()
                return
            self.turn += 1

    def _place_units(self) -> Steps:
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

    def _choose_hands(self, resume: Checkpoint | None = None) -> Steps:
        """§5.1: each side takes its hand from its deck, Japan 7 cards and the Allies 5 (from
        the checkpoint's side on, with the cards it has taken)."""
        first = self.sides.index(resume[1]) if resume else 0
        for side in self.sides[first:]:
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
                self.checkpoint = ("hands", side)
                act = yield from self.ask(side, "choose-cards",
                                          [("take", c) for c in sorted(set(deck.pile))])
                deck.pile.remove(act[1])
                deck.hand.append(act[1])
            deck.hand.sort()

    def _impulses(self, resume: Checkpoint | None = None) -> Steps:
        """§4.0(2)-(3): impulses in turn, the first player first, until both pass in a row (or
        from the checkpoint's impulse on)."""
        side, passes, impulses = resume[1:] if resume else (self.sides[0], 0, 0)
        needed = int(self.system.rules.get("passes_to_end_turn") or 2)
        while passes < needed and impulses < IMPULSE_LIMIT:
            self.checkpoint = ("impulse", side, passes, impulses)
            passed = (yield from self._impulse(side)) if self._can_act(side) else True
            passes = passes + 1 if passed else 0
            yield from self._end_of_impulse(side)
            side = self.enemy(side)
            impulses += 1
        for each in self.sides:                  # cards never played this turn (a blunder counted)
            hand = self.decks[each].hand
            if hand:
                self.chronicle.blunder(self.turn, "cards-unused", each, len(hand))
                kept = sum(self.system.cards[card].reaction for card in hand)
                if kept:
                    self.chronicle.blunder(self.turn, "cards-unused-reaction", each, kept)

    def _can_act(self, side: str) -> bool:
        """§4.0(3): a side without hand cards and ready air units passes."""
        return bool(self.decks[side].hand) or self._any_eligible(side, AIR_SLOT)

    def _impulse(self, side: str) -> Generator[Decision, Action, bool]:
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

    def _playable(self, side: str, play: Play) -> bool:
        order = self.system.order(play)
        if order and any(self._any_eligible(side, slot) for slot in order.slots):
            return True
        return any(OPERATIONS[e["op"]][0](self, side, e) for e in play.effects
                   if e.get("op") in OPERATIONS)

    def _play(self, side: str, play: Play) -> Steps:
        """§6.3: the card's groups act, then its other operations, in the card's order."""
        order = self.system.order(play)
        if order is not None:
            yield from self._run_order(side, order)
        for effect in play.effects:
            if effect.get("op") in OPERATIONS:
                self.effect = effect
                yield from OPERATIONS[effect["op"]][1](self, side, effect)
        self.effect = None

    def _end_of_impulse(self, side: str) -> Steps:
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
            self.forces.set_control(area_id, taker)
            self.chronicle.capture(self.turn, area_id, holder, taker)
            self._held_since_holiday.setdefault(area_id, set()).add(taker)

