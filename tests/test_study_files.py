"""What a study writes, and where: replays and report pages are written by the process that runs
the study, whole or not at all (sandtable/safewrite.py); a folder that takes no file is found
before any game is played; a disk that fills up after the games is a usage error (exit 2), not a
traceback, and leaves no partial file; failed games' replays go to a private folder of their own,
named on stderr and in the report."""
from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import tempfile

import pytest

from sandtable.cli import main
from tests.helpers import FIXTURES, REPO

DUEL = FIXTURES / "balance" / "duel"
GAMES = ["playtest", "games", str(DUEL), "--games", "2", "--max-rounds", "1", "--workers", "1"]


def leftovers(folder) -> list[str]:
    """Temporary files a write left behind."""
    return sorted(p.name for p in folder.rglob("*") if p.name.endswith((".part", ".tmp"))
                  or p.name.startswith(".sandtable-probe"))


@pytest.fixture
def failing_games(monkeypatch):
    """Every game stops with a rules error at its first move (in this process: --workers 1)."""
    from playtest import study

    def broken_player(*args, **kwargs):
        raise RuntimeError("the dice rolled off the table")
    monkeypatch.setattr(study, "make_player", broken_player)


def test_failed_games_replays_go_to_a_private_folder_of_their_own(
        capsys, tmp_path, monkeypatch, failing_games):
    """The old fixed folder $TMPDIR/sandtable-replays/ had predictable names: a link planted
    there was followed and its target overwritten, and runs overwrote each other's replays."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    planted = tmp_path / "sandtable-replays"
    planted.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (planted / "game-000000.jsonl").symlink_to(victim)
    folders = []
    for _ in range(2):
        assert main(GAMES + ["--json"]) == 1          # every game failed
        captured = capsys.readouterr()
        errors = json.loads(captured.out)["errors"]
        folder = tmp_path / errors[0]["replay"].split(os.sep)[-2]
        assert [e["replay"] for e in errors] == [str(folder / "game-000000.jsonl"),
                                                 str(folder / "game-000001.jsonl")]
        assert folder.name.startswith("sandtable-replays-") and folder.parent == tmp_path
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        assert (f"sandtable playtest: 2 game(s) of duel stopped by a rules error; their replays "
                f"are in {folder}") in captured.err
        assert "RuntimeError: the dice rolled off the table" in (
            folder / "game-000000.jsonl").read_text()
        folders.append(folder)
    assert folders[0] != folders[1]
    assert victim.read_text() == "precious\n"


def full_disk(monkeypatch, allowed: int):
    """The disk fills up after `allowed` files: the next write stops halfway with ENOSPC."""
    from sandtable import safewrite
    real = safewrite._fill
    count = {"files": 0}

    def fill(stream, data):
        count["files"] += 1
        if count["files"] > allowed:
            real(stream, data[:len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(stream, data)
    monkeypatch.setattr(safewrite, "_fill", fill)


@pytest.mark.parametrize("flag", ["--report", "--replays"])
def test_a_folder_that_takes_no_file_is_refused_before_any_game(capsys, tmp_path, monkeypatch, flag):
    full_disk(monkeypatch, allowed=0)
    folder = tmp_path / "out"
    assert main(GAMES + [flag, str(folder)]) == 2
    out, err = capsys.readouterr()
    assert not out
    assert err == (f"sandtable playtest: {flag} {folder}: cannot write into the folder (No space "
                   "left on device); nothing was played\n")
    assert leftovers(tmp_path) == []


def test_a_disk_full_while_replays_are_written_stops_the_study_plainly(capsys, tmp_path, monkeypatch):
    full_disk(monkeypatch, allowed=2)          # the probe, the first game's replay
    folder = tmp_path / "replays"
    assert main(GAMES + ["--replays", str(folder)]) == 2
    out, err = capsys.readouterr()
    assert err == (f"sandtable playtest: cannot write the replay {folder / 'game-000001.jsonl'}: "
                   "No space left on device\n")
    assert sorted(p.name for p in folder.iterdir()) == ["game-000000.jsonl"]


def test_a_disk_full_after_the_games_keeps_the_printed_report_and_no_partial_file(
        capsys, tmp_path, monkeypatch):
    full_disk(monkeypatch, allowed=3)          # the probe, two plots
    folder = tmp_path / "report"
    assert main(GAMES + ["--report", str(folder), "--json"]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out)["games"] == 2                     # the report, printed before
    assert "Traceback" not in err and err.startswith(f"sandtable playtest: --report {folder}: "
                                                     f"cannot write {folder}/")
    assert err.endswith(" (No space left on device); the report printed above is all that was "
                        "kept\n")
    assert leftovers(tmp_path) == []
    written = sorted(p.name for p in folder.iterdir())
    assert len(written) == 2 and all(name.endswith(".png") for name in written)


@pytest.mark.skipif(not hasattr(__import__("os"), "fork") or sys.platform == "darwin",
                    reason="RLIMIT_FSIZE on Linux")
@pytest.mark.parametrize("limit, played", [(0, False), (20_000, True)])
def test_a_real_file_size_limit_is_met_with_a_message(tmp_path, limit, played):
    """The same with the operating system's own refusal (RLIMIT_FSIZE: no file may grow past
    `limit` bytes, as on a full disk): with 0 even the probe fails, and no game is played; with
    20 KB the report's plots do not fit, after the games."""
    import resource
    import signal

    def limited():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # the write fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    folder = tmp_path / "report"
    environment = dict(os.environ, PYTHONPATH=str(REPO), PYTHONDONTWRITEBYTECODE="1",
                       MPLBACKEND="Agg")
    done = subprocess.run([sys.executable, "-m", "sandtable", *GAMES, "--report", str(folder),
                           "--json"], capture_output=True, text=True, env=environment,
                          preexec_fn=limited, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "(File too large)" in done.stderr
    assert ("nothing was played" in done.stderr) == (not played)
    assert bool(done.stdout) == played
    assert leftovers(tmp_path) == []
