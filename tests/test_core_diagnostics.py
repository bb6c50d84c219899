"""Every core diagnostic code against its broken fixture: code, file, line and column."""
from __future__ import annotations

import pytest

import sandtable.yamlsource as yamlsource
from sandtable.diagnostics import Severity
from sandtable.scenario import load_scenario

from helpers import FIXTURES, diagnostics_of, find_code, place

CORE = FIXTURES / "core"

# fixture folder, code, file (relative to tests/fixtures/core), line, column
CASES = [
    ("yaml001-syntax", "YAML001", "yaml001-syntax/map.yaml", 3, 3),
    ("yaml003-not-utf8", "YAML003", "yaml003-not-utf8/map.yaml", 2, 23),
    ("yaml004-duplicate-key", "YAML004", "yaml004-duplicate-key/map.yaml", 5, 3),
    ("yaml005-two-documents", "YAML005", "yaml005-two-documents/units.yaml", 2, 1),
    ("yaml006-complex-key", "YAML006", "yaml006-complex-key/map.yaml", 2, 3),
    ("yaml007-tag", "YAML007", "yaml007-tag/units.yaml", 2, 3),
    ("yaml008-deep", "YAML008", "yaml008-deep/setup.yaml", 1, 71),
    ("yaml009-alias-bomb", "YAML009", "yaml009-alias-bomb/map.yaml", 5, 36),
    ("io001-unreadable", "IO001", "io001-unreadable/map.yaml", 1, 1),
    ("path001-symlink-escape", "PATH001", "path001-symlink-escape/units.yaml", 1, 1),
    ("path002-image-outside", "PATH002", "path002-image-outside/map.yaml", 2, 10),
    ("path003-image-missing", "PATH003", "path003-image-missing/map.yaml", 2, 10),
    ("scn002-stray-file", "SCN002", "scn002-stray-file/maps.yaml", 1, 1),
    ("var001-missing-parent", "VAR001", "var001-missing-parent/scenario.yaml", 4, 10),
    ("var002-cycle-a", "VAR002", "var002-cycle-b/scenario.yaml", 4, 10),
    ("var003-remove-unknown", "VAR003", "var003-remove-unknown/map.yaml", 3, 3),
    ("var004-extends-outside", "VAR004", "var004-extends-outside/scenario.yaml", 4, 10),
    ("sch001-unknown-key", "SCH001", "sch001-unknown-key/map.yaml", 3, 3),
    ("sch002-missing-required", "SCH002", "sch002-missing-required/units.yaml", 2, 3),
    ("sch003-wrong-type", "SCH003", "sch003-wrong-type/units.yaml", 5, 9),
    ("sch004-not-allowed", "SCH004", "sch004-not-allowed/map.yaml", 3, 9),
    ("sch005-bad-id", "SCH005", "sch005-bad-id/units.yaml", 2, 8),
    ("sch006-out-of-range", "SCH006", "sch006-out-of-range/setup.yaml", 5, 29),
    ("sch006-condition-two-keys", "SCH006", "sch006-condition-two-keys/objectives.yaml", 4, 5),
    ("sch007-no-allowed-form", "SCH007", "sch007-no-allowed-form/scenario.yaml", 5, 8),
    ("id001-duplicate-id", "ID001", "id001-duplicate-id/units.yaml", 3, 8),
    ("ref001-unknown-reference", "REF001", "ref001-unknown-reference/setup.yaml", 5, 12),
    ("map001-self-border", "MAP001", "map001-self-border/map.yaml", 2, 13),
    ("map002-duplicate-border", "MAP002", "map002-duplicate-border/map.yaml", 3, 13),
    ("map003-border-kind", "MAP003", "map003-border-kind/map.yaml", 2, 34),
    ("map004-canal-unnamed", "MAP004", "map004-canal-unnamed/map.yaml", 2, 35),
    ("map005-disconnected", "MAP005", "map005-disconnected/map.yaml", 2, 8),
    ("map006-seas-apart", "MAP006", "map006-seas-apart/map.yaml", 2, 8),
    ("map007-isolated", "MAP007", "map007-isolated/map.yaml", 2, 8),
    ("map008-island-without-sea", "MAP008", "map008-island-without-sea/map.yaml", 2, 44),
    ("map009-unmarked-island", "MAP009", "map009-unmarked-island/map.yaml", 2, 8),
    ("map010-broken-ring", "MAP010", "map010-broken-ring/map.yaml", 5, 8),
    ("set001-wrong-domain", "SET001", "set001-wrong-domain/setup.yaml", 5, 12),
    ("set002-stacking", "SET002", "set002-stacking/setup.yaml", 5, 3),
    ("set003-never-plays", "SET003", "set003-never-plays/scenario.yaml", 6, 8),
    ("set004-plays-twice", "SET004", "set004-plays-twice/scenario.yaml", 5, 33),
    ("set005-capital-not-held", "SET005", "set005-capital-not-held/scenario.yaml", 6, 26),
    ("set006-too-many-pieces", "SET006", "set006-too-many-pieces/setup.yaml", 6, 29),
    ("abl001-unknown-ability", "ABL001", "abl001-unknown-ability/units.yaml", 6, 12),
    ("loc001-unknown-key", "LOC001", "loc001-unknown-key/locales/zh-Hans.yaml", 3, 3),
    ("loc002-missing", "LOC002", "loc002-missing/locales/ja.yaml", 2, 1),
    ("loc003-placeholder", "LOC003", "loc003-placeholder/locales/zh-Hans.yaml", 3, 45),
    ("loc004-stale", "LOC004", "loc004-stale/locales/zh-Hans.yaml", 3, 49),
    ("loc005-bad-file-name", "LOC005", "loc005-bad-file-name/locales/Chinese.yaml", 1, 1),
    ("loc006-wrong-locale", "LOC006", "loc006-wrong-locale/locales/ja.yaml", 1, 9),
]


