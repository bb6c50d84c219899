"""The balance report: who wins, when, and where, from many games' records.

`summarise(records, meta)` turns the games' results and chronicles (engine/game.py) into one
plain dictionary, the report's JSON form; `render_text` writes it for a terminal and
playtest/report_html.py as a page with plots. The report knows no game system: it reads the
series, captures, battles and payouts each system records.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from statistics import median

from engine.calculator import wilson
from engine.game import BLUNDERS

FORMAT_VERSION = 1


def quartiles(values: list[float]) -> tuple[float, float, float]:
    """(lower quartile, median, upper quartile), by linear interpolation between ranks."""
    ordered = sorted(values)

    def at(q: float) -> float:
        position = q * (len(ordered) - 1)
        low = math.floor(position)
        high = min(low + 1, len(ordered) - 1)
        return ordered[low] + (ordered[high] - ordered[low]) * (position - low)

    return (at(0.25), at(0.5), at(0.75)) if ordered else (math.nan, math.nan, math.nan)


def summarise(records, meta: dict) -> dict:
    """The report of a study: `records` are GameRecords (or their dicts), `meta` says what
    was played (scenario, sides, players, options, seed, games, max_rounds)."""
    records = [r if isinstance(r, dict) else vars(r) for r in records]
    finished = [r for r in records if r.get("result")]
    failed = [r for r in records if not r.get("result")]
    played = len(finished)
    sides = list(meta.get("sides") or sorted({r["result"]["winner"] for r in finished
                                               if r["result"]["winner"]}))
    winners = Counter(r["result"]["winner"] for r in finished)
    stopped = sum(1 for r in finished if r["result"]["winner"] is None
                  and r["result"]["reason"] == "round-limit")
    drawn = sum(1 for r in finished if r["result"]["winner"] is None) - stopped
    outcome = {}
    for side in sides:
        low, high = wilson(winners.get(side, 0), played)
        outcome[side] = {"wins": winners.get(side, 0),
                         "rate": winners.get(side, 0) / played if played else 0.0,
                         "interval": [low, high]}
    reasons = Counter(r["result"]["reason"] for r in finished)
    lengths = [r["result"]["round"] for r in finished]
    report = {
        "format": "sandtable-playtest-report", "version": FORMAT_VERSION,
        "meta": meta,
        "games": len(records), "finished": played, "failed": len(failed),
        "sides": outcome,
        "draws": {"count": drawn, "rate": drawn / played if played else 0.0,
                  "interval": list(wilson(drawn, played))},
        "round_limit": {"count": stopped, "rate": stopped / played if played else 0.0},
        "reasons": dict(sorted(reasons.items())),
        "ahead_at_limit": _ahead(finished),
        "length": _length(lengths),
        "length_by_winner": {str(winner): _length([r["result"]["round"] for r in finished
                                                   if r["result"]["winner"] == winner])
                             for winner in [*sides, None]
                             if any(r["result"]["winner"] == winner for r in finished)},
        "final_scores": _final(finished, "scores"),
        "series": _series(finished),
        "captures": _captures(finished, played),
        "battles": _battles(finished, played),
        "payouts": _payouts(finished, played),
        "blunders": _blunders(finished, played, sides),
        "outcomes": outcome_codes(records, sides),
        "errors": [{"game": r["index"], "seed": r["seed"], "error": r["error"],
                    "replay": r.get("replay")} for r in failed],
        "seconds": {"total": sum(r["seconds"] for r in records),
                    "median_per_game": median([r["seconds"] for r in records]) if records
                    else 0.0},
    }
    cities = _final(finished, "victory_cities")
    if cities:                               # only systems whose games count victory cities
        report["final_victory_cities"] = cities
    return report


OUTCOME_CODES = "0123456789abcdefghijklmnopqrstuvwxyz"
AHEAD_CODES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def outcome_codes(records: list[dict], sides: list[str]) -> str:
    """Each game's end in game order, one character a game: the winner's place in `sides`
    (0, 1, ...); for a game stopped at the round limit, the place of the side ahead in victory
    cities as a capital letter (A, B, ...); '-' for no winner and none ahead, '!' for a rules
    error. Two reports of the same seed can then be compared game by game (playtest/compare.py)."""
    codes = []
    for record in sorted(records, key=lambda r: r["index"]):
        result = record.get("result")
        if not result:
            codes.append("!")
        elif result["winner"] in sides[:len(OUTCOME_CODES)]:
            codes.append(OUTCOME_CODES[sides.index(result["winner"])])
        elif (leader := leader_at_limit(result)) in sides[:len(AHEAD_CODES)]:
            codes.append(AHEAD_CODES[sides.index(str(leader))])
        else:
            codes.append("-")
    return "".join(codes)


def leader_at_limit(result: dict) -> str | None:
    """The side ahead in victory cities (in its score, where the system counts no cities) in a
    game the round limit stopped; "level" when two lead; None for a game with a winner, another
    end, or nothing to count."""
    if result["winner"] is not None or result["reason"] != "round-limit":
        return None
    standing = result.get("victory_cities") or result.get("scores") or {}
    if not standing:
        return None
    best = max(standing.values())
    leaders = [side for side, value in standing.items() if value == best]
    return leaders[0] if len(leaders) == 1 else "level"


def _ahead(finished: list[dict]) -> dict:
    """Of the games stopped at the round limit: which side led in victory cities (or score)."""
    ahead: Counter = Counter(leader_at_limit(record["result"]) for record in finished)
    ahead.pop(None, None)
    return dict(ahead.most_common())


def _length(lengths: list[float]) -> dict:
    if not lengths:
        return {"histogram": {}}
    q1, mid, q3 = quartiles(lengths)
    return {"median": mid, "quartiles": [q1, q3], "min": min(lengths), "max": max(lengths),
            "mean": sum(lengths) / len(lengths),
            "histogram": {str(k): v for k, v in sorted(Counter(lengths).items())}}


def _final(finished: list[dict], key: str) -> dict:
    values: dict[str, list[float]] = defaultdict(list)
    for record in finished:
        for who, value in (record["result"].get(key) or {}).items():
            values[who].append(value)
    return {who: dict(zip(("q1", "median", "q3"), quartiles(found), strict=True))
            for who, found in sorted(values.items())}


def _series(finished: list[dict]) -> dict:
    """name -> who -> per round {round, q1, median, q3, games}: the games still going then."""
    gathered: dict[str, dict[str, dict[int, list[float]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list)))
    for record in finished:
        for name, by_who in (record["chronicle"].get("series") or {}).items():
            for who, values in by_who.items():
                for number, value in enumerate(values, 1):
                    gathered[name][who][number].append(value)
    found: dict = {}
    for name, by_who in sorted(gathered.items()):
        found[name] = {}
        for who, by_round in sorted(by_who.items()):
            rows = []
            for number, values in sorted(by_round.items()):
                q1, mid, q3 = quartiles(values)
                rows.append({"round": number, "q1": q1, "median": mid, "q3": q3,
                             "games": len(values)})
            found[name][who] = rows
    return found


def _captures(finished: list[dict], played: int) -> dict:
    """Space -> how often it changed hands, per game, and to whom most often."""
    count: Counter = Counter()
    takers: dict[str, Counter] = defaultdict(Counter)
    first_takers: dict[str, Counter] = defaultdict(Counter)
    first: dict[str, list[int]] = defaultdict(list)
    for record in finished:
        seen = set()
        for round_, space, _old, new in record["chronicle"].get("captures") or []:
            count[space] += 1
            takers[space][new] += 1
            if space not in seen:
                seen.add(space)
                first[space].append(round_)
                first_takers[space][new] += 1
    return {space: {"per_game": n / played, "taken_by": dict(takers[space].most_common()),
                    "first_round_median": median(first[space]),
                    "first_taken_by": dict(first_takers[space].most_common()),
                    "games": len(first[space])}
            for space, n in count.most_common()}


def _battles(finished: list[dict], played: int) -> dict:
    per_space: Counter = Counter()
    sizes: list[int] = []
    won: Counter = Counter()
    for record in finished:
        for _round, space, _attacker, _defender, attacking, defending, winner in \
                record["chronicle"].get("battles") or []:
            per_space[space] += 1
            sizes.append(attacking + defending)
            won[winner] += 1
    total = len(sizes)
    return {"per_game": total / played if played else 0.0,
            "mean_size": sum(sizes) / total if total else 0.0,
            "results": dict(won.most_common()),
            "per_space": {space: n / played for space, n in per_space.most_common()}}


def _payouts(finished: list[dict], played: int) -> dict:
    """Objective -> how many times it paid per game, and the amount paid per game."""
    times: Counter = Counter()
    amount: Counter = Counter()
    owner: dict[str, str] = {}
    for record in finished:
        for _round, objective, who, value in record["chronicle"].get("payouts") or []:
            times[objective] += 1
            amount[objective] += value
            owner[objective] = who
    return {objective: {"owner": owner[objective], "per_game": n / played,
                        "amount_per_game": amount[objective] / played}
            for objective, n in times.most_common()}


def _payout_lines(payouts: dict, sides: list[str], names: dict, unit: str) -> list[str]:
    """The payouts under the side paid, most paid first, with each side's total: where a
    side's score came from, read at a glance."""
    by_side: dict[str, list] = defaultdict(list)
    for objective, found in payouts.items():
        by_side[found["owner"]].append((names.get(objective, objective), found))
    width = min(56, max(len(name) for rows in by_side.values() for name, _ in rows)) + 2
    lines = []
    for side in sides + sorted(set(by_side) - set(sides)):
        rows = sorted(by_side.get(side, []), key=lambda row: (-row[1]["amount_per_game"], row[0]))
        if not rows:
            continue
        total = sum(found["amount_per_game"] for _, found in rows)
        lines.append(f"  {names.get(side, side)}: {total:.1f}{unit} in all")
        lines += [f"    {name[:width - 2]:<{width}}{found['per_game']:6.2f} times, "
                  f"{found['amount_per_game']:6.1f}{unit}" for name, found in rows]
    return lines


