"""The TripleA importer: safe reading, translation of a small game, and the two reference files."""
from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

import pytest

from sandtable.cli import main
from sandtable.safexml import XmlRefused, parse_xml, read_xml_file
from sandtable.scenario import load_scenario
from sandtable.triplea import import_game, territory_id
from validators import validate

from helpers import FIXTURES, REPO

TRIPLEA = FIXTURES / "triplea"
REFERENCE = REPO.parent / "shared" / "reference" / "triplea"
REFERENCE_FILES = [REFERENCE / "WW2v3-1941.xml", REFERENCE / "WW2v3-1942.xml"]
# The reference files live in shared/ beside the repository (as in CI), not in the repository.
needs_reference = pytest.mark.skipif(not REFERENCE.is_dir(),
                                     reason="shared/reference is not beside the repository")


def refused(name: str):
    with pytest.raises(XmlRefused) as caught:
        import_game(TRIPLEA / name)
    return caught.value.diagnostic


# -- hostile and broken XML ------------------------------------------------------------------
@pytest.mark.parametrize("name, code, line, column", [
    ("malformed.xml", "TPL001", 5, 5),
    ("billion-laughs.xml", "TPL002", 2, 16),
    ("external-entity.xml", "TPL002", 2, 16),
    ("undeclared-entity.xml", "TPL002", 4, 15),
    ("too-deep.xml", "TPL003", 3, 193),
    ("utf-7.xml", "TPL001", 1, 21),        # expat reads no UTF-7: refused at the declaration, no ValueError
])
def test_refused_xml_names_code_file_line_and_column(name, code, line, column):
    diagnostic = refused(name)
    assert (diagnostic.code, Path(diagnostic.file).name, diagnostic.line, diagnostic.column) == \
        (code, name, line, column)
    assert diagnostic.is_error


def test_billion_laughs_is_refused_before_any_expansion():
    diagnostic = refused("billion-laughs.xml")
    assert "internal subset" in diagnostic.message


def test_size_limit_refuses_large_documents():
    with pytest.raises(XmlRefused) as caught:
        parse_xml(b"<game>" + b" " * 200 + b"</game>", "big.xml", max_bytes=100)
    assert caught.value.diagnostic.code == "TPL003"


def test_a_named_dtd_is_noted_and_never_read():
    document = read_xml_file(TRIPLEA / "small-game.xml")
    assert [(d.code, Path(d.file).name, d.line, d.column) for d in document.notes] == [
        ("TPL008", "small-game.xml", 2, 33)]


@pytest.mark.parametrize("name, code, line, column", [
    ("not-a-game.xml", "TPL004", 2, 1),
    ("small-game.xml", "TPL005", 79, 7),
    ("unknown-territory.xml", "TPL006", 5, 5),
    ("bad-number.xml", "TPL007", 8, 7),
    ("impassable-capital.xml", "TPL009", 12, 7),
])
def test_translation_diagnostics_name_code_file_line_and_column(name, code, line, column):
    imported = import_game(TRIPLEA / name)
    found = [d for d in imported.diagnostics if d.code == code and d.severity.value != "info"]
    assert found, [f"{d.code} {d.message}" for d in imported.diagnostics]
    first = found[0]
    assert (Path(first.file).name, first.line, first.column) == (name, line, column)


def test_untranslated_items_are_reported_with_their_lines():
    imported = import_game(TRIPLEA / "small-game.xml")
    lines = {d.line: d.message for d in imported.diagnostics if d.code == "TPL005"}
    assert "isMarine" in lines[79]
    assert "Low Luck" in lines[158]
    assert "productionShipyards" in lines[59]


