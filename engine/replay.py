"""Replays: a game written down as JSON Lines, and played back to the identical end.

The first line is the header: the scenario (its id, folder and content hash), the game system,
the options, the seed, the round limit and the players. Then one line per action, as the player
took it (`{"seat": ..., "action": [...]}`). The last line is the result
(`{"result": {...}}`), or, for a game stopped by an error, `{"error": "..."}`.

A game is a function of its scenario's content, options and seed and its actions: playing the
actions back on a new game started the same way must reach the same result. `content_hash`
decides whether a scenario is "the same": the merged data of every file kind but the locales
(translations do not change a game).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .game import Action, GameResult, GameState, as_action
from .system import EngineError

FORMAT = "sandtable-replay"
VERSION = 1


class ReplayError(EngineError):
    """A replay that cannot be read or does not play back."""


def content_hash(scenario) -> str:
    """A hash of the scenario's merged game data (locales left out)."""
    data = {kind: tracked.data for kind, tracked in sorted(scenario.documents.items())
            if not kind.startswith("locale:")}
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Replay:
    scenario: str                       # the scenario's id
    scenario_hash: str
    system: str
    options: dict
    seed: int
    max_rounds: int | None
    players: dict[str, str]             # side -> player spec
    actions: list[tuple[str, Action]] = field(default_factory=list)   # (seat, action)
    result: GameResult | None = None
    error: str | None = None
    folder: str | None = None           # where the scenario was, as given

    def header(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "scenario": self.scenario,
                "folder": self.folder, "scenario_hash": self.scenario_hash,
                "system": self.system, "options": self.options, "seed": self.seed,
                "max_rounds": self.max_rounds, "players": self.players}

    def write(self, path: Path | str) -> Path:
        """Write the replay atomically (a temporary file renamed into place)."""
        path = Path(path)
        lines = [json.dumps(self.header(), ensure_ascii=False)]
        lines += [json.dumps({"seat": seat, "action": list(action)}, ensure_ascii=False)
                  for seat, action in self.actions]
        if self.result is not None:
            lines.append(json.dumps({"result": self.result.as_dict()}, ensure_ascii=False))
        if self.error is not None:
            lines.append(json.dumps({"error": self.error}, ensure_ascii=False))
        temporary = path.with_name(path.name + ".part")
        temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
        temporary.replace(path)
        return path

    @classmethod
    def read(cls, path: Path | str) -> Replay:
        path = Path(path)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as problem:
            raise ReplayError(f"{path}: cannot read it ({problem})") from None
        records = []
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                records.append((number, json.loads(line)))
            except json.JSONDecodeError as problem:
                raise ReplayError(f"{path}:{number}:{problem.colno}: not JSON: {problem.msg}") \
                    from None
        if not records or not isinstance(records[0][1], dict) \
                or records[0][1].get("format") != FORMAT:
            raise ReplayError(f"{path}:1:1: not a replay (its first line must be a header with "
                              f'"format": "{FORMAT}")')
        head = records[0][1]
        if head.get("version") != VERSION:
            raise ReplayError(f"{path}:1:1: replay version {head.get('version')!r}; "
                              f"this version reads {VERSION}")
        try:
            replay = cls(str(head["scenario"]), str(head["scenario_hash"]), str(head["system"]),
                         dict(head.get("options") or {}), int(head["seed"]),
                         head.get("max_rounds"), dict(head.get("players") or {}),
                         folder=head.get("folder"))
        except (KeyError, TypeError, ValueError) as problem:
            raise ReplayError(f"{path}:1:1: the header lacks or mistypes {problem}") from None
        for number, record in records[1:]:
            if not isinstance(record, dict):
                raise ReplayError(f"{path}:{number}:1: expected an object")
            if "action" in record:
                replay.actions.append((str(record.get("seat")), as_action(record["action"])))
            elif "result" in record:
                replay.result = GameResult.from_dict(record["result"])
            elif "error" in record:
                replay.error = str(record["error"])
            else:
                raise ReplayError(f"{path}:{number}:1: expected an action, a result or an error")
        return replay


def play_back(replay: Replay, system, check_hash: bool = True) -> GameState:
    """Play a replay's actions on a new game of `system` started as the replay says; the
    final state. ReplayError when an action is not legal or not the recorded seat's."""
    if check_hash and content_hash(system.scenario) != replay.scenario_hash:
        raise ReplayError(f"the scenario {replay.scenario!r} has changed since the replay was "
                          "written (its content hash differs)")
    state = system.new_game(replay.options, np.random.default_rng(replay.seed), replay.max_rounds)
    for number, (seat, action) in enumerate(replay.actions, 1):
        if state.current_player != seat:
            raise ReplayError(f"action {number}: the replay has {seat} to play, the game "
                              f"{state.current_player}")
        if not state.is_legal(action):
            raise ReplayError(f"action {number}: {seat} may not {list(action)} in the "
                              f"{state.phase} phase of round {state.round}")
        state.apply(action)
    return state
