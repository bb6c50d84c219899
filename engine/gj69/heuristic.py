"""The GJ69 heuristic player: greedy, one impulse at a time, with the cards used for what they
are good at.

At each impulse it scores what it could do (a normal action with its least useful card for each
of the best groups, an air operation for each of the best air groups, each card action) by its
worth in VP (worth.py), and takes the best, or passes when nothing is worth `pass-below`; when
the enemy has just passed, passing would end the turn with the hand unused (§4.0(3)), so it
passes only when nothing is worth anything. Only groups that can take the action they are formed
for are formed: a group that could only hold would be turned over for nothing (§6.2).

Its plans are operations of more than one impulse where that pays: troops at sea whose landing
enemy ships block (§7.1(2), §7.3(1), §7.5(3)) are kept at sea while the fleet is struck, by air
and by ships, and land once the sea is clear; a group moves into an enemy area to attack it
there next, twice with the damage added when a card in hand allows (§18.1); damage on units that
cannot recover (§12) counts for more; destroyers stay with what the enemy's submarines could
sink.

It keeps its reaction cards (Ambush, Force Z) for the enemy's impulse and plays one when the
enemy attacks or enters an area where its units would strike first (§10); it never discards
them for a normal action while another card will do. Card by card: Blitzkrieg and Oxygen
Torpedoes for a group that can act twice, Joint Operation and Hinode for several good groups,
Independent Units and Landing Operation to put troops ashore despite the sea-border limits,
Divine Soldiers to drop paratroops into an empty enemy area, Supply when many units are used,
YES or NO against MacArthur, Submarines against the seas where they can succeed, Oil Field
Demolition where Japan threatens an oil field, the reinforcement cards when units are in the
pools, I Shall Return when MacArthur is about to be caught.

For a search (engine/players/search.py) it proposes, at each of its impulses, its own choice and
the best of the other kinds of impulse (`plans`), follows the one chosen (`follow`), and plays
each look-ahead to its side's next impulse (`plan_point`): an impulse and the enemy's answer.
Eight such look-aheads cost less than two to the end of the turn, and reach every plan.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..game import Action
from ..options import Setting
from ..players.base import Plan, Player
from .cards import AIR, ATTACK, MOVE, TRANSPORT, Order, Slot
from .damage import READY, USED
from .groups import KIND_OF
from .worth import Kept, Worth

_TRANSPORT = frozenset({TRANSPORT})
_AIR = frozenset({AIR})
NORMAL_SLOT = Order.normal().slots[0]      # read only
AIR_SLOT = Order.air().slots[0]
RESERVE = 2.0        # what a reaction card in hand is worth
SPECIAL = 0.6        # a card that leaves the game after use, kept for its own action
PLAIN = 0.15         # any other card, played face down


@dataclass(frozen=True)
class Choice:
    """An impulse the player weighs: its action, the area, units and action of its first group
    when they are chosen with it, and what it is worth in VP."""

    worth: float
    action: Action
    group: tuple | None = None

    @property
    def kind(self) -> str:
        """pass, normal, air or play (§6.1)."""
        return self.action[0]

    @property
    def label(self) -> str:
        text = " ".join(str(part) for part in self.action if part)
        if self.group is not None:
            text += f": {self.group[0]} " + " ".join(map(str, self.group[2]))
        return text


class HeuristicPlayer(Worth, Player):
    name = "heuristic"
    search_horizon = 1           # a look-ahead plays at most to the end of the turn,
    search_to_next_plan = True   # and stops at the side's next impulse
    search_budget = 8            # look-ahead games per impulse (a search game near 2 s)
    settings = [
        Setting("reactions", True, "bool", "answer enemy attacks and entries with reaction cards (§10)"),
        Setting("air-attacks", True, "bool", "make air attacks (§9.1)"),
        Setting("pass-below", 0.25, "float", "pass when no action is worth this many VP", minimum=0),
        Setting("judge", "estimate", "text",
                "how attacks are weighed: estimate (expected hits, allocated by the rules) or "
                "calculator (the exact distribution of the battle calculator: slower)",
                ("estimate", "calculator")),
    ]

    def __init__(self, system, side, options, rng):
        super().__init__(system, side, options, rng)
        self.plan: tuple | None = None          # (area, units, action) of the group being formed
        self.intent: tuple | None = None        # the same, chosen with the impulse for its first group
        self.following: Choice | None = None    # the impulse a search chose, for the next decision
        self._added: dict = {}                  # units added to the group being formed
        self._formed_at: str | None = None      # the area it was formed in
        self._acted: str | None = None          # the kind of action it took (move, attack, air)
        self._memo: dict = {}
        self._kept = Kept()

    # -- dispatch --------------------------------------------------------------------------------
    def choose(self, state) -> Action:
        self.new_position(state)
        actions = state.legal_actions()
        following, self.following = self.following, None
        if following is not None and state.step == "impulse" and state.is_legal(following.action):
            self.plan, self.intent = None, following.group
            return following.action
        handler = getattr(self, "_" + state.step.replace("-", "_"), None)
        choice = handler(state, actions) if handler else None
        if choice is None or not state.is_legal(choice):
            choice = self._fallback(actions)
        return choice

    @staticmethod
    def _fallback(actions: list[Action]) -> Action:
        for wanted in (("done",), ("stop",), ("no-reaction",), ("end",), ("pass",)):
            if wanted in actions:
                return wanted
        return actions[0]

    # -- what a group could do ---------------------------------------------------------------------
    def group_options(self, state, side: str, slot: Slot, kinds, order: Order | None,
                      reserved=None) -> list[tuple[float, str, dict, Action]]:
        """(worth, area, units, action) for the best actions of each area's units, best first
        (kept for the position: callers must not change the list)."""
        wanted = sorted(kinds & slot.kinds)
        terms = [(kind, _terms(kind, slot, order)) for kind in wanted]
        key = ("group-options", side, tuple(terms), repr(reserved))
        found = self._memo.get(key)
        if found is None:
            found = []
            for kind, kind_terms in terms:
                found += self._cached(state, ("groups", side, kind, kind_terms, repr(reserved)),
                                      lambda kind=kind: self._verified(
                    state, side, slot, self._kind_options(state, side, slot, kind, order, reserved)))
            found.sort(key=lambda o: -o[0])
            self._memo[key] = found
        return found

    def _verified(self, state, side, slot, options, enough: int = 3):
        """The options best first, the best of them checked against the rules: moves are
        scored for nearby areas first and only the promising ones are searched (§7)."""
        from .groups import Group
        options.sort(key=lambda o: -o[0])
        kept, checked = [], 0
        for option in options:
            worth, area, units, action = option
            if action[0] == "move" and checked < enough:
                if state.movement.step_cost(state.forces, state.mover(Group(side, area, units, slot)),
                                            area, action[1]) is None:
                    continue
                checked += 1
            kept.append(option)
        return kept

    def _kind_options(self, state, side, slot, kind, order, reserved):
        found = []
        enemy = state.enemy(side)
        kinds = frozenset({kind})
        for area in sorted(state.forces.occupied(side)):
            eligible = state._eligible(side, area, slot, kinds, reserved)
            if not eligible:
                continue
            land = state.board.areas[area].land
            if kind == ATTACK and state.forces.has(area, enemy):
                firing = {k: n for k, n in eligible.items() if state.fires_here(k[0], area, side)}
                if firing:
                    targets = {(u, f): n for u, f, n in state.forces.stacks(area, enemy)}
                    capture = self.capture_worth(state, side, area)
                    set_attack = order.set_attack if order else ()
                    # a card that lets the group act again lets it attack twice, the damage
                    # added (§18.1)
                    twice = bool(order and order.again_groups)
                    worth = self.attack_worth(state, firing, targets, "normal", land, set_attack,
                                              2 if twice else slot.strikes, capture, combined=twice,
                                              lasting=self.lasting(state, side, area))
                    worth += self.relief(state, side, area, targets, self.hits(
                        state, firing, "normal", area, set_attack, 2 if twice else slot.strikes), False)
                    found.append((worth, area, firing, ("attack",)))
            elif kind == AIR and self.options.get("air_attacks", True):
                flying = {k: n for k, n in eligible.items() if state.profiles[k[0]].flies}
                if flying:
                    found += self._air_options(state, side, area, flying)
            elif kind == MOVE:
                found += self._move_options(state, side, area, eligible, slot)
            elif kind == TRANSPORT:
                found += self._transport_options(state, side, area, eligible, slot)
        return found

    def _air_options(self, state, side, area, flying):
        from .groups import Group
        found = []
        key = ("air-attacks", side, area, tuple(sorted(flying.items())))
        for action in self._cached(state, key, lambda: state.air_attacks(
                Group(side, area, dict(flying), AIR_SLOT))):
            found.append((self._air_worth(state, side, flying, action[1]) * 0.9, area, flying, action))
        return found

    def _air_worth(self, state, side: str, flying: dict, target: str) -> float:
        """An air attack: the damage, and at sea the ships it sinks that threatened own troops
        there (the first step of an operation: strike the fleet, then land, §7.1(2), §7.5(3))."""
        targets = state.air_targets(side, target)
        land = state.board.areas[target].land
        worth = self.attack_worth(state, flying, targets, "air", land,
                                  lasting=self.lasting(state, side, target))
        return worth + self.relief(state, side, target, targets, self.hits(state, flying, "air", target), True)

    def _move_options(self, state, side, area, eligible, slot):
        found = []
        profiles = state.profiles
        land_units = {k: n for k, n in eligible.items() if profiles[k[0]].domain == "land"
                      and profiles[k[0]].movement > 0}
        ships = {k: n for k, n in eligible.items() if profiles[k[0]].domain == "sea"}
        groups = []                                       # (units, whether they are ships)
        if land_units:
            limit = slot.max_units or 10
            strongest = sorted(land_units.items(), key=lambda kv: -profiles[kv[0][0]].attack)
            if not state.board.areas[area].land:
                limit = min(limit, slot.sea_land_units or state.board.sea_land_units)
            total = sum(land_units.values())
            groups.append((_take(strongest, limit), False))
            if limit > 2 and total > 2:                       # across a sea-area border (§7.3(1))
                groups.append((_take(strongest, 2), False))
            if limit > 1 and total > 1 and any(kind == "mountain" for _, kind
                                               in state.board.neighbours[area]):
                groups.append((_take(strongest, 1), False))   # across a mountain border (§7.3(2))
        if ships:
            groups.append((_take(sorted(ships.items()), slot.max_units or 99), True))
        for units, naval in groups:
            targets = self._targets(state, side, area, naval)
            for target, worth in zip(targets, self.move_worths(state, side, area, targets, units),
                                     strict=True):
                found.append((worth, area, units, ("move", target)))
        return found

    def _targets(self, state, side: str, area: str, naval: bool) -> list[str]:
        """The areas worth a look for a move from `area`: next to it, or within two steps for
        ships (worked out once for every group of the area and every slot)."""
        key = ("targets", side, area, naval)
        found = self._memo.get(key)
        if found is None and naval:                             # ships go where enemy ships are
            ships = self._ships_at(state, state.enemy(side))
            found = self._memo[key] = [target for target in state.board.within_two[area]
                                       if target in ships]
        elif found is None:
            looks = self._memo.get(("looks", side))             # areas share their neighbours
            if looks is None:
                looks = self._memo["looks", side] = {}
            found = []
            for target in state.board.next_to[area]:
                look = looks.get(target)
                if look is None:
                    look = looks[target] = self._worth_a_look(state, side, target)
                if look:
                    found.append(target)
            self._memo[key] = found
        return found

    def _worth_a_look(self, state, side: str, target: str) -> bool:
        """Whether a move of troops there can be worth anything: to enemy areas, to threatened
        areas of worth, or to sea areas to land from (the parts of the area's view that say
        so, without the rest of it)."""
        enemy = state.enemy(side)
        if state.board.areas[target].land:
            return bool(state.forces.has(target, enemy) or state.forces.control.get(target) != side
                        or (self.area_worth(state, target) and self._threat(state, side, target)))
        return self._landings(state, side, target, 2) > 0

    def _transport_options(self, state, side, area, eligible, slot):
        """Sea transport of one unit (§7.5): every unit of the area goes where the strongest
        of them can, so the search is made once per area."""
        from .groups import Group
        ranked = sorted(eligible.items(), key=lambda kv: (-state.profiles[kv[0][0]].attack, kv[0]))
        if not ranked:
            return []
        units = {ranked[0][0]: 1}
        key = ("transports", side, area, tuple(units.items()))      # no term of the slot counts
        actions = [a for a in self._cached(state, key, lambda: state.action_options(
                   Group(side, area, units, slot), _TRANSPORT)) if a[0] == "transport"]
        worths = self.move_worths(state, side, area, [a[1] for a in actions], units)
        return [(worth, area, units, action) for worth, action in zip(worths, actions, strict=True)]

    # -- the impulse -------------------------------------------------------------------------------
    def _impulse(self, state, actions):
        chosen = self.impulse_choices(state)[0]
        self.plan, self.intent = None, chosen.group
        return chosen.action

    def impulse_choices(self, state) -> list[Choice]:
        """What the side could do with this impulse, best first: passing, a normal action with
        its least useful card for each of the best groups, an air operation for each of the
        best air groups, each card action (§6.1). Only groups that can take the action they
        are chosen for count (a group that could only hold would turn over for nothing)."""
        side = state.current_player
        actions = state.legal_actions()
        # the forces may stay the same from one impulse to the next: the impulse is its own
        key = ("impulse-choices", side, state.checkpoint, tuple(state.decks[side].hand), tuple(actions))
        found = self._memo.get(key)
        if found is not None:
            return found
        position = _position(self, state, key[1:])
        seen = _SEEN.get(position)
        if seen is not None and seen[0] is state.movement:
            found = self._memo[key] = seen[1]
            return found
        found = [Choice(self._pass_worth(state, side), ("pass",))]
        normal = [a for a in actions if a[0] == "normal"]
        if normal:
            card = min((a[1] for a in normal), key=lambda c: (self.card_keep(state, side, c), c))
            keep = self.card_keep(state, side, card)
            for worth, area, units, action in self.feasible(state, side, NORMAL_SLOT,
                                                            frozenset({MOVE, ATTACK}), None, 3):
                found.append(Choice(worth - keep, ("normal", card), (area, units, action)))
        if ("air",) in actions:
            for worth, area, units, action in self.feasible(state, side, AIR_SLOT, _AIR, None, 2):
                found.append(Choice(worth, ("air",), (area, units, action)))
        for action in actions:
            if action[0] == "play":
                worth = self.play_worth(state, side, action[1], action[2]) \
                    - self.card_keep(state, side, action[1])
                found.append(Choice(worth, action))
        found.sort(key=lambda c: -c.worth)          # stable: passing first among equals
        self._memo[key] = found
        if len(_SEEN) >= SEEN_POSITIONS:
            _SEEN.clear()
        _SEEN[position] = (state.movement, found)
        return found

    def _pass_worth(self, state, side: str) -> float:
        """Passing keeps the cards for later in the turn, unless the enemy has just passed:
        then it ends the turn (§4.0(3)) and the cards in hand go back unused (§4.0(4)③)."""
        checkpoint = getattr(state, "checkpoint", None)
        if checkpoint and checkpoint[0] == "impulse" and checkpoint[2] and state.decks[side].hand:
            return 0.0
        return self.options.get("pass_below", 0.25)

    def feasible(self, state, side: str, slot: Slot, kinds, order: Order | None, limit: int,
                 reserved=None, where: str | None = None) -> list[tuple[float, str, dict, Action]]:
        """The best `limit` group options of distinct areas and actions (in one area, `where`)
        whose group can take the action (moves are scored before they are checked, §7)."""
        found, seen, looked = [], set(), 0
        for option in self.group_options(state, side, slot, kinds, order, reserved):
            worth, area, units, action = option
            if (area, action) in seen or where is not None and area != where:
                continue
            looked += 1
            if looked > 4 * limit:
                break
            if action[0] != "move" or self._can_move(state, side, area, units, slot, action[1]):
                seen.add((area, action))
                found.append(option)
                if len(found) >= limit:
                    break
        return found

    def _can_move(self, state, side: str, area: str, units: dict, slot: Slot, target: str) -> bool:
        """Whether the group may move there (the other actions are listed only where they may
        be taken): one step checked alone, a fleet's longer moves against its destinations."""
        from .groups import Group
        mover = state.mover(Group(side, area, units, slot))
        if target in state.board.adjacent[area]:
            return state.movement.step_cost(state.forces, mover, area, target) is not None
        return target in state.movement.destinations(state.forces, mover, area)

    # -- what a search asks of the player --------------------------------------------------------
    def plans(self, state) -> list[Plan]:
        """At an impulse: its own choice first, then the best of each other kind of action (a
        normal action, an air operation, a card action), and the rest best first; elsewhere
        none (the impulse's groups carry out the plan chosen). Passing is a plan only where it
        is its own choice: a look-ahead to the next impulse cannot see what a card kept is
        worth, and a search that weighed passing against acting ended turns with cards unused
        (§4.0(3))."""
        if state.step != "impulse" or state.current_player != self.side:
            return []
        self.new_position(state)
        choices = self.impulse_choices(state)
        own = choices[0]
        chosen, kinds = [own], {own.kind}
        for choice in choices[1:]:
            if choice.kind not in kinds and choice.action != ("pass",):
                chosen.append(choice)
                kinds.add(choice.kind)
        chosen += [c for c in choices[1:] if c not in chosen and c.action != ("pass",)]
        return [Plan(choice.label, choice) for choice in chosen]

    def plan_point(self, state) -> bool:
        return state.step == "impulse"

    def follow(self, state, plan: Plan) -> None:
        self.following = plan.content

    def fork(self, rng) -> HeuristicPlayer:
        twin = type(self)(self.system, self.side, self.options, rng)
        twin.following = self.following
        # what damage does is the same in every game of these units: the look-ahead keeps it
        twin._damages_of, twin._damages = getattr(self, "_damages_of", None), getattr(self, "_damages", {})
        twin._results_of, twin._results = getattr(self, "_results_of", None), getattr(self, "_results", {})
        twin.inherit(self)              # the look-ahead starts where this player just looked
        twin._kept = self._kept
        if hasattr(self, "_card_ops"):                  # the cards' operations, and hands seen
            twin._card_ops, twin._card_ops_of, twin._hands_seen = self._card_ops, self._card_ops_of, self._hands_seen
        return twin

    def card_keep(self, state, side: str, card: str) -> float:
        info = state.system.cards[card]
        if info.reaction:
            return RESERVE if self.options.get("reactions", True) else PLAIN
        if info.removed_after_use:
            return SPECIAL
        return PLAIN

    def play_worth(self, state, side: str, card: str, option: str) -> float:
        play = state.system.play(card, option)
        order = state.system.order(play)
        worth = 0.0
        if order is not None:
            worth += self.order_worth(state, side, order)
        for effect in play.effects:
            judge = getattr(self, "_worth_" + effect.get("op", ""), None)
            if judge is not None:
                worth += judge(state, side, effect)
        return worth

    def order_worth(self, state, side: str, order: Order) -> float:
        """The best groups of distinct areas for the order's slots, plus what acting again adds."""
        total, used = 0.0, set()
        firsts = []
        for slot in order.slots:
            for worth, area, units, action in self.group_options(state, side, slot, slot.kinds, order):
                if area not in used and worth > 0.05:
                    used.add(area)
                    total += worth
                    firsts.append((worth, units, action))
                    break
        if order.again_groups and firsts:
            follow = [self._follow_up(state, side, units, action) for _, units, action in firsts]
            total += sum(sorted(follow, reverse=True)[:order.again_groups])
        return total

    def _follow_up(self, state, side, units: dict, action) -> float:
        """What a second action is worth after the first: after a move into an enemy land
        area, the attack the group's own units can make there (only the group acts again,
        §18.1); after an attack, a little."""
        target = action[1] if action[0] == "move" else None
        if target is not None and state.board.areas[target].land:
            enemies = {(u, f): n for u, f, n in state.forces.stacks(target, state.enemy(side))}
            firing = {k: n for k, n in units.items() if state.fires_here(k[0], target, side)}
            if not enemies or not firing:
                return 0.0
            return self.attack_worth(state, firing, enemies, "normal", True,
                                     capture=self.capture_worth(state, side, target),
                                     lasting=self.lasting(state, side, target))
        if action[0] == "attack":
            return 0.5
        return 0.0

    # per operation (the play's non-group effects)
    def _worth_recover_units(self, state, side, effect) -> float:
        areas = state.supplied(side) if effect["scope"] == "supplied_areas" else state.board.ids
        used = sum(n for a in areas for u, f, n in state.forces.stacks(a, side) if f == USED
                   and self._front(state, side, a) > 0)
        cards_left = len(state.decks[side].hand) - 1
        return 0.15 * min(used, int(effect.get("units") or 10)) * min(1, cards_left)

    def _worth_airdrop(self, state, side, effect) -> float:
        best = 0.0
        for action in self._drops(state, side, effect):
            best = max(best, self._drop_worth(state, side, action[4]))
        return best

    def _drop_worth(self, state, side, area) -> float:
        if state.forces.control.get(area) == side or state.forces.has(area, state.enemy(side)):
            return 0.0
        return self.area_worth(state, area)

    def _drops(self, state, side, effect):
        from .operations import _drops
        return _drops(state, side, effect)

    def _worth_roll_to_remove(self, state, side, effect) -> float:
        from .operations import _own_land_areas
        chance = (7 - int(effect["at_least"])) / 6
        best = max((self.unit_worth(state, u) for a in _own_land_areas(state, side)
                    for u, _, _ in state.forces.stacks(a, state.enemy(side))), default=0.0)
        return chance * best

    def _worth_submarine_attack(self, state, side, effect) -> float:
        chances = sorted((self._sub_chance(state, side, effect, a) * self._best_victim(state, side, a)
                          for a in state.board.ids if not state.board.areas[a].land
                          and state.forces.has(a, state.enemy(side))), reverse=True)
        return sum(chances[:1]) * int(effect["attacks"])

    def _sub_chance(self, state, side, effect, area) -> float:
        enemy = state.enemy(side)
        shift = int(effect["enemy_control_modifier"]) if state.forces.control.get(area) == enemy else 0
        shift += int(effect["per_enemy_destroyer_modifier"]) * sum(
            n for u, _, n in state.forces.stacks(area, enemy) if state.profiles[u].unit_class == "dd")
        need = int(effect["succeeds_at_least"]) - shift
        return max(0, min(6, 7 - need)) / 6

    def _best_victim(self, state, side, area) -> float:
        return max((self.unit_worth(state, u) for u, _, _ in state.forces.stacks(area, state.enemy(side))),
                   default=0.0)

    def _worth_expose_oil_field(self, state, side, effect) -> float:
        from .operations import _oil_areas
        return max((0.6 for a in _oil_areas(state, side) if self._threat(state, side, a)), default=0.0)

    def _worth_reinforce(self, state, side, effect) -> float:
        from .operations import reinforce_possible
        return 0.5 * int(effect["units"]) if reinforce_possible(state, side, effect) else 0.0

    def _worth_remove_unit(self, state, side, effect) -> float:
        areas = state.forces.where(effect["type"])
        if not areas or effect.get("scores", True):
            return 0.0
        enemy = state.enemy(side)
        danger = any(state.forces.has(a, enemy) for a in areas) or any(
            state.forces.count(o, enemy, state.profiles, "land") >= 3
            for a in areas for o in state.board.adjacent[a])
        elimination = state.rules.elimination_vp().get(effect["type"])
        return float(elimination["amount"]) + 0.5 if danger and elimination else 0.0

    # -- forming and moving the group ---------------------------------------------------------
    def _group_area(self, state, actions):
        side = state.current_player
        self._added, self._acted = {}, None
        intent, self.intent = self.intent, None
        if intent is not None and ("area", intent[0]) in actions:
            self.plan = intent
            return ("area", intent[0])
        for worth, area, units, action in self.feasible(state, side, state.slot, state.slot_kinds,
                                                        state.order, 1, state.reserved):
            if ("area", area) in actions and (worth > 0.05 or ("end",) not in actions):
                self.plan = (area, units, action)
                return ("area", area)
        if ("end",) in actions:
            return ("end",)
        self.plan = None
        return None

    def _group_units(self, state, actions):
        if self.plan is None and state.group is not None:
            # the game chose the area itself, the only one with units for the slot
            found = self.feasible(state, state.current_player, state.slot, state.slot_kinds,
                                  state.order, 1, state.reserved, state.group.area)
            if found:
                self.plan = found[0][1:]
                self._added, self._acted = {}, None
        if self.plan is None:
            return None
        _, units, _ = self.plan
        self._formed_at = state.group.area if state.group is not None else None
        if not self._added and ("done",) in actions:
            # the game took the first unit itself, the only kind the area had (§6.2)
            adds = [a[1:] for a in actions if a[0] == "add"]
            if len(adds) == 1:
                self._added[adds[0]] = 1
        for (unit, face), n in sorted(units.items()):
            if self._added.get((unit, face), 0) < n and ("add", unit, face) in actions:
                self._added[unit, face] = self._added.get((unit, face), 0) + 1
                return ("add", unit, face)
        return ("done",) if ("done",) in actions else None

    def _action(self, state, actions):
        choice = self._choose_action(state, actions)
        self._acted = KIND_OF.get(choice[0]) if choice else None
        return choice

    def _choose_action(self, state, actions):
        if self.plan is not None and self.plan[2] in actions:
            choice = self.plan[2]
            self.plan = None
            if choice == ("attack",) and ("attack-twice",) in actions:
                return max((choice, ("attack-twice",)),
                           key=lambda a: self._worth_action(state, state.group, a))
            return choice
        group = state.group
        best, choice = -99.0, None
        for action in actions:
            worth = self._worth_action(state, group, action)
            if worth > best:
                best, choice = worth, action
        return choice

    def _worth_action(self, state, group, action) -> float:
        side, area = group.side, group.area
        if action[0] in ("attack", "attack-twice"):
            targets = {(u, f): n for u, f, n in state.forces.stacks(area, state.enemy(side))}
            twice = action[0] == "attack-twice"      # damage added before allocation (§18.1)
            land = state.board.areas[area].land
            capture = self.capture_worth(state, side, area)
            return self.attack_worth(state, group.units, targets, "normal", land,
                                     state.order.set_attack if state.order else (),
                                     2 if twice else group.slot.strikes, capture, combined=twice,
                                     lasting=self.lasting(state, side, area))
        if action[0] == "air-attack":
            return self._air_worth(state, side, group.units, action[1])
        if action[0] in ("move", "transport", "air-move"):
            return self.move_worth(state, side, area, action[1], group.units)
        return 0.0

    def _again(self, state, actions):
        group = state.group
        kinds = group.slot.kinds if group.kind is None else frozenset({group.kind})
        if group.kind is None and state.order is not None and state.order.again_same_kind:
            # the second action is of the first's kind (§19): the one chosen, or, when the
            # game took the only one there was, what the group's place says it was
            last = self._acted or (next(iter(group.slot.kinds & {AIR}), None) if all(
                state.profiles[u].flies for u, _ in group.units) else MOVE if group.area != self._formed_at
                else ATTACK)
            kinds = kinds & {last}
        ready = {k: n for k, n in group.units.items() if k[1] == READY}
        from .groups import Group
        probe = Group(group.side, group.area, ready, group.slot)
        # a second action is for striking, or for taking an area (never for going back)
        best = max((self._worth_action(state, probe, a) for a in state.action_options(probe, kinds)
                    if a[0] in ("attack", "air-attack") or a[0] in ("move", "transport")
                    and self._view(state, group.side, a[1]).theirs), default=0.0)
        if best > 0.2:
            self.plan = None
            return ("again",)
        return ("stop",)

    # -- the enemy's impulse -------------------------------------------------------------------
    def _react(self, state, actions):
        if not self.options.get("reactions", True):
            return ("no-reaction",)
        group = state.group
        side = state.current_player
        best, choice = 0.4, ("no-reaction",)
        for action in actions:
            if action[0] != "react":
                continue
            play = state.system.play(action[1], action[2])
            area = self._struck_area(state)
            hits = 0.0
            for counter in play.counters:
                firing = {(u, f): n for u, f, n in state.forces.stacks(self._struck_area(state), side)
                          if (counter.get("attackers") == "ships" and state.profiles[u].domain == "sea")
                          or (counter.get("attackers") != "ships" and f == READY
                              and state.fires_here(u, self._struck_area(state), side))}
                hits += self.hits(state, firing, "normal", area) * int(counter.get("times", 1))
            used = {(u, USED): n for (u, _), n in group.units.items()}
            worth = self.damage_worth(state, used, hits, state.board.areas[self._struck_area(state)].land,
                                      False) + 0.3 * hits
            if worth > best:
                best, choice = worth, action
        return choice

    @staticmethod
    def _struck_area(state) -> str:
        """Where the counter-attack strikes: the area the group attacks in or enters."""
        return state.reaction_area or state.group.area

    def _retreat(self, state, actions):
        side = state.current_player
        def worth(action):
            area = action[2]
            return (state.forces.count(area, side, state.profiles, "land")
                    + (3 if state.board.areas[area].fortress else 0)
                    + (2 if area in state.supplied(side) else 0), area)
        return max(actions, key=worth)

    # -- card operations and the rest ------------------------------------------------------------
    def _choose_cards(self, state, actions):
        side = state.current_player
        return max(actions, key=lambda a: (self.hand_worth(state, side, a[1]), a[1]))

    def hand_worth(self, state, side: str, card: str) -> float:
        """How much a card is wanted in this turn's hand: what its operations are good for now,
        less for each card of the same title already taken."""
        info = state.system.cards[card]
        same = sum(1 for c in state.decks[side].hand if state.system.cards[c].title == info.title)
        if info.reaction:
            return 3.0 - 0.5 * same
        key = ("card-use", side, card)
        worth = self._memo.get(key)
        if worth is None:
            worth = self._memo[key] = max((self._card_use(state, side, p) for p in info.plays
                                           if p.is_action), default=0.0)
        return worth - 0.6 * same

    def _card_use(self, state, side: str, play) -> float:
        worth = 0.0
        for effect in play.effects:
            op = effect.get("op")
            if op == "act_again":
                worth += 1.2 + 0.4 * int(effect["groups"])
            elif op == "activate_groups":
                single = effect.get("max_units_per_group") == 1
                worth += (0.3 if single else 0.8) * int(effect["groups"]) ** 0.5
                if effect.get("sea_border_land_units") or effect.get("sea_border_limits") is False:
                    worth += 0.6 * self._troops_at_sea(state, side)
            elif op == "attack":
                worth += 0.8 if self._ships(state, side) else 0.0
            elif op == "set_attack":
                worth += 0.4 if self._ships(state, side) else -1.0
            elif op == "sea_transport":
                worth += 0.6
            elif op == "recover_units":
                worth += 0.9
            else:
                judge = getattr(self, "_worth_" + str(op), None)
                if judge is not None:
                    worth += judge(state, side, effect) if op != "recover_units" else 0.0
        return worth

    def _ships(self, state, side: str) -> int:
        return sum(n for a in state.forces.occupied(side) for u, _, n in state.forces.stacks(a, side)
                   if state.profiles[u].domain == "sea")

    def _troops_at_sea(self, state, side: str) -> int:
        return sum(n for a in state.forces.occupied(side) if not state.board.areas[a].land
                   for u, _, n in state.forces.stacks(a, side) if state.profiles[u].domain == "land")

    def _leader_recovery(self, state, actions):
        return max(actions, key=lambda a: (state.profiles[a[2]].attack, a[2]))

    def _recover(self, state, actions):
        side = state.current_player
        best = [a for a in actions if a[0] in ("recover", "area")]
        if not best:
            return ("end",)
        return max(best, key=lambda a: (self._front(state, side, a[1]),
                                        state.profiles[a[2]].attack if len(a) > 2 else 0, a))

    def _airdrop(self, state, actions):
        side = state.current_player
        drops = [a for a in actions if a[0] == "drop"]
        if not drops:
            return ("end",)
        best = max(drops, key=lambda a: (self._drop_worth(state, side, a[4]), a))
        return best if self._drop_worth(state, side, best[4]) > 0 else ("end",)

    def _roll_to_remove(self, state, actions):
        side = state.current_player
        return max(actions, key=lambda a: (self._best_victim(state, side, a[1]), a))

    def _remove(self, state, actions):
        return max(actions, key=lambda a: (self.unit_worth(state, a[1]), a))

    _sink = _remove

    def _submarine(self, state, actions):
        side = state.current_player
        effect = state.effect
        areas = [a for a in actions if a[0] == "area"]
        if not areas or effect is None:
            return areas[0] if areas else ("end",)
        return max(areas, key=lambda a: (self._sub_chance(state, side, effect, a[1])
                                         * self._best_victim(state, side, a[1]), a))

    def _oil_field(self, state, actions):
        side = state.current_player
        return max(actions, key=lambda a: (self._threat(state, side, a[1]), a))

    def _reinforce(self, state, actions):
        side = state.current_player
        return max(actions, key=lambda a: (self._front(state, side, a[1]), a))

    def _place_units(self, state, actions):
        side = state.current_player
        return max(actions, key=lambda a: (sum(self._front(state, side, o)
                                               for o in state.board.next_to[a[2]]), a))


