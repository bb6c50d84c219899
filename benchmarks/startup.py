"""Benchmark: how long the command line takes to start, and to validate a small scenario.

Each command runs in a fresh interpreter, as a user's shell or a pre-commit hook runs it (the
best of several runs, so disk caches are warm). Baselines in the same run: the bare interpreter,
and the script a user would otherwise write to check the same files (yaml.safe_load and
jsonschema's validator on each file). Targets: `sandtable --version` under 150 ms and
`sandtable validate` of a 3-space scenario under 250 ms.

    python benchmarks/startup.py
Exit status 1 when a target is missed.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import write_grid_scenario  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
RUNS = 7
TARGETS_MS = {"sandtable --version": 150.0, "sandtable validate (3 spaces)": 250.0}
CLI = "import sys; from sandtable.cli import main; sys.exit(main())"  # what the console script runs
PLAIN_SCRIPT = """
import json, sys, yaml
from pathlib import Path
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
schemas = Path(sys.argv[1])
registry = Registry().with_resources(
    (p.name, Resource.from_contents(json.loads(p.read_text()))) for p in schemas.glob("*.json"))
for path in sorted(Path(sys.argv[2]).glob("*.yaml")):
    schema = json.loads((schemas / f"{path.stem}.schema.json").read_text())
    errors = list(Draft202012Validator(schema, registry=registry).iter_errors(yaml.safe_load(path.read_text())))
    print(path.name, len(errors), "errors")
"""


def best_ms(argv: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        done = subprocess.run(argv, env=env, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed:\n{done.stdout}{done.stderr}")
    return min(times) * 1000.0


def main() -> int:
    python = sys.executable
    with tempfile.TemporaryDirectory() as temp:
        scenario = write_grid_scenario(Path(temp) / "three", 3)
        figures = {
            "python -c pass (the interpreter alone)": best_ms([python, "-c", "pass"]),
            "sandtable --version": best_ms([python, "-c", CLI, "--version"]),
            "plain script: yaml.safe_load + jsonschema (3 spaces)":
                best_ms([python, "-c", PLAIN_SCRIPT, str(REPO / "schemas"), str(scenario)]),
            "sandtable validate (3 spaces)": best_ms([python, "-c", CLI, "validate", str(scenario)]),
        }
    missed = False
    for name, ms in figures.items():
        target = TARGETS_MS.get(name)
        verdict = ""
        if target is not None:
            verdict = f"  target < {target:.0f} ms: " + ("met" if ms < target else "MISSED")
            missed |= ms >= target
        print(f"{name:<55} {ms:7.1f} ms{verdict}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
