"""The GJ69 game system behind the engine's interface: one attack on an area (§8-§11, §16)."""
from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import numpy as np

from validators.index import LAND_KINDS, build_index

from ..system import BattleOutcome, BattlePosition, EngineError, ExactOutcome, GameSystem, OutcomeBatch, UnknownName
from .attack import IN, Attack, Strike, check_firing, eliminated, ending, make_state, survivors
from .damage import READY, USED
from .position import GJ69Position, extras
from .units import read_profiles

LAND_UNITS_LIMIT = 10   # §7.4(1): a player's land units in one land area


class GJ69(GameSystem):
    system = "gj69"
    position_type = GJ69Position

    def __init__(self, scenario):
        super().__init__(scenario)
        self.index = build_index(scenario)
        self.rules = scenario.manifest.get("rules") or {}
        loss_vp = {int(e["durability"]): float(e["amount"]) for e in self.rules.get("loss_vp") or []}
        self.option_changes = [change for option in self.index.options.values()
                               if option.data.get("default")
                               for change in option.data.get("changes") or [] if isinstance(change, dict)]
        elimination_vp = {c["type"]: float(c["amount"]) for c in self.option_changes
                          if c.get("op") == "elimination_vp"}
        self.profiles = read_profiles(scenario, loss_vp, elimination_vp)
        self.control = self.index.starting_control()

    # -- names -------------------------------------------------------------------------------
    def unit_types(self) -> list[str]:
        return sorted(self.profiles)

    def nations(self) -> list[str]:
        return sorted(self.index.owners)

    def spaces(self) -> list[str]:
        return sorted(self.index.spaces)

    def unit_cost(self, unit_type: str) -> float:
        """GJ69 prints no costs: a loss is measured in the VP it is worth (§15.0(1)②)."""
        return self.profiles[unit_type].worth

    # -- the map -----------------------------------------------------------------------------
    def is_land(self, space: str) -> bool:
        return self.index.spaces[space].data.get("kind") in LAND_KINDS

    def side_of(self, owner: str) -> str | None:
        return self.index.side_of(owner)

    def fortress_rule(self, space: str) -> bool:
        """§16.1(2) applies in this area (the fortress-areas option names it)."""
        return any(c.get("op") == "fortress_areas" and c.get("air_damage_needs_own_land_units")
                   and space in (c.get("spaces") or []) for c in self.option_changes)

    def immune_to_air(self) -> set[str]:
        """§16.2(2): unit types that take no air-attack damage."""
        return {c["type"] for c in self.option_changes
                if c.get("op") == "supply_leader" and c.get("immune_to_air_damage")}

    def retreat_areas(self, space: str, side: str) -> list[str]:
        """Areas a unit of `side` in `space` may retreat to (§11.5(1)), as the game starts: land
        areas across a border that allows retreats, held by the side, without enemy units and
        with fewer than 10 of the side's land units."""
        mountain = (self.rules.get("mountain_border") or {}).get("retreat", True)
        enemies_at: set[str] = set()
        own_land_units: dict[str, int] = defaultdict(int)
        for _, entry in self.scenario.entities("setup", "spaces"):
            for stack in entry.get("units") or []:
                owner_side = self.side_of(stack.get("owner", ""))
                profile = self.profiles.get(stack.get("type"))
                if owner_side is None or profile is None:
                    continue
                if owner_side != side:
                    enemies_at.add(entry.get("space"))
                elif profile.domain == "land":
                    own_land_units[entry.get("space")] += int(stack.get("count", 1))
        found = []
        for _, border in self.scenario.entities("map", "borders"):
            pair = border.get("between") or []
            if space not in pair or len(pair) != 2:
                continue
            if border.get("kind") == "mountain" and not mountain:
                continue
            other = pair[1] if pair[0] == space else pair[0]
            if other not in self.index.spaces or not self.is_land(other):
                continue
            if self.side_of(self.control.get(other, "")) != side:
                continue
            if other in enemies_at or own_land_units[other] >= LAND_UNITS_LIMIT:
                continue
            found.append(other)
        return sorted(found)

    # -- compiling an attack -----------------------------------------------------------------
    def card_effects(self, card: str | None, ops: set[str]) -> list[dict]:
        if card is None:
            return []
        entity = self.index.cards.get(card)
        if entity is None:
            raise UnknownName("card", card, sorted(self.index.cards))
        effects = list(entity.data.get("effects") or [])
        for option in entity.data.get("options") or []:
            effects.extend(option.get("effects") or [])
        return [e for e in effects if isinstance(e, dict) and e.get("op") in ops]

    def compile(self, position: BattlePosition) -> tuple[Attack, tuple, tuple, GJ69Position]:
        self.check_position(position)
        found = extras(position)
        attacking_sides = {self.side_of(c.owner) for c in found.attackers if c.total()}
        defending_sides = {self.side_of(c.owner) for c in found.defenders if c.total()}
        if len(attacking_sides) != 1 or not defending_sides:
            raise EngineError("an attack is made by one side's group against the other side's units")
        if attacking_sides & defending_sides:
            raise EngineError("attackers and defenders must be on opposite sides")
        land = self.is_land(found.space)
        attacker = make_state(_counts(found.attackers, {}))
        defender = make_state(_counts(found.defenders, found.defender_used))

        mode = "air" if found.air_attack else "normal"
        card_attack = self.card_effects(found.card, {"attack"})
        immune = bool(self.card_effects(found.card, {"immune_to_counterattack"}))
        times = found.attacks or max([int(e.get("times", 1)) for e in card_attack] or [1])
        strikes: list[Strike] = []
        counters = self.card_effects(found.counter_card, {"counterattack"})
        if counters and found.air_attack:
            raise EngineError("a counter-attack answers a normal attack or an enemy entering (§10)")
        if counters and not immune:
            for counter in counters:                     # §10(5): counter-attacks come first
                selection = counter.get("attackers", "ready")
                strikes += [Strike("defender", "counter", selection)] * int(counter.get("times", 1))
        strikes += [Strike("attacker", mode)] * times

        known = sorted(side for side in defending_sides if side is not None)
        if not known:
            raise EngineError("the defenders belong to no side of the scenario")
        defending_side = known[0]
        can_retreat = found.defender_can_retreat
        if can_retreat is None:
            can_retreat = bool(self.retreat_areas(found.space, defending_side))
        attack = Attack(self.profiles, land, strikes,
                        self.card_effects(found.card, {"set_attack"}),
                        self.immune_to_air(),
                        found.air_attack and self.fortress_rule(found.space)
                        and not found.own_land_units_in_area,
                        can_retreat, found.attacker_can_retreat)
        check_firing(attack, attacker, mode)
        holder = found.control or self.side_of(self.control.get(found.space, ""))
        attacking_side = next(iter(attacking_sides))
        if not found.air_attack and holder != attacking_side and any(
                self.profiles[unit].domain == "air" for (unit, _, _), _ in attacker):
            raise EngineError(f"air units make normal attacks only in a land area their side "
                              f"controls; {found.space} is held by {holder} (§8.0(2)②)")
        return attack, attacker, defender, found

    # -- the interface -----------------------------------------------------------------------
    def resolve_battle(self, position: BattlePosition, rng: np.random.Generator) -> BattleOutcome:
        attack, attacker, defender, found = self.compile(position)
        a, d = attack.sample(attacker, defender, rng)
        return self._outcome(a, d, found, len(attack.strikes))

    def simulate(self, position: BattlePosition, runs: int, rng: np.random.Generator) -> OutcomeBatch:
        """Many attacks compiled once, so that each allocation is worked out once."""
        attack, attacker, defender, found = self.compile(position)
        ends = [self._outcome(*attack.sample(attacker, defender, rng), found, len(attack.strikes))
                for _ in range(runs)]
        return OutcomeBatch.from_outcomes(ends)

    def _outcome(self, a: tuple, d: tuple, found: GJ69Position, strikes: int) -> BattleOutcome:
        events = [f"{side}: {', '.join(f'{n} {u} {face} {place}' for (u, face, place), n in state)}"
                  for side, state in (("attacker", a), ("defender", d))]
        return BattleOutcome(ending(a, d, found.air_attack), strikes, survivors(a), survivors(d),
                             self._worth(eliminated(a)), self._worth(eliminated(d)), events)

    def _worth(self, units: dict[str, int]) -> float:
        return sum(self.profiles[u].worth * n for u, n in units.items())

    def exact(self, position: BattlePosition, budget: int = 200_000,
              time_limit: float | None = None) -> ExactOutcome | None:
        attack, attacker, defender, found = self.compile(position)
        states = attack.exact(attacker, defender, budget)
        if states is None:
            return None
        rows = []
        for (a, d), p in states.items():
            end = self._outcome(a, d, found, len(attack.strikes))
            rows.append((float(p), end.result, sum(end.attacker_survivors.values()),
                         sum(end.defender_survivors.values()), end.attacker_loss, end.defender_loss))
        columns = list(zip(*rows, strict=True))
        return ExactOutcome(np.array(columns[0]), np.array(columns[1], dtype=np.int8),
                            np.array(columns[2], dtype=np.int64), np.array(columns[3], dtype=np.int64),
                            np.array(columns[4], dtype=float), np.array(columns[5], dtype=float),
                            mean_rounds=float(len(attack.strikes)), states=len(rows))

    def distribution(self, position: BattlePosition) -> dict[tuple, Fraction] | None:
        """(attacker state, defender state) -> exact probability, as Fractions."""
        attack, attacker, defender, _ = self.compile(position)
        return attack.exact(attacker, defender, 10**9)


def _counts(contingents, used: dict[str, int]) -> dict:
    counts: dict = defaultdict(int)
    left_used = dict(used)
    for contingent in contingents:
        for unit, n in contingent.units.items():
            turned = min(n, left_used.get(unit, 0))
            left_used[unit] = left_used.get(unit, 0) - turned
            counts[(unit, USED, IN)] += turned
            counts[(unit, READY, IN)] += n - turned
    unplaced = [u for u, n in left_used.items() if n > 0]
    if unplaced:
        raise EngineError("defender_used names more units than defend: " + ", ".join(unplaced))
    return counts
