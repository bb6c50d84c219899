"""A whole game of Allies vs. Axis, by the page's rules (seed 003, sections named in quotes).

A turn ("General rules"): the player collects what every owned territory yields ("Collecting
resources"); a jailed player pays the ransom (or plays a card that frees them) or stays
("Jail", "Ransom cost"); then spins and moves clockwise ("Spinner"), may buy one strategic move
("Strategic move decision"), and acts on the square landed on: a neutral territory is invaded
with infantry or bought by treaty ("Neutral territories"), a neutral secret territory becomes a
base for $M 500, a neutral special territory is allied with by its side for $M 2000, an owned
territory is defended ("Defending territories"), an enemy territory costs the penalty and may be
invaded ("Hostile territories", "Invading hostile territories"), a fortune or strategy square
draws a card with the chance the game mode's luck gives ("Game modes"). Then the player
recruits, within each unit's cap ("Recruiting armies"), and the turn ends ("End of turn").

Phases (the scenario's phase ids where it has them): `jail`, `spin`, `strategic-move`, `act`,
`recruit`. Actions:

    ("pay-ransom",) ("stay",) ("spin",) ("strategic-move", MOVE_ID)
    ("invade", UNIT, N, UNIT, N ...)  ("treaty",) ("build-base",) ("ally",)
    ("defend", UNIT, N) ("play", CARD_ID) ("done",)  ("recruit", UNIT, N) ("end",)

A step with nothing to decide (a strategic move nobody can afford, a square with nothing to
do, nothing to recruit, a jailed player who can neither pay nor escape) is taken by the game
itself; the spin stays an action, so a replay reads turn by turn. Amounts are any number the
rules allow (`is_legal` checks them directly); `legal_actions` lists a ladder of them (1, 2, 5,
10, 20, 50 ... and all), and for an invasion the armies a player would weigh: the fewest units
of each type alone, the weakest units first, the strongest first, and everything that can
take part.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from validators.conditions import Position, evaluate

from ..clones import copy_generator
from ..game import Action, Chronicle, GameResult, GameState, IllegalAction, ensure_legal
from ..system import EngineError
from . import cards as card_rules
from .board import FORTUNE, OWNABLE, SECRET, SPECIAL, STRATEGY, TERRITORY, Board, Square
from .cards import Deck
from .standing import chance_to_win

JAIL, SPIN, MOVE, ACT, RECRUIT, OVER = "jail", "spin", "strategic-move", "act", "recruit", "over"
ENDS_A_STEP = {"spin": (SPIN,), "done": (ACT,), "end": (RECRUIT,), "stay": (JAIL, MOVE)}
SAFETY_ROUNDS = 1000        # a game with no round limit and no turn limit still ends
MAX_CHAIN = 16              # landings one turn may chain through cards that move the pawn
# What a clone copies (`AvAGame.clone`); everything else a game holds is never changed once the
# game has begun, or is a number or a text, and is shared.
COPIED = frozenset({"owner", "defenders", "_defence", "_penalty", "pawn", "money", "reserve",
                    "counters", "jailed", "skip", "free_treaty", "hand", "decks", "recruited",
                    "chronicle", "rng", "_legal"})


@lru_cache(maxsize=4096)
def ladder(most: int) -> tuple[int, ...]:
    """Amounts listed for a choice of 1 to `most`: 1, 2, 5, 10, 20, 50 ... and `most`."""
    found, step = [], 1
    while step < most:
        for factor in (1, 2, 5):
            if step * factor < most:
                found.append(step * factor)
        step *= 10
    return tuple(found + [most]) if most > 0 else ()


class AvAGame(GameState):
    def __init__(self, board: Board, settings: dict, rng, max_rounds: int | None = None):
        self.board, self.rng = board, rng
        self.mode = settings.get("mode") or board.default_mode
        if self.mode not in board.modes:
            raise EngineError(f"unknown game mode {self.mode!r} (modes: {', '.join(board.modes)})")
        self.formulas = board.formulas_for(self.mode)
        self.luck = board.level(self.mode, "luck")
        self.resources = board.level(self.mode, "resource_level")
        self.yields = board.yields_for(self.mode)
        self.options = {option for option in settings.values() if option in board.option_groups}
        self.options.add(self.mode)
        self.victories = [v for v in board.victory if v.option is None or v.option in self.options]
        self.max_rounds = max_rounds or SAFETY_ROUNDS
        sides = board.sides
        self.owner: dict[str, str | None] = {s.id: None for s in board.squares if s.kind in OWNABLE}
        for side, spaces in board.modes[self.mode].start.items():
            for space in spaces:
                self.owner[space] = side
        self.defenders: dict[str, dict[str, int]] = {}
        self._defence: dict[str, object] = {}
        self._penalty: dict[str, object] = {}
        self.pawn = {side: board.square_of[board.main_territory[side]] for side in sides}
        self.money = {side: 0 for side in sides}
        self.reserve = {side: {unit: 0 for unit in board.units} for side in sides}
        self.counters = {side: {name: 0 for name in board.rules.get("counters") or {}}
                         for side in sides}
        self.jailed = {side: False for side in sides}
        self.skip = {side: 0 for side in sides}
        self.free_treaty = {side: False for side in sides}
        self.hand: dict[str, list] = {side: [] for side in sides}
        self.decks = {deck_id: Deck(list(cards)) for deck_id, cards in board.decks.items()}
        self.recruited = {unit: 0 for unit in board.units}
        self.square_done = False          # the square's one action (invade, treaty ...) is taken
        self.spin_again = False
        self.chronicle = Chronicle()
        self._turn, self._round, self._phase = 0, 1, SPIN
        self._ends_turn = False
        self._winner: str | None = None
        self._reason: str | None = None
        self._end_round: int | None = None
        self._legal: list[Action] | None = None
        self._check_victory()
        if self._reason is None:
            self._begin_turn()
        self._settle()

    # -- the interface ---------------------------------------------------------------------------
    @property
    def current_player(self) -> str | None:
        return None if self._reason else self.side_to_play

    @property
    def side_to_play(self) -> str:
        """The side whose turn it is; the current player while the game goes on (the steps of
        a turn are only taken then)."""
        return self.board.sides[self._turn]

    @property
    def phase(self) -> str:
        return OVER if self._reason else self._phase

    @property
    def round(self) -> int:
        return self._round

    def seats(self) -> list[str]:
        return list(self.board.sides)

    def side_of(self, seat: str) -> str:
        return seat

    def is_terminal(self) -> bool:
        return self._reason is not None

    def result(self) -> GameResult:
        held = self.territories()
        return GameResult(self._winner, self._reason or "in-play", self._end_round or self._round,
                          scores={side: float(n) for side, n in held.items()})

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._list_actions()
        return list(self._legal)

    def is_legal(self, action: Action) -> bool:
        if self._reason or not isinstance(action, tuple) or not action:
            return False
        head = action[0]
        if len(action) == 1 and head in ENDS_A_STEP:
            return self._phase in ENDS_A_STEP[head]
        if head == "invade":
            return self._phase == ACT and self._invasion_army(action) is not None
        if head in ("defend", "recruit") and len(action) == 3:
            unit, count = action[1], action[2]
            if type(count) is not int or count < 1 or unit not in self.recruited:
                return False
            if head == "defend":
                return self._phase == ACT and count <= self._defend_most(unit)
            return self._phase == RECRUIT and count <= self._recruit_most(unit)
        if self._legal is None:
            self._legal = self._list_actions()
        return action in self._legal

    def apply(self, action: Action) -> None:
        action = ensure_legal(self, action)
        self._legal = None
        side = self.current_player
        getattr(self, "_do_" + action[0].replace("-", "_"))(side, *action[1:])
        self._settle()

    # -- copies --------------------------------------------------------------------------------
    def clone(self) -> AvAGame:
        """A copy of the game: its data is plain (who owns what, money, armies, cards), so it is
        copied, and the board, the formulas and the cards themselves are shared. COPIED says
        what is copied; tests/test_allies_vs_axis_search.py checks nothing else can change."""
        twin = object.__new__(AvAGame)
        twin.__dict__.update(self.__dict__)
        twin.owner, twin.pawn, twin.money = dict(self.owner), dict(self.pawn), dict(self.money)
        twin.defenders = {space: dict(army) for space, army in self.defenders.items()}
        twin._defence, twin._penalty = dict(self._defence), dict(self._penalty)
        twin.reserve = {side: dict(units) for side, units in self.reserve.items()}
        twin.counters = {side: dict(counts) for side, counts in self.counters.items()}
        twin.jailed, twin.skip = dict(self.jailed), dict(self.skip)
        twin.free_treaty, twin.recruited = dict(self.free_treaty), dict(self.recruited)
        twin.hand = {side: list(cards) for side, cards in self.hand.items()}
        twin.decks = {deck_id: deck.copy() for deck_id, deck in self.decks.items()}
        twin.chronicle = self.chronicle.copy()
        twin.rng = copy_generator(self.rng)
        twin._legal = None
        return twin

    def standing(self, side: str) -> float:
        """The side's chance to win from here (engine/allies_vs_axis/standing.py)."""
        if self.is_terminal():
            return super().standing(side)
        return chance_to_win(self, side)

    # -- the board -----------------------------------------------------------------------------
    @property
    def square(self) -> Square:
        return self.board.squares[self.pawn[self.side_to_play]]

    def opponent(self, side: str) -> str:
        first, second = self.board.sides
        return second if side == first else first

    def territories(self) -> dict[str, int]:
        held = {side: 0 for side in self.board.sides}
        for owner in self.owner.values():
            if owner:
                held[owner] += 1
        return held

    def defence_power(self, space: str):
        found = self._defence.get(space)
        if found is None:
            found = self._defence[space] = self.formulas.defence_power(self.defenders.get(space, {}))
        return found

    def defence_changed(self, space: str) -> None:
        self._defence.pop(space, None)
        self._penalty.pop(space, None)

    def penalty(self, space: str):
        """What landing on an enemy territory costs, in power ("Penalty cost")."""
        found = self._penalty.get(space)
        if found is None:
            found = self._penalty[space] = self.formulas.penalty_cost(self.defence_power(space))
        return found

    def income(self, side: str) -> int:
        return sum(amount for space, owner in self.owner.items() if owner == side
                   for unit, amount in self.yields[space] if unit is None)

    def army_power(self, side: str):
        """The power of the side's armies: those in hand and those defending its territories."""
        power = self.formulas.invasion_power(self.reserve[side])
        return power + sum(self.defence_power(space) for space in self.defenders
                           if self.owner[space] == side)

    # -- changing the state (also used by the cards) ----------------------------------------------
    def add_resource(self, side: str, resource: str, amount: int) -> None:
        if resource == "money":
            self.money[side] = max(0, self.money[side] + amount)
            return
        unit = self.board.unit_of_resource.get(resource)
        if unit is None:
            raise EngineError(f"resource {resource!r} is neither money nor an army (rules.army_resources)")
        self.reserve[side][unit] = max(0, self.reserve[side][unit] + amount)

    def pay(self, side: str, amount) -> None:
        if amount > self.money[side]:
            raise IllegalAction(f"{side} cannot pay $M {amount} with $M {self.money[side]}")
        self.money[side] -= int(amount)

    def collect(self, side: str) -> None:
        """Every territory the player owns yields its resources ("Collecting resources")."""
        reserve = self.reserve[side]
        for space, owner in self.owner.items():
            if owner == side:
                for unit, amount in self.yields[space]:
                    if unit is None:
                        self.money[side] += amount
                    else:
                        reserve[unit] += amount

    def change_owner(self, space: str, side: str | None) -> None:
        old = self.owner[space]
        self.owner[space] = side
        self.defenders.pop(space, None)      # a territory changes hands without its defenders
        self.defence_changed(space)
        self.chronicle.capture(self._round, space, old, side)
        self._check_victory()

    def send_to_jail(self, side: str) -> None:
        self.jailed[side] = True
        self.counters[side]["jailed"] = self.counters[side].get("jailed", 0) + 1
        if side == self.current_player:
            self._ends_turn = True
        self._check_victory()

    def move_pawn(self, side: str, steps: int, depth: int = 0) -> None:
        self.pawn[side] = (self.pawn[side] + steps) % len(self.board.squares)
        self._land(side, depth)

    # -- the turn ---------------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        """Start the turns of the players in order, passing over missed turns and jailed players
        with nothing to decide, until a player has a decision or the game is over."""
        while self._reason is None:
            side = self.side_to_play
            if self.skip[side]:
                self.skip[side] -= 1
                self._next_player()
                continue
            self.collect(side)
            self.recruited = dict.fromkeys(self.recruited, 0)
            self.square_done = self.spin_again = False
            if self.jailed[side]:
                self._phase = JAIL
                if self._jail_actions() == [("stay",)]:
                    self._next_player()
                    continue
            else:
                self._phase = SPIN
            return

    def _next_player(self) -> None:
        self._turn += 1
        if self._turn == len(self.board.sides):
            self._record_round()
            self._turn = 0
            if self._round >= self.max_rounds:
                self._finish(None, "round-limit", recorded=True)
                return
            self._round += 1
            self._check_victory(round_start=True)

    def _end_turn(self) -> None:
        side = self.side_to_play
        if self.spin_again and not self.jailed[side] and self._reason is None:
            self.spin_again, self.square_done = False, False
            self._phase = SPIN
            return
        self._next_player()
        self._begin_turn()

    def _settle(self) -> None:
        """Take the steps that leave nothing to decide, until a decision or the end."""
        while self._reason is None:
            if self._ends_turn:
                self._ends_turn = False
                self._end_turn()
                continue
            self._legal = None
            if self._phase == ACT and self.legal_actions() == [("done",)]:
                self._phase = RECRUIT
                continue
            if self._phase == RECRUIT and not any(self._recruit_most(u) for u in self.board.units):
                self._ends_turn = True
                continue
            return
        self._legal = None
        self._phase = OVER

    def _land(self, side: str, depth: int = 0) -> None:
        """What landing on a square does before the player acts on it."""
        if depth > MAX_CHAIN:
            raise EngineError(f"cards moved the pawn more than {MAX_CHAIN} times in one turn")
        self.square_done = False
        self._phase = ACT
        square = self.board.squares[self.pawn[side]]
        owner = self.owner.get(square.id)
        if square.kind in OWNABLE and owner not in (None, side):
            penalty = self.penalty(square.id)           # "Hostile territories", "Penalty cost"
            if penalty > 0:
                lost, every_unit = self.formulas.penalty_losses(self.reserve[side], penalty)
                for unit, count in lost.items():
                    self.reserve[side][unit] -= count
                if every_unit:                         # "Jail": every available army lost
                    self.send_to_jail(side)
        elif square.kind in (FORTUNE, STRATEGY):
            self._draw(side, square.kind, depth)

    def _draw(self, side: str, deck_id: str, depth: int) -> None:
        """Draw a card with the chance the luck level gives ("Game modes")."""
        if self.luck < 1 and self.rng.random() >= self.luck:
            return
        deck = self.decks.get(deck_id)
        if deck is None:                    # the scenario has no such deck
            return
        card = deck.draw(self.rng)
        if card is None:
            return
        if card.keep:                       # "Strategy cards": kept for later
            self.hand[side].append(card)
            return
        deck.put_away(card)
        self._use(side, card, depth)

    def _use(self, side: str, card, depth: int = 0) -> None:
        for effect in card.effects:
            if self._reason is not None or self._ends_turn:
                return
            card_rules.apply_effect(self, side, effect, depth)

    def _record_round(self) -> None:
        held = self.territories()
        for side in self.board.sides:
            self.chronicle.record("territories", side, self._round, held[side])
            self.chronicle.record("money", side, self._round, self.money[side])
            self.chronicle.record("income", side, self._round, self.income(side))
            self.chronicle.record("army", side, self._round, float(self.army_power(side)))
            self.chronicle.record("jailed", side, self._round, self.counters[side].get("jailed", 0))

    # -- the end ------------------------------------------------------------------------------------
    def position(self) -> Position:
        """The game as the condition evaluator reads it (victory conditions)."""
        sides = self.board.sides
        return Position(
            control={space: owner for space, owner in self.owner.items() if owner},
            units={}, sides={side: side for side in sides},
            space_tags=self.board.space_tags, space_kinds=self.board.space_kinds,
            options={option: True for option in self.options}, turn=self._round,
            counters={(side, name): value for side in sides
                      for name, value in self.counters[side].items()})

    def _check_victory(self, round_start: bool = False) -> None:
        """End the game when one of the chosen victory conditions holds ("Game end"). At the
        start of a round nothing is played yet: a game ended then is reported as ending with
        the round before."""
        if self._reason is not None:
            return
        position = None
        for victory in self.victories:
            if round_start and not victory.reads_turn:
                continue                     # only the turn has changed since the last check
            position = position or self.position()
            if evaluate(victory.when, position).met:
                winner = victory.side
                if winner is None:           # the turns ran out: most territories wins
                    held = self.territories()
                    ranked = sorted(held.values(), reverse=True)
                    winner = max(held, key=held.__getitem__) if ranked[0] > ranked[-1] else None
                if round_start and self._round > 1:
                    self._end_round = self._round - 1
                self._finish(winner, victory.reason, recorded=round_start and self._round > 1)
                return

    def _finish(self, winner: str | None, reason: str, recorded: bool = False) -> None:
        self._winner, self._reason = winner, reason
        if not recorded:
            self._record_round()

    # -- the actions, listed ------------------------------------------------------------------------
    def _list_actions(self) -> list[Action]:
        if self._reason is not None:
            return []
        if self._phase == JAIL:
            return self._jail_actions()
        if self._phase == SPIN:
            return [("spin",)]
        if self._phase == MOVE:
            side = self.side_to_play
            used = self.counters[side].get("strategic_moves", 0)
            return [("strategic-move", move) for move, steps in self.board.moves.items()
                    if self.formulas.strategic_move_cost(steps, used) <= self.money[side]] + [("stay",)]
        if self._phase == ACT:
            return self._act_actions()
        if self._phase == RECRUIT:
            return [("recruit", unit, n) for unit in self.board.units
                    for n in ladder(self._recruit_most(unit))] + [("end",)]
        return []

    def _jail_actions(self) -> list[Action]:
        side = self.side_to_play
        found = []
        if self.formulas.ransom_cost(self.counters[side].get("jailed", 0)) <= self.money[side]:
            found.append(("pay-ransom",))
        found += self._card_plays(side)
        return found + [("stay",)]

    def _card_plays(self, side: str) -> list[Action]:
        seen, found = set(), []
        for card in self.hand[side]:
            if card.id not in seen:
                seen.add(card.id)
                if card_rules.playable(self, side, card):
                    found.append(("play", card.id))
        return found

    def _act_actions(self) -> list[Action]:
        side = self.side_to_play
        square = self.square
        owner = self.owner.get(square.id)
        found: list[Action] = []
        if not self.square_done and square.kind in OWNABLE and owner != side:
            if owner is None and square.kind == TERRITORY:           # "Neutral territories"
                found += self._invasions(side, square)
                if self.treaty_cost(side, square) <= self.money[side]:
                    found.append(("treaty",))
            elif owner is None and square.kind == SECRET:            # "Neutral secret territories"
                if self.board.parameter("secret_base_cost") <= self.money[side]:
                    found.append(("build-base",))
            elif owner is None and square.kind == SPECIAL:           # "Neutral special territories"
                if (self.board.natural_ally.get(square.id) == side
                        and self.board.parameter("special_alliance_cost") <= self.money[side]):
                    found.append(("ally",))
            elif owner is not None and square.kind != SECRET:        # "Invading hostile territories"
                found += self._invasions(side, square)
        if owner == side:                                            # "Defending territories"
            found += [("defend", unit, n) for unit in self.board.units
                      for n in ladder(self._defend_most(unit))]
        return found + self._card_plays(side) + [("done",)]

    def treaty_cost(self, side: str, square: Square):
        if self.free_treaty[side]:
            return 0
        return self.formulas.treaty_cost(square.neutral_defence or 0,
                                         self.counters[side].get("treaties_signed", 0))

    def _target(self, side: str, square: Square):
        """The defence an invasion of the square must match, and the units that may invade."""
        reserve = self.reserve[side]
        if self.owner.get(square.id) is None:
            units = [u for u in self.board.units if u in self.board.neutral_units and reserve[u]]
            return square.neutral_defence or 0, units
        units = [u for u in self.board.units if reserve[u] and self.board.takes_part(u, square)]
        return self.defence_power(square.id), units

    def _invasions(self, side: str, square: Square) -> list[Action]:
        """The armies a player would weigh for this invasion (see the module's docstring)."""
        needed, units = self._target(side, square)
        if not units:
            return []
        reserve = self.reserve[side]
        power = self.formulas.power_of
        everything = {u: reserve[u] for u in units}
        if self.formulas.invasion_power(everything) < needed:
            return []
        armies = []
        for unit in units:
            if power(unit) > 0:
                count = max(1, -(-needed // power(unit)))
                if count <= reserve[unit]:
                    armies.append({unit: int(count)})
        by_power = sorted(units, key=lambda u: (power(u), self.board.units.index(u)))
        for order in (by_power, by_power[::-1]):
            army: dict[str, int] = {}
            left = needed
            for unit in order:
                if left <= 0 and army:
                    break
                if power(unit) <= 0:
                    continue
                count = min(reserve[unit], max(1, -(-left // power(unit))))
                army[unit] = int(count)
                left -= count * power(unit)
            armies.append(army)
        armies.append(everything)
        found, seen = [], set()
        for army in armies:
            action = ("invade",) + tuple(x for unit in self.board.units if army.get(unit)
                                         for x in (unit, army[unit]))
            if action not in seen and self.formulas.invasion_power(army) >= needed:
                seen.add(action)
                found.append(action)
        return found

    def _invasion_army(self, action: Action) -> dict[str, int] | None:
        """The army an invade action names, when the rules allow it here; else None."""
        side = self.side_to_play
        square = self.square
        owner = self.owner.get(square.id)
        if (self.square_done or square.kind not in OWNABLE or owner == side
                or (owner is None and square.kind != TERRITORY)
                or (owner is not None and square.kind == SECRET)):
            return None
        if len(action) < 3 or len(action) % 2 == 0:
            return None
        needed, units = self._target(side, square)
        army: dict[str, int] = {}
        if len(action) % 2 == 0:              # a unit without its count
            return None
        for unit, count in army_pairs(action):
            if unit not in units or type(count) is not int or count < 1 or unit in army:
                return None
            if count > self.reserve[side][unit]:
                return None
            army[unit] = count
        return army if self.formulas.invasion_power(army) >= needed else None

    def _defend_most(self, unit: str) -> int:
        side = self.side_to_play
        square = self.square
        if self.owner.get(square.id) != side or not self.board.takes_part(unit, square):
            return 0           # "Battleships can only move to territories with a seaport"
        return self.reserve[side][unit]

    def _recruit_most(self, unit: str) -> int:
        side = self.side_to_play
        cost = self.board.cost[unit]
        room = self.board.limit[unit] - self.recruited[unit]
        return max(0, min(room, self.money[side] // cost if cost else room))

    # -- the actions, done ---------------------------------------------------------------------
    def _do_pay_ransom(self, side: str) -> None:
        cost = self.formulas.ransom_cost(self.counters[side].get("jailed", 0))
        self.pay(side, cost)
        receiver = self.opponent(side) if self.board.rules.get("ransom_paid_to") == "opponent" else None
        if receiver:
            self.money[receiver] += int(cost)
            self.chronicle.payout(self._round, "ransom", receiver, float(cost))
        self.jailed[side] = False
        self._phase = SPIN

    def _do_stay(self, side: str) -> None:
        if self._phase == JAIL:
            self._ends_turn = True
        else:                                   # no strategic move: act where the spin left us
            self._land(side)

    def _do_spin(self, side: str) -> None:
        face = int(self.rng.integers(1, self.board.faces + 1))
        self.pawn[side] = (self.pawn[side] + face) % len(self.board.squares)
        self._phase = MOVE
        self._legal = None
        if self.legal_actions() == [("stay",)]:
            self._land(side)

    def _do_strategic_move(self, side: str, move: str) -> None:
        steps = self.board.moves[move]
        self.pay(side, self.formulas.strategic_move_cost(steps, self.counters[side].get("strategic_moves", 0)))
        self.counters[side]["strategic_moves"] = self.counters[side].get("strategic_moves", 0) + 1
        self.move_pawn(side, steps)

    def _do_invade(self, side: str, *counts) -> None:
        army = self._invasion_army(("invade",) + counts)
        assert army is not None, "apply checked the invasion is legal, so it names an army"
        square = self.square
        old = self.owner[square.id]
        defending = sum(self.defenders.get(square.id, {}).values())
        for unit, count in army.items():          # "All invading units are lost"
            self.reserve[side][unit] -= count
        self.square_done = True
        self.chronicle.battle(self._round, square.id, side, old or "neutral", sum(army.values()),
                              defending, side)
        self.change_owner(square.id, side)

    def _do_treaty(self, side: str) -> None:
        square = self.square
        self.pay(side, self.treaty_cost(side, square))
        self.free_treaty[side] = False
        self.counters[side]["treaties_signed"] = self.counters[side].get("treaties_signed", 0) + 1
        self.square_done = True
        self.change_owner(square.id, side)

    def _do_build_base(self, side: str) -> None:
        self.pay(side, self.board.parameter("secret_base_cost"))
        self.square_done = True
        self.change_owner(self.square.id, side)

    def _do_ally(self, side: str) -> None:
        self.pay(side, self.board.parameter("special_alliance_cost"))
        self.square_done = True
        self.change_owner(self.square.id, side)

    def _do_defend(self, side: str, unit: str, count: int) -> None:
        space = self.square.id
        self.reserve[side][unit] -= count
        army = self.defenders.setdefault(space, {})
        army[unit] = army.get(unit, 0) + count
        self.defence_changed(space)

    def _do_play(self, side: str, card_id: str) -> None:
        card = next(c for c in self.hand[side] if c.id == card_id)
        self.hand[side].remove(card)
        self.decks[card.deck].put_away(card)
        self._use(side, card)
        if self._phase == JAIL and not self.jailed[side]:
            self._phase = SPIN

    def _do_done(self, side: str) -> None:
        self._phase = RECRUIT

    def _do_recruit(self, side: str, unit: str, count: int) -> None:
        self.pay(side, count * self.board.cost[unit])
        self.reserve[side][unit] += count
        self.recruited[unit] += count

    def _do_end(self, side: str) -> None:
        self._ends_turn = True

    # -- checks -------------------------------------------------------------------------------
    def invariants(self) -> list[str]:
        """Broken rules, as sentences: what no sequence of legal actions may lead to."""
        broken = []
        board = self.board
        for side in board.sides:
            money, reserve, counters = self.money[side], self.reserve[side], self.counters[side]
            if type(money) is not int or money < 0:
                broken.append(f"{side} has $M {money}")
            if any(type(n) is not int or n < 0 for n in reserve.values()):
                broken.append(f"{side} has armies in hand that cannot be: {reserve}")
            if not 0 <= self.pawn[side] < len(board.squares):
                broken.append(f"{side}'s pawn is off the board ({self.pawn[side]})")
            if any(value < 0 for value in counters.values()):
                broken.append(f"{side} has a negative counter: {counters}")
            if self.jailed[side] and counters.get("jailed", 0) < 1:
                broken.append(f"{side} is in jail without having been jailed")
        for space, army in self.defenders.items():
            if self.owner.get(space) is None and army:
                broken.append(f"{space} is defended but nobody owns it")
            if any(n <= 0 for n in army.values()) or (
                    not board.seaport[space] and not board.seaport_only.isdisjoint(army)):
                broken.append(f"{space} is defended by {army}")      # battleships need a seaport
            cached = self._defence.get(space)
            if cached is not None and cached != self.formulas.defence_power(army):
                broken.append(f"the defence power of {space} is out of date")
        if not set(self.owner.values()) <= board.owners:
            broken.append(f"a territory has an owner that is no side: {set(self.owner.values())}")
        if any(count > board.limit[unit] for unit, count in self.recruited.items()):
            broken.append(f"more recruited this turn than the caps allow: {self.recruited}")
        cards = [c for side in board.sides for c in self.hand[side]]
        for deck in self.decks.values():
            cards += deck.cards if deck.pile is None else deck.pile   # not shuffled yet: all in it
            cards += deck.discards
            cards += deck.removed
        if Counter(cards) != board.all_cards:
            broken.append("the cards in the decks, the discards, the hands and out of the game "
                          "are not the decks' cards")
        if self._reason is None:
            if not self.legal_actions():
                broken.append(f"{self.current_player} has no legal action in {self._phase}")
        elif self._winner is not None and self._winner not in board.sides:
            broken.append(f"the winner {self._winner!r} is not a side")
        return broken


def army_pairs(action: tuple) -> list[tuple]:
    """("invade", unit, count, unit, count ...) -> [(unit, count), ...]."""
    return list(zip(action[1::2], action[2::2], strict=True))
