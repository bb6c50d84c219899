"""`sandtable playtest compare` and `sandtable playtest balance`: did a variant move the balance,
which of its changes did, and what value of a number makes a scenario fair."""
from __future__ import annotations

import difflib
import json
import sys
from pathlib import Path

from ..cli import EXIT_OK, EXIT_PROBLEMS, UsageError
from .playtest_games import MAX_GAMES, _checked_scenario, _needs_matplotlib, _progress, _sides, _writable_folder

FORMATS = ("text", "json", "markdown")


def register(kinds) -> None:
    compare = kinds.add_parser(
        "compare", help="did a variant move the balance, and which change did it",
        description="Play a scenario and another (by default the scenario it extends) with the "
        "same seeds and players, and report each side's win rate in both with 95% intervals, "
        "the shift and whether it is significant (McNemar's exact test on the games paired by "
        "seed), and the shift in game length, income and victory cities by round. For a "
        "variant, an ablation: each change it makes to its parent, applied alone to the "
        "parent, and its effect on the win rates.")
    compare.add_argument("scenario", metavar="SCENARIO", help="a scenario folder (the variant)")
    compare.add_argument("other", metavar="OTHER", nargs="?", default=None,
                         help="the scenario to compare with (default: the one SCENARIO extends)")
    add_study_arguments(compare, games=200)
    compare.add_argument("--ablation", choices=("auto", "change", "group", "none"),
                         default="auto",
                         help="try each change alone (change), each file's list of changes alone "
                         "(group), or neither; auto: by change when there are at most "
                         "--max-changes, else by group")
    compare.add_argument("--max-changes", type=int, default=12, metavar="N",
                         help="the most changes (or groups) the ablation tries (12)")
    compare.add_argument("--ablation-games", type=int, default=None, metavar="N",
                         help="games for each change tried alone (default: --games)")
    compare.set_defaults(run=run_compare)

    balance = kinds.add_parser(
        "balance", help="the value of a number that makes a side win a target share",
        description="Search for the value of a number in the scenario (a knob, named by its "
        "JSON pointer: /setup/resources/0/amount is the first nation's starting money) at "
        "which a side wins the target share of games. Games are played where the answer is "
        "still uncertain: a logistic curve of the win rate is fitted over the knob and the "
        "next games go to its crossing of the target. Reports the value with its 95% "
        "interval and the win-rate curve found. Exit 0 when a value was found in the range, "
        "1 when none was.")
    balance.add_argument("scenario", metavar="SCENARIO", help="a scenario folder")
    balance.add_argument("--knob", required=True, metavar="POINTER",
                         help="the number to tune: /FILE-KIND/path, as /setup/resources/1/amount "
                         "or /units/unit_types/0/cost")
    balance.add_argument("--target", type=float, default=0.5, metavar="SHARE",
                         help="the share of games the side should win (0.5)")
    balance.add_argument("--side", default=None, metavar="SIDE",
                         help="the side whose win rate is tuned (default: the first side)")
    balance.add_argument("--range", default=None, metavar="LOW:HIGH",
                         help="the values to search (default: 0 to twice the scenario's value)")
    balance.add_argument("--count", choices=("decided", "adjudicated", "all"),
                         default="decided",
                         help="share of decided games (default: games with no winner do not "
                         "count); adjudicated: a game stopped at the round limit goes to the "
                         "side ahead in victory cities, as tournaments judge unfinished games "
                         "(level ones do not count); or all games")
    balance.add_argument("--batch", type=int, default=None, metavar="N",
                         help="games per step of the search (default: a tenth of --games)")
    balance.add_argument("--tolerance", type=float, default=0.0, metavar="WIDTH",
                         help="stop early once the 95%% interval is this narrow")
    add_study_arguments(balance, games=400)
    balance.set_defaults(run=run_balance)


def add_study_arguments(parser, games: int) -> None:
    """The arguments every study command shares with `playtest games`."""
    parser.add_argument("--games", type=int, default=games, metavar="N",
                        help=f"games to play ({games})")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="the study's seed (1)")
    parser.add_argument("--workers", type=int, default=None, metavar="K",
                        help="processes to play in (default: every core)")
    parser.add_argument("--players", action="append", default=[], metavar="SPEC",
                        help="'heuristic' for every side, or 'SIDE=SPEC' (repeatable)")
    parser.add_argument("--max-rounds", type=int, default=None, metavar="R",
                        help="stop a game without a winner after R rounds")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game setting (repeatable), as victory=projection")
    add_executor_arguments(parser)
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (default), json, or markdown (for $GITHUB_STEP_SUMMARY)")
    parser.add_argument("--json", dest="format", action="store_const", const="json",
                        help="the same as --format json")
    parser.add_argument("--report", metavar="DIR", default=None,
                        help="also write the report as an HTML page with plots, and as JSON, "
                        "into DIR")


