"""GJ69 for a search: clones (engine/gj69/clone.py), the standing (engine/gj69/standing.py),
the heuristic's plans, and the search player end to end.

Clones are checked by the clone contract of tests/helpers.py on random games of every option
set, taken both at checkpoints (an impulse, a card taken into the hand: a copy of the data) and
inside impulses (a replay), and on heuristic games at every checkpoint of a turn.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from engine import load_system
from engine.game import ReplayClone
from engine.gj69.damage import READY, USED
from engine.players import make_player
from sandtable.scenario import load_scenario
from tests.helpers import check_clones, observed

SCENARIO = Path(__file__).parent.parent / "scenarios" / "gj69-southern-operation"
OPTION_SETS = [
    {},
    {"hands": "draw"},
    {"longer-game": True, "hiryu-soryu": True, "indomitable": True},
    {"holidays-japan": True, "holidays-allies": True, "macarthur": False, "fortress-areas": False,
     "nationalist-army": False, "last-turn": "7"},
]


@pytest.fixture(scope="module")
def gj69():
    return load_system(load_scenario(SCENARIO))


def random_steps(system, options: dict, seed: int) -> list[str]:
    """The step of each decision of check_clones' random game (the same chooser)."""
    state = system.new_game(options, np.random.default_rng(seed))
    chooser = np.random.default_rng([seed, 1])
    steps = []
    while not state.is_terminal():
        steps.append(state.step)
        actions = state.legal_actions()
        state.apply(actions[int(chooser.integers(len(actions)))])
    return steps


