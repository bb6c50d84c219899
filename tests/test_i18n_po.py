"""PO export and import: round trips, stale entries, refused entries with their lines."""
import shutil
from pathlib import Path

import polib
import pytest

from sandtable.i18n import State, export_po, locale_status, plan_import, read_po, write_import
from sandtable.scenario import load_scenario
from sandtable.schemas import MODELINE, SCHEMA_DIR
from sandtable.texts import fingerprint
from sandtable.yamlsource import read_yaml_file

FIXTURES = Path(__file__).parent / "fixtures" / "i18n"
FILES = FIXTURES / "files"


@pytest.fixture
def tiny(tmp_path) -> Path:
    shutil.copytree(FIXTURES / "tiny", tmp_path / "tiny")
    return tmp_path / "tiny"


def import_file(folder: Path, po: Path, tag: str = "zh-Hans"):
    scenario = load_scenario(folder)
    declared, incoming = read_po(po)
    result = plan_import(scenario, declared or tag, incoming, po)
    write_import(scenario, result)
    return result


def entries(folder: Path, tag: str = "zh-Hans") -> dict:
    return read_yaml_file(folder / "locales" / f"{tag}.yaml").data["entries"]


def test_export_writes_context_source_translation_and_where_the_text_is(tiny):
    po = polib.pofile(export_po(load_scenario(tiny), "zh-Hans"))
    norway = po.find("Norway", msgctxt="spaces.norway.name")
    assert norway.msgstr == "挪威"
    assert norway.comment == "map.yaml:3: name of space norway"
    assert norway.occurrences == [("map.yaml", "3")]
    assert not norway.fuzzy
    description = po.find("Hold {count} victory cities for one round.", msgctxt="scenario.description")
    assert description.msgstr == ""
    assert "python-brace-format" in description.flags
    assert [e.msgctxt for e in po] == [
        "scenario.name", "scenario.description", "scenario.sides.axis.name",
        "scenario.sides.allies.name", "spaces.norway.name", "spaces.finland.name",
        "spaces.karelia-ssr.name"]  # the unknown spaces.leningrad.name has nothing to translate


def test_export_edit_import_round_trips_exactly(tiny, tmp_path):
    locale_before = (tiny / "locales" / "zh-Hans.yaml").read_text(encoding="utf-8")
    exported = tmp_path / "zh-Hans.po"
    exported.write_text(export_po(load_scenario(tiny), "zh-Hans"), encoding="utf-8")

    # Importing what was just exported changes nothing, byte for byte.
    unchanged = import_file(tiny, exported)
    assert unchanged.changes == [] and unchanged.diagnostics == []
    assert (tiny / "locales" / "zh-Hans.yaml").read_text(encoding="utf-8") == locale_before

    po = polib.pofile(str(exported))
    po.find("Hold {count} victory cities for one round.").msgstr = "坚守{count}座胜利城市一轮。"
    karelia = po.find("Karelia S.S.R.")
    karelia.msgstr = "卡累利阿"
    karelia.tcomment = "The Soviet republic, not the region."
    po.find("Norway").msgstr = "挪威（本土）"
    po.save(str(exported))
    edited = exported.read_text(encoding="utf-8")

    result = import_file(tiny, exported)
    assert [(c.key, c.before, c.after) for c in result.changes] == [
        ("scenario.description", None, "坚守{count}座胜利城市一轮。"),
        ("spaces.norway.name", "挪威", "挪威（本土）"),
        ("spaces.karelia-ssr.name", None, "卡累利阿")]
    assert result.unchanged == 2  # scenario.name and the fuzzy finland entry are as they were
    saved = entries(tiny)
    assert saved["spaces.karelia-ssr.name"] == {
        "text": "卡累利阿", "source": fingerprint("Karelia S.S.R."),
        "source_text": "Karelia S.S.R.", "note": "The Soviet republic, not the region."}
    assert saved["scenario.name"] == {"text": "小战线", "source": fingerprint("Tiny Front")}
    assert saved["spaces.leningrad.name"]["text"] == "列宁格勒"  # not in the file, left alone

    # The next export is the file the translator saved; importing it again changes nothing.
    assert export_po(load_scenario(tiny), "zh-Hans") == edited
    locale_after = (tiny / "locales" / "zh-Hans.yaml").read_text(encoding="utf-8")
    assert import_file(tiny, exported).changes == []
    assert (tiny / "locales" / "zh-Hans.yaml").read_text(encoding="utf-8") == locale_after
    assert locale_after.startswith(
        "# yaml-language-server: $schema=../../../../../schemas/locale.schema.json\n")


