"""What the study commands (`playtest games`, `compare`, `balance`) share: their arguments, the
checked scenario and its settings, the executor the games run on, the progress bar, and the one
way a report is printed as text, JSON or markdown."""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..cli import EXIT_OK, UsageError

if TYPE_CHECKING:
    from rich.progress import Progress

MAX_GAMES = 1_000_000
FORMATS = ("text", "json", "markdown")


# -- arguments -----------------------------------------------------------------------------------
def add_study_arguments(parser, games: int) -> None:
    """The arguments every study command takes."""
    add_play_arguments(parser, games, f"games to play ({games})", "the study's seed (1)")
    parser.add_argument("--players", action="append", default=[], metavar="SPEC",
                        help="'heuristic' for every side, or 'SIDE=SPEC' for one side "
                        "(repeatable); a spec may carry settings: "
                        "'axis=heuristic:naval=false'; '--players list' lists them")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game setting (repeatable): the scenario's options such as "
                        "research=true or victory=total-war; '--option list' lists them")
    add_executor_arguments(parser)
    add_format_arguments(parser)
    parser.add_argument("--report", metavar="DIR", default=None,
                        help="also write the report as an HTML page with plots, and as JSON, "
                        "into DIR")
    parser.add_argument("--robust", action="store_true",
                        help="also play with the next stronger player on every side (random -> "
                        "heuristic -> search), only as many games as it takes to tell whether "
                        "the verdict holds; a verdict that does not is reported as depending on "
                        "the players")
    parser.add_argument("--robust-games", type=int, default=None, metavar="N",
                        help="the most games the robust check plays (default: --games)")


def add_play_arguments(parser, games: int, games_help: str, seed_help: str) -> None:
    """How many games, from which seed, in how many processes, how long: the arguments of every
    command that plays games (the study commands and `playtest ladder`)."""
    parser.add_argument("--games", type=int, default=games, metavar="N", help=games_help)
    parser.add_argument("--seed", type=int, default=1, metavar="S", help=seed_help)
    parser.add_argument("--workers", type=int, default=None, metavar="K",
                        help="processes to play in (default: every core)")
    parser.add_argument("--max-rounds", type=int, default=None, metavar="R",
                        help="stop a game without a winner after R rounds")


def add_executor_arguments(parser, documented: bool = True) -> None:
    """Where the games are played: --executor, --scheduler, --connect-timeout (taken but not
    shown in the help where `documented` is false)."""
    def shown(text: str) -> str:
        return text if documented else argparse.SUPPRESS
    parser.add_argument("--executor", choices=("processes", "dask"), default="processes",
                        help=shown("play in local processes (default) or on Dask distributed"))
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help=shown("the Dask scheduler, as tcp://HOST:8786 (default with "
                                   "--executor dask: a local cluster of --workers processes)"))
    parser.add_argument("--connect-timeout", type=float, default=None, metavar="SECONDS",
                        help=shown("with --scheduler: how long to wait for the scheduler to "
                                   "answer, and for a first worker to join it (20)"))


def add_format_arguments(parser) -> None:
    """--format and its short form --json: how the report is printed (print_report)."""
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (default), json, or markdown (for $GITHUB_STEP_SUMMARY)")
    parser.add_argument("--json", dest="format", action="store_const", const="json",
                        help="the same as --format json")


# -- the scenario and what it is played with -----------------------------------------------------
def checked_scenario(folder: str):
    """The loaded scenario, or None after printing its errors (a scenario with errors cannot
    be played)."""
    from sandtable.scenario import load_scenario
    from validators import validate
    from validators.reporters import Result, render_text

    if not Path(folder).is_dir():
        raise UsageError(f"{folder} is not a folder")
    scenario = load_scenario(folder)
    if "scenario" in scenario.failed_kinds or not scenario.manifest:
        raise UsageError(f"{folder} is not a scenario folder")
    diagnostics = validate(scenario)
    errors = [d for d in diagnostics if d.is_error]
    if errors:
        sys.stdout.write(render_text([Result(Path(folder), errors, _line_reader(scenario))]))
        print(f"sandtable playtest: {folder} has errors; mend them before playtesting",
              file=sys.stderr)
        return None
    return scenario


def _line_reader(scenario):
    def line_of(path, line):
        source = scenario.sources.get(path)
        return source.line_text(line) if source else ""
    return line_of


