"""SARIF and JUnit output, checked against the schemas the tools that read them follow.

The schemas are in ../shared/reference/standards/ (SARIF 2.1.0's JSON Schema, junit-10.xsd);
tests that need them skip where that folder is absent.
"""
from __future__ import annotations

import json
import shutil
from urllib.parse import unquote

import pytest
from jsonschema import Draft4Validator, FormatChecker

from sandtable.cli import main
from validators.codebook import codebook, heading_anchor

from helpers import FIXTURES, REPO

STANDARDS = REPO.parent / "shared" / "reference" / "standards"
needs_standards = pytest.mark.skipif(not STANDARDS.is_dir(), reason=f"{STANDARDS} is absent")
CORE = FIXTURES / "core"


def run(capsys, *args) -> tuple[int, str]:
    code = main(list(map(str, args)))
    return code, capsys.readouterr().out


@pytest.fixture
def awkward_folder(tmp_path, monkeypatch):
    """A broken scenario (an error and a warning) in a folder whose name needs percent-encoding."""
    collection = tmp_path / "my scenarios, 100% draft"
    shutil.copytree(CORE / "base", collection / "base")
    folder = collection / "broken"
    shutil.copytree(CORE / "map001-self-border", folder)
    (folder / "map.yaml").write_text(
        "spaces:\n- {id: islet, name: Islet, kind: land}\n"
        "borders:\n- {between: [islet, sea-a], kind: coast}\n- {between: [red-coast, red-coast], kind: land}\n",
        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return folder


def sarif_validator() -> Draft4Validator:
    schema = json.loads((STANDARDS / "sarif-2.1.0-rtm.5.json").read_text(encoding="utf-8"))
    return Draft4Validator(schema, format_checker=FormatChecker())  # uri-reference too


@needs_standards
def test_sarif_is_valid_sarif_2_1_0(capsys, awkward_folder):
    code, out = run(capsys, "validate", "--format", "sarif", "--docs-url",
                    "https://example.org/sandtable/docs/diagnostics.md", awkward_folder, REPO / "scenarios")
    assert code == 1
    log = json.loads(out)
    problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in sarif_validator().iter_errors(log)]
    assert problems == []


@needs_standards
def test_the_sarif_schema_catches_what_code_scanning_refuses():
    """The check above can fail: a relative helpUri and a raw space are both refused."""
    log = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "rules": [
        {"id": "A001", "helpUri": "docs/diagnostics.md#a001"}]}}, "results": [
        {"message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a b.yaml"}}}]}]}]}
    problems = sorted(e.message for e in sarif_validator().iter_errors(log))
    assert problems == ["'a b.yaml' is not a 'uri-reference'", "'docs/diagnostics.md#a001' is not a 'uri'"]


