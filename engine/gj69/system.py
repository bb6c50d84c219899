"""The GJ69 game system behind the engine's interface: one attack on an area (§8-§11, §16) for
the battle calculator, and whole games (game.py)."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from fractions import Fraction

import numpy as np

from validators.conditions import Position
from validators.index import build_index

from ..system import (
    BattleOutcome,
    BattlePosition,
    EngineError,
    ExactOutcome,
    GameSystem,
    OutcomeBatch,
    ReportTerms,
    UnknownName,
)
from .attack import IN, Attack, check_firing, eliminated, ending, make_state, survivors
from .board import Board, Forces
from .cards import Order, Play, order_of, read_cards
from .combat import strikes_of
from .damage import READY, USED
from .movement import Movement
from .position import GJ69Position, extras
from .settings import Rules, game_settings
from .units import read_profiles

FATES = (READY, USED, "retreated", "eliminated")       # where a unit ends an attack (§11.3)
FATE_BUDGET = 200_000                                 # states worked out for the fates table


class GJ69(GameSystem):
    system = "gj69"
    report_terms = ReportTerms("VP", "victory points scored", "VP")
    position_type = GJ69Position
    loss_unit = "VP"

    def __init__(self, scenario):
        super().__init__(scenario)
        self.index = build_index(scenario)
        self.rules = scenario.manifest.get("rules") or {}
        first = self.rules.get("first_player")
        self.sides = sorted(self.index.sides, key=lambda s: (s != first, s))
        self.loss_vp = {(str(e.get("side")), int(e["durability"])): float(e["amount"])
                        for e in self.rules.get("loss_vp") or []}
        self.replacement_pools = dict(self.rules.get("replacement_pools") or {})
        self.defaults = Rules.of(scenario, {})
        self.profiles = self.profiles_for(self.defaults)
        self.control = self.index.starting_control()
        self.board = Board(scenario, self.index, self.rules)
        self.movement = Movement(self.board, self.profiles, self.sides, self.defaults.fortress(),
                                 self.defaults.confinement())
        self.cards, self.decks, self.hand_sizes = read_cards(scenario, self.side_of)
        self._orders = {(p.card, p.option): order_of(p) for c in self.cards.values() for p in c.plays}
        self.base_position = Position.starting(scenario, self.index)

    def profiles_for(self, rules: Rules):
        """Unit profiles under a game's options (MacArthur's VP is part of his special rule)."""
        elimination = {c["type"]: float(c["amount"]) for c in rules.of_op("elimination_vp")}
        return read_profiles(self.scenario, self.side_of, self.loss_vp, elimination)

    # -- names -------------------------------------------------------------------------------
    def unit_types(self) -> list[str]:
        return sorted(self.profiles)

    def nations(self) -> list[str]:
        return sorted(self.index.owners)

    def spaces(self) -> list[str]:
        return sorted(self.index.spaces)

    def unit_cost(self, unit_type: str) -> float:
        """GJ69 prints no costs: a loss is measured in the VP it is worth (§15.0(1)②, §16.2(3))."""
        return self.profiles[unit_type].worth

    def side_of(self, owner: str) -> str | None:
        return self.index.side_of(owner)

    def name_of(self, thing: str) -> str:
        """The display name of a side, nation, space or unit type (the id if it has none)."""
        for table in (self.index.sides, self.index.nations, self.index.spaces, self.index.unit_types):
            entity = table.get(thing)
            if entity is not None and isinstance(entity.data.get("name"), str):
                return entity.data["name"]
        return thing

    def is_land(self, space: str) -> bool:
        return self.board.areas[space].land

    # -- the map -----------------------------------------------------------------------------
    def starting_forces(self) -> Forces:
        """Units of the set-up (all ready, §3.0(2)-(3)), start control (§3.0(6)) and pools."""
        units: dict = {}
        for _, entry in self.scenario.entities("setup", "spaces"):
            for stack in entry.get("units") or []:
                if isinstance(stack, dict) and stack.get("type") in self.profiles:
                    units.setdefault(entry["space"], {})
                    key = (stack["type"], READY)
                    units[entry["space"]][key] = units[entry["space"]].get(key, 0) + int(stack.get("count", 1))
        pools: dict = {}
        for _, pool in self.scenario.entities("setup", "pools"):
            stock = pools.setdefault(pool.get("id"), {})
            for stack in pool.get("units") or []:
                if isinstance(stack, dict) and stack.get("type") in self.profiles:
                    stock[stack["type"]] = stock.get(stack["type"], 0) + int(stack.get("count", 1))
        control = {space: self.side_of(owner) or owner for space, owner in self.control.items()}
        return Forces(units, control, pools, {u: p.side for u, p in self.profiles.items()})

    def draw_oil_fields(self, rng: np.random.Generator) -> dict[str, float]:
        """§3.0(5): markers drawn at random, face down, for the oil-field areas."""
        values = {}
        for _, draw in self.scenario.entities("setup", "draws"):
            markers = []
            for marker_id in draw.get("from") or []:
                marker = self.index.markers.get(marker_id)
                if marker is not None and marker.data.get("kind") == "oil_field":
                    markers += [float(marker.data.get("value", 0))] * int(marker.data.get("count", 1))
            targets = [t for t in draw.get("to") or [] if t in self.board.areas]
            if not markers or not targets:
                continue
            order = rng.permutation(len(markers))
            for target, index in zip(targets, order, strict=False):   # the rest are not used
                values[target] = markers[index]
        return values

    def play(self, card: str, option: str) -> Play:
        return next(p for p in self.cards[card].plays if p.option == option)

    def order(self, play: Play) -> Order | None:
        """A fresh Order for the play's groups (orders carry the state of their groups)."""
        found = self._orders.get((play.card, play.option))
        return None if found is None else replace(found, slots=list(found.slots))

    def fortress_rule(self, space: str) -> bool:
        """§16.1(2) applies in this area (the fortress-areas option names it)."""
        fortress = self.defaults.fortress()
        return bool(fortress and fortress.get("air_damage_needs_own_land_units")
                    and space in (fortress.get("spaces") or []))

    def immune_to_air(self) -> set[str]:
        """§16.2(2): unit types that take no air-attack damage."""
        return self.defaults.immune_to_air()

    def retreat_areas(self, space: str, side: str, unit: str | None = None) -> list[str]:
        """Areas a unit of `side` (of type `unit`, for a nation's own limits) in `space` may
        retreat to (§11.5(1), §16.3), on the starting position: the calculator knows no other."""
        forces = self.starting_forces()
        if unit is None:
            unit = next((u for u, p in sorted(self.profiles.items())
                         if p.side == side and p.domain == "land"
                         and p.owner not in self.defaults.confinement()), None)
        if unit is None:
            return []
        return self.movement.retreat_areas(forces, space, unit)

    # -- battles -----------------------------------------------------------------------------
    def check_position(self, position: BattlePosition) -> None:
        """Besides the names: no unit in an area the rules forbid it (§2.2.1(3), §16.3). An air
        attack may strike units in such an area; its attackers are not in it."""
        super().check_position(position)
        found = extras(position)
        groups = [(c, "defends") for c in found.defenders]
        if not found.air_attack:
            groups += [(c, "attacks") for c in found.attackers]
        for contingent, role in groups:
            for unit, n in contingent.units.items():
                if n and not self.movement.unit_may_be(unit, found.space):
                    raise EngineError(self._forbidden(unit, found.space, role))

    def _forbidden(self, unit: str, space: str, role: str) -> str:
        profile = self.profiles[unit]
        allowed = self.defaults.confinement().get(profile.owner)
        if allowed is not None and space not in allowed:
            return (f"{unit} ({profile.owner}) {role} in {space}, but {profile.owner}'s units may "
                    f"only be in {', '.join(sorted(allowed))} (§16.3)")
        return (f"{unit} ({profile.side}) {role} in {space}, an area closed to {profile.side}'s "
                "units (§2.2.1(3))")

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
        attacking, defending = next(iter(attacking_sides)), next(iter(defending_sides))
        if attacking is None or defending is None:
            raise EngineError("the attackers and the defenders must belong to the scenario's sides")
        self._check_cards(found, attacking, defending)
        land = self.is_land(found.space)
        attacker = make_state(_counts(found.attackers, {}))
        defender = make_state(_counts(found.defenders, found.defender_used))

        mode = "air" if found.air_attack else "normal"
        card_attack = self.card_effects(found.card, {"attack"})
        immune = bool(self.card_effects(found.card, {"immune_to_counterattack"}))
        times = found.attacks or max([int(e.get("times", 1)) for e in card_attack] or [1])
        counters = self.card_effects(found.counter_card, {"counterattack"})
        if counters and found.air_attack:
            raise EngineError("a counter-attack answers a normal attack or an enemy entering (§10)")
        strikes = strikes_of([] if immune else counters, "attacker", mode, times, found.combined)

        attacking_side = next(iter(attacking_sides))
        holder = found.control or self.side_of(self.control.get(found.space, ""))
        defender_types = {u for c in found.defenders for u in c.units}
        attacker_types = {u for c in found.attackers for u in c.units}
        if found.defender_can_retreat is None:
            defender_retreat = frozenset(u for u in defender_types if self.retreat_areas(
                found.space, self.profiles[u].side, u))
        else:
            defender_retreat = frozenset(defender_types) if found.defender_can_retreat else frozenset()
        attacker_retreat = frozenset(attacker_types) if found.attacker_can_retreat else frozenset()
        shield = (found.air_attack and self.fortress_rule(found.space) and holder != attacking_side
                  and not found.own_land_units_in_area)
        attack = Attack(self.profiles, land, strikes,
                        self.card_effects(found.card, {"set_attack"}), self.immune_to_air(), shield,
                        {"attacker": attacker_retreat, "defender": defender_retreat})
        check_firing(attack, attacker, mode)
        if not found.air_attack and holder != attacking_side and any(
                self.profiles[unit].domain == "air" for (unit, _, _), _ in attacker):
            raise EngineError(f"air units make normal attacks only in a land area their side "
                              f"controls; {found.space} is held by {holder} (§8.0(2)②)")
        return attack, attacker, defender, found

    def _check_cards(self, found: GJ69Position, attacking: str, defending: str) -> None:
        """A side plays only the cards of its own deck (§2.3), a counter-card only if it is a
        reaction card (§5.2(3)), and Force Z's attack only with ships (§19)."""
        for card, side, role in ((found.card, attacking, "card"), (found.counter_card, defending,
                                                                   "counter-card")):
            if card is None:
                continue
            if card not in self.cards:
                raise UnknownName("card", card, sorted(self.cards))
            owner = self.cards[card].side
            if owner != side:
                raise EngineError(f"{role} {card} ({self.cards[card].title}) is in the {owner} deck; "
                                  f"the {side} side plays only its own cards (§2.3)")
        if found.counter_card and not self.cards[found.counter_card].reaction:
            raise EngineError(f"counter-card {found.counter_card} is not a reaction card (★, §5.2(3))")
        for effect in self.card_effects(found.card, {"attack"}):
            assert found.card is not None       # effects come only from a card played
            domain = effect.get("domain")
            wrong = sorted({u for c in found.attackers for u in c.units
                            if domain and self.profiles[u].domain != domain})
            if wrong:
                raise EngineError(f"card {found.card} ({self.cards[found.card].title}) attacks with "
                                  f"{domain} units only; {', '.join(wrong)} cannot take part (§19)")

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

    def battle_details(self, position: BattlePosition) -> dict:
        """Where each unit ends an attack (§11.3): still in the area on its ready or used face,
        retreated, or in the replacement pool, as expected numbers per unit type and side; {}
        when the attack is too large to work out exactly."""
        attack, attacker, defender, _ = self.compile(position)
        states = attack.exact(attacker, defender, FATE_BUDGET)
        if states is None:
            return {}
        fates: dict[str, dict[str, dict[str, float]]] = {"attacker": {}, "defender": {}}
        for (a, d), p in states.items():
            for role, state in (("attacker", a), ("defender", d)):
                for (unit, face, place), n in state:
                    fate = face if place == IN else ("retreated" if place == "out" else "eliminated")
                    row = fates[role].setdefault(unit, dict.fromkeys(FATES, 0.0))
                    row[fate] += float(p) * n
        return {"fates": fates}

    def render_battle(self, report, forces: list[str], space: str) -> str | None:
        """The report in GJ69's terms: an attack is one exchange of damage points (§11), so what
        matters is where each unit ends it, and whether the area is cleared of defenders."""
        fates = report.details.get("fates")
        if not fates:
            return None
        method = ("exact" if report.method == "exact" else f"Monte Carlo, {report.runs} attacks"
                  + (f", seed {report.seed}" if report.seed is not None else ""))
        lines = [f"Attack on {space} ({method})", f"  attacker  {forces[0]}"]
        lines += [f"  defender  {force}" for force in forces[1:]]
        lines += ["", f"  area cleared of defenders   {100 * report.attacker_wins:6.2f}%",
                  f"  attackers driven out        {100 * report.defender_wins:6.2f}%",
                  f"  both still in the area      {100 * report.draws:6.2f}%", "",
                  f"  VP for losses  attacker {report.expected_attacker_loss:.2f}, "
                  f"defender {report.expected_defender_loss:.2f}", "",
                  "  where the units end, in expected numbers (faces after the damage; attackers",
                  "  then turn to their used face for having acted, §8.0(6))",
                  f"  {'':<42}" + "".join(f"{fate:>11}" for fate in FATES)]
        for role in ("attacker", "defender"):
            for unit, row in fates[role].items():
                lines.append(f"  {role[:3]} {unit:<38}" + "".join(f"{row[f]:>11.2f}" for f in FATES))
        return "\n".join(lines)

    def distribution(self, position: BattlePosition) -> dict[tuple, Fraction] | None:
        """(attacker state, defender state) -> exact probability, as Fractions."""
        attack, attacker, defender, _ = self.compile(position)
        return attack.exact(attacker, defender, 10**9)

    # -- whole games ---------------------------------------------------------------------------
    def game_settings(self) -> list:
        return game_settings(self.scenario)

    def new_game(self, options: dict, rng: np.random.Generator, max_rounds: int | None = None):
        from .game import GJ69Game
        if max_rounds is not None and max_rounds < 1:
            raise EngineError("max_rounds must be at least 1")
        return GJ69Game(self, Rules.of(self.scenario, options), rng, max_rounds)

    def players(self) -> dict[str, type]:
        from .heuristic import HeuristicPlayer
        return {"heuristic": HeuristicPlayer}


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
