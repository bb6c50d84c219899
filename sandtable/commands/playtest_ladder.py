"""`sandtable playtest ladder`: how strong the players are, by playing them against each other."""
from __future__ import annotations

from ..cli import EXIT_OK, EXIT_PROBLEMS, UsageError
from .playtest_study import (
    StudySettings,
    add_executor_arguments,
    add_format_arguments,
    add_play_arguments,
    checked_scenario,
    enter_executor,
    game_system,
    open_executor_for,
    print_report,
    progress_bar,
    run_on,
)

MAX_PLAYERS = 6


def register(kinds) -> None:
    ladder = kinds.add_parser(
        "ladder", help="rate the players against each other (Elo, with intervals)",
        description="Play every player against every player (itself too), from both sides, "
        "the same seeds for every pairing, and rate them on the Elo scale with 95% intervals, "
        "a side's advantage fitted apart (Bradley-Terry with a seat term). The table of each "
        "pairing shows a side's share of decided games with each player in the same seat "
        "against the same opponent.")
    ladder.add_argument("scenario", metavar="SCENARIO", help="a scenario folder")
    ladder.add_argument("--players", default=None, metavar="A,B,...",
                        help="the players to rate, weakest first (default: every player the "
                        "system has: random, heuristic, search)")
    add_play_arguments(ladder, 20, "games for each pairing (20)", "the ladder's seed (1)")
    ladder.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game setting (repeatable)")
    add_executor_arguments(ladder, documented=False)
    add_format_arguments(ladder)
    ladder.set_defaults(run=run_ladder)


def run_ladder(args) -> int:
    from engine.options import SettingError
    from engine.players import available, check_spec
    from playtest.ladder import pairings, render_ladder_markdown, render_ladder_text, summarise_ladder
    from playtest.report import display_names
    from playtest.study import Study

    scenario = checked_scenario(args.scenario)
    if scenario is None:
        return EXIT_PROBLEMS
    system = game_system(scenario)
    known = available(system)
    players = [p.strip() for p in args.players.split(",") if p.strip()] if args.players \
        else [p for p in ("random", "heuristic", "search") if p in known]
    if not 2 <= len(players) <= MAX_PLAYERS or len(set(players)) != len(players):
        raise UsageError(f"--players: name 2 to {MAX_PLAYERS} different players, as "
                         "random,heuristic,search")
    try:
        for spec in players:
            check_spec(spec, system)
    except SettingError as problem:
        raise UsageError(f"--players: {problem}") from None
    args.players = []                             # the settings check the other arguments
    settings = StudySettings(args, scenario, system=system)
    if len(settings.sides) != 2:
        raise UsageError("a ladder rates players of a two-sided game")
    first, second = settings.sides
    matches = pairings(players)
    executor = open_executor_for(args, args.games)
    total = args.games * len(matches)
    results = {}
    with enter_executor(executor), progress_bar(total, quiet=args.format != "text") as show:
        for number, (one, other) in enumerate(matches):
            study = Study(scenario, settings.options, {first: one, second: other}, args.games,
                          args.seed, args.max_rounds)

            def update(done, _total, offset=number * args.games):
                if show:
                    show(offset + done, total)
            records = run_on(executor, study, update)
            results[(one, other)] = [r.result for r in records if r.result]
    meta = {"scenario": scenario.id, "folder": str(scenario.root), "system": system.system,
            "sides": settings.sides, "ladder": players, "options": settings.options,
            "seed": args.seed, "games": args.games, "max_rounds": args.max_rounds}
    ladder = summarise_ladder(results, players, settings.sides, meta)
    names = display_names(scenario)
    print_report(args.format, ladder, lambda: render_ladder_text(ladder, names),
                 lambda: render_ladder_markdown(ladder, names))
    return EXIT_OK
