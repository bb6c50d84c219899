"""Allies vs. Axis played whole: every rule by the page's section (seed 003), random games that
end with no broken invariant, replays that play back, and the heuristic player.

Chance comes from a scripted generator where a test needs a given spin, so each rule is checked
on the exact situation the page describes.
"""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from engine.allies_vs_axis import AvAPosition
from engine.game import IllegalAction
from engine.replay import Replay, content_hash, play_back
from engine.system import Contingent, EngineError, load_system
from playtest.study import Study, run_study
from sandtable.scenario import load_scenario
from validators.conditions import evaluate

from helpers import REPO

SCENARIO = load_scenario(REPO / "scenarios" / "allies-vs-axis")
SYSTEM = load_system(SCENARIO)
MODES = ("regular", "les-miserables", "fierce-battle", "no-italy")


class Script:
    """A generator that spins what the test says; draws below the luck always draw."""

    def __init__(self, spins=(), rng=None):
        self.spins = list(spins)
        self.rng = rng or np.random.default_rng(0)

    def integers(self, low, high):
        if self.spins:
            face = self.spins.pop(0)
            assert low <= face < high
            return face
        return self.rng.integers(low, high)

    def random(self):
        return self.rng.random()

    def permutation(self, n):
        return self.rng.permutation(n)


def new(spins=(), mode="regular", **settings):
    return SYSTEM.new_game({"mode": mode, **settings}, Script(spins))


def square(space: str) -> int:
    return SYSTEM.board.square_of[space]


def end_turn(game):
    """Let the current player end the turn doing nothing more."""
    turn = (game.current_player, game.round)
    while (game.current_player, game.round) == turn and not game.is_terminal():
        for quiet in (("done",), ("end",), ("stay",)):
            if game.is_legal(quiet):
                game.apply(quiet)
                break
        else:
            game.apply(game.legal_actions()[0])


def units(game, side):
    return {u: n for u, n in game.reserve[side].items() if n}


# -- "Game modes" ---------------------------------------------------------------------------------

@pytest.mark.parametrize("mode, allies, axis, rate", [
    ("regular", {"united-kingdom", "france"}, {"germany", "italy"}, "3/10"),
    ("les-miserables", {"united-kingdom"}, {"germany"}, "3/10"),
    ("fierce-battle", {"united-kingdom", "france"}, {"germany", "italy"}, "1/2"),
    ("no-italy", {"united-kingdom", "united-states"}, {"germany", "japan"}, "2/5"),
])
def test_game_modes_starting_territories_and_penalty_rate(mode, allies, axis, rate):
    """Game modes: each mode's starting territories and penalty rate (30% normal, 50% in
    Fierce Battle, medium between); the pawns start on the United Kingdom and Germany
    ("Official rules")."""
    game = new(mode=mode)
    owned = {side: {s for s, o in game.owner.items() if o == side} for side in ("allies", "axis")}
    assert owned == {"allies": allies, "axis": axis}
    assert game.pawn == {"allies": square("united-kingdom"), "axis": square("germany")}
    assert str(game.formulas.penalty_cost(10) / 10) == rate


def test_collecting_resources_at_the_start_of_the_turn():
    """Collecting resources: before the spin, every owned territory yields (Regular: the
    United Kingdom and France)."""
    game = new()
    assert game.phase == "spin"
    assert game.money["allies"] == 400 + 350
    assert units(game, "allies") == {"infantry": 6 + 5, "tank": 1 + 2, "aircraft": 2 + 1,
                                     "battleship": 1 + 1}
    assert game.money["axis"] == 0          # the Axis collects at the start of its own turn


def test_depleted_resources_in_les_miserables():
    """Game modes: Les Misérables depletes resources (half the yield, reconstructed, rounded
    half up: the United Kingdom's 400, 6, 1, 2, 1 give 200, 3, 1, 1, 1)."""
    game = new(mode="les-miserables")
    assert game.money["allies"] == 200
    assert units(game, "allies") == {"infantry": 3, "tank": 1, "aircraft": 1, "battleship": 1}


def test_special_and_secret_territories_yield_too():
    """Collecting resources: every owned territory, secret and special ones included, yields."""
    game = new(mode="no-italy")
    assert game.money["allies"] == 400 + 600      # the United Kingdom and the United States