def test_sarif_paths_are_percent_encoded_and_rules_described(capsys, awkward_folder):
    _, out = run(capsys, "validate", "--format", "sarif", awkward_folder)
    run_ = json.loads(out)["runs"][0]
    [location] = {json.dumps(r["locations"][0]["physicalLocation"]["artifactLocation"]) for r in run_["results"]}
    artifact = json.loads(location)
    assert artifact == {"uri": "my%20scenarios%2C%20100%25%20draft/broken/map.yaml", "uriBaseId": "%SRCROOT%"}
    assert unquote(artifact["uri"]) == "my scenarios, 100% draft/broken/map.yaml"
    base = run_["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base.startswith("file:///") and base.endswith("/")
    rules = {rule["id"]: rule for rule in run_["tool"]["driver"]["rules"]}
    assert sorted(rules) == ["MAP001", "MAP009"]
    assert rules["MAP001"]["shortDescription"] == {"text": "A border joins a space to itself."}
    assert rules["MAP001"]["help"]["text"] == "Remove the border."
    assert rules["MAP009"]["defaultConfiguration"] == {"level": "warning"}
    assert all("helpUri" not in rule for rule in rules.values())  # no documentation address given


def test_sarif_help_links_are_absolute_and_lead_to_the_codes_section(capsys, awkward_folder, monkeypatch):
    monkeypatch.setenv("SANDTABLE_DOCS_URL", "https://example.org/docs/diagnostics.html")
    _, out = run(capsys, "validate", "--format", "sarif", awkward_folder)
    [rule, _] = json.loads(out)["runs"][0]["tool"]["driver"]["rules"]
    assert rule["helpUri"] == "https://example.org/docs/diagnostics.html#map"


@pytest.mark.parametrize("docs_url, help_uri, information_uri", [
    # a space in the address is encoded; the page's own fragment is replaced by the code's section
    ("https://example.org/my docs/diagnostics.md#top", "https://example.org/my%20docs/diagnostics.md#map",
     "https://example.org/my%20docs/diagnostics.md#top"),
    # escapes already there are kept, a lone % is encoded
    ("https://example.org/a%20b/100% done.html", "https://example.org/a%20b/100%25%20done.html#map",
     "https://example.org/a%20b/100%25%20done.html"),
])
def test_sarif_help_links_are_encoded_with_one_fragment(capsys, awkward_folder, docs_url, help_uri,
                                                        information_uri):
    _, out = run(capsys, "validate", "--format", "sarif", "--docs-url", docs_url, awkward_folder)
    log = json.loads(out)
    driver = log["runs"][0]["tool"]["driver"]
    assert (driver["rules"][0]["helpUri"], driver["informationUri"]) == (help_uri, information_uri)
    if STANDARDS.is_dir():
        assert [e.message for e in sarif_validator().iter_errors(log)] == []


def test_a_relative_docs_url_is_a_usage_error(capsys, awkward_folder):
    code = main(["validate", "--format", "sarif", "--docs-url", "docs/diagnostics.md", str(awkward_folder)])
    assert code == 2 and "absolute address" in capsys.readouterr().err


def test_sarif_fingerprints_survive_an_edit_above_the_problem(capsys, awkward_folder):
    def fingerprints():
        _, out = run(capsys, "validate", "--format", "sarif", awkward_folder)
        results = json.loads(out)["runs"][0]["results"]
        return {r["ruleId"]: r["partialFingerprints"]["sandtableDiagnostic/v1"] for r in results}
    before = fingerprints()
    map_yaml = awkward_folder / "map.yaml"
    map_yaml.write_text("notes: [moved everything down a line]\n" + map_yaml.read_text(encoding="utf-8"),
                        encoding="utf-8")
    assert fingerprints() == before and len(set(before.values())) == 2


def test_every_documented_code_has_a_section_anchor():
    book = codebook()
    assert book["REF001"].anchor == "ids-and-references"
    assert book["AXA001"].anchor == heading_anchor("Axis & Allies 50th Anniversary codes") \
        == "axis--allies-50th-anniversary-codes"
    assert all(entry.meaning for entry in book.values())


# -- JUnit ---------------------------------------------------------------------------------------

def junit_schema():
    etree = pytest.importorskip("lxml.etree")
    return etree, etree.XMLSchema(etree.parse(str(STANDARDS / "junit-10.xsd")))


@needs_standards
def test_junit_is_valid_against_junit_10_xsd(capsys, awkward_folder):
    etree, schema = junit_schema()
    for strict in ([], ["--strict"]):
        _, out = run(capsys, "validate", "--format", "junit", *strict, awkward_folder, CORE / "base")
        document = etree.fromstring(out.encode("utf-8"))
        assert schema.validate(document), schema.error_log


@needs_standards
def test_junit_xsd_refuses_a_suite_without_errors_count():
    etree, schema = junit_schema()
    no_errors = b'<testsuites><testsuite name="s" tests="0" failures="0"/></testsuites>'
    assert not schema.validate(etree.fromstring(no_errors))


def test_junit_failure_says_what_failed_and_warnings_show_without_strict(capsys, awkward_folder):
    import xml.etree.ElementTree as ET
    _, out = run(capsys, "validate", "--format", "junit", awkward_folder)
    [case] = [c for c in ET.fromstring(out).iter("testcase") if c.get("name").endswith("broken/map.yaml")]
    failure = case.find("failure")
    assert failure.get("message") == "line 5: error MAP001: the border joins 'red-coast' to itself"
    assert failure.get("type") == "MAP001"
    assert "map.yaml:5:13: error MAP001" in failure.text and "(hint: remove this border)" in failure.text
    output = case.find("system-out").text
    assert "warning MAP009: 'islet' touches only sea spaces" in output
    _, out = run(capsys, "validate", "--format", "junit", "--strict", awkward_folder)
    [case] = [c for c in ET.fromstring(out).iter("testcase") if c.get("name").endswith("broken/map.yaml")]
    assert case.find("system-out") is None
    assert case.find("failure").get("message").endswith("(and 1 more problem)")
    assert case.find("failure").get("type") == "MAP001, MAP009"


def test_junit_has_one_case_per_file_checked_whatever_is_found(capsys, tmp_path):
    # The cases, and so the counts trend views follow, do not move with the problems.
    import xml.etree.ElementTree as ET
    folder = tmp_path / "base"
    shutil.copytree(CORE / "base", folder)

    def cases():
        _, out = run(capsys, "validate", "--format", "junit", folder)
        suites = ET.fromstring(out)
        return suites.get("tests"), suites.get("failures"), {
            case.get("name").rsplit("/", 1)[-1]: case.find("failure") is not None for case in suites.iter("testcase")}
    every_file = {name: False for name in ("decks.yaml", "map.yaml", "objectives.yaml", "scenario.yaml",
                                           "setup.yaml", "tables.yaml", "units.yaml")}
    assert cases() == ("7", "0", every_file)
    setup = folder / "setup.yaml"
    setup.write_text(setup.read_text(encoding="utf-8").replace("type: infantry", "type: infantery", 1),
                     encoding="utf-8")
    assert cases() == ("7", "1", {**every_file, "setup.yaml": True})


def test_a_variants_suite_has_its_parents_files_too(capsys, awkward_folder):
    # the merged scenario is what is checked, so the parent's files are checked with it
    import xml.etree.ElementTree as ET
    _, out = run(capsys, "validate", "--format", "junit", awkward_folder)
    names = sorted(case.get("name").split("draft/", 1)[1] for case in ET.fromstring(out).iter("testcase"))
    assert names == ["base/decks.yaml", "base/map.yaml", "base/objectives.yaml", "base/scenario.yaml",
                     "base/setup.yaml", "base/tables.yaml", "base/units.yaml", "broken/map.yaml",
                     "broken/scenario.yaml"]
