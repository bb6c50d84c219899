"""The AA50 game system: combat (§5.5, §7) behind the engine's interface."""
from __future__ import annotations

from functools import partial

import numpy as np

from validators.index import LAND_KINDS, build_index

from ..system import BattleOutcome, BattlePosition, EngineError, ExactOutcome, GameSystem, OutcomeBatch, ReportTerms
from . import bombing, exact, montecarlo, single
from .model import BattleModel, compile_battle
from .position import SURPRISE_READINGS, AA50Position
from .profiles import UnitProfile, apply_research, breakthroughs, read_profiles


class AA50(GameSystem):
    system = "aa50"
    report_terms = ReportTerms("income", "national objectives and bonuses", "IPC")
    position_type = AA50Position
    dice_sides = 6      # other rule families built on this one roll bigger dice

    def __init__(self, scenario):
        super().__init__(scenario)
        self.index = build_index(scenario)
        self.profiles = read_profiles(scenario)
        self.abilities = {uid: list(e.data.get("abilities") or [])
                          for uid, e in self.index.unit_types.items()}
        self.breakthroughs = breakthroughs(scenario)
        self._game_data = None
        self._borders: dict[str, frozenset[str]] | None = None     # space -> its neighbours

    # -- names -------------------------------------------------------------------------------
    def unit_types(self) -> list[str]:
        return sorted(self.profiles)

    def nations(self) -> list[str]:
        return sorted(self.index.nations)

    def spaces(self) -> list[str]:
        return sorted(self.index.spaces)

    def aliases(self, what: str) -> dict[str, str]:
        """Display names (Tank, Soviet Union, Karelia S.S.R.) and capitals (russia) -> ids."""
        from ..system import _plain
        entities = {"nation": self.index.nations, "unit type": self.index.unit_types,
                    "space": self.index.spaces}.get(what, {})
        found: dict[str, str] = {}
        for uid, entity in entities.items():
            for field in ("name", "short_name") + (("capital",) if what == "nation" else ()):
                value = entity.data.get(field)
                if isinstance(value, str):
                    found.setdefault(_plain(value), uid)
        return found

    def research_options(self) -> list[str]:
        return sorted(self.breakthroughs)

    def unit_cost(self, unit_type: str) -> float:
        return self.profiles[unit_type].cost

    def can_attack(self, unit_type: str) -> bool:
        """Units that stay in their territory (factories, anti-aircraft guns) never attack
        (§7.1.4, §7.1.5)."""
        return unit_type in self.profiles and self.profiles[unit_type].on_battle_board

    def is_land(self, space: str) -> bool:
        return self.index.spaces[space].data.get("kind") in LAND_KINDS

    def space_value(self, space: str) -> int:
        value = self.index.spaces[space].data.get("value", 0)
        return int(value) if isinstance(value, (int, float)) else 0

    # -- profiles ----------------------------------------------------------------------------
    def profiles_for(self, nation: str, research: dict[str, frozenset[str]]) -> dict[str, UnitProfile]:
        """The nation's unit profiles, with the breakthroughs it has made (§5.2.4)."""
        changes: list = []
        for option in sorted(research.get(nation, ())):
            if option not in self.breakthroughs:
                raise self.unknown("research option", option, self.research_options())
            changes.extend(self.breakthroughs[option].get("changes") or [])
        return apply_research(self.profiles, changes, self.abilities) if changes else self.profiles

    def check_position(self, position: BattlePosition) -> None:
        super().check_position(position)
        for nation in position.research:
            if nation not in self.index.nations:
                raise self.unknown("nation", nation, self.nations())
        for unit in position.landing:
            if unit not in self.profiles:
                raise self.unknown("unit type", unit, self.unit_types())
        land = self.is_land(position.space)
        for contingent in position.attackers:
            for unit, count in contingent.units.items():
                if count and not self.profiles[unit].on_battle_board and not position.raid:
                    raise EngineError(f"{unit} cannot attack: it stays in its territory "
                                      "(§7.1.4, §7.1.5)")
        for contingent in position.attackers + position.defenders:
            for unit, count in contingent.units.items():
                domain = self.profiles[unit].domain
                if count and land and domain == "sea":
                    raise EngineError(f"{unit} cannot fight in {position.space}, a territory; "
                                      "ships support a landing with --bombard")
                if count and not land and domain in ("land", "structure"):
                    raise EngineError(f"{unit} cannot fight in {position.space}, a sea zone "
                                      "(land units at sea are cargo)")
        if not self.index.spaces:
            raise EngineError("the scenario has no map")
        self._check_sides(position)
        self._check_place(position)

    def _check_sides(self, position: BattlePosition) -> None:
        """Only one nation attacks, never its own side; defenders are of one side (§5.5.4)."""
        side = self.index.side_of
        attackers = {c.owner for c in position.attackers if c.total()}
        defenders = {c.owner for c in position.defenders if c.total()}
        if len(attackers) > 1:
            raise EngineError("only one nation attacks in a battle: allies never attack "
                              "together (§5.5.4): " + ", ".join(sorted(attackers)))
        defending_sides = {side(n) for n in defenders}
        if len(defending_sides) > 1:
            raise EngineError("the defenders belong to two sides ("
                              + ", ".join(sorted(defenders)) + "): allies defend together, "
                              "enemies never do (§5.5.4.1)")
        for nation in attackers:
            if side(nation) in defending_sides:
                raise EngineError(f"{nation} cannot attack its own side: "
                                  "allies never attack each other (§5.5)")
        if position.bombard is not None and position.bombard.total() and \
                attackers and position.bombard.owner not in attackers:
            raise EngineError("the bombarding ships must be the attacker's (§5.5.2.2)")

    def _check_place(self, position: BattlePosition) -> None:
        """Neutral territories see no battle (§2.2); China fights in China (§4); landings and
        bombardment need a coast (§5.5.2)."""
        space = self.index.spaces[position.space].data
        if {"neutral", "impassable"} & set(space.get("tags") or []):
            raise EngineError(f"{position.space} is neutral: no unit may enter it, so no "
                              "battle is fought there (§2.2)")
        china = (self.scenario.manifest.get("rules") or {}).get("china") or {}
        nation = china.get("nation")
        if nation and position.space not in set(china.get("territories") or []):
            if any(c.owner == nation and c.total() for c in position.attackers + position.defenders):
                raise EngineError(f"Chinese units fight only in China's territories (§4), "
                                  f"not in {position.space}")
        coastal = any(self.index.spaces.get(other) is not None and not self.is_land(other)
                      for other in self._neighbours(position.space))
        if self.is_land(position.space) and not coastal and (
                position.landing or (position.bombard and position.bombard.total())):
            raise EngineError(f"{position.space} has no coast: no landing or bombardment "
                              "can reach it (§5.5.2)")

    def _neighbours(self, space: str) -> frozenset[str]:
        if self._borders is None:          # read once, like the index: every battle asks
            found: dict[str, set[str]] = {}
            for _, border in self.scenario.entities("map", "borders"):
                pair = border.get("between") or []
                if len(pair) == 2 and all(isinstance(p, str) for p in pair):
                    for here in pair:
                        found.setdefault(here, set()).update(p for p in pair if p != here)
            self._borders = {here: frozenset(there) for here, there in found.items()}
        return self._borders.get(space, frozenset())

    def model(self, position: BattlePosition) -> BattleModel:
        self.check_position(position)
        return compile_battle(position, lambda nation: self.profiles_for(nation, position.research),
                              self.is_land(position.space), self.dice_sides)

    def raid(self, position: BattlePosition) -> bombing.Raid:
        """A strategic bombing raid on the factory in the position's space (§5.5.1)."""
        self.check_position(position)
        attacking = [c for c in position.attackers if c.total()]
        if not attacking:
            raise EngineError("a raid needs bombers")
        (attacker,) = attacking
        profiles = self.profiles_for(attacker.owner, position.research)
        bombers = [(u, n) for u, n in attacker.units.items() if n]
        kinds = {profiles[u].bombing_dice for u, _ in bombers}
        if any(not profiles[u].bombing_dice for u, _ in bombers) or len(bombers) != 1:
            raise EngineError("a strategic bombing raid is flown by bombers of one type only (§5.5.1)")
        unit, count = bombers[0]
        gun, gun_sides, factory, defenders = 0, self.dice_sides, None, 0
        for contingent in position.defenders:
            own = self.profiles_for(contingent.owner, position.research)
            for other, n in contingent.units.items():
                if not n:
                    continue
                defenders += n
                sides = own[other].anti_aircraft_sides or self.dice_sides
                if own[other].anti_aircraft * gun_sides > gun * sides:
                    gun, gun_sides = own[other].anti_aircraft, sides
                if own[other].factory:
                    factory = own[other]
        if factory is None:
            raise EngineError(f"there is no factory to bomb in {position.space}")
        if factory.max_damage_factor is None:      # the data sets no cap
            room = count * profiles[unit].bombing_dice * self.dice_sides
        else:
            room = max(factory.max_damage_factor * self.space_value(position.space)
                       - position.damage, 0)
        return bombing.Raid(count, kinds.pop(), profiles[unit].cost, gun, room, defenders,
                            self.dice_sides, gun_sides)

    # -- whole games -------------------------------------------------------------------------
    def game_data(self):
        """What every game of this scenario shares, read once (gamedata.py)."""
        if self._game_data is None:
            from .gamedata import read_game_data
            self._game_data = read_game_data(self.scenario)
        return self._game_data

    def new_game(self, options: dict, rng: np.random.Generator, max_rounds: int | None = None):
        from .game import AA50Game
        return AA50Game(self, self.game_data(), options, rng, max_rounds)

    def players(self) -> dict[str, type]:
        from .heuristic import HeuristicPlayer
        return {"heuristic": HeuristicPlayer}

    def game_settings(self) -> list:
        from ..options import Setting
        return super().game_settings() + [
            Setting("surprise-strike", "every-round", "text",
                    "when submarines strike first (§7.3.5)", SURPRISE_READINGS)]

    # -- battles -----------------------------------------------------------------------------
    def resolve_battle(self, position: BattlePosition, rng: np.random.Generator) -> BattleOutcome:
        if position.raid:
            batch = bombing.simulate(self.raid(position), 1, rng)
            bombers = next(c for c in position.attackers if c.total())
            (unit, _), = [(u, n) for u, n in bombers.units.items() if n]
            return BattleOutcome(int(batch.result[0]), 1, {unit: int(batch.attacker_survivors[0])},
                                 {u: n for c in position.defenders for u, n in c.units.items()},
                                 float(batch.attacker_loss[0]), float(batch.defender_loss[0]),
                                 [f"raid: {batch.defender_loss[0]:g} damage"])
        model = self.model(position)
        result, fought, attacker, defender, events = single.one_battle(model, rng)
        return BattleOutcome(result, fought, model.attacker.units(attacker),
                             model.defender.units(defender),
                             float(model.attacker.worth(model.attacker.start) - model.attacker.worth(attacker)),
                             float(model.defender.worth(model.defender.start) - model.defender.worth(defender)),
                             events)

    def simulate(self, position: BattlePosition, runs: int,
                 rng: np.random.Generator) -> OutcomeBatch:
        if position.raid:
            return bombing.simulate(self.raid(position), runs, rng)
        return montecarlo.simulate(self.model(position), runs, rng)

    def runner(self, position: BattlePosition):
        if position.raid:
            return partial(bombing.simulate, self.raid(position))
        return partial(montecarlo.simulate, self.model(position))

    def exact(self, position: BattlePosition, budget: int = 200_000,
              time_limit: float | None = None) -> ExactOutcome | None:
        if position.raid:
            return bombing.exact(self.raid(position))
        return exact.exact(self.model(position), budget, time_limit)
