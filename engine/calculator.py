"""The battle calculator: "what happens if these forces meet?", answered exactly or by sampling.

`run_battle` asks the scenario's game system for the exact distribution of the battle's end (a
Markov chain over the surviving forces) when the state space is small enough, and otherwise
simulates `runs` battles, vectorised across runs; big batches are split into chunks fought by
one process per core. Chunks have fixed sizes and seeds drawn from one `SeedSequence`, so a seed
gives the same report however many processes fight it.
"""
from __future__ import annotations

import math
import os
import re
from collections import deque
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from sandtable.limits import MAX_PIECES

from .processes import process_context
from .system import (
    ATTACKER_WINS,
    DEFENDER_WINS,
    DRAW,
    BattlePosition,
    Contingent,
    EngineError,
    ExactOutcome,
    OutcomeBatch,
    Policy,
    load_system,
)

CHUNK = 25_000                # battles per task: the unit of seeding and of progress
PARALLEL_FROM = 200_000       # batches at least this big use all cores
EXACT_BUDGET = 250_000        # joint states the exact method may visit before giving up
EXACT_TIME = 1.0              # seconds the exact method may take when it was not asked for
MAX_UNITS = MAX_PIECES        # units of one type in a battle: the limit a whole game has too
MAX_RUNS = 1_000_000_000      # battles one report may simulate (about an hour on one core)
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Force:
    """A nation's units in a battle: unit type id -> count."""

    owner: str
    units: dict[str, int]

    def __str__(self) -> str:
        return f"{self.owner}: " + (", ".join(f"{n} {unit}" for unit, n in self.units.items())
                                    or "no units")


_ITEM = re.compile(r"^(?:(\d+)\s*x?\s+)?([a-z0-9_-]+)(?:\s*x\s*(\d+))?$")


def parse_force(text: str, empty: bool = False) -> Force:
    """'germany: 3 infantry, 2 armour, 1 fighter' -> Force('germany', {...}).

    A count may be left out (one unit) or written after the type ('infantry x3'). With
    `empty`, a force may name no units ('allies:'): a space its owner left undefended."""
    owner, colon, rest = text.partition(":")
    owner = owner.strip().lower()
    if not colon or not owner:
        raise ValueError(f"{text!r}: write the nation, a colon, then the units, "
                         "as in 'germany: 3 infantry, 1 fighter'")
    units: dict[str, int] = {}
    for item in filter(None, (part.strip().lower() for part in rest.split(","))):
        match = _ITEM.match(item)
        if not match:
            raise ValueError(f"{item!r} in {text!r}: write a count and a unit type, as '3 infantry'")
        before, unit, after = match.groups()
        digits = before or after or "1"
        count = int(digits) if len(digits) <= 12 else MAX_UNITS + 1
        if count < 1:
            raise ValueError(f"{item!r} in {text!r}: a count is at least 1; leave the unit out instead")
        units[unit] = units.get(unit, 0) + count
        if units[unit] > MAX_UNITS:
            raise ValueError(f"{item!r} in {text!r}: at most {MAX_UNITS:,} units of a type "
                             "fight in one battle")
    if not units and not empty:
        raise ValueError(f"{text!r} names no units")
    return Force(owner, units)


