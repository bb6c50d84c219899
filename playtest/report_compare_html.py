"""Comparisons and fair-value searches as pages, in the style of playtest/report_html.py, whose
figure helpers they use.

`write_comparison_report` writes `index.html` (the shifts, an ablation chart, the two studies'
curves on one plot), `comparison.json`, and each study's own full page under `old/` and `new/`
(playtest/report_html.write_report). `write_fair_report` writes the curve a balance search found.
"""
from __future__ import annotations

import html
import json
import math
from pathlib import Path

import numpy as np

from .plot_text import draw_text_as_written
from .report import display_names
from .report_compare import _p, _pct, _pts, _shift_interval, comparison_verdict
from .report_html import SIDE_COLOURS, _colours, _figure, _save, figures_html, write_report, write_text

STYLE = """body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border-bottom: 1px solid #ddd; padding: .3em .8em; text-align: left; }
.verdict { font-size: 1.25em; font-weight: 600; }
figure { margin: 1em 0; } img { max-width: 100%; }
.meta { color: #666; }"""

# the plots of a comparison show the two scenarios side by side
COMPARED = {
    "outcome.png": "who wins in each of the two scenarios, with 95% intervals",
    "income.png": "income by round in the two scenarios: each nation's median",
    "victory-cities.png": "victory cities by round in the two scenarios: each side's median",
}


def write_comparison_report(comparison: dict, scenario, other, folder: Path) -> Path:
    import matplotlib
    matplotlib.use("Agg")
    draw_text_as_written()   # a name with `$` is a name, not math text
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    reports = comparison["reports"]
    write_report(reports["old"], other, folder / "old")
    write_report(reports["new"], scenario, folder / "new")
    names = display_names(scenario)
    colours = _colours(scenario)
    plots = []
    if _outcomes_plot(comparison, names, colours, folder / "outcome.png"):
        plots.append("outcome.png")
    ablation = comparison.get("ablation") or {}
    if ablation.get("changes") and _ablation_plot(ablation, names, colours, folder / "ablation.png"):
        plots.append("ablation.png")
    for name in ("income", "victory cities"):
        path = folder / f"{name.replace(' ', '-')}.png"
        if _overlay_plot(comparison, name, names, colours, path):
            plots.append(path.name)
    write_text(folder / "comparison.json", json.dumps(comparison, indent=2, ensure_ascii=False))
    page = folder / "index.html"
    write_text(page, _comparison_page(comparison, names, plots))
    return page


def _outcomes_plot(comparison, names, colours, path) -> bool:
    sides = list(comparison["sides"])
    if not sides:
        return False
    old, new = comparison["old"]["scenario"], comparison["new"]["scenario"]
    figure, axes = _figure(7, 0.8 + 0.7 * len(sides))
    rows = np.arange(len(sides))
    for offset, key, label, alpha in ((-0.18, "old", old, 0.45), (0.18, "new", new, 1.0)):
        rates = [100 * comparison["sides"][s][key] for s in sides]
        low = [100 * (comparison["sides"][s][key] - comparison["sides"][s][f"{key}_interval"][0])
               for s in sides]
        high = [100 * (comparison["sides"][s][f"{key}_interval"][1] - comparison["sides"][s][key])
                for s in sides]
        axes.barh(rows + offset, rates, height=0.34, xerr=np.maximum(0, [low, high]), capsize=3,
                  alpha=alpha,
                  color=[colours.get(s, SIDE_COLOURS[i % len(SIDE_COLOURS)])
                         for i, s in enumerate(sides)], label=label)
    axes.set_yticks(rows, [names.get(s, s) for s in sides])
    axes.set_xlim(0, 100)
    axes.invert_yaxis()
    axes.set_xlabel("games won (%), with 95% interval; pale: " + old)
    axes.set_title(f"Who wins: {old} and {new}")
    return _save(figure, path)


