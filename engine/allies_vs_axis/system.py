"""The Allies vs. Axis game system behind the engine's interface.

An invasion is not fought with dice: it may start only when the invasion power is at least the
defence power, and then every invading unit is lost and the territory changes hands ("Invading
hostile territories"). So a battle has one outcome, and its exact distribution is that outcome
with probability 1. Battleships take part only in territories with a seaport.

A territory is neutral when nobody owns it: a battle with no defending side. A neutral
territory is invaded with infantry alone against its printed neutral defence power ("Neutral
territories"). A territory a side owns is hostile to the other, whatever defends it: defended by
nothing (or only by battleships where there is no seaport), any army invades it. Only secret
territories are closed to armies ("Invading secret territories"); a special territory is allied
with while neutral, and invaded like any other once a side owns it.

Whole games are game.py's; the heuristic player is heuristic.py's.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from validators.index import build_index

from ..system import (
    ATTACKER_WINS,
    DEFENDER_WINS,
    BattleOutcome,
    BattlePosition,
    EngineError,
    ExactOutcome,
    GameSystem,
    ReportTerms,
    UnknownName,
)
from .board import Board
from .formulas import Formulas
from .game import AvAGame
from .position import AvAPosition


@dataclass(frozen=True)
class Invasion:
    """What an invasion comes to, worked out by the page's formulas."""

    invasion_power: Fraction
    defence_power: Fraction
    neutral: bool
    invading: dict[str, int]       # the units that take part (battleships need a seaport)
    defending: dict[str, int]

    @property
    def may_start(self) -> bool:
        """An invasion needs an army that takes part, at least as strong as the defence."""
        return bool(self.invading) and self.invasion_power >= self.defence_power


