"""Two playtest reports side by side: how each side's win rate, the game length and the
income and victory-city curves moved from an *old* study to a *new* one.

The old study is the parent scenario (`playtest compare`) or a baseline report (`playtest games
--baseline`). When both were played with the same seed and number of games, game i of one and
game i of the other started from the same seed: the studies are paired and each side's shift is
tested game by game (Newcombe's paired interval, playtest/stats.py); otherwise as independent
samples. The sides are a family of tests: their p-values are corrected with Holm's method, so
that "the balance moved" is a false alarm at most 5% of the time whichever side moved. The
comparison reads only the two reports' JSON forms (playtest/report.py), so a baseline saved by
an earlier run serves as well as a fresh study.
"""
from __future__ import annotations

import math

from engine.calculator import wilson

from .report import AHEAD_CODES, OUTCOME_CODES
from .stats import Shift, games_to_decide, holm, independent_shift, mean_shift, paired_shift

FORMAT_VERSION = 1
PAIRED_TEST = "McNemar's score test with Tango's interval, games paired by seed, Holm-corrected over the sides"
UNPAIRED_TEST = "Newcombe's interval for independent studies, Holm-corrected over the sides"
GATE_TEST = ("each side's shift tested one-sided against the tolerance (the interval beyond it), "
             "Holm-corrected over the sides")


def is_report(data) -> bool:
    return isinstance(data, dict) and data.get("format") == "sandtable-playtest-report"


def report_problems(data) -> list[str]:
    """What is wrong with a report read back as a baseline: every place where it breaks the
    report's schema (schemas/playtest/report.schema.json), then numbers that contradict each
    other (outcomes that do not add up to the wins they stand for). Empty when it is sound."""
    from jsonschema import Draft202012Validator

    from sandtable.schemas import load_schema
    validator = Draft202012Validator(load_schema("playtest/report.schema.json"))
    found = [f"{'/' + '/'.join(map(str, e.absolute_path)) if e.absolute_path else 'the report'}: "
             f"{e.message}" for e in sorted(validator.iter_errors(data), key=lambda e: list(e.path))]
    if found:
        return found[:10]
    sides = data["meta"]["sides"]
    if set(data["sides"]) != set(sides):
        found.append(f"/sides: {', '.join(sorted(data['sides']))} but meta.sides "
                     f"{', '.join(sides)}")
    if data["finished"] + data["failed"] != data["games"]:
        found.append(f"/finished: {data['finished']} finished and {data['failed']} failed are "
                     f"not the {data['games']} games")
    codes = data["outcomes"]
    if len(codes) != data["games"]:
        found.append(f"/outcomes: {len(codes)} outcomes for {data['games']} games")
    for place, side in enumerate(sides[:len(OUTCOME_CODES)]):
        wins = (data["sides"].get(side) or {}).get("wins")
        if wins is not None and codes.count(OUTCOME_CODES[place]) != wins:
            found.append(f"/outcomes: {codes.count(OUTCOME_CODES[place])} games won by {side}, "
                         f"but /sides/{side}/wins is {wins}")
    if codes.count("!") != data["failed"]:
        found.append(f"/outcomes: {codes.count('!')} failed games, but /failed is {data['failed']}")
    decided = sum(found_side["wins"] for found_side in data["sides"].values())
    if decided + data["draws"]["count"] + data["round_limit"]["count"] != data["finished"]:
        found.append("/finished: the wins, draws and games stopped at the round limit do not add "
                     f"up to the {data['finished']} finished games")
    return found


def paired(old: dict, new: dict) -> bool:
    """Were both studies the same games, seed for seed?"""
    return (old.get("meta", {}).get("seed") == new.get("meta", {}).get("seed")
            and isinstance(old.get("outcomes"), str) and isinstance(new.get("outcomes"), str)
            and len(old["outcomes"]) == len(new["outcomes"]) == old.get("games") == new.get("games"))


def compare_reports(old: dict, new: dict) -> dict:
    """The comparison's JSON form: per side the two win rates with their 95% intervals, the
    shift with its interval and p-value (and the same for games won or ahead at the round
    limit, when games reached it), then game length and the per-round curves."""
    pairs = paired(old, new)
    sides = [s for s in new["sides"] if s in old["sides"]]
    shifts = correct_family({side: _shift(old, new, side, pairs, False) for side in sides})
    stopped = old["round_limit"]["count"] + new["round_limit"]["count"]
    adjudicated = correct_family({side: _shift(old, new, side, pairs, True) for side in sides}) \
        if stopped else {}
    return {
        "format": "sandtable-playtest-comparison", "version": FORMAT_VERSION,
        "old": _about(old), "new": _about(new),
        "paired": pairs, "test": PAIRED_TEST if pairs else UNPAIRED_TEST,
        "sides": shifts,
        "adjudicated": adjudicated,
        "round_limit": {"old": old["round_limit"]["rate"], "new": new["round_limit"]["rate"]},
        "length": dict(mean_shift(old["length"].get("histogram") or {},
                                  new["length"].get("histogram") or {}),
                       old_median=old["length"].get("median"),
                       new_median=new["length"].get("median")),
        "series": _series_shift(old["series"], new["series"]),
    }


