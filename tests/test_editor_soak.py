"""The editor survives a designer in a hurry: thousands of random real key presses and mouse clicks
on every table, form and the map, with undo and redo mixed in (tests/editor_soak.py).

Checked: no exception in any slot (pytest-qt fails the test on one), no Qt warning, undo all gives
back the data as opened and redo all the data as left, and memory stays flat: with the document
back as opened and its history let go, the editor holds no more than after the warm-up. The long
run (5,000 actions, with memory figures) is `python benchmarks/editor.py`.
"""
from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from editor_soak import Soak, back_to_start, own_data, resident_mb  # noqa: E402

STEPS = 1200


def test_random_real_input_on_every_page_never_breaks_the_editor(open_editor, workshop, qt_warnings):
    window = open_editor()
    window.activateWindow()
    window.open_folder(workshop)
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
    assert qt_warnings == []
