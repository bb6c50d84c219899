"""Two playtest reports side by side: how each side's win rate, the game length and the
income and victory-city curves moved from an *old* study to a *new* one.

The old study is the parent scenario (`playtest compare`) or a baseline report (`playtest games
--baseline`). When both were played with the same seed and number of games, game i of one and
game i of the other started from the same seed: the studies are paired and each side's shift is
tested game by game (McNemar's exact test, playtest/stats.py); otherwise the pooled two-proportion
test compares them as independent samples. The comparison reads only the two reports' JSON
forms (playtest/report.py), so a baseline saved by an earlier run serves as well as a fresh study.
"""
from __future__ import annotations

import math

from engine.calculator import wilson

from .report import AHEAD_CODES, OUTCOME_CODES
from .stats import independent_shift, mean_shift, paired_shift

FORMAT_VERSION = 1
PAIRED_TEST = "McNemar's exact test, games paired by seed"
UNPAIRED_TEST = "pooled two-proportion z test"


def is_report(data) -> bool:
    return isinstance(data, dict) and data.get("format") == "sandtable-playtest-report"


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
    shifts = {side: _shift(old, new, side, pairs, False) for side in sides}
    stopped = old["round_limit"]["count"] + new["round_limit"]["count"]
    adjudicated = {side: _shift(old, new, side, pairs, True) for side in sides} if stopped else {}
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
    """The sides whose win rate moved by more than `max_shift` (a share, as 0.05), with
    significance (p < 0.05): what fails a balance check in CI. Empty when the balance held."""
    failures = []
    for side, found in comparison["sides"].items():
        if abs(found["shift"]) > max_shift and found["significant"]:
            failures.append(f"{side}: win rate {100 * found['old']:.1f}% -> "
                            f"{100 * found['new']:.1f}% ({100 * found['shift']:+.1f} points, "
                            f"more than {100 * max_shift:g}; p {_p(found['p_value'])})")
    return failures


def _p(value: float) -> str:
    if math.isnan(value):
        return "n/a"
    return "< 0.001" if value < 0.001 else f"= {value:.3f}"


__all__ = ["compare_reports", "gate", "is_report", "paired", "PAIRED_TEST", "UNPAIRED_TEST"]
