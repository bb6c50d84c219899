"""Allies vs. Axis for a search: clones that copy the game's data, the standing, the
heuristic's plans for the decisions of a turn (where to land, whether to take the square, how
much to defend it, how much money to keep), and the search player on the command line. Rules
are the page's (seed 003), sections named in quotes."""
from __future__ import annotations

import numpy as np
import pytest

from engine.allies_vs_axis.game import COPIED
from engine.allies_vs_axis.heuristic import AvAHeuristic
from engine.allies_vs_axis.standing import features, jail_limit
from engine.players import available, make_player
from engine.system import load_system
from sandtable.scenario import load_scenario

from helpers import REPO, check_clones, observed

SCENARIO = REPO / "scenarios" / "allies-vs-axis"
SYSTEM = load_system(load_scenario(SCENARIO))
OPTION_SETS = [
    {},
    {"mode": "les-miserables", "jail_limit": "jail-limit-5", "turn_limit": "turn-limit-100"},
    {"mode": "fierce-battle", "end_condition": "sudden-death"},
    {"mode": "no-italy"},
]


def new(seed=1, **settings):
    return SYSTEM.new_game(settings, np.random.default_rng(seed))


def heuristic(side="allies", **options):
    return AvAHeuristic(SYSTEM, side, options, np.random.default_rng(0))


# -- clones ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS)
def test_clones_keep_the_contract_in_every_mode_and_end_condition(options):
    for seed in (1, 2):
        check_clones(SYSTEM, options, seed, clone_at=(0, 5, 40, 151, 330, 611), wander=150,
                     max_rounds=50)


def test_clones_of_heuristic_games_play_on_to_the_same_end():
    """A clone at every decision the heuristic offers plans for, given the rest of the
    parent's actions, ends as the parent did, chronicle and generator included."""
    state = new(3)
    players = {side: heuristic(side) for side in ("allies", "axis")}
    clones = []
    moves = []
    while not state.is_terminal() and state.round <= 40:
        player = players[state.current_player]
        if player.plans(state):
            clones.append((state.clone(), len(moves)))
        moves.append(player.choose(state))
        state.apply(moves[-1])
    assert len(clones) > 40
    for twin, done in clones[::5]:
        for action in moves[done:]:
            twin.apply(action)
        assert observed(twin) == observed(state)


def test_a_copy_shares_nothing_that_changes():
    state = new(4)
    for _ in range(60):
        state.apply(heuristic(state.current_player).choose(state))
    twin = state.clone()
    plain = (int, float, str, bool, type(None), tuple, frozenset)
    shared = {"board", "formulas", "yields", "options", "victories", "luck", "resources"}
    for name, value in vars(state).items():
        if name in COPIED:
            assert getattr(twin, name) is not value or value is None, name
        elif not isinstance(value, plain):
            assert name in shared, f"{name} is neither copied nor known to be shared"
    twin.reserve["allies"]["infantry"] += 5
    twin.money["axis"] += 1
    twin.decks["fortune"].discards.append(twin.board.decks["fortune"][0])
    assert state.reserve != twin.reserve and state.money != twin.money
    assert state.decks["fortune"].discards != twin.decks["fortune"].discards


def test_a_reseed_spins_anew():
    """"Spinner": a clone reseeded alike spins alike; reseeded apart, the spins part."""
    state = new(5)
    spins = []
    for seed in (7, 7, 8):
        twin = state.clone()
        twin.reseed(seed)
        faces = []
        for _ in range(12):                        # each side's first six spins
            before = twin.pawn[twin.current_player]
            side = twin.current_player
            twin.apply(("spin",))
            faces.append((twin.pawn[side] - before) % 36)
            while not twin.is_terminal() and twin.phase != "spin":
                twin.apply(heuristic(twin.current_player).choose(twin))
        spins.append(faces)
    assert spins[0] == spins[1] and spins[0] != spins[2]


# -- the standing ----------------------------------------------------------------------------------
def test_the_standing_reads_jailings_armies_income_and_the_end():
    """"Jail", "Game end": a jailing toward the limit lowers a side's chance, armies and income
    raise it; an ended game stands at its result."""
    state = new(6)
    assert jail_limit(state) == 3 and jail_limit(new(6, jail_limit="jail-limit-5")) == 5
    base = state.standing("allies")
    assert 0 < base < 1 and abs(state.standing("axis") - (1 - base)) < 1e-12
    state.counters["allies"]["jailed"] = 2
    jailed = state.standing("allies")
    assert jailed < base
    state.reserve["allies"]["tank"] += 10
    armed = state.standing("allies")
    assert armed > jailed and features(state)["army"] > 0
    state.owner["spain"] = "allies"
    assert state.standing("allies") > armed
    state.counters["allies"]["jailed"] = 3
    state.send_to_jail("axis")                           # any change checks the end
    assert state.is_terminal() and state.result().winner == "axis"
    assert state.standing("allies") == 0.0 and state.standing("axis") == 1.0