def _ablation_plot(ablation, names, colours, path) -> bool:
    """A forest plot: each change's shift of each side's win rate, with its interval."""
    items = [item for item in ablation["changes"] if item.get("sides")]
    if not items:
        return False
    sides = ablation["sides"]
    figure, axes = _figure(9, 1.0 + 0.45 * len(items))
    rows = np.arange(len(items))
    step = 0.6 / max(1, len(sides))
    for index, side in enumerate(sides):
        shifts = [100 * item["sides"][side]["shift"] for item in items]
        low = [100 * (item["sides"][side]["shift"] - item["sides"][side]["interval"][0])
               for item in items]
        high = [100 * (item["sides"][side]["interval"][1] - item["sides"][side]["shift"])
                for item in items]
        axes.errorbar(shifts, rows + (index - (len(sides) - 1) / 2) * step,
                      xerr=np.maximum(0, [low, high]),
                      fmt="o", capsize=3, label=names.get(side, side),
                      color=colours.get(side, SIDE_COLOURS[index % len(SIDE_COLOURS)]))
    axes.axvline(0, color="#888888", linewidth=0.8)
    axes.set_yticks(rows, [item["label"][:72] for item in items], fontsize=7)
    axes.invert_yaxis()
    axes.set_xlabel("shift of the win rate (points), with 95% interval")
    axes.set_title(f"Each change alone on {ablation['parent']}")
    axes.legend(fontsize="small")
    return _save(figure, path)


def _overlay_plot(comparison, name, names, colours, path) -> bool:
    """Both studies' median curves: the old one dashed, the new one solid."""
    old_series = comparison["reports"]["old"]["series"].get(name) or {}
    new_series = comparison["reports"]["new"]["series"].get(name) or {}
    if not new_series:
        return False
    figure, axes = _figure(7, 3.6)
    drawn = False
    for index, who in enumerate(new_series):
        colour = colours.get(who, SIDE_COLOURS[index % len(SIDE_COLOURS)])
        for series, style, label in ((old_series, "--", None), (new_series, "-", names.get(who, who))):
            rows = series.get(who) or []
            if not any(row["median"] for row in rows):
                continue
            axes.plot([r["round"] for r in rows], [r["median"] for r in rows], style,
                      color=colour, linewidth=2, label=label)
            drawn = True
    if not drawn:
        import matplotlib.pyplot as plt
        plt.close(figure)
        return False
    axes.set_xlabel("round")
    axes.set_ylabel(f"{name} (median)")
    axes.set_title(f"{name.capitalize()} by round: {comparison['new']['scenario']} solid, "
                   f"{comparison['old']['scenario']} dashed", fontsize=9)
    axes.legend(fontsize="small", ncol=2)
    return _save(figure, path)


def _comparison_page(comparison: dict, names: dict, plots: list[str]) -> str:
    esc = html.escape
    old, new = comparison["old"], comparison["new"]
    rows = "".join(
        f"<tr><td>{esc(names.get(side, side))}</td><td>{_pct(f['old']).strip()}</td>"
        f"<td>{_pct(f['new']).strip()}</td><td>{_pts(f['shift'])}</td>"
        f"<td>{esc(_shift_interval(f['interval']))}</td><td>{esc(_p(f.get('p_adjusted', f['p_value'])))}</td>"
        f"<td>{'significant' if f['significant'] else ''}</td></tr>"
        for side, f in comparison["sides"].items())
    length = comparison["length"]
    length_text = ""
    if length["shift"] is not None and not math.isnan(length["shift"]):
        length_text = (f"<p>Game length: mean {length['old']:.2f} → {length['new']:.2f} rounds "
                       f"(shift {length['shift']:+.2f}, 95% {length['interval'][0]:+.2f} to "
                       f"{length['interval'][1]:+.2f}).</p>")
    ablation = comparison.get("ablation") or {}
    ablation_rows = ""
    for item in ablation.get("changes") or []:
        cells = "".join(
            f"<td>{_pts(item['sides'][s]['shift'])} ({esc(_shift_interval(item['sides'][s]['interval']))})"
            f"{' *' if item['sides'][s]['significant'] else ''}</td>" if item.get("sides")
            else f"<td>{esc(item.get('error', ''))}</td>" for s in ablation["sides"])
        ablation_rows += f"<tr><td>{esc(item['label'])}</td>{cells}</tr>"
    ablation_html = ""
    if ablation_rows:
        heads = "".join(f"<th>{esc(names.get(s, s))} shift (points)</th>" for s in ablation["sides"])
        ablation_html = (f"<h2>Ablation: each change alone on {esc(str(ablation['parent']))}</h2>"
                         f"<p>{ablation['games']} games each, the same seed. "
                         f"{esc(ablation.get('note') or '')}</p>"
                         f"<table><tr><th>change</th>{heads}</tr>{ablation_rows}</table>")
    elif ablation.get("note"):
        ablation_html = f"<p>Ablation: {esc(ablation['note'])}</p>"
    figures = figures_html(plots, COMPARED)
    title = f"{new['scenario']} against {old['scenario']}"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>
