"""Can Japan win GJ69 at all? The Japanese players against Allies of every strength, as bundled
and in two variants of the counters' values, on the same seeds.

    python benchmarks/japan_gj69.py [--games N] [--workers K] [--siege-runs N]

Rows: Japan played by `heuristic` and by `search`; the Allies by `heuristic` and by a side that
never takes an impulse (`random:favour=pass`: it passes whenever it may, §4.0(3); its reaction
cards and retreats are random). Columns: Japan's wins of the decided games and its mean VP
margin (Japan's VP less the Allies', with a 95% interval), every row on the same seeds.

The variants, written into a temporary folder that extends the bundled scenario:
`every Japanese die hits` (Japanese attack and air power 6, §11.1), `Japanese attack and air
+2` (raised by 2, at most 6: Japan wins about a quarter of the games with the heuristic, so the
search's gain shows seat by seat, the Allies' search against the heuristic Japan too), and
`Commonwealth infantry durability 2` (the reconstruction bundled before; the counters' four values are not in the rule
text and the bundled ones are reconstructed, units.yaml).

The siege bound (`--siege-runs N`): the most Japan can do to Malay, then Singapore, against a
garrison that never acts, with the engine's own attacks: every turn the two air groups strike
(4 air units each, the attacker allocating, §9.1, §11.2(1)), each again once readied by one of
the two Supply cards (§19), and ten infantry make one Blitzkrieg double attack, damage added
(§18.1); no Japanese unit is lost, turned Allied units recover at the end of the turn (§12),
Malay's units driven out go to Singapore (up to eight infantry beside the fortress), and in
Singapore nothing can retreat (§11.5(1)). It says in how many sieges, and by which turn, each
area falls.

What it tells: whether the values let Japan keep the historical pace (Singapore fell in the
fourth turn, the turn of Kigensetsu, §17.3) and whether the players do. If Japan loses every game
even to Allies that never act while the siege bound takes Singapore in time, the players are the
limit, not the values. A land attack is one exchange of damage points and the defender spreads
them so that a point short of a unit's durability does nothing (§11.2, §11.4): with durability 2
a full garrison (Malay 8, §3.0) takes almost no harm; see docs/playtest.md.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.gj69.attack import IN  # noqa: E402
from engine.gj69.position import GJ69Position  # noqa: E402
from engine.system import Contingent, load_system  # noqa: E402
from playtest.stats import mean_interval  # noqa: E402
from playtest.study import Study, run_study  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402

SCENARIO = ROOT / "scenarios" / "gj69-southern-operation"
SEED = 7
NEVER_ACTS = "random:favour=pass"


def variant(folder: Path, name: str, changed: dict[str, dict]) -> Path:
    """A scenario extending a copy of the bundled one beside it (a variant's parent is a
    scenario of its own folder) with `changed` unit type -> new values (its stats and both
    faces)."""
    if not (folder / "gj69").exists():
        shutil.copytree(SCENARIO, folder / "gj69")
    path = folder / name
    path.mkdir()
    (path / "scenario.yaml").write_text(
        f"id: {name}\nname: {name}\nsystem: gj69\nextends: ../gj69\n", encoding="utf-8")
    units = [{"id": unit, "stats": values, "faces": {"ready": values, "used": values}}
             for unit, values in sorted(changed.items())]
    (path / "units.yaml").write_text(yaml.safe_dump({"unit_types": units}, sort_keys=False),
                                     encoding="utf-8")
    return path


def bundled_units() -> dict[str, dict]:
    data = yaml.safe_load((SCENARIO / "units.yaml").read_text(encoding="utf-8"))
    return {unit["id"]: dict(unit["stats"]) for unit in data["unit_types"]}


def japanese_attack_raised(units: dict[str, dict], by: int) -> dict[str, dict]:
    """Japanese attack and air power raised by `by`, at most 6 (6: every die hits, §11.1)."""
    changed = {}
    for unit, stats in units.items():
        if unit.startswith(("ija-", "ijn-")):
            changed[unit] = {**stats, "attack": min(6, stats["attack"] + by)}
            if stats.get("air_power") is not None:
                changed[unit]["air_power"] = min(6, stats["air_power"] + by)
    return changed


def commonwealth_infantry_durability_2(units: dict[str, dict]) -> dict[str, dict]:
    return {"uk-infantry": {**units["uk-infantry"], "durability": 2}}


def japan_figures(records) -> tuple[int, int, float, float, float]:
    """Japan's wins, the decided games, and its mean VP margin with a 95% interval."""
    stopped = [r.error for r in records if r.error]
    if stopped:
        raise SystemExit(f"{len(stopped)} games stopped: {stopped[0]}")
    decided = [r for r in records if r.result["winner"] is not None]
    won = sum(r.result["winner"] == "japan" for r in decided)
    values = [r.result["scores"]["japan"] - r.result["scores"]["allies"] for r in records]
    return (won, len(decided), *mean_interval(values))


