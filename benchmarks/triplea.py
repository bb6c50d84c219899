"""Benchmark: importing and validating the TripleA corpus (shared/reference/triplea-corpus).

For each of the 102 game files: the baseline, reading the XML with the standard library's
ElementTree (what any program that reads the file pays at least); the import (safe reading with
positions, TripleA's semantics, the translation); and validation the way a user meets it: the
scenario folder written (canonical YAML), read back and checked. Printed: the corpus totals and
the largest game (about 950 spaces), each against the baseline.

Targets: the whole corpus imported and validated in under 90 s, the largest game in under 1 s
(import plus validation). One process does the work, so a two-core machine needs no longer.
Times are the process's CPU time, which other work on a shared machine does not inflate; the
wall-clock time of the whole run is printed beside them.

    python benchmarks/triplea.py
Exit status 1 when a target is missed; 0 with a message when the corpus is not there.
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from xml.etree import ElementTree

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from sandtable.scenario import load_scenario  # noqa: E402
from sandtable.triplea import import_game  # noqa: E402
from sandtable.yamlwrite import save_yaml  # noqa: E402
from validators import validate  # noqa: E402

CORPUS = REPO.parent / "shared" / "reference" / "triplea-corpus"
CORPUS_TARGET_S = 90.0
LARGEST_TARGET_S = 1.0
FILE_NAMES = {"scenario": "scenario.yaml", "map": "map.yaml", "units": "units.yaml", "setup": "setup.yaml",
              "objectives": "objectives.yaml"}


def timed(function):
    start = time.process_time()
    result = function()
    return result, time.process_time() - start


def one_game(path: Path, folder: Path) -> dict:
    _, baseline = timed(lambda: ElementTree.parse(path))
    imported, import_s = timed(lambda: import_game(path))

    def write_and_validate():
        folder.mkdir(parents=True, exist_ok=True)
        for kind, data in imported.files.items():
            save_yaml(folder / FILE_NAMES[kind], data, kind=kind, within=folder)
        return validate(load_scenario(folder))
    problems, validate_s = timed(write_and_validate)
    return {"name": path.stem, "spaces": imported.counts.get("spaces", 0), "baseline_s": baseline,
            "import_s": import_s, "validate_s": validate_s,
            "problems": sum(1 for d in problems if d.severity.value != "info")}


def main() -> int:
    games = sorted(CORPUS.glob("*.xml")) if CORPUS.is_dir() else []
    if not games:
        print(f"{CORPUS} is not there: nothing to measure")
        return 0
    rows = []
    wall = time.perf_counter()
    with tempfile.TemporaryDirectory() as temp:
        for number, path in enumerate(games):
            rows.append(one_game(path, Path(temp) / f"game-{number}"))
        largest = max(games, key=lambda p: next(r["spaces"] for r in rows if r["name"] == p.stem))
        best = min((one_game(largest, Path(temp) / f"largest-{i}") for i in range(3)),
                   key=lambda r: r["import_s"] + r["validate_s"])
    total = {key: sum(r[key] for r in rows) for key in ("baseline_s", "import_s", "validate_s")}
    print(f"{'':<28}{'spaces':>8}{'ElementTree s':>15}{'import s':>10}{'x base':>8}{'validate s':>12}{'total s':>9}")
    for label, row in ((f"corpus ({len(rows)} games)", {**total, "spaces": sum(r["spaces"] for r in rows)}),
                       (f"largest: {best['name']}", best)):
        print(f"{label:<28}{row['spaces']:>8}{row['baseline_s']:>15.3f}{row['import_s']:>10.3f}"
              f"{row['import_s'] / row['baseline_s']:>8.1f}{row['validate_s']:>12.3f}"
              f"{row['import_s'] + row['validate_s']:>9.3f}")
    print(f"(CPU seconds; the whole run took {time.perf_counter() - wall:.1f} s of wall-clock time)")
    slowest = sorted(rows, key=lambda r: -(r["import_s"] + r["validate_s"]))[:3]
    print("slowest: " + ", ".join(f"{r['name']} {r['import_s'] + r['validate_s']:.2f} s" for r in slowest))
    corpus_s = total["import_s"] + total["validate_s"]
    largest_s = best["import_s"] + best["validate_s"]
    ok_corpus, ok_largest = corpus_s < CORPUS_TARGET_S, largest_s < LARGEST_TARGET_S
    print(f"corpus imported and validated: {corpus_s:.1f} s (target < {CORPUS_TARGET_S:.0f} s): "
          f"{'ok' if ok_corpus else 'MISSED'}")
    print(f"largest game imported and validated: {largest_s:.2f} s (target < {LARGEST_TARGET_S:.0f} s): "
          f"{'ok' if ok_largest else 'MISSED'}")
    return 0 if ok_corpus and ok_largest else 1


if __name__ == "__main__":
    sys.exit(main())
