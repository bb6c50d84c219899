"""GJ69 players and random play: whole games end with every invariant holding, every card is
played, replays play back to the same end, and the heuristic player uses its cards sensibly.

The property run plays `GJ69_GAMES` random games (40 by default, seeded, a few seconds);
benchmarks/games_gj69.py plays the full 500 with the same checks.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from engine import load_system
from engine.gj69.damage import READY
from engine.players import make_player
from engine.replay import Replay, play_back
from playtest.study import Study, game_seed, run_study
from sandtable.scenario import load_scenario

SCENARIO = Path(__file__).parent.parent / "scenarios" / "gj69-southern-operation"
GAMES = int(os.environ.get("GJ69_GAMES", "40"))


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(SCENARIO)


@pytest.fixture(scope="module")
def gj69(scenario):
    return load_system(scenario)


def cards_played(records) -> set[str]:
    """Cards played face up, as a card action or a reaction, in the games' moves."""
    return {action[1] for record in records for _, action in record.moves
            if action[0] in ("play", "react")}


def test_random_games_end_with_every_invariant_and_every_card(scenario, gj69, tmp_path):
    """Random players go everywhere the rules let them: no invariant breaks (checked after
    every action), every game reaches the last turn (§4.0), every card of both decks is
    played face up at least once, and replays play back to the identical end."""
    study = Study(scenario, {}, {"japan": "random", "allies": "random"}, GAMES, 2024, check=True,
                  keep_actions=True, replays=str(tmp_path))
    records = run_study(study)
    assert [r.error for r in records if r.error] == []
    assert {r.result["round"] for r in records} == {8}
    assert {r.result["reason"] for r in records} == {"victory-points"}
    assert cards_played(records) == set(gj69.cards)
    for record in records[:5]:
        replay = Replay.read(record.replay)
        state = play_back(replay, gj69)
        assert state.result().as_dict() == record.result
        assert state.chronicle.as_dict() == record.chronicle


def test_the_same_seed_gives_the_same_games(scenario):
    study = Study(scenario, {"longer-game": True}, {"japan": "random", "allies": "heuristic"}, 2, 5)
    first, second = run_study(study), run_study(study)
    assert [r.result for r in first] == [r.result for r in second]
    assert [r.chronicle for r in first] == [r.chronicle for r in second]
    assert {r.result["round"] for r in first} == {9}


def test_the_same_seed_gives_the_same_games_in_any_process():
    """Worker processes hash strings differently (PYTHONHASHSEED): the heuristic's sums must
    not follow the order of a set, or the same seed plays other games on other workers."""
    import subprocess
    import sys
    root = Path(__file__).parent.parent
    script = ("import json, sys; from engine import load_system; "
              "from playtest.study import Study, play_game; "
              "from sandtable.scenario import load_scenario; "
              f"s = load_scenario({str(SCENARIO)!r}); g = load_system(s); "
              "st = Study(s, {}, {'japan': 'heuristic', 'allies': 'heuristic'}, 3, 11, "
              "keep_actions=True); "
              "print(json.dumps([play_game(g, st, i).moves for i in range(3)]))")

    def moves(hash_seed: str) -> str:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              cwd=root, env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert moves("1") == moves("4")