def correct_family(shifts: dict) -> dict:
    """Holm's correction over a family of shifts (the sides of one comparison, or every change
    and side of an ablation): each gets `p_adjusted`, and is significant by it."""
    keys = list(shifts)
    adjusted = holm([shifts[k]["p_value"] for k in keys])
    for key, value in zip(keys, adjusted, strict=True):
        shifts[key]["p_adjusted"] = value
        shifts[key]["significant"] = value < 0.05
    return shifts


def _about(report: dict) -> dict:
    meta = report.get("meta", {})
    return {"scenario": meta.get("scenario"), "folder": meta.get("folder"),
            "games": report["games"], "seed": meta.get("seed"), "players": meta.get("players"),
            "options": meta.get("options"), "max_rounds": meta.get("max_rounds")}


def _shift(old: dict, new: dict, side: str, pairs: bool, adjudicated: bool) -> dict:
    """A side's shift in games won, or with `adjudicated`, in games won or stopped at the round
    limit with the side ahead in victory cities (as tournaments judge unfinished games)."""
    old_count, new_count = _count(old, side, adjudicated), _count(new, side, adjudicated)
    if pairs:
        shift = _paired_side(old, new, side, adjudicated)
    else:
        shift = independent_shift(old_count, old["finished"], new_count, new["finished"])
    found = shift.as_dict()
    found["old_interval"] = list(wilson(old_count, old["finished"]))
    found["new_interval"] = list(wilson(new_count, new["finished"]))
    return found


def _count(report: dict, side: str, adjudicated: bool) -> int:
    wins = report["sides"][side]["wins"]
    return wins + (report.get("ahead_at_limit") or {}).get(side, 0) if adjudicated else wins


def _paired_side(old: dict, new: dict, side: str, adjudicated: bool):
    """Games that ended in both studies, each side's win (or lead) or not, game by game."""
    old_codes = _codes(old, side, adjudicated)
    new_codes = _codes(new, side, adjudicated)
    pairs = [(a in old_codes, b in new_codes) for a, b in zip(old["outcomes"], new["outcomes"], strict=True)
             if a != "!" and b != "!"]
    return paired_shift([a for a, _ in pairs], [b for _, b in pairs])


def _codes(report: dict, side: str, adjudicated: bool) -> str:
    sides = list(report["meta"].get("sides") or report["sides"])
    if side not in sides:
        return ""
    place = sides.index(side)
    return OUTCOME_CODES[place] + (AHEAD_CODES[place] if adjudicated else "")


def _series_shift(old: dict, new: dict) -> dict:
    """name -> who -> per round: the old and new medians and their difference."""
    found: dict = {}
    for name in new:
        if name not in old:
            continue
        found[name] = {}
        for who, rows in new[name].items():
            before = {row["round"]: row["median"] for row in old[name].get(who, [])}
            after = {row["round"]: row["median"] for row in rows}
            found[name][who] = [
                {"round": r, "old": before.get(r), "new": after.get(r),
                 "shift": after[r] - before[r] if r in before and r in after else None}
                for r in sorted(set(before) | set(after))]
    return found


# -- the gate ------------------------------------------------------------------------------------
def gate(comparison: dict, max_shift: float) -> list[str]:
    """The sides whose win rate moved beyond `max_shift` (a share, as 0.05): each side's shift
    tested one-sided against the tolerance, the p-values Holm-corrected over the sides. What
    fails a balance check in CI; empty when the balance held. A real shift inside the tolerance
    fails rarely; one beyond it fails when the games show it (see `games_needed`)."""
    sides = comparison["sides"]
    beyond = {side: Shift.from_dict(found).beyond(max_shift) for side, found in sides.items()}
    adjusted = dict(zip(beyond, holm(list(beyond.values())), strict=True))
    failures = []
    for side, found in sides.items():
        found["beyond_tolerance_p"] = adjusted[side]
        if adjusted[side] < 0.05:
            failures.append(f"{side}: win rate {100 * found['old']:.1f}% -> "
                            f"{100 * found['new']:.1f}% ({100 * found['shift']:+.1f} points, "
                            f"beyond {100 * max_shift:g}; p {_p(adjusted[side])})")
    return failures


def games_needed(comparison: dict, max_shift: float) -> int | None:
    """About how many games the tolerance needs to be decided either way, at the rate of
    changed games these studies show (paired studies only)."""
    if not comparison.get("paired"):
        return None
    rates = [(f.get("won_only_in_new", 0) + f.get("won_only_in_old", 0)) / f["counts"][1]
             for f in comparison["sides"].values() if f["counts"][1]]
    rate = max(rates, default=0.0)
    return games_to_decide(rate, max_shift) if rate > 0 else None


def _p(value: float) -> str:
    if math.isnan(value):
        return "n/a"
    return "< 0.001" if value < 0.001 else f"= {value:.3f}"


__all__ = ["compare_reports", "correct_family", "gate", "games_needed", "is_report",
           "report_problems", "paired",
           "PAIRED_TEST", "UNPAIRED_TEST", "GATE_TEST"]
