"""Studies on Dask distributed (playtest/distributed.py): a local cluster of two worker processes
on loopback gives the records local processes give, and loses nothing when a worker is killed
in the middle of a study."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading

import pytest

from playtest.study import Study, run_study
from sandtable.cli import main
from sandtable.scenario import load_scenario
from tests.helpers import FIXTURES, REPO

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


def test_a_study_command_enters_its_executor_once_and_closes_it(capsys, monkeypatch):
    """`with enter_executor(executor)` once entered it twice: a second Dask client (or local
    cluster) was opened and the first never closed."""
    from playtest.executors import LocalProcesses
    calls = []
    monkeypatch.setattr(LocalProcesses, "__enter__", lambda self: calls.append("enter") or self)
    monkeypatch.setattr(LocalProcesses, "__exit__", lambda self, *exc: calls.append("exit"))
    assert main(["playtest", "games", str(DUEL), "--games", "2", "--max-rounds", "1",
                 "--workers", "1", "--json"]) == 0
    assert calls == ["enter", "exit"]


# -- the scheduler's address -------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def within(seconds: float, argv: list[str]) -> int:
    """The command's exit status; fails the test when it takes longer than `seconds` (the old
    executor waited for ever on a server that does not answer Dask's handshake)."""
    found: list[int] = []
    runner = threading.Thread(target=lambda: found.append(main(argv)), daemon=True)
    runner.start()
    runner.join(seconds)
    assert found, f"still running after {seconds} s"
    return found[0]


GAMES = ["playtest", "games", str(DUEL), "--games", "4", "--max-rounds", "1", "--executor", "dask"]
HINT = ("write it as tcp://HOST:PORT, as `dask scheduler` prints it (its port is 8786 unless "
        "told otherwise; 8787 is its dashboard, a web page)")


@pytest.mark.parametrize("address", ["nonsense", "tcp://127.0.0.1", "http://127.0.0.1:8787",
                                     "tcp://127.0.0.1:0", "tcp://:8786", "tcp://host:port"])
def test_an_address_that_is_no_scheduler_address_is_a_usage_error(capsys, address):
    assert main(GAMES + ["--scheduler", address]) == 2
    assert capsys.readouterr().err == (f"sandtable playtest: --scheduler {address!r} is not a "
                                       f"scheduler address: {HINT}\n")


def listening(answer) -> tuple[str, socket.socket]:
    """A server on a free loopback port that calls `answer(connection)` for each connection."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=answer, args=(connection,), daemon=True).start()
    threading.Thread(target=serve, daemon=True).start()
    return f"tcp://127.0.0.1:{listener.getsockname()[1]}", listener


def test_a_server_that_never_answers_is_refused_within_the_timeout(capsys):
    """The dashboard's port given by mistake: a web server takes the connection and waits for
    the end of a request's headers, which Dask's handshake never sends, and Dask's connect
    waits for the server's handshake without limit."""
    address, listener = listening(lambda connection: connection.recv(1 << 20))
    try:
        assert within(30, GAMES + ["--scheduler", address, "--connect-timeout", "1"]) == 2
    finally:
        listener.close()
    assert capsys.readouterr().err == (
        f"sandtable playtest: no Dask scheduler answered at {address} within 1 s "
        "(--connect-timeout): nothing listens there, or something that is not a Dask scheduler "
        f"does; {HINT}\n")


def bad_request(connection) -> None:
    connection.recv(1 << 16)
    connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")


@pytest.mark.parametrize("answer", ["http", "banner"])
def test_a_service_that_speaks_another_protocol_is_not_taken_for_a_scheduler(capsys, answer):
    """A web server that answers Dask's handshake with "HTTP/1.1 400", whose first bytes, read
    as the length of Dask's frames, once asked for 3 EiB; a service whose banner comes first."""
    address, listener = listening(bad_request if answer == "http" else
                                  lambda connection: connection.sendall(b"SSH-2.0-OpenSSH_9.6\r\n"))
    try:
        assert within(30, GAMES + ["--scheduler", address, "--connect-timeout", "5"]) == 2
    finally:
        listener.close()
    err = capsys.readouterr().err
    assert err.startswith(f"sandtable playtest: something answers at {address}, but not as a "
                          "Dask scheduler does (") and err.endswith(f"; {HINT}\n")