def game_system(scenario):
    """The scenario's game system, or UsageError when it has none or plays no whole game."""
    from engine import EngineError
    from engine.system import load_system
    try:
        system = load_system(scenario)
    except EngineError as problem:
        raise UsageError(str(problem)) from None
    if not system.plays_games():
        raise UsageError(f"the engine plays no whole game of {system.system} (its scenario "
                         "gives no board to play on); `sandtable playtest battle` and "
                         "`playtest chart` resolve its fights and charts")
    return system


def scenario_sides(scenario) -> list[str]:
    return [side["id"] for _, side in scenario.entities("scenario", "sides")
            if isinstance(side.get("id"), str)]


def listed(args, system) -> bool:
    """Print what `--option list` or `--players list` asks for; True when something was."""
    from engine.players import available
    if args.option == ["list"]:
        print("\n".join(s.describe() for s in system.game_settings())
              or "this game has no settings")
        return True
    if args.players == ["list"]:
        print(players_table(available(system)))
        return True
    return False


HEURISTIC = "the game system's own: plays like a sensible human, quickly"


def players_table(players: dict) -> str:
    """The players and their settings as a table: one row a setting, under its player."""
    rows = [("player", "setting", "values", "default", "meaning")]
    for name, kind in sorted(players.items()):
        rows.append((name, "", "", "", kind.description or HEURISTIC if name == "heuristic"
                     else kind.description))
        for setting in kind.settings:
            rows.append(("", setting.name, setting.values(), setting.default_text(), setting.help))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True))
             + "  " + row[4] for row in rows]
    return "\n".join(line.rstrip() for line in lines)


MAX_SEED = 2**63 - 1


def check_seed(seed: int) -> None:
    """A study's seed: a whole number from 0 (NumPy's seed sequences take no negative one)."""
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"--seed must be a whole number from 0 to {MAX_SEED:,}")


class StudySettings:
    """What a study of a scenario is played with, checked against the scenario's system."""

    def __init__(self, args, scenario, known_only: bool = False, system=None):
        """`known_only`: of the --option settings, take those the scenario has (the other
        scenario of a comparison may lack some)."""
        from engine.options import SettingError, resolve
        from engine.players import assign

        self.system = system or game_system(scenario)
        self.sides = scenario_sides(scenario)
        settings = self.system.game_settings()
        chosen = args.option
        if known_only:
            names = {s.name for s in settings}
            chosen = [text for text in chosen if text.partition("=")[0].strip() in names]
        if not 1 <= args.games <= MAX_GAMES:
            raise UsageError(f"--games must be between 1 and {MAX_GAMES:,}")
        if args.max_rounds is not None and not 1 <= args.max_rounds <= 1000:
            raise UsageError("--max-rounds must be between 1 and 1000")
        check_seed(args.seed)
        try:
            self.options = {s.key: s.default for s in settings} | resolve(chosen, settings)
            self.players = assign(args.players, self.sides, self.system)
        except SettingError as problem:
            raise UsageError(str(problem)) from None

    def meta(self, scenario, args, games: int, executor) -> dict:
        """The report's `meta`: what was played, with what, and where."""
        return {"scenario": scenario.id, "folder": str(scenario.root),
                "system": self.system.system, "sides": self.sides, "players": self.players,
                "options": self.options, "seed": args.seed, "games": games,
                "max_rounds": args.max_rounds,
                "workers": executor.describe().get("workers", executor.workers),
                "executor": executor.describe(),
                "victory_target": self.system.victory_targets(self.options),
                "terms": dataclasses.asdict(self.system.report_terms)}


# -- output folders ------------------------------------------------------------------------------
def writable_folder(path: str, flag: str) -> None:
    """Check, before any game is played, that the folder exists or can be made, and takes a
    file: a small one is written and removed (a read-only or full disk is found now, not after
    the games)."""
    from sandtable.safewrite import probe_folder
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as problem:
        raise UsageError(f"{flag} {path}: cannot create the folder ({problem.strerror})") from None
    if not folder.is_dir():
        raise UsageError(f"{flag} {path} is not a folder")
    try:
        probe_folder(folder)
    except OSError as problem:
        raise UsageError(f"{flag} {path}: cannot write into the folder ({problem.strerror}); "
                         "nothing was played") from None


def write_output(flag: str, path: str, write: Callable[[], Path]) -> Path:
    """Write a study's files (`write` does) after the games: a full disk or a folder made
    read-only meanwhile is a usage error (exit 2) that says what could not be written; each
    file is written whole or not at all (sandtable/safewrite.py)."""
    try:
        return write()
    except OSError as problem:
        what = f" {problem.filename}" if problem.filename else ""
        raise UsageError(f"{flag} {path}: cannot write{what} ({problem.strerror or problem}); "
                         "the report printed above is all that was kept") from None