def test_a_variant_plays_the_same_after_its_parent_in_one_process(tmp_path):
    """A comparison plays parent and variant in one worker: what the heuristic keeps between
    games must follow the units' values, not only their names, or the variant's games depend
    on what the worker played before (durability 1 infantry against durability 2, §11.4)."""
    import shutil

    from engine.gj69 import worth
    from playtest.study import play_game
    shutil.copytree(SCENARIO, tmp_path / "gj69")
    (tmp_path / "garrisons").mkdir()
    (tmp_path / "garrisons" / "scenario.yaml").write_text(
        "id: garrisons\nname: Garrisons\nsystem: gj69\nextends: ../gj69\n", encoding="utf-8")
    (tmp_path / "garrisons" / "units.yaml").write_text("unit_types:\n" + "".join(
        f"- id: {unit}\n  stats: {{attack: 2, durability: 1, movement: 2}}\n"
        f"  faces: {{ready: {{attack: 2, durability: 1, movement: 2}}, "
        f"used: {{attack: 2, durability: 1, movement: 2}}}}\n"
        for unit in ("us-infantry", "uk-infantry")), encoding="utf-8")
    players = {"japan": "heuristic", "allies": "heuristic"}

    def moves(folder):
        scenario = load_scenario(folder)
        study = Study(scenario, {}, players, 2, 3, keep_actions=True)
        return [play_game(load_system(scenario), study, i).moves for i in range(2)]

    worth._ALLOCATIONS.clear()
    alone = moves(tmp_path / "garrisons")
    worth._ALLOCATIONS.clear()
    moves(tmp_path / "gj69")
    assert moves(tmp_path / "garrisons") == alone


def test_what_the_heuristic_keeps_never_changes_a_choice(gj69):
    """The heuristic keeps views, move worths and options from earlier positions while nothing
    they depend on has changed: at every decision of whole games, a new player that has kept
    nothing chooses the same (choosing a group's units and its action follow the plan made
    when its area was chosen, and acting again follows the kind of action it took, so a new
    player has none there)."""
    decisions = 0
    for seed in range(2):
        game = gj69.new_game({}, np.random.default_rng(seed), None)
        players = {side: make_player("heuristic", gj69, side, np.random.default_rng(seed))
                   for side in gj69.sides}
        while not game.is_terminal():
            side = game.current_player
            choice = players[side].choose(game)
            if game.step not in ("group-units", "action", "again"):
                fresh = make_player("heuristic", gj69, side, np.random.default_rng(seed))
                assert fresh.choose(game) == choice, (seed, game.turn, game.step)
                decisions += 1
            game.apply(choice)
    assert decisions > 400


def test_what_the_heuristic_keeps_is_what_it_would_work_out_anew(gj69):
    """The views and move worths kept from earlier positions (and shared with a search's
    look-aheads) equal those worked out afresh at every impulse of whole games: a kept worth
    that missed a change (the enemy's units there now able to recover, own ships that change
    what the enemy's submarines may sink) would make a look-ahead's copy of the player, which
    starts from another's, choose otherwise than the player would."""
    checked = 0
    for index in range(4):
        seed = game_seed(2026, index)
        game = gj69.new_game({}, np.random.default_rng(seed), None)
        players = {side: make_player("heuristic", gj69, side, np.random.default_rng([seed, number]))
                   for number, side in enumerate(sorted(gj69.sides), 1)}
        while not game.is_terminal():
            player = players[game.current_player]
            choice = player.choose(game)
            if game.step == "impulse":
                for key, known in list(player._memo.items()):
                    if key[0] == "moves":
                        _, side, origin, units = key
                        for target, worth in known.items():
                            anew = player._move_worth(game, side, origin, target, dict(units))
                            assert worth == pytest.approx(anew, abs=1e-9), (index, game.turn, origin, target)
                            checked += 1
                    elif key[0] == "views":
                        for area, view in known.items():
                            assert view == player._view_of(game, key[1], area), (index, game.turn, area)
            game.apply(choice)
    assert checked > 10_000


def scores(scenario, players, games=4, seed=9):
    records = run_study(Study(scenario, {}, players, games, seed))
    assert not [r.error for r in records if r.error]
    return [r.result["scores"]["japan"] - r.result["scores"]["allies"] for r in records]


def test_the_heuristic_player_beats_random_play_on_both_sides(scenario):
    """The Japanese heuristic gains more against random Allies than random Japan does, and the
    Allied heuristic concedes less to random Japan than random Allies do (VP margins)."""
    random_margin = np.mean(scores(scenario, {"japan": "random", "allies": "random"}))
    assert np.mean(scores(scenario, {"japan": "heuristic", "allies": "random"})) > random_margin + 5
    assert np.mean(scores(scenario, {"japan": "random", "allies": "heuristic"})) < random_margin - 5


