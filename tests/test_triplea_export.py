"""Export to TripleA: valid against TripleA's game.dtd, and importing it back gives the same scenario.

"The same" is the game: every space, border, canal, nation, side, unit type, starting unit and
control, resource, option, victory condition and national objective, with every value. Names of
things TripleA names itself (spaces, units, nations) come back as TripleA knows them: a space's
TripleA name (`triplea_name`, or made from its name) is its name in TripleA, and its display name
comes back only where it is the TripleA one. What TripleA's file has no place for is documentation
(notes, sources, texts, colours, objective and victory names, display names), the board's geometry
(a TripleA map folder's business) and the rules' parameters beyond China's.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from sandtable.cli import main
from sandtable.safexml import parse_xml
from sandtable.scenario import load_scenario
from sandtable.triplea.export import PLAYERS, ExportError, export_game
from sandtable.triplea.names import triplea_territory_name
from sandtable.triplea.translate import translate
from sandtable.yamlwrite import save_yaml

from helpers import FIXTURES, REPO

DTD = REPO.parent / "shared" / "reference" / "triplea" / "game.dtd"
SCENARIOS = ["aa50-1941", "aa50-1942"]
DOCUMENTATION = {"notes", "source", "sources", "text", "description", "color", "short_name", "reconstructed",
                 "position", "shape"}
FILES = ("scenario", "map", "units", "setup", "objectives")


def _plain(value):
    """Without documentation; `all` and `any` as sets (their order says nothing)."""
    if isinstance(value, dict):
        out = {k: _plain(v) for k, v in value.items() if k not in DOCUMENTATION}
        for key in ("all", "any"):
            if isinstance(out.get(key), list):
                out[key] = sorted(out[key], key=lambda c: json.dumps(c, sort_keys=True))
        return out
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _by_id(items, drop=()):
    return {item["id"]: {k: v for k, v in _plain(item).items() if k not in drop} for item in items}


def triplea_names(files: dict) -> dict:
    """The files with each space named by its TripleA name, and each nation's TripleA name given:
    what the export writes (triplea_name, else made from the name or the id)."""
    board, scenario = dict(files.get("map") or {}), dict(files.get("scenario") or {})
    board["spaces"] = [{**{k: v for k, v in s.items() if k != "triplea_name"},
                        "name": s.get("triplea_name") or triplea_territory_name(s["name"])}
                       for s in board.get("spaces", [])]
    scenario["nations"] = [{**n, "triplea_name": n.get("triplea_name") or PLAYERS.get(n["id"], n["id"])}
                           for n in scenario.get("nations", [])]
    return {**files, "map": board, "scenario": scenario}


def game(files: dict) -> dict:
    """What a TripleA game file says of a scenario, in a form to compare."""
    files = triplea_names(files)
    scenario, board, units, setup = (files.get(k) or {} for k in FILES[:4])
    objectives = (files.get("objectives") or {}).get("objectives", [])
    sets = lambda items: sorted(json.dumps(_plain(i), sort_keys=True) for i in items)  # noqa: E731
    china = (scenario.get("rules") or {}).get("china") or {}
    return {
        "spaces": _by_id(board.get("spaces", [])),
        "borders": sets(dict(b, between=sorted(b["between"])) for b in board.get("borders", [])),
        "canals": _by_id(board.get("canals", [])),
        "nations": _by_id(scenario.get("nations", [])),
        "sides": sorted(s["id"] for s in scenario.get("sides", [])),
        "turn_order": scenario.get("turn_order"),
        "resources": sorted(r["id"] for r in scenario.get("resources", [])),
        "options": {o["id"]: o["default"] for o in scenario.get("options", [])},
        "victory": _by_id(scenario.get("victory", []), drop=("name",)),
        "units": {u["id"]: dict(_plain(u), abilities=sets(u.get("abilities", [])))
                  for u in units.get("unit_types", [])},
        "setup": {e["space"]: dict(_plain(e), units=sets(e.get("units", []))) for e in setup.get("spaces", [])},
        "given": sets(setup.get("resources", [])),
        "objectives": _by_id(objectives, drop=("name",)),
        "china": {k: v for k, v in _plain(china).items() if k != "source"},
        "triplea_map": scenario.get("triplea_map"),
    }


@pytest.fixture(scope="module", params=SCENARIOS)
def exported(request):
    scenario = load_scenario(REPO / "scenarios" / request.param)
    return scenario, export_game(scenario)


def test_export_then_import_gives_the_same_scenario(exported):
    scenario, text = exported
    back = translate(parse_xml(text.encode("utf-8"), f"{scenario.id}.xml"), scenario.id)
    assert not back.has_errors and back.system == "aa50"
    assert [d.message for d in back.diagnostics if d.severity.value == "warning"] == []
    ours, theirs = game({k: scenario.doc(k) for k in FILES}), game(back.files)
    assert {k for k in ours if ours[k] != theirs[k]} == set()
    assert len(ours["spaces"]) == 162 and len(ours["objectives"]) == 17 and ours["china"]["territories"]


@pytest.mark.skipif(not DTD.is_file(), reason="shared/reference/triplea/game.dtd is not beside the repository")
def test_the_export_is_valid_against_triplea_game_dtd(exported):
    from lxml import etree
    _, text = exported
    dtd = etree.DTD(str(DTD))
    document = etree.fromstring(text.encode("utf-8"), etree.XMLParser(resolve_entities=False, no_network=True))
    assert dtd.validate(document), dtd.error_log.filter_from_errors()


def test_the_export_speaks_triplea(exported):
    _, text = exported
    assert '<player name="Russians" optional="false" />' in text
    assert '<territoryOwner territory="Karelia S.S.R." owner="Russians" />' in text
    assert '<option name="isSub" value="true" />' in text
    assert '<property name="sandtable.borders" value="[[&quot;wrap&quot;, &quot;20 Sea Zone&quot;' in text
    # what TripleA 1.9 requires: a version, typed properties, a map name; and the map's own names
    assert '<info name="Axis &amp; Allies 50th Anniversary Edition: 19' in text and 'version="1.0" />' in text
    assert '<property name="WW2V3" value="true" editable="false">\n      <boolean />' in text
    assert '<property name="mapName" value="world_war_ii_v3" editable="false">\n      <string />' in text
    assert '<territory name="Argentina Chile" />' in text and "Argentina/Chile" not in text
    # China's rules: switched on in TripleA, and what no TripleA option says kept for the import
    assert '<property name="Movement By Territory Restricted" value="true" editable="false">' in text
    assert ('<property name="sandtable.china" value="{&quot;no_replacement&quot;: [&quot;fighter&quot;], '
            '&quot;recapture_only&quot;: [&quot;Kwangtung&quot;]}" editable="false">') in text


def _folder_of(tmp_path, fixture: str, change=None) -> Path:
    """The scenario folder an import of a fixture gives, after `change(files)`."""
    imported = translate(parse_xml((FIXTURES / "triplea" / fixture).read_bytes(), fixture), "game")
    if change is not None:
        change(imported.files)
    folder = tmp_path / "game"
    folder.mkdir()
    for kind, data in imported.files.items():
        save_yaml(folder / f"{kind}.yaml", data, kind=kind, within=folder)
    return folder


def _round_trip(folder: Path):
    scenario = load_scenario(folder)
    text = export_game(scenario)
    back = translate(parse_xml(text.encode("utf-8"), "back.xml"), scenario.id)
    assert not back.has_errors
    ours, theirs = game({k: scenario.doc(k) for k in FILES}), game(back.files)
    return text, back, {k for k in ours if ours[k] != theirs[k]}


def test_neutral_units_go_without_an_owner_and_the_neutral_player_is_no_player(tmp_path):
    text, back, differences = _round_trip(_folder_of(tmp_path, "neutral-units.xml"))
    assert differences == set()
    assert '<unitPlacement unitType="infantry" territory="Sweden" quantity="2" />' in text
    assert "Neutral" not in text.split("<playerList>")[1].split("</playerList>")[0]
    scenario = back.files["scenario"]
    assert [s["id"] for s in scenario["sides"]] == ["axis", "allies", "neutral"]
    assert [v["side"] for v in scenario["victory"]] == ["axis", "allies"]   # none for the neutral side


def test_at_war_conditions_travel_as_at_war_players(tmp_path):
    def war(files):
        at_war = [{"at_war": {"owner": "germany", "with": n}} for n in ("soviet-union", "united-states")]
        paid = {"owner": "germany", "kind": "national_objective", "timing": "collect_income",
                "award": {"resource": "ipc", "amount": 5}}
        files["objectives"] = {"objectives": [
            {"id": "germany-war", "name": "War", **paid, "when": {"all": [*at_war, {"turn": {"min": 2}}]}},
            {"id": "germany-some-war", "name": "Some war", **paid, "when": {"at_least": {"count": 1, "of": at_war}}}]}
    text, _, differences = _round_trip(_folder_of(tmp_path, "neutral-units.xml", war))
    assert differences == set()
    assert '<option name="atWarPlayers" value="Russians:Americans" />' in text
    assert '<option name="atWarPlayers" value="Russians:Americans" count="1" />' in text


def test_unit_costs_travel_when_no_nation_takes_a_turn(tmp_path):
    def idle(files):
        del files["scenario"]["turn_order"]
        for nation in files["scenario"]["nations"]:
            nation["passive"] = True
    text, back, differences = _round_trip(_folder_of(tmp_path, "neutral-units.xml", idle))
    assert differences == set() and back.files["units"]["unit_types"][0]["cost"] == 3
    assert '<playerProduction player="Germans" frontier="production" />' in text


def test_export_refuses_a_version_tripleA_cannot_read_and_a_scenario_without_its_map(tmp_path):
    folder = tmp_path / "mine"
    shutil.copytree(REPO / "scenarios" / "northern-front", folder)
    path = folder / "scenario.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("triplea_map: world_war_ii_v3\n", "version: draft\n"),
                    encoding="utf-8")
    with pytest.raises(ExportError) as caught:
        export_game(load_scenario(folder))
    assert caught.value.problems == [
        "version 'draft': TripleA's version is numbers joined by dots (such as 1.2); change the scenario's version "
        "or leave it out",
        "the scenario names no TripleA map, and TripleA opens a game only on its map: give scenario.yaml a "
        "triplea_map (such as world_war_ii_v3)"]


def test_what_to_change_is_said_for_units_tripleA_sees_otherwise(tmp_path):
    """northern-front's units as they were: a cruiser without its tag, a submarine and a factory
    without their abilities. TripleA would take both ships for surface warships."""
    folder = tmp_path / "mine"
    shutil.copytree(REPO / "scenarios" / "northern-front", folder)
    units = load_scenario(folder).doc("units")
    for unit in units["unit_types"]:
        unit.pop("tags" if unit["id"] == "cruiser" else "abilities" if unit["id"] in ("submarine", "factory") else "-",
                 None)
    save_yaml(folder / "units.yaml", units, kind="units", within=folder)
    with pytest.raises(ExportError) as caught:
        export_game(load_scenario(folder))
    warship = ("is a sea unit that attacks and is no submarine (abilities cannot_hit_air, sub_movement, submerge, "
               "surprise_strike) or transport: TripleA counts it among the surface warships of its objectives; add "
               "the tag surface_warship, or make it a submarine")
    assert caught.value.problems == [
        f"unit type 'cruiser' {warship}", f"unit type 'submarine' {warship}",
        "unit type 'factory' is a structure without the abilities factory and capturable: TripleA's one kind of "
        "structure is the factory (isFactory); give it those abilities, or another domain"]


def test_a_victory_no_option_switches_becomes_a_triggered_victory():
    """northern-front's victories (two victory cities for the Axis; Finland and Norway Soviet for the
    Allies) are no TripleA victory option: they go as TripleA's maps write such a victory, conditions
    with a trigger that names the winners, and the property Triggered Victory on."""
    root = ElementTree.fromstring(export_game(load_scenario(REPO / "scenarios" / "northern-front")))
    attachments = {a.get("name"): (a.get("attachTo"), a.get("javaClass").rsplit(".", 1)[1],
                                   [(o.get("name"), o.get("value"), o.get("count")) for o in a.findall("option")])
                   for a in root.iter("attachment") if "victory" in a.get("name")}
    assert attachments == {
        "conditionAttachment_victory_axis-victory_0": (
            "Germans", "RulesAttachment", [("alliedOwnershipTerritories", "Karelia S.S.R.:Russia", "2")]),
        "triggerAttachment_victory_axis-victory": (
            "Germans", "TriggerAttachment", [("conditions", "conditionAttachment_victory_axis-victory_0", None),
                                             ("victory", "AXIS_VICTORY", None), ("players", "Germans", None)]),
        "conditionAttachment_victory_allies-victory_0": (
            "Russians", "RulesAttachment", [("directOwnershipTerritories", "Finland:Norway", None)]),
        "triggerAttachment_victory_allies-victory": (
            "Russians", "TriggerAttachment", [("conditions", "conditionAttachment_victory_allies-victory_0", None),
                                              ("victory", "ALLIES_VICTORY", None), ("players", "Russians", None)])}
    assert [p.get("value") for p in root.iter("property") if p.get("name") == "Triggered Victory"] == ["true"]


def test_a_victory_triplea_cannot_check_is_refused_by_name(tmp_path):
    folder = tmp_path / "mine"
    shutil.copytree(REPO / "scenarios" / "northern-front", folder)
    path = folder / "scenario.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "when: {controls: {owner: soviet-union, spaces: [finland, norway]}}",
        "when: {turn: {min: 6}}\n  option: sudden-death"), encoding="utf-8")
    with pytest.raises(ExportError) as caught:
        export_game(load_scenario(folder))
    assert caught.value.problems == [
        "victory 'allies-victory': its option 'sudden-death' is none of TripleA's victory options (projection, "
        "surrender-with-honor, total-war)"]


def test_what_triplea_cannot_say_is_refused_by_name(tmp_path):
    folder = tmp_path / "mine"
    shutil.copytree(REPO / "scenarios" / "aa50-1941", folder)
    path = folder / "map.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "- {between: [sz-20, sz-55], kind: wrap, source: rulebook §2.4}",
        "- {between: [sz-20, sz-55], kind: wrap, source: rulebook §2.4}\n"
        "- {between: [germany, czechoslovakia-hungary], kind: mountain}").replace(
        "- {between: [czechoslovakia-hungary, germany], kind: land}\n", ""), encoding="utf-8")
    with pytest.raises(ExportError) as caught:
        export_game(load_scenario(folder))
    assert caught.value.problems == [
        "border germany - czechoslovakia-hungary is mountain; TripleA knows land, sea and coast borders"]


def test_export_command_never_writes_through_a_link(tmp_path, capsys):
    target = tmp_path / "elsewhere" / "planted.xml"
    target.parent.mkdir()
    out = tmp_path / "aa50.xml"
    out.symlink_to(target)   # dangling
    assert main(["export", "triplea", str(REPO / "scenarios" / "aa50-1942"), str(out)]) == 2
    assert "use --force" in capsys.readouterr().err and not target.exists()
    assert main(["export", "triplea", str(REPO / "scenarios" / "aa50-1942"), str(out), "--force"]) == 0
    assert not target.exists() and not out.is_symlink() and out.read_text(encoding="utf-8").startswith("<?xml")


def test_export_command(tmp_path, capsys):
    out = tmp_path / "aa50.xml"
    assert main(["export", "triplea", str(REPO / "scenarios" / "aa50-1942"), str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE game')
    assert main(["export", "triplea", str(REPO / "scenarios" / "aa50-1942"), str(out)]) == 2
    assert "use --force" in capsys.readouterr().err
    assert main(["import", "triplea", str(out), str(tmp_path / "back"), "--quiet"]) == 0
    assert load_scenario(tmp_path / "back").system == "aa50"


def test_export_command_refuses_other_systems_and_broken_scenarios(tmp_path, capsys):
    assert main(["export", "triplea", str(REPO / "scenarios" / "gj69-southern-operation"),
                 str(tmp_path / "gj.xml")]) == 1
    assert "the export writes AA50-family scenarios" in capsys.readouterr().err
    broken = tmp_path / "broken"
    shutil.copytree(REPO / "scenarios" / "aa50-1941", broken)
    (broken / "setup.yaml").write_text((broken / "setup.yaml").read_text(encoding="utf-8").replace(
        "control: germany", "control: prussia", 1), encoding="utf-8")
    assert main(["export", "triplea", str(broken), str(tmp_path / "broken.xml")]) == 1
    err = capsys.readouterr().err
    assert "REF" in err and "nothing was written" in err and not (tmp_path / "broken.xml").exists()
    assert main(["export", "triplea", str(tmp_path / "nowhere"), str(tmp_path / "x.xml")]) == 2
