"""benchmarks/gj69_capture_fit.py, which fits standing.CAPTURE to games: its regression finds
weights it is given, the terms it fits are the ones the standing reads, and it runs end to end."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

from engine import load_system
from engine.gj69.damage import READY
from sandtable.scenario import load_scenario

ROOT = Path(__file__).parent.parent
SCENARIO = ROOT / "scenarios" / "gj69-southern-operation"


def benchmark():
    spec = importlib.util.spec_from_file_location("gj69_capture_fit",
                                                  ROOT / "benchmarks" / "gj69_capture_fit.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_fit_finds_the_weights_of_data_drawn_from_them():
    rng = np.random.default_rng(5)
    truth = np.array([-3.0, 8.0, -1.0, 0.5])
    x = np.column_stack([np.ones(20_000), rng.uniform(0, 1, 20_000), rng.integers(0, 2, 20_000),
                         rng.integers(1, 9, 20_000)]).astype(float)
    y = (rng.uniform(size=20_000) < 1 / (1 + np.exp(-x @ truth))).astype(float)
    weights, errors = benchmark().fit(x, y)
    assert np.all(np.abs(weights - truth) < 3 * errors)
    assert np.all(errors < 0.25)


def test_the_terms_are_those_of_a_contested_area_15_0_11_31():
    """8 Japanese infantry (attack 3) in Malay beside 8 ready Commonwealth infantry
    (durability 1, twice for a ready unit, §11.31), which trace a line of communication (§12),
    8 turns left: 4 hits against 16 points."""
    gj69 = load_system(load_scenario(SCENARIO))
    game = gj69.new_game({}, np.random.default_rng(1))
    assert game.contested() == {}
    game.forces.add("malay", "ija-25a-infantry", READY, 8)
    assert game.contested() == {"malay": ("allies", (1.0, 4 / 16, 1.0, 8.0))}


def test_defenders_beside_macarthur_recover_without_a_line_of_communication_16_2():
    """Manila traces no line of communication at the start (the seas around the Philippines
    are Japanese, §13), yet its units recover at the end of every turn while MacArthur stands
    there (§16.2(1)②): the term says they recover; without him they do not."""
    gj69 = load_system(load_scenario(SCENARIO))
    game = gj69.new_game({}, np.random.default_rng(1))
    assert "manila" not in game.supplied("allies")
    game.forces.add("manila", "ija-14a-infantry", READY, 4)
    # 6 US infantry (durability 2), the fortress (3) and MacArthur (1), all ready: 24 + 6 + 2
    assert game.contested()["manila"] == ("allies", (1.0, 2 / 32, 1.0, 8.0))
    game.forces.take("manila", "macarthur", READY)
    assert game.contested()["manila"] == ("allies", (1.0, 2 / 30, 0.0, 8.0))


@pytest.mark.parametrize("games", [4])
def test_it_runs_end_to_end(capsys, games):
    assert benchmark().main(["--games", str(games)]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"\d+ contested areas at the start of a turn in {games} games", out)
    for term in ("constant", "hits per point needed", "defenders recover", "turns left"):
        assert re.search(rf"{term} +-?\d+\.\d\d +-?\d+\.\d\d \+- \d+\.\d\d", out)
    assert "mean log-loss: bundled" in out