<style>
{STYLE}
</style></head><body>
<h1>{esc(title)}</h1>
<p class="meta">{new['games']} games each, seed {esc(str(new['seed']))}; shifts tested with
{esc(comparison['test'])}. Full reports: <a href="old/index.html">{esc(str(old['scenario']))}</a>,
<a href="new/index.html">{esc(str(new['scenario']))}</a>.</p>
<p class="verdict">{esc(comparison_verdict(comparison, names))}</p>
<table><tr><th>side</th><th>{esc(str(old['scenario']))}</th><th>{esc(str(new['scenario']))}</th>
<th>shift (points)</th><th>95% interval</th><th>p</th><th></th></tr>{rows}</table>
{length_text}
{figures}
{ablation_html}
</body></html>
"""


# -- a fair-value search -------------------------------------------------------------------------
def write_fair_report(answer: dict, scenario, folder: Path) -> Path:
    import matplotlib
    matplotlib.use("Agg")
    draw_text_as_written()   # a name with `$` is a name, not math text
    from .report_compare import render_fair_text
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    names = display_names(scenario)
    _curve_plot(answer, names, folder / "curve.png")
    write_text(folder / "fair-value.json", json.dumps(answer, indent=2, ensure_ascii=False))
    esc = html.escape
    text = render_fair_text(answer, names)
    page = folder / "index.html"
    write_text(page, f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Fair value in {esc(answer['scenario'])}</title>
<style>
{STYLE}
</style></head><body>
<h1>Fair value of {esc(answer['knob']['pointer'])} in {esc(answer['scenario'])}</h1>
<figure><img src="curve.png" alt="the win-rate curve found"></figure>
<pre>{esc(text)}</pre>
</body></html>
""")
    return page


def _curve_plot(answer: dict, names: dict, path: Path) -> bool:
    curve = [point for point in answer["curve"] if point["counted"]]
    if not curve:
        return False
    figure, axes = _figure(7, 3.8)
    values = np.array([p["value"] for p in curve])
    rates = np.array([100 * p["rate"] for p in curve])
    low = np.maximum(0, rates - np.array([100 * p["interval"][0] for p in curve]))
    high = np.maximum(0, np.array([100 * p["interval"][1] for p in curve]) - rates)
    axes.errorbar(values, rates, yerr=[low, high], fmt="none", ecolor="#888888", capsize=3)
    axes.scatter(values, rates, s=[12 + 2 * p["games"] ** 0.75 for p in curve], color="#4c72b0",
                 zorder=3, label="played (size: games)")
    lo, hi = answer["range"]
    grid = np.linspace(lo, hi, 200)
    fit = answer["fit"]
    axes.plot(grid, 100 / (1 + np.exp(-(fit["intercept"] + fit["slope"] * grid))), color="#dd8452",
              label="fitted")
    axes.axhline(100 * answer["target"], color="#555555", linewidth=0.8, linestyle=":")
    if answer["found"]:
        axes.axvspan(*answer["interval"], color="#55a868", alpha=0.2, label="fair value, 95%")
        axes.axvline(answer["value"], color="#55a868")
    axes.set_ylim(-2, 102)
    axes.set_xlabel(f"{answer['knob']['label']} ({answer['knob']['pointer']})")
    side = names.get(answer["side"], answer["side"])
    axes.set_ylabel(f"{side} wins (%)")
    axes.set_title("Win rate over the knob")
    axes.legend(fontsize="small")
    return _save(figure, path)


__all__ = ["write_comparison_report", "write_fair_report"]