def _blunders(finished: list[dict], played: int, sides: list[str]) -> dict:
    """Kind -> side -> {per_game: the amount per game, games: the share of games with any}:
    what the players did that a sensible player does not (engine/game.py BLUNDERS)."""
    totals: dict[str, Counter] = defaultdict(Counter)
    games_with: dict[str, Counter] = defaultdict(Counter)
    for record in finished:
        seen = set()
        for _round, kind, side, amount in record["chronicle"].get("blunders") or []:
            totals[kind][side] += amount
            if amount:
                seen.add((kind, side))
        for kind, side in seen:
            games_with[kind][side] += 1
    return {kind: {side: {"per_game": totals[kind][side] / played,
                          "games": games_with[kind][side] / played}
                   for side in sides}
            for kind in BLUNDERS if kind in totals}


# -- text ----------------------------------------------------------------------------------------
def _bar(share: float, width: int = 20) -> str:
    filled = share * width
    return "█" * int(filled) + ("▌" if filled - int(filled) >= 0.5 else "")


def _pct(value: float) -> str:
    return f"{100 * value:5.1f}%"


def render_text(report: dict, names: dict[str, str] | None = None, top: int = 8) -> str:
    """The report as a terminal reads it: the verdict first, then when and where."""
    names = names or {}
    meta = report["meta"]
    lines = [f"{meta.get('scenario', '?')}: {report['games']} games, seed {meta.get('seed')}",
             "players: " + ", ".join(f"{names.get(side, side)} {spec}"
                                     for side, spec in (meta.get("players") or {}).items())]
    if report.get("robust"):
        lines.append(robust_line(report["robust"], names))
    if meta.get("options"):
        lines.append("options: " + ", ".join(f"{k.replace('_', '-')}={plain_value(v)}"
                                             for k, v in meta["options"].items()))
    lines.append("")
    lines.append(f"{'who wins':<16}{'games':>6} {'share':>7}   95% interval")
    for side, found in report["sides"].items():
        low, high = found["interval"]
        lines.append(f"  {names.get(side, side):<14}{found['wins']:>6} {_pct(found['rate'])}   "
                     f"{_pct(low)} - {_pct(high)}  {_bar(found['rate'])}")
    if report["draws"]["count"]:
        lines.append(f"  {'draw':<14}{report['draws']['count']:>6} {_pct(report['draws']['rate'])}")
    if report["round_limit"]["count"]:
        stopped_at = meta.get("max_rounds") or report["length"].get("max")
        lines.append(f"  {'round limit':<14}{report['round_limit']['count']:>6} "
                     f"{_pct(report['round_limit']['rate'])}   (stopped at round "
                     f"{stopped_at}, no winner)")
        if report.get("ahead_at_limit"):
            lines.append("  " + " " * 14 + "ahead when stopped: " + ", ".join(
                f"{names.get(k, k)} {v}" for k, v in report["ahead_at_limit"].items()))
    if report["failed"]:
        lines.append(f"  {'rules error':<14}{report['failed']:>6}   (see below)")
    verdict = _verdict(report, names)
    if verdict:
        lines += ["", verdict]
    length = report["length"]
    if "median" in length:
        lines += ["", f"game length: median {length['median']:g} rounds (quartiles "
                  f"{length['quartiles'][0]:g}-{length['quartiles'][1]:g}, shortest "
                  f"{length['min']}, longest {length['max']})",
                  "  ends: " + ", ".join(f"{reason} {n}" for reason, n in report["reasons"].items())]
        by_winner = report.get("length_by_winner") or {}
        if len(by_winner) > 1:
            lines.append("  median by winner: " + ", ".join(
                f"{names.get(w, w) if w != 'None' else 'no winner'} {found['median']:g}"
                for w, found in by_winner.items() if "median" in found))
    terms = meta.get("terms") or {}
    for key, label in (("final_victory_cities", "victory cities at the end"),
                       ("final_scores", f"{terms.get('scores', 'scores')} at the end")):
        if report.get(key) and not (key == "final_scores" and report["series"]):
            lines.append(f"{label} (median): " + ", ".join(
                f"{names.get(who, who)} {q['median']:g}" for who, q in report[key].items()))
    for name, by_who in report["series"].items():
        if not any(row["median"] for rows in by_who.values() for row in rows):
            continue                           # nobody ever had any: nothing to read
        lines += ["", f"{name} by round (median)"]
        rounds = max(len(rows) for rows in by_who.values())
        shown = list(range(1, rounds + 1))
        if len(shown) > 12:
            shown = shown[:6] + shown[-6:]
        medians = {who: {row["round"]: row["median"] for row in rows} for who, rows in by_who.items()}
        # the medians are of the games still running in each round: say how many those are
        running = {row["round"]: row["games"] for rows in by_who.values() for row in rows}
        width = max([6, *(1 + len(f"{v:g}") for found in medians.values() for v in found.values()),
                     *(1 + len(str(v)) for v in running.values())])   # columns never run together
        lines.append(f"  {'round':<16}" + _row(shown, rounds, {r: r for r in shown}, "d", width, "…"))
        for who, by_round in medians.items():
            if not any(by_round.values()):
                continue                       # a nation that never has any (China's income)
            lines.append(f"  {names.get(who, who)[:16]:<16}" + _row(shown, rounds, by_round, "g", width))
        lines.append(f"  {'games running':<16}" + _row(shown, rounds, running, "d", width))
    if report["captures"]:
        lines += ["", "where the fighting was (changes of hands per game)"]
        for space, found in list(report["captures"].items())[:top]:
            firsts = found.get("first_taken_by") or found["taken_by"]
            taker = next(iter(firsts), None)
            share = f" in {firsts[taker]} of {found['games']} games" if taker and "games" in found else ""
            lines.append(f"  {names.get(space, space)[:28]:<28}{found['per_game']:6.2f}   "
                         f"first taken in round {found['first_round_median']:g} (median), by "
                         f"{names.get(taker, taker) if taker else '-'}{share}")
    battles = report["battles"]
    if battles["per_game"]:
        lines += ["", f"battles: {battles['per_game']:.1f} per game, "
                  f"{battles['mean_size']:.1f} units in each on average"]
    if report["payouts"]:
        unit = f" {terms['unit']}" if terms.get("unit") else ""
        lines += ["", f"{terms.get('payouts', 'bonuses paid')} (per game)"]
        lines += _payout_lines(report["payouts"], list(report["sides"]), names, unit)
    if report.get("blunders"):
        lines += ["", "how the players played (per game; a sensible player keeps these near 0)"]
        sides = list(report["sides"])
        label_width = max(len(BLUNDERS[kind]) for kind in report["blunders"]) + 2
        lines.append(f"  {'':<{label_width}}" + "".join(f"{names.get(side, side)[:10]:>11}" for side in sides))
        for kind, by_side in report["blunders"].items():
            lines.append(f"  {BLUNDERS[kind]:<{label_width}}" + "".join(
                f"{by_side.get(side, {}).get('per_game', 0.0):>11.1f}" for side in sides))
    if report["errors"]:
        lines += ["", f"{report['failed']} game(s) stopped by a rules error:"]
        for error in report["errors"][:10]:
            lines.append(f"  game {error['game']}: {error['error'].splitlines()[0]}")
            lines.append(f"    replay: {error['replay']}")
    return "\n".join(lines)