# -- "Spinner", "General rules" -------------------------------------------------------------------

def test_the_spinner_moves_the_pawn_clockwise_round_the_ring():
    """Spinner and General rules: spin a six-sided spinner, move that many squares clockwise;
    square 36 leads to square 1."""
    game = new(spins=[4])
    assert game.legal_actions() == [("spin",)]
    game.apply(("spin",))
    assert game.square.id == "neutral-bank"            # square 1 + 4 = square 5
    game = new(spins=[3])
    game.pawn["allies"] = square("portugal")          # square 35
    game.apply(("spin",))
    assert game.square.id == "ireland"                 # 35 + 3 = 38 = square 2


def test_spins_are_uniform_from_one_to_six():
    """Spinner: a six-sided die; 3000 spins of random games fall in each face about equally."""
    faces = []

    class Recording(Script):
        def integers(self, low, high):
            faces.append(int(self.rng.integers(low, high)))
            return faces[-1]

    game = SYSTEM.new_game({}, Recording(rng=np.random.default_rng(3)))
    chooser = np.random.default_rng(4)
    while len(faces) < 3000:
        if game.is_terminal():
            game = SYSTEM.new_game({}, Recording(rng=np.random.default_rng(len(faces))))
        actions = game.legal_actions()
        game.apply(actions[int(chooser.integers(len(actions)))])
    counts = np.bincount(faces, minlength=7)
    assert counts[0] == 0 and len(counts) == 7
    assert all(abs(n - len(faces) / 6) < 4 * (len(faces) * 5 / 36) ** 0.5 for n in counts[1:])


# -- "Strategic move decision", "Strategic move cost" ------------------------------------------------

def test_strategic_moves_cost_more_each_time_and_need_the_money():
    """Strategic move decision / cost: after landing, a player with the money may buy one move,
    1 or 2 squares forward or back; $M 1000 x (moves used + 1), twice that for 2 squares."""
    game = new(spins=[2])
    game.money["allies"] = 2500
    game.apply(("spin",))                              # lands on fortune-1, square 3
    assert game.phase == "strategic-move"
    assert set(game.legal_actions()) == {("strategic-move", m) for m in
                                         ("forward-1", "back-1", "forward-2", "back-2")} | {("stay",)}
    game.apply(("strategic-move", "back-1"))           # to Ireland, square 2
    assert game.square.id == "ireland" and game.money["allies"] == 1500
    assert game.counters["allies"]["strategic_moves"] == 1
    assert game.phase == "act"
    end_turn(game)
    end_turn(game)                                     # the Axis' turn
    game.money["allies"] = 3999
    game.spins = None
    game.rng.spins = [1]
    game.apply(("spin",))                              # 1-step moves now cost $M 2000
    assert ("strategic-move", "forward-1") in game.legal_actions()
    assert ("strategic-move", "forward-2") not in game.legal_actions()   # $M 4000


def test_no_strategic_move_without_the_money():
    game = new(spins=[1])
    game.apply(("spin",))                              # $M 750: the phase is passed over
    assert game.phase == "act" and game.square.id == "ireland"


# -- "Neutral territories", "Treaty cost" -----------------------------------------------------------

def test_neutral_territory_is_invaded_with_infantry_only():
    """Neutral territories: only infantry invades, and needs the neutral defence power (Ireland
    8); every invading unit is lost (Invading hostile territories)."""
    game = new(spins=[1])
    game.apply(("spin",))
    assert game.is_legal(("invade", "infantry", 8))
    assert not game.is_legal(("invade", "infantry", 7))
    assert not game.is_legal(("invade", "tank", 3))
    assert not game.is_legal(("invade", "infantry", 8, "tank", 1))
    assert all(a[1::2] == ("infantry",) for a in game.legal_actions() if a[0] == "invade")
    game.apply(("invade", "infantry", 9))
    assert game.owner["ireland"] == "allies" and game.reserve["allies"]["infantry"] == 11 - 9
    assert game.chronicle.captures == [(1, "ireland", None, "allies")]
    assert not game.is_legal(("treaty",))              # one action on the square


