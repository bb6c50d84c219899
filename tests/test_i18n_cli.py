"""`sandtable i18n status | export | import | show`: output and exit codes."""
import json
import os
import shutil
from pathlib import Path

import polib
import pytest

from sandtable.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "i18n"
FILES = FIXTURES / "files"


@pytest.fixture
def tiny(tmp_path) -> Path:
    shutil.copytree(FIXTURES / "tiny", tmp_path / "tiny")
    return tmp_path / "tiny"


def test_status_text_shows_counts_and_fails_on_stale_or_unknown_entries(capsys):
    assert main(["i18n", "status", str(FIXTURES / "tiny")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("tiny (") and out[0].endswith("): 7 texts, source language en")
    assert out[1].split() == ["locale", "translated", "missing", "stale", "unknown", "done"]
    assert out[2].split() == ["zh", "2", "5", "0", "0", "28.6%"]
    assert out[3].split() == ["zh-Hans", "2", "4", "1", "1", "28.6%"]


def test_status_lists_keys_on_request(capsys):
    main(["i18n", "status", str(FIXTURES / "tiny"), "--list"])
    out = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert ["zh-Hans", "stale", "spaces.finland.name"] in out
    assert ["zh-Hans", "unknown", "spaces.leningrad.name"] in out
    assert ["zh-Hans", "missing", "spaces.karelia-ssr.name"] in out


def test_status_json_for_every_scenario_below_a_folder(capsys):
    assert main(["i18n", "status", str(FIXTURES), "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert [s["id"] for s in document["scenarios"]] == ["tiny", "tiny-variant"]
    variant = document["scenarios"][1]
    assert variant["texts"] == 8
    zh_hans = variant["locales"][1]
    assert {k: zh_hans[k] for k in ("locale", "translated", "missing", "stale", "unknown",
                                    "broken_placeholders", "percent")} == {
        "locale": "zh-Hans", "translated": 2, "missing": 4, "stale": 2, "unknown": 0,
        "broken_placeholders": 0, "percent": 25.0}
    assert zh_hans["keys"]["stale"] == ["scenario.name", "spaces.finland.name"]
    # the unknown key is in the parent's file: the parent's status counts it, not the variant's
    assert document["scenarios"][0]["locales"][1]["unknown"] == 1


def test_status_of_a_complete_translation_passes(tmp_path, capsys):
    folder = tmp_path / "one"
    (folder / "locales").mkdir(parents=True)
    (folder / "scenario.yaml").write_text("id: one\nname: One\nsystem: aa50\n", encoding="utf-8")
    (folder / "locales" / "ja.yaml").write_text(
        "locale: ja\nentries:\n  scenario.name: {text: ひとつ}\n", encoding="utf-8")
    assert main(["i18n", "status", str(folder)]) == 0
    assert capsys.readouterr().out.splitlines()[2].split() == ["ja", "1", "0", "0", "0", "100.0%"]


def test_export_to_a_file_and_import_it_back(tiny, tmp_path, capsys):
    po_path = tmp_path / "zh-Hans.po"
    assert main(["i18n", "export", str(tiny), "--locale", "zh-Hans", "--format", "po",
                 "-o", str(po_path)]) == 0
    assert "wrote" in capsys.readouterr().err
    po = polib.pofile(str(po_path))
    po.find("Karelia S.S.R.").msgstr = "卡累利阿"
    po.save(str(po_path))
    assert main(["i18n", "import", str(tiny), str(po_path), "--dry-run"]) == 0
    assert "卡累利阿" not in (tiny / "locales" / "zh-Hans.yaml").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["i18n", "import", str(tiny), str(po_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["  added spaces.karelia-ssr.name",
                   f"zh-Hans: 1 added, 0 updated, 3 unchanged, 3 untranslated, 0 refused; changed "
                   f"{os.path.relpath(tiny / 'locales' / 'zh-Hans.yaml')}"]
    assert "卡累利阿" in (tiny / "locales" / "zh-Hans.yaml").read_text(encoding="utf-8")


def test_import_reports_refused_entries_with_their_line_and_exits_1(tiny, capsys):
    assert main(["i18n", "import", str(tiny), str(FILES / "missing-placeholder.po")]) == 1
    out = capsys.readouterr().out
    assert ":9:1: error I18N002: the translation of 'scenario.description' does not keep the " \
           "source's placeholders (missing {count})" in out


def test_xliff_import_is_recognised_by_its_extension(tiny, capsys):
    assert main(["i18n", "import", str(tiny), str(FILES / "placeholder.xlf")]) == 1
    out = capsys.readouterr().out
    assert ":7:9: error I18N002" in out and ":9:7: error I18N001" in out


@pytest.mark.parametrize("argv, message", [
    (["export", "{tiny}", "--locale", "en"], "en is the source language of tiny"),
    (["export", "{tiny}", "--locale", "zh_Hans"], "'zh_Hans' is not a locale tag"),
    (["import", "{tiny}", "{files}/nothing.po"], "no such file"),
    (["import", "{tiny}", "{files}/missing-placeholder.po", "--locale", "ja"],
     "is for zh-Hans, not ja"),
    (["show", "{tiny}", "--locale", "zh", "--key", "spaces.leningrad.name"], "not a text of tiny"),
])
def test_usage_and_file_errors_exit_2(tiny, capsys, argv, message):
    argv = [a.format(tiny=tiny, files=FILES) for a in argv]
    assert main(["i18n", *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_hostile_xliff_file_is_malformed_input_exit_1_with_its_place(tiny, capsys):
    assert main(["i18n", "import", str(tiny), str(FILES / "external-entity.xlf")]) == 1
    err = capsys.readouterr().err
    assert "external-entity.xlf:2:17: error I18N012: malformed XLIFF file: the document type " \
           "declaration of <xliff> has an internal subset" in err


def test_show_prints_the_text_and_the_locale_it_falls_back_to(capsys):
    assert main(["i18n", "show", str(FIXTURES / "tiny"), "--locale", "zh-Hant",
                 "--key", "spaces.karelia-ssr.name", "--key", "scenario.name"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "spaces.karelia-ssr.name\tzh\t卡累利阿", "scenario.name\ten\tTiny Front"]


def test_status_reports_a_locale_file_it_cannot_read(tmp_path, capsys):
    folder = tmp_path / "one"
    (folder / "locales").mkdir(parents=True)
    (folder / "scenario.yaml").write_text("id: one\nname: One\nsystem: aa50\n", encoding="utf-8")
    (folder / "locales" / "ja.yaml").write_text("locale: ja\nentries: {\n", encoding="utf-8")
    assert main(["i18n", "status", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "no translations yet" in out
    assert "locales/ja.yaml:3:1: error YAML001" in out