def _row(shown: list[int], rounds: int, by_round: dict, form: str, width: int = 6, gap: str = "") -> str:
    """One row of a by-round table, `width` characters a column; `gap` marks the middle rounds
    left out of a long game."""
    cells = [f"{by_round[r]:>{width}{form}}" if r in by_round else " " * width for r in shown]
    if len(shown) < rounds:
        cells.insert(6, f"{gap:>{width}}")
    return "".join(cells)


def robust_line(robust: dict, names: dict[str, str]) -> str:
    """The first word on whether the verdict depends on the players (playtest/robust.py)."""
    return f"robust check: {robust['summary']}"


def verdict_lean(wins: tuple[int, int], stopped: int, ahead: tuple[int, int],
                 z: float | None = None) -> int:
    """Which of two sides the verdict favours: +1 the first, -1 the second, 0 neither (not
    significant, or a split; see `_reading`). `z` widens the intervals for a sequential look
    (playtest/robust.py); by default they are 95%."""
    kind, lean = _reading(wins, stopped, ahead, z)
    return 0 if kind == "split" else lean


def _reading(wins: tuple[int, int], stopped: int, ahead: tuple[int, int],
             z: float | None = None) -> tuple[str, int]:
    """Which games a verdict reads, and the side they favour (+1 the first, -1 the second, 0
    neither): ("decided", ...) when the decided games are at least as many as those the round
    limit stopped; otherwise ("limit", ...) from who led at the limit, or ("split", the
    leader) when that lead points against the significant winner of the decided games."""
    decided = wins[0] + wins[1]
    if decided >= stopped:
        return "decided", _favoured(wins[0], decided, z)
    leader = _favoured(ahead[0], ahead[0] + ahead[1], z)
    winner = _favoured(wins[0], decided, z)
    return ("split" if leader and winner and leader != winner else "limit"), leader


