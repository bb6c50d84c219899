"""An OCS combat or barrage reported in OCS terms: step losses, retreats, DG, exploitation and
the supply spent in tokens (1 SP = 4T), from the exact distribution of the few rolls.

`combat_details` and `barrage_details` are plain data (for `--json` and the editor);
`render` turns them, with the calculator's report, into the text `playtest battle` prints.
"""
from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from ..system import DEFENDER_WINS
from .barrage import Barrage
from .combat import TWO_DICE, Combat

SIDES = ("attacker", "defender")


def _spread(totals: dict) -> dict[str, float]:
    return {str(k): float(p) for k, p in sorted(totals.items()) if p}


def combat_details(combat: Combat, tokens_per_sp: int) -> dict:
    steps: dict[str, defaultdict[int, Fraction]] = {side: defaultdict(Fraction) for side in SIDES}
    retreat: dict[str, defaultdict[int, Fraction]] = {side: defaultdict(Fraction) for side in SIDES}
    dg = {side: Fraction(0) for side in SIDES}
    exploit, exploiting = Fraction(0), Fraction(0)
    surprise = {side: Fraction(0) for side in SIDES}
    for p, end in combat.cases():
        steps["attacker"][end.attacker_steps_lost] += p
        steps["defender"][end.defender_steps_lost] += p
        retreat["attacker"][end.attacker_retreat_hexes] += p
        retreat["defender"][end.defender_retreat_hexes] += p
        dg["attacker"] += p * end.attacker_disorganized
        dg["defender"] += p * end.defender_disorganized
        exploit += p * bool(end.exploiting)
        exploiting += p * end.exploiting
    for roll, p in TWO_DICE.items():
        side = combat.surprise(roll)
        if side:
            surprise[side] += p
    columns = combat.charts.odds_columns(combat.terrain)
    a, d = columns[combat.initial_column]
    attacker_tokens, defender_tokens = combat.supply()
    return {
        "kind": "combat", "terrain": combat.terrain, "attack": combat.position.attack,
        "strength": {"attacker": float(combat.attack_strength), "defender": float(combat.defence_strength)},
        "odds": f"{a}:{d}", "column": combat.initial_column + 1, "columns": combat.columns,
        "action_rating": {"attacker": combat.attacker_rating, "defender": combat.defender_rating},
        "surprise_modifier": combat.surprise_modifier, "roll_modifier": combat.roll_modifier,
        "surprise": {side: float(p) for side, p in surprise.items()},
        "supply_tokens": {"attacker": attacker_tokens, "defender": defender_tokens},
        "tokens_per_sp": tokens_per_sp,
        "steps_lost": {side: _spread(steps[side]) for side in SIDES},
        "expected_steps_lost": {side: float(sum(k * p for k, p in steps[side].items())) for side in SIDES},
        "retreat_hexes": {side: _spread(retreat[side]) for side in SIDES},
        "disorganized": {side: float(dg[side]) for side in SIDES},
        "exploit": {"probability": float(exploit), "expected_units": float(exploiting)},
    }


def barrage_details(barrage: Barrage) -> dict:
    steps: dict[int, Fraction] = defaultdict(Fraction)
    dg, nothing = Fraction(0), Fraction(0)
    for p, end in barrage.cases():
        steps[end.steps_lost] += p
        dg += p * end.disorganized
        nothing += p * (end.result == DEFENDER_WINS)
    strengths = barrage.charts.axis("barrage", "strength")
    return {
        "kind": "barrage", "barrage_by": barrage.position.barrage_by,
        "strength": float(barrage.strength), "density_re": float(barrage.density),
        "column": {"printed": strengths[barrage.printed_column]["id"],
                   "used": strengths[barrage.column]["id"]},
        "shifts": [{"id": name, "shift": shift} for name, shift in barrage.shifts],
        "supply_tokens": barrage.supply(),
        "steps_lost": _spread(steps),
        "expected_steps_lost": float(sum(k * p for k, p in steps.items())),
        "disorganized": float(dg), "no_effect": float(nothing),
    }


# -- text ------------------------------------------------------------------------------------------
def render(report, forces: list[str], space: str) -> str:
    details = report.details
    if details.get("kind") == "barrage":
        return _render_barrage(report, details, forces, space)
    return _render_combat(report, details, forces, space)


