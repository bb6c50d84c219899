"""tools/game_digests.py tells whether a change leaves play as it was: the same seeded games hash
the same, another player's do not, and `--expect` names the games that differ."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).parent.parent
SCENARIO = str(ROOT / "scenarios" / "war-at-sea")


def tool():
    spec = importlib.util.spec_from_file_location("game_digests", ROOT / "tools" / "game_digests.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lines(capsys, *args: str) -> tuple[int, list[str], str]:
    code = tool().main([SCENARIO, "--games", "2", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_the_same_games_hash_the_same_and_other_players_differ(capsys):
    code, first, _ = lines(capsys)
    assert code == 0 and len(first) == 2
    assert [line.split()[:2] for line in first] == [["war-at-sea", "0"], ["war-at-sea", "1"]]
    assert lines(capsys)[1] == first
    other = lines(capsys, "--players", "random")[1]
    assert [line.split()[2] for line in other] == [line.split()[2] for line in first]   # seeds
    assert all(a.split()[3] != b.split()[3] for a, b in zip(other, first, strict=True))


def test_expect_names_the_games_that_differ(capsys, tmp_path):
    _, first, _ = lines(capsys)
    same = tmp_path / "before.txt"
    same.write_text("\n".join(first) + "\n", encoding="utf-8")
    code, _, err = lines(capsys, "--expect", str(same))
    assert code == 0 and "2 of 2 games play as before" in err
    changed = tmp_path / "changed.txt"
    changed.write_text(first[0] + "\n" + first[1].rsplit(" ", 1)[0] + " 0123456789abcdef\n",
                       encoding="utf-8")
    code, _, err = lines(capsys, "--expect", str(changed))
    assert code == 1
    assert "different: war-at-sea 1" in err and "different: war-at-sea 0" not in err
    assert "1 of 2 games play as before" in err
