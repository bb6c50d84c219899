"""The balance report as a page: the verdict, then plots of who wins, when, and where.

`write_report(report, scenario, folder)` writes `index.html`, `report.json` and the plots
(PNG, drawn with matplotlib) into `folder`. The map of the fighting is drawn from the
scenario's own geometry: each space's `shape` outlines where it has them, its `position`
otherwise, or a layout of the map's graph when the scenario has no positions at all.
"""
from __future__ import annotations

import html
import json
from pathlib import Path

from engine.calculator import wilson
from engine.game import BLUNDERS
from sandtable.safewrite import atomic_write_bytes

from .plot_text import draw_text_as_written
from .report import _verdict, display_names, plain_value

SIDE_COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860")


# what each plot shows, for readers who cannot see it (the image's alternative text)
PLOT_DESCRIPTIONS = {
    "outcome.png": "who wins: the share of the games each side wins, with its 95% interval",
    "length.png": "game length: how many games ended in each round",
    "army-value.png": "army value by round: each side's median, of the games still running",
    "income.png": "income by round: each nation's median, of the games still running",
    "victory-cities.png": "victory cities by round: each side's median, of the games still running",
    "map.png": "where the fighting was: the spaces that changed hands most, on the map",
    "ablation.png": "each group of changes applied alone to the parent: the shift it gives each "
                    "side, with its 95% interval",
}


def figures_html(plots: list[str], descriptions: dict[str, str] | None = None) -> str:
    """The plots as HTML figures, each described in words (`descriptions`, else
    `PLOT_DESCRIPTIONS`)."""
    known = PLOT_DESCRIPTIONS | (descriptions or {})
    return "".join(f'<figure><img src="{html.escape(p)}" '
                   f'alt="{html.escape(known.get(p, p.removesuffix(".png").replace("-", " ")))}"></figure>'
                   for p in plots)


def _payouts_head(terms: dict) -> str:
    heading = html.escape(terms.get("payouts", "bonuses paid"))
    unit = html.escape(f" ({terms['unit']})" if terms.get("unit") else "")
    return (f"<h2>{heading[:1].upper() + heading[1:]}</h2><table><tr><th>what</th><th>who</th>"
            f"<th>times per game</th><th>paid per game{unit}</th></tr>")

def write_report(report: dict, scenario, folder: Path) -> Path:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    names = display_names(scenario)
    plots = []
    for name, image in plot_images(report, scenario):
        atomic_write_bytes(folder / f"{name}.png", image, within=folder)
        plots.append(f"{name}.png")
    write_text(folder / "report.json", json.dumps(report, indent=2, ensure_ascii=False))
    page = folder / "index.html"
    write_text(page, _page(report, names, plots))
    return page


def write_text(path: Path, text: str) -> Path:
    """A page or a JSON file of the report, written whole or not at all."""
    atomic_write_bytes(path, text.encode("utf-8"), within=path.parent)
    return path


def plot_images(report: dict, scenario) -> list[tuple[str, bytes]]:
    """The report's plots as PNG images, (name, bytes) in the page's order; the page and the
    editor's playtest panel show the same pictures."""
    import io

    import matplotlib
    matplotlib.use("Agg")
    draw_text_as_written()   # a name with `$` is a name, not math text
    names = display_names(scenario)
    colours = _colours(scenario)
    images = []
    series = [(name.replace(" ", "-"), _series_plot) for name in report["series"]]
    for name, draw in [("outcome", _outcome), ("length", _length)] + series + [("map", _map)]:
        buffer = io.BytesIO()
        if draw(report, scenario, names, colours, buffer, name):
            images.append((name, buffer.getvalue()))
    return images


def _colours(scenario) -> dict[str, str]:
    found = {}
    for collection in ("sides", "nations"):
        for _, entity in scenario.entities("scenario", collection):
            if isinstance(entity.get("color"), str):
                found[entity["id"]] = entity["color"]
    return found


def _figure(width=7.0, height=3.2):
    import matplotlib.pyplot as plt
    return plt.subplots(figsize=(width, height), dpi=100, layout="constrained")


def _save(figure, path) -> bool:
    """Write the figure as PNG to `path` (a file name, written whole or not at all, or a binary
    file such as BytesIO)."""
    import io

    import matplotlib.pyplot as plt
    buffer = path if not isinstance(path, (str, Path)) else io.BytesIO()
    try:
        figure.savefig(buffer, format="png", dpi=110)
    finally:
        plt.close(figure)
    if isinstance(path, (str, Path)):
        atomic_write_bytes(Path(path), buffer.getvalue(), within=Path(path).parent)
    return True


