"""The `triplea` rule family's battles: AA50's combat procedure (engine/aa50) on the game's dice.

The numbers and abilities come from the scenario (TripleA's common unit options, see
profiles.py); the procedure is AA50's (§5.5.3 of the AA50 rulebook): surprise strikes of
submarines without an enemy destroyer, anti-aircraft fire before the first round, supports,
two-hit units, casualties by policy. TripleA's own engine has more options than this procedure
knows (docs/import-triplea.md lists what is fought and what is refused).
"""
from __future__ import annotations

from ..aa50.profiles import UnitProfile
from ..aa50.system import AA50
from ..system import BattlePosition, EngineError, GameSystem, ReportTerms
from .profiles import profile_for, read_units


class TripleA(AA50):
    system = "triplea"
    report_terms = ReportTerms("income", "national objectives and bonuses", "PU")
    loss_unit = "PU"

    def __init__(self, scenario):
        self.units = read_units(scenario)
        super().__init__(scenario)
        rules = scenario.manifest.get("rules") or {}
        sides = rules.get("dice_sides", 6)
        self.dice_sides = sides if isinstance(sides, int) and not isinstance(sides, bool) and sides >= 2 else 6
        self._by_nation: dict[str, dict[str, UnitProfile]] = {}
        self._unfit: dict[str, dict[str, str]] = {}
        self.profiles = {uid: unit.profile for uid, unit in self.units.items()}
        self.breakthroughs = {}

    # -- whole games: AA50's turn is not a TripleA game's ------------------------------------------
    def new_game(self, options, rng, max_rounds=None):
        raise EngineError("whole games of the triplea rule family are not played yet: its battles are "
                          "(sandtable playtest battle)")

    def players(self) -> dict[str, type]:
        return {}

    def game_settings(self) -> list:
        return GameSystem.game_settings(self)

    # -- battles -------------------------------------------------------------------------------
    def profiles_for(self, nation: str, research: dict[str, frozenset[str]]) -> dict[str, UnitProfile]:
        if research.get(nation):
            raise EngineError("research is not part of the triplea rule family's battles")
        if nation not in self._by_nation:
            profiles, unfit = {}, {}
            for uid, unit in self.units.items():
                profiles[uid], why = profile_for(unit, nation)
                if why:
                    unfit[uid] = why
            self._by_nation[nation], self._unfit[nation] = profiles, unfit
        return self._by_nation[nation]

    def check_position(self, position: BattlePosition) -> None:
        super().check_position(position)
        for contingent in position.attackers + position.defenders:
            self.profiles_for(contingent.owner, {})
            for unit, count in contingent.units.items():
                why = self._unfit[contingent.owner].get(unit)
                if count and why:
                    raise EngineError(f"the battle calculator cannot fight with {unit} of {contingent.owner}: "
                                      f"{why}")
