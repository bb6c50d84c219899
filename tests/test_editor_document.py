"""The editor's document: raw files kept whole, variants edited in their own files, saving,
changes on disk, the automatic layout, and validation of the in-memory data."""
from __future__ import annotations

import gc
import shutil
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from editor.document import ScenarioDocument  # noqa: E402
from editor.validation import build_scenario, run_validators  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402
from sandtable.yamlsource import read_yaml_file  # noqa: E402
from validators import validate  # noqa: E402

NORTHERN_FRONT = Path(__file__).resolve().parent.parent / "scenarios" / "northern-front"
VARIANT = """# yaml-language-server: $schema=../../schemas/scenario.schema.json
id: northern-front-variant
name: Northern Front, stronger Finland
system: aa50
extends: ../northern-front
"""
VARIANT_MAP = """# a designer's note at the top
spaces:
- {id: finland, value: 3}
"""


@pytest.fixture(autouse=True)
def collect_qt_garbage():
    yield
    gc.collect()


@pytest.fixture
def folders(tmp_path) -> tuple[Path, Path]:
    base = tmp_path / "scenarios" / "northern-front"
    shutil.copytree(NORTHERN_FRONT, base)
    variant = tmp_path / "scenarios" / "variant"
    variant.mkdir()
    (variant / "scenario.yaml").write_text(VARIANT, encoding="utf-8")
    (variant / "map.yaml").write_text(VARIANT_MAP, encoding="utf-8")
    return base, variant


def test_unknown_keys_and_leading_comments_survive_a_save(qapp, folders):
    base, _ = folders
    path = base / "units.yaml"
    path.write_text(path.read_text().replace("unit_types:", "designer_scratch: {keep: me}\nunit_types:"))
    document = ScenarioDocument(base)
    document.set_field("units", (("unit_types", ("id", "infantry")),), ("cost",), 4)
    document.save()
    saved = read_yaml_file(path)
    assert saved.data["designer_scratch"] == {"keep": "me"}
    assert saved.data["unit_types"][0]["cost"] == 4
    assert saved.text.startswith("# yaml-language-server: $schema=../../schemas/units.schema.json\n")


def test_a_file_that_cannot_be_read_is_reported_and_never_overwritten(qapp, folders):
    base, _ = folders
    broken = "spaces: [unclosed\n"
    (base / "map.yaml").write_text(broken, encoding="utf-8")
    document = ScenarioDocument(base)
    assert document.files["map"].problem.code == "YAML001"
    document.set_field("units", (("unit_types", ("id", "infantry")),), ("cost",), 4)
    written = document.save()
    assert written == [base / "units.yaml"]
    assert (base / "map.yaml").read_text() == broken
    assert "YAML001" in [d.code for d in run_validators(document.snapshot())]


def test_a_variant_edits_its_own_files(qapp, folders):
    base, variant = folders
    document = ScenarioDocument(variant)
    assert document.is_variant
    finland = next(s for s in document.entities("map", "spaces") if s["id"] == "finland")
    assert (finland["name"], finland["value"]) == ("Finland", 3)
    document.set_field("map", (("spaces", ("id", "finland")),), ("value",), 4)
    document.set_field("map", (("spaces", ("id", "norway")),), ("name",), "Norge")
    document.remove_entity("map", (("borders", ("between", ("finland", "sweden"))),))
    document.set_field("units", (("unit_types", ("id", "armour")),), ("stats", "attack"), 4)
    assert document.own("map") == {
        "spaces": [{"id": "finland", "value": 4}, {"id": "norway", "name": "Norge"}],
        "borders": [{"between": ["finland", "sweden"], "remove": True}]}
    assert document.own("units") == {"unit_types": [{"id": "armour", "stats": {"attack": 4}}]}
    before = (base / "map.yaml").read_text()
    document.save()
    assert (base / "map.yaml").read_text() == before
    assert (variant / "map.yaml").read_text().startswith("# a designer's note at the top\n")
    reloaded = load_scenario(variant)
    spaces = {s["id"]: s for s in reloaded.doc("map")["spaces"]}
    assert (spaces["finland"]["value"], spaces["norway"]["name"]) == (4, "Norge")
    assert ["finland", "sweden"] not in [b["between"] for b in reloaded.doc("map")["borders"]]
    assert [d.message for d in validate(reloaded)] == [  # the variant's values reach the rules
        "germany declares an income of 5 IPCs but controls territories worth 7 at the start"]
    for _ in range(4):
        document.undo_stack.undo()
    assert document.own("map") == {"spaces": [{"id": "finland", "value": 3}]}