def new(gj69, seed=1):
    return gj69.new_game({}, np.random.default_rng(seed))


def test_the_heuristic_keeps_its_reaction_cards_for_the_enemy_5_2_10(gj69):
    """A normal action is paid with a card the player needs least: never Ambush or Force Z
    while another card will do (§5.2(1), §10)."""
    game = new(gj69)
    for card in ("j01", "j03", "j05", "j07", "j12", "j14", "j16"):
        game.apply(("take", card))
    for card in ("a07", "a08", "a16", "a04", "a11"):
        game.apply(("take", card))
    allies = make_player("heuristic", gj69, "allies", np.random.default_rng(1))
    japan = make_player("heuristic", gj69, "japan", np.random.default_rng(2))
    for _ in range(400):
        if game.is_terminal() or game.round > 1:
            break
        player = japan if game.current_player == "japan" else allies
        action = player.choose(game)
        if action[0] == "normal":
            hand = game.decks[game.current_player].hand
            reaction = gj69.cards[action[1]].reaction
            assert not reaction or all(gj69.cards[c].reaction for c in hand), (action, hand)
        game.apply(action)


def test_the_heuristic_answers_an_attack_with_ambush_10(gj69):
    """When Japan attacks Malay, the Allied heuristic plays Ambush: its eight ready infantry
    strike the attacking group first, on its used face (§10(4)-(5)); a weak garrison (Hong
    Kong: 1 infantry and the fortress) keeps the card for a better moment."""
    allies = make_player("heuristic", gj69, "allies", np.random.default_rng(1))
    calm = make_player("heuristic:reactions=false", gj69, "allies", np.random.default_rng(1))
    for area, unit, wanted in (("malay", "ija-15a-infantry", ("react", "a07", "")),
                               ("hong-kong", "ija-23a-infantry", ("no-reaction",))):
        game = new(gj69)
        game.forces.add(area, unit, READY, 4)
        game.counters[unit] += 4
        for card in ("j01", "j03", "j05", "j07", "j12", "j14", "j16"):
            game.apply(("take", card))
        for card in ("a07", "a09", "a11", "a12", "a13"):
            game.apply(("take", card))
        game.apply(("normal", "j03"))
        game.apply(("area", area))
        while game.step == "group-units":
            add = ("add", unit, READY)
            game.apply(add if add in game.legal_actions() else ("done",))
        if game.step == "action":                  # in Malay attacking is all they can do
            game.apply(("attack",))
        assert game.step == "react"
        assert allies.choose(game) == wanted, area
        assert calm.choose(game) == ("no-reaction",)


def test_playtest_games_command_plays_gj69_end_to_end(tmp_path):
    """`sandtable playtest games` on GJ69: its settings listed, a report in VP by round with
    the page beside it; a setting the game does not take is a usage error (exit 2)."""
    import subprocess
    import sys
    root = Path(__file__).parent.parent

    def run(*args):
        return subprocess.run([sys.executable, "-m", "sandtable", "playtest", "games", str(SCENARIO),
                               *args], capture_output=True, text=True, cwd=root)

    listed = run("--option", "list")
    assert listed.returncode == 0 and "last-turn=7|8|9 (default 8)" in listed.stdout
    assert "hands=choose|draw" in listed.stdout and "fortress-areas=true|false" in listed.stdout
    done = run("--games", "3", "--players", "random", "--workers", "1", "--check",
               "--option", "last-turn=7", "--report", str(tmp_path / "report"))
    assert done.returncode == 0, done.stderr
    assert "VP by round" in done.stdout and "rules error" not in done.stdout
    assert "game length: median 7 rounds" in done.stdout
    assert (tmp_path / "report" / "index.html").is_file()
    wrong = run("--games", "1", "--option", "last-turn=10")
    assert wrong.returncode == 2 and "choose one of 7, 8, 9" in wrong.stderr
