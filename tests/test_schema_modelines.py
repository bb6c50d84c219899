"""The schemas that VS Code and check-jsonschema read through each file's modeline.

Every bundled file, variants included, passes check-jsonschema (the real client) against the
schema its modeline names; a variant's files name schemas of their own, derived from the full ones.
"""
from __future__ import annotations

import json
import re
import shutil
from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from sandtable import schemas
from sandtable.cli import main
from sandtable.scenario import load_scenario
from sandtable.schemas import KIND_SCHEMAS, MODELINE, SCHEMA_DIR
from sandtable.variant_schema import variant_schema_text

from helpers import REPO

SCENARIOS = REPO / "scenarios"
TRIPLEA_GAME = REPO / "tests" / "fixtures" / "triplea" / "small-game.xml"

check_jsonschema = pytest.importorskip("check_jsonschema.cli.main_command",
                                       reason="check-jsonschema is not installed")


def run_check_jsonschema(schema: Path, files: list[Path]) -> tuple[int, str]:
    from click.testing import CliRunner
    outcome = CliRunner().invoke(check_jsonschema.main, ["--schemafile", str(schema), *map(str, files)])
    return outcome.exit_code, outcome.output


def modeline_target(path: Path) -> Path:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(MODELINE):
            return (path.parent / line[len(MODELINE):].strip()).resolve()
    raise AssertionError(f"{path} has no modeline")


def bundled_files() -> list[Path]:
    return sorted(SCENARIOS.glob("*/*.yaml")) + sorted(SCENARIOS.glob("*/locales/*.yaml"))


def test_every_bundled_file_passes_check_jsonschema_against_its_modeline():
    by_schema: dict[Path, list[Path]] = defaultdict(list)
    for path in bundled_files():
        by_schema[modeline_target(path)].append(path)
    assert SCHEMA_DIR / "variant" / "map.schema.json" in by_schema  # the variants are among them
    for schema, files in by_schema.items():
        code, output = run_check_jsonschema(schema, files)
        assert code == 0, output


def test_variant_files_name_the_variant_schemas_and_others_the_full_ones():
    for path in bundled_files():
        folder = path.parent.parent if path.parent.name == "locales" else path.parent
        manifest = yaml.safe_load((folder / "scenario.yaml").read_text(encoding="utf-8"))
        in_variant = "variant" in modeline_target(path).relative_to(SCHEMA_DIR).parts
        assert in_variant == ("extends" in manifest), path


def test_committed_variant_schemas_are_derived_from_the_full_ones():
    for kind in KIND_SCHEMAS:
        committed = (SCHEMA_DIR / "variant" / KIND_SCHEMAS[kind]).read_text(encoding="utf-8")
        assert committed == variant_schema_text(kind), \
            f"schemas/variant/ is out of date: run python -m sandtable.variant_schema ({kind})"


def check_variant(tmp_path, kind: str, text: str) -> tuple[int, str]:
    path = tmp_path / f"{kind}.yaml"
    path.write_text(text, encoding="utf-8")
    return run_check_jsonschema(SCHEMA_DIR / "variant" / KIND_SCHEMAS[kind], [path])


def test_a_variant_entity_gives_its_id_and_only_what_changes(tmp_path):
    assert check_variant(tmp_path, "map", "spaces:\n- {id: karelia, value: 3}\n"
                         "- {id: burma, remove: true}\nborders:\n- {between: [a, b], remove: true}\n")[0] == 0
    code, output = check_variant(tmp_path, "map", "spaces:\n- {value: 3}\n")
    assert code == 1 and "'id' is a required property" in output
    code, output = check_variant(tmp_path, "map", "borders:\n- {kind: land}\n")
    assert code == 1 and "'between' is a required property" in output


def test_remove_is_true_or_absent_and_unknown_keys_stay_unknown(tmp_path):
    assert check_variant(tmp_path, "units", "unit_types:\n- {id: tank, remove: false}\n")[0] == 1
    code, output = check_variant(tmp_path, "units", "unit_types:\n- {id: tank, atack: 3}\n")
    assert code == 1 and "'atack' was unexpected" in output


def test_a_list_that_replaces_the_parents_whole_keeps_the_full_schema(tmp_path):
    # units of a setup space are replaced as a whole, so each stack still needs its count
    code, output = check_variant(tmp_path, "setup", "spaces:\n- {space: karelia, units: [{type: infantry}]}\n")
    assert code == 1 and "'count' is a required property" in output
    assert check_variant(tmp_path, "setup", "spaces:\n- {space: karelia, control: germany}\n")[0] == 0