def report_folder(args) -> None:
    """Check --report before any game is played: a folder we can write, and Matplotlib."""
    if not args.report:
        return
    writable_folder(args.report, "--report")
    import importlib.util
    if importlib.util.find_spec("matplotlib") is None:
        raise UsageError('--report draws its plots with Matplotlib, which is not installed: '
                         'from a clone of the repository, python3 -m pip install -e ".[report]" '
                         "(or python3 -m pip install matplotlib)")


# -- where the games run -------------------------------------------------------------------------
MAX_CONNECT_TIMEOUT = 3600
def open_executor_for(args, games: int):
    """The executor the arguments ask for (not yet entered)."""
    from engine.processes import available_cores
    from playtest.distributed import DaskMissing
    from playtest.executors import open_executor
    if args.workers is not None and not 1 <= args.workers <= 1024:
        raise UsageError("--workers must be between 1 and 1024")
    workers = args.workers or min(available_cores(), games)
    timeout = args.connect_timeout
    if timeout is not None and not 0 < timeout <= MAX_CONNECT_TIMEOUT:   # also refuses nan
        raise UsageError(f"--connect-timeout is a number of seconds, more than 0 and at most "
                         f"{MAX_CONNECT_TIMEOUT:,}")
    if timeout is not None and not args.scheduler:
        raise UsageError("--connect-timeout is for a Dask scheduler: give its address with "
                         "--scheduler")
    try:
        return open_executor(args.executor, args.scheduler, workers, timeout)
    except (ValueError, DaskMissing) as problem:
        raise UsageError(str(problem)) from None


@contextlib.contextmanager
def enter_executor(executor):
    """The executor, entered once for the `with` block and closed after it; a scheduler that
    cannot be reached is a usage error (exit 2). (Returning the entered executor to `with`
    entered it twice: a second client, a second local cluster, the first never closed.)"""
    from engine import EngineError
    try:
        executor.__enter__()
    except EngineError as problem:
        raise UsageError(str(problem)) from None
    try:
        yield executor
    finally:
        executor.__exit__(None, None, None)


def run_on(executor, study, progress=None):
    """The study's records; a study the executor could not finish is an error of the
    environment (exit 2), as a scheduler out of reach is. Where the replays of games stopped by
    a rules error went, when no --replays folder was given, is said on stderr."""
    from engine import EngineError
    try:
        records = executor.run(study, progress)
    except EngineError as problem:
        raise UsageError(str(problem)) from None
    failed = [record.replay for record in records if record.error and record.replay]
    if failed and not study.replays:
        print(f"sandtable playtest: {len(failed)} game(s) of {study.scenario.id} stopped by a "
              f"rules error; their replays are in {Path(failed[0]).parent}", file=sys.stderr)
    return records


# -- progress ------------------------------------------------------------------------------------
class progress_bar:
    """A progress bar on a terminal (rich); nothing when the output is not one. Entered, it
    gives `show(done, total)`, or None."""

    def __init__(self, total: int, quiet: bool = False, label: str = "games"):
        self.total, self.label = total, label
        self.bar: Progress | None = None
        self.active = sys.stderr.isatty() and not quiet

    def __enter__(self) -> Callable[[int, int], None] | None:
        if not self.active:
            return None
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        from ..safetext import unguarded  # its own cursor moves reach the terminal; it holds no data
        bar = self.bar = Progress(TextColumn(self.label), BarColumn(), MofNCompleteColumn(),
                                  TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                                  console=Console(file=unguarded(sys.stderr)), transient=True)
        bar.start()
        task = bar.add_task(self.label, total=self.total)

        def show(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)
        return show

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
        return False


class StudiesBar:
    """One progress bar over several studies played one after another."""

    def __init__(self, show, total: int):
        self.show, self.total, self.done = show, total, 0

    def study(self):
        start = self.done

        def update(done: int, _total: int) -> None:
            self.done = start + done
            if self.show:
                self.show(self.done, self.total)
        return update


# -- printing ------------------------------------------------------------------------------------
def print_report(fmt: str, data: dict, text: Callable[[], str],
                 markdown: Callable[[], str]) -> int:
    """Print a study's report in the asked format: its JSON, its markdown (for a job summary) or
    its text; the renderers are called only for the format printed."""
    if fmt == "json":
        print(json.dumps(data, indent=2, ensure_ascii=False))
    elif fmt == "markdown":
        print(markdown(), end="")
    else:
        print(text())
    return EXIT_OK
