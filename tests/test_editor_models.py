"""The editor's item models: Qt's model tester, and edits that land in the right file as undo steps."""
from __future__ import annotations

import gc
import shutil
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402

from editor import conditions  # noqa: E402
from editor.condition_builder import ConditionBuilder, ConditionModel  # noqa: E402
from editor.document import ScenarioDocument  # noqa: E402
from editor.models import collections  # noqa: E402
from editor.models.effects import EffectsModel  # noqa: E402
from editor.models.entity_table import CHOICES_ROLE  # noqa: E402
from editor.models.problems import ProblemsModel  # noqa: E402
from editor.models.setup_table import SetupModel  # noqa: E402
from editor.models.table_grid import TableGridModel  # noqa: E402
from editor.models.translations import TranslationModel  # noqa: E402
from sandtable.diagnostics import Location, error, warning  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
NORTHERN_FRONT = REPO / "scenarios" / "northern-front"
FIXTURE_BASE = REPO / "tests" / "fixtures" / "core" / "base"


@pytest.fixture(autouse=True)
def collect_qt_garbage():
    """Free this test's documents and models here, on the GUI thread; left to the cyclic
    collector, they could be freed on whichever thread allocates next (a validation run)."""
    yield
    gc.collect()


@pytest.fixture
def northern(qapp, tmp_path) -> ScenarioDocument:
    folder = tmp_path / "scenarios" / "northern-front"
    shutil.copytree(NORTHERN_FRONT, folder)
    return ScenarioDocument(folder)


@pytest.fixture
def base(qapp, tmp_path) -> ScenarioDocument:
    folder = tmp_path / "scenarios" / "base"
    shutil.copytree(FIXTURE_BASE, folder)
    return ScenarioDocument(folder)


def cell(model, row, column):
    return model.data(model.index(row, column), Qt.DisplayRole)


def test_entity_tables_pass_the_model_tester(qtmodeltester, northern, base):
    for model in (collections.spaces_model(northern), collections.borders_model(northern),
                  collections.units_model(northern), collections.options_model(base),
                  collections.objectives_model(base), collections.decks_model(base),
                  collections.tables_model(base),
                  collections.cards_model(base, lambda: (("decks", ("id", "red-orders")),))):
        qtmodeltester.check(model, force_py=True)


def test_spaces_table_shows_and_edits_a_space(northern):
    model = collections.spaces_model(northern)
    assert [model.headerData(c, Qt.Horizontal) for c in range(model.columnCount())] == [
        "Id", "Name", "Kind", "Value", "Original owner", "Tags", "Position"]
    row = model.row_of(("id", "russia"))
    assert [cell(model, row, c) for c in range(7)] == [
        "russia", "Russia", "land", "6", "soviet-union", "capital, victory_city", "580, 200"]
    assert model.data(model.index(row, 2), CHOICES_ROLE) == [
        "land", "sea", "port", "fortress", "square"]
    assert model.flags(model.index(row, 0)) & Qt.ItemIsEditable   # renamed with its references
    assert model.setData(model.index(row, 3), "8")
    assert northern.own("map")["spaces"][row]["value"] == 8
    assert not model.setData(model.index(row, 1), "")  # a name cannot be emptied
    assert model.setData(model.index(row, 5), "capital")
    assert northern.own("map")["spaces"][row]["tags"] == ["capital"]
    northern.undo_stack.undo()
    northern.undo_stack.undo()
    assert northern.own("map")["spaces"][row]["value"] == 6
    assert northern.own("map")["spaces"][row]["tags"] == ["capital", "victory_city"]


def test_bool_column_toggles_through_the_check_state(northern):
    model = collections.borders_model(northern)
    index = model.index(0, 2)
    assert model.data(index, Qt.CheckStateRole) == Qt.Unchecked
    assert model.setData(index, Qt.Checked.value, Qt.CheckStateRole)
    assert northern.own("map")["borders"][0]["directed"] is True