def test_treaty_cost_grows_with_each_treaty():
    """Treaty cost: defence power x ($M 20 + $M 10 x treaties signed before): Ireland (8) costs
    $M 160 first; Albania (10) after one treaty costs $M 300, as the page's example."""
    game = new(spins=[1])
    game.apply(("spin",))
    game.apply(("treaty",))
    assert game.money["allies"] == 750 - 160 and game.owner["ireland"] == "allies"
    assert game.counters["allies"]["treaties_signed"] == 1
    albania = SYSTEM.board.squares[square("albania")]
    assert game.treaty_cost("allies", albania) == 300


def test_neutral_secret_territory_costs_500_and_is_not_invaded():
    """Neutral secret territories: building a base costs a fixed $M 500; Invading secret
    territories: armies cannot invade them."""
    game = new(spins=[4])
    game.apply(("spin",))
    assert game.square.id == "neutral-bank"
    assert [a for a in game.legal_actions() if a[0] in ("invade", "treaty")] == []
    assert not game.is_legal(("invade", "infantry", 11))
    game.apply(("build-base",))
    assert game.owner["neutral-bank"] == "allies" and game.money["allies"] == 250


def test_special_territory_allies_with_its_own_side_only():
    """Neutral special territories: the United States allies with the Allies, Japan with the
    Axis, for a fixed $M 2000; the other side cannot (without the special strategy card)."""
    game = new(spins=[1])
    game.money["allies"] = 5000
    game.pawn["allies"] = square("romania")
    game.apply(("spin",))
    game.apply(("stay",))
    assert game.square.id == "united-states" and ("ally",) in game.legal_actions()
    game.apply(("ally",))
    assert game.owner["united-states"] == "allies" and game.money["allies"] == 3000
    game = new(spins=[1])
    game.money["allies"] = 5000
    game.pawn["allies"] = square("soviet-union")
    game.hand["allies"].append(SYSTEM.board.cards["change-of-alliance"])
    game.apply(("spin",))
    game.apply(("stay",))
    assert game.square.id == "japan"
    assert ("ally",) not in game.legal_actions() and not game.is_legal(("invade", "infantry", 11))
    game.apply(("play", "change-of-alliance"))
    assert game.owner["japan"] == "allies" and game.money["allies"] == 3000


# -- "Defending territories", "Recruiting armies" ----------------------------------------------------

def test_defending_only_where_one_lands_and_battleships_at_seaports():
    """Defending territories: armies move into an owned territory only on landing there;
    battleships only where there is a seaport."""
    game = new(spins=[1])
    assert not game.is_legal(("defend", "infantry", 1))    # before the spin
    game.owner["ireland"] = "allies"
    game.apply(("spin",))
    assert ("defend", "battleship", 2) in game.legal_actions()   # Ireland has a seaport
    game.apply(("defend", "infantry", 4))
    game.apply(("defend", "battleship", 2))
    assert game.defenders["ireland"] == {"infantry": 4, "battleship": 2}
    assert game.defence_power("ireland") == 4 + 14 + 2            # two infantry support
    game = new(spins=[1])
    game.owner["poland"] = "allies"
    game.pawn["allies"] = square("germany")
    game.owner["germany"] = None
    game.apply(("spin",))
    assert game.square.id == "poland"
    assert not game.is_legal(("defend", "battleship", 1))
    assert game.is_legal(("defend", "tank", 3))


def test_recruiting_within_each_units_cap_and_the_money():
    """Recruiting armies: after landing; infantry $M 50 at most 24 a turn, tanks $M 140 at most
    16, aircraft $M 220 at most 10, battleships $M 300 at most 6."""
    game = new(spins=[1])
    game.money["allies"] = 100_000
    game.apply(("spin",))
    game.apply(("stay",))                                    # no strategic move
    assert not game.is_legal(("recruit", "infantry", 1))     # not while acting on the square
    game.apply(("done",))
    assert game.phase == "recruit"
    most = {a[1]: a[2] for a in game.legal_actions() if a[0] == "recruit"}
    assert most == {"infantry": 24, "tank": 16, "aircraft": 10, "battleship": 6}
    game.apply(("recruit", "infantry", 20))
    assert not game.is_legal(("recruit", "infantry", 5)) and game.is_legal(("recruit", "infantry", 4))
    assert game.money["allies"] == 100_000 - 20 * 50
    game = new(spins=[1])
    game.money["allies"] = 300
    game.apply(("spin",))
    game.apply(("done",))
    assert not game.is_legal(("recruit", "tank", 3)) and game.is_legal(("recruit", "tank", 2))