# -- clones ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("number", range(len(OPTION_SETS)))
def test_clones_keep_the_contract_at_checkpoints_and_inside_impulses(gj69, number):
    """At checkpoints (impulses, hands) and inside impulses alike, a clone looks like its game,
    leaves it untouched when played on with other dice, and reaches its end given its actions."""
    options, seed = OPTION_SETS[number], 11 + number
    steps = random_steps(gj69, options, seed)
    checkpoints = [i for i, s in enumerate(steps) if s in ("impulse", "choose-cards")]
    inside = [i for i, s in enumerate(steps) if s not in ("impulse", "choose-cards")]
    chosen = checkpoints[::max(1, len(checkpoints) // 8)] + inside[::max(1, len(inside) // 4)]
    assert len(chosen) >= 10
    assert check_clones(gj69, options, seed, tuple(sorted(chosen)), wander=200) == len(steps)


def test_a_clone_at_a_checkpoint_copies_the_position_without_replaying(gj69, monkeypatch):
    """At an impulse or a hand's card the clone is a copy of the data (no replay); inside an
    impulse it is a replay of the game's actions."""
    replays = []
    real = ReplayClone.clone
    monkeypatch.setattr(ReplayClone, "clone", lambda self: replays.append(self.step) or real(self))
    game = gj69.new_game({}, np.random.default_rng(3))
    players = {side: make_player("heuristic", gj69, side, np.random.default_rng(3)) for side in gj69.sides}
    seen = set()
    while game.round < 3:
        twin = game.clone()
        assert observed(twin) == observed(game)
        assert twin.forces is not game.forces and twin.decks["japan"] is not game.decks["japan"]
        seen.add(game.step)
        game.apply(players[game.current_player].choose(game))
    assert {"impulse", "choose-cards", "group-area", "action"} <= seen
    assert replays and not {"impulse", "choose-cards"} & set(replays)


def test_heuristic_games_cloned_at_every_checkpoint_reach_the_same_end(gj69):
    """Heuristic play: at every checkpoint of the second turn a clone, given the game's own
    later actions, reaches its result and chronicle; played on with other dice it leaves the
    game as it was."""
    game = gj69.new_game({}, np.random.default_rng(5))
    players = {side: make_player("heuristic", gj69, side, np.random.default_rng(5)) for side in gj69.sides}
    clones, moves = [], []
    while not game.is_terminal():
        if game.round == 2 and game.at_checkpoint():
            clones.append((len(moves), game.clone(), observed(game)))
            other = game.clone()
            other.reseed(99)
            wanderers = {s: make_player("heuristic", gj69, s, np.random.default_rng(9)) for s in gj69.sides}
            while not other.is_terminal() and other.round < 3:
                other.apply(wanderers[other.current_player].choose(other))
            assert observed(game) == clones[-1][2]
        moves.append(players[game.current_player].choose(game))
        game.apply(moves[-1])
    assert len(clones) > 15
    for done, twin, _ in clones:
        for action in moves[done:]:
            twin.apply(action)
        assert twin.result() == game.result()
        assert twin.chronicle.as_dict() == game.chronicle.as_dict()


def test_clone_and_game_changing_the_map_keep_their_own_caches(gj69):
    """Forces versions are unique in the process: a clone and its game, each changed once
    after the copy, see their own sea transports (§7.5), though they share the movement
    rules' caches, keyed by the version."""
    game = gj69.new_game({}, np.random.default_rng(1))
    mover = game.movement.mover("japan", [("ija-25a-infantry", 1)])
    before = game.movement.transport_destinations(game.forces, mover, "luzon-strait")
    twin = game.clone()
    assert twin.movement.transport_destinations(twin.forces, mover, "luzon-strait") == before
    game.forces.set_control("malay", "japan")
    twin.forces.set_control("pacific-ocean", "allies")       # no passage to the South West Pacific
    assert "south-west-pacific" in game.movement.transport_destinations(game.forces, mover, "luzon-strait")
    assert "south-west-pacific" not in twin.movement.transport_destinations(twin.forces, mover,
                                                                            "luzon-strait")
    assert game.forces.version != twin.forces.version


# -- the standing ----------------------------------------------------------------------------------
def test_the_projected_margin_at_the_start_15_0(gj69):
    """At the start the Allies hold 17 VP of land areas (§15.0(2)), three fortresses worth 1 VP
    at the end of each of the 8 turns (§15.0(1)①, §16.1(3)) and the three oil fields, each
    1.8 VP on average (markers of 1, 1, 2, 2 and 3 VP, §3.0(5), §15.0(3))."""
    game = gj69.new_game({}, np.random.default_rng(1))
    assert game.projected_margin("japan") == pytest.approx(-(17 + 3 * 8 + 3 * 1.8))
    assert game.projected_margin("allies") == pytest.approx(17 + 3 * 8 + 3 * 1.8)
    assert game.standing("japan") + game.standing("allies") == pytest.approx(1.0)
    assert game.standing("japan") < 0.05


def test_the_standing_rises_with_what_wins_15_0(gj69):
    """VP, a fortress taken, a contested area and an oil field the Allies turned over each move
    the projection by what they are worth at the end."""
    def margin(change) -> float:
        game = gj69.new_game({}, np.random.default_rng(1))
        change(game)
        return game.projected_margin("japan")

    start = margin(lambda game: None)
    assert margin(lambda game: game.vp.update(japan=2.0)) == pytest.approx(start + 2)
    assert margin(lambda game: game.vp.update(allies=0.5)) == pytest.approx(start - 0.5)

    def take_manila(game):
        game.forces.clear("manila")
        game.forces.set_control("manila", "japan")
    # Manila's 3 VP change sides (§15.0(2)) and the Allies lose its VP of 8 turn ends (§16.1(3))
    assert margin(take_manila) == pytest.approx(start + 2 * 3 + 8)
    # 8 Japanese infantry in Malay: 4 hits an attack (attack 3, §11.1) against the 16 points
    # that drive 8 ready Commonwealth infantry out (durability 1, twice, §11.31), which recover
    # (§12), 8 turns left: log-odds -3.6 + 7.5 * 4 / 16 - 1.0 + 0.6 * 8 that Japan takes
    # Malay's 1 VP (standing.CAPTURE)
    taken = 1 / (1 + math.exp(-(-3.6 + 7.5 * 4 / 16 - 1.0 + 0.6 * 8)))
    assert margin(lambda game: game.forces.add("malay", "ija-25a-infantry", READY, 8)) \
        == pytest.approx(start + 2 * taken)
    # with the British infantry turned over and cut off, the odds rise
    def cut_off(game):
        game.forces.add("malay", "ija-25a-infantry", READY, 8)
        game.forces.turn("malay", "uk-infantry", USED, 8)
        game.forces.set_control("indian-ocean", "japan")
    assert margin(cut_off) > margin(lambda game: game.forces.add("malay", "ija-25a-infantry", READY, 8))
    # an Allied oil field turned over is destroyed on 5 or 6 at each of the 8 turn ends (§4.0(4)①)
    assert margin(lambda game: setattr(game.oil["brunei"], "exposed_by", "allies")) \
        == pytest.approx(start + 1.8 * (1 - (2 / 3) ** 8))

    game = gj69.new_game({}, np.random.default_rng(1))
    low = game.standing("japan")
    game.vp["japan"] = 10.0
    assert game.standing("japan") > low


def test_the_standing_of_a_finished_game_is_its_result(gj69):
    game = gj69.new_game({"last-turn": "7", "shorter-game": True}, np.random.default_rng(2))
    players = {side: make_player("heuristic", gj69, side, np.random.default_rng(2)) for side in gj69.sides}
    while not game.is_terminal():
        game.apply(players[game.current_player].choose(game))
    winner = game.result().winner
    assert winner is not None
    assert game.standing(winner) == 1.0 and game.standing(game.enemy(winner)) == 0.0


# -- the heuristic's plans, and the search ---------------------------------------------------------
def first_impulse(gj69, seed: int = 1):
    game = gj69.new_game({}, np.random.default_rng(seed))
    for card in ["j01", "j03", "j05", "j07", "j13", "j14", "j15", "a01", "a07", "a08", "a09", "a11"]:
        game.apply(("take", card))
    return game


def test_plans_are_the_impulses_own_choice_first_6_1(gj69):
    """At an impulse the heuristic proposes its own choice first, then other kinds of action
    (a normal action, an air operation, card actions), all legal and distinct; passing only
    when it is its own choice; elsewhere, and for the other side, none."""
    game = first_impulse(gj69)
    japan = make_player("heuristic", gj69, "japan", np.random.default_rng(1))
    plans = japan.plans(game)
    own = make_player("heuristic", gj69, "japan", np.random.default_rng(1)).choose(game)
    assert plans[0].content.action == own
    actions = [plan.content.action for plan in plans]
    assert ("pass",) not in actions and all(game.is_legal(a) for a in actions)
    assert len({(p.content.action, p.content.group and (p.content.group[0], p.content.group[2]))
                for p in plans}) == len(plans)
    assert {a[0] for a in actions[:3]} == {"play", "normal", "air"}
    assert make_player("heuristic", gj69, "allies", np.random.default_rng(1)).plans(game) == []
    game.apply(own)
    assert japan.plans(game) == []                   # the groups carry the impulse out


def test_a_plan_followed_is_played_with_its_group_6_2(gj69):
    """`follow` makes the next decisions carry the plan out: its impulse action, then its
    group's area, units and action; a fork remembers a plan it was given."""
    game = first_impulse(gj69)
    japan = make_player("heuristic", gj69, "japan", np.random.default_rng(1))
    plan = next(p for p in japan.plans(game) if p.content.action[0] == "normal")
    area, units, action = plan.content.group
    twin = japan.fork(np.random.default_rng(2))
    twin.follow(game, plan)
    assert twin.choose(game) == plan.content.action
    game.apply(plan.content.action)
    assert twin.choose(game) == ("area", area)
    game.apply(("area", area))
    added = {}
    while game.step == "group-units":
        choice = twin.choose(game)
        if choice[0] == "add":
            added[choice[1:]] = added.get(choice[1:], 0) + 1
        game.apply(choice)
    assert sum(added.values()) <= sum(units.values())
    if game.step == "action":
        assert twin.choose(game) == action


@pytest.mark.parametrize("spec, judged_at", [
    ("search", "the side's next impulse"),
    ("search:horizon=1", "the next turn"),
])
def test_a_look_ahead_plays_to_the_sides_next_impulse_6_0(gj69, monkeypatch, spec, judged_at):
    """By default a GJ69 look-ahead plays the plan's impulse and the enemy's answer, and judges
    the position at Japan's next impulse (§6.0: the players take impulses in turn), or earlier
    where the turn ends first; every plan of the decision is looked at. With a horizon set it
    plays the rounds asked for: to the next turn."""
    game = first_impulse(gj69)
    judged = []
    standing = type(game).standing

    def watch(self, side):
        if self is not game:
            judged.append((self.turn, self.step, self.current_player, self.checkpoint))
        return standing(self, side)

    monkeypatch.setattr(type(game), "standing", watch)
    player = make_player(spec, gj69, "japan", np.random.default_rng(3))
    player.choose(game)
    plans = len(player.base.plans(game)[:4])
    assert player.lookaheads == len(judged) and judged
    if judged_at == "the next turn":
        assert all(turn == game.turn + 1 for turn, *_ in judged)
        return
    assert player.lookaheads == 8 and plans == 4          # every plan, twice
    for turn, step, seat, checkpoint in judged:
        assert (turn, step, seat) == (game.turn, "impulse", "japan")
        assert checkpoint[0] == "impulse" and checkpoint[3] > game.checkpoint[3]


def test_a_searching_japan_plays_its_hand_rather_than_pass_it_away_4_0(gj69, monkeypatch):
    """§4.0(3), §4.0(4)③: the turn ends when both sides pass in a row, and the cards still in
    hand go back unused. A look-ahead to the side's next impulse cannot see what a card kept is
    worth, so a search that weighed passing against acting passed and ended turns with about
    seven action cards a game unused; the search weighs passing only where the heuristic itself
    passes. Over two whole games Japan ends its turns with at most one card in hand that is not
    a reaction card (kept for the enemy's impulses, §10)."""
    from engine.game import Chronicle
    left = []
    blunder = Chronicle.blunder

    def watch(self, round_, kind, side, amount=1):
        if kind == "cards-unused" and side == "japan":
            left.append(game.decks["japan"].hand[:])
        return blunder(self, round_, kind, side, amount)

    monkeypatch.setattr(Chronicle, "blunder", watch)
    for seed in (1, 2):
        game = gj69.new_game({}, np.random.default_rng(seed))
        players = {"japan": make_player("search", gj69, "japan", np.random.default_rng(seed)),
                   "allies": make_player("heuristic", gj69, "allies", np.random.default_rng(seed))}
        while not game.is_terminal():
            game.apply(players[game.current_player].choose(game))
    actions = [card for hand in left for card in hand if not gj69.cards[card].reaction]
    assert len(actions) <= 1, actions


def test_search_plays_japan_and_the_allies_the_same_for_the_same_seed(gj69):
    """A search player's look-aheads are seeded by its own generator: the same seed plays the
    same game; it searched impulses and played look-ahead games."""
    def play(seed: int):
        game = gj69.new_game({"last-turn": "7", "shorter-game": True}, np.random.default_rng(seed), 2)
        players = {"japan": make_player("search:budget=2", gj69, "japan", np.random.default_rng(seed)),
                   "allies": make_player("search:budget=2", gj69, "allies", np.random.default_rng(seed + 1))}
        moves = []
        while not game.is_terminal():
            moves.append(players[game.current_player].choose(game))
            game.apply(moves[-1])
        return moves, players
    first, players = play(4)
    second, _ = play(4)
    assert first == second
    assert all(p.searched > 3 and p.lookaheads >= 2 * p.searched for p in players.values())


def test_playtest_games_with_a_searching_side_end_to_end(tmp_path):
    """`sandtable playtest games ... --players japan=search` plays and reports."""
    import json
    import subprocess
    import sys
    root = Path(__file__).parent.parent
    done = subprocess.run([sys.executable, "-m", "sandtable", "playtest", "games", str(SCENARIO),
                           "--games", "1", "--workers", "1", "--players", "japan=search:budget=1",
                           "--option", "last-turn=7", "--json"],
                          capture_output=True, text=True, cwd=root)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["meta"]["players"] == {"japan": "search:budget=1", "allies": "heuristic"}
    assert (report["finished"], report["failed"], report["errors"]) == (1, 0, [])
    assert report["length"]["median"] == 7
