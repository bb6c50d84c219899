"""Benchmark: loading and validating scenarios of growing size.

Prints, for generated grid scenarios and the largest bundled scenario, the time to load (our
position-keeping reader against plain `yaml.safe_load` of the same files, the baseline) and the
time of the checks after loading. Targets: checks under 50 ms for a 200-space map, and growth
no worse than linear (time per space at 2,000 spaces within 2x of that at 200).

Then the inputs that once took quadratic time, each at n and 4n: a file of n aliases and one of
n keys (read and checked, against `yaml.safe_load`), and n diagnostics in the text report
(against a plain loop printing one line each). Target: time per item at 4n within 2x of that
at n (quadratic time would be 4x).

    python benchmarks/validate.py
Exit status 1 when a target is missed.
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]
from sandtable.scenario import load_scenario  # noqa: E402
from validators import validate  # noqa: E402

from synthetic import write_grid_scenario  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
CHECK_TARGET_MS_AT_200 = 50.0
REPEATS = 5


def best_of(function, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times) * 1000.0


def measure(folder: Path) -> dict:
    files = sorted(folder.rglob("*.yaml"))
    scenario = load_scenario(folder)
    problems = validate(scenario)
    spaces = len(scenario.doc("map").get("spaces") or [])
    borders = len(scenario.doc("map").get("borders") or [])
    return {
        "name": folder.name, "spaces": spaces, "borders": borders, "problems": len(problems),
        "baseline_load_ms": best_of(lambda: [yaml.safe_load(f.read_text(encoding="utf-8")) for f in files]),
        "load_ms": best_of(lambda: load_scenario(folder)),
        "check_ms": best_of(lambda: validate(scenario)),
    }


def largest_bundled() -> Path | None:
    folders = [p.parent for p in (REPO / "scenarios").glob("*/map.yaml")]
    return max(folders, key=lambda f: (f / "map.yaml").stat().st_size, default=None)


def main() -> int:
    rows = []
    with tempfile.TemporaryDirectory() as temp:
        for size in (200, 1000, 2000):
            rows.append(measure(write_grid_scenario(Path(temp) / f"grid-{size}", size)))
    bundled = largest_bundled()
    if bundled:
        rows.append(measure(bundled))
    print(f"{'scenario':<22}{'spaces':>7}{'borders':>8}{'problems':>9}"
          f"{'safe_load ms':>14}{'load ms':>9}{'x base':>8}{'checks ms':>11}{'us/space':>10}")
    for r in rows:
        per_space = 1000 * r["check_ms"] / max(r["spaces"], 1)
        print(f"{r['name']:<22}{r['spaces']:>7}{r['borders']:>8}{r['problems']:>9}"
              f"{r['baseline_load_ms']:>14.1f}{r['load_ms']:>9.1f}{r['load_ms'] / r['baseline_load_ms']:>8.2f}"
              f"{r['check_ms']:>11.1f}{per_space:>10.1f}")
    at_200, at_2000 = rows[0], rows[2]
    growth = (at_2000["check_ms"] / at_2000["spaces"]) / (at_200["check_ms"] / at_200["spaces"])
    ok_speed = at_200["check_ms"] < CHECK_TARGET_MS_AT_200
    ok_growth = growth < 2.0
    print(f"checks at 200 spaces: {at_200['check_ms']:.1f} ms (target < {CHECK_TARGET_MS_AT_200:.0f} ms): "
          f"{'ok' if ok_speed else 'MISSED'}")
    print(f"time per space, 2,000 vs 200 spaces: x{growth:.2f} (target < x2.00, linear): "
          f"{'ok' if ok_growth else 'MISSED'}")
    print(f"1,000-space grid: {rows[1]['borders']} borders, load {rows[1]['load_ms']:.0f} ms, "
          f"checks {rows[1]['check_ms']:.0f} ms")
    ok_linear = linear_growth()
    return 0 if ok_speed and ok_growth and ok_linear else 1


def _aliases(n: int) -> str:
    return ("base: &unit {attack: 1, defense: [2, 3]}\nunits:\n" + "- *unit\n" * n
            + "".join(f"k{i}: {i}\n" for i in range(n)))


def _keys(n: int) -> str:
    return "".join(f"unknown{i}: {i}\n" for i in range(n))


def _time_file(folder: Path, text: str, name: str) -> tuple[float, float]:
    """(ms to read and check the scenario with `text` as its file `name`, ms to safe_load it)."""
    (folder / name).write_text(text, encoding="utf-8")
    ours = best_of(lambda: validate(load_scenario(folder)), 3)
    baseline = best_of(lambda: yaml.safe_load(text), 3)
    return ours, baseline


def _time_report(n: int) -> tuple[float, float]:
    """(ms for the text report of n diagnostics, ms for a plain loop printing them)."""
    from sandtable.diagnostics import Location, error
    from validators.reporters import Result, render_text
    path = Path("map.yaml")
    lines = [f"unknown{i}: {i}" for i in range(n)]
    found = [error("SCH001", f"unknown key 'unknown{i}'", Location(path, i + 1, 1)) for i in range(n)]
    ours = best_of(lambda: render_text([Result(Path("."), found, lambda f, line: lines[line - 1])]), 3)
    baseline = best_of(lambda: "\n".join(f"{d.file}:{d.line}:{d.column}: {d.code} {d.message}"
                                           for d in found), 3)
    return ours, baseline


def linear_growth(n: int = 4000) -> bool:
    print(f"\ntime per item at {4 * n:,} against {n:,} items (linear x1, quadratic x4; target < x2):")
    print(f"{'input':<24}{'ms at n':>9}{'base ms':>9}{'ms at 4n':>10}{'base ms':>9}{'growth':>8}")
    ok = True
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "scenario"
        folder.mkdir()
        (folder / "scenario.yaml").write_text("id: scenario\nname: S\nsystem: generic\n")
        cases = [("aliases (read, check)", lambda k: _time_file(folder, _aliases(k), "units.yaml")),
                 ("keys (read, check)", lambda k: _time_file(folder, _keys(k), "map.yaml")),
                 ("diagnostics (report)", _time_report)]
        for name, timed in cases:
            small, small_base = timed(n)
            large, large_base = timed(4 * n)
            growth = (large / (4 * n)) / (small / n)
            ok = ok and growth < 2.0
            print(f"{name:<24}{small:>9.0f}{small_base:>9.0f}{large:>10.0f}{large_base:>9.0f}"
                  f"{growth:>7.2f}x{'' if growth < 2.0 else '  MISSED'}")
    return ok


if __name__ == "__main__":
    raise SystemExit(main())
