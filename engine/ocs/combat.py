"""An OCS combat (charts 9.2-9.10): odds column, surprise, the combat table's result.

The procedure, as the combat summary gives it: total the strengths and find the odds column in
the defender's terrain row, rounding for the defender (9.9); roll two dice for surprise, adding
the difference of the action ratings and -1 for a hedgehog, and on a surprise shift as many
columns as one die shows (9.8); roll two dice, add the attacker's action rating, subtract the
defender's and the hedgehog level, and read the result (9.10); apply it, the attacker first.

A combat is fixed by three rolls (surprise, shift, result), so its exact distribution is a sum
over at most 11 x 7 x 11 cases; the settled result of each (column, row) is cached.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..system import ATTACKER_WINS, DEFENDER_WINS, DRAW, EngineError, Policy
from .charts import Charts, in_range, range_index
from .position import ATTACKS, MODES, OPTION_CHOICES, OCSPosition
from .units import UnitProfile, highest_level

# 9.10 note 3: a unit retreating this many hexes or more is disorganized.
RETREAT_DISORGANIZES = 2

# Two dice: sum -> probability.
TWO_DICE = {s: Fraction(6 - abs(s - 7), 36) for s in range(2, 13)}


@dataclass
class Force:
    """One side's units in the combat, as (profile, count) in the order they lose steps."""

    units: list[tuple[UnitProfile, int]]

    def steps(self) -> int:
        return sum(p.steps * n for p, n in self.units)

    def take_steps(self, count: int) -> tuple[dict[str, int], int]:
        """Lose `count` steps, a whole unit at a time, weakest units first; returns the units
        left (type -> count) and the steps actually lost."""
        left: dict[str, int] = {}
        lost = 0
        for profile, number in self.units:
            alive = number
            while alive and lost + profile.steps <= count:
                alive -= 1
                lost += profile.steps
            if alive and lost < count:
                lost += count - lost          # the unit is reduced, not destroyed
            if alive:
                left[profile.id] = left.get(profile.id, 0) + alive
        return left, lost


def ordered(units: dict[str, int], profiles: dict[str, UnitProfile], policy: Policy) -> list:
    """The casualty order: types named by the policy first, then the weakest (9.10: the owner
    chooses which units lose steps)."""
    named = [] if policy.order in ("cheapest", "weakest") else [t.strip() for t in policy.order.split(",")]
    def key(unit):
        p = profiles[unit]
        return (named.index(unit) if unit in named else len(named), p.attack + p.defense, unit)
    return [(profiles[u], n) for u, n in sorted(((u, n) for u, n in units.items() if n), key=lambda x: key(x[0]))]


@dataclass
class CombatEnd:
    """How one combat ended."""

    result: int
    column: int                 # final odds column, 1-based, after any surprise shift
    row: str                    # the modified roll's row id
    surprise: str | None        # "attacker", "defender" or None
    printed: str                # the table's cell as printed
    attacker_left: dict[str, int]
    defender_left: dict[str, int]
    attacker_steps_lost: int
    defender_steps_lost: int
    attacker_retreats: bool
    defender_retreats: bool
    defender_disorganized: bool
    exploiting: int             # attacking units that go into exploit mode
    events: list[str] = field(default_factory=list)
    attacker_retreat_hexes: int = 0
    defender_retreat_hexes: int = 0
    attacker_disorganized: bool = False


