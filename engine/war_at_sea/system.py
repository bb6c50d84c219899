"""The War at Sea game system behind the engine's interface: one battle (§7-§12) and the whole
game (game.py)."""
from __future__ import annotations

import difflib

import numpy as np

from validators.index import build_index

from ..system import (
    ATTACKER_WINS,
    DEFENDER_WINS,
    DRAW,
    BattleOutcome,
    BattlePosition,
    EngineError,
    GameSystem,
    ReportTerms,
)
from .combat import Battle, CombatRules, Dice
from .policy import SettingsChoices
from .position import WaSPosition, extras
from .rules import Board, Variant
from .ships import Ship, ShipType, read_types


class WarAtSea(GameSystem):
    system = "war-at-sea"
    report_terms = ReportTerms("points on the score track", "points scored", "points")
    position_type = WaSPosition
    loss_unit = "ships sunk"
    damage_unit = "damage points"

    def __init__(self, scenario):
        super().__init__(scenario)
        self.index = build_index(scenario)
        self.rules = scenario.manifest.get("rules") or {}
        self.board = Board(scenario, self.index)
        self.types = read_types(scenario, self.index.side_of)
        self._variant_types: dict[tuple, dict[str, ShipType]] = {}
        self._allowed: dict[tuple[str, str], frozenset[str]] = {}
        # side -> the ports its ships never enter (§2.2)
        self.enemy_ports = {side: frozenset(p for p, owner in self.board.port_side.items()
                                            if owner is not None and owner != side)
                            for side in self.board.sides}
        combat = self.rules.get("combat") or {}
        bonus = combat.get("undamaged_bonus") or {}
        self.combat_rules = CombatRules(int(combat.get("disable_roll", 5)), int(combat.get("hit_roll", 6)),
                                        int(combat.get("minimum_speed", 1)),
                                        str(bonus.get("nation", "")), int(bonus.get("add", 0)))
        self.markers = {m["side"]: m for m in self.rules.get("air_strike_marker") or []
                        if isinstance(m, dict) and "side" in m}
        self.sides = [s for s in (self.index.side_of(n) for n in self.index.owners) if s]
        # The Allies fire first (§7.2): the side of the nation that moves first.
        self.order = self.board.order
        self.limits = {unit: int(entity.data.get("limit", 1)) for unit, entity
                       in self.index.unit_types.items()
                       if isinstance(entity.data.get("limit", 1), int)}

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

    def allowed_spaces(self, nation: str, cls: str) -> frozenset[str]:
        """The spaces a ship of this nation and class may be in (§6.4, §16)."""
        key = (nation, cls)
        if key not in self._allowed:
            self._allowed[key] = frozenset(s for s in self.index.spaces
                                           if self.board.may_enter(nation, cls, s))
        return self._allowed[key]

    def types_for(self, variant: Variant) -> dict[str, ShipType]:
        """The ship types with the variant's changed values (§18.1)."""
        key = variant.key()
        if key not in self._variant_types:
            self._variant_types[key] = read_types(self.scenario, self.index.side_of,
                                                  variant.stat_changes)
        return self._variant_types[key]

    def variant_of(self, names: str) -> Variant:
        """The variant rules named in a battle's `variant` setting (option ids, by commas)."""
        known = [o["id"] for o in self.scenario.manifest.get("options") or []
                 if isinstance(o, dict) and isinstance(o.get("id"), str)]
        chosen = {}
        for name in filter(None, (n.strip() for n in names.split(","))):
            if name not in known:
                close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
                hint = f"; did you mean {close[0]}?" if close else f" (they are: {', '.join(known)})"
                raise EngineError(f"unknown variant rule {name!r}{hint}")
            chosen[name] = True
        return Variant.chosen(self.scenario.manifest, {k: chosen.get(k, False) for k in known})

    # -- compiling ---------------------------------------------------------------------------
    def fleets(self, position: WaSPosition, types: dict[str, ShipType] | None = None
               ) -> tuple[dict[str, list[Ship]], dict[str, int], str, str]:
        """The ships of a battle by side, the air-strike markers, the attacker's and the
        defender's side; EngineError for a position the rules do not allow."""
        self.check_position(position)
        types = types or self.types
        space = position.space
        kind = self.index.spaces[space].data.get("kind")
        tags = self.board.tags[space]
        if kind != "sea" and (kind != "port" or self.board.port_side.get(space) is None):
            raise EngineError(f"{space}: battles are fought in sea areas; a port only "
                              "takes air strikes, and never a neutral one (§15.5)")
        sides: dict[str, str] = {}
        for role, contingents in (("attacker", position.attackers), ("defender", position.defenders)):
            found = {self.index.side_of(c.owner) for c in contingents if c.total()}
            if len(found) != 1 or None in found:
                raise EngineError(f"the {role}s must be ships of one side")
            sides[role] = str(found.pop())
        if sides["attacker"] == sides["defender"]:
            raise EngineError("attackers and defenders must be on opposite sides")
        ships: dict[str, list[Ship]] = {side: [] for side in self.order}
        markers: dict[str, int] = {}
        counts: dict[str, int] = {}
        for contingent in position.attackers + position.defenders:
            side = self.index.side_of(contingent.owner)
            if side is None:        # an empty contingent (one with units and no side is refused above)
                continue
            for unit, count in contingent.units.items():
                kind_of = types[unit]
                counts[unit] = counts.get(unit, 0) + count
                self._check_unit(kind_of, contingent.owner, side, space, kind, counts[unit])
                if kind_of.is_air_unit:                     # the side's air-strike marker (§9.1)
                    marker = self.markers.get(side) or {}
                    if marker.get("tag") not in tags:
                        raise EngineError(f"{side}'s air-strike marker may not be placed in "
                                          f"{space} (§9.1)")
                    markers[side] = int(marker.get("value", kind_of.air_strike))
                    continue
                for number in range(count):
                    ships[side].append(Ship(kind_of, damage=int(position.damaged.get(unit, 0)),
                                            number=number + 1 if count > 1 else 0,
                                            sheltered=number < int(position.sheltered.get(unit, 0))))
        return ships, markers, sides["attacker"], sides["defender"]

    def _check_unit(self, unit: ShipType, owner: str, side: str, space: str, kind: str,
                    count: int) -> None:
        """The rules' limits on one unit type in a battle: its nation, how many there are, and
        where its nation's ships may go."""
        if unit.is_air_unit:
            if unit.side != side:
                raise EngineError(f"{unit.id} is the {unit.side} side's air unit, not {owner}'s")
            if count > 1:
                raise EngineError(f"each side has one land-based air unit (§3.4), and its "
                                  f"air-strike value cannot be split or added up (§9.1): "
                                  f"{count} {unit.id} given")
            return
        if unit.nation != owner and not (unit.is_uboat and self.index.side_of(unit.nation) == side):
            raise EngineError(f"{unit.id} is a ship of {unit.nation}; list it under "
                              f"'{unit.nation}:' (§3.1)")
        limit = self.limits.get(unit.id, 1)
        if count > limit:
            raise EngineError(f"there {'is' if limit == 1 else 'are'} {limit} {unit.id} in the "
                              f"game, not {count}")
        if kind == "port" and self.board.port_side.get(space) != side:
            raise EngineError(f"{unit.id} cannot be in {space}: ships never enter an enemy "
                              "port (§2.2)")
        reason = self.board.limit_against(unit.nation, unit.cls, space)
        if reason:
            raise EngineError(f"{unit.id} may not be in {space}: {reason}")

    # -- the interface -----------------------------------------------------------------------
    def resolve_battle(self, position: BattlePosition, rng: np.random.Generator) -> BattleOutcome:
        found = extras(position)
        types = self.types_for(self.variant_of(found.variant)) if found.variant else self.types
        ships, markers, attacker, defender = self.fleets(found, types)
        if found.escape not in (None, "both", *self.order):
            raise EngineError(f"escape is one of {', '.join(self.order)} or both")
        striking = {"both": None, "none": ()}.get(found.air_strikes, (found.air_strikes,))
        kind = self.index.spaces[found.space].data.get("kind")
        battle = Battle(self.combat_rules, ships, markers, kind == "sea", Dice(rng, batch=32))
        end = battle.fight(self.order, SettingsChoices(found, attacker, self.combat_rules.minimum_speed),
                           striking)
        controller = battle.controller(self.order, end)
        result = (ATTACKER_WINS if controller == attacker else
                  DEFENDER_WINS if controller == defender else DRAW)

        def afloat(side):
            left: dict[str, int] = {}
            for ship in ships[side]:
                if not ship.sunk:
                    left[ship.type.id] = left.get(ship.type.id, 0) + 1
            return left

        def sunk(side):
            return float(sum(self.unit_cost(s.type.id) for s in ships[side] if s.sunk))

        def damage(side):
            return float(sum(s.damage - int(found.damaged.get(s.type.id, 0))
                             for s in ships[side] if not s.sunk))
        return BattleOutcome(result, end.rounds, afloat(attacker), afloat(defender),
                             sunk(attacker), sunk(defender), battle.events,
                             damage(attacker), damage(defender))

    def render_battle(self, report, forces: list[str], space: str) -> str:
        """The report in War at Sea's terms: who holds the area after the battle (§12.1), ships
        sunk and the damage points the others carry home (§7.5-§7.6)."""
        method = ("exact" if report.method == "exact" else f"Monte Carlo, {report.runs} battles"
                  + (f", seed {report.seed}" if report.seed is not None else ""))
        lines = [f"Battle in {space} ({method})", f"  attacker  {forces[0]}"]
        lines += [f"  defender  {force}" for force in forces[1:]]
        lines.append("")
        for label, key in (("attacker holds the area", "attacker_wins"),
                           ("defender holds the area", "defender_wins"),
                           ("nobody holds it", "draws")):
            lines.append(f"  {label:<24}{100 * getattr(report, key):6.2f}%{report.interval_text(key)}")
        lines += ["", f"  ships sunk       attacker {report.expected_attacker_loss:.2f}, "
                      f"defender {report.expected_defender_loss:.2f} "
                      f"(swing {report.swing:+.2f})"]
        damage = report.details.get("damage")
        if damage:
            lines.append(f"  damage points    attacker {damage['attacker']:.2f}, "
                         f"defender {damage['defender']:.2f} (on ships still afloat)")
        lines.append(f"  mean rounds      {report.mean_rounds:.2f}")
        for label, survivors in (("attacker", report.attacker_survivors),
                                 ("defender", report.defender_survivors)):
            shown = ", ".join(f"{n}: {100 * p:.1f}%" for n, p in sorted(survivors.items())
                              if p >= 0.0005)
            lines.append(f"  {label} ships afloat  {shown}")
        return "\n".join(lines)

    # -- whole games ---------------------------------------------------------------------------
    def new_game(self, options: dict, rng: np.random.Generator, max_rounds: int | None = None):
        from .game import WaSGame
        return WaSGame(self, Variant.chosen(self.scenario.manifest, options), rng, max_rounds)

    def players(self) -> dict[str, type]:
        from .heuristic import WaSHeuristic
        return {"heuristic": WaSHeuristic}
