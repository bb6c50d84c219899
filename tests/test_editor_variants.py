"""A variant shown as a variant: inherited values grey and italic, overridden ones marked with the
parent's value in the tooltip, revert to inherited, a page of what the variant changes, and saves
that never copy an inherited value into the variant's files."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtGui import QColor  # noqa: E402

from editor.models.entity_table import INHERITED_COLOUR, OVERRIDDEN_BACKGROUND, STATUS_ROLE  # noqa: E402
from editor.roles import BACKGROUND, FONT, FOREGROUND, TOOLTIP  # noqa: E402
from sandtable.yamlsource import read_yaml_file  # noqa: E402

NORTHERN_FRONT = Path(__file__).resolve().parent.parent / "scenarios" / "northern-front"
VARIANT = """# yaml-language-server: $schema=../../schemas/scenario.schema.json
id: northern-variant
name: Northern Front, stronger Finland
system: aa50
extends: ../northern-front
"""
VARIANT_MAP = """# yaml-language-server: $schema=../../schemas/map.schema.json
spaces:
- {id: finland, value: 3}
- {id: lapland, name: Lapland, kind: land, value: 0, position: [260, 20]}
borders:
- {between: [finland, lapland], kind: land}
- {between: [finland, sweden], remove: true}
"""


@pytest.fixture
def window(open_editor, tmp_path):
    shutil.copytree(NORTHERN_FRONT, tmp_path / "scenarios" / "northern-front")
    variant = tmp_path / "scenarios" / "variant"
    variant.mkdir()
    (variant / "scenario.yaml").write_text(VARIANT, encoding="utf-8")
    (variant / "map.yaml").write_text(VARIANT_MAP, encoding="utf-8")
    return open_editor(variant)


def cell(model, ident, header):
    return model.index(model.row_of(("id", ident)), [c.header for c in model.columns].index(header))


def test_inherited_overridden_and_added_values_look_different(window):
    model = window.spaces_page.model
    value, name, added = cell(model, "finland", "Value"), cell(model, "finland", "Name"), cell(model, "lapland", "Name")
    assert (value.data(STATUS_ROLE), name.data(STATUS_ROLE), added.data(STATUS_ROLE)) == (
        "overridden", "inherited", "added")
    assert value.data(FONT).bold() and value.data(BACKGROUND).color() == OVERRIDDEN_BACKGROUND
    assert "overrides the parent's value: 2" in value.data(TOOLTIP)
    assert name.data(FONT).italic() and name.data(FOREGROUND).color() == QColor(INHERITED_COLOUR)
    assert name.data(TOOLTIP) == "inherited from the parent scenario"
    assert added.data(TOOLTIP) == "added by this variant" and added.data(FONT) is None


def test_revert_to_inherited_takes_the_override_out(window):
    document, model = window.document, window.spaces_page.model
    assert model.revert_value(cell(model, "finland", "Value"))
    assert document.own("map")["spaces"] == [
        {"id": "lapland", "name": "Lapland", "kind": "land", "value": 0, "position": [260, 20]}]
    assert model.data(cell(model, "finland", "Value")) == "2"
    assert document.undo_stack.count() == 1
    document.undo_stack.undo()
    assert document.own("map")["spaces"][0] == {"id": "finland", "value": 3}
    # The inspector marks the same field and reverts it from its context menu.
    window.scene.select_space("finland")
    field = window.inspector.fields["value"]
    assert field.font().bold() and field.toolTip() == "overrides the parent's value: 2"
    [revert] = field.actions()
    assert revert.text() == "Revert to inherited"
    revert.trigger()
    assert document.find_merged("map", (("spaces", ("id", "finland")),))["value"] == 2
    assert window.inspector.fields["value"].font().italic()


def test_an_edit_of_an_inherited_value_writes_that_value_alone(window, tmp_path):
    document = window.document
    model = window.spaces_page.model
    assert model.setData(cell(model, "norway", "Value"), "4")
    window.map_page.store_layout()   # nothing to store: every space has a position
    written = document.save()
    assert [p.name for p in written] == ["map.yaml"]
    own = read_yaml_file(document.root / "map.yaml").data
    assert own["spaces"][-1] == {"id": "norway", "value": 4}    # no name, kind, position copied
    assert len(own["spaces"]) == 3 and len(own["borders"]) == 2
    parent = tmp_path / "scenarios" / "northern-front" / "map.yaml"
    assert parent.read_text() == (NORTHERN_FRONT / "map.yaml").read_text()


def test_the_changes_page_lists_what_the_variant_changes_and_reverts_it(window):
    page = window.changes_panel
    rows = [[page.model.data(page.model.index(r, c)) for c in range(6)] for r in range(page.model.rowCount())]
    assert rows == [
        ["map.yaml", "finland", "value", "2", "3", "changed"],
        ["map.yaml", "lapland", "", "", "id: lapland, name: Lapland, kind: land, value: 0, position: [260, 20]",
         "added"],
        ["map.yaml", "finland – lapland", "", "", "between: [finland, lapland], kind: land", "added"],
        ["map.yaml", "finland – sweden", "", "between: [finland, sweden], kind: land", "", "removed"]]
    assert page.summary.text() == "4 change(s) against northern-front"
    page.view.select_row(3)
    assert page.revert_selected()
    assert ("finland", "sweden") in window.scene.borders or ("sweden", "finland") in window.scene.borders
    assert page.model.rowCount() == 3
    page.view.select_row(1)
    assert page.revert_selected()
    assert "lapland" not in window.scene.spaces
    page.view.doubleClicked.emit(page.view.model().index(0, 0))
    assert [i.space_id for i in window.scene.selectedItems()] == ["finland"]


# -- the scenario a variant extends is found as the loader finds it ------------------------------------
CORE = Path(__file__).resolve().parent / "fixtures" / "core"


@pytest.mark.parametrize("fixture, code, file, line", [
    ("var001-missing-parent", "VAR001", "var001-missing-parent/scenario.yaml", 4),
    # the cycle a -> b -> a, told at the `extends` of the scenario open in the editor
    ("var002-cycle-a", "VAR002", "var002-cycle-a/scenario.yaml", 4),
])
def test_the_problems_say_why_the_extended_scenario_was_not_read(open_editor, tmp_path, fixture,
                                                                 code, file, line):
    """What `sandtable validate` says of these fixtures (tests/test_core_diagnostics.py), the
    Problems panel says too: without it the tables show up empty for no reason given."""
    shutil.copytree(CORE, tmp_path / "core")
    main = open_editor(tmp_path / "core" / fixture)
    assert main.validator.wait()
    found = [(d.code, Path(d.file).relative_to(tmp_path / "core").as_posix(), d.line)
             for d in main.problems_model.diagnostics if d.code.startswith("VAR")]
    assert found == [(code, file, line)]


def test_a_variant_never_reads_a_scenario_outside_the_folder_of_scenarios(open_editor, tmp_path):
    """`extends: ../../elsewhere` leads out of the folder the scenarios are in: the loader
    refuses it (VAR004), and so does the editor, even where a scenario is there to read."""
    shutil.copytree(NORTHERN_FRONT, tmp_path / "elsewhere")
    variant = tmp_path / "scenarios" / "variant"
    variant.mkdir(parents=True)
    (variant / "scenario.yaml").write_text(VARIANT.replace("../northern-front", "../../elsewhere"),
                                           encoding="utf-8")
    main = open_editor(variant)
    assert not main.document.is_variant
    assert main.validator.wait()
    assert [(d.code, d.line) for d in main.problems_model.diagnostics if d.code.startswith("VAR")] \
        == [("VAR004", 5)]


def test_a_variant_opened_without_its_parent_says_so_first(open_editor, tmp_path):
    """aa50-1942 copied without aa50-1941: hundreds of errors follow from the missing parent
    (required keys, unknown spaces), and the Problems list starts with the one that explains
    them all."""
    scenarios = Path(__file__).resolve().parent.parent / "scenarios"
    shutil.copytree(scenarios / "aa50-1942", tmp_path / "scenarios" / "aa50-1942")
    main = open_editor(tmp_path / "scenarios" / "aa50-1942")
    assert main.validator.wait()
    first = main.problems_model.diagnostics[0]
    assert (first.code, Path(first.file).name, first.line) == ("VAR001", "scenario.yaml", 5)
    assert len(main.problems_model.diagnostics) > 100
