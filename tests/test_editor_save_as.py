"""Save As asks before replacing another scenario and takes along everything the scenario uses;
saving never leaves a stub file behind when every edit of a new file was undone."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtGui import QColor, QImage  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from editor.document import TargetOccupied  # noqa: E402

from helpers import diagnostics_of  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORKSHOP = REPO / "tests" / "fixtures" / "editor" / "workshop"


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def opened(open_editor, tmp_path):
    """Open a copy of a bundled scenario (or the workshop) in a window."""
    def open_copy(source: Path, name: str | None = None):
        folder = tmp_path / (name or source.name)
        shutil.copytree(source, folder)
        return open_editor(folder)
    return open_copy


@pytest.fixture
def answers(monkeypatch):
    """What the designer answers to each question asked (recorded in `asked`)."""
    given: list = []
    asked: list[str] = []

    def question(parent, title, text, *args):
        asked.append(text)
        return given.pop(0)
    monkeypatch.setattr(QMessageBox, "question", question)
    monkeypatch.setattr(QMessageBox, "critical", lambda *args: pytest.fail(f"error box: {args[2]}"))
    return given, asked


def test_save_as_onto_another_scenario_asks_and_no_leaves_it_untouched(opened, answers, tmp_path):
    given, asked = answers
    other = tmp_path / "gj69"
    shutil.copytree(REPO / "scenarios" / "gj69-southern-operation", other)
    before = tree(other)
    main = opened(REPO / "scenarios" / "war-at-sea")
    given.append(QMessageBox.StandardButton.No)
    assert not main.save_into(other)
    assert len(asked) == 1 and f"{other} holds another scenario (" in asked[0] and "Replace it?" in asked[0]
    assert tree(other) == before
    assert main.document.root == tmp_path / "war-at-sea"
    # The document refuses by itself too, whoever calls it.
    with pytest.raises(TargetOccupied):
        main.document.save(other)
    assert tree(other) == before


def test_save_as_replacing_another_scenario_leaves_this_one_alone_there(opened, answers, tmp_path):
    given, asked = answers
    other = tmp_path / "gj69"
    shutil.copytree(REPO / "scenarios" / "gj69-southern-operation", other)
    main = opened(REPO / "scenarios" / "war-at-sea")
    given.append(QMessageBox.StandardButton.Yes)
    assert main.save_into(other)
    # Every file of war-at-sea is there, and nothing of GJ69's is left: no decks, objectives or
    # Japanese locale of the scenario that was replaced.
    source = tree(REPO / "scenarios" / "war-at-sea")
    assert sorted(tree(other)) == sorted(source)
    assert tree(other)["locales/zh-Hant.yaml"] == source["locales/zh-Hant.yaml"]
    codes = sorted(d.code for d in diagnostics_of(other))
    assert codes == sorted(d.code for d in diagnostics_of(REPO / "scenarios" / "war-at-sea"))
    assert main.document.root == other and main.windowTitle().startswith("War at Sea")


def test_save_as_takes_the_board_image_and_locales_along(opened, answers, tmp_path):
    main = opened(WORKSHOP)
    image = QImage(40, 30, QImage.Format_RGB32)
    image.fill(QColor("#336699"))
    scan = tmp_path / "scan.png"
    assert image.save(str(scan))
    assert main.map_page.set_board_image(scan) == "board/scan.png"
    assert main.save()
    copy = tmp_path / "elsewhere" / "workshop-2"
    copy.mkdir(parents=True)
    assert main.save_into(copy)
    assert answers[1] == []   # an empty folder: nothing to ask
    assert (copy / "board" / "scan.png").read_bytes() == (tmp_path / "workshop" / "board" / "scan.png").read_bytes()
    assert sorted(tree(copy)) == sorted(tree(tmp_path / "workshop"))
    assert [d.code for d in diagnostics_of(copy) if d.code.startswith("PATH")] == []


def test_undoing_every_edit_of_a_new_variant_file_leaves_no_file(opened, tmp_path):
    shutil.copytree(REPO / "scenarios" / "aa50-1941", tmp_path / "aa50-1941")
    main = opened(REPO / "scenarios" / "aa50-1942")
    units = main.document.root / "units.yaml"
    model = main.units_view.source
    cost = model.index(model.row_of(("id", "infantry")), [c.header for c in model.columns].index("Cost"))
    assert model.setData(cost, "4")
    assert main.save() and units.is_file()
    stack = main.document.undo_stack
    while stack.canUndo():
        stack.undo()
    assert main.save()
    assert not units.exists()
    stack.redo()   # and the edit, done again, writes the file again
    assert main.save() and "cost: 4" in units.read_text(encoding="utf-8")
