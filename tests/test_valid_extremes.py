"""Valid input that once made every game fail: counts the engine cannot hold, a unit that costs
nothing, player settings that divide by zero or overflow, names Matplotlib read as math."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from engine.calculator import MAX_UNITS, parse_force
from engine.options import SettingError
from engine.players import available, make_player
from engine.system import EngineError, load_system
from sandtable.limits import MAX_PIECES
from sandtable.scenario import load_scenario

from helpers import FIXTURES, REPO, diagnostics_of, find_code, place

SCENARIOS = REPO / "scenarios"
CORE = FIXTURES / "core"


# -- counts: one limit for the validator, the engine and the battle calculator -----------------
def test_one_limit_is_shared_by_the_validator_the_engine_and_the_calculator():
    assert MAX_UNITS is MAX_PIECES == 1_000_000
    with pytest.raises(ValueError, match="at most 1,000,000 units of a type"):
        parse_force("germany: 1000001 infantry")


def test_a_count_no_game_can_hold_is_refused_at_its_line():
    [problem] = find_code(diagnostics_of(CORE / "set006-too-many-pieces"), "SET006")
    assert place(problem, CORE) == ("set006-too-many-pieces/setup.yaml", 6, 29)
    assert problem.message == ("the scenario puts 1,000,000,000,003 units into play; a game holds "
                               "at most 1,000,000 (the engine makes one object per piece)")
    with pytest.raises(EngineError, match=r"setup.yaml:6: the scenario puts 1,000,000,000,003 "
                                          r"units into play; a game holds at most 1,000,000"):
        load_system(load_scenario(CORE / "set006-too-many-pieces"))


def _base_with(tmp_path, name: str, text: str):
    folder = tmp_path / "base"
    shutil.copytree(CORE / "base", folder)
    (folder / name).write_text((folder / name).read_text(encoding="utf-8").replace(*text), encoding="utf-8")
    return folder


@pytest.mark.parametrize("count, refused", [(999_995, False), (999_996, True)])
def test_the_limit_counts_every_unit_of_the_setup(tmp_path, count, refused):
    """The base fixture holds 5 units: 999,995 more is exactly the limit."""
    folder = _base_with(tmp_path, "setup.yaml", ("units: [{type: infantry, count: 2}]}\n- {space: blue",
                                                 f"units: [{{type: infantry, count: {count + 2}}}]}}\n"
                                                 "- {space: blue"))
    found = [d for d in diagnostics_of(folder) if d.code == "SET006"]
    assert [place(d, tmp_path) for d in found] == ([("base/setup.yaml", 3, 74)] if refused else [])


def test_cards_and_markers_have_the_same_limit(tmp_path):
    folder = _base_with(tmp_path, "decks.yaml", ("{id: r1, title: Advance, count: 2}",
                                                 "{id: r1, title: Advance, count: 2000000}"))
    [problem] = find_code(diagnostics_of(folder), "SET006")
    assert problem.message.startswith("the scenario puts 2,000,00") and " cards into play" in problem.message
    setup = folder / "setup.yaml"
    setup.write_text(setup.read_text(encoding="utf-8") + "markers:\n- {id: oil, name: Oil, count: 1000001}\n",
                     encoding="utf-8")
    found = find_code(diagnostics_of(folder), "SET006")
    assert sorted(d.message.split(" into play")[0] for d in found) == [
        "the scenario puts 1,000,001 markers", "the scenario puts 2,000,001 cards"]


# -- a unit that costs nothing ---------------------------------------------------------------------
def _free_infantry(tmp_path, scenario: str, cost: str):
    folder = tmp_path / scenario
    shutil.copytree(SCENARIOS / scenario, folder)
    units = folder / "units.yaml"
    text = units.read_text(encoding="utf-8")
    assert text.count(cost) >= 1
    units.write_text(text.replace(cost, cost.split("cost: ")[0] + "cost: 0", 1), encoding="utf-8")
    return load_system(load_scenario(folder))


def _play(system, rounds: int, seed: int = 1):
    """One game of the heuristic players; every action taken, with the invariants checked."""
    game = system.new_game({}, np.random.default_rng(seed), rounds)
    players = {side: make_player("heuristic", system, side, np.random.default_rng([seed, n]))
               for n, side in enumerate(("allies", "axis"))}
    taken = []
    while not game.is_terminal():
        seat = game.current_player
        action = players[game.side_of(seat)].choose(game)
        game.apply(action)
        taken.append((seat, tuple(action)))
        assert list(game.invariants()) == []
    return game, taken


def test_aa50_a_unit_without_a_cost_is_not_for_sale_and_the_game_goes_on(tmp_path):
    """AA50's economy sells only types with a cost (engine/aa50/economy.py `buyable`); the
    heuristic player once planned infantry anyway, and every game stopped with IllegalAction."""
    system = _free_infantry(tmp_path, "aa50-1941", "- id: infantry\n  name: Infantry\n  domain: land\n  cost: 3")
    game, taken = _play(system, rounds=2)
    bought = [a for _, a in taken if a[0] == "buy"]
    assert bought and all(a[1] != "infantry" for a in bought)
    assert game.round == 2


def test_allies_vs_axis_free_infantry_is_recruited_up_to_its_cap(tmp_path):
    """Free infantry: the rules let a side recruit up to the cap (24 a turn) whatever its money;
    the heuristic player once divided by the cost (ZeroDivisionError in every game)."""
    system = _free_infantry(tmp_path, "allies-vs-axis", "- id: infantry\n  name: Infantry\n  domain: land\n  cost: 50")
    game, taken = _play(system, rounds=6)
    free = [a for _, a in taken if a[:2] == ("recruit", "infantry")]
    assert free and all(1 <= a[2] <= 24 for a in free)


# -- player settings that cannot play ------------------------------------------------------------
WAR_AT_SEA = load_system(load_scenario(SCENARIOS / "war-at-sea"))


@pytest.mark.parametrize("spec, message", [
    ("heuristic:margin=0", "margin='0': expected a number, 0.1 to 10"),
    ("heuristic:margin=-1e300", "margin='-1e300': expected a number, 0.1 to 10"),
    ("heuristic:margin=1e300", "margin='1e300': expected a number, 0.1 to 10"),
    ("heuristic:escape-below=-1", "escape-below='-1': expected a number, 0 to 10"),
])
def test_war_at_sea_refuses_settings_that_stop_every_game(spec, message):
    with pytest.raises(SettingError) as refused:
        make_player(spec, WAR_AT_SEA, "axis", np.random.default_rng(1))
    assert str(refused.value) == message


@pytest.mark.parametrize("spec", ["heuristic:margin=0.1", "heuristic:margin=10",
                                  "heuristic:escape-below=0,margin=0.1", "heuristic:escape-below=10"])
def test_war_at_sea_plays_to_the_end_at_the_edges_of_each_range(spec):
    for seed in (1, 2):
        game = WAR_AT_SEA.new_game({}, np.random.default_rng(seed))
        players = {side: make_player(spec, WAR_AT_SEA, side, np.random.default_rng([seed, n]))
                   for n, side in enumerate(("allies", "axis"))}
        while not game.is_terminal():
            game.apply(players[game.side_of(game.current_player)].choose(game))
        assert game.result().winner in ("allies", "axis", None)


@pytest.mark.parametrize("scenario", ["aa50-1941", "allies-vs-axis", "gj69-southern-operation", "war-at-sea"])
def test_every_number_a_player_takes_has_a_range(scenario):
    system = load_system(load_scenario(SCENARIOS / scenario))
    for name, kind in available(system).items():
        for setting in kind.settings:
            if setting.kind in ("int", "float"):
                assert setting.minimum is not None, f"{name}: {setting.name} has no range"


# -- names Matplotlib would read as math ---------------------------------------------------------
def test_a_name_with_dollar_signs_is_drawn_as_written(tmp_path):
    """`$M 50 \\frac{$` is a fine name for a side; as Matplotlib math it is a syntax error, raised
    while the report's plots were saved, after every game was played."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from playtest.plot_text import draw_text_as_written
    name = "$M 50 \\frac{$ axis"
    with matplotlib.rc_context():
        draw_text_as_written()
        figure, axes = plt.subplots()
        axes.barh([name], [1])
        axes.set_title(name)
        axes.annotate(name, (0, 0))
        axes.legend([name])
        figure.savefig(tmp_path / "plot.png", format="png")
        plt.close(figure)
        assert axes.get_title() == name and (tmp_path / "plot.png").stat().st_size > 0
    with matplotlib.rc_context({"text.parse_math": True}):   # as before: the save raises
        figure, axes = plt.subplots()
        axes.set_title(name)
        with pytest.raises(ValueError):
            figure.savefig(tmp_path / "math.png", format="png")
        plt.close(figure)
