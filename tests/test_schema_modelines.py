"""The schemas that VS Code and check-jsonschema read through each file's modeline.

Every bundled file, variants included, passes check-jsonschema (the real client) against the
schema its modeline names; a variant's files name schemas of their own, derived from the full ones.
"""
from __future__ import annotations

import shutil
from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from sandtable.cli import main
from sandtable.schemas import KIND_SCHEMAS, MODELINE, SCHEMA_DIR
from sandtable.variant_schema import variant_schema_text

from helpers import REPO

SCENARIOS = REPO / "scenarios"

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
