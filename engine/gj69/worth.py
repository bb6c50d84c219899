"""What things are worth to the GJ69 heuristic player, in VP: areas, units, damage, attacks
and moves. Worth: an area's VP, its oil field and, for a fortress, the VP the Allies score there
every turn left (§15.0, §16.1(3)); a Japanese unit lost is worth its VP to the Allies
(§15.0(1)②), MacArthur 1 VP to Japan (§16.2(3)); damage that turns or retreats a unit is worth a
little. Hits are expected values, one die per unit at or under its value (§11.1), allocated by
the rules' own allocation (damage.allocate), or, with `judge=calculator`, the exact
distribution of the battle calculator.

Everything is worked out once per position of a decision (`Worth.new_position`). An area's
view and the worth of moves between views are kept longer, while nothing they depend on has
changed: the area and its neighbours (`Forces.changed`), the turn, the oil fields, the enemy's
reach at sea, whether the enemy's units there can recover (§12) and the landing the troops at
sea are for. What a move does against the enemy's submarines turns on the own ships at either
end, which a view leaves out: it is added afresh.
"""
from __future__ import annotations

from typing import NamedTuple

from .damage import ELIMINATED, READY, RETREATS, TURNED, USED, Piece, allocate, ladder, result_of

_MISSING = object()
CONTEST = 0.3           # of an enemy area's worth, for standing in it with all the attack there
AIR_THREAT = 0.8        # VP an enemy air unit's hit costs (a unit at sea, an air unit on the ground)
TURN, LASTING = 0.1, 0.5  # a unit turned over, and one that cannot recover before the next attack
LANDING = 0.3           # of a land area's stake, for putting troops at sea ashore there
OPERATION_TROOPS = 3    # land units at sea that make a landing an operation
SUBMARINE_ATTACKS = 1.5  # of the 3 attacks of the enemy's Submarines, those one sea area may draw
# What is worked out for a position without the hands' terms (`new_position`): the areas and
# their views, the enemy's reach; not move worths (attacks to come, the enemy's submarines), nor
# the group options and choices made of them.
HANDS_FREE = frozenset({"worth", "front", "landings", "operation", "lasting", "exposure", "views",
                        "targets", "looks", "areas-with", "air-reach", "air-attacks", "transports"})
# (the targets' profiles, targets, points, land, attacker allocates) -> results, shared by the
# games of a process: keyed by the profiles too, as a variant's units of the same names may
# have other values (a comparison plays parent and variant in one process)
_ALLOCATIONS: dict = {}


class Kept:
    """An area's view and the worth of moves between views, kept while nothing they depend on
    has changed (see `Worth._kept_view`): the views for the turn and the oil markers, the
    worths also for what the hands allow. A player shares them with its copies in a search's
    look-aheads: a version names one content in every copy of a game (board.py), and a view
    is only ever replaced by one that differs."""

    def __init__(self) -> None:
        self.views: dict = {}           # (side, area) -> (its neighbourhood's change stamps, view)
        self.moves: dict = {}           # a group's key -> target -> (view there, view here, worth)
        self._views_era: tuple | None = None
        self._moves_era: tuple | None = None

    def start(self, turn: int, oil: tuple, hands: tuple) -> None:
        if (turn, oil) != self._views_era:
            self._views_era, self.views = (turn, oil), {}
        if (turn, oil, hands) != self._moves_era:
            self._moves_era, self.moves = (turn, oil, hands), {}


