"""The Allies vs. Axis heuristic player: plays like a careful human, in microseconds a move.

It values a territory by what it yields over a few turns (money, and units at their recruiting
cost) and weighs that against what taking it costs: a treaty in $M, or the invading units, which
are all lost. It keeps back enough armies to pay the largest penalty the opponent's territories
can charge, since losing every army means jail and three jailings lose the game; it moves the
rest into the territories it lands on, all of them into its main territory. It buys a strategic
move only when the square it leads to is worth more than the move costs, recruits what its money
allows beyond a small reserve, and plays its cards when they act on something.

Settings (`heuristic:treaties=false,defend-share=0.3`) restrict it for balance questions.
"""
from __future__ import annotations

import math

from validators.conditions import evaluate

from ..options import Setting
from ..players.base import Plan, Player
from .board import FORTUNE, OWNABLE, SECRET, SPECIAL, STRATEGY, TERRITORY
from .game import army_pairs

HORIZON = 6                 # turns of yield a territory is worth
KEEP_MONEY = 400            # $M kept back from recruiting for treaties and bases
JAIL_PRICE = 20_000         # what jail is worth avoiding, in $M
GAME_PRICE = 100_000        # what winning (or not losing) the game is worth, in $M
FEW = 3                     # territories left when each may be the one whose loss loses
KEEP_MARGIN = 2             # armies kept in hand: this many times the largest penalty
FIRST_WEAKEST = 12          # weakest units (infantry) in hand before stronger ones are bought
RICH = 1000                 # $M beyond which the weakest units are bought anyway
# The shares of the spare armies a search weighs moving into an owned territory landed on,
# besides the player's own (defend-share, all of them into the main territory).
DEFEND_SHARES = (0.0, 0.3, 1.0)
DEFEND_SHARES_MAIN = (0.5, 0.0)


