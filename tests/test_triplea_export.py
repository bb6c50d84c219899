"""Export to TripleA: valid against TripleA's game.dtd, and importing it back gives the same scenario.

"The same" is the game: every space, border, canal, nation, side, unit type, starting unit and
control, resource, option, victory condition and national objective, with every value. Names of
things TripleA names itself (spaces, units, nations) come back too; what TripleA's file has no
place for is documentation (notes, sources, texts, colours, objective and victory names), the
board's geometry (a TripleA map folder's business) and the rules' parameters beyond China's.
"""
from __future__ import annotations

import json
import shutil

import pytest

from sandtable.cli import main
from sandtable.safexml import parse_xml
from sandtable.scenario import load_scenario
from sandtable.triplea.export import ExportError, export_game
from sandtable.triplea.translate import translate

from helpers import REPO

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


def game(files: dict) -> dict:
    """What a TripleA game file says of a scenario, in a form to compare."""
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
        "china": {k: china[k] for k in ("nation", "territories", "infantry_per_territories", "placement_limit",
                                        "place_in_any_territory", "unit") if k in china},
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
