"""Battle calculator speed, against what a user would otherwise write.

    python benchmarks/battle.py [SCENARIO] [--runs N]

First, battles both baselines can fight (land units, artillery support, cheapest casualties
first), measured in the same run:
- the engine's vectorised Monte Carlo (`system.simulate`, one core);
- a plain Python loop, one battle at a time, as a user would write it (`plain_loop_battle`);
- a short NumPy version that fights all battles at once (`numpy_battles`, about 20 lines);
with each method's share of attacker wins and the exact calculator's, so that the three are
seen to fight the same battle. Then the engine alone on larger and naval battles: Monte Carlo
on one core and on all cores, and the exact calculator.

Speeds are battles per second of one core's CPU time. Targets: the engine at least 0.8x the NumPy
version (which knows only these units; the engine plays every rule of §5.5 and §7 on the same
arrays) and 10x the plain loop on the 10-vs-10 battles; exact answers for battles of up to 20
units a side in under 100 ms. Exit status 1 when a target is missed.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import BattlePosition, Contingent, load_system  # noqa: E402
from engine.calculator import parse_force, simulate  # noqa: E402
from engine.system import ATTACKER_WINS  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402

# Battles the baselines can fight too: (name, space, attacker, defender).
SHARED = [
    ("10 inf vs 10 inf", "karelia-ssr", "germany: 10 infantry", "soviet-union: 10 infantry"),
    ("10 vs 10 land", "karelia-ssr", "germany: 5 infantry, 2 artillery, 3 armour",
     "soviet-union: 7 infantry, 1 artillery, 2 armour"),
]
# Battles for the engine alone.
ENGINE_ONLY = [
    ("20 vs 20 land + air", "karelia-ssr",
     "germany: 10 infantry, 4 artillery, 4 armour, 2 fighter",
     "soviet-union: 15 infantry, 2 artillery, 3 armour"),
    ("30 vs 30 land + air", "karelia-ssr",
     "germany: 15 infantry, 5 artillery, 7 armour, 2 fighter, 1 bomber",
     "soviet-union: 22 infantry, 4 artillery, 4 armour"),
    ("mixed naval, 10 vs 10", "sz-5",
     "germany: 2 submarine, 2 destroyer, 1 cruiser, 1 battleship, 1 carrier, 2 fighter, 1 bomber",
     "soviet-union: 1 battleship, 1 carrier, 2 fighter, 2 destroyer, 2 submarine, 1 cruiser, "
     "1 transport"),
]
ENGINE_VS_NUMPY_TARGET = 0.8  # the engine plays every rule; the NumPy version only these battles
ENGINE_VS_LOOP_TARGET = 10.0
EXACT_TARGET_MS = 100.0

# -- what a user would write ----------------------------------------------------------------------
# Attack, defence and cost of each land unit (the rulebook's table, §7.1).
UNITS = {"infantry": (1, 2, 3), "artillery": (2, 2, 4), "armour": (3, 3, 5)}


def plain_loop_battle(attacker: list[str], defender: list[str]) -> bool:
    """One battle, die by die; True when the attacker wins. Each artillery lifts one infantry
    to attack 2; casualties are the cheapest units."""
    a = sorted(attacker, key=lambda unit: UNITS[unit][2])
    d = sorted(defender, key=lambda unit: UNITS[unit][2])
    while a and d:
        artillery = a.count("artillery")
        a_hits = 0
        for unit in a:
            value = UNITS[unit][0]
            if unit == "infantry" and artillery > 0:
                value, artillery = value + 1, artillery - 1
            if random.randint(1, 6) <= value:
                a_hits += 1
        d_hits = sum(1 for unit in d if random.randint(1, 6) <= UNITS[unit][1])
        a, d = a[d_hits:], d[a_hits:]
    return bool(a) and not d


def numpy_battles(attacker: dict[str, int], defender: dict[str, int], runs: int,
                  rng: np.random.Generator) -> np.ndarray:
    """`runs` battles at once, a round at a time; True where the attacker wins. One count array
    per unit type present, cheapest first; battles that end drop out of the arrays."""
    order = [u for u in sorted(UNITS, key=lambda u: UNITS[u][2]) if attacker.get(u) or defender.get(u)]
    a = [np.full(runs, attacker.get(u, 0)) for u in order]
    d = [np.full(runs, defender.get(u, 0)) for u in order]
    a_chance, d_chance = [UNITS[u][0] / 6 for u in order], [UNITS[u][1] / 6 for u in order]
    paired = ("infantry" in order and "artillery" in order) and (order.index("infantry"), order.index("artillery"))
    a_won, d_left, battles = np.zeros(runs, bool), np.zeros(runs, bool), np.arange(runs)
    while battles.size:
        a_hits = sum(rng.binomial(n, p) for n, p in zip(a, a_chance, strict=True))
        if paired:                                                   # artillery lifts infantry to 2
            a_hits = a_hits + rng.binomial(np.minimum(a[paired[0]], a[paired[1]]), 1 / 6)
        d_hits = sum(rng.binomial(n, p) for n, p in zip(d, d_chance, strict=True))
        for side, hits in ((a, d_hits), (d, a_hits)):
            for counts in side:                                      # cheapest casualties first
                taken = np.minimum(counts, hits)
                counts -= taken
                hits = hits - taken
        a_in, d_in = sum(a) > 0, sum(d) > 0
        over = ~(a_in & d_in)
        a_won[battles[over]], d_left[battles[over]] = a_in[over], d_in[over]
        battles, a, d = battles[~over], [n[~over] for n in a], [n[~over] for n in d]
    return a_won & ~d_left


def force(text: str) -> dict[str, int]:
    return dict(parse_force(text).units)


# -- measuring --------------------------------------------------------------------------------------
def position(space: str, attacker: str, defender: str) -> BattlePosition:
    a, d = parse_force(attacker), parse_force(defender)
    return BattlePosition(space, (Contingent(a.owner, a.units),), (Contingent(d.owner, d.units),))


def timed(work, repeat: int = 3, clock=time.process_time) -> tuple[float, object]:
    """(median time of `repeat` runs in seconds, the last run's result): by default this
    process's CPU time, one core's work however busy the machine is."""
    times, result = [], None
    for _ in range(repeat):
        start = clock()
        result = work()
        times.append(clock() - start)
    return statistics.median(times), result


def exact_share(exact) -> float:
    return float(exact.probability[exact.result == ATTACKER_WINS].sum())


def shared_battles(system, runs: int, loop_runs: int) -> bool:
    header = (f"{'battle':<20}{'engine /s':>12}{'NumPy /s':>12}{'loop /s':>10}{'vs NumPy':>10}"
              f"{'vs loop':>9}   attacker wins: engine / NumPy / loop / exact")
    print(header)
    print("-" * len(header))
    met = True
    for name, space, attacker, defender in SHARED:
        pos = position(space, attacker, defender)
        a_force, d_force = force(attacker), force(defender)
        a_units = [unit for unit, count in force(attacker).items() for _ in range(count)]
        d_units = [unit for unit, count in force(defender).items() for _ in range(count)]
        engine_s, numpy_s = [], []
        for _ in range(5):  # interleaved, best of five: the machine's load falls on both alike
            seconds, outcome = timed(lambda pos=pos: system.simulate(pos, runs, np.random.default_rng(1)), repeat=1)
            engine_s.append(seconds)
            seconds, numpy_wins = timed(lambda a=a_force, d=d_force:
                                        numpy_battles(a, d, runs, np.random.default_rng(1)), repeat=1)
            numpy_s.append(seconds)
        engine_s, numpy_s = min(engine_s), min(numpy_s)
        random.seed(1)
        loop_s, loop_wins = timed(lambda a=a_units, d=d_units: [plain_loop_battle(a, d) for _ in range(loop_runs)],
                                  repeat=1)
        engine, numpy_rate, loop = runs / engine_s, runs / numpy_s, loop_runs / loop_s
        exact = system.exact(pos, 2_000_000)
        shares = (f"{np.mean(outcome.result == ATTACKER_WINS):.3f} / {np.mean(numpy_wins):.3f} / "
                  f"{np.mean(loop_wins):.3f} / " + (f"{exact_share(exact):.3f}" if exact else "-"))
        print(f"{name:<20}{engine:>12,.0f}{numpy_rate:>12,.0f}{loop:>10,.0f}{engine / numpy_rate:>9.2f}x"
              f"{engine / loop:>8.0f}x   {shares}")
        met &= engine / numpy_rate >= ENGINE_VS_NUMPY_TARGET and engine / loop >= ENGINE_VS_LOOP_TARGET
    return met


def engine_battles(system, runs: int) -> bool:
    cores = os.cpu_count() or 1
    header = f"{'battle':<24}{'MC 1 core /s':>14}{f'MC {cores} cores /s':>16}{'exact ms':>11}{'states':>9}"
    print(header)
    print("-" * len(header))
    met = True
    for name, space, attacker, defender in SHARED + ENGINE_ONLY:
        pos = position(space, attacker, defender)
        one_core = runs / timed(lambda pos=pos: system.simulate(pos, runs, np.random.default_rng(1)))[0]
        all_cores = runs / timed(lambda pos=pos: simulate(system, pos, runs, seed=1, processes=cores),
                                 repeat=1, clock=time.perf_counter)[0]
        found = system.exact(pos, 2_000_000)
        exact_s = timed(lambda pos=pos: system.exact(pos, 2_000_000))[0] if found is not None else float("nan")
        states = found.states if found is not None else 0
        print(f"{name:<24}{one_core:>14,.0f}{all_cores:>16,.0f}{1000 * exact_s:>11.1f}{states:>9}")
        if found is not None and states and "20 vs 20" in name:
            met &= 1000 * exact_s < EXACT_TARGET_MS
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", nargs="?", default=str(ROOT / "scenarios" / "aa50-1941"))
    parser.add_argument("--runs", type=int, default=200_000, help="simulated battles per figure")
    parser.add_argument("--loop-runs", type=int, default=20_000, help="battles for the plain loop")
    args = parser.parse_args()
    system = load_system(load_scenario(args.scenario))
    print(f"scenario {args.scenario}; {args.runs:,} battles per figure ({args.loop_runs:,} for the "
          "plain loop); battles per second of one core's CPU time")
    print()
    met = shared_battles(system, args.runs, args.loop_runs)
    print()
    met &= engine_battles(system, args.runs)
    print()
    print(f"targets: engine >= {ENGINE_VS_NUMPY_TARGET:.1f}x NumPy and >= {ENGINE_VS_LOOP_TARGET:.0f}x the "
          f"plain loop; exact 20 vs 20 under {EXACT_TARGET_MS:.0f} ms: " + ("met" if met else "MISSED"))
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