def add_executor_arguments(parser) -> None:
    parser.add_argument("--executor", choices=("processes", "dask"), default="processes",
                        help="play in local processes (default) or on Dask distributed")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="the Dask scheduler, as tcp://HOST:8786 (default with --executor "
                        "dask: a local cluster of --workers processes)")


def open_executor_for(args, games: int):
    """The executor the arguments ask for, and the number of workers to report."""
    from engine.distributed import DaskMissing
    from engine.executors import open_executor
    from engine.processes import available_cores
    if args.workers is not None and not 1 <= args.workers <= 1024:
        raise UsageError("--workers must be between 1 and 1024")
    workers = args.workers or min(available_cores(), games)
    try:
        return open_executor(args.executor, args.scheduler, workers)
    except (ValueError, DaskMissing) as problem:
        raise UsageError(str(problem)) from None


def run_on(executor, study, progress=None):
    """The study's records; a study the executor could not finish is an error of the
    environment (exit 2), as a scheduler out of reach is."""
    from engine import EngineError
    try:
        return executor.run(study, progress)
    except EngineError as problem:
        raise UsageError(str(problem)) from None


def enter_executor(executor):
    """Enter an executor; a scheduler that cannot be reached is a usage error (exit 2)."""
    from engine import EngineError
    try:
        return executor.__enter__()
    except EngineError as problem:
        raise UsageError(str(problem)) from None


class _Settings:
    """What a study of a scenario is played with, checked against the scenario's system."""

    def __init__(self, args, scenario, known_only: bool = False):
        """`known_only`: of the --option settings, take those the scenario has (the other
        scenario of a comparison may lack some)."""
        from engine.options import SettingError, resolve
        from engine.players import assign

        from .playtest_games import game_system
        self.system = game_system(scenario)
        self.sides = _sides(scenario)
        settings = self.system.game_settings()
        chosen = args.option
        if known_only:
            names = {s.name for s in settings}
            chosen = [text for text in chosen if text.partition("=")[0].strip() in names]
        try:
            self.options = {s.key: s.default for s in settings} | resolve(chosen, settings)
            self.players = assign(args.players, self.sides, self.system)
        except SettingError as problem:
            raise UsageError(str(problem)) from None
        if not 1 <= args.games <= MAX_GAMES:
            raise UsageError(f"--games must be between 1 and {MAX_GAMES:,}")
        if args.max_rounds is not None and not 1 <= args.max_rounds <= 1000:
            raise UsageError("--max-rounds must be between 1 and 1000")

    def meta(self, scenario, args, games: int, executor) -> dict:
        return {"scenario": scenario.id, "folder": str(scenario.root),
                "system": self.system.system, "sides": self.sides, "players": self.players,
                "options": self.options, "seed": args.seed, "games": games,
                "max_rounds": args.max_rounds,
                "workers": executor.describe().get("workers", executor.workers),
                "executor": executor.describe()}


class _Bar:
    """One progress bar over several studies."""

    def __init__(self, show, total: int):
        self.show, self.total, self.done = show, total, 0

    def study(self):
        start = self.done

        def update(done: int, _total: int) -> None:
            self.done = start + done
            if self.show:
                self.show(self.done, self.total)
        return update


