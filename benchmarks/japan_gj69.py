"""Can Japan win GJ69 at all? The Japanese players against Allies of every strength, as bundled
and in two variants of the counters' values, on the same seeds.

    python benchmarks/japan_gj69.py [--games N] [--workers K]

Rows: Japan played by `heuristic` and by `search`; the Allies by `heuristic` and by a side that
never takes an impulse (`random:favour=pass`: it passes whenever it may, §4.0(3); its reaction
cards and retreats are random). Columns: Japan's wins of the decided games and its mean VP
margin (Japan's VP less the Allies', with a 95% interval), every row on the same seeds.

The variants, written into a temporary folder that extends the bundled scenario:
`every Japanese die hits` (Japanese attack and air power 6, §11.1), and `Allied infantry
durability 1` (US and Commonwealth infantry, as the Dutch; the counters' four values are not in
the rule text and the bundled ones are reconstructed, units.yaml).

What it tells: if Japan loses every game even to Allies that never act, no Japanese player can
win with these values: a land attack is one exchange of damage points and the defender spreads
them so that a point short of a unit's durability does nothing (§11.2, §11.4), so full
garrisons (Malay 8, Manila 8, §3.0) take almost no harm; see docs/playtest.md.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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


def every_japanese_die_hits(units: dict[str, dict]) -> dict[str, dict]:
    changed = {}
    for unit, stats in units.items():
        if unit.startswith(("ija-", "ijn-")):
            changed[unit] = {**stats, "attack": 6, **({"air_power": 6} if "air_power" in stats else {})}
    return changed


def allied_infantry_durability_1(units: dict[str, dict]) -> dict[str, dict]:
    return {unit: {**units[unit], "durability": 1} for unit in ("us-infantry", "uk-infantry")}


def japan_figures(records) -> tuple[int, int, float, float, float]:
    """Japan's wins, the decided games, and its mean VP margin with a 95% interval."""
    stopped = [r.error for r in records if r.error]
    if stopped:
        raise SystemExit(f"{len(stopped)} games stopped: {stopped[0]}")
    decided = [r for r in records if r.result["winner"] is not None]
    won = sum(r.result["winner"] == "japan" for r in decided)
    values = [r.result["scores"]["japan"] - r.result["scores"]["allies"] for r in records]
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return won, len(decided), mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per row")
    parser.add_argument("--workers", type=int, default=1, help="processes to play in")
    args = parser.parse_args()
    units = bundled_units()
    with tempfile.TemporaryDirectory() as folder:
        scenarios = [("as bundled", SCENARIO, ("heuristic", NEVER_ACTS)),
                     ("every Japanese die hits",
                      variant(Path(folder), "all-hits", every_japanese_die_hits(units)), ("heuristic",)),
                     ("Allied infantry durability 1",
                      variant(Path(folder), "infantry-1", allied_infantry_durability_1(units)),
                      ("heuristic",))]
        print(f"GJ69: Japan's wins and VP margin, {args.games} games a row, seed {SEED}, same seeds"
              "\n  values                         Japan      Allies          wins of decided"
              "   VP margin (95% interval)")
        for label, path, allied_players in scenarios:
            scenario = load_scenario(path)
            for allies in allied_players:
                for japan in ("heuristic", "search"):
                    study = Study(scenario, {}, {"japan": japan, "allies": allies}, args.games, SEED)
                    won, decided, mean, low, high = japan_figures(run_study(study, args.workers))
                    print(f"  {label:<30} {japan:<10} {allies:<18} {won:3d} of {decided:<3d}"
                          f"      {mean:6.1f} ({low:.1f} to {high:.1f})", flush=True)


if __name__ == "__main__":
    main()
