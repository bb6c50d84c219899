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

import contextlib
import hashlib
import json
import math
import os
import stat
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from .game import Action, GameResult, GameState
from .system import EngineError

FORMAT = "sandtable-replay"
VERSION = 1
# A replay is read line by line within these limits, as scenario files are read within theirs:
# a whole AA50 game takes about 120 KB; a game stopped at the engine's limit of 2,000,000
# actions, about 80 MB.
MAX_REPLAY_BYTES = 128 * 1024 * 1024
MAX_LINE_BYTES = 1024 * 1024
MAX_DEPTH = 16               # actions nest two deep; a header's options three
MAX_DIGITS = 20              # a seed has 19 digits; int() of a 5,000-digit text is refused late
SHOWN = 160                  # the most characters of a value a message quotes


class ReplayError(EngineError):
    """A replay that cannot be read or does not play back."""


class ReplayRefused(ReplayError):
    """A replay file that is not one this version reads, at a line and column: a diagnostic.

    RPL001 the file cannot be read or is not a regular file; RPL002 the file, or one of its
    lines, is over the limit; RPL003 a line is not UTF-8 JSON (or holds NaN, a number beyond
    a double or of more than 20 digits, or is nested too deeply); RPL004 the first line is not
    a replay header of this version; RPL005 a line breaks the replay schema
    (schemas/playtest/replay.schema.json) or follows the end; RPL006 the header does not fit
    the scenario (another game system, or options it does not have)."""

    def __init__(self, code: str, message: str, path: Path | str | None, line: int = 1,
                 column: int = 1, hint: str | None = None):
        self.code, self.message, self.path = code, message, path
        self.line, self.column, self.hint = line, column, hint
        super().__init__(self.render())

    def render(self) -> str:
        text = f"{self.path}:{self.line}:{self.column}: error {self.code}: {self.message}"
        return text + (f"\n  = hint: {self.hint}" if self.hint else "")


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
    path: str | None = None             # the file it was read from

    def header(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "scenario": self.scenario,
                "folder": self.folder, "scenario_hash": self.scenario_hash,
                "system": self.system, "options": self.options, "seed": self.seed,
                "max_rounds": self.max_rounds, "players": self.players}

    def text(self) -> str:
        """The replay as JSON Lines."""
        lines = [json.dumps(self.header(), ensure_ascii=False)]
        lines += [json.dumps({"seat": seat, "action": list(action)}, ensure_ascii=False)
                  for seat, action in self.actions]
        if self.result is not None:
            lines.append(json.dumps({"result": self.result.as_dict()}, ensure_ascii=False))
        if self.error is not None:
            lines.append(json.dumps({"error": self.error}, ensure_ascii=False))
        return "\n".join(lines) + "\n"

    def write(self, path: Path | str) -> Path:
        """Write the replay whole or not at all (sandtable/safewrite.py)."""
        from sandtable.safewrite import atomic_write_bytes
        path = Path(path)
        atomic_write_bytes(path, self.text().encode("utf-8"), within=path.parent)
        return path

    @classmethod
    def read(cls, path: Path | str) -> Replay:
        """Read a replay line by line within the limits; ReplayRefused, with the line and
        column, for anything that is not a replay of this version."""
        path = Path(path)
        with contextlib.closing(_records(path)) as records:
            number, head = next(records, (1, None))
            if not isinstance(head, dict) or head.get("format") != FORMAT:
                raise ReplayRefused("RPL004", "not a replay: its first line must be a header "
                                    f'with "format": "{FORMAT}"', path, number)
            if head.get("version") != VERSION:
                raise ReplayRefused("RPL004", f"replay version {_shown(head.get('version'))}; "
                                    f"this version of Sandtable reads version {VERSION}", path,
                                    number)
            _check(path, number, head, "header")
            rounds = head["max_rounds"]
            replay = cls(head["scenario"], head["scenario_hash"], head["system"],
                         head["options"], int(head["seed"]), None if rounds is None else int(rounds),
                         head["players"], folder=head.get("folder"), path=str(path))
            for number, record in records:
                replay._add(path, number, record)
        return replay

    def _add(self, path: Path, number: int, record) -> None:
        """Take one line after the header: an action, then the result and/or the error, which
        end the replay (a game stopped by an error may have a result too)."""
        kind = next((key for key in ("action", "result", "error")
                     if isinstance(record, dict) and key in record), None)
        if kind is None:
            raise ReplayRefused("RPL005", "expected an action (an object with \"seat\" and "
                                "\"action\"), a result or an error", path, number)
        if not (kind == "action" and plain_action(record)):
            _check(path, number, record, kind)
        if self.error is not None or (self.result is not None and kind != "error"):
            raise ReplayRefused("RPL005", f"an {kind} line after the game's end: nothing but "
                                "its error may follow its result, and nothing its error",
                                path, number)
        if kind == "action":
            self.actions.append((sys.intern(record["seat"]), _tupled(record["action"])))
        elif kind == "result":
            result = dict(record["result"], round=int(record["result"]["round"]))
            result["victory_cities"] = {side: int(count) for side, count
                                        in (result.get("victory_cities") or {}).items()}
            self.result = GameResult.from_dict(result)
        else:
            self.error = record["error"]


