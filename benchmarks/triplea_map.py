"""Benchmark: `sandtable import triplea-map` on map folders far larger than real ones.

A map folder's polygons.txt may be up to 16 MiB. The baseline is the real World War II v3 map
(0.6 MB, shared/reference/triplea-maps), given to a fresh import of WW2v3-1941.xml; against it:

- a 15 MB polygons.txt whose one outline of 1.3 million points is noise (nothing to simplify
  away), the case that took 184 s and 1.47 GB before being refused: now refused as too large for
  a map.yaml before anything is written, the work of writing it never done;
- the same noise at a quarter and half the size (written): the time per point stays the same,
  so twice the points take twice the time (linear);
- a sawtooth whose teeth shrink, 500,000 and 1,000,000 points, on which Douglas-Peucker takes
  n squared steps (hours for the larger): the outline is refused as too intricate (a warning; the
  rest is written) after a bounded number of scans, again twice the time for twice the points.

Each case runs in a process of its own, which reports its CPU time and its peak memory. Targets:
the 15 MB file answered in under 20 CPU seconds and 600 MB, and each doubling costing at most
2.6 times as much (linear, with room for noise).

    python benchmarks/triplea_map.py
Exit status 1 when a target is missed; 0 with a message when the reference files are not there.
"""
from __future__ import annotations

import json
import math
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

REFERENCE = REPO.parent / "shared" / "reference"
GAME = REFERENCE / "triplea" / "WW2v3-1941.xml"
REAL_MAP = REFERENCE / "triplea-maps" / "world_war_ii_v3"
LARGE_TARGET_S = 20.0
LARGE_TARGET_MB = 600
DOUBLING_TARGET = 2.6
NOISE_POINTS = 1_300_000


def noisy_outline(points: int, seed: int = 1) -> str:
    """A circle traced with a pixel of noise at every point: Douglas-Peucker keeps about half."""
    chance = random.Random(seed)
    return " ".join(f"({int(5000 + 4000 * math.cos(2 * math.pi * i / points)) + chance.randint(0, 3)},"
                    f"{int(5000 + 4000 * math.sin(2 * math.pi * i / points)) + chance.randint(0, 3)})"
                    for i in range(points))


def sawtooth(points: int) -> str:
    return " ".join(f"({i},{points - i if i % 2 == 0 else points + i})" for i in range(points))


def run_case(map_dir: Path, scenario: Path) -> dict:
    """In this process: the command on one map folder, its exit status, CPU time and peak memory."""
    import contextlib
    import io

    from sandtable.cli import main
    start = time.process_time()
    with contextlib.redirect_stderr(io.StringIO()) as err, contextlib.redirect_stdout(io.StringIO()):
        code = main(["import", "triplea-map", str(map_dir), str(scenario), "--quiet"])
    return {"code": code, "cpu_s": time.process_time() - start,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "said": err.getvalue().strip().splitlines()[-1:]}


def measure(map_dir: Path, scenario: Path) -> dict:
    done = subprocess.run([sys.executable, __file__, "--case", str(map_dir), str(scenario)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def fresh_scenario(temp: Path, name: str) -> Path:
    """WW2v3-1941.xml imported, without geometry."""
    import contextlib
    import io

    from sandtable.cli import main
    folder = temp / name
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        assert main(["import", "triplea", str(GAME), str(folder), "--quiet"]) == 0
    return folder


def map_folder(temp: Path, name: str, polygons: str) -> Path:
    folder = temp / name
    folder.mkdir()
    (folder / "polygons.txt").write_text(polygons, encoding="utf-8")
    return folder


def main() -> int:
    if not (GAME.is_file() and REAL_MAP.is_dir()):
        print(f"{GAME} or {REAL_MAP} is not there: nothing to measure")
        return 0
    wall = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory() as temp_name:
        temp = Path(temp_name)
        rows.append(("baseline: World War II v3", (REAL_MAP / "map" / "polygons.txt").stat().st_size,
                     measure(REAL_MAP, fresh_scenario(temp, "baseline"))))
        for share in (4, 2, 1):
            points = NOISE_POINTS // share
            text = f"Russia  <  {noisy_outline(points)} >\n"
            rows.append((f"noise, {points:,} points", len(text),
                         measure(map_folder(temp, f"noise-{share}", text), fresh_scenario(temp, f"noise-{share}"))))
        for points in (500_000, 1_000_000):
            text = f"Russia  <  {sawtooth(points)} >\n"
            rows.append((f"sawtooth, {points:,} points", len(text),
                         measure(map_folder(temp, f"saw-{points}", text), fresh_scenario(temp, f"saw-{points}"))))
    base = rows[0][2]["cpu_s"] / rows[0][1]
    print(f"{'':<30}{'MB':>7}{'exit':>6}{'CPU s':>8}{'s per MB':>10}{'x base':>8}{'peak MB':>9}")
    for label, size, row in rows:
        per_mb = row["cpu_s"] / size * 1e6
        print(f"{label:<30}{size / 1e6:>7.2f}{row['code']:>6}{row['cpu_s']:>8.2f}{per_mb:>10.2f}"
              f"{row['cpu_s'] / size / base:>8.1f}{row['peak_mb']:>9.0f}")
    print(f"(CPU seconds of each run's own process; the whole run took {time.perf_counter() - wall:.0f} s of "
          "wall-clock time)")
    large = rows[3][2]
    print(f"the 15 MB file: {' '.join(large['said'])}")
    # noise: a quarter and half of the 15 MB outline (both written); sawtooth: half and whole
    doublings = [rows[2][2]["cpu_s"] / rows[1][2]["cpu_s"], rows[5][2]["cpu_s"] / rows[4][2]["cpu_s"]]
    ok_large = large["cpu_s"] < LARGE_TARGET_S and large["peak_mb"] < LARGE_TARGET_MB and large["code"] == 1
    ok_linear = max(doublings) <= DOUBLING_TARGET
    print(f"15 MB file answered in {large['cpu_s']:.1f} s and {large['peak_mb']:.0f} MB (targets < "
          f"{LARGE_TARGET_S:.0f} s, < {LARGE_TARGET_MB} MB): {'ok' if ok_large else 'MISSED'}")
    print(f"twice the points cost {', '.join(f'{d:.2f}' for d in doublings)} times as much (target <= "
          f"{DOUBLING_TARGET}): {'ok' if ok_linear else 'MISSED'}")
    return 0 if ok_large and ok_linear else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--case"]:
        print(json.dumps(run_case(Path(sys.argv[2]), Path(sys.argv[3]))))
        sys.exit(0)
    sys.exit(main())