def _outcome(report, scenario, names, colours, path, _name) -> bool:
    rows = [(names.get(side, side), found["rate"], found["interval"], colours.get(side))
            for side, found in report["sides"].items()]
    if report["draws"]["count"]:
        rows.append(("draw", report["draws"]["rate"], report["draws"]["interval"], "#999999"))
    if report["round_limit"]["count"]:
        stopped = report["round_limit"]
        rows.append(("round limit", stopped["rate"],
                     list(wilson(stopped["count"], report["finished"])), "#cccccc"))
    if not rows:
        return False
    figure, axes = _figure(7, 0.6 + 0.5 * len(rows))
    labels = [r[0] for r in rows]
    rates = [100 * r[1] for r in rows]
    errors = [[max(0.0, 100 * (r[1] - r[2][0])) for r in rows],
              [max(0.0, 100 * (r[2][1] - r[1])) for r in rows]]
    axes.barh(labels, rates, xerr=errors, color=[r[3] or "#888888" for r in rows], capsize=4)
    axes.set_xlim(0, 100)
    axes.set_xlabel("share of games (%), with 95% interval")
    axes.invert_yaxis()
    axes.set_title("Who wins")
    return _save(figure, path)


def _length(report, scenario, names, colours, path, _name) -> bool:
    histogram = report["length"].get("histogram") or {}
    if not histogram:
        return False
    figure, axes = _figure()
    rounds = [int(r) for r in histogram]
    axes.bar(rounds, list(histogram.values()), color="#4c72b0")
    axes.set_xlabel("rounds played")
    axes.set_ylabel("games")
    axes.set_title("Game length")
    axes.set_xticks(rounds)
    return _save(figure, path)


def _series_plot(report, scenario, names, colours, path, name) -> bool:
    title = next((key for key in report["series"] if key.replace(" ", "-") == name), name)
    series = report["series"].get(title)
    if not series:
        return False
    drawn = {who: rows for who, rows in series.items() if any(row["median"] for row in rows)}
    if not drawn:                       # nobody ever had any: nothing to show
        return False
    figure, axes = _figure(7, 3.6)
    for index, (who, rows) in enumerate(drawn.items()):
        rounds = [row["round"] for row in rows]
        colour = colours.get(who, SIDE_COLOURS[index % len(SIDE_COLOURS)])
        axes.plot(rounds, [row["median"] for row in rows], label=names.get(who, who),
                  color=colour, linewidth=2)
        axes.fill_between(rounds, [row["q1"] for row in rows], [row["q3"] for row in rows],
                          color=colour, alpha=0.15)
    target = (report["meta"].get("victory_target") or {}) if title == "victory cities" else {}
    for index, (who, needed) in enumerate(sorted(target.items())):
        axes.axhline(needed, color=colours.get(who, SIDE_COLOURS[index % len(SIDE_COLOURS)]),
                     linestyle="--", linewidth=1, label=f"{names.get(who, who)} wins at {needed:g}")
    # the medians are of the games still running in each round: show how many those are
    running = {row["round"]: row["games"] for rows in series.values() for row in rows}
    games = report["finished"] or 1
    counts = axes.twinx()
    counts.bar(list(running), [100 * n / games for n in running.values()], color="#888888",
               alpha=0.12, width=0.8)
    counts.set_ylim(0, 100)
    counts.set_ylabel("games still running (%)", color="#888888")
    axes.set_zorder(counts.get_zorder() + 1)
    axes.patch.set_visible(False)
    axes.set_xlabel("round")
    axes.set_ylabel(title + " (median, quartiles shaded)")
    axes.set_title(title[:1].upper() + title[1:] + " by round, of the games still running")
    axes.legend(fontsize="small", ncol=2, loc="best")
    return _save(figure, path)


