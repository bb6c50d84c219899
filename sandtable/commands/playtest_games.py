"""`sandtable playtest games` and `sandtable playtest replay`: whole games, AI against AI."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..cli import EXIT_OK, EXIT_PROBLEMS, UsageError
from .playtest_robust import robust_check
from .playtest_study import (
    StudySettings,
    add_study_arguments,
    checked_scenario,
    enter_executor,
    game_system,
    listed,
    open_executor_for,
    print_report,
    progress_bar,
    report_folder,
    run_on,
    writable_folder,
    write_output,
)


def register(kinds) -> None:
    games = kinds.add_parser(
        "games", help="play whole games, AI against AI, and report who wins",
        description="Play whole games of a scenario, AI against AI, and report the balance: "
        "each side's win rate with its 95% interval, game length, income and victory cities "
        "by round, where the fighting was, objective payouts. The same seed gives the same "
        "report for any number of workers.")
    games.add_argument("scenario", metavar="SCENARIO", help="a scenario folder")
    add_study_arguments(games, games=100)
    games.add_argument("--replays", metavar="DIR", default=None,
                       help="write every game's replay (JSON Lines) into DIR")
    games.add_argument("--check", action="store_true",
                       help="check the rules' invariants after every action (slower)")
    games.add_argument("--baseline", metavar="REPORT.json", default=None,
                       help="compare with an earlier report (written by --format json or "
                       "--report): each side's shift in win rate and its significance")
    games.add_argument("--max-shift", type=float, default=None, metavar="SHARE",
                       help="with --baseline: exit 1 when a side's win rate moved by more than "
                       "this share (0.05 is 5 points) with significance")
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
    from playtest.report import display_names, render_text, summarise
    from playtest.study import Study

    scenario = checked_scenario(args.scenario)
    if scenario is None:
        return EXIT_PROBLEMS
    system = game_system(scenario)
    if listed(args, system):
        return EXIT_OK
    settings = StudySettings(args, scenario, system=system)
    if args.replays:
        writable_folder(args.replays, "--replays")
    report_folder(args)
    baseline = _baseline(args, settings.sides)
    study = Study(scenario, settings.options, settings.players, args.games, args.seed,
                  args.max_rounds, check=args.check, replays=args.replays)
    executor = open_executor_for(args, args.games)
    names = display_names(scenario)
    with enter_executor(executor):
        with progress_bar(args.games, quiet=args.format != "text") as show:
            records = run_on(executor, study, show)
        meta = settings.meta(scenario, args, args.games, executor)   # before --robust's games
        robust = robust_check(args, scenario, settings, [r.result for r in records if r.result],
                              executor, names)
    report = summarise(records, meta)
    if robust is not None:
        report["robust"] = robust
    failures, comparison = [], None
    if baseline is not None:
        from playtest.compare import compare_reports, games_needed, gate
        comparison = compare_reports(baseline, report)
        failures = gate(comparison, args.max_shift) if args.max_shift is not None else []
        if args.max_shift is not None:
            comparison["games_needed"] = games_needed(comparison, args.max_shift)
        report["baseline"] = dict(comparison, file=args.baseline, max_shift=args.max_shift,
                                  failures=failures)

    def text() -> str:
        from playtest.executors import describe_executor
        from playtest.report_compare import render_gate_text
        parts = [render_text(report, names)]
        if comparison is not None:
            parts.append(render_gate_text(comparison, names, args.max_shift, failures))
        if executor.kind == "dask":
            parts.append(describe_executor(report["meta"]["executor"]))
        return "\n\n".join(parts)

    def markdown() -> str:
        from playtest.report_compare import render_report_markdown
        return render_report_markdown(report, names, comparison, args.max_shift, failures)

    print_report(args.format, report, text, markdown)
    if args.report:
        from playtest.report_html import write_report
        page = write_output("--report", args.report,
                            lambda: write_report(report, scenario, Path(args.report)))
        print(f"report: {page}", file=sys.stderr)
    if not report["finished"]:
        print(f"sandtable playtest: every game stopped by a rules error ({report['failed']} of "
              f"{report['games']}): no balance can be read from them", file=sys.stderr)
        return EXIT_PROBLEMS
    return EXIT_PROBLEMS if failures else EXIT_OK


MAX_BASELINE_BYTES = 64 * 1024 * 1024


def _baseline(args, sides: list[str]) -> dict | None:
    """The baseline report of --baseline, read and checked before any game is played: a sound
    report (its schema, numbers that add up) of the same sides as the scenario."""
    from playtest.compare import is_report, report_problems
    if args.max_shift is not None and args.baseline is None:
        raise UsageError("--max-shift needs --baseline REPORT.json to measure the shift from")
    if args.max_shift is not None and not 0 < args.max_shift < 1:
        raise UsageError("--max-shift is a share between 0 and 1, as 0.05")
    if args.baseline is None:
        return None
    path = Path(args.baseline)
    try:
        if not path.is_file():
            raise UsageError(f"--baseline {args.baseline}: not a file" if path.exists() else
                             f"--baseline {args.baseline}: cannot read it (No such file or directory)")
        if path.stat().st_size > MAX_BASELINE_BYTES:
            raise UsageError(f"--baseline {args.baseline}: larger than "
                             f"{MAX_BASELINE_BYTES // (1024 * 1024)} MiB, not a playtest report")
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as problem:
        raise UsageError(f"--baseline {args.baseline}: cannot read it ({problem.strerror})") from None
    except RecursionError:
        raise UsageError(f"--baseline {args.baseline}: nested too deeply to be a playtest "
                         "report") from None
    except (ValueError, UnicodeDecodeError) as problem:
        raise UsageError(f"--baseline {args.baseline}: not JSON ({problem})") from None
    if not is_report(data):
        raise UsageError(f"--baseline {args.baseline} is not a playtest report: write one with "
                         "`playtest games ... --format json` or --report DIR (its report.json)")
    problems = report_problems(data)
    if problems:
        raise UsageError(f"--baseline {args.baseline} is a damaged playtest report:\n  "
                         + "\n  ".join(problems))
    theirs = data["meta"]["sides"]
    if set(theirs) != set(sides):
        raise UsageError(f"--baseline {args.baseline} has the sides {', '.join(theirs)} and the "
                         f"scenario has {', '.join(sides)}: only studies of the same sides "
                         "compare (a side renamed needs a new baseline)")
    return data


# -- replay --------------------------------------------------------------------------------------
def run_replay(args) -> int:
    from engine import EngineError
    from engine.replay import Replay, ReplayError, ReplayRefused, play_back

    if not Path(args.file).exists():
        raise UsageError(f"{args.file}: cannot read it (No such file or directory)")
    try:
        replay = Replay.read(args.file)
    except ReplayRefused as problem:
        print(problem.render())
        return EXIT_PROBLEMS
    folder = args.scenario or replay.folder
    if not folder or not (Path(folder) / "scenario.yaml").is_file():
        raise UsageError(f"the scenario {replay.scenario!r} is not at {folder}; "
                         "name its folder with --scenario")
    scenario = checked_scenario(folder)
    if scenario is None:
        return EXIT_PROBLEMS
    system = game_system(scenario)
    try:
        state = play_back(replay, system)
    except ReplayRefused as problem:
        print(problem.render())
        return EXIT_PROBLEMS
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
