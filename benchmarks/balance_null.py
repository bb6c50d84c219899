"""How often `playtest compare` and the CI gate cry wolf: comparisons of variants that change
nothing of the game, over many seeds.

    python benchmarks/balance_null.py [--scenario scenarios/war-at-sea] [--seeds 100]
                                      [--games 200] [--players random]

Each seed compares a cosmetic variant (a nation's display name changed, which no rule reads)
with its parent, paired by seed as `compare` does: the same games, so nothing may be called
moved (this checks that nothing but the rules decides a game). Then two *independent* runs of
the parent (seed s against seed s + 100,000), as the gate compares an unpaired baseline: every
difference is chance, and the share of comparisons that say "the balance moved" (Holm over the
sides) or fail a 5-point gate is the false-alarm rate, printed against the nominal 5% with a
95% interval. (The paired test's own level under chance differences is measured in
tests/test_balance.py on simulated pairs.)
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.calculator import wilson  # noqa: E402
from playtest.compare import compare_reports, correct_family, gate  # noqa: E402
from playtest.report import summarise  # noqa: E402
from playtest.study import Study, run_study  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402


def cosmetic_variant(parent: Path, folder: Path) -> tuple[Path, Path]:
    """The parent copied into `folder`, and beside it a variant that renames the first nation
    for display: no rule reads a name."""
    copy = folder / parent.name
    shutil.copytree(parent, copy)
    scenario = load_scenario(copy)
    nation = next(n for _, n in scenario.entities("scenario", "nations"))
    variant = folder / "cosmetic"
    variant.mkdir()
    (variant / "scenario.yaml").write_text(
        f"id: cosmetic\nname: Cosmetic variant\nsystem: {scenario.system}\n"
        f"extends: ../{parent.name}\n"
        f"nations:\n- {{id: {nation['id']}, name: {json.dumps(nation['name'] + ' (renamed)')}}}\n",
        encoding="utf-8")
    return copy, variant


def report_of(scenario, players, games, seed, workers):
    sides = [s["id"] for _, s in scenario.entities("scenario", "sides")]
    study = Study(scenario, {}, {side: players for side in sides}, games, seed)
    meta = {"scenario": scenario.id, "sides": sides, "players": study.players, "seed": seed,
            "games": games}
    return summarise(run_study(study, workers), meta)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default=str(ROOT / "scenarios" / "war-at-sea"))
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", default="random")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        parent_folder, variant_folder = cosmetic_variant(Path(args.scenario).resolve(), Path(folder))
        parent, variant = load_scenario(parent_folder), load_scenario(variant_folder)
        counts = {"paired, cosmetic variant": [0, 0], "independent runs": [0, 0]}
        for seed in range(1, args.seeds + 1):
            old = report_of(parent, args.players, args.games, seed, args.workers)
            for label, new in (
                    ("paired, cosmetic variant",
                     report_of(variant, args.players, args.games, seed, args.workers)),
                    ("independent runs",
                     report_of(parent, args.players, args.games, seed + 100_000, args.workers))):
                comparison = compare_reports(old, new)
                correct_family(comparison["sides"])
                counts[label][0] += any(f["significant"] for f in comparison["sides"].values())
                counts[label][1] += bool(gate(comparison, 0.05))
    print(f"{args.seeds} comparisons of {args.games} games each, {Path(args.scenario).name}, "
          f"{args.players} players; nominal false-alarm rate 5%")
    for label, (moved, failed) in counts.items():
        for what, count in (("said the balance moved", moved), ("failed a 5-point gate", failed)):
            low, high = wilson(count, args.seeds)
            print(f"  {label:<26}{what:<24}{count:>4} of {args.seeds}  "
                  f"{100 * count / args.seeds:5.1f}% (95% {100 * low:.1f}-{100 * high:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