class AvAHeuristic(Player):
    name = "heuristic"
    settings = [
        Setting("treaties", True, "bool", "sign peace treaties with neutral territories"),
        Setting("strategic-moves", True, "bool", "buy strategic moves"),
        Setting("defend-share", 0.6, "float",
                "share of the spare armies in hand moved into an owned territory on landing",
                minimum=0, maximum=1),
        Setting("judge", "game", "text", "how it weighs an invasion: by the game's own powers, "
                "or by asking the battle calculator about each army it could send",
                ("game", "calculator")),
    ]

    search_horizon = 3
    search_budget = 8

    def __init__(self, system, side, options, rng):
        super().__init__(system, side, options, rng)
        self._plan: tuple | None = None       # (game, landing, defend actions still to take)
        self._critical_for: tuple | None = None       # (game, turn, territories)
        self._named_for: tuple | None = None          # (victory conditions, side -> spaces)
        self._followed: tuple | None = None   # (step, actions still to take) of a plan followed

    def choose(self, state):
        if self._followed is not None:
            step, todo = self._followed
            while todo and step == _step(state):
                action = todo.pop(0)
                if state.is_legal(action):
                    return action
            self._followed = None
        phase = state.phase
        if phase == "spin":
            return ("spin",)
        if phase == "recruit":
            return self._recruit(state)
        legal = state.legal_actions()
        if phase == "jail":
            for action in legal:
                if action[0] == "play":
                    return action
            return legal[0]                 # pay the ransom when it can, else stay
        if phase == "strategic-move":
            return self._strategic_move(state, legal)
        if phase == "act":
            return self._act(state, legal)
        return legal[-1]

    # -- what a search weighs --------------------------------------------------------------
    def plans(self, state) -> list[Plan]:
        """The side's choices of a turn, each as a few plans, its own first: where to land
        (a strategic move or none), whether and how to take the square landed on (a treaty,
        the cheapest invasion, or leave it), how much of the armies in hand to move into an
        owned territory landed on (a share of them), and how much money to keep back when
        recruiting (as much as it would, nothing, or a strategic move's price more)."""
        if state.current_player != self.side:
            return []
        phase = state.phase
        found: list[Plan] = []
        if phase == "strategic-move" and self.options["strategic_moves"]:
            found = self._move_plans(state)
        elif phase == "act":
            found = self._act_plans(state)
        elif phase == "recruit" and not any(state.recruited.values()):
            found = self._recruit_plans(state)
        unique, seen = [], set()
        for plan in found:
            if plan.content[1] not in seen:
                seen.add(plan.content[1])
                unique.append(plan)
        return unique if len(unique) > 1 else []

    def follow(self, state, plan: Plan) -> None:
        kind, actions = plan.content
        if kind == "defend":                    # the heuristic's own plan for this landing
            side = state.current_player
            self._plan = (state, (state.round, side, state.square.id), list(actions))
        else:
            self._followed = (_step(state), list(actions))

    def _move_plans(self, state) -> list[Plan]:
        legal = state.legal_actions()
        own = self._strategic_move(state, legal)
        side, ring = state.current_player, len(state.board.squares)
        used = state.counters[side].get("strategic_moves", 0)

        def value(action) -> float:
            if action == ("stay",):
                return self._landing_value(state, side, state.pawn[side], state.money[side])
            steps = state.board.moves[action[1]]
            cost = state.formulas.strategic_move_cost(steps, used)
            return (self._landing_value(state, side, (state.pawn[side] + steps) % ring,
                                        state.money[side] - cost) - float(cost))
        others = sorted((a for a in legal if a != own), key=lambda a: (-value(a), a))
        return [Plan(" ".join(map(str, a)), ("move", (a,))) for a in [own, *others]]

    def _act_plans(self, state) -> list[Plan]:
        legal = state.legal_actions()
        side, square = state.current_player, state.square
        if any(a[0] == "play" and self._worth_playing(state, side, a[1]) for a in legal):
            return []                           # the card first; what follows is weighed then
        heads = {a[0] for a in legal}
        if "invade" in heads or "treaty" in heads:
            own = self._take(state, side, square, legal) or ("done",)
            found = [Plan("own: " + own[0], ("take", (own,)))]
            if ("treaty",) in legal and self.options["treaties"]:
                found.append(Plan("treaty", ("take", (("treaty",),))))
            invasions = [a for a in legal if a[0] == "invade"]
            if invasions:
                cheapest = min(invasions, key=lambda a: sum(state.board.cost[u] * n
                                                            for u, n in army_pairs(a)))
                found.append(Plan("cheapest invasion", ("take", (cheapest,))))
            found.append(Plan("leave it", ("take", (("done",),))))
            return found
        landing = (state.round, side, square.id)
        if "defend" in heads and not (self._plan is not None and self._plan[0] is state
                                      and self._plan[1] == landing):
            main = state.board.main_territory.get(side) == square.id
            own = 1.0 if main else self.options["defend_share"]
            shares = [own] + [x for x in (DEFEND_SHARES_MAIN if main else DEFEND_SHARES) if x != own]
            return [Plan(f"defend with {share:.0%}",
                         ("defend", tuple(self._defence_plan(state, side, square, share))))
                    for share in shares]
        return []

    def _recruit_plans(self, state) -> list[Plan]:
        """The recruiting of the turn with other sums kept back, each played out on a copy of
        the game by the heuristic's own rule."""
        side = state.current_player
        own = self._money_to_keep(state, side)
        used = state.counters[side].get("strategic_moves", 0)
        saving = own + float(state.formulas.strategic_move_cost(1, used))
        found = []
        for keep in (own, 0.0, saving):                # its own, spend all, save
            copy = state.clone()
            actions = []
            while copy.phase == "recruit" and copy.current_player == side:
                action = self._recruit(copy, keep)
                actions.append(action)
                if action == ("end",):
                    break
                copy.apply(action)
            found.append(Plan(f"recruit, keep $M {keep:.0f}", ("recruit", tuple(actions))))
        return found

    # -- values ----------------------------------------------------------------------------
    def _worth(self, state, square) -> float:
        board = state.board
        total = 0.0
        for resource, amount in square.yields:
            unit = board.unit_of_resource.get(resource)
            total += amount * (board.cost[unit] if unit else 1)
        return total * float(state.resources) * HORIZON

    def _keep(self, state, side) -> float:
        """The power to keep in hand: the largest penalty an opponent's territory charges."""
        enemy = state.opponent(side)
        return max((state.penalty(space) for space, owner in state.owner.items() if owner == enemy),
                   default=0)

    def _wins_by_taking(self, state, side, space) -> bool:
        position = state.position()
        position.control[space] = side
        return any(v.side == side and evaluate(v.when, position).met for v in state.victories)

    def _landing_value(self, state, side, number, money) -> float:
        """What landing on a square is worth, with `money` left to act there."""
        square = state.board.squares[number]
        owner = state.owner.get(square.id)
        if square.kind in (FORTUNE, STRATEGY):
            return 100.0 * float(state.luck)
        if square.kind not in OWNABLE:
            return 0.0
        if owner == side:              # worth defending: most of all where losing it loses
            if square.id in self._critical(state, side):
                return GAME_PRICE / (1.0 + float(state.defence_power(square.id)))
            return 100.0
        if owner is None:
            params = state.board.parameters
            cost = {SECRET: params.get("secret_base_cost"), SPECIAL: params.get("special_alliance_cost"),
                    TERRITORY: state.treaty_cost(side, square)}[square.kind]
            if square.kind == SPECIAL and state.board.natural_ally.get(square.id) != side:
                return 0.0
            return max(0.0, self._worth(state, square) - float(cost)) if cost <= money else 0.0
        penalty = state.penalty(square.id)
        lost, jailed = state.formulas.penalty_losses(state.reserve[side], penalty)
        if jailed:
            return -JAIL_PRICE
        value = -sum(n * state.board.cost[u] for u, n in lost.items())
        if square.kind != SECRET and self._wins_by_taking(state, side, square.id):
            left = {u: n - lost.get(u, 0) for u, n in state.reserve[side].items()
                    if state.board.takes_part(u, square)}
            if any(left.values()) and state.formulas.invasion_power(left) >= state.defence_power(square.id):
                value += GAME_PRICE
        return value

    # -- the phases ------------------------------------------------------------------------
    def _strategic_move(self, state, legal):
        if not self.options["strategic_moves"]:
            return ("stay",)
        side = state.current_player
        here = state.pawn[side]
        ring = len(state.board.squares)
        used = state.counters[side].get("strategic_moves", 0)
        money = state.money[side]
        best, best_value = ("stay",), self._landing_value(state, side, here, money)
        for action in legal:
            if action[0] != "strategic-move":
                continue
            steps = state.board.moves[action[1]]
            cost = state.formulas.strategic_move_cost(steps, used)
            value = (self._landing_value(state, side, (here + steps) % ring, money - cost)
                     - float(cost))
            if value > best_value:
                best, best_value = action, value
        return best

    def _act(self, state, legal):
        side = state.current_player
        square = state.square
        for action in legal:
            if action[0] == "play" and self._worth_playing(state, side, action[1]):
                return action
        heads = {action[0] for action in legal}
        if "invade" in heads or "treaty" in heads:
            choice = self._take(state, side, square, legal)
            if choice:
                return choice
        for wanted in ("build-base", "ally"):
            if wanted in heads:
                return (wanted,)
        if "defend" in heads:
            action = self._defend(state, side, square)
            if action:
                return action
        return ("done",)

    def _worth_playing(self, state, side, card_id) -> bool:
        card = state.board.cards[card_id]
        for effect in card.effects:
            op = effect.get("op")
            if op == "scale_defenders" and effect.get("space") != state.square.id:
                return False           # keep it for the day we stand there
            if op == "free_treaty" and not (state.owner.get(state.square.id) is None
                                            and state.square.kind == TERRITORY):
                return False
        return True

    def _take(self, state, side, square, legal):
        """Invade or sign a treaty, whichever costs less, when it is worth it; always invade
        when taking the territory wins the game."""
        worth = self._worth(state, square)
        if state.owner.get(square.id) not in (None, side):
            worth *= 2                 # what we gain is what the opponent loses
        def price(action):
            return sum(state.board.cost[u] * n for u, n in army_pairs(action))
        invasions = sorted((a for a in legal if a[0] == "invade"), key=price)
        if self.options["judge"] == "calculator":
            invasions = self._calculated(state, side, square, invasions)
        invasion, invasion_price = (invasions[0], price(invasions[0])) if invasions else (None, 0)
        if invasion and self._wins_by_taking(state, side, square.id):
            return invasion
        if invasion:
            left = dict(state.reserve[side])
            for unit, count in army_pairs(invasion):
                left[unit] -= count
            if state.formulas.invasion_power(left) <= self._keep(state, side):
                invasion = None        # it would leave too little to pay a penalty: jail
        if ("treaty",) in legal and self.options["treaties"]:
            treaty = float(state.treaty_cost(side, square))
            if treaty <= worth and (invasion is None or treaty <= invasion_price):
                return ("treaty",)
        return invasion if invasion and invasion_price <= worth else None

    def _calculated(self, state, side, square, invasions) -> list:
        """The armies the battle calculator says take the territory, cheapest loss first."""
        from ..system import ATTACKER_WINS, Contingent
        from .position import AvAPosition
        owner = state.owner.get(square.id)
        defenders = () if owner is None else (Contingent(owner, dict(state.defenders.get(square.id, {}))),)
        found = []
        for action in invasions:
            army = dict(army_pairs(action))
            end = self.system.exact(AvAPosition(square.id, (Contingent(side, army),), defenders,
                                                mode=state.mode))
            if end.result[0] == ATTACKER_WINS:
                found.append((float(end.attacker_loss[0]), action))
        return [action for _, action in sorted(found, key=lambda pair: pair[0])]

    def _defend(self, state, side, square):
        landing = (state.round, side, square.id)
        if self._plan is None or self._plan[0] is not state or self._plan[1] != landing:
            self._plan = (state, landing, self._defence_plan(state, side, square))
        todo = self._plan[2]
        while todo:
            action = todo.pop(0)
            if state.is_legal(action):
                return action
        return None

    def _defence_plan(self, state, side, square, share: float | None = None) -> list:
        """What to move into this territory: the spare armies in hand (beyond what pays the
        largest penalty, weakest units kept first), a share of them (`share`, else the
        player's own), all in the main one."""
        reserve = state.reserve[side]
        keep_power = KEEP_MARGIN * self._keep(state, side) + 1
        kept = {}
        for unit in sorted(reserve, key=state.formulas.power_of):
            if keep_power <= 0:
                break
            power = state.formulas.power_of(unit)
            count = min(reserve[unit], math.ceil(keep_power / power)) if power else 0
            kept[unit] = count
            keep_power -= count * power
        if share is None:
            share = 1.0 if state.board.main_territory.get(side) == square.id \
                else self.options["defend_share"]
        plan = []
        for unit in state.board.units:
            count = int((reserve[unit] - kept.get(unit, 0)) * share)
            if count > 0 and state.board.takes_part(unit, square):
                plan.append(("defend", unit, count))
        return plan

    def _money_to_keep(self, state, side) -> float:
        """A little for treaties and bases; the price of a strategic move while a territory
        whose loss loses the game is weaker than the opponent's armies in hand."""
        enemy = state.opponent(side)
        threat = state.formulas.invasion_power(state.reserve[enemy])
        if any(state.defence_power(space) < threat for space in self._critical(state, side)):
            used = state.counters[side].get("strategic_moves", 0)
            return max(KEEP_MONEY, float(state.formulas.strategic_move_cost(1, used)))
        return KEEP_MONEY

    def _named(self, state, side) -> set[str]:
        """The spaces the side's victory conditions name."""
        if self._named_for is None or self._named_for[0] is not state.victories:
            self._named_for = (state.victories, {})
        found = self._named_for[1]
        if side not in found:
            found[side] = _named_spaces([v.when for v in state.victories if v.side == side])
        return found[side]

    def _critical(self, state, side) -> list[str]:
        """The side's territories whose loss loses the game (worked out once a turn): those a
        victory condition names, and any of the last few the side owns."""
        turn = (state.round, side)
        if self._critical_for is None or self._critical_for[0] is not state \
                or self._critical_for[1] != turn:
            enemy = state.opponent(side)
            owned = [space for space, owner in state.owner.items() if owner == side]
            named = self._named(state, enemy)
            candidates = owned if len(owned) <= FEW else [s for s in owned if s in named]
            found = [space for space in candidates if self._wins_by_taking(state, enemy, space)]
            self._critical_for = (state, turn, found)
        return self._critical_for[2]

    def _recruit(self, state, keep: float | None = None):
        """Weakest units first while there are few in hand (they pay penalties and support the
        stronger ones), then the most power for the money (a free unit first), battleships
        (which need a seaport) last; `keep` (else what it always keeps) stays unspent. A unit
        that costs nothing is recruited up to its cap, as the rules let it be."""
        side = state.current_player
        board = state.board
        budget = state.money[side] - (self._money_to_keep(state, side) if keep is None else keep)
        power = state.formulas.power_of
        weakest = min(board.units, key=lambda u: (power(u), board.cost[u]))
        others = sorted((u for u in board.units if u != weakest),
                        key=lambda u: (u in board.seaport_only,
                                       -power(u) / board.cost[u] if board.cost[u] else -math.inf))
        for unit in [weakest] + others:
            cost = board.cost[unit]
            if budget < cost:
                continue
            if unit == weakest and state.reserve[side][unit] >= FIRST_WEAKEST \
                    and state.recruited[unit] == 0 and budget < RICH:
                continue
            room = board.limit[unit] - state.recruited[unit]
            count = min(room, budget // cost) if cost else room
            if count > 0:
                return ("recruit", unit, int(count))
        return ("end",)


def _step(state) -> tuple:
    """Where a followed plan applies: this phase of this turn, on this square."""
    side = state.side_to_play
    return (state.round, side, state.phase, state.pawn[side])


def _named_spaces(conditions) -> set[str]:
    """The spaces conditions name (`spaces: [...]`)."""
    found: set[str] = set()
    for condition in conditions:
        if isinstance(condition, dict):
            spaces = condition.get("spaces")
            if isinstance(spaces, list):
                found.update(s for s in spaces if isinstance(s, str))
            found |= _named_spaces(list(condition.values()))
        elif isinstance(condition, list):
            found |= _named_spaces(condition)
    return found
