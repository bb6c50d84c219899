"""The OCS game system behind the engine's interface: a combat, or a barrage (`raid=True`)."""
from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import numpy as np

from validators.index import build_index

from ..system import BattleOutcome, BattlePosition, ExactOutcome, GameSystem, OutcomeBatch, UnknownName
from .air import AirbaseCapture, AirCombat, AirTransport, Flak, MissionLoss
from .barrage import Barrage
from .charts import Charts
from .combat import Combat
from .facilities import FacilityBarrage, PortDamage
from .position import OCSPosition, extras
from .report import barrage_details, combat_details, render
from .supply import Attrition, Capture, SupplyDumpDestruction
from .units import read_profiles

# The charts resolved on their own; combat and barrage are battles (`playtest battle`).
CHARTS = (AirCombat, Flak, MissionLoss, AirTransport, AirbaseCapture, Attrition, Capture,
          SupplyDumpDestruction, FacilityBarrage, PortDamage)


class OCS(GameSystem):
    system = "ocs"
    position_type = OCSPosition
    loss_unit = "steps"

    def __init__(self, scenario):
        super().__init__(scenario)
        self.index = build_index(scenario)
        self.charts = Charts(scenario)
        self.profiles = read_profiles(scenario)
        self.rules = scenario.manifest.get("rules") or {}
        self.optional_rules = {o for o, e in self.index.options.items() if e.data.get("default")}

    # -- names -------------------------------------------------------------------------------
    def unit_types(self) -> list[str]:
        return sorted(self.profiles)

    def nations(self) -> list[str]:
        return sorted(self.index.owners)

    def spaces(self) -> list[str]:
        """The map's hexes, and the terrain rows themselves (for the chart scenario, which has
        no map: a combat 'at close' is a combat in close terrain)."""
        return sorted(set(self.index.spaces) | set(self.charts.terrains()))

    def unit_cost(self, unit_type: str) -> float:
        """OCS prints no costs: a loss is measured in steps."""
        return float(self.profiles[unit_type].steps)

    def terrain_of(self, position: OCSPosition) -> str:
        terrain = position.terrain
        if terrain is None:
            space = self.index.spaces.get(position.space)
            terrain = space.data.get("terrain") if space else position.space
        if terrain not in self.charts.terrains():
            raise UnknownName("combat terrain", str(terrain), self.charts.terrains())
        return terrain

    # -- compiling ---------------------------------------------------------------------------
    def combat(self, position: BattlePosition) -> Combat:
        self.check_position(position)
        found = extras(position)
        return Combat(self.charts, self.profiles, found, self.terrain_of(found),
                      Fraction(str(self.rules.get("unsupplied_defence", 0.5))))

    def barrage(self, position: BattlePosition) -> Barrage:
        self.check_position(position)
        found = extras(position)
        return Barrage(self.charts, self.profiles, found, self.terrain_of(found), self.optional_rules)

    # -- the interface -----------------------------------------------------------------------
    def resolve_battle(self, position: BattlePosition, rng: np.random.Generator) -> BattleOutcome:
        if position.raid:
            barrage = self.barrage(position)
            roll = int(rng.integers(1, 7) + rng.integers(1, 7))
            shot = barrage.outcome(roll, int(rng.integers(1, 7)))
            return BattleOutcome(shot.result, 1, {}, shot.defender_left, 0.0, float(shot.steps_lost),
                                 shot.events)
        combat = self.combat(position)
        (end,) = combat.sample(1, rng)
        return BattleOutcome(end.result, 1, end.attacker_left, end.defender_left,
                             float(end.attacker_steps_lost), float(end.defender_steps_lost), end.events)

    def simulate(self, position: BattlePosition, runs: int, rng: np.random.Generator) -> OutcomeBatch:
        if position.raid:
            barrage = self.barrage(position)
            dice = rng.integers(1, 7, size=(runs, 3))
            shots = [barrage.outcome(int(a + b), int(c)) for a, b, c in dice]
            return OutcomeBatch(
                np.array([e.result for e in shots], dtype=np.int8), np.ones(runs, dtype=np.int64),
                np.zeros(runs, dtype=np.int64),
                np.array([sum(e.defender_left.values()) for e in shots], dtype=np.int64),
                np.zeros(runs), np.array([e.steps_lost for e in shots], dtype=float))
        ends = self.combat(position).sample(runs, rng)
        return OutcomeBatch(
            np.array([e.result for e in ends], dtype=np.int8), np.ones(runs, dtype=np.int64),
            np.array([sum(e.attacker_left.values()) for e in ends], dtype=np.int64),
            np.array([sum(e.defender_left.values()) for e in ends], dtype=np.int64),
            np.array([e.attacker_steps_lost for e in ends], dtype=float),
            np.array([e.defender_steps_lost for e in ends], dtype=float))

    def exact(self, position: BattlePosition, budget: int = 200_000,
              time_limit: float | None = None) -> ExactOutcome:
        totals: dict[tuple, Fraction] = defaultdict(Fraction)
        if position.raid:
            for p, end in self.barrage(position).cases():
                totals[(end.result, 0, sum(end.defender_left.values()), 0, end.steps_lost)] += p
        else:
            for p, end in self.combat(position).cases():
                totals[(end.result, sum(end.attacker_left.values()), sum(end.defender_left.values()),
                        end.attacker_steps_lost, end.defender_steps_lost)] += p
        rows = sorted(totals)
        return ExactOutcome(
            probability=np.array([float(totals[r]) for r in rows]),
            result=np.array([r[0] for r in rows], dtype=np.int8),
            attacker_survivors=np.array([r[1] for r in rows], dtype=np.int64),
            defender_survivors=np.array([r[2] for r in rows], dtype=np.int64),
            attacker_loss=np.array([float(r[3]) for r in rows]),
            defender_loss=np.array([float(r[4]) for r in rows]),
            mean_rounds=1.0, states=len(rows))

    # -- reports in OCS terms ------------------------------------------------------------------
    def battle_details(self, position: BattlePosition) -> dict:
        if position.raid:
            return barrage_details(self.barrage(position))
        return combat_details(self.combat(position), int(self.rules.get("tokens_per_sp", 4)))

    def render_battle(self, report, forces: list, space: str) -> str | None:
        return render(report, [str(f) for f in forces], space) if report.details else None

    def chart_resolvers(self) -> dict:
        return {chart.id: chart(self.charts, self.optional_rules, self.rules) for chart in CHARTS}

    def distribution(self, position: BattlePosition) -> list[tuple[Fraction, object]]:
        """Every way the combat (or barrage) can end, with its exact probability."""
        source = self.barrage(position) if position.raid else self.combat(position)
        return list(source.cases())