# -- reading, within limits ----------------------------------------------------------------------
def _records(path: Path):
    """(line number, JSON value) of every line that is not blank, read one at a time."""
    with _open_regular(path) as stream:
        total = 0
        for number in range(1, sys.maxsize):
            raw = stream.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            total += len(raw)
            if total > MAX_REPLAY_BYTES:             # a file that grows while it is read
                raise ReplayRefused("RPL002", f"the file is over the limit of "
                                    f"{MAX_REPLAY_BYTES:,} bytes", path, number)
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                raise ReplayRefused("RPL002", f"the line is longer than the limit of "
                                    f"{MAX_LINE_BYTES:,} bytes", path, number,
                                    hint="a replay's lines are one action each")
            if raw.strip():
                yield number, _parse_line(raw, path, number)


def _open_regular(path: Path):
    """The file opened for reading bytes; refused when it is not a regular file (a FIFO would
    block, a device never end) or over the limit."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))   # a FIFO: no wait
    except OSError as problem:
        raise ReplayRefused("RPL001", f"cannot read the file: {problem.strerror}", path) from None
    status = os.fstat(handle)
    if not stat.S_ISREG(status.st_mode):
        os.close(handle)
        raise ReplayRefused("RPL001", "cannot read the file: it is not a regular file (a folder, "
                            "a FIFO or a device)", path)
    if status.st_size > MAX_REPLAY_BYTES:
        os.close(handle)
        raise ReplayRefused("RPL002", f"the file is {status.st_size:,} bytes, over the limit of "
                            f"{MAX_REPLAY_BYTES:,}", path,
                            hint="check that this is a replay written by `playtest games`")
    return os.fdopen(handle, "rb")


class _Unreadable(Exception):
    """A JSON value no replay holds (NaN, a number beyond a double or of too many digits)."""


def _constant(name: str):
    raise _Unreadable(f"{name} is not a number JSON has")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Unreadable(f"the number {_shown(text)} is beyond a double")
    return value


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Unreadable(f"a whole number of {len(text.lstrip('-')):,} digits (the most a "
                          f"replay holds is {MAX_DIGITS})")
    return int(text)


_DECODER = json.JSONDecoder(parse_constant=_constant, parse_float=_float, parse_int=_int)


def _parse_line(raw: bytes, path: Path, number: int):
    try:
        text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError as problem:
        raise ReplayRefused("RPL003", f"the line is not UTF-8: byte 0x{raw[problem.start]:02x} "
                            "cannot be decoded", path, number, problem.start + 1) from None
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as problem:
        raise ReplayRefused("RPL003", f"not JSON: {problem.msg}", path, number,
                            problem.colno) from None
    except _Unreadable as problem:
        raise ReplayRefused("RPL003", f"not JSON a replay holds: {problem}", path, number) from None
    except RecursionError:
        raise ReplayRefused("RPL003", f"nested deeper than {MAX_DEPTH} levels", path,
                            number) from None
    openers = text.count("[") + text.count("{")     # no deeper than this: most lines skip the walk
    if openers > MAX_DEPTH and _depth(value) > MAX_DEPTH:
        raise ReplayRefused("RPL003", f"nested deeper than {MAX_DEPTH} levels", path, number)
    return value


def _depth(value) -> int:
    """How deeply lists and objects nest in `value` (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                stack.extend((child, level + 1)
                             for child in (item.values() if isinstance(item, dict) else item))
    return deepest


@cache
def _validator(kind: str):
    from jsonschema import Draft202012Validator

    from sandtable.schemas import load_schema
    schema = load_schema("playtest/replay.schema.json")
    return Draft202012Validator({"$ref": f"#/$defs/{kind}", "$defs": schema["$defs"]})


def _check(path: Path, number: int, record, kind: str) -> None:
    """RPL005 at the first place where `record` breaks the schema of a replay line of `kind`."""
    from jsonschema.exceptions import best_match
    problem = best_match(_validator(kind).iter_errors(record))
    if problem is None:
        return
    where = "/" + "/".join(str(step) for step in problem.absolute_path)
    message = problem.message if len(problem.message) <= SHOWN else \
        problem.message[:SHOWN] + "..."
    raise ReplayRefused("RPL005", f"the {kind} line breaks the replay schema at {where}: "
                        f"{message}", path, number)


MAX_NAME, MAX_TEXT, MAX_ITEMS, MAX_SAFE = 200, 1000, 10_000, 2**53 - 1


def plain_action(record) -> bool:
    """Whether an action line is one the schema's `action` accepts, checked by hand: jsonschema
    takes a few hundred microseconds a line, minutes for a replay at the engine's action limit.
    Only a line this accepts skips the schema (tests/test_replay.py holds them to agree)."""
    if type(record) is not dict or len(record) != 2:
        return False
    seat, action = record.get("seat"), record.get("action")
    return (type(seat) is str and 0 < len(seat) <= MAX_NAME and type(action) is list
            and 0 < len(action) <= MAX_ITEMS and all(_plain_token(part) for part in action))


def _plain_token(token) -> bool:
    kind = type(token)
    if kind is str:
        return len(token) <= MAX_TEXT
    if kind is int:
        return -MAX_SAFE <= token <= MAX_SAFE
    return kind is list and len(token) <= MAX_ITEMS and all(_plain_token(t) for t in token)


def _shown(value) -> str:
    """A value as a message quotes it: repr (control characters escaped), cut short."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "..."


def _tupled(action):
    """The action as the engine takes it (engine/game.py as_action: lists become tuples), its
    strings interned (a long replay repeats a few names millions of times), its numbers whole
    (JSON Schema counts 1.0 as an integer, and the schema checked that they are)."""
    if isinstance(action, list):
        return tuple(_tupled(part) for part in action)
    if isinstance(action, float):
        return int(action)
    return sys.intern(action) if isinstance(action, str) else action


# -- playing back --------------------------------------------------------------------------------
def check_header(replay: Replay, system) -> dict:
    """The replay's options, checked against the scenario's game settings as `playtest games`
    checks --option (the same messages), with the defaults of those it leaves out; RPL006 when
    the replay is of another game system or names options the scenario does not have."""
    from .options import SettingError, check_values, defaults
    if replay.system != system.system:
        raise ReplayRefused("RPL006", f"the replay is of a {_shown(replay.system)} game; the "
                            f"scenario {system.scenario.id!r} is played with {system.system!r}",
                            replay.path)
    settings = system.game_settings()
    try:
        return defaults(settings) | check_values(replay.options, settings)
    except SettingError as problem:
        raise ReplayRefused("RPL006", f"the header's options: {problem}", replay.path) from None


def play_back(replay: Replay, system, check_hash: bool = True) -> GameState:
    """Play a replay's actions on a new game of `system` started as the replay says; the
    final state. ReplayRefused when its header does not fit the scenario, ReplayError when an
    action is not legal or not the recorded seat's."""
    options = replay.options
    if check_hash:
        options = check_header(replay, system)
        if content_hash(system.scenario) != replay.scenario_hash:
            raise ReplayError(f"the scenario {replay.scenario!r} has changed since the replay "
                              "was written (its content hash differs)")
    state = system.new_game(options, np.random.default_rng(replay.seed), replay.max_rounds)
    for number, (seat, action) in enumerate(replay.actions, 1):
        if state.current_player != seat:
            raise ReplayError(f"action {number}: the replay has {seat} to play, the game "
                              f"{state.current_player}")
        if not state.is_legal(action):
            raise ReplayError(f"action {number}: {seat} may not {list(action)} in the "
                              f"{state.phase} phase of round {state.round}")
        state.apply(action)
    return state
