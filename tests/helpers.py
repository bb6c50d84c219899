"""Small helpers shared by the tests."""
from __future__ import annotations

import os
from pathlib import Path

from sandtable.scenario import load_scenario
from validators import validate

FIXTURES = Path(__file__).resolve().parent / "fixtures"
REPO = Path(__file__).resolve().parent.parent


def diagnostics_of(folder: Path):
    return validate(load_scenario(folder))


def find_code(diagnostics, code: str):
    """The diagnostics with this code; fails the test with the full list when there is none."""
    found = [d for d in diagnostics if d.code == code]
    assert found, f"no {code} among: " + "; ".join(f"{d.code} {d.message}" for d in diagnostics)
    return found


def place(diagnostic, relative_to: Path) -> tuple[str, int, int]:
    """(file relative to a folder, line, column) of a diagnostic."""
    file = Path(os.path.abspath(diagnostic.file)).relative_to(os.path.abspath(relative_to)).as_posix()
    return file, diagnostic.line, diagnostic.column


def scenario_from_files(root: Path, files: dict):
    """A Scenario made in memory from the data of each file kind (as an import gives), with no
    source lines: what load_scenario would give for the files once written."""
    from sandtable.merge import Tracked
    from sandtable.scenario import Scenario
    scenario = Scenario(root=Path(root))
    scenario.lineage = [Path(root)]
    for kind, data in files.items():
        scenario.documents[kind] = Tracked(data, {}, {})
    return scenario


def observed(state) -> tuple:
    """What a player and the report see of a game: whose turn, where, what may be done, what
    happened, and the generator's state (the chance to come)."""
    return (state.current_player, state.phase, state.round, state.is_terminal(),
            None if state.is_terminal() else state.legal_actions(), state.chronicle.as_dict(),
            state.rng.bit_generator.state)


def check_clones(system, options: dict, seed: int, clone_at: tuple[int, ...], wander: int = 300,
                 max_rounds: int | None = None) -> int:
    """The clone contract on one random game (engine/game.py `clone`): a clone taken after
    each of `clone_at` actions looks like its parent; played on for `wander` random actions
    with other dice, it leaves its parent as it was; given the parent's own actions, it reaches
    the parent's end. Returns the game's length."""
    import numpy as np

    def actions_of_a_game() -> tuple[list, object]:
        state = system.new_game(options, np.random.default_rng(seed), max_rounds)
        chooser = np.random.default_rng([seed, 1])
        moves = []
        while not state.is_terminal():
            actions = state.legal_actions()
            moves.append(actions[int(chooser.integers(len(actions)))])
            state.apply(moves[-1])
        return moves, state

    moves, reference = actions_of_a_game()
    state = system.new_game(options, np.random.default_rng(seed), max_rounds)
    for done, action in enumerate(moves):
        if done in clone_at:
            before = observed(state)
            twin = state.clone()
            assert observed(twin) == before, f"a clone after {done} actions differs from its parent"
            twin.reseed(seed + 1000 + done)
            chooser = np.random.default_rng([seed, done])
            for _ in range(wander):
                if twin.is_terminal():
                    break
                actions = twin.legal_actions()
                twin.apply(actions[int(chooser.integers(len(actions)))])
            assert observed(state) == before, f"playing a clone taken after {done} actions changed its parent"
            assert observed(twin.clone()) == observed(twin), "a clone of a reseeded clone differs"
            follower = state.clone()
            for later in moves[done:]:
                follower.apply(later)
            assert follower.is_terminal() and follower.result() == reference.result()
            assert follower.chronicle.as_dict() == reference.chronicle.as_dict()
        state.apply(action)
    assert state.result() == reference.result()
    return len(moves)
