"""Comparisons, ablations and fair-value searches for a terminal (text) and for a CI job
summary (Markdown); also a playtest report in Markdown. The JSON forms are made by
playtest/compare.py and playtest/fairness.py; the pages by playtest/report_compare_html.py.
"""
from __future__ import annotations

import math

from .report import _pct, _verdict, plain_value

MINUS = "-"


def _pts(shift: float) -> str:
    """A shift of a share in percentage points."""
    return f"{100 * shift:+.1f}"


def _p(value: float | None) -> str:
    if value is None or math.isnan(value):
        return "n/a"
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


def _interval(pair) -> str:
    return f"{_pct(pair[0]).strip()}-{_pct(pair[1]).strip()}"


def _shift_interval(pair) -> str:
    return f"{_pts(pair[0])} to {_pts(pair[1])}"


def _title(comparison: dict, names: dict) -> list[str]:
    old, new = comparison["old"], comparison["new"]
    players = ", ".join(f"{names.get(s, s)} {spec}" for s, spec in (new.get("players") or {}).items())
    same = old.get("players") == new.get("players") and old.get("seed") == new.get("seed")
    lines = [f"{new['scenario']} against {old['scenario']}: {new['games']} games "
             + (f"each, the same seed ({new['seed']}) and players ({players})" if same else
                f"(seed {new['seed']}) against {old['games']} (seed {old['seed']})")]
    if new.get("options"):
        lines.append("options: " + ", ".join(f"{k.replace('_', '-')}={plain_value(v)}"
                                             for k, v in new["options"].items()))
    lines.append(f"shifts tested with {comparison['test']}; * significant at 5%")
    if comparison.get("robust"):
        lines.append(f"robust check: {comparison['robust']['summary']}")
    return lines


# -- text ----------------------------------------------------------------------------------------
def render_comparison_text(comparison: dict, names: dict | None = None,
                           ablation: dict | None = None) -> str:
    names = names or {}
    old, new = comparison["old"]["scenario"], comparison["new"]["scenario"]
    lines = _title(comparison, names) + [""]
    width = max(14, len(old) + 2, len(new) + 2) + 8
    lines.append(f"{'who wins':<16}{old:<{width}}{new:<{width}}{'shift (points)':<24}p")
    lines += _shift_rows(comparison["sides"], names, width)
    limit = comparison["round_limit"]
    if limit["old"] or limit["new"]:
        lines.append(f"  {'round limit':<14}{_pct(limit['old']).strip():<{width}}"
                     f"{_pct(limit['new']).strip():<{width}}{_pts(limit['new'] - limit['old'])}")
    if has_leads(comparison):
        lines += ["", "won, or ahead in victory cities when the round limit stopped the game "
                  "(as tournaments judge unfinished games)"]
        lines += _shift_rows(comparison["adjudicated"], names, width)
    lines += ["", comparison_verdict(comparison, names)]
    length = comparison["length"]
    if length["shift"] is not None and not math.isnan(length["shift"]):
        lines.append(f"game length: mean {length['old']:.2f} -> {length['new']:.2f} rounds "
                     f"(shift {length['shift']:+.2f}, 95% {length['interval'][0]:+.2f} to "
                     f"{length['interval'][1]:+.2f}); median {length['old_median']:g} -> "
                     f"{length['new_median']:g}")
    for name, by_who in comparison["series"].items():
        lines += _series_text(name, by_who, names, old, new)
    if ablation:
        lines += [""] + render_ablation_text(ablation, names).splitlines()
    return "\n".join(lines)


def _shift_rows(shifts: dict, names: dict, width: int) -> list[str]:
    return [f"  {names.get(side, side):<14}"
            f"{_pct(found['old']).strip() + ' (' + _interval(found['old_interval']) + ')':<{width}}"
            f"{_pct(found['new']).strip() + ' (' + _interval(found['new_interval']) + ')':<{width}}"
            f"{_pts(found['shift']) + ' (' + _shift_interval(found['interval']) + ')':<24}"
            f"{_p(_family_p(found))}{' *' if found['significant'] else ''}"
            for side, found in shifts.items()]


def has_leads(comparison: dict) -> bool:
    """Did a side lead when the round limit stopped a game, in either study?"""
    return any(found["old"] != comparison["sides"][side]["old"]
               or found["new"] != comparison["sides"][side]["new"]
               for side, found in (comparison.get("adjudicated") or {}).items())