class Combat:
    """One combat compiled: strengths, column, modifiers; settles any (column, row)."""

    def __init__(self, charts: Charts, profiles: dict[str, UnitProfile], position: OCSPosition,
                 terrain: str, unsupplied_defence: Fraction):
        self.charts = charts
        self.position = position
        self.terrain = terrain
        if position.attack not in ATTACKS:
            raise EngineError(f"attack is 'regular' or 'overrun', not {position.attack!r}")
        if position.hedgehog < 0:
            raise EngineError(f"hedgehog is a level of 0 (none) or more, not {position.hedgehog}")
        for side in ("attacker", "defender"):
            if getattr(position, f"{side}_mode") not in MODES:
                raise EngineError(f"{side}_mode is one of {', '.join(MODES)}")
            if getattr(position, f"{side}_option") not in OPTION_CHOICES:
                raise EngineError(f"{side}_option is one of {', '.join(OPTION_CHOICES)}")
        attackers = _pooled(position.attackers)
        defenders = _pooled(position.defenders)
        if not attackers or not defenders:
            raise EngineError("a combat needs attacking and defending units")
        self.attacker = Force(ordered(attackers, profiles, position.policy))
        self.defender = Force(ordered(defenders, profiles, position.policy))

        # Strengths (9.4e anti-armour, 9.5 combat supply).
        defence_level = highest_level([p.anti_armour for p, _ in self.defender.units]
                                      + (["heavy"] if position.hedgehog else []))
        armour_level = highest_level(p.anti_armour for p, _ in self.attacker.units if p.armoured)
        effect = Fraction(str(position.armour_terrain))
        if effect == 2:
            effect = Fraction(str(charts.anti_armour(armour_level, defence_level)))
        self.armour_effect = effect
        self.attack_strength = sum((Fraction(str(p.attack)) * n * (effect if p.armoured else 1)
                                    for p, n in self.attacker.units), Fraction(0))
        self.defence_strength = sum((Fraction(str(p.defense)) * n for p, n in self.defender.units),
                                    Fraction(0))
        if not position.defender_supplied:
            self.defence_strength *= unsupplied_defence
        self.initial_column = odds_column(charts.odds_columns(terrain), self.attack_strength,
                                          self.defence_strength)
        self.columns = len(charts.odds_columns(terrain))

        # Action ratings (9.6): each side names its best unit.
        modifiers = charts.rating_modifiers()
        self.attacker_rating = _rating(max(p.action_rating for p, _ in self.attacker.units),
                                       position.attacker_mode, modifiers)
        self.defender_rating = _rating(max(p.action_rating for p, _ in self.defender.units),
                                       position.defender_mode, modifiers)

        surprise_mods = charts.modifiers("surprise")
        self.surprise_modifier = (surprise_mods["rating-difference"].roll
                                  * (self.attacker_rating - self.defender_rating)
                                  + (surprise_mods["hedgehog"].roll if position.hedgehog else 0))
        self.attacker_surprise, self.defender_surprise = charts.surprise_ranges(position.attack)
        result_mods = charts.modifiers("combat-results")
        self.roll_modifier = (result_mods["attacker-rating"].roll * self.attacker_rating
                              + result_mods["defender-rating"].roll * self.defender_rating
                              + result_mods["hedgehog"].roll * position.hedgehog)
        self.shift_per_pip = {"attacker": result_mods["attacker-surprise"].shift,
                              "defender": result_mods["defender-surprise"].shift}
        self.rows = charts.combat_rows()
        self._settled: dict[tuple[int, int], CombatEnd] = {}

    def supply(self) -> tuple[int, int]:
        """Tokens spent (9.5): the attacker 1T per attacking step, the defender 2T per combat
        (1T with 1 RE or less in all), nothing when it chooses to defend at half strength."""
        attacker = self.charts.combat_supply("attacker")
        attacker_tokens = int(attacker["tokens"]) * self.attacker.steps()
        if not self.position.defender_supplied:
            return attacker_tokens, 0
        small = sum(Fraction(str(p.re)) * n for p, n in self.defender.units) <= 1
        defender = self.charts.combat_supply("small-defender" if small else "defender")
        return attacker_tokens, int(defender["tokens"])

    # -- the three rolls -----------------------------------------------------------------------
    def surprise(self, roll: int) -> str | None:
        modified = roll + self.surprise_modifier
        if in_range(modified, self.attacker_surprise):
            return "attacker"
        if in_range(modified, self.defender_surprise):
            return "defender"
        return None

    def column_after(self, surprise: str | None, die: int) -> int:
        """0-based column after the surprise shift, kept on the table."""
        shift = self.shift_per_pip[surprise] * die if surprise else 0
        return min(max(self.initial_column + shift, 0), self.columns - 1)

    def row_of(self, roll: int) -> int:
        return range_index(self.rows, roll + self.roll_modifier)

    def fight(self, surprise_roll: int, shift_die: int, result_roll: int) -> CombatEnd:
        surprise = self.surprise(surprise_roll)
        end = self.settle(self.column_after(surprise, shift_die), self.row_of(result_roll))
        if surprise is None:
            return end
        return CombatEnd(**{**end.__dict__, "surprise": surprise,
                            "events": [f"{surprise} surprise: {shift_die} column(s)"] + end.events})

    # -- applying a result (9.10) ----------------------------------------------------------------
    def settle(self, column: int, row: int) -> CombatEnd:
        key = (column, row)
        if key not in self._settled:
            self._settled[key] = self._settle(column, row)
        return self._settled[key]

    def _settle(self, column: int, row: int) -> CombatEnd:
        cell = self.charts.combat_result(self.terrain, column, row)
        on_attacker, on_defender = cell.get("attacker") or {}, cell.get("defender") or {}
        events = [f"{cell.get('printed', '')} at column {column + 1}, roll {self.rows[row].get('id', row)}"]
        position = self.position

        # The attacker first: its losses, then its option (steps, or a hex of retreat per point).
        a_loss = int(on_attacker.get("loss", 0))
        a_option = int(on_attacker.get("option", 0))
        attacker_left, a_lost = self.attacker.take_steps(a_loss)
        attacker_hexes = 0
        destroyed_first = not attacker_left
        if attacker_left and a_option:
            if _takes_steps(position.attacker_option, self.attacker.steps() - a_lost, a_option):
                attacker_left, a_lost = self.attacker.take_steps(a_loss + a_option)
            else:
                attacker_hexes = a_option
                events.append(f"the attacker retreats {_hexes(a_option)} for its option")

        # Then the defender. It may ignore its option when the attacker retreated for its own
        # or was destroyed before any option was applied (9.10 note 2): a choice of policy.
        d_loss = int(on_defender.get("loss", 0))
        d_option = int(on_defender.get("option", 0))
        defender_left, d_lost = self.defender.take_steps(d_loss)
        defender_hexes = 0
        excused = (attacker_hexes or destroyed_first) and position.defender_ignores_option
        if defender_left and d_option and excused:
            events.append("the defender ignores its option")
        elif defender_left and d_option:
            if _takes_steps(position.defender_option, self.defender.steps() - d_lost, d_option):
                defender_left, d_lost = self.defender.take_steps(d_loss + d_option)
            else:
                defender_hexes = d_option
                events.append(f"the defender retreats {_hexes(d_option)} for its option")

        # DG: the result's own, or a retreat of 2 hexes or more (9.10 note 3).
        attacker_dg = bool(attacker_left) and attacker_hexes >= RETREAT_DISORGANIZES
        defender_dg = bool(defender_left) and (bool(on_defender.get("disorganized"))
                                               or defender_hexes >= RETREAT_DISORGANIZES)
        for side, hexes, dg in (("attacker", attacker_hexes, attacker_dg),
                                ("defender", defender_hexes, defender_dg)):
            if dg and hexes >= RETREAT_DISORGANIZES:
                events.append(f"the {side} is disorganized entering the second hex of its retreat")

        # e#: only in attacks of the combat phase (not by units in exploit mode), from at most
        # 2 adjacent hexes, and not after retreating for an option (9.10 and notes 1, 4).
        exploit = on_attacker.get("exploit")
        exploiting = 0
        if (exploit and position.exploit_allowed and position.attacker_mode != "exploit"
                and not attacker_hexes and attacker_left):
            exploiting = sum(n for u, n in attacker_left.items()
                             if self._profile(u).action_rating >= int(exploit))
            events.append(f"{exploiting} attacking unit(s) go into exploit mode")

        holds = bool(defender_left) and not defender_hexes
        result = DEFENDER_WINS if holds else (ATTACKER_WINS if attacker_left else DRAW)
        return CombatEnd(result, column + 1, str(self.rows[row].get("id", row)), None,
                         str(cell.get("printed", "")), attacker_left, defender_left, a_lost, d_lost,
                         bool(attacker_hexes), bool(defender_hexes), defender_dg, exploiting,
                         events, attacker_hexes, defender_hexes, attacker_dg)

    def _profile(self, unit: str) -> UnitProfile:
        return next(p for p, _ in self.attacker.units if p.id == unit)

    # -- distributions -------------------------------------------------------------------------
    def cases(self):
        """(probability, end) for every way the three rolls can fall."""
        for surprise_roll, p_surprise in TWO_DICE.items():
            surprise = self.surprise(surprise_roll)
            dice = range(1, 7) if surprise else (0,)
            for die in dice:
                p_die = Fraction(1, 6) if surprise else Fraction(1)
                column = self.column_after(surprise, die)
                for roll, p_roll in TWO_DICE.items():
                    yield p_surprise * p_die * p_roll, self.settle(column, self.row_of(roll))

    def sample(self, runs: int, rng: np.random.Generator) -> list[CombatEnd]:
        dice = rng.integers(1, 7, size=(runs, 5))
        surprise_rolls = dice[:, 0] + dice[:, 1]
        result_rolls = dice[:, 3] + dice[:, 4]
        return [self.fight(int(s), int(d), int(r))
                for s, d, r in zip(surprise_rolls, dice[:, 2], result_rolls, strict=True)]