def report_lean(report: dict) -> int:
    """`verdict_lean` of a report's two sides."""
    (a, fa), (b, fb) = report["sides"].items()
    ahead = report.get("ahead_at_limit") or {}
    return verdict_lean((fa["wins"], fb["wins"]), report["round_limit"]["count"],
                        (ahead.get(a, 0), ahead.get(b, 0)))


def _verdict(report: dict, names: dict[str, str]) -> str:
    """One sentence: is it balanced? From the decided games when most games are decided;
    otherwise from who led when the round limit stopped them, with the decided ones beside
    (the rule is `verdict_lean`'s). A verdict that stronger players do not reach (--robust) is
    no balance claim."""
    robust = report.get("robust") or {}
    if robust.get("result") == "depends":
        return "verdict: depends on the players, not a balance claim: " + \
            robust["summary"].removeprefix("the verdict depends on the players: ")
    sides = report["sides"]
    if len(sides) != 2 or not report["finished"]:
        return ""
    (a, fa), (b, fb) = sides.items()
    decided = fa["wins"] + fb["wins"]
    ahead = report.get("ahead_at_limit") or {}
    kind, lean = _reading((fa["wins"], fb["wins"]), report["round_limit"]["count"],
                          (ahead.get(a, 0), ahead.get(b, 0)))
    if kind == "decided":
        return _lean(a, b, fa["wins"], decided, names, "wins", "of decided games")
    if not ahead:
        return "no game was decided: raise --max-rounds to see who wins"
    led = ahead.get(a, 0) + ahead.get(b, 0)
    if kind == "split":
        # the two readings point opposite ways: a headline for either would mislead
        ahead_side, winning_side = (a, b) if lean > 0 else (b, a)
        wins = fa["wins"] if winning_side == a else fb["wins"]
        return (f"verdict: split: {names.get(ahead_side, ahead_side)} leads in "
                f"{ahead.get(ahead_side, 0)} of the {led} games stopped at the round limit with "
                f"a side ahead, but {names.get(winning_side, winning_side)} wins {wins} of the "
                f"{decided} decided games; longer games (--max-rounds) would settle it")
    sentence = _lean(a, b, ahead.get(a, 0), led, names, "leads in",
                     "of the games stopped at the round limit with a side ahead")
    if ahead.get("level"):
        sentence += f"; {ahead['level']} stopped level"
    if decided:
        sentence += (f"; the {decided} decided game{'s' if decided > 1 else ''} went "
                     f"{fa['wins']} to {names.get(a, a)}, {fb['wins']} to {names.get(b, b)}")
    return sentence