class Worth:
    """The valuation half of the heuristic player (heuristic.py)."""

    options: dict
    _memo: dict
    _inherited: tuple | None    # (position key, memo) of the player a look-ahead's copy began from
    _kept: Kept                 # views and move worths kept from one position to the next
    _damages: dict              # targets -> (points, land, attacker allocates) -> worth, left
    _results: dict              # (targets, points, land, attacker allocates) -> each result

    def new_position(self, state) -> None:
        """Forget what was worked out once the position has changed."""
        # the markers in the game's own order (its copies keep it)
        oil = tuple([(m.exposed_by, m.destroyed) for m in state.oil.values()])
        hands = self._hand_terms(state)           # what the hands allow: attacks twice, submarines
        epoch = (id(state), state.forces.version, state.turn, oil, hands)
        if epoch != getattr(self, "_memo_key", None):
            inherited, self._inherited = getattr(self, "_inherited", None), None
            # a clone's first position is its game's when the forces' version is (a version
            # names one content in every copy, board.py)
            before = getattr(self, "_memo_key", None)
            if inherited is not None and inherited[0] is not None and inherited[0][1:] == epoch[1:]:
                memo = inherited[1]
            elif before is not None and before[:4] == epoch[:4]:
                # only the hands have changed (a card played): what they do not bear on stays
                memo = {key: value for key, value in self._memo.items() if key[0] in HANDS_FREE}
            else:
                memo = {}
            self._memo_key, self._memo = epoch, memo
            self._kept.start(state.turn, oil, hands)

    def inherit(self, other: Worth) -> None:
        """Start from what `other` has worked out for its position, for the first decision of
        a clone of its game (a search's look-ahead): the same position, the same worths."""
        self._inherited = (getattr(other, "_memo_key", None), getattr(other, "_memo", None))

    def _cached(self, state, key, work):
        """Memoised for the position of the current decision (see `new_position`)."""
        found = self._memo.get(key, _MISSING)
        if found is _MISSING:
            found = self._memo[key] = work()
        return found

    # -- worth -------------------------------------------------------------------------------------
    def area_worth(self, state, area: str) -> float:
        """VP at stake in holding an area: its printed VP, an oil field, a fortress's VP per
        turn left (§15.0, §16.1(3))."""
        key = ("worth", area)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._area_worth(state, area)
        return found

    def _area_worth(self, state, area: str) -> float:
        info = state.board.areas[area]
        if not info.land:
            return 0.0
        worth = info.value
        marker = state.oil.get(area)
        if marker is not None and not marker.destroyed:
            worth += marker.value if marker.exposed_by else 1.8
        if info.fortress:
            worth += self._fortress_worth(state, area)
        return worth

    def capture_worth(self, state, side: str, area: str) -> float:
        """What driving every enemy unit out of the area wins the side: the area's worth where
        it is a land area the enemy holds, nothing elsewhere (§14)."""
        if not state.board.areas[area].land or state.forces.control.get(area) == side:
            return 0.0
        return self.area_worth(state, area)

    @staticmethod
    def _fortress_worth(state, area: str) -> float:
        """The VP a fortress area pays its holder at the end of each turn left (§16.1(3))."""
        return max(0, state.last_turn - state.turn) + 1

    def unit_worth(self, state, unit: str) -> float:
        """What eliminating a unit is worth to its enemy: VP (§15.0(1)②, §16.2(3)) and strength."""
        profile = state.profiles[unit]
        return profile.worth + 0.3 + 0.08 * (profile.attack + (profile.air_power or 0))

    def damage_worth(self, state, targets: dict, hits: float, land: bool, attacker_allocates: bool,
                     capture: float = 0.0, lasting: bool = False) -> float:
        """Expected worth of `hits` damage points on the targets ((type, face) -> count), with
        the allocation of the rules (damage.allocate: the owner spreads the points to do least
        harm, the attacker in an air attack concentrates them, §11.2, §11.4); `capture` is added
        when no target is left in the area; `lasting`: the targets cannot recover (§12), so a
        unit turned over stays easier to drive out."""
        if hits <= 0 or not targets:
            return 0.0
        low = int(hits)
        share = hits - low
        held = tuple(sorted(targets.items()))
        worth = (1 - share) * self._damage_at(state, held, low, land, attacker_allocates, capture, lasting)
        if share:
            worth += share * self._damage_at(state, held, low + 1, land, attacker_allocates, capture,
                                             lasting)
        return worth

    def attack_worth(self, state, firing: dict, targets: dict, mode: str, land: bool, set_attack=(),
                     strikes: int = 1, capture: float = 0.0, combined: bool = False,
                     lasting: bool = False) -> float:
        """What an attack of the `firing` units ((type, face) -> count) on the targets is worth:
        estimated from the expected hits, or, with `judge=calculator`, over the exact
        distribution of its ends."""
        if self.options.get("judge") == "calculator":
            return self._calculated(state, firing, targets, mode, land, set_attack, strikes,
                                    capture, combined)
        hits = self.hits(state, firing, mode, "", set_attack, strikes)
        return self.damage_worth(state, targets, hits, land, mode == "air", capture, lasting)

    def _calculated(self, state, firing, targets, mode, land, set_attack, strikes, capture,
                    combined) -> float:
        from .attack import DEAD, IN, OUT, Attack, make_state
        from .combat import strikes_of
        if not firing or not targets:
            return 0.0
        attack = Attack(state.profiles, land, strikes_of([], "attacker", mode, strikes, combined),
                        list(set_attack), state.rules.immune_to_air(), False,
                        {"attacker": frozenset(), "defender": frozenset(u for u, _ in targets)})
        ends = attack.exact(make_state({(u, f, IN): n for (u, f), n in firing.items()}),
                            make_state({(u, f, IN): n for (u, f), n in targets.items()}), 200_000)
        if ends is None:
            hits = self.hits(state, firing, mode, "", set_attack, strikes)
            return self.damage_worth(state, targets, hits, land, mode == "air", capture)
        worth = 0.0
        for (_, defender), chance in ends.items():
            value, left = 0.0, False
            for (unit, face, place), n in defender:
                if place == DEAD:
                    value += n * self.unit_worth(state, unit)
                elif place == OUT:
                    value += n * 0.3
                else:
                    left = True
                    value += n * 0.1 * (face == USED and (unit, READY) in targets)
            worth += float(chance) * (value + (0.0 if left else capture))
        return worth

    def _damage_at(self, state, targets: tuple, points, land, attacker_allocates, capture,
                   lasting: bool = False) -> float:
        """`targets`: ((type, face), count) pairs, sorted."""
        if getattr(self, "_damages_of", None) is not state.profiles:     # a game's own units
            self._damages_of, self._damages = state.profiles, {}
        known = self._damages.get(targets)              # by the targets first: hashed once
        if known is None:
            known = self._damages[targets] = {}
        found = known.get((points, land, attacker_allocates))
        if found is None:
            found = known[points, land, attacker_allocates] = self._damage_of(
                state, (targets, points, land, attacker_allocates))
        worth, left, turned = found
        return worth + (capture if not left else 0.0) + (LASTING - TURN) * turned * lasting

    def _damage_of(self, state, key: tuple) -> tuple[float, int, int]:
        """The worth of the damage without a capture, how many targets are left and how many
        of them are turned over."""
        worth, left, turned = 0.0, 0, 0
        for unit, result in self.results(state, key):
            if result == ELIMINATED:
                worth += self.unit_worth(state, unit)
            elif result == RETREATS:
                worth += 0.3
            else:
                worth += TURN if result == TURNED else 0.0
                turned += result == TURNED
                left += 1
        return worth, left, turned

    def lasting(self, state, side: str, area: str) -> bool:
        """Whether the enemy's units in the area stay turned over at the end of the turn: no
        line of communication there (§12, §13) and not the enemy's supply leader's area
        (§16.2(1)②)."""
        key = ("lasting", side, area)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = area not in state.recovering(state.enemy(side))
        return found

    def results(self, state, key: tuple) -> list[tuple[str, str | None]]:
        """(unit, result) of each target for `key` = (targets, points, land, attacker
        allocates), targets as sorted ((type, face), count) pairs: the rules' allocation."""
        if getattr(self, "_results_of", None) is not state.profiles:     # a game's own units
            self._results_of, self._results = state.profiles, {}
        found = self._results.get(key)
        if found is None:
            found = self._results[key] = self._allocation(state, key)
        return found

    @staticmethod
    def _allocation(state, key: tuple) -> list[tuple[str, str | None]]:
        shared = (tuple(state.profiles[u] for (u, _), _ in key[0]), key)
        found = _ALLOCATIONS.get(shared)
        if found is None:
            targets, points, land, attacker_allocates = key
            pieces = [Piece(state.profiles[u], f, True) for (u, f), n in targets for _ in range(n)]
            given = allocate(pieces, points, land, not attacker_allocates)
            found = [(p.profile.id, result_of(ladder(p, land), g)) for p, g in zip(pieces, given, strict=True)]
            if len(_ALLOCATIONS) > 20_000:
                _ALLOCATIONS.clear()
            _ALLOCATIONS[shared] = found
        return found

    def relief(self, state, side: str, area: str, targets: dict, hits: float,
               attacker_allocates: bool) -> float:
        """What an attack saves own units from: the ready enemy air units and carriers it
        eliminates or turns over cannot strike this turn (§6.2, §9), and the enemy ships it
        sinks in a sea area cannot sink own land units at sea there (one for each hit,
        §11.31(2))."""
        if hits <= 0:
            return 0.0
        profiles = state.profiles
        land = state.board.areas[area].land
        troops = 0 if land else state.forces.count(area, side, profiles, "land")
        held = tuple(sorted(targets.items()))
        pieces = [key for key, n in held for _ in range(n)]
        low = int(hits)
        worth = 0.0
        for points, weight in ((low, 1 - (hits - low)), (low + 1, hits - low)):
            if weight <= 0:
                continue
            sunk = 0.0
            for (unit, face), (_, result) in zip(pieces, self.results(state, (held, points, land, attacker_allocates)),
                                                 strict=True):
                profile = profiles[unit]
                if profile.flies and face == READY and result in (ELIMINATED, TURNED):
                    worth += weight * AIR_THREAT * (profile.air_power or 0) / 6
                if result == ELIMINATED and profile.domain == "sea":
                    sunk += profile.attack / 6
            worth += weight * min(troops, sunk)
        operation = None if land else self.operation(state, side, area)
        if operation is not None and operation[2]:
            # the first step of the operation: each unit gone brings the landing nearer
            gone = 0.0
            for points, weight in ((low, 1 - (hits - low)), (low + 1, hits - low)):
                if weight > 0:
                    gone += weight * sum(result == ELIMINATED for _, result in
                                         self.results(state, (held, points, land, attacker_allocates)))
            worth += operation[1] * gone / len(pieces)
        return worth

    def hits(self, state, units: dict, mode: str, area: str, set_attack=(), strikes: int = 1) -> float:
        if mode == "normal" and not set_attack:
            values = self._attack_values(state)
            return sum(n * values[unit] / 6 for (unit, _), n in units.items()) * strikes
        total = 0.0
        for (unit, _), n in units.items():
            profile = state.profiles[unit]
            if mode == "air":
                value = profile.air_power or 0
            else:
                value = profile.air_power if profile.domain == "air" else profile.attack
                for change in set_attack:
                    if change.get("attack") == "normal" and change.get("domain") == profile.domain:
                        value = int(change["value"])
            total += n * min(6, max(0, value or 0)) / 6
        return total * strikes

    def _attack_values(self, state) -> dict[str, int]:
        """Unit type -> the value its die hits at in a normal attack, of the game's units."""
        if getattr(self, "_values_of", None) is not state.profiles:
            self._values_of = state.profiles
            self._values = {u: min(6, max(0, (p.air_power if p.domain == "air" else p.attack) or 0))
                            for u, p in state.profiles.items()}
        return self._values

    def move_worth(self, state, side: str, origin: str, target: str, units: dict) -> float:
        return self.move_worths(state, side, origin, (target,), units)[0]

    def move_worths(self, state, side: str, origin: str, targets, units: dict) -> list[float]:
        """`_move_worth` of the same units to each of the targets, kept for the position (by
        the group, then by target: the group's key is hashed once)."""
        key = ("moves", side, origin, tuple(sorted(units.items())))
        known = self._memo.get(key)
        if known is None:
            known = self._memo[key] = {}
        else:
            try:
                return [known[target] for target in targets]
            except KeyError:
                pass
        missing = [target for target in targets if target not in known]
        if missing:
            profiles = state.profiles
            domains = {profiles[u].domain for u, _ in units}
            count = sum(n for (u, _), n in units.items() if profiles[u].domain == "land")
            at = self._view(state, side, origin)
            # a worth depends on the two views alone (air units' on the enemy's, anywhere)
            kept = None if domains == {"air"} else self._kept.moves.setdefault(key, {})
            views = self._memo["views", side]       # made by the origin's view above
            for target in missing:
                if kept is None:
                    known[target] = self._move_worth(state, side, origin, target, units, domains,
                                                     count, at)
                    continue
                to = views.get(target) or self._view(state, side, target)
                entry = kept.get(target)
                if entry is not None and entry[0] is to and entry[1] is at:
                    worth = entry[2]
                else:
                    worth = self._move_worth(state, side, origin, target, units, domains, count,
                                             at, submarines=False)
                    kept[target] = (to, at, worth)
                if not (at.land and to.land):
                    worth += self.submarine_change(state, side, origin, target, units)
                known[target] = worth
        return [known[target] for target in targets]

    def _move_worth(self, state, side: str, origin: str, target: str, units: dict,
                    domains: set | None = None, count: int | None = None,
                    at: _View | None = None, submarines: bool = True) -> float:
        """A capture is worth the area; entering an area with enemy units, what the attack that
        the units there can make next is worth; troops at sea, the landings they make
        possible less what the enemy's aircraft and ships may sink (a land unit at sea goes
        down to 1 point, §11.31(2)); leaving an area the enemy would then take costs it.
        `domains`, `count` (land units) and `at` (the origin's view), when the caller has them;
        without `submarines`, what the move changes in losses to the enemy's submarines is left
        out (it turns on more than the two views)."""
        profiles = state.profiles
        if domains is None:
            domains = {profiles[u].domain for u, _ in units}
        if domains == {"air"}:
            return 0.1 * (self._air_reach(state, side, target) - self._air_reach(state, side, origin))
        if count is None:
            count = sum(n for (u, _), n in units.items() if profiles[u].domain == "land")
        to = self._view(state, side, target)
        if at is None:
            at = self._view(state, side, origin)
        worth = 0.0
        if to.land:
            if to.enemies and state.turn >= state.last_turn:
                # units that move on the last turn are used till the game ends (§6.2, §12):
                # they attack nothing more and change no one's control
                worth = 0.0
            elif to.enemies:
                ours = dict(to.own_land)
                for key, n in units.items():
                    if profiles[key[0]].domain == "land":
                        ours[key] = ours.get(key, 0) + n
                # the attack they can make there next: twice, with the damage added, when a
                # card in hand lets a group act again (§18.1)
                hits = self.hits(state, ours, "normal", target, strikes=self.next_strikes(state, side))
                worth = 0.6 * self.damage_worth(state, to.enemies, hits, True, False,
                                                to.worth if to.theirs else 0.0, to.lasting)
                if to.theirs:            # standing in the area with the stronger force
                    worth += CONTEST * to.worth * self.share(state, ours, to.enemies)
            elif to.theirs:
                worth = to.worth + 0.3
            else:
                worth = 0.05 * (to.front - at.front)
                if to.worth and to.threat:
                    worth += 0.4 * to.worth / (1 + sum(to.own_land.values()))
            if not at.land:
                worth += _shared(at.exposure, count, sum(at.own_land.values()))
                worth += self._landing_move(at, target, count)
        else:
            if "sea" in domains and to.enemy_ships:
                ships = {k: n for k, n in units.items() if profiles[k[0]].domain == "sea"}
                hits = self.hits(state, ships, "normal", target)
                worth = 0.5 * self.damage_worth(state, to.enemy_ships, hits, False, False)
            if count:
                worth += 0.4 * to.landings - _shared(to.exposure, count, sum(to.own_land.values()) + count)
                if not at.land:
                    worth += _shared(at.exposure, count, sum(at.own_land.values())) - 0.4 * at.landings
                    worth += self._landing_move(at, target, count)
        if at.land and not at.theirs and at.threat \
                and sum(at.own_land.values()) <= count:
            worth -= at.worth
        if at.land and at.theirs and not at.enemies and sum(at.own_land.values()) <= count:
            worth -= at.worth + 0.3     # an empty enemy area entered is taken only if units stay (§14.0(2))
        if submarines and not (at.land and to.land):
            worth += self.submarine_change(state, side, origin, target, units)
        if at.land and at.theirs and at.enemies and count:     # giving up a contested enemy area
            left = {k: n - units.get(k, 0) for k, n in at.own_land.items() if n > units.get(k, 0)}
            worth -= CONTEST * at.worth * (self.share(state, at.own_land, at.enemies)
                                           - self.share(state, left, at.enemies))
        return worth

    @staticmethod
    def _landing_move(at: _View, target: str, count: int) -> float:
        """Troops leaving a sea area with a landing to make: their part of its worth, gained
        when they land there and lost when they go elsewhere (the landing is the second step
        of the operation; the first, striking what blocks it, is worth it too: `relief`)."""
        if at.operation is None or not count:
            return 0.0
        land, worth, _ = at.operation
        part = worth * count / max(count, sum(at.own_land.values()))
        return part if target == land else -part

    def _hand_terms(self, state) -> tuple:
        """For each side, whether its hand lets a group act again, and the enemy's submarine
        attacks it may still meet this turn (their card in the enemy's hand, or in its deck
        while hands are chosen)."""
        ops = getattr(self, "_card_ops", None)
        if ops is None or getattr(self, "_card_ops_of", None) is not state.system:
            ops = self._card_ops = {card: {e.get("op"): e for p in info.plays for e in p.effects}
                                    for card, info in state.system.cards.items()}
            self._card_ops_of = state.system
            self._hands_seen: dict[tuple, tuple] = {}
        choosing = state.phase in ("place-units", "choose-cards")
        key = tuple([tuple(state.decks[side].hand) for side in state.sides])      # asked at every decision
        if choosing:
            key += tuple([tuple(state.decks[side].pile) for side in state.sides])
        found = self._hands_seen.get(key)
        if found is None:
            if len(self._hands_seen) > 1024:
                self._hands_seen.clear()
            found = self._hands_seen[key] = self._hand_terms_of(state, ops, choosing)
        return found

    def _hand_terms_of(self, state, ops: dict, choosing: bool) -> tuple:
        terms = []
        for side in state.sides:
            deck = state.decks[side]
            enemy = state.decks[state.enemy(side)]
            twice = any("act_again" in ops[c] for c in deck.hand)
            subs = next((ops[c]["submarine_attack"] for c in sorted(set(enemy.hand) | (
                set(enemy.pile) if choosing else set())) if "submarine_attack" in ops[c]), None)
            terms.append((twice, None if subs is None else tuple(sorted(subs.items()))))
        return tuple(terms)

    def next_strikes(self, state, side: str) -> int:
        """Attacks a group can add up in one action: 2 when the hand holds a card that lets a
        group act again (Blitzkrieg, Hinode, Oxygen Torpedoes: §18.1), else 1."""
        return 2 if self._memo_key[-1][state.sides.index(side)][0] else 1

    def share(self, state, ours: dict, theirs: dict) -> float:
        """Our part of the land units' attack in an area where both sides stand."""
        profiles = state.profiles
        mine = sum(n * profiles[u].attack for (u, _), n in ours.items() if profiles[u].domain == "land")
        other = sum(n * profiles[u].attack for (u, _), n in theirs.items() if profiles[u].domain == "land")
        return mine / (mine + other) if mine + other else 0.0

    def _view(self, state, side: str, area: str) -> _View:
        views = self._memo.get(("views", side))
        if views is None:
            views = self._memo["views", side] = {}
        found = views.get(area)
        if found is None:
            found = views[area] = self._kept_view(state, side, area)
        return found

    def _kept_view(self, state, side: str, area: str) -> _View:
        """The view of an earlier position when neither the area nor its neighbours have
        changed since (units, control), nor what the view reads from farther off: whether the
        enemy's units there can recover (lines of communication, §12), the enemy's reach at
        sea and the landing of the troops at sea there (the side's air units in range)."""
        stamp = tuple(map(state.forces.changed.get, state.board.around[area]))
        entry = self._kept.views.get((side, area))
        if entry is not None and entry[0] == stamp:
            view = entry[1]
            if view.land:
                if not view.enemies or view.lasting == self.lasting(state, side, area):
                    return view
            elif view.exposure == self._exposure(state, side, area) \
                    and view.operation == self.operation(state, side, area):
                return view
        view = self._view_of(state, side, area)
        if entry is not None and entry[1] == view:
            view = entry[1]                 # the same as before: moves to it are worth the same
        self._kept.views[side, area] = (stamp, view)
        return view

    def _view_of(self, state, side: str, area: str) -> _View:
        enemy = state.enemy(side)
        land = state.board.areas[area].land
        enemies = {(u, f): n for u, f, n in state.forces.stacks(area, enemy)}
        own_land = {(u, f): n for u, f, n in state.forces.stacks(area, side)
                    if state.profiles[u].domain == "land"}
        return _View(land, state.forces.control.get(area) != side, self.area_worth(state, area),
                     enemies, {k: n for k, n in enemies.items() if state.profiles[k[0]].domain == "sea"},
                     own_land, self._front(state, side, area) if land else 0.0,
                     self._threat(state, side, area) if land else False,
                     0.0 if land else self._landings(state, side, area, 2),
                     0.0 if land else self._exposure(state, side, area),
                     None if land else self.operation(state, side, area),
                     land and bool(enemies) and self.lasting(state, side, area))

    def operation(self, state, side: str, sea: str) -> tuple | None:
        """The landing the side's troops at sea there are for (an operation of two steps): the
        enemy land area next to it where putting them ashore is worth most, what it is worth
        (a share of the area and of the fortress areas it opens, §16.1(1), as their attack
        bears on the defenders'), and whether enemy units in the sea area block it: leaving an
        area with enemy units costs 1 more movement, more than land units have across a sea
        border (§7.1(2), §7.3(1)①), and a sea transport cannot both start and end among enemy
        units (§7.5(3)). A blocked landing counts only while the side can strike the sea area
        (ready air units in range, ships there)."""
        key = ("operation", side, sea)
        found = self._memo.get(key, _MISSING)
        if found is not _MISSING:
            return found
        found = None
        profiles, forces = state.profiles, state.forces
        troops = {(u, f): n for u, f, n in forces.stacks(sea, side) if profiles[u].domain == "land"}
        enemy = state.enemy(side)
        if sum(troops.values()) >= OPERATION_TROOPS:
            blocked = forces.has(sea, enemy)
            if not blocked or self._strikable(state, side, sea):
                best = 0.0
                for land in state.board.land_next_to[sea]:
                    if forces.control.get(land) == side or not state.movement.may_enter(land, side, ()) \
                            or state.movement.fortress_blocks(sea, land, side, forces.control):
                        continue
                    enemies = {(u, f): n for u, f, n in forces.stacks(land, enemy)}
                    if enemies:
                        ours = dict(troops)
                        for u, f, n in forces.stacks(land, side):
                            ours[u, f] = ours.get((u, f), 0) + n
                        worth = LANDING * self._stake(state, land) * self.share(state, ours, enemies)
                    else:
                        worth = self.area_worth(state, land) + 0.3
                    if worth > best:
                        best, found = worth, (land, worth, blocked)
        self._memo[key] = found
        return found

    def _stake(self, state, area: str) -> float:
        """An area's worth and that of the fortress areas entered from it (§16.1(1))."""
        fortresses = state.movement.fortress_areas
        return self.area_worth(state, area) + sum(
            self.area_worth(state, other) for other in state.board.land_next_to[area]
            if other in fortresses and area not in fortresses)

    def _strikable(self, state, side: str, sea: str) -> bool:
        """Whether the side has ships in the sea area, or ready air units or carriers in range."""
        profiles, forces = state.profiles, state.forces
        if forces.count(sea, side, profiles, "sea"):
            return True
        for area in forces.occupied(side):
            flying = [u for u, f, _ in forces.stacks(area, side) if f == READY and profiles[u].flies]
            if flying and sea in state.movement.air_range(
                    area, min(profiles[u].movement for u in flying),
                    any(profiles[u].domain == "sea" for u in flying), side,
                    frozenset(profiles[u].owner for u in flying)):
                return True
        return False

    def _landings(self, state, side: str, sea: str, count: int) -> float:
        """What land units in a sea area can take next: the best enemy land area next to it,
        all of it when empty of enemy units, a little when held."""
        return self._cached(state, ("landings", side, sea, min(count, 2)), lambda: max(
            ((self.area_worth(state, land) if not state.forces.has(land, state.enemy(side))
              else 0.15 * self.area_worth(state, land))
             for land in state.board.adjacent[sea] if state.board.areas[land].land
             and state.forces.control.get(land) != side
             and state.movement.may_enter(land, side, ())
             and not state.movement.fortress_blocks(sea, land, side, state.forces.control)),
            default=0.0))

    def _exposure(self, state, side: str, sea: str) -> float:
        """Expected hits the enemy's ready air units and carriers (within their air range,
        §9.1(3)) and half those of its ships (there or next to it) could put this turn on
        land units at sea there: each hit sends one of them to the pool (§11.31(2)), whatever
        their number, so it is shared among the units there."""
        return self._cached(state, ("exposure", side), lambda: self._exposures(state, side)).get(sea, 0.0)

    def _exposures(self, state, side: str) -> dict[str, float]:
        enemy = state.enemy(side)
        board, movement = state.board, state.movement
        hits: dict[str, float] = {}
        for area in sorted(state.forces.occupied(enemy)):     # sorted: the same sums everywhere
            air = sea = 0.0
            carriers = False
            for unit, face, n in state.forces.stacks(area, enemy):
                profile = state.profiles[unit]
                if profile.flies and face == READY:
                    air += n * (profile.air_power or 0) / 6
                    carriers = carriers or profile.domain == "sea"
                if profile.domain == "sea" and face == READY:
                    sea += 0.5 * n * profile.attack / 6
            if air and (carriers or not board.areas[area].land or state.forces.control.get(area) == enemy):
                flying = [u for u, f, _ in state.forces.stacks(area, enemy) if state.profiles[u].flies and f == READY]
                reach = min(state.profiles[u].movement for u in flying)
                owners = frozenset(state.profiles[u].owner for u in flying)
                for other in movement.air_range(area, reach, carriers, enemy, owners):
                    if not board.areas[other].land:
                        hits[other] = hits.get(other, 0.0) + air
            if sea:
                for other in board.seas_within(area, 1):
                    hits[other] = hits.get(other, 0.0) + sea
        return {sea: 0.5 * value for sea, value in hits.items()}

    def _submarines(self, state, side: str) -> dict | None:
        """The enemy's submarine attacks (§19 Submarines) when it may still play them this turn:
        the card in its hand, or in its deck while hands are still to be chosen."""
        found = self._memo_key[-1][state.sides.index(side)][1]
        return None if found is None else dict(found)

    def submarine_risk(self, state, side: str, sea: str, destroyers: int) -> float:
        """The chance that one enemy submarine attack sinks a unit of `side` in the sea area
        with this many of its destroyers there (§19: less 2 under its control marker, less 2
        per destroyer)."""
        effect = self._submarines(state, side)
        if effect is None:
            return 0.0
        shift = int(effect["enemy_control_modifier"]) if state.forces.control.get(sea) == side else 0
        shift += int(effect["per_enemy_destroyer_modifier"]) * destroyers
        return max(0, min(6, 7 - (int(effect["succeeds_at_least"]) - shift))) / 6

    @staticmethod
    def _destroyers(state, side: str, sea: str) -> int:
        return sum(n for u, _, n in state.forces.stacks(sea, side) if state.profiles[u].unit_class == "dd")

    def submarine_change(self, state, side: str, origin: str, target: str, units: dict) -> float:
        """What a move saves in units lost to the enemy's submarine attacks (§19 Submarines): each
        success sinks one unit of a sea area where `side` has units, whatever their number, less
        likely with more of its destroyers there; the move changes the areas with units and
        the destroyers in them."""
        if self._submarines(state, side) is None:
            return 0.0
        profiles = state.profiles
        moving = sum(units.values())
        escorts = sum(n for (u, _), n in units.items() if profiles[u].unit_class == "dd")
        saved = 0.0
        if not state.board.areas[origin].land:
            here = self._destroyers(state, side, origin)
            saved += SUBMARINE_ATTACKS * self.submarine_risk(state, side, origin, here)
            if state.forces.count(origin, side, profiles) > moving:
                saved -= SUBMARINE_ATTACKS * self.submarine_risk(state, side, origin, here - escorts)
        if not state.board.areas[target].land:
            there = self._destroyers(state, side, target)
            if state.forces.has(target, side):
                saved += SUBMARINE_ATTACKS * self.submarine_risk(state, side, target, there)
            saved -= SUBMARINE_ATTACKS * self.submarine_risk(state, side, target, there + escorts)
        return saved

    def _air_reach(self, state, side: str, area: str) -> float:
        """Enemy units an air unit in `area` could strike (those at sea count double)."""
        key = ("air-reach", side, area)
        found = self._memo.get(key)
        if found is None:
            enemy = state.enemy(side)
            board, forces = state.board, state.forces
            found = self._memo[key] = sum(
                n * (1 if board.areas[a].land else 2)
                for a in board.within(area, 4) if forces.has(a, enemy)
                for _, _, n in forces.stacks(a, enemy))
        return found

    def _front(self, state, side: str, area: str) -> float:
        """The worth of enemy-held land areas next to `area`."""
        key = ("front", side, area)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._front_of(state, side, area)
        return found

    def _front_of(self, state, side: str, area: str) -> float:
        control = state.forces.control
        enterable = state.movement.enterable(side, ())
        return sum(self.area_worth(state, other) for other in state.board.land_next_to[area]
                   if control.get(other) != side and other in enterable)

    def _threat(self, state, side: str, area: str) -> bool:
        """Enemy land units in the area or next to it."""
        held = self._land_held(state, state.enemy(side))
        return area in held or not held.isdisjoint(state.board.adjacent[area])

    def _ships_at(self, state, side: str) -> frozenset[str]:
        """The areas where `side` has ships."""
        return self._areas_with(state, side, "sea")

    def _land_held(self, state, side: str) -> frozenset[str]:
        """The areas where `side` has land units."""
        return self._areas_with(state, side, "land")

    def _areas_with(self, state, side: str, domain: str) -> frozenset[str]:
        """The areas where `side` has units of the domain, once per position."""
        key = ("areas-with", side, domain)
        found = self._memo.get(key)
        if found is None:
            profiles = state.profiles
            found = self._memo[key] = frozenset(
                a for a in state.forces.occupied(side)
                if any(profiles[u].domain == domain for u, _, _ in state.forces.stacks(a, side)))
        return found


def _shared(hits: float, count: int, troops: int) -> float:
    """The part of `hits` on the land units at sea that falls on `count` of `troops`."""
    return min(count, hits * count / troops) if troops else 0.0


class _View(NamedTuple):
    """One area as a move sees it, for one side (a tuple: many are made, and compared)."""

    land: bool
    theirs: bool                 # the enemy controls it
    worth: float
    enemies: dict
    enemy_ships: dict
    own_land: dict
    front: float
    threat: bool
    landings: float
    exposure: float
    operation: tuple | None = None   # (land area, worth, blocked) of the troops at sea's landing
    lasting: bool = False        # the enemy's units there cannot recover (`Worth.lasting`)
