"""Whole-game playtest speed: how long one game takes, and how many games a machine plays.

    python benchmarks/games.py [--games N] [--scenario FOLDER]

On one core (this process's CPU time): the median and 90th percentile time of a whole AA50
1942 game (15 rounds at most) for `random` players and for `heuristic` players, against the
baseline measured in the same run: the same heuristic player weighing each planned attack with
the battle calculator itself (`heuristic:judge=calculator`, exact where small, otherwise 500
simulated battles), which is what a player built on the calculator alone would do. Then games
per minute on every core, the time 1,000 games would take, and the memory of a worker.
Last, on Dask distributed (playtest/distributed.py): games per second with a local cluster of one
worker process and of two, against local processes (1 and 2) in the same run, which must give
the same records; and the overhead of a Dask task, timed with chunks that hold no game.

Targets: a heuristic game under 1 s median on one core; 1,000 games on two cores in under
10 minutes; under 500 MB per worker; two Dask workers at least 1.8x the games per second of
one, on two free cores.

GJ69 Southern Operation (`--gj69-games N`, `--campaign N`): the same figures for a whole GJ69
game (8 turns) against the same kind of baseline (`heuristic:judge=calculator`, which weighs
each attack over the exact distribution of its ends); then the property campaign: `--campaign`
random games (500) with every invariant checked after every action, every card of both decks
played face up at least once, and every game's replay played back to the identical end.
Target: a heuristic GJ69 game under 100 ms median on one core.

War at Sea (eight turns, `scenarios/war-at-sea`): the same figures on one core for `random`
and `heuristic` players, against the same kind of baseline (`heuristic:judge=calculator`: the
heuristic asking the battle calculator, 200 simulated battles, before each strike and each
escape). Target: a heuristic game under 20 ms median on one core, so that 500 random games of
the property tests take seconds.

Allies vs. Axis (`--only allies-vs-axis`): the same figures per game mode, whole games to their
end, against the same kind of baseline: the heuristic player asking the battle calculator about
every army it could invade with (`heuristic:judge=calculator`). Target: a heuristic game under
50 ms median on one core. benchmarks/allies_vs_axis_checked_games.py plays 500 random games per
mode with every invariant checked.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from game_timing import cpu_per_game, percentile  # noqa: E402

from engine.processes import available_cores  # noqa: E402
from engine.system import load_system  # noqa: E402
from playtest.study import Study, portable, run_study  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402


def per_game(system, scenario, players: str, games: int, seed: int,
             sides=("axis", "allies"), max_rounds: int | None = 15) -> list[float]:
    """CPU seconds of each game, played one after another in this process."""
    options = {s.key: s.default for s in system.game_settings()}
    return cpu_per_game(system, Study(scenario, options, {side: players for side in sides}, games,
                                      seed, max_rounds))


def player_times(system, scenario, games: int, sides, max_rounds: int | None,
                 target: float) -> dict[str, float]:
    """The table of time per game for the random and heuristic players and the baseline (the
    same heuristic player asking the battle calculator), and the target's verdict; the median
    CPU seconds of a game by player."""
    def shown(seconds: float) -> str:
        return f"{seconds:8.2f}s" if target >= 1 else f"{1000 * seconds:7.0f}ms"

    print(f"{'players (one core, CPU time)':<44}{'median':>9}{'90th pct':>10}")
    rows = {}
    for label, spec, count in (("random", "random", games), ("heuristic", "heuristic", games),
                               ("baseline: heuristic:judge=calculator",
                                "heuristic:judge=calculator", max(4, games // 4))):
        times = per_game(system, scenario, spec, count, 7, sides, max_rounds)
        rows[label] = statistics.median(times)
        print(f"  {label:<42}{shown(statistics.median(times))}{shown(percentile(times, 0.9)):>10}")
    print(f"\n  the heuristic player is {rows['baseline: heuristic:judge=calculator'] / rows['heuristic']:.1f}x "
          "quicker than the same player asking the battle calculator (target: a game under "
          f"{shown(target).strip()} median: {'met' if rows['heuristic'] < target else 'NOT met'})")
    return rows


def allies_vs_axis(args) -> None:
    """Whole games of Allies vs. Axis in each mode, to their end, on one core."""
    games = args.allies_vs_axis_games
    scenario = load_scenario(ROOT / "scenarios" / "allies-vs-axis")
    system = load_system(scenario)
    print(f"\n{scenario.id}: whole games to their end, {games} per measurement\n")
    print(f"{'mode, players (one core, CPU time)':<50}{'median':>9}{'90th pct':>10}")
    slowest, medians = 0.0, {}
    for mode in ("regular", "les-miserables", "fierce-battle", "no-italy"):
        rows = [("random", games), ("heuristic", games)]
        if mode == "regular":
            rows.append(("heuristic:judge=calculator", games))
        for spec, count in rows:
            study = Study(scenario, {"mode": mode}, {"axis": spec, "allies": spec}, count, 7)
            times = cpu_per_game(system, study, f"{mode} game")
            label = f"{mode}, {spec}" if "judge" not in spec else f"baseline: {mode}, {spec}"
            median = medians[mode, spec] = statistics.median(times)
            print(f"  {label:<48}{1000 * median:7.1f}ms{1000 * percentile(times, 0.9):8.1f}ms")
            if spec == "heuristic":
                slowest = max(slowest, median)
    ratio = medians["regular", "heuristic:judge=calculator"] / medians["regular", "heuristic"]
    print(f"\n  the heuristic player is {ratio:.1f}x quicker than the same player asking the battle "
          "calculator; slowest heuristic median of the four modes "
          f"{1000 * slowest:.1f} ms (target: under 50 ms: {'met' if slowest < 0.05 else 'NOT met'})")


def dask_section(study: Study) -> None:
    """Games per second on a local Dask cluster of 1 and 2 workers, against local processes."""
    try:
        from playtest.distributed import DaskExecutor, play_chunk
    except ImportError:
        print('\nDask: not installed (python3 -m pip install -e ".[distributed]")')
        return

    def essence(records):
        return [(r.index, r.seed, r.result, r.actions, r.error) for r in records]

    def timed(work):
        start = time.perf_counter()
        result = work()
        return time.perf_counter() - start, result

    import os
    print(f"\nDask: load average {', '.join(f'{x:.1f}' for x in os.getloadavg())} before "
          "(speed-ups need free cores)")
    print(f"{f'{study.games} heuristic games (wall time)':<44}{'seconds':>9}{'games/s':>9}")
    expected = None
    rates = {}
    for workers in (1, 2):
        seconds, records = timed(lambda workers=workers: run_study(study, workers))
        expected = expected or essence(records)
        rates[f"processes {workers}"] = study.games / seconds
        label = f"local processes, {workers} worker{'s' if workers > 1 else ''}"
        print(f"  {label:<42}{seconds:9.1f}{study.games / seconds:9.2f}")
    overhead = None
    for workers in (1, 2):
        with DaskExecutor(workers=workers) as executor:
            executor.run(replace(study, games=workers, max_rounds=1))    # warm the workers up
            seconds, records = timed(lambda executor=executor: executor.run(study))
            if essence(records) != expected:
                raise SystemExit("Dask played other games than local processes")
            rates[f"dask {workers}"] = study.games / seconds
            label = f"Dask local cluster, {workers} worker{'s' if workers > 1 else ''}"
            print(f"  {label:<42}{seconds:9.1f}{study.games / seconds:9.2f}")
            if workers == 1:
                overhead = empty_tasks(executor.client, study, play_chunk)
    speedup = rates["dask 2"] / rates["dask 1"]
    print(f"  two Dask workers: {speedup:.2f}x one (target: at least 1.8x on two free cores: "
          f"{'met' if speedup >= 1.8 else 'NOT met'}); Dask against local processes: "
          f"{rates['dask 2'] / rates['processes 2']:.2f}x with two workers")
    print(f"  overhead per Dask task: {1000 * overhead:.1f} ms ({EMPTY_TASKS} chunks of no game "
          "on one worker; a chunk holds up to 16 games)")


EMPTY_TASKS = 200


def empty_tasks(client, study: Study, play_chunk) -> float:
    """Seconds per task of EMPTY_TASKS chunks of no game: scheduling, the round trip and the
    worker's look-up of its game system."""
    shared = client.scatter(replace(study, scenario=portable(study.scenario)), broadcast=True,
                            hash=False)
    client.submit(play_chunk, shared, 0, 0, pure=False).result()      # the system, built once
    start = time.perf_counter()
    client.gather([client.submit(play_chunk, shared, 0, 0, pure=False)
                   for _ in range(EMPTY_TASKS)])
    return (time.perf_counter() - start) / EMPTY_TASKS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per measurement (20)")
    parser.add_argument("--scenario", default=str(ROOT / "scenarios" / "aa50-1942"))
    parser.add_argument("--gj69-games", type=int, default=20, help="GJ69 games per measurement (20)")
    parser.add_argument("--campaign", type=int, default=500, help="GJ69 random games checked (500; 0 for none)")
    parser.add_argument("--allies-vs-axis-games", type=int, default=100,
                        help="Allies vs. Axis games per measurement (100: they are quick)")
    parser.add_argument("--only", choices=("aa50", "war-at-sea", "gj69", "allies-vs-axis"),
                        help="one system's section only")
    args = parser.parse_args()
    for name, section in (("aa50", aa50), ("war-at-sea", war_at_sea), ("gj69", gj69),
                          ("allies-vs-axis", allies_vs_axis)):
        if args.only in (None, name):
            section(args)


