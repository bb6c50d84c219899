"""A duplicate is its own row: its problem leads to it, Remove takes it (not the original), and the
messages name real lines of the file, before and after edits."""
from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402

DUPLICATE = """- id: hold-the-north
  name: Hold the north, again
  owner: germany
  award: {resource: ipc, amount: 2}
  when: {turn: {min: 5}}
"""


@pytest.fixture
def window(qtbot, open_editor, workshop):
    with open(workshop / "objectives.yaml", "a", encoding="utf-8") as objectives:
        objectives.write(DUPLICATE)
    main = open_editor(workshop)
    qtbot.waitUntil(lambda: not main.validator.busy, timeout=10_000)
    return main


def duplicate_problem(window):
    rows = [i for i, d in enumerate(window.problems_model.diagnostics) if d.code == "ID001"]
    assert len(rows) == 1, [d.message for d in window.problems_model.diagnostics]
    return rows[0], window.problems_model.diagnostics[rows[0]]


def test_the_problem_of_a_duplicate_leads_to_the_duplicate_and_remove_takes_it(qtbot, window):
    row, problem = duplicate_problem(window)
    assert problem.message == "id 'hold-the-north' is used twice in objectives (first at line 3)"
    assert (problem.line, problem.column) == (17, 7)
    view = window.problems_view
    index = view.proxy.mapFromSource(window.problems_model.index(row, 2))
    view.scrollTo(index)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.visualRect(index).center())
    qtbot.mouseDClick(view.viewport(), Qt.LeftButton, pos=view.visualRect(index).center())
    panel = window.objectives_panel
    assert window.tabs.currentWidget() is panel
    assert panel.view.current_row() == 2
    assert panel.builder.model.condition == {"turn": {"min": 5}}    # the duplicate's own
    qtbot.mouseClick(panel.page.remove_button, Qt.LeftButton)
    names = [o["name"] for o in window.document.own("objectives")["objectives"]]
    assert names == ["Hold the north", "Defend Moscow"]
    qtbot.waitUntil(lambda: not window.validator.busy, timeout=10_000)
    assert "ID001" not in [d.code for d in window.problems_model.diagnostics]


def test_after_edits_the_lines_are_still_those_of_the_file(qtbot, window):
    document = window.document
    # Edit the file (its lines are now those on disk, not of what a save would write).
    document.set_field("objectives", (("objectives", ("id", "defend-moscow")),), ("name",), "Hold Moscow")
    document.add_entity("objectives", (), "objectives", {"id": "new-one", "name": "New", "owner": "nobody"})
    qtbot.waitUntil(lambda: not window.validator.busy, timeout=10_000)
    _, problem = duplicate_problem(window)
    assert problem.message == "id 'hold-the-north' is used twice in objectives (first at line 3)"
    assert problem.line == 17
    unknown = next(d for d in window.problems_model.diagnostics if d.code == "REF001")
    assert unknown.line == 3            # a new entry: where the list it went into starts
    assert all(d.line >= 1 for d in window.problems_model.diagnostics if d.file is not None)
    assert window.problems_model.data(window.problems_model.index(
        window.problems_model.diagnostics.index(unknown), 3)) == "objectives.yaml:3:1"