def comparison_verdict(comparison: dict, names: dict) -> str:
    def moved(shifts):
        return [f"{names.get(side, side)} {'up' if f['shift'] > 0 else 'down'} "
                f"{abs(100 * f['shift']):.1f} points"
                for side, f in shifts.items() if f["significant"]]

    robust = comparison.get("robust") or {}
    if robust.get("result") == "depends":
        return "verdict: depends on the players, not a balance claim: " + robust["summary"]
    verdict = ("verdict: the balance moved: " + ", ".join(moved(comparison["sides"]))
               if moved(comparison["sides"]) else
               "verdict: no side's win rate moved significantly")
    if has_leads(comparison):
        judged = moved(comparison["adjudicated"])
        verdict += ("; won or ahead at the round limit: " + ", ".join(judged) if judged else
                    "; nor did the share of games won or ahead at the round limit")
    return verdict


def _series_text(name: str, by_who: dict, names: dict, old: str, new: str) -> list[str]:
    rounds = sorted({row["round"] for rows in by_who.values() for row in rows})
    shown = rounds if len(rounds) <= 12 else rounds[:6] + rounds[-6:]
    lines = []
    for who, rows in by_who.items():
        by_round = {row["round"]: row for row in rows}
        if not any((row["old"] or row["new"]) for row in rows):
            continue
        cells = []
        for r in shown:
            shift = by_round.get(r, {}).get("shift")
            cells.append(f"{shift:>+7g}" if shift is not None else f"{'':>7}")
        lines.append(f"  {names.get(who, who)[:16]:<16}" + "".join(cells))
    if not lines:
        return []
    return ["", f"{name} by round: median in {new} minus median in {old}",
            f"  {'':<16}" + "".join(f"{r:>7}" for r in shown)] + lines


def render_gate_text(comparison: dict, names: dict, max_shift: float | None,
                     failures: list[str]) -> str:
    """The balance against a baseline report, under a playtest report."""
    from .compare import GATE_TEST
    old = comparison["old"]
    lines = [f"against the baseline ({old['scenario']}, {old['games']} games, seed {old['seed']}): "
             f"shifts tested with {comparison['test']}"]
    for side, found in comparison["sides"].items():
        beyond = (f"; beyond {100 * max_shift:g} points: p {_p(found['beyond_tolerance_p'])}"
                  if max_shift is not None and "beyond_tolerance_p" in found else "")
        lines.append(f"  {names.get(side, side):<14}{_pct(found['old'])} -> {_pct(found['new'])}"
                     f"   shift {_pts(found['shift'])} points (95% "
                     f"{_shift_interval(found['interval'])}), p {_p(_family_p(found))}"
                     f"{' *' if found['significant'] else ''}{beyond}")
    if max_shift is not None:
        lines += ["", f"the gate: {GATE_TEST}"]
        needed = comparison.get("games_needed")
        if needed is None and comparison.get("paired"):
            lines.append("  no game changed its result: the studies are the same games")
        elif needed:
            lines.append(f"  a {100 * max_shift:g}-point tolerance is decided with about "
                         f"{needed:,} games at this study's rate of changed games "
                         f"({old['games']} played)")
    if failures:
        lines += ["", "balance check failed:"] + [f"  {failure}" for failure in failures]
    elif max_shift is not None:
        lines += ["", f"balance check passed: no side's win rate moved beyond "
                  f"{100 * max_shift:g} points"]
    return "\n".join(lines)


def _family_p(found: dict) -> float:
    """The p-value a star is given by: Holm's adjusted one where the shift is one of a family."""
    return found.get("p_adjusted", found["p_value"])


def render_ablation_text(ablation: dict, names: dict | None = None) -> str:
    names = names or {}
    if not ablation.get("changes"):
        return "ablation: " + (ablation.get("note") or "no change to try")
    sides = ablation["sides"]
    what = "change" if ablation["by"] == "change" else "group of changes"
    family = ablation.get("family") or {}
    stars = (f"; * significant at 5%, Holm-corrected over its {family['tests']} tests"
             if family.get("tests") else "")
    lines = [f"ablation: each {what} applied alone to {ablation['parent']} "
             f"({ablation['games']} games each, the same seed); win-rate shift in points{stars}"]
    if ablation.get("note"):
        lines.append(ablation["note"])
    label_width = min(66, max(len(item["label"]) for item in ablation["changes"]) + 2)
    lines.append((f"  {'':<{label_width}}" + "".join(f"{names.get(s, s)[:22]:<30}"
                                                     for s in sides)).rstrip())
    for item in ablation["changes"]:
        if item.get("error"):
            lines.append(f"  {item['label'][:label_width - 2]:<{label_width}}{item['error']}")
            continue
        cells = []
        for side in sides:
            found = item["sides"][side]
            cell = f"{_pts(found['shift'])} ({_shift_interval(found['interval'])})"
            cells.append(f"{cell + (' *' if found['significant'] else ''):<30}")
        lines.append((f"  {item['label'][:label_width - 2]:<{label_width}}" + "".join(cells)
                      ).rstrip())
        if item.get("invalid"):
            lines.append(f"      alone, it leaves an error: {item['invalid']}")
    return "\n".join(lines)


