"""XLIFF 1.2 export and import: the same model as PO, read without entities."""
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sandtable.i18n import ExchangeError, export_xliff, plan_import, read_xliff, write_import
from sandtable.scenario import load_scenario
from sandtable.texts import fingerprint
from sandtable.yamlsource import read_yaml_file

FIXTURES = Path(__file__).parent / "fixtures" / "i18n"
FILES = FIXTURES / "files"
NS = {"x": "urn:oasis:names:tc:xliff:document:1.2"}


@pytest.fixture
def tiny(tmp_path) -> Path:
    shutil.copytree(FIXTURES / "tiny", tmp_path / "tiny")
    return tmp_path / "tiny"


def unit(root, key):
    return root.find(f".//x:trans-unit[@id='{key}']", NS)


def test_export_marks_states_and_gives_the_previous_source_of_a_stale_unit(tiny):
    root = ET.fromstring(export_xliff(load_scenario(tiny), "zh-Hans").encode("utf-8"))
    file = root.find("x:file", NS)
    assert (file.get("source-language"), file.get("target-language")) == ("en", "zh-Hans")
    norway = unit(root, "spaces.norway.name")
    assert norway.find("x:target", NS).get("state") == "translated"
    assert norway.find("x:note", NS).text == "map.yaml:3: name of space norway"
    finland = unit(root, "spaces.finland.name")
    assert finland.find("x:target", NS).get("state") == "needs-review-translation"
    assert finland.find("x:alt-trans/x:source", NS).text == "Finland (1941)"
    assert finland.find("x:note[@from='translator']", NS).text == "Keep the year in brackets."
    assert unit(root, "spaces.karelia-ssr.name").find("x:target", NS) is None
    assert unit(root, "spaces.leningrad.name") is None


def test_export_edit_import_round_trips(tiny, tmp_path):
    scenario = load_scenario(tiny)
    exported = export_xliff(scenario, "zh-Hans")
    path = tmp_path / "zh.xlf"
    path.write_text(exported, encoding="utf-8")
    tag, incoming = read_xliff(path)
    untouched = plan_import(scenario, tag, incoming, path)
    assert untouched.changes == [] and untouched.diagnostics == [] and untouched.unchanged == 3

    karelia = '<trans-unit id="spaces.karelia-ssr.name" resname="spaces.karelia-ssr.name" xml:space="preserve"'
    assert karelia + ">" in exported
    edited = exported.replace(karelia + ">", karelia + ' approved="yes">').replace(
        "<source>Karelia S.S.R.</source>",
        '<source>Karelia S.S.R.</source>\n        <target state="translated">卡累利阿</target>')
    path.write_text(edited, encoding="utf-8")
    tag, incoming = read_xliff(path)
    result = plan_import(scenario, tag, incoming, path)
    write_import(scenario, result)
    assert [(c.key, c.after) for c in result.changes] == [("spaces.karelia-ssr.name", "卡累利阿")]
    saved = read_yaml_file(tiny / "locales" / "zh-Hans.yaml").data["entries"]
    assert saved["spaces.karelia-ssr.name"] == {
        "text": "卡累利阿", "source": fingerprint("Karelia S.S.R."), "source_text": "Karelia S.S.R."}
    assert export_xliff(load_scenario(tiny), "zh-Hans") == edited


def test_a_broken_placeholder_and_an_unknown_id_are_reported_at_their_elements(tiny):
    path = FILES / "placeholder.xlf"
    tag, incoming = read_xliff(path)
    assert tag == "zh-Hans"
    result = plan_import(load_scenario(tiny), tag, incoming, path)
    found = [(d.code, d.file, d.line, d.column) for d in result.diagnostics]
    assert found == [("I18N002", path, 7, 9), ("I18N001", path, 9, 7)]
    assert "missing {count}; unknown {cnt}" in result.diagnostics[0].message


def test_an_entity_declaration_is_refused_so_no_entity_is_ever_read():
    with pytest.raises(ExchangeError, match=r"external-entity.xlf:2:17: .*declarations inside a document are refused"):
        read_xliff(FILES / "external-entity.xlf")


def test_not_well_formed_xml_says_where(tmp_path):
    path = tmp_path / "broken.xlf"
    path.write_text('<xliff version="1.2">\n  <file>\n</xliff>\n', encoding="utf-8")
    with pytest.raises(ExchangeError, match=r"broken.xlf:3:3: malformed XML: mismatched tag"):
        read_xliff(path)
