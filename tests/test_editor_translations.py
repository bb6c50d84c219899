"""The Translations tab as translators know it from Poedit: columns that share the width, the
whole source and a translation editor below, the context of each text, Ctrl+Down to the next text
with work left, a mark for review, a check of placeholders and line breaks; driven by keys, and
what was typed reaches the PO file a translator exports."""
from __future__ import annotations

from pathlib import Path

import polib
import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402

from sandtable.i18n import translation_units  # noqa: E402
from sandtable.i18n.po import export_po  # noqa: E402
from sandtable.i18n.translator import Translator  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402


@pytest.fixture
def window(open_editor, workshop):
    main = open_editor(workshop, size=(1400, 900))
    main.tabs.setCurrentWidget(main.translation_panel)
    main.translation_panel.show_locale("zh-Hans")
    return main


def po_entries(folder: Path, tag: str) -> dict[str, polib.POEntry]:
    return {entry.msgctxt: entry for entry in polib.pofile(export_po(load_scenario(folder), tag))}


def test_source_and_translation_share_the_width(window):
    view = window.translation_panel.view
    header = view.horizontalHeader()
    key, source, translation, status = (header.sectionSize(c) for c in range(4))
    assert source == pytest.approx(translation, abs=2)
    assert key + source + translation + status == pytest.approx(view.viewport().width(), abs=2)
    assert source > 2 * status and source >= 250


def test_ctrl_down_type_return_save_and_the_po_export_has_it(qtbot, window, workshop):
    panel = window.translation_panel
    model = panel.model
    panel.view.setFocus()   # the first text is the current one: Ctrl+Down goes to the next one with work left
    assert panel.chosen_row() == 0 and model.rows[0][0] == "scenario.name"
    qtbot.keyClick(panel.view, Qt.Key_Down, Qt.ControlModifier)
    description = panel.chosen_row()
    assert model.rows[description][0] == "scenario.description" and model.rows[description][3] == "missing"
    assert panel.source_text.toPlainText() == (
        "A small teaching slice of the 1941 board, from Norway to Moscow, for trying the tools.")
    assert panel.context.text() == "description of the scenario"
    assert panel.where.text() == "scenario.yaml, line 6"
    assert panel.translation.hasFocus()
    qtbot.keyClicks(panel.translation, "Yijiusiyi nian qipan de yi xiao kuai")
    qtbot.keyClick(panel.translation, Qt.Key_Return)
    entry = window.document.own("locale:zh-Hans")["entries"]["scenario.description"]
    assert entry["text"] == "Yijiusiyi nian qipan de yi xiao kuai"
    assert entry["source_text"] == model.rows[description][1]
    # Return went on to the next text with work left.
    following = panel.chosen_row()
    assert following > description and model.rows[following][3] == "missing"
    assert model.rows[following][0] == "scenario.sides.axis.name"
    qtbot.keyClick(panel.translation, Qt.Key_S, Qt.ControlModifier)
    assert not window.document.is_dirty()
    assert po_entries(workshop, "zh-Hans")["scenario.description"].msgstr == "Yijiusiyi nian qipan de yi xiao kuai"
    # Ctrl+Up goes back to the one with work left before the chosen: the name, still missing.
    qtbot.keyClick(panel.translation, Qt.Key_Up, Qt.ControlModifier)
    assert model.rows[panel.chosen_row()][0] == "scenario.name"


def test_a_translation_of_several_lines_and_its_checks(qtbot, window):
    panel = window.translation_panel
    row = panel.model.row_of_key("scenario.description")
    panel.view.select_row(row, 2)
    panel.translation.setFocus()
    # (QTest types ASCII only: the translations typed here are in pinyin.)
    qtbot.keyClicks(panel.translation, "di yi hang")
    qtbot.keyClick(panel.translation, Qt.Key_Return, Qt.ShiftModifier)   # a new line, not stored yet
    qtbot.keyClicks(panel.translation, "di er hang {count}")
    assert "scenario.description" not in window.document.own("locale:zh-Hans")["entries"]
    assert panel.check.text() == ("The translation has placeholder(s) the source has not: {count}; "
                                  "has 1 line break(s), the source 0")
    qtbot.keyClick(panel.translation, Qt.Key_Return)
    assert window.document.own("locale:zh-Hans")["entries"]["scenario.description"]["text"] == \
        "di yi hang\ndi er hang {count}"


def test_marked_for_review_it_is_fuzzy_and_not_shown_to_players(qtbot, window, workshop):
    panel = window.translation_panel
    row = panel.model.row_of_key("spaces.norway.name")
    panel.view.select_row(row, 2)
    assert panel.translation.toPlainText() == "挪威" and panel.review.isEnabled()
    qtbot.mouseClick(panel.review, Qt.LeftButton)
    assert window.document.own("locale:zh-Hans")["entries"]["spaces.norway.name"]["review"] is True
    assert panel.model.rows[panel.model.row_of_key("spaces.norway.name")][3] == "review"
    assert window.save()
    assert "fuzzy" in po_entries(workshop, "zh-Hans")["spaces.norway.name"].flags
    scenario = load_scenario(workshop)
    assert Translator(scenario, "zh-Hans").text("spaces.norway.name") == "Norway"   # as gettext skips fuzzy
    assert [u.needs_review for u in translation_units(scenario, "zh-Hans") if u.key == "spaces.norway.name"] == [True]
    # Editing the translation is reviewing it: the mark goes.
    panel.view.select_row(panel.model.row_of_key("spaces.norway.name"), 2)
    panel.translation.setFocus()
    panel.translation.selectAll()
    qtbot.keyClicks(panel.translation, "Nuowei wangguo")
    qtbot.keyClick(panel.translation, Qt.Key_Return)
    assert window.document.own("locale:zh-Hans")["entries"]["spaces.norway.name"] == {
        "text": "Nuowei wangguo", "source": "bea54a3497", "source_text": "Norway"}


def test_the_context_shows_where_a_space_is_on_the_map(qtbot, window):
    panel = window.translation_panel
    panel.view.select_row(panel.model.row_of_key("spaces.finland.name"), 2)
    assert panel.context.text() == "name of space finland" and panel.where.text() == "map.yaml, line 4"
    qtbot.mouseClick(panel.show_button, Qt.LeftButton)
    assert window.tabs.currentIndex() == 0 and window.scene.spaces["finland"].isSelected()