def test_a_variant_locale_may_remove_an_entry_and_a_whole_locale_may_not(tmp_path):
    text = "locale: ja\nentries:\n  spaces.finland.name: {remove: true}\n"
    assert check_variant(tmp_path, "locale", text)[0] == 0
    (tmp_path / "ja.yaml").write_text(text, encoding="utf-8")
    code, output = run_check_jsonschema(SCHEMA_DIR / "locale.schema.json", [tmp_path / "ja.yaml"])
    assert code == 1 and "'text' is a required property" in output


def test_a_variant_manifest_names_its_parent(tmp_path):
    assert check_variant(tmp_path, "scenario", "id: v\nextends: ../base\nnations:\n- {id: japan, income: 31}\n")[0] == 0
    code, output = check_variant(tmp_path, "scenario", "id: v\nnations:\n- {id: japan, income: 31}\n")
    assert code == 1 and "'extends' is a required property" in output


def test_conditions_merge_key_by_key_but_their_lists_are_whole(tmp_path):
    objectives = "objectives:\n- id: o\n  when: {controls: {spaces: [a]}}\n"
    assert check_variant(tmp_path, "objectives", objectives)[0] == 0
    whole = "objectives:\n- id: o\n  when: {all: [{controls: {spaces: [a]}}]}\n"
    assert check_variant(tmp_path, "objectives", whole)[0] == 1


def test_format_points_a_variant_at_the_variant_schemas(tmp_path, capsys):
    shutil.copytree(SCENARIOS / "aa50-1941", tmp_path / "aa50-1941")
    shutil.copytree(SCENARIOS / "aa50-1942", tmp_path / "aa50-1942")
    variant_map = tmp_path / "aa50-1942" / "map.yaml"
    locale = tmp_path / "aa50-1942" / "locales" / "zh-Hans.yaml"
    variant_map.write_text(variant_map.read_text(encoding="utf-8").replace("schemas/variant/", "schemas/"),
                           encoding="utf-8")
    locale.write_text("\n".join(locale.read_text(encoding="utf-8").splitlines()[1:]) + "\n", encoding="utf-8")
    assert main(["format", "--check", str(tmp_path / "aa50-1942")]) == 1
    assert main(["format", str(tmp_path)]) == 0
    capsys.readouterr()
    assert variant_map.read_text(encoding="utf-8").splitlines()[0] == \
        MODELINE + "../../schemas/variant/map.schema.json"
    # a file without a modeline gets one, found from scenario.yaml's and one folder further up
    assert locale.read_text(encoding="utf-8").splitlines()[0] == \
        MODELINE + "../../../schemas/variant/locale.schema.json"
    parent_map = (tmp_path / "aa50-1941" / "map.yaml").read_text(encoding="utf-8")
    assert parent_map.splitlines()[0] == MODELINE + "../../schemas/map.schema.json"


# -- every modeline Sandtable writes resolves ---------------------------------------------------

@pytest.fixture
def installed(tmp_path, monkeypatch) -> Path:
    """The schemas where a non-editable install puts them (share/sandtable/schemas), away from
    the checkout and from the scenarios."""
    place = tmp_path / "venv" / "share" / "sandtable" / "schemas"
    shutil.copytree(SCHEMA_DIR, place)
    monkeypatch.setattr(schemas, "SCHEMA_DIR", place)
    return place.resolve()


def targets(folder: Path) -> dict[str, Path]:
    return {str(path.relative_to(folder)): modeline_target(path) for path in sorted(folder.rglob("*.yaml"))}


def test_import_points_at_the_installed_schemas_outside_a_repository(tmp_path, installed, capsys):
    out = tmp_path / "designs" / "small"
    assert main(["import", "triplea", str(TRIPLEA_GAME), str(out), "--quiet"]) == 0
    assert targets(out) == {f"{kind}.yaml": installed / f"{kind}.schema.json"
                            for kind in ("scenario", "map", "units", "setup", "objectives")
                            if (out / f"{kind}.yaml").exists()}
    assert main(["format", "--check", str(out)]) == 0  # canonical as written, modeline included
    assert "points nowhere" not in capsys.readouterr().err


def test_import_points_at_the_schemas_a_repository_keeps(tmp_path, installed):
    shutil.copytree(SCHEMA_DIR, tmp_path / "repo" / "schemas")
    out = tmp_path / "repo" / "scenarios" / "small"
    assert main(["import", "triplea", str(TRIPLEA_GAME), str(out), "--quiet"]) == 0
    assert (out / "map.yaml").read_text(encoding="utf-8").splitlines()[0] == \
        MODELINE + "../../schemas/map.schema.json"
    assert all(target.is_file() for target in targets(out).values())


def test_new_files_point_where_the_schemas_are(tmp_path, installed):
    # the editor's new scenario and new files, and a new locale file written by `i18n import`
    folder = tmp_path / "designs" / "new"
    for kind, path in [("scenario", folder / "scenario.yaml"), ("map", folder / "map.yaml"),
                       ("locale", folder / "locales" / "ja.yaml")]:
        line = schemas.schema_header(kind, path, variant=False).rstrip("\n")
        assert (path.parent / line[len(MODELINE):]).resolve() == installed / f"{kind}.schema.json"
    line = schemas.schema_header("map", folder / "map.yaml", variant=True).rstrip("\n")
    assert (folder / line[len(MODELINE):]).resolve() == installed / "variant" / "map.schema.json"