def test_a_changed_source_makes_the_entry_stale_and_exports_it_fuzzy(tiny, tmp_path):
    map_file = tiny / "map.yaml"
    map_file.write_text(map_file.read_text(encoding="utf-8").replace(
        "name: Norway", "name: Norway and Svalbard"), encoding="utf-8")
    scenario = load_scenario(tiny)
    assert locale_status(scenario, "zh-Hans").keys[State.STALE] == [
        "spaces.norway.name", "spaces.finland.name"]
    text = export_po(scenario, "zh-Hans")
    assert ('#. map.yaml:3: name of space norway\n#: map.yaml:3\n#, fuzzy\n'
            '#| msgctxt "spaces.norway.name"\n#| msgid "Norway"\n'
            'msgctxt "spaces.norway.name"\nmsgid "Norway and Svalbard"\nmsgstr "挪威"\n') in text
    finland = polib.pofile(text).find("Finland")
    assert finland.fuzzy and finland.previous_msgid == "Finland (1941)"
    assert finland.previous_msgctxt == "spaces.finland.name"
    assert finland.tcomment == "Keep the year in brackets."

    # The translator revises the translation and clears the fuzzy flag: it is current again.
    po = polib.pofile(text)
    entry = po.find("Norway and Svalbard")
    entry.msgstr = "挪威和斯瓦尔巴"
    entry.flags.remove("fuzzy")
    entry.previous_msgid = entry.previous_msgctxt = None
    po.save(str(tmp_path / "zh.po"))
    result = import_file(tiny, tmp_path / "zh.po")
    assert [(c.key, c.stale) for c in result.changes] == [("spaces.norway.name", False)]
    assert entries(tiny)["spaces.norway.name"]["source"] == fingerprint("Norway and Svalbard")
    assert locale_status(load_scenario(tiny), "zh-Hans").keys[State.STALE] == ["spaces.finland.name"]


def test_a_stale_translation_confirmed_unchanged_becomes_current(tiny, tmp_path):
    po = polib.pofile(export_po(load_scenario(tiny), "zh-Hans"))
    po.find("Finland").flags.remove("fuzzy")
    po.save(str(tmp_path / "zh.po"))
    result = import_file(tiny, tmp_path / "zh.po")
    assert [(c.key, c.before, c.after) for c in result.changes] == [
        ("spaces.finland.name", "芬兰（1941）", "芬兰（1941）")]
    assert entries(tiny)["spaces.finland.name"] == {
        "text": "芬兰（1941）", "source": fingerprint("Finland"), "source_text": "Finland",
        "note": "Keep the year in brackets."}


def test_a_missing_placeholder_is_reported_with_file_and_line(tiny):
    before = (tiny / "locales" / "zh-Hans.yaml").read_bytes()
    result = import_file(tiny, FILES / "missing-placeholder.po")
    [problem] = result.diagnostics
    assert (problem.code, problem.severity.value) == ("I18N002", "error")
    assert (problem.file, problem.line, problem.column) == (FILES / "missing-placeholder.po", 9, 1)
    assert "missing {count}" in problem.message
    assert result.changes == []
    assert (tiny / "locales" / "zh-Hans.yaml").read_bytes() == before


def test_an_unknown_context_is_refused_and_reported(tiny):
    result = import_file(tiny, FILES / "unknown-context.po")
    [problem] = result.diagnostics
    assert (problem.code, problem.severity.value) == ("I18N001", "error")
    assert (problem.file, problem.line, problem.column) == (FILES / "unknown-context.po", 12, 1)
    assert "'spaces.leningrad.name' is no longer a text" in problem.message
    assert result.unchanged == 1 and result.refused == 1


def test_entries_without_context_twice_fuzzy_or_plural_are_reported(tiny):
    result = import_file(tiny, FILES / "mixed.po")
    found = [(d.code, d.severity.value, d.line, d.column) for d in result.diagnostics]
    assert found == [("I18N003", "error", 6, 1), ("I18N004", "error", 13, 1),
                     ("I18N006", "warning", 20, 1), ("I18N007", "error", 22, 1)]
    assert [(c.key, c.after) for c in result.changes] == [("spaces.karelia-ssr.name", "卡累利阿")]
    assert entries(tiny)["spaces.finland.name"]["text"] == "芬兰（1941）"  # fuzzy: not taken


def test_a_translation_of_an_older_source_is_kept_as_stale(tiny):
    result = import_file(tiny, FILES / "older-source.po")
    [problem] = result.diagnostics
    assert (problem.code, problem.severity.value, problem.line) == ("I18N005", "warning", 6)
    assert entries(tiny)["spaces.karelia-ssr.name"] == {
        "text": "卡累利阿", "source": fingerprint("Karelia"), "source_text": "Karelia"}
    unit = locale_status(load_scenario(tiny), "zh-Hans")
    assert "spaces.karelia-ssr.name" in unit.keys[State.STALE]


