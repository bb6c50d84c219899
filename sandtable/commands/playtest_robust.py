"""`--robust` for the study commands: the study's claim checked with the next stronger players
(playtest/robust.py does the statistics; this plays the batches where the command's games
run)."""
from __future__ import annotations

from ..cli import UsageError
from .playtest_study import MAX_GAMES, StudySettings, run_on


def robust_check(args, scenario, settings: StudySettings, results: list[dict], executor,
                 names: dict[str, str]) -> dict | None:
    """With --robust: whether the verdict of `results` (the study's game results) holds with
    the next stronger players (playtest/robust.py); None without --robust."""
    if not args.robust:
        return None
    from playtest.robust import SEED_OFFSET, check_robust, count_games, describe
    from playtest.study import Study, game_seed
    found = _stronger(args, settings)
    if isinstance(found, dict):
        return found
    players, notes, most, batch = found
    sides = settings.sides

    def play(look: int, games: int):
        study = Study(scenario, settings.options, players, games,
                      game_seed(args.seed, SEED_OFFSET + look), args.max_rounds)
        return count_games([r.result for r in run_on(executor, study, None) if r.result], sides)

    check = check_robust(count_games(results, sides), play, sides, most, batch)
    check["players"], check["notes"] = players, notes
    check["summary"] = describe(check, sides, settings.players, players, names)
    return check


def _stronger(args, settings: StudySettings) -> tuple[dict, list[str], int, int] | dict:
    """The stronger players, notes, the most games and the batch size of a robust check; or
    the check's answer when it cannot be made."""
    from playtest.robust import stronger_players
    if len(settings.sides) != 2:
        return {"result": "unsettled", "summary": "the robust check compares two sides"}
    players, notes = stronger_players(settings.players, settings.system)
    most = args.robust_games or args.games
    if not 1 <= most <= MAX_GAMES:
        raise UsageError(f"--robust-games must be between 1 and {MAX_GAMES:,}")
    if players == settings.players:
        return {"result": "unsettled", "players": players, "notes": notes, "games": 0,
                "summary": "no side has a stronger player to check the verdict with"}
    return players, notes, most, 10


def robust_shift(args, scenarios: dict, settings: dict[str, StudySettings], reports: dict,
                 executor) -> dict | None:
    """With --robust: whether a comparison's shift (for the first side, game by game) holds
    with the next stronger players, the old and new scenarios played on the same seeds."""
    if not args.robust:
        return None
    from playtest.report import outcome_codes
    from playtest.robust import SEED_OFFSET, check_robust, describe_shift, shift_counts
    from playtest.study import Study, game_seed
    found = _stronger(args, settings["new"])
    if isinstance(found, dict):
        return found
    players, notes, most, batch = found
    sides = settings["new"].sides

    def play(look: int, games: int):
        codes = {}
        for key in ("old", "new"):
            study = Study(scenarios[key], settings[key].options, players, games,
                          game_seed(args.seed, SEED_OFFSET + look), args.max_rounds)
            codes[key] = outcome_codes([vars(r) for r in run_on(executor, study)], sides)
        return shift_counts(codes["old"], codes["new"], 0)

    original = shift_counts(reports["old"]["outcomes"], reports["new"]["outcomes"], 0)
    check = check_robust(original, play, sides, most, batch)
    check["players"], check["notes"] = players, notes
    check["summary"] = describe_shift(check, sides[0], players)
    return check


def robust_fair_value(args, scenario, settings: StudySettings, side: str, executor,
                      winner_of) -> dict | None:
    """With --robust: whether `side` wins the target share of the counted games in `scenario`
    (the fair value applied) with the next stronger players; `winner_of(result)` says whom a
    game counts for (None: nobody)."""
    if not args.robust:
        return None
    from playtest.robust import SEED_OFFSET, Counted, check_robust, describe_target
    from playtest.study import Study, game_seed
    found = _stronger(args, settings)
    if isinstance(found, dict):
        return found
    players, notes, most, batch = found

    def play(look: int, games: int) -> Counted:
        study = Study(scenario, settings.options, players, games,
                      game_seed(args.seed, SEED_OFFSET + look), args.max_rounds)
        winners = [winner_of(r.result) for r in run_on(executor, study) if r.result]
        mine = sum(1 for w in winners if w == side)
        others = sum(1 for w in winners if w is not None and w != side)
        return Counted(mine, others, len(winners) - mine - others)

    check = check_robust(Counted(0, 0, 0), play, settings.sides, most, batch,
                         target=args.target, verdict=0)
    check["players"], check["notes"] = players, notes
    check["summary"] = describe_target(check, side, args.target)
    return check
