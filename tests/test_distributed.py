"""Studies on Dask distributed (playtest/distributed.py): a local cluster of two worker processes
on loopback gives the records local processes give, and loses nothing when a worker is killed
in the middle of a study."""
from __future__ import annotations

import json
import os
import signal
import sys

import pytest

from playtest.study import Study, run_study
from sandtable.cli import main
from sandtable.scenario import load_scenario
from tests.helpers import FIXTURES

pytest.importorskip("distributed", reason="Dask distributed is an optional extra")

DUEL = FIXTURES / "balance" / "duel"
PLAYERS = {"axis": "heuristic", "allies": "heuristic"}


def essence(records):
    return [(r.index, r.seed, r.result, r.chronicle, r.actions, r.error) for r in records]


@pytest.fixture(scope="module")
def cluster():
    from playtest.distributed import DaskExecutor
    with DaskExecutor(workers=2) as executor:
        yield executor


def test_a_local_cluster_plays_the_games_local_processes_play(cluster):
    study = Study(load_scenario(DUEL), {}, PLAYERS, 400, 3, max_rounds=1)
    shown = []
    records = cluster.run(study, lambda done, total: shown.append((done, total)))
    assert essence(records) == essence(run_study(study, 1))
    assert shown[-1] == (400, 400) and len(shown) == cluster.last["chunks"] > 1
    assert cluster.last["games_counted"] == cluster.last["games_asked"] == 400
    assert cluster.last["workers"] == 2 and cluster.last["workers_lost"] == 0


def test_a_worker_killed_mid_study_loses_no_game(cluster):
    study = Study(load_scenario(DUEL), {}, PLAYERS, 1200, 4, max_rounds=1)
    pids = cluster.client.run(os.getpid)
    victim = sorted(pids.values())[0]
    killed = []

    def kill_once(done, total):
        if not killed and done >= total // 8:
            os.kill(victim, signal.SIGKILL)
            killed.append(done)

    records = cluster.run(study, kill_once)
    assert killed and killed[0] < study.games
    assert essence(records) == essence(run_study(study, 1))
    assert cluster.last["games_counted"] == cluster.last["games_asked"] == 1200
    assert cluster.last["workers_lost"] == 1
    assert cluster.last["chunks_rerun"] >= 1
    from playtest.executors import describe_executor
    assert describe_executor(cluster.last).endswith("1200 of 1200 games counted, none lost")


def test_the_cli_report_on_dask_is_the_report_of_local_processes(capsys):
    argv = ["playtest", "games", str(DUEL), "--games", "200", "--max-rounds", "1", "--json",
            "--workers", "2"]
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(argv + ["--executor", "dask"]) == 0
    dask = json.loads(capsys.readouterr().out)
    assert dask["meta"].pop("executor")["kind"] == "dask"
    assert local["meta"].pop("executor")["kind"] == "processes"
    local.pop("seconds"), dask.pop("seconds")
    assert dask == local


def test_without_dask_the_executor_says_how_to_install_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)       # import fails
    code = main(["playtest", "games", str(DUEL), "--games", "5", "--executor", "dask"])
    assert code == 2
    assert 'python3 -m pip install -e ".[distributed]"' in capsys.readouterr().err


def test_a_scheduler_is_for_the_dask_executor(capsys):
    code = main(["playtest", "games", str(DUEL), "--games", "5",
                 "--scheduler", "tcp://127.0.0.1:8786"])
    assert code == 2
    assert "add --executor dask" in capsys.readouterr().err