# -- the command -----------------------------------------------------------------------------
def test_command_writes_a_scenario_that_validates(tmp_path, capsys):
    out = tmp_path / "small"
    assert main(["import", "triplea", str(TRIPLEA / "small-game.xml"), str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "map.yaml", "objectives.yaml", "scenario.yaml", "setup.yaml", "units.yaml"]
    header = (out / "map.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("# yaml-language-server: $schema=") and header.endswith("schemas/map.schema.json")
    errors = [d for d in validate(load_scenario(out)) if d.is_error]
    assert errors == []
    assert "isMarine" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["billion-laughs.xml", "malformed.xml", "unknown-territory.xml"])
def test_command_refuses_bad_files_without_a_traceback(tmp_path, capsys, name):
    assert main(["import", "triplea", str(TRIPLEA / name), str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"{name}:" in err
    assert not (tmp_path / "out" / "map.yaml").exists()


def test_command_never_writes_through_a_link_out_of_outdir(tmp_path, capsys):
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("keep me\n", encoding="utf-8")
    out = tmp_path / "small"
    out.mkdir()
    (out / "map.yaml").symlink_to(outside)
    assert main(["import", "triplea", str(TRIPLEA / "small-game.xml"), str(out), "--quiet", "--force"]) == 2
    assert "map.yaml links to a file outside" in capsys.readouterr().err
    assert outside.read_text(encoding="utf-8") == "keep me\n" and sorted(p.name for p in out.iterdir()) == ["map.yaml"]


def test_a_long_folder_name_gives_an_id_an_id_may_be(tmp_path):
    out = tmp_path / ("a-scenario-imported-into-a-folder-whose-name-is-far-longer-than-any-id-" * 2)
    assert main(["import", "triplea", str(TRIPLEA / "small-game.xml"), str(out), "--quiet"]) == 0
    scenario = load_scenario(out)
    assert scenario.id == "a-scenario-imported-into-a-folder-whose-name-is-far-longer-than"   # 64 characters
    assert [d.code for d in validate(scenario) if d.severity.value != "info"] == []


def test_command_reports_io_problems_with_exit_2(tmp_path, capsys):
    assert main(["import", "triplea", str(tmp_path / "missing.xml"), str(tmp_path / "out")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_command_does_not_overwrite_without_force(tmp_path):
    out = tmp_path / "small"
    assert main(["import", "triplea", str(TRIPLEA / "small-game.xml"), str(out), "--quiet"]) == 0
    assert main(["import", "triplea", str(TRIPLEA / "small-game.xml"), str(out), "--quiet"]) == 2
    assert main(["import", "triplea", str(TRIPLEA / "small-game.xml"), str(out), "--quiet", "--force"]) == 0


# -- what a small game becomes ---------------------------------------------------------------
@pytest.fixture(scope="module")
def small():
    return import_game(TRIPLEA / "small-game.xml", "small")


def test_spaces_borders_and_canals(small):
    spaces = {s["id"]: s for s in small.files["map"]["spaces"]}
    assert list(spaces) == ["germany", "karelia-ssr", "russia", "egypt", "sweden", "iceland", "sz-5", "sz-6"]
    assert spaces["germany"] == {"id": "germany", "name": "Germany", "triplea_name": "Germany", "kind": "land",
                                 "value": 10, "tags": ["capital", "victory_city"]}
    assert spaces["sz-5"] == {"id": "sz-5", "name": "Sea Zone 5", "triplea_name": "5 Sea Zone", "kind": "sea"}
    assert spaces["karelia-ssr"]["triplea_name"] == "Karelia S.S.R."   # the export's name for it
    assert spaces["sweden"]["tags"] == ["neutral", "impassable"]
    assert spaces["karelia-ssr"]["original_owner"] == "soviet-union"
    assert spaces["iceland"]["tags"] == ["island"]
    kinds = {tuple(b["between"]): b["kind"] for b in small.files["map"]["borders"]}
    assert kinds[("germany", "karelia-ssr")] == "land"
    assert kinds[("sz-5", "germany")] == "coast"
    assert kinds[("sz-5", "sz-6")] == "canal"
    assert small.files["map"]["canals"] == [
        {"id": "kiel", "name": "Kiel Canal", "joins": ["sz-5", "sz-6"], "controlled_by": ["germany"]}]


def test_nations_sides_and_turn_order(small):
    scenario = small.files["scenario"]
    assert scenario["turn_order"] == ["germany", "soviet-union"]
    nations = {n["id"]: n for n in scenario["nations"]}
    assert nations["china"]["played_by"] == "soviet-union"
    assert nations["germany"] == {"id": "germany", "name": "Germany", "triplea_name": "Germans", "side": "axis",
                                  "capital": "germany", "income": 10, "victory_cities": 1}
    assert [s["id"] for s in scenario["sides"]] == ["axis", "allies"]
    options = {o["id"]: o["default"] for o in scenario["options"]}
    assert options == {"national-objectives": True, "total-war": True}
    assert scenario["victory"][0]["when"] == {"victory_cities": {"side": "axis", "count": 18}}


def test_units_costs_and_abilities(small):
    units = {u["id"]: u for u in small.files["units"]["unit_types"]}
    assert units["infantry"]["cost"] == 3 and units["artillery"]["cost"] == 4
    assert "cost" not in units["transport"]  # only in a frontier no player starts with
    assert units["artillery"]["abilities"] == [
        {"kind": "artillery_support", "types": ["infantry"], "per_unit": 1, "bonus": 1}]
    assert units["transport"]["domain"] == "sea"
    assert units["transport"]["abilities"] == [{"kind": "transport", "capacity": 5}]
    assert units["factory"]["domain"] == "structure"


def test_objectives_become_conditions(small):
    objectives = {o["id"]: o for o in small.files["objectives"]["objectives"]}
    germany = objectives["germany-1"]
    assert germany["award"] == {"resource": "ipc", "amount": 5}
    assert germany["option"] == "national-objectives"
    assert germany["when"] == {"all": [
        {"controls": {"owner": "germany", "spaces": ["germany", "karelia-ssr", "russia"], "allied": True, "count": 2}},
        {"no_enemy_units": {"owner": "germany", "spaces": ["sz-5", "sz-6"], "surface_only": True}},
    ]}
    assert objectives["soviet-union-1"]["when"] == {"all": [
        {"controls": {"owner": "soviet-union", "spaces": ["russia"]}},
        {"not": {"units_present": {"owner": "china", "controller": "soviet-union"}}},
        {"turn": {"min": 1, "max": 3}},     # TripleA's legacy option turns, read as rounds
    ]}


def test_setup_control_units_and_resources(small):
    setup = {e["space"]: e for e in small.files["setup"]["spaces"]}
    assert setup["germany"] == {"space": "germany", "control": "germany",
                                "units": [{"type": "factory", "count": 1}, {"type": "infantry", "count": 3}]}
    assert setup["sz-5"]["units"] == [{"type": "transport", "count": 1, "owner": "germany"},
                                      {"type": "infantry", "count": 2, "owner": "germany", "aboard": "transport"}]
    assert small.files["setup"]["resources"] == [
        {"owner": "germany", "resource": "ipc", "amount": 10},
        {"owner": "soviet-union", "resource": "ipc", "amount": 8}]


# -- the reference files: nothing is lost ----------------------------------------------------
def _xml(path: Path):
    return ElementTree.parse(path).getroot()


@needs_reference
@pytest.mark.parametrize("path", REFERENCE_FILES, ids=lambda p: p.stem)
def test_every_territory_border_and_placement_is_kept(path):
    root = _xml(path)
    imported = import_game(path)
    assert not imported.has_errors
    territories = [t.get("name") for t in root.iter("territory")]
    spaces = {s["id"]: s for s in imported.files["map"]["spaces"]}
    assert len(spaces) == len(territories) == 162
    for territory in root.iter("territory"):
        space = spaces[territory_id(territory.get("name"))]
        assert space["kind"] == ("sea" if territory.get("water") == "true" else "land")
    connections = {frozenset((territory_id(c.get("t1")), territory_id(c.get("t2"))))
                   for c in root.iter("connection")}
    borders = {frozenset(b["between"]) for b in imported.files["map"]["borders"]}
    assert len(connections) == len(list(root.iter("connection"))) == len(imported.files["map"]["borders"])
    assert borders == connections
    placed = Counter()
    for placement in root.iter("unitPlacement"):
        placed[(territory_id(placement.get("territory")), placement.get("unitType").replace("aaGun", "aa-gun"),
                placement.get("owner"))] += int(placement.get("quantity"))
    nations = [n["id"] for n in imported.files["scenario"]["nations"]]
    players = {p.get("name"): n for p, n in zip(root.iter("player"), nations, strict=True)}
    kept = Counter()
    for entry in imported.files["setup"]["spaces"]:
        for stack in entry.get("units", []):
            owner = stack.get("owner", entry.get("control"))
            kept[(entry["space"], stack["type"], owner)] += stack["count"]
    assert kept == Counter({(s, u, players[o]): n for (s, u, o), n in placed.items()})
    assert imported.counts["placements"] == len(list(root.iter("unitPlacement")))
    owners = {territory_id(t.get("territory")): players[t.get("owner")] for t in root.iter("territoryOwner")}
    control = {e["space"]: e["control"] for e in imported.files["setup"]["spaces"] if "control" in e}
    assert control == owners


@needs_reference
@pytest.mark.parametrize("path", REFERENCE_FILES, ids=lambda p: p.stem)
def test_reference_objectives_and_canals(path):
    imported = import_game(path)
    assert len(imported.files["objectives"]["objectives"]) == 17
    canals = {c["id"]: c for c in imported.files["map"]["canals"]}
    assert canals["suez"]["joins"] == ["sz-15", "sz-34"]
    assert canals["suez"]["controlled_by"] == ["egypt", "trans-jordan"]
    assert canals["panama"]["joins"] == ["sz-19", "sz-20"]
    assert {n["id"]: n.get("played_by") for n in imported.files["scenario"]["nations"]}["china"] == "united-states"


def test_damaged_game_files_give_diagnostics_never_exceptions():
    """Attributes dropped, emptied or garbled, and lines lost: always a result or a refusal."""
    import random
    import re

    from sandtable.triplea import translate

    text = (TRIPLEA / "small-game.xml").read_text(encoding="utf-8")
    attributes = list(re.finditer(r'\s([A-Za-z]+)="[^"]*"', text))
    lines = text.split("\n")
    chance = random.Random(7)
    for _ in range(150):
        damaged = text
        for found in sorted(chance.sample(attributes, 3), key=lambda m: -m.start()):
            name = found.group(1)
            damaged = damaged[:found.start()] + chance.choice(["", f' {name}=""', f' {name}="?:x"']) \
                + damaged[found.end():]
        kept = "\n".join(line for line in lines if chance.random() > 0.05 or "game>" in line)
        for variant in (damaged, kept):
            try:
                translate(parse_xml(variant.encode("utf-8"), "damaged.xml"), "damaged")
            except XmlRefused:
                pass