@pytest.mark.parametrize("folder, code, file, line, column", CASES, ids=[c[0] for c in CASES])
def test_broken_fixture_reports_its_code_at_the_offending_place(folder, code, file, line, column):
    found = find_code(diagnostics_of(CORE / folder), code)
    assert (file, line, column) in [place(d, CORE) for d in found]


def test_the_base_fixture_is_clean():
    assert diagnostics_of(CORE / "base") == []


def test_file_over_the_size_limit_is_refused(monkeypatch):
    monkeypatch.setattr(yamlsource, "MAX_FILE_BYTES", 1024)
    found = find_code(diagnostics_of(CORE / "yaml002-too-large"), "YAML002")
    assert [place(d, CORE) for d in found] == [("yaml002-too-large/map.yaml", 1, 1)]


def test_folder_without_manifest_is_not_a_scenario():
    scenario = load_scenario(CORE / "scn001-not-a-scenario")
    [problem] = scenario.diagnostics
    assert problem.code == "SCN001" and problem.severity is Severity.ERROR


def test_unknown_key_suggests_the_nearest_allowed_key():
    [problem] = find_code(diagnostics_of(CORE / "sch001-unknown-key"), "SCH001")
    assert problem.message == "unknown key 'valeu'" and problem.hint == "did you mean 'value'?"
    assert problem.pointer == "/spaces/1/valeu"


def test_unknown_reference_suggests_a_near_miss():
    [problem] = find_code(diagnostics_of(CORE / "ref001-unknown-reference"), "REF001")
    assert problem.hint == "did you mean 'infantry'?"


def test_all_schema_errors_are_reported_in_one_run(tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    (folder / "scenario.yaml").write_text(
        "id: many\nname: Many\nsystem: generic\nextends: ../base\n", encoding="utf-8")
    (folder / "units.yaml").write_text(
        "unit_types:\n- {id: a, name: A, domain: lnd}\n- {id: b, name: B, domain: air, cots: 3}\n"
        "- {id: c, domain: sea}\n", encoding="utf-8")
    import shutil
    shutil.copytree(CORE / "base", tmp_path / "base")
    codes = sorted((d.code, d.line) for d in diagnostics_of(folder))
    assert codes == [("SCH001", 3), ("SCH002", 4), ("SCH004", 2)]


def test_variant_diagnostics_point_at_the_file_holding_the_value():
    """The removed id lives in the variant; the unchanged borders still point into the parent."""
    scenario = load_scenario(CORE / "var003-remove-unknown")
    assert scenario.locate("map", "/borders/0/kind").file == (CORE / "base" / "map.yaml")
    assert scenario.locate("scenario", "/extends").file == (CORE / "var003-remove-unknown" / "scenario.yaml")


def test_warnings_are_not_errors():
    problems = diagnostics_of(CORE / "map009-unmarked-island")
    assert [d.severity for d in problems] == [Severity.WARNING]


def test_unknown_ability_suggests_one_the_system_knows():
    [problem] = find_code(diagnostics_of(CORE / "abl001-unknown-ability"), "ABL001")
    assert problem.message == "unknown ability 'blitzkrieg' for aa50" and problem.hint == "did you mean 'blitz'?"
