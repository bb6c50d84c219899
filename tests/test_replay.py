"""Replays as input (engine/replay.py, `playtest replay`): a replay file is read line by line
within limits and checked against schemas/playtest/replay.schema.json; anything else is a
diagnostic with its line and column and exit 1, never a traceback, a hang or memory without end.
Its header's options are checked against the scenario as `playtest games --option` is."""
from __future__ import annotations

import json
import os
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import replay as replays
from sandtable.cli import main
from tests.helpers import FIXTURES

DUEL = FIXTURES / "balance" / "duel"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> list[str]:
    """The lines of a replay `playtest games` wrote: a whole game of the duel."""
    folder = tmp_path_factory.mktemp("replays")
    assert main(["playtest", "games", str(DUEL), "--games", "1", "--max-rounds", "2",
                 "--workers", "1", "--replays", str(folder), "--json"]) == 0
    return (folder / "game-000000.jsonl").read_text(encoding="utf-8").splitlines()


def replay(capsys, path) -> tuple[int, str, str]:
    code = main(["playtest", "replay", str(path), "--scenario", str(DUEL)])
    out, err = capsys.readouterr()
    return code, out, err


def forged(tmp_path, lines: list[str] | str, name: str = "forged.jsonl"):
    path = tmp_path / name
    path.write_text(lines if isinstance(lines, str) else "\n".join(lines) + "\n",
                    encoding="utf-8")
    return path


def header_with(recorded, **changes) -> str:
    head = json.loads(recorded[0])
    head.update(changes)
    return json.dumps(head)


def test_a_replay_written_by_playtest_games_plays_back(capsys, recorded, tmp_path):
    code, out, _ = replay(capsys, forged(tmp_path, recorded))
    assert code == 0 and "identical end" in out


# The smallest forged line for each traceback the old reader gave, and the diagnostic now.
SEED = '"seed": '


@pytest.mark.parametrize("make, where, code, message", [
    (lambda r: ["[" * 100_000 + "]" * 100_000],
     "1:1", "RPL003", "nested deeper than 16 levels"),
    (lambda r: [r[0], '{"seat": "germany", "action": ' + "[" * 100_000 + "]" * 100_000 + "}"],
     "2:1", "RPL003", "nested deeper than 16 levels"),
    (lambda r: [header_with(r, seed=0).replace(SEED + "0", SEED + "Infinity")] + r[1:],
     "1:1", "RPL003", "not JSON a replay holds: Infinity is not a number JSON has"),
    (lambda r: [header_with(r, seed=-1)] + r[1:],
     "1:1", "RPL005", "the header line breaks the replay schema at /seed: -1 is less than "
     "the minimum of 0"),
    (lambda r: [header_with(r, seed=0).replace(SEED + "0", SEED + "9" * 5000)] + r[1:],
     "1:1", "RPL003", "not JSON a replay holds: a whole number of 5,000 digits (the most a "
     "replay holds is 20)"),
    (lambda r: [header_with(r, seed=0).replace(SEED + "0", SEED + "1e999")] + r[1:],
     "1:1", "RPL003", "not JSON a replay holds: the number '1e999' is beyond a double"),
    (lambda r: [header_with(r, folder=123)] + r[1:],
     "1:1", "RPL005", "the header line breaks the replay schema at /folder: 123 is not of "
     "type 'string', 'null'"),
    (lambda r: [header_with(r, max_rounds="abc")] + r[1:],
     "1:1", "RPL005", "the header line breaks the replay schema at /max_rounds: 'abc' is not "
     "of type 'integer', 'null'"),
    (lambda r: r[:-1] + ['{"result": {}}'],
     "4:1", "RPL005", "the result line breaks the replay schema at /result: 'winner' is a "
     "required property"),
    (lambda r: r[:-1] + ['{"result": 5}'],
     "4:1", "RPL005", "the result line breaks the replay schema at /result: 5 is not of type "
     "'object'"),
    (lambda r: [r[0], '{"seat": "germany", "action": 5}'] + r[2:],
     "2:1", "RPL005", "the action line breaks the replay schema at /action: 5 is not of type "
     "'array'"),
    (lambda r: [r[0], '{"seat": "germany", "action": null}'] + r[2:],
     "2:1", "RPL005", "the action line breaks the replay schema at /action: None is not of "
     "type 'array'"),
    (lambda r: [r[0], '{"seat": "germany", "action": {"end": 1}}'] + r[2:],
     "2:1", "RPL005", "the action line breaks the replay schema at /action: {'end': 1} is not "
     "of type 'array'"),
    (lambda r: [r[0], '{"seat": "germany", "action": ["buy", 9007199254740992]}'] + r[2:],
     "2:1", "RPL005", "the action line breaks the replay schema at /action/1: "
     "9007199254740992 is greater than the maximum of 9007199254740991"),
    (lambda r: [r[0], "{oops"] + r[2:], "2:2", "RPL003", "not JSON: Expecting property name "
     "enclosed in double quotes"),
    (lambda r: [r[0], '{"seat": "germany"}'] + r[2:],
     "2:1", "RPL005", "expected an action (an object with \"seat\" and \"action\"), a result "
     "or an error"),
    (lambda r: r + [r[1]], "5:1", "RPL005", "an action line after the game's end"),
    (lambda r: ['{"format": "sandtable-replay", "version": 2}'] + r[1:],
     "1:1", "RPL004", "replay version 2; this version of Sandtable reads version 1"),
    (lambda r: ['{"format": "other"}'], "1:1", "RPL004", "not a replay"),
    (lambda r: [], "1:1", "RPL004", "not a replay"),
])
def test_a_forged_replay_is_a_diagnostic_at_its_line(capsys, recorded, tmp_path, make, where, code,
                                                     message):
    path = forged(tmp_path, make(recorded))
    status, out, err = replay(capsys, path)
    assert status == 1 and out.startswith(f"{path}:{where}: error {code}: {message}"), out + err
    assert "Traceback" not in out + err