def test_importing_into_a_variant_writes_an_override_and_leaves_the_parent(tmp_path):
    shutil.copytree(FIXTURES / "tiny", tmp_path / "tiny")
    shutil.copytree(FIXTURES / "tiny-variant", tmp_path / "tiny-variant")
    parent_locale = (tmp_path / "tiny" / "locales" / "zh-Hans.yaml").read_bytes()
    variant = tmp_path / "tiny-variant"
    po = polib.pofile(export_po(load_scenario(variant), "zh-Hans"))
    name = po.find("Tiny Front, Winter")
    assert name.fuzzy and name.previous_msgid is None  # inherited, stamped, no text recorded
    name.msgstr = "小战线：冬季"
    name.flags.remove("fuzzy")
    po.find("Karelia S.S.R.").msgstr = "卡累利阿"
    po.save(str(tmp_path / "zh.po"))
    result = import_file(variant, tmp_path / "zh.po")
    assert result.target == variant / "locales" / "zh-Hans.yaml"
    assert [c.key for c in result.changes] == ["scenario.name", "spaces.karelia-ssr.name"]
    assert (tmp_path / "tiny" / "locales" / "zh-Hans.yaml").read_bytes() == parent_locale
    assert sorted(entries(variant)) == ["scenario.name", "spaces.karelia-ssr.name",
                                        "spaces.norway.name", "spaces.sweden.name"]
    status = locale_status(load_scenario(variant), "zh-Hans")
    assert status.keys[State.STALE] == ["spaces.finland.name"]
    assert status.count(State.TRANSLATED) == 4


def test_a_new_locale_file_gets_the_schema_line(tiny, tmp_path):
    po = polib.pofile(export_po(load_scenario(tiny), "ja"))
    po.find("Norway").msgstr = "ノルウェー"
    po.save(str(tmp_path / "ja.po"))
    import_file(tiny, tmp_path / "ja.po")
    first, rest = (tiny / "locales" / "ja.yaml").read_text(encoding="utf-8").split("\n", 1)
    assert rest == ("locale: ja\n"
                    f"entries: {{spaces.norway.name: {{text: ノルウェー, source: {fingerprint('Norway')}, "
                    "source_text: Norway}}\n")
    # scenario.yaml's schema line points nowhere in this copy, so the new file's points at the
    # schemas this installation has (docs/format.md#schema-modelines)
    assert first.startswith(MODELINE)
    assert (tiny / "locales" / first[len(MODELINE):]).resolve() == SCHEMA_DIR / "locale.schema.json"


def test_a_long_note_wrapped_by_the_po_writer_comes_back_unchanged(tiny, tmp_path):
    locale = tiny / "locales" / "zh-Hans.yaml"
    long_note = ("The rules print no Chinese name for this space, so the name follows the usual "
                 "map of the period.")
    locale.write_text(locale.read_text(encoding="utf-8").replace(
        "source_text: Norway}", f"source_text: Norway, note: '{long_note}'}}"), encoding="utf-8")
    before = locale.read_bytes()
    exported = tmp_path / "zh.po"
    exported.write_text(export_po(load_scenario(tiny), "zh-Hans"), encoding="utf-8")
    assert "# The rules print no Chinese name for this space, so the name follows the\n" \
           "# usual map of the period.\n" in exported.read_text(encoding="utf-8")
    assert import_file(tiny, exported).changes == []
    assert locale.read_bytes() == before

    po = polib.pofile(str(exported))
    po.find("Norway").tcomment = "Use the modern name."
    po.save(str(exported))
    [change] = import_file(tiny, exported).changes
    assert entries(tiny)["spaces.norway.name"]["note"] == "Use the modern name."


def test_a_translation_marked_for_review_exports_fuzzy_and_an_import_without_the_mark_clears_it(tiny, tmp_path):
    path = tiny / "locales" / "zh-Hans.yaml"
    text = path.read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("  spaces.norway.name:"))
    path.write_text(text.replace(line, line.replace("}", ", review: true}")), encoding="utf-8")
    po = polib.pofile(export_po(load_scenario(tiny), "zh-Hans"))
    norway = po.find("Norway", msgctxt="spaces.norway.name")
    assert "fuzzy" in norway.flags and norway.msgstr == "挪威"
    # Reviewed in Poedit: the mark is cleared, the translation kept; the import takes the review.
    norway.flags.remove("fuzzy")
    po.save(str(tmp_path / "zh.po"))
    result = import_file(tiny, tmp_path / "zh.po")
    assert [change.key for change in result.changes] == ["spaces.norway.name"]
    assert "review" not in entries(tiny)["spaces.norway.name"]
    assert "fuzzy" not in polib.pofile(export_po(load_scenario(tiny), "zh-Hans")).find(
        "Norway", msgctxt="spaces.norway.name").flags
