"""benchmarks/players.py, the speed and strength benchmark of the search player, runs end to end
on a fast system: timing at the default budget and at each of `--budgets`, strength seat by seat
with the score margin beside the share, and `--games 0` / `--timing-games 0` leave a part out."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

BENCHMARK = Path(__file__).parent.parent / "benchmarks" / "players.py"


def run(capsys, *args: str) -> str:
    spec = importlib.util.spec_from_file_location("players_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--only", "war-at-sea", *args]) == 0
    return capsys.readouterr().out


def test_timing_at_each_budget_and_strength_with_the_margin(capsys):
    out = run(capsys, "--games", "3", "--timing-games", "1", "--budgets", "2")
    assert "heuristic (baseline)" in out
    assert re.search(r"search, both sides +median", out)
    assert re.search(r"search, both sides, budget=2 +median", out)
    assert out.count("search target 0.5 s") == 2
    # each side: heuristic, search, the difference, the budget's line; each with its margin
    for side in ("allies", "axis"):
        assert f"  {side}:" in out
    assert len(re.findall(r"of +\d+ .*margin [+-]\d+\.\d \([+-]\d+\.\d to [+-]\d+\.\d\)", out)) == 6
    assert out.count("search budget=2") == 2


def test_games_0_leaves_out_the_strength_and_timing_games_0_the_speed(capsys):
    speed = run(capsys, "--games", "0", "--timing-games", "1")
    assert "median" in speed and "strength" not in speed
    strength = run(capsys, "--games", "2", "--timing-games", "0")
    assert "median" not in strength and "strength, seat by seat, 2 games each" in strength