@dataclass
class BattleReport:
    """What the calculator found. Probabilities are fractions (0.25 is 25 %)."""

    attacker_wins: float
    defender_wins: float
    draws: float
    intervals: dict[str, tuple[float, float]] | None   # 95 % interval per outcome; None if exact
    attacker_survivors: dict[int, float]                # units left -> probability
    defender_survivors: dict[int, float]
    expected_attacker_loss: float                       # in cost (IPCs)
    expected_defender_loss: float
    mean_rounds: float
    method: str                                         # "exact" or "monte-carlo"
    runs: int                                           # battles simulated (0 when exact)
    states: int = 0                                     # states the exact method visited
    seed: int | None = None
    loss_unit: str = "IPC"                              # what losses are counted in
    details: dict = field(default_factory=dict)         # the system's own measures (battle_details)

    def interval_text(self, key: str) -> str:
        """'   95% 41.2% - 43.1%' for an outcome ("attacker_wins" ...) of a simulation; '' when exact."""
        if not self.intervals:
            return ""
        low, high = self.intervals[key]
        return f"   95% {100 * low:5.1f}% - {100 * high:5.1f}%"

    @property
    def swing(self) -> float:
        """What the defender loses beyond what the attacker loses, on average, in the system's
        own unit (`loss_unit`: IPC, VP, ships sunk, steps ...)."""
        return self.expected_defender_loss - self.expected_attacker_loss

    def as_dict(self) -> dict:
        found = asdict(self)
        found["intervals"] = ({k: list(v) for k, v in self.intervals.items()}
                              if self.intervals is not None else None)
        found["attacker_survivors"] = {str(k): v for k, v in self.attacker_survivors.items()}
        found["defender_survivors"] = {str(k): v for k, v in self.defender_survivors.items()}
        found["swing"] = self.swing
        if self.loss_unit in MONEY_UNITS:      # the name AA50 and TripleA players know it by
            found["ipc_swing"] = self.swing
        return found


# Loss units that are a game's money, whose swing AA50 and TripleA players call the IPC swing.
MONEY_UNITS = ("IPC", "PU")


def run_battle(scenario, attacker: Force, defender: Force | Sequence[Force], space: str,
               runs: int = 10000, seed: int | None = None, exact: bool | None = None,
               progress: Callable[[int, int], None] | None = None, *,
               order_of_loss: str = "cheapest", retreat_at: int = 0,
               keep_land_unit: bool | None = None,
               research: Mapping[str, Collection[str]] | None = None,
               landing: dict[str, int] | None = None, bombard: Force | None = None,
               raid: bool = False, damage: int = 0,
               processes: int | None = None, extras: dict | None = None) -> BattleReport:
    """The odds of one battle in a scenario (a loaded Scenario or its folder).

    exact: None chooses (exact when the state space allows), True insists on the exact
    answer, False always simulates. `defender` may be several forces: allies defending together
    (§5.5.4.1). `progress(done, total)` is called as simulated battles complete. `extras` are
    the fields of the system's own position type (GameSystem.position_type), if it has one.
    """
    if isinstance(scenario, (str, Path)):
        from sandtable.scenario import load_scenario
        scenario = load_scenario(scenario)
    system = load_system(scenario)
    defenders = [defender] if isinstance(defender, Force) else list(defender)
    _check_choices(system, attacker, runs, retreat_at, damage, order_of_loss, landing)
    position = system.position_type(
        space=space,
        attackers=(Contingent(attacker.owner, dict(attacker.units)),),
        defenders=tuple(Contingent(f.owner, dict(f.units)) for f in defenders),
        landing=dict(landing or {}),
        bombard=Contingent(bombard.owner, dict(bombard.units)) if bombard else None,
        raid=raid,
        research={nation: frozenset(options) for nation, options in (research or {}).items()},
        damage=damage,
        policy=Policy(order=order_of_loss, keep_land_unit=keep_land_unit, retreat_at=retreat_at),
        **(extras or {}))
    system.check_position(position)
    own: dict[str, Any] = {"loss_unit": system.loss_unit, "details": system.battle_details(position)}
    if exact is not False:
        found = system.exact(position, EXACT_BUDGET, None if exact else EXACT_TIME)
        if found is not None:
            return replace(_exact_report(found, seed), **own)
        if exact:
            raise EngineError("this battle is too large for the exact method; "
                              "leave out --exact to simulate it")
    tally = _Tally()
    for batch in fight_chunks(system, position, runs, seed, progress, processes):
        tally.add(batch)
    report = replace(tally.report(seed), **own)
    if system.damage_unit and tally.damage is not None:
        report.details = {**report.details, "damage": {
            "unit": system.damage_unit, "attacker": tally.damage[0] / tally.n,
            "defender": tally.damage[1] / tally.n}}
    return report