def render_fair_text(answer: dict, names: dict | None = None) -> str:
    names = names or {}
    robust = [f"robust check: {answer['robust']['summary']}"] if answer.get("robust") else []
    side = names.get(answer["side"], answer["side"])
    knob = answer["knob"]
    counted = {"decided": "decided games", "all": "games",
               "adjudicated": "adjudicated games"}[answer["count"]]
    lines = [f"{answer['scenario']}: the value of {knob['pointer']} ({knob['label']}, now "
             f"{knob['value']:g}) at which {side} wins {100 * answer['target']:g}% of {counted}",
             *(["(adjudicated: a game stopped at the round limit goes to the side ahead in "
                "victory cities; level ones do not count)"] if answer["count"] == "adjudicated"
               else []),
             f"searched {answer['range'][0]:g} to {answer['range'][1]:g} with {answer['games']} "
             f"games, seed {answer['seed']}, " + ", ".join(
                 f"{names.get(s, s)} {spec}" for s, spec in answer["players"].items()), *robust]
    lines.append("")
    if answer["found"]:
        low, high = answer["interval"]
        lines.append(f"fair value: {answer['value']:.2f} (95% {low:.2f} to {high:.2f})"
                     + (f"; as a whole number: {answer['whole']}" if answer["whole"] is not None
                        else ""))
        lines.append(f"  that is {answer['value'] - knob['value']:+.2f} on the scenario's "
                     f"{knob['value']:g}")
    else:
        lines.append("no fair value found: " + answer["why"])
        if answer["value"] is not None and answer["slope_clear"]:
            lines.append(f"  the fitted curve meets the target near {answer['value']:.3g}")
    fit = answer["fit"]
    if not fit.get("fits", True):
        lines.append(f"  but the logistic curve does not fit the games (chi-squared {fit['chi2']:.1f} "
                     f"on {fit['df']} df, p {_p(fit['p'])}): the interval covers the crossing "
                     "less often than 95%; read the curve below")
    elif fit.get("p") is not None:
        lines.append(f"  the logistic curve fits the games (chi-squared {fit['chi2']:.1f} on "
                     f"{fit['df']} df, p {_p(fit['p'])})")
    lines += ["", f"win-rate curve found ({side}'s share of {counted}); fitted: "
              f"1 / (1 + exp(-({fit['intercept']:.3f} {'+' if fit['slope'] >= 0 else '-'} "
              f"{abs(fit['slope']):.4f} x)))",
              f"  {'value':>9} {'games':>6} {'counted':>8} {'wins':>6} {'share':>7}   "
              f"{'95% interval':<16}{'fitted':>7}"]
    for point in answer["curve"]:
        rate = point["rate"]
        lines.append(f"  {point['value']:>9g} {point['games']:>6} {point['counted']:>8} "
                     f"{point['wins']:>6} {_pct(rate) if rate is not None else '    -  ':>7}   "
                     f"{_interval(point['interval']):<16}{_pct(point['fitted']):>7}")
    return "\n".join(lines)


# -- Markdown ------------------------------------------------------------------------------------
def render_report_markdown(report: dict, names: dict | None = None,
                           comparison: dict | None = None, max_shift: float | None = None,
                           failures: list[str] | None = None) -> str:
    """A playtest report for a CI job summary; with a baseline comparison when given."""
    names = names or {}
    meta = report["meta"]
    players = ", ".join(f"{names.get(s, s)} {spec}" for s, spec in (meta.get("players") or {}).items())
    lines = [f"### Playtest of {meta.get('scenario')}", "",
             f"{report['games']} games, seed {meta.get('seed')}, players: {players}"
             + (f", round limit {meta['max_rounds']}" if meta.get("max_rounds") else ""), "",
             "| who wins | games | share | 95% interval |", "|---|---:|---:|---|"]
    for side, found in report["sides"].items():
        lines.append(f"| {names.get(side, side)} | {found['wins']} | {_pct(found['rate']).strip()} "
                     f"| {_interval(found['interval'])} |")
    if report["draws"]["count"]:
        lines.append(f"| draw | {report['draws']['count']} | {_pct(report['draws']['rate']).strip()} | |")
    if report["round_limit"]["count"]:
        lines.append(f"| round limit | {report['round_limit']['count']} | "
                     f"{_pct(report['round_limit']['rate']).strip()} | |")
    if report["failed"]:
        lines.append(f"| rules error | {report['failed']} | | |")
    verdict = _verdict(report, names)
    if verdict:
        lines += ["", f"**{verdict}**"]
    length = report["length"]
    if "median" in length:
        lines += ["", f"Game length: median {length['median']:g} rounds (quartiles "
                  f"{length['quartiles'][0]:g}–{length['quartiles'][1]:g})."]
    if comparison is not None:
        lines += ["", _comparison_table_markdown(comparison, names, "baseline", "now", max_shift)]
        if failures:
            lines += ["", "**Balance check failed:** " + "; ".join(failures)]
        elif max_shift is not None:
            lines += ["", f"**Balance check passed:** no side's win rate moved beyond "
                      f"{100 * max_shift:g} points."]
    return "\n".join(lines) + "\n"