def test_validating_the_document_matches_validating_the_saved_folder(qapp, folders):
    base, variant = folders
    document = ScenarioDocument(variant)
    document.set_field("map", (("spaces", ("id", "finland")),), ("original_owner",), "nobody")
    in_memory = run_validators(document.snapshot())
    document.save()
    on_disk = validate(load_scenario(variant))
    assert sorted((d.code, d.message, d.pointer) for d in in_memory) == \
        sorted((d.code, d.message, d.pointer) for d in on_disk)
    unknown = [d for d in in_memory if d.code == "REF001"]
    assert [d.message for d in unknown] == ["unknown nation or side 'nobody'"]
    # Before the save: the line of the entry the edit went into, in the file as it is on disk.
    assert (unknown[0].file, unknown[0].line) == (variant / "map.yaml", 3)
    assert [d.line for d in on_disk if d.code == "REF001"] == [3]


def test_the_snapshot_is_a_copy(qapp, folders):
    base, _ = folders
    document = ScenarioDocument(base)
    snapshot = document.snapshot()
    document.set_field("map", (("spaces", ("id", "norway")),), ("value",), 9)
    scenario = build_scenario(snapshot)
    assert scenario.doc("map")["spaces"][0]["value"] == 3


def test_the_automatic_layout_is_written_only_when_asked_for(qtbot, folders):
    """A save writes what the designer changed: one renamed space is a one-line diff, never the
    positions the layout made up; Store layout writes them, as one undo step."""
    from editor.map_canvas import MapScene
    base, _ = folders
    path = base / "map.yaml"
    text = path.read_text()
    path.write_text(text.replace(", position: [150, 210]", "").replace(", position: [20, 250]", ""))
    before = path.read_text().splitlines()
    document = ScenarioDocument(base)
    scene = MapScene(document)
    assert set(document.layout_positions) == {"sweden", "sz-6"}
    placed = scene.spaces["sweden"].pos()
    assert not document.is_dirty()
    document.set_field("map", (("spaces", ("id", "finland")),), ("name",), "Suomi")
    document.save()
    after = path.read_text().splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=False) if a != b]
    assert len(before) == len(after) and len(changed) == 1 and "Suomi" in changed[0][1]
    assert document.store_layout() == 2
    assert document.undo_stack.count() == 2
    document.save()
    spaces = {s["id"]: s for s in read_yaml_file(path).data["spaces"]}
    assert spaces["sweden"]["position"] == [round(placed.x()), round(placed.y())]
    assert spaces["norway"]["position"] == [80, 120]
    assert not document.is_dirty()


def test_a_change_on_disk_is_noticed_by_the_watcher(qtbot, folders):
    base, _ = folders
    document = ScenarioDocument(base)
    with qtbot.waitSignal(document.changed_on_disk, timeout=5_000) as noticed:
        path = base / "setup.yaml"
        path.write_text(path.read_text() + "\n# edited elsewhere\n", encoding="utf-8")
    assert noticed.args == [[base / "setup.yaml"]]
    assert document.check_disk() == []  # reported once, not at every look


def test_own_saves_are_not_reported_as_changes_on_disk(qtbot, folders):
    base, _ = folders
    document = ScenarioDocument(base)
    document.set_field("map", (("spaces", ("id", "norway")),), ("value",), 4)
    document.save()
    assert document.check_disk() == []


def test_save_as_writes_every_file_and_keeps_a_variant_pointing_at_its_parent(qapp, folders, tmp_path):
    base, variant = folders
    document = ScenarioDocument(variant)
    document.set_value("scenario", ("extends",), "../variant/../northern-front")
    copy = tmp_path / "scenarios" / "variant-copy"
    copy.mkdir()
    written = document.save(copy)
    assert sorted(p.name for p in written) == ["map.yaml", "scenario.yaml"]
    assert read_yaml_file(copy / "scenario.yaml").data["extends"] == "../northern-front"
    assert document.root == copy
    reloaded = load_scenario(copy)
    assert reloaded.is_variant
    assert next(s for s in reloaded.doc("map")["spaces"] if s["id"] == "finland")["value"] == 3


def test_the_board_image_is_drawn_behind_the_spaces_at_its_declared_size(qtbot, folders):
    from PySide6.QtGui import QColor, QImage

    from editor.map_canvas import MapScene
    base, _ = folders
    image = QImage(40, 20, QImage.Format_RGB32)
    image.fill(QColor("#336699"))
    assert image.save(str(base / "board.png"))
    path = base / "map.yaml"
    board = "board: {image: board.png, width: 800, height: 400}\n"
    path.write_text(path.read_text().replace("spaces:", board + "spaces:", 1))
    scene = MapScene(ScenarioDocument(base))
    rect = scene.board.sceneBoundingRect()
    assert (rect.width(), rect.height()) == (800, 400)
    assert scene.board.zValue() < min(item.zValue() for item in scene.spaces.values())
