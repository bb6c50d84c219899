"""Translators' files through the tools that read and convert them: GNU gettext's msgfmt, polib,
the XLIFF 1.2 strict schema, and translate-toolkit's po2xliff and xliff2po (as Weblate runs them).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import polib
import pytest

from sandtable.cli import main
from sandtable.i18n import export_po, export_xliff, plan_import, read_po, read_xliff
from sandtable.i18n.plural_forms import PLURAL_FORMS
from sandtable.i18n.tags import matching_locale
from sandtable.scenario import find_scenarios, load_scenario
from sandtable.texts import catalog, fingerprint
from sandtable.yamlsource import read_yaml_file

from helpers import REPO

FIXTURES = Path(__file__).parent / "fixtures" / "i18n"
STANDARDS = REPO.parent / "shared" / "reference" / "standards"
BUNDLED = find_scenarios(REPO / "scenarios")


@pytest.fixture
def tiny(tmp_path) -> Path:
    shutil.copytree(FIXTURES / "tiny", tmp_path / "tiny")
    return tmp_path / "tiny"


@cache
def loaded(folder: Path):
    """A bundled scenario, loaded once for the whole module (the exports only read it)."""
    return load_scenario(folder)


def exports():
    """(scenario, locale) for every bundled locale, and one locale that has no file yet."""
    for folder in BUNDLED:
        for tag in loaded(folder).locale_tags + ["de"]:
            yield loaded(folder), tag


def stale_copy(tmp_path) -> Path:
    """The bundled War at Sea with one English source text changed, so its translations are stale."""
    folder = tmp_path / "war-at-sea"
    shutil.copytree(REPO / "scenarios" / "war-at-sea", folder)
    manifest = folder / "scenario.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("name: War at Sea", "name: War at Sea!", 1),
                        encoding="utf-8")
    return folder


# -- PO: GNU gettext and polib --------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext (msgfmt) is not installed")
def test_every_po_export_passes_msgfmt_check_without_a_warning(tmp_path):
    cases = list(exports()) + [(load_scenario(stale_copy(tmp_path)), "zh-Hans")]
    for number, (scenario, tag) in enumerate(cases):
        path = tmp_path / f"{number}.po"
        path.write_text(export_po(scenario, tag), encoding="utf-8")
        done = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert (done.returncode, done.stderr) == (0, ""), f"{scenario.id} {tag}"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext (msgfmt) is not installed")
def test_every_pinned_plural_rule_passes_msgfmt_check(tiny, tmp_path):
    # msgfmt -c parses the expression and checks it never gives a form beyond nplurals.
    refused = []
    for language in PLURAL_FORMS:
        path = tmp_path / f"{language}.po"
        path.write_text(export_po(load_scenario(tiny), language.replace("_", "-")), encoding="utf-8")
        done = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        if (done.returncode, done.stderr) != (0, ""):
            refused.append((language, done.stderr))
    assert not refused
    assert len(PLURAL_FORMS) > 200


def test_every_po_export_reads_back_with_polib_entry_for_entry():
    for scenario, tag in exports():
        po = polib.pofile(export_po(scenario, tag))
        assert [entry.msgctxt for entry in po] == list(catalog(scenario)), f"{scenario.id} {tag}"
        assert po.percent_translated() == (0 if tag == "de" else 100)


def test_the_po_header_has_every_field_gettext_expects(tiny, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    metadata = polib.pofile(export_po(load_scenario(tiny), "zh-Hans")).metadata
    assert {key: metadata[key] for key in ("POT-Creation-Date", "PO-Revision-Date", "Last-Translator",
                                           "Language-Team", "Language", "Report-Msgid-Bugs-To")} == {
        "POT-Creation-Date": "2023-11-14 22:13+0000", "PO-Revision-Date": "2023-11-14 22:13+0000",
        "Last-Translator": "", "Language-Team": "Chinese (Simplified)", "Language": "zh_Hans",
        "Report-Msgid-Bugs-To": ""}


def test_a_stale_entry_gives_its_previous_context_and_source(tmp_path):
    po = polib.pofile(export_po(load_scenario(stale_copy(tmp_path)), "zh-Hans"))
    [stale] = [entry for entry in po if entry.fuzzy]
    assert (stale.msgctxt, stale.msgid) == ("scenario.name", "War at Sea!")
    assert (stale.previous_msgctxt, stale.previous_msgid) == ("scenario.name", "War at Sea")


# -- XLIFF: the strict schema --------------------------------------------------------------------

@pytest.mark.skipif(not STANDARDS.is_dir(), reason=f"{STANDARDS} is absent")
def test_every_xliff_export_is_valid_against_the_xliff_1_2_strict_schema(tmp_path):
    etree = pytest.importorskip("lxml.etree")
    schema = etree.XMLSchema(etree.parse(str(STANDARDS / "xliff-core-1.2-strict.xsd")))
    for scenario, tag in list(exports()) + [(load_scenario(stale_copy(tmp_path)), "zh-Hans")]:
        document = etree.fromstring(export_xliff(scenario, tag).encode("utf-8"))
        assert schema.validate(document), f"{scenario.id} {tag}: {schema.error_log}"


# -- the bundled translations --------------------------------------------------------------------

def test_every_bundled_translation_records_the_source_text_it_translates():
    for folder in BUNDLED:
        texts = catalog(loaded(folder))
        for path in sorted((folder / "locales").glob("*.yaml")):
            for key, entry in read_yaml_file(path).data["entries"].items():
                assert entry.get("source_text") == texts[key].text, f"{path} {key}"
                assert entry["source"] == fingerprint(entry["source_text"]), f"{path} {key}"


def test_gj69_sea_transport_cards_cite_rule_7_5_in_every_language():
    scenario = loaded(REPO / "scenarios" / "gj69-southern-operation")
    texts = catalog(scenario)
    for key in ("decks.japan.cards.j14.text", "decks.japan.cards.j15.text", "decks.allies.cards.a15.text"):
        assert texts[key].text.endswith("(see 7.5).")  # the English, as §7.5 (海上运输) is the rule
        assert scenario.locale("zh-Hans")["entries"][key]["text"].endswith("（参考 7.5）")
        assert scenario.locale("ja")["entries"][key]["text"].endswith("（7.5参照）。")


# -- which locale a file means -------------------------------------------------------------------

@pytest.mark.parametrize("tag, existing, expected", [
    ("zh-CN", ["zh-Hans", "ja"], "zh-Hans"),  # Crowdin, Poedit's "Chinese (China)"
    ("zh-TW", ["zh-Hans", "zh-Hant"], "zh-Hant"),
    ("zh-CN", ["zh", "zh-Hans"], "zh-Hans"),  # the more specific of two that fit
    ("zh-TW", ["zh", "zh-Hans"], None),  # Traditional script: a locale of its own
    ("pt-BR", ["pt"], "pt"),
    ("pt-BR", ["pt-PT"], None),
    ("ja-JP", ["ja"], "ja"),
    ("ja", ["ja"], "ja"),
])
def test_likely_subtags_map_a_files_language_to_the_scenarios_locale(tag, existing, expected):
    assert matching_locale(tag, existing) == expected


def test_a_po_for_zh_CN_goes_into_the_existing_zh_Hans_locale_and_says_so(tiny, tmp_path, capsys):
    po = polib.pofile(export_po(load_scenario(tiny), "zh-Hans"))
    po.metadata["Language"] = "zh_CN"
    po.find("Karelia S.S.R.").msgstr = "卡累利阿"
    po.save(str(tmp_path / "crowdin.po"))
    assert main(["i18n", "import", str(tiny), str(tmp_path / "crowdin.po")]) == 0
    out = capsys.readouterr().out
    assert f"note: {tmp_path / 'crowdin.po'} is for zh-CN, taken as zh-Hans" in out
    assert "zh-Hans: 1 added" in out
    assert sorted(p.name for p in (tiny / "locales").iterdir()) == ["zh-Hans.yaml", "zh.yaml"]


# -- nothing is dropped without a word -----------------------------------------------------------

def test_cleared_obsolete_and_needs_translation_entries_are_each_reported(tiny, tmp_path):
    scenario = load_scenario(tiny)
    po = polib.pofile(export_po(scenario, "zh-Hans"))
    po.find("Norway").msgstr = ""  # cleared in the editor
    po.append(polib.POEntry(msgctxt="spaces.norway.name", msgid="Norway", msgstr="挪威王国", obsolete=True))
    po.save(str(tmp_path / "edited.po"))
    declared, incoming = read_po(tmp_path / "edited.po")
    result = plan_import(scenario, declared, incoming, tmp_path / "edited.po")
    text = (tmp_path / "edited.po").read_text(encoding="utf-8").splitlines()
    found = [(d.code, d.severity.value, text[d.line - 1]) for d in result.diagnostics]
    assert found == [("I18N009", "warning", 'msgstr ""'), ("I18N010", "info", '#~ msgctxt "spaces.norway.name"')]
    assert "the locale's '挪威' was kept" in result.diagnostics[0].message
    assert result.changes == []

    xliff = export_xliff(scenario, "zh-Hans").replace(
        '<source>Karelia S.S.R.</source>',
        '<source>Karelia S.S.R.</source>\n        <target state="needs-translation">卡累利阿</target>')
    (tmp_path / "edited.xlf").write_text(xliff, encoding="utf-8")
    declared, incoming = read_xliff(tmp_path / "edited.xlf")
    result = plan_import(scenario, declared, incoming, tmp_path / "edited.xlf")
    [problem] = result.diagnostics
    assert (problem.code, problem.severity.value) == ("I18N008", "warning")
    assert "'spaces.karelia-ssr.name' is marked needs-translation" in problem.message
    assert xliff.splitlines()[problem.line - 1].strip() == '<target state="needs-translation">卡累利阿</target>'


# -- translate-toolkit's converters --------------------------------------------------------------

def convert(tool: str, source: Path, target: Path) -> None:
    pytest.importorskip("translate", reason="translate-toolkit is not installed")
    runner = f"import sys; from translate.convert.{tool} import main; sys.exit(main())"
    subprocess.run([sys.executable, "-c", runner, str(source), str(target)], check=True, capture_output=True)


def test_po2xliff_output_imports_matched_by_source_text_and_place(tiny, tmp_path, capsys):
    po = polib.pofile(export_po(load_scenario(tiny), "zh-Hans"))
    po.find("Karelia S.S.R.").msgstr = "卡累利阿"
    po.find("Allies").msgstr = "同盟国"
    po.find("Finland").msgstr = "芬兰（新）"  # still fuzzy: po2xliff writes it needs-translation
    po.save(str(tmp_path / "zh.po"))
    convert("po2xliff", tmp_path / "zh.po", tmp_path / "zh.xlf")
    assert 'version="1.1"' in (tmp_path / "zh.xlf").read_text(encoding="utf-8")
    assert main(["i18n", "import", str(tiny), str(tmp_path / "zh.xlf")]) == 0
    out = capsys.readouterr().out
    assert "note: 7 entries name no text key" in out
    assert "warning I18N008: 'spaces.finland.name' is marked needs-translation" in out
    assert "zh-Hans: 2 added, 0 updated, 2 unchanged, 2 untranslated, 0 refused" in out
    entries = read_yaml_file(tiny / "locales" / "zh-Hans.yaml").data["entries"]
    assert entries["spaces.karelia-ssr.name"]["text"] == "卡累利阿"
    assert entries["scenario.sides.allies.name"]["text"] == "同盟国"
    assert entries["spaces.finland.name"]["text"] == "芬兰（1941）"


def test_xliff2po_output_without_a_language_or_keys_imports_into_the_locale_it_came_from(tiny, tmp_path, capsys):
    karelia = '<trans-unit id="spaces.karelia-ssr.name" resname="spaces.karelia-ssr.name" xml:space="preserve"'
    xliff = export_xliff(load_scenario(tiny), "zh-Hans").replace(karelia, karelia + ' approved="yes"').replace(
        "<source>Karelia S.S.R.</source>",
        '<source>Karelia S.S.R.</source>\n        <target state="translated">卡累利阿</target>')
    (tmp_path / "zh.xlf").write_text(xliff, encoding="utf-8")
    convert("xliff2po", tmp_path / "zh.xlf", tmp_path / "zh.po")  # keeps approval, drops ids and language
    converted = polib.pofile(str(tmp_path / "zh.po"))
    assert "Language" not in converted.metadata and not any(entry.msgctxt for entry in converted)
    assert main(["i18n", "import", str(tiny), str(tmp_path / "zh.po")]) == 0
    out = capsys.readouterr().out
    assert "does not say its language; taken as zh-Hans, whose translations 3 of its 4 translated" in out
    assert "note: 7 entries name no text key" in out
    assert "zh-Hans: 1 added, 0 updated, 3 unchanged, 3 untranslated, 0 refused" in out
    entries = read_yaml_file(tiny / "locales" / "zh-Hans.yaml").data["entries"]
    assert entries["spaces.karelia-ssr.name"] == {
        "text": "卡累利阿", "source": fingerprint("Karelia S.S.R."), "source_text": "Karelia S.S.R."}