# -- "Hostile territories", "Penalty cost", jail and "Ransom cost" ------------------------------------

def hostile_ireland(defenders, spins=(1,)):
    game = new(spins=spins)
    game.owner["ireland"] = "axis"
    game.defenders["ireland"] = dict(defenders)
    game.defence_changed("ireland")
    return game


def test_landing_on_an_enemy_territory_costs_the_penalty_in_whole_units():
    """Hostile territories and Penalty cost: defence power x the penalty rate (30%), paid in
    units, weakest first, a unit partly needed lost whole."""
    game = hostile_ireland({"infantry": 10, "tank": 10})    # defence 10 + 30 + 10 = 50 -> 15
    game.apply(("spin",))
    assert units(game, "allies") == {"tank": 1, "aircraft": 3, "battleship": 2}   # 11 inf, 2 tanks
    assert not game.jailed["allies"]


def test_losing_every_army_to_a_penalty_is_jail_and_the_ransom_goes_to_the_opponent():
    """Jail: a player who loses all available armies on a strong enemy territory is jailed;
    Ransom cost: $M 2000 x times jailed, paid to the opponent; without it the player stays."""
    game = hostile_ireland({"infantry": 200})
    game.apply(("spin",))
    assert game.jailed["allies"] and game.counters["allies"]["jailed"] == 1
    assert game.current_player == "axis"                  # the jailed player's turn ends
    game.money["allies"] = 5000 - 750                     # with the next yield: $M 5000
    game.rng.spins = [1]
    game.apply(("spin",))
    end_turn(game)
    assert game.current_player == "allies" and game.phase == "jail"
    assert set(game.legal_actions()) == {("pay-ransom",), ("stay",)}
    axis_money = game.money["axis"]
    game.apply(("pay-ransom",))
    assert game.money["allies"] == 3000 and game.money["axis"] == axis_money + 2000
    assert not game.jailed["allies"] and game.phase == "spin"
    assert game.chronicle.payouts == [(2, "ransom", "axis", 2000.0)]


def test_a_jailed_player_who_cannot_pay_stays():
    game = hostile_ireland({"infantry": 200})
    game.apply(("spin",))
    game.rng.spins = [1]
    game.apply(("spin",))
    game.apply(("done",))
    game.apply(("end",))                                  # the Allies cannot pay $M 2000 ...
    assert (game.current_player, game.round, game.phase) == ("axis", 2, "spin")
    assert game.jailed["allies"] and game.money["allies"] == 1500      # ... and stay


def test_an_enemy_territory_defended_by_nothing_falls_to_any_army():
    """Invading hostile territories: a territory is neutral only when nobody owns it; an enemy
    territory defended by nothing is invaded by any army, a single tank."""
    game = hostile_ireland({})
    game.apply(("spin",))
    assert game.is_legal(("invade", "tank", 1)) and game.is_legal(("invade", "battleship", 1))
    game.apply(("invade", "tank", 1))
    assert game.owner["ireland"] == "allies" and game.chronicle.battles[-1][3] == "axis"


def test_invasion_needs_power_at_least_the_defence():
    """Invading hostile territories: the invasion starts only when the invasion power is at least
    the defence power; the defenders are lost with the territory, and so are the invaders."""
    game = hostile_ireland({"infantry": 1}, spins=(1,))   # defence 1; penalty 0.3 -> 1 infantry
    game.reserve["allies"] = {"infantry": 5, "tank": 1, "aircraft": 0, "battleship": 0}
    game.defenders["ireland"] = {"infantry": 4, "tank": 1}      # 4 + 3 + 1 support = 8
    game.defence_changed("ireland")
    game.apply(("spin",))                                 # penalty 8 x 0.3 = 2.4: 3 infantry
    assert units(game, "allies") == {"infantry": 2, "tank": 1}
    assert not game.is_legal(("invade", "infantry", 2, "tank", 1))    # 5 < 8
    assert [a for a in game.legal_actions() if a[0] == "invade"] == []


