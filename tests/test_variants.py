"""Variants: `extends` merges entities by id; add, override and remove; provenance kept."""
from __future__ import annotations

import shutil

import pytest

from sandtable.scenario import load_scenario

from helpers import FIXTURES, diagnostics_of


@pytest.fixture
def family(tmp_path):
    shutil.copytree(FIXTURES / "core" / "base", tmp_path / "base")
    variant = tmp_path / "variant"
    variant.mkdir()
    (variant / "scenario.yaml").write_text(
        "id: variant\nname: Variant\nsystem: generic\nextends: ../base\n"
        "nations:\n- {id: redland, name: Red Republic}\n", encoding="utf-8")
    (variant / "map.yaml").write_text(
        "spaces:\n- {id: red-coast, value: 4}\n- {id: isle, remove: true}\n"
        "- {id: new-bay, name: New Bay, kind: sea}\n"
        "borders:\n- {between: [sea-b, isle], remove: true}\n- {between: [new-bay, sea-a], kind: sea}\n",
        encoding="utf-8")
    return tmp_path


def test_fields_are_overridden_by_id(family):
    scenario = load_scenario(family / "variant")
    redland = next(n for n in scenario.manifest["nations"] if n["id"] == "redland")
    assert redland == {"id": "redland", "name": "Red Republic", "capital": "red-capital", "side": "red"}
    coast = next(s for s in scenario.doc("map")["spaces"] if s["id"] == "red-coast")
    assert coast["value"] == 4 and coast["name"] == "Red Coast"


def test_entities_are_added_and_removed(family):
    scenario = load_scenario(family / "variant")
    ids = [s["id"] for s in scenario.doc("map")["spaces"]]
    assert ids == ["red-capital", "red-coast", "blue-capital", "sea-a", "sea-b", "new-bay"]
    pairs = [tuple(b["between"]) for b in scenario.doc("map")["borders"]]
    assert ("isle", "sea-b") not in pairs and ("new-bay", "sea-a") in pairs


def test_the_merged_variant_validates_clean(family):
    assert diagnostics_of(family / "variant") == []


def test_provenance_points_at_the_file_that_holds_each_value(family):
    scenario = load_scenario(family / "variant")
    spaces = scenario.doc("map")["spaces"]
    coast = [s["id"] for s in spaces].index("red-coast")
    assert scenario.locate("map", f"/spaces/{coast}/value").file == family / "variant" / "map.yaml"
    assert scenario.locate("map", f"/spaces/{coast}/name").file == family / "base" / "map.yaml"
    assert scenario.locate("map", "/spaces/0/kind").file == family / "base" / "map.yaml"


def test_an_error_in_the_variant_points_into_the_variant(family):
    (family / "variant" / "units.yaml").write_text("unit_types:\n- {id: ship, cost: lots}\n")
    [problem] = diagnostics_of(family / "variant")
    assert (problem.code, problem.file, problem.line, problem.column) == \
        ("SCH003", family / "variant" / "units.yaml", 2, 20)


def test_an_error_inherited_from_the_parent_points_into_the_parent(family):
    units = family / "base" / "units.yaml"
    units.write_text(units.read_text().replace("cost: 8", "cost: eight"))
    problems = diagnostics_of(family / "variant")
    assert [(d.code, d.file.name, d.file.parent.name) for d in problems] == [("SCH003", "units.yaml", "base")]


def test_variants_can_extend_variants(family):
    grandchild = family / "grandchild"
    grandchild.mkdir()
    (grandchild / "scenario.yaml").write_text(
        "id: grandchild\nname: Grandchild\nsystem: generic\nextends: ../variant\n")
    scenario = load_scenario(grandchild)
    assert [p.name for p in scenario.lineage] == ["grandchild", "variant", "base"]
    assert scenario.manifest["nations"][0]["name"] == "Red Republic"