def test_setup_model_edits_counts_and_adds_stacks(qtmodeltester, northern):
    model = SetupModel(northern)
    qtmodeltester.check(model, force_py=True)
    rows = [(cell(model, r, 0), cell(model, r, 3), cell(model, r, 4)) for r in range(model.rowCount())]
    assert rows[:3] == [("norway", "infantry", "2"), ("norway", "fighter", "1"), ("finland", "infantry", "2")]
    assert model.setData(model.index(2, 4), "3")
    assert northern.own("setup")["spaces"][1]["units"] == [{"type": "infantry", "count": 3}]
    assert not model.setData(model.index(2, 4), "0")
    model.add_stack("finland", "armour", 2, "germany")
    assert northern.own("setup")["spaces"][1]["units"][-1] == {"type": "armour", "owner": "germany", "count": 2}
    model.add_stack("sweden", "infantry", 1)
    assert northern.own("setup")["spaces"][-1] == {"space": "sweden", "units": [{"type": "infantry", "count": 1}]}
    for _ in range(3):
        northern.undo_stack.undo()
    assert northern.own("setup")["spaces"][1]["units"] == [{"type": "infantry", "count": 2}]


def test_table_grid_edits_a_cell(qtmodeltester, base):
    model = TableGridModel(base, lambda: (("tables", ("id", "odds")),))
    qtmodeltester.check(model, force_py=True)
    assert (model.rowCount(), model.columnCount()) == (2, 1)
    assert [model.headerData(r, Qt.Vertical) for r in range(2)] == ["low", "high"]
    assert cell(model, 1, 0) == "hit"
    assert model.setData(model.index(1, 0), "double hit")
    assert base.own("tables")["tables"][0]["cells"] == ["miss", "double hit"]


def test_two_axis_table_is_a_grid(base):
    base.set_value("tables", ("tables", 0, "axes"), [
        {"id": "roll", "name": "Roll", "values": [1, 2]},
        {"id": "odds", "name": "Odds", "values": ["1-1", "2-1", "3-1"]}])
    base.set_value("tables", ("tables", 0, "cells"), [["AE", "AR", "EX"], ["AR", "EX", "DR"]])
    model = TableGridModel(base, lambda: (("tables", ("id", "odds")),))
    assert (model.rowCount(), model.columnCount()) == (2, 3)
    assert model.headerData(2, Qt.Horizontal) == "3-1"
    assert cell(model, 1, 2) == "DR"
    assert model.setData(model.index(0, 1), "DE")
    assert base.own("tables")["tables"][0]["cells"][0] == ["AE", "DE", "EX"]


def test_cards_and_effects(qtmodeltester, base):
    deck = (("decks", ("id", "red-orders")),)
    cards = collections.cards_model(base, lambda: deck)
    assert [cell(cards, r, 2) for r in range(2)] == ["Advance", "Hold"]
    assert cards.data(cards.index(1, 4), Qt.CheckStateRole) == Qt.Checked
    assert cards.setData(cards.index(0, 3), "3")
    assert base.own("decks")["decks"][0]["cards"][0]["count"] == 3
    card = deck + (("cards", ("id", "r1")),)
    effects = EffectsModel(base, lambda: card)
    effects.add("move")
    assert effects.setData(effects.index(0, 1), "space: red-coast, units: [infantry]")
    qtmodeltester.check(effects, force_py=True)
    assert base.own("decks")["decks"][0]["cards"][0]["effects"] == [
        {"op": "move", "space": "red-coast", "units": ["infantry"]}]
    assert cell(effects, 0, 1) == "space: red-coast, units: [infantry]"
    assert not effects.setData(effects.index(0, 1), "space: [unclosed")
    effects.remove(0)
    assert "effects" not in base.own("decks")["decks"][0]["cards"][0]


def test_problems_model_lists_errors_first(qtmodeltester, northern):
    model = ProblemsModel()
    map_file = northern.root / "map.yaml"
    model.set_diagnostics([
        warning("GRF002", "sweden is isolated", Location(map_file, 4, 3, "/spaces/2")),
        error("REF001", "unknown space 'nowhere'", Location(map_file, 0, 0, "/borders/1/between/0")),
        warning("LOC002", "2 of 9 text(s) have no ja translation",
                Location(northern.root.parent / "parent" / "locales" / "ja.yaml", 2, 1, "/entries")),
    ], northern.root)
    qtmodeltester.check(model, force_py=True)
    assert [cell(model, r, 1) for r in range(3)] == ["REF001", "GRF002", "LOC002"]
    assert cell(model, 0, 3) == "map.yaml /borders/1/between/0"
    assert cell(model, 1, 3) == "map.yaml:4:3"
    assert cell(model, 2, 3) == "parent/locales/ja.yaml:2:1"  # a parent scenario's file
    assert model.counts() == {"error": 1, "warning": 2, "info": 0}


