"""The editor survives a designer in a hurry: thousands of random real key presses and mouse clicks
on every table, form and the map, with undo and redo mixed in (tests/editor_soak.py).

Checked: no exception in any slot (pytest-qt fails the test on one), no Qt warning, undo all gives
back the data as opened and redo all the data as left, and memory stays flat. The long run (5,000
edits, with memory figures) is `python benchmarks/editor.py`.
"""
from __future__ import annotations

import gc
import shutil
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from editor_soak import Soak, own_data  # noqa: E402
from PySide6.QtCore import QSettings, QtMsgType, qInstallMessageHandler  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from editor.main_window import MainWindow  # noqa: E402

WORKSHOP = Path(__file__).resolve().parent / "fixtures" / "editor" / "workshop"
STEPS = 1200
# The offscreen platform says this of every window it shows; it is no fault of the editor.
PLATFORM_NOISE = ("This plugin does not support propagateSizeHints()",)


def resident_mb() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    import os
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.fixture
def warnings():
    found = []

    def handler(kind, context, message):
        if kind != QtMsgType.QtDebugMsg and message not in PLATFORM_NOISE:
            found.append(message)
    previous = qInstallMessageHandler(handler)
    yield found
    qInstallMessageHandler(previous)


def test_random_real_input_on_every_page_never_breaks_the_editor(qtbot, tmp_path, monkeypatch, warnings):
    for name in ("question", "critical", "warning", "information"):
        monkeypatch.setattr(QMessageBox, name, lambda *a, **k: pytest.fail(f"message box: {a[2]}"))
    folder = tmp_path / "workshop"
    shutil.copytree(WORKSHOP, folder)
    window = MainWindow(QSettings(str(tmp_path / "editor.ini"), QSettings.IniFormat))
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    window.open_folder(folder)
    opened = own_data(window.document)
    stack = window.document.undo_stack
    moves = {"forward": 0, "back": 0}   # edits and redos; undos
    last = [stack.index()]

    def count(index):
        moves["forward" if index > last[0] else "back"] += abs(index - last[0])
        last[0] = index
    stack.indexChanged.connect(count)
    soak = Soak(window, seed=1941)
    memory = {}
    done = soak.run(STEPS, after_step=lambda step: memory.setdefault(step, resident_mb())
                    if step in (STEPS // 3, STEPS - 1) else None)
    assert moves["forward"] > STEPS // 4 and moves["back"] > STEPS // 4, (moves, done)
    assert min(done.get(name, 0) for name in ("edit_cell", "undo", "redo", "condition", "map_gesture")) > 20, done
    left = own_data(window.document)
    stack.setIndex(0)
    assert own_data(window.document) == opened
    stack.setIndex(stack.count())
    assert own_data(window.document) == left
    assert warnings == []
    assert memory[STEPS - 1] - memory[STEPS // 3] < 40, memory
    window.confirm_discard = lambda: True
    window.close()
    window.deleteLater()
    gc.collect()