def aa50(args) -> None:
    scenario = load_scenario(args.scenario)
    system = load_system(scenario)
    system.game_data()
    print(f"{scenario.id}: whole games of at most 15 rounds, {args.games} per measurement\n")
    rows = player_times(system, scenario, args.games, ("axis", "allies"), 15, target=1.0)

    cores = available_cores()
    games = max(args.games, 2 * cores)
    options = {s.key: s.default for s in system.game_settings()}
    study = Study(scenario, options, {"axis": "heuristic", "allies": "heuristic"}, games, 11, 15)
    start = time.perf_counter()
    records = run_study(study, workers=cores)
    wall = time.perf_counter() - start
    per_minute = 60 * len(records) / wall
    print(f"\non {cores} core(s): {games} heuristic games in {wall:.1f} s wall time: "
          f"{per_minute:.0f} games a minute; 1,000 games would take {1000 / per_minute:.1f} "
          f"minutes (target: under 10 on two cores)")
    cpu_minutes = 1000 * rows["heuristic"] / cores / 60
    print(f"from the CPU time of one game: 1,000 games on {cores} core(s) take "
          f"{cpu_minutes:.1f} minutes of {cores} otherwise idle cores (a busy machine takes "
          "longer, as the wall time above shows)")
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"memory: {worker:.0f} MB at most per worker, {own:.0f} MB in this process "
          "(target: under 500 MB per worker)")
    # enough games that the longest one does not decide the wall time of two workers
    dask_section(replace(study, games=max(40, 3 * args.games), seed=13))