# -- the heuristic's plans -------------------------------------------------------------------------
def test_where_to_land_is_weighed_when_a_strategic_move_is_affordable():
    """"Strategic move decision": after the spin, staying and each move it can pay for."""
    state = new(7)
    state.money["allies"] = 5000
    state.apply(("spin",))
    assert state.phase == "strategic-move"
    player = heuristic()
    plans = player.plans(state)
    legal = state.legal_actions()
    assert [p.content[1][0] for p in plans][0] == player.choose(state)
    assert sorted(p.content[1][0] for p in plans) == sorted(legal)
    other = plans[1]
    player.follow(state, other)
    assert player.choose(state) == other.content[1][0]
    assert heuristic("allies", strategic_moves=False).plans(state) == []
    assert heuristic("axis").plans(state) == []           # not its turn


def on_square(space: str, side="allies", seed=8):
    """A game where `side` has just landed on `space` and acts there ("General rules")."""
    state = new(seed)
    state.pawn[side] = SYSTEM.board.square_of[space]
    state._phase, state._legal = "act", None
    return state


def test_taking_a_neutral_territory_is_weighed_treaty_invasion_or_not():
    """"Neutral territories": Norway (neutral defence 12) by treaty (the heuristic's own
    choice here), by the cheapest army of infantry (12, power 1 each), or left neutral."""
    state = on_square("norway")
    state.money["allies"] = 3000
    state.reserve["allies"]["infantry"] = 24
    player = heuristic()
    plans = player.plans(state)
    assert [(p.label, p.content[1]) for p in plans] == [
        ("own: treaty", (("treaty",),)),
        ("cheapest invasion", (("invade", "infantry", 12),)),
        ("leave it", (("done",),))]
    assert player.choose(state) == ("treaty",)
    player.follow(state, plans[1])
    assert player.choose(state) == ("invade", "infantry", 12)
    player.follow(state, plans[2])
    assert player.choose(state) == ("done",)
    assert heuristic(treaties=False).plans(state)[0].label == "own: invade"


def test_how_much_to_defend_is_weighed_on_landing_in_an_owned_territory():
    """"Defending territories": France with the spare armies in hand: the player's own share,
    none, some, all; each plan is the defend actions, followed one by one."""
    state = on_square("france")
    state.reserve["allies"] = {"infantry": 20, "tank": 10, "aircraft": 4, "battleship": 2}
    player = heuristic()
    plans = player.plans(state)
    assert [p.label for p in plans] == ["defend with 60%", "defend with 0%", "defend with 30%",
                                        "defend with 100%"]
    everything = plans[3].content[1]
    assert all(action[0] == "defend" for action in everything)
    player.follow(state, plans[3])
    done = []
    while (action := player.choose(state)) != ("done",):
        assert player.plans(state) == [] or done == []
        state.apply(action)
        done.append(action)
    assert tuple(done) == everything and plans[1].content[1] == ()


def test_how_much_money_to_keep_is_weighed_before_recruiting():
    """"Recruiting armies": what the player keeps, nothing, or a strategic move's price more;
    each plan played out on a copy, the game itself untouched."""
    state = new(9)
    state.money["allies"] = 2600
    state._phase, state._legal = "recruit", None
    before = observed(state)
    player = heuristic()
    plans = player.plans(state)
    assert observed(state) == before
    assert [p.label for p in plans] == ["recruit, keep $M 400", "recruit, keep $M 0",
                                        "recruit, keep $M 1400"]

    def spent(plan):
        return sum(SYSTEM.board.cost[a[1]] * a[2] for a in plan.content[1] if a[0] == "recruit")
    assert spent(plans[1]) > spent(plans[0]) > spent(plans[2])
    assert plans[2].content[1][-1] == ("end",)          # money left: the player ends it
    player.follow(state, plans[1])
    taken = []
    while state.current_player == "allies" and state.phase == "recruit":
        taken.append(player.choose(state))
        state.apply(taken[-1])
    assert tuple(taken) == plans[1].content[1]


# -- the search ------------------------------------------------------------------------------------
def test_search_plays_whole_games_from_either_side():
    assert "search" in available(SYSTEM)
    for side in ("allies", "axis"):
        state = new(10)
        players = {s: make_player("search:budget=2,horizon=1" if s == side else "heuristic",
                                  SYSTEM, s, np.random.default_rng([10, n]))
                   for n, s in enumerate(("allies", "axis"))}
        while not state.is_terminal() and state.round <= 30:
            state.apply(players[state.current_player].choose(state))
            assert not state.invariants()
        assert players[side].searched > 20


def test_the_command_line_plays_a_searching_side(capsys):
    from sandtable.cli import main
    code = main(["playtest", "games", str(SCENARIO), "--games", "1", "--workers", "1",
                 "--players", "axis=search:budget=2,horizon=1", "--max-rounds", "20", "--check"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("allies-vs-axis: 1 games, seed 1\n"
                          "players: Allies heuristic, Axis search:budget=2,horizon=1\n")
