"""`sandtable playtest compare` and `sandtable playtest balance`: did a variant move the balance,
which of its changes did, and what value of a number makes a scenario fair."""
from __future__ import annotations

import difflib
import math
import sys
from pathlib import Path

from ..cli import EXIT_OK, EXIT_PROBLEMS, UsageError
from .playtest_robust import robust_fair_value, robust_shift
from .playtest_study import (
    MAX_GAMES,
    StudiesBar,
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
    write_output,
)

MAX_KNOB = 1e12           # the largest value a knob is searched over: money, counts, costs


def register(kinds) -> None:
    compare = kinds.add_parser(
        "compare", help="did a variant move the balance, and which change did it",
        description="Play a scenario and another (by default the scenario it extends) with the "
        "same seeds and players, and report each side's win rate in both with 95% intervals, "
        "the shift and whether it is significant (Newcombe's interval on the games paired by "
        "seed, Holm-corrected over the sides), and the shift in game length, income and victory cities by round. For a "
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


# -- compare -------------------------------------------------------------------------------------
def run_compare(args) -> int:
    from playtest.compare import compare_reports
    from playtest.report import display_names, summarise
    from playtest.study import Study

    scenario = checked_scenario(args.scenario)
    if scenario is None:
        return EXIT_PROBLEMS
    if args.other is None and len(scenario.lineage) < 2:
        raise UsageError(f"{args.scenario} extends no scenario: name the one to compare it "
                         "with, as `playtest compare SCENARIO OTHER`")
    other_folder = args.other or str(scenario.lineage[1])
    other = checked_scenario(other_folder)
    if other is None:
        return EXIT_PROBLEMS
    if listed(args, game_system(scenario)):
        return EXIT_OK
    settings = StudySettings(args, scenario)
    other_settings = StudySettings(args, other, known_only=True)
    if other_settings.sides != settings.sides:
        raise UsageError(f"{other.id} has the sides {', '.join(other_settings.sides)} and "
                         f"{scenario.id} has {', '.join(settings.sides)}: only scenarios of the "
                         "same sides compare")
    if not 1 <= args.max_changes <= 1000:
        raise UsageError("--max-changes must be between 1 and 1000")
    ablation_games = args.ablation_games or args.games
    if not 1 <= ablation_games <= MAX_GAMES:
        raise UsageError(f"--ablation-games must be between 1 and {MAX_GAMES:,}")
    report_folder(args)
    is_parent = len(scenario.lineage) > 1 and \
        Path(other_folder).resolve() == Path(scenario.lineage[1]).resolve()
    plan = _ablation_plan(args, scenario, other if is_parent else None)
    executor = open_executor_for(args, args.games)
    total = 2 * args.games + ablation_games * len(plan["items"]) + \
        (ablation_games if plan["items"] and ablation_games != args.games else 0)
    with progress_bar(total, quiet=args.format != "text") as show:
        bar = StudiesBar(show, total)
        with enter_executor(executor):
            reports = {}
            for key, which, chosen in (("old", other, other_settings), ("new", scenario, settings)):
                study = Study(which, chosen.options, settings.players, args.games, args.seed,
                              args.max_rounds)
                records = run_on(executor, study, bar.study())
                reports[key] = summarise(records, chosen.meta(which, args, args.games, executor))
            comparison = compare_reports(reports["old"], reports["new"])
            robust = robust_shift(args, {"old": other, "new": scenario},
                                  {"old": other_settings, "new": settings}, reports, executor)
            if robust is not None:
                comparison["robust"] = robust
            ablation = _run_ablation(plan, args, other_settings, settings.players, executor,
                                     reports["old"], ablation_games, bar) if is_parent else \
                {"changes": [], "note": "the ablation tries a variant's changes on the "
                 "scenario it extends; compare without OTHER for it"}
    comparison["reports"] = reports
    comparison["ablation"] = ablation
    names = display_names(scenario)

    def text() -> str:
        from playtest.executors import describe_executor
        from playtest.report_compare import render_comparison_text
        return render_comparison_text(comparison, names, ablation) + "\n\n" + describe_executor(
            reports["new"]["meta"]["executor"], reports["new"]["meta"]["workers"])

    def markdown() -> str:
        from playtest.report_compare import render_comparison_markdown
        return render_comparison_markdown(comparison, names, ablation)

    print_report(args.format, comparison, text, markdown)
    if args.report:
        from playtest.report_compare_html import write_comparison_report
        page = write_output("--report", args.report, lambda: write_comparison_report(
            comparison, scenario, other, Path(args.report)))
        print(f"report: {page}", file=sys.stderr)
    broken = [key for key in ("old", "new") if not reports[key]["finished"]]
    if broken:
        print("sandtable playtest: every game of " + " and ".join(
            reports[key]["meta"]["scenario"] for key in broken) + " stopped by a rules error: "
            "nothing to compare", file=sys.stderr)
        return EXIT_PROBLEMS
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
    from engine.system import load_system
    from playtest.compare import compare_reports, correct_family
    from playtest.report import summarise
    from playtest.study import Study
    from sandtable.variant_changes import apply_changes
    from validators import validate

    found = {"by": plan["by"], "parent": plan["parent"].id if plan["parent"] else None,
             "games": games, "note": plan["note"], "sides": parent_settings.sides, "changes": []}
    baseline = parent_report
    if games != args.games and plan["items"]:   # the parent again, with the ablation's games
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
    # every change and side tried is one family of tests: a star is a false alarm at most 5%
    # of the time over the whole ablation, not per change
    family = {(i, side): shift for i, item in enumerate(found["changes"])
              for side, shift in (item.get("sides") or {}).items()}
    correct_family(family)
    found["family"] = {"method": "holm", "tests": len(family)}
    return found


# -- balance -------------------------------------------------------------------------------------
def run_balance(args) -> int:
    from playtest.fairness import find_fair_value
    from playtest.knob import KnobError, find_knob, with_knob
    from playtest.report import display_names
    from playtest.study import Study, game_seed

    scenario = checked_scenario(args.scenario)
    if scenario is None:
        return EXIT_PROBLEMS
    if listed(args, game_system(scenario)):
        return EXIT_OK
    settings = StudySettings(args, scenario)
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
    report_folder(args)
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

    with progress_bar(args.games, quiet=args.format != "text") as show:
        with enter_executor(executor):
            answer = find_fair_value(play, low, high, args.target, args.games, args.batch,
                                     knob.integer, args.tolerance, show)
            where = executor.describe()
            robust = robust_fair_value(
                args, with_knob(scenario, knob, answer["value"]), settings, side, executor,
                lambda result: _winner(result, args.count)) if answer["found"] else None
    answer.update({
        "format": "sandtable-fair-value", "version": 1, "scenario": scenario.id,
        "folder": str(scenario.root), "side": side, "count": args.count, "seed": args.seed,
        "knob": {"pointer": knob.pointer, "label": knob.label, "value": knob.value},
        "players": settings.players, "options": settings.options,
        "max_rounds": args.max_rounds, "failed": len(failed), "executor": where})
    if robust is not None:
        answer["robust"] = robust
    names = display_names(scenario)

    def text() -> str:
        from playtest.report_compare import render_fair_text
        shown = render_fair_text(answer, names)
        if failed:
            shown += (f"\n\n{len(failed)} game(s) stopped by a rules error, not counted: "
                      f"{failed[0].splitlines()[0]}")
        return shown

    def markdown() -> str:
        from playtest.report_compare import render_fair_markdown
        return render_fair_markdown(answer, names)

    print_report(args.format, answer, text, markdown)
    if args.report:
        from playtest.report_compare_html import write_fair_report
        page = write_output("--report", args.report,
                            lambda: write_fair_report(answer, scenario, Path(args.report)))
        print(f"report: {page}", file=sys.stderr)
    return EXIT_OK if answer["found"] else EXIT_PROBLEMS


def _winner(result: dict, count: str) -> str | None:
    """Who a game counts for: its winner, or with `adjudicated`, the side ahead in victory
    cities when it stopped at the round limit (None when level)."""
    from playtest.report import leader_at_limit
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
    if not all(math.isfinite(v) and abs(v) <= MAX_KNOB for v in found):
        raise UsageError(f"--range {text!r}: give finite values between {-MAX_KNOB:g} and "
                         f"{MAX_KNOB:g}")
    if not found[0] < found[1]:
        raise UsageError(f"--range {text!r}: LOW must be below HIGH")
    if knob.integer and round(found[1]) - round(found[0]) < 1:
        raise UsageError(f"--range {text!r}: {knob.pointer} takes whole numbers, and the range "
                         "holds fewer than two")
    return found