def test_a_whole_number_written_as_a_float_is_that_number(capsys, recorded, tmp_path):
    """JSON Schema counts 7.0 as the integer 7; the engine is given 7 (a seed of -0.0 was once a
    TypeError from NumPy)."""
    ends = []
    for seed in ("7", "7.0", "-0.0"):
        lines = [header_with(recorded, seed=12345).replace(SEED + "12345", SEED + seed)]
        code, out, err = replay(capsys, forged(tmp_path, lines + recorded[1:]))
        assert code in (0, 1) and "Traceback" not in err and "played back" in out
        ends.append(out)
    assert ends[0] == ends[1]


def test_a_line_that_is_not_utf8_is_refused_at_its_byte(capsys, recorded, tmp_path):
    path = tmp_path / "latin.jsonl"
    path.write_bytes(recorded[0].encode() + b'\n{"seat": "\xe9"}\n')
    code, out, _ = replay(capsys, path)
    assert code == 1 and out == (f"{path}:2:11: error {'RPL003'}: the line is not UTF-8: byte "
                                 "0xe9 cannot be decoded\n")


@pytest.mark.parametrize("option, setting", [
    ({"surprise_strik": "every-round"}, "surprise-strik=every-round"),
    ({"surprise_strike": "never-ever"}, "surprise-strike=never-ever"),
])
def test_forged_header_options_are_refused_as_playtest_games_refuses_them(
        capsys, recorded, tmp_path, option, setting):
    assert main(["playtest", "games", str(DUEL), "--games", "1", "--option", setting]) == 2
    refused = capsys.readouterr().err.strip().removeprefix("sandtable playtest: ")
    path = forged(tmp_path, [header_with(recorded, options=option)] + recorded[1:])
    code, out, _ = replay(capsys, path)
    assert code == 1
    assert out == f"{path}:1:1: error {'RPL006'}: the header's options: {refused}\n"


def test_a_header_option_of_the_wrong_kind_is_refused(capsys, recorded, tmp_path):
    path = forged(tmp_path, [header_with(recorded, options={"surprise_strike": True})]
                  + recorded[1:])
    code, out, _ = replay(capsys, path)
    assert code == 1 and out == (f"{path}:1:1: error RPL006: the header's options: "
                                 "surprise-strike='true': choose one of every-round, first-round\n")


