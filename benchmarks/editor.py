"""Editor benchmarks: opening and drawing the largest bundled scenario, and live validation.

    python benchmarks/editor.py

Prints three figures against their targets:
  open + draw   open the largest scenario under scenarios/ and paint its map (target < 1.5 s)
  problems      from an edit to an updated problems dock, on a generated 200-space scenario
                (target < 150 ms)
  UI block      the longest the UI thread went without running its event loop while
                validations ran (target < 50 ms)
Runs offscreen; the machine's load shows in the figures, so the median of several edits is given.
"""
from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from PySide6.QtCore import QElapsedTimer, QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from sandtable.scenario import find_scenarios, load_scenario  # noqa: E402
from sandtable.yamlwrite import save_yaml  # noqa: E402

TARGET_OPEN, TARGET_PROBLEMS, TARGET_BLOCK = 1.5, 0.150, 0.050
EDITS = 15


def largest_scenario() -> Path:
    sizes = {folder: len(load_scenario(folder).doc("map").get("spaces", []) or [])
             for folder in find_scenarios(REPO / "scenarios")}
    return max(sizes, key=sizes.get)


def generate(folder: Path, count: int = 200) -> Path:
    """A 200-space aa50 scenario: northern-front's nations and units on a 20 x 10 grid."""
    shutil.copytree(REPO / "scenarios" / "northern-front", folder)
    owners = ("germany", "soviet-union")
    spaces = [{"id": f"land-{i}", "name": f"Land {i}", "kind": "land", "value": 1,
               "original_owner": owners[i % 2], "position": [(i % 20) * 70, (i // 20) * 70]}
              for i in range(count)]
    borders = []
    for i in range(count):
        if i % 20 != 19:
            borders.append({"between": [f"land-{i}", f"land-{i + 1}"], "kind": "land"})
        if i + 20 < count:
            borders.append({"between": [f"land-{i}", f"land-{i + 20}"], "kind": "land"})
    save_yaml(folder / "map.yaml", {"spaces": spaces, "borders": borders})
    save_yaml(folder / "setup.yaml", {"spaces": [
        {"space": s["id"], "control": s["original_owner"], "units": [{"type": "infantry", "count": 2}]}
        for s in spaces]})
    manifest = load_scenario(folder).manifest
    manifest["nations"][1]["capital"] = "land-1"
    for nation in manifest["nations"]:
        nation["income"] = count // 2
    save_yaml(folder / "scenario.yaml", manifest)
    return folder


class BlockWatch:
    """Ticks every millisecond on the UI thread; the longest gap between ticks is the longest block."""

    def __init__(self):
        self.clock = QElapsedTimer()
        self.longest = 0
        self.timer = QTimer(interval=1)
        self.timer.timeout.connect(self._tick)

    def start(self):
        self.longest = 0
        self.clock.start()
        self.timer.start()

    def _tick(self):
        self.longest = max(self.longest, self.clock.restart())

    def stop(self) -> float:
        self.timer.stop()
        return self.longest / 1000


def wait_until(app, condition, timeout=30.0):
    from editor.eventloop import run_until
    if not run_until(condition, int(timeout * 1000), poll_ms=0):
        raise TimeoutError("the editor did not answer in time")


def main() -> int:
    app = QApplication.instance() or QApplication([])
    import validators  # noqa: F401  (loaded at start-up in the application too)
    from editor.main_window import MainWindow

    work = Path(tempfile.mkdtemp(prefix="sandtable-bench-"))
    settings = QSettings(str(work / "editor.ini"), QSettings.IniFormat)
    window = MainWindow(settings)
    window.resize(1400, 900)
    window.show()
    wait_until(app, lambda: True)

    folder = largest_scenario()
    started = time.perf_counter()
    window.open_folder(folder)
    window.map_view.fit()
    window.map_view.viewport().repaint()
    opened = time.perf_counter() - started
    spaces = len(window.scene.spaces)
    wait_until(app, lambda: not window.validator.busy)

    big = generate(work / "generated-200")
    window.open_folder(big)
    wait_until(app, lambda: not window.validator.busy)
    watch = BlockWatch()
    delays = []
    validation = []
    updates = []
    window.validator.updated.connect(lambda _d: updates.append(time.perf_counter()))
    watch.start()
    for edit in range(EDITS):
        before = len(updates)
        value = "broken" if edit % 2 == 0 else 1   # break a value, then mend it, and again
        edited = time.perf_counter()
        window.document.set_field("map", (("spaces", ("id", "land-0")),), ("value",), value)
        wait_until(app, lambda before=before: len(updates) > before and not window.validator.busy)
        delays.append(updates[-1] - edited)
        validation.append(window.validator.last_duration)
        pause = time.perf_counter()
        wait_until(app, lambda pause=pause: time.perf_counter() - pause > 0.02)
    block = watch.stop()
    window.document.undo_stack.setClean()
    window.close()
    shutil.rmtree(work, ignore_errors=True)

    median = statistics.median(delays)
    report = [
        ("open + draw", f"{folder.name} ({spaces} spaces)", opened, TARGET_OPEN),
        ("problems updated", f"median of {EDITS} edits, 200 spaces (max {max(delays) * 1000:.0f} ms; "
                             f"validators alone {statistics.median(validation) * 1000:.0f} ms)",
         median, TARGET_PROBLEMS),
        ("longest UI block", "during those validations", block, TARGET_BLOCK),
    ]
    failed = False
    for name, detail, seconds, target in report:
        verdict = "ok" if seconds < target else "OVER"
        failed |= seconds >= target
        print(f"{name:18} {seconds * 1000:8.0f} ms  (target < {target * 1000:.0f} ms) {verdict:4}  {detail}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