def _map(report, scenario, names, colours, path, _name) -> bool:
    """Spaces shaded by how often they changed hands per game; circles by battles fought."""
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Polygon
    spaces = {s["id"]: s for _, s in scenario.entities("map", "spaces") if isinstance(s.get("id"), str)}
    if not spaces:
        return False
    where = _positions(scenario, spaces)
    captures = {s: c["per_game"] for s, c in report["captures"].items()}
    battles = report["battles"].get("per_space") or {}
    hottest = max(list(captures.values()) + [1e-9])
    import matplotlib.pyplot as plt
    cmap = plt.get_cmap("OrRd")
    figure, axes = _figure(11, 5.6)
    patches, shades = [], []
    for sid, space in spaces.items():
        outline = (space.get("shape") or {}).get("polygons") or []
        sea = space.get("kind") == "sea"
        shade = "#dfe9f3" if sea else cmap(0.08 + 0.92 * captures.get(sid, 0) / hottest)
        for ring in outline:
            if len(ring) >= 3:
                patches.append(Polygon(ring, closed=True))
                shades.append(shade)
    if patches:
        axes.add_collection(PatchCollection(patches, facecolor=shades, edgecolor="#777777",
                                            linewidth=0.3))
    if not patches:                  # a board of nodes: draw its borders as lines
        for _, border in scenario.entities("map", "borders"):
            pair = border.get("between") or []
            if len(pair) == 2 and all(p in where for p in pair):
                (x1, y1), (x2, y2) = where[pair[0]], where[pair[1]]
                axes.plot([x1, x2], [y1, y2], color="#bbbbbb", linewidth=0.6, zorder=1)
    for sid, (x, y) in where.items():
        if not (spaces[sid].get("shape") or {}).get("polygons"):
            axes.scatter([x], [y], s=60, color=cmap(0.08 + 0.92 * captures.get(sid, 0) / hottest),
                         edgecolors="#555555", linewidths=0.5, zorder=2)
    most = max(list(battles.values()) + [1e-9])
    xs = [where[s][0] for s in battles if s in where]
    ys = [where[s][1] for s in battles if s in where]
    sizes = [300 * battles[s] / most for s in battles if s in where]
    axes.scatter(xs, ys, s=sizes, facecolors="none", edgecolors="#222222", linewidths=0.8,
                 zorder=3)
    labelled = list(where) if not patches and len(where) <= 60 else list(captures)[:12]
    for sid in labelled:
        if sid in where:
            axes.annotate(names.get(sid, sid), where[sid], fontsize=6, ha="center", va="bottom",
                          zorder=4)
    axes.set_aspect("equal")
    axes.autoscale_view()
    if patches or _has_board_y_down(scenario) or _stored_positions(spaces):
        axes.invert_yaxis()           # board coordinates count y downward, as pictures do
    axes.set_axis_off()
    _shade_scale(figure, axes, cmap, hottest)
    axes.set_title("Where the fighting was: shade = changes of hands per game, "
                   "circles = battles per game", fontsize=9)
    return _save(figure, path)


def _shade_scale(figure, axes, cmap, hottest: float) -> None:
    """The key to the shades: the part of the colour map the spaces were drawn with, 0 to the
    most changes of hands in one space."""
    import numpy as np
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import ListedColormap, Normalize
    used = ListedColormap(cmap(np.linspace(0.08, 1.0, 256)))
    scale = ScalarMappable(norm=Normalize(0, max(hottest, 1e-9)), cmap=used)
    bar = figure.colorbar(scale, ax=axes, orientation="horizontal", fraction=0.035, pad=0.02,
                          shrink=0.4)
    bar.set_label("changes of hands per game", fontsize=7)
    bar.ax.tick_params(labelsize=6)


def _has_board_y_down(scenario) -> bool:
    return bool(scenario.doc("map").get("board"))


def _stored_positions(spaces: dict) -> dict[str, tuple[float, float]]:
    return {sid: tuple(s["position"]) for sid, s in spaces.items()
            if isinstance(s.get("position"), list) and len(s["position"]) == 2}


def _positions(scenario, spaces: dict) -> dict[str, tuple[float, float]]:
    found = _stored_positions(spaces)
    if found:
        return found
    import networkx as nx
    graph = nx.Graph()
    graph.add_nodes_from(spaces)
    for _, border in scenario.entities("map", "borders"):
        pair = border.get("between") or []
        if len(pair) == 2 and all(p in spaces for p in pair):
            graph.add_edge(*pair)
    return {k: (float(v[0]), float(v[1])) for k, v in nx.spring_layout(graph, seed=1).items()}


# -- the page ------------------------------------------------------------------------------------
def _blunder_table(report: dict, names: dict[str, str]) -> str:
    """What the players did that a sensible player does not, per side and game: read it before
    trusting the verdict."""
    blunders = report.get("blunders") or {}
    if not blunders:
        return ""
    esc = html.escape
    sides = list(report["sides"])
    head = "".join(f"<th>{esc(names.get(s, s))}</th>" for s in sides)
    rows = "".join(
        f"<tr><td>{esc(BLUNDERS.get(kind, kind))}</td>" + "".join(
            f"<td>{by_side.get(s, {}).get('per_game', 0.0):.1f}"
            f" <small>({100 * by_side.get(s, {}).get('games', 0.0):.0f}% of games)</small></td>"
            for s in sides) + "</tr>"
        for kind, by_side in blunders.items())
    return ("<h2>How the players played</h2><p>Per game; a sensible player keeps these near "
            "0. Large figures mean the verdict measures the players as much as the scenario."
            f"</p><table><tr><th></th>{head}</tr>{rows}</table>")