def strike(system, area: str, garrison: dict[str, int], used: dict[str, int], air: bool,
           retreat: bool, rng: np.random.Generator) -> tuple[dict[str, int], dict[str, int]]:
    """One strike on the garrison (unit type -> count, `used` of them on their used face): four
    Saigon air units, or a Blitzkrieg double attack of ten infantry with the damage added; the
    garrison left in the area, and its used units."""
    attackers = {"ijn-af-saigon": 4} if air else {"ija-25a-infantry": 10}
    position = GJ69Position(area, (Contingent("japan", attackers),),
                            (Contingent("united-kingdom", dict(garrison)),), air_attack=air,
                            defender_used={u: n for u, n in used.items() if n},
                            card=None if air else "j01", attacks=None if air else 2, combined=not air,
                            defender_can_retreat=retreat, own_land_units_in_area=True, control="allies")
    attack, attacker, defender, _ = system.compile(position)
    _, defender = attack.sample(attacker, defender, rng)
    left: dict[str, int] = {}
    turned: dict[str, int] = {}
    for (unit, face, place), n in defender:
        if place == IN:
            left[unit] = left.get(unit, 0) + n
            if face == "used":
                turned[unit] = turned.get(unit, 0) + n
    return left, turned


def siege(system, area: str, garrison: dict[str, int], retreat: bool, first_turn: int,
          air_strikes: int, rng: np.random.Generator) -> tuple[int | None, int]:
    """The turn the area falls (None: not by turn 8) and the units driven out of it."""
    out = 0
    for turn in range(first_turn, 9):
        used: dict[str, int] = {}            # what the turn's strikes turned over; recovered after it
        for number in range(air_strikes + 1):
            before = sum(garrison.values())
            garrison, used = strike(system, area, garrison, used, number < air_strikes, retreat, rng)
            out += before - sum(garrison.values())
            if not garrison:
                return turn, out
    return None, out


def siege_bound(system, air_strikes: int, runs: int) -> str:
    rng = np.random.default_rng(SEED)
    malay, singapore = [], []
    for _ in range(runs):
        fell, out = siege(system, "malay", {"uk-infantry": 8}, True, 1, air_strikes, rng)
        malay.append(fell)
        if fell is not None:
            garrison = {"uk-infantry": min(8, 2 + out), "uk-fortress": 1}
            singapore.append(siege(system, "singapore", garrison, False, fell + 1, air_strikes, rng)[0])

    def falls(turns: list) -> str:
        taken = [t for t in turns if t is not None]
        median = f"median turn {statistics.median(taken):g}" if taken else "never"
        return f"{len(taken)} of {runs} by turn 8 ({median})"
    return f"  {air_strikes} air strikes a turn: Malay falls in {falls(malay)}, Singapore in {falls(singapore)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per row (0: none)")
    parser.add_argument("--workers", type=int, default=1, help="processes to play in")
    parser.add_argument("--siege-runs", type=int, default=200, help="sieges for the bound (0: none)")
    args = parser.parse_args()
    if args.siege_runs:
        system = load_system(load_scenario(SCENARIO))
        print(f"GJ69: the siege bound, {args.siege_runs} sieges, Allies that never act, "
              "plus one Blitzkrieg double attack of 10 infantry a turn")
        for air_strikes in (4, 2, 1):
            print(siege_bound(system, air_strikes, args.siege_runs), flush=True)
    if not args.games:
        return
    units = bundled_units()
    with tempfile.TemporaryDirectory() as folder:
        against_heuristic = (("heuristic", "heuristic"), ("search", "heuristic"))
        scenarios = [("as bundled", SCENARIO, against_heuristic
                      + (("heuristic", NEVER_ACTS), ("search", NEVER_ACTS))),
                     ("every Japanese die hits",
                      variant(Path(folder), "all-hits", japanese_attack_raised(units, 6)),
                      against_heuristic),
                     # where Japan wins some games with either player, the search's gain shows
                     # seat by seat, Japan's and the Allies'
                     ("Japanese attack and air +2",
                      variant(Path(folder), "plus-2", japanese_attack_raised(units, 2)),
                      against_heuristic + (("heuristic", "search"),)),
                     ("Commonwealth infantry dur. 2",
                      variant(Path(folder), "infantry-2", commonwealth_infantry_durability_2(units)),
                      against_heuristic)]
        print(f"GJ69: Japan's wins and VP margin, {args.games} games a row, seed {SEED}, same seeds"
              "\n  values                         Japan      Allies          wins of decided"
              "   VP margin (95% interval)")
        for label, path, pairs in scenarios:
            scenario = load_scenario(path)
            for japan, allies in pairs:
                study = Study(scenario, {}, {"japan": japan, "allies": allies}, args.games, SEED)
                won, decided, mean, low, high = japan_figures(run_study(study, args.workers))
                print(f"  {label:<30} {japan:<10} {allies:<18} {won:3d} of {decided:<3d}"
                      f"      {mean:6.1f} ({low:.1f} to {high:.1f})", flush=True)


if __name__ == "__main__":
    main()