def test_a_replay_of_another_game_system_is_refused(capsys, recorded, tmp_path):
    path = forged(tmp_path, [header_with(recorded, system="gj69")] + recorded[1:])
    code, out, _ = replay(capsys, path)
    assert code == 1 and out == (f"{path}:1:1: error RPL006: the replay is of a 'gj69' game; "
                                 "the scenario 'duel' is played with 'aa50'\n")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_is_refused_without_waiting_for_a_writer(capsys, tmp_path):
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    code, out, _ = replay(capsys, fifo)
    assert code == 1 and out == (f"{fifo}:1:1: error {'RPL001'}: cannot read the file: it is not "
                                 "a regular file (a folder, a FIFO or a device)\n")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_device_is_refused(capsys):
    code, out, _ = replay(capsys, "/dev/zero")
    assert code == 1 and "error RPL001: cannot read the file: it is not a regular file" in out


def test_a_file_over_the_limit_is_refused_unread(capsys, tmp_path):
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as stream:               # sparse: no disk taken
        stream.truncate(replays.MAX_REPLAY_BYTES + 1)
    code, out, _ = replay(capsys, big)
    assert code == 1 and out.startswith(f"{big}:1:1: error {'RPL002'}: the file is 134,217,729 "
                                        "bytes, over the limit of 134,217,728")


def test_a_line_over_the_limit_is_refused_and_not_echoed(capsys, recorded, tmp_path):
    path = forged(tmp_path, [recorded[0], '{"seat": "' + "g" * replays.MAX_LINE_BYTES + '"}'])
    code, out, err = replay(capsys, path)
    assert code == 1 and out.startswith(f"{path}:2:1: error RPL002: the line is longer than the "
                                        "limit of 1,048,576 bytes")
    assert len(out + err) < 500


def test_a_long_value_is_quoted_short(capsys, recorded, tmp_path):
    path = forged(tmp_path, [header_with(recorded, scenario="x" * 100_000)] + recorded[1:])
    code, out, _ = replay(capsys, path)
    assert code == 1 and "error RPL005" in out and len(out) < 400


def test_a_missing_file_is_a_usage_error(capsys, tmp_path):
    code, out, err = replay(capsys, tmp_path / "nowhere.jsonl")
    assert code == 2 and not out and "cannot read it (No such file or directory)" in err


# -- the fast check of action lines keeps to the schema --------------------------------------
TOKENS = st.recursive(
    st.one_of(st.text(max_size=3), st.integers(-2**54, 2**54), st.booleans(), st.none(),
              st.floats(allow_nan=False, allow_infinity=False), st.just("x" * 1001)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=2),
                                                                         inner, max_size=2)),
    max_leaves=8)
LINES = st.one_of(
    st.fixed_dictionaries({"seat": st.one_of(st.text(max_size=3), TOKENS), "action": TOKENS}),
    st.dictionaries(st.sampled_from(["seat", "action", "other"]), TOKENS, max_size=3))


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(LINES)
def test_the_fast_check_of_an_action_line_accepts_only_what_the_schema_does(record):
    """Only lines it accepts skip the schema; what it leaves to the schema (a float with no
    fraction, which JSON Schema counts as an integer) is still checked there."""
    if replays.plain_action(record):
        assert replays._validator("action").is_valid(record)


def test_the_actions_games_write_take_the_fast_check(recorded):
    assert all(replays.plain_action(json.loads(line)) for line in recorded[1:-1])


def test_header_options_keep_their_defaults_and_types():
    """A header's options are checked one by one (engine/options.py Setting.check)."""
    from engine.options import Setting, SettingError, check_values
    rounds = Setting("rounds", 3, "int")
    share = Setting("share", 0.5, "float")
    flag = Setting("flag", False, "bool")
    assert check_values({"rounds": 4, "share": 1, "flag": True}, [rounds, share, flag]) == \
        {"rounds": 4, "share": 1, "flag": True}
    for value, kind in ((True, rounds), ("4", rounds), (1, flag), (None, flag), ([1], share)):
        with pytest.raises(SettingError, match="expected"):
            check_values({kind.key: value}, [rounds, share, flag])


@pytest.mark.skipif(sys.platform == "win32", reason="O_NONBLOCK")
def test_a_folder_is_refused(capsys, tmp_path):
    code, out, _ = replay(capsys, tmp_path)
    assert code == 1 and f"{tmp_path}:1:1: error RPL001" in out