def _page(report: dict, names: dict[str, str], plots: list[str]) -> str:
    meta = report["meta"]
    esc = html.escape
    title = f"Playtest of {meta.get('scenario')}"
    rows = "".join(
        f"<tr><td>{esc(names.get(side, side))}</td><td>{f['wins']}</td>"
        f"<td>{100 * f['rate']:.1f}%</td><td>{100 * f['interval'][0]:.1f}% – "
        f"{100 * f['interval'][1]:.1f}%</td></tr>" for side, f in report["sides"].items())
    if report["round_limit"]["count"]:
        rows += (f"<tr><td>stopped at the round limit</td><td>{report['round_limit']['count']}"
                 f"</td><td>{100 * report['round_limit']['rate']:.1f}%</td><td></td></tr>")
    ahead = report.get("ahead_at_limit") or {}
    ahead_text = ""
    if ahead:
        ahead_text = "<p>Ahead when the round limit stopped them: " + ", ".join(
            f"{esc(names.get(k, k))} {v}" for k, v in ahead.items()) + "</p>"
    contested = "".join(
        f"<tr><td>{esc(names.get(s, s))}</td><td>{c['per_game']:.2f}</td>"
        f"<td>{c['first_round_median']:g}</td></tr>"
        for s, c in list(report["captures"].items())[:15])
    payouts = "".join(
        f"<tr><td>{esc(names.get(o, o))}</td><td>{esc(names.get(p['owner'], p['owner']))}</td>"
        f"<td>{p['per_game']:.2f}</td><td>{p['amount_per_game']:.1f}</td></tr>"
        for o, p in report["payouts"].items() if not o.startswith("research:"))
    errors = "".join(f"<li>game {e['game']}: {esc(e['error'].splitlines()[0])} "
                     f"(replay: <code>{esc(str(e['replay']))}</code>)</li>"
                     for e in report["errors"])
    figures = figures_html(plots)
    options = ", ".join(f"{esc(k.replace('_', '-'))}={esc(plain_value(v))}"
                        for k, v in (meta.get("options") or {}).items())
    players = ", ".join(f"{esc(names.get(k, k))}: {esc(v)}"
                        for k, v in (meta.get("players") or {}).items())
    length = report["length"]
    by_winner = ", ".join(f"{esc(names.get(w, w) if w != 'None' else 'no winner')} {f['median']:g}"
                          for w, f in (report.get("length_by_winner") or {}).items()
                          if "median" in f)
    by_winner = f"; by winner: {by_winner}" if by_winner else ""
    robust = report.get("robust")
    robust_text = f'<p class="robust">Robust check: {esc(robust["summary"])}</p>' if robust else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
td, th {{ border-bottom: 1px solid #ddd; padding: .3em .8em; text-align: left; }}
.verdict {{ font-size: 1.25em; font-weight: 600; }}
figure {{ margin: 1em 0; }} img {{ max-width: 100%; }}
.meta {{ color: #666; }}
</style></head><body>
<h1>{esc(title)}</h1>
<p class="players">Players: {players}.</p>
{robust_text}
<p class="meta">{report['games']} games, seed {esc(str(meta.get('seed')))};
options {options or 'defaults'}; round limit {esc(str(meta.get('max_rounds') or 'the game’s own'))}.</p>
<p class="verdict">{esc(_verdict(report, names) or 'No verdict: no game was decided.')}</p>
<table><tr><th>result</th><th>games</th><th>share</th><th>95% interval</th></tr>{rows}</table>
{ahead_text}
<p>Game length: median {length.get('median', 0):g} rounds
(quartiles {length.get('quartiles', [0, 0])[0]:g}–{length.get('quartiles', [0, 0])[1]:g}{by_winner});
battles per game {report['battles']['per_game']:.1f}, {report['battles']['mean_size']:.1f}
units each.</p>
{figures}
<h2>Most contested spaces</h2>
<table><tr><th>space</th><th>changes of hands per game</th><th>first change (median round)</th></tr>
{contested}</table>
{_payouts_head(meta.get("terms") or {}) + payouts + "</table>" if payouts else ""}
{_blunder_table(report, names)}
{"<h2>Games stopped by a rules error</h2><ul>" + errors + "</ul>" if errors else ""}
</body></html>
"""