def test_a_secret_base_falls_only_to_a_spy():
    """Invading secret territories: a secret base cannot be invaded; the spy card destroys it, the
    territory turns neutral, and the player may build a base there."""
    game = new(spins=[4])
    game.owner["neutral-bank"] = "axis"
    game.money["allies"] = 900                              # no strategic move ($M 1000)
    game.hand["allies"].append(SYSTEM.board.cards["spy"])
    game.apply(("spin",))
    assert [a for a in game.legal_actions() if a[0] == "invade"] == []
    assert game.owner["neutral-bank"] == "axis"           # the penalty: nothing defends it
    game.apply(("play", "spy"))
    assert game.owner["neutral-bank"] is None
    assert game.decks["strategy"].removed == [SYSTEM.board.cards["spy"]]   # removed after use
    game.apply(("build-base",))
    assert game.owner["neutral-bank"] == "allies"


def test_special_territory_is_invaded_once_a_side_owns_it():
    """Only secret territories are closed to armies: the United States, once the Allies own it,
    is a hostile territory to the Axis."""
    game = new(spins=[1], mode="no-italy")
    end_turn(game)
    game.pawn["axis"] = square("romania")
    game.rng.spins = [1]
    game.apply(("spin",))
    assert game.square.id == "united-states" and game.is_legal(("invade", "infantry", 1))


# -- "Fortune cards", "Strategy cards", luck -----------------------------------------------------

def test_fortune_cards_take_effect_at_once_and_strategy_cards_are_kept():
    """Fortune cards take effect at once; Strategy cards: most may be kept for later."""
    game = new(spins=[2], mode="fierce-battle")          # high luck: a landing always draws
    game.decks["fortune"].pile = [SYSTEM.board.cards["war-bonds"]]
    game.apply(("spin",))
    assert game.money["allies"] == 750 + 1000
    assert game.decks["fortune"].discards == [SYSTEM.board.cards["war-bonds"]]
    game = new(spins=[1], mode="fierce-battle")
    game.pawn["allies"] = square("finland")
    game.decks["strategy"].pile = [SYSTEM.board.cards["siege-of-leningrad"]]
    game.apply(("spin",))
    assert [c.id for c in game.hand["allies"]] == ["siege-of-leningrad"]
    game.apply(("play", "siege-of-leningrad"))
    assert game.skip["axis"] == 1
    end_turn(game)
    assert game.current_player == "allies" and game.round == 2   # the Axis missed its turn


@pytest.mark.parametrize("mode, chance", [("regular", 0.75), ("les-miserables", 1.0)])
def test_luck_is_the_chance_of_drawing_a_card(mode, chance):
    """Game modes: luck is the chance of drawing a fortune or strategy card (normal in Regular,
    higher elsewhere); 2000 landings draw within four standard deviations of that chance."""
    game = new(mode=mode)
    game.rng = np.random.default_rng(11)
    draws = 0
    for _ in range(2000):
        game.pawn["allies"] = square("strategy-1")
        before = len(game.hand["allies"]) + len(game.decks["strategy"].discards)
        game._draw("allies", "strategy", 0)
        draws += len(game.hand["allies"]) + len(game.decks["strategy"].discards) > before
        game.hand["allies"].clear()
        game.decks["strategy"] = type(game.decks["strategy"])(list(SYSTEM.board.decks["strategy"]))
    spread = 4 * (2000 * chance * (1 - chance)) ** 0.5
    assert abs(draws - 2000 * chance) <= spread


# -- "Game end" --------------------------------------------------------------------------------

def axis_takes_the_united_kingdom(**settings):
    game = new(spins=[1], **settings)
    end_turn(game)                                       # the Allies' turn, on Ireland
    game.pawn["axis"] = square("france")
    game.rng.spins = [1]
    game.apply(("spin",))
    game.apply(("invade", "infantry", 1))                 # nobody defends it yet
    return game