def _favoured(count: int, total: int, z: float | None = None) -> int:
    """+1 when the first side's share is significantly above a half (a Wilson interval, 95%
    unless `z` says otherwise), -1 when significantly below, 0 otherwise."""
    if not total:
        return 0
    low, high = wilson(count, total) if z is None else wilson(count, total, z)
    return 1 if low > 0.5 else -1 if high < 0.5 else 0


def _lean(a: str, b: str, count: int, total: int, names: dict[str, str], verb: str,
          among: str) -> str:
    if not total:
        return f"verdict: no side {verb} any {among.split(' ', 1)[-1]}"
    share = count / total
    low, high = wilson(count, total)
    if low > 0.5:
        return (f"verdict: {names.get(a, a)} is favoured: it {verb} {_pct(share).strip()} "
                f"{among} (95% {_pct(low).strip()}-{_pct(high).strip()})")
    if high < 0.5:
        return (f"verdict: {names.get(b, b)} is favoured: it {verb} "
                f"{_pct(1 - share).strip()} {among} (95% {_pct(1 - high).strip()}-"
                f"{_pct(1 - low).strip()})")
    return (f"verdict: no side is significantly favoured ({names.get(a, a)} {verb} "
            f"{_pct(share).strip()} {among}, 95% {_pct(low).strip()}-{_pct(high).strip()})")


def plain_value(value) -> str:
    """An option's value as the command line writes it (true, none, 1.5)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def display_names(scenario) -> dict[str, str]:
    """Ids -> display names (sides, nations, spaces, objectives) for the report's text."""
    names: dict[str, str] = {}
    for kind, collection in (("scenario", "sides"), ("scenario", "nations"), ("map", "spaces"),
                             ("objectives", "objectives")):
        for _, entity in scenario.entities(kind, collection):
            if isinstance(entity.get("id"), str) and isinstance(entity.get("name"), str):
                names[entity["id"]] = entity["name"]
    return names


__all__ = ["summarise", "render_text", "quartiles", "display_names", "outcome_codes",
           "leader_at_limit"]