class AlliesVsAxis(GameSystem):
    system = "allies-vs-axis"
    report_terms = ReportTerms("territories held", "ransoms paid", "$M")
    position_type = AvAPosition
    loss_unit = "$M"                 # "Money": shown as $M
    defender_optional = True         # no defender: a neutral territory

    def __init__(self, scenario):
        super().__init__(scenario)
        self.index = build_index(scenario)
        self.rules = scenario.manifest.get("rules") or {}
        self.stats = {uid: dict(e.data.get("stats") or {}) for uid, e in self.index.unit_types.items()}
        self.costs = {uid: float(e.data.get("cost", 0)) for uid, e in self.index.unit_types.items()}
        self.formulas = Formulas(self.rules, self.stats, self.levels_of(None))
        self._board: Board | None = None
        self._formulas: dict[str, Formulas] = {}

    # -- names -------------------------------------------------------------------------------
    def unit_types(self) -> list[str]:
        return sorted(self.stats)

    def nations(self) -> list[str]:
        return sorted(self.index.owners)

    def spaces(self) -> list[str]:
        return sorted(s for s, e in self.index.spaces.items() if e.data.get("kind") != "square")

    def unit_cost(self, unit_type: str) -> float:
        return self.costs.get(unit_type, 0.0)

    def modes(self) -> list[str]:
        return sorted(o for o, e in self.index.options.items() if e.data.get("group") == "mode")

    def levels_of(self, mode: str | None) -> dict[str, str]:
        """Setting -> level, from the `set_level` changes of the mode (default: the default mode)."""
        if mode is None:
            chosen = [o for o in self.modes() if self.index.options[o].data.get("default")]
        elif mode in self.modes():
            chosen = [mode]
        else:
            raise UnknownName("game mode", mode, self.modes())
        levels = {}
        for option in chosen:
            for change in self.index.options[option].data.get("changes") or []:
                if isinstance(change, dict) and change.get("op") == "set_level":
                    levels[change["setting"]] = change["level"]
        return levels

    def formulas_for(self, mode: str | None) -> Formulas:
        if mode is None:
            return self.formulas
        if mode not in self._formulas:
            self._formulas[mode] = Formulas(self.rules, self.stats, self.levels_of(mode))
        return self._formulas[mode]

    # -- the invasion ------------------------------------------------------------------------
    def has_seaport(self, space: str) -> bool:
        return "seaport" in (self.index.spaces[space].data.get("tags") or [])

    def _taking_part(self, units: dict[str, int], space: str) -> dict[str, int]:
        """Battleships only take part in territories with a seaport ("Battleships")."""
        seaport = self.has_seaport(space)
        return {u: n for u, n in units.items()
                if n and (seaport or "seaport_only" not in (self.index.unit_types[u].data.get("tags") or []))}

    def invasion(self, position: BattlePosition) -> Invasion:
        self.check_position(position)
        if len(position.attackers) != 1:
            raise EngineError("one player invades at a time")
        tags = self.index.spaces[position.space].data.get("tags") or []
        neutral = not position.defenders          # nobody owns it
        if "secret" in tags:
            raise EngineError(f"{position.space} is a secret territory: armies cannot invade it "
                              "(only a spy card destroys a secret base)")
        if "special" in tags and neutral:
            raise EngineError(f"{position.space} is a special territory: while neutral it is "
                              "allied with for a fixed cost, not invaded; name its owner as the "
                              "defender to invade it")
        if any(c.owner == position.attackers[0].owner for c in position.defenders):
            raise EngineError("a player does not invade its own territory")
        formulas = self.formulas_for(getattr(position, "mode", None))
        invading = self._taking_part(position.attackers[0].units, position.space)
        defending: dict[str, int] = {}
        for contingent in position.defenders:
            for unit, count in self._taking_part(contingent.units, position.space).items():
                defending[unit] = defending.get(unit, 0) + count
        if neutral:
            allowed = set(self.rules.get("neutral_invasion_units") or [])
            others = sorted(u for u in invading if u not in allowed)
            if others:
                raise EngineError(f"only {', '.join(sorted(allowed))} may invade a neutral "
                                  f"territory, not {', '.join(others)}")
            printed = (self.index.spaces[position.space].data.get("stats") or {}).get("neutral_defence")
            if printed is None:
                raise EngineError(f"{position.space} has no defenders and no neutral defence power")
            defence = Fraction(printed)
        else:
            defence = formulas.defence_power(defending)
        return Invasion(formulas.invasion_power(invading), defence, neutral, invading, defending)

    def _outcome(self, position: BattlePosition) -> BattleOutcome:
        found = self.invasion(position)
        attackers = dict(position.attackers[0].units)
        defenders: dict[str, int] = {}
        for contingent in position.defenders:
            for unit, count in contingent.units.items():
                defenders[unit] = defenders.get(unit, 0) + count
        power = f"invasion power {found.invasion_power} against defence power {found.defence_power}"
        if found.neutral:
            power += " (a neutral territory)"
        if not found.may_start:
            why = "" if found.invading else " (no invading unit takes part: battleships need a seaport)"
            return BattleOutcome(DEFENDER_WINS, 0, attackers, defenders, 0.0, 0.0,
                                 [f"{power}: the invasion cannot start{why}"])
        # Every invading unit is lost; the defending army goes with the territory.
        survivors = {u: n - found.invading.get(u, 0) for u, n in attackers.items()
                     if n - found.invading.get(u, 0)}
        return BattleOutcome(ATTACKER_WINS, 1, survivors, {},
                             sum(n * self.unit_cost(u) for u, n in found.invading.items()),
                             sum(n * self.unit_cost(u) for u, n in defenders.items()),
                             [f"{power}: the territory is taken, every invading unit is lost"])

    # -- whole games -------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = Board.of(self.scenario, self.index)
        return self._board

    def game_settings(self) -> list:
        """The scenario's option groups, each one setting (`mode=fierce-battle`), with help that
        says what each decides ("Game modes", "Game end")."""
        helps = {"mode": "the game mode: starting territories, resources, penalty rate and luck",
                 "end-condition": "a side loses on losing every territory (conquest) or its main "
                                  "territory (sudden-death)",
                 "jail-limit": "a side loses on being jailed this many times",
                 "turn-limit": "the game ends after this many turns (none: it does not)"}
        return [replace(s, help=helps.get(s.name, s.help)) for s in super().game_settings()]

    def new_game(self, options: dict, rng: np.random.Generator, max_rounds: int | None = None):
        settings = {s.key: s.default for s in self.game_settings()} | dict(options)
        return AvAGame(self.board, settings, rng, max_rounds)

    def players(self) -> dict[str, type]:
        from .heuristic import AvAHeuristic
        return {"heuristic": AvAHeuristic}

    # -- the interface -----------------------------------------------------------------------
    def resolve_battle(self, position: BattlePosition, rng: np.random.Generator) -> BattleOutcome:
        return self._outcome(position)   # nothing is left to chance

    def exact(self, position: BattlePosition, budget: int = 200_000,
              time_limit: float | None = None) -> ExactOutcome:
        end = self._outcome(position)
        return ExactOutcome(
            probability=np.array([1.0]), result=np.array([end.result], dtype=np.int8),
            attacker_survivors=np.array([sum(end.attacker_survivors.values())]),
            defender_survivors=np.array([sum(end.defender_survivors.values())]),
            attacker_loss=np.array([end.attacker_loss]), defender_loss=np.array([end.defender_loss]),
            mean_rounds=float(end.rounds), states=1)

    # -- reports in the page's terms ---------------------------------------------------------
    def battle_details(self, position: BattlePosition) -> dict:
        """The powers, whether the invasion may start, and what else the square costs: the
        penalty an enemy landing there pays (owned), or a first treaty (neutral)."""
        found = self.invasion(position)
        mode = getattr(position, "mode", None) or next(
            (o for o in self.modes() if self.index.options[o].data.get("default")), None)
        formulas = self.formulas_for(getattr(position, "mode", None))
        details = {"mode": mode, "invasion_power": float(found.invasion_power),
                   "defence_power": float(found.defence_power), "neutral": found.neutral,
                   "may_start": found.may_start,
                   "invading": dict(found.invading), "defending": dict(found.defending)}
        if found.neutral:
            details["treaty_cost"] = float(formulas.treaty_cost(found.defence_power, 0))
        else:
            rate = self.level_values("penalty_rate").get(formulas.levels.get("penalty_rate"))
            details["penalty_rate"] = float(rate) if rate is not None else None
            details["penalty"] = float(formulas.penalty_cost(found.defence_power))
        return details

    def render_battle(self, report, forces: list, space: str) -> str | None:
        found = report.details
        if not found:
            return None
        attacker, *defenders = forces
        lines = [f"Invasion of {space} ({found['mode']} mode, exact: no dice)",
                 f"  invading  {attacker}"]
        lines += [f"  defending {force}" for force in defenders] or \
            ["  defending nobody: a neutral territory, invaded with infantry only"]
        power = (f"  invasion power {found['invasion_power']:g} against "
                 f"{'neutral ' if found['neutral'] else ''}defence power {found['defence_power']:g}")
        lines += ["", power]
        if found["may_start"]:
            lines.append(f"  the invasion starts: the territory is taken and every invading unit "
                         f"is lost ({report.expected_attacker_loss:.0f} {report.loss_unit})")
            if report.expected_defender_loss:
                lines.append(f"  the defenders are lost with it ({report.expected_defender_loss:.0f} "
                             f"{report.loss_unit})")
        else:
            lines.append("  the invasion cannot start: it needs at least the defence power"
                         + ("" if found["invading"] else " (no invading unit takes part: "
                            "battleships need a seaport)"))
        if found["neutral"]:
            lines.append(f"  a treaty instead costs $M {found['treaty_cost']:g} (a player's first)")
        else:
            lines.append(f"  an enemy landing here pays a penalty of {found['penalty']:g} power "
                         f"({100 * (found['penalty_rate'] or 0):g}% of the defence power)")
        return "\n".join(lines)

    def level_values(self, setting: str) -> dict:
        return dict(((self.rules.get("levels") or {}).get(setting) or {}).get("values") or {})

    def landing_penalty(self, visitor: dict[str, int], defending: dict[str, int], space: str,
                        mode: str | None = None) -> tuple[Fraction, dict[str, int], bool]:
        """Landing on a hostile territory ("Hostile territories", "Penalty cost"): the penalty
        in power (defence power x the mode's penalty rate), the units it takes, and whether it
        takes them all, which sends the player to jail (rules.jailed_when)."""
        formulas = self.formulas_for(mode)
        army = self._taking_part(defending, space)
        penalty = formulas.penalty_cost(formulas.defence_power(army))
        lost, every_unit = formulas.penalty_losses(visitor, penalty)
        return penalty, lost, every_unit