def _check_choices(system, attacker: Force, runs: int, retreat_at: int, damage: int,
                   order_of_loss: str, landing: dict[str, int] | None) -> None:
    """The calculator's own arguments, checked before any work (the CLI and the editor's
    playtest panel both come through here)."""
    if not 1 <= runs <= MAX_RUNS:
        raise EngineError(f"runs must be between 1 and {MAX_RUNS:,}, not {runs:,}")
    if retreat_at < 0:
        raise EngineError(f"retreat at {retreat_at}: give 0 (never retreat) or a number of units")
    if damage < 0:
        raise EngineError(f"damage {damage}: damage already on a factory is 0 or more")
    if order_of_loss not in ("cheapest", "weakest"):
        names = [name.strip() for name in order_of_loss.split(",")]
        if not all(names):
            raise EngineError(f"order of loss {order_of_loss!r}: a name is missing between commas; "
                              "give cheapest, weakest or unit types as 'infantry,armour,fighter'")
        for name in names:
            if name not in system.unit_types():
                raise system.unknown("unit type", name, system.unit_types())
    for unit, count in (landing or {}).items():
        if count > attacker.units.get(unit, 0):
            raise EngineError(f"{count} {unit} cannot land: the attacker has "
                              f"{attacker.units.get(unit, 0)}")


def battle_extras(scenario, pairs: Sequence[str]) -> dict:
    """`NAME=VALUE` texts (as `--option` takes them) as the extra fields of the scenario's battle
    position; SettingError names what would be accepted."""
    from .options import resolve, settings_of_position
    return resolve(pairs, settings_of_position(load_system(scenario).position_type, BattlePosition))


def render_report(scenario, report: BattleReport, forces: Sequence[Force], space: str) -> str | None:
    """The report as text in the scenario's system's own terms, or None where it has none."""
    return load_system(scenario).render_battle(report, [str(f) for f in forces], space)


# -- simulation --------------------------------------------------------------------------------
def simulate(system, position: BattlePosition, runs: int, seed: int | None,
             progress: Callable[[int, int], None] | None = None,
             processes: int | None = None) -> OutcomeBatch:
    """`runs` battles' outcomes, in chunks of fixed size and seed (see fight_chunks)."""
    return OutcomeBatch.concatenate(list(fight_chunks(system, position, runs, seed, progress,
                                                      processes)))