def _method(report) -> str:
    if report.method == "exact":
        return "exact"
    return f"Monte Carlo, {report.runs} combats" + (
        f", seed {report.seed}" if report.seed is not None else "")


def _percent(p: float) -> str:
    return f"{100 * p:6.2f}%"


def _spread_text(spread: dict[str, float], one: str, many: str) -> str:
    return ", ".join(f"{k} {one if k == '1' else many} {100 * p:.1f}%" for k, p in spread.items())


def _render_combat(report, details: dict, forces: list[str], space: str) -> str:
    attacker, *defenders = forces
    ratings, supply = details["action_rating"], details["supply_tokens"]
    strength = details["strength"]
    lines = [f"Combat at {space}, {details['terrain'].replace('-', ' ')} terrain, "
             f"{details['attack']} attack ({_method(report)})",
             f"  attacker   {attacker}"]
    lines += [f"  defender   {force}" for force in defenders]
    lines += [
        f"  odds       {strength['attacker']:g} to {strength['defender']:g}: {details['odds']}, "
        f"column {details['column']} of {details['columns']}",
        f"  ratings    attacker {ratings['attacker']}, defender {ratings['defender']}: surprise "
        f"roll {details['surprise_modifier']:+d}, combat roll {details['roll_modifier']:+d}",
        f"  surprise   attacker {100 * details['surprise']['attacker']:.2f}% (1-6 columns right), "
        f"defender {100 * details['surprise']['defender']:.2f}% (1-6 columns left)",
        f"  supply     attacker {supply['attacker']}T, defender {supply['defender']}T "
        f"(1 SP = {details['tokens_per_sp']}T)",
        ""]
    for label, key in (("the defender holds the hex", "defender_wins"),
                       ("the hex is cleared", "attacker_wins"), ("both sides gone", "draws")):
        lines.append(f"  {label:<27}{_percent(getattr(report, key))}{report.interval_text(key)}")
    lines.append("" if report.method == "exact" else "  (exact from here on: a combat is three rolls)")
    for index, side in enumerate(SIDES):
        title = "step losses" if index == 0 else ""
        lines.append(f"  {title:<13}{side:<9} expected {details['expected_steps_lost'][side]:.2f}:  "
                     + _spread_text(details["steps_lost"][side], "step", "steps"))
    for index, side in enumerate(SIDES):
        title = "retreat" if index == 0 else ""
        moves = {k: p for k, p in details["retreat_hexes"][side].items() if k != "0"}
        lines.append(f"  {title:<13}{side:<9} {100 * sum(moves.values()):.2f}%"
                     + (":  " + _spread_text(moves, "hex", "hexes") if moves else ""))
    dg = details["disorganized"]
    lines.append(f"  {'DG':<13}attacker {100 * dg['attacker']:.2f}%, defender {100 * dg['defender']:.2f}%")
    exploit = details["exploit"]
    lines.append(f"  {'exploit':<13}{100 * exploit['probability']:.2f}%, "
                 f"{exploit['expected_units']:.2f} attacking units expected in exploit mode")
    return "\n".join(lines)


def _render_barrage(report, details: dict, forces: list[str], space: str) -> str:
    firing, *targets = forces
    shifts = details["shifts"]
    shown = ", ".join(f"{s['id']} {s['shift']:+d}" for s in shifts) or "none"
    total = sum(s["shift"] for s in shifts)
    lines = [f"Barrage of {space} by {details['barrage_by']} ({_method(report)})",
             f"  firing     {firing}"]
    lines += [f"  target     {force}" for force in targets]
    lines += [
        f"  column     strength {details['strength']:g}: {details['column']['printed']}, shifts "
        f"{total:+d} ({shown}) -> {details['column']['used']}",
        f"  density    {details['density_re']:g} RE",
        f"  supply     {details['supply_tokens']}T",
        "",
        f"  {'no effect':<27}{_percent(details['no_effect'])}",
        f"  {'DG (with or without loss)':<27}{_percent(details['disorganized'])}",
        f"  {'steps lost':<27}expected {details['expected_steps_lost']:.2f}:  "
        + _spread_text(details["steps_lost"], "step", "steps")]
    return "\n".join(lines)