def test_sudden_death_ends_the_game_with_the_main_territory():
    """Game end, first main condition: sudden death, a player loses the main territory."""
    game = axis_takes_the_united_kingdom(end_condition="sudden-death")
    assert game.is_terminal() and game.result().winner == "axis"
    assert game.result().reason == "sudden-death" and game.result().round == 1


def test_conquest_needs_every_territory():
    """Game end, first main condition: conqueror, a player loses every territory."""
    game = axis_takes_the_united_kingdom()
    assert not game.is_terminal()                         # France is still the Allies'
    game = new(spins=[1])
    game.owner["france"] = None
    end_turn(game)
    game.pawn["axis"] = square("france")
    game.rng.spins = [1]
    game.apply(("spin",))
    game.apply(("invade", "infantry", 1))
    assert game.result().winner == "axis" and game.result().reason == "conquest"


def test_a_victory_condition_without_an_option_ends_the_game_under_its_id(tmp_path):
    """scenario.yaml `victory`: `option` may be left out; such a condition is always in play,
    and the game it ends is reported by the condition's id."""
    shutil.copytree(REPO / "scenarios" / "allies-vs-axis", tmp_path / "ava")
    manifest = tmp_path / "ava" / "scenario.yaml"
    text = manifest.read_text(encoding="utf-8")
    always = "- id: sudden-death-axis\n  name: Sudden death\n"
    assert text.count(always + "  text:") == 1
    start = text.index(always)
    option = text.index("  option: sudden-death\n", start)
    manifest.write_text(text[:option] + text[option + len("  option: sudden-death\n"):],
                        encoding="utf-8")
    system = load_system(load_scenario(tmp_path / "ava"))
    game = system.new_game({"mode": "regular"}, Script([1]))          # conquest, not sudden death
    end_turn(game)                                                    # the Allies' turn
    game.pawn["axis"] = square("france")
    game.rng.spins = [1]
    game.apply(("spin",))
    game.apply(("invade", "infantry", 1))                             # the United Kingdom falls
    assert game.is_terminal() and game.current_player is None
    result = game.result()
    assert (result.winner, result.reason, result.round) == ("axis", "sudden-death-axis", 1)


@pytest.mark.parametrize("limit, jailings, over", [
    ("jail-limit-3", 3, True), ("jail-limit-5", 3, False), ("jail-limit-5", 5, True)])
def test_jailed_three_or_five_times_loses(limit, jailings, over):
    """Game end, second main condition: jailed by the opponent 3 or 5 times."""
    game = hostile_ireland({"infantry": 200})
    game.options.discard("jail-limit-3")
    game.options.add(limit)
    game.victories = [v for v in SYSTEM.board.victory if v.option in game.options]
    game.counters["allies"]["jailed"] = jailings - 1
    game.apply(("spin",))
    assert game.is_terminal() == over
    if over:
        assert game.result().winner == "axis" and game.result().reason == "jail-limit"


def test_turn_limit_ends_after_100_turns_with_the_most_territories():
    """Game end, optional condition: after 100 turns (the page does not say who wins; the one
    with more territories, reconstructed)."""
    game = new(spins=[1, 1], turn_limit="turn-limit-100")
    game._round = 100
    game.apply(("spin",))
    game.apply(("treaty",))                               # the Allies: 3 territories to 2
    end_turn(game)
    end_turn(game)
    result = game.result()
    assert (result.winner, result.reason, result.round) == ("allies", "turn-limit", 100)
    assert result.scores == {"allies": 3.0, "axis": 2.0}


def test_victory_conditions_read_the_counters_through_the_condition_evaluator():
    game = new()
    game.counters["axis"]["jailed"] = 3
    condition = {"counter": {"owner": "axis", "counter": "jailed", "min": 3}}
    assert evaluate(condition, game.position()).met is True
    game.counters["axis"]["jailed"] = 2
    assert evaluate(condition, game.position()).met is False


def test_a_round_limit_ends_the_game_undecided():
    game = SYSTEM.new_game({}, np.random.default_rng(2), max_rounds=3)
    rng = np.random.default_rng(5)
    while not game.is_terminal():
        actions = game.legal_actions()
        game.apply(actions[int(rng.integers(len(actions)))])
    if game.result().reason == "round-limit":
        assert game.result().winner is None and game.result().round == 3
    assert game.result().round <= 3


