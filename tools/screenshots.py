"""Screenshots of the editor for docs/editor.md, grabbed offscreen so they stay current.

    python tools/screenshots.py [--out docs/images] [--only NAME.png ...]

Works on temporary copies of the bundled scenarios; nothing under scenarios/ is changed.
Chinese text needs a CJK font (see docs/editor.md); without one it shows as boxes.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402


def copy_scenario(name: str, into: Path) -> Path:
    """A scenario (and the one it extends, if any) copied beside each other in `into`."""
    target = into / "scenarios" / name
    if not target.exists():
        shutil.copytree(REPO / "scenarios" / name, target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(REPO / "docs" / "images"))
    parser.add_argument("--only", nargs="+", metavar="NAME", help="make only these pictures")
    args = parser.parse_args(argv)

    def wanted(*names: str) -> bool:
        return not args.only or any(name in args.only for name in names)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    app = QApplication.instance() or QApplication([])
    from editor.eventloop import run_until
    from editor.fonts import prefer_cjk_fallbacks
    from editor.main_window import MainWindow
    prefer_cjk_fallbacks(app)

    work = Path(tempfile.mkdtemp(prefix="sandtable-shots-"))
    window = MainWindow(QSettings(str(work / "editor.ini"), QSettings.IniFormat))
    window.resize(1500, 950)
    window.show()

    def settle(ms: int = 150) -> None:
        run_until(lambda: not (window.validator and window.validator.busy), 20_000)
        run_until(lambda: False, ms)

    def save(widget, name: str) -> None:
        if not wanted(name):
            return
        path = out / name
        widget.grab().save(str(path))
        print(f"wrote {path.relative_to(REPO) if path.is_relative_to(REPO) else path}")

    # The main window on the teaching scenario, a space chosen, with two problems to fix.
    folder = copy_scenario("northern-front", work)
    window.open_folder(folder)
    settle()
    document = window.document
    document.set_field("map", (("borders", ("between", ("finland", "norway"))),), ("between",),
                       ["finland", "lapland"])
    document.set_field("units", (("unit_types", ("id", "armour")),), ("cost",), "five")
    window.scene.select_space("karelia-ssr")
    window.map_view.fit()
    settle()
    window.statusBar().clearMessage()  # it names the temporary folder
    save(window, "main-window.png")
    save(window.problems_dock, "problems-dock.png")
    document.undo_stack.setClean()

    # The 1941 board: territories as the board draws them, the legend and the overview.
    folder = copy_scenario("aa50-1941", work)
    window.open_folder(folder)
    settle()
    window.tabs.setCurrentIndex(0)
    view = window.map_view
    view.resetTransform()
    view.scale(0.62, 0.62)
    view.centerOn(1750, 560)
    window.scene.select_space("germany")
    settle(400)
    save(view, "map-canvas.png")

    # Its Chinese translation, side by side with the English.
    window.tabs.setCurrentWidget(window.translation_panel)
    window.translation_panel.show_locale("zh-Hans")
    panel = window.translation_panel
    panel.view.select_row(panel.model.row_of_key("scenario.description"), 2)
    settle()
    save(window.translation_panel, "translation-view.png")

    # The scenario's own forms: its name and system, turn order, victory, the rules' parameters;
    # and what each nation starts with.
    panel = window.scenario_panel
    window.tabs.setCurrentWidget(panel)
    for title, name in (("General", "scenario-general.png"), ("Turn order", "scenario-turn-order.png"),
                        ("Rules", "scenario-rules.png")):
        panel.show_page(title)
        settle()
        save(panel, name)
    panel.show_page("Victory")
    panel.victory.select(("id", "axis-total-war"))
    panel.victory.builder.tree.setCurrentIndex(panel.victory.builder.model.index(0, 0))
    settle()
    save(panel, "scenario-victory.png")
    setup = window.setup_panel
    window.tabs.setCurrentWidget(setup)
    setup.tabs.setCurrentWidget(setup.resources_page)
    setup.resources_page.view.select_row(0, 2)
    settle()
    save(setup, "setup-resources.png")
    if wanted("new-scenario.png"):
        from editor.new_scenario import NewScenarioDialog
        dialog = NewScenarioDialog(window, Path.home() / "scenarios" / "northern-front-1942")
        dialog.name.setText("Northern Front, 1942")
        dialog.show()
        settle()
        save(dialog, "new-scenario.png")
        dialog.close()

    # A battle from the playtest panel, when the engine's calculator is there: the defaults.
    from editor.playtest import load_calculator
    if wanted("playtest.png") and load_calculator() is not None:
        panel = window.playtest_panel
        window.tabs.setCurrentWidget(panel.parentWidget().parentWidget())
        panel.seed.setValue(1941)
        if panel.run():
            run_until(lambda: panel.report is not None, 120_000)
            settle()
            save(panel, "playtest.png")

    # The 1942 variant: what it changes against 1941, and whole games of it.
    if not wanted("variant-changes.png", "playtest-games.png"):
        window.confirm_discard = lambda: True
        window.close()
        shutil.rmtree(work, ignore_errors=True)
        return 0
    folder = copy_scenario("aa50-1942", work)
    window.open_folder(folder)
    settle()
    window.tabs.setCurrentWidget(window.changes_panel)
    settle()
    save(window.changes_panel, "variant-changes.png")
    games = window.games_panel
    window.tabs.setCurrentWidget(games.parentWidget().parentWidget())
    games.parentWidget().parentWidget().setCurrentWidget(games)
    for combo in games.player_choices.values():
        combo.setCurrentText("heuristic")
    games.games.setValue(8)
    games.max_rounds.setValue(4)
    games.seed.setValue(1942)
    if games.run():
        run_until(lambda: games.report is not None or games.run_button.isEnabled(), 600_000)
        settle()
        save(games, "playtest-games.png")

    window.confirm_discard = lambda: True
    window.close()
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