# Impulses worked out lately, by position: a search's look-ahead and the game (or the next
# look-ahead) often reach the same position by other moves, and the choices are worked out from
# the position alone (the worths kept from earlier positions are those it would work out anew).
# An entry holds its game's movement rules, so that no other game's can take their id.
_SEEN: dict[tuple, tuple] = {}
SEEN_POSITIONS = 512


def _position(player: HeuristicPlayer, state, impulse: tuple) -> tuple:
    """All an impulse's choices depend on: the player's settings, the impulse (side,
    checkpoint, hand, legal actions), the units, control, pools, the turn, the oil fields and
    the cards."""
    return (id(state.movement), tuple(sorted(player.options.items())), impulse, state.turn,
            state.forces.content(),
            tuple(sorted((a, m.value, m.exposed_by, m.destroyed) for a, m in state.oil.items())),
            tuple((tuple(d.hand), tuple(d.pile), tuple(d.played), tuple(d.gone))
                  for _, d in sorted(state.decks.items())))


def _terms(kind: str, slot: Slot, order: Order | None) -> tuple:
    """What in a slot and its order changes the options of one kind of action."""
    if kind == MOVE:
        return (slot.max_units, slot.movement, slot.sea_limits, slot.sea_land_units,
                slot.enter_sea, slot.domain, slot.used_may_act)
    if kind == ATTACK:
        return (slot.domain, slot.used_may_act, slot.strikes,
                tuple(map(str, order.set_attack)) if order else (), bool(order and order.again_groups))
    return (slot.max_units, slot.domain, slot.used_may_act)


def _take(ranked: list, limit: int) -> dict:
    """The first `limit` units of (key, count) pairs ranked best first."""
    chosen: dict = {}
    left = limit
    for key, n in ranked:
        if left <= 0:
            break
        chosen[key] = min(n, left)
        left -= chosen[key]
    return chosen