def test_translation_model_filters_missing_and_stale(qtmodeltester, northern):
    northern.set_value("locale:ja", ("locale",), "ja")
    northern.set_value("locale:ja", ("entries",), {
        "spaces.norway.name": {"text": "ノルウェー", "source": "0000000000"},
        "spaces.russia.name": {"text": "ロシア"}})
    model = TranslationModel(northern)
    model.set_locale("ja")
    qtmodeltester.check(model, force_py=True)
    statuses = {row[0]: row[3] for row in model.rows}
    assert statuses["spaces.norway.name"] == "stale"
    assert statuses["spaces.russia.name"] == "done"
    assert statuses["spaces.finland.name"] == "missing"
    model.set_filter("stale")
    assert [row[0] for row in model.rows] == ["spaces.norway.name"]
    model.set_filter("missing")
    assert "spaces.russia.name" not in [row[0] for row in model.rows]


def test_condition_tree_edits(qtmodeltester):
    condition = {"all": [{"controls": {"owner": "redland", "spaces": ["blue-capital"]}},
                         {"not": {"turn": {"max": 2}}}]}
    model = ConditionModel()
    model.set_condition(condition)
    qtmodeltester.check(model, force_py=True)
    root = model.index(0, 0)
    assert model.rowCount(root) == 2
    assert model.data(model.index(0, 1, root)) == "owner: redland, spaces: [blue-capital]"
    assert model.data(model.index(1, 0, root)) == "not"
    added = conditions.with_child(condition, ("all", 1, "not"), {"option": "fast"})
    assert added["all"][1] == {"not": {"all": [{"turn": {"max": 2}}, {"option": "fast"}]}}
    assert conditions.removed(condition, ("all", 1, "not")) == {"all": [condition["all"][0]]}
    assert conditions.removed({"any": [{"option": "fast"}]}, ("any", 0)) is None
    assert conditions.blank("controls", {"owner": ["redland"], "spaces": ["red-coast", "isle"]}) == {
        "controls": {"owner": "redland", "spaces": ["red-coast"]}}


def test_condition_builder_edits_an_objective(qtbot, base):
    panel_model = collections.objectives_model(base)
    locator = panel_model.locator(0)
    builder = ConditionBuilder(
        lambda condition: base.set_field("objectives", locator, ("when",), condition),
        lambda name: {"owner": ["redland", "blueland"], "spaces": ["red-coast"]}.get(name, []))
    qtbot.addWidget(builder)
    builder.set_condition(base.own("objectives")["objectives"][0]["when"])
    owner = builder.field("owner")
    owner.setCurrentText("blueland")
    owner.lineEdit().editingFinished.emit()
    assert base.own("objectives")["objectives"][0]["when"] == {
        "controls": {"owner": "blueland", "spaces": ["blue-capital"]}}
    builder.set_condition(base.own("objectives")["objectives"][0]["when"])
    builder.add("turn")
    when = base.own("objectives")["objectives"][0]["when"]
    assert when == {"all": [{"controls": {"owner": "blueland", "spaces": ["blue-capital"]}}, {"turn": {}}]}
    base.undo_stack.undo()
    base.undo_stack.undo()
    assert base.own("objectives")["objectives"][0]["when"] == {
        "controls": {"owner": "redland", "spaces": ["blue-capital"]}}


def test_decks_panel_adds_and_removes_cards_and_effects(qtbot, base):
    from editor.panels import DecksPanel
    panel = DecksPanel(base)
    qtbot.addWidget(panel)
    panel.select((("decks", ("id", "red-orders")), ("cards", ("id", "r2"))))
    assert panel._card == (("decks", ("id", "red-orders")), ("cards", ("id", "r2")))
    panel.new_op.setCurrentText("draw")
    panel.add_effect()
    assert base.own("decks")["decks"][0]["cards"][1]["effects"] == [{"op": "draw"}]
    assert panel.add_card("Blitz!")
    assert base.own("decks")["decks"][0]["cards"][-1] == {"id": "blitz", "title": "Blitz!"}
    panel.card_view.select_row(2)
    panel.remove_card()
    assert [c["id"] for c in base.own("decks")["decks"][0]["cards"]] == ["r1", "r2"]
    assert [base.undo_stack.text(i) for i in range(base.undo_stack.count())] == [
        "Add effect draw", "Add card blitz", "Remove blitz"]