def odds_column(columns: list[tuple[int, int]], attack: Fraction, defence: Fraction) -> int:
    """The rightmost column whose odds the attack meets, rounding for the defender (9.9); an
    attack below the leftmost column's odds is resolved on the leftmost column."""
    if defence <= 0:
        return len(columns) - 1
    found = 0
    for index, (a, d) in enumerate(columns):
        if attack * d >= defence * a:
            found = index
    return found


def _rating(printed: int, mode: str, modifiers: dict[str, dict]) -> int:
    """The action rating a mode leaves (9.6): the chart's change, with no floor (a disorganized
    unit rated 0 counts -1). Modes the chart does not name leave the printed rating."""
    change = modifiers.get(mode) or {}
    if "set" in change:
        return int(change["set"])
    return printed + int(change.get("add", 0))


def _hexes(count: int) -> str:
    return f"{count} hex" if count == 1 else f"{count} hexes"


def _takes_steps(choice: str, steps_left: int, option: int) -> bool:
    if choice == "steps":
        return True
    if choice == "retreat":
        return False
    return steps_left > option       # auto: take the steps when the side survives them


def _pooled(contingents) -> dict[str, int]:
    units: dict[str, int] = {}
    for contingent in contingents:
        for unit, count in contingent.units.items():
            if count:
                units[unit] = units.get(unit, 0) + count
    return units
