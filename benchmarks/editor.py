"""Editor benchmarks: opening and drawing the largest bundled scenario, live validation, and a
long soak of random real input.

    python benchmarks/editor.py [--soak-steps 5000]

Prints four figures against their targets, each beside a baseline measured in the same run:
  open + draw   open the largest scenario under scenarios/ (AA50 1941, its board's polygons) and
                paint its map (target < 1.5 s); baseline: loading and validating it as
                `sandtable validate` does
  problems      from an edit to an updated problems dock, on a generated 200-space scenario
                (target < 150 ms); baseline: the validators alone
  UI block      the longest the UI thread went without running its event loop while
                validations ran (target < 50 ms); baseline: the same measure while idle
  memory        growth of the resident memory over 5,000 random edits, undos and redos with
                real key presses and clicks (tests/editor_soak.py; target < 50 MB), measured every
                500 with the document as opened and its history let go (what stays is what
                leaked); baseline: the memory so measured after the first 500
Runs offscreen; the machine's load shows in the figures, so the median of several edits is given,
and the process's CPU time beside the wall time where waiting could hide in the wall time.
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
sys.path.insert(0, str(REPO / "tests"))   # the soak's driver, shared with the test

from PySide6.QtCore import QElapsedTimer, QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from sandtable.scenario import find_scenarios, load_scenario  # noqa: E402
from sandtable.yamlwrite import save_yaml  # noqa: E402

from editor_soak import resident_mb  # noqa: E402

TARGET_OPEN, TARGET_PROBLEMS, TARGET_BLOCK, TARGET_GROWTH = 1.5, 0.150, 0.050, 50.0
EDITS = 15
WARM_UP = 500   # soak steps before the memory baseline: caches and pools are full by then


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
    save_yaml(folder / "map.yaml", {"spaces": spaces, "borders": borders}, within=folder)
    save_yaml(folder / "setup.yaml", {"spaces": [
        {"space": s["id"], "control": s["original_owner"], "units": [{"type": "infantry", "count": 2}]}
        for s in spaces]}, within=folder)
    manifest = load_scenario(folder).manifest
    manifest["nations"][1]["capital"] = "land-1"
    for nation in manifest["nations"]:
        nation["income"] = count // 2
    save_yaml(folder / "scenario.yaml", manifest, within=folder)
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


def open_and_draw(app, window, folder: Path) -> tuple[float, float, int]:
    """Seconds (wall, CPU) from File > Open to the map painted, and the spaces drawn."""
    started, cpu = time.perf_counter(), time.process_time()
    window.open_folder(folder)
    window.map_view.fit()
    window.map_view.viewport().repaint()
    opened, used = time.perf_counter() - started, time.process_time() - cpu
    wait_until(app, lambda: not window.validator.busy)
    return opened, used, len(window.scene.spaces)


def validate_as_the_cli_does(folder: Path) -> float:
    import validators
    started = time.perf_counter()
    validators.validate(load_scenario(folder))
    return time.perf_counter() - started


def problems_after_edits(app, window, work: Path) -> tuple[list[float], list[float], float, float]:
    """Per edit: the delay to an updated problems dock and the validators' own time; the longest
    UI block during them, and while idle for as long."""
    window.open_folder(generate(work / "generated-200"))
    wait_until(app, lambda: not window.validator.busy)
    watch = BlockWatch()
    delays, validation, updates = [], [], []
    window.validator.updated.connect(lambda _d: updates.append(time.perf_counter()))
    watch.start()
    started = time.perf_counter()
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
    idle_for = time.perf_counter() - started
    watch.start()
    pause = time.perf_counter()
    wait_until(app, lambda: time.perf_counter() - pause > idle_for)
    idle = watch.stop()
    window.document.undo_stack.setClean()
    return delays, validation, block, idle


def soak(app, window, work: Path, steps: int) -> list[float]:
    """Memory (MB) every WARM_UP steps of random real input, each time with the document as
    opened and its history let go: a leak shows as a rise from one to the next (a document that
    only grew would hide one)."""
    from editor_soak import Soak, back_to_start
    folder = work / "workshop"
    shutil.copytree(REPO / "tests" / "fixtures" / "editor" / "workshop", folder)
    window.open_folder(folder)
    window.activateWindow()
    driver = Soak(window, seed=5000)
    marks = []
    for _ in range(steps // WARM_UP):
        driver.run(WARM_UP)
        back_to_start(window)
        marks.append(resident_mb())
    window.document.undo_stack.setClean()
    return marks


def main(argv: list[str] | None = None) -> int:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soak-steps", type=int, default=5000)
    args = parser.parse_args(argv)
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
    cli = validate_as_the_cli_does(folder)
    opened, cpu, spaces = open_and_draw(app, window, folder)
    shaped = sum(1 for item in window.scene.spaces.values() if item.shaped)
    delays, validation, block, idle = problems_after_edits(app, window, work)
    steps = max(args.soak_steps, 2 * WARM_UP)
    marks = soak(app, window, work, steps)
    warm, end = marks[0], marks[-1]
    window.close()
    shutil.rmtree(work, ignore_errors=True)

    report = [
        ("open + draw", opened * 1000, TARGET_OPEN * 1000, "ms",
         f"{folder.name}, {spaces} spaces ({shaped} drawn as polygons); CPU {cpu * 1000:.0f} ms; "
         f"baseline `sandtable validate` of it {cli * 1000:.0f} ms"),
        ("problems updated", statistics.median(delays) * 1000, TARGET_PROBLEMS * 1000, "ms",
         f"median of {EDITS} edits, 200 spaces (max {max(delays) * 1000:.0f} ms); "
         f"baseline the validators alone {statistics.median(validation) * 1000:.0f} ms"),
        ("longest UI block", block * 1000, TARGET_BLOCK * 1000, "ms",
         f"during those validations; baseline idle for as long {idle * 1000:.0f} ms"),
        ("memory growth", end - warm, TARGET_GROWTH, "MB",
         f"over {steps - WARM_UP:,} random edits, undos and redos after {WARM_UP}, the document "
         f"as opened at every {WARM_UP}: baseline {warm:.0f} MB after the first; then "
         + " ".join(f"{m:.0f}" for m in marks[1:]) + " MB"),
    ]
    failed = False
    for name, value, target, unit, detail in report:
        verdict = "ok" if value < target else "OVER"
        failed |= value >= target
        print(f"{name:18} {value:8.0f} {unit}  (target < {target:.0f} {unit}) {verdict:4}  {detail}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