def test_a_scheduler_without_workers_is_refused(capsys):
    from distributed import LocalCluster
    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address=None, scheduler_port=0) as empty:
        address = empty.scheduler_address
        assert within(60, GAMES + ["--scheduler", address, "--connect-timeout", "1"]) == 2
    assert capsys.readouterr().err == (
        f"sandtable playtest: the Dask scheduler at {address} has no workers (none joined "
        f"within 1 s): start them with `dask worker {address} --nthreads 1`\n")


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "1e9"])
def test_the_connect_timeout_is_a_number_of_seconds(capsys, value):
    assert main(GAMES + ["--scheduler", "tcp://127.0.0.1:8786", f"--connect-timeout={value}"]) == 2
    assert capsys.readouterr().err == ("sandtable playtest: --connect-timeout is a number of "
                                       "seconds, more than 0 and at most 3,600\n")


def test_the_connect_timeout_is_for_a_scheduler(capsys):
    assert main(GAMES + ["--connect-timeout", "5"]) == 2
    assert "--connect-timeout is for a Dask scheduler" in capsys.readouterr().err


# -- every worker plays the client's games ----------------------------------------------------
def _forge_fingerprint():
    """Run on a worker: its engine code now looks different (a one-line dice change)."""
    module = sys.modules["playtest.distributed"]
    module._real_fingerprint = module.code_fingerprint
    module.code_fingerprint = lambda: "0" * 64


def _restore_fingerprint():
    module = sys.modules["playtest.distributed"]
    module.code_fingerprint = module._real_fingerprint


def test_a_worker_with_other_engine_code_is_refused_by_its_address(cluster):
    from playtest.distributed import WorkerMismatch
    address = sorted(cluster.client.scheduler_info()["workers"])[0]
    cluster.client.run(_forge_fingerprint, workers=[address])
    try:
        study = Study(load_scenario(DUEL), {}, PLAYERS, 40, 5, max_rounds=1)
        with pytest.raises(WorkerMismatch) as refused:
            cluster.run(study)
    finally:
        cluster.client.run(_restore_fingerprint, workers=[address])
    assert str(refused.value) == (
        f"the Dask worker {address} would play other games than this client: its engine code or "
        "the scenario it received differs (another version of Sandtable installed there?); "
        "install the same version on every worker")


def test_a_worker_that_joins_later_is_checked_before_its_first_game(cluster):
    """The client checks the workers it sees at the start; a chunk checks its own worker."""
    from dataclasses import replace

    from playtest.distributed import WorkerMismatch, play_chunk
    from playtest.study import portable
    study = Study(load_scenario(DUEL), {}, PLAYERS, 4, 5, max_rounds=1)
    lean = replace(study, scenario=portable(study.scenario))
    address = sorted(cluster.client.scheduler_info()["workers"])[0]
    future = cluster.client.submit(play_chunk, lean, 0, 2, "f" * 64, workers=[address],
                                   pure=False)
    with pytest.raises(WorkerMismatch, match=f"the Dask worker {address} would play other games"):
        future.result()


def test_fingerprints_follow_the_code_and_the_scenario():
    from dataclasses import replace

    from playtest import distributed
    study = Study(load_scenario(DUEL), {}, PLAYERS, 4, 5)
    other = replace(study, scenario=load_scenario(FIXTURES / "balance" / "duel-reinforced"))
    assert distributed.fingerprint(study) == distributed.fingerprint(
        replace(study, seed=6, games=9))
    assert distributed.fingerprint(study) != distributed.fingerprint(other)
    assert len(distributed.code_fingerprint()) == 64


