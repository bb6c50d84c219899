"""Groups acting (§6.2): forming a group from an area's ready units, what it may do (move,
attack, air attack, air move, sea transport: §7, §8, §9, §7.5), the enemy's reaction card
(§10), the attack itself and its retreats (§11), and acting again when a card allows.

`GroupActions` is a part of GJ69Game (game.py): its methods are steps of the game's generator
and share its state.
"""
from __future__ import annotations

from collections.abc import Generator

from ..game import Action
from .cards import AIR, ATTACK, MOVE, TRANSPORT, Order, Slot
from .combat import fight, ready_faces, strikes_of
from .core import Decision, GameCore, Group, Steps
from .damage import READY, USED

KIND_OF = {"move": MOVE, "attack": ATTACK, "attack-twice": ATTACK, "air-attack": AIR, "air-move": AIR,
           "transport": TRANSPORT, "hold": None}


class GroupActions(GameCore):
    """Groups and their actions, as part of GJ69Game."""

    def _eligible(self, side: str, area: str, slot: Slot, kinds=None,
                  reserved: dict | None = None) -> dict[tuple[str, str], int]:
        """(type, face) -> how many units of the area may join a group of the slot (kept
        until the area's units or control change; callers must not change it)."""
        kinds = slot.kinds if kinds is None else kinds
        key = (side, kinds, slot.domain, slot.used_may_act,
               tuple(sorted(reserved.items())) if reserved else ())
        stamp = self.forces.changed.get(area, 0)
        kept: tuple[int, dict] | None = self._eligible_cache.get(area)
        if kept is None or kept[0] != stamp:
            kept = self._eligible_cache[area] = (stamp, {})
        found = kept[1].get(key)
        if found is None:
            found = kept[1][key] = self._eligible_now(side, area, slot, kinds, reserved)
        return found

    def _eligible_now(self, side: str, area: str, slot: Slot, kinds,
                      reserved: dict | None) -> dict[tuple[str, str], int]:
        stacks = self.forces.units.get(area)
        if not stacks:
            return {}
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
        """Whether some area has units for the slot (kept until the forces change)."""
        if self._any_version != self.forces.version:
            self._any_cache.clear()
            self._any_version = self.forces.version
        key = (side, slot.kinds, slot.domain, slot.used_may_act)
        known = self._any_cache.get(key)
        if known is None:
            known = self._any_cache[key] = any(self._eligible(side, area, slot)
                                               for area in self.forces.occupied(side))
        return known

    def _run_order(self, side: str, order: Order) -> Steps:
        self.order, self._order_kind, self._again_left = order, None, order.again_groups
        self.actions_taken = []
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
                      reserved: dict | None) -> Generator[Decision, Action, Group | None]:
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

    def choose_units(self, side: str, available: dict,
                     limit: int | None) -> Generator[Decision, Action, dict[tuple[str, str], int]]:
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

    def _act(self, group: Group, order: Order) -> Steps:
        """The group's action, and its actions again when the card allows (act_again); its
        units turn to their used face when it is done (§6.2 ③)."""
        self.group = group
        last = None
        self.actions_taken.append(0)
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
                self.actions_taken[-1] += 1
            if kind is not None:
                self.actions_taken[-1] += 1
            yield from self._perform(group, act, order)
            if kind is None:
                break
            last = kind
            ready = ready_faces(group.units)
            if not ready or not self.can_act_again(group):
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
        if last is None:    # a group that could only hold: its units turn over for nothing
            idle = sum(n for (_, face), n in group.units.items() if face == READY)
            if idle:
                self.chronicle.blunder(self.turn, "idle-turnover", group.side, idle)
        for (unit, face), n in group.units.items():
            if face != READY:
                continue
            if group.slot.stay_ready and last == MOVE and self.profiles[unit].domain == "land":
                continue
            self.forces.turn(group.area, unit, USED, n)

    def _spend_again(self, group: Group, order: Order) -> None:
        """One more action of the group, from what act_again grants: the first draws one of
        the card's groups that may act again, each a different group (Hinode: 2 of the 4)."""
        if group.again == 0:
            self._again_left -= 1
            group.granted = True
            group.again = order.again_times
        group.again -= 1

    def can_act_again(self, group: Group) -> bool:
        return group.again > 0 or (self._again_left > 0 and not group.granted)

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
        if AIR in kinds and self._may_fly(group, units, profiles):
            options += self.air_attacks(group)
            if not any(p.domain == "sea" for p in profiles):       # carriers make no air moves
                options += [("air-move", d) for d in
                            self.movement.air_move_destinations(self.forces, self.mover(group), area)]
        if TRANSPORT in kinds and all(p.domain == "land" for p in profiles):
            options += [("transport", d) for d in
                        self.movement.transport_destinations(self.forces, self.mover(group), area)]
        return options or [("hold",)]

    def _may_fly(self, group: Group, units: list[str], profiles: list) -> bool:
        """§9.1(1): air operations are for air units and carriers; air units act from a land
        area their side controls."""
        return all(p.flies for p in profiles) and all(
            self.fires_here(u, group.area, group.side) if p.domain == "air" else True
            for u, p in zip(units, profiles, strict=True))

    def air_attacks(self, group: Group) -> list[Action]:
        """The group's air attacks (§9.1(3)): areas within its reach holding enemy units it may
        damage; none when the group may not make air operations."""
        side, area = group.side, group.area
        units = [u for (u, _), n in group.units.items() if n]
        profiles = [self.profiles[u] for u in units]
        if not self._may_fly(group, units, profiles):
            return []
        carriers = any(p.domain == "sea" for p in profiles)
        reach = min(p.movement for p in profiles)
        enemy_at = self.forces.occupied(self.enemy(side))
        nations = frozenset(p.owner for p in profiles)
        return [("air-attack", t) for t in self.movement.air_range(area, reach, carriers, side, nations)
                if t in enemy_at and self.air_targets(side, t)]

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
    def _perform(self, group: Group, act: Action, order: Order) -> Steps:
        kind = act[0]
        if kind in ("move", "air-move", "transport"):
            yield from self._enter(group, act[1], order)
        elif kind in ("attack", "attack-twice"):
            counters = yield from self._reaction(group, group.area, "normal_attack", order)
            yield from self._attack(group, counters, order, combined=kind == "attack-twice")
        elif kind == "air-attack":
            yield from self._air_attack(group, act[1])

    def _reaction(self, group: Group, area: str, trigger: str, order: Order) -> Generator[Decision, Action, list[dict]]:
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

    def _enter(self, group: Group, target: str, order: Order) -> Steps:
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

    def _attack(self, group: Group, counters: list[dict], order: Order, combined: bool = False) -> Steps:
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

    def _air_attack(self, group: Group, target: str) -> Steps:
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

    def _after_fight(self, area, side, attackers, defenders, mine, theirs, air: bool) -> Steps:
        enemy = self.enemy(side)
        for sides in (mine, theirs):
            if sides is not None:
                for (unit, face), n in sides.stays.items():
                    self.forces.add(area, unit, face, n)
        self._record_battle(area, side, enemy, sum(attackers.values()),
                            air or bool(mine and mine.stays), theirs)
        if mine is not None:
            self.lose(mine.eliminated)
        self.note_off_guard(area, enemy, theirs.eliminated, defenders)
        self.lose(theirs.eliminated)
        if mine is not None:
            yield from self._retreats(side, area, mine.retreats)
        yield from self._retreats(enemy, area, theirs.retreats)

    def _retreating_types(self, area: str, units, side: str | None = None) -> frozenset[str]:
        """Unit types that have an area to retreat to from `area` (§11.5(1))."""
        types = {u for (u, _), n in units.items() if n and (side is None or self.forces.sides[u] == side)}
        return frozenset(u for u in types if self.movement.retreat_areas(self.forces, area, u))

    def _retreats(self, side: str, area: str, units: dict[str, int]) -> Steps:
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