def test_i18n_import_writes_a_new_locale_file_whose_modeline_resolves(tmp_path, installed, capsys):
    tiny = tmp_path / "designs" / "tiny"
    shutil.copytree(REPO / "tests" / "fixtures" / "i18n" / "tiny", tiny)  # its modelines point nowhere here
    po = tmp_path / "ja.po"
    assert main(["i18n", "export", str(tiny), "--locale", "ja", "--format", "po", "-o", str(po)]) == 0
    po.write_text(po.read_text(encoding="utf-8").replace('msgid "Tiny Front"\nmsgstr ""',
                                                         'msgid "Tiny Front"\nmsgstr "小さな前線"'), encoding="utf-8")
    assert main(["i18n", "import", str(tiny), str(po)]) == 0
    assert modeline_target(tiny / "locales" / "ja.yaml") == installed / "locale.schema.json"


def test_format_repoints_a_modeline_that_points_nowhere_at_the_kept_schemas(tmp_path, installed, capsys):
    # what `import` wrote before: the checkout's folder, seen from a virtual environment
    shutil.copytree(SCHEMA_DIR, tmp_path / "repo" / "schemas")
    folder = tmp_path / "repo" / "scenarios" / "base"
    shutil.copytree(REPO / "tests" / "fixtures" / "core" / "base", folder)
    broken = "../../venv/lib/python3.11/site-packages/schemas/map.schema.json"
    lines = (folder / "map.yaml").read_text(encoding="utf-8").splitlines()
    (folder / "map.yaml").write_text("\n".join([MODELINE + broken] + lines[1:]) + "\n", encoding="utf-8")
    assert main(["format", "--check", str(folder)]) == 1
    assert main(["format", str(folder)]) == 0
    assert (folder / "map.yaml").read_text(encoding="utf-8").splitlines()[0] == \
        MODELINE + "../../schemas/map.schema.json"
    assert all(target.is_file() for target in targets(folder).values())
    capsys.readouterr()
    assert main(["format", "--check", str(folder)]) == 0
    assert "points nowhere" not in capsys.readouterr().err


def test_format_does_not_point_at_the_installation_and_says_why(tmp_path, installed, capsys):
    # Without a kept copy the line is left: another machine's install is elsewhere, and two
    # installs would otherwise rewrite each other's line.
    folder = tmp_path / "designs" / "base"
    shutil.copytree(REPO / "tests" / "fixtures" / "core" / "base", folder)
    before = (folder / "map.yaml").read_text(encoding="utf-8")
    assert main(["format", "--check", str(folder)]) == 0
    assert (folder / "map.yaml").read_text(encoding="utf-8") == before
    err = capsys.readouterr().err
    assert "designs/base/map.yaml: its schema modeline points nowhere here" in err


# -- patterns match as JSON Schema says (ECMA-262), as check-jsonschema and VS Code match them ----

@pytest.mark.parametrize("unit_id, valid", [
    ("marine", True),
    ("marine\n", False),     # Python's `$` matches before a final newline; ECMA-262's does not
    ("marine\n\n", False),
    ("\nmarine", False),
    ("marine-2", True),
])
def test_a_pattern_passes_or_fails_as_check_jsonschema_says(tmp_path, unit_id, valid):
    from validators import validate
    folder = tmp_path / "base"
    shutil.copytree(REPO / "tests" / "fixtures" / "core" / "base", folder)
    units = folder / "units.yaml"
    units.write_text(units.read_text(encoding="utf-8") + f"- {{id: {json.dumps(unit_id)}, name: Marine, "
                     "domain: land, cost: 4, stats: {attack: 1, defense: 2}}\n", encoding="utf-8")
    theirs, output = run_check_jsonschema(SCHEMA_DIR / "units.schema.json", [units])
    assert (theirs == 0) == valid, output
    ours = [(d.code, d.message, d.line) for d in validate(load_scenario(folder)) if d.code.startswith("SCH")]
    assert ours == ([] if valid else
                    [("SCH005", f"{unit_id!r} is not a valid id", 6)]), ours


def test_every_pattern_of_the_schemas_is_an_ecma_262_expression():
    import regress
    found = set()
    for path in SCHEMA_DIR.rglob("*.json"):
        found |= set(re.findall(r'"pattern": ("(?:[^"\\]|\\.)*")', path.read_text(encoding="utf-8")))
    assert len(found) >= 8
    for pattern in found:
        regress.Regex(json.loads(pattern), flags="u")   # raises on what ECMA-262 does not accept
