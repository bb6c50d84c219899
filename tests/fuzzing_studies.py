"""Fuzzing categories for what the study commands read: replays and baselines (tests/fuzzing.py
runs them with the others).

    replay     a replay `playtest games` wrote, mutated as text or as JSON (a value somewhere
               replaced, a key dropped, a line repeated): `playtest replay`
    baseline   a report `playtest games --json` wrote, mutated the same ways: `playtest games
               --baseline --max-shift`; a baseline it refuses must be refused before any game

Mutated JSON is made from real files: a few games of the duel fixture are played once per
process, their replays and report kept in a temporary folder.
"""
from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

from fuzzing import FIXTURES, ODD, Broken, _answer, _command, mutate

DUEL = FIXTURES / "balance" / "duel"
JSON_TOKENS = ODD + ["{", "}", "[", "]", ",", ":", '"', "null", "true", "false", "NaN",
                     "Infinity", "-Infinity", "1e999", "-1", "0", "1.5", "9" * 25, "9" * 5000,
                     "[" * 50, "]" * 50, "{}", "[]", '"seat"', '"action"', '"result"', '"error"',
                     '"format"', '"version"', '"options"', '"seed"', '"max_rounds"', '"players"',
                     '"winner"', '"round"', '"sides"', '"wins"', '"games"', '"outcomes"',
                     '"surprise_strike"', '"every-round"', '"germany"', '"axis"', '\\u0000',
                     '\\ud800', '"\x1b[31m"']
JSON_VALUES = [None, True, False, 0, -1, 1, 2**53, 2**63, 10**30, 1.5, -0.0, 1e300, "", "x",
               "germany", "axis", "allies", "end", "every-round", "\x1b[2J", "省", [], {},
               ["end"], ["buy", "infantry", -3], [["a", 1]], {"a": 1}, "x" * 5000]
_made: dict[str, object] = {}


def _played() -> dict[str, list[str]]:
    """Replays and a report of the duel, written once per process by `playtest games`."""
    if "played" not in _made:
        folder = Path(tempfile.mkdtemp(prefix="sandtable-fuzz-"))
        replays = []
        for seed, rounds in ((1, "2"), (2, "3")):
            out = folder / f"replays-{seed}"
            code = _command(["playtest", "games", str(DUEL), "--games", "3", "--max-rounds",
                             rounds, "--workers", "1", "--seed", str(seed), "--replays",
                             str(out), "--report", str(folder / f"report-{seed}")])
            assert code == 0, "the duel's games could not be played"
            replays += [p.read_text(encoding="utf-8") for p in sorted(out.glob("*.jsonl"))]
        reports = [(folder / f"report-{seed}" / "report.json").read_text(encoding="utf-8")
                   for seed in (1, 2)]
        reports.append((FIXTURES / "balance" / "duel-baseline.json").read_text(encoding="utf-8"))
        _made["played"] = {"replays": replays, "reports": reports}
    return _made["played"]  # type: ignore[return-value]


def _mutate_json(value, rnd: random.Random):
    """The value with one node replaced, a key dropped or a list item repeated."""
    if not isinstance(value, (dict, list)) or not value or rnd.random() < 0.2:
        return rnd.choice(JSON_VALUES)
    if isinstance(value, dict):
        key = rnd.choice(list(value))
        changed = dict(value)
        if rnd.random() < 0.15:
            del changed[key]
        else:
            changed[key] = _mutate_json(value[key], rnd)
        return changed
    at = rnd.randrange(len(value))
    if rnd.random() < 0.15:
        return value[:at] + [value[at]] + value[at:]
    return value[:at] + [_mutate_json(value[at], rnd)] + value[at + 1:]


def _mutated(text: str, rnd: random.Random, lines: bool) -> str:
    if rnd.random() < 0.45:
        return mutate(text, rnd, JSON_TOKENS)
    if not lines:
        return json.dumps(_mutate_json(json.loads(text), rnd), ensure_ascii=rnd.random() < 0.5)
    rows = text.splitlines()
    at = rnd.randrange(len(rows))
    rows[at] = json.dumps(_mutate_json(json.loads(rows[at]), rnd))
    return "\n".join(rows) + "\n"


# -- replay: `playtest replay` -------------------------------------------------------------------
def make_replay(rnd: random.Random) -> str:
    if rnd.random() < 0.1:
        return "".join(rnd.choice(JSON_TOKENS) for _ in range(rnd.randint(1, 40)))
    return _mutated(rnd.choice(_played()["replays"]), rnd, lines=True)


def try_replay(text: str) -> str:
    with tempfile.TemporaryDirectory() as temp:
        path = Path(temp) / "game.jsonl"
        path.write_text(text, encoding="utf-8", errors="surrogatepass", newline="")
        code = _command(["playtest", "replay", str(path), "--scenario", str(DUEL)])
        if code == 2:
            raise Broken("changed", "a replay file that exists was a usage error (exit 2), "
                         "not a diagnostic (exit 1)")
        return "accepted" if code == 0 else "refused"


# -- baseline: `playtest games --baseline` -------------------------------------------------------
def make_baseline(rnd: random.Random) -> str:
    return _mutated(rnd.choice(_played()["reports"]), rnd, lines=False)


def try_baseline(text: str) -> str:
    with tempfile.TemporaryDirectory() as temp:
        path = Path(temp) / "baseline.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass", newline="")
        code, out = _answer(["playtest", "games", str(DUEL), "--games", "2", "--max-rounds", "1",
                             "--workers", "1", "--baseline", str(path), "--max-shift", "0.05",
                             "--json"])
        if code == 2 and out:
            raise Broken("changed", "a baseline refused after the games were played")
        return "accepted" if code != 2 else "refused"


STUDY_CATEGORIES = {
    "replay": (make_replay, try_replay),
    "baseline": (make_baseline, try_baseline),
}
