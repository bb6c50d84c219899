"""`sandtable playtest games` and `sandtable playtest replay`: whole games, AI against AI."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..cli import EXIT_OK, EXIT_PROBLEMS, UsageError

if TYPE_CHECKING:
    from rich.progress import Progress

MAX_GAMES = 1_000_000


def register(kinds) -> None:
    games = kinds.add_parser(
        "games", help="play whole games, AI against AI, and report who wins",
        description="Play whole games of a scenario, AI against AI, and report the balance: "
        "each side's win rate with its 95% interval, game length, income and victory cities "
        "by round, where the fighting was, objective payouts. The same seed gives the same "
        "report for any number of workers.")
    games.add_argument("scenario", metavar="SCENARIO", help="a scenario folder")
    games.add_argument("--games", type=int, default=100, metavar="N", help="games to play (100)")
    games.add_argument("--seed", type=int, default=1, metavar="S", help="the study's seed (1)")
    games.add_argument("--workers", type=int, default=None, metavar="K",
                       help="processes to play in (default: every core)")
    games.add_argument("--players", action="append", default=[], metavar="SPEC",
                       help="'heuristic' for every side, or 'SIDE=SPEC' for one side "
                       "(repeatable); a spec may carry settings: "
                       "'axis=heuristic:naval=false'; '--players list' lists them")
    games.add_argument("--max-rounds", type=int, default=None, metavar="R",
                       help="stop a game without a winner after R rounds")
    games.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="a game setting (repeatable): the scenario's options such as "
                       "research=true or victory=total-war; '--option list' lists them")
    games.add_argument("--report", metavar="DIR", default=None,
                       help="also write the report as an HTML page with plots, and as JSON, "
                       "into DIR")
    games.add_argument("--replays", metavar="DIR", default=None,
                       help="write every game's replay (JSON Lines) into DIR")
    games.add_argument("--check", action="store_true",
                       help="check the rules' invariants after every action (slower)")
    from .playtest_balance import FORMATS, add_executor_arguments
    add_executor_arguments(games)
    games.add_argument("--baseline", metavar="REPORT.json", default=None,
                       help="compare with an earlier report (written by --format json or "
                       "--report): each side's shift in win rate and its significance")
    games.add_argument("--max-shift", type=float, default=None, metavar="SHARE",
                       help="with --baseline: exit 1 when a side's win rate moved by more than "
                       "this share (0.05 is 5 points) with significance")
    games.add_argument("--format", choices=FORMATS, default="text",
                       help="text (default), json, or markdown (for $GITHUB_STEP_SUMMARY)")
    games.add_argument("--json", dest="format", action="store_const", const="json",
                       help="print the report as JSON (the same as --format json)")
    games.set_defaults(run=run_games)

    replay = kinds.add_parser(
        "replay", help="play a replay back and check that it ends the same",
        description="Play a game written by `playtest games` back, action by action, and "
        "check that it reaches the recorded end. Exit 0 when it does, 1 when it does not.")
    replay.add_argument("file", metavar="FILE", help="a replay (.jsonl)")
    replay.add_argument("--scenario", metavar="FOLDER", default=None,
                        help="the scenario folder (default: the one the replay names)")
    replay.add_argument("--verbose", action="store_true", help="print every action")
    replay.set_defaults(run=run_replay)


# -- games ---------------------------------------------------------------------------------------
def run_games(args) -> int:
    from engine.options import SettingError, resolve
    from engine.players import assign, available
    from engine.processes import available_cores
    from engine.report import display_names, render_text, summarise
    from engine.study import Study

    from .playtest_balance import enter_executor, open_executor_for, run_on

    scenario = _checked_scenario(args.scenario)
    if scenario is None:
        return EXIT_PROBLEMS
    system = game_system(scenario)
    settings = system.game_settings()
    if args.option == ["list"]:
        print("\n".join(s.describe() for s in settings) or "this game has no settings")
        return EXIT_OK
    sides = _sides(scenario)
    if args.players == ["list"]:
        for name, kind in sorted(available(system).items()):
            print(name + (":" + ",".join(s.describe() for s in kind.settings)
                          if kind.settings else ""))
        return EXIT_OK
    if not 1 <= args.games <= MAX_GAMES:
        raise UsageError(f"--games must be between 1 and {MAX_GAMES:,}")
    if args.max_rounds is not None and not 1 <= args.max_rounds <= 1000:
        raise UsageError("--max-rounds must be between 1 and 1000")
    if args.workers is not None and not 1 <= args.workers <= 1024:
        raise UsageError("--workers must be between 1 and 1024")
    try:
        options = {s.key: s.default for s in settings} | resolve(args.option, settings)
        players = assign(args.players, sides, system)
    except SettingError as problem:
        raise UsageError(str(problem)) from None
    if args.replays:
        _writable_folder(args.replays, "--replays")
    if args.report:
        _writable_folder(args.report, "--report")
        _needs_matplotlib()
    baseline = _baseline(args)
    study = Study(scenario, options, players, args.games, args.seed, args.max_rounds,
                  check=args.check, replays=args.replays)
    workers = args.workers or min(available_cores(), args.games)
    executor = open_executor_for(args, args.games)
    with _progress(args.games, quiet=args.format != "text") as show:
        with enter_executor(executor):
            records = run_on(executor, study, show)
    meta = {"scenario": scenario.id, "folder": str(scenario.root), "system": system.system,
            "sides": sides, "players": players, "options": options, "seed": args.seed,
            "games": args.games, "max_rounds": args.max_rounds, "workers": workers,
            "executor": executor.describe()}
    report = summarise(records, meta)
    failures, comparison = [], None
    if baseline is not None:
        from engine.compare import compare_reports, gate
        comparison = compare_reports(baseline, report)
        failures = gate(comparison, args.max_shift) if args.max_shift is not None else []
        report["baseline"] = dict(comparison, file=args.baseline, max_shift=args.max_shift,
                                  failures=failures)
    names = display_names(scenario)
    if args.report:
        from engine.report_html import write_report
        page = write_report(report, scenario, Path(args.report))
        print(f"report: {page}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(report, indent=2, ensure_ascii=False))
    elif args.format == "markdown":
        from engine.report_compare import render_report_markdown
        print(render_report_markdown(report, names, comparison, args.max_shift, failures), end="")
    else:
        print(render_text(report, names))
        if comparison is not None:
            from engine.report_compare import render_gate_text
            print("\n" + render_gate_text(comparison, names, args.max_shift, failures))
        if executor.kind == "dask":
            from engine.executors import describe_executor
            print("\n" + describe_executor(meta["executor"]))
    return EXIT_PROBLEMS if failures else EXIT_OK


def _baseline(args) -> dict | None:
    """The baseline report of --baseline, read before any game is played."""
    from engine.compare import is_report
    if args.max_shift is not None and args.baseline is None:
        raise UsageError("--max-shift needs --baseline REPORT.json to measure the shift from")
    if args.max_shift is not None and not 0 < args.max_shift < 1:
        raise UsageError("--max-shift is a share between 0 and 1, as 0.05")
    if args.baseline is None:
        return None
    try:
        data = json.loads(Path(args.baseline).read_text(encoding="utf-8"))
    except OSError as problem:
        raise UsageError(f"--baseline {args.baseline}: cannot read it ({problem.strerror})") from None
    except (ValueError, UnicodeDecodeError) as problem:
        raise UsageError(f"--baseline {args.baseline}: not JSON ({problem})") from None
    if not is_report(data):
        raise UsageError(f"--baseline {args.baseline} is not a playtest report: write one with "
                         "`playtest games ... --format json` or --report DIR (its report.json)")
    return data


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


def _checked_scenario(folder: str):
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


def _sides(scenario) -> list[str]:
    return [side["id"] for _, side in scenario.entities("scenario", "sides")
            if isinstance(side.get("id"), str)]


def _writable_folder(path: str, flag: str) -> None:
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as problem:
        raise UsageError(f"{flag} {path}: cannot create the folder ({problem.strerror})") from None
    if not folder.is_dir():
        raise UsageError(f"{flag} {path} is not a folder")


def _needs_matplotlib() -> None:
    import importlib.util
    if importlib.util.find_spec("matplotlib") is None:
        raise UsageError('--report draws its plots with Matplotlib, which is not installed: '
                         'python3 -m pip install "sandtable[report]"')


class _progress:
    """A progress bar on a terminal (rich); nothing when the output is not one."""

    def __init__(self, total: int, quiet: bool = False):
        self.total = total
        self.bar: Progress | None = None
        self.active = sys.stderr.isatty() and not quiet

    def __enter__(self):
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
        self.bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=True)
        self.bar.start()
        task = self.bar.add_task("games", total=self.total)
        return lambda done, total: self.bar.update(task, completed=done)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
        return False


# -- replay --------------------------------------------------------------------------------------
def run_replay(args) -> int:
    from engine import EngineError
    from engine.replay import Replay, ReplayError, play_back
    from engine.system import load_system
    from sandtable.scenario import load_scenario

    try:
        replay = Replay.read(args.file)
    except ReplayError as problem:
        raise UsageError(str(problem)) from None
    folder = args.scenario or replay.folder
    if not folder or not (Path(folder) / "scenario.yaml").is_file():
        raise UsageError(f"the scenario {replay.scenario!r} is not at {folder}; "
                         "name its folder with --scenario")
    scenario = load_scenario(folder)
    try:
        system = load_system(scenario)
        state = play_back(replay, system)
    except (ReplayError, EngineError) as problem:
        print(f"{args.file}: {problem}")
        return EXIT_PROBLEMS
    if args.verbose:
        for seat, action in replay.actions:
            print(f"{seat}: {' '.join(map(str, action))}")
    ended = state.result() if state.is_terminal() else None
    print(f"{len(replay.actions)} actions played back; round {state.round}, "
          f"{'game over' if ended else 'game not over'}")
    if replay.error:
        print(f"the game had stopped with: {replay.error.splitlines()[0]}")
        return EXIT_OK
    if replay.result is None:
        print("the replay records no result to compare with")
        return EXIT_OK
    if ended is not None and ended.as_dict() == replay.result.as_dict():
        print(f"identical end: {_describe(ended)}")
        return EXIT_OK
    print(f"different end: recorded {_describe(replay.result)}, played back "
          f"{_describe(ended) if ended else 'no end'}")
    return EXIT_PROBLEMS


def _describe(result) -> str:
    who = f"{result.winner} wins" if result.winner else "no winner"
    return f"{who} ({result.reason}) in round {result.round}"