def fight_chunks(system, position: BattlePosition, runs: int, seed: int | None,
                 progress: Callable[[int, int], None] | None = None,
                 processes: int | None = None) -> Iterator[OutcomeBatch]:
    """The outcomes of `runs` battles, one chunk at a time, in order. Chunks and their seeds
    are made as they are needed and only a few are fought ahead, so memory does not grow with
    `runs`; chunk i's seed is the i-th child of SeedSequence(seed), whatever the processes."""
    chunks = _chunks(runs, seed)
    if processes is None:
        processes = (os.cpu_count() or 1) if runs >= PARALLEL_FROM else 1
    workers = max(1, min(processes, -(-runs // CHUNK)))
    done = 0
    if workers == 1:
        for size, child in chunks:
            yield system.simulate(position, size, np.random.default_rng(child))
            done += size
            if progress:
                progress(done, runs)
        return
    run = system.runner(position)
    with ProcessPoolExecutor(max_workers=workers, mp_context=process_context()) as pool:
        pending: deque = deque()
        for size, child in chunks:
            pending.append((size, pool.submit(_simulate_chunk, run, size, child)))
            if len(pending) < 2 * workers:
                continue
            size, future = pending.popleft()
            yield future.result()
            done += size
            if progress:
                progress(done, runs)
        while pending:
            size, future = pending.popleft()
            yield future.result()
            done += size
            if progress:
                progress(done, runs)


def _chunks(runs: int, seed: int | None) -> Iterator[tuple[int, np.random.SeedSequence]]:
    """(size, seed) of each chunk: what SeedSequence(seed).spawn(n) gives, one at a time."""
    parent = np.random.SeedSequence(seed)
    full, rest = divmod(runs, CHUNK)
    for index in range(full + (1 if rest else 0)):
        child = np.random.SeedSequence(parent.entropy, spawn_key=parent.spawn_key + (index,),
                                       pool_size=parent.pool_size)
        yield (CHUNK if index < full else rest), child


def _simulate_chunk(run, size: int, seed: np.random.SeedSequence) -> OutcomeBatch:
    """A chunk of battles in a worker process."""
    return run(size, np.random.default_rng(seed))


# -- reports -----------------------------------------------------------------------------------
def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: 95 % by default, or the level of `z`."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z ** 2 / (2 * n)) / (1 + z ** 2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z ** 2 / (4 * n * n)) / (1 + z ** 2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _distribution(values: np.ndarray, weights: np.ndarray) -> dict[int, float]:
    totals = np.bincount(values.astype(np.int64), weights=weights)
    return {int(k): float(p) for k, p in enumerate(totals) if p > 0}


class _Tally:
    """What a report needs of simulated battles, summed chunk by chunk."""

    def __init__(self):
        self.n = 0
        self.results = np.zeros(3, dtype=np.int64)
        self.attacker_survivors = np.zeros(0, dtype=np.int64)
        self.defender_survivors = np.zeros(0, dtype=np.int64)
        self.attacker_loss = self.defender_loss = self.rounds = 0.0
        self.damage: list[float] | None = [0.0, 0.0]   # None once a chunk did not measure it

    def add(self, batch: OutcomeBatch) -> None:
        if self.damage is not None and batch.attacker_damage is not None \
                and batch.defender_damage is not None:
            self.damage[0] += float(batch.attacker_damage.sum())
            self.damage[1] += float(batch.defender_damage.sum())
        else:
            self.damage = None
        self.n += len(batch)
        self.results += np.bincount(batch.result.astype(np.int64), minlength=3)[:3]
        self.attacker_survivors = _add_counts(self.attacker_survivors, batch.attacker_survivors)
        self.defender_survivors = _add_counts(self.defender_survivors, batch.defender_survivors)
        self.attacker_loss += float(batch.attacker_loss.sum())
        self.defender_loss += float(batch.defender_loss.sum())
        self.rounds += float(batch.rounds.sum())

    def report(self, seed: int | None) -> BattleReport:
        n = self.n
        wins, losses, draws = (int(self.results[r]) for r in (ATTACKER_WINS, DEFENDER_WINS, DRAW))
        return BattleReport(
            attacker_wins=wins / n, defender_wins=losses / n, draws=draws / n,
            intervals={"attacker_wins": wilson(wins, n), "defender_wins": wilson(losses, n),
                       "draws": wilson(draws, n)},
            attacker_survivors={k: c / n for k, c in enumerate(self.attacker_survivors.tolist()) if c},
            defender_survivors={k: c / n for k, c in enumerate(self.defender_survivors.tolist()) if c},
            expected_attacker_loss=self.attacker_loss / n,
            expected_defender_loss=self.defender_loss / n,
            mean_rounds=self.rounds / n, method="monte-carlo", runs=n, seed=seed)


def _add_counts(total: np.ndarray, values: np.ndarray) -> np.ndarray:
    counts = np.bincount(values.astype(np.int64))
    if len(counts) > len(total):
        total = np.concatenate([total, np.zeros(len(counts) - len(total), dtype=np.int64)])
    total[:len(counts)] += counts
    return total


def _exact_report(found: ExactOutcome, seed: int | None) -> BattleReport:
    p = found.probability
    return BattleReport(
        attacker_wins=float(p[found.result == ATTACKER_WINS].sum()),
        defender_wins=float(p[found.result == DEFENDER_WINS].sum()),
        draws=float(p[found.result == DRAW].sum()), intervals=None,
        attacker_survivors=_distribution(found.attacker_survivors, p),
        defender_survivors=_distribution(found.defender_survivors, p),
        expected_attacker_loss=float(p @ found.attacker_loss),
        expected_defender_loss=float(p @ found.defender_loss),
        mean_rounds=float(found.mean_rounds), method="exact", runs=0, states=found.states,
        seed=seed)


__all__ = ["Force", "BattleReport", "battle_extras", "parse_force", "render_report", "run_battle",
           "simulate", "wilson"]