def war_at_sea(args) -> None:
    """War at Sea's section: one core, random and heuristic players, the calculator baseline."""
    scenario = load_scenario(ROOT / "scenarios" / "war-at-sea")
    system = load_system(scenario)
    games = max(args.games, 40)
    print(f"\n{scenario.id}: whole games of 8 turns, {games} per measurement\n")
    rows = player_times(system, scenario, games, ("axis", "allies"), None, target=0.020)
    print(f"  500 random games take {500 * rows['random']:.1f} s on one core")


# -- GJ69 Southern Operation ---------------------------------------------------------------------
GJ69 = ROOT / "scenarios" / "gj69-southern-operation"


def gj69(args) -> None:
    scenario = load_scenario(GJ69)
    system = load_system(scenario)
    print(f"\n{scenario.id}: whole games of 8 turns, {args.gj69_games} per measurement\n")
    player_times(system, scenario, args.gj69_games, tuple(system.sides), None, target=0.1)
    if args.campaign > 0:           # --campaign 0: the times alone
        campaign(system, scenario, args.campaign)


def campaign(system, scenario, games: int) -> None:
    """The property campaign: random games with every invariant checked, every card played,
    every replay identical on playback."""
    import tempfile

    from engine.replay import Replay, play_back
    with tempfile.TemporaryDirectory() as folder:
        study = Study(scenario, {}, {side: "random" for side in system.sides}, games, 2024,
                      check=True, keep_actions=True, replays=folder)
        start = time.process_time()
        records = run_study(study)
        seconds = time.process_time() - start
        failed = [r for r in records if r.error]
        played = {a[1] for r in records for _, a in r.moves if a[0] in ("play", "react")}
        unplayed = sorted(set(system.cards) - played)
        start = time.process_time()
        different = [r.index for r in records if not r.error and play_back(
            Replay.read(r.replay), system).result().as_dict() != r.result]
        replayed = time.process_time() - start
    print(f"\nproperty campaign: {games} random games with every invariant checked after every action "
          f"in {seconds:.1f} s CPU ({1000 * seconds / games:.0f} ms a game)")
    print(f"  games that broke an invariant or failed: {len(failed)}"
          + (f" (first: game {failed[0].index}: {failed[0].error})" if failed else ""))
    print(f"  cards played face up at least once: {len(system.cards) - len(unplayed)} of "
          f"{len(system.cards)}" + (f" (never: {', '.join(unplayed)})" if unplayed else ""))
    print(f"  replays played back to a different end: {len(different)} of {games - len(failed)} "
          f"({replayed:.1f} s)")
    if failed or unplayed or different:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