# -- compare -------------------------------------------------------------------------------------
def run_compare(args) -> int:
    from engine.compare import compare_reports
    from engine.report import display_names, summarise
    from engine.study import Study

    scenario = _checked_scenario(args.scenario)
    if scenario is None:
        return EXIT_PROBLEMS
    if args.other is None and len(scenario.lineage) < 2:
        raise UsageError(f"{args.scenario} extends no scenario: name the one to compare it "
                         "with, as `playtest compare SCENARIO OTHER`")
    other_folder = args.other or str(scenario.lineage[1])
    other = _checked_scenario(other_folder)
    if other is None:
        return EXIT_PROBLEMS
    settings = _Settings(args, scenario)
    other_settings = _Settings(args, other, known_only=True)
    if other_settings.sides != settings.sides:
        raise UsageError(f"{other.id} has the sides {', '.join(other_settings.sides)} and "
                         f"{scenario.id} has {', '.join(settings.sides)}: only scenarios of the "
                         "same sides compare")
    if not 1 <= args.max_changes <= 1000:
        raise UsageError("--max-changes must be between 1 and 1000")
    ablation_games = args.ablation_games or args.games
    if not 1 <= ablation_games <= MAX_GAMES:
        raise UsageError(f"--ablation-games must be between 1 and {MAX_GAMES:,}")
    if args.report:
        _writable_folder(args.report, "--report")
        _needs_matplotlib()
    is_parent = len(scenario.lineage) > 1 and \
        Path(other_folder).resolve() == Path(scenario.lineage[1]).resolve()
    plan = _ablation_plan(args, scenario, other if is_parent else None)
    executor = open_executor_for(args, args.games)
    total = 2 * args.games + ablation_games * len(plan["items"]) + \
        (ablation_games if plan["items"] and ablation_games != args.games else 0)
    with _progress(total, quiet=args.format != "text") as show:
        bar = _Bar(show, total)
        with enter_executor(executor):
            reports = {}
            for key, which, chosen in (("old", other, other_settings), ("new", scenario, settings)):
                study = Study(which, chosen.options, settings.players, args.games, args.seed,
                              args.max_rounds)
                records = run_on(executor, study, bar.study())
                reports[key] = summarise(records, chosen.meta(which, args, args.games, executor))
            comparison = compare_reports(reports["old"], reports["new"])
            ablation = _run_ablation(plan, args, other_settings, settings.players, executor,
                                     reports["old"], ablation_games, bar) if is_parent else \
                {"changes": [], "note": "the ablation tries a variant's changes on the "
                 "scenario it extends; compare without OTHER for it"}
    comparison["reports"] = reports
    comparison["ablation"] = ablation
    names = display_names(scenario)
    if args.report:
        from engine.report_compare_html import write_comparison_report
        page = write_comparison_report(comparison, scenario, other, Path(args.report))
        print(f"report: {page}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(comparison, indent=2, ensure_ascii=False))
    elif args.format == "markdown":
        from engine.report_compare import render_comparison_markdown
        print(render_comparison_markdown(comparison, names, ablation), end="")
    else:
        from engine.executors import describe_executor
        from engine.report_compare import render_comparison_text
        print(render_comparison_text(comparison, names, ablation))
        print("\n" + describe_executor(reports["new"]["meta"]["executor"],
                                        reports["new"]["meta"]["workers"]))
    return EXIT_OK


def _ablation_plan(args, scenario, parent) -> dict:
    """The changes (or groups of changes) to try alone, or a note why there are none."""
    from sandtable.variant_changes import variant_changes
    if parent is None or args.ablation == "none":
        return {"by": None, "items": [], "parent": None,
                "note": "no ablation asked" if args.ablation == "none" else ""}
    changes = variant_changes(scenario, parent)
    groups: dict[str, list] = {}
    for change in changes:
        groups.setdefault(change.group, []).append(change)
    note = ""
    if args.ablation in ("auto", "change") and len(changes) <= args.max_changes:
        return {"by": "change", "parent": parent, "note": "",
                "items": [(c.label, [c]) for c in changes]}
    if args.ablation == "change":
        note = (f"{len(changes)} changes are more than --max-changes {args.max_changes}; "
                "try --ablation group")
    elif len(groups) <= args.max_changes:
        if args.ablation == "auto":
            note = (f"{len(changes)} changes, more than --max-changes {args.max_changes}: "
                    "tried by group")
        return {"by": "group", "parent": parent, "note": note,
                "items": [(f"{group} ({len(found)} change{'s' if len(found) != 1 else ''})",
                           found) for group, found in groups.items()]}
    else:
        note = (f"{len(changes)} changes in {len(groups)} groups, more than --max-changes "
                f"{args.max_changes}")
    return {"by": None, "items": [], "parent": parent, "note": note}


def _run_ablation(plan, args, parent_settings, players, executor, parent_report, games,
                  bar) -> dict:
    from engine import EngineError
    from engine.compare import compare_reports
    from engine.report import summarise
    from engine.study import Study
    from engine.system import load_system
    from sandtable.variant_changes import apply_changes
    from validators import validate

    found = {"by": plan["by"], "parent": plan["parent"].id if plan["parent"] else None,
             "games": games, "note": plan["note"], "sides": parent_settings.sides, "changes": []}
    baseline = parent_report
    if games != args.games:                     # the parent again, with the ablation's games
        study = Study(plan["parent"], parent_settings.options, players, games, args.seed,
                      args.max_rounds)
        baseline = summarise(run_on(executor, study, bar.study()), parent_settings.meta(
            plan["parent"], args, games, executor))
    for label, changes in plan["items"]:
        item = {"label": label, "changes": [c.as_dict() for c in changes]}
        found["changes"].append(item)
        scenario = apply_changes(plan["parent"], changes)
        broken = [d for d in validate(scenario) if d.is_error]
        if broken:
            item["invalid"] = f"{broken[0].code}: {broken[0].message}"
        try:
            load_system(scenario)
        except EngineError as problem:
            item["error"] = f"cannot be played alone: {problem}"
            bar.study()(games, games)
            continue
        study = Study(scenario, parent_settings.options, players, games, args.seed,
                      args.max_rounds)
        report = summarise(run_on(executor, study, bar.study()),
                           parent_settings.meta(scenario, args, games, executor))
        if not report["finished"]:
            item["error"] = "no game could be played: " + report["errors"][0]["error"]
            continue
        item["sides"] = compare_reports(baseline, report)["sides"]
    return found


# -- balance -------------------------------------------------------------------------------------
def run_balance(args) -> int:
    from engine.fairness import find_fair_value
    from engine.knob import KnobError, find_knob, with_knob
    from engine.report import display_names
    from engine.study import Study, game_seed

    scenario = _checked_scenario(args.scenario)
    if scenario is None:
        return EXIT_PROBLEMS
    settings = _Settings(args, scenario)
    try:
        knob = find_knob(scenario, args.knob)
    except KnobError as problem:
        raise UsageError(f"--knob {problem}") from None
    side = args.side or settings.sides[0]
    if side not in settings.sides:
        close = difflib.get_close_matches(side, settings.sides, n=1, cutoff=0.5)
        raise UsageError(f"--side {side!r} is not a side of {scenario.id}"
                         + (f"; did you mean {close[0]}?" if close else "")
                         + f" (sides: {', '.join(settings.sides)})")
    if not 0 < args.target < 1:
        raise UsageError("--target is a share between 0 and 1, as 0.5")
    low, high = _range(args.range, knob)
    if args.batch is not None and not 1 <= args.batch <= args.games:
        raise UsageError("--batch must be between 1 and --games")
    if args.report:
        _writable_folder(args.report, "--report")
        _needs_matplotlib()
    executor = open_executor_for(args, args.batch or args.games)
    failed: list[str] = []

    def play(value: float, games: int, number: int) -> tuple[int, int]:
        study = Study(with_knob(scenario, knob, value), settings.options, settings.players,
                      games, game_seed(args.seed, number), args.max_rounds)
        records = run_on(executor, study)
        finished = [r.result for r in records if r.result]
        failed.extend(r.error for r in records if not r.result)
        winners = [_winner(result, args.count) for result in finished]
        wins = sum(1 for winner in winners if winner == side)
        counted = len(finished) if args.count == "all" else \
            sum(1 for winner in winners if winner is not None)
        return wins, counted

    with _progress(args.games, quiet=args.format != "text") as show:
        with enter_executor(executor):
            answer = find_fair_value(play, low, high, args.target, args.games, args.batch,
                                     knob.integer, args.tolerance, show)
            where = executor.describe()
    answer.update({
        "format": "sandtable-fair-value", "version": 1, "scenario": scenario.id,
        "folder": str(scenario.root), "side": side, "count": args.count, "seed": args.seed,
        "knob": {"pointer": knob.pointer, "label": knob.label, "value": knob.value},
        "players": settings.players, "options": settings.options,
        "max_rounds": args.max_rounds, "failed": len(failed), "executor": where})
    names = display_names(scenario)
    if args.report:
        from engine.report_compare_html import write_fair_report
        page = write_fair_report(answer, scenario, Path(args.report))
        print(f"report: {page}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(answer, indent=2, ensure_ascii=False))
    elif args.format == "markdown":
        from engine.report_compare import render_fair_markdown
        print(render_fair_markdown(answer, names), end="")
    else:
        from engine.report_compare import render_fair_text
        print(render_fair_text(answer, names))
        if failed:
            print(f"\n{len(failed)} game(s) stopped by a rules error, not counted: "
                  f"{failed[0].splitlines()[0]}")
    return EXIT_OK if answer["found"] else EXIT_PROBLEMS


def _winner(result: dict, count: str) -> str | None:
    """Who a game counts for: its winner, or with `adjudicated`, the side ahead in victory
    cities when it stopped at the round limit (None when level)."""
    from engine.report import leader_at_limit
    if result["winner"] is not None or count != "adjudicated":
        return result["winner"]
    leader = leader_at_limit(result)
    return None if leader == "level" else leader


def _range(text: str | None, knob) -> tuple[float, float]:
    if text is None:
        if knob.value > 0:
            return 0.0, 2.0 * knob.value
        raise UsageError(f"{knob.pointer} is {knob.value:g} in the scenario: give the values to "
                         "search with --range LOW:HIGH")
    low, sep, high = text.partition(":")
    try:
        if not sep:
            raise ValueError
        found = float(low), float(high)
    except ValueError:
        raise UsageError(f"--range {text!r}: give LOW:HIGH, as 0:40") from None
    if not found[0] < found[1]:
        raise UsageError(f"--range {text!r}: LOW must be below HIGH")
    if knob.integer and round(found[1]) - round(found[0]) < 1:
        raise UsageError(f"--range {text!r}: {knob.pointer} takes whole numbers, and the range "
                         "holds fewer than two")
    return found
