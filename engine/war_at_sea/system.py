"""The War at Sea game system behind the engine's interface: the battle in one area (§7-§12)."""
from __future__ import annotations

import numpy as np

from validators.index import build_index

from ..system import ATTACKER_WINS, DEFENDER_WINS, DRAW, BattleOutcome, BattlePosition, EngineError, GameSystem
from .combat import Battle, CombatRules
from .position import WaSPosition, extras
from .ships import Ship, read_types


class WarAtSea(GameSystem):
    system = "war-at-sea"
    position_type = WaSPosition

    def __init__(self, scenario):
        super().__init__(scenario)
        self.index = build_index(scenario)
        self.rules = scenario.manifest.get("rules") or {}
        self.types = read_types(scenario, self.index.side_of)
        combat = self.rules.get("combat") or {}
        bonus = combat.get("undamaged_bonus") or {}
        self.combat_rules = CombatRules(int(combat.get("disable_roll", 5)), int(combat.get("hit_roll", 6)),
                                        int(combat.get("minimum_speed", 1)),
                                        str(bonus.get("nation", "")), int(bonus.get("add", 0)))
        self.markers = {m["side"]: m for m in self.rules.get("air_strike_marker") or []
                        if isinstance(m, dict) and "side" in m}
        self.sides = [s for s in (self.index.side_of(n) for n in self.index.owners) if s]
        # The Allies fire first (§7.2): the side of the nation that moves first.
        first = (scenario.manifest.get("turn_order") or [None])[0]
        allies = self.index.side_of(first) if first else None
        others = sorted(set(self.sides) - {allies})
        self.order = [allies] + others[:1] if allies else sorted(set(self.sides))[:2]

    # -- names -------------------------------------------------------------------------------
    def unit_types(self) -> list[str]:
        return sorted(self.types)

    def nations(self) -> list[str]:
        return sorted(self.index.owners)

    def spaces(self) -> list[str]:
        return sorted(self.index.spaces)

    def unit_cost(self, unit_type: str) -> float:
        """War at Sea prints no costs: a loss is counted in ships sunk."""
        return 1.0

    # -- compiling ---------------------------------------------------------------------------
    def fleets(self, position: WaSPosition) -> tuple[dict[str, list[Ship]], dict[str, int], str, str]:
        self.check_position(position)
        kind = self.index.spaces[position.space].data.get("kind")
        tags = set(self.index.spaces[position.space].data.get("tags") or [])
        if kind != "sea" and (kind != "port" or "neutral-port" in tags):
            raise EngineError(f"{position.space}: battles are fought in sea areas; a port only "
                              "takes air strikes, and never a neutral one (§15.5)")
        sides = {}
        for role, contingents in (("attacker", position.attackers), ("defender", position.defenders)):
            found = {self.index.side_of(c.owner) for c in contingents if c.total()}
            if len(found) != 1:
                raise EngineError(f"the {role}s must be ships of one side")
            sides[role] = found.pop()
        if sides["attacker"] == sides["defender"]:
            raise EngineError("attackers and defenders must be on opposite sides")
        ships: dict[str, list[Ship]] = {side: [] for side in self.order}
        markers: dict[str, int] = {}
        for contingent in position.attackers + position.defenders:
            side = self.index.side_of(contingent.owner)
            for unit, count in contingent.units.items():
                kind_of = self.types[unit]
                if kind_of.is_air_unit:                     # the side's air-strike marker (§9.1)
                    marker = self.markers.get(side) or {}
                    if marker.get("tag") not in tags:
                        raise EngineError(f"{side}'s air-strike marker may not be placed in "
                                          f"{position.space} (§9.1)")
                    markers[side] = markers.get(side, 0) + count * int(marker.get("value", kind_of.air_strike))
                    continue
                for number in range(count):
                    ships[side].append(Ship(kind_of, damage=int(position.damaged.get(unit, 0)),
                                            number=number + 1 if count > 1 else 0))
        return ships, markers, sides["attacker"], sides["defender"]

    # -- the interface -----------------------------------------------------------------------
    def resolve_battle(self, position: BattlePosition, rng: np.random.Generator) -> BattleOutcome:
        found = extras(position)
        ships, markers, attacker, defender = self.fleets(found)
        if found.escape not in (None, "both", *self.order):
            raise EngineError(f"escape is one of {', '.join(self.order)} or both")
        leaves_at = (attacker, found.policy.retreat_at) if found.policy.retreat_at else None
        kind = self.index.spaces[found.space].data.get("kind")
        battle = Battle(self.combat_rules, ships, markers, kind == "sea", rng)
        end = battle.fight(self.order, found.escape, found.escape_after, found.pursue, leaves_at)
        result = (ATTACKER_WINS if end.controller == attacker else
                  DEFENDER_WINS if end.controller == defender else DRAW)
        def afloat(side):
            left: dict[str, int] = {}
            for ship in ships[side]:
                if not ship.sunk:
                    left[ship.type.id] = left.get(ship.type.id, 0) + 1
            return left
        def sunk(side):
            return float(sum(self.unit_cost(s.type.id) for s in ships[side] if s.sunk))
        return BattleOutcome(result, end.rounds, afloat(attacker), afloat(defender),
                             sunk(attacker), sunk(defender), end.events)