def _comparison_table_markdown(comparison: dict, names: dict, old_label: str, new_label: str,
                               max_shift: float | None = None) -> str:
    lines = [f"Shifts tested with {comparison['test']}.", "",
             f"| side | {old_label} | {new_label} | shift (points) | 95% interval | p | |",
             "|---|---:|---:|---:|---|---:|---|"]
    for side, found in comparison["sides"].items():
        flag = "significant" if found["significant"] else ""
        if max_shift is not None:
            flag = (f"❌ moved beyond {100 * max_shift:g} points"
                    if found.get("beyond_tolerance_p", 1.0) < 0.05 else "✅")
        lines.append(f"| {names.get(side, side)} | {_pct(found['old']).strip()} | "
                     f"{_pct(found['new']).strip()} | {_pts(found['shift'])} | "
                     f"{_shift_interval(found['interval'])} | {_p(_family_p(found))} | {flag} |")
    return "\n".join(lines)


def render_comparison_markdown(comparison: dict, names: dict | None = None,
                               ablation: dict | None = None) -> str:
    names = names or {}
    old, new = comparison["old"]["scenario"], comparison["new"]["scenario"]
    lines = [f"### {new} against {old}", "", _title(comparison, names)[0], "",
             _comparison_table_markdown(comparison, names, old, new)]
    if has_leads(comparison):
        lines += ["", "Won, or ahead in victory cities when the round limit stopped the game:",
                  "", _comparison_table_markdown(dict(comparison, sides=comparison["adjudicated"]),
                                                 names, old, new).split("\n", 2)[2]]
    lines += ["", f"**{comparison_verdict(comparison, names)}**"]
    length = comparison["length"]
    if length["shift"] is not None and not math.isnan(length["shift"]):
        lines += ["", f"Game length: mean {length['old']:.2f} → {length['new']:.2f} rounds "
                  f"(shift {length['shift']:+.2f}, 95% {length['interval'][0]:+.2f} to "
                  f"{length['interval'][1]:+.2f})."]
    if ablation and ablation.get("changes"):
        sides = ablation["sides"]
        lines += ["", f"#### Ablation: each {'change' if ablation['by'] == 'change' else 'group'} "
                  f"alone on {ablation['parent']} ({ablation['games']} games each)", "",
                  "| change | " + " | ".join(f"{names.get(s, s)} shift (points)" for s in sides)
                  + " |", "|---|" + "---:|" * len(sides)]
        for item in ablation["changes"]:
            if item.get("error"):
                lines.append(f"| {item['label']} | " + " | ".join(item["error"] for _ in sides) + " |")
                continue
            lines.append(f"| {item['label']} | " + " | ".join(
                f"{_pts(item['sides'][s]['shift'])} ({_shift_interval(item['sides'][s]['interval'])})"
                + (" *" if item["sides"][s]["significant"] else "") for s in sides) + " |")
    return "\n".join(lines) + "\n"


def render_fair_markdown(answer: dict, names: dict | None = None) -> str:
    names = names or {}
    text = render_fair_text(answer, names).splitlines()
    blank = text.index("")
    curve_at = next(i for i, line in enumerate(text) if line.startswith("win-rate curve"))
    body = [line.strip() for line in text[blank + 1:curve_at] if line.strip()]
    rows = ["| value | games | counted | wins | share | 95% interval | fitted |",
            "|---:|---:|---:|---:|---:|---|---:|"]
    for point in answer["curve"]:
        rate = _pct(point["rate"]).strip() if point["rate"] is not None else MINUS
        rows.append(f"| {point['value']:g} | {point['games']} | {point['counted']} | "
                    f"{point['wins']} | {rate} | {_interval(point['interval'])} | "
                    f"{_pct(point['fitted']).strip()} |")
    head = [f"### Fair value of `{answer['knob']['pointer']}` in {answer['scenario']}", ""]
    return "\n".join(head + [line + "  " for line in text[:blank]] + ["", f"**{body[0]}**"]
                     + body[1:] + ["", text[curve_at], ""] + rows) + "\n"


__all__ = ["render_comparison_text", "render_comparison_markdown", "render_ablation_text",
           "render_fair_text", "render_fair_markdown", "render_report_markdown",
           "render_gate_text", "comparison_verdict"]