def test_illegal_actions_are_refused():
    game = new()
    with pytest.raises(IllegalAction):
        game.apply(("treaty",))
    with pytest.raises(IllegalAction):
        game.apply(("invade", "infantry", -1))


# -- random games, replays, the heuristic -----------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_random_games_end_with_every_invariant_kept_and_replay_identically(mode, tmp_path):
    """A seeded slice of the benchmark's 500 random games per mode (benchmarks/): every game
    ends, no invariant breaks after any action, and each replay plays back to the same end."""
    study = Study(SCENARIO, {"mode": mode}, {"allies": "random", "axis": "random"}, games=10,
                  seed=2024, check=True, keep_actions=True)
    records = run_study(study)
    assert [r.error for r in records] == [None] * 10
    assert {r.result["reason"] for r in records} <= {"conquest", "jail-limit", "round-limit"}
    for record in records[:3]:
        replay = Replay(SCENARIO.id, content_hash(SCENARIO), SYSTEM.system, {"mode": mode},
                        record.seed, None, {}, list(record.moves))
        back = Replay.read(replay.write(tmp_path / f"{record.index}.jsonl"))
        end = play_back(back, SYSTEM, check_hash=False)
        assert end.result().as_dict() == record.result
        assert end.chronicle.as_dict() == record.chronicle


def test_the_heuristic_beats_the_random_player():
    """The heuristic player wins most games against random play, on either side."""
    wins = 0
    for side, other in (("allies", "axis"), ("axis", "allies")):
        study = Study(SCENARIO, {}, {side: "heuristic", other: "random"}, games=10, seed=9)
        wins += sum(r.result["winner"] == side for r in run_study(study))
    assert wins >= 15


def test_the_battle_calculator_and_the_game_agree_on_every_invasion():
    """A heuristic that asks the battle calculator about each army plays the very same games
    as one that reads the game's own powers (the benchmarks' baseline)."""
    plays = []
    for judge in ("game", "calculator"):
        spec = f"heuristic:judge={judge}"
        study = Study(SCENARIO, {"mode": "no-italy"}, {"allies": spec, "axis": spec}, games=2,
                      seed=6, keep_actions=True)
        plays.append([r.moves for r in run_study(study)])
    assert plays[0] == plays[1]
    assert any(a[0] == "invade" for game in plays[0] for _, a in game)


def test_heuristic_settings_restrict_it():
    study = Study(SCENARIO, {}, {"allies": "heuristic:treaties=false,strategic-moves=false",
                                 "axis": "heuristic"}, games=3, seed=4, keep_actions=True)
    moves = [m for r in run_study(study) for m in r.moves]
    assert not [a for seat, a in moves if seat == "allies" and a[0] in ("treaty", "strategic-move")]
    assert [a for seat, a in moves if seat == "axis" and a[0] == "treaty"]


# -- battles: what a territory is -------------------------------------------------------------

def test_battle_position_mode_has_help_and_the_pages_modes():
    from engine.options import settings_of_position
    from engine.system import BattlePosition
    mode, = settings_of_position(AvAPosition, BattlePosition)
    assert mode.choices == MODES and "penalty rate" in mode.help


def test_a_battle_with_no_defender_is_a_neutral_territory():
    """Neutral territories: nobody owns it; an owned one defended by battleships without a seaport
    (Poland) or by nothing is invaded by any army."""
    neutral = SYSTEM.invasion(AvAPosition("ireland", (Contingent("axis", {"infantry": 8}),), ()))
    assert neutral.neutral and neutral.may_start
    owned = SYSTEM.invasion(AvAPosition("poland", (Contingent("axis", {"tank": 1}),),
                                        (Contingent("allies", {"battleship": 3}),)))
    assert not owned.neutral and owned.defence_power == 0 and owned.may_start
    with pytest.raises(EngineError, match="while neutral it is allied with"):
        SYSTEM.invasion(AvAPosition("japan", (Contingent("allies", {"infantry": 8}),), ()))
    special = SYSTEM.invasion(AvAPosition("japan", (Contingent("allies", {"tank": 2}),),
                                          (Contingent("axis", {"infantry": 5}),)))
    assert special.may_start