def test_replays_come_back_to_the_client(cluster, tmp_path, monkeypatch):
    """Workers never write: the client writes every replay into its own folder."""
    monkeypatch.chdir(tmp_path)
    study = Study(load_scenario(DUEL), {}, PLAYERS, 6, 5, max_rounds=1, replays="relative")
    (tmp_path / "relative").mkdir()
    records = cluster.run(study)
    assert [r.replay for r in records] == [f"relative/game-{i:06d}.jsonl" for i in range(6)]
    assert all(r.replay_text is None for r in records)
    assert sorted(p.name for p in (tmp_path / "relative").iterdir()) == [
        f"game-{i:06d}.jsonl" for i in range(6)]


# -- a real cluster: a scheduler and two workers, each its own process ------------------------
@pytest.fixture(scope="module")
def real_cluster(tmp_path_factory):
    """`dask scheduler` and two `dask worker` processes on loopback, started in a folder of
    their own (a worker's disk is not the client's)."""
    from distributed import Client
    elsewhere = tmp_path_factory.mktemp("cluster")
    environment = dict(os.environ, PYTHONPATH=str(REPO))
    address = f"tcp://127.0.0.1:{free_port()}"
    logs = open(elsewhere / "cluster.log", "wb")          # noqa: SIM115 - closed below
    started = [subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1",
                                 "--port", address.rsplit(":", 1)[1], "--no-dashboard"],
                                cwd=elsewhere, env=environment, stdout=logs, stderr=logs)]
    try:
        for number in range(2):
            started.append(subprocess.Popen(
                [sys.executable, "-m", "dask", "worker", address, "--nthreads", "1", "--no-nanny",
                 "--no-dashboard", "--name", f"worker-{number}"],
                cwd=elsewhere, env=environment, stdout=logs, stderr=logs))
        with Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
        yield address, started[1:]
    finally:
        for process in reversed(started):
            if process.poll() is None:
                process.terminate()
        for process in started:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        logs.close()


def test_a_real_cluster_gives_the_report_of_local_processes(capsys, real_cluster, tmp_path,
                                                          monkeypatch):
    """--replays with a relative path: the workers run in another folder, where it does not
    exist (once a FileNotFoundError that killed the study); the client writes them."""
    address, _ = real_cluster
    monkeypatch.chdir(tmp_path)
    argv = ["playtest", "games", str(DUEL), "--games", "60", "--max-rounds", "1", "--json",
            "--workers", "1"]
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(argv + ["--executor", "dask", "--scheduler", address, "--replays", "mine"]) == 0
    dask = json.loads(capsys.readouterr().out)
    executor = dask["meta"].pop("executor")
    assert executor["kind"] == "dask" and executor["scheduler"] == address
    assert dask["meta"].pop("workers") == executor["workers"] == 2      # not --workers 1
    assert local["meta"].pop("executor") == {"kind": "processes"}
    assert local["meta"].pop("workers") == 1
    local.pop("seconds"), dask.pop("seconds")
    assert dask == local
    assert len(list((tmp_path / "mine").glob("game-*.jsonl"))) == 60


def test_a_real_cluster_loses_no_game_when_a_worker_is_killed(real_cluster):
    """Last in this file: it kills one of the cluster's two workers."""
    from playtest.distributed import DaskExecutor
    from playtest.executors import describe_executor
    from playtest.report import summarise
    address, workers = real_cluster
    study = Study(load_scenario(DUEL), {}, PLAYERS, 600, 8, max_rounds=1)
    killed = []

    def kill_once(done, total):
        if not killed and done >= total // 8:
            workers[0].kill()
            killed.append(done)

    with DaskExecutor(address) as executor:
        records = executor.run(study, kill_once)
        where = executor.describe()
    local = run_study(study, 1)
    assert killed and killed[0] < study.games
    assert essence(records) == essence(local)
    assert summarise(records, {}) | {"seconds": 0} == summarise(local, {}) | {"seconds": 0}
    assert where["workers"] == 2 and where["workers_lost"] == 1
    assert describe_executor(where).endswith("600 of 600 games counted, none lost")
