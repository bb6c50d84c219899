"""The editor survives a designer in a hurry: thousands of random real key presses and mouse clicks
on every table, form and the map, with undo and redo mixed in (tests/editor_soak.py).

Checked: no exception in any slot (pytest-qt fails the test on one), no Qt warning, undo all gives
back the data as opened and redo all the data as left, and memory stays flat: with the document
back as opened and its history let go, the editor holds no more than after the warm-up. The long
run (5,000 actions, with memory figures) is `python benchmarks/editor.py`.
"""
from __future__ import annotations

import gc
import shutil
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QSettings, QtMsgType, qInstallMessageHandler  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from editor.main_window import MainWindow  # noqa: E402

from editor_soak import Soak, back_to_start, own_data, resident_mb  # noqa: E402

WORKSHOP = Path(__file__).resolve().parent / "fixtures" / "editor" / "workshop"
STEPS = 1200
# The offscreen platform says this of every window it shows; it is no fault of the editor.
PLATFORM_NOISE = ("This plugin does not support propagateSizeHints()",)


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
    soak = Soak(window, seed=1941)
    warm_up = STEPS // 4
    soak.run(warm_up)
    back_to_start(window)
    assert own_data(window.document) == opened
    before = resident_mb()
    last[0] = stack.index()
    stack.indexChanged.connect(count)
    done = soak.run(STEPS - warm_up)
    assert moves["forward"] > STEPS // 5 and moves["back"] > STEPS // 5, (moves, done)
    assert min(done.get(name, 0) for name in ("edit_cell", "undo", "redo", "condition", "map_gesture")) > 15, done
    left, where = own_data(window.document), stack.index()   # (the last steps may be undone ones)
    stack.setIndex(0)
    assert own_data(window.document) == opened
    stack.setIndex(where)
    assert own_data(window.document) == left
    # With the document as opened again and its history let go, what is left is what leaked.
    back_to_start(window)
    assert resident_mb() - before < 15, (before, resident_mb())
    assert warnings == []
    window.confirm_discard = lambda: True
    window.close()
    window.deleteLater()
    gc.collect()