def test_cli_battle_of_a_neutral_territory_needs_no_defender(capsys):
    """`playtest battle`: a neutral territory is invaded with no --defender; losses in $M."""
    from sandtable.cli import main
    folder = str(REPO / "scenarios" / "allies-vs-axis")
    assert main(["playtest", "battle", folder, "--attacker", "axis: 8 infantry", "--at", "ireland"]) == 0
    out = capsys.readouterr().out
    assert "defending nobody: a neutral territory, invaded with infantry only" in out
    assert "invasion power 8 against neutral defence power 8" in out
    assert "every invading unit is lost (400 $M)" in out
    assert "a treaty instead costs $M 160 (a player's first)" in out      # "Treaty cost"
    assert main(["playtest", "battle", folder, "--attacker", "axis: 1 tank", "--defender", "allies:",
                 "--at", "france", "--option", "mode=fierce-battle"]) == 0
    out = capsys.readouterr().out
    assert "Invasion of france (fierce-battle mode" in out and "defending allies: no units" in out
    assert "invasion power 3 against defence power 0" in out and "the invasion starts" in out
    assert main(["playtest", "battle", folder, "--attacker", "axis: 4 aircraft, 2 infantry",
                 "--defender", "allies: 10 infantry, 3 tank", "--at", "france",
                 "--option", "mode=fierce-battle"]) == 0
    out = capsys.readouterr().out                      # "Penalty cost": 50% in Fierce Battle
    assert "an enemy landing here pays a penalty of 11 power (50% of the defence power)" in out
    assert main(["playtest", "battle", folder, "--attacker", "axis: 3 tank", "--at", "ireland"]) == 2
    assert "only infantry may invade a neutral territory" in capsys.readouterr().err


def test_cli_battle_still_requires_a_defender_where_a_battle_needs_one(capsys):
    from sandtable.cli import main
    with pytest.raises(SystemExit) as stop:
        main(["playtest", "battle", str(REPO / "scenarios" / "aa50-1941"), "--attacker",
              "germany: 1 infantry", "--at", "karelia-ssr"])
    assert stop.value.code == 2
    assert "sandtable playtest battle: error: the following arguments are required: --defender" \
        in capsys.readouterr().err


def test_cli_plays_games_in_a_mode_and_replays_them(capsys, tmp_path):
    """`playtest games --option mode=...` plays the mode; `playtest replay` reaches the same end."""
    import json

    from sandtable.cli import main
    folder = str(REPO / "scenarios" / "allies-vs-axis")
    assert main(["playtest", "games", folder, "--games", "4", "--workers", "1", "--json",
                 "--option", "mode=les-miserables", "--option", "end-condition=sudden-death",
                 "--players", "axis=random", "--replays", str(tmp_path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["finished"] == 4 and report["failed"] == 0
    assert report["meta"]["options"]["mode"] == "les-miserables"
    assert set(report["reasons"]) <= {"sudden-death", "jail-limit", "round-limit"}
    assert {"territories", "money", "income", "army", "jailed"} <= set(report["series"])
    assert main(["playtest", "replay", str(tmp_path / "game-000002.jsonl")]) == 0
    assert "identical end" in capsys.readouterr().out
    assert main(["playtest", "games", folder, "--option", "list"]) == 0
    assert "mode=regular|les-miserables|fierce-battle|no-italy (default regular)" in \
        capsys.readouterr().out


def test_the_docs_show_what_the_battle_command_prints(capsys, monkeypatch):
    """docs/engine-systems.md shows an Allies vs. Axis battle's command and output: no drift."""
    import re
    import shlex

    from sandtable.cli import main
    monkeypatch.chdir(REPO)
    page = (REPO / "docs" / "engine-systems.md").read_text(encoding="utf-8")
    examples = re.findall(r"```console\n\$ sandtable (.*allies-vs-axis.*?)\n(.*?)```", page, re.S)
    assert examples
    for command, shown in examples:
        assert main(shlex.split(command)) == 0
        assert capsys.readouterr().out == shown, command
